.kernel ai_l1_k8
.block 32
.buffer B u32[65536] = i
.buffer out u32[288]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %w, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 0
        setp.lt.u32 %p, %tid.x, 1
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x + 256], %w
        mov.u32 %t0, %clock
        @%p atom.global.add.u32 %r0, B[%a + 0], 1
        @%p atom.global.add.u32 %r1, B[%a + 64], 1
        @%p atom.global.add.u32 %r2, B[%a + 128], 1
        @%p atom.global.add.u32 %r3, B[%a + 192], 1
        @%p atom.global.add.u32 %r4, B[%a + 256], 1
        @%p atom.global.add.u32 %r5, B[%a + 320], 1
        @%p atom.global.add.u32 %r6, B[%a + 384], 1
        @%p atom.global.add.u32 %r7, B[%a + 448], 1
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x + 0], %r0
        st.global.u32 out[%tid.x + 32], %r1
        st.global.u32 out[%tid.x + 64], %r2
        st.global.u32 out[%tid.x + 96], %r3
        st.global.u32 out[%tid.x + 128], %r4
        st.global.u32 out[%tid.x + 160], %r5
        st.global.u32 out[%tid.x + 192], %r6
        st.global.u32 out[%tid.x + 224], %r7
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
