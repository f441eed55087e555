//! The committed cycle reports (`crosscheck/REPORT.md`, `crosscheck/ptx/REPORT.md`, issue 22) are this build's:
//! scored again against the GPU run they came from (`sim crosscheck --against`, no GPU needed), warpsim's cycles
//! and each set's error come out exactly as committed. A change to the timing model must regenerate them
//! (`crosscheck/README.md`), so the error the project quotes is always the model's.

use crate::cli::sim;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .expect("folder")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "s").then(|| p.to_string_lossy().into_owned())
        })
        .collect();
    out.sort();
    out
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("report")).expect("JSON")
}

/// `sim crosscheck ARGS --against` the committed GPU run, as JSON.
fn rescored(args: &[String]) -> serde_json::Value {
    let gpu = root().join("crosscheck/h200-2026-11-27.json");
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    let gpu = gpu.to_string_lossy().into_owned();
    all.extend(["--against", &gpu, "--format", "json"]);
    let o = sim(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON report")
}

fn cycles_of(report: &serde_json::Value) -> Vec<(String, Option<u64>, Option<u64>)> {
    report["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or_default().to_string(),
                p["gpu_cycles"].as_u64(),
                p["sim_cycles"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn the_committed_cycle_report_of_the_shipped_edge_and_random_programs_is_this_builds() {
    let mut args: Vec<String> = vec!["crosscheck".into(), "--all".into()];
    args.extend(files("crosscheck/regressions"));
    args.extend(files("crosscheck/edges"));
    args.extend(["--random", "2000", "--seed", "314159"].map(String::from));
    let now = rescored(&args);
    let committed = json(&root().join("crosscheck/report.json"));
    assert_eq!(cycles_of(&now), cycles_of(&committed));
    assert_eq!(now["random"]["each"], committed["random"]["each"]);
    assert_eq!(now["cycles"], committed["cycles"]);
    // Every set has its summary, and each is what its programs give.
    let sets: Vec<&str> = now["cycles"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|c| c["set"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(sets, ["file", "shipped", "random"]);
    let shipped: Vec<(u64, u64)> = now["programs"]
        .as_array()
        .expect("programs")
        .iter()
        .filter(|p| p["set"] == "shipped")
        .map(|p| {
            (
                p["gpu_cycles"].as_u64().expect("GPU"),
                p["sim_cycles"].as_u64().expect("sim"),
            )
        })
        .collect();
    assert_eq!(shipped.len(), 22);
    #[allow(clippy::cast_precision_loss)]
    let mean = shipped
        .iter()
        .map(|&(g, s)| (s as f64 - g as f64).abs() / g as f64)
        .sum::<f64>()
        / 22.0;
    let summary = &now["cycles"][1];
    assert!((summary["mean_abs_error"].as_f64().expect("mean") - mean).abs() < 1e-12);
}

#[test]
fn the_committed_cycle_report_of_the_ptx_corpus_is_this_builds() {
    let launches = root().join("programs/ptx/launches.txt").to_string_lossy().into_owned();
    let now = rescored(&["crosscheck".into(), "--launches".into(), launches]);
    let committed = json(&root().join("crosscheck/ptx/report.json"));
    assert_eq!(cycles_of(&now), cycles_of(&committed));
    assert_eq!(now["cycles"], committed["cycles"]);
}
