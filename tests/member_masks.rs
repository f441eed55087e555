//! Member masks from registers (issue 20, item 4): every warp-synchronous instruction (`shfl.sync`,
//! `vote.sync`, `match.sync`, `bar.warp.sync`) takes its member mask from a register, a special register or a
//! constant; the values are exact, the same as with the constant mask, and `--check sync` reports what PTX
//! leaves undefined.

use warpsim::{Checks, Config, FindingKind, Kernel, Launch, MaskReason, RunOptions, RunOutput};
use warpsim_tests::u32s;

fn kernel(text: &str, w: u32) -> Kernel {
    let program = warpsim_tests::assemble(text);
    warpsim::instantiate(&program, &Config::hopper().with_warp_size(w), &Launch::default())
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)))
}

fn run(k: &Kernel, checks: Checks) -> Result<RunOutput, warpsim::Fault> {
    let config = Config::hopper().with_warp_size(k.warp_size);
    let options = RunOptions {
        checks,
        ..RunOptions::default()
    };
    warpsim::run(k, &config, &options, &mut warpsim::NoTrace)
}

fn sync() -> Checks {
    Checks {
        sync: true,
        ..Checks::default()
    }
}

/// The lanes below 8 take a path where `activemask` gives their mask, and use it in every `.sync` instruction.
const ON_A_PATH: &str = "
.buffer shf u32[W]
.buffer bal u32[W]
.buffer any u32[W]
.buffer all u32[W]
.reg %m, %v, %r, %x
.pred %low, %odd, %p
        setp.lt.u32     %low, %laneid, 8
        and.b32         %v, %laneid, 1
        setp.ne.u32     %odd, %v, 0
        @!%low bra      high
        activemask.b32  %m
        add.u32         %v, %laneid, 100
        shfl.sync.idx.b32 %r, %v, 3, mask=%m
        st.global.u32   shf[%laneid], %r
        vote.sync.ballot.b32 %x, %odd, %m
        st.global.u32   bal[%laneid], %x
        shr.u32         %v, %laneid, 2
        match.sync.any.b32 %x, %v, mask=%m
        st.global.u32   any[%laneid], %x
        vote.sync.all.pred %p, %low, %m
        selp.u32        %x, 1, 2, %p
        bar.warp.sync   %m
        st.global.u32   all[%laneid], %x
high:
";

#[test]
fn activemask_composes_with_every_sync_instruction() {
    let k = kernel(ON_A_PATH, 16);
    let out = run(&k, Checks::all()).expect("runs");
    let z = [0u32; 8];
    let with = |v: [u32; 8]| [v, z].concat();
    assert_eq!(u32s(&out, "shf"), with([103; 8]));
    assert_eq!(u32s(&out, "bal"), with([0xaa; 8]));
    assert_eq!(
        u32s(&out, "any"),
        with([0x0f, 0x0f, 0x0f, 0x0f, 0xf0, 0xf0, 0xf0, 0xf0])
    );
    assert_eq!(u32s(&out, "all"), with([1; 8]));
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(out.stats.undefined_shuffle_reads, 0);
    // The same values as the constant mask 0xff.
    let constant = ON_A_PATH
        .replace("mask=%m", "mask=0xff")
        .replace(", %m\n", ", 0xff\n")
        .replace("bar.warp.sync   %m", "bar.warp.sync   0xff");
    assert_eq!(
        constant.matches("%m").count(),
        2,
        "only the declaration and activemask: {constant}"
    );
    let same = run(&kernel(&constant, 16), Checks::all()).expect("runs");
    for b in ["shf", "bal", "any", "all"] {
        assert_eq!(u32s(&out, b), u32s(&same, b), "{b}");
    }
    assert_eq!(
        out.cycles, same.cycles,
        "a register mask costs what a constant one does"
    );
}

#[test]
fn a_register_mask_is_read_per_lane_and_names_lanes_0_to_31_only() {
    // At W = 64 a register holds 32 bits: lanes 32-63 are never in it. Every lane names 0xffffffff, so the
    // ballot of lanes 32-63 (the upper half votes yes) is empty and the vote `any` is false.
    let text = "
.buffer out u32[W]
.reg %m, %x
.pred %hi, %p
        setp.ge.u32     %hi, %laneid, 32
        @%hi bra        skip
        mov.u32         %m, 0xffffffff
        vote.sync.ballot.b32 %x, %hi, %m
        vote.sync.any.pred %p, %hi, %m
        selp.u32        %x, 7, %x, %p
        st.global.u32   out[%laneid], %x
skip:
";
    let out = run(&kernel(text, 64), sync()).expect("runs");
    assert_eq!(u32s(&out, "out"), [vec![0; 32], vec![0; 32]].concat());
    assert!(out.findings.is_empty(), "{:?}", out.findings);
}

/// The findings of `--check sync`: (pc, lanes, first lane, reason).
fn findings(out: &RunOutput) -> Vec<(u32, u64, u32, MaskReason)> {
    out.findings
        .iter()
        .map(|f| match f.kind {
            FindingKind::MemberMask { lanes, lane, reason } => (f.pc, lanes, lane, reason),
            ref other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn sync_check_reports_what_ptx_leaves_undefined() {
    let text = "
.buffer out u32[W]
.reg %m, %r
.pred %p, %low
        mov.u32         %m, 0x0f
        shfl.sync.idx.b32 %r, %laneid, 0, mask=%m
        mov.u32         %m, %lanemask_le
        vote.sync.ballot.b32 %r, %p, %m
        setp.lt.u32     %low, %laneid, 4
        @%low match.sync.any.b32 %r, %laneid, 0xff
        st.global.u32   out[%laneid], %r
";
    let k = kernel(text, 8);
    let out = run(&k, sync()).expect("runs");
    assert_eq!(
        findings(&out),
        vec![
            // Lanes 4-7 execute a shuffle whose mask 0x0f leaves them out.
            (1, 0xf0, 4, MaskReason::NotMember),
            // Lane k names lanes 0..=k: lanes 1-7 differ from lane 0 (mask 0x1).
            (
                3,
                0xfe,
                1,
                MaskReason::Differ {
                    first: 0,
                    first_mask: 0x1,
                    mask: 0x3
                }
            ),
            // The guard leaves lanes 4-7 out of a match whose mask names them.
            (5, 0xf0, 4, MaskReason::Absent),
        ]
    );
    let f = &out.findings[2];
    assert_eq!(f.check(), "sync");
    assert_eq!(
        f.message(),
        "member mask: it names lanes 4-7 that do not execute the instruction (on another path or guarded off): on sm_70 and later the lanes that execute it would wait for them"
    );
    // The checks change no value: lane k's ballot of the all-false %p is 0, then match.any over lanes 0-3 gives
    // each of them its own bit; lanes 4-7 keep their ballot.
    let plain = run(&k, Checks::default()).expect("runs");
    assert_eq!(u32s(&out, "out"), u32s(&plain, "out"));
    assert_eq!(u32s(&out, "out"), vec![1, 2, 4, 8, 0, 0, 0, 0]);
}

#[test]
fn a_register_mask_in_bar_warp_sync_faults_on_lanes_that_are_elsewhere() {
    let text = "
.reg %m
.pred %low
        mov.u32         %m, 0xffff
        setp.lt.u32     %low, %laneid, 8
        @!%low bra      skip
        bar.warp.sync   %m
skip:
        mov.u32         %m, 0
";
    let fault = run(&kernel(text, 16), Checks::default()).expect_err("lanes 8-15 are on the other path");
    assert_eq!(fault.kind, warpsim::FaultKind::WarpSyncDivergence { missing: 0xff00 });
    assert_eq!(fault.pc, 3);
}

#[test]
fn register_masks_print_and_parse_back() {
    let text = "
.reg %m, %r
.pred %p
        activemask.b32  %m
        shfl.sync.bfly.b32 %r, %laneid, 1, width=8, mask=%m
        shfl.sync.idx.b32 %r, %laneid, 1, 0x1f, %m
        vote.sync.any.pred %p, %p, mask=%lanemask_le
        match.sync.all.b32 %r|%p, %r, %m
        bar.warp.sync   %m
";
    let p = warpsim_tests::assemble(text);
    let printed: Vec<String> = p
        .instructions
        .iter()
        .map(|i| warpsim_isa::print::op(&p, &i.op))
        .collect();
    assert_eq!(
        printed,
        [
            "activemask.b32 %m",
            "shfl.sync.bfly.b32 %r, %laneid, 1, width=8, mask=%m",
            "shfl.sync.idx.b32 %r, %laneid, 1, 31, %m",
            "vote.sync.any.pred %p, %p, %lanemask_le",
            "match.sync.all.b32 %r|%p, %r, %m",
            "bar.warp.sync %m",
        ]
    );
    // The mask register is read: the scoreboard waits for it.
    let k = kernel(text, 32);
    let m = 0;
    assert!(k.code[1].reads.contains(&m));
    assert!(k.code[5].reads.contains(&m));
}
