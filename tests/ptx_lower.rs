//! PTX lowering (issue 21): what the lowering makes of PTX as nvcc and Numba emit it, and the instructions it
//! needed in warpsim's own ISA (a shuffle's `c` in a register).

use warpsim_tests::{run_text, u32s};

/// `shfl.sync` with PTX's `c` operand in a register, as nvcc computes it for `__shfl_down_sync(…, width)`:
/// each lane clamps with its own `c` (PTX's pseudo-code reads `cval` per thread).
#[test]
fn shuffle_c_operand_in_a_register_is_each_lanes_own() {
    let text = ".block 32
.warp_sizes 32
.buffer out u32[32]
.buffer ok u32[32]
.reg %l, %c, %d, %o
.pred %low, %q
        mov.u32 %l, %laneid
        setp.lt.u32 %low, %l, 16
        selp.u32 %c, 31, 23, %low
        shfl.sync.down.b32 %d|%q, %l, 1, %c, 0xffffffff
        st.global.u32 out[%l], %d
        selp.u32 %o, 1, 0, %q
        st.global.u32 ok[%l], %o
";
    let (out, _) = run_text(text, 32);
    let out = out.unwrap_or_else(|f| panic!("{}", f.message()));
    // Lanes below 16 clamp at lane 31, the others at lane 23: a lane reads lane + 1 when that is at most its clamp.
    let expect: Vec<u32> = (0..32).map(|l| if l < 23 { l + 1 } else { l }).collect();
    assert_eq!(u32s(&out, "out"), expect);
    let ok: Vec<u32> = (0..32).map(|l| u32::from(l < 23)).collect();
    assert_eq!(u32s(&out, "ok"), ok);
}

/// The printer writes a register `c` back as PTX does, and it assembles to the same program.
#[test]
fn shuffle_c_register_round_trips() {
    let text = ".block 32\n.warp_sizes 32\n.reg %l, %c, %d\n        mov.u32 %c, 0x1f\n        shfl.sync.bfly.b32 %d, %l, 1, %c, 0xffffffff\n";
    let p = warpsim_tests::assemble(text);
    let printed = warpsim_isa::print(&p);
    assert!(
        printed.contains("shfl.sync.bfly.b32 %d, %l, 1, %c, 4294967295"),
        "{printed}"
    );
    let again = warpsim_tests::assemble(&printed);
    assert!(p.equivalent(&again));
}
