// Calibration microbenchmark (mirrors `k_ffma` of calibration/measured/ubench3.cu): a dependent chain of fma.rn.f32
.kernel fma_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        cvt.f32.u32         %v, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        add.u32             %i, %i, 16
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        setp.ne.u32         %more, %i, iters
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        fma.rn.f32          %v, %v, 1.0001, 1.0001
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
