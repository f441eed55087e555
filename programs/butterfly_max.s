// butterfly_max (P26): the maximum over a warp by butterfly exchange.
//   v = max(v, shfl.bfly(v, off)) for off = W/2, W/4, …, 1: after log2(W) steps every lane holds the maximum.
// Input 0, 2, 4, … with the last lane 1000: every lane ends with 1000.
// `--set warps=N` runs N warps, one block each, over N·W values (2 × lane in every warp; the very last 1000).
.kernel butterfly_max
.desc "every lane gets the warp maximum: v = max(v, shfl.bfly(v, off)), off = W/2 … 1 (P26)"
.param warps = 1
.grid warps
.block W
.buffer in  f32[warps * W] = 2 * (i % W), [len - 1] = 1000
.buffer out f32[warps * W]
.include "warp.s"
.reg %tid, %v, %other, %off
.pred %more

        mad.lo.u32          %tid, %ctaid.x, %ntid.x, %tid.x
        ld.global.f32       %v, in[%tid]
        bfly_max_f32        %v, %other, %off, %more
        st.global.f32       out[%tid], %v
