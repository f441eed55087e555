.kernel r_redmax_l32
.block 32
.buffer B u32[2112] = i
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %r1, %k, %i, %t0, %t1
.pred %p, %z, %more

        mov.u32 %a, 0
        mov.u32 %k, %tid.x
        mov.u32 %i, 0
        setp.lt.u32 %p, %tid.x, 32
        mov.u32 %t0, %clock
loop:
        @%p red.global.max.u32 B[%a], %k
        add.u32 %a, %a, 32
        add.u32 %i, %i, 1
        setp.lt.u32 %more, %i, 64
        @%more bra loop
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x], %a
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
