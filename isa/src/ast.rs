//! The assembled program: directives, declarations and instructions, after macro expansion and includes.
//!
//! Immediates stay symbolic ([`ConstExpr`]) because they may depend on the warp size `W` and on parameters
//! that are only known at launch; the simulator resolves them when it instantiates the program.

use crate::expr::ConstExpr;
use crate::source::{SourceMap, Span};

/// How an instruction reads its register operands: 32-bit types read one register, 64-bit types a 64-bit
/// register (declared with `.reg.b64`, two 32-bit rows of the register file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    F32,
    S32,
    U32,
    /// Untyped bits (moves, bitwise ops, shuffles).
    B32,
    F64,
    S64,
    U64,
    /// Untyped 64 bits.
    B64,
}

impl Ty {
    pub const ALL: [Ty; 8] = [Ty::B32, Ty::U32, Ty::S32, Ty::F32, Ty::B64, Ty::U64, Ty::S64, Ty::F64];

    pub fn name(self) -> &'static str {
        match self {
            Ty::F32 => "f32",
            Ty::S32 => "s32",
            Ty::U32 => "u32",
            Ty::B32 => "b32",
            Ty::F64 => "f64",
            Ty::S64 => "s64",
            Ty::U64 => "u64",
            Ty::B64 => "b64",
        }
    }

    pub fn parse(s: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    /// A 64-bit type (its registers are `.reg.b64` registers).
    pub fn wide(self) -> bool {
        matches!(self, Ty::F64 | Ty::S64 | Ty::U64 | Ty::B64)
    }

    pub fn signed(self) -> bool {
        matches!(self, Ty::S32 | Ty::S64)
    }

    /// The type of the other width with the same kind (`u32` ⇄ `u64`, …).
    #[must_use]
    pub fn other_width(self) -> Ty {
        match self {
            Ty::F32 => Ty::F64,
            Ty::S32 => Ty::S64,
            Ty::U32 => Ty::U64,
            Ty::B32 => Ty::B64,
            Ty::F64 => Ty::F32,
            Ty::S64 => Ty::S32,
            Ty::U64 => Ty::U32,
            Ty::B64 => Ty::B32,
        }
    }
}

/// Element type of a global buffer or shared array. A 64-bit element is two 32-bit words in memory, the low
/// word first (little-endian, as on the GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemTy {
    F32,
    S32,
    U32,
    F64,
    S64,
    U64,
}

impl ElemTy {
    pub const ALL: [ElemTy; 6] = [
        ElemTy::U32,
        ElemTy::S32,
        ElemTy::F32,
        ElemTy::U64,
        ElemTy::S64,
        ElemTy::F64,
    ];

    pub fn name(self) -> &'static str {
        self.ty().name()
    }

    pub fn ty(self) -> Ty {
        match self {
            ElemTy::F32 => Ty::F32,
            ElemTy::S32 => Ty::S32,
            ElemTy::U32 => Ty::U32,
            ElemTy::F64 => Ty::F64,
            ElemTy::S64 => Ty::S64,
            ElemTy::U64 => Ty::U64,
        }
    }

    pub fn parse(s: &str) -> Option<ElemTy> {
        ElemTy::ALL.into_iter().find(|t| t.name() == s)
    }

    /// 32-bit words per element: 1 or 2.
    pub fn words(self) -> usize {
        if self.ty().wide() { 2 } else { 1 }
    }
}

/// A general-purpose register (32 bits per lane), by index into [`Program::regs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u16);

/// A predicate register (one bit per lane), by index into [`Program::preds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pred(pub u16);

/// Read-only registers the hardware provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    /// `%laneid`: position of the thread in its warp, `0..W`.
    LaneId,
    /// `%tid.x`: the thread's x index in the block (for a 1-D block: its index).
    TidX,
    /// `%tid.y`: the thread's y index in the block.
    TidY,
    /// `%tid.z`: the thread's z index in the block.
    TidZ,
    /// `%ntid.x`: the block's x size (for a 1-D block: threads per block).
    NtidX,
    /// `%ntid.y`: the block's y size.
    NtidY,
    /// `%ntid.z`: the block's z size.
    NtidZ,
    /// `%ctaid.x`: the block's x index in the grid (for a 1-D grid: its index).
    CtaidX,
    /// `%ctaid.y`: the block's y index in the grid.
    CtaidY,
    /// `%ctaid.z`: the block's z index in the grid.
    CtaidZ,
    /// `%nctaid.x`: the grid's x size (for a 1-D grid: blocks in the grid).
    NctaidX,
    /// `%nctaid.y`: the grid's y size.
    NctaidY,
    /// `%nctaid.z`: the grid's z size.
    NctaidZ,
    /// `%warpid`: warp index in the block.
    WarpId,
    /// `%nwarpid`: warps per block.
    NWarpId,
    /// `%warpsize`: `W`.
    WarpSize,
    /// `%clock`: the SM cycle counter at issue, low 32 bits (like PTX `%clock`).
    Clock,
    /// `%lanemask_eq`: the bit of the own lane.
    LanemaskEq,
    /// `%lanemask_lt`: bits of the lanes below the own lane.
    LanemaskLt,
    /// `%lanemask_le`: bits of the lanes up to and including the own lane.
    LanemaskLe,
    /// `%lanemask_gt`: bits of the lanes above the own lane.
    LanemaskGt,
    /// `%lanemask_ge`: bits of the own lane and the lanes above.
    LanemaskGe,
    /// `%smid`: the SM the block runs on.
    SmId,
    /// `%nsmid`: the GPU's SMs (`Config::sms`).
    NSmId,
    /// `%clock64`: the SM cycle counter at issue, 64 bits (a 64-bit source: `mov.u64 %rd, %clock64`).
    Clock64,
    /// `%dynamic_smem_size`: the block's dynamic shared memory, in bytes (`--dynamic-shared`).
    DynamicSmemSize,
    /// `%total_smem_size`: the block's shared memory, static and dynamic, in bytes.
    TotalSmemSize,
}

impl Special {
    pub const ALL: [Special; 27] = [
        Special::LaneId,
        Special::TidX,
        Special::TidY,
        Special::TidZ,
        Special::NtidX,
        Special::NtidY,
        Special::NtidZ,
        Special::CtaidX,
        Special::CtaidY,
        Special::CtaidZ,
        Special::NctaidX,
        Special::NctaidY,
        Special::NctaidZ,
        Special::WarpId,
        Special::NWarpId,
        Special::WarpSize,
        Special::Clock,
        Special::LanemaskEq,
        Special::LanemaskLt,
        Special::LanemaskLe,
        Special::LanemaskGt,
        Special::LanemaskGe,
        Special::SmId,
        Special::NSmId,
        Special::Clock64,
        Special::DynamicSmemSize,
        Special::TotalSmemSize,
    ];

    /// A 64-bit special register (`%clock64`); the others are 32 bits wide.
    pub fn wide(self) -> bool {
        self == Special::Clock64
    }

    /// The name without `%`.
    pub fn name(self) -> &'static str {
        match self {
            Special::LaneId => "laneid",
            Special::TidX => "tid.x",
            Special::TidY => "tid.y",
            Special::TidZ => "tid.z",
            Special::NtidX => "ntid.x",
            Special::NtidY => "ntid.y",
            Special::NtidZ => "ntid.z",
            Special::CtaidX => "ctaid.x",
            Special::CtaidY => "ctaid.y",
            Special::CtaidZ => "ctaid.z",
            Special::NctaidX => "nctaid.x",
            Special::NctaidY => "nctaid.y",
            Special::NctaidZ => "nctaid.z",
            Special::WarpId => "warpid",
            Special::NWarpId => "nwarpid",
            Special::WarpSize => "warpsize",
            Special::Clock => "clock",
            Special::LanemaskEq => "lanemask_eq",
            Special::LanemaskLt => "lanemask_lt",
            Special::LanemaskLe => "lanemask_le",
            Special::LanemaskGt => "lanemask_gt",
            Special::LanemaskGe => "lanemask_ge",
            Special::SmId => "smid",
            Special::NSmId => "nsmid",
            Special::Clock64 => "clock64",
            Special::DynamicSmemSize => "dynamic_smem_size",
            Special::TotalSmemSize => "total_smem_size",
        }
    }

    pub fn parse(s: &str) -> Option<Special> {
        Special::ALL.into_iter().find(|sp| sp.name() == s)
    }
}

/// A source operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Reg(Reg),
    Special(Special),
    Imm(ConstExpr),
}

/// A predicate operand of `and.pred` and friends: a predicate, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredOperand {
    pub pred: Pred,
    pub negated: bool,
}

/// `@%p` or `@!%p` in front of an instruction: lanes where it is false do nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub pred: Pred,
    pub negated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Neg,
    Abs,
    Not,
    /// `sqrt.rn`: the correctly rounded square root (f32, f64).
    Sqrt,
    /// `popc.b32`, `popc.b64`: the number of 1 bits (in a 32-bit register).
    Popc,
    /// `clz.b32`, `clz.b64`: the number of leading zero bits (the width for 0; in a 32-bit register).
    Clz,
    /// `brev.b32`, `brev.b64`: the bits in reverse order.
    Brev,
    /// `bfind.{u32,s32,u64,s64}`: the position of the most significant non-sign bit (0xffffffff if none), in a
    /// 32-bit register.
    Bfind,
    /// `bfind.shiftamt`: the same as a left-shift amount (the width minus one, minus the position).
    BfindShift,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    /// `mul.hi`: the high half of the double-width product.
    MulHi,
    /// `mul.wide.{u32,s32}`: the whole 64-bit product of two 32-bit operands.
    MulWide,
    /// `copysign.{f32,f64} d, a, b`: `b` with the sign of `a` (as PTX orders the operands), bit by bit.
    CopySign,
}

impl BinaryOp {
    /// The operation of opcode `m` (`mul` by its `.hi`/`.wide` qualifier), as warpsim's ISA and PTX name it.
    pub fn of_opcode(m: &str, half: Option<&str>) -> Option<BinaryOp> {
        Some(match m {
            "add" => BinaryOp::Add,
            "sub" => BinaryOp::Sub,
            "mul" if half == Some("hi") => BinaryOp::MulHi,
            "mul" if half == Some("wide") => BinaryOp::MulWide,
            "mul" => BinaryOp::Mul,
            "div" => BinaryOp::Div,
            "rem" => BinaryOp::Rem,
            "min" => BinaryOp::Min,
            "max" => BinaryOp::Max,
            "and" => BinaryOp::And,
            "or" => BinaryOp::Or,
            "xor" => BinaryOp::Xor,
            "shl" => BinaryOp::Shl,
            "shr" => BinaryOp::Shr,
            "copysign" => BinaryOp::CopySign,
            _ => return None,
        })
    }
}

/// The IEEE operations PTX offers with a directed rounding (`.rz`, `.rm`, `.rp`) or flushing subnormals to zero
/// (`.ftz`, f32): [`Op::Rounded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundedOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `fma`: `a*b + c` rounded once.
    Fma,
    Sqrt,
    /// `rcp`: `1 / a`.
    Rcp,
    /// `min.ftz.f32`, `max.ftz.f32` (only with `.ftz`: the plain forms are [`BinaryOp::Min`], [`BinaryOp::Max`]).
    Min,
    Max,
    /// `abs.ftz.f32`, `neg.ftz.f32`: unlike the plain forms' sign-bit operations, the GPU's `FADD.FTZ` of `|a|` or
    /// `-a` and `-0.0` (a NaN becomes the canonical NaN).
    Abs,
    Neg,
    /// `cvt.ftz.f32.f32 d, a`: `a` with a subnormal flushed to a zero of its sign, a NaN made canonical (the
    /// GPU's `FADD.FTZ d, a, -0.0`). PTX's other `cvt.ftz` forms lower to it and a plain `cvt`.
    Flush,
}

impl RoundedOp {
    /// The operation of opcode `m`, as PTX and warpsim's ISA name it.
    pub fn of_opcode(m: &str) -> Option<RoundedOp> {
        Some(match m {
            "add" => RoundedOp::Add,
            "sub" => RoundedOp::Sub,
            "mul" => RoundedOp::Mul,
            "div" => RoundedOp::Div,
            "fma" => RoundedOp::Fma,
            "sqrt" => RoundedOp::Sqrt,
            "rcp" => RoundedOp::Rcp,
            "min" => RoundedOp::Min,
            "max" => RoundedOp::Max,
            "abs" => RoundedOp::Abs,
            "neg" => RoundedOp::Neg,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            RoundedOp::Add => "add",
            RoundedOp::Sub => "sub",
            RoundedOp::Mul => "mul",
            RoundedOp::Div => "div",
            RoundedOp::Fma => "fma",
            RoundedOp::Sqrt => "sqrt",
            RoundedOp::Rcp => "rcp",
            RoundedOp::Min => "min",
            RoundedOp::Max => "max",
            RoundedOp::Abs => "abs",
            RoundedOp::Neg => "neg",
            RoundedOp::Flush => "cvt",
        }
    }

    /// How many operands it reads.
    pub fn arity(self) -> usize {
        match self {
            RoundedOp::Sqrt | RoundedOp::Rcp | RoundedOp::Abs | RoundedOp::Neg | RoundedOp::Flush => 1,
            RoundedOp::Fma => 3,
            _ => 2,
        }
    }

    /// Whether it takes a rounding (`min`, `max`, `abs`, `neg` and the flush do not round).
    pub fn rounds(self) -> bool {
        !matches!(
            self,
            RoundedOp::Min | RoundedOp::Max | RoundedOp::Abs | RoundedOp::Neg | RoundedOp::Flush
        )
    }
}

/// 16-bit floating point ([`Op::Half`]): arithmetic on IEEE binary16 (`.f16`) or bfloat16 (`.bf16`) values held in
/// the low 16 bits of a 32-bit register, or on both halves (`.f16x2`, `.bf16x2`), rounded to nearest even; and the
/// conversions from and to f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HalfOp {
    Add,
    Sub,
    Mul,
    /// `a * b + c`, rounded once.
    Fma,
    /// PTX's `min`/`max`: a NaN operand gives the other one; −0 is below +0.
    Min,
    Max,
    Neg,
    Abs,
    /// `cvt.rn.f16.f32 d, a` (`x2`: `cvt.rn.f16x2.f32 d, a, b`, `a` into the upper half, `b` the lower).
    FromF32,
    /// `cvt.f32.f16 d, a`: exact.
    ToF32,
}

impl HalfOp {
    pub const ARITHMETIC: [(&'static str, HalfOp); 8] = [
        ("add", HalfOp::Add),
        ("sub", HalfOp::Sub),
        ("mul", HalfOp::Mul),
        ("fma", HalfOp::Fma),
        ("min", HalfOp::Min),
        ("max", HalfOp::Max),
        ("neg", HalfOp::Neg),
        ("abs", HalfOp::Abs),
    ];

    /// The operands it reads.
    pub fn arity(self, x2: bool) -> usize {
        match self {
            HalfOp::Neg | HalfOp::Abs | HalfOp::ToF32 => 1,
            HalfOp::FromF32 => 1 + usize::from(x2),
            HalfOp::Fma => 3,
            _ => 2,
        }
    }

    /// Whether it rounds (and so is written with `.rn`, which is the default).
    pub fn rounds(self) -> bool {
        matches!(
            self,
            HalfOp::Add | HalfOp::Sub | HalfOp::Mul | HalfOp::Fma | HalfOp::FromF32
        )
    }
}

/// The special-function unit's approximations (PTX `.approx`, and `div.full`): [`Op::Approx`]. Each is what the
/// H200 computes: its `MUFU` instruction from tables measured on the GPU, with the instructions ptxas puts around it
/// (`simulator/src/sfu.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApproxOp {
    /// `rcp.approx`: `1 / a` (f32; f64 with `.ftz`: the high word's approximation, the low word zero).
    Rcp,
    /// `rsqrt.approx`: `1 / sqrt(a)` (f32; f64 with `.ftz`, as `rcp`).
    Rsqrt,
    /// `sqrt.approx`: `sqrt(a)`.
    Sqrt,
    /// `ex2.approx`: `2^a`.
    Ex2,
    /// `lg2.approx`: `log2(a)`.
    Lg2,
    /// `sin.approx`: `sin(a)`.
    Sin,
    /// `cos.approx`: `cos(a)`.
    Cos,
    /// `div.approx`: `a * (1 / b)`.
    Div,
    /// `div.full`: `a * (1 / b)` with both scaled where `b` is very large or subnormal.
    DivFull,
    /// `divadd.approx d, a, b, c` (warpsim's own): `div.approx`'s final multiplication fused with an addition of
    /// `c` (one rounding), as ptxas contracts a `div.approx` whose result only an `add` reads.
    DivAdd,
    /// `divadd.full d, a, b, c`: the same for `div.full`.
    DivFullAdd,
}

impl ApproxOp {
    /// The operation of opcode `m` with qualifier `.approx` (or `.full`, for `div`).
    pub fn of_opcode(m: &str, full: bool) -> Option<ApproxOp> {
        Some(match (m, full) {
            ("rcp", false) => ApproxOp::Rcp,
            ("rsqrt", false) => ApproxOp::Rsqrt,
            ("sqrt", false) => ApproxOp::Sqrt,
            ("ex2", false) => ApproxOp::Ex2,
            ("lg2", false) => ApproxOp::Lg2,
            ("sin", false) => ApproxOp::Sin,
            ("cos", false) => ApproxOp::Cos,
            ("div", false) => ApproxOp::Div,
            ("div", true) => ApproxOp::DivFull,
            ("divadd", false) => ApproxOp::DivAdd,
            ("divadd", true) => ApproxOp::DivFullAdd,
            _ => return None,
        })
    }

    /// Its opcode and precision qualifier, as PTX and warpsim's ISA write them (`rcp.approx`, `div.full`).
    pub fn name(self) -> &'static str {
        match self {
            ApproxOp::Rcp => "rcp.approx",
            ApproxOp::Rsqrt => "rsqrt.approx",
            ApproxOp::Sqrt => "sqrt.approx",
            ApproxOp::Ex2 => "ex2.approx",
            ApproxOp::Lg2 => "lg2.approx",
            ApproxOp::Sin => "sin.approx",
            ApproxOp::Cos => "cos.approx",
            ApproxOp::Div => "div.approx",
            ApproxOp::DivFull => "div.full",
            ApproxOp::DivAdd => "divadd.approx",
            ApproxOp::DivFullAdd => "divadd.full",
        }
    }

    /// How many operands it reads.
    pub fn arity(self) -> usize {
        match self {
            ApproxOp::Div | ApproxOp::DivFull => 2,
            ApproxOp::DivAdd | ApproxOp::DivFullAdd => 3,
            _ => 1,
        }
    }

    /// Whether it exists on f64 with `ftz` (only `rcp.approx.ftz.f64` and `rsqrt.approx.ftz.f64`).
    pub fn has_f64(self, ftz: bool) -> bool {
        ftz && matches!(self, ApproxOp::Rcp | ApproxOp::Rsqrt)
    }
}

/// The integer operations PTX chains through its carry flag (`CC.CF`): [`Op::Carry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CarryOp {
    /// `add.cc`, `addc`: `a + b`.
    Add,
    /// `sub.cc`, `subc`: `a - b` (the flag a borrow).
    Sub,
    /// `mad.lo.cc`, `madc.lo`: the low half of `a * b`, plus `c`.
    MadLo,
    /// `mad.hi.cc`, `madc.hi`: the high half of `a * b` (signed for `.s32`/`.s64`), plus `c`.
    MadHi,
}

impl CarryOp {
    /// Its opcode without and with a carry in (`add.cc` / `addc`), as PTX and warpsim's ISA write them.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            CarryOp::Add => ("add", "addc"),
            CarryOp::Sub => ("sub", "subc"),
            CarryOp::MadLo => ("mad.lo", "madc.lo"),
            CarryOp::MadHi => ("mad.hi", "madc.hi"),
        }
    }

    /// Whether it adds a third operand (`c`).
    pub fn adds(self) -> bool {
        matches!(self, CarryOp::MadLo | CarryOp::MadHi)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TernaryOp {
    /// `mad`: `a*b + c` (integer: low half; float: fused, one rounding, as PTX `mad.rn`).
    Mad,
    /// `fma`: fused multiply-add, one rounding.
    Fma,
    /// `mad.hi`: the high half of `a*b`, plus `c`.
    MadHi,
    /// `mad.wide.{u32,s32}`: the 64-bit product of two 32-bit operands plus a 64-bit `c`.
    MadWide,
    /// `bfe.{u32,s32,u64,s64} d, a, pos, len`: the bit field of `a` at `pos` (`b`) of `len` (`c`) bits, zero- or
    /// sign-extended; `pos` and `len` are u32.
    Bfe,
    /// `prmt.b32 d, a, b, c`: four bytes picked from the eight of {b, a} by the selector `c` (the default mode).
    Prmt,
    /// `fns.b32 d, mask, base, offset`: the position of the `offset`-th set bit of `mask` from bit `base` (up for
    /// a positive `offset`, down for a negative one; `base` itself for 0 if set), else 0xffffffff.
    Fns,
    /// `dp4a.ATYPE.BTYPE d, a, b, c`: `c` plus the dot product of `a`'s and `b`'s four bytes, each signed (`.s32`)
    /// or not (`.u32`) by its operand's type, in 32 bits (`c` and `d` s32 unless both are u32).
    Dp4a { a_signed: bool, b_signed: bool },
    /// `dp2a.{lo,hi}.ATYPE.BTYPE d, a, b, c`: `c` plus the dot product of `a`'s two 16-bit halves and bytes 0-1
    /// (`.lo`) or 2-3 (`.hi`) of `b`.
    Dp2a { hi: bool, a_signed: bool, b_signed: bool },
    /// `lop3.b32 d, a, b, c, LUT`: each bit of `d` the bit of the 8-bit table `LUT` that `a`'s, `b`'s and `c`'s
    /// bits index (a the high index bit: `LUT` is `F(0xf0, 0xcc, 0xaa)` for the function F).
    Lop3(u8),
}

impl TernaryOp {
    /// The name of an integer dot product's or `lop3`'s qualifiers and opcode: `dp4a.s32.u32`, `dp2a.hi.u32.s32`,
    /// `lop3.b32`.
    pub fn dot_name(self) -> Option<String> {
        let t = |s: bool| if s { "s32" } else { "u32" };
        match self {
            TernaryOp::Dp4a { a_signed, b_signed } => Some(format!("dp4a.{}.{}", t(a_signed), t(b_signed))),
            TernaryOp::Dp2a { hi, a_signed, b_signed } => Some(format!(
                "dp2a.{}.{}.{}",
                if hi { "hi" } else { "lo" },
                t(a_signed),
                t(b_signed)
            )),
            TernaryOp::Lop3(_) => Some("lop3.b32".into()),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

    pub fn name(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredLogicOp {
    And,
    Or,
    Xor,
    Not,
}

/// Rounding of a float → integer (or float → integral float) conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// `rni`: to nearest, ties to even.
    Nearest,
    /// `rzi`: towards zero (truncate).
    Zero,
    /// `rmi`: towards minus infinity (floor).
    Down,
    /// `rpi`: towards plus infinity (ceil).
    Up,
    /// `rn`: float result rounded to nearest, ties to even (integer → float, f64 → f32).
    NearestFloat,
    /// `rz`: float result rounded towards zero.
    FloatZero,
    /// `rm`: float result rounded towards minus infinity.
    FloatDown,
    /// `rp`: float result rounded towards plus infinity.
    FloatUp,
}

impl Rounding {
    pub fn name(self) -> &'static str {
        match self {
            Rounding::Nearest => "rni",
            Rounding::Zero => "rzi",
            Rounding::Down => "rmi",
            Rounding::Up => "rpi",
            Rounding::NearestFloat => "rn",
            Rounding::FloatZero => "rz",
            Rounding::FloatDown => "rm",
            Rounding::FloatUp => "rp",
        }
    }
}

/// How a memory operand names its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrMode {
    /// `buf[index + disp]`: an element index.
    Element,
    /// `[buf + offset + disp]`: a byte offset from the start of the buffer (must be aligned).
    Byte,
    /// `[%rd + disp]`: PTX's addressing. The register (`base`) holds a byte address in the instruction's state
    /// space, plus the constant `disp`: a 64-bit global or generic address (see [`crate::address`]), or a 32- or
    /// 64-bit offset into the block's shared memory or the thread's local memory. `buffer` is unused (0): the
    /// address decides which buffer or shared array each lane reaches.
    Flat,
}

/// A global-memory operand: which buffer and where in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    pub space: Space,
    /// Index into [`Program::buffers`] (global) or [`Program::shared`] (shared).
    pub buffer: usize,
    pub mode: AddrMode,
    /// The register (or special) part of the index, if any.
    pub base: Option<Operand>,
    /// The constant part.
    pub disp: Option<ConstExpr>,
}

/// An 8- or 16-bit memory access (`ld.global.s8`, `st.shared.b16`): the bytes it moves, and for a load whether
/// they are sign-extended to the 32-bit register (`.s8`, `.s16`) or zero-extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Narrow {
    /// 1 or 2.
    pub bytes: u8,
    pub signed: bool,
}

impl Narrow {
    pub const NAMES: [&'static str; 6] = ["u8", "s8", "b8", "u16", "s16", "b16"];

    /// `u8` → 1 byte, unsigned; `b16` → 2 bytes, unsigned; `s16` → 2 bytes, signed.
    pub fn parse(s: &str) -> Option<Narrow> {
        let bytes = match s.get(1..) {
            Some("8") => 1,
            Some("16") => 2,
            _ => return None,
        };
        match s.as_bytes()[0] {
            b'u' | b'b' => Some(Narrow { bytes, signed: false }),
            b's' => Some(Narrow { bytes, signed: true }),
            _ => None,
        }
    }

    /// The type's name as written (`u8`, `s16`; an unsigned one as `u`).
    pub fn name(self) -> &'static str {
        match (self.bytes, self.signed) {
            (1, false) => "u8",
            (1, true) => "s8",
            (_, false) => "u16",
            (_, true) => "s16",
        }
    }

    pub fn bits(self) -> u32 {
        u32::from(self.bytes) * 8
    }
}

/// A state space: device-wide global memory, the block's shared memory, the thread's local memory, or (with
/// [`AddrMode::Flat`] only) a generic address, which names one of the others by its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    Generic,
}

impl Space {
    /// The qualifier (`global`); a generic access has none (`""`).
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Generic => "",
        }
    }
}

/// Read-modify-write operations of `atom` / `red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Exch,
    Cas,
    And,
    Or,
    Xor,
    /// `inc.u32`: `old >= b ? 0 : old + 1` (a counter that wraps at `b`).
    Inc,
    /// `dec.u32`: `old == 0 || old > b ? b : old - 1`.
    Dec,
}

impl AtomOp {
    pub const ALL: [AtomOp; 10] = [
        AtomOp::Add,
        AtomOp::Min,
        AtomOp::Max,
        AtomOp::Exch,
        AtomOp::Cas,
        AtomOp::And,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::Inc,
        AtomOp::Dec,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AtomOp::Add => "add",
            AtomOp::Min => "min",
            AtomOp::Max => "max",
            AtomOp::Exch => "exch",
            AtomOp::Cas => "cas",
            AtomOp::And => "and",
            AtomOp::Or => "or",
            AtomOp::Xor => "xor",
            AtomOp::Inc => "inc",
            AtomOp::Dec => "dec",
        }
    }
}

/// What a block barrier does besides waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    /// `bar.sync`: wait only.
    Sync,
    /// `bar.arrive id, count`: count this warp's arrival and go on without waiting (a producer's half of a
    /// producer/consumer barrier).
    Arrive,
    /// `bar.red.popc.u32 d, …, p`: `d` = how many participating threads have `p` true.
    Popc(Reg),
    /// `bar.red.and.pred d, …, p`: `d` = `p` is true in every participating thread.
    And(Pred),
    /// `bar.red.or.pred d, …, p`: `d` = `p` is true in some participating thread.
    Or(Pred),
}

/// What `redux.sync` reduces with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl ReduxOp {
    pub const ALL: [ReduxOp; 6] = [
        ReduxOp::Add,
        ReduxOp::Min,
        ReduxOp::Max,
        ReduxOp::And,
        ReduxOp::Or,
        ReduxOp::Xor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ReduxOp::Add => "add",
            ReduxOp::Min => "min",
            ReduxOp::Max => "max",
            ReduxOp::And => "and",
            ReduxOp::Or => "or",
            ReduxOp::Xor => "xor",
        }
    }

    /// Whether it reduces bits (`.b32`) rather than numbers (`.u32`/`.s32`).
    pub fn bitwise(self) -> bool {
        matches!(self, ReduxOp::And | ReduxOp::Or | ReduxOp::Xor)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

impl VoteMode {
    pub fn name(self) -> &'static str {
        match self {
            VoteMode::All => "all",
            VoteMode::Any => "any",
            VoteMode::Uni => "uni",
            VoteMode::Ballot => "ballot",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Idx,
    Up,
    Down,
    Bfly,
}

impl ShflMode {
    pub const ALL: [ShflMode; 4] = [ShflMode::Idx, ShflMode::Up, ShflMode::Down, ShflMode::Bfly];

    pub fn name(self) -> &'static str {
        match self {
            ShflMode::Idx => "idx",
            ShflMode::Up => "up",
            ShflMode::Down => "down",
            ShflMode::Bfly => "bfly",
        }
    }
}

/// The segment operand of a shuffle: PTX's packed `c`, or the CUDA-style width.
#[derive(Clone, Debug, PartialEq)]
pub enum ShflSegment {
    /// `width=w`: segments of `w` lanes (a power of two ≤ W); the clamp value follows from the mode.
    Width(ConstExpr),
    /// PTX `c`: clamp value in the low bits, segment mask from bit 8.
    Raw(ConstExpr),
    /// PTX `c` in a register, read by each lane (as nvcc computes it for `__shfl_*_sync(…, width)`).
    Reg(Operand),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Mov {
        ty: Ty,
        d: Reg,
        a: Operand,
    },
    Unary {
        op: UnaryOp,
        ty: Ty,
        d: Reg,
        a: Operand,
    },
    Binary {
        op: BinaryOp,
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Operand,
    },
    Ternary {
        op: TernaryOp,
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Operand,
        c: Operand,
    },
    /// IEEE arithmetic rounded towards zero, minus or plus infinity (`rounding`: `rz`, `rm`, `rp`; PTX
    /// `add.rz.f32`, `fma.rm.f64`, `sqrt.rp.f32`, `rcp.rz.f64`, …): the exact result's neighbour in that direction;
    /// also `rcp.rn` (`rounding` `rn`: the reciprocal rounded to nearest, nvcc's `1.0f / x`). With `ftz` (f32
    /// only: PTX's `.ftz`, `-use_fast_math`), any rounding including `rn`, and subnormal operands and results
    /// flushed to zeros of their sign as the GPU's `FADD.FTZ`, `FMUL.FTZ`, `FFMA.FTZ`, `FMNMX.FTZ` do: a result
    /// whose exact value lies below 2^-126 in magnitude is flushed even where it would round to 2^-126. `b` and
    /// `c` as the operation reads them ([`RoundedOp::arity`]).
    Rounded {
        op: RoundedOp,
        rounding: Rounding,
        ftz: bool,
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Option<Operand>,
        c: Option<Operand>,
    },
    /// The special-function unit's approximations (`rcp.approx.ftz.f32`, `ex2.approx.f32`, `div.full.f32`,
    /// `rsqrt.approx.ftz.f64`, …): `ftz` flushes subnormal operands and results to zero. `b` for the divisions, `c`
    /// for the fused `divadd`.
    Approx {
        op: ApproxOp,
        ftz: bool,
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Option<Operand>,
        c: Option<Operand>,
    },
    /// 16-bit floating point: `add.f16 d, a, b`, `fma.rn.bf16x2 d, a, b, c`, `cvt.rn.f16.f32 d, a`, … ([`HalfOp`]);
    /// `bf16`: bfloat16, else IEEE binary16; `x2`: both halves of the registers.
    Half {
        op: HalfOp,
        bf16: bool,
        x2: bool,
        d: Reg,
        a: Operand,
        b: Option<Operand>,
        c: Option<Operand>,
    },
    /// Extended-precision integer arithmetic (`add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`,
    /// `madc{.lo,.hi}[.cc]` on u32, s32, u64, s64): `d = a OP b [+ c] + cin` (`sub`: `a - (b + cin)`), and the carry
    /// (a borrow, for `sub`) out of the unsigned sum into `cout`. PTX's carry flag is an implicit register; here it
    /// is a predicate (`cin` read, `cout` written), the lowering's own. Written `addc.cc.u32 d|cout, a, b, cin`.
    Carry {
        op: CarryOp,
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Operand,
        c: Option<Operand>,
        cin: Option<Pred>,
        cout: Option<Pred>,
    },
    /// A comparison into a predicate; `ftz` (f32 only, PTX's `setp.lt.ftz.f32`) compares subnormal operands as
    /// zeros of their sign.
    Setp {
        cmp: Cmp,
        ftz: bool,
        ty: Ty,
        p: Pred,
        a: Operand,
        b: Operand,
    },
    PredLogic {
        op: PredLogicOp,
        d: Pred,
        a: PredOperand,
        b: Option<PredOperand>,
    },
    Selp {
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Operand,
        p: Pred,
    },
    Cvt {
        rounding: Rounding,
        to: Ty,
        from: Ty,
        d: Reg,
        a: Operand,
    },
    Ld {
        ty: Ty,
        d: Reg,
        addr: Address,
        /// An 8- or 16-bit load (`ld.global.u8`; `ty` is then `b32`, the register's).
        narrow: Option<Narrow>,
    },
    St {
        ty: Ty,
        addr: Address,
        a: Operand,
        /// An 8- or 16-bit store (`st.global.u16`: the value's low bits; `ty` is then `b32`).
        narrow: Option<Narrow>,
    },
    Shfl {
        mode: ShflMode,
        d: Reg,
        p: Option<Pred>,
        a: Operand,
        b: Operand,
        segment: Option<ShflSegment>,
        /// Member mask (a constant, or a register read in each lane); `None` is all lanes of the warp.
        mask: Option<Operand>,
    },
    /// `atom.SPACE.OP.TYPE d, [addr], b[, c]` (returns the old value) or `red.SPACE.OP.TYPE [addr], b` (`d` = None).
    Atom {
        op: AtomOp,
        ty: Ty,
        d: Option<Reg>,
        addr: Address,
        b: Operand,
        /// The new value of `cas` (`b` is the compare value).
        c: Option<Operand>,
    },
    /// `bar.sync` / `bar.red`: a block barrier with an id and optional thread count.
    Bar {
        kind: BarKind,
        id: Operand,
        count: Option<Operand>,
        /// The predicate `bar.red` reduces.
        pred: Option<PredOperand>,
    },
    /// `bar.warp.sync mask`: the lanes in `mask` must be converged here.
    BarWarp {
        /// Member mask (a constant, or a register read in each lane); `None` is all lanes of the warp.
        mask: Option<Operand>,
    },
    /// `vote.sync.MODE`: `d` is a predicate for all/any/uni, a register (lane mask) for ballot.
    Vote {
        mode: VoteMode,
        d_pred: Option<Pred>,
        d_reg: Option<Reg>,
        a: PredOperand,
        mask: Option<Operand>,
    },
    /// `activemask.b32 d`: the mask of the lanes executing it.
    Activemask {
        d: Reg,
    },
    /// `redux.sync.OP.TYPE d, a[, mask]`: every member lane gets `OP` of the members' `a` (sm_80's warp
    /// reduction).
    Redux {
        op: ReduxOp,
        /// `U32` or `S32` (`add`, `min`, `max`), `B32` (`and`, `or`, `xor`).
        ty: Ty,
        d: Reg,
        a: Operand,
        mask: Option<Operand>,
    },
    /// `match.sync.any.b32 d, a` (lanes holding the same value) / `match.sync.all.b32 d|p, a`.
    Match {
        all: bool,
        d: Reg,
        p: Option<Pred>,
        a: Operand,
        mask: Option<Operand>,
    },
    /// `bfi.{b32,b64} d, a, b, pos, len`: `b` with its `len` bits from `pos` replaced by the low bits of `a`
    /// (`pos` and `len` are u32).
    Bfi {
        ty: Ty,
        d: Reg,
        a: Operand,
        b: Operand,
        pos: Operand,
        len: Operand,
    },
    /// `mov.b64 d, {lo, hi}`: a 64-bit register from two 32-bit values.
    Pack {
        d: Reg,
        lo: Operand,
        hi: Operand,
    },
    /// `mov.b64 {lo, hi}, a`: the two halves of a 64-bit value.
    Unpack {
        lo: Reg,
        hi: Reg,
        a: Operand,
    },
    Bra {
        target: usize,
    },
    Exit,
    /// `vprintf [d,] fmt, args`: CUDA's `printf` (PTX's `call vprintf`). Each executing lane, in lane order,
    /// formats the C string at generic address `fmt` (64 bits) as C's `printf` does, with the arguments packed
    /// from generic address `args` (each aligned to its size, as nvcc lays them out in local memory), and the
    /// run prints it. `d` gets the number of arguments, or -1 for a format warpsim cannot read.
    Printf {
        d: Reg,
        fmt: Operand,
        args: Operand,
    },
    /// `assertfail message, file, line, function`: CUDA's failed `assert` (PTX's `call __assertfail`). The run
    /// ends with a fault at the first executing lane that quotes the C strings at the generic addresses
    /// `message`, `file` and `function` (64 bits) and the source `line` (32 bits), as the GPU's message does.
    AssertFail {
        message: Operand,
        file: Operand,
        line: Operand,
        function: Operand,
    },
    Nop,
}

impl Op {
    /// The registers this instruction writes.
    pub fn reg_written(&self) -> Option<Reg> {
        match self {
            Op::Mov { d, .. }
            | Op::Unary { d, .. }
            | Op::Binary { d, .. }
            | Op::Ternary { d, .. }
            | Op::Rounded { d, .. }
            | Op::Approx { d, .. }
            | Op::Half { d, .. }
            | Op::Carry { d, .. }
            | Op::Selp { d, .. }
            | Op::Cvt { d, .. }
            | Op::Ld { d, .. }
            | Op::Activemask { d }
            | Op::Printf { d, .. }
            | Op::Match { d, .. }
            | Op::Redux { d, .. }
            | Op::Pack { d, .. }
            | Op::Bfi { d, .. }
            | Op::Unpack { lo: d, .. }
            | Op::Shfl { d, .. } => Some(*d),
            Op::Atom { d, .. } => *d,
            Op::Bar {
                kind: BarKind::Popc(d), ..
            } => Some(*d),
            Op::Vote { d_reg, .. } => *d_reg,
            _ => None,
        }
    }

    /// The predicate this instruction writes.
    pub fn pred_written(&self) -> Option<Pred> {
        match self {
            Op::Setp { p, .. } => Some(*p),
            Op::PredLogic { d, .. } => Some(*d),
            Op::Shfl { p, .. } | Op::Match { p, .. } => *p,
            Op::Bar {
                kind: BarKind::And(d) | BarKind::Or(d),
                ..
            } => Some(*d),
            Op::Vote { d_pred, .. } => *d_pred,
            Op::Carry { cout, .. } => *cout,
            _ => None,
        }
    }

    /// Source operands that are read, in order (a shuffle's register `c` before the member mask, which is last).
    pub fn sources(&self) -> Vec<&Operand> {
        match self {
            Op::Mov { a, .. } | Op::Unary { a, .. } | Op::Cvt { a, .. } | Op::St { a, .. } => {
                let mut v = vec![a];
                if let Op::St { addr, .. } = self {
                    v.extend(addr.base.iter());
                }
                v
            }
            Op::Binary { a, b, .. } | Op::Setp { a, b, .. } | Op::Selp { a, b, .. } => vec![a, b],
            Op::Ternary { a, b, c, .. } => vec![a, b, c],
            Op::Rounded { a, b, c, .. } => {
                let mut v = vec![a];
                v.extend(b.iter().chain(c.iter()));
                v
            }
            Op::Approx { a, b, c, .. } | Op::Half { a, b, c, .. } => {
                let mut v = vec![a];
                v.extend(b.iter().chain(c.iter()));
                v
            }
            Op::Carry { a, b, c, .. } => {
                let mut v = vec![a, b];
                v.extend(c.iter());
                v
            }
            Op::Ld { addr, .. } => addr.base.iter().collect(),
            Op::Shfl {
                a, b, mask, segment, ..
            } => {
                let mut v = vec![a, b];
                if let Some(ShflSegment::Reg(c)) = segment {
                    v.push(c);
                }
                v.extend(mask.iter());
                v
            }
            Op::Atom { addr, b, c, .. } => {
                let mut v: Vec<&Operand> = addr.base.iter().collect();
                v.push(b);
                v.extend(c.iter());
                v
            }
            Op::Bar { id, count, .. } => {
                let mut v = vec![id];
                v.extend(count.iter());
                v
            }
            Op::Match { a, mask, .. } | Op::Redux { a, mask, .. } => {
                let mut v = vec![a];
                v.extend(mask.iter());
                v
            }
            Op::Unpack { a, .. } => vec![a],
            Op::Pack { lo, hi, .. } => vec![lo, hi],
            Op::Printf { fmt, args, .. } => vec![fmt, args],
            Op::AssertFail {
                message,
                file,
                line,
                function,
            } => vec![message, file, line, function],
            Op::Bfi { a, b, pos, len, .. } => vec![a, b, pos, len],
            Op::BarWarp { mask } | Op::Vote { mask, .. } => mask.iter().collect(),
            Op::PredLogic { .. } | Op::Activemask { .. } | Op::Bra { .. } | Op::Exit | Op::Nop => vec![],
        }
    }

    /// Predicates read as data (not the guard).
    pub fn preds_read(&self) -> Vec<Pred> {
        match self {
            Op::Selp { p, .. } => vec![*p],
            Op::PredLogic { a, b, .. } => {
                let mut v = vec![a.pred];
                v.extend(b.map(|b| b.pred));
                v
            }
            Op::Bar { pred: Some(p), .. } => vec![p.pred],
            Op::Vote { a, .. } => vec![a.pred],
            Op::Carry { cin, .. } => cin.iter().copied().collect(),
            _ => vec![],
        }
    }

    pub fn is_branch(&self) -> bool {
        matches!(self, Op::Bra { .. })
    }
}

/// One instruction and where it came from.
#[derive(Clone, Debug)]
pub struct Instruction {
    pub guard: Option<Guard>,
    pub op: Op,
    /// The whole statement in the source.
    pub span: Span,
    /// The statement as written (macro arguments substituted), for traces.
    pub text: String,
    /// For an instruction from a macro: the span of the invocation.
    pub expanded_from: Option<Span>,
    /// For an instruction lowered from PTX: the CUDA or Python line it was compiled from (PTX's `.loc`).
    pub origin: Option<Origin>,
    /// It reads a kernel parameter (PTX `ld.param` of an entry's parameter, lowered to its value at the launch):
    /// the parameter's byte offset in the entry's parameter space. On the GPU, a read of the constant bank that
    /// holds the parameters, whose lines an SM's first read of a launch misses. warpsim's own programs read none:
    /// their parameters are constants.
    pub param: Option<u32>,
    /// For the first instruction a PTX instruction of a debug build (`.target sm_XX, debug`, `nvcc -G`) lowers
    /// to: what kind of PTX instruction it was, by which the timing model estimates the code ptxas makes of it
    /// without optimising (`timing.debug_build`). `None` for optimised code and warpsim's own programs.
    pub debug: Option<DebugClass>,
}

/// A PTX instruction of a debug build, by the code ptxas makes of it without optimising (ptxas 13.5 at
/// `.target sm_90, debug`; docs/timing.md, "Debug builds"). Each class has its own count of SASS instructions in
/// `timing.debug_build`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DebugClass {
    /// A 32-bit (or narrower) integer, float or predicate operation: `add.s32`, `fma.rn.f32`, `setp`, `selp`.
    Alu,
    /// An operation on 64-bit values (`add.s64`, `shl.b64`, `fma.rn.f64`), other than `mul.lo` of 64 bits.
    Alu64,
    /// `mul.lo` of 64 bits (a sequence of 32-bit multiplies).
    Mul64,
    /// A 32-bit `mov` of a register or an immediate.
    Mov,
    /// A 64-bit `mov`.
    Mov64,
    /// A `mov` of a special register (`%tid.x`, `%ctaid.x`, …).
    MovSpecial,
    /// A `mov` of a variable's address (a shared array, a global).
    MovSymbol,
    /// A conversion within 32 bits.
    Cvt,
    /// A conversion to or from a 64-bit value (`cvt.s64.s32`, `cvt.u32.u64`).
    Cvt64,
    /// `cvta`: between a state space's addresses and generic ones.
    Cvta,
    /// `ld.param` of a kernel's parameter.
    ParamEntry,
    /// `ld.param` or `st.param` of a call sequence (a device function's argument or return value).
    ParamCall,
    /// A load (generic, as a debug build writes them, or of a state space).
    Load,
    /// A store.
    Store,
    /// `atom` or `red`.
    Atomic,
    /// A warp-synchronous instruction: `shfl`, `vote`, `match`, `redux` (`activemask` counts as a `mov`).
    Warp,
    /// `bar`, `barrier`, `membar`, `fence`.
    Barrier,
    /// `bra`.
    Branch,
    /// `call`.
    Call,
    /// `ret` (and `exit`).
    Ret,
    /// 32-bit integer division or remainder.
    IntDiv,
    /// 64-bit integer division or remainder (a call of a subroutine).
    IntDiv64,
    /// IEEE f32 division, reciprocal or square root (`div.rn.f32`, `rcp.rn.f32`, `sqrt.rn.f32`).
    FloatDiv,
    /// IEEE f64 division, reciprocal or square root.
    DoubleDiv,
}

/// A line of the source a PTX instruction was compiled from (its `.loc`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The path as the PTX's `.file` directive gives it.
    pub file: String,
    pub line: u32,
    /// The line in the program's [`SourceMap`], when the file could be read.
    pub span: Option<Span>,
}

impl Origin {
    /// `p01_map.cu:5`: the file's name without its directories, and the line.
    pub fn short(&self) -> String {
        let name = self.file.rsplit(['/', '\\']).next().unwrap_or(&self.file);
        format!("{name}:{}", self.line)
    }
}

#[derive(Clone, Debug)]
pub struct Named {
    pub name: String,
    pub span: Span,
    pub width: Width,
}

/// How wide a declared register is. A 64-bit register (`.reg.b64 %x`) takes two rows of the register file: its
/// own (the low 32 bits) and the next, named `x.hi` and never written in a program (use `mov.b64 {lo, hi}, %x`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// A 32-bit register (and every predicate).
    W32,
    /// A 64-bit register's low row.
    W64,
    /// A 64-bit register's high row.
    High,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub name: String,
    pub default: ConstExpr,
    pub span: Span,
}

/// A buffer initialiser: a default expression for every element, then overrides.
#[derive(Clone, Debug, PartialEq)]
pub struct Init {
    /// In terms of `i` (index) and `len` (length).
    pub default: ConstExpr,
    pub overrides: Vec<InitOverride>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InitOverride {
    /// `[k] = expr`
    One { index: ConstExpr, value: ConstExpr },
    /// `[a..b] = [v0, v1, …]` (half-open, exactly `b - a` values), or `[a..] = [v0, …]` (from `a`, values past
    /// the end of the buffer ignored).
    List {
        start: ConstExpr,
        end: Option<ConstExpr>,
        values: Vec<ConstExpr>,
    },
}

/// `.shared NAME TYPE[LEN]`, or `.shared NAME TYPE[]` for the dynamic array sized at launch.
#[derive(Clone, Debug)]
pub struct SharedDecl {
    pub name: String,
    pub elem: ElemTy,
    /// `None`: dynamic (its size comes from the launch).
    pub len: Option<ConstExpr>,
    pub span: Span,
}

/// `.require COND, "message"`: a launch where `COND` evaluates to 0 is refused with `message`.
#[derive(Clone, Debug)]
pub struct Require {
    pub cond: ConstExpr,
    pub message: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct BufferDecl {
    pub name: String,
    pub elem: ElemTy,
    pub len: ConstExpr,
    pub init: Option<Init>,
    pub span: Span,
}

/// How a warp's diverged paths run (`.scheduling`, `--scheduling`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scheduling {
    /// One path at a time, to its reconvergence point (the SIMT stack of pre-Volta GPUs and GPGPU-Sim).
    #[default]
    Lockstep,
    /// Independent thread scheduling (PTX's sm_70+ semantics): each path issues in turn; `bar.warp.sync`,
    /// `shfl.sync`, `vote.sync` and `match.sync` wait for the lanes their mask names.
    Its,
}

impl Scheduling {
    /// `its` or `lockstep`.
    pub fn parse(text: &str) -> Result<Scheduling, String> {
        match text {
            "lockstep" => Ok(Scheduling::Lockstep),
            "its" => Ok(Scheduling::Its),
            _ => Err(format!(
                "unknown scheduling `{text}`: `lockstep` (the reconvergence stack, the default) or `its` (independent thread scheduling, sm_70+)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scheduling::Lockstep => "lockstep",
            Scheduling::Its => "its",
        }
    }
}

/// A whole program, assembled.
#[derive(Clone, Debug)]
pub struct Program {
    /// The kernel name: `.kernel`, or the file name without extension.
    pub name: String,
    pub description: Option<String>,
    /// Warp sizes the program supports (inclusive, powers of two).
    pub warp_sizes: (u32, u32),
    pub warp_sizes_span: Option<Span>,
    /// `.scheduling its|lockstep`: how the program's diverged paths must run unless a run says otherwise.
    pub scheduling: Option<Scheduling>,
    /// `.grid X[,Y[,Z]]`: one to three constant expressions, x first (a missing component is 1).
    pub grid: Option<Vec<ConstExpr>>,
    /// `.block X[,Y[,Z]]`: one to three constant expressions, x first (a missing component is 1).
    pub block: Option<Vec<ConstExpr>>,
    pub params: Vec<ParamDecl>,
    pub buffers: Vec<BufferDecl>,
    /// Shared-memory arrays, per block, in declaration order (the dynamic one, if any, last).
    pub shared: Vec<SharedDecl>,
    /// `.require COND, "message"`: conditions a launch must meet.
    pub requires: Vec<Require>,
    /// `.local BYTES`: each thread's local memory (PTX's `.local` state space), in bytes; 0 when unused.
    pub local_bytes: u64,
    pub regs: Vec<Named>,
    pub preds: Vec<Named>,
    /// Labels and the instruction index they name, in source order.
    pub labels: Vec<(String, usize)>,
    pub instructions: Vec<Instruction>,
    pub sources: SourceMap,
    /// A program lowered from PTX: the PTX itself, for the real-GPU cross-check to load.
    pub ptx: Option<Box<PtxSource>>,
}

/// The PTX a program was lowered from, and how its kernel's parameters are bound.
#[derive(Clone, Debug)]
pub struct PtxSource {
    /// The PTX module's text.
    pub text: String,
    /// The entry's (mangled) name.
    pub entry: String,
    /// Each `.param` of the entry, in order.
    pub args: Vec<PtxArg>,
    /// Where a `.pragma "nounroll"` stands: the index of the instruction after it (ptxas does not unroll the loop
    /// it heads).
    pub nounroll: Vec<u32>,
}

impl PtxSource {
    /// Whether the module was built for debugging (`nvcc -G`): its `.target` names `debug`. ptxas compiles
    /// such a module without optimising it.
    pub fn debug_build(&self) -> bool {
        self.text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(".target"))
            .is_some_and(|l| l.split([',', ' ', '\t', ';']).any(|w| w == "debug"))
    }
}

/// What one kernel parameter is at launch.
#[derive(Clone, Debug, PartialEq)]
pub enum PtxArg {
    /// The address of the program's buffer of this index.
    Buffer(usize),
    /// A value of `bits` bits (8, 16, 32 or 64): the expression's integer, or a float's bits (`float`).
    Scalar { bits: u32, float: bool, value: ConstExpr },
}

impl Program {
    pub fn reg_name(&self, r: Reg) -> &str {
        &self.regs[r.0 as usize].name
    }

    pub fn pred_name(&self, p: Pred) -> &str {
        &self.preds[p.0 as usize].name
    }

    pub fn buffer_index(&self, name: &str) -> Option<usize> {
        self.buffers.iter().position(|b| b.name == name)
    }

    /// Same program, whatever the spelling: directives, declarations, labels and instructions compare equal,
    /// spans and the source text are ignored. The printer guarantees `parse(print(p))` is equivalent to `p`.
    pub fn equivalent(&self, other: &Program) -> bool {
        let names = |v: &[Named]| v.iter().map(|n| n.name.clone()).collect::<Vec<_>>();
        self.name == other.name
            && self.description == other.description
            && self.warp_sizes == other.warp_sizes
            && self.scheduling == other.scheduling
            && self.grid == other.grid
            && self.block == other.block
            && self.params.len() == other.params.len()
            && self
                .params
                .iter()
                .zip(&other.params)
                .all(|(a, b)| a.name == b.name && a.default == b.default)
            && self.buffers.len() == other.buffers.len()
            && self
                .buffers
                .iter()
                .zip(&other.buffers)
                .all(|(a, b)| a.name == b.name && a.elem == b.elem && a.len == b.len && a.init == b.init)
            && self.shared.len() == other.shared.len()
            && self
                .shared
                .iter()
                .zip(&other.shared)
                .all(|(a, b)| a.name == b.name && a.elem == b.elem && a.len == b.len)
            && self.local_bytes == other.local_bytes
            && self.requires.len() == other.requires.len()
            && self
                .requires
                .iter()
                .zip(&other.requires)
                .all(|(a, b)| a.cond == b.cond && a.message == b.message)
            && names(&self.regs) == names(&other.regs)
            && names(&self.preds) == names(&other.preds)
            && self.labels == other.labels
            && self.instructions.len() == other.instructions.len()
            && self
                .instructions
                .iter()
                .zip(&other.instructions)
                .all(|(a, b)| a.guard == b.guard && a.op == b.op)
    }
}
