.kernel ai_w32_k128
.block 32
.buffer B u32[65536] = i
.buffer out u32[4128]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %w, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85, %r86, %r87, %r88, %r89, %r90, %r91, %r92, %r93, %r94, %r95, %r96, %r97, %r98, %r99, %r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115, %r116, %r117, %r118, %r119, %r120, %r121, %r122, %r123, %r124, %r125, %r126, %r127
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, 1
        setp.lt.u32 %p, %tid.x, 32
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x + 4096], %w
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
        @%p atom.global.add.u32 %r64, B[%a + 4096], 1
        @%p atom.global.add.u32 %r65, B[%a + 4160], 1
        @%p atom.global.add.u32 %r66, B[%a + 4224], 1
        @%p atom.global.add.u32 %r67, B[%a + 4288], 1
        @%p atom.global.add.u32 %r68, B[%a + 4352], 1
        @%p atom.global.add.u32 %r69, B[%a + 4416], 1
        @%p atom.global.add.u32 %r70, B[%a + 4480], 1
        @%p atom.global.add.u32 %r71, B[%a + 4544], 1
        @%p atom.global.add.u32 %r72, B[%a + 4608], 1
        @%p atom.global.add.u32 %r73, B[%a + 4672], 1
        @%p atom.global.add.u32 %r74, B[%a + 4736], 1
        @%p atom.global.add.u32 %r75, B[%a + 4800], 1
        @%p atom.global.add.u32 %r76, B[%a + 4864], 1
        @%p atom.global.add.u32 %r77, B[%a + 4928], 1
        @%p atom.global.add.u32 %r78, B[%a + 4992], 1
        @%p atom.global.add.u32 %r79, B[%a + 5056], 1
        @%p atom.global.add.u32 %r80, B[%a + 5120], 1
        @%p atom.global.add.u32 %r81, B[%a + 5184], 1
        @%p atom.global.add.u32 %r82, B[%a + 5248], 1
        @%p atom.global.add.u32 %r83, B[%a + 5312], 1
        @%p atom.global.add.u32 %r84, B[%a + 5376], 1
        @%p atom.global.add.u32 %r85, B[%a + 5440], 1
        @%p atom.global.add.u32 %r86, B[%a + 5504], 1
        @%p atom.global.add.u32 %r87, B[%a + 5568], 1
        @%p atom.global.add.u32 %r88, B[%a + 5632], 1
        @%p atom.global.add.u32 %r89, B[%a + 5696], 1
        @%p atom.global.add.u32 %r90, B[%a + 5760], 1
        @%p atom.global.add.u32 %r91, B[%a + 5824], 1
        @%p atom.global.add.u32 %r92, B[%a + 5888], 1
        @%p atom.global.add.u32 %r93, B[%a + 5952], 1
        @%p atom.global.add.u32 %r94, B[%a + 6016], 1
        @%p atom.global.add.u32 %r95, B[%a + 6080], 1
        @%p atom.global.add.u32 %r96, B[%a + 6144], 1
        @%p atom.global.add.u32 %r97, B[%a + 6208], 1
        @%p atom.global.add.u32 %r98, B[%a + 6272], 1
        @%p atom.global.add.u32 %r99, B[%a + 6336], 1
        @%p atom.global.add.u32 %r100, B[%a + 6400], 1
        @%p atom.global.add.u32 %r101, B[%a + 6464], 1
        @%p atom.global.add.u32 %r102, B[%a + 6528], 1
        @%p atom.global.add.u32 %r103, B[%a + 6592], 1
        @%p atom.global.add.u32 %r104, B[%a + 6656], 1
        @%p atom.global.add.u32 %r105, B[%a + 6720], 1
        @%p atom.global.add.u32 %r106, B[%a + 6784], 1
        @%p atom.global.add.u32 %r107, B[%a + 6848], 1
        @%p atom.global.add.u32 %r108, B[%a + 6912], 1
        @%p atom.global.add.u32 %r109, B[%a + 6976], 1
        @%p atom.global.add.u32 %r110, B[%a + 7040], 1
        @%p atom.global.add.u32 %r111, B[%a + 7104], 1
        @%p atom.global.add.u32 %r112, B[%a + 7168], 1
        @%p atom.global.add.u32 %r113, B[%a + 7232], 1
        @%p atom.global.add.u32 %r114, B[%a + 7296], 1
        @%p atom.global.add.u32 %r115, B[%a + 7360], 1
        @%p atom.global.add.u32 %r116, B[%a + 7424], 1
        @%p atom.global.add.u32 %r117, B[%a + 7488], 1
        @%p atom.global.add.u32 %r118, B[%a + 7552], 1
        @%p atom.global.add.u32 %r119, B[%a + 7616], 1
        @%p atom.global.add.u32 %r120, B[%a + 7680], 1
        @%p atom.global.add.u32 %r121, B[%a + 7744], 1
        @%p atom.global.add.u32 %r122, B[%a + 7808], 1
        @%p atom.global.add.u32 %r123, B[%a + 7872], 1
        @%p atom.global.add.u32 %r124, B[%a + 7936], 1
        @%p atom.global.add.u32 %r125, B[%a + 8000], 1
        @%p atom.global.add.u32 %r126, B[%a + 8064], 1
        @%p atom.global.add.u32 %r127, B[%a + 8128], 1
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
        st.global.u32 out[%tid.x + 1024], %r32
        st.global.u32 out[%tid.x + 1056], %r33
        st.global.u32 out[%tid.x + 1088], %r34
        st.global.u32 out[%tid.x + 1120], %r35
        st.global.u32 out[%tid.x + 1152], %r36
        st.global.u32 out[%tid.x + 1184], %r37
        st.global.u32 out[%tid.x + 1216], %r38
        st.global.u32 out[%tid.x + 1248], %r39
        st.global.u32 out[%tid.x + 1280], %r40
        st.global.u32 out[%tid.x + 1312], %r41
        st.global.u32 out[%tid.x + 1344], %r42
        st.global.u32 out[%tid.x + 1376], %r43
        st.global.u32 out[%tid.x + 1408], %r44
        st.global.u32 out[%tid.x + 1440], %r45
        st.global.u32 out[%tid.x + 1472], %r46
        st.global.u32 out[%tid.x + 1504], %r47
        st.global.u32 out[%tid.x + 1536], %r48
        st.global.u32 out[%tid.x + 1568], %r49
        st.global.u32 out[%tid.x + 1600], %r50
        st.global.u32 out[%tid.x + 1632], %r51
        st.global.u32 out[%tid.x + 1664], %r52
        st.global.u32 out[%tid.x + 1696], %r53
        st.global.u32 out[%tid.x + 1728], %r54
        st.global.u32 out[%tid.x + 1760], %r55
        st.global.u32 out[%tid.x + 1792], %r56
        st.global.u32 out[%tid.x + 1824], %r57
        st.global.u32 out[%tid.x + 1856], %r58
        st.global.u32 out[%tid.x + 1888], %r59
        st.global.u32 out[%tid.x + 1920], %r60
        st.global.u32 out[%tid.x + 1952], %r61
        st.global.u32 out[%tid.x + 1984], %r62
        st.global.u32 out[%tid.x + 2016], %r63
        st.global.u32 out[%tid.x + 2048], %r64
        st.global.u32 out[%tid.x + 2080], %r65
        st.global.u32 out[%tid.x + 2112], %r66
        st.global.u32 out[%tid.x + 2144], %r67
        st.global.u32 out[%tid.x + 2176], %r68
        st.global.u32 out[%tid.x + 2208], %r69
        st.global.u32 out[%tid.x + 2240], %r70
        st.global.u32 out[%tid.x + 2272], %r71
        st.global.u32 out[%tid.x + 2304], %r72
        st.global.u32 out[%tid.x + 2336], %r73
        st.global.u32 out[%tid.x + 2368], %r74
        st.global.u32 out[%tid.x + 2400], %r75
        st.global.u32 out[%tid.x + 2432], %r76
        st.global.u32 out[%tid.x + 2464], %r77
        st.global.u32 out[%tid.x + 2496], %r78
        st.global.u32 out[%tid.x + 2528], %r79
        st.global.u32 out[%tid.x + 2560], %r80
        st.global.u32 out[%tid.x + 2592], %r81
        st.global.u32 out[%tid.x + 2624], %r82
        st.global.u32 out[%tid.x + 2656], %r83
        st.global.u32 out[%tid.x + 2688], %r84
        st.global.u32 out[%tid.x + 2720], %r85
        st.global.u32 out[%tid.x + 2752], %r86
        st.global.u32 out[%tid.x + 2784], %r87
        st.global.u32 out[%tid.x + 2816], %r88
        st.global.u32 out[%tid.x + 2848], %r89
        st.global.u32 out[%tid.x + 2880], %r90
        st.global.u32 out[%tid.x + 2912], %r91
        st.global.u32 out[%tid.x + 2944], %r92
        st.global.u32 out[%tid.x + 2976], %r93
        st.global.u32 out[%tid.x + 3008], %r94
        st.global.u32 out[%tid.x + 3040], %r95
        st.global.u32 out[%tid.x + 3072], %r96
        st.global.u32 out[%tid.x + 3104], %r97
        st.global.u32 out[%tid.x + 3136], %r98
        st.global.u32 out[%tid.x + 3168], %r99
        st.global.u32 out[%tid.x + 3200], %r100
        st.global.u32 out[%tid.x + 3232], %r101
        st.global.u32 out[%tid.x + 3264], %r102
        st.global.u32 out[%tid.x + 3296], %r103
        st.global.u32 out[%tid.x + 3328], %r104
        st.global.u32 out[%tid.x + 3360], %r105
        st.global.u32 out[%tid.x + 3392], %r106
        st.global.u32 out[%tid.x + 3424], %r107
        st.global.u32 out[%tid.x + 3456], %r108
        st.global.u32 out[%tid.x + 3488], %r109
        st.global.u32 out[%tid.x + 3520], %r110
        st.global.u32 out[%tid.x + 3552], %r111
        st.global.u32 out[%tid.x + 3584], %r112
        st.global.u32 out[%tid.x + 3616], %r113
        st.global.u32 out[%tid.x + 3648], %r114
        st.global.u32 out[%tid.x + 3680], %r115
        st.global.u32 out[%tid.x + 3712], %r116
        st.global.u32 out[%tid.x + 3744], %r117
        st.global.u32 out[%tid.x + 3776], %r118
        st.global.u32 out[%tid.x + 3808], %r119
        st.global.u32 out[%tid.x + 3840], %r120
        st.global.u32 out[%tid.x + 3872], %r121
        st.global.u32 out[%tid.x + 3904], %r122
        st.global.u32 out[%tid.x + 3936], %r123
        st.global.u32 out[%tid.x + 3968], %r124
        st.global.u32 out[%tid.x + 4000], %r125
        st.global.u32 out[%tid.x + 4032], %r126
        st.global.u32 out[%tid.x + 4064], %r127
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
