// Calibration microbenchmark (mirrors `k_syncthreads` of calibration/measured/ubench.cu): 1024 block
// barriers in a row in a block of `warps` warps (64 per loop iteration, as the compiled loop is unrolled).
.kernel barrier_loop
.param warps = 1
.param iters = 1024
.block warps * W
.buffer cyc u32[1]
.macro bar8
        bar.sync            0
        bar.sync            0
        bar.sync            0
        bar.sync            0
        bar.sync            0
        bar.sync            0
        bar.sync            0
        bar.sync            0
.endm
.reg %i, %t0, %t1
.pred %more, %first

        mov.u32             %i, 0
        bar.sync            0
        mov.u32             %t0, %clock
loop:
        bar8
        add.u32             %i, %i, 64
        bar8
        setp.ne.u32         %more, %i, iters
        bar8
        bar8
        bar8
        bar8
        bar8
        bar8
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
