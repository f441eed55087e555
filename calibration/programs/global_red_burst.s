// Calibration microbenchmark (`calibration/measured/atomic_probes.py`'s `rw_*_k128`, the same CUDA): a burst of
// 128 `red.global.add.u32`, each on fresh lines, by the first `lanes` lanes `spread` words apart, between two clock
// reads. A load and a store first read the buffer's pointer and wait for it. A `red` returns nothing: the SM's
// atomic pipe takes one every `memory.atomic_issue` cycles, whatever its lines.
.kernel global_red_burst
.param spread = 1
.param lanes = 32
.block 32
.buffer B u32[65536] = i
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %k, %t0, %t1, %s, %w, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39, %r40, %r41, %r42, %r43, %r44, %r45, %r46, %r47, %r48, %r49, %r50, %r51, %r52, %r53, %r54, %r55, %r56, %r57, %r58, %r59, %r60, %r61, %r62, %r63, %r64, %r65, %r66, %r67, %r68, %r69, %r70, %r71, %r72, %r73, %r74, %r75, %r76, %r77, %r78, %r79, %r80, %r81, %r82, %r83, %r84, %r85, %r86, %r87, %r88, %r89, %r90, %r91, %r92, %r93, %r94, %r95, %r96, %r97, %r98, %r99, %r100, %r101, %r102, %r103, %r104, %r105, %r106, %r107, %r108, %r109, %r110, %r111, %r112, %r113, %r114, %r115, %r116, %r117, %r118, %r119, %r120, %r121, %r122, %r123, %r124, %r125, %r126, %r127, %r128, %r129
.pred %p, %z

        mov.u32 %k, %tid.x
        mul.lo.u32 %a, %tid.x, spread
        setp.lt.u32 %p, %tid.x, lanes
        mov.u32 %s, 0
        ld.global.u32 %w, B[%tid.x + 60000]
        st.global.u32 out[%tid.x], %w
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
        @%p red.global.add.u32 B[%a + 2048], 1
        @%p red.global.add.u32 B[%a + 2112], 1
        @%p red.global.add.u32 B[%a + 2176], 1
        @%p red.global.add.u32 B[%a + 2240], 1
        @%p red.global.add.u32 B[%a + 2304], 1
        @%p red.global.add.u32 B[%a + 2368], 1
        @%p red.global.add.u32 B[%a + 2432], 1
        @%p red.global.add.u32 B[%a + 2496], 1
        @%p red.global.add.u32 B[%a + 2560], 1
        @%p red.global.add.u32 B[%a + 2624], 1
        @%p red.global.add.u32 B[%a + 2688], 1
        @%p red.global.add.u32 B[%a + 2752], 1
        @%p red.global.add.u32 B[%a + 2816], 1
        @%p red.global.add.u32 B[%a + 2880], 1
        @%p red.global.add.u32 B[%a + 2944], 1
        @%p red.global.add.u32 B[%a + 3008], 1
        @%p red.global.add.u32 B[%a + 3072], 1
        @%p red.global.add.u32 B[%a + 3136], 1
        @%p red.global.add.u32 B[%a + 3200], 1
        @%p red.global.add.u32 B[%a + 3264], 1
        @%p red.global.add.u32 B[%a + 3328], 1
        @%p red.global.add.u32 B[%a + 3392], 1
        @%p red.global.add.u32 B[%a + 3456], 1
        @%p red.global.add.u32 B[%a + 3520], 1
        @%p red.global.add.u32 B[%a + 3584], 1
        @%p red.global.add.u32 B[%a + 3648], 1
        @%p red.global.add.u32 B[%a + 3712], 1
        @%p red.global.add.u32 B[%a + 3776], 1
        @%p red.global.add.u32 B[%a + 3840], 1
        @%p red.global.add.u32 B[%a + 3904], 1
        @%p red.global.add.u32 B[%a + 3968], 1
        @%p red.global.add.u32 B[%a + 4032], 1
        @%p red.global.add.u32 B[%a + 4096], 1
        @%p red.global.add.u32 B[%a + 4160], 1
        @%p red.global.add.u32 B[%a + 4224], 1
        @%p red.global.add.u32 B[%a + 4288], 1
        @%p red.global.add.u32 B[%a + 4352], 1
        @%p red.global.add.u32 B[%a + 4416], 1
        @%p red.global.add.u32 B[%a + 4480], 1
        @%p red.global.add.u32 B[%a + 4544], 1
        @%p red.global.add.u32 B[%a + 4608], 1
        @%p red.global.add.u32 B[%a + 4672], 1
        @%p red.global.add.u32 B[%a + 4736], 1
        @%p red.global.add.u32 B[%a + 4800], 1
        @%p red.global.add.u32 B[%a + 4864], 1
        @%p red.global.add.u32 B[%a + 4928], 1
        @%p red.global.add.u32 B[%a + 4992], 1
        @%p red.global.add.u32 B[%a + 5056], 1
        @%p red.global.add.u32 B[%a + 5120], 1
        @%p red.global.add.u32 B[%a + 5184], 1
        @%p red.global.add.u32 B[%a + 5248], 1
        @%p red.global.add.u32 B[%a + 5312], 1
        @%p red.global.add.u32 B[%a + 5376], 1
        @%p red.global.add.u32 B[%a + 5440], 1
        @%p red.global.add.u32 B[%a + 5504], 1
        @%p red.global.add.u32 B[%a + 5568], 1
        @%p red.global.add.u32 B[%a + 5632], 1
        @%p red.global.add.u32 B[%a + 5696], 1
        @%p red.global.add.u32 B[%a + 5760], 1
        @%p red.global.add.u32 B[%a + 5824], 1
        @%p red.global.add.u32 B[%a + 5888], 1
        @%p red.global.add.u32 B[%a + 5952], 1
        @%p red.global.add.u32 B[%a + 6016], 1
        @%p red.global.add.u32 B[%a + 6080], 1
        @%p red.global.add.u32 B[%a + 6144], 1
        @%p red.global.add.u32 B[%a + 6208], 1
        @%p red.global.add.u32 B[%a + 6272], 1
        @%p red.global.add.u32 B[%a + 6336], 1
        @%p red.global.add.u32 B[%a + 6400], 1
        @%p red.global.add.u32 B[%a + 6464], 1
        @%p red.global.add.u32 B[%a + 6528], 1
        @%p red.global.add.u32 B[%a + 6592], 1
        @%p red.global.add.u32 B[%a + 6656], 1
        @%p red.global.add.u32 B[%a + 6720], 1
        @%p red.global.add.u32 B[%a + 6784], 1
        @%p red.global.add.u32 B[%a + 6848], 1
        @%p red.global.add.u32 B[%a + 6912], 1
        @%p red.global.add.u32 B[%a + 6976], 1
        @%p red.global.add.u32 B[%a + 7040], 1
        @%p red.global.add.u32 B[%a + 7104], 1
        @%p red.global.add.u32 B[%a + 7168], 1
        @%p red.global.add.u32 B[%a + 7232], 1
        @%p red.global.add.u32 B[%a + 7296], 1
        @%p red.global.add.u32 B[%a + 7360], 1
        @%p red.global.add.u32 B[%a + 7424], 1
        @%p red.global.add.u32 B[%a + 7488], 1
        @%p red.global.add.u32 B[%a + 7552], 1
        @%p red.global.add.u32 B[%a + 7616], 1
        @%p red.global.add.u32 B[%a + 7680], 1
        @%p red.global.add.u32 B[%a + 7744], 1
        @%p red.global.add.u32 B[%a + 7808], 1
        @%p red.global.add.u32 B[%a + 7872], 1
        @%p red.global.add.u32 B[%a + 7936], 1
        @%p red.global.add.u32 B[%a + 8000], 1
        @%p red.global.add.u32 B[%a + 8064], 1
        @%p red.global.add.u32 B[%a + 8128], 1
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x], %s
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
