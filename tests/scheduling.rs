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
        scheduling,
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
    assert_eq!(fault.pc, 2);
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
        let lockstep = run(&k, Scheduling::Lockstep).expect("runs");
        let its = run(&k, Scheduling::Its).unwrap_or_else(|f| panic!("{name}: {}", f.message()));
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
