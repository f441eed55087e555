// Issue 22: warp_aggregate (programs/warp_aggregate.s) with clock points per lane: start, after the load (its
// value stored to shared memory first, so that the clock waits for it), after the leader's atomic returned (its
// value stored likewise), after the shuffle, after the last store.
.kernel wa_regions
.warp_sizes 32
.param n = W
.grid 1
.block 32
.buffer in    u32[n] = (7 * i) % 10
.buffer out   u32[n]
.buffer count u32[1]
.buffer cyc   u32[160]
.shared sink u32[32]
.reg %gid, %v, %m, %r, %leader, %k, %base, %lt, %rank, %slot, %ck, %ci
.pred %inside, %keep, %lead
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 5, 0
        mad.lo.u32          %ci, %ci, 32, %tid.x
        st.global.u32       cyc[%ci], %ck
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        ld.global.u32       %v, in[%gid]
        st.shared.u32       sink[%tid.x], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 5, 1
        mad.lo.u32          %ci, %ci, 32, %tid.x
        st.global.u32       cyc[%ci], %ck
        setp.lt.u32         %keep, %v, 5
        @!%keep exit
        activemask.b32      %m
        brev.b32            %r, %m
        clz.b32             %leader, %r
        popc.b32            %k, %m
        setp.eq.u32         %lead, %laneid, %leader
        @%lead atom.global.add.u32 %base, count[0], %k
        st.shared.u32       sink[%tid.x], %base
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 5, 2
        mad.lo.u32          %ci, %ci, 32, %tid.x
        st.global.u32       cyc[%ci], %ck
        shfl.sync.idx.b32   %base, %base, %leader, mask=%m
        st.shared.u32       sink[%tid.x], %base
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 5, 3
        mad.lo.u32          %ci, %ci, 32, %tid.x
        st.global.u32       cyc[%ci], %ck
        and.b32             %lt, %m, %lanemask_lt
        popc.b32            %rank, %lt
        add.u32             %slot, %base, %rank
        st.global.u32       out[%slot], %v
        mov.u32             %ck, %clock
        mad.lo.u32          %ci, %ctaid.x, 5, 4
        mad.lo.u32          %ci, %ci, 32, %tid.x
        st.global.u32       cyc[%ci], %ck
