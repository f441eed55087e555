//! The block barrier unit (`bar.sync`, `bar.red`).
//!
//! Hardware: each block has 16 named barriers. A warp arriving at `bar.sync id` waits until the expected number
//! of threads has arrived: all non-exited threads of the block, or the `count` given (a multiple of the warp
//! size, counted per arriving warp). A warp at `bar.arrive id, count` is counted and goes on without waiting
//! (a producer signalling consumers that wait at `bar.sync id, count`). `bar.red` also reduces a predicate over the arriving threads (`popc`,
//! `and`, `or`). Release takes time that grows with the number of warps (about 12 + 2 x warps cycles on Hopper).
//!
//! Model: a barrier counts arriving warps; a warp whose lanes have all exited no longer counts as expected, so
//! exited threads never block a barrier. Each block has a [`BarrierUnit`]: its 16 barriers, the cycle it can
//! take the next arrival (one per `Config::timing.units.barrier.interval`), and its count of releases (a
//! generation, for the missing-barrier hint). The unit checks a `bar` instruction's operands ([`arrival`]),
//! counts arrivals, releases the waiters when the count is reached (the SM then lets those warps go on at the
//! release's `resume` cycle) and writes a `bar.red` result ([`reduction`]).

use crate::fault::FaultKind;
use crate::kernel::{DBar, Src};
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use crate::trace::BarrierResult;

/// Named barriers per block (PTX: 16).
pub const BARRIERS: usize = 16;

/// A warp waiting at a barrier, and the lanes it arrived with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiter {
    pub slot: usize,
    pub lanes: u64,
    /// False for `bar.arrive`: counted towards the barrier, not released by it.
    pub waits: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Barrier {
    pub waiting: Vec<Waiter>,
    /// Warps expected when the arrivals gave a thread count.
    pub expected: Option<u32>,
    /// `bar.red` accumulators over arrived threads.
    pub popc: u32,
    pub all: bool,
    pub any: bool,
}

impl Barrier {
    pub fn arrive(&mut self, waiter: Waiter, expected: Option<u32>, predicate: u64) {
        if self.waiting.is_empty() {
            self.all = true;
            self.any = false;
            self.popc = 0;
        }
        self.waiting.push(waiter);
        if expected.is_some() {
            self.expected = expected;
        }
        let set = predicate & waiter.lanes;
        self.popc += set.count_ones();
        self.all &= set == waiter.lanes;
        self.any |= set != 0;
    }

    /// Warps this barrier waits for, given the block's warps that still have live lanes.
    pub fn expected_warps(&self, live_warps: u32) -> u32 {
        self.expected.unwrap_or(live_warps)
    }

    #[allow(
        clippy::cast_possible_truncation,
        reason = "warps of one block, at most max_warps_per_sm (4096)"
    )]
    pub fn complete(&self, live_warps: u32) -> bool {
        !self.waiting.is_empty() && self.waiting.len() as u32 >= self.expected_warps(live_warps)
    }

    /// Move the waiters into `out` (empty; the two vectors swap storage, so nothing is allocated) and reset for
    /// the next phase.
    pub fn release(&mut self, out: &mut Vec<Waiter>) -> (u32, bool, bool) {
        debug_assert!(out.is_empty());
        std::mem::swap(&mut self.waiting, out);
        self.expected = None;
        (self.popc, self.all, self.any)
    }

    /// Forget everything (a new block reuses this barrier).
    pub fn reset(&mut self) {
        self.waiting.clear();
        self.expected = None;
        self.popc = 0;
        self.all = false;
        self.any = false;
    }
}

/// One block's barriers.
#[derive(Clone, Debug)]
pub(crate) struct BarrierUnit {
    pub barriers: Vec<Barrier>,
    /// When the unit has processed every arrival so far.
    free: u64,
    /// Releases so far.
    pub generation: u32,
}

/// A barrier released: its waiting warps (in the vector given to [`BarrierUnit::try_release`]), the `bar.red`
/// accumulators, and the cycle the warps may issue again.
pub(crate) struct Release {
    pub popc: u32,
    pub all: bool,
    pub any: bool,
    pub resume: u64,
}

impl Default for BarrierUnit {
    fn default() -> BarrierUnit {
        BarrierUnit {
            barriers: vec![Barrier::default(); BARRIERS],
            free: 0,
            generation: 0,
        }
    }
}

impl BarrierUnit {
    /// Forget everything (a new block reuses this unit).
    pub fn reset(&mut self) {
        self.barriers.iter_mut().for_each(Barrier::reset);
        self.free = 0;
        self.generation = 0;
    }

    /// A warp arrives at barrier `id` at `cycle`; the unit takes one arrival each `interval` cycles. Returns the
    /// warps there now and the warps expected (for the trace).
    #[inline]
    pub fn arrive(
        &mut self,
        id: u32,
        waiter: Waiter,
        (expected, predicate): (Option<u32>, u64),
        live_warps: u32,
        cycle: u64,
        interval: u64,
    ) -> (u32, u32) {
        self.free = self.free.max(cycle) + interval;
        let barrier = &mut self.barriers[id as usize];
        barrier.arrive(waiter, expected, predicate);
        #[allow(
            clippy::cast_possible_truncation,
            reason = "warps of one block, at most max_warps_per_sm (4096)"
        )]
        (barrier.waiting.len() as u32, barrier.expected_warps(live_warps))
    }

    /// Release barrier `id` if every expected warp is there: its waiters into `out`, and when they may go on
    /// (`latency` after the unit has processed the arrivals).
    #[inline]
    pub fn try_release(
        &mut self,
        id: u32,
        live_warps: u32,
        cycle: u64,
        latency: u64,
        out: &mut Vec<Waiter>,
    ) -> Option<Release> {
        if !self.barriers[id as usize].complete(live_warps) {
            return None;
        }
        let (popc, all, any) = self.barriers[id as usize].release(out);
        self.generation = self.generation.wrapping_add(1);
        Some(Release {
            popc,
            all,
            any,
            resume: self.free.max(cycle) + latency,
        })
    }
}

/// What a `bar` instruction arrives with: the barrier, the warps it waits for when a thread count is given, and
/// the predicate a `bar.red` reduces (lane mask).
#[derive(Clone, Copy)]
pub(crate) struct Arrival {
    pub id: u32,
    pub expected: Option<u32>,
    pub predicate: u64,
    /// `bar.sync`/`bar.red` wait for the release; `bar.arrive` does not.
    pub waits: bool,
}

/// Check and read a `bar` instruction's operands for the `exec` lanes of a warp whose live lanes are `live`: every
/// live lane must arrive (else the barrier diverged), the id must name one of the 16 barriers, and a thread count
/// must be a positive multiple of the warp size. A fault names the first lane, where one is to blame.
#[inline]
pub(crate) fn arrival(
    rf: &RegisterFile,
    ctx: &LaneCtx,
    (kind, id, count, pred): (DBar, Src, Option<Src>, Option<(u16, bool)>),
    exec: u64,
    live: u64,
) -> Result<Arrival, (FaultKind, Option<u32>)> {
    if exec != live {
        return Err((
            FaultKind::BarrierDivergence {
                arrived: exec,
                missing: live & !exec,
            },
            None,
        ));
    }
    let first = exec.trailing_zeros();
    let id = rf.read(id, first, ctx);
    if id as usize >= BARRIERS {
        return Err((
            FaultKind::BadBarrier {
                what: format!("barrier id {id} is out of range (0 to {})", BARRIERS - 1),
            },
            Some(first),
        ));
    }
    let expected = match count {
        None => None,
        Some(c) => {
            let threads = rf.read(c, first, ctx);
            if threads == 0 || !threads.is_multiple_of(ctx.w) {
                return Err((
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
            let v = rf.preds[p as usize];
            if neg { !v } else { v }
        }
        None => 0,
    };
    Ok(Arrival {
        id,
        expected,
        predicate,
        waits: kind != DBar::Arrive,
    })
}

/// Write what a `bar.red` computed into the `lanes` of a released warp (`bar.sync` writes nothing).
pub(crate) fn reduction(rf: &mut RegisterFile, kind: DBar, lanes: u64, r: &Release) -> BarrierResult {
    match kind {
        DBar::Sync | DBar::Arrive => BarrierResult::None,
        DBar::Popc(d) => {
            for_lanes(lanes, |lane| rf.regs[d as usize * rf.stride + lane as usize] = r.popc);
            BarrierResult::Popc(r.popc)
        }
        DBar::And(p) | DBar::Or(p) => {
            let and = matches!(kind, DBar::And(_));
            let v = if and { r.all } else { r.any };
            rf.preds[p as usize] = (rf.preds[p as usize] & !lanes) | if v { lanes } else { 0 };
            if and {
                BarrierResult::And(v)
            } else {
                BarrierResult::Or(v)
            }
        }
    }
}
