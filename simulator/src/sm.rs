//! The streaming multiprocessor: resident blocks and warps, warp schedulers, pipes, the issue loop.
//!
//! Hardware: an SM holds up to `max_blocks_per_sm` blocks and `max_warps_per_sm` warps (and as many blocks as
//! its shared memory fits); its warps are split over `schedulers` sub-partitions (Hopper: 4), each of which
//! issues at most one warp instruction per cycle. Blocks are placed on the SM in order as resources free up.
//!
//! Model: cycle-driven. Each cycle, each scheduler picks one of its warps whose next instruction can issue
//! (policy: loose round robin or greedy-then-oldest) and issues it. An instruction can issue when the warp is
//! not held (branch resolution, barrier), its operands are ready on the scoreboard, and its pipe accepts an
//! instruction (each pipe has an issue interval; the shared-memory, L1 and global-atomic pipes are one per SM,
//! the others one per sub-partition). Semantics are applied at issue, so values never depend on timing; the
//! timing parameters ([`crate::config::Timing`]) decide when results are ready. When no warp can issue, time
//! jumps to the next cycle at which one can; when no warp ever can again, the warps are deadlocked at barriers.
//! The run's cycle count is the cycle at which the last result is complete. Every warp's cycles are accounted
//! for ([`Stalls`]).

use crate::alu;
use crate::barrier::{BARRIERS, Barrier, Waiter};
use crate::cache::L1;
use crate::config::{Config, SchedulerPolicy};
use crate::fault::{Fault, FaultKind, WaitingWarp};
use crate::kernel::{Buffer, DAddr, DBar, DInstr, DOp, Kernel, Pipe, Src, Unit};
use crate::scoreboard::{Ready, Scoreboard};
use crate::shared_memory;
use crate::shuffle;
use crate::simt_stack::{Merge, SimtStack};
use crate::trace::{BarrierResult, Event, Issue, MemoryTrace, ShuffleTrace, StallReason, TraceSink, Wait};
use serde::Serialize;
use warpsim_isa::{PredLogicOp, Special, VoteMode};

/// Limits on a run: always finite.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub max_cycles: u64,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_cycles: 100_000_000,
        }
    }
}

/// Where a warp's cycles went. For every warp the parts add up to the run's cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stalls {
    /// Cycles in which the warp issued.
    pub issued: u64,
    /// Waiting for an operand still being computed (or for its destination to be free).
    pub operands: u64,
    /// Waiting for an operand whose producer was replayed for bank conflicts: the replay cycles.
    pub bank_conflict: u64,
    /// The pipe its next instruction needs was busy (issue interval, shared-memory replays of other warps).
    pub unit_busy: u64,
    /// Held after a branch that redirected it.
    pub control: u64,
    /// Waiting at a barrier.
    pub barrier: u64,
    /// Ready, but its scheduler issued another warp.
    pub not_selected: u64,
    /// Before its block was placed on the SM.
    pub not_launched: u64,
    /// After it exited, until the run ended.
    pub finished: u64,
}

impl Stalls {
    pub fn total(&self) -> u64 {
        self.parts().iter().map(|(_, v)| v).sum()
    }

    /// Every part with its name, in a fixed order.
    pub fn parts(&self) -> [(&'static str, u64); 9] {
        [
            ("issued", self.issued),
            ("operands", self.operands),
            ("bank_conflict", self.bank_conflict),
            ("unit_busy", self.unit_busy),
            ("control", self.control),
            ("barrier", self.barrier),
            ("not_selected", self.not_selected),
            ("not_launched", self.not_launched),
            ("finished", self.finished),
        ]
    }

    fn add(&mut self, o: &Stalls) {
        self.issued += o.issued;
        self.operands += o.operands;
        self.bank_conflict += o.bank_conflict;
        self.unit_busy += o.unit_busy;
        self.control += o.control;
        self.barrier += o.barrier;
        self.not_selected += o.not_selected;
        self.not_launched += o.not_launched;
        self.finished += o.finished;
    }
}

/// One warp's cycle breakdown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WarpStalls {
    pub block: u32,
    pub warp: u32,
    pub stalls: Stalls,
}

/// Per-warp breakdowns are kept for this many warps (the first blocks'); the totals cover every warp.
pub const WARP_STALLS_KEPT: usize = 1024;

/// What a run counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub warp_instructions: u64,
    /// Executing lanes summed over warp instructions.
    pub lane_instructions: u64,
    pub shuffles: u64,
    /// Lane reads by shuffles that are undefined on hardware.
    pub undefined_shuffle_reads: u64,
    pub divergent_branches: u64,
    /// Shared-memory loads, stores and atomics (warp instructions).
    pub shared_accesses: u64,
    /// Shared accesses with a bank conflict (degree above 1).
    pub bank_conflicts: u64,
    /// Extra cycles paid for bank conflicts.
    pub bank_conflict_cycles: u64,
    /// Atomic warp instructions (shared and global).
    pub atomics: u64,
    /// Barrier releases.
    pub barriers: u64,
    /// Cache lines global loads found in L1, and missed.
    pub l1_hits: u64,
    pub l1_misses: u64,
    /// Warps run.
    pub warps: u64,
    /// Cycle breakdown summed over every warp: `stalls.total()` = warps × cycles.
    pub stalls: Stalls,
    /// Cycle breakdown of the first [`WARP_STALLS_KEPT`] warps, by block and warp.
    pub warp_stalls: Vec<WarpStalls>,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutput {
    pub cycles: u64,
    pub stats: Stats,
    /// Every global buffer's final contents.
    pub buffers: Vec<Buffer>,
}

impl RunOutput {
    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}

/// Why a warp's `next_issue` holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hold {
    Control,
    Barrier,
}

/// One resident warp.
struct Warp {
    block_slot: usize,
    block_id: u32,
    warp_in_block: u32,
    stack: SimtStack,
    /// Registers, structure of arrays: register `r` of lane `l` is `regs[r * W + l]`.
    regs: Vec<u32>,
    /// Predicates as lane masks.
    preds: Vec<u64>,
    scoreboard: Scoreboard,
    /// Earliest cycle this warp may issue again (one instruction per cycle; branch resolution; barrier
    /// release). `u64::MAX` while it waits at a barrier.
    next_issue: u64,
    hold: Hold,
    /// The barrier it waits at, and the pc of the barrier instruction.
    waiting: Option<(u32, u32)>,
    /// First cycle not yet accounted for in `stalls`.
    accounted: u64,
    stalls: Stalls,
    /// With tracing: the waits before the instruction being issued (see `account`).
    waits: Vec<Wait>,
}

/// A resident block: its shared memory and barriers.
struct Block {
    id: u32,
    /// Warps with live lanes (a warp whose lanes have all exited no longer counts).
    warps_left: u32,
    shared: Vec<u32>,
    barriers: Vec<Barrier>,
    /// When the block's barrier unit has processed every arrival so far.
    barrier_free: u64,
}

/// Run `kernel` on one SM to completion.
pub fn run<T: TraceSink>(
    kernel: &Kernel,
    config: &Config,
    options: &RunOptions,
    trace: &mut T,
) -> Result<RunOutput, Fault> {
    Sm::new(kernel, config).run(options, trace)
}

struct Sm<'k> {
    kernel: &'k Kernel,
    config: &'k Config,
    w: usize,
    memory: Vec<Buffer>,
    /// Byte address of each global buffer (for cache lines): laid out in order, 256-byte aligned.
    global_base: Vec<u64>,
    l1: L1,
    /// Warp slots; slot `i` belongs to scheduler `i % schedulers`.
    warps: Vec<Option<Warp>>,
    blocks: Vec<Option<Block>>,
    next_block: u32,
    /// Per scheduler: the slot it issued last (round robin starts after it; greedy tries it first).
    last_issued: Vec<usize>,
    /// Per scheduler: its live warps' slots, oldest (placed on the SM first) first.
    by_age: Vec<Vec<usize>>,
    /// When each pipe accepts its next instruction: `Pipe::COUNT` per scheduler, then the SM-wide ones.
    pipe_free: Vec<u64>,
    stats: Stats,
    /// Exited warps, and the sum of (exit cycle + 1) over them: for the `finished` part of the breakdown.
    exited: u64,
    exit_sum: u128,
    /// Cycle at which the last result completes.
    end: u64,
}

/// What an issued instruction asks of the SM after its lane work.
enum After {
    Nothing,
    /// The warp arrived at a barrier.
    Barrier {
        id: u32,
        expected: Option<u32>,
        predicate: u64,
    },
}

/// L1 capacity for a kernel: what the smallest shared-memory carveout holding the resident blocks leaves.
fn l1_bytes(kernel: &Kernel, config: &Config) -> u64 {
    let m = &config.timing.memory;
    let per_block = kernel.shared_words as u64 * 4;
    let warps = kernel.warps_per_block().max(1) as u64;
    let mut blocks = (config.max_blocks_per_sm as u64)
        .min(config.max_warps_per_sm as u64 / warps)
        .min(kernel.grid as u64)
        .max(1);
    if let Some(fit) = (config.shared_per_sm as u64).checked_div(per_block) {
        blocks = blocks.min(fit.max(1));
    }
    let need = per_block * blocks;
    let mut carveouts: Vec<u64> = m.shared_carveouts_kib.iter().map(|&k| k as u64 * 1024).collect();
    carveouts.sort_unstable();
    let carveout = carveouts.iter().copied().find(|&c| c >= need).unwrap_or(need);
    (m.l1_shared_bytes as u64).saturating_sub(carveout)
}

impl<'k> Sm<'k> {
    fn new(kernel: &'k Kernel, config: &'k Config) -> Sm<'k> {
        let slots = config.max_warps_per_sm.max(kernel.warps_per_block()) as usize;
        let schedulers = config.schedulers.max(1) as usize;
        let mut global_base = Vec::with_capacity(kernel.buffers.len());
        // 256-byte aligned like cudaMalloc's, and never two buffers in one cache line.
        let align = 256u64.max(config.timing.memory.line_bytes as u64);
        let mut next = 0u64;
        for b in &kernel.buffers {
            global_base.push(next);
            next += (b.data.len() as u64 * 4).div_ceil(align) * align;
        }
        let m = &config.timing.memory;
        Sm {
            kernel,
            config,
            w: kernel.warp_size as usize,
            memory: kernel.buffers.clone(),
            global_base,
            l1: L1::new(l1_bytes(kernel, config), m.line_bytes, m.l1_ways),
            warps: (0..slots).map(|_| None).collect(),
            blocks: Vec::new(),
            next_block: 0,
            // As if each scheduler had just issued its last slot, so the first search starts at its first one.
            last_issued: (0..schedulers)
                .map(|s| s + schedulers * (slots.div_ceil(schedulers) - 1))
                .collect(),
            by_age: vec![Vec::new(); schedulers],
            pipe_free: vec![0; (schedulers + 1) * Pipe::COUNT],
            stats: Stats::default(),
            exited: 0,
            exit_sum: 0,
            end: 0,
        }
    }

    /// Index of `pipe`'s entry in `pipe_free` for scheduler `s`.
    #[inline]
    fn pipe_index(&self, s: usize, pipe: Pipe) -> usize {
        let s = if pipe.per_sm() { self.by_age.len() } else { s };
        s * Pipe::COUNT + pipe as usize
    }

    /// Place blocks while the SM has room (block slots, warp slots, shared memory).
    fn launch_blocks<T: TraceSink>(&mut self, cycle: u64, trace: &mut T) {
        let per_block = self.kernel.warps_per_block() as usize;
        let shared_bytes = self.kernel.shared_words as u64 * 4;
        let schedulers = self.by_age.len();
        while self.next_block < self.kernel.grid {
            let resident = self.blocks.iter().filter(|b| b.is_some()).count();
            let shared_used = resident as u64 * shared_bytes;
            let free_slots = self.warps.iter().filter(|w| w.is_none()).count();
            if resident >= self.config.max_blocks_per_sm as usize
                || free_slots < per_block
                || (resident > 0 && shared_used + shared_bytes > self.config.shared_per_sm as u64)
            {
                break;
            }
            let id = self.next_block;
            self.next_block += 1;
            let slot = match self.blocks.iter().position(Option::is_none) {
                Some(s) => s,
                None => {
                    self.blocks.push(None);
                    self.blocks.len() - 1
                }
            };
            self.blocks[slot] = Some(Block {
                id,
                warps_left: per_block as u32,
                shared: vec![0; self.kernel.shared_words],
                barriers: vec![Barrier::default(); BARRIERS],
                barrier_free: 0,
            });
            let nregs = self.kernel.program.regs.len();
            let npreds = self.kernel.program.preds.len();
            let mut k = 0;
            for warp_slot in 0..self.warps.len() {
                if k == per_block {
                    break;
                }
                if self.warps[warp_slot].is_some() {
                    continue;
                }
                let first_thread = (k * self.w) as u32;
                let lanes = (self.kernel.block - first_thread).min(self.w as u32);
                let mask = if lanes == 64 { u64::MAX } else { (1u64 << lanes) - 1 };
                self.warps[warp_slot] = Some(Warp {
                    block_slot: slot,
                    block_id: id,
                    warp_in_block: k as u32,
                    stack: SimtStack::new(mask),
                    regs: vec![0; nregs * self.w],
                    preds: vec![0; npreds],
                    scoreboard: Scoreboard::new(nregs, npreds),
                    next_issue: cycle,
                    hold: Hold::Control,
                    waiting: None,
                    accounted: cycle,
                    stalls: Stalls {
                        not_launched: cycle,
                        ..Stalls::default()
                    },
                    waits: Vec::new(),
                });
                self.by_age[warp_slot % schedulers].push(warp_slot);
                self.stats.warps += 1;
                k += 1;
            }
            if T::ENABLED {
                trace.event(Event::BlockLaunch {
                    cycle,
                    block: id,
                    warps: per_block as u32,
                });
            }
        }
    }

    /// When the warp in `slot` (of scheduler `s`) can issue its next instruction, and why not sooner: the
    /// operands' readiness and the pipe's.
    #[inline]
    fn readiness(&self, slot: usize, s: usize) -> Option<(u64, Ready, u64)> {
        let warp = self.warps.get(slot)?.as_ref()?;
        let pc = warp.stack.top().map(|t| t.pc).unwrap_or(0) as usize;
        // Past the last instruction the warp only has to exit.
        let Some(inst) = self.kernel.code.get(pc) else {
            return Some((warp.next_issue, Ready::default(), 0));
        };
        let pipe = inst.unit.pipe();
        let operands = warp.scoreboard.ready_at(inst, pipe, self.config.timing.pipe_switch);
        let unit = self.pipe_free[self.pipe_index(s, pipe)];
        Some((warp.next_issue.max(operands.at).max(unit), operands, unit))
    }

    /// Account the warp's cycles up to `cycle`, at which it issues (or, `issues` false, retires without
    /// issuing).
    ///
    /// With `trace`, the waits are also recorded in order in `warp.waits` (for the trace's next issue or exit
    /// event).
    #[inline(always)]
    fn account(warp: &mut Warp, cycle: u64, operands: Ready, unit: u64, issues: bool, trace: bool) {
        let mut t = warp.accounted;
        let st = &mut warp.stalls;
        // (Waits accumulate until an issue or the warp's exit takes them into the trace.)
        let waits = &mut warp.waits;
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
        match warp.hold {
            Hold::Control => part(warp.next_issue, &mut st.control, StallReason::Control),
            Hold::Barrier => part(warp.next_issue, &mut st.barrier, StallReason::Barrier),
        }
        // The operand wait ends with the producer's bank-conflict replays, then any pipe-switch cycles.
        let replays_end = operands.at - operands.switch as u64;
        part(
            replays_end.saturating_sub(operands.conflict as u64),
            &mut st.operands,
            StallReason::Operands,
        );
        part(replays_end, &mut st.bank_conflict, StallReason::BankConflict);
        part(operands.at, &mut st.operands, StallReason::Operands);
        part(unit, &mut st.unit_busy, StallReason::UnitBusy);
        part(cycle, &mut st.not_selected, StallReason::NotSelected);
        st.issued += issues as u64;
        warp.accounted = cycle + issues as u64;
    }

    /// The warp in `slot` of scheduler `s` that the policy picks to issue at `cycle`, if any; lowers
    /// `earliest` to when the others could.
    fn pick(&self, s: usize, cycle: u64, earliest: &mut u64) -> Option<(usize, Ready, u64)> {
        let schedulers = self.by_age.len();
        let slots = self.warps.len();
        match self.config.scheduler_policy {
            SchedulerPolicy::LooseRoundRobin => {
                let owned = slots.div_ceil(schedulers);
                let start = self.last_issued[s] / schedulers;
                for k in 1..=owned {
                    let slot = s + schedulers * ((start + k) % owned);
                    let Some((ready, ops, unit)) = self.readiness(slot, s) else {
                        continue;
                    };
                    if ready <= cycle {
                        return Some((slot, ops, unit));
                    }
                    *earliest = (*earliest).min(ready);
                }
            }
            SchedulerPolicy::GreedyThenOldest => {
                let last = self.last_issued[s];
                let by_age = &self.by_age[s];
                for k in 0..=by_age.len() {
                    let slot = if k == 0 { last } else { by_age[k - 1] };
                    if k > 0 && slot == last {
                        continue;
                    }
                    let Some((ready, ops, unit)) = self.readiness(slot, s) else {
                        continue;
                    };
                    if ready <= cycle {
                        return Some((slot, ops, unit));
                    }
                    *earliest = (*earliest).min(ready);
                }
            }
        }
        None
    }

    /// Whether the warp in `slot` is past the last instruction (it only has to exit).
    fn at_end(&self, slot: usize) -> bool {
        let n = self.kernel.code.len() as u32;
        self.warps[slot]
            .as_ref()
            .and_then(|w| w.stack.top())
            .is_some_and(|t| t.pc >= n)
    }

    /// Retire the lanes of the warp in `slot` that are past the last instruction, at `cycle`, without using an
    /// issue slot. Returns whether its block finished.
    fn retire_at_end<T: TraceSink>(&mut self, slot: usize, cycle: u64, ops: Ready, unit: u64, trace: &mut T) -> bool {
        let warp = self.warps[slot].as_mut().expect("live warp");
        Self::account(warp, cycle, ops, unit, false, T::ENABLED);
        if let Some(top) = warp.stack.top().copied() {
            warp.stack.remove_lanes(top.mask);
        }
        self.after_issue(slot, cycle, cycle, trace)
    }

    fn run<T: TraceSink>(mut self, options: &RunOptions, trace: &mut T) -> Result<RunOutput, Fault> {
        let mut cycle = 0u64;
        self.launch_blocks(cycle, trace);
        let schedulers = self.last_issued.len();
        loop {
            if self.warps.iter().all(Option::is_none) && self.next_block >= self.kernel.grid {
                break;
            }
            let mut issued = false;
            // A warp retired without issuing: others may now be able to go (a barrier completed).
            let mut retired = false;
            let mut earliest = u64::MAX;
            let mut finished_block = false;
            // The scheduler that looks first (and so gets the SM-wide pipes first) rotates every cycle.
            for k in 0..schedulers {
                let s = (k + cycle as usize) % schedulers;
                let chosen = loop {
                    match self.pick(s, cycle, &mut earliest) {
                        Some((slot, ops, unit)) if self.at_end(slot) => {
                            retired = true;
                            finished_block |= self.retire_at_end(slot, cycle, ops, unit, trace);
                        }
                        other => break other,
                    }
                };
                if let Some((slot, ops, unit)) = chosen {
                    self.last_issued[s] = slot;
                    issued = true;
                    Self::account(
                        self.warps[slot].as_mut().expect("live warp"),
                        cycle,
                        ops,
                        unit,
                        true,
                        T::ENABLED,
                    );
                    if self.issue(slot, s, cycle, trace)? {
                        finished_block = true;
                    }
                }
            }
            if finished_block {
                self.launch_blocks(cycle + 1, trace);
            }
            if !issued && !retired && earliest == u64::MAX && self.warps.iter().any(Option::is_some) {
                return Err(self.deadlock(cycle));
            }
            cycle = if issued || retired {
                cycle + 1
            } else {
                earliest.max(cycle + 1)
            };
            if cycle > options.max_cycles
                && let Some(warp) = self.warps.iter().flatten().next()
            {
                return Err(Fault {
                    kind: FaultKind::CycleLimit {
                        limit: options.max_cycles,
                    },
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    lane: None,
                    pc: warp.stack.top().map(|t| t.pc).unwrap_or(0),
                });
            }
        }
        // Exited warps were finished from their exit to the end of the run.
        let end = self.end;
        self.stats.stalls.finished = (self.exited as u128 * end as u128 - self.exit_sum) as u64;
        for ws in &mut self.stats.warp_stalls {
            // (`finished` holds the first finished cycle until now.)
            ws.stalls.finished = end - ws.stalls.finished;
        }
        self.stats.warp_stalls.sort_by_key(|w| (w.block, w.warp));
        Ok(RunOutput {
            cycles: end,
            stats: self.stats,
            buffers: self.memory,
        })
    }

    /// Every live warp waits at a barrier that can no longer complete.
    fn deadlock(&self, cycle: u64) -> Fault {
        let mut waiting = Vec::new();
        for warp in self.warps.iter().flatten() {
            let block = self.blocks[warp.block_slot].as_ref().expect("block of a live warp");
            let (id, pc) = warp.waiting.unwrap_or((0, 0));
            let b = &block.barriers[id as usize];
            waiting.push(WaitingWarp {
                block: warp.block_id,
                warp: warp.warp_in_block,
                pc,
                barrier: id,
                arrived: b.waiting.len() as u32,
                expected: b.expected_warps(block.warps_left),
            });
        }
        waiting.sort_by_key(|w| (w.block, w.warp));
        let first = waiting.first().cloned().expect("a waiting warp");
        Fault {
            kind: FaultKind::Deadlock { waiting },
            cycle,
            block: first.block,
            warp: first.warp,
            lane: None,
            pc: first.pc,
        }
    }

    /// Issue the next instruction of the warp in `slot`. Returns whether its block finished.
    fn issue<T: TraceSink>(&mut self, slot: usize, scheduler: usize, cycle: u64, trace: &mut T) -> Result<bool, Fault> {
        let kernel = self.kernel;
        let w = self.w;
        let n = kernel.code.len() as u32;
        let timing = &self.config.timing;
        let banks = self.config.shared_banks;
        self.end = self.end.max(cycle + 1);
        let per_sm = self.by_age.len();
        let pipe_index_of = |pipe: Pipe| if pipe.per_sm() { per_sm } else { scheduler } * Pipe::COUNT + pipe as usize;
        let warp = self.warps[slot].as_mut().expect("live warp");
        let top = *warp.stack.top().expect("a warp with lanes has a stack entry");
        let pc = top.pc;
        if pc >= n {
            // Past the end (only when placed there at launch: an empty program): those lanes exit.
            warp.stack.remove_lanes(top.mask);
            return Ok(self.after_issue(slot, cycle, cycle + 1, trace));
        }
        let inst: &DInstr = &kernel.code[pc as usize];
        let pipe_index = pipe_index_of(inst.unit.pipe());
        let active = top.mask;
        let exec = match inst.guard {
            None => active,
            Some((p, neg)) => {
                let v = warp.preds[p as usize];
                active & if neg { !v } else { v }
            }
        };
        let ctx = LaneCtx {
            w: w as u32,
            block: warp.block_id,
            warp_in_block: warp.warp_in_block,
            ntid: kernel.block,
            nctaid: kernel.grid,
            nwarps: kernel.warps_per_block(),
            cycle,
        };
        self.stats.warp_instructions += 1;
        self.stats.lane_instructions += exec.count_ones() as u64;
        let mut event = if T::ENABLED {
            Some(Box::new(Issue {
                cycle,
                scheduler: scheduler as u32,
                block: warp.block_id,
                warp: warp.warp_in_block,
                pc,
                active,
                exec,
                operands: operand_values(inst, warp, &ctx),
                write: None,
                pred_write: None,
                shuffle: None,
                memory: None,
                complete: cycle,
                waits: std::mem::take(&mut warp.waits),
            }))
        } else {
            None
        };
        let fault = |kind: FaultKind, lane: Option<u32>| Fault {
            kind,
            cycle,
            block: ctx.block,
            warp: ctx.warp_in_block,
            lane,
            pc,
        };
        let block = self.blocks[warp.block_slot].as_mut().expect("block of a live warp");
        let mut next_pc = pc + 1;
        let mut branch: Option<(u64, u32)> = None;
        let unit = inst.unit.timing(&timing.units);
        let pipe = inst.unit.pipe();
        // The result's latency, how long the pipe stays busy, and the bank-conflict replays in the latency.
        let mut latency = unit.latency as u64;
        let mut occupancy = unit.interval as u64;
        let mut replays = 0u64;
        let mut after = After::Nothing;
        match inst.op {
            DOp::Mov { d, a } => {
                for_lanes(exec, |lane| {
                    let v = read(warp, a, lane, &ctx);
                    warp.regs[d as usize * w + lane as usize] = v;
                });
            }
            DOp::Un { f, d, a } => for_lanes(exec, |lane| {
                let v = alu::unary(f, read(warp, a, lane, &ctx));
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Bin { f, d, a, b } => {
                let mut m = exec;
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    let x = read(warp, a, lane, &ctx);
                    let y = read(warp, b, lane, &ctx);
                    match alu::binary(f, x, y) {
                        Some(v) => warp.regs[d as usize * w + lane as usize] = v,
                        None => return Err(fault(FaultKind::DivideByZero, Some(lane))),
                    }
                }
            }
            DOp::Tern { f, d, a, b, c } => for_lanes(exec, |lane| {
                let v = alu::ternary(
                    f,
                    read(warp, a, lane, &ctx),
                    read(warp, b, lane, &ctx),
                    read(warp, c, lane, &ctx),
                );
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Setp { cmp, class, p, a, b } => {
                let mut bits = 0u64;
                for_lanes(exec, |lane| {
                    if alu::compare(cmp, class, read(warp, a, lane, &ctx), read(warp, b, lane, &ctx)) {
                        bits |= 1 << lane;
                    }
                });
                warp.preds[p as usize] = (warp.preds[p as usize] & !exec) | bits;
            }
            DOp::PredLogic { op, d, a, b } => {
                let get = |(p, neg): (u16, bool)| {
                    let v = warp.preds[p as usize];
                    if neg { !v } else { v }
                };
                let x = get(a);
                let v = match (op, b) {
                    (PredLogicOp::Not, _) => !x,
                    (PredLogicOp::And, Some(b)) => x & get(b),
                    (PredLogicOp::Or, Some(b)) => x | get(b),
                    (PredLogicOp::Xor, Some(b)) => x ^ get(b),
                    (_, None) => x,
                };
                warp.preds[d as usize] = (warp.preds[d as usize] & !exec) | (v & exec);
            }
            DOp::Selp { d, a, b, p } => {
                let pv = warp.preds[p as usize];
                for_lanes(exec, |lane| {
                    let v = if pv >> lane & 1 == 1 {
                        read(warp, a, lane, &ctx)
                    } else {
                        read(warp, b, lane, &ctx)
                    };
                    warp.regs[d as usize * w + lane as usize] = v;
                });
            }
            DOp::Cvt { f, d, a } => for_lanes(exec, |lane| {
                let v = alu::convert(f, read(warp, a, lane, &ctx));
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Ld { d, addr } => {
                let (words, index) = locate_lanes::<T>(kernel, &self.memory, warp, addr, exec, &ctx, false)
                    .map_err(|(kind, lane)| fault(kind, Some(lane)))?;
                for_lanes(exec, |lane| {
                    let word = words[lane as usize];
                    warp.regs[d as usize * w + lane as usize] = if addr.shared {
                        block.shared[word]
                    } else {
                        self.memory[addr.buffer as usize].data[word]
                    };
                });
                let (degree, conflict) = shared_cost(&mut self.stats, timing.bank_conflict, banks, addr, &words, exec);
                if addr.shared {
                    latency += conflict;
                    replays = conflict;
                    occupancy *= degree.max(1) as u64;
                } else {
                    let (lines, misses, arrival) = global_lines(
                        &self.global_base,
                        addr.buffer,
                        &words,
                        exec,
                        timing.memory.line_bytes,
                        Some((&mut self.l1, cycle, latency, timing.memory.l1_miss_latency as u64)),
                    );
                    self.stats.l1_hits += lines - misses;
                    self.stats.l1_misses += misses;
                    // The last line's data arrives last; each further line takes the pipe another interval.
                    if lines > 0 {
                        latency = arrival - cycle + (lines - 1) * unit.interval as u64;
                    }
                    occupancy *= lines.max(1);
                }
                if let Some(e) = event.as_mut() {
                    e.memory = Some(memory_trace(
                        &words, exec, w, banks, addr, false, false, index, degree, 0,
                    ));
                }
            }
            DOp::St { addr, a } => {
                // Every lane is checked before any writes, so a faulting store writes nothing.
                let (words, index) = locate_lanes::<T>(kernel, &self.memory, warp, addr, exec, &ctx, true)
                    .map_err(|(kind, lane)| fault(kind, Some(lane)))?;
                // Lanes storing to one address: the highest lane wins (one deterministic order).
                for_lanes(exec, |lane| {
                    let v = read(warp, a, lane, &ctx);
                    let word = words[lane as usize];
                    if addr.shared {
                        block.shared[word] = v;
                    } else {
                        self.memory[addr.buffer as usize].data[word] = v;
                    }
                });
                let (degree, conflict) = shared_cost(&mut self.stats, timing.bank_conflict, banks, addr, &words, exec);
                if addr.shared {
                    latency += conflict;
                    replays = conflict;
                    occupancy *= degree.max(1) as u64;
                } else {
                    // Write-through, no allocation: the L1 is not consulted.
                    let (lines, _, _) = global_lines(
                        &self.global_base,
                        addr.buffer,
                        &words,
                        exec,
                        timing.memory.line_bytes,
                        None,
                    );
                    occupancy *= lines.max(1);
                }
                if let Some(e) = event.as_mut() {
                    e.memory = Some(memory_trace(
                        &words, exec, w, banks, addr, true, false, index, degree, 0,
                    ));
                }
            }
            DOp::Atom { f, d, addr, b, c } => {
                self.stats.atomics += (exec != 0) as u64;
                let (words, index) = locate_lanes::<T>(kernel, &self.memory, warp, addr, exec, &ctx, true)
                    .map_err(|(kind, lane)| fault(kind, Some(lane)))?;
                // Lanes apply in lane order: deterministic, and one of the orders the hardware's serialisation gives.
                for_lanes(exec, |lane| {
                    let word = words[lane as usize];
                    let cell = if addr.shared {
                        &mut block.shared[word]
                    } else {
                        &mut self.memory[addr.buffer as usize].data[word]
                    };
                    let old = *cell;
                    let bv = read(warp, b, lane, &ctx);
                    let cv = c.map(|c| read(warp, c, lane, &ctx)).unwrap_or(0);
                    *cell = alu::atomic(f, old, bv, cv);
                    if let Some(d) = d {
                        warp.regs[d as usize * w + lane as usize] = old;
                    }
                });
                let (compact, count) = compact_words(&words, exec);
                let same = shared_memory::max_same_address(&compact[..count]);
                let per_lane = if addr.shared {
                    timing.shared_atomic_serialize
                } else {
                    timing.global_atomic_serialize
                };
                // Lanes on one word serialise; distinct words in one bank also replay.
                let (degree, conflict) = shared_cost(&mut self.stats, timing.bank_conflict, banks, addr, &words, exec);
                let serial = same.saturating_sub(1) as u64 * per_lane as u64;
                latency += serial + conflict;
                replays = conflict;
                occupancy += serial + conflict;
                if let Some(e) = event.as_mut() {
                    e.memory = Some(memory_trace(
                        &words, exec, w, banks, addr, true, true, index, degree, same,
                    ));
                }
            }
            // A barrier no lane executes (guard false everywhere) is skipped, as in PTX.
            DOp::Bar { .. } if exec == 0 => {}
            DOp::Bar { kind, id, count, pred } => {
                let live = warp.stack.live();
                if exec != live {
                    return Err(fault(
                        FaultKind::BarrierDivergence {
                            arrived: exec,
                            missing: live & !exec,
                        },
                        None,
                    ));
                }
                let first = exec.trailing_zeros();
                let id = read(warp, id, first, &ctx);
                if id as usize >= BARRIERS {
                    return Err(fault(
                        FaultKind::BadBarrier {
                            what: format!("barrier id {id} is out of range (0 to {})", BARRIERS - 1),
                        },
                        Some(first),
                    ));
                }
                let expected = match count {
                    None => None,
                    Some(c) => {
                        let threads = read(warp, c, first, &ctx);
                        if threads == 0 || !threads.is_multiple_of(ctx.w) {
                            return Err(fault(
                                FaultKind::BadBarrier {
                                    what: format!(
                                        "barrier thread count {threads} is not a positive multiple of the warp size ({})",
                                        ctx.w
                                    ),
                                },
                                Some(first),
                            ));
                        }
                        Some(threads / ctx.w)
                    }
                };
                let predicate = match pred {
                    Some((p, neg)) => {
                        let v = warp.preds[p as usize];
                        if neg { !v } else { v }
                    }
                    None => 0,
                };
                let _ = kind;
                after = After::Barrier {
                    id,
                    expected,
                    predicate,
                };
            }
            DOp::BarWarp { mask } => {
                let missing = mask & warp.stack.live() & !exec;
                if missing != 0 {
                    return Err(fault(FaultKind::WarpSyncDivergence { missing }, None));
                }
            }
            DOp::Vote {
                mode,
                d,
                a: (p, neg),
                mask,
            } => {
                let v = if neg {
                    !warp.preds[p as usize]
                } else {
                    warp.preds[p as usize]
                };
                let members = exec & mask;
                let set = v & members;
                let result = match mode {
                    VoteMode::All => set == members,
                    VoteMode::Any => set != 0,
                    VoteMode::Uni => set == members || set == 0,
                    VoteMode::Ballot => {
                        for_lanes(exec, |lane| warp.regs[d as usize * w + lane as usize] = set as u32);
                        false
                    }
                };
                if mode != VoteMode::Ballot {
                    warp.preds[d as usize] = (warp.preds[d as usize] & !exec) | if result { exec } else { 0 };
                }
            }
            DOp::Activemask { d } => {
                for_lanes(exec, |lane| warp.regs[d as usize * w + lane as usize] = exec as u32);
            }
            DOp::Match { all, d, p, a, mask } => {
                let members = exec & mask;
                let mut values = [0u32; 64];
                for_lanes(members, |lane| values[lane as usize] = read(warp, a, lane, &ctx));
                let first = members.trailing_zeros().min(63);
                let mut same_everywhere = true;
                for_lanes(members, |lane| {
                    same_everywhere &= values[lane as usize] == values[first as usize]
                });
                let mut equal = [0u64; 64];
                for_lanes(members, |lane| {
                    let mut bits = 0u64;
                    for_lanes(members, |other| {
                        if values[other as usize] == values[lane as usize] {
                            bits |= 1 << other;
                        }
                    });
                    equal[lane as usize] = bits;
                });
                // Lanes outside the mask take part in nothing: they get 0 (and false).
                for_lanes(exec, |lane| {
                    let r = if all {
                        if same_everywhere && members >> lane & 1 == 1 {
                            members
                        } else {
                            0
                        }
                    } else {
                        equal[lane as usize]
                    };
                    warp.regs[d as usize * w + lane as usize] = r as u32;
                });
                if let Some(p) = p {
                    warp.preds[p as usize] =
                        (warp.preds[p as usize] & !exec) | if same_everywhere { members } else { 0 };
                }
            }
            DOp::Shfl {
                mode,
                d,
                p,
                a,
                b,
                clamp,
                segmask,
                member,
            } => {
                self.stats.shuffles += 1;
                // Every lane reads its source before any lane writes.
                let mut src_vals = [0u32; 64];
                for (lane, v) in src_vals.iter_mut().enumerate().take(w) {
                    *v = read(warp, a, lane as u32, &ctx);
                }
                let mut sources = if T::ENABLED { vec![0u32; w] } else { Vec::new() };
                let mut in_range = 0u64;
                let mut undefined = 0u64;
                for lane in 0..w as u32 {
                    let bl = read(warp, b, lane, &ctx);
                    let s = shuffle::source_lane(mode, lane, bl, clamp, segmask, w as u32);
                    if T::ENABLED {
                        sources[lane as usize] = s.src;
                    }
                    if s.in_range {
                        in_range |= 1 << lane;
                    }
                    if exec >> lane & 1 == 1 {
                        warp.regs[d as usize * w + lane as usize] = src_vals[s.src as usize];
                        if shuffle::read_is_undefined(lane, s.src, member, exec) {
                            undefined |= 1 << lane;
                        }
                    }
                }
                self.stats.undefined_shuffle_reads += undefined.count_ones() as u64;
                if let Some(p) = p {
                    warp.preds[p as usize] = (warp.preds[p as usize] & !exec) | (in_range & exec);
                }
                if let Some(e) = event.as_mut() {
                    e.shuffle = Some(ShuffleTrace {
                        sources,
                        in_range: in_range & exec,
                        undefined,
                    });
                }
            }
            DOp::Bra { target } => {
                let fallthrough = active & !exec;
                if exec == 0 {
                    // No lane takes it.
                } else if fallthrough == 0 {
                    next_pc = target;
                } else {
                    branch = Some((exec, target));
                }
            }
            DOp::Exit => {
                warp.stack.remove_lanes(exec);
            }
            DOp::Nop => {}
        }
        // Scoreboard, pipe and timing. The run lasts until the last result (register, predicate or memory) is
        // complete.
        let done = cycle + latency;
        if let Some(e) = event.as_mut() {
            e.complete = done;
        }
        warp.scoreboard.reserve(inst, pipe, done, replays as u32);
        if inst.write.is_some() || inst.pred_write.is_some() || matches!(inst.op, DOp::St { .. } | DOp::Atom { .. }) {
            self.end = self.end.max(done);
        }
        if pipe == Pipe::Barrier {
            // The block's barrier unit paces arrivals (`arrive`); the issue slot is all a warp's pipe gives.
            occupancy = 1;
        }
        self.pipe_free[pipe_index] = cycle + occupancy;
        let redirect = branch.is_some() || next_pc != pc + 1;
        warp.next_issue = cycle + if redirect { latency.max(1) } else { 1 };
        warp.hold = Hold::Control;
        if let Some(e) = event.as_mut().filter(|_| inst.unit != Unit::Barrier) {
            // (A barrier's results are written at its release and traced there.)
            if let Some(d) = inst.write {
                let row = &warp.regs[d as usize * w..(d as usize + 1) * w];
                e.write = Some((d, row.to_vec()));
            }
            if let Some(p) = inst.pred_write {
                e.pred_write = Some((p, warp.preds[p as usize]));
            }
        }
        if let Some(e) = event {
            trace.event(Event::Issue(e));
        }
        // Control flow.
        let warp = self.warps[slot].as_mut().expect("live warp");
        if let Some((taken, target)) = branch {
            let fallthrough = active & !taken;
            self.stats.divergent_branches += 1;
            warp.stack.diverge(taken, target, fallthrough, pc + 1, inst.reconverge);
            if T::ENABLED {
                trace.event(Event::Diverge {
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    pc,
                    taken,
                    fallthrough,
                    target,
                    reconverge: inst.reconverge,
                });
            }
        } else if let Some(top) = warp.stack.top_mut()
            && top.pc == pc
        {
            top.pc = next_pc;
        }
        if let After::Barrier {
            id,
            expected,
            predicate,
        } = after
        {
            self.arrive(slot, pc, id, expected, exec, predicate, cycle, trace);
        }
        Ok(self.after_issue(slot, cycle, cycle + 1, trace))
    }

    /// The warp in `slot` arrives at barrier `id` with `lanes`.
    #[allow(clippy::too_many_arguments)]
    fn arrive<T: TraceSink>(
        &mut self,
        slot: usize,
        pc: u32,
        id: u32,
        expected: Option<u32>,
        lanes: u64,
        predicate: u64,
        cycle: u64,
        trace: &mut T,
    ) {
        let warp = self.warps[slot].as_mut().expect("live warp");
        warp.waiting = Some((id, pc));
        warp.next_issue = u64::MAX;
        warp.hold = Hold::Barrier;
        let (block_slot, block_id, warp_in_block) = (warp.block_slot, warp.block_id, warp.warp_in_block);
        let block = self.blocks[block_slot].as_mut().expect("block of a live warp");
        // The block's barrier unit takes each arrival in turn.
        block.barrier_free = block.barrier_free.max(cycle) + self.config.timing.units.barrier.interval as u64;
        let barrier = &mut block.barriers[id as usize];
        barrier.arrive(Waiter { slot, lanes }, expected, predicate);
        if T::ENABLED {
            trace.event(Event::BarrierArrive {
                cycle,
                block: block_id,
                warp: warp_in_block,
                pc,
                id,
                arrived: barrier.waiting.len() as u32,
                expected: barrier.expected_warps(block.warps_left),
            });
        }
        self.try_release(block_slot, id, cycle, trace);
    }

    /// Release barrier `id` of the block in `block_slot` if every expected warp is there.
    fn try_release<T: TraceSink>(&mut self, block_slot: usize, id: u32, cycle: u64, trace: &mut T) {
        let block = self.blocks[block_slot].as_mut().expect("resident block");
        let live = block.warps_left;
        if !block.barriers[id as usize].complete(live) {
            return;
        }
        let block_id = block.id;
        let (waiters, popc, all, any) = block.barriers[id as usize].release();
        let resume = block.barrier_free.max(cycle) + self.config.timing.units.barrier.latency as u64;
        self.stats.barriers += 1;
        self.end = self.end.max(resume);
        let w = self.w;
        let mut released = Vec::new();
        let mut result = BarrierResult::None;
        for waiter in &waiters {
            let warp = self.warps[waiter.slot].as_mut().expect("waiting warp");
            let pc = warp.waiting.take().map(|(_, pc)| pc).unwrap_or(0);
            warp.next_issue = resume;
            warp.hold = Hold::Barrier;
            if let Some(DOp::Bar { kind, .. }) = self.kernel.code.get(pc as usize).map(|i| i.op) {
                match kind {
                    DBar::Sync => {}
                    DBar::Popc(d) => {
                        result = BarrierResult::Popc(popc);
                        for_lanes(waiter.lanes, |lane| warp.regs[d as usize * w + lane as usize] = popc)
                    }
                    DBar::And(p) | DBar::Or(p) => {
                        let v = if matches!(kind, DBar::And(_)) { all } else { any };
                        result = if matches!(kind, DBar::And(_)) {
                            BarrierResult::And(v)
                        } else {
                            BarrierResult::Or(v)
                        };
                        warp.preds[p as usize] =
                            (warp.preds[p as usize] & !waiter.lanes) | if v { waiter.lanes } else { 0 };
                    }
                }
            }
            if T::ENABLED {
                released.push(warp.warp_in_block);
            }
        }
        if T::ENABLED {
            trace.event(Event::BarrierRelease {
                cycle,
                block: block_id,
                id,
                warps: released,
                resume,
                result,
            });
        }
    }

    /// Settle the SIMT stack; retire the warp (and its block) when no lanes are left. Returns whether a block
    /// finished.
    /// `finished_from`: the first cycle the warp, if it exits now, counts as finished.
    fn after_issue<T: TraceSink>(&mut self, slot: usize, cycle: u64, finished_from: u64, trace: &mut T) -> bool {
        let n = self.kernel.code.len() as u32;
        let warp = self.warps[slot].as_mut().expect("live warp");
        loop {
            if let Some(Merge::Reconverged { pc, mask }) = warp.stack.settle()
                && T::ENABLED
            {
                trace.event(Event::Reconverge {
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    pc,
                    mask,
                });
            }
            match warp.stack.top().copied() {
                // Lanes at the end of the program exit; a warp waiting at a barrier exits once released.
                // A warp still held (at a barrier, or resolving a branch) exits when it is next scheduled.
                Some(top) if top.pc >= n && warp.waiting.is_none() && warp.next_issue <= cycle + 1 => {
                    warp.stack.remove_lanes(top.mask)
                }
                _ => break,
            }
        }
        if !warp.stack.is_empty() {
            return false;
        }
        if T::ENABLED {
            trace.event(Event::WarpExit {
                cycle,
                block: warp.block_id,
                warp: warp.warp_in_block,
                waits: std::mem::take(&mut warp.waits),
            });
        }
        let block_slot = warp.block_slot;
        // Retire the warp's cycle breakdown; `finished` is known when the run ends.
        self.exited += 1;
        self.exit_sum += finished_from as u128;
        self.end = self.end.max(finished_from);
        self.stats.stalls.add(&warp.stalls);
        let global = warp.block_id as u64 * self.kernel.warps_per_block() as u64 + warp.warp_in_block as u64;
        if global < WARP_STALLS_KEPT as u64 {
            self.stats.warp_stalls.push(WarpStalls {
                block: warp.block_id,
                warp: warp.warp_in_block,
                stalls: Stalls {
                    finished: finished_from,
                    ..warp.stalls
                },
            });
        }
        let schedulers = self.by_age.len();
        self.by_age[slot % schedulers].retain(|&x| x != slot);
        self.warps[slot] = None;
        let block = self.blocks[block_slot].as_mut().expect("block of a live warp");
        block.warps_left -= 1;
        if block.warps_left == 0 {
            self.blocks[block_slot] = None;
            return true;
        }
        // Exited warps no longer hold back barriers.
        for id in 0..BARRIERS as u32 {
            self.try_release(block_slot, id, cycle, trace);
        }
        false
    }
}

/// The distinct cache lines a global access touches; for a load (`l1` given with the cycle, the hit and the
/// miss latency), also how many missed in L1 and when the last line's data arrives.
fn global_lines(
    global_base: &[u64],
    buffer: u16,
    words: &[usize; 64],
    exec: u64,
    line_bytes: u32,
    l1: Option<(&mut L1, u64, u64, u64)>,
) -> (u64, u64, u64) {
    let base = global_base[buffer as usize];
    let shift = line_bytes.trailing_zeros();
    let mut lines = [0u64; 64];
    let mut count = 0;
    for_lanes(exec, |lane| {
        lines[count] = (base + words[lane as usize] as u64 * 4) >> shift;
        count += 1;
    });
    let lines = &mut lines[..count];
    lines.sort_unstable();
    let mut distinct = 0u64;
    let mut misses = 0u64;
    let mut arrival = 0u64;
    let mut l1 = l1;
    let mut prev = None;
    for &line in lines.iter() {
        if prev == Some(line) {
            continue;
        }
        prev = Some(line);
        distinct += 1;
        if let Some((c, now, hit, miss)) = l1.as_mut() {
            let (was_hit, at) = c.load(line, *now, *now + *miss);
            misses += !was_hit as u64;
            arrival = arrival.max(at.max(*now + *hit));
        }
    }
    (distinct, misses, arrival)
}

/// Count a shared access and its bank conflict; returns the extra cycles it costs.
fn shared_access(stats: &mut Stats, per_way: u32, degree: u32) -> u64 {
    // A fully predicated-off access touches no bank.
    if degree == 0 {
        return 0;
    }
    stats.shared_accesses += 1;
    let extra = degree.saturating_sub(1) as u64 * per_way as u64;
    if degree > 1 {
        stats.bank_conflicts += 1;
        stats.bank_conflict_cycles += extra;
    }
    extra
}

/// What special registers read for a lane.
struct LaneCtx {
    w: u32,
    block: u32,
    warp_in_block: u32,
    ntid: u32,
    nctaid: u32,
    nwarps: u32,
    cycle: u64,
}

#[inline]
fn read(warp: &Warp, s: Src, lane: u32, ctx: &LaneCtx) -> u32 {
    match s {
        Src::Reg(r) => warp.regs[r as usize * ctx.w as usize + lane as usize],
        Src::Imm(v) => v,
        Src::Special(sp) => match sp {
            Special::LaneId => lane,
            Special::TidX => ctx.warp_in_block * ctx.w + lane,
            Special::NtidX => ctx.ntid,
            Special::CtaidX => ctx.block,
            Special::NctaidX => ctx.nctaid,
            Special::WarpId => ctx.warp_in_block,
            Special::NWarpId => ctx.nwarps,
            Special::WarpSize => ctx.w,
            Special::Clock => ctx.cycle as u32,
            // 32-bit lane masks: lanes 32–63 of a 64-lane warp are not representable.
            Special::LanemaskEq => 1u32.checked_shl(lane).unwrap_or(0),
            Special::LanemaskLt => 1u32.checked_shl(lane).map(|b| b - 1).unwrap_or(u32::MAX),
            Special::LanemaskLe => 1u32
                .checked_shl(lane + 1)
                .map(|b| b.wrapping_sub(1))
                .unwrap_or(u32::MAX),
            Special::LanemaskGt => u32::MAX.checked_shl(lane + 1).unwrap_or(0),
            Special::LanemaskGe => u32::MAX.checked_shl(lane).unwrap_or(0),
        },
    }
}

#[inline]
fn for_lanes(mask: u64, mut f: impl FnMut(u32)) {
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        f(lane);
    }
}

/// The word a lane accesses (in its buffer, or in the block's shared memory) and the element index in the
/// array, bounds- and alignment-checked.
#[inline]
fn locate(
    kernel: &Kernel,
    memory: &[Buffer],
    warp: &Warp,
    addr: DAddr,
    lane: u32,
    ctx: &LaneCtx,
    store: bool,
) -> Result<(usize, usize), FaultKind> {
    let (name, len, offset) = if addr.shared {
        let a = &kernel.shared[addr.buffer as usize];
        (&a.name, a.len, a.offset)
    } else {
        let b = &memory[addr.buffer as usize];
        (&b.name, b.data.len(), 0)
    };
    let base = addr.base.map(|b| read(warp, b, lane, ctx) as i32 as i64).unwrap_or(0);
    let offset_elems = base + addr.disp;
    let index = if addr.byte {
        if offset_elems.rem_euclid(4) != 0 {
            return Err(FaultKind::Misaligned {
                buffer: name.clone(),
                shared: addr.shared,
                byte_offset: offset_elems,
                store,
            });
        }
        offset_elems.div_euclid(4)
    } else {
        offset_elems
    };
    if index < 0 || index as usize >= len {
        return Err(FaultKind::OutOfBounds {
            buffer: name.clone(),
            shared: addr.shared,
            index,
            len,
            store,
        });
    }
    Ok((offset + index as usize, index as usize))
}

/// Locate the word every executing lane accesses (indexed by lane), before any lane touches memory; with
/// tracing, also the element index of each lane. A fault names the first faulting lane.
#[allow(clippy::type_complexity)]
fn locate_lanes<T: TraceSink>(
    kernel: &Kernel,
    memory: &[Buffer],
    warp: &Warp,
    addr: DAddr,
    exec: u64,
    ctx: &LaneCtx,
    store: bool,
) -> Result<([usize; 64], Vec<u64>), (FaultKind, u32)> {
    let mut words = [0usize; 64];
    let mut index = if T::ENABLED {
        vec![0u64; ctx.w as usize]
    } else {
        Vec::new()
    };
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let (word, k) = locate(kernel, memory, warp, addr, lane, ctx, store).map_err(|kind| (kind, lane))?;
        words[lane as usize] = word;
        if T::ENABLED {
            index[lane as usize] = k as u64;
        }
    }
    Ok((words, index))
}

/// A shared access's conflict degree and the extra cycles it costs (counted in the statistics); nothing for
/// global memory.
fn shared_cost(stats: &mut Stats, per_way: u32, banks: u32, addr: DAddr, words: &[usize; 64], exec: u64) -> (u32, u64) {
    if !addr.shared {
        return (0, 0);
    }
    let (compact, count) = compact_words(words, exec);
    let degree = shared_memory::conflict_degree(&compact[..count], banks);
    (degree, shared_access(stats, per_way, degree))
}

/// The words of the executing lanes, in lane order (from `words` indexed by lane).
#[inline]
fn compact_words(words: &[usize; 64], exec: u64) -> ([usize; 64], usize) {
    let mut compact = [0usize; 64];
    let mut count = 0;
    for_lanes(exec, |lane| {
        compact[count] = words[lane as usize];
        count += 1;
    });
    (compact, count)
}

/// The trace record of a memory access (`words` indexed by lane); only built when tracing.
#[allow(clippy::too_many_arguments)]
fn memory_trace(
    words: &[usize; 64],
    exec: u64,
    w: usize,
    banks: u32,
    addr: DAddr,
    store: bool,
    atomic: bool,
    index: Vec<u64>,
    degree: u32,
    same_address: u32,
) -> MemoryTrace {
    let mut lane_words = vec![0usize; w];
    for_lanes(exec, |lane| lane_words[lane as usize] = words[lane as usize]);
    MemoryTrace {
        shared: addr.shared,
        buffer: addr.buffer,
        store,
        atomic,
        index,
        banks: if addr.shared {
            lane_words.iter().map(|&wd| shared_memory::bank(wd, banks)).collect()
        } else {
            Vec::new()
        },
        degree,
        same_address,
    }
}

/// Source operand values of every lane, for the trace.
fn operand_values(inst: &DInstr, warp: &Warp, ctx: &LaneCtx) -> Vec<Vec<u32>> {
    let srcs: Vec<Src> = match inst.op {
        DOp::Mov { a, .. } | DOp::Un { a, .. } | DOp::Cvt { a, .. } => vec![a],
        DOp::Bin { a, b, .. } | DOp::Setp { a, b, .. } | DOp::Selp { a, b, .. } => vec![a, b],
        DOp::Tern { a, b, c, .. } => vec![a, b, c],
        DOp::St { a, .. } => vec![a],
        DOp::Shfl { a, b, .. } => vec![a, b],
        DOp::Atom { b, c, .. } => {
            let mut v = vec![b];
            v.extend(c);
            v
        }
        DOp::Match { a, .. } => vec![a],
        _ => vec![],
    };
    srcs.into_iter()
        .map(|s| (0..ctx.w).map(|lane| read(warp, s, lane, ctx)).collect())
        .collect()
}
