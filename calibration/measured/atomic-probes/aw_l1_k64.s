.kernel aw_l1_k64
.block 32
.buffer B u32[65536] = i
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %s, %w, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85, %r86, %r87, %r88, %r89, %r90, %r91, %r92, %r93, %r94, %r95, %r96, %r97, %r98, %r99, %r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115, %r116, %r117, %r118, %r119, %r120, %r121, %r122, %r123, %r124, %r125, %r126, %r127, %r128, %r129
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 0
        setp.lt.u32 %p, %tid.x, 1
        mov.u32 %s, 0
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x], %w
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
        @%p atom.global.add.u32 %r32, B[%a + 2048], 1
        @%p atom.global.add.u32 %r33, B[%a + 2112], 1
        @%p atom.global.add.u32 %r34, B[%a + 2176], 1
        @%p atom.global.add.u32 %r35, B[%a + 2240], 1
        @%p atom.global.add.u32 %r36, B[%a + 2304], 1
        @%p atom.global.add.u32 %r37, B[%a + 2368], 1
        @%p atom.global.add.u32 %r38, B[%a + 2432], 1
        @%p atom.global.add.u32 %r39, B[%a + 2496], 1
        @%p atom.global.add.u32 %r40, B[%a + 2560], 1
        @%p atom.global.add.u32 %r41, B[%a + 2624], 1
        @%p atom.global.add.u32 %r42, B[%a + 2688], 1
        @%p atom.global.add.u32 %r43, B[%a + 2752], 1
        @%p atom.global.add.u32 %r44, B[%a + 2816], 1
        @%p atom.global.add.u32 %r45, B[%a + 2880], 1
        @%p atom.global.add.u32 %r46, B[%a + 2944], 1
        @%p atom.global.add.u32 %r47, B[%a + 3008], 1
        @%p atom.global.add.u32 %r48, B[%a + 3072], 1
        @%p atom.global.add.u32 %r49, B[%a + 3136], 1
        @%p atom.global.add.u32 %r50, B[%a + 3200], 1
        @%p atom.global.add.u32 %r51, B[%a + 3264], 1
        @%p atom.global.add.u32 %r52, B[%a + 3328], 1
        @%p atom.global.add.u32 %r53, B[%a + 3392], 1
        @%p atom.global.add.u32 %r54, B[%a + 3456], 1
        @%p atom.global.add.u32 %r55, B[%a + 3520], 1
        @%p atom.global.add.u32 %r56, B[%a + 3584], 1
        @%p atom.global.add.u32 %r57, B[%a + 3648], 1
        @%p atom.global.add.u32 %r58, B[%a + 3712], 1
        @%p atom.global.add.u32 %r59, B[%a + 3776], 1
        @%p atom.global.add.u32 %r60, B[%a + 3840], 1
        @%p atom.global.add.u32 %r61, B[%a + 3904], 1
        @%p atom.global.add.u32 %r62, B[%a + 3968], 1
        @%p atom.global.add.u32 %r63, B[%a + 4032], 1
        add.u32 %s, %s, %r0
        add.u32 %s, %s, %r1
        add.u32 %s, %s, %r2
        add.u32 %s, %s, %r3
        add.u32 %s, %s, %r4
        add.u32 %s, %s, %r5
        add.u32 %s, %s, %r6
        add.u32 %s, %s, %r7
        add.u32 %s, %s, %r8
        add.u32 %s, %s, %r9
        add.u32 %s, %s, %r10
        add.u32 %s, %s, %r11
        add.u32 %s, %s, %r12
        add.u32 %s, %s, %r13
        add.u32 %s, %s, %r14
        add.u32 %s, %s, %r15
        add.u32 %s, %s, %r16
        add.u32 %s, %s, %r17
        add.u32 %s, %s, %r18
        add.u32 %s, %s, %r19
        add.u32 %s, %s, %r20
        add.u32 %s, %s, %r21
        add.u32 %s, %s, %r22
        add.u32 %s, %s, %r23
        add.u32 %s, %s, %r24
        add.u32 %s, %s, %r25
        add.u32 %s, %s, %r26
        add.u32 %s, %s, %r27
        add.u32 %s, %s, %r28
        add.u32 %s, %s, %r29
        add.u32 %s, %s, %r30
        add.u32 %s, %s, %r31
        add.u32 %s, %s, %r32
        add.u32 %s, %s, %r33
        add.u32 %s, %s, %r34
        add.u32 %s, %s, %r35
        add.u32 %s, %s, %r36
        add.u32 %s, %s, %r37
        add.u32 %s, %s, %r38
        add.u32 %s, %s, %r39
        add.u32 %s, %s, %r40
        add.u32 %s, %s, %r41
        add.u32 %s, %s, %r42
        add.u32 %s, %s, %r43
        add.u32 %s, %s, %r44
        add.u32 %s, %s, %r45
        add.u32 %s, %s, %r46
        add.u32 %s, %s, %r47
        add.u32 %s, %s, %r48
        add.u32 %s, %s, %r49
        add.u32 %s, %s, %r50
        add.u32 %s, %s, %r51
        add.u32 %s, %s, %r52
        add.u32 %s, %s, %r53
        add.u32 %s, %s, %r54
        add.u32 %s, %s, %r55
        add.u32 %s, %s, %r56
        add.u32 %s, %s, %r57
        add.u32 %s, %s, %r58
        add.u32 %s, %s, %r59
        add.u32 %s, %s, %r60
        add.u32 %s, %s, %r61
        add.u32 %s, %s, %r62
        add.u32 %s, %s, %r63
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x], %s
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
