// shfl_xor_array (BLOG): 4 threads each hold 4 values (in[4t .. 4t+3]) in 4 registers and exchange every one
// of them with the neighbouring thread: thread 0 ends with thread 1's values and so on.
//   4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11
.kernel shfl_xor_array
.desc "4 threads x 4 registers each swapped with the neighbour: shfl.bfly(·, 1, width 16) (BLOG)"
.warp_sizes 16..64
.grid 1
.block 4
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %base, %a0, %a1, %a2, %a3

        shl.b32             %base, %tid.x, 2
        ld.global.s32       %a0, in[%base]
        ld.global.s32       %a1, in[%base + 1]
        ld.global.s32       %a2, in[%base + 2]
        ld.global.s32       %a3, in[%base + 3]
        shfl.sync.bfly.b32  %a0, %a0, 1, width=16
        shfl.sync.bfly.b32  %a1, %a1, 1, width=16
        shfl.sync.bfly.b32  %a2, %a2, 1, width=16
        shfl.sync.bfly.b32  %a3, %a3, 1, width=16
        st.global.s32       out[%base], %a0
        st.global.s32       out[%base + 1], %a1
        st.global.s32       out[%base + 2], %a2
        st.global.s32       out[%base + 3], %a3
