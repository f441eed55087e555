// random_8191_7491.s reduced on an H100 (delta debugging of its instructions, keeping its control flow, its
// loads and its stores) to what still differs: out[16] (thread 2's %r2, the second `match.sync.all` with the
// full member mask) is 0xffffffff in warpsim and 0xcccccccc on the GPU, the lanes of the `else_21` side only.
// PTX says a `.sync` operation waits for every lane of its member mask; here the 16 lanes of one side of a
// branch on %laneid bit 1 ran it alone. Removing the guard `@%p2` (its predicate is the first match.all's,
// which ptxas folds to true), the partial-mask shuffle on the other side, the vote, or either match makes the
// GPU agree with warpsim. Open: crosscheck/README.md.
.kernel random_8191_7491_reduced
.desc "random program 7491 of seed 8191, reduced on an H100 to what keeps the difference"
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
        bra             endif_2
else_1:
        setp.eq.s32     %q, %r2, %r4
        @%q bra         else_3
        bra             endif_4
else_3:
endif_4:
endif_2:
        and.b32         %t1, %laneid, 4
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_5
        and.b32         %t2, %r3, 3
loop_7:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_8
        sub.u32         %t2, %t2, 1
        bra             loop_7
endloop_8:
        setp.lt.s32     %q, %r2, %r1
        @%q bra         else_9
        bra             endif_10
else_9:
endif_10:
        bra             endif_6
else_5:
endif_6:
        and.b32         %t2, %r4, 3
loop_11:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_12
        setp.ge.s32     %q, %r4, %r0
        @%q bra         else_13
        bra             endif_14
else_13:
endif_14:
        sub.u32         %t2, %t2, 1
        bra             loop_11
endloop_12:
        and.b32         %t1, %laneid, 16
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_15
        bra             endif_16
else_15:
        setp.eq.s32     %q, %r2, %r3
        @%q bra         else_17
        bra             endif_18
else_17:
endif_18:
        and.b32         %t1, %laneid, 16
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_19
        bra             endif_20
else_19:
endif_20:
endif_16:
        match.sync.all.b32 %r0|%p2, %t0, 0xffffffff
        shfl.sync.down.b32 %r0|%p0, %r1, 3, 0x6, 0xffffffff
        vote.sync.any.pred  %p1, %p1, 0xffffffff
        and.b32         %t1, %laneid, 2
        setp.ne.u32     %q, %t1, 0
        @%q bra         else_21
        shfl.sync.down.b32 %r1|%p1, %r0, %laneid, width=1, mask=0x33333333
        bra             endif_22
else_21:
        @%p2 shr.s32         %r4, %r1, %r1
endif_22:
        match.sync.all.b32 %r2|%p2, %t0, 0xffffffff
        and.b32         %t2, %r2, 3
loop_23:
        setp.eq.u32     %q, %t2, 0
        @%q bra         endloop_24
        sub.u32         %t2, %t2, 1
        bra             loop_23
endloop_24:
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

