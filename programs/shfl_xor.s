// shfl_xor (BLOG): __shfl_xor_sync(mask, v, 1, 16): neighbouring threads swap: 1 0 3 2 …
.kernel shfl_xor
.desc "swap neighbours: shfl.bfly(v, 1, width 16) (BLOG)"
.warp_sizes 16..64
.grid 1
.block 16
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %tid, %v

        mov.u32             %tid, %tid.x
        ld.global.s32       %v, in[%tid]
        shfl.sync.bfly.b32  %v, %v, 1, width=16
        st.global.s32       out[%tid], %v
