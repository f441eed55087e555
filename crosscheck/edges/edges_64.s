// Edge operands of every 64-bit instruction and conversion, for `sim crosscheck`: each of 256 threads takes one
// pair (a, b) of 16 64-bit values (±0 / INT64_MIN, 2.5, -1.5, ±inf, quiet and signalling NaNs of both signs with
// payloads, the smallest subnormal / 1, the largest subnormal negated, the largest finite, 2^63, just below -2^63,
// all ones / -1) and stores what every f64, 64-bit integer, mixed-width and directed-rounding instruction gives for it,
// read as f64 or as integers, and their 32-bit halves. Division only where b != 0 (warpsim faults on a division by
// zero). The 64-bit atomics run on per-thread words: the same order on the GPU and in warpsim.
.kernel edges_64
.desc "edge operands of the 64-bit instructions and conversions (256 pairs of 16 values)"
.warp_sizes 32
.grid 2
.block 128
.buffer vals s64[16] = 0, [0..] = [0, (-9223372036854775807 - 1), 4612811918334230528, -4613937818241073152, 9218868437227405312, -4503599627370496, 9221120237041090560, -2251799813685247, 9218868437227405313, -4503599321950600, 1, -9218868437227405313, 9218868437227405311, 4890909195324358656, -4332462841530417151, -1]
.buffer out u64[256 * 113]
.buffer acc u64[256 * 8]
.buffer accf f64[256 * 2]
.buffer accs s64[256 * 2]
.shared sacc u64[128 * 4]
.shared saccf f64[128]
.reg %gid, %ia, %ib, %base, %sh, %alo, %ahi, %blo, %bhi, %s, %tid4, %snan
.reg.b64 %a, %b, %w, %r<75>
.pred %nz, %lt
        mad.lo.u32      %gid, %ctaid.x, %ntid.x, %tid.x
        shr.u32         %ia, %gid, 4
        and.b32         %ib, %gid, 15
        ld.global.b64   %a, vals[%ia]
        ld.global.b64   %b, vals[%ib]
        mov.b64         {%alo, %ahi}, %a
        mov.b64         {%blo, %bhi}, %b
        and.b32         %sh, %blo, 127
        mov.b32         %snan, 0x7f812345
        setp.ne.u64     %nz, %b, 0
        setp.lt.f64     %lt, %a, %b
        add.f64 %r0, %a, %b
        sub.f64 %r1, %a, %b
        mul.f64 %r2, %a, %b
        div.rn.f64 %r3, %a, %b
        min.f64 %r4, %a, %b
        max.f64 %r5, %a, %b
        fma.rn.f64 %r6, %a, %b, %a
        neg.f64 %r7, %a
        abs.f64 %r8, %a
        sqrt.rn.f64 %r9, %a
        mul.f64 %r10, %a, 1e-300
        min.f64 %r11, %a, %a
        max.f64 %r12, %b, %b
        cvt.rni.s64.f64 %r13, %a
        cvt.rni.u64.f64 %r14, %a
        cvt.rni.f64.f64 %r15, %a
        cvt.rzi.s64.f64 %r16, %a
        cvt.rzi.u64.f64 %r17, %a
        cvt.rzi.f64.f64 %r18, %a
        cvt.rmi.s64.f64 %r19, %a
        cvt.rmi.u64.f64 %r20, %a
        cvt.rmi.f64.f64 %r21, %a
        cvt.rpi.s64.f64 %r22, %a
        cvt.rpi.u64.f64 %r23, %a
        cvt.rpi.f64.f64 %r24, %a
        cvt.rn.f64.s64 %r25, %a
        cvt.rn.f64.u64 %r26, %a
        cvt.rz.f64.s64 %r27, %a
        cvt.rz.f64.u64 %r28, %a
        cvt.rm.f64.s64 %r29, %a
        cvt.rm.f64.u64 %r30, %a
        cvt.rp.f64.s64 %r31, %a
        cvt.rp.f64.u64 %r32, %a
        add.s64 %r33, %a, %b
        sub.s64 %r34, %a, %b
        mul.lo.s64 %r35, %a, %b
        mul.hi.u64 %r36, %a, %b
        mul.hi.s64 %r37, %a, %b
        min.s64 %r38, %a, %b
        min.u64 %r39, %a, %b
        max.s64 %r40, %a, %b
        max.u64 %r41, %a, %b
        and.b64 %r42, %a, %b
        or.b64 %r43, %a, %b
        xor.b64 %r44, %a, %b
        not.b64 %r45, %a
        neg.s64 %r46, %a
        abs.s64 %r47, %a
        shl.b64 %r48, %a, %sh
        shr.u64 %r49, %a, %sh
        shr.s64 %r50, %a, %sh
        mad.lo.s64 %r51, %a, %b, %a
        mad.hi.u64 %r52, %a, %b, %b
        mad.hi.s64 %r53, %a, %b, %b
        mul.wide.u32 %r54, %alo, %bhi
        mul.wide.s32 %r55, %alo, %bhi
        mad.wide.u32 %r56, %alo, %bhi, %a
        mad.wide.s32 %r57, %ahi, %blo, %b
        cvt.u64.s32 %r58, %ahi
        cvt.s64.u32 %r59, %ahi
        cvt.s64.s32 %r60, %blo
        @%nz div.u64 %r61, %a, %b
        @%nz div.s64 %r62, %a, %b
        @%nz rem.u64 %r63, %a, %b
        @%nz rem.s64 %r64, %a, %b
        mov.b64 %r65, {%bhi, %alo}
        fma.rn.f64 %r66, %a, %a, %b
        fma.rn.f64 %r67, %a, 2.5, %b
        fma.rn.f64 %r68, %b, 2.5, %a
        cvt.rni.s64.f32 %r69, %ahi
        cvt.rni.u64.f32 %r70, %ahi
        cvt.rzi.s64.f32 %r71, %ahi
        cvt.rzi.u64.f32 %r72, %ahi
        cvt.f64.f32 %r73, %snan
        selp.b64 %r74, %a, %b, %lt
        mul.lo.u32      %base, %gid, 113
        st.global.b64   out[%base + 0], %r0
        st.global.b64   out[%base + 1], %r1
        st.global.b64   out[%base + 2], %r2
        st.global.b64   out[%base + 3], %r3
        st.global.b64   out[%base + 4], %r4
        st.global.b64   out[%base + 5], %r5
        st.global.b64   out[%base + 6], %r6
        st.global.b64   out[%base + 7], %r7
        st.global.b64   out[%base + 8], %r8
        st.global.b64   out[%base + 9], %r9
        st.global.b64   out[%base + 10], %r10
        st.global.b64   out[%base + 11], %r11
        st.global.b64   out[%base + 12], %r12
        st.global.b64   out[%base + 13], %r13
        st.global.b64   out[%base + 14], %r14
        st.global.b64   out[%base + 15], %r15
        st.global.b64   out[%base + 16], %r16
        st.global.b64   out[%base + 17], %r17
        st.global.b64   out[%base + 18], %r18
        st.global.b64   out[%base + 19], %r19
        st.global.b64   out[%base + 20], %r20
        st.global.b64   out[%base + 21], %r21
        st.global.b64   out[%base + 22], %r22
        st.global.b64   out[%base + 23], %r23
        st.global.b64   out[%base + 24], %r24
        st.global.b64   out[%base + 25], %r25
        st.global.b64   out[%base + 26], %r26
        st.global.b64   out[%base + 27], %r27
        st.global.b64   out[%base + 28], %r28
        st.global.b64   out[%base + 29], %r29
        st.global.b64   out[%base + 30], %r30
        st.global.b64   out[%base + 31], %r31
        st.global.b64   out[%base + 32], %r32
        st.global.b64   out[%base + 33], %r33
        st.global.b64   out[%base + 34], %r34
        st.global.b64   out[%base + 35], %r35
        st.global.b64   out[%base + 36], %r36
        st.global.b64   out[%base + 37], %r37
        st.global.b64   out[%base + 38], %r38
        st.global.b64   out[%base + 39], %r39
        st.global.b64   out[%base + 40], %r40
        st.global.b64   out[%base + 41], %r41
        st.global.b64   out[%base + 42], %r42
        st.global.b64   out[%base + 43], %r43
        st.global.b64   out[%base + 44], %r44
        st.global.b64   out[%base + 45], %r45
        st.global.b64   out[%base + 46], %r46
        st.global.b64   out[%base + 47], %r47
        st.global.b64   out[%base + 48], %r48
        st.global.b64   out[%base + 49], %r49
        st.global.b64   out[%base + 50], %r50
        st.global.b64   out[%base + 51], %r51
        st.global.b64   out[%base + 52], %r52
        st.global.b64   out[%base + 53], %r53
        st.global.b64   out[%base + 54], %r54
        st.global.b64   out[%base + 55], %r55
        st.global.b64   out[%base + 56], %r56
        st.global.b64   out[%base + 57], %r57
        st.global.b64   out[%base + 58], %r58
        st.global.b64   out[%base + 59], %r59
        st.global.b64   out[%base + 60], %r60
        st.global.b64   out[%base + 61], %r61
        st.global.b64   out[%base + 62], %r62
        st.global.b64   out[%base + 63], %r63
        st.global.b64   out[%base + 64], %r64
        st.global.b64   out[%base + 65], %r65
        st.global.b64   out[%base + 66], %r66
        st.global.b64   out[%base + 67], %r67
        st.global.b64   out[%base + 68], %r68
        st.global.b64   out[%base + 69], %r69
        st.global.b64   out[%base + 70], %r70
        st.global.b64   out[%base + 71], %r71
        st.global.b64   out[%base + 72], %r72
        st.global.b64   out[%base + 73], %r73
        st.global.b64   out[%base + 74], %r74
        cvt.rn.f32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 75], %w
        cvt.rn.f32.s64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 76], %w
        cvt.rn.f32.u64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 77], %w
        cvt.rn.f32.s32 %s, %ahi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 78], %w
        cvt.rn.f32.u32 %s, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 79], %w
        cvt.rz.f32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 80], %w
        cvt.rz.f32.s64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 81], %w
        cvt.rz.f32.u64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 82], %w
        cvt.rz.f32.s32 %s, %ahi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 83], %w
        cvt.rz.f32.u32 %s, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 84], %w
        cvt.rm.f32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 85], %w
        cvt.rm.f32.s64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 86], %w
        cvt.rm.f32.u64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 87], %w
        cvt.rm.f32.s32 %s, %ahi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 88], %w
        cvt.rm.f32.u32 %s, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 89], %w
        cvt.rp.f32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 90], %w
        cvt.rp.f32.s64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 91], %w
        cvt.rp.f32.u64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 92], %w
        cvt.rp.f32.s32 %s, %ahi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 93], %w
        cvt.rp.f32.u32 %s, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 94], %w
        cvt.rni.s32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 95], %w
        cvt.rni.u32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 96], %w
        cvt.rzi.s32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 97], %w
        cvt.rzi.u32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 98], %w
        cvt.rmi.s32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 99], %w
        cvt.rmi.u32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 100], %w
        cvt.rpi.s32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 101], %w
        cvt.rpi.u32.f64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 102], %w
        cvt.u32.u64 %s, %a
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 103], %w
        cvt.s32.s64 %s, %b
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 104], %w
        mul.hi.u32 %s, %alo, %bhi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 105], %w
        mul.hi.s32 %s, %ahi, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 106], %w
        mad.hi.u32 %s, %alo, %bhi, %blo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 107], %w
        mad.hi.s32 %s, %ahi, %bhi, %alo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 108], %w
        sqrt.rn.f32 %s, %alo
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 109], %w
        sqrt.rn.f32 %s, %ahi
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 110], %w
        cvt.rni.f32.f32 %s, %snan
        cvt.u64.u32     %w, %s
        st.global.b64   out[%base + 111], %w
        cvt.f64.f32 %w, %ahi
        st.global.b64   out[%base + 112], %w
        mul.lo.u32      %base, %gid, 8
        st.global.b64   acc[%base + 0], %a
        red.global.add.u64 acc[%base + 0], %b
        mul.lo.u32      %ia, %gid, 2
        st.global.b64   accf[%ia + 0], %a
        red.global.add.f64 accf[%ia + 0], %b
        st.global.b64   acc[%base + 2], %a
        atom.global.cas.b64 %w, acc[%base + 2], %a, %b
        st.global.b64   acc[%base + 3], %a
        atom.global.exch.b64 %w, acc[%base + 3], %b
        st.global.b64   acc[%base + 4], %w
        st.global.b64   accs[%ia + 0], %a
        red.global.min.s64 accs[%ia + 0], %b
        st.global.b64   acc[%base + 6], %a
        atom.global.max.u64 %w, acc[%base + 6], %b
        st.global.b64   acc[%base + 7], %a
        red.global.xor.b64 acc[%base + 7], %b
        mul.lo.u32      %tid4, %tid.x, 4
        st.shared.b64   saccf[%tid.x], %a
        atom.shared.add.f64 %w, saccf[%tid.x], %b
        st.global.b64   accf[%ia + 1], %w
        st.shared.b64   sacc[%tid4 + 0], %b
        atom.shared.exch.b64 %w, sacc[%tid4 + 0], %a
        st.shared.b64   sacc[%tid4 + 1], %a
        red.shared.add.u64 sacc[%tid4 + 1], %b
        st.shared.b64   sacc[%tid4 + 2], %a
        atom.shared.cas.b64 %w, sacc[%tid4 + 2], %b, %a
        st.shared.b64   sacc[%tid4 + 3], %a
        atom.shared.min.u64 %w, sacc[%tid4 + 3], %b
        mul.lo.u32      %base, %gid, 8
        ld.shared.b64   %w, sacc[%tid4 + 0]
        atom.global.or.b64 %w, acc[%base + 0], %w
        ld.shared.b64   %w, sacc[%tid4 + 1]
        atom.global.and.b64 %w, acc[%base + 1], %w
        ld.shared.b64   %w, sacc[%tid4 + 2]
        st.global.b64   accs[%ia + 1], %a
        red.global.max.s64 accs[%ia + 1], %w
        ld.shared.b64   %w, saccf[%tid.x]
        st.global.b64   acc[%base + 5], %w
        ld.shared.b64   %w, sacc[%tid4 + 3]
        red.global.min.u64 acc[%base + 3], %w
