//! Embeds every program in `../programs/` into the binary, so `sim run NAME` works from any directory, and the
//! calibration suite (`../calibration/programs/*.s` and `../calibration/h200.json`) for `sim calibrate`.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = embed(&root.join("programs"), &["s"], "FILES", "Every shipped program file");
    out += &embed(
        &root.join("calibration/programs"),
        &["s", "ptx"],
        "CALIBRATION_FILES",
        "Every calibration microbenchmark",
    );
    let table = root.join("calibration/h200.json");
    println!("cargo:rerun-if-changed={}", table.display());
    let table = table.canonicalize().expect("calibration/h200.json");
    let _ = writeln!(
        out,
        "/// The measured calibration table.\npub static CALIBRATION_TABLE: &str = include_str!({:?});",
        table.display().to_string()
    );
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("programs.rs");
    std::fs::write(dest, out).expect("write programs.rs");
}

/// A static `name` listing every file of `dir` with one of `extensions` as (file name, text).
fn embed(dir: &Path, extensions: &[&str], name: &str, doc: &str) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| extensions.iter().any(|e| x == *e)))
        .collect();
    files.sort();
    let mut out = format!("/// {doc}: (file name, text).\npub static {name}: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().expect("file name").to_string_lossy();
        let path = f.canonicalize().expect("canonical path");
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("];\n");
    out
}
