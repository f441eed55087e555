// Edge operands of every integer instruction, for `sim crosscheck`: each of 256 threads takes one pair (a, b)
// of 16 edge values (0, 1, 2, 31, 32, 33, 255, INT_MAX, INT_MIN, INT_MIN + 1, -1, -2, -31, 2^16, and two bit
// patterns) and stores what every integer instruction gives for it. The ISA's rules at the edges (docs/ISA.md):
// signed overflow wraps, abs and neg of INT_MIN are INT_MIN, shifts by 32 or more shift everything out (shr.s32
// fills with the sign), INT_MIN / -1 is INT_MIN and INT_MIN rem -1 is 0. Division by zero faults in warpsim,
// so the divisions are guarded with b != 0 (their registers stay 0 there).
.kernel edges_int
.desc "edge operands of the integer instructions (256 pairs of 16 values)"
.warp_sizes 32
.grid 2
.block 128
.buffer vals u32[16] = 0, [0..] = [0, 1, 2, 31, 32, 33, 255, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0xffffffe1, 0x10000, 0x12345678, 0xdeadbeef]
.buffer out u32[256 * 28]
.reg %gid, %ia, %ib, %a, %b, %base, %r<28>
.pred %nz, %p

        mad.lo.u32      %gid, %ctaid.x, %ntid.x, %tid.x
        shr.u32         %ia, %gid, 4
        and.b32         %ib, %gid, 15
        ld.global.u32   %a, vals[%ia]
        ld.global.u32   %b, vals[%ib]
        setp.ne.u32     %nz, %b, 0
        add.s32         %r0, %a, %b
        sub.s32         %r1, %a, %b
        mul.lo.s32      %r2, %a, %b
        mad.lo.s32      %r3, %a, %b, %a
        @%nz div.s32    %r4, %a, %b
        @%nz rem.s32    %r5, %a, %b
        @%nz div.u32    %r6, %a, %b
        @%nz rem.u32    %r7, %a, %b
        min.s32         %r8, %a, %b
        max.s32         %r9, %a, %b
        min.u32         %r10, %a, %b
        max.u32         %r11, %a, %b
        abs.s32         %r12, %a
        neg.s32         %r13, %a
        shl.b32         %r14, %a, %b
        shr.u32         %r15, %a, %b
        shr.s32         %r16, %a, %b
        not.b32         %r17, %a
        and.b32         %r18, %a, %b
        or.b32          %r19, %a, %b
        xor.b32         %r20, %a, %b
        cvt.rn.f32.s32  %r21, %a
        cvt.rn.f32.u32  %r22, %a
        setp.lt.s32     %p, %a, %b
        selp.u32        %r23, 1, 0, %p
        setp.lt.u32     %p, %a, %b
        selp.u32        %r24, 1, 0, %p
        setp.ge.s32     %p, %a, %b
        selp.u32        %r25, 1, 0, %p
        // abs and neg of the result of an overflowing operation, and a conversion of abs(INT_MIN)
        abs.s32         %r26, %r0
        cvt.rn.f32.u32  %r27, %r12
        mul.lo.u32      %base, %gid, 28
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
