//! The sanitizers (`--check race,init,shfl`), the adversarial schedules (`--schedule reverse|random`) and the
//! instruction limit: what each finds in wrong programs, exactly, and that none of them finds anything in a
//! shipped program or changes its values.

use warpsim::{AccessKind, Hazard, ShuffleReason};
use warpsim::{Checks, Config, FindingKind, Kernel, Launch, RunOptions, RunOutput, Schedule, programs};
use warpsim_isa::Value;

/// The machine these cases were written for: `hopper` at warp size `w`.
fn machine(w: u32) -> Config {
    Config::hopper().with_warp_size(w)
}

fn kernel_from(text: &str, w: u32, set: &[(&str, i64)]) -> Kernel {
    let program = warpsim_tests::assemble(text);
    let launch = Launch {
        set: set.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect(),
        ..Launch::default()
    };
    warpsim::instantiate(&program, &machine(w), &launch)
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)))
}

fn run_with(k: &Kernel, options: &RunOptions) -> Result<RunOutput, warpsim::Fault> {
    let config = machine(k.warp_size);
    warpsim::run(k, &config, options, &mut warpsim::NoTrace)
}

fn checked(k: &Kernel, checks: Checks) -> RunOutput {
    run_with(
        k,
        &RunOptions {
            checks,
            ..RunOptions::default()
        },
    )
    .expect("runs")
}

/// The pc of the first instruction whose text contains `needle`.
fn pc_of(k: &Kernel, needle: &str) -> u32 {
    k.program
        .instructions
        .iter()
        .position(|i| i.text.contains(needle))
        .map(|pc| u32::try_from(pc).expect("a pc"))
        .unwrap_or_else(|| panic!("no instruction with `{needle}`"))
}

/// block_reduce with its `bar.sync` taken out.
fn block_reduce_without_barrier() -> String {
    let source = programs::source("block_reduce").expect("shipped");
    let lines: Vec<&str> = source.lines().filter(|l| l.trim() != "bar.sync            0").collect();
    assert_eq!(lines.len(), source.lines().count() - 1, "exactly one barrier removed");
    lines.join("\n") + "\n"
}

fn race() -> Checks {
    Checks {
        race: true,
        ..Checks::default()
    }
}

#[test]
fn race_check_finds_the_missing_barrier_in_block_reduce() {
    let k = kernel_from(&block_reduce_without_barrier(), 32, &[]);
    let out = checked(&k, race());
    // Warp 0 lane 1 reads partial[1], which warp 1 lane 0 stored, with no barrier between: once per warp sum
    // read (warps 1, 2 and 3), one finding.
    assert_eq!(out.findings.len(), 1, "{:#?}", out.findings);
    let f = &out.findings[0];
    let store = pc_of(&k, "st.shared.u32 partial[%warpid]");
    let load = pc_of(&k, "ld.shared.u32 %v, partial[%laneid]");
    match &f.kind {
        FindingKind::Race {
            hazard,
            array,
            index,
            global,
            first,
            second,
        } => {
            assert_eq!(*hazard, Hazard::ReadAfterWrite);
            assert_eq!((array.as_str(), *index, *global), ("partial", 1, false));
            assert_eq!((first.block, second.block), (0, 0));
            assert_eq!(
                (first.warp, first.lane, first.pc, first.kind),
                (1, 0, store, AccessKind::Write)
            );
            assert_eq!(
                (second.warp, second.lane, second.pc, second.kind),
                (0, 1, load, AccessKind::Read)
            );
            assert!(first.cycle < second.cycle);
        }
        other => panic!("expected a race, got {other:?}"),
    }
    assert_eq!((f.block, f.warp, f.lane, f.pc, f.count), (0, 0, Some(1), load, 3));
    let text = f.render(&k, false);
    assert!(
        text.contains("read-after-write hazard on `partial[1]`")
            && text.contains("warp 1, lane 0 (thread 32) wrote it")
            && text.contains("warp 0, lane 1 (thread 1) read it")
            && text.contains("address: `partial[1]` is byte 4 of the block's shared memory"),
        "{text}"
    );
    // With the barrier, nothing.
    let k = kernel_from(programs::source("block_reduce").unwrap(), 32, &[]);
    assert_eq!(checked(&k, race()).findings, vec![]);
}

/// Without any check, a run still notices the first read of a shared word that another warp wrote since their
/// last barrier: the read the race check reports first, at the same cycle, on any number of threads.
#[test]
fn a_missing_barrier_is_pointed_out_without_any_check() {
    let k = kernel_from(&block_reduce_without_barrier(), 32, &[]);
    let out = run_with(&k, &RunOptions::default()).expect("runs");
    // The default order gives the right sum: nothing else would tell the user.
    assert_eq!(out.buffer("out").unwrap().data[0], 8128);
    let u = out.unordered.clone().expect("the unordered read");
    let store = pc_of(&k, "st.shared.u32 partial[%warpid]");
    let load = pc_of(&k, "ld.shared.u32 %v, partial[%laneid]");
    assert_eq!(
        (
            u.block,
            u.warp,
            u.lane,
            u.pc,
            u.writer_warp,
            u.writer_pc,
            u.array.as_str(),
            u.index
        ),
        (0, 0, 1, load, 1, store, "partial", 1)
    );
    let finding = &checked(&k, race()).findings[0];
    let FindingKind::Race { second, .. } = &finding.kind else {
        panic!("a race")
    };
    assert_eq!(u.cycle, second.cycle);
    let text = u.render(&k, false);
    assert!(
        text.starts_with("warning: warp 0 reads `partial[1]`, which warp 1 wrote since their last barrier")
            && text.contains("block 0, warp 0, lane 1 reads it here at cycle")
            && text.contains("note: warp 1 wrote it at pc 11: `@%lane0 st.shared.u32 partial[%warpid], %v`")
            && text.contains("--check race"),
        "{text}"
    );
    // With `--check race` the race check reports it, and the run does not look.
    assert_eq!(checked(&k, race()).unordered, None);
    // Many blocks on many SMs: the first in (cycle, SM) order, the same on 1, 2 and 4 threads.
    let k = kernel_from(&block_reduce_without_barrier(), 32, &[("n", 128 * 300)]);
    let on = |threads| {
        let options = RunOptions {
            threads,
            ..RunOptions::default()
        };
        run_with(&k, &options).expect("runs").unordered
    };
    let first = on(1).expect("found");
    // The race check's first occurrence of that race, in the same (cycle, SM) order, is the same read.
    let finding = &checked(&k, race()).findings[0];
    let FindingKind::Race { second, .. } = &finding.kind else {
        panic!("a race")
    };
    assert_eq!(
        (first.block, first.warp, first.lane, first.cycle),
        (second.block, second.warp, second.lane, second.cycle)
    );
    assert_eq!(on(2), Some(first.clone()));
    assert_eq!(on(4), Some(first));
    // A barrier between the write and the read orders them: the shipped program has none.
    let k = kernel_from(programs::source("block_reduce").unwrap(), 32, &[]);
    assert_eq!(run_with(&k, &RunOptions::default()).expect("runs").unordered, None);
}

#[test]
fn a_random_schedule_makes_the_missing_barrier_give_wrong_sums() {
    let k = kernel_from(&block_reduce_without_barrier(), 32, &[]);
    let sum = |schedule| {
        let options = RunOptions {
            schedule,
            ..RunOptions::default()
        };
        run_with(&k, &options).expect("runs").buffer("out").unwrap().data[0]
    };
    // The default order happens to give the right sum; seeded random orders let warp 0 read early.
    assert_eq!(sum(Schedule::Policy), 8128);
    let sums: Vec<u32> = (1..=8).map(|seed| sum(Schedule::Random { seed })).collect();
    assert_eq!(sums, vec![3040, 4560, 4064, 8128, 4560, 8128, 8128, 6608]);
}

/// A program, a warp size and `--set` overrides.
type Case = (String, u32, Vec<(&'static str, i64)>);

/// Every shipped program, at every warp size it supports, plus larger grids.
fn shipped_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for name in programs::names() {
        for w in warpsim_tests::supported_warp_sizes(name) {
            cases.push((name.to_string(), w, vec![]));
        }
    }
    cases.push(("block_reduce".into(), 32, vec![("n", 5000)]));
    cases.push(("block_reduce".into(), 8, vec![("threads", 32), ("n", 300)]));
    cases.push(("block_sum".into(), 32, vec![("n", 4096)]));
    cases.push(("histogram_bin".into(), 32, vec![("blocks", 6)]));
    cases.push(("histogram_bin".into(), 8, vec![("threads", 32), ("target_bin", 3)]));
    cases
}

fn shipped_kernel(name: &str, w: u32, set: &[(&str, i64)]) -> Kernel {
    kernel_from(programs::source(name).expect("shipped"), w, set)
}

#[test]
fn no_check_finds_anything_in_a_shipped_program_under_any_schedule() {
    for (name, w, set) in shipped_cases() {
        let k = shipped_kernel(&name, w, &set);
        for schedule in [
            Schedule::Policy,
            Schedule::Reverse,
            Schedule::Random { seed: 1 },
            Schedule::Random { seed: 2 },
        ] {
            let options = RunOptions {
                checks: Checks::all(),
                schedule,
                ..RunOptions::default()
            };
            let out = run_with(&k, &options).unwrap_or_else(|f| panic!("{name} W={w}: {}", f.message()));
            assert!(
                out.findings.is_empty(),
                "{name} W={w} {set:?} {schedule:?}: {}",
                out.findings.iter().map(|f| f.render(&k, false)).collect::<String>()
            );
            // The checks only observe: the same values, cycles and statistics as the same schedule unchecked.
            let plain = run_with(
                &k,
                &RunOptions {
                    schedule,
                    ..RunOptions::default()
                },
            )
            .expect("runs");
            assert_eq!(
                (&out.buffers, out.cycles, &out.stats),
                (&plain.buffers, plain.cycles, &plain.stats),
                "{name} W={w} {set:?} {schedule:?}: the checks changed the run"
            );
        }
    }
}

#[test]
fn every_schedule_gives_every_shipped_program_the_same_values() {
    for (name, w, set) in shipped_cases() {
        let k = shipped_kernel(&name, w, &set);
        let base = run_with(&k, &RunOptions::default()).expect("runs");
        assert_eq!(base.unordered, None, "{name} W={w} {set:?}");
        let mut cycles = vec![base.cycles];
        let schedules = [Schedule::Reverse]
            .into_iter()
            .chain((1..=5).map(|seed| Schedule::Random { seed }));
        for schedule in schedules {
            let options = RunOptions {
                schedule,
                ..RunOptions::default()
            };
            let out = run_with(&k, &options).expect("runs");
            assert_eq!(
                out.buffers, base.buffers,
                "{name} W={w} {set:?}: {schedule:?} changed the values"
            );
            // No shipped program reads a word another warp wrote since their last barrier, in any order.
            assert_eq!(out.unordered, None, "{name} W={w} {set:?} {schedule:?}");
            assert_eq!(out.stats.warp_instructions, base.stats.warp_instructions);
            cycles.push(out.cycles);
        }
        // The schedules really are different orders: some of them take other cycle counts.
        if k.warps_per_block() > 1 || k.grid > 1 {
            cycles.dedup();
            assert!(cycles.len() > 1, "{name} W={w} {set:?}: every schedule took {cycles:?}");
        }
    }
}

#[test]
fn a_random_schedule_is_the_same_for_every_thread_count_and_with_tracing() {
    let k = shipped_kernel("histogram_bin", 32, &[("blocks", 300)]);
    let config = Config::hopper();
    let go = |threads: usize, traced: bool| {
        let options = RunOptions {
            schedule: Schedule::Random { seed: 42 },
            checks: Checks::all(),
            threads,
            ..RunOptions::default()
        };
        if traced {
            let mut events: Vec<warpsim::Event> = Vec::new();
            warpsim::run(&k, &config, &options, &mut events).expect("runs")
        } else {
            warpsim::run(&k, &config, &options, &mut warpsim::NoTrace).expect("runs")
        }
    };
    let one = go(1, false);
    assert_eq!(go(2, false), one);
    assert_eq!(go(4, false), one);
    assert_eq!(go(2, true), one);
    let other = run_with(
        &k,
        &RunOptions {
            schedule: Schedule::Random { seed: 43 },
            ..RunOptions::default()
        },
    )
    .expect("runs");
    assert_ne!(other.cycles, one.cycles, "another seed, another schedule");
}

#[test]
fn race_findings_are_the_same_for_every_thread_count() {
    // 200 blocks over 132 SMs, each block racy: the first occurrence and the counts must not depend on threads.
    let text = block_reduce_without_barrier();
    let k = kernel_from(&text, 32, &[("n", 128 * 200)]);
    let config = machine(32);
    let go = |threads| {
        let options = RunOptions {
            checks: Checks::all(),
            threads,
            ..RunOptions::default()
        };
        warpsim::run(&k, &config, &options, &mut warpsim::NoTrace).expect("runs")
    };
    let one = go(1);
    assert_eq!(one.findings.len(), 1);
    assert_eq!(one.findings[0].count, 3 * 200);
    assert_eq!(go(2).findings, one.findings);
    assert_eq!(go(4).findings, one.findings);
}

const TWO_WARPS: &str = "
.kernel two_warps
.grid 1
.block 2 * W
.buffer out u32[2 * W]
.shared s u32[W]
.reg %v, %t
.pred %w0, %w1
        setp.eq.u32     %w0, %warpid, 0
        setp.eq.u32     %w1, %warpid, 1
";

/// Each finding's hazard and the warps of its two accesses (every finding must be a race).
fn race_kinds(out: &RunOutput) -> Vec<(Hazard, u32, u32)> {
    out.findings
        .iter()
        .map(|f| match &f.kind {
            FindingKind::Race {
                hazard, first, second, ..
            } => (*hazard, first.warp, second.warp),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn race_check_tells_the_three_hazards_apart() {
    // Warp 1 reads what warp 0 overwrites a few cycles later: write after read.
    let war = format!(
        "{TWO_WARPS}
        @%w0 st.shared.u32 s[%laneid], %laneid
        bar.sync        0
        @%w0 bra        writer
        ld.shared.u32   %v, s[%laneid]
        bra             done
writer:
        mul.lo.u32      %t, %laneid, 3
        mul.lo.u32      %t, %t, 3
        mul.lo.u32      %t, %t, 3
        st.shared.u32   s[%laneid], %t
done:
        st.global.u32   out[%tid.x], %v
"
    );
    // Both warps store to the same words: write after write.
    let waw = format!(
        "{TWO_WARPS}
        st.shared.u32   s[%laneid], %tid.x
        bar.sync        0
        ld.shared.u32   %v, s[%laneid]
        st.global.u32   out[%tid.x], %v
"
    );
    for (text, hazard, first_warp, second_warp) in [
        (war, Hazard::WriteAfterRead, 1, 0),
        (waw, Hazard::WriteAfterWrite, 0, 1),
    ] {
        let k = kernel_from(&text, 8, &[]);
        let out = checked(&k, race());
        assert_eq!(race_kinds(&out), vec![(hazard, first_warp, second_warp)], "{text}");
        assert_eq!(out.findings[0].count, 8, "one per lane");
    }
}

#[test]
fn barriers_order_warps_and_atomics_do_not_race() {
    // Stores, a barrier, loads of the other warp's words, a barrier, stores again: ordered throughout. Atomic
    // additions of both warps to one word, then a barrier, then a read: no race either.
    let text = format!(
        "{TWO_WARPS}
.shared both u32[2 * W]
.shared total u32[1]
        @%w0 st.shared.u32 total[0], 0
        st.shared.u32   both[%tid.x], %tid.x
        bar.sync        0
        xor.b32         %t, %tid.x, W
        ld.shared.u32   %v, both[%t]
        bar.sync        0
        st.shared.u32   both[%tid.x], %v
        atom.shared.add.u32 %t, total[0], 1
        bar.sync        0
        ld.shared.u32   %t, total[0]
        add.u32         %v, %v, %t
        st.global.u32   out[%tid.x], %v
"
    );
    let k = kernel_from(&text, 8, &[]);
    let out = checked(&k, Checks::all());
    assert_eq!(out.findings, vec![]);
}

#[test]
fn race_check_follows_divergence_within_a_warp() {
    // Lanes 0-3 store on one path, lanes 4-7 read those words on the other: unordered until they reconverge.
    let racy = "
.kernel diverged
.grid 1
.block W
.buffer out u32[W]
.shared s u32[W]
.reg %v, %t
.pred %low
        st.shared.u32   s[%laneid], 0
        setp.lt.u32     %low, %laneid, 4
        @%low bra       low
        sub.u32         %t, %laneid, 4
        ld.shared.u32   %v, s[%t]
        bra             done
low:
        st.shared.u32   s[%laneid], %laneid
done:
        st.global.u32   out[%laneid], %v
";
    let k = kernel_from(racy, 8, &[]);
    let out = checked(&k, race());
    assert_eq!(out.findings.len(), 1, "{:#?}", out.findings);
    match &out.findings[0].kind {
        FindingKind::Race {
            hazard, first, second, ..
        } => {
            // The fall-through path (the loads) runs first: the store of the other path comes after.
            assert_eq!(*hazard, Hazard::WriteAfterRead);
            assert_eq!((first.warp, first.lane, second.warp, second.lane), (0, 4, 0, 0));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        out.findings[0]
            .render(&k, false)
            .contains("the lanes are on different paths of a branch")
    );
    // The same accesses after the paths reconverge are ordered.
    let ordered = racy.replace("        bra             done\n", "").replace(
        "low:\n        st.shared.u32   s[%laneid], %laneid\ndone:\n",
        "low:\ndone:\n        @%low st.shared.u32 s[%laneid], %laneid\n",
    );
    let k = kernel_from(&ordered, 8, &[]);
    assert_eq!(checked(&k, race()).findings, vec![], "{ordered}");
}

#[test]
fn init_check_names_the_register_predicate_and_shared_word() {
    let text = "
.kernel uninit
.grid 1
.block W
.buffer out u32[W]
.shared s u32[W]
.reg %v, %u, %x
.pred %p, %q
        setp.lt.u32     %p, %laneid, 4
        @%p mov.u32     %v, %laneid
        add.u32         %u, %v, 1
        @%q mov.u32     %x, 1
        selp.u32        %x, %v, 5, %p
        @%p st.shared.u32 s[%laneid], 1
        ld.shared.u32   %x, s[%laneid]
        st.global.u32   out[%laneid], %u
";
    let k = kernel_from(text, 8, &[]);
    let out = checked(
        &k,
        Checks {
            init: true,
            ..Checks::default()
        },
    );
    let got: Vec<(String, u32, u64)> = out.findings.iter().map(|f| (f.message(), f.pc, f.count)).collect();
    // `selp` reads %v only where %p holds, where %v was written: nothing to report there.
    assert_eq!(
        got,
        vec![
            (
                "read of uninitialised register `%v` (lanes 4-7 never wrote it)".to_string(),
                2,
                4
            ),
            (
                "read of uninitialised predicate `%q` (lanes 0-7 never wrote it)".to_string(),
                3,
                8
            ),
            (
                "read of uninitialised shared memory `s[4]` (by lanes 4-7; no thread of the block wrote it)"
                    .to_string(),
                6,
                4
            ),
        ]
    );
}

#[test]
fn shfl_check_reports_reads_of_lanes_that_do_not_take_part() {
    let text = "
.kernel shuffles
.grid 1
.block W
.buffer out u32[W]
.reg %v
.pred %p
        mov.u32         %v, %laneid
        setp.lt.u32     %p, %laneid, 4
        @%p bra         skip
        shfl.sync.idx.b32 %v, %v, 0, 0x1f, 0xf0
skip:
        shfl.sync.bfly.b32 %v, %v, 1, 0x1f, 0x0f
        st.global.u32   out[%laneid], %v
";
    let k = kernel_from(text, 8, &[]);
    let out = checked(
        &k,
        Checks {
            shfl: true,
            ..Checks::default()
        },
    );
    let got: Vec<_> = out
        .findings
        .iter()
        .map(|f| match f.kind {
            FindingKind::UndefinedShuffle {
                lanes,
                lane,
                source,
                reason,
            } => (f.pc, lanes, lane, source, reason),
            ref other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        got,
        vec![
            // Lanes 4-7 read lane 0, which took the branch.
            (3, 0xf0, 4, 0, ShuffleReason::SourceInactive),
            // Lanes 4-7 execute the second shuffle but are not in its member mask 0x0f.
            (4, 0xf0, 4, 5, ShuffleReason::ReaderNotMember),
        ]
    );
    // The run's statistics count the same reads.
    assert_eq!(out.stats.undefined_shuffle_reads, 8);
}

#[test]
fn the_instruction_limit_stops_an_endless_loop_and_names_the_looping_warp() {
    let text = "
.kernel spin
.grid 1
.block 2 * W
.reg %v
.pred %w1
        setp.eq.u32     %w1, %warpid, 1
        @!%w1 exit
top:
        add.u32         %v, %v, 1
        bra             top
";
    let k = kernel_from(text, 32, &[]);
    let options = RunOptions {
        max_instructions: 10_000,
        ..RunOptions::default()
    };
    let fault = run_with(&k, &options).expect_err("an endless loop");
    match fault.kind {
        warpsim::FaultKind::InstructionLimit { limit, issued } => {
            assert_eq!(limit, 10_000);
            let epoch = machine(32).epoch_cycles();
            assert!(issued > 10_000 && issued < 10_000 + epoch, "{issued}");
        }
        ref other => panic!("{other:?}"),
    }
    assert_eq!((fault.block, fault.warp), (0, 1));
    assert!(fault.pc == 2 || fault.pc == 3, "in the loop: pc {}", fault.pc);
    // Checked at an epoch boundary (287 cycles on hopper): the same cycle traced or not.
    assert_eq!(fault.cycle % machine(32).epoch_cycles(), 0);
    let mut events: Vec<warpsim::Event> = Vec::new();
    let traced = warpsim::run(&k, &machine(k.warp_size), &options, &mut events).expect_err("an endless loop");
    assert_eq!(traced, fault);
}

/// Warp 1 spins on a flag in global memory that warp 0 sets after a barrier, which warp 1 never reaches: warp 0
/// waits at the barrier (issuing nothing), warp 1 loops.
const SPIN_ON_FLAG: &str = "
.kernel spin_flag
.grid 1
.block 2 * W
.buffer flag u32[1]
.reg %v, %w
.pred %spinner, %unset
        mov.u32             %w, %warpid
        setp.eq.u32         %spinner, %w, 1
        @%spinner bra       wait
        bar.sync            0
        st.global.u32       flag[0], 1
        exit
wait:
        ld.global.u32       %v, flag[0]
        setp.eq.u32         %unset, %v, 0
        @%unset bra         wait
        exit
";

#[test]
fn the_cycle_limit_names_the_spinning_warp_not_the_one_at_the_barrier() {
    let k = kernel_from(SPIN_ON_FLAG, 32, &[]);
    let options = RunOptions {
        max_cycles: 100_000,
        ..RunOptions::default()
    };
    let fault = run_with(&k, &options).expect_err("warp 1 spins forever");
    assert_eq!(fault.kind, warpsim::FaultKind::CycleLimit { limit: 100_000 });
    // Warp 1, at an instruction of its loop (not warp 0 at the store after the barrier it waits at).
    let setp = pc_of(&k, "setp.eq.u32 %unset");
    assert_eq!(
        (fault.block, fault.warp, fault.lane, fault.pc),
        (0, 1, Some(0), setp),
        "{fault:?}"
    );
    assert_eq!(fault.cycle, 100_030);
    let text = fault.render(&k, false);
    assert!(
        text.contains("the run passed the cycle limit (100000 cycles)")
            && text.contains("in block 0, warp 1, lane 0 (thread 32), pc 7, cycle 100030: `setp.eq.u32 %unset, %v, 0`")
            && text.contains("this warp issued the most instructions lately"),
        "{text}"
    );
    // The same fault on any number of threads, traced or not.
    for threads in [1, 2, 4] {
        let options = RunOptions {
            threads,
            ..options.clone()
        };
        assert_eq!(run_with(&k, &options).expect_err("spins"), fault, "{threads} threads");
        let mut events: Vec<warpsim::Event> = Vec::new();
        let traced = warpsim::run(&k, &machine(k.warp_size), &options, &mut events).expect_err("spins");
        assert_eq!(traced, fault, "{threads} threads, traced");
    }
}

#[test]
fn the_cycle_limit_names_the_spinning_warp_among_many_blocks() {
    // Block 5's warp 1 spins on a flag in shared memory that its warp 0 sets after a barrier; the other blocks
    // finish at once (and the spinning block lands on SM 5, not SM 0).
    let text = "
.kernel spin_shared
.param blocks = 8
.grid blocks
.block 2 * W
.shared flag u32[1]
.reg %v, %w
.pred %spinner, %unset, %other
        setp.ne.u32         %other, %ctaid.x, 5
        @%other exit
        mov.u32             %w, %warpid
        setp.eq.u32         %spinner, %w, 1
        @%spinner bra       wait
        bar.sync            0
        st.shared.u32       flag[0], 1
        exit
wait:
        ld.shared.u32       %v, flag[0]
        setp.eq.u32         %unset, %v, 0
        @%unset bra         wait
        exit
";
    let k = kernel_from(text, 32, &[]);
    let options = RunOptions {
        max_cycles: 50_000,
        ..RunOptions::default()
    };
    let fault = run_with(&k, &options).expect_err("spins");
    assert!(matches!(fault.kind, warpsim::FaultKind::CycleLimit { .. }), "{fault:?}");
    let ld = pc_of(&k, "ld.shared.u32 %v, flag[0]");
    let setp = pc_of(&k, "setp.eq.u32 %unset");
    let bra = pc_of(&k, "@%unset bra");
    assert_eq!((fault.block, fault.warp, fault.lane), (5, 1, Some(0)), "{fault:?}");
    assert!([ld, setp, bra].contains(&fault.pc), "in the loop: {fault:?}");
    for threads in [1, 2, 4] {
        let options = RunOptions {
            threads,
            ..options.clone()
        };
        assert_eq!(run_with(&k, &options).expect_err("spins"), fault, "{threads} threads");
    }
}

#[test]
fn the_time_limit_stops_an_endless_loop_and_names_the_looping_warp() {
    let k = kernel_from(SPIN_ON_FLAG, 32, &[]);
    let options = RunOptions {
        max_cycles: u64::MAX,
        max_instructions: u64::MAX,
        timeout: Some(std::time::Duration::from_millis(20)),
        ..RunOptions::default()
    };
    let fault = run_with(&k, &options).expect_err("stopped by the clock");
    assert_eq!(
        fault.kind,
        warpsim::FaultKind::Timeout {
            limit: std::time::Duration::from_millis(20)
        }
    );
    let loop_pcs = [
        pc_of(&k, "ld.global.u32 %v, flag[0]"),
        pc_of(&k, "setp.eq.u32 %unset"),
        pc_of(&k, "@%unset bra"),
    ];
    assert_eq!((fault.block, fault.warp, fault.lane), (0, 1, Some(0)), "{fault:?}");
    assert!(loop_pcs.contains(&fault.pc), "{fault:?}");
    // At an epoch boundary (287 cycles on hopper).
    assert_eq!(fault.cycle % machine(32).epoch_cycles(), 0);
    let text = fault.render(&k, false);
    assert!(
        text.starts_with(&format!(
            "error: the run passed the time limit (0.02 s of wall-clock time) at cycle {}; this warp issued the most lately",
            fault.cycle
        )) && text.contains("--timeout SECONDS"),
        "{text}"
    );
}

#[test]
fn a_time_limit_changes_nothing_in_a_run_that_finishes() {
    let k = shipped_kernel("block_reduce", 32, &[("n", 65536)]);
    let plain = RunOptions::default();
    let limited = RunOptions {
        timeout: Some(std::time::Duration::from_secs(3600)),
        ..RunOptions::default()
    };
    let a = run_with(&k, &plain).expect("runs");
    let b = run_with(&k, &limited).expect("runs");
    assert_eq!((a.cycles, &a.stats, &a.buffers), (b.cycles, &b.stats, &b.buffers));
    let mut ea: Vec<warpsim::Event> = Vec::new();
    let mut eb: Vec<warpsim::Event> = Vec::new();
    warpsim::run(&k, &machine(k.warp_size), &plain, &mut ea).expect("runs");
    warpsim::run(&k, &machine(k.warp_size), &limited, &mut eb).expect("runs");
    assert!(ea == eb, "the same trace");
}

/// Every block's lane 0 adds 1 to `total[0]`: load, add, store (a lost update when two blocks do it), or the
/// same with an atomic.
fn lost_update(atomic: bool, blocks: i64) -> Kernel {
    let update = if atomic {
        "        mov.u32             %v, 1
        @%lane0 atom.global.add.u32 %v, total[0], %v"
    } else {
        "        @%lane0 ld.global.u32 %v, total[0]
        add.u32             %v, %v, 1
        @%lane0 st.global.u32 total[0], %v"
    };
    let text = format!(
        "
.kernel lost_update
.param blocks = 2
.grid blocks
.block W
.buffer total u32[1]
.reg %v
.pred %lane0
        setp.eq.u32         %lane0, %laneid, 0
{update}
"
    );
    kernel_from(&text, 32, &[("blocks", blocks)])
}

/// The race findings as (hazard, buffer, element, global, first (block, warp, lane, pc, kind), second (the same),
/// count).
type RaceRow = (
    Hazard,
    String,
    usize,
    bool,
    (u32, u32, u32, u32, AccessKind),
    (u32, u32, u32, u32, AccessKind),
    u64,
);

fn races(out: &RunOutput) -> Vec<RaceRow> {
    out.findings
        .iter()
        .map(|f| match &f.kind {
            FindingKind::Race {
                hazard,
                array,
                index,
                global,
                first,
                second,
            } => (
                *hazard,
                array.clone(),
                *index,
                *global,
                (first.block, first.warp, first.lane, first.pc, first.kind),
                (second.block, second.warp, second.lane, second.pc, second.kind),
                f.count,
            ),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn race_check_finds_a_lost_update_between_blocks_in_global_memory() {
    let k = lost_update(false, 2);
    let out = checked(&k, race());
    let ld = pc_of(&k, "ld.global.u32 %v, total[0]");
    let st = pc_of(&k, "st.global.u32 total[0], %v");
    // Blocks 0 and 1 (on SMs 0 and 1) load at the same cycle, then store: block 0's store comes after block 1's
    // load (write after read), block 1's after block 0's store (write after write) and load (write after read
    // again: the same two instructions, counted).
    assert_eq!(
        races(&out),
        vec![
            (
                Hazard::WriteAfterRead,
                "total".to_string(),
                0,
                true,
                (1, 0, 0, ld, AccessKind::Read),
                (0, 0, 0, st, AccessKind::Write),
                2
            ),
            (
                Hazard::WriteAfterWrite,
                "total".to_string(),
                0,
                true,
                (0, 0, 0, st, AccessKind::Write),
                (1, 0, 0, st, AccessKind::Write),
                1
            ),
        ]
    );
    let f = &out.findings[0];
    assert_eq!((f.block, f.warp, f.lane, f.pc, f.sm), (0, 0, Some(0), st, 0));
    let text = f.render(&k, false);
    assert!(
        text.starts_with(
            "error: data race on global memory: write-after-read hazard on `total[0]` between threads of different blocks (nothing orders blocks within a kernel)"
        ) && text.contains("address: `total[0]` is byte 0 of global buffer `total`")
            && text.contains("first: block 1, warp 0, lane 0 (thread 0) read it at cycle ")
            && text.contains("then: block 0, warp 0, lane 0 (thread 0) wrote it at cycle ")
            && text.contains("(2 times in all)")
            && text.contains("atomics only (`atom.global.add`)"),
        "{text}"
    );
    // The update is lost, as the check says.
    assert_eq!(out.buffer("total").unwrap().data[0], 1);
    // On one SM the two blocks are resident together and still race.
    let config = Config {
        sms: 1,
        ..Config::hopper()
    };
    let options = RunOptions {
        checks: race(),
        ..RunOptions::default()
    };
    let one_sm = warpsim::run(&k, &config, &options, &mut warpsim::NoTrace).expect("runs");
    assert!(!one_sm.findings.is_empty());
    assert!(
        races(&one_sm).iter().all(|r| r.3 && r.4.0 != r.5.0),
        "{:?}",
        races(&one_sm)
    );
}

#[test]
fn atomics_of_different_blocks_do_not_race() {
    let k = lost_update(true, 2);
    let out = checked(&k, Checks::all());
    assert_eq!(out.findings, vec![]);
    assert_eq!(out.buffer("total").unwrap().data[0], 2);
    // Many blocks, many SMs, one SM: still clean.
    let k = lost_update(true, 300);
    assert_eq!(checked(&k, race()).findings, vec![]);
}

#[test]
fn a_barrier_orders_two_warps_on_a_global_word_and_without_it_they_race() {
    // Warp 0 stores every lane's word, warp 1 reads them: with `bar.sync` between, clean; without, a race.
    let text = |barrier: &str| {
        format!(
            "
.kernel handoff
.grid 1
.block 2 * W
.buffer data u32[W]
.buffer out u32[W]
.reg %v, %t
.pred %w0
        setp.eq.u32         %w0, %warpid, 0
        @%w0 st.global.u32  data[%laneid], %laneid
        {barrier}
        @%w0 exit
        ld.global.u32       %v, data[%laneid]
        st.global.u32       out[%laneid], %v
"
        )
    };
    let k = kernel_from(&text("bar.sync            0"), 8, &[]);
    assert_eq!(checked(&k, Checks::all()).findings, vec![]);
    let k = kernel_from(&text(""), 8, &[]);
    let st = pc_of(&k, "st.global.u32 data[%laneid]");
    let ld = pc_of(&k, "ld.global.u32 %v, data[%laneid]");
    let out = checked(&k, race());
    assert_eq!(
        races(&out),
        vec![(
            Hazard::ReadAfterWrite,
            "data".to_string(),
            0,
            true,
            (0, 0, 0, st, AccessKind::Write),
            (0, 1, 0, ld, AccessKind::Read),
            8
        )]
    );
    let text = out.findings[0].render(&k, false);
    assert!(
        text.contains("between threads no barrier orders")
            && text.contains("first: block 0, warp 0, lane 0 (thread 0) wrote it")
            && text.contains("then: block 0, warp 1, lane 0 (thread 8) read it")
            && text.contains("(`bar.sync 0`)"),
        "{text}"
    );
}

#[test]
fn the_same_thread_never_races_with_itself_in_global_memory() {
    // Each thread reads, then writes, its own word, twice; other blocks use other words.
    let text = "
.kernel own_words
.grid 4
.block 2 * W
.buffer data u32[8 * W] = i
.reg %g, %v
        mad.lo.u32          %g, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %v, data[%g]
        add.u32             %v, %v, 1
        st.global.u32       data[%g], %v
        ld.global.u32       %v, data[%g]
        add.u32             %v, %v, 1
        st.global.u32       data[%g], %v
";
    let k = kernel_from(text, 8, &[]);
    assert_eq!(checked(&k, Checks::all()).findings, vec![]);
}

#[test]
fn global_race_findings_are_the_same_for_every_thread_count_and_with_tracing() {
    // 300 blocks over 132 SMs, each racing on one word: first occurrences and counts must not depend on threads.
    let k = lost_update(false, 300);
    let config = Config::hopper();
    let go = |threads| {
        let options = RunOptions {
            checks: Checks::all(),
            threads,
            ..RunOptions::default()
        };
        warpsim::run(&k, &config, &options, &mut warpsim::NoTrace).expect("runs")
    };
    let one = go(1);
    assert_eq!(one.findings.len(), 3, "{:#?}", races(&one));
    assert_eq!(go(2).findings, one.findings);
    assert_eq!(go(4).findings, one.findings);
    let options = RunOptions {
        checks: Checks::all(),
        threads: 2,
        ..RunOptions::default()
    };
    let mut events: Vec<warpsim::Event> = Vec::new();
    let traced = warpsim::run(&k, &config, &options, &mut events).expect("runs");
    assert_eq!(traced.findings, one.findings);
    // Races between the warps of each of 200 blocks (warp 0 stores the block's words, warp 1 reads them, no
    // barrier), each block on its own words: one finding, counted in every block, the same on every count.
    let text = "
.kernel handoffs
.grid 200
.block 2 * W
.buffer data u32[200 * W]
.buffer out u32[200 * W]
.reg %g, %v
.pred %w0
        mad.lo.u32          %g, %ctaid.x, W, %laneid
        setp.eq.u32         %w0, %warpid, 0
        @%w0 st.global.u32  data[%g], %laneid
        @%w0 exit
        ld.global.u32       %v, data[%g]
        st.global.u32       out[%g], %v
";
    let k = kernel_from(text, 8, &[]);
    let go = |threads| {
        let options = RunOptions {
            checks: race(),
            threads,
            ..RunOptions::default()
        };
        warpsim::run(&k, &config.clone().with_warp_size(8), &options, &mut warpsim::NoTrace).expect("runs")
    };
    let one = go(1);
    let rows = races(&one);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    // (First seen in block 68, on SM 68: SMs 0 to 67 are also dealt blocks 132 to 199, which delay their own.)
    assert_eq!(
        (rows[0].0, rows[0].4.0, rows[0].5.0, rows[0].6),
        (Hazard::ReadAfterWrite, 68, 68, 8 * 200)
    );
    assert_eq!(go(2).findings, one.findings);
    assert_eq!(go(4).findings, one.findings);
}

#[test]
fn bar_arrive_orders_what_the_producer_did_before_it_and_nothing_after() {
    // Warp 0 stores, arrives at barrier 1 without waiting, then (in `late`) stores again; warp 1 waits at
    // barrier 1 and reads. The first store is ordered before the read; the second is not.
    let program = |late: &str| {
        format!(
            "{TWO_WARPS}
        @%w1 bra        consumer
        st.shared.u32   s[%laneid], %laneid
        bar.arrive      1, 2 * W
        {late}
        bra             done
consumer:
        bar.sync        1, 2 * W
        ld.shared.u32   %v, s[%laneid]
done:
        st.global.u32   out[%tid.x], %v
"
        )
    };
    let ordered = checked(&kernel_from(&program(""), 8, &[]), race());
    assert_eq!(ordered.findings, vec![]);
    let late = checked(&kernel_from(&program("st.shared.u32   s[%laneid], 5"), 8, &[]), race());
    let kinds = race_kinds(&late);
    assert_eq!(kinds.len(), 1, "{:?}", late.findings);
    assert_eq!((kinds[0].1, kinds[0].2), (0, 1), "{:?}", late.findings);
}

/// The race check sees bytes: threads of different warps and blocks writing different bytes of one word (a
/// `u8` array written a byte a thread, with blocks of 99 threads, so blocks share words) race with nothing, in
/// global and shared memory; two writing the same byte without a barrier do, in both.
#[test]
fn race_check_tells_the_bytes_of_a_word_apart() {
    let text = |same: &str| {
        format!(
            ".grid 3
.block 99
.buffer out u32[84]
.shared sb u32[40]
.reg %i, %p
        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        st.global.u8        [out + %i], %i
        st.shared.u8        [sb + %tid.x], %i
{same}
"
        )
    };
    let clean = kernel_from(&text(""), 32, &[]);
    assert_eq!(races(&checked(&clean, race())), vec![]);
    // Thread i also writes byte i + 32: thread i + 32's byte (another warp's, or, past 98, another block's).
    let racy = kernel_from(
        &text("        st.global.u8        [out + %i + 32], %i\n        st.shared.u8        [sb + %tid.x + 32], %i"),
        32,
        &[],
    );
    let found: Vec<(Hazard, String, bool)> = races(&checked(&racy, race()))
        .into_iter()
        .map(|(h, a, _, g, ..)| (h, a, g))
        .collect();
    assert!(
        found.contains(&(Hazard::WriteAfterWrite, "out".to_string(), true))
            && found.contains(&(Hazard::WriteAfterWrite, "sb".to_string(), false)),
        "{found:?}"
    );
}
