// Issue 22: block_sum (programs/block_sum.s, block_sum_f32 of warp.s written out) with clock points per thread:
// start, after the load (value stored to shared memory first), after the warp's shuffle sum, after the barrier,
// after warp 0's sum, after thread 0's red.
.kernel bs_regions
.param n = 1000
.grid 4
.block 256
.buffer x   f32[n] = i + 1
.buffer out f32[1]
.buffer cyc u32[6144]
.shared partial f32[8]
.shared sink f32[256]
.include "warp.s"
.reg %gid, %v, %other, %off, %ck, %ci
.pred %inside, %p, %more, %thread0
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 0
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.f32             %v, 0.0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.f32 %v, x[%gid]
        st.shared.f32       sink[%tid.x], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 1
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
        down_sum_f32        %v, %other, %off, %more
        st.shared.f32       sink[%tid.x], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 2
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
        setp.eq.u32         %p, %laneid, 0
        @%p st.shared.f32   partial[%warpid], %v
        bar.sync            0
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 3
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
        setp.ne.u32         %p, %warpid, 0
        @%p bra             done
        mov.f32             %v, 0.0
        setp.lt.u32         %p, %laneid, %nwarpid
        @%p ld.shared.f32   %v, partial[%laneid]
        down_sum_f32        %v, %other, %off, %more
        st.shared.f32       sink[%tid.x], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 4
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
done:
        setp.eq.u32         %thread0, %tid.x, 0
        @%thread0 red.global.add.f32 out[0], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 6, 5
        mad.lo.u32          %ci, %ci, 256, %tid.x
        st.global.u32       cyc[%ci], %ck
