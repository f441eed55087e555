//! `sim sweep`: the rows of a spec, shards whose union is the whole sweep, a rerun that resumes, and bad specs.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder of its own for each test.
fn dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsim-sweep-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn sim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .current_dir(dir)
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run sim")
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn by_row(mut v: Vec<Value>) -> Vec<Value> {
    v.sort_by_key(|l| l["row"].as_u64().expect("row"));
    v
}

/// Two programs (one with a parameter, one without), two warp sizes, two policies, two values of `n`.
const SPEC: &str = r#"{
  "programs": ["butterfly_max", "reduce.s --grid 3"],
  "warps": [16, 32],
  "policies": ["lrr", "gto"],
  "set": {"n": [100, 256]}
}"#;

/// A program of its own, beside the spec: each block sums its part of `n` elements.
const REDUCE: &str = ".param n = 64\n.block 32\n.buffer in u32[n] = i % 7\n.buffer out u32[4]\n.reg %v, %i, %in\n\
    .pred %p\n    mad.lo.u32 %i, %ctaid.x, %ntid.x, %tid.x\n    setp.lt.u32 %p, %i, n\n    mov.u32 %v, 0\n\
    @%p ld.global.u32 %v, in[%i]\n    atom.global.add.u32 %in, out[%ctaid.x], %v\n";

fn setup(test: &str) -> PathBuf {
    let d = dir(test);
    std::fs::write(d.join("spec.json"), SPEC).expect("spec");
    std::fs::write(d.join("reduce.s"), REDUCE).expect("program");
    d
}

#[test]
fn a_sweep_runs_every_row_of_its_grid_with_its_values_and_cycles() {
    let d = setup("rows");
    let o = sim(&d, &["sweep", "spec.json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = lines(&String::from_utf8_lossy(&o.stdout));
    // butterfly_max has no `n`: 2 warps x 2 policies; reduce.s: x 2 values of n.
    assert_eq!(rows.len(), 4 + 8);
    let keys: Vec<&str> = rows.iter().map(|r| r["key"].as_str().expect("key")).collect();
    assert_eq!(keys[0], "butterfly_max | policy=lrr | warp=16");
    assert_eq!(keys[4], "reduce.s --grid 3 | policy=lrr | warp=16 | n=100");
    assert_eq!(keys[11], "reduce.s --grid 3 | policy=gto | warp=32 | n=256");
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r["row"], k);
        assert!(r["digest"].as_str().expect("digest").starts_with("sha256:"), "{r}");
    }
    // Each row is the run `sim run` makes of it: its cycles and its values.
    let run = sim(
        &d,
        &[
            "run", "reduce.s", "--grid", "3", "--warp", "16", "--policy", "gto", "--set", "n=100", "--format", "json",
        ],
    );
    let doc: Value = serde_json::from_slice(&run.stdout).expect("JSON");
    let row = rows
        .iter()
        .find(|r| r["key"] == "reduce.s --grid 3 | policy=gto | warp=16 | n=100")
        .expect("row");
    assert_eq!(row["cycles"], doc["cycles"]);
    assert_eq!(row["warp_size"], 16);
    assert_eq!(row["stats"]["warp_instructions"], doc["stats"]["warp_instructions"]);
    // The sums of 0..100 % 7 in blocks of 32 (the digest covers them: n=100 and n=256 differ).
    let out: Vec<u64> = doc["buffers"]["out"]
        .as_array()
        .expect("out")
        .iter()
        .map(|v| v.as_u64().expect("u32"))
        .collect();
    // (Three blocks run: the fourth word stays 0.)
    let want: Vec<u64> = (0..4)
        .map(|b| {
            if b < 3 {
                (b * 32..(b * 32 + 32).min(100)).map(|i| i % 7).sum::<u64>()
            } else {
                0
            }
        })
        .collect();
    assert_eq!(out, want);
    let n256 = rows
        .iter()
        .find(|r| r["key"] == "reduce.s --grid 3 | policy=gto | warp=16 | n=256")
        .expect("row");
    assert_ne!(row["digest"], n256["digest"]);
    // The same lines in the same order on any number of threads.
    let one = sim(&d, &["sweep", "spec.json", "--jobs", "1"]);
    assert_eq!(one.stdout, o.stdout);
}

#[test]
fn the_shards_together_are_the_whole_sweep() {
    let d = setup("shards");
    let whole = sim(&d, &["sweep", "spec.json"]);
    assert!(whole.status.success());
    let whole = lines(&String::from_utf8_lossy(&whole.stdout));
    let mut union = Vec::new();
    for i in 0..5 {
        let out = format!("s{i}.jsonl");
        let o = sim(&d, &["sweep", "spec.json", "--shard", &format!("{i}/5"), "--out", &out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout.is_empty());
        let part = lines(&std::fs::read_to_string(d.join(&out)).expect("shard"));
        assert!(
            part.iter().all(|l| l["row"].as_u64().expect("row") % 5 == i),
            "shard {i}"
        );
        union.extend(part);
    }
    assert_eq!(by_row(union), whole);
}

#[test]
fn a_rerun_skips_the_rows_already_written_and_drops_a_cut_line() {
    let d = setup("rerun");
    let o = sim(&d, &["sweep", "spec.json", "--out", "all.jsonl"]);
    assert!(o.status.success());
    let full = std::fs::read_to_string(d.join("all.jsonl")).expect("out");
    // Keep five whole lines and half of the sixth, as a sweep killed while writing leaves its file.
    let cut: usize = full.match_indices('\n').nth(4).expect("five lines").0 + 1;
    let next = full[cut..].find('\n').expect("a sixth line") + cut;
    std::fs::write(d.join("all.jsonl"), &full[..usize::midpoint(cut, next)]).expect("cut");
    let o = sim(&d, &["sweep", "spec.json", "--out", "all.jsonl"]);
    assert!(o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("12 rows in all, 12 in shard 0/1, 5 already written, 7 run"),
        "{stderr}"
    );
    let again = std::fs::read_to_string(d.join("all.jsonl")).expect("out");
    assert_eq!(again, full);
    // Nothing left to do.
    let o = sim(&d, &["sweep", "spec.json", "--out", "all.jsonl"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("12 already written, 0 run"));
    assert_eq!(std::fs::read_to_string(d.join("all.jsonl")).expect("out"), full);
}

#[test]
fn bad_specs_and_failed_rows_are_reported() {
    let d = setup("bad");
    let err = |args: &[&str]| {
        let o = sim(&d, args);
        (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    std::fs::write(d.join("syntax.json"), "{\n  \"programs\": [\"butterfly_max\",]\n}\n").expect("spec");
    let (code, e) = err(&["sweep", "syntax.json"]);
    assert_eq!(code, Some(2));
    assert!(e.starts_with("error: syntax.json:2:"), "{e}");
    assert!(e.contains("help: a sweep spec is a JSON object"), "{e}");
    std::fs::write(d.join("field.json"), r#"{"programs": ["butterfly_max"], "warp": [8]}"#).expect("spec");
    let (code, e) = err(&["sweep", "field.json"]);
    assert_eq!(code, Some(2));
    assert!(e.contains("unknown field `warp`"), "{e}");
    std::fs::write(d.join("missing.json"), r#"{"programs": ["nope.s"]}"#).expect("spec");
    let (code, e) = err(&["sweep", "missing.json"]);
    assert_eq!(code, Some(2));
    assert!(e.contains("programs[0] (`nope.s`)"), "{e}");
    let (code, e) = err(&["sweep", "spec.json", "--shard", "5/5"]);
    assert_eq!(code, Some(2));
    assert!(e.contains("expected I/N with 0 ≤ I < N"), "{e}");
    // A row that cannot run (block_reduce needs W ≥ 4 warps' worth of lanes) is a line with its error; the
    // others run, and the exit status says some failed.
    std::fs::write(
        d.join("rows.json"),
        r#"{"programs": ["block_reduce"], "warps": [8, 32]}"#,
    )
    .expect("spec");
    let o = sim(&d, &["sweep", "rows.json"]);
    assert_eq!(o.status.code(), Some(1));
    let rows = lines(&String::from_utf8_lossy(&o.stdout));
    assert!(
        rows[0]["error"].as_str().expect("error").contains("at most W warps"),
        "{}",
        rows[0]
    );
    assert!(rows[1]["cycles"].as_u64().is_some());
    assert!(!d.join("syntax.jsonl").exists());
}
