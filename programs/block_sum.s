// block_sum (LESSON): a sum over a whole grid in the lesson's hierarchy: registers -> warp shuffle ->
// shared memory -> atomics. Each block sums its elements (shfl.down per warp, the warp sums through shared
// memory and a barrier, warp 0 adds them) and thread 0 adds the block's sum to out[0] with a global atomic.
// Threads past n contribute 0. Default: x = 1 .. 1000 in blocks of 256: 500500.
.kernel block_sum
.desc "grid sum: warp shfl.down sums -> shared memory -> barrier -> one atomic add per block (LESSON)"
.param n = 1000
.param threads = 256
.require threads % W == 0, "block_sum needs whole warps: --set threads to a multiple of the warp size"
.require threads / W <= W, "warp 0 adds one warp sum per lane, so a block may have at most W warps: use a larger --warp or a smaller --set threads"
.grid (n + threads - 1) / threads
.block threads
.buffer x   f32[n] = i + 1
.buffer out f32[1]
.shared partial f32[threads / W]
.include "warp.s"
.reg %gid, %v, %other, %off
.pred %inside, %p, %more, %thread0

        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.f32             %v, 0.0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.f32 %v, x[%gid]
        block_sum_f32       %v, %other, %off, %more, %p, partial
        setp.eq.u32         %thread0, %tid.x, 0
        @%thread0 red.global.add.f32 out[0], %v
