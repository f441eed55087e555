//! Embeds every puzzle file (`../programs/puzzles/*.toml`) into the crate, so a teacher's new file is a shipped
//! puzzle (`sim puzzle list`, the playground) after a rebuild, with no code to change.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/puzzles");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("/// Every puzzle file: (name, text).\npub static PUZZLES: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_stem().expect("a name").to_string_lossy();
        let path = f.canonicalize().expect("the file");
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("puzzles.rs");
    std::fs::write(dest, out).expect("write puzzles.rs");
}
