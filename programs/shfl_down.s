// shfl_down (BLOG): __shfl_down_sync(mask, v, 2, 16). Threads 14 and 15 have no thread two above them in
// their segment, so they keep their own value: 2 3 … 15 14 15.
.kernel shfl_down
.desc "read the thread two above: shfl.down(v, 2, width 16) (BLOG)"
.warp_sizes 16..64
.grid 1
.block 16
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %tid, %v

        mov.u32             %tid, %tid.x
        ld.global.s32       %v, in[%tid]
        shfl.sync.down.b32  %v, %v, 2, width=16
        st.global.s32       out[%tid], %v
