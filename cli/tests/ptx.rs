//! `sim run`, `sim check` and `sim crosscheck --launches` on PTX files (issue 21): the corpus kernels of
//! `programs/ptx/launches.txt` give the values an H100 computed from the same PTX (`programs/ptx/gpu/`, written
//! by `sim crosscheck --launches programs/ptx/launches.txt --save-buffers programs/ptx/gpu`), and bad input is
//! a clear error.

use crate::cli::sim;
use std::path::{Path, PathBuf};
use std::process::Output;

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx")
}

/// A launches-file line's words (`'…'` quotes a word with blanks), as `sim crosscheck --launches` splits it.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (k, part) in line.split('\'').enumerate() {
        if k % 2 == 1 {
            out.push(part.to_string());
        } else {
            out.extend(part.split_whitespace().map(str::to_string));
        }
    }
    out
}

#[test]
fn every_corpus_launch_gives_the_gpus_values_bit_for_bit() {
    let launches = std::fs::read_to_string(corpus().join("launches.txt")).expect("launches.txt");
    let dir = std::env::temp_dir().join(format!("warpsim-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut checked = 0;
    for line in launches
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let w = words(line);
        let file = corpus().join(&w[0]);
        let mut stem = Path::new(&w[0]).file_stem().unwrap().to_string_lossy().into_owned();
        // (A launch of one of a file's several kernels is named after the kernel too, as the cross-check names it.)
        if let Some(k) = w.iter().position(|x| x == "--entry") {
            stem = format!("{stem}.{}", w[k + 1]);
        }
        let gpu: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(corpus().join("gpu").join(format!("{stem}.gpu.json"))).expect("the GPU's buffers"),
        )
        .expect("json");
        let buffers = gpu["buffers"].as_object().expect("buffers");
        let mut args: Vec<String> = vec!["run".into(), file.to_string_lossy().into_owned()];
        args.extend(w[1..].iter().cloned());
        for name in buffers.keys() {
            args.push("--save".into());
            args.push(format!("{name}={}", dir.join(format!("{stem}.{name}.bin")).display()));
        }
        args.push("--stats".into());
        let untraced: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = sim(&untraced);
        assert_eq!(o.status.code(), Some(0), "{line}\n{}", text(&o));
        // Traced, the run executes the program's own registers (untraced, registers share rows): the same
        // values in every buffer, the same cycles and statistics.
        let trace_file = dir.join(format!("{stem}.trace"));
        let mut traced: Vec<String> = args
            .iter()
            .map(|a| match a.strip_suffix(".bin") {
                Some(head) => format!("{head}.traced.bin"),
                None => a.clone(),
            })
            .collect();
        traced.extend(["--trace-file".into(), trace_file.to_string_lossy().into_owned()]);
        let traced: Vec<&str> = traced.iter().map(String::as_str).collect();
        let t = sim(&traced);
        assert_eq!(t.status.code(), Some(0), "{line}\n{}", text(&t));
        let summary = |o: &Output| -> String {
            text(o)
                .lines()
                .filter(|l| !l.starts_with("wrote "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(summary(&t), summary(&o), "{line}: tracing changed the run");
        std::fs::remove_file(&trace_file).expect("written");
        for (name, want) in buffers {
            let bytes = std::fs::read(dir.join(format!("{stem}.{name}.bin"))).expect("saved");
            let traced = std::fs::read(dir.join(format!("{stem}.{name}.traced.bin")))
                .unwrap_or_else(|e| panic!("{stem}.{name}: {e}\n{}", text(&t)));
            assert_eq!(bytes, traced, "{stem}: buffer {name} traced");
            let got: Vec<u64> = bytes
                .chunks(4)
                .map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect();
            let want: Vec<u64> = want.as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(got, want, "{stem}: buffer {name}");
        }
        checked += 1;
    }
    // Every launch has the GPU's buffers, and every GPU file a launch.
    assert_eq!(checked, std::fs::read_dir(corpus().join("gpu")).unwrap().count());
    assert!(checked >= 40, "{checked}");
}

#[test]
fn check_lists_each_kernels_arguments_and_refuses_what_is_not_supported() {
    let o = sim(&["check", &corpus().join("cuda/p03_guard.O3.ptx").to_string_lossy()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "map_guard: ok (16 instructions, 14 registers, 2 predicates)\n  0 out: float*\n  1 a: const float*\n  2 size: int\n"
    );
    let o = sim(&[
        "check",
        &corpus().join("cuda/w30_memory_order.O3.ptx").to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(t.contains("error: `nanosleep` is not supported"), "{t}");
    assert!(t.contains("w30_memory_order.O3.ptx:222:2"), "{t}");
    assert!(t.contains("help: docs/ptx.md lists the PTX warpsim runs"), "{t}");
}

#[test]
fn bad_bindings_are_errors_that_list_the_arguments() {
    let f = corpus().join("cuda/p01_map.O3.ptx");
    let f = f.to_string_lossy();
    let o = sim(&["run", &f, "--block", "8", "--buffer", "out=f32[8]"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: argument 1 (`a`: const float*) of `map_add10` is not bound\n  help: `--buffer a=f32[N]`\n  its arguments:\n    0 out: float*\n    1 a: const float*\n"
    );
    let o = sim(&[
        "run",
        &f,
        "--block",
        "8",
        "--buffer",
        "out=f32[8]",
        "--buffer",
        "b=f32[8]",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).starts_with("error: `--buffer b=f32[8]`: kernel `map_add10` has no argument `b` (did you mean `a`?)"),
        "{}",
        text(&o)
    );
    let o = sim(&["run", &f, "--block", "8", "--buffer", "out=f32[8]", "--set", "a=3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("is a pointer"), "{}", text(&o));
}

#[test]
fn a_ptx_trace_shows_the_cuda_line_of_each_instruction() {
    let f = corpus().join("cuda/p01_map.O3.ptx");
    let o = sim(&[
        "run",
        &f.to_string_lossy(),
        "--block",
        "4",
        "--buffer",
        "out=f32[4]",
        "--buffer",
        "a=[4]=i",
        "--trace",
        "--width",
        "160",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("ld.global.f32 %f1, [%rd6];"), "{t}");
    assert!(t.contains("load from a, lanes 0-15:  [0, 1, 2, 3, -,"), "{t}");
    assert!(t.contains("from p01_map.cu:5: out[i] = a[i] + 10.0f;"), "{t}");
    assert!(t.contains("out f32[4] = [10, 11, 12, 13]"), "{t}");
}

#[test]
fn json_trace_and_stepper_carry_the_cuda_line() {
    let f = corpus().join("cuda/p01_map.O3.ptx");
    let f = f.to_string_lossy();
    let args = [
        "run",
        &f,
        "--block",
        "4",
        "--buffer",
        "out=f32[4]",
        "--buffer",
        "a=[4]=i",
    ];
    let o = sim(&[&args[..], &["--format", "json", "--trace"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let issues: Vec<&serde_json::Value> = doc["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == "issue")
        .collect();
    let load = issues
        .iter()
        .find(|e| e["instruction"] == "ld.global.f32 %f1, [%rd6];")
        .expect("the load");
    assert_eq!(load["source"], "p01_map.cu:5: out[i] = a[i] + 10.0f;");
    let html = std::env::temp_dir().join(format!("warpsim-ptx-{}.html", std::process::id()));
    let o = sim(&[&args[..], &["--html", &html.to_string_lossy()]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("p01_map.O3.ptx:35 · p01_map.cu:5"),
        "the listing names both lines"
    );
    let _ = std::fs::remove_file(html);
}
