// Calibration microbenchmark (mirrors `k_iadd_lat` of calibration/measured/ubench.cu): dependent pairs v = (v ^ 3) + 3
.kernel xor_add_chain
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.reg %v, %i, %t0, %t1
.pred %more, %first

        mov.u32             %v, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        xor.b32             %v, %v, 3
        add.u32             %i, %i, 16
        add.u32             %v, %v, 3
        setp.ne.u32         %more, %i, iters
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        xor.b32             %v, %v, 3
        add.u32             %v, %v, 3
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
