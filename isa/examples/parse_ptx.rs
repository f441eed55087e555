//! Parse PTX files and report what they hold, or the first syntax error of each, and how long parsing took:
//! `cargo run --release -p warpsim-isa --example parse_ptx -- programs/ptx` (files or directories, searched
//! recursively for `.ptx`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use warpsim_isa::ptx;

fn collect(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "ptx") {
                collect(&e, out);
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
}

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        collect(Path::new(&arg), &mut files);
    }
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f.display().to_string(), text)
        })
        .collect();
    let (mut bytes, mut instructions, mut functions, mut failed) = (0, 0, 0, 0);
    let mut total = Duration::ZERO;
    for (name, text) in &texts {
        bytes += text.len();
        let start = Instant::now();
        let parsed = ptx::parse(name, text);
        total += start.elapsed();
        match parsed {
            Ok((module, _)) => {
                for f in module.functions() {
                    functions += 1;
                    instructions += f.body.as_ref().map_or(0, |b| b.instructions().len());
                }
            }
            Err(e) => {
                failed += 1;
                eprint!("{}", e.render(false));
            }
        }
    }
    // Megabytes for a rate: exact well past any corpus (f64 holds integers up to 2^53 exactly).
    let mb = f64::from(u32::try_from(bytes).unwrap_or(u32::MAX)) / 1e6;
    println!(
        "{} files, {:.1} MB, {functions} functions, {instructions} instructions, {failed} failed; parsed in {:.1} ms \
         ({:.0} MB/s)",
        texts.len(),
        mb,
        total.as_secs_f64() * 1e3,
        mb / total.as_secs_f64()
    );
    if failed > 0 {
        std::process::exit(1);
    }
}
