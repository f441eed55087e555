//! The Python package (`python/`): installed from this checkout with pip (maturin builds the native module) into a
//! virtual environment, then its pytest suite run: the API, the GPU-Puzzles-style Numba kernels, and the example
//! notebook (`docs/python.ipynb`) executed. The suite compares the package's values and cycles with this build's
//! `sim` (`WARPSIM_SIM`).
//!
//! The environment is `WARPSIM_PYTHON_VENV`, else `target/python-venv`. When it is missing, it is made (`python3 -m
//! venv`, then `pip install -r python/requirements-test.txt`: about 700 MB of wheels, Numba's CUDA target included)
//! if `CI` is set or `WARPSIM_PYTHON_TESTS=1`; otherwise the test says it was skipped. Under `CI` a failure to make
//! it fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn flag(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: cannot start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The environment's Python, made first when asked to; `None` (after saying so) when it is missing and not asked for.
fn environment() -> Option<PathBuf> {
    let required = flag("CI") || flag("WARPSIM_PYTHON_TESTS");
    let venv = std::env::var_os("WARPSIM_PYTHON_VENV").map_or_else(|| root().join("target/python-venv"), PathBuf::from);
    let python = venv.join("bin/python");
    if python.is_file() {
        return Some(python);
    }
    if !required {
        eprintln!(
            "SKIPPED: no Python test environment at {} (WARPSIM_PYTHON_TESTS=1 makes it: pip install -r python/requirements-test.txt)",
            venv.display()
        );
        return None;
    }
    let made = run(
        Command::new("python3").args(["-m", "venv"]).arg(&venv),
        "python3 -m venv",
    )
    .and_then(|()| {
        run(
            Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
                .arg(root().join("python/requirements-test.txt")),
            "pip install -r python/requirements-test.txt",
        )
    });
    if let Err(e) = made {
        let _ = std::fs::remove_dir_all(&venv);
        panic!(
            "the Python test environment could not be made at {}: {e}",
            venv.display()
        );
    }
    Some(python)
}

#[test]
fn the_python_package_passes_its_test_suite() {
    let Some(python) = environment() else { return };
    let bin = python.parent().expect("the venv's bin").to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin.clone()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH");
    // maturin, from the environment, builds the native module (release) into the workspace's target directory.
    if let Err(e) = run(
        Command::new(&python).current_dir(root()).env("PATH", &path).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-build-isolation",
            "--no-deps",
            "--force-reinstall",
            "./python",
        ]),
        "pip install ./python",
    ) {
        panic!("{e}");
    }
    let out = Command::new(&python)
        .current_dir(root())
        .env("PATH", &path)
        .env("WARPSIM_SIM", env!("CARGO_BIN_EXE_sim"))
        .args(["-m", "pytest", "python/tests", "-q", "-p", "no:cacheprovider"])
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "pytest failed");
    // Every test ran: none skipped for a missing dependency (the environment has them all), except nvcc's.
    let last = stdout.lines().rev().find(|l| l.contains("passed")).unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    let skipped: u32 = words
        .windows(2)
        .find(|w| w[1].starts_with("skipped"))
        .and_then(|w| w[0].parse().ok())
        .unwrap_or(0);
    assert!(skipped <= 1, "pytest skipped {skipped} tests: {last}");
}
