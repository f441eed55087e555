// warp_reduce_sum (LESSON): tree reduction with shfl.down.
//   v += shfl.down(v, off) for off = W/2 … 1: lane 0 ends with the warp's sum (496 for 0..31); the other lanes
//   hold partial sums, because a shfl.down past the last lane returns the lane's own value.
.kernel warp_reduce_sum
.desc "tree sum with shfl.down: lane 0 gets the warp sum (LESSON)"
.grid 1
.block W
.buffer in  f32[W] = i
.buffer out f32[W]
.include "warp.s"
.reg %tid, %v, %other, %off
.pred %more

        mov.u32             %tid, %tid.x
        ld.global.f32       %v, in[%tid]
        down_sum_f32        %v, %other, %off, %more
        st.global.f32       out[%tid], %v
