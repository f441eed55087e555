// Calibration microbenchmark (mirrors `k_shfl_tput` of calibration/measured/ubench.cu): 8 independent shfl.bfly chains in one warp (throughput)
.kernel shfl_throughput
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %v, %i, %t0, %t1
.pred %more, %first

        add.u32             %a0, %tid.x, 0
        add.u32             %a1, %tid.x, 1
        add.u32             %a2, %tid.x, 2
        add.u32             %a3, %tid.x, 3
        add.u32             %a4, %tid.x, 4
        add.u32             %a5, %tid.x, 5
        add.u32             %a6, %tid.x, 6
        add.u32             %a7, %tid.x, 7
        mov.u32             %i, 0
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        shfl.sync.bfly.b32  %a0, %a0, 1
        add.u32             %i, %i, 4
        shfl.sync.bfly.b32  %a1, %a1, 2
        setp.ne.u32         %more, %i, iters
        shfl.sync.bfly.b32  %a2, %a2, 4
        shfl.sync.bfly.b32  %a3, %a3, 8
        shfl.sync.bfly.b32  %a4, %a4, 16
        shfl.sync.bfly.b32  %a5, %a5, 3
        shfl.sync.bfly.b32  %a6, %a6, 5
        shfl.sync.bfly.b32  %a7, %a7, 7
        shfl.sync.bfly.b32  %a0, %a0, 1
        shfl.sync.bfly.b32  %a1, %a1, 2
        shfl.sync.bfly.b32  %a2, %a2, 4
        shfl.sync.bfly.b32  %a3, %a3, 8
        shfl.sync.bfly.b32  %a4, %a4, 16
        shfl.sync.bfly.b32  %a5, %a5, 3
        shfl.sync.bfly.b32  %a6, %a6, 5
        shfl.sync.bfly.b32  %a7, %a7, 7
        shfl.sync.bfly.b32  %a0, %a0, 1
        shfl.sync.bfly.b32  %a1, %a1, 2
        shfl.sync.bfly.b32  %a2, %a2, 4
        shfl.sync.bfly.b32  %a3, %a3, 8
        shfl.sync.bfly.b32  %a4, %a4, 16
        shfl.sync.bfly.b32  %a5, %a5, 3
        shfl.sync.bfly.b32  %a6, %a6, 5
        shfl.sync.bfly.b32  %a7, %a7, 7
        shfl.sync.bfly.b32  %a0, %a0, 1
        shfl.sync.bfly.b32  %a1, %a1, 2
        shfl.sync.bfly.b32  %a2, %a2, 4
        shfl.sync.bfly.b32  %a3, %a3, 8
        shfl.sync.bfly.b32  %a4, %a4, 16
        shfl.sync.bfly.b32  %a5, %a5, 3
        shfl.sync.bfly.b32  %a6, %a6, 5
        shfl.sync.bfly.b32  %a7, %a7, 7
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        add.u32             %v, %a0, %a1
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
