// shfl_up (BLOG): __shfl_up_sync(mask, v, 2, 16). Threads 0 and 1 have no thread two below them in their
// segment, so they keep their own value: 0 1 0 1 2 3 … 13.
.kernel shfl_up
.desc "read the thread two below: shfl.up(v, 2, width 16) (BLOG)"
.warp_sizes 16..64
.grid 1
.block 16
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %tid, %v

        mov.u32             %tid, %tid.x
        ld.global.s32       %v, in[%tid]
        shfl.sync.up.b32    %v, %v, 2, width=16
        st.global.s32       out[%tid], %v
