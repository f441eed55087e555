.kernel rb_w32_k32
.block 32
.buffer B u32[65536] = i
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %s, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 1
        setp.lt.u32 %p, %tid.x, 32
        mov.u32 %s, 0
        mov.u32 %t0, %clock
        @%p red.global.add.u32 B[%a + 0], 1
        @%p red.global.add.u32 B[%a + 64], 1
        @%p red.global.add.u32 B[%a + 128], 1
        @%p red.global.add.u32 B[%a + 192], 1
        @%p red.global.add.u32 B[%a + 256], 1
        @%p red.global.add.u32 B[%a + 320], 1
        @%p red.global.add.u32 B[%a + 384], 1
        @%p red.global.add.u32 B[%a + 448], 1
        @%p red.global.add.u32 B[%a + 512], 1
        @%p red.global.add.u32 B[%a + 576], 1
        @%p red.global.add.u32 B[%a + 640], 1
        @%p red.global.add.u32 B[%a + 704], 1
        @%p red.global.add.u32 B[%a + 768], 1
        @%p red.global.add.u32 B[%a + 832], 1
        @%p red.global.add.u32 B[%a + 896], 1
        @%p red.global.add.u32 B[%a + 960], 1
        @%p red.global.add.u32 B[%a + 1024], 1
        @%p red.global.add.u32 B[%a + 1088], 1
        @%p red.global.add.u32 B[%a + 1152], 1
        @%p red.global.add.u32 B[%a + 1216], 1
        @%p red.global.add.u32 B[%a + 1280], 1
        @%p red.global.add.u32 B[%a + 1344], 1
        @%p red.global.add.u32 B[%a + 1408], 1
        @%p red.global.add.u32 B[%a + 1472], 1
        @%p red.global.add.u32 B[%a + 1536], 1
        @%p red.global.add.u32 B[%a + 1600], 1
        @%p red.global.add.u32 B[%a + 1664], 1
        @%p red.global.add.u32 B[%a + 1728], 1
        @%p red.global.add.u32 B[%a + 1792], 1
        @%p red.global.add.u32 B[%a + 1856], 1
        @%p red.global.add.u32 B[%a + 1920], 1
        @%p red.global.add.u32 B[%a + 1984], 1
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x], %s
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
