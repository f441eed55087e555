//! The per-instruction profile (`RunOptions::profile`, `sim run --stats`): where every warp's cycles went,
//! instruction by instruction. Each warp's stall breakdown ([`crate::run::Stalls`]) is accounted at each issue
//! for the cycles since its last one; the profile gives those cycles to an instruction: the cycles spent
//! issuing, waiting for operands, for a producer's bank-conflict replays, for a busy pipe or for the scheduler to
//! the instruction that then issued; the cycles held after a redirecting branch or at a barrier to that branch
//! or barrier (the warp's previous instruction). An operand wait also names the instruction whose result it
//! waited for (the last writer of the operand that decided it). Off unless asked for: the untraced issue path
//! does nothing more than look at one `Option`.

use crate::run::Stalls;
use serde::Serialize;

/// The cycles the warps spent at one instruction, summed over every warp of the run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LineCycles {
    pub pc: u32,
    /// Warp instructions it issued (one cycle each).
    pub issued: u64,
    pub operands: u64,
    pub bank_conflict: u64,
    pub unit_busy: u64,
    /// Held after this branch redirected the warp.
    pub control: u64,
    /// Waiting at this barrier.
    pub barrier: u64,
    pub not_selected: u64,
    /// The instructions whose results its operand waits (with their bank-conflict replays) were for: (pc,
    /// cycles), the most first.
    pub waited_on: Vec<(u32, u64)>,
}

impl LineCycles {
    /// Every cycle attributed to it.
    pub fn total(&self) -> u64 {
        self.issued
            + self.operands
            + self.bank_conflict
            + self.unit_busy
            + self.control
            + self.barrier
            + self.not_selected
    }
}

/// One SM's profile.
pub(crate) struct Profile {
    pub lines: Vec<LineCycles>,
    /// Per warp slot: the pc it issued last (`u32::MAX`: none yet), and the pc that last wrote each register
    /// (then each predicate), plus one (0: none): `width` entries, made when a warp is first placed in the slot
    /// (a compiled kernel has hundreds of registers, and a small launch uses a few of an SM's 64 slots).
    last_pc: Vec<u32>,
    writer: Vec<Vec<u32>>,
    regs: usize,
    width: usize,
    /// Per warp slot: its warp's breakdown when the profile last took its cycles.
    taken: Vec<Stalls>,
}

impl Profile {
    pub fn new(code: usize, slots: usize, regs: usize, preds: usize) -> Profile {
        Profile {
            lines: (0..code)
                .map(|pc| LineCycles {
                    pc: u32::try_from(pc).unwrap_or(u32::MAX),
                    ..LineCycles::default()
                })
                .collect(),
            last_pc: vec![u32::MAX; slots],
            writer: vec![Vec::new(); slots],
            regs,
            width: regs + preds,
            taken: vec![Stalls::default(); slots],
        }
    }

    /// A warp was placed in `slot`, its breakdown so far `stalls`.
    pub fn placed(&mut self, slot: usize, stalls: &Stalls) {
        self.last_pc[slot] = u32::MAX;
        let w = &mut self.writer[slot];
        w.clear();
        w.resize(self.width, 0);
        self.taken[slot] = *stalls;
    }

    /// The warp in `slot` has accounted its cycles up to now (its breakdown `now`), and is about to issue the
    /// instruction at `pc` (`None`: it retires past the end); `deciding` gives the operand its wait was for
    /// (asked only when it waited).
    pub fn attribute(
        &mut self,
        slot: usize,
        now: &Stalls,
        pc: Option<u32>,
        deciding: impl FnOnce() -> Option<(bool, u16)>,
    ) {
        let before = std::mem::replace(&mut self.taken[slot], *now);
        let last = self.last_pc[slot];
        let at = pc.unwrap_or(last);
        if let Some(l) = self.lines.get_mut(last as usize) {
            l.control += now.control - before.control;
            l.barrier += now.barrier - before.barrier;
        }
        let Some(l) = self.lines.get_mut(at as usize) else {
            return;
        };
        l.issued += now.issued - before.issued;
        let waited = (now.operands - before.operands) + (now.bank_conflict - before.bank_conflict);
        l.operands += now.operands - before.operands;
        l.bank_conflict += now.bank_conflict - before.bank_conflict;
        l.unit_busy += now.unit_busy - before.unit_busy;
        l.not_selected += now.not_selected - before.not_selected;
        if waited > 0
            && let Some((pred, x)) = deciding()
        {
            let k = if pred {
                self.regs + usize::from(x)
            } else {
                usize::from(x)
            };
            if let Some(&writer) = self.writer[slot].get(k)
                && let Some(from) = writer.checked_sub(1)
            {
                match l.waited_on.iter_mut().find(|(p, _)| *p == from) {
                    Some(e) => e.1 += waited,
                    None => l.waited_on.push((from, waited)),
                }
            }
        }
    }

    /// The warp in `slot` issued the instruction at `pc`, which writes `writes` (registers) and `pred` (a
    /// predicate).
    pub fn issued(&mut self, slot: usize, pc: u32, writes: [Option<u16>; 2], pred: Option<u16>) {
        self.last_pc[slot] = pc;
        let regs = self.regs;
        let w = &mut self.writer[slot];
        for r in writes.into_iter().flatten() {
            if let Some(x) = w.get_mut(usize::from(r)) {
                *x = pc + 1;
            }
        }
        if let Some(p) = pred
            && let Some(x) = w.get_mut(regs + usize::from(p))
        {
            *x = pc + 1;
        }
    }

    /// Add another SM's profile.
    pub fn merge(lines: &mut Vec<LineCycles>, other: &[LineCycles]) {
        if lines.is_empty() {
            *lines = other.to_vec();
            return;
        }
        for (a, b) in lines.iter_mut().zip(other) {
            a.issued += b.issued;
            a.operands += b.operands;
            a.bank_conflict += b.bank_conflict;
            a.unit_busy += b.unit_busy;
            a.control += b.control;
            a.barrier += b.barrier;
            a.not_selected += b.not_selected;
            for &(p, c) in &b.waited_on {
                match a.waited_on.iter_mut().find(|(q, _)| *q == p) {
                    Some(e) => e.1 += c,
                    None => a.waited_on.push((p, c)),
                }
            }
        }
    }

    /// Order each line's producers, the most cycles first (then by pc).
    pub fn sort(lines: &mut [LineCycles]) {
        for l in lines {
            l.waited_on.sort_by_key(|&(p, c)| (std::cmp::Reverse(c), p));
        }
    }
}
