.kernel ai_w32_k1
.block 32
.buffer B u32[65536] = i
.buffer out u32[64]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %w, %r0
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 1
        setp.lt.u32 %p, %tid.x, 32
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x + 32], %w
        mov.u32 %t0, %clock
        @%p atom.global.add.u32 %r0, B[%a + 0], 1
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x + 0], %r0
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
