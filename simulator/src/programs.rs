//! The shipped programs (`programs/*.s`), built into the binary.
//!
//! A file that declares `.kernel` is a runnable program; others (like `warp.s`) are libraries of macros that
//! programs `.include`. Includes from a shipped program resolve among the shipped files; includes from a user's
//! file resolve on disk next to it first, then among the shipped files.

use warpsim_isa::{AssembleError, IncludeResolver, Program, SourceFile};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/programs.rs"));
}

/// Display name of a shipped file in diagnostics.
fn display_name(file: &str) -> String {
    format!("programs/{file}")
}

/// A shipped file's text by file name (`warp.s`).
pub fn file(name: &str) -> Option<&'static str> {
    embedded::FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Names of the runnable shipped programs, sorted.
pub fn names() -> Vec<&'static str> {
    embedded::FILES
        .iter()
        .filter(|(_, text)| text.lines().any(|l| l.trim_start().starts_with(".kernel")))
        .map(|(n, _)| n.trim_end_matches(".s"))
        .collect()
}

/// The runnable shipped programs, sorted, each with its `.desc` (`None` for one that does not assemble: a bug the
/// tests catch).
pub fn described() -> Vec<(&'static str, Option<String>)> {
    names()
        .into_iter()
        .map(|n| {
            (
                n,
                assemble(n)
                    .and_then(Result::ok)
                    .map(|p| p.description.unwrap_or_default()),
            )
        })
        .collect()
}

/// The source of a shipped program by name (`butterfly_max`).
pub fn source(name: &str) -> Option<&'static str> {
    if !names().contains(&name) {
        return None;
    }
    file(&format!("{name}.s"))
}

/// Resolves includes: a shipped file's among the shipped files; a user's on disk relative to it, then among the
/// shipped files.
pub struct Resolver;

impl IncludeResolver for Resolver {
    fn resolve(&self, from: &SourceFile, path: &str) -> Result<SourceFile, String> {
        let shipped = || file(path).map(|t| SourceFile::embedded(display_name(path), t));
        if from.embedded {
            return shipped().ok_or_else(|| format!("no shipped file `{path}`"));
        }
        warpsim_isa::FsResolver
            .resolve(from, path)
            .or_else(|disk| shipped().ok_or(disk))
    }
}

/// Assemble a shipped program by name.
pub fn assemble(name: &str) -> Option<Result<Program, AssembleError>> {
    source(name).map(|text| {
        warpsim_isa::parse_file(
            SourceFile::embedded(display_name(&format!("{name}.s")), text),
            &Resolver,
        )
    })
}

/// The calibration microbenchmarks in warpsim's ISA (`calibration/programs/*.s`) by name (`shfl_bfly_chain`).
pub fn calibration_source(name: &str) -> Option<&'static str> {
    calibration_file(&format!("{name}.s"))
}

/// A calibration microbenchmark's file (`calibration/programs/`) by file name: `shfl_bfly_chain.s`, or one
/// written in PTX, `param_miss.ptx` (a kernel parameter is read only by PTX).
pub fn calibration_file(file: &str) -> Option<&'static str> {
    embedded::CALIBRATION_FILES
        .iter()
        .find(|(n, _)| *n == file)
        .map(|(_, t)| *t)
}

/// Assemble a calibration microbenchmark by name.
pub fn assemble_calibration(name: &str) -> Option<Result<Program, AssembleError>> {
    calibration_source(name).map(|text| {
        warpsim_isa::parse_file(
            SourceFile::embedded(format!("calibration/programs/{name}.s"), text),
            &Resolver,
        )
    })
}

/// The measured calibration table (`calibration/h200.json`).
pub fn calibration_table() -> &'static str {
    embedded::CALIBRATION_TABLE
}
