// Warp-synchronous instructions reached on diverged paths, for `sim crosscheck` (independent thread scheduling):
// per warp, lanes split into two paths by a lane-dependent condition, and each path runs its own `shfl.sync`,
// `vote.sync.ballot`, `vote.sync.any`, `match.any` and `bar.warp.sync` (different instructions, registers and
// operands, the same operation and full member mask), then everything is stored. On a GPU since Volta, the lanes
// of both paths meet at each such instruction (PTX: each waits for every lane of its mask to execute one "with
// the same qualifiers and same membermask value"); this file checks what values they exchange.
.kernel edges_its
.desc "shfl, vote, match and bar.warp.sync reached on two diverged paths (independent thread scheduling)"
.scheduling its
.warp_sizes 32
.grid 2
.block 64
.buffer shfl_bfly u32[128]
.buffer shfl_idx  u32[128]
.buffer shfl_down u32[128]
.buffer in_range  u32[128]
.buffer ballot    u32[128]
.buffer any       u32[128]
.buffer matched   u32[128]
.buffer handoff   u32[128]
.shared box u32[64]
.reg %gid, %x, %y, %v, %k, %src, %b, %m, %q
.pred %odd, %p, %c, %a
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mul.lo.u32          %x, %gid, 2654435761
        and.b32             %k, %laneid, 5
        setp.eq.u32         %odd, %k, 1             // lanes 1, 3 (mod 8): one path; the rest: the other
        @%odd bra           second
        // ---- path A
        shfl.sync.bfly.b32  %v, %x, 3
        st.global.u32       shfl_bfly[%gid], %v
        and.b32             %src, %laneid, 7
        shfl.sync.idx.b32   %v, %x, %src
        st.global.u32       shfl_idx[%gid], %v
        shfl.sync.down.b32  %v|%p, %x, 2
        st.global.u32       shfl_down[%gid], %v
        selp.u32            %q, 1, 0, %p
        st.global.u32       in_range[%gid], %q
        setp.gt.u32         %c, %x, 2147483648
        vote.sync.ballot.b32 %b, %c
        st.global.u32       ballot[%gid], %b
        vote.sync.any.pred  %a, %c
        selp.u32            %q, 1, 0, %a
        st.global.u32       any[%gid], %q
        shr.u32             %y, %laneid, 2
        match.sync.any.b32  %m, %y
        st.global.u32       matched[%gid], %m
        st.shared.u32       box[%tid.x], %x
        bar.warp.sync
        bra                 done
second:
        // ---- path B: other registers, other operands
        add.u32             %y, %x, 12345
        shfl.sync.bfly.b32  %b, %y, 3
        st.global.u32       shfl_bfly[%gid], %b
        add.u32             %src, %laneid, 9
        shfl.sync.idx.b32   %b, %y, %src
        st.global.u32       shfl_idx[%gid], %b
        shfl.sync.down.b32  %b|%a, %y, 5
        st.global.u32       shfl_down[%gid], %b
        selp.u32            %k, 1, 0, %a
        st.global.u32       in_range[%gid], %k
        setp.lt.u32         %p, %y, 1000000000
        vote.sync.ballot.b32 %m, %p
        st.global.u32       ballot[%gid], %m
        vote.sync.any.pred  %c, %p
        selp.u32            %k, 1, 0, %c
        st.global.u32       any[%gid], %k
        and.b32             %v, %laneid, 3
        match.sync.any.b32  %m, %v
        st.global.u32       matched[%gid], %m
        bar.warp.sync
        // Read what path A stored before its bar.warp.sync, from the other lanes of the warp.
        xor.b32             %k, %tid.x, 1
        ld.shared.u32       %v, box[%k]
        st.global.u32       handoff[%gid], %v
done:
