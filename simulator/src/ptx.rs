//! PTX kernels as programs: a `.ptx` file (or a `.cu` file, through nvcc) parsed, one entry chosen, its
//! arguments bound to buffers and parameters by name or position ([`Arguments`]), and lowered to a
//! [`Program`]. The command line (`sim run kernel.ptx --buffer … --set …`) and the Python package
//! (`warpsim.run(ptx, inputs=…, outputs=…, params=…)`) are two spellings of the same [`Arguments`].

use std::fmt::Write as _;
use std::path::Path;
use warpsim_isa::ptx::entry::{ArgKind, Argument, Scalar};
use warpsim_isa::ptx::{self, Bindings, Entry, Function, Module, ParamValue, ScalarType};
use warpsim_isa::{BufferDecl, ConstExpr, ElemTy, ParamDecl, Program, SourceMap};

/// How a PTX kernel's arguments are bound.
#[derive(Clone, Debug, Default)]
pub struct Arguments {
    /// The kernel to run: its name, mangled or demangled (`None`: the module's only kernel).
    pub entry: Option<String>,
    /// `NAME=TYPE[LEN]`, `NAME=TYPE[D0xD1…]` or `NAME=[LEN]` (the argument's element type), optionally followed by
    /// `=INIT`: pointer (or Numba array) argument NAME, by name or position, points to a new buffer.
    pub buffers: Vec<String>,
    /// `NAME=…`: scalar argument NAME (by name or position) is the program parameter NAME, its value the launch's.
    pub sets: Vec<String>,
    /// How the front end that made them spells them, for messages.
    pub syntax: Syntax,
}

/// The front end's spelling of a binding in messages: `sim`'s flags or the Python package's arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Syntax {
    /// `--buffer NAME=TYPE[LEN]`, `--set NAME=VALUE`.
    #[default]
    Flags,
    /// `inputs={…}`/`outputs={NAME: (dtype, LEN)}`, `params={NAME: VALUE}`.
    Python,
}

impl Syntax {
    /// Binding `text` (`NAME=SPEC`) of a buffer, as the user wrote it.
    fn buffer(self, text: &str) -> String {
        match self {
            Syntax::Flags => format!("--buffer {text}"),
            Syntax::Python => format!("array {text}"),
        }
    }

    /// Binding `text` (`NAME=VALUE`) of a scalar, as the user wrote it.
    fn set(self, text: &str) -> String {
        match self {
            Syntax::Flags => format!("--set {text}"),
            Syntax::Python => format!("params {text}"),
        }
    }

    /// How to give argument `key` a buffer of `elem`s.
    fn buffer_hint(self, key: &str, elem: &str) -> String {
        match self {
            Syntax::Flags => format!("--buffer {key}={elem}[N]"),
            Syntax::Python => format!(
                "outputs={{'{key}': (numpy.{}, N)}} or inputs={{'{key}': array}}",
                numpy_name(elem)
            ),
        }
    }

    /// How to give scalar argument `key` a value.
    fn set_hint(self, key: &str) -> String {
        match self {
            Syntax::Flags => format!("--set {key}=VALUE"),
            Syntax::Python => format!("params={{'{key}': VALUE}}"),
        }
    }
}

/// NumPy's name of element type `elem` (`f32`: `float32`).
fn numpy_name(elem: &str) -> &'static str {
    match elem {
        "u32" => "uint32",
        "s32" => "int32",
        "u64" => "uint64",
        "s64" => "int64",
        "f64" => "float64",
        _ => "float32",
    }
}

/// A `.ptx` file, or a `.cu` file (compiled to PTX with nvcc).
pub fn is_ptx_or_cuda(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ptx") || e.eq_ignore_ascii_case("cu"))
}

/// The file parsed (a `.cu` file compiled by nvcc first), or its syntax error rendered.
fn parse(path: &str, color: bool) -> Result<(Module, SourceMap), String> {
    if !Path::new(path).exists() {
        return Err(format!("error: no file named `{path}`"));
    }
    if Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("cu"))
    {
        let text = nvcc(path)?;
        return ptx::parse(&format!("{path} (nvcc -ptx)"), &text).map_err(|e| e.render(color));
    }
    let text = warpsim_isa::read_source(Path::new(path)).map_err(|e| format!("error: {e}"))?;
    ptx::parse(path, &text).map_err(|e| e.render(color))
}

/// nvcc's options: PTX for sm_90 with line information, as the corpus is compiled.
pub const NVCC_OPTIONS: [&str; 4] = ["-ptx", "-arch=sm_90", "-lineinfo", "-O3"];

/// The nvcc to run: `$NVCC`, else `nvcc` on the `PATH`, else `$CUDA_HOME/bin/nvcc`, else
/// `/usr/local/cuda/bin/nvcc`.
pub fn find_nvcc() -> Option<std::path::PathBuf> {
    if let Some(p) = std::env::var_os("NVCC") {
        return Some(p.into());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("nvcc"));
    let homes = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|h| Path::new(&h).join("bin/nvcc"));
    on_path
        .chain(homes)
        .chain(std::iter::once(Path::new("/usr/local/cuda/bin/nvcc").to_path_buf()))
        .find(|p| p.is_file())
}

/// `path` (CUDA C++) compiled to PTX by nvcc, or why not.
pub fn nvcc(path: &str) -> Result<String, String> {
    let Some(nvcc) = find_nvcc() else {
        return Err(format!(
            "error: `{path}` is CUDA C++, and no nvcc was found to compile it (looked at $NVCC, the PATH, $CUDA_HOME and /usr/local/cuda)\n  help: install one, no GPU needed: `pip install nvidia-cuda-nvcc nvidia-cuda-runtime` and set NVCC to its nvcc (site-packages/nvidia/cu13/bin/nvcc); or compile it yourself, `nvcc {} {path} -o kernel.ptx`, and run the .ptx",
            NVCC_OPTIONS.join(" ")
        ));
    };
    let dir = std::env::temp_dir().join(format!("warpsim-nvcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("error: cannot create {}: {e}", dir.display()))?;
    let out = dir.join("kernel.ptx");
    let result = std::process::Command::new(&nvcc)
        .args(NVCC_OPTIONS)
        .arg(path)
        .arg("-o")
        .arg(&out)
        .output();
    let text = std::fs::read_to_string(&out);
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Err(e) => Err(format!("error: cannot run {}: {e}", nvcc.display())),
        Ok(o) if !o.status.success() => Err(format!(
            "error: nvcc could not compile `{path}`:\n{}",
            String::from_utf8_lossy(&o.stderr).trim_end()
        )),
        Ok(_) => text.map_err(|e| format!("error: nvcc wrote no PTX: {e}")),
    }
}

/// Reads the source files a PTX file's `.loc`s name, in `ptx::source_beside`'s order (the file of that name next
/// to the PTX first: a PTX file compiled elsewhere keeps the absolute paths of that machine), with the path read
/// (the lowering names the file by it).
pub fn reader(ptx_path: &str) -> impl Fn(&str) -> Option<(String, String)> {
    let dir = Path::new(ptx_path).parent().map(Path::to_path_buf).unwrap_or_default();
    move |path: &str| {
        let read = |p: &Path| {
            let meta = std::fs::metadata(p).ok()?;
            // A source file, not a device or a huge file.
            if !meta.is_file() || meta.len() > 16 << 20 {
                return None;
            }
            Some((p.display().to_string(), std::fs::read_to_string(p).ok()?))
        };
        let given = Path::new(path);
        // Beside the PTX first: nvcc and Numba write the absolute paths of the machine that compiled.
        given
            .file_name()
            .and_then(|name| read(&dir.join(name)))
            .or_else(|| read(given))
    }
}

/// `TYPE[LEN]`, `TYPE[D0xD1…]` or `[LEN]` of `--buffer` (no type: `default`, the argument's element type),
/// optionally `=INIT` after it: the element type, the shape, and the initialiser's text.
fn buffer_spec(text: &str, default: Option<ElemTy>) -> Option<(ElemTy, Vec<i64>, Option<&str>)> {
    let (head, init) = match text.split_once(']') {
        Some((h, rest)) if rest.trim().is_empty() => (h, None),
        Some((h, rest)) => (h, Some(rest.trim().strip_prefix('=')?.trim())),
        None => return None,
    };
    let (ty, dims) = head.trim().split_once('[')?;
    let elem = match ty.trim() {
        "" => default?,
        t => ElemTy::parse(t)?,
    };
    let shape: Option<Vec<i64>> = dims
        .split(['x', ','])
        .map(|d| d.trim().parse().ok().filter(|&n: &i64| n >= 0))
        .collect();
    Some((elem, shape?, init))
}

/// The initialiser `INIT` of `--buffer NAME=TYPE[LEN]=INIT`: what a `.buffer` line's `= …` takes (an expression
/// in `i` and `len`, and overrides), assembled as that line.
fn initialiser(flag: &str, elem: ElemTy, init: &str, color: bool) -> Result<warpsim_isa::Init, String> {
    let text = format!(".buffer b {}[1] = {init}\n", elem.name());
    let p = warpsim_isa::parse(flag, &text, &crate::programs::Resolver).map_err(|e| e.render(color))?;
    p.buffers
        .into_iter()
        .next()
        .and_then(|b| b.init)
        .ok_or_else(|| format!("error: `{flag}`: no initialiser after `=`"))
}

fn var(name: &str, span: warpsim_isa::Span) -> ConstExpr {
    ConstExpr {
        kind: warpsim_isa::expr::ExprKind::Var(name.to_string()),
        span,
    }
}

/// `NAME=…` flags (`--buffer`, `--set`) whose NAME names argument `a` of `e`.
fn flags_for<'f>(e: &Entry, a: &Argument, flags: &'f [String]) -> Vec<(usize, &'f str, &'f str)> {
    flags
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let (key, rest) = t.split_once('=')?;
            let key = key.trim();
            (e.argument(key).ok()?.index == a.index).then_some((i, key, rest))
        })
        .collect()
}

/// Bind every argument of entry `e` from the flags: a pointer (or a Numba array) to a new buffer
/// (`--buffer`), a scalar to a program parameter (`--set`).
fn bindings(e: &Entry, args: &Arguments, color: bool) -> Result<Bindings, String> {
    let syntax = args.syntax;
    let f = e.function;
    let span = f.name.span;
    let mut b = Bindings {
        values: vec![ParamValue::Unbound; f.params.len()],
        ..Bindings::default()
    };
    let list = || format!("\n  its arguments:\n  {}", e.argument_list().replace('\n', "\n  "));
    // A flag that names no argument (a typo) first.
    for (is_buffer, all) in [(true, &args.buffers), (false, &args.sets)] {
        for t in all {
            let key = t.split_once('=').map_or(t.as_str(), |x| x.0).trim();
            if let Err(why) = e.argument(key) {
                let flag = if is_buffer { syntax.buffer(t) } else { syntax.set(t) };
                return Err(format!("error: `{flag}`: {why}"));
            }
        }
    }
    for a in &e.arguments {
        let buffers = flags_for(e, a, &args.buffers);
        let sets = flags_for(e, a, &args.sets);
        let label = match &a.name {
            Some(n) => format!("argument {} (`{n}`: {})", a.index, a.ty),
            None => format!("argument {} ({})", a.index, a.ty),
        };
        if buffers.len() + sets.len() > 1 {
            return Err(format!("error: {label} of `{}` is bound more than once", e.name.last));
        }
        let is_pointer = matches!(
            a.kind,
            ArgKind::Pointer { .. }
                | ArgKind::Array { .. }
                | ArgKind::Param(ScalarType::U64 | ScalarType::B64 | ScalarType::S64)
        );
        if let Some(&(_, key, spec)) = buffers.first() {
            let elem_of = |s: &Option<Scalar>| s.and_then(Scalar::elem);
            let default = match &a.kind {
                ArgKind::Pointer { elem, .. } | ArgKind::Array { elem, .. } => elem_of(elem),
                _ => None,
            };
            if !is_pointer {
                return Err(format!(
                    "error: `{}`: {label} is not a pointer\n  help: give a scalar a value: `{}`",
                    syntax.buffer(&format!("{key}={spec}")),
                    syntax.set_hint(key)
                ));
            }
            let (elem, dims, init) = buffer_spec(spec, default).ok_or_else(|| {
                format!(
                    "error: `{}`: expected TYPE[LEN] (or TYPE[ROWSxCOLS] for a 2-D array), then optionally `=INIT`\n  help: for example `{}` or `{}` (TYPE: u32, s32, f32, u64, s64, f64{})",
                    syntax.buffer(&format!("{key}={spec}")),
                    syntax.buffer(&format!("{key}=f32[1024]")),
                    syntax.buffer(&format!("{key}=f32[1024]=i*0.5")),
                    if default.is_some() { "; `[1024]` takes the argument's element type" } else { "" }
                )
            })?;
            let len: i64 = dims.iter().product();
            // The buffer is named after the argument (`sim`), or after the caller's key (Python: the key the
            // arrays come back under).
            let name = match (syntax, &a.name) {
                (Syntax::Flags, Some(n)) => n.clone(),
                _ => key.to_string(),
            };
            if b.buffers.iter().any(|x| x.name == name) {
                return Err(format!("error: two buffers named `{name}`"));
            }
            let init = match init {
                Some(text) => Some(initialiser(
                    &syntax.buffer(&format!("{key}={spec}")),
                    elem,
                    text,
                    color,
                )?),
                None => None,
            };
            b.buffers.push(BufferDecl {
                name: name.clone(),
                elem,
                len: ConstExpr::int(len, span),
                init,
                span,
            });
            match &a.kind {
                ArgKind::Array {
                    ndim,
                    layout,
                    params,
                    elem: scalar,
                    ..
                } => {
                    if dims.len() != *ndim {
                        return Err(format!(
                            "error: `{}`: {label} has {ndim} dimension{}, the buffer {}\n  help: give its shape: `{key}={}[{}]`",
                            syntax.buffer(&format!("{key}={spec}")),
                            if *ndim == 1 { "" } else { "s" },
                            dims.len(),
                            elem.name(),
                            vec!["N"; *ndim].join("x")
                        ));
                    }
                    // An array of 8- or 16-bit elements (`uint8`, `int16`, `bool`) takes a u32 buffer whose words
                    // hold 4 or 2 of them, little-endian: its innermost dimension (the last, or the first of a
                    // column-major array) counts words, `4 / itemsize` elements each.
                    let small = scalar.filter(|s| s.elem().is_none()).map(|s| i64::from(s.bytes()));
                    let mut dims = dims.clone();
                    let mut len = len;
                    let size = match small {
                        Some(bytes) => {
                            let inner = if layout == "F" { 0 } else { *ndim - 1 };
                            dims[inner] *= 4 / bytes;
                            len *= 4 / bytes;
                            bytes
                        }
                        None => 4 * i64::try_from(elem.words()).unwrap_or(2),
                    };
                    // Strides in bytes: row-major (C, A) or column-major (F).
                    let mut strides = vec![0i64; *ndim];
                    let mut step = size;
                    let order: Vec<usize> = if layout == "F" {
                        (0..*ndim).collect()
                    } else {
                        (0..*ndim).rev().collect()
                    };
                    for &k in &order {
                        strides[k] = step;
                        step *= dims[k];
                    }
                    let c = |v: i64| ParamValue::Expr(ConstExpr::int(v, span));
                    b.values[params.meminfo] = c(0);
                    b.values[params.parent] = c(0);
                    b.values[params.nitems] = c(len);
                    b.values[params.itemsize] = c(size);
                    b.values[params.data] = ParamValue::Expr(var(&name, span));
                    for (k, p) in params.shape.clone().enumerate() {
                        b.values[p] = c(dims[k]);
                    }
                    for (k, p) in params.strides.clone().enumerate() {
                        b.values[p] = c(strides[k]);
                    }
                }
                _ => b.values[a.params.start] = ParamValue::Expr(var(&name, span)),
            }
        } else if let Some(&(_, key, _)) = sets.first() {
            match &a.kind {
                ArgKind::Scalar(_) | ArgKind::Param(_) => {}
                ArgKind::Pointer { .. } | ArgKind::Array { .. } => {
                    return Err(format!(
                        "error: `{}`: {label} is a pointer\n  help: give it a buffer: `{}`",
                        syntax.set(&format!("{key}=…")),
                        syntax.buffer_hint(key, "f32")
                    ));
                }
                _ => {
                    return Err(format!(
                        "error: {label} of `{}` is passed by value as a structure or tuple, which warpsim cannot bind yet",
                        e.name.last
                    ));
                }
            }
            b.params.push(ParamDecl {
                name: key.to_string(),
                default: ConstExpr::int(0, span),
                span,
            });
            b.values[a.params.start] = ParamValue::Expr(var(key, span));
        } else {
            let key = a.name.clone().unwrap_or_else(|| a.index.to_string());
            let how = if is_pointer {
                let elem = match &a.kind {
                    ArgKind::Pointer { elem, .. } | ArgKind::Array { elem, .. } => elem.and_then(Scalar::elem),
                    _ => None,
                };
                syntax.buffer_hint(&key, elem.map_or("f32", ElemTy::name))
            } else {
                syntax.set_hint(&key)
            };
            return Err(format!(
                "error: {label} of `{}` is not bound\n  help: `{how}`{}",
                e.name.last,
                list()
            ));
        }
    }
    Ok(b)
}

/// The kernel of PTX file `path` (or CUDA file, compiled by [`nvcc`]) that `args` choose, lowered with `args`'
/// bindings; its source files (for `.loc`) read beside it ([`reader`]). The error is rendered, ready to print.
pub fn load(path: &str, args: &Arguments, color: bool) -> Result<Program, String> {
    let (module, sources) = parse(path, color)?;
    lower(
        path,
        &module,
        &sources,
        args,
        &reader(path),
        &ptx::source_beside(Path::new(path)),
        color,
    )
}

/// [`load`] for PTX `text` (named `name` in messages) rather than a file. The source files its `.loc`s name are
/// `sources` (path, text; matched by the whole path, else by file name), else read beside `name` (Python passes a
/// kernel's source, which may exist only in memory, in a notebook).
pub fn load_text(
    name: &str,
    text: &str,
    args: &Arguments,
    sources: &[(String, String)],
    color: bool,
) -> Result<Program, String> {
    let (module, map) = ptx::parse(name, text).map_err(|e| e.render(color))?;
    // By the path the `.file` directive gives, else by its file name (PTX compiled on another machine).
    let file_name = |p: &str| p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
    let given = |path: &str| {
        sources
            .iter()
            .find(|(p, _)| p == path)
            .or_else(|| sources.iter().find(|(p, _)| file_name(p) == file_name(path)))
            .map(|(p, t)| (p.clone(), t.clone()))
    };
    let beside = reader(name);
    let read = |path: &str| given(path).or_else(|| beside(path));
    let text_of = ptx::source_beside(Path::new(name));
    let describe_read = |path: &str| given(path).map(|(_, t)| t).or_else(|| text_of(path));
    lower(name, &module, &map, args, &read, &describe_read, color)
}

#[allow(clippy::too_many_arguments, reason = "the two readers and the rest of one lowering")]
fn lower(
    path: &str,
    module: &Module,
    sources: &SourceMap,
    args: &Arguments,
    read: &dyn Fn(&str) -> Option<(String, String)>,
    describe_read: &dyn Fn(&str) -> Option<String>,
    color: bool,
) -> Result<Program, String> {
    let f = ptx::find(module, args.entry.as_deref()).map_err(|e| format!("error: {path}: {e}"))?;
    let e = ptx::describe(module, f, describe_read);
    let b = bindings(&e, args, color)?;
    let mut p = ptx::lower(module, sources, f, &b, read).map_err(|d| d.render(sources, color))?;
    p.name.clone_from(&e.name.last);
    Ok(p)
}

/// Every entry of PTX (or CUDA) file `path` lowered (pointers bound to placeholder buffers, scalars to 0): a line per
/// entry with its size and arguments, or every entry's errors.
pub fn check(path: &str, color: bool) -> Result<String, String> {
    let (module, sources) = parse(path, color)?;
    let mut out = String::new();
    let mut errors = String::new();
    let entries: Vec<&Function> = module.entries().collect();
    if entries.is_empty() {
        return Err(format!("error: `{path}` has no kernel (`.entry`)"));
    }
    let read = reader(path);
    for e in entries {
        let info = ptx::describe(&module, e, &ptx::source_beside(Path::new(path)));
        match ptx::lower(&module, &sources, e, &ptx::placeholder_bindings(e), &read) {
            Ok(p) => {
                let regs = p.regs.iter().filter(|r| r.width != warpsim_isa::Width::High).count();
                let _ = writeln!(
                    out,
                    "{}: ok ({} instructions, {} registers, {} predicates)\n{}",
                    info.name.display(),
                    p.instructions.len(),
                    regs,
                    p.preds.len(),
                    info.argument_list()
                );
            }
            Err(d) => errors.push_str(&d.render(&sources, color)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(format!("{out}{errors}"))
    }
}

/// A launches-file line's words (`programs/ptx/launches.txt`: a PTX file and `sim run`'s flags): split at blanks,
/// `'…'` quoting a word with blanks.
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("a `'` is not closed".into());
    }
    if any {
        out.push(word);
    }
    Ok(out)
}
