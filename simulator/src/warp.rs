//! A resident warp: its SIMT stack, register file and scoreboard, what holds it back, and where its cycles went.
//!
//! On hardware a warp slot of an SM sub-partition holds a warp's program counter and reconvergence state, its
//! registers live in the sub-partition's register file and its pending results on the scoreboard; the warp
//! scheduler sees whether it is eligible each cycle. The model keeps the same per warp, plus, for the stall
//! breakdown, the first cycle not yet accounted for: every cycle of every warp goes to exactly one reason
//! ([`Stalls`]), from its block's placement to the end of the run, and the trace records the same waits.

use crate::register_file::RegisterFile;
use crate::run::Stalls;
use crate::sanitizers::WarpShadow;
use crate::scoreboard::{Ready, Scoreboard};
use crate::simt_stack::SimtStack;
use crate::trace::{StallReason, Wait};

/// Why a warp's `next_issue` holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hold {
    Control,
    Barrier,
}

/// One resident warp.
pub(crate) struct Warp {
    pub block_slot: usize,
    pub block_id: u32,
    #[allow(
        clippy::struct_field_names,
        reason = "the warp's index in its block, named as everywhere else (LaneCtx, Issue, the events)"
    )]
    pub warp_in_block: u32,
    /// Unique on this SM (warp slots are reused): a deferred atomic result finds its warp by it.
    pub uid: u64,
    pub stack: SimtStack,
    /// Its registers and predicates.
    pub rf: RegisterFile,
    pub scoreboard: Scoreboard,
    /// Earliest cycle this warp may issue again (one instruction per cycle; branch resolution; barrier
    /// release). `u64::MAX` while it waits at a barrier.
    pub next_issue: u64,
    pub hold: Hold,
    /// The compiler's load scheduling (`timing.hoist_loads`): the cycle after which a shared load, and a global
    /// or local one, may have started (the latest basic-block start or fence of that space this warp issued).
    pub load_floor: [u64; 2],
    /// When the kernel parameters its current basic block's start read are there (`sched::PARAM_BLOCK`; a
    /// `sched::PARAM_USE` waits for it).
    pub param_at: u64,
    /// The first cycle it may issue another store (`memory.store_drain.issue` after its last global store).
    pub store_free: u64,
    /// When its next instruction, a store, may issue, if it is held by `store_free` (for the stall breakdown: those
    /// cycles are `unit_busy`); taken by the next [`Warp::account`].
    pub store_gate: u64,
    /// The barrier it waits at, and the pc of the barrier instruction.
    pub waiting: Option<(u32, u32)>,
    /// First cycle not yet accounted for in `stalls`.
    pub accounted: u64,
    pub stalls: Stalls,
    /// With tracing: the waits before the instruction being issued (see `account`).
    pub waits: Vec<Wait>,
    /// The sanitizers' state of the warp (empty unless `--check race` or `init` runs).
    pub shadow: WarpShadow,
    /// Its threads' local memory (PTX `.local`, `Kernel::local_words` words per thread): word `k` of lane `l`
    /// at `k · W + l`. Private to the thread, so it never goes through global memory's epoch log; zeroed when
    /// the warp is placed (empty when the program declares no `.local`).
    pub local: Vec<u32>,
    /// Where its local memory lies among the grid's warps' (for cache lines): after the buffers, warp `g` of
    /// the grid (block · warps per block + warp) at `g · local_words · W · 4` bytes.
    pub local_base: u64,
    /// Where it stands in a loop ptxas unrolls (`timing.runtime_unroll`).
    pub unrolled: Unrolled,
}

/// A warp's passes through a loop ptxas unrolls ([`crate::kernel::sched::UNROLLED`] loads): the pc of the last such
/// load it issued and the warp's issue count then, the passes left in the group of passes ptxas runs as one (this
/// one included), the cycle that group began and its loads issued since.
#[derive(Clone, Copy, Debug)]
pub struct Unrolled {
    pub pc: u32,
    pub issued: u64,
    pub left: u32,
    pub group: u64,
    pub loads: u32,
}

impl Default for Unrolled {
    fn default() -> Unrolled {
        Unrolled {
            pc: u32::MAX,
            issued: 0,
            left: 0,
            group: 0,
            loads: 0,
        }
    }
}

impl Unrolled {
    /// A load at `pc`, the warp's `issued`-th issue: whether it begins a pass. A load further than `body` issues
    /// from the last begins a new entry into the loop, outside any group.
    pub fn begins_pass(&mut self, pc: u32, issued: u64, body: u32) -> bool {
        let new = self.pc == u32::MAX || pc <= self.pc;
        if new && (self.pc == u32::MAX || issued.saturating_sub(self.issued) > u64::from(body)) {
            self.left = 0;
        }
        self.pc = pc;
        self.issued = issued;
        new
    }

    /// A group of `passes` passes begins at `cycle`.
    pub fn group(&mut self, passes: u32, cycle: u64) {
        (self.left, self.group, self.loads) = (passes, cycle, 0);
    }

    /// The cycle the load's latency may run from: ptxas issues the loads of a group's passes at its start, one a
    /// cycle (never after `cycle`, when it issues here).
    pub fn from(&mut self, cycle: u64) -> u64 {
        let from = self.group + u64::from(self.loads);
        self.loads += 1;
        from.min(cycle)
    }
}

impl Warp {
    /// Storage for a warp of a program with `nregs` registers and `npreds` predicates (placed by [`Warp::place`]).
    pub fn new(nregs: usize, npreds: usize) -> Warp {
        Warp {
            block_slot: 0,
            block_id: 0,
            warp_in_block: 0,
            uid: 0,
            stack: SimtStack::new(0),
            rf: RegisterFile::default(),
            scoreboard: Scoreboard::new(nregs, npreds),
            next_issue: 0,
            hold: Hold::Control,
            load_floor: [0; 2],
            param_at: 0,
            store_free: 0,
            store_gate: 0,
            waiting: None,
            accounted: 0,
            stalls: Stalls::default(),
            waits: Vec::new(),
            shadow: WarpShadow::default(),
            local: Vec::new(),
            local_base: 0,
            unrolled: Unrolled::default(),
        }
    }

    /// Place the warp (this storage, reused) as warp `warp_in_block` of the block in `block_slot`, with its
    /// `lanes`, at `cycle`: registers zeroed, nothing pending, every cycle before this one not launched.
    pub fn place(
        &mut self,
        (block_slot, block_id, warp_in_block): (usize, u32, u32),
        uid: u64,
        lanes: u64,
        cycle: u64,
    ) {
        self.block_slot = block_slot;
        self.block_id = block_id;
        self.warp_in_block = warp_in_block;
        self.uid = uid;
        self.stack.reset(lanes);
        self.scoreboard.clear();
        self.unrolled = Unrolled::default();
        self.next_issue = cycle;
        self.hold = Hold::Control;
        self.load_floor = [cycle; 2];
        self.param_at = cycle;
        self.store_free = 0;
        self.store_gate = 0;
        self.waiting = None;
        self.accounted = cycle;
        self.stalls = Stalls {
            not_launched: cycle,
            ..Stalls::default()
        };
        self.waits.clear();
    }

    /// Account the warp's cycles up to `cycle`, at which it issues (or, `issues` false, retires without
    /// issuing).
    ///
    /// With `trace`, the waits are also recorded in order in `self.waits` (for the trace's next issue or exit
    /// event).
    #[inline(always)]
    pub fn account(&mut self, cycle: u64, operands: Ready, unit: u64, issues: bool, trace: bool) {
        let mut t = self.accounted;
        let st = &mut self.stalls;
        // (Waits accumulate until an issue or the warp's exit takes them into the trace.)
        let waits = &mut self.waits;
        let mut part = |until: u64, slot: &mut u64, reason: StallReason| {
            let u = until.min(cycle);
            if u > t {
                *slot += u - t;
                if trace {
                    match waits.last_mut() {
                        Some(w) if w.reason == reason && w.to == t => w.to = u,
                        _ => waits.push(Wait { reason, from: t, to: u }),
                    }
                }
                t = u;
            }
        };
        match self.hold {
            Hold::Control => part(self.next_issue, &mut st.control, StallReason::Control),
            Hold::Barrier => part(self.next_issue, &mut st.barrier, StallReason::Barrier),
        }
        // The operand wait ends with the producer's bank-conflict replays, then any pipe-switch cycles.
        let replays_end = operands.at - u64::from(operands.switch);
        part(
            replays_end.saturating_sub(u64::from(operands.conflict)),
            &mut st.operands,
            StallReason::Operands,
        );
        part(replays_end, &mut st.bank_conflict, StallReason::BankConflict);
        part(operands.at, &mut st.operands, StallReason::Operands);
        part(
            unit.max(std::mem::take(&mut self.store_gate)),
            &mut st.unit_busy,
            StallReason::UnitBusy,
        );
        part(cycle, &mut st.not_selected, StallReason::NotSelected);
        st.issued += u64::from(issues);
        self.accounted = cycle + u64::from(issues);
    }
}
