.kernel ai_one_k32
.block 32
.buffer B u32[65536] = i
.buffer out u32[1056]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %w, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 0
        setp.lt.u32 %p, %tid.x, 32
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x + 1024], %w
        mov.u32 %t0, %clock
        @%p atom.global.add.u32 %r0, B[%a + 0], 1
        @%p atom.global.add.u32 %r1, B[%a + 64], 1
        @%p atom.global.add.u32 %r2, B[%a + 128], 1
        @%p atom.global.add.u32 %r3, B[%a + 192], 1
        @%p atom.global.add.u32 %r4, B[%a + 256], 1
        @%p atom.global.add.u32 %r5, B[%a + 320], 1
        @%p atom.global.add.u32 %r6, B[%a + 384], 1
        @%p atom.global.add.u32 %r7, B[%a + 448], 1
        @%p atom.global.add.u32 %r8, B[%a + 512], 1
        @%p atom.global.add.u32 %r9, B[%a + 576], 1
        @%p atom.global.add.u32 %r10, B[%a + 640], 1
        @%p atom.global.add.u32 %r11, B[%a + 704], 1
        @%p atom.global.add.u32 %r12, B[%a + 768], 1
        @%p atom.global.add.u32 %r13, B[%a + 832], 1
        @%p atom.global.add.u32 %r14, B[%a + 896], 1
        @%p atom.global.add.u32 %r15, B[%a + 960], 1
        @%p atom.global.add.u32 %r16, B[%a + 1024], 1
        @%p atom.global.add.u32 %r17, B[%a + 1088], 1
        @%p atom.global.add.u32 %r18, B[%a + 1152], 1
        @%p atom.global.add.u32 %r19, B[%a + 1216], 1
        @%p atom.global.add.u32 %r20, B[%a + 1280], 1
        @%p atom.global.add.u32 %r21, B[%a + 1344], 1
        @%p atom.global.add.u32 %r22, B[%a + 1408], 1
        @%p atom.global.add.u32 %r23, B[%a + 1472], 1
        @%p atom.global.add.u32 %r24, B[%a + 1536], 1
        @%p atom.global.add.u32 %r25, B[%a + 1600], 1
        @%p atom.global.add.u32 %r26, B[%a + 1664], 1
        @%p atom.global.add.u32 %r27, B[%a + 1728], 1
        @%p atom.global.add.u32 %r28, B[%a + 1792], 1
        @%p atom.global.add.u32 %r29, B[%a + 1856], 1
        @%p atom.global.add.u32 %r30, B[%a + 1920], 1
        @%p atom.global.add.u32 %r31, B[%a + 1984], 1
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
        st.global.u32 out[%tid.x + 256], %r8
        st.global.u32 out[%tid.x + 288], %r9
        st.global.u32 out[%tid.x + 320], %r10
        st.global.u32 out[%tid.x + 352], %r11
        st.global.u32 out[%tid.x + 384], %r12
        st.global.u32 out[%tid.x + 416], %r13
        st.global.u32 out[%tid.x + 448], %r14
        st.global.u32 out[%tid.x + 480], %r15
        st.global.u32 out[%tid.x + 512], %r16
        st.global.u32 out[%tid.x + 544], %r17
        st.global.u32 out[%tid.x + 576], %r18
        st.global.u32 out[%tid.x + 608], %r19
        st.global.u32 out[%tid.x + 640], %r20
        st.global.u32 out[%tid.x + 672], %r21
        st.global.u32 out[%tid.x + 704], %r22
        st.global.u32 out[%tid.x + 736], %r23
        st.global.u32 out[%tid.x + 768], %r24
        st.global.u32 out[%tid.x + 800], %r25
        st.global.u32 out[%tid.x + 832], %r26
        st.global.u32 out[%tid.x + 864], %r27
        st.global.u32 out[%tid.x + 896], %r28
        st.global.u32 out[%tid.x + 928], %r29
        st.global.u32 out[%tid.x + 960], %r30
        st.global.u32 out[%tid.x + 992], %r31
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
