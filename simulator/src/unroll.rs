//! Loops the compiler unrolls completely: what nvcc does with a loop whose trip count it knows.
//!
//! A loop whose counter starts at a constant, steps by a constant and is compared with a constant (`mov %off, 16;
//! step: … shr.u32 %off, %off, 1; setp.ne.u32 %more, %off, 0; @%more bra step`, the warp-level macros' shape)
//! runs a number of times the compiler computes, and nvcc's optimiser unrolls it completely when the unrolled code
//! is small: the GPU runs the body that many times in a row, with the counter's value an immediate in each copy
//! (a shuffle's offset is encoded in the `SHFL`) and no compare or branch between the copies. [`counted`] finds such
//! loops in decoded code; the timing model uses them (`timing.unroll`).

use crate::kernel::{Bin, CmpClass, DInstr, DOp, Src};

/// A loop the compiler unrolls completely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Its first instruction (the back edge's target).
    pub head: usize,
    /// The counter's one update in the body.
    pub update: usize,
    /// The comparison that sets the back edge's predicate.
    pub test: usize,
    /// The conditional branch back to `head`.
    pub branch: usize,
    /// The counter register.
    pub reg: u16,
    /// How many times the body runs.
    pub trips: u32,
}

impl Counted {
    /// Whether `pc` lies in the loop.
    pub fn contains(&self, pc: usize) -> bool {
        (self.head..=self.branch).contains(&pc)
    }
}

/// The loops of `code` the compiler unrolls completely: a counted loop (above) with one way in (its head, after the
/// counter's `mov` of an immediate in the same straight-line code) and one way out (falling through its back edge),
/// no loop inside it, its counter's update and test on every pass (no branch inside jumps over them), and at most
/// `max_instructions` instructions once unrolled (trip count × body).
pub fn counted(code: &[DInstr], max_instructions: u32) -> Vec<Counted> {
    // Where branches go: a loop entered other than at its head is not unrolled.
    let mut target = vec![false; code.len() + 1];
    for i in code {
        if let DOp::Bra { target: t } = i.op {
            target[(t as usize).min(code.len())] = true;
        }
    }
    let mut out = Vec::new();
    for (branch, inst) in code.iter().enumerate() {
        if let Some(l) = one(code, &target, branch, inst, max_instructions) {
            out.push(l);
        }
    }
    out
}

/// The loop closed by `inst` at `branch`, if it is one the compiler unrolls completely.
fn one(code: &[DInstr], target: &[bool], branch: usize, inst: &DInstr, max_instructions: u32) -> Option<Counted> {
    let DOp::Bra { target: t } = inst.op else {
        return None;
    };
    let head = t as usize;
    let (p, negated) = inst.guard?;
    if head > branch {
        return None;
    }
    // One way in and one way out: no branch or exit inside leaves the body or goes back, and none from outside
    // lands inside past the head.
    for (pc, i) in code.iter().enumerate() {
        let inside = (head..branch).contains(&pc);
        match i.op {
            DOp::Bra { target: t } => {
                let t = t as usize;
                let lands_inside = t > head && t <= branch;
                // (Inside: a way out, or back: another loop.)
                if (inside && (t <= pc || t > branch + 1)) || (!inside && pc != branch && lands_inside) {
                    return None;
                }
            }
            DOp::Exit if inside => return None,
            _ => {}
        }
    }
    // The test: the last write of the predicate before the branch, a comparison of a register with an immediate.
    let test = (head..branch).rev().find(|&j| code[j].pred_write == Some(p))?;
    let DOp::Setp {
        cmp,
        class,
        a: Src::Reg(reg),
        b: Src::Imm(limit),
        ..
    } = code[test].op
    else {
        return None;
    };
    if matches!(class, CmpClass::Float | CmpClass::FloatFtz) || code[test].guard.is_some() {
        return None;
    }
    // The update: the counter's one write in the body, before the test, by a constant.
    let writes = |j: usize| code[j].write == Some(reg) || code[j].write2 == Some(reg);
    let mut updates = (head..=branch).filter(|&j| writes(j));
    let update = updates.next()?;
    if updates.next().is_some() || update > test || code[update].guard.is_some() {
        return None;
    }
    // Every pass runs both: no branch in the body may jump over either (a count that depends on the data).
    let skipped = |x: usize| {
        code[head..x]
            .iter()
            .any(|i| matches!(i.op, DOp::Bra { target: t } if t as usize > x))
    };
    if skipped(update) || skipped(test) {
        return None;
    }
    let DOp::Bin {
        f,
        d,
        a: Src::Reg(from),
        b: Src::Imm(step),
    } = code[update].op
    else {
        return None;
    };
    if d != reg || from != reg || !matches!(f, Bin::AddI | Bin::SubI | Bin::MulI | Bin::Shl | Bin::ShrU) {
        return None;
    }
    // The start: the counter's last write before the head, a `mov` of an immediate in the straight-line code that
    // leads to the head.
    let mut start = None;
    for j in (0..head).rev() {
        if writes(j) {
            if let (DOp::Mov { a: Src::Imm(v), .. }, None) = (code[j].op, code[j].guard) {
                start = Some(v);
            }
            break;
        }
        // (A branch target between the `mov` and the head is another way in.)
        if (j + 1 < head && target[j + 1]) || matches!(code[j].op, DOp::Bra { .. } | DOp::Exit) {
            break;
        }
    }
    let mut v = start?;
    let body = u32::try_from(branch - head + 1).ok()?;
    let mut trips = 0u32;
    loop {
        trips += 1;
        if trips.saturating_mul(body) > max_instructions {
            return None;
        }
        v = match f {
            Bin::AddI => v.wrapping_add(step),
            Bin::SubI => v.wrapping_sub(step),
            Bin::MulI => v.wrapping_mul(step),
            Bin::Shl => v.checked_shl(step).unwrap_or(0),
            _ => v.checked_shr(step).unwrap_or(0),
        };
        if crate::alu::compare(cmp, class, v, limit) == negated {
            break;
        }
    }
    Some(Counted {
        head,
        update,
        test,
        branch,
        reg,
        trips,
    })
}
