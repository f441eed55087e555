// Calibration microbenchmark (mirrors `k_shfl_idx_lat` of calibration/measured/ubench.cu): a dependent chain of shfl.idx, source lane (lane + 3) & 31
.kernel shfl_idx_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %src, %i, %t0, %t1
.pred %more, %first

        mov.u32             %v, %tid.x
        add.u32             %src, %tid.x, 3
        and.b32             %src, %src, 31
        mov.u32             %i, 0
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        shfl.sync.idx.b32   %v, %v, %src
        add.u32             %i, %i, 16
        shfl.sync.idx.b32   %v, %v, %src
        setp.ne.u32         %more, %i, iters
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        shfl.sync.idx.b32   %v, %v, %src
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
