.kernel random_20261128_4265
.desc "random program 4265 of seed 20261128 (sim crosscheck --random)"
.warp_sizes 32
.param bias = 5
.grid 1, 2
.block 1, 21
.buffer in u32[252] = 0, [0..] = [1116272383, 7, 4272141928, 4294967295, 4294967295, 4272141928, 4294967295, 1116272383, 7, 1116272383, 4294967295, 7, 1116272383, 4294967295, 4272141928, 4272141928, 4294967295, 1116272383, 4294967295, 7, 7, 4294967295, 4294967295, 4272141928, 4294967295, 7, 7, 7, 4272141928, 1116272383, 7, 4272141928, 2139095039, 1116272383, 2139095039, 4272141928, 2139095039, 2139095039, 7, 1116272383, 2139095039, 4272141928, 1116272383, 2139095039, 4294967295, 7, 7, 4272141928, 4294967295, 7, 7, 4294967295, 4294967295, 4294967295, 2139095039, 4294967295, 2139095039, 4294967295, 2139095039, 2139095039, 2139095039, 4294967295, 1116272383, 7, 7, 4272141928, 1116272383, 4294967295, 7, 2139095039, 2139095039, 4272141928, 4294967295, 7, 4294967295, 2139095039, 4272141928, 7, 4272141928, 4294967295, 4272141928, 4294967295, 4294967295, 2139095039, 4294967295, 1116272383, 4272141928, 4272141928, 2139095039, 1116272383, 2139095039, 1116272383, 2139095039, 7, 2139095039, 7, 4272141928, 4294967295, 7, 2139095039, 2139095039, 1116272383, 2139095039, 7, 2139095039, 1116272383, 2139095039, 2139095039, 4294967295, 2139095039, 1116272383, 4272141928, 4272141928, 2139095039, 2139095039, 7, 4294967295, 2139095039, 7, 4272141928, 4272141928, 7, 1116272383, 4294967295, 2139095039, 4294967295, 2139095039, 1116272383, 4294967295, 4272141928, 4272141928, 2139095039, 1116272383, 4294967295, 4294967295, 2139095039, 1116272383, 4294967295, 4272141928, 4272141928, 4294967295, 4272141928, 7, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 2139095039, 2139095039, 4272141928, 2139095039, 1116272383, 1116272383, 7, 2139095039, 1116272383, 4272141928, 2139095039, 4272141928, 7, 4294967295, 1116272383, 4294967295, 4272141928, 1116272383, 2139095039, 4272141928, 4272141928, 1116272383, 2139095039, 7, 4294967295, 4294967295, 7, 2139095039, 2139095039, 4294967295, 4272141928, 4272141928, 7, 4272141928, 2139095039, 4294967295, 4294967295, 1116272383, 1116272383, 2139095039, 4272141928, 2139095039, 2139095039, 4272141928, 4272141928, 2139095039, 7, 2139095039, 2139095039, 7, 4272141928, 4294967295, 4294967295, 7, 4294967295, 2139095039, 2139095039, 1116272383, 4294967295, 1116272383, 4294967295, 2139095039, 2139095039, 1116272383, 7, 2139095039, 7, 4294967295, 2139095039, 4272141928, 7, 2139095039, 4272141928, 7, 2139095039, 2139095039, 4294967295, 1116272383, 1116272383, 4294967295, 4272141928, 4272141928, 4272141928, 4272141928, 2139095039, 2139095039, 4294967295, 4272141928, 4272141928, 2139095039, 1116272383, 7, 4294967295, 4272141928, 4294967295, 1116272383, 4272141928, 4272141928, 7, 4294967295, 2139095039, 4272141928, 4272141928]
.buffer tbl u32[16] = 0, [0..] = [7, 4272141928, 1116272383, 1116272383, 4294967295, 4294967295, 1116272383, 4272141928, 1116272383, 7, 2139095039, 4294967295, 1116272383, 2139095039, 2139095039, 7]
.buffer ftab f32[8] = i * 0.75 - 2.5, [3] = 1e-40, [5] = -0.0
.buffer scr u32[168] = i * 3
.buffer cnt u32[176] = i
.buffer icnt s32[176] = i - 2
.buffer fcnt f32[176] = i + 0.5
.buffer wsl u32[8]
.buffer out u32[294]
.buffer shout u32[84]
.buffer scout u32[176]
.shared sh u32[42]
.shared scnt u32[88]
.buffer pool64 s64[4] = 0, [0..] = [40, -3446367621811749564, 23, 4294967295]
.buffer in64 u32[168] = 0, [0..] = [3, 1, 2, 0, 2, 3, 1, 0, 1, 0, 3, 0, 3, 3, 1, 1, 1, 2, 2, 3, 3, 3, 3, 2, 1, 0, 3, 2, 0, 1, 2, 0, 2, 2, 3, 1, 3, 1, 0, 2, 2, 1, 2, 1, 0, 3, 1, 1, 1, 0, 2, 0, 2, 3, 2, 3, 3, 0, 2, 1, 3, 2, 2, 3, 0, 0, 1, 2, 3, 0, 2, 3, 0, 3, 3, 3, 3, 3, 3, 1, 2, 2, 3, 0, 3, 2, 1, 1, 2, 0, 3, 3, 2, 2, 3, 0, 2, 2, 1, 2, 3, 1, 1, 2, 0, 2, 1, 0, 0, 0, 3, 3, 3, 0, 1, 0, 0, 1, 0, 3, 1, 3, 3, 3, 3, 0, 0, 3, 2, 1, 3, 2, 3, 1, 1, 1, 3, 0, 0, 0, 2, 1, 0, 2, 0, 2, 0, 1, 2, 2, 1, 2, 0, 1, 1, 0, 1, 1, 0, 2, 3, 2, 1, 2, 2, 3, 2, 2]
.buffer ftab64 f64[8] = i * 0.75 - 2.5, [3] = 1e-310, [5] = -0.0
.buffer scr64 u64[168] = i * 3
.buffer cnt64 u64[176] = i
.buffer icnt64 s64[176] = i - 2
.buffer fcnt64 f64[176] = i + 0.5
.buffer out64 u64[168]
.buffer shout64 u64[84]
.buffer scout64 u64[176]
.shared sh64 u64[42]
.shared scnt64 u64[88]
.reg.b64 %w<4>, %wt0, %wt1
.reg %h0, %h1
.reg %r<6>, %gid, %lt, %lb, %sb, %ss, %wb, %ws, %ob, %os, %t0, %t1, %c<3>
.pred %p<3>, %q, %e

        mad.lo.u32 %t0, %tid.z, %ntid.y, %tid.y
        mad.lo.u32 %lt, %t0, %ntid.x, %tid.x
        mad.lo.u32 %t0, %ctaid.z, %nctaid.y, %ctaid.y
        mad.lo.u32 %lb, %t0, %nctaid.x, %ctaid.x
        mul.lo.u32 %t0, %ntid.x, %ntid.y
        mul.lo.u32 %t0, %t0, %ntid.z
        mad.lo.u32 %gid, %lb, %t0, %lt
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
        add.u32 %os, %lt, 1
        mul.lo.u32 %os, %os, 4
        setp.lt.s32 %p0, %r0, %r1
        setp.gt.f32 %p1, %r2, %r3
        setp.ne.u32 %p2, %r4, %laneid
        and.b32 %t0, %r0, 15
        ld.global.u32 %r4, tbl[%t0]
        setp.le.u32 %q, %r4, %r0
        @%q bra endif_2
        and.b32 %c0, %r5, 3
loop_3:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_5
        mad.f32 %r2, %r0, %r2, %r2
latch_4:
        sub.u32 %c0, %c0, 1
        bra loop_3
endloop_5:
endif_2:
        setp.lt.s32 %q, %r3, %r1
        @%q bra else_6
        and.b32 %t1, %laneid, 4
        setp.ne.u32 %q, %t1, 0
        @%q bra done
        @%p2 exit
        and.b32 %c0, %r3, 3
loop_8:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_10
        mov.b64 %w1, {-58, %r0}
latch_9:
        sub.u32 %c0, %c0, 1
        bra loop_8
endloop_10:
        max.s32 %r1, %ntid.z, %r5
        bra endif_7
else_6:
        setp.ge.u32 %q, %r3, %r1
        @%q bra else_11
        ld.shared.u32 %r4, sh[%ss + 0]
        bra endif_12
else_11:
        and.b32 %t0, %r5, 15
        @%p0 ld.global.u32 %r4, tbl[%t0]
        and.b32 %t0, %r1, 1
        add.u32 %t0, %t0, %ss
        st.shared.b32 sh[%t0], %r5
endif_12:
        setp.ne.u32 %p2, %r3, %tid.x
endif_7:
        @%p1 selp.f64 %w1, %w2, bias + 0.5, %p1
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
