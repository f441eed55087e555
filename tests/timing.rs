//! The timing model: calibration against the measured Hopper table, scheduling policies and configurations that
//! change cycles but never values, and the stall breakdown that accounts for every cycle.

use warpsim::{Config, Dim3, Kernel, Launch, RunOutput, SchedulerPolicy, programs};
use warpsim_tests::as_written;

fn run_with(name: &str, config: &Config) -> Result<RunOutput, warpsim::SimError> {
    let program = programs::assemble(name).expect("shipped").expect("assembles");
    warpsim::simulate(&program, config, &Launch::default())
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "figures the model is built to reproduce exactly, and the table's own numbers"
)]
fn every_calibration_row_is_within_ten_percent_of_the_h200() {
    let table = warpsim_tools::calibrate::table();
    let rows = warpsim_tools::calibrate::run_table(&table, &Config::hopper()).expect("every microbenchmark runs");
    assert_eq!(rows.len(), table.rows.len());
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| r.error.abs() > 0.10 || !r.simulated.is_finite())
        .map(|r| format!("{}: simulated {:.2}, measured {:.2}", r.name, r.simulated, r.measured))
        .collect();
    assert!(bad.is_empty(), "rows off by more than 10%:\n{}", bad.join("\n"));
    // Spot checks of exact figures the model is built to reproduce.
    let get = |name: &str| rows.iter().find(|r| r.name == name).expect(name).simulated;
    assert_eq!(get("clock64() back to back"), 2.0);
    assert_eq!(get("butterfly_max (5 x shfl.bfly + fmax, W=32), warm"), 150.0);
    // The rows behind issue 22's parameters are within 5%.
    for name in [
        "global atomic, dependent chain over 4096 lines (L2 slices' mean)",
        "global load, first touch of a line in L2, dependent chain over 4096 lines",
        "div.s64 dependent chain",
        "div.u64 dependent chain",
        "rem.s64 dependent chain",
        "rem.u64 dependent chain",
        "f32 global atomic min (CAS loop on the GPU), 1 lane",
        "f32 global atomic min (CAS loop on the GPU), 32 lanes on distinct words",
        "first global load of a launch, line not in L2 (DRAM), its pointer the launch's first parameter read",
        "kernel parameter, an SM's first read of a launch less its next read (ld.param, constant-bank miss)",
        "div.rn.f32 slow path (dividend 2^-110), one operation, less the fast path",
        "sqrt.rn.f32 slow path (2^-120), one operation, less the fast path",
        "div.rn.f64 slow path (dividend 2^-1000), one operation, less the fast path",
        "sqrt.rn.f64 slow path (2^-1000), one operation, less the fast path",
        "atom.shared.add.u64 (a CAS loop on the GPU) dependent chain, 32 lanes on distinct words",
        "atom.shared.add.u64 (a CAS loop on the GPU) dependent chain, all 32 lanes on one word",
        "global load, line not in L2 (DRAM), dependent",
        "global atomicAdd, different addresses",
        "bar.warp.sync bringing two diverged paths together, one an iteration",
        "bar.warp.sync bringing two diverged paths together, two an iteration",
        "if/else of 16 dependent mads a path in a loop, lanes alternate (both paths)",
        "if/else of 16 dependent mads a path in a loop, every lane branches",
        "if/else of 16 dependent mads a path in a loop, every lane falls through",
        "shfl.idx + add dependent chain, even lanes inside an if (diverged warp)",
        "shfl.idx + add dependent chain, whole warp",
        "shfl.bfly + fadd dependent pair",
        "shfl.bfly + fadd dependent pair, the offset an immediate",
        "f64 fma, 8 independent chains, 1 warp (per fma)",
        "global load, another 32-byte sector of a line in L1, dependent",
        "global load, the same 32-byte sector of a line in L1, dependent",
        "YIELD loop (atom.shared.add.u32 leaving on its result), every lane 64 passes",
        "YIELD loop, every lane 16 passes",
        "YIELD loop, lane k k+1 passes (31 releases, lanes waiting at bar.warp.sync)",
        "YIELD loop, lanes 0-3 passes by lane % 4",
        "YIELD loop, lanes 1 or 3 passes by lane % 2",
        "debug build (nvcc -G): global load and store loop, cycles a pass",
        "debug build (nvcc -G): shared store, load and shuffle loop, cycles a pass",
        "local store, then dependent ld.local of the same word and an add (L1 hit), a pass",
        "debug build (nvcc -G): div.u64 loop (a call of the unoptimised subroutine), cycles a pass",
        "debug build (nvcc -G): rem.s64 loop (a call of the unoptimised subroutine), cycles a pass",
        "global store burst, one line a store (lanes 1 word apart), 1 warp, per store",
        "global store burst, 2 lines a store (lanes 2 words apart), 1 warp, per store",
        "global store burst, 4 lines a store (lanes 4 words apart), 1 warp, per store",
        "global store burst, 8 lines a store (lanes 8 words apart), 1 warp, per store",
        "global store burst, 16 lines a store (lanes 16 words apart), 1 warp, per store",
        "global store burst, 32 lines a store (lanes 32 words apart), 1 warp, per store",
        "global store burst, 32 lines a store, 2 warps, per store of a warp",
        "global store burst, 32 lines a store, 4 warps, per store of a warp",
        "global store burst, 8 lines a store, 4 warps, per store of a warp",
        "global store burst, 4 lines a store, 8 warps, per store of a warp",
        "global store burst, one line a store, 8 warps, per store of a warp",
        "global store burst, one line a store, 16 warps, per store of a warp",
        "global store burst, each store on the 4 lines of the one before (merged), 1 warp, per store",
        "global store burst, each store on the 32 lines of the one before (not merged), 1 warp, per store",
        "global atomicAdd (32-bit) dependent chain on fresh lines, lanes 1 element apart (1 line a step)",
        "global atomicAdd (32-bit) dependent chain on fresh lines, lanes 4 elements apart (4 lines a step)",
        "global atomicAdd (32-bit) dependent chain on fresh lines, lanes 32 elements apart (32 lines a step)",
        "global atomicAdd (64-bit) dependent chain on fresh lines, lanes 1 element apart (2 lines a step)",
        "global atomicAdd (64-bit) dependent chain on fresh lines, lanes 4 elements apart (8 lines a step)",
        "global atomicAdd (64-bit) dependent chain on fresh lines, lanes 32 elements apart (32 lines a step)",
        "global red burst, 128 reds on fresh lines, the lanes 1 word apart (one line), per red",
        "global atomicAdd dependent chain on fresh lines, 2 lanes on one word",
        "global atomicAdd dependent chain on fresh lines, 8 lanes on one word",
        "global atomicAdd dependent chain on fresh lines, 32 lanes on one word",
        "div.u32 by a register that changes every iteration + add, dependent chain",
        "rem.u32 by a register that changes every iteration + add, dependent chain",
        "div.s32 by a register that changes every iteration + add, dependent chain",
        "rem.s32 by a register that changes every iteration + add, dependent chain",
        "div.u32 by a register that changes every iteration, 8 independent chains (cycles an iteration)",
        "loop ptxas unrolls (f32 loads), 16 passes less 4: three more groups of four passes (cycles a group)",
        "loop ptxas unrolls (f32 loads), 5 passes less 4: the fifth pass a group of its own",
        "loop ptxas unrolls (f32 loads), 7 passes less 8: groups of 4, 2 and 1 against two of 4 (one pass fewer, one group more)",
        "loop ptxas unrolls (f32 loads), 3 passes less 2: groups of 2 and 1 against one of 2",
        "loop ptxas unrolls (dot_f64's two f64 loads and an fma), 16 passes less 4: three more groups of four passes, 16 lines each (cycles a group)",
        "loop ptxas unrolls (dot_f64's two f64 loads and an fma), 5 passes less 4",
        "loop too long for ptxas to unroll (65 instructions), 16 passes less 8 (cycles a pass)",
    ] {
        let r = rows.iter().find(|r| r.name == name).expect(name);
        assert!(
            r.error.abs() <= 0.05,
            "{name}: simulated {:.2}, measured {:.2}",
            r.simulated,
            r.measured
        );
    }
    // The special-function unit's rows (`units.mufu`, `units.mufu_sequences`: `mufu_chain.s`) are within 5%.
    let mufu: Vec<_> = rows.iter().filter(|r| r.program == "mufu_chain").collect();
    assert_eq!(mufu.len(), 19, "the SFU's rows");
    for r in mufu {
        assert!(
            r.error.abs() <= 0.05,
            "{}: simulated {:.2}, measured {:.2}",
            r.name,
            r.simulated,
            r.measured
        );
    }
    // The debug build's integer loop is 19 SASS instructions a pass (19 × 15 = 285 measured); its classes' mean
    // counts (`timing.debug_build.sass`) make 20.07: within 6%.
    let r = rows
        .iter()
        .find(|r| r.name == "debug build (nvcc -G): integer multiply-add loop, cycles a pass")
        .expect("the row");
    assert!(
        r.error.abs() <= 0.06,
        "simulated {:.2}, measured {:.2}",
        r.simulated,
        r.measured
    );
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "figures the model is built to reproduce exactly, and the table's own numbers"
)]
fn the_calibration_table_lists_every_row_of_timing_h200() {
    // The rows of `timing-h200.md`, in its order: 28 of them.
    let table = warpsim_tools::calibrate::table();
    let from_reference: Vec<&str> = table
        .rows
        .iter()
        .filter(|r| r.source.starts_with("timing-h200.md"))
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(from_reference.len(), 28, "{from_reference:?}");
    for (name, measured) in [
        ("shfl.sync.idx dependent chain", 26.0),
        ("shared load, stride 32 words (32-way)", 91.0),
        ("__syncthreads with 32 warps", 76.0),
        ("butterfly_max (5 x shfl.bfly + fmax, W=32), warm", 146.0),
    ] {
        let row = table.rows.iter().find(|r| r.name == name).expect(name);
        assert_eq!(row.measured, measured, "{name}");
    }
}

#[test]
fn both_policies_and_an_edited_configuration_give_the_same_values() {
    let mut differs = 0;
    for name in programs::names() {
        for w in [8, 32] {
            let lrr = Config::hopper().with_warp_size(w);
            let Ok(base) = run_with(name, &lrr) else {
                assert_ne!(w, 32, "{name} runs at W=32");
                continue;
            };
            let mut gto = lrr.clone();
            gto.scheduler_policy = SchedulerPolicy::GreedyThenOldest;
            let mut slow = lrr.clone();
            slow.timing.units.shuffle.latency = 40;
            slow.timing.units.fma.interval = 3;
            slow.timing.memory.l1_miss_latency = 500;
            slow.timing.memory.l2_first_latency = 600;
            for (what, config) in [("gto", &gto), ("edited", &slow)] {
                let out = run_with(name, config).unwrap_or_else(|_| panic!("{name} W={w} {what} runs"));
                assert_eq!(out.buffers, base.buffers, "{name} at W={w} under {what}");
                assert_eq!(
                    out.stats.warp_instructions, base.stats.warp_instructions,
                    "{name} {what}"
                );
                if what == "edited" {
                    assert!(out.cycles > base.cycles, "{name} W={w}: slower units, more cycles");
                }
                differs += u32::from(out.cycles != base.cycles);
            }
        }
    }
    // Several warps per scheduler: greedy-then-oldest reorders them; the values stay.
    let mut gto = Config::hopper();
    gto.scheduler_policy = SchedulerPolicy::GreedyThenOldest;
    for (name, launch) in [
        (
            "histogram_bin",
            Launch {
                set: vec![("threads".into(), warpsim_isa::Value::Int(512))],
                ..Launch::default()
            },
        ),
        ("block_sum", Launch::default()),
    ] {
        let program = programs::assemble(name).expect("shipped").expect("assembles");
        let a = warpsim::simulate(&program, &Config::hopper(), &launch).expect("runs");
        let b = warpsim::simulate(&program, &gto, &launch).expect("runs");
        assert_eq!(a.buffers, b.buffers, "{name}");
        assert_ne!(
            a.cycles, b.cycles,
            "{name}: the policy matters with several warps per scheduler"
        );
    }
    assert!(differs > 0);
}

fn assert_breakdown_adds_up(name: &str, out: &RunOutput) {
    let st = &out.stats;
    assert!(st.warps > 0);
    assert_eq!(st.stalls.total(), st.warps * out.cycles, "{name}: totals");
    assert_eq!(st.warp_stalls.len() as u64, st.warps.min(1024), "{name}");
    let mut sum = warpsim::Stalls::default();
    for ws in &st.warp_stalls {
        assert_eq!(
            ws.stalls.total(),
            out.cycles,
            "{name}: block {} warp {}",
            ws.block,
            ws.warp
        );
        sum.issued += ws.stalls.issued;
    }
    assert_eq!(sum.issued, st.stalls.issued, "{name}: every issue belongs to a warp");
}

#[test]
fn every_warps_stall_breakdown_adds_up_to_the_run() {
    for name in programs::names() {
        let out = run_with(name, &Config::hopper()).expect("runs");
        assert_breakdown_adds_up(name, &out);
    }
    // butterfly_max at W=32: one warp, mostly waiting for operands (the load misses L1, shuffles take 24).
    let out = run_with("butterfly_max", &Config::hopper()).expect("runs");
    let s = out.stats.stalls;
    assert_eq!(out.stats.warps, 1);
    assert_eq!(s.issued, out.stats.warp_instructions);
    assert_eq!(
        (s.barrier, s.not_selected, s.not_launched, s.bank_conflict),
        (0, 0, 0, 0)
    );
    assert!(s.operands > out.cycles / 2, "{s:?}");
    assert!(s.control > 0, "the loop's taken branches: {s:?}");
    // Blocks placed later wait (on one SM: 40 blocks of 8 warps, 8 at a time), and barriers show up.
    let many = warpsim::simulate(
        &programs::assemble("block_sum").expect("shipped").expect("assembles"),
        &Config {
            sms: 1,
            ..Config::hopper()
        },
        &Launch {
            grid: Some(Dim3::x(40)),
            ..Launch::default()
        },
    )
    .expect("runs");
    assert_breakdown_adds_up("block_sum x 40", &many);
    assert!(many.stats.stalls.barrier > 0);
    assert!(many.stats.stalls.not_launched > 0, "{:?}", many.stats.stalls);
    assert!(many.stats.stalls.not_selected > 0, "{:?}", many.stats.stalls);
}

#[test]
fn bank_conflict_replays_are_their_own_stall() {
    let src = "\
.shared s u32[1024]
.reg %a, %v
    mul.lo.u32 %a, %laneid, 32
    ld.shared.u32 %v, s[%a]
    add.u32 %v, %v, 1
";
    let program = warpsim_tests::assemble(src);
    let out = warpsim::simulate(&program, &as_written(), &Launch::default()).expect("runs");
    // 32-way conflict: 31 extra ways x 2 cycles, all waited for by the dependent add.
    assert_eq!(out.stats.bank_conflict_cycles, 62);
    assert_eq!(out.stats.stalls.bank_conflict, 62);
}

#[test]
fn global_loads_hit_l1_after_the_first_miss() {
    let src = "\
.buffer g u32[64]
.reg %v
    ld.global.u32 %v, g[%laneid]
    ld.global.u32 %v, g[%laneid]
    ld.global.u32 %v, g[%laneid + 32]
";
    let program = warpsim_tests::assemble(src);
    let out = warpsim::simulate(&program, &as_written(), &Launch::default()).expect("runs");
    // 32 lanes x 4 bytes = one 128-byte line per access: miss, hit, then the second line misses.
    assert_eq!((out.stats.l1_hits, out.stats.l1_misses), (1, 2));
}

#[test]
fn another_sector_of_a_line_in_l1_misses_and_the_same_sector_hits() {
    // One lane reads word 0 of a line (a miss), word 8 (the line's second 32-byte sector: a miss, as on an H200,
    // calibration/measured/ubench16.cu), word 9 (the same sector: a hit) and word 0 again (a hit); each value is
    // used at once, so each add issues when its load's data arrives.
    let src = "\
.block 1
.buffer g u32[64]
.reg %v, %w
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[8]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[9]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
";
    let config = as_written();
    assert_eq!(config.timing.memory.sector_bytes, 32);
    let program = warpsim_tests::assemble(src);
    let out = warpsim::simulate(&program, &config, &Launch::default()).expect("runs");
    assert_eq!((out.stats.l1_hits, out.stats.l1_misses), (2, 2));
    let adds = issue_cycles(src, &config, &[1, 3, 5, 7]);
    let m = &config.timing.memory;
    let hit = u64::from(config.timing.units.global_load.latency);
    // The second sector comes from L2 (the line was touched: no first-touch cost); the others hit.
    assert_eq!(adds[1] - (adds[0] + 1), u64::from(m.l1_miss_latency) + 1);
    assert_eq!(adds[2] - (adds[1] + 1), hit + 1);
    assert_eq!(adds[3] - (adds[2] + 1), hit + 1);
    // With whole-line fills (`sector_bytes` = `line_bytes`) every load after the first hits.
    let mut whole = config.clone();
    whole.timing.memory.sector_bytes = whole.timing.memory.line_bytes;
    let out = warpsim::simulate(&program, &whole, &Launch::default()).expect("runs");
    assert_eq!((out.stats.l1_hits, out.stats.l1_misses), (3, 1));
    // A coalesced load of a whole line needs all its sectors: one miss, then hits.
    let src = ".buffer g u32[64]\n.reg %v\n    ld.global.u32 %v, g[%laneid]\n    ld.global.u32 %v, g[%laneid]\n";
    let out = warpsim::simulate(&warpsim_tests::assemble(src), &config, &Launch::default()).expect("runs");
    assert_eq!((out.stats.l1_hits, out.stats.l1_misses), (1, 1));
}

/// When the instructions at `pcs` of `src` issue, run on `config`.
fn issue_cycles(src: &str, config: &Config, pcs: &[u32]) -> Vec<u64> {
    let program = warpsim_tests::assemble(src);
    let kernel = warpsim::instantiate(&program, config, &Launch::default()).expect("launches");
    let mut events: Vec<warpsim::Event> = Vec::new();
    warpsim::run(&kernel, config, &warpsim::RunOptions::default(), &mut events).expect("runs");
    events
        .iter()
        .filter_map(|e| match e {
            warpsim::Event::Issue(i) if pcs.contains(&i.pc) => Some(i.cycle),
            _ => None,
        })
        .collect()
}

#[test]
fn a_lines_first_load_comes_from_its_l2_slice_or_dram() {
    // One lane: a load of line 0, a load of another line (line 1), a store to line 2 and a load
    // of it: each load's value is added at once, so each add issues when that load's data arrives.
    let src = "\
.block 1
.buffer g u32[1024]
.reg %v, %w
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[32]
    add.u32 %w, %v, 1
    st.global.u32 g[64], %w
    ld.global.u32 %v, g[64]
    add.u32 %w, %v, 1
";
    let adds = [1, 3, 6];
    let warm = as_written();
    let m = &warm.timing.memory;
    let (l2, first, dram) = (
        u64::from(m.l1_miss_latency),
        u64::from(m.l2_first_latency),
        u64::from(m.dram_latency),
    );
    assert_eq!((l2, first, dram), (287, 382, 463));
    // Buffers in L2 (as the cross-check runs kernels): a line's first load comes from its L2 slice; the stored
    // line, touched before, is a plain L2 hit.
    let a = issue_cycles(src, &warm, &adds);
    assert_eq!(a[0], first + 1);
    assert_eq!(a[1] - (a[0] + 1), first + 1);
    // Buffers not in L2: lines 0 and 1 come from DRAM; line 2, stored first, is then in L2.
    let mut cold = warm.clone();
    cold.timing.memory.buffers_in_l2 = false;
    let c = issue_cycles(src, &cold, &adds);
    assert_eq!(c[0], dram + 1);
    assert_eq!(c[1] - (c[0] + 1), dram + 1);
    assert_eq!(c[2] - a[2], c[1] - a[1], "the stored line is an L2 hit in both");
    // With the first touch priced as any L2 hit, nothing is tracked and the first two loads cost l2.
    let mut flat = warm.clone();
    flat.timing.memory.l2_first_latency = flat.timing.memory.l1_miss_latency;
    assert_eq!(flat.timing.memory.first_miss(), None);
    let f = issue_cycles(src, &flat, &adds);
    assert_eq!(f[0], l2 + 1);
    assert_eq!(f[1] - (f[0] + 1), l2 + 1);
    assert_eq!(f[2] - f[1], a[2] - a[1], "the third load costs the same");
}

#[test]
fn a_line_evicted_from_l1_costs_an_l2_hit_the_second_time() {
    // A one-way, one-set L1 (128 bytes): line 0, line 1 (evicts line 0), line 0 again: its first touch is
    // behind it, so it comes back at the L2 hit latency, not the first-touch one.
    let src = "\
.block 1
.buffer g u32[1024]
.reg %v, %w
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[32]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
";
    let mut c = as_written();
    c.timing.memory.l1_shared_bytes = 128;
    c.timing.memory.shared_carveouts_kib = vec![0];
    c.timing.memory.l1_ways = 1;
    let m = &c.timing.memory;
    let (l2, first) = (u64::from(m.l1_miss_latency), u64::from(m.l2_first_latency));
    let a = issue_cycles(src, &c, &[1, 3, 5]);
    assert_eq!(a[1] - (a[0] + 1), first + 1);
    assert_eq!(a[2] - (a[1] + 1), l2 + 1);
}

#[test]
fn a_second_warp_missing_on_a_line_in_flight_waits_for_the_same_fill() {
    // Two warps (on different schedulers) load the same 128-byte line one cycle apart: the first misses; the
    // second finds the line allocated but still being filled, so its data arrives with the first warp's.
    let src = "\
.block 64
.buffer g u32[32]
.buffer o u32[64]
.reg %v
    ld.global.u32 %v, g[%laneid]
    add.u32 %v, %v, 1
    st.global.u32 o[%tid.x], %v
";
    let (out, events) = warpsim_tests::run_text(src, 32);
    let out = out.expect("runs");
    assert_eq!((out.stats.l1_hits, out.stats.l1_misses), (1, 1));
    let adds: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            warpsim::Event::Issue(i) if i.pc == 1 => Some(i.cycle),
            _ => None,
        })
        .collect();
    // Both loads issue at cycle 0 (schedulers 0 and 1) and the pipe takes one line per cycle: the miss, the
    // line's first touch, is filled at 0 + 382; the add (another pipe) reads one cycle later.
    assert_eq!(adds, vec![383, 383]);
}

/// `calibration/programs/param_miss.ptx` at `threads` threads a block and `grid` blocks, on `config`: each warp's
/// first and second parameter read (`cyc[1 + 2w]`, `cyc[2 + 2w]`) and the run's cycles.
fn param_reads(config: &Config, threads: u32, grid: u32) -> (Vec<u32>, u64) {
    let text = programs::calibration_file("param_miss.ptx").expect("a calibration program");
    let args = warpsim::ptx::Arguments {
        buffers: vec!["cyc=u32[9]".into(), "a=u32[1]".into(), "b=u32[1]".into()],
        ..warpsim::ptx::Arguments::default()
    };
    let program = warpsim::ptx::load_text("param_miss.ptx", text, &args, &[], false).expect("loads");
    let launch = Launch {
        grid: Some(Dim3 { x: grid, y: 1, z: 1 }),
        block: Some(Dim3 { x: threads, y: 1, z: 1 }),
        ..Launch::default()
    };
    let out = warpsim::simulate(&program, config, &launch).expect("runs");
    let cyc = out.buffer("cyc").expect("cyc").data.clone();
    (cyc, out.cycles)
}

#[test]
fn an_sms_first_read_of_the_kernels_parameters_misses_once_and_the_reads_in_flight_wait_for_it() {
    let hopper = Config::hopper();
    assert_eq!(hopper.timing.memory.param_miss, 70);
    for miss in [70, 200] {
        let mut config = hopper.clone();
        config.timing.memory.param_miss = miss;
        let mut free = hopper.clone();
        free.timing.memory.param_miss = 0;
        let m = u64::from(miss);
        // One warp: its first read takes `miss` more; its second, of the same line, does not.
        let (with, cycles) = param_reads(&config, 1, 1);
        let (without, base) = param_reads(&free, 1, 1);
        assert_eq!(u64::from(with[1]), u64::from(without[1]) + m, "miss {miss}");
        assert_eq!(with[2], without[2], "miss {miss}");
        assert_eq!(cycles, base + m, "miss {miss}");
        // Four warps read together: one miss, which each waits for (not one each), so the run is `miss` longer.
        let (with, cycles) = param_reads(&config, 128, 1);
        let (without, base) = param_reads(&free, 128, 1);
        assert_eq!(cycles, base + m, "miss {miss}");
        for w in 0..4 {
            let first = |c: &[u32]| u64::from(c[1 + 2 * w]);
            assert!(
                first(&with) > first(&without) + m - 4,
                "warp {w}: {with:?} against {without:?}"
            );
            // (Within the few cycles by which the warps' issue order shifts.)
            assert!(
                first(&with) <= first(&without) + m + 4,
                "warp {w}: {with:?} against {without:?}"
            );
            assert_eq!(with[2 + 2 * w], without[2 + 2 * w], "warp {w}");
        }
        // Each SM misses once a launch: two blocks on one SM pay one miss; on two SMs, one each (in parallel).
        let mut one_sm = config.clone();
        one_sm.sms = 1;
        let mut one_sm_free = free.clone();
        one_sm_free.sms = 1;
        let (_, two_on_one) = param_reads(&one_sm, 32, 2);
        let (_, two_on_one_free) = param_reads(&one_sm_free, 32, 2);
        assert_eq!(two_on_one, two_on_one_free + m, "miss {miss}");
        let (_, two_on_two) = param_reads(&config, 32, 2);
        let (_, two_on_two_free) = param_reads(&free, 32, 2);
        assert_eq!(two_on_two, two_on_two_free + m, "miss {miss}");
    }
    // warpsim's own programs read no parameters: their values are constants.
    let mut dear = hopper.clone();
    dear.timing.memory.param_miss = 1000;
    for name in ["shfl_xor", "block_reduce", "dot_product"] {
        let a = run_with(name, &hopper).expect("runs");
        let b = run_with(name, &dear).expect("runs");
        assert_eq!(a.cycles, b.cycles, "{name}");
    }
}

/// `calibration/programs/NAME.ptx` (`param_line` or `param_hit`: sixteen pointer parameters, `cyc` and p1..p15,
/// read one at a time between clock reads) on `config`: `cyc`, the figure and each read's cycles.
fn param_line_reads(name: &str, config: &Config) -> Vec<u32> {
    let file = format!("{name}.ptx");
    let text = programs::calibration_file(&file).expect("a calibration program");
    let mut buffers = vec!["cyc=u32[16]".to_string()];
    buffers.extend((1..=15).map(|i| format!("p{i}=u32[1]")));
    let args = warpsim::ptx::Arguments {
        buffers,
        ..warpsim::ptx::Arguments::default()
    };
    let program = warpsim::ptx::load_text(&file, text, &args, &[], false).expect("loads");
    let out = warpsim::simulate(&program, config, &Launch::default()).expect("runs");
    out.buffer("cyc").expect("cyc").data.clone()
}

#[test]
fn each_64_byte_line_of_the_parameters_misses_once_and_every_read_takes_a_constant_banks_time() {
    let hopper = Config::hopper();
    let m = &hopper.timing.memory;
    assert_eq!(
        (m.param_miss, m.param_hit, m.param_line_bytes, m.param_bank_offset),
        (70, 30, 64, 0x210)
    );
    // p_i lies at c[0x0][0x218 + 8(i - 1)]: p1 opens line 0x200, p6 line 0x240, p14 line 0x280. A read's cycles,
    // clock to clock with its shared store: 7, plus the hit, plus the miss on a line's first read.
    let (hit, miss) = (7 + 30, 7 + 30 + 70);
    let expected =
        |misses: &[usize]| -> Vec<u32> { (1..=15).map(|i| if misses.contains(&i) { miss } else { hit }).collect() };
    let line = param_line_reads("param_line", &hopper);
    assert_eq!(line[1..], expected(&[1, 6, 14])[..]);
    assert_eq!(line[0], 2 * miss, "the figure: p6's read and p14's");
    let hits = param_line_reads("param_hit", &hopper);
    assert_eq!(hits[1..], line[1..]);
    assert_eq!(hits[0], 12 * hit, "the figure: the twelve reads that hit");
    // 128-byte lines: p1-p13 share line 0x200, p14 opens 0x280.
    let mut wide = hopper.clone();
    wide.timing.memory.param_line_bytes = 128;
    assert_eq!(param_line_reads("param_line", &wide)[1..], expected(&[1, 14])[..]);
    // The parameters starting at 0x240 instead: p1 opens line 0x240, p9 line 0x280.
    let mut moved = hopper.clone();
    moved.timing.memory.param_bank_offset = 0x240 - 8;
    assert_eq!(param_line_reads("param_line", &moved)[1..], expected(&[1, 9])[..]);
    // No hit time and no miss: every read is the mov's.
    let mut free = hopper.clone();
    free.timing.memory.param_miss = 0;
    free.timing.memory.param_hit = 0;
    assert!(param_line_reads("param_line", &free)[1..].iter().all(|&c| c == 7));
}

/// A PTX kernel whose parameter `b` (line 0x200 of the constant bank, which nothing else reads) the PTX reads at
/// the top and uses only after a guard's branch, or inside a loop when `in_loop`: the kernel, and when the
/// `cvta` of `b` and the store through it issue.
fn guarded_param(config: &Config, in_loop: bool) -> (Kernel, Vec<u64>) {
    let body = if in_loop {
        "mov.u32 %r2, 0;\n$loop:\ncvta.to.global.u64 %rd3, %rd2;\nst.global.u32 [%rd3], %r1;\n\
         add.u32 %r2, %r2, 1;\nsetp.lt.u32 %q, %r2, 2;\n@%q bra $loop;\n"
    } else {
        "cvta.to.global.u64 %rd3, %rd2;\nst.global.u32 [%rd3], %r1;\n"
    };
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 a, .param .u64 b)\n{{\n\
         .reg .b64 %rd<4>;\n.reg .b32 %r<4>;\n.reg .pred %p, %q;\n\
         ld.param.u64 %rd2, [b];\nmov.u32 %r1, %tid.x;\nsetp.ge.u32 %p, %r1, 64;\n@%p bra $done;\n{body}\
         $done:\nret;\n}}\n"
    );
    let args = warpsim::ptx::Arguments {
        buffers: vec!["a=u32[1]".into(), "b=u32[8]".into()],
        ..warpsim::ptx::Arguments::default()
    };
    let program = warpsim::ptx::load_text("guard.ptx", &text, &args, &[], false).expect("loads");
    let kernel = warpsim::instantiate(&program, config, &Launch::default()).expect("launches");
    let mut events: Vec<warpsim::Event> = Vec::new();
    warpsim::run(&kernel, config, &warpsim::RunOptions::default(), &mut events).expect("runs");
    let at = |text: &str| {
        let pc = kernel
            .program
            .instructions
            .iter()
            .position(|i| i.text.starts_with(text))
            .expect(text);
        events
            .iter()
            .find_map(|e| match e {
                warpsim::Event::Issue(i) if i.pc as usize == pc => Some(i.cycle),
                _ => None,
            })
            .expect("issues")
    };
    let cycles = vec![at("cvta"), at("st.global")];
    (kernel, cycles)
}

#[test]
fn a_parameter_is_read_at_the_top_of_the_block_that_uses_it() {
    use warpsim::kernel::sched;
    let hopper = Config::hopper();
    assert!(hopper.timing.memory.param_at_use);
    let (k, at) = guarded_param(&hopper, false);
    let pc = |text: &str| {
        k.program
            .instructions
            .iter()
            .position(|i| i.text.starts_with(text))
            .expect(text)
    };
    let (read, cvta) = (pc("ld.param"), pc("cvta"));
    // The read moves from the top to the guarded block's start, the cvta (its first instruction and `b`'s use).
    assert_eq!(k.code[read].sched & sched::PARAM, 0);
    assert_eq!(
        k.code[cvta].sched & (sched::PARAM_BLOCK | sched::PARAM_USE),
        sched::PARAM_BLOCK | sched::PARAM_USE
    );
    assert_eq!(k.param_line[cvta], [0x210 / 64, u32::MAX]);
    // Read where the PTX has it, the read is over before the branch is, and the store follows the cvta as it
    // follows any mov; read at the block's start, the warp waits there for the line's first read, a miss (70) and
    // the read (30), before the store.
    let mut in_place = hopper.clone();
    in_place.timing.memory.param_at_use = false;
    let (k, before) = guarded_param(&in_place, false);
    assert_ne!(k.code[read].sched & sched::PARAM, 0);
    assert_eq!(k.code[cvta].sched & (sched::PARAM_BLOCK | sched::PARAM_USE), 0);
    assert_eq!(before[1] - before[0], 5, "{before:?}");
    assert_eq!(at[1] - at[0], 5 + 70 + 30, "{at:?} against {before:?}");
    // A use inside a loop the read is not in: ptxas keeps the loop's invariant read out of it.
    let (k, _) = guarded_param(&hopper, true);
    assert_ne!(k.code[read].sched & sched::PARAM, 0);
    assert!(
        k.code
            .iter()
            .all(|c| c.sched & (sched::PARAM_BLOCK | sched::PARAM_USE) == 0)
    );
}

#[test]
fn a_buffers_partly_copied_last_sector_costs_its_first_load_and_first_atomic_a_fill() {
    let hopper = Config::hopper();
    let m = &hopper.timing.memory;
    assert_eq!((m.partial_sector_load, m.partial_sector_atomic), (161, 272));
    let load = |words: i64, config: &Config| calibration_cycles("partial_load", &[("words", words)], config);
    let atomic = |words: i64, config: &Config| calibration_cycles("partial_atomic", &[("words", words)], config);
    // A buffer of 6 or 1 words ends inside its only sector; 8 and 16 words fill whole sectors.
    for partial in [1, 6, 7] {
        assert_eq!(load(partial, &hopper), load(8, &hopper) + 161, "{partial} words");
        assert_eq!(atomic(partial, &hopper), atomic(8, &hopper) + 272, "{partial} words");
    }
    assert_eq!(load(16, &hopper), load(8, &hopper));
    assert_eq!(atomic(16, &hopper), atomic(8, &hopper));
    // Word 0 of a 9-word buffer lies in its first sector, which is whole: the partial second sector is not read.
    assert_eq!(load(9, &hopper), load(8, &hopper));
    // Buffers that do not start in L2 come from DRAM whole: nothing partial.
    let mut cold = hopper.clone();
    cold.timing.memory.buffers_in_l2 = false;
    assert_eq!(load(6, &cold), load(8, &cold));
    assert_eq!(atomic(1, &cold), atomic(8, &cold));
    // Only the first access waits for the fill: a second load of the line, or a second atomic, does not.
    let src = "
.block 1
.buffer g u32[6] = i
.buffer h u32[1]
.buffer o u32[8]
.reg %v, %s
    ld.global.u32 %v, g[0]
    add.u32 %s, %v, 1
    ld.global.u32 %v, g[5]
    add.u32 %s, %s, %v
    atom.global.add.u32 %v, h[0], 1
    add.u32 %s, %s, %v
    atom.global.add.u32 %v, h[0], 1
    add.u32 %s, %s, %v
    st.global.u32 o[0], %s
";
    let single = |config: &Config| issue_cycles(src, config, &[1, 3, 5, 7]);
    let with = single(&hopper);
    let mut free = hopper.clone();
    free.timing.memory.partial_sector_load = 0;
    free.timing.memory.partial_sector_atomic = 0;
    let without = single(&free);
    assert_eq!(with[0], without[0] + 161, "{with:?} against {without:?}");
    assert_eq!(
        with[1] - with[0],
        without[1] - without[0],
        "the second load: {with:?} against {without:?}"
    );
    assert_eq!(
        with[2] - with[1],
        without[2] - without[1] + 272,
        "{with:?} against {without:?}"
    );
    assert_eq!(
        with[3] - with[2],
        without[3] - without[2],
        "the second atomic: {with:?} against {without:?}"
    );
}

/// `cyc[0]` of calibration microbenchmark `name` (warpsim's ISA) with `set`, on `config`.
fn calibration_cycles(name: &str, set: &[(&str, i64)], config: &Config) -> u64 {
    let out = calibration_run(name, set, config);
    u64::from(out.buffer("cyc").expect("cyc").data[0])
}

/// The run of calibration microbenchmark `name` (warpsim's ISA) with `set`, on `config`.
fn calibration_run(name: &str, set: &[(&str, i64)], config: &Config) -> RunOutput {
    let program = programs::assemble_calibration(name)
        .expect("a calibration program")
        .expect("assembles");
    let launch = Launch {
        set: set
            .iter()
            .map(|(k, v)| (k.to_string(), warpsim_isa::Value::Int(*v)))
            .collect(),
        ..Launch::default()
    };
    warpsim::simulate(&program, config, &launch).expect("runs")
}

/// A division, reciprocal or square root with a directed rounding (`div.rz.f32`, `rcp.rm.f64`, …) calls ptxas's
/// subroutine whatever the operands: `timing.slow_paths.*_directed` beyond the `.rn` form's fast path, measured by
/// `ubench34.cu`'s dependent chains (the `directed_chain` rows); an f32 square root takes `sqrt.rn.f32`'s slow path
/// on its slow operands instead, and an f32 reciprocal is priced as `rcp.rn.f32`. `rcp.rn` (nvcc's `1.0f / x`) and
/// the f32 square root have units of their own (`units.fp32_rcp`, `fp64_rcp`, `fp32_sqrt`).
#[test]
fn a_directed_division_or_square_root_calls_its_subroutine_whatever_the_operands() {
    let hopper = as_written();
    let s = &hopper.timing.slow_paths;
    assert_eq!(
        (
            s.f32_div_directed,
            s.f32_sqrt_directed,
            s.f64_div_directed,
            s.f64_rcp_directed,
            s.f64_sqrt_directed
        ),
        (183, 33, 143, 173, 187)
    );
    // 256 operations a chain.
    let kind = |k: i64, config: &Config| calibration_cycles("directed_chain", &[("kind", k)], config);
    for (directed, nearest, extra) in [
        (1, 0, s.f32_div_directed),
        (3, 2, s.f32_sqrt_directed),
        (5, 4, s.f64_div_directed),
        (6, 4, s.f64_rcp_directed),
        (8, 7, s.f64_sqrt_directed),
    ] {
        assert_eq!(
            kind(directed, &hopper),
            kind(nearest, &hopper) + 256 * u64::from(extra),
            "kind {directed}"
        );
    }
    // With the parameters 0 the directed forms cost what the `.rn` ones do.
    let mut free = hopper.clone();
    let f = &mut free.timing.slow_paths;
    (
        f.f32_div_directed,
        f.f32_sqrt_directed,
        f.f64_div_directed,
        f.f64_rcp_directed,
        f.f64_sqrt_directed,
    ) = (0, 0, 0, 0, 0);
    for (directed, nearest) in [(1, 0), (3, 2), (5, 4), (6, 4), (8, 7)] {
        assert_eq!(kind(directed, &free), kind(nearest, &free), "kind {directed}");
    }
    // The reciprocals' and the f32 square root's chains (kinds 9, 10, 2) move by 256 times their unit's latency.
    let u = &hopper.timing.units;
    assert_eq!(
        (u.fp32_rcp.latency, u.fp64_rcp.latency, u.fp32_sqrt.latency),
        (75, 70, 55)
    );
    for (k, unit) in [(9, "fp32_rcp"), (10, "fp64_rcp"), (2, "fp32_sqrt")] {
        let mut slower = hopper.clone();
        let v = &mut slower.timing.units;
        let latency = match unit {
            "fp32_rcp" => &mut v.fp32_rcp.latency,
            "fp64_rcp" => &mut v.fp64_rcp.latency,
            _ => &mut v.fp32_sqrt.latency,
        };
        *latency += 10;
        assert_eq!(kind(k, &slower), kind(k, &hopper) + 2560, "{unit}");
    }
    // One warp, one f32 operation (`%r` from `%a`, loaded from `v`): its cycles.
    let one = |op: &str, bits: u32| {
        let text = format!(
            ".block 32\n.buffer v u32[32] = {bits}\n.buffer out u32[32]\n.reg %a, %r\n    ld.global.u32 %a, v[%tid.x]\n\
             {op}\n    st.global.u32 out[%tid.x], %r\n"
        );
        let program = warpsim_tests::assemble(&text);
        warpsim::simulate(&program, &hopper, &Launch::default())
            .expect("runs")
            .cycles
    };
    let (f15, f_120) = (0x3fc0_0000, 7 << 23);
    // sqrt.rz.f32 of 2^-120 takes sqrt.rn.f32's slow path, of 1.5 the directed subroutine.
    let (directed, nearest) = ("sqrt.rz.f32 %r, %a", "sqrt.rn.f32 %r, %a");
    assert_eq!(one(directed, f_120), one(nearest, f15) + u64::from(s.f32_sqrt));
    assert_eq!(one(directed, f15), one(nearest, f15) + u64::from(s.f32_sqrt_directed));
    // rcp.rz.f32 costs what rcp.rn.f32 does, on fast and slow operands alike; a slow one (a subnormal) takes
    // the f32 division's slow path.
    for bits in [f15, 1] {
        assert_eq!(
            one("rcp.rz.f32 %r, %a", bits),
            one("rcp.rn.f32 %r, %a", bits),
            "{bits:#x}"
        );
    }
    assert_eq!(
        one("rcp.rn.f32 %r, %a", 1),
        one("rcp.rn.f32 %r, %a", f15) + u64::from(s.f32_div)
    );
}

#[test]
fn an_ieee_division_or_square_root_on_slow_path_operands_holds_the_warp_for_its_subroutine() {
    let hopper = as_written();
    let s = &hopper.timing.slow_paths;
    assert_eq!((s.f32_div, s.f32_sqrt, s.f64_div, s.f64_sqrt), (210, 171, 253, 142));
    // Operand bits: 1.5 and 1.0 (f32), 2^-110 and 2^-120 (f32, below the fast paths' ranges), 1.5 and 2^-1000 (f64).
    let (f15, f1, f_110, f_120) = (0x3fc0_0000, 0x3f80_0000, 17 << 23, 7 << 23);
    let (d15, d_1000) = (0x3ff8_0000_0000_0000_i64, 23_i64 << 52);
    for (name, fast, slow, extra) in [
        (
            "fdiv_one",
            vec![("a", f15), ("b", f1)],
            vec![("a", f_110), ("b", f1)],
            s.f32_div,
        ),
        (
            "fdiv_one",
            vec![("a", f15), ("b", f1)],
            vec![("a", f1), ("b", 0)],
            s.f32_div,
        ),
        ("fsqrt_one", vec![("a", f15)], vec![("a", f_120)], s.f32_sqrt),
        ("fsqrt_one", vec![("a", f15)], vec![("a", 0xbf80_0000)], s.f32_sqrt),
        ("ddiv_one", vec![("a", d15)], vec![("a", d_1000)], s.f64_div),
        ("dsqrt_one", vec![("a", d15)], vec![("a", d_1000)], s.f64_sqrt),
    ] {
        let (a, b) = (
            calibration_cycles(name, &fast, &hopper),
            calibration_cycles(name, &slow, &hopper),
        );
        assert_eq!(b, a + u64::from(extra), "{name} {slow:?}");
    }
    // A parameter of 0 prices the slow path as the fast one.
    let mut free = hopper.clone();
    free.timing.slow_paths.f32_div = 0;
    assert_eq!(
        calibration_cycles("fdiv_one", &[("a", f_110)], &free),
        calibration_cycles("fdiv_one", &[("a", f15)], &free)
    );
    // One slow lane costs the warp the subroutine once, and the warp's next instruction waits for it: lane 3
    // divides 2^-110 by 1, the others 1.5 by 1.
    let src = |slow_lane: i64| {
        format!(
            ".block 32\n.buffer v u32[32] = (i == {slow_lane}) * {f_110} + (i != {slow_lane}) * {f15}\n.buffer out u32[32]\n\
             .reg %a, %r, %s\n    ld.global.u32 %a, v[%tid.x]\n    div.rn.f32 %r, %a, 1.0\n    add.u32 %s, %tid.x, 1\n\
             st.global.u32 out[%tid.x], %s\n"
        )
    };
    let add_issue = |text: &str| {
        let program = warpsim_tests::assemble(text);
        let kernel = warpsim::instantiate(&program, &hopper, &Launch::default()).expect("launches");
        let mut events: Vec<warpsim::Event> = Vec::new();
        warpsim::run(&kernel, &hopper, &warpsim::RunOptions::default(), &mut events).expect("runs");
        let at = |pc: u32| {
            events
                .iter()
                .find_map(|e| match e {
                    warpsim::Event::Issue(i) if i.pc == pc => Some(i.cycle),
                    _ => None,
                })
                .expect("issued")
        };
        at(2) - at(1)
    };
    let none = add_issue(&src(-1));
    assert_eq!(none, 1, "a fast division does not hold the warp");
    let one = add_issue(&src(3));
    let unit = u64::from(hopper.timing.units.fp32_div.latency);
    assert_eq!(one, unit + u64::from(s.f32_div), "the warp is held for the subroutine");
    assert_eq!(add_issue(&src(31)), one);
}

#[test]
fn a_shared_64_bit_atomic_add_is_a_compare_and_swap_loop_a_round_for_each_lane_on_a_word() {
    let hopper = Config::hopper();
    let retry = u64::from(hopper.timing.shared_cas_retry);
    assert_eq!(retry, 113);
    let per_op = |spread: i64| calibration_cycles("shared_atomic64", &[("spread", spread)], &hopper);
    let distinct = per_op(1);
    // 64 operations with all 32 lanes on one word: 31 rounds more each.
    assert_eq!(per_op(0), distinct + 64 * 31 * retry);
    // Two lanes to a word (spread 2) and 16 (spread 16) in between (their words also share banks).
    let (two, sixteen) = (per_op(2), per_op(16));
    assert!(
        distinct + 64 * retry <= two && two < sixteen,
        "{distinct} {two} {sixteen}"
    );
    assert!(
        distinct + 64 * 15 * retry <= sixteen && sixteen < per_op(0),
        "{sixteen}"
    );
    // The 32-bit add is the GPU's own instruction, not a loop: the retry does not price it.
    let mut dear = hopper.clone();
    dear.timing.shared_cas_retry = 1000;
    let chain32 = |c: &Config| calibration_cycles("shared_atomic", &[("spread", 0), ("iters", 64)], c);
    assert_eq!(chain32(&dear), chain32(&hopper));
    assert!(calibration_cycles("shared_atomic64", &[("spread", 0)], &dear) > per_op(0));
}

#[test]
fn odd_scheduler_counts_work_under_both_policies() {
    let base = run_with("histogram_bin", &Config::hopper()).expect("runs");
    for policy in [SchedulerPolicy::LooseRoundRobin, SchedulerPolicy::GreedyThenOldest] {
        for (schedulers, warps) in [(3, 64), (64, 5), (1, 64)] {
            let mut c = Config::hopper();
            c.scheduler_policy = policy;
            c.schedulers = schedulers;
            c.max_warps_per_sm = warps;
            let out = run_with("histogram_bin", &c).unwrap_or_else(|_| panic!("{schedulers} schedulers {policy:?}"));
            assert_eq!(out.buffers, base.buffers);
            assert_eq!(out.stats.stalls.total(), out.stats.warps * out.cycles);
        }
    }
}

#[test]
fn a_run_lasts_until_its_last_result_and_exits_use_no_issue_slot() {
    // Nothing but `exit`: one issue, no result, one cycle.
    let (out, _) = warpsim_tests::run_text("    exit\n", 32);
    assert_eq!(out.expect("runs").cycles, 1);
    // Warps released from a final barrier, and warps branching to the end, leave without issuing again.
    for src in [
        ".block 128\n.reg %v\n    mov.u32 %v, 1\n    bar.sync 0\n",
        ".block 128\n.reg %v\n.pred %p\n    setp.eq.u32 %p, %warpid, 0\n    @%p bra end\n    mov.u32 %v, 1\nend:\n",
    ] {
        let (out, _) = warpsim_tests::run_text(src, 32);
        let out = out.expect("runs");
        assert_eq!(out.stats.stalls.issued, out.stats.warp_instructions, "{src}");
        assert_eq!(out.stats.stalls.total(), out.stats.warps * out.cycles, "{src}");
    }
}

/// Run `name` (shipped) with the per-instruction profile on `threads` host threads.
fn profiled(name: &str, w: u32, set: &[(&str, i64)], threads: usize) -> (warpsim::Kernel, RunOutput) {
    let (program, launch) = warpsim_tests::load(name, set);
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &launch).expect("launches");
    let options = warpsim::RunOptions {
        profile: true,
        threads,
        ..warpsim::RunOptions::default()
    };
    let out = warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace).expect("runs");
    (kernel, out)
}

#[test]
fn every_cycle_of_every_warp_goes_to_one_instruction() {
    // Loops, divergence, barriers, shared memory and bank conflicts, atomics, several blocks per SM.
    for (name, w, set) in [
        ("block_reduce", 32, vec![]),
        ("histogram_bin", 8, vec![("threads", 64)]),
        ("transpose", 32, vec![("pad", 0)]),
        ("warp_aggregate", 32, vec![]),
        ("block_sum", 32, vec![("n", 4096)]),
        ("conditional_max", 16, vec![]),
        ("warp_pipeline", 32, vec![]),
    ] {
        let (_, out) = profiled(name, w, &set, 1);
        let st = out.stats.stalls;
        let sum = |f: fn(&warpsim::LineCycles) -> u64| out.lines.iter().map(f).sum::<u64>();
        assert_eq!(sum(|l| l.issued), st.issued, "{name}: issued");
        assert_eq!(sum(|l| l.operands), st.operands, "{name}: operands");
        assert_eq!(sum(|l| l.bank_conflict), st.bank_conflict, "{name}: bank conflicts");
        assert_eq!(sum(|l| l.unit_busy), st.unit_busy, "{name}: unit busy");
        assert_eq!(sum(|l| l.control), st.control, "{name}: control");
        assert_eq!(sum(|l| l.barrier), st.barrier, "{name}: barrier");
        assert_eq!(sum(|l| l.not_selected), st.not_selected, "{name}: not selected");
        assert_eq!(
            sum(warpsim::LineCycles::total) + st.not_launched + st.finished,
            st.total(),
            "{name}: every warp's cycles"
        );
        // The operand waits named by producer never exceed the waits.
        for l in &out.lines {
            let named: u64 = l.waited_on.iter().map(|w| w.1).sum();
            assert!(named <= l.operands + l.bank_conflict, "{name} pc {}", l.pc);
        }
    }
}

#[test]
fn the_profile_changes_nothing_else_and_is_the_same_on_any_number_of_threads() {
    let (program, launch) = warpsim_tests::load("block_sum", &[("n", 1 << 14)]);
    let config = Config::hopper();
    let kernel = warpsim::instantiate(&program, &config, &launch).expect("launches");
    let plain = warpsim::run(&kernel, &config, &warpsim::RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert!(plain.lines.is_empty());
    let (_, one) = profiled("block_sum", 32, &[("n", 1 << 14)], 1);
    assert_eq!(
        (one.cycles, &one.buffers, &one.stats),
        (plain.cycles, &plain.buffers, &plain.stats)
    );
    for threads in [2, 4] {
        assert_eq!(profiled("block_sum", 32, &[("n", 1 << 14)], threads).1.lines, one.lines);
    }
}

#[test]
fn an_operand_wait_is_given_to_the_waiting_instruction_and_names_its_producer() {
    // One warp: a global load (its line's first touch in L2), an add of its value, a
    // shuffle of the sum and an add of that.
    let src = "\
.buffer g u32[32]
.reg %v, %w, %x
    ld.global.u32 %v, g[%laneid]
    add.u32 %w, %v, 1
    shfl.sync.bfly.b32 %x, %w, 1
    add.u32 %x, %x, %w
";
    let program = warpsim_tests::assemble(src);
    let config = as_written();
    let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("launches");
    let options = warpsim::RunOptions {
        profile: true,
        ..warpsim::RunOptions::default()
    };
    let out = warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace).expect("runs");
    let m = &config.timing.memory;
    let load = u64::from(m.l2_first_latency);
    let u = &config.timing.units;
    let line = |pc: usize| &out.lines[pc];
    // The add issues when the load's data is there: it waited that long less the cycle the load issued in,
    // plus the pipe switch (the load's result comes from another pipe).
    let switch = u64::from(config.timing.pipe_switch);
    assert_eq!(line(1).operands, load - 1 + switch);
    assert_eq!(line(1).waited_on, vec![(0, load - 1 + switch)]);
    // The shuffle waits for the add (FMA pipe, then the shuffle pipe): its latency less one, plus the switch.
    assert_eq!(line(2).waited_on, vec![(1, u64::from(u.fma.latency) - 1 + switch)]);
    // The last add waits for the shuffle.
    assert_eq!(line(3).waited_on, vec![(2, u64::from(u.shuffle.latency) - 1 + switch)]);
    assert!(out.lines.iter().all(|l| l.issued == 1));
}

#[test]
fn a_64_bit_division_holds_the_warp_and_a_32_bit_one_does_not() {
    // A division, then an instruction that does not use its result: after a 32-bit division it issues a cycle
    // later; after a 64-bit one (a subroutine on the GPU) only when the division is done.
    let src = |ty: &str| {
        format!(
            "\
.block 1
.reg.b64 %q
.reg %r, %v, %w
    mov.b64 %q, 1000
    mov.u32 %r, 1000
    div.{ty} {dst}, {src}, 7
    add.u32 %v, %r, 1
",
            dst = if ty.ends_with("64") { "%q" } else { "%w" },
            src = if ty.ends_with("64") { "%q" } else { "%r" },
        )
    };
    let c = as_written();
    let u = &c.timing.units;
    let gap = |ty: &str| {
        let at = issue_cycles(&src(ty), &c, &[2, 3]);
        at[1] - at[0]
    };
    assert_eq!(gap("u32"), 1);
    assert_eq!(gap("u64"), u64::from(u.int_div64.latency));
    assert_eq!(gap("s64"), u64::from(u.int_div64_signed.latency));
    // rem too.
    let rem = src("s64").replace("div.s64", "rem.s64");
    let at = issue_cycles(&rem, &c, &[2, 3]);
    assert_eq!(at[1] - at[0], u64::from(u.int_div64_signed.latency));
}

#[test]
fn an_f32_atomic_min_on_global_memory_is_a_compare_and_swap_loop_that_holds_the_warp() {
    // `red.global.min.f32` has no result, yet the warp waits for the loop the GPU runs for it; other `red`s let
    // the next instruction issue a cycle later. On shared memory it is a shared atomic.
    let c = Config::hopper();
    let gap = |red: &str| {
        let src = format!(
            "\
.block 32
.buffer g f32[32]
.buffer h u32[32]
.shared s f32[32]
.reg %v, %w
    mov.u32 %v, 3
    {red}
    add.u32 %w, %v, 1
"
        );
        let at = issue_cycles(&src, &c, &[1, 2]);
        at[1] - at[0]
    };
    let cas = u64::from(c.timing.units.global_atomic_cas.latency);
    assert_eq!(gap("red.global.min.f32 g[%laneid], %v"), cas);
    assert_eq!(gap("red.global.max.f32 g[%laneid], %v"), cas);
    assert_eq!(gap("red.global.min.u32 h[%laneid], %v"), 1);
    assert_eq!(gap("red.global.add.f32 g[%laneid], %v"), 1);
    assert_eq!(gap("red.shared.min.f32 s[%laneid], %v"), 1);
}

#[test]
fn an_atomic_no_lane_executes_takes_only_its_issue_slot() {
    // 32 warps reach a `red`. Where only thread 0 executes it, the 31 warps whose lanes all skip it send nothing
    // to the atomic unit and do not queue behind one another (measured: an H200 pays about 45 cycles for such a
    // 1024-thread block's `red`s, not 31 atomic-unit intervals); where lane 0 of every warp executes it, each
    // warp's atomic holds the SM's atomic pipe for `memory.atomic_issue` (6 cycles: 31 × 6 = 186 from the first to
    // the last), and each waits at L2, not at the SM, for the line's earlier ones.
    let src = |pred: &str| {
        format!(
            "\
.block 1024
.buffer h u32[1]
.reg %v
.pred %p
    mov.u32 %v, 3
    setp.eq.u32 %p, {pred}, 0
    @%p red.global.add.u32 h[0], %v
"
        )
    };
    let c = Config::hopper();
    let spread = |pred: &str| {
        let reds = issue_cycles(&src(pred), &c, &[2]);
        assert_eq!(reds.len(), 32);
        reds.iter().max().unwrap() - reds.iter().min().unwrap()
    };
    let issue = u64::from(c.timing.memory.atomic_issue);
    let (skipped, executed) = (spread("%tid.x"), spread("%laneid"));
    assert_eq!(executed, 31 * issue);
    assert!(skipped < 31 * issue / 2, "{skipped}");
}

#[test]
fn a_configuration_file_from_before_the_new_classes_loads_with_their_defaults() {
    // A configuration written before `int_div64`, `int_div64_signed`, `global_atomic_cas`, `l2_first_latency`,
    // `warp_sync_diverged`, `warp_sync_partial`, `convergence_barrier`, `hoist_loads` and `sector_bytes` existed still loads, with the built-in machine's figures for them.
    // `unroll` likewise, and `shuffle_reg` under its old name `shuffle_idx`.
    let mut doc = serde_json::to_value(Config::hopper()).expect("serialises");
    let units = doc["timing"]["units"].as_object_mut().expect("units");
    for k in ["int_div64", "int_div64_signed", "global_atomic_cas"] {
        assert!(units.remove(k).is_some(), "{k}");
    }
    let reg = units.remove("shuffle_reg").expect("shuffle_reg");
    units.insert("shuffle_idx".into(), reg);
    let memory = doc["timing"]["memory"].as_object_mut().expect("memory");
    assert!(memory.remove("l2_first_latency").is_some());
    assert!(memory.remove("sector_bytes").is_some());
    let timing = doc["timing"].as_object_mut().expect("timing");
    for k in [
        "warp_sync_diverged",
        "warp_sync_partial",
        "convergence_barrier",
        "hoist_loads",
        "unroll",
    ] {
        assert!(timing.remove(k).is_some(), "{k}");
    }
    let back: Config = serde_json::from_value(doc).expect("loads");
    assert_eq!(back, Config::hopper());
    // A sector that is not a power of two, larger than a line, or a 65th of one is refused.
    for bad in [48, 256, 1] {
        let mut c = Config::hopper();
        c.timing.memory.sector_bytes = bad;
        let Err(e) = warpsim::Machine::new(c) else {
            panic!("sector_bytes {bad} accepted");
        };
        assert!(
            e.contains("`timing.memory.sector_bytes` must be a power of two"),
            "{bad}: {e}"
        );
    }
}

#[test]
fn a_warp_sync_that_brings_diverged_paths_together_holds_the_warp() {
    // Under ITS, the two halves of a warp meet at their own `bar.warp.sync`s: the warp issues again
    // `warp_sync_diverged` cycles after the meeting; converged lanes pass a `bar.warp.sync` at once.
    let src = |split: bool| {
        format!(
            "\
.scheduling its
.block 8
.reg %v, %w
.pred %lo
    setp.lt.u32 %lo, %laneid, {half}
    @!%lo bra upper
    bar.warp.sync 0xff
    add.u32 %v, %laneid, 1
    exit
upper:
    bar.warp.sync 0xff
    add.u32 %w, %laneid, 2
",
            half = if split { 4 } else { 8 }
        )
    };
    let c = Config::hopper();
    let hold = u64::from(c.timing.warp_sync_diverged);
    assert_eq!(hold, 360);
    // Split: one half waits at its `bar.warp.sync` (no issue), the other's completes the meeting (pc 2 or 5);
    // the released half's `bar.warp.sync` and both adds (pcs 3 and 6) follow, the first `hold` cycles later.
    let at = issue_cycles(&src(true), &c, &[2, 3, 5, 6]);
    assert_eq!(at.len(), 4, "{at:?}");
    assert_eq!(at[1] - at[0], hold, "{at:?}");
    assert_eq!((at[2] - at[1], at[3] - at[2]), (1, 1), "{at:?}");
    // With the cost set to 0, the same run takes `hold` cycles less.
    let mut free = c.clone();
    free.timing.warp_sync_diverged = 0;
    let f = issue_cycles(&src(true), &free, &[2, 3, 5, 6]);
    assert_eq!(at[3] - f[3], hold - (f[1] - f[0]), "{f:?}");
    // Converged: the add issues a cycle after the sync.
    let at = issue_cycles(&src(false), &c, &[2, 3]);
    assert_eq!(at[1] - at[0], 1);
}

#[test]
fn a_global_atomic_drops_its_line_from_l1_and_a_store_does_not() {
    // One lane loads word 0 (its line fills L1), then touches word 1 of the same line, then loads word 0 again:
    // after a store the load hits L1; after an atomic (performed at L2) it misses, as on the GPU
    // (calibration/measured/ubench14.cu: 33 cycles against 260-306).
    let src = |between: &str| {
        format!(
            "\
.block 1
.buffer g u32[64]
.reg %v, %w
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
    {between}
    ld.global.u32 %v, g[0]
    add.u32 %w, %v, 1
"
        )
    };
    let c = as_written();
    // `between` is one or two instructions (pcs 2, 3): the second load and its add follow.
    let second_load = |between: &str| {
        let n = u32::try_from(between.lines().count()).expect("small");
        let at = issue_cycles(&src(between), &c, &[2 + n, 3 + n]);
        at[1] - at[0]
    };
    // The add reads the load's result a pipe switch after it is ready.
    let switch = u64::from(c.timing.pipe_switch);
    let (hit, miss) = (
        u64::from(c.timing.units.global_load.latency) + switch,
        u64::from(c.timing.memory.l1_miss_latency) + switch,
    );
    assert_eq!(second_load("st.global.u32 g[1], %w"), hit);
    // (The atomic's result is waited for, so that the load does not wait for the atomic to complete.)
    assert_eq!(
        second_load("atom.global.add.u32 %w, g[1], 1\n    add.u32 %w, %w, 1"),
        miss
    );
    assert_eq!(
        second_load("atom.global.exch.b32 %w, g[1], 1\n    add.u32 %w, %w, 1"),
        miss
    );
    // An atomic on another line leaves this one.
    assert_eq!(
        second_load("atom.global.add.u32 %w, g[32], 1\n    add.u32 %w, %w, 1"),
        hit
    );
}

#[test]
fn a_branch_that_may_diverge_pays_the_convergence_barrier_at_its_join_and_a_uniform_one_does_not() {
    // `@%p bra join` over one add, then the join's add: the instruction after the join issues
    // `convergence_barrier` later when %p may differ between lanes (it reads %laneid), once if the lanes agree
    // and twice if they split; a branch on a value every lane holds alike (%ctaid) has no convergence barrier.
    let src = |cond: &str| {
        format!(
            "\
.block 32
.reg %v, %w, %x
.pred %p
    setp.{cond}
    @%p bra join
    add.u32 %v, %laneid, 1
join:
    add.u32 %w, %laneid, 2
    add.u32 %x, %laneid, 3
"
        )
    };
    let c = Config::hopper();
    let cb = u64::from(c.timing.convergence_barrier);
    assert_eq!(cb, 16);
    let mut free = c.clone();
    free.timing.convergence_barrier = 0;
    // The last instruction's issue, with and without the barrier's cost.
    let extra = |cond: &str| {
        let end = |config: &Config| *issue_cycles(&src(cond), config, &[4]).last().expect("issued");
        end(&c) - end(&free)
    };
    // The lanes agree (no lane is below 0), uniform or not: the branch falls through.
    assert_eq!(extra("lt.u32 %p, %laneid, 0"), cb, "may diverge");
    assert_eq!(extra("lt.u32 %p, %ctaid.x, 0"), 0, "uniform: no barrier");
    // Split: the divergent branch pays once more, for its second path.
    assert_eq!(extra("lt.u32 %p, %laneid, 16"), 2 * cb);
}

#[test]
fn with_hoist_loads_a_load_is_timed_from_where_the_compiler_could_have_issued_it() {
    // A store waits for a long global load; the shared load after it has its address since the start. With
    // `hoist_loads` its latency runs from the start of the block (it is ready when it issues); without, from
    // where it stands. A global load after the global store is not moved above the store.
    let src = "\
.block 32
.buffer g u32[64]
.shared s u32[32]
.reg %a, %v, %w
    ld.global.u32 %a, g[%laneid]
    st.global.u32 g[32], %a
    ld.shared.u32 %v, s[%laneid]
    add.u32 %w, %v, 1
    ld.global.u32 %v, g[%laneid]
    add.u32 %w, %v, 1
";
    let off = as_written();
    assert!(!off.timing.hoist_loads, "off by default");
    let mut on = off.clone();
    on.timing.hoist_loads = true;
    let switch = u64::from(off.timing.pipe_switch);
    let shared = u64::from(off.timing.units.shared_load.latency);
    let hit = u64::from(off.timing.units.global_load.latency);
    // (store, shared load, its add, global load, its add)
    let at = |c: &Config| issue_cycles(src, c, &[1, 2, 3, 4, 5]);
    let a = at(&off);
    assert_eq!((a[2] - a[1], a[4] - a[3]), (shared + switch, hit + switch), "{a:?}");
    // Hoisted: the shared load is ready a cycle after it issues (its wait is behind it); the global load after
    // the global store starts no sooner than the cycle after the store.
    let h = at(&on);
    assert_eq!(h[2] - h[1], 1 + switch, "{h:?}");
    assert_eq!(h[4] - h[0], 1 + hit + switch, "{h:?}");
    // The values are the program's either way.
    let program = warpsim_tests::assemble(src);
    let run = |c: &Config| {
        let k = warpsim::instantiate(&program, c, &Launch::default()).expect("loads");
        warpsim::run(&k, c, &warpsim::RunOptions::default(), &mut warpsim::NoTrace).expect("runs")
    };
    assert_eq!(run(&on).buffers, run(&off).buffers);
}

#[test]
fn a_warp_synchronous_instruction_on_one_path_of_a_diverged_warp_pays_the_slow_path() {
    // A shuffle among the even lanes inside an `if` (the odd lanes wait at its join) has its result
    // `warp_sync_partial` later than the same shuffle by the whole warp, or after the odd lanes exited.
    let src = |body: &str| {
        format!(
            "\
.scheduling its
.block 32
.reg %x, %odd
.pred %p
    and.b32 %odd, %laneid, 1
    setp.ne.u32 %p, %odd, 0
{body}
    shfl.sync.idx.b32 %x, %laneid, 0, mask=0x55555555
    add.u32 %x, %x, 1
done:
    add.u32 %odd, %odd, 1
"
        )
    };
    let c = as_written();
    let gap = |body: &str| {
        let at = issue_cycles(&src(body), &c, &[3, 4]);
        at[1] - at[0]
    };
    let exited = gap("    @%p exit");
    let diverged = gap("    @%p bra done");
    assert_eq!(diverged - exited, u64::from(c.timing.warp_sync_partial));
    assert_eq!(c.timing.warp_sync_partial, 36);
}

/// The pcs of `src` whose decoded instruction carries scheduling flag `flag`.
fn flagged(src: &str, flag: u16) -> Vec<usize> {
    let program = warpsim_tests::assemble(src);
    let kernel = warpsim::instantiate(&program, &Config::hopper(), &Launch::default()).expect("launches");
    (0..kernel.code.len())
        .filter(|&pc| kernel.code[pc].sched & flag != 0)
        .collect()
}

#[test]
fn a_loop_with_an_atomic_yields_where_ptxas_puts_a_yield() {
    use warpsim::kernel::sched::{RELEASE_FALLTHROUGH, RELEASE_TAKEN, YIELD};
    // A loop of `trips` passes over a global atomic (pc 3), leaving at its head (pc 2); `before`/`after` go
    // before the loop and after it.
    let src = |body: &str, before: &str, after: &str| {
        format!(
            "\
.block 32
.buffer g u32[32]
.buffer q u64[32] = i + 1
.reg %c, %r
.reg.b64 %x, %y
    and.b32 %c, %laneid, 3
{before}
loop:
    setp.eq.u32 %p, %c, 0
    @%p bra end
{body}
    sub.u32 %c, %c, 1
    bra loop
end:
{after}
    st.global.u32 g[%laneid], %c
"
        )
        .replace(".reg %c, %r\n", ".reg %c, %r\n.pred %p\n")
    };
    let atomic = "    atom.global.add.u32 %r, g[%laneid], 1";
    let division = "    ld.global.u64 %x, q[%laneid]\n    div.u64 %y, %x, %x\n    st.global.u64 q[%laneid], %y";
    let nothing = "    add.u32 %r, %r, 1";
    // A 64-bit division after the loop: the loop's atomic gets the `YIELD`, its way out is a release.
    assert_eq!(flagged(&src(atomic, nothing, division), YIELD), vec![4]);
    assert_eq!(flagged(&src(atomic, nothing, division), RELEASE_TAKEN), vec![3]);
    // Before the loop, none (ptxas: a call before a loop gives it no `YIELD`); without an atomic, none.
    assert!(flagged(&src(atomic, division, nothing), YIELD).is_empty());
    assert!(flagged(&src("    ld.global.u32 %r, g[%laneid]", nothing, division), YIELD).is_empty());
    // A division whose result the next instruction overwrites is dead code (nvcc removes it): none.
    let dead = "    ld.global.u64 %x, q[%laneid]\n    div.u64 %y, %x, %x\n    mov.b64 %y, %x\n    st.global.u64 q[%laneid], %y";
    assert!(flagged(&src(atomic, nothing, dead), YIELD).is_empty());
    // One behind a branch on a register compared with itself, which nvcc folds (never reached): none.
    let folded = format!("    setp.lt.s32 %p, %c, %c\n    @!%p bra skip\n{division}\nskip:");
    assert!(flagged(&src(atomic, nothing, &folded), YIELD).is_empty());
    let kept = format!("    setp.lt.s32 %p, %c, %r\n    @!%p bra skip\n{division}\nskip:");
    assert_eq!(flagged(&src(atomic, nothing, &kept), YIELD), vec![4]);
    // An IEEE f32 division or square root calls its slow path: a `YIELD`.
    let fdiv = "    cvt.rn.f32.u32 %r, %c\n    div.rn.f32 %r, %r, %r\n    st.global.u32 g[%laneid], %r";
    assert_eq!(flagged(&src(atomic, nothing, fdiv), YIELD), vec![4]);
    // Without a call, a loop that leaves on its atomic's result spins: a `YIELD`; one that overwrites that
    // result before it tests does not.
    let spin = "    atom.global.add.u32 %r, g[%laneid], 1\n    setp.eq.u32 %p, %r, 99\n    @%p bra end";
    assert_eq!(flagged(&src(spin, nothing, nothing), YIELD), vec![4]);
    assert_eq!(flagged(&src(spin, nothing, nothing), RELEASE_TAKEN), vec![3, 6]);
    let overwritten =
        "    atom.global.add.u32 %r, g[%laneid], 1\n    mov.u32 %r, %c\n    setp.eq.u32 %p, %r, 99\n    @%p bra end";
    assert!(flagged(&src(overwritten, nothing, nothing), YIELD).is_empty());
    // A way out reached only through a branch on the atomic's result spins too.
    let decided =
        "    atom.global.add.u32 %r, g[%laneid], 1\n    setp.eq.u32 %p, %r, 99\n    @!%p bra on\n    exit\non:";
    assert_eq!(flagged(&src(decided, nothing, nothing), YIELD), vec![4]);
    // A loop leaving by its back edge: the lanes that fall through are released.
    let do_while = "\
.block 32
.buffer g u32[32]
.reg %c, %r
.pred %p
    and.b32 %c, %laneid, 3
loop:
    atom.global.add.u32 %r, g[%laneid], 1
    sub.u32 %c, %c, 1
    setp.ne.u32 %p, %r, 99
    @%p bra loop
    st.global.u32 g[%laneid], %c
";
    assert_eq!(flagged(do_while, YIELD), vec![1]);
    assert_eq!(flagged(do_while, RELEASE_FALLTHROUGH), vec![4]);
    // `timing.yield_loops` off: no loop is marked.
    let mut off = Config::hopper();
    off.timing.yield_loops = false;
    let kernel = warpsim::instantiate(&warpsim_tests::assemble(do_while), &off, &Launch::default()).expect("launches");
    assert!(kernel.code.iter().all(|i| i.sched & (YIELD | RELEASE_FALLTHROUGH) == 0));
}

#[test]
fn a_yield_holds_the_warp_each_pass_and_the_lanes_it_releases_run_on_alone() {
    let hopper = Config::hopper();
    let t = &hopper.timing;
    assert_eq!((t.yield_stall, t.yield_release, t.yield_diverged), (43, 31, 63));
    let mut none = hopper.clone();
    none.timing.yield_stall = 0;
    none.timing.yield_release = 0;
    none.timing.yield_diverged = 0;
    // Every lane 64 passes: the `YIELD` costs each pass `yield_stall`.
    let uniform = [("n", 64), ("step", 0)];
    assert_eq!(
        calibration_cycles("yield_loop", &uniform, &hopper) - calibration_cycles("yield_loop", &uniform, &none),
        64 * u64::from(t.yield_stall)
    );
    // Lane k k + 1 passes: 31 releases, and 31 passes with released lanes waiting.
    let mut stall_only = none.clone();
    stall_only.timing.yield_stall = t.yield_stall;
    let lanes = [("n", 1), ("step", 1)];
    assert_eq!(
        calibration_cycles("yield_loop", &lanes, &hopper) - calibration_cycles("yield_loop", &lanes, &stall_only),
        31 * u64::from(t.yield_release + t.yield_diverged)
    );
    // After the loop, lanes 0-15 (one pass) run the rest of the program before lanes 16-31 (two passes) go on:
    // each lane's clock after a tail of dependent multiply-adds. Without the division (no `YIELD`) they meet at
    // the loop's end and read one clock.
    let src = |call: &str| {
        format!(
            "\
.block 32
.buffer g u32[32]
.buffer q u64[32] = i + 1
.buffer cyc u32[32]
.reg %c, %r, %v, %k
.reg.b64 %x, %y
.pred %p
    shr.u32 %c, %laneid, 4
    add.u32 %c, %c, 1
    mov.u32 %v, %laneid
loop:
    setp.eq.u32 %p, %c, 0
    @%p bra end
    red.global.min.u32 g[%laneid], %v
    sub.u32 %c, %c, 1
    bra loop
end:
    mad.lo.u32 %v, %v, 3, 1
    mad.lo.u32 %v, %v, 3, 1
    mad.lo.u32 %v, %v, 3, 1
    mad.lo.u32 %v, %v, 3, 1
    mov.u32 %k, %clock
    st.global.u32 cyc[%laneid], %k
{call}
    st.global.u32 g[%laneid], %v
"
        )
    };
    let clocks = |text: &str| {
        let out = warpsim::simulate(&warpsim_tests::assemble(text), &hopper, &Launch::default()).expect("runs");
        (
            out.buffer("cyc").expect("cyc").data.clone(),
            out.buffer("g").expect("g").data.clone(),
        )
    };
    let call = "    ld.global.u64 %x, q[%laneid]\n    div.u64 %y, %x, %x\n    st.global.u64 q[%laneid], %y";
    let (apart, values) = clocks(&src(call));
    let (together, same) = clocks(&src(
        "    ld.global.u64 %x, q[%laneid]\n    add.u64 %y, %x, %x\n    st.global.u64 q[%laneid], %y",
    ));
    assert_eq!(values, same, "the same values");
    assert!(together.iter().all(|&c| c == together[0]), "{together:?}");
    assert!(apart[..16].iter().all(|&c| c == apart[0]) && apart[16..].iter().all(|&c| c == apart[16]));
    assert!(apart[16] > apart[0] + 4 * 4, "{apart:?}");
}

/// A straight line timed by two clock reads, in PTX of `.target sm_90` plus `target` (`", debug"` for a debug
/// build): `cyc[0]` is the second read less the first; returns it and the program. (A store through the buffer's
/// pointer before the first clock read: the parameters' reads are done before it.)
fn debug_line(target: &str, config: &Config) -> (u32, warpsim_isa::Program) {
    let text = format!(
        ".version 8.0\n.target sm_90{target}\n.address_size 64\n\
         .visible .entry k(.param .u64 cyc, .param .u64 buf)\n{{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [cyc];\nld.param.u64 %rd2, [buf];\nmov.u32 %r1, %tid.x;\nst.u32 [%rd2], %r1;\n\
         mov.u64 %rd3, %clock64;\nadd.s32 %r2, %r1, 1;\ncvt.u64.u32 %rd4, %r2;\nst.u32 [%rd2+4], %r2;\n\
         mov.u64 %rd5, %clock64;\nsub.s64 %rd6, %rd5, %rd3;\ncvt.u32.u64 %r4, %rd6;\nst.u32 [%rd1], %r4;\nret;\n}}\n"
    );
    let args = warpsim::ptx::Arguments {
        buffers: vec!["cyc=u32[1]".into(), "buf=u32[2]".into()],
        ..warpsim::ptx::Arguments::default()
    };
    let program = warpsim::ptx::load_text("line.ptx", &text, &args, &[], false).expect("loads");
    let launch = Launch {
        block: Some(Dim3 { x: 32, y: 1, z: 1 }),
        ..Launch::default()
    };
    let out = warpsim::simulate(&program, config, &launch).expect("runs");
    (out.buffer("cyc").expect("cyc").data[0], program)
}

#[test]
fn a_debug_build_holds_each_warp_for_the_sass_ptxas_makes_of_each_instruction() {
    use warpsim::DebugClass as C;
    let hopper = Config::hopper();
    assert_eq!(hopper.timing.debug_build.instruction, 15);
    // Each PTX instruction of a debug build carries its class; optimised code carries none.
    let (_, debug) = debug_line(", debug", &hopper);
    let classes: Vec<Option<C>> = debug.instructions.iter().map(|i| i.debug).collect();
    assert_eq!(
        classes,
        [
            Some(C::ParamEntry),
            Some(C::ParamEntry),
            Some(C::MovSpecial),
            Some(C::Store),
            Some(C::MovSpecial),
            Some(C::Alu),
            Some(C::Cvt64),
            Some(C::Store),
            Some(C::MovSpecial),
            Some(C::Alu64),
            Some(C::Cvt64),
            Some(C::Store),
            Some(C::Ret),
            None, // the exit the lowering adds after the last instruction
        ]
    );
    let (optimised, plain) = debug_line("", &hopper);
    assert!(plain.instructions.iter().all(|i| i.debug.is_none()));
    // Between the clock reads: the first read, the add, the conversion and the store, each holding the warp for
    // (n - 1) x 15 cycles and then 15 (none waits longer for its result): n = 2.2, 1.4, 5.2 and 7.0.
    for instruction in [15, 20] {
        let mut config = hopper.clone();
        config.timing.debug_build.instruction = instruction;
        let s = &config.timing.debug_build.sass;
        // (n - 1) x instruction before the last SASS instruction, then the last one's `instruction` (no result here
        // takes longer).
        let hold = |tenths: u32| {
            let before_last = tenths * instruction / 10 - instruction;
            before_last + instruction
        };
        let expected = hold(s.mov_special) + hold(s.alu) + hold(s.cvt64) + hold(s.store);
        let (cycles, _) = debug_line(", debug", &config);
        assert_eq!(cycles, expected, "{instruction} cycles an instruction");
        if instruction == 15 {
            assert_eq!(cycles, 33 + 21 + 78 + 105);
        }
    }
    // The same line optimised is priced as optimised code: not a third of that.
    assert!(3 * optimised < 33 + 21 + 78 + 105, "{optimised}");
}

/// One warp of PTX that stores `stores` (0 or 1) words to its local memory and then loads the first one back:
/// the run's L1 hits and misses.
fn local_reload(stores: u32) -> (u64, u64) {
    let store = if stores > 0 { "st.local.u32 [%SPL], %r1;\n" } else { "" };
    let text = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 out)\n{{\n\
         .local .align 16 .b8 __local_depot0[16];\n.reg .b64 %SPL;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
         mov.u64 %SPL, __local_depot0;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n\
         mov.u32 %r1, %tid.x;\n{store}ld.local.u32 %r2, [%SPL];\nst.global.u32 [%rd2], %r2;\nret;\n}}\n"
    );
    let args = warpsim::ptx::Arguments {
        buffers: vec!["out=u32[1]".into()],
        ..warpsim::ptx::Arguments::default()
    };
    let program = warpsim::ptx::load_text("local.ptx", &text, &args, &[], false).expect("loads");
    let launch = Launch {
        block: Some(Dim3 { x: 32, y: 1, z: 1 }),
        ..Launch::default()
    };
    let out = warpsim::simulate(&program, &Config::hopper(), &launch).expect("runs");
    (out.stats.l1_hits, out.stats.l1_misses)
}

#[test]
fn a_store_to_local_memory_stays_in_l1_and_the_load_after_it_hits() {
    // Measured on an H200 (`calibration/measured/local-store-load-h200-2026-11-28.txt`): a thread's stores to its
    // local memory are read back from L1. Global stores do not allocate; local ones do.
    assert_eq!(local_reload(1), (1, 0));
    // Without the store, the load's line comes from L2.
    assert_eq!(local_reload(0), (0, 1));
}

/// `timing.dead_code` (on by default): what the compiler removes as dead code costs its issue slot only, and
/// every value stays the program's.
#[test]
fn with_dead_code_on_an_unread_result_costs_its_issue_slot_and_no_value_changes() {
    let on = Config::hopper();
    assert!(on.timing.dead_code);
    let off = as_written();
    let run = |src: &str, config: &Config| {
        warpsim::simulate(&warpsim_tests::assemble(src), config, &Launch::default()).expect("runs")
    };
    // A load whose register the next instruction overwrites: off, the `mov` waits for the load's write (382
    // cycles, a line's first touch); on, the load is dead and touches no line.
    let overwritten = "\
.buffer g u32[64]
.buffer out u32[32]
.reg %v
    ld.global.u32 %v, g[%laneid]
    mov.u32 %v, 7
    st.global.u32 out[%laneid], %v
";
    let without_load = "\
.buffer g u32[64]
.buffer out u32[32]
.reg %v
    mov.u32 %v, 7
    st.global.u32 out[%laneid], %v
";
    let (a, b, c) = (run(overwritten, &off), run(overwritten, &on), run(without_load, &on));
    assert!(a.cycles > b.cycles + 300, "off {} on {}", a.cycles, b.cycles);
    assert_eq!((a.stats.l1_hits, a.stats.l1_misses), (0, 1));
    assert_eq!((b.stats.l1_hits, b.stats.l1_misses), (0, 0));
    // Its issue slot is all that is left of it.
    assert_eq!(b.cycles, c.cycles + 1);
    let out = |o: &warpsim::RunOutput| warpsim_tests::u32s(o, "out");
    assert_eq!(out(&a), out(&b));
    // A dead instruction that overwrites a global atomic's destination still waits for the atomic's old value,
    // which reaches the register at the commit: the kept `add` after it, and the values stored after two dependent
    // loads (long past the commit), are the program's.
    let atomic = "\
.buffer c u32[1]
.buffer g u32[32]
.buffer out u32[32]
.reg %v, %w
    atom.global.add.u32 %v, c[0], 1
    mov.u32 %v, 5
    add.u32 %v, %laneid, 100
    ld.global.u32 %w, g[%laneid]
    ld.global.u32 %w, g[%w]
    add.u32 %v, %v, %w
    st.global.u32 out[%laneid], %v
";
    let kernel = warpsim::instantiate(&warpsim_tests::assemble(atomic), &on, &Launch::default()).expect("loads");
    assert_eq!(
        (1..4).map(|pc| kernel.is_dead(pc)).collect::<Vec<_>>(),
        [true, false, false]
    );
    for config in [&on, &off] {
        assert_eq!(out(&run(atomic, config)), (100..132).collect::<Vec<u32>>());
    }
    // A parameter read the compiler removes (into a register nothing reads) misses no constant cache: the SM's first
    // kept read pays the miss, even when the removed one came long before it (twenty dependent adds, 80 cycles,
    // more than the miss).
    let kernel = |dead_read: bool| {
        let adds = "\tadd.u32 %r2, %r2, 1;\n".repeat(20);
        format!(
            ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 k_a, .param .u64 k_out)\n{{\n\
             .reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n{}\tmov.u32 %r1, 5;\n\tmov.u32 %r2, %tid.x;\n{adds}\
             \tld.param.u64 %rd1, [k_out];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tst.global.u32 [%rd2], %r1;\n\
             \tst.global.u32 [%rd2+4], %r2;\n\tret;\n}}\n",
            if dead_read { "\tld.param.u32 %r0, [k_a];\n" } else { "" }
        )
    };
    let params = |dead_read: bool, config: &Config| {
        let args = warpsim::ptx::Arguments {
            buffers: vec!["k_out=u32[2]".into()],
            sets: vec!["k_a=9".into()],
            ..warpsim::ptx::Arguments::default()
        };
        let program = warpsim::ptx::load_text("params.ptx", &kernel(dead_read), &args, &[], false).expect("loads");
        let launch = Launch {
            block: Some(Dim3 { x: 1, y: 1, z: 1 }),
            ..Launch::default()
        };
        let out = warpsim::simulate(&program, config, &launch).expect("runs");
        assert_eq!(out.buffer("k_out").expect("k_out").data, [5, 20]);
        out.cycles
    };
    assert_eq!(params(true, &on), params(false, &on) + 1, "its issue slot only");
    // As written, the first read misses, and the kept one, long after it, hits.
    // Timed as written, the unused read misses first, behind the adds, and the kept read hits: the miss is hidden.
    assert!(params(false, &off) > params(true, &off) + 60, "as written");
    // A value read later is not dead: the same cycles on and off.
    let read = "\
.buffer g u32[64]
.buffer out u32[32]
.reg %v
    ld.global.u32 %v, g[%laneid]
    st.global.u32 out[%laneid], %v
";
    assert_eq!(run(read, &off).cycles, run(read, &on).cycles);
    // `%laneid < 32` at W = 32 is true in every lane: nvcc folds it, the `exit` is taken by all, and the loads
    // and the shuffle before it feed nothing that stays; the comparison itself reads nothing either.
    let exits = "\
.buffer g u32[128]
.buffer out u32[64]
.reg %a, %b, %c
.pred %q
    ld.global.u32 %a, g[%laneid]
    ld.global.u32 %b, g[%laneid + 32]
    shfl.sync.idx.b32 %c, %a, %b
    setp.lt.u32 %q, %laneid, 32
    @%q exit
    st.global.u32 out[%laneid], %c
";
    let (a, b) = (run(exits, &off), run(exits, &on));
    assert!(a.cycles > 300, "off {}", a.cycles);
    assert!(b.cycles < 40, "on {}", b.cycles);
    assert_eq!(out(&a), out(&b));
    // At W = 64 the same comparison differs between lanes: nothing is folded, and the loads are timed.
    let mut wide = on.clone();
    wide.warp_size = 64;
    let mut wide_off = off.clone();
    wide_off.warp_size = 64;
    assert_eq!(run(exits, &wide).cycles, run(exits, &wide_off).cycles);
}

#[test]
fn a_warps_stores_issue_apart_and_wait_for_room_in_the_sms_queue_as_unit_busy() {
    let hopper = Config::hopper();
    let d = &hopper.timing.memory.store_drain;
    assert_eq!(
        (d.issue, d.sector, d.line, d.queue, d.entries, d.part_entries),
        (6, 100, 100, 86, 28, 7)
    );
    let run = |set: &[(&str, i64)], config: &Config| calibration_run("store_burst", set, config);
    // One warp, 128 one-line stores: 4 cycles of work each, less than the 6 between them, so the queue never
    // fills. Lane 0's store right before the first clock read holds the first store 6 cycles from it; the clock
    // region is then 128 gaps of 6 cycles.
    let one = run(&[("spread", 1), ("step", 32)], &hopper);
    assert_eq!(one.buffer("cyc").expect("cyc").data[0], 128 * 6);
    // Each store after the first waits 5 cycles for the one before (and the first 4 for lane 0's store before the
    // clock read): unit busy, not a lost turn to another warp (there is none).
    let s = &one.stats.stalls;
    assert_eq!((s.unit_busy, s.not_selected), (127 * 5 + 4, 0), "{s:?}");
    // 32 lines a store: 63 cycles of work. The queue holds 86 + 28 x 63 = 1850, so once it is full the pipe takes
    // a store as 63 cycles of work drain: the last of 128 issues when the 127 before it, less 1850, are done.
    let wide = run(&[("spread", 32), ("step", 1024)], &hopper);
    let cycles = wide.buffer("cyc").expect("cyc").data[0];
    assert!((127 * 63 - 1850..127 * 63 - 1850 + 63).contains(&cycles), "{cycles}");
    // With no room limit the stores go at the issue rate, as one-line stores do.
    let mut roomy = hopper.clone();
    roomy.timing.memory.store_drain.queue = 1_000_000;
    let free = run(&[("spread", 32), ("step", 1024)], &roomy);
    assert_eq!(free.buffer("cyc").expect("cyc").data[0], 128 * 6);
    // Merging: the same 4 lines again and again queue nothing after the first. With merging off each store queues
    // its 16 or 17 sectors and 4 or 5 lines (its lanes move one word along each time), and the queue fills.
    let merged = run(&[("spread", 4), ("step", 1)], &hopper);
    assert_eq!(merged.buffer("cyc").expect("cyc").data[0], 128 * 6);
    let mut apart = hopper.clone();
    apart.timing.memory.store_drain.merge_lines = 0;
    let unmerged = run(&[("spread", 4), ("step", 1)], &apart);
    assert_eq!(
        unmerged.buffer("cyc").expect("cyc").data[0],
        1919,
        "{:?}",
        unmerged.stats
    );
}

/// How many cycles after the first `shfl.sync.bfly` of `setup` (a program's body, whose result is stored) the first
/// `add.u32` that reads the shuffle's result issues.
fn shuffle_to_use(setup: &str, config: &Config) -> u64 {
    let src = format!(
        ".buffer g u32[32] = 1\n.reg %v, %t, %o\n.pred %p\n    mov.u32 %v, %laneid\n{setup}\n    st.global.u32 g[%laneid], %v\n"
    );
    issue_to_use(&src, config, &|op| matches!(op, warpsim_isa::ast::Op::Shfl { .. }))
}

/// Cycles from the issue of the first instruction of `src` that `from` picks to that of the `add` that reads
/// its result (`%t`, register 1).
fn issue_to_use(src: &str, config: &Config, from: &dyn Fn(&warpsim_isa::ast::Op) -> bool) -> u64 {
    use warpsim_isa::ast::{BinaryOp, Op, Operand};
    let program = warpsim_tests::assemble(src);
    let kernel = warpsim::instantiate(&program, config, &Launch::default()).expect("launches");
    let mut events: Vec<warpsim::Event> = Vec::new();
    warpsim::run(&kernel, config, &warpsim::RunOptions::default(), &mut events).expect("runs");
    // The `add` that reads the result (`%t`, register 1), not the counter's.
    let is_use = |op: &Op| matches!(op, Op::Binary { op: BinaryOp::Add, b: Operand::Reg(r), .. } if r.0 == 1);
    let issue = |pick: &dyn Fn(&Op) -> bool| {
        events
            .iter()
            .find_map(|e| match e {
                warpsim::Event::Issue(i) if pick(&program.instructions[i.pc as usize].op) => Some(i.cycle),
                _ => None,
            })
            .expect("issued")
    };
    issue(&is_use) - issue(from)
}

/// A shuffle whose offset is a register the `SHFL` reads takes 2 cycles more than one with an immediate
/// (`units.shuffle_reg`, `ubench28.cu`): a register that only holds one constant, or the counter of a loop nvcc
/// unrolls completely (`timing.unroll`), is an immediate in the `SHFL`.
#[test]
fn a_shuffles_register_offset_costs_two_cycles_unless_the_compiler_makes_it_an_immediate() {
    let hopper = Config::hopper();
    // The shuffle's latency, then the switch to the ALU's pipe.
    let imm = u64::from(hopper.timing.units.shuffle.latency + hopper.timing.pipe_switch);
    assert_eq!(imm, 25);
    let reg = u64::from(hopper.timing.units.shuffle_reg.latency + hopper.timing.pipe_switch);
    assert_eq!(reg, 27);
    let immediate = "    shfl.sync.bfly.b32 %t, %v, 1\n    add.u32 %v, %v, %t";
    assert_eq!(shuffle_to_use(immediate, &hopper), imm);
    let loaded = "    ld.global.u32 %o, g[0]\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(shuffle_to_use(loaded, &hopper), reg);
    let constant = "    mov.u32 %o, 1\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(shuffle_to_use(constant, &hopper), imm);
    // The warp-level macros' loop: five passes, unrolled.
    let counted = "    mov.u32 %o, 16\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                   shr.u32 %o, %o, 1\n    setp.ne.u32 %p, %o, 0\n    @%p bra step";
    assert_eq!(shuffle_to_use(counted, &hopper), imm);
    // Other instructions between the counter's `mov` and the loop: the same loop.
    let apart = "    mov.u32 %o, 16\n    add.u32 %v, %v, 3\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                 shr.u32 %o, %o, 1\n    setp.ne.u32 %p, %o, 0\n    @%p bra step";
    assert_eq!(shuffle_to_use(apart, &hopper), imm);
    // A counter updated only on some passes (a branch jumps over its update): not a counted loop.
    let skipping = "    mov.u32 %o, 16\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                    setp.eq.u32 %p, %v, 12345\n    @%p bra keep\n    shr.u32 %o, %o, 1\nkeep:\n    \
                    setp.ne.u32 %p, %o, 0\n    @%p bra step";
    assert_eq!(shuffle_to_use(skipping, &hopper), reg);
    // A loop inside the body: not unrolled.
    let nested = "    mov.u32 %o, 16\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t\ninner:\n    \
                  setp.eq.u32 %p, %v, 12345\n    @%p bra inner\n    shr.u32 %o, %o, 1\n    setp.ne.u32 %p, %o, 0\n    \
                  @%p bra step";
    assert_eq!(shuffle_to_use(nested, &hopper), reg);
    let mut kept = hopper.clone();
    kept.timing.unroll = 0;
    assert_eq!(shuffle_to_use(counted, &kept), reg);
    // 32 passes of a 5-instruction body is past the threshold of 150 instructions: not unrolled.
    let mut small = hopper.clone();
    small.timing.unroll = 150;
    let long = "    mov.u32 %o, 0\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                add.u32 %o, %o, 1\n    setp.lt.u32 %p, %o, 32\n    @%p bra step";
    assert_eq!(shuffle_to_use(long, &small), reg);
    assert_eq!(shuffle_to_use(long, &hopper), imm);
    // A counter that does not start at a constant (read from memory) makes no counted loop.
    let loaded_start = "    ld.global.u32 %o, g[0]\n    add.u32 %o, %o, 15\nstep:\n    shfl.sync.bfly.b32 %t, %v, %o\n    \
                        add.u32 %v, %v, %t\n    shr.u32 %o, %o, 1\n    setp.ne.u32 %p, %o, 0\n    @%p bra step";
    assert_eq!(shuffle_to_use(loaded_start, &hopper), reg);
    // Nor does a loop entered past its head.
    let entered = "    mov.u32 %o, 16\n    setp.eq.u32 %p, %laneid, 40\n    @%p bra inside\nstep:\n    \
                   shfl.sync.bfly.b32 %t, %v, %o\ninside:\n    add.u32 %v, %v, %t\n    shr.u32 %o, %o, 1\n    \
                   setp.ne.u32 %p, %o, 0\n    @%p bra step";
    assert_eq!(shuffle_to_use(entered, &hopper), reg);
}

/// Cycles from a `div`/`rem` to the `add` that reads its result (`%t`), after `setup` (which ends with the
/// division and that `add`).
fn division_to_use(setup: &str, config: &Config) -> u64 {
    use warpsim_isa::ast::{BinaryOp, Op};
    let src = format!(
        ".buffer g u32[32] = 7\n.reg %v, %t, %o, %i\n.pred %p\n    mov.u32 %v, %laneid\n    mov.u32 %i, 0\n{setup}\n    st.global.u32 g[%laneid], %v\n"
    );
    issue_to_use(&src, config, &|op| {
        matches!(
            op,
            Op::Binary {
                op: BinaryOp::Div | BinaryOp::Rem,
                ..
            }
        )
    })
}

/// A 32-bit division by a register computed where it is used runs ptxas's whole sequence (`units.int_div_reg`,
/// signed `int_div_reg_signed`; `ubench29.cu`); by a constant, or by a register its loop never writes (ptxas
/// computes the reciprocal before the loop), what is left is `units.int_div`.
#[test]
fn a_division_by_a_register_runs_the_whole_sequence_unless_the_divisor_is_constant_or_loop_invariant() {
    let hopper = Config::hopper();
    let t = &hopper.timing;
    let cost = |u: warpsim::config::Unit| u64::from(u.latency + t.pipe_switch);
    let (plain, reg, signed) = (
        cost(t.units.int_div),
        cost(t.units.int_div_reg),
        cost(t.units.int_div_reg_signed),
    );
    assert_eq!((plain, reg, signed), (47, 124, 137));
    let loaded = "    ld.global.u32 %o, g[0]\n    div.u32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(loaded, &hopper), reg);
    let remainder = "    ld.global.u32 %o, g[0]\n    rem.u32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(remainder, &hopper), reg);
    let loaded_signed = "    ld.global.u32 %o, g[0]\n    div.s32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(loaded_signed, &hopper), signed);
    let immediate = "    div.u32 %t, %v, 7\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(immediate, &hopper), plain);
    let moved = "    mov.u32 %o, 7\n    div.u32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(moved, &hopper), plain);
    // Computed from constants only: nvcc folds it.
    let folded = "    shr.u32 %o, 14, 1\n    div.u32 %t, %v, %o\n    add.u32 %v, %v, %t";
    assert_eq!(division_to_use(folded, &hopper), plain);
    // Guarded, the value depends on the lanes: a register.
    let guarded = "    mov.u32 %o, 7\n    setp.eq.u32 %p, %laneid, 3\n    @%p mov.u32 %o, 5\n    div.u32 %t, %v, %o\n    \
                   add.u32 %v, %v, %t";
    assert_eq!(division_to_use(guarded, &hopper), reg);
    // In a loop that never writes the divisor: the reciprocal is computed before it.
    let invariant = "    ld.global.u32 %o, g[0]\nloop:\n    div.u32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                     add.u32 %i, %i, 1\n    setp.lt.u32 %p, %i, 4\n    @%p bra loop";
    assert_eq!(division_to_use(invariant, &hopper), plain);
    // A loop that changes it every pass.
    let changing = "    ld.global.u32 %o, g[0]\nloop:\n    div.u32 %t, %v, %o\n    add.u32 %v, %v, %t\n    \
                    add.u32 %o, %o, 1\n    add.u32 %i, %i, 1\n    setp.lt.u32 %p, %i, 4\n    @%p bra loop";
    assert_eq!(division_to_use(changing, &hopper), reg);
}

/// A loop whose trip count is known only at run time, ptxas unrolls (`timing.runtime_unroll`, `ubench32.cu`): four
/// passes at a time while four are left, then two, then one, each group's loads issued at once. The calibration
/// loop (one f32 load a pass, its line in L2) costs a round trip per group and a pass's issue slots within one:
/// `cycles(t) = cycles(1) + (groups(t) − 1) · trip + (t − groups(t)) · pass`, where `trip` is what each pass costs
/// with the model off. So 7 passes (groups of 4, 2, 1) take longer than 8 (4, 4).
#[test]
fn a_loop_ptxas_unrolls_issues_its_loads_four_passes_at_a_time_then_two_then_one() {
    let on = Config::hopper();
    assert_eq!((on.timing.runtime_unroll, on.timing.runtime_unroll_body), (4, 48));
    let mut off = on.clone();
    off.timing.runtime_unroll = 0;
    let cycles = |t: i64, c: &Config| calibration_cycles("unrolled_loads", &[("kind", 0), ("t", t)], c);
    let trip = cycles(2, &off) - cycles(1, &off);
    let pass = cycles(2, &on) - cycles(1, &on);
    assert!(
        trip > u64::from(on.timing.memory.l1_miss_latency) && pass < 16,
        "trip {trip}, pass {pass}"
    );
    let groups = |t: u64| t / 4 + (t % 4) / 2 + t % 2;
    for t in 1..=16u64 {
        assert_eq!(
            cycles(t.cast_signed(), &off),
            cycles(1, &off) + (t - 1) * trip,
            "off, {t} passes"
        );
        let g = groups(t);
        assert_eq!(
            cycles(t.cast_signed(), &on),
            cycles(1, &on) + (g - 1) * trip + (t - g) * pass,
            "{t} passes in {g} groups"
        );
    }
    assert!(cycles(7, &on) > cycles(8, &on));
    // A kernel instantiated with unrolling and run on a configuration without it: a pass a group, as off.
    let program = programs::assemble_calibration("unrolled_loads")
        .expect("a calibration program")
        .expect("assembles");
    let launch = Launch {
        set: [("kind", 0), ("t", 8)]
            .iter()
            .map(|(k, v)| (k.to_string(), warpsim_isa::Value::Int(*v)))
            .collect(),
        ..Launch::default()
    };
    let kernel = warpsim::instantiate(&program, &on, &launch).expect("launches");
    let out = warpsim::run(&kernel, &off, &warpsim::RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(u64::from(out.buffer("cyc").expect("cyc").data[0]), cycles(8, &off));
    // A loop longer than `runtime_unroll_body` (kind 3: 65 instructions) runs a round trip a pass either way.
    let long = |t: i64, c: &Config| calibration_cycles("unrolled_loads", &[("kind", 3), ("t", t)], c);
    assert_eq!(long(8, &on) - long(4, &on), long(8, &off) - long(4, &off));
    let mut longer = on.clone();
    longer.timing.runtime_unroll_body = 65;
    assert!(long(8, &longer) - long(4, &longer) < long(8, &on) - long(4, &on));
}

/// Which loops ptxas unrolls with their loads together: an innermost loop of loads whose addresses do not come
/// from its own loads, with no store, atomic, barrier or warp-synchronous instruction, entered at its head and
/// left by its back edge, whose trip count follows from a counter stepped by an invariant and compared with one.
#[test]
fn only_a_plain_counted_loop_of_independent_loads_is_unrolled() {
    use warpsim::kernel::sched::{UNROLLED, UNROLLED_CONTROL};
    let src = |body: &str, step: &str| {
        format!(
            "\
.block 32
.buffer g u32[1024]
.buffer out u32[32]
.reg %i, %x, %y, %s, %n
.pred %p
    mov.u32 %i, %laneid
    ld.global.u32 %n, g[0]
loop:
{body}
    add.u32 %i, %i, {step}
    setp.lt.u32 %p, %i, %n
    @%p bra loop
    st.global.u32 out[%laneid], %s
"
        )
    };
    // pcs: 0 mov, 1 ld %n, 2.. the body, then add, setp, bra.
    let plain = src("    ld.global.u32 %x, g[%i]\n    add.u32 %s, %s, %x", "32");
    assert_eq!(flagged(&plain, UNROLLED), vec![2]);
    assert_eq!(flagged(&plain, UNROLLED_CONTROL), vec![4, 5, 6]);
    // The step a register the loop does not write; the bound loaded before it.
    let invariant = src("    ld.global.u32 %x, g[%i]\n    add.u32 %s, %s, %x", "%n");
    assert_eq!(flagged(&invariant, UNROLLED), vec![2]);
    // A pointer chase: the next address is the value loaded.
    let chase = src(
        "    ld.global.u32 %x, g[%i]\n    add.u32 %s, %s, %x\n    ld.global.u32 %y, g[%x]",
        "32",
    );
    assert_eq!(flagged(&chase, UNROLLED), vec![2]);
    // A store in the loop: ptxas cannot move the next pass's loads above it.
    let store = src("    ld.global.u32 %x, g[%i]\n    st.global.u32 out[%laneid], %x", "32");
    assert!(flagged(&store, UNROLLED | UNROLLED_CONTROL).is_empty());
    // A shuffle (a warp-synchronous instruction), or a step the loop changes: not unrolled.
    let shuffle = src("    ld.global.u32 %x, g[%i]\n    shfl.sync.bfly.b32 %x, %x, 1", "32");
    assert!(flagged(&shuffle, UNROLLED).is_empty());
    let changing = src("    ld.global.u32 %x, g[%i]\n    add.u32 %s, %s, %x", "%s");
    assert!(flagged(&changing, UNROLLED).is_empty());
    // Longer than `runtime_unroll_body` (48): 47 adds and the loop's 4 instructions more.
    let long = src(
        &format!("    ld.global.u32 %x, g[%i]\n{}", "    add.u32 %s, %s, %x\n".repeat(47)),
        "32",
    );
    assert!(flagged(&long, UNROLLED).is_empty());
    let short = src(
        &format!("    ld.global.u32 %x, g[%i]\n{}", "    add.u32 %s, %s, %x\n".repeat(44)),
        "32",
    );
    assert_eq!(flagged(&short, UNROLLED), vec![2]);
}

/// The SM's fill port from L2 passes a load's lines after those of the loads before it (`memory.fill_sector`,
/// hundredths of a cycle a sector): of four 64-bit loads in a row (2 lines, 8 sectors each), the first arrives with
/// its latency and each later one 8 sectors' time after the one before; a lone load, however many lines it spreads
/// over, waits for nothing.
#[test]
fn a_loads_lines_come_through_the_fill_port_after_those_of_the_loads_before_it() {
    let src = "\
.block 32
.buffer g u64[128]
.reg.b64 %a, %b, %c, %d
.reg %s
    ld.global.u64 %a, g[%laneid]
    ld.global.u64 %b, g[%laneid + 32]
    ld.global.u64 %c, g[%laneid + 64]
    ld.global.u64 %d, g[%laneid + 96]
    cvt.u32.u64 %s, %d
";
    let on = as_written();
    let fill = u64::from(on.timing.memory.fill_sector);
    assert_eq!(fill, 140);
    let mut off = on.clone();
    off.timing.memory.fill_sector = 0;
    // (the first load, the last load, its use)
    let at = |c: &Config| issue_cycles(src, c, &[0, 3, 4]);
    let (a, b) = (at(&off), at(&on));
    assert_eq!((a[0], a[1]), (b[0], b[1]));
    // Without the port the last load's lines arrive with its own latency; with it, after the sectors of the
    // second, third and fourth loads from the first load's arrival.
    let first = u64::from(on.timing.memory.l2_first_latency);
    let switch = u64::from(on.timing.pipe_switch);
    assert_eq!(a[2] - a[1], first + switch, "{a:?}");
    assert_eq!(
        b[2] - b[0],
        (100 * first + 3 * 8 * fill).div_ceil(100) + switch,
        "{b:?}"
    );
    // One load over 32 lines (the lanes 32 words apart) costs the same with the port or without.
    let spread = ".block 32\n.buffer g u32[1024]\n.reg %a, %s\n    mul.lo.u32 %a, %laneid, 32\n    \
                  ld.global.u32 %s, g[%a]\n    add.u32 %s, %s, 1\n";
    assert_eq!(issue_cycles(spread, &on, &[1, 2]), issue_cycles(spread, &off, &[1, 2]));
}
