// A random program of the cross-check (`sim random --seed 8191 --index 5784` at commit 9bd9907), kept as it was
// generated: the GPU once disagreed with warpsim on it (issue 17; crosscheck/README.md says why).
.kernel random_8191_5784
.desc "random program 5784 of seed 8191 (sim crosscheck --random)"
.warp_sizes 32
.grid 1
.block 32
.buffer in u32[192] = 0, [0..] = [2147483648, 6, 4021600923, 1065353216, 32, 31, 372113908, 4286578689, 28, 8388608, 28, 17734655, 4, 1097859072, 6601768, 10, 3248980652, 1084227584, 29, 1866897524, 3242196992, 28, 3251042688, 1268744414, 1096810496, 1325829518, 6, 3246391296, 2147483648, 21, 2139095040, 1320855621, 13, 3240099840, 21, 1114243668, 18, 38, 7, 17, 524126911, 27, 3844471634, 4294967265, 12, 2143289344, 1065353216, 3264131604, 28, 1728261739, 4294967265, 4294967289, 6, 3247527712, 369134034, 0, 3245596077, 19, 4133942381, 2193523476, 3228173152, 3265075773, 3212836864, 4286578688, 18, 2147483647, 3228511251, 15, 31, 3211808512, 4286578688, 4294967291, 4018602150, 1114818496, 1104366076, 1086810480, 3, 0, 19, 1096810496, 3246391296, 996943654, 23, 552434619, 3264380760, 10, 1090679656, 653536406, 1117983088, 4294967295, 3818521671, 40639266, 3, 31, 23, 3254218576, 3221225472, 2155872255, 1107308828, 2434361637, 3038514400, 3233808384, 1065353216, 29, 0, 3232664816, 3636878021, 3257463815, 3776461015, 4294967295, 2866217579, 4294967288, 1990324472, 3259718365, 0, 38, 2355655281, 1119534722, 20, 12, 660325265, 2728567323, 4294967265, 3265962792, 7, 4294967265, 997632243, 808378295, 7, 0, 26, 12, 3248488448, 2147483648, 34, 2155872255, 58611811, 13, 1082130432, 1119817218, 14, 23, 33, 1088547824, 4294967295, 33, 1090519040, 32, 18, 4294967295, 32, 34, 2147483647, 4294967265, 31, 27, 1093639136, 2598500389, 1065353216, 40, 4294967291, 1088421888, 33, 2760077620, 19, 2018365364, 3239051264, 1095761920, 36, 2139095039, 363479761, 1655819940, 1106169840, 1065353216, 2147483648, 1116049138, 16, 16, 31, 14, 4294967292, 0, 1111651472, 558597426, 1119751040, 3229614080, 4294967295, 3242850632, 3215619072, 1099956224, 712525186, 12]
.buffer out u32[224]
.reg %r<6>, %gid, %base, %t0, %t1, %t2
.pred %p<3>, %q

        mad.lo.u32      %gid, %ctaid.x, %ntid.x, %tid.x
        mul.lo.u32      %base, %gid, 6
        ld.global.u32   %r0, in[%base + 0]
        ld.global.u32   %r1, in[%base + 1]
        ld.global.u32   %r2, in[%base + 2]
        ld.global.u32   %r3, in[%base + 3]
        ld.global.u32   %r4, in[%base + 4]
        ld.global.u32   %r5, in[%base + 5]
        setp.lt.s32     %p0, %r0, %r1
        setp.gt.f32     %p1, %r2, %r3
        setp.ne.u32     %p2, %r4, %laneid
        not.b32         %r4, 0x6b08d8d8
        shfl.sync.bfly.b32 %r1|%p1, %r3, 39, width=2, mask=0xffffffff
        and.b32         %t1, %laneid, 1
        setp.ne.u32     %q, %t1, 0
        @%q bra         endif_2
        and.b32         %t2, %r2, 3
loop_3:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_4
        shr.u32         %r4, %r2, %r2
        xor.pred        %p0, %p2, %p2
        min.u32         %r1, %tid.x, %laneid
        selp.u32        %r4, %tid.x, %r0, %p2
        sub.u32         %t2, %t2, 1
        bra             loop_3
endloop_4:
        and.b32         %t0, %r4, 255
        or.b32          %t0, %t0, 1
        div.s32         %r2, -72, %t0
        and.b32         %t0, %r1, 0
        shfl.sync.bfly.b32 %r4, %r1, %t0, width=1, mask=0x55555555
        cvt.rn.f32.u32  %r1, %r5
        setp.le.f32     %p0, %r3, %r2
endif_2:
        shfl.sync.idx.b32 %r2|%p1, %r5, %laneid
        max.f32         %t0, %r4, -3e38
        @%p2 abs.f32         %r0, %t0
        and.b32         %t1, %laneid, 16
        setp.ne.u32     %q, %t1, 0
        @%q bra         endif_6
        and.b32         %t1, %laneid, 1
        setp.ne.u32     %q, %t1, 0
        @%q bra         endif_8
        cvt.rpi.f32.f32 %r3, %r2
        @%p2 min.u32         %r1, %r4, %r4
        div.rn.f32      %r1, 0.0, %r5
endif_8:
endif_6:
        cvt.rzi.f32.f32 %r1, %r4
        setp.ge.s32     %q, %r0, %r1
        @%q bra         else_9
        fma.rn.f32      %r1, 0.0, %r4, %r4
        max.f32         %t0, %r5, -3e38
        max.f32         %r2, %r5, %t0
        and.b32         %t2, %r2, 3
loop_11:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_12
        setp.eq.s32     %p0, 0x93531eb9, %r5
        sub.u32         %t2, %t2, 1
        bra             loop_11
endloop_12:
        setp.ne.s32     %q, %r0, %r4
        @%q bra         else_13
        setp.ne.u32     %p2, %r4, %r4
        bra             endif_14
else_13:
        or.pred         %p1, %p2, %p1
        and.pred        %p2, !%p0, %p0
        max.f32         %t0, %r0, -3e38
        min.f32         %r0, %r4, %t0
endif_14:
        bra             endif_10
else_9:
        shl.b32         %r0, %tid.x, %r0
        max.f32         %t0, %r3, -3e38
        abs.f32         %r4, %t0
        @!%p2 xor.b32         %r3, %r3, %r2
        setp.eq.s32     %q, %r0, %r5
        @%q bra         endif_16
        @!%p0 add.f32         %r1, -0.0, %r5
        cvt.rpi.s32.f32 %r1, %r1
        selp.u32        %r0, %r0, %r4, %p1
        or.b32          %r3, 71, %laneid
endif_16:
        selp.u32        %r4, %r4, %r1, %p2
endif_10:
        add.f32         %r1, %r2, %r4
        cvt.rni.s32.f32 %r2, %r2
        fma.rn.f32      %r3, %r5, %r2, %r0
        and.b32         %t0, %r5, 255
        or.b32          %t0, %t0, 1
        rem.s32         %r2, %r1, %t0
        vote.sync.ballot.b32 %r3, %p1, 0xffffffff
        vote.sync.ballot.b32 %r0, !%p0, 0xffffffff
        and.b32         %t2, %r0, 3
loop_17:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_18
        setp.ne.s32     %q, %r2, %r2
        @%q bra         else_19
        setp.gt.u32     %p1, 86, %r3
        and.b32         %t0, %r1, 255
        or.b32          %t0, %t0, 1
        rem.u32         %r2, %laneid, %t0
        sub.f32         %r5, %r5, %r5
        bra             endif_20
else_19:
        max.f32         %t0, %r1, -3e38
        max.f32         %r0, -1.25, %t0
        not.pred        %p0, %p1
        cvt.rzi.s32.f32 %r5, %r4
endif_20:
        add.f32         %r4, %r3, %r1
        or.b32          %r5, 55, %tid.x
        sub.u32         %t2, %t2, 1
        bra             loop_17
endloop_18:
        max.f32         %t0, %r4, -3e38
        @%p0 min.f32         %r4, %r3, %t0
        setp.eq.u32     %p2, %r3, %r1
        setp.eq.s32     %q, %r0, %r3
        @%q bra         else_21
        cvt.rn.f32.s32  %r2, %r0
        setp.lt.s32     %q, %r4, -37
        @%q bra         endif_24
        xor.pred        %p1, %p2, %p2
        and.pred        %p2, %p1, %p1
endif_24:
        bra             endif_22
else_21:
        max.u32         %r0, 96, %r2
        @!%p1 cvt.rni.f32.f32 %r3, %r5
endif_22:
        shfl.sync.up.b32 %r5|%p0, %r5, %r0
        shfl.sync.bfly.b32 %r1|%p0, %r0, %r5
        setp.ne.s32     %q, %r4, %r5
        @%q bra         endif_26
        max.f32         %t0, %r3, -3e38
        abs.f32         %r4, %t0
        max.f32         %t0, %r5, -3e38
        abs.f32         %r3, %t0
        setp.eq.s32     %q, %r4, -97
        @%q bra         else_27
        max.f32         %t0, %r1, -3e38
        @!%p2 neg.f32         %r3, %t0
        and.b32         %t0, %r2, 255
        or.b32          %t0, %t0, 1
        rem.u32         %r5, %r5, %t0
        bra             endif_28
else_27:
        fma.rn.f32      %r5, 1e-3, %r3, %r3
        max.f32         %t0, %r1, -3e38
        min.f32         %r3, %r4, %t0
        add.f32         %r2, %r2, %r1
        or.pred         %p0, %p2, %p1
endif_28:
endif_26:
        vote.sync.all.pred  %p0, !%p2, 0xffffffff
        and.b32         %t1, %laneid, 1
        setp.ne.u32     %q, %t1, 0
        @%q bra         endif_30
        min.f32         %r1, %r5, -0.0
        @%p2 sub.f32         %r4, %r4, %r0
        @%p0 sub.f32         %r5, %r0, %r4
        setp.gt.s32     %p0, 0x348fc8d8, %tid.x
endif_30:
        div.rn.f32      %r2, %r4, 3.0
        min.u32         %r0, %tid.x, %r5
        vote.sync.all.pred  %p0, !%p2, 0xffffffff
        or.b32          %r4, %r0, %r3
        shr.s32         %r3, %r1, %r5
        and.b32         %t0, %r1, 0
        match.sync.any.b32 %r2, %t0, 0xffffffff
        max.s32         %r1, %r4, %r4
        mul.lo.u32      %base, %gid, 7
        st.global.u32   out[%base + 0], %r0
        st.global.u32   out[%base + 1], %r1
        st.global.u32   out[%base + 2], %r2
        st.global.u32   out[%base + 3], %r3
        st.global.u32   out[%base + 4], %r4
        st.global.u32   out[%base + 5], %r5
        selp.u32        %t0, 1, 0, %p0
        selp.u32        %t1, 2, 0, %p1
        or.b32          %t0, %t0, %t1
        selp.u32        %t1, 4, 0, %p2
        or.b32          %t0, %t0, %t1
        st.global.u32   out[%base + 6], %t0
