//! The L1 data cache of global memory: set-associative, LRU, allocate on load miss, write-through without
//! allocation (as Hopper's L1 treats global stores). It decides timing only: values always come from memory.

#[derive(Clone, Debug)]
pub struct L1 {
    sets: usize,
    ways: usize,
    /// Line tag per way (`u64::MAX`: empty), set-major.
    tags: Vec<u64>,
    /// Last use per way, for LRU.
    used: Vec<u64>,
    clock: u64,
}

impl L1 {
    /// A cache of `bytes` bytes in lines of `line_bytes`, `ways`-way set-associative. Smaller than one set:
    /// no cache (every access misses).
    pub fn new(bytes: u64, line_bytes: u32, ways: u32) -> L1 {
        let ways = ways.max(1) as usize;
        let sets = (bytes / line_bytes.max(1) as u64) as usize / ways;
        L1 {
            sets,
            ways,
            tags: vec![u64::MAX; sets * ways],
            used: vec![0; sets * ways],
            clock: 0,
        }
    }

    /// Look `line` up, allocating it on a miss (evicting the set's least recently used line). Returns whether it
    /// hit.
    #[inline]
    pub fn load(&mut self, line: u64) -> bool {
        if self.sets == 0 {
            return false;
        }
        self.clock += 1;
        let base = (line % self.sets as u64) as usize * self.ways;
        let set = base..base + self.ways;
        if let Some(k) = self.tags[set.clone()].iter().position(|&t| t == line) {
            self.used[base + k] = self.clock;
            return true;
        }
        let victim = (0..self.ways)
            .min_by_key(|&k| (self.tags[base + k] != u64::MAX, self.used[base + k]))
            .unwrap_or(0);
        self.tags[base + victim] = line;
        self.used[base + victim] = self.clock;
        false
    }

    /// Capacity in lines.
    pub fn lines(&self) -> usize {
        self.sets * self.ways
    }
}

#[cfg(test)]
mod tests {
    use super::L1;

    #[test]
    fn hits_after_a_miss_and_evicts_the_least_recently_used_line() {
        // 2 sets of 2 ways, 128-byte lines.
        let mut c = L1::new(512, 128, 2);
        assert_eq!(c.lines(), 4);
        assert!(!c.load(0));
        assert!(c.load(0));
        assert!(!c.load(2)); // same set as 0
        assert!(c.load(0)); // 0 is now the most recent
        assert!(!c.load(4)); // evicts 2, the least recently used of set 0
        assert!(c.load(0));
        assert!(!c.load(2));
        assert!(!c.load(1)); // set 1 is independent
        assert!(c.load(1));
    }

    #[test]
    fn a_cache_smaller_than_a_set_always_misses() {
        let mut c = L1::new(64, 128, 4);
        assert_eq!(c.lines(), 0);
        assert!(!c.load(7));
        assert!(!c.load(7));
    }
}
