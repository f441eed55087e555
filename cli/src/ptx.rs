//! `sim run kernel.ptx` and `sim check kernel.ptx`: a PTX file's entry lowered to a program (`warpsim::ptx`), its
//! parameters bound from the flags (`--entry`, `--buffer NAME=TYPE[LEN]`, `--set NAME=VALUE`); launches files.

use super::{Failure, ShapeArgs};
use std::path::Path;
use warpsim_isa::Program;

pub(crate) use warpsim::ptx::is_ptx_or_cuda;

/// The flags' bindings.
fn arguments(shape: &ShapeArgs) -> warpsim::ptx::Arguments {
    warpsim::ptx::Arguments {
        entry: shape.entry.clone(),
        buffers: shape.buffer.clone(),
        sets: shape.set.clone(),
        syntax: warpsim::ptx::Syntax::Flags,
    }
}

/// `sim run/bench/crosscheck kernel.ptx`: the entry lowered with the flags' bindings.
pub(crate) fn load(path: &str, color: bool, shape: &ShapeArgs) -> Result<Program, Failure> {
    warpsim::ptx::load(path, &arguments(shape), color).map_err(Failure::input)
}

/// `sim check kernel.ptx`: every entry lowered (pointers bound to placeholder buffers, scalars to 0).
pub(crate) fn check(path: &str, color: bool) -> Result<String, Failure> {
    warpsim::ptx::check(path, color).map_err(Failure::input)
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
    let words = warpsim::ptx::words(line)?;
    let parsed = LaunchLine::try_parse_from(&words).map_err(|e| e.to_string().trim_end().to_string())?;
    Ok((parsed.file, parsed.shape))
}

/// One launch of a launches file: the program, named after its PTX file (and its `--entry`, if the line names
/// one), its launch, and its set for the
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
        let words = warpsim::ptx::words(line).map_err(at)?;
        let parsed = LaunchLine::try_parse_from(&words).map_err(|e| at(e.to_string().trim_end().to_string()))?;
        let file = dir.join(&parsed.file);
        let file = file.to_string_lossy();
        let mut program = load(&file, color, &parsed.shape)?;
        let stem = Path::new(&parsed.file)
            .file_stem()
            .map_or_else(|| parsed.file.clone(), |s| s.to_string_lossy().into_owned());
        // (Each launch of a file of several kernels named after its kernel too.)
        let name = match &parsed.shape.entry {
            Some(entry) => format!("{stem}.{entry}"),
            None => stem,
        };
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
