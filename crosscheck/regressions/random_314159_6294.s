.kernel random_314159_6294
.desc "random program 6294 of seed 314159 (sim crosscheck --random)"
.warp_sizes 32
.param bias = 5
.grid 1
.block 1, 5
.buffer in u32[30] = 0, [0..] = [21, 1179948144, 22, 1099956224, 2143289344, 1073741824, 2143289344, 21, 1179948144, 21, 1099956224, 1179948144, 21, 1099956224, 1073741824, 1073741824, 1099956224, 21, 1099956224, 1179948144, 1179948144, 2143289344, 1099956224, 22, 2143289344, 1179948144, 1179948144, 29, 22, 21]
.buffer tbl u32[16] = 0, [0..] = [1179948144, 22, 21, 21, 1099956224, 1099956224, 21, 22, 21, 29, 18, 2143289344, 21, 18, 16, 1179948144]
.buffer ftab f32[8] = i * 0.75 - 2.5, [3] = 1e-40, [5] = -0.0
.buffer scr u32[20] = i * 3
.buffer cnt u32[24] = i
.buffer icnt s32[24] = i - 2
.buffer fcnt f32[24] = i + 0.5
.buffer wsl u32[4]
.buffer out u32[35]
.buffer shout u32[10]
.buffer scout u32[24]
.shared sh u32[10]
.shared scnt u32[24]
.buffer pool64 s64[8] = 0, [0..] = [6, -8, -574833014338073582, 4626041242239631360, -1318383693047870283, -4597330794615144448, 6310447462955624208, 23]
.buffer in64 u32[20] = 0, [0..] = [3, 1, 2, 4, 6, 3, 1, 4, 5, 4, 7, 4, 7, 3, 1, 1, 5, 6, 6, 7]
.buffer ftab64 f64[8] = i * 0.75 - 2.5, [3] = 1e-310, [5] = -0.0
.buffer scr64 u64[20] = i * 3
.buffer cnt64 u64[24] = i
.buffer icnt64 s64[24] = i - 2
.buffer fcnt64 f64[24] = i + 0.5
.buffer out64 u64[20]
.buffer shout64 u64[10]
.buffer scout64 u64[24]
.shared sh64 u64[10]
.shared scnt64 u64[24]
.reg.b64 %w<4>, %wt0, %wt1
.reg %h0, %h1
.reg %r<6>, %gid, %lt, %lb, %sb, %ss, %wb, %ws, %ob, %os, %t0, %t1, %c<3>
.pred %p<3>, %q, %e

        mad.lo.u32 %t0, %tid.z, %ntid.y, %tid.y
        mad.lo.u32 %lt, %t0, %ntid.x, %tid.x
        mov.u32 %lb, %ctaid.x
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
        add.u32 %ob, %gid, 1
        mul.lo.u32 %ob, %ob, 4
        add.u32 %os, %lt, 1
        mul.lo.u32 %os, %os, 4
        setp.lt.s32 %p0, %r0, %r1
        setp.gt.f32 %p1, %r2, %r3
        setp.ne.u32 %p2, %r4, %laneid
        and.b32 %c0, %r0, 3
loop_1:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_3
latch_2:
        sub.u32 %c0, %c0, 1
        bra loop_1
endloop_3:
        not.s32 %r1, %r5
        cvt.rni.u32.f32 %r0, %r1
        and.b32 %c0, %r0, 3
loop_4:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_6
        not.u32 %r4, %r5
latch_5:
        sub.u32 %c0, %c0, 1
        bra loop_4
endloop_6:
        shfl.sync.idx.b32 %r0, %r3, %laneid, width=1, mask=0x1f
        and.b32 %t1, %laneid, 4
        setp.ne.u32 %q, %t1, 0
        @%q bra else_7
        div.rn.f32 %r1, %r3, %ntid.z
        setp.eq.f64 %e, %w3, %w3
        selp.f64 %wt0, %w3, 1.5, %e
        add.f64 %w2, %w1, %wt0
        bra endif_8
else_7:
        not.s32 %r5, %r0
        @!%p2 atom.global.max.s32 %r0, icnt[%ob + 3], 17
endif_8:
        or.pred %p2, !%p0, !%p2
        and.b32 %t1, %laneid, 16
        setp.ne.u32 %q, %t1, 0
        @%q bra endif_10
        shfl.sync.idx.b32 %r4, bias + 25, 60, width=1, mask=0x1f
        bar.warp.sync 0x1f
        @!%p2 mov.b64 {%r1, %r2}, %w2
        mul.hi.s64 %w3, %w1, %w2
endif_10:
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
