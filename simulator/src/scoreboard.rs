//! The scoreboard: per warp, when each register's pending write completes and which pipe produces it.
//!
//! Hardware tracks outstanding writes per warp and holds an instruction whose sources (read-after-write) or
//! destination (write-after-write) are still pending. The model keeps, per register and predicate, the cycle
//! its value is ready, the pipe that produces it (a consumer in another pipe waits `pipe_switch` cycles more)
//! and how many of those cycles are bank-conflict replays (for the stall breakdown).
//!
//! An untraced run keeps registers in slots ([`crate::rows::coalesce`] over the program's code: registers whose
//! lifetimes never overlap in any lane share one), each entry tagged with the register whose write it holds, so
//! the run stays as fast with nvcc's hundreds of virtual registers as with a few. The timing is the same as a
//! slot per register: an entry answers only for its own register; a write that replaces another register's
//! entry still in flight (a value never read, or one that another path of a diverged warp still reads) keeps
//! that entry aside until it can no longer delay an instruction.

use crate::kernel::{DInstr, Pipe};

#[derive(Clone, Copy, Debug)]
struct Pending {
    ready: u64,
    /// Cycles of `ready` that are bank-conflict replays.
    conflict: u32,
    /// The register (or predicate) written.
    tag: u16,
    pipe: Pipe,
}

const IDLE: Pending = Pending {
    ready: 0,
    conflict: 0,
    tag: u16::MAX,
    pipe: Pipe::Alu,
};

#[derive(Clone, Debug)]
pub struct Scoreboard {
    /// The registers' entries by slot ([`Scoreboard::ready_at`]'s `slot`), then the predicates' from
    /// `first_pred` on (one allocation per warp).
    regs: Vec<Pending>,
    first_pred: usize,
    /// Entries a write to their slot replaced while they could still delay an instruction.
    aside: Vec<Pending>,
}

/// When an instruction's operands are ready.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ready {
    pub at: u64,
    /// The bank-conflict cycles included in the operand that decides `at`.
    pub conflict: u32,
    /// The pipe-switch cycles included in `at` (they come after the producer's own latency).
    pub switch: u32,
}

impl Scoreboard {
    pub fn new(regs: usize, preds: usize) -> Scoreboard {
        Scoreboard {
            regs: vec![IDLE; regs + preds],
            first_pred: regs,
            aside: Vec::new(),
        }
    }

    /// Nothing pending (a new warp reuses this scoreboard).
    pub fn clear(&mut self) {
        self.regs.fill(IDLE);
        self.aside.clear();
    }

    /// Predicate `x`'s last write.
    #[inline(always)]
    fn pred(&self, x: u16) -> &Pending {
        &self.regs[self.first_pred + x as usize]
    }

    /// Register `x`'s last write (in slot `s`, or set aside), or none.
    #[inline(always)]
    fn of(&self, x: u16, s: u16) -> &Pending {
        let p = &self.regs[s as usize];
        if p.tag == x { p } else { self.set_aside(x) }
    }

    #[cold]
    #[inline(never)]
    fn set_aside(&self, x: u16) -> &Pending {
        self.aside.iter().rev().find(|p| p.tag == x).unwrap_or(&IDLE)
    }

    /// When dead code (`sched::DEAD`) may issue: once the global atomics' old values among its operands and
    /// destinations have arrived.
    #[cold]
    #[inline(never)]
    fn dead_ready(&self, inst: &DInstr, slot: &[u16], writes: bool) -> Ready {
        let mut at = 0;
        let mut take = |p: &Pending| {
            if p.pipe == Pipe::GlobalAtomic {
                at = at.max(p.ready);
            }
        };
        for &x in &inst.reads {
            take(self.of(x, slot[x as usize]));
        }
        if writes {
            for d in [inst.write, inst.write2].into_iter().flatten() {
                take(self.of(d, slot[d as usize]));
            }
        }
        Ready {
            at,
            conflict: 0,
            switch: 0,
        }
    }

    /// The first cycle at which `inst` (of pipe `pipe`) may read its operands and write its destination;
    /// `slot[r]` is register `r`'s slot.
    #[inline]
    pub fn ready_at(&self, inst: &DInstr, pipe: Pipe, pipe_switch: u32, slot: &[u16]) -> Ready {
        self.ready_for(inst, pipe, pipe_switch, slot, true)
    }

    /// The first cycle at which `inst`'s operands (registers and predicates read) are ready, its destination
    /// aside: when a compiler that renames the destination could have issued it.
    pub fn operands_at(&self, inst: &DInstr, pipe: Pipe, pipe_switch: u32, slot: &[u16]) -> u64 {
        self.ready_for(inst, pipe, pipe_switch, slot, false).at
    }

    #[inline(always)]
    fn ready_for(&self, inst: &DInstr, pipe: Pipe, pipe_switch: u32, slot: &[u16], writes: bool) -> Ready {
        let mut r = Ready::default();
        // Dead code the compiler removed waits for nothing (`sched::DEAD`), except a global atomic's old value: it
        // reaches the register only at the commit (`lsu::Return`), so reading that register, or writing it, any
        // sooner would change a value.
        if inst.sched & crate::kernel::sched::DEAD != 0 {
            return self.dead_ready(inst, slot, writes);
        }
        let mut take = |p: &Pending, read: bool| {
            // A register never written (ready 0) is no result in flight: nothing to switch pipes.
            let extra = if read && p.ready > 0 && p.pipe != pipe {
                pipe_switch
            } else {
                0
            };
            let t = p.ready + u64::from(extra);
            if t > r.at {
                r = Ready {
                    at: t,
                    conflict: p.conflict,
                    switch: extra,
                };
            }
        };
        for &x in &inst.reads {
            take(self.of(x, slot[x as usize]), true);
        }
        for &x in &inst.pred_reads {
            take(self.pred(x), true);
        }
        if !writes {
            return r;
        }
        if let Some(d) = inst.write {
            take(self.of(d, slot[d as usize]), false);
        }
        if let Some(d) = inst.write2 {
            take(self.of(d, slot[d as usize]), false);
        }
        if let Some(p) = inst.pred_write {
            take(self.pred(p), false);
        }
        r
    }

    /// The operand that decides [`Scoreboard::ready_at`]'s cycle, if any is still in flight: a register
    /// (`false`, its number) or a predicate (`true`), read or (an earlier write still pending) written. For the
    /// per-instruction profile only (`profile.rs`), off the issue path.
    pub fn deciding(&self, inst: &DInstr, pipe: Pipe, pipe_switch: u32, slot: &[u16]) -> Option<(bool, u16)> {
        let mut best: Option<(u64, bool, u16)> = None;
        let mut take = |p: &Pending, read: bool, pred: bool, x: u16| {
            let extra = if read && p.ready > 0 && p.pipe != pipe {
                pipe_switch
            } else {
                0
            };
            let t = p.ready + u64::from(extra);
            if t > 0 && best.is_none_or(|b| t > b.0) {
                best = Some((t, pred, x));
            }
        };
        for &x in &inst.reads {
            take(self.of(x, slot[x as usize]), true, false, x);
        }
        for &x in &inst.pred_reads {
            take(self.pred(x), true, true, x);
        }
        for d in [inst.write, inst.write2].into_iter().flatten() {
            take(self.of(d, slot[d as usize]), false, false, d);
        }
        if let Some(p) = inst.pred_write {
            take(self.pred(p), false, true, p);
        }
        best.map(|(_, pred, x)| (pred, x))
    }

    /// A write to register `d`, issued at `now`, replaces `old`, another register's write: `old` is kept while it
    /// can still delay an instruction (the next issue of this warp is after `now`; a reader in another pipe waits
    /// `pipe_switch` cycles more).
    #[cold]
    #[inline(never)]
    fn put_aside(&mut self, old: Pending, d: u16, now: u64, pipe_switch: u32) {
        let keep = |x: &Pending| x.ready + u64::from(pipe_switch) > now;
        if !self.aside.is_empty() || keep(&old) {
            self.aside.retain(|x| x.tag != old.tag && x.tag != d && keep(x));
            if keep(&old) {
                self.aside.push(old);
            }
        }
    }

    /// Mark `inst`'s destinations busy until `done` (it issues at `now`); `conflict` of those cycles are
    /// bank-conflict replays.
    #[inline(always)]
    pub fn reserve(
        &mut self,
        inst: &DInstr,
        (pipe, pipe_switch): (Pipe, u32),
        (now, done): (u64, u64),
        conflict: u32,
        slot: &[u16],
    ) {
        let p = |tag: u16| Pending {
            ready: done,
            conflict,
            tag,
            pipe,
        };
        for d in [inst.write, inst.write2].into_iter().flatten() {
            let s = slot[d as usize] as usize;
            let old = self.regs[s];
            if old.tag != d && old.tag != IDLE.tag {
                self.put_aside(old, d, now, pipe_switch);
            }
            self.regs[s] = p(d);
        }
        if let Some(x) = inst.pred_write {
            self.regs[self.first_pred + x as usize] = p(x);
        }
    }
}
