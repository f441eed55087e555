//! The whole-GPU engine: 132 SMs, blocks dealt as SMs free up, SMs simulated on host threads. Every result
//! (values, cycles, statistics, trace) must be the same for every number of host threads.

use warpsim::render::json;
use warpsim::{Config, Event, Kernel, Launch, RunOptions, RunOutput, programs};
use warpsim_isa::Value;

fn kernel(name: &str, w: u32, set: &[(&str, i64)], config: &Config) -> Kernel {
    let program = programs::assemble(name).expect("shipped").expect("assembles");
    let launch = Launch {
        set: set.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect(),
        ..Launch::default()
    };
    warpsim::instantiate(&program, &config.clone().with_warp_size(w), &launch)
        .unwrap_or_else(|e| panic!("{name} W={w} {set:?}: {}", e.render(&program, false)))
}

/// Run with `threads` host threads, tracing: the output and the events (the JSON, text and pictures are functions
/// of these).
fn run(kernel: &Kernel, config: &Config, threads: usize) -> (RunOutput, Vec<Event>) {
    let options = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(kernel, config, &options, &mut events).expect("runs");
    (out, events)
}

/// The same output, trace and statistics on 1, 2 and 4 host threads, and untraced; the trace in cycle, then SM
/// order.
fn assert_identical_on_1_2_and_4_threads(name: &str, w: u32, set: &[(&str, i64)], config: &Config) -> RunOutput {
    let config = config.clone().with_warp_size(w);
    let k = kernel(name, w, set, &config);
    let (one, trace1) = run(&k, &config, 1);
    assert!(one.stats.warp_instructions > 0);
    assert_in_cycle_then_sm_order(&trace1, name);
    for threads in [2, 4] {
        let (out, trace) = run(&k, &config, threads);
        assert_eq!(
            out, one,
            "{name} W={w} {set:?}: results differ between 1 and {threads} threads"
        );
        assert!(
            trace == trace1,
            "{name} W={w} {set:?}: traces differ between 1 and {threads} threads"
        );
    }
    // Tracing changes nothing either.
    let quiet = warpsim::run(&k, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(quiet, one, "{name} W={w} {set:?}: tracing changed the run");
    one
}

/// Every shipped program at every warp size it supports: identical output at T = 1, 2 and 4.
#[test]
fn every_program_gives_identical_output_on_1_2_and_4_threads() {
    let config = Config::hopper();
    for name in programs::names() {
        for w in warpsim_tests::supported_warp_sizes(name) {
            assert_identical_on_1_2_and_4_threads(name, w, &[], &config);
        }
    }
}

/// A program, its warp size and its `--set` overrides.
type Case = (&'static str, u32, &'static [(&'static str, i64)]);

/// Grids larger than the machine (a 16-SM one, so that the grids stay small): blocks wait for an SM, SMs take
/// several blocks in turn, global atomics and stores of many SMs meet at epoch boundaries; identical output at
/// T = 1, 2 and 4.
#[test]
fn grids_larger_than_the_machine_give_identical_output_on_1_2_and_4_threads() {
    let config = Config {
        sms: 16,
        ..Config::hopper()
    };
    let cases: [Case; 5] = [
        ("block_reduce", 32, &[("n", 1 << 16)]),
        ("block_sum", 32, &[("n", 1 << 16)]),
        ("moving_average", 32, &[("size", 1 << 15)]),
        ("histogram_bin", 32, &[("blocks", 512)]),
        ("butterfly_max", 8, &[("warps", 2048)]),
    ];
    for (name, w, set) in cases {
        let out = assert_identical_on_1_2_and_4_threads(name, w, set, &config);
        // Some block waited for room on an SM: the grid is larger than the machine.
        assert!(
            out.stats.stalls.not_launched > 0,
            "{name} {set:?}: every block launched at once"
        );
    }
}

/// The trace is in cycle order, and within a cycle in SM order (each block's SM from its launch event).
fn assert_in_cycle_then_sm_order(events: &[Event], name: &str) {
    let mut sm_of = std::collections::HashMap::new();
    let mut last = (0u64, 0u32);
    for e in events {
        let block = match e {
            Event::BlockLaunch { block, sm, .. } => {
                sm_of.insert(*block, *sm);
                *block
            }
            Event::Issue(i) => i.block,
            Event::Diverge { block, .. }
            | Event::Reconverge { block, .. }
            | Event::WarpExit { block, .. }
            | Event::BarrierArrive { block, .. }
            | Event::AtomicReturn { block, .. }
            | Event::BarrierRelease { block, .. } => *block,
        };
        let at = (e.cycle(), sm_of[&block]);
        assert!(at >= last, "{name}: {at:?} after {last:?}");
        last = at;
    }
}

/// Float atomics from many blocks (on many SMs) to one address: f32 addition is not associative, so the sum
/// depends on the order; the order is fixed by the engine, not by the host's threads.
#[test]
#[allow(
    clippy::cast_precision_loss,
    reason = "the exact sum, 2^17 (2^17 + 1) / 2, is far below 2^53: exact in f64"
)]
fn float_atomics_from_every_sm_to_one_address_add_up_in_a_fixed_order() {
    let config = Config::hopper();
    // 2^17 elements 1..=n: the exact sum (about 8.6e9) is far beyond f32's 24-bit mantissa, so every order of
    // the 512 block sums rounds differently.
    let k = kernel("block_sum", 32, &[("n", 1 << 17)], &config);
    let bits = |out: &RunOutput| out.buffer("out").expect("out").data[0];
    let (one, _) = run(&k, &config, 1);
    for threads in [2, 3, 4, 8] {
        let (out, _) = run(&k, &config, threads);
        assert_eq!(bits(&out), bits(&one), "{threads} threads");
    }
    // The blocks really came from many SMs within one epoch each: a single SM (one order: block order) sums
    // differently, which shows that the order matters here.
    let single = Config {
        sms: 1,
        ..config.clone()
    };
    let out = warpsim::run(&k, &single, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    let sum = f32::from_bits(bits(&one));
    let exact = (1u64 << 17) * ((1u64 << 17) + 1) / 2;
    assert!(
        (f64::from(sum) - exact as f64).abs() / (exact as f64) < 1e-3,
        "{sum} vs {exact}"
    );
    assert_ne!(
        bits(&out),
        bits(&one),
        "the order of the atomics changes the rounded sum"
    );
}

/// Blocks are dealt to every SM; a grid larger than the machine waits for room.
#[test]
fn blocks_spread_over_every_sm_and_the_rest_wait_for_room() {
    let config = Config::hopper();
    // block_reduce: 4 warps of 32 per block, 16 blocks per SM (64 warp slots).
    let k = kernel("block_reduce", 32, &[("n", 128 * 132 * 16 * 2)], &config);
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(&k, &config, &RunOptions::default(), &mut events).expect("runs");
    let mut per_sm = vec![0u32; 132];
    let mut launched_at_0 = 0;
    for e in &events {
        if let Event::BlockLaunch { cycle, sm, .. } = e {
            per_sm[*sm as usize] += 1;
            launched_at_0 += u32::from(*cycle == 0);
        }
    }
    // The first wave fills every SM (16 blocks each) at cycle 0; the second wave goes where room frees up.
    assert_eq!(launched_at_0, 132 * 16);
    assert_eq!(per_sm.iter().sum::<u32>(), 132 * 16 * 2);
    assert!(per_sm.iter().all(|&n| n >= 16), "{per_sm:?}");
    assert!(out.stats.stalls.not_launched > 0);
    // Every block's sum is right.
    let sums = &out.buffer("out").expect("out").data;
    for (b, &s) in sums.iter().enumerate() {
        let first = b as u64 * 128;
        assert_eq!(
            u64::from(s),
            (first..first + 128).sum::<u64>() & 0xffff_ffff,
            "block {b}"
        );
    }
    // A machine of 132 SMs runs a grid of 132 blocks in about the time one SM runs one block.
    let one_block = kernel("block_reduce", 32, &[("n", 128)], &config);
    let alone = warpsim::run(&one_block, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    let wave = kernel("block_reduce", 32, &[("n", 128 * 132)], &config);
    let full = warpsim::run(&wave, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(full.cycles, alone.cycles, "each block alone on its SM");
}

/// One SM takes every block: the single-SM machine.
#[test]
fn one_sm_takes_every_block() {
    let config = Config {
        sms: 1,
        ..Config::hopper()
    };
    let k = kernel("block_reduce", 32, &[("n", 128 * 40)], &config);
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(&k, &config, &RunOptions::default(), &mut events).expect("runs");
    let sms: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::BlockLaunch { sm, .. } => Some(*sm),
            _ => None,
        })
        .collect();
    assert_eq!(sms, vec![0; 40]);
    let many = warpsim::run(&k, &Config::hopper(), &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(out.buffers, many.buffers);
    assert!(out.cycles > many.cycles, "{} vs {}", out.cycles, many.cycles);
}

/// A global store of one SM is seen by another SM only from the next epoch on; an SM sees its own stores at
/// once.
#[test]
fn global_stores_reach_other_sms_at_the_epoch_boundary() {
    // Block 0 stores 7 to flag[0] at once; block 1 (on SM 1) reads flag[0] at once and again after spinning past
    // an epoch (`epoch_cycles` = 287 on hopper) on its %clock; each block also reads back its own store.
    let text = "\
.kernel visibility
.grid 2
.block 1
.buffer flag u32[1]
.buffer seen u32[6]
.reg %b, %v, %t0, %t, %d
.pred %p, %wait
        mov.u32 %b, %ctaid.x
        setp.eq.u32 %p, %b, 0
        @%p st.global.u32 flag[0], 7
        ld.global.u32 %v, flag[0]
        st.global.u32 seen[%b], %v
        mov.u32 %t0, %clock
spin:   mov.u32 %t, %clock
        sub.u32 %d, %t, %t0
        setp.lt.u32 %wait, %d, 600
        @%wait bra spin
        ld.global.u32 %v, flag[0]
        add.u32 %b, %b, 2
        st.global.u32 seen[%b], %v
";
    let program = warpsim_tests::assemble(text);
    let config = Config::hopper().with_warp_size(2);
    let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let out = warpsim::run(&k, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    let seen = &out.buffer("seen").expect("seen").data;
    // Block 0 sees its own store at once; block 1, on another SM, not yet; both see it after the epoch.
    assert_eq!(seen[..4], [7, 0, 7, 7]);
}

/// An SM sees its own global writes in issue order within an epoch, stores and atomics to one word interleaved
/// (stores reach the SM's own view lazily, atomics at once: the order must survive that), and the word holds the
/// last of them after the commit; another buffer written alongside stays apart.
#[test]
fn an_sm_reads_its_own_stores_and_atomics_in_issue_order() {
    let text = "\
.kernel own_writes
.grid 1
.block 1
.buffer g u32[2]
.buffer seen u32[5]
.reg %a, %o
        st.global.u32 g[0], 5
        st.global.u32 g[1], 9
        atom.global.add.u32 %o, g[0], 3
        ld.global.u32 %a, g[0]
        st.global.u32 seen[0], %a
        st.global.u32 g[0], 100
        ld.global.u32 %a, g[0]
        st.global.u32 seen[1], %a
        atom.global.add.u32 %o, g[0], 1
        ld.global.u32 %a, g[0]
        st.global.u32 seen[2], %a
        st.global.u32 g[0], 40
        atom.global.max.u32 %o, g[0], 30
        ld.global.u32 %a, g[0]
        st.global.u32 seen[3], %a
        ld.global.u32 %a, g[1]
        st.global.u32 seen[4], %a
";
    let program = warpsim_tests::assemble(text);
    let config = Config::hopper().with_warp_size(2);
    let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let out = warpsim::run(&k, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(out.buffer("seen").expect("seen").data, [8, 100, 101, 40, 9]);
    assert_eq!(out.buffer("g").expect("g").data, [40, 9]);
}

/// Run `text` (W = 32) with options; the fault, and the trace as JSON lines.
fn fault_of(text: &str, options: &RunOptions, traced: bool) -> (warpsim::Fault, Vec<String>) {
    let program = warpsim_tests::assemble(text);
    let config = Config::hopper();
    let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let mut events: Vec<Event> = Vec::new();
    let result = if traced {
        warpsim::run(&k, &config, options, &mut events)
    } else {
        warpsim::run(&k, &config, options, &mut warpsim::NoTrace)
    };
    let lines = events.iter().map(|e| json::event_line(&k, e)).collect();
    (result.expect_err("faults"), lines)
}

/// The first fault in cycle order ends the run, whether or not it is traced and on any number of threads: here
/// block 1's out-of-bounds store (cycle 35), not block 0's later cycle limit (its load's result arrives after
/// the limit of 100 cycles, beyond the epoch).
#[test]
fn the_first_fault_in_cycle_order_wins_traced_or_not() {
    let text = "\
.grid 2
.block 32
.buffer in  u32[32] = i
.buffer out u32[32]
.reg %v, %b, %x
.pred %p
        mov.u32             %b, %ctaid.x
        setp.eq.u32         %p, %b, 0
        @%p bra             zero
        add.u32             %x, %b, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        st.global.u32       out[100], %x
        exit
zero:
        ld.global.u32       %v, in[0]
        add.u32             %v, %v, 1
        st.global.u32       out[0], %v
";
    let mut seen = Vec::new();
    for threads in [1, 2] {
        for traced in [false, true] {
            let options = RunOptions {
                max_cycles: 100,
                threads,
                ..RunOptions::default()
            };
            let (fault, trace) = fault_of(text, &options, traced);
            assert!(
                matches!(fault.kind, warpsim::FaultKind::OutOfBounds { .. }),
                "{fault:?}"
            );
            assert_eq!((fault.block, fault.cycle), (1, 35));
            if traced {
                seen.push(trace);
            }
        }
    }
    assert_eq!(seen[0], seen[1]);
}

/// Blocks 0 and 1 (on SMs 0 and 1) each add 1 to c[0] from 32 lanes in one epoch; block 2, when `.grid 3`,
/// stores out of bounds soon after.
const TWO_ATOMICS: &str = "\
.block 32
.buffer c u32[1]
.buffer out u32[32]
.reg %t, %b, %x
.pred %p
        mov.u32             %b, %ctaid.x
        setp.eq.u32         %p, %b, 2
        @%p bra             bad
        atom.global.add.u32 %t, c[0], 1
        exit
bad:
        add.u32             %x, %b, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        add.u32             %x, %x, 1
        st.global.u32       out[100], %x
";

/// A global atomic's old values are their own event, at the cycle the atomic completes, with the values the
/// epoch's commit gives them (SM 0 commits first, so block 1's lanes see 32..63); the atomic's issue event shows
/// no value for the register, and no event is changed after it was made. The same on 1, 2 and 4 threads.
#[test]
fn a_global_atomics_old_values_arrive_as_their_own_event_at_its_completion() {
    let config = Config::hopper();
    let program = warpsim_tests::assemble(&format!(".grid 2\n{TWO_ATOMICS}"));
    let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let (_, events) = run(&k, &config, 1);
    for threads in [2, 4] {
        assert_eq!(run(&k, &config, threads).1, events, "{threads} threads");
    }
    assert_in_cycle_then_sm_order(&events, "two atomics");
    let issues: Vec<&warpsim::trace::Issue> = events
        .iter()
        .filter_map(|e| match e {
            Event::Issue(i) if i.pc == 3 => Some(&**i),
            _ => None,
        })
        .collect();
    assert_eq!(issues.len(), 2);
    assert!(
        issues.iter().all(|i| i.write.is_none()),
        "the atomics' issues show no value"
    );
    let returns: Vec<(u64, u32, u32, u16, u64, Vec<u64>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::AtomicReturn {
                cycle,
                block,
                pc,
                reg,
                lanes,
                values,
                ..
            } => Some((*cycle, *block, *pc, *reg, *lanes, values.clone())),
            _ => None,
        })
        .collect();
    let t = u16::try_from(program.regs.iter().position(|r| r.name == "t").expect("%t")).expect("a register number");
    let expected: Vec<(u64, u32, u32, u16, u64, Vec<u64>)> = issues
        .iter()
        .map(|i| {
            let from = i.block * 32;
            (
                i.complete,
                i.block,
                3,
                t,
                u64::from(u32::MAX),
                (u64::from(from)..u64::from(from) + 32).collect(),
            )
        })
        .collect();
    assert_eq!(returns, expected);
    // The values arrive when the atomic completes, after its issue.
    assert!(issues.iter().all(|i| i.complete > i.cycle));
    // JSON Lines: one record of the schema's `atomic_return`.
    let first = events
        .iter()
        .find(|e| matches!(e, Event::AtomicReturn { .. }))
        .expect("a return");
    let line: serde_json::Value = serde_json::from_str(&json::event_line(&k, first)).expect("JSON");
    assert_eq!(line["event"], "atomic_return");
    assert_eq!(line["register"], "%t");
    assert_eq!(line["lanes"], "0xffffffff");
    assert_eq!(line["values"], serde_json::json!((0..32).collect::<Vec<u32>>()));
}

/// A traced run that faults before its atomics complete shows them issued and no value arriving: block 2's
/// out-of-bounds store ends the run while the atomics of blocks 0 and 1 are still in flight.
#[test]
fn atomics_still_in_flight_at_a_fault_return_nothing() {
    let (fault, trace) = fault_of(&format!(".grid 3\n{TWO_ATOMICS}"), &RunOptions::default(), true);
    let events: Vec<serde_json::Value> = trace
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .collect();
    let atomics: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["instruction"].as_str().is_some_and(|i| i.starts_with("atom")))
        .collect();
    assert_eq!(atomics.len(), 2);
    assert!(atomics.iter().all(|e| e.get("write").is_none()));
    assert!(
        atomics
            .iter()
            .all(|e| e["complete"].as_u64().expect("complete") > fault.cycle)
    );
    assert!(!events.iter().any(|e| e["event"] == "atomic_return"));
}

/// Generated programs at every warp size the generator draws, untraced and traced: the same values, cycles and
/// statistics, or the same fault. An untraced run keeps registers in shared rows and issues an instruction that
/// only computes lane values, a shuffle of a converged warp and a branch that does not split by shorter ways
/// (`Shared::quick` in `sm.rs`); a traced run does neither. With a check on, the untraced run takes the whole way
/// too, and must again give the same run.
#[test]
fn generated_programs_run_the_same_traced_or_not() {
    use warpsim_tools::random::{Target, seeded};
    let mut compared = std::collections::BTreeMap::new();
    for index in 0..300 {
        let case = seeded(Target::Reference, 31, index);
        let src = case.source();
        let program = warpsim_isa::parse("case.s", &src, &programs::Resolver).expect("assembles");
        let config = Config::hopper().with_warp_size(case.w);
        let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
        let options = RunOptions::default();
        let quiet = warpsim::run(&k, &config, &options, &mut warpsim::NoTrace);
        let mut events: Vec<Event> = Vec::new();
        let traced = warpsim::run(&k, &config, &options, &mut events);
        let checked_options = RunOptions {
            checks: warpsim::Checks::parse("init").expect("a check"),
            ..RunOptions::default()
        };
        let checked = warpsim::run(&k, &config, &checked_options, &mut warpsim::NoTrace);
        match (&quiet, &traced, &checked) {
            (Ok(a), Ok(b), Ok(c)) => {
                assert_eq!(a, b, "case {index} at W = {}: tracing changed the run\n{src}", case.w);
                assert_eq!(
                    (&a.buffers, a.cycles, &a.stats),
                    (&c.buffers, c.cycles, &c.stats),
                    "case {index} at W = {}: a check changed the run\n{src}",
                    case.w
                );
            }
            (Err(a), Err(b), _) => assert_eq!(a, b, "case {index}: tracing changed the fault\n{src}"),
            _ => panic!(
                "case {index} at W = {}: the runs end differently: {:?} {:?} {:?}\n{src}",
                case.w,
                quiet.as_ref().map(|o| o.cycles),
                traced.as_ref().map(|o| o.cycles),
                checked.as_ref().map(|o| o.cycles)
            ),
        }
        *compared.entry(case.w).or_insert(0) += 1;
    }
    assert_eq!(compared.keys().copied().collect::<Vec<_>>(), vec![2, 4, 8, 16, 32, 64]);
}
