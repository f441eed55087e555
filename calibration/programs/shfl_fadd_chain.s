// Calibration microbenchmark (mirrors `k_shfl_lat` of calibration/measured/ubench.cu): dependent pairs v = shfl.bfly(v, 1) + 1.0
// The offset 1 is the kernel's argument `mask_off` there, a register in the SASS (`SHFL.BFLY PT, R9, R9, R4`): here it is
// read from memory, so that it is a register to warpsim and to ptxas alike (`units.shuffle_reg`).
.kernel shfl_fadd_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.buffer offset u32[1] = 1
.reg %v, %i, %t0, %t1, %off
.pred %more, %first

        cvt.f32.u32         %v, %tid.x
        ld.global.u32       %off, offset[0]
        mov.u32             %i, 0
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        shfl.sync.bfly.b32  %v, %v, %off
        add.u32             %i, %i, 16
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        shfl.sync.bfly.b32  %v, %v, %off
        add.f32             %v, %v, 1.0
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
