//! `cargo run -p warpsim-web --bin build-site -- [OUT]`: builds the playground into folder OUT (default
//! `target/site`), a static site that works from any static host or from `file://`, with no network:
//!
//! - `index.html`, `app.js`, `style.css` (from `web/site/`), the Web Worker's code inlined into the page (a page
//!   opened from `file://` may not load a worker from a file);
//! - `warpsim-wasm.js`: the WebAssembly module (`warpsim-web` built for `wasm32-unknown-unknown`, profile `wasm`)
//!   as base64 in a script (a page from `file://` may not fetch it);
//! - `examples.js`: the PTX corpus's optimised kernels with their launches (`programs/ptx/launches.txt`) and the
//!   CUDA or Python sources their line information names.
//!
//! `--wasm FILE` uses a module already built instead of building it.

use base64::Engine as _;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

/// The WebAssembly module, built with cargo for `wasm32-unknown-unknown` (profile `wasm`).
fn build_wasm() -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(root())
        .args([
            "build",
            "--locked",
            "-p",
            "warpsim-web",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm",
        ])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(
            "building the WebAssembly module failed (is the target installed? `rustup target add wasm32-unknown-unknown`)"
                .into(),
        );
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), PathBuf::from);
    Ok(target.join("wasm32-unknown-unknown/wasm/warpsim_web.wasm"))
}

/// The PTX corpus's optimised launches, as the page's examples.
fn ptx_examples() -> Result<Vec<Value>, String> {
    let dir = root().join("programs/ptx");
    let list =
        std::fs::read_to_string(dir.join("launches.txt")).map_err(|e| format!("programs/ptx/launches.txt: {e}"))?;
    let mut out = Vec::new();
    for line in list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let w = warpsim::ptx::words(line).map_err(|e| format!("programs/ptx/launches.txt: {e}"))?;
        let Some(file) = w.first() else { continue };
        // The optimised builds: nvcc -O3 and Numba (the -G builds are the same kernels, unoptimised).
        if file.contains(".G.") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(file)).map_err(|e| format!("programs/ptx/{file}: {e}"))?;
        let (mut grid, mut block, mut entry, mut shared) = (String::new(), String::new(), String::new(), Value::Null);
        let (mut buffers, mut sets) = (Vec::new(), Vec::new());
        let mut k = 1;
        while k + 1 < w.len() {
            let v = w[k + 1].clone();
            match w[k].as_str() {
                "--grid" => grid = v,
                "--block" => block = v,
                "--entry" => entry = v,
                "--buffer" => buffers.push(v),
                "--set" => sets.push(v),
                "--dynamic-shared" => shared = json!(v.parse::<u64>().ok()),
                other => {
                    return Err(format!(
                        "programs/ptx/launches.txt: `{other}` is not a flag the page knows"
                    ));
                }
            }
            k += 2;
        }
        // The source next to the PTX that its `.file`s name (`p01_map.cu`, `p01_map.py`).
        let stem = Path::new(file).file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let base = stem.split('.').next().unwrap_or_default();
        let folder = Path::new(file).parent().unwrap_or(Path::new(""));
        let mut sources = serde_json::Map::new();
        for ext in ["cu", "py"] {
            let name = format!("{base}.{ext}");
            if let Ok(src) = std::fs::read_to_string(dir.join(folder).join(&name)) {
                sources.insert(name, json!(src));
            }
        }
        out.push(json!({
            "name": stem.trim_end_matches(".ptx"),
            "text": text,
            "grid": grid,
            "block": block,
            "entry": entry,
            "buffers": buffers.join(" "),
            "set": sets.join(" "),
            "dynamic_shared": shared,
            "sources": sources,
        }));
    }
    Ok(out)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out = root().join("target/site");
    let mut wasm = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--wasm" => wasm = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                println!("build-site [OUT] [--wasm FILE]: the playground into folder OUT (default target/site)");
                return ExitCode::SUCCESS;
            }
            _ => out = PathBuf::from(a),
        }
    }
    let wasm = match wasm.map_or_else(build_wasm, Ok) {
        Ok(w) => w,
        Err(e) => return fail(&e),
    };
    let bytes = match std::fs::read(&wasm) {
        Ok(b) => b,
        Err(e) => return fail(&format!("{}: {e}", wasm.display())),
    };
    let examples = match ptx_examples() {
        Ok(e) => e,
        Err(e) => return fail(&e),
    };
    let site = root().join("web/site");
    let read = |name: &str| std::fs::read_to_string(site.join(name)).map_err(|e| format!("web/site/{name}: {e}"));
    let files = (|| -> Result<Vec<(String, String)>, String> {
        let worker = read("worker.js")?;
        let page = read("index.html")?.replace(
            "<!-- WORKER -->",
            &format!("<script id=\"worker-source\" type=\"text/plain\">\n{worker}</script>"),
        );
        Ok(vec![
            ("index.html".into(), page),
            ("app.js".into(), read("app.js")?),
            ("style.css".into(), read("style.css")?),
            (
                "warpsim-wasm.js".into(),
                format!(
                    "// warpsim's WebAssembly module (crate warpsim-web), base64.\nconst WARPSIM_WASM = \"{}\";\n",
                    base64::engine::general_purpose::STANDARD.encode(&bytes)
                ),
            ),
            (
                "examples.js".into(),
                format!(
                    "// The PTX corpus's optimised kernels (programs/ptx/launches.txt) and their sources.\nconst WARPSIM_PTX = {};\n",
                    serde_json::to_string(&examples).unwrap_or_default()
                ),
            ),
        ])
    })();
    let files = match files {
        Ok(f) => f,
        Err(e) => return fail(&e),
    };
    if let Err(e) = std::fs::create_dir_all(&out) {
        return fail(&format!("{}: {e}", out.display()));
    }
    for (name, text) in &files {
        // Each file whole or not at all: a temporary file renamed into place.
        let path = out.join(name);
        let tmp = out.join(format!(".{name}.tmp"));
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path)) {
            let _ = std::fs::remove_file(&tmp);
            return fail(&format!("{}: {e}", path.display()));
        }
    }
    println!(
        "wrote {} (open {}): WebAssembly {} bytes, {} PTX examples",
        out.display(),
        out.join("index.html").display(),
        bytes.len(),
        examples.len()
    );
    ExitCode::SUCCESS
}
