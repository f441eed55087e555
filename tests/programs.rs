//! Every shipped warp-level program, run by name at every warp size it supports, against the host reference
//! in `lib.rs` (bit for bit), plus the literal expected values of `seed-programs.md` at W=32.

use warpsim_tests::reference as r;
use warpsim_tests::{assert_bits_eq, f32s, i32s, run, supported_warp_sizes, u32s};

fn sweep(name: &str, reference: impl Fn(usize) -> Vec<f32>) {
    let sizes = supported_warp_sizes(name);
    assert!(!sizes.is_empty(), "{name} supports no warp size");
    for w in sizes {
        let out = run(name, w, &[]);
        assert_bits_eq(&f32s(&out, "out"), &reference(w as usize), &format!("{name} at W={w}"));
        assert!(out.cycles > 0, "{name} at W={w}: no cycles");
    }
}

#[test]
fn pair_swap_matches_reference_at_every_warp_size() {
    sweep("pair_swap", r::pair_swap);
    assert_eq!(
        &f32s(&run("pair_swap", 32, &[]), "out")[..6],
        &[1.0, 0.0, 3.0, 2.0, 5.0, 4.0]
    );
}

#[test]
fn butterfly_max_gives_every_lane_1000() {
    sweep("butterfly_max", r::butterfly_max);
    assert_eq!(f32s(&run("butterfly_max", 32, &[]), "out"), vec![1000.0; 32]);
}

#[test]
fn butterfly_max_input_is_twice_the_lane_with_1000_last() {
    let out = run("butterfly_max", 8, &[]);
    assert_eq!(f32s(&out, "in"), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 1000.0]);
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "the simulation is exact: its f32 results are compared exactly, bit for bit"
)]
fn conditional_max_even_lanes_max_odd_lanes_min() {
    sweep("conditional_max", r::conditional_max);
    let out = f32s(&run("conditional_max", 32, &[]), "out");
    assert_eq!(out.len(), 64);
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, if i % 2 == 0 { 9.0 } else { 0.0 }, "out[{i}]");
    }
}

#[test]
fn conditional_max_four_lanes_is_the_books_example() {
    // The book's 4-lane example on [3, 1, 7, 2]: max 7, min 1.
    let out = f32s(&run("conditional_max", 4, &[]), "out");
    assert_eq!(&out[..4], &[7.0, 1.0, 7.0, 1.0]);
}

#[test]
fn neighbor_difference_gives_odd_numbers_and_zero_last() {
    sweep("neighbor_difference", r::neighbor_difference);
    let expected: Vec<f32> = (0..31u16).map(|k| f32::from(2 * k + 1)).chain([0.0]).collect();
    assert_eq!(f32s(&run("neighbor_difference", 32, &[]), "out"), expected);
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "the simulation is exact: its f32 results are compared exactly, bit for bit"
)]
fn moving_average_matches_reference_and_seed_values() {
    sweep("moving_average", |w| r::moving_average(w, 2 * w));
    let out = f32s(&run("moving_average", 32, &[]), "out");
    assert_eq!(out[0], 10.0f32 / 3.0);
    assert_eq!(out[0].to_bits(), 3.333_333_3_f32.to_bits());
    assert_eq!((out[30], out[31], out[62], out[63]), (512.0, 528.0, 2048.0, 2080.0));
}

#[test]
fn moving_average_handles_a_partial_last_warp() {
    // 40 elements at W=32: the second block's warp has 8 live threads and the rest exit at once.
    let out = run("moving_average", 32, &[("size", 40)]);
    assert_bits_eq(&f32s(&out, "out"), &r::moving_average(32, 40), "moving_average size=40");
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "the simulation is exact: its f32 results are compared exactly, bit for bit"
)]
fn warp_reduce_sum_lane_zero_holds_the_sum() {
    sweep("warp_reduce_sum", r::warp_reduce_sum);
    let out = f32s(&run("warp_reduce_sum", 32, &[]), "out");
    assert_eq!(out[0], 496.0);
    // Partial sums elsewhere: lane 31 only ever added itself (shfl.down out of range keeps the own value).
    assert_eq!(out[31], 31.0 * 32.0);
}

#[test]
fn warp_prefix_sum_is_the_inclusive_scan() {
    sweep("warp_prefix_sum", r::warp_prefix_sum);
    let expected: Vec<f32> = (1..=32u16).map(|k| f32::from(k * (k + 1) / 2)).collect();
    assert_eq!(f32s(&run("warp_prefix_sum", 32, &[]), "out"), expected);
}

fn demo(name: &str, set: &[(&str, i64)], expected: &[i32]) {
    let sizes = supported_warp_sizes(name);
    assert_eq!(sizes, vec![16, 32, 64], "{name}: the 16-thread demos need W >= 16");
    for w in sizes {
        assert_eq!(i32s(&run(name, w, set), "out"), expected, "{name} at W={w}");
    }
}

#[test]
fn shfl_broadcast_reads_lane_two() {
    demo("shfl_broadcast", &[], &r::demo(|_| Some(2)));
    assert_eq!(r::demo(|_| Some(2)), vec![2; 16]);
}

#[test]
fn shfl_up_keeps_the_first_two_lanes() {
    let expected = r::demo(|t| (t >= 2).then_some(t - 2));
    assert_eq!(expected, [0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    demo("shfl_up", &[], &expected);
}

#[test]
fn shfl_down_keeps_the_last_two_lanes() {
    let expected = r::demo(|t| (t + 2 < 16).then_some(t + 2));
    assert_eq!(expected, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 14, 15]);
    demo("shfl_down", &[], &expected);
}

#[test]
fn shfl_wrap_rotates_both_ways() {
    let plus = r::demo(|t| Some((t + 2).rem_euclid(16)));
    assert_eq!(plus, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1]);
    demo("shfl_wrap", &[], &plus);
    let minus = r::demo(|t| Some((t - 2).rem_euclid(16)));
    assert_eq!(minus, [14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    demo("shfl_wrap", &[("offset", -2)], &minus);
}

#[test]
fn shfl_xor_swaps_neighbours() {
    demo("shfl_xor", &[], &r::demo(|t| Some(t ^ 1)));
}

#[test]
fn shfl_xor_array_swaps_four_registers_per_thread() {
    demo(
        "shfl_xor_array",
        &[],
        &[4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11],
    );
}

#[test]
fn no_shipped_program_reads_undefined_shuffle_lanes() {
    for name in warpsim::programs::names() {
        for w in supported_warp_sizes(name) {
            let out = run(name, w, &[]);
            assert_eq!(out.stats.undefined_shuffle_reads, 0, "{name} at W={w}");
        }
    }
}

#[test]
fn every_shipped_program_has_a_test_here() {
    // A new program must come with a reference test: this list is the programs this file and block.rs check.
    // The block-level programs are checked in block.rs, the 64-bit ones in wide.rs, `transpose` in transpose.rs,
    // `warp_pipeline` in scheduling.rs.
    let tested = [
        "block_reduce",
        "block_sum",
        "butterfly_max",
        "conditional_max",
        "dot_f64",
        "dot_product",
        "histogram_bin",
        "moving_average",
        "neighbor_difference",
        "pair_swap",
        "shfl_broadcast",
        "shfl_down",
        "shfl_up",
        "shfl_wrap",
        "shfl_xor",
        "shfl_xor_array",
        "sum64",
        "transpose",
        "warp_aggregate",
        "warp_pipeline",
        "warp_prefix_sum",
        "warp_reduce_sum",
    ];
    assert_eq!(warpsim::programs::names(), tested);
}

#[test]
fn runs_are_deterministic() {
    for name in warpsim::programs::names() {
        let a = run(name, 32, &[]);
        let b = run(name, 32, &[]);
        assert_eq!(a, b, "{name}");
    }
}

#[test]
#[allow(
    clippy::float_cmp,
    reason = "the simulation is exact: its f32 results are compared exactly, bit for bit"
)]
fn f32_immediates_and_buffers_are_evaluated_in_floating_point() {
    let src = ".buffer out f32[4] = i / 2\n.buffer third f32[1]\n.reg %x\n    mov.f32 %x, 1 / 3\n    st.global.f32 third[0], %x\n";
    let p = warpsim_isa::parse("f.s", src, &warpsim::programs::Resolver).expect("assembles");
    let out = warpsim::simulate(
        &p,
        &warpsim::Config::hopper().with_warp_size(4),
        &warpsim::Launch::default(),
    )
    .unwrap_or_else(|_| panic!("runs"));
    assert_eq!(f32s(&out, "out"), vec![0.0, 0.5, 1.0, 1.5]);
    assert_eq!(f32s(&out, "third")[0], 1.0f32 / 3.0);
}

/// warp_aggregate: one atomic per warp reserves the slots of the lanes whose value passes the filter; with one
/// warp the kept values come out in lane order, with several each warp's segment is in lane order and the
/// segments come in the order of the warps' atomics.
#[test]
fn warp_aggregate_compacts_with_one_atomic_per_warp() {
    let input = |n: u32| (0..n).map(|i| (7 * i) % 10).collect::<Vec<u32>>();
    for w in supported_warp_sizes("warp_aggregate") {
        let out = run("warp_aggregate", w, &[]);
        let kept: Vec<u32> = input(w).into_iter().filter(|&v| v < 5).collect();
        let count = u32s(&out, "count")[0] as usize;
        assert_eq!(count, kept.len(), "W={w}");
        assert_eq!(u32s(&out, "out")[..count], kept[..], "W={w}");
        assert_eq!(out.stats.atomics, 1, "one atomic for the warp, W={w}");
    }
    let out = run("warp_aggregate", 32, &[("n", 1000), ("threads", 128)]);
    let mut kept: Vec<u32> = input(1000).into_iter().filter(|&v| v < 5).collect();
    let count = u32s(&out, "count")[0] as usize;
    let mut got = u32s(&out, "out")[..count].to_vec();
    assert_eq!(count, kept.len());
    assert_eq!(out.stats.atomics, 1000u64.div_ceil(32), "one atomic per warp");
    got.sort_unstable();
    kept.sort_unstable();
    assert_eq!(got, kept);
}
