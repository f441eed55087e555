// shfl_broadcast (BLOG): every thread reads lane 2 of its 16-lane segment: __shfl_sync(mask, v, 2, 16).
// Written in PTX's raw form: c = ((W - 16) << 8) | 0x1f packs the segment mask and the clamp value, and the
// member mask names the 16 threads. `shfl.sync.idx.b32 %v, %v, 2, width=16` says the same.
.kernel shfl_broadcast
.desc "broadcast lane 2 to a 16-thread block: shfl.idx(v, 2, width 16) (BLOG)"
.warp_sizes 16..64
.grid 1
.block 16
.buffer in  s32[16] = i
.buffer out s32[16]
.reg %tid, %v

        mov.u32             %tid, %tid.x
        ld.global.s32       %v, in[%tid]
        shfl.sync.idx.b32   %v, %v, 2, ((W - 16) << 8) | 0x1f, 0xffff
        st.global.s32       out[%tid], %v
