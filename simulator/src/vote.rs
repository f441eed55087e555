//! The vote and match unit: warp-wide `vote.sync` (all, any, uni, ballot), `activemask`, `match.sync`
//! (any, all) and `redux.sync` (add, min, max, and, or, xor).
//!
//! On hardware these instructions combine a value from every lane named in the member mask and give each
//! executing lane the result in one pass, like a reduction over the warp's lanes. The model computes over the
//! executing lanes that are also members (`exec & mask`); lanes outside the mask take part in nothing.

use crate::kernel::Src;
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use warpsim_isa::{ReduxOp, VoteMode};

/// `vote.sync.MODE d, {!}p, mask`: a predicate (all, any, uni) or a lane mask in a register (ballot).
#[inline]
pub(crate) fn vote(rf: &mut RegisterFile, mode: VoteMode, d: u16, (p, neg): (u16, bool), mask: u64, exec: u64) {
    let v = if neg {
        !rf.preds[p as usize]
    } else {
        rf.preds[p as usize]
    };
    let members = exec & mask;
    let set = v & members;
    match decide(mode, set, members) {
        Some(result) => rf.preds[d as usize] = (rf.preds[d as usize] & !exec) | if result { exec } else { 0 },
        None => {
            #[allow(
                clippy::cast_possible_truncation,
                reason = "32-bit lane masks: lanes 32-63 of a 64-lane warp are not representable (as PTX's .b32)"
            )]
            for_lanes(exec, |lane| {
                rf.regs[d as usize * rf.stride + lane as usize] = set as u32;
            });
        }
    }
}

/// A vote's predicate result over the `members` whose predicate is in `set` (all, any, uni); `None` for a
/// ballot (its result is `set` itself).
#[inline]
pub(crate) fn decide(mode: VoteMode, set: u64, members: u64) -> Option<bool> {
    match mode {
        VoteMode::All => Some(set & members == members),
        VoteMode::Any => Some(set & members != 0),
        VoteMode::Uni => Some(set & members == members || set & members == 0),
        VoteMode::Ballot => None,
    }
}

/// `activemask.b32 d`: the executing lanes as a mask, in every executing lane.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "32-bit lane masks: lanes 32-63 of a 64-lane warp are not representable (as PTX's .b32)"
)]
pub(crate) fn activemask(rf: &mut RegisterFile, d: u16, exec: u64) {
    for_lanes(exec, |lane| {
        rf.regs[d as usize * rf.stride + lane as usize] = exec as u32;
    });
}

/// `match.{any,all}.sync.b32 d{|p}, a, mask`: for `any`, the members holding the lane's value; for `all`, the
/// members if every member holds the same value (and `p` says whether they do), else 0.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn match_sync(
    rf: &mut RegisterFile,
    ctx: &LaneCtx,
    all: bool,
    d: u16,
    p: Option<u16>,
    a: Src,
    mask: u64,
    exec: u64,
) {
    let members = exec & mask;
    let mut values = [0u32; 64];
    for_lanes(members, |lane| values[lane as usize] = rf.read(a, lane, ctx));
    let mut results = [0u32; 64];
    let same_everywhere = matches(all, &values, members, exec, &mut results);
    for_lanes(exec, |lane| {
        rf.regs[d as usize * rf.stride + lane as usize] = results[lane as usize];
    });
    if let Some(p) = p {
        rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | if same_everywhere { members } else { 0 };
    }
}

/// `match.{any,all}` over the `members`' `values`: each `exec` lane's result into `results` (for `any`, the
/// members holding its value; for `all`, the members if every member holds the same value, else 0; lanes
/// outside the mask take part in nothing and get 0). Returns whether every member holds the same value.
pub(crate) fn matches(all: bool, values: &[u32; 64], members: u64, exec: u64, results: &mut [u32; 64]) -> bool {
    let first = members.trailing_zeros().min(63);
    let mut same_everywhere = true;
    for_lanes(members, |lane| {
        same_everywhere &= values[lane as usize] == values[first as usize];
    });
    for_lanes(exec, |lane| {
        let r = if members >> lane & 1 == 0 {
            0
        } else if all {
            if same_everywhere { members } else { 0 }
        } else {
            let mut bits = 0u64;
            for_lanes(members, |other| {
                if values[other as usize] == values[lane as usize] {
                    bits |= 1 << other;
                }
            });
            bits
        };
        #[allow(
            clippy::cast_possible_truncation,
            reason = "32-bit lane masks: lanes 32-63 of a 64-lane warp are not representable (as PTX's .b32)"
        )]
        let r = r as u32;
        results[lane as usize] = r;
    });
    same_everywhere
}

/// `redux.sync.OP d, a, mask`: every executing member gets `OP` over the members' `a` (lanes outside the mask
/// take part in nothing and get 0, as for `match`).
#[inline]
pub(crate) fn redux_sync(
    rf: &mut RegisterFile,
    ctx: &LaneCtx,
    op: (ReduxOp, bool),
    d: u16,
    a: Src,
    mask: u64,
    exec: u64,
) {
    let members = exec & mask;
    let mut values = [0u32; 64];
    for_lanes(members, |lane| values[lane as usize] = rf.read(a, lane, ctx));
    let result = reduce(op, &values, members);
    for_lanes(exec, |lane| {
        rf.regs[d as usize * rf.stride + lane as usize] = if members >> lane & 1 == 1 { result } else { 0 };
    });
}

/// `OP` over the `members`' `values` (`.s32` `min`/`max` when signed; `add` wraps): PTX's `redux.sync`.
pub(crate) fn reduce((op, signed): (ReduxOp, bool), values: &[u32; 64], members: u64) -> u32 {
    let mut acc: Option<u32> = None;
    for_lanes(members, |lane| {
        let v = values[lane as usize];
        acc = Some(match acc {
            None => v,
            Some(x) => match op {
                ReduxOp::Add => x.wrapping_add(v),
                ReduxOp::Min if signed => x.cast_signed().min(v.cast_signed()).cast_unsigned(),
                ReduxOp::Max if signed => x.cast_signed().max(v.cast_signed()).cast_unsigned(),
                ReduxOp::Min => x.min(v),
                ReduxOp::Max => x.max(v),
                ReduxOp::And => x & v,
                ReduxOp::Or => x | v,
                ReduxOp::Xor => x ^ v,
            },
        });
    });
    acc.unwrap_or(0)
}
