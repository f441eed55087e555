//! CUDA's device-side `printf` (PTX's `call vprintf`): C's `printf` formatting of a format string and the
//! arguments nvcc packs for it.
//!
//! nvcc passes `vprintf` two generic addresses: the format string (a `.global` constant) and a buffer in the
//! thread's local memory holding the arguments, each at an offset aligned to its size (4 bytes for `int`,
//! `unsigned` and `char`, 8 for `double`, `long`, `long long` and pointers; a `float` is promoted to `double`
//! and a `short` or `char` to `int`, as for any C variadic call). The conversions are C's: `d i u o x X c s p
//! f F e E g G a A %` with the flags `- + space # 0`, a width, a precision (`*` takes either from the
//! arguments) and the length modifiers `hh h l ll z j t`. The text is formatted as glibc's `printf` does, which
//! is what the CUDA driver's host side uses: floats exactly, rounded to nearest with ties to even.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "C's printf converts each argument to its conversion's type: bytes, shorts, ints, as C casts do"
)]

use crate::kernel::{Buffer, Kernel, Src};
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use warpsim_isa::address::{Window, window};

/// The longest C string a `%s` or a format is read to (its NUL looked for no further).
const MAX_STRING: usize = 1 << 20;

/// The widest field and the longest precision formatted (a larger one is refused, as a malformed format).
const MAX_FIELD: usize = 1 << 16;

/// `printf` in the `exec` lanes: each lane's text, in lane order, from its format and arguments (read from global
/// memory as the epoch began, the block's shared memory and the lane's local memory); `d` gets the number of
/// arguments, or -1 where the format or an argument cannot be read.
pub(crate) fn lanes(
    kernel: &Kernel,
    rf: &mut RegisterFile,
    (global, shared, local): (&[Buffer], &[u32], &[u32]),
    ctx: &LaneCtx,
    exec: u64,
    (d, fmt, args): (u16, Src, Src),
) -> Vec<(u32, String)> {
    let mut texts = Vec::new();
    let mut results = [0u64; 64];
    for_lanes(exec, |lane| {
        let mut reader = LaneMemory::new(
            kernel,
            (global, shared, local),
            ctx,
            lane,
            rf.read_at(args, true, lane, ctx),
        );
        let format_string = reader.string(rf.read_at(fmt, true, lane, ctx));
        match format_string.and_then(|f| format(&f, &mut reader)) {
            Some((text, count)) => {
                results[lane as usize] = u64::from(count);
                texts.push((lane, text));
            }
            None => results[lane as usize] = u64::from(u32::MAX),
        }
    });
    for_lanes(exec, |lane| rf.write_at(d, false, lane, results[lane as usize]));
    texts
}

/// The fault of a failed `assert` in lane `first`: the C strings of its message, file and function (`?` where one
/// cannot be read) and its line.
pub(crate) fn assertion(
    kernel: &Kernel,
    rf: &RegisterFile,
    (global, shared, local): (&[Buffer], &[u32], &[u32]),
    ctx: &LaneCtx,
    first: u32,
    (message, file, line, function): (Src, Src, Src, Src),
) -> crate::fault::FaultKind {
    let mut reader = LaneMemory::new(kernel, (global, shared, local), ctx, first, 0);
    let mut text = |s: Src| {
        let bytes = reader.string(rf.read_at(s, true, first, ctx));
        bytes.map_or_else(|| "?".to_string(), |b| String::from_utf8_lossy(&b).into_owned())
    };
    crate::fault::FaultKind::Assertion(Box::new(crate::fault::AssertionFailure {
        message: text(message),
        file: text(file),
        line: rf.read(line, first, ctx),
        function: text(function),
    }))
}

/// One lane's view of memory for `printf`: its arguments from generic address `at` on.
struct LaneMemory<'a> {
    global: &'a [Buffer],
    shared: &'a [u32],
    local: &'a [u32],
    local_bytes: u64,
    w: usize,
    lane: usize,
    at: u64,
}

impl<'a> LaneMemory<'a> {
    /// Lane `lane`'s view of `memory` (global, shared, local), its arguments from generic address `at` on.
    fn new(
        kernel: &Kernel,
        (global, shared, local): (&'a [Buffer], &'a [u32], &'a [u32]),
        ctx: &LaneCtx,
        lane: u32,
        at: u64,
    ) -> LaneMemory<'a> {
        LaneMemory {
            global,
            shared,
            local,
            local_bytes: kernel.program.local_bytes,
            w: ctx.w as usize,
            lane: lane as usize,
            at,
        }
    }

    /// The byte at generic `address`, if it lies in memory.
    fn byte(&self, address: u64) -> Option<u8> {
        let (word, shift) = match window(address) {
            Window::Buffer(k, off) => {
                let data = &self.global.get(k)?.data;
                (*data.get(usize::try_from(off / 4).ok()?)?, off % 4)
            }
            Window::Shared(off) => (*self.shared.get(usize::try_from(off / 4).ok()?)?, off % 4),
            Window::Local(off) if off < self.local_bytes => {
                let k = usize::try_from(off / 4).ok()?;
                (*self.local.get(k * self.w + self.lane)?, off % 4)
            }
            _ => return None,
        };
        Some((word >> (8 * shift)) as u8)
    }
}

impl Args for LaneMemory<'_> {
    fn next(&mut self, size: usize) -> Option<u64> {
        let size64 = size as u64;
        // (Any address a register holds: past the top of the address space there is nothing to read.)
        let at = self.at.checked_next_multiple_of(size64)?;
        let mut v = 0u64;
        for k in 0..size64 {
            v |= u64::from(self.byte(at.checked_add(k)?)?) << (8 * k);
        }
        self.at = at.checked_add(size64)?;
        Some(v)
    }

    fn string(&mut self, address: u64) -> Option<Vec<u8>> {
        let mut s = Vec::new();
        for k in 0..MAX_STRING as u64 {
            match self.byte(address.checked_add(k)?)? {
                0 => return Some(s),
                b => s.push(b),
            }
        }
        None
    }
}

/// What formatting reads: the arguments in turn (`size` bytes, 4 or 8, at the next offset aligned to it), and
/// the C string at a generic address (`%s`).
pub(crate) trait Args {
    /// The next argument of `size` bytes, or `None` past the readable memory.
    fn next(&mut self, size: usize) -> Option<u64>;
    /// The bytes of the C string at `address` (without its NUL), or `None` where nothing can be read.
    fn string(&mut self, address: u64) -> Option<Vec<u8>>;
}

/// Format `fmt` with `args`: the text, and the number of arguments converted (`printf`'s result on the GPU), or
/// `None` when an argument could not be read or a conversion is not C's (`%n`, an unknown letter).
pub(crate) fn format(fmt: &[u8], args: &mut dyn Args) -> Option<(String, u32)> {
    let mut out: Vec<u8> = Vec::with_capacity(fmt.len() + 16);
    let mut count = 0u32;
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&f) = fmt.get(i) {
            match f {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = args.next(4)? as u32 as i32;
            count += 1;
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs() as usize;
        } else {
            spec.width = number(fmt, &mut i);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = args.next(4)? as u32 as i32;
                count += 1;
                spec.precision = usize::try_from(p).ok();
            } else {
                spec.precision = Some(number(fmt, &mut i));
            }
        }
        let mut length = Length::Int;
        loop {
            match fmt.get(i) {
                Some(b'h') if fmt.get(i + 1) == Some(&b'h') => {
                    length = Length::Char;
                    i += 2;
                }
                Some(b'h') => {
                    length = Length::Short;
                    i += 1;
                }
                Some(b'l') if fmt.get(i + 1) == Some(&b'l') => {
                    length = Length::Long;
                    i += 2;
                }
                Some(b'l' | b'z' | b'j' | b't' | b'L') => {
                    length = Length::Long;
                    i += 1;
                }
                _ => break,
            }
        }
        if spec.width > MAX_FIELD || spec.precision.is_some_and(|p| p > MAX_FIELD) {
            return None;
        }
        let conv = *fmt.get(i)?;
        i += 1;
        let size = if length == Length::Long { 8 } else { 4 };
        let body: Vec<u8> = match conv {
            b'd' | b'i' => {
                let v = signed(args.next(size)?, length);
                count += 1;
                spec.integer(v < 0, &v.unsigned_abs().to_string(), "")
            }
            b'u' | b'o' | b'x' | b'X' => {
                let v = unsigned(args.next(size)?, length);
                count += 1;
                let digits = match conv {
                    b'u' => v.to_string(),
                    b'o' => format!("{v:o}"),
                    b'x' => format!("{v:x}"),
                    _ => format!("{v:X}"),
                };
                let prefix = match conv {
                    b'x' if spec.alt && v != 0 => "0x",
                    b'X' if spec.alt && v != 0 => "0X",
                    _ => "",
                };
                // (`#` with `o`: the first digit a zero, by raising the precision.)
                if conv == b'o' && spec.alt && !digits.starts_with('0') {
                    spec.precision = Some(spec.precision.unwrap_or(0).max(digits.len() + 1));
                }
                spec.plus = false;
                spec.space = false;
                spec.integer(false, &digits, prefix)
            }
            b'c' => {
                let v = args.next(4)?;
                count += 1;
                spec.pad(vec![v as u8])
            }
            b's' => {
                let p = args.next(8)?;
                count += 1;
                let mut s = if p == 0 { b"(null)".to_vec() } else { args.string(p)? };
                if let Some(n) = spec.precision {
                    s.truncate(n);
                }
                spec.pad(s)
            }
            b'p' => {
                let p = args.next(8)?;
                count += 1;
                if p == 0 {
                    spec.pad(b"(nil)".to_vec())
                } else {
                    spec.precision = None;
                    spec.zero = false;
                    spec.integer(false, &format!("{p:x}"), "0x")
                }
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = f64::from_bits(args.next(8)?);
                count += 1;
                spec.float(v, conv)
            }
            _ => return None,
        };
        out.extend(body);
    }
    Some((String::from_utf8_lossy(&out).into_owned(), count))
}

/// A whole number's digits from `fmt[*i..]` (0 when none).
fn number(fmt: &[u8], i: &mut usize) -> usize {
    let mut n = 0usize;
    while let Some(d) = fmt.get(*i).filter(|c| c.is_ascii_digit()) {
        n = n.saturating_mul(10).saturating_add(usize::from(d - b'0'));
        *i += 1;
    }
    n
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Length {
    Char,
    Short,
    Int,
    Long,
}

/// An integer argument as C's conversion sees it (an `int` cut to `short` or `char` by `h` and `hh`).
#[allow(
    clippy::cast_possible_truncation,
    reason = "C's conversion to the length modifier's type"
)]
fn signed(bits: u64, length: Length) -> i64 {
    match length {
        Length::Char => i64::from(bits as u8 as i8),
        Length::Short => i64::from(bits as u16 as i16),
        Length::Int => i64::from(bits as u32 as i32),
        Length::Long => bits.cast_signed(),
    }
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "C's conversion to the length modifier's type"
)]
fn unsigned(bits: u64, length: Length) -> u64 {
    match length {
        Length::Char => u64::from(bits as u8),
        Length::Short => u64::from(bits as u16),
        Length::Int => u64::from(bits as u32),
        Length::Long => bits,
    }
}

/// A conversion's flags, width and precision.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools, reason = "C's five independent flags")]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

impl Spec {
    /// `body` padded with spaces to the width (on the right with `-`).
    fn pad(&self, body: Vec<u8>) -> Vec<u8> {
        if body.len() >= self.width {
            return body;
        }
        let fill = vec![b' '; self.width - body.len()];
        if self.left {
            [body, fill].concat()
        } else {
            [fill, body].concat()
        }
    }

    /// A number: its sign (`negative`, or `+`/space), `prefix` (`0x`), `digits` raised to the precision's
    /// minimum (precision 0 and the digit 0: none), padded to the width with spaces or, with `0` and no
    /// precision, zeros after the sign and prefix.
    fn integer(&self, negative: bool, digits: &str, prefix: &str) -> Vec<u8> {
        let mut digits = digits.to_string();
        if let Some(p) = self.precision {
            if p == 0 && digits == "0" {
                digits.clear();
            }
            if digits.len() < p {
                digits = "0".repeat(p - digits.len()) + &digits;
            }
        }
        self.number(negative, prefix, &digits, self.precision.is_none())
    }

    /// The sign, `prefix` and `digits`, padded to the width (zeros when `zeros_allowed` and `0`, else spaces).
    fn number(&self, negative: bool, prefix: &str, digits: &str, zeros_allowed: bool) -> Vec<u8> {
        let sign = if negative {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let len = sign.len() + prefix.len() + digits.len();
        if self.zero && zeros_allowed && !self.left && len < self.width {
            return format!("{sign}{prefix}{}{digits}", "0".repeat(self.width - len)).into_bytes();
        }
        self.pad(format!("{sign}{prefix}{digits}").into_bytes())
    }

    /// `%f %e %g %a` (capitals: `INF`, `NAN`, `E`, `X`) of `v`.
    fn float(&self, v: f64, conv: u8) -> Vec<u8> {
        let upper = conv.is_ascii_uppercase();
        let negative = v.is_sign_negative();
        if !v.is_finite() {
            let text = if v.is_nan() { "nan" } else { "inf" };
            let text = if upper { text.to_uppercase() } else { text.to_string() };
            return self.number(negative, "", &text, false);
        }
        let a = v.abs();
        let p = self.precision;
        let text = match conv.to_ascii_lowercase() {
            b'f' => fixed(a, p.unwrap_or(6), self.alt),
            b'e' => exponent(a, p.unwrap_or(6), self.alt),
            b'g' => general(a, p.unwrap_or(6), self.alt),
            _ => hex(a, p, self.alt),
        };
        let text = if upper { text.to_uppercase() } else { text };
        let (prefix, digits) = if conv.eq_ignore_ascii_case(&b'a') {
            (if upper { "0X" } else { "0x" }, &text[2..])
        } else {
            ("", &text[..])
        };
        self.number(negative, prefix, digits, true)
    }
}

/// `%.{p}f` of `a` (not negative): exactly rounded, ties to even; `#` keeps the point with no digits after it.
fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// `%.{p}e` of `a` (not negative): `d.ddde+XX`, at least two exponent digits.
fn exponent(a: f64, p: usize, alt: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let point = if alt && p == 0 { "." } else { "" };
    format!(
        "{mantissa}{point}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

/// `%.{p}g` of `a` (not negative): `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    // The exponent `%e` would show at this precision (after its rounding).
    let e = format!("{a:.prec$e}", prec = p - 1);
    let x: i64 = e.split_once('e').map_or(0, |(_, x)| x.parse().unwrap_or(0));
    let p = p as i64;
    // The value's own decimal exponent, before the rounding.
    let x0: i64 = format!("{a:e}")
        .split_once('e')
        .map_or(0, |(_, x)| x.parse().unwrap_or(0));
    let mut s = if a == 0.0 || (-4 <= x && x < p) {
        fixed(a, usize::try_from(p - 1 - x).unwrap_or(0), alt)
    } else if alt && x0 == p - 1 && x == p {
        // The CUDA driver, where the rounding carries a `%f`-style number into `%e` style (`%#g` of 999999.5): the
        // `%f` style's precision, none (`1.e+06`; C gives `1.00000e+06`), measured on an H200
        // (`calibration/measured/printf_probe2.cu`).
        exponent(a, 0, alt)
    } else {
        exponent(a, usize::try_from(p - 1).unwrap_or(0), alt)
    };
    if !alt {
        let (body, tail) = match s.find('e') {
            Some(k) => (s[..k].to_string(), s[k..].to_string()),
            None => (s.clone(), String::new()),
        };
        let body = if body.contains('.') {
            body.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            body
        };
        s = body + &tail;
    }
    s
}

/// `%a` of `a` (not negative): `0x1.hhhp+d` (normal), `0x0.hhhp-1022` (subnormal), the digits rounded to the
/// precision (ties to even) or, without one, as many as needed.
fn hex(a: f64, p: Option<usize>, alt: bool) -> String {
    let bits = a.to_bits();
    let mut exp = i64::try_from((bits >> 52) & 0x7ff).unwrap_or(0);
    let mut mant = bits & ((1 << 52) - 1);
    let mut lead = 1u64;
    if exp == 0 {
        if mant == 0 {
            lead = 0;
            exp = 0;
        } else {
            lead = 0;
            exp = -1022;
        }
    } else {
        exp -= 1023;
    }
    if a == 0.0 {
        exp = 0;
    }
    // 13 hex digits of fraction; round to `p` of them.
    let digits = match p {
        Some(p) if p < 13 => {
            let drop = 4 * (13 - p) as u32;
            let half = 1u64 << (drop - 1);
            let rest = mant & ((1u64 << drop) - 1);
            let mut kept = mant >> drop;
            // (Ties to even: the last digit kept, the leading one when no fraction digit is.)
            let odd = if p == 0 { lead & 1 == 1 } else { kept & 1 == 1 };
            if rest > half || (rest == half && odd) {
                kept += 1;
                if kept >> (4 * p as u32) != 0 {
                    lead += 1;
                    kept = 0;
                }
            }
            mant = kept;
            p
        }
        Some(p) => p,
        None => {
            let mut n = 13;
            while n > 0 && mant.trailing_zeros() >= 4 {
                mant >>= 4;
                n -= 1;
            }
            n
        }
    };
    let frac = if digits == 0 {
        String::new()
    } else if p.is_some_and(|p| p > 13) {
        format!("{mant:013x}{}", "0".repeat(digits - 13))
    } else {
        format!("{mant:0digits$x}")
    };
    let point = if !frac.is_empty() || alt { "." } else { "" };
    format!(
        "0x{lead}{point}{frac}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arguments as nvcc packs them: each at an offset aligned to its size.
    struct Packed {
        bytes: Vec<u8>,
        at: usize,
        strings: Vec<(u64, &'static str)>,
    }

    impl Packed {
        fn new() -> Packed {
            Packed {
                bytes: Vec::new(),
                at: 0,
                strings: Vec::new(),
            }
        }
        fn put(mut self, size: usize, v: u64) -> Packed {
            while !self.bytes.len().is_multiple_of(size) {
                self.bytes.push(0xee);
            }
            self.bytes.extend(&v.to_le_bytes()[..size]);
            self
        }
        fn int(self, v: i32) -> Packed {
            self.put(4, u64::from(v.cast_unsigned()))
        }
        fn long(self, v: i64) -> Packed {
            self.put(8, v.cast_unsigned())
        }
        fn double(self, v: f64) -> Packed {
            self.put(8, v.to_bits())
        }
        fn string(mut self, s: &'static str) -> Packed {
            let address = 0x1000 + 0x100 * self.strings.len() as u64;
            self.strings.push((address, s));
            self.put(8, address)
        }
    }

    impl Args for Packed {
        fn next(&mut self, size: usize) -> Option<u64> {
            self.at = self.at.next_multiple_of(size);
            let b = self.bytes.get(self.at..self.at + size)?;
            self.at += size;
            let mut v = [0u8; 8];
            v[..size].copy_from_slice(b);
            Some(u64::from_le_bytes(v))
        }
        fn string(&mut self, address: u64) -> Option<Vec<u8>> {
            self.strings
                .iter()
                .find(|(a, _)| *a == address)
                .map(|(_, s)| s.as_bytes().to_vec())
        }
    }

    fn f(fmt: &str, mut args: Packed) -> String {
        format(fmt.as_bytes(), &mut args).expect("formats").0
    }

    // Expected texts are glibc's printf's (the same as Python's `%` for these conversions).
    #[test]
    fn integers_with_flags_width_and_precision() {
        let a = || Packed::new().int(42).int(-7).int(255).long(1 << 40).int(255).int(0);
        assert_eq!(
            f(
                "%d|%5d|%-5d|%05d|%+d|% d",
                Packed::new().int(42).int(42).int(42).int(-42).int(42).int(42)
            ),
            "42|   42|42   |-0042|+42| 42"
        );
        assert_eq!(f("%d %i %x %lld %#X %.0d|", a()), "42 -7 ff 1099511627776 0XFF |");
        assert_eq!(
            f(
                "%u %o %#o %#x %.5d %8.3x",
                Packed::new().int(-1).int(8).int(8).int(0).int(-12).int(10)
            ),
            "4294967295 10 010 0 -00012      00a"
        );
        assert_eq!(
            f("%hd %hhu %c%c", Packed::new().int(70000).int(300).int(65).int(0x142)),
            "4464 44 AB"
        );
    }

    #[test]
    fn floats_as_c_rounds_them() {
        let v = || {
            Packed::new()
                .double(3.25159)
                .double(-0.000_012_345)
                .double(1234.5)
                .double(2.5)
        };
        assert_eq!(f("%f %f %e %.0f", v()), "3.251590 -0.000012 1.234500e+03 2");
        assert_eq!(f("%g %g %g %g", v()), "3.25159 -1.2345e-05 1234.5 2.5");
        assert_eq!(
            f("%8.2f|%-9.1e|%010.3f|%+.3g", v()),
            "    3.25|-1.2e-05 |001234.500|+2.5"
        );
        assert_eq!(
            f(
                "%.1f %.1f %.2f %.0e",
                Packed::new().double(0.25).double(0.35).double(1.005).double(15.0)
            ),
            "0.2 0.3 1.00 2e+01"
        );
        assert_eq!(
            f(
                "%g %g %g %G %#g",
                Packed::new()
                    .double(100_000.0)
                    .double(1e6)
                    .double(1e-5)
                    .double(1e-10)
                    .double(1.0)
            ),
            "100000 1e+06 1e-05 1E-10 1.00000"
        );
        // `%#g` where the rounding carries into `%e` style: the CUDA driver's text, not C's (`1.00000e+06`, ...).
        let carry = Packed::new()
            .double(999_999.5)
            .double(999.95)
            .double(99.5)
            .double(9_999_995.0)
            .double(0.999_999_96);
        assert_eq!(
            f("%#g %#.3g %#.2g %#g %#g", carry),
            "1.e+06 1.e+03 1.e+02 1.00000e+07 1.00000"
        );
        assert_eq!(
            f(
                "%f %E %g %5.1f|",
                Packed::new()
                    .double(f64::INFINITY)
                    .double(-f64::INFINITY)
                    .double(f64::NAN)
                    .double(-f64::NAN)
            ),
            "inf -INF nan  -nan|"
        );
        assert_eq!(
            f("%a %A %a", Packed::new().double(1.0).double(-0.375).double(0.0)),
            "0x1p+0 -0X1.8P-2 0x0p+0"
        );
        // Rounded to the precision, ties to even (the leading digit when no fraction digit is kept).
        let halves = Packed::new().double(1.5).double(2.5).double(1.03125).double(1.09375);
        assert_eq!(f("%.0a %.0a %.1a %.1a", halves), "0x2p+0 0x1p+1 0x1.0p+0 0x1.2p+0");
    }

    #[test]
    fn strings_pointers_stars_and_percent() {
        let args = Packed::new()
            .string("warp")
            .string("lanes")
            .int(6)
            .int(2)
            .double(1.5)
            .long(0x7f00)
            .long(0);
        assert_eq!(
            f("%s|%.3s|%*.*f|%p|%p|100%%", args),
            "warp|lan|  1.50|0x7f00|(nil)|100%"
        );
        assert_eq!(
            f("%-6s|%6s|", Packed::new().string("ab").string("cd")),
            "ab    |    cd|"
        );
    }

    /// Any format and any argument bytes: a text or a refusal, never a panic (formats come from the program).
    #[test]
    fn any_format_and_arguments_format_or_are_refused_without_a_panic() {
        const PIECES: [&str; 24] = [
            "%", "%%", "-", "+", " ", "#", "0", "9", "12", "*", ".", ".*", "h", "hh", "l", "ll", "z", "d", "f", "g",
            "a", "s", "c", "x",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let mut fmt = String::new();
            for _ in 0..next() % 12 {
                fmt.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            let mut args = Packed::new();
            for _ in 0..next() % 6 {
                args = if next() % 2 == 0 {
                    args.put(4, next())
                } else {
                    args.put(8, next())
                };
            }
            let _ = format(fmt.as_bytes(), &mut args);
        }
    }

    /// Arguments read at the top of the address space: nothing there, no overflow.
    #[test]
    fn arguments_past_the_top_of_the_address_space_are_not_read() {
        let mut lane = LaneMemory {
            global: &[],
            shared: &[],
            local: &[],
            local_bytes: 0,
            w: 32,
            lane: 0,
            at: u64::MAX - 2,
        };
        assert_eq!(lane.next(8), None);
        assert_eq!(lane.string(u64::MAX), None);
    }

    #[test]
    fn the_result_counts_the_arguments_and_a_bad_format_is_refused() {
        let mut args = Packed::new().int(1).double(2.0);
        assert_eq!(format(b"%d %f\n", &mut args), Some(("1 2.000000\n".to_string(), 2)));
        assert_eq!(format(b"%d %n", &mut Packed::new().int(1).int(2)), None);
        // An argument past the buffer: nothing to read.
        assert_eq!(format(b"%d %d", &mut Packed::new().int(1)), None);
        // A field too wide to make.
        assert_eq!(format(b"%99999999d", &mut Packed::new().int(1)), None);
        assert_eq!(format(b"%.99999999f", &mut Packed::new().double(1.0)), None);
    }
}
