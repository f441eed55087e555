// Calibration: eight independent 32-bit divisions an iteration, each by its own register that changes every
// iteration (ubench29.cu's k_udiv_tput): the divisions' issue interval.
.kernel div32_reg_tput
.param iters = 1024
.buffer out u32[W]
.buffer cyc u32[1]
.block 1
.reg %v<8>, %d<8>, %i, %k, %t0, %t1
.pred %more

        mov.u32             %v0, %tid.x
        add.u32             %v1, %v0, 1
        add.u32             %v2, %v0, 2
        add.u32             %v3, %v0, 3
        add.u32             %v4, %v0, 4
        add.u32             %v5, %v0, 5
        add.u32             %v6, %v0, 6
        add.u32             %v7, %v0, 7
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        and.b32             %k, %i, 3
        add.u32             %i, %i, 1
        add.u32             %d0, %k, 7
        add.u32             %d1, %k, 8
        add.u32             %d2, %k, 9
        add.u32             %d3, %k, 10
        add.u32             %d4, %k, 11
        add.u32             %d5, %k, 12
        add.u32             %d6, %k, 13
        add.u32             %d7, %k, 14
        div.u32             %v0, %v0, %d0
        div.u32             %v1, %v1, %d1
        div.u32             %v2, %v2, %d2
        div.u32             %v3, %v3, %d3
        div.u32             %v4, %v4, %d4
        div.u32             %v5, %v5, %d5
        div.u32             %v6, %v6, %d6
        div.u32             %v7, %v7, %d7
        add.u32             %v0, %v0, 1000000
        add.u32             %v1, %v1, 1000000
        add.u32             %v2, %v2, 1000000
        add.u32             %v3, %v3, 1000000
        add.u32             %v4, %v4, 1000000
        add.u32             %v5, %v5, 1000000
        add.u32             %v6, %v6, 1000000
        add.u32             %v7, %v7, 1000000
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        add.u32             %v0, %v0, %v1
        add.u32             %v2, %v2, %v3
        add.u32             %v4, %v4, %v5
        add.u32             %v6, %v6, %v7
        add.u32             %v0, %v0, %v2
        add.u32             %v4, %v4, %v6
        add.u32             %v0, %v0, %v4
        st.global.u32       out[%tid.x], %v0
        st.global.u32       cyc[0], %t1
