//! The L1 data cache of global memory: set-associative, LRU, allocate on load miss and filled a sector at a
//! time, write-through without allocation for global stores (as Hopper's L1 treats them), while a local-memory store
//! puts its sectors in L1 (present at once: a thread's stack and arrays are read back from L1, measured by
//! `calibration/programs/local_store_load.ptx`). A sector being filled is
//! already present: a second miss to it waits for the same fill (as miss-status holding registers merge
//! requests). And which lines L2 holds ([`L2View`]): where an L1 miss is served from. Both decide timing only:
//! values always come from memory.

use rustc_hash::{FxHashMap, FxHashSet};

/// Which global lines an SM has touched in the launch. A line no load, store or atomic has touched yet costs
/// `first` to load: `memory.l2_first_latency` while the buffers start in L2 (`buffers_in_l2`, the default, as
/// `sim crosscheck` runs kernels: the line is in its home L2 slice), `memory.dram_latency` otherwise; later misses
/// cost `hit`. Where `first` would equal `hit`, nothing is tracked (`first` is `None`). Each SM sees the lines of the epochs before (`committed`, merged at each commit) and its own
/// since (`own`), so that what a load costs never depends on how the host threads interleave the SMs.
#[derive(Debug)]
pub struct L2View<'a> {
    pub committed: &'a LineSet,
    /// This SM's lines since the epoch began, each with the cycle its first fetch arrives (0: a store or atomic
    /// put it in L2).
    pub own: &'a mut FxHashMap<u64, u64>,
    /// An L1 miss's latency on a line touched before, and on one not yet touched (`None`: the same).
    pub hit: u64,
    pub first: Option<u64>,
    /// The sectors the host's copy left partly written, and what their first touch costs.
    pub partial: &'a Partial,
    /// The SM's fill port from L2 (`memory.fill_sector`): when the lines of the loads before this one have come
    /// through it (`port`, in hundredths of a cycle: the latest arrival so far; `base`, its value when this load
    /// began), the hundredths of a cycle a sector takes through it (0: no limit), and the sectors this load has
    /// brought so far.
    pub port: &'a mut u64,
    pub base: u64,
    pub fill: u64,
    pub sectors: u64,
}

/// The sectors the host's copy of the buffers leaves partly written in L2: the last sector of a buffer whose bytes
/// end inside it. L2 must fill the rest of such a sector from DRAM before it serves it, so the first access to its
/// line that needs it costs more: a load `load` cycles more than another line's first touch, an atomic `atomic`
/// more than its latency (`memory.partial_sector_load`, `memory.partial_sector_atomic`).
#[derive(Clone, Debug, Default)]
pub struct Partial {
    /// Line → the bits of its partly written sectors.
    pub sectors: FxHashMap<u64, u64>,
    pub load: u64,
    pub atomic: u64,
}

impl Partial {
    /// The bits of `line`'s partly written sectors among `need`.
    #[inline]
    fn of(&self, line: u64, need: u64) -> u64 {
        if self.sectors.is_empty() {
            0
        } else {
            self.sectors.get(&line).map_or(0, |s| s & need)
        }
    }
}

impl L2View<'_> {
    /// The latency of an L1 miss at cycle `now` on sectors `need` of `line`, which L2 then holds. A line whose
    /// first fetch is still in flight is not near yet: another sector of it costs the first touch's latency too.
    /// A first touch that needs a partly written sector waits for L2 to fill it ([`Partial`]).
    #[inline]
    pub fn miss(&mut self, line: u64, need: u64, now: u64) -> u64 {
        let latency = self.latency(line, need, now);
        if self.fill == 0 {
            return latency;
        }
        // The fill port passes a load's lines after those of the loads before it: its k-th line no sooner than
        // the sectors of its first k lines after the last line before it arrived.
        self.sectors += u64::from(need.count_ones());
        let arrival = (100 * (now + latency)).max(self.base + self.fill * self.sectors);
        *self.port = (*self.port).max(arrival);
        arrival.div_ceil(100) - now
    }

    /// [`L2View::miss`]'s latency at L2, before the fill port.
    #[inline]
    fn latency(&mut self, line: u64, need: u64, now: u64) -> u64 {
        match self.first {
            Some(first) if !self.committed.contains(line) => match self.own.entry(line) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    let first = if self.partial.of(line, need) != 0 {
                        first + self.partial.load
                    } else {
                        first
                    };
                    v.insert(now + first);
                    first
                }
                std::collections::hash_map::Entry::Occupied(o) if now < *o.get() => first,
                std::collections::hash_map::Entry::Occupied(_) => self.hit,
            },
            _ => self.hit,
        }
    }

    /// A store or atomic reaches `line` in L2.
    #[inline]
    pub fn touch(&mut self, line: u64) {
        if self.tracks() && !self.committed.contains(line) {
            self.own.entry(line).or_insert(0);
        }
    }

    /// Whether an atomic on sectors `need` of `line` is the first access of the launch to a partly written
    /// sector of it ([`Partial`]).
    #[inline]
    pub fn partial_first(&self, line: u64, need: u64) -> bool {
        self.partial.of(line, need) != 0 && !self.committed.contains(line) && !self.own.contains_key(&line)
    }

    /// Whether lines are tracked at all.
    #[inline]
    pub fn tracks(&self) -> bool {
        self.first.is_some()
    }
}

/// A set of global lines: a bit per line below `dense` (the buffers' lines, which a launch's accesses mostly
/// touch: a test and a set are one word each), a hash set above (local memory's lines, which may lie far).
#[derive(Debug, Default)]
pub struct LineSet {
    bits: Vec<u64>,
    dense: u64,
    sparse: FxHashSet<u64>,
}

impl LineSet {
    /// An empty set whose lines below `dense` are kept as bits.
    pub fn new(dense: u64) -> LineSet {
        LineSet {
            bits: Vec::new(),
            dense,
            sparse: FxHashSet::default(),
        }
    }

    /// The word of `bits` that holds `line`, a line below `dense`.
    #[inline]
    #[allow(
        clippy::cast_possible_truncation,
        reason = "below `dense`: a line of the buffers in memory"
    )]
    fn word(line: u64) -> usize {
        (line / 64) as usize
    }

    #[inline]
    pub fn contains(&self, line: u64) -> bool {
        if line < self.dense {
            self.bits
                .get(LineSet::word(line))
                .is_some_and(|w| w >> (line % 64) & 1 == 1)
        } else {
            self.sparse.contains(&line)
        }
    }

    pub fn insert(&mut self, line: u64) {
        if line < self.dense {
            let k = LineSet::word(line);
            if k >= self.bits.len() {
                // (Grown to the line, not allocated up front: a launch that touches few lines costs little.)
                let all = LineSet::word(self.dense - 1) + 1;
                self.bits.resize((k + 1).max(self.bits.len() * 2).min(all), 0);
            }
            self.bits[k] |= 1 << (line % 64);
        } else {
            self.sparse.insert(line);
        }
    }
}

#[derive(Clone, Debug)]
pub struct L1 {
    sets: usize,
    ways: usize,
    /// Sectors per line: the L1 fills a line's sectors as loads need them (measured on an H200: a load of
    /// another 32-byte sector of a line in L1 pays the L2's latency, `calibration/measured/ubench16.cu`).
    sectors: usize,
    /// Each set's state, made when a load first reaches the set, so that an SM costs in setup what its loads
    /// touch (most of a small launch's SMs touch nothing, a one-block launch a few sets): per way, its line tag
    /// (`u64::MAX`: empty), then per way its sectors present (filled or being filled, a bit per sector), then per
    /// way its last use (for LRU), then per way and sector the cycle the sector's data arrives (a fill in flight
    /// until then).
    state: Vec<Option<Box<[u64]>>>,
    clock: u64,
}

impl L1 {
    /// A cache of `bytes` bytes in lines of `line_bytes`, `ways`-way set-associative. Smaller than one set:
    /// no cache (every access misses).
    #[allow(clippy::cast_possible_truncation, reason = "at most 2^20 lines (Config::validate)")]
    pub fn new(bytes: u64, line_bytes: u32, sector_bytes: u32, ways: u32) -> L1 {
        let ways = ways.max(1) as usize;
        let sets = (bytes / u64::from(line_bytes.max(1))) as usize / ways;
        L1 {
            sets,
            ways,
            sectors: (line_bytes / sector_bytes.clamp(1, line_bytes.max(1))).clamp(1, 64) as usize,
            state: Vec::new(),
            clock: 0,
        }
    }

    /// The set `line` maps to.
    #[inline]
    #[allow(clippy::cast_possible_truncation, reason = "below `self.sets`, a usize")]
    fn set_of(&self, line: u64) -> usize {
        (line % self.sets as u64) as usize
    }

    /// The state of set `set` (every way empty if no load has reached it yet).
    #[inline]
    fn set_mut(&mut self, set: usize) -> &mut [u64] {
        if self.state.is_empty() {
            self.state = vec![None; self.sets];
        }
        let (ways, sectors) = (self.ways, self.sectors);
        self.state[set].get_or_insert_with(|| {
            let mut s = vec![0; ways * (3 + sectors)].into_boxed_slice();
            s[..ways].fill(u64::MAX);
            s
        })
    }

    /// Look the sectors `need` (a bit per sector) of `line` up at cycle `now`. A line not present is allocated
    /// (evicting the set's least recently used line) with those sectors; sectors of a present line that are
    /// missing are added. Either way the missing sectors' data arrives at `fill()`. Returns whether every
    /// needed sector was there (a hit), and when the last of them arrives (for a sector still being filled: when
    /// its fill arrives).
    #[inline]
    pub fn load(&mut self, line: u64, need: u64, now: u64, fill: impl FnOnce() -> u64) -> (bool, u64) {
        if self.sets == 0 {
            return (false, fill());
        }
        self.clock += 1;
        let (ways, sectors, clock) = (self.ways, self.sectors, self.clock);
        let state = self.set_mut(self.set_of(line));
        let (tags, rest) = state.split_at_mut(ways);
        let (present, rest) = rest.split_at_mut(ways);
        let (used, ready) = rest.split_at_mut(ways);
        let way = match tags.iter().position(|&t| t == line) {
            Some(k) => k,
            None => {
                let victim = (0..ways).min_by_key(|&k| (tags[k] != u64::MAX, used[k])).unwrap_or(0);
                tags[victim] = line;
                present[victim] = 0;
                victim
            }
        };
        used[way] = clock;
        let missing = need & !present[way];
        let ready = &mut ready[way * sectors..(way + 1) * sectors];
        if missing != 0 {
            let at = fill();
            let mut m = missing;
            while m != 0 {
                ready[m.trailing_zeros() as usize] = at;
                m &= m - 1;
            }
            present[way] |= missing;
        }
        let mut at = now;
        let mut m = need;
        while m != 0 {
            at = at.max(ready[m.trailing_zeros() as usize]);
            m &= m - 1;
        }
        (missing == 0, at)
    }

    /// Drops `line` if it is present: a global atomic on it (performed at L2) leaves the SM's copy stale, so the
    /// next load of the line misses (measured: `calibration/measured/ubench14.cu`; a store keeps it).
    pub fn invalidate(&mut self, line: u64) {
        if self.sets == 0 {
            return;
        }
        let ways = self.ways;
        let set = self.set_of(line);
        let Some(state) = self.state.get_mut(set).and_then(Option::as_mut) else {
            return;
        };
        for k in 0..ways {
            if state[k] == line {
                state[k] = u64::MAX;
                state[ways + k] = 0;
                state[2 * ways + k] = 0;
            }
        }
    }

    /// Capacity in lines.
    #[cfg(test)]
    pub fn lines(&self) -> usize {
        self.sets * self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::{L1, LineSet};

    #[test]
    fn a_line_set_holds_lines_as_bits_below_its_bound_and_in_a_hash_set_above() {
        let mut s = LineSet::new(1000);
        for line in [0, 63, 64, 999, 1000, 5_000_000] {
            assert!(!s.contains(line));
            s.insert(line);
            assert!(s.contains(line));
        }
        for line in [1, 62, 65, 998, 1001, 4_999_999] {
            assert!(!s.contains(line), "{line}");
        }
        // Bits only up to the bound: 1000 lines in 16 words, whatever was inserted.
        assert_eq!(s.bits.len(), 16);
        assert_eq!(s.sparse.len(), 2);
        s.insert(999);
        assert_eq!(s.bits.len(), 16);
    }

    fn hit(c: &mut L1, line: u64) -> bool {
        c.load(line, 1, 0, || 0).0
    }

    #[test]
    fn an_invalidated_line_misses_and_the_others_stay() {
        let mut c = L1::new(512, 128, 128, 2);
        assert!(!hit(&mut c, 7));
        assert!(!hit(&mut c, 9));
        c.invalidate(7);
        c.invalidate(1000);
        assert!(hit(&mut c, 9));
        assert!(!hit(&mut c, 7));
        assert!(hit(&mut c, 7));
    }

    #[test]
    fn hits_after_a_miss_and_evicts_the_least_recently_used_line() {
        // 2 sets of 2 ways, 128-byte lines.
        let mut c = L1::new(512, 128, 128, 2);
        assert_eq!(c.lines(), 4);
        assert!(!hit(&mut c, 0));
        assert!(hit(&mut c, 0));
        assert!(!hit(&mut c, 2)); // same set as 0
        assert!(hit(&mut c, 0)); // 0 is now the most recent
        assert!(!hit(&mut c, 4)); // evicts 2, the least recently used of set 0
        assert!(hit(&mut c, 0));
        assert!(!hit(&mut c, 2));
        assert!(!hit(&mut c, 1)); // set 1 is independent
        assert!(hit(&mut c, 1));
    }

    #[test]
    fn another_sector_of_a_present_line_misses_and_waits_only_for_its_own_fill() {
        // 2 sets of 2 ways, 128-byte lines of four 32-byte sectors.
        let mut c = L1::new(512, 128, 32, 2);
        assert_eq!(c.load(5, 0b0001, 10, || 300), (false, 300));
        // Sector 1 of the same line: a miss, filled on its own.
        assert_eq!(c.load(5, 0b0010, 400, || 690), (false, 690));
        // Sector 0 is there since 300: a hit, not held up by sector 1's fill in flight.
        assert_eq!(c.load(5, 0b0001, 450, || 999), (true, 450));
        // Both sectors: a hit once the later one arrives.
        assert_eq!(c.load(5, 0b0011, 460, || 999), (true, 690));
        // Sectors 1 and 2: one fill for the missing one, the load waits for both.
        assert_eq!(c.load(5, 0b0110, 700, || 990), (false, 990));
        // An invalidated line starts again with no sector.
        c.invalidate(5);
        assert_eq!(c.load(5, 0b0001, 1000, || 1300), (false, 1300));
        assert_eq!(c.load(5, 0b0010, 1000, || 1301), (false, 1301));
    }

    #[test]
    fn a_hit_on_a_line_in_flight_waits_for_its_fill() {
        let mut c = L1::new(512, 128, 128, 2);
        assert_eq!(c.load(3, 1, 10, || 297), (false, 297));
        assert_eq!(c.load(3, 1, 12, || 299), (true, 297));
        assert_eq!(c.load(3, 1, 400, || 687), (true, 400));
    }

    #[test]
    fn a_cache_smaller_than_a_set_always_misses() {
        let mut c = L1::new(64, 128, 128, 4);
        assert_eq!(c.lines(), 0);
        assert_eq!(c.load(7, 1, 0, || 5), (false, 5));
        assert_eq!(c.load(7, 1, 1, || 6), (false, 6));
    }
}
