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

/// Result of one shuffle over a warp.
/// [`source_lane`] for the first `w` lanes at once (`b` holds each lane's operand): each lane's source into
/// `src`; returns the lanes whose source was in range. The mode is chosen once, not per lane.
#[inline]
pub fn source_rows(mode: ShflMode, b: &[u32; 64], clamp: u32, segmask: u32, w: u32, src: &mut [u32; 64]) -> u64 {
    let mut in_range = 0u64;
    macro_rules! each {
        ($($m:ident),*) => {
            match mode {
                $(ShflMode::$m => {
                    for lane in 0..w {
                        let s = source_lane(ShflMode::$m, lane, b[lane as usize], clamp, segmask, w);
                        src[lane as usize] = s.src;
                        in_range |= u64::from(s.in_range) << lane;
                    }
                })*
            }
        };
    }
    each!(Up, Down, Bfly, Idx);
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
    sources: &'a mut [u32; 64],
) -> Exchange<'a> {
    let w = ctx.w as usize;
    let (mut x, mut y, mut r) = ([0u32; 64], [0u32; 64], [0u32; 64]);
    rf.fetch(a, ctx, &mut x);
    rf.fetch(b, ctx, &mut y);
    let in_range = match from {
        None => source_rows(mode, &y, clamp.into(), segmask.into(), ctx.w, sources),
        Some(c) => {
            let mut cs = [0u32; 64];
            rf.fetch(c, ctx, &mut cs);
            source_rows_each(mode, &y, &cs, ctx.w, sources)
        }
    };
    for (v, &s) in r[..w].iter_mut().zip(&sources[..w]) {
        *v = x[s as usize & 63];
    }
    rf.write_row(d, w, exec, &r);
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
