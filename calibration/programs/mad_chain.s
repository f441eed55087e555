// Calibration microbenchmark (mirrors `k_imad` of calibration/measured/ubench3.cu): a dependent chain of mad.lo.u32
.kernel mad_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        mov.u32             %v, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        mad.lo.u32          %v, %v, 3, 3
        add.u32             %i, %i, 16
        mad.lo.u32          %v, %v, 3, 3
        setp.ne.u32         %more, %i, iters
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        mad.lo.u32          %v, %v, 3, 3
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
