//! The PTX parser: tokens into a [`Module`]. Recursive descent with two tokens of lookahead; the first syntax
//! error stops it with a [`Diagnostic`] saying where, what was expected and what was found, and a hint.

use super::ast::{
    Address, Block, DebugString, Dim, FileDecl, FloatLit, Function, FunctionKind, Guard, Ident, InitValue, Initializer,
    Instruction, Item, Linkage, Loc, Module, Operand, OperandKind, Param, Performance, Pragma, Prototype, PtrAttr,
    RegDecl, RegName, ScalarType, Section, StateSpace, Statement, Type, Variable, Version,
};
use super::lexer::{Lexer, TokKind, Token};
use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

/// How deep `{ }` blocks (and `{ }` initialisers) may nest: far more than any compiler emits, few enough that
/// the recursion cannot overflow the stack on hostile input.
pub const MAX_DEPTH: usize = 200;

/// The performance-tuning directives a function header may carry (PTX ISA "Performance-Tuning Directives" and
/// the cluster directives).
const PERFORMANCE: &[&str] = &[
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnctapersm",
    ".maxnreg",
    ".maxclusterrank",
    ".reqnctapercluster",
    ".explicitcluster",
    ".blocksareclusters",
];

type PResult<T> = Result<T, Diagnostic>;

/// A number as read: an integer's exact value or a float literal.
enum Num {
    Int(i128),
    Float(FloatLit),
}

pub struct Parser<'a> {
    lex: Lexer<'a>,
    file: FileId,
    /// Lookahead: up to two tokens already lexed.
    ahead: [Option<Token>; 2],
    /// The end of the last token taken (where a missing `;` belongs).
    prev_end: u32,
    depth: usize,
    /// The `.loc` in force in the function being parsed.
    loc: Option<Loc>,
}

impl<'a> Parser<'a> {
    pub fn new(file: FileId, text: &'a str) -> Parser<'a> {
        Parser {
            lex: Lexer::new(file, text),
            file,
            ahead: [None, None],
            prev_end: 0,
            depth: 0,
            loc: None,
        }
    }

    // ---- tokens ----

    fn peek(&mut self) -> PResult<Token> {
        if self.ahead[0].is_none() {
            self.ahead[0] = Some(self.lex.next_token()?);
        }
        Ok(self.ahead[0].expect("filled"))
    }

    fn peek2(&mut self) -> PResult<Token> {
        self.peek()?;
        if self.ahead[1].is_none() {
            self.ahead[1] = Some(self.lex.next_token()?);
        }
        Ok(self.ahead[1].expect("filled"))
    }

    fn bump(&mut self) -> PResult<Token> {
        let t = self.peek()?;
        self.ahead = [self.ahead[1], None];
        self.prev_end = t.end;
        Ok(t)
    }

    fn peek_span(&mut self) -> PResult<Span> {
        let t = self.peek()?;
        Ok(self.span(t))
    }

    fn bump_span(&mut self) -> PResult<Span> {
        let t = self.bump()?;
        Ok(self.span(t))
    }

    fn text(&self, t: Token) -> &'a str {
        self.lex.text(t)
    }

    fn span(&self, t: Token) -> Span {
        Span {
            file: self.file,
            start: t.start,
            end: t.end,
        }
    }

    /// A span from `start` to the end of the last token taken.
    fn since(&self, start: Span) -> Span {
        Span {
            file: self.file,
            start: start.start,
            end: self.prev_end.max(start.start),
        }
    }

    fn ident(&self, t: Token) -> Ident {
        Ident {
            name: self.text(t).to_string(),
            span: self.span(t),
        }
    }

    /// How a token reads in a message.
    fn describe(&self, t: Token) -> String {
        if t.kind == TokKind::Eof {
            return "the end of the file".into();
        }
        let text = self.text(t);
        if text.chars().count() > 48 {
            let short: String = text.chars().take(45).collect();
            format!("`{short}…`")
        } else {
            format!("`{text}`")
        }
    }

    /// "expected X, found Y" at the token found.
    fn expected(&self, t: Token, what: &str, help: &str) -> Diagnostic {
        // At the end of the file, point just after the last token (the end itself may be past a final newline,
        // on a line that does not exist).
        let span = if t.kind == TokKind::Eof {
            Span {
                file: self.file,
                start: self.prev_end,
                end: self.prev_end,
            }
        } else {
            self.span(t)
        };
        Diagnostic::error(span, format!("expected {what}, found {}", self.describe(t)))
            .with_label(format!("expected {what}"))
            .with_help(help)
    }

    fn is(&mut self, kind: TokKind) -> PResult<bool> {
        Ok(self.peek()?.kind == kind)
    }

    fn eat(&mut self, kind: TokKind) -> PResult<bool> {
        if self.is(kind)? {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn expect(&mut self, kind: TokKind, what: &str, help: &str) -> PResult<Token> {
        let t = self.peek()?;
        if t.kind == kind {
            self.bump()
        } else {
            Err(self.expected(t, what, help))
        }
    }

    /// A `;` ending a statement; when it is missing, the error points just after the statement.
    fn expect_semi(&mut self, after: &str) -> PResult<()> {
        self.expect_semi_with(|| after.to_string())
    }

    /// [`Parser::expect_semi`], with what the `;` ends described only when it is missing.
    fn expect_semi_with(&mut self, after: impl FnOnce() -> String) -> PResult<()> {
        let t = self.peek()?;
        if t.kind == TokKind::Semi {
            self.bump()?;
            return Ok(());
        }
        let after = after();
        let at = Span {
            file: self.file,
            start: self.prev_end,
            end: self.prev_end,
        };
        Err(
            Diagnostic::error(at, format!("expected `;` after {after}, found {}", self.describe(t)))
                .with_label("expected `;` here")
                .with_help("every PTX statement ends with `;`"),
        )
    }

    /// A word that is a name (not a `.directive`).
    fn name(&mut self, what: &str, help: &str) -> PResult<Ident> {
        let t = self.peek()?;
        if t.kind == TokKind::Word && !self.text(t).starts_with('.') {
            self.bump()?;
            Ok(self.ident(t))
        } else {
            Err(self.expected(t, what, help))
        }
    }

    /// The directive word at the front, if the next token is one.
    fn peek_directive(&mut self) -> PResult<Option<&'a str>> {
        let t = self.peek()?;
        let text = self.text(t);
        Ok((t.kind == TokKind::Word && text.starts_with('.')).then_some(text))
    }

    // ---- numbers ----

    /// Read a number token (already taken) as PTX writes them: decimal, hex `0x`, octal `0…`, binary `0b`, each
    /// with an optional `U`; `0fXXXXXXXX` and `0dXXXXXXXXXXXXXXXX` float bits; decimal floats.
    fn number(&self, t: Token, negative: bool, start: Span) -> PResult<Num> {
        let text = self.text(t);
        let span = self.since(start);
        let invalid = |why: &str| {
            Diagnostic::error(
                span,
                format!("invalid number `{}{text}`: {why}", if negative { "-" } else { "" }),
            )
            .with_label("not a PTX number")
            .with_help(
                "PTX numbers: decimal `42`, hex `0x2A`, octal `052`, binary `0b101010` (each with an optional \
                     `U`), f32 bits `0f3F800000`, f64 bits `0d3FF0000000000000`, decimal floats `1.5`, `1e-3`",
            )
        };
        let lower = text.as_bytes().get(1).map(u8::to_ascii_lowercase);
        if text.len() > 1 && text.starts_with('0') && matches!(lower, Some(b'f' | b'd')) {
            let digits = &text[2..];
            let want = if lower == Some(b'f') { 8 } else { 16 };
            if digits.len() != want || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(invalid(&format!(
                    "`0{}` is followed by exactly {want} hex digits",
                    lower.map_or('f', char::from)
                )));
            }
            let bits = u64::from_str_radix(digits, 16).map_err(|_| invalid("bad hex digits"))?;
            let lit = if want == 8 {
                let b = u32::try_from(bits).map_err(|_| invalid("too many bits"))?;
                FloatLit::F32(if negative { b ^ 0x8000_0000 } else { b })
            } else {
                FloatLit::F64(if negative { bits ^ (1 << 63) } else { bits })
            };
            return Ok(Num::Float(lit));
        }
        let (body, radix) = match lower {
            Some(b'x') if text.starts_with('0') => (&text[2..], 16),
            Some(b'b') if text.starts_with('0') => (&text[2..], 2),
            _ if text.contains('.') || (text.contains(['e', 'E'])) => {
                let v: f64 = text.parse().map_err(|_| invalid("not a decimal float"))?;
                return Ok(Num::Float(FloatLit::Decimal(if negative { -v } else { v })));
            }
            _ if text.len() > 1 && text.starts_with('0') => (&text[1..], 8),
            _ => (text, 10),
        };
        let body = body.strip_suffix(['U', 'u']).unwrap_or(body);
        if body.is_empty() || !body.bytes().all(|c| char::from(c).is_digit(radix)) {
            let kind = match radix {
                16 => "a hex number has digits 0-9, a-f after `0x`",
                2 => "a binary number has digits 0 and 1 after `0b`",
                8 => "a number starting with 0 is octal: digits 0-7",
                _ => "a decimal number has digits 0-9 (and an optional `U`)",
            };
            return Err(invalid(kind));
        }
        let Ok(v) = u64::from_str_radix(body, radix) else {
            return Err(invalid("larger than 64 bits"));
        };
        let v = i128::from(v);
        if negative {
            if v > 1 << 63 {
                return Err(invalid("below the smallest 64-bit integer, -9223372036854775808"));
            }
            return Ok(Num::Int(-v));
        }
        Ok(Num::Int(v))
    }

    /// An optionally negative number at the front.
    fn signed_number(&mut self, what: &str) -> PResult<(Num, Span)> {
        let start = self.peek_span()?;
        let negative = self.eat(TokKind::Minus)?;
        let t = self.peek()?;
        if t.kind != TokKind::Number {
            return Err(self.expected(t, what, "write a number, e.g. `4`, `-1`, `0x10`, `0f3F800000`"));
        }
        self.bump()?;
        let n = self.number(t, negative, start)?;
        Ok((n, self.since(start)))
    }

    /// An integer at the front (optionally negative).
    fn integer(&mut self, what: &str) -> PResult<(i128, Span)> {
        match self.signed_number(what)? {
            (Num::Int(v), span) => Ok((v, span)),
            (Num::Float(_), span) => Err(Diagnostic::error(
                span,
                format!("expected {what}, found a floating-point number"),
            )
            .with_label("expected an integer")
            .with_help("write an integer here")),
        }
    }

    /// A non-negative integer that fits `T`.
    fn unsigned<T: TryFrom<i128>>(&mut self, what: &str) -> PResult<T> {
        let (v, span) = self.integer(what)?;
        T::try_from(v).map_err(|_| {
            Diagnostic::error(span, format!("{what} out of range: {v}"))
                .with_label("out of range")
                .with_help(format!(
                    "{what} is a non-negative integer of at most {} bits",
                    std::mem::size_of::<T>() * 8
                ))
        })
    }

    /// A signed offset that fits an i64 (`+-4`, `-4`, `8`).
    fn offset(v: i128, span: Span) -> PResult<i64> {
        i64::try_from(v)
            .or_else(|_| u64::try_from(v).map(u64::cast_signed))
            .map_err(|_| {
                Diagnostic::error(span, "offset out of range")
                    .with_label("does not fit in 64 bits")
                    .with_help("an address offset is a 64-bit integer")
            })
    }

    // ---- module ----

    pub fn module(&mut self) -> PResult<Module> {
        let mut m = Module {
            file: self.file,
            version: None,
            target: Vec::new(),
            address_size: None,
            items: Vec::new(),
            files: Vec::new(),
            sections: Vec::new(),
            debug_strings: Vec::new(),
        };
        loop {
            let t = self.peek()?;
            match t.kind {
                TokKind::Eof => return Ok(m),
                TokKind::Semi => {
                    self.bump()?;
                }
                TokKind::Word => {
                    let text = self.text(t);
                    match text {
                        ".version" => m.version = Some(self.version()?),
                        ".target" => {
                            self.bump()?;
                            m.target
                                .push(self.name("a target such as `sm_90`", "write `.target sm_90`")?);
                            while self.eat(TokKind::Comma)? {
                                m.target.push(
                                    self.name("a target option such as `debug`", "write `.target sm_90, debug`")?,
                                );
                            }
                        }
                        ".address_size" => {
                            self.bump()?;
                            let start = self.peek_span()?;
                            let n = self.unsigned::<u32>("an address size")?;
                            m.address_size = Some((n, self.since(start)));
                        }
                        ".file" => m.files.push(self.file_decl()?),
                        ".section" => self.section(&mut m)?,
                        ".pragma" => m.items.push(Item::Pragma(self.pragma()?)),
                        ".visible" | ".extern" | ".weak" | ".common" | ".entry" | ".func" | ".global" | ".const"
                        | ".shared" | ".local" => m.items.push(self.item()?),
                        _ => {
                            return Err(self.expected(
                                t,
                                "a module directive",
                                "a PTX module holds `.version`, `.target`, `.address_size`, variables (`.global`, \
                                 `.const`, `.shared`), functions (`.entry`, `.func`), `.file` and `.section`",
                            ));
                        }
                    }
                }
                _ => {
                    return Err(self.expected(
                        t,
                        "a module directive",
                        "a PTX module holds `.version`, `.target`, `.address_size`, variables and functions",
                    ));
                }
            }
        }
    }

    fn version(&mut self) -> PResult<Version> {
        self.bump()?;
        let t = self.peek()?;
        let bad = |p: &Self| p.expected(t, "a version `MAJOR.MINOR`", "write e.g. `.version 9.5`");
        if t.kind != TokKind::Number {
            return Err(bad(self));
        }
        self.bump()?;
        let text = self.text(t);
        let Some((major, minor)) = text.split_once('.') else {
            return Err(bad(self));
        };
        match (major.parse(), minor.parse()) {
            (Ok(major), Ok(minor)) => Ok(Version {
                major,
                minor,
                span: self.span(t),
            }),
            _ => Err(bad(self)),
        }
    }

    /// `.file N "path"[, timestamp, size]`.
    fn file_decl(&mut self) -> PResult<FileDecl> {
        let start = self.bump_span()?;
        let index = self.unsigned::<u32>("a file number")?;
        let t = self.expect(TokKind::Str, "a file name in quotes", "write `.file 1 \"kernel.cu\"`")?;
        let path = unescape(self.text(t));
        let (mut timestamp, mut size) = (None, None);
        if self.eat(TokKind::Comma)? {
            timestamp = Some(self.unsigned::<u64>("a timestamp")?);
            self.expect(
                TokKind::Comma,
                "`,` and a file size",
                "write `.file 1 \"k.cu\", TIMESTAMP, SIZE`",
            )?;
            size = Some(self.unsigned::<u64>("a file size")?);
        }
        Ok(FileDecl {
            index,
            path,
            timestamp,
            size,
            span: self.since(start),
        })
    }

    /// `.section NAME { … }`: skipped by brace matching; `.debug_str`'s labelled byte strings kept.
    fn section(&mut self, m: &mut Module) -> PResult<()> {
        let start = self.bump_span()?;
        let name = {
            let t = self.peek()?;
            if t.kind != TokKind::Word {
                return Err(self.expected(t, "a section name", "write `.section .debug_str { … }`"));
            }
            self.bump()?;
            self.ident(t)
        };
        let open = self.expect(TokKind::LBrace, "`{`", "a section's contents are in braces")?;
        let strings = name.name == ".debug_str";
        let mut depth = 1usize;
        let mut current: Option<DebugString> = None;
        let mut in_bytes = false;
        while depth > 0 {
            let t = self.bump()?;
            match t.kind {
                TokKind::Eof => {
                    return Err(Diagnostic::error(self.span(open), "unclosed section")
                        .with_label("this `{` is never closed")
                        .with_help("end the section with `}`"));
                }
                TokKind::LBrace => depth += 1,
                TokKind::RBrace => depth -= 1,
                _ if !strings => {}
                TokKind::Word if self.peek()?.kind == TokKind::Colon => {
                    self.bump()?;
                    m.debug_strings.extend(current.take());
                    current = Some(DebugString {
                        label: self.ident(t),
                        bytes: Vec::new(),
                    });
                    in_bytes = false;
                }
                TokKind::Word => in_bytes = self.text(t) == ".b8",
                TokKind::Number if in_bytes => {
                    if let (Some(s), Ok(b)) = (current.as_mut(), self.text(t).parse::<u8>()) {
                        s.bytes.push(b);
                    }
                }
                TokKind::Comma => {}
                _ => in_bytes = false,
            }
        }
        m.debug_strings.extend(current);
        m.sections.push(Section {
            name,
            span: self.since(start),
        });
        Ok(())
    }

    /// `.pragma "a"[, "b"];`
    fn pragma(&mut self) -> PResult<Pragma> {
        let start = self.bump_span()?;
        let mut values = Vec::new();
        loop {
            let t = self.expect(TokKind::Str, "a pragma string", "write `.pragma \"nounroll\";`")?;
            values.push(unescape(self.text(t)));
            if !self.eat(TokKind::Comma)? {
                break;
            }
        }
        self.expect_semi("the pragma")?;
        Ok(Pragma {
            values,
            span: self.since(start),
        })
    }

    /// A module-scope variable or function, after its linkage directive if any.
    fn item(&mut self) -> PResult<Item> {
        let start = self.peek_span()?;
        let mut linkage = None;
        while let Some(word) = self.peek_directive()? {
            let l = match word {
                ".visible" => Linkage::Visible,
                ".extern" => Linkage::Extern,
                ".weak" => Linkage::Weak,
                ".common" => Linkage::Common,
                _ => break,
            };
            let t = self.bump()?;
            if linkage.is_some() {
                return Err(
                    Diagnostic::error(self.span(t), format!("a second linkage directive `{word}`"))
                        .with_label("already given")
                        .with_help("give at most one of `.visible`, `.extern`, `.weak`, `.common`"),
                );
            }
            linkage = Some(l);
        }
        let t = self.peek()?;
        match self.text(t) {
            ".entry" | ".func" if t.kind == TokKind::Word => Ok(Item::Function(self.function(linkage, start)?)),
            w if t.kind == TokKind::Word && StateSpace::from_directive(w).is_some_and(|s| s != StateSpace::Reg) => {
                let v = self.variable(linkage, start)?;
                Ok(Item::Variable(v))
            }
            _ => Err(self.expected(
                t,
                "`.entry`, `.func` or a state space",
                "after `.visible`/`.extern`/`.weak`/`.common` comes a function (`.entry`, `.func`) or a variable \
                 (`.global`, `.const`, `.shared`)",
            )),
        }
    }

    fn function(&mut self, linkage: Option<Linkage>, start: Span) -> PResult<Function> {
        let t = self.bump()?;
        let kind = if self.text(t) == ".entry" {
            FunctionKind::Entry
        } else {
            FunctionKind::Func
        };
        let returns = if kind == FunctionKind::Func && self.is(TokKind::LParen)? {
            self.params()?
        } else {
            Vec::new()
        };
        let name = self.name("a function name", "write `.entry NAME(…)` or `.func NAME(…)`")?;
        let params = if self.is(TokKind::LParen)? {
            self.params()?
        } else {
            Vec::new()
        };
        let mut noreturn = false;
        let mut performance = Vec::new();
        while let Some(word) = self.peek_directive()? {
            if word == ".noreturn" {
                self.bump()?;
                noreturn = true;
                continue;
            }
            if !PERFORMANCE.contains(&word) {
                break;
            }
            let dstart = self.bump_span()?;
            let mut values = Vec::new();
            if self.is(TokKind::Number)? {
                values.push(self.unsigned::<u64>("a value")?);
                while self.eat(TokKind::Comma)? {
                    values.push(self.unsigned::<u64>("a value")?);
                }
            }
            performance.push(Performance {
                name: word[1..].to_string(),
                values,
                span: self.since(dstart),
            });
        }
        let t = self.peek()?;
        let body = match t.kind {
            TokKind::Semi => {
                self.bump()?;
                None
            }
            TokKind::LBrace => {
                self.loc = None;
                let open = self.bump()?;
                Some(self.block(open)?)
            }
            _ => {
                return Err(self.expected(
                    t,
                    "`{` (a body) or `;` (a declaration)",
                    "a function header is followed by its body in braces, or by `;`; between them only `.noreturn` \
                     and `.maxntid`, `.reqntid`, `.minnctapersm`, `.maxnreg`, … may stand",
                ));
            }
        };
        Ok(Function {
            linkage,
            kind,
            name,
            returns,
            params,
            noreturn,
            performance,
            body,
            span: self.since(start),
        })
    }

    /// `( param, … )`, possibly empty.
    fn params(&mut self) -> PResult<Vec<Param>> {
        self.bump()?;
        let mut out = Vec::new();
        if self.eat(TokKind::RParen)? {
            return Ok(out);
        }
        loop {
            out.push(self.param()?);
            let t = self.peek()?;
            match t.kind {
                TokKind::Comma => {
                    self.bump()?;
                }
                TokKind::RParen => {
                    self.bump()?;
                    return Ok(out);
                }
                _ => {
                    return Err(self.expected(
                        t,
                        "`,` or `)`",
                        "parameters are separated by `,` and the list ends with `)`",
                    ));
                }
            }
        }
    }

    fn param(&mut self) -> PResult<Param> {
        let t = self.peek()?;
        let start = self.span(t);
        let space = match self.text(t) {
            ".param" if t.kind == TokKind::Word => StateSpace::Param,
            ".reg" if t.kind == TokKind::Word => StateSpace::Reg,
            _ => {
                return Err(self.expected(
                    t,
                    "a parameter (`.param` or `.reg`)",
                    "write `.param .u64 NAME` or `.param .align 8 .b8 NAME[16]`",
                ));
            }
        };
        self.bump()?;
        let (mut align, mut ty, mut vector, mut ptr) = (None, None, None, None::<PtrAttr>);
        while let Some(word) = self.peek_directive()? {
            let t = self.bump()?;
            match word {
                ".align" => {
                    let a = Some(self.unsigned::<u32>("an alignment")?);
                    match ptr.as_mut() {
                        Some(p) => p.align = a,
                        None => align = a,
                    }
                }
                ".ptr" => {
                    ptr = Some(PtrAttr {
                        space: None,
                        align: None,
                    });
                }
                _ if ptr.is_some() && StateSpace::from_directive(word).is_some() => {
                    ptr.as_mut().expect("ptr").space = StateSpace::from_directive(word);
                }
                ".v2" | ".v4" | ".v8" => vector = Some(word[2..].parse().expect("digit")),
                _ => match ScalarType::from_directive(word) {
                    Some(s) => ty = Some(s),
                    None => {
                        return Err(self.expected(
                            t,
                            "a parameter type or attribute",
                            "a parameter is `.param [.align N] TYPE [.ptr [SPACE] [.align N]] NAME[[N]]` with a type \
                             such as `.u64`, `.f32`, `.b8`",
                        ));
                    }
                },
            }
        }
        let t = self.peek()?;
        let Some(scalar) = ty else {
            return Err(self.expected(t, "a parameter type", "write e.g. `.param .u64 NAME`"));
        };
        let name = self.name("a parameter name", "write e.g. `.param .u64 NAME`")?;
        let dims = self.dims()?;
        Ok(Param {
            space,
            align,
            ty: Type { scalar, vector },
            ptr,
            name,
            dims,
            span: self.since(start),
        })
    }

    /// `[N][M]…` or `[]`.
    fn dims(&mut self) -> PResult<Vec<Dim>> {
        let mut dims = Vec::new();
        while self.eat(TokKind::LBracket)? {
            if self.eat(TokKind::RBracket)? {
                dims.push(None);
                continue;
            }
            dims.push(Some(self.unsigned::<u64>("an array size")?));
            self.expect(TokKind::RBracket, "`]`", "an array size is written `[N]`")?;
        }
        Ok(dims)
    }

    /// The directives before a declared name: `.align N`, `.v2`/`.v4`/`.v8` and the type, in any order; another
    /// directive is an error expecting `what`, with `hint`.
    fn type_prefix(&mut self, what: &str, hint: &str) -> PResult<(Option<u32>, Option<ScalarType>, Option<u8>)> {
        let (mut align, mut ty, mut vector) = (None, None, None);
        while let Some(word) = self.peek_directive()? {
            let t = self.bump()?;
            match word {
                ".align" => align = Some(self.unsigned::<u32>("an alignment")?),
                ".v2" | ".v4" | ".v8" => vector = Some(word[2..].parse().expect("digit")),
                _ => match ScalarType::from_directive(word) {
                    Some(s) => ty = Some(s),
                    None => return Err(self.expected(t, what, hint)),
                },
            }
        }
        Ok((align, ty, vector))
    }

    /// A variable declaration from its state space to its `;`.
    fn variable(&mut self, linkage: Option<Linkage>, start: Span) -> PResult<Variable> {
        let t = self.bump()?;
        let space = StateSpace::from_directive(self.text(t)).expect("a state space");
        let (align, ty, vector) = self.type_prefix(
            "a type or `.align`",
            "a variable is `SPACE [.align N] [.v2|.v4] TYPE NAME[[N]] [= INIT];`, e.g. \
             `.shared .align 4 .b8 tile[1024];`",
        )?;
        let t = self.peek()?;
        let Some(scalar) = ty else {
            return Err(self.expected(t, "a type", "write e.g. `.global .u32 NAME;`"));
        };
        let name = self.name("a variable name", "write e.g. `.global .u32 NAME;`")?;
        let dims = self.dims()?;
        let init = if self.eat(TokKind::Eq)? {
            Some(self.initializer()?)
        } else {
            None
        };
        self.expect_semi("the variable declaration")?;
        Ok(Variable {
            linkage,
            space,
            align,
            ty: Type { scalar, vector },
            name,
            dims,
            init,
            span: self.since(start),
        })
    }

    fn initializer(&mut self) -> PResult<Initializer> {
        let t = self.peek()?;
        let start = self.span(t);
        if t.kind == TokKind::LBrace {
            self.enter(t)?;
            self.bump()?;
            let mut items = Vec::new();
            if !self.eat(TokKind::RBrace)? {
                loop {
                    items.push(self.initializer()?);
                    let t = self.peek()?;
                    match t.kind {
                        TokKind::Comma => {
                            self.bump()?;
                        }
                        TokKind::RBrace => {
                            self.bump()?;
                            break;
                        }
                        _ => {
                            return Err(self.expected(
                                t,
                                "`,` or `}`",
                                "initialiser values are separated by `,` and the list ends with `}`",
                            ));
                        }
                    }
                }
            }
            self.depth -= 1;
            return Ok(Initializer::List(items, self.since(start)));
        }
        let value = match t.kind {
            TokKind::Word if !self.text(t).starts_with('.') => {
                self.bump()?;
                let generic = self.text(t) == "generic" && self.is(TokKind::LParen)?;
                let name = if generic {
                    self.bump()?;
                    let n = self.name("a variable name", "write `generic(NAME)`")?;
                    self.expect(TokKind::RParen, "`)`", "write `generic(NAME)`")?;
                    n
                } else {
                    self.ident(t)
                };
                let offset = self.name_offset()?.unwrap_or(0);
                if generic {
                    InitValue::Generic(name, offset)
                } else {
                    InitValue::Symbol(name, offset)
                }
            }
            TokKind::Number | TokKind::Minus => match self.signed_number("an initial value")?.0 {
                Num::Int(v) => InitValue::Int(v),
                Num::Float(f) => InitValue::Float(f),
            },
            _ => {
                return Err(self.expected(
                    t,
                    "an initial value",
                    "an initialiser is a number, a variable's name (`sym`, `sym+4`, `generic(sym)`) or a list in braces",
                ));
            }
        };
        Ok(Initializer::Value(value, self.since(start)))
    }

    /// `+N`, `+-N` or `-N` after a name, if present.
    fn name_offset(&mut self) -> PResult<Option<i64>> {
        let t = self.peek()?;
        if !matches!(t.kind, TokKind::Plus | TokKind::Minus) {
            return Ok(None);
        }
        let next = self.peek2()?;
        if !matches!(next.kind, TokKind::Number | TokKind::Minus) {
            return Ok(None);
        }
        if t.kind == TokKind::Plus {
            self.bump()?;
        }
        let (v, span) = self.integer("an offset")?;
        Ok(Some(Self::offset(v, span)?))
    }

    /// One more level of nesting (a block or an initialiser list), refused past [`MAX_DEPTH`].
    fn enter(&mut self, t: Token) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(
                Diagnostic::error(self.span(t), format!("nested more than {MAX_DEPTH} levels deep"))
                    .with_label("too deep")
                    .with_help("compilers nest blocks a few levels deep; flatten the nesting"),
            );
        }
        self.depth += 1;
        Ok(())
    }

    // ---- function bodies ----

    /// The statements after `open` up to its `}`.
    fn block(&mut self, open: Token) -> PResult<Block> {
        self.enter(open)?;
        let mut statements = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                TokKind::RBrace => {
                    self.bump()?;
                    break;
                }
                TokKind::Eof => {
                    return Err(Diagnostic::error(self.span(open), "unclosed `{`")
                        .with_label("this block is never closed")
                        .with_help("the file ends inside this block: end it with `}`"));
                }
                _ => self.statement(&mut statements)?,
            }
        }
        self.depth -= 1;
        Ok(Block {
            statements,
            span: self.since(self.span(open)),
        })
    }

    fn statement(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.peek()?;
        let text = self.text(t);
        match t.kind {
            TokKind::Semi => {
                self.bump()?;
            }
            TokKind::LBrace => {
                self.bump()?;
                out.push(Statement::Block(self.block(t)?));
            }
            TokKind::At => out.push(Statement::Instruction(self.instruction()?)),
            TokKind::Word if text.starts_with('.') => match text {
                ".reg" => out.push(Statement::Reg(self.reg_decl()?)),
                ".loc" => {
                    let loc = self.loc_directive()?;
                    self.loc = Some(loc.clone());
                    out.push(Statement::Loc(loc));
                }
                ".pragma" => out.push(Statement::Pragma(self.pragma()?)),
                ".branchtargets" => {
                    let start = self.bump_span()?;
                    let mut targets = vec![self.name("a label", "write `TABLE: .branchtargets L1, L2;`")?];
                    while self.eat(TokKind::Comma)? {
                        targets.push(self.name("a label", "write `TABLE: .branchtargets L1, L2;`")?);
                    }
                    self.expect_semi(".branchtargets")?;
                    out.push(Statement::BranchTargets(targets, self.since(start)));
                }
                ".callprototype" => out.push(Statement::CallPrototype(self.prototype()?)),
                ".local" | ".shared" | ".param" | ".global" | ".const" => {
                    let start = self.span(t);
                    out.push(Statement::Var(self.variable(None, start)?));
                }
                _ => {
                    return Err(self.expected(
                        t,
                        "an instruction, a label or a body directive",
                        "a function body holds instructions, labels (`NAME:`), nested blocks `{ }`, and the \
                         directives `.reg`, `.local`, `.shared`, `.param`, `.loc`, `.pragma`, `.branchtargets` \
                         and `.callprototype`",
                    ));
                }
            },
            TokKind::Word if self.peek2()?.kind == TokKind::Colon => {
                self.bump()?;
                self.bump()?;
                out.push(Statement::Label(self.ident(t)));
            }
            TokKind::Word => out.push(Statement::Instruction(self.instruction()?)),
            _ => {
                return Err(self.expected(
                    t,
                    "an instruction, a label, a directive or `}`",
                    "a function body holds instructions (`add.s32 %r1, %r2, 1;`), labels, nested blocks and `.reg`, \
                     `.local`, `.shared`, `.param`, `.loc`, `.pragma`",
                ));
            }
        }
        Ok(())
    }

    /// `.callprototype [(RETURNS)] _ [(PARAMS)] [.noreturn];` (after its label).
    fn prototype(&mut self) -> PResult<Prototype> {
        let start = self.bump_span()?;
        let returns = if self.is(TokKind::LParen)? {
            self.params()?
        } else {
            Vec::new()
        };
        let help = "write `PROTO: .callprototype (.param .b32 _) _ (.param .b32 _);`";
        let t = self.peek()?;
        if self.text(t) != "_" {
            return Err(self.expected(t, "`_` (a prototype has no name)", help));
        }
        self.bump()?;
        let params = if self.is(TokKind::LParen)? {
            self.params()?
        } else {
            Vec::new()
        };
        let noreturn = self.peek_directive()? == Some(".noreturn");
        if noreturn {
            self.bump()?;
        }
        self.expect_semi(".callprototype")?;
        Ok(Prototype {
            returns,
            params,
            noreturn,
            span: self.since(start),
        })
    }

    /// `.reg [.align N] [.vN] TYPE name[<N>], …;`
    fn reg_decl(&mut self) -> PResult<RegDecl> {
        let start = self.bump_span()?;
        let (align, ty, vector) = self.type_prefix(
            "a register type",
            "write e.g. `.reg .b32 %r<8>;` (types: .pred, .b16, .b32, .b64, .u32, .s32, .f32, .f64, …)",
        )?;
        let t = self.peek()?;
        let Some(scalar) = ty else {
            return Err(self.expected(t, "a register type", "write e.g. `.reg .b32 %r<8>;`"));
        };
        let mut names = Vec::new();
        loop {
            let name = self.name(
                "a register name",
                "write e.g. `.reg .b32 %r<8>;` or `.reg .b32 %x, %y;`",
            )?;
            let count = if self.eat(TokKind::Lt)? {
                let n = self.unsigned::<u32>("a register count")?;
                self.expect(TokKind::Gt, "`>`", "a register range is written `%r<N>`")?;
                Some(n)
            } else {
                None
            };
            names.push(RegName { name, count });
            if !self.eat(TokKind::Comma)? {
                break;
            }
        }
        self.expect_semi("the register declaration")?;
        Ok(RegDecl {
            align,
            ty: Type { scalar, vector },
            names,
            span: self.since(start),
        })
    }

    /// `.loc FILE LINE COL[, function_name LABEL[+N], inlined_at FILE LINE COL]`.
    fn loc_directive(&mut self) -> PResult<Loc> {
        let start = self.bump_span()?;
        let file = self.unsigned::<u32>("a file number")?;
        let line = self.unsigned::<u32>("a line number")?;
        let column = self.unsigned::<u32>("a column number")?;
        let (mut function_name, mut inlined_at) = (None, None);
        while self.is(TokKind::Comma)? {
            self.bump()?;
            let t = self.peek()?;
            match self.text(t) {
                "function_name" if t.kind == TokKind::Word => {
                    self.bump()?;
                    let label = self.name("a label", "write `function_name $L__info_string0`")?;
                    let offset = self.name_offset()?.unwrap_or(0);
                    function_name = Some((label, offset));
                }
                "inlined_at" if t.kind == TokKind::Word => {
                    self.bump()?;
                    inlined_at = Some((
                        self.unsigned::<u32>("a file number")?,
                        self.unsigned::<u32>("a line number")?,
                        self.unsigned::<u32>("a column number")?,
                    ));
                }
                _ => {
                    return Err(self.expected(
                        t,
                        "`function_name` or `inlined_at`",
                        "write `.loc FILE LINE COLUMN[, function_name LABEL, inlined_at FILE LINE COLUMN]`",
                    ));
                }
            }
        }
        Ok(Loc {
            file,
            line,
            column,
            function_name,
            inlined_at,
            span: self.since(start),
        })
    }

    fn instruction(&mut self) -> PResult<Instruction> {
        let first = self.peek()?;
        let start = self.span(first);
        let guard = if first.kind == TokKind::At {
            self.bump()?;
            let negated = self.eat(TokKind::Bang)?;
            let predicate = self.name("a predicate", "a guard is written `@%p` or `@!%p`")?;
            Some(Guard {
                predicate,
                negated,
                span: self.since(start),
            })
        } else {
            None
        };
        let t = self.peek()?;
        let text = self.text(t);
        if t.kind != TokKind::Word || text.starts_with(['.', '%']) {
            return Err(self.expected(
                t,
                "an opcode",
                "an instruction is `[@%p] OPCODE[.QUALIFIERS] OPERANDS;`",
            ));
        }
        self.bump()?;
        let mut parts = text.split('.');
        let opcode = parts.next().unwrap_or_default().to_string();
        let qualifiers = parts.map(str::to_string).collect();
        let mut operands = Vec::new();
        if !self.is(TokKind::Semi)? {
            loop {
                operands.push(self.operand()?);
                if !self.eat(TokKind::Comma)? {
                    break;
                }
            }
        }
        self.expect_semi_with(|| format!("the instruction `{text}`"))?;
        Ok(Instruction {
            guard,
            opcode,
            qualifiers,
            opcode_span: self.span(t),
            operands,
            span: self.since(start),
            loc: self.loc.clone(),
        })
    }

    fn operand(&mut self) -> PResult<Operand> {
        let t = self.peek()?;
        let start = self.span(t);
        let kind = match t.kind {
            TokKind::Bang => {
                self.bump()?;
                OperandKind::Not(self.name("a predicate", "a negated predicate is written `!%p`")?)
            }
            TokKind::Minus | TokKind::Number => match self.signed_number("a number")?.0 {
                Num::Int(v) => OperandKind::Int(v),
                Num::Float(f) => OperandKind::Float(f),
            },
            TokKind::LBracket => {
                self.bump()?;
                OperandKind::Address(self.address()?)
            }
            TokKind::LBrace => {
                self.bump()?;
                OperandKind::Vector(self.operand_list(TokKind::RBrace, "`}`")?)
            }
            TokKind::LParen => {
                self.bump()?;
                OperandKind::List(self.operand_list(TokKind::RParen, "`)`")?)
            }
            TokKind::Word if !self.text(t).starts_with('.') => {
                self.bump()?;
                let name = self.ident(t);
                if self.eat(TokKind::Pipe)? {
                    let second = self.name("a predicate after `|`", "a second destination is written `%r|%p`")?;
                    OperandKind::Pair(name, second)
                } else if let Some(off) = self.name_offset()? {
                    OperandKind::Offset(name, off)
                } else {
                    OperandKind::Name(name)
                }
            }
            _ => {
                return Err(self.expected(
                    t,
                    "an operand",
                    "an operand is a register (`%r1`), a number, an address (`[%rd1+4]`), a vector (`{%r1, %r2}`), \
                     a name, or `!%p`",
                ));
            }
        };
        Ok(Operand {
            kind,
            span: self.since(start),
        })
    }

    /// Operands separated by `,` up to `close` (already past the opening bracket); possibly none.
    fn operand_list(&mut self, close: TokKind, what: &str) -> PResult<Vec<Operand>> {
        let mut items = Vec::new();
        if self.eat(close)? {
            return Ok(items);
        }
        loop {
            items.push(self.operand()?);
            let t = self.peek()?;
            if t.kind == TokKind::Comma {
                self.bump()?;
            } else if t.kind == close {
                self.bump()?;
                return Ok(items);
            } else {
                return Err(self.expected(t, &format!("`,` or {what}"), "list elements are separated by `,`"));
            }
        }
    }

    /// The inside of `[…]` and its `]`.
    fn address(&mut self) -> PResult<Address> {
        let t = self.peek()?;
        let help = "an address is `[%reg]`, `[%reg+8]`, `[%reg+-8]`, `[name]`, `[name+8]` or `[8]`";
        let addr = match t.kind {
            TokKind::Word if !self.text(t).starts_with('.') => {
                self.bump()?;
                let base = Some(self.ident(t));
                let offset = match self.peek()?.kind {
                    TokKind::Plus | TokKind::Minus => {
                        if self.peek()?.kind == TokKind::Plus {
                            self.bump()?;
                        }
                        let (v, span) = self.integer("an offset")?;
                        Self::offset(v, span)?
                    }
                    _ => 0,
                };
                Address { base, offset }
            }
            TokKind::Number | TokKind::Minus => {
                let (v, span) = self.integer("an address")?;
                Address {
                    base: None,
                    offset: Self::offset(v, span)?,
                }
            }
            _ => return Err(self.expected(t, "a register, a name or a number", help)),
        };
        self.expect(TokKind::RBracket, "`]`", help)?;
        Ok(addr)
    }
}

/// The contents of a string literal (with its quotes): `\"`, `\\` and other `\c` escapes give `c`, `\n` and
/// `\t` their characters.
fn unescape(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len() - 1];
    if !inner.contains('\\') {
        return inner.to_string();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}
