//! What a run is asked and what it gives: its options (limits, sanitizers, schedule, host threads), its
//! output (cycles, buffers, findings) and its statistics, with every warp's cycles broken down by reason.

use crate::check::{Checks, Finding, UnorderedRead};
use crate::kernel::Buffer;
use crate::warp_scheduler::Schedule;
use serde::Serialize;
use std::sync::Arc;
use warpsim_isa::Scheduling;

/// How to run: limits (always finite), the sanitizers, the schedule, and host-side choices that never change
/// the results.
#[derive(Clone)]
pub struct RunOptions {
    /// A run still going at this cycle stops with a fault.
    pub max_cycles: u64,
    /// A run that has issued more warp instructions than this stops with a fault (checked at every epoch
    /// boundary, so it may go up to one epoch past it).
    pub max_instructions: u64,
    /// The sanitizers that run (see [`crate::Checks`]).
    pub checks: Checks,
    /// The order in which schedulers pick ready warps.
    pub schedule: Schedule,
    /// Host threads simulating the SMs: 1 for the caller alone, n for the caller and up to n − 1 helper threads of
    /// the run's own (`team.rs`), 0 for as many as rayon's global pool has (the cores, or `RAYON_NUM_THREADS`).
    /// Values, cycles, statistics and traces are the same for every number.
    pub threads: usize,
    /// Called after every epoch with how far the run is (for a progress bar).
    pub progress: Option<ProgressFn>,
    /// A wall-clock limit: a run still going after this long stops with a [`crate::FaultKind::Timeout`] fault. Checked
    /// at epoch boundaries only (never within an SM's cycles), so it changes nothing in a run that finishes;
    /// where a run that passes it stops depends on the host. `None` (the default here; the CLI's is 60 s): no
    /// limit but the cycle and instruction limits.
    pub timeout: Option<std::time::Duration>,
    /// How the diverged paths of a warp run: in lockstep on the reconvergence stack (the default), or with
    /// independent thread scheduling (PTX's sm_70+ semantics: paths interleave, warp-synchronous instructions
    /// wait for the lanes of their mask). `None` (the default): the program's `.scheduling` directive, else
    /// lockstep.
    pub scheduling: Option<Scheduling>,
    /// Attribute every warp's cycles to the instruction that caused them ([`RunOutput::lines`], `profile.rs`).
    pub profile: bool,
}

/// A callback that follows a run's progress ([`RunOptions::progress`]).
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// How far a run is, reported after every epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub cycle: u64,
    pub blocks_finished: u64,
    pub blocks: u64,
}

impl std::fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("max_cycles", &self.max_cycles)
            .field("max_instructions", &self.max_instructions)
            .field("checks", &self.checks)
            .field("schedule", &self.schedule)
            .field("threads", &self.threads)
            .field("progress", &self.progress.is_some())
            .field("timeout", &self.timeout)
            .field("scheduling", &self.scheduling)
            .field("profile", &self.profile)
            .finish()
    }
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_cycles: 100_000_000,
            max_instructions: 1_000_000_000,
            checks: Checks::default(),
            schedule: Schedule::Policy,
            threads: 0,
            progress: None,
            timeout: None,
            scheduling: None,
            profile: false,
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

    pub(crate) fn add(&mut self, o: &Stalls) {
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
    /// Warp instructions that are dead code the compiler removes (`timing.dead_code`): they executed, timed as
    /// their issue slot; their memory accesses are in no other count.
    pub dead_instructions: u64,
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
    /// Cycle breakdown of the first `WARP_STALLS_KEPT` (1,024) warps, by block and warp.
    pub warp_stalls: Vec<WarpStalls>,
}

impl Stats {
    /// Add another SM's counts to these (per-warp breakdowns are appended).
    pub(crate) fn merge(&mut self, o: &Stats) {
        self.warp_instructions += o.warp_instructions;
        self.lane_instructions += o.lane_instructions;
        self.shuffles += o.shuffles;
        self.undefined_shuffle_reads += o.undefined_shuffle_reads;
        self.dead_instructions += o.dead_instructions;
        self.divergent_branches += o.divergent_branches;
        self.shared_accesses += o.shared_accesses;
        self.bank_conflicts += o.bank_conflicts;
        self.bank_conflict_cycles += o.bank_conflict_cycles;
        self.atomics += o.atomics;
        self.barriers += o.barriers;
        self.l1_hits += o.l1_hits;
        self.l1_misses += o.l1_misses;
        self.warps += o.warps;
        self.stalls.add(&o.stalls);
        self.warp_stalls.extend_from_slice(&o.warp_stalls);
    }
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutput {
    pub cycles: u64,
    pub stats: Stats,
    /// Every global buffer's final contents.
    pub buffers: Vec<Buffer>,
    /// What the sanitizers found ([`RunOptions::checks`]), each distinct finding once, in the order first seen.
    pub findings: Vec<Finding>,
    /// Without `--check race`: the first shared-memory read of a word another warp wrote since their block's last
    /// barrier (a likely missing barrier), in (cycle, SM) order.
    pub unordered: Option<UnorderedRead>,
    /// With [`RunOptions::profile`]: per instruction (by pc), the cycles every warp spent at it; else empty.
    pub lines: Vec<crate::profile::LineCycles>,
    /// What `printf` printed, in the order of the cycles it was called at (SM order within a cycle, each SM's
    /// calls in issue order, a warp's lanes in lane order).
    pub printed: Vec<Printed>,
}

/// The text one thread's `printf` printed, and where and when.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Printed {
    pub cycle: u64,
    pub block: u32,
    pub warp: u32,
    pub lane: u32,
    pub text: String,
}

impl RunOutput {
    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}
