//! The special-function unit's approximations (PTX `rcp.approx`, `rsqrt.approx`, `sqrt.approx`, `ex2.approx`,
//! `lg2.approx`, `sin.approx`, `cos.approx`, `div.approx`, `div.full`), bit for bit as an H200 computes them.
//!
//! Each PTX instruction is one `MUFU` instruction, with a few instructions ptxas puts around it for the forms
//! without `.ftz` (`calibration/measured/mufu/sass.txt`). The `MUFU`s' results are tables measured on the GPU
//! (`calibration/measured/mufu/`, docs/ptx.md "The special-function unit"), each checked there against every one
//! of the 2^32 inputs (f32) or high words (f64) with the rules below, without a mismatch:
//!
//! - `MUFU.RCP` is a function of the mantissa (a table of 2^23 on [1, 2)), scaled by the exponent;
//! - `MUFU.RSQ` and `MUFU.SQRT` of the mantissa and the exponent's parity (2^24 on [1, 4));
//! - `MUFU.EX2` truncates |x| to 24 fraction bits, and is a table of 2^(k/2^24) (x ≥ 0) or 2^(-k/2^24) (x < 0)
//!   scaled by 2^(±floor(|x|));
//! - `MUFU.LG2` is the exponent plus a 36-bit fixed-point logarithm of the mantissa, rounded towards zero: tables of
//!   x in [1, 2), [0.5, 1) and [0.25, 0.5) give that logarithm and the bit below the table's precision;
//! - `MUFU.RCP64H` and `MUFU.RSQ64H` read an f64's high word (a table of 2^20 on [1, 2), or 2^21 on [1, 4)) and
//!   write the result's high word; the low word is zero;
//! - `MUFU.SIN` and `MUFU.COS`, after ptxas's multiply by 1/(2π) rounded towards zero (y = x ×rz 1/(2π)), are a
//!   function of the fraction of |y| truncated to 25 bits (a table of 2^25 for y ≥ 0), odd and even in y's sign bit.
//!
//! Subnormal inputs and results are flushed to zero. A NaN result is `0x7fff_ffff` (f32) or `0x7fff_ffff_0000_0000`.
//!
//! The tables are committed zstd-compressed (`simulator/data/sfu/`, 4.1 MB) and decoded on first use; in memory
//! each keeps an anchor every 64 entries and each entry's residual from the line between anchors, a block's
//! residuals in the narrowest of 1, 2, 4 or 8 bytes that holds them (a byte for most).
#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "bit fields of IEEE numbers, widths checked by their masks"
)]

use std::sync::OnceLock;
use warpsim_isa::{ApproxOp, RoundedOp, Rounding};

/// One measured table, decoded.
struct Table {
    entries: usize,
    /// The entry at every multiple of [`BLOCK`], and the last entry.
    anchors: Vec<i64>,
    /// Per block, where its residuals start in `pool` (above the low two bits) and their width (1, 2, 4 or 8
    /// bytes: the low two bits, its base-2 logarithm).
    blocks: Vec<u32>,
    /// Each entry's distance from the line between its block's anchors, little-endian at its block's width.
    pool: Vec<u8>,
}

const BLOCK: usize = 64;

impl Table {
    /// A table from its committed form: the zstd-compressed little-endian i32 differences of successive entries.
    /// `value` maps an entry's 32 bits to the integer the table interpolates (the bits, or a fixed-point number).
    fn decode(packed: &[u8], entries: usize, value: fn(u32) -> i64) -> Table {
        let mut bytes = vec![0u8; entries * 4];
        let n = ruzstd::decoding::FrameDecoder::new()
            .decode_all(packed, &mut bytes)
            .expect("a committed SFU table decodes");
        assert_eq!(n, entries * 4, "a committed SFU table has its entries");
        // The entries, from their differences: every 64th (and the last) as anchors, then each entry's distance
        // from the line between its block's anchors, a block at a time in the narrowest width that holds them.
        let bytes = &bytes;
        let entries_of = || {
            let mut bits = 0u32;
            bytes.chunks_exact(4).map(move |d| {
                bits = bits.wrapping_add(u32::from_le_bytes([d[0], d[1], d[2], d[3]]));
                value(bits)
            })
        };
        let mut anchors: Vec<i64> = entries_of().step_by(BLOCK).collect();
        // (The entries are running sums: read forwards to the last.)
        anchors.push(entries_of().fold(0, |_, v| v));
        let (mut blocks, mut pool) = (Vec::with_capacity(anchors.len()), Vec::with_capacity(entries));
        let mut residuals = [0i64; BLOCK];
        let mut all = entries_of();
        for b in 0..entries.div_ceil(BLOCK) {
            let n = BLOCK.min(entries - b * BLOCK);
            for (j, r) in residuals.iter_mut().enumerate().take(n) {
                *r = all.next().expect("the table's entries") - line(&anchors, entries, b * BLOCK + j);
            }
            let width_log2 = residuals[..n]
                .iter()
                .map(|&r| match r {
                    -0x80..0x80 => 0,
                    -0x8000..0x8000 => 1,
                    -0x8000_0000..0x8000_0000 => 2,
                    _ => 3,
                })
                .max()
                .unwrap_or(0);
            blocks.push(u32::try_from(pool.len() << 2 | width_log2).expect("an SFU table's pool under 1 GiB"));
            for r in &residuals[..n] {
                pool.extend_from_slice(&r.to_le_bytes()[..1 << width_log2]);
            }
        }
        let table = Table {
            entries,
            anchors,
            blocks,
            pool,
        };
        debug_assert!(entries_of().enumerate().all(|(k, v)| table.get(k) == v));
        table
    }

    fn get(&self, k: usize) -> i64 {
        let block = self.blocks[k / BLOCK] as usize;
        let width = 1 << (block & 3);
        let at = (block >> 2) + (k % BLOCK) * width;
        let mut le = [0u8; 8];
        le[..width].copy_from_slice(&self.pool[at..at + width]);
        // Sign-extended from the residual's width.
        let shift = 64 - 8 * width as u32;
        let r = (i64::from_le_bytes(le) << shift) >> shift;
        line(&self.anchors, self.entries, k) + r
    }

    /// An entry's 32 bits (for the tables of bits).
    fn bits(&self, k: usize) -> u32 {
        self.get(k) as u32
    }
}

/// Entry `k` on the line between its block's anchors (the last block's ends at the last entry).
fn line(anchors: &[i64], entries: usize, k: usize) -> i64 {
    let (b, j) = (k / BLOCK, (k % BLOCK) as i64);
    let (a0, a1) = (anchors[b], anchors[b + 1]);
    let end = if (b + 1) * BLOCK >= entries {
        (entries - 1 - b * BLOCK) as i64
    } else {
        BLOCK as i64
    };
    a0 + ((a1 - a0) * j).div_euclid(end.max(1))
}

macro_rules! table {
    ($name:ident, $file:literal, $entries:expr) => {
        table!($name, $file, $entries, i64::from);
    };
    ($name:ident, $file:literal, $entries:expr, $value:expr) => {
        fn $name() -> &'static Table {
            static T: OnceLock<Table> = OnceLock::new();
            T.get_or_init(|| Table::decode(include_bytes!(concat!("../data/sfu/", $file)), $entries, $value))
        }
    };
}

/// An f32's bits as an integer in the order of the values (−0 below +0): a table of a function that changes sign.
fn signed_magnitude(bits: u32) -> i64 {
    if bits & SIGN32 == 0 {
        i64::from(bits)
    } else {
        -i64::from(bits & 0x7fff_ffff) - 1
    }
}

/// The inverse of [`signed_magnitude`].
fn from_signed_magnitude(v: i64) -> u32 {
    if v >= 0 { v as u32 } else { (-(v + 1)) as u32 | SIGN32 }
}

/// An f32 in [-2, 1) that is a multiple of 2^-36, as that multiple.
fn fixed36(bits: u32) -> i64 {
    (f64::from(f32::from_bits(bits)) * 68_719_476_736.0) as i64
}

table!(rcp_table, "rcp.zst", 1 << 23);
table!(rsqrt_table, "rsqrt.zst", 1 << 24);
table!(sqrt_table, "sqrt.zst", 1 << 24);
table!(ex2_pos_table, "ex2_pos.zst", 1 << 24);
table!(ex2_neg_table, "ex2_neg.zst", 1 << 24);
table!(lg2_0_table, "lg2_0.zst", 1 << 23, fixed36);
table!(lg2_m1_table, "lg2_m1.zst", 1 << 23, fixed36);
table!(lg2_m2_table, "lg2_m2.zst", 1 << 23, fixed36);
table!(sin_table, "sin.zst", 1 << 25, signed_magnitude);
table!(cos_table, "cos.zst", 1 << 25, signed_magnitude);
table!(rcp64h_table, "rcp64h.zst", 1 << 20);
table!(rsqrt64h_table, "rsqrt64h.zst", 1 << 21);

const NAN32: u32 = 0x7fff_ffff;
const INF32: u32 = 0x7f80_0000;
const SIGN32: u32 = 0x8000_0000;

/// A table entry (positive, normal, or infinity) with its exponent moved by `d`: zero below the normal range,
/// infinity above. `shift` is the mantissa's width (23 for f32, 20 for an f64's high word).
fn rescale(r: u32, d: i32, shift: u32) -> u32 {
    let emax = if shift == 23 { 0xff } else { 0x7ff };
    let e = ((r >> shift) & emax) as i32 + d;
    if e <= 0 {
        0
    } else if e >= emax as i32 {
        emax << shift
    } else {
        (r & ((1 << shift) - 1)) | ((e as u32) << shift)
    }
}

/// `MUFU.RCP`.
pub fn mufu_rcp(x: u32) -> u32 {
    let (s, e, m) = (x & SIGN32, (x >> 23) & 0xff, x & 0x7f_ffff);
    match e {
        0xff if m != 0 => NAN32,
        0xff => s,
        0 => s | INF32,
        _ => s | rescale(rcp_table().bits(m as usize), 127 - e as i32, 23),
    }
}

/// `MUFU.RSQ`.
pub fn mufu_rsqrt(x: u32) -> u32 {
    let (s, e, m) = (x & SIGN32, (x >> 23) & 0xff, x & 0x7f_ffff);
    match e {
        0xff if m != 0 => NAN32,
        0 => s | INF32,
        _ if s != 0 => NAN32,
        0xff => 0,
        _ => {
            let ex = e as i32 - 127;
            let parity = ex & 1;
            let r = rsqrt_table().bits(((parity as usize) << 23) | m as usize);
            rescale(r, -((ex - parity) >> 1), 23)
        }
    }
}

/// `MUFU.SQRT`.
pub fn mufu_sqrt(x: u32) -> u32 {
    let (s, e, m) = (x & SIGN32, (x >> 23) & 0xff, x & 0x7f_ffff);
    match e {
        0xff if m != 0 => NAN32,
        0 => s,
        _ if s != 0 => NAN32,
        0xff => INF32,
        _ => {
            let ex = e as i32 - 127;
            let parity = ex & 1;
            let r = sqrt_table().bits(((parity as usize) << 23) | m as usize);
            rescale(r, (ex - parity) >> 1, 23)
        }
    }
}

/// `MUFU.EX2`.
pub fn mufu_ex2(x: u32) -> u32 {
    let (s, e, m) = (x & SIGN32, (x >> 23) & 0xff, x & 0x7f_ffff);
    match e {
        0xff if m != 0 => NAN32,
        0xff if s != 0 => 0,
        0xff => INF32,
        0 => 0x3f80_0000,
        // |x| >= 128.
        134.. if s != 0 => 0,
        134.. => INF32,
        _ => {
            // |x| * 2^24 truncated: the 24-bit significand times 2^(e - 126).
            let significand = u64::from(0x80_0000 | m);
            let q = if e >= 126 {
                significand << (e - 126)
            } else {
                significand.checked_shr(126 - e).unwrap_or(0)
            };
            let (i, k) = ((q >> 24) as i32, (q & 0xff_ffff) as usize);
            if s == 0 {
                rescale(ex2_pos_table().bits(k), i, 23)
            } else {
                rescale(ex2_neg_table().bits(k), -i, 23)
            }
        }
    }
}

/// A fixed-point number in units of 2^-40 as an f32, rounded towards zero.
fn fixed40_rz(v: i64) -> u32 {
    if v == 0 {
        return 0;
    }
    let s = if v < 0 { SIGN32 } else { 0 };
    let a = v.unsigned_abs();
    let top = 63 - a.leading_zeros() as i32;
    let m = if top > 23 { a >> (top - 23) } else { a << (23 - top) };
    s | (((top - 40 + 127) as u32) << 23) | (m as u32 & 0x7f_ffff)
}

/// `MUFU.LG2`.
pub fn mufu_lg2(x: u32) -> u32 {
    let (s, e, m) = (x & SIGN32, (x >> 23) & 0xff, x & 0x7f_ffff);
    match e {
        0xff if m != 0 => NAN32,
        0 => 0xff80_0000,
        _ if s != 0 => NAN32,
        0xff => INF32,
        _ => {
            let ex = i64::from(e) - 127;
            let k = m as usize;
            match ex {
                0 => fixed40_rz(lg2_0_table().get(k) << 4),
                -1 => fixed40_rz(lg2_m1_table().get(k) << 4),
                -2 => fixed40_rz(lg2_m2_table().get(k) << 4),
                _ => {
                    // The logarithm lies above the table's entry where x in [0.25, 0.5) shows it.
                    let v = lg2_0_table().get(k) << 4;
                    let above = fixed40_rz((-2 << 40) + v) != fixed40_rz(lg2_m2_table().get(k) << 4);
                    fixed40_rz((ex << 40) + v + i64::from(above))
                }
            }
        }
    }
}

/// `FMUL.RZ`: the product rounded towards zero (subnormals kept; a NaN is the canonical one).
fn fmul_rz(a: u32, b: u32) -> u32 {
    let exact = f64::from(f32::from_bits(a)) * f64::from(f32::from_bits(b));
    if exact.is_nan() {
        return NAN32;
    }
    let nearest = exact as f32;
    if f64::from(nearest).abs() > exact.abs() {
        // One step towards zero (from infinity, to the largest finite value).
        nearest.to_bits() - 1
    } else {
        nearest.to_bits()
    }
}

/// `sin.approx` and `cos.approx` (`FMUL.RZ` by 1/(2π), then `MUFU.SIN` or `MUFU.COS`): a table of the result by
/// the fraction of |y| truncated to 25 bits, for y ≥ 0 (the sine odd, the cosine even in y's sign bit).
fn sin_cos(x: u32, cos: bool) -> u32 {
    if (x >> 23) & 0xff == 0xff {
        return NAN32;
    }
    let y = fmul_rz(x, 0x3e22_f983);
    let a = f64::from(f32::from_bits(y)).abs();
    let k = ((a - a.floor()) * 33_554_432.0) as usize;
    if cos {
        from_signed_magnitude(cos_table().get(k))
    } else {
        from_signed_magnitude(sin_table().get(k)) ^ (y & SIGN32)
    }
}

/// `MUFU.RCP64H`: the high word of an f64's approximate reciprocal, from its high word.
pub fn mufu_rcp64h(h: u32) -> u32 {
    let (s, e, m) = (h & SIGN32, (h >> 20) & 0x7ff, h & 0xf_ffff);
    match e {
        0x7ff if m != 0 => NAN32,
        0x7ff => s,
        0 => s | 0x7ff0_0000,
        _ => s | rescale(rcp64h_table().bits(m as usize), 1023 - e as i32, 20),
    }
}

/// `MUFU.RSQ64H`.
pub fn mufu_rsqrt64h(h: u32) -> u32 {
    let (s, e, m) = (h & SIGN32, (h >> 20) & 0x7ff, h & 0xf_ffff);
    match e {
        0x7ff if m != 0 => NAN32,
        0 => s | 0x7ff0_0000,
        _ if s != 0 => NAN32,
        0x7ff => 0,
        _ => {
            let ex = e as i32 - 1023;
            let parity = ex & 1;
            let r = rsqrt64h_table().bits(((parity as usize) << 20) | m as usize);
            rescale(r, -((ex - parity) >> 1), 20)
        }
    }
}

/// An f32 multiplication as `FMUL` computes it (IEEE, subnormals kept; a NaN is the canonical one).
fn fmul(a: u32, b: u32) -> u32 {
    let r = f32::from_bits(a) * f32::from_bits(b);
    if r.is_nan() { NAN32 } else { r.to_bits() }
}

/// `FMUL.FTZ` (`crate::alu::rounded_ftz32`: subnormal operands flushed, the product rounded as if the exponent were
/// unbounded and flushed below 2^-126).
fn fmul_ftz(a: u32, b: u32) -> u32 {
    crate::alu::rounded_ftz32(RoundedOp::Mul, Rounding::NearestFloat, [a, b, 0])
}

/// |x| below the normal range (`FSETP.GEU |x|, 2^-126` false; a NaN is not).
fn below_normal(x: u32) -> bool {
    x & 0x7fff_ffff < 0x0080_0000
}

/// |x| above 2^126 (`FSETP.GT |x|, 2^126`; a NaN is not).
fn above_2_126(x: u32) -> bool {
    let a = x & 0x7fff_ffff;
    a > 0x7e80_0000 && a <= INF32
}

const TWO_24: u32 = 0x4b80_0000;
const QUARTER: u32 = 0x3e80_0000;

/// The PTX instruction `op` (`ftz`: its `.ftz` form) on an f32 (`a`, `b`, `c`: operands' bits), as ptxas compiles it
/// for `sm_90`: the `MUFU` and the instructions around it (`calibration/measured/mufu/sass.txt`).
pub fn approx32(op: ApproxOp, ftz: bool, a: u32, b: u32, c: u32) -> u32 {
    match (op, ftz) {
        (ApproxOp::Rcp, true) => mufu_rcp(a),
        (ApproxOp::Rcp, false) => {
            // Scaled by 1/4 above 2^126 and by 2^24 below the normal range, the result by the same factor.
            let scale = if above_2_126(a) {
                QUARTER
            } else if below_normal(a) {
                TWO_24
            } else {
                0x3f80_0000
            };
            fmul(scale, mufu_rcp(fmul(a, scale)))
        }
        (ApproxOp::Rsqrt, true) => mufu_rsqrt(a),
        (ApproxOp::Rsqrt, false) if below_normal(a) => fmul(mufu_rsqrt(fmul(a, TWO_24)), 0x4580_0000),
        (ApproxOp::Rsqrt, false) => mufu_rsqrt(a),
        (ApproxOp::Sqrt, true) => mufu_sqrt(a),
        (ApproxOp::Sqrt, false) if below_normal(a) => fmul(mufu_sqrt(fmul(a, TWO_24)), 0x3980_0000),
        (ApproxOp::Sqrt, false) => mufu_sqrt(a),
        (ApproxOp::Lg2, true) => mufu_lg2(a),
        (ApproxOp::Lg2, false) if below_normal(a) => {
            let r = f32::from_bits(mufu_lg2(fmul(a, TWO_24))) + -24.0;
            if r.is_nan() { NAN32 } else { r.to_bits() }
        }
        (ApproxOp::Lg2, false) => mufu_lg2(a),
        (ApproxOp::Ex2, true) => mufu_ex2(a),
        // Below -126, 2^(x/2) squared.
        (ApproxOp::Ex2, false) if f32::from_bits(a) < -126.0 => {
            let r = mufu_ex2(fmul(a, 0x3f00_0000));
            fmul(r, r)
        }
        (ApproxOp::Ex2, false) => mufu_ex2(a),
        // (ptxas emits the same two instructions with and without `.ftz`.)
        (ApproxOp::Sin, _) => sin_cos(a, false),
        (ApproxOp::Cos, _) => sin_cos(a, true),
        (ApproxOp::Div | ApproxOp::DivFull | ApproxOp::DivAdd | ApproxOp::DivFullAdd, _) => {
            let (a, r) = quotient_factors(op, ftz, a, b);
            match (op, ftz) {
                (ApproxOp::Div | ApproxOp::DivFull, true) => fmul_ftz(r, a),
                (ApproxOp::Div | ApproxOp::DivFull, false) => fmul(r, a),
                // The fused forms: `FFMA` of the same factors and `c`.
                (_, true) => crate::alu::rounded_ftz32(RoundedOp::Fma, Rounding::NearestFloat, [r, a, c]),
                (_, false) => {
                    let x = f32::from_bits(r).mul_add(f32::from_bits(a), f32::from_bits(c));
                    if x.is_nan() { NAN32 } else { x.to_bits() }
                }
            }
        }
    }
}

/// The two factors of a `div.approx` or `div.full` (and their fused forms) that its final `FMUL` (or `FFMA`)
/// multiplies: the numerator as scaled, and the `MUFU.RCP` of the denominator as scaled (`div.approx` by 2^24 where
/// `b` is subnormal, without `.ftz`; `div.full` by 1/4 where |b| > 2^126, and without `.ftz` by 2^24 where `b` is
/// subnormal).
fn quotient_factors(op: ApproxOp, ftz: bool, a: u32, b: u32) -> (u32, u32) {
    let full = matches!(op, ApproxOp::DivFull | ApproxOp::DivFullAdd);
    let mul = if ftz { fmul_ftz } else { fmul };
    let (a, b) = if full && above_2_126(b) {
        (mul(a, QUARTER), mul(b, QUARTER))
    } else if !ftz && below_normal(b) {
        (fmul(a, TWO_24), fmul(b, TWO_24))
    } else {
        (a, b)
    };
    (a, mufu_rcp(b))
}

/// `rcp.approx.ftz.f64` and `rsqrt.approx.ftz.f64`: the high word's `MUFU`, the low word zero.
pub fn approx64(op: ApproxOp, a: u64) -> u64 {
    let h = (a >> 32) as u32;
    let r = match op {
        ApproxOp::Rsqrt => mufu_rsqrt64h(h),
        _ => mufu_rcp64h(h),
    };
    u64::from(r) << 32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results the H200 gave (`calibration/measured/mufu/checks.txt` and `checks2.txt`, "specials"), and its tables'
    /// first and last entries.
    #[test]
    fn special_inputs_as_the_gpu_gave_them() {
        // x | rcp.ftz rcp rsq.ftz rsq lg2.ftz lg2 ex2.ftz ex2
        let rows: &[[u32; 9]] = &[
            [
                0x0000_0000,
                0x7f80_0000,
                0x7f80_0000,
                0x7f80_0000,
                0x7f80_0000,
                0xff80_0000,
                0xff80_0000,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x8000_0000,
                0xff80_0000,
                0xff80_0000,
                0xff80_0000,
                0xff80_0000,
                0xff80_0000,
                0xff80_0000,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x0000_0001,
                0x7f80_0000,
                0x7f80_0000,
                0x7f80_0000,
                0x64b5_04f2,
                0xff80_0000,
                0xc315_0000,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x807f_ffff,
                0xff80_0000,
                0xfe80_0001,
                0xff80_0000,
                NAN32,
                0xff80_0000,
                NAN32,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x0040_0000,
                0x7f80_0000,
                0x7f00_0000,
                0x7f80_0000,
                0x5f35_04f2,
                0xff80_0000,
                0xc2fd_ffff,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x0080_0000,
                0x7e80_0000,
                0x7e80_0000,
                0x5f00_0000,
                0x5f00_0000,
                0xc2fb_ffff,
                0xc2fb_ffff,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x3f80_0000,
                0x3f80_0000,
                0x3f80_0000,
                0x3f80_0000,
                0x3f80_0000,
                0,
                0,
                0x4000_0000,
                0x4000_0000,
            ],
            [
                0xbf80_0000,
                0xbf80_0000,
                0xbf80_0000,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0x3f00_0000,
                0x3f00_0000,
            ],
            [
                0x7f7f_ffff,
                0,
                0x0020_0000,
                0x1f80_0000,
                0x1f80_0000,
                0x42ff_ffff,
                0x42ff_ffff,
                INF32,
                INF32,
            ],
            [0xff7f_ffff, SIGN32, 0x8020_0000, NAN32, NAN32, NAN32, NAN32, 0, 0],
            [INF32, 0, 0, 0, 0, INF32, INF32, INF32, INF32],
            [0xff80_0000, SIGN32, SIGN32, NAN32, NAN32, NAN32, NAN32, 0, 0],
            [0x7fc0_0000, NAN32, NAN32, NAN32, NAN32, NAN32, NAN32, NAN32, NAN32],
            [
                0x7f00_0000,
                0,
                0x0040_0000,
                0x1fb5_04f2,
                0x1fb5_04f2,
                0x42fe_0000,
                0x42fe_0000,
                INF32,
                INF32,
            ],
            [
                0xc2fc_0000,
                0xbc02_0821,
                0xbc02_0821,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0x0080_0000,
                0x0080_0000,
            ],
            [
                0xc2fe_0000,
                0xbc01_0204,
                0xbc01_0204,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0,
                0x003f_ffff,
            ],
            [
                0xc300_0000,
                0xbc00_0000,
                0xbc00_0000,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0,
                0x0020_0000,
            ],
            [
                0xc315_0000,
                0xbbdb_eb62,
                0xbbdb_eb62,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0,
                0x0000_0001,
            ],
            [
                0x42fe_0000,
                0x3c01_0204,
                0x3c01_0204,
                0x3db5_bb09,
                0x3db5_bb09,
                0x40df_a34e,
                0x40df_a34e,
                0x7f00_0000,
                0x7f00_0000,
            ],
            [
                0x0000_0800,
                0x7f80_0000,
                0x7f80_0000,
                0x7f80_0000,
                0x6200_0000,
                0xff80_0000,
                0xc30a_0000,
                0x3f80_0000,
                0x3f80_0000,
            ],
            [
                0x3f00_0000,
                0x4000_0000,
                0x4000_0000,
                0x3fb5_04f2,
                0x3fb5_04f2,
                0xbf7f_fffe,
                0xbf7f_fffe,
                0x3fb5_04f3,
                0x3fb5_04f3,
            ],
            [
                0x3e80_0000,
                0x4080_0000,
                0x4080_0000,
                0x4000_0000,
                0x4000_0000,
                0xbfff_ffff,
                0xbfff_ffff,
                0x3f98_37f1,
                0x3f98_37f1,
            ],
            [
                0x4c00_0000,
                0x3300_0000,
                0x3300_0000,
                0x3935_04f2,
                0x3935_04f2,
                0x41c8_0000,
                0x41c8_0000,
                INF32,
                INF32,
            ],
            [
                0xbe80_0000,
                0xc080_0000,
                0xc080_0000,
                NAN32,
                NAN32,
                NAN32,
                NAN32,
                0x3f57_44fc,
                0x3f57_44fc,
            ],
            [
                0x3fc0_0000,
                0x3f2a_aaab,
                0x3f2a_aaab,
                0x3f51_05eb,
                0x3f51_05eb,
                0x3f15_c01b,
                0x3f15_c01b,
                0x4035_04f3,
                0x4035_04f3,
            ],
        ];
        let ops = [ApproxOp::Rcp, ApproxOp::Rsqrt, ApproxOp::Lg2, ApproxOp::Ex2];
        for row in rows {
            for (k, op) in ops.iter().enumerate() {
                for (j, ftz) in [true, false].into_iter().enumerate() {
                    let want = row[1 + 2 * k + j];
                    let got = approx32(*op, ftz, row[0], 0, 0);
                    assert_eq!(
                        got,
                        want,
                        "{}{} of {:#010x}: {got:#010x}, the GPU {want:#010x}",
                        op.name(),
                        if ftz { ".ftz" } else { "" },
                        row[0]
                    );
                }
            }
        }
        // x | sin.approx.ftz cos.approx.ftz (checks.txt)
        let rows_sin_cos: &[[u32; 3]] = &[
            [0x0000_0000, 0x0000_0000, 0x3f80_0000],
            [0x8000_0000, 0x8000_0000, 0x3f80_0000],
            [0x0000_0001, 0x0000_0000, 0x3f80_0000],
            [0x807f_ffff, 0x8000_0000, 0x3f80_0000],
            [0x0040_0000, 0x0000_0000, 0x3f80_0000],
            [0x0080_0000, 0x0000_0000, 0x3f80_0000],
            [0x8080_0000, 0x8000_0000, 0x3f80_0000],
            [0x3f80_0000, 0x3f57_6aa3, 0x3f0a_5141],
            [0xbf80_0000, 0xbf57_6aa3, 0x3f0a_5141],
            [0x7f7f_ffff, 0x0000_0000, 0x3f80_0000],
            [0xff7f_ffff, 0x8000_0000, 0x3f80_0000],
            [0x7f80_0000, 0x7fff_ffff, 0x7fff_ffff],
            [0xff80_0000, 0x7fff_ffff, 0x7fff_ffff],
            [0x7fc0_0000, 0x7fff_ffff, 0x7fff_ffff],
            [0xffc0_0000, 0x7fff_ffff, 0x7fff_ffff],
            [0x7f80_0001, 0x7fff_ffff, 0x7fff_ffff],
            [0x7e80_0000, 0x0000_0000, 0x3f80_0000],
            [0x7f00_0000, 0x0000_0000, 0x3f80_0000],
            [0xc2fc_0000, 0xbea8_f280, 0x3f71_a94d],
            [0xc2fe_0000, 0xbf78_fe08, 0x3e6d_f3c8],
            [0xc300_0000, 0xbf38_9626, 0xbf31_6160],
            [0xc315_0000, 0x3f79_8267, 0xbe65_1f5e],
            [0x42fe_0000, 0x3f78_fe08, 0x3e6d_f3c8],
            [0x4300_0000, 0x3f38_9626, 0xbf31_6160],
            [0x0000_0800, 0x0000_0000, 0x3f80_0000],
            [0x4000_0000, 0x3f68_c7b6, 0xbed5_1130],
            [0x3f00_0000, 0x3ef5_7740, 0x3f60_a940],
            [0x3e80_0000, 0x3e7d_5776, 0x3f78_0aa4],
            [0x4b00_0000, 0x3f35_04f3, 0xbf35_04f2],
            [0x4c00_0000, 0x8000_0000, 0xbf80_0000],
            [0xbe80_0000, 0xbe7d_5776, 0x3f78_0aa4],
            [0x3fc0_0000, 0x3f7f_5bd5, 0x3d90_de97],
        ];
        for row in rows_sin_cos {
            for ftz in [true, false] {
                assert_eq!(
                    approx32(ApproxOp::Sin, ftz, row[0], 0, 0),
                    row[1],
                    "sin of {:#010x}",
                    row[0]
                );
                assert_eq!(
                    approx32(ApproxOp::Cos, ftz, row[0], 0, 0),
                    row[2],
                    "cos of {:#010x}",
                    row[0]
                );
            }
        }
        // x | lg2.ftz ex2.ftz sqrt.approx.ftz (checks2.txt)
        let rows2: &[[u32; 4]] = &[
            [0x0000_0000, 0xff80_0000, 0x3f80_0000, 0],
            [0x8000_0000, 0xff80_0000, 0x3f80_0000, SIGN32],
            [0x807f_ffff, 0xff80_0000, 0x3f80_0000, SIGN32],
            [0x0080_0000, 0xc2fb_ffff, 0x3f80_0000, 0x2000_0000],
            [0x7f7f_ffff, 0x42ff_ffff, INF32, 0x5f7f_ffff],
            [0x42ff_fffe, 0x40df_ffff, 0x7f7f_ff4f, 0x4135_04f3],
            [0xc2fd_fffe, NAN32, 0, NAN32],
            [0x3300_0000, 0xc1c7_ffff, 0x3f80_0000, 0x3935_04f3],
            [0x3280_0000, 0xc1cf_ffff, 0x3f80_0000, 0x3900_0000],
            [0x3f00_0000, 0xbf7f_fffe, 0x3fb5_04f3, 0x3f35_04f3],
        ];
        for row in rows2 {
            assert_eq!(mufu_lg2(row[0]), row[1], "lg2 of {:#010x}", row[0]);
            assert_eq!(mufu_ex2(row[0]), row[2], "ex2 of {:#010x}", row[0]);
            assert_eq!(mufu_sqrt(row[0]), row[3], "sqrt of {:#010x}", row[0]);
        }
        // x | rcp.approx.ftz.f64 | rsqrt.approx.ftz.f64 (checks2.txt)
        let rows64: &[[u64; 3]] = &[
            [0, 0x7ff0_0000_0000_0000, 0x7ff0_0000_0000_0000],
            [0x8000_0000_0000_0000, 0xfff0_0000_0000_0000, 0xfff0_0000_0000_0000],
            [0x800f_ffff_ffff_ffff, 0xfff0_0000_0000_0000, 0xfff0_0000_0000_0000],
            [0x0010_0000_0000_0000, 0x7fd0_0000_0000_0000, 0x5fe0_0000_0000_0000],
            [0x7ff0_0000_0000_0000, 0, 0],
            [0xfff0_0000_0000_0000, 0x8000_0000_0000_0000, 0x7fff_ffff_0000_0000],
            [0x7ff8_0000_0000_0000, 0x7fff_ffff_0000_0000, 0x7fff_ffff_0000_0000],
            [0x7ff0_0000_0000_0001, 0, 0],
            [0xbff0_0000_0000_0000, 0xbff0_0000_0000_0000, 0x7fff_ffff_0000_0000],
            [0x7fef_ffff_ffff_ffff, 0, 0x1ff0_0000_0000_0000],
            [0x7fd0_0000_0000_0000, 0x0010_0000_0000_0000, 0x2000_0000_0000_0000],
            [0x7fe0_0000_0000_0000, 0, 0x1ff6_a09e_0000_0000],
            [0x0020_0000_0000_0000, 0x7fc0_0000_0000_0000, 0x5fd6_a09e_0000_0000],
            [0xbfe0_0000_0000_0000, 0xc000_0000_0000_0000, 0x7fff_ffff_0000_0000],
        ];
        for row in rows64 {
            assert_eq!(approx64(ApproxOp::Rcp, row[0]), row[1], "rcp64 of {:#018x}", row[0]);
            assert_eq!(approx64(ApproxOp::Rsqrt, row[0]), row[2], "rsqrt64 of {:#018x}", row[0]);
        }
    }
}
