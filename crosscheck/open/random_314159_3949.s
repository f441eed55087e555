.kernel random_314159_3949
.desc "random program 3949 of seed 314159 (sim crosscheck --random)"
.warp_sizes 32
.param bias = 5
.grid 1
.block 2 * W - 21
.buffer in u32[258] = 0, [0..] = [4294967295, 34, 2730820328, 4294967295, 34, 32, 2147483648, 34, 4294967295, 34, 2730820328, 4294967295, 34, 4294967295, 32, 1120113004, 2730820328, 1120113004, 4294967295, 34, 32, 2730820328, 1120113004, 2147483648, 34, 34, 1120113004, 1120113004, 34, 2730820328, 2147483648, 2147483648, 2730820328, 1120113004, 32, 2147483648, 1120113004, 34, 4294967295, 2730820328, 34, 2147483648, 4294967295, 34, 1120113004, 4294967295, 2147483648, 34, 34, 34, 2147483648, 34, 4294967295, 2147483648, 4294967295, 4294967295, 34, 1120113004, 34, 4294967295, 4294967295, 34, 34, 1120113004, 4294967295, 32, 2147483648, 34, 34, 4294967295, 34, 2147483648, 32, 34, 4294967295, 34, 1120113004, 2147483648, 34, 32, 2147483648, 2147483648, 4294967295, 4294967295, 4294967295, 4294967295, 2730820328, 2147483648, 34, 34, 2147483648, 34, 1120113004, 32, 4294967295, 2730820328, 32, 34, 2730820328, 1120113004, 34, 2147483648, 2147483648, 1120113004, 4294967295, 1120113004, 2147483648, 4294967295, 2147483648, 1120113004, 1120113004, 32, 2147483648, 1120113004, 4294967295, 34, 2147483648, 1120113004, 32, 34, 2147483648, 34, 2730820328, 4294967295, 1120113004, 34, 2730820328, 1120113004, 34, 2147483648, 34, 2730820328, 2730820328, 32, 1120113004, 34, 2147483648, 4294967295, 2730820328, 4294967295, 34, 32, 2730820328, 4294967295, 34, 2147483648, 4294967295, 34, 34, 2147483648, 2147483648, 4294967295, 1120113004, 1120113004, 2730820328, 32, 1120113004, 4294967295, 4294967295, 4294967295, 2730820328, 2730820328, 34, 2730820328, 4294967295, 34, 1120113004, 2730820328, 1120113004, 2147483648, 1120113004, 34, 34, 32, 4294967295, 2730820328, 34, 34, 2147483648, 2147483648, 1120113004, 2147483648, 2730820328, 4294967295, 2147483648, 34, 34, 34, 32, 2730820328, 34, 1120113004, 2730820328, 2730820328, 34, 2147483648, 32, 2730820328, 4294967295, 1120113004, 32, 34, 34, 2730820328, 34, 34, 2147483648, 2730820328, 2730820328, 34, 34, 34, 1120113004, 2147483648, 4294967295, 1120113004, 2147483648, 2730820328, 4294967295, 34, 34, 34, 2730820328, 34, 32, 34, 2147483648, 32, 2730820328, 2147483648, 4294967295, 34, 4294967295, 32, 1120113004, 32, 32, 2730820328, 34, 34, 2730820328, 34, 4294967295, 32, 2730820328, 34, 2730820328, 2147483648, 34, 34, 4294967295, 34, 2730820328, 2147483648, 34, 34, 34, 2147483648]
.buffer tbl u32[16] = 0, [0..] = [2730820328, 34, 2730820328, 34, 2730820328, 32, 2730820328, 1120113004, 1120113004, 2147483648, 2730820328, 32, 4294967295, 34, 32, 2730820328]
.buffer ftab f32[8] = i * 0.75 - 2.5, [3] = 1e-40, [5] = -0.0
.buffer scr u32[172] = i * 3
.buffer cnt u32[180] = i
.buffer icnt s32[180] = i - 2
.buffer fcnt f32[180] = i + 0.5
.buffer wsl u32[8]
.buffer out u32[301]
.buffer shout u32[86]
.buffer scout u32[180]
.shared sh u32[86]
.shared scnt u32[180]
.buffer pool64 s64[4] = 0, [0..] = [1820823279, -4592497250883307082, -4593713122132711388, 4625599335748049253]
.buffer in64 u32[172] = 0, [0..] = [3, 1, 2, 0, 2, 3, 1, 0, 1, 0, 3, 0, 3, 3, 1, 1, 1, 2, 2, 3, 3, 3, 3, 2, 1, 0, 3, 2, 0, 1, 2, 0, 2, 2, 3, 1, 3, 1, 0, 2, 2, 1, 2, 1, 0, 3, 1, 1, 1, 0, 2, 0, 2, 3, 2, 3, 3, 0, 2, 1, 3, 2, 2, 3, 0, 0, 1, 2, 3, 0, 2, 3, 0, 3, 3, 3, 3, 3, 3, 1, 2, 2, 3, 0, 3, 2, 1, 1, 2, 0, 3, 3, 2, 2, 3, 0, 2, 2, 1, 2, 3, 1, 1, 2, 0, 2, 1, 0, 0, 0, 3, 3, 3, 0, 1, 0, 0, 1, 0, 3, 1, 3, 3, 3, 3, 0, 0, 3, 2, 1, 3, 2, 3, 1, 1, 1, 3, 0, 0, 0, 2, 1, 0, 2, 0, 2, 0, 1, 2, 2, 1, 2, 0, 1, 1, 0, 1, 1, 0, 2, 3, 2, 1, 2, 2, 3, 2, 2, 2, 2, 0, 3]
.buffer ftab64 f64[8] = i * 0.75 - 2.5, [3] = 1e-310, [5] = -0.0
.buffer scr64 u64[172] = i * 3
.buffer cnt64 u64[180] = i
.buffer icnt64 s64[180] = i - 2
.buffer fcnt64 f64[180] = i + 0.5
.buffer out64 u64[172]
.buffer shout64 u64[86]
.buffer scout64 u64[180]
.shared sh64 u64[86]
.shared scnt64 u64[180]
.reg.b64 %w<4>, %wt0, %wt1
.reg %h0, %h1
.reg %r<6>, %gid, %lt, %lb, %sb, %ss, %wb, %ws, %ob, %os, %t0, %t1, %c<3>
.pred %p<3>, %q, %e

        mov.u32 %lt, %tid.x
        mov.u32 %lb, %ctaid.x
        mad.lo.u32 %gid, %lb, %ntid.x, %lt
        mul.lo.u32 %t0, %gid, 6
        ld.global.u32 %r0, in[%t0 + 0]
        ld.global.u32 %r1, in[%t0 + 1]
        ld.global.u32 %r2, in[%t0 + 2]
        ld.global.u32 %r3, in[%t0 + 3]
        ld.global.u32 %r4, in[%t0 + 4]
        ld.global.u32 %r5, in[%t0 + 5]
        mul.lo.u32 %t0, %gid, 4
        ld.global.u32 %t1, in64[%t0 + 0]
        ld.global.b64 %w0, pool64[%t1]
        ld.global.u32 %t1, in64[%t0 + 1]
        ld.global.b64 %w1, pool64[%t1]
        ld.global.u32 %t1, in64[%t0 + 2]
        ld.global.b64 %w2, pool64[%t1]
        ld.global.u32 %t1, in64[%t0 + 3]
        ld.global.b64 %w3, pool64[%t1]
        mul.lo.u32 %sb, %gid, 4
        mul.lo.u32 %ss, %lt, 2
        mad.lo.u32 %wb, %lb, %nwarpid, %warpid
        mul.lo.u32 %wb, %wb, 4
        mul.lo.u32 %ws, %warpid, 4
        add.u32 %ob, %gid, 2
        mul.lo.u32 %ob, %ob, 4
        add.u32 %os, %lt, 2
        mul.lo.u32 %os, %os, 4
        setp.lt.s32 %p0, %r0, %r1
        setp.gt.f32 %p1, %r2, %r3
        setp.ne.u32 %p2, %r4, %laneid
        and.b32 %t1, %laneid, 1
        setp.ne.u32 %q, %t1, 0
        @!%q bra else_1
        @%p1 mad.wide.s32 %w2, 32, %r2, -1
        setp.le.s32 %q, %r0, %r1
        @!%q bra endif_4
        xor.pred %p0, !%p2, !%p0
        selp.s64 %w0, %w3, %w1, %p0
        not.pred %p2, %p2
endif_4:
        and.b32 %t0, %r1, 7
        ld.global.f32 %r1, ftab[%t0]
        bra endif_2
else_1:
        mul.wide.s32 %w3, %r5, %r1
endif_2:
        add.u64 %w1, (-9223372036854775807 - 1), 7
        @%p2 mad.hi.s64 %w0, %w2, %w2, %w3
        @%p1 bra else_5
        setp.ge.s32 %p2, %tid.y, %r2
        bra endif_6
else_5:
        setp.gt.s32 %q, %r2, %r3
        @%q exit
        setp.ne.u32 %p2, %r5, %r0
endif_6:
        setp.le.s32 %q, %r2, %r3
        @!%q bra else_7
        sqrt.rn.f32 %r0, %r2
        cvt.rn.f32.s32 %r4, %r1
        bra endif_8
else_7:
        and.b32 %t1, %laneid, 1
        setp.ne.u32 %q, %t1, 0
        @%q exit
        @!%p1 atom.global.cas.b32 %r5, cnt[%ob + 3], %r0, 4
endif_8:
        setp.ge.s32 %q, %r3, 0x3eb66187
        @%q bra else_9
        @%p0 setp.ne.b32 %p1, %r2, 3
        bra endif_10
else_9:
        selp.s64 %w0, %w1, %w3, %p0
endif_10:
        setp.lt.s32 %q, %r0, -93
        @%q bra else_11
        mad.lo.u32 %r4, %nctaid.y, %r2, %lanemask_eq
        bra endif_12
else_11:
        @!%p2 setp.gt.f32 %p2, -1.25, %r1
        fma.rn.f32 %r4, %r0, %r1, %r3
endif_12:
        atom.global.exch.f32 %r3, fcnt[%ob + 3], %r3
        and.b32 %c0, %r5, 3
loop_13:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_15
        mov.b32 %r0, %r5
latch_14:
        sub.u32 %c0, %c0, 1
        bra loop_13
endloop_15:
        setp.lt.u32 %q, %laneid, 2
        @%q bra endif_17
        and.b32 %t0, %r0, 3
        add.u32 %t0, %t0, %os
        atom.shared.add.u64 %w2, scnt64[%t0], %w1
        and.b32 %t0, %r5, 15
        shl.b32 %t0, %t0, 2
        ld.global.b32 %r3, [tbl + %t0]
        mad.f32 %r4, %r5, -1.25, 1e-3
        mad.s32 %r2, 8, %r0, %r2
endif_17:
        mul.lo.u32 %t0, %gid, 7
        st.global.u32 out[%t0 + 0], %r0
        st.global.u32 out[%t0 + 1], %r1
        st.global.u32 out[%t0 + 2], %r2
        st.global.u32 out[%t0 + 3], %r3
        st.global.u32 out[%t0 + 4], %r4
        st.global.u32 out[%t0 + 5], %r5
        selp.u32 %t1, 1, 0, %p0
        @%p1 or.b32 %t1, %t1, 2
        @%p2 or.b32 %t1, %t1, 4
        st.global.u32 out[%t0 + 6], %t1
        mul.lo.u32 %t0, %gid, 2
        ld.shared.u32 %t1, sh[%ss + 0]
        st.global.u32 shout[%t0 + 0], %t1
        ld.shared.u32 %t1, sh[%ss + 1]
        st.global.u32 shout[%t0 + 1], %t1
        ld.shared.u32 %t1, scnt[%ws + 0]
        st.global.u32 scout[%wb + 0], %t1
        ld.shared.u32 %t1, scnt[%ws + 1]
        st.global.u32 scout[%wb + 1], %t1
        ld.shared.u32 %t1, scnt[%ws + 2]
        st.global.u32 scout[%wb + 2], %t1
        ld.shared.u32 %t1, scnt[%ws + 3]
        st.global.u32 scout[%wb + 3], %t1
        ld.shared.u32 %t1, scnt[%os + 0]
        st.global.u32 scout[%ob + 0], %t1
        ld.shared.u32 %t1, scnt[%os + 1]
        st.global.u32 scout[%ob + 1], %t1
        ld.shared.u32 %t1, scnt[%os + 2]
        st.global.u32 scout[%ob + 2], %t1
        ld.shared.u32 %t1, scnt[%os + 3]
        st.global.u32 scout[%ob + 3], %t1
        mul.lo.u32 %t0, %gid, 4
        st.global.u64 out64[%t0 + 0], %w0
        st.global.u64 out64[%t0 + 1], %w1
        st.global.u64 out64[%t0 + 2], %w2
        st.global.u64 out64[%t0 + 3], %w3
        mul.lo.u32 %t0, %gid, 2
        ld.shared.u64 %wt0, sh64[%ss + 0]
        st.global.b64 shout64[%t0 + 0], %wt0
        ld.shared.u64 %wt0, sh64[%ss + 1]
        st.global.b64 shout64[%t0 + 1], %wt0
        ld.shared.b64 %wt0, scnt64[%ws + 0]
        st.global.u64 scout64[%wb + 0], %wt0
        ld.shared.b64 %wt0, scnt64[%ws + 1]
        st.global.u64 scout64[%wb + 1], %wt0
        ld.shared.b64 %wt0, scnt64[%ws + 2]
        st.global.u64 scout64[%wb + 2], %wt0
        ld.shared.b64 %wt0, scnt64[%ws + 3]
        st.global.u64 scout64[%wb + 3], %wt0
        ld.shared.b64 %wt0, scnt64[%os + 0]
        st.global.u64 scout64[%ob + 0], %wt0
        ld.shared.b64 %wt0, scnt64[%os + 1]
        st.global.u64 scout64[%ob + 1], %wt0
        ld.shared.b64 %wt0, scnt64[%os + 2]
        st.global.u64 scout64[%ob + 2], %wt0
        ld.shared.b64 %wt0, scnt64[%os + 3]
        st.global.u64 scout64[%ob + 3], %wt0
done:
