// warp_prefix_sum (P26/P27): inclusive scan with shfl.up (Hillis–Steele).
//   n = shfl.up(v, d); lanes >= d add n; d = 1, 2, 4, …, W/2.  Input 1, 2, 3, …: output 1, 3, 6, …, W(W+1)/2.
.kernel warp_prefix_sum
.desc "inclusive prefix sum with shfl.up: out[k] = in[0] + … + in[k] (P26/P27)"
.grid 1
.block W
.buffer in  f32[W] = i + 1
.buffer out f32[W]
.include "warp.s"
.reg %tid, %v, %other, %d
.pred %more, %has

        mov.u32             %tid, %tid.x
        ld.global.f32       %v, in[%tid]
        scan_up_f32         %v, %other, %d, %more, %has
        st.global.f32       out[%tid], %v
