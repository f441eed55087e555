//! The sanitizers as observers of what an instruction did: they read the operands it is about to read and the
//! [`Outcome`] of its execution, keep their own shadow state, and report [`Finding`]s. They never change a value,
//! a cycle or a statistic (tests/sanitizers.rs asserts it for every shipped program under every schedule).
//!
//! - `--check init` ([`operands`], [`observe`]): a register or predicate read in a lane that never wrote it, a
//!   shuffle's source lane that never wrote the shuffled register, a shared word read before any thread wrote it;
//! - `--check race` ([`observe`] through [`check::access`]): accesses to one shared or global word by threads that
//!   no barrier, reconvergence or `bar.warp.sync` ordered;
//! - `--check shfl` ([`observe`]): a shuffle read that is undefined on hardware;
//! - `--check sync` ([`member_mask`]): a warp-synchronous instruction's member mask that PTX leaves undefined or
//!   that names lanes not executing it;
//! - without `--check race`, the missing-barrier hint ([`missing_barrier_hint`]): the first shared load of a word
//!   another warp wrote since the block's last barrier.
//!
//! The rules themselves (shadow memory, vector clocks, the findings' texts) live in [`crate::check`].

use crate::check::{
    self, BlockCheck, Checks, Finding, FindingKind, Findings, GlobalAccess, MaskReason, ShuffleReason, Space,
    UnorderedRead, WarpSync,
};
use crate::execute::{MemoryAccess, Outcome};
use crate::kernel::{DInstr, DOp, Kernel, Src};
use crate::lsu::{stamp_words, unordered_lane, writer_stamp};
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};

/// A warp's sanitizer state: its lanes' synchronisations (race), and per register and predicate the lanes that
/// wrote it (init). Empty unless those checks run.
#[derive(Default)]
pub(crate) struct WarpShadow {
    pub sync: WarpSync,
    pub init_regs: Vec<u64>,
    pub init_preds: Vec<u64>,
}

impl WarpShadow {
    /// For a warp that is placed (the storage is reused).
    pub fn reset(&mut self, checks: Checks, nregs: usize, npreds: usize) {
        if checks.race {
            self.sync.reset();
        }
        if checks.init {
            self.init_regs.clear();
            self.init_regs.resize(nregs, 0);
            self.init_preds.clear();
            self.init_preds.resize(npreds, 0);
        }
    }
}

/// Where an instruction runs: the SM, the pc, and the warp's active and executing lanes (the block, the warp and
/// the cycle are the [`LaneCtx`]'s).
pub(crate) struct Site {
    pub sm: u32,
    pub pc: u32,
    pub active: u64,
    pub exec: u64,
}

/// What the sanitizers keep per SM and read from the run.
pub(crate) struct SmChecks<'a> {
    pub checks: Checks,
    pub kernel: &'a Kernel,
    pub findings: &'a mut Findings,
    /// With `--check race`: the SM's global accesses of this epoch, for the check between blocks at the commit.
    pub global_log: &'a mut Vec<GlobalAccess>,
    /// The global buffers the race check follows (those the kernel writes).
    pub race_global: &'a [bool],
}

/// `--check init` at operand read: the registers and predicates `inst` reads in lanes that never wrote them (the
/// guard in the active lanes, the rest in the executing ones; a shuffle's shuffled register is checked in its
/// source lanes, by [`observe`], and `selp` reads only the operand it selects). Runs before the instruction
/// executes, so that a faulting instruction's unwritten operands are reported with the fault.
#[inline(never)]
pub(crate) fn operands(
    c: &mut SmChecks<'_>,
    at: &Site,
    inst: &DInstr,
    warp: &WarpShadow,
    rf: &RegisterFile,
    ctx: &LaneCtx,
) {
    let guard = inst.guard.map(|(p, _)| p);
    for &p in &inst.pred_reads {
        let need = if Some(p) == guard { at.active } else { at.exec };
        let unwritten = need & !warp.init_preds[p as usize];
        if unwritten != 0 {
            uninit(c, at, ctx, Unwritten::Predicate(p), unwritten);
        }
    }
    let reg = |s: Src| if let Src::Reg(r) = s { Some(r) } else { None };
    let exec = at.exec;
    let (skip, selp) = match inst.op {
        DOp::Shfl { a, b, .. } if reg(a) != reg(b) => (reg(a), None),
        DOp::Selp { a, b, p, .. } => {
            let pv = rf.preds[p as usize];
            (None, Some((reg(a), exec & pv, reg(b), exec & !pv)))
        }
        _ => (None, None),
    };
    let mut check = |r: u16, need: u64| {
        let unwritten = need & !warp.init_regs[r as usize];
        if unwritten != 0 {
            uninit(c, at, ctx, Unwritten::Register(r), unwritten);
        }
    };
    match selp {
        Some((a, lanes_a, b, lanes_b)) => {
            if let Some(a) = a {
                check(a, lanes_a);
            }
            if let Some(b) = b {
                check(b, lanes_b);
            }
        }
        None => {
            for &r in inst.reads.iter().filter(|&&r| Some(r) != skip) {
                check(r, exec);
            }
        }
    }
}

/// The sanitizers observe an executed instruction: its memory access (race and init shadows), its exchange
/// (undefined reads; init in the source lanes), its warp synchronisation (race); then, for init, the registers
/// and predicates it wrote count as written in the executing lanes.
// (Out of line: inlined, it made the issue loop slower with the checks off.)
#[inline(never)]
pub(crate) fn observe(
    c: &mut SmChecks<'_>,
    at: &Site,
    inst: &DInstr,
    outcome: &Outcome,
    warp: &mut WarpShadow,
    block: &mut BlockCheck,
    ctx: &LaneCtx,
) {
    let (checks, exec) = (c.checks, at.exec);
    match outcome {
        // (Local memory is the thread's own: no other thread can race on it.)
        Outcome::Access(m) if (checks.race || checks.init) && !m.addr.local => {
            let who = check::Who {
                sm: at.sm,
                block: ctx.block,
                warp: ctx.warp_in_block,
                pc: at.pc,
                cycle: ctx.cycle,
                active: at.active,
                sync: &warp.sync,
            };
            let space = if m.addr.shared {
                Space::Shared
            } else {
                Space::Global(m.addr.buffer)
            };
            check::access(
                checks,
                block,
                c.kernel,
                &who,
                m.words,
                exec,
                m.kind,
                space,
                m.addr.narrow.zip(m.bytes).map(|(n, at)| (n.bytes, at)),
                c.findings,
                c.global_log,
                c.race_global,
            );
        }
        Outcome::Exchange(x) => {
            let DOp::Shfl { a, .. } = inst.op else {
                unreachable!("an exchange comes from a shuffle")
            };
            if checks.shfl && x.undefined != 0 {
                let lane = x.undefined.trailing_zeros();
                let source = x.sources[lane as usize] & 63;
                let reason = if x.member >> lane & 1 == 0 {
                    ShuffleReason::ReaderNotMember
                } else if exec >> source & 1 == 0 {
                    ShuffleReason::SourceInactive
                } else {
                    ShuffleReason::SourceNotMember
                };
                c.findings.add(Finding {
                    kind: FindingKind::UndefinedShuffle {
                        lanes: x.undefined,
                        lane,
                        source,
                        reason,
                    },
                    cycle: ctx.cycle,
                    sm: at.sm,
                    block: ctx.block,
                    warp: ctx.warp_in_block,
                    lane: Some(lane),
                    pc: at.pc,
                    count: u64::from(x.undefined.count_ones()),
                });
            }
            if checks.init
                && let Src::Reg(r) = a
            {
                // The shuffled register is read in the source lanes.
                let written = warp.init_regs[r as usize];
                let mut unwritten = 0u64;
                for_lanes(exec, |lane| {
                    let from = x.sources[lane as usize] & 63;
                    if from < ctx.w && written >> from & 1 == 0 {
                        unwritten |= 1 << lane;
                    }
                });
                if unwritten != 0 {
                    uninit(c, at, ctx, Unwritten::Register(r), unwritten);
                }
            }
        }
        Outcome::WarpSync { lanes } if checks.race => warp.sync.sync(*lanes),
        _ => {}
    }
    if checks.init {
        for d in inst.write.into_iter().chain(inst.write2) {
            warp.init_regs[d as usize] |= exec;
        }
        if let Some(p) = inst.pred_write {
            warp.init_preds[p as usize] |= exec;
        }
    }
}

/// `--check sync` at operand read (before the instruction runs, which may overwrite a mask register): the member
/// mask of a warp-synchronous instruction. PTX (`shfl.sync`, `vote.sync`, `match.sync`, `bar.warp.sync`): "the
/// behavior is undefined if the executing thread is not in the membermask", and every thread waits until all
/// non-exited threads of the mask "have executed [the instruction] with the same qualifiers and same membermask
/// value". Reported: executing lanes outside the mask they name; lanes naming another mask than the first
/// executing lane; and (not for `bar.warp.sync`, which faults then) lanes named that have not exited but do not
/// execute it (`live`: the warp's lanes that have not exited).
#[inline(never)]
pub(crate) fn member_mask(c: &mut SmChecks<'_>, at: &Site, inst: &DInstr, rf: &RegisterFile, live: u64, ctx: &LaneCtx) {
    let (member, warp_sync) = match inst.op {
        DOp::Shfl { member, .. } => (member, false),
        DOp::Vote { mask, .. } | DOp::Match { mask, .. } | DOp::Redux { mask, .. } => (mask, false),
        DOp::BarWarp { mask } => (mask, true),
        _ => return,
    };
    let exec = at.exec;
    if exec == 0 {
        return;
    }
    let first = exec.trailing_zeros();
    let first_mask = member.of_lane(rf, first, ctx);
    let (mut outside, mut differ, mut named) = (0u64, 0u64, 0u64);
    let mut other = None;
    for_lanes(exec, |lane| {
        let m = member.of_lane(rf, lane, ctx);
        named |= m;
        if m >> lane & 1 == 0 {
            outside |= 1 << lane;
        }
        if m != first_mask {
            differ |= 1 << lane;
            other.get_or_insert((lane, m));
        }
    });
    let mut report = |lanes: u64, lane: u32, reason: MaskReason| {
        c.findings.add(Finding {
            kind: FindingKind::MemberMask { lanes, lane, reason },
            cycle: ctx.cycle,
            sm: at.sm,
            block: ctx.block,
            warp: ctx.warp_in_block,
            lane: Some(lane),
            pc: at.pc,
            count: u64::from(lanes.count_ones()),
        });
    };
    if outside != 0 {
        report(outside, outside.trailing_zeros(), MaskReason::NotMember);
    }
    if let Some((lane, mask)) = other {
        report(
            differ,
            lane,
            MaskReason::Differ {
                first,
                first_mask,
                mask,
            },
        );
    }
    let absent = named & live & !exec;
    if absent != 0 && !warp_sync {
        report(absent, absent.trailing_zeros(), MaskReason::Absent);
    }
}

/// A register or a predicate that lanes read before writing it.
#[derive(Clone, Copy)]
enum Unwritten {
    Register(u16),
    Predicate(u16),
}

/// Record an uninitialised read of `what` by `lanes`.
fn uninit(c: &mut SmChecks<'_>, at: &Site, ctx: &LaneCtx, what: Unwritten, lanes: u64) {
    let program = &c.kernel.program;
    let kind = match what {
        Unwritten::Register(r) => FindingKind::UninitRegister {
            reg: program.regs[r as usize].name.clone(),
            lanes,
        },
        Unwritten::Predicate(p) => FindingKind::UninitPredicate {
            pred: program.preds[p as usize].name.clone(),
            lanes,
        },
    };
    c.findings.add(Finding {
        kind,
        cycle: ctx.cycle,
        sm: at.sm,
        block: ctx.block,
        warp: ctx.warp_in_block,
        lane: Some(lanes.trailing_zeros()),
        pc: at.pc,
        count: u64::from(lanes.count_ones()),
    });
}

/// The missing-barrier hint, while `--check race` is off: each shared word's last writer (warp, pc) is stamped
/// with the block's barrier generation (`writers`); a shared store or atomic stamps its words, and a shared load
/// of a word another warp wrote in the current `generation` is returned: the SM keeps the first and stops looking.
#[inline(always)]
pub(crate) fn missing_barrier_hint(
    kernel: &Kernel,
    writers: &mut [u64],
    generation: u32,
    at: &Site,
    m: &MemoryAccess,
    ctx: &LaneCtx,
) -> Option<UnorderedRead> {
    if !m.addr.shared {
        return None;
    }
    if m.kind != check::AccessKind::Read {
        stamp_words(
            writers,
            writer_stamp(generation, at.pc, ctx.warp_in_block),
            m.words,
            at.exec,
        );
        return None;
    }
    let (lane, writer_warp, writer_pc) = unordered_lane(writers, generation, ctx.warp_in_block, m.words, at.exec)?;
    Some(UnorderedRead::new(
        kernel,
        (ctx.cycle, at.sm, ctx.block),
        (ctx.warp_in_block, lane, at.pc),
        (writer_warp, writer_pc),
        m.words[lane as usize],
    ))
}
