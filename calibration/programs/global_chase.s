// Calibration microbenchmark (mirrors `k_gload_chase` of calibration/measured/ubench.cu): p = g[p] over a
// zeroed buffer, so every load after the first hits the same line in L1.
.kernel global_chase
.param iters = 256
.buffer g u32[1024]
.buffer out u32[W]
.buffer cyc u32[1]
.macro chase4 p
        ld.global.u32       \p, g[\p]
        ld.global.u32       \p, g[\p]
        ld.global.u32       \p, g[\p]
        ld.global.u32       \p, g[\p]
.endm
.reg %p, %i, %t0, %t1
.pred %more, %first

        mov.u32             %p, 0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        chase4              %p
        add.u32             %i, %i, 16
        chase4              %p
        setp.ne.u32         %more, %i, iters
        chase4              %p
        chase4              %p
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %p
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
