//! The scoreboard: per warp, when each register's pending write completes and which pipe produces it.
//!
//! Hardware tracks outstanding writes per warp and holds an instruction whose sources (read-after-write) or
//! destination (write-after-write) are still pending. The model keeps, per register and predicate, the cycle
//! its value is ready, the pipe that produces it (a consumer in another pipe waits `pipe_switch` cycles more)
//! and how many of those cycles are bank-conflict replays (for the stall breakdown).

use crate::kernel::{DInstr, Pipe};

#[derive(Clone, Copy, Debug)]
struct Pending {
    ready: u64,
    pipe: Pipe,
    /// Cycles of `ready` that are bank-conflict replays.
    conflict: u32,
}

const IDLE: Pending = Pending {
    ready: 0,
    pipe: Pipe::Alu,
    conflict: 0,
};

#[derive(Clone, Debug)]
pub struct Scoreboard {
    regs: Vec<Pending>,
    preds: Vec<Pending>,
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
            regs: vec![IDLE; regs],
            preds: vec![IDLE; preds],
        }
    }

    /// Nothing pending (a new warp reuses this scoreboard).
    pub fn clear(&mut self) {
        self.regs.fill(IDLE);
        self.preds.fill(IDLE);
    }

    /// The first cycle at which `inst` (of pipe `pipe`) may read its operands and write its destination.
    #[inline]
    pub fn ready_at(&self, inst: &DInstr, pipe: Pipe, pipe_switch: u32) -> Ready {
        let mut r = Ready::default();
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
            take(&self.regs[x as usize], true);
        }
        for &x in &inst.pred_reads {
            take(&self.preds[x as usize], true);
        }
        if let Some(d) = inst.write {
            take(&self.regs[d as usize], false);
        }
        if let Some(d) = inst.write2 {
            take(&self.regs[d as usize], false);
        }
        if let Some(p) = inst.pred_write {
            take(&self.preds[p as usize], false);
        }
        r
    }

    /// Mark `inst`'s destinations busy until `done`; `conflict` of those cycles are bank-conflict replays.
    #[inline]
    pub fn reserve(&mut self, inst: &DInstr, pipe: Pipe, done: u64, conflict: u32) {
        let p = Pending {
            ready: done,
            pipe,
            conflict,
        };
        if let Some(d) = inst.write {
            self.regs[d as usize] = p;
        }
        if let Some(d) = inst.write2 {
            self.regs[d as usize] = p;
        }
        if let Some(x) = inst.pred_write {
            self.preds[x as usize] = p;
        }
    }
}
