//! `sim run kernel.ptx` and `sim check kernel.ptx`: a PTX file's entry lowered to a program, its parameters bound
//! from the flags (`--entry`, `--buffer NAME=TYPE[LEN]`, `--set NAME=VALUE`).

use super::{Failure, ShapeArgs};
use std::fmt::Write as _;
use std::path::Path;
use warpsim_isa::ptx::entry::{ArgKind, Argument, Scalar};
use warpsim_isa::ptx::{self, Bindings, Entry, Function, Module, ParamValue, ScalarType};
use warpsim_isa::{BufferDecl, ConstExpr, ElemTy, ParamDecl, Program, SourceMap};

/// A `.ptx` file, or a `.cu` file (compiled to PTX with nvcc).
pub(crate) fn is_ptx_or_cuda(path: &str) -> bool {
    Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ptx") || e.eq_ignore_ascii_case("cu"))
}

/// The file parsed (a `.cu` file compiled by nvcc first), or its syntax error rendered.
fn parse(path: &str, color: bool) -> Result<(Module, SourceMap), Failure> {
    if !Path::new(path).exists() {
        return Err(Failure::input(format!("error: no file named `{path}`")));
    }
    if Path::new(path)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("cu"))
    {
        let text = nvcc(path)?;
        return ptx::parse(&format!("{path} (nvcc -ptx)"), &text).map_err(|e| Failure::input(e.render(color)));
    }
    let text = warpsim_isa::read_source(Path::new(path)).map_err(|e| Failure::input(format!("error: {e}")))?;
    ptx::parse(path, &text).map_err(|e| Failure::input(e.render(color)))
}

/// nvcc's options: PTX for sm_90 with line information, as the corpus is compiled.
pub(crate) const NVCC_OPTIONS: [&str; 4] = ["-ptx", "-arch=sm_90", "-lineinfo", "-O3"];

/// The nvcc to run: `$NVCC`, else `nvcc` on the `PATH`, else `$CUDA_HOME/bin/nvcc`, else
/// `/usr/local/cuda/bin/nvcc`.
fn find_nvcc() -> Option<std::path::PathBuf> {
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
fn nvcc(path: &str) -> Result<String, Failure> {
    let Some(nvcc) = find_nvcc() else {
        return Err(Failure::input(format!(
            "error: `{path}` is CUDA C++, and no nvcc was found to compile it (looked at $NVCC, the PATH, $CUDA_HOME and /usr/local/cuda)\n  help: install one, no GPU needed: `pip install nvidia-cuda-nvcc nvidia-cuda-runtime` and set NVCC to its nvcc (site-packages/nvidia/cu13/bin/nvcc); or compile it yourself, `nvcc {} {path} -o kernel.ptx`, and run the .ptx",
            NVCC_OPTIONS.join(" ")
        )));
    };
    let dir = std::env::temp_dir().join(format!("warpsim-nvcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failure::input(format!("error: cannot create {}: {e}", dir.display())))?;
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
        Err(e) => Err(Failure::input(format!("error: cannot run {}: {e}", nvcc.display()))),
        Ok(o) if !o.status.success() => Err(Failure::input(format!(
            "error: nvcc could not compile `{path}`:\n{}",
            String::from_utf8_lossy(&o.stderr).trim_end()
        ))),
        Ok(_) => text.map_err(|e| Failure::input(format!("error: nvcc wrote no PTX: {e}"))),
    }
}

/// Reads the source files a PTX file's `.loc`s name, in `ptx::source_beside`'s order (the file of that name next
/// to the PTX first: a PTX file compiled elsewhere keeps the absolute paths of that machine), with the path read
/// (the lowering names the file by it).
fn reader(ptx_path: &str) -> impl Fn(&str) -> Option<(String, String)> {
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
fn initialiser(flag: &str, elem: ElemTy, init: &str, color: bool) -> Result<warpsim_isa::Init, Failure> {
    let text = format!(".buffer b {}[1] = {init}\n", elem.name());
    let p =
        warpsim_isa::parse(flag, &text, &warpsim::programs::Resolver).map_err(|e| Failure::input(e.render(color)))?;
    p.buffers
        .into_iter()
        .next()
        .and_then(|b| b.init)
        .ok_or_else(|| Failure::input(format!("error: `{flag}`: no initialiser after `=`")))
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
fn bindings(e: &Entry, shape: &ShapeArgs, color: bool) -> Result<Bindings, Failure> {
    let f = e.function;
    let span = f.name.span;
    let mut b = Bindings {
        values: vec![ParamValue::Unbound; f.params.len()],
        ..Bindings::default()
    };
    let list = || format!("\n  its arguments:\n  {}", e.argument_list().replace('\n', "\n  "));
    // A flag that names no argument (a typo) first.
    for (flag, all) in [("--buffer", &shape.buffer), ("--set", &shape.set)] {
        for t in all {
            let key = t.split_once('=').map_or(t.as_str(), |x| x.0).trim();
            if let Err(why) = e.argument(key) {
                return Err(Failure::input(format!("error: `{flag} {t}`: {why}")));
            }
        }
    }
    for a in &e.arguments {
        let buffers = flags_for(e, a, &shape.buffer);
        let sets = flags_for(e, a, &shape.set);
        let label = match &a.name {
            Some(n) => format!("argument {} (`{n}`: {})", a.index, a.ty),
            None => format!("argument {} ({})", a.index, a.ty),
        };
        if buffers.len() + sets.len() > 1 {
            return Err(Failure::input(format!(
                "error: {label} of `{}` is bound more than once",
                e.name.last
            )));
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
                return Err(Failure::input(format!(
                    "error: `--buffer {key}={spec}`: {label} is not a pointer\n  help: give a scalar a value: `--set {key}=VALUE`"
                )));
            }
            let (elem, dims, init) = buffer_spec(spec, default).ok_or_else(|| {
                Failure::input(format!(
                    "error: `--buffer {key}={spec}`: expected TYPE[LEN] (or TYPE[ROWSxCOLS] for a 2-D array), then optionally `=INIT`\n  help: for example `--buffer {key}=f32[1024]` or `--buffer {key}=f32[1024]=i*0.5` (TYPE: u32, s32, f32, u64, s64, f64{})",
                    if default.is_some() { "; `[1024]` takes the argument's element type" } else { "" }
                ))
            })?;
            let len: i64 = dims.iter().product();
            let name = a.name.clone().unwrap_or_else(|| key.to_string());
            if b.buffers.iter().any(|x| x.name == name) {
                return Err(Failure::input(format!("error: two buffers named `{name}`")));
            }
            let init = match init {
                Some(text) => Some(initialiser(&format!("--buffer {key}={spec}"), elem, text, color)?),
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
                ArgKind::Array { elem: Some(small), .. } if small.elem().is_none() => {
                    return Err(Failure::input(format!(
                        "error: {label}: Numba arrays of {} elements are not supported yet",
                        small.name()
                    )));
                }
                ArgKind::Array {
                    ndim, layout, params, ..
                } => {
                    if dims.len() != *ndim {
                        return Err(Failure::input(format!(
                            "error: `--buffer {key}={spec}`: {label} has {ndim} dimension{}, the buffer {}\n  help: give its shape: `{key}={}[{}]`",
                            if *ndim == 1 { "" } else { "s" },
                            dims.len(),
                            elem.name(),
                            vec!["N"; *ndim].join("x")
                        )));
                    }
                    let size = 4 * i64::try_from(elem.words()).unwrap_or(2);
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
                    return Err(Failure::input(format!(
                        "error: `--set {key}=…`: {label} is a pointer\n  help: give it a buffer: `--buffer {key}=f32[1024]`"
                    )));
                }
                _ => {
                    return Err(Failure::input(format!(
                        "error: {label} of `{}` is passed by value as a structure or tuple, which warpsim cannot bind yet",
                        e.name.last
                    )));
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
                format!("--buffer {key}={}[N]", elem.map_or("f32", ElemTy::name))
            } else {
                format!("--set {key}=VALUE")
            };
            return Err(Failure::input(format!(
                "error: {label} of `{}` is not bound\n  help: `{how}`{}",
                e.name.last,
                list()
            )));
        }
    }
    Ok(b)
}

/// `sim run/bench/crosscheck kernel.ptx`: the entry lowered with the flags' bindings.
pub(crate) fn load(path: &str, color: bool, shape: &ShapeArgs) -> Result<Program, Failure> {
    let (module, sources) = parse(path, color)?;
    let f = ptx::find(&module, shape.entry.as_deref()).map_err(|e| Failure::input(format!("error: {path}: {e}")))?;
    let read = reader(path);
    let e = ptx::describe(&module, f, &ptx::source_beside(Path::new(path)));
    let b = bindings(&e, shape, color)?;
    let mut p = ptx::lower(&module, &sources, f, &b, &read).map_err(|d| Failure::input(d.render(&sources, color)))?;
    p.name.clone_from(&e.name.last);
    Ok(p)
}

/// `sim check kernel.ptx`: every entry lowered (pointers bound to placeholder buffers, scalars to 0).
pub(crate) fn check(path: &str, color: bool) -> Result<String, Failure> {
    let (module, sources) = parse(path, color)?;
    let mut out = String::new();
    let mut errors = String::new();
    let entries: Vec<&Function> = module.entries().collect();
    if entries.is_empty() {
        return Err(Failure::input(format!("error: `{path}` has no kernel (`.entry`)")));
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
        Err(Failure::input(format!("{out}{errors}")))
    }
}

/// One line of a launches file: a PTX file and the flags that launch it.
#[derive(clap::Parser)]
#[command(no_binary_name = true)]
struct LaunchLine {
    file: String,
    #[command(flatten)]
    shape: ShapeArgs,
}

/// A launches-file line (`FILE FLAGS…`): the file and its launch flags.
pub(crate) fn launch_line(line: &str) -> Result<(String, ShapeArgs), String> {
    use clap::Parser as _;
    let words = words(line)?;
    let parsed = LaunchLine::try_parse_from(&words).map_err(|e| e.to_string().trim_end().to_string())?;
    Ok((parsed.file, parsed.shape))
}

/// A line's words: split at blanks, `'…'` quoting a word with blanks.
fn words(line: &str) -> Result<Vec<String>, String> {
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

/// One launch of a launches file: the program, named after its PTX file, its launch, and its set for the
/// cross-check's cycle error per set: `ptx/-G (debug)` for PTX built for debugging (`.target …, debug`,
/// which ptxas compiles without optimising), `ptx/optimised` for the rest.
pub(crate) struct LaunchOf {
    pub name: String,
    pub program: Program,
    pub launch: warpsim::Launch,
    pub set: &'static str,
}

/// The launches of a launches file (`sim crosscheck --launches FILE`). A bad line is an error naming it.
pub(crate) fn launches(path: &str, color: bool) -> Result<Vec<LaunchOf>, Failure> {
    use clap::Parser as _;
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure::input(format!("error: cannot read `{path}`: {e}")))?;
    let dir = Path::new(path).parent().map(Path::to_path_buf).unwrap_or_default();
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let at = |m: String| Failure::input(format!("error: {path}:{}: {m}", k + 1));
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words = words(line).map_err(at)?;
        let parsed = LaunchLine::try_parse_from(&words).map_err(|e| at(e.to_string().trim_end().to_string()))?;
        let file = dir.join(&parsed.file);
        let file = file.to_string_lossy();
        let mut program = load(&file, color, &parsed.shape)?;
        let name = Path::new(&parsed.file)
            .file_stem()
            .map_or_else(|| parsed.file.clone(), |s| s.to_string_lossy().into_owned());
        program.name.clone_from(&name);
        let debug = program.ptx.as_ref().is_some_and(|p| p.debug_build());
        out.push(LaunchOf {
            name,
            program,
            launch: parsed.shape.launch()?,
            set: if debug { "ptx/-G (debug)" } else { "ptx/optimised" },
        });
    }
    Ok(out)
}
