//! Trace events: what the SM did, cycle by cycle, as data. The trace observes each instruction's
//! outcome (`execute::Outcome`, in `Issue::observe`); an event is built once and never changed afterwards (a global atomic's old
//! values, known only at the epoch's commit, are an event of their own, [`Event::AtomicReturn`]). Renderers
//! (text, lane grid, SVG, Chrome trace) read these and the kernel's instruction descriptions
//! ([`crate::kernel::Described`]) and never reach back into simulator state; JSON, the `--trace-file` lines and
//! the stepper page carry them as the records of one schema ([`crate::render::json`], `docs/run.schema.json`).
//!
//! The executor is generic over a [`TraceSink`]; with [`NoTrace`] every trace statement compiles away, so a run
//! without tracing pays nothing for it.

use crate::check::AccessKind;
use crate::execute::Outcome;
use crate::kernel::{DInstr, Unit};
use crate::lsu::{memory_trace, shared_after};
use crate::register_file::RegisterFile;
use crate::timing::Priced;

/// One issued warp instruction and its effect on the lanes.
#[derive(Clone, Debug, PartialEq)]
pub struct Issue {
    pub cycle: u64,
    /// The warp scheduler (sub-partition) that issued it.
    pub scheduler: u32,
    pub block: u32,
    pub warp: u32,
    pub pc: u32,
    /// Lanes active in the warp (SIMT stack top, exited lanes removed).
    pub active: u64,
    /// Active lanes whose guard predicate is true: the lanes that executed.
    pub exec: u64,
    /// Source operand values per lane (all `W` lanes; only `exec` lanes are meaningful).
    /// (A 64-bit operand's value is 64 bits; a 32-bit one's in the low half.)
    pub operands: Vec<Vec<u64>>,
    /// The register written and its new value in every lane (64 bits for a 64-bit register).
    pub write: Option<(u16, Vec<u64>)>,
    /// The predicate written and its new value as a lane mask.
    pub pred_write: Option<(u16, u64)>,
    pub shuffle: Option<ShuffleTrace>,
    pub memory: Option<MemoryTrace>,
    /// The cycle its result is complete (register, predicate or memory written; for other instructions the
    /// cycle its latency ends).
    pub complete: u64,
    /// Why the warp did not issue this instruction sooner: the cycles since its previous issue, in order, each
    /// with one reason (empty when it issued on the next cycle).
    pub waits: Vec<Wait>,
}

impl Issue {
    /// The trace observes what the instruction did (`outcome`, priced as `priced`), once it has executed: the
    /// register and predicate it wrote as they are now (a barrier's results are written, and traced, at its
    /// release; a global atomic's old values at the commit, [`Event::AtomicReturn`]), a shuffle's exchange, a memory access's lanes (and, in shared memory, the words a store or an
    /// atomic left), and when its result is complete.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn observe(
        &mut self,
        inst: &DInstr,
        outcome: &Outcome,
        priced: &Priced,
        rf: &RegisterFile,
        shared: &[u32],
        w: usize,
        banks: u32,
    ) {
        let exec = self.exec;
        self.complete = self.cycle + priced.cost.latency;
        match outcome {
            Outcome::Exchange(x) => {
                self.shuffle = Some(ShuffleTrace {
                    sources: x.sources[..w].to_vec(),
                    in_range: x.in_range & exec,
                    undefined: x.undefined,
                    member: x.member,
                });
            }
            Outcome::Access(m) => {
                let (store, atomic) = (m.kind != AccessKind::Read, m.kind == AccessKind::Atomic);
                let (degree, same) = (priced.degree, priced.same_address);
                let mut t = memory_trace(
                    m.words,
                    exec,
                    w,
                    banks,
                    m.addr,
                    store,
                    atomic,
                    m.index.clone(),
                    degree,
                    same,
                );
                if m.addr.shared && store {
                    t.after = shared_after(shared, m.words, exec, w, m.addr.wide);
                }
                self.memory = Some(t);
            }
            _ => {}
        }
        // A barrier's results are written at its release, a global atomic's at the commit: each is its own event.
        let later = inst.unit == Unit::Barrier || outcome.returns_at_commit(inst).is_some();
        if !later {
            if let Some(d) = inst.write {
                let wide = inst.writes_wide();
                let lo = rf.row(d, w);
                let values = if wide {
                    let hi = rf.row(d + 1, w);
                    lo.iter()
                        .zip(hi)
                        .map(|(&l, &h)| u64::from(l) | u64::from(h) << 32)
                        .collect()
                } else {
                    lo.iter().map(|&l| u64::from(l)).collect()
                };
                self.write = Some((d, values));
            }
            if let Some(p) = inst.pred_write {
                self.pred_write = Some((p, rf.preds[p as usize]));
            }
        }
    }
}

/// Cycles `from..to` in which a warp did not issue, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    pub reason: StallReason,
    pub from: u64,
    pub to: u64,
}

/// Why a warp did not issue in a cycle (the parts of [`crate::run::Stalls`] that are waits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StallReason {
    /// An operand was still being computed (or its destination was not free).
    Operands,
    /// An operand's producer was replayed for bank conflicts.
    BankConflict,
    /// The pipe the instruction needs was busy.
    UnitBusy,
    /// Held after a branch that redirected it.
    Control,
    /// Waiting at a barrier.
    Barrier,
    /// Ready, but its scheduler issued another warp.
    NotSelected,
}

impl StallReason {
    /// The name used in [`crate::run::Stalls::parts`] and in every rendering.
    pub fn name(self) -> &'static str {
        match self {
            StallReason::Operands => "operands",
            StallReason::BankConflict => "bank_conflict",
            StallReason::UnitBusy => "unit_busy",
            StallReason::Control => "control",
            StallReason::Barrier => "barrier",
            StallReason::NotSelected => "not_selected",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShuffleTrace {
    /// Source lane of every lane (itself when out of range).
    pub sources: Vec<u32>,
    /// Lanes whose computed source was in range (PTX's predicate output).
    pub in_range: u64,
    /// Executing lanes whose read was undefined on hardware: the source lane did not execute the shuffle or is
    /// outside the member mask, or the lane itself is outside the member mask.
    pub undefined: u64,
    /// The member mask the executing lanes named (a register mask is read at issue).
    pub member: u64,
}

#[derive(Clone, Debug, PartialEq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "the access's space (shared, local, else global) and kind (store, atomic), as the renderers read them"
)]
pub struct MemoryTrace {
    /// The block's shared memory (else global memory).
    pub shared: bool,
    /// The thread's local memory (a flat `.local` or generic access): `buffer` is 0 and names nothing, `index`
    /// is the element in the thread's local memory.
    pub local: bool,
    /// Index into the kernel's buffers or shared arrays (a flat shared access: the array that holds the first
    /// executing lane's word, and `index` counts from its start).
    pub buffer: u16,
    pub store: bool,
    /// A read-modify-write (`atom`/`red`).
    pub atomic: bool,
    /// Element index accessed by every lane (only `exec` lanes are meaningful).
    pub index: Vec<u64>,
    /// Shared memory: the bank each lane hit, and the access's conflict degree.
    pub banks: Vec<u32>,
    pub degree: u32,
    /// Atomics: the most lanes that hit one address (they serialise).
    pub same_address: u32,
    /// Shared-memory stores and atomics: the word each executing lane accessed, as the instruction left it (where
    /// several lanes hit one word, the value after all of them); empty otherwise.
    pub after: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A block was placed on SM `sm`.
    BlockLaunch {
        cycle: u64,
        block: u32,
        warps: u32,
        sm: u32,
    },
    Issue(Box<Issue>),
    /// A branch split the warp: `taken` lanes go to `target`, `fallthrough` lanes run first; but where the branch
    /// leaves a loop with a `YIELD`, the `released` lanes (those leaving the loop, taken or falling through) run
    /// first, alone, to `reconverge` (0 for any other split).
    Diverge {
        cycle: u64,
        block: u32,
        warp: u32,
        pc: u32,
        taken: u64,
        fallthrough: u64,
        target: u32,
        reconverge: u32,
        released: u64,
    },
    /// Split lanes merged again at `pc`.
    Reconverge {
        cycle: u64,
        block: u32,
        warp: u32,
        pc: u32,
        mask: u64,
    },
    /// All lanes of a warp have exited. `waits`: why it did not retire sooner, when its last lanes left by
    /// reaching the end of the program rather than by issuing `exit` (see [`Issue::waits`]).
    WarpExit {
        cycle: u64,
        block: u32,
        warp: u32,
        waits: Vec<Wait>,
    },
    /// A warp arrived at barrier `id`; `arrived` of `expected` warps are there now.
    BarrierArrive {
        cycle: u64,
        block: u32,
        warp: u32,
        pc: u32,
        id: u32,
        arrived: u32,
        expected: u32,
    },
    /// A global atomic's old values reached its destination register `reg` in `lanes` (`values` by lane, only
    /// those lanes meaningful). Global memory performs the SMs' global atomics when their writes are committed, at
    /// the end of an epoch, which is no later than an atomic's latency; the values arrive at `cycle`, when the
    /// atomic completes. The atomic's own [`Issue`] shows no value for the register.
    AtomicReturn {
        cycle: u64,
        block: u32,
        warp: u32,
        pc: u32,
        reg: u16,
        lanes: u64,
        /// (64 bits for a 64-bit atomic.)
        values: Vec<u64>,
    },
    /// Barrier `id` released its waiting `warps`; they may issue again at cycle `resume`.
    BarrierRelease {
        cycle: u64,
        block: u32,
        id: u32,
        warps: Vec<u32>,
        resume: u64,
        /// What a `bar.red` computed over the arriving threads.
        result: BarrierResult,
    },
}

impl Event {
    /// The cycle the event happened at.
    pub fn cycle(&self) -> u64 {
        match self {
            Event::Issue(i) => i.cycle,
            Event::BlockLaunch { cycle, .. }
            | Event::Diverge { cycle, .. }
            | Event::Reconverge { cycle, .. }
            | Event::WarpExit { cycle, .. }
            | Event::BarrierArrive { cycle, .. }
            | Event::AtomicReturn { cycle, .. }
            | Event::BarrierRelease { cycle, .. } => *cycle,
        }
    }
}

/// The value a `bar.red` barrier delivers at release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierResult {
    None,
    Popc(u32),
    And(bool),
    Or(bool),
}

/// Where trace events go.
pub trait TraceSink {
    /// When false, the executor builds no events at all.
    const ENABLED: bool;
    fn event(&mut self, event: Event);
}

/// Tracing off.
pub struct NoTrace;

impl TraceSink for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn event(&mut self, _: Event) {}
}

/// Events kept in memory up to a limit; later ones are counted and dropped, so a long run cannot exhaust memory
/// through its trace.
#[derive(Debug, Default)]
pub struct TraceBuffer {
    pub events: Vec<Event>,
    pub limit: usize,
    pub dropped: u64,
}

impl TraceBuffer {
    pub fn with_limit(limit: usize) -> TraceBuffer {
        TraceBuffer {
            events: Vec::new(),
            limit,
            dropped: 0,
        }
    }
}

impl TraceSink for TraceBuffer {
    const ENABLED: bool = true;
    fn event(&mut self, event: Event) {
        if self.events.len() < self.limit {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }
}

impl TraceSink for Vec<Event> {
    const ENABLED: bool = true;
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// One SM's events of one epoch (with `ON` false, nothing is kept and every trace statement compiles away). The
/// engine merges the SMs' epochs in cycle order into the run's sink.
#[derive(Debug, Default)]
pub struct EpochTrace<const ON: bool> {
    pub events: Vec<Event>,
    /// Events known at a commit that happen at a later cycle (atomics' returns), in cycle order: merged into the
    /// trace when the SMs' other events reach their cycle.
    pub later: Vec<Event>,
}

impl<const ON: bool> TraceSink for EpochTrace<ON> {
    const ENABLED: bool = ON;
    #[inline(always)]
    fn event(&mut self, event: Event) {
        if ON {
            self.events.push(event);
        }
    }
}
