//! The warp shuffle network (`shfl.sync`).
//!
//! Hardware: a crossbar between the lanes of a warp. Every lane reads its source before any lane writes, so a
//! shuffle is one parallel permutation. This module is the PTX ISA pseudo-code for `shfl.sync`, generalised
//! from 32 lanes to a warp of `W` (a power of two, 2–64): lane, `b`, clamp and segment mask are taken
//! modulo `W`.
//!
//! ```text
//! maxLane = (lane & segmask) | (clamp & ~segmask);  minLane = lane & segmask
//! up:   j = lane - b;  in range if j >= maxLane
//! down: j = lane + b;  in range if j <= maxLane
//! bfly: j = lane ^ b;  in range if j <= maxLane
//! idx:  j = minLane | (b & ~segmask);  in range if j <= maxLane
//! out of range: j = lane (the lane keeps its own value, predicate false)
//! ```
//!
//! Reading a lane that does not execute the shuffle, or that is outside the member mask, is undefined on
//! hardware; the model returns that lane's register value (deterministic) and flags the read.

use crate::kernel::Src;
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use warpsim_isa::ShflMode;

/// Where one lane's shuffle result comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSource {
    /// The lane read (the lane itself when out of range).
    pub src: u32,
    /// PTX's predicate output: the computed source lane was in range.
    pub in_range: bool,
}

/// The source lane for `lane` (PTX pseudo-code).
#[inline]
pub fn source_lane(mode: ShflMode, lane: u32, b: u32, clamp: u32, segmask: u32, w: u32) -> LaneSource {
    let lanes = w - 1;
    let b = b & lanes;
    let clamp = clamp & lanes;
    let segmask = segmask & lanes;
    let max_lane = (lane & segmask) | (clamp & !segmask);
    let min_lane = lane & segmask;
    let (j, in_range) = match mode {
        ShflMode::Up => {
            let j = i64::from(lane) - i64::from(b);
            (j, j >= i64::from(max_lane))
        }
        ShflMode::Down => {
            let j = i64::from(lane + b);
            (j, j <= i64::from(max_lane))
        }
        ShflMode::Bfly => {
            let j = i64::from(lane ^ b);
            (j, j <= i64::from(max_lane))
        }
        ShflMode::Idx => {
            let j = i64::from(min_lane | (b & !segmask));
            (j, j <= i64::from(max_lane))
        }
    };
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "in range: 0 <= j <= max_lane < 64"
    )]
    LaneSource {
        src: if in_range { j as u32 } else { lane },
        in_range,
    }
}

/// PTX's packed `c` operand at `W` lanes: (clamp value, segment mask), from bits 0.. and 8.. modulo `W`.
#[inline]
pub fn unpack_c(c: u32, w: u32) -> (u32, u32) {
    (c & (w - 1), (c >> 8) & (w - 1))
}

/// [`source_rows`] when each lane has its own `c` (PTX's operand in a register): `c` holds each lane's.
#[inline(never)]
pub fn source_rows_each(mode: ShflMode, b: &[u32; 64], c: &[u32; 64], w: u32, src: &mut [u32; 64]) -> u64 {
    let mut in_range = 0u64;
    for lane in 0..w {
        let (clamp, segmask) = unpack_c(c[lane as usize], w);
        let s = source_lane(mode, lane, b[lane as usize], clamp, segmask, w);
        src[lane as usize] = s.src;
        in_range |= u64::from(s.in_range) << lane;
    }
    in_range
}

/// [`source_lane`] for the first `w` lanes at once (`b` holds each lane's operand): each lane's source into
/// `src`; returns the lanes whose source was in range. The mode is chosen once, not per lane, and the lanes are
/// computed in 32-bit arithmetic without branches (a loop the compiler vectorises), their in-range flags packed
/// into a mask eight at a time.
#[inline]
pub fn source_rows(mode: ShflMode, b: &[u32; 64], clamp: u32, segmask: u32, w: u32, src: &mut [u32; 64]) -> u64 {
    let lanes = w - 1;
    let (clamp, segmask) = (clamp & lanes, segmask & lanes);
    let mut ok = [0u8; 64];
    let n = w as usize;
    macro_rules! each {
        ($($m:ident => |$l:ident, $b:ident, $max:ident| $rule:expr),*) => {
            match mode {
                $(ShflMode::$m => {
                    for (lane, ((s, o), &$b)) in src[..n].iter_mut().zip(&mut ok[..n]).zip(&b[..n]).enumerate() {
                        #[allow(clippy::cast_possible_truncation, reason = "a lane, below the warp size (at most 64)")]
                        let $l = lane as u32;
                        let $b = $b & lanes;
                        let $max = ($l & segmask) | (clamp & !segmask);
                        let (j, in_range): (u32, bool) = $rule;
                        *s = if in_range { j } else { $l };
                        *o = u8::from(in_range);
                    }
                })*
            }
        };
    }
    // (As `source_lane`: `up` is in range when lane - b >= maxLane, which is lane >= b + maxLane.)
    each!(
        Up => |l, b, max| (l.wrapping_sub(b), l >= b + max),
        Down => |l, b, max| (l + b, l + b <= max),
        Bfly => |l, b, max| (l ^ b, l ^ b <= max),
        Idx => |l, b, max| ((l & segmask) | (b & !segmask), (l & segmask) | (b & !segmask) <= max)
    );
    let mut in_range = 0u64;
    for (k, eight) in ok.chunks_exact(8).enumerate() {
        let v = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // (Each byte is 0 or 1: the product gathers byte i's bit at bit 56 + i.)
        in_range |= (v.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    in_range
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShuffleResult {
    /// Per lane (only executing lanes are meaningful).
    pub values: Vec<u32>,
    pub sources: Vec<LaneSource>,
    /// Executing lanes whose read was undefined on hardware: the source lane did not execute the shuffle or is
    /// outside the member mask, or the lane itself is outside the member mask.
    pub undefined: u64,
}

/// Shuffle `a` across a warp: `exec` are the executing lanes, `b` each lane's lane/offset operand.
/// The reference form used by tests; the executor inlines the same per-lane rule.
pub fn shuffle(
    mode: ShflMode,
    a: &[u32],
    b: &[u32],
    clamp: u32,
    segmask: u32,
    member: u64,
    exec: u64,
) -> ShuffleResult {
    let w = u32::try_from(a.len()).expect("a warp has at most 64 lanes");
    let mut values = a.to_vec();
    let mut sources = vec![
        LaneSource {
            src: 0,
            in_range: false
        };
        a.len()
    ];
    let mut undefined = 0u64;
    for lane in 0..w {
        let s = source_lane(mode, lane, b[lane as usize], clamp, segmask, w);
        sources[lane as usize] = s;
        if exec >> lane & 1 == 1 {
            values[lane as usize] = a[s.src as usize];
            if read_is_undefined(lane, s.src, member, exec) {
                undefined |= 1 << lane;
            }
        }
    }
    ShuffleResult {
        values,
        sources,
        undefined,
    }
}

/// Is `lane`'s read of `src` undefined on hardware?
#[inline]
pub fn read_is_undefined(lane: u32, src: u32, member: u64, exec: u64) -> bool {
    let lane_ok = member >> lane & 1 == 1;
    let src_ok = src == lane || (exec >> src & 1 == 1 && member >> src & 1 == 1);
    !(lane_ok && src_ok)
}

/// What one `shfl.sync` did across the warp: the exchange pattern the statistics, the sanitizers and the trace
/// read.
pub(crate) struct Exchange<'a> {
    /// Each lane's source lane (itself when out of range); lanes past W are not meaningful.
    pub sources: &'a [u32; 64],
    /// Lanes whose computed source was in range (all lanes, executing or not).
    pub in_range: u64,
    /// Executing lanes whose read was undefined on hardware ([`read_is_undefined`]).
    pub undefined: u64,
    /// The member mask the lanes named ([`crate::kernel::Member::lanes`]).
    pub member: u64,
}

/// Execute `shfl.sync.MODE d|p, a, b, clamp/segmask, member` for the `exec` lanes: every lane reads its source
/// before any lane writes; `d` (and `p`, the in-range predicate) are written in the executing lanes. Each lane's
/// source goes into `sources`.
#[inline(always)]
pub(crate) fn execute<'a>(
    rf: &mut RegisterFile,
    ctx: &LaneCtx,
    (mode, d, p, a, b): (ShflMode, u16, Option<u16>, Src, Src),
    (clamp, segmask, from, member): (u8, u8, Option<Src>, u64),
    exec: u64,
    (sources, rows): (&'a mut [u32; 64], &mut crate::alu::Rows),
) -> Exchange<'a> {
    let w = ctx.w as usize;
    // (The SM's rows, reused: none zeroed per shuffle.)
    let [x, y, r, cs] = rows;
    rf.fetch(a, ctx, x);
    rf.fetch(b, ctx, y);
    let in_range = match from {
        None => source_rows(mode, y, clamp.into(), segmask.into(), ctx.w, sources),
        Some(c) => {
            rf.fetch(c, ctx, cs);
            source_rows_each(mode, y, cs, ctx.w, sources)
        }
    };
    for (v, &s) in r[..w].iter_mut().zip(&sources[..w]) {
        *v = x[s as usize & 63];
    }
    rf.write_row(d, w, exec, r);
    let everyone = ctx.full & exec == ctx.full && ctx.full & member == ctx.full;
    let mut undefined = 0u64;
    if !everyone {
        for_lanes(exec, |lane| {
            if read_is_undefined(lane, sources[lane as usize], member, exec) {
                undefined |= 1 << lane;
            }
        });
    }
    if let Some(p) = p {
        rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | (in_range & exec);
    }
    Exchange {
        sources,
        in_range,
        undefined,
        member,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row form agrees with the PTX pseudo-code lane by lane, for every mode, warp size, clamp and segment
    /// mask, with operands in and out of range (and above the warp size, taken modulo it).
    #[test]
    fn rows_agree_with_the_pseudo_code() {
        for mode in [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx] {
            for w in [2u32, 4, 8, 16, 32, 64] {
                for (clamp, segmask) in [
                    (w - 1, 0),
                    (0, 0),
                    (3, 0),
                    (w / 2 - 1, w - 1 - (w / 2 - 1)),
                    (7, 24),
                    (31, 31),
                ] {
                    for seed in 0..8u32 {
                        let mut b = [0u32; 64];
                        for (lane, x) in b.iter_mut().enumerate() {
                            #[allow(clippy::cast_possible_truncation, reason = "a lane")]
                            let lane = lane as u32;
                            // Uniform operands (as a shuffle by a constant) and per-lane ones, some past W.
                            *x = if seed < 4 {
                                seed * 3
                            } else {
                                lane.wrapping_mul(seed * 7 + 1) % 130
                            };
                        }
                        let mut src = [0u32; 64];
                        let in_range = source_rows(mode, &b, clamp, segmask, w, &mut src);
                        for lane in 0..w {
                            let want = source_lane(mode, lane, b[lane as usize], clamp, segmask, w);
                            assert_eq!(
                                src[lane as usize], want.src,
                                "{mode:?} w {w} lane {lane} b {}",
                                b[lane as usize]
                            );
                            assert_eq!(in_range >> lane & 1 == 1, want.in_range, "{mode:?} w {w} lane {lane}");
                        }
                        if w < 64 {
                            assert_eq!(in_range >> w, 0, "no lane past W");
                        }
                    }
                }
            }
        }
    }
}
