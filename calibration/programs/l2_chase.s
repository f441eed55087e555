// Calibration microbenchmark (mirrors `k_chase_ca` of calibration/measured/ubench3.cu): one lane follows a
// pointer chain through 1024 different 128-byte lines of a 4 MiB buffer, so every load misses L1 (and hits L2).
// On the GPU `k_chase_cg` ran the chain just before (through L2, bypassing L1); here a first pass stores each
// line's own value along the chain (stores reach L2 and are not allocated in L1).
.kernel l2_chase
.param iters = 1024
.buffer g u32[1048576] = ((i / 32 + 7919) % 32768) * 32
.buffer cyc u32[1]
.block 1
.reg %p, %i, %t0, %t1, %next
.pred %more

        mov.u32             %p, 0
        mov.u32             %i, 0
warm:
        shr.u32             %next, %p, 5
        add.u32             %next, %next, 7919
        rem.u32             %next, %next, 32768
        shl.b32             %next, %next, 5
        st.global.u32       g[%p], %next
        mov.u32             %p, %next
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          warm
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
