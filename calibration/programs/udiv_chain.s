// Calibration microbenchmark (mirrors `k_idiv` of calibration/measured/ubench3.cu): a dependent chain of v = v / d + 1000000 (u32), d a kernel parameter: a register the loop never writes, whose reciprocal ptxas computes before the loop (here the immediate 7, timed alike: `units.int_div`)
.kernel udiv_chain
.param iters = 256
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        add.u32             %v, %tid.x, 1000000
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        div.u32             %v, %v, 7
        add.u32             %i, %i, 1
        add.u32             %v, %v, 1000000
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
