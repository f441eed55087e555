// `fns.b32 d, mask, base, offset` (the offset-th set bit of mask from bit base), for `sim crosscheck`: 256
// threads, each with its own mask (dense, then sparse), base (0-31) and offset (-6..6, then -30..30, so that
// some searches run off either end and find nothing: 0xffffffff).
.kernel edges_fns
.desc "fns.b32 over dense and sparse masks, every base, offsets up and down, found and not found"
.warp_sizes 32
.grid 4
.block 64
.buffer out u32[256 * 3]
.reg %gid, %m, %s, %t, %b, %o, %v, %at
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mul.lo.u32          %m, %gid, 2654435761
        xor.b32             %m, %m, 0x5bd1e995
        and.b32             %b, %gid, 31
        rem.u32             %o, %gid, 13
        sub.s32             %o, %o, 6
        mul.lo.u32          %at, %gid, 3
        fns.b32             %v, %m, %b, %o
        st.global.u32       out[%at], %v
        shr.u32             %t, %m, 3
        and.b32             %s, %m, %t
        shr.u32             %t, %m, 7
        and.b32             %s, %s, %t
        fns.b32             %v, %s, %b, %o
        st.global.u32       out[%at + 1], %v
        mul.lo.u32          %o, %o, 5
        fns.b32             %v, %m, %b, %o
        st.global.u32       out[%at + 2], %v
