//! The `sim` binary as a user meets it: exit status 0 / 1 / 2, output on the right stream, clear one-screen
//! errors and never a panic.

use std::process::{Command, Output};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run sim")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write temp file");
    path
}

#[test]
fn butterfly_trace_at_w8_shows_the_three_exchanges() {
    let o = sim(&["run", "butterfly_max", "--warp", "8", "--trace"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let steps = [
        (
            "lane 0<->4, 1<->5, 2<->6, 3<->7",
            "%v = [8, 10, 12, 1000, 8, 10, 12, 1000]",
        ),
        (
            "lane 0<->2, 1<->3, 4<->6, 5<->7",
            "%v = [12, 1000, 12, 1000, 12, 1000, 12, 1000]",
        ),
        (
            "lane 0<->1, 2<->3, 4<->5, 6<->7",
            "%v = [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]",
        ),
    ];
    let mut at = 0;
    for (exchange, values) in steps {
        let e = at
            + out[at..]
                .find(exchange)
                .unwrap_or_else(|| panic!("missing `{exchange}` after byte {at}:\n{out}"));
        let v = e + out[e..]
            .find(values)
            .unwrap_or_else(|| panic!("missing `{values}` after `{exchange}`:\n{out}"));
        at = v;
    }
}

#[test]
fn butterfly_json_at_w32() {
    let o = sim(&["run", "butterfly_max", "--warp", "32", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(doc["program"], "butterfly_max");
    assert_eq!(doc["warp_size"], 32);
    assert_eq!(doc["grid"], 1);
    assert_eq!(doc["block"], 32);
    let out = doc["buffers"]["out"].as_array().expect("out");
    assert_eq!(out.len(), 32);
    assert!(out.iter().all(|v| v.as_f64() == Some(1000.0)), "{out:?}");
    assert!(doc["cycles"].as_u64().expect("cycles") > 0);
    assert!(doc["instructions"].as_u64().expect("instructions") > 0);
    assert!(doc.get("trace").is_none(), "no trace without --trace");
}

#[test]
fn json_with_trace_holds_the_event_list() {
    let o = sim(&["run", "pair_swap", "--warp", "4", "--format", "json", "--trace"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let trace = doc["trace"].as_array().expect("trace array");
    let shuffle = trace
        .iter()
        .find(|e| e.get("shuffle").is_some())
        .expect("a shuffle event");
    assert_eq!(shuffle["shuffle"]["sources"], serde_json::json!([1, 0, 3, 2]));
    assert_eq!(shuffle["write"]["values"], serde_json::json!([1.0, 0.0, 3.0, 2.0]));
}

#[test]
fn list_names_every_program_with_a_description() {
    let o = sim(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), warpsim::programs::names().len());
    assert!(
        out.lines()
            .any(|l| l.starts_with("butterfly_max ") && l.contains("shfl.bfly")),
        "{out}"
    );
}

#[test]
fn check_reports_a_misspelt_opcode_with_location_caret_and_suggestion() {
    let path = temp_file("typo.s", b".reg %v\n    shlf.bfly %v, %v, 1\n");
    let o = sim(&["check", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:2:5", path.display())), "{err}");
    assert!(err.contains("2 |     shlf.bfly %v, %v, 1"), "{err}");
    assert!(err.contains("^^^^^^^^^"), "{err}");
    assert!(err.contains("did you mean `shfl.bfly`?"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn check_accepts_a_good_file_and_reports_reconvergence() {
    let o = sim(&["check", "conditional_max"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("pc 13 -> 17"), "{}", stdout(&o));
}

#[test]
fn a_user_file_runs_like_a_shipped_program() {
    let src = b".buffer out u32[W]\n.reg %t\n    mov.u32 %t, %laneid\n    shfl.sync.idx.b32 %t, %t, 3\n    st.global.u32 out[%laneid], %t\n";
    let path = temp_file("mine.s", src);
    let o = sim(&["run", path.to_str().expect("utf-8"), "--warp", "4", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["program"], "mine");
    assert_eq!(doc["buffers"]["out"], serde_json::json!([3, 3, 3, 3]));
}

#[test]
fn set_overrides_a_parameter_and_rejects_unknown_names() {
    let o = sim(&["run", "shfl_wrap", "--set", "offset=-2", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["buffers"]["out"][0], 14);
    let o = sim(&["run", "shfl_wrap", "--set", "ofset=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `offset`?"), "{}", stderr(&o));
    let o = sim(&["run", "shfl_wrap", "--set", "offset=two"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is not a number"), "{}", stderr(&o));
}

#[test]
fn bad_input_exits_2_with_one_clear_error() {
    let dir = std::env::temp_dir();
    let garbage = temp_file("garbage.s", &[0xff, 0xfe, 0x00, 0x12, 0x80]);
    let empty = temp_file("empty.s", b"");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["run".into(), "no_such_program".into()], "no program or file named"),
        (
            vec!["run".into(), "butterfly_mx".into()],
            "did you mean `butterfly_max`?",
        ),
        (vec!["run".into(), "missing/file.s".into()], "no program or file named"),
        (vec!["run".into(), dir.display().to_string() + "/"], "is a directory"),
        (vec!["run".into(), garbage.display().to_string()], "not UTF-8"),
        (
            vec!["run".into(), "butterfly_max".into(), "--warp".into(), "12".into()],
            "power of two",
        ),
        (
            vec!["run".into(), "shfl_up".into(), "--warp".into(), "8".into()],
            "warp sizes 16 to 64",
        ),
        (
            vec!["run".into(), "pair_swap".into(), "--block".into(), "5000".into()],
            "out of range",
        ),
        (
            vec!["run".into(), "pair_swap".into(), "--grid".into(), "0".into()],
            "out of range",
        ),
        (
            vec!["run".into(), "pair_swap".into(), "--warp".into(), "abc".into()],
            "invalid value",
        ),
        (
            vec![
                "run".into(),
                "pair_swap".into(),
                "--config".into(),
                "/nonexistent.json".into(),
            ],
            "cannot read config",
        ),
        (vec!["frobnicate".into()], "unrecognized subcommand"),
    ];
    for (args, expected) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = sim(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "sim {args:?}: {err}");
        assert!(err.contains(expected), "sim {args:?}: expected `{expected}` in:\n{err}");
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "sim {args:?}: {err}"
        );
    }
    // An empty file is a valid, empty program: it runs and does nothing.
    let o = sim(&["run", empty.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_fault_exits_1_naming_block_warp_lane_pc_and_instruction() {
    let src = b".buffer in f32[W]\n.reg %i, %v\n    add.u32 %i, %laneid, 2\n    ld.global.f32 %v, in[%i]\n";
    let path = temp_file("oob.s", src);
    let o = sim(&["run", path.to_str().expect("utf-8"), "--warp", "8", "--trace"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("out-of-bounds load from `in`: element 8, but `in` has 8 elements"),
        "{err}"
    );
    assert!(err.contains("in block 0, warp 0, lane 6 (thread 6), pc 1"), "{err}");
    assert!(err.contains("ld.global.f32 %v, in[%i]"), "{err}");
    assert!(err.contains(":4:5"), "{err}");
    // The trace up to the fault is still written.
    assert!(stdout(&o).contains("add.u32 %i, %laneid, 2"), "{}", stdout(&o));
}

#[test]
fn an_endless_loop_stops_at_the_cycle_limit() {
    let path = temp_file("spin.s", b"top:\n    bra top\n");
    let o = sim(&["run", path.to_str().expect("utf-8"), "--max-cycles", "1000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cycle limit (1000 cycles)"), "{}", stderr(&o));
}

#[test]
fn integer_division_by_zero_is_a_fault() {
    let path = temp_file("div.s", b".reg %a\n    div.u32 %a, 1, %laneid\n");
    let o = sim(&["run", path.to_str().expect("utf-8"), "--warp", "4"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("integer division by zero"), "{}", stderr(&o));
    assert!(stderr(&o).contains("lane 0"), "{}", stderr(&o));
}

#[test]
fn config_prints_json_that_run_accepts() {
    let o = sim(&["config"]);
    assert_eq!(o.status.code(), Some(0));
    let path = temp_file("hopper.json", &o.stdout);
    let o = sim(&["run", "pair_swap", "--config", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bad = temp_file("bad.json", b"{\"name\": \"x\"}");
    let o = sim(&["run", "pair_swap", "--config", bad.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid configuration"), "{}", stderr(&o));
}

#[test]
fn closed_stdout_is_not_an_error() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["run", "butterfly_max", "--warp", "64", "--trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("some output");
    // stdout is now closed.
    let status = child.wait().expect("wait");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    assert!(!err.contains("panicked") && !err.contains("internal error"), "{err}");
    assert!(status.code().is_some());
}
