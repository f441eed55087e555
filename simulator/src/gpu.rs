//! The whole GPU: `config.sms` SMs (Hopper: 132, as an H100), the block distributor, global memory, and the
//! epochs that let SMs be simulated on several host threads with results that never depend on how many.
//!
//! Hardware: a kernel's blocks are handed to SMs as their resources free up; the SMs run independently and
//! meet only in global memory (through L2), where a write of one SM reaches another no sooner than an L2 round
//! trip.
//!
//! Model: time is cut into epochs of [`Config::epoch_cycles`] cycles (the shortest global-memory latency
//! through L2: `min(l1_miss_latency, global_atomic latency)`). Within an epoch each SM is simulated cycle by
//! cycle on its own ([`crate::sm::Sm::run_until`]), reading global memory as it was at the epoch's start plus
//! its own writes since; its writes (stores, atomics) are logged. At the epoch's end the logs are committed to
//! global memory in a fixed order (SM 0's first, each SM's in issue order), atomics are performed then, and
//! their old values delivered to the issuing lanes; an atomic's destination register is busy for at least the
//! atomic's latency, which is no shorter than an epoch, so no instruction can read it sooner. Blocks are dealt
//! at epoch boundaries too: each SM gets a queue of blocks (its free room plus a look-ahead of at least one
//! SM-full, twice what it placed in the last epoch if more) and places them from the queue the cycle its
//! resources free up. Every decision depends only on simulated state, so the SMs of an epoch can run on any
//! number of host threads in any order: values, cycles, statistics and traces are identical.
//!
//! With one SM (`--sms 1`) every block goes to its queue at once.

use crate::alu;
use crate::config::Config;
use crate::fault::{Fault, FaultKind};
use crate::kernel::{Buffer, DOp, Kernel};
use crate::lsu::Effect;
use crate::run::{Progress, RunOptions, RunOutput, Stats};
use crate::sm::{Shared, Sm};
use crate::team::Team;
use crate::trace::{EpochTrace, Event, TraceSink};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// With tracing, the cycles after which the SMs' events are merged into the trace (within an epoch).
const TRACE_STEP: u64 = 16;

/// How [`Engine::epochs`] runs a step of two or more busy SMs up to a cycle, with their traces and faults.
type ParallelStep<'a, 'k, const ON: bool> =
    dyn FnMut(&mut Engine<'k>, u64, &mut [EpochTrace<ON>], &mut [Option<Fault>]) + 'a;

/// An SM's step on whichever thread takes it ([`Engine::parallel_step`]): up to cycle `at`, with global memory and
/// L2 as of the epoch's start.
struct Job<'k, const ON: bool> {
    index: usize,
    sm: Box<Sm<'k>>,
    local: EpochTrace<ON>,
    memory: Arc<(Vec<Buffer>, crate::cache::LineSet)>,
    at: u64,
}

/// A [`Job`] done: the SM, its trace and its fault, for its place in the engine.
struct Done<'k, const ON: bool> {
    index: usize,
    sm: Box<Sm<'k>>,
    local: EpochTrace<ON>,
    fault: Option<Fault>,
}

/// Run `kernel` on the machine `config` describes, to completion, from the kernel's initial buffers.
pub fn run<T: TraceSink>(
    kernel: &Kernel,
    config: &Config,
    options: &RunOptions,
    trace: &mut T,
) -> Result<RunOutput, Fault> {
    run_with(kernel, kernel.buffers.clone(), config, options, trace)
}

/// Run `kernel` with global memory `memory` (its buffers, in the kernel's order), which the run consumes and
/// returns in [`RunOutput::buffers`]: no copy of the buffers is made.
pub fn run_with<T: TraceSink>(
    kernel: &Kernel,
    memory: Vec<Buffer>,
    config: &Config,
    options: &RunOptions,
    trace: &mut T,
) -> Result<RunOutput, Fault> {
    assert_eq!(memory.len(), kernel.buffers.len(), "one buffer per kernel buffer");
    let own_rows = T::ENABLED || options.checks.any();
    match run_once(kernel, memory, config, options, trace, own_rows) {
        Ran::Out(out) => *out,
        // A read shared rows cannot answer (untraced, so nothing was traced): again with the program's registers.
        Ran::Undefined(memory) => match run_once(kernel, memory, config, options, trace, true) {
            Ran::Out(out) => *out,
            Ran::Undefined(_) => unreachable!("with the program's registers no run is repeated"),
        },
    }
}

/// How a run ended: its output or fault, or (running shared register rows) at a read they cannot answer
/// ([`Shared::undefined_read`]), with global memory as it was at the start.
enum Ran {
    Out(Box<Result<RunOutput, Fault>>),
    Undefined(Vec<Buffer>),
}

fn run_once<T: TraceSink>(
    kernel: &Kernel,
    memory: Vec<Buffer>,
    config: &Config,
    options: &RunOptions,
    trace: &mut T,
    own_rows: bool,
) -> Ran {
    let shared = Shared::new(kernel, config, &memory, options, own_rows);
    // Global memory's first contents are kept (a page when it is first written) while a shuffle may read what
    // shared rows do not hold.
    let undo = (shared.shares_rows() && shared.code.iter().any(|i| matches!(i.op, DOp::Shfl { .. })))
        .then(|| Undo::new(&memory));
    let engine = Engine {
        shared: &shared,
        sms: Vec::new(),
        sm_count: config.sms.max(1) as usize,
        memory,
        l2: crate::cache::LineSet::new(shared.local[0] / u64::from(config.timing.memory.line_bytes.max(1))),
        next_block: 0,
        deal_from: 0,
        global_check: options.checks.race.then(Default::default),
        undo,
    };
    if T::ENABLED {
        engine.run::<true, T>(options, trace)
    } else {
        engine.run::<false, T>(options, trace)
    }
}

/// The words of global memory a run has overwritten, a page at a time: what they held at its start.
struct Undo {
    /// Per buffer, per page of [`Undo::PAGE`] words: its first contents, once written.
    pages: Vec<Vec<Option<Box<[u32]>>>>,
}

impl Undo {
    const PAGE: usize = 1024;

    fn new(memory: &[Buffer]) -> Undo {
        Undo {
            pages: memory
                .iter()
                .map(|b| vec![None; b.data.len().div_ceil(Undo::PAGE)])
                .collect(),
        }
    }

    /// Word `word` of `buffer` is about to be written.
    #[inline]
    fn keep(&mut self, memory: &[Buffer], buffer: usize, word: usize) {
        let page = word / Undo::PAGE;
        let slot = &mut self.pages[buffer][page];
        if slot.is_none() {
            let data = &memory[buffer].data;
            *slot = Some(data[page * Undo::PAGE..((page + 1) * Undo::PAGE).min(data.len())].into());
        }
    }

    /// `memory` as it was.
    fn restore(self, memory: &mut [Buffer]) {
        for (b, pages) in memory.iter_mut().zip(self.pages) {
            for (page, kept) in pages.into_iter().enumerate() {
                if let Some(kept) = kept {
                    b.data[page * Undo::PAGE..page * Undo::PAGE + kept.len()].copy_from_slice(&kept);
                }
            }
        }
    }
}

struct Engine<'k> {
    shared: &'k Shared<'k>,
    /// The SMs that have been dealt a block so far, SM `i` at index `i`: an SM is made when it is first dealt
    /// one (the distributor deals in SM order from 0, and an SM never dealt to has room), so the SMs a small
    /// launch never reaches cost nothing.
    #[allow(
        clippy::vec_box,
        reason = "a parallel step moves each busy SM to the thread that runs it: a pointer, not the SM, moves"
    )]
    sms: Vec<Box<Sm<'k>>>,
    /// How many SMs the machine has.
    sm_count: usize,
    /// Global memory as committed at the last epoch boundary.
    memory: Vec<Buffer>,
    /// The global lines in L2 at the last epoch boundary ([`crate::cache::L2View`]).
    l2: crate::cache::LineSet,
    /// Present while the run may have to be repeated ([`Ran::Undefined`]).
    undo: Option<Undo>,
    /// The next block the distributor hands out.
    next_block: u32,
    /// The SM the distributor serves first next time (it rotates).
    deal_from: usize,
    /// With `--check race`: races in global memory between blocks, checked at each commit.
    global_check: Option<crate::check::GlobalCheck>,
}

impl<'k> Engine<'k> {
    /// Hand out blocks: round robin, one at a time, to every SM whose resident and queued blocks are fewer than
    /// its room plus its look-ahead.
    fn deal(&mut self, now: u64) {
        let grid = self.shared.kernel.grid;
        let n = self.sm_count;
        if n == 1 {
            self.reach(0, now);
            self.sms[0].queue.push(self.next_block..grid);
            self.next_block = grid;
            return;
        }
        let capacity = self.shared.capacity as usize;
        let start = self.deal_from;
        loop {
            let mut dealt = false;
            for k in 0..n {
                if self.next_block >= grid {
                    return;
                }
                let i = (start + k) % n;
                self.reach(i, now);
                let sm = &mut self.sms[i];
                let lookahead = capacity.max(2 * sm.launched_last_epoch as usize);
                if (sm.resident as usize + sm.queue.len()) < capacity + lookahead {
                    sm.queue.push(self.next_block..self.next_block + 1);
                    self.next_block += 1;
                    self.deal_from = (i + 1) % n;
                    dealt = true;
                }
            }
            if !dealt {
                return;
            }
        }
    }

    /// Make SM `i` if it is not made yet (it is the next one: see [`Engine::sms`]), idle up to `now`.
    fn reach(&mut self, i: usize, now: u64) {
        if i == self.sms.len() {
            #[allow(clippy::cast_possible_truncation, reason = "at most 1024 SMs (Config::validate)")]
            let mut sm = Box::new(Sm::new(i as u32, self.shared));
            sm.cycle = now;
            if self.sms.is_empty() {
                self.sms.reserve(self.sm_count.min(self.shared.kernel.grid as usize));
            }
            self.sms.push(sm);
        }
        debug_assert!(i < self.sms.len(), "SMs are made in order");
    }

    fn run<const ON: bool, T: TraceSink>(self, options: &RunOptions, trace: &mut T) -> Ran {
        // The host threads that may simulate SMs, this one included.
        let threads = match options.threads {
            0 => rayon::current_num_threads(),
            t => t,
        };
        let team: Team<Job<'k, ON>, Done<'k, ON>> = Team::new();
        let work = |job: Job<'k, ON>| {
            let Job {
                index,
                mut sm,
                mut local,
                memory,
                at,
            } = job;
            let fault = sm.run_until(at, (&memory.0[..], &memory.1), options, &mut local).err();
            // (The snapshot goes back to the engine once every job has dropped its share.)
            drop(memory);
            Done {
                index,
                sm,
                local,
                fault,
            }
        };
        std::thread::scope(|scope| {
            // However the run ends (a return, a panic), the helpers stop with it.
            struct End<'t, J, D>(&'t Team<J, D>);
            impl<J, D> Drop for End<'_, J, D> {
                fn drop(&mut self) {
                    self.0.finish();
                }
            }
            let _end = End(&team);
            // Helpers for up to `busy` SMs at once. (A thread the system refuses is done without: the results are
            // the same on fewer threads.)
            let mut helpers = 0;
            let mut start = |busy: usize| {
                while helpers + 1 < threads.min(busy) {
                    let helper = std::thread::Builder::new()
                        .name("warpsim-sm".into())
                        .spawn_scoped(scope, || team.serve(&work));
                    helpers = if helper.is_ok() { helpers + 1 } else { threads };
                }
            };
            // A launch that will spread over SMs starts its helpers now: a thread takes a while to start (or a
            // core to wake), time the engine's setup then hides.
            if options.threads != 1 {
                start((self.shared.kernel.grid as usize).min(self.sm_count));
            }
            self.epochs::<ON, T>(options, trace, &mut |engine, at, locals, faults| {
                engine.parallel_step(at, locals, faults, &team, &work, &mut start);
            })
        })
    }

    /// The epochs of the run, to its end; `parallel` runs a step of two or more busy SMs.
    fn epochs<const ON: bool, T: TraceSink>(
        mut self,
        options: &RunOptions,
        trace: &mut T,
        parallel: &mut ParallelStep<'_, 'k, ON>,
    ) -> Ran {
        let epoch = self.shared.config.epoch_cycles();
        let grid = u64::from(self.shared.kernel.grid);
        let mut locals: Vec<EpochTrace<ON>> = (0..self.sms.len()).map(|_| EpochTrace::default()).collect();
        let mut faults: Vec<Option<Fault>> = (0..self.sms.len()).map(|_| None).collect();
        // The clock is read only under a time limit: a host without one (a browser's WebAssembly) runs with none.
        let started = options.timeout.map(|_| std::time::Instant::now());
        let mut now = 0u64;
        loop {
            self.deal(now);
            locals.resize_with(self.sms.len(), EpochTrace::default);
            faults.resize_with(self.sms.len(), || None);
            let limit = now.saturating_add(epoch);
            // With tracing, the SMs go through the epoch in short steps whose events are merged and sent on at
            // once, so the trace waits in memory for a step, not an epoch (the same simulation: an SM run to c1
            // then to c2 does exactly what it does run to c2).
            let step = if ON { TRACE_STEP } else { epoch };
            let mut at = now;
            while at < limit {
                at = at.saturating_add(step).min(limit);
                // One busy SM (a small launch) runs on this thread: the others only move their clocks.
                let busy = self.sms.iter().filter(|sm| !sm.idle()).take(2).count();
                if busy > 1 && options.threads != 1 {
                    parallel(&mut self, at, &mut locals, &mut faults);
                } else {
                    let memory = (&self.memory[..], &self.l2);
                    for ((sm, local), fault) in self.sms.iter_mut().zip(locals.iter_mut()).zip(faults.iter_mut()) {
                        if sm.idle() {
                            sm.cycle = at;
                        } else {
                            *fault = sm.run_until(at, memory, options, local).err();
                        }
                    }
                }
                // The first fault in (cycle, SM) order ends the run; the trace goes up to its cycle.
                let fault = faults
                    .iter_mut()
                    .filter_map(Option::take)
                    .min_by_key(|f| f.cycle)
                    .map(Box::new);
                if let Some(mut fault) = fault {
                    if let FaultKind::CycleLimit { .. } = fault.kind {
                        // The SM that reached the limit first need not hold the looping warp: name the warp
                        // that issued the most lately on any SM (every SM has run every cycle up to the limit).
                        self.blame(&mut fault);
                    }
                    self.check_global(fault.cycle);
                    fault.findings = self.findings(Some(fault.cycle));
                    if ON {
                        // (The atomics' old values that arrive up to the fault are those the epoch's commit gives.)
                        self.commit(&mut locals);
                        merge(&mut locals, fault.cycle + 1, trace);
                    }
                    if let Some(memory) = self.undefined() {
                        return Ran::Undefined(memory);
                    }
                    return Ran::Out(Box::new(Err(*fault)));
                }
                if at == limit {
                    self.commit(&mut locals);
                    if let Some(memory) = self.undefined() {
                        return Ran::Undefined(memory);
                    }
                    // The instruction limit, at epoch boundaries only (the same cycle traced or not).
                    let issued: u64 = self.sms.iter().map(|sm| sm.stats.warp_instructions).sum();
                    let kind = if issued > options.max_instructions {
                        Some(FaultKind::InstructionLimit {
                            limit: options.max_instructions,
                            issued,
                        })
                    } else {
                        // The wall-clock limit: one look at the clock per epoch, never within an SM's cycles, so a
                        // run that finishes is the same with or without it.
                        options
                            .timeout
                            .zip(started)
                            .filter(|&(t, at)| at.elapsed() > t)
                            .map(|(limit, _)| FaultKind::Timeout { limit })
                    };
                    if let Some(kind) = kind {
                        let mut fault = Fault {
                            kind,
                            cycle: at,
                            block: 0,
                            warp: 0,
                            lane: None,
                            pc: 0,
                            findings: Vec::new(),
                        };
                        // (With no live warp left the run ends at this boundary anyway.)
                        if self.blame(&mut fault) {
                            fault.findings = self.findings(None);
                            if ON {
                                merge(&mut locals, at, trace);
                            }
                            return Ran::Out(Box::new(Err(fault)));
                        }
                    }
                }
                // The events before `at` go on (a block placed at `at` waits for the other SMs' events at `at`).
                if ON {
                    merge(&mut locals, at, trace);
                }
            }
            now = limit;
            let finished: u64 = self.sms.iter().map(|sm| sm.finished_blocks).sum();
            if let Some(progress) = &options.progress {
                progress(Progress {
                    cycle: now,
                    blocks_finished: finished,
                    blocks: grid,
                });
            }
            if finished == grid || (u64::from(self.next_block) >= grid && self.sms.iter().all(|sm| sm.idle())) {
                break;
            }
        }
        if ON {
            // The last atomics' old values arrive after the last epoch's other events.
            merge(&mut locals, u64::MAX, trace);
        }
        if let Some(memory) = self.undefined() {
            return Ran::Undefined(memory);
        }
        Ran::Out(Box::new(Ok(self.finish())))
    }

    /// One step of the SMs up to cycle `at` on the caller and the team's helpers (`start` makes sure there are
    /// enough of them for `busy` SMs): each busy SM, with its trace and a share of global memory as of the epoch's
    /// start, goes to the thread that takes it and comes back to its place.
    fn parallel_step<const ON: bool>(
        &mut self,
        at: u64,
        locals: &mut [EpochTrace<ON>],
        faults: &mut [Option<Fault>],
        team: &Team<Job<'k, ON>, Done<'k, ON>>,
        work: &(impl Fn(Job<'k, ON>) -> Done<'k, ON> + Sync),
        start: &mut dyn FnMut(usize),
    ) {
        let memory = Arc::new((
            std::mem::take(&mut self.memory),
            std::mem::replace(&mut self.l2, crate::cache::LineSet::new(0)),
        ));
        let mut places: Vec<Option<Box<Sm<'k>>>> = Vec::with_capacity(self.sms.len());
        let mut jobs = Vec::new();
        for (index, mut sm) in std::mem::take(&mut self.sms).into_iter().enumerate() {
            if sm.idle() {
                sm.cycle = at;
                places.push(Some(sm));
            } else {
                jobs.push(Job {
                    index,
                    sm,
                    local: std::mem::take(&mut locals[index]),
                    memory: Arc::clone(&memory),
                    at,
                });
                places.push(None);
            }
        }
        start(jobs.len());
        for done in team.run(jobs, work) {
            places[done.index] = Some(done.sm);
            locals[done.index] = done.local;
            faults[done.index] = done.fault;
        }
        self.sms = places
            .into_iter()
            .map(|sm| sm.expect("every SM comes back from its step"))
            .collect();
        (self.memory, self.l2) = Arc::into_inner(memory).expect("the step's jobs have dropped their share");
    }

    /// Global memory as it was at the start, if a read shared rows cannot answer happened
    /// ([`Shared::undefined_read`]).
    fn undefined(&mut self) -> Option<Vec<Buffer>> {
        if !self.shared.undefined_read.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let undo = self.undo.take()?;
        let mut memory = std::mem::take(&mut self.memory);
        undo.restore(&mut memory);
        Some(memory)
    }

    /// Commit every SM's writes of the epoch to global memory, SM by SM, each in issue order; perform the
    /// atomics and deliver their old values.
    fn commit<const ON: bool>(&mut self, locals: &mut [EpochTrace<ON>]) {
        self.check_global(u64::MAX);
        for (sm, local) in self.sms.iter_mut().zip(locals.iter_mut()) {
            for i in 0..sm.effects.len() {
                match sm.effects[i] {
                    Effect::Store { buffer, word, value } => {
                        if let Some(undo) = &mut self.undo {
                            undo.keep(&self.memory, buffer as usize, word as usize);
                        }
                        self.memory[buffer as usize].data[word as usize] = value;
                    }
                    Effect::StoreBytes {
                        buffer,
                        word,
                        value,
                        mask,
                    } => {
                        if let Some(undo) = &mut self.undo {
                            undo.keep(&self.memory, buffer as usize, word as usize);
                        }
                        let w = &mut self.memory[buffer as usize].data[word as usize];
                        *w = (*w & !mask) | value;
                    }
                    Effect::Atomic {
                        f,
                        buffer,
                        word,
                        b,
                        c,
                        ret,
                    } => {
                        let at = word as usize;
                        if let Some(undo) = &mut self.undo {
                            undo.keep(&self.memory, buffer as usize, at);
                            if f.wide() {
                                undo.keep(&self.memory, buffer as usize, at + 1);
                            }
                        }
                        let data = &mut self.memory[buffer as usize].data;
                        let old = if f.wide() {
                            let old = u64::from(data[at]) | u64::from(data[at + 1]) << 32;
                            let new = alu::atomic64(f, false, old, b, c);
                            data[at] = crate::kernel::low32(new);
                            data[at + 1] = crate::kernel::high32(new);
                            old
                        } else {
                            let old = data[at];
                            data[at] = alu::atomic(f, false, old, crate::kernel::low32(b), crate::kernel::low32(c));
                            u64::from(old)
                        };
                        if let Some(ret) = ret {
                            sm.deliver(ret, old, f.wide());
                        }
                    }
                }
            }
            if ON {
                sm.returned(&mut local.later);
            }
            for (line, _) in sm.l2_own.drain() {
                self.l2.insert(line);
            }
            sm.end_epoch();
        }
    }

    /// Point a limit's fault (cycle, instructions, time) at the live warp that issued the most lately (since
    /// the start of the previous epoch), then the most in all, the first in SM order among equals: the likeliest
    /// to be in an endless loop. The same warp whatever the number of host threads, traced or not.
    /// Whether there is a live warp to name.
    fn blame(&self, fault: &mut Fault) -> bool {
        let mut best: Option<crate::sm::Busiest> = None;
        for sm in &self.sms {
            if let Some(b) = sm.busiest_warp()
                && best.is_none_or(|x| (b.lately, b.issued) > (x.lately, x.issued))
            {
                best = Some(b);
            }
        }
        if let Some(b) = best {
            fault.block = b.block;
            fault.warp = b.warp;
            fault.lane = b.lane;
            fault.pc = b.pc;
        }
        best.is_some()
    }

    /// With `--check race`: check the SMs' logged global accesses up to cycle `upto` for races between blocks, in
    /// (cycle, SM, issue) order (the same on any number of threads), and drop them from the logs.
    fn check_global(&mut self, upto: u64) {
        let Some(check) = self.global_check.as_mut() else {
            return;
        };
        let mut order = std::mem::take(&mut check.order);
        order.clear();
        for (i, sm) in self.sms.iter().enumerate() {
            #[allow(clippy::cast_possible_truncation, reason = "at most 1024 SMs (Config::validate)")]
            let i = i as u32;
            let n = sm.global_log.partition_point(|a| a.cycle <= upto);
            order.extend(sm.global_log[..n].iter().enumerate().map(|(j, a)| (a.cycle, i, j)));
        }
        order.sort_unstable();
        for &(_, i, j) in &order {
            check.access(self.shared.kernel, i, &self.sms[i as usize].global_log[j]);
        }
        check.order = order;
        for sm in &mut self.sms {
            let n = sm.global_log.partition_point(|a| a.cycle <= upto);
            sm.global_log.drain(..n);
        }
    }

    /// The sanitizers' findings of every SM, each distinct one once; up to `upto` only, if given (a fault's
    /// cycle).
    fn findings(&self, upto: Option<u64>) -> Vec<crate::check::Finding> {
        let upto = upto.unwrap_or(u64::MAX);
        let between_blocks = self.global_check.iter().map(|c| &c.findings.list);
        crate::check::merge(
            self.sms
                .iter()
                .map(|sm| &sm.findings.list)
                .chain(between_blocks)
                .map(|list| list.iter().filter(|f| f.cycle <= upto).cloned().collect()),
        )
    }

    /// The run's output: statistics of every SM together; the run ends with the last SM's last result.
    fn finish(mut self) -> RunOutput {
        let findings = self.findings(None);
        let end = self.sms.iter().map(|sm| sm.end).max().unwrap_or(0);
        let mut stats = Stats::default();
        let (mut exited, mut exit_sum) = (0u64, 0u128);
        for sm in &self.sms {
            stats.merge(&sm.stats);
            exited += sm.exited;
            exit_sum += sm.exit_sum;
        }
        // Exited warps were finished from their exit to the end of the run.
        stats.stalls.finished = u64::try_from(u128::from(exited) * u128::from(end) - exit_sum).unwrap_or(u64::MAX);
        for ws in &mut stats.warp_stalls {
            // (`finished` holds the first finished cycle until now.)
            ws.stalls.finished = end - ws.stalls.finished;
        }
        stats.warp_stalls.sort_by_key(|w| (w.block, w.warp));
        // The first unordered shared read in (cycle, SM) order: the same on any number of threads.
        let unordered = self
            .sms
            .iter()
            .filter_map(|sm| sm.unordered.clone())
            .min_by_key(|u| (u.cycle, u.sm));
        let mut lines = Vec::new();
        for sm in &self.sms {
            if let Some(p) = &sm.profile {
                crate::profile::Profile::merge(&mut lines, &p.lines);
            }
        }
        crate::profile::Profile::sort(&mut lines);
        // `printf`'s texts by cycle (a stable sort: SM order within a cycle, each SM's own order kept).
        let mut printed: Vec<crate::run::Printed> = self
            .sms
            .iter_mut()
            .flat_map(|sm| std::mem::take(&mut sm.printed))
            .collect();
        printed.sort_by_key(|p| p.cycle);
        RunOutput {
            cycles: end,
            stats,
            buffers: self.memory,
            findings,
            unordered,
            lines,
            printed,
        }
    }
}

/// Send the SMs' events before cycle `upto` to `trace` in cycle order (SM order within a cycle, each SM's own
/// order kept, an atomic's return after the SM's other events of its cycle); later ones stay for the next merge
/// (an SM's events are in cycle order, and so are its returns).
fn merge<const ON: bool, T: TraceSink>(locals: &mut [EpochTrace<ON>], upto: u64, trace: &mut T) {
    let mut streams: Vec<std::iter::Peekable<std::vec::IntoIter<Event>>> = locals
        .iter_mut()
        .map(|l| {
            let n = l.events.partition_point(|e| e.cycle() < upto);
            let mut batch: Vec<Event> = l.events.drain(..n).collect();
            let returns = l.later.partition_point(|e| e.cycle() < upto);
            if returns > 0 {
                batch.extend(l.later.drain(..returns));
                // (Stable: each SM's own order within a cycle is kept.)
                batch.sort_by_key(Event::cycle);
            }
            batch.into_iter().peekable()
        })
        .collect();
    let mut heap = BinaryHeap::new();
    for (i, s) in streams.iter_mut().enumerate() {
        if let Some(e) = s.peek() {
            heap.push(Reverse((e.cycle(), i)));
        }
    }
    while let Some(Reverse((_, i))) = heap.pop() {
        let Some(event) = streams[i].next() else { continue };
        trace.event(event);
        if let Some(e) = streams[i].peek() {
            heap.push(Reverse((e.cycle(), i)));
        }
    }
}
