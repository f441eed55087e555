//! The block barrier unit (`bar.sync`, `bar.red`).
//!
//! Hardware: each block has 16 named barriers. A warp arriving at `bar.sync id` waits until the expected number
//! of threads has arrived: all non-exited threads of the block, or the `count` given (a multiple of the warp
//! size, counted per arriving warp). `bar.red` also reduces a predicate over the arriving threads (`popc`,
//! `and`, `or`). Release takes time that grows with the number of warps (about 12 + 2 x warps cycles on Hopper).
//!
//! Model: a barrier counts arriving warps; a warp whose lanes have all exited no longer counts as expected, so
//! exited threads never block a barrier. The SM releases the waiters when the count is reached.

/// Named barriers per block (PTX: 16).
pub const BARRIERS: usize = 16;

/// A warp waiting at a barrier, and the lanes it arrived with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiter {
    pub slot: usize,
    pub lanes: u64,
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
