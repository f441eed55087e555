// block_reduce (BLOG reduceShfl): the sum of every block's elements, one output per block.
//   1. every warp sums its values with a butterfly (offsets W/2 … 1): every lane gets the warp's sum;
//   2. lane 0 of each warp stores it to shared memory, `partial[warp]`;
//   3. a barrier waits for all warps;
//   4. warp 0 loads the warp sums (one per lane), sums them with a butterfly, and thread 0 writes out[block].
// Threads past n contribute 0. Default: one block of 128 threads over 0..127: 8128.
.kernel block_reduce
.desc "block sums: warp butterfly sums -> shared memory -> barrier -> warp 0 adds them (BLOG reduceShfl)"
.param n = 128
.param threads = 128
.require threads % W == 0, "block_reduce needs whole warps: --set threads to a multiple of the warp size"
.require threads / W <= W, "warp 0 adds one warp sum per lane, so a block may have at most W warps: use a larger --warp or a smaller --set threads"
.grid (n + threads - 1) / threads
.block threads
.buffer in  u32[n] = i
.buffer out u32[(n + threads - 1) / threads]
.shared partial u32[threads / W]
.include "warp.s"
.reg %gid, %v, %other, %off
.pred %inside, %lane0, %warp0, %has, %more

        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.u32             %v, 0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.u32 %v, in[%gid]
        bfly_sum_u32        %v, %other, %off, %more
        setp.eq.u32         %lane0, %laneid, 0
        @%lane0 st.shared.u32 partial[%warpid], %v
        bar.sync            0
        setp.eq.u32         %warp0, %warpid, 0
        @!%warp0 exit
        mov.u32             %v, 0
        setp.lt.u32         %has, %laneid, %nwarpid
        @%has ld.shared.u32 %v, partial[%laneid]
        bfly_sum_u32        %v, %other, %off, %more
        @%lane0 st.global.u32 out[%ctaid.x], %v
