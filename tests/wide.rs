//! 64-bit values: `.reg.b64` registers, u64/s64/f64 buffers and shared arrays, the 64-bit and mixed-width
//! instructions, 64-bit atomics and shuffles of 64-bit values (two 32-bit shuffles), and the shipped programs that
//! use them (`sum64`, `dot_f64`). Expected values are computed here in Rust from PTX's definitions, and the NaN
//! rules from what an H100 gave (`crosscheck/edges/edges_64.s`, matched bit for bit by `sim crosscheck`).

use std::fmt::Write as _;

use warpsim::{Config, Event, Launch, programs};
use warpsim_tests::{assemble, run, run_text, supported_warp_sizes};

/// A buffer's 64-bit elements.
fn u64s(out: &warpsim::RunOutput, name: &str) -> Vec<u64> {
    out.buffer(name).expect("buffer").elements().collect()
}

fn f64s(out: &warpsim::RunOutput, name: &str) -> Vec<f64> {
    u64s(out, name).into_iter().map(f64::from_bits).collect()
}

#[test]
fn sum64_adds_values_past_32_bits_at_every_warp_size() {
    let expected: u64 = (0..64u64).map(|i| 4_000_000_000 - i).sum();
    assert_eq!(expected, 255_999_997_984);
    assert_eq!(expected % (1 << 32), 2_596_927_520, "what a 32-bit sum would give");
    for w in supported_warp_sizes("sum64") {
        assert_eq!(u64s(&run("sum64", w, &[]), "total"), vec![expected], "W={w}");
    }
    // A partial last block, and more blocks than SMs in a row.
    let n = 100_003u64;
    let out = run("sum64", 32, &[("n", 100_003), ("threads", 256)]);
    assert_eq!(
        u64s(&out, "total"),
        vec![(0..n).map(|i| 4_000_000_000 - i).sum::<u64>()]
    );
    assert_eq!(out.buffer("total").expect("total").data.len(), 2, "a u64 is two words");
}

/// dot_f64 as the program computes it, in the same order: strided fused multiply-adds per thread, butterflies in
/// each warp, warp 0 adding the warp sums with another butterfly.
fn dot_f64_reference(w: usize, n: usize, blocks: usize, threads: usize) -> Vec<f64> {
    let x = |i: usize| f64::from(u32::try_from(i).expect("small"));
    let a = |i: usize| x(i) / 10.0;
    let b = |i: usize| 1.0 / (x(i) + 1.0);
    let butterfly = |v: &mut Vec<f64>| {
        let mut off = w / 2;
        while off > 0 {
            let before = v.clone();
            for (l, x) in v.iter_mut().enumerate() {
                *x += before[l ^ off];
            }
            off /= 2;
        }
    };
    (0..blocks)
        .map(|block| {
            let warps = threads / w;
            let mut partial = Vec::new();
            for warp in 0..warps {
                let mut v: Vec<f64> = (0..w)
                    .map(|lane| {
                        let mut acc = 0.0f64;
                        let mut i = block * threads + warp * w + lane;
                        while i < n {
                            acc = a(i).mul_add(b(i), acc);
                            i += blocks * threads;
                        }
                        acc
                    })
                    .collect();
                butterfly(&mut v);
                partial.push(v[0]);
            }
            let mut v: Vec<f64> = (0..w).map(|l| partial.get(l).copied().unwrap_or(0.0)).collect();
            butterfly(&mut v);
            v[0]
        })
        .collect()
}

#[test]
fn dot_f64_matches_its_reference_bit_for_bit() {
    for w in supported_warp_sizes("dot_f64") {
        let got = f64s(&run("dot_f64", w, &[]), "out");
        let want = dot_f64_reference(w as usize, 4096, 4, 128);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "W={w}");
    }
    let got = f64s(
        &run("dot_f64", 32, &[("n", 1000), ("blocks", 3), ("threads", 64)]),
        "out",
    );
    assert_eq!(got, dot_f64_reference(32, 1000, 3, 64));
}

/// Run a program of 64-bit instructions in one thread (or a warp: `threads`) and read `out` (u64).
fn outputs(body: &str, outs: usize) -> Vec<u64> {
    outputs_of(1, body, outs)
}

fn outputs_of(threads: u32, body: &str, outs: usize) -> Vec<u64> {
    let src = format!(".block {threads}\n.buffer out u64[{outs}]\n{body}");
    let (out, _) = run_text(&src, 32);
    u64s(&out.unwrap_or_else(|f| panic!("faults: {}", f.message())), "out")
}

#[test]
fn integer_instructions_follow_ptx() {
    let got = outputs(
        ".reg %x, %y, %s
.reg.b64 %a, %b, %r<12>
    mov.u64 %a, -3
    mov.u64 %b, 0x100000007
    mul.lo.u64 %r0, %a, %b
    mul.hi.u64 %r1, %a, %b
    mul.hi.s64 %r2, %a, %b
    mov.u32 %x, 0xffffffff
    mov.u32 %y, 2
    mul.wide.u32 %r3, %x, %y
    mul.wide.s32 %r4, %x, %y
    mad.wide.u32 %r5, %x, %x, %b
    div.s64 %r6, %a, 2
    rem.s64 %r7, %a, 2
    shl.b64 %r8, %b, 64
    shr.s64 %r9, %a, 200
    cvt.u64.s32 %r10, %x
    mov.u32 %s, 40
    shl.b64 %r11, %b, %s
    st.global.u64 out[0], %r0
    st.global.u64 out[1], %r1
    st.global.u64 out[2], %r2
    st.global.u64 out[3], %r3
    st.global.u64 out[4], %r4
    st.global.u64 out[5], %r5
    st.global.u64 out[6], %r6
    st.global.u64 out[7], %r7
    st.global.u64 out[8], %r8
    st.global.u64 out[9], %r9
    st.global.u64 out[10], %r10
    st.global.u64 out[11], %r11
",
        12,
    );
    let (a, b) = ((-3i64).cast_unsigned(), 0x1_0000_0007u64);
    let wide = u128::from(a) * u128::from(b);
    assert_eq!(
        got,
        vec![
            a.wrapping_mul(b),
            (wide >> 64) as u64,
            u64::try_from((i128::from(-3i64) * i128::from(b.cast_signed())) >> 64 & i128::from(u64::MAX))
                .expect("masked"),
            0x1_ffff_fffe,
            (-2i64).cast_unsigned(),
            0xffff_fffe_0000_0001u64 + b,
            (-1i64).cast_unsigned(),
            (-1i64).cast_unsigned(),
            0,
            u64::MAX,
            u64::MAX,
            b << 40,
        ]
    );
}

#[test]
fn f64_arithmetic_and_its_nans_are_the_gpus() {
    let got = outputs(
        ".reg.b64 %a, %b, %n, %m, %r<10>
    mov.f64 %a, 0.1
    mov.f64 %b, 3.0
    mov.b64 %n, 0x7ff0000000000001
    mov.b64 %m, -2251799813685247
    div.rn.f64 %r0, %a, %b
    fma.rn.f64 %r1, %a, %b, %a
    sqrt.rn.f64 %r2, %b
    add.f64 %r3, %a, %n
    add.f64 %r4, %n, %m
    div.rn.f64 %r5, %n, %m
    mov.f64 %r6, 0.0
    div.rn.f64 %r6, %r6, %r6
    min.f64 %r7, %n, %a
    sqrt.rn.f64 %r8, -1.0
    cvt.rzi.s64.f64 %r9, %n
    st.global.u64 out[0], %r0
    st.global.u64 out[1], %r1
    st.global.u64 out[2], %r2
    st.global.u64 out[3], %r3
    st.global.u64 out[4], %r4
    st.global.u64 out[5], %r5
    st.global.u64 out[6], %r6
    st.global.u64 out[7], %r7
    st.global.u64 out[8], %r8
    st.global.u64 out[9], %r9
",
        10,
    );
    // -2251799813685247 is 0xfff8000000000001: a negative quiet NaN with payload 1.
    let m = (-2_251_799_813_685_247i64).cast_unsigned();
    assert_eq!(m, 0xfff8_0000_0000_0001);
    assert_eq!(
        got,
        vec![
            (0.1f64 / 3.0).to_bits(),
            0.1f64.mul_add(3.0, 0.1).to_bits(),
            3.0f64.sqrt().to_bits(),
            // A NaN operand comes back quietened, payload and sign kept;
            0x7ff8_0000_0000_0001,
            // of two, add's second and div's first;
            m,
            0x7ff8_0000_0000_0001,
            // an invalid operation gives the default NaN;
            0xfff8_0000_0000_0000,
            // min of a NaN and a number is the number;
            0.1f64.to_bits(),
            0xfff8_0000_0000_0000,
            // an f64 NaN to an integer is 0x8000000000000000.
            1 << 63,
        ]
    );
}

#[test]
fn conversions_round_as_asked() {
    let got = outputs(
        ".reg %f, %x
.reg.b64 %a, %i, %r<8>
    mov.u64 %i, 9007199254740993
    cvt.rn.f64.u64 %r0, %i
    cvt.rp.f64.u64 %r1, %i
    mov.f64 %a, 0.1
    cvt.rz.f32.f64 %f, %a
    cvt.u64.u32 %r2, %f
    cvt.rp.f32.f64 %f, %a
    cvt.u64.u32 %r3, %f
    mov.f64 %a, -2.5
    cvt.rni.s64.f64 %r4, %a
    cvt.rmi.s64.f64 %r5, %a
    cvt.rzi.u64.f64 %r6, %a
    mov.u32 %x, 16777217
    cvt.rm.f32.u32 %f, %x
    cvt.u64.u32 %r7, %f
    st.global.u64 out[0], %r0
    st.global.u64 out[1], %r1
    st.global.u64 out[2], %r2
    st.global.u64 out[3], %r3
    st.global.u64 out[4], %r4
    st.global.u64 out[5], %r5
    st.global.u64 out[6], %r6
    st.global.u64 out[7], %r7
",
        8,
    );
    #[allow(clippy::cast_possible_truncation, reason = "the nearest f32 is the point")]
    let tenth = 0.1f64 as f32;
    // 0.1 lies between two f32s; the nearest is above it.
    assert!(f64::from(tenth) > 0.1);
    assert_eq!(
        got,
        vec![
            9_007_199_254_740_992f64.to_bits(),
            9_007_199_254_740_994f64.to_bits(),
            u64::from(tenth.next_down().to_bits()),
            u64::from(tenth.to_bits()),
            (-2i64).cast_unsigned(),
            (-3i64).cast_unsigned(),
            0,
            u64::from(16_777_216f32.to_bits()),
        ]
    );
}

#[test]
fn sixty_four_bit_atomics_in_both_spaces() {
    let got = outputs_of(
        32,
        ".shared s u64[2]
.reg.b64 %old, %v
    mov.u64 %v, 0x100000000
    red.global.add.u64 out[0], %v
    red.shared.add.u64 s[0], %v
    atom.shared.add.u64 %old, s[0], %v
    ld.shared.u64 %v, s[0]
    st.global.u64 out[1], %v
    st.global.u64 out[2], %old
    mov.u64 %v, 7
    atom.global.cas.b64 %old, out[3], 0, %v
    atom.global.exch.b64 %old, out[3], 9
    st.global.u64 out[4], %old
    red.global.max.u64 out[5], 5
    red.global.max.u64 out[6], -1
",
        7,
    );
    // 32 lanes each add 2^32 to out[0]; in shared memory 64 adds, and the last lane (the highest: it stores last)
    // saw 63 of them before its own; the first lane's cas stores 7, then every lane exchanges 9 (the last sees 9).
    assert_eq!(got, vec![32 << 32, 64 << 32, 63 << 32, 9, 9, 5, u64::MAX]);
}

#[test]
fn a_64_bit_shared_access_is_served_a_half_warp_at_a_time() {
    for (stride, degree, conflicts) in [(1u32, 2u32, 0u64), (2, 4, 1), (16, 32, 1)] {
        let src = format!(
            ".block 32\n.shared s f64[32 * 32]\n.buffer o f64[32]\n.reg %i\n.reg.b64 %v\n    mul.lo.u32 %i, %laneid, {stride}\n    ld.shared.f64 %v, s[%i]\n    st.global.f64 o[%laneid], %v\n"
        );
        let (out, events) = run_text(&src, 32);
        let out = out.expect("runs");
        let degrees: Vec<u32> = events
            .iter()
            .filter_map(|e| match e {
                Event::Issue(i) => i.memory.as_ref().filter(|m| m.shared).map(|m| m.degree),
                _ => None,
            })
            .collect();
        assert_eq!(degrees, vec![degree], "stride {stride}");
        assert_eq!(out.stats.bank_conflicts, conflicts, "stride {stride}");
        assert_eq!(
            out.stats.bank_conflict_cycles,
            2 * u64::from(degree - 2),
            "stride {stride}"
        );
    }
}

#[test]
fn a_64_bit_byte_address_must_be_8_byte_aligned() {
    let src = ".block 1\n.buffer b u64[4]\n.reg.b64 %v\n    ld.global.u64 %v, [b + 4]\n";
    let (out, _) = run_text(src, 32);
    let fault = out.expect_err("misaligned");
    assert!(fault.message().contains("byte offset 4"), "{}", fault.message());
}

#[test]
fn the_trace_shows_64_bit_values_whole() {
    let src = ".block 2\n.reg.b64 %v\n    mov.u64 %v, 0x123456789\n    add.u64 %v, %v, %v\n";
    let (_, events) = run_text(src, 2);
    let writes: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            Event::Issue(i) => i.write.as_ref().map(|(_, v)| v[0]),
            _ => None,
        })
        .collect();
    assert_eq!(writes, vec![0x1_2345_6789, 0x2_468A_CF12]);
}

#[test]
fn widths_are_checked_when_assembling() {
    let errors = |text: &str| match warpsim_isa::parse("t.s", text, &programs::Resolver) {
        Ok(_) => panic!("assembles: {text}"),
        Err(e) => e.render(false),
    };
    let e = errors(".reg %x\n.reg.b64 %w\n    add.u64 %w, %w, %x\n");
    assert!(e.contains("`%x` is a 32-bit register, used as a `.u64` operand"), "{e}");
    assert!(e.contains("cvt.u64.u32"), "{e}");
    let e = errors(".reg %x\n.reg.b64 %w\n    add.u32 %x, %w, 1\n");
    assert!(e.contains("`%w` is a 64-bit register, used as a `.u32` operand"), "{e}");
    let e = errors(".reg.b16 %h\n");
    assert!(e.contains("unknown register type `.b16`"), "{e}");
    let e = errors(".reg.b64 %w\n    mov.u64 %w, %tid.x\n");
    assert!(e.contains("`%tid.x` is 32 bits wide"), "{e}");
    let e = errors(".reg.b64 %w\n    mov.u32 %w.hi, 1\n");
    assert!(e.contains("unknown register `%w.hi`"), "{e}");
    let e = errors(".reg %x\n    cvt.rn.u32.u64 %x, 5\n");
    assert!(e.contains("is exact"), "{e}");
}

#[test]
fn a_64_bit_buffer_counts_twice_against_the_memory_limit() {
    let p = assemble(".param n = 1\n.buffer b u64[n]\n    exit\n");
    let launch = |n: i64| Launch {
        set: vec![("n".into(), warpsim_isa::Value::Int(n))],
        ..Launch::default()
    };
    let limits = warpsim::Limits { buffer_elements: 8 };
    let config = Config::hopper();
    assert!(warpsim::instantiate_with(&p, &config, &launch(4), &limits).is_ok());
    let err = warpsim::instantiate_with(&p, &config, &launch(5), &limits).expect_err("too big");
    assert!(
        err.render(&p, false).contains("more than 8 elements"),
        "{}",
        err.render(&p, false)
    );
}

/// Every integer-to-integer `cvt` between the 32- and 64-bit types (`cvt` has no untyped `.b` forms), and `setp` on 64-bit operands under a guard,
/// across a whole warp of lanes with values spread over both halves' sign bits: a conversion extends by its
/// source's signedness and cuts to its destination's width (PTX's `cvt`); a guarded `setp` leaves the predicate of
/// the lanes it does not execute as it was.
#[test]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "PTX's cvt keeps the low bits of the two's complement value"
)]
fn integer_conversions_and_64_bit_compares_across_a_warp() {
    const TYPES: [&str; 4] = ["u32", "s32", "u64", "s64"];
    let mut body = String::from(
        ".block 32
.buffer out u64[2048]
.reg %t, %x, %y, %k, %base
.reg.b64 %a, %b, %r, %wide
.pred %p, %q
    mov.u32 %t, %tid.x
    mul.lo.u32 %x, %t, 0x9e3779b9
    mul.wide.u32 %a, %x, 0x85ebca6b
    xor.b64 %a, %a, 0xc2b2ae3d27d4eb4f
    mul.lo.u32 %base, %t, 64
",
    );
    // For each pair: a source of that width (%x or %a), converted, and the result stored as 64 bits (a 32-bit
    // result zero-extended by `cvt.u64.u32`, which this test also checks).
    let mut slot = 0;
    for from in TYPES {
        for to in TYPES {
            let src = if from.ends_with("64") { "%a" } else { "%x" };
            let dst = if to.ends_with("64") { "%r" } else { "%y" };
            writeln!(body, "    cvt.{to}.{from} {dst}, {src}").expect("a String");
            if dst == "%y" {
                body.push_str("    cvt.u64.u32 %r, %y\n");
            }
            writeln!(
                body,
                "    add.u32 %k, %base, {slot}
    st.global.u64 out[%k], %r"
            )
            .expect("a String");
            slot += 1;
        }
    }
    // Guarded compares: %p is true everywhere, then set by the compare in the even lanes only.
    for (k, cmp) in ["lt.s64", "lt.u64", "ge.s64", "ne.b64"].iter().enumerate() {
        write!(
            body,
            "    and.b32 %y, %t, 1
    setp.eq.u32 %q, %y, 0
    setp.eq.u32 %p, %t, %t
    mul.wide.u32 %b, %t, 0x7fffffff
    @%q setp.{cmp} %p, %a, %b
    selp.u32 %y, 1, 0, %p
    cvt.u64.u32 %r, %y
    add.u32 %k, %base, {}
    st.global.u64 out[%k], %r
",
            40 + k
        )
        .expect("a String");
    }
    let (out, _) = run_text(&body, 32);
    let got = u64s(&out.unwrap_or_else(|f| panic!("faults: {}", f.message())), "out");
    for t in 0u32..32 {
        let x = t.wrapping_mul(0x9e37_79b9);
        let a = (u64::from(x) * 0x85eb_ca6b) ^ 0xc2b2_ae3d_27d4_eb4f;
        let mut slot = 0;
        for from in TYPES {
            let v: i128 = match from {
                "s32" => i128::from(x.cast_signed()),
                "u32" => i128::from(x),
                "s64" => i128::from(a.cast_signed()),
                _ => i128::from(a),
            };
            for to in TYPES {
                let want = if to.ends_with("64") {
                    v as u64
                } else {
                    u64::from(v as u32)
                };
                let at = (t * 64 + slot) as usize;
                assert_eq!(got[at], want, "lane {t}: cvt.{to}.{from}");
                slot += 1;
            }
        }
        let b = u64::from(t) * 0x7fff_ffff;
        let even = t % 2 == 0;
        let cmps = [
            a.cast_signed() < b.cast_signed(),
            a < b,
            a.cast_signed() >= b.cast_signed(),
            a != b,
        ];
        for (k, c) in cmps.into_iter().enumerate() {
            let want = u64::from(!even || c);
            assert_eq!(got[(t * 64 + 40) as usize + k], want, "lane {t}: compare {k}");
        }
    }
}
