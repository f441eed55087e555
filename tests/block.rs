//! Blocks of many warps: the block-level programs against host references, shared memory and its bank
//! conflicts, barriers (release, divergence, deadlock, exited warps), atomics, votes, and the schedulers.

use warpsim::{Event, FaultKind};
use warpsim_tests::reference as r;
use warpsim_tests::{assert_bits_eq, f32s, i32s, run, run_text, run_traced, u32s};

#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "small positive test constants (sizes, thread counts, bin numbers)"
)]
fn block_reduce_sums_each_block() {
    assert_eq!(u32s(&run("block_reduce", 32, &[]), "out"), vec![8128]);
    for w in [16, 32, 64] {
        for (n, threads) in [(128, 128), (1000, 128), (333, 64), (4096, 256)] {
            if threads / w > w {
                continue;
            }
            let out = run("block_reduce", w as u32, &[("n", n), ("threads", threads)]);
            assert_eq!(
                u32s(&out, "out"),
                r::block_reduce(n as u64, threads as u64),
                "W={w} n={n} threads={threads}"
            );
        }
    }
    // Small blocks make small warps possible: 32 threads are 4 warps of 8.
    let out = run("block_reduce", 8, &[("n", 100), ("threads", 32)]);
    assert_eq!(u32s(&out, "out"), r::block_reduce(100, 32));
}

#[test]
#[allow(
    clippy::cast_sign_loss,
    reason = "small positive test constants (sizes, thread counts, bin numbers)"
)]
fn block_sum_adds_one_to_a_thousand() {
    let out = run("block_sum", 32, &[]);
    assert_eq!(f32s(&out, "out"), vec![500_500.0]);
    assert_eq!(
        out.stats.atomics, 4,
        "one atomic per block of 256 (ceil(1000 / 256) blocks)"
    );
    for (w, n, threads) in [(16, 1000, 256), (64, 1000, 256), (32, 5000, 128), (8, 200, 64)] {
        let out = run("block_sum", w, &[("n", n), ("threads", threads)]);
        assert_bits_eq(
            &f32s(&out, "out"),
            &[r::block_sum(n as u64)],
            &format!("W={w} n={n} threads={threads}"),
        );
    }
}

#[test]
#[allow(
    clippy::cast_sign_loss,
    reason = "small positive test constants (sizes, thread counts, bin numbers)"
)]
fn dot_product_of_i_and_2i() {
    assert_eq!(f32s(&run("dot_product", 32, &[]), "out"), vec![1_381_760.0]);
    for (w, threads) in [(16, 128), (64, 128), (8, 64), (32, 1024)] {
        let out = run("dot_product", w, &[("threads", threads)]);
        assert_bits_eq(
            &f32s(&out, "out"),
            &[r::dot_product(threads as u64)],
            &format!("W={w} threads={threads}"),
        );
    }
}

#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "small test constants (bin numbers and counts); the values are the initialiser's k / 100 in f64 stored as f32"
)]
fn histogram_bin_counts_and_values_for_every_bin() {
    let counts = [26, 24, 26, 22, 13, 12, 5, 0];
    for (bin, &count) in counts.iter().enumerate() {
        let out = run("histogram_bin", 32, &[("target_bin", bin as i64)]);
        assert_eq!(i32s(&out, "count"), vec![count], "bin {bin}");
        let expected = r::histogram_bin(128, bin as i32);
        assert_eq!(expected.len(), count as usize);
        let bins = f32s(&out, "bins");
        assert_bits_eq(&bins[..count as usize], &expected, &format!("bins of bin {bin}"));
        assert!(
            bins[count as usize..].iter().all(|&v| v == 0.0),
            "bin {bin}: nothing past the count"
        );
    }
    // Bin 0 holds 0.00 … 0.12 twice, in thread order.
    let out = run("histogram_bin", 32, &[("target_bin", 0)]);
    let first: Vec<f32> = (0..13).map(|k| (f64::from(k) / 100.0) as f32).collect();
    let expected: Vec<f32> = first.iter().chain(first.iter()).copied().collect();
    assert_eq!(&f32s(&out, "bins")[..26], &expected[..]);
}

#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "small positive test constants (sizes, thread counts, bin numbers)"
)]
fn histogram_bin_at_other_warp_sizes_and_block_sizes() {
    for (w, threads) in [(16, 128), (64, 128), (8, 32), (8, 64), (32, 1024)] {
        for bin in [0, 3, 6] {
            let out = run("histogram_bin", w, &[("target_bin", bin), ("threads", threads)]);
            let expected = r::histogram_bin(threads as usize, bin as i32);
            assert_eq!(
                i32s(&out, "count"),
                vec![expected.len() as i32],
                "W={w} threads={threads} bin={bin}"
            );
            assert_bits_eq(
                &f32s(&out, "bins")[..expected.len()],
                &expected,
                &format!("W={w} threads={threads}"),
            );
        }
    }
}

#[test]
fn block_programs_refuse_more_warps_than_lanes() {
    let program = warpsim::programs::assemble("block_reduce")
        .expect("shipped")
        .expect("assembles");
    let config = warpsim::Config::hopper().with_warp_size(8);
    let err = warpsim::instantiate(&program, &config, &warpsim::Launch::default()).expect_err("16 warps of 8");
    let text = err.render(&program, false);
    assert!(text.contains("a block may have at most W warps"), "{text}");
    assert!(text.contains("(W=8, threads=128)"), "{text}");
}

/// The conflict degree of the one shared access in the trace.
fn shared_degree(events: &[Event]) -> u32 {
    let degrees: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Issue(i) => i.memory.as_ref().filter(|m| m.shared).map(|m| m.degree),
            _ => None,
        })
        .collect();
    assert_eq!(degrees.len(), 1, "one shared access");
    degrees[0]
}

#[test]
fn shared_load_with_stride_s_has_conflict_degree_s() {
    for s in [1u32, 2, 4, 8, 16, 32] {
        let src = format!(
            ".block 32\n.shared s u32[32 * 32]\n.buffer o u32[32]\n.reg %i, %v\n    mul.lo.u32 %i, %laneid, {s}\n    ld.shared.u32 %v, s[%i]\n    st.global.u32 o[%laneid], %v\n"
        );
        let (out, events) = run_text(&src, 32);
        let out = out.expect("runs");
        assert_eq!(shared_degree(&events), s, "stride {s}");
        assert_eq!(out.stats.bank_conflicts, u64::from(s > 1));
        assert_eq!(
            out.stats.bank_conflict_cycles,
            2 * (u64::from(s) - 1),
            "stride {s}: +2 cycles per extra way"
        );
    }
}

#[test]
fn every_lane_reading_one_word_is_a_broadcast() {
    let src = ".block 32\n.shared s u32[32]\n.buffer o u32[32]\n.reg %v\n    ld.shared.u32 %v, s[5]\n    st.global.u32 o[%laneid], %v\n";
    let (out, events) = run_text(src, 32);
    assert_eq!(shared_degree(&events), 1);
    assert_eq!(out.expect("runs").stats.bank_conflicts, 0);
}

#[test]
fn the_trace_shows_the_bank_of_every_lane() {
    let src =
        ".block 4\n.shared s u32[64]\n.reg %i, %v\n    mul.lo.u32 %i, %laneid, 16\n    st.shared.u32 s[%i], %laneid\n";
    let (_, events) = run_text(src, 4);
    let m = events
        .iter()
        .find_map(|e| match e {
            Event::Issue(i) => i.memory.clone(),
            _ => None,
        })
        .expect("a memory access");
    assert_eq!(m.banks, vec![0, 16, 0, 16]);
    assert_eq!(m.degree, 2);
}

#[test]
fn a_conflicting_access_costs_two_cycles_per_extra_way() {
    // The same dependent load (its result stored: the compiler keeps it), conflict-free vs 32-way: the run differs
    // by exactly 31 x 2 cycles.
    let cycles = |stride: u32| {
        let src = format!(
            ".block 32\n.shared s u32[32 * 32]\n.buffer o u32[32]\n.reg %i, %v\n    mul.lo.u32 %i, %laneid, {stride}\n    ld.shared.u32 %v, s[%i]\n    add.u32 %v, %v, 1\n    st.global.u32 o[%laneid], %v\n"
        );
        run_text(&src, 32).0.expect("runs").cycles
    };
    assert_eq!(cycles(32) - cycles(1), 62);
}

#[test]
fn a_barrier_inside_a_divergent_branch_is_a_fault() {
    let src = ".block 64\n.pred %low\n    setp.lt.u32 %low, %tid.x, 48\n    @!%low bra skip\n    bar.sync 0\nskip:\n    exit\n";
    let (out, _) = run_text(src, 32);
    let f = out.expect_err("barrier divergence");
    assert_eq!(
        f.kind,
        FaultKind::BarrierDivergence {
            arrived: 0xffff,
            missing: 0xffff_0000
        }
    );
    // Warp 0 reaches the barrier whole; warp 1 splits (threads 32-47 go, 48-63 branch away).
    assert_eq!((f.block, f.warp, f.pc), (0, 1, 2));
    assert!(
        f.message()
            .contains("lanes 0-15 of the warp reached the barrier but lanes 16-31 did not")
    );
}

#[test]
fn warps_waiting_at_different_barriers_deadlock() {
    let src = ".block 64\n.pred %w0\n    setp.eq.u32 %w0, %warpid, 0\n    @%w0 bra first\n    bar.sync 1\n    exit\nfirst:\n    bar.sync 0\n";
    let (out, _) = run_text(src, 32);
    let f = out.expect_err("deadlock");
    let FaultKind::Deadlock { waiting } = &f.kind else {
        panic!("expected a deadlock, got {:?}", f.kind)
    };
    let summary: Vec<(u32, u32, u32, u32, u32)> = waiting
        .iter()
        .map(|w| (w.warp, w.pc, w.barrier, w.arrived, w.expected))
        .collect();
    assert_eq!(summary, vec![(0, 4, 0, 1, 2), (1, 2, 1, 1, 2)]);
}

#[test]
fn exited_warps_do_not_block_a_barrier() {
    // Warp 1 exits at once; warp 0's barrier completes with one warp.
    let src = ".block 64\n.buffer out u32[1]\n.pred %w1\n    setp.eq.u32 %w1, %warpid, 1\n    @%w1 exit\n    bar.sync 0\n    st.global.u32 out[0], 7\n";
    let (out, events) = run_text(src, 32);
    assert_eq!(u32s(&out.expect("no deadlock"), "out"), vec![7]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::BarrierRelease { warps, .. } if warps == &vec![0]))
    );
}

#[test]
fn a_partial_last_warp_joins_barriers_with_its_live_lanes() {
    // 40 threads at W=32: warp 1 has lanes 0-7 only; every thread counts itself with bar.red.popc.
    let src = ".block 40\n.buffer out u32[40]\n.pred %t\n.reg %c\n    setp.eq.u32 %t, 0, 0\n    bar.red.popc.u32 %c, 0, %t\n    st.global.u32 out[%tid.x], %c\n";
    let (out, _) = run_text(src, 32);
    assert_eq!(u32s(&out.expect("runs"), "out"), vec![40; 40]);
}

#[test]
fn barrier_reductions_popc_and_or() {
    let src = "\
.block 64
.buffer out u32[3 * 64]
.pred %p, %all, %any, %none
.reg %c, %x
    setp.lt.u32 %p, %tid.x, 5
    bar.red.popc.u32 %c, 0, %p
    st.global.u32 out[%tid.x], %c
    bar.red.and.pred %all, 0, %p
    selp.u32 %x, 1, 0, %all
    st.global.u32 out[%tid.x + 64], %x
    bar.red.or.pred %any, 1, %p
    selp.u32 %x, 1, 0, %any
    st.global.u32 out[%tid.x + 128], %x
";
    let (out, _) = run_text(src, 32);
    let v = u32s(&out.expect("runs"), "out");
    assert_eq!(&v[..64], &[5; 64][..]);
    assert_eq!(&v[64..128], &[0; 64][..]);
    assert_eq!(&v[128..], &[1; 64][..]);
}

#[test]
fn a_barrier_with_a_thread_count_waits_for_that_many() {
    // Warps 0 and 1 meet at barrier 1 with a count of 64 threads; warps 2 and 3 skip it and finish.
    let src = "\
.block 128
.buffer out u32[4]
.pred %low
    setp.lt.u32 %low, %warpid, 2
    @!%low bra done
    bar.sync 1, 64
    st.global.u32 out[%warpid], 1
done:
    exit
";
    let (out, events) = run_text(src, 32);
    assert_eq!(u32s(&out.expect("runs"), "out"), vec![1, 1, 0, 0]);
    let arrivals: Vec<(u32, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::BarrierArrive { arrived, expected, .. } => Some((*arrived, *expected)),
            _ => None,
        })
        .collect();
    assert_eq!(arrivals, vec![(1, 2), (2, 2)]);
    // A count that is not a multiple of the warp size is a fault.
    let (bad, _) = run_text(".block 64\n    bar.sync 0, 40\n", 32);
    assert!(matches!(bad.expect_err("bad count").kind, FaultKind::BadBarrier { .. }));
}

#[test]
fn barrier_release_waits_for_the_last_warp_plus_release_latency() {
    // Warp 1 arrives much later than warp 0 (a long dependent chain, whose result is stored: the compiler keeps
    // it); both resume at the same cycle: the barrier unit takes the last arrival (2 cycles), then releases (12),
    // the default timing.
    let src = "\
.block 64
.buffer o u32[64]
.reg %x
.pred %w1
    setp.eq.u32 %w1, %warpid, 1
    @!%w1 bra wait
    div.u32 %x, %x, 1
    div.u32 %x, %x, 1
    add.u32 %x, %x, 1
wait:
    bar.sync 0
    st.global.u32 o[%tid.x], %x
";
    let (_, events) = run_text(src, 32);
    let arrivals: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::BarrierArrive { cycle, .. } => Some(*cycle),
            _ => None,
        })
        .collect();
    let release = events
        .iter()
        .find_map(|e| match e {
            Event::BarrierRelease {
                cycle, resume, warps, ..
            } => Some((*cycle, *resume, warps.len())),
            _ => None,
        })
        .expect("released");
    assert_eq!(arrivals.len(), 2);
    assert!(arrivals[1] > arrivals[0] + 30, "warp 1 is late: {arrivals:?}");
    assert_eq!(release, (arrivals[1], arrivals[1] + 14, 2));
}

#[test]
fn bar_warp_sync_with_missing_lanes_is_a_fault() {
    let src =
        ".pred %low\n    setp.lt.u32 %low, %laneid, 4\n    @!%low bra skip\n    bar.warp.sync 0xff\nskip:\n    exit\n";
    let (out, _) = run_text(src, 8);
    assert_eq!(
        out.expect_err("diverged").kind,
        FaultKind::WarpSyncDivergence { missing: 0xf0 }
    );
    let (ok, _) = run_text(".pred %low\n    bar.warp.sync 0xff\n", 8);
    assert!(ok.is_ok());
}

#[test]
fn atomics_apply_in_lane_order_and_return_the_old_value() {
    let src = "\
.block 8
.buffer g u32[4]
.buffer old u32[16]
.buffer f f32[1]
.buffer s s32[2] = 0, [0] = 5
.shared sh u32[4]
.reg %k, %o, %x
    and.b32 %k, %laneid, 3
    atom.shared.add.u32 %o, sh[%k], 1
    st.global.u32 old[%laneid], %o
    atom.global.cas.b32 %o, g[0], 0, %laneid
    st.global.u32 old[%laneid + 8], %o
    red.global.max.u32 g[1], %laneid
    atom.global.exch.b32 %o, g[2], %laneid
    red.global.or.b32 g[3], %o
    cvt.rn.f32.u32 %x, %laneid
    red.global.add.f32 f[0], %x
    red.global.min.s32 s[0], -3
    red.global.xor.b32 s[1], %laneid
";
    let (out, _) = run_text(src, 8);
    let out = out.expect("runs");
    assert_eq!(u32s(&out, "old"), vec![0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]);
    // cas: lane 0 swaps 0 for 0, lane 1 swaps 0 for 1, later lanes see 1 and fail.
    // exch: lane 7 stores last; the or of all old values 0 (initial), 0, 1, …, 6.
    assert_eq!(u32s(&out, "g"), vec![1, 7, 7, 7]);
    assert_eq!(f32s(&out, "f"), vec![28.0]);
    assert_eq!(i32s(&out, "s"), vec![-3, (0..8).fold(0, |a, b| a ^ b)]);
    assert_eq!(out.stats.atomics, 8);
}

#[test]
fn same_address_atomics_serialise_in_cycles() {
    let cycles = |addr: &str| {
        let src = format!(
            ".block 32\n.shared sh u32[32]\n.reg %o\n    atom.shared.add.u32 %o, sh[{addr}], 1\n    add.u32 %o, %o, 1\n"
        );
        run_text(&src, 32).0.expect("runs").cycles
    };
    // 32 lanes on one address pay 31 x 2 extra cycles over 32 distinct addresses.
    assert_eq!(cycles("0") - cycles("%laneid"), 62);
}

#[test]
fn votes_ballot_activemask_match_and_lane_masks() {
    let src = "\
.buffer out u32[8 * 8]
.reg %k, %r
.pred %p, %q
    and.b32 %k, %laneid, 3
    setp.lt.u32 %p, %laneid, 5
    vote.sync.ballot.b32 %r, %p
    st.global.u32 out[%laneid], %r
    vote.sync.all.pred %q, %p
    selp.u32 %r, 1, 0, %q
    st.global.u32 out[%laneid + 8], %r
    vote.sync.any.pred %q, !%p
    selp.u32 %r, 1, 0, %q
    st.global.u32 out[%laneid + 16], %r
    vote.sync.uni.pred %q, %p
    selp.u32 %r, 1, 0, %q
    st.global.u32 out[%laneid + 24], %r
    match.sync.any.b32 %r, %k
    st.global.u32 out[%laneid + 32], %r
    match.sync.all.b32 %r|%q, %k
    st.global.u32 out[%laneid + 40], %r
    @%p activemask.b32 %r
    @!%p mov.u32 %r, %lanemask_lt
    st.global.u32 out[%laneid + 48], %r
    mov.u32 %r, %lanemask_ge
    st.global.u32 out[%laneid + 56], %r
";
    let (out, _) = run_text(src, 8);
    let v = u32s(&out.expect("runs"), "out");
    assert_eq!(&v[0..8], &[0x1f; 8]);
    assert_eq!(&v[8..16], &[0; 8]);
    assert_eq!(&v[16..24], &[1; 8]);
    assert_eq!(&v[24..32], &[0; 8]);
    assert_eq!(&v[32..40], &[0x11, 0x22, 0x44, 0x88, 0x11, 0x22, 0x44, 0x88]);
    assert_eq!(&v[40..48], &[0; 8]);
    assert_eq!(&v[48..56], &[0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x3f, 0x7f]);
    assert_eq!(
        &v[56..64],
        &[
            0xffff_ffff,
            0xffff_fffe,
            0xffff_fffc,
            0xffff_fff8,
            0xffff_fff0,
            0xffff_ffe0,
            0xffff_ffc0,
            0xffff_ff80
        ]
    );
}

#[test]
fn warp_i_issues_on_scheduler_i_mod_4_and_each_scheduler_issues_once_a_cycle() {
    let (_, events) = run_traced("block_reduce", 32, &[("threads", 256)]);
    let mut per_cycle = std::collections::HashSet::new();
    for e in &events {
        if let Event::Issue(i) = e {
            assert_eq!(i.scheduler, i.warp % 4, "warp {} at cycle {}", i.warp, i.cycle);
            assert!(
                per_cycle.insert((i.cycle, i.scheduler)),
                "scheduler {} issued twice at cycle {}",
                i.scheduler,
                i.cycle
            );
        }
    }
}

#[test]
fn block_programs_are_deterministic_and_tracing_does_not_change_them() {
    for name in ["block_reduce", "block_sum", "dot_product", "histogram_bin"] {
        let plain = run(name, 32, &[]);
        let (traced, _) = run_traced(name, 32, &[]);
        assert_eq!(plain, traced, "{name}");
        assert_eq!(plain, run(name, 32, &[]), "{name}");
    }
}

#[test]
fn shared_b32_accesses_take_the_arrays_element_type() {
    let src = ".buffer out f32[1]\n.shared s f32[4]\n.reg %v\n    st.shared.b32 s[1], 0x3fc00000\n    ld.shared.b32 %v, s[1]\n    st.global.f32 out[0], %v\n";
    let (out, _) = run_text(src, 4);
    assert_eq!(f32s(&out.expect("runs"), "out"), vec![1.5]);
}

#[test]
fn bar_red_results_are_traced_at_release_not_at_arrival() {
    let src = ".block 8\n.buffer out u32[8]\n.pred %p\n.reg %n\n    setp.lt.u32 %p, %laneid, 3\n    bar.red.popc.u32 %n, 0, %p\n    st.global.u32 out[%tid.x], %n\n";
    let (out, events) = run_text(src, 4);
    assert_eq!(u32s(&out.expect("runs"), "out"), vec![6; 8]);
    for e in &events {
        match e {
            Event::Issue(i) if i.pc == 1 => assert!(i.write.is_none(), "no value at arrival"),
            Event::BarrierRelease { result, .. } => assert_eq!(*result, warpsim::trace::BarrierResult::Popc(6)),
            _ => {}
        }
    }
}

#[test]
fn shared_atomics_pay_for_bank_conflicts() {
    // Lanes 0..4 add to words 0, 32, 64, 96: four distinct words in bank 0.
    let src =
        ".block 4\n.shared a u32[128]\n.reg %k, %o\n    shl.b32 %k, %laneid, 5\n    atom.shared.add.u32 %o, a[%k], 1\n";
    let (out, events) = run_text(src, 4);
    let out = out.expect("runs");
    assert_eq!(shared_degree(&events), 4);
    assert_eq!((out.stats.bank_conflicts, out.stats.bank_conflict_cycles), (1, 6));
}

#[test]
fn match_all_gives_lanes_outside_the_mask_nothing() {
    let src = ".buffer out u32[16]\n.reg %k, %m, %s\n.pred %same\n    shr.u32 %k, %laneid, 2\n    match.sync.all.b32 %m|%same, %k, 0xf\n    st.global.u32 out[%laneid], %m\n    selp.u32 %s, 1, 0, %same\n    st.global.u32 out[%laneid + 8], %s\n";
    let (out, _) = run_text(src, 8);
    assert_eq!(
        u32s(&out.expect("runs"), "out"),
        vec![0xf, 0xf, 0xf, 0xf, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0]
    );
}

#[test]
fn a_barrier_no_lane_executes_is_skipped() {
    // Warp 1's guard is false everywhere: it skips the barrier; warp 0 meets the count of one warp.
    let src = ".block 8\n.buffer out u32[2]\n.pred %w0\n    setp.eq.u32 %w0, %warpid, 0\n    @%w0 bar.sync 1, 4\n    st.global.u32 out[%warpid], 1\n";
    let (out, _) = run_text(src, 4);
    assert_eq!(u32s(&out.expect("no fault"), "out"), vec![1, 1]);
}

#[test]
fn require_is_checked_before_anything_is_sized() {
    let program =
        warpsim_tests::assemble(".param k = 0\n.require k != 0, \"k must not be 0\"\n.buffer b u32[64 / k]\n");
    let err =
        warpsim::instantiate(&program, &warpsim::Config::hopper(), &warpsim::Launch::default()).expect_err("refused");
    let text = err.render(&program, false);
    assert!(text.starts_with("error: k must not be 0 (W=32, k=0)"), "{text}");
}

#[test]
fn a_warp_waiting_at_its_last_barrier_exits_after_the_release() {
    let (out, events) = run_text(".block 8\n    bar.sync 0\n", 4);
    out.expect("runs");
    let resume = events
        .iter()
        .find_map(|e| match e {
            Event::BarrierRelease { resume, .. } => Some(*resume),
            _ => None,
        })
        .expect("released");
    let exits: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::WarpExit { cycle, .. } => Some(*cycle),
            _ => None,
        })
        .collect();
    assert_eq!(exits.len(), 2);
    assert!(
        exits.iter().all(|&c| c >= resume),
        "exits {exits:?} before the release at {resume}"
    );
}

#[test]
fn lanes_that_exit_in_one_path_do_not_break_the_join_after_it() {
    // Odd lanes take a path where lane 7 exits; the join's shuffle sees every other lane reconverged, and a
    // barrier after the join is not divergent.
    let src = "\
.block 16
.buffer out u32[16]
.reg %v, %r
.pred %odd, %last
    and.b32 %v, %laneid, 1
    setp.ne.u32 %odd, %v, 0
    @%odd bra O
    mov.u32 %v, 100
    bra J
O:
    setp.eq.u32 %last, %laneid, 7
    @%last exit
    mov.u32 %v, 200
J:
    bar.sync 0
    shfl.sync.bfly.b32 %r, %v, 1
    st.global.u32 out[%tid.x], %r
";
    let (out, _) = run_text(src, 8);
    let out = out.expect("no barrier divergence");
    let warp = [200, 100, 200, 100, 200, 100, 1, 0];
    // Lane 6 reads lane 7, which exited: undefined (it gets lane 7's last value, 1); lane 7 wrote nothing.
    assert_eq!(u32s(&out, "out"), [warp, warp].concat());
    assert_eq!(out.stats.undefined_shuffle_reads, 2);
}

#[test]
fn address_displacements_keep_their_signs() {
    let src = "\
.buffer in u32[8] = 10 * i
.buffer out u32[3]
.reg %t, %v
    mov.u32 %t, 4
    ld.global.u32 %v, in[%t - 1 + 2]
    st.global.u32 out[0], %v
    ld.global.u32 %v, in[%t - 3 - 1]
    st.global.u32 out[1], %v
    ld.global.u32 %v, [in + %t - 4 + 8]
    st.global.u32 out[2], %v
";
    let (out, _) = run_text(src, 2);
    assert_eq!(u32s(&out.expect("runs"), "out"), vec![50, 0, 20]);
}

#[test]
fn a_block_larger_than_the_sm_is_refused() {
    let program = warpsim_tests::assemble(".block 1024\n    nop\n");
    let config = warpsim::Config::hopper().with_warp_size(2);
    let err = warpsim::instantiate(&program, &config, &warpsim::Launch::default()).expect_err("512 warps");
    assert!(err.render(&program, false).contains("the SM holds at most 64"));
}

#[test]
fn buffers_together_are_capped() {
    let program = warpsim_tests::assemble(".buffer a u32[1 << 27]\n.buffer b u32[1 << 27]\n.buffer c u32[1]\n");
    let err = warpsim::instantiate(&program, &warpsim::Config::hopper(), &warpsim::Launch::default()).expect_err("cap");
    assert!(
        err.render(&program, false)
            .contains("the buffers together would hold more than 268435456 elements")
    );
}

#[test]
fn bar_arrive_counts_a_producer_that_does_not_wait() {
    // Warp 0 produces: it stores its words, arrives at barrier 1 (64 threads) and goes on without waiting.
    // Warp 1 consumes: it waits at barrier 1 until the producer has arrived, then reads the producer's words.
    let src = "\
.block 64
.buffer out u32[64]
.shared s u32[32]
.reg %v
.pred %producer
    setp.eq.u32 %producer, %warpid, 0
    @!%producer bra consumer
    mul.lo.u32 %v, %laneid, 7
    st.shared.u32 s[%laneid], %v
    bar.arrive 1, 64
    st.global.u32 out[%tid.x], 1
    exit
consumer:
    bar.sync 1, 64
    xor.b32 %v, %laneid, 1
    ld.shared.u32 %v, s[%v]
    st.global.u32 out[%tid.x], %v
";
    let (out, events) = run_text(src, 32);
    let out = u32s(&out.expect("runs"), "out");
    let consumer: Vec<u32> = (0..32u32).map(|l| (l ^ 1) * 7).collect();
    assert_eq!(out[..32], [1; 32]);
    assert_eq!(out[32..], consumer[..]);
    let arrivals: Vec<(u32, u32, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::BarrierArrive {
                warp,
                arrived,
                expected,
                ..
            } => Some((*warp, *arrived, *expected)),
            _ => None,
        })
        .collect();
    // The producer gets there first (the consumer's taken branch costs its redirect latency); its arrival counts.
    assert_eq!(arrivals, vec![(0, 1, 2), (1, 2, 2)]);
    // Only the consumer waited, so only it is released.
    let released: Vec<Vec<u32>> = events
        .iter()
        .filter_map(|e| match e {
            Event::BarrierRelease { warps, .. } => Some(warps.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(released, vec![vec![1]]);
    // The producer's store after its arrival issues the next cycle, not at the release.
    let issue = |warp: u32, pc: u32| {
        events.iter().find_map(|e| match e {
            Event::Issue(i) if i.warp == warp && i.pc == pc => Some(i.cycle),
            _ => None,
        })
    };
    let arrive = issue(0, 4).expect("producer arrives (pc 4)");
    assert_eq!(issue(0, 5), Some(arrive + 1));
    // `bar.arrive` needs its thread count.
    let error = warpsim_isa::parse("k.s", ".block 64\n    bar.arrive 1\n", &warpsim::programs::Resolver)
        .expect_err("no count")
        .render(false);
    assert!(error.contains("k.s:2:"), "{error}");
}

#[test]
fn redux_sync_reduces_over_the_member_lanes() {
    use std::fmt::Write as _;
    // Every operation and type, over all 32 lanes and over lanes 0, 3, 6, … (a partial mask whose lanes alone
    // execute it), on values that make `.s32` and `.u32` min/max differ and `add` wrap.
    let ops = [
        ("add.u32", 0),
        ("min.u32", 1),
        ("min.s32", 2),
        ("max.u32", 3),
        ("max.s32", 4),
        ("and.b32", 5),
        ("or.b32", 6),
        ("xor.b32", 7),
    ];
    let mut src = String::from(
        ".block 32\n.buffer full u32[256]\n.buffer part u32[256]\n.reg %x, %v, %k, %at\n.pred %member\n\
         mul.lo.u32 %x, %laneid, 2654435761\n xor.b32 %x, %x, 0x5bd1e995\n mul.lo.u32 %at, %laneid, 8\n",
    );
    for (op, k) in ops {
        let _ = write!(
            src,
            " redux.sync.{op} %v, %x, 0xffffffff\n st.global.u32 full[%at + {k}], %v\n"
        );
    }
    src += " rem.u32 %k, %laneid, 3\n setp.eq.u32 %member, %k, 0\n @!%member bra done\n";
    for (op, k) in ops {
        let _ = write!(
            src,
            " redux.sync.{op} %v, %x, 0x49249249\n st.global.u32 part[%at + {k}], %v\n"
        );
    }
    src += "done:\n exit\n";
    let (out, _) = run_text(&src, 32);
    let out = out.expect("runs");
    let x: Vec<u32> = (0..32u32)
        .map(|l| l.wrapping_mul(2_654_435_761) ^ 0x5bd1_e995)
        .collect();
    let reduce = |lanes: &[u32]| -> [u32; 8] {
        let v: Vec<u32> = lanes.iter().map(|&l| x[l as usize]).collect();
        let s = |u: u32| u.cast_signed();
        [
            v.iter().fold(0u32, |a, &b| a.wrapping_add(b)),
            *v.iter().min().unwrap(),
            v.iter().copied().min_by_key(|&u| s(u)).unwrap(),
            *v.iter().max().unwrap(),
            v.iter().copied().max_by_key(|&u| s(u)).unwrap(),
            v.iter().fold(u32::MAX, |a, &b| a & b),
            v.iter().fold(0, |a, &b| a | b),
            v.iter().fold(0, |a, &b| a ^ b),
        ]
    };
    let all: Vec<u32> = (0..32).collect();
    let members: Vec<u32> = (0..32).filter(|l| l % 3 == 0).collect();
    let (full, part) = (reduce(&all), reduce(&members));
    let (got_full, got_part) = (u32s(&out, "full"), u32s(&out, "part"));
    for lane in 0..32usize {
        assert_eq!(got_full[lane * 8..lane * 8 + 8], full, "lane {lane}");
        let want = if lane % 3 == 0 { part } else { [0; 8] };
        assert_eq!(got_part[lane * 8..lane * 8 + 8], want, "lane {lane}");
    }
    // `.s32` and `.u32` differ on these values.
    assert_ne!(full[1], full[2]);
    assert_ne!(full[3], full[4]);
}
