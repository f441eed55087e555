//! A resident thread block, and the rules that place blocks on an SM.
//!
//! On hardware the GPU's block scheduler hands each SM blocks while it has room: a block needs a block slot,
//! warp slots for all its warps and its shared memory, and holds them until its last warp has finished
//! (block-granular resources). The model keeps the same rules ([`blocks_per_sm`], [`room_for_another`]) and,
//! per resident block, its shared memory, its barrier unit and the sanitizers' shadow of it. The engine deals
//! block ids to each SM's [`BlockQueue`] at epoch boundaries ([`crate::gpu`]); the SM places them from the queue
//! the cycle it has room.

use crate::barrier::BarrierUnit;
use crate::check::{BlockCheck, Checks};
use crate::config::Config;
use crate::kernel::Kernel;
use std::collections::VecDeque;

/// A resident block: its shared memory and barriers.
pub(crate) struct Block {
    pub id: u32,
    /// Warps with live lanes (a warp whose lanes have all exited no longer counts).
    pub warps_left: u32,
    pub shared: Vec<u32>,
    /// Its barriers, their pacing and their releases so far (the generation).
    pub barrier: BarrierUnit,
    /// With `--check race` or `init`: the shadow of its shared memory and its warps' vector clocks.
    pub check: BlockCheck,
    /// For each shared word who last wrote it in which barrier generation ([`crate::lsu::writer_stamp`]; 0: not since the
    /// block started): what finds an unordered read ([`crate::check::UnorderedRead`]).
    pub writers: Vec<u64>,
}

impl Block {
    /// Storage for a block (placed by [`Block::place`]).
    pub fn new() -> Block {
        Block {
            id: 0,
            warps_left: 0,
            shared: Vec::new(),
            barrier: BarrierUnit::default(),
            check: BlockCheck::default(),
            writers: Vec::new(),
        }
    }

    /// Place block `id` of `kernel` (this storage, reused): its shared memory zeroed, its barriers reset, the
    /// missing-barrier hint's stamps (`hint`) and the sanitizers' shadow (`checks`) cleared.
    pub fn place(&mut self, id: u32, kernel: &Kernel, hint: bool, checks: Checks) {
        let warps = kernel.warps_per_block();
        self.id = id;
        self.warps_left = warps;
        self.shared.clear();
        self.shared.resize(kernel.shared_words, 0);
        self.barrier.reset();
        self.writers.clear();
        if hint {
            self.writers.resize(kernel.shared_words, 0);
        }
        if checks.race || checks.init {
            self.check.reset(kernel.shared_words, warps as usize);
        }
    }
}

/// Whether an SM with `resident` blocks of `kernel` and `warp_slots` warp slots has room for one more: a block
/// slot, warp slots for all its warps (a finished block's slots only), and its shared memory (a block that fits
/// no SM still runs alone).
pub(crate) fn room_for_another(kernel: &Kernel, config: &Config, resident: usize, warp_slots: usize) -> bool {
    let per_block = kernel.warps_per_block() as usize;
    let shared_bytes = kernel.shared_words as u64 * 4;
    let shared_used = resident as u64 * shared_bytes;
    resident < config.max_blocks_per_sm as usize
        && (resident + 1) * per_block <= warp_slots
        && (resident == 0 || shared_used + shared_bytes <= u64::from(config.shared_per_sm))
}

/// Block ids in increasing order, kept as runs of consecutive ids: a whole grid queued on one SM is one run.
#[derive(Debug, Default)]
pub(crate) struct BlockQueue {
    runs: VecDeque<(u32, u32)>,
    len: usize,
}

impl BlockQueue {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Queue blocks `ids` (each above every queued one).
    pub fn push(&mut self, ids: std::ops::Range<u32>) {
        if ids.is_empty() {
            return;
        }
        self.len += ids.len();
        match self.runs.back_mut() {
            Some(last) if last.1 == ids.start => last.1 = ids.end,
            _ => self.runs.push_back((ids.start, ids.end)),
        }
    }

    pub fn front(&self) -> Option<u32> {
        self.runs.front().map(|r| r.0)
    }

    pub fn pop_front(&mut self) {
        if let Some(first) = self.runs.front_mut() {
            first.0 += 1;
            self.len -= 1;
            if first.0 == first.1 {
                self.runs.pop_front();
            }
        }
    }
}

/// Blocks of `kernel` one SM holds at once (at least one: a block that fits no SM runs alone).
pub(crate) fn blocks_per_sm(kernel: &Kernel, config: &Config) -> u64 {
    let per_block = kernel.shared_words as u64 * 4;
    let warps = u64::from(kernel.warps_per_block().max(1));
    let slots = u64::from(config.max_warps_per_sm).max(warps);
    let mut blocks = u64::from(config.max_blocks_per_sm).min(slots / warps).max(1);
    if let Some(fit) = u64::from(config.shared_per_sm).checked_div(per_block) {
        blocks = blocks.min(fit.max(1));
    }
    blocks
}
