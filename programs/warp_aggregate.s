// warp_aggregate: stream compaction with warp-aggregated atomics (CUDA's atomicAggInc). The threads whose value
// passes a filter (< 5) each need a slot in `out`. Instead of one atomic per thread, the lanes that pass find each
// other with `activemask` (inside the branch: only they execute it), elect the lowest as leader (`brev` + `clz`:
// CUDA's __ffs - 1), the leader reserves a slot per lane with one atomic add of `popc(mask)`, and a shuffle from
// the leader, under that mask held in a register, gives every lane the base; each lane's own slot is the base plus
// the number of passing lanes below it (`popc(mask & %lanemask_lt)`). One atomic per warp instead of one per lane.
// Default: one warp, in[i] = 7i mod 10: the lanes with 0..4 keep their values, in lane order. With several
// warps the warps' segments follow the order of their atomics (on a GPU too).
.kernel warp_aggregate
.desc "stream compaction with warp-aggregated atomics: activemask, leader election (brev, clz), popc, shfl from the leader"
// A member mask is 32 bits (activemask.b32, shfl.sync's membermask), as in PTX: at most 32 lanes a warp.
.warp_sizes 2..32
.param n = W
.param threads = W
.grid (n + threads - 1) / threads
.block threads
.buffer in    u32[n] = (7 * i) % 10
.buffer out   u32[n]
.buffer count u32[1]
.reg %gid, %v, %m, %r, %leader, %k, %base, %lt, %rank, %slot
.pred %inside, %keep, %lead

        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        setp.lt.u32         %inside, %gid, n
        @!%inside exit
        ld.global.u32       %v, in[%gid]
        setp.lt.u32         %keep, %v, 5
        @!%keep exit
        activemask.b32      %m
        brev.b32            %r, %m
        clz.b32             %leader, %r
        popc.b32            %k, %m
        setp.eq.u32         %lead, %laneid, %leader
        @%lead atom.global.add.u32 %base, count[0], %k
        shfl.sync.idx.b32   %base, %base, %leader, mask=%m
        and.b32             %lt, %m, %lanemask_lt
        popc.b32            %rank, %lt
        add.u32             %slot, %base, %rank
        st.global.u32       out[%slot], %v
