// PTX's `.ftz` forms on f32 (`-use_fast_math`), for `sim crosscheck` (the CUDA translation writes each as the same
// inline PTX): each of 512 threads takes hashed 32-bit patterns x and y (any class: NaNs, infinities, subnormals),
// m and n (x's and y's sign and mantissa under exponent fields 0 to 254: normal or subnormal), and operands built so
// that a product, a fused multiply-add, a quotient or a reciprocal lands within a few units in the last place of
// 2^-126 (below it, at it, above it): pa = ±(1 - j·2^-24)·2^-e, pb = ±(1 + k·2^-23)·2^(-126+e+t) (j, k in 0..7,
// e in 1..64, t in -1..1), so that pa·pb is 2^(t-126)·(1 + (2k - j)·2^-24 - j·k·2^-47). It writes every `.ftz`
// arithmetic instruction and rounding, min, max, abs, neg, the flush and the comparisons, and pa / 2^(126-e), whose
// exact quotient 2^-126·(1 - j·2^-24) is a tie of IEEE 754's subnormal rounding for j = 1, and warpsim's `divadd`
// (a `div.approx` or `div.full` fused with an addition, as ptxas contracts them) with and without `.ftz`: 46 words a
// thread.
.kernel edges_ftz
.desc "PTX's .ftz f32 forms on hashed operands and on products, sums and quotients near 2^-126 (512 threads)"
.warp_sizes 32
.grid 4
.block 128
.buffer a u32[512] = (i * 2654435761 + 12345) % 4294967296
.buffer b u32[512] = (i * 2246822519 + 3266489917) % 4294967296
.buffer out u32[512 * 46]
.reg %x, %y, %m, %n, %e, %t, %k, %i, %j, %pa, %pb, %qa, %c, %s, %u, %v
.pred %p

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %x, a[%i]
        ld.global.u32       %y, b[%i]
        mul.lo.u32          %k, %i, 46
        // m, n: x's and y's sign and mantissa, exponent fields from the other hash (0 to 254).
        rem.u32             %e, %y, 255
        shl.b32             %e, %e, 23
        and.b32             %m, %x, 0x807fffff
        or.b32              %m, %m, %e
        shr.u32             %e, %x, 8
        rem.u32             %e, %e, 255
        shl.b32             %e, %e, 23
        and.b32             %n, %y, 0x807fffff
        or.b32              %n, %n, %e
        // pa = (1 - j·2^-24)·2^-e with x's sign; pb = (1 + k·2^-23)·2^(-126+e+t) with y's sign.
        and.b32             %j, %i, 7
        cvt.rn.f32.u32      %t, %j
        fma.f32             %pa, %t, -0.000000059604644775390625, 1.0
        shr.u32             %e, %i, 6
        and.b32             %e, %e, 7
        shr.u32             %t, %y, 3
        and.b32             %t, %t, 56
        add.u32             %e, %e, %t
        add.u32             %e, %e, 1
        sub.u32             %t, 127, %e
        shl.b32             %t, %t, 23
        mul.f32             %pa, %pa, %t
        and.b32             %t, %x, 0x80000000
        or.b32              %pa, %pa, %t
        // v = 2^(126-e) with y's sign: pa / v is 2^-126·(1 - j·2^-24).
        sub.u32             %t, 253, %e
        shl.b32             %t, %t, 23
        and.b32             %v, %y, 0x80000000
        or.b32              %v, %v, %t
        // t in -1..1 (as 0..2), from y
        shr.u32             %t, %y, 9
        rem.u32             %t, %t, 3
        add.u32             %t, %t, %e
        shl.b32             %t, %t, 23
        shr.u32             %s, %i, 3
        and.b32             %s, %s, 7
        or.b32              %pb, %t, %s
        and.b32             %t, %y, 0x80000000
        or.b32              %pb, %pb, %t
        // c = ±2^-125, the sign opposite pa·pb's: pa·pb + c cancels to about 2^-126.
        xor.b32             %c, %x, %y
        and.b32             %c, %c, 0x80000000
        xor.b32             %c, %c, 0x81000000
        // qa = (1 + j·2^-23)·2^(e-1): pb / qa lies near 2^(t-126).
        add.u32             %t, %e, 126
        shl.b32             %t, %t, 23
        or.b32              %qa, %t, %j
        // u = (1 + j·2^-23)·2^(125+t): 1/u lies near 2^(-126-t).
        shr.u32             %t, %y, 9
        rem.u32             %t, %t, 3
        add.u32             %t, %t, 252
        shl.b32             %t, %t, 23
        or.b32              %u, %t, %j

        add.ftz.f32         %t, %x, %y
        st.global.u32       out[%k], %t
        sub.ftz.f32         %t, %m, %n
        st.global.u32       out[%k + 1], %t
        add.rz.ftz.f32      %t, %m, %pb
        st.global.u32       out[%k + 2], %t
        sub.rm.ftz.f32      %t, %pb, %c
        st.global.u32       out[%k + 3], %t
        add.rp.ftz.f32      %t, %pb, %c
        st.global.u32       out[%k + 4], %t
        mul.ftz.f32         %t, %x, %y
        st.global.u32       out[%k + 5], %t
        mul.ftz.f32         %t, %m, %n
        st.global.u32       out[%k + 6], %t
        mul.ftz.f32         %t, %pa, %pb
        st.global.u32       out[%k + 7], %t
        mul.rz.ftz.f32      %t, %pa, %pb
        st.global.u32       out[%k + 8], %t
        mul.rm.ftz.f32      %t, %pa, %pb
        st.global.u32       out[%k + 9], %t
        mul.rp.ftz.f32      %t, %pa, %pb
        st.global.u32       out[%k + 10], %t
        fma.rn.ftz.f32      %t, %x, %y, %m
        st.global.u32       out[%k + 11], %t
        fma.rn.ftz.f32      %t, %m, %n, %x
        st.global.u32       out[%k + 12], %t
        fma.rn.ftz.f32      %t, %pa, %pb, %c
        st.global.u32       out[%k + 13], %t
        fma.rz.ftz.f32      %t, %pa, %pb, %c
        st.global.u32       out[%k + 14], %t
        fma.rm.ftz.f32      %t, %pa, %pb, %c
        st.global.u32       out[%k + 15], %t
        fma.rp.ftz.f32      %t, %pa, %pb, %c
        st.global.u32       out[%k + 16], %t
        fma.rn.ftz.f32      %t, %pa, %pb, %m
        st.global.u32       out[%k + 17], %t
        div.rn.ftz.f32      %t, %x, %y
        st.global.u32       out[%k + 18], %t
        div.rn.ftz.f32      %t, %m, %n
        st.global.u32       out[%k + 19], %t
        div.rn.ftz.f32      %t, %pb, %qa
        st.global.u32       out[%k + 20], %t
        div.rz.ftz.f32      %t, %pb, %qa
        st.global.u32       out[%k + 21], %t
        div.rm.ftz.f32      %t, %m, %n
        st.global.u32       out[%k + 22], %t
        div.rp.ftz.f32      %t, %pb, %qa
        st.global.u32       out[%k + 23], %t
        rcp.rn.ftz.f32      %t, %x
        st.global.u32       out[%k + 24], %t
        rcp.rn.ftz.f32      %t, %u
        st.global.u32       out[%k + 25], %t
        rcp.rz.ftz.f32      %t, %m
        st.global.u32       out[%k + 26], %t
        rcp.rp.ftz.f32      %t, %u
        st.global.u32       out[%k + 27], %t
        sqrt.rn.ftz.f32     %t, %x
        st.global.u32       out[%k + 28], %t
        sqrt.rn.ftz.f32     %t, %m
        st.global.u32       out[%k + 29], %t
        sqrt.rm.ftz.f32     %t, %m
        st.global.u32       out[%k + 30], %t
        min.ftz.f32         %t, %x, %y
        st.global.u32       out[%k + 31], %t
        max.ftz.f32         %t, %m, %n
        st.global.u32       out[%k + 32], %t
        abs.ftz.f32         %t, %x
        st.global.u32       out[%k + 33], %t
        neg.ftz.f32         %t, %m
        st.global.u32       out[%k + 34], %t
        cvt.ftz.f32.f32     %t, %x
        st.global.u32       out[%k + 35], %t
        cvt.ftz.f32.f32     %t, %m
        st.global.u32       out[%k + 36], %t
        // The comparisons, four bits: lt(m, n), eq(m, -m·0), ge(x, y), ne(m, n).
        mul.f32             %e, %m, 0.0
        setp.lt.ftz.f32     %p, %m, %n
        selp.u32            %t, 1, 0, %p
        setp.eq.ftz.f32     %p, %m, %e
        selp.u32            %s, 2, 0, %p
        or.b32              %t, %t, %s
        setp.ge.ftz.f32     %p, %x, %y
        selp.u32            %s, 4, 0, %p
        or.b32              %t, %t, %s
        setp.ne.ftz.f32     %p, %m, %n
        selp.u32            %s, 8, 0, %p
        or.b32              %t, %t, %s
        st.global.u32       out[%k + 37], %t
        neg.ftz.f32         %t, %x
        st.global.u32       out[%k + 38], %t
        abs.ftz.f32         %t, %m
        st.global.u32       out[%k + 39], %t
        div.rn.ftz.f32      %t, %pa, %v
        st.global.u32       out[%k + 40], %t
        div.rp.ftz.f32      %t, %pa, %v
        st.global.u32       out[%k + 41], %t
        divadd.approx.ftz.f32 %t, %x, %m, %y
        st.global.u32       out[%k + 42], %t
        divadd.approx.f32   %t, %m, %n, %x
        st.global.u32       out[%k + 43], %t
        divadd.full.ftz.f32 %t, %y, %x, %n
        st.global.u32       out[%k + 44], %t
        divadd.full.f32     %t, %pb, %u, %m
        st.global.u32       out[%k + 45], %t
