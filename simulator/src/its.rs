//! Independent thread scheduling (`--scheduling its`): how the diverged paths of a warp meet at
//! warp-synchronous instructions.
//!
//! PTX (sm_70+) says of `shfl.sync`, `vote.sync`, `match.sync` and `bar.warp.sync`: each thread "waits until all
//! non-exited threads corresponding to membermask have executed [the instruction] with the same qualifiers and
//! same membermask value before resuming execution". Nothing requires the same instruction: on a Volta or later
//! GPU, `if (lane < 16) v = __shfl_sync(~0u, x, 0); else v = __shfl_sync(~0u, y, 0);` exchanges between the two
//! paths. [`rendezvous`] decides, when a path reaches such an instruction, whether it waits, executes together
//! with paths waiting at the same pc (one instruction over their union, as in lockstep), or completes an
//! exchange with paths waiting at other instructions: then the exchange is computed at once for every lane
//! (each lane's operands from its own instruction) into the warp's [`Mail`], and each path takes its lanes'
//! results when it next issues ([`deliver`]), with its own instruction, registers and trace event.

use crate::execute::Outcome;
use crate::fault::FaultKind;
use crate::kernel::{DInstr, DOp, Member};
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use crate::shuffle::{self, Exchange};
use crate::simt_stack::SimtStack;
use crate::trace::EpochTrace;
use crate::vote;
use crate::warp::Warp;
use smallvec::SmallVec;
use std::cell::Cell;

/// Whether `inst` is warp-synchronous (`shfl.sync`, `vote.sync`, `match.sync`, `bar.warp.sync`).
#[inline(always)]
pub(crate) fn is_warp_sync(inst: &DInstr) -> bool {
    matches!(
        inst.op,
        DOp::Shfl { .. } | DOp::Vote { .. } | DOp::Match { .. } | DOp::Redux { .. } | DOp::BarWarp { .. }
    )
}

/// What a path at a warp-synchronous instruction does under independent thread scheduling.
pub(crate) enum Rendezvous {
    /// Execute it, together with the `joined` lanes (paths waiting at the same instruction). After an exchange
    /// across instructions the results wait in the stack's [`Mail`], and the execute stage delivers them.
    /// `across`: this completes a meeting of diverged paths (which the GPU pays for: `warp_sync_diverged`).
    Go {
        joined: u64,
        across: bool,
    },
    /// Wait for lanes of its mask still on their way (another path issues meanwhile).
    Wait,
    Fault(FaultKind),
}

/// The results of an exchange between lanes at different warp-synchronous instructions, per lane, until each
/// path takes its own ([`deliver`]).
#[derive(Clone, Debug)]
pub struct Mail {
    /// Lanes whose results have not been taken yet (taken by the execute stage, which sees the stack read-only;
    /// the next rendezvous drops a mail no lane waits for).
    pub lanes: Cell<u64>,
    /// Per lane: the value written to the instruction's register (a shuffle's value, a ballot, a match mask).
    pub values: [u32; 64],
    /// Per lane: the predicate written (a shuffle's in-range output, a vote's result, `match.all`'s `p`).
    pub preds: u64,
    /// A shuffle's source lane for every lane, the lanes whose source was in range, and the executing lanes
    /// whose read was undefined.
    pub sources: [u32; 64],
    pub in_range: u64,
    pub undefined: u64,
    /// The member mask the lanes named.
    pub member: u64,
}

/// ITS: the path on top of `stack` (its lanes `active`, of which `exec` execute) is at the warp-synchronous
/// instruction `inst` at `pc`. The paths of the lanes its mask names that are on other paths must be waiting at
/// a warp-synchronous instruction: at this same pc they execute it together with this path (each lane its own
/// operands: one instruction over their union); at other pcs, `bar.warp.sync`s release each other (no values
/// move) and exchanges are computed across the instructions ([`exchange`]). Otherwise the path waits; if no path
/// of the warp can run any more, it is a deadlock.
#[inline(never)]
#[cold]
pub(crate) fn rendezvous(
    code: &[DInstr],
    stack: &mut SimtStack,
    rf: &RegisterFile,
    inst: &DInstr,
    pc: u32,
    (active, exec): (u64, u64),
    ctx: &LaneCtx,
) -> Rendezvous {
    let (member, bar_warp) = match inst.op {
        DOp::Shfl { member, .. } => (member, false),
        DOp::Vote { mask, .. } | DOp::Match { mask, .. } | DOp::Redux { mask, .. } => (mask, false),
        DOp::BarWarp { mask } => (mask, true),
        _ => {
            return Rendezvous::Go {
                joined: 0,
                across: false,
            };
        }
    };
    if stack.mail.as_ref().is_some_and(|m| m.lanes.get() == 0) {
        stack.mail = None;
    }
    if exec & !stack.released == 0 {
        // Released by the rendezvous another path completed: the lanes it waited for have arrived.
        stack.released &= !exec;
        stack.synced = u64::MAX;
        return Rendezvous::Go {
            joined: 0,
            across: false,
        };
    }
    if stack.live() & !active == 0 {
        // One path holds every live lane (the common case): no other path to meet.
        return Rendezvous::Go {
            joined: 0,
            across: false,
        };
    }
    let named = member.lanes(rf, ctx, exec);
    let others = named & stack.live() & !active;
    if others == 0 {
        return Rendezvous::Go {
            joined: 0,
            across: false,
        };
    }
    if others & !stack.waiting == 0 {
        let paths: SmallVec<[(u32, u64); 8]> = stack
            .paths()
            .filter(|p| p.mask & others != 0)
            .map(|p| (p.pc, p.mask))
            .collect();
        let lanes = paths.iter().fold(0, |m, p| m | p.1);
        if paths.iter().all(|&(p, _)| p == pc) {
            stack.waiting &= !lanes;
            stack.advance_paths(lanes, pc + 1);
            return Rendezvous::Go {
                joined: lanes,
                across: true,
            };
        }
        if bar_warp {
            if let Some(&(other_pc, l)) = paths
                .iter()
                .find(|&&(p, _)| !matches!(code[p as usize].op, DOp::BarWarp { .. }))
            {
                return Rendezvous::Fault(FaultKind::WarpSyncAcrossPaths { other_pc, lanes: l });
            }
            stack.waiting &= !lanes;
            stack.released |= lanes;
            stack.synced = lanes;
            return Rendezvous::Go {
                joined: 0,
                across: true,
            };
        }
        return match exchange(code, rf, ctx, (inst, exec, named), &paths) {
            Ok((mail, released)) => {
                stack.waiting &= !lanes;
                stack.released |= released;
                stack.mail = Some(Box::new(mail));
                Rendezvous::Go {
                    joined: 0,
                    across: true,
                }
            }
            Err(kind) => Rendezvous::Fault(kind),
        };
    }
    stack.waiting |= active;
    if stack.paths().any(|p| p.mask & !stack.waiting != 0) {
        return Rendezvous::Wait;
    }
    let paths = stack.paths().map(|p| (p.pc, p.mask)).collect();
    Rendezvous::Fault(FaultKind::WarpSyncDeadlock {
        paths,
        missing: others & !stack.waiting,
    })
}

/// The lanes of `mask` (a path's) that execute `inst`: its guard, in the registers as they are now.
fn guarded(inst: &DInstr, rf: &RegisterFile, mask: u64) -> u64 {
    match inst.guard {
        None => mask,
        Some((p, neg)) => {
            let v = rf.preds[p as usize];
            mask & if neg { !v } else { v }
        }
    }
}

/// The member mask operand of a warp-synchronous instruction.
fn member_of(op: DOp) -> Option<Member> {
    match op {
        DOp::Shfl { member, .. } => Some(member),
        DOp::Vote { mask, .. } | DOp::Match { mask, .. } | DOp::Redux { mask, .. } | DOp::BarWarp { mask } => {
            Some(mask)
        }
        _ => None,
    }
}

/// Whether two warp-synchronous instructions are the same operation with the same qualifiers (registers and
/// operands may differ: each lane brings its own).
fn same_operation(a: DOp, b: DOp) -> bool {
    match (a, b) {
        (DOp::Shfl { mode: x, p: p1, .. }, DOp::Shfl { mode: y, p: p2, .. }) => x == y && p1.is_some() == p2.is_some(),
        (DOp::Vote { mode: x, .. }, DOp::Vote { mode: y, .. }) => x == y,
        (DOp::Match { all: x, .. }, DOp::Match { all: y, .. }) => x == y,
        (DOp::Redux { op: x, signed: s, .. }, DOp::Redux { op: y, signed: t, .. }) => x == y && s == t,
        _ => false,
    }
}

/// The exchange of the lanes `exec` at `inst` (naming `named`) with the waiting `paths` (pc, lanes) at other
/// instructions: every path's instruction must be the same operation with the same qualifiers, and every lane
/// must name the same member mask (PTX pairs nothing else). Returns the results and the lanes of the other
/// paths that take them.
fn exchange(
    code: &[DInstr],
    rf: &RegisterFile,
    ctx: &LaneCtx,
    (inst, exec, named): (&DInstr, u64, u64),
    paths: &[(u32, u64)],
) -> Result<(Mail, u64), FaultKind> {
    // Each lane's instruction: this one unless the lane is on one of `paths`.
    let mut parts: SmallVec<[(&DInstr, u64); 8]> = SmallVec::new();
    parts.push((inst, exec));
    for &(pc, lanes) in paths {
        let other = &code[pc as usize];
        let theirs = guarded(other, rf, lanes);
        let mask = member_of(other.op).map_or(0, |m| m.lanes(rf, ctx, theirs));
        if !same_operation(inst.op, other.op) || (theirs != 0 && mask != named) {
            return Err(FaultKind::WarpSyncAcrossPaths { other_pc: pc, lanes });
        }
        parts.push((other, theirs));
    }
    let union = parts.iter().fold(0, |m, p| m | p.1);
    let released = union & !exec;
    let of = |lane: u32| parts.iter().find(|p| p.1 >> lane & 1 == 1).map_or(inst, |p| p.0);
    let w = ctx.w;
    let mut mail = Mail {
        lanes: Cell::new(union),
        values: [0; 64],
        preds: 0,
        sources: [0; 64],
        in_range: 0,
        undefined: 0,
        member: named,
    };
    match inst.op {
        DOp::Shfl { .. } => {
            // Every lane's value and source, each from its own instruction (lanes that execute none read
            // this one's registers: their values are undefined reads, as in any shuffle).
            let mut x = [0u32; 64];
            for lane in 0..w {
                let DOp::Shfl {
                    mode,
                    a,
                    b,
                    clamp,
                    segmask,
                    from,
                    ..
                } = of(lane).op
                else {
                    unreachable!("every part is a shuffle (same_operation)")
                };
                x[lane as usize] = rf.read(a, lane, ctx);
                let (clamp, segmask) = match from {
                    None => (clamp.into(), segmask.into()),
                    Some(c) => shuffle::unpack_c(rf.read(c, lane, ctx), w),
                };
                let s = shuffle::source_lane(mode, lane, rf.read(b, lane, ctx), clamp, segmask, w);
                mail.sources[lane as usize] = s.src;
                mail.in_range |= u64::from(s.in_range) << lane;
            }
            for_lanes(union, |lane| {
                let src = mail.sources[lane as usize];
                mail.values[lane as usize] = x[src as usize & 63];
                if shuffle::read_is_undefined(lane, src, named, union) {
                    mail.undefined |= 1 << lane;
                }
            });
            mail.preds = mail.in_range & union;
        }
        DOp::Vote { mode, .. } => {
            let mut set = 0u64;
            for_lanes(union, |lane| {
                let DOp::Vote { a: (p, neg), .. } = of(lane).op else {
                    unreachable!("every part is a vote (same_operation)")
                };
                set |= u64::from((rf.preds[p as usize] >> lane & 1 == 1) != neg) << lane;
            });
            match vote::decide(mode, set, union & named) {
                Some(result) => mail.preds = if result { union } else { 0 },
                None => {
                    #[allow(
                        clippy::cast_possible_truncation,
                        reason = "32-bit lane masks: lanes 32-63 of a 64-lane warp are not representable (as PTX's .b32)"
                    )]
                    let ballot = (set & union & named) as u32;
                    for_lanes(union, |lane| mail.values[lane as usize] = ballot);
                }
            }
        }
        DOp::Match { all, .. } => {
            let mut values = [0u32; 64];
            for_lanes(union, |lane| {
                let DOp::Match { a, .. } = of(lane).op else {
                    unreachable!("every part is a match (same_operation)")
                };
                values[lane as usize] = rf.read(a, lane, ctx);
            });
            let same = vote::matches(all, &values, union & named, union, &mut mail.values);
            mail.preds = if same { union & named } else { 0 };
        }
        DOp::Redux { op, signed, .. } => {
            let mut values = [0u32; 64];
            for_lanes(union, |lane| {
                let DOp::Redux { a, .. } = of(lane).op else {
                    unreachable!("every part is a reduction (same_operation)")
                };
                values[lane as usize] = rf.read(a, lane, ctx);
            });
            let members = union & named;
            let result = vote::reduce((op, signed), &values, members);
            for_lanes(union, |lane| {
                mail.values[lane as usize] = if members >> lane & 1 == 1 { result } else { 0 };
            });
        }
        _ => unreachable!("bar.warp.sync moves no values"),
    }
    Ok((mail, released))
}

/// Whether the `exec` lanes take their results from the mail of an exchange across instructions.
#[inline(always)]
pub(crate) fn mailed(stack: &SimtStack, exec: u64) -> bool {
    stack.mail.as_ref().is_some_and(|m| m.lanes.get() & exec != 0)
}

/// The path executing `inst` takes its `exec` lanes' results from the stack's mail ([`mailed`]): the registers
/// and predicates the instruction writes, and the outcome the rest of the SM observes.
#[inline(never)]
#[cold]
pub(crate) fn deliver<'a>(
    inst: &DInstr,
    rf: &mut RegisterFile,
    stack: &SimtStack,
    sources: &'a mut [u32; 64],
    exec: u64,
) -> Outcome<'a> {
    let Some(mail) = stack.mail.as_deref() else {
        unreachable!("delivered only with mail (`mailed`)")
    };
    mail.lanes.set(mail.lanes.get() & !exec);
    let values = |rf: &mut RegisterFile, d: u16| {
        for_lanes(exec, |lane| {
            rf.regs[d as usize * rf.stride + lane as usize] = mail.values[lane as usize];
        });
    };
    let preds = |rf: &mut RegisterFile, p: u16| {
        rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | (mail.preds & exec);
    };
    match inst.op {
        DOp::Shfl { d, p, .. } => {
            values(rf, d);
            if let Some(p) = p {
                preds(rf, p);
            }
            *sources = mail.sources;
            Outcome::Exchange(Exchange {
                sources,
                in_range: mail.in_range,
                undefined: mail.undefined & exec,
                member: mail.member,
            })
        }
        DOp::Vote { mode, d, .. } => {
            if mode == warpsim_isa::VoteMode::Ballot {
                values(rf, d);
            } else {
                preds(rf, d);
            }
            Outcome::Lanes
        }
        DOp::Match { d, p, .. } => {
            values(rf, d);
            if let Some(p) = p {
                preds(rf, p);
            }
            Outcome::Lanes
        }
        DOp::Redux { d, .. } => {
            values(rf, d);
            Outcome::Lanes
        }
        _ => unreachable!("mail holds only exchanges"),
    }
}

/// ITS: the next path of `warp` goes to the top of its stack (paths at their reconvergence pc arrive there,
/// and a merge they complete is reported as lockstep's are). Out of line: lockstep never calls it.
#[inline(never)]
pub(crate) fn next_path<const ON: bool>(warp: &mut Warp, n: u32, race: bool, cycle: u64, trace: &mut EpochTrace<ON>) {
    let merge = warp.stack.next_path(n);
    crate::sm::reconverged(warp, merge, race, cycle, trace);
}
