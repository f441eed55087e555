// 16-bit floating point (`.f16`, `.f16x2`, `.bf16`, `.bf16x2`: add, sub, mul, fma, min, max, neg, abs; the
// conversions from and to f32), for `sim crosscheck`: each of 512 threads takes hashed words x, y, z (two 16-bit
// values each), and the same with y's exponents cleared (zeros and subnormals) or set (infinities and NaNs),
// and writes every operation's result on them, 92 words a thread.
.kernel edges_half
.desc "f16 and bf16 arithmetic and conversions, scalar and x2, on hashed operands of every class (512 threads)"
.warp_sizes 32
.grid 4
.block 128
.buffer a u32[512] = (i * 2654435761 + 12345) % 4294967296
.buffer b u32[512] = (i * 2246822519 + 3266489917) % 4294967296
.buffer c u32[512] = (i * 3266489917 + 668265263) % 4294967296
.buffer out u32[512 * 92]
.reg %x, %y, %z, %t, %k, %i, %y0, %y1

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %x, a[%i]
        ld.global.u32       %y, b[%i]
        ld.global.u32       %z, c[%i]
        mul.lo.u32          %k, %i, 92
        // y with its exponents cleared (f16: bits 10-14 of each half) or set: zeros and subnormals, infinities and NaNs.
        and.b32             %y0, %y, 0x83ff83ff
        or.b32              %y1, %y, 0x7c007c00
        add.f16x2           %t, %x, %y
        st.global.u32       out[%k + 0], %t
        sub.f16x2           %t, %x, %y
        st.global.u32       out[%k + 1], %t
        mul.f16x2           %t, %x, %y
        st.global.u32       out[%k + 2], %t
        fma.rn.f16x2        %t, %x, %y, %z
        st.global.u32       out[%k + 3], %t
        min.f16x2           %t, %x, %y
        st.global.u32       out[%k + 4], %t
        max.f16x2           %t, %x, %y
        st.global.u32       out[%k + 5], %t
        neg.f16x2           %t, %y
        st.global.u32       out[%k + 6], %t
        abs.f16x2           %t, %y
        st.global.u32       out[%k + 7], %t
        add.f16x2           %t, %x, %y0
        st.global.u32       out[%k + 8], %t
        sub.f16x2           %t, %x, %y0
        st.global.u32       out[%k + 9], %t
        mul.f16x2           %t, %x, %y0
        st.global.u32       out[%k + 10], %t
        fma.rn.f16x2        %t, %x, %y0, %y1
        st.global.u32       out[%k + 11], %t
        min.f16x2           %t, %x, %y0
        st.global.u32       out[%k + 12], %t
        max.f16x2           %t, %x, %y0
        st.global.u32       out[%k + 13], %t
        neg.f16x2           %t, %y0
        st.global.u32       out[%k + 14], %t
        abs.f16x2           %t, %y0
        st.global.u32       out[%k + 15], %t
        add.f16x2           %t, %y1, %x
        st.global.u32       out[%k + 16], %t
        sub.f16x2           %t, %y1, %x
        st.global.u32       out[%k + 17], %t
        mul.f16x2           %t, %y1, %x
        st.global.u32       out[%k + 18], %t
        fma.rn.f16x2        %t, %y1, %x, %y0
        st.global.u32       out[%k + 19], %t
        min.f16x2           %t, %y1, %x
        st.global.u32       out[%k + 20], %t
        max.f16x2           %t, %y1, %x
        st.global.u32       out[%k + 21], %t
        neg.f16x2           %t, %x
        st.global.u32       out[%k + 22], %t
        abs.f16x2           %t, %x
        st.global.u32       out[%k + 23], %t
        add.f16             %t, %x, %y
        st.global.u32       out[%k + 24], %t
        sub.f16             %t, %x, %y
        st.global.u32       out[%k + 25], %t
        mul.f16             %t, %x, %y
        st.global.u32       out[%k + 26], %t
        fma.rn.f16          %t, %x, %y, %z
        st.global.u32       out[%k + 27], %t
        min.f16             %t, %x, %y
        st.global.u32       out[%k + 28], %t
        max.f16             %t, %x, %y
        st.global.u32       out[%k + 29], %t
        neg.f16             %t, %y
        st.global.u32       out[%k + 30], %t
        abs.f16             %t, %y
        st.global.u32       out[%k + 31], %t
        add.f16             %t, %y0, %y1
        st.global.u32       out[%k + 32], %t
        sub.f16             %t, %y0, %y1
        st.global.u32       out[%k + 33], %t
        mul.f16             %t, %y0, %y1
        st.global.u32       out[%k + 34], %t
        fma.rn.f16          %t, %y0, %y1, %x
        st.global.u32       out[%k + 35], %t
        min.f16             %t, %y0, %y1
        st.global.u32       out[%k + 36], %t
        max.f16             %t, %y0, %y1
        st.global.u32       out[%k + 37], %t
        neg.f16             %t, %y1
        st.global.u32       out[%k + 38], %t
        abs.f16             %t, %y1
        st.global.u32       out[%k + 39], %t
        // The same for bf16 (exponent bits 7-14).
        and.b32             %y0, %y, 0x807f807f
        or.b32              %y1, %y, 0x7f807f80
        add.bf16x2          %t, %x, %y
        st.global.u32       out[%k + 40], %t
        sub.bf16x2          %t, %x, %y
        st.global.u32       out[%k + 41], %t
        mul.bf16x2          %t, %x, %y
        st.global.u32       out[%k + 42], %t
        fma.rn.bf16x2       %t, %x, %y, %z
        st.global.u32       out[%k + 43], %t
        min.bf16x2          %t, %x, %y
        st.global.u32       out[%k + 44], %t
        max.bf16x2          %t, %x, %y
        st.global.u32       out[%k + 45], %t
        neg.bf16x2          %t, %y
        st.global.u32       out[%k + 46], %t
        abs.bf16x2          %t, %y
        st.global.u32       out[%k + 47], %t
        add.bf16x2          %t, %x, %y0
        st.global.u32       out[%k + 48], %t
        sub.bf16x2          %t, %x, %y0
        st.global.u32       out[%k + 49], %t
        mul.bf16x2          %t, %x, %y0
        st.global.u32       out[%k + 50], %t
        fma.rn.bf16x2       %t, %x, %y0, %y1
        st.global.u32       out[%k + 51], %t
        min.bf16x2          %t, %x, %y0
        st.global.u32       out[%k + 52], %t
        max.bf16x2          %t, %x, %y0
        st.global.u32       out[%k + 53], %t
        neg.bf16x2          %t, %y0
        st.global.u32       out[%k + 54], %t
        abs.bf16x2          %t, %y0
        st.global.u32       out[%k + 55], %t
        add.bf16x2          %t, %y1, %x
        st.global.u32       out[%k + 56], %t
        sub.bf16x2          %t, %y1, %x
        st.global.u32       out[%k + 57], %t
        mul.bf16x2          %t, %y1, %x
        st.global.u32       out[%k + 58], %t
        fma.rn.bf16x2       %t, %y1, %x, %y0
        st.global.u32       out[%k + 59], %t
        min.bf16x2          %t, %y1, %x
        st.global.u32       out[%k + 60], %t
        max.bf16x2          %t, %y1, %x
        st.global.u32       out[%k + 61], %t
        neg.bf16x2          %t, %x
        st.global.u32       out[%k + 62], %t
        abs.bf16x2          %t, %x
        st.global.u32       out[%k + 63], %t
        add.bf16            %t, %x, %y
        st.global.u32       out[%k + 64], %t
        sub.bf16            %t, %x, %y
        st.global.u32       out[%k + 65], %t
        mul.bf16            %t, %x, %y
        st.global.u32       out[%k + 66], %t
        fma.rn.bf16         %t, %x, %y, %z
        st.global.u32       out[%k + 67], %t
        min.bf16            %t, %x, %y
        st.global.u32       out[%k + 68], %t
        max.bf16            %t, %x, %y
        st.global.u32       out[%k + 69], %t
        neg.bf16            %t, %y
        st.global.u32       out[%k + 70], %t
        abs.bf16            %t, %y
        st.global.u32       out[%k + 71], %t
        add.bf16            %t, %y0, %y1
        st.global.u32       out[%k + 72], %t
        sub.bf16            %t, %y0, %y1
        st.global.u32       out[%k + 73], %t
        mul.bf16            %t, %y0, %y1
        st.global.u32       out[%k + 74], %t
        fma.rn.bf16         %t, %y0, %y1, %x
        st.global.u32       out[%k + 75], %t
        min.bf16            %t, %y0, %y1
        st.global.u32       out[%k + 76], %t
        max.bf16            %t, %y0, %y1
        st.global.u32       out[%k + 77], %t
        neg.bf16            %t, %y1
        st.global.u32       out[%k + 78], %t
        abs.bf16            %t, %y1
        st.global.u32       out[%k + 79], %t
        // Conversions: the f32 x to f16 and bf16 (x and z to x2), halves back to f32.
        cvt.rn.f16.f32      %t, %x
        st.global.u32       out[%k + 80], %t
        cvt.rn.bf16.f32     %t, %x
        st.global.u32       out[%k + 81], %t
        cvt.rn.f16x2.f32    %t, %x, %z
        st.global.u32       out[%k + 82], %t
        cvt.rn.bf16x2.f32   %t, %x, %z
        st.global.u32       out[%k + 83], %t
        cvt.f32.f16         %t, %y
        st.global.u32       out[%k + 84], %t
        cvt.f32.bf16        %t, %y
        st.global.u32       out[%k + 85], %t
        cvt.f32.f16         %t, %y1
        st.global.u32       out[%k + 86], %t
        cvt.f32.bf16        %t, %y0
        st.global.u32       out[%k + 87], %t
        // f32s with small exponents (f16's subnormals and below) and large ones (f16's overflow), rounded.
        and.b32             %t, %x, 0x87ffffff
        cvt.rn.f16.f32      %t, %t
        st.global.u32       out[%k + 88], %t
        and.b32             %t, %x, 0x807fffff
        cvt.rn.bf16.f32     %t, %t
        st.global.u32       out[%k + 89], %t
        or.b32             %t, %x, 0x47000000
        cvt.rn.f16.f32      %t, %t
        st.global.u32       out[%k + 90], %t
        and.b32             %t, %x, 0x33ffffff
        cvt.rn.f16.f32      %t, %t
        st.global.u32       out[%k + 91], %t
