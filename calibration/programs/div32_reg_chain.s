// Calibration: a 32-bit division or remainder by a register that changes every iteration (op 0: div.u32, 1:
// rem.u32, 2: div.s32, 3: rem.s32), in a dependent chain with an add. Mirrors ubench29.cu's k_udiv_var,
// k_urem_var, k_sdiv_var and k_srem_var: the divisor d + (i & 3) (signed: d - (i & 3)) is new each iteration, so
// ptxas runs the whole sequence (I2F, MUFU.RCP, F2I, the multiply-high and its corrections) inside the loop.
.kernel div32_reg_chain
.param op = 0
.param iters = 1024
.buffer out u32[W]
.buffer cyc u32[1]
.block 1
.reg %v, %i, %k, %e, %t0, %t1
.pred %more, %s

        add.u32             %v, %tid.x, 1000000
        mov.u32             %i, 0
        setp.eq.u32         %s, op, 1
        @%s bra             urem
        setp.eq.u32         %s, op, 2
        @%s bra             sdiv
        setp.eq.u32         %s, op, 3
        @%s bra             srem
        mov.u32             %t0, %clock
udiv:
        and.b32             %k, %i, 3
        add.u32             %i, %i, 1
        add.u32             %e, %k, 7
        div.u32             %v, %v, %e
        setp.ne.u32         %more, %i, iters
        add.u32             %v, %v, 1000000
        @%more bra          udiv
        bra                 done
urem:
        mov.u32             %t0, %clock
urem_loop:
        and.b32             %k, %i, 3
        add.u32             %i, %i, 1
        add.u32             %e, %k, 7
        rem.u32             %v, %v, %e
        setp.ne.u32         %more, %i, iters
        add.u32             %v, %v, 1000000
        @%more bra          urem_loop
        bra                 done
sdiv:
        mov.u32             %t0, %clock
sdiv_loop:
        and.b32             %k, %i, 3
        add.u32             %i, %i, 1
        sub.s32             %e, -7, %k
        div.s32             %v, %v, %e
        setp.ne.u32         %more, %i, iters
        add.s32             %v, %v, 1000000
        @%more bra          sdiv_loop
        bra                 done
srem:
        mov.u32             %t0, %clock
srem_loop:
        and.b32             %k, %i, 3
        add.u32             %i, %i, 1
        sub.s32             %e, -7, %k
        rem.s32             %v, %v, %e
        setp.ne.u32         %more, %i, iters
        add.s32             %v, %v, 1000000
        @%more bra          srem_loop
done:
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        st.global.u32       cyc[0], %t1
