// Calibration microbenchmark (mirrors `k_passes` of calibration/measured/ubench9.cu with atomics): one thread
// follows a pointer chain through 4096 lines by atomics, p = atom.add(g[p], 0): each atomic's address is the
// previous one's result, so each step is one global atomic's latency, performed at the line's L2 slice (the
// mean over slices; on the GPU the second pass over the same lines takes the same).
.kernel global_atomic_chase
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
        atom.global.add.u32 %p, g[%p], 0
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
