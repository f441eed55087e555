// Calibration microbenchmark (mirrors `k_pair_fadd<16>` of calibration/measured/ubench28.cu, its SASS in
// calibration/measured/sass/ubench28-sm90.sass): dependent pairs v = shfl.bfly(v, 1) + d, 16 a loop pass, the offset
// an immediate in the `SHFL` (`units.shuffle`; `shfl_fadd_chain.s` is the same with the offset in a register).
.kernel shfl_imm_fadd_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        cvt.f32.u32         %v, %tid.x
        mov.u32             %i, 0
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        shfl.sync.bfly.b32  %v, %v, 1
        add.u32             %i, %i, 16
        setp.ne.u32         %more, %i, iters
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, 1
        add.f32             %v, %v, 1.0
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
