//! Independent thread scheduling (`RunOptions::scheduling`, `--scheduling its`; issue 20, item 5): the paths
//! of a diverged warp issue in turn, reconverge at the branch's immediate post-dominator, and `bar.warp.sync`
//! waits for the lanes of its mask. Lockstep (the default) is unchanged.

use warpsim::{Config, FaultKind, Kernel, Launch, RunOptions, RunOutput, Scheduling, programs};
use warpsim_tests::u32s;

fn kernel(text: &str, w: u32) -> Kernel {
    let program = warpsim_tests::assemble(text);
    warpsim::instantiate(&program, &Config::hopper().with_warp_size(w), &Launch::default())
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)))
}

fn run(k: &Kernel, scheduling: Scheduling) -> Result<RunOutput, warpsim::Fault> {
    let config = Config::hopper().with_warp_size(k.warp_size);
    let options = RunOptions {
        scheduling: Some(scheduling),
        max_instructions: 100_000,
        ..RunOptions::default()
    };
    warpsim::run(k, &config, &options, &mut warpsim::NoTrace)
}

/// A producer and its consumers in one warp, on two paths, meeting at `bar.warp.sync` (the `bar.warp.sync` of
/// each path waits for the other's).
const HANDOFF: &str = "
.block W
.buffer out u32[W]
.shared box u32[W]
.reg %i, %v
.pred %producer, %more
        setp.eq.u32         %producer, %laneid, 0
        @!%producer bra     consume
        mov.u32             %i, 0
fill:
        mad.lo.u32          %v, %i, %i, 1
        st.shared.u32       box[%i], %v
        add.u32             %i, %i, 1
        setp.lt.u32         %more, %i, W
        @%more bra          fill
        bar.warp.sync
        bra                 read
consume:
        bar.warp.sync
read:
        ld.shared.u32       %v, box[%laneid]
        st.global.u32       out[%laneid], %v
";

#[test]
fn a_producer_and_its_consumers_meet_at_bar_warp_sync_on_different_paths() {
    for w in [8, 32, 64] {
        let k = kernel(HANDOFF, w);
        let out = run(&k, Scheduling::Its).expect("runs under ITS");
        let want: Vec<u32> = (0..w).map(|i| i * i + 1).collect();
        assert_eq!(u32s(&out, "out"), want, "W = {w}");
        // Lockstep: the producer's path runs alone to its bar.warp.sync, the consumers are on the other path.
        let fault = run(&k, Scheduling::Lockstep).expect_err("faults in lockstep");
        let full = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        assert_eq!(fault.kind, FaultKind::WarpSyncDivergence { missing: full & !1 });
        assert_eq!(fault.pc, 8);
    }
}

#[test]
fn a_spin_wait_on_another_paths_store_terminates_under_its_only() {
    let text = "
.buffer out u32[W]
.shared flag u32[1]
.reg %v
.pred %p, %q
        setp.eq.u32     %p, %laneid, 0
        @!%p bra        setter
spin:
        ld.shared.u32   %v, flag[0]
        setp.eq.u32     %q, %v, 0
        @%q bra         spin
        bra             done
setter:
        mov.u32         %v, 7
        st.shared.u32   flag[0], %v
done:
        st.global.u32   out[%laneid], %v
";
    let k = kernel(text, 8);
    let out = run(&k, Scheduling::Its).expect("the setter's path runs while lane 0 spins");
    assert_eq!(u32s(&out, "out"), vec![7; 8]);
    // One divergent branch: the spin loop's branch is uniform on lane 0's path.
    assert_eq!(out.stats.divergent_branches, 1);
    let fault = run(&k, Scheduling::Lockstep).expect_err("lane 0 spins alone in lockstep");
    assert!(
        matches!(fault.kind, FaultKind::InstructionLimit { .. }),
        "{:?}",
        fault.kind
    );
    // Stopped at an epoch boundary, wherever in its loop (pcs 2 to 4) lane 0 then is.
    assert!((2..=4).contains(&fault.pc), "pc {}", fault.pc);
}

#[test]
fn lanes_that_never_arrive_are_a_deadlock_naming_the_paths() {
    // Lanes 0-3 skip the bar.warp.sync that names them, and wait at the reconvergence point.
    let text = "
.pred %p
        setp.lt.u32     %p, %laneid, 4
        @%p bra         skip
        bar.warp.sync
skip:
        exit
";
    let k = kernel(text, 8);
    let fault = run(&k, Scheduling::Its).expect_err("a deadlock");
    assert_eq!(
        fault.kind,
        FaultKind::WarpSyncDeadlock {
            paths: vec![(2, 0xf0)],
            missing: 0x0f
        }
    );
    assert_eq!((fault.pc, fault.lane, fault.warp), (2, Some(4), 0));
    assert_eq!(
        fault.message(),
        "warp-synchronous deadlock: every path of the warp waits, and lanes 0-3 named in their member masks never arrive:\n  lanes 4-7 wait at pc 2"
    );
}

#[test]
fn warp_operations_with_activemask_masks_run_alike_in_both_modes() {
    // Each path names its own lanes (activemask): nothing waits, and the values are the lockstep ones.
    let text = "
.buffer out u32[W]
.reg %m, %v
.pred %low
        setp.lt.u32         %low, %laneid, 4
        @%low bra           low
        activemask.b32      %m
        shfl.sync.idx.b32   %v, %laneid, 4, mask=%m
        bra                 done
low:
        activemask.b32      %m
        shfl.sync.idx.b32   %v, %laneid, 3, mask=%m
        add.u32             %v, %v, 100
done:
        st.global.u32       out[%laneid], %v
";
    let k = kernel(text, 8);
    let its = run(&k, Scheduling::Its).expect("runs");
    let lockstep = run(&k, Scheduling::Lockstep).expect("runs");
    assert_eq!(u32s(&its, "out"), vec![103, 103, 103, 103, 4, 4, 4, 4]);
    assert_eq!(u32s(&lockstep, "out"), u32s(&its, "out"));
}

#[test]
fn every_shipped_program_gives_the_same_values_in_both_modes() {
    for name in programs::names() {
        let program = programs::assemble(name).expect("shipped").expect("assembles");
        let config = Config::hopper();
        let k = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
        let its = run(&k, Scheduling::Its).unwrap_or_else(|f| panic!("{name}: {}", f.message()));
        if program.scheduling == Some(Scheduling::Its) {
            // A program that declares `.scheduling its` relies on it (warp_pipeline, tested below).
            assert!(run(&k, Scheduling::Lockstep).is_err(), "{name} runs in lockstep too");
            continue;
        }
        let lockstep = run(&k, Scheduling::Lockstep).expect("runs");
        for b in &lockstep.buffers {
            let other = its.buffers.iter().find(|x| x.name == b.name).expect("same buffers");
            assert_eq!(b.data, other.data, "{name}: {}", b.name);
        }
        // Without divergence the two modes issue the same instructions at the same cycles.
        if lockstep.stats.divergent_branches == 0 {
            assert_eq!(lockstep.cycles, its.cycles, "{name}");
        }
    }
}

/// Even lanes and odd lanes on two paths, each at its own `shfl.sync.bfly` (different registers, values and
/// destinations), exchanging with each other as the GPU does under independent thread scheduling.
const ACROSS: &str = "
.buffer out u32[W]
.buffer ok u32[W]
.reg %x, %v, %u, %k
.pred %even, %p, %q
        and.b32             %x, %laneid, 1
        setp.eq.u32         %even, %x, 0
        @!%even bra         odd
        mul.lo.u32          %x, %laneid, 10
        shfl.sync.bfly.b32  %v|%p, %x, 1
        selp.u32            %k, 1, 0, %p
        st.global.u32       out[%laneid], %v
        st.global.u32       ok[%laneid], %k
        bra                 done
odd:
        add.u32             %u, %laneid, 1000
        shfl.sync.bfly.b32  %x|%q, %u, 1
        selp.u32            %k, 1, 0, %q
        st.global.u32       out[%laneid], %x
        st.global.u32       ok[%laneid], %k
done:
";

#[test]
fn shuffles_at_different_instructions_exchange_under_its() {
    for w in [2, 8, 32, 64] {
        let k = kernel(ACROSS, w);
        let out = run(&k, Scheduling::Its).unwrap_or_else(|f| panic!("W = {w}: {}", f.message()));
        // An even lane reads its odd neighbour's u = lane + 1 + 1000; an odd lane its even neighbour's x.
        let want: Vec<u32> = (0..w)
            .map(|l| if l % 2 == 0 { l + 1 + 1000 } else { (l - 1) * 10 })
            .collect();
        assert_eq!(u32s(&out, "out"), want, "W = {w}");
        assert_eq!(u32s(&out, "ok"), vec![1; w as usize], "W = {w}");
        // Two issues of a shuffle (one per path), each counted, no undefined read.
        assert_eq!(out.stats.shuffles, 2, "W = {w}");
        assert_eq!(out.stats.undefined_shuffle_reads, 0, "W = {w}");
        // Lockstep: each path shuffles alone; the lanes of the other path are not executing, so every read
        // is undefined (and reads registers the other path has not written yet).
        let lockstep = run(&k, Scheduling::Lockstep).expect("runs");
        assert_ne!(u32s(&lockstep, "out"), want, "W = {w}");
        assert_eq!(lockstep.stats.undefined_shuffle_reads, u64::from(w), "W = {w}");
    }
}

#[test]
fn votes_and_matches_at_different_instructions_combine_every_lanes_own_operand() {
    // Lanes 0-2 ballot on "lane is odd", the others on "lane > 5", at two instructions; match.any likewise
    // on lane / 2 and lane / 4.
    let text = "
.buffer ballot u32[W]
.buffer any u32[W]
.buffer same u32[W]
.reg %b, %m, %x, %k
.pred %low, %p, %all
        setp.lt.u32         %low, %laneid, 3
        @!%low bra          high
        and.b32             %x, %laneid, 1
        setp.eq.u32         %p, %x, 1
        vote.sync.ballot.b32 %b, %p
        shr.u32             %x, %laneid, 1
        match.sync.any.b32  %m, %x
        vote.sync.all.pred  %all, %p
        bra                 done
high:
        setp.gt.u32         %p, %laneid, 5
        vote.sync.ballot.b32 %b, %p
        shr.u32             %x, %laneid, 2
        match.sync.any.b32  %m, %x
        vote.sync.all.pred  %all, %p
done:
        selp.u32            %k, 1, 0, %all
        st.global.u32       ballot[%laneid], %b
        st.global.u32       any[%laneid], %m
        st.global.u32       same[%laneid], %k
";
    let k = kernel(text, 8);
    let out = run(&k, Scheduling::Its).unwrap_or_else(|f| panic!("{}", f.message()));
    // Lane 1 (odd, low) and lanes 6, 7 (high, > 5).
    assert_eq!(u32s(&out, "ballot"), vec![0b1100_0010; 8]);
    // Keys: lanes 0-2 → 0, 0, 1; lanes 3-7 → 0, 1, 1, 1, 1.
    let keys = [0u32, 0, 1, 0, 1, 1, 1, 1];
    let want: Vec<u32> = keys
        .iter()
        .map(|&k| keys.iter().enumerate().filter(|e| *e.1 == k).map(|e| 1u32 << e.0).sum())
        .collect();
    assert_eq!(u32s(&out, "any"), want);
    assert_eq!(u32s(&out, "same"), vec![0; 8]);
}

#[test]
fn different_operations_across_paths_never_meet_and_fault() {
    let text = "
.reg %v
.pred %low
        setp.lt.u32         %low, %laneid, 4
        @%low bra           low
        shfl.sync.bfly.b32  %v, %laneid, 1
        exit
low:
        shfl.sync.idx.b32   %v, %laneid, 1
";
    let k = kernel(text, 8);
    let fault = run(&k, Scheduling::Its).expect_err("a bfly and an idx shuffle never meet");
    assert_eq!(
        fault.kind,
        FaultKind::WarpSyncAcrossPaths {
            other_pc: 4,
            lanes: 0x0f
        }
    );
    // (The taken path reached its shuffle first and waits; the fall-through path finds it.)
    assert_eq!((fault.pc, fault.lane), (2, Some(4)));
    assert_eq!(
        fault.message(),
        "independent thread scheduling: lanes 0-3 wait at pc 4, a warp-synchronous instruction that is not the same operation with the same qualifiers and member mask: they can never meet"
    );
}

/// warp_pipeline: the producer half of each warp squares `rounds` elements one by one into a shared mailbox,
/// the consumer half accumulates (round + 1) × item, handing the mailbox over with `bar.warp.sync` on their
/// own paths; the sums come back to the producers by a shuffle across the two paths. It declares `.scheduling
/// its`: a plain run uses it, and lockstep faults at the producers' first `bar.warp.sync`.
#[test]
fn warp_pipeline_hands_a_mailbox_between_the_halves_of_a_warp() {
    for (w, warps, blocks, rounds) in [
        (2, 2, 2, 4),
        (8, 2, 2, 4),
        (32, 2, 2, 4),
        (64, 2, 2, 4),
        (32, 3, 5, 7),
        (16, 1, 1, 1),
    ] {
        let set = [("warps", warps), ("blocks", blocks), ("rounds", rounds)];
        let out = warpsim_tests::run("warp_pipeline", w, &set);
        let pairs = blocks * warps * i64::from(w / 2);
        let input = |i: i64| (3 * i + 1) % 17;
        let want: Vec<u32> = (0..pairs)
            .map(|g| {
                let s: i64 = (0..rounds).map(|r| (r + 1) * input(g * rounds + r).pow(2)).sum();
                u32::try_from(s).expect("small")
            })
            .collect();
        assert_eq!(u32s(&out, "out"), want, "W = {w}, {set:?}");
        // One shuffle issue per path: two per warp.
        assert_eq!(out.stats.shuffles, 2 * u64::try_from(blocks * warps).expect("small"));
        assert_eq!(out.stats.bank_conflicts, 0);
    }
    let program = programs::assemble("warp_pipeline")
        .expect("shipped")
        .expect("assembles");
    assert_eq!(program.scheduling, Some(Scheduling::Its));
    let k = warpsim::instantiate(&program, &Config::hopper().with_warp_size(8), &Launch::default()).expect("loads");
    let fault = run(&k, Scheduling::Lockstep).expect_err("lockstep faults");
    assert_eq!(fault.kind, FaultKind::WarpSyncDivergence { missing: 0xf0 });
    // The first of the block's two warps to reach it (both do the same).
    assert_eq!((fault.pc, fault.block), (12, 0));
    assert!(fault.warp < 2, "warp {}", fault.warp);
}

/// Under ITS, lanes on two diverged paths that reach different `redux.sync` instructions of the same operation
/// and mask reduce together: every lane gets the sum over the whole warp (each path adds its own operand).
#[test]
fn redux_sync_on_two_diverged_paths_reduces_over_both() {
    let k = kernel(
        ".block W\n.buffer out u32[W]\n.reg %v, %s\n.pred %odd\n\
         and.b32 %v, %laneid, 1\n setp.eq.u32 %odd, %v, 1\n @%odd bra second\n\
         mov.u32 %v, 1\n redux.sync.add.u32 %s, %v, 0xffffffff\n bra done\n\
         second:\n mov.u32 %v, 100\n redux.sync.add.u32 %s, %v, 0xffffffff\n\
         done:\n st.global.u32 out[%laneid], %s\n",
        8,
    );
    let its = run(&k, Scheduling::Its).expect("runs under ITS");
    // Four even lanes bring 1, four odd lanes 100.
    assert_eq!(u32s(&its, "out"), vec![404; 8]);
}

/// nvcc -G's `atomics_misc` (`programs/ptx/cuda/w23_atomics_misc.cu`): a compare-and-swap loop with a `YIELD`
/// (ptxas's rule) nested in a branch whose reconvergence pc comes before the loop's join. Under ITS the lanes
/// leaving the loop once ran on past that pc to the join, apart from the lanes waiting there, and reached
/// `__syncthreads` alone: a false "barrier divergence". Both schedulings run it, with the same values (the
/// ring's slots are taken in an order that depends on the scheduling).
#[test]
fn a_yield_loop_nested_in_a_branch_reconverges_at_the_branchs_pc_under_its() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../programs/ptx/cuda/w23_atomics_misc.G.ptx"
    );
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: [
            "fmax=f32[1]",
            "imax=s32[2]",
            "flags=u32[4]",
            "ring=s32[17]",
            "in=f32[16]=i-5",
        ]
        .map(String::from)
        .to_vec(),
        sets: vec!["n=16".into()],
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let program = warpsim::ptx::load(path, &args, false).expect("the corpus's kernel loads");
    let launch = Launch {
        block: Some(warpsim::Dim3::new(16, 1, 1)),
        set: vec![("n".to_string(), warpsim_isa::Value::Int(16))],
        ..Launch::default()
    };
    let k = warpsim::instantiate(&program, &Config::hopper(), &launch).expect("launches");
    for scheduling in [Scheduling::Lockstep, Scheduling::Its] {
        let out = run(&k, scheduling).unwrap_or_else(|f| panic!("{scheduling:?}: {}", f.message()));
        // in[i] * coeffs[i & 3] for in = i - 5: the largest is 7 * 0.5 (i = 12).
        assert_eq!(warpsim_tests::f32s(&out, "fmax"), [3.5], "{scheduling:?}");
        assert_eq!(warpsim_tests::i32s(&out, "imax"), [3, -2], "{scheduling:?}");
        assert_eq!(u32s(&out, "flags"), [0xffff, 0, 0, 0], "{scheduling:?}");
        let ring = warpsim_tests::i32s(&out, "ring");
        assert_eq!(ring[16], 1000 - 16, "{scheduling:?}: the shared counter");
        let mut slots = ring[..16].to_vec();
        slots.sort_unstable();
        assert_eq!(slots, (0..16).collect::<Vec<i32>>(), "{scheduling:?}");
        assert_eq!(u32s(&out, "g_counter"), [16], "{scheduling:?}");
    }
}
