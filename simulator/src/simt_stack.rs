//! The SIMT reconvergence stack.
//!
//! Hardware before Volta kept, per warp, a stack of (pc, active mask, reconvergence pc) entries; GPGPU-Sim
//! models the same. A divergent branch turns the top entry into the reconvergence entry (its pc becomes the
//! branch's immediate post-dominator) and pushes one entry per path; the fall-through path runs first. When
//! the running entry reaches its reconvergence pc it is popped and the lanes merge. Volta and later schedule
//! diverged paths independently, but for structured code the lanes reconverge at the same point, which is
//! what this model shows by default (`--scheduling lockstep`).
//!
//! With independent thread scheduling (`--scheduling its`, [`SimtStack::next_path`]) the same entries are a
//! tree: a reconvergence entry lies below every entry of its paths, and a **path** is an entry no entry above
//! it shares a lane with. After every issue the lowest path in the stack that is not waiting moves to the top
//! (round robin: the diverged paths of a warp issue in turn, one instruction each), so a path spinning on a
//! flag lets the path that sets it run. A path that reaches its reconvergence pc leaves the stack: its lanes
//! wait in the reconvergence entry (Volta's convergence barrier at the branch's immediate post-dominator)
//! while the other paths run, and the entry runs again once all its paths have arrived.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackEntry {
    pub pc: u32,
    pub mask: u64,
    /// Where this entry's lanes rejoin the entry below; `u32::MAX` for the base entry.
    pub reconverge: u32,
}

impl StackEntry {
    /// Whether the entry, as the stack's top, needs no settling: it has lanes, lies before `end` and short of its
    /// reconvergence pc.
    #[inline(always)]
    pub fn on_its_way(&self, end: u32) -> bool {
        self.mask != 0 && self.pc < end && self.pc != self.reconverge
    }
}

#[derive(Clone, Debug, Default)]
pub struct SimtStack {
    /// (A `Vec`, reused by the warp slot's next warp: reading its top is one load, where a small vector tests
    /// first where its entries live.)
    entries: Vec<StackEntry>,
    /// ITS: lanes whose path waits at a warp-synchronous instruction for other lanes of its member mask.
    pub waiting: u64,
    /// ITS: lanes released from such a wait: they execute their warp-synchronous instruction when next issued.
    pub released: u64,
    /// Lanes that arrived together at the `bar.warp.sync` being executed, on other paths (ITS; 0 in lockstep).
    pub synced: u64,
    /// ITS: the results of an exchange across warp-synchronous instructions, until every lane has taken its own.
    pub mail: Option<Box<crate::its::Mail>>,
    /// Lanes that left a loop with a `YIELD` while others stayed (`kernel::sched::RELEASE_TAKEN`), until they
    /// merge with the others again: the loop's `YIELD` then switches to them and back (`timing.yield_diverged`).
    pub yielded: u64,
}

/// What happened to the stack after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// Lanes merged at `pc`; `mask` are the lanes active after the merge.
    Reconverged { pc: u32, mask: u64 },
}

impl SimtStack {
    pub fn new(mask: u64) -> SimtStack {
        let mut stack = SimtStack {
            entries: Vec::with_capacity(8),
            waiting: 0,
            released: 0,
            synced: 0,
            mail: None,
            yielded: 0,
        };
        stack.reset(mask);
        stack
    }

    /// The stack of a warp placed with `mask`, in this storage: one entry at pc 0.
    pub fn reset(&mut self, mask: u64) {
        self.entries.clear();
        self.entries.push(StackEntry {
            pc: 0,
            mask,
            reconverge: u32::MAX,
        });
        self.waiting = 0;
        self.released = 0;
        self.synced = 0;
        self.mail = None;
        self.yielded = 0;
    }

    pub fn top(&self) -> Option<&StackEntry> {
        self.entries.last()
    }

    pub fn top_mut(&mut self) -> Option<&mut StackEntry> {
        self.entries.last_mut()
    }

    /// Lanes of the warp that have not exited (the base entry's mask).
    pub fn live(&self) -> u64 {
        self.entries.first().map(|e| e.mask).unwrap_or(0)
    }

    /// Split at a divergent branch: the current entry waits at `reconverge`; `taken` lanes go to `target`,
    /// `fallthrough` lanes continue at `next` (and run first).
    pub fn diverge(&mut self, taken: u64, target: u32, fallthrough: u64, next: u32, reconverge: u32) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = reconverge;
        }
        self.entries.push(StackEntry {
            pc: target,
            mask: taken,
            reconverge,
        });
        self.entries.push(StackEntry {
            pc: next,
            mask: fallthrough,
            reconverge,
        });
    }

    /// A divergent branch out of a loop in which ptxas put a `YIELD` (`kernel::sched::RELEASE_TAKEN` and
    /// `RELEASE_FALLTHROUGH`): `leaving` lanes go to `exit_pc`, `staying` lanes to `stay_pc`, and they meet again
    /// at `join`, past the loop's end (`kernel::sched::release_join`), where the current entry waits. On the GPU
    /// the lanes that left wait at the loop's `BSYNC` only until the lanes still looping pass the `YIELD`, which
    /// releases them; the warp then runs them alone until they exit or reach an instruction that names the other
    /// lanes, before the looping lanes go on: here the leaving lanes run first.
    pub fn release(&mut self, leaving: u64, exit_pc: u32, staying: u64, stay_pc: u32, join: u32) {
        // (A split whose "fall-through" side, the one that runs first, is the leaving lanes.)
        self.diverge(staying, stay_pc, leaving, exit_pc, join);
        self.yielded |= leaving;
    }

    /// Lanes that executed `exit` leave every entry.
    pub fn remove_lanes(&mut self, lanes: u64) {
        for e in &mut self.entries {
            e.mask &= !lanes;
        }
    }

    /// Pop entries that reached their reconvergence pc or have no lanes left. Returns the merge if lanes
    /// rejoined their parent entry (not when control just passed to the other path of a split). An entry at or
    /// past `end` (the program's length) stays: its lanes have finished the program and exit (the caller
    /// removes them), even where `end` is also their reconvergence pc, so that they stop counting as live for
    /// barriers and `bar.warp.sync` on the other paths.
    #[inline]
    pub fn settle(&mut self, end: u32) -> Option<Merge> {
        let mut last_reconverge = None;
        while let Some(top) = self.entries.last().copied() {
            if top.mask == 0 {
                self.entries.pop();
            } else if top.pc >= end {
                break;
            } else if top.pc == top.reconverge {
                self.entries.pop();
                last_reconverge = Some(top.reconverge);
            } else {
                break;
            }
        }
        match (self.entries.last(), last_reconverge) {
            // A sibling path is never at the reconvergence pc (it would have been popped), so an entry there is
            // the parent: the lanes have merged.
            (Some(t), Some(r)) if t.pc == r => {
                self.yielded &= !t.mask;
                Some(Merge::Reconverged { pc: r, mask: t.mask })
            }
            _ => None,
        }
    }

    /// Whether [`SimtStack::settle`] would leave the stack as it is: its top has lanes, lies before `end` and
    /// short of its reconvergence pc.
    #[inline(always)]
    pub fn on_its_way(&self, end: u32) -> bool {
        self.entries.last().is_some_and(|t| t.on_its_way(end))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// ITS: whether entry `i` is a path (no entry above it shares a lane with it).
    fn is_path(&self, i: usize) -> bool {
        let m = self.entries[i].mask;
        self.entries[i + 1..].iter().all(|e| e.mask & m == 0)
    }

    /// ITS: the warp's paths, bottom to top.
    pub fn paths(&self) -> impl Iterator<Item = &StackEntry> {
        (0..self.entries.len())
            .filter(|&i| self.is_path(i))
            .map(|i| &self.entries[i])
    }

    /// ITS: move the paths holding any of `lanes` (but the top) on to `pc`.
    pub fn advance_paths(&mut self, lanes: u64, pc: u32) {
        let n = self.entries.len();
        for i in 0..n.saturating_sub(1) {
            if self.entries[i].mask & lanes != 0 && self.is_path(i) {
                self.entries[i].pc = pc;
            }
        }
    }

    /// ITS: the next path to issue goes to the top. Entries without lanes go; a path at its reconvergence pc
    /// (but not past the program's `end`) arrives there and goes, its lanes waiting in the reconvergence
    /// entry, which is a path again once all its paths have arrived: that merge is returned. Then the lowest
    /// path that is not waiting moves to the top; if every path waits, the lowest one does (it looks again at
    /// what it waits for: lanes it waited for may have exited).
    #[inline(never)]
    pub fn next_path(&mut self, end: u32) -> Option<Merge> {
        if let [only] = self.entries.as_slice()
            && only.mask != 0
        {
            // One path (the common case): it stays on top, and is not waiting.
            self.waiting &= !only.mask;
            return None;
        }
        let mut merge = None;
        loop {
            let before = self.entries.len();
            self.entries.retain(|e| e.mask != 0);
            let arrived = (1..self.entries.len()).rev().find(|&i| {
                let e = self.entries[i];
                e.pc == e.reconverge && e.pc < end && self.is_path(i)
            });
            if let Some(i) = arrived {
                let e = self.entries.remove(i);
                // The reconvergence entry: the nearest below holding its lanes.
                if let Some(h) = (0..i).rev().find(|&h| self.entries[h].mask & e.mask != 0)
                    && self.is_path(h)
                {
                    self.yielded &= !self.entries[h].mask;
                    merge = Some(Merge::Reconverged {
                        pc: self.entries[h].pc,
                        mask: self.entries[h].mask,
                    });
                }
            } else if self.entries.len() == before {
                break;
            }
        }
        let n = self.entries.len();
        let runnable = (0..n).find(|&i| self.is_path(i) && self.entries[i].mask & !self.waiting != 0);
        let pick = runnable.or_else(|| (0..n).find(|&i| self.is_path(i)));
        if let Some(i) = pick {
            let e = self.entries.remove(i);
            self.waiting &= !e.mask;
            self.entries.push(e);
        }
        merge
    }
}
