//! Differential property tests: random well-formed programs run on the simulator and on an independent
//! reference interpreter ([`interp`], written from `docs/ISA.md`) must leave the same memory, bit for bit, and
//! fault alike; and the printer must round-trip them.
//!
//! * The random-program generator (crate `warpsim-random`, `warpsim_tools::random`) generates programs as
//!   structured values (proptest shrinks a failing one to a minimal program): for the reference
//!   ([`Target::Reference`]) at every warp size, with one or two warps per block (sometimes a partial last
//!   warp) and one or two blocks, faults on purpose included.
//! * The same generator's cross-check programs ([`Target::Gpu`], `warpsim_tools::random::generate`) are run through
//!   the reference too, and so are the shipped programs that the reference can run (no barriers, no
//!   `%clock`), 64-bit ones included.
//! * The edge-operand programs and the cross-check's regressions (`crosscheck/edges/`, `crosscheck/regressions/`)
//!   are run on the reference and compared with the values an H100 gave for them, which pins the reference's
//!   own 64-bit semantics to the hardware's.
//! * `branching_to_the_end_is_an_exit` pins the one disagreement found so far, a simulator bug now fixed:
//!   lanes that branched to the end of the program stayed live until their parent path ran.

mod interp;

use warpsim_tools::random::{self as generate, Target};

use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};
use warpsim::{Config, FaultKind, Launch, SimError, programs};
use warpsim_isa::{Op, Operand, Program, Special, parse, print};

fn assemble(src: &str) -> Result<Program, String> {
    parse("case.s", src, &programs::Resolver).map_err(|e| format!("does not assemble:\n{}", e.render(false)))
}

/// The simulator's fault in the reference's terms.
fn kind(k: &FaultKind) -> Option<interp::FaultKind> {
    Some(match k {
        FaultKind::DivideByZero => interp::FaultKind::DivideByZero,
        FaultKind::OutOfBounds {
            buffer, index, store, ..
        } => interp::FaultKind::OutOfBounds {
            buffer: buffer.clone(),
            index: *index,
            store: *store,
        },
        FaultKind::Misaligned {
            buffer,
            byte_offset,
            store,
            ..
        } => interp::FaultKind::Misaligned {
            buffer: buffer.clone(),
            byte_offset: *byte_offset,
            store: *store,
        },
        FaultKind::WarpSyncDivergence { missing } => interp::FaultKind::WarpSync { missing: *missing },
        _ => return None,
    })
}

/// Run `program` at warp size `w` on the simulator and on the reference; `Err` describes the first difference.
/// `Ok` has the number of shuffle reads PTX leaves undefined (the same in both).
///
/// The reference reconverges every divergent branch at its immediate post-dominator, so the simulator runs without
/// its `YIELD` model (`timing.yield_loops`: lanes leaving some loops run on alone, before the others, which changes
/// the instruction counts, and the values where lanes of one warp meet through memory in the order they run).
fn compare(program: &Program, w: u32) -> Result<u64, String> {
    let reference = interp::run(program, w);
    let mut config = Config::hopper().with_warp_size(w);
    config.timing.yield_loops = false;
    let sim = warpsim::simulate(program, &config, &Launch::default());
    match sim {
        Err(SimError::Load(e)) => Err(format!(
            "the simulator does not launch it: {}",
            e.render(program, false)
        )),
        Err(SimError::Fault(f)) => {
            // Each warp runs on its own data, so whichever warp the simulator saw fault first, its fault is that
            // warp's first fault in the reference.
            let ours = kind(&f.kind).map(|kind| interp::Fault {
                block: f.block,
                warp: f.warp,
                pc: f.pc as usize,
                lane: f.lane,
                kind,
            });
            match ours {
                Some(ours) if reference.faults.contains(&ours) => Ok(reference.undefined_shuffle_reads),
                _ => Err(format!(
                    "the simulator faults ({}: {:?} in block {}, warp {}, lane {:?}, pc {}), the reference {}",
                    f.message(),
                    f.kind,
                    f.block,
                    f.warp,
                    f.lane,
                    f.pc,
                    if reference.faults.is_empty() {
                        "does not".to_string()
                    } else {
                        format!(
                            "faults otherwise: {}",
                            reference
                                .faults
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("; ")
                        )
                    }
                )),
            }
        }
        Ok(_) if !reference.faults.is_empty() => Err(format!(
            "the reference faults ({}), the simulator does not",
            reference
                .faults
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ")
        )),
        Ok(out) => {
            for b in &out.buffers {
                let ours = reference.buffer(&b.name).ok_or(format!("no buffer {}", b.name))?;
                if let Some(i) = (0..b.data.len()).find(|&i| b.data[i] != ours[i]) {
                    return Err(format!(
                        "{}[{i}]: simulator 0x{:08x}, reference 0x{:08x} (as f32: {:e} vs {:e})",
                        b.name,
                        b.data[i],
                        ours[i],
                        f32::from_bits(b.data[i]),
                        f32::from_bits(ours[i])
                    ));
                }
            }
            let s = &out.stats;
            let counts = |a: u64, b: u64, what: &str| {
                if a == b {
                    Ok(())
                } else {
                    Err(format!("{what}: simulator {a}, reference {b}"))
                }
            };
            counts(s.warp_instructions, reference.warp_instructions, "warp instructions")?;
            counts(s.lane_instructions, reference.lane_instructions, "lane instructions")?;
            counts(s.divergent_branches, reference.divergent_branches, "divergent branches")?;
            counts(
                s.undefined_shuffle_reads,
                reference.undefined_shuffle_reads,
                "undefined shuffle reads",
            )?;
            Ok(reference.undefined_shuffle_reads)
        }
    }
}

/// `parse(print(p))` is equivalent to `p`, and printing is a fixed point.
fn round_trip(src: &str) -> Result<(), String> {
    let p = assemble(src)?;
    let text = print(&p);
    let again = assemble(&text).map_err(|e| format!("the printed program {e}\n{text}"))?;
    if !p.equivalent(&again) {
        return Err(format!("the printed program differs:\n{text}"));
    }
    let twice = print(&again);
    if twice != text {
        return Err(format!("printing is not a fixed point:\n{text}\n---\n{twice}"));
    }
    Ok(())
}

fn fail(src: &str, what: &str) -> TestCaseError {
    TestCaseError::fail(format!("{what}\n--- program ---\n{src}"))
}

/// `cases` cases, or `PROPTEST_CASES` for a longer hunt. A failure is saved in
/// `tests/differential/main.regressions` and replayed first by later runs.
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(512))]

    /// Generated programs: the simulator and the reference agree on every buffer, on faults, and on the
    /// instruction, lane, divergence and undefined-read counts; no generated shuffle is undefined.
    #[test]
    fn simulator_agrees_with_the_reference(case in generate::case(Target::Reference)) {
        let src = case.source();
        let program = assemble(&src).map_err(|e| fail(&src, &e))?;
        let undefined = compare(&program, case.w).map_err(|e| fail(&src, &e))?;
        prop_assert_eq!(undefined, 0, "the generator wrote an undefined shuffle:\n{}", src);
    }
}

proptest! {
    #![proptest_config(config(128))]

    /// Generated programs round-trip through the printer.
    #[test]
    fn printer_round_trips_generated_programs(case in generate::case(Target::Reference)) {
        let src = case.source();
        round_trip(&src).map_err(|e| fail(&src, &e))?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Random constant expressions in directives, immediates, displacements, shuffle operands and masks
    /// round-trip through the printer (its parentheses and literals).
    #[test]
    fn printer_round_trips_expressions(
        any in prop::collection::vec(generate::expr(true), 1..4),
        ints in prop::collection::vec(generate::expr(false), 1..4),
    ) {
        let src = generate::expression_program(&any, &ints);
        round_trip(&src).map_err(|e| fail(&src, &e))?;
    }
}

/// The cross-check's programs (the GPU target), but those with block barriers, which the reference does not
/// model.
#[test]
fn reference_agrees_on_crosscheck_random_programs() {
    let mut checked = 0;
    for seed in [1, 0x5eed] {
        for index in 0..60 {
            let r = warpsim_tools::random::generate(seed, index);
            let program = assemble(&r.source).unwrap_or_else(|e| panic!("{}: {e}", r.name));
            if outside_the_reference(&program) {
                continue;
            }
            if let Err(e) = compare(&program, 32) {
                panic!("{}: {e}\n--- program ---\n{}", r.name, r.source);
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} of 120 programs were checked");
}

#[test]
fn printer_round_trips_crosscheck_random_programs() {
    for index in 0..100 {
        let r = warpsim_tools::random::generate(7, index);
        if let Err(e) = round_trip(&r.source) {
            panic!("{}: {e}\n--- program ---\n{}", r.name, r.source);
        }
    }
}

/// Does the program use what the reference does not model (barriers, which need warps to interleave, and
/// `%clock`, which is timing)?
fn outside_the_reference(p: &Program) -> bool {
    // (The reference runs diverged paths in lockstep, and interprets neither the carry chain, directed roundings,
    // the SFU's approximations nor 16-bit floats.)
    p.scheduling == Some(warpsim_isa::Scheduling::Its)
        || p.instructions.iter().any(|i| {
            matches!(
                i.op,
                Op::Bar { .. } | Op::Carry { .. } | Op::Rounded { .. } | Op::Approx { .. } | Op::Half { .. }
            ) || i
                .op
                .sources()
                .iter()
                .any(|o| matches!(o, Operand::Special(Special::Clock)))
        })
}

#[test]
fn reference_agrees_on_shipped_programs() {
    let mut checked = 0;
    for name in programs::names() {
        let p = programs::assemble(name).expect("shipped").expect("assembles");
        if outside_the_reference(&p) {
            continue;
        }
        for w in [2, 4, 8, 16, 32, 64] {
            if warpsim::instantiate(&p, &Config::hopper().with_warp_size(w), &Launch::default()).is_err() {
                continue;
            }
            if let Err(e) = compare(&p, w) {
                panic!("{name} at W={w}: {e}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} shipped program launches were checked");
}

/// ISA.md: "branching to a label after the last instruction, is an `exit`", and `bar.sync`/`bar.warp.sync`
/// wait only for the lanes that have not exited. The simulator failed this when the branch was on a path whose
/// reconvergence point is the exit (found by `simulator_agrees_with_the_reference`): `SimtStack::settle`
/// popped an entry that reached pc `len` (the encoding of "reconverge at exit") as a merge, so its lanes stayed
/// in the parent entries, alive, until the parent ran, and a barrier on the other path meanwhile counted them
/// as missing. Now an entry at the end is left for the SM to exit its lanes.
#[test]
fn branching_to_the_end_is_an_exit() {
    for barrier in ["bar.warp.sync", "bar.sync 0"] {
        let src = format!(
            ".pred %low\n        setp.lt.u32 %low, %laneid, 2\n        @%low bra work\n        bra done\nwork:\n        {barrier}\ndone:\n"
        );
        let p = assemble(&src).expect("assembles");
        let run = warpsim::simulate(&p, &Config::hopper().with_warp_size(4), &Launch::default());
        assert!(
            run.is_ok(),
            "`{barrier}`: lanes 2 and 3 have exited, yet: {:?}",
            run.err().map(|e| match e {
                SimError::Fault(f) => f.message(),
                SimError::Load(_) => "load error".into(),
            })
        );
    }
}

/// The edge-operand programs and the cross-check's regressions (`crosscheck/edges/`, `crosscheck/regressions/`)
/// come with the values an H100 computed for them (`*.gpu.json`): the reference gives the same bits, buffer by
/// buffer, so its 64-bit semantics (f64 NaNs, conversions with every rounding, 64-bit atomics in both spaces,
/// `mul.hi`/`.wide`, directed roundings: `edges_64`) are the hardware's, not just the simulator's; and the
/// simulator agrees with it on them.
#[test]
fn reference_gives_the_gpus_values_on_the_edge_programs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crosscheck");
    let mut files: Vec<_> = ["regressions", "edges"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    let mut checked = 0;
    for path in &files {
        let source = std::fs::read_to_string(path).unwrap();
        let program = assemble(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if program.scheduling == Some(warpsim_isa::Scheduling::Its)
            || program.instructions.iter().any(|i| {
                matches!(
                    i.op,
                    Op::Bar { .. } | Op::Carry { .. } | Op::Rounded { .. } | Op::Approx { .. } | Op::Half { .. }
                )
            })
        {
            // (edges_its: the reference runs diverged paths in lockstep; edges_arrive: it runs warps one after
            // the other, so no block barrier; edges_carry: it interprets neither the carry chain nor directed
            // roundings, which `tests/crosscheck.rs` checks against the GPU's values.)
            continue;
        }
        assert!(!outside_the_reference(&program), "{}", path.display());
        checked += 1;
        let reference = interp::run(&program, 32);
        assert!(
            reference.faults.is_empty(),
            "{}: {:?}",
            path.display(),
            reference.faults
        );
        let gpu: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path.with_extension("gpu.json")).unwrap()).unwrap();
        for (name, ours) in &reference.buffers {
            let want: Vec<u32> = gpu["buffers"][name]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no buffer {name}", path.display()))
                .iter()
                .map(|v| u32::try_from(v.as_u64().unwrap()).unwrap())
                .collect();
            if let Some(i) = (0..want.len()).find(|&i| ours[i] != want[i]) {
                panic!(
                    "{}: {name}[{i}]: reference 0x{:08x}, GPU 0x{:08x}",
                    path.display(),
                    ours[i],
                    want[i]
                );
            }
            assert_eq!(ours.len(), want.len(), "{}: {name}", path.display());
        }
        if let Err(e) = compare(&program, 32) {
            panic!("{}: {e}", path.display());
        }
    }
    assert_eq!((files.len(), checked), (23, 17));
}
