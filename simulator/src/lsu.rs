//! The load/store unit: address generation, shared-memory banks, the L1 and the global-memory write log.
//!
//! On hardware the LSU computes each lane's address, checks it, splits a warp's shared access into bank-conflict
//! free wavefronts (replays) and its global access into cache-line requests through the L1 (write-through, no
//! allocation on stores); global writes become visible to other SMs later. The model keeps:
//!
//! - **addresses** ([`locate_lanes`]): every executing lane's word, bounds and alignment checked before any lane
//!   touches memory, so a faulting access changes nothing;
//! - **shared memory banks** ([`shared_cost`]): the conflict degree (the busiest bank's distinct words) and the
//!   replay cycles it costs, `Config::timing.bank_conflict` each;
//! - **global lines** ([`global_lines`]): the distinct cache lines of an access and, for a load, which hit the
//!   SM's L1 and when the last line's data arrives;
//! - **the epoch's writes** ([`Effect`]): global stores and atomics are logged in issue order and committed to
//!   global memory at the epoch's end (the engine, `gpu.rs`); an SM sees its own at once through its overlay
//!   ([`global_word`]). An atomic's old value is delivered at the commit ([`Return`]);
//! - **the trace of an access** ([`memory_trace`], [`shared_after`]), built only when tracing;
//! - **the missing-barrier hint**: each shared word's last writer ([`writer_stamp`], [`unordered_lane`]).
//!
//! What it leaves out: coalescing into sectors, the L2's capacity (a line, once touched, stays in L2 for the
//! launch), memory-level parallelism limits, and store buffers.

use crate::alu;
use crate::block::blocks_per_sm;
use crate::cache::{L1, L2View};
use crate::config::Config;
use crate::fault::FaultKind;
use crate::kernel::{Atom, Buffer, DAddr, Kernel, Src};
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use crate::run::Stats;
use crate::shared_memory;
use crate::trace::MemoryTrace;
use rustc_hash::FxHashMap;

/// A shared word's last writer: the block's barrier generation, the store's pc and the warp (plus one).
#[inline(always)]
pub(crate) fn writer_stamp(generation: u32, pc: u32, warp_in_block: u32) -> u64 {
    u64::from(generation) << 32 | u64::from(pc) << 12 | (u64::from(warp_in_block) + 1)
}

/// Stamp the shared word of every executing lane with its writer (a store or an atomic).
#[inline(always)]
pub(crate) fn stamp_words(writers: &mut [u64], stamp: u64, words: &[usize; 64], exec: u64) {
    for_lanes(exec, |lane| writers[words[lane as usize]] = stamp);
}

/// The first executing lane whose shared word another warp wrote in this barrier generation, with that writer's
/// warp and pc.
#[inline(always)]
pub(crate) fn unordered_lane(
    writers: &[u64],
    generation: u32,
    warp_in_block: u32,
    words: &[usize; 64],
    exec: u64,
) -> Option<(u32, u32, u32)> {
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let s = writers[words[lane as usize]];
        if s != 0 && (s >> 32) as u32 == generation && (s & 0xfff) as u32 != warp_in_block + 1 {
            return Some((lane, (s & 0xfff) as u32 - 1, (s >> 12 & 0xf_ffff) as u32));
        }
    }
    None
}

/// A global-memory write an SM made in the current epoch, committed to global memory at the epoch's end.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Effect {
    Store {
        buffer: u16,
        word: u32,
        value: u32,
    },
    /// An 8- or 16-bit store: the bits of `mask` (its bytes in the word) take `value`'s (in place).
    StoreBytes {
        buffer: u16,
        word: u32,
        value: u32,
        mask: u32,
    },
    Atomic {
        f: crate::kernel::Atom,
        buffer: u16,
        word: u32,
        /// The operands (a 32-bit atomic's in the low half).
        b: u64,
        c: u64,
        /// Where the old value goes: the lane's destination register.
        ret: Option<Return>,
    },
}

/// The destination of an atomic's old value, delivered when the atomic is committed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Return {
    pub slot: u32,
    pub uid: u64,
    pub reg: u16,
    pub lane: u8,
    /// With tracing: the index of the atomic's return event among the SM's of the epoch.
    pub event: u32,
}

/// L1 capacity for a kernel: what the smallest shared-memory carveout holding the resident blocks leaves.
pub(crate) fn l1_bytes(kernel: &Kernel, config: &Config) -> u64 {
    let m = &config.timing.memory;
    let per_block = kernel.shared_words as u64 * 4;
    let blocks = blocks_per_sm(kernel, config).min(u64::from(kernel.grid)).max(1);
    let need = per_block * blocks;
    let mut carveouts: Vec<u64> = m.shared_carveouts_kib.iter().map(|&k| u64::from(k) * 1024).collect();
    carveouts.sort_unstable();
    let carveout = carveouts.iter().copied().find(|&c| c >= need).unwrap_or(need);
    u64::from(m.l1_shared_bytes).saturating_sub(carveout)
}

/// This SM's uncommitted writes to the global buffers the kernel both reads and writes, so that its own later
/// loads see them (the other SMs see them at the epoch's commit): the values by buffer and word, and which buffers
/// were written, so that a load from a buffer this SM has not written this epoch looks no further. A store's
/// value is taken into `values` from the epoch's effects (which log every store in issue order) only when a read
/// needs it ([`Overlay::sync`]): a kernel that never reads back what it wrote in an epoch indexes nothing. An
/// atomic's new value goes in at once, after the stores before it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Overlay {
    values: FxHashMap<u64, u32>,
    /// A bit per buffer below 64 written this epoch; `any`: any buffer was (a buffer from 64 on is looked up
    /// whenever any was).
    buffers: u64,
    any: bool,
    /// How many of the epoch's effects `values` holds.
    indexed: usize,
}

impl Overlay {
    #[inline]
    fn key(buffer: u16, word: usize) -> u64 {
        u64::from(buffer) << 32 | word as u64
    }

    /// A store to `buffer` was logged (its value is indexed when a read needs it).
    #[inline]
    pub fn wrote(&mut self, buffer: u16) {
        self.buffers |= 1u64.checked_shl(u32::from(buffer)).unwrap_or(0);
        self.any = true;
    }

    /// An atomic's new value, in at once (after [`Overlay::sync`]: the stores before it are in).
    #[inline]
    pub fn insert(&mut self, buffer: u16, word: usize, value: u32) {
        self.wrote(buffer);
        self.values.insert(Overlay::key(buffer, word), value);
    }

    /// Take the stores logged since the last call into `values`, in issue order (atomics' values are in already;
    /// an 8- or 16-bit store merges its bytes into the word as this SM sees it, `global` as of the epoch's start
    /// where it has not written it).
    #[inline]
    pub fn sync(&mut self, effects: &[Effect], global: &[Buffer]) {
        for e in &effects[self.indexed..] {
            match *e {
                Effect::Store { buffer, word, value } => {
                    self.values.insert(Overlay::key(buffer, word as usize), value);
                }
                Effect::StoreBytes {
                    buffer,
                    word,
                    value,
                    mask,
                } => {
                    let key = Overlay::key(buffer, word as usize);
                    let old = match self.values.get(&key) {
                        Some(&v) => v,
                        None => global[buffer as usize].data[word as usize],
                    };
                    self.values.insert(key, (old & !mask) | (value & mask));
                }
                Effect::Atomic { .. } => {}
            }
        }
        self.indexed = effects.len();
    }

    /// Whether a load from `buffer` must look here; if so, the stores logged before it are taken in first.
    #[inline]
    pub fn for_load(&mut self, buffer: u16, effects: &[Effect], global: &[Buffer]) -> bool {
        let holds = if buffer < 64 {
            self.buffers >> buffer & 1 == 1
        } else {
            self.any
        };
        if holds {
            self.sync(effects, global);
        }
        holds
    }

    /// Forget every value (the epoch's writes are committed and its effects cleared).
    pub fn clear(&mut self) {
        self.values.clear();
        self.buffers = 0;
        self.any = false;
        self.indexed = 0;
    }
}

/// A global word's value as this SM sees it: its own uncommitted write if it made one (looked up when
/// `use_overlay`), else global memory as of the epoch's start.
#[inline(always)]
pub(crate) fn global_word(overlay: &Overlay, use_overlay: bool, mem: &[Buffer], buffer: u16, word: usize) -> u32 {
    if use_overlay && let Some(&v) = overlay.values.get(&Overlay::key(buffer, word)) {
        return v;
    }
    mem[buffer as usize].data[word]
}

/// An SM's global stores on their way to L2 (`Memory::store_drain`, priced by `timing::store_wait`): when the work
/// queued is done, when each sub-partition's last store in it is, and the lines of the SM's last store (a store
/// within them merges into it). In hundredths of a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stores {
    pub done: u64,
    pub parts: Vec<u64>,
    /// The lowest and highest line of the SM's last global store ([`Lines::span`]).
    pub last: (u64, u64),
    /// Per cache line this SM's global atomics reached: the cycle L2's atomic unit is done with the last of them
    /// (`units.global_atomic.interval` a warp's atomic, `memory.atomic_issue`).
    pub atomic_lines: rustc_hash::FxHashMap<u64, u64>,
}

impl Stores {
    pub fn new(schedulers: usize) -> Stores {
        Stores {
            done: 0,
            parts: vec![0; schedulers],
            last: (u64::MAX, 0),
            atomic_lines: rustc_hash::FxHashMap::default(),
        }
    }
}

/// What a global access's lanes reached ([`global_lines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    /// Distinct cache lines.
    pub count: u64,
    /// Of them, the lines that missed L1 (with the L1 given).
    pub misses: u64,
    /// When the last line's data arrives (with the L1 given).
    pub arrival: u64,
    /// Distinct sectors.
    pub sectors: u64,
    /// The lowest and highest line (line numbers: byte address / line size; `count` 0: `u64::MAX` and 0).
    pub span: (u64, u64),
}

/// The distinct cache lines the lanes `exec` reach (`words` from byte address `base`): their count and sectors;
/// with the L1 (and the cycle and the hit latency), also how many of them missed (a line missed when a sector the
/// lanes need was not in L1: the L1 fills sectors of `sector_bytes`) and when the last line's data arrives. Each
/// line the access reaches is in L2 from then on (`l2`).
pub(crate) fn global_lines(
    base: u64,
    words: &[usize; 64],
    exec: u64,
    (line_bytes, sector_bytes): (u32, u32),
    l1: Option<(&mut L1, u64, u64)>,
    l2: &mut L2View<'_>,
) -> Lines {
    let line_shift = line_bytes.trailing_zeros();
    let sector_shift = sector_bytes.clamp(1, line_bytes).trailing_zeros();
    let per_line = line_shift - sector_shift;
    let mut lines = Lines {
        count: 0,
        misses: 0,
        arrival: 0,
        sectors: 0,
        span: (u64::MAX, 0),
    };
    let mut l1 = l1;
    // Each line reached, in ascending order, with the mask of its sectors the lanes need.
    let mut reach = |line: u64, need: u64| {
        lines.count += 1;
        lines.sectors += u64::from(need.count_ones());
        if let Some((c, now, hit)) = l1.as_mut() {
            let (was_hit, at) = c.load(line, need, *now, || *now + l2.miss(line, need, *now));
            lines.misses += u64::from(!was_hit);
            lines.arrival = lines.arrival.max(at.max(*now + *hit));
        } else {
            l2.touch(line);
        }
    };
    // Lanes 0 to n − 1 on consecutive words, the usual access: one byte range, its sectors line by line.
    if let Some((first, n)) = consecutive(words, exec) {
        let s0 = (base + first as u64 * 4) >> sector_shift;
        let s1 = (base + (first + n) as u64 * 4 - 1) >> sector_shift;
        let (l0, l1) = (s0 >> per_line, s1 >> per_line);
        let in_line = (1u64 << per_line) - 1;
        for line in l0..=l1 {
            let lo = if line == l0 { s0 & in_line } else { 0 };
            let hi = if line == l1 { s1 & in_line } else { in_line };
            reach(line, low_bits(hi + 1) & !low_bits(lo));
        }
        lines.span = (l0, l1);
        return lines;
    }
    // Each lane's sector (byte address >> sector_shift): sorted, the sectors of one line are adjacent.
    let mut sectors = [0u64; 64];
    let mut count = 0;
    for_lanes(exec, |lane| {
        sectors[count] = (base + words[lane as usize] as u64 * 4) >> sector_shift;
        count += 1;
    });
    let sectors = &mut sectors[..count];
    // (Lanes on ascending addresses are in order already.)
    if !sectors.is_sorted() {
        sectors.sort_unstable();
    }
    let mut k = 0;
    while k < count {
        let line = sectors[k] >> per_line;
        let mut need = 0u64;
        while k < count && sectors[k] >> per_line == line {
            need |= 1 << (sectors[k] & ((1 << per_line) - 1));
            k += 1;
        }
        reach(line, need);
    }
    lines.span = match &*sectors {
        [first, .., last] => (first >> per_line, last >> per_line),
        [only] => (only >> per_line, only >> per_line),
        [] => (u64::MAX, 0),
    };
    lines
}

/// A mask of the low `n` bits (`n` up to 64).
#[inline(always)]
fn low_bits(n: u64) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// Whether an atomic by the lanes `exec` (`words` from `base`) is the first access of the launch to a sector the
/// host's copy left partly written ([`crate::cache::Partial`]): it then waits for L2 to fill it.
#[cold]
#[inline(never)]
pub(crate) fn atomic_partial_first(
    base: u64,
    words: &[usize; 64],
    exec: u64,
    (line_bytes, sector_bytes): (u32, u32),
    l2: &L2View<'_>,
) -> bool {
    let line_shift = line_bytes.trailing_zeros();
    let sector_shift = sector_bytes.clamp(1, line_bytes).trailing_zeros();
    let per_line = line_shift - sector_shift;
    let mut first = false;
    for_lanes(exec, |lane| {
        let sector = (base + words[lane as usize] as u64 * 4) >> sector_shift;
        first |= l2.partial_first(sector >> per_line, 1 << (sector & ((1 << per_line) - 1)));
    });
    first
}

/// A store to local memory by the lanes `exec` (`words` from `base`): its sectors are in `l1` from `now` on (the L1
/// keeps a thread's local data: written, not fetched) and its lines in L2. Returns the lines it reaches.
#[cold]
#[inline(never)]
pub(crate) fn local_store_lines(
    base: u64,
    words: &[usize; 64],
    exec: u64,
    (line_bytes, sector_bytes): (u32, u32),
    (l1, now): (&mut L1, u64),
    l2: &mut L2View<'_>,
) -> u64 {
    let line_shift = line_bytes.trailing_zeros();
    let sector_shift = sector_bytes.clamp(1, line_bytes).trailing_zeros();
    let per_line = line_shift - sector_shift;
    // Each line's sectors, in the order the lanes reach them (at most 64 lines).
    let mut lines: smallvec::SmallVec<[(u64, u64); 8]> = smallvec::SmallVec::new();
    for_lanes(exec, |lane| {
        let sector = (base + words[lane as usize] as u64 * 4) >> sector_shift;
        let line = sector >> per_line;
        let bit = 1 << (sector & ((1 << per_line) - 1));
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, need)) => *need |= bit,
            None => lines.push((line, bit)),
        }
    });
    for &(line, need) in &lines {
        l1.load(line, need, now, || now);
        l2.touch(line);
    }
    lines.len() as u64
}

/// The cache lines the lanes `exec` (at least one; `words` from `base`) reach, in ascending order, in `out`;
/// returns how many.
pub(crate) fn distinct_lines(base: u64, words: &[usize; 64], exec: u64, line_bytes: u32, out: &mut [u64; 64]) -> usize {
    let shift = line_bytes.trailing_zeros();
    let mut n = 0;
    for_lanes(exec, |lane| {
        out[n] = (base + words[lane as usize] as u64 * 4) >> shift;
        n += 1;
    });
    let lines = &mut out[..n];
    if !lines.is_sorted() {
        lines.sort_unstable();
    }
    let mut k = 0;
    for i in 0..n {
        if i == 0 || out[i] != out[k - 1] {
            out[k] = out[i];
            k += 1;
        }
    }
    k
}

/// Count a shared access and its bank conflict; returns the extra cycles it costs. `degree` is how many times
/// the banks are cycled through (wavefronts), of which `minimum` the access needs without any conflict (2 for a
/// 64-bit access by both halves of a warp): only those beyond it are a bank conflict in the statistics.
pub(crate) fn shared_access(stats: &mut Stats, per_way: u32, degree: u32, minimum: u32) -> u64 {
    // A fully predicated-off access touches no bank.
    if degree == 0 {
        return 0;
    }
    stats.shared_accesses += 1;
    let extra = u64::from(degree.saturating_sub(1)) * u64::from(per_way);
    if degree > minimum {
        stats.bank_conflicts += 1;
        stats.bank_conflict_cycles += u64::from(degree - minimum) * u64::from(per_way);
    }
    extra
}

/// Locate the word every executing lane accesses into `words` (indexed by lane), before any lane touches
/// memory; with tracing, also return the element index of each lane. A fault names the first faulting lane.
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate_lanes<const ON: bool>(
    kernel: &Kernel,
    memory: &[Buffer],
    rf: &RegisterFile,
    addr: DAddr,
    exec: u64,
    ctx: &LaneCtx,
    store: bool,
    words: &mut [usize; 64],
) -> Result<Vec<u64>, (FaultKind, u32)> {
    let mut index = if ON { vec![0u64; ctx.w as usize] } else { Vec::new() };
    // The array and the base row once, then every lane in order; the first lane out of bounds or misaligned is
    // the fault. Words per element as a shift: a 64-bit access is to an array of 64-bit elements (the assembler
    // checks).
    let wide = usize::from(addr.wide);
    let (name, len, offset) = if addr.shared {
        let a = &kernel.shared[addr.buffer as usize];
        (&a.name, a.len, a.offset)
    } else {
        let b = &memory[addr.buffer as usize];
        (&b.name, b.data.len() >> wide, 0)
    };
    let mut base = [0u32; 64];
    if let Some(b) = addr.base {
        rf.fetch(b, ctx, &mut base);
    }
    // A byte offset must be aligned to the element and becomes an index by a shift (an arithmetic one: floor
    // division, as div_euclid by a power of two).
    let misaligned = if addr.byte { (4i64 << wide) - 1 } else { 0 };
    let shift = if addr.byte { 2 + wide } else { 0 };
    // Lanes 0 to n − 1 (the usual mask), all in bounds and aligned: a row at a time. Otherwise (or when one
    // faults) lane by lane, which finds the first faulting lane.
    if !ON && exec != 0 && exec & exec.wrapping_add(1) == 0 {
        let n = exec.count_ones() as usize;
        let (mut low, mut high, mut odd) = (i64::MAX, i64::MIN, 0);
        for &b in &base[..n] {
            let at = i64::from(b.cast_signed()) + addr.disp;
            low = low.min(at);
            high = high.max(at);
            odd |= at;
        }
        if odd & misaligned == 0 && low >= 0 && usize::try_from(high >> shift).is_ok_and(|i| i < len) {
            for (w, &b) in words[..n].iter_mut().zip(&base[..n]) {
                #[allow(
                    clippy::cast_sign_loss,
                    clippy::cast_possible_truncation,
                    reason = "checked above: 0 ≤ at, at >> shift < len"
                )]
                let i = ((i64::from(b.cast_signed()) + addr.disp) >> shift) as usize;
                *w = offset + (i << wide);
            }
            return Ok(index);
        }
    }
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let at = i64::from(base[lane as usize].cast_signed()) + addr.disp;
        let kind = if at & misaligned != 0 {
            FaultKind::Misaligned {
                buffer: name.clone(),
                shared: addr.shared,
                byte_offset: at,
                width: 4 << wide,
                store,
            }
        } else {
            match usize::try_from(at >> shift) {
                Ok(i) if i < len => {
                    words[lane as usize] = offset + (i << wide);
                    if ON {
                        index[lane as usize] = i as u64;
                    }
                    continue;
                }
                _ => FaultKind::OutOfBounds {
                    buffer: name.clone(),
                    shared: addr.shared,
                    index: at >> shift,
                    len,
                    store,
                },
            }
        };
        return Err((kind, lane));
    }
    Ok(index)
}

/// A shared access's conflict degree and the extra cycles it costs (counted in the statistics); nothing for
/// global memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn shared_cost(
    stats: &mut Stats,
    per_way: u32,
    banks: u32,
    addr: DAddr,
    words: &[usize; 64],
    exec: u64,
    w: u32,
) -> (u32, u64) {
    if !addr.shared {
        return (0, 0);
    }
    let (degree, minimum) = bank_degree(banks, addr, words, exec, w);
    (degree, shared_access(stats, per_way, degree, minimum))
}

/// How many times an access cycles through the banks (the busiest bank's distinct words; a 64-bit access a half
/// warp at a time), and how many it needs without a conflict: for shared memory, and for the L1's data array,
/// which has the same banks (a global load's words lie in 256-byte aligned buffers, so a word's bank is its index
/// modulo the banks).
pub(crate) fn bank_degree(banks: u32, addr: DAddr, words: &[usize; 64], exec: u64, w: u32) -> (u32, u32) {
    if addr.wide {
        return wide_degree(banks, words, exec, w);
    }
    // Most accesses put each lane in a bank of its own (consecutive words): one pass, no sort.
    if banks.is_power_of_two() && banks <= 64 {
        let mask = banks as usize - 1;
        let mut used = 0u64;
        let mut clash = false;
        for_lanes(exec, |lane| {
            let bit = 1u64 << (words[lane as usize] & mask);
            clash |= used & bit != 0;
            used |= bit;
        });
        if !clash {
            return (u32::from(exec != 0), 1);
        }
    }
    let (compact, count) = compact_words(words, exec);
    (shared_memory::conflict_degree(&compact[..count], banks), 1)
}

/// A 64-bit shared access's wavefronts, and how many it needs without a conflict. It moves twice the bytes:
/// each half of the warp is served on its own (a wavefront at least), its lanes' two words each spread over the
/// banks; the degrees of the halves add up.
#[inline(never)]
fn wide_degree(banks: u32, words: &[usize; 64], exec: u64, w: u32) -> (u32, u32) {
    let half = if w >= 64 { u64::MAX >> 32 } else { (1u64 << (w / 2)) - 1 };
    let mut degree = 0;
    let mut minimum = 0;
    for lanes in [exec & half, exec & !half] {
        let mut both = [0usize; 64];
        let mut count = 0;
        for_lanes(lanes, |lane| {
            both[count] = words[lane as usize];
            both[count + 1] = words[lane as usize] + 1;
            count += 2;
        });
        degree += shared_memory::conflict_degree(&both[..count], banks);
        minimum += u32::from(lanes != 0);
    }
    (degree, minimum)
}

/// The words of the executing lanes, in lane order (from `words` indexed by lane).
#[inline]
pub(crate) fn compact_words(words: &[usize; 64], exec: u64) -> ([usize; 64], usize) {
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
pub(crate) fn memory_trace(
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
        local: addr.local,
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
        after: Vec::new(),
    }
}

/// Each executing lane's shared word as the instruction left it (for the trace of a store or atomic).
pub(crate) fn shared_after(shared: &[u32], words: &[usize; 64], exec: u64, w: usize, wide: bool) -> Vec<u64> {
    let mut after = vec![0u64; w];
    for_lanes(exec, |lane| {
        let at = words[lane as usize];
        let hi = if wide { u64::from(shared[at + 1]) << 32 } else { 0 };
        after[lane as usize] = u64::from(shared[at]) | hi;
    });
    after
}

/// The memory a store or atomic writes: the block's shared memory, this SM's view of its own uncommitted global
/// writes (for the buffers the kernel both reads and writes), and the epoch's log of global writes.
pub(crate) type WriteLog<'a> = (&'a mut [u32], &'a mut Overlay, &'a mut Vec<Effect>);

/// `ld d, addr` for the `exec` lanes, their words located (`words`): from the block's shared memory, or from
/// global memory as committed at the epoch's start, through this SM's overlay when `overlay` (its own writes).
#[inline(always)]
pub(crate) fn load(
    rf: &mut RegisterFile,
    (shared, global, own): (&[u32], &[Buffer], &Overlay),
    addr: DAddr,
    overlay: bool,
    d: u16,
    words: &[usize; 64],
    exec: u64,
) {
    if addr.wide {
        // Two rows, from two words each.
        for_lanes(exec, |lane| {
            let word = words[lane as usize];
            let get = |k: usize| {
                if addr.shared {
                    shared[k]
                } else {
                    global_word(own, overlay, global, addr.buffer, k)
                }
            };
            let v = u64::from(get(word)) | u64::from(get(word + 1)) << 32;
            rf.write_at(d, true, lane, v);
        });
        return;
    }
    let s = rf.stride;
    let row = &mut rf.regs[d as usize * s..(d as usize + 1) * s];
    // Lanes 0..n on consecutive words, the usual access: one copy.
    if let Some((first, n)) = consecutive(words, exec)
        && (addr.shared || !overlay)
    {
        let from = if addr.shared {
            shared
        } else {
            &global[addr.buffer as usize].data
        };
        row[..n].copy_from_slice(&from[first..first + n]);
        return;
    }
    if addr.shared {
        for_lanes(exec, |lane| row[lane as usize] = shared[words[lane as usize]]);
    } else {
        let data = &global[addr.buffer as usize].data;
        for_lanes(exec, |lane| {
            let word = words[lane as usize];
            row[lane as usize] = if overlay {
                global_word(own, true, global, addr.buffer, word)
            } else {
                data[word]
            };
        });
    }
}

/// When the lanes `exec` are lanes 0 to n − 1 and their `words` consecutive: the first word and n.
#[inline(always)]
fn consecutive(words: &[usize; 64], exec: u64) -> Option<(usize, usize)> {
    if exec == 0 || exec & exec.wrapping_add(1) != 0 {
        return None;
    }
    let n = exec.count_ones() as usize;
    let first = words[0];
    let mut apart = 0;
    for (k, &w) in words[..n].iter().enumerate() {
        apart |= w ^ (first + k);
    }
    (apart == 0).then_some((first, n))
}

/// `st addr, a` for the `exec` lanes: into shared memory at once; into global memory through the epoch's log
/// (and this SM's overlay when `overlay`). Lanes storing to one word: the highest lane wins (one
/// deterministic order).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn store(
    rf: &RegisterFile,
    ctx: &LaneCtx,
    (shared, own, effects): WriteLog<'_>,
    addr: DAddr,
    overlay: bool,
    a: Src,
    words: &[usize; 64],
    exec: u64,
) {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "a buffer holds at most MAX_BUFFER_ELEMENTS (2^28) words"
    )]
    if !addr.wide {
        // (The value's row read once: a register's in place.)
        let mut buf = [0u32; 64];
        let row = rf.operand(a, ctx, &mut buf);
        if addr.shared {
            for_lanes(exec, |lane| shared[words[lane as usize]] = row[lane as usize]);
        } else {
            // Global memory sees the store when the epoch is committed; this SM's own loads see it now (through
            // the overlay, which takes it from the log when they need it).
            if overlay && exec != 0 {
                own.wrote(addr.buffer);
            }
            effects.reserve(exec.count_ones() as usize);
            for_lanes(exec, |lane| {
                effects.push(Effect::Store {
                    buffer: addr.buffer,
                    word: words[lane as usize] as u32,
                    value: row[lane as usize],
                });
            });
        }
        return;
    }
    // A 64-bit store: each lane's two words.
    for_lanes(exec, |lane| {
        let bits = rf.read_at(a, true, lane, ctx);
        for k in 0..2 {
            let v = crate::kernel::low32(bits >> (32 * k));
            let word = words[lane as usize] + k;
            if addr.shared {
                shared[word] = v;
            } else {
                if overlay {
                    own.wrote(addr.buffer);
                }
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a buffer holds at most MAX_BUFFER_ELEMENTS (2^28) words"
                )]
                effects.push(Effect::Store {
                    buffer: addr.buffer,
                    word: word as u32,
                    value: v,
                });
            }
        }
    });
}

/// `atom.OP d, addr, b(, c)` for the `exec` lanes, in lane order (deterministic, and one of the orders the
/// hardware's serialisation gives). In shared memory each lane's old value is written to `d` at once. In global
/// memory the atomic is logged and performed when the epoch is committed, in a fixed order across SMs, and its
/// old value is delivered then to `to` (the warp's slot and id, and its return event) (the destination is busy
/// until later: the epoch is no longer than the atomic's latency); meanwhile this SM sees its own atomics
/// applied.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn atomic(
    rf: &mut RegisterFile,
    ctx: &LaneCtx,
    (shared, own, effects): WriteLog<'_>,
    global: &[Buffer],
    (f, d, addr, b, c): (Atom, Option<u16>, DAddr, Src, Option<Src>),
    (slot, uid, event): (u32, u64, u32),
    words: &[usize; 64],
    exec: u64,
) {
    let wide = addr.wide;
    if !addr.shared {
        // (Its lanes read this SM's stores before it.)
        own.sync(effects, global);
    }
    for_lanes(exec, |lane| {
        let word = words[lane as usize];
        let bv = rf.read_at(b, wide, lane, ctx);
        let cv = c.map(|c| rf.read_at(c, wide, lane, ctx)).unwrap_or(0);
        let (lo, hi) = (crate::kernel::low32, crate::kernel::high32);
        let old = if addr.shared {
            if wide {
                let old = u64::from(shared[word]) | u64::from(shared[word + 1]) << 32;
                let new = alu::atomic64(f, true, old, bv, cv);
                shared[word] = lo(new);
                shared[word + 1] = hi(new);
                old
            } else {
                let cell = &mut shared[word];
                let old = *cell;
                *cell = alu::atomic(f, true, old, lo(bv), lo(cv));
                u64::from(old)
            }
        } else {
            let get = |k: usize| global_word(own, true, global, addr.buffer, k);
            let old = if wide {
                let old = u64::from(get(word)) | u64::from(get(word + 1)) << 32;
                let new = alu::atomic64(f, false, old, bv, cv);
                own.insert(addr.buffer, word, lo(new));
                own.insert(addr.buffer, word + 1, hi(new));
                old
            } else {
                let old = get(word);
                own.insert(addr.buffer, word, alu::atomic(f, false, old, lo(bv), lo(cv)));
                u64::from(old)
            };
            #[allow(
                clippy::cast_possible_truncation,
                reason = "a buffer holds at most 2^28 words (MAX_BUFFER_ELEMENTS); a lane is below 64"
            )]
            effects.push(Effect::Atomic {
                f,
                buffer: addr.buffer,
                word: word as u32,
                b: bv,
                c: cv,
                ret: d.map(|reg| Return {
                    slot,
                    uid,
                    reg,
                    lane: lane as u8,
                    event,
                }),
            });
            old
        };
        if let Some(d) = d {
            rf.write_at(d, wide, lane, old);
        }
    });
}

/// Where one lane of a flat access lands: a buffer, the block's shared memory or the thread's local memory.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Buffer(usize),
    Shared,
    Local,
}

impl Place {
    fn name(self, kernel: &Kernel) -> String {
        match self {
            Place::Buffer(k) => format!("buffer `{}`", kernel.buffers[k].name),
            Place::Shared => "shared memory".into(),
            Place::Local => "local memory".into(),
        }
    }
}

/// The shared array that holds shared word `word`, if any.
pub(crate) fn shared_array_at(kernel: &Kernel, word: usize) -> Option<usize> {
    kernel
        .shared
        .iter()
        .position(|a| a.len > 0 && (a.offset..a.offset + a.len * a.elem.words()).contains(&word))
}

/// Locate a flat access (`[%r + disp]`, [`crate::kernel::Flat`]): every executing lane's byte address decoded by
/// its state space (a generic one by [`warpsim_isa::address::window`]), bounds- and alignment-checked before
/// any lane touches memory, into `words` (a buffer's word; the block's shared word; for local memory the word
/// in the warp's local storage, `offset / 4 · W + lane`: the lanes' words interleaved, as NVIDIA GPUs lay local
/// memory out). Returns the access as located: `shared`, `local`, and `buffer` (the buffer, or the shared
/// array that holds the first lane's word), and with tracing each lane's element index (in its buffer, in that
/// shared array, or in local memory). The lanes must all reach one buffer or space (else
/// [`FaultKind::MixedSpaces`]); local atomics fault ([`FaultKind::LocalAtomic`]).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate_flat<const ON: bool>(
    kernel: &Kernel,
    memory: &[Buffer],
    rf: &RegisterFile,
    addr: DAddr,
    exec: u64,
    ctx: &LaneCtx,
    (store, atomic): (bool, bool),
    words: &mut [usize; 64],
) -> Result<(DAddr, Vec<u64>), (FaultKind, u32)> {
    use crate::kernel::Flat;
    use warpsim_isa::address::{Window, window};
    if !ON && let Some(located) = flat_in_one_window(kernel, memory, rf, addr, exec, ctx, atomic, words) {
        return Ok((located, Vec::new()));
    }
    let width: u32 = match addr.narrow {
        Some(n) => u32::from(n.bytes),
        None if addr.wide => 8,
        None => 4,
    };
    let mut index = if ON { vec![0u64; ctx.w as usize] } else { Vec::new() };
    let mut first: Option<(Place, u32)> = None;
    let local_bytes = kernel.program.local_bytes;
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let raw = match addr.base {
            Some(b) if addr.base64 => rf.read_at(b, true, lane, ctx),
            Some(b) => u64::from(rf.read(b, lane, ctx)),
            None => 0,
        };
        let a = raw.wrapping_add(addr.disp.cast_unsigned());
        let no_buffer = |generic| {
            (
                FaultKind::NoBuffer {
                    address: a,
                    generic,
                    store,
                },
                lane,
            )
        };
        let (place, offset) = match addr.flat {
            Flat::Global => match window(a) {
                Window::Buffer(k, off) if k < memory.len() => (Place::Buffer(k), off),
                _ => return Err(no_buffer(false)),
            },
            Flat::Shared => (Place::Shared, a),
            Flat::Local => (Place::Local, a),
            Flat::Generic | Flat::No => match window(a) {
                Window::Buffer(k, off) if k < memory.len() => (Place::Buffer(k), off),
                Window::Shared(off) => (Place::Shared, off),
                Window::Local(off) => (Place::Local, off),
                _ => return Err(no_buffer(true)),
            },
        };
        match first {
            None => first = Some((place, lane)),
            Some((p, l)) if p != place => {
                return Err((
                    FaultKind::MixedSpaces {
                        first: p.name(kernel),
                        other: place.name(kernel),
                        first_lane: l,
                    },
                    lane,
                ));
            }
            Some(_) => {}
        }
        let misaligned = offset % u64::from(width) != 0;
        let end = offset.saturating_add(u64::from(width));
        let window_fault = |local: bool, size: u64, misaligned: bool| {
            let array = if local || !misaligned {
                None
            } else {
                usize::try_from(offset / 4)
                    .ok()
                    .and_then(|w| shared_array_at(kernel, w))
                    .map(|k| kernel.shared[k].name.clone())
            };
            (
                FaultKind::Window {
                    local,
                    offset,
                    width,
                    size,
                    misaligned,
                    array,
                    store,
                },
                lane,
            )
        };
        #[allow(
            clippy::cast_possible_truncation,
            reason = "offsets are checked against sizes that are usize (buffers, shared memory, local memory)"
        )]
        let (word, element) = match place {
            Place::Buffer(k) => {
                let b = &memory[k];
                let bytes = b.data.len() as u64 * 4;
                if misaligned {
                    return Err((
                        FaultKind::Misaligned {
                            buffer: b.name.clone(),
                            shared: false,
                            byte_offset: offset.cast_signed(),
                            width,
                            store,
                        },
                        lane,
                    ));
                }
                if end > bytes {
                    return Err((
                        FaultKind::OutOfBounds {
                            buffer: b.name.clone(),
                            shared: false,
                            index: (offset / u64::from(width)).cast_signed(),
                            len: (bytes / u64::from(width)) as usize,
                            store,
                        },
                        lane,
                    ));
                }
                ((offset / 4) as usize, offset / u64::from(width))
            }
            Place::Shared => {
                let size = kernel.shared_words as u64 * 4;
                if misaligned || end > size {
                    return Err(window_fault(false, size, misaligned));
                }
                ((offset / 4) as usize, 0)
            }
            Place::Local => {
                if atomic {
                    return Err((FaultKind::LocalAtomic, lane));
                }
                if misaligned || end > local_bytes {
                    return Err(window_fault(true, local_bytes, misaligned));
                }
                (
                    (offset / 4) as usize * ctx.w as usize + lane as usize,
                    offset / u64::from(width),
                )
            }
        };
        words[lane as usize] = word;
        if ON {
            index[lane as usize] = element;
        }
    }
    let (place, _) = first.unwrap_or((Place::Shared, 0));
    let mut located = addr;
    located.shared = place == Place::Shared;
    located.local = place == Place::Local;
    #[allow(clippy::cast_possible_truncation, reason = "at most MAX_BUFFERS (0xffff) buffers")]
    let buffer = match place {
        Place::Buffer(k) => k as u16,
        Place::Shared => {
            let at = first.and_then(|(_, lane)| shared_array_at(kernel, words[lane as usize]));
            at.unwrap_or(0) as u16
        }
        Place::Local => 0,
    };
    located.buffer = buffer;
    if ON && place == Place::Shared {
        // Element indices in the shared array that holds the first lane's word.
        if let Some(a) = kernel.shared.get(usize::from(buffer)) {
            for_lanes(exec, |lane| {
                let w = words[lane as usize];
                index[lane as usize] = (w.saturating_sub(a.offset) / a.elem.words()) as u64;
            });
        }
    }
    Ok((located, index))
}

/// The common case of [`locate_flat`], a row at a time: every executing lane's address lies in the window of
/// the first one's buffer, shared or local memory, aligned and in bounds. `None` when any lane does not (the
/// lane-by-lane path then finds the fault), or for a local atomic.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn flat_in_one_window(
    kernel: &Kernel,
    memory: &[Buffer],
    rf: &RegisterFile,
    addr: DAddr,
    exec: u64,
    ctx: &LaneCtx,
    atomic: bool,
    words: &mut [usize; 64],
) -> Option<DAddr> {
    use crate::kernel::Flat;
    use warpsim_isa::address::{LOCAL_WINDOW, SHARED_WINDOW, Window, buffer_base, window};
    if exec == 0 {
        return None;
    }
    let w = ctx.w as usize;
    let width: u64 = match addr.narrow {
        Some(n) => u64::from(n.bytes),
        None if addr.wide => 8,
        None => 4,
    };
    let mut raw = [0u64; 64];
    if let Some(b) = addr.base {
        rf.fetch64(b, addr.base64, ctx, &mut raw);
    }
    let disp = addr.disp.cast_unsigned();
    let first = raw[exec.trailing_zeros() as usize].wrapping_add(disp);
    let shared_bytes = kernel.shared_words as u64 * 4;
    let local_bytes = kernel.program.local_bytes;
    // The window's first byte and size, and where its words go.
    let (place, base, size) = match addr.flat {
        Flat::Shared => (Place::Shared, 0, shared_bytes),
        Flat::Local => (Place::Local, 0, local_bytes),
        Flat::Global | Flat::Generic | Flat::No => match window(first) {
            Window::Buffer(k, _) if k < memory.len() => {
                (Place::Buffer(k), buffer_base(k), memory[k].data.len() as u64 * 4)
            }
            Window::Shared(_) if addr.flat != Flat::Global => (Place::Shared, SHARED_WINDOW, shared_bytes),
            Window::Local(_) if addr.flat != Flat::Global => (Place::Local, LOCAL_WINDOW, local_bytes),
            _ => return None,
        },
    };
    if size < width || (atomic && place == Place::Local) {
        return None;
    }
    let last = size - width;
    let mut bad = 0u64;
    for (lane, r) in raw[..w].iter().enumerate() {
        let offset = r.wrapping_add(disp).wrapping_sub(base);
        bad |= u64::from(offset > last || offset & (width - 1) != 0) << lane;
    }
    if bad & exec != 0 {
        return None;
    }
    let local = place == Place::Local;
    #[allow(
        clippy::cast_possible_truncation,
        reason = "offsets within a window's size (a usize) are checked above"
    )]
    for_lanes(exec, |lane| {
        let word = (raw[lane as usize].wrapping_add(disp).wrapping_sub(base) / 4) as usize;
        words[lane as usize] = if local { word * w + lane as usize } else { word };
    });
    let mut located = addr;
    located.shared = place == Place::Shared;
    located.local = local;
    #[allow(clippy::cast_possible_truncation, reason = "at most MAX_BUFFERS (0xffff) buffers")]
    let buffer = match place {
        Place::Buffer(k) => k as u16,
        Place::Shared => shared_array_at(kernel, words[exec.trailing_zeros() as usize]).unwrap_or(0) as u16,
        Place::Local => 0,
    };
    located.buffer = buffer;
    Some(located)
}

/// `ld d, addr` from the thread's local memory (the warp's local storage, words interleaved by lane).
pub(crate) fn load_local(
    rf: &mut RegisterFile,
    local: &[u32],
    wide: bool,
    w: u32,
    d: u16,
    words: &[usize; 64],
    exec: u64,
) {
    for_lanes(exec, |lane| {
        let at = words[lane as usize];
        let hi = if wide {
            u64::from(local[at + w as usize]) << 32
        } else {
            0
        };
        rf.write_at(d, wide, lane, u64::from(local[at]) | hi);
    });
}

/// `st addr, a` to the thread's local memory.
#[allow(clippy::too_many_arguments)]
pub(crate) fn store_local(
    rf: &RegisterFile,
    ctx: &LaneCtx,
    local: &mut [u32],
    wide: bool,
    a: Src,
    words: &[usize; 64],
    exec: u64,
) {
    for_lanes(exec, |lane| {
        let bits = rf.read_at(a, wide, lane, ctx);
        let at = words[lane as usize];
        local[at] = crate::kernel::low32(bits);
        if wide {
            local[at + ctx.w as usize] = crate::kernel::high32(bits);
        }
    });
}

/// Each executing lane's byte within its word, for an 8- or 16-bit access: the low two bits of its address
/// (`base + disp`; buffers, shared arrays and the local and shared windows all start on a word).
pub(crate) fn bytes_in_word(rf: &RegisterFile, addr: DAddr, exec: u64, ctx: &LaneCtx) -> [u8; 64] {
    let mut raw = [0u64; 64];
    if let Some(b) = addr.base {
        rf.fetch64(b, addr.base64, ctx, &mut raw);
    }
    let mut at = [0u8; 64];
    for_lanes(exec, |lane| {
        #[allow(clippy::cast_possible_truncation, reason = "two bits")]
        let b = (raw[lane as usize].wrapping_add(addr.disp.cast_unsigned()) & 3) as u8;
        at[lane as usize] = b;
    });
    at
}

/// An 8- or 16-bit access with a byte offset into a buffer or shared array (`[buf + %r + k]`): every executing
/// lane's word (the one that holds its bytes), bounds- and alignment-checked (to the access's size) before any
/// lane touches memory. With tracing, each lane's index in units of the access (its byte or half).
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate_narrow<const ON: bool>(
    kernel: &Kernel,
    memory: &[Buffer],
    rf: &RegisterFile,
    addr: DAddr,
    exec: u64,
    ctx: &LaneCtx,
    store: bool,
    words: &mut [usize; 64],
) -> Result<Vec<u64>, (FaultKind, u32)> {
    let bytes = addr.narrow.map_or(4, |n| i64::from(n.bytes));
    let size_shift = bytes.trailing_zeros();
    let mut index = if ON { vec![0u64; ctx.w as usize] } else { Vec::new() };
    let (name, len_words, offset) = if addr.shared {
        let a = &kernel.shared[addr.buffer as usize];
        (&a.name, a.len * a.elem.words(), a.offset)
    } else {
        let b = &memory[addr.buffer as usize];
        (&b.name, b.data.len(), 0)
    };
    let mut base = [0u32; 64];
    if let Some(b) = addr.base {
        rf.fetch(b, ctx, &mut base);
    }
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let at = i64::from(base[lane as usize].cast_signed()) + addr.disp;
        if at & (bytes - 1) != 0 {
            let kind = FaultKind::Misaligned {
                buffer: name.clone(),
                shared: addr.shared,
                byte_offset: at,
                width: u32::try_from(bytes).unwrap_or(4),
                store,
            };
            return Err((kind, lane));
        }
        match usize::try_from(at >> 2) {
            Ok(i) if i < len_words => {
                words[lane as usize] = offset + i;
                if ON {
                    index[lane as usize] = (at >> size_shift).cast_unsigned();
                }
            }
            _ => {
                let kind = FaultKind::OutOfBounds {
                    buffer: name.clone(),
                    shared: addr.shared,
                    index: at >> size_shift,
                    len: (len_words * 4) >> size_shift,
                    store,
                };
                return Err((kind, lane));
            }
        }
    }
    Ok(index)
}

/// Where an 8- or 16-bit access's words are: the block's shared memory, the warp's local storage, or a global
/// buffer (through this SM's overlay when `overlay`).
pub(crate) enum NarrowPlace<'a> {
    Shared(&'a mut [u32]),
    Local(&'a mut [u32]),
    Global {
        global: &'a [Buffer],
        own: &'a mut Overlay,
        effects: &'a mut Vec<Effect>,
        overlay: bool,
    },
}

/// `ld.u8`/`.s8`/`.u16`/`.s16 d, addr` for the `exec` lanes, their words located (`words`) and their bytes in
/// them (`at`): the bytes, zero- or sign-extended to 32 bits.
#[allow(clippy::too_many_arguments)]
pub(crate) fn load_narrow(
    rf: &mut RegisterFile,
    place: &NarrowPlace<'_>,
    addr: DAddr,
    d: u16,
    words: &[usize; 64],
    at: &[u8; 64],
    exec: u64,
) {
    let n = addr.narrow.expect("a narrow access");
    let bits = n.bits();
    for_lanes(exec, |lane| {
        let word = words[lane as usize];
        let v = match place {
            NarrowPlace::Shared(m) | NarrowPlace::Local(m) => m[word],
            NarrowPlace::Global {
                global, own, overlay, ..
            } => global_word(own, *overlay, global, addr.buffer, word),
        };
        let raw = v >> (8 * u32::from(at[lane as usize]));
        let value = if n.signed {
            (raw << (32 - bits)).cast_signed() >> (32 - bits)
        } else {
            (raw & ((1u32 << bits) - 1)).cast_signed()
        };
        rf.write_at(d, false, lane, u64::from(value.cast_unsigned()));
    });
}

/// `st.u8`/`.u16 addr, a` for the `exec` lanes: each lane's value's low bytes into its word (`words`) at its
/// byte (`at`), in lane order (lanes on one byte: the highest lane wins). Shared and local memory at once;
/// global memory through the epoch's log, merged into the word there.
#[allow(clippy::too_many_arguments)]
pub(crate) fn store_narrow(
    rf: &RegisterFile,
    ctx: &LaneCtx,
    place: &mut NarrowPlace<'_>,
    addr: DAddr,
    a: Src,
    words: &[usize; 64],
    at: &[u8; 64],
    exec: u64,
) {
    let n = addr.narrow.expect("a narrow access");
    let low = if n.bytes == 1 { 0xffu32 } else { 0xffff };
    let mut buf = [0u32; 64];
    let row = rf.operand(a, ctx, &mut buf);
    if let NarrowPlace::Global { own, overlay: true, .. } = place
        && exec != 0
    {
        own.wrote(addr.buffer);
    }
    for_lanes(exec, |lane| {
        let shift = 8 * u32::from(at[lane as usize]);
        let mask = low << shift;
        let value = (row[lane as usize] << shift) & mask;
        let word = words[lane as usize];
        match place {
            NarrowPlace::Shared(m) | NarrowPlace::Local(m) => m[word] = (m[word] & !mask) | value,
            NarrowPlace::Global { effects, .. } => {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "a buffer holds at most MAX_BUFFER_ELEMENTS (2^28) words"
                )]
                effects.push(Effect::StoreBytes {
                    buffer: addr.buffer,
                    word: word as u32,
                    value,
                    mask,
                });
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::{Lines, global_lines};
    use crate::cache::{L1, L2View, LineSet, Partial};

    /// The lines an access reaches, through a fresh L1 (and L2 view) when `cached`.
    fn lines_of(base: u64, words: &[usize; 64], exec: u64, sizes: (u32, u32), cached: bool) -> (Lines, usize) {
        let committed = LineSet::new(0);
        let mut own = rustc_hash::FxHashMap::default();
        let partial = Partial::default();
        let mut l2 = L2View {
            committed: &committed,
            own: &mut own,
            hit: 287,
            first: Some(382),
            partial: &partial,
            port: &mut 0,
            base: 0,
            fill: 0,
            sectors: 0,
        };
        let mut l1 = L1::new(256 * 1024, sizes.0, sizes.1, 4);
        let lines = global_lines(base, words, exec, sizes, cached.then_some((&mut l1, 100, 30)), &mut l2);
        (lines, own.len())
    }

    /// Lanes 0 to n − 1 on consecutive words take the byte-range path; the same words in reverse order take the
    /// lane-by-lane one. Both give the same lines, sectors, misses, arrival and span, and leave the same lines in L2,
    /// for every alignment, length and line and sector size.
    #[test]
    fn consecutive_lanes_reach_what_the_lane_by_lane_path_reaches() {
        for sizes in [(128, 32), (128, 128), (64, 4), (32, 32)] {
            for base in [0u64, 4, 96, 124, 4096 + 60] {
                for first in [0usize, 1, 7, 31, 32, 33] {
                    for n in 1..=64usize {
                        let exec = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                        let mut forward = [0usize; 64];
                        let mut backward = [0usize; 64];
                        for k in 0..n {
                            forward[k] = first + k;
                            backward[k] = first + n - 1 - k;
                        }
                        for cached in [false, true] {
                            let fast = lines_of(base, &forward, exec, sizes, cached);
                            let each = lines_of(base, &backward, exec, sizes, cached);
                            assert_eq!(
                                fast, each,
                                "sizes {sizes:?} base {base} first {first} n {n} cached {cached}"
                            );
                        }
                    }
                }
            }
        }
    }
}
