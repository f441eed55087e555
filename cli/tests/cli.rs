//! The `sim` binary as a user meets it: exit status 0 / 1 / 2, output on the right stream, clear one-screen
//! errors and never a panic.

use std::process::{Command, Output};

/// Run the `sim` binary (no colour, no backtrace), for every test module.
pub(crate) fn sim(args: &[&str]) -> Output {
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

/// Piped, the headline command keeps within 120 columns; `--width` narrows it (W = 64's mask then 8 lanes a
/// line) and refuses a width under 80 with one line.
#[test]
fn the_trace_keeps_within_its_width() {
    for (args, width) in [
        (&["run", "butterfly_max", "--warp", "32", "--trace"][..], 120),
        (
            &["run", "butterfly_max", "--warp", "64", "--trace", "--width", "80"][..],
            80,
        ),
        (
            &["run", "histogram_bin", "--warp", "32", "--trace", "--width", "100"][..],
            100,
        ),
    ] {
        let o = sim(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let widest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(widest <= width, "{args:?}: a line of {widest} columns:\n{out}");
    }
    let o = sim(&["run", "butterfly_max", "--warp", "64", "--trace", "--width", "80"]);
    let out = stdout(&o);
    // The mask of lane 0-63 in eight lines of eight lanes under the first issued instruction.
    let issue = out
        .lines()
        .position(|l| l.contains("mad.lo.u32"))
        .expect("first instruction");
    let masks: Vec<&str> = out.lines().skip(issue).take(8).map(|l| &l[26..34]).collect();
    assert_eq!(masks, vec!["########"; 8], "{out}");
    assert!(
        !out.lines().nth(issue + 8).expect("a line")[26..34].contains('#'),
        "{out}"
    );
    let o = sim(&["run", "butterfly_max", "--trace", "--width", "79"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`79` is not a width: a number of columns, at least 80"),
        "{}",
        stderr(&o)
    );
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
fn grid_and_block_shapes_from_the_command_line() {
    // 40 × 40 with 16 × 8 tiles: 3 × 3 blocks of 16 × 4 threads, given on the command line.
    let o = sim(&[
        "run",
        "transpose",
        "--set",
        "n=40",
        "--set",
        "tile=16",
        "--set",
        "rows=4",
        "--grid",
        "3x3",
        "--block",
        "16x4",
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!((doc["grid"].as_u64(), doc["block"].as_u64()), (Some(9), Some(64)));
    assert_eq!(doc["grid_shape"], serde_json::json!([3, 3, 1]));
    assert_eq!(doc["block_shape"], serde_json::json!([16, 4, 1]));
    let out: Vec<u64> = doc["buffers"]["out"]
        .as_array()
        .expect("out")
        .iter()
        .map(|v| v.as_u64().expect("u32"))
        .collect();
    let expected: Vec<u64> = (0..1600u64).map(|k| (k % 40) * 40 + k / 40).collect();
    assert_eq!(out, expected);
    // The text header and `sim check` show the shapes.
    let o = sim(&["run", "transpose", "--warp", "32"]);
    assert!(
        stdout(&o).starts_with("transpose: W=32, grid 3x3 x block 32x8 (8 warps per block)\n"),
        "{}",
        stdout(&o)
    );
    let o = sim(&["check", "transpose"]);
    assert!(
        stdout(&o).contains("launch at W=32: grid 3x3 x block 32x8;"),
        "{}",
        stdout(&o)
    );
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
fn an_edited_config_changes_cycles_not_values() {
    let o = sim(&["config"]);
    let mut config: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(config["timing"]["units"]["shuffle"]["latency"], 24);
    config["timing"]["units"]["shuffle"]["latency"] = 100.into();
    let path = temp_file("slow.json", config.to_string().as_bytes());
    let json = |args: &[&str]| -> serde_json::Value {
        let o = sim(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).expect("json")
    };
    let base = json(&["run", "butterfly_max", "--format", "json"]);
    let slow = json(&[
        "run",
        "butterfly_max",
        "--format",
        "json",
        "--config",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(base["buffers"], slow["buffers"]);
    // Five dependent shuffles, each 76 cycles slower.
    let cycles = |v: &serde_json::Value| v["cycles"].as_u64().expect("cycles");
    assert_eq!(cycles(&slow), cycles(&base) + 5 * 76);
    let mut zero = config.clone();
    zero["timing"]["units"]["fma"]["interval"] = 0.into();
    let path = temp_file("zero.json", zero.to_string().as_bytes());
    let o = sim(&["run", "butterfly_max", "--config", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`timing.units.fma.interval` must be at least 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stats_show_a_stall_breakdown_that_adds_up() {
    let o = sim(&["run", "butterfly_max", "--warp", "32", "--stats"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let json = sim(&["run", "butterfly_max", "--warp", "32", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let cycles = doc["cycles"].as_u64().expect("cycles");
    let stalls = doc["stats"]["stalls"].as_object().expect("stalls");
    let sum: u64 = stalls.values().map(|v| v.as_u64().expect("number")).sum();
    assert_eq!(sum, cycles);
    assert_eq!(doc["stats"]["warps"][0]["stalls"], doc["stats"]["stalls"]);
    assert!(
        out.contains(&format!(
            "stall breakdown, summed over 1 warp (1 x {cycles} cycles = {cycles}):"
        )),
        "{out}"
    );
    for (name, v) in stalls {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().take(2).eq([name.as_str(), &v.to_string()])),
            "{name} = {v} in\n{out}"
        );
    }
    let total = cycles.to_string();
    assert!(
        out.lines().any(|l| l.split_whitespace().eq(["total", total.as_str()])),
        "{out}"
    );
}

#[test]
fn policy_flag_selects_the_scheduler() {
    let json = |policy: &str| -> serde_json::Value {
        let o = sim(&[
            "run",
            "histogram_bin",
            "--set",
            "threads=512",
            "--policy",
            policy,
            "--format",
            "json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).expect("json")
    };
    let (lrr, gto) = (json("lrr"), json("gto"));
    assert_eq!(lrr["buffers"], gto["buffers"]);
    assert_ne!(lrr["cycles"], gto["cycles"]);
    let o = sim(&["run", "histogram_bin", "--policy", "fifo"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn calibrate_lists_every_row_with_its_error() {
    let o = sim(&["calibrate", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let rows = doc["rows"].as_array().expect("rows");
    assert!(rows.len() >= 28);
    for r in rows {
        let (sim_c, meas, err) = (
            r["simulated"].as_f64().expect("simulated"),
            r["measured"].as_f64().expect("measured"),
            r["error"].as_f64().expect("error"),
        );
        assert!(r["name"].is_string());
        assert!((err - (sim_c - meas) / meas).abs() < 1e-9, "{r}");
        assert!(err.abs() <= 0.10, "{r}");
    }
    let o = sim(&["calibrate"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains(&format!("{n} of {n} rows within 10%", n = rows.len())),
        "{}",
        stdout(&o)
    );
}

#[test]
fn calibrate_on_a_machine_too_small_for_a_row_says_which_row_and_why() {
    let o = sim(&["config"]);
    let mut config: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    config["max_threads_per_block"] = 64.into();
    let path = temp_file("small.json", config.to_string().as_bytes());
    let o = sim(&["calibrate", "--config", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "error: calibration row `__syncthreads with 4 warps` (barrier_loop): cannot launch on this machine:"
        ),
        "{err}"
    );
    assert!(err.contains("the block size is 128"), "{err}");
    assert!(!err.contains("Diagnostic") && !err.contains("panicked"), "{err}");
}

#[test]
fn closed_stdout_is_not_an_error() {
    use std::process::Stdio;
    // Far more than a pipe holds (64 KiB), so the writes meet the closed pipe.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["run", "block_sum", "--trace", "--view", "detail"])
        .env_remove("RUST_BACKTRACE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

fn json_run(args: &[&str]) -> serde_json::Value {
    let o = sim(args);
    assert_eq!(o.status.code(), Some(0), "sim {args:?}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "bin numbers 0..8, counts below 32 and f32 values read back from JSON"
)]
fn histogram_bin_json_counts_for_every_target_bin() {
    let counts = [26, 24, 26, 22, 13, 12, 5, 0];
    for (k, &count) in counts.iter().enumerate() {
        let set = format!("target_bin={k}");
        let doc = json_run(&["run", "histogram_bin", "--set", &set, "--format", "json"]);
        assert_eq!(doc["buffers"]["count"], serde_json::json!([count]), "bin {k}");
        let bins = doc["buffers"]["bins"].as_array().expect("bins");
        for (slot, v) in bins.iter().take(count as usize).enumerate() {
            let v = v.as_f64().expect("number") as f32;
            assert_eq!(
                ((v * 8.0).floor() as i32).clamp(0, 7),
                k as i32,
                "bin {k} slot {slot}: {v}"
            );
        }
    }
}

#[test]
fn block_programs_json_outputs() {
    assert_eq!(
        json_run(&["run", "block_reduce", "--format", "json"])["buffers"]["out"],
        serde_json::json!([8128])
    );
    assert_eq!(
        json_run(&["run", "block_sum", "--format", "json"])["buffers"]["out"],
        serde_json::json!([500_500.0])
    );
    assert_eq!(
        json_run(&["run", "dot_product", "--format", "json"])["buffers"]["out"],
        serde_json::json!([1_381_760.0])
    );
}

#[test]
fn barrier_in_a_divergent_branch_exits_1_naming_block_warp_and_pc() {
    let src = b".block 64\n.pred %low\n    setp.lt.u32 %low, %tid.x, 48\n    @!%low bra skip\n    bar.sync 0\nskip:\n    exit\n";
    let path = temp_file("divergent_barrier.s", src);
    let o = sim(&["run", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("barrier divergence: lanes 0-15 of the warp reached the barrier but lanes 16-31 did not"),
        "{err}"
    );
    // Warp 0 reaches the barrier whole; warp 1 splits (threads 32-47 go, 48-63 branch away).
    assert!(err.contains("in block 0, warp 1, pc 2"), "{err}");
    assert!(err.contains(":5:5"), "{err}");
}

#[test]
fn a_barrier_another_warp_never_reaches_is_a_deadlock_not_a_hang() {
    let src = b".block 64\n.pred %w0\n    setp.eq.u32 %w0, %warpid, 0\n    @%w0 bra first\n    bar.sync 1\n    exit\nfirst:\n    bar.sync 0\n";
    let path = temp_file("deadlock.s", src);
    let o = sim(&["run", path.to_str().expect("utf-8"), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("deadlock: no warp can proceed; 2 warps wait at barriers"),
        "{err}"
    );
    assert!(
        err.contains("block 0, warp 0, pc 4: waits at barrier 0 (1 of 2 warps arrived)"),
        "{err}"
    );
    assert!(
        err.contains("block 0, warp 1, pc 2: waits at barrier 1 (1 of 2 warps arrived)"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON with the fault");
    assert!(
        doc["fault"]["message"]
            .as_str()
            .expect("message")
            .starts_with("deadlock")
    );
}

#[test]
fn stats_count_bank_conflicts() {
    let src = b".block 32\n.shared s u32[1024]\n.buffer o u32[32]\n.reg %i, %v\n    mul.lo.u32 %i, %laneid, 32\n    ld.shared.u32 %v, s[%i]\n    st.global.u32 o[%laneid], %v\n";
    let path = temp_file("conflict.s", src);
    let doc = json_run(&["run", path.to_str().expect("utf-8"), "--format", "json"]);
    assert_eq!(doc["stats"]["shared_accesses"], 1);
    assert_eq!(doc["stats"]["bank_conflicts"], 1);
    assert_eq!(doc["stats"]["bank_conflict_cycles"], 62);
    assert_eq!(doc["stats"]["dead_instructions"], 0);
    let text = stdout(&sim(&[
        "run",
        path.to_str().expect("utf-8"),
        "--trace",
        "--view",
        "detail",
    ]));
    assert!(text.contains("conflict degree 32 (32-way: 31 replays)"), "{text}");
    assert!(!text.contains("dead code"), "{text}");
    // With its result never read, the load (and the address computed only for it) is dead code the compiler
    // removes: it reaches no bank, and the trace says so.
    let src =
        b".block 32\n.shared s u32[1024]\n.reg %i, %v\n    mul.lo.u32 %i, %laneid, 32\n    ld.shared.u32 %v, s[%i]\n";
    let path = temp_file("conflict_dead.s", src);
    let p = path.to_str().expect("utf-8");
    let doc = json_run(&["run", p, "--format", "json"]);
    assert_eq!(doc["stats"]["shared_accesses"], 0);
    assert_eq!(doc["stats"]["bank_conflicts"], 0);
    assert_eq!(doc["stats"]["dead_instructions"], 2);
    let stats = stdout(&sim(&["run", p, "--stats"]));
    assert!(
        stats.contains(
            "  dead code 2 warp instructions (results never read: removed by the compiler, timed as issue slots)\n"
        ),
        "{stats}"
    );
    let text = stdout(&sim(&["run", p, "--trace", "--view", "detail"]));
    assert_eq!(
        text.matches("(dead code: the compiler removes it)").count(),
        2,
        "{text}"
    );
    assert!(!text.contains("conflict degree"), "{text}");
    let events = stdout(&sim(&["run", p, "--trace", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&events).expect("JSON");
    let dead: Vec<bool> = doc["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .filter(|e| e["event"] == "issue")
        .map(|e| e["dead"] == true)
        .collect();
    assert_eq!(dead, [true, true]);
}

#[test]
fn dynamic_shared_memory_is_sized_at_launch() {
    let src = b".block 4\n.buffer out u32[4]\n.shared dyn u32[]\n.reg %v\n    st.shared.u32 dyn[%laneid], %laneid\n    ld.shared.u32 %v, dyn[%laneid]\n    st.global.u32 out[%laneid], %v\n";
    let path = temp_file("dynamic.s", src);
    let p = path.to_str().expect("utf-8");
    let doc = json_run(&["run", p, "--warp", "4", "--dynamic-shared", "16", "--format", "json"]);
    assert_eq!(doc["buffers"]["out"], serde_json::json!([0, 1, 2, 3]));
    // Without it the dynamic array is empty: the first access is out of bounds.
    let o = sim(&["run", p, "--warp", "4"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("out-of-bounds store to shared array `dyn`: element 0, but `dyn` has 0 elements"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dynamic_shared_sizes_are_checked() {
    let with = temp_file("dyn2.s", b".shared dyn u32[]\n    nop\n");
    let without = temp_file("nodyn.s", b"    nop\n");
    let o = sim(&["run", with.to_str().expect("utf-8"), "--dynamic-shared", "18"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("must be a multiple of 4"), "{}", stderr(&o));
    let o = sim(&["run", without.to_str().expect("utf-8"), "--dynamic-shared", "16"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("declares no dynamic shared array"),
        "{}",
        stderr(&o)
    );
    let o = sim(&["run", with.to_str().expect("utf-8"), "--dynamic-shared", "4294967292"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bytes of shared memory per block"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_run_that_ends_exactly_at_the_cycle_limit_succeeds() {
    // butterfly_max at W=8 issues its last instruction at cycle 521 (its first load is its line's first touch in L2).
    let o = sim(&["run", "butterfly_max", "--warp", "8", "--max-cycles", "521"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = sim(&["run", "butterfly_max", "--warp", "8", "--max-cycles", "520"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let empty = temp_file("nothing.s", b"// nothing\n");
    let o = sim(&["run", empty.to_str().expect("utf-8"), "--max-cycles", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // 0 would stop every run before it starts (and is no "unlimited"): a bad value.
    let o = sim(&["run", empty.to_str().expect("utf-8"), "--max-cycles", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn non_ascii_text_is_an_error_not_a_crash() {
    for (name, text) in [
        ("curly.s", ".include \u{201c}warp.s\u{201d}\n".as_bytes().to_vec()),
        ("times.s", ".reg %v\n    mov.u32 %v, 2*\u{d7}3\n".as_bytes().to_vec()),
        ("euro.s", "\u{20ac}\n".as_bytes().to_vec()),
    ] {
        let path = temp_file(name, &text);
        let o = sim(&["check", path.to_str().expect("utf-8")]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains("unexpected character"), "{name}: {}", stderr(&o));
    }
    // A byte-order mark is skipped.
    let bom = temp_file("bom.s", b"\xef\xbb\xbf.reg %v\n    mov.u32 %v, 1\n");
    let o = sim(&["check", bom.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn devices_and_oversized_inputs_are_refused() {
    let o = sim(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let inc = temp_file("incdev.s", b".include \"/dev/zero\"\n");
    let o = sim(&["check", inc.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let o = sim(&["run", "pair_swap", "--config", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

#[test]
fn include_fan_out_stops_at_the_line_limit() {
    let dir = std::env::temp_dir().join(format!("warpsim-fanout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for k in 0..16 {
        let body = if k == 15 {
            "    nop\n".to_string()
        } else {
            format!(".include \"f{}.s\"\n", k + 1).repeat(8)
        };
        std::fs::write(dir.join(format!("f{k}.s")), body).expect("write");
    }
    let o = sim(&["check", dir.join("f0.s").to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("statements") || err.contains("source lines (includes counted each time)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_trace_is_capped_and_says_so() {
    let path = temp_file("spin_trace.s", b"top:\n    bra top\n");
    let p = path.to_str().expect("utf-8");
    let o = sim(&[
        "run",
        p,
        "--trace",
        "--max-trace-events",
        "100",
        "--max-cycles",
        "10000",
    ]);
    assert_eq!(o.status.code(), Some(1), "the cycle limit stops it");
    assert!(stdout(&o).contains("(trace truncated: "), "{}", stdout(&o));
    let o = sim(&[
        "run",
        p,
        "--trace",
        "--max-trace-events",
        "100",
        "--max-cycles",
        "10000",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["trace"].as_array().expect("trace").len(), 100);
    let dropped = doc["trace_dropped_events"].as_u64().expect("dropped");
    assert!(dropped > 0);
    // And a note on stderr, before the fault.
    assert!(
        stderr(&o).starts_with(&format!(
            "note: the trace was cut short after 100 events ({dropped} more not recorded, see \
             `trace_dropped_events`); raise --max-trace-events (at most 1000000) or stream every event with \
             --trace-file FILE\nerror: the run passed the cycle limit (10000 cycles)"
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn write_errors_are_reported() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipped: no /dev/full on this machine");
        return;
    };
    let o = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["run", "pair_swap"])
        .stdout(full)
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write the output"), "{}", stderr(&o));
}

#[test]
fn view_needs_trace() {
    let o = sim(&["run", "pair_swap", "--view", "grid"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--trace"), "{}", stderr(&o));
}

#[test]
fn check_uses_a_warp_size_the_program_allows() {
    let path = temp_file("narrow.s", b".warp_sizes 4..8\n    nop\n");
    let o = sim(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("launch at W=8"), "{}", stdout(&o));
    let o = sim(&["run", path.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("run it with a `--warp` from 4 to 8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn crosscheck_without_a_gpu_fails_with_one_clear_line() {
    let o = sim(&["crosscheck", "--all"]);
    let err = stderr(&o);
    if o.status.success() {
        // A build with `--features cuda` on a machine with a GPU: the cross-check ran (tests/crosscheck.rs
        // checks its results).
        return;
    }
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(
            "error: no GPU support in this build of sim: rebuild with `cargo build --release --features cuda`"
        ) || err.starts_with("error: no CUDA driver")
            || err.starts_with("error: no NVRTC")
            || err.starts_with("error: no CUDA device"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn crosscheck_checks_its_input_before_looking_for_a_gpu() {
    let o = sim(&["crosscheck"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nothing to cross-check"), "{}", stderr(&o));
    let o = sim(&["crosscheck", "butterfly_mx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `butterfly_max`?"), "{}", stderr(&o));
    // `--ptxas`: a path that is no file, and a ptxas with GPU figures that come from a report.
    let o = sim(&["crosscheck", "--all", "--ptxas", "/nonexistent/ptxas"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --ptxas /nonexistent/ptxas: no such file (the path of a ptxas executable)\n"
    );
    let ptxas = temp_file("ptxas", b"#!/bin/sh\n");
    let p = ptxas.to_str().expect("utf-8 path");
    let o = sim(&["crosscheck", "--all", "--ptxas", p, "--against", "report.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!(
            "error: --ptxas {p} with --against: no module is compiled when the GPU figures come from a report\n"
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn emit_cuda_prints_a_kernel_instruction_by_instruction() {
    let o = sim(&["emit-cuda", "butterfly_max"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(
        "extern \"C\" __global__ void butterfly_max(unsigned *g_in, unsigned *g_out, unsigned long long *warpsim_clocks, unsigned warpsim_zero_param)"
    ));
    assert!(
        out.contains("r_other = shfl_bfly(r_v, r_off, 0x001f, (0xffffffffu ^ warpsim_zero));"),
        "{out}"
    );
    assert!(out.contains("if (p_more) goto L_step_1;"), "{out}");
    // `--set` and the shape flags are applied before translating.
    let o = sim(&["emit-cuda", "moving_average", "--set", "size=256"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("grid 8, block 32"), "{}", stdout(&o));
}

#[test]
fn emit_cuda_refuses_a_program_that_cannot_run_at_32_lanes() {
    let path = temp_file(
        "narrow.s",
        b".warp_sizes 2..16\n.buffer out u32[W]\n  st.global.u32 out[%laneid], %laneid\n",
    );
    let o = sim(&["emit-cuda", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not run at W = 32"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

#[test]
fn random_programs_are_printed_reproducibly() {
    let a = sim(&["random", "--seed", "3", "--index", "17"]);
    let b = sim(&["random", "--seed", "3", "--index", "17"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b));
    assert!(stdout(&a).starts_with(".kernel random_3_17\n"));
    // And the printed program runs.
    let path = temp_file("random_3_17.s", &a.stdout);
    let o = sim(&["run", path.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn out_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warpsim-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn svg_html_and_chrome_trace_are_written_and_stdout_is_unchanged() {
    let dir = out_dir("pictures");
    let (svg, html, chrome) = (dir.join("b.svg"), dir.join("b.html"), dir.join("trace.json"));
    let plain = sim(&["run", "butterfly_max", "--warp", "8"]);
    let o = sim(&[
        "run",
        "butterfly_max",
        "--warp",
        "8",
        "--svg",
        svg.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
        "--trace-format",
        "chrome",
        chrome.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&plain));
    let svg_text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(svg_text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg_text.matches(r#"<line class="arrow" x1"#).count(), 24);
    assert!(
        std::fs::read_to_string(&html)
            .expect("html written")
            .starts_with("<!DOCTYPE html>")
    );
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&chrome).expect("trace written")).expect("JSON");
    assert!(trace["traceEvents"].as_array().is_some_and(|a| !a.is_empty()));
    assert!(stderr(&o).contains("wrote"));
    // No temporary files are left beside them.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["b.html", "b.svg", "trace.json"]);
}

#[test]
fn bad_picture_flags_are_one_clear_error_and_write_nothing() {
    let dir = out_dir("bad-pictures");
    let svg = dir.join("b.svg");
    let svg = svg.to_str().unwrap();
    for (args, expect) in [
        (vec!["--trace-format", "perfetto", svg], "unknown trace format"),
        (vec!["--warps", "0-1"], "`--warps` chooses what `--svg` draws"),
        (vec!["--svg", svg, "--warps", "x"], "expected warp numbers"),
        (
            vec!["--svg", svg, "--steps", "0"],
            "expected a count or an inclusive range",
        ),
        (
            vec!["--svg", svg, "--steps", "3-2"],
            "expected a count or an inclusive range",
        ),
        (vec!["--svg", svg, "--draw-block", "3"], "the grid has 1 block(s)"),
        (vec!["--svg", svg, "--warps", "1"], "has 1 warp(s) (0 to 0), not warp 1"),
        (vec!["--svg", svg, "--steps", "4-9"], "the run has 3 exchange step(s)"),
    ] {
        let mut all = vec!["run", "butterfly_max", "--warp", "8"];
        all.extend(args.iter().copied());
        let o = sim(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(expect), "{all:?}: {err}");
        assert!(!err.contains("panicked"));
        assert!(!std::path::Path::new(svg).exists(), "{all:?} wrote a file");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "a temporary file was left");
}

#[test]
fn a_run_without_exchanges_still_draws_its_bank_maps_and_every_file() {
    let dir = out_dir("no-exchange");
    let (svg, html) = (dir.join("k.svg"), dir.join("k.html"));
    // Each lane stores and loads its own word of shared memory, two words apart: a 2-way bank conflict.
    let file = temp_file(
        "conflict.s",
        b".kernel k\n.block W\n.buffer out u32[W]\n.shared s u32[2 * W]\n.reg %t, %a, %v\n  mov.u32 %t, %tid.x\n  mul.lo.u32 %a, %t, 2\n  st.shared.u32 s[%a], %t\n  ld.shared.u32 %v, s[%a]\n  st.global.u32 out[%t], %v\n",
    );
    let (f, svg_s, html_s) = (file.to_str().unwrap(), svg.to_str().unwrap(), html.to_str().unwrap());
    let o = sim(&["run", f, "--svg", svg_s, "--html", html_s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(
        text.contains("no step moves data between the lanes of block 0"),
        "{text}"
    );
    assert_eq!(text.matches(r#"<g class="bankmap">"#).count(), 2);
    assert!(text.contains("conflict degree 2"));
    assert!(html.exists());
    // A bad choice of steps is an error for the SVG alone: the run's output and the other files still come.
    std::fs::remove_file(&html).unwrap();
    let o = sim(&["run", f, "--svg", svg_s, "--steps", "1", "--html", html_s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("the run has 0 exchange step(s)"), "{}", stderr(&o));
    assert!(stdout(&o).contains("cycles:"));
    assert!(html.exists());
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let args = ["run", "butterfly_max", "--warp", "8", "--trace"];
    // Piped (as here): plain, whatever NO_COLOR says.
    let piped = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(!stdout(&piped).contains('\x1b'));
    let forced = sim(&["--color", "always", "run", "butterfly_max", "--warp", "8", "--trace"]);
    let painted = stdout(&forced);
    assert!(painted.contains("\x1b[32m########\x1b[0m"), "{painted}");
    assert!(painted.contains("\x1b[1mshfl.sync.bfly.b32\x1b[0m"));
    // Colour never changes the text.
    let mut stripped = String::new();
    let mut in_escape = false;
    for c in painted.chars() {
        match (in_escape, c) {
            (false, '\x1b') => in_escape = true,
            (true, c) if c.is_ascii_alphabetic() => in_escape = false,
            (true, _) => {}
            (false, c) => stripped.push(c),
        }
    }
    assert_eq!(stripped, stdout(&piped));
    let never = sim(&["--color", "never", "run", "butterfly_max", "--warp", "8", "--trace"]);
    assert!(!stdout(&never).contains('\x1b'));
}

#[test]
fn bench_reports_the_runs_counts_and_its_speed_as_json() {
    let o = sim(&[
        "bench",
        "block_reduce",
        "--set",
        "n=4096",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bench: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let run = sim(&["run", "block_reduce", "--set", "n=4096", "--format", "json"]);
    let run: serde_json::Value = serde_json::from_str(&stdout(&run)).expect("JSON");
    // The same simulation as `sim run`: cycles and instruction counts agree.
    assert_eq!(bench["cycles"], run["cycles"]);
    assert_eq!(bench["warp_instructions"], run["stats"]["warp_instructions"]);
    assert_eq!(bench["lane_instructions"], run["stats"]["lane_instructions"]);
    assert_eq!(bench["threads"], 2);
    assert_eq!(bench["sms"], 132);
    let wall = bench["wall_seconds"].as_f64().expect("a number");
    let rate = bench["lane_instructions_per_second"].as_f64().expect("a number");
    let lanes = bench["lane_instructions"].as_f64().expect("a number");
    assert!(wall > 0.0);
    assert!((rate * wall / lanes - 1.0).abs() < 1e-9, "rate = lanes / wall");
    // Text: the same figures, one per line; no progress bar when stderr is not a terminal.
    let o = sim(&["bench", "butterfly_max", "--threads", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("1 host thread\n"), "{text}");
    assert!(text.contains("warp instructions  29 "), "{text}");
    assert_eq!(stderr(&o), "");
}

#[test]
fn bench_scaling_runs_each_thread_count_and_checks_the_results_agree() {
    let o = sim(&[
        "bench",
        "block_reduce",
        "--set",
        "n=8192",
        "--scaling",
        "1,2,3",
        "--repeat",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let run = sim(&["run", "block_reduce", "--set", "n=8192", "--format", "json"]);
    let run: serde_json::Value = serde_json::from_str(&stdout(&run)).expect("JSON");
    assert_eq!(doc["cycles"], run["cycles"]);
    assert_eq!(doc["lane_instructions"], run["stats"]["lane_instructions"]);
    assert_eq!(doc["identical"], true);
    let rows = doc["scaling"].as_array().expect("rows");
    let threads: Vec<u64> = rows.iter().map(|r| r["threads"].as_u64().expect("threads")).collect();
    assert_eq!(threads, [1, 2, 3]);
    for r in rows {
        let walls: Vec<f64> = r["wall_seconds"]
            .as_array()
            .expect("walls")
            .iter()
            .map(|w| w.as_f64().expect("s"))
            .collect();
        assert_eq!(walls.len(), 2);
        let shortest = r["shortest_seconds"].as_f64().expect("shortest");
        assert!(walls.iter().all(|&w| w >= shortest) && walls.contains(&shortest));
        let first = rows[0]["shortest_seconds"].as_f64().expect("first");
        assert!((r["speedup"].as_f64().expect("speedup") - first / shortest).abs() < 1e-9);
    }
    assert!((rows[0]["speedup"].as_f64().expect("speedup") - 1.0).abs() < 1e-12);
    // `--scaling` chooses the threads itself; `--repeat` only goes with it.
    let o = sim(&["bench", "butterfly_max", "--scaling", "1,2", "--threads", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = sim(&["bench", "butterfly_max", "--repeat", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let o = sim(&["bench", "butterfly_max", "--scaling", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let text = stdout(&sim(&["bench", "butterfly_max", "--scaling", "1,2", "--repeat", "1"]));
    assert!(
        text.contains("cycles and every buffer identical at every thread count"),
        "{text}"
    );
}

#[test]
fn bad_thread_and_sm_counts_are_input_errors() {
    for (flag, value, says) in [
        ("--threads", "0", "at least one thread"),
        ("--sms", "0", "`sms` must be 1 to 1024"),
        ("--sms", "5000", "`sms` must be 1 to 1024"),
    ] {
        for cmd in ["run", "bench"] {
            let o = sim(&[cmd, "butterfly_max", flag, value]);
            assert_eq!(o.status.code(), Some(2), "{cmd} {flag} {value}");
            assert!(stderr(&o).contains(says), "{cmd} {flag} {value}: {}", stderr(&o));
        }
    }
}

#[test]
fn trace_file_streams_one_json_object_per_event() {
    let dir = temp_file("unused", b"").parent().expect("dir").to_path_buf();
    let path = dir.join("bfly.jsonl");
    let o = sim(&[
        "run",
        "butterfly_max",
        "--warp",
        "8",
        "--trace-file",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&path)
        .expect("written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    // The same events, in the same order, as the `trace` of `--format json`.
    let json = sim(&["run", "butterfly_max", "--warp", "8", "--trace", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    assert_eq!(serde_json::Value::Array(lines.clone()), json["trace"]);
    assert_eq!(lines[0]["event"], "block_launch");
    assert_eq!(lines.iter().filter(|l| l["event"] == "issue").count(), 19);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    // With a picture of the same name beside it, both are written.
    let (t, svg) = (dir.join("both.json"), dir.join("both.svg"));
    let o = sim(&[
        "run",
        "butterfly_max",
        "--warp",
        "8",
        "--trace-file",
        t.to_str().expect("utf-8"),
        "--svg",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&t).expect("trace").lines().count(), lines.len());
    assert!(std::fs::read_to_string(&svg).expect("svg").starts_with("<svg"));
    // A faulting run still writes the trace up to the fault.
    let bad = temp_file(
        "oob.s",
        b".block 4\n.buffer b u32[2]\n.reg %v\n    ld.global.u32 %v, b[%laneid]\n",
    );
    let path = dir.join("oob.jsonl");
    let o = sim(&[
        "run",
        bad.to_str().expect("utf-8"),
        "--warp",
        "4",
        "--trace-file",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).expect("written");
    assert_eq!(text.lines().count(), 1, "the block launch, then the fault: {text}");
    // A file that cannot be created: exit 2 before running, nothing written.
    let o = sim(&["run", "butterfly_max", "--trace-file", "/proc/no/such/dir/t.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot write"), "{}", stderr(&o));
}

/// block_reduce with its barrier taken out, as a user's file.
fn block_reduce_without_barrier() -> std::path::PathBuf {
    let o = sim(&["show", "block_reduce"]);
    let text: String = stdout(&o)
        .lines()
        .filter(|l| l.trim() != "bar.sync            0")
        .map(|l| format!("{l}\n"))
        .collect();
    temp_file("nobar.s", text.as_bytes())
}

/// Without `--check`, a missing barrier is pointed out: once, on stderr after the output, as a warning (exit
/// status 0), with the way to check it. (The default schedule happens to give the sum the barrier gives, 8128:
/// warp 0 reads the warp sums after the other warps stored theirs, which nothing guarantees.)
#[test]
fn a_missing_barrier_is_pointed_out_without_any_check() {
    let file = block_reduce_without_barrier();
    let path = file.to_str().unwrap();
    let o = sim(&["run", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("out u32[1] = [8128]"), "{}", stdout(&o));
    let err = stderr(&o);
    for needle in [
        "warning: warp 0 reads `partial[1]`, which warp 1 wrote since their last barrier",
        "nobar.s:33:9",
        "block 0, warp 0, lane 1 reads it here at cycle",
        "note: warp 1 wrote it at pc 11: `@%lane0 st.shared.u32 partial[%warpid], %v`",
        "nobar.s:28:9",
        "help: nothing orders the two warps",
        "`--check race` and `--schedule random --seed N`",
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
    assert_eq!(err.matches("warning:").count(), 1, "said once: {err}");
    // JSON carries it too (and the same warning on stderr).
    let o = sim(&["run", path, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let u = &doc["unordered_read"];
    assert_eq!((u["warp"].as_u64(), u["lane"].as_u64()), (Some(0), Some(1)));
    assert_eq!((u["array"].as_str(), u["index"].as_u64()), (Some("partial"), Some(1)));
    assert_eq!(
        (u["writer_warp"].as_u64(), u["writer_pc"].as_u64()),
        (Some(1), Some(11))
    );
    assert_eq!(u["writer_instruction"], "@%lane0 st.shared.u32 partial[%warpid], %v");
    assert!(stderr(&o).contains("warning: warp 0 reads `partial[1]`"));
    // With the race check, the finding says it (no warning besides).
    let o = sim(&["run", path, "--check", "race"]);
    assert!(!stderr(&o).contains("warning:"), "{}", stderr(&o));
    // The shipped program, with its barrier: nothing.
    let o = sim(&["run", "block_reduce"]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
}

#[test]
fn check_race_reports_the_missing_barrier_and_exits_1() {
    let file = block_reduce_without_barrier();
    let path = file.to_str().unwrap();
    let o = sim(&["run", path, "--check", "race"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // The run's output still comes, and says what the checks found, though the default schedule's sum is right.
    let out = stdout(&o);
    assert!(out.contains("out u32[1] = [8128]"), "{out}");
    assert!(out.contains("check race: 1 problem found (race 1); see below"), "{out}");
    let err = stderr(&o);
    for needle in [
        "error: data race on shared memory: read-after-write hazard on `partial[1]` between threads no barrier orders",
        "nobar.s:33:9",
        "read by warp 0, lane 1",
        "first: block 0, warp 1, lane 0 (thread 32) wrote it at cycle",
        "pc 11: `@%lane0 st.shared.u32 partial[%warpid], %v`",
        "then: block 0, warp 0, lane 1 (thread 1) read it at cycle",
        "(3 times in all)",
        "help: order the two accesses with a barrier both warps reach between them (`bar.sync 0`)",
        "error: --check race: 1 problem found",
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    // A random schedule (seed 2) has warp 0 read before warp 3 stores: a wrong sum, and warp 3's store after warp
    // 0's read is a hazard too.
    let o = sim(&["run", path, "--check", "race", "--schedule", "random", "--seed", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("out u32[1] = [4560]"), "{out}");
    assert!(
        out.contains("check race: 2 problems found (race 2); see below"),
        "{out}"
    );
    let err = stderr(&o);
    for needle in [
        "error: data race on shared memory: read-after-write hazard on `partial[1]` between threads no barrier orders",
        "error: data race on shared memory: write-after-read hazard on `partial[3]` between threads no barrier orders",
        "first: block 0, warp 0, lane 3 (thread 3) read it at cycle",
        "then: block 0, warp 3, lane 0 (thread 96) wrote it at cycle",
        "(2 times in all)",
        "error: --check race: 2 problems found",
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
    // JSON: the finding with both accesses.
    let o = sim(&["run", path, "--check", "race", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["checks"], "race");
    let f = &doc["findings"][0];
    assert_eq!(f["check"], "race");
    assert_eq!(f["hazard"], "read-after-write");
    assert_eq!((f["array"].as_str(), f["index"].as_u64()), (Some("partial"), Some(1)));
    assert_eq!(f["address"], 4);
    assert_eq!(
        (f["first"]["warp"].as_u64(), f["first"]["lane"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(f["first"]["access"], "write");
    assert_eq!(
        (f["second"]["warp"].as_u64(), f["second"]["lane"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(f["second"]["access"], "read");
    assert_eq!(f["count"], 3);
    assert_eq!(f["memory"], "shared");
    assert_eq!(
        (f["first"]["block"].as_u64(), f["second"]["block"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn check_race_finds_a_lost_update_between_blocks_in_global_memory() {
    let path = temp_file(
        "lost.s",
        b".kernel lost\n.grid 2\n.block W\n.buffer total u32[1]\n.reg %v\n.pred %lane0\n        setp.eq.u32 %lane0, %laneid, 0\n        @%lane0 ld.global.u32 %v, total[0]\n        add.u32 %v, %v, 1\n        @%lane0 st.global.u32 total[0], %v\n",
    );
    let path = path.to_str().unwrap();
    let o = sim(&["run", path, "--check", "race"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    for needle in [
        "error: data race on global memory: write-after-read hazard on `total[0]` between threads of different blocks (nothing orders blocks within a kernel)",
        "note: address: `total[0]` is byte 0 of global buffer `total`",
        "first: block 1, warp 0, lane 0 (thread 0) read it at cycle",
        "then: block 0, warp 0, lane 0 (thread 0) wrote it at cycle",
        "error: data race on global memory: write-after-write hazard on `total[0]`",
        "error: --check race: 2 problems found",
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
    let o = sim(&["run", path, "--check", "race", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let f = &doc["findings"][0];
    assert_eq!(
        (f["memory"].as_str(), f["array"].as_str(), f["address"].as_u64()),
        (Some("global"), Some("total"), Some(0))
    );
    assert_eq!(
        (f["first"]["block"].as_u64(), f["first"]["access"].as_str()),
        (Some(1), Some("read"))
    );
    assert_eq!(
        (f["second"]["block"].as_u64(), f["second"]["access"].as_str()),
        (Some(0), Some("write"))
    );
}

#[test]
fn checks_on_a_correct_program_say_so_and_exit_0() {
    let o = sim(&["run", "histogram_bin", "--check", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("check race,init,shfl,sync: no problems found"),
        "{}",
        stdout(&o)
    );
    let o = sim(&["run", "block_reduce", "--check", "race,init", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["checks"], "race,init");
    assert_eq!(doc["findings"], serde_json::json!([]));
}

#[test]
fn schedules_change_cycles_not_values() {
    let values = |extra: &[&str]| {
        let mut args = vec!["run", "histogram_bin", "--format", "json"];
        args.extend_from_slice(extra);
        let o = sim(&args);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        (doc["buffers"].clone(), doc["cycles"].as_u64().unwrap())
    };
    let (base, cycles) = values(&[]);
    let (reverse, _) = values(&["--schedule", "reverse"]);
    let (random, random_cycles) = values(&["--schedule", "random", "--seed", "7"]);
    assert_eq!(reverse, base);
    assert_eq!(random, base);
    assert_ne!(random_cycles, cycles);
    // The same seed, the same run.
    assert_eq!(values(&["--schedule", "random", "--seed", "7"]).1, random_cycles);
}

#[test]
fn bad_check_and_schedule_flags_are_input_errors() {
    let o = sim(&["run", "butterfly_max", "--check", "rcae"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown check `rcae`: did you mean `race`?"), "{err}");
    let o = sim(&["run", "butterfly_max", "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: --seed is the seed of a random schedule\n  help: add `--schedule random`\n"
    );
    let o = sim(&["run", "butterfly_max", "--schedule", "sideways"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("[possible values: default, reverse, random]"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_instruction_limit_is_a_fault_that_names_the_warp() {
    let file = temp_file(
        "spin.s",
        b".kernel spin\n.grid 1\n.block W\n.reg %v\ntop:\n        add.u32 %v, %v, 1\n        bra top\n",
    );
    let o = sim(&["run", file.to_str().unwrap(), "--max-instructions", "1000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("error: the run passed the instruction limit (1000 warp instructions): ")
            && err.contains("in block 0, warp 0, lane 0 (thread 0), pc ")
            && err.contains("help: an endless loop? raise the limit with `--max-instructions N`"),
        "{err}"
    );
}

#[test]
fn the_time_limit_stops_an_endless_loop_with_status_3() {
    let path = temp_file("spin_timeout.s", b"top:\n    bra top\n");
    let p = path.to_str().expect("utf-8");
    let max = u64::MAX.to_string();
    for command in ["run", "bench"] {
        let o = sim(&[
            command,
            p,
            "--timeout",
            "0.05",
            "--max-cycles",
            &max,
            "--max-instructions",
            &max,
        ]);
        assert_eq!(o.status.code(), Some(3), "{command}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with("error: the run passed the time limit (0.05 s of wall-clock time) at cycle ")
                && err.contains("; this warp issued the most lately")
                && err.contains("in block 0, warp 0, lane 0 (thread 0), pc 0, cycle ")
                && err.contains("raise the limit with `--timeout SECONDS` (`--timeout none`: no limit)"),
            "{command}: {err}"
        );
    }
    // `none` and `0` turn it off (the cycle limit stops this one); a bad value is bad input.
    for off in ["none", "0"] {
        let o = sim(&["run", p, "--timeout", off, "--max-cycles", "10000"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("cycle limit (10000 cycles)"), "{}", stderr(&o));
    }
    for bad in ["-1", "soon", "nan", "0.0001"] {
        let o = sim(&["run", p, "--timeout", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("expected a number of seconds from 0.001 to 1000000000, or `none`"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn json_keeps_every_bit_of_f32_values_nan_payloads_and_infinities_included() {
    // Stored as bits: a signalling NaN with payload 1, a negative quiet NaN with a payload, ±inf, -0.0, the
    // smallest subnormal, 1.5; and 0/0 computed (the canonical NaN the GPU gives, 0x7fffffff).
    let bits: [u32; 8] = [
        0x7f80_0001,
        0xffc1_2345,
        0x7f80_0000,
        0xff80_0000,
        0x8000_0000,
        0x0000_0001,
        0x3fc0_0000,
        0x7fff_ffff,
    ];
    let file = temp_file(
        "f32_bits.s",
        format!(
            ".kernel f32_bits\n.warp_sizes 32\n.grid 1\n.block 1\n.buffer out f32[9]\n.reg %v, %z\n\n{}        mov.b32 %z, 0\n        div.rn.f32 %v, %z, %z\n        st.global.f32 out[8], %v\n",
            bits.iter()
                .enumerate()
                .map(|(k, b)| format!("        mov.b32 %v, 0x{b:08x}\n        st.global.f32 out[{k}], %v\n"))
                .collect::<String>()
        )
        .as_bytes(),
    );
    let o = sim(&["run", file.to_str().unwrap(), "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let out = v["buffers"]["out"].as_array().expect("out");
    // What the schema (docs/run.schema.json) promises a reader: a number is the exact value, a string the bits.
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the schema writes an f32 as the f64 that reads back to it"
    )]
    let read = |e: &serde_json::Value| -> u32 {
        match e {
            serde_json::Value::Number(n) => (n.as_f64().expect("a number") as f32).to_bits(),
            serde_json::Value::String(s) => {
                let hex = s.strip_prefix("0x").expect("0x…");
                assert_eq!(hex.len(), 8, "{s}");
                u32::from_str_radix(hex, 16).expect("hex bits")
            }
            other => panic!("an f32 element is a number or a string, not {other}"),
        }
    };
    let got: Vec<u32> = out.iter().map(read).collect();
    let mut want = bits.to_vec();
    want.push(0x7fff_ffff);
    assert_eq!(got, want);
    assert_eq!(out[0], serde_json::json!("0x7f800001"));
    assert_eq!(out[2], serde_json::json!("0x7f800000"));
    assert_eq!(out[4].to_string(), "-0.0");
    assert_eq!(out[6], serde_json::json!(1.5));
}

/// A fault message counts in English: a one-element buffer "has 1 element".
#[test]
fn a_one_element_buffer_has_1_element() {
    let path = temp_file(
        "one_element.s",
        b".block 4\n.buffer in u32[1]\n.reg %v\n        ld.global.u32 %v, in[%laneid]\n",
    );
    let o = sim(&["run", path.to_str().expect("utf-8"), "--warp", "4"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("error: out-of-bounds load from `in`: element 1, but `in` has 1 element (0..1)"),
        "{}",
        stderr(&o)
    );
}

/// `sim run --format json` is what docs/run.schema.json says, events included (every event kind, each record
/// with no field the schema does not name): the shipped programs with divergence, shuffles, shared memory,
/// atomics and barriers, and a program with a global atomic's return, barrier reductions, predicates, an f32
/// NaN and a diverged branch. A record the schema does not describe fails.
#[test]
fn json_output_and_its_trace_follow_the_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/run.schema.json")).expect("the schema"),
    )
    .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let own = temp_file(
        "schema_kinds.s",
        b".grid 2
.block 40
.buffer c u32[1]
.buffer out f32[40]
.shared s u32[40]
.pred %p, %all
.reg %t, %n, %v
        setp.lt.u32         %p, %laneid, 3
        atom.global.add.u32 %t, c[0], 1
        @%p bra             skip
        add.u32             %t, %t, 1
skip:
        st.shared.u32       s[%tid.x], %t
        bar.red.popc.u32    %n, 0, %p
        bar.red.and.pred    %all, 0, %p
        ld.shared.u32       %t, s[0]
        mov.b32             %v, 0x7fc00000
        st.global.f32       out[%tid.x], %v
",
    );
    // A loop that leaves on its atomic's result has a `YIELD`: lanes leaving it early are `released`.
    let spin = temp_file(
        "schema_yield.s",
        b".block 32
.buffer g u32[32]
.reg %c, %r
.pred %p
        and.b32             %c, %laneid, 3
loop:
        atom.global.add.u32 %r, g[%laneid], 1
        setp.lt.u32         %p, %r, %c
        @%p bra             loop
        st.global.u32       g[%laneid], %r
",
    );
    // A PTX kernel's issues carry their CUDA line (`source`).
    let ptx = concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/ptx/cuda/p01_map.O3.ptx");
    let mut released = 0;
    let runs: [&[&str]; 7] = [
        &[ptx, "--block", "4", "--buffer", "out=f32[4]", "--buffer", "a=[4]=i"],
        &["block_sum", "--warp", "8", "--set", "n=40", "--set", "threads=32"],
        &["histogram_bin", "--warp", "8", "--set", "threads=32"],
        &["conditional_max", "--warp", "8"],
        &["butterfly_max", "--warp", "32"],
        &[own.to_str().expect("utf-8"), "--warp", "32"],
        &[spin.to_str().expect("utf-8")],
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for args in runs {
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        all.extend(["--trace", "--format", "json"]);
        let o = sim(&all);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        let errors: Vec<String> = validator
            .iter_errors(&doc)
            .take(5)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        for e in doc["trace"].as_array().expect("a trace") {
            kinds.insert(e["event"].as_str().expect("an event kind").to_string());
            released += usize::from(e.get("released").is_some());
        }
        // A record with a field the schema does not name is caught.
        let mut bad = doc.clone();
        bad["trace"][0]["surprise"] = serde_json::json!(1);
        assert!(!validator.is_valid(&bad), "{args:?}: an unknown field passed");
    }
    let every = [
        "atomic_return",
        "barrier_arrive",
        "barrier_release",
        "block_launch",
        "diverge",
        "issue",
        "reconverge",
        "warp_exit",
    ];
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), every);
    // Lanes 0, 4, 8, ... leave after one pass, then 1, 5, ..., then 2, 6, ...: three releases.
    assert_eq!(released, 3);
}

#[test]
fn scheduling_its_lets_a_spin_wait_end_and_lockstep_stays_the_default() {
    let path = temp_file(
        "spin_its.s",
        b".buffer out u32[W]\n.shared flag u32[1]\n.reg %v\n.pred %p, %q\n\
          setp.eq.u32 %p, %laneid, 0\n @!%p bra setter\nspin:\n ld.shared.u32 %v, flag[0]\n\
          setp.eq.u32 %q, %v, 0\n @%q bra spin\n bra done\nsetter:\n mov.u32 %v, 7\n\
          st.shared.u32 flag[0], %v\ndone:\n st.global.u32 out[%laneid], %v\n",
    );
    let file = path.to_str().expect("a UTF-8 path");
    let o = sim(&["run", file, "--warp", "4", "--scheduling", "its"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("out u32[4] = [7, 7, 7, 7]"), "{}", stdout(&o));
    let o = sim(&["run", file, "--warp", "4", "--max-instructions", "1000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("the run passed the instruction limit"),
        "{}",
        stderr(&o)
    );
    let o = sim(&["run", file, "--scheduling", "volta"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown scheduling `volta`: `lockstep` (the reconvergence stack, the default) or `its`"),
        "{}",
        stderr(&o)
    );
}

/// `--check scheduling`: a lane fills a shared table that the other lanes of its warp read on their own path
/// with no `bar.warp.sync`: lockstep runs the filling path first, to the end; independent thread scheduling
/// interleaves the paths and the readers see zeros. The check runs both and reports the first difference.
#[test]
fn check_scheduling_reports_code_that_relies_on_lockstep_execution() {
    let dir = std::env::temp_dir().join(format!("warpsim-cli-{}-scheduling", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("lockstep_bug.s");
    std::fs::write(
        &path,
        ".block W\n.buffer out u32[W]\n.shared box u32[W]\n.reg %i, %v\n.pred %producer, %more\n\
         \x20       setp.eq.u32 %producer, %laneid, 0\n        @!%producer bra consume\n        mov.u32 %i, 0\n\
         fill:\n        mad.lo.u32 %v, %i, %i, 1\n        st.shared.u32 box[%i], %v\n        add.u32 %i, %i, 1\n\
         \x20       setp.lt.u32 %more, %i, W\n        @%more bra fill\n        bra done\n\
         consume:\n        ld.shared.u32 %v, box[%laneid]\n        st.global.u32 out[%laneid], %v\ndone:\n",
    )
    .expect("writes");
    let p = path.to_str().expect("utf-8");
    let o = sim(&["run", p, "--warp", "8", "--check", "scheduling"]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("out u32[8] = [0, 2, 5, 10, 17, 26, 37, 50]"), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "buffer `out` differs between --scheduling lockstep and --scheduling its in 7 elements; the first is \
             element 1: 2 under lockstep, 0 under its"
        ),
        "{err}"
    );
    // Under its alone the readers get zeros (lane 0 wrote nothing to `out`).
    let o = sim(&["run", p, "--warp", "8", "--scheduling", "its"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("out u32[8] = [0, 0, 0, 0, 0, 0, 0, 0]"));
    // A program that does not depend on the scheduling passes, and says so.
    let o = sim(&["run", "butterfly_max", "--warp", "8", "--check", "scheduling,race"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("scheduling: the same results under --scheduling lockstep and its (--check scheduling)")
    );
    // A program that declares `.scheduling its` is written for it: nothing to compare with lockstep, and every
    // other check passes.
    let o = sim(&["run", "warp_pipeline", "--warp", "8", "--check", "all"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("check race,init,shfl,sync: no problems found"), "{out}");
    assert!(
        out.contains(
            "scheduling: the program declares `.scheduling its` (written for independent thread scheduling): not \
             compared with lockstep (--check scheduling)"
        ),
        "{out}"
    );
}

#[test]
fn puzzle_show_check_and_list() {
    let dir = std::env::temp_dir().join(format!("warpsim-puzzle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = sim(&["puzzle", "list"]);
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.starts_with("pair_swap            Pair swap\n"), "{text}");
    // The starting file assembles, fails the check (exit 1, the first run and value named), and the shipped
    // program passes it (exit 0).
    let show = sim(&["puzzle", "show", "warp_prefix_sum"]);
    assert!(show.status.success());
    let stub = dir.join("stub.s");
    std::fs::write(&stub, &show.stdout).unwrap();
    let failed = sim(&[
        "puzzle",
        "check",
        "warp_prefix_sum",
        stub.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert_eq!(failed.status.code(), Some(1));
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(
        err.starts_with(
            "fail: warp_prefix_sum (Warp prefix sum), run 1 under W=4, the default schedule, lockstep scheduling, the declared inputs:\n`out[1]` is 2 where the reference gives 3 (3 of 4 elements differ)\n  where it departs: the answer's warp 0 of block 0 makes 0 exchange steps"
        ),
        "{err}"
    );
    let answer = dir.join("answer.s");
    std::fs::write(&answer, sim(&["show", "warp_prefix_sum"]).stdout).unwrap();
    let passed = sim(&["puzzle", "check", "warp_prefix_sum", answer.to_str().unwrap()]);
    assert!(passed.status.success(), "{}", String::from_utf8_lossy(&passed.stderr));
    assert_eq!(
        String::from_utf8_lossy(&passed.stdout),
        "pass: warp_prefix_sum (Warp prefix sum): the same `out` as the reference in all 24 runs (warp sizes 4, 8, 32; default, reverse and random schedules; lockstep and independent thread scheduling; --check all)\n"
    );
    // Bad input: exit 2 with a hint.
    let unknown = sim(&["puzzle", "show", "butterfly"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&unknown.stderr),
        "error: no puzzle named `butterfly`\n  help: did you mean `butterfly_max`?\n"
    );
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "title = 1\n").unwrap();
    let refused = sim(&["puzzle", "show", bad.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("TOML parse error at line 1, column 9"));
    std::fs::remove_dir_all(&dir).unwrap();
}
