//! Machine configuration: warp size, SM resources and the timing table, as data.
//!
//! Every latency the timing model uses lives here, serialisable as JSON; the executor holds none. The default
//! is a Hopper-like SM (H100/H200, sm_90) with figures from `timing-h200.md` (warp-level microbenchmarks on an
//! H200): ALU 4 cycles, shuffle 24 (idx 26), and so on. A later calibration pass refines the table.

use serde::{Deserialize, Serialize};

/// Latency, in cycles, from issue until a dependent instruction may issue, per functional-unit class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// Integer add, logic, shifts, compares, moves, select.
    pub int_alu: u32,
    /// Integer multiply and multiply-add.
    pub int_mul: u32,
    /// Integer divide and remainder (a multi-instruction sequence on real hardware).
    pub int_div: u32,
    /// f32 add, multiply, fma, min, max.
    pub fp32: u32,
    /// f32 divide (IEEE round-to-nearest: a multi-instruction sequence on real hardware).
    pub fp32_div: u32,
    /// Conversions between f32 and integers.
    pub convert: u32,
    /// `shfl.sync` up / down / bfly.
    pub shuffle: u32,
    /// `shfl.sync.idx`.
    pub shuffle_idx: u32,
    /// Global load that hits in L1 (no cache model yet: every load is charged this).
    pub global_load: u32,
    /// Global store, until the warp may reuse the stored register.
    pub global_store: u32,
    /// Shared load without bank conflict.
    pub shared_load: u32,
    /// Shared store, until the warp may reuse the stored register.
    pub shared_store: u32,
    /// Extra cycles per extra way of a shared-memory bank conflict (a conflict of degree d costs (d-1) x this).
    pub bank_conflict: u32,
    /// Shared-memory atomic, lanes on distinct addresses.
    pub shared_atomic: u32,
    /// Extra cycles per additional lane hitting the same shared address (atomics serialise).
    pub shared_atomic_serialize: u32,
    /// Global-memory atomic (performed at L2), lanes on distinct addresses.
    pub global_atomic: u32,
    /// Extra cycles per additional lane hitting the same global address.
    pub global_atomic_serialize: u32,
    /// Barrier release after the last warp arrives: `barrier + barrier_per_warp x warps`.
    pub barrier: u32,
    pub barrier_per_warp: u32,
    /// Branch: cycles before the warp can issue at the new pc.
    pub branch: u32,
    /// Reading `%clock`.
    pub clock_read: u32,
}

/// Warp-scheduling policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerPolicy {
    /// Loose round robin: each cycle, start the search after the warp issued last and take the first ready one.
    LooseRoundRobin,
}

/// Everything that defines the simulated machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Machine name, e.g. `hopper`.
    pub name: String,
    /// Lanes per warp: a power of two from 2 to 64.
    pub warp_size: u32,
    /// Warp schedulers (sub-partitions) per SM; warp `i` of the SM is served by scheduler `i % schedulers`.
    pub schedulers: u32,
    /// How a scheduler picks among its ready warps.
    pub scheduler_policy: SchedulerPolicy,
    /// Resident warps per SM.
    pub max_warps_per_sm: u32,
    /// Resident blocks per SM.
    pub max_blocks_per_sm: u32,
    /// Threads per block.
    pub max_threads_per_block: u32,
    /// Shared memory a block may use, in bytes.
    pub max_shared_per_block: u32,
    /// Shared memory of the SM, in bytes (limits how many blocks are resident).
    pub shared_per_sm: u32,
    /// Shared-memory banks; consecutive 4-byte words go to consecutive banks.
    pub shared_banks: u32,
    pub timing: Timing,
}

impl Config {
    /// A Hopper-like SM (H100/H200), the default.
    pub fn hopper() -> Config {
        Config {
            name: "hopper".into(),
            warp_size: 32,
            schedulers: 4,
            scheduler_policy: SchedulerPolicy::LooseRoundRobin,
            max_warps_per_sm: 64,
            max_blocks_per_sm: 32,
            max_threads_per_block: 1024,
            max_shared_per_block: 227 * 1024,
            shared_per_sm: 228 * 1024,
            shared_banks: 32,
            timing: Timing {
                int_alu: 4,
                int_mul: 4,
                int_div: 20,
                fp32: 4,
                fp32_div: 20,
                convert: 6,
                shuffle: 24,
                shuffle_idx: 26,
                global_load: 40,
                global_store: 4,
                shared_load: 29,
                shared_store: 4,
                bank_conflict: 2,
                shared_atomic: 30,
                shared_atomic_serialize: 2,
                global_atomic: 260,
                global_atomic_serialize: 1,
                barrier: 10,
                barrier_per_warp: 2,
                branch: 4,
                clock_read: 2,
            },
        }
    }

    /// Checks what the simulator relies on; a loaded configuration must pass before use.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("invalid configuration: {what}"));
        if !(2..=64).contains(&self.warp_size) || !self.warp_size.is_power_of_two() {
            return bad("`warp_size` must be a power of two from 2 to 64");
        }
        if !(1..=64).contains(&self.schedulers) {
            return bad("`schedulers` must be 1 to 64");
        }
        if !(1..=4096).contains(&self.max_warps_per_sm) || !(1..=1024).contains(&self.max_blocks_per_sm) {
            return bad("`max_warps_per_sm` must be 1 to 4096 and `max_blocks_per_sm` 1 to 1024");
        }
        if !(1..=4096).contains(&self.max_threads_per_block) {
            return bad("`max_threads_per_block` must be 1 to 4096");
        }
        if !(1..=64).contains(&self.shared_banks) {
            return bad("`shared_banks` must be 1 to 64");
        }
        if self.max_shared_per_block > self.shared_per_sm || self.shared_per_sm > 1 << 30 {
            return bad("`max_shared_per_block` must not exceed `shared_per_sm` (at most 1 GiB)");
        }
        Ok(())
    }

    pub fn with_warp_size(mut self, w: u32) -> Config {
        self.warp_size = w;
        self
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::hopper()
    }
}
