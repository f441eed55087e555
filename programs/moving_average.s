// moving_average (P25): a 3-point forward moving average inside each warp, with shfl.down for the neighbours.
//   n1 = shfl.down(v, 1), n2 = shfl.down(v, 2)
//   lane < W-2 and gi < size-2: (v + n1 + n2) / 3;  else lane < W-1 and gi < size-1: (v + n1) / 2;  else v
// Input: triangular numbers 1, 3, 6, 10, …
.kernel moving_average
.desc "3-point moving average per warp with shfl.down(v, 1) and shfl.down(v, 2) (P25)"
.param size = 2 * W
.grid (size + W - 1) / W
.block W
.buffer in  f32[size] = (i + 1) * (i + 2) / 2
.buffer out f32[size]
.reg %gi, %v, %n1, %n2, %sum2, %sum3, %avg
.pred %outside, %lane3, %elem3, %three, %lane2, %elem2, %two

        mad.lo.u32          %gi, %ctaid.x, %ntid.x, %tid.x
        setp.ge.u32         %outside, %gi, size
        @%outside exit
        ld.global.f32       %v, in[%gi]
        shfl.sync.down.b32  %n1, %v, 1
        shfl.sync.down.b32  %n2, %v, 2
        add.f32             %sum2, %v, %n1
        add.f32             %sum3, %sum2, %n2
        setp.lt.u32         %lane3, %laneid, (W - 2)
        setp.lt.s32         %elem3, %gi, (size - 2)
        and.pred            %three, %lane3, %elem3
        setp.lt.u32         %lane2, %laneid, (W - 1)
        setp.lt.s32         %elem2, %gi, (size - 1)
        and.pred            %two, %lane2, %elem2
        mov.f32             %avg, %v
        @%two div.f32       %avg, %sum2, 2.0
        @%three div.f32     %avg, %sum3, 3.0
        st.global.f32       out[%gi], %avg
