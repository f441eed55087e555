// The carry chain and the directed roundings of warpsim's ISA, for `sim crosscheck` (the CUDA translation writes
// the carry chain in C, the roundings as inline PTX): each of 256 threads takes hashed 32-bit operands x, y (and
// 64-bit ones from them), chains add/addc/sub/subc/mad.lo/madc.hi with carries in and out (signed and unsigned,
// 32 and 64 bits), and rounds f32 and f64 quotients, products, sums and square roots of them towards zero and
// the infinities; 24 words a thread.
.kernel edges_carry
.desc "the carry chain and directed roundings on hashed operands (256 threads)"
.warp_sizes 32
.grid 2
.block 128
.buffer a u32[256] = (i * 2654435761 + 12345) % 4294967296
.buffer b u32[256] = (i * 2246822519 + 3266489917) % 4294967296
.buffer out u32[256 * 24]
.reg %x, %y, %lo, %hi, %t, %f, %g, %k, %i
.reg.b64 %dx, %dy, %dz, %dw
.pred %c, %c2

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %x, a[%i]
        ld.global.u32       %y, b[%i]
        mul.lo.u32          %k, %i, 24
        // 32-bit chains: carries in and out, borrows.
        add.cc.u32          %lo|%c, %x, %y
        addc.cc.u32         %hi|%c2, %y, %x, %c
        st.global.u32       out[%k], %lo
        st.global.u32       out[%k + 1], %hi
        selp.u32            %t, 1, 0, %c2
        st.global.u32       out[%k + 2], %t
        mad.lo.cc.u32       %lo|%c, %x, %y, %y
        madc.hi.cc.s32      %hi|%c2, %x, %y, %x, %c
        st.global.u32       out[%k + 3], %lo
        st.global.u32       out[%k + 4], %hi
        madc.lo.u32         %t, %y, %y, %x, %c2
        st.global.u32       out[%k + 5], %t
        sub.cc.u32          %lo|%c, %x, %y
        subc.cc.u32         %hi|%c2, %y, %x, %c
        st.global.u32       out[%k + 6], %lo
        st.global.u32       out[%k + 7], %hi
        subc.s32            %t, %x, 7, %c2
        st.global.u32       out[%k + 8], %t
        mad.hi.cc.u32       %lo|%c, %x, %y, %x
        madc.hi.u32         %hi, %y, %x, %y, %c
        st.global.u32       out[%k + 9], %lo
        st.global.u32       out[%k + 10], %hi
        // 64-bit chains.
        mov.b64             %dx, {%x, %y}
        mov.b64             %dy, {%y, %x}
        add.cc.u64          %dz|%c, %dx, %dy
        addc.u64            %dw, %dy, %dx, %c
        mov.b64             {%lo, %hi}, %dz
        st.global.u32       out[%k + 11], %lo
        mov.b64             {%lo, %hi}, %dw
        st.global.u32       out[%k + 12], %hi
        mad.hi.cc.s64       %dz|%c, %dx, %dy, %dx
        madc.lo.u64         %dw, %dx, %dy, %dy, %c
        mov.b64             {%lo, %hi}, %dz
        st.global.u32       out[%k + 13], %hi
        mov.b64             {%lo, %hi}, %dw
        st.global.u32       out[%k + 14], %lo
        // Directed roundings of f32 values made from the operands (the bits as floats: all classes turn up).
        div.rz.f32          %t, %x, %y
        st.global.u32       out[%k + 15], %t
        mul.rp.f32          %t, %x, %y
        st.global.u32       out[%k + 16], %t
        add.rm.f32          %t, %x, %y
        st.global.u32       out[%k + 17], %t
        fma.rz.f32          %t, %x, %y, %x
        st.global.u32       out[%k + 18], %t
        sqrt.rp.f32         %t, %y
        st.global.u32       out[%k + 19], %t
        rcp.rm.f32          %t, %x
        st.global.u32       out[%k + 20], %t
        copysign.f32        %t, %x, %y
        st.global.u32       out[%k + 21], %t
        // f64.
        // (Both halves of the quotient folded into one word: stored alone, its low half came back 0 in 240 of
        // 256 threads from the GPU machine's CUDA 13.0 toolchain, where the same division stored whole is right.)
        div.rp.f64          %dz, %dx, %dy
        mov.b64             {%lo, %hi}, %dz
        xor.b32             %lo, %lo, %hi
        st.global.u32       out[%k + 22], %lo
        sqrt.rz.f64         %dz, %dy
        fma.rm.f64          %dz, %dx, %dy, %dz
        mov.b64             {%lo, %hi}, %dz
        st.global.u32       out[%k + 23], %hi
