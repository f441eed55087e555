// A random program of the cross-check (`sim random --seed 8191 --index 7491` at commit 9bd9907), kept as it was
// generated: the GPU once disagreed with warpsim on it (issue 17; crosscheck/README.md says why).
.kernel random_8191_7491
.desc "random program 7491 of seed 8191 (sim crosscheck --random)"
.warp_sizes 32
.grid 1
.block 32
.buffer in u32[192] = 0, [0..] = [24, 1568755698, 1086324736, 1109913296, 3244294144, 3258746658, 27, 6, 3267192738, 2147483648, 2265525268, 3257090784, 3287038150, 2534202969, 2147483648, 3257638402, 1086324736, 8, 1065353216, 25, 1099431936, 3264266754, 1, 1744089156, 27, 35, 23, 526840181, 39, 3221225472, 3262214896, 21, 40, 1108957772, 3247964160, 3207840003, 2698165243, 30, 2, 22, 27, 1, 27, 3303326087, 2139095040, 1113023268, 744359242, 0, 0, 3212836864, 1109786640, 4138534714, 4294967290, 5, 1120292990, 1099431936, 4228815141, 33, 8, 1273222064, 0, 4286578689, 3501937916, 1119533656, 2147483647, 1, 4294967295, 1101031340, 31, 3351563999, 1983785088, 23, 1101885164, 1101996952, 2395367425, 442750985, 3258908690, 4200454383, 6, 19, 4286578689, 31, 2143289344, 1, 1065353216, 1314985488, 4237229651, 700855014, 4294967295, 13, 1095761920, 1094209208, 1148348016, 3252601300, 1118841032, 4286578688, 24, 28, 1078471520, 3252950912, 411750601, 1329862066, 32, 18, 1120366202, 2147483647, 0, 10, 22, 4294967288, 4294967291, 31, 30, 2147483647, 1117245438, 4, 12, 30, 1806192224, 1113875456, 3143829827, 37, 24, 31, 11, 3260649140, 1094713344, 3252331424, 4294967295, 4294967290, 9, 19, 3255489714, 1103583676, 0, 3238002688, 1114223296, 4286578689, 26, 2429211246, 1116199824, 29, 40, 3242196992, 35, 2147483648, 1564713055, 4014198426, 4294967295, 2988533666, 1, 3246915584, 1101004800, 3191188337, 33, 1100341664, 24, 1161338037, 1091245608, 1098907648, 2997005353, 3167351244, 3247964160, 2, 21427308, 1821145330, 1107465112, 2618380328, 31, 1111364084, 3212836864, 1630942175, 1107147856, 3235905536, 14, 27, 3256841284, 10, 3233808384, 32, 1109382704, 2147483648, 1092744118, 18, 2139095040, 4130356829, 0, 0, 1109629124, 20, 3212836864, 3261286965]
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
        setp.eq.s32     %q, %r5, %r1
        @%q bra         else_1
        or.pred         %p2, !%p2, %p2
        bra             endif_2
else_1:
        setp.eq.s32     %q, %r2, %r4
        @%q bra         else_3
        shr.u32         %r1, %r4, %r1
        mad.lo.u32      %r5, %r5, %r4, 41
        @!%p1 add.f32         %r5, 1e-3, %r2
        add.f32         %r5, %r0, %r3
        bra             endif_4
else_3:
        max.s32         %r0, -62, %r4
        neg.s32         %r2, %r4
        @!%p0 div.rn.f32      %r5, %r0, 3.0
        and.b32         %t0, %r0, 255
        or.b32          %t0, %t0, 1
        @%p1 div.s32         %r1, %r3, %t0
        max.f32         %t0, %r3, -3e38
        min.f32         %r0, -7.0, %t0
endif_4:
        cvt.rni.u32.f32 %r1, %r3
        shl.b32         %r5, %r0, %r0
endif_2:
        and.b32         %t1, %laneid, 4
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_5
        and.b32         %t2, %r3, 3
loop_7:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_8
        sub.f32         %r1, %r1, %r2
        sub.u32         %t2, %t2, 1
        bra             loop_7
endloop_8:
        and.b32         %t0, %r3, 1
        shfl.sync.bfly.b32 %r1|%p1, %r5, %t0, width=2, mask=0x0f0f0f0f
        or.b32          %r2, 0xb196ffcc, %r2
        setp.lt.s32     %q, %r2, %r1
        @%q bra         else_9
        xor.b32         %r2, %r1, 52
        max.f32         %t0, %r1, -3e38
        @%p0 max.f32         %r0, 1e-3, %t0
        bra             endif_10
else_9:
        and.b32         %t0, %r2, 255
        or.b32          %t0, %t0, 1
        @%p2 div.u32         %r2, %r0, %t0
        add.u32         %r4, %r1, %r5
        max.f32         %t0, %r1, -3e38
        max.f32         %r5, %r2, %t0
endif_10:
        bra             endif_6
else_5:
        setp.ne.f32     %p1, %r4, %r3
        cvt.rmi.u32.f32 %r1, %r2
endif_6:
        and.b32         %t2, %r4, 3
loop_11:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_12
        xor.b32         %r4, %r2, %r4
        setp.ge.s32     %q, %r4, %r0
        @%q bra         else_13
        div.rn.f32      %r0, %r2, %r0
        bra             endif_14
else_13:
        max.f32         %t0, %r0, -3e38
        @%p1 max.f32         %r5, %r1, %t0
        @!%p1 add.f32         %r0, %r5, 1e30
        and.b32         %r3, %r5, %r5
        max.s32         %r4, %r1, -25
endif_14:
        mul.f32         %r3, %r1, -7.0
        cvt.rzi.f32.f32 %r3, %r0
        sub.u32         %t2, %t2, 1
        bra             loop_11
endloop_12:
        fma.rn.f32      %r0, %r5, %r0, 1e-3
        and.b32         %t1, %laneid, 16
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_15
        @!%p0 cvt.rn.f32.u32  %r1, %r0
        @%p0 or.b32          %r4, 49, %r3
        and.b32         %t0, %r4, 255
        or.b32          %t0, %t0, 1
        div.s32         %r2, %r2, %t0
        bra             endif_16
else_15:
        div.rn.f32      %r4, %r3, %r1
        setp.le.u32     %p2, 46, %r0
        setp.eq.s32     %q, %r2, %r3
        @%q bra         else_17
        add.f32         %r0, %r1, %r1
        @!%p1 div.rn.f32      %r5, %r2, %r2
        bra             endif_18
else_17:
        setp.gt.s32     %p1, %r4, %r0
        setp.eq.f32     %p0, %r2, 0.5
        max.f32         %t0, -1.25, -3e38
        @%p2 abs.f32         %r4, %t0
endif_18:
        and.b32         %t1, %laneid, 16
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_19
        min.s32         %r0, %r0, %r2
        cvt.rmi.f32.f32 %r5, %r0
        bra             endif_20
else_19:
        max.f32         %t0, %r5, -3e38
        max.f32         %r0, %r3, %t0
        and.b32         %t0, %r2, 1
        shfl.sync.bfly.b32 %r0, %r5, %t0, width=2, mask=0xffff0000
        @%p1 min.s32         %r2, %r3, %r5
        shr.s32         %r2, %r4, %r5
        cvt.rn.f32.s32  %r2, %r2
endif_20:
endif_16:
        shfl.sync.idx.b32 %r5|%p2, %r1, %laneid, 0x104, 0xffffffff
        cvt.rzi.f32.f32 %r2, %r2
        fma.rn.f32      %r1, %r1, %r4, %r3
        shfl.sync.down.b32 %r0|%p0, %r2, %r0
        and.b32         %r0, %laneid, %r5
        setp.gt.u32     %p0, %r5, %tid.x
        mul.f32         %r2, %r3, 3.0
        or.b32          %r0, %r0, %r3
        setp.le.u32     %p2, 2, %r1
        shr.u32         %r5, %r0, %r3
        @!%p0 shr.u32         %r0, %r0, %r5
        and.b32         %t0, %r1, 0
        match.sync.all.b32 %r0|%p2, %t0, 0xffffffff
        mul.lo.u32      %r5, %r4, %r3
        setp.gt.u32     %p1, %r1, %r2
        shfl.sync.down.b32 %r0|%p0, %r1, 3, 0x6, 0xffffffff
        min.s32         %r2, 73, %r3
        vote.sync.any.pred  %p1, %p1, 0xffffffff
        and.b32         %t1, %laneid, 2
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_21
        shfl.sync.bfly.b32 %r5, %r1, 0, width=2, mask=0x33333333
        @!%p1 xor.b32         %r0, %laneid, %r1
        shfl.sync.down.b32 %r2|%p2, %r4, 5, width=2, mask=0x33333333
        selp.u32        %r4, %r4, %r1, %p2
        shfl.sync.down.b32 %r1|%p1, %r0, %laneid, width=1, mask=0x33333333
        bra             endif_22
else_21:
        @%p2 shr.s32         %r4, %r1, %r1
        vote.sync.uni.pred  %p1, %p0, 0xcccccccc
        and.b32         %t0, %r4, 255
        or.b32          %t0, %t0, 1
        rem.u32         %r5, 0x4cc8e488, %t0
        vote.sync.any.pred  %p1, %p0, 0xcccccccc
endif_22:
        and.b32         %t0, %r2, 1
        match.sync.all.b32 %r2|%p2, %t0, 0xffffffff
        max.f32         %t0, %r4, -3e38
        neg.f32         %r2, %t0
        shfl.sync.idx.b32 %r5|%p1, %r5, %laneid
        not.pred        %p0, %p1
        div.rn.f32      %r0, %r1, %r4
        and.b32         %t2, %r2, 3
loop_23:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_24
        setp.lt.u32     %p0, %r0, %tid.x
        cvt.rzi.f32.f32 %r0, %r2
        setp.lt.f32     %p2, %r0, %r5
        min.s32         %r4, %r3, %r4
        sub.u32         %t2, %t2, 1
        bra             loop_23
endloop_24:
        sub.f32         %r4, %r4, %r2
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
