// Calibration microbenchmark (mirrors `k_cvt` of calibration/measured/ubench3.cu): dependent pairs v = f32(s32(v))
.kernel cvt_pair_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %n, %i, %t0, %t1
.pred %more, %first

        cvt.f32.u32         %v, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        cvt.rzi.s32.f32     %n, %v
        add.u32             %i, %i, 16
        cvt.rn.f32.s32      %v, %n
        setp.ne.u32         %more, %i, iters
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        cvt.rzi.s32.f32     %n, %v
        cvt.rn.f32.s32      %v, %n
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
