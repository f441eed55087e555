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

use crate::kernel::{Bin, CmpClass, Conv, Tern, Un};
use warpsim_isa::{Cmp, Rounding};

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
    use std::cmp::Ordering::{Equal, Greater, Less};
    let ord = match class {
        CmpClass::Signed => Some(a.cast_signed().cmp(&b.cast_signed())),
        CmpClass::Unsigned => Some(a.cmp(&b)),
        // Ordered comparisons: anything with NaN is false, except `ne` which PTX also makes false (ordered).
        CmpClass::Float => f(a).partial_cmp(&f(b)),
    };
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
        Rounding::NearestFloat => x,
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
    }
}

/// Lanes of a warp as one row of values (lane `l` at index `l`; only the first `W` are meaningful).
pub type Row = [u32; 64];

/// `binary` on the first `n` lanes of two rows at once. The operation is chosen once per row, not per lane, so
/// each arm is a plain loop the compiler can vectorise. Integer division by zero gives 0 here: the caller checks
/// the executing lanes first ([`divides_by_zero`]).
#[inline]
pub fn binary_rows(op: Bin, a: &Row, b: &Row, out: &mut Row, n: usize) {
    macro_rules! each {
        ($($v:ident),*) => {
            match op {
                $(Bin::$v => {
                    for ((o, &x), &y) in out[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
                        *o = binary(Bin::$v, x, y).unwrap_or(0);
                    }
                })*
            }
        };
    }
    each!(
        AddI, SubI, MulI, DivS, DivU, RemS, RemU, MinS, MinU, MaxS, MaxU, AddF, SubF, MulF, DivF, MinF, MaxF, And, Or,
        Xor, Shl, ShrU, ShrS
    );
}

/// The first lane of `exec` whose divisor is 0, for an integer division or remainder.
#[inline]
pub fn divides_by_zero(op: Bin, b: &Row, exec: u64) -> Option<u32> {
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
pub fn unary_rows(op: Un, a: &Row, out: &mut Row, n: usize) {
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
    each!(NegI, NegF, AbsI, AbsF, Not);
}

/// `ternary` on the first `n` lanes of three rows.
#[inline]
pub fn ternary_rows(op: Tern, a: &Row, b: &Row, c: &Row, out: &mut Row, n: usize) {
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
pub fn compare_rows(cmp: Cmp, class: CmpClass, a: &Row, b: &Row, n: usize) -> u64 {
    #[inline(always)]
    fn bits(a: &Row, b: &Row, n: usize, test: impl Fn(u32, u32) -> bool) -> u64 {
        let mut out = 0u64;
        for (i, (&x, &y)) in a[..n].iter().zip(&b[..n]).enumerate() {
            out |= u64::from(test(x, y)) << i;
        }
        out
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
    use super::*;
    use crate::kernel::Bin;

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
}

/// The executors of the arithmetic and logic class: each reads its operands from the warp's register file as
/// rows, computes with the row functions above, and writes the `exec` lanes of its destination.
pub(crate) mod execute {
    use super::{
        Bin, Cmp, CmpClass, Conv, Tern, Un, binary_rows, compare_rows, convert_rows, divides_by_zero, ternary_rows,
        unary_rows,
    };
    use crate::kernel::Src;
    use crate::register_file::{LaneCtx, RegisterFile};

    /// `mov d, a`.
    #[inline(always)]
    pub(crate) fn mov(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, d: u16, a: Src) {
        let mut x = [0u32; 64];
        rf.fetch(a, ctx, &mut x);
        rf.write_row(d, ctx.w as usize, exec, &x);
    }

    /// A unary arithmetic instruction.
    #[inline(always)]
    pub(crate) fn unary(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, f: Un, d: u16, a: Src) {
        let w = ctx.w as usize;
        let (mut x, mut r) = ([0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        unary_rows(f, &x, &mut r, w);
        rf.write_row(d, w, exec, &r);
    }

    /// A binary arithmetic or logic instruction; `Err` with the first lane that divides by zero, before anything
    /// is written.
    #[inline(always)]
    pub(crate) fn binary(
        rf: &mut RegisterFile,
        ctx: &LaneCtx,
        exec: u64,
        f: Bin,
        d: u16,
        a: Src,
        b: Src,
    ) -> Result<(), u32> {
        let w = ctx.w as usize;
        let (mut x, mut y, mut r) = ([0u32; 64], [0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        rf.fetch(b, ctx, &mut y);
        if let Some(lane) = divides_by_zero(f, &y, exec) {
            return Err(lane);
        }
        binary_rows(f, &x, &y, &mut r, w);
        rf.write_row(d, w, exec, &r);
        Ok(())
    }

    /// A ternary instruction (`mad`, `fma`, …).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn ternary(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, f: Tern, d: u16, a: Src, b: Src, c: Src) {
        let w = ctx.w as usize;
        let (mut x, mut y, mut z, mut r) = ([0u32; 64], [0u32; 64], [0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        rf.fetch(b, ctx, &mut y);
        rf.fetch(c, ctx, &mut z);
        ternary_rows(f, &x, &y, &z, &mut r, w);
        rf.write_row(d, w, exec, &r);
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
        a: Src,
        b: Src,
    ) {
        let (mut x, mut y) = ([0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        rf.fetch(b, ctx, &mut y);
        let bits = compare_rows(cmp, class, &x, &y, ctx.w as usize) & exec;
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
    pub(crate) fn selp(rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, d: u16, a: Src, b: Src, p: u16) {
        let w = ctx.w as usize;
        let (mut x, mut y) = ([0u32; 64], [0u32; 64]);
        rf.fetch(a, ctx, &mut x);
        rf.fetch(b, ctx, &mut y);
        let pv = rf.preds[p as usize];
        for (lane, (t, &e)) in x[..w].iter_mut().zip(&y[..w]).enumerate() {
            if pv >> lane & 1 == 0 {
                *t = e;
            }
        }
        rf.write_row(d, w, exec, &x);
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
