// Edge operands of every f32 instruction and conversion, for `sim crosscheck`: each of 256 threads takes one
// pair (a, b) of 16 values (±0, 2.5, -1.5, ±inf, quiet and signalling NaNs of both signs with payloads, the
// smallest and a largest subnormal, the largest finite, 2^31, just below -2^31, 2^32) and stores what every f32
// instruction gives for it. The ISA's rules (docs/ISA.md): an arithmetic NaN result is the canonical NaN
// 0x7fffffff; min/max return the other operand when one is NaN; neg and abs flip and clear the sign bit, NaNs
// included; conversions to integers saturate and give 0 for NaN; subnormals are kept (no flush to zero), but
// by atom.add.f32 in global memory, which flushes subnormal operands and results to zero of their sign (not in
// shared memory);
// min/max of a register with itself follow the same rules (a NaN gives the canonical NaN).
.kernel edges_f32
.desc "edge operands of the f32 instructions and conversions (256 pairs of 16 values)"
.warp_sizes 32
.grid 2
.block 128
.buffer vals u32[16] = 0, [0..] = [0, 0x80000000, 0x40200000, 0xbfc00000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xff812345, 0x00000001, 0x807fffff, 0x7f7fffff, 0x4f000000, 0xcf000001, 0x4f800000]
.buffer out u32[256 * 32]
.buffer acc f32[256]
.shared sacc f32[128]
.reg %gid, %ia, %ib, %a, %b, %base, %r<32>
.pred %p

        mad.lo.u32      %gid, %ctaid.x, %ntid.x, %tid.x
        shr.u32         %ia, %gid, 4
        and.b32         %ib, %gid, 15
        ld.global.u32   %a, vals[%ia]
        ld.global.u32   %b, vals[%ib]
        add.f32         %r0, %a, %b
        sub.f32         %r1, %a, %b
        mul.f32         %r2, %a, %b
        div.rn.f32      %r3, %a, %b
        min.f32         %r4, %a, %b
        max.f32         %r5, %a, %b
        fma.rn.f32      %r6, %a, %b, %a
        neg.f32         %r7, %a
        abs.f32         %r8, %a
        cvt.rni.s32.f32 %r9, %a
        cvt.rzi.s32.f32 %r10, %a
        cvt.rmi.s32.f32 %r11, %a
        cvt.rpi.s32.f32 %r12, %a
        cvt.rni.u32.f32 %r13, %a
        cvt.rzi.u32.f32 %r14, %a
        cvt.rmi.u32.f32 %r15, %a
        cvt.rpi.u32.f32 %r16, %a
        cvt.rni.f32.f32 %r17, %a
        cvt.rzi.f32.f32 %r18, %a
        cvt.rmi.f32.f32 %r19, %a
        cvt.rpi.f32.f32 %r20, %a
        setp.lt.f32     %p, %a, %b
        selp.u32        %r21, 1, 0, %p
        setp.eq.f32     %p, %a, %b
        selp.u32        %r22, 1, 0, %p
        setp.ne.f32     %p, %a, %b
        selp.u32        %r23, 1, 0, %p
        setp.ge.f32     %p, %a, %b
        selp.u32        %r24, 1, 0, %p
        // a subnormal result, and neg/abs of an arithmetic NaN
        mul.f32         %r25, %a, 1e-40
        neg.f32         %r26, %r0
        abs.f32         %r27, %r3
        min.f32         %r28, %a, %a
        max.f32         %r29, %b, %b
        st.global.b32   acc[%gid], %a
        red.global.add.f32 acc[%gid], %b
        ld.global.b32   %r30, acc[%gid]
        st.shared.b32   sacc[%tid.x], %a
        atom.shared.add.f32 %r31, sacc[%tid.x], %b
        ld.shared.b32   %r31, sacc[%tid.x]
        mul.lo.u32      %base, %gid, 32
        st.global.u32   out[%base + 0], %r0
        st.global.u32   out[%base + 1], %r1
        st.global.u32   out[%base + 2], %r2
        st.global.u32   out[%base + 3], %r3
        st.global.u32   out[%base + 4], %r4
        st.global.u32   out[%base + 5], %r5
        st.global.u32   out[%base + 6], %r6
        st.global.u32   out[%base + 7], %r7
        st.global.u32   out[%base + 8], %r8
        st.global.u32   out[%base + 9], %r9
        st.global.u32   out[%base + 10], %r10
        st.global.u32   out[%base + 11], %r11
        st.global.u32   out[%base + 12], %r12
        st.global.u32   out[%base + 13], %r13
        st.global.u32   out[%base + 14], %r14
        st.global.u32   out[%base + 15], %r15
        st.global.u32   out[%base + 16], %r16
        st.global.u32   out[%base + 17], %r17
        st.global.u32   out[%base + 18], %r18
        st.global.u32   out[%base + 19], %r19
        st.global.u32   out[%base + 20], %r20
        st.global.u32   out[%base + 21], %r21
        st.global.u32   out[%base + 22], %r22
        st.global.u32   out[%base + 23], %r23
        st.global.u32   out[%base + 24], %r24
        st.global.u32   out[%base + 25], %r25
        st.global.u32   out[%base + 26], %r26
        st.global.u32   out[%base + 27], %r27
        st.global.u32   out[%base + 28], %r28
        st.global.u32   out[%base + 29], %r29
        st.global.u32   out[%base + 30], %r30
        st.global.u32   out[%base + 31], %r31
