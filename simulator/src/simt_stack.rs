//! The SIMT reconvergence stack.
//!
//! Hardware before Volta kept, per warp, a stack of (pc, active mask, reconvergence pc) entries; GPGPU-Sim
//! models the same. A divergent branch turns the top entry into the reconvergence entry (its pc becomes the
//! branch's immediate post-dominator) and pushes one entry per path; the fall-through path runs first. When
//! the running entry reaches its reconvergence pc it is popped and the lanes merge. Volta and later schedule
//! diverged paths independently, but for structured code the lanes reconverge at the same point, which is
//! what this model shows.

use smallvec::SmallVec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackEntry {
    pub pc: u32,
    pub mask: u64,
    /// Where this entry's lanes rejoin the entry below; `u32::MAX` for the base entry.
    pub reconverge: u32,
}

#[derive(Clone, Debug, Default)]
pub struct SimtStack {
    entries: SmallVec<[StackEntry; 8]>,
}

/// What happened to the stack after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// Lanes merged at `pc`; `mask` are the lanes active after the merge.
    Reconverged { pc: u32, mask: u64 },
}

impl SimtStack {
    pub fn new(mask: u64) -> SimtStack {
        let mut entries = SmallVec::new();
        entries.push(StackEntry {
            pc: 0,
            mask,
            reconverge: u32::MAX,
        });
        SimtStack { entries }
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
            (Some(t), Some(r)) if t.pc == r => Some(Merge::Reconverged { pc: r, mask: t.mask }),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
