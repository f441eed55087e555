//! CUDA's `printf` (PTX's `call vprintf`): the text warpsim prints is the GPU's, byte for byte
//! (`programs/ptx/printf/printf_formats.gpu.txt`, printed by an H200), and where and when each call printed.

use std::path::{Path, PathBuf};
use warpsim::{Config, Dim3, Launch, RunOptions, RunOutput};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx/printf")
}

/// Run kernel file `file` of `programs/ptx/printf` on `grid` blocks of `block` threads, its pointer arguments
/// bound to `buffers` (as `sim run --buffer`).
fn run(file: &str, buffers: &[&str], grid: u32, block: u32) -> RunOutput {
    let text = std::fs::read_to_string(dir().join(file)).expect("the PTX file");
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: buffers.iter().map(ToString::to_string).collect(),
        sets: Vec::new(),
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let program = warpsim::ptx::load_text(file, &text, &args, &[], false).unwrap_or_else(|e| panic!("{e}"));
    let launch = Launch {
        grid: Some(Dim3::new(grid, 1, 1)),
        block: Some(Dim3::new(block, 1, 1)),
        ..Launch::default()
    };
    let config = Config::hopper();
    let kernel = warpsim::instantiate(&program, &config, &launch).unwrap_or_else(|e| panic!("{e:?}"));
    warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace)
        .unwrap_or_else(|f| panic!("{}", f.message()))
}

/// The `char *` argument: "warpsim!" and its NUL, as little-endian words.
const WORD: &str = "0=u32[4]=(i==0)*1886544247+(i==1)*560818547";

#[test]
fn printf_prints_the_gpus_text_byte_for_byte() {
    let out = run("printf_formats.ptx", &[WORD], 1, 32);
    let want = std::fs::read_to_string(dir().join("printf_formats.gpu.txt")).expect("the GPU's output");
    let got = warpsim::render::text::printed(&out);
    for (k, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {}", k + 1);
    }
    assert_eq!(got, want);
}

#[test]
fn each_call_is_recorded_with_its_thread_in_lane_order() {
    let out = run("printf_formats.ptx", &[WORD], 1, 32);
    // Eight calls by each of the 32 lanes, then two more by lane 0; a warp's lanes print in lane order.
    assert_eq!(out.printed.len(), 8 * 32 + 2);
    for (k, p) in out.printed.iter().take(8 * 32).enumerate() {
        assert_eq!((p.block, p.warp, p.lane as usize), (0, 0, k % 32), "call {k}");
        assert!(p.text.starts_with(&format!("{:2}: ", k % 32)), "call {k}: {:?}", p.text);
    }
    assert!(out.printed.windows(2).all(|w| w[0].cycle <= w[1].cycle));
    // The calls hold the warp: eight calls take the measured cost of each (timing.units.printf and
    // timing.printf_per_lane: 39,300 + 31 x 150 cycles).
    let t = &Config::hopper().timing;
    let call = u64::from(t.units.printf.latency) + 31 * u64::from(t.printf_per_lane);
    assert!(out.cycles >= 8 * call, "{} cycles", out.cycles);
}

/// Run a kernel of the CUDA corpus (`programs/ptx/cuda`) with its arguments bound by name.
fn run_cuda(file: &str, buffers: &[&str], sets: &[&str], grid: u32, block: u32) -> Result<RunOutput, warpsim::Fault> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../programs/ptx/cuda")
        .join(file);
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: buffers.iter().map(ToString::to_string).collect(),
        // (Each scalar argument bound to the program parameter of its name, set below.)
        sets: sets
            .iter()
            .map(|s| format!("{}=", s.split('=').next().unwrap_or(s)))
            .collect(),
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let program = warpsim::ptx::load(&path.display().to_string(), &args, false).unwrap_or_else(|e| panic!("{e}"));
    let set: Vec<(String, warpsim_isa::Value)> = sets
        .iter()
        .map(|s| {
            let (name, v) = s.split_once('=').expect("NAME=VALUE");
            (
                name.to_string(),
                warpsim_isa::Value::Int(v.parse().expect("an integer")),
            )
        })
        .collect();
    let launch = Launch {
        grid: Some(Dim3::new(grid, 1, 1)),
        block: Some(Dim3::new(block, 1, 1)),
        set,
        ..Launch::default()
    };
    let config = Config::hopper();
    let kernel = warpsim::instantiate(&program, &config, &launch).unwrap_or_else(|e| panic!("{e:?}"));
    warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace)
}

/// The corpus's hello-world kernel (`w26_printf_assert.cu`: `assert(n > 0)`, then a `printf` per thread).
#[test]
fn a_failed_assert_ends_the_run_naming_its_condition_file_line_and_function() {
    let fault = run_cuda("w26_printf_assert.O3.ptx", &["data=s32[4]=i*3"], &["n=0"], 1, 4).expect_err("asserts");
    assert_eq!(
        fault.kind,
        warpsim::FaultKind::Assertion(Box::new(warpsim::AssertionFailure {
            message: "n > 0".into(),
            file: "w26_printf_assert.cu".into(),
            line: 7,
            function: "void hello(const int *, int)".into(),
        }))
    );
    assert_eq!((fault.block, fault.warp, fault.lane), (0, 0, Some(0)));
    assert_eq!(
        fault.message(),
        "w26_printf_assert.cu:7: void hello(const int *, int): Assertion `n > 0` failed."
    );
    // With the condition true, every thread prints its line.
    let out = run_cuda("w26_printf_assert.O3.ptx", &["data=s32[8]=i*3"], &["n=8"], 2, 4).expect("runs");
    let text = warpsim::render::text::printed(&out);
    assert_eq!(text.lines().count(), 8);
    assert!(text.starts_with("Hello from block 0, thread 0: data[0] = 0 (0.000000)\nHello from block 0, thread 1: data[1] = 3 (1.500000)\n"), "{text}");
    assert!(
        text.contains("Hello from block 1, thread 3: data[7] = 21 (10.500000)\n"),
        "{text}"
    );
}
