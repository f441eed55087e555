//! Instantiation: an assembled [`Program`] plus a warp size and parameter values → a [`Kernel`] ready to run.
//!
//! This is where everything symbolic becomes concrete: `W` and `.param`s are substituted, launch shape and
//! buffer lengths evaluated, buffers initialised, and each instruction decoded into a compact form whose
//! immediates are already bit patterns of the right type, so the executor never looks at names or expressions.

use crate::config::Config;
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use smallvec::{SmallVec, smallvec};
use std::fmt::Write as _;
#[allow(
    clippy::wildcard_imports,
    reason = "the decoder reads nearly every node type of the AST"
)]
use warpsim_isa::ast::*;
use warpsim_isa::cfg;
use warpsim_isa::expr::{ConstExpr, EvalError, Value};
use warpsim_isa::{Diagnostic, Span};

/// Largest buffer, in elements, a program may declare (1 GiB of 4-byte words); also the limit for all buffers
/// together.
pub const MAX_BUFFER_ELEMENTS: u64 = 1 << 28;
/// Largest grid: blocks in all, and the grid's x size (CUDA's `maxGridSize[0]`).
pub const MAX_GRID: u64 = (1 << 31) - 1;
/// Largest y and z sizes of a grid (CUDA's `maxGridSize[1]` and `[2]` on sm_90).
pub const MAX_GRID_YZ: u64 = 65535;
/// Largest x, y and z sizes of a block (CUDA's `maxThreadsDim` on sm_90); the threads of a block in all are
/// limited by the machine's `max_threads_per_block`.
pub const MAX_BLOCK_DIM: [u64; 3] = [1024, 1024, 64];

/// A launch shape, CUDA's `dim3`: sizes in x, y and z (each at least 1); a 1-D shape has `y` = `z` = 1.
///
/// Threads of a block, and blocks of a grid, are numbered linearly x fastest: `x + y·X + z·X·Y`. Warps are
/// cut from the block's linear thread numbers (warp = linear / W, lane = linear % W), and blocks are dealt to
/// the SMs in linear order, as on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    /// A launch shape as written: one to three whole numbers separated by `x`, x first (`8`, `8x4`, `8x4x2`), as
    /// `sim run --grid`/`--block` and the playground take it. A 1-D `0` passes (the
    /// launch says it is out of range, with the limits); a zero component of a 2-D or 3-D shape does not.
    pub fn parse(text: &str) -> Result<Dim3, String> {
        const HINT: &str = "a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`";
        let parts: Vec<&str> = text.split(['x', 'X']).collect();
        if parts.len() > 3 {
            return Err(format!("`{text}` has {} components; {HINT}", parts.len()));
        }
        let mut comps = [1u32; 3];
        for (k, part) in parts.iter().enumerate() {
            let axis = ["x", "y", "z"][k];
            if part.is_empty() {
                return Err(format!("`{text}` has no {axis} component; {HINT}"));
            }
            if !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{part}` is not a whole number; {HINT}"));
            }
            comps[k] = part
                .parse()
                .map_err(|_| format!("{axis} `{part}` is too large (at most {}); {HINT}", u32::MAX))?;
            if comps[k] == 0 && parts.len() > 1 {
                return Err(format!(
                    "`{text}`: {axis} is 0; every component of a shape is at least 1"
                ));
            }
        }
        Ok(Dim3::new(comps[0], comps[1], comps[2]))
    }

    pub const fn new(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    /// A 1-D shape of `x`.
    pub const fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }

    /// Every thread (or block) of the shape: x·y·z.
    pub fn count(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }

    /// How many components matter: 3 when z > 1, else 2 when y > 1, else 1.
    pub fn rank(self) -> usize {
        if self.z > 1 {
            3
        } else if self.y > 1 {
            2
        } else {
            1
        }
    }

    /// The (x, y, z) index of the thread (or block) with linear number `linear` (x fastest).
    pub fn index(self, linear: u32) -> [u32; 3] {
        let x = linear % self.x;
        let rest = linear / self.x;
        [x, rest % self.y, rest / self.y]
    }

    /// The index of `linear` as its components that matter: `(3,1)` in a 2-D shape, `(3,1,0)` in a 3-D one
    /// (a 1-D shape's index is the number itself, without parentheses).
    pub fn label(self, linear: u32) -> String {
        let [x, y, z] = self.index(linear);
        match self.rank() {
            1 => x.to_string(),
            2 => format!("({x},{y})"),
            _ => format!("({x},{y},{z})"),
        }
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Dim3 {
        Dim3::x(x)
    }
}

/// `8`, `8x4` or `8x4x2`: the components that matter (as `--grid` and `--block` take them).
impl std::fmt::Display for Dim3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.rank() {
            1 => write!(f, "{}", self.x),
            2 => write!(f, "{}x{}", self.x, self.y),
            _ => write!(f, "{}x{}x{}", self.x, self.y, self.z),
        }
    }
}
/// Most bytes of registers the warps resident at once may hold (each register is a row of 64 lanes of 4 bytes,
/// whatever the warp size): 1 GiB, as global memory.
pub const MAX_REGISTER_BYTES: u64 = 1 << 30;

/// What [`instantiate_with`] lets a launch allocate, checked before anything is allocated. The default is the
/// machine's: [`MAX_BUFFER_ELEMENTS`]. An embedder that runs untrusted programs in bulk (the fuzzer) sets less.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most elements of one buffer, and of all buffers together.
    pub buffer_elements: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            buffer_elements: MAX_BUFFER_ELEMENTS,
        }
    }
}

/// A source operand, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    /// A register row (a 64-bit operand: this row and the next).
    Reg(u16),
    /// The bit pattern in the instruction's type.
    Imm(u32),
    Special(Special),
    /// A 64-bit immediate: its index in [`Kernel::consts`] (so that a source operand stays 8 bytes).
    Const(u32),
}

/// What a 64-bit (or mixed-width) instruction computes, with its types folded in. Each reads up to three
/// operands and writes one register; [`Wide::shape`] says which are 64 bits wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// `mov` of 64 bits.
    Mov,
    /// `mov.b64 d, {lo, hi}`.
    Pack,
    Add,
    Sub,
    Mul,
    /// `mul.hi.u64` / `.s64`.
    MulHiU,
    MulHiS,
    /// `mul.hi.u32` / `.s32`: 32-bit operands and result.
    MulHi32U,
    MulHi32S,
    /// `mul.wide.u32` / `.s32`: 32-bit operands, 64-bit product.
    MulWideU,
    MulWideS,
    DivU,
    DivS,
    RemU,
    RemS,
    MinU,
    MinS,
    MaxU,
    MaxS,
    And,
    Or,
    Xor,
    /// Shifts: the amount is a 32-bit operand.
    Shl,
    ShrU,
    ShrS,
    Not,
    NegI,
    AbsI,
    /// `mad.lo.{u64,s64}`.
    Mad,
    /// `mad.hi.{u64,s64}` / `mad.hi.{u32,s32}`.
    MadHiU,
    MadHiS,
    MadHi32U,
    MadHi32S,
    /// `mad.wide.{u32,s32}`: 32-bit `a`, `b`, 64-bit `c` and result.
    MadWideU,
    MadWideS,
    AddF,
    SubF,
    MulF,
    DivF,
    MinF,
    MaxF,
    NegF,
    AbsF,
    FmaF,
    /// `sqrt.rn.f64`.
    SqrtF,
    /// `sqrt.rn.f32`: 32-bit operand and result.
    Sqrt32,
    /// `popc.b64`, `clz.b64`: a 64-bit operand, a 32-bit count.
    Popc64,
    Clz64,
    /// `brev.b64`.
    Brev64,
    /// `bfe.{u32,s32,u64,s64} d, a, pos, len`: a bit field of `a`, zero- or sign-extended (`pos`, `len`: u32).
    Bfe {
        signed: bool,
        wide: bool,
    },
    /// `bfind[.shiftamt].{u32,s32,u64,s64} d, a`: the most significant non-sign bit, in 32 bits.
    Bfind {
        signed: bool,
        wide: bool,
        shiftamt: bool,
    },
    /// `prmt.b32 d, a, b, c` (the default mode): four bytes picked from {b, a}.
    Prmt,
    /// `fns.b32 d, mask, base, offset`: the `offset`-th set bit of `mask` from `base`.
    Fns,
    /// `dp4a`, `dp2a` (`TernaryOp::Dp4a`, `Dp2a`: `op` says which and the operands' signedness) and `lop3`
    /// (`TernaryOp::Lop3`, its table): `alu::dot`.
    Dot {
        op: TernaryOp,
    },
    /// `cvt` where one side is 64 bits wide, or with a directed float rounding (`rz`, `rm`, `rp`).
    Cvt {
        to: Ty,
        from: Ty,
        rounding: Rounding,
    },
    /// `copysign.{f32,f64} d, a, b`: `b` with `a`'s sign bit.
    CopySign {
        wide: bool,
    },
    /// IEEE arithmetic rounded towards zero, minus or plus infinity (`add.rz.f32`, `fma.rm.f64`, …), on f64
    /// (`wide`) or f32; with `ftz` (f32), PTX's `.ftz` forms (`alu::rounded_ftz32`).
    Rounded {
        op: RoundedOp,
        rounding: Rounding,
        wide: bool,
        ftz: bool,
    },
    /// The special-function unit's approximations (`rcp.approx.ftz.f32`, `ex2.approx.f32`, `div.full.f32`,
    /// `rsqrt.approx.ftz.f64`, …: `crate::sfu`).
    Approx {
        op: ApproxOp,
        ftz: bool,
        wide: bool,
    },
    /// 16-bit floating point (`add.f16`, `fma.rn.bf16x2`, `cvt.rn.f16.f32`, …: `alu::half`), on 32-bit rows.
    Half {
        op: HalfOp,
        bf16: bool,
        x2: bool,
    },
}

impl Wide {
    /// Whether the result and the operands `a`, `b`, `c` are 64 bits wide.
    pub fn shape(self) -> (bool, [bool; 3]) {
        match self {
            Wide::Pack | Wide::MulWideU | Wide::MulWideS => (true, [false, false, false]),
            Wide::MulHi32U | Wide::MulHi32S | Wide::MadHi32U | Wide::MadHi32S | Wide::Sqrt32 => {
                (false, [false, false, false])
            }
            Wide::MadWideU | Wide::MadWideS => (true, [false, false, true]),
            Wide::Popc64 | Wide::Clz64 => (false, [true, false, false]),
            Wide::Bfe { wide, .. } => (wide, [wide, false, false]),
            Wide::Bfind { wide, .. } => (false, [wide, false, false]),
            Wide::Prmt | Wide::Fns | Wide::Dot { .. } | Wide::Half { .. } => (false, [false, false, false]),
            Wide::Shl | Wide::ShrU | Wide::ShrS => (true, [true, false, false]),
            Wide::Cvt { to, from, .. } => (to.wide(), [from.wide(), false, false]),
            Wide::CopySign { wide } | Wide::Rounded { wide, .. } | Wide::Approx { wide, .. } => (wide, [wide; 3]),
            _ => (true, [true, true, true]),
        }
    }

    /// How many of `a`, `b`, `c` it reads.
    pub fn arity(self) -> usize {
        match self {
            Wide::Mov
            | Wide::Not
            | Wide::NegI
            | Wide::AbsI
            | Wide::NegF
            | Wide::AbsF
            | Wide::SqrtF
            | Wide::Sqrt32
            | Wide::Popc64
            | Wide::Clz64
            | Wide::Brev64
            | Wide::Bfind { .. }
            | Wide::Cvt { .. } => 1,
            Wide::Mad
            | Wide::MadHiU
            | Wide::MadHiS
            | Wide::MadHi32U
            | Wide::MadHi32S
            | Wide::MadWideU
            | Wide::MadWideS
            | Wide::FmaF
            | Wide::Bfe { .. }
            | Wide::Prmt
            | Wide::Fns
            | Wide::Dot { .. } => 3,
            Wide::Rounded { op, .. } => op.arity(),
            Wide::Approx { op, .. } => op.arity(),
            Wide::Half { op, x2, .. } => op.arity(x2),
            _ => 2,
        }
    }

    /// An IEEE division, reciprocal or square root, which the GPU computes on a slow path for some operands.
    pub fn may_leave_fast_path(self) -> bool {
        matches!(
            self,
            Wide::DivF
                | Wide::SqrtF
                | Wide::Sqrt32
                | Wide::Rounded {
                    op: RoundedOp::Div | RoundedOp::Rcp | RoundedOp::Sqrt,
                    ..
                }
        )
    }

    /// A division, reciprocal or square root with a directed rounding for which ptxas calls a subroutine whatever
    /// the operands (`timing.slow_paths.*_directed`): every such division, an f64 reciprocal or square root, and an
    /// f32 square root (which otherwise takes `sqrt.rn.f32`'s slow path). An f32 reciprocal is as fast as `rcp.rn`,
    /// and `rcp.rn` calls none.
    pub fn calls_subroutine(self) -> bool {
        match self {
            Wide::Rounded {
                op: RoundedOp::Div | RoundedOp::Sqrt,
                rounding,
                ..
            } => rounding != Rounding::NearestFloat,
            Wide::Rounded {
                op: RoundedOp::Rcp,
                rounding,
                wide,
                ..
            } => wide && rounding != Rounding::NearestFloat,
            _ => false,
        }
    }

    /// Whether integer division by zero can fault.
    pub fn divides(self) -> bool {
        matches!(self, Wide::DivU | Wide::DivS | Wide::RemU | Wide::RemS)
    }
}

/// The member mask of a warp-synchronous instruction (`shfl.sync`, `vote.sync`, `match.sync`, `bar.warp.sync`):
/// a constant, cut to the warp's lanes when decoded, or a register (or special register) that each lane reads,
/// whose 32 bits name lanes 0-31 (PTX's membermask is a `.b32`: at `W = 64` a register names no lane above 31).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Member {
    Lanes(u64),
    Reg(Src),
}

impl Member {
    /// The mask `lane` names.
    #[inline]
    pub(crate) fn of_lane(self, rf: &RegisterFile, lane: u32, ctx: &LaneCtx) -> u64 {
        match self {
            Member::Lanes(m) => m,
            Member::Reg(s) => u64::from(rf.read(s, lane, ctx)) & ctx.full,
        }
    }

    /// The lanes the `exec` lanes name: the constant, or the union of their masks. PTX requires every lane to
    /// name the same mask (an instruction whose lanes differ is undefined: warpsim takes the union, and
    /// `--check sync` reports it).
    #[inline(always)]
    pub(crate) fn lanes(self, rf: &RegisterFile, ctx: &LaneCtx, exec: u64) -> u64 {
        match self {
            Member::Lanes(m) => m,
            Member::Reg(_) => {
                let mut m = 0;
                for_lanes(exec, |lane| m |= self.of_lane(rf, lane, ctx));
                m
            }
        }
    }
}

/// Binary operations, with the type folded in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    AddI,
    SubI,
    MulI,
    DivS,
    DivU,
    RemS,
    RemU,
    MinS,
    MinU,
    MaxS,
    MaxU,
    AddF,
    SubF,
    MulF,
    DivF,
    MinF,
    MaxF,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Un {
    NegI,
    NegF,
    AbsI,
    AbsF,
    Not,
    Popc,
    Clz,
    Brev,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tern {
    MadI,
    FmaF,
}

/// How `setp` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpClass {
    Signed,
    Unsigned,
    Float,
    /// f32 with subnormal operands compared as zeros (`setp.ftz`).
    FloatFtz,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    /// f32 → s32 / u32 with rounding (saturating; NaN → 0, as PTX).
    F2S(Rounding),
    F2U(Rounding),
    /// s32 / u32 → f32, round to nearest.
    S2F,
    U2F,
    /// f32 → integral f32.
    F2F(Rounding),
    /// s32 ↔ u32: the bits unchanged.
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "independent flags of one operand, read on the issue path as plain bytes"
)]
pub struct DAddr {
    /// Shared memory of the block (else global memory). For a flat access as decoded: its space is shared; as
    /// located (the access an [`crate::execute`] outcome carries): the lanes reached shared memory.
    pub shared: bool,
    /// A flat access (`[%rd + disp]`) and its state space; [`Flat::No`] for `buf[i]` and `[buf + off]`.
    pub flat: Flat,
    /// A flat access whose base register is 64 bits wide (else a 32-bit offset, zero-extended).
    pub base64: bool,
    /// As located: the lanes reached the thread's local memory (the words are in the warp's local storage).
    pub local: bool,
    /// A 64-bit access: two words per lane (the low one first), 8-byte aligned.
    pub wide: bool,
    /// Index into [`Kernel::buffers`] or [`Kernel::shared`].
    pub buffer: u16,
    pub byte: bool,
    /// An 8- or 16-bit access (`ld.global.u8`, `st.shared.b16`): its bytes, and for a load whether they are
    /// sign-extended. Only with a byte or flat address; the lane's word is the one that holds the bytes.
    pub narrow: Option<Narrow>,
    pub base: Option<Src>,
    pub disp: i64,
}

/// The state space of a flat access ([`DAddr::flat`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flat {
    /// Not a flat access.
    No,
    Global,
    Shared,
    Local,
    Generic,
}

/// Functional-unit class: selects the latency and issue interval in [`crate::config::Units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Alu,
    Fma,
    Convert,
    /// 32-bit divide and remainder by a constant, or by a register its loop does not change.
    IntDiv,
    /// 32-bit unsigned divide and remainder by a register computed where it is used (the whole sequence).
    IntDivReg,
    /// Likewise, signed.
    IntDivRegS,
    /// 64-bit unsigned divide and remainder (a subroutine on hardware: the warp is held).
    IntDiv64,
    /// 64-bit signed divide and remainder (likewise).
    IntDiv64S,
    Fp32Div,
    /// f64 add, mul, fma, min/max (the FP64 pipe).
    Fp64,
    /// f64 divide (an instruction sequence on hardware).
    Fp64Div,
    /// f32 reciprocal, `rcp.rn` and its directed forms (a sequence on hardware).
    Fp32Rcp,
    /// f64 reciprocal, `rcp.rn` (a sequence on hardware).
    Fp64Rcp,
    /// Square roots, f64 (sequences on hardware).
    Sqrt,
    /// Square roots, f32 (a sequence on hardware).
    Sqrt32,
    /// The special-function unit's approximations (`rcp.approx.ftz`, `ex2.approx.ftz`, …: one `MUFU` instruction).
    Mufu,
    /// A `MUFU` with the instructions ptxas puts around it (the forms without `.ftz`, the divisions; each priced
    /// by `config::MufuSequences`): `rcp.approx.f32`.
    MufuRcp,
    /// `rsqrt`, `sqrt`, `lg2` `.approx.f32`.
    MufuRsqrtSqrtLg2,
    /// `ex2.approx.f32`.
    MufuEx2,
    /// `sin`, `cos` `.approx[.ftz].f32` (the multiply by 1/(2π) before the `MUFU`).
    MufuSinCos,
    /// `div.approx.ftz.f32`.
    MufuDivFtz,
    /// `div.approx.f32`.
    MufuDiv,
    /// `div.full[.ftz].f32`.
    MufuDivFull,
    /// A shuffle whose lane or offset is an immediate (or a register holding one constant).
    Shuffle,
    /// A shuffle whose lane or offset is a register.
    ShuffleReg,
    SharedLoad,
    SharedStore,
    SharedAtomic,
    /// Shared `atom`/`red` `.add`/`.and`/`.or`/`.xor`/`.min`/`.max` on 64 bits: no sm_90 instruction does them, so
    /// the compiled code loops on `ATOMS.CAST.SPIN.64` (the warp is held).
    SharedAtomicCas,
    GlobalLoad,
    GlobalStore,
    GlobalAtomic,
    /// Global f32 atomic min/max: a compare-and-swap loop on hardware (the warp is held).
    GlobalAtomicCas,
    /// Barriers: the warp waits until release.
    Barrier,
    Branch,
    Clock,
    /// CUDA's `printf`: a call of the driver's `vprintf`, which the warp runs to its end (the warp is held).
    Printf,
}

/// Execution pipes: classes that share hardware share a pipe (its issue interval, and forwarding within it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    Alu = 0,
    Fma,
    /// Conversions and the division sequences.
    Sfu,
    /// Double precision.
    Fp64,
    Shuffle,
    /// The SM's shared-memory pipe (loads, stores, atomics), shared by its sub-partitions.
    Shared,
    /// The SM's L1/global load-store pipe, shared by its sub-partitions.
    Global,
    /// Global atomics (performed at L2), per SM.
    GlobalAtomic,
    Barrier,
    Branch,
    Clock,
}

impl Pipe {
    pub const COUNT: usize = 11;

    /// One pipe per SM rather than per sub-partition.
    pub fn per_sm(self) -> bool {
        matches!(self, Pipe::Shared | Pipe::Global | Pipe::GlobalAtomic)
    }
}

impl Unit {
    pub fn pipe(self) -> Pipe {
        match self {
            Unit::Alu => Pipe::Alu,
            Unit::Fma => Pipe::Fma,
            Unit::Convert
            | Unit::IntDiv
            | Unit::IntDivReg
            | Unit::IntDivRegS
            | Unit::IntDiv64
            | Unit::IntDiv64S
            | Unit::Fp32Div
            | Unit::Fp64Div
            | Unit::Fp32Rcp
            | Unit::Fp64Rcp
            | Unit::Sqrt
            | Unit::Sqrt32
            | Unit::Mufu
            | Unit::MufuRcp
            | Unit::MufuRsqrtSqrtLg2
            | Unit::MufuEx2
            | Unit::MufuSinCos
            | Unit::MufuDivFtz
            | Unit::MufuDiv
            | Unit::MufuDivFull => Pipe::Sfu,
            Unit::Fp64 => Pipe::Fp64,
            Unit::Shuffle | Unit::ShuffleReg => Pipe::Shuffle,
            Unit::SharedLoad | Unit::SharedStore | Unit::SharedAtomic | Unit::SharedAtomicCas => Pipe::Shared,
            Unit::GlobalLoad | Unit::GlobalStore => Pipe::Global,
            Unit::GlobalAtomic | Unit::GlobalAtomicCas => Pipe::GlobalAtomic,
            Unit::Barrier => Pipe::Barrier,
            Unit::Branch => Pipe::Branch,
            Unit::Clock => Pipe::Clock,
            Unit::Printf => Pipe::Global,
        }
    }

    /// The hardware runs this class as a subroutine or a loop of its own (64-bit division, the f32 atomic
    /// min/max compare-and-swap loop): the warp issues nothing else until it is done.
    #[inline(always)]
    pub fn holds_warp(self) -> bool {
        matches!(
            self,
            Unit::IntDiv64 | Unit::IntDiv64S | Unit::GlobalAtomicCas | Unit::SharedAtomicCas | Unit::Printf
        )
    }

    /// A `MUFU` with instructions around it: `units.mufu` and the form's `units.mufu_sequences` (out of line: the
    /// other classes' timing is a field read).
    #[cold]
    #[inline(never)]
    fn mufu_sequence(self, u: &crate::config::Units) -> crate::config::Unit {
        let s = &u.mufu_sequences;
        u.mufu.plus(match self {
            Unit::MufuRcp => s.rcp,
            Unit::MufuRsqrtSqrtLg2 => s.rsqrt_sqrt_lg2,
            Unit::MufuEx2 => s.ex2,
            Unit::MufuSinCos => s.sin_cos,
            Unit::MufuDivFtz => s.div_ftz,
            Unit::MufuDiv => s.div,
            _ => s.div_full,
        })
    }

    /// This class's latency and interval in `units`.
    pub fn timing(self, u: &crate::config::Units) -> crate::config::Unit {
        match self {
            Unit::Alu => u.alu,
            Unit::Fma => u.fma,
            Unit::Convert => u.convert,
            Unit::IntDiv => u.int_div,
            Unit::IntDivReg => u.int_div_reg,
            Unit::IntDivRegS => u.int_div_reg_signed,
            Unit::IntDiv64 => u.int_div64,
            Unit::IntDiv64S => u.int_div64_signed,
            Unit::Fp32Div => u.fp32_div,
            Unit::Fp64 => u.fp64,
            Unit::Fp64Div => u.fp64_div,
            Unit::Fp32Rcp => u.fp32_rcp,
            Unit::Fp64Rcp => u.fp64_rcp,
            Unit::Sqrt => u.sqrt,
            Unit::Sqrt32 => u.fp32_sqrt,
            Unit::Mufu => u.mufu,
            Unit::MufuRcp
            | Unit::MufuRsqrtSqrtLg2
            | Unit::MufuEx2
            | Unit::MufuSinCos
            | Unit::MufuDivFtz
            | Unit::MufuDiv
            | Unit::MufuDivFull => self.mufu_sequence(u),
            Unit::Shuffle => u.shuffle,
            Unit::ShuffleReg => u.shuffle_reg,
            Unit::SharedLoad => u.shared_load,
            Unit::SharedStore => u.shared_store,
            Unit::SharedAtomic => u.shared_atomic,
            Unit::SharedAtomicCas => u.shared_atomic_cas,
            Unit::GlobalLoad => u.global_load,
            Unit::GlobalStore => u.global_store,
            Unit::GlobalAtomic => u.global_atomic,
            Unit::GlobalAtomicCas => u.global_atomic_cas,
            Unit::Printf => u.printf,
            Unit::Barrier => u.barrier,
            Unit::Branch => u.branch,
            Unit::Clock => u.clock,
        }
    }
}

/// `atom`/`red` operations with the type folded in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    AddI,
    AddF,
    /// 64-bit: `add.u64`, `add.f64`, `min`/`max.{u64,s64}`, `exch`/`cas`/`and`/`or`/`xor.b64`.
    AddI64,
    AddF64,
    MinS64,
    MinU64,
    MaxS64,
    MaxU64,
    Exch64,
    Cas64,
    And64,
    Or64,
    Xor64,
    MinS,
    MinU,
    MinF,
    MaxS,
    MaxU,
    MaxF,
    Exch,
    Cas,
    And,
    Or,
    Xor,
    Inc,
    Dec,
}

impl Atom {
    /// A 64-bit atomic.
    pub fn wide(self) -> bool {
        matches!(
            self,
            Atom::AddI64
                | Atom::AddF64
                | Atom::MinS64
                | Atom::MinU64
                | Atom::MaxS64
                | Atom::MaxU64
                | Atom::Exch64
                | Atom::Cas64
                | Atom::And64
                | Atom::Or64
                | Atom::Xor64
        )
    }
}

/// What a barrier computes besides waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DBar {
    Sync,
    /// `bar.arrive`: counted, not waiting.
    Arrive,
    Popc(u16),
    And(u16),
    Or(u16),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DOp {
    Mov {
        d: u16,
        a: Src,
    },
    Un {
        f: Un,
        d: u16,
        a: Src,
    },
    Bin {
        f: Bin,
        d: u16,
        a: Src,
        b: Src,
    },
    Tern {
        f: Tern,
        d: u16,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        class: CmpClass,
        p: u16,
        a: Src,
        b: Src,
    },
    PredLogic {
        op: PredLogicOp,
        d: u16,
        a: (u16, bool),
        b: Option<(u16, bool)>,
    },
    Selp {
        d: u16,
        a: Src,
        b: Src,
        p: u16,
    },
    Cvt {
        f: Conv,
        d: u16,
        a: Src,
    },
    /// A 64-bit or mixed-width operation ([`Wide`]); unused operands are `Src::Imm(0)`.
    Wide {
        f: Wide,
        d: u16,
        a: Src,
        b: Src,
        c: Src,
    },
    /// The carry chain ([`warpsim_isa::Op::Carry`]): `d = a OP b [+ c] + cin`, the carry out into `cout`; 64-bit
    /// operands with `wide`, a signed high product with `signed`. Unused `c` is `Src::Imm(0)`.
    Carry {
        f: CarryOp,
        signed: bool,
        wide: bool,
        d: u16,
        a: Src,
        b: Src,
        c: Src,
        cin: Option<u16>,
        cout: Option<u16>,
    },
    /// `setp` on 64-bit operands.
    Setp64 {
        cmp: Cmp,
        class: CmpClass,
        p: u16,
        a: Src,
        b: Src,
    },
    /// `selp` of 64-bit values.
    Selp64 {
        d: u16,
        a: Src,
        b: Src,
        p: u16,
    },
    /// `mov.b64 {lo, hi}, a`.
    Unpack {
        lo: u16,
        hi: u16,
        a: Src,
    },
    /// `bfi.{b32,b64} d, a, b, pos, len` (`wide`: `.b64`).
    Bfi {
        wide: bool,
        d: u16,
        a: Src,
        b: Src,
        pos: Src,
        len: Src,
    },
    Ld {
        d: u16,
        addr: DAddr,
    },
    St {
        addr: DAddr,
        a: Src,
    },
    Shfl {
        mode: ShflMode,
        d: u16,
        p: Option<u16>,
        a: Src,
        b: Src,
        /// PTX's `c` as a constant: the clamp value and the segment mask (each below the warp size), or
        /// `from`: a register each lane reads it from.
        clamp: u8,
        segmask: u8,
        from: Option<Src>,
        member: Member,
    },
    Atom {
        f: Atom,
        d: Option<u16>,
        addr: DAddr,
        b: Src,
        c: Option<Src>,
    },
    Bar {
        kind: DBar,
        id: Src,
        count: Option<Src>,
        pred: Option<(u16, bool)>,
    },
    BarWarp {
        mask: Member,
    },
    Vote {
        mode: VoteMode,
        d: u16,
        a: (u16, bool),
        mask: Member,
    },
    Activemask {
        d: u16,
    },
    Match {
        all: bool,
        d: u16,
        p: Option<u16>,
        a: Src,
        mask: Member,
    },
    /// `redux.sync`: `op` over the members' `a` (`signed`: `.s32` `min`/`max`).
    Redux {
        op: ReduxOp,
        signed: bool,
        d: u16,
        a: Src,
        mask: Member,
    },
    /// CUDA's `printf` ([`warpsim_isa::Op::Printf`]): the format's and the arguments' generic addresses (64 bits).
    Printf {
        d: u16,
        fmt: Src,
        args: Src,
    },
    /// CUDA's failed `assert` ([`warpsim_isa::Op::AssertFail`]): the C strings' generic addresses and the line.
    AssertFail {
        message: Src,
        file: Src,
        line: Src,
        function: Src,
    },
    Bra {
        target: u32,
    },
    Exit,
    Nop,
}

/// A decoded instruction.
#[derive(Clone, Debug)]
pub struct DInstr {
    pub guard: Option<(u16, bool)>,
    pub op: DOp,
    pub unit: Unit,
    /// Registers read (scoreboard). (Boxed slices: the issue loop walks them with no test of where they live.)
    pub reads: Box<[u16]>,
    /// Predicates read (including the guard).
    pub pred_reads: Box<[u16]>,
    /// Register written (a 64-bit register: its first row).
    pub write: Option<u16>,
    /// A second register written (`mov.b64 {lo, hi}, a` writes two).
    pub write2: Option<u16>,
    pub pred_write: Option<u16>,
    /// For a branch: where split lanes reconverge (`len` = at exit).
    pub reconverge: u32,
    /// The value type of the result (for traces).
    pub ty: Ty,
    /// What the compiler's scheduling needs to know of it ([`sched`]: flags).
    pub sched: u16,
}

/// A shuffle whose lane or offset register the compiler knows as a constant (`known`, [`computed_constants`]:
/// nvcc's PTX passes every offset through a `mov` to a register), or is the counter of a loop the compiler unrolls
/// completely (`unroll::counted`), is timed as one with an immediate: ptxas encodes the constant in the `SHFL`.
/// Applied to the one decoded code both runs are made from, so traced and untraced runs agree.
fn shuffle_units(code: &mut [DInstr], known: &[bool], unrolled: &[crate::unroll::Counted]) {
    for (pc, inst) in code.iter_mut().enumerate() {
        if let DOp::Shfl { b: Src::Reg(r), .. } = inst.op
            && (known[usize::from(r)] || unrolled.iter().any(|l| l.reg == r && l.contains(pc)))
        {
            inst.unit = Unit::Shuffle;
        }
    }
}

/// A 32-bit division or remainder by a register is timed as the whole sequence ptxas makes of it
/// ([`Unit::IntDivReg`], [`Unit::IntDivRegS`]), unless the compiler knows the register as a constant (`known`,
/// [`computed_constants`]: nvcc multiplies by the constant's reciprocal) or the division lies in a loop that never
/// writes the register (ptxas computes the reciprocal before the loop): those stay [`Unit::IntDiv`]. Applied to the
/// one decoded code both runs are made from, so traced and untraced runs agree.
fn division_units(code: &mut [DInstr], known: &[bool]) {
    let loops = loops(code);
    for pc in 0..code.len() {
        let DOp::Bin { f, b: Src::Reg(r), .. } = code[pc].op else {
            continue;
        };
        let signed = match f {
            Bin::DivU | Bin::RemU => false,
            Bin::DivS | Bin::RemS => true,
            _ => continue,
        };
        if known[usize::from(r)] {
            continue;
        }
        // The innermost loop around it: does anything in it write the divisor?
        let innermost = loops
            .iter()
            .filter(|&&(head, end)| head <= pc && pc <= end)
            .min_by_key(|&&(head, end)| end - head);
        let invariant = innermost.is_some_and(|&(head, end)| {
            !code[head..=end]
                .iter()
                .any(|i| i.write == Some(r) || i.write2 == Some(r))
        });
        if !invariant {
            code[pc].unit = if signed { Unit::IntDivRegS } else { Unit::IntDivReg };
        }
    }
}

/// Each loop of `code` as the range from its head to its back edge (a branch to an earlier or the same pc).
pub(crate) fn loops(code: &[DInstr]) -> Vec<(usize, usize)> {
    code.iter()
        .enumerate()
        .filter_map(|(pc, i)| match i.op {
            DOp::Bra { target } if (target as usize) <= pc => Some((target as usize, pc)),
            _ => None,
        })
        .collect()
}

/// Which registers the compiler knows as constants: those `rows::constants` replaces, and those every write of
/// which is an unguarded move or arithmetic on constants (`shr.u32 %h, W, 1`): nvcc folds them.
fn computed_constants(code: &[DInstr], constant: &[Option<Src>]) -> Vec<bool> {
    let mut known: Vec<bool> = constant
        .iter()
        .map(|c| matches!(c, Some(Src::Imm(_) | Src::Const(_))))
        .collect();
    // Each register's writers.
    let mut writers: Vec<Vec<usize>> = vec![Vec::new(); known.len()];
    for (pc, i) in code.iter().enumerate() {
        for w in [i.write, i.write2].into_iter().flatten() {
            writers[usize::from(w)].push(pc);
        }
    }
    let folded = |s: Src, known: &[bool]| match s {
        Src::Imm(_) | Src::Const(_) => true,
        Src::Reg(r) => known[usize::from(r)],
        Src::Special(_) => false,
    };
    loop {
        let mut changed = false;
        for r in 0..known.len() {
            if known[r] || writers[r].is_empty() {
                continue;
            }
            let all = writers[r].iter().all(|&pc| {
                let i = &code[pc];
                i.guard.is_none()
                    && match i.op {
                        DOp::Mov { a, .. } | DOp::Un { a, .. } => folded(a, &known),
                        DOp::Bin { a, b, .. } => folded(a, &known) && folded(b, &known),
                        DOp::Tern { a, b, c, .. } => folded(a, &known) && folded(b, &known) && folded(c, &known),
                        _ => false,
                    }
            });
            if all {
                known[r] = true;
                changed = true;
            }
        }
        if !changed {
            return known;
        }
    }
}

/// The compiler's load scheduling (`timing.hoist_loads`): ptxas issues a load as early in its basic block as its
/// operands and the memory order allow (renaming its destination), so that its latency overlaps the
/// instructions before it. An instruction's [`DInstr::sched`] says where a later load may not start before.
pub mod sched {
    /// It begins a basic block (the first instruction, a branch's target or reconvergence point, the instruction
    /// after a branch or an exit) or follows an instruction that may hold the warp (a barrier, a
    /// warp-synchronous instruction, a division subroutine or compare-and-swap loop): a load after it starts no
    /// sooner than it issues.
    pub const LEADER: u16 = 1;
    /// A later shared-memory load starts after it (a shared store or atomic, a barrier, a warp-synchronous
    /// instruction, a clock read, a global atomic).
    pub const FENCE_SHARED: u16 = 2;
    /// A later global or local load starts after it (a global or local store, any atomic, a barrier, a
    /// warp-synchronous instruction, a clock read).
    pub const FENCE_OTHER: u16 = 4;
    /// A shared-memory load that may start early.
    pub const LOAD_SHARED: u16 = 8;
    /// A global or local load that may start early.
    pub const LOAD_OTHER: u16 = 16;
    /// The join of a conditional branch (its reconvergence point): ptxas brackets a branch that may diverge with
    /// a convergence barrier, `BSSY` before it and `BSYNC` here, which each path reaching it pays
    /// (`timing.convergence_barrier`).
    pub const JOIN: u16 = 32;
    /// It reads a kernel parameter (`Instruction::param`): an SM's first such read of a launch misses the
    /// constant cache (`timing.memory.param_miss`).
    pub const PARAM: u16 = 64;
    /// The `YIELD` ptxas puts in a loop with an atomic ([`yields`]), on the loop's first atomic: each pass holds
    /// the warp `timing.yield_stall` more.
    pub const YIELD: u16 = 128;
    /// A branch that may take lanes out of such a loop (its target lies outside): when some lanes leave and
    /// others stay, the next `YIELD` releases the leaving lanes from the loop's convergence barrier, and the warp
    /// runs them and comes back (`timing.yield_release`, then `timing.yield_diverged` each pass while they wait).
    pub const RELEASE_TAKEN: u16 = 256;
    /// Likewise, for a loop's conditional back edge: the lanes that fall through leave.
    pub const RELEASE_FALLTHROUGH: u16 = 512;
    /// An instruction of a debug build (`Instruction::debug`): it holds its warp for the SASS ptxas makes of it
    /// without optimising ([`super::Kernel::debug_hold`], `timing.debug_build`).
    pub const DEBUG: u16 = 1024;
    /// Dead code the compiler removes (`timing.dead_code`, [`crate::rows::dead`]): it waits for no operand and
    /// is priced as its issue slot only.
    pub const DEAD: u16 = 2048;
    /// It starts a basic block whose instructions use kernel parameters the PTX read in an earlier block
    /// (`timing.memory.param_at_use`): ptxas reads them here, at the top of the block that uses them
    /// ([`super::Kernel::param_line`]'s lines: `param_hit`, and a line's miss).
    pub const PARAM_BLOCK: u16 = 4096;
    /// It is the first use of such a parameter: it waits for the reads its block's start made
    /// ([`PARAM_BLOCK`]), and its result comes that much later.
    pub const PARAM_USE: u16 = 8192;
    /// A global or local load in a loop ptxas unrolls (`timing.runtime_unroll`, [`runtime_unrolled`]): it issues the
    /// loads of the passes it runs together at once.
    pub const UNROLLED: u16 = 16384;
    /// Such a loop's counter update, its comparison and its back edge: ptxas's unrolled code has them once per
    /// group of passes, so in a pass that another of its group follows they cost their issue slot only.
    pub const UNROLLED_CONTROL: u16 = 32768;

    /// The loads ptxas's unrolling lets it issue together ([`UNROLLED`]): the global and local loads whose address
    /// does not depend on a value loaded in the loop, in an innermost loop of at most `max_body` instructions with
    /// no `.pragma "nounroll"` in it (`nounroll`: the instructions after one), entered only at its head and left
    /// only through its back edge (a conditional branch), with no store, atomic, barrier, warp-synchronous or clock
    /// instruction and nothing that holds the warp, whose trip count ptxas can compute ([`counter`]). Its counter's
    /// update, comparison and back edge are flagged [`UNROLLED_CONTROL`]; the loops are returned.
    pub fn runtime_unrolled(code: &mut [DInstr], max_body: u32, nounroll: &[u32]) -> Vec<UnrolledLoop> {
        let loops = super::loops(code);
        let mut out = Vec::new();
        for &(head, back) in &loops {
            if back + 1 - head > max_body as usize || nounroll.iter().any(|&pc| (head..=back).contains(&(pc as usize)))
            {
                continue;
            }
            let Some((p, negated)) = code[back].guard else {
                continue;
            };
            if loops
                .iter()
                .any(|&(h, b)| (h, b) != (head, back) && head <= h && b <= back)
            {
                continue;
            }
            let body = &code[head..=back];
            let plain = body[..body.len() - 1].iter().all(|i| match i.op {
                DOp::St { .. }
                | DOp::Atom { .. }
                | DOp::Bar { .. }
                | DOp::BarWarp { .. }
                | DOp::Shfl { .. }
                | DOp::Vote { .. }
                | DOp::Match { .. }
                | DOp::Redux { .. }
                | DOp::Activemask { .. }
                | DOp::Printf { .. }
                | DOp::AssertFail { .. }
                | DOp::Exit
                | DOp::Bra { .. } => false,
                _ => i.unit != Unit::Clock && !i.unit.holds_warp(),
            });
            if !plain {
                continue;
            }
            // Entered only at its head.
            let entered = code.iter().enumerate().any(|(pc, i)| {
                matches!(i.op, DOp::Bra { target } if (target as usize) > head && (target as usize) <= back && pc != back)
            });
            if entered {
                continue;
            }
            let Some(counted) = counter(code, head, back, p, negated) else {
                continue;
            };
            // Registers holding (or computed from) a value loaded in the loop.
            let mut tainted = std::collections::HashSet::new();
            loop {
                let before = tainted.len();
                for i in body {
                    let from_load = matches!(i.op, DOp::Ld { .. }) || i.reads.iter().any(|r| tainted.contains(r));
                    if from_load {
                        tainted.extend([i.write, i.write2].into_iter().flatten());
                    }
                }
                if tainted.len() == before {
                    break;
                }
            }
            let mut any = false;
            for i in &mut code[head..=back] {
                if let DOp::Ld { addr, .. } = i.op
                    && !addr.shared
                    && !i.reads.iter().any(|r| tainted.contains(r))
                {
                    i.sched |= UNROLLED;
                    any = true;
                }
            }
            if any {
                for pc in [counted.add, counted.setp, counted.back] {
                    code[pc as usize].sched |= UNROLLED_CONTROL;
                }
                out.push(counted);
            }
        }
        out
    }

    /// The counter of the loop from `head` to its back edge `back`, whose branch continues while predicate `p` is
    /// true (`negated`: false): `p`'s one write in the loop an unguarded integer `setp` of a register with an
    /// operand the loop does not write, that register's one write an unguarded add or subtract of an operand the
    /// loop does not write, before the `setp`.
    fn counter(code: &[DInstr], head: usize, back: usize, p: u16, negated: bool) -> Option<UnrolledLoop> {
        let body = &code[head..=back];
        let written = |r: u16| body.iter().any(|i| i.write == Some(r) || i.write2 == Some(r));
        let invariant = |s: Src| match s {
            Src::Reg(r) => !written(r),
            _ => true,
        };
        let mut setps = body.iter().enumerate().filter(|(_, i)| i.pred_write == Some(p));
        let (k, setp) = setps.next()?;
        if setps.next().is_some() || setp.guard.is_some() {
            return None;
        }
        let (a, b, wide) = match setp.op {
            DOp::Setp { class, a, b, .. } if !matches!(class, CmpClass::Float | CmpClass::FloatFtz) => (a, b, false),
            DOp::Setp64 { class, a, b, .. } if !matches!(class, CmpClass::Float | CmpClass::FloatFtz) => (a, b, true),
            _ => return None,
        };
        let (r, bound) = match (a, b) {
            (Src::Reg(r), bound) if written(r) => (r, bound),
            (bound, Src::Reg(r)) if written(r) => (r, bound),
            _ => return None,
        };
        if !invariant(bound) {
            return None;
        }
        let mut adds = body.iter().enumerate().filter(|(_, i)| i.write == Some(r));
        let (j, add) = adds.next()?;
        if adds.next().is_some() || add.guard.is_some() || j > k {
            return None;
        }
        let step = match (add.op, wide) {
            (
                DOp::Bin {
                    f: Bin::AddI | Bin::SubI,
                    a: Src::Reg(x),
                    b,
                    ..
                },
                false,
            ) if x == r => b,
            (
                DOp::Wide {
                    f: Wide::Add | Wide::Sub,
                    a: Src::Reg(x),
                    b,
                    ..
                },
                true,
            ) if x == r => b,
            _ => return None,
        };
        if !invariant(step) {
            return None;
        }
        #[allow(clippy::cast_possible_truncation, reason = "pcs are u32")]
        Some(UnrolledLoop {
            head: head as u32,
            back: back as u32,
            add: (head + j) as u32,
            setp: (head + k) as u32,
            taken_when: !negated,
        })
    }

    /// A loop ptxas unrolls ([`runtime_unrolled`]): its first and last pc, the pcs of its counter's step and of the
    /// comparison that decides its back edge (taken when the comparison is `taken_when`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct UnrolledLoop {
        pub head: u32,
        pub back: u32,
        pub add: u32,
        pub setp: u32,
        pub taken_when: bool,
    }

    use super::{Bin, CmpClass, DInstr, DOp, Flat, Src, Unit, Wide};

    /// The spaces a load or store of `addr` may reach: (shared, global or local).
    fn spaces(addr: &super::DAddr) -> (bool, bool) {
        match addr.flat {
            Flat::Generic => (true, true),
            Flat::Shared => (true, false),
            Flat::Global | Flat::Local => (false, true),
            Flat::No => (addr.shared, !addr.shared),
        }
    }

    /// Whether a special register holds the same value in every lane of a warp.
    fn uniform_special(s: warpsim_isa::ast::Special) -> bool {
        use warpsim_isa::ast::Special as S;
        matches!(
            s,
            S::NtidX
                | S::NtidY
                | S::NtidZ
                | S::CtaidX
                | S::CtaidY
                | S::CtaidZ
                | S::NctaidX
                | S::NctaidY
                | S::NctaidZ
                | S::WarpId
                | S::NWarpId
                | S::WarpSize
                | S::SmId
                | S::NSmId
                | S::DynamicSmemSize
                | S::TotalSmemSize
        )
    }

    /// The start of the code lanes may run between `lo` and `hi` (in program order): `lo`, or the head of a loop a
    /// branch in there goes back to (repeatedly, for the loops around it).
    fn with_loops(code: &[DInstr], mut lo: usize, hi: usize) -> usize {
        while let Some(t) = code[lo..hi]
            .iter()
            .filter_map(|j| match j.op {
                DOp::Bra { target } if (target as usize) < lo => Some(target as usize),
                _ => None,
            })
            .min()
        {
            lo = t;
        }
        lo
    }

    /// Which conditional branches may diverge: ptxas brackets only those with a convergence barrier (a branch on
    /// a value every lane of the warp holds alike, a kernel parameter or a loop counter counted from one, is
    /// `.uni`). A register or predicate is uniform unless some write to it reads a non-uniform operand (a lane's
    /// own index, a load, a shuffle, an atomic), is guarded by a non-uniform predicate, or runs where the warp may
    /// be diverged (between a divergent branch and its join, or in a loop that lanes leave at different
    /// iterations); a fixed point over the program.
    pub fn divergent_branches(program: &warpsim_isa::ast::Program, code: &[DInstr]) -> Vec<bool> {
        use warpsim_isa::ast::{Op, Operand};
        let n = program.instructions.len();
        let mut reg = vec![false; program.regs.len()];
        let mut pred = vec![false; program.preds.len()];
        let mut branch = vec![false; n];
        loop {
            // Where the warp may be diverged.
            let mut region = vec![false; n + 1];
            for (pc, i) in code.iter().enumerate() {
                if !branch[pc] {
                    continue;
                }
                let DOp::Bra { target } = i.op else { continue };
                let reconverge = (i.reconverge as usize).min(n);
                let (mut lo, hi) = if (target as usize) > pc && reconverge > pc {
                    (pc + 1, reconverge)
                } else if (target as usize) <= pc {
                    (target as usize, pc + 1)
                } else {
                    // A forward branch whose paths meet again only before it (both go back to a loop's head):
                    // the warp may be diverged anywhere.
                    (0, n)
                };
                // A loop the region leaves by its back edge: its head runs again with fewer lanes.
                lo = with_loops(code, lo, hi);
                for r in &mut region[lo..hi] {
                    *r = true;
                }
            }
            let mut changed = false;
            for (pc, inst) in program.instructions.iter().enumerate() {
                let guard = inst.guard.is_some_and(|g| pred[g.pred.0 as usize]);
                let reads = inst.op.sources().iter().any(|o| match o {
                    Operand::Reg(r) => reg[r.0 as usize],
                    Operand::Special(s) => !uniform_special(*s),
                    Operand::Imm(_) => false,
                }) || inst.op.preds_read().iter().any(|p| pred[p.0 as usize]);
                let own = matches!(
                    inst.op,
                    Op::Ld { .. } | Op::Atom { .. } | Op::Shfl { .. } | Op::Match { .. }
                );
                if guard || reads || own || region[pc] {
                    let mut mark = |r: Option<warpsim_isa::ast::Reg>| {
                        if let Some(r) = r
                            && !reg[r.0 as usize]
                        {
                            reg[r.0 as usize] = true;
                            changed = true;
                        }
                    };
                    mark(inst.op.reg_written());
                    if let Op::Unpack { hi, .. } = inst.op {
                        mark(Some(hi));
                    }
                    if let Some(p) = inst.op.pred_written()
                        && !pred[p.0 as usize]
                    {
                        pred[p.0 as usize] = true;
                        changed = true;
                    }
                }
                if matches!(inst.op, Op::Bra { .. }) && guard && !branch[pc] {
                    branch[pc] = true;
                    changed = true;
                }
            }
            if !changed {
                return branch;
            }
        }
    }

    /// Sets every instruction's flags; `divergent[pc]`: the branch at `pc` may diverge.
    pub fn mark(code: &mut [DInstr], divergent: &[bool]) {
        let n = code.len();
        let mut leader = vec![false; n + 1];
        let mut join = vec![false; n + 1];
        leader[0] = true;
        for (pc, i) in code.iter().enumerate() {
            match i.op {
                DOp::Bra { target } => {
                    leader[target as usize] = true;
                    leader[pc + 1] = true;
                    leader[(i.reconverge as usize).min(n)] = true;
                    if divergent[pc] {
                        join[(i.reconverge as usize).min(n)] = true;
                    }
                }
                DOp::Exit
                | DOp::Bar { .. }
                | DOp::BarWarp { .. }
                | DOp::Shfl { .. }
                | DOp::Vote { .. }
                | DOp::Match { .. }
                | DOp::Redux { .. } => leader[pc + 1] = true,
                _ if i.unit.holds_warp() => leader[pc + 1] = true,
                _ => {}
            }
        }
        for (pc, i) in code.iter_mut().enumerate() {
            let all = FENCE_SHARED | FENCE_OTHER;
            let mut f = match i.op {
                DOp::Ld { addr, .. } => match spaces(&addr) {
                    (true, false) => LOAD_SHARED,
                    (false, true) => LOAD_OTHER,
                    _ => LOAD_SHARED | LOAD_OTHER,
                },
                DOp::St { addr, .. } => {
                    let (sh, other) = spaces(&addr);
                    (if sh { FENCE_SHARED } else { 0 }) | (if other { FENCE_OTHER } else { 0 })
                }
                DOp::Atom { .. }
                | DOp::Bar { .. }
                | DOp::BarWarp { .. }
                | DOp::Shfl { .. }
                | DOp::Vote { .. }
                | DOp::Match { .. }
                | DOp::Redux { .. }
                | DOp::Activemask { .. } => all,
                _ if i.unit == Unit::Clock => all,
                _ => 0,
            };
            if leader[pc] {
                f |= LEADER;
            }
            if join[pc] {
                f |= JOIN;
            }
            i.sched = f;
        }
    }

    /// ptxas reads a kernel parameter in the basic block that uses it (an `LDC` at the top of that block, or a
    /// constant-bank operand), not where the PTX's `ld.param` stands: a [`PARAM`] read whose first use (the first
    /// later instruction that reads its register, before the register is written again) lies in another block
    /// moves to that block's start ([`PARAM_BLOCK`], with the read's line) and the use waits for it
    /// ([`PARAM_USE`]). It stays where it is when the use lies in a loop the read does not (ptxas keeps a
    /// loop's invariant reads out of it), or when the block's start already reads two other lines.
    pub fn params_at_use(code: &mut [DInstr], lines: &mut [[u32; 2]], blocks: &[warpsim_isa::cfg::BasicBlock]) {
        let loops = super::loops(code);
        let in_loop_without = |c: usize, p: usize| {
            loops
                .iter()
                .any(|&(h, b)| (h..=b).contains(&c) && !(h..=b).contains(&p))
        };
        let block_start = |pc: usize| blocks.iter().find(|b| (b.start..b.end).contains(&pc)).map(|b| b.start);
        for p in 0..code.len() {
            if code[p].sched & PARAM == 0 || code[p].write2.is_some() {
                continue;
            }
            let Some(reg) = code[p].write else { continue };
            let Some(c) = (p + 1..code.len())
                .take_while(|&c| c == p + 1 || code[c - 1].write != Some(reg))
                .find(|&c| code[c].reads.contains(&reg))
            else {
                continue;
            };
            let (Some(here), Some(start)) = (block_start(p), block_start(c)) else {
                continue;
            };
            if here == start || in_loop_without(c, p) || code[start].sched & PARAM != 0 {
                continue;
            }
            let line = lines[p][0];
            let slot = if lines[start][0] == u32::MAX || lines[start][0] == line {
                0
            } else if lines[start][1] == u32::MAX || lines[start][1] == line {
                1
            } else {
                continue;
            };
            lines[start][slot] = line;
            lines[p] = [u32::MAX; 2];
            code[p].sched &= !PARAM;
            code[start].sched |= PARAM_BLOCK;
            code[c].sched |= PARAM_USE;
        }
    }

    /// Marks the loops in which ptxas (13.5, sm_90) puts a `YIELD`: a loop (a back edge and the instructions
    /// from its target to it) with an atomic, when the kernel calls a subroutine after that atomic in program
    /// order ([`DInstr::calls`], among the calls nvcc keeps: `kept_call`, `kept`) or when the loop's way out
    /// depends on an atomic's result in it (a spin loop, `spins`). Measured with nvcc 13.5: an atomic in a loop
    /// gets a `YIELD` beside it when a 64-bit division, an IEEE f32 or f64 division or square root follows it
    /// (called even where no lane runs it), none when the call comes before the loop; a loop that leaves on an
    /// atomic's result always gets one; a loop of plain loads or stores, shuffles or fences never
    /// (`calibration/measured/ubench22.cu`, docs/timing.md). The loop's first atomic gets [`YIELD`], each branch
    /// that may take lanes out of the loop [`RELEASE_TAKEN`] or [`RELEASE_FALLTHROUGH`] and, as its `reconverge`,
    /// where the lanes it releases meet the others ([`release_join`]). Runs after [`mark`].
    pub fn yields(code: &mut [DInstr], graph: &warpsim_isa::cfg::Cfg) {
        // The last call that ptxas keeps: a loop before it (in the program's order) gets a `YIELD`, a loop after
        // it none (measured: a division before a loop, even inside an enclosing loop, gives none).
        let live = kept(code);
        let last_call = (0..code.len()).rev().find(|&pc| live[pc] && kept_call(code, pc));
        for back in 0..code.len() {
            let DOp::Bra { target } = code[back].op else { continue };
            let head = target as usize;
            if head > back {
                continue;
            }
            let body = head..=back;
            if !live[back] {
                continue;
            }
            let Some(first) = body
                .clone()
                .find(|&pc| live[pc] && matches!(code[pc].op, DOp::Atom { .. }))
            else {
                continue;
            };
            // The branches that may take lanes out: (pc, whether the taken lanes leave).
            let exits: Vec<(usize, bool)> = body
                .clone()
                .filter_map(|pc| match code[pc].op {
                    DOp::Bra { target } if !body.contains(&(target as usize)) => Some((pc, true)),
                    DOp::Bra { .. } if pc == back && code[pc].guard.is_some() => Some((pc, false)),
                    _ => None,
                })
                .collect();
            if last_call.is_none_or(|c| c <= first) && !spins(code, head, back, &exits) {
                continue;
            }
            code[first].sched |= YIELD;
            for (pc, taken) in exits {
                if code[pc].guard.is_some() && code[pc].sched & (RELEASE_TAKEN | RELEASE_FALLTHROUGH) == 0 {
                    code[pc].sched |= if taken { RELEASE_TAKEN } else { RELEASE_FALLTHROUGH };
                }
            }
        }
        // The joins once every loop is marked (`spins` reads the branches' own reconvergence pcs).
        for pc in 0..code.len() {
            if code[pc].sched & (RELEASE_TAKEN | RELEASE_FALLTHROUGH) != 0 {
                code[pc].reconverge = release_join(code, graph, code[pc].reconverge as usize);
            }
        }
    }

    /// The instructions nvcc keeps: those reachable from the start, where a branch right after a comparison of a
    /// register with itself whose result is known (`setp.lt.s32 %q, %r3, %r3` is false; nvcc folds it) goes one
    /// way only. Runs after [`mark`] (a branch that begins a basic block may be reached with another guard).
    fn kept(code: &[DInstr]) -> Vec<bool> {
        let known = crate::rows::self_comparison;
        let n = code.len();
        let mut live = vec![false; n];
        let mut work = vec![0];
        while let Some(pc) = work.pop() {
            if pc >= n || live[pc] {
                continue;
            }
            live[pc] = true;
            let i = &code[pc];
            match i.op {
                DOp::Exit if i.guard.is_none() => {}
                DOp::Bra { target } => {
                    let taken = match i.guard {
                        None => Some(true),
                        Some((p, neg)) if pc > 0 && i.sched & LEADER == 0 => {
                            known(&code[pc - 1]).filter(|&(q, _)| q == p).map(|(_, v)| v != neg)
                        }
                        Some(_) => None,
                    };
                    if taken != Some(false) {
                        work.push(target as usize);
                    }
                    if taken != Some(true) {
                        work.push(pc + 1);
                    }
                }
                _ => work.push(pc + 1),
            }
        }
        live
    }

    /// Whether the instruction at `pc` is a call ([`DInstr::calls`]) that nvcc keeps: not one of constants only
    /// (folded), nor one whose result the next instructions overwrite before reading it (dead).
    fn kept_call(code: &[DInstr], pc: usize) -> bool {
        let i = &code[pc];
        if !i.calls() {
            return false;
        }
        if i.unit == Unit::Printf {
            return true;
        }
        if i.reads.is_empty() {
            return false;
        }
        let Some(d) = i.write else { return true };
        for j in &code[pc + 1..] {
            if j.reads.contains(&d) || matches!(j.op, DOp::Bra { .. } | DOp::Exit) {
                return true;
            }
            if j.write == Some(d) && j.guard.is_none() && j.writes_wide() == i.writes_wide() {
                return false;
            }
        }
        false
    }

    /// Where lanes a `YIELD` released at a branch whose paths reconverge at `from` meet the others again: the
    /// furthest post-dominator of `from` (climbing the immediate post-dominators) with no instruction before it,
    /// from `from` on, that names other lanes (a warp-synchronous instruction, a barrier, `activemask`). Measured
    /// (`calibration/measured/ubench22.cu`, `ubench23.cu`): the released lanes run on alone, to the end of the
    /// kernel or to such an instruction (`WARPSYNC` waits for the lanes it names), before the lanes still in the
    /// loop go on. The program's length if they run to the end.
    pub fn release_join(code: &[DInstr], graph: &warpsim_isa::cfg::Cfg, from: usize) -> u32 {
        let n = code.len();
        let names_lanes =
            |i: &DInstr| crate::its::is_warp_sync(i) || matches!(i.op, DOp::Bar { .. } | DOp::Activemask { .. });
        let mut r = from;
        while r < n {
            let block = graph.blocks.partition_point(|b| b.start <= r) - 1;
            let next = graph.reconvergence[graph.blocks[block].end - 1].unwrap_or(n);
            if next <= r {
                break;
            }
            // What lanes may run from `r` before `next`: its instructions, and the loops they go back into.
            let lo = with_loops(code, r, next);
            if code[lo..next].iter().any(names_lanes) {
                break;
            }
            r = next;
        }
        #[allow(clippy::cast_possible_truncation, reason = "a program has at most 2^16 instructions")]
        let r = r.min(n) as u32;
        r
    }

    /// Whether a way out of the loop `head..=back` (a branch in `exits`, or an `exit`) depends on the result of
    /// an atomic in it: the registers and predicates holding values computed from an atomic's result, followed
    /// through the loop's instructions in order twice (once more for what the back edge carries; an unguarded
    /// write of anything else clears one), and a way out guarded by one, or reached only through a branch on one
    /// (between that branch and its reconvergence pc).
    fn spins(code: &[DInstr], head: usize, back: usize, exits: &[(usize, bool)]) -> bool {
        let (mut regs, mut preds): (Vec<u16>, Vec<u16>) = (Vec::new(), Vec::new());
        // The pcs the branches on such a predicate decide whether lanes reach.
        let mut decided: Vec<(usize, usize)> = Vec::new();
        let set = |v: &mut Vec<u16>, x: u16, on: bool| {
            if on && !v.contains(&x) {
                v.push(x);
            } else if !on {
                v.retain(|&y| y != x);
            }
        };
        for _ in 0..2 {
            for (pc, i) in code.iter().enumerate().take(back + 1).skip(head) {
                let way_out = matches!(i.op, DOp::Exit) || exits.iter().any(|&(e, _)| e == pc);
                let on_result = i.guard.is_some_and(|(p, _)| preds.contains(&p));
                if way_out && (on_result || decided.iter().any(|&(b, r)| b < pc && pc < r)) {
                    return true;
                }
                if on_result && matches!(i.op, DOp::Bra { .. }) {
                    decided.push((pc, i.reconverge as usize));
                }
                let tainted = matches!(i.op, DOp::Atom { .. })
                    || i.reads.iter().any(|r| regs.contains(r))
                    || i.pred_reads.iter().any(|p| preds.contains(p));
                if !tainted && i.guard.is_some() {
                    continue;
                }
                for r in [i.write, i.write2].into_iter().flatten() {
                    set(&mut regs, r, tainted);
                }
                if let Some(p) = i.pred_write {
                    set(&mut preds, p, tainted);
                }
            }
        }
        false
    }
}

impl DInstr {
    /// Whether ptxas compiles it to a call of a subroutine: a 64-bit integer division or remainder, an IEEE
    /// division or square root (its slow path), `printf`.
    pub fn calls(&self) -> bool {
        matches!(self.op, DOp::Bin { f: Bin::DivF, .. })
            || matches!(self.op, DOp::Wide { f, .. } if f.may_leave_fast_path())
            || matches!(self.unit, Unit::IntDiv64 | Unit::IntDiv64S | Unit::Printf)
    }

    /// Whether the register it writes is 64 bits wide.
    pub fn writes_wide(&self) -> bool {
        match self.op {
            DOp::Wide { f, .. } => f.shape().0,
            DOp::Selp64 { .. } => true,
            DOp::Bfi { wide, .. } | DOp::Carry { wide, .. } => wide,
            DOp::Ld { addr, .. } | DOp::Atom { addr, .. } => addr.wide,
            _ => false,
        }
    }

    /// The register a global atomic's old value goes to: it arrives at the epoch's commit, after the issue.
    pub fn returns_at_commit(&self) -> Option<u16> {
        match self.op {
            DOp::Atom { d, addr, .. } if !addr.shared => d,
            _ => None,
        }
    }
}

/// An instruction as the trace's readers see it, described once when the kernel is decoded, so that no
/// renderer interprets an instruction's encoding ([`DOp`]) again: the value operands it reads, the registers
/// it reads and writes, and its role.
#[derive(Clone, Debug, PartialEq)]
pub struct Described {
    /// Its value operands in order (the trace's [`crate::trace::Issue::operands`] are their lanes' values).
    pub operands: SmallVec<[Src; 3]>,
    /// Whether each operand is 64 bits wide.
    pub wide: SmallVec<[bool; 3]>,
    /// Every register it reads (address registers too) and the one it writes.
    pub reads: SmallVec<[u16; 4]>,
    pub write: Option<u16>,
    pub role: Role,
}

/// What kind of operation an instruction is, with what the pictures and traces show of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// `mov`: carries a value.
    Move,
    /// Arithmetic that makes a new value from its operands (unary, binary, ternary, `selp`, `cvt`); `name` for
    /// the binary operations a reduction combines with (`max`, `min`, `add`, `mul`).
    Combine {
        name: Option<&'static str>,
    },
    /// `setp` and predicate logic.
    Compare,
    /// A shuffle: its mode, the register it sends (if one), its lane or amount operand, its member mask.
    Shuffle {
        mode: ShflMode,
        sent: Option<u16>,
        amount: Src,
        member: Member,
    },
    Load {
        shared: bool,
    },
    /// A store, and the register whose value it stores (if one).
    Store {
        shared: bool,
        value: Option<u16>,
    },
    Atomic {
        shared: bool,
    },
    Branch {
        target: u32,
    },
    /// `bar`, `bar.warp.sync`, votes, `activemask`, `match`, `exit`, `nop`.
    Other,
}

impl Described {
    /// Describe a decoded instruction.
    pub fn of(d: &DInstr) -> Described {
        let reg = |s: Src| if let Src::Reg(r) = s { Some(r) } else { None };
        let operands: SmallVec<[Src; 3]> = match d.op {
            DOp::Mov { a, .. }
            | DOp::Un { a, .. }
            | DOp::Cvt { a, .. }
            | DOp::St { a, .. }
            | DOp::Match { a, .. }
            | DOp::Redux { a, .. } => {
                smallvec![a]
            }
            DOp::Bin { a, b, .. } | DOp::Setp { a, b, .. } | DOp::Selp { a, b, .. } | DOp::Shfl { a, b, .. } => {
                smallvec![a, b]
            }
            DOp::Tern { a, b, c, .. } => smallvec![a, b, c],
            DOp::Carry { f, a, b, c, .. } if f.adds() => smallvec![a, b, c],
            DOp::Carry { a, b, .. } => smallvec![a, b],
            DOp::Atom { b, c, .. } => {
                let mut v = smallvec![b];
                v.extend(c);
                v
            }
            DOp::Wide { f, a, b, c, .. } => [a, b, c][..f.arity()].iter().copied().collect(),
            DOp::Setp64 { a, b, .. } | DOp::Selp64 { a, b, .. } | DOp::Printf { fmt: a, args: b, .. } => {
                smallvec![a, b]
            }
            DOp::Unpack { a, .. } => smallvec![a],
            DOp::Bfi { a, b, pos, len, .. } => smallvec![a, b, pos, len],
            _ => SmallVec::new(),
        };
        let wide: SmallVec<[bool; 3]> = match d.op {
            DOp::Wide { f, .. } => f.shape().1[..f.arity()].iter().copied().collect(),
            DOp::Setp64 { .. } | DOp::Selp64 { .. } | DOp::Printf { .. } => smallvec![true, true],
            DOp::Unpack { .. } => smallvec![true],
            DOp::Bfi { wide, .. } => smallvec![wide, wide, false, false],
            DOp::Carry { wide, .. } => operands.iter().map(|_| wide).collect(),
            DOp::St { addr, .. } => smallvec![addr.wide],
            DOp::Atom { addr, .. } => operands.iter().map(|_| addr.wide).collect(),
            _ => operands.iter().map(|_| false).collect(),
        };
        let role = match d.op {
            DOp::Mov { .. } => Role::Move,
            DOp::Bin { f, .. } => Role::Combine {
                name: match f {
                    Bin::MaxF | Bin::MaxS | Bin::MaxU => Some("max"),
                    Bin::MinF | Bin::MinS | Bin::MinU => Some("min"),
                    Bin::AddF | Bin::AddI => Some("add"),
                    Bin::MulF | Bin::MulI => Some("mul"),
                    _ => None,
                },
            },
            DOp::Un { .. }
            | DOp::Tern { .. }
            | DOp::Selp { .. }
            | DOp::Cvt { .. }
            | DOp::Selp64 { .. }
            | DOp::Carry { .. }
            | DOp::Bfi { .. } => Role::Combine { name: None },
            DOp::Wide {
                f: Wide::Mov | Wide::Pack,
                ..
            }
            | DOp::Unpack { .. } => Role::Move,
            DOp::Wide { f, .. } => Role::Combine {
                name: match f {
                    Wide::MaxF | Wide::MaxS | Wide::MaxU => Some("max"),
                    Wide::MinF | Wide::MinS | Wide::MinU => Some("min"),
                    Wide::AddF | Wide::Add => Some("add"),
                    Wide::MulF | Wide::Mul => Some("mul"),
                    _ => None,
                },
            },
            DOp::Setp { .. } | DOp::Setp64 { .. } | DOp::PredLogic { .. } => Role::Compare,
            DOp::Shfl { mode, a, b, member, .. } => Role::Shuffle {
                mode,
                sent: reg(a),
                amount: b,
                member,
            },
            DOp::Ld { addr, .. } => Role::Load { shared: addr.shared },
            DOp::St { addr, a } => Role::Store {
                shared: addr.shared,
                value: reg(a),
            },
            DOp::Atom { addr, .. } => Role::Atomic { shared: addr.shared },
            DOp::Bra { target } => Role::Branch { target },
            // (A warp reduction: `Combine` would draw it as one lane's operation.)
            DOp::Bar { .. }
            | DOp::BarWarp { .. }
            | DOp::Vote { .. }
            | DOp::Activemask { .. }
            | DOp::Match { .. }
            | DOp::Redux { .. }
            | DOp::Printf { .. }
            | DOp::AssertFail { .. }
            | DOp::Exit
            | DOp::Nop => Role::Other,
        };
        Described {
            operands,
            wide,
            reads: d.reads.iter().copied().collect(),
            write: d.write,
            role,
        }
    }
}

/// A global buffer with its contents: 32-bit words, a 64-bit element as two (the low word first).
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub name: String,
    pub elem: ElemTy,
    pub data: Vec<u32>,
}

impl Buffer {
    /// Elements.
    pub fn len(&self) -> usize {
        self.data.len() / self.elem.words()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Element `k`'s bits (a 32-bit element's in the low half).
    pub fn element(&self, k: usize) -> u64 {
        if self.elem.words() == 2 {
            u64::from(self.data[2 * k]) | u64::from(self.data[2 * k + 1]) << 32
        } else {
            u64::from(self.data[k])
        }
    }

    /// Every element's bits, in order.
    pub fn elements(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        (0..self.len()).map(|k| self.element(k))
    }
}

/// A program made concrete for one launch.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub program: Program,
    pub warp_size: u32,
    /// Blocks in the grid: `grid_dim.count()`.
    pub grid: u32,
    /// Threads per block: `block_dim.count()`.
    pub block: u32,
    /// The grid's shape (`%nctaid.x/.y/.z`).
    pub grid_dim: Dim3,
    /// The block's shape (`%ntid.x/.y/.z`).
    pub block_dim: Dim3,
    /// Parameter values in declaration order.
    pub params: Vec<(String, Value)>,
    pub buffers: Vec<Buffer>,
    /// Shared-memory arrays of each block, laid out one after the other.
    pub shared: Vec<SharedArray>,
    /// Shared memory per block, in 4-byte words.
    pub shared_words: usize,
    pub code: Vec<DInstr>,
    /// Each instruction described for the trace's readers (the renderers read these, never `code`).
    pub described: Vec<Described>,
    /// How to show each register's value in traces: the type the program's typed instructions use it as.
    pub reg_types: Vec<Ty>,
    /// The 64-bit immediates of the code ([`Src::Const`] indexes them).
    pub consts: Vec<u64>,
    /// The code an untraced run executes: `code` with its operands' registers renamed to shared rows
    /// ([`crate::rows`]); `reads` and `write` still name the program's registers.
    pub exec_code: Vec<DInstr>,
    /// Register rows of a warp in an untraced run.
    pub exec_rows: usize,
    /// Each register's scoreboard slot in an untraced run: registers whose lifetimes never overlap in any lane
    /// share one ([`crate::rows::coalesce`] over [`Kernel::code`]; see `scoreboard.rs`).
    pub exec_slots: Vec<u16>,
    /// For a debug build (`.target …, debug`), per instruction: the cycles it holds its warp before its last SASS
    /// instruction, `(n − 1) × timing.debug_build.instruction` for its class's n ([`sched::DEBUG`]); empty
    /// otherwise.
    pub debug_hold: Vec<u32>,
    /// The loops ptxas unrolls, whose loads it issues together (`timing.runtime_unroll`, [`sched::UNROLLED`]).
    pub unrolled_loops: Vec<sched::UnrolledLoop>,
    /// Per instruction that reads kernel parameters ([`sched::PARAM`], [`sched::PARAM_USE`]): the constant-bank
    /// lines it reads (`timing.memory.param_line_bytes` each, the parameters starting at
    /// `timing.memory.param_bank_offset`), at most two (`u32::MAX`: none).
    pub param_line: Vec<[u32; 2]>,
    /// The rows of `exec_code` a placed warp must zero ([`crate::rows::read_before_written`]); every lane writes
    /// the others before it reads them. (A traced run zeroes every row of the program's registers.)
    pub zeroed_rows: Vec<u16>,
}

/// The cycles each instruction of a debug build holds its warp before its last SASS instruction
/// ([`Kernel::debug_hold`]), marking those instructions [`sched::DEBUG`]. ptxas does not move loads in code it
/// does not optimise: their `sched` load flags are cleared.
fn debug_holds(program: &Program, code: &mut [DInstr], d: &crate::config::DebugBuild) -> Vec<u32> {
    if program.instructions.iter().all(|i| i.debug.is_none()) {
        return Vec::new();
    }
    code.iter_mut()
        .zip(&program.instructions)
        .map(|(c, inst)| {
            c.sched &= !(sched::LOAD_SHARED | sched::LOAD_OTHER);
            let Some(class) = inst.debug else { return 0 };
            c.sched |= sched::DEBUG;
            (d.sass.of(class) * d.instruction / 10).saturating_sub(d.instruction)
        })
        .collect()
}

/// A shared-memory array as laid out in the block's shared memory.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedArray {
    pub name: String,
    pub elem: ElemTy,
    /// First word in the block's shared memory (bank of element `k` = (offset + k·words) mod banks, a 64-bit
    /// element taking two words).
    pub offset: usize,
    /// Elements.
    pub len: usize,
}

impl Kernel {
    /// Words of local memory per thread (`.local BYTES`, rounded up to whole words).
    pub fn local_words(&self) -> usize {
        usize::try_from(self.program.local_bytes.div_ceil(4)).unwrap_or(usize::MAX)
    }

    pub fn warps_per_block(&self) -> u32 {
        self.block.div_ceil(self.warp_size)
    }

    /// Whether the instruction at `pc` is dead code the compiler removes (`timing.dead_code`, [`sched::DEAD`]):
    /// it executes, but is timed as its issue slot, with no memory access.
    pub fn is_dead(&self, pc: u32) -> bool {
        self.code.get(pc as usize).is_some_and(|c| c.sched & sched::DEAD != 0)
    }

    /// `4`, or in a 2-D or 3-D grid the block's index too: `4 = (1,1)` (for faults and findings).
    pub fn block_name(&self, block: u32) -> String {
        if self.grid_dim.rank() == 1 {
            block.to_string()
        } else {
            format!("{block} = {}", self.grid_dim.label(block))
        }
    }

    /// The thread that is lane `lane` of warp `warp`: `49`, or in a 2-D or 3-D block its index too: `49 = (1,3)`.
    pub fn thread_name(&self, warp: u32, lane: u32) -> String {
        let linear = warp * self.warp_size + lane;
        if self.block_dim.rank() == 1 {
            linear.to_string()
        } else {
            format!("{linear} = {}", self.block_dim.label(linear))
        }
    }

    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// The buffers of a launch that differs from the one that made this kernel only in its buffers' contents
    /// (`launch.contents`): what [`instantiate_with`] gives for it, without decoding the program again. The caller
    /// makes sure the shape, parameter overrides, dynamic shared memory and machine are the same (the Python
    /// package keys a program's last kernel on them); the lengths are the first launch's, which were checked
    /// against the limits then, and given contents must match them.
    pub fn buffers_for(&self, launch: &Launch) -> Result<Vec<Buffer>, LoadError> {
        let program = &self.program;
        let given = given_contents(program, launch)?;
        let (w, params) = (self.warp_size, &self.params[..]);
        let env = |name: &str| lookup(name, w, params, None);
        let mut lengths = Vec::with_capacity(program.buffers.len());
        for (b, given) in program.buffers.iter().zip(&given) {
            let v = b.len.eval(&env).map_err(eval_err)?;
            let len = whole_in(v, 0, u64::MAX)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| LoadError::Usage(format!("buffer `{}` would have {v} elements", b.name)))?;
            if let Some(c) = given {
                check_contents(program, b, len, c, params)?;
            }
            lengths.push(len);
        }
        make_buffers(program, &lengths, &given, w, params)
    }

    /// Move the buffers' initial contents out (for [`crate::run_with`], which then needs no copy); the kernel
    /// keeps their names and types, with no data.
    pub fn take_buffers(&mut self) -> Vec<Buffer> {
        self.buffers
            .iter_mut()
            .map(|b| Buffer {
                name: b.name.clone(),
                elem: b.elem,
                data: std::mem::take(&mut b.data),
            })
            .collect()
    }
}

/// How to launch: warp size, optional shape overrides, parameter overrides.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// `--grid`: the grid's shape (overrides the program's `.grid`).
    pub grid: Option<Dim3>,
    /// `--block`: the block's shape (overrides the program's `.block`).
    pub block: Option<Dim3>,
    /// `--set NAME=VALUE`, in order.
    pub set: Vec<(String, Value)>,
    /// Bytes of dynamic shared memory per block (the `.shared NAME TYPE[]` array); default 0.
    pub dynamic_shared: Option<u32>,
    /// Buffers' initial contents, instead of their initialisers (`sim run --input NAME=FILE`): each must have
    /// exactly the buffer's length, checked before any buffer is allocated.
    pub contents: Vec<Contents>,
}

/// A buffer's initial contents given with a [`Launch`]: from a data file ([`crate::data::decode`]) or an
/// embedder's array.
#[derive(Clone, Debug, PartialEq)]
pub struct Contents {
    /// The buffer's name.
    pub buffer: String,
    /// Its elements' bits, as [`Buffer::data`].
    pub data: Vec<u32>,
    /// Where they come from, for messages: a file name in backquotes (`` `in.npy` ``), or words (`the array`).
    pub origin: String,
}

/// Why a program cannot be launched as asked.
#[derive(Debug)]
pub enum LoadError {
    /// A problem with a place in the program text.
    Diagnostic(Box<Diagnostic>),
    /// A problem with the launch request itself (flags).
    Usage(String),
}

impl LoadError {
    pub fn render(&self, program: &Program, color: bool) -> String {
        match self {
            LoadError::Diagnostic(d) => d.render(&program.sources, color),
            LoadError::Usage(m) => format!("error: {m}\n"),
        }
    }
}

fn diag(span: Span, message: impl Into<String>, label: &str, help: Option<String>) -> LoadError {
    let mut d = Diagnostic::error(span, message).with_label(label);
    if let Some(h) = help {
        d = d.with_help(h);
    }
    LoadError::Diagnostic(Box::new(d))
}

fn eval_err(e: EvalError) -> LoadError {
    let EvalError { span, message, help } = e;
    diag(span, message, "here", help)
}

/// Parses a `--set` value or other command-line number: an integer (decimal or 0x hex) or a float.
pub fn parse_value(text: &str) -> Option<Value> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    // One optional minus sign, then digits: no second sign, no sign after `0x`.
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    let sign = |v: i64| if neg { -v } else { v };
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return i64::from_str_radix(h, 16).ok().map(|v| Value::Int(sign(v)));
    }
    if body.bytes().all(|c| c.is_ascii_digit()) {
        return body.parse::<i64>().ok().map(|v| Value::Int(sign(v)));
    }
    let float_chars = body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !float_chars || !body.as_bytes()[0].is_ascii_digit() && body.as_bytes()[0] != b'.' {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float)
}

/// Instantiate `program` for `config.warp_size` and `launch`.
pub fn instantiate(program: &Program, config: &Config, launch: &Launch) -> Result<Kernel, LoadError> {
    instantiate_with(program, config, launch, &Limits::default())
}

/// [`instantiate`] within `limits`.
pub fn instantiate_with(
    program: &Program,
    config: &Config,
    launch: &Launch,
    limits: &Limits,
) -> Result<Kernel, LoadError> {
    let w = config.warp_size;
    if !(2..=64).contains(&w) || !w.is_power_of_two() {
        return Err(LoadError::Usage(format!(
            "warp size {w} is not supported: use a power of two from 2 to 64"
        )));
    }
    let (lo, hi) = program.warp_sizes;
    if w < lo || w > hi {
        let msg = format!("`{}` runs with warp sizes {lo} to {hi}, not {w}", program.name);
        return Err(match program.warp_sizes_span {
            Some(span) => diag(
                span,
                msg,
                "declared here",
                Some(if lo == hi {
                    format!("run it with `--warp {lo}`")
                } else {
                    format!("run it with a `--warp` from {lo} to {hi}")
                }),
            ),
            None => LoadError::Usage(msg),
        });
    }
    // Parameters: defaults in order, then overrides.
    for (name, _) in &launch.set {
        if !program.params.iter().any(|p| &p.name == name) {
            let names: Vec<&str> = program.params.iter().map(|p| p.name.as_str()).collect();
            let hint = match warpsim_isa::diagnostic::closest(name, names.iter().copied()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None if names.is_empty() => format!("; `{}` has no parameters", program.name),
                None => format!("; its parameters are: {}", names.join(", ")),
            };
            return Err(LoadError::Usage(format!(
                "`{}` has no parameter `{name}`{hint}",
                program.name
            )));
        }
    }
    let mut params: Vec<(String, Value)> = Vec::new();
    for p in &program.params {
        let v = match launch.set.iter().rev().find(|(n, _)| n == &p.name) {
            Some((_, v)) => *v,
            None => p
                .default
                .eval(&|name| lookup(name, w, &params, None))
                .map_err(eval_err)?,
        };
        params.push((p.name.clone(), v));
    }
    let env = |name: &str| lookup(name, w, &params, None);
    // The program's own conditions on W and its parameters, before anything is sized by them.
    for r in &program.requires {
        let holds = match r.cond.eval(&env).map_err(eval_err)? {
            Value::Int(v) => v != 0,
            Value::Float(f) => f != 0.0,
        };
        if !holds {
            let mut shape = format!(" (W={w}");
            for (name, value) in params.iter().filter(|(name, _)| r.cond.mentions(name)) {
                let _ = write!(shape, ", {name}={value}");
            }
            shape.push(')');
            return Err(diag(
                r.span,
                format!("{}{shape}", r.message),
                "this launch does not meet the requirement",
                None,
            ));
        }
    }

    let (grid_dim, block_dim) = launch_shape(program, config, launch, &env)?;
    let (grid, block) = (grid_dim.count(), block_dim.count());
    if block.div_ceil(u64::from(w)) > u64::from(config.max_warps_per_sm) {
        return Err(LoadError::Usage(format!(
            "a block of {block} threads is {} warps of {w}; the SM holds at most {} (config `max_warps_per_sm`)",
            block.div_ceil(u64::from(w)),
            config.max_warps_per_sm
        )));
    }
    // The register files of the warps resident at once (every SM full, or the whole grid), before any is made.
    let resident =
        (grid * block.div_ceil(u64::from(w))).min(u64::from(config.sms) * u64::from(config.max_warps_per_sm));
    let per_warp = (program.regs.len() as u64 * 64 + program.preds.len() as u64 * 2) * 4;
    if resident.saturating_mul(per_warp) > MAX_REGISTER_BYTES {
        return Err(LoadError::Usage(format!(
            "the program's {} registers take {} KiB per warp; the {resident} warps resident at once would need \
             {} MiB of registers, more than {} MiB\n  help: declare fewer registers, or launch fewer blocks \
             (`--grid`) or a machine with fewer SMs (`--sms`)",
            program.regs.len(),
            per_warp.div_ceil(1024),
            resident.saturating_mul(per_warp).div_ceil(1 << 20),
            MAX_REGISTER_BYTES >> 20,
        )));
    }
    // Local memory (`.local BYTES`): at most CUDA's 512 KiB per thread, and the warps resident at once within
    // the same bound as their registers.
    let local_per_warp = program.local_bytes.div_ceil(4).saturating_mul(4 * u64::from(w));
    if program.local_bytes > MAX_LOCAL_BYTES || resident.saturating_mul(local_per_warp) > MAX_REGISTER_BYTES {
        return Err(LoadError::Usage(format!(
            "`.local {}`: the {resident} warps resident at once would need {} MiB of local memory; a thread has at \
             most {} KiB and the warps resident at once at most {} MiB\n  help: use less local memory, or launch \
             fewer blocks (`--grid`) or a machine with fewer SMs (`--sms`)",
            program.local_bytes,
            resident.saturating_mul(local_per_warp).div_ceil(1 << 20),
            MAX_LOCAL_BYTES >> 10,
            MAX_REGISTER_BYTES >> 20,
        )));
    }
    // Buffers: every length, and their sum, is checked before any buffer is allocated or initialised (a
    // launch past the limit is refused in milliseconds, whatever the order of its buffers).
    let given = given_contents(program, launch)?;
    let mut lengths = Vec::with_capacity(program.buffers.len());
    let mut total_elements = 0u64;
    let max_elements = limits.buffer_elements;
    for (b, given) in program.buffers.iter().zip(&given) {
        let v = b.len.eval(&env).map_err(eval_err)?;
        let Some(len) = whole_in(v, 0, max_elements).and_then(|n| usize::try_from(n).ok()) else {
            return Err(diag(
                b.len.span,
                format!("buffer `{}` would have {v} elements", b.name),
                "length out of range",
                Some(format!("a buffer holds 0 to {max_elements} elements")),
            ));
        };
        // (Counted in 4-byte words: a 64-bit element is two.)
        total_elements += len as u64 * b.elem.words() as u64;
        if total_elements > max_elements {
            return Err(diag(
                b.len.span,
                format!("the buffers together would hold more than {max_elements} elements"),
                "this buffer goes past the limit",
                Some(format!(
                    "global memory is limited to {} of 4-byte elements in all",
                    bytes(max_elements.saturating_mul(4))
                )),
            ));
        }
        if let Some(c) = given {
            check_contents(program, b, len, c, &params)?;
        }
        lengths.push(len);
    }
    if let Some(bytes) = launch.dynamic_shared {
        if !program.shared.iter().any(|s| s.len.is_none()) {
            return Err(LoadError::Usage(format!(
                "--dynamic-shared {bytes}: `{}` declares no dynamic shared array (`.shared NAME TYPE[]`)",
                program.name
            )));
        }
        let size = program
            .shared
            .iter()
            .find(|s| s.len.is_none())
            .map_or(4, |s| 4 * s.elem.words()) as u64;
        if u64::from(bytes) % size != 0 {
            return Err(LoadError::Usage(format!(
                "--dynamic-shared {bytes}: the size is in bytes and must be a multiple of {size} (the element size)"
            )));
        }
    }
    // Shared memory: the static arrays in declaration order, then the dynamic one.
    let mut shared = Vec::with_capacity(program.shared.len());
    let mut words = 0usize;
    let max_words = (config.max_shared_per_block / 4) as usize;
    for sh in &program.shared {
        let len = match &sh.len {
            None => launch.dynamic_shared.unwrap_or(0) as usize / (4 * sh.elem.words()),
            Some(e) => {
                let v = e.eval(&env).map_err(eval_err)?;
                let Some(len) = whole_in(v, 0, max_words as u64).and_then(|n| usize::try_from(n).ok()) else {
                    return Err(diag(
                        e.span,
                        format!("shared array `{}` would have {v} elements", sh.name),
                        "length out of range",
                        Some(format!(
                            "a block has at most {} bytes of shared memory",
                            config.max_shared_per_block
                        )),
                    ));
                };
                len
            }
        };
        shared.push(SharedArray {
            name: sh.name.clone(),
            elem: sh.elem,
            offset: words,
            len,
        });
        words += len * sh.elem.words();
    }
    if words > max_words {
        return Err(LoadError::Usage(format!(
            "`{}` needs {} bytes of shared memory per block; the machine allows {} (config `max_shared_per_block`)",
            program.name,
            words * 4,
            config.max_shared_per_block
        )));
    }
    // Every size is known and within its limit: now the buffers are allocated and initialised.
    let buffers = make_buffers(program, &lengths, &given, w, &params)?;
    let consts = std::cell::RefCell::new(Vec::new());
    // `%nsmid`, `%dynamic_smem_size` and `%total_smem_size`: constants of the launch.
    let dynamic_words: usize = program
        .shared
        .iter()
        .zip(&shared)
        .filter(|(d, _)| d.len.is_none())
        .map(|(_, a)| a.len * a.elem.words())
        .sum();
    let bytes = |words: usize| u32::try_from(words * 4).expect("shared memory is checked against max_shared_per_block");
    let specials = [config.sms, bytes(dynamic_words), bytes(words)];
    let graph = cfg::analyse(program);
    let mut code = program
        .instructions
        .iter()
        .enumerate()
        .map(|(pc, inst)| decode(program, (&shared, specials), inst, pc, &graph, w, &params, &consts))
        .collect::<Result<Vec<_>, _>>()?;
    let divergent = sched::divergent_branches(program, &code);
    sched::mark(&mut code, &divergent);
    if config.timing.yield_loops {
        sched::yields(&mut code, &graph);
    }
    let memory = &config.timing.memory;
    let mut param_line = vec![[u32::MAX; 2]; code.len()];
    for ((d, inst), line) in code.iter_mut().zip(&program.instructions).zip(&mut param_line) {
        if let Some(offset) = inst.param {
            d.sched |= sched::PARAM;
            line[0] = memory.param_bank_offset.saturating_add(offset) / memory.param_line_bytes;
        }
    }
    // (ptxas does not move code of a debug build.)
    if memory.param_at_use && program.instructions.iter().all(|i| i.debug.is_none()) {
        sched::params_at_use(&mut code, &mut param_line, &graph.blocks);
    }
    let debug_hold = debug_holds(program, &mut code, &config.timing.debug_build);
    // (A debug build keeps its dead code: ptxas does not optimise it.)
    if config.timing.dead_code && debug_hold.is_empty() {
        let dead = crate::rows::dead(program, &code, w);
        for (c, dead) in code.iter_mut().zip(dead) {
            if dead {
                // (A parameter read the compiler removed misses no constant cache: `sched::PARAM` and `PARAM_USE` go.)
                c.sched = (c.sched | sched::DEAD) & !(sched::PARAM | sched::PARAM_USE);
            }
        }
    }
    // ptxas's unrolling of loops counted at run time: the own ISA's and PTX's alike (ptxas compiles both), not in a
    // debug build (which it does not optimise).
    let unrolled_loops = if debug_hold.is_empty() && config.timing.runtime_unroll > 1 {
        let nounroll = program.ptx.as_ref().map_or(&[][..], |p| &p.nounroll[..]);
        sched::runtime_unrolled(&mut code, config.timing.runtime_unroll_body, nounroll)
    } else {
        Vec::new()
    };
    // nvcc's complete unrolling of counted loops: only for the own ISA (PTX comes after nvcc's optimiser, which
    // unrolled what it would) and not in a debug build (which nvcc does not optimise).
    let unrolled = if program.ptx.is_none() && debug_hold.is_empty() {
        crate::unroll::counted(&code, config.timing.unroll)
    } else {
        Vec::new()
    };
    let described = code.iter().map(Described::of).collect();
    // The untraced run's code: registers share rows where their lifetimes allow (`rows::coalesce`).
    // (Past the analyses' size limits: a row per register, every row zeroed.)
    let analysed = program.regs.len() <= crate::rows::MAX_COALESCED_REGS
        && program.regs.len() * code.len() <= crate::rows::MAX_COALESCED;
    #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
    let every_row = || (0..program.regs.len()).map(|r| r as u16).collect::<Vec<u16>>();
    // Registers that only hold a constant are replaced by it (`rows::constants`).
    let consts = consts.into_inner();
    let constant = if analysed {
        crate::rows::constants(program, &code, &consts)
    } else {
        vec![None; program.regs.len()]
    };
    // (ptxas keeps a debug build's constants in registers: its shuffles read their offsets as written.)
    if debug_hold.is_empty() {
        let known = computed_constants(&code, &constant);
        shuffle_units(&mut code, &known, &unrolled);
        division_units(&mut code, &known);
    }
    let substituted = crate::rows::substitute(&code, &constant);
    let seen = crate::rows::without_constants(&substituted, &constant);
    let (row, exec_rows) = if analysed {
        crate::rows::coalesce(program, &seen)
    } else {
        (every_row(), program.regs.len())
    };
    // (A program that names the high half of a 64-bit register keeps a slot per register.)
    let exec_slots = if analysed && !crate::rows::names_high_rows(program, &code) {
        crate::rows::coalesce(program, &code).0
    } else {
        every_row()
    };
    let exec_code = substituted
        .iter()
        .map(|i| DInstr {
            op: crate::rows::rename(i.op, &row),
            ..i.clone()
        })
        .collect();
    let read_first = if analysed {
        crate::rows::read_before_written(program, &seen)
    } else {
        every_row()
    };
    let mut zeroed_rows: Vec<u16> = read_first.into_iter().map(|r| row[usize::from(r)]).collect();
    zeroed_rows.sort_unstable();
    zeroed_rows.dedup();
    Ok(Kernel {
        unrolled_loops,
        debug_hold,
        param_line,
        exec_code,
        exec_rows,
        exec_slots,
        zeroed_rows,
        consts,
        reg_types: register_types(program),
        program: program.clone(),
        warp_size: w,
        grid: u32::try_from(grid).expect("the grid is checked against MAX_GRID"),
        block: u32::try_from(block).expect("the block is checked against max_threads_per_block, a u32"),
        grid_dim,
        block_dim,
        params,
        buffers,
        shared,
        shared_words: words,
        code,
        described,
    })
}

/// The index of `program`'s buffer `name` in [`Program::buffers`], or a message that says there is none and
/// what is (`` `k` has no buffer `inn`; did you mean `in`? ``).
pub fn find_buffer(program: &Program, name: &str) -> Result<usize, String> {
    if let Some(k) = program.buffers.iter().position(|b| b.name == name) {
        return Ok(k);
    }
    let names: Vec<&str> = program.buffers.iter().map(|b| b.name.as_str()).collect();
    let hint = match warpsim_isa::diagnostic::closest(name, names.iter().copied()) {
        Some(s) => format!("; did you mean `{s}`?"),
        None if names.is_empty() => format!("; `{}` has no buffers", program.name),
        None => format!("; its buffers are: {}", names.join(", ")),
    };
    Err(format!("`{}` has no buffer `{name}`{hint}", program.name))
}

/// For each buffer of `program`, the contents `launch` gives it: every [`Contents`] names a buffer, and no
/// buffer is given two.
fn given_contents<'l>(program: &Program, launch: &'l Launch) -> Result<Vec<Option<&'l Contents>>, LoadError> {
    let mut given: Vec<Option<&Contents>> = vec![None; program.buffers.len()];
    for c in &launch.contents {
        let k = find_buffer(program, &c.buffer).map_err(|m| LoadError::Usage(format!("{}: {m}", c.origin)))?;
        if let Some(first) = given[k] {
            return Err(LoadError::Usage(format!(
                "buffer `{}` is given two contents: {} and {}",
                c.buffer, first.origin, c.origin
            )));
        }
        given[k] = Some(c);
    }
    Ok(given)
}

/// Contents `c` for buffer `b` of `len` elements: exactly that many, else an error at the buffer's length that
/// says what the length is made of and, where it is one parameter, the `--set` that fits the contents.
fn check_contents(
    program: &Program,
    b: &BufferDecl,
    len: usize,
    c: &Contents,
    params: &[(String, Value)],
) -> Result<(), LoadError> {
    let words_per_element = crate::data::dtype(b.elem).size / 4;
    let count = c.data.len() / words_per_element;
    if c.data.len().is_multiple_of(words_per_element) && count == len {
        return Ok(());
    }
    let text = program.sources.snippet(b.len.span);
    let mut with: Vec<String> = params
        .iter()
        .filter(|(name, _)| b.len.mentions(name))
        .map(|(name, v)| format!("{name} = {v}"))
        .collect();
    if b.len.as_literal_int().is_none() && with.is_empty() {
        with.push(format!("{len} elements"));
    }
    let declared = if with.is_empty() {
        format!("{}[{text}]", b.elem.name())
    } else {
        format!("{}[{text}] with {}", b.elem.name(), with.join(", "))
    };
    let help = match &b.len.kind {
        warpsim_isa::expr::ExprKind::Var(p) if params.iter().any(|(n, _)| n == p) => {
            format!(
                "run with `--set {p}={count}` to make the buffer as long as {}",
                c.origin
            )
        }
        _ => format!("give exactly {len} elements"),
    };
    Err(diag(
        b.len.span,
        format!(
            "{} has {count} elements, but buffer `{}` is {declared}",
            c.origin, b.name
        ),
        &format!("{len} elements"),
        Some(help),
    ))
}

/// The launch's grid and block shapes: `--grid`/`--block` if given, else the program's `.grid` (default 1) and
/// `.block` (default `W`), each within CUDA's limits (sm_90: a grid's x to 2³¹-1, y and z to 65535; a block's
/// x and y to 1024, z to 64) and today's totals (at most 2³¹-1 blocks, the machine's `max_threads_per_block`
/// threads in a block).
fn launch_shape(
    program: &Program,
    config: &Config,
    launch: &Launch,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<(Dim3, Dim3), LoadError> {
    let max_block = u64::from(config.max_threads_per_block);
    let grid = match launch.grid {
        Some(g) => {
            flag_shape(
                g,
                "--grid",
                [MAX_GRID, MAX_GRID_YZ, MAX_GRID_YZ],
                MAX_GRID,
                "blocks",
                "",
            )?;
            g
        }
        None => directive_shape(
            program.grid.as_deref(),
            1,
            ("the grid", "blocks"),
            [MAX_GRID, MAX_GRID_YZ, MAX_GRID_YZ],
            MAX_GRID,
            env,
        )?,
    };
    let block = match launch.block {
        Some(b) => {
            flag_shape(
                b,
                "--block",
                MAX_BLOCK_DIM,
                max_block,
                "threads",
                " (the machine's limit per block)",
            )?;
            b
        }
        None => directive_shape(
            program.block.as_deref(),
            config.warp_size,
            ("the block", "threads"),
            MAX_BLOCK_DIM,
            max_block,
            env,
        )?,
    };
    Ok((grid, block))
}

const AXES: [&str; 3] = ["x", "y", "z"];

/// Whether `--grid`/`--block` `d` is within `per_axis` and `total`: a 1-D shape is one count, 1 to `total`;
/// a 2-D or 3-D one has each component from 1 to its axis's limit and at most `total` in all.
fn flag_shape(d: Dim3, flag: &str, per_axis: [u64; 3], total: u64, what: &str, why: &str) -> Result<(), LoadError> {
    if d.rank() == 1 && !(1..=total).contains(&u64::from(d.x)) {
        return Err(LoadError::Usage(format!(
            "{flag} {d} is out of range: 1 to {total} {what}{why}"
        )));
    }
    let comps = [d.x, d.y, d.z];
    if let Some(k) = comps.iter().position(|&c| c == 0) {
        return Err(LoadError::Usage(format!(
            "{flag} {}x{}x{}: {} is 0; every component of a shape is at least 1",
            d.x, d.y, d.z, AXES[k]
        )));
    }
    if d.count() > total {
        return Err(LoadError::Usage(format!(
            "{flag} {d} is {} {what}; at most {total} in all{why}",
            d.count()
        )));
    }
    for k in 0..3 {
        if u64::from(comps[k]) > per_axis[k] {
            return Err(LoadError::Usage(format!(
                "{flag} {d}: {} is {}; at most {} (CUDA's limit in {})",
                AXES[k], comps[k], per_axis[k], AXES[k]
            )));
        }
    }
    Ok(())
}

/// The shape a `.grid`/`.block` directive gives (`default` in x when there is none), each component evaluated
/// and checked against its axis's limit, then the whole against `total`.
fn directive_shape(
    dims: Option<&[ConstExpr]>,
    default: u32,
    (what, unit): (&str, &str),
    per_axis: [u64; 3],
    total: u64,
    env: &dyn Fn(&str) -> Option<Value>,
) -> Result<Dim3, LoadError> {
    let Some(dims) = dims else {
        return Ok(Dim3::x(default));
    };
    let mut comps = [1u32; 3];
    for (k, e) in dims.iter().enumerate() {
        // A 1-D shape is one count, from 1 to the total; a component of a 2-D or 3-D one is limited per axis.
        let max = if dims.len() == 1 { total } else { per_axis[k].min(total) };
        let v = e.eval(env).map_err(eval_err)?;
        let Some(c) = whole_in(v, 1, max).and_then(|n| u32::try_from(n).ok()) else {
            let (name, help) = if dims.len() == 1 {
                // (As before 2-D launches: "the grid is 0", "the block size is 0".)
                (
                    if unit == "threads" {
                        "the block size".to_string()
                    } else {
                        what.to_string()
                    },
                    None,
                )
            } else {
                (
                    format!("{what}'s {}", AXES[k]),
                    Some(format!(
                        "CUDA allows {} in x, {} in y and {} in z, and at most {total} {unit} in all",
                        per_axis[0], per_axis[1], per_axis[2]
                    )),
                )
            };
            return Err(diag(
                e.span,
                format!("{name} is {v}; it must be a whole number from 1 to {max}"),
                "evaluates out of range",
                help,
            ));
        };
        comps[k] = c;
    }
    let d = Dim3::new(comps[0], comps[1], comps[2]);
    if d.count() > total {
        let span = dims[0].span.to(dims[dims.len() - 1].span);
        return Err(diag(
            span,
            format!("{what} is {d} = {} {unit}; at most {total} in all", d.count()),
            "too large in all",
            Some("make one of the components smaller".into()),
        ));
    }
    Ok(d)
}

/// `1073741824` → `1 GiB`: a byte count in the largest binary unit that divides it.
fn bytes(n: u64) -> String {
    match n {
        0 => "0 bytes".into(),
        n if n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

fn lookup(name: &str, w: u32, params: &[(String, Value)], elem: Option<(i64, i64)>) -> Option<Value> {
    if name == "W" {
        return Some(Value::Int(i64::from(w)));
    }
    if let Some((i, n)) = elem {
        match name {
            "i" => return Some(Value::Int(i)),
            "len" => return Some(Value::Int(n)),
            _ => {}
        }
    }
    params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// The most local memory a thread may have (CUDA's limit: 512 KiB).
const MAX_LOCAL_BYTES: u64 = 512 * 1024;

/// A buffer's or a shared array's name as an immediate: the buffer's generic address
/// ([`warpsim_isa::address::buffer_base`]), or the shared array's byte offset in the block's shared memory.
fn address_of(program: &Program, shared: &[SharedArray], name: &str) -> Option<Value> {
    if let Some(k) = program.buffers.iter().position(|b| b.name == name) {
        return i64::try_from(warpsim_isa::address::buffer_base(k)).ok().map(Value::Int);
    }
    let a = shared.iter().find(|a| a.name == name)?;
    i64::try_from(a.offset * 4).ok().map(Value::Int)
}

/// An instruction index as a pc.
#[allow(
    clippy::cast_possible_truncation,
    reason = "a program has far fewer than 2^32 instructions: its source is at most 8 MiB"
)]
fn pc32(pc: usize) -> u32 {
    pc as u32
}

/// `v` as a whole number from `lo` to `hi`, if it is one.
fn whole_in(v: Value, lo: u64, hi: u64) -> Option<u64> {
    match v {
        Value::Int(n) => u64::try_from(n).ok().filter(|n| (lo..=hi).contains(n)),
        Value::Float(_) => None,
    }
}

/// The low 32 bits of `i` (the pattern of an s32 or a u32 value).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the low 32 bits are the point"
)]
fn low_bits(i: i64) -> u32 {
    i as u32
}

/// The f32 nearest `v` (round to nearest even; out of range: an infinity), as the ISA reads an f32 constant.
#[allow(
    clippy::cast_possible_truncation,
    reason = "rounding to the nearest f32 is the point"
)]
fn nearest_f32(v: f64) -> f32 {
    v as f32
}

/// The bits of `v` as an element of type `elem`, a 32-bit element in the low half (an initialiser's value; a
/// JSON data file's number, [`crate::data`]).
#[inline]
pub(crate) fn to_elem(v: Value, elem: ElemTy) -> Option<u64> {
    match (elem, v) {
        (ElemTy::F32, v) => Some(u64::from(nearest_f32(v.as_f64()).to_bits())),
        (ElemTy::S32, Value::Int(i)) => i32::try_from(i).ok().map(|x| u64::from(x.cast_unsigned())),
        (ElemTy::U32, Value::Int(i)) => u32::try_from(i).ok().map(u64::from),
        (ElemTy::F64, v) => Some(v.as_f64().to_bits()),
        (ElemTy::S64, Value::Int(i)) => Some(i.cast_unsigned()),
        (ElemTy::U64, Value::Int(i)) => u64::try_from(i).ok(),
        (_, Value::Float(_)) => None,
    }
}

/// `values` as elements of type `elem` into `out` (low word first), [`to_elem`] with the type matched once for
/// the whole batch; the index of the first value that does not fit.
fn convert(values: &[Value], out: &mut [u32], elem: ElemTy) -> Result<(), usize> {
    #[inline(always)]
    fn each(values: &[Value], out: &mut [u32], elem: ElemTy) -> Result<(), usize> {
        let words = elem.words();
        for (k, (&v, o)) in values.iter().zip(out.chunks_exact_mut(words)).enumerate() {
            let bits = to_elem(v, elem).ok_or(k)?;
            o[0] = low32(bits);
            if words == 2 {
                o[1] = high32(bits);
            }
        }
        Ok(())
    }
    match elem {
        ElemTy::F32 => each(values, out, ElemTy::F32),
        ElemTy::S32 => each(values, out, ElemTy::S32),
        ElemTy::U32 => each(values, out, ElemTy::U32),
        ElemTy::F64 => each(values, out, ElemTy::F64),
        ElemTy::S64 => each(values, out, ElemTy::S64),
        ElemTy::U64 => each(values, out, ElemTy::U64),
    }
}

/// Element `k` of a buffer of `words`-word elements set to `bits` (low word first).
fn put(data: &mut [u32], words: usize, k: usize, bits: u64) {
    data[k * words] = low32(bits);
    if words == 2 {
        data[k * words + 1] = high32(bits);
    }
}

/// Elements a buffer initialiser evaluates per task.
const INIT_CHUNK: usize = 1 << 14;

/// Elements a buffer initialiser evaluates a step at a time ([`warpsim_isa::expr::Compiled::eval_batch`]).
const INIT_BATCH: usize = 256;

/// The buffers of `program` with these lengths, from their given contents or their initialisers.
fn make_buffers(
    program: &Program,
    lengths: &[usize],
    given: &[Option<&Contents>],
    w: u32,
    params: &[(String, Value)],
) -> Result<Vec<Buffer>, LoadError> {
    let mut buffers = Vec::with_capacity(program.buffers.len());
    for ((b, &len), given) in program.buffers.iter().zip(lengths).zip(given) {
        let data = initialise(b, len, w, params, given.map(|c| c.data.as_slice()))?;
        buffers.push(Buffer {
            name: b.name.clone(),
            elem: b.elem,
            data,
        });
    }
    Ok(buffers)
}

#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "element indices are the expression language's integers (i64): `len` is within the buffer limit, far \
              below i64::MAX, and an index is checked within 0..len before it indexes"
)]
fn initialise(
    b: &BufferDecl,
    len: usize,
    w: u32,
    params: &[(String, Value)],
    given: Option<&[u32]>,
) -> Result<Vec<u32>, LoadError> {
    // The memory itself may be refused (a capped address space): an error, not an abort.
    let words = b.elem.words();
    let mut data: Vec<u32> = Vec::new();
    if data.try_reserve_exact(len * words).is_err() {
        return Err(diag(
            b.len.span,
            format!(
                "cannot allocate buffer `{}`: {} elements ({} bytes)",
                b.name,
                len,
                len as u64 * 4 * words as u64
            ),
            "the host has not this much memory",
            Some("make the buffer smaller, or free memory (a `ulimit -v` may cap this process)".into()),
        ));
    }
    // Contents given with the launch replace the initialiser, which is not evaluated (their length is checked).
    if let Some(given) = given {
        data.extend_from_slice(given);
        return Ok(data);
    }
    let Some(init) = &b.init else {
        data.resize(len * words, 0);
        return Ok(data);
    };
    let n = len as i64;
    let bad_value = |span: Span, v: Value, at: i64| {
        diag(
            span,
            format!(
                "value {v} of element {at} does not fit buffer `{}` of {}",
                b.name,
                b.elem.name()
            ),
            "out of range for the element type",
            Some("integer buffers take whole numbers in range; use an f32 buffer for fractions".into()),
        )
    };
    // Values are evaluated in the element's arithmetic: floating point for f32 buffers.
    let float = matches!(b.elem, ElemTy::F32 | ElemTy::F64);
    let eval = |e: &ConstExpr, env: &dyn Fn(&str) -> Option<Value>| {
        if float { e.eval_float(env) } else { e.eval(env) }.map_err(eval_err)
    };
    let value_of = |e: &ConstExpr, i: i64| eval(e, &|name: &str| lookup(name, w, params, Some((i, n))));
    // The default for every element: every name but `i` looked up once, then the elements in chunks on the
    // host's threads (pure, so the same data on any number of them; the first bad element in index order is the
    // error).
    let default = init.default.bind(&|name| match name {
        "i" => None,
        _ => lookup(name, w, params, Some((0, n))),
    });
    // (Compiled to postfix steps when it names no other variable; where a step fails, the tree's evaluation gives
    // the error.)
    let compiled = default.compile("i", float);
    data.resize(len * words, 0);
    let fill = |(c, chunk): (usize, &mut [u32])| -> Result<(), LoadError> {
        let mut stack = Vec::new();
        let (mut columns, mut values) = (warpsim_isa::expr::Columns::default(), vec![Value::Int(0); INIT_BATCH]);
        for (s, batch) in chunk.chunks_mut(INIT_BATCH * words).enumerate() {
            let first = (c * INIT_CHUNK + s * INIT_BATCH) as i64;
            // The batch a step at a time; where an element fails, element by element (the first failure gets
            // the tree's error).
            let values = &mut values[..batch.len() / words];
            let whole = compiled
                .as_ref()
                .is_some_and(|c| c.eval_batch(first, values, &mut columns));
            // (A batch evaluated whole is converted with its element type chosen once; an element that does not
            // fit is left to the loop below, which names it.)
            if whole && convert(values, batch, b.elem).is_ok() {
                continue;
            }
            for (k, out) in batch.chunks_exact_mut(words).enumerate() {
                let i = first + k as i64;
                let v = if whole {
                    values[k]
                } else {
                    match compiled.as_ref().and_then(|c| c.eval(Value::Int(i), &mut stack)) {
                        Some(v) => v,
                        None => eval(&default, &|name: &str| (name == "i").then_some(Value::Int(i)))?,
                    }
                };
                let bits = to_elem(v, b.elem).ok_or_else(|| bad_value(init.default.span, v, i))?;
                out[0] = low32(bits);
                if words == 2 {
                    out[1] = high32(bits);
                }
            }
        }
        Ok(())
    };
    if len > INIT_CHUNK {
        use rayon::prelude::*;
        let results: Vec<Result<(), LoadError>> =
            data.par_chunks_mut(INIT_CHUNK * words).enumerate().map(fill).collect();
        results.into_iter().collect::<Result<(), LoadError>>()?;
    } else {
        fill((0, &mut data))?;
    }
    // Indices are integers in `len`, `W` and the parameters (no `i`: they name elements, not compute them).
    let env = |name: &str| match name {
        "len" => Some(Value::Int(n)),
        "i" => None,
        _ => lookup(name, w, params, None),
    };
    let index = |e: &ConstExpr| -> Result<i64, LoadError> {
        match e.eval(&env).map_err(eval_err)? {
            Value::Int(k) if (0..=n).contains(&k) => Ok(k),
            v => Err(diag(
                e.span,
                format!("index {v} is outside buffer `{}` (length {n})", b.name),
                "out of range",
                None,
            )),
        }
    };
    for o in &init.overrides {
        match o {
            InitOverride::One { index: ie, value } => {
                let k = index(ie)?;
                if k == n {
                    return Err(diag(
                        ie.span,
                        format!("index {k} is outside buffer `{}` (length {n})", b.name),
                        "out of range",
                        None,
                    ));
                }
                let v = value_of(value, k)?;
                put(
                    &mut data,
                    words,
                    k as usize,
                    to_elem(v, b.elem).ok_or_else(|| bad_value(value.span, v, k))?,
                );
            }
            InitOverride::List {
                start,
                end: None,
                values,
            } => {
                let s = index(start)?;
                for (k, ve) in (s..n).zip(values) {
                    let v = value_of(ve, k)?;
                    put(
                        &mut data,
                        words,
                        k as usize,
                        to_elem(v, b.elem).ok_or_else(|| bad_value(ve.span, v, k))?,
                    );
                }
            }
            InitOverride::List {
                start,
                end: Some(end),
                values,
            } => {
                let (s, e) = (index(start)?, index(end)?);
                if e - s != values.len() as i64 {
                    return Err(diag(
                        start.span.to(end.span),
                        format!(
                            "range {s}..{e} has {} elements but {} values are given",
                            (e - s).max(0),
                            values.len()
                        ),
                        "length mismatch",
                        Some("the range is half-open: `[0..3] = [a, b, c]`; `[0..] = [...]` fills what fits".into()),
                    ));
                }
                for (k, ve) in (s..e).zip(values) {
                    let v = value_of(ve, k)?;
                    put(
                        &mut data,
                        words,
                        k as usize,
                        to_elem(v, b.elem).ok_or_else(|| bad_value(ve.span, v, k))?,
                    );
                }
            }
        }
    }
    Ok(data)
}

/// Decode instruction `pc` of `program` (`inst`) for warp size `w` and the launch's `params`: its operation, the
/// unit that runs it and the type its values show as, with the registers and predicates it reads and writes.
#[allow(clippy::too_many_arguments)]
fn decode(
    program: &Program,
    (shared, specials): (&[SharedArray], [u32; 3]),
    inst: &Instruction,
    pc: usize,
    graph: &cfg::Cfg,
    w: u32,
    params: &[(String, Value)],
    consts: &std::cell::RefCell<Vec<u64>>,
) -> Result<DInstr, LoadError> {
    let dec = Decoder {
        w,
        params,
        consts,
        regs: &program.regs,
        program,
        shared,
        specials,
    };
    let (op, unit, ty) = match &inst.op {
        // Arithmetic, comparisons and conversions.
        Op::Mov { ty, d, a } => dec.mov(*ty, *d, a)?,
        Op::Unary { op, ty, d, a } => dec.unary(*op, *ty, *d, a)?,
        Op::Binary { op, ty, d, a, b } => dec.binary(*op, *ty, *d, a, b)?,
        Op::Ternary { op, ty, d, a, b, c } => dec.ternary(*op, *ty, *d, a, b, c)?,
        Op::Rounded {
            op,
            rounding,
            ftz,
            ty,
            d,
            a,
            b,
            c,
        } => {
            if (*ftz && *ty != Ty::F32) || (!*ftz && !op.rounds()) {
                return Err(diag(
                    inst.span,
                    format!("`{}` is not an instruction", warpsim_isa::print::op(program, &inst.op)),
                    "here",
                    Some("`.ftz` is for f32; `min`, `max`, `abs`, `neg` and `cvt` take it without a rounding".into()),
                ));
            }
            dec.rounded(*op, *rounding, *ftz, *ty, *d, a, b.as_ref(), c.as_ref())?
        }
        Op::Approx {
            op,
            ftz,
            ty,
            d,
            a,
            b,
            c,
        } => {
            let f = Wide::Approx {
                op: *op,
                ftz: *ftz,
                wide: ty.wide(),
            };
            let unit = match (op, ftz) {
                // (The fused forms' FFMA takes the place of the FMUL.)
                (ApproxOp::Div | ApproxOp::DivAdd, true) => Unit::MufuDivFtz,
                (ApproxOp::Div | ApproxOp::DivAdd, false) => Unit::MufuDiv,
                (ApproxOp::DivFull | ApproxOp::DivFullAdd, _) => Unit::MufuDivFull,
                // (ptxas emits the same multiplication before the `MUFU` with and without `.ftz`.)
                (ApproxOp::Sin | ApproxOp::Cos, _) => Unit::MufuSinCos,
                (_, true) => Unit::Mufu,
                (ApproxOp::Rcp, false) => Unit::MufuRcp,
                (ApproxOp::Ex2, false) => Unit::MufuEx2,
                (ApproxOp::Rsqrt | ApproxOp::Sqrt | ApproxOp::Lg2, false) => Unit::MufuRsqrtSqrtLg2,
            };
            dec.wide(f, unit, *ty, *d, a, b.as_ref(), c.as_ref())?
        }
        Op::Half {
            op,
            bf16,
            x2,
            d,
            a,
            b,
            c,
        } => {
            let f = Wide::Half {
                op: *op,
                bf16: *bf16,
                x2: *x2,
            };
            // (ptxas makes `HADD2`/`HMUL2`/`HFMA2`/`HMNMX2` of the arithmetic, on the FMA pipe, and `F2F`/`F2FP`
            // or `HADD2.F32` of the conversions.)
            let unit = match op {
                HalfOp::FromF32 | HalfOp::ToF32 => Unit::Convert,
                _ => Unit::Fma,
            };
            // (Immediates as their types encode them: f32 values for a conversion from f32, else the bits.)
            let ty = if *op == HalfOp::FromF32 { Ty::F32 } else { Ty::B32 };
            dec.wide(f, unit, ty, *d, a, b.as_ref(), c.as_ref())?
        }
        Op::Carry {
            op,
            ty,
            d,
            a,
            b,
            c,
            cin,
            cout,
        } => (
            DOp::Carry {
                f: *op,
                signed: ty.signed(),
                wide: ty.wide(),
                d: d.0,
                a: dec.src(a, *ty)?,
                b: dec.src(b, *ty)?,
                c: c.as_ref().map_or(Ok(Src::Imm(0)), |c| dec.src(c, *ty))?,
                cin: cin.map(|p| p.0),
                cout: cout.map(|p| p.0),
            },
            // (ptxas makes `IADD3` with carries of the additions, `IMAD.X`/`IMAD.HI.X` of the multiply-adds.)
            if op.adds() { Unit::Fma } else { Unit::Alu },
            *ty,
        ),
        Op::Setp { cmp, ftz, ty, p, a, b } => dec.setp(*cmp, *ftz, *ty, *p, a, b)?,
        Op::PredLogic { op, d, a, b } => pred_logic(*op, *d, *a, *b),
        Op::Selp { ty, d, a, b, p } => dec.selp(*ty, *d, a, b, *p)?,
        Op::Cvt {
            rounding,
            to,
            from,
            d,
            a,
        } => dec.cvt(*rounding, *to, *from, *d, a)?,
        // Memory.
        Op::Ld { ty, d, addr: a, narrow } => dec.ld(*ty, *d, a, *narrow)?,
        Op::St {
            ty,
            addr: a,
            a: v,
            narrow,
        } => dec.st(*ty, a, v, *narrow)?,
        Op::Atom {
            op,
            ty,
            d,
            addr: a,
            b,
            c,
        } => dec.atom(*op, *ty, *d, a, b, c.as_ref())?,
        // Barriers, and what a warp's lanes decide together.
        Op::Bar { kind, id, count, pred } => dec.bar(*kind, id, count.as_ref(), *pred)?,
        Op::BarWarp { mask } => dec.bar_warp(mask.as_ref())?,
        Op::Vote {
            mode,
            d_pred,
            d_reg,
            a,
            mask,
        } => dec.vote(*mode, (*d_pred, *d_reg), *a, mask.as_ref())?,
        Op::Activemask { d } => (DOp::Activemask { d: d.0 }, Unit::Alu, Ty::U32),
        Op::Match { all, d, p, a, mask } => dec.matching(*all, (*d, *p), a, mask.as_ref())?,
        Op::Redux { op, ty, d, a, mask } => (
            DOp::Redux {
                op: *op,
                signed: *ty == Ty::S32,
                d: d.0,
                a: dec.src(a, *ty)?,
                mask: dec.lane_mask_of(mask.as_ref())?,
            },
            Unit::Alu,
            *ty,
        ),
        Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            segment,
            mask,
        } => dec.shfl(*mode, (*d, *p), a, b, segment.as_ref(), mask.as_ref())?,
        Op::Bfi { ty, d, a, b, pos, len } => (
            DOp::Bfi {
                wide: ty.wide(),
                d: d.0,
                a: dec.src(a, *ty)?,
                b: dec.src(b, *ty)?,
                pos: dec.src(pos, Ty::U32)?,
                len: dec.src(len, Ty::U32)?,
            },
            Unit::Alu,
            *ty,
        ),
        Op::Pack { d, lo, hi } => (
            DOp::Wide {
                f: Wide::Pack,
                d: d.0,
                a: dec.src(lo, Ty::B32)?,
                b: dec.src(hi, Ty::B32)?,
                c: Src::Imm(0),
            },
            Unit::Alu,
            Ty::B64,
        ),
        Op::Unpack { lo, hi, a } => (
            DOp::Unpack {
                lo: lo.0,
                hi: hi.0,
                a: dec.src(a, Ty::B64)?,
            },
            Unit::Alu,
            Ty::B32,
        ),
        // Control flow.
        Op::Bra { target } => (DOp::Bra { target: pc32(*target) }, Unit::Branch, Ty::B32),
        Op::Exit => (DOp::Exit, Unit::Branch, Ty::B32),
        Op::Nop => (DOp::Nop, Unit::Alu, Ty::B32),
        Op::Printf { d, fmt, args } => (
            DOp::Printf {
                d: d.0,
                fmt: dec.src(fmt, Ty::B64)?,
                args: dec.src(args, Ty::B64)?,
            },
            Unit::Printf,
            Ty::S32,
        ),
        Op::AssertFail {
            message,
            file,
            line,
            function,
        } => (
            DOp::AssertFail {
                message: dec.src(message, Ty::B64)?,
                file: dec.src(file, Ty::B64)?,
                line: dec.src(line, Ty::U32)?,
                function: dec.src(function, Ty::B64)?,
            },
            Unit::Branch,
            Ty::B32,
        ),
    };
    let mut reads: smallvec::SmallVec<[u16; 4]> = inst
        .op
        .sources()
        .into_iter()
        .filter_map(|o| match o {
            Operand::Reg(r) => Some(r.0),
            _ => None,
        })
        .collect();
    reads.sort_unstable();
    reads.dedup();
    let mut pred_reads: smallvec::SmallVec<[u16; 2]> = inst.op.preds_read().into_iter().map(|p| p.0).collect();
    if let Some(g) = inst.guard {
        pred_reads.push(g.pred.0);
    }
    let ty = match (&inst.op, ty) {
        // Shuffles move bits; show them as the type of the value when the program says (b32 → u32 view).
        (_, Ty::B32) => Ty::U32,
        (_, t) => t,
    };
    Ok(DInstr {
        guard: inst.guard.map(|g| (g.pred.0, g.negated)),
        op,
        unit,
        reads: reads.into_iter().collect(),
        pred_reads: pred_reads.into_iter().collect(),
        write: inst.op.reg_written().map(|r| r.0),
        write2: match inst.op {
            Op::Unpack { hi, .. } => Some(hi.0),
            _ => None,
        },
        pred_write: inst.op.pred_written().map(|p| p.0),
        reconverge: pc32(graph.reconvergence_pc(pc).unwrap_or(program.instructions.len())),
        ty,
        sched: 0,
    })
}

/// An instruction decoded: its operation, the unit that runs it, and the type its values show as.
type Decoded = (DOp, Unit, Ty);

/// A predicate operation (no operand to evaluate).
fn pred_logic(op: PredLogicOp, d: Pred, a: PredOperand, b: Option<PredOperand>) -> Decoded {
    (
        DOp::PredLogic {
            op,
            d: d.0,
            a: (a.pred.0, a.negated),
            b: b.map(|b| (b.pred.0, b.negated)),
        },
        Unit::Alu,
        Ty::B32,
    )
}

/// What decoding an instruction's operands needs: the warp size and the launch's parameters, which immediates,
/// address offsets, lane masks and shuffle widths are constant expressions of.
struct Decoder<'a> {
    w: u32,
    params: &'a [(String, Value)],
    /// The 64-bit immediates met so far ([`Kernel::consts`]).
    consts: &'a std::cell::RefCell<Vec<u64>>,
    /// The program's registers (their widths).
    regs: &'a [Named],
    program: &'a Program,
    /// The block's shared arrays as laid out (a shared array's name is its byte offset).
    shared: &'a [SharedArray],
    /// `%nsmid`, `%dynamic_smem_size`, `%total_smem_size`.
    specials: [u32; 3],
}

impl Decoder<'_> {
    /// The value of a name in a constant expression (`W`, a parameter).
    fn env(&self, name: &str) -> Option<Value> {
        lookup(name, self.w, self.params, None).or_else(|| address_of(self.program, self.shared, name))
    }

    /// An immediate's value for a `ty` operand: evaluated in floating point for a float type.
    fn value(&self, e: &ConstExpr, ty: Ty) -> Result<Value, LoadError> {
        let env = |name: &str| self.env(name);
        if ty.is_float() {
            e.eval_float(&env)
        } else {
            e.eval(&env)
        }
        .map_err(eval_err)
    }

    /// A float `v` where the integer `ty` operand at `e` needs an integer.
    fn not_an_integer(e: &ConstExpr, ty: Ty, v: Value) -> LoadError {
        diag(
            e.span,
            format!("a `.{}` operand needs an integer, and this is {v}", ty.name()),
            "not an integer",
            Some("set an integer (a `--set` value with a decimal point is a float)".into()),
        )
    }

    /// An immediate as the bits of a `ty` operand: an integer in 32 bits, or a float for `.f32`.
    fn imm(&self, e: &ConstExpr, ty: Ty) -> Result<u32, LoadError> {
        let v = self.value(e, ty)?;
        let out = match (ty, v) {
            (Ty::F32, v) => Some(nearest_f32(v.as_f64()).to_bits()),
            // An s32 or a u32: its 32-bit pattern.
            (_, Value::Int(i)) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&i) => Some(low_bits(i)),
            _ => None,
        };
        out.ok_or_else(|| match v {
            Value::Float(_) => Self::not_an_integer(e, ty, v),
            Value::Int(_) => diag(
                e.span,
                format!("immediate {v} does not fit a `.{}` operand", ty.name()),
                "out of range",
                Some("integer operands are 32 bits: -2147483648 to 4294967295".into()),
            ),
        })
    }

    /// An immediate as the bits of a 64-bit `ty` operand: an integer in 64 bits, or a float for `.f64`.
    fn imm64(&self, e: &ConstExpr, ty: Ty) -> Result<u64, LoadError> {
        match (ty, self.value(e, ty)?) {
            (Ty::F64, v) => Ok(v.as_f64().to_bits()),
            // Any i64 is an s64's pattern, and a u64 up to 2^63 - 1 (the expression language's integers).
            (_, Value::Int(i)) => Ok(i.cast_unsigned()),
            (_, v @ Value::Float(_)) => Err(Self::not_an_integer(e, ty, v)),
        }
    }

    /// A value operand read as `ty`.
    fn src(&self, o: &Operand, ty: Ty) -> Result<Src, LoadError> {
        Ok(match o {
            Operand::Reg(r) => Src::Reg(r.0),
            // Launch constants.
            Operand::Special(Special::NSmId) => Src::Imm(self.specials[0]),
            Operand::Special(Special::DynamicSmemSize) => Src::Imm(self.specials[1]),
            Operand::Special(Special::TotalSmemSize) => Src::Imm(self.specials[2]),
            Operand::Special(s) => Src::Special(*s),
            Operand::Imm(e) if ty.wide() => {
                let v = self.imm64(e, ty)?;
                let mut consts = self.consts.borrow_mut();
                let k = consts.iter().position(|&c| c == v).unwrap_or_else(|| {
                    consts.push(v);
                    consts.len() - 1
                });
                Src::Const(u32::try_from(k).expect("fewer constants than instructions"))
            }
            Operand::Imm(e) => Src::Imm(self.imm(e, ty)?),
        })
    }

    /// A 64-bit or mixed-width operation on the `unit`, its operands read as `ty` (or 32 bits where `f`'s
    /// shape says so).
    #[allow(clippy::too_many_arguments)]
    fn wide(
        &self,
        f: Wide,
        unit: Unit,
        ty: Ty,
        d: Reg,
        a: &Operand,
        b: Option<&Operand>,
        c: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let (_, widths) = f.shape();
        let read = |o: Option<&Operand>, wide: bool| -> Result<Src, LoadError> {
            let t = match (ty.wide(), wide) {
                (true, false) | (false, true) => ty.other_width(),
                _ => ty,
            };
            o.map_or(Ok(Src::Imm(0)), |o| self.src(o, t))
        };
        let a = match f {
            Wide::Cvt { from, .. } => self.src(a, from)?,
            _ => read(Some(a), widths[0])?,
        };
        // A shift's amount is a u32.
        let b = match f {
            Wide::Shl | Wide::ShrU | Wide::ShrS => b.map_or(Ok(Src::Imm(0)), |o| self.src(o, Ty::U32))?,
            _ => read(b, widths[1])?,
        };
        let c = read(c, widths[2])?;
        let shown = match f {
            Wide::Cvt { to, .. } => to,
            _ if f.shape().0 == ty.wide() => ty,
            _ => ty.other_width(),
        };
        Ok((DOp::Wide { f, d: d.0, a, b, c }, unit, shown))
    }

    /// An address: its array, base and integer offset.
    fn addr(&self, a: &Address, ty: Ty) -> Result<DAddr, LoadError> {
        if a.mode == AddrMode::Flat {
            return self.flat_addr(a, ty);
        }
        let disp = match &a.disp {
            Some(e) => match e.eval(&|name: &str| self.env(name)).map_err(eval_err)? {
                Value::Int(v) => v,
                v @ Value::Float(_) => {
                    return Err(diag(
                        e.span,
                        format!("address offset {v} is not an integer"),
                        "expected an integer",
                        None,
                    ));
                }
            },
            None => 0,
        };
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the assembler refuses a program with u16::MAX buffers and shared arrays or more"
        )]
        let buffer = a.buffer as u16;
        Ok(DAddr {
            shared: a.space == Space::Shared,
            flat: Flat::No,
            base64: false,
            local: false,
            wide: ty.wide(),
            buffer,
            byte: a.mode == AddrMode::Byte,
            narrow: None,
            base: a.base.as_ref().map(|b| self.src(b, Ty::U32)).transpose()?,
            disp,
        })
    }

    /// A flat address `[%r + disp]`: the base register (64 bits wide, or for shared and local memory 32 bits
    /// wide) and the constant displacement in bytes.
    fn flat_addr(&self, a: &Address, ty: Ty) -> Result<DAddr, LoadError> {
        let disp = match &a.disp {
            Some(e) => match e.eval(&|name: &str| self.env(name)).map_err(eval_err)? {
                Value::Int(v) => v,
                v @ Value::Float(_) => {
                    return Err(diag(
                        e.span,
                        format!("address offset {v} is not an integer"),
                        "expected an integer",
                        None,
                    ));
                }
            },
            None => 0,
        };
        let flat = match a.space {
            Space::Global => Flat::Global,
            Space::Shared => Flat::Shared,
            Space::Local => Flat::Local,
            Space::Generic => Flat::Generic,
        };
        let (base, base64) = match &a.base {
            Some(Operand::Reg(r)) => {
                let wide = self.regs.get(usize::from(r.0)).is_some_and(|n| n.width == Width::W64);
                (Some(Src::Reg(r.0)), wide)
            }
            Some(o) => (Some(self.src(o, Ty::U32)?), false),
            None => (None, false),
        };
        if !base64 && matches!(flat, Flat::Global | Flat::Generic) {
            return Err(LoadError::Usage(format!(
                "a {} address needs a 64-bit base register (`.reg .b64`)",
                if flat == Flat::Global { "global" } else { "generic" }
            )));
        }
        Ok(DAddr {
            shared: flat == Flat::Shared,
            flat,
            base64,
            local: flat == Flat::Local,
            wide: ty.wide(),
            buffer: 0,
            byte: true,
            narrow: None,
            base,
            disp,
        })
    }

    /// A member mask: a constant cut to the warp's lanes (all lanes when omitted), or a register.
    fn lane_mask_of(&self, m: Option<&Operand>) -> Result<Member, LoadError> {
        let lane_mask = if self.w == 64 { u64::MAX } else { (1u64 << self.w) - 1 };
        match m {
            None => Ok(Member::Lanes(lane_mask)),
            Some(o @ (Operand::Reg(_) | Operand::Special(_))) => Ok(Member::Reg(self.src(o, Ty::U32)?)),
            Some(Operand::Imm(e)) => match e.eval(&|name: &str| self.env(name)).map_err(eval_err)? {
                Value::Int(v) => Ok(Member::Lanes(v.cast_unsigned() & lane_mask)),
                v @ Value::Float(_) => Err(diag(
                    e.span,
                    format!("lane mask {v} is not an integer"),
                    "expected a lane mask",
                    None,
                )),
            },
        }
    }

    /// `mov`: the clock's own unit for `%clock`, the ALU otherwise.
    fn mov(&self, ty: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        if ty.wide() {
            let unit = if matches!(a, Operand::Special(Special::Clock64)) {
                Unit::Clock
            } else {
                Unit::Alu
            };
            return self.wide(Wide::Mov, unit, ty, d, a, None, None);
        }
        let unit = if matches!(a, Operand::Special(Special::Clock | Special::Clock64)) {
            Unit::Clock
        } else {
            Unit::Alu
        };
        Ok((
            DOp::Mov {
                d: d.0,
                a: self.src(a, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `neg`, `abs`, `not`: float or integer by the type.
    fn unary(&self, op: UnaryOp, ty: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        if ty.wide() || matches!(op, UnaryOp::Sqrt | UnaryOp::Bfind | UnaryOp::BfindShift) {
            let (f, unit) = match (op, ty) {
                (UnaryOp::Sqrt, Ty::F32) => (Wide::Sqrt32, Unit::Sqrt32),
                (UnaryOp::Sqrt, _) => (Wide::SqrtF, Unit::Sqrt),
                (UnaryOp::Neg, Ty::F64) => (Wide::NegF, Unit::Alu),
                (UnaryOp::Neg, _) => (Wide::NegI, Unit::Fma),
                (UnaryOp::Abs, Ty::F64) => (Wide::AbsF, Unit::Alu),
                (UnaryOp::Abs, _) => (Wide::AbsI, Unit::Alu),
                (UnaryOp::Not, _) => (Wide::Not, Unit::Alu),
                (UnaryOp::Popc, _) => (Wide::Popc64, Unit::Alu),
                (UnaryOp::Clz, _) => (Wide::Clz64, Unit::Alu),
                (UnaryOp::Brev, _) => (Wide::Brev64, Unit::Alu),
                (UnaryOp::Bfind | UnaryOp::BfindShift, _) => (
                    Wide::Bfind {
                        signed: ty.signed(),
                        wide: ty.wide(),
                        shiftamt: op == UnaryOp::BfindShift,
                    },
                    Unit::Alu,
                ),
            };
            return self.wide(f, unit, ty, d, a, None, None);
        }
        let f = match (op, ty) {
            (UnaryOp::Neg, Ty::F32) => Un::NegF,
            (UnaryOp::Neg, _) => Un::NegI,
            (UnaryOp::Abs, Ty::F32) => Un::AbsF,
            (UnaryOp::Abs, _) => Un::AbsI,
            (UnaryOp::Popc, _) => Un::Popc,
            (UnaryOp::Clz, _) => Un::Clz,
            (UnaryOp::Brev, _) => Un::Brev,
            (UnaryOp::Not | UnaryOp::Sqrt | UnaryOp::Bfind | UnaryOp::BfindShift, _) => Un::Not,
        };
        Ok((
            DOp::Un {
                f,
                d: d.0,
                a: self.src(a, ty)?,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// A two-operand operation: float, signed or unsigned by the type, on the unit its operation uses; a shift's
    /// amount is read as `.u32`.
    fn binary(&self, op: BinaryOp, ty: Ty, d: Reg, a: &Operand, b: &Operand) -> Result<Decoded, LoadError> {
        if ty.wide() || matches!(op, BinaryOp::MulHi | BinaryOp::MulWide | BinaryOp::CopySign) {
            let (f, unit) = wide_binary(op, ty);
            return self.wide(f, unit, ty, d, a, Some(b), None);
        }
        let f = binary_op(op, ty);
        let bty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        Ok((
            DOp::Bin {
                f,
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, bty)?,
            },
            binary_unit(f),
            ty,
        ))
    }

    /// IEEE arithmetic with a directed rounding: on the unit its rounded-to-nearest form uses; `rcp.rn` and an f32
    /// reciprocal on the reciprocal's.
    #[allow(clippy::too_many_arguments, reason = "an instruction's fields")]
    fn rounded(
        &self,
        op: RoundedOp,
        rounding: Rounding,
        ftz: bool,
        ty: Ty,
        d: Reg,
        a: &Operand,
        b: Option<&Operand>,
        c: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let wide = ty.wide();
        // (An f64 reciprocal with a directed rounding is ptxas's division subroutine: timed from the division.)
        let unit = match op {
            RoundedOp::Sqrt if !wide => Unit::Sqrt32,
            RoundedOp::Sqrt => Unit::Sqrt,
            RoundedOp::Rcp if !wide => Unit::Fp32Rcp,
            RoundedOp::Rcp if rounding == Rounding::NearestFloat => Unit::Fp64Rcp,
            RoundedOp::Div | RoundedOp::Rcp if wide => Unit::Fp64Div,
            RoundedOp::Div | RoundedOp::Rcp => Unit::Fp32Div,
            // FMNMX.FTZ, as `min.f32`.
            RoundedOp::Min | RoundedOp::Max => Unit::Alu,
            _ if wide => Unit::Fp64,
            // FADD.FTZ, FMUL.FTZ, FFMA.FTZ (abs, neg and the flush an FADD.FTZ too).
            _ => Unit::Fma,
        };
        self.wide(
            Wide::Rounded {
                op,
                rounding,
                wide,
                ftz,
            },
            unit,
            ty,
            d,
            a,
            b,
            c,
        )
    }

    /// `fma` or `mad`, on the FMA datapath (FP64's for f64).
    fn ternary(
        &self,
        op: TernaryOp,
        ty: Ty,
        d: Reg,
        a: &Operand,
        b: &Operand,
        c: &Operand,
    ) -> Result<Decoded, LoadError> {
        if ty.wide()
            || matches!(
                op,
                TernaryOp::MadHi
                    | TernaryOp::MadWide
                    | TernaryOp::Bfe
                    | TernaryOp::Prmt
                    | TernaryOp::Fns
                    | TernaryOp::Dp4a { .. }
                    | TernaryOp::Dp2a { .. }
                    | TernaryOp::Lop3(_)
            )
        {
            let signed = ty.signed();
            let (f, unit) = match op {
                TernaryOp::Bfe => (
                    Wide::Bfe {
                        signed,
                        wide: ty.wide(),
                    },
                    Unit::Alu,
                ),
                TernaryOp::Prmt => (Wide::Prmt, Unit::Alu),
                TernaryOp::Fns => (Wide::Fns, Unit::Alu),
                // IDP.4A and IDP.2A on the integer multiply-add's pipe, LOP3 on the ALU.
                TernaryOp::Dp4a { .. } | TernaryOp::Dp2a { .. } => (Wide::Dot { op }, Unit::Fma),
                TernaryOp::Lop3(_) => (Wide::Dot { op }, Unit::Alu),
                _ if ty == Ty::F64 => (Wide::FmaF, Unit::Fp64),
                TernaryOp::MadHi if ty.wide() => (if signed { Wide::MadHiS } else { Wide::MadHiU }, Unit::Fma),
                TernaryOp::MadHi => (if signed { Wide::MadHi32S } else { Wide::MadHi32U }, Unit::Fma),
                TernaryOp::MadWide => (if signed { Wide::MadWideS } else { Wide::MadWideU }, Unit::Fma),
                _ => (Wide::Mad, Unit::Fma),
            };
            return self.wide(f, unit, ty, d, a, Some(b), Some(c));
        }
        let (f, unit) = if ty == Ty::F32 {
            (Tern::FmaF, Unit::Fma)
        } else {
            (Tern::MadI, Unit::Fma)
        };
        Ok((
            DOp::Tern {
                f,
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
                c: self.src(c, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `setp`: a float, signed or unsigned comparison by the type.
    fn setp(&self, cmp: Cmp, ftz: bool, ty: Ty, p: Pred, a: &Operand, b: &Operand) -> Result<Decoded, LoadError> {
        let class = match ty {
            Ty::F32 if ftz => CmpClass::FloatFtz,
            Ty::F32 | Ty::F64 => CmpClass::Float,
            Ty::S32 | Ty::S64 => CmpClass::Signed,
            _ => CmpClass::Unsigned,
        };
        if ty.wide() {
            return Ok((
                DOp::Setp64 {
                    cmp,
                    class,
                    p: p.0,
                    a: self.src(a, ty)?,
                    b: self.src(b, ty)?,
                },
                if ty == Ty::F64 { Unit::Fp64 } else { Unit::Alu },
                ty,
            ));
        }
        Ok((
            DOp::Setp {
                cmp,
                class,
                p: p.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// `selp`: one of two values by a predicate.
    fn selp(&self, ty: Ty, d: Reg, a: &Operand, b: &Operand, p: Pred) -> Result<Decoded, LoadError> {
        if ty.wide() {
            return Ok((
                DOp::Selp64 {
                    d: d.0,
                    a: self.src(a, ty)?,
                    b: self.src(b, ty)?,
                    p: p.0,
                },
                Unit::Alu,
                ty,
            ));
        }
        Ok((
            DOp::Selp {
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
                p: p.0,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// `cvt`: which conversion the two types make; the value shows as the type converted to.
    fn cvt(&self, rounding: Rounding, to: Ty, from: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        let directed = matches!(rounding, Rounding::FloatZero | Rounding::FloatDown | Rounding::FloatUp);
        if to.wide() || from.wide() || directed {
            let f = Wide::Cvt { to, from, rounding };
            return self.wide(f, Unit::Convert, to, d, a, None, None);
        }
        let f = match (to, from) {
            (Ty::F32, Ty::F32) => Conv::F2F(rounding),
            (Ty::S32, Ty::F32) => Conv::F2S(rounding),
            (Ty::U32, Ty::F32) => Conv::F2U(rounding),
            (Ty::F32, Ty::S32) => Conv::S2F,
            (Ty::F32, _) => Conv::U2F,
            _ => Conv::Bits,
        };
        Ok((
            DOp::Cvt {
                f,
                d: d.0,
                a: self.src(a, from)?,
            },
            Unit::Convert,
            to,
        ))
    }

    /// `ld`: on the shared or the global load path by the address's space.
    fn ld(&self, ty: Ty, d: Reg, a: &Address, narrow: Option<Narrow>) -> Result<Decoded, LoadError> {
        let unit = if a.space == Space::Shared {
            Unit::SharedLoad
        } else {
            Unit::GlobalLoad
        };
        let mut addr = self.addr(a, ty)?;
        addr.narrow = narrow;
        Ok((DOp::Ld { d: d.0, addr }, unit, ty))
    }

    /// `st`: on the shared or the global store path by the address's space.
    fn st(&self, ty: Ty, a: &Address, v: &Operand, narrow: Option<Narrow>) -> Result<Decoded, LoadError> {
        let unit = if a.space == Space::Shared {
            Unit::SharedStore
        } else {
            Unit::GlobalStore
        };
        let mut addr = self.addr(a, ty)?;
        addr.narrow = narrow;
        Ok((
            DOp::St {
                addr,
                a: self.src(v, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `atom`: which atomic (float, signed or unsigned by the type), shared or global by the address's space.
    fn atom(
        &self,
        op: AtomOp,
        ty: Ty,
        d: Option<Reg>,
        a: &Address,
        b: &Operand,
        c: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        if a.space == Space::Local {
            return Err(LoadError::Usage(
                "`atom`/`red` on `.local` memory: PTX defines atomics on global and shared memory (or a generic address of either)".into(),
            ));
        }
        let f = atomic_op(op, ty);
        let unit = if a.space == Space::Shared {
            if matches!(
                f,
                Atom::AddI64
                    | Atom::MinS64
                    | Atom::MinU64
                    | Atom::MaxS64
                    | Atom::MaxU64
                    | Atom::And64
                    | Atom::Or64
                    | Atom::Xor64
            ) {
                Unit::SharedAtomicCas
            } else {
                Unit::SharedAtomic
            }
        } else if matches!(f, Atom::MinF | Atom::MaxF) {
            Unit::GlobalAtomicCas
        } else {
            Unit::GlobalAtomic
        };
        Ok((
            DOp::Atom {
                f,
                d: d.map(|d| d.0),
                addr: self.addr(a, ty)?,
                b: self.src(b, ty)?,
                c: c.map(|c| self.src(c, ty)).transpose()?,
            },
            unit,
            ty,
        ))
    }

    /// `bar.sync` and `bar.red`: the barrier's id, its thread count, and what it reduces.
    fn bar(
        &self,
        kind: BarKind,
        id: &Operand,
        count: Option<&Operand>,
        pred: Option<PredOperand>,
    ) -> Result<Decoded, LoadError> {
        let kind = match kind {
            BarKind::Sync => DBar::Sync,
            BarKind::Arrive => DBar::Arrive,
            BarKind::Popc(d) => DBar::Popc(d.0),
            BarKind::And(d) => DBar::And(d.0),
            BarKind::Or(d) => DBar::Or(d.0),
        };
        Ok((
            DOp::Bar {
                kind,
                id: self.src(id, Ty::U32)?,
                count: count.map(|c| self.src(c, Ty::U32)).transpose()?,
                pred: pred.map(|p| (p.pred.0, p.negated)),
            },
            Unit::Barrier,
            Ty::U32,
        ))
    }

    /// `bar.warp.sync`: its member mask.
    fn bar_warp(&self, mask: Option<&Operand>) -> Result<Decoded, LoadError> {
        Ok((
            DOp::BarWarp {
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::B32,
        ))
    }

    /// `vote`: its destination (the register when it writes one, else the predicate) and member mask.
    fn vote(
        &self,
        mode: VoteMode,
        (d_pred, d_reg): (Option<Pred>, Option<Reg>),
        a: PredOperand,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let d = match (d_pred, d_reg) {
            (_, Some(r)) => r.0,
            (Some(p), None) => p.0,
            (None, None) => 0,
        };
        Ok((
            DOp::Vote {
                mode,
                d,
                a: (a.pred.0, a.negated),
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::U32,
        ))
    }

    /// `match.any` and `match.all`: the value compared (as bits) and the member mask.
    fn matching(
        &self,
        all: bool,
        (d, p): (Reg, Option<Pred>),
        a: &Operand,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        Ok((
            DOp::Match {
                all,
                d: d.0,
                p: p.map(|p| p.0),
                a: self.src(a, Ty::B32)?,
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::U32,
        ))
    }

    /// `shfl`: its segment (clamp and segment mask), member mask, and the shuffle unit (by its lane operand's kind).
    fn shfl(
        &self,
        mode: ShflMode,
        (d, p): (Reg, Option<Pred>),
        a: &Operand,
        b: &Operand,
        segment: Option<&ShflSegment>,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let from = match segment {
            Some(ShflSegment::Reg(c)) => Some(self.src(c, Ty::U32)?),
            _ => None,
        };
        let (clamp, segmask) = self.segment(mode, segment)?;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "both are below the warp size (at most 64)"
        )]
        let (clamp, segmask) = (clamp as u8, segmask as u8);
        let member = self.lane_mask_of(mask)?;
        // (A register that only ever holds one constant becomes an immediate at load: `shuffle_units`.)
        let b = self.src(b, Ty::U32)?;
        let unit = if matches!(b, Src::Imm(_) | Src::Const(_)) {
            Unit::Shuffle
        } else {
            Unit::ShuffleReg
        };
        Ok((
            DOp::Shfl {
                mode,
                d: d.0,
                p: p.map(|p| p.0),
                a: self.src(a, Ty::B32)?,
                b,
                clamp,
                segmask,
                from,
                member,
            },
            unit,
            Ty::B32,
        ))
    }

    /// A shuffle's clamp and segment mask: the whole warp when omitted, a segment of a power-of-two width, or
    /// PTX's raw `c` operand.
    fn segment(&self, mode: ShflMode, segment: Option<&ShflSegment>) -> Result<(u32, u32), LoadError> {
        let w = self.w;
        Ok(match segment {
            None => (if mode == ShflMode::Up { 0 } else { w - 1 }, 0),
            Some(ShflSegment::Width(e)) => {
                let v = e.eval(&|name: &str| self.env(name)).map_err(eval_err)?;
                let width = whole_in(v, 1, u64::from(w))
                    .filter(|n| n.is_power_of_two())
                    .and_then(|n| u32::try_from(n).ok());
                let Some(width) = width else {
                    return Err(diag(
                        e.span,
                        format!("shuffle width {v} does not fit a warp of {w} lanes"),
                        "invalid width",
                        Some(format!("the width is a power of two from 1 to the warp size ({w})")),
                    ));
                };
                (if mode == ShflMode::Up { 0 } else { width - 1 }, w - width)
            }
            Some(ShflSegment::Raw(e)) => crate::shuffle::unpack_c(self.imm(e, Ty::U32)?, w),
            // Read by each lane at run time.
            Some(ShflSegment::Reg(_)) => (0, 0),
        })
    }
}

/// A two-operand operation's function: float, signed or unsigned by the type.
fn binary_op(op: BinaryOp, ty: Ty) -> Bin {
    let signed = ty == Ty::S32;
    let float = ty == Ty::F32;
    match op {
        BinaryOp::Add if float => Bin::AddF,
        BinaryOp::Add => Bin::AddI,
        BinaryOp::Sub if float => Bin::SubF,
        BinaryOp::Sub => Bin::SubI,
        BinaryOp::Mul if float => Bin::MulF,
        BinaryOp::Mul => Bin::MulI,
        BinaryOp::Div if float => Bin::DivF,
        BinaryOp::Div if signed => Bin::DivS,
        BinaryOp::Div => Bin::DivU,
        BinaryOp::Rem if signed => Bin::RemS,
        BinaryOp::Rem => Bin::RemU,
        BinaryOp::Min if float => Bin::MinF,
        BinaryOp::Min if signed => Bin::MinS,
        BinaryOp::Min => Bin::MinU,
        BinaryOp::Max if float => Bin::MaxF,
        BinaryOp::Max if signed => Bin::MaxS,
        BinaryOp::Max => Bin::MaxU,
        BinaryOp::And => Bin::And,
        BinaryOp::Or => Bin::Or,
        BinaryOp::Xor => Bin::Xor,
        BinaryOp::Shl => Bin::Shl,
        BinaryOp::Shr if signed => Bin::ShrS,
        BinaryOp::Shr => Bin::ShrU,
        // (Decoded as `Wide`.)
        BinaryOp::MulHi | BinaryOp::MulWide | BinaryOp::CopySign => Bin::MulI,
    }
}

/// A 64-bit (or `.hi`/`.wide`) two-operand operation's function and unit.
fn wide_binary(op: BinaryOp, ty: Ty) -> (Wide, Unit) {
    let signed = ty.signed();
    // (ptxas makes a `LOP3` of copysign, or of its high word for f64.)
    if op == BinaryOp::CopySign {
        return (Wide::CopySign { wide: ty.wide() }, Unit::Alu);
    }
    if ty == Ty::F64 {
        return match op {
            BinaryOp::Add => (Wide::AddF, Unit::Fp64),
            BinaryOp::Sub => (Wide::SubF, Unit::Fp64),
            BinaryOp::Mul => (Wide::MulF, Unit::Fp64),
            BinaryOp::Div => (Wide::DivF, Unit::Fp64Div),
            BinaryOp::Min => (Wide::MinF, Unit::Fp64),
            _ => (Wide::MaxF, Unit::Fp64),
        };
    }
    let pick = |s: Wide, u: Wide| if signed { s } else { u };
    match op {
        BinaryOp::Add => (Wide::Add, Unit::Fma),
        BinaryOp::Sub => (Wide::Sub, Unit::Fma),
        BinaryOp::Mul => (Wide::Mul, Unit::Fma),
        BinaryOp::MulHi if ty.wide() => (pick(Wide::MulHiS, Wide::MulHiU), Unit::Fma),
        BinaryOp::MulHi => (pick(Wide::MulHi32S, Wide::MulHi32U), Unit::Fma),
        BinaryOp::MulWide => (pick(Wide::MulWideS, Wide::MulWideU), Unit::Fma),
        BinaryOp::Div | BinaryOp::Rem => {
            let unit = if signed { Unit::IntDiv64S } else { Unit::IntDiv64 };
            let f = if op == BinaryOp::Div {
                pick(Wide::DivS, Wide::DivU)
            } else {
                pick(Wide::RemS, Wide::RemU)
            };
            (f, unit)
        }
        BinaryOp::Min => (pick(Wide::MinS, Wide::MinU), Unit::Alu),
        BinaryOp::Max => (pick(Wide::MaxS, Wide::MaxU), Unit::Alu),
        BinaryOp::And => (Wide::And, Unit::Alu),
        BinaryOp::Or => (Wide::Or, Unit::Alu),
        BinaryOp::Xor => (Wide::Xor, Unit::Alu),
        BinaryOp::Shl => (Wide::Shl, Unit::Alu),
        BinaryOp::Shr => (pick(Wide::ShrS, Wide::ShrU), Unit::Alu),
        BinaryOp::CopySign => (Wide::CopySign { wide: ty.wide() }, Unit::Alu),
    }
}

/// The low and high 32 bits of a 64-bit value.
#[allow(clippy::cast_possible_truncation, reason = "the halves are the point")]
pub(crate) fn low32(v: u64) -> u32 {
    v as u32
}

#[allow(clippy::cast_possible_truncation, reason = "the halves are the point")]
pub(crate) fn high32(v: u64) -> u32 {
    (v >> 32) as u32
}

/// The unit a two-operand operation runs on.
fn binary_unit(f: Bin) -> Unit {
    match f {
        Bin::DivF => Unit::Fp32Div,
        Bin::DivS | Bin::DivU | Bin::RemS | Bin::RemU => Unit::IntDiv,
        // Adds, subtracts and multiplies (float and integer) use the FMA datapath; min, max, logic and shifts
        // the ALU.
        Bin::AddF | Bin::SubF | Bin::MulF | Bin::AddI | Bin::SubI | Bin::MulI => Unit::Fma,
        _ => Unit::Alu,
    }
}

/// An atomic's function: float, signed or unsigned by the type.
fn atomic_op(op: AtomOp, ty: Ty) -> Atom {
    let float = ty.is_float();
    let signed = ty.signed();
    if ty.wide() {
        return match op {
            AtomOp::Add if float => Atom::AddF64,
            AtomOp::Add => Atom::AddI64,
            AtomOp::Min if signed => Atom::MinS64,
            AtomOp::Min => Atom::MinU64,
            AtomOp::Max if signed => Atom::MaxS64,
            AtomOp::Max => Atom::MaxU64,
            AtomOp::Exch => Atom::Exch64,
            AtomOp::Cas => Atom::Cas64,
            AtomOp::And => Atom::And64,
            AtomOp::Or => Atom::Or64,
            AtomOp::Xor => Atom::Xor64,
            // (The assembler and the PTX lowering take `inc`/`dec` as u32 only.)
            AtomOp::Inc => Atom::Inc,
            AtomOp::Dec => Atom::Dec,
        };
    }
    match op {
        AtomOp::Add if float => Atom::AddF,
        AtomOp::Add => Atom::AddI,
        AtomOp::Min if float => Atom::MinF,
        AtomOp::Min if signed => Atom::MinS,
        AtomOp::Min => Atom::MinU,
        AtomOp::Max if float => Atom::MaxF,
        AtomOp::Max if signed => Atom::MaxS,
        AtomOp::Max => Atom::MaxU,
        AtomOp::Exch => Atom::Exch,
        AtomOp::Cas => Atom::Cas,
        AtomOp::And => Atom::And,
        AtomOp::Or => Atom::Or,
        AtomOp::Xor => Atom::Xor,
        AtomOp::Inc => Atom::Inc,
        AtomOp::Dec => Atom::Dec,
    }
}

/// The element type of the array an address names (a flat address names none: the access's type).
fn elem_of(p: &Program, addr: &Address, ty: Ty) -> ElemTy {
    match (addr.mode, addr.space) {
        (AddrMode::Flat, _) => {
            ElemTy::ALL
                .into_iter()
                .find(|e| e.ty() == ty)
                .unwrap_or(if ty.wide() { ElemTy::U64 } else { ElemTy::U32 })
        }
        (_, Space::Shared) => p.shared[addr.buffer].elem,
        _ => p.buffers[addr.buffer].elem,
    }
}

/// Infers a display type per register: the type most typed instructions read or write it as (shuffles and
/// `.b32` moves carry no type). Only traces use it; values are untyped bits.
fn register_types(p: &Program) -> Vec<Ty> {
    // Types that say how to show a value (untyped bits carry no vote).
    const SHOWN: [Ty; 6] = [Ty::F32, Ty::S32, Ty::U32, Ty::F64, Ty::S64, Ty::U64];
    let slot = |ty: Ty| SHOWN.iter().position(|&t| t == ty);
    let mut votes = vec![[0u32; 6]; p.regs.len()];
    let mut vote = |o: &Operand, ty: Ty| {
        if let (Operand::Reg(r), Some(k)) = (o, slot(ty)) {
            votes[r.0 as usize][k] += 1;
        }
    };
    for inst in &p.instructions {
        match &inst.op {
            Op::Unary {
                op: UnaryOp::Popc | UnaryOp::Clz | UnaryOp::Bfind | UnaryOp::BfindShift,
                d,
                a,
                ty,
            } => {
                vote(&Operand::Reg(*d), Ty::U32);
                vote(a, *ty);
            }
            Op::Mov { ty, d, a } | Op::Unary { ty, d, a, .. } => {
                vote(&Operand::Reg(*d), *ty);
                vote(a, *ty);
            }
            Op::Binary { op, ty, d, a, b } => {
                let dt = if *op == BinaryOp::MulWide {
                    ty.other_width()
                } else {
                    *ty
                };
                vote(&Operand::Reg(*d), dt);
                vote(a, *ty);
                if !matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    vote(b, *ty);
                }
            }
            Op::Ternary { op, ty, d, a, b, c } => {
                let wt = if *op == TernaryOp::MadWide {
                    ty.other_width()
                } else {
                    *ty
                };
                vote(&Operand::Reg(*d), wt);
                vote(a, *ty);
                let bt = if *op == TernaryOp::Bfe { Ty::U32 } else { *ty };
                vote(b, bt);
                vote(c, if *op == TernaryOp::Bfe { Ty::U32 } else { wt });
            }
            Op::Setp { ty, a, b, .. } => {
                vote(a, *ty);
                vote(b, *ty);
            }
            Op::Selp { ty, d, a, b, .. } => {
                vote(&Operand::Reg(*d), *ty);
                vote(a, *ty);
                vote(b, *ty);
            }
            Op::Cvt { to, from, d, a, .. } => {
                vote(&Operand::Reg(*d), *to);
                vote(a, *from);
            }
            Op::Ld { narrow: Some(n), d, .. } => vote(&Operand::Reg(*d), if n.signed { Ty::S32 } else { Ty::U32 }),
            Op::St { narrow: Some(_), .. } => {}
            Op::Ld { ty, d, addr, .. } => {
                let t = if matches!(ty, Ty::B32 | Ty::B64) {
                    elem_of(p, addr, *ty).ty()
                } else {
                    *ty
                };
                vote(&Operand::Reg(*d), t);
            }
            Op::St { ty, addr, a, .. } => {
                let t = if matches!(ty, Ty::B32 | Ty::B64) {
                    elem_of(p, addr, *ty).ty()
                } else {
                    *ty
                };
                vote(a, t);
            }
            _ => {}
        }
    }
    votes
        .iter()
        .zip(&p.regs)
        .map(|(v, r)| {
            // Only the types of the register's width count.
            let range = if r.width == Width::W64 { 3..6 } else { 0..3 };
            let best = range.clone().max_by_key(|&k| (v[k], 6 - k)).unwrap_or(2);
            match r.width {
                _ if v[best] > 0 => SHOWN[best],
                Width::W64 => Ty::U64,
                _ => Ty::U32,
            }
        })
        .collect()
}
