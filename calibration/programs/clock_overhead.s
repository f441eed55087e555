// Calibration microbenchmark (mirrors `k_empty_clock` of calibration/measured/ubench.cu): two back-to-back
// reads of the cycle clock.
.kernel clock_overhead
.buffer cyc u32[1]
.reg %t0, %t1
.pred %first

        mov.u32             %t0, %clock
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
