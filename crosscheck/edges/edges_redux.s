// `redux.sync` (sm_80's integer warp reduction), for `sim crosscheck`: every operation and type over the full
// warp, on values spread over the whole 32-bit range (so that `.s32` and `.u32` min/max differ and `add`
// wraps), then the same over a partial member mask whose lanes alone execute it (lanes 0, 3, 6, …, 30).
.kernel edges_redux
.desc "redux.sync add/min/max (u32, s32), and/or/xor (b32) over full and partial member masks"
.warp_sizes 32
.grid 2
.block 64
.buffer full  u32[8 * 128]
.buffer part  u32[8 * 128]
.reg %gid, %x, %v, %k, %at
.pred %member
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mul.lo.u32          %x, %gid, 2654435761
        xor.b32             %x, %x, 0x5bd1e995
        mul.lo.u32          %at, %gid, 8
        redux.sync.add.u32  %v, %x, 0xffffffff
        st.global.u32       full[%at], %v
        redux.sync.min.u32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 1], %v
        redux.sync.min.s32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 2], %v
        redux.sync.max.u32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 3], %v
        redux.sync.max.s32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 4], %v
        redux.sync.and.b32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 5], %v
        redux.sync.or.b32   %v, %x, 0xffffffff
        st.global.u32       full[%at + 6], %v
        redux.sync.xor.b32  %v, %x, 0xffffffff
        st.global.u32       full[%at + 7], %v
        rem.u32             %k, %laneid, 3
        setp.eq.u32         %member, %k, 0
        @!%member bra       done
        redux.sync.add.u32  %v, %x, 0x49249249
        st.global.u32       part[%at], %v
        redux.sync.min.u32  %v, %x, 0x49249249
        st.global.u32       part[%at + 1], %v
        redux.sync.min.s32  %v, %x, 0x49249249
        st.global.u32       part[%at + 2], %v
        redux.sync.max.u32  %v, %x, 0x49249249
        st.global.u32       part[%at + 3], %v
        redux.sync.max.s32  %v, %x, 0x49249249
        st.global.u32       part[%at + 4], %v
        redux.sync.and.b32  %v, %x, 0x49249249
        st.global.u32       part[%at + 5], %v
        redux.sync.or.b32   %v, %x, 0x49249249
        st.global.u32       part[%at + 6], %v
        redux.sync.xor.b32  %v, %x, 0x49249249
        st.global.u32       part[%at + 7], %v
done:
        exit
