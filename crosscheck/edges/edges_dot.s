// The integer dot products (`dp4a`, `dp2a.lo`, `dp2a.hi`, each operand signed or not: CUDA's `__dp4a`,
// `__dp2a_lo`, `__dp2a_hi`) and `lop3` with 12 lookup tables, for `sim crosscheck` (the CUDA translation
// writes each as the same inline PTX): each of 512 threads takes hashed words x, y, z (every byte and half value,
// negative ones too) and writes 24 words.
.kernel edges_dot
.desc "dp4a, dp2a and lop3 on hashed operands (512 threads)"
.warp_sizes 32
.grid 4
.block 128
.buffer a u32[512] = (i * 2654435761 + 12345) % 4294967296
.buffer b u32[512] = (i * 2246822519 + 3266489917) % 4294967296
.buffer c u32[512] = (i * 3266489917 + 668265263) % 4294967296
.buffer out u32[512 * 24]
.reg %x, %y, %z, %t, %k, %i

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %x, a[%i]
        ld.global.u32       %y, b[%i]
        ld.global.u32       %z, c[%i]
        mul.lo.u32          %k, %i, 24
        dp4a.s32.s32            %t, %x, %y, %z
        st.global.u32       out[%k], %t
        dp4a.s32.u32            %t, %x, %y, %z
        st.global.u32       out[%k + 1], %t
        dp4a.u32.s32            %t, %x, %y, %z
        st.global.u32       out[%k + 2], %t
        dp4a.u32.u32            %t, %x, %y, %z
        st.global.u32       out[%k + 3], %t
        dp2a.lo.s32.s32         %t, %x, %y, %z
        st.global.u32       out[%k + 4], %t
        dp2a.lo.s32.u32         %t, %x, %y, %z
        st.global.u32       out[%k + 5], %t
        dp2a.lo.u32.s32         %t, %x, %y, %z
        st.global.u32       out[%k + 6], %t
        dp2a.lo.u32.u32         %t, %x, %y, %z
        st.global.u32       out[%k + 7], %t
        dp2a.hi.s32.s32         %t, %x, %y, %z
        st.global.u32       out[%k + 8], %t
        dp2a.hi.s32.u32         %t, %x, %y, %z
        st.global.u32       out[%k + 9], %t
        dp2a.hi.u32.s32         %t, %x, %y, %z
        st.global.u32       out[%k + 10], %t
        dp2a.hi.u32.u32         %t, %x, %y, %z
        st.global.u32       out[%k + 11], %t
        lop3.b32            %t, %x, %y, %z, 0x96
        st.global.u32       out[%k + 12], %t
        lop3.b32            %t, %x, %y, %z, 0xe8
        st.global.u32       out[%k + 13], %t
        lop3.b32            %t, %x, %y, %z, 0xca
        st.global.u32       out[%k + 14], %t
        lop3.b32            %t, %x, %y, %z, 0x80
        st.global.u32       out[%k + 15], %t
        lop3.b32            %t, %x, %y, %z, 0xfe
        st.global.u32       out[%k + 16], %t
        lop3.b32            %t, %x, %y, %z, 0x01
        st.global.u32       out[%k + 17], %t
        lop3.b32            %t, %x, %y, %z, 0x6a
        st.global.u32       out[%k + 18], %t
        lop3.b32            %t, %x, %y, %z, 0x1e
        st.global.u32       out[%k + 19], %t
        lop3.b32            %t, %x, %y, %z, 0xb4
        st.global.u32       out[%k + 20], %t
        lop3.b32            %t, %x, %y, %z, 0x2d
        st.global.u32       out[%k + 21], %t
        lop3.b32            %t, %x, %y, %z, 0x00
        st.global.u32       out[%k + 22], %t
        lop3.b32            %t, %x, %y, %z, 0xff
        st.global.u32       out[%k + 23], %t
