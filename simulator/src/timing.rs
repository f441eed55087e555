//! The timing model: what an issued instruction costs, from what it did and `Config::timing`.
//!
//! An executor says what happened (how many distinct words a shared access put in its busiest bank, how many
//! cache lines a global access touched and when the last one's data arrives, how many lanes of an atomic hit
//! one word); these functions turn that into a [`Cost`]. No latency or interval is written anywhere else: they
//! all come from the configuration (`Config::timing`: per functional-unit class a latency and an issue
//! interval, the bank-conflict replay cost, the atomics' serialisation, the L1's miss latency).
//!
//! [`price`] is the model's one entry: it reads an instruction's [`Outcome`] (what it did, from the execute stage)
//! and asks the load/store unit what that access meant for the hardware (bank conflicts, cache lines and L1 hits,
//! atomics on one word), counting those in the statistics.
//!
//! A [`Cost`] feeds three things: the scoreboard (the result is ready `latency` cycles after issue; `replays`
//! of those are bank-conflict replays, for the stall breakdown), the pipe (busy for `occupancy` cycles), and the
//! warp (after a taken branch it waits for the branch's latency).

use crate::cache::{L1, L2View};
use crate::check::AccessKind;
use crate::config::{StoreDrain, Timing, Unit};
use crate::execute::Outcome;
use crate::kernel::{DInstr, Flat, Pipe};
use crate::lsu::{compact_words, global_lines, shared_cost};
use crate::run::Stats;
use crate::shared_memory;

/// An instruction's cost, and what pricing found that the trace shows: a shared access's conflict degree (the
/// busiest bank's distinct words) and an atomic's most lanes on one word.
pub(crate) struct Priced {
    pub cost: Cost,
    pub degree: u32,
    pub same_address: u32,
    /// Cycles the warp waits before its next store (a global store's issue, `memory.store_drain.issue`).
    pub hold: u64,
}

/// The SM's memory system as timing sees it: the shared-memory banks, the L1 (its state moves on with every
/// global load), the lines L2 holds, and where each global buffer lies (for cache lines).
pub(crate) struct MemoryTiming<'a> {
    pub banks: u32,
    /// The warp size (a 64-bit shared access is served a half warp at a time).
    pub w: u32,
    pub l1: &'a mut L1,
    pub l2: L2View<'a>,
    pub global_base: &'a [u64],
    /// Where the issuing warp's local memory lies (for cache lines: [`crate::warp::Warp::local_base`]).
    pub local_base: u64,
    /// The SM's queues of global stores, and the issuing warp's sub-partition.
    pub stores: (&'a mut crate::lsu::Stores, usize),
}

/// A global store issued at `cycle` by a warp of sub-partition `part`, that reached `lines`: unless it merges into
/// the SM's previous store (it covers at most `drain.merge_lines` lines, all within that store's), it queues its
/// work, its sectors' and its lines' beyond the first, in the SM's queue, which does a cycle of it each cycle.
/// Returns the cycles it waits for room: the queue holds `drain.queue` cycles of work and `drain.entries` stores
/// of this one's size, `drain.part_entries` more for each other sub-partition with stores in it.
#[inline(always)]
pub(crate) fn store_wait(
    drain: &StoreDrain,
    (stores, part): (&mut crate::lsu::Stores, usize),
    lines: &crate::lsu::Lines,
    cycle: u64,
) -> u64 {
    if lines.count == 0 {
        return 0;
    }
    if lines.count <= u64::from(drain.merge_lines) && lines.span.0 >= stores.last.0 && lines.span.1 <= stores.last.1 {
        return 0;
    }
    stores.last = lines.span;
    let work = lines.sectors * u64::from(drain.sector) + (lines.count - 1) * u64::from(drain.line);
    let now = cycle * 100;
    let others = stores
        .parts
        .iter()
        .enumerate()
        .filter(|&(p, &done)| p != part && done > now)
        .count() as u64;
    let entries = u64::from(drain.entries) + others * u64::from(drain.part_entries);
    stores.done = stores.done.max(now) + work;
    stores.parts[part] = stores.done;
    let room = u64::from(drain.queue) * 100 + work * entries;
    (stores.done - now).saturating_sub(room).div_ceil(100)
}

/// Price what `inst` did (`outcome`) in its `exec` lanes, issued at `cycle`: by its unit class, unless its memory
/// access says otherwise (bank conflicts, lines and L1 misses, atomics' serialisation); a barrier takes only its
/// issue slot of the pipe.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn price<'m>(
    outcome: &Outcome,
    inst: &DInstr,
    timing: &Timing,
    mem: impl FnOnce() -> MemoryTiming<'m>,
    stats: &mut Stats,
    cycle: u64,
    exec: u64,
) -> Priced {
    let unit = inst.unit.timing(&timing.units);
    let mut p = Priced {
        cost: unit_cost(inst, timing),
        degree: 0,
        same_address: 0,
        hold: 0,
    };
    if let Outcome::Access(m) = outcome {
        // (The memory system's state only for an access: built per instruction it cost every issue.)
        let mut mem = mem();
        // A generic access is priced by the memory its lanes reached (it issued on the global pipe).
        let shared_unit = || {
            if m.addr.flat == Flat::Generic {
                generic_shared(inst.unit).timing(&timing.units)
            } else {
                unit
            }
        };
        let (global_base, local_base) = (mem.global_base, mem.local_base);
        let base = move || {
            if m.addr.local {
                local_base
            } else {
                global_base[m.addr.buffer as usize]
            }
        };
        let (degree, conflict) = shared_cost(stats, timing.bank_conflict, mem.banks, m.addr, m.words, exec, mem.w);
        p.degree = degree;
        p.cost = match m.kind {
            AccessKind::Read | AccessKind::Write if m.addr.shared => Cost::shared(shared_unit(), degree, conflict),
            AccessKind::Read => {
                // Local memory's hits come sooner than global memory's (`units.local_load`).
                let unit = if m.addr.local { timing.units.local_load } else { unit };
                let l1 = Some((&mut *mem.l1, cycle, u64::from(unit.latency)));
                let sizes = (timing.memory.line_bytes, timing.memory.sector_bytes);
                let crate::lsu::Lines {
                    count: lines,
                    misses,
                    arrival,
                    ..
                } = global_lines(base(), m.words, exec, sizes, l1, &mut mem.l2);
                stats.l1_hits += lines - misses;
                stats.l1_misses += misses;
                // The L1's data array has the shared memory's banks: lanes on distinct words of one bank replay.
                let (degree, minimum) = crate::lsu::bank_degree(mem.banks, m.addr, m.words, exec, mem.w);
                let conflict = u64::from(degree.saturating_sub(minimum)) * u64::from(timing.bank_conflict);
                let lpc = timing.memory.l1_lines_per_cycle;
                Cost::global_load(unit, cycle, (lines, arrival), (degree, conflict), lpc)
            }
            AccessKind::Write => {
                // Global memory: write-through, no allocation; the L1 is not consulted (the lines are then in
                // L2). Local memory (a thread's stack and arrays): the L1 keeps what is written.
                let sizes = (timing.memory.line_bytes, timing.memory.sector_bytes);
                if m.addr.local {
                    // An interval of the unit a line.
                    let lines =
                        crate::lsu::local_store_lines(base(), m.words, exec, sizes, (&mut *mem.l1, cycle), &mut mem.l2);
                    Cost::store(unit, u64::from(unit.interval) * lines.max(1))
                } else {
                    // The pipe takes it in an interval, or waits for room in the SM's store queue; the warp's next
                    // store waits for its issue.
                    let lines = global_lines(base(), m.words, exec, sizes, None, &mut mem.l2);
                    let drain = &timing.memory.store_drain;
                    p.hold = u64::from(drain.issue);
                    let wait = store_wait(drain, mem.stores, &lines, cycle);
                    Cost::store(unit, wait.max(u64::from(unit.interval)))
                }
            }
            // An atomic no lane executes sends nothing to the memory system: its issue slot only (a block of
            // 1024 threads whose 31 other warps skip thread 0's `red` pays nothing for them; docs/timing.md).
            AccessKind::Atomic if exec == 0 => Cost::empty(),
            AccessKind::Atomic => {
                let unit = if m.addr.shared { shared_unit() } else { unit };
                // (A shared atomic's words are the block's shared memory's: no buffer's base.)
                let base = if m.addr.shared { 0 } else { base() };
                let (cost, same) = atomic(m, inst, timing, &mut mem, (base, exec, cycle), (unit, conflict));
                p.same_address = same;
                cost
            }
        };
    }
    if inst.unit.pipe() == Pipe::Barrier {
        p.cost = p.cost.barrier();
    }
    if let Outcome::SlowPath | Outcome::Subroutine = outcome {
        // The warp runs the subroutine (`Sm::issue` holds it for the whole latency).
        use crate::kernel::{DOp, Unit, Wide};
        use warpsim_isa::RoundedOp;
        let s = &timing.slow_paths;
        let f32_sqrt = matches!(
            inst.op,
            DOp::Wide {
                f: Wide::Sqrt32
                    | Wide::Rounded {
                        op: RoundedOp::Sqrt,
                        wide: false,
                        ..
                    },
                ..
            }
        );
        p.cost.latency += u64::from(match (outcome, inst.op) {
            (
                Outcome::Subroutine,
                DOp::Wide {
                    f: Wide::Rounded { op, wide, .. },
                    ..
                },
            ) => match (op, wide) {
                (RoundedOp::Div, false) => s.f32_div_directed,
                (RoundedOp::Sqrt, false) => s.f32_sqrt_directed,
                (RoundedOp::Div, true) => s.f64_div_directed,
                (RoundedOp::Rcp, true) => s.f64_rcp_directed,
                (RoundedOp::Sqrt, true) => s.f64_sqrt_directed,
                _ => 0,
            },
            _ if matches!(inst.unit, Unit::Fp32Div | Unit::Fp32Rcp) => s.f32_div,
            _ if matches!(inst.unit, Unit::Fp64Div | Unit::Fp64Rcp) => s.f64_div,
            _ if f32_sqrt => s.f32_sqrt,
            _ => s.f64_sqrt,
        });
    }
    if let Outcome::Printed(_) = outcome {
        // Each calling lane after the first writes its own record.
        p.cost.latency += u64::from(timing.printf_per_lane) * u64::from(exec.count_ones().saturating_sub(1));
    }
    p
}

/// What an atomic with executing lanes costs (`unit`: its class's, or shared memory's for a generic access that
/// reached it; `conflict`: its bank conflicts' cycles), and the most lanes on one word. Out of the issue path's
/// inlined pricing: an atomic is rare, and its code there made the rest slower.
#[inline(never)]
fn atomic(
    m: &crate::execute::MemoryAccess<'_>,
    inst: &DInstr,
    timing: &Timing,
    mem: &mut MemoryTiming<'_>,
    (base, exec, cycle): (u64, u64, u64),
    (unit, conflict): (crate::config::Unit, u64),
) -> (Cost, u32) {
    let mut fill = 0;
    // A global atomic's distinct lines, in order: L2 holds them, L1 drops them, and they are priced.
    let mut lines = [0u64; 64];
    let mut reached = 0;
    if !m.addr.shared {
        reached = crate::lsu::distinct_lines(base, m.words, exec, timing.memory.line_bytes, &mut lines);
        // Performed at L2, which then holds the lines; the SM's L1 copies of them are stale.
        if mem.l2.tracks() {
            let sizes = (timing.memory.line_bytes, timing.memory.sector_bytes);
            // The first access to a sector the host's copy left partly written waits for its fill.
            if !mem.l2.partial.sectors.is_empty()
                && crate::lsu::atomic_partial_first(base, m.words, exec, sizes, &mem.l2)
            {
                fill = mem.l2.partial.atomic;
            }
            for &line in &lines[..reached] {
                mem.l2.touch(line);
            }
        }
        for &line in &lines[..reached] {
            mem.l1.invalidate(line);
        }
    }
    // Lanes on one word serialise; distinct words in one bank also replay.
    let (compact, count) = compact_words(m.words, exec);
    let same = shared_memory::max_same_address(&compact[..count]);
    let per_lane = if inst.unit == crate::kernel::Unit::SharedAtomicCas {
        timing.shared_cas_retry
    } else if m.addr.shared {
        timing.shared_atomic_serialize
    } else {
        timing.global_atomic_serialize
    };
    let mut cost = Cost::atomic(unit, same, per_lane, conflict);
    cost.latency += fill;
    if !m.addr.shared && inst.unit == crate::kernel::Unit::GlobalAtomic {
        cost = global_atomic(
            &timing.memory,
            (cost, same),
            m.addr.wide,
            &lines[..reached],
            &mut *mem.stores.0,
            cycle,
        );
    }
    (cost, same)
}

/// A global atomic (`cost` as one line's, the lanes on one word serialised) issued at `cycle`: the SM's pipe takes
/// it in `memory.atomic_issue` cycles; at L2 it waits until each of its lines is done with this SM's earlier
/// atomics, occupies them for what `cost` gave the pipe (the unit's interval and the same word's lanes), and its
/// result waits for the last of its lines (`memory.atomic_line`, `atomic_line_wide` for 64 bits, a line beyond the
/// first) and `memory.atomic_word_lane` more a lane on one word beyond the first.
#[inline(never)]
fn global_atomic(
    memory: &crate::config::Memory,
    (mut cost, same): (Cost, u32),
    wide: bool,
    lines: &[u64],
    stores: &mut crate::lsu::Stores,
    cycle: u64,
) -> Cost {
    let n = lines.len();
    let start = lines
        .iter()
        .map(|l| stores.atomic_lines.get(l).copied().unwrap_or(0))
        .fold(cycle, u64::max);
    for &l in lines {
        stores.atomic_lines.insert(l, start + cost.occupancy);
    }
    let per = if wide {
        memory.atomic_line_wide
    } else {
        memory.atomic_line
    };
    cost.latency += (start - cycle)
        + (n as u64 - 1) * u64::from(per) / 100
        + u64::from(same.saturating_sub(1)) * u64::from(memory.atomic_word_lane);
    cost.occupancy = u64::from(memory.atomic_issue).max(cost.replays);
    cost
}

/// What an instruction that only computes lane values costs: its unit's latency and interval (all [`price`]
/// charges a [`crate::execute::is_plain`] instruction).
#[inline(always)]
pub(crate) fn unit_cost(inst: &DInstr, timing: &Timing) -> Cost {
    Cost::of(inst.unit.timing(&timing.units))
}

/// The shared-memory class of a generic access's global class (it reached shared memory).
#[cold]
fn generic_shared(unit: crate::kernel::Unit) -> crate::kernel::Unit {
    use crate::kernel::Unit;
    match unit {
        Unit::GlobalLoad => Unit::SharedLoad,
        Unit::GlobalStore => Unit::SharedStore,
        Unit::GlobalAtomic | Unit::GlobalAtomicCas => Unit::SharedAtomic,
        u => u,
    }
}

/// What one issued instruction costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cost {
    /// Cycles from issue until its result (register, predicate or memory) is complete.
    pub latency: u64,
    /// Cycles its pipe is busy: the pipe's next instruction issues no sooner.
    pub occupancy: u64,
    /// Bank-conflict replay cycles within the latency.
    pub replays: u64,
}

impl Cost {
    /// An instruction of unit class `unit` that does nothing out of the ordinary.
    #[inline(always)]
    pub fn of(unit: Unit) -> Cost {
        Cost {
            latency: u64::from(unit.latency),
            occupancy: u64::from(unit.interval),
            replays: 0,
        }
    }

    /// A shared-memory load or store whose busiest bank holds `degree` distinct words: `conflict` replay cycles
    /// (`timing.bank_conflict` per extra word) on the latency; the pipe is busy once per wavefront.
    #[inline(always)]
    pub fn shared(unit: Unit, degree: u32, conflict: u64) -> Cost {
        let c = Cost::of(unit);
        Cost {
            latency: c.latency + conflict,
            occupancy: c.occupancy * u64::from(degree.max(1)),
            replays: conflict,
        }
    }

    /// An instruction that makes no request: one issue slot, complete the next cycle.
    #[inline(always)]
    pub fn empty() -> Cost {
        Cost {
            latency: 1,
            occupancy: 1,
            replays: 0,
        }
    }

    /// A global load of `lines` cache lines whose last data arrives at cycle `arrival` (issued at `cycle`), read
    /// out of the L1's data banks `degree` times (`conflict` cycles of replays): the result waits for the last
    /// line, the replays, and one cycle per `lines_per_cycle` further lines; the pipe is busy an interval per
    /// line or per replay, whichever are more.
    #[inline(always)]
    pub fn global_load(
        unit: Unit,
        cycle: u64,
        (lines, arrival): (u64, u64),
        (degree, conflict): (u32, u64),
        lines_per_cycle: u32,
    ) -> Cost {
        let c = Cost::of(unit);
        Cost {
            latency: if lines > 0 {
                arrival - cycle + conflict + (lines - 1) / u64::from(lines_per_cycle.max(1))
            } else {
                c.latency
            },
            occupancy: c.occupancy * lines.max(u64::from(degree)).max(1),
            replays: conflict,
        }
    }

    /// A global or local store that keeps the pipe `busy` cycles: a local store an interval a line, a global store
    /// an interval or its wait for room in the SM's store queue ([`store_wait`]).
    #[inline(always)]
    pub fn store(unit: Unit, busy: u64) -> Cost {
        Cost {
            occupancy: busy,
            ..Cost::of(unit)
        }
    }

    /// An atomic in which at most `same` lanes hit one word (they serialise, `per_lane` cycles each after the
    /// first) and distinct words in one bank cost `conflict` replay cycles.
    #[inline(always)]
    pub fn atomic(unit: Unit, same: u32, per_lane: u32, conflict: u64) -> Cost {
        let c = Cost::of(unit);
        let serial = u64::from(same.saturating_sub(1)) * u64::from(per_lane);
        Cost {
            latency: c.latency + serial + conflict,
            occupancy: c.occupancy + serial + conflict,
            replays: conflict,
        }
    }

    /// A barrier arrival: the block's barrier unit paces arrivals (`barrier::BarrierUnit::arrive`); the issue
    /// slot is all the warp's pipe gives.
    #[inline(always)]
    pub fn barrier(self) -> Cost {
        Cost { occupancy: 1, ..self }
    }

    /// Cycles until the warp may issue again: the next cycle; after a redirect (a branch or a jump) the branch's
    /// latency; after an instruction the hardware runs as a subroutine or loop of the warp's own (`hold`), its
    /// whole latency.
    #[inline(always)]
    pub fn next_issue(self, redirect: bool, hold: bool) -> u64 {
        if redirect || hold { self.latency.max(1) } else { 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LSU: Unit = Unit {
        latency: 23,
        interval: 2,
    };

    #[test]
    fn a_bank_conflict_adds_its_replays_and_a_wavefront_per_word() {
        assert_eq!(
            Cost::shared(LSU, 3, 4),
            Cost {
                latency: 27,
                occupancy: 6,
                replays: 4
            }
        );
        assert_eq!(Cost::shared(LSU, 1, 0), Cost::of(LSU));
        // A broadcast or an empty access is one wavefront.
        assert_eq!(Cost::shared(LSU, 0, 0).occupancy, 2);
    }

    #[test]
    fn a_global_load_waits_for_its_last_line_and_its_bank_replays() {
        // Two lines, the last one's data at cycle 100 + 300: ready then (a fifth of a cycle per further line
        // rounds down), the pipe busy an interval per line.
        assert_eq!(
            Cost::global_load(LSU, 100, (2, 400), (1, 0), 5),
            Cost {
                latency: 300,
                occupancy: 4,
                replays: 0
            }
        );
        // Eleven lines: two cycles more; a 4-way conflict in the L1's banks: 6 replay cycles, and the pipe busy for
        // the eleven lines (more than the four replays).
        assert_eq!(
            Cost::global_load(LSU, 100, (11, 400), (4, 6), 5),
            Cost {
                latency: 308,
                occupancy: 22,
                replays: 6
            }
        );
        // 32 lanes on distinct words of one bank of one line: the pipe busy for the 32 replays.
        assert_eq!(Cost::global_load(LSU, 100, (1, 140), (32, 62), 5).occupancy, 64);
        // No lane executed: nothing was fetched.
        assert_eq!(Cost::global_load(LSU, 100, (0, 0), (0, 0), 5), Cost::of(LSU));
        assert_eq!(Cost::store(LSU, 6).occupancy, 6);
        assert_eq!(Cost::store(LSU, 6).latency, 23);
    }

    #[test]
    fn atomics_on_one_word_serialise() {
        // 32 lanes on one word, 2 cycles each after the first, and 1 replay cycle.
        assert_eq!(
            Cost::atomic(LSU, 32, 2, 1),
            Cost {
                latency: 23 + 62 + 1,
                occupancy: 2 + 62 + 1,
                replays: 1
            }
        );
    }

    #[test]
    fn a_redirect_waits_for_the_branch_and_a_barrier_takes_one_issue_slot() {
        let bra = Cost::of(Unit {
            latency: 9,
            interval: 1,
        });
        assert_eq!((bra.next_issue(true, false), bra.next_issue(false, false)), (9, 1));
        assert_eq!(Cost::of(LSU).next_issue(false, true), 23);
        assert_eq!(Cost::of(LSU).barrier().occupancy, 1);
    }

    #[test]
    fn a_global_atomic_takes_the_pipe_briefly_and_waits_for_its_lines_at_l2() {
        let memory = crate::config::Config::hopper().timing.memory;
        let mut stores = crate::lsu::Stores::new(4);
        // One line's cost: 410 cycles of latency, the line busy 36 (`units.global_atomic`), no lane on one word.
        let one = Cost {
            latency: 410,
            occupancy: 36,
            replays: 0,
        };
        // The atomic's lines as `atomic` finds them (`lsu::distinct_lines`): lanes 0-31 on consecutive words of
        // buffer 0, one line.
        let full = u64::from(u32::MAX);
        let lines_of = |words: &[usize; 64]| {
            let mut out = [0u64; 64];
            let n = crate::lsu::distinct_lines(0, words, full, memory.line_bytes, &mut out);
            out[..n].to_vec()
        };
        let mut words = [0usize; 64];
        for (k, w) in words.iter_mut().enumerate() {
            *w = k;
        }
        let first = global_atomic(&memory, (one, 1), false, &lines_of(&words), &mut stores, 100);
        assert_eq!((first.latency, first.occupancy), (410, 6));
        // The same line 6 cycles later waits until the line is done with the first (136): 30 cycles more.
        let second = global_atomic(&memory, (one, 1), false, &lines_of(&words), &mut stores, 106);
        assert_eq!((second.latency, second.occupancy), (440, 6));
        // Another line does not wait; lanes 4 words apart reach 4 lines: 3 × 2.5 cycles more (7), and the line
        // after the first is taken from 112 to 148.
        for (k, w) in words.iter_mut().enumerate() {
            *w = 1024 + 4 * k;
        }
        let spread = global_atomic(&memory, (one, 1), false, &lines_of(&words), &mut stores, 112);
        assert_eq!(spread.latency, 417);
        assert_eq!(stores.atomic_lines.get(&(1024 * 4 / 128 + 1)), Some(&148));
        // All 32 lanes on one word of a fresh line: 31 × `atomic_word_lane` (1) more on top of the one line's cost
        // (which `Cost::atomic` gave the serialised lanes already).
        let words = [4096usize; 64];
        let word = global_atomic(&memory, (one, 32), false, &lines_of(&words), &mut stores, 200);
        assert_eq!(word.latency, 410 + 31);
    }

    #[test]
    fn a_store_queues_its_sectors_and_lines_waits_for_room_and_merges_into_the_last_stores_few_lines() {
        use crate::lsu::{Lines, Stores};
        let drain = StoreDrain {
            issue: 6,
            sector: 100,
            line: 100,
            queue: 10,
            entries: 2,
            part_entries: 1,
            merge_lines: 8,
        };
        let lines = |first: u64, count: u64, sectors: u64| Lines {
            count,
            misses: 0,
            arrival: 0,
            sectors,
            span: (first, first + count - 1),
        };
        let mut stores = Stores::new(2);
        // 32 lines of one sector each: 32 + 31 = 63 cycles of work; the queue holds 10 + 2 x 63 = 136.
        assert_eq!(store_wait(&drain, (&mut stores, 0), &lines(0, 32, 32), 0), 0);
        assert_eq!(store_wait(&drain, (&mut stores, 0), &lines(32, 32, 32), 0), 0);
        assert_eq!(store_wait(&drain, (&mut stores, 0), &lines(64, 32, 32), 0), 189 - 136);
        assert_eq!(stores.done, 18_900);
        // 32 lines within the last store's are more than `merge_lines`: queued, not merged.
        assert_eq!(store_wait(&drain, (&mut stores, 0), &lines(64, 32, 32), 189), 0);
        assert_eq!(stores.done, 25_200);
        // Another sub-partition at cycle 100: one line of 4 sectors (4 cycles of work), with part 0's stores still
        // in the queue the room is 10 + (2 + 1) x 4 = 22, and the work ahead of it ends at 256.
        assert_eq!(
            store_wait(&drain, (&mut stores, 1), &lines(500, 1, 4), 100),
            256 - 100 - 22
        );
        // Within that store's one line: merged, nothing queued; an empty store queues nothing either.
        assert_eq!(store_wait(&drain, (&mut stores, 1), &lines(500, 1, 2), 101), 0);
        let empty = Lines {
            count: 0,
            misses: 0,
            arrival: 0,
            sectors: 0,
            span: (u64::MAX, 0),
        };
        assert_eq!(store_wait(&drain, (&mut stores, 0), &empty, 102), 0);
        assert_eq!(stores.done, 25_600);
        // Once the queue has drained, a store waits for nothing.
        assert_eq!(store_wait(&drain, (&mut stores, 0), &lines(600, 32, 32), 1_000), 0);
        assert_eq!(stores.done, 106_300);
    }
}
