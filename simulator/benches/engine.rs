//! `cargo bench -p warpsim`: the whole-GPU engine on the workloads of `sim bench`, at sizes that take about a tenth of a
//! second each, on every core and on one. Throughput is in lane instructions (active lanes summed over warp
//! instructions), the figure `sim bench` reports; the full-size runs are `sim bench` commands (README).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use warpsim::{Config, Dim3, Kernel, Launch, Machine, NoTrace, RunOptions, programs};
use warpsim_isa::Value;

/// The workloads: a shipped program and its `--set` overrides.
const WORKLOADS: [(&str, &str, i64); 5] = [
    ("block_reduce", "n", 1 << 18),
    ("block_sum", "n", 1 << 18),
    ("butterfly_max", "warps", 1 << 13),
    ("moving_average", "size", 1 << 18),
    ("histogram_bin", "blocks", 2048),
];

fn kernel(name: &str, param: &str, value: i64, config: &Config) -> Kernel {
    let program = programs::assemble(name).expect("a shipped program").expect("assembles");
    let launch = Launch {
        set: vec![(param.to_string(), Value::Int(value))],
        ..Launch::default()
    };
    warpsim::instantiate(&program, config, &launch).expect("loads")
}

fn engine(c: &mut Criterion) {
    let config = Config::hopper();
    for (name, param, value) in WORKLOADS {
        let k = kernel(name, param, value, &config);
        let lanes = warpsim::run(&k, &config, &RunOptions::default(), &mut NoTrace)
            .expect("runs")
            .stats
            .lane_instructions;
        let mut group = c.benchmark_group(format!("{name}/{param}={value}"));
        group.throughput(Throughput::Elements(lanes));
        group.sample_size(10);
        for threads in [0, 1] {
            let options = RunOptions {
                threads,
                ..RunOptions::default()
            };
            let label = if threads == 0 { "all cores" } else { "1 thread" };
            group.bench_function(label, |b| {
                b.iter(|| warpsim::run(black_box(&k), &config, &options, &mut NoTrace).expect("runs"));
            });
        }
        group.finish();
    }
}

/// Small runs: every shipped program at its own launch (most are one block of one or a few warps), assembled
/// once and run on the default machine of 132 SMs; the throughput is programs per second, what the cross-check,
/// the Python package and the browser page see when they run thousands of small programs.
fn small(c: &mut Criterion) {
    let config = Config::hopper();
    let kernels: Vec<Kernel> = programs::names()
        .iter()
        .map(|name| {
            let program = programs::assemble(name).expect("a shipped program").expect("assembles");
            warpsim::instantiate(&program, &config, &Launch::default()).expect("loads")
        })
        .collect();
    let mut group = c.benchmark_group("shipped programs, one run each");
    group.throughput(Throughput::Elements(kernels.len() as u64));
    let options = RunOptions {
        threads: 1,
        ..RunOptions::default()
    };
    group.bench_function("1 thread", |b| {
        b.iter(|| {
            for k in &kernels {
                warpsim::run(black_box(k), &config, &options, &mut NoTrace).expect("runs");
            }
        });
    });
    group.finish();
}

/// A small compiled launch, as the Python package runs one: Numba's map over blocks (`programs/ptx/numba`), 16 blocks
/// of 256 threads, loaded and run with the per-instruction profile, on every core and on one. A launch's steps last
/// tens of microseconds: what it costs to hand them to other threads shows here.
fn small_ptx(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../programs/ptx/numba/p06_blocks.map_blocks.ptx"
    );
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: vec!["out=f32[4096]".into(), "a=f32[4096]=i%9".into()],
        sets: vec!["size=4096".into()],
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let program = warpsim::ptx::load(path, &args, false).expect("the corpus's map loads");
    let machine = Machine::new(Config::hopper()).expect("the default machine");
    let launch = Launch {
        grid: Some(Dim3::new(16, 1, 1)),
        block: Some(Dim3::new(256, 1, 1)),
        set: vec![("size".to_string(), Value::Int(4096))],
        ..Launch::default()
    };
    let mut group = c.benchmark_group("numba map, 16 blocks of 256, load and run");
    group.throughput(Throughput::Elements(1));
    for threads in [0, 1] {
        let options = RunOptions {
            threads,
            profile: true,
            ..RunOptions::default()
        };
        let label = if threads == 0 { "all cores" } else { "1 thread" };
        group.bench_function(label, |b| {
            b.iter(|| {
                let mut kernel = machine.load(black_box(&program), &launch).expect("loads");
                let memory = kernel.take_buffers();
                machine.run_on(&kernel, memory, &options, &mut NoTrace).expect("runs")
            });
        });
    }
    group.finish();
}

criterion_group!(benches, engine, small, small_ptx);
criterion_main!(benches);
