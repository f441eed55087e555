// Named barriers between a producer warp and consumer warps, for `sim crosscheck`: warp 0 of each block fills a
// shared tile and signals with `bar.arrive` (it does not wait); warps 1-3 wait at `bar.sync` on the same barrier
// and the same thread count, read the tile, and signal back with `bar.arrive` that it may be overwritten; the
// producer waits for that at `bar.sync`, writes the tile again, and signals a third barrier.
.kernel edges_arrive
.desc "bar.arrive / bar.sync producer and consumers on three named barriers"
.warp_sizes 32
.grid 2
.block 128
.buffer first  u32[256]
.buffer second u32[256]
.buffer done   u32[256]
.shared tile u32[32]
.reg %gid, %x, %k, %v
.pred %producer
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        setp.eq.u32         %producer, %warpid, 0
        @!%producer bra     consumer
        mul.lo.u32          %x, %gid, 2654435761
        st.shared.u32       tile[%laneid], %x
        bar.arrive          1, 128
        st.global.u32       done[%gid], 1           // goes on before the consumers have read
        bar.sync            2, 128
        add.u32             %x, %x, 12345
        st.shared.u32       tile[%laneid], %x
        bar.arrive          3, 128
        exit
consumer:
        add.u32             %k, %laneid, %warpid
        and.b32             %k, %k, 31
        bar.sync            1, 128
        ld.shared.u32       %v, tile[%k]
        st.global.u32       first[%gid], %v
        bar.arrive          2, 128
        bar.sync            3, 128
        ld.shared.u32       %v, tile[%k]
        st.global.u32       second[%gid], %v
        st.global.u32       done[%gid], 2
