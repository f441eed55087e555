// shfl_wrap (BLOG): __shfl_sync(mask, v, tid + offset, 16). An idx shuffle takes the source lane modulo the
// width, so the reads wrap around the segment: offset 2 gives 2 3 … 15 0 1, offset -2 gives 14 15 0 1 … 13.
.kernel shfl_wrap
.desc "rotate a 16-thread block: shfl.idx(v, tid + offset, width 16); --set offset=-2 (BLOG)"
.warp_sizes 16..64
.param offset = 2
.grid 1
.block 16
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %tid, %v, %src

        mov.u32             %tid, %tid.x
        ld.global.s32       %v, in[%tid]
        add.s32             %src, %tid, offset
        shfl.sync.idx.b32   %v, %v, %src, width=16
        st.global.s32       out[%tid], %v
