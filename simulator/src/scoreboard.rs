//! The scoreboard: per warp, the cycle at which each register's pending write completes.
//!
//! Hardware tracks outstanding writes per warp and holds an instruction whose sources (read-after-write) or
//! destination (write-after-write) are still pending. The model keeps a ready cycle per register and predicate.

use crate::kernel::DInstr;

#[derive(Clone, Debug)]
pub struct Scoreboard {
    reg_ready: Vec<u64>,
    pred_ready: Vec<u64>,
}

impl Scoreboard {
    pub fn new(regs: usize, preds: usize) -> Scoreboard {
        Scoreboard {
            reg_ready: vec![0; regs],
            pred_ready: vec![0; preds],
        }
    }

    /// The first cycle at which `inst`'s operands and destination are free.
    #[inline]
    pub fn ready_at(&self, inst: &DInstr) -> u64 {
        let mut t = 0;
        for &r in &inst.reads {
            t = t.max(self.reg_ready[r as usize]);
        }
        for &p in &inst.pred_reads {
            t = t.max(self.pred_ready[p as usize]);
        }
        if let Some(d) = inst.write {
            t = t.max(self.reg_ready[d as usize]);
        }
        if let Some(p) = inst.pred_write {
            t = t.max(self.pred_ready[p as usize]);
        }
        t
    }

    /// Mark `inst`'s destinations busy until `done`.
    #[inline]
    pub fn reserve(&mut self, inst: &DInstr, done: u64) {
        if let Some(d) = inst.write {
            self.reg_ready[d as usize] = done;
        }
        if let Some(p) = inst.pred_write {
            self.pred_ready[p as usize] = done;
        }
    }
}
