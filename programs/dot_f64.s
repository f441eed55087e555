// dot_f64: a . b in double precision, one partial sum per block. Every thread accumulates its strided share
// with fused multiply-adds (fma.rn.f64: one rounding each), each warp sums with 64-bit butterfly shuffles, the
// warp sums meet in shared memory (an f64 array) after a barrier, and warp 0 adds them: out[block] is the
// block's sum, the same bits on every run (no atomics: floating-point addition does not commute bit for bit).
// Default: a[i] = i / 10, b[i] = 1 / (i + 1) over 4096 elements, 4 blocks of 128 threads.
.kernel dot_f64
.desc "f64 dot product: strided fma.rn.f64 per thread, 64-bit warp butterflies, shared f64 partials, one sum per block"
.param n = 4096
.param blocks = 4
.param threads = 128
.require threads % W == 0, "dot_f64 needs whole warps: --set threads to a multiple of the warp size"
.require threads / W <= W, "warp 0 adds one warp sum per lane, so a block may have at most W warps: use a larger --warp or a smaller --set threads"
.grid blocks
.block threads
.buffer a   f64[n] = i / 10
.buffer b   f64[n] = 1 / (i + 1)
.buffer out f64[blocks]
.shared partial f64[threads / W]
.include "warp.s"
.reg %i, %lo, %hi, %off
.reg.b64 %acc, %x, %y, %other
.pred %more, %loop, %p

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        mov.f64             %acc, 0.0
        setp.lt.u32         %loop, %i, n
        @!%loop bra         reduce
next:
        ld.global.f64       %x, a[%i]
        ld.global.f64       %y, b[%i]
        fma.rn.f64          %acc, %x, %y, %acc
        add.u32             %i, %i, (blocks * threads)
        setp.lt.u32         %loop, %i, n
        @%loop bra          next
reduce:
        bfly_sum_f64        %acc, %other, %lo, %hi, %off, %more
        setp.eq.u32         %p, %laneid, 0
        @%p st.shared.f64   partial[%warpid], %acc
        bar.sync            0
        setp.ne.u32         %p, %warpid, 0
        @%p exit
        mov.f64             %acc, 0.0
        setp.lt.u32         %p, %laneid, %nwarpid
        @%p ld.shared.f64   %acc, partial[%laneid]
        bfly_sum_f64        %acc, %other, %lo, %hi, %off, %more
        setp.eq.u32         %p, %laneid, 0
        @%p st.global.f64   out[%ctaid.x], %acc
