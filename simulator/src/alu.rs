//! Functional units: what each arithmetic instruction does to one lane's 32-bit values.
//!
//! Semantics follow PTX on sm_90: integer arithmetic wraps; `div`/`rem` by zero is a fault here (undefined on
//! hardware); f32 arithmetic is IEEE-754 binary32 with round-to-nearest-even and subnormals kept (no `.ftz`),
//! `div.f32` is the correctly rounded `div.rn.f32`, `fma`/`mad.f32` round once; `min`/`max.f32` return the
//! non-NaN operand (the canonical NaN 0x7fffffff when both are NaN) and order -0 below +0; shift amounts above
//! 31 clamp to 32; f32 → integer conversions saturate and turn NaN into 0.
//!
//! NaNs: every f32 arithmetic operation whose result is NaN (add, sub, mul, div, fma, the f32 roundings, atomic
//! add) gives the canonical NaN 0x7fffffff, whatever the NaN operands' sign and payload, as an H200 does
//! (measured with `sim crosscheck`); the host CPU would propagate payloads instead. `neg.f32` and `abs.f32`
//! flip and clear the sign bit; of a NaN, PTX leaves their result unspecified (an H200 gives either that or
//! the canonical NaN, depending on how the compiler lowers them).

use crate::kernel::{Bin, CmpClass, Conv, Tern, Un, Wide};
use warpsim_isa::{CarryOp, Cmp, HalfOp, RoundedOp, Rounding, TernaryOp, Ty};

/// The NaN PTX's `min`/`max.f32` return when both operands are NaN.
const CANONICAL_NAN: f32 = f32::from_bits(0x7fff_ffff);

#[inline]
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[inline]
#[allow(
    clippy::float_cmp,
    reason = "`a == b` is exact: -0 and +0 are then ordered by their sign"
)]
fn fmin(a: f32, b: f32) -> f32 {
    if a.is_nan() && b.is_nan() {
        return CANONICAL_NAN;
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        // -0 < +0
        return if a.is_sign_negative() { a } else { b };
    }
    if a < b { a } else { b }
}

#[inline]
#[allow(
    clippy::float_cmp,
    reason = "`a == b` is exact: -0 and +0 are then ordered by their sign"
)]
fn fmax(a: f32, b: f32) -> f32 {
    if a.is_nan() && b.is_nan() {
        return CANONICAL_NAN;
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_positive() { a } else { b };
    }
    if a > b { a } else { b }
}

/// A subnormal `x` flushed to zero of its sign.
#[inline]
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// An f32 result as the GPU writes it: any NaN becomes the canonical NaN.
#[inline]
fn canon(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN.to_bits()
    } else {
        x.to_bits()
    }
}

/// Which operands send the GPU's IEEE divisions and square roots down their slow path, a subroutine the compiled
/// code calls (nvcc 13, `sm_90`; measured on an H100 and an H200 by `calibration/measured/ubench20.cu` and
/// `ubench21.cu`; docs/timing.md, "Slow paths of the IEEE divisions and square roots").
pub mod slow_path {
    /// `div.rn.f32 a / b`: `FCHK` fails, unless both operands are normal, a's exponent is at least -102, b's lies
    /// in -125..=124 and a's less b's in -124..=126 (the scans of ubench21: every boundary was on its line). On
    /// the biased exponents, without a branch (the execute stage tests a whole row): a's below 25 or 255, b's
    /// outside 2..=251, or their difference outside -124..=126 (zero, subnormal, infinite and NaN included; the
    /// unit test checks every pair of exponents against the rule as stated).
    #[inline(always)]
    pub fn f32_div(a: u32, b: u32) -> bool {
        let (ea, eb) = (((a >> 23) & 0xff).cast_signed(), ((b >> 23) & 0xff).cast_signed());
        let d = ea - eb;
        #[allow(
            clippy::needless_bitwise_bool,
            reason = "no branch per lane: the execute stage tests a whole row"
        )]
        let slow = (ea < 25) | (ea == 0xff) | !(2..=251).contains(&eb) | !(-124..=126).contains(&d);
        slow
    }

    /// `sqrt.rn.f32 a`: the code's test, `a - 0x0d000000 > 0x727fffff` unsigned: a negative, zero, below 2^-101,
    /// infinite or NaN.
    pub fn f32_sqrt(a: u32) -> bool {
        a.wrapping_sub(0x0d00_0000) > 0x727f_ffff
    }

    /// `div.rn.f64 a / b`: the code's tests on the high words, as f32 bit patterns: a's below 0x03600000 (|a| under
    /// 2^-969, zero or subnormal), b's exponent at 0x7f8 or above (|b| from 2^1017, infinite or NaN), or the
    /// quotient's high word at most 0x00100000 (|a / b| at most about 2^-1022) or a NaN pattern (|a / b| from
    /// 2^1017 but not infinite, or NaN).
    pub fn f64_div(a: u64, b: u64) -> bool {
        let hi = |x: u64| ((x >> 32) as u32) & 0x7fff_ffff;
        let f32_nan = |h: u32| h > 0x7f80_0000;
        let q = (f64::from_bits(a) / f64::from_bits(b)).to_bits();
        let a_small = hi(a) < 0x0360_0000;
        let b_large = hi(b) & 0x7f80_0000 == 0x7f80_0000;
        let q_out = hi(q) <= 0x0010_0000 || f32_nan(hi(q));
        a_small || b_large || q_out
    }

    /// `sqrt.rn.f64 a`: the code's test, the high word less 0x03500000 at 0x7ca00000 or above unsigned: a negative,
    /// below 2^-970, infinite or NaN.
    pub fn f64_sqrt(a: u64) -> bool {
        ((a >> 32) as u32).wrapping_sub(0x0350_0000) >= 0x7ca0_0000
    }
}

/// A binary operation; `None` is an integer division by zero.
#[inline]
pub fn binary(op: Bin, a: u32, b: u32) -> Option<u32> {
    Some(match op {
        Bin::AddI => a.wrapping_add(b),
        Bin::SubI => a.wrapping_sub(b),
        Bin::MulI => a.wrapping_mul(b),
        Bin::DivS => {
            if b == 0 {
                return None;
            }
            a.cast_signed().wrapping_div(b.cast_signed()).cast_unsigned()
        }
        Bin::DivU => a.checked_div(b)?,
        Bin::RemS => {
            if b == 0 {
                return None;
            }
            a.cast_signed().wrapping_rem(b.cast_signed()).cast_unsigned()
        }
        Bin::RemU => a.checked_rem(b)?,
        Bin::MinS => a.cast_signed().min(b.cast_signed()).cast_unsigned(),
        Bin::MinU => a.min(b),
        Bin::MaxS => a.cast_signed().max(b.cast_signed()).cast_unsigned(),
        Bin::MaxU => a.max(b),
        Bin::AddF => canon(f(a) + f(b)),
        Bin::SubF => canon(f(a) - f(b)),
        Bin::MulF => canon(f(a) * f(b)),
        Bin::DivF => canon(f(a) / f(b)),
        Bin::MinF => fmin(f(a), f(b)).to_bits(),
        Bin::MaxF => fmax(f(a), f(b)).to_bits(),
        Bin::And => a & b,
        Bin::Or => a | b,
        Bin::Xor => a ^ b,
        Bin::Shl => a.checked_shl(b).unwrap_or(0),
        Bin::ShrU => a.checked_shr(b).unwrap_or(0),
        Bin::ShrS => (a.cast_signed() >> b.min(31)).cast_unsigned(),
    })
}

#[inline]
pub fn unary(op: Un, a: u32) -> u32 {
    match op {
        Un::NegI => a.cast_signed().wrapping_neg().cast_unsigned(),
        Un::NegF => a ^ 0x8000_0000,
        Un::AbsI => a.cast_signed().wrapping_abs().cast_unsigned(),
        Un::AbsF => a & 0x7fff_ffff,
        Un::Not => !a,
        Un::Popc => a.count_ones(),
        Un::Clz => a.leading_zeros(),
        Un::Brev => a.reverse_bits(),
    }
}

#[inline]
pub fn ternary(op: Tern, a: u32, b: u32, c: u32) -> u32 {
    match op {
        Tern::MadI => a.wrapping_mul(b).wrapping_add(c),
        Tern::FmaF => canon(f(a).mul_add(f(b), f(c))),
    }
}

#[inline]
pub fn compare(cmp: Cmp, class: CmpClass, a: u32, b: u32) -> bool {
    let ord = match class {
        CmpClass::Signed => Some(a.cast_signed().cmp(&b.cast_signed())),
        CmpClass::Unsigned => Some(a.cmp(&b)),
        // Ordered comparisons: anything with NaN is false, except `ne` which PTX also makes false (ordered).
        CmpClass::Float => f(a).partial_cmp(&f(b)),
        CmpClass::FloatFtz => f(flush(a)).partial_cmp(&f(flush(b))),
    };
    holds(cmp, ord)
}

/// Whether `cmp` holds for operands ordered `ord` (`None`: unordered, a NaN: false, `ne` included).
#[inline(always)]
fn holds(cmp: Cmp, ord: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match (cmp, ord) {
        (_, None) => false,
        (Cmp::Eq, Some(o)) => o == Equal,
        (Cmp::Ne, Some(o)) => o != Equal,
        (Cmp::Lt, Some(o)) => o == Less,
        (Cmp::Le, Some(o)) => o != Greater,
        (Cmp::Gt, Some(o)) => o == Greater,
        (Cmp::Ge, Some(o)) => o != Less,
    }
}

#[inline]
fn round(x: f32, r: Rounding) -> f32 {
    match r {
        Rounding::Nearest => x.round_ties_even(),
        Rounding::Zero => x.trunc(),
        Rounding::Down => x.floor(),
        Rounding::Up => x.ceil(),
        Rounding::NearestFloat | Rounding::FloatZero | Rounding::FloatDown | Rounding::FloatUp => x,
    }
}

#[inline]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "float -> int `as` saturates and maps NaN to 0, int -> float `as` rounds to nearest even: PTX's cvt"
)]
pub fn convert(op: Conv, a: u32) -> u32 {
    match op {
        // `as` saturates and maps NaN to 0, exactly PTX's cvt semantics for float → int.
        Conv::F2S(r) => (round(f(a), r) as i32).cast_unsigned(),
        Conv::F2U(r) => round(f(a), r) as u32,
        Conv::S2F => (a.cast_signed() as f32).to_bits(),
        Conv::U2F => (a as f32).to_bits(),
        Conv::F2F(r) => canon(round(f(a), r)),
        Conv::Bits => a,
    }
}

/// The new value an atomic stores, given the `old` value in memory, the operand `b` and (for `cas`) the new
/// value `c`: `cas` stores `c` only when `old == b`. f32 `add` rounds to nearest even; in global memory it
/// also flushes subnormal operands and results to zero of the same sign, as PTX says of `atom.add.f32` and an
/// H100 does, while in `shared` memory the H100 keeps them (`crosscheck/edges/edges_f32.s`); f32 `min`/`max`
/// follow the `min.f32`/`max.f32` rules.
#[inline]
pub fn atomic(op: crate::kernel::Atom, shared: bool, old: u32, b: u32, c: u32) -> u32 {
    use crate::kernel::Atom;
    match op {
        Atom::AddI => old.wrapping_add(b),
        Atom::AddF if shared => canon(f(old) + f(b)),
        Atom::AddF => canon(ftz(ftz(f(old)) + ftz(f(b)))),
        Atom::MinS => old.cast_signed().min(b.cast_signed()).cast_unsigned(),
        Atom::MinU => old.min(b),
        Atom::MinF => fmin(f(old), f(b)).to_bits(),
        Atom::MaxS => old.cast_signed().max(b.cast_signed()).cast_unsigned(),
        Atom::MaxU => old.max(b),
        Atom::MaxF => fmax(f(old), f(b)).to_bits(),
        Atom::Exch => b,
        Atom::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        Atom::And => old & b,
        Atom::Or => old | b,
        Atom::Xor => old ^ b,
        Atom::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        Atom::Dec => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        // (64-bit atomics: `atomic64`.)
        _ => old,
    }
}

/// A 64-bit atomic's new value (see [`atomic`]). f64 `add` rounds to nearest even and keeps subnormals in
/// both spaces (PTX flushes only `atom.add.f32`'s in global memory). Its NaN result, as an H100 gives it
/// (`crosscheck/edges/edges_64.s`): in global memory the operand `b` if it is NaN, else the old value, unchanged
/// (a signalling NaN stays signalling); in shared memory the old value if it is NaN, else `b`, quietened; an
/// invalid sum (∞ - ∞) is the default NaN.
#[inline]
pub fn atomic64(op: crate::kernel::Atom, shared: bool, old: u64, b: u64, c: u64) -> u64 {
    use crate::kernel::Atom;
    match op {
        Atom::AddI64 => old.wrapping_add(b),
        Atom::AddF64 => {
            let r = d(old) + d(b);
            match (r.is_nan(), shared) {
                (false, _) => r.to_bits(),
                (true, false) if is_nan64(b) => b,
                (true, false) if is_nan64(old) => old,
                (true, true) if is_nan64(old) => quiet64(old),
                (true, true) if is_nan64(b) => quiet64(b),
                _ => DEFAULT_NAN64,
            }
        }
        Atom::MinS64 => old.cast_signed().min(b.cast_signed()).cast_unsigned(),
        Atom::MinU64 => old.min(b),
        Atom::MaxS64 => old.cast_signed().max(b.cast_signed()).cast_unsigned(),
        Atom::MaxU64 => old.max(b),
        Atom::Exch64 => b,
        Atom::Cas64 => {
            if old == b {
                c
            } else {
                old
            }
        }
        Atom::And64 => old & b,
        Atom::Or64 => old | b,
        Atom::Xor64 => old ^ b,
        _ => old,
    }
}

/// f64 NaNs are not canonical on the GPU, unlike f32's: an H100 (`crosscheck/edges/edges_64.s`) gives an f64
/// operation's NaN operand back, quietened (the quiet bit set, sign and payload kept), and the *default NaN*
/// 0xfff8000000000000 for an invalid operation (0 × ∞, ∞ - ∞, 0 / 0, the square root of a negative number).
/// Which NaN operand wins depends on the operation: see [`nan_result`].
const DEFAULT_NAN64: u64 = 0xfff8_0000_0000_0000;

#[inline]
fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

#[inline]
fn is_nan64(x: u64) -> bool {
    d(x).is_nan()
}

/// A NaN with its quiet bit set.
#[inline]
fn quiet64(x: u64) -> u64 {
    x | 1 << 51
}

/// The result `r` of an f64 operation on `operands`, as the GPU writes it: when `r` is NaN, the first NaN among
/// the operands in that (priority) order, quietened, else the default NaN.
#[inline]
fn nan_result(r: f64, operands: &[u64]) -> u64 {
    if !r.is_nan() {
        return r.to_bits();
    }
    operands
        .iter()
        .find(|&&x| is_nan64(x))
        .map_or(DEFAULT_NAN64, |&x| quiet64(x))
}

/// `min`/`max.f64`: the other operand when one is NaN, the second operand quietened when both are (as measured);
/// -0 below +0.
#[allow(
    clippy::float_cmp,
    reason = "`a == b` is exact: -0 and +0 are then ordered by their sign"
)]
fn dminmax(a: u64, b: u64, max: bool) -> u64 {
    let (x, y) = (d(a), d(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => quiet64(b),
        (true, false) => b,
        (false, true) => a,
        _ if x == y => {
            if x.is_sign_negative() == max {
                b
            } else {
                a
            }
        }
        _ if (x < y) != max => a,
        _ => b,
    }
}

/// `x` rounded to an integral value by an integer rounding mode.
fn round64(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Nearest => x.round_ties_even(),
        Rounding::Zero => x.trunc(),
        Rounding::Down => x.floor(),
        Rounding::Up => x.ceil(),
        _ => x,
    }
}

/// The value of a 64-bit or 32-bit operand of type `ty` (bits in the low half for 32-bit types), exactly: an
/// integer as i128, a float as f64 (an f32 widens exactly).
#[derive(Clone, Copy)]
enum Exact {
    Int(i128),
    Float(f64),
}

fn exact(ty: Ty, bits: u64) -> Exact {
    match ty {
        Ty::F32 => Exact::Float(widen(low(bits))),
        Ty::F64 => Exact::Float(d(bits)),
        Ty::S32 => Exact::Int(i128::from(low(bits).cast_signed())),
        Ty::S64 => Exact::Int(i128::from(bits.cast_signed())),
        Ty::U32 | Ty::B32 => Exact::Int(i128::from(low(bits))),
        Ty::U64 | Ty::B64 => Exact::Int(i128::from(bits)),
    }
}

#[allow(clippy::cast_possible_truncation, reason = "the low half is the point")]
fn low(x: u64) -> u32 {
    x as u32
}

/// `fns.b32 d, mask, base, offset` as PTX's pseudo-code defines it: for `offset` 0, `base` if its bit is set;
/// otherwise the `|offset|`-th set bit met walking from `base` up (positive) or down (negative); 0xffffffff
/// when there is none (a `base` past bit 31, which PTX leaves undefined, finds none).
pub fn nth_set_bit(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return u32::MAX;
    }
    if offset == 0 {
        return if mask >> base & 1 == 1 { base } else { u32::MAX };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = i64::from(base);
    let step = if offset > 0 { 1 } else { -1 };
    while (0..32).contains(&pos) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "pos is in 0..32")]
        let p = pos as u32;
        if mask >> p & 1 == 1 {
            if count == 0 {
                return p;
            }
            count -= 1;
        }
        pos += step;
    }
    u32::MAX
}

/// An f32 widened to f64, exactly; a NaN keeps its sign and payload (shifted to the top of the f64's) and is
/// quietened, as `cvt.f64.f32` does on the GPU.
fn widen(x: u32) -> f64 {
    let v = f(x);
    if v.is_nan() {
        let sign = u64::from(x >> 31) << 63;
        d(sign | 0x7ff8_0000_0000_0000 | u64::from(x & 0x007f_ffff) << 29)
    } else {
        f64::from(v)
    }
}

/// An f64 NaN narrowed to f32: its sign and the top of its payload, quietened, as `cvt.f32.f64` does on the GPU.
fn narrow_nan(x: u64) -> u32 {
    let sign = low(x >> 63) << 31;
    sign | 0x7fc0_0000 | low((x & 0x000f_ffff_ffff_ffff) >> 29)
}

/// A float result `r` (the nearest to the exact `x`, ties to even) moved to the neighbour a directed rounding
/// asks for: towards zero, minus or plus infinity, when `r` lies on the wrong side of `x`. `cmp` orders `r`
/// against `x` exactly.
fn directed<T: Copy>(
    r: T,
    rounding: Rounding,
    cmp: std::cmp::Ordering,
    negative: bool,
    down: impl Fn(T) -> T,
    up: impl Fn(T) -> T,
) -> T {
    use std::cmp::Ordering::{Greater, Less};
    match (rounding, cmp) {
        (Rounding::FloatDown, Greater) => down(r),
        (Rounding::FloatUp, Less) => up(r),
        (Rounding::FloatZero, Greater) if !negative => down(r),
        (Rounding::FloatZero, Less) if negative => up(r),
        _ => r,
    }
}

/// `cvt.RND.TO.FROM` for any pair of u32, s32, f32, u64, s64, f64 (bits in the low half for 32-bit types), as
/// PTX defines it: integer → integer extends by the source's signedness or truncates; float → integer rounds
/// by the integer rounding, saturates, and gives 0 for NaN; integer → float and f64 → f32 round by the float
/// rounding (nearest even, or directed); f32 → f64 is exact; float → same float rounds to an integral value. A
/// NaN float result is the canonical NaN of its type.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "`as` from float saturates and maps NaN to 0 (PTX's cvt); from integer it rounds to nearest even"
)]
pub fn convert_any(to: Ty, from: Ty, rounding: Rounding, a: u64) -> u64 {
    use std::cmp::Ordering;
    let x = exact(from, a);
    // A NaN to an integer, as an H100 gives it (`crosscheck/edges/`): the sign bit alone (0x8000…) for a 64-bit
    // integer from either float, and for a 32-bit one from an f64; 0 for a 32-bit one from an f32 (below).
    let nan = match from {
        Ty::F64 => is_nan64(a),
        Ty::F32 => f(low(a)).is_nan(),
        _ => false,
    };
    if nan && to.is_int() && (to.wide() || from == Ty::F64) {
        return if to.wide() { 1 << 63 } else { 1 << 31 };
    }
    match (to, x) {
        (Ty::S32 | Ty::U32 | Ty::B32, Exact::Int(i)) => u64::from(i as u32),
        (Ty::S64 | Ty::U64 | Ty::B64, Exact::Int(i)) => i as u64,
        (Ty::S32, Exact::Float(v)) => u64::from((round64(v, rounding) as i32).cast_unsigned()),
        (Ty::U32 | Ty::B32, Exact::Float(v)) => u64::from(round64(v, rounding) as u32),
        (Ty::S64, Exact::Float(v)) => (round64(v, rounding) as i64).cast_unsigned(),
        (Ty::U64 | Ty::B64, Exact::Float(v)) => round64(v, rounding) as u64,
        (Ty::F32, Exact::Int(i)) => {
            let r = i as f32;
            // (Integral, and within i128 for any 64-bit source.)
            let cmp = (r as i128).cmp(&i);
            u64::from(directed(r, rounding, cmp, i < 0, f32::next_down, f32::next_up).to_bits())
        }
        (Ty::F64, Exact::Int(i)) => {
            let r = i as f64;
            let cmp = (r as i128).cmp(&i);
            directed(r, rounding, cmp, i < 0, f64::next_down, f64::next_up).to_bits()
        }
        (Ty::F32, Exact::Float(v)) if from == Ty::F32 => u64::from(canon(round(v as f32, rounding))),
        (Ty::F32, Exact::Float(v)) => {
            if v.is_nan() {
                return u64::from(narrow_nan(a));
            }
            let r = v as f32;
            let cmp = f64::from(r).partial_cmp(&v).unwrap_or(Ordering::Equal);
            u64::from(directed(r, rounding, cmp, v < 0.0, f32::next_down, f32::next_up).to_bits())
        }
        (Ty::F64, Exact::Float(v)) if from == Ty::F64 => nan_result(round64(v, rounding), &[a]),
        (Ty::F64, Exact::Float(v)) => v.to_bits(),
    }
}

/// A 64-bit or mixed-width operation ([`Wide`]) on one lane's operands (32-bit ones in the low half); `None`
/// is an integer division by zero. Integer arithmetic wraps; shifts clamp their amount to 64; f64 arithmetic
/// is IEEE binary64 rounded to nearest even with subnormals kept, `div` and `sqrt` correctly rounded, `fma`
/// rounded once; a NaN result is a NaN operand quietened or the default NaN ([`nan_result`]: `add`, `sub`,
/// `mul` and `min`/`max` prefer their second operand, `div` its first, `fma(a, b, c)` prefers `b`, then `c`,
/// then `a`, as measured on an H100; ptxas may commute a multiplication's operands, which PTX allows: then the
/// GPU's choice between two NaNs differs, a difference PTX leaves unspecified).
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "the high halves of double-width products are the point"
)]
pub fn wide(op: Wide, a: u64, b: u64, c: u64) -> Option<u64> {
    let (sa, sb) = (a.cast_signed(), b.cast_signed());
    let s32 = |x: u64| i64::from(low(x).cast_signed());
    Some(match op {
        Wide::Mov => a,
        Wide::Pack => u64::from(low(a)) | u64::from(low(b)) << 32,
        Wide::Add => a.wrapping_add(b),
        Wide::Sub => a.wrapping_sub(b),
        Wide::Mul => a.wrapping_mul(b),
        Wide::MulHiU => ((u128::from(a) * u128::from(b)) >> 64) as u64,
        Wide::MulHiS => (((i128::from(sa) * i128::from(sb)) >> 64) as i64).cast_unsigned(),
        Wide::MulHi32U => (u64::from(low(a)) * u64::from(low(b))) >> 32,
        Wide::MulHi32S => u64::from(low(((s32(a) * s32(b)) >> 32).cast_unsigned())),
        Wide::MulWideU => u64::from(low(a)) * u64::from(low(b)),
        Wide::MulWideS => (s32(a) * s32(b)).cast_unsigned(),
        Wide::DivU => a.checked_div(b)?,
        Wide::DivS => {
            if b == 0 {
                return None;
            }
            sa.wrapping_div(sb).cast_unsigned()
        }
        Wide::RemU => a.checked_rem(b)?,
        Wide::RemS => {
            if b == 0 {
                return None;
            }
            sa.wrapping_rem(sb).cast_unsigned()
        }
        Wide::MinU => a.min(b),
        Wide::MinS => sa.min(sb).cast_unsigned(),
        Wide::MaxU => a.max(b),
        Wide::MaxS => sa.max(sb).cast_unsigned(),
        Wide::And => a & b,
        Wide::Or => a | b,
        Wide::Xor => a ^ b,
        Wide::Shl => a.checked_shl(low(b)).unwrap_or(0),
        Wide::ShrU => a.checked_shr(low(b)).unwrap_or(0),
        Wide::ShrS => (sa >> low(b).min(63)).cast_unsigned(),
        Wide::Not => !a,
        Wide::NegI => sa.wrapping_neg().cast_unsigned(),
        Wide::AbsI => sa.wrapping_abs().cast_unsigned(),
        Wide::Mad => a.wrapping_mul(b).wrapping_add(c),
        Wide::MadHiU => (((u128::from(a) * u128::from(b)) >> 64) as u64).wrapping_add(c),
        Wide::MadHiS => (((i128::from(sa) * i128::from(sb)) >> 64) as i64)
            .cast_unsigned()
            .wrapping_add(c),
        Wide::MadHi32U => u64::from(low(((u64::from(low(a)) * u64::from(low(b))) >> 32).wrapping_add(c))),
        Wide::MadHi32S => u64::from(low(((s32(a) * s32(b)) >> 32).cast_unsigned().wrapping_add(c))),
        Wide::MadWideU => (u64::from(low(a)) * u64::from(low(b))).wrapping_add(c),
        Wide::MadWideS => (s32(a) * s32(b)).cast_unsigned().wrapping_add(c),
        Wide::AddF => nan_result(d(a) + d(b), &[b, a]),
        Wide::SubF => nan_result(d(a) - d(b), &[b, a]),
        Wide::MulF => nan_result(d(a) * d(b), &[b, a]),
        Wide::DivF => nan_result(d(a) / d(b), &[a, b]),
        Wide::MinF => dminmax(a, b, false),
        Wide::MaxF => dminmax(a, b, true),
        Wide::NegF => a ^ (1 << 63),
        Wide::AbsF => a & !(1 << 63),
        Wide::FmaF => nan_result(d(a).mul_add(d(b), d(c)), &[b, c, a]),
        Wide::SqrtF => nan_result(d(a).sqrt(), &[a]),
        Wide::Sqrt32 => u64::from(canon(f(low(a)).sqrt())),
        Wide::Popc64 => u64::from(a.count_ones()),
        Wide::Clz64 => u64::from(a.leading_zeros()),
        Wide::Brev64 => a.reverse_bits(),
        Wide::Bfe { signed, wide } => bit_field(a, low(b), low(c), signed, wide),
        Wide::Bfind { signed, wide, shiftamt } => u64::from(find_msb(a, signed, wide, shiftamt)),
        Wide::Prmt => u64::from(permute(low(a), low(b), low(c))),
        Wide::Fns => u64::from(nth_set_bit(low(a), low(b), low(c).cast_signed())),
        Wide::Dot { op } => u64::from(dot(op, low(a), low(b), low(c))),
        Wide::Cvt { to, from, rounding } => convert_any(to, from, rounding, a),
        Wide::CopySign { wide: true } => b & !(1 << 63) | a & (1 << 63),
        Wide::CopySign { wide: false } => b & 0x7fff_ffff | a & 0x8000_0000,
        Wide::Rounded {
            op,
            rounding,
            wide: false,
            ftz: true,
        } => u64::from(rounded_ftz32(op, rounding, [low(a), low(b), low(c)])),
        Wide::Rounded { op, rounding, wide, .. } => rounded(op, rounding, wide, [a, b, c]),
        Wide::Approx { op, wide: true, .. } => crate::sfu::approx64(op, a),
        Wide::Approx { op, ftz, wide: false } => u64::from(crate::sfu::approx32(op, ftz, low(a), low(b), low(c))),
        Wide::Half { op, bf16, x2 } => u64::from(half(op, bf16, x2, [low(a), low(b), low(c)])),
    })
}

/// The canonical NaN of the 16-bit formats (binary16 and bfloat16 alike: sign clear, all exponent and mantissa
/// bits set).
const HALF_NAN: u16 = 0x7fff;

/// 16-bit floating point on one lane's 32-bit operands ([`HalfOp`]), as an H200 computes it
/// (`crosscheck/edges/edges_half.s`): IEEE arithmetic on binary16 (`bf16`: bfloat16) values in the low 16 bits
/// (`x2`: on each half), rounded to nearest even, subnormals kept, a NaN result the canonical NaN 0x7fff; `min`/
/// `max` as PTX defines them (a NaN operand gives the other operand; −0 below +0); `neg` and `abs` on the sign bit,
/// but a NaN operand gives the canonical NaN; the conversions from f32 rounded to nearest even (a NaN: the canonical
/// one; `x2`: `a` into the upper half, `b` the lower), to f32 exact (binary16's NaNs the canonical f32 NaN,
/// bfloat16's kept as they are). A scalar result's upper 16 bits are 0.
#[allow(clippy::cast_possible_truncation, reason = "16-bit halves of 32-bit rows")]
pub fn half(op: HalfOp, bf16: bool, x2: bool, [a, b, c]: [u32; 3]) -> u32 {
    use rustc_apfloat::Float;
    use rustc_apfloat::ieee::{BFloat, Half, Single};
    let one = |x: u32, y: u32, z: u32| -> u32 {
        let (x, y, z) = (x as u16, y as u16, z as u16);
        u32::from(if bf16 {
            half1::<BFloat>(op, x, y, z)
        } else {
            half1::<Half>(op, x, y, z)
        })
    };
    let narrow = |x: u32| -> u32 {
        u32::from(if bf16 {
            from_single::<BFloat>(Single::from_bits(u128::from(x)))
        } else {
            from_single::<Half>(Single::from_bits(u128::from(x)))
        })
    };
    match op {
        HalfOp::FromF32 if x2 => narrow(a) << 16 | narrow(b),
        HalfOp::FromF32 => narrow(a),
        // (A bfloat16 is an f32's high half: the GPU's conversion keeps a NaN's payload, signalling or not.)
        HalfOp::ToF32 if bf16 => a << 16,
        HalfOp::ToF32 => to_single(Half::from_bits(u128::from(a as u16))),
        _ if x2 => one(a, b, c) | one(a >> 16, b >> 16, c >> 16) << 16,
        _ => one(a, b, c),
    }
}

/// One 16-bit operation of [`half`] in format `F`.
#[allow(clippy::cast_possible_truncation, reason = "a 16-bit format's bits")]
fn half1<F: rustc_apfloat::Float>(op: HalfOp, a: u16, b: u16, c: u16) -> u16 {
    use rustc_apfloat::Round;
    let (x, y, z) = (
        F::from_bits(u128::from(a)),
        F::from_bits(u128::from(b)),
        F::from_bits(u128::from(c)),
    );
    let mode = Round::NearestTiesToEven;
    let r = match op {
        HalfOp::Add => x.add_r(y, mode).value,
        HalfOp::Sub => x.sub_r(y, mode).value,
        HalfOp::Mul => x.mul_r(y, mode).value,
        HalfOp::Fma => x.mul_add_r(y, z, mode).value,
        // (The GPU's `HADD2`/`HMUL2` forms: a NaN operand gives the canonical NaN.)
        HalfOp::Neg | HalfOp::Abs if x.is_nan() => return HALF_NAN,
        HalfOp::Neg => return a ^ 0x8000,
        HalfOp::Abs => return a & 0x7fff,
        HalfOp::Min | HalfOp::Max => {
            return match (x.is_nan(), y.is_nan()) {
                (true, true) => HALF_NAN,
                (true, false) => b,
                (false, true) => a,
                // (−0 below +0: the signed order of the bits where the values tie.)
                _ => {
                    let less = x < y || (x == y && a & 0x8000 > b & 0x8000);
                    if less == (op == HalfOp::Min) { a } else { b }
                }
            };
        }
        HalfOp::FromF32 | HalfOp::ToF32 => unreachable!("the conversions are `half`'s own"),
    };
    if r.is_nan() { HALF_NAN } else { r.to_bits() as u16 }
}

/// An f32 rounded to nearest even into 16-bit format `F` (a NaN: the canonical one).
#[allow(clippy::cast_possible_truncation, reason = "a 16-bit format's bits")]
fn from_single<F: rustc_apfloat::Float>(x: rustc_apfloat::ieee::Single) -> u16
where
    rustc_apfloat::ieee::Single: rustc_apfloat::FloatConvert<F>,
{
    use rustc_apfloat::{Float, FloatConvert, Round};
    if x.is_nan() {
        return HALF_NAN;
    }
    let mut loses = false;
    let r: F = x.convert_r(Round::NearestTiesToEven, &mut loses).value;
    r.to_bits() as u16
}

/// A 16-bit format's value as an f32 (exact; a NaN: the canonical one).
#[allow(clippy::cast_possible_truncation, reason = "an f32's bits")]
fn to_single<F: rustc_apfloat::Float + rustc_apfloat::FloatConvert<rustc_apfloat::ieee::Single>>(h: F) -> u32 {
    use rustc_apfloat::Float;
    if h.is_nan() {
        return CANONICAL_NAN.to_bits();
    }
    let mut loses = false;
    let r: rustc_apfloat::ieee::Single = h.convert(&mut loses).value;
    r.to_bits() as u32
}

/// `dp4a`, `dp2a` and `lop3` on one lane (PTX ISA: "Integer Arithmetic Instructions: dp4a, dp2a", "Logic and Shift
/// Instructions: lop3"): the products of bytes (and halves), each sign- or zero-extended by its operand's type, added
/// to `c` in 32 bits; `lop3` the table's bit that each position's three bits index.
pub fn dot(op: TernaryOp, a: u32, b: u32, c: u32) -> u32 {
    // A field of `width` bits at `shift`, sign- or zero-extended to 32 bits; the products and sum wrap in 32 bits.
    let field = |x: u32, shift: u32, width: u32, signed: bool| {
        let up = x >> shift << (32 - width);
        if signed {
            (up.cast_signed() >> (32 - width)).cast_unsigned()
        } else {
            up >> (32 - width)
        }
    };
    match op {
        TernaryOp::Dp4a { a_signed, b_signed } => (0..4).fold(c, |s, k| {
            s.wrapping_add(field(a, 8 * k, 8, a_signed).wrapping_mul(field(b, 8 * k, 8, b_signed)))
        }),
        TernaryOp::Dp2a { hi, a_signed, b_signed } => {
            let first = if hi { 2 } else { 0 };
            (0..2).fold(c, |s, k| {
                s.wrapping_add(field(a, 16 * k, 16, a_signed).wrapping_mul(field(b, 8 * (first + k), 8, b_signed)))
            })
        }
        TernaryOp::Lop3(lut) => (0..8).filter(|k| lut >> k & 1 != 0).fold(0, |d, k| {
            let pick = |x: u32, bit: u32| if k >> bit & 1 != 0 { x } else { !x };
            d | (pick(a, 2) & pick(b, 1) & pick(c, 0))
        }),
        _ => unreachable!("decoded as Wide::Dot only"),
    }
}

/// IEEE arithmetic rounded towards zero, minus or plus infinity (`rounding`; or to nearest, for `rcp.rn`), on f64
/// (`wide`) or f32 operands (in the low 32 bits): the exact result's neighbour in that direction, subnormals kept,
/// an exact zero sum's sign by IEEE 754's rule for the rounding (−0 under `rm`). A NaN result is the same NaN as the
/// rounded-to-nearest operation gives (the canonical NaN for f32; for f64 an operand's NaN quietened,
/// `nan_result`). Square roots are `sqrt_directed32` and `sqrt_directed64` (APFloat has none).
#[allow(
    clippy::cast_possible_truncation,
    reason = "an f32's bits are the low 32 of the u128 APFloat keeps them in"
)]
pub fn rounded(op: RoundedOp, rounding: Rounding, wide: bool, [a, b, c]: [u64; 3]) -> u64 {
    use rustc_apfloat::Round;
    use rustc_apfloat::ieee::{Double, Single};
    let mode = match rounding {
        Rounding::FloatZero | Rounding::Zero => Round::TowardZero,
        Rounding::FloatDown | Rounding::Down => Round::TowardNegative,
        Rounding::FloatUp | Rounding::Up => Round::TowardPositive,
        Rounding::NearestFloat | Rounding::Nearest => Round::NearestTiesToEven,
    };
    if wide {
        let nearest = match op {
            RoundedOp::Add => nan_result(d(a) + d(b), &[b, a]),
            RoundedOp::Sub => nan_result(d(a) - d(b), &[b, a]),
            RoundedOp::Mul => nan_result(d(a) * d(b), &[b, a]),
            RoundedOp::Div => nan_result(d(a) / d(b), &[a, b]),
            RoundedOp::Fma => nan_result(d(a).mul_add(d(b), d(c)), &[b, c, a]),
            RoundedOp::Sqrt => return sqrt_directed64(a, rounding),
            RoundedOp::Rcp => nan_result(1.0 / d(a), &[a]),
            RoundedOp::Min | RoundedOp::Max | RoundedOp::Abs | RoundedOp::Neg | RoundedOp::Flush => {
                unreachable!("the decoder takes them only with .ftz, on f32")
            }
        };
        if is_nan64(nearest) {
            return nearest;
        }
        return apfloat::<Double>(op, mode, [a, b, c]) as u64;
    }
    let (a, b, c) = (low(a), low(b), low(c));
    if op == RoundedOp::Sqrt {
        return u64::from(sqrt_directed32(a, rounding));
    }
    let nearest = match op {
        RoundedOp::Add => f(a) + f(b),
        RoundedOp::Sub => f(a) - f(b),
        RoundedOp::Mul => f(a) * f(b),
        RoundedOp::Div => f(a) / f(b),
        RoundedOp::Fma => f(a).mul_add(f(b), f(c)),
        RoundedOp::Rcp | RoundedOp::Sqrt => 1.0 / f(a),
        RoundedOp::Min | RoundedOp::Max | RoundedOp::Abs | RoundedOp::Neg | RoundedOp::Flush => {
            unreachable!("the decoder takes them only with .ftz")
        }
    };
    if nearest.is_nan() {
        return u64::from(CANONICAL_NAN.to_bits());
    }
    apfloat::<Single>(op, mode, [a, b, c].map(u64::from)) as u64
}

/// An f32 subnormal as a zero of its sign (other values unchanged).
#[inline]
fn flush(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x }
}

/// The `.ftz` forms on f32 (`add.ftz.f32`, `fma.rz.ftz.f32`, `div.rn.ftz.f32`, `min.ftz.f32`, `cvt.ftz.f32.f32`, …),
/// as the GPU's `FADD.FTZ`, `FMUL.FTZ`, `FFMA.FTZ`, `FMNMX.FTZ` and ptxas's subroutines compute them: subnormal
/// operands are zeros of their sign; the result is rounded to 24 significant bits as if the exponent had no lower
/// bound, and one below 2^-126 in magnitude is a zero of its sign (so a product of 2^-126·(1 - 2^-24) is 0, where
/// IEEE 754's subnormal rounding makes it 2^-126, and one a little below 2^-126 that rounds to 2^-126 is kept:
/// `crosscheck/edges/edges_ftz.s` on an H200); an exact zero keeps IEEE 754's sign for the rounding; a NaN result
/// is the canonical NaN. `abs`, `neg` and the flush are an `FADD.FTZ` of `|a|`, `-a` or `a` and -0.0 (ptxas's code
/// for them): a NaN operand gives the canonical NaN, unlike the plain forms' sign-bit operations.
pub fn rounded_ftz32(op: RoundedOp, rounding: Rounding, [a, b, c]: [u32; 3]) -> u32 {
    let (a, b, c) = (flush(a), flush(b), flush(c));
    let canonical = |x: u32, v: u32| if f(x).is_nan() { CANONICAL_NAN.to_bits() } else { v };
    match op {
        RoundedOp::Min => fmin(f(a), f(b)).to_bits(),
        RoundedOp::Max => fmax(f(a), f(b)).to_bits(),
        RoundedOp::Abs => canonical(a, a & 0x7fff_ffff),
        RoundedOp::Neg => canonical(a, a ^ 0x8000_0000),
        RoundedOp::Flush => canonical(a, a),
        _ => {
            let ieee = |x: u32, y: u32, z: u32| low(rounded(op, rounding, false, [x, y, z].map(u64::from)));
            let r = ieee(a, b, c);
            let magnitude = r & 0x7fff_ffff;
            if magnitude > 0x0080_0000 || magnitude == 0 || f(r).is_nan() {
                return r;
            }
            // |r| at most 2^-126 and not zero: the GPU rounds to 24 bits as if the exponent were unbounded, then
            // flushes a result below 2^-126. The operation on operands scaled by 2^64 rounds the same way in the
            // normal range (a tiny nonzero result bounds the operands: no scaled one overflows). A sum of normal
            // numbers below 2^-126 is exact; a square root is never that small.
            let up = |x: u32| (f(x) * f(TWO_64)).to_bits();
            let scaled = match op {
                RoundedOp::Mul | RoundedOp::Div => ieee(up(a), b, c),
                RoundedOp::Fma => ieee(up(a), b, up(c)),
                RoundedOp::Rcp => low(rounded(
                    RoundedOp::Div,
                    rounding,
                    false,
                    [u64::from(TWO_64), u64::from(a), 0],
                )),
                _ => return if magnitude < 0x0080_0000 { r & 0x8000_0000 } else { r },
            };
            // Below 2^-126 · 2^64 = 2^-62?
            if scaled & 0x7fff_ffff < 0x2080_0000 {
                r & 0x8000_0000
            } else {
                (f(scaled) * f(TWO_MINUS_64)).to_bits()
            }
        }
    }
}

/// 2^64 and 2^-64 as f32 bits.
const TWO_64: u32 = 0x5f80_0000;
const TWO_MINUS_64: u32 = 0x1f80_0000;

/// `op` on the bits of IEEE format `F` (`rustc_apfloat`'s single or double), rounded by `mode`: the result's bits.
fn apfloat<F: rustc_apfloat::Float>(op: RoundedOp, mode: rustc_apfloat::Round, [a, b, c]: [u64; 3]) -> u128 {
    let (x, y, z) = (
        F::from_bits(u128::from(a)),
        F::from_bits(u128::from(b)),
        F::from_bits(u128::from(c)),
    );
    let r = match op {
        RoundedOp::Add => x.add_r(y, mode).value,
        RoundedOp::Sub => x.sub_r(y, mode).value,
        RoundedOp::Mul => x.mul_r(y, mode).value,
        RoundedOp::Div => x.div_r(y, mode).value,
        RoundedOp::Fma => x.mul_add_r(y, z, mode).value,
        RoundedOp::Rcp | RoundedOp::Sqrt => F::from_u128(1).value.div_r(x, mode).value,
        RoundedOp::Min | RoundedOp::Max | RoundedOp::Abs | RoundedOp::Neg | RoundedOp::Flush => {
            unreachable!("the decoder takes them only with .ftz")
        }
    };
    r.to_bits()
}

/// The carry chain's operation ([`warpsim_isa::CarryOp`]) on one lane's operands (32-bit ones in the low half):
/// `a + b + cin`, `a - (b + cin)`, or the low or high half of `a * b` (the high half of the signed product with
/// `signed`) `+ c + cin`, wrapped to the width; and the carry out of that unsigned sum (for `sub`, whether it
/// borrowed), as PTX's `add.cc`, `subc`, `madc.hi.cc`, … define them.
#[allow(
    clippy::cast_possible_truncation,
    reason = "the halves of the double-width sums are the point"
)]
pub fn carry(op: CarryOp, signed: bool, wide: bool, [a, b, c]: [u64; 3], cin: bool) -> (u64, bool) {
    let bits = if wide { 64 } else { 32 };
    let mask = if wide { u64::MAX } else { 0xffff_ffff };
    let (a, b, c, cin) = (
        u128::from(a & mask),
        u128::from(b & mask),
        u128::from(c & mask),
        u128::from(cin),
    );
    let low = |v: u128| (v as u64) & mask;
    match op {
        CarryOp::Add => {
            let sum = a + b + cin;
            (low(sum), sum >> bits != 0)
        }
        CarryOp::Sub => {
            let taken = b + cin;
            (low(a.wrapping_sub(taken)), a < taken)
        }
        CarryOp::MadLo | CarryOp::MadHi => {
            let product = if op == CarryOp::MadHi && signed {
                // Sign-extended operands: the high half of the signed product, as bits.
                let extend = |v: u128| -> i128 {
                    let v = v.cast_signed();
                    if v >> (bits - 1) & 1 == 1 {
                        v - (1i128 << bits)
                    } else {
                        v
                    }
                };
                ((extend(a) * extend(b)) >> bits).cast_unsigned()
            } else if op == CarryOp::MadHi {
                (a * b) >> bits
            } else {
                a * b
            };
            let sum = u128::from(low(product)) + c + cin;
            (low(sum), sum >> bits != 0)
        }
    }
}

/// `sqrt.{rz,rm,rp}.f32`: the square root rounded to nearest, moved to its neighbour when it lies on the wrong side
/// of the exact root (its square, exact in f64, against the operand).
fn sqrt_directed32(a: u32, rounding: Rounding) -> u32 {
    let x = f(a);
    let r = x.sqrt();
    if r.is_nan() {
        return CANONICAL_NAN.to_bits();
    }
    if x == 0.0 || x.is_infinite() {
        return r.to_bits();
    }
    let square = f64::from(r) * f64::from(r);
    let cmp = square.partial_cmp(&f64::from(x)).unwrap_or(std::cmp::Ordering::Equal);
    directed(r, rounding, cmp, false, f32::next_down, f32::next_up).to_bits()
}

/// `sqrt.{rz,rm,rp}.f64`: as [`sqrt_directed32`], the square exact in IEEE quadruple precision (113 bits).
fn sqrt_directed64(a: u64, rounding: Rounding) -> u64 {
    use rustc_apfloat::ieee::{Double, Quad};
    use rustc_apfloat::{Float, FloatConvert};
    let x = d(a);
    let r = x.sqrt();
    if r.is_nan() {
        return nan_result(r, &[a]);
    }
    if x == 0.0 || x.is_infinite() {
        return r.to_bits();
    }
    let quad = |v: f64| -> Quad {
        let mut loses = false;
        FloatConvert::<Quad>::convert(Double::from_bits(u128::from(v.to_bits())), &mut loses).value
    };
    let square = quad(r) * quad(r);
    let cmp = square.value.partial_cmp(&quad(x)).unwrap_or(std::cmp::Ordering::Equal);
    directed(r, rounding, cmp, false, f64::next_down, f64::next_up).to_bits()
}

/// `bfe`: PTX's pseudo-code. `msb` is 31 or 63; the sign bit (signed types, `len` > 0) is
/// `a[min(pos + len - 1, msb)]`; bit `i` of the result is `a[pos + i]` for `i < len` and `pos + i <= msb`, else
/// the sign bit (0 for unsigned types). The 32-bit forms take `pos = b & 0xff`, `len = c & 0xff`, as PTX says;
/// the 64-bit ones, which ptxas lowers to a sequence, take the whole 32-bit `b` and `c` on the GPU (measured on
/// an H100, `crosscheck/edges/edges_bits.s`: `bfe.u64 d, a, 0x104, 0x208` is 0, not bits 4-11 of `a`).
pub fn bit_field(a: u64, b: u32, c: u32, signed: bool, wide: bool) -> u64 {
    let msb: u64 = if wide { 63 } else { 31 };
    let a = if wide { a } else { a & 0xffff_ffff };
    let (pos, len) = if wide {
        (u64::from(b), u64::from(c))
    } else {
        (u64::from(b & 0xff), u64::from(c & 0xff))
    };
    let sbit = signed && len != 0 && a >> (pos + len - 1).min(msb) & 1 == 1;
    // The field's bits that lie inside the operand.
    let n = if pos > msb { 0 } else { len.min(msb + 1 - pos) };
    let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let field = if n == 0 { 0 } else { (a >> pos) & mask };
    let r = if sbit { field | !mask } else { field };
    if wide { r } else { r & 0xffff_ffff }
}

/// `bfi`: PTX's pseudo-code: `b`, with bits `pos + i` (for `i < len` and `pos + i <= msb`) set to bit `i` of
/// `a`. The 32-bit form takes `pos = c & 0xff`, `len = d & 0xff`, as PTX says; the 64-bit one, a sequence on
/// the GPU like `bfe.b64`, takes the whole 32-bit `c` and `d` (measured on an H100, `edges_bfi.s`).
pub fn bit_insert(a: u64, b: u64, pos: u32, len: u32, wide: bool) -> u64 {
    let msb: u32 = if wide { 63 } else { 31 };
    let (pos, len) = if wide { (pos, len) } else { (pos & 0xff, len & 0xff) };
    let n = if pos > msb { 0 } else { len.min(msb + 1 - pos) };
    let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let r = if n == 0 {
        b
    } else {
        (b & !(mask << pos)) | ((a & mask) << pos)
    };
    if wide { r } else { r & 0xffff_ffff }
}

/// `bfind`: the bit position of the most significant non-sign bit (for a negative signed value, the most
/// significant 0), or `0xffffffff` when there is none; `.shiftamt` gives `msb - position` instead.
pub fn find_msb(a: u64, signed: bool, wide: bool, shiftamt: bool) -> u32 {
    let bits = if wide { 64 } else { 32 };
    let mut x = if wide { a } else { a & 0xffff_ffff };
    if signed && x >> (bits - 1) & 1 == 1 {
        x = !x & if wide { u64::MAX } else { 0xffff_ffff };
    }
    if x == 0 {
        return u32::MAX;
    }
    let pos = x.ilog2();
    if shiftamt { bits - 1 - pos } else { pos }
}

/// `prmt.b32 d, a, b, c` in the default mode: bytes 0-3 of {b, a} are `a`'s, 4-7 `b`'s; nibble `n` of `c`
/// picks result byte `n` (its low three bits the byte, its high bit: replicate that byte's sign bit instead).
pub fn permute(a: u32, b: u32, c: u32) -> u32 {
    let bytes = u64::from(b) << 32 | u64::from(a);
    (0..4).fold(0, |r, n| {
        let sel = c >> (4 * n) & 0xf;
        let byte = low(bytes >> (8 * (sel & 7))) & 0xff;
        let byte = if sel & 8 == 0 {
            byte
        } else if byte & 0x80 != 0 {
            0xff
        } else {
            0
        };
        r | byte << (8 * n)
    })
}

/// `setp` on 64-bit operands (the f32 rules for NaN).
#[inline]
pub fn compare64(cmp: Cmp, class: CmpClass, a: u64, b: u64) -> bool {
    let ord = match class {
        CmpClass::Signed => Some(a.cast_signed().cmp(&b.cast_signed())),
        CmpClass::Unsigned => Some(a.cmp(&b)),
        // (`.ftz` is for f32 only.)
        CmpClass::Float | CmpClass::FloatFtz => d(a).partial_cmp(&d(b)),
    };
    holds(cmp, ord)
}

/// Lanes of a warp as one row of values (lane `l` at index `l`; only the first `W` are meaningful).
pub type Row = [u32; 64];

/// Rows an executor fills with operands that are not registers (a register is read in place) and with its
/// result: the SM's, reused by every instruction (`execute::LaneScratch`), so that none is zeroed per issue.
pub type Rows = [Row; 4];

/// `$body` with `$op` (a [`Bin`]) as the constant `$v`, one arm per operation: the loop in `$body` is compiled
/// for each operation on its own, so that the compiler can vectorise it.
macro_rules! per_binary {
    ($op:expr, $v:ident => $body:expr) => {
        per_binary!(@arms $op, $v, $body; AddI, SubI, MulI, DivS, DivU, RemS, RemU, MinS, MinU, MaxS, MaxU, AddF,
            SubF, MulF, DivF, MinF, MaxF, And, Or, Xor, Shl, ShrU, ShrS)
    };
    (@arms $op:expr, $v:ident, $body:expr; $($name:ident),*) => {
        match $op {
            $(Bin::$name => {
                const $v: Bin = Bin::$name;
                $body
            })*
        }
    };
}

/// `binary` on the first `n` lanes of two rows at once. The operation is chosen once per row, not per lane, so
/// each arm is a plain loop the compiler can vectorise. Integer division by zero gives 0 here: the caller checks
/// the executing lanes first ([`divides_by_zero`]).
#[inline]
pub fn binary_rows(op: Bin, a: &[u32], b: &[u32], out: &mut Row, n: usize) {
    per_binary!(op, OP => {
        for ((o, &x), &y) in out[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
            *o = binary(OP, x, y).unwrap_or(0);
        }
    });
}

/// `binary` on the first `n` lanes of a row and one value for every lane (an immediate): a shift by it is one
/// count for the whole row, which the compiler makes a vector shift of.
#[inline]
pub fn binary_rows_by(op: Bin, a: &[u32], b: u32, out: &mut Row, n: usize) {
    per_binary!(op, OP => {
        for (o, &x) in out[..n].iter_mut().zip(&a[..n]) {
            *o = binary(OP, x, b).unwrap_or(0);
        }
    });
}

/// The first lane of `exec` whose divisor is 0, for an integer division or remainder.
#[inline]
pub fn divides_by_zero(op: Bin, b: &[u32], exec: u64) -> Option<u32> {
    if !matches!(op, Bin::DivS | Bin::DivU | Bin::RemS | Bin::RemU) {
        return None;
    }
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        if b[lane as usize] == 0 {
            return Some(lane);
        }
    }
    None
}

/// `unary` on the first `n` lanes of a row.
#[inline]
pub fn unary_rows(op: Un, a: &[u32], out: &mut Row, n: usize) {
    macro_rules! each {
        ($($v:ident),*) => {
            match op {
                $(Un::$v => {
                    for (o, &x) in out[..n].iter_mut().zip(&a[..n]) {
                        *o = unary(Un::$v, x);
                    }
                })*
            }
        };
    }
    each!(NegI, NegF, AbsI, AbsF, Not, Popc, Clz, Brev);
}

/// `ternary` on the first `n` lanes of three rows.
#[inline]
pub fn ternary_rows(op: Tern, a: &[u32], b: &[u32], c: &[u32], out: &mut Row, n: usize) {
    macro_rules! each {
        ($($v:ident),*) => {
            match op {
                $(Tern::$v => {
                    for (((o, &x), &y), &z) in out[..n].iter_mut().zip(&a[..n]).zip(&b[..n]).zip(&c[..n]) {
                        *o = ternary(Tern::$v, x, y, z);
                    }
                })*
            }
        };
    }
    each!(MadI, FmaF);
}

/// `compare` on the first `n` lanes of two rows: bit `l` of the result is lane `l`'s outcome.
#[inline]
pub fn compare_rows(cmp: Cmp, class: CmpClass, a: &[u32], b: &[u32], n: usize) -> u64 {
    #[inline(always)]
    fn bits(a: &[u32], b: &[u32], n: usize, test: impl Fn(u32, u32) -> bool) -> u64 {
        // Thirty-two lanes at a time, a fixed count the compiler turns into vector compares and a mask; lanes
        // past `n` (a row always holds 64) are compared too and their bits dropped.
        let mut out = 0u64;
        for (c, (x, y)) in a
            .chunks_exact(32)
            .zip(b.chunks_exact(32))
            .take(n.div_ceil(32))
            .enumerate()
        {
            let mut m = 0u32;
            for j in 0..32 {
                m |= u32::from(test(x[j], y[j])) << j;
            }
            out |= u64::from(m) << (32 * c);
        }
        if n < 64 { out & ((1u64 << n) - 1) } else { out }
    }
    macro_rules! each {
        ($class:ident: $($v:ident),*) => {
            match cmp {
                $(Cmp::$v => bits(a, b, n, |x, y| compare(Cmp::$v, CmpClass::$class, x, y)),)*
            }
        };
    }
    match class {
        CmpClass::Signed => each!(Signed: Eq, Ne, Lt, Le, Gt, Ge),
        CmpClass::Unsigned => each!(Unsigned: Eq, Ne, Lt, Le, Gt, Ge),
        CmpClass::Float => each!(Float: Eq, Ne, Lt, Le, Gt, Ge),
        CmpClass::FloatFtz => each!(FloatFtz: Eq, Ne, Lt, Le, Gt, Ge),
    }
}

/// `convert` on the first `n` lanes of a row.
#[inline]
pub fn convert_rows(op: Conv, a: &Row, out: &mut Row, n: usize) {
    for (o, &x) in out[..n].iter_mut().zip(&a[..n]) {
        *o = convert(op, x);
    }
}

#[cfg(test)]
mod tests {
    /// Directed roundings by hand: negative results, overflow, subnormals and inexact quotients.
    #[test]
    fn directed_roundings_move_to_the_exact_results_neighbour() {
        use warpsim_isa::RoundedOp::{Add, Div, Mul};
        let (z, m, p) = (Rounding::FloatZero, Rounding::FloatDown, Rounding::FloatUp);
        let f32s = |op, r, a: u32, b: u32| rounded(op, r, false, [u64::from(a), u64::from(b), 0]);
        let max = 0x7f7f_ffff_u32;
        // -MAX * 2 overflows: -inf downwards, -MAX towards zero and upwards.
        assert_eq!(f32s(Mul, m, max | 1 << 31, 0x4000_0000), 0xff80_0000);
        assert_eq!(f32s(Mul, z, max | 1 << 31, 0x4000_0000), u64::from(max | 1 << 31));
        assert_eq!(f32s(Mul, p, max | 1 << 31, 0x4000_0000), u64::from(max | 1 << 31));
        // 1 / -3 = -0.333…: 0xbeaaaaab (nearest) lies below it.
        assert_eq!(f32s(Div, m, 0x3f80_0000, 0xc040_0000), 0xbeaa_aaab);
        assert_eq!(f32s(Div, z, 0x3f80_0000, 0xc040_0000), 0xbeaa_aaaa);
        assert_eq!(f32s(Div, p, 0x3f80_0000, 0xc040_0000), 0xbeaa_aaaa);
        // 2^-100 * 2^-40 = 2^-140, a subnormal, exactly; 2^-149 * 0.5 is half the smallest subnormal.
        assert_eq!(f32s(Mul, z, 27 << 23, 87 << 23), 1 << 9);
        assert_eq!(f32s(Mul, z, 1, 0x3f00_0000), 0);
        assert_eq!(f32s(Mul, p, 1, 0x3f00_0000), 1);
        assert_eq!(f32s(Mul, m, 1 | 1 << 31, 0x3f00_0000), 1 | 1 << 31);
        // 1 + 2^-60 in f64: 1 towards zero, the next double up upwards.
        let one = 1.0f64.to_bits();
        let tiny = 2f64.powi(-60).to_bits();
        assert_eq!(rounded(Add, z, true, [one, tiny, 0]), one);
        assert_eq!(rounded(Add, p, true, [one, tiny, 0]), one + 1);
        // A NaN operand: the canonical f32 NaN; the f64 operand's NaN quietened.
        assert_eq!(
            f32s(Add, z, 0x7f80_0001, 0x3f80_0000),
            u64::from(CANONICAL_NAN.to_bits())
        );
        assert_eq!(
            rounded(Add, z, true, [0x7ff0_0000_0000_0001, one, 0]),
            0x7ff8_0000_0000_0001
        );
    }

    /// The f32 division's slow-path test answers as the rule measured on the GPU is stated (both operands normal,
    /// a's exponent at least -102, b's in -125..=124, a's less b's in -124..=126), for every pair of exponents
    /// (with mantissas that make no difference to it).
    #[test]
    fn the_f32_division_slow_path_test_is_the_rule() {
        let exponent = |x: u32| {
            let e = ((x >> 23) & 0xff).cast_signed();
            (e != 0 && e != 0xff).then_some(e - 127)
        };
        let rule = |a: u32, b: u32| match (exponent(a), exponent(b)) {
            (Some(ea), Some(eb)) => ea < -102 || !(-125..=124).contains(&eb) || !(-124..=126).contains(&(ea - eb)),
            _ => true,
        };
        for ea in 0u32..256 {
            for eb in 0u32..256 {
                for (ma, mb) in [(0, 0), (1, 0x7f_ffff), (0x40_0000, 1)] {
                    let (a, b) = (ea << 23 | ma, 1 << 31 | eb << 23 | mb);
                    assert_eq!(super::slow_path::f32_div(a, b), rule(a, b), "exponents {ea} and {eb}");
                }
            }
        }
    }

    use super::*;
    use crate::kernel::Bin;

    /// A row against an immediate (`binary_rows_by`) gives what the per-lane rule gives, for every operation and
    /// values around the edges (shift counts past 31, zero divisors, signs, NaN and infinities).
    #[test]
    fn a_row_against_one_value_is_the_lane_rule() {
        let ops = [
            Bin::AddI,
            Bin::SubI,
            Bin::MulI,
            Bin::DivS,
            Bin::DivU,
            Bin::RemS,
            Bin::RemU,
            Bin::MinS,
            Bin::MinU,
            Bin::MaxS,
            Bin::MaxU,
            Bin::AddF,
            Bin::SubF,
            Bin::MulF,
            Bin::DivF,
            Bin::MinF,
            Bin::MaxF,
            Bin::And,
            Bin::Or,
            Bin::Xor,
            Bin::Shl,
            Bin::ShrU,
            Bin::ShrS,
        ];
        let values = [
            0,
            1,
            2,
            31,
            32,
            33,
            63,
            0x7fff_ffff,
            0x8000_0000,
            u32::MAX,
            1.5f32.to_bits(),
            (-0.0f32).to_bits(),
            f32::INFINITY.to_bits(),
            f32::NAN.to_bits(),
            0x0000_0001,
        ];
        let mut a = [0u32; 64];
        for ((k, x), turn) in a.iter_mut().enumerate().zip(0u32..) {
            *x = values[k % values.len()].rotate_left(turn / 15);
        }
        for op in ops {
            for &b in &values {
                for n in [1, 31, 32, 64] {
                    let mut out = [0u32; 64];
                    binary_rows_by(op, &a, b, &mut out, n);
                    for lane in 0..n {
                        assert_eq!(
                            out[lane],
                            binary(op, a[lane], b).unwrap_or(0),
                            "{op:?} {:#x} {b:#x}",
                            a[lane]
                        );
                    }
                    assert!(out[n..].iter().all(|&x| x == 0), "{op:?}: lanes past {n} written");
                }
            }
        }
    }

    /// The operand classes of `calibration/measured/ubench20.cu` and the exponent scans of `ubench21.cu`, each with
    /// the path an H100 took (slow: 180 cycles or more, fast: 46 to 63).
    #[test]
    fn slow_paths_are_taken_where_the_gpu_took_them() {
        let f = |x: f32| x.to_bits();
        let p = |k: i32| f(2f32.powi(k));
        let fast = [
            (1.5, 1.5),
            (-3.0, 1.5),
            (1e-30, 1.5),
            (1.5, 1e-30),
            (2f32.powi(127), -3.0),
            (3e38, -3.0),
            (1.5, 2f32.powi(120)),
            (1.5, 2f32.powi(-120)),
            (2f32.powi(120), 2f32.powi(120)),
        ];
        for (a, b) in fast {
            assert!(!slow_path::f32_div(f(a), f(b)), "{a} / {b}");
        }
        let slow = [
            (0.0, 1.5),
            (1.5, 0.0),
            (1e-40, 1.5),
            (1.5, 1e-40),
            (f32::INFINITY, 1.5),
            (f32::NAN, 1.5),
            (1.5, f32::NAN),
            (2f32.powi(127), 1.5),
            (3e38, 1.5),
            (1.5, 2f32.powi(127)),
            (1.5, 2f32.powi(-126)),
            (2f32.powi(100), 2f32.powi(-100)),
            (2f32.powi(-100), 2f32.powi(100)),
        ];
        for (a, b) in slow {
            assert!(slow_path::f32_div(f(a), f(b)), "{a} / {b}");
        }
        // The scans' lines: a from 2^-102 (b = 1); b in 2^-125..=2^124 (a = 1); a / b up to 2^126 (a = 2^20) and
        // from 2^-124 (a = 2^-20).
        for k in -130..=127 {
            assert_eq!(
                slow_path::f32_div(p(k), f(1.0)),
                !(-102..=126).contains(&k),
                "2^{k} / 1"
            );
            assert_eq!(
                slow_path::f32_div(f(1.0), p(k)),
                !(-125..=124).contains(&k),
                "1 / 2^{k}"
            );
        }
        for k in -110..=-85 {
            assert_eq!(slow_path::f32_div(p(20), p(k)), k < -106, "2^20 / 2^{k}");
        }
        for k in 85..=115 {
            assert_eq!(slow_path::f32_div(p(-20), p(k)), k > 104, "2^-20 / 2^{k}");
        }
        for (a, slow) in [
            (1.5, false),
            (-3.0, true),
            (0.0, true),
            (1e-40, true),
            (f32::INFINITY, true),
        ] {
            assert_eq!(slow_path::f32_sqrt(f(a)), slow, "sqrt {a}");
        }
        for (k, slow) in [(-126, true), (-120, true), (-101, false), (-100, false), (127, false)] {
            assert_eq!(slow_path::f32_sqrt(p(k)), slow, "sqrt 2^{k}");
        }
        let d = |x: f64| x.to_bits();
        let q = |k: i32| d(2f64.powi(k));
        for (a, b) in [
            (1.5, 1.5),
            (-3.0, 1.5),
            (1.5, 2f64.powi(1016)),
            (2f64.powi(-969), 1.5),
            (2f64.powi(1016), 1.5),
        ] {
            assert!(!slow_path::f64_div(d(a), d(b)), "{a} / {b}");
        }
        let slow64 = [
            (0.0, 1.5),
            (1.5, 0.0),
            (1e-310, 1.5),
            (2f64.powi(-1000), 1.5),
            (1.5, 2f64.powi(1017)),
            (2f64.powi(1023), 1.5),
            (2f64.powi(1000), 2f64.powi(-1000)),
            (2f64.powi(-969), 2f64.powi(1016)),
            (f64::NAN, 1.5),
            (f64::INFINITY, 1.5),
        ];
        for (a, b) in slow64 {
            assert!(slow_path::f64_div(d(a), d(b)), "{a} / {b}");
        }
        for (k, slow) in [(-1022, true), (-1000, true), (-969, false), (0, false), (1023, false)] {
            assert_eq!(slow_path::f64_sqrt(q(k)), slow, "sqrt 2^{k}");
        }
        for (a, slow) in [
            (-3.0, true),
            (0.0, true),
            (1e-310, true),
            (f64::INFINITY, true),
            (f64::NAN, true),
        ] {
            assert_eq!(slow_path::f64_sqrt(d(a)), slow, "sqrt {a}");
        }
    }

    #[test]
    fn min_max_f32_follow_ptx_for_nan_and_signed_zero() {
        let nan_a = 0x7fc0_0001;
        let nan_b = 0xffc0_0002;
        let one = 1.0f32.to_bits();
        assert_eq!(binary(Bin::MinF, nan_a, one), Some(one));
        assert_eq!(binary(Bin::MaxF, one, nan_b), Some(one));
        assert_eq!(binary(Bin::MinF, nan_a, nan_b), Some(0x7fff_ffff));
        assert_eq!(binary(Bin::MaxF, nan_a, nan_b), Some(0x7fff_ffff));
        assert_eq!(
            binary(Bin::MinF, 0.0f32.to_bits(), (-0.0f32).to_bits()),
            Some((-0.0f32).to_bits())
        );
        assert_eq!(
            binary(Bin::MaxF, (-0.0f32).to_bits(), 0.0f32.to_bits()),
            Some(0.0f32.to_bits())
        );
    }

    #[test]
    fn atomic_f32_add_flushes_subnormals_to_signed_zero_in_global_memory() {
        use crate::kernel::Atom;
        let tiny = 0x0000_000f; // a subnormal
        let neg_tiny = 0x8000_0002;
        let one = 1.0f32.to_bits();
        // Inputs flushed: 0 + tiny is +0, tiny + tiny is +0 (not 0x1e), one + tiny is one.
        assert_eq!(atomic(Atom::AddF, false, 0, tiny, 0), 0);
        assert_eq!(atomic(Atom::AddF, false, tiny, tiny, 0), 0);
        assert_eq!(atomic(Atom::AddF, false, one, tiny, 0), one);
        assert_eq!(atomic(Atom::AddF, false, neg_tiny, neg_tiny, 0), 0x8000_0000);
        // A result below the normal range is flushed too: 2^-126 - 1.5 × 2^-126 = -2^-127, subnormal, is -0.
        assert_eq!(atomic(Atom::AddF, false, 0x0080_0000, 0x80c0_0000, 0), 0x8000_0000);
        // Without subnormals it is plain addition (min/max are untouched).
        assert_eq!(atomic(Atom::AddF, false, one, one, 0), 2.0f32.to_bits());
        assert_eq!(atomic(Atom::MinF, false, tiny, 0, 0), 0);
        assert_eq!(atomic(Atom::MaxF, false, tiny, 0, 0), tiny);
        // In shared memory subnormals are kept.
        assert_eq!(atomic(Atom::AddF, true, tiny, tiny, 0), 0x1e);
        assert_eq!(atomic(Atom::AddF, true, 0x0080_0000, 0x80c0_0000, 0), 0x8040_0000);
    }

    #[test]
    fn f32_nan_results_are_canonical_as_on_the_gpu() {
        // Values measured on an H200 (sm_90): payload and sign of NaN operands are not propagated.
        let qnan = 0x7fc0_0001;
        let neg_nan = 0xff80_0001;
        let one = 1.0f32.to_bits();
        let inf = f32::INFINITY.to_bits();
        assert_eq!(binary(Bin::AddF, qnan, one), Some(0x7fff_ffff));
        assert_eq!(binary(Bin::SubF, inf, inf), Some(0x7fff_ffff));
        assert_eq!(binary(Bin::MulF, one, neg_nan), Some(0x7fff_ffff));
        assert_eq!(binary(Bin::DivF, 0, 0), Some(0x7fff_ffff));
        // neg/abs work on the sign bit (their NaN result is unspecified in PTX).
        assert_eq!(unary(Un::NegF, neg_nan), 0x7f80_0001);
        assert_eq!(unary(Un::AbsF, neg_nan), 0x7f80_0001);
        assert_eq!(unary(Un::NegF, 0), 0x8000_0000);
        assert_eq!(unary(Un::AbsF, 0x8000_0001), 1);
        assert_eq!(ternary(Tern::FmaF, inf, 0, one), 0x7fff_ffff);
        assert_eq!(convert(Conv::F2F(Rounding::Down), qnan), 0x7fff_ffff);
        assert_eq!(convert(Conv::F2S(Rounding::Nearest), qnan), 0);
        assert_eq!(convert(Conv::F2U(Rounding::Zero), inf), 0xffff_ffff);
        // Subnormals are kept: 1.4e-45 * 0.5 rounds to even (0), 1.4e-45 / 0.5 is 2.8e-45.
        assert_eq!(binary(Bin::MulF, 1, 0.5f32.to_bits()), Some(0));
        assert_eq!(binary(Bin::DivF, 1, 0.5f32.to_bits()), Some(2));
    }

    #[test]
    fn integer_division_by_zero_is_reported_and_overflow_wraps() {
        assert_eq!(binary(Bin::DivU, 7, 0), None);
        assert_eq!(binary(Bin::RemS, 7, 0), None);
        assert_eq!(
            binary(Bin::DivS, i32::MIN.cast_unsigned(), (-1i32).cast_unsigned()),
            Some(i32::MIN.cast_unsigned())
        );
        assert_eq!(binary(Bin::Shl, 1, 40), Some(0));
        assert_eq!(binary(Bin::ShrS, 0x8000_0000, 40), Some(0xffff_ffff));
    }

    #[test]
    fn compare_rows_gives_each_lane_its_compare_and_nothing_past_the_warp() {
        // Values that order differently as signed, unsigned and f32, NaNs and both zeros among them.
        let pool = [
            0,
            1,
            0x8000_0000,
            0x7fff_ffff,
            0xffff_ffff,
            1.5f32.to_bits(),
            (-2.0f32).to_bits(),
            0x7fc0_0000,
            0xff80_0001,
            f32::INFINITY.to_bits(),
            3,
        ];
        let mut a = [0u32; 64];
        let mut b = [0u32; 64];
        for l in 0..64 {
            a[l] = pool[l % pool.len()];
            b[l] = pool[(l * 7 + l / 11) % pool.len()];
        }
        for class in [CmpClass::Signed, CmpClass::Unsigned, CmpClass::Float] {
            for cmp in [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge] {
                for n in [1, 4, 8, 9, 16, 31, 32, 33, 63, 64] {
                    let want = (0..n).fold(0u64, |m, l| m | u64::from(compare(cmp, class, a[l], b[l])) << l);
                    assert_eq!(compare_rows(cmp, class, &a, &b, n), want, "{cmp:?} {class:?} n={n}");
                }
            }
        }
    }
}

/// The executors of the arithmetic and logic class: each reads its operands from the warp's register file as
/// rows, computes with the row functions above, and writes the `exec` lanes of its destination.
pub(crate) mod execute {
    use super::{
        Bin, Cmp, CmpClass, Conv, Rows, Tern, Un, binary_rows, binary_rows_by, compare_rows, convert_rows,
        divides_by_zero, ternary_rows, unary_rows,
    };
    use crate::kernel::{Src, Wide};
    use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
    use warpsim_isa::Ty;

    /// `mov d, a`.
    #[inline(always)]
    pub(crate) fn mov(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, d: u16, a: Src, rows: &mut Rows) {
        let x = &mut rows[0];
        rf.fetch(a, ctx, x);
        rf.write_row(d, ctx.w as usize, exec, x);
    }

    /// A unary arithmetic instruction.
    #[inline(always)]
    pub(crate) fn unary(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, f: Un, d: u16, a: Src, rows: &mut Rows) {
        let w = ctx.w as usize;
        let [bx, r, ..] = rows;
        let x = rf.operand(a, ctx, bx);
        unary_rows(f, x, r, w);
        rf.write_row(d, w, exec, r);
    }

    /// The `exec` lanes whose `div.rn.f32 a / b` the GPU computes on its slow path ([`super::slow_path`]); read
    /// before the division writes its destination.
    #[cold]
    #[inline(never)]
    pub(crate) fn slow_f32_div(rf: &RegisterFile, ctx: &LaneCtx, exec: u64, a: Src, b: Src) -> u64 {
        let (mut x, mut y) = ([0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        rf.fetch(b, ctx, &mut y);
        lanes(exec, ctx.w as usize, |l| super::slow_path::f32_div(x[l], y[l]))
    }

    /// The `exec` lanes whose f64 division, f32/f64 square root or directed-rounding division, reciprocal or square
    /// root (`f`) the GPU computes on its slow path ([`super::slow_path`]); 0 for any other operation. Read before
    /// it writes its destination.
    #[cold]
    #[inline(never)]
    pub(crate) fn slow_wide(rf: &RegisterFile, ctx: &LaneCtx, exec: u64, f: Wide, a: Src, b: Src) -> u64 {
        let widths = f.shape().1;
        let (mut x, mut y) = ([0u64; 64], [0u64; 64]);
        rf.fetch64(a, widths[0], ctx, &mut x);
        match f {
            Wide::DivF => {
                rf.fetch64(b, widths[1], ctx, &mut y);
                lanes(exec, ctx.w as usize, |l| super::slow_path::f64_div(x[l], y[l]))
            }
            Wide::SqrtF => lanes(exec, ctx.w as usize, |l| super::slow_path::f64_sqrt(x[l])),
            // `div.rn.ftz.f32`: ptxas's code checks the operands as `div.rn.f32`'s (`FCHK` of the unflushed ones).
            #[allow(clippy::cast_possible_truncation, reason = "an f32 operand is the low 32 bits")]
            Wide::Rounded {
                op: warpsim_isa::RoundedOp::Div,
                rounding: warpsim_isa::Rounding::NearestFloat,
                wide: false,
                ..
            } => {
                rf.fetch64(b, widths[1], ctx, &mut y);
                lanes(exec, ctx.w as usize, |l| {
                    super::slow_path::f32_div(x[l] as u32, y[l] as u32)
                })
            }
            #[allow(clippy::cast_possible_truncation, reason = "an f32 operand is the low 32 bits")]
            Wide::Sqrt32
            | Wide::Rounded {
                op: warpsim_isa::RoundedOp::Sqrt,
                wide: false,
                ..
            } => lanes(exec, ctx.w as usize, |l| super::slow_path::f32_sqrt(x[l] as u32)),
            // An f32 reciprocal (`rcp.rn` or directed) leaves its fast path where a division of 1 does; the other
            // directed forms call a subroutine whatever the operands (`Wide::calls_subroutine`).
            #[allow(clippy::cast_possible_truncation, reason = "an f32 operand is the low 32 bits")]
            Wide::Rounded {
                op: warpsim_isa::RoundedOp::Rcp,
                wide: false,
                ..
            } => lanes(exec, ctx.w as usize, |l| {
                super::slow_path::f32_div(1.0f32.to_bits(), x[l] as u32)
            }),
            // `rcp.rn.f64` where a division of 1 leaves its fast path.
            Wide::Rounded {
                op: warpsim_isa::RoundedOp::Rcp,
                rounding: warpsim_isa::Rounding::NearestFloat,
                wide: true,
                ..
            } => lanes(exec, ctx.w as usize, |l| {
                super::slow_path::f64_div(1.0f64.to_bits(), x[l])
            }),
            _ => 0,
        }
    }

    /// The lanes of `exec` for which `test` holds: every lane of the warp tested (a pure test of its operands,
    /// without a branch per lane), the others' results dropped.
    fn lanes(exec: u64, w: usize, test: impl Fn(usize) -> bool) -> u64 {
        // Thirty-two lanes at a time into a mask, a fixed count the compiler can make vector compares of (as
        // `compare_rows`).
        let mut out = 0u64;
        for c in 0..w.div_ceil(32) {
            let mut m = 0u32;
            for j in 0..32 {
                m |= u32::from(test(32 * c + j)) << j;
            }
            out |= u64::from(m) << (32 * c);
        }
        out & exec
    }

    /// A binary arithmetic or logic instruction; `Err` with the first lane that divides by zero, before anything
    /// is written.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn binary(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        f: Bin,
        d: u16,
        a: Src,
        b: Src,
        rows: &mut Rows,
    ) -> Result<(), u32> {
        let w = ctx.w as usize;
        let [bx, by, r, _] = rows;
        let x = rf.operand(a, ctx, bx);
        let y = rf.operand(b, ctx, by);
        if let Some(lane) = divides_by_zero(f, y, exec) {
            return Err(lane);
        }
        match b {
            Src::Imm(v) => binary_rows_by(f, x, v, r, w),
            _ => binary_rows(f, x, y, r, w),
        }
        rf.write_row(d, w, exec, r);
        Ok(())
    }

    /// A ternary instruction (`mad`, `fma`, …).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn ternary(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        f: Tern,
        d: u16,
        (a, b, c): (Src, Src, Src),
        rows: &mut Rows,
    ) {
        let w = ctx.w as usize;
        let [bx, by, bz, r] = rows;
        let x = rf.operand(a, ctx, bx);
        let y = rf.operand(b, ctx, by);
        let z = rf.operand(c, ctx, bz);
        ternary_rows(f, x, y, z, r, w);
        rf.write_row(d, w, exec, r);
    }

    /// `setp.CMP.TYPE p, a, b`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn setp(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        cmp: Cmp,
        class: CmpClass,
        p: u16,
        (a, b): (Src, Src),
        rows: &mut Rows,
    ) {
        let [bx, by, ..] = rows;
        let x = rf.operand(a, ctx, bx);
        let y = rf.operand(b, ctx, by);
        let bits = compare_rows(cmp, class, x, y, ctx.w as usize) & exec;
        rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | bits;
    }

    /// Predicate logic: `not`, `and`, `or`, `xor` of (possibly negated) predicates.
    #[inline(always)]
    pub(crate) fn pred_logic(
        rf: &mut RegisterFile,
        exec: u64,
        op: warpsim_isa::PredLogicOp,
        d: u16,
        a: (u16, bool),
        b: Option<(u16, bool)>,
    ) {
        use warpsim_isa::PredLogicOp;
        let get = |(p, neg): (u16, bool)| {
            let v = rf.preds[p as usize];
            if neg { !v } else { v }
        };
        let x = get(a);
        let v = match (op, b) {
            (PredLogicOp::Not, _) => !x,
            (PredLogicOp::And, Some(b)) => x & get(b),
            (PredLogicOp::Or, Some(b)) => x | get(b),
            (PredLogicOp::Xor, Some(b)) => x ^ get(b),
            (_, None) => x,
        };
        rf.preds[d as usize] = (rf.preds[d as usize] & !exec) | (v & exec);
    }

    /// `selp d, a, b, p`: `a` where `p` holds, else `b`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn selp(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        d: u16,
        a: Src,
        b: Src,
        p: u16,
        rows: &mut Rows,
    ) {
        let w = ctx.w as usize;
        let [x, by, ..] = rows;
        rf.fetch(a, ctx, x);
        let y = rf.operand(b, ctx, by);
        let pv = rf.preds[p as usize];
        for (lane, (t, &e)) in x[..w].iter_mut().zip(&y[..w]).enumerate() {
            if pv >> lane & 1 == 0 {
                *t = e;
            }
        }
        rf.write_row(d, w, exec, x);
    }

    /// The rows of a 64-bit operation: its operands `a`, `b`, `c` and its result (the SM's scratch, reused by
    /// every instruction: each reads only lanes it has just written).
    pub(crate) type WideRows = [[u64; 64]; 4];

    /// A 64-bit or mixed-width operation: each executing lane's operands read at their widths, the result
    /// written at its width; `Err` with the first lane that divides by zero, before anything is written.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(crate) fn wide(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        f: Wide,
        d: u16,
        (a, b, c): (Src, Src, Src),
        rows: &mut WideRows,
    ) -> Result<(), u32> {
        let (dw, widths) = f.shape();
        let w = ctx.w as usize;
        let [x, y, z, out] = rows;
        let arity = f.arity();
        rf.fetch64(a, widths[0], ctx, x);
        // (An operand the operation does not read is left as it was: the arms below that read it are those of
        // operations that have it.)
        if arity > 1 {
            rf.fetch64(b, widths[1], ctx, y);
        }
        if arity > 2 {
            rf.fetch64(c, widths[2], ctx, z);
        }
        // The address arithmetic of compiled code, a whole row at a time (loops the compiler vectorises); the rest
        // lane by lane.
        let (x, y, z) = (&x[..w], &y[..w], &z[..w]);
        let o = &mut out[..w];
        let lo = super::low;
        let s32 = |v: u64| i64::from(lo(v).cast_signed());
        match f {
            Wide::Mov => o.copy_from_slice(x),
            Wide::Add => rows2(x, y, o, u64::wrapping_add),
            Wide::Sub => rows2(x, y, o, u64::wrapping_sub),
            Wide::Mul => rows2(x, y, o, u64::wrapping_mul),
            Wide::And => rows2(x, y, o, |a, b| a & b),
            Wide::Or => rows2(x, y, o, |a, b| a | b),
            Wide::Xor => rows2(x, y, o, |a, b| a ^ b),
            // (As `alu::wide`: the count is the low 32 bits of `b`; from 64 on, 0 or the sign.)
            Wide::Shl => rows2(x, y, o, |a, b| a.checked_shl(lo(b)).unwrap_or(0)),
            Wide::ShrU => rows2(x, y, o, |a, b| a.checked_shr(lo(b)).unwrap_or(0)),
            Wide::ShrS => rows2(x, y, o, |a, b| (a.cast_signed() >> lo(b).min(63)).cast_unsigned()),
            Wide::MulWideU => rows2(x, y, o, |a, b| u64::from(lo(a)) * u64::from(lo(b))),
            Wide::MulWideS => rows2(x, y, o, |a, b| (s32(a) * s32(b)).cast_unsigned()),
            Wide::MadWideU => rows3(x, y, z, o, |a, b, c| {
                (u64::from(lo(a)) * u64::from(lo(b))).wrapping_add(c)
            }),
            Wide::MadWideS => rows3(x, y, z, o, |a, b, c| (s32(a) * s32(b)).cast_unsigned().wrapping_add(c)),
            // Integer to integer (`cvt.s64.s32`, `cvt.u32.u64`, …): extended by the source's signedness, cut to the
            // destination's width, as `alu::convert_any`.
            Wide::Cvt { to, from, .. } if to.is_int() && from.is_int() => {
                let cut = if to.wide() { u64::MAX } else { 0xffff_ffff };
                match from {
                    Ty::S32 => o
                        .iter_mut()
                        .zip(x)
                        .for_each(|(o, &a)| *o = s32(a).cast_unsigned() & cut),
                    Ty::U32 | Ty::B32 => o.iter_mut().zip(x).for_each(|(o, &a)| *o = a & 0xffff_ffff),
                    _ => o.iter_mut().zip(x).for_each(|(o, &a)| *o = a & cut),
                }
            }
            _ => {
                let mut m = exec;
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    let l = lane as usize;
                    o[l] = super::wide(f, x[l], y[l], z[l]).ok_or(lane)?;
                }
            }
        }
        rf.write_row64(d, dw, w, exec, out);
        Ok(())
    }

    /// `o[i] = f(x[i], y[i])` over rows of one length.
    #[inline(always)]
    fn rows2(x: &[u64], y: &[u64], o: &mut [u64], f: impl Fn(u64, u64) -> u64) {
        for ((o, &a), &b) in o.iter_mut().zip(x).zip(y) {
            *o = f(a, b);
        }
    }

    /// `o[i] = f(x[i], y[i], z[i])` over rows of one length.
    #[inline(always)]
    fn rows3(x: &[u64], y: &[u64], z: &[u64], o: &mut [u64], f: impl Fn(u64, u64, u64) -> u64) {
        for (((o, &a), &b), &c) in o.iter_mut().zip(x).zip(y).zip(z) {
            *o = f(a, b, c);
        }
    }

    /// `bfi` of 32 or 64 bits (out of line: a cold instruction).
    #[inline(never)]
    #[cold]
    pub(crate) fn bfi(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        wide: bool,
        d: u16,
        (a, b, pos, len): (Src, Src, Src, Src),
    ) {
        let mut out = [0u64; 64];
        for_lanes(exec, |lane| {
            let (x, y) = (rf.read_at(a, wide, lane, ctx), rf.read_at(b, wide, lane, ctx));
            let (p, n) = (rf.read(pos, lane, ctx), rf.read(len, lane, ctx));
            out[lane as usize] = super::bit_insert(x, y, p, n, wide);
        });
        for_lanes(exec, |lane| rf.write_at(d, wide, lane, out[lane as usize]));
    }

    /// `setp` on 64-bit operands.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(crate) fn setp64(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        cmp: Cmp,
        class: CmpClass,
        p: u16,
        a: Src,
        b: Src,
    ) {
        // (Whole rows: a lane outside `exec` is compared too, and its bit dropped.)
        let (mut x, mut y) = ([0u64; 64], [0u64; 64]);
        rf.fetch64(a, true, ctx, &mut x);
        rf.fetch64(b, true, ctx, &mut y);
        let mut bits = 0u64;
        for (lane, (&x, &y)) in x[..ctx.w as usize].iter().zip(&y[..ctx.w as usize]).enumerate() {
            bits |= u64::from(super::compare64(cmp, class, x, y)) << lane;
        }
        rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | (bits & exec);
    }

    /// `selp` of 64-bit values.
    #[inline(never)]
    pub(crate) fn selp64(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, d: u16, a: Src, b: Src, p: u16) {
        let pv = rf.preds[p as usize];
        for_lanes(exec, |lane| {
            let s = if pv >> lane & 1 == 1 { a } else { b };
            let v = rf.read_at(s, true, lane, ctx);
            rf.write_at(d, true, lane, v);
        });
    }

    /// The carry chain ([`DOp::Carry`](crate::kernel::DOp::Carry)): each lane's operands read before its result and
    /// carry are written (`cin` and `cout` may be one predicate).
    #[inline(never)]
    #[allow(clippy::too_many_arguments, reason = "an instruction's fields")]
    pub(crate) fn carry(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        (f, signed, wide): (warpsim_isa::CarryOp, bool, bool),
        d: u16,
        (a, b, c): (Src, Src, Src),
        cin: Option<u16>,
        cout: Option<u16>,
    ) {
        let carried = cin.map_or(0, |p| rf.preds[p as usize]);
        let mut out = 0u64;
        for_lanes(exec, |lane| {
            let ops = [a, b, c].map(|s| rf.read_at(s, wide, lane, ctx));
            let (v, carry) = super::carry(f, signed, wide, ops, carried >> lane & 1 == 1);
            rf.write_at(d, wide, lane, v);
            out |= u64::from(carry) << lane;
        });
        if let Some(p) = cout {
            rf.preds[p as usize] = (rf.preds[p as usize] & !exec) | (out & exec);
        }
    }

    /// `mov.b64 {lo, hi}, a`.
    #[inline(never)]
    pub(crate) fn unpack(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, lo: u16, hi: u16, a: Src) {
        for_lanes(exec, |lane| {
            let v = rf.read_at(a, true, lane, ctx);
            rf.write_at(lo, false, lane, v);
            rf.write_at(hi, false, lane, v >> 32);
        });
    }

    /// `cvt`: a conversion between integer and float, or a rounding.
    #[inline(always)]
    pub(crate) fn convert(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, f: Conv, d: u16, a: Src) {
        let w = ctx.w as usize;
        let (mut x, mut r) = ([0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        convert_rows(f, &x, &mut r, w);
        rf.write_row(d, w, exec, &r);
    }
}
