// pair_swap (P26): neighbouring lanes swap values with a butterfly shuffle of distance 1.
//   out[i] = shfl.bfly(in[i], 1)  ->  [1, 0, 3, 2, 5, 4, …]
.kernel pair_swap
.desc "neighbouring lanes swap: out[i] = shfl.bfly(in[i], 1) (P26)"
.grid 1
.block W
.buffer in  f32[W] = i
.buffer out f32[W]
.reg %tid, %v

        mov.u32             %tid, %tid.x
        ld.global.f32       %v, in[%tid]
        shfl.sync.bfly.b32  %v, %v, 1
        st.global.f32       out[%tid], %v
