// 8- and 16-bit loads and stores (`ld.u8`/`.s8`/`.u16`/`.s16`, `st.u8`/`.u16`; PTX's `ld.global.u8`,
// `st.shared.b16`, …), for `sim crosscheck`: each of 512 threads loads every byte and half of a hashed word both
// ways, stores bytes and halves at permuted places (so that threads of different warps and blocks write bytes of one
// word), through shared memory and back, and reads back its own bytes and the word they merged into.
.kernel edges_narrow
.desc "8- and 16-bit loads and stores in global and shared memory (512 threads)"
.warp_sizes 32
.grid 4
.block 128
.buffer a     u32[512] = (i * 2654435761 + 12345) % 4294967296
.buffer bytes u32[512]
.buffer halves u32[512]
.buffer mix   u32[512] = (i * 2246822519 + 3266489917) % 4294967296
.buffer out   u32[512 * 16]
.shared sb    u32[128]
.reg %i, %k, %t, %o, %p, %q, %v

        mad.lo.u32          %i, %ctaid.x, %ntid.x, %tid.x
        shl.b32             %k, %i, 4
        shl.b32             %o, %i, 2
        // Every byte of the thread's word, zero- and sign-extended.
        ld.global.u8        %t, [a + %o]
        st.global.u32       out[%k], %t
        ld.global.s8        %t, [a + %o + 1]
        st.global.u32       out[%k + 1], %t
        ld.global.u8        %t, [a + %o + 2]
        st.global.u32       out[%k + 2], %t
        ld.global.s8        %t, [a + %o + 3]
        st.global.u32       out[%k + 3], %t
        ld.global.s16       %t, [a + %o]
        st.global.u32       out[%k + 4], %t
        ld.global.u16       %t, [a + %o + 2]
        st.global.u32       out[%k + 5], %t
        // A byte at a permuted place (5 i mod 2048: every byte of `bytes` once; its neighbours are other warps'
        // and blocks'), the low byte of a value that does not fit.
        mul.lo.u32          %p, %i, 5
        and.b32             %p, %p, 2047
        ld.global.u32       %v, a[%i]
        st.global.u8        [bytes + %p], %v
        // A half at a permuted place (3 i mod 1024, 2 bytes each), a negative value's low half.
        mul.lo.u32          %q, %i, 3
        and.b32             %q, %q, 1023
        shl.b32             %q, %q, 1
        neg.s32             %t, %v
        st.global.s16       [halves + %q], %t
        // Through shared memory, each warp in its own 128 bytes (so that the reference interpreter, which runs
        // warps one after the other, checks it too): bytes at (7 k mod 128) for lane k, then (after
        // `bar.warp.sync`: the two stores share bytes) the odd bytes 2 k + 1, over a word pattern each lane stored
        // first; then each lane's word, half and byte.
        shr.u32             %q, %tid.x, 5
        shl.b32             %q, %q, 7
        shl.b32             %p, %laneid, 2
        add.u32             %p, %p, %q
        st.shared.u32       [sb + %p], 0x5a5a5a5a
        bar.warp.sync       0xffffffff
        mul.lo.u32          %p, %laneid, 7
        and.b32             %p, %p, 127
        add.u32             %p, %p, %q
        shr.u32             %t, %v, 8
        st.shared.u8        [sb + %p], %t
        bar.warp.sync       0xffffffff
        shl.b32             %p, %laneid, 1
        add.u32             %p, %p, %q
        st.shared.b8        [sb + %p + 1], %tid.x
        bar.warp.sync       0xffffffff
        shl.b32             %p, %laneid, 2
        add.u32             %p, %p, %q
        ld.shared.u32       %t, [sb + %p]
        st.global.u32       out[%k + 6], %t
        shl.b32             %p, %laneid, 1
        add.u32             %p, %p, %q
        ld.shared.s16       %t, [sb + %p]
        st.global.u32       out[%k + 7], %t
        add.u32             %p, %laneid, %q
        ld.shared.u8        %t, [sb + %p]
        st.global.u32       out[%k + 8], %t
        ld.shared.s8        %t, [sb + %p]
        st.global.u32       out[%k + 9], %t
        // The thread's own word of `mix`: bytes 0 and 3 replaced, then read back as bytes, a half and the word
        // (this SM's view of its stores merged with what was there).
        st.global.u8        [mix + %o], %i
        xor.b32             %t, %i, 0x5a
        st.global.u8        [mix + %o + 3], %t
        ld.global.u8        %t, [mix + %o]
        st.global.u32       out[%k + 10], %t
        ld.global.s8        %t, [mix + %o + 3]
        st.global.u32       out[%k + 11], %t
        ld.global.u16       %t, [mix + %o + 2]
        st.global.u32       out[%k + 12], %t
        ld.global.u32       %t, mix[%i]
        st.global.u32       out[%k + 13], %t
        st.global.u16       [mix + %o + 2], %v
        ld.global.u32       %t, mix[%i]
        st.global.u32       out[%k + 14], %t
        ld.global.s16       %t, [mix + %o + 2]
        st.global.u32       out[%k + 15], %t
