//! The streaming multiprocessor: it wires its units together and runs the issue loop.
//!
//! Hardware: an SM holds up to `max_blocks_per_sm` blocks and `max_warps_per_sm` warps (and as many blocks as
//! its shared memory fits, [`crate::block`]); its warps are split over `schedulers` sub-partitions (Hopper: 4),
//! each of which issues at most one warp instruction per cycle. Blocks are placed from the queue the distributor
//! ([`crate::gpu`]) deals the SM, in order, as its resources free up.
//!
//! Model: cycle-driven. Each cycle, each warp scheduler ([`crate::warp_scheduler`]) picks one of its warps whose
//! next instruction can issue (the warp is not held by a branch or a barrier, its operands are ready on the
//! scoreboard, its pipe accepts an instruction) and the SM issues it, one way through the units: the register
//! file reads its operands, the execute stage ([`crate::execute`]) gives its [`Outcome`], the sanitizers and the
//! statistics observe that, the timing model ([`crate::timing`]) prices it, the trace observes it, and the SM
//! commits it (the scoreboard, the pipe, the SIMT stack, the barrier unit). Semantics are applied at issue
//! (global writes reach other SMs, and global atomics' old values their registers, at the epoch's commit:
//! [`crate::gpu`]), so values never depend on timing; the timing parameters ([`crate::config::Timing`]) decide
//! when results are ready. When no warp can issue, time jumps to the next cycle at which one can; when no warp
//! ever can again, the warps are deadlocked at barriers. This SM's `end` is the cycle at which its last result
//! is complete; the run's cycles are the latest over all SMs. Every warp's cycles are accounted for
//! ([`crate::warp::Warp::account`], [`Stalls`]).

use crate::barrier::{self, Arrival, BARRIERS, Waiter};
use crate::block::{Block, BlockQueue, blocks_per_sm, room_for_another};
use crate::cache::{L1, L2View};
use crate::check::{AccessKind, Checks, Findings, GlobalAccess, UnorderedRead};
use crate::config::Config;
use crate::execute::{LaneScratch, Memory, Outcome, execute};
use crate::fault::{Fault, FaultKind, WaitingWarp};
use crate::its::{self, Rendezvous};
use crate::kernel::{Buffer, DInstr, DOp, Flat, Kernel, Pipe};
use crate::lsu::{Effect, Return, l1_bytes};
use crate::register_file::{LaneCtx, row_stride};
use crate::run::{RunOptions, Stalls, Stats, WARP_STALLS_KEPT, WarpStalls};
use crate::sanitizers::{self, Site, SmChecks, missing_barrier_hint};
use crate::scoreboard::Ready;
use crate::simt_stack::Merge;
use crate::timing::{Cost, MemoryTiming, price};
use crate::trace::{BarrierResult, EpochTrace, Event, Issue, TraceSink};
use crate::warp::{Hold, Warp};
use crate::warp_scheduler::{Schedule, WarpScheduler};
use rustc_hash::FxHashMap;

/// What every SM of a run shares, read-only: the kernel, the configuration and facts derived from them once.
pub(crate) struct Shared<'k> {
    pub kernel: &'k Kernel,
    pub config: &'k Config,
    /// Byte address of each global buffer (for cache lines): laid out in order, 256-byte aligned.
    global_base: Vec<u64>,
    /// The sectors the host's copy of the buffers leaves partly written in L2 (`memory.buffers_in_l2`): the last
    /// sector of each buffer whose bytes end inside it, and what their first access costs.
    partial: crate::cache::Partial,
    /// Where the threads' local memory lies (for cache lines), after the buffers: its base, bytes per warp
    /// (`local_words · W · 4`) and warps per block; warp `g` of the grid (block · warps per block + warp) at
    /// `base + g · bytes per warp`.
    pub(crate) local: [u64; 3],
    /// Global buffers the kernel both reads (`ld`, `atom`) and writes (`st`, `atom`): an SM keeps its own
    /// uncommitted writes to these in its overlay so that its later reads see them.
    overlay: Vec<bool>,
    /// With `--check race`: the global buffers whose accesses the race checker follows (those the kernel writes:
    /// nothing races on a buffer only read).
    pub race_global: Vec<bool>,
    l1_bytes: u64,
    /// Blocks of this kernel that fit on one SM at once.
    pub capacity: u32,
    pub checks: Checks,
    /// Whether any check runs (`checks.any()`, looked up once).
    pub sanitize: bool,
    pub schedule: Schedule,
    /// Independent thread scheduling ([`crate::Scheduling::Its`]).
    pub its: bool,
    /// The code the SMs execute: the kernel's with tracing, else [`Kernel::exec_code`] (registers in shared
    /// rows); the register rows of a warp; the rows a placed warp zeroes (`None`: all of them).
    pub code: &'k [DInstr],
    pub rows: usize,
    pub zeroed: Option<&'k [u16]>,
    /// Each register's scoreboard slot: its own with tracing, else [`Kernel::exec_slots`].
    pub slot: Vec<u16>,
    /// Set when a shuffle of [`Kernel::exec_code`] read a lane that does not execute it (or any other read
    /// the hardware leaves undefined): the value read is that lane's register, which shared rows do not keep,
    /// so the run is repeated with the program's own registers ([`crate::gpu::run_with`]).
    pub undefined_read: std::sync::atomic::AtomicBool,
    /// Per instruction of `code`: whether [`Sm::issue`] may run and price it by a shorter way ([`Quick`]). Only
    /// where nothing for the compiler's model, a check or independent thread scheduling is to be done at its
    /// issue (no scheduling flag but those the load model alone reads, with that model off; no check; lockstep):
    /// all [`Quick::No`] otherwise.
    quick: Vec<Quick>,
}

/// How [`Sm::issue`] may take an instruction, untraced: each shorter way does what the whole way does for such an
/// instruction (`tests/parallel.rs` compares runs traced, which take the whole way, and untraced).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quick {
    /// The whole way.
    No,
    /// It only computes lane values ([`crate::execute::is_plain`]).
    Plain,
    /// A shuffle, when the warp has no lanes on other paths (else the GPU's slow path for a diverged warp).
    Shuffle,
    /// A branch, when its lanes do not split (all or none of the active lanes take it).
    Branch { target: u32 },
}

impl Quick {
    fn of(inst: &DInstr) -> Quick {
        match inst.op {
            DOp::Shfl { .. } => Quick::Shuffle,
            DOp::Bra { target } => Quick::Branch { target },
            op if crate::execute::is_plain(op) && !inst.unit.holds_warp() => Quick::Plain,
            _ => Quick::No,
        }
    }
}

impl<'k> Shared<'k> {
    /// Scoreboard slots of a warp.
    pub fn slots(&self) -> usize {
        self.slot.iter().max().map_or(0, |&s| usize::from(s) + 1)
    }

    /// Whether the SMs execute [`Kernel::exec_code`] (registers in shared rows).
    pub fn shares_rows(&self) -> bool {
        self.zeroed.is_some()
    }

    pub fn new(
        kernel: &'k Kernel,
        config: &'k Config,
        memory: &[Buffer],
        options: &RunOptions,
        own_rows: bool,
    ) -> Shared<'k> {
        let mut global_base = Vec::with_capacity(memory.len());
        // 256-byte aligned like cudaMalloc's, and never two buffers in one cache line.
        let align = 256u64.max(u64::from(config.timing.memory.line_bytes));
        let mut next = 0u64;
        for b in memory {
            global_base.push(next);
            next += (b.data.len() as u64 * 4).div_ceil(align) * align;
        }
        let partial = partial_sectors(memory, &global_base, &config.timing.memory);
        let mut reads = vec![false; kernel.buffers.len()];
        let mut writes = vec![false; kernel.buffers.len()];
        for inst in &kernel.code {
            match inst.op {
                // A flat global or generic access may reach any buffer.
                DOp::Ld { addr, .. } | DOp::St { addr, .. } | DOp::Atom { addr, .. }
                    if matches!(addr.flat, Flat::Global | Flat::Generic) =>
                {
                    let store = !matches!(inst.op, DOp::Ld { .. });
                    let load = !matches!(inst.op, DOp::St { .. });
                    for r in &mut reads {
                        *r |= load;
                    }
                    for w in &mut writes {
                        *w |= store;
                    }
                }
                DOp::Ld { addr, .. } | DOp::St { addr, .. } | DOp::Atom { addr, .. }
                    if matches!(addr.flat, Flat::Shared | Flat::Local) => {}
                DOp::Ld { addr, .. } if !addr.shared => reads[addr.buffer as usize] = true,
                DOp::St { addr, .. } if !addr.shared => writes[addr.buffer as usize] = true,
                DOp::Atom { addr, .. } if !addr.shared => {
                    reads[addr.buffer as usize] = true;
                    writes[addr.buffer as usize] = true;
                }
                _ => {}
            }
        }
        let its = options.scheduling.or(kernel.program.scheduling) == Some(crate::Scheduling::Its);
        let code = if own_rows { &kernel.code } else { &kernel.exec_code };
        // (Block boundaries and memory fences matter only to the load model.)
        let ignored = if config.timing.hoist_loads {
            0
        } else {
            crate::kernel::sched::LEADER | crate::kernel::sched::FENCE_SHARED | crate::kernel::sched::FENCE_OTHER
        };
        let quick = code
            .iter()
            .map(|inst| {
                if its || options.checks.any() || inst.sched & !ignored != 0 {
                    Quick::No
                } else {
                    Quick::of(inst)
                }
            })
            .collect();
        Shared {
            kernel,
            config,
            global_base,
            partial,
            local: [
                next,
                kernel.local_words() as u64 * u64::from(kernel.warp_size) * 4,
                u64::from(kernel.warps_per_block()),
            ],
            overlay: reads.iter().zip(&writes).map(|(r, w)| *r && *w).collect(),
            race_global: writes.iter().map(|w| *w && options.checks.race).collect(),
            l1_bytes: l1_bytes(kernel, config),
            capacity: u32::try_from(blocks_per_sm(kernel, config)).expect("at most max_blocks_per_sm (a u32) blocks"),
            checks: options.checks,
            sanitize: options.checks.any(),
            schedule: options.schedule,
            its,
            // (The sanitizers name the program's registers too.)
            code,
            rows: if own_rows {
                kernel.program.regs.len()
            } else {
                kernel.exec_rows
            },
            zeroed: if own_rows { None } else { Some(&kernel.zeroed_rows) },
            #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
            slot: if own_rows {
                (0..kernel.program.regs.len()).map(|r| r as u16).collect()
            } else {
                kernel.exec_slots.clone()
            },
            undefined_read: std::sync::atomic::AtomicBool::new(false),
            quick,
        }
    }
}

/// The warp a limit names ([`Sm::busiest_warp`]): how many instructions it issued lately and in all, and where
/// it is (its next instruction, and the first lane that executes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Busiest {
    pub lately: u64,
    pub issued: u64,
    pub block: u32,
    pub warp: u32,
    pub lane: Option<u32>,
    pub pc: u32,
}

/// One streaming multiprocessor: its resident blocks and warps, schedulers, pipes, L1, and its uncommitted
/// global-memory writes. The engine ([`crate::gpu`]) runs every SM epoch by epoch.
pub(crate) struct Sm<'k> {
    /// This SM's index in the machine.
    pub id: u32,
    shared: &'k Shared<'k>,
    kernel: &'k Kernel,
    config: &'k Config,
    w: usize,
    /// Every lane of a warp, and the warps of a block (the launch's, for each instruction's [`LaneCtx`]).
    full: u64,
    nwarps: u32,
    l1: L1,
    /// Warp slots; slot `i` belongs to scheduler `i % schedulers`.
    warps: Vec<Option<Warp>>,
    /// Per warp slot: its warp's `stalls.issued` at the start of the previous epoch and of this one (moved on at
    /// each commit): what it issued lately, for naming the warp a limit stops ([`Sm::busiest_warp`]).
    issued_marks: Vec<[u64; 2]>,
    /// The last epoch's writes are committed and [`Sm::begin_epoch`] has not run since.
    epoch_ended: bool,
    /// The cycle the SM's last `run_until` would have gone on at, had its limit not stopped it: past `cycle`
    /// when it stopped at a limit with nothing to do there.
    wake: u64,
    /// The warp schedulers: which ready warp of each issues next ([`WarpScheduler`]).
    scheduler: WarpScheduler,
    blocks: Vec<Option<Block>>,
    /// Blocks dealt to this SM and not yet placed, in order.
    pub queue: BlockQueue,
    /// Blocks resident now, placed in the current epoch, and finished over the run.
    pub resident: u32,
    pub launched_this_epoch: u32,
    pub launched_last_epoch: u32,
    pub finished_blocks: u64,
    /// When each pipe accepts its next instruction: `Pipe::COUNT` per scheduler, then the SM-wide ones, then
    /// one that is always free (for a warp that only has to retire).
    pipe_free: Vec<u64>,
    pub stats: Stats,
    /// Exited warps, and the sum of (exit cycle + 1) over them: for the `finished` part of the breakdown.
    pub exited: u64,
    pub exit_sum: u128,
    /// Cycle at which the last result completes.
    pub end: u64,
    /// The next cycle to simulate.
    pub cycle: u64,
    warps_launched: u64,
    /// This epoch's global-memory writes, in issue order, and the values of those to overlay buffers.
    pub effects: Vec<Effect>,
    overlay: crate::lsu::Overlay,
    /// The global lines this SM brought into L2 this epoch (the engine merges them at the commit).
    pub l2_own: FxHashMap<u64, u64>,
    /// When the last line through the SM's fill port from L2 arrived (hundredths of a cycle, `Memory::fill_sector`).
    fill_port: u64,
    /// The lines of the kernel parameters' constant bank this SM has read in the launch, and when each is in its
    /// constant cache (`Memory::param_miss`).
    param_ready: Vec<(u32, u64)>,
    /// The SM's queue of global stores on their way to L2 (`Memory::store_drain`).
    stores: crate::lsu::Stores,
    /// With `RunOptions::profile`: the cycles of this SM's warps per instruction.
    pub profile: Option<crate::profile::Profile>,
    /// With tracing: this epoch's global atomics that return old values, as the events their values arrive in
    /// (filled at the commit, [`Sm::deliver`]).
    returning: Vec<Event>,
    /// The lanes' words and shuffle sources an instruction's outcome points into.
    scratch: LaneScratch,
    /// Storage of retired warps and blocks, reused by the next ones (no allocation per block).
    spare_warps: Vec<Warp>,
    spare_blocks: Vec<Block>,
    released: Vec<Waiter>,
    /// What the sanitizers found on this SM.
    pub findings: Findings,
    /// The first shared-memory read of a word another warp wrote since the block's last barrier, while no
    /// `--check race` runs (it finds these and more); `watch_unordered` stops looking once one is found.
    pub unordered: Option<UnorderedRead>,
    watch_unordered: bool,
    /// What `printf` printed on this SM, in issue order.
    pub printed: Vec<crate::run::Printed>,
    /// With `--check race`: this epoch's accesses to the global buffers the kernel writes, in issue order, for
    /// the check between blocks at the commit ([`check::GlobalCheck`]).
    pub global_log: Vec<GlobalAccess>,
}

impl<'k> Sm<'k> {
    pub fn new(id: u32, shared: &'k Shared<'k>) -> Sm<'k> {
        let (kernel, config) = (shared.kernel, shared.config);
        let slots = config.max_warps_per_sm.max(kernel.warps_per_block()) as usize;
        let schedulers = config.schedulers.max(1) as usize;
        let m = &config.timing.memory;
        Sm {
            id,
            shared,
            kernel,
            config,
            w: kernel.warp_size as usize,
            full: if kernel.warp_size == 64 {
                u64::MAX
            } else {
                (1u64 << kernel.warp_size) - 1
            },
            nwarps: kernel.warps_per_block(),
            l1: L1::new(shared.l1_bytes, m.line_bytes, m.sector_bytes, m.l1_ways),
            warps: (0..slots).map(|_| None).collect(),
            issued_marks: vec![[0; 2]; slots],
            epoch_ended: false,
            wake: 0,
            scheduler: WarpScheduler::new(slots, schedulers),
            blocks: Vec::new(),
            queue: BlockQueue::default(),
            resident: 0,
            launched_this_epoch: 0,
            launched_last_epoch: 0,
            finished_blocks: 0,
            pipe_free: vec![0; (schedulers + 1) * Pipe::COUNT + 1],
            stats: Stats::default(),
            exited: 0,
            exit_sum: 0,
            end: 0,
            cycle: 0,
            warps_launched: 0,
            effects: Vec::new(),
            overlay: crate::lsu::Overlay::default(),
            l2_own: FxHashMap::default(),
            fill_port: 0,
            param_ready: Vec::new(),
            stores: crate::lsu::Stores::new(config.schedulers as usize),
            profile: None,
            returning: Vec::new(),
            scratch: LaneScratch::default(),
            spare_warps: Vec::new(),
            spare_blocks: Vec::new(),
            released: Vec::new(),
            findings: Findings::default(),
            unordered: None,
            watch_unordered: !shared.checks.race && shared.kernel.shared_words > 0,
            printed: Vec::new(),
            global_log: Vec::new(),
        }
    }

    /// The `pipe_free` entry that is always free.
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "Pipe::COUNT pipes per scheduler and per SM, at most 64 schedulers"
    )]
    fn no_pipe(&self) -> u32 {
        (self.pipe_free.len() - 1) as u32
    }

    /// The live warp that issued the most instructions lately (since the start of the previous epoch), then the
    /// most in all, the first in slot order among equals: the likeliest to be in an endless loop. A warp that
    /// waits (at a barrier, or for a flag another warp sets) issues nothing meanwhile.
    pub fn busiest_warp(&self) -> Option<Busiest> {
        let mut best: Option<Busiest> = None;
        for (warp, marks) in self.warps.iter().zip(&self.issued_marks) {
            let Some(warp) = warp else { continue };
            let top = warp.stack.top();
            // (After a commit and before the SM runs again, the boundary's mark is pending: the previous one
            // is then the start of the previous epoch.)
            let since = if self.epoch_ended { marks[1] } else { marks[0] };
            let b = Busiest {
                lately: warp.stalls.issued - since,
                issued: warp.stalls.issued,
                block: warp.block_id,
                warp: warp.warp_in_block,
                lane: top.and_then(|t| (t.mask != 0).then(|| t.mask.trailing_zeros())),
                pc: top.map(|t| t.pc).unwrap_or(0),
            };
            if best.is_none_or(|x| (b.lately, b.issued) > (x.lately, x.issued)) {
                best = Some(b);
            }
        }
        best
    }

    /// Whether the SM has nothing to do until it is dealt more blocks.
    pub fn idle(&self) -> bool {
        self.resident == 0 && self.queue.is_empty()
    }

    /// Place queued blocks while the SM has room (block slots, warp slots, shared memory): resources are
    /// block-granular, so a block's exited warps do not free slots for another block.
    fn launch_blocks<const ON: bool>(&mut self, cycle: u64, trace: &mut EpochTrace<ON>) {
        let kernel = self.kernel;
        let per_block = kernel.warps_per_block() as usize;
        let schedulers = self.scheduler.count();
        let (nregs, npreds) = (kernel.program.regs.len(), kernel.program.preds.len());
        let checks = self.shared.checks;
        while let Some(id) = self.queue.front() {
            if !room_for_another(kernel, self.config, self.resident as usize, self.warps.len()) {
                break;
            }
            self.queue.pop_front();
            self.resident += 1;
            self.launched_this_epoch += 1;
            let slot = match self.blocks.iter().position(Option::is_none) {
                Some(s) => s,
                None => {
                    self.blocks.push(None);
                    self.blocks.len() - 1
                }
            };
            let mut block = self.spare_blocks.pop().unwrap_or_else(Block::new);
            block.place(id, kernel, self.watch_unordered, checks);
            self.blocks[slot] = Some(block);
            // Its warps take the first free warp slots.
            let mut k = 0;
            for warp_slot in 0..self.warps.len() {
                if k == per_block {
                    break;
                }
                if self.warps[warp_slot].is_some() {
                    continue;
                }
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a thread of the block (a u32 count), a warp size of at most 64"
                )]
                let (first_thread, w) = ((k * self.w) as u32, self.w as u32);
                let lanes = (kernel.block - first_thread).min(w);
                let mask = if lanes == 64 { u64::MAX } else { (1u64 << lanes) - 1 };
                let mut warp = self
                    .spare_warps
                    .pop()
                    .unwrap_or_else(|| Warp::new(self.shared.slots(), npreds));
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a warp of the block, fewer than its threads (a u32)"
                )]
                warp.place((slot, id, k as u32), self.warps_launched, mask, cycle);
                // With tracing every lane's row is shown, so every row starts at zero; without, only the rows
                // some lane may read before writing them.
                warp.rf.reset(
                    self.shared.rows,
                    npreds,
                    row_stride(kernel.warp_size),
                    self.shared.zeroed,
                );
                if kernel.local_words() != 0 {
                    warp.local.clear();
                    warp.local.resize(kernel.local_words() * kernel.warp_size as usize, 0);
                    // Its place among the grid's warps' local memory (for cache lines).
                    let [base, warp_bytes, warps_per_block] = self.shared.local;
                    warp.local_base = base + (u64::from(id) * warps_per_block + k as u64) * warp_bytes;
                }
                warp.shadow.reset(checks, nregs, npreds);
                self.warps_launched += 1;
                self.issued_marks[warp_slot] = [0; 2];
                if let Some(p) = &mut self.profile {
                    p.placed(warp_slot, &warp.stalls);
                }
                self.warps[warp_slot] = Some(warp);
                self.scheduler.by_age[warp_slot % schedulers].push(warp_slot);
                self.scheduler.placed(warp_slot);
                self.refresh(warp_slot);
                self.stats.warps += 1;
                k += 1;
            }
            if ON {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "the block's warps, fewer than its threads (a u32)"
                )]
                trace.event(Event::BlockLaunch {
                    cycle,
                    block: id,
                    warps: per_block as u32,
                    sm: self.id,
                });
            }
        }
    }

    /// When the warp in `slot` (of scheduler `s`) can issue its next instruction, and why not sooner: the
    /// operands' readiness and the pipe's.
    #[inline]
    fn readiness(&self, slot: usize) -> (Ready, u64) {
        self.scheduler.readiness(slot, &self.pipe_free)
    }

    /// Recompute the scheduler's view of the warp in `slot` after it changed (issued, arrived at or was
    /// released from a barrier, was placed or retired).
    #[inline(never)]
    fn refresh(&mut self, slot: usize) {
        self.refresh_inline(slot);
    }

    /// [`Sm::refresh`], inlined into the issue loop.
    #[inline(always)]
    fn refresh_inline(&mut self, slot: usize) {
        let s = self.scheduler.of(slot);
        let (no_pipe, per_sm) = (self.no_pipe(), self.scheduler.count());
        let (shared, switch) = (self.shared, self.config.timing.pipe_switch);
        let (ready, pipe, ops) = match self.warps[slot].as_mut() {
            None => (u64::MAX, 0, Ready::default()),
            Some(warp) => {
                let pc = warp.stack.top().map(|t| t.pc).unwrap_or(0) as usize;
                match shared.code.get(pc) {
                    // Past the last instruction the warp only has to exit.
                    None => (warp.next_issue, no_pipe, Ready::default()),
                    Some(inst) => {
                        let pipe = inst.unit.pipe();
                        let operands = warp.scoreboard.ready_at(inst, pipe, switch, &shared.slot);
                        let mut at = warp.next_issue.max(operands.at);
                        if inst.unit == crate::kernel::Unit::GlobalStore {
                            // A store waits for its warp's previous store's issue (`memory.store_drain.issue`): the
                            // stall breakdown's `unit_busy`.
                            at = at.max(warp.store_free);
                            warp.store_gate = warp.store_free;
                        }
                        let index = pipe_index(per_sm, s, pipe);
                        #[allow(
                            clippy::cast_possible_truncation,
                            reason = "Pipe::COUNT pipes per scheduler and per SM, at most 64 schedulers"
                        )]
                        (at, index as u32, operands)
                    }
                }
            }
        };
        self.scheduler.set(slot, ready, pipe, ops);
    }

    /// The profile's share of an issue: the cycles the warp in `slot` accounted since `before`, given to the
    /// instruction it issues (and the operand wait to the instruction whose result it waited for).
    #[cold]
    #[inline(never)]
    fn profile_issue(&mut self, slot: usize) {
        let (Some(p), Some(warp)) = (self.profile.as_mut(), self.warps[slot].as_ref()) else {
            return;
        };
        let pc = warp.stack.top().map_or(0, |t| t.pc);
        let Some(inst) = self.shared.code.get(pc as usize) else {
            return;
        };
        let deciding = || {
            warp.scoreboard.deciding(
                inst,
                inst.unit.pipe(),
                self.config.timing.pipe_switch,
                &self.shared.slot,
            )
        };
        p.attribute(slot, &warp.stalls, Some(pc), deciding);
        p.issued(slot, pc, [inst.write, inst.write2], inst.pred_write);
    }

    /// Whether the warp in `slot` is past the last instruction (it only has to exit).
    fn at_end(&self, slot: usize) -> bool {
        self.scheduler.pipe_of[slot] == self.no_pipe()
    }

    /// Retire the lanes of the warp in `slot` that are past the last instruction, at `cycle`, without using an
    /// issue slot. Returns whether its block finished.
    fn retire_at_end<const ON: bool>(
        &mut self,
        slot: usize,
        cycle: u64,
        ops: Ready,
        unit: u64,
        trace: &mut EpochTrace<ON>,
    ) -> bool {
        let warp = self.warps[slot].as_mut().expect("live warp");
        warp.account(cycle, ops, unit, false, ON);
        if let Some(p) = &mut self.profile {
            p.attribute(slot, &warp.stalls, None, || None);
        }
        if let Some(top) = warp.stack.top().copied() {
            warp.stack.remove_lanes(top.mask);
        }
        self.after_issue(slot, cycle, cycle, trace)
    }

    /// Simulate cycles up to (not including) `limit`, reading global memory from `mem` (as of the epoch's
    /// start) and this SM's own writes since, with the lines L2 held at the epoch's start (`l2`). Stops at the
    /// first fault.
    pub fn run_until<const ON: bool>(
        &mut self,
        limit: u64,
        (mem, l2): (&[Buffer], &crate::cache::LineSet),
        options: &RunOptions,
        trace: &mut EpochTrace<ON>,
    ) -> Result<(), Fault> {
        let mut cycle = self.cycle;
        if self.epoch_ended {
            self.begin_epoch();
        }
        if options.profile && self.profile.is_none() {
            let k = self.kernel;
            self.profile = Some(crate::profile::Profile::new(
                self.shared.code.len(),
                self.warps.len(),
                k.program.regs.len(),
                k.program.preds.len(),
            ));
        }
        self.launch_blocks(cycle, trace);
        let schedulers = self.scheduler.count();
        let (policy, schedule) = (self.config.scheduler_policy, self.shared.schedule);
        while cycle < limit && self.resident > 0 {
            // (Checked when the cycle is reached, not when a jump aims past it: a jump may cross an epoch.)
            if cycle > options.max_cycles {
                match self.past_limit(cycle, options.max_cycles) {
                    Ok(Some(wake)) => {
                        cycle = wake;
                        continue;
                    }
                    Ok(None) => {}
                    Err(fault) => return Err(fault),
                }
            }
            let mut issued = false;
            // A warp retired without issuing: others may now be able to go (a barrier completed).
            let mut retired = false;
            let mut earliest = u64::MAX;
            let mut finished_block = false;
            // The scheduler that looks first (and so gets the SM-wide pipes first) rotates every cycle (in
            // reverse, or in a random rotation, under those schedules).
            let (first, step) = schedule.turns(self.id, cycle, schedulers);
            let mut s = first % schedulers;
            for k in 0..schedulers {
                if k > 0 {
                    s += step;
                    if s >= schedulers {
                        s -= schedulers;
                    }
                }
                if self.scheduler.next[s] > cycle {
                    earliest = earliest.min(self.scheduler.next[s]);
                    continue;
                }
                let mut next = u64::MAX;
                let chosen = loop {
                    match self
                        .scheduler
                        .pick(s, cycle, &self.pipe_free, policy, schedule, self.id, &mut next)
                    {
                        Some(slot) if self.at_end(slot) => {
                            retired = true;
                            let (ops, unit) = self.readiness(slot);
                            finished_block |= self.retire_at_end(slot, cycle, ops, unit, trace);
                            self.refresh(slot);
                        }
                        other => break other,
                    }
                };
                match chosen {
                    // A random schedule holds a scheduler back now and then, so that warps meet in other orders.
                    Some(_)
                        if matches!(schedule, Schedule::Random { seed }
                            if Schedule::hold(seed, self.id, cycle, s)) =>
                    {
                        earliest = earliest.min(cycle + 1);
                    }
                    Some(slot) => {
                        let (ops, unit) = self.readiness(slot);
                        self.scheduler.issued(s, slot);
                        issued = true;
                        let warp = self.warps[slot].as_mut().expect("live warp");
                        warp.account(cycle, ops, unit, true, ON);
                        if self.profile.is_some() {
                            self.profile_issue(slot);
                        }
                        let done = self.issue(slot, s, cycle, (mem, l2), trace);
                        self.refresh_inline(slot);
                        if done? {
                            finished_block = true;
                        }
                    }
                    None => {
                        self.scheduler.next[s] = next;
                        earliest = earliest.min(next);
                    }
                }
            }
            if finished_block {
                self.launch_blocks(cycle + 1, trace);
            }
            if !issued && !retired && earliest == u64::MAX && self.resident > 0 {
                return Err(self.deadlock(cycle));
            }
            cycle = if issued || retired {
                cycle + 1
            } else {
                earliest.max(cycle + 1)
            };
        }
        // (A jump past the epoch resumes at its end: the next epoch may bring blocks.)
        self.wake = cycle;
        self.cycle = cycle.min(limit).max(self.cycle);
        if self.resident == 0 {
            self.cycle = limit;
        }
        Ok(())
    }

    /// The run is at `cycle`, past the cycle limit `max`: the fault, naming this SM's first warp (none: `Ok(None)`,
    /// go on). A traced run's short step may have stopped the SM here with nothing to do: an untraced run, whose
    /// steps are epochs, goes on to the SM's next cycle or the epoch's end, and so does this one
    /// (`Ok(Some(next))`).
    #[cold]
    #[inline(never)]
    fn past_limit(&self, cycle: u64, max: u64) -> Result<Option<u64>, Fault> {
        let Some(warp) = self.warps.iter().flatten().next() else {
            return Ok(None);
        };
        if cycle < self.wake && !cycle.is_multiple_of(self.config.epoch_cycles()) {
            return Ok(Some(self.wake));
        }
        Err(Fault {
            kind: FaultKind::CycleLimit { limit: max },
            cycle,
            block: warp.block_id,
            warp: warp.warp_in_block,
            lane: None,
            pc: warp.stack.top().map(|t| t.pc).unwrap_or(0),
            findings: Vec::new(),
        })
    }

    /// Commit-time delivery of an atomic's old value to its lane, if the warp is still there; with tracing, the
    /// value joins its atomic's return event.
    pub fn deliver(&mut self, ret: Return, old: u64, wide: bool) {
        if let Some(warp) = self.warps[ret.slot as usize].as_mut().filter(|x| x.uid == ret.uid) {
            warp.rf.write_at(ret.reg, wide, u32::from(ret.lane), old);
        }
        // (The memory system returns the value even to a warp that has exited meanwhile.)
        if let Some(Event::AtomicReturn { lanes, values, .. }) = self.returning.get_mut(ret.event as usize) {
            *lanes |= 1 << ret.lane;
            values[ret.lane as usize] = old;
        }
    }

    /// With tracing, after the commit: the return events of this epoch's global atomics (in cycle order) go to
    /// `later`, to be merged into the trace at their cycle.
    pub fn returned(&mut self, later: &mut Vec<Event>) {
        if self.returning.is_empty() {
            return;
        }
        // (Stable: atomics completing in one cycle stay in issue order.)
        self.returning.sort_by_key(Event::cycle);
        later.append(&mut self.returning);
        later.sort_by_key(Event::cycle);
    }

    /// The epoch's writes are committed: what the distributor needs now; the rest of the SM's bookkeeping
    /// waits for its next run ([`Sm::begin_epoch`]), on the SM's own thread, so that the commit between epochs
    /// (the engine's one serial part) stays short.
    pub fn end_epoch(&mut self) {
        self.effects.clear();
        self.launched_last_epoch = std::mem::take(&mut self.launched_this_epoch);
        self.epoch_ended = true;
    }

    /// The first run after a commit: forget the overlay of the committed epoch's writes, and mark each warp's
    /// instructions at the boundary (for [`Sm::busiest_warp`], which reads a pending mark as if it were made).
    fn begin_epoch(&mut self) {
        self.epoch_ended = false;
        for (warp, marks) in self.warps.iter().zip(&mut self.issued_marks) {
            if let Some(warp) = warp {
                *marks = [marks[1], warp.stalls.issued];
            }
        }
        self.overlay.clear();
        // Lines L2 is done with by now can delay no later atomic: forgotten, so the map holds only busy lines.
        if !self.stores.atomic_lines.is_empty() {
            let now = self.cycle;
            self.stores.atomic_lines.retain(|_, free| *free > now);
        }
    }

    /// Every live warp waits at a barrier that can no longer complete.
    fn deadlock(&self, cycle: u64) -> Fault {
        let mut waiting = Vec::new();
        for warp in self.warps.iter().flatten() {
            let block = self.blocks[warp.block_slot].as_ref().expect("block of a live warp");
            let (id, pc) = warp.waiting.unwrap_or((0, 0));
            let b = &block.barrier.barriers[id as usize];
            #[allow(
                clippy::cast_possible_truncation,
                reason = "warps of one block, at most max_warps_per_sm (4096)"
            )]
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
            findings: Vec::new(),
        }
    }

    /// Issue the next instruction of the warp in `slot`: read its operands, execute it, let the sanitizers and the
    /// trace observe what it did, price that, and commit it (the scoreboard, the pipe, the warp's control flow, a
    /// barrier arrival). Returns whether its block finished.
    // (Inlined into the issue loop, as its one caller: the checks made it large enough for LLVM to stop.)
    #[inline(always)]
    fn issue<const ON: bool>(
        &mut self,
        slot: usize,
        scheduler: usize,
        cycle: u64,
        (mem, l2): (&[Buffer], &crate::cache::LineSet),
        trace: &mut EpochTrace<ON>,
    ) -> Result<bool, Fault> {
        let kernel = self.kernel;
        let w = self.w;
        self.end = self.end.max(cycle + 1);
        let per_sm = self.scheduler.count();
        let pipe_index = |pipe: Pipe| pipe_index(per_sm, scheduler, pipe);
        let warp = self.warps[slot].as_mut().expect("live warp");
        let top = *warp.stack.top().expect("a warp with lanes has a stack entry");
        let pc = top.pc;
        let Some(inst) = self.shared.code.get(pc as usize) else {
            // Past the end (only when placed there at launch: an empty program): those lanes exit.
            warp.stack.remove_lanes(top.mask);
            return Ok(self.after_issue(slot, cycle, cycle + 1, trace));
        };
        let pipe_index = pipe_index(inst.unit.pipe());
        let mut active = top.mask;
        let guard = match inst.guard {
            None => u64::MAX,
            Some((p, neg)) => {
                let v = warp.rf.preds[p as usize];
                if neg { !v } else { v }
            }
        };
        let mut exec = active & guard;
        #[allow(clippy::cast_possible_truncation, reason = "a warp size is at most 64")]
        let ctx = LaneCtx {
            consts: &kernel.consts,
            w: w as u32,
            full: self.full,
            block: warp.block_id,
            warp_in_block: warp.warp_in_block,
            ntid: kernel.block_dim,
            nctaid: kernel.grid_dim,
            nwarps: self.nwarps,
            cycle,
            sm: self.id,
        };
        // The shorter ways (`Shared::quick`): executed and priced as below, without the rest.
        let quick = if ON {
            None
        } else {
            match self.shared.quick[pc as usize] {
                Quick::Plain => {
                    crate::execute::plain(inst.op, &mut warp.rf, &ctx, exec, &mut self.scratch.rows);
                    Some(pc + 1)
                }
                Quick::Branch { target } if exec == 0 || exec == active => {
                    Some(if exec == 0 { pc + 1 } else { target })
                }
                Quick::Shuffle if warp.stack.live() & !active == 0 => {
                    let DOp::Shfl {
                        mode,
                        d,
                        p,
                        a,
                        b,
                        clamp,
                        segmask,
                        from,
                        member,
                    } = inst.op
                    else {
                        unreachable!("a shuffle")
                    };
                    let scratch = &mut self.scratch;
                    let member = member.lanes(&warp.rf, &ctx, exec);
                    let x = crate::shuffle::execute(
                        &mut warp.rf,
                        &ctx,
                        (mode, d, p, a, b),
                        (clamp, segmask, from, member),
                        exec,
                        (&mut scratch.sources, &mut scratch.rows),
                    );
                    exchanged(&mut self.stats, self.shared, x.undefined);
                    Some(pc + 1)
                }
                _ => None,
            }
        };
        if let Some(next_pc) = quick {
            self.stats.warp_instructions += 1;
            self.stats.lane_instructions += u64::from(exec.count_ones());
            let cost = crate::timing::unit_cost(inst, &self.config.timing);
            let done = cycle + cost.latency;
            warp.scoreboard.reserve(
                inst,
                (inst.unit.pipe(), self.config.timing.pipe_switch),
                (cycle, done),
                0,
                &self.shared.slot,
            );
            if inst.write.is_some() || inst.pred_write.is_some() {
                self.end = self.end.max(done);
            }
            self.pipe_free[pipe_index] = cycle + cost.occupancy;
            warp.next_issue = cycle + cost.next_issue(next_pc != pc + 1, false);
            warp.hold = Hold::Control;
            // (`after_issue`, with the stack's top at hand.)
            let on_its_way = warp.stack.top_mut().is_some_and(|top| {
                top.pc = next_pc;
                top.on_its_way(kernel_len(kernel))
            });
            return Ok(!on_its_way && self.settle_after_issue(slot, cycle, cycle + 1, trace));
        }
        // Whether this instruction completes a meeting of diverged paths at a warp-synchronous instruction, and
        // whether it runs on one path of a diverged warp (the GPU's slow path either way).
        let mut diverged_sync = false;
        // (A path the meeting another path completed released pays nothing more.)
        let partial_sync = its::is_warp_sync(inst)
            && warp.stack.live() & !active != 0
            && !(self.shared.its && exec & !warp.stack.released == 0);
        if self.shared.its && its::is_warp_sync(inst) {
            warp.stack.synced = 0;
            if exec != 0 {
                match its::rendezvous(
                    self.shared.code,
                    &mut warp.stack,
                    &warp.rf,
                    inst,
                    pc,
                    (active, exec),
                    &ctx,
                ) {
                    Rendezvous::Go { joined, across } => {
                        // (With an exchange across instructions, the results wait in the stack's mail: the
                        // execute stage delivers them, `its::deliver`.)
                        active |= joined;
                        exec = active & guard;
                        diverged_sync = across;
                    }
                    Rendezvous::Wait => {
                        // The path waits; another path of the warp issues next.
                        warp.next_issue = cycle + 1;
                        let n = kernel_len(kernel);
                        its::next_path(warp, n, self.shared.checks.race, cycle, trace);
                        return Ok(self.after_issue(slot, cycle, cycle + 1, trace));
                    }
                    Rendezvous::Fault(kind) => {
                        return Err(Fault {
                            kind,
                            cycle,
                            block: ctx.block,
                            warp: ctx.warp_in_block,
                            lane: Some(exec.trailing_zeros()),
                            pc,
                            findings: Vec::new(),
                        });
                    }
                }
            }
        }
        let at = Site {
            sm: self.id,
            pc,
            active,
            exec,
        };
        self.stats.warp_instructions += 1;
        self.stats.lane_instructions += u64::from(exec.count_ones());
        // Operand read: the trace keeps the sources, `--check init` looks for unwritten ones.
        #[allow(clippy::cast_possible_truncation, reason = "at most 64 schedulers")]
        let mut event = ON.then(|| {
            Box::new(Issue {
                cycle,
                scheduler: scheduler as u32,
                block: warp.block_id,
                warp: warp.warp_in_block,
                pc,
                active,
                exec,
                operands: warp.rf.operand_rows(&kernel.described[pc as usize], &ctx),
                write: None,
                pred_write: None,
                shuffle: None,
                memory: None,
                complete: cycle,
                waits: std::mem::take(&mut warp.waits),
            })
        });
        let checks = self.shared.checks;
        // (Built only where a check runs: the issue loop with the checks off pays one test.)
        macro_rules! sanitizers {
            () => {
                &mut SmChecks {
                    checks,
                    kernel,
                    findings: &mut self.findings,
                    global_log: &mut self.global_log,
                    race_global: &self.shared.race_global,
                }
            };
        }
        if self.shared.sanitize {
            if checks.init {
                sanitizers::operands(sanitizers!(), &at, inst, &warp.shadow, &warp.rf, &ctx);
            }
            if checks.sync {
                // (Under ITS the named lanes on other paths were waited for: none is absent.)
                let live = if self.shared.its { 0 } else { warp.stack.live() };
                sanitizers::member_mask(sanitizers!(), &at, inst, &warp.rf, live, &ctx);
            }
        }
        // Execute.
        let block = self.blocks[warp.block_slot].as_mut().expect("block of a live warp");
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a warp slot (at most 4096); an atomic return per instruction of an epoch (at most 10^6 cycles, 64 issues each)"
        )]
        let memory = Memory {
            global: mem,
            shared: &mut block.shared,
            own: &mut self.overlay,
            overlaid: &self.shared.overlay,
            effects: &mut self.effects,
            local: &mut warp.local,
            returns: (slot as u32, warp.uid, self.returning.len() as u32),
        };
        let scratch = &mut self.scratch;
        let outcome = execute::<ON>(kernel, inst, &mut warp.rf, &warp.stack, memory, scratch, &ctx, exec).map_err(
            |(kind, lane)| Fault {
                kind,
                cycle,
                block: ctx.block,
                warp: ctx.warp_in_block,
                lane,
                pc,
                findings: Vec::new(),
            },
        )?;
        // The sanitizers and the statistics observe what it did.
        if self.shared.sanitize {
            sanitizers::observe(
                sanitizers!(),
                &at,
                inst,
                &outcome,
                &mut warp.shadow,
                &mut block.check,
                &ctx,
            );
        }
        match &outcome {
            Outcome::Access(m) => {
                self.stats.atomics += u64::from(m.kind == AccessKind::Atomic && exec != 0);
                if self.watch_unordered {
                    let generation = block.barrier.generation;
                    self.unordered = missing_barrier_hint(kernel, &mut block.writers, generation, &at, m, &ctx);
                    self.watch_unordered = self.unordered.is_none();
                }
            }
            Outcome::Printed(texts) => {
                self.printed
                    .extend(texts.iter().map(|(lane, text)| crate::run::Printed {
                        cycle,
                        block: ctx.block,
                        warp: ctx.warp_in_block,
                        lane: *lane,
                        text: text.clone(),
                    }));
            }
            Outcome::Exchange(x) => exchanged(&mut self.stats, self.shared, x.undefined),
            _ => {}
        }
        // Price it.
        // The compiler's load scheduling: where a load could have started in its basic block.
        let sched = inst.sched;
        let mut from = cycle;
        // A read of the kernel's parameters: the SM's first of the launch misses the constant cache.
        // (And the cycles the warp waits for them: those ptxas reads right before a use.)
        let (mut param_wait, mut param_hold) = (0, 0);
        {
            use crate::kernel::sched::{PARAM, PARAM_BLOCK, PARAM_USE};
            if sched & (PARAM | PARAM_BLOCK | PARAM_USE) != 0 {
                let lines = &self.shared.kernel.param_line;
                (param_wait, param_hold) = params(&mut self.param_ready, warp, lines, (sched, pc), self.config, cycle);
            }
        }
        if sched & crate::kernel::sched::UNROLLED != 0 {
            let t = &self.config.timing;
            if warp.unrolled.begins_pass(pc, warp.stalls.issued, t.runtime_unroll_body) {
                if warp.unrolled.left == 0 {
                    // (A kernel instantiated with unrolling and run on a configuration without: a pass a group.)
                    let passes =
                        unrolled_group(kernel, self.shared.code, &warp.rf, (pc, active, &ctx), t.runtime_unroll);
                    warp.unrolled.group(passes.max(1), cycle);
                }
                warp.unrolled.left -= 1;
            }
            from = warp.unrolled.from(cycle);
        }
        if sched != 0 && self.config.timing.hoist_loads {
            if sched & crate::kernel::sched::LEADER != 0 {
                warp.load_floor = [cycle; 2];
            }
            let loads = sched & (crate::kernel::sched::LOAD_SHARED | crate::kernel::sched::LOAD_OTHER);
            if loads != 0 {
                let floor = match loads {
                    crate::kernel::sched::LOAD_SHARED => warp.load_floor[0],
                    crate::kernel::sched::LOAD_OTHER => warp.load_floor[1],
                    _ => warp.load_floor[0].max(warp.load_floor[1]),
                };
                let operands = warp.scoreboard.operands_at(
                    inst,
                    inst.unit.pipe(),
                    self.config.timing.pipe_switch,
                    &self.shared.slot,
                );
                from = (floor + 1).max(operands).min(from);
            }
            if sched & crate::kernel::sched::FENCE_SHARED != 0 {
                warp.load_floor[0] = cycle;
            }
            if sched & crate::kernel::sched::FENCE_OTHER != 0 {
                warp.load_floor[1] = cycle;
            }
        }
        let banks = self.config.shared_banks;
        let base = self.fill_port;
        let (l1, own, port, config) = (&mut self.l1, &mut self.l2_own, &mut self.fill_port, self.config);
        let (global_base, local_base) = (&self.shared.global_base, warp.local_base);
        let stores = (&mut self.stores, scheduler);
        let partial = &self.shared.partial;
        let lsu = once(move || MemoryTiming {
            banks,
            w: kernel.warp_size,
            l1,
            l2: L2View {
                committed: l2,
                own,
                hit: u64::from(config.timing.memory.l1_miss_latency),
                first: config.timing.memory.first_miss(),
                partial,
                port,
                base,
                fill: u64::from(config.timing.memory.fill_sector),
                sectors: 0,
            },
            global_base,
            local_base,
            stores,
        });
        let mut priced = if sched & crate::kernel::sched::DEAD == 0 {
            price(&outcome, inst, &self.config.timing, lsu, &mut self.stats, from, exec)
        } else {
            drop(lsu);
            dead_price(&mut self.stats)
        };
        if from < cycle {
            // Priced from where it could have started: its result is ready that much sooner (never before the
            // cycle after it issues).
            priced.cost.latency = (from + priced.cost.latency).saturating_sub(cycle).max(1);
        }
        priced.cost.latency += param_wait;
        // A `YIELD` before it (a loop's first atomic, `sched::YIELD`): the warp waits before it issues.
        let yield_stall = if sched & crate::kernel::sched::YIELD != 0 {
            yield_hold(&self.config.timing, &warp.stack, active)
        } else {
            0
        };
        priced.cost.latency += yield_stall;
        if partial_sync && !diverged_sync {
            // The `WARPSYNC` of the GPU's slow path runs before the instruction: its result comes that much later.
            priced.cost.latency += u64::from(self.config.timing.warp_sync_partial);
        }
        // A pass's loop control that ptxas's unrolled code does not have (another pass of its group follows): its
        // issue slot only, and no redirect.
        let removed = sched & crate::kernel::sched::UNROLLED_CONTROL != 0 && warp.unrolled.left > 0;
        if removed {
            priced.cost.latency = 1;
        }
        let cost = priced.cost;
        if let Some(mut e) = event.take() {
            e.observe(inst, &outcome, &priced, &warp.rf, &block.shared, w, banks);
            if let Some(reg) = outcome.returns_at_commit(inst)
                && exec != 0
            {
                // Its old values arrive at the commit ([`Sm::deliver`]).
                self.returning.push(Event::AtomicReturn {
                    cycle: e.complete,
                    block: e.block,
                    warp: e.warp,
                    pc,
                    reg,
                    lanes: 0,
                    values: vec![0; w],
                });
            }
            trace.event(Event::Issue(e));
        }
        // Commit: the scoreboard, the pipe and the warp's next issue. The run lasts until the last result
        // (register, predicate or memory) is complete.
        let done = cycle + cost.latency;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "at most 63 replays of at most 1000000 cycles (Config::validate)"
        )]
        warp.scoreboard.reserve(
            inst,
            (inst.unit.pipe(), self.config.timing.pipe_switch),
            (cycle, done),
            cost.replays as u32,
            &self.shared.slot,
        );
        if inst.write.is_some() || inst.pred_write.is_some() || matches!(inst.op, DOp::St { .. } | DOp::Atom { .. }) {
            self.end = self.end.max(done);
        }
        self.pipe_free[pipe_index] = cycle + cost.occupancy;
        // Control flow: the SIMT stack follows a branch (splitting the warp when its lanes disagree), exits, and
        // moves on to the next instruction.
        let mut next_pc = pc + 1;
        let mut diverged = None;
        match outcome {
            Outcome::Branch { taken, target } if taken != 0 => {
                if taken == active {
                    next_pc = target;
                } else {
                    diverged = Some((taken, target));
                }
            }
            Outcome::Exit { lanes } => warp.stack.remove_lanes(lanes),
            Outcome::WarpSync { .. } | Outcome::Barrier(_) | Outcome::Branch { .. } => {}
            Outcome::Lanes | Outcome::Access(_) | Outcome::Exchange(_) | Outcome::Printed(_) => {}
            Outcome::SlowPath | Outcome::Subroutine => {}
        }
        // A subroutine of the warp's own (a 64-bit division, a compare-and-swap loop, `printf`, or an IEEE
        // division's or square root's slow path) holds it.
        let hold = inst.unit.holds_warp() || matches!(outcome, Outcome::SlowPath | Outcome::Subroutine);
        warp.next_issue = cycle
            + cost.next_issue((diverged.is_some() || next_pc != pc + 1) && !removed, hold)
            + yield_stall
            + param_hold;
        if priced.hold != 0 {
            warp.store_free = cycle + priced.hold;
        }
        if sched & crate::kernel::sched::DEBUG != 0 {
            warp.next_issue = warp
                .next_issue
                .max(cycle + debug_hold(&self.config.timing, kernel, inst, pc, &cost));
        }
        // The convergence barrier: each path pays `BSYNC` at a join; a divergent branch makes two paths.
        if (sched & crate::kernel::sched::JOIN != 0) || diverged.is_some() {
            warp.next_issue += u64::from(self.config.timing.convergence_barrier);
        }
        if diverged_sync {
            // The GPU gathers lanes from diverged paths on a slow path (a `WARPSYNC` behind `BRA.DIV`).
            warp.next_issue = warp
                .next_issue
                .max(cycle + u64::from(self.config.timing.warp_sync_diverged));
        } else if partial_sync {
            warp.next_issue = warp
                .next_issue
                .max(cycle + u64::from(self.config.timing.warp_sync_partial));
        }
        warp.hold = Hold::Control;
        if let Some((taken, target)) = diverged {
            let fallthrough = active & !taken;
            self.stats.divergent_branches += 1;
            let release = sched & (crate::kernel::sched::RELEASE_TAKEN | crate::kernel::sched::RELEASE_FALLTHROUGH);
            let mut released = 0;
            let reconverge = if release != 0 && !self.shared.its {
                // Out of a loop with a `YIELD`: the leaving lanes run on alone (first) to the decoder's join, or to
                // the current entry's own if that comes first; the warp pays for switching to them and back.
                warp.next_issue += u64::from(self.config.timing.yield_release);
                let join = inst.reconverge.min(warp.stack.top().map_or(u32::MAX, |t| t.reconverge));
                if release & crate::kernel::sched::RELEASE_TAKEN != 0 {
                    warp.stack.release(taken, target, fallthrough, pc + 1, join);
                    released = taken;
                } else {
                    warp.stack.release(fallthrough, pc + 1, taken, target, join);
                    released = fallthrough;
                }
                join
            } else {
                // (Under ITS too, a way out of a `YIELD` loop joins at the decoder's join or at the current entry's
                // own reconvergence pc if that comes first: a join past it would leave the entry's lanes apart from
                // its siblings', which wait there.)
                let reconverge = if release == 0 {
                    inst.reconverge
                } else {
                    capped_join(inst.reconverge, &warp.stack)
                };
                warp.stack.diverge(taken, target, fallthrough, pc + 1, reconverge);
                reconverge
            };
            if ON {
                trace.event(Event::Diverge {
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    pc,
                    taken,
                    fallthrough,
                    target,
                    reconverge,
                    released,
                });
            }
        } else if let Some(top) = warp.stack.top_mut()
            && top.pc == pc
        {
            top.pc = next_pc;
        }
        if let Outcome::Barrier(a) = outcome {
            self.arrive(slot, pc, a, exec, cycle, trace);
        }
        if self.shared.its {
            // ITS: the next path goes to the top (paths at their reconvergence pc arrive there).
            let warp = self.warps[slot].as_mut().expect("live warp");
            its::next_path(warp, kernel_len(kernel), self.shared.checks.race, cycle, trace);
        }
        Ok(self.after_issue(slot, cycle, cycle + 1, trace))
    }

    /// The warp in `slot` arrives at a barrier (`arrival`) with `lanes`.
    fn arrive<const ON: bool>(
        &mut self,
        slot: usize,
        pc: u32,
        arrival: Arrival,
        lanes: u64,
        cycle: u64,
        trace: &mut EpochTrace<ON>,
    ) {
        let Arrival {
            id,
            expected,
            predicate,
            waits,
        } = arrival;
        let warp = self.warps[slot].as_mut().expect("live warp");
        if waits {
            warp.waiting = Some((id, pc));
            warp.next_issue = u64::MAX;
            warp.hold = Hold::Barrier;
        }
        let (block_slot, block_id, warp_in_block) = (warp.block_slot, warp.block_id, warp.warp_in_block);
        let block = self.blocks[block_slot].as_mut().expect("block of a live warp");
        if !waits && self.shared.checks.race {
            block.check.arrive(id, warp_in_block);
        }
        // The block's barrier unit takes each arrival in turn.
        let interval = u64::from(self.config.timing.units.barrier.interval);
        let (arrived, expected) = block.barrier.arrive(
            id,
            Waiter { slot, lanes, waits },
            (expected, predicate),
            block.warps_left,
            cycle,
            interval,
        );
        if ON {
            trace.event(Event::BarrierArrive {
                cycle,
                block: block_id,
                warp: warp_in_block,
                pc,
                id,
                arrived,
                expected,
            });
        }
        self.try_release(block_slot, id, cycle, trace);
    }

    /// Release barrier `id` of the block in `block_slot` if every expected warp is there.
    #[inline(always)]
    fn try_release<const ON: bool>(&mut self, block_slot: usize, id: u32, cycle: u64, trace: &mut EpochTrace<ON>) {
        let block = self.blocks[block_slot].as_mut().expect("resident block");
        let latency = u64::from(self.config.timing.units.barrier.latency);
        let Some(release) = block
            .barrier
            .try_release(id, block.warps_left, cycle, latency, &mut self.released)
        else {
            return;
        };
        let block_id = block.id;
        let waiters = std::mem::take(&mut self.released);
        let resume = release.resume;
        self.stats.barriers += 1;
        self.end = self.end.max(resume);
        if self.shared.checks.race {
            // The released warps are ordered after everything each of them did before the barrier.
            let warps = &self.warps;
            let in_block = waiters
                .iter()
                .filter(|x| x.waits)
                .filter_map(|x| warps[x.slot].as_ref().map(|warp| warp.warp_in_block));
            block.check.barrier(id, in_block);
        }
        let mut released = Vec::new();
        let mut result = BarrierResult::None;
        for waiter in waiters.iter().filter(|x| x.waits) {
            let warp = self.warps[waiter.slot].as_mut().expect("waiting warp");
            let pc = warp.waiting.take().map(|(_, pc)| pc).unwrap_or(0);
            if self.shared.checks.race {
                warp.shadow.sync.sync(waiter.lanes);
            }
            warp.next_issue = resume;
            warp.hold = Hold::Barrier;
            if let Some(DOp::Bar { kind, .. }) = self.shared.code.get(pc as usize).map(|i| i.op) {
                let r = barrier::reduction(&mut warp.rf, kind, waiter.lanes, &release);
                if r != BarrierResult::None {
                    result = r;
                }
            }
            if ON {
                released.push(warp.warp_in_block);
            }
        }
        for waiter in waiters.iter().filter(|x| x.waits) {
            self.refresh(waiter.slot);
        }
        let mut waiters = waiters;
        waiters.clear();
        self.released = waiters;
        if ON {
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
    #[inline(always)]
    fn after_issue<const ON: bool>(
        &mut self,
        slot: usize,
        cycle: u64,
        finished_from: u64,
        trace: &mut EpochTrace<ON>,
    ) -> bool {
        // Most instructions leave the stack's top on its way (lanes, inside the program, short of its
        // reconvergence pc): nothing to settle, nobody exits.
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a program has at most 2^16 instructions (the assembler's limit)"
        )]
        let n = self.kernel.code.len() as u32;
        if let Some(warp) = self.warps[slot].as_ref()
            && warp.stack.on_its_way(n)
        {
            return false;
        }
        self.settle_after_issue(slot, cycle, finished_from, trace)
    }

    /// [`Sm::after_issue`] where the stack's top may have to settle.
    #[inline(never)]
    fn settle_after_issue<const ON: bool>(
        &mut self,
        slot: usize,
        cycle: u64,
        finished_from: u64,
        trace: &mut EpochTrace<ON>,
    ) -> bool {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a program has at most 2^16 instructions (the assembler's limit)"
        )]
        let n = self.kernel.code.len() as u32;
        let warp = self.warps[slot].as_mut().expect("live warp");
        loop {
            let merge = warp.stack.settle(n);
            reconverged(warp, merge, self.shared.checks.race, cycle, trace);
            match warp.stack.top().copied() {
                // Lanes at the end of the program exit; a warp waiting at a barrier exits once released.
                // A warp still held (at a barrier, or resolving a branch) exits when it is next scheduled.
                Some(top) if top.pc >= n && warp.waiting.is_none() && warp.next_issue <= cycle + 1 => {
                    warp.stack.remove_lanes(top.mask);
                }
                _ => break,
            }
        }
        if !warp.stack.is_empty() {
            return false;
        }
        if ON {
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
        self.exit_sum += u128::from(finished_from);
        self.end = self.end.max(finished_from);
        self.stats.stalls.add(&warp.stalls);
        let global =
            u64::from(warp.block_id) * u64::from(self.kernel.warps_per_block()) + u64::from(warp.warp_in_block);
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
        let schedulers = self.scheduler.count();
        self.scheduler.by_age[slot % schedulers].retain(|&x| x != slot);
        // The storage is kept for the next block's warps while blocks wait for this SM; when none does, it is
        // dropped (keeping it would grow the spares, moving every warp kept so far, for nothing).
        let reuse = !self.queue.is_empty();
        if let Some(warp) = self.warps[slot].take()
            && reuse
        {
            self.spare_warps.push(warp);
        }
        let block = self.blocks[block_slot].as_mut().expect("block of a live warp");
        block.warps_left -= 1;
        if block.warps_left == 0 {
            if let Some(block) = self.blocks[block_slot].take()
                && reuse
            {
                // (Its barrier unit is reset when the storage is next placed.)
                self.spare_blocks.push(block);
            }
            self.resident -= 1;
            self.finished_blocks += 1;
            return true;
        }
        // Exited warps no longer hold back barriers.
        #[allow(clippy::cast_possible_truncation, reason = "BARRIERS is 16")]
        for id in 0..BARRIERS as u32 {
            self.try_release(block_slot, id, cycle, trace);
        }
        false
    }
}

/// The number of instructions of `kernel` (a program has at most 2^16).
#[allow(
    clippy::cast_possible_truncation,
    reason = "a program has at most 2^16 instructions (the assembler's limit)"
)]
fn kernel_len(kernel: &Kernel) -> u32 {
    kernel.code.len() as u32
}

/// A merge of diverged lanes (`merge`, from the SIMT stack): the race checker's lanes synchronise, and the trace
/// shows it.
#[inline(always)]
pub(crate) fn reconverged<const ON: bool>(
    warp: &mut Warp,
    merge: Option<Merge>,
    race: bool,
    cycle: u64,
    trace: &mut EpochTrace<ON>,
) {
    if let Some(Merge::Reconverged { pc, mask }) = merge {
        if race {
            warp.shadow.sync.sync(mask);
        }
        if ON {
            trace.event(Event::Reconverge {
                cycle,
                block: warp.block_id,
                warp: warp.warp_in_block,
                pc,
                mask,
            });
        }
    }
}

/// A shuffle's statistics, its `undefined` reads among them. Such a read of a register in shared rows makes the
/// run start again with the program's own registers (`Shared::undefined_read`).
#[inline(always)]
fn exchanged(stats: &mut crate::run::Stats, shared: &Shared, undefined: u64) {
    stats.shuffles += 1;
    stats.undefined_shuffle_reads += u64::from(undefined.count_ones());
    if undefined != 0 && shared.shares_rows() {
        shared.undefined_read.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Index of `pipe`'s entry in an SM's `pipe_free` for scheduler `s`, with `per_sm` schedulers (the SM-wide pipes
/// after theirs).
#[inline(always)]
fn pipe_index(per_sm: usize, s: usize, pipe: Pipe) -> usize {
    let s = if pipe.per_sm() { per_sm } else { s };
    s * Pipe::COUNT + pipe as usize
}

/// `f`, typed as called once (a closure that hands out the references it holds is inferred `FnMut` otherwise).
#[inline(always)]
fn once<T>(f: impl FnOnce() -> T) -> impl FnOnce() -> T {
    f
}

/// The sectors the host's copy of `memory` (at `base`) leaves partly written in L2 while the buffers start there
/// (`memory.buffers_in_l2`): a buffer whose bytes end inside a sector (of `memory.sector_bytes`, at most a line)
/// has its last sector so. With what the first access to one costs.
fn partial_sectors(memory: &[Buffer], base: &[u64], m: &crate::config::Memory) -> crate::cache::Partial {
    let mut out = crate::cache::Partial {
        load: u64::from(m.partial_sector_load),
        atomic: u64::from(m.partial_sector_atomic),
        ..crate::cache::Partial::default()
    };
    if !m.buffers_in_l2 {
        return out;
    }
    let sector = u64::from(m.sector_bytes.clamp(1, m.line_bytes));
    let per_line = u64::from(m.line_bytes) / sector;
    for (b, &at) in memory.iter().zip(base) {
        let bytes = b.data.len() as u64 * 4;
        if !bytes.is_multiple_of(sector) {
            let s = (at + bytes) / sector;
            *out.sectors.entry(s / per_line).or_insert(0) |= 1 << (s % per_line);
        }
    }
    out
}

/// What the kernel-parameter reads of instruction `pc` (scheduling flags `sched`) issued by `warp` at `cycle` add to
/// its latency: its own reads' ([`sched::PARAM`](crate::kernel::sched::PARAM)); for the first use of parameters
/// its block's start read ([`sched::PARAM_USE`](crate::kernel::sched::PARAM_USE)), what is left of those, which
/// the warp also waits for (the second figure); a block's start
/// ([`sched::PARAM_BLOCK`](crate::kernel::sched::PARAM_BLOCK)) makes the reads and adds nothing.
#[cold]
#[inline(never)]
fn params(
    ready: &mut Vec<(u32, u64)>,
    warp: &mut Warp,
    lines: &[[u32; 2]],
    (sched, pc): (u16, u32),
    config: &Config,
    cycle: u64,
) -> (u64, u64) {
    use crate::kernel::sched::{PARAM, PARAM_BLOCK, PARAM_USE};
    let memory = &config.timing.memory;
    let lines = lines[pc as usize];
    if sched & PARAM_BLOCK != 0 {
        warp.param_at = cycle + param_reads(ready, lines, memory, cycle);
    }
    let mut wait = 0;
    if sched & PARAM != 0 {
        wait = param_reads(ready, lines, memory, cycle);
    }
    if sched & PARAM_USE != 0 {
        let left = warp.param_at.saturating_sub(cycle);
        return (wait.max(left), left);
    }
    (wait, 0)
}

/// How much longer than a `mov` the reads of the kernel's parameters in constant-bank `lines` (`u32::MAX`: none)
/// issued together at `cycle` take ([`param_read`] each, and `memory.param_hit`).
fn param_reads(ready: &mut Vec<(u32, u64)>, lines: [u32; 2], memory: &crate::config::Memory, cycle: u64) -> u64 {
    lines
        .iter()
        .filter(|&&l| l != u32::MAX)
        .map(|&l| param_read(ready, l, memory.param_miss, cycle))
        .max()
        .unwrap_or(0)
        + u64::from(memory.param_hit)
}

/// How much longer than a hit a read of the kernel's parameters in constant-bank line `line`, issued at `cycle`,
/// takes on an SM whose lines read so far arrive when `ready` says: the SM's first read of a line in the launch
/// misses the constant cache, and the line arrives `miss` cycles later (`memory.param_miss`); a read of it before
/// then waits for it. Lines miss independently.
#[inline]
fn param_read(ready: &mut Vec<(u32, u64)>, line: u32, miss: u32, cycle: u64) -> u64 {
    let at = match ready.iter().find(|(l, _)| *l == line) {
        Some(&(_, at)) => at,
        None => {
            ready.push((line, cycle + u64::from(miss)));
            cycle + u64::from(miss)
        }
    };
    at.saturating_sub(cycle)
}

/// A `YIELD` loop's way out under ITS: its join, or the current entry's reconvergence pc if that comes first.
#[cold]
#[inline(never)]
fn capped_join(join: u32, stack: &crate::simt_stack::SimtStack) -> u32 {
    join.min(stack.top().map_or(u32::MAX, |t| t.reconverge))
}

/// What dead code the compiler removed costs (`sched::DEAD`, `timing.dead_code`): its issue slot, no memory
/// access, its result the next cycle.
#[cold]
#[inline(never)]
fn dead_price(stats: &mut crate::run::Stats) -> crate::timing::Priced {
    stats.dead_instructions += 1;
    crate::timing::Priced {
        cost: Cost {
            latency: 1,
            occupancy: 1,
            replays: 0,
        },
        degree: 0,
        same_address: 0,
        hold: 0,
    }
}

/// The cycles an instruction of a debug build holds its warp (`timing.debug_build`): its SASS instructions but the
/// last, then the last one's, or its result's latency if that is longer (each waits for the one before it).
#[cold]
#[inline(never)]
fn debug_hold(t: &crate::config::Timing, kernel: &Kernel, inst: &DInstr, pc: u32, cost: &Cost) -> u64 {
    let last = u64::from(t.debug_build.instruction);
    let writes = inst.write.is_some() || inst.pred_write.is_some();
    let wait = if writes { cost.latency.max(last) } else { last };
    u64::from(kernel.debug_hold[pc as usize]) + wait
}

/// The cycles a pass through a `YIELD` holds the warp whose running lanes are `active`: `yield_stall`, and
/// `yield_diverged` more while lanes it released wait elsewhere (the warp runs them until they wait, then comes
/// back).
#[cold]
#[inline(never)]
fn yield_hold(t: &crate::config::Timing, stack: &crate::simt_stack::SimtStack, active: u64) -> u64 {
    let parked = stack.yielded & stack.live() & !active != 0;
    u64::from(t.yield_stall) + if parked { u64::from(t.yield_diverged) } else { 0 }
}

/// How many passes of the loop ptxas unrolls by `factor` around the load at `pc` run as one group from this pass
/// (`active` lanes): `factor` while at least that many are left for some lane (this one included), then halves of
/// it (ptxas's SASS: four passes at a time, then two, then one; `calibration/measured/ubench32.cu`). The counter,
/// its step and bound are read from the lanes' registers through the instructions `kernel::sched::counter` found.
#[cold]
#[inline(never)]
fn unrolled_group(
    kernel: &Kernel,
    code: &[DInstr],
    rf: &crate::register_file::RegisterFile,
    (pc, active, ctx): (u32, u64, &LaneCtx),
    factor: u32,
) -> u32 {
    let Some(l) = kernel.unrolled_loops.iter().find(|l| l.head <= pc && pc <= l.back) else {
        return 1;
    };
    let (d, step, wide, sub) = match code[l.add as usize].op {
        DOp::Bin { f, d, b, .. } => (d, b, false, f == crate::kernel::Bin::SubI),
        DOp::Wide { f, d, b, .. } => (d, b, true, f == crate::kernel::Wide::Sub),
        _ => return 1,
    };
    let (DOp::Setp { cmp, class, a, b, .. } | DOp::Setp64 { cmp, class, a, b, .. }) = code[l.setp as usize].op else {
        return 1;
    };
    let counter_first = a == crate::kernel::Src::Reg(d);
    let mut most = 1;
    crate::register_file::for_lanes(active, |lane| {
        let read = |s| {
            if wide {
                rf.read_at(s, true, lane, ctx)
            } else {
                u64::from(rf.read(s, lane, ctx))
            }
        };
        let (s, bound) = (read(step), read(if counter_first { b } else { a }));
        let mut x = read(crate::kernel::Src::Reg(d));
        let next = |x: u64| {
            let y = if sub { x.wrapping_sub(s) } else { x.wrapping_add(s) };
            if wide { y } else { y & 0xffff_ffff }
        };
        // The counter after this pass's step.
        if l.add > pc {
            x = next(x);
        }
        let test = |x: u64| {
            let (p, q) = if counter_first { (x, bound) } else { (bound, x) };
            let holds = if wide {
                crate::alu::compare64(cmp, class, p, q)
            } else {
                #[allow(clippy::cast_possible_truncation, reason = "32-bit operands")]
                crate::alu::compare(cmp, class, p as u32, q as u32)
            };
            holds == l.taken_when
        };
        let mut left = 1;
        while left < factor && test(x) {
            left += 1;
            x = next(x);
        }
        most = most.max(left);
    });
    let mut group = factor;
    while group > 1 && group > most {
        group /= 2;
    }
    group
}
