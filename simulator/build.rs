//! Embeds every program in `../programs/` into the binary, so `sim run NAME` works from any directory.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("programs/ directory")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "s"))
        .collect();
    files.sort();
    let mut out =
        String::from("/// Every shipped program file: (file name, text).\npub static FILES: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().expect("file name").to_string_lossy();
        let path = f.canonicalize().expect("canonical path");
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("programs.rs");
    std::fs::write(dest, out).expect("write programs.rs");
}
