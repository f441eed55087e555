// 64-bit shifts by every kind of amount, for `sim crosscheck`: shl.b64, shr.u64 and shr.s64 by 0-63, exactly 64,
// past 64 (PTX clamps: all bits out, or the sign), with bits above the low byte, and -1; then shl.b64 by an
// amount an f32 instruction wrote (`fma.rn.f32 %f, 0, 0, amount`): ptxas widened such an operand with F2I, taking
// the float's value (9.0 shifted by 9), until `sim emit-cuda` passed it through an opaque XOR (crosscheck/README.md).
.kernel edges_shift64
.desc "64-bit shifts by clamped, large and float-written amounts"
.warp_sizes 32
.block 32
.buffer amt u32[32] = 0, [0..] = [0, 1, 9, 31, 32, 33, 63, 64, 65, 108, 127, 128, 200, 255, 256, 257, 996, 1091567616, 2147483647, 4294967295, 4294967233, 320, 0x40, 0x41100000, 2, 3, 4, 5, 6, 7, 8, 10]
.buffer out u64[96]
.buffer outf u64[32]
.reg %a, %f, %g
.reg.b64 %x, %r
        ld.global.u32   %a, amt[%tid.x]
        mov.b64         %x, 13
        shl.b64         %r, %x, %a
        st.global.u64   out[%tid.x], %r
        mov.b64         %x, -9223372036854775807
        shr.u64         %r, %x, %a
        add.u32         %g, %tid.x, 32
        st.global.u64   out[%g], %r
        shr.s64         %r, %x, %a
        add.u32         %g, %tid.x, 64
        st.global.u64   out[%g], %r
        // The amount from an f32 fma, as in random 4217.
        mov.u32         %f, 0
        fma.rn.f32      %f, %f, %f, %a
        mov.b64         %x, 13
        shl.b64         %r, %x, %f
        st.global.u64   outf[%tid.x], %r
