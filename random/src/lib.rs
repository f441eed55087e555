//! warpsim's one generator of random warp programs: the real-GPU cross-check (`sim crosscheck --random`), the
//! differential tests against the reference interpreter (`tests/differential/`) and the `generated` fuzz target
//! all draw their programs from here.
//!
//! A program is a structured value, a [`Case`] (a warp size, a launch shape, a pool of input values and a body
//! of [`Stmt`]s), so that proptest can shrink a failing one; [`Case::source`] prints it as warpsim assembly.
//! The prologue loads six data registers per thread (`%r0` … `%r5`) from the input buffer and sets three
//! predicates (`%p0` … `%p2`); the epilogue stores every data register, the predicates' bits and the thread's
//! shared-memory slots to output buffers, so memory shows the whole final state. Launches are 1-D, 2-D or 3-D
//! (grid and block, [`shape`]); the prologue computes the thread's linear number in its block (`%lt`), its
//! block's in the grid (`%lb`) and its number in the launch (`%gid`) from `%tid`, `%ntid`, `%ctaid` and
//! `%nctaid`, x fastest, as warps are cut; the shapes' special registers are also operands of any instruction.
//! Most cases ([`Case::wide`]) also have four 64-bit registers (`%w0` … `%w3`, loaded from a pool of 64-bit
//! edge values and stored at the end, with 64-bit scratch, table, shared slots and counters) and 64-bit
//! statements ([`Stmt::Wide`]: every 64-bit and mixed-width instruction of the ISA, conversions with every
//! rounding, loads, stores and atomics) and 64-bit shuffles (two 32-bit shuffles between a `mov.b64` unpack and
//! pack). On a GPU, an f64 operation keeps at most one operand that may be NaN (the others go through
//! `setp.eq.f64`/`selp.f64` first): which of two NaNs comes out follows the operand order ptxas chooses.
//!
//! Three ways in, one strategy ([`case`]):
//!
//! * [`case`]`(target)`: the proptest strategy (the differential tests shrink with it);
//! * [`generate`]`(seed, index)`: program `index` of the batch `seed` for the cross-check, a function of the
//!   pair alone (proptest's ChaCha generator seeded from the pair; the text is stable while the generator and
//!   proptest's version, pinned in `Cargo.lock`, are);
//! * [`from_bytes`]: a program chosen by a fuzzer's bytes (hashed into the generator's seed).
//!
//! What the generated programs contain, and how often, is in `docs/random.md` (measured by
//! `cargo run -p warpsim-random --example frequencies`).
//!
//! Every program is well defined by `docs/ISA.md`. The [`Target`] says how much more is asked of it:
//!
//! * [`Target::Reference`] (the differential tests and the fuzzer): every warp size, partial warps, and what
//!   warpsim defines but hardware leaves open: the lanes of a warp meet at their warp's words (`wsl`: the
//!   highest lane of a store wins; `cnt`, `icnt`, `fcnt`, `scnt`: atomics in lane order, their old values
//!   returned; the paths of a divergent branch one after the other, fall-through first: the stack model's
//!   order, ISA.md section 6), and faults on purpose, rarely (an integer division whose divisor is not forced
//!   non-zero, a load or store at an unchecked register index or byte offset, a `bar.warp.sync` that names
//!   the whole warp or is guarded); the test then asserts the same fault (kind, block, warp, lane, pc) in
//!   both.
//! * [`Target::Gpu`] (the cross-check): W = 32, and only what PTX defines, so that any difference from a GPU
//!   is a warpsim bug: no fault (divisors forced non-zero, indices masked into bounds), no two lanes storing
//!   to one word, atomics whose order shows (a returned old value, `exch`, `cas`, f32 `add`) on the
//!   thread's own words, contended ones (`red` of an integer `add`, `min`, `max` or `xor`, a counter of the
//!   warp's in global memory for each, so that the final value is the same in any order), `activemask` only through
//!   `and` with `%lanemask_eq` (PTX guarantees only that the executing lane is in it), `bar.warp.sync` never
//!   guarded and never naming a lane that does not execute it, and no member-mask bits past lane 31.
//!
//! In both:
//!
//! * warp-wide operations (`shfl.sync`, `vote`, `match`, `bar.warp.sync`) only where the printer knows the
//!   executing lanes (converged code, branches, exits and returns on `%laneid`, the same in every warp), with
//!   the member mask equal to those lanes (a constant, or now and then the register `%t1` set to it just
//!   before by the same lanes, where 32 bits can name them); elsewhere they print nothing;
//! * a shuffle's segments are wholly executing or wholly not (the width is narrowed to fit), and a `bfly`
//!   offset outside converged code stays below the width, so every source lane executes;
//! * warps do not communicate: each thread loads and stores its own slots (global and shared), and the tables
//!   are read-only;
//! * loops have a trip count of 0 to 3 per lane; exits are guarded (`@%q exit`).

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::fmt::Write as _;

/// What the generated programs are run on, and so what they may rely on (see the crate's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// warpsim and the reference interpreter: every warp size, warpsim's defined orders, faults on purpose.
    Reference,
    /// A real GPU through the cross-check: W = 32, only what PTX defines.
    Gpu,
}

pub const REGS: usize = 6;
pub const PREDS: usize = 3;
/// 64-bit data registers per thread (`%w0` … `%w3`, `.reg.b64`), in a case that has them ([`Case::wide`]).
pub const WREGS: usize = 4;
/// Scratch slots per thread in global memory (`scr`), in shared memory (`sh`), and counters per warp.
const SLOTS: u32 = 4;
const SHARED_SLOTS: u32 = 2;
const COUNTERS: u32 = 4;

/// Floats among the immediates (f32 operands evaluate their expression in floating point).
const FLOAT_IMMS: [&str; 14] = [
    "0.5",
    "-1.25",
    "3.0",
    "1e-3",
    "0.0",
    "-0.0",
    "100.0",
    "1e30",
    "1e-40",
    "-7.0",
    "1.0 / 3",
    "W * 0.25",
    "3.4028235e38",
    "bias * 0.5",
];
const FLOAT_SPECIALS: [u32; 14] = [
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fff_ffff,
    0xff80_0001,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0x3f80_0000,
    0x4f00_0000, // 2^31
    0xcf00_0001, // just below -2^31
];
/// 64-bit integer immediates (`.b64`, `.u64`, `.s64` operands).
const INT64_IMMS: [&str; 13] = [
    "0",
    "1",
    "-1",
    "7",
    "63",
    "64",
    "0xffffffff",
    "0x100000000",
    "(-9223372036854775807 - 1)",
    "9223372036854775807",
    "-1000000007",
    "0x123456789abcdef",
    "bias * 3",
];
/// f64 immediates (every one finite, so that an f64 operation has at most the NaNs of its registers).
const FLOAT64_IMMS: [&str; 11] = [
    "0.5",
    "-1.25",
    "1e300",
    "1e-310",
    "-0.0",
    "3.0",
    "1.0 / 3",
    "W * 0.25",
    "1.7976931348623157e308",
    "bias + 0.5",
    "-2.0",
];
/// 64-bit edge values among the inputs: f64 zeros, infinities, NaNs (quiet and signalling, both signs, with
/// payloads), subnormals, the largest finite, 1.0, ±2^63; the integer extremes.
const SPECIALS64: [u64; 20] = [
    0,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0xfff8_0000_0000_1234,
    0xfff4_0000_0000_0001,
    1,
    0x000f_ffff_ffff_ffff,
    0x7fef_ffff_ffff_ffff,
    0x3ff0_0000_0000_0000,
    0x43e0_0000_0000_0000,
    0xc3e0_0000_0000_0001,
    0x7fff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff,
    0x8000_0000,
    64,
    0x41e0_0000_0000_0000,
];
const INT_SPECIALS: [u32; 10] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 31, 32, 33, 0xffff_ffe1, 64];
const SPECIALS: [&str; 21] = [
    "%laneid",
    "%tid.x",
    "%tid.y",
    "%tid.z",
    "%ntid.x",
    "%ntid.y",
    "%ntid.z",
    "%ctaid.x",
    "%ctaid.y",
    "%ctaid.z",
    "%nctaid.x",
    "%nctaid.y",
    "%nctaid.z",
    "%warpid",
    "%nwarpid",
    "%warpsize",
    "%lanemask_eq",
    "%lanemask_lt",
    "%lanemask_le",
    "%lanemask_gt",
    "%lanemask_ge",
];

/// A source operand; how an immediate is written depends on the operand's type.
#[derive(Clone, Debug)]
pub enum Src {
    Reg(u8),
    Imm(u32),
    Special(u8),
}

#[derive(Clone, Copy, Debug)]
pub struct Guard {
    pub pred: u8,
    pub negated: bool,
}

pub type G = Option<Guard>;

/// The condition of a branch or an exit.
#[derive(Clone, Debug)]
pub enum Cond {
    /// Bit `k mod log2(W)` of `%laneid` is set.
    LaneBit(u8),
    /// `%laneid < c mod (W + 1)`.
    LaneLt(u8),
    /// A comparison of a data register.
    Data { cmp: u8, ty: u8, a: u8, b: Src },
    /// One of the data predicates.
    Pred(u8),
}

/// A 64-bit source operand: a 64-bit register, or an immediate (an index into the immediates of its type).
#[derive(Clone, Debug)]
pub enum WSrc {
    Reg(u8),
    Imm(u8),
}

/// A shuffle's lane or offset operand.
#[derive(Clone, Debug)]
pub enum LaneSrc {
    Imm(u8),
    Reg(u8),
    LaneId,
}

/// Which of a thread's (or warp's) slots: a constant one, or one chosen by data.
#[derive(Clone, Debug)]
pub enum Slot {
    Fixed(u8),
    Reg(u8),
}

#[derive(Clone, Debug)]
pub enum Mem {
    /// The read-only `tbl` (16 u32), at a data-dependent index; element or byte addressing.
    Table { index: u8, byte: bool },
    /// The read-only `ftab` (8 f32).
    FTable { index: u8 },
    /// The thread's own slots of `scr` (global).
    Own { slot: Slot, byte: bool },
    /// The thread's own slots of `sh` (shared).
    Shared { slot: Slot },
    /// The warp's atomic counters `cnt` (loads only; a store goes to `wsl` instead).
    Counter { slot: Slot },
    /// The warp's slots of `wsl`: lanes of one warp store to the same word (the highest lane wins), and the
    /// paths of a divergent branch one after the other.
    WarpSlot { slot: Slot },
    /// A register as the index or byte offset, unchecked: usually out of bounds or misaligned, a fault. Loads
    /// read `tbl`; stores write `sh` in a block of one warp (any lane's slot: no other warp can see it) and
    /// the own slots otherwise.
    Raw { index: u8, byte: bool },
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Mov {
        g: G,
        ty: u8,
        d: u8,
        a: Src,
    },
    Int {
        g: G,
        op: u8,
        ty: u8,
        d: u8,
        a: Src,
        b: Src,
    },
    IntUn {
        g: G,
        op: u8,
        d: u8,
        a: Src,
    },
    Mad {
        g: G,
        signed: bool,
        d: u8,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `raw`: the divisor is not forced non-zero (a lane may fault).
    Div {
        g: G,
        rem: bool,
        signed: bool,
        d: u8,
        a: Src,
        b: Src,
        raw: bool,
    },
    Float {
        g: G,
        op: u8,
        d: u8,
        a: Src,
        b: Src,
    },
    Fma {
        g: G,
        mad: bool,
        d: u8,
        a: Src,
        b: Src,
        c: Src,
    },
    FloatUn {
        g: G,
        abs: bool,
        d: u8,
        a: Src,
    },
    Cvt {
        g: G,
        kind: u8,
        rnd: u8,
        d: u8,
        a: u8,
    },
    Setp {
        g: G,
        cmp: u8,
        ty: u8,
        p: u8,
        a: Src,
        b: Src,
    },
    Selp {
        g: G,
        ty: u8,
        d: u8,
        a: Src,
        b: Src,
        p: u8,
    },
    PredLogic {
        op: u8,
        d: u8,
        a: u8,
        na: bool,
        b: u8,
        nb: bool,
    },
    /// A 64-bit or mixed-width instruction (printed in a case with 64-bit registers only): `op` picks the family,
    /// `sub` the instruction in it; `d`, `a`, `b`, `c` are 64-bit operands (or their registers' numbers), `s`, `t`
    /// 32-bit ones, `x` a 32-bit register (or predicate). `raw`: a division whose divisor is not forced non-zero.
    /// `keep`: which operand of an f64 operation may stay NaN on a GPU (the others are made numbers: which of two
    /// NaNs comes out depends on the operand order ptxas chooses); also a conversion's rounding, and a memory
    /// access's slot (fixed or by `x`), an atomic's space and whether it returns the old value.
    Wide {
        g: G,
        op: u8,
        sub: u8,
        d: u8,
        a: WSrc,
        b: WSrc,
        c: WSrc,
        s: Src,
        t: Src,
        x: u8,
        raw: bool,
        keep: u8,
    },
    /// `form`: 0 the whole warp, 1 `width=`, 2 PTX's raw clamp/segment operand (converged code only). `wide`: a
    /// 64-bit register exchanged as two 32-bit shuffles of its halves (`mov.b64` unpack and pack), in a case
    /// with 64-bit registers.
    Shfl {
        mode: u8,
        d: u8,
        p: Option<u8>,
        a: Src,
        lane: LaneSrc,
        form: u8,
        log_width: u8,
        raw_c: u16,
        spell: u8,
        wide: bool,
    },
    Vote {
        mode: u8,
        d: u8,
        q: u8,
        nq: bool,
        spell: u8,
    },
    Match {
        all: bool,
        d: u8,
        p: Option<u8>,
        a: u8,
        bits: u8,
        spell: u8,
    },
    Activemask {
        g: G,
        d: u8,
    },
    /// `whole`: name every lane of the warp (faults where the lanes are not converged, and so does a guard
    /// that is false on a named lane).
    WarpSync {
        g: G,
        whole: bool,
    },
    Load {
        g: G,
        d: u8,
        from: Mem,
    },
    Store {
        g: G,
        a: u8,
        to: Mem,
        b32: bool,
    },
    /// A block barrier: `kind` 0 `bar.sync`, 1 `bar.red.popc` into `d`, 2 and 3 `bar.red.and`/`.or` of `q` into
    /// predicate `d`. Printed for a GPU only (the reference interpreter runs warps one after the other), and
    /// only where every thread of the block runs it.
    Bar {
        kind: u8,
        id: u8,
        d: u8,
        q: u8,
        nq: bool,
    },
    /// `d` None: `red`. `shared`: the warp's counters in shared memory.
    Atom {
        g: G,
        op: u8,
        d: Option<u8>,
        slot: Slot,
        shared: bool,
        b: Src,
        c: Src,
    },
    If {
        cond: Cond,
        negated: bool,
        then: Vec<Stmt>,
        els: Option<Vec<Stmt>>,
    },
    Loop {
        trip: u8,
        body: Vec<Stmt>,
    },
    Exit {
        cond: Cond,
    },
    /// A guarded branch out of structured code: `kind` 0 breaks out of the innermost loop, 1 continues it
    /// (to its counter's update), 2 returns (to the end of the program: the lanes skip the epilogue, and the
    /// code after it can no longer reconverge before the exit). Break and continue print nothing outside a
    /// loop.
    Jump {
        kind: u8,
        cond: Cond,
    },
}

/// One generated test case.
#[derive(Clone, Debug)]
pub struct Case {
    pub target: Target,
    pub w: u32,
    pub warps: u32,
    /// Lanes missing from the last warp of a block (taken modulo W): a partial warp.
    pub missing: u32,
    pub grid: u32,
    /// The block's shape (x, y, z): its product is [`Case::block`]; warps are cut from the linear thread number
    /// (x fastest), so the lanes of each warp are the same whatever the shape.
    pub block_dim: [u32; 3],
    /// The grid's shape (x, y, z): its product is `grid`.
    pub grid_dim: [u32; 3],
    /// Input values; thread `t`'s register `k` starts as one of them (by a fixed hash of `(t, k)`).
    pub pool: Vec<u32>,
    /// The 64-bit registers `%w0` … `%w3` and their buffers: 64-bit statements print only in such a case.
    pub wide: bool,
    /// The 64-bit registers' input values, as the 32-bit ones.
    pub pool64: Vec<u64>,
    /// Member masks carry bits at or above W (ignored).
    pub junk_mask_bits: bool,
    pub body: Vec<Stmt>,
}

// ---------------------------------------------------------------------------------------------------------
// Strategies.

#[allow(clippy::cast_precision_loss, reason = "-20..=20 is exact in f32")]
fn value() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => (-8i32..=40).prop_map(i32::cast_unsigned),
        2 => any::<u32>(),
        2 => (-100.0f32..100.0).prop_map(f32::to_bits),
        1 => (-20i32..=20).prop_map(|v| (v as f32).to_bits()),
        1 => select(FLOAT_SPECIALS.to_vec()),
        1 => select(INT_SPECIALS.to_vec()),
    ]
}

#[allow(clippy::cast_precision_loss, reason = "-20..=20 is exact in f64")]
fn value64() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => (-8i64..=40).prop_map(i64::cast_unsigned),
        2 => any::<u64>(),
        2 => (-100.0f64..100.0).prop_map(f64::to_bits),
        1 => (-20i64..=20).prop_map(|v| (v as f64).to_bits()),
        2 => select(SPECIALS64.to_vec()),
        1 => value().prop_map(u64::from),
        1 => value().prop_map(|v| i64::from(v.cast_signed()).cast_unsigned()),
    ]
}

fn wsrc() -> impl Strategy<Value = WSrc> {
    prop_oneof![
        5 => wreg().prop_map(WSrc::Reg),
        1 => any::<u8>().prop_map(WSrc::Imm),
    ]
}

#[allow(clippy::cast_possible_truncation, reason = "WREGS (4) fits a u8")]
fn wreg() -> impl Strategy<Value = u8> {
    0..WREGS as u8
}

/// A 64-bit or mixed-width instruction: the families of [`Stmt::Wide`] with equal weights.
fn wide() -> BoxedStrategy<Stmt> {
    (
        (guard(), any::<u8>(), any::<u8>(), wreg(), wsrc(), wsrc(), wsrc()),
        (src(), src(), reg(), proptest::bool::weighted(0.1), any::<u8>()),
    )
        .prop_map(|((g, op, sub, d, a, b, c), (s, t, x, raw, keep))| Stmt::Wide {
            g,
            op,
            sub,
            d,
            a,
            b,
            c,
            s,
            t,
            x,
            raw,
            keep,
        })
        .boxed()
}

fn imm() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => 0u32..=40,
        1 => any::<u32>(),
        1 => select(INT_SPECIALS.to_vec()),
        1 => (-100i32..0).prop_map(i32::cast_unsigned),
    ]
}

#[allow(clippy::cast_possible_truncation, reason = "REGS (6) fits a u8")]
fn reg() -> impl Strategy<Value = u8> {
    0..REGS as u8
}

#[allow(clippy::cast_possible_truncation, reason = "PREDS (3) fits a u8")]
fn pred() -> impl Strategy<Value = u8> {
    0..PREDS as u8
}

#[allow(clippy::cast_possible_truncation, reason = "SPECIALS has 21 entries")]
fn src() -> impl Strategy<Value = Src> {
    prop_oneof![
        6 => reg().prop_map(Src::Reg),
        2 => imm().prop_map(Src::Imm),
        1 => (0..SPECIALS.len() as u8).prop_map(Src::Special),
    ]
}

fn guard() -> impl Strategy<Value = G> {
    proptest::option::weighted(
        0.2,
        (pred(), any::<bool>()).prop_map(|(pred, negated)| Guard { pred, negated }),
    )
}

fn slot() -> impl Strategy<Value = Slot> {
    prop_oneof![(0u8..4).prop_map(Slot::Fixed), reg().prop_map(Slot::Reg)]
}

fn mem() -> impl Strategy<Value = Mem> {
    prop_oneof![
        3 => (reg(), any::<bool>()).prop_map(|(index, byte)| Mem::Table { index, byte }),
        3 => reg().prop_map(|index| Mem::FTable { index }),
        3 => (slot(), any::<bool>()).prop_map(|(slot, byte)| Mem::Own { slot, byte }),
        3 => slot().prop_map(|slot| Mem::Shared { slot }),
        3 => slot().prop_map(|slot| Mem::Counter { slot }),
        3 => slot().prop_map(|slot| Mem::WarpSlot { slot }),
        1 => (reg(), any::<bool>()).prop_map(|(index, byte)| Mem::Raw { index, byte }),
    ]
}

fn cond() -> impl Strategy<Value = Cond> {
    prop_oneof![
        3 => any::<u8>().prop_map(Cond::LaneBit),
        2 => any::<u8>().prop_map(Cond::LaneLt),
        3 => (0u8..6, 0u8..3, reg(), src()).prop_map(|(cmp, ty, a, b)| Cond::Data { cmp, ty, a, b }),
        1 => pred().prop_map(Cond::Pred),
    ]
}

fn arithmetic() -> BoxedStrategy<Stmt> {
    prop_oneof![
        (guard(), 0u8..4, reg(), src())
            .prop_map(|(g, ty, d, a)| Stmt::Mov { g, ty, d, a })
            .boxed(),
        (guard(), 0u8..11, any::<u8>(), reg(), src(), src())
            .prop_map(|(g, op, ty, d, a, b)| Stmt::Int { g, op, ty, d, a, b })
            .boxed(),
        (guard(), 0u8..5, reg(), src())
            .prop_map(|(g, op, d, a)| Stmt::IntUn { g, op, d, a })
            .boxed(),
        (guard(), any::<bool>(), reg(), src(), src(), src())
            .prop_map(|(g, signed, d, a, b, c)| Stmt::Mad { g, signed, d, a, b, c })
            .boxed(),
        (
            guard(),
            any::<bool>(),
            any::<bool>(),
            reg(),
            src(),
            src(),
            proptest::bool::weighted(0.1)
        )
            .prop_map(|(g, rem, signed, d, a, b, raw)| Stmt::Div {
                g,
                rem,
                signed,
                d,
                a,
                b,
                raw
            })
            .boxed(),
        (guard(), 0u8..6, reg(), src(), src())
            .prop_map(|(g, op, d, a, b)| Stmt::Float { g, op, d, a, b })
            .boxed(),
        (guard(), any::<bool>(), reg(), src(), src(), src())
            .prop_map(|(g, mad, d, a, b, c)| Stmt::Fma { g, mad, d, a, b, c })
            .boxed(),
        (guard(), any::<bool>(), reg(), src())
            .prop_map(|(g, abs, d, a)| Stmt::FloatUn { g, abs, d, a })
            .boxed(),
        (guard(), 0u8..7, 0u8..4, reg(), reg())
            .prop_map(|(g, kind, rnd, d, a)| Stmt::Cvt { g, kind, rnd, d, a })
            .boxed(),
    ]
    .boxed()
}

fn logic() -> BoxedStrategy<Stmt> {
    prop_oneof![
        (guard(), 0u8..6, 0u8..4, pred(), src(), src())
            .prop_map(|(g, cmp, ty, p, a, b)| Stmt::Setp { g, cmp, ty, p, a, b })
            .boxed(),
        (guard(), 0u8..4, reg(), src(), src(), pred())
            .prop_map(|(g, ty, d, a, b, p)| Stmt::Selp { g, ty, d, a, b, p })
            .boxed(),
        (0u8..4, pred(), pred(), any::<bool>(), pred(), any::<bool>())
            .prop_map(|(op, d, a, na, b, nb)| Stmt::PredLogic { op, d, a, na, b, nb })
            .boxed(),
    ]
    .boxed()
}

fn lane_src() -> impl Strategy<Value = LaneSrc> {
    prop_oneof![
        3 => any::<u8>().prop_map(LaneSrc::Imm),
        2 => reg().prop_map(LaneSrc::Reg),
        1 => Just(LaneSrc::LaneId),
    ]
    .boxed()
}

fn warp_ops() -> BoxedStrategy<Stmt> {
    prop_oneof![
        6 => (
            (0u8..4, reg(), proptest::option::of(pred()), src(), lane_src()),
            (0u8..3, any::<u8>(), any::<u16>(), any::<u8>(), proptest::bool::weighted(0.3))
        )
            .prop_map(|((mode, d, p, a, lane), (form, log_width, raw_c, spell, wide))| Stmt::Shfl {
                mode,
                d,
                p,
                a,
                lane,
                form,
                log_width,
                raw_c,
                spell,
                wide
            }).boxed(),
        2 => (0u8..4, 0u8..6, pred(), any::<bool>(), any::<u8>())
            .prop_map(|(mode, d, q, nq, spell)| Stmt::Vote { mode, d, q, nq, spell }).boxed(),
        1 => (any::<bool>(), reg(), proptest::option::of(pred()), reg(), 0u8..3, any::<u8>())
            .prop_map(|(all, d, p, a, bits, spell)| Stmt::Match { all, d, p, a, bits, spell }).boxed(),
        1 => (guard(), reg()).prop_map(|(g, d)| Stmt::Activemask { g, d }).boxed(),
        1 => (guard(), proptest::bool::weighted(0.1))
            .prop_map(|(g, whole)| Stmt::WarpSync { g, whole })
            .boxed(),
        1 => (0u8..4, 0u8..2, reg(), pred(), any::<bool>())
            .prop_map(|(kind, id, d, q, nq)| Stmt::Bar { kind, id, d, q, nq })
            .boxed(),
    ]
    .boxed()
}

fn memory() -> BoxedStrategy<Stmt> {
    prop_oneof![
        2 => (guard(), reg(), mem())
            .prop_map(|(g, d, from)| Stmt::Load { g, d, from })
            .boxed(),
        2 => (guard(), reg(), mem(), any::<bool>())
            .prop_map(|(g, a, to, b32)| Stmt::Store { g, a, to, b32 })
            .boxed(),
        3 => (
            (guard(), 0u8..16, proptest::option::weighted(0.7, reg())),
            (slot(), proptest::bool::weighted(0.3), src(), src())
        )
            .prop_map(|((g, op, d), (slot, shared, b, c))| Stmt::Atom {
                g,
                op,
                d,
                slot,
                shared,
                b,
                c
            })
            .boxed(),
    ]
    .boxed()
}

fn leaf() -> BoxedStrategy<Stmt> {
    prop_oneof![
        8 => arithmetic(),
        6 => wide(),
        3 => logic(),
        8 => warp_ops(),
        4 => memory(),
        1 => cond().prop_map(|cond| Stmt::Exit { cond }).boxed(),
        1 => (prop_oneof![2 => Just(0u8), 2 => Just(1), 1 => Just(2)], cond())
            .prop_map(|(kind, cond)| Stmt::Jump { kind, cond })
            .boxed(),
    ]
    .boxed()
}

fn stmt() -> impl Strategy<Value = Stmt> {
    leaf().prop_recursive(3, 40, 5, |inner| {
        prop_oneof![
            6 => leaf(),
            2 => (
                cond(),
                any::<bool>(),
                prop::collection::vec(inner.clone(), 1..5),
                proptest::option::of(prop::collection::vec(inner.clone(), 1..5))
            )
                .prop_map(|(cond, negated, then, els)| Stmt::If { cond, negated, then, els })
                .boxed(),
            1 => (reg(), prop::collection::vec(inner, 1..4)).prop_map(|(trip, body)| Stmt::Loop { trip, body }).boxed(),
        ]
    })
}

/// A launch shape of `n` threads (or blocks), x fastest: 1-D when `pick` says so (or `n` has no other shape),
/// else one of the 2-D and 3-D factorisations of `n` within CUDA's per-dimension limits (x and y up to 1024, z up
/// to 64; `n` is at most 128 here), chosen by `pick`.
pub fn shape(n: u32, pick: u8) -> [u32; 3] {
    let mut shapes = Vec::new();
    for z in (1..=n.min(64)).filter(|z| n.is_multiple_of(*z)) {
        for y in (1..=n / z).filter(|y| (n / z).is_multiple_of(*y)) {
            if y > 1 || z > 1 {
                shapes.push([n / (y * z), y, z]);
            }
        }
    }
    if shapes.is_empty() || pick % 5 < 2 {
        [n, 1, 1]
    } else {
        shapes[usize::from(pick / 5) % shapes.len()]
    }
}

/// A whole test case: one or two warps per block, one to four blocks (at most 128 threads), each shape 1-D, 2-D
/// or 3-D; every supported warp size for the reference, 32 lanes for a GPU.
pub fn case(target: Target) -> impl Strategy<Value = Case> {
    let sizes = match target {
        Target::Reference => vec![2u32, 4, 8, 16, 32, 64],
        Target::Gpu => vec![32],
    };
    (
        select(sizes),
        (1u32..=2, prop_oneof![3 => Just(0u32), 1 => 1u32..64]),
        (1u32..=4, any::<u8>(), any::<u8>()),
        (
            prop::collection::vec(value(), 1..12),
            proptest::bool::weighted(0.2),
            proptest::bool::weighted(0.6),
            prop::collection::vec(value64(), 1..12),
        ),
        prop::collection::vec(stmt(), 1..20),
    )
        .prop_map(
            move |(w, (warps, missing), (grid, block_pick, grid_pick), (pool, junk_mask_bits, wide, pool64), body)| {
                let missing = missing % w;
                let block = warps * w - missing;
                // The input buffer's initialiser lists a value per register and thread, and the assembler takes at
                // most 1024 terms per statement: at most 128 threads.
                let grid = grid.min(128 / block).max(1);
                Case {
                    target,
                    w,
                    warps,
                    missing,
                    grid,
                    block_dim: shape(block, block_pick),
                    grid_dim: shape(grid, grid_pick),
                    // A GPU's member masks are 32 bits.
                    junk_mask_bits: junk_mask_bits && target == Target::Reference,
                    pool,
                    wide,
                    pool64,
                    body,
                }
            },
        )
}

/// One program of a cross-check batch.
#[derive(Clone, Debug)]
pub struct RandomProgram {
    pub seed: u64,
    pub index: u64,
    /// The kernel name, `random_<seed>_<index>`.
    pub name: String,
    /// The program text (warpsim assembly).
    pub source: String,
}

/// The 32 bytes of ChaCha key for program `index` of batch `seed`: SplitMix64 of the pair, four times, so that
/// neighbouring indices and seeds give independent streams.
fn key(seed: u64, index: u64) -> [u8; 32] {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut key = [0u8; 32];
    for chunk in key.chunks_mut(8) {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = z;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    key
}

/// Draw one case from `rng`.
fn draw(target: Target, rng: TestRng) -> Case {
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    case(target)
        .new_tree(&mut runner)
        .expect("the strategy has no filter that can reject")
        .current()
}

/// Case `index` of batch `seed` for `target`: the same triple always gives the same case.
pub fn seeded(target: Target, seed: u64, index: u64) -> Case {
    draw(target, TestRng::from_seed(RngAlgorithm::ChaCha, &key(seed, index)))
}

/// Program `index` of the cross-check's batch `seed` ([`Target::Gpu`]): the same pair always gives the same
/// text.
pub fn generate(seed: u64, index: u64) -> RandomProgram {
    let case = seeded(Target::Gpu, seed, index);
    let name = format!("random_{seed}_{index}");
    let desc = format!("random program {index} of seed {seed} (sim crosscheck --random)");
    RandomProgram {
        seed,
        index,
        source: case.program(&name, &desc),
        name,
    }
}

/// A case chosen by a fuzzer's `bytes`: every input is a program. The bytes are hashed into the ChaCha key
/// (FNV-1a, twice): proptest's pass-through generator, which would take the bytes as the choices themselves,
/// splits its stream between the sub-generators of the recursive strategies and then returns zeros forever, and
/// a uniform range never accepts an all-zero draw.
pub fn from_bytes(target: Target, bytes: &[u8]) -> Case {
    let fnv = |basis: u64| {
        bytes
            .iter()
            .fold(basis, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    };
    draw(
        target,
        TestRng::from_seed(
            RngAlgorithm::ChaCha,
            &key(fnv(0xcbf2_9ce4_8422_2325), fnv(0x6c62_272e_07bb_0142)),
        ),
    )
}

// ---------------------------------------------------------------------------------------------------------
// Printing.

fn lane_bits(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// A member-mask expression naming exactly the lanes `m` of a `w`-lane warp; with `junk`, bits at or above W
/// (which name no lane and are ignored) are set too.
fn mask_text(m: u64, w: u32, junk: bool) -> String {
    let m = if junk {
        m | (!lane_bits(w) & 0x5a5a_5a5a_5a5a_5a5a)
    } else {
        m
    };
    if m == lane_bits(w) && w == 64 {
        "-1".into()
    } else if m >> 63 == 1 {
        format!("~0x{:x}", !m)
    } else {
        format!("0x{m:x}")
    }
}

/// The widest power-of-two segment (at most `w`) such that every aligned segment of lanes is wholly in
/// `active` or wholly out.
fn segment_width(active: u64, w: u32) -> u32 {
    let mut width = w;
    while width > 1 {
        let seg = lane_bits(width);
        if (0..w / width).all(|s| {
            let lanes = (active >> (s * width)) & seg;
            lanes == 0 || lanes == seg
        }) {
            break;
        }
        width /= 2;
    }
    width
}

fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z ^ (z >> 31)
}

fn int_imm(v: u32) -> String {
    let s = v.cast_signed();
    if (5..1000).contains(&v) && v.is_multiple_of(5) {
        // A launch parameter in the immediate.
        format!("bias + {}", v - 5)
    } else if v < 1000 {
        v.to_string()
    } else if (-1000..0).contains(&s) {
        s.to_string()
    } else {
        format!("0x{v:x}")
    }
}

impl Src {
    fn int(&self) -> String {
        match self {
            Src::Reg(r) => format!("%r{}", usize::from(*r) % REGS),
            Src::Imm(v) => int_imm(*v),
            Src::Special(s) => SPECIALS[*s as usize % SPECIALS.len()].into(),
        }
    }

    fn float(&self) -> String {
        match self {
            Src::Imm(v) => FLOAT_IMMS[*v as usize % FLOAT_IMMS.len()].into(),
            _ => self.int(),
        }
    }

    fn typed(&self, ty: &str) -> String {
        if ty == "f32" { self.float() } else { self.int() }
    }
}

fn r(d: u8) -> String {
    format!("%r{}", usize::from(d) % REGS)
}

fn p(d: u8) -> String {
    format!("%p{}", usize::from(d) % PREDS)
}

/// A 64-bit data register.
fn w64(d: u8) -> String {
    format!("%w{}", usize::from(d) % WREGS)
}

impl WSrc {
    fn int(&self) -> String {
        match self {
            WSrc::Reg(k) => w64(*k),
            WSrc::Imm(v) => INT64_IMMS[*v as usize % INT64_IMMS.len()].into(),
        }
    }

    fn float(&self) -> String {
        match self {
            WSrc::Reg(k) => w64(*k),
            WSrc::Imm(v) => FLOAT64_IMMS[*v as usize % FLOAT64_IMMS.len()].into(),
        }
    }

    fn typed(&self, ty: &str) -> String {
        if ty == "f64" { self.float() } else { self.int() }
    }

    /// The register itself, or `or` for an immediate (where an instruction takes registers only).
    fn reg_or(&self, or: u8) -> String {
        match self {
            WSrc::Reg(k) => w64(*k),
            WSrc::Imm(_) => w64(or),
        }
    }
}

fn guard_text(g: G) -> String {
    match g {
        None => String::new(),
        Some(g) => format!("@{}{} ", if g.negated { "!" } else { "" }, p(g.pred)),
    }
}

/// What the printer knows where it is.
#[derive(Clone, Copy)]
struct Region {
    /// The lanes of each warp that run here, when known statically (the same in every warp).
    active: Option<u64>,
    loop_depth: u8,
}

#[allow(
    clippy::struct_excessive_bools,
    reason = "independent facts about the case, each read where it decides something"
)]
struct Printer {
    w: u32,
    /// [`Target::Gpu`]: only what PTX defines.
    gpu: bool,
    /// The lanes of each warp at the start; `None` when warps differ (a partial last warp among others).
    start: Option<u64>,
    text: String,
    labels: u32,
    /// One warp per block (raw shared stores cannot reach another warp).
    one_warp: bool,
    /// Member masks carry bits at or above W.
    junk_mask_bits: bool,
    /// The enclosing loops' (latch, end) labels, innermost last.
    loops: Vec<(String, String)>,
    /// The case has the 64-bit registers: 64-bit statements print.
    wide: bool,
}

const MAX_LOOP_DEPTH: u8 = 3;

impl Printer {
    fn line(&mut self, s: &str) {
        let _ = writeln!(self.text, "        {s}");
    }

    fn label(&mut self, s: &str) {
        let _ = writeln!(self.text, "{s}:");
    }

    fn fresh(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}_{}", self.labels)
    }

    fn log_w(&self) -> u32 {
        self.w.trailing_zeros()
    }

    /// Print a block of statements; the lanes known to run at its end.
    fn block(&mut self, stmts: &[Stmt], mut region: Region) -> Option<u64> {
        for s in stmts {
            region.active = self.stmt(s, region);
        }
        region.active
    }

    /// Emit a condition into a predicate; its name and, when it depends only on the lane, its lanes.
    fn cond(&mut self, c: &Cond) -> (String, Option<u64>) {
        let w = self.w;
        match c {
            Cond::LaneBit(k) => {
                let bit = 1u32 << (u32::from(*k) % self.log_w());
                self.line(&format!("and.b32 %t1, %laneid, {bit}"));
                self.line("setp.ne.u32 %q, %t1, 0");
                let lanes = (0..w).filter(|l| l & bit != 0).fold(0u64, |m, l| m | 1 << l);
                ("%q".into(), Some(lanes))
            }
            Cond::LaneLt(c) => {
                let c = u32::from(*c) % (w + 1);
                self.line(&format!("setp.lt.u32 %q, %laneid, {c}"));
                ("%q".into(), Some(lane_bits(c)))
            }
            Cond::Data { cmp, ty, a, b } => {
                let cmp = ["eq", "ne", "lt", "le", "gt", "ge"][*cmp as usize % 6];
                let ty = ["s32", "u32", "f32"][*ty as usize % 3];
                self.line(&format!("setp.{cmp}.{ty} %q, {}, {}", r(*a), b.typed(ty)));
                ("%q".into(), None)
            }
            Cond::Pred(q) => (p(*q), None),
        }
    }

    /// Print one statement in `region`; the lanes known to run after it. Straight-line statements leave them as
    /// they were; the control flow decides them.
    fn stmt(&mut self, s: &Stmt, region: Region) -> Option<u64> {
        let active = region.active;
        // Warp-wide operations need the executing lanes known (and some of them).
        let known = active.filter(|&a| a != 0);
        match s {
            Stmt::Mov { .. } | Stmt::Int { .. } | Stmt::IntUn { .. } | Stmt::Mad { .. } => self.integer(s),
            Stmt::Div { .. } => self.div(s),
            Stmt::Float { .. } | Stmt::Fma { .. } | Stmt::FloatUn { .. } | Stmt::Cvt { .. } => self.float(s),
            Stmt::Setp { .. } | Stmt::Selp { .. } | Stmt::PredLogic { .. } => self.predicate(s),
            Stmt::Wide { .. } => {
                if self.wide {
                    self.wide(s);
                }
            }
            Stmt::Shfl { .. } => {
                if let Some(act) = known {
                    self.shfl(s, act);
                }
            }
            Stmt::Vote { mode, d, q, nq, spell } => {
                if let Some(act) = known {
                    self.vote(*mode, *d, *q, *nq, *spell, act);
                }
            }
            Stmt::Match { .. } => {
                if let Some(act) = known {
                    self.match_sync(s, act);
                }
            }
            // PTX promises only that the executing lane is in the mask.
            Stmt::Activemask { g, d } if self.gpu => {
                let g = guard_text(*g);
                self.line(&format!("{g}activemask.b32 %t0"));
                self.line(&format!("{g}and.b32 {}, %t0, %lanemask_eq", r(*d)));
            }
            Stmt::Activemask { g, d } => self.line(&format!("{}activemask.b32 {}", guard_text(*g), r(*d))),
            Stmt::WarpSync { g, whole } => self.warp_sync(*g, *whole, known),
            Stmt::Bar { kind, id, d, q, nq } => self.bar(*kind, *id, *d, *q, *nq, active),
            Stmt::Load { g, d, from } => self.load(*g, *d, from),
            Stmt::Store { g, a, to, b32 } => self.store(*g, *a, to, *b32),
            Stmt::Atom { .. } => self.atom(s),
            Stmt::If {
                cond,
                negated,
                then,
                els,
            } => return self.if_else(cond, *negated, then, els.as_deref(), region),
            Stmt::Loop { trip, body } => return self.loop_stmt(*trip, body, region),
            Stmt::Jump { kind, cond } => return self.jump(*kind, cond, active),
            Stmt::Exit { cond } => {
                let (q, lanes) = self.cond(cond);
                self.line(&format!("@{q} exit"));
                return match (active, lanes) {
                    (Some(a), Some(l)) => Some(a & !l),
                    _ => None,
                };
            }
        }
        active
    }

    /// `mov`, an integer operation, `mad`: which opcode and type the statement's numbers pick.
    fn integer(&mut self, s: &Stmt) {
        match s {
            Stmt::Mov { g, ty, d, a } => {
                let ty = ["b32", "u32", "s32", "f32"][*ty as usize % 4];
                self.line(&format!("{}mov.{ty} {}, {}", guard_text(*g), r(*d), a.typed(ty)));
            }
            Stmt::Int { g, op, ty, d, a, b } => {
                const OPS: [(&str, &[&str]); 11] = [
                    ("add", &["u32", "s32"]),
                    ("sub", &["u32", "s32"]),
                    ("mul.lo", &["u32", "s32"]),
                    ("mul", &["u32", "s32"]),
                    ("min", &["u32", "s32"]),
                    ("max", &["u32", "s32"]),
                    ("and", &["b32", "u32", "s32"]),
                    ("or", &["b32", "u32", "s32"]),
                    ("xor", &["b32", "u32", "s32"]),
                    ("shl", &["b32", "u32", "s32"]),
                    ("shr", &["b32", "u32", "s32"]),
                ];
                let (name, types) = OPS[*op as usize % OPS.len()];
                let ty = types[*ty as usize % types.len()];
                self.line(&format!(
                    "{}{name}.{ty} {}, {}, {}",
                    guard_text(*g),
                    r(*d),
                    a.int(),
                    b.int()
                ));
            }
            Stmt::IntUn { g, op, d, a } => {
                let op = ["neg.s32", "abs.s32", "not.b32", "not.u32", "not.s32"][*op as usize % 5];
                self.line(&format!("{}{op} {}, {}", guard_text(*g), r(*d), a.int()));
            }
            Stmt::Mad { g, signed, d, a, b, c } => {
                let op = if *signed { "mad.s32" } else { "mad.lo.u32" };
                self.line(&format!(
                    "{}{op} {}, {}, {}, {}",
                    guard_text(*g),
                    r(*d),
                    a.int(),
                    b.int(),
                    c.int()
                ));
            }
            _ => unreachable!("not an integer statement: {s:?}"),
        }
    }

    /// A 64-bit or mixed-width instruction ([`Stmt::Wide`]): which family (`op`) and which instruction of it
    /// (`sub`); divisors forced non-zero as for 32 bits; on a GPU every f64 operand but one made a number.
    #[allow(clippy::too_many_lines, reason = "one arm per family, each a table and a line")]
    fn wide(&mut self, st: &Stmt) {
        // The families, conversions (26 of them, with their roundings) and atomics (13, `atom` or `red`, in
        // two spaces) drawn more often.
        const FAMILIES: [u8; 22] = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12, 12, 12, 13, 13, 14, 14, 14, 14,
        ];
        let Stmt::Wide {
            g,
            op,
            sub,
            d,
            a,
            b,
            c,
            s,
            t,
            x,
            raw,
            keep,
        } = st
        else {
            unreachable!("not a 64-bit statement: {st:?}")
        };
        let g = guard_text(*g);
        let dw = w64(*d);
        let sub = usize::from(*sub);
        let line = |pr: &mut Printer, text: String| pr.line(&format!("{g}{text}"));
        match FAMILIES[usize::from(*op) % FAMILIES.len()] {
            0 => match sub % 6 {
                4 => line(
                    self,
                    format!("mov.b64 {{{}, {}}}, {}", r(*x), r(x.wrapping_add(1)), a.reg_or(*d)),
                ),
                5 => line(self, format!("mov.b64 {dw}, {{{}, {}}}", s.int(), t.int())),
                k => {
                    let ty = ["b64", "u64", "s64", "f64"][k];
                    line(self, format!("mov.{ty} {dw}, {}", a.typed(ty)));
                }
            },
            1 => {
                const OPS: [&str; 16] = [
                    "add.u64",
                    "add.s64",
                    "sub.u64",
                    "sub.s64",
                    "mul.lo.u64",
                    "mul.lo.s64",
                    "min.u64",
                    "min.s64",
                    "max.u64",
                    "max.s64",
                    "and.b64",
                    "or.b64",
                    "xor.b64",
                    "and.u64",
                    "or.s64",
                    "xor.s64",
                ];
                line(self, format!("{} {dw}, {}, {}", OPS[sub % 16], a.int(), b.int()));
            }
            2 => {
                let op = ["shl.b64", "shl.u64", "shl.s64", "shr.b64", "shr.u64", "shr.s64"][sub % 6];
                line(self, format!("{op} {dw}, {}, {}", a.int(), s.int()));
            }
            3 => match sub % 6 {
                k @ 0..=1 => {
                    let op = ["mul.hi.u64", "mul.hi.s64"][k];
                    line(self, format!("{op} {dw}, {}, {}", a.int(), b.int()));
                }
                k => {
                    let op = ["mad.lo.u64", "mad.lo.s64", "mad.hi.u64", "mad.hi.s64"][k - 2];
                    line(self, format!("{op} {dw}, {}, {}, {}", a.int(), b.int(), c.int()));
                }
            },
            4 => match sub % 4 {
                k @ 0..=1 => {
                    let op = ["mul.wide.u32", "mul.wide.s32"][k];
                    line(self, format!("{op} {dw}, {}, {}", s.int(), t.int()));
                }
                k => {
                    let op = ["mad.wide.u32", "mad.wide.s32"][k - 2];
                    line(self, format!("{op} {dw}, {}, {}, {}", s.int(), t.int(), c.int()));
                }
            },
            5 => match sub % 4 {
                k @ 0..=1 => {
                    let op = ["mul.hi.u32", "mul.hi.s32"][k];
                    line(self, format!("{op} {}, {}, {}", r(*x), s.int(), t.int()));
                }
                k => {
                    let op = ["mad.hi.u32", "mad.hi.s32"][k - 2];
                    line(
                        self,
                        format!("{op} {}, {}, {}, {}", r(*x), s.int(), t.int(), r(x.wrapping_add(1))),
                    );
                }
            },
            6 => {
                let op = ["div.u64", "div.s64", "rem.u64", "rem.s64"][sub % 4];
                let raw = *raw && !self.gpu;
                let divisor = match b {
                    WSrc::Imm(_) if b.int() == "0" && !raw => "7".into(),
                    WSrc::Imm(_) => b.int(),
                    WSrc::Reg(_) if raw => b.int(),
                    WSrc::Reg(_) => {
                        // Division by zero is a fault: replace a zero divisor by 7.
                        self.line(&format!("setp.eq.u64 %e, {}, 0", b.int()));
                        self.line(&format!("selp.u64 %wt0, 7, {}, %e", b.int()));
                        "%wt0".into()
                    }
                };
                line(self, format!("{op} {dw}, {}, {divisor}", a.int()));
            }
            7 => {
                let op = ["not.b64", "not.u64", "not.s64", "neg.s64", "abs.s64"][sub % 5];
                line(self, format!("{op} {dw}, {}", a.int()));
            }
            8 => {
                const OPS: [&str; 9] = [
                    "add.f64",
                    "sub.f64",
                    "mul.f64",
                    "div.rn.f64",
                    "min.f64",
                    "max.f64",
                    "add.rn.f64",
                    "mul.rn.f64",
                    "sub.rn.f64",
                ];
                let v = self.f64_operands(&[a, b], *keep);
                line(self, format!("{} {dw}, {}, {}", OPS[sub % 9], v[0], v[1]));
            }
            9 => match sub % 6 {
                k @ 0..=1 => {
                    let op = ["fma.rn.f64", "mad.rn.f64"][k];
                    let v = self.f64_operands(&[a, b, c], *keep);
                    line(self, format!("{op} {dw}, {}, {}, {}", v[0], v[1], v[2]));
                }
                k @ 2..=4 => {
                    let op = ["neg.f64", "abs.f64", "sqrt.rn.f64"][k - 2];
                    line(self, format!("{op} {dw}, {}", a.float()));
                }
                _ => line(self, format!("sqrt.rn.f32 {}, {}", r(*x), s.float())),
            },
            10 => {
                let ty = ["u64", "s64", "f64", "b64"][sub % 4];
                let cmps: &[&str] = if ty == "b64" {
                    &["eq", "ne"]
                } else {
                    &["eq", "ne", "lt", "le", "gt", "ge"]
                };
                let cmp = cmps[sub / 4 % cmps.len()];
                line(
                    self,
                    format!("setp.{cmp}.{ty} {}, {}, {}", p(*x), a.reg_or(*d), b.typed(ty)),
                );
            }
            11 => {
                let ty = ["b64", "u64", "s64", "f64"][sub % 4];
                line(
                    self,
                    format!("selp.{ty} {dw}, {}, {}, {}", a.typed(ty), b.typed(ty), p(*x)),
                );
            }
            12 => {
                let text = cvt64(sub, *keep, &dw, &a.reg_or(*d), &r(*x));
                line(self, text);
            }
            13 => self.memory64(&g, sub, &dw, a, *x, *keep),
            _ => self.atom64(&g, sub, *d, b, c, *x, *keep),
        }
    }

    /// f64 operands; on a GPU all but one (`keep` chooses) of those in registers replaced, where NaN, by 1.5:
    /// which of two NaN operands an operation returns follows the operand order ptxas chooses (PTX leaves it
    /// open; ISA.md section 5).
    fn f64_operands(&mut self, ops: &[&WSrc], keep: u8) -> Vec<String> {
        let mut v: Vec<String> = ops.iter().map(|o| o.float()).collect();
        if !self.gpu {
            return v;
        }
        let regs: Vec<usize> = (0..ops.len()).filter(|&k| matches!(ops[k], WSrc::Reg(_))).collect();
        if regs.len() < 2 {
            return v;
        }
        let kept = regs[usize::from(keep) % regs.len()];
        let mut temps = ["%wt0", "%wt1"].into_iter();
        for k in regs {
            if k != kept {
                let tmp = temps.next().expect("at most three operands");
                self.line(&format!("setp.eq.f64 %e, {0}, {0}", v[k]));
                self.line(&format!("selp.f64 {tmp}, {}, 1.5, %e", v[k]));
                v[k] = tmp.into();
            }
        }
        v
    }

    /// A 64-bit load or store: the thread's own slots of `scr64` (element or byte address) and `sh64`, or the
    /// read-only `ftab64`.
    fn memory64(&mut self, g: &str, sub: usize, dw: &str, a: &WSrc, x: u8, keep: u8) {
        let slot = if keep & 1 == 0 {
            Slot::Fixed(keep >> 1)
        } else {
            Slot::Reg(x)
        };
        match sub % 8 {
            0 => {
                let at = self.slot(&slot, "scr64", "%sb", SLOTS);
                self.line(&format!("{g}ld.global.u64 {dw}, {at}"));
            }
            1 => {
                let at = self.own_bytes(&slot, "scr64", 8);
                self.line(&format!("{g}ld.global.b64 {dw}, {at}"));
            }
            2 => {
                self.line(&format!("and.b32 %t0, {}, 7", r(x)));
                self.line(&format!("{g}ld.global.f64 {dw}, ftab64[%t0]"));
            }
            3 => {
                let at = self.slot(&slot, "sh64", "%ss", SHARED_SLOTS);
                self.line(&format!("{g}ld.shared.u64 {dw}, {at}"));
            }
            4 => {
                let at = self.slot(&slot, "scr64", "%sb", SLOTS);
                self.line(&format!("{g}st.global.u64 {at}, {}", a.int()));
            }
            5 => {
                let at = self.own_bytes(&slot, "scr64", 8);
                self.line(&format!("{g}st.global.b64 {at}, {}", a.int()));
            }
            6 => {
                let at = self.slot(&slot, "sh64", "%ss", SHARED_SLOTS);
                self.line(&format!("{g}st.shared.b64 {at}, {}", a.int()));
            }
            _ => {
                self.line(&format!("and.b32 %t0, {}, 7", r(x)));
                self.line("shl.b32 %t0, %t0, 3");
                self.line(&format!("{g}ld.global.b64 {dw}, [ftab64 + %t0]"));
            }
        }
    }

    /// A 64-bit atomic or reduction: the counters as for 32 bits ([`Printer::atom`]).
    #[allow(clippy::too_many_arguments, reason = "the statement's fields")]
    fn atom64(&mut self, g: &str, sub: usize, d: u8, b: &WSrc, c: &WSrc, x: u8, keep: u8) {
        const OPS: [(&str, &str, &str); 13] = [
            ("add", "u64", "cnt64"),
            ("min", "u64", "cnt64"),
            ("max", "u64", "cnt64"),
            ("exch", "b64", "cnt64"),
            ("cas", "b64", "cnt64"),
            ("and", "b64", "cnt64"),
            ("or", "b64", "cnt64"),
            ("xor", "b64", "cnt64"),
            ("min", "s64", "icnt64"),
            ("max", "s64", "icnt64"),
            ("add", "f64", "fcnt64"),
            ("exch", "f64", "fcnt64"),
            ("cas", "u64", "cnt64"),
        ];
        let (name, ty, buffer) = OPS[sub % OPS.len()];
        let slot = if keep & 1 == 0 {
            Slot::Fixed(keep >> 1)
        } else {
            Slot::Reg(x)
        };
        let returns = keep & 0x30 != 0;
        let shared = keep & 0x40 != 0 && buffer == "cnt64";
        let gpu_counter = ["add", "min", "max", "xor"].iter().position(|&n| n == name);
        let at = match (shared, self.gpu, gpu_counter) {
            (true, false, _) => self.slot(&slot, "scnt64", "%ws", COUNTERS),
            (false, false, _) => self.slot(&slot, buffer, "%wb", COUNTERS),
            (false, true, Some(k)) if !returns && ty != "f64" => format!("{buffer}[%wb + {k}]"),
            (true, true, _) => self.slot(&slot, "scnt64", "%os", COUNTERS),
            (false, true, _) => self.slot(&slot, buffer, "%ob", COUNTERS),
        };
        let space = if shared { "shared" } else { "global" };
        let (b, c) = (b.typed(ty), c.typed(ty));
        let dw = w64(d);
        match (returns, name) {
            (true, "cas") => self.line(&format!("{g}atom.{space}.cas.{ty} {dw}, {at}, {b}, {c}")),
            (true, _) => self.line(&format!("{g}atom.{space}.{name}.{ty} {dw}, {at}, {b}")),
            (false, "cas") => {}
            (false, _) => self.line(&format!("{g}red.{space}.{name}.{ty} {at}, {b}")),
        }
    }

    /// The byte address of a thread's own slot of `array` (elements of `size` bytes from `%sb`).
    fn own_bytes(&mut self, slot: &Slot, array: &str, size: u32) -> String {
        let shift = size.trailing_zeros();
        match slot {
            Slot::Fixed(k) => {
                self.line(&format!("shl.b32 %t0, %sb, {shift}"));
                format!("[{array} + %t0 + {}]", size * (u32::from(*k) % SLOTS))
            }
            Slot::Reg(x) => {
                self.line(&format!("and.b32 %t0, {}, {}", r(*x), SLOTS - 1));
                self.line("add.u32 %t0, %t0, %sb");
                self.line(&format!("shl.b32 %t0, %t0, {shift}"));
                format!("[{array} + %t0]")
            }
        }
    }

    /// `div` or `rem`: whether the divisor may be zero (a fault, on the reference only when `raw`) or is
    /// replaced by 7 where it is.
    fn div(&mut self, s: &Stmt) {
        let Stmt::Div {
            g,
            rem,
            signed,
            d,
            a,
            b,
            raw,
        } = s
        else {
            unreachable!("not a division: {s:?}")
        };
        let op = format!(
            "{}.{}",
            if *rem { "rem" } else { "div" },
            if *signed { "s32" } else { "u32" }
        );
        let raw = *raw && !self.gpu;
        let divisor = match b {
            Src::Imm(0) if !raw => "7".into(),
            Src::Imm(_) => b.int(),
            _ if raw => b.int(),
            _ => {
                // Division by zero is a fault: replace a zero divisor by 7.
                self.line(&format!("setp.eq.u32 %e, {}, 0", b.int()));
                self.line(&format!("selp.u32 %t0, 7, {}, %e", b.int()));
                "%t0".into()
            }
        };
        self.line(&format!("{}{op} {}, {}, {divisor}", guard_text(*g), r(*d), a.int()));
    }

    /// An f32 operation or a conversion: which opcode, rounding and types the statement's numbers pick.
    fn float(&mut self, s: &Stmt) {
        match s {
            Stmt::Float { g, op, d, a, b } => {
                let op = ["add.f32", "sub.rn.f32", "mul.f32", "div.rn.f32", "min.f32", "max.f32"][*op as usize % 6];
                self.line(&format!(
                    "{}{op} {}, {}, {}",
                    guard_text(*g),
                    r(*d),
                    a.float(),
                    b.float()
                ));
            }
            Stmt::Fma { g, mad, d, a, b, c } => {
                let op = if *mad { "mad.f32" } else { "fma.rn.f32" };
                self.line(&format!(
                    "{}{op} {}, {}, {}, {}",
                    guard_text(*g),
                    r(*d),
                    a.float(),
                    b.float(),
                    c.float()
                ));
            }
            Stmt::FloatUn { g, abs, d, a } => {
                let op = if *abs { "abs.f32" } else { "neg.f32" };
                self.line(&format!("{}{op} {}, {}", guard_text(*g), r(*d), a.float()));
            }
            Stmt::Cvt { g, kind, rnd, d, a } => {
                let rnd = ["rni", "rzi", "rmi", "rpi"][*rnd as usize % 4];
                let op = match kind % 7 {
                    0 => format!("cvt.{rnd}.s32.f32"),
                    1 => format!("cvt.{rnd}.u32.f32"),
                    2 => format!("cvt.{rnd}.f32.f32"),
                    3 => "cvt.rn.f32.s32".into(),
                    4 => "cvt.f32.u32".into(),
                    5 => "cvt.u32.s32".into(),
                    _ => "cvt.s32.u32".into(),
                };
                self.line(&format!("{}{op} {}, {}", guard_text(*g), r(*d), r(*a)));
            }
            _ => unreachable!("not a float statement: {s:?}"),
        }
    }

    /// `setp`, `selp`, predicate logic: which comparison, type and operation the statement's numbers pick.
    fn predicate(&mut self, s: &Stmt) {
        match s {
            Stmt::Setp { g, cmp, ty, p: q, a, b } => {
                let ty = ["s32", "u32", "f32", "b32"][*ty as usize % 4];
                let cmps: &[&str] = if ty == "b32" {
                    &["eq", "ne"]
                } else {
                    &["eq", "ne", "lt", "le", "gt", "ge"]
                };
                let cmp = cmps[*cmp as usize % cmps.len()];
                self.line(&format!(
                    "{}setp.{cmp}.{ty} {}, {}, {}",
                    guard_text(*g),
                    p(*q),
                    a.typed(ty),
                    b.typed(ty)
                ));
            }
            Stmt::Selp { g, ty, d, a, b, p: q } => {
                let ty = ["b32", "u32", "s32", "f32"][*ty as usize % 4];
                self.line(&format!(
                    "{}selp.{ty} {}, {}, {}, {}",
                    guard_text(*g),
                    r(*d),
                    a.typed(ty),
                    b.typed(ty),
                    p(*q)
                ));
            }
            Stmt::PredLogic { op, d, a, na, b, nb } => {
                let neg = |n: bool| if n { "!" } else { "" };
                match op % 4 {
                    3 => self.line(&format!("not.pred {}, {}{}", p(*d), neg(*na), p(*a))),
                    k => {
                        let op = ["and", "or", "xor"][k as usize];
                        self.line(&format!(
                            "{op}.pred {}, {}{}, {}{}",
                            p(*d),
                            neg(*na),
                            p(*a),
                            neg(*nb),
                            p(*b)
                        ));
                    }
                }
            }
            _ => unreachable!("not a predicate statement: {s:?}"),
        }
    }

    /// A shuffle where the lanes `act` run: its width (narrowed so that every segment runs wholly or not at
    /// all), its lane operand (a `bfly` partner kept in the segment outside converged code) and how its
    /// width and mask are spelt.
    fn shfl(&mut self, s: &Stmt, act: u64) {
        let Stmt::Shfl {
            mode,
            d,
            p: q,
            a,
            lane,
            form,
            log_width,
            raw_c,
            spell,
            wide,
        } = s
        else {
            unreachable!("not a shuffle: {s:?}")
        };
        let wide = *wide && self.wide;
        let w = self.w;
        let mode = ["idx", "up", "down", "bfly"][*mode as usize % 4];
        let full = act == lane_bits(w);
        let form = if full { form % 3 } else { 1 };
        let width = (1u32 << (u32::from(*log_width) % (self.log_w() + 1))).min(segment_width(act, w));
        // Outside converged code a butterfly partner must stay in the segment.
        let b = match lane {
            LaneSrc::Imm(v) if mode == "bfly" && form == 1 && !full => (u32::from(*v) % width).to_string(),
            LaneSrc::Imm(v) => v.to_string(),
            LaneSrc::Reg(x) if mode == "bfly" && !full => {
                self.line(&format!("and.b32 %t0, {}, {}", r(*x), width - 1));
                "%t0".into()
            }
            LaneSrc::LaneId if mode == "bfly" && !full => {
                self.line(&format!("and.b32 %t0, %laneid, {}", width - 1));
                "%t0".into()
            }
            LaneSrc::Reg(x) => r(*x),
            LaneSrc::LaneId => "%laneid".into(),
        };
        let mask = if spell & 4 != 0 && form != 0 {
            self.register_mask(act)
                .unwrap_or_else(|| mask_text(act, w, self.junk_mask_bits))
        } else {
            mask_text(act, w, self.junk_mask_bits)
        };
        // A 64-bit value crosses lanes as two 32-bit shuffles of its halves (as CUDA's `__shfl_sync` of a
        // `double`): unpacked into `%h0`, `%h1`, shuffled, packed into the destination.
        let halves: Vec<(String, String)> = if wide {
            let src = match a {
                Src::Reg(k) => w64(*k),
                _ => w64(*d),
            };
            self.line(&format!("mov.b64 {{%h0, %h1}}, {src}"));
            let hi = match q {
                Some(q) => format!("%h1|{}", p(*q)),
                None => "%h1".into(),
            };
            vec![("%h0".into(), "%h0".into()), (hi, "%h1".into())]
        } else {
            let out = match q {
                Some(q) => format!("{}|{}", r(*d), p(*q)),
                None => r(*d),
            };
            vec![(out, a.int())]
        };
        for (out, a) in halves {
            let text = self.shfl_text(mode, form, *spell, &out, &a, &b, width, &mask, *raw_c, full);
            self.line(&text);
        }
        if wide {
            self.line(&format!("mov.b64 {}, {{%h0, %h1}}", w64(*d)));
        }
    }

    /// One shuffle's text in the spelling `form` and `spell` choose.
    #[allow(clippy::too_many_arguments, reason = "the shuffle's operands, already chosen")]
    fn shfl_text(
        &self,
        mode: &str,
        form: u8,
        spell: u8,
        out: &str,
        a: &str,
        b: &str,
        width: u32,
        mask: &str,
        raw_c: u16,
        full: bool,
    ) -> String {
        let w = self.w;
        match form {
            0 => match spell % 3 {
                0 => format!("shfl.sync.{mode}.b32 {out}, {a}, {b}"),
                1 => format!("shfl.{mode} {out}, {a}, {b}"),
                _ => format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, mask={mask}"),
            },
            1 => {
                if full && spell.is_multiple_of(3) {
                    format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, width={width}")
                } else if spell.is_multiple_of(2) {
                    format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, width={width}, mask={mask}")
                } else {
                    format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, mask={mask}, width={width}")
                }
            }
            _ => {
                // Bits past W - 1 of the clamp and segment mask are ignored (taken modulo W).
                let m = 2 * w - 1;
                let c = ((u32::from(raw_c >> 8) & m) << 8) | (u32::from(raw_c) & m);
                format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, 0x{c:x}, {mask}")
            }
        }
    }

    /// A member mask naming the lanes `act` from a register: `%t1`, set just before by the same lanes (so every
    /// lane names the same mask, as PTX requires); none where a 32-bit register cannot name them (lanes past 31)
    /// or the case wants bits past W.
    fn register_mask(&mut self, act: u64) -> Option<String> {
        if self.junk_mask_bits || act >> 32 != 0 {
            return None;
        }
        self.line(&format!("mov.u32 %t1, 0x{act:x}"));
        Some("%t1".into())
    }

    /// A vote where the lanes `act` run: which vote, and whether `.sync` and the member mask are spelt out.
    fn vote(&mut self, mode: u8, d: u8, q: u8, nq: bool, spell: u8, act: u64) {
        let w = self.w;
        let neg = if nq { "!" } else { "" };
        let sync = if spell & 1 == 0 { ".sync" } else { "" };
        let mask = match (act == lane_bits(w), spell >> 1 & 3) {
            (true, 0) => String::new(),
            (_, 1) => format!(", mask={}", mask_text(act, w, self.junk_mask_bits)),
            (_, 3) => format!(
                ", {}",
                self.register_mask(act)
                    .unwrap_or_else(|| mask_text(act, w, self.junk_mask_bits))
            ),
            _ => format!(", {}", mask_text(act, w, self.junk_mask_bits)),
        };
        match mode % 4 {
            3 => self.line(&format!("vote{sync}.ballot.b32 {}, {neg}{}{mask}", r(d), p(q))),
            m => {
                let m = ["all", "any", "uni"][m as usize];
                self.line(&format!("vote{sync}.{m}.pred {}, {neg}{}{mask}", p(d), p(q)));
            }
        }
    }

    /// A `match` where the lanes `act` run: `.all` or `.any`, and whether `.sync` and the member mask are spelt
    /// out.
    fn match_sync(&mut self, s: &Stmt, act: u64) {
        let Stmt::Match {
            all,
            d,
            p: q,
            a,
            bits,
            spell,
        } = s
        else {
            unreachable!("not a match: {s:?}")
        };
        let w = self.w;
        // A few distinct values, so that lanes match.
        self.line(&format!("and.b32 %t0, {}, {}", r(*a), (1 << bits) - 1));
        let sync = if spell & 1 == 0 { ".sync" } else { "" };
        let mask = if act == lane_bits(w) && spell & 2 == 0 {
            String::new()
        } else if spell & 4 != 0
            && let Some(m) = self.register_mask(act)
        {
            format!(", {m}")
        } else {
            format!(", {}", mask_text(act, w, self.junk_mask_bits))
        };
        if *all {
            let out = match q {
                Some(q) => format!("{}|{}", r(*d), p(*q)),
                None => r(*d),
            };
            self.line(&format!("match{sync}.all.b32 {out}, %t0{mask}"));
        } else {
            self.line(&format!("match{sync}.any.b32 {}, %t0{mask}", r(*d)));
        }
    }

    /// `bar.warp.sync`: which lanes it names (on a GPU unguarded and exactly the lanes `known` to run; on the
    /// reference also the whole warp or guarded, which may fault); nothing where the lanes are unknown.
    fn warp_sync(&mut self, g: G, whole: bool, known: Option<u64>) {
        let w = self.w;
        if self.gpu {
            // Unguarded, naming exactly the executing lanes.
            match known {
                Some(act) if whole && act == lane_bits(w) => self.line("bar.warp.sync"),
                Some(act) => self.line(&format!("bar.warp.sync {}", mask_text(act, w, false))),
                None => {}
            }
            return;
        }
        match (known, whole) {
            (_, true) => self.line(&format!("{}bar.warp.sync", guard_text(g))),
            (Some(act), false) => self.line(&format!(
                "{}bar.warp.sync {}",
                guard_text(g),
                mask_text(act, w, self.junk_mask_bits)
            )),
            (None, false) => {}
        }
    }

    /// A block barrier: printed only on a GPU where every thread of the block runs it (`active` is the lanes
    /// at the start); which barrier or reduction.
    fn bar(&mut self, kind: u8, id: u8, d: u8, q: u8, nq: bool, active: Option<u64>) {
        // Every thread of the block, so none has exited or is elsewhere (and the epilogue's shared
        // reads are not what a barrier could reorder).
        if !self.gpu || self.start.is_none() || active != self.start {
            return;
        }
        let neg = if nq { "!" } else { "" };
        let id = id % 2;
        match kind % 4 {
            0 => self.line(&format!("bar.sync {id}")),
            1 => self.line(&format!("bar.red.popc.u32 {}, {id}, {neg}{}", r(d), p(q))),
            k => {
                let op = if k == 2 { "and" } else { "or" };
                self.line(&format!("bar.red.{op}.pred {}, {id}, {neg}{}", p(d), p(q)));
            }
        }
    }

    /// A load into `d`: which buffer and address it reads (in bounds and its own words on a GPU; an unchecked
    /// register index, which may fault, on the reference).
    fn load(&mut self, g: G, d: u8, from: &Mem) {
        let g = guard_text(g);
        let d = r(d);
        match from {
            Mem::Table { index, byte } => {
                self.line(&format!("and.b32 %t0, {}, 15", r(*index)));
                if *byte {
                    self.line("shl.b32 %t0, %t0, 2");
                    self.line(&format!("{g}ld.global.b32 {d}, [tbl + %t0]"));
                } else {
                    self.line(&format!("{g}ld.global.u32 {d}, tbl[%t0]"));
                }
            }
            Mem::FTable { index } => {
                self.line(&format!("and.b32 %t0, {}, 7", r(*index)));
                self.line(&format!("{g}ld.global.f32 {d}, ftab[%t0]"));
            }
            Mem::Own { slot, byte } => {
                let at = self.own(slot, *byte);
                self.line(&format!("{g}ld.global.{} {d}, {at}", if *byte { "b32" } else { "u32" }));
            }
            Mem::Shared { slot } => {
                let at = self.slot(slot, "sh", "%ss", SHARED_SLOTS);
                self.line(&format!("{g}ld.shared.u32 {d}, {at}"));
            }
            // Another lane's atomics may not have happened yet: the thread's own counters.
            Mem::Counter { slot } if self.gpu => {
                let at = self.slot(slot, "cnt", "%ob", COUNTERS);
                self.line(&format!("{g}ld.global.u32 {d}, {at}"));
            }
            Mem::Counter { slot } => {
                let at = self.slot(slot, "cnt", "%wb", COUNTERS);
                self.line(&format!("{g}ld.global.u32 {d}, {at}"));
            }
            Mem::WarpSlot { slot } if self.gpu => {
                let at = self.own(slot, false);
                self.line(&format!("{g}ld.global.u32 {d}, {at}"));
            }
            Mem::WarpSlot { slot } => {
                let at = self.slot(slot, "wsl", "%wb", COUNTERS);
                self.line(&format!("{g}ld.global.u32 {d}, {at}"));
            }
            // No fault on a GPU: the table, in bounds.
            Mem::Raw { index, byte } if self.gpu => {
                self.line(&format!("and.b32 %t0, {}, 15", r(*index)));
                if *byte {
                    self.line("shl.b32 %t0, %t0, 2");
                    self.line(&format!("{g}ld.global.b32 {d}, [tbl + %t0]"));
                } else {
                    self.line(&format!("{g}ld.global.u32 {d}, tbl[%t0]"));
                }
            }
            Mem::Raw { index, byte: false } => self.line(&format!("{g}ld.global.u32 {d}, tbl[{}]", r(*index))),
            Mem::Raw { index, byte: true } => self.line(&format!("{g}ld.global.b32 {d}, [tbl + {} - 8]", r(*index))),
        }
    }

    /// A store of `a`: which buffer and address it writes (the read-only tables and the counters redirected to
    /// writable words; on a GPU no two lanes to one word).
    fn store(&mut self, g: G, a: u8, to: &Mem, b32: bool) {
        let g = guard_text(g);
        let ty = if b32 { "b32" } else { "u32" };
        match to {
            Mem::Shared { slot } => {
                let at = self.slot(slot, "sh", "%ss", SHARED_SLOTS);
                self.line(&format!("{g}st.shared.{ty} {at}, {}", r(a)));
            }
            Mem::Own { slot, byte } => {
                let at = self.own(slot, *byte);
                self.line(&format!("{g}st.global.{ty} {at}, {}", r(a)));
            }
            // The tables are read-only and the counters atomic: store to the own slots instead.
            Mem::Table { index, .. } | Mem::FTable { index } => {
                let at = self.own(&Slot::Reg(*index), false);
                self.line(&format!("{g}st.global.{ty} {at}, {}", r(a)));
            }
            Mem::Raw { index, byte } if self.one_warp && !self.gpu => {
                let at = if *byte {
                    format!("[sh + {}]", r(*index))
                } else {
                    format!("sh[{} + 1]", r(*index))
                };
                self.line(&format!("{g}st.shared.{ty} {at}, {}", r(a)));
            }
            Mem::Raw { index, .. } => {
                let at = self.own(&Slot::Reg(*index), false);
                self.line(&format!("{g}st.global.{ty} {at}, {}", r(a)));
            }
            // Lanes storing to one word: the winner is the highest lane in warpsim, any on a GPU.
            Mem::Counter { slot } | Mem::WarpSlot { slot } if self.gpu => {
                let at = self.own(slot, false);
                self.line(&format!("{g}st.global.{ty} {at}, {}", r(a)));
            }
            Mem::Counter { slot } | Mem::WarpSlot { slot } => {
                let at = self.slot(slot, "wsl", "%wb", COUNTERS);
                self.line(&format!("{g}st.global.{ty} {at}, {}", r(a)));
            }
        }
    }

    /// An atomic or a reduction: which operation and type, and which counters it goes to (the warp's, shared or
    /// global, or on a GPU the thread's own unless its final value is the same in any lane order).
    fn atom(&mut self, s: &Stmt) {
        // (operation, type, global buffer); shared atomics use the u32 counters only.
        const OPS: [(&str, &str, &str); 16] = [
            ("add", "u32", "cnt"),
            ("min", "u32", "cnt"),
            ("max", "u32", "cnt"),
            ("exch", "b32", "cnt"),
            ("cas", "b32", "cnt"),
            ("and", "b32", "cnt"),
            ("or", "b32", "cnt"),
            ("xor", "b32", "cnt"),
            ("add", "s32", "icnt"),
            ("min", "s32", "icnt"),
            ("max", "s32", "icnt"),
            ("add", "f32", "fcnt"),
            ("min", "f32", "fcnt"),
            ("max", "f32", "fcnt"),
            ("exch", "f32", "fcnt"),
            ("cas", "u32", "cnt"),
        ];
        let Stmt::Atom {
            g,
            op,
            d,
            slot,
            shared,
            b,
            c,
        } = s
        else {
            unreachable!("not an atomic: {s:?}")
        };
        let (name, ty, buffer) = OPS[*op as usize % OPS.len()];
        let shared = *shared && buffer == "cnt";
        // On a GPU the lanes' order is not defined: only a `red` whose final value does not depend on
        // it goes to the warp's counters, each counter with one operation (`add`, `min`, `max` or
        // `xor`: each commutes with itself, not with the others), and never shared ones (the
        // epilogue's read of them would race with lanes still running); the rest to the thread's own.
        let gpu_counter = ["add", "min", "max", "xor"].iter().position(|&n| n == name);
        let at = match (shared, self.gpu, gpu_counter) {
            (true, false, _) => self.slot(slot, "scnt", "%ws", COUNTERS),
            (false, false, _) => self.slot(slot, buffer, "%wb", COUNTERS),
            (false, true, Some(k)) if d.is_none() && ty != "f32" => format!("{buffer}[%wb + {k}]"),
            (true, true, _) => self.slot(slot, "scnt", "%os", COUNTERS),
            (false, true, _) => self.slot(slot, buffer, "%ob", COUNTERS),
        };
        let space = if shared { "shared" } else { "global" };
        let (b, c) = (b.typed(ty), c.typed(ty));
        let g = guard_text(*g);
        match d {
            Some(d) if name == "cas" => {
                self.line(&format!("{g}atom.{space}.cas.{ty} {}, {at}, {b}, {c}", r(*d)));
            }
            Some(d) => self.line(&format!("{g}atom.{space}.{name}.{ty} {}, {at}, {b}", r(*d))),
            // `red` has no cas.
            None if name == "cas" => {}
            None => self.line(&format!("{g}red.{space}.{name}.{ty} {at}, {b}")),
        }
    }

    /// An `if` (`else`): the lanes known to run each side and, after the join, whether they reconverge (not
    /// after a return or an exit inside).
    fn if_else(
        &mut self,
        cond: &Cond,
        negated: bool,
        then: &[Stmt],
        els: Option<&[Stmt]>,
        region: Region,
    ) -> Option<u64> {
        let w = self.w;
        let active = region.active;
        let (q, lanes) = self.cond(cond);
        let taken = lanes.map(|l| if negated { !l & lane_bits(w) } else { l });
        let else_label = self.fresh("else");
        let end_label = self.fresh("endif");
        let neg = if negated { "!" } else { "" };
        let target = if els.is_some() { &else_label } else { &end_label };
        self.line(&format!("@{neg}{q} bra {target}"));
        let side = |lanes: Option<u64>| Region {
            active: match (active, lanes) {
                (Some(a), Some(l)) => Some(a & l),
                _ => None,
            },
            ..region
        };
        let then_end = self.block(then, side(taken.map(|t| !t)));
        let else_end = match els {
            Some(els) => {
                self.line(&format!("bra {end_label}"));
                self.label(&else_label);
                self.block(els, side(taken))
            }
            None => side(taken).active,
        };
        self.label(&end_label);
        match (then_end, else_end) {
            // A return inside: the two sides no longer reconverge at the join.
            _ if returns(then) || els.is_some_and(returns) => None,
            (Some(a), Some(b)) => Some(a | b),
            _ if !exits(then) && !els.is_some_and(exits) => active,
            _ => None,
        }
    }

    /// A loop of 0 to 3 trips per lane (its body inlined past the deepest nesting): the lanes after it, unknown
    /// where the body can exit.
    fn loop_stmt(&mut self, trip: u8, body: &[Stmt], region: Region) -> Option<u64> {
        if region.loop_depth >= MAX_LOOP_DEPTH {
            return self.block(body, region);
        }
        let counter = format!("%c{}", region.loop_depth);
        let top = self.fresh("loop");
        let latch = self.fresh("latch");
        let end = self.fresh("endloop");
        self.line(&format!("and.b32 {counter}, {}, 3", r(trip)));
        self.label(&top);
        self.line(&format!("setp.eq.u32 %q, {counter}, 0"));
        self.line(&format!("@%q bra {end}"));
        let inner = Region {
            active: None,
            loop_depth: region.loop_depth + 1,
        };
        self.loops.push((latch.clone(), end.clone()));
        self.block(body, inner);
        self.loops.pop();
        self.label(&latch);
        self.line(&format!("sub.u32 {counter}, {counter}, 1"));
        self.line(&format!("bra {top}"));
        self.label(&end);
        if exits(body) { None } else { region.active }
    }

    /// A break, continue or return: where it branches (nothing for a break or continue outside a loop) and
    /// the lanes after it.
    fn jump(&mut self, kind: u8, cond: &Cond, active: Option<u64>) -> Option<u64> {
        let target = match (kind % 3, self.loops.last()) {
            (0, Some((_, end))) => end.clone(),
            (1, Some((latch, _))) => latch.clone(),
            (2, _) => "done".to_string(),
            _ => return active,
        };
        let (q, lanes) = self.cond(cond);
        self.line(&format!("@{q} bra {target}"));
        // A return leaves like an exit (and nothing after it reconverges); break and continue happen
        // in loops only, where the lanes are unknown anyway.
        match (active, lanes) {
            (Some(a), Some(l)) if kind % 3 == 2 => Some(a & !l),
            _ => None,
        }
    }

    /// A thread's own slot of `scr`: element `%sb + k`, or the byte address of it.
    fn own(&mut self, slot: &Slot, byte: bool) -> String {
        if !byte {
            return self.slot(slot, "scr", "%sb", SLOTS);
        }
        match slot {
            Slot::Fixed(k) => {
                self.line("shl.b32 %t0, %sb, 2");
                format!("[scr + %t0 + {}]", 4 * (u32::from(*k) % SLOTS))
            }
            Slot::Reg(x) => {
                self.line(&format!("and.b32 %t0, {}, {}", r(*x), SLOTS - 1));
                self.line("add.u32 %t0, %t0, %sb");
                self.line("shl.b32 %t0, %t0, 2");
                "[scr + %t0]".into()
            }
        }
    }

    /// Slot `k` of `n` from `base` in `array`, a constant or chosen by data.
    fn slot(&mut self, slot: &Slot, array: &str, base: &str, n: u32) -> String {
        match slot {
            Slot::Fixed(k) => format!("{array}[{base} + {}]", u32::from(*k) % n),
            Slot::Reg(x) => {
                self.line(&format!("and.b32 %t0, {}, {}", r(*x), n - 1));
                self.line(&format!("add.u32 %t0, %t0, {base}"));
                format!("{array}[%t0]")
            }
        }
    }
}

/// A conversion to, from or between 64-bit types, or a 32-bit one with a directed float rounding: `sub` picks
/// it, `keep` its rounding; `dw`/`aw` the 64-bit destination and source, `x` the 32-bit register (source or
/// destination, or both).
fn cvt64(sub: usize, keep: u8, dw: &str, aw: &str, x: &str) -> String {
    let ri = ["rni", "rzi", "rmi", "rpi"][usize::from(keep) % 4];
    let rf = ["", ".rn", ".rz", ".rm", ".rp"][usize::from(keep) % 5];
    let directed = [".rz", ".rm", ".rp"][usize::from(keep) % 3];
    match sub % 26 {
        0 => format!("cvt.{ri}.f64.f64 {dw}, {aw}"),
        1 => format!("cvt.{ri}.s64.f64 {dw}, {aw}"),
        2 => format!("cvt.{ri}.u64.f64 {dw}, {aw}"),
        3 => format!("cvt{rf}.f64.s64 {dw}, {aw}"),
        4 => format!("cvt{rf}.f64.u64 {dw}, {aw}"),
        5 => format!("cvt.u64.s64 {dw}, {aw}"),
        6 => format!("cvt.s64.u64 {dw}, {aw}"),
        7 => format!("cvt.u64.u32 {dw}, {x}"),
        8 => format!("cvt.u64.s32 {dw}, {x}"),
        9 => format!("cvt.s64.u32 {dw}, {x}"),
        10 => format!("cvt.s64.s32 {dw}, {x}"),
        11 => format!("cvt.f64.f32 {dw}, {x}"),
        12 => format!("cvt.{ri}.s64.f32 {dw}, {x}"),
        13 => format!("cvt.{ri}.u64.f32 {dw}, {x}"),
        14 => format!("cvt{rf}.f64.s32 {dw}, {x}"),
        15 => format!("cvt{rf}.f64.u32 {dw}, {x}"),
        16 => format!("cvt.u32.u64 {x}, {aw}"),
        17 => format!("cvt.s32.s64 {x}, {aw}"),
        18 => format!("cvt.u32.s64 {x}, {aw}"),
        19 => format!("cvt.s32.u64 {x}, {aw}"),
        20 => format!("cvt.{ri}.s32.f64 {x}, {aw}"),
        21 => format!("cvt.{ri}.u32.f64 {x}, {aw}"),
        22 => format!("cvt{rf}.f32.f64 {x}, {aw}"),
        23 => format!("cvt{rf}.f32.s64 {x}, {aw}"),
        24 => format!("cvt{rf}.f32.u64 {x}, {aw}"),
        _ => format!(
            "cvt{directed}.f32.{} {x}, {x}",
            if keep & 8 == 0 { "s32" } else { "u32" }
        ),
    }
}

/// Does a block contain an exit (at any depth)?
fn exits(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Exit { .. } => true,
        Stmt::Jump { kind, .. } => kind % 3 == 2,
        Stmt::If { then, els, .. } => exits(then) || els.as_deref().is_some_and(exits),
        Stmt::Loop { body, .. } => exits(body),
        _ => false,
    })
}

/// Does a block contain a return (at any depth)?
fn returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Jump { kind, .. } => kind % 3 == 2,
        Stmt::If { then, els, .. } => returns(then) || els.as_deref().is_some_and(returns),
        Stmt::Loop { body, .. } => returns(body),
        _ => false,
    })
}

impl Case {
    /// Threads per block.
    pub fn block(&self) -> u32 {
        self.warps * self.w - self.missing
    }

    pub fn threads(&self) -> u32 {
        self.grid * self.block()
    }

    /// The program text, named `differential`.
    pub fn source(&self) -> String {
        self.program("differential", &format!("a random program: W = {}", self.w))
    }

    /// The program text, with its kernel name and description.
    pub fn program(&self, name: &str, desc: &str) -> String {
        let w = self.w;
        let threads = self.threads();
        let all_warps = self.grid * self.warps;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the remainder is below the pool's length"
        )]
        let pick = |k: u64| self.pool[(mix(k) % self.pool.len() as u64) as usize];
        let inputs: Vec<String> = (0..u64::from(threads) * REGS as u64)
            .map(|k| pick(k).to_string())
            .collect();
        let table: Vec<String> = (0..16).map(|k| pick(1_000_000 + k).to_string()).collect();
        let mut s = String::new();
        let _ = writeln!(s, ".kernel {name}");
        let _ = writeln!(s, ".desc \"{desc}\"");
        let _ = writeln!(s, ".warp_sizes {w}");
        let _ = writeln!(s, ".param bias = 5");
        let dims = |d: [u32; 3]| match d {
            [x, 1, 1] => x.to_string(),
            [x, y, 1] => format!("{x}, {y}"),
            [x, y, z] => format!("{x}, {y}, {z}"),
        };
        let _ = writeln!(s, ".grid {}", dims(self.grid_dim));
        if self.block_dim[1] * self.block_dim[2] > 1 {
            let _ = writeln!(s, ".block {}", dims(self.block_dim));
        } else if self.missing == 0 {
            let _ = writeln!(s, ".block {} * W", self.warps);
        } else {
            let _ = writeln!(s, ".block {} * W - {}", self.warps, self.missing);
        }
        let _ = writeln!(
            s,
            ".buffer in u32[{}] = 0, [0..] = [{}]",
            inputs.len(),
            inputs.join(", ")
        );
        let _ = writeln!(s, ".buffer tbl u32[16] = 0, [0..] = [{}]", table.join(", "));
        let _ = writeln!(s, ".buffer ftab f32[8] = i * 0.75 - 2.5, [3] = 1e-40, [5] = -0.0");
        let _ = writeln!(s, ".buffer scr u32[{}] = i * 3", threads * SLOTS);
        // The counters: the warps' (from `%wb`), then the threads' own (from `%ob`).
        let counters = (all_warps + threads) * COUNTERS;
        let _ = writeln!(s, ".buffer cnt u32[{counters}] = i");
        let _ = writeln!(s, ".buffer icnt s32[{counters}] = i - 2");
        let _ = writeln!(s, ".buffer fcnt f32[{counters}] = i + 0.5");
        let _ = writeln!(s, ".buffer wsl u32[{}]", all_warps * COUNTERS);
        #[allow(clippy::cast_possible_truncation, reason = "REGS (6) fits a u32")]
        let _ = writeln!(s, ".buffer out u32[{}]", threads * (REGS as u32 + 1));
        let _ = writeln!(s, ".buffer shout u32[{}]", threads * SHARED_SLOTS);
        let _ = writeln!(s, ".buffer scout u32[{counters}]");
        let _ = writeln!(s, ".shared sh u32[{}]", self.block() * SHARED_SLOTS);
        let _ = writeln!(s, ".shared scnt u32[{}]", (self.warps + self.block()) * COUNTERS);
        if self.wide {
            // The 64-bit registers' inputs: the pool (as s64, so that every value is an integer literal of the
            // expression language: a u64 above 2^63 - 1 is its negative twin), and which of its values each
            // thread's register starts as (an index per register and thread: a negative value is two terms, and
            // a statement has at most 1024); scratch, table, counters and outputs: the 32-bit ones' shapes.
            let pool: Vec<String> = self
                .pool64
                .iter()
                .map(|v| match v.cast_signed() {
                    i64::MIN => "(-9223372036854775807 - 1)".to_string(),
                    v => v.to_string(),
                })
                .collect();
            let _ = writeln!(
                s,
                ".buffer pool64 s64[{}] = 0, [0..] = [{}]",
                pool.len(),
                pool.join(", ")
            );
            let picks: Vec<String> = (0..u64::from(threads) * WREGS as u64)
                .map(|k| (mix(2_000_000 + k) % self.pool64.len() as u64).to_string())
                .collect();
            let _ = writeln!(
                s,
                ".buffer in64 u32[{}] = 0, [0..] = [{}]",
                picks.len(),
                picks.join(", ")
            );
            let _ = writeln!(s, ".buffer ftab64 f64[8] = i * 0.75 - 2.5, [3] = 1e-310, [5] = -0.0");
            let _ = writeln!(s, ".buffer scr64 u64[{}] = i * 3", threads * SLOTS);
            let _ = writeln!(s, ".buffer cnt64 u64[{counters}] = i");
            let _ = writeln!(s, ".buffer icnt64 s64[{counters}] = i - 2");
            let _ = writeln!(s, ".buffer fcnt64 f64[{counters}] = i + 0.5");
            #[allow(clippy::cast_possible_truncation, reason = "WREGS (4) fits a u32")]
            let _ = writeln!(s, ".buffer out64 u64[{}]", threads * WREGS as u32);
            let _ = writeln!(s, ".buffer shout64 u64[{}]", threads * SHARED_SLOTS);
            let _ = writeln!(s, ".buffer scout64 u64[{counters}]");
            let _ = writeln!(s, ".shared sh64 u64[{}]", self.block() * SHARED_SLOTS);
            let _ = writeln!(s, ".shared scnt64 u64[{}]", (self.warps + self.block()) * COUNTERS);
            let _ = writeln!(s, ".reg.b64 %w<{WREGS}>, %wt0, %wt1");
            let _ = writeln!(s, ".reg %h0, %h1");
        }
        let _ = writeln!(
            s,
            ".reg %r<{REGS}>, %gid, %lt, %lb, %sb, %ss, %wb, %ws, %ob, %os, %t0, %t1, %c<{MAX_LOOP_DEPTH}>"
        );
        let _ = writeln!(s, ".pred %p<{PREDS}>, %q, %e\n");
        let mut pr = Printer {
            w,
            gpu: self.target == Target::Gpu,
            start: None,
            text: String::new(),
            labels: 0,
            one_warp: self.warps == 1,
            junk_mask_bits: self.junk_mask_bits,
            loops: Vec::new(),
            wide: self.wide,
        };
        // The thread's linear number in its block (`%lt`, x fastest: how warps are cut), the block's in the grid
        // (`%lb`), and the thread's in the launch (`%gid`), from the shapes' special registers; a 1-D launch
        // reads `%tid.x` and `%ctaid.x` alone.
        if self.block_dim[1] * self.block_dim[2] > 1 {
            pr.line("mad.lo.u32 %t0, %tid.z, %ntid.y, %tid.y");
            pr.line("mad.lo.u32 %lt, %t0, %ntid.x, %tid.x");
        } else {
            pr.line("mov.u32 %lt, %tid.x");
        }
        if self.grid_dim[1] * self.grid_dim[2] > 1 {
            pr.line("mad.lo.u32 %t0, %ctaid.z, %nctaid.y, %ctaid.y");
            pr.line("mad.lo.u32 %lb, %t0, %nctaid.x, %ctaid.x");
        } else {
            pr.line("mov.u32 %lb, %ctaid.x");
        }
        if self.block_dim[1] * self.block_dim[2] > 1 {
            pr.line("mul.lo.u32 %t0, %ntid.x, %ntid.y");
            pr.line("mul.lo.u32 %t0, %t0, %ntid.z");
            pr.line("mad.lo.u32 %gid, %lb, %t0, %lt");
        } else {
            pr.line("mad.lo.u32 %gid, %lb, %ntid.x, %lt");
        }
        pr.line(&format!("mul.lo.u32 %t0, %gid, {REGS}"));
        for k in 0..REGS {
            pr.line(&format!("ld.global.u32 %r{k}, in[%t0 + {k}]"));
        }
        if self.wide {
            pr.line(&format!("mul.lo.u32 %t0, %gid, {WREGS}"));
            for k in 0..WREGS {
                pr.line(&format!("ld.global.u32 %t1, in64[%t0 + {k}]"));
                pr.line(&format!("ld.global.b64 %w{k}, pool64[%t1]"));
            }
        }
        pr.line(&format!("mul.lo.u32 %sb, %gid, {SLOTS}"));
        pr.line(&format!("mul.lo.u32 %ss, %lt, {SHARED_SLOTS}"));
        pr.line("mad.lo.u32 %wb, %lb, %nwarpid, %warpid");
        pr.line(&format!("mul.lo.u32 %wb, %wb, {COUNTERS}"));
        pr.line(&format!("mul.lo.u32 %ws, %warpid, {COUNTERS}"));
        pr.line(&format!("add.u32 %ob, %gid, {all_warps}"));
        pr.line(&format!("mul.lo.u32 %ob, %ob, {COUNTERS}"));
        pr.line(&format!("add.u32 %os, %lt, {}", self.warps));
        pr.line(&format!("mul.lo.u32 %os, %os, {COUNTERS}"));
        pr.line("setp.lt.s32 %p0, %r0, %r1");
        pr.line("setp.gt.f32 %p1, %r2, %r3");
        pr.line("setp.ne.u32 %p2, %r4, %laneid");
        // With a partial warp the lanes of the last warp differ from the others': known only with one warp.
        let active = if self.missing == 0 {
            Some(lane_bits(w))
        } else if self.warps == 1 {
            Some(lane_bits(w - self.missing))
        } else {
            None
        };
        pr.start = active;
        pr.block(&self.body, Region { active, loop_depth: 0 });
        // Every live lane stores its registers, its predicates' bits and its shared slots, and the warp's
        // shared counters (every lane the same values).
        pr.line(&format!("mul.lo.u32 %t0, %gid, {}", REGS + 1));
        for k in 0..REGS {
            pr.line(&format!("st.global.u32 out[%t0 + {k}], %r{k}"));
        }
        pr.line("selp.u32 %t1, 1, 0, %p0");
        pr.line("@%p1 or.b32 %t1, %t1, 2");
        pr.line("@%p2 or.b32 %t1, %t1, 4");
        pr.line(&format!("st.global.u32 out[%t0 + {REGS}], %t1"));
        pr.line(&format!("mul.lo.u32 %t0, %gid, {SHARED_SLOTS}"));
        for k in 0..SHARED_SLOTS {
            pr.line(&format!("ld.shared.u32 %t1, sh[%ss + {k}]"));
            pr.line(&format!("st.global.u32 shout[%t0 + {k}], %t1"));
        }
        for (from, to) in [("%ws", "%wb"), ("%os", "%ob")] {
            for k in 0..COUNTERS {
                pr.line(&format!("ld.shared.u32 %t1, scnt[{from} + {k}]"));
                pr.line(&format!("st.global.u32 scout[{to} + {k}], %t1"));
            }
        }
        if self.wide {
            pr.line(&format!("mul.lo.u32 %t0, %gid, {WREGS}"));
            for k in 0..WREGS {
                pr.line(&format!("st.global.u64 out64[%t0 + {k}], %w{k}"));
            }
            pr.line(&format!("mul.lo.u32 %t0, %gid, {SHARED_SLOTS}"));
            for k in 0..SHARED_SLOTS {
                pr.line(&format!("ld.shared.u64 %wt0, sh64[%ss + {k}]"));
                pr.line(&format!("st.global.b64 shout64[%t0 + {k}], %wt0"));
            }
            for (from, to) in [("%ws", "%wb"), ("%os", "%ob")] {
                for k in 0..COUNTERS {
                    pr.line(&format!("ld.shared.b64 %wt0, scnt64[{from} + {k}]"));
                    pr.line(&format!("st.global.u64 scout64[{to} + {k}], %wt0"));
                }
            }
        }
        // A return branches here: the end of the program, which is an exit.
        pr.label("done");
        s.push_str(&pr.text);
        s
    }
}

// ---------------------------------------------------------------------------------------------------------
// Constant expressions, for the printer's round trip.

/// A constant expression, printed with every operation in parentheses (the printer then chooses its own).
#[derive(Clone, Debug)]
pub enum Expr {
    Int(u64),
    Float(u8),
    /// An index into the names in scope.
    Var(u8),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(u8, Box<Expr>, Box<Expr>),
    /// `min` (false) or `max` (true).
    Call(bool, Box<Expr>, Box<Expr>),
}

const EXPR_FLOATS: [&str; 7] = ["0.5", "1e-3", "2.0", "1e20", "3.25", "1e-40", "1_000.5"];
const EXPR_OPS: [&str; 16] = [
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=",
];

/// Expressions; `floats`: float literals allowed (not in integer operands, where they are an assembly error).
#[allow(
    clippy::cast_possible_truncation,
    reason = "EXPR_FLOATS and EXPR_OPS have 7 and 16 entries"
)]
pub fn expr(floats: bool) -> BoxedStrategy<Expr> {
    let leaf = prop_oneof![
        4 => prop_oneof![0u64..=64, 0u64..=u64::from(u32::MAX), 0u64..=i64::MAX as u64].prop_map(Expr::Int),
        u32::from(floats) => (0..EXPR_FLOATS.len() as u8).prop_map(Expr::Float),
        2 => any::<u8>().prop_map(Expr::Var),
    ];
    leaf.prop_recursive(5, 24, 2, |inner| {
        prop_oneof![
            1 => inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            1 => inner.clone().prop_map(|e| Expr::Not(Box::new(e))),
            4 => (0..EXPR_OPS.len() as u8, inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| Expr::Bin(op, Box::new(a), Box::new(b))),
            1 => (any::<bool>(), inner.clone(), inner).prop_map(|(max, a, b)| Expr::Call(max, Box::new(a), Box::new(b))),
        ]
    })
    .boxed()
}

impl Expr {
    /// The text, with `names` the variables in scope.
    pub fn text(&self, names: &[&str]) -> String {
        match self {
            Expr::Int(v) if v.is_multiple_of(3) && u32::try_from(*v).is_ok() => format!("0x{v:x}"),
            Expr::Int(v) => v.to_string(),
            Expr::Float(k) => EXPR_FLOATS[*k as usize % EXPR_FLOATS.len()].into(),
            Expr::Var(k) => names[*k as usize % names.len()].into(),
            // `--x` might lex as something else: a unary operand in parentheses.
            Expr::Neg(e) => format!("-({})", e.text(names)),
            Expr::Not(e) => format!("~({})", e.text(names)),
            Expr::Bin(op, a, b) => format!(
                "({} {} {})",
                a.text(names),
                EXPR_OPS[*op as usize % EXPR_OPS.len()],
                b.text(names)
            ),
            Expr::Call(max, a, b) => format!(
                "{}({}, {})",
                if *max { "max" } else { "min" },
                a.text(names),
                b.text(names)
            ),
        }
    }
}

/// A program whose directives and operands hold the given expressions (it need not launch: the round trip
/// only parses and prints).
pub fn expression_program(any: &[Expr], ints: &[Expr]) -> String {
    let mut s = String::from(".kernel expressions\n.param k = 3\n");
    let top = ["W", "k"];
    let init = ["W", "k", "i", "len"];
    for (n, e) in any.iter().enumerate() {
        let _ = writeln!(s, ".param e{n} = {}", e.text(&top));
        let _ = writeln!(s, ".require {}, \"e{n}\"", e.text(&top));
        let _ = writeln!(s, ".buffer b{n} f32[4] = {}", e.text(&init));
    }
    s.push_str(".buffer u u32[4]\n.reg %r, %s\n.pred %p\n");
    for e in ints {
        let t = e.text(&top);
        let _ = writeln!(s, "        add.u32 %r, %r, {t}");
        let _ = writeln!(s, "        ld.global.u32 %s, u[%r + {t}]");
        let _ = writeln!(s, "        st.global.u32 u[%r - {t}], %s");
        let _ = writeln!(s, "        ld.global.b32 %s, [u + %r + {t}]");
        let _ = writeln!(s, "        shfl.sync.idx.b32 %s|%p, %r, {t}, width=W, mask={t}");
        let _ = writeln!(s, "        shfl.sync.up.b32 %s, %r, 1, {t}, {t}");
        let _ = writeln!(s, "        vote.sync.ballot.b32 %s, %p, mask={t}");
        let _ = writeln!(s, "        bar.warp.sync {t}");
    }
    s
}
