//! Machine configuration: warp size, SM resources and the timing model's parameters, as data.
//!
//! Every latency and issue interval the timing model uses lives here, serialisable as JSON (`sim config` prints
//! the default, `--config FILE` loads another); the executor holds none. The default, [`Config::hopper`], is a
//! Hopper SM (H100/H200, sm_90) calibrated against warp-level microbenchmarks run on an H200
//! (`calibration/measured/`; `sim calibrate` compares row by row). `docs/timing.md` explains every field.

use serde::{Deserialize, Serialize};

/// One functional-unit class: how long its result takes and how often its pipe accepts an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Cycles from issue until a dependent instruction of the same pipe may issue.
    pub latency: u32,
    /// Cycles the pipe is busy per instruction: the next instruction for the pipe issues no sooner.
    pub interval: u32,
}

impl Unit {
    const fn new(latency: u32, interval: u32) -> Unit {
        Unit { latency, interval }
    }

    /// This unit with `extra` cycles more latency.
    #[must_use]
    pub fn plus(self, extra: u32) -> Unit {
        Unit {
            latency: self.latency.saturating_add(extra),
            interval: self.interval,
        }
    }
}

/// The latency the instructions around a `MUFU` add, per PTX form ([`Units::mufu_sequences`]): measured on an H200 as
/// a dependent chain of the form and an add less the same chain of `rcp.approx.ftz.f32` (24.27 cycles,
/// `calibration/measured/ubench35.cu`; the instructions, `calibration/measured/mufu/sass.txt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MufuSequences {
    /// `rcp.approx.f32`: the operand scaled by 1/4 or 2^24 (two tests, two selects, a multiply) and the result
    /// by the same factor (43.51 cycles).
    pub rcp: u32,
    /// `rsqrt.approx.f32`, `sqrt.approx.f32`, `lg2.approx.f32`: a subnormal operand scaled by 2^24, the result
    /// scaled back (44.78 cycles each).
    pub rsqrt_sqrt_lg2: u32,
    /// `ex2.approx.f32`: below -126, 2^(x/2) squared (29.76 cycles).
    pub ex2: u32,
    /// `sin.approx` and `cos.approx` (`.f32`, with or without `.ftz`): the multiply by 1/(2π) before the `MUFU` (27.27
    /// cycles).
    pub sin_cos: u32,
    /// `div.approx.ftz.f32`: the multiply by the reciprocal (28.28 cycles).
    pub div_ftz: u32,
    /// `div.approx.f32`: both operands scaled by 2^24 where the divisor is subnormal, and the multiply (42.02).
    pub div: u32,
    /// `div.full.f32` and `div.full.ftz.f32`: both scaled by 1/4 above 2^126 (and by 2^24 where subnormal), the
    /// multiply (46.77 cycles each).
    pub div_full: u32,
}

impl Default for MufuSequences {
    fn default() -> MufuSequences {
        MufuSequences {
            rcp: 19,
            rsqrt_sqrt_lg2: 21,
            ex2: 6,
            sin_cos: 3,
            div_ftz: 4,
            div: 18,
            div_full: 23,
        }
    }
}

/// The functional-unit classes. Each instruction of the ISA belongs to one (`docs/timing.md` lists them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Units {
    /// ALU pipe: integer logic, shifts, compares, min/max, moves, selects, predicate logic, votes; f32 min/max,
    /// abs, neg and compares.
    pub alu: Unit,
    /// FMA pipe: f32 add, mul, fma; integer add, sub, mul, mad (the IMAD datapath).
    pub fma: Unit,
    /// Conversions between f32 and integers (the special-function pipe).
    pub convert: Unit,
    /// 32-bit integer divide and remainder by a constant or by a register a loop does not change (ptxas computes
    /// the divisor's reciprocal once, or nvcc multiplies by a constant's: what is left in the loop is a
    /// multiply-high and corrections).
    pub int_div: Unit,
    /// 32-bit unsigned divide and remainder by a register the code around it computes (`I2F`, `MUFU.RCP`, `F2I`
    /// and the multiply-high with its corrections: the whole sequence, `calibration/measured/ubench29.cu`).
    #[serde(default = "Units::default_int_div_reg")]
    pub int_div_reg: Unit,
    /// Likewise, signed (the sequence on the operands' magnitudes, and the signs).
    #[serde(default = "Units::default_int_div_reg_signed")]
    pub int_div_reg_signed: Unit,
    /// 64-bit unsigned divide and remainder: ptxas calls a division subroutine, which the warp runs to its end
    /// before its next instruction issues (the warp is held for the latency).
    #[serde(default = "Units::default_int_div64")]
    pub int_div64: Unit,
    /// 64-bit signed divide and remainder (the same subroutine with the signs taken off and put back).
    #[serde(default = "Units::default_int_div64_signed")]
    pub int_div64_signed: Unit,
    /// f32 divide, IEEE round to nearest (likewise a sequence on hardware).
    pub fp32_div: Unit,
    /// FP64 pipe: f64 add, mul, fma, min/max, compares. A configuration file without it takes the default (as
    /// for the two below).
    #[serde(default = "Units::default_fp64")]
    pub fp64: Unit,
    /// f64 divide, IEEE round to nearest (an instruction sequence on hardware).
    #[serde(default = "Units::default_fp64_div")]
    pub fp64_div: Unit,
    /// `rcp.rn.f32` (nvcc's `1.0f / x`) and the f32 reciprocal's directed forms (a sequence around `MUFU.RCP`).
    #[serde(default = "Units::default_fp32_rcp")]
    pub fp32_rcp: Unit,
    /// `rcp.rn.f64` (nvcc's `1.0 / x`; a sequence around `MUFU.RCP64H`).
    #[serde(default = "Units::default_fp64_rcp")]
    pub fp64_rcp: Unit,
    /// Square root, `sqrt.rn.f64` and its directed forms (sequences on hardware).
    #[serde(default = "Units::default_sqrt")]
    pub sqrt: Unit,
    /// Square root, `sqrt.rn.f32` and its directed forms (a sequence around `MUFU.RSQ` on hardware).
    #[serde(default = "Units::default_fp32_sqrt")]
    pub fp32_sqrt: Unit,
    /// The special-function unit's approximations, one `MUFU` instruction: `rcp`, `rsqrt`, `sqrt`, `ex2`, `lg2`
    /// `.approx.ftz.f32` and `rcp`/`rsqrt` `.approx.ftz.f64`. The other forms add [`Units::mufu_sequences`].
    #[serde(default = "Units::default_mufu")]
    pub mufu: Unit,
    /// The cycles the instructions ptxas puts around a `MUFU` add to its latency: the forms without `.ftz` (the
    /// operand tested, scaled and the result scaled back) and the divisions (the multiply).
    #[serde(default)]
    pub mufu_sequences: MufuSequences,
    /// `shfl.sync` (any mode) whose lane or offset operand is an immediate, or a register that only ever holds
    /// one constant (ptxas encodes it in the `SHFL`).
    pub shuffle: Unit,
    /// `shfl.sync` whose lane or offset operand is a register (the `SHFL` reads it: 2 cycles more, measured by
    /// `ubench.cu`'s chains and `ubench28.cu`'s pairs). Same pipe as [`Units::shuffle`]. (`shuffle_idx` before:
    /// the measurement behind it was an `idx` chain with its lane in a register.)
    #[serde(alias = "shuffle_idx")]
    pub shuffle_reg: Unit,
    /// Shared-memory load without bank conflict. The interval is per wavefront: a conflict of degree d
    /// occupies the SM's shared-memory pipe d times as long.
    pub shared_load: Unit,
    /// Shared-memory store (latency: until the warp may reuse the stored register).
    pub shared_store: Unit,
    /// Shared-memory atomic, lanes on distinct words.
    pub shared_atomic: Unit,
    /// Global load that hits in L1; a miss costs [`Memory::l1_miss_latency`] instead. The interval is per
    /// 128-byte line the warp touches.
    pub global_load: Unit,
    /// A load of local memory that hits in L1 (a miss is priced as a global load's). Measured on an H200: a
    /// thread's local store and dependent load of the same word and an add take 38.75 cycles a pass
    /// (`calibration/programs/local_store_load.ptx`, eight passes an iteration, iterations 2 to 8).
    #[serde(default = "Units::default_local_load")]
    pub local_load: Unit,
    /// Global store (write-through; latency until the warp may reuse the stored register).
    pub global_store: Unit,
    /// Global atomic, performed at L2, lanes on distinct words: its latency, and as its interval the cycles a
    /// cache line at L2 takes one warp's atomic in (a burst on one line: 35.1 a warp's atomic, `global_atomic.s`; on
    /// the GPU that rate comes from about 15 atomics in flight rather than from the line, `ubench28.cu`,
    /// docs/timing.md).
    /// The SM's pipe takes an atomic in `memory.atomic_issue` cycles.
    pub global_atomic: Unit,
    /// Global `atom`/`red` `.min`/`.max` on `.f32`: no GPU instruction does it, so CUDA code (and `sim
    /// crosscheck`) runs a compare-and-swap loop: a load, then `atomicCAS` until it takes. The warp runs the loop to
    /// its end before its next instruction issues (held for the latency), even for a `red`.
    #[serde(default = "Units::default_global_atomic_cas")]
    pub global_atomic_cas: Unit,
    /// Shared `atom`/`red` `.add`/`.and`/`.or`/`.xor`/`.min`/`.max` on 64 bits: no sm_90 instruction does them, so
    /// the compiled code loops on a compare-and-swap (`LDS.64`, the operation, `ATOMS.CAST.SPIN.64` until it
    /// takes); the warp is held. Lanes on one word take one round each ([`Timing::shared_cas_retry`]).
    #[serde(default = "Units::default_shared_atomic_cas")]
    pub shared_atomic_cas: Unit,
    /// CUDA's `printf` (a call of the driver's `vprintf`, which the warp runs to its end: it is held): `latency`
    /// for a call by one lane, each further calling lane [`Timing::printf_per_lane`] more.
    #[serde(default = "Units::default_printf")]
    pub printf: Unit,
    /// Barrier: `latency` cycles from the last arrival being processed to the release; each arriving warp
    /// occupies the block's barrier unit for `interval` cycles, so a barrier of n warps costs about
    /// `latency + interval × n`.
    pub barrier: Unit,
    /// Branch: a branch that redirects the warp holds it for `latency` cycles; one that falls through for 1.
    pub branch: Unit,
    /// Reading `%clock`.
    pub clock: Unit,
}

/// Global memory: the L1 data cache in front of L2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Cache line size in bytes (a power of two).
    pub line_bytes: u32,
    /// The L1's sector in bytes (a power of two, at most `line_bytes`, at least `line_bytes` / 64): a line is
    /// allocated whole but filled a sector at a time, so a load that needs a sector not yet in L1 misses even
    /// when its line is there (measured on an H200: another 32-byte sector of a line in L1 costs 281.6 cycles a
    /// load, the same sector 39.9, `calibration/measured/ubench16.cu`). `line_bytes` itself: whole lines.
    #[serde(default = "Memory::default_sector_bytes")]
    pub sector_bytes: u32,
    /// Storage the SM splits between L1 and shared memory, in bytes. L1 gets what the shared-memory carveout
    /// leaves.
    pub l1_shared_bytes: u32,
    /// Shared-memory carveouts the hardware offers, in KiB; the smallest that holds the resident blocks'
    /// shared memory is chosen.
    pub shared_carveouts_kib: Vec<u32>,
    /// L1 associativity (ways per set; LRU replacement).
    pub l1_ways: u32,
    /// Latency of a global load that misses L1 and hits L2: its line was loaded, stored or updated by an
    /// atomic earlier in the launch (by any SM).
    pub l1_miss_latency: u32,
    /// Latency of a global load of a line no SM has loaded, stored or updated yet in the launch while the buffers
    /// start in L2 (`buffers_in_l2`): the host's copy left the line in its home L2 slice, near or far from the SM;
    /// once an SM has touched it, a miss finds it at `l1_miss_latency` (measured: a chase over 4096 lines copied
    /// from the host, 382 cycles a step on the first pass, 296 on the second).
    #[serde(default = "Memory::default_l2_first_latency")]
    pub l2_first_latency: u32,
    /// Latency of a global load whose line is not in L2: nothing has touched it yet in the launch, and the
    /// buffers did not start there (`buffers_in_l2`). From DRAM.
    pub dram_latency: u32,
    /// Whether a launch starts with its buffers in L2, as `sim crosscheck` runs every kernel: L2 flushed, then
    /// the buffers copied to the device, which leaves them in L2. When false, each line's first load in the
    /// launch costs `dram_latency` (measured with buffers copied after other work: `docs/timing.md`).
    pub buffers_in_l2: bool,
    /// Extra cycles of an SM's first read of a line of the kernel's parameters in a launch (PTX `ld.param` of an
    /// entry's parameter): the constant-bank line misses the SM's constant cache; the SM's reads of it until the
    /// line arrives wait for it, later ones hit. Each line misses on its own, and misses of different lines
    /// overlap. warpsim's own programs read no parameters (their values are constants), as the CUDA translation
    /// reads the line before its start clock. Measured on an H200: the first load of a chase takes 61–67 cycles
    /// longer when its pointer is read after the start clock than when it was read before
    /// (`calibration/measured/ubench18.cu`); read directly in PTX, a warp's first `ld.param` takes 68–69 cycles
    /// longer than its next, on an H100 and an H200 (`calibration/measured/ubench19.cu`), and the first read of
    /// each further 64-byte line 67–68 longer than a read of a line already read (`ubench25.cu`).
    #[serde(default = "Memory::default_param_miss")]
    pub param_miss: u32,
    /// Extra cycles of every read of a kernel parameter over a `mov`'s: ptxas reads it from the constant bank
    /// with an `LDC` (or `ULDC`), whose result takes about 35 cycles when the line is in the constant cache
    /// (H200: 36 from the clock to the clock after a shared store of the value, where a `mov` gives warpsim's 7;
    /// `calibration/measured/ubench25.cu`).
    #[serde(default = "Memory::default_param_hit")]
    pub param_hit: u32,
    /// Extra cycles of a load's first touch of a line when it needs a sector the host's copy of the buffers left
    /// partly written (a buffer's last sector, when its bytes end inside it; with `buffers_in_l2`): L2 fills
    /// the rest of the sector from DRAM first. Measured on an H200 as the cross-check prepares a kernel (L2
    /// flushed, the buffer zeroed, then copied): a load of a 6-word buffer took 161 cycles more than of an 8-word
    /// one, on average over the L2's slices (`calibration/measured/ubench27.cu`).
    #[serde(default = "Memory::default_partial_sector_load")]
    pub partial_sector_load: u32,
    /// Likewise for an atomic, the first access to such a sector: 272 cycles more on a 1-word buffer than on an
    /// 8-word one (`ubench27.cu`).
    #[serde(default = "Memory::default_partial_sector_atomic")]
    pub partial_sector_atomic: u32,
    /// Hundredths of a cycle a 32-bit global atomic's result takes for each cache line its lanes reach beyond the
    /// first (`atomic_line_wide` for a 64-bit one): the lanes' lines are performed at their L2 slices and the
    /// result waits for the last. Fitted on an H200 to one warp's chains of dependent `atomicAdd`s on fresh lines
    /// with the lanes 1, 4 and 32 words apart: 434.5, 470.8 and 521.5 cycles a step for 32-bit ones (1, 4 and 32
    /// lines), 452.3, 504.0 and 627.6 for 64-bit ones (2, 8 and 32 lines), where loads spread the same way cost
    /// what `l1_lines_per_cycle` gives (`calibration/programs/global_atomic_spread.s`, `global_atomic64_spread.s`).
    #[serde(default = "Memory::default_atomic_line")]
    pub atomic_line: u32,
    /// See [`Memory::atomic_line`]: a 64-bit atomic's figure.
    #[serde(default = "Memory::default_atomic_line_wide")]
    pub atomic_line_wide: u32,
    /// Cycles the SM's atomic pipe takes a global atomic (`atom` or `red`) in, whatever its lines: its work is done at
    /// L2, where each line takes one warp's atomic every `units.global_atomic.interval` cycles (and
    /// `global_atomic_serialize` more a lane on one word beyond the first), and an atomic waits for the lines it
    /// reaches to be done with this SM's earlier ones. Measured on an H200: a burst of 64 `red`s on fresh lines
    /// issues one every 6.0 cycles (7.2–7.4 a `red` with the clock reads), the lanes on one line or one word alike,
    /// where the unit's interval (35.1 on one line, `global_atomic.s`) had held every atomic
    /// (`calibration/programs/global_red_burst.s`).
    #[serde(default = "Memory::default_atomic_issue")]
    pub atomic_issue: u32,
    /// Extra cycles a global atomic's result takes for each lane on one word beyond the first (on top of
    /// `global_atomic_serialize`, which they also take at L2): a warp's dependent `atomicAdd`s with 2, 8 and 32
    /// lanes on one word of a fresh line take 9, 24 and 62 cycles a step more than one lane's on an H200
    /// (`calibration/programs/global_atomic_word.s`).
    #[serde(default = "Memory::default_atomic_word_lane")]
    pub atomic_word_lane: u32,
    /// Whether a kernel parameter is read where it is first used rather than where the PTX's `ld.param` stands, as
    /// ptxas places its `LDC`s (`kernel::sched::params_at_use`): the use waits for the read. On: the misses of
    /// lines first read after a branch follow the branch, as on the GPU (Numba's `p03_guard`).
    #[serde(default = "Memory::default_param_at_use")]
    pub param_at_use: bool,
    /// The constant cache's line in bytes (a power of two), for the parameters' misses: Hopper's 64 (a read at
    /// every 64th byte of the bank misses, `calibration/measured/ubench25.cu`).
    #[serde(default = "Memory::default_param_line_bytes")]
    pub param_line_bytes: u32,
    /// Where the kernel's parameters start in their constant bank (bytes): `c[0x0][0x210]` on sm_90, after the
    /// driver's own words (which share the first line with the first parameters).
    #[serde(default = "Memory::default_param_bank_offset")]
    pub param_bank_offset: u32,
    /// Cache lines the L1 resolves per cycle beyond a load's first: a load of n lines is ready (n - 1) / this
    /// cycles later (its bank conflicts come on top, `bank_conflict` per extra way, as in shared memory).
    pub l1_lines_per_cycle: u32,
    /// Hundredths of a cycle each sector an L1 miss brings from L2 takes through the SM's fill port: the lines of
    /// misses in flight together arrive one after another (0: no limit). Measured on an H200 (`ubench32.cu`): a
    /// group of four passes of dot_f64's loop (16 lines, 64 sectors) takes 396.2 cycles where one of f32 loads (4
    /// lines, 16 sectors) takes 329.2, 67 cycles for 48 sectors more: 1.40 a sector (about 23 bytes a cycle).
    #[serde(default = "Memory::default_fill_sector")]
    pub fill_sector: u32,
    /// How the SM drains global stores: see [`StoreDrain`].
    #[serde(default)]
    pub store_drain: StoreDrain,
}

/// How global stores leave the SM. A warp's next store issues `issue` cycles after a global store, whatever its
/// lines. The store queues its work in the SM's queue to L2, which does a cycle of work each cycle: `sector`
/// hundredths of a cycle per 32-byte sector it writes and `line` per cache line beyond its first. The queue holds
/// `queue` cycles of work and `entries` stores the size of the one arriving, `part_entries` more for each other
/// sub-partition with stores in it; a store that finds no room waits, and the SM's load/store pipe with it (which
/// otherwise takes a store in `units.global_store`'s interval, as it takes a local store's each line). A store of at
/// most `merge_lines` lines, all within the lines of the SM's previous store, merges into that store and queues
/// nothing. Fitted on an H200 to one to sixteen warps' bursts of 128 stores, with the lanes 1 to 32 words apart, on
/// new lines or on the previous store's (`calibration/programs/store_burst.s`; docs/timing.md, "Stores").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StoreDrain {
    /// Cycles after a global store before its warp's next store.
    pub issue: u32,
    /// Hundredths of a cycle of work per sector written.
    pub sector: u32,
    /// Hundredths of a cycle of work per cache line written beyond the first.
    pub line: u32,
    /// Cycles of work the queue holds besides its `entries`.
    pub queue: u32,
    /// Stores (of the arriving store's size) the queue holds, with one sub-partition storing.
    pub entries: u32,
    /// Stores more the queue holds for each other sub-partition with stores in it.
    pub part_entries: u32,
    /// The most lines a store merging into the previous one may cover (0: no store merges).
    pub merge_lines: u32,
}

impl Default for StoreDrain {
    fn default() -> Self {
        StoreDrain {
            issue: 6,
            sector: 100,
            line: 100,
            queue: 86,
            entries: 28,
            part_entries: 7,
            merge_lines: 8,
        }
    }
}

/// Every timing parameter of the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    pub units: Units,
    /// Extra cycles when an instruction consumes a result produced in a different pipe (ALU, FMA, shuffle,
    /// shared memory, …) rather than forwarded within one.
    pub pipe_switch: u32,
    /// Extra cycles per extra way of a shared-memory bank conflict (degree d costs (d-1) × this).
    pub bank_conflict: u32,
    /// Extra cycles per additional lane hitting the same shared word (atomics serialise).
    pub shared_atomic_serialize: u32,
    /// Extra cycles per additional lane hitting the same global word: of latency, and of the line's time at L2.
    pub global_atomic_serialize: u32,
    /// Extra cycles per additional lane on one word of a shared 64-bit compare-and-swap loop
    /// ([`Units::shared_atomic_cas`]): each round, one of the lanes on a word takes it and the others go round
    /// again (an H100: 32 lanes on one word take 3,624 cycles an `atom.shared.add.u64`, 16 lanes on each of two
    /// words 1,999, two lanes on each of 16 words 357, against 116 on distinct words).
    #[serde(default = "Timing::default_shared_cas_retry")]
    pub shared_cas_retry: u32,
    /// Under independent thread scheduling, cycles a warp-synchronous instruction (`bar.warp.sync`, `shfl.sync`,
    /// `vote.sync`, `match.sync`, `redux.sync`) holds the warp when it brings diverged paths together: the GPU
    /// takes a slow path (`BRA.DIV` to a `WARPSYNC`) where converged lanes pass at once.
    #[serde(default = "Timing::default_warp_sync_diverged")]
    pub warp_sync_diverged: u32,
    /// Cycles a warp-synchronous instruction holds the warp when it runs on one path of a diverged warp without
    /// meeting another (its mask names only its own lanes): the GPU's slow path still runs a `WARPSYNC`.
    #[serde(default = "Timing::default_warp_sync_partial")]
    pub warp_sync_partial: u32,
    /// Cycles a `printf` takes for each calling lane after the first ([`Units::printf`]).
    #[serde(default = "Timing::default_printf_per_lane")]
    pub printf_per_lane: u32,
    /// Model the compiler's load scheduling: a load's latency runs from the earliest cycle ptxas could have
    /// issued it in its basic block (its address and guard ready, after the block's start and after the last
    /// store, atomic, barrier, warp-synchronous instruction or clock read that orders it), not from where the
    /// program puts it. Off: loads are timed where they stand (the program's own order).
    #[serde(default = "Timing::default_hoist_loads")]
    pub hoist_loads: bool,
    /// Model the compiler's dead-code removal: an instruction with no effect but its results, which no kept
    /// instruction reads on any path (`rows::dead`, `kernel::sched::DEAD`), costs its issue slot only: it waits
    /// for no operand (but a global atomic's old value, which reaches its register at the commit), reaches no memory, and its result is ready the next cycle (its values are still computed,
    /// and traced; a dead access counts in no statistic). Off: every instruction is timed as written.
    #[serde(default = "Timing::default_dead_code")]
    pub dead_code: bool,
    /// Model nvcc's complete unrolling of counted loops (`unroll::counted`: a counter from a constant, stepped by a
    /// constant, compared with a constant) whose unrolled code is at most this many instructions (trip count ×
    /// body): in such a loop a shuffle's offset read from the counter is an immediate, as in the unrolled `SHFL`s.
    /// 0: no loop is unrolled.
    #[serde(default = "Timing::default_unroll")]
    pub unroll: u32,
    /// Model ptxas's unrolling of small loops whose trip count is known only at run time: an innermost loop of at
    /// most `runtime_unroll_body` instructions with no store, atomic, barrier or warp-synchronous instruction runs
    /// this many passes at a time while that many are left, then half as many, down to one, and ptxas issues the
    /// global loads of a group's passes together (`kernel::sched::runtime_unrolled`,
    /// [`crate::kernel::sched::UNROLLED`]): a load of a pass after the group's first is priced from the group's
    /// start, and the loop control of such a pass costs its issue slot only. 0 or 1: no loop is unrolled.
    #[serde(default = "Timing::default_runtime_unroll")]
    pub runtime_unroll: u32,
    /// See [`Timing::runtime_unroll`]: the largest loop body (instructions) it applies to.
    #[serde(default = "Timing::default_runtime_unroll_body")]
    pub runtime_unroll_body: u32,
    /// Cycles a path of a warp pays at the join of a conditional branch (ptxas's convergence barrier: `BSSY`
    /// before the branch, `BSYNC` at the join): once where the lanes agreed, once per path where they diverged.
    #[serde(default = "Timing::default_convergence_barrier")]
    pub convergence_barrier: u32,
    /// Model the `YIELD` ptxas puts in loops with atomics (`kernel::sched::yields`): its stall each pass, and the
    /// lanes that leave such a loop early running on alone before the others (`SimtStack::release`). Off: such a
    /// loop is timed as any other, and lanes leaving it wait at its end.
    #[serde(default = "Timing::default_yield_loops")]
    pub yield_loops: bool,
    /// Cycles a pass through a `YIELD` holds the warp: ptxas puts one in a loop with an atomic when the kernel
    /// calls a subroutine or the loop leaves on an atomic's result (`kernel::sched::yields`). Added before the
    /// loop's first atomic issues.
    #[serde(default = "Timing::default_yield_stall")]
    pub yield_stall: u32,
    /// Cycles a warp pays when a branch takes some of its lanes out of such a loop: the `YIELD` releases them
    /// from the loop's convergence barrier and the warp switches to them and back (`SimtStack::release`).
    #[serde(default = "Timing::default_yield_release")]
    pub yield_release: u32,
    /// Cycles a pass through a `YIELD` costs beyond `yield_stall` while lanes it released wait elsewhere in the
    /// warp (at a warp-synchronous instruction or a barrier): the warp switches to them and back.
    #[serde(default = "Timing::default_yield_diverged")]
    pub yield_diverged: u32,
    /// Cycles the IEEE divisions and square roots take beyond their unit's latency when a lane's operands send
    /// the GPU's code down its slow path (`alu::slow_path`).
    #[serde(default)]
    pub slow_paths: SlowPaths,
    /// Debug builds (PTX of `.target sm_XX, debug`, what `nvcc -G` emits): what the code ptxas makes of them
    /// without optimising costs.
    #[serde(default)]
    pub debug_build: DebugBuild,
    pub memory: Memory,
}

/// Debug builds: ptxas compiles a PTX module of `.target sm_XX, debug` without optimising. Each PTX instruction
/// becomes a few SASS instructions (the operation, and moves of its operands and result to the registers a
/// debugger reads), and none carries a stall count or a scoreboard barrier, so each waits until the one before it
/// is done: chains of PTX instructions (`calibration/measured/debug_chain.py`) take 15 cycles per SASS instruction
/// on an H200 whatever the operation, one warp or four, and a load as long as its data takes.
///
/// An instruction of a debug build therefore holds its warp `(n − 1) × instruction` cycles, and then
/// `instruction` or, for one that writes a register, its latency if that is longer; n is its class's count of
/// SASS instructions (`isa::DebugClass`). The counts are the mean of what ptxas 13.5 makes of each class
/// (`sass` in tenths), over 61 random programs compiled with `nvcc -G` (the PTX corpus's `-G` kernels are left
/// for the cross-check to test): docs/timing.md, "Debug builds".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebugBuild {
    /// Cycles each SASS instruction of a debug build holds its warp.
    pub instruction: u32,
    /// SASS instructions per PTX instruction of each class, in tenths.
    pub sass: DebugSass,
}

/// SASS instructions ptxas makes of one PTX instruction of a debug build, in tenths, by [`warpsim_isa::DebugClass`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebugSass {
    pub alu: u32,
    pub alu64: u32,
    pub mul64: u32,
    pub mov: u32,
    pub mov64: u32,
    pub mov_special: u32,
    pub mov_symbol: u32,
    pub cvt: u32,
    pub cvt64: u32,
    pub cvta: u32,
    pub param_entry: u32,
    pub param_call: u32,
    pub load: u32,
    pub store: u32,
    pub atomic: u32,
    pub warp: u32,
    pub barrier: u32,
    pub branch: u32,
    pub call: u32,
    pub ret: u32,
    pub int_div: u32,
    /// With the subroutine it calls, unoptimised too.
    pub int_div64: u32,
    pub float_div: u32,
    pub double_div: u32,
}

impl DebugSass {
    /// The count of `class`, in tenths.
    pub fn of(&self, class: warpsim_isa::DebugClass) -> u32 {
        use warpsim_isa::DebugClass as C;
        match class {
            C::Alu => self.alu,
            C::Alu64 => self.alu64,
            C::Mul64 => self.mul64,
            C::Mov => self.mov,
            C::Mov64 => self.mov64,
            C::MovSpecial => self.mov_special,
            C::MovSymbol => self.mov_symbol,
            C::Cvt => self.cvt,
            C::Cvt64 => self.cvt64,
            C::Cvta => self.cvta,
            C::ParamEntry => self.param_entry,
            C::ParamCall => self.param_call,
            C::Load => self.load,
            C::Store => self.store,
            C::Atomic => self.atomic,
            C::Warp => self.warp,
            C::Barrier => self.barrier,
            C::Branch => self.branch,
            C::Call => self.call,
            C::Ret => self.ret,
            C::IntDiv => self.int_div,
            C::IntDiv64 => self.int_div64,
            C::FloatDiv => self.float_div,
            C::DoubleDiv => self.double_div,
        }
    }
}

impl Default for DebugBuild {
    /// Hopper's: 15 cycles an instruction (H200, `calibration/measured/debug-build-h200-2026-11-28.txt`; the rows
    /// "debug build …" of `calibration/h200.json`); the counts of ptxas 13.5 for sm_90
    /// (`calibration/analysis/debug_sass.py`; `mul64`, `atomic`, `ret` and `int_div64` as docs/timing.md says:
    /// `int_div64` includes the unoptimised division subroutine, from the rows "debug build … div.u64 / rem.s64").
    fn default() -> DebugBuild {
        DebugBuild {
            instruction: 15,
            sass: DebugSass {
                alu: 14,
                alu64: 20,
                mul64: 203,
                mov: 20,
                mov64: 38,
                mov_special: 22,
                mov_symbol: 64,
                cvt: 49,
                cvt64: 52,
                cvta: 88,
                param_entry: 57,
                param_call: 20,
                load: 70,
                store: 70,
                atomic: 70,
                warp: 106,
                barrier: 24,
                branch: 13,
                call: 31,
                ret: 30,
                int_div: 387,
                int_div64: 1940,
                float_div: 366,
                double_div: 742,
            },
        }
    }
}

/// The extra cycles of the slow paths of the IEEE divisions and square roots: the compiled code tests each lane's
/// operands (`FCHK` for `div.rn.f32`; integer and `FSETP` tests of the high words for the others) and calls a
/// subroutine for those outside its fast path's range (zero, subnormal, infinite or NaN operands, and exponents
/// near the ends of the range). The warp runs the subroutine: it is held this long beyond the unit's latency,
/// once, whichever lanes and however many call it. Measured on an H100 and an H200 alike
/// (`calibration/measured/ubench20.cu`): one operation alone, operands whose only fault is their range; other
/// classes take less (NaN operands about half as long) or more (a subnormal f32 dividend about twice as long):
/// docs/timing.md, "Slow paths of the IEEE divisions and square roots".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlowPaths {
    /// `div.rn.f32` (and `div.f32`, `div.full`'s IEEE forms).
    pub f32_div: u32,
    /// `sqrt.rn.f32`.
    pub f32_sqrt: u32,
    /// `div.rn.f64`.
    pub f64_div: u32,
    /// `sqrt.rn.f64`.
    pub f64_sqrt: u32,
    /// The subroutines ptxas calls for a division, reciprocal or square root with a directed rounding (`div.rz.f32`,
    /// `rcp.rm.f64`, `sqrt.rp.f64`, …) in every call, whatever the operands: cycles beyond the `.rn` division's or
    /// square root's fast path, from dependent chains (`calibration/measured/ubench34.cu`, `.rz`). An f32
    /// reciprocal calls none (as fast as `rcp.rn.f32`, `units.fp32_rcp`); an f32 square root takes `f32_sqrt`'s
    /// slow path for the operands `sqrt.rn.f32` does, `f32_sqrt_directed` for the others.
    pub f32_div_directed: u32,
    pub f32_sqrt_directed: u32,
    pub f64_div_directed: u32,
    /// (Beyond `div.rn.f64`'s fast path, as warpsim prices `rcp.rn.f64`.)
    pub f64_rcp_directed: u32,
    pub f64_sqrt_directed: u32,
}

impl Default for SlowPaths {
    /// Hopper's (`calibration/h200.json`, the rows "… slow path …").
    fn default() -> SlowPaths {
        SlowPaths {
            f32_div: 210,
            f32_sqrt: 171,
            f64_div: 253,
            f64_sqrt: 142,
            f32_div_directed: 183,
            f32_sqrt_directed: 33,
            f64_div_directed: 143,
            f64_rcp_directed: 173,
            f64_sqrt_directed: 187,
        }
    }
}

/// Warp-scheduling policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerPolicy {
    /// Loose round robin: each cycle, start the search after the warp issued last and take the first ready one.
    LooseRoundRobin,
    /// Greedy then oldest: keep issuing the warp issued last while it is ready, otherwise take the oldest ready
    /// warp (the one placed on the SM first).
    GreedyThenOldest,
}

impl SchedulerPolicy {
    pub fn name(self) -> &'static str {
        match self {
            SchedulerPolicy::LooseRoundRobin => "loose_round_robin",
            SchedulerPolicy::GreedyThenOldest => "greedy_then_oldest",
        }
    }
}

/// Everything that defines the simulated machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Machine name, e.g. `hopper`.
    pub name: String,
    /// Streaming multiprocessors; blocks are dealt to them as their resources free up. (A configuration file
    /// without it, written before whole-GPU machines, describes one SM.)
    #[serde(default = "one_sm")]
    pub sms: u32,
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

fn one_sm() -> u32 {
    1
}

impl Config {
    /// A Hopper SM (H100/H200), the default. Figures from warp-level microbenchmarks on an H200
    /// (`calibration/measured/`, `docs/timing.md`).
    pub fn hopper() -> Config {
        Config {
            name: "hopper".into(),
            // As an H100 SXM (an H200 has the same 132).
            sms: 132,
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
                units: Units {
                    alu: Unit::new(4, 2),
                    fma: Unit::new(4, 1),
                    convert: Unit::new(12, 4),
                    int_div: Unit::new(46, 8),
                    int_div_reg: Units::default_int_div_reg(),
                    int_div_reg_signed: Units::default_int_div_reg_signed(),
                    int_div64: Units::default_int_div64(),
                    int_div64_signed: Units::default_int_div64_signed(),
                    fp32_div: Unit::new(83, 8),
                    fp64: Units::default_fp64(),
                    fp64_div: Units::default_fp64_div(),
                    fp32_rcp: Units::default_fp32_rcp(),
                    fp64_rcp: Units::default_fp64_rcp(),
                    sqrt: Units::default_sqrt(),
                    fp32_sqrt: Units::default_fp32_sqrt(),
                    mufu: Units::default_mufu(),
                    mufu_sequences: MufuSequences::default(),
                    shuffle: Unit::new(24, 4),
                    shuffle_reg: Unit::new(26, 4),
                    shared_load: Unit::new(29, 1),
                    shared_store: Unit::new(4, 1),
                    shared_atomic: Unit::new(30, 4),
                    global_load: Unit::new(39, 1),
                    local_load: Units::default_local_load(),
                    global_store: Unit::new(4, 2),
                    global_atomic: Unit::new(410, 36),
                    global_atomic_cas: Units::default_global_atomic_cas(),
                    shared_atomic_cas: Units::default_shared_atomic_cas(),
                    printf: Units::default_printf(),
                    barrier: Unit::new(12, 2),
                    branch: Unit::new(12, 1),
                    clock: Unit::new(2, 2),
                },
                pipe_switch: 1,
                bank_conflict: 2,
                shared_atomic_serialize: 2,
                shared_cas_retry: Timing::default_shared_cas_retry(),
                global_atomic_serialize: 1,
                warp_sync_diverged: Timing::default_warp_sync_diverged(),
                warp_sync_partial: Timing::default_warp_sync_partial(),
                printf_per_lane: Timing::default_printf_per_lane(),
                hoist_loads: Timing::default_hoist_loads(),
                dead_code: Timing::default_dead_code(),
                unroll: Timing::default_unroll(),
                runtime_unroll: Timing::default_runtime_unroll(),
                runtime_unroll_body: Timing::default_runtime_unroll_body(),
                convergence_barrier: Timing::default_convergence_barrier(),
                yield_loops: Timing::default_yield_loops(),
                yield_stall: Timing::default_yield_stall(),
                yield_release: Timing::default_yield_release(),
                yield_diverged: Timing::default_yield_diverged(),
                slow_paths: SlowPaths::default(),
                debug_build: DebugBuild::default(),
                memory: Memory {
                    line_bytes: 128,
                    sector_bytes: 32,
                    l1_shared_bytes: 256 * 1024,
                    shared_carveouts_kib: vec![0, 8, 16, 32, 64, 100, 132, 164, 196, 228],
                    l1_ways: 4,
                    l1_miss_latency: 287,
                    l2_first_latency: Memory::default_l2_first_latency(),
                    dram_latency: 463,
                    buffers_in_l2: true,
                    param_miss: Memory::default_param_miss(),
                    param_hit: Memory::default_param_hit(),
                    param_at_use: Memory::default_param_at_use(),
                    partial_sector_load: Memory::default_partial_sector_load(),
                    partial_sector_atomic: Memory::default_partial_sector_atomic(),
                    atomic_line: Memory::default_atomic_line(),
                    atomic_line_wide: Memory::default_atomic_line_wide(),
                    atomic_issue: Memory::default_atomic_issue(),
                    atomic_word_lane: Memory::default_atomic_word_lane(),
                    param_line_bytes: Memory::default_param_line_bytes(),
                    param_bank_offset: Memory::default_param_bank_offset(),
                    l1_lines_per_cycle: 5,
                    fill_sector: Memory::default_fill_sector(),
                    store_drain: StoreDrain::default(),
                },
            },
        }
    }

    /// Checks what the simulator relies on; a loaded configuration must pass before use.
    pub fn validate(&self) -> Result<(), String> {
        const LIMIT: u32 = 1_000_000;
        let bad = |what: &str| Err(format!("invalid configuration: {what}"));
        if !(2..=64).contains(&self.warp_size) || !self.warp_size.is_power_of_two() {
            return bad("`warp_size` must be a power of two from 2 to 64");
        }
        if !(1..=1024).contains(&self.sms) {
            return bad("`sms` must be 1 to 1024");
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
        for (name, u) in self.timing.units.all() {
            if u.latency > LIMIT || u.interval > LIMIT {
                return Err(format!(
                    "invalid configuration: `timing.units.{name}`: latency and interval must be at most {LIMIT}"
                ));
            }
            if u.interval == 0 {
                return Err(format!(
                    "invalid configuration: `timing.units.{name}.interval` must be at least 1"
                ));
            }
        }
        let q = &self.timing.units.mufu_sequences;
        if [q.rcp, q.rsqrt_sqrt_lg2, q.ex2, q.sin_cos, q.div_ftz, q.div, q.div_full]
            .iter()
            .any(|v| *v > LIMIT)
        {
            return Err(format!(
                "invalid configuration: `timing.units.mufu_sequences`: each must be at most {LIMIT}"
            ));
        }
        let t = &self.timing;
        if [
            t.pipe_switch,
            t.bank_conflict,
            t.shared_atomic_serialize,
            t.global_atomic_serialize,
            t.warp_sync_diverged,
            t.warp_sync_partial,
            t.printf_per_lane,
            t.shared_cas_retry,
            t.slow_paths.f32_div,
            t.slow_paths.f32_sqrt,
            t.slow_paths.f64_div,
            t.slow_paths.f64_sqrt,
            t.slow_paths.f32_div_directed,
            t.slow_paths.f32_sqrt_directed,
            t.slow_paths.f64_div_directed,
            t.slow_paths.f64_rcp_directed,
            t.slow_paths.f64_sqrt_directed,
            t.convergence_barrier,
            t.yield_stall,
            t.yield_release,
            t.yield_diverged,
            t.debug_build.instruction,
            t.memory.l1_miss_latency,
            t.memory.l2_first_latency,
            t.memory.dram_latency,
            t.memory.param_miss,
            t.memory.param_hit,
            t.memory.partial_sector_load,
            t.memory.partial_sector_atomic,
            t.memory.atomic_issue,
            t.memory.atomic_word_lane,
        ]
        .iter()
        .any(|&v| v > LIMIT)
        {
            return bad("timing figures must be at most 1000000 cycles");
        }
        let m = &t.memory;
        if !m.param_line_bytes.is_power_of_two() || !(4..=4096).contains(&m.param_line_bytes) {
            return bad("`timing.memory.param_line_bytes` must be a power of two from 4 to 4096");
        }
        if m.param_bank_offset > 0x10000 {
            return bad("`timing.memory.param_bank_offset` must be at most 65536 (a constant bank's size)");
        }
        if !m.line_bytes.is_power_of_two() || !(4..=4096).contains(&m.line_bytes) {
            return bad("`timing.memory.line_bytes` must be a power of two from 4 to 4096");
        }
        if m.fill_sector > 100_000 {
            return bad("`timing.memory.fill_sector` must be at most 100000 (hundredths of a cycle)");
        }
        if t.runtime_unroll > 64 || t.runtime_unroll_body > 100_000 {
            return bad(
                "`timing.runtime_unroll` must be at most 64 passes, `runtime_unroll_body` at most 100000 instructions",
            );
        }
        if m.atomic_line.max(m.atomic_line_wide) > 100_000 {
            return bad(
                "`timing.memory.atomic_line` and `atomic_line_wide` must be at most 100000 (hundredths of a cycle)",
            );
        }
        let d = &m.store_drain;
        if d.sector.max(d.line) > 100_000 || d.queue.max(d.issue) > LIMIT || d.entries.max(d.part_entries) > 4096 {
            return bad(
                "`timing.memory.store_drain`'s `sector` and `line` must be at most 100000 (hundredths of a cycle), `issue` and `queue` at most 1000000 cycles, `entries` and `part_entries` at most 4096",
            );
        }
        if !(1..=64).contains(&m.l1_lines_per_cycle) {
            return bad("`timing.memory.l1_lines_per_cycle` must be 1 to 64");
        }
        if !(1..=64).contains(&m.l1_ways) {
            return bad("`timing.memory.l1_ways` must be 1 to 64");
        }
        if u64::from(m.l1_shared_bytes) / u64::from(m.line_bytes) > 1 << 20 {
            return bad("`timing.memory.l1_shared_bytes` must be at most 2^20 lines (`line_bytes` each)");
        }
        if m.shared_carveouts_kib.is_empty() || m.shared_carveouts_kib.len() > 64 {
            return bad("`timing.memory.shared_carveouts_kib` must list 1 to 64 carveouts");
        }
        // Every SM may be made (a launch with a block for each): the whole machine, not only one SM, must fit in
        // memory.
        let sms = u64::from(self.sms);
        if sms * u64::from(self.max_warps_per_sm) > 1 << 17 {
            return bad("`sms` x `max_warps_per_sm` (warp slots of the whole machine) must be at most 131072");
        }
        if sms * (u64::from(m.l1_shared_bytes) / u64::from(m.line_bytes)) > 1 << 22 {
            return bad("`sms` x L1 lines (`timing.memory.l1_shared_bytes` / `line_bytes`) must be at most 4194304");
        }
        if sms * u64::from(self.shared_per_sm) > 1 << 30 {
            return bad("`sms` x `shared_per_sm` (shared memory of the whole machine) must be at most 1 GiB");
        }
        if !m.sector_bytes.is_power_of_two() || m.sector_bytes > m.line_bytes || m.line_bytes / m.sector_bytes > 64 {
            return bad("`timing.memory.sector_bytes` must be a power of two from `line_bytes` / 64 to `line_bytes`");
        }
        Ok(())
    }

    /// Cycles per epoch of the parallel engine (`gpu.rs`): the shortest latency with which a global
    /// write of one SM can reach another (through L2): a global load's L1 miss, or a global atomic.
    pub fn epoch_cycles(&self) -> u64 {
        u64::from(
            self.timing
                .memory
                .l1_miss_latency
                .min(self.timing.units.global_atomic.latency),
        )
        .max(1)
    }

    #[must_use]
    pub fn with_warp_size(mut self, w: u32) -> Config {
        self.warp_size = w;
        self
    }
}

impl Units {
    /// The FP64 pipe's default, measured on an H100 (`calibration/measured/ubench-f64-h100-2026-11-26.txt`): a
    /// dependent DFMA or DADD chain 8.3 cycles an operation, 8 independent chains in one warp 2.3 (half rate:
    /// 16 FP64 lanes per sub-partition).
    pub fn default_fp64() -> Unit {
        Unit::new(8, 2)
    }

    /// `rcp.rn.f32`: a dependent reciprocal + add chain takes 83.4 cycles on an H200 (`ubench34.cu`), the add 4 of
    /// them. The interval is `fp32_div`'s (an estimate).
    pub fn default_fp32_rcp() -> Unit {
        Unit::new(75, 8)
    }

    /// `rcp.rn.f64`: a dependent reciprocal + add chain takes 80.4 cycles on an H200 (`ubench34.cu`), the add 8 of
    /// them. The interval is `fp64_div`'s (an estimate).
    pub fn default_fp64_rcp() -> Unit {
        Unit::new(70, 16)
    }

    /// `div.rn.f64`: a dependent divide + add chain takes 132.3 cycles on an H100, the add 8 of them. The
    /// interval (the sequence's FP64 steps) is an estimate.
    pub fn default_fp64_div() -> Unit {
        Unit::new(124, 16)
    }

    /// `sqrt.rn.f32`: a dependent square root + add chain takes 62.6 cycles on an H200 (`ubench34.cu`), the add 4
    /// of them. The interval is `sqrt`'s (an estimate).
    pub fn default_fp32_sqrt() -> Unit {
        Unit::new(55, 16)
    }

    /// The `MUFU` approximations: a dependent chain of one (`rcp`, `rsqrt`, `sqrt`, `ex2` or `lg2` `.approx.ftz.f32`)
    /// and an add takes 24.27 cycles on an H200, of `rcp`/`rsqrt` `.approx.ftz.f64` and an f64 add 27.31; eight such
    /// chains in one warp 10.13 cycles a `MUFU` (`calibration/measured/ubench35.cu`).
    pub fn default_mufu() -> Unit {
        Unit::new(16, 8)
    }

    /// `sqrt.rn.f64`: a dependent square root + add chain takes 100.2 cycles on an H100 (and an H200,
    /// `ubench34.cu`). The interval is an estimate.
    pub fn default_sqrt() -> Unit {
        Unit::new(92, 16)
    }

    /// `div`/`rem` `.u32` by a register that changes every iteration: a dependent chain (the division and an add)
    /// takes 147.0 (div) and 153.0 (rem) cycles an iteration on an H200, the same chain with an `xor` in place of
    /// the division 31.0; eight independent chains 457.0 an iteration (`calibration/measured/ubench29.cu`).
    pub fn default_int_div_reg() -> Unit {
        Unit::new(123, 45)
    }

    /// `div`/`rem` `.s32` by such a register: 160.0 (div) and 165.0 (rem) cycles an iteration (`ubench29.cu`).
    pub fn default_int_div_reg_signed() -> Unit {
        Unit::new(136, 45)
    }

    /// `div`/`rem` `.u64`: a dependent chain takes 329.4 (div) and 320.4 (rem) cycles an operation on an H200,
    /// whatever the operands (`calibration/measured/ubench7.cu`).
    pub fn default_int_div64() -> Unit {
        Unit::new(298, 8)
    }

    /// `div`/`rem` `.s64`: 378.4 (div) and 372.4 (rem) cycles an operation on an H200 (`ubench7.cu`).
    pub fn default_int_div64_signed() -> Unit {
        Unit::new(347, 8)
    }

    /// See [`Units::local_load`].
    pub fn default_local_load() -> Unit {
        Unit::new(29, 1)
    }

    /// The f32 atomic min/max compare-and-swap loop: 632.8 cycles a call with one lane, 654.9 with 32 lanes on
    /// distinct words, on an H200 (`ubench7.cu`).
    pub fn default_global_atomic_cas() -> Unit {
        Unit::new(600, 36)
    }

    /// The shared 64-bit compare-and-swap loop: a dependent chain of `atom.shared.add.u64` by 32 lanes on distinct
    /// words takes 115.8 cycles an operation on an H100 and an H200, `and.b64` 121.7, `max.u64` 134.8 (`sim
    /// crosscheck` of `calibration/programs/shared_atomic64.s` and the probes of `calibration/measured/probes.sh`;
    /// raw: `calibration/measured/probes-2026-11-28.txt`).
    pub fn default_shared_atomic_cas() -> Unit {
        Unit::new(90, 4)
    }

    /// `printf`: 39,463 to 39,814 cycles a call by one lane with one argument, 40,543 to 40,608 with four; 43,781 to
    /// 43,810 by 32 lanes with one, 45,620 to 45,804 with four, on an H200 (`calibration/measured/ubench17.cu`).
    pub fn default_printf() -> Unit {
        Unit::new(39_300, 1)
    }

    /// Every class with its JSON name.
    pub fn all(&self) -> [(&'static str, Unit); 31] {
        [
            ("alu", self.alu),
            ("fma", self.fma),
            ("convert", self.convert),
            ("int_div", self.int_div),
            ("int_div64", self.int_div64),
            ("int_div_reg", self.int_div_reg),
            ("int_div_reg_signed", self.int_div_reg_signed),
            ("int_div64_signed", self.int_div64_signed),
            ("fp32_div", self.fp32_div),
            ("fp64", self.fp64),
            ("fp64_div", self.fp64_div),
            ("fp32_rcp", self.fp32_rcp),
            ("fp64_rcp", self.fp64_rcp),
            ("sqrt", self.sqrt),
            ("fp32_sqrt", self.fp32_sqrt),
            ("mufu", self.mufu),
            ("shuffle", self.shuffle),
            ("shuffle_reg", self.shuffle_reg),
            ("shared_load", self.shared_load),
            ("shared_store", self.shared_store),
            ("shared_atomic", self.shared_atomic),
            ("global_load", self.global_load),
            ("local_load", self.local_load),
            ("global_store", self.global_store),
            ("global_atomic", self.global_atomic),
            ("global_atomic_cas", self.global_atomic_cas),
            ("shared_atomic_cas", self.shared_atomic_cas),
            ("printf", self.printf),
            ("barrier", self.barrier),
            ("branch", self.branch),
            ("clock", self.clock),
        ]
    }
}

impl Timing {
    /// See [`Timing::warp_sync_diverged`]: two diverged halves of a warp, each looping over a multiply-add and a
    /// `__syncwarp()`, take 419.8 cycles an iteration on an H200, 793.8 with two `__syncwarp()`s, against 28.6
    /// with every lane on one path (`calibration/measured/ubench13.cu`).
    pub fn default_warp_sync_diverged() -> u32 {
        360
    }

    /// See [`Timing::convergence_barrier`]: an if/else of 16 dependent multiply-adds a path in a loop takes 107.3
    /// and 111.3 cycles an iteration on an H100 when the lanes agree, 194.3 when they alternate
    /// (`calibration/measured/ubench5.cu` part A'), 16 and 30 more than the model without it.
    pub fn default_convergence_barrier() -> u32 {
        16
    }

    /// See [`Timing::dead_code`]: on, as nvcc and ptxas remove dead code (docs/timing.md, "Dead code": the random
    /// programs' error falls from 18.6% to 17.7%). The statistics leave out the dead instructions' memory accesses,
    /// as the GPU never makes them.
    pub fn default_dead_code() -> bool {
        true
    }

    /// See [`Timing::runtime_unroll`]: four passes at a time (`calibration/measured/ubench32.cu`).
    pub fn default_runtime_unroll() -> u32 {
        4
    }

    /// See [`Timing::runtime_unroll_body`]: ptxas unrolled a loop of 47 PTX instructions and not one of 51.
    pub fn default_runtime_unroll_body() -> u32 {
        48
    }

    /// See [`Timing::unroll`]: 300, LLVM's threshold for unrolling a loop completely at `-O3` (an estimated cost
    /// it compares with, close to an instruction count for the loops it applies to here).
    pub fn default_unroll() -> u32 {
        300
    }

    /// See [`Timing::yield_loops`]: on.
    pub fn default_yield_loops() -> bool {
        true
    }

    /// See [`Timing::yield_stall`]: a loop of `atom.shared.add.u32` whose result it compares takes 105.5 cycles
    /// a pass on an H100 with every lane looping (`calibration/programs/yield_loop.s`), where the model without
    /// the `YIELD` gives 62.5; in `calibration/measured/ubench22.cu` the same atomic loops take 47–50 cycles a pass
    /// more with a (never executed) 64-bit division in the kernel than without.
    pub fn default_yield_stall() -> u32 {
        43
    }

    /// See [`Timing::yield_release`] and [`Timing::yield_diverged`]: `yield_loop.s` on an H100 with lanes looping
    /// once or three times (one release, two passes with lanes waiting) takes 157 cycles more than the model
    /// without either, with lanes looping 0–3 times (three releases, three passes) 283 more, with lane k looping
    /// k + 1 times (31 releases, 30 passes) 2,932 more: 31 a release and 63 a pass.
    pub fn default_yield_release() -> u32 {
        31
    }

    /// See [`Timing::default_yield_release`].
    pub fn default_yield_diverged() -> u32 {
        63
    }

    /// See [`Timing::warp_sync_partial`]: a dependent `__shfl_sync` + add chain takes 85.6 cycles a shuffle on
    /// the even lanes inside an `if` (mask 0x55555555), 46.4 with the whole warp, 46.5 after the odd lanes
    /// exited (`calibration/measured/ubench15.cu`).
    pub fn default_warp_sync_partial() -> u32 {
        36
    }

    /// See [`Timing::shared_cas_retry`]: (3,624 - 116) / 31 cycles, from 32 lanes on one word.
    pub fn default_shared_cas_retry() -> u32 {
        113
    }

    /// See [`Timing::printf_per_lane`]: 32 lanes' calls take 4,300 (one argument) to 5,200 (four) cycles more
    /// than one lane's (`calibration/measured/ubench17.cu`).
    pub fn default_printf_per_lane() -> u32 {
        150
    }

    /// See [`Timing::hoist_loads`]: on.
    pub fn default_hoist_loads() -> bool {
        false
    }
}

impl Memory {
    /// See [`Memory::fill_sector`].
    pub fn default_fill_sector() -> u32 {
        140
    }

    /// See [`Memory::l2_first_latency`]: 382 cycles a step of the first pass, less the chase loop's own cycles
    /// (the second pass's 296 against `l1_miss_latency`'s 287).
    pub fn default_l2_first_latency() -> u32 {
        382
    }

    /// See [`Memory::param_miss`].
    pub fn default_param_miss() -> u32 {
        70
    }

    /// See [`Memory::partial_sector_load`].
    pub fn default_partial_sector_load() -> u32 {
        161
    }

    /// See [`Memory::partial_sector_atomic`].
    pub fn default_partial_sector_atomic() -> u32 {
        272
    }

    /// See [`Memory::atomic_line`]: 2.5 cycles a line beyond the first.
    pub fn default_atomic_line() -> u32 {
        250
    }

    /// See [`Memory::atomic_line_wide`]: 5.5 cycles a line beyond the first.
    pub fn default_atomic_line_wide() -> u32 {
        550
    }

    /// See [`Memory::atomic_issue`].
    pub fn default_atomic_issue() -> u32 {
        6
    }

    /// See [`Memory::atomic_word_lane`].
    pub fn default_atomic_word_lane() -> u32 {
        1
    }

    /// See [`Memory::param_at_use`]: on.
    pub fn default_param_at_use() -> bool {
        true
    }

    /// See [`Memory::param_hit`].
    pub fn default_param_hit() -> u32 {
        30
    }

    /// See [`Memory::param_line_bytes`]: 64.
    pub fn default_param_line_bytes() -> u32 {
        64
    }

    /// See [`Memory::param_bank_offset`]: 0x210.
    pub fn default_param_bank_offset() -> u32 {
        0x210
    }

    /// See [`Memory::sector_bytes`]: Hopper's 32 bytes.
    pub fn default_sector_bytes() -> u32 {
        32
    }

    /// The latency of a load of a line no SM has touched yet in the launch, where it differs from
    /// `l1_miss_latency` (`None`: it does not, and lines need no tracking).
    pub fn first_miss(&self) -> Option<u64> {
        let first = if self.buffers_in_l2 {
            self.l2_first_latency
        } else {
            self.dram_latency
        };
        (first != self.l1_miss_latency).then_some(u64::from(first))
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::hopper()
    }
}
