//! Unit and end-to-end tests of the warp shuffle network (`shfl.sync`).
//!
//! The specification is the PTX ISA pseudo-code for `shfl.sync`, generalised to a warp of `W` lanes:
//!
//! ```text
//! maxLane = (lane & segmask) | (clamp & ~segmask);  minLane = lane & segmask
//! up:   j = lane - b;  pval = j >= maxLane
//! down: j = lane + b;  pval = j <= maxLane
//! bfly: j = lane ^ b;  pval = j <= maxLane
//! idx:  j = minLane | (b & ~segmask);  pval = j <= maxLane
//! if !pval: j = lane
//! ```
//!
//! Every expected value below is either a literal array worked out by hand from that pseudo-code, or comes from
//! `cuda_source`, a closed form of CUDA's documented `__shfl*_sync(mask, var, b, width)` behaviour stated on
//! segments of `width` consecutive lanes (which is what the pseudo-code computes for `c = ((W - width) << 8) |
//! clamp`). The code under test is never used to compute an expectation.

use warpsim::kernel::{DOp, Member};
use warpsim::shuffle::{LaneSource, read_is_undefined, shuffle, source_lane};
use warpsim::{Config, Launch, RunOutput, SimError};
use warpsim_isa::ShflMode::{self, Bfly, Down, Idx, Up};

const MODES: [ShflMode; 4] = [Idx, Up, Down, Bfly];

/// Every lane of a warp of `w`.
fn all(w: u32) -> u64 {
    if w == 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// The register values shuffled in the unit tests: lane `l` holds `100 + l`.
fn lanes_values(w: u32) -> Vec<u32> {
    (0..w).map(|l| 100 + l).collect()
}

/// The same lane/offset operand `b` in every lane.
fn uniform(b: u32, w: u32) -> Vec<u32> {
    vec![b; w as usize]
}

/// `(clamp, segmask)` of CUDA's `width` argument in a warp of `w` (the rule of `__shfl*_sync`):
/// segmask = W - width; clamp = width - 1, except 0 for `up`.
fn width_operands(mode: ShflMode, width: u32, w: u32) -> (u32, u32) {
    (if mode == Up { 0 } else { width - 1 }, w - width)
}

/// CUDA's documented behaviour on segments of `width` consecutive lanes, `b < W`: (source lane, in range).
/// - idx reads lane `b % width` of its own segment;
/// - up/down read `b` lanes below/above, and keep their own value when that leaves the segment;
/// - bfly reads `lane ^ b` when that lane is in the same or an earlier segment, otherwise keeps its own value.
fn cuda_source(mode: ShflMode, lane: u32, b: u32, width: u32) -> (u32, bool) {
    let pos = lane % width;
    let start = lane - pos;
    match mode {
        Idx => (start + b % width, true),
        Up if b <= pos => (lane - b, true),
        Down if pos + b < width => (lane + b, true),
        Bfly if (lane ^ b) < start + width => (lane ^ b, true),
        _ => (lane, false),
    }
}

fn t(x: u32) -> bool {
    x != 0
}

/// Predicates from a literal 0/1 list.
fn preds(bits: &[u32]) -> Vec<bool> {
    bits.iter().copied().map(t).collect()
}

/// `(values, in_range)` of a shuffle of `100 + lane` where every lane executes and is a member.
fn full_shuffle(mode: ShflMode, w: u32, b: &[u32], clamp: u32, segmask: u32) -> (Vec<u32>, Vec<bool>) {
    let r = shuffle(mode, &lanes_values(w), b, clamp, segmask, all(w), all(w));
    assert_eq!(
        r.undefined, 0,
        "{mode:?}: no read is undefined when every lane executes and is a member"
    );
    (r.values, r.sources.iter().map(|s| s.in_range).collect())
}

// ---------------------------------------------------------------------------------------------------------
// The per-lane rule, exhaustively against CUDA's segment semantics.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_every_mode_width_offset_and_warp_size_matches_cuda_segment_semantics() {
    for w in [2u32, 4, 8, 16, 32, 64] {
        for width in (0..=w.trailing_zeros()).map(|k| 1u32 << k) {
            for mode in MODES {
                let (clamp, segmask) = width_operands(mode, width, w);
                for b in 0..w {
                    let r = shuffle(mode, &lanes_values(w), &uniform(b, w), clamp, segmask, all(w), all(w));
                    assert_eq!(r.undefined, 0);
                    for lane in 0..w {
                        let (src, in_range) = cuda_source(mode, lane, b, width);
                        let ctx = format!("W={w} width={width} {mode:?} b={b} lane={lane}");
                        assert_eq!(
                            source_lane(mode, lane, b, clamp, segmask, w),
                            LaneSource { src, in_range },
                            "{ctx}"
                        );
                        assert_eq!(r.sources[lane as usize], LaneSource { src, in_range }, "{ctx}");
                        assert_eq!(r.values[lane as usize], 100 + src, "{ctx}");
                    }
                }
            }
        }
    }
}

#[test]
fn shfl_full_warp_modes_at_warp_8_literal() {
    let w = 8;
    // idx 5: every lane reads lane 5.
    assert_eq!(full_shuffle(Idx, w, &uniform(5, w), 7, 0).0, vec![105; 8]);
    // up 1: lane 0 keeps its value.
    let (v, p) = full_shuffle(Up, w, &uniform(1, w), 0, 0);
    assert_eq!(v, vec![100, 100, 101, 102, 103, 104, 105, 106]);
    assert_eq!(p, preds(&[0, 1, 1, 1, 1, 1, 1, 1]));
    // down 1: lane 7 keeps its value.
    let (v, p) = full_shuffle(Down, w, &uniform(1, w), 7, 0);
    assert_eq!(v, vec![101, 102, 103, 104, 105, 106, 107, 107]);
    assert_eq!(p, preds(&[1, 1, 1, 1, 1, 1, 1, 0]));
    // bfly 3: lane l reads l ^ 3.
    let (v, p) = full_shuffle(Bfly, w, &uniform(3, w), 7, 0);
    assert_eq!(v, vec![103, 102, 101, 100, 107, 106, 105, 104]);
    assert_eq!(p, vec![true; 8]);
}

// ---------------------------------------------------------------------------------------------------------
// up / down past the segment edge.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_up_out_of_range_keeps_own_value() {
    // W=8, whole warp, up 2: lanes 0 and 1 have no lane two below.
    let (v, p) = full_shuffle(Up, 8, &uniform(2, 8), 0, 0);
    assert_eq!(v, vec![100, 101, 100, 101, 102, 103, 104, 105]);
    assert_eq!(p, preds(&[0, 0, 1, 1, 1, 1, 1, 1]));
    // W=8, width 4 (segmask 4, clamp 0), up 1: lanes 0 and 4 start a segment.
    let (v, p) = full_shuffle(Up, 8, &uniform(1, 8), 0, 4);
    assert_eq!(v, vec![100, 100, 101, 102, 104, 104, 105, 106]);
    assert_eq!(p, preds(&[0, 1, 1, 1, 0, 1, 1, 1]));
    // W=32, width 16 (segmask 16, clamp 0), up 2 (programs/shfl_up.s): lanes 0, 1, 16, 17 keep their value.
    let (v, p) = full_shuffle(Up, 32, &uniform(2, 32), 0, 16);
    let mut want: Vec<u32> = (0..32).map(|l| 100 + l - 2).collect();
    want[0..2].copy_from_slice(&[100, 101]);
    want[16..18].copy_from_slice(&[116, 117]);
    assert_eq!(v, want);
    assert_eq!(p, (0..32).map(|l| l % 16 >= 2).collect::<Vec<_>>());
}

#[test]
fn shfl_down_out_of_range_keeps_own_value() {
    // W=8, whole warp (clamp 7), down 3: lanes 5, 6, 7 have no lane three above.
    let (v, p) = full_shuffle(Down, 8, &uniform(3, 8), 7, 0);
    assert_eq!(v, vec![103, 104, 105, 106, 107, 105, 106, 107]);
    assert_eq!(p, preds(&[1, 1, 1, 1, 1, 0, 0, 0]));
    // W=8, width 2 (clamp 1, segmask 6), down 1: the second lane of each pair keeps its value.
    let (v, p) = full_shuffle(Down, 8, &uniform(1, 8), 1, 6);
    assert_eq!(v, vec![101, 101, 103, 103, 105, 105, 107, 107]);
    assert_eq!(p, preds(&[1, 0, 1, 0, 1, 0, 1, 0]));
    // W=64, whole warp, down 1: only lane 63 keeps its value.
    let (v, p) = full_shuffle(Down, 64, &uniform(1, 64), 63, 0);
    assert_eq!(
        v,
        (0..64).map(|l| if l == 63 { 163 } else { 101 + l }).collect::<Vec<_>>()
    );
    assert_eq!(p, (0..64).map(|l| l != 63).collect::<Vec<_>>());
}

#[test]
fn shfl_up_down_by_width_or_more_keep_own_value_in_every_lane() {
    // W=32, width 8: an offset of 8 leaves every segment.
    for (mode, clamp) in [(Up, 0), (Down, 7)] {
        let (v, p) = full_shuffle(mode, 32, &uniform(8, 32), clamp, 24);
        assert_eq!(v, lanes_values(32), "{mode:?}");
        assert_eq!(p, vec![false; 32], "{mode:?}");
    }
    // Width 1 (segmask W-1): any non-zero offset is out of range; offset 0 is in range.
    for (mode, b, in_range) in [(Up, 1, false), (Down, 1, false), (Up, 0, true), (Down, 0, true)] {
        let (v, p) = full_shuffle(mode, 8, &uniform(b, 8), 0, 7);
        assert_eq!(v, lanes_values(8), "{mode:?} {b}");
        assert_eq!(p, vec![in_range; 8], "{mode:?} {b}");
    }
}

#[test]
fn shfl_offset_is_taken_modulo_warp_size() {
    // PTX uses b[4:0] at W=32: down 33 is down 1, up 32 is up 0 (every lane reads itself, in range).
    let (v, p) = full_shuffle(Down, 32, &uniform(33, 32), 31, 0);
    assert_eq!(
        v,
        (0..32).map(|l| if l == 31 { 131 } else { 101 + l }).collect::<Vec<_>>()
    );
    assert_eq!(p, (0..32).map(|l| l != 31).collect::<Vec<_>>());
    let (v, p) = full_shuffle(Up, 32, &uniform(32, 32), 0, 0);
    assert_eq!(v, lanes_values(32));
    assert_eq!(p, vec![true; 32]);
    // W=8: idx 13 reads lane 5; bfly 9 is bfly 1.
    assert_eq!(full_shuffle(Idx, 8, &uniform(13, 8), 7, 0).0, vec![105; 8]);
    assert_eq!(
        full_shuffle(Bfly, 8, &uniform(9, 8), 7, 0).0,
        vec![101, 100, 103, 102, 105, 104, 107, 106]
    );
}

// ---------------------------------------------------------------------------------------------------------
// idx.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_idx_wraps_modulo_width() {
    // W=8, width 4 (clamp 3, segmask 4), idx 6: lane 6 % 4 = 2 of each segment.
    let (v, p) = full_shuffle(Idx, 8, &uniform(6, 8), 3, 4);
    assert_eq!(v, vec![102, 102, 102, 102, 106, 106, 106, 106]);
    assert_eq!(p, vec![true; 8]);
    // W=8, width 2 (clamp 1, segmask 6), idx 3: lane 1 of each pair.
    assert_eq!(
        full_shuffle(Idx, 8, &uniform(3, 8), 1, 6).0,
        vec![101, 101, 103, 103, 105, 105, 107, 107]
    );
    // W=32, width 16 (clamp 15, segmask 16), idx 18: lane 2 of each half (programs/shfl_broadcast.s).
    let (v, _) = full_shuffle(Idx, 32, &uniform(18, 32), 15, 16);
    assert_eq!(v, [vec![102; 16], vec![118; 16]].concat());
    // Width 1 (clamp 0, segmask W-1): every lane reads itself whatever the operand.
    assert_eq!(
        full_shuffle(Idx, 8, &uniform(5, 8), 0, 7),
        (lanes_values(8), vec![true; 8])
    );
}

#[test]
fn shfl_idx_negative_lane_operand_wraps_within_segment() {
    let minus2 = (-2i32).cast_unsigned();
    // W=32, width 16: lane -2 ≡ 14 of each half.
    let (v, p) = full_shuffle(Idx, 32, &uniform(minus2, 32), 15, 16);
    assert_eq!(v, [vec![114; 16], vec![130; 16]].concat());
    assert_eq!(p, vec![true; 32]);
    // W=8, whole warp: lane -2 ≡ 6.
    assert_eq!(full_shuffle(Idx, 8, &uniform(minus2, 8), 7, 0).0, vec![106; 8]);
    // W=64, whole warp: lane -2 ≡ 62.
    assert_eq!(full_shuffle(Idx, 64, &uniform(minus2, 64), 63, 0).0, vec![162; 64]);
    // W=64, width 8 (clamp 7, segmask 56): lane 6 of each segment of 8.
    assert_eq!(
        full_shuffle(Idx, 64, &uniform(minus2, 64), 7, 56).0,
        (0..64).map(|l| 100 + l / 8 * 8 + 6).collect::<Vec<_>>()
    );
}

#[test]
fn shfl_idx_lane_varying_operand_rotates_segment() {
    // W=16, width 16 (programs/shfl_wrap.s): lane l reads l + 2, then l - 2, modulo 16.
    let plus2: Vec<u32> = (0..16).map(|l| l + 2).collect();
    let (v, p) = full_shuffle(Idx, 16, &plus2, 15, 0);
    assert_eq!(
        v,
        vec![
            102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 100, 101
        ]
    );
    assert_eq!(p, vec![true; 16]);
    let minus2: Vec<u32> = (0..16u32).map(|l| l.wrapping_sub(2)).collect();
    assert_eq!(
        full_shuffle(Idx, 16, &minus2, 15, 0).0,
        vec![
            114, 115, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113
        ]
    );
    // W=16, width 8 (clamp 7, segmask 8), operand 31 - l: each segment of 8 is reversed.
    let rev: Vec<u32> = (0..16).map(|l| 31 - l).collect();
    assert_eq!(
        full_shuffle(Idx, 16, &rev, 7, 8).0,
        vec![
            107, 106, 105, 104, 103, 102, 101, 100, 115, 114, 113, 112, 111, 110, 109, 108
        ]
    );
    // W=32 at width 16, operand l + 2: the rotation stays inside each half.
    let plus2: Vec<u32> = (0..32).map(|l| l + 2).collect();
    assert_eq!(
        full_shuffle(Idx, 32, &plus2, 15, 16).0,
        (0..32).map(|l| 100 + l / 16 * 16 + (l + 2) % 16).collect::<Vec<_>>()
    );
}

#[test]
fn shfl_idx_clamp_below_segment_end_is_out_of_range() {
    // Raw c = 3 at W=8: clamp 3, no segments. idx 5: j = 5 > maxLane 3, every lane keeps its value.
    let (v, p) = full_shuffle(Idx, 8, &uniform(5, 8), 3, 0);
    assert_eq!(v, lanes_values(8));
    assert_eq!(p, vec![false; 8]);
    // idx 2 <= 3 is in range.
    assert_eq!(
        full_shuffle(Idx, 8, &uniform(2, 8), 3, 0),
        (vec![102; 8], vec![true; 8])
    );
    // down 1 with clamp 3: only lanes 0..2 read the lane above (j <= 3).
    let (v, p) = full_shuffle(Down, 8, &uniform(1, 8), 3, 0);
    assert_eq!(v, vec![101, 102, 103, 103, 104, 105, 106, 107]);
    assert_eq!(p, preds(&[1, 1, 1, 0, 0, 0, 0, 0]));
}

// ---------------------------------------------------------------------------------------------------------
// bfly.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_bfly_width_below_warp_reads_earlier_segment_never_later() {
    // W=16, width 4 (clamp 3, segmask 12), lane mask 4 >= width.
    let (v, p) = full_shuffle(Bfly, 16, &uniform(4, 16), 3, 12);
    assert_eq!(
        v,
        vec![
            100, 101, 102, 103, 100, 101, 102, 103, 108, 109, 110, 111, 108, 109, 110, 111
        ]
    );
    assert_eq!(p, preds(&[0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1]));
    // Lane mask 5: segments 1 and 3 read segments 0 and 2 crossed by 1; segments 0 and 2 keep their values.
    let (v, p) = full_shuffle(Bfly, 16, &uniform(5, 16), 3, 12);
    assert_eq!(
        v,
        vec![
            100, 101, 102, 103, 101, 100, 103, 102, 108, 109, 110, 111, 109, 108, 111, 110
        ]
    );
    assert_eq!(p, preds(&[0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1]));
    // Lane mask 8: the upper half reads the lower half; the lower half keeps its values.
    let (v, p) = full_shuffle(Bfly, 16, &uniform(8, 16), 3, 12);
    assert_eq!(
        v,
        vec![
            100, 101, 102, 103, 104, 105, 106, 107, 100, 101, 102, 103, 104, 105, 106, 107
        ]
    );
    assert_eq!(p, preds(&[0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]));
    // W=8, width 1 (clamp 0, segmask 7), lane mask 1: odd lanes read the lane below, even lanes keep theirs.
    let (v, p) = full_shuffle(Bfly, 8, &uniform(1, 8), 0, 7);
    assert_eq!(v, vec![100, 100, 102, 102, 104, 104, 106, 106]);
    assert_eq!(p, preds(&[0, 1, 0, 1, 0, 1, 0, 1]));
}

#[test]
fn shfl_bfly_lane_mask_below_width_swaps_within_segment() {
    // W=8, width 4 (clamp 3, segmask 4), lane mask 2.
    let (v, p) = full_shuffle(Bfly, 8, &uniform(2, 8), 3, 4);
    assert_eq!(v, vec![102, 103, 100, 101, 106, 107, 104, 105]);
    assert_eq!(p, vec![true; 8]);
    // W=64, whole warp, lane mask 32 and 63.
    assert_eq!(
        full_shuffle(Bfly, 64, &uniform(32, 64), 63, 0).0,
        (0..64).map(|l| 100 + (l ^ 32)).collect::<Vec<_>>()
    );
    assert_eq!(
        full_shuffle(Bfly, 64, &uniform(63, 64), 63, 0).0,
        (0..64).map(|l| 163 - l).collect::<Vec<_>>()
    );
}

// ---------------------------------------------------------------------------------------------------------
// PTX's raw `c` operand.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_raw_c_form_equals_width_form() {
    // (W, width, c for idx/down/bfly, c for up). Raw c decodes to clamp = c & (W-1), segmask = (c >> 8) & (W-1).
    let cases = [
        (32u32, 16u32, ((32 - 16) << 8) | 0x1f, (32 - 16) << 8),
        (32, 1, ((32 - 1) << 8) | 0x1f, (32 - 1) << 8),
        (32, 32, 0x1f, 0),
        (8, 2, ((8 - 2) << 8) | 0x7, (8 - 2) << 8),
        (64, 16, ((64 - 16) << 8) | 0x3f, (64 - 16) << 8),
        // The 32-lane idiom at W=64: clamp 0x1f is 31, still the end of a 16-lane segment.
        (64, 16, ((64 - 16) << 8) | 0x1f, (64 - 16) << 8),
    ];
    for (w, width, c, c_up) in cases {
        for mode in MODES {
            let c = if mode == Up { c_up } else { c };
            let (raw_clamp, raw_segmask) = (c & (w - 1), (c >> 8) & (w - 1));
            let (clamp, segmask) = width_operands(mode, width, w);
            for b in 0..w {
                let raw = full_shuffle(mode, w, &uniform(b, w), raw_clamp, raw_segmask);
                let by_width = full_shuffle(mode, w, &uniform(b, w), clamp, segmask);
                assert_eq!(raw, by_width, "W={w} width={width} c={c:#x} {mode:?} b={b}");
                let want: (Vec<u32>, Vec<bool>) = (0..w)
                    .map(|l| {
                        let (src, ok) = cuda_source(mode, l, b, width);
                        (100 + src, ok)
                    })
                    .unzip();
                assert_eq!(raw, want, "W={w} width={width} c={c:#x} {mode:?} b={b}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Member mask and inactive lanes: undefined reads.
// ---------------------------------------------------------------------------------------------------------

#[test]
fn shfl_executing_lane_outside_member_mask_is_undefined() {
    // W=8, every lane executes, members 0..3, bfly 1: lanes 4..7 are not members.
    let r = shuffle(Bfly, &lanes_values(8), &uniform(1, 8), 7, 0, 0x0f, 0xff);
    assert_eq!(r.undefined, 0xf0);
    assert_eq!(r.values, vec![101, 100, 103, 102, 105, 104, 107, 106]);
    // Even reading its own lane (idx with width 1) is undefined for a lane outside the member mask.
    let r = shuffle(Idx, &lanes_values(8), &uniform(0, 8), 0, 7, 0x0f, 0xff);
    assert_eq!(r.undefined, 0xf0);
    assert!(read_is_undefined(5, 5, 0x0f, 0xff));
}

#[test]
fn shfl_read_of_lane_outside_member_mask_is_undefined() {
    // W=8, every lane executes, members 0..6, down 1: lane 6 reads lane 7 (not a member); lane 7 is not a
    // member itself.
    let r = shuffle(Down, &lanes_values(8), &uniform(1, 8), 7, 0, 0x7f, 0xff);
    assert_eq!(r.undefined, 0b1100_0000);
    assert!(read_is_undefined(6, 7, 0x7f, 0xff));
    assert!(!read_is_undefined(6, 5, 0x7f, 0xff));
    // Members 0..3 executing 0..3 only, idx 4 at W=8: every lane reads lane 4 (neither a member nor executing).
    let r = shuffle(Idx, &lanes_values(8), &uniform(4, 8), 7, 0, 0x0f, 0x0f);
    assert_eq!(r.undefined, 0x0f);
    assert_eq!(&r.values[..4], &[104, 104, 104, 104]);
}

#[test]
fn shfl_read_of_inactive_lane_is_undefined() {
    // W=8, only even lanes execute, all lanes members, bfly 1: every executing lane reads an odd, inactive lane.
    // The model returns the inactive lane's register value.
    let r = shuffle(Bfly, &lanes_values(8), &uniform(1, 8), 7, 0, 0xff, 0x55);
    assert_eq!(r.undefined, 0x55);
    for lane in [0u32, 2, 4, 6] {
        assert_eq!(r.values[lane as usize], 101 + lane, "lane {lane}");
    }
    // bfly 2: even lanes read even lanes, all defined.
    let r = shuffle(Bfly, &lanes_values(8), &uniform(2, 8), 7, 0, 0xff, 0x55);
    assert_eq!(r.undefined, 0);
    assert!(read_is_undefined(0, 1, 0xff, 0x55));
    assert!(!read_is_undefined(0, 2, 0xff, 0x55));
}

#[test]
fn shfl_out_of_range_own_lane_read_is_never_undefined() {
    // W=8, lanes 0..3 execute and are the members; down 1 at width 4: lane 3 is out of range and reads itself,
    // not the inactive non-member lane 4.
    let r = shuffle(Down, &lanes_values(8), &uniform(1, 8), 3, 4, 0x0f, 0x0f);
    assert_eq!(r.undefined, 0);
    assert_eq!(&r.values[..4], &[101, 102, 103, 103]);
    // At width 8 the same lane 3 is in range and reads lane 4: undefined.
    let r = shuffle(Down, &lanes_values(8), &uniform(1, 8), 7, 0, 0x0f, 0x0f);
    assert_eq!(r.undefined, 0b1000);
    // Lanes 4..7 execute; up 1 at width 4: lane 4 keeps its own value (defined); at width 8 it reads lane 3.
    let r = shuffle(Up, &lanes_values(8), &uniform(1, 8), 0, 4, 0xf0, 0xf0);
    assert_eq!(r.undefined, 0);
    assert_eq!(&r.values[4..], &[104, 104, 105, 106]);
    let r = shuffle(Up, &lanes_values(8), &uniform(1, 8), 0, 0, 0xf0, 0xf0);
    assert_eq!(r.undefined, 0b1_0000);
    // A member lane reading itself is defined whatever the other lanes do.
    for lane in 0..64 {
        assert!(!read_is_undefined(lane, lane, 1u64 << lane, 1u64 << lane));
        assert!(!read_is_undefined(lane, lane, u64::MAX, u64::MAX));
    }
}

#[test]
fn shfl_full_member_mask_at_warp_64_has_no_undefined_reads() {
    // Lane 63 reading lane 0 and lane 0 reading lane 63 (bit 63 of the masks).
    let r = shuffle(Bfly, &lanes_values(64), &uniform(63, 64), 63, 0, u64::MAX, u64::MAX);
    assert_eq!(r.undefined, 0);
    assert_eq!(r.values, (0..64).map(|l| 163 - l).collect::<Vec<_>>());
    assert!(read_is_undefined(0, 63, u64::MAX >> 1, u64::MAX));
    assert!(read_is_undefined(63, 0, u64::MAX >> 1, u64::MAX));
}

// ---------------------------------------------------------------------------------------------------------
// End to end: assemble, instantiate and run.
// ---------------------------------------------------------------------------------------------------------

fn assemble(text: &str) -> warpsim_isa::Program {
    warpsim_isa::parse("shuffle_test.s", text, &warpsim::programs::Resolver)
        .unwrap_or_else(|e| panic!("assembly failed:\n{}\n{text}", e.render(false)))
}

fn run(text: &str, w: u32) -> RunOutput {
    let program = assemble(text);
    match warpsim::simulate(&program, &Config::hopper().with_warp_size(w), &Launch::default()) {
        Ok(out) => out,
        Err(SimError::Load(e)) => panic!("load failed at W={w}:\n{}\n{text}", e.render(&program, false)),
        Err(SimError::Fault(f)) => panic!("fault at W={w}: {f:?}\n{text}"),
    }
}

fn buf(out: &RunOutput, name: &str) -> Vec<u32> {
    out.buffer(name)
        .unwrap_or_else(|| panic!("no buffer `{name}`"))
        .data
        .clone()
}

/// One shuffle of `100 + tid` in a warp-sized block; writes the result to `out` and the predicate to `ok`.
fn one_shuffle_program(instr: &str) -> String {
    format!(
        "
.kernel one_shuffle
.grid 1
.block W
.buffer out u32[W]
.buffer ok  u32[W]
.reg %tid, %v, %d, %s
.pred %p

        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        {instr}
        selp.u32            %s, 1, 0, %p
        st.global.u32       out[%tid], %d
        st.global.u32       ok[%tid], %s
"
    )
}

#[test]
fn e2e_every_mode_width_and_warp_size_matches_cuda_segment_semantics() {
    for w in [8u32, 32, 64] {
        let mut widths = vec![1u32, 2, 8, 16, w];
        widths.retain(|&x| x <= w);
        widths.dedup();
        for width in widths {
            for mode in MODES {
                for b in [0, 1, 3, width - 1, width, w - 1] {
                    let instr = format!("shfl.sync.{}.b32 %d|%p, %v, {b}, width={width}", mode.name());
                    let out = run(&one_shuffle_program(&instr), w);
                    let (want, want_ok): (Vec<u32>, Vec<u32>) = (0..w)
                        .map(|l| {
                            // PTX takes the operand modulo the warp size (b[4:0] at W=32).
                            let (src, ok) = cuda_source(mode, l, b % w, width);
                            (100 + src, u32::from(ok))
                        })
                        .unzip();
                    assert_eq!(buf(&out, "out"), want, "W={w}: {instr}");
                    assert_eq!(buf(&out, "ok"), want_ok, "W={w}: {instr}");
                    assert_eq!(out.stats.undefined_shuffle_reads, 0, "W={w}: {instr}");
                    assert_eq!(out.stats.shuffles, 1, "W={w}: {instr}");
                }
            }
        }
    }
}

#[test]
fn e2e_shfl_up_predicate_output_written_with_selp() {
    let out = run(&one_shuffle_program("shfl.sync.up.b32 %d|%p, %v, 2, width=16"), 32);
    let mut want: Vec<u32> = (0..32).map(|l| 98 + l).collect();
    want[0..2].copy_from_slice(&[100, 101]);
    want[16..18].copy_from_slice(&[116, 117]);
    assert_eq!(buf(&out, "out"), want);
    assert_eq!(
        buf(&out, "ok"),
        vec![
            0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
        ]
    );
    // W=8, whole warp, up 3.
    let out = run(&one_shuffle_program("shfl.sync.up.b32 %d|%p, %v, 3"), 8);
    assert_eq!(buf(&out, "out"), vec![100, 101, 102, 100, 101, 102, 103, 104]);
    assert_eq!(buf(&out, "ok"), vec![0, 0, 0, 1, 1, 1, 1, 1]);
}

#[test]
fn e2e_shfl_down_predicate_output_with_width_and_mask_options() {
    let out = run(
        &one_shuffle_program("shfl.sync.down.b32 %d|%p, %v, 1, width=16, mask=0xffff"),
        16,
    );
    assert_eq!(
        buf(&out, "out"),
        vec![
            101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 115
        ]
    );
    assert_eq!(buf(&out, "ok"), vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    assert_eq!(out.stats.undefined_shuffle_reads, 0);
}

#[test]
fn e2e_raw_c_form_equals_width_form() {
    // (W, width form, raw form with the member mask of the whole warp).
    let cases = [
        (32, "idx", "5, width=16", "5, ((32 - 16) << 8) | 0x1f, 0xffffffff"),
        (32, "down", "3, width=16", "3, ((32 - 16) << 8) | 0x1f, 0xffffffff"),
        (32, "bfly", "20, width=16", "20, ((32 - 16) << 8) | 0x1f, 0xffffffff"),
        (32, "up", "3, width=16", "3, (32 - 16) << 8, 0xffffffff"),
        (32, "idx", "2, width=16", "2, 0x101f, 0xffffffff"),
        (8, "down", "1, width=2", "1, 0x607, 0xff"),
        (8, "up", "1, width=2", "1, 0x600, 0xff"),
        (8, "bfly", "2, width=2", "2, 0x607, 0xff"),
    ];
    for (w, mode, by_width, raw) in cases {
        let a = run(
            &one_shuffle_program(&format!("shfl.sync.{mode}.b32 %d|%p, %v, {by_width}")),
            w,
        );
        let b = run(
            &one_shuffle_program(&format!("shfl.sync.{mode}.b32 %d|%p, %v, {raw}")),
            w,
        );
        assert_eq!(buf(&a, "out"), buf(&b, "out"), "W={w} {mode} {by_width} vs {raw}");
        assert_eq!(buf(&a, "ok"), buf(&b, "ok"), "W={w} {mode} {by_width} vs {raw}");
        assert_eq!(b.stats.undefined_shuffle_reads, 0, "W={w} {mode} {raw}");
    }
    // And the values themselves, W=32 down 3 at width 16: lanes 13..15 and 29..31 keep their own.
    let out = run(
        &one_shuffle_program("shfl.sync.down.b32 %d|%p, %v, 3, ((32 - 16) << 8) | 0x1f, 0xffffffff"),
        32,
    );
    let want: Vec<u32> = (0..32).map(|l| if l % 16 >= 13 { 100 + l } else { 103 + l }).collect();
    assert_eq!(buf(&out, "out"), want);
    // W=8 bfly 2 at width 2 (c = 0x607): lanes 2,3 and 6,7 read the pair before; lanes 0,1 and 4,5 keep theirs.
    let out = run(&one_shuffle_program("shfl.sync.bfly.b32 %d|%p, %v, 2, 0x607, 0xff"), 8);
    assert_eq!(buf(&out, "out"), vec![100, 101, 100, 101, 104, 105, 104, 105]);
    assert_eq!(buf(&out, "ok"), vec![0, 0, 1, 1, 0, 0, 1, 1]);
}

#[test]
fn e2e_width_operand_decodes_to_ptx_clamp_and_segmask() {
    let text = "
.kernel decode
.reg %v, %d
        shfl.sync.idx.b32   %d, %v, 1, width=16
        shfl.sync.up.b32    %d, %v, 1, width=16
        shfl.sync.down.b32  %d, %v, 1, width=16
        shfl.sync.bfly.b32  %d, %v, 1, width=16
        shfl.sync.down.b32  %d, %v, 1, width=1
        shfl.sync.up.b32    %d, %v, 1
        shfl.sync.down.b32  %d, %v, 1
        shfl.sync.idx.b32   %d, %v, 2, 0x101f, 0xffff
        shfl.sync.up.b32    %d, %v, 2, 0x1000, 0xffff0000
        shfl.sync.bfly.b32  %d, %v, 1, width=W, mask=0xff
";
    let program = assemble(text);
    let decoded = |w: u32| -> Vec<(ShflMode, u32, u32, u64)> {
        let k = warpsim::instantiate(&program, &Config::hopper().with_warp_size(w), &Launch::default())
            .unwrap_or_else(|e| panic!("{}", e.render(&program, false)));
        k.code
            .iter()
            .filter_map(|i| match i.op {
                DOp::Shfl {
                    mode,
                    clamp,
                    segmask,
                    member,
                    ..
                } => Some((
                    mode,
                    u32::from(clamp),
                    u32::from(segmask),
                    match member {
                        Member::Lanes(m) => m,
                        Member::Reg(_) => panic!("a constant mask decodes to lanes"),
                    },
                )),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        decoded(32),
        vec![
            (Idx, 15, 16, 0xffff_ffff),
            (Up, 0, 16, 0xffff_ffff),
            (Down, 15, 16, 0xffff_ffff),
            (Bfly, 15, 16, 0xffff_ffff),
            (Down, 0, 31, 0xffff_ffff),
            (Up, 0, 0, 0xffff_ffff),
            (Down, 31, 0, 0xffff_ffff),
            (Idx, 31, 16, 0xffff),
            (Up, 0, 16, 0xffff_0000),
            (Bfly, 31, 0, 0xff),
        ]
    );
    assert_eq!(
        decoded(64),
        vec![
            (Idx, 15, 48, u64::MAX),
            (Up, 0, 48, u64::MAX),
            (Down, 15, 48, u64::MAX),
            (Bfly, 15, 48, u64::MAX),
            (Down, 0, 63, u64::MAX),
            (Up, 0, 0, u64::MAX),
            (Down, 63, 0, u64::MAX),
            // Raw c = 0x101f at W=64: clamp 0x1f, segmask 0x10.
            (Idx, 31, 16, 0xffff),
            (Up, 0, 16, 0xffff_0000),
            (Bfly, 63, 0, 0xff),
        ]
    );
    // W=16: raw c and the member mask are taken modulo the warp (c = 0x101f: clamp 15, segmask 0).
    assert_eq!(
        decoded(16),
        vec![
            (Idx, 15, 0, 0xffff),
            (Up, 0, 0, 0xffff),
            (Down, 15, 0, 0xffff),
            (Bfly, 15, 0, 0xffff),
            (Down, 0, 15, 0xffff),
            (Up, 0, 0, 0xffff),
            (Down, 15, 0, 0xffff),
            (Idx, 15, 0, 0xffff),
            (Up, 0, 0, 0),
            (Bfly, 15, 0, 0xff),
        ]
    );
}

#[test]
fn e2e_shuffle_width_larger_than_warp_is_rejected() {
    let program = assemble(&one_shuffle_program("shfl.sync.idx.b32 %d|%p, %v, 0, width=16"));
    match warpsim::simulate(&program, &Config::hopper().with_warp_size(8), &Launch::default()) {
        Err(SimError::Load(_)) => {}
        Err(SimError::Fault(f)) => panic!("expected a load error, got a fault: {f:?}"),
        Ok(_) => panic!("width 16 at W=8 must not load"),
    }
}

#[test]
fn e2e_every_lane_reads_before_any_lane_writes() {
    // Destination is the source register: the values are swapped, not smeared.
    let text = "
.kernel in_place
.grid 1
.block W
.buffer bfly u32[W]
.buffer up   u32[W]
.buffer down u32[W]
.reg %tid, %v
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        shfl.sync.bfly.b32  %v, %v, 1
        st.global.u32       bfly[%tid], %v
        add.u32             %v, %tid, 100
        shfl.sync.up.b32    %v, %v, 1
        st.global.u32       up[%tid], %v
        add.u32             %v, %tid, 100
        shfl.sync.down.b32  %v, %v, 1
        st.global.u32       down[%tid], %v
";
    let out = run(text, 8);
    assert_eq!(buf(&out, "bfly"), vec![101, 100, 103, 102, 105, 104, 107, 106]);
    assert_eq!(buf(&out, "up"), vec![100, 100, 101, 102, 103, 104, 105, 106]);
    assert_eq!(buf(&out, "down"), vec![101, 102, 103, 104, 105, 106, 107, 107]);
    let out = run(text, 32);
    assert_eq!(buf(&out, "bfly"), (0..32).map(|l| 100 + (l ^ 1)).collect::<Vec<_>>());
    assert_eq!(buf(&out, "up"), (0..32).map(|l| 100 + l.max(1) - 1).collect::<Vec<_>>());
    assert_eq!(
        buf(&out, "down"),
        (0..32).map(|l| 100 + (l + 1).min(31)).collect::<Vec<_>>()
    );
}

#[test]
fn e2e_guarded_shuffle_leaves_non_executing_lanes_unchanged_and_counts_undefined_reads() {
    // Only even lanes execute the shuffles. Odd lanes' destinations and predicate keep their earlier values.
    let text = "
.kernel guarded
.grid 1
.block W
.buffer odd_src  u32[W]
.buffer even_src u32[W]
.buffer ok       u32[W]
.reg %tid, %v, %bit, %a, %b, %s
.pred %even, %p
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        and.b32             %bit, %tid, 1
        setp.eq.u32         %even, %bit, 0
        setp.eq.u32         %p, %tid, %tid
        mov.u32             %a, 7777
        mov.u32             %b, 8888
        @%even shfl.sync.down.b32 %a|%p, %v, 1, width=2
        @%even shfl.sync.bfly.b32 %b, %v, 2
        selp.u32            %s, 1, 0, %p
        st.global.u32       odd_src[%tid], %a
        st.global.u32       even_src[%tid], %b
        st.global.u32       ok[%tid], %s
";
    for w in [8u32, 32, 64] {
        let out = run(text, w);
        // down 1 at width 2: even lanes read the odd lane above, which does not execute (undefined; the model
        // returns its register). Odd lanes keep 7777.
        let want_a: Vec<u32> = (0..w).map(|l| if l % 2 == 0 { 101 + l } else { 7777 }).collect();
        assert_eq!(buf(&out, "odd_src"), want_a, "W={w}");
        // bfly 2: even lanes read even lanes (defined); odd lanes keep 8888.
        let want_b: Vec<u32> = (0..w).map(|l| if l % 2 == 0 { 100 + (l ^ 2) } else { 8888 }).collect();
        assert_eq!(buf(&out, "even_src"), want_b, "W={w}");
        // Even lanes: in range. Odd lanes would be out of range but do not execute: the predicate stays true.
        assert_eq!(buf(&out, "ok"), vec![1; w as usize], "W={w}");
        assert_eq!(out.stats.undefined_shuffle_reads, u64::from(w / 2), "W={w}");
        assert_eq!(out.stats.shuffles, 2, "W={w}");
    }
}

#[test]
fn e2e_guarded_shuffle_predicate_output_only_written_in_executing_lanes() {
    // Lanes 0..3 execute `up 1` with the predicate output; lane 0 is out of range. Lanes 4.. keep %p false.
    let text = "
.kernel guarded_pred
.grid 1
.block W
.buffer out u32[W]
.buffer ok  u32[W]
.reg %tid, %v, %d, %s
.pred %low, %p
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        mov.u32             %d, 0
        setp.lt.u32         %low, %tid, 4
        setp.ne.u32         %p, %tid, %tid
        @%low shfl.sync.up.b32 %d|%p, %v, 1
        selp.u32            %s, 1, 0, %p
        st.global.u32       out[%tid], %d
        st.global.u32       ok[%tid], %s
";
    let out = run(text, 8);
    assert_eq!(buf(&out, "out"), vec![100, 100, 101, 102, 0, 0, 0, 0]);
    assert_eq!(buf(&out, "ok"), vec![0, 1, 1, 1, 0, 0, 0, 0]);
    assert_eq!(out.stats.undefined_shuffle_reads, 0);
}

#[test]
fn e2e_sixteen_thread_block_at_warp_32_with_width_16() {
    // Lanes 16..31 of the only warp do not exist (block of 16).
    let text = "
.kernel half_warp
.grid 1
.block 16
.buffer bcast u32[16]
.buffer raw   u32[16]
.buffer seg   u32[16]
.buffer segok u32[16]
.buffer full  u32[16]
.reg %tid, %v, %d, %s
.pred %p
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        shfl.sync.idx.b32   %d, %v, 2, width=16
        st.global.u32       bcast[%tid], %d
        shfl.sync.idx.b32   %d, %v, 2, 0x101f, 0xffffffff
        st.global.u32       raw[%tid], %d
        shfl.sync.down.b32  %d|%p, %v, 1, width=16
        selp.u32            %s, 1, 0, %p
        st.global.u32       seg[%tid], %d
        st.global.u32       segok[%tid], %s
        shfl.sync.down.b32  %d, %v, 1
        st.global.u32       full[%tid], %d
";
    let out = run(text, 32);
    assert_eq!(buf(&out, "bcast"), vec![102; 16]);
    assert_eq!(buf(&out, "raw"), vec![102; 16]);
    assert_eq!(
        buf(&out, "seg"),
        vec![
            101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 115
        ]
    );
    assert_eq!(buf(&out, "segok"), vec![1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    // Whole-warp down 1: lane 15 reads lane 16, which does not exist: one undefined read. The model returns lane
    // 16's register, which was never written (registers start at zero).
    assert_eq!(
        buf(&out, "full"),
        vec![
            101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 0
        ]
    );
    assert_eq!(out.stats.undefined_shuffle_reads, 1);
    assert_eq!(out.stats.shuffles, 4);
}

#[test]
fn e2e_warp_64_full_warp_bfly() {
    let text = "
.kernel bfly64
.grid 1
.block W
.buffer x32 u32[W]
.buffer x63 u32[W]
.buffer x1  u32[W]
.reg %tid, %v, %d
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        shfl.sync.bfly.b32  %d, %v, 32
        st.global.u32       x32[%tid], %d
        shfl.sync.bfly.b32  %d, %v, 63
        st.global.u32       x63[%tid], %d
        shfl.sync.bfly.b32  %d, %v, 1, width=W
        st.global.u32       x1[%tid], %d
";
    let out = run(text, 64);
    assert_eq!(buf(&out, "x32"), (0..64).map(|l| 100 + (l ^ 32)).collect::<Vec<_>>());
    assert_eq!(buf(&out, "x63"), (0..64).map(|l| 163 - l).collect::<Vec<_>>());
    assert_eq!(buf(&out, "x1"), (0..64).map(|l| 100 + (l ^ 1)).collect::<Vec<_>>());
    assert_eq!(out.stats.undefined_shuffle_reads, 0);
}

#[test]
fn e2e_warp_64_member_mask_of_32_lanes_flags_upper_half() {
    // Member mask names lanes 0..31 only; all 64 lanes execute bfly 32: lanes 32..63 are not members, and lanes
    // 0..31 read them: all 64 reads are undefined (the values still move, deterministically).
    let out = run(
        &one_shuffle_program("shfl.sync.bfly.b32 %d|%p, %v, 32, mask=0xffffffff"),
        64,
    );
    assert_eq!(buf(&out, "out"), (0..64).map(|l| 100 + (l ^ 32)).collect::<Vec<_>>());
    assert_eq!(out.stats.undefined_shuffle_reads, 64);
    // bfly 1 within the lower half: only the 32 upper (non-member) lanes are undefined.
    let out = run(
        &one_shuffle_program("shfl.sync.bfly.b32 %d|%p, %v, 1, mask=0xffffffff"),
        64,
    );
    assert_eq!(out.stats.undefined_shuffle_reads, 32);
}

#[test]
fn e2e_idx_with_lane_varying_negative_operand_wraps_within_width() {
    // programs/shfl_wrap.s with offset -2: 14 15 0 1 … 13.
    let text = "
.kernel wrap
.grid 1
.block 16
.buffer out u32[16]
.reg %tid, %v, %src
        mov.u32             %tid, %tid.x
        add.u32             %v, %tid, 100
        add.s32             %src, %tid, -2
        shfl.sync.idx.b32   %v, %v, %src, width=16
        st.global.u32       out[%tid], %v
";
    for w in [16u32, 32, 64] {
        let out = run(text, w);
        assert_eq!(
            buf(&out, "out"),
            vec![
                114, 115, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113
            ],
            "W={w}"
        );
        assert_eq!(out.stats.undefined_shuffle_reads, 0, "W={w}");
    }
    // An immediate -2 at W=8: every lane reads lane 6.
    let out = run(&one_shuffle_program("shfl.sync.idx.b32 %d|%p, %v, -2"), 8);
    assert_eq!(buf(&out, "out"), vec![106; 8]);
    assert_eq!(buf(&out, "ok"), vec![1; 8]);
}
