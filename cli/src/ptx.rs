//! `sim run kernel.ptx` and `sim check kernel.ptx`: a PTX file's entry lowered to a program, its parameters bound
//! from the flags (`--entry`, `--buffer NAME=TYPE[LEN]`, `--set NAME=VALUE`).

use super::{Failure, ShapeArgs};
use std::fmt::Write as _;
use std::path::Path;
use warpsim_isa::ptx::{self, Bindings, Function, Module, ParamValue};
use warpsim_isa::{BufferDecl, ConstExpr, ElemTy, ParamDecl, Program, SourceMap};

/// The file parsed, or its syntax error rendered.
fn parse(path: &str, color: bool) -> Result<(Module, SourceMap), Failure> {
    if !Path::new(path).exists() {
        return Err(Failure::input(format!("error: no file named `{path}`")));
    }
    let text = warpsim_isa::read_source(Path::new(path)).map_err(|e| Failure::input(format!("error: {e}")))?;
    ptx::parse(path, &text).map_err(|e| Failure::input(e.render(color)))
}

/// Reads the source files a PTX file's `.loc`s name: the path as given, else the file of that name next to the
/// PTX file (a PTX file compiled elsewhere keeps the absolute paths of that machine).
fn reader(ptx_path: &str) -> impl Fn(&str) -> Option<String> {
    let dir = Path::new(ptx_path).parent().map(Path::to_path_buf).unwrap_or_default();
    move |path: &str| {
        let read = |p: &Path| {
            let meta = std::fs::metadata(p).ok()?;
            // A source file, not a device or a huge file.
            if !meta.is_file() || meta.len() > 16 << 20 {
                return None;
            }
            std::fs::read_to_string(p).ok()
        };
        let given = Path::new(path);
        read(given).or_else(|| read(&dir.join(given.file_name()?)))
    }
}

/// The entry `query` names, or the only one.
fn entry<'m>(module: &'m Module, path: &str, query: Option<&str>) -> Result<&'m Function, Failure> {
    let entries: Vec<&Function> = module.entries().collect();
    let listed = || {
        entries
            .iter()
            .map(|e| format!("\n  {}", e.name.name))
            .collect::<String>()
    };
    match query {
        None => match entries[..] {
            [only] => Ok(only),
            [] => Err(Failure::input(format!("error: `{path}` has no kernel (`.entry`)"))),
            _ => Err(Failure::input(format!(
                "error: `{path}` has {} kernels; choose one with --entry NAME:{}",
                entries.len(),
                listed()
            ))),
        },
        Some(q) => {
            let found: Vec<&&Function> = entries
                .iter()
                .filter(|e| e.name.name == q || itanium_name(&e.name.name) == Some(q))
                .collect();
            match found[..] {
                [only] => Ok(only),
                [] => Err(Failure::input(format!(
                    "error: `{path}` has no kernel named `{q}`; its kernels:{}",
                    listed()
                ))),
                _ => Err(Failure::input(format!(
                    "error: `{q}` names several kernels of `{path}`; give the mangled name:{}",
                    found.iter().map(|e| format!("\n  {}", e.name.name)).collect::<String>()
                ))),
            }
        }
    }
}

/// The unqualified name of an Itanium-mangled function (`_Z6kernelPfi` → `kernel`).
fn itanium_name(mangled: &str) -> Option<&str> {
    let rest = mangled.strip_prefix("_Z")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    rest.get(digits..digits + len)
}

/// `TYPE[LEN]` of `--buffer`.
fn buffer_spec(text: &str) -> Option<(ElemTy, i64)> {
    let (ty, len) = text.trim().strip_suffix(']')?.split_once('[')?;
    Some((
        ElemTy::parse(ty.trim())?,
        len.trim().parse().ok().filter(|&n: &i64| n >= 0)?,
    ))
}

/// The names a `.param` answers to: its position and its PTX name.
fn matches(k: usize, param: &str, name: &str) -> bool {
    name == k.to_string() || name == param
}

/// Bind every `.param` of `entry` from the flags.
fn bindings(entry: &Function, shape: &ShapeArgs) -> Result<Bindings, Failure> {
    let span = entry.name.span;
    let mut b = Bindings::default();
    let mut used_buffers = vec![false; shape.buffer.len()];
    let mut used_sets = vec![false; shape.set.len()];
    for (k, param) in entry.params.iter().enumerate() {
        let pname = param.name.name.as_str();
        let buffer = shape
            .buffer
            .iter()
            .enumerate()
            .find(|(_, t)| t.split_once('=').is_some_and(|(n, _)| matches(k, pname, n.trim())));
        let set = shape
            .set
            .iter()
            .enumerate()
            .find(|(_, t)| t.split_once('=').is_some_and(|(n, _)| matches(k, pname, n.trim())));
        let value = match (buffer, set) {
            (Some((i, text)), None) => {
                used_buffers[i] = true;
                let (name, spec) = text.split_once('=').expect("matched NAME=");
                let name = name.trim();
                let (elem, len) = buffer_spec(spec).ok_or_else(|| {
                    Failure::input(format!(
                        "error: `--buffer {text}`: expected NAME=TYPE[LEN]\n  help: for example `--buffer out=f32[1024]` (TYPE: u32, s32, f32, u64, s64, f64)"
                    ))
                })?;
                b.buffers.push(BufferDecl {
                    name: name.to_string(),
                    elem,
                    len: ConstExpr::int(len, span),
                    init: None,
                    span,
                });
                ParamValue::Expr(ConstExpr {
                    kind: warpsim_isa::expr::ExprKind::Var(name.to_string()),
                    span,
                })
            }
            (None, Some((i, text))) => {
                used_sets[i] = true;
                let name = text.split_once('=').expect("matched NAME=").0.trim();
                b.params.push(ParamDecl {
                    name: name.to_string(),
                    default: ConstExpr::int(0, span),
                    span,
                });
                ParamValue::Expr(ConstExpr {
                    kind: warpsim_isa::expr::ExprKind::Var(name.to_string()),
                    span,
                })
            }
            (Some((_, t1)), Some((_, t2))) => {
                return Err(Failure::input(format!(
                    "error: parameter {k} (`{pname}`) is bound twice: `--buffer {t1}` and `--set {t2}`"
                )));
            }
            (None, None) => {
                return Err(Failure::input(format!(
                    "error: parameter {k} (`{pname}`, `.{}`) of `{}` is not bound\n  help: a pointer gets a buffer (`--buffer {k}=f32[1024]`), a scalar a value (`--set {k}=1024`)",
                    format!("{:?}", param.ty.scalar).to_lowercase(),
                    entry.name.name
                )));
            }
        };
        b.values.push(value);
    }
    if let Some(k) = used_buffers.iter().position(|u| !u) {
        return Err(Failure::input(format!(
            "error: `--buffer {}` names no parameter of `{}`",
            shape.buffer[k], entry.name.name
        )));
    }
    Ok(b)
}

/// `sim run/bench/crosscheck kernel.ptx`: the entry lowered with the flags' bindings.
pub(crate) fn load(path: &str, color: bool, shape: &ShapeArgs) -> Result<Program, Failure> {
    let (module, sources) = parse(path, color)?;
    let entry = entry(&module, path, shape.entry.as_deref())?;
    let b = bindings(entry, shape)?;
    ptx::lower(&module, &sources, entry, &b, &reader(path)).map_err(|d| Failure::input(d.render(&sources, color)))
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
    for e in entries {
        match ptx::lower(&module, &sources, e, &ptx::placeholder_bindings(e), &reader(path)) {
            Ok(p) => {
                let regs = p.regs.iter().filter(|r| r.width != warpsim_isa::Width::High).count();
                let _ = writeln!(
                    out,
                    "{}: ok ({} instructions, {} registers, {} predicates, {} parameters)",
                    e.name.name,
                    p.instructions.len(),
                    regs,
                    p.preds.len(),
                    e.params.len()
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
