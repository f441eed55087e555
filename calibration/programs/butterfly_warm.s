// Calibration microbenchmark (mirrors `k_butterfly_max` of calibration/measured/ubench.cu): the warm pass of
// butterfly_max, w = v + 1 then five steps w = max(w, shfl.bfly(w, off)), timed from before the first shuffle
// to after the last max, as the compiled kernel does.
.kernel butterfly_warm
.buffer in  f32[W] = 2 * i, [len - 1] = 1000
.buffer out f32[W]
.buffer cyc u32[1]
.reg %v, %w, %o, %t0, %t1
.pred %first

        ld.global.f32       %v, in[%tid.x]
        add.f32             %w, %v, 1.0
        mov.u32             %t0, %clock
        shfl.sync.bfly.b32  %o, %w, 16
        max.f32             %w, %w, %o
        shfl.sync.bfly.b32  %o, %w, 8
        max.f32             %w, %w, %o
        shfl.sync.bfly.b32  %o, %w, 4
        max.f32             %w, %w, %o
        shfl.sync.bfly.b32  %o, %w, 2
        max.f32             %w, %w, %o
        shfl.sync.bfly.b32  %o, %w, 1
        max.f32             %w, %w, %o
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.f32       out[%tid.x], %w
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
