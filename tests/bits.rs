//! Bit-field instructions (issue 21, item 2: `popc`, `clz`, `brev` in 64 bits, `bfe`, `bfind`, `prmt`): exact
//! values of PTX's definitions at their edges, through the simulator. (The same instructions on an H100:
//! `crosscheck/edges/edges_bits.s`.)

use warpsim_tests::{run_text, u32s};

/// Runs `body` (which writes `%o<N>` 32-bit results) in one lane and returns the `N` words it stores.
fn one_lane(decls: &str, body: &str, n: usize) -> Vec<u32> {
    let stores: String = (0..n)
        .map(|k| format!("        st.global.u32 out[{k}], %o{k}\n"))
        .collect();
    let text = format!(
        ".block 2\n.buffer out u32[{n}]\n.reg %o<{n}>\n{decls}\n.pred %first\n        setp.eq.u32 %first, %laneid, 0\n        @!%first exit\n{body}{stores}"
    );
    let (out, _) = run_text(&text, 2);
    let out = out.unwrap_or_else(|f| panic!("{}", f.message()));
    u32s(&out, "out")
}

#[test]
fn bfe_extracts_and_extends_as_ptx_defines() {
    let got = one_lane(
        ".reg %a, %b",
        "        mov.u32 %a, 0xf0f01234
        bfe.u32 %o0, %a, 4, 8
        bfe.s32 %o1, %a, 4, 8
        mov.u32 %b, 0x00000f00
        bfe.s32 %o2, %b, 8, 4
        bfe.u32 %o3, %b, 8, 4
        bfe.u32 %o4, %a, 4, 0
        bfe.s32 %o5, %a, 4, 0
        bfe.s32 %o6, %a, 40, 5
        bfe.u32 %o7, %a, 40, 5
        bfe.s32 %o8, %a, 28, 8
        bfe.u32 %o9, %a, 28, 8
        bfe.u32 %o10, %a, 0x104, 0x208
",
        11,
    );
    assert_eq!(
        got,
        vec![
            0x23,        // bits 4..12 of 0xf0f01234
            0x23,        // the same, its top bit (bit 11 of a) clear: no extension
            0xffff_ffff, // field 0xf of 0xf00: its top bit set, extended
            0xf,
            0,           // len 0: nothing
            0,           // len 0: the sign bit is 0 too
            0xffff_ffff, // pos past bit 31: every bit is a[min(44, 31)] = 1
            0,           // (unsigned: zeros)
            0xffff_ffff, // bits 28..31 of a (0xf), then a[31] = 1 above them
            0xf,         // bits 28..31, zeros above (the field stops at bit 31)
            0x23,        // pos and len are b & 0xff and c & 0xff
        ]
    );
}

#[test]
fn bfe_64_bit_forms() {
    let got = one_lane(
        ".reg.b64 %a, %r<3>",
        "        mov.b64 %a, 0x8000000012345678
        bfe.u64 %r0, %a, 32, 32
        bfe.s64 %r1, %a, 60, 10
        bfe.u64 %r2, %a, 4, 12
        mov.b64 {%o0, %o1}, %r0
        mov.b64 {%o2, %o3}, %r1
        mov.b64 {%o4, %o5}, %r2
",
        6,
    );
    assert_eq!(got, vec![0x8000_0000, 0, 0xffff_fff8, 0xffff_ffff, 0x567, 0]);
}

#[test]
fn bfind_finds_the_most_significant_non_sign_bit() {
    let got = one_lane(
        ".reg %a\n.reg.b64 %w",
        "        mov.u32 %a, 0
        bfind.u32 %o0, %a
        bfind.shiftamt.u32 %o1, %a
        mov.u32 %a, 1
        bfind.u32 %o2, %a
        bfind.shiftamt.u32 %o3, %a
        mov.u32 %a, 0x80000000
        bfind.u32 %o4, %a
        bfind.s32 %o5, %a
        mov.u32 %a, -1
        bfind.s32 %o6, %a
        mov.u32 %a, -2
        bfind.s32 %o7, %a
        mov.b64 %w, 0x4000000000000000
        bfind.u64 %o8, %w
        bfind.shiftamt.s64 %o9, %w
        mov.b64 %w, -1
        bfind.s64 %o10, %w
",
        11,
    );
    assert_eq!(
        got,
        vec![u32::MAX, u32::MAX, 0, 31, 31, 30, u32::MAX, 0, 62, 1, u32::MAX]
    );
}

#[test]
fn prmt_picks_and_sign_replicates_bytes() {
    let got = one_lane(
        ".reg %a, %b",
        "        mov.u32 %a, 0x03020180
        mov.u32 %b, 0x07060504
        prmt.b32 %o0, %a, %b, 0x3210
        prmt.b32 %o1, %a, %b, 0x7654
        prmt.b32 %o2, %a, %b, 0x0123
        prmt.b32 %o3, %a, %b, 0x0008
        prmt.b32 %o4, %a, %b, 0x9a40
",
        5,
    );
    assert_eq!(
        got,
        vec![0x0302_0180, 0x0706_0504, 0x8001_0203, 0x8080_80ff, 0x0000_0480]
    );
}

#[test]
fn popc_clz_brev_in_64_bits() {
    let got = one_lane(
        ".reg.b64 %a, %r",
        "        mov.b64 %a, -1
        popc.b64 %o0, %a
        clz.b64 %o1, %a
        mov.b64 %a, 1
        popc.b64 %o2, %a
        clz.b64 %o3, %a
        brev.b64 %r, %a
        mov.b64 {%o4, %o5}, %r
        mov.b64 %a, 0
        clz.b64 %o6, %a
        mov.b64 %a, 0x00000000f0000001
        brev.b64 %r, %a
        mov.b64 {%o7, %o8}, %r
",
        9,
    );
    assert_eq!(got, vec![64, 0, 1, 63, 0, 0x8000_0000, 64, 0, 0x8000_000f]);
}

/// The 64-bit `bfe` takes the whole 32-bit position and length on the GPU (measured on an H100), where the
/// 32-bit one takes their low bytes as PTX's text says.
#[test]
fn bfe_64_takes_whole_position_and_length() {
    let got = one_lane(
        ".reg %a\n.reg.b64 %w, %r<3>",
        "        mov.b64 %w, -1
        bfe.u64 %r0, %w, 0x104, 0x208
        bfe.u64 %r1, %w, 0, 0x80000000
        mov.b64 %w, 0x8000000000000000
        bfe.s64 %r2, %w, 0x80000000, 1
        mov.b64 {%o0, %o1}, %r0
        mov.b64 {%o2, %o3}, %r1
        mov.b64 {%o4, %o5}, %r2
        mov.u32 %a, -1
        bfe.u32 %o6, %a, 0x104, 0x208
",
        7,
    );
    assert_eq!(got, vec![0, 0, u32::MAX, u32::MAX, u32::MAX, u32::MAX, 0xff]);
}

#[test]
fn bfi_inserts_the_low_bits_of_a_into_b() {
    let got = one_lane(
        ".reg %a, %b\n.reg.b64 %x, %y, %r",
        "        mov.u32 %a, 0xabcd
        mov.u32 %b, 0xffffffff
        bfi.b32 %o0, %a, %b, 8, 8
        bfi.b32 %o1, %a, %b, 28, 8
        bfi.b32 %o2, %a, %b, 40, 8
        bfi.b32 %o3, %a, %b, 4, 0
        bfi.b32 %o4, %a, 0, 0x104, 0x210
        mov.b64 %x, 0xabcd
        mov.b64 %y, 0
        bfi.b64 %r, %x, %y, 56, 16
        mov.b64 {%o5, %o6}, %r
        bfi.b64 %r, %x, %y, 0x104, 8
        mov.b64 {%o7, %o8}, %r
        bfi.b64 %r, %x, -1, 60, 0x80000000
        mov.b64 {%o9, %o10}, %r
",
        11,
    );
    assert_eq!(
        got,
        vec![
            0xffff_cdff, // bits 8-15 of b replaced by a's low byte 0xcd
            0xdfff_ffff, // bits 28-31 by a's low nibble 0xd, the rest of the field past bit 31 dropped
            0xffff_ffff, // pos past the top: b unchanged
            0xffff_ffff, // len 0: b unchanged
            0x000a_bcd0, // pos and len are their low bytes: 4 and 16 (all 16 bits of a)
            0,
            0xcd00_0000, // bits 56-63 of the 64-bit b: a's low byte
            0,           // the 64-bit form takes the whole position (as the H100 does): 0x104 is past the top
            0,
            u32::MAX, // and the whole length: bits 60-63 from a's low nibble 0xd
            0xdfff_ffff,
        ]
    );
}

/// `fns.b32` on PTX's own examples (mask 0xaaaaaaaa: the odd bits) and at the ends: offset 0 is the base itself
/// if set; a search that runs off bit 0 or bit 31 finds nothing (0xffffffff).
#[test]
fn fns_finds_the_nth_set_bit_up_or_down_from_base() {
    use std::fmt::Write as _;
    let cases: [(u32, u32, i32, u32); 10] = [
        (0xaaaa_aaaa, 3, 1, 3),
        (0xaaaa_aaaa, 3, -1, 3),
        (0xaaaa_aaaa, 2, 1, 3),
        (0xaaaa_aaaa, 2, -1, 1),
        (0xaaaa_aaaa, 2, 0, u32::MAX),
        (0xaaaa_aaaa, 5, 0, 5),
        (0xaaaa_aaaa, 0, 3, 5),
        (0xaaaa_aaaa, 31, 2, u32::MAX),
        (0xaaaa_aaaa, 7, -4, 1),
        (0xaaaa_aaaa, 7, -5, u32::MAX),
    ];
    let mut src = String::from(".block 32\n.buffer out u32[32]\n.reg %v\n");
    for (k, (mask, base, offset, _)) in cases.iter().enumerate() {
        let _ = write!(
            src,
            " fns.b32 %v, {mask}, {base}, {offset}\n st.global.u32 out[{k}], %v\n"
        );
    }
    let (out, _) = warpsim_tests::run_text(&src, 32);
    let got = warpsim_tests::u32s(&out.expect("runs"), "out");
    for (k, (mask, base, offset, want)) in cases.iter().enumerate() {
        assert_eq!(got[k], *want, "fns.b32 {mask:#x}, {base}, {offset}");
    }
}
