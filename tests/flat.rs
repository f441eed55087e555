//! Flat (PTX-style) addresses (issue 21): `[%rd + disp]` in `.global`, `.shared`, `.local` and generic
//! accesses, `.local BYTES`, buffer and shared-array names as immediates. Exact values, every fault, the race
//! check through flat shared addresses, and the same computation through flat and through `buf[%i]`-style
//! addressing giving the same values and cycles.

use warpsim::{Checks, Config, FaultKind, FindingKind, Launch, RunOptions, RunOutput};
use warpsim_isa::address::{LOCAL_WINDOW, SHARED_WINDOW, buffer_base};
use warpsim_tests::{assemble, f32s, run_text, u32s};

/// Run `text` at warp size `w`; panics on a fault.
fn ok(text: &str, w: u32) -> RunOutput {
    run_text(text, w).0.unwrap_or_else(|f| panic!("{}", f.message()))
}

/// Run `text` at warp size `w` with every instruction timed as written (`timing.dead_code` off).
fn as_written(text: &str, w: u32) -> RunOutput {
    let config = warpsim_tests::as_written().with_warp_size(w);
    warpsim::simulate(&assemble(text), &config, &Launch::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Run `text` at warp size `w` and return its fault.
fn fault(text: &str, w: u32) -> warpsim::Fault {
    match run_text(text, w).0 {
        Ok(_) => panic!("expected a fault"),
        Err(f) => f,
    }
}

/// Run `text` with `checks`.
fn checked(text: &str, w: u32, checks: Checks) -> RunOutput {
    let program = assemble(text);
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let options = RunOptions {
        checks,
        ..RunOptions::default()
    };
    warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace).expect("runs")
}

const SAXPY: &str = "
.grid 2
.block 64
.param a = 2
.buffer x f32[128] = i
.buffer y f32[128] = 1 + i * 0.5
.buffer out f32[128]
.reg %i, %f1, %f2, %f3
.reg.b64 %rd1, %rd2, %rd3, %off
    mad.lo.u32 %i, %ctaid.x, %ntid.x, %tid.x
    mul.wide.u32 %off, %i, 4
    mov.b64 %rd1, x
    add.s64 %rd1, %rd1, %off
    mov.b64 %rd2, y + 8
    add.s64 %rd2, %rd2, %off
    mov.b64 %rd3, out
    add.s64 %rd3, %rd3, %off
    ld.global.f32 %f1, [%rd1]
    ld.f32 %f2, [%rd2 - 8]
    fma.rn.f32 %f3, %f1, a, %f2
    st.global.f32 [%rd3], %f3
";

#[test]
fn saxpy_through_pointers() {
    for w in [8, 32] {
        let out = ok(SAXPY, w);
        let want: Vec<f32> = (0..128i16)
            .map(|i| 2.0 * f32::from(i) + (1.0 + f32::from(i) * 0.5))
            .collect();
        assert_eq!(f32s(&out, "out"), want, "W={w}");
    }
}

#[test]
fn buffer_and_shared_names_are_addresses() {
    let text = "
.block 1
.buffer a u32[4]
.buffer b u32[4]
.buffer out u32[8]
.shared s1 u32[3]
.shared s2 u64[2]
.reg %lo, %hi, %t
.reg.b64 %rd
    mov.b64 %rd, a
    mov.b64 {%lo, %hi}, %rd
    st.global.u32 out[0], %lo
    st.global.u32 out[1], %hi
    mov.b64 %rd, b + 12
    mov.b64 {%lo, %hi}, %rd
    st.global.u32 out[2], %lo
    st.global.u32 out[3], %hi
    mov.u32 %t, s1
    st.global.u32 out[4], %t
    mov.u32 %t, s2
    st.global.u32 out[5], %t
    mov.u32 %t, s2 + 8
    st.global.u32 out[6], %t
";
    let out = ok(text, 2);
    let (a, b) = (buffer_base(0), buffer_base(1) + 12);
    #[allow(clippy::cast_possible_truncation, reason = "the halves")]
    let want = vec![a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32, 0, 12, 20, 0];
    assert_eq!(u32s(&out, "out"), want);
    assert_eq!((a, b), (1 << 32, (2 << 32) + 12));
}

/// A block sum through shared memory with a tree of barriers, in two spellings: `[part + %t]` (the array's
/// name and a byte offset) and `[%t]` (a flat shared address: the offset in the block's shared memory), and
/// the loads and stores of global memory `[in + %off]` or `[%rd]`. Both compute every address register the
/// same way, so the two differ only in the operands of the memory instructions.
fn tree_sum(flat: bool) -> String {
    let (ld_in, st_part, ld_part, st_out) = if flat {
        ("[%rd]", "[%t]", "[%t2]", "[%ro]")
    } else {
        ("[in + %off]", "[part + %t]", "[part + %t2]", "[out + %oo]")
    };
    format!(
        "
.grid 3
.block 128
.buffer in u32[384] = i * 3 + 1
.buffer out u32[3]
.shared pad u32[5]
.shared part u32[128]
.reg %i, %t, %t2, %v, %w, %off, %oo, %s, %sb
.reg.b64 %rd, %ro
.pred %p, %more
    mad.lo.u32 %i, %ctaid.x, %ntid.x, %tid.x
    mov.b64 %rd, in
    mad.wide.u32 %rd, %i, 4, %rd
    mov.b64 %ro, out
    mad.wide.u32 %ro, %ctaid.x, 4, %ro
    shl.b32 %off, %i, 2
    shl.b32 %oo, %ctaid.x, 2
    mov.u32 %sb, part
    shl.b32 %t, %tid.x, 2
    add.u32 %t, %t, %sb
    ld.global.u32 %v, {ld_in}
    st.shared.u32 {st_part}, %v
    mov.u32 %s, 64
loop:
    bar.sync 0
    setp.lt.u32 %p, %tid.x, %s
    shl.b32 %t2, %s, 2
    add.u32 %t2, %t2, %t
    @%p ld.shared.u32 %w, {ld_part}
    @%p ld.shared.u32 %v, {st_part}
    @%p add.u32 %v, %v, %w
    @%p st.shared.u32 {st_part}, %v
    shr.u32 %s, %s, 1
    setp.ne.u32 %more, %s, 0
    @%more bra loop
    setp.eq.u32 %p, %tid.x, 0
    @%p st.global.u32 {st_out}, %v
"
    )
    .replace("[part + %t]", if flat { "[%t]" } else { "[part + %t - 20]" })
    .replace("[part + %t2]", if flat { "[%t2]" } else { "[part + %t2 - 20]" })
}

#[test]
fn shared_reduction_through_offsets_matches_named_addressing() {
    let want: Vec<u32> = (0..3u32)
        .map(|b| (b * 128..b * 128 + 128).map(|i| i * 3 + 1).sum())
        .collect();
    for w in [16, 32] {
        // (Each form leaves the other's address registers unread: timed as written, so that the dead-code model
        // does not tell them apart.)
        let flat = as_written(&tree_sum(true), w);
        let named = as_written(&tree_sum(false), w);
        assert_eq!(u32s(&flat, "out"), want, "W={w}");
        assert_eq!(u32s(&named, "out"), want, "W={w}");
        // The same computation: the same cycles, statistics (bank conflicts, L1 hits) and stalls.
        assert_eq!(flat.cycles, named.cycles, "W={w}");
        assert_eq!(format!("{:?}", flat.stats), format!("{:?}", named.stats), "W={w}");
    }
}

#[test]
fn local_array_indexed_per_thread() {
    // Each thread fills its own 8-word local array with tid * k, reads back element tid % 8 and a 64-bit pair.
    let text = "
.block 64
.local 40
.buffer out u32[64]
.buffer pair u64[64]
.reg %k, %v, %a, %t
.reg.b64 %d, %rd
.pred %more
    mov.u32 %k, 0
fill:
    mul.lo.u32 %v, %tid.x, %k
    shl.b32 %a, %k, 2
    st.local.u32 [%a], %v
    add.u32 %k, %k, 1
    setp.lt.u32 %more, %k, 8
    @%more bra fill
    and.b32 %t, %tid.x, 7
    shl.b32 %a, %t, 2
    ld.local.u32 %v, [%a]
    st.global.u32 out[%tid.x], %v
    cvt.u64.u32 %d, %tid.x
    st.local.u64 [%k + 24], %d
    mov.u32 %k, 32
    ld.local.u64 %d, [%k]
    mov.b64 %rd, pair
    mad.wide.u32 %rd, %tid.x, 8, %rd
    st.global.u64 [%rd], %d
";
    for w in [4, 32] {
        let out = ok(text, w);
        let want: Vec<u32> = (0..64).map(|t| t * (t % 8)).collect();
        assert_eq!(u32s(&out, "out"), want, "W={w}");
        let pair: Vec<u64> = out.buffer("pair").unwrap().elements().collect();
        assert_eq!(pair, (0..64).collect::<Vec<u64>>(), "W={w}");
        // Local memory is no buffer of the run.
        assert_eq!(
            out.buffers.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
            ["out", "pair"]
        );
    }
}

#[test]
fn local_memory_is_timed_through_the_l1_which_keeps_its_stores() {
    // One warp stores a word per lane at local offset 0, then loads it twice and adds the two: the lanes' words are interleaved
    // (one 128-byte line for 32 lanes). A local store puts its sectors in L1 (measured on an H200:
    // calibration/measured/local-store-load-h200-2026-11-28.txt), so both loads hit.
    let text = "
.block 32
.local 4
.buffer out u32[32]
.reg %a, %v, %w
    mov.u32 %a, 0
    st.local.u32 [%a], %tid.x
    ld.local.u32 %v, [%a]
    ld.local.u32 %w, [%a]
    add.u32 %v, %v, %w
    st.global.u32 out[%tid.x], %v
";
    let out = ok(text, 32);
    assert_eq!(u32s(&out, "out"), (0..32).map(|t| 2 * t).collect::<Vec<_>>());
    assert_eq!((out.stats.l1_misses, out.stats.l1_hits), (0, 2));
    // The same through a global buffer: the store does not allocate, the first load misses, the second hits.
    let global = "
.block 32
.buffer scratch u32[32]
.buffer out u32[32]
.reg %a, %v, %w
    shl.b32 %a, %tid.x, 2
    st.global.u32 [scratch + %a], %tid.x
    ld.global.u32 %v, scratch[%tid.x]
    ld.global.u32 %w, scratch[%tid.x]
    add.u32 %v, %v, %w
    st.global.u32 out[%tid.x], %v
";
    let g = ok(global, 32);
    assert_eq!((g.stats.l1_misses, g.stats.l1_hits), (1, 1));
    assert!(out.cycles < g.cycles, "{} against {}", out.cycles, g.cycles);
}

#[test]
fn generic_pointers_reach_every_window() {
    let text = format!(
        "
.block 32
.local 8
.buffer g u32[32] = 100 + i
.buffer out u32[96]
.shared s u32[32]
.reg %v, %a
.reg.b64 %rd, %off
    mul.wide.u32 %off, %tid.x, 4
    // shared: the window plus the array's offset
    mov.b64 %rd, {SHARED_WINDOW}
    add.s64 %rd, %rd, %off
    mad.lo.u32 %v, %tid.x, 2, 7
    st.u32 [%rd], %v
    ld.shared.u32 %v, s[%tid.x]
    st.global.u32 out[%tid.x], %v
    // local: the window plus the offset
    mov.b64 %rd, {LOCAL_WINDOW} + 4
    add.u32 %v, %tid.x, 1000
    st.u32 [%rd], %v
    mov.u32 %a, 4
    ld.local.u32 %v, [%a]
    add.u32 %a, %tid.x, 32
    st.global.u32 out[%a], %v
    // global: the buffer's address
    mov.b64 %rd, g
    add.s64 %rd, %rd, %off
    ld.u32 %v, [%rd]
    add.u32 %a, %tid.x, 64
    st.global.u32 out[%a], %v
"
    );
    let out = ok(&text, 32);
    let mut want: Vec<u32> = (0..32).map(|t| t * 2 + 7).collect();
    want.extend((0..32).map(|t| t + 1000));
    want.extend((0..32).map(|t| t + 100));
    assert_eq!(u32s(&out, "out"), want);
}

#[test]
fn atomics_through_flat_addresses() {
    let text = format!(
        "
.grid 4
.block 64
.buffer count u32[2]
.buffer tickets u32[256]
.buffer out u32[4]
.shared c u32[2]
.reg %i, %old, %z, %v
.reg.b64 %rd, %rt, %rs
.pred %p
    mad.lo.u32 %i, %ctaid.x, %ntid.x, %tid.x
    mov.b64 %rd, count
    atom.global.add.u32 %old, [%rd], 1
    mov.b64 %rt, tickets
    mul.wide.u32 %rs, %old, 4
    add.s64 %rt, %rt, %rs
    st.global.u32 [%rt], %i
    red.add.u32 [%rd + 4], 2
    mov.u32 %z, c
    atom.shared.add.u32 %old, [%z + 4], 3
    mov.b64 %rs, {SHARED_WINDOW}
    atom.add.u32 %v, [%rs], 1
    bar.sync 0
    setp.eq.u32 %p, %tid.x, 0
    @%p ld.shared.u32 %v, [%z]
    @%p ld.shared.u32 %old, [%z + 4]
    @%p add.u32 %v, %v, %old
    @%p st.global.u32 out[%ctaid.x], %v
"
    );
    for w in [8, 32] {
        let out = ok(&text, w);
        assert_eq!(u32s(&out, "count"), vec![256, 512], "W={w}");
        // Every thread drew a distinct ticket: the tickets hold a permutation of the threads.
        let mut t = u32s(&out, "tickets");
        t.sort_unstable();
        assert_eq!(t, (0..256).collect::<Vec<_>>(), "W={w}");
        assert_eq!(u32s(&out, "out"), vec![64 + 64 * 3; 4], "W={w}");
    }
}

/// The one lane 0 of a one-warp block runs `body` (after the declarations).
fn one_lane(decls: &str, body: &str) -> String {
    format!(".block 4\n{decls}\n.pred %first\n    setp.eq.u32 %first, %laneid, 0\n    @!%first exit\n{body}")
}

#[test]
fn each_flat_fault() {
    let decls = ".buffer buf u32[8]\n.buffer wide u64[2]\n.shared s u32[4]\n.shared t u32[2]\n.local 16\n.reg %v, %a\n.reg.b64 %rd";
    let cases: Vec<(&str, FaultKind, &str)> = vec![
        (
            "mov.b64 %rd, 0\n ld.global.u32 %v, [%rd]",
            FaultKind::NoBuffer {
                address: 0,
                generic: false,
                store: false,
            },
            "load from address 0x0000000000000000 (a null pointer): it is in no buffer",
        ),
        (
            "mov.b64 %rd, buf\n st.global.u32 [%rd + 32], %v",
            FaultKind::OutOfBounds {
                buffer: "buf".into(),
                shared: false,
                index: 8,
                len: 8,
                store: true,
            },
            "out-of-bounds store to `buf`: element 8, but `buf` has 8 elements (0..8)",
        ),
        (
            "mov.b64 %rd, buf\n ld.global.u32 %v, [%rd - 4]",
            FaultKind::NoBuffer {
                address: buffer_base(0) - 4,
                generic: false,
                store: false,
            },
            "load from address 0x00000000fffffffc: it is in no buffer",
        ),
        (
            "mov.b64 %rd, wide\n ld.global.u64 %rd, [%rd + 4]",
            FaultKind::Misaligned {
                buffer: "wide".into(),
                shared: false,
                byte_offset: 4,
                width: 8,
                store: false,
            },
            "misaligned load from `wide`: byte offset 4 is not a multiple of 8",
        ),
        (
            "mov.b64 %rd, 0x2000000000000\n ld.u32 %v, [%rd]",
            FaultKind::NoBuffer {
                address: 0x2_0000_0000_0000,
                generic: true,
                store: false,
            },
            "load from address 0x0002000000000000: it is in no buffer, nor in the shared or the local window",
        ),
        (
            "mov.u32 %a, 24\n st.shared.u32 [%a], %v",
            FaultKind::Window {
                local: false,
                offset: 24,
                width: 4,
                size: 24,
                misaligned: false,
                array: None,
                store: true,
            },
            "out-of-bounds store to shared memory: bytes 24..28, but the block's shared memory has 24 bytes",
        ),
        (
            "mov.u32 %a, t\n ld.shared.u32 %v, [%a + 2]",
            FaultKind::Window {
                local: false,
                offset: 18,
                width: 4,
                size: 24,
                misaligned: true,
                array: Some("t".into()),
                store: false,
            },
            "misaligned load from shared memory: byte offset 18 (in shared array `t`) is not a multiple of 4",
        ),
        (
            "mov.u32 %a, 16\n ld.local.u32 %v, [%a]",
            FaultKind::Window {
                local: true,
                offset: 16,
                width: 4,
                size: 16,
                misaligned: false,
                array: None,
                store: false,
            },
            "out-of-bounds load from local memory: bytes 16..20, but the thread's local memory has 16 bytes",
        ),
        // 8- and 16-bit accesses: aligned to their size, bounded in their units; the byte form too.
        (
            "mov.b64 %rd, buf\n st.global.u16 [%rd + 33], %v",
            FaultKind::Misaligned {
                buffer: "buf".into(),
                shared: false,
                byte_offset: 33,
                width: 2,
                store: true,
            },
            "misaligned store to `buf`: byte offset 33 is not a multiple of 2",
        ),
        (
            "mov.b64 %rd, buf\n ld.global.s8 %v, [%rd + 32]",
            FaultKind::OutOfBounds {
                buffer: "buf".into(),
                shared: false,
                index: 32,
                len: 32,
                store: false,
            },
            "out-of-bounds load from `buf`: element 32, but `buf` has 32 elements (0..32)",
        ),
        (
            "mov.u32 %a, 31\n ld.global.u16 %v, [buf + %a]",
            FaultKind::Misaligned {
                buffer: "buf".into(),
                shared: false,
                byte_offset: 31,
                width: 2,
                store: false,
            },
            "misaligned load from `buf`: byte offset 31 is not a multiple of 2",
        ),
        (
            "mov.u32 %a, 16\n st.shared.u16 [s + %a], %v",
            FaultKind::OutOfBounds {
                buffer: "s".into(),
                shared: true,
                index: 8,
                len: 8,
                store: true,
            },
            "out-of-bounds store to shared array `s`: element 8, but `s` has 8 elements (0..8)",
        ),
        (
            &*Box::leak(format!("mov.b64 %rd, {LOCAL_WINDOW}\n atom.add.u32 %v, [%rd], 1").into_boxed_str()),
            FaultKind::LocalAtomic,
            "atomic on local memory: PTX defines atomics on global and shared memory only",
        ),
    ];
    for (body, kind, message) in cases {
        let text = one_lane(decls, body);
        let f = fault(&text, 4);
        assert_eq!(f.kind, kind, "{body}");
        assert_eq!((f.lane, f.warp, f.block), (Some(0), 0, 0), "{body}");
        assert!(f.message().starts_with(message), "{body}: {}", f.message());
    }
}

#[test]
fn lanes_reaching_different_spaces_fault() {
    // Lane 0 a shared address, lane 1 a global one, through one generic load.
    let text = format!(
        "
.block 2
.buffer g u32[2]
.shared s u32[2]
.reg %v
.reg.b64 %rd, %alt
.pred %odd
    mov.b64 %rd, {SHARED_WINDOW}
    mov.b64 %alt, g
    setp.eq.u32 %odd, %laneid, 1
    @%odd mov.b64 %rd, %alt
    ld.u32 %v, [%rd]
"
    );
    let f = fault(&text, 2);
    assert_eq!(
        f.kind,
        FaultKind::MixedSpaces {
            first: "shared memory".into(),
            other: "buffer `g`".into(),
            first_lane: 0,
        }
    );
    assert_eq!(f.lane, Some(1));
}

#[test]
fn race_check_sees_flat_shared_accesses() {
    // tree_sum without its barrier: warps read partial sums other warps store, unordered.
    let racy = tree_sum(true).replace("    bar.sync 0\n", "");
    let out = checked(
        &racy,
        32,
        Checks {
            race: true,
            ..Checks::default()
        },
    );
    let found = out.findings.iter().find_map(|f| match &f.kind {
        FindingKind::Race { array, global, .. } => Some((array.clone(), *global)),
        _ => None,
    });
    assert_eq!(found, Some(("part".to_string(), false)), "{:#?}", out.findings);
    // With the barrier, nothing.
    let clean = checked(
        &tree_sum(true),
        32,
        Checks {
            race: true,
            ..Checks::default()
        },
    );
    assert_eq!(clean.findings, vec![]);
}

#[test]
fn flat_forms_print_and_assemble_back() {
    let text =
        format!(".block 32\n.local 24\n.buffer b f32[32]\n.shared s u32[32]\n.reg %r, %f\n.reg.b64 %rd\n{SAXPY_LIKE}");
    let p = assemble(&text);
    assert_eq!(p.local_bytes, 24);
    let printed = warpsim_isa::print(&p);
    for form in [
        "ld.global.f32 %f, [%rd]",
        "ld.global.f32 %f, [%rd + 8]",
        "ld.global.f32 %f, [%rd + -4]",
        "ld.shared.u32 %r, [%r + 4]",
        "ld.local.f32 %f, [%r]",
        "ld.f32 %f, [%rd]",
        "st.f32 [%rd], %f",
        "atom.add.u32 %r, [%rd], 1",
        "red.shared.add.u32 [%r], 1",
        "mov.b64 %rd, (b + 16)",
        "mov.u32 %r, s",
        ".local 24",
    ] {
        assert!(printed.contains(form), "{form} not in:\n{printed}");
    }
    let again = assemble(&printed);
    assert!(p.equivalent(&again), "{printed}");
}

const SAXPY_LIKE: &str = "
    mov.b64 %rd, b + 16
    mov.u32 %r, s
    ld.global.f32 %f, [%rd]
    ld.global.f32 %f, [%rd + 8]
    ld.global.f32 %f, [%rd - 4]
    ld.shared.u32 %r, [%r + 4]
    ld.local.f32 %f, [%r]
    ld.f32 %f, [%rd]
    st.f32 [%rd], %f
    atom.add.u32 %r, [%rd], 1
    red.shared.add.u32 [%r], 1
";

#[test]
fn flat_syntax_errors_are_clear() {
    let cases = [
        (
            ".buffer b u32[4]\n.reg %r, %v\n ld.global.u32 %v, [%r]",
            "a global address is 64 bits wide: `%r` is a 32-bit register",
        ),
        (
            ".buffer b u32[4]\n.reg %v\n.reg.b64 %rd\n ld.u32 %v, b[0]",
            "a generic access (no state space) takes a register address `[%rd + offset]`",
        ),
        (
            ".reg %v\n atom.local.add.u32 %v, [%v], 1",
            "`atom` has no `.local` form",
        ),
        (".local 0\n", "`.local` needs a size in bytes"),
        (".local 8\n.local 8\n", "`.local` given twice"),
    ];
    for (text, message) in cases {
        let e = warpsim_isa::parse("t.s", text, &warpsim::programs::Resolver).expect_err(text);
        let shown = e.render(false);
        assert!(shown.contains(message), "{text}:\n{shown}");
    }
}

#[test]
fn sm_clock64_and_shared_memory_size_registers() {
    let text = "
.grid 4
.block 32
.buffer out u32[24]
.shared a u32[10]
.shared d u64[]
.reg %v, %k, %lo, %hi, %lo2, %hi2
.reg.b64 %c1, %c2
.pred %p
    setp.ne.u32 %p, %tid.x, 0
    @%p exit
    mul.lo.u32 %k, %ctaid.x, 6
    mov.u32 %v, %smid
    st.global.u32 out[%k], %v
    mov.u32 %v, %nsmid
    st.global.u32 out[%k + 1], %v
    mov.u32 %v, %dynamic_smem_size
    st.global.u32 out[%k + 2], %v
    mov.u32 %v, %total_smem_size
    st.global.u32 out[%k + 3], %v
    mov.u64 %c1, %clock64
    mov.u64 %c2, %clock64
    sub.s64 %c2, %c2, %c1
    mov.b64 {%lo, %hi}, %c2
    st.global.u32 out[%k + 4], %lo
    mov.b64 {%lo2, %hi2}, %c1
    st.global.u32 out[%k + 5], %hi2
";
    let program = assemble(text);
    let config = Config::hopper();
    let launch = Launch {
        dynamic_shared: Some(48),
        ..Launch::default()
    };
    let kernel = warpsim::instantiate(&program, &config, &launch).expect("loads");
    let run = || warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    let out = run();
    let got = u32s(&out, "out");
    for b in 0..4u32 {
        let row = &got[b as usize * 6..b as usize * 6 + 6];
        // Blocks are dealt to the SMs in order, one each on an idle GPU.
        assert_eq!(row[0], b, "block {b}: %smid");
        assert_eq!(row[1], config.sms, "block {b}: %nsmid");
        assert_eq!((row[2], row[3]), (48, 40 + 48), "block {b}: shared memory sizes");
        // The clock moved on between the two reads, by the clock unit's latency (a dependent `mov`), and its
        // high half is 0 this early.
        assert!(row[4] > 0, "block {b}: {row:?}");
        assert_eq!(row[5], 0, "block {b}");
    }
    // Deterministic.
    assert_eq!(u32s(&run(), "out"), got);
    // `%clock64` is a 64-bit source.
    let e = warpsim_isa::parse("t.s", ".reg %v\n mov.u32 %v, %clock64", &warpsim::programs::Resolver)
        .expect_err("32-bit use");
    assert!(
        e.render(false).contains("`%clock64` is 64 bits wide"),
        "{}",
        e.render(false)
    );
}
