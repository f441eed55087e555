// dot_product (P27): a . b over one block: every thread multiplies its pair, then the block sums the products
// (warp shuffles, shared memory, a barrier) and thread 0 writes the result.
// Default: a[i] = i, b[i] = 2i over 128 threads: 1381760.
.kernel dot_product
.desc "dot product in one block: per-thread products, then a block sum through shuffles and shared memory (P27)"
.param threads = 128
.require threads % W == 0, "dot_product needs whole warps: --set threads to a multiple of the warp size"
.require threads / W <= W, "warp 0 adds one warp sum per lane, so a block may have at most W warps: use a larger --warp or a smaller --set threads"
.grid 1
.block threads
.buffer a   f32[threads] = i
.buffer b   f32[threads] = 2 * i
.buffer out f32[1]
.shared partial f32[threads / W]
.include "warp.s"
.reg %tid, %x, %y, %v, %other, %off
.pred %p, %more, %thread0

        mov.u32             %tid, %tid.x
        ld.global.f32       %x, a[%tid]
        ld.global.f32       %y, b[%tid]
        mul.f32             %v, %x, %y
        block_sum_f32       %v, %other, %off, %more, %p, partial
        setp.eq.u32         %thread0, %tid, 0
        @%thread0 st.global.f32 out[0], %v
