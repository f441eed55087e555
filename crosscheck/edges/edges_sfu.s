// The special-function unit's approximations, for `sim crosscheck` (the CUDA translation writes each as the same
// inline PTX): each of 512 threads takes a hashed 32-bit pattern x (any class: NaNs, infinities, subnormals), a
// normal or subnormal m (x's sign and mantissa, an exponent field 0 to 254 from a second hash) and s in [-140, 140)
// (the range where 2^s goes from zero through subnormals to infinity), and writes rcp, rsqrt, sqrt, ex2, lg2 with
// and without .ftz, the divisions, the f64 forms, and sin and cos (of x, and of s and of m): 36 words a thread.
.kernel edges_sfu
.desc "the SFU's approximations on hashed operands of every class (512 threads)"
.warp_sizes 32
.grid 4
.block 128
.buffer a u32[512] = (i * 2654435761 + 12345) % 4294967296
.buffer b u32[512] = (i * 2246822519 + 3266489917) % 4294967296
.buffer out u32[512 * 36]
.reg %x, %y, %m, %s, %e, %t, %k, %i
.reg.b64 %dx, %dz

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %x, a[%i]
        ld.global.u32       %y, b[%i]
        mul.lo.u32          %k, %i, 36
        // m: x's sign and mantissa, an exponent field from y (0 to 254); s in [-140, 140).
        rem.u32             %e, %y, 255
        shl.b32             %e, %e, 23
        and.b32             %m, %x, 0x807fffff
        or.b32              %m, %m, %e
        rem.u32             %t, %y, 28000
        cvt.rn.f32.u32      %s, %t
        fma.f32             %s, %s, 0.01, -140.0
        rcp.approx.ftz.f32  %t, %x
        st.global.u32       out[%k], %t
        rcp.approx.f32      %t, %x
        st.global.u32       out[%k + 1], %t
        rcp.approx.ftz.f32  %t, %m
        st.global.u32       out[%k + 2], %t
        rcp.approx.f32      %t, %m
        st.global.u32       out[%k + 3], %t
        rsqrt.approx.ftz.f32 %t, %x
        st.global.u32       out[%k + 4], %t
        rsqrt.approx.f32    %t, %x
        st.global.u32       out[%k + 5], %t
        rsqrt.approx.ftz.f32 %t, %m
        st.global.u32       out[%k + 6], %t
        rsqrt.approx.f32    %t, %m
        st.global.u32       out[%k + 7], %t
        sqrt.approx.ftz.f32 %t, %x
        st.global.u32       out[%k + 8], %t
        sqrt.approx.f32     %t, %m
        st.global.u32       out[%k + 9], %t
        ex2.approx.ftz.f32  %t, %x
        st.global.u32       out[%k + 10], %t
        ex2.approx.f32      %t, %x
        st.global.u32       out[%k + 11], %t
        ex2.approx.ftz.f32  %t, %s
        st.global.u32       out[%k + 12], %t
        ex2.approx.f32      %t, %s
        st.global.u32       out[%k + 13], %t
        lg2.approx.ftz.f32  %t, %x
        st.global.u32       out[%k + 14], %t
        lg2.approx.f32      %t, %x
        st.global.u32       out[%k + 15], %t
        lg2.approx.ftz.f32  %t, %m
        st.global.u32       out[%k + 16], %t
        lg2.approx.f32      %t, %m
        st.global.u32       out[%k + 17], %t
        div.approx.ftz.f32  %t, %s, %m
        st.global.u32       out[%k + 18], %t
        div.approx.f32      %t, %s, %m
        st.global.u32       out[%k + 19], %t
        div.full.ftz.f32    %t, %m, %x
        st.global.u32       out[%k + 20], %t
        div.full.f32        %t, %m, %x
        st.global.u32       out[%k + 21], %t
        div.full.f32        %t, %x, %m
        st.global.u32       out[%k + 22], %t
        div.approx.f32      %t, %x, %s
        st.global.u32       out[%k + 23], %t
        // f64: x and y as the high and low words, then m and x.
        mov.b64             %dx, {%y, %x}
        rcp.approx.ftz.f64  %dz, %dx
        mov.b64             {%t, %e}, %dz
        st.global.u32       out[%k + 24], %t
        st.global.u32       out[%k + 25], %e
        rsqrt.approx.ftz.f64 %dz, %dx
        mov.b64             {%t, %e}, %dz
        st.global.u32       out[%k + 26], %t
        st.global.u32       out[%k + 27], %e
        mov.b64             %dx, {%x, %m}
        rcp.approx.ftz.f64  %dz, %dx
        mov.b64             {%t, %e}, %dz
        st.global.u32       out[%k + 28], %e
        rsqrt.approx.ftz.f64 %dz, %dx
        mov.b64             {%t, %e}, %dz
        st.global.u32       out[%k + 29], %e
        sqrt.approx.ftz.f32 %t, %m
        st.global.u32       out[%k + 30], %t
        sqrt.approx.f32     %t, %x
        st.global.u32       out[%k + 31], %t
        sin.approx.ftz.f32  %t, %x
        st.global.u32       out[%k + 32], %t
        cos.approx.f32      %t, %x
        st.global.u32       out[%k + 33], %t
        sin.approx.f32      %t, %s
        st.global.u32       out[%k + 34], %t
        cos.approx.ftz.f32  %t, %m
        st.global.u32       out[%k + 35], %t
