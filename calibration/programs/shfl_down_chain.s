// Calibration microbenchmark (mirrors `k_shfl_down_lat` of calibration/measured/ubench.cu): a dependent chain of shfl.down
.kernel shfl_down_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        mov.u32             %v, %tid.x
        mov.u32             %i, 0
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        shfl.sync.down.b32  %v, %v, 1
        add.u32             %i, %i, 16
        shfl.sync.down.b32  %v, %v, 1
        setp.ne.u32         %more, %i, iters
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        shfl.sync.down.b32  %v, %v, 1
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
