// Calibration microbenchmark (mirrors `k_passes` of calibration/measured/ubench9.cu with loads, first pass): one
// thread follows a pointer chain through 4096 lines of a buffer that no SM has touched yet in the launch (on the
// GPU: copied from the host just before it; the loads go through L2), so each step is a first touch of a line in
// L2: `memory.l2_first_latency`, the mean over the L2's slices.
.kernel l2_first_chase
.param iters = 4096
.buffer g u32[131072] = (((i / 32) * 1237 + 611) % 4096) * 32
.buffer cyc u32[1]
.block 1
.reg %p, %i, %t0, %t1
.pred %more

        mov.u32             %p, 0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        ld.global.u32       %p, g[%p]
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
