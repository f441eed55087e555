.kernel b_c061
.desc "random program 3332 of seed 314159 (sim crosscheck --random)"
.warp_sizes 32
.param bias = 5
.grid 1
.block 1 * W
.buffer in u32[192] = 0, [0..] = [18, 18, 39, 1095761920, 2621016131, 1116075671, 1116075671, 1095761920, 39, 4286578688, 1095761920, 4286578688, 39, 39, 64, 1116075671, 18, 1116075671, 18, 18, 39, 64, 39, 18, 1116075671, 1095761920, 4286578688, 0, 4286578688, 39, 0, 0, 1095761920, 64, 39, 4286578688, 0, 64, 1095761920, 1116075671, 39, 1116075671, 1095761920, 0, 1116075671, 1095761920, 0, 1095761920, 1095761920, 2621016131, 39, 2621016131, 0, 0, 39, 2621016131, 39, 1116075671, 39, 64, 4286578688, 0, 18, 64, 4286578688, 64, 39, 4286578688, 18, 1116075671, 0, 64, 18, 4286578688, 0, 4286578688, 1116075671, 64, 2621016131, 0, 39, 1095761920, 1116075671, 4286578688, 1116075671, 18, 39, 39, 39, 39, 64, 0, 64, 1116075671, 1095761920, 0, 1116075671, 0, 1116075671, 1095761920, 1116075671, 39, 64, 1095761920, 64, 1095761920, 1116075671, 1095761920, 18, 39, 4286578688, 1116075671, 1116075671, 39, 64, 64, 0, 39, 0, 64, 64, 2621016131, 4286578688, 1116075671, 39, 0, 18, 18, 18, 39, 2621016131, 64, 64, 39, 1095761920, 2621016131, 39, 4286578688, 2621016131, 18, 64, 1095761920, 18, 18, 4286578688, 0, 4286578688, 39, 1116075671, 1116075671, 18, 39, 39, 64, 0, 64, 1095761920, 1116075671, 4286578688, 1116075671, 1095761920, 2621016131, 1095761920, 0, 2621016131, 64, 1095761920, 39, 64, 64, 4286578688, 0, 64, 39, 64, 2621016131, 1116075671, 39, 1116075671, 39, 64, 0, 0, 4286578688, 4286578688, 0, 64, 1116075671, 2621016131, 1116075671, 4286578688, 4286578688]
.buffer tbl u32[16] = 0, [0..] = [4286578688, 1095761920, 2621016131, 18, 18, 1095761920, 2621016131, 4286578688, 1116075671, 1116075671, 2621016131, 1116075671, 4286578688, 2621016131, 1095761920, 4286578688]
.buffer ftab f32[8] = i * 0.75 - 2.5, [3] = 1e-40, [5] = -0.0
.buffer scr u32[128] = i * 3
.buffer cnt u32[132] = i
.buffer icnt s32[132] = i - 2
.buffer fcnt f32[132] = i + 0.5
.buffer wsl u32[4]
.buffer out u32[224]
.buffer shout u32[64]
.buffer scout u32[132]
.shared sh u32[64]
.shared scnt u32[132]
.buffer pool64 s64[5] = 0, [0..] = [29, -4589093937094912055, -2251799813680588, 34, -7]
.buffer in64 u32[128] = 0, [0..] = [3, 0, 4, 4, 3, 3, 4, 4, 0, 0, 0, 0, 1, 0, 0, 2, 4, 2, 2, 4, 0, 0, 2, 3, 1, 4, 0, 3, 0, 2, 3, 0, 4, 2, 4, 0, 4, 4, 4, 4, 4, 3, 3, 1, 0, 1, 2, 1, 3, 2, 4, 2, 2, 1, 3, 4, 1, 3, 1, 4, 2, 0, 1, 3, 4, 2, 4, 2, 4, 3, 4, 4, 0, 1, 2, 1, 0, 2, 1, 0, 4, 4, 1, 4, 0, 3, 0, 3, 0, 3, 2, 0, 0, 4, 4, 4, 4, 0, 0, 4, 3, 1, 1, 2, 2, 3, 3, 1, 2, 4, 3, 2, 0, 4, 4, 0, 2, 2, 4, 3, 1, 3, 1, 2, 4, 0, 3, 0]
.buffer ftab64 f64[8] = i * 0.75 - 2.5, [3] = 1e-310, [5] = -0.0
.buffer scr64 u64[128] = i * 3
.buffer cnt64 u64[132] = i
.buffer icnt64 s64[132] = i - 2
.buffer fcnt64 f64[132] = i + 0.5
.buffer out64 u64[128]
.buffer shout64 u64[64]
.buffer scout64 u64[132]
.shared sh64 u64[64]
.shared scnt64 u64[132]
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
        add.u32 %ob, %gid, 1
        mul.lo.u32 %ob, %ob, 4
        add.u32 %os, %lt, 1
        mul.lo.u32 %os, %os, 4
        setp.lt.s32 %p0, %r0, %r1
        setp.gt.f32 %p1, %r2, %r3
        setp.ne.u32 %p2, %r4, %laneid
        and.b32 %t0, %r5, 3
        add.u32 %t0, %t0, %sb
        st.global.u32 scr[%t0], %r1
        and.b32 %t1, %laneid, 16
        setp.ne.u32 %q, %t1, 0
        @%q bra endif_2
        mov.u32 %t1, 0xffff
        shfl.sync.up.b32 %r5|%p1, 22, 240, width=8, mask=%t1
        mul.f32 %r2, %r5, %r5
endif_2:
        bar.warp.sync 0xffffffff
        and.b32 %t0, %r3, 3
        match.sync.all.b32 %r2|%p0, %t0, 0xffffffff
        mov.u32 %t1, 0xffffffff
        vote.sync.all.pred %p1, %p1, %t1
        and.b32 %c0, %r5, 3
loop_3:
        setp.eq.u32 %q, %c0, 0
        @%q bra endloop_5
        @%p0 exit
        @%p1 setp.lt.s32 %p0, %r5, 22
latch_4:
        sub.u32 %c0, %c0, 1
        bra loop_3
endloop_5:
        cvt.rp.f64.u64 %w1, %w2
        setp.eq.f64 %e, %w1, %w1
        selp.f64 %wt0, %w1, 1.5, %e
        min.f64 %w1, %wt0, %w2
        and.b32 %c0, %r3, 3
loop_6:
latch_7:
endloop_8:
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
