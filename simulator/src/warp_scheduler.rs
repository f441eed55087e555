//! The warp schedulers: each cycle, each scheduler of the SM picks one of its warps whose next instruction can
//! issue (operands ready by the scoreboard, not held by a branch or a barrier, its pipe free).
//!
//! Hopper has four schedulers per SM, each owning the warps of its sub-partition (warp slot `i` belongs to
//! scheduler `i % schedulers`) and issuing at most one instruction per cycle. The policy is the
//! configuration's (`Config::scheduler_policy`): loose round robin (start after the warp issued last) or
//! greedy-then-oldest (the same warp while it can, then the oldest). For testing programs, a [`Schedule`] can
//! replace it: the youngest warp first, or a seeded random choice with schedulers held back for stretches.
//!
//! The unit keeps its own view of every warp slot, updated by the SM whenever the warp changes
//! ([`WarpScheduler::set`]), so that a search reads two numbers per warp; it never looks at a warp itself.
//! What it leaves out: dual issue, the instruction buffer and fetch, and the scheduler's own latency.

use crate::config::SchedulerPolicy;
use crate::scoreboard::Ready;

/// The order in which warp schedulers pick among ready warps. Anything but [`Schedule::Policy`] is for
/// testing programs: a correct program gives the same values under every schedule (only cycles change).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Schedule {
    /// The configuration's policy (loose round robin or greedy-then-oldest).
    #[default]
    Policy,
    /// Every scheduler prefers its youngest ready warp (highest slot) and the schedulers take turns in
    /// reverse: the opposite of the default order.
    Reverse,
    /// A seeded pseudo-random schedule: each cycle the schedulers take turns in a random rotation, each picks a
    /// random ready warp, and a scheduler is held back for random stretches (see `hold`), so that warps of
    /// different schedulers interleave in ever different ways. The same seed gives the same run.
    Random { seed: u64 },
}

impl Schedule {
    /// Whether a random schedule holds scheduler `s` back at `cycle`: for stretches of 32 cycles at a time, a
    /// scheduler is never held (half the stretches), held one cycle in two, or fifteen in sixteen, so that one
    /// warp can run far ahead of another.
    #[inline]
    pub(crate) fn hold(seed: u64, sm: u32, cycle: u64, s: usize) -> bool {
        let r = Schedule::draw(seed, sm, cycle, 1 << 20 | s as u64);
        match Schedule::draw(seed, sm, cycle / 32, 2 << 20 | s as u64) % 4 {
            0 | 1 => false,
            2 => r.is_multiple_of(2),
            _ => !r.is_multiple_of(16),
        }
    }

    /// The order in which the schedulers of an SM take their turn at `cycle`: the first one and the step. It
    /// rotates every cycle, so that no scheduler always gets the SM-wide pipes first (in reverse, or in a random
    /// rotation, under those schedules).
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a rotation, taken modulo `schedulers`: a usize narrower than 64 bits would wrap it, still a rotation"
    )]
    pub(crate) fn turns(self, sm: u32, cycle: u64, schedulers: usize) -> (usize, usize) {
        match self {
            Schedule::Policy => (cycle as usize, 1),
            Schedule::Reverse => (cycle as usize + schedulers - 1, schedulers - 1),
            Schedule::Random { seed } => {
                let r = Schedule::draw(seed, sm, cycle, 0);
                (r as usize, if r >> 32 & 1 == 1 { 1 } else { schedulers - 1 })
            }
        }
    }

    /// A random number from `(seed, sm, cycle, what)` alone (SplitMix64), so a run's choices do not depend on
    /// how its cycles are split into steps.
    #[inline]
    pub(crate) fn draw(seed: u64, sm: u32, cycle: u64, what: u64) -> u64 {
        let mut z = seed
            ^ u64::from(sm).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ cycle.wrapping_mul(0xd1b5_4a32_d192_ed03)
            ^ what.wrapping_mul(0xa24b_aed4_963e_e407);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The schedulers of one SM and their view of its warp slots.
pub(crate) struct WarpScheduler {
    /// When each slot's next instruction's operands are ready and it is not held (`u64::MAX` for an empty slot
    /// or a warp at a barrier), laid out scheduler by scheduler (slot `s + schedulers × k` at `s × owned + k`,
    /// padded to a whole number per scheduler) so that a round-robin search scans one contiguous array.
    ready: Vec<u64>,
    /// Per slot: the `pipe_free` entry its next instruction needs.
    pub pipe_of: Vec<u32>,
    /// Per slot: the operands' readiness behind `ready` (for the stall breakdown of the warp that issues).
    ops: Vec<Ready>,
    /// Per scheduler: the slot it issued last (round robin starts after it; greedy tries it first).
    pub last_issued: Vec<usize>,
    /// Per scheduler, where its loose round-robin search starts: the index (in its own slots) after the last
    /// slot it issued, kept with `last_issued` ([`WarpScheduler::issued`]).
    rr_start: Vec<usize>,
    /// Warp slots per scheduler (`ready.len() / schedulers`).
    owned: usize,
    /// Per scheduler: no warp of it can issue before this cycle (a lower bound; 0 when unknown).
    pub next: Vec<u64>,
    /// Per scheduler: its live warps' slots, oldest (placed on the SM first) first.
    pub by_age: Vec<Vec<usize>>,
    /// Per scheduler: one past the highest of its slots a warp was ever placed in, where its searches stop.
    upto: Vec<usize>,
    /// Per slot: its scheduler (`slot % schedulers`) and its place among that scheduler's slots
    /// (`slot / schedulers`), looked up rather than divided at every issue.
    place: Vec<(u16, u32)>,
}

impl WarpScheduler {
    pub fn new(slots: usize, schedulers: usize) -> WarpScheduler {
        WarpScheduler {
            ready: vec![u64::MAX; slots.div_ceil(schedulers) * schedulers],
            pipe_of: vec![0; slots],
            ops: vec![Ready::default(); slots],
            // As if each scheduler had just issued its last slot, so the first search starts at its first one.
            last_issued: (0..schedulers)
                .map(|s| s + schedulers * (slots.div_ceil(schedulers) - 1))
                .collect(),
            next: vec![u64::MAX; schedulers],
            rr_start: vec![0; schedulers],
            owned: slots.div_ceil(schedulers),
            by_age: vec![Vec::new(); schedulers],
            upto: vec![0; schedulers],
            #[allow(
                clippy::cast_possible_truncation,
                reason = "at most 64 schedulers (Config::validate) and 4096 warp slots"
            )]
            place: (0..slots)
                .map(|i| ((i % schedulers) as u16, (i / schedulers) as u32))
                .collect(),
        }
    }

    /// The scheduler that owns warp slot `slot`.
    #[inline]
    pub fn of(&self, slot: usize) -> usize {
        usize::from(self.place[slot].0)
    }

    /// A warp was placed in `slot`.
    #[inline]
    pub fn placed(&mut self, slot: usize) {
        let (s, k) = self.place[slot];
        let s = usize::from(s);
        self.upto[s] = self.upto[s].max(k as usize + 1);
    }

    /// Scheduler `s` issued the warp in `slot`.
    #[inline]
    pub fn issued(&mut self, s: usize, slot: usize) {
        self.last_issued[s] = slot;
        let next = self.place[slot].1 as usize + 1;
        self.rr_start[s] = if next == self.owned { 0 } else { next };
    }

    /// How many schedulers.
    #[inline]
    pub fn count(&self) -> usize {
        self.by_age.len()
    }

    /// Where warp slot `slot`'s readiness lies in `ready`.
    #[inline]
    fn ready_index(&self, slot: usize) -> usize {
        let (s, k) = self.place[slot];
        usize::from(s) * self.owned + k as usize
    }

    /// The slot's new view: ready at `ready`, needing pipe entry `pipe`, with operands `ops`.
    #[inline(always)]
    pub fn set(&mut self, slot: usize, ready: u64, pipe: u32, ops: Ready) {
        let s = self.of(slot);
        let at = self.ready_index(slot);
        self.ready[at] = ready;
        self.pipe_of[slot] = pipe;
        self.ops[slot] = ops;
        self.next[s] = self.next[s].min(ready);
    }

    /// When the warp in `slot` can issue its next instruction, and why not sooner: the operands' readiness and
    /// the pipe's.
    #[inline]
    pub fn readiness(&self, slot: usize, pipe_free: &[u64]) -> (Ready, u64) {
        (self.ops[slot], pipe_free[self.pipe_of[slot] as usize])
    }

    /// The warp slot of scheduler `s` that the policy picks to issue at `cycle`, if any; lowers `earliest` to
    /// when the others could.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn pick(
        &self,
        s: usize,
        cycle: u64,
        pipe_free: &[u64],
        policy: SchedulerPolicy,
        schedule: Schedule,
        sm: u32,
        earliest: &mut u64,
    ) -> Option<usize> {
        if schedule == Schedule::Policy && policy == SchedulerPolicy::LooseRoundRobin {
            self.round_robin(s, cycle, pipe_free, earliest)
        } else {
            self.pick_other(s, cycle, pipe_free, policy, schedule, sm, earliest)
        }
    }

    /// Loose round robin: the first warp that can issue, from the one after the warp that issued last.
    #[inline(always)]
    fn round_robin(&self, s: usize, cycle: u64, pipe_free: &[u64], earliest: &mut u64) -> Option<usize> {
        let schedulers = self.by_age.len();
        let ready = &self.ready[s * self.owned..s * self.owned + self.upto[s]];
        let first = self.rr_start[s].min(ready.len());
        // (`earliest` is only read when no warp can issue: the scan takes the minimum as it goes.)
        let mut soonest = u64::MAX;
        for (base, part) in [(first, &ready[first..]), (0, &ready[..first])] {
            for (k, &r) in part.iter().enumerate() {
                let t = if r > cycle {
                    r
                } else {
                    let slot = s + schedulers * (base + k);
                    let at = pipe_free[self.pipe_of[slot] as usize];
                    if at <= cycle {
                        return Some(slot);
                    }
                    at
                };
                soonest = soonest.min(t);
            }
        }
        *earliest = (*earliest).min(soonest);
        None
    }

    /// The other policy, and the test schedules.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn pick_other(
        &self,
        s: usize,
        cycle: u64,
        pipe_free: &[u64],
        policy: SchedulerPolicy,
        schedule: Schedule,
        sm: u32,
        earliest: &mut u64,
    ) -> Option<usize> {
        let schedulers = self.by_age.len();
        // Whether the warp in `slot`, ready at `ready`, can issue now (its pipe free too); if not, lower
        // `earliest` to when it might. (An empty slot or a warp at a barrier has `ready` = MAX.)
        let can = |slot: usize, ready: u64, earliest: &mut u64| {
            if ready > cycle {
                *earliest = (*earliest).min(ready);
                return false;
            }
            let at = pipe_free[self.pipe_of[slot] as usize];
            if at <= cycle {
                return true;
            }
            *earliest = (*earliest).min(at);
            false
        };
        // (Only up to the scheduler's highest slot that ever held a warp: those above are empty and could lower
        // nothing.)
        let owned = self.owned;
        let ready = &self.ready[s * owned..s * owned + self.upto[s]];
        let owned = ready.len();
        match schedule {
            Schedule::Policy => {}
            // The youngest ready warp first.
            Schedule::Reverse => {
                for k in (0..owned).rev() {
                    if can(s + schedulers * k, ready[k], earliest) {
                        return Some(s + schedulers * k);
                    }
                }
                return None;
            }
            // A random one of the ready warps: count them, draw, find it.
            Schedule::Random { seed } => {
                let mut n = 0u64;
                for (k, &r) in ready.iter().enumerate() {
                    n += u64::from(can(s + schedulers * k, r, earliest));
                }
                if n == 0 {
                    return None;
                }
                let mut pick = Schedule::draw(seed, sm, cycle, 1 + s as u64) % n;
                for (k, &r) in ready.iter().enumerate() {
                    if can(s + schedulers * k, r, earliest) {
                        if pick == 0 {
                            return Some(s + schedulers * k);
                        }
                        pick -= 1;
                    }
                }
                return None;
            }
        }
        match policy {
            // (`pick` goes there itself; this is for completeness.)
            SchedulerPolicy::LooseRoundRobin => self.round_robin(s, cycle, pipe_free, earliest),
            SchedulerPolicy::GreedyThenOldest => {
                let last = self.last_issued[s];
                if last < self.pipe_of.len() && can(last, self.ready[self.ready_index(last)], earliest) {
                    return Some(last);
                }
                self.by_age[s]
                    .iter()
                    .copied()
                    .find(|&slot| slot != last && can(slot, self.ready[self.ready_index(slot)], earliest))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_depend_on_every_input() {
        let a = Schedule::draw(1, 0, 5, 0);
        assert_ne!(a, Schedule::draw(2, 0, 5, 0));
        assert_ne!(a, Schedule::draw(1, 1, 5, 0));
        assert_ne!(a, Schedule::draw(1, 0, 6, 0));
        assert_ne!(a, Schedule::draw(1, 0, 5, 1));
        assert_eq!(a, Schedule::draw(1, 0, 5, 0));
    }
}
