// conditional_max (P26): a butterfly computes the warp's maximum and minimum in the same loop; then the warp
// diverges: even lanes write the maximum, odd lanes the minimum.
// Input 3, 1, 7, 2, 9, 4, 8, 5, 6, then i % 10; two blocks of one warp each.
.kernel conditional_max
.desc "butterfly max and min in one loop; even lanes write the max, odd lanes the min (P26)"
.grid 2
.block W
.buffer in  f32[2 * W] = i % 10, [0..] = [3, 1, 7, 2, 9, 4, 8, 5, 6]
.buffer out f32[2 * W]
.reg %gid, %hi, %lo, %other, %off, %odd
.pred %more, %is_odd

        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        ld.global.f32       %hi, in[%gid]
        mov.f32             %lo, %hi
        mov.u32             %off, (W / 2)
step:
        shfl.sync.bfly.b32  %other, %hi, %off
        max.f32             %hi, %hi, %other
        shfl.sync.bfly.b32  %other, %lo, %off
        min.f32             %lo, %lo, %other
        shr.u32             %off, %off, 1
        setp.ne.u32         %more, %off, 0
        @%more bra          step

        and.b32             %odd, %laneid, 1
        setp.ne.u32         %is_odd, %odd, 0
        @%is_odd bra        write_min
        st.global.f32       out[%gid], %hi
        bra                 done
write_min:
        st.global.f32       out[%gid], %lo
done:
        exit
