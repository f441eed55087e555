//! The assembler: source text → [`Program`].
//!
//! Stages: (1) read lines, following `.include` and expanding `.macro`s, into statements that keep their
//! spans; (2) collect declarations and labels; (3) parse every instruction against them. Errors do not stop the
//! assembly: every statement is checked and all diagnostics are returned together, like rustc.

#[allow(
    clippy::wildcard_imports,
    reason = "the assembler builds nearly every type of the AST"
)]
use crate::ast::*;
use crate::diagnostic::{Diagnostic, closest};
use crate::expr::{BinOp, ConstExpr, ExprKind};
use crate::lexer::{Tok, Token, lex_line};
use crate::source::{FileId, SourceFile, SourceMap, Span};
use std::cell::RefCell;
use std::collections::HashMap;

/// Finds the text of an `.include`d file.
pub trait IncludeResolver {
    /// `from` is the including file, `path` the string in the directive. Returns the included file (its name is
    /// what diagnostics show), or a one-line reason.
    fn resolve(&self, from: &SourceFile, path: &str) -> Result<SourceFile, String>;
}

/// Resolves includes relative to the including file's directory on disk.
pub struct FsResolver;

impl IncludeResolver for FsResolver {
    fn resolve(&self, from: &SourceFile, path: &str) -> Result<SourceFile, String> {
        let dir = std::path::Path::new(&from.name)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let full = normalize(&dir.join(path));
        read_source(&full).map(|text| SourceFile::new(full.display().to_string(), text))
    }
}

/// `a/./b/../c` → `a/c`, lexically, so an include cycle through `./` or `../` is seen as one.
fn normalize(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Largest source file the assembler reads (a program, an include).
pub const MAX_SOURCE_BYTES: u64 = 8 << 20;

/// Read a source file: a regular file, at most [`MAX_SOURCE_BYTES`], UTF-8. The error is one line.
pub fn read_source(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if meta.is_dir() {
        return Err(format!("`{shown}` is a directory, not an assembly file"));
    }
    if !meta.is_file() {
        return Err(format!("`{shown}` is not a regular file"));
    }
    // Refused by its size before a byte is read (the read below stops at the limit, too, for a growing file).
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(format!(
            "`{shown}` is larger than {MAX_SOURCE_BYTES} bytes, the limit for an assembly file"
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    decode_source(&shown, bytes)
}

/// The bytes of a source file (`shown` is its name in the error) as text, as [`read_source`] takes them: at most
/// [`MAX_SOURCE_BYTES`], a leading byte-order mark dropped, UTF-8. The error is one line.
pub fn decode_source(shown: &str, bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(format!(
            "`{shown}` is larger than {MAX_SOURCE_BYTES} bytes, the limit for an assembly file"
        ));
    }
    // A byte-order mark is not part of the program.
    let bytes = match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{shown}` is not UTF-8 text (invalid byte at offset {}); is it an assembly file?",
            e.utf8_error().valid_up_to()
        )
    })
}

/// An assembly that failed: every diagnostic, and the sources to render them with.
#[derive(Debug)]
pub struct AssembleError {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: SourceMap,
}

impl AssembleError {
    pub fn render(&self, color: bool) -> String {
        crate::diagnostic::render_all(&self.diagnostics, &self.sources, color)
    }
}

/// The instruction mnemonics, for suggestions.
pub const MNEMONICS: &[&str] = &[
    "mov",
    "sqrt",
    "rcp",
    "rsqrt",
    "ex2",
    "lg2",
    "sin",
    "cos",
    "copysign",
    "addc",
    "subc",
    "madc",
    "popc",
    "clz",
    "brev",
    "bfind",
    "bfe",
    "bfi",
    "prmt",
    "fns",
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "min",
    "max",
    "neg",
    "abs",
    "not",
    "and",
    "or",
    "xor",
    "shl",
    "shr",
    "mad",
    "fma",
    "setp",
    "selp",
    "cvt",
    "ld",
    "st",
    "shfl",
    "bra",
    "exit",
    "nop",
    "atom",
    "red",
    "bar",
    "barrier",
    "vote",
    "activemask",
    "match",
    "redux",
];

/// The directives, for suggestions.
pub const DIRECTIVES: &[&str] = &[
    ".kernel",
    ".desc",
    ".warp_sizes",
    ".scheduling",
    ".grid",
    ".block",
    ".param",
    ".buffer",
    ".shared",
    ".local",
    ".require",
    ".reg",
    ".pred",
    ".macro",
    ".endm",
    ".include",
];

/// Names expressions use that programs may not redefine.
const RESERVED: &[&str] = &["W", "i", "len", "min", "max"];

const MAX_INCLUDE_DEPTH: usize = 16;
/// Most statements after macro expansion and includes (a bound against expansion bombs).
const MAX_STATEMENTS: usize = 1 << 16;
/// Most source lines read, includes counted each time (a bound against include fan-out).
const MAX_LINES: usize = 1 << 20;
/// Most diagnostics reported; the rest are counted.
const MAX_DIAGNOSTICS: usize = 100;
const MAX_MACRO_DEPTH: usize = 32;
/// Most tokens in the statements of a program (16 a statement at [`MAX_STATEMENTS`]): about 50 MB of tokens.
const MAX_PROGRAM_TOKENS: usize = 1 << 20;

/// Assemble `text`, shown in diagnostics as `name` (a file read from disk, or typed in).
pub fn parse(name: &str, text: &str, resolver: &dyn IncludeResolver) -> Result<Program, AssembleError> {
    parse_file(SourceFile::new(name, text), resolver)
}

/// Assemble a source file (e.g. one built into the binary, see [`SourceFile::embedded`]).
pub fn parse_file(file: SourceFile, resolver: &dyn IncludeResolver) -> Result<Program, AssembleError> {
    let name = file.name.clone();
    let name = name.as_str();
    let mut asm = Assembler {
        sources: SourceMap::new(),
        diags: Vec::new(),
        macros: HashMap::new(),
        stmts: Vec::new(),
        expansions: 0,
        resolver,
        lines: 0,
        tokens: 0,
        declared: RefCell::default(),
        too_big: false,
    };
    let file = asm.sources.add(file);
    if let Some(d) = ptx_header(file, &asm.sources.file(file).text) {
        let program = asm.build(name);
        return Err(AssembleError {
            diagnostics: vec![d],
            sources: program.sources,
        });
    }
    asm.read_file(file, 0, &mut Vec::new());
    let program = asm.build(name);
    if asm.diags.is_empty() {
        Ok(program)
    } else {
        Err(AssembleError {
            diagnostics: asm.diags,
            sources: program.sources,
        })
    }
}

/// A PTX file (what `nvcc -ptx` and Numba write) starts, after its comments, with `.version`, `.target` or
/// `.address_size`, none of which is a warpsim directive: one error that says what the file is, instead of one
/// per line it does not understand.
fn ptx_header(file: FileId, text: &str) -> Option<Diagnostic> {
    let mut offset = 0;
    let mut in_block_comment = false;
    for raw in text.split_inclusive('\n') {
        let base = offset;
        offset += raw.len();
        let line = raw.trim();
        if in_block_comment {
            in_block_comment = !line.contains("*/");
            continue;
        }
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if line.starts_with("/*") {
            in_block_comment = !line.contains("*/");
            continue;
        }
        let directive = line.split_whitespace().next().unwrap_or("");
        if !matches!(directive, ".version" | ".target" | ".address_size") {
            return None;
        }
        let start = base + (raw.len() - raw.trim_start().len());
        let span = Span::new(file, start, start + directive.len());
        let shown: String = line.chars().take(40).collect();
        return Some(
            Diagnostic::error(span, format!("this is a PTX file (`{shown}`), not warpsim assembly"))
                .with_label("a PTX header")
                .with_help(
                    "warpsim runs programs in its own ISA (docs/ISA.md: PTX's warp instructions with a simpler \
                     syntax); it does not read PTX files yet. Rewrite the kernel in it, or start from a shipped \
                     program: `sim show butterfly_max`",
                ),
        );
    }
    None
}

/// One line worth of tokens after includes and macro expansion.
#[derive(Clone, Debug)]
struct Stmt {
    toks: Vec<Token>,
    /// The statement's text span (first to last token).
    span: Span,
    text: String,
    expanded_from: Option<Span>,
}

#[derive(Clone, Debug)]
struct Macro {
    params: Vec<String>,
    /// Body lines: tokens and their text.
    body: Vec<(Vec<Token>, String)>,
    /// Labels defined in the body: renamed per expansion so each expansion has its own.
    locals: Vec<String>,
    span: Span,
}

struct Assembler<'r> {
    sources: SourceMap,
    diags: Vec<Diagnostic>,
    macros: HashMap<String, Macro>,
    stmts: Vec<Stmt>,
    expansions: usize,
    resolver: &'r dyn IncludeResolver,
    /// Source lines read so far.
    lines: usize,
    /// Tokens of the statements kept so far.
    tokens: usize,
    /// Names of parameters, buffers and shared arrays declared so far, and of registers and predicates (`%name`).
    declared: std::cell::RefCell<std::collections::HashSet<String>>,
    /// A size limit was hit (reported once; assembly stops growing).
    too_big: bool,
}

fn strip_comment(line: &str) -> &str {
    let mut end = line.len();
    let mut in_str = false;
    let b = line.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(k + 1) == Some(&b'/') => {
                end = k;
                break;
            }
            b'#' if !in_str => {
                end = k;
                break;
            }
            _ => {}
        }
        k += 1;
    }
    line[..end].trim().trim_end_matches(';').trim_end()
}

fn ident(t: &Token) -> Option<&str> {
    match &t.tok {
        Tok::Ident(s) => Some(s),
        _ => None,
    }
}

impl Assembler<'_> {
    fn error(&mut self, d: Diagnostic) {
        if self.diags.len() < MAX_DIAGNOSTICS {
            self.diags.push(d);
        }
    }

    /// Stage 1: lines of a file into statements, through includes and macros.
    fn read_file(&mut self, file: FileId, depth: usize, include_stack: &mut Vec<String>) {
        let text = self.sources.file(file).text.clone();
        let name = self.sources.file(file).name.clone();
        include_stack.push(name.clone());
        let mut offset = 0;
        let mut open_macro: Option<(String, Macro)> = None;
        for raw in text.split_inclusive('\n') {
            let base = offset;
            offset += raw.len();
            self.lines += 1;
            if self.too_big
                || (self.lines > MAX_LINES
                    && self.over_limit(
                        Span::new(file, base, base + raw.len().min(1)),
                        format!("the program has more than {MAX_LINES} source lines (includes counted each time)"),
                    ))
            {
                break;
            }
            let line = raw.trim_end_matches('\n').trim_end_matches('\r');
            let toks = match lex_line(file, line, base) {
                Ok(t) => t,
                Err(e) => {
                    let mut d = Diagnostic::error(e.span, e.message).with_label("here");
                    if let Some(h) = e.help {
                        d = d.with_help(h);
                    }
                    self.error(d);
                    continue;
                }
            };
            if toks.is_empty() {
                continue;
            }
            let first = ident(&toks[0]).unwrap_or("").to_string();
            let span = toks[0].span.to(toks[toks.len() - 1].span);
            if let Some((_, m)) = open_macro.as_mut() {
                if first == ".endm" {
                    let (mname, m) = open_macro.take().expect("open macro");
                    self.macros.insert(mname, m);
                } else if first == ".include" {
                    self.error(
                        Diagnostic::error(span, "`.include` cannot stand inside a macro body")
                            .with_label("inside `.macro`")
                            .with_note("the macro starts here", Some(m.span))
                            .with_help(
                                "include the file before the macro definition; its macros are then usable inside",
                            ),
                    );
                } else if first == ".macro" {
                    self.error(
                        Diagnostic::error(span, "a macro cannot be defined inside another macro")
                            .with_label("nested `.macro`")
                            .with_note("the enclosing macro starts here", Some(m.span))
                            .with_help("close the first macro with `.endm` before starting another"),
                    );
                } else {
                    let mut k = 0;
                    while toks.len() >= k + 2 && toks[k + 1].tok == Tok::Colon {
                        if let Some(l) = ident(&toks[k]) {
                            m.locals.push(l.to_string());
                        }
                        k += 2;
                    }
                    m.body.push((toks, strip_comment(line).to_string()));
                }
                continue;
            }
            match first.as_str() {
                ".macro" => {
                    if let Some((name, params)) = self.macro_header(&toks) {
                        if self.macros.contains_key(&name) {
                            self.error(
                                Diagnostic::error(toks[1].span, format!("macro `{name}` is defined twice"))
                                    .with_label("second definition"),
                            );
                        }
                        open_macro = Some((
                            name,
                            Macro {
                                params,
                                body: Vec::new(),
                                locals: Vec::new(),
                                span,
                            },
                        ));
                    }
                }
                ".endm" => self.error(
                    Diagnostic::error(span, "`.endm` without a `.macro`")
                        .with_label("nothing to close")
                        .with_help("remove it, or start the macro with `.macro NAME params…`"),
                ),
                ".include" => self.include(&toks, span, depth, include_stack),
                _ => self.statement(toks, span, strip_comment(line).to_string(), None, 0),
            }
        }
        if let Some((name, m)) = open_macro {
            self.error(
                Diagnostic::error(m.span, format!("macro `{name}` is never closed"))
                    .with_label("starts here")
                    .with_help("end the macro body with a line `.endm`"),
            );
        }
        include_stack.pop();
    }

    fn macro_header(&mut self, toks: &[Token]) -> Option<(String, Vec<String>)> {
        let Some(name) = toks.get(1).and_then(ident) else {
            let span = toks.get(1).map(|t| t.span).unwrap_or(toks[0].span);
            self.error(
                Diagnostic::error(span, "expected a macro name after `.macro`")
                    .with_label("expected a name")
                    .with_help("write `.macro NAME param1, param2` and use the parameters as `\\param1`"),
            );
            return None;
        };
        let mut params = Vec::new();
        let mut k = 2;
        while k < toks.len() {
            match &toks[k].tok {
                Tok::Ident(p) if !p.contains('.') => {
                    if params.contains(p) {
                        self.error(
                            Diagnostic::error(toks[k].span, format!("macro parameter `{p}` is named twice"))
                                .with_label("second time"),
                        );
                        return None;
                    }
                    params.push(p.clone());
                }
                Tok::Comma => {}
                other => {
                    self.error(
                        Diagnostic::error(
                            toks[k].span,
                            format!("expected a parameter name, found {}", other.describe()),
                        )
                        .with_label("not a parameter name"),
                    );
                    return None;
                }
            }
            k += 1;
        }
        Some((name.to_string(), params))
    }

    fn include(&mut self, toks: &[Token], span: Span, depth: usize, include_stack: &mut Vec<String>) {
        let path = match toks.get(1).map(|t| &t.tok) {
            Some(Tok::Str(p)) if toks.len() == 2 => p.clone(),
            _ => {
                self.error(
                    Diagnostic::error(span, "expected a file name in quotes after `.include`")
                        .with_label("here")
                        .with_help("write `.include \"warp.s\"`"),
                );
                return;
            }
        };
        if depth >= MAX_INCLUDE_DEPTH {
            self.error(
                Diagnostic::error(span, format!("includes nested more than {MAX_INCLUDE_DEPTH} deep"))
                    .with_label("here")
                    .with_help("does a file include itself?"),
            );
            return;
        }
        let from = self.sources.file(span.file).clone();
        match self.resolver.resolve(&from, &path) {
            Ok(included) => {
                let name = included.name.clone();
                if include_stack.contains(&name) {
                    self.error(
                        Diagnostic::error(toks[1].span, format!("`{name}` includes itself"))
                            .with_label("include cycle")
                            .with_help("remove the `.include` that closes the cycle"),
                    );
                    return;
                }
                let id = self.sources.add(included);
                self.read_file(id, depth + 1, include_stack);
            }
            Err(reason) => self.error(
                Diagnostic::error(toks[1].span, format!("cannot include \"{path}\""))
                    .with_label(reason)
                    .with_help(
                        "paths are relative to the including file; shipped programs can include the shipped `warp.s`",
                    ),
            ),
        }
    }

    /// Report hitting a size limit once; returns whether assembly must stop growing.
    fn over_limit(&mut self, span: Span, what: String) -> bool {
        if !self.too_big {
            self.too_big = true;
            self.error(
                Diagnostic::error(span, what)
                    .with_label("the limit is reached here")
                    .with_help("do macros or includes expand into each other over and over?"),
            );
        }
        true
    }

    /// A statement: a macro invocation is expanded, anything else is kept.
    fn statement(&mut self, toks: Vec<Token>, span: Span, text: String, expanded_from: Option<Span>, depth: usize) {
        if self.too_big
            || (self.stmts.len() >= MAX_STATEMENTS
                && self.over_limit(span, format!("the program has more than {MAX_STATEMENTS} statements")))
        {
            return;
        }
        // A label may precede the macro name: `top: warp_max %v`.
        let mut head = 0;
        while toks.len() >= head + 2 && toks[head + 1].tok == Tok::Colon {
            head += 2;
        }
        let name = toks.get(head).and_then(ident).map(str::to_string);
        if let Some(m) = name.as_ref().and_then(|n| self.macros.get(n)).cloned() {
            if head > 0 {
                self.stmts.push(Stmt {
                    toks: toks[..head].to_vec(),
                    span: toks[0].span.to(toks[head - 1].span),
                    text: String::new(),
                    expanded_from,
                });
            }
            self.expand(
                &m,
                name.as_deref().unwrap_or(""),
                &toks[head..],
                span,
                expanded_from,
                depth,
            );
            return;
        }
        // The tokens kept for the later stages, over the whole program: bounded, so that 8 MiB of long lines
        // (or a macro that expands into them) cannot hold gigabytes of tokens and expression trees.
        self.tokens += toks.len();
        if self.tokens > MAX_PROGRAM_TOKENS {
            self.too_big = true;
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "the program has more than {MAX_PROGRAM_TOKENS} tokens (macro expansions counted each time)"
                    ),
                )
                .with_label("the limit is reached here")
                .with_help(
                    "initialise a buffer with an expression in `i` rather than a list of values, and repeat code \
                     with a loop or a macro invoked fewer times",
                ),
            );
            return;
        }
        self.stmts.push(Stmt {
            toks,
            span,
            text,
            expanded_from,
        });
    }

    fn expand(&mut self, m: &Macro, name: &str, toks: &[Token], call_span: Span, outer: Option<Span>, depth: usize) {
        if self.too_big {
            return;
        }
        if depth >= MAX_MACRO_DEPTH {
            // One report, then no more expansion: a self-invoking macro would otherwise branch without end.
            self.too_big = true;
            self.error(
                Diagnostic::error(
                    call_span,
                    format!("macro expansion nested more than {MAX_MACRO_DEPTH} deep"),
                )
                .with_label("here")
                .with_help("does the macro invoke itself?"),
            );
            return;
        }
        if self.expansions >= MAX_STATEMENTS {
            self.over_limit(call_span, format!("more than {MAX_STATEMENTS} macro expansions"));
            return;
        }
        // Arguments: comma-separated token groups.
        let mut args: Vec<Vec<Token>> = Vec::new();
        if toks.len() > 1 {
            args.push(Vec::new());
            for t in &toks[1..] {
                if t.tok == Tok::Comma {
                    args.push(Vec::new());
                } else if let Some(last) = args.last_mut() {
                    last.push(t.clone());
                }
            }
        }
        if args.len() != m.params.len() || args.iter().any(Vec::is_empty) {
            self.error(
                Diagnostic::error(
                    call_span,
                    format!(
                        "macro `{name}` takes {} argument{}, {} given",
                        m.params.len(),
                        if m.params.len() == 1 { "" } else { "s" },
                        args.iter().filter(|a| !a.is_empty()).count()
                    ),
                )
                .with_label("in this invocation")
                .with_note(format!("`{name}` is defined here"), Some(m.span))
                .with_help(format!("write `{name} {}`", m.params.join(", "))),
            );
            return;
        }
        self.expansions += 1;
        let suffix = format!("${}", self.expansions);
        let call = outer.unwrap_or(call_span);
        let arg_text: Vec<String> = args
            .iter()
            .map(|a| {
                let first = a[0].span;
                let last = a[a.len() - 1].span;
                self.sources.snippet(first.to(last)).to_string()
            })
            .collect();
        for (body, line_text) in &m.body {
            let mut out = Vec::with_capacity(body.len());
            let mut bad = false;
            // Local labels are renamed where they are labels: definitions (`name:`) and branch targets.
            let label_position = |k: usize| {
                let defines =
                    body.get(k + 1).is_some_and(|n| n.tok == Tok::Colon) && (k == 0 || body[k - 1].tok == Tok::Colon);
                let target = k > 0 && ident(&body[k - 1]).is_some_and(|op| op == "bra" || op == "bra.uni");
                defines || target
            };
            for (k, t) in body.iter().enumerate() {
                match &t.tok {
                    Tok::MacroArg(p) => match m.params.iter().position(|q| q == p) {
                        Some(k) => out.extend(args[k].iter().cloned()),
                        None => {
                            let d = Diagnostic::error(t.span, format!("macro `{name}` has no parameter `{p}`"))
                                .with_label("unknown parameter")
                                .with_help(match closest(p, m.params.iter().map(String::as_str)) {
                                    Some(s) => format!("did you mean `\\{s}`?"),
                                    None => format!("its parameters are: {}", m.params.join(", ")),
                                });
                            self.error(d);
                            bad = true;
                        }
                    },
                    Tok::Ident(s) if m.locals.contains(s) && label_position(k) => out.push(Token {
                        tok: Tok::Ident(format!("{s}{suffix}")),
                        span: t.span,
                    }),
                    _ => out.push(t.clone()),
                }
            }
            if bad || out.is_empty() {
                continue;
            }
            let mut text = line_text.clone();
            for (k, p) in m.params.iter().enumerate() {
                text = text.replace(&format!("\\{p}"), &arg_text[k]);
            }
            let span = body[0].span.to(body[body.len() - 1].span);
            self.statement(out, span, text, Some(call), depth + 1);
        }
    }

    /// Stages 2 and 3.
    fn build(&mut self, name: &str) -> Program {
        let stem = std::path::Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| name.to_string());
        let mut p = Program {
            local_bytes: 0,
            ptx: None,
            name: stem,
            description: None,
            warp_sizes: (2, 64),
            warp_sizes_span: None,
            scheduling: None,
            grid: None,
            block: None,
            params: Vec::new(),
            buffers: Vec::new(),
            shared: Vec::new(),
            requires: Vec::new(),
            regs: Vec::new(),
            preds: Vec::new(),
            labels: Vec::new(),
            instructions: Vec::new(),
            sources: SourceMap::new(),
        };
        let stmts = std::mem::take(&mut self.stmts);
        // Stage 2: directives and labels.
        let mut kernel_seen: Option<Span> = None;
        let mut label_spans: HashMap<String, Span> = HashMap::new();
        let mut bodies: Vec<(Stmt, usize)> = Vec::new();
        let mut pc = 0usize;
        for s in stmts {
            let mut start = 0;
            while s.toks.len() >= start + 2 && s.toks[start + 1].tok == Tok::Colon {
                let Some(label) = ident(&s.toks[start]).filter(|l| !l.starts_with('.')) else {
                    break;
                };
                if let Some(prev) = label_spans.get(label) {
                    self.error(
                        Diagnostic::error(s.toks[start].span, format!("label `{label}` is defined twice"))
                            .with_label("second definition")
                            .with_note("first defined here", Some(*prev)),
                    );
                } else {
                    label_spans.insert(label.to_string(), s.toks[start].span);
                    p.labels.push((label.to_string(), pc));
                }
                start += 2;
            }
            if start == s.toks.len() {
                continue;
            }
            let head = &s.toks[start];
            match &head.tok {
                Tok::Ident(d) if d.starts_with('.') => {
                    if start > 0 {
                        self.error(
                            Diagnostic::error(head.span, "a label cannot stand before a directive")
                                .with_label("directive after a label"),
                        );
                    }
                    let mut c = Cursor::new(&s.toks[start + 1..], s.span);
                    if d == ".kernel" {
                        if let Some(prev) = kernel_seen {
                            self.error(
                                Diagnostic::error(head.span, "`.kernel` given twice")
                                    .with_label("second")
                                    .with_note("first here", Some(prev)),
                            );
                        }
                        kernel_seen = Some(head.span);
                    }
                    if let Err(e) = self.directive(&mut p, d, head.span, &mut c) {
                        self.error(e);
                    }
                }
                _ => {
                    bodies.push((s.clone(), start));
                    pc += 1;
                }
            }
        }
        // Stage 3: instructions.
        let labels: HashMap<&str, usize> = p.labels.iter().map(|(l, pc)| (l.as_str(), *pc)).collect();
        #[allow(
            clippy::cast_possible_truncation,
            reason = "`.reg` and `.pred` declare at most u16::MAX registers each (checked in `registers`)"
        )]
        let ctx = Ctx {
            regs: p
                .regs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.width != Width::High)
                .map(|(k, r)| (r.name.as_str(), k as u16))
                .collect(),
            widths: p.regs.iter().map(|r| r.width).collect(),
            preds: p
                .preds
                .iter()
                .enumerate()
                .map(|(k, r)| (r.name.as_str(), k as u16))
                .collect(),
            buffers: &p.buffers,
            shared: &p.shared,
            labels: &labels,
            params: &p.params,
            macros: self.macros.keys().map(String::as_str).collect(),
        };
        let mut instructions = Vec::with_capacity(bodies.len());
        let mut diags = Vec::new();
        for (s, start) in &bodies {
            let toks = &s.toks[*start..];
            // An expanded line's tokens come from the body and the call site; its span is the body line.
            let span = match s.expanded_from {
                Some(_) => s.span,
                None => toks[0].span.to(toks[toks.len() - 1].span),
            };
            let text = if *start > 0 {
                // Drop the label from the text shown in traces.
                let mut t = s.text.as_str();
                for _ in 0..(*start / 2) {
                    t = t.split_once(':').map(|x| x.1).unwrap_or(t).trim_start();
                }
                t.to_string()
            } else {
                s.text.clone()
            };
            // Traces show the statement as written, with runs of spaces (column alignment) folded.
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match ctx.instruction(toks, span) {
                Ok((guard, op)) => instructions.push(Instruction {
                    guard,
                    op,
                    span,
                    text,
                    expanded_from: s.expanded_from,
                    origin: None,
                    param: None,
                    debug: None,
                }),
                Err(mut d) => {
                    if let Some(call) = s.expanded_from {
                        d = d.with_note("in this macro invocation", Some(call));
                    }
                    if self.diags.len() + diags.len() >= MAX_DIAGNOSTICS {
                        // Enough to act on: stop checking the rest.
                        diags.push(
                            Diagnostic::error(d.span, format!("too many errors; stopped after {MAX_DIAGNOSTICS}"))
                                .with_label("checking stopped here")
                                .with_help("fix the errors above and assemble again"),
                        );
                        break;
                    }
                    diags.push(d);
                }
            }
        }
        drop(ctx);
        let room = MAX_DIAGNOSTICS + 1 - self.diags.len().min(MAX_DIAGNOSTICS);
        diags.truncate(room);
        self.diags.extend(diags);
        p.instructions = instructions;
        p.sources = std::mem::take(&mut self.sources);
        p
    }

    /// Which directive this is: each declaration or setting has its own method; the statement must end after it.
    fn directive(&mut self, p: &mut Program, d: &str, span: Span, c: &mut Cursor) -> Result<(), Diagnostic> {
        match d {
            ".kernel" => {
                let (name, _) = c.ident("a kernel name")?;
                p.name = name;
            }
            ".desc" => p.description = Some(description(c)?),
            ".warp_sizes" => warp_sizes(p, span, c)?,
            ".scheduling" => {
                if p.scheduling.is_some() {
                    return Err(Diagnostic::error(span, "`.scheduling` given twice").with_label("second"));
                }
                let (word, at) = c.ident("`its` or `lockstep`")?;
                p.scheduling = Some(Scheduling::parse(&word).map_err(|e| {
                    Diagnostic::error(at, e).with_help(
                        "`.scheduling its` for a program whose diverged paths meet at warp-synchronous instructions",
                    )
                })?);
            }
            ".grid" | ".block" => {
                let e = shape(d, c)?;
                let slot = if d == ".grid" { &mut p.grid } else { &mut p.block };
                if slot.is_some() {
                    return Err(Diagnostic::error(span, format!("`{d}` given twice")).with_label("second"));
                }
                *slot = Some(e);
            }
            ".param" => self.param(p, c)?,
            ".shared" => self.shared(p, c)?,
            ".local" => {
                if p.local_bytes != 0 {
                    return Err(Diagnostic::error(span, "`.local` given twice").with_label("second"));
                }
                let at = c.peek().map_or(span, |t| t.span);
                match c.peek().map(|t| &t.tok) {
                    Some(&Tok::Int(n)) if n > 0 => {
                        c.pos += 1;
                        p.local_bytes = n.cast_unsigned();
                    }
                    _ => {
                        return Err(Diagnostic::error(at, "`.local` needs a size in bytes")
                            .with_label("expected a positive integer")
                            .with_help("write `.local 64`: each thread's local memory, in bytes"));
                    }
                }
            }
            ".require" => p.requires.push(require(c)?),
            ".buffer" => self.buffer(p, c)?,
            ".reg" | ".pred" => self.registers(p, d, Width::W32, c)?,
            _ if d.starts_with(".reg.") => {
                let width = match &d[5..] {
                    "b32" | "u32" | "s32" | "f32" => Width::W32,
                    "b64" | "u64" | "s64" | "f64" => Width::W64,
                    other => {
                        return Err(Diagnostic::error(span, format!("unknown register type `.{other}`"))
                            .with_label("expected a type")
                            .with_help("write `.reg %a` (32 bits) or `.reg.b64 %a` (64 bits: u64, s64, f64 values)"));
                    }
                };
                self.registers(p, ".reg", width, c)?;
            }
            _ => return Err(unknown_directive(d, span)),
        }
        c.finish()
    }

    /// `.param NAME = DEFAULT`: whether the name is new.
    fn param(&self, p: &mut Program, c: &mut Cursor) -> Result<(), Diagnostic> {
        let (name, nspan) = c.ident("a parameter name")?;
        self.check_new_name(p, &name, nspan)?;
        c.expect(&Tok::Eq, "`=` and a default value")?;
        let default = c.expr()?;
        p.params.push(ParamDecl {
            name,
            default,
            span: nspan,
        });
        Ok(())
    }

    /// `.shared NAME TYPE[LEN]` or `[]`: whether the array is the dynamic one (at most one, declared last).
    fn shared(&self, p: &mut Program, c: &mut Cursor) -> Result<(), Diagnostic> {
        let (name, nspan) = c.ident("a shared array name")?;
        self.check_new_name(p, &name, nspan)?;
        let elem = element_type(c, "write `.shared partial f32[32]`")?;
        c.expect(
            &Tok::LBracket,
            "`[` and the array length (or `[]` for the dynamic array)",
        )?;
        let len = if c.eat(&Tok::RBracket) {
            if let Some(prev) = p.shared.iter().find(|s| s.len.is_none()) {
                return Err(Diagnostic::error(nspan, "only one dynamic shared array is allowed")
                    .with_label("second dynamic array")
                    .with_note(format!("`{}` is dynamic already", prev.name), Some(prev.span))
                    .with_help("give this one a length, or carve both out of one dynamic array"));
            }
            None
        } else {
            let e = c.expr()?;
            c.expect(&Tok::RBracket, "`]`")?;
            Some(e)
        };
        if let Some(dynamic) = p.shared.iter().find(|s| s.len.is_none())
            && len.is_some()
        {
            return Err(
                Diagnostic::error(nspan, "the dynamic shared array must be declared last")
                    .with_label("declared after the dynamic array")
                    .with_note("the dynamic array", Some(dynamic.span))
                    .with_help(
                        "move this declaration above the `[]` one: the dynamic array ends the block's shared memory",
                    ),
            );
        }
        p.shared.push(SharedDecl {
            name,
            elem,
            len,
            span: nspan,
        });
        Ok(())
    }

    /// `.buffer NAME TYPE[LEN]`, optionally `= INIT`: whether the name is new and the buffer has an initialiser.
    fn buffer(&self, p: &mut Program, c: &mut Cursor) -> Result<(), Diagnostic> {
        let (name, nspan) = c.ident("a buffer name")?;
        self.check_new_name(p, &name, nspan)?;
        let elem = element_type(c, "write `.buffer in f32[W] = 2*i`")?;
        c.expect(&Tok::LBracket, "`[` and the buffer length")?;
        let len = c.expr()?;
        c.expect(&Tok::RBracket, "`]`")?;
        let init = if c.eat(&Tok::Eq) { Some(c.init()?) } else { None };
        p.buffers.push(BufferDecl {
            name,
            elem,
            len,
            init,
            span: nspan,
        });
        Ok(())
    }

    /// `.reg` or `.pred` (`d`), then `%a, %b` or `%r<4>`: which registers it declares, each new and not special.
    fn registers(&self, p: &mut Program, d: &str, width: Width, c: &mut Cursor) -> Result<(), Diagnostic> {
        loop {
            let (name, nspan) = match c.next() {
                Some(Token { tok: Tok::Reg(r), span }) => (r.clone(), *span),
                _ => {
                    return Err(Diagnostic::error(c.prev_span(), "expected a register name like `%v`")
                        .with_label("expected `%name`")
                        .with_help(format!("write `{d} %a, %b` or `{d} %r<4>` (for %r0 … %r3)")));
                }
            };
            let names: Vec<String> = if c.eat(&Tok::Lt) {
                let count = c.int("a register count")?;
                c.expect(&Tok::Gt, "`>`")?;
                if !(1..=1024).contains(&count) {
                    return Err(
                        Diagnostic::error(nspan.to(c.prev_span()), "register count out of range")
                            .with_label("expected 1 to 1024"),
                    );
                }
                (0..count).map(|k| format!("{name}{k}")).collect()
            } else {
                vec![name]
            };
            for n in names {
                if Special::parse(&n).is_some() {
                    return Err(Diagnostic::error(nspan, format!("`%{n}` is a special register"))
                        .with_label("reserved name")
                        .with_help("choose another name"));
                }
                // In the set of declared names, as `%name` (a buffer's name has no `%`): a scan of the list
                // would make 65,535 declarations take minutes.
                if !self.declared.borrow_mut().insert(format!("%{n}")) {
                    return Err(Diagnostic::error(nspan, format!("`%{n}` is declared twice")).with_label("second"));
                }
                let list = if d == ".reg" { &mut p.regs } else { &mut p.preds };
                if list.len() + 2 >= u16::MAX as usize {
                    return Err(Diagnostic::error(nspan, "too many registers").with_label("here"));
                }
                let high = format!("{n}.hi");
                list.push(Named {
                    name: n,
                    span: nspan,
                    width,
                });
                if width == Width::W64 {
                    // The second row of a 64-bit register: not a name a program can use.
                    list.push(Named {
                        name: high,
                        span: nspan,
                        width: Width::High,
                    });
                }
            }
            if !c.eat(&Tok::Comma) {
                return Ok(());
            }
        }
    }

    fn check_new_name(&self, p: &Program, name: &str, span: Span) -> Result<(), Diagnostic> {
        if RESERVED.contains(&name) {
            return Err(Diagnostic::error(span, format!("`{name}` is reserved in expressions"))
                .with_label("reserved")
                .with_help("`W` is the warp size; `i` and `len` are the index and length in an initialiser"));
        }
        if p.buffers.len() + p.shared.len() >= u16::MAX as usize {
            return Err(Diagnostic::error(span, "too many buffers and shared arrays")
                .with_label("one too many")
                .with_help(format!("a program declares at most {} of them", u16::MAX)));
        }
        if !self.declared.borrow_mut().insert(name.to_string()) {
            return Err(Diagnostic::error(span, format!("`{name}` is declared twice")).with_label("second declaration"));
        }
        Ok(())
    }
}

/// `.desc "TEXT"`: whether a string follows.
fn description(c: &mut Cursor) -> Result<String, Diagnostic> {
    match c.next() {
        Some(Token { tok: Tok::Str(s), .. }) => Ok(s.clone()),
        _ => Err(Diagnostic::error(c.here(), "expected a description in quotes")
            .with_label("expected a string")
            .with_help("write `.desc \"what the kernel computes\"`")),
    }
}

/// `.warp_sizes LO` or `LO..HI`: whether it is given once and both ends are powers of two from 2 to 64, in order.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "lo and hi are checked to be 2..=64 first"
)]
fn warp_sizes(p: &mut Program, span: Span, c: &mut Cursor) -> Result<(), Diagnostic> {
    if let Some(prev) = p.warp_sizes_span {
        return Err(Diagnostic::error(span, "`.warp_sizes` given twice")
            .with_label("second")
            .with_note("first here", Some(prev)));
    }
    let lo = c.int("the smallest warp size")?;
    let hi = if c.eat(&Tok::DotDot) {
        c.int("the largest warp size")?
    } else {
        lo
    };
    let ok = |v: i64| (2..=64).contains(&v) && v.count_ones() == 1;
    if !ok(lo) || !ok(hi) || lo > hi {
        return Err(Diagnostic::error(span.to(c.prev_span()), "invalid warp size range")
            .with_label("here")
            .with_help("warp sizes are powers of two from 2 to 64: write e.g. `.warp_sizes 8..64`"));
    }
    p.warp_sizes = (lo as u32, hi as u32);
    p.warp_sizes_span = Some(span.to(c.prev_span()));
    Ok(())
}

/// `.grid X[,Y[,Z]]` or `.block X[,Y[,Z]]`: one to three constant expressions, x first (as CUDA's `dim3`).
fn shape(d: &str, c: &mut Cursor) -> Result<Vec<ConstExpr>, Diagnostic> {
    let mut dims = vec![c.expr()?];
    while c.eat(&Tok::Comma) {
        let e = c.expr()?;
        if dims.len() == 3 {
            return Err(Diagnostic::error(e.span, format!("`{d}` has at most three components"))
                .with_label("a fourth component")
                .with_help(format!(
                    "write `{d} X`, `{d} X, Y` or `{d} X, Y, Z` (x, y, z as in CUDA's dim3)"
                )));
        }
        dims.push(e);
    }
    Ok(dims)
}

/// `.require COND, "MESSAGE"`: whether the message follows the condition.
fn require(c: &mut Cursor) -> Result<Require, Diagnostic> {
    let cond = c.expr()?;
    c.expect(&Tok::Comma, "`,` and a message in quotes")?;
    let message = match c.next() {
        Some(Token { tok: Tok::Str(m), .. }) => m.clone(),
        _ => {
            return Err(Diagnostic::error(c.prev_span(), "expected the message in quotes")
                .with_label("expected a string")
                .with_help("write `.require W >= 16, \"needs at least 16 lanes\"`"));
        }
    };
    let span = cond.span;
    Ok(Require { cond, message, span })
}

/// A directive no other arm knows: one a macro argument produced, or an unknown one (with the closest name).
fn unknown_directive(d: &str, span: Span) -> Diagnostic {
    if matches!(d, ".include" | ".macro" | ".endm") {
        return Diagnostic::error(span, format!("`{d}` cannot come from a macro argument"))
            .with_label("produced by a macro expansion")
            .with_help(format!("write `{d}` on its own line outside macro invocations"));
    }
    let e = Diagnostic::error(span, format!("unknown directive `{d}`")).with_label("unknown directive");
    match closest(d, DIRECTIVES.iter().copied()) {
        Some(s) => e.with_help(format!("did you mean `{s}`?")),
        None => e.with_help(format!("the directives are {}", DIRECTIVES.join(" "))),
    }
}

fn element_type(c: &mut Cursor, example: &str) -> Result<ElemTy, Diagnostic> {
    let (ty, tspan) = c.ident("an element type (u32, s32, f32, u64, s64, f64)")?;
    ElemTy::parse(&ty).ok_or_else(|| {
        Diagnostic::error(tspan, format!("unknown element type `{ty}`"))
            .with_label("expected u32, s32, f32, u64, s64 or f64")
            .with_help(example.to_string())
    })
}

/// Declarations an instruction is checked against.
struct Ctx<'a> {
    regs: HashMap<&'a str, u16>,
    /// Each register row's width.
    widths: Vec<Width>,
    preds: HashMap<&'a str, u16>,
    buffers: &'a [BufferDecl],
    shared: &'a [SharedDecl],
    labels: &'a HashMap<&'a str, usize>,
    params: &'a [ParamDecl],
    /// Defined macros: an invocation that reaches instruction parsing was guarded.
    macros: std::collections::HashSet<&'a str>,
}

/// Opcode parts after the mnemonic, with their spans.
struct Parts<'a> {
    items: Vec<(&'a str, Span)>,
    pos: usize,
    opcode: &'a str,
    mnemonic: &'a str,
    span: Span,
}

impl<'a> Parts<'a> {
    fn new(opcode: &'a str, span: Span) -> Parts<'a> {
        let mut items = Vec::new();
        let mut off = 0;
        for part in opcode.split('.') {
            items.push((
                part,
                Span::new(
                    span.file,
                    span.start as usize + off,
                    span.start as usize + off + part.len(),
                ),
            ));
            off += part.len() + 1;
        }
        let mnemonic = items[0].0;
        Parts {
            items,
            pos: 1,
            opcode,
            mnemonic,
            span,
        }
    }

    /// Take the next part if it is one of `options`.
    /// Whether `part` is among the parts not yet read.
    fn has(&self, part: &str) -> bool {
        self.items[self.pos..].iter().any(|(p, _)| *p == part)
    }

    /// Whether any part still to come is one of `parts`.
    fn has_any(&self, parts: &[&str]) -> bool {
        self.items[self.pos..].iter().any(|(p, _)| parts.contains(p))
    }

    /// Whether the next part is one of `options`.
    fn next_is(&self, options: &[&str]) -> bool {
        self.items.get(self.pos).is_some_and(|(p, _)| options.contains(p))
    }

    fn optional(&mut self, options: &[&str]) -> Option<&'a str> {
        let (p, _) = *self.items.get(self.pos)?;
        if options.contains(&p) {
            self.pos += 1;
            Some(p)
        } else {
            None
        }
    }

    /// The next part must be one of `options` (`what` names them in the message).
    fn required(&mut self, options: &[&str], what: &str) -> Result<&'a str, Diagnostic> {
        match self.items.get(self.pos).copied() {
            Some((p, span)) if options.contains(&p) => {
                self.pos += 1;
                let _ = span;
                Ok(p)
            }
            Some((p, span)) => Err(self.bad_part(p, span, options, what)),
            None => Err(Diagnostic::error(self.span, format!("`{}` needs {what}", self.opcode))
                .with_label(format!("expected {what}"))
                .with_help(format!(
                    "write `{}.{}`; one of: {}",
                    self.opcode,
                    options[0],
                    options.iter().map(|o| format!(".{o}")).collect::<Vec<_>>().join(" ")
                ))),
        }
    }

    fn bad_part(&self, p: &str, span: Span, options: &[&str], what: &str) -> Diagnostic {
        let d = Diagnostic::error(span, format!("unknown modifier `.{p}` for `{}`", self.mnemonic))
            .with_label(format!("expected {what}"));
        match closest(p, options.iter().copied()) {
            Some(s) => {
                let fixed = self.opcode.replacen(&format!(".{p}"), &format!(".{s}"), 1);
                d.with_help(format!("did you mean `{fixed}`?"))
            }
            None => d.with_help(format!(
                "expected one of: {}",
                options.iter().map(|o| format!(".{o}")).collect::<Vec<_>>().join(" ")
            )),
        }
    }

    fn ty(&mut self, allowed: &[Ty]) -> Result<Ty, Diagnostic> {
        let names: Vec<&str> = allowed.iter().map(|t| t.name()).collect();
        let n = self.required(&names, "a type")?;
        Ok(Ty::parse(n).expect("type name"))
    }

    fn finish(&self) -> Result<(), Diagnostic> {
        match self.items.get(self.pos) {
            None => Ok(()),
            Some(&(p, span)) => Err(Diagnostic::error(span, format!("unexpected modifier `.{p}`"))
                .with_label("not expected here")
                .with_help(format!(
                    "`{}` ends after `{}`",
                    self.mnemonic,
                    self.items[..self.pos].iter().map(|x| x.0).collect::<Vec<_>>().join(".")
                ))),
        }
    }
}

const INT_TYS: [Ty; 4] = [Ty::S32, Ty::U32, Ty::S64, Ty::U64];
/// The 16-bit float types ([`Op::Half`]).
const HALF_TYPES: [&str; 4] = ["f16", "f16x2", "bf16", "bf16x2"];
const ARITH_TYS: [Ty; 6] = [Ty::S32, Ty::U32, Ty::F32, Ty::S64, Ty::U64, Ty::F64];
const BIT_TYS: [Ty; 6] = [Ty::B32, Ty::U32, Ty::S32, Ty::B64, Ty::U64, Ty::S64];
const ALL_TYS: [Ty; 8] = Ty::ALL;
const CVT_TYS: [Ty; 6] = [Ty::F32, Ty::S32, Ty::U32, Ty::F64, Ty::S64, Ty::U64];

impl Ctx<'_> {
    fn instruction(&self, toks: &[Token], span: Span) -> Result<(Option<Guard>, Op), Diagnostic> {
        let mut c = Cursor::new(toks, span);
        let guard = if c.eat(&Tok::At) {
            let negated = c.eat(&Tok::Bang);
            let pred = self.pred(&mut c)?;
            Some(Guard { pred, negated })
        } else {
            None
        };
        let (opcode, ospan) = match c.next() {
            Some(Token {
                tok: Tok::Ident(s),
                span,
            }) => (s.as_str(), *span),
            Some(t) => {
                return Err(
                    Diagnostic::error(t.span, format!("expected an instruction, found {}", t.tok.describe()))
                        .with_label("expected an opcode")
                        .with_help(
                            "a line holds a label (`name:`), a directive (`.reg …`) or an instruction (`add.f32 …`)",
                        ),
                );
            }
            None => {
                return Err(Diagnostic::error(c.here(), "expected an instruction after the guard").with_label("here"));
            }
        };
        let mut parts = Parts::new(opcode, ospan);
        let op = self.op(&mut parts, &mut c)?;
        parts.finish()?;
        c.finish()?;
        Ok((guard, op))
    }

    fn op(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let m = parts.mnemonic;
        Ok(match m {
            "mov" => {
                let ty = parts.ty(&ALL_TYS)?;
                if ty == Ty::B64 && c.eat(&Tok::LBrace) {
                    // `mov.b64 {lo, hi}, a`
                    let lo = self.dst(c, Ty::B32)?;
                    c.comma()?;
                    let hi = self.dst(c, Ty::B32)?;
                    c.expect(&Tok::RBrace, "`}` after the two halves")?;
                    c.comma()?;
                    let a = self.src(c, Ty::B64)?;
                    return Ok(Op::Unpack { lo, hi, a });
                }
                let d = self.dst(c, ty)?;
                c.comma()?;
                if ty == Ty::B64 && c.eat(&Tok::LBrace) {
                    // `mov.b64 d, {lo, hi}`
                    let lo = self.src(c, Ty::B32)?;
                    c.comma()?;
                    let hi = self.src(c, Ty::B32)?;
                    c.expect(&Tok::RBrace, "`}` after the two halves")?;
                    return Ok(Op::Pack { d, lo, hi });
                }
                let a = self.src(c, ty)?;
                Op::Mov { ty, d, a }
            }
            "add" | "sub" | "mul" | "fma" | "min" | "max" | "neg" | "abs" | "cvt" if parts.has_any(&HALF_TYPES) => {
                self.half(m, parts, c)?
            }
            "rcp" | "sqrt" | "div" if parts.next_is(&["approx", "full"]) => self.approx(m, parts, c)?,
            "rsqrt" | "ex2" | "lg2" | "sin" | "cos" | "divadd" => self.approx(m, parts, c)?,
            "add" | "sub" | "mul" | "div" | "fma" | "sqrt" | "rcp" if parts.next_is(&["rz", "rm", "rp"]) => {
                self.rounded(m, parts, c)?
            }
            "add" | "sub" | "mul" | "div" | "fma" | "sqrt" | "min" | "max" | "abs" | "neg" if parts.has("ftz") => {
                self.rounded(m, parts, c)?
            }
            "cvt" if parts.has("ftz") => self.flush(parts, c)?,
            "rcp" => self.rounded(m, parts, c)?,
            "add" | "sub" | "mad" if parts.has("cc") => self.carry(m, parts, c)?,
            "addc" | "subc" | "madc" => self.carry(m, parts, c)?,
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl" | "shr"
            | "copysign" => self.binary(m, parts, c)?,
            "neg" | "abs" | "not" | "sqrt" | "popc" | "clz" | "brev" | "bfind" => self.unary(m, parts, c)?,
            "mad" | "fma" => self.ternary(m, parts, c)?,
            "bfe" | "prmt" | "fns" => self.bit_field(m, parts, c)?,
            "dp4a" | "dp2a" | "lop3" => self.dot(m, parts, c)?,
            "bfi" => {
                let ty = parts.ty(&[Ty::B32, Ty::B64])?;
                let d = self.dst(c, ty)?;
                c.comma()?;
                let a = self.src(c, ty)?;
                c.comma()?;
                let b = self.src(c, ty)?;
                c.comma()?;
                let pos = self.src(c, Ty::U32)?;
                c.comma()?;
                let len = self.src(c, Ty::U32)?;
                Op::Bfi { ty, d, a, b, pos, len }
            }
            "setp" => self.setp(parts, c)?,
            "selp" => self.selp(parts, c)?,
            "cvt" => self.cvt(parts, c)?,
            "ld" | "st" => self.memory(m, parts, c)?,
            "shfl" => self.shfl(parts, c)?,
            "atom" | "red" => self.atom(m == "atom", parts, c)?,
            "bar" | "barrier" => self.bar(parts, c)?,
            "vote" => self.vote(parts, c)?,
            "activemask" => {
                parts.required(&["b32"], "`.b32`")?;
                Op::Activemask {
                    d: self.dst(c, Ty::B32)?,
                }
            }
            "match" => self.match_sync(parts, c)?,
            "redux" => self.redux(parts, c)?,
            "bra" => self.branch(parts, c)?,
            "exit" => Op::Exit,
            "nop" => Op::Nop,
            "vprintf" => {
                let d = self.dst(c, Ty::B32)?;
                c.comma()?;
                let fmt = self.src(c, Ty::B64)?;
                c.comma()?;
                let args = self.src(c, Ty::B64)?;
                Op::Printf { d, fmt, args }
            }
            "assertfail" => {
                let message = self.src(c, Ty::B64)?;
                c.comma()?;
                let file = self.src(c, Ty::B64)?;
                c.comma()?;
                let line = self.src(c, Ty::U32)?;
                c.comma()?;
                let function = self.src(c, Ty::B64)?;
                Op::AssertFail {
                    message,
                    file,
                    line,
                    function,
                }
            }
            _ if self.macros.contains(parts.opcode) => {
                return Err(Diagnostic::error(
                    parts.span,
                    format!("a guard cannot stand before macro `{}`", parts.opcode),
                )
                .with_label("a guarded macro invocation")
                .with_help("guard the instructions inside the macro, or branch around the invocation"));
            }
            _ => {
                let d = Diagnostic::error(parts.span, format!("unknown opcode `{}`", parts.opcode))
                    .with_label("unknown opcode");
                return Err(match closest(m, MNEMONICS.iter().copied()) {
                    Some(s) => {
                        let fixed = format!("{s}{}", &parts.opcode[m.len()..]);
                        d.with_help(format!("did you mean `{fixed}`?"))
                    }
                    None => d.with_help("docs/ISA.md lists every instruction"),
                });
            }
        })
    }

    /// `add`, `sub`, `mul`, `div`, `rem`, `min`, `max`, `and`, `or`, `xor`, `shl`, `shr` (and predicate logic).
    fn binary(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        if matches!(m, "and" | "or" | "xor") && parts.optional(&["pred"]).is_some() {
            return self.pred_logic(m, c);
        }
        let half = if m == "mul" {
            parts.optional(&["lo", "hi", "wide"])
        } else {
            None
        };
        let rn = if matches!(m, "add" | "sub" | "mul" | "div") {
            parts.optional(&["rn"])
        } else {
            None
        };
        let ty = match (m, half) {
            ("mul", Some("wide")) => parts.ty(&[Ty::U32, Ty::S32])?,
            ("mul", Some("hi")) => parts.ty(&INT_TYS)?,
            ("rem", _) => parts.ty(&INT_TYS)?,
            ("and" | "or" | "xor" | "shl" | "shr", _) => parts.ty(&BIT_TYS)?,
            ("copysign", _) => parts.ty(&[Ty::F32, Ty::F64])?,
            _ => parts.ty(&ARITH_TYS)?,
        };
        check_rounding_modifiers(parts, half, rn, ty)?;
        // (The caller dispatched on these opcodes.)
        let op = BinaryOp::of_opcode(m, half).unwrap_or(BinaryOp::Shr);
        // `mul.wide` writes a 64-bit register.
        let d = self.dst(c, if op == BinaryOp::MulWide { ty.other_width() } else { ty })?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        // The shift amount is always a 32-bit unsigned integer.
        let bty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        let b = self.src(c, bty)?;
        Ok(Op::Binary { op, ty, d, a, b })
    }

    /// `add`, `sub`, `mul`, `div`, `fma`, `sqrt` and `rcp` rounded towards zero (`.rz`), minus infinity (`.rm`) or
    /// plus infinity (`.rp`), and `rcp.rn` (the others' `.rn` forms are their plain instructions), on `.f32` or
    /// `.f64`.
    ///
    /// With `.ftz` after the rounding (`add.rz.ftz.f32`, `fma.rn.ftz.f32`; `rn` when none is written, as in
    /// `mul.ftz.f32`), and `min`, `max`, `abs`, `neg` `.ftz.f32`: f32 only, subnormals flushed to zero.
    fn rounded(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        // (The caller dispatched on these opcodes.)
        let op = RoundedOp::of_opcode(m).unwrap_or(RoundedOp::Add);
        let ftz_form = parts.has("ftz");
        let roundings: &[&str] = if m == "rcp" || ftz_form {
            &["rn", "rz", "rm", "rp"]
        } else {
            &["rz", "rm", "rp"]
        };
        let rounding = if !op.rounds() || (ftz_form && !parts.next_is(roundings)) {
            Rounding::NearestFloat
        } else {
            match parts.required(roundings, "a rounding")? {
                "rn" => Rounding::NearestFloat,
                "rz" => Rounding::FloatZero,
                "rm" => Rounding::FloatDown,
                _ => Rounding::FloatUp,
            }
        };
        let ftz = parts.optional(&["ftz"]).is_some();
        let ty = parts.ty(if ftz { &[Ty::F32] } else { &[Ty::F32, Ty::F64] })?;
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        let mut more = [None, None];
        for slot in more.iter_mut().take(op.arity() - 1) {
            c.comma()?;
            *slot = Some(self.src(c, ty)?);
        }
        let [b, cc] = more;
        Ok(Op::Rounded {
            op,
            rounding,
            ftz,
            ty,
            d,
            a,
            b,
            c: cc,
        })
    }

    /// `cvt.ftz.f32.f32 d, a`: `a` with a subnormal flushed to zero ([`RoundedOp::Flush`]).
    fn flush(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.required(&["ftz"], "`.ftz`")?;
        parts.ty(&[Ty::F32])?;
        parts.ty(&[Ty::F32])?;
        let d = self.dst(c, Ty::F32)?;
        c.comma()?;
        let a = self.src(c, Ty::F32)?;
        Ok(Op::Rounded {
            op: RoundedOp::Flush,
            rounding: Rounding::NearestFloat,
            ftz: true,
            ty: Ty::F32,
            d,
            a,
            b: None,
            c: None,
        })
    }

    /// The special-function unit's approximations: `rcp`, `rsqrt`, `sqrt`, `ex2`, `lg2`, `sin`, `cos`, `div`
    /// `.approx[.ftz].f32`,
    /// `div.full[.ftz].f32`, and `rcp`/`rsqrt` `.approx.ftz.f64`.
    fn approx(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let precisions: &[&str] = if matches!(m, "div" | "divadd") {
            &["approx", "full"]
        } else {
            &["approx"]
        };
        let full = parts.required(precisions, "`.approx` (the special-function unit's approximation)")? == "full";
        let Some(op) = ApproxOp::of_opcode(m, full) else {
            return Err(Diagnostic::error(parts.span, format!("`{m}.full` does not exist"))
                .with_label("only `div` has a `.full` form")
                .with_help(format!("write `{m}.approx`")));
        };
        let ftz = parts.optional(&["ftz"]).is_some();
        if !ftz && op.has_f64(true) && parts.next_is(&["f64"]) {
            return Err(
                Diagnostic::error(parts.span, format!("`{}.f64` needs `.ftz`", op.name()))
                    .with_label("the f64 approximation flushes subnormals")
                    .with_help(format!("write `{}.ftz.f64`", op.name())),
            );
        }
        let ty = parts.ty(if op.has_f64(ftz) {
            &[Ty::F32, Ty::F64]
        } else {
            &[Ty::F32]
        })?;
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        let mut more = [None, None];
        for slot in more.iter_mut().take(op.arity() - 1) {
            c.comma()?;
            *slot = Some(self.src(c, ty)?);
        }
        let [b, cc] = more;
        Ok(Op::Approx {
            op,
            ftz,
            ty,
            d,
            a,
            b,
            c: cc,
        })
    }

    /// The carry chain: `add.cc`, `sub.cc`, `mad{.lo,.hi}.cc` (a carry out), `addc`, `subc`, `madc{.lo,.hi}` (a
    /// carry in, and out with `.cc`), on u32, s32, u64, s64: `OP.TYPE d[|cout], a, b[, c][, cin]`.
    fn carry(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let carry_in = matches!(m, "addc" | "subc" | "madc");
        let op = match m.trim_end_matches('c') {
            "add" => CarryOp::Add,
            "sub" => CarryOp::Sub,
            _ => match parts.required(&["lo", "hi"], "`.lo` or `.hi` (the product's half)")? {
                "lo" => CarryOp::MadLo,
                _ => CarryOp::MadHi,
            },
        };
        let carry_out = if carry_in {
            parts.optional(&["cc"]).is_some()
        } else {
            parts.required(&["cc"], "`.cc` (the carry out)")?;
            true
        };
        let ty = parts.ty(&INT_TYS)?;
        let d = self.dst(c, ty)?;
        let cout = if carry_out {
            c.expect(&Tok::Pipe, "`|` and the predicate the carry goes to")?;
            Some(self.pred(c)?)
        } else {
            None
        };
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        let third = if op.adds() {
            c.comma()?;
            Some(self.src(c, ty)?)
        } else {
            None
        };
        let cin = if carry_in {
            c.expect(&Tok::Comma, "`,` and the predicate that carries in")?;
            Some(self.pred(c)?)
        } else {
            None
        };
        Ok(Op::Carry {
            op,
            ty,
            d,
            a,
            b,
            c: third,
            cin,
            cout,
        })
    }

    /// `neg`, `abs`, `not` (and `not.pred`).
    fn unary(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let mut shift = false;
        if m == "not" && parts.optional(&["pred"]).is_some() {
            return self.pred_logic(m, c);
        }
        let ty = match m {
            "not" => parts.ty(&BIT_TYS)?,
            "popc" | "clz" | "brev" => parts.ty(&[Ty::B32, Ty::B64])?,
            "bfind" => {
                shift = parts.optional(&["shiftamt"]).is_some();
                parts.ty(&[Ty::U32, Ty::S32, Ty::U64, Ty::S64])?
            }
            "sqrt" => {
                parts.required(&["rn"], "`.rn` (the correctly rounded square root)")?;
                parts.ty(&[Ty::F32, Ty::F64])?
            }
            _ => parts.ty(&[Ty::S32, Ty::F32, Ty::S64, Ty::F64])?,
        };
        let op = match m {
            "neg" => UnaryOp::Neg,
            "abs" => UnaryOp::Abs,
            "sqrt" => UnaryOp::Sqrt,
            "popc" => UnaryOp::Popc,
            "clz" => UnaryOp::Clz,
            "brev" => UnaryOp::Brev,
            "bfind" if shift => UnaryOp::BfindShift,
            "bfind" => UnaryOp::Bfind,
            _ => UnaryOp::Not,
        };
        // Counts and positions are 32-bit results, whatever the operand's width.
        let d = match op {
            UnaryOp::Popc | UnaryOp::Clz | UnaryOp::Bfind | UnaryOp::BfindShift => self.dst(c, Ty::U32)?,
            _ => self.dst(c, ty)?,
        };
        c.comma()?;
        let a = self.src(c, ty)?;
        Ok(Op::Unary { op, ty, d, a })
    }

    /// `bfe.{u32,s32,u64,s64} d, a, pos, len`, `prmt.b32 d, a, b, c` (its default mode only) and
    /// `fns.b32 d, mask, base, offset`.
    fn bit_field(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let (op, ty) = match m {
            "bfe" => (TernaryOp::Bfe, parts.ty(&[Ty::U32, Ty::S32, Ty::U64, Ty::S64])?),
            "fns" => (TernaryOp::Fns, parts.ty(&[Ty::B32])?),
            _ => (TernaryOp::Prmt, parts.ty(&[Ty::B32])?),
        };
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let (bt, ct) = if op == TernaryOp::Bfe {
            (Ty::U32, Ty::U32)
        } else {
            (ty, ty)
        };
        let b = self.src(c, bt)?;
        c.comma()?;
        let cc = self.src(c, ct)?;
        Ok(Op::Ternary { op, ty, d, a, b, c: cc })
    }

    /// `dp4a.ATYPE.BTYPE d, a, b, c`, `dp2a.{lo,hi}.ATYPE.BTYPE d, a, b, c` (ATYPE, BTYPE: `u32` or `s32`) and
    /// `lop3.b32 d, a, b, c, LUT` (LUT an integer literal from 0 to 255).
    fn dot(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let (op, ty) = if m == "lop3" {
            parts.ty(&[Ty::B32])?;
            (TernaryOp::Lop3(0), Ty::B32)
        } else {
            let hi = if m == "dp2a" {
                parts.required(&["lo", "hi"], "`.lo` or `.hi` (which bytes of b)")? == "hi"
            } else {
                false
            };
            let a_signed = parts.ty(&[Ty::U32, Ty::S32])? == Ty::S32;
            let b_signed = parts.ty(&[Ty::U32, Ty::S32])? == Ty::S32;
            let op = if m == "dp4a" {
                TernaryOp::Dp4a { a_signed, b_signed }
            } else {
                TernaryOp::Dp2a { hi, a_signed, b_signed }
            };
            (op, if a_signed || b_signed { Ty::S32 } else { Ty::U32 })
        };
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        c.comma()?;
        let cc = self.src(c, ty)?;
        let op = if m == "lop3" {
            c.comma()?;
            let span = c.peek().map(|t| t.span);
            let lut = c.int("the lookup table, an integer from 0 to 255")?;
            TernaryOp::Lop3(u8::try_from(lut).map_err(|_| {
                Diagnostic::error(span.unwrap_or(parts.span), format!("`{lut}` is not a lookup table"))
                    .with_label("from 0 to 255")
                    .with_help("the table of F is F(0xf0, 0xcc, 0xaa): 0x96 is a ^ b ^ c")
            })?)
        } else {
            op
        };
        Ok(Op::Ternary { op, ty, d, a, b, c: cc })
    }

    /// `mad` and `fma`.
    fn ternary(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let mut half = None;
        let ty = if m == "fma" {
            parts.optional(&["rn"]);
            parts.ty(&[Ty::F32, Ty::F64])?
        } else {
            half = parts.optional(&["lo", "hi", "wide"]);
            let rn = parts.optional(&["rn"]);
            let ty = match half {
                Some("wide") => parts.ty(&[Ty::U32, Ty::S32])?,
                Some(_) => parts.ty(&INT_TYS)?,
                None => parts.ty(&ARITH_TYS)?,
            };
            check_rounding_modifiers(parts, half, rn, ty)?;
            ty
        };
        let op = match (m, half) {
            ("fma", _) => TernaryOp::Fma,
            (_, Some("hi")) => TernaryOp::MadHi,
            (_, Some("wide")) => TernaryOp::MadWide,
            _ => TernaryOp::Mad,
        };
        // `mad.wide` adds a 64-bit `c` and writes a 64-bit register.
        let wide_ty = if op == TernaryOp::MadWide { ty.other_width() } else { ty };
        let d = self.dst(c, wide_ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        c.comma()?;
        let cc = self.src(c, wide_ty)?;
        Ok(Op::Ternary { op, ty, d, a, b, c: cc })
    }

    /// 16-bit float arithmetic (`add.f16`, `fma.rn.f16x2`, `min.bf16`, …: `.rn` is optional where it rounds) and
    /// the conversions `cvt.rn.{f16,bf16}.f32`, `cvt.rn.{f16x2,bf16x2}.f32 d, a, b` and `cvt.f32.{f16,bf16}`, on
    /// 32-bit registers.
    fn half(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let (op, name) = if m == "cvt" {
            if parts.optional(&["rn"]).is_some() {
                let t = parts.required(&HALF_TYPES, "a 16-bit float type")?;
                parts.required(&["f32"], "`.f32` (the source)")?;
                (HalfOp::FromF32, t)
            } else {
                parts.required(&["f32"], "`.rn` or `.f32`")?;
                let t = parts.required(&["f16", "bf16"], "`.f16` or `.bf16` (the source)")?;
                (HalfOp::ToF32, t)
            }
        } else {
            let op = HalfOp::ARITHMETIC
                .iter()
                .find(|(n, _)| *n == m)
                .map(|(_, h)| *h)
                .expect("dispatched by name");
            if op.rounds() {
                parts.optional(&["rn"]);
            }
            (op, parts.required(&HALF_TYPES, "a 16-bit float type")?)
        };
        let (bf16, x2) = (name.starts_with("bf"), name.ends_with("x2"));
        let d = self.dst(c, Ty::B32)?;
        let mut operands = Vec::new();
        for _ in 0..op.arity(x2) {
            c.comma()?;
            operands.push(self.src(c, if op == HalfOp::FromF32 { Ty::F32 } else { Ty::B32 })?);
        }
        let mut operands = operands.into_iter();
        Ok(Op::Half {
            op,
            bf16,
            x2,
            d,
            a: operands.next().expect("one operand at least"),
            b: operands.next(),
            c: operands.next(),
        })
    }

    /// `setp.CMP.TYPE`: only equality for `.b32`.
    fn setp(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let names: Vec<&str> = Cmp::ALL.iter().map(|c| c.name()).collect();
        let cmp_name = parts.required(&names, "a comparison")?;
        let cmp = Cmp::ALL.into_iter().find(|c| c.name() == cmp_name).expect("cmp");
        let ftz = parts.optional(&["ftz"]).is_some();
        let ty = parts.ty(if ftz { &[Ty::F32] } else { &ALL_TYS })?;
        if matches!(ty, Ty::B32 | Ty::B64) && !matches!(cmp, Cmp::Eq | Cmp::Ne) {
            let (u, s) = if ty == Ty::B32 { ("u32", "s32") } else { ("u64", "s64") };
            return Err(
                Diagnostic::error(parts.span, format!("`.{}` compares only for equality", ty.name()))
                    .with_label("ordering needs a type")
                    .with_help(format!("write `setp.{}.{u}` or `setp.{}.{s}`", cmp.name(), cmp.name())),
            );
        }
        let p = self.pred(c)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        Ok(Op::Setp { cmp, ftz, ty, p, a, b })
    }

    /// `selp.TYPE d, a, b, p`.
    fn selp(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let ty = parts.ty(&ALL_TYS)?;
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        c.comma()?;
        let p = self.pred(c)?;
        Ok(Op::Selp { ty, d, a, b, p })
    }

    /// `ld` and `st` in the global or shared space; `.u8`, `.s8`, `.b8`, `.u16`, `.s16`, `.b16` move the low bytes
    /// of a 32-bit register at a byte address.
    fn memory(&self, m: &str, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let space = space(parts)?;
        let narrow_span = parts.items.get(parts.pos).map(|&(_, s)| s);
        let narrow = parts.optional(&Narrow::NAMES).and_then(Narrow::parse);
        let ty = if narrow.is_some() { Ty::B32 } else { parts.ty(&ALL_TYS)? };
        let addr_at = c.peek().map_or(c.end_span(), |t| t.span);
        let check = |addr: &Address| match narrow {
            Some(n) if addr.mode == AddrMode::Element => Err(Diagnostic::error(
                narrow_span.unwrap_or(addr_at),
                format!("an {}-bit access takes a byte address", n.bits()),
            )
            .with_label("element index with a sub-word type")
            .with_help(format!(
                "write a byte offset, `[{} + %off]`, or a register address `[%rd]`",
                match addr.space {
                    Space::Shared => self.shared[addr.buffer].name.as_str(),
                    _ => self.buffers[addr.buffer].name.as_str(),
                }
            ))),
            _ => Ok(()),
        };
        if m == "ld" {
            let d = self.dst(c, ty)?;
            c.comma()?;
            let addr = self.address(c, ty, space, narrow.is_some())?;
            check(&addr)?;
            Ok(Op::Ld { ty, d, addr, narrow })
        } else {
            let addr = self.address(c, ty, space, narrow.is_some())?;
            check(&addr)?;
            c.comma()?;
            let a = self.src(c, ty)?;
            Ok(Op::St { ty, addr, a, narrow })
        }
    }

    /// `vote.sync.MODE`: a predicate (all, any, uni) or a lane mask (ballot).
    fn vote(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.optional(&["sync"]);
        let names = ["all", "any", "uni", "ballot"];
        let mode = match parts.required(&names, "a vote mode (all, any, uni, ballot)")? {
            "all" => VoteMode::All,
            "any" => VoteMode::Any,
            "uni" => VoteMode::Uni,
            _ => VoteMode::Ballot,
        };
        let (d_pred, d_reg) = if mode == VoteMode::Ballot {
            parts.required(&["b32"], "`.b32` (a ballot is a lane mask)")?;
            (None, Some(self.dst(c, Ty::B32)?))
        } else {
            parts.required(&["pred"], "`.pred`")?;
            (Some(self.pred(c)?), None)
        };
        c.comma()?;
        let a = self.pred_operand(c)?;
        let mask = self.optional_mask(c)?;
        Ok(Op::Vote {
            mode,
            d_pred,
            d_reg,
            a,
            mask,
        })
    }

    /// `redux.sync.OP.TYPE d, a{, mask}`: `add`, `min`, `max` of `.u32`/`.s32`; `and`, `or`, `xor` of `.b32`.
    fn redux(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.required(&["sync"], "`.sync`")?;
        let names = ReduxOp::ALL.map(ReduxOp::name);
        let name = parts.required(&names, "a reduction (add, min, max, and, or, xor)")?;
        let op = ReduxOp::ALL
            .into_iter()
            .find(|o| o.name() == name)
            .unwrap_or(ReduxOp::Add);
        let ty = if op.bitwise() {
            parts.required(&["b32"], "`.b32`")?;
            Ty::B32
        } else if parts.required(&["u32", "s32"], "`.u32` or `.s32`")? == "s32" {
            Ty::S32
        } else {
            Ty::U32
        };
        let d = self.dst(c, ty)?;
        c.comma()?;
        let a = self.src(c, ty)?;
        let mask = self.optional_mask(c)?;
        Ok(Op::Redux { op, ty, d, a, mask })
    }

    /// `match.{any,all}.sync.b32 d{|p}, a{, mask}`.
    fn match_sync(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.optional(&["sync"]);
        let all = parts.required(&["any", "all"], "a match mode (any, all)")? == "all";
        parts.required(&["b32"], "`.b32`")?;
        let d = self.dst(c, Ty::B32)?;
        let p = if all && c.eat(&Tok::Pipe) {
            Some(self.pred(c)?)
        } else {
            None
        };
        c.comma()?;
        let a = self.src(c, Ty::B32)?;
        let mask = self.optional_mask(c)?;
        Ok(Op::Match { all, d, p, a, mask })
    }

    /// `bra{.uni} LABEL`: a label defined anywhere in the program, with a suggestion for a misspelt one.
    fn branch(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.optional(&["uni"]);
        let (name, span) = c.ident("a label")?;
        match self.labels.get(name.as_str()) {
            Some(&target) => Ok(Op::Bra { target }),
            None => {
                let d = Diagnostic::error(span, format!("unknown label `{name}`")).with_label("no such label");
                Err(
                    match closest(&name, self.labels.keys().copied().filter(|l| !l.contains('$'))) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None => d.with_help("define it with a line `name:` before the instruction it names"),
                    },
                )
            }
        }
    }

    fn atom(&self, returns: bool, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let at = parts.items.get(parts.pos).map(|x| x.1);
        let space = space(parts)?;
        if space == Space::Local {
            return Err(Diagnostic::error(
                at.unwrap_or(parts.span),
                format!("`{}` has no `.local` form", parts.mnemonic),
            )
            .with_label("PTX defines atomics on global and shared memory")
            .with_help("keep the value in a register, or use `.global` or `.shared` memory"));
        }
        let names: Vec<&str> = AtomOp::ALL.iter().map(|o| o.name()).collect();
        let name = parts.required(
            &names,
            "an operation (add, min, max, exch, cas, and, or, xor, inc, dec)",
        )?;
        let op = AtomOp::ALL.into_iter().find(|o| o.name() == name).expect("atom op");
        // PTX's atom types, and warpsim's f32 min/max and typed exch/cas (the same bits).
        let allowed: &[Ty] = match op {
            AtomOp::Add => &[Ty::U32, Ty::S32, Ty::F32, Ty::U64, Ty::F64],
            AtomOp::Min | AtomOp::Max => &[Ty::U32, Ty::S32, Ty::F32, Ty::U64, Ty::S64],
            AtomOp::Exch | AtomOp::Cas => &ALL_TYS,
            AtomOp::And | AtomOp::Or | AtomOp::Xor => &BIT_TYS,
            AtomOp::Inc | AtomOp::Dec => &[Ty::U32],
        };
        let ty = parts.ty(allowed)?;
        if !returns && op == AtomOp::Cas {
            return Err(Diagnostic::error(parts.span, "`red` has no `cas` form")
                .with_label("compare-and-swap returns the old value")
                .with_help("write `atom.SPACE.cas.b32 %old, [addr], %compare, %new`"));
        }
        let d = if returns {
            let d = self.dst(c, ty)?;
            c.comma()?;
            Some(d)
        } else {
            None
        };
        let addr = self.address(c, ty, space, false)?;
        c.comma()?;
        let b = self.src(c, ty)?;
        let cc = if op == AtomOp::Cas {
            c.comma()?;
            Some(self.src(c, ty)?)
        } else {
            None
        };
        Ok(Op::Atom {
            op,
            ty,
            d,
            addr,
            b,
            c: cc,
        })
    }

    /// `bar.sync id[, count]`, `bar.arrive id, count`, `bar.red.popc.u32 d, id[, count], p`,
    /// `bar.red.{and,or}.pred d, id[, count], p`, `bar.warp.sync mask`.
    fn bar(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let form = parts.required(
            &["sync", "red", "warp", "arrive"],
            "`.sync`, `.arrive`, `.red` or `.warp.sync`",
        )?;
        let kind = match form {
            "arrive" => {
                let id = self.src(c, Ty::U32)?;
                c.comma()?;
                let count = Some(self.src(c, Ty::U32)?);
                return Ok(Op::Bar {
                    kind: BarKind::Arrive,
                    id,
                    count,
                    pred: None,
                });
            }
            "warp" => {
                parts.required(&["sync"], "`.sync`")?;
                let mask = if c.peek().is_some() {
                    Some(self.src(c, Ty::U32)?)
                } else {
                    None
                };
                return Ok(Op::BarWarp { mask });
            }
            "sync" => BarKind::Sync,
            _ => match parts.required(&["popc", "and", "or"], "a reduction (popc, and, or)")? {
                "popc" => {
                    parts.required(&["u32"], "`.u32`")?;
                    let d = self.dst(c, Ty::U32)?;
                    c.comma()?;
                    BarKind::Popc(d)
                }
                op => {
                    parts.required(&["pred"], "`.pred`")?;
                    let d = self.pred(c)?;
                    c.comma()?;
                    if op == "and" { BarKind::And(d) } else { BarKind::Or(d) }
                }
            },
        };
        let id = if kind == BarKind::Sync && c.peek().is_none() {
            Operand::Imm(ConstExpr::int(0, parts.span))
        } else {
            self.src(c, Ty::U32)?
        };
        // The optional thread count, then (for bar.red) the predicate.
        let mut count = None;
        let mut pred = None;
        if kind == BarKind::Sync {
            if c.eat(&Tok::Comma) {
                count = Some(self.src(c, Ty::U32)?);
            }
        } else {
            c.comma()?;
            let is_pred = |c: &Cursor| match c.peek().map(|t| &t.tok) {
                Some(Tok::Bang) => true,
                Some(Tok::Reg(r)) => self.preds.contains_key(r.as_str()),
                _ => false,
            };
            if !is_pred(c) {
                count = Some(self.src(c, Ty::U32)?);
                c.comma()?;
            }
            pred = Some(self.pred_operand(c)?);
        }
        Ok(Op::Bar { kind, id, count, pred })
    }

    /// `, mask=M` or a bare `, M` after the operands of vote/match: a constant or a register.
    fn optional_mask(&self, c: &mut Cursor) -> Result<Option<Operand>, Diagnostic> {
        if !c.eat(&Tok::Comma) {
            return Ok(None);
        }
        if matches!((c.peek(), c.peek_at(1)), (Some(Token { tok: Tok::Ident(k), .. }), Some(Token { tok: Tok::Eq, .. })) if k == "mask")
        {
            c.pos += 2;
        }
        Ok(Some(self.src(c, Ty::U32)?))
    }

    fn pred_logic(&self, m: &str, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let d = self.pred(c)?;
        c.comma()?;
        let a = self.pred_operand(c)?;
        let (op, b) = match m {
            "not" => (PredLogicOp::Not, None),
            _ => {
                c.comma()?;
                let b = self.pred_operand(c)?;
                let op = match m {
                    "and" => PredLogicOp::And,
                    "or" => PredLogicOp::Or,
                    _ => PredLogicOp::Xor,
                };
                (op, Some(b))
            }
        };
        Ok(Op::PredLogic { op, d, a, b })
    }

    fn pred_operand(&self, c: &mut Cursor) -> Result<PredOperand, Diagnostic> {
        let negated = c.eat(&Tok::Bang);
        Ok(PredOperand {
            pred: self.pred(c)?,
            negated,
        })
    }

    /// `cvt.RND.TO.FROM d, a` between u32, s32, f32, u64, s64 and f64, with PTX's rounding rules: float → integer
    /// and float → the same float type (rounding to an integral value) take an integer rounding (`rni`, `rzi`,
    /// `rmi`, `rpi`); integer → float and f64 → f32 take a float rounding (`rn`, the default, `rz`, `rm`, `rp`);
    /// integer → integer and f32 → f64 are exact and take none.
    fn cvt(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        let rnd = parts.optional(&["rni", "rzi", "rmi", "rpi", "rn", "rz", "rm", "rp"]);
        let to = parts.ty(&CVT_TYS)?;
        let from = parts.ty(&CVT_TYS)?;
        let integer_rounding = |r: &str| match r {
            "rni" => Some(Rounding::Nearest),
            "rzi" => Some(Rounding::Zero),
            "rmi" => Some(Rounding::Down),
            "rpi" => Some(Rounding::Up),
            _ => None,
        };
        let float_rounding = |r: Option<&str>| match r {
            None | Some("rn") => Some(Rounding::NearestFloat),
            Some("rz") => Some(Rounding::FloatZero),
            Some("rm") => Some(Rounding::FloatDown),
            Some("rp") => Some(Rounding::FloatUp),
            _ => None,
        };
        let opcode = |r: &str| format!("cvt.{r}.{}.{}", to.name(), from.name());
        let rounding = if from.is_float() && (to.is_int() || to == from) {
            // To an integer, or to an integral value of the same type.
            match rnd.and_then(integer_rounding) {
                Some(r) => r,
                None => {
                    let message = match rnd {
                        Some(r) => format!(
                            "`.{r}` does not apply to a conversion from {} to {}",
                            from.name(),
                            to.name()
                        ),
                        None if to == from => format!(
                            "`cvt.{0}.{0}` rounds to an integral value and needs an integer rounding mode",
                            to.name()
                        ),
                        None => format!("a conversion from {} to an integer needs a rounding mode", from.name()),
                    };
                    return Err(Diagnostic::error(parts.span, message)
                        .with_label("which rounding?")
                        .with_help(format!(
                            "write `{}` (truncate), `.rmi` (floor), `.rpi` (ceil) or `.rni` (nearest even)",
                            opcode("rzi")
                        )));
                }
            }
        } else if to.is_float() && !(from == Ty::F32 && to == Ty::F64) {
            // Integer → float, f64 → f32: the result is rounded.
            match float_rounding(rnd) {
                Some(r) => r,
                None => {
                    return Err(Diagnostic::error(
                        parts.span,
                        format!(
                            "`.{}` does not apply to a conversion to {}",
                            rnd.unwrap_or(""),
                            to.name()
                        ),
                    )
                    .with_label("invalid rounding")
                    .with_help(format!(
                        "a float result rounds with `.rn` (nearest even, the default), `.rz`, `.rm` or `.rp`: `{}`",
                        opcode("rn")
                    )));
                }
            }
        } else {
            // Integer → integer (extended by the source's signedness, or truncated) and f32 → f64: exact.
            if let Some(r) = rnd {
                return Err(Diagnostic::error(
                    parts.span,
                    format!(
                        "a conversion from {} to {} is exact: `.{r}` does not apply",
                        from.name(),
                        to.name()
                    ),
                )
                .with_label("no rounding here")
                .with_help(format!("write `cvt.{}.{}`", to.name(), from.name())));
            }
            Rounding::NearestFloat
        };
        let d = self.dst(c, to)?;
        c.comma()?;
        let a = self.src(c, from)?;
        Ok(Op::Cvt {
            rounding,
            to,
            from,
            d,
            a,
        })
    }

    fn shfl(&self, parts: &mut Parts, c: &mut Cursor) -> Result<Op, Diagnostic> {
        parts.optional(&["sync"]);
        let names: Vec<&str> = ShflMode::ALL.iter().map(|m| m.name()).collect();
        let mode_name = parts.required(&names, "a shuffle mode (idx, up, down, bfly)")?;
        let mode = ShflMode::ALL.into_iter().find(|m| m.name() == mode_name).expect("mode");
        parts.optional(&["b32"]);
        let d = self.dst(c, Ty::B32)?;
        let p = if c.eat(&Tok::Pipe) { Some(self.pred(c)?) } else { None };
        c.comma()?;
        let a = self.src(c, Ty::B32)?;
        c.comma()?;
        let b = self.src(c, Ty::U32)?;
        let mut segment = None;
        let mut mask = None;
        let keyword = |c: &Cursor| match (c.peek(), c.peek_at(1)) {
            (Some(Token { tok: Tok::Ident(k), .. }), Some(Token { tok: Tok::Eq, .. })) => Some(k.clone()),
            _ => None,
        };
        if c.eat(&Tok::Comma) {
            if keyword(c).is_some() {
                loop {
                    let (k, kspan) = c.ident("`width=` or `mask=`")?;
                    c.expect(&Tok::Eq, "`=`")?;
                    if k == "mask" && mask.is_none() {
                        // The member mask: a constant or a register.
                        mask = Some(self.src(c, Ty::U32)?);
                        if !c.eat(&Tok::Comma) {
                            break;
                        }
                        continue;
                    }
                    let e = c.expr()?;
                    self.check_imm(&e, Ty::U32)?;
                    match k.as_str() {
                        "width" if segment.is_none() => {
                            if let Some(w) = e.as_literal_int()
                                && !((1..=64).contains(&w) && w.count_ones() == 1)
                            {
                                return Err(Diagnostic::error(
                                    e.span,
                                    format!("shuffle width {w} is not a power of two from 1 to 64"),
                                )
                                .with_label("invalid width")
                                .with_help("the width splits the warp into segments: 1, 2, 4, … up to the warp size"));
                            }
                            segment = Some(ShflSegment::Width(e));
                        }
                        "width" | "mask" => {
                            return Err(Diagnostic::error(kspan, format!("`{k}=` given twice")).with_label("second"));
                        }
                        _ => {
                            return Err(Diagnostic::error(kspan, format!("unknown shuffle option `{k}`"))
                                .with_label("expected `width` or `mask`")
                                .with_help("write `shfl.sync.down.b32 %d, %v, 1, width=16, mask=0xffff`"));
                        }
                    }
                    if !c.eat(&Tok::Comma) {
                        break;
                    }
                }
            } else {
                // PTX's raw form: `c` (clamp | segment mask << 8, a constant or a register), then the member
                // mask.
                segment = Some(if matches!(c.peek().map(|t| &t.tok), Some(Tok::Reg(_))) {
                    match self.src(c, Ty::U32)? {
                        r @ Operand::Reg(_) => ShflSegment::Reg(r),
                        _ => {
                            return Err(Diagnostic::error(
                                c.prev_span(),
                                "a shuffle's `c` is a constant or a register",
                            )
                            .with_label("not a register")
                            .with_help("move it into a register first: `mov.u32 %c, %laneid`"));
                        }
                    }
                } else {
                    let cexpr = c.expr()?;
                    self.check_imm(&cexpr, Ty::U32)?;
                    ShflSegment::Raw(cexpr)
                });
                c.expect(
                    &Tok::Comma,
                    "`,` and the member mask (PTX form: `shfl.sync.MODE.b32 d, a, b, c, membermask`)",
                )?;
                mask = Some(self.src(c, Ty::U32)?);
            }
        }
        Ok(Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            segment,
            mask,
        })
    }

    fn address(&self, c: &mut Cursor, ty: Ty, space: Space, narrow: bool) -> Result<Address, Diagnostic> {
        let byte_mode = c.eat(&Tok::LBracket);
        if byte_mode && matches!(c.peek(), Some(Token { tok: Tok::Reg(_), .. })) {
            return self.flat_address(c, space);
        }
        if matches!(space, Space::Local | Space::Generic) {
            let at = c.peek().map_or(c.end_span(), |t| t.span);
            let what = if space == Space::Local {
                "a `.local` access"
            } else {
                "a generic access (no state space)"
            };
            return Err(Diagnostic::error(at, format!("{what} takes a register address `[%rd + offset]`"))
                .with_label("expected `[` and a register")
                .with_help(if space == Space::Local {
                    "write `[%r]` or `[%r + 8]`: a byte offset in the thread's local memory"
                } else {
                    "write `[%rd]` with a 64-bit generic address, or name the state space: `.global` for a buffer (`in[%i]`), `.shared` for a shared array"
                }));
        }
        let (name, nspan) = c.ident("a buffer name (`in[%i]` or `[in + %byte_offset]`)")?;
        let names: Vec<(&str, ElemTy)> = match space {
            Space::Shared => self.shared.iter().map(|b| (b.name.as_str(), b.elem)).collect(),
            Space::Global | Space::Local | Space::Generic => {
                self.buffers.iter().map(|b| (b.name.as_str(), b.elem)).collect()
            }
        };
        let Some(buffer) = names.iter().position(|(b, _)| *b == name) else {
            let (what, other, declare) = match space {
                Space::Global | Space::Local | Space::Generic => (
                    "buffer",
                    self.shared.iter().any(|s| s.name == name),
                    format!("`.buffer {name} f32[W]`"),
                ),
                Space::Shared => (
                    "shared array",
                    self.buffers.iter().any(|b| b.name == name),
                    format!("`.shared {name} f32[W]`"),
                ),
            };
            let d = Diagnostic::error(nspan, format!("unknown {what} `{name}`")).with_label(format!("no such {what}"));
            return Err(if other {
                let right = if space == Space::Global { "shared" } else { "global" };
                d.with_help(format!("`{name}` is in {right} memory: use `.{right}`"))
            } else {
                match closest(&name, names.iter().map(|(b, _)| *b)) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("declare it: {declare}")),
                }
            });
        };
        let elem = names[buffer].1;
        let raw = if elem.ty().wide() { Ty::B64 } else { Ty::B32 };
        if !narrow && ty != raw && ty != elem.ty() {
            return Err(Diagnostic::error(
                nspan,
                format!("`.{}` access to buffer `{name}` of {}", ty.name(), elem.name()),
            )
            .with_label(format!("`{name}` holds {}", elem.name()))
            .with_help(format!(
                "use `.{}` (or `.{}` to move the raw bits)",
                elem.name(),
                raw.name()
            )));
        }
        let (base, disp) = if byte_mode {
            let r = if c.eat(&Tok::Plus) {
                self.index(c)?
            } else {
                (None, None)
            };
            c.expect(&Tok::RBracket, "`]`")?;
            r
        } else {
            c.expect(&Tok::LBracket, "`[` and an element index")?;
            let r = self.index(c)?;
            c.expect(&Tok::RBracket, "`]`")?;
            r
        };
        Ok(Address {
            space,
            buffer,
            mode: if byte_mode { AddrMode::Byte } else { AddrMode::Element },
            base,
            disp,
        })
    }

    /// A flat address `[%r]`, `[%r + expr]`, `[%r - expr]` (after the `[`): a byte address in `space` held in
    /// the register; a global or generic one needs a 64-bit register.
    fn flat_address(&self, c: &mut Cursor, space: Space) -> Result<Address, Diagnostic> {
        let Some(Token {
            tok: Tok::Reg(name),
            span,
        }) = c.peek().cloned()
        else {
            return Err(expected(c.peek(), c, "a register"));
        };
        let Some(&r) = self.regs.get(name.as_str()) else {
            c.pos += 1;
            if Special::parse(&name).is_some() || self.preds.contains_key(name.as_str()) {
                return Err(Diagnostic::error(span, format!("`%{name}` cannot hold an address"))
                    .with_label("expected a register")
                    .with_help("move it into a register first: `cvt.u64.u32 %rd, %tid.x`"));
            }
            return Err(self.unknown_reg(&name, span, false));
        };
        let wide = self.widths[r as usize] == Width::W64;
        if !wide && matches!(space, Space::Global | Space::Generic) {
            let what = if space == Space::Global { "global" } else { "generic" };
            return Err(
                Diagnostic::error(span, format!("a {what} address is 64 bits wide: `%{name}` is a 32-bit register"))
                    .with_label("a 32-bit register")
                    .with_help(format!(
                        "declare it `.reg.b64 %{name}` and form the address in 64 bits (`mov.b64 %rd, BUFFER` then `add.s64`), or index the buffer: `in[%i]`"
                    )),
            );
        }
        c.pos += 1;
        let disp = if c.eat(&Tok::Plus) {
            Some(c.expr()?)
        } else if c.eat(&Tok::Minus) {
            let first = c.unary()?;
            let span = first.span;
            let negated = ConstExpr {
                kind: ExprKind::Neg(Box::new(first)),
                span,
            };
            Some(c.expr_rest(negated, 1)?)
        } else {
            None
        };
        if let Some(e) = &disp {
            self.check_imm(e, Ty::S64)?;
        }
        c.expect(&Tok::RBracket, "`]`")?;
        Ok(Address {
            space,
            buffer: 0,
            mode: AddrMode::Flat,
            base: Some(Operand::Reg(Reg(r))),
            disp,
        })
    }

    /// `%r`, `%r + expr`, `%r - expr` or `expr`. After the register the rest is one expression with its sign:
    /// `%r - 1 + 2` is `%r + (-1 + 2)`.
    fn index(&self, c: &mut Cursor) -> Result<(Option<Operand>, Option<ConstExpr>), Diagnostic> {
        if matches!(c.peek(), Some(Token { tok: Tok::Reg(_), .. })) {
            let base = self.src(c, Ty::U32)?;
            let disp = if c.eat(&Tok::Plus) {
                Some(c.expr()?)
            } else if c.eat(&Tok::Minus) {
                let first = c.unary()?;
                let span = first.span;
                let negated = ConstExpr {
                    kind: ExprKind::Neg(Box::new(first)),
                    span,
                };
                Some(c.expr_rest(negated, 1)?)
            } else {
                None
            };
            if let Some(e) = &disp {
                self.check_imm(e, Ty::S32)?;
            }
            Ok((Some(base), disp))
        } else {
            let e = c.expr()?;
            self.check_imm(&e, Ty::S32)?;
            Ok((None, Some(e)))
        }
    }

    /// A register of the width `ty` asks for: an error naming both widths otherwise.
    fn width_check(&self, r: u16, name: &str, span: Span, ty: Ty) -> Result<Reg, Diagnostic> {
        let wide = self.widths[r as usize] == Width::W64;
        if wide == ty.wide() {
            return Ok(Reg(r));
        }
        let (is, wants) = if wide {
            ("64-bit", "32-bit")
        } else {
            ("32-bit", "64-bit")
        };
        let help = if wide {
            format!(
                "convert it (`cvt.{}.{} %r32, %{name}`) or take its halves (`mov.b64 {{%lo, %hi}}, %{name}`)",
                ty.name(),
                ty.other_width().name()
            )
        } else {
            format!(
                "declare a 64-bit register (`.reg.b64 %x`) and widen the value into it (`cvt.{}.{} %x, %{name}`)",
                ty.name(),
                ty.other_width().name()
            )
        };
        Err(Diagnostic::error(
            span,
            format!("`%{name}` is a {is} register, used as a `.{}` operand", ty.name()),
        )
        .with_label(format!("expected a {wants} register"))
        .with_help(help))
    }

    fn dst(&self, c: &mut Cursor, ty: Ty) -> Result<Reg, Diagnostic> {
        match c.next() {
            Some(Token {
                tok: Tok::Reg(name),
                span,
            }) => {
                if let Some(&r) = self.regs.get(name.as_str()) {
                    return self.width_check(r, name, *span, ty);
                }
                if Special::parse(name).is_some() {
                    return Err(Diagnostic::error(*span, format!("`%{name}` is read-only"))
                        .with_label("cannot write a special register")
                        .with_help("write the result to a register declared with `.reg`"));
                }
                if self.preds.contains_key(name.as_str()) {
                    return Err(
                        Diagnostic::error(*span, format!("`%{name}` is a predicate, not a register"))
                            .with_label("expected a 32-bit register")
                            .with_help(
                                "predicates are written by `setp` and `and.pred`/`or.pred`; registers by the others",
                            ),
                    );
                }
                Err(self.unknown_reg(name, *span, true))
            }
            other => Err(expected(other, c, "a destination register like `%v`")),
        }
    }

    fn pred(&self, c: &mut Cursor) -> Result<Pred, Diagnostic> {
        match c.next() {
            Some(Token {
                tok: Tok::Reg(name),
                span,
            }) => {
                if let Some(&p) = self.preds.get(name.as_str()) {
                    return Ok(Pred(p));
                }
                if self.regs.contains_key(name.as_str()) {
                    return Err(
                        Diagnostic::error(*span, format!("`%{name}` is a register, not a predicate"))
                            .with_label("expected a predicate")
                            .with_help("declare predicates with `.pred %p` and set them with `setp`"),
                    );
                }
                let d = Diagnostic::error(*span, format!("unknown predicate `%{name}`")).with_label("not declared");
                Err(match closest(name, self.preds.keys().copied()) {
                    Some(s) => d.with_help(format!("did you mean `%{s}`?")),
                    None => d.with_help(format!("declare it with `.pred %{name}`")),
                })
            }
            other => Err(expected(other, c, "a predicate like `%p`")),
        }
    }

    fn unknown_reg(&self, name: &str, span: Span, _dst: bool) -> Diagnostic {
        let d = Diagnostic::error(span, format!("unknown register `%{name}`")).with_label("not declared");
        let specials = Special::ALL.map(Special::name);
        match closest(name, self.regs.keys().copied().chain(specials)) {
            Some(s) => d.with_help(format!("did you mean `%{s}`?")),
            None => d.with_help(format!("declare it with `.reg %{name}`")),
        }
    }

    /// A source operand: a register, a special register, or an immediate expression.
    fn src(&self, c: &mut Cursor, ty: Ty) -> Result<Operand, Diagnostic> {
        match c.peek() {
            Some(Token {
                tok: Tok::Reg(name),
                span,
            }) => {
                let span = *span;
                c.pos += 1;
                if let Some(&r) = self.regs.get(name.as_str()) {
                    return Ok(Operand::Reg(self.width_check(r, name, span, ty)?));
                }
                if let Some(s) = Special::parse(name) {
                    if s.wide() != ty.wide() && s.wide() {
                        return Err(Diagnostic::error(
                            span,
                            format!("`%{name}` is 64 bits wide, used as a `.{}` operand", ty.name()),
                        )
                        .with_label("a 64-bit special register")
                        .with_help(format!("read it into a 64-bit register: `mov.u64 %rd, %{name}`")));
                    }
                    if ty.wide() && !s.wide() {
                        return Err(Diagnostic::error(
                            span,
                            format!("`%{name}` is 32 bits wide, used as a `.{}` operand", ty.name()),
                        )
                        .with_label("a 32-bit special register")
                        .with_help(format!(
                            "widen it first: `cvt.{}.{} %x, %{name}`",
                            ty.name(),
                            ty.other_width().name()
                        )));
                    }
                    return Ok(Operand::Special(s));
                }
                if self.preds.contains_key(name.as_str()) {
                    return Err(
                        Diagnostic::error(span, format!("`%{name}` is a predicate, not a register"))
                            .with_label("expected a register or a value")
                            .with_help("turn a predicate into a value with `selp.u32 %d, 1, 0, %p`"),
                    );
                }
                Err(self.unknown_reg(name, span, false))
            }
            Some(_) => {
                let e = c.expr()?;
                self.check_imm(&e, ty)?;
                Ok(Operand::Imm(e))
            }
            None => Err(expected(None, c, "an operand")),
        }
    }

    /// Immediates: a float literal cannot feed an integer operation; names must be parameters or `W`.
    fn check_imm(&self, e: &ConstExpr, ty: Ty) -> Result<(), Diagnostic> {
        match &e.kind {
            ExprKind::Float(_) if ty.is_int() => Err(Diagnostic::error(
                e.span,
                format!("float literal in a `.{}` operand", ty.name()),
            )
            .with_label("expected an integer")
            .with_help("write an integer, or use the `.f32` form of the instruction")),
            ExprKind::Var(v) => {
                // A buffer's name is its generic address, a shared array's its byte offset in shared memory.
                let address = ty.is_int()
                    && (self.buffers.iter().any(|b| &b.name == v) || self.shared.iter().any(|a| &a.name == v));
                if v == "W" || address || self.params.iter().any(|p| &p.name == v) {
                    Ok(())
                } else {
                    let d = Diagnostic::error(e.span, format!("unknown name `{v}`")).with_label("not a parameter");
                    let names = self.params.iter().map(|p| p.name.as_str()).chain(["W"]);
                    Err(match closest(v, names) {
                        Some(s) => d.with_help(format!("did you mean `{s}`?")),
                        None if self.regs.contains_key(v.as_str()) => {
                            d.with_help(format!("registers start with `%`: `%{v}`"))
                        }
                        None => d.with_help(
                            "an immediate is a number, `W`, a `.param`, a buffer or shared array (its address), or an expression of them",
                        ),
                    })
                }
            }
            ExprKind::Neg(x) | ExprKind::Not(x) => self.check_imm(x, ty),
            ExprKind::Binary(_, a, b) => {
                self.check_imm(a, ty)?;
                self.check_imm(b, ty)
            }
            ExprKind::Call(_, args) => args.iter().try_for_each(|a| self.check_imm(a, ty)),
            _ => Ok(()),
        }
    }
}

/// The state space modifier of a memory instruction: `.global`, `.shared` or `.local`, or none (a generic
/// address: the type or the atomic operation follows the opcode at once, `ld.f32`, `atom.add.u32`).
fn space(parts: &mut Parts) -> Result<Space, Diagnostic> {
    let follows =
        |p: &str| Ty::parse(p).is_some() || Narrow::parse(p).is_some() || AtomOp::ALL.iter().any(|o| o.name() == p);
    if parts.items.get(parts.pos).is_some_and(|(p, _)| follows(p)) {
        return Ok(Space::Generic);
    }
    Ok(
        match parts.required(
            &["global", "shared", "local"],
            "a state space (`.global`, `.shared` or `.local`)",
        )? {
            "global" => Space::Global,
            "local" => Space::Local,
            _ => Space::Shared,
        },
    )
}

/// `.lo`, `.hi` and `.wide` belong to integer multiplies, `.rn` to float arithmetic.
fn check_rounding_modifiers(parts: &Parts, half: Option<&str>, rn: Option<&str>, ty: Ty) -> Result<(), Diagnostic> {
    let bad = match (half, rn) {
        (Some(h), _) if ty.is_float() => Some((
            h,
            "`.lo`, `.hi` and `.wide` (halves of the product) apply to integer types",
        )),
        (_, Some(_)) if ty.is_int() => Some(("rn", "`.rn` (round to nearest) applies to `.f32` and `.f64`")),
        _ => None,
    };
    match bad {
        None => Ok(()),
        Some((modifier, why)) => {
            let fixed = parts.opcode.replacen(&format!(".{modifier}"), "", 1);
            Err(
                Diagnostic::error(parts.span, format!("`.{modifier}` does not go with `.{}`", ty.name()))
                    .with_label(why)
                    .with_help(format!("write `{fixed}`")),
            )
        }
    }
}

fn expected(found: Option<&Token>, c: &Cursor, what: &str) -> Diagnostic {
    match found {
        Some(t) => Diagnostic::error(t.span, format!("expected {what}, found {}", t.tok.describe()))
            .with_label(format!("expected {what}")),
        None => Diagnostic::error(c.end_span(), format!("expected {what}")).with_label(format!("expected {what}")),
    }
}

/// A cursor over one statement's tokens.
struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    stmt: Span,
    /// Expression nesting and size so far: bounded, so hostile input cannot exhaust the stack.
    depth: u32,
    nodes: u32,
}

/// Deepest expression nesting, and most terms (numbers, names, unary operators and parentheses) in all the
/// expressions of one statement.
pub const MAX_EXPR_DEPTH: u32 = 64;
pub const MAX_EXPR_NODES: u32 = 1024;

/// The error for a statement past [`MAX_EXPR_NODES`] terms: a long `.buffer` initialiser list, usually.
pub(crate) fn too_many_terms(span: Span) -> Diagnostic {
    Diagnostic::error(
        span,
        format!("more than {MAX_EXPR_NODES} expression terms in one statement"),
    )
    .with_label(format!("term {} starts here", MAX_EXPR_NODES + 1))
    .with_help(format!(
        "a statement's expressions have at most {MAX_EXPR_NODES} terms in all, so a `.buffer` initialiser list holds \
         about {MAX_EXPR_NODES} values: compute the values with an expression in `i` (for example \
         `.buffer a u32[4096] = i * 3 + 1`), or store them from the program"
    ))
}

impl<'a> Cursor<'a> {
    fn new(toks: &'a [Token], stmt: Span) -> Cursor<'a> {
        Cursor {
            toks,
            pos: 0,
            stmt,
            depth: 0,
            nodes: 0,
        }
    }

    fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + k)
    }

    fn next(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek().is_some_and(|t| &t.tok == tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// An empty span just past the last token: where a missing operand would go.
    fn end_span(&self) -> Span {
        let end = self.toks.last().map(|t| t.span).unwrap_or(self.stmt);
        Span { start: end.end, ..end }
    }

    /// The span of the next token, or the end of the statement.
    fn here(&self) -> Span {
        self.peek().map(|t| t.span).unwrap_or_else(|| self.end_span())
    }

    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            self.here()
        } else {
            self.toks[self.pos - 1].span
        }
    }

    fn expect(&mut self, tok: &Tok, what: &str) -> Result<Span, Diagnostic> {
        match self.peek() {
            Some(t) if &t.tok == tok => {
                self.pos += 1;
                Ok(t.span)
            }
            found => Err(expected(found, self, what)),
        }
    }

    fn comma(&mut self) -> Result<(), Diagnostic> {
        self.expect(&Tok::Comma, "`,`").map(|_| ())
    }

    fn ident(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        match self.peek() {
            Some(Token {
                tok: Tok::Ident(s),
                span,
            }) => {
                self.pos += 1;
                Ok((s.clone(), *span))
            }
            found => Err(expected(found, self, what)),
        }
    }

    fn int(&mut self, what: &str) -> Result<i64, Diagnostic> {
        match self.peek() {
            Some(Token { tok: Tok::Int(v), .. }) => {
                self.pos += 1;
                Ok(*v)
            }
            found => Err(expected(found, self, what)),
        }
    }

    fn finish(&self) -> Result<(), Diagnostic> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Diagnostic::error(
                t.span.to(self.toks[self.toks.len() - 1].span),
                format!("unexpected {} at the end of the statement", t.tok.describe()),
            )
            .with_label("unexpected")
            .with_help("one statement per line; operands are separated by `,`")),
        }
    }

    /// `expr (, [k] = expr | , [a..b] = [v, …])*`
    fn init(&mut self) -> Result<Init, Diagnostic> {
        let default = self.expr()?;
        let mut overrides = Vec::new();
        while self.eat(&Tok::Comma) {
            self.expect(&Tok::LBracket, "`[index] = value` or `[start..end] = [values]`")?;
            let start = self.expr()?;
            if self.eat(&Tok::DotDot) {
                let end = if self.peek().is_some_and(|t| t.tok == Tok::RBracket) {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect(&Tok::RBracket, "`]`")?;
                self.expect(&Tok::Eq, "`=`")?;
                self.expect(&Tok::LBracket, "`[` and a list of values")?;
                let mut values = vec![self.expr()?];
                while self.eat(&Tok::Comma) {
                    values.push(self.expr()?);
                }
                self.expect(&Tok::RBracket, "`]`")?;
                overrides.push(InitOverride::List { start, end, values });
            } else {
                self.expect(&Tok::RBracket, "`]`")?;
                self.expect(&Tok::Eq, "`=`")?;
                let value = self.expr()?;
                overrides.push(InitOverride::One { index: start, value });
            }
        }
        Ok(Init { default, overrides })
    }

    /// Precedence climbing over C's binary operators.
    fn expr(&mut self) -> Result<ConstExpr, Diagnostic> {
        self.expr_prec(1)
    }

    fn binop(&self) -> Option<(BinOp, bool)> {
        // `(op, rhs_is_in_token)`: `i%n` lexes as `i` and register-like `%n`; read it as `i % n`.
        Some(match &self.peek()?.tok {
            Tok::Plus => (BinOp::Add, false),
            Tok::Minus => (BinOp::Sub, false),
            Tok::Star => (BinOp::Mul, false),
            Tok::Slash => (BinOp::Div, false),
            Tok::Percent => (BinOp::Rem, false),
            Tok::Reg(_) => (BinOp::Rem, true),
            Tok::Shl => (BinOp::Shl, false),
            Tok::Shr => (BinOp::Shr, false),
            Tok::Amp => (BinOp::And, false),
            Tok::Pipe => (BinOp::Or, false),
            Tok::Caret => (BinOp::Xor, false),
            Tok::Lt => (BinOp::Lt, false),
            Tok::Le => (BinOp::Le, false),
            Tok::Gt => (BinOp::Gt, false),
            Tok::Ge => (BinOp::Ge, false),
            Tok::EqEq => (BinOp::Eq, false),
            Tok::Ne => (BinOp::Ne, false),
            _ => return None,
        })
    }

    fn expr_prec(&mut self, min: u8) -> Result<ConstExpr, Diagnostic> {
        let lhs = self.unary()?;
        self.expr_rest(lhs, min)
    }

    /// Continue an expression whose first term is `lhs`.
    fn expr_rest(&mut self, mut lhs: ConstExpr, min: u8) -> Result<ConstExpr, Diagnostic> {
        while let Some((op, inline_rhs)) = self.binop() {
            if op.precedence() < min {
                break;
            }
            let rhs = if inline_rhs {
                let t = self.next().expect("peeked");
                let Tok::Reg(name) = &t.tok else { unreachable!() };
                let span = Span {
                    start: t.span.start + 1,
                    ..t.span
                };
                // A name, as after a spaced `%`: `i%ntid.x` is not `i % ntid.x` (which does not parse).
                if name.contains('.') {
                    return Err(Diagnostic::error(span, format!("expected a value, found `{name}`"))
                        .with_label("expected a number, a name or `(`"));
                }
                ConstExpr {
                    kind: ExprKind::Var(name.clone()),
                    span,
                }
            } else {
                self.pos += 1;
                self.expr_prec(op.precedence() + 1)?
            };
            // `a % b * c`: an inline rhs still binds as a unit; continue the loop for the rest.
            let span = lhs.span.to(rhs.span);
            lhs = ConstExpr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<ConstExpr, Diagnostic> {
        self.depth += 1;
        self.nodes += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Result<ConstExpr, Diagnostic> {
        if self.depth > MAX_EXPR_DEPTH {
            return Err(Diagnostic::error(
                self.here(),
                format!("expression nested more than {MAX_EXPR_DEPTH} deep"),
            )
            .with_label(format!("level {} of nesting", self.depth))
            .with_help(format!(
                "an expression nests at most {MAX_EXPR_DEPTH} deep (parentheses, `-` and `~`): name a part with a \
                 `.param`, or write it flatter"
            )));
        }
        if self.nodes > MAX_EXPR_NODES {
            return Err(too_many_terms(self.here()));
        }
        let Some(t) = self.next() else {
            return Err(expected(None, self, "a value"));
        };
        let span = t.span;
        let wrap = |kind, inner: &ConstExpr| ConstExpr {
            kind,
            span: span.to(inner.span),
        };
        Ok(match &t.tok {
            Tok::Int(v) => ConstExpr::int(*v, span),
            Tok::Float(v) => ConstExpr {
                kind: ExprKind::Float(*v),
                span,
            },
            Tok::Minus => {
                let e = self.unary()?;
                wrap(ExprKind::Neg(Box::new(e.clone())), &e)
            }
            Tok::Tilde => {
                let e = self.unary()?;
                wrap(ExprKind::Not(Box::new(e.clone())), &e)
            }
            Tok::LParen => {
                let mut e = self.expr()?;
                let close = self.expect(&Tok::RParen, "`)`")?;
                e.span = span.to(close);
                e
            }
            Tok::Ident(name)
                if (name == "min" || name == "max") && self.peek().is_some_and(|t| t.tok == Tok::LParen) =>
            {
                self.pos += 1;
                let a = self.expr()?;
                self.expect(&Tok::Comma, "`,`")?;
                let b = self.expr()?;
                let close = self.expect(&Tok::RParen, "`)`")?;
                ConstExpr {
                    kind: ExprKind::Call(name.clone(), vec![a, b]),
                    span: span.to(close),
                }
            }
            Tok::Ident(name) if !name.starts_with('.') && !name.contains('.') => ConstExpr {
                kind: ExprKind::Var(name.clone()),
                span,
            },
            other => {
                return Err(
                    Diagnostic::error(span, format!("expected a value, found {}", other.describe()))
                        .with_label("expected a number, a name or `(`"),
                );
            }
        })
    }
}
