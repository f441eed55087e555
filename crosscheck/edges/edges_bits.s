// Bit-field instructions at their edges, for `sim crosscheck`: each of 256 threads takes one pair (a, b) of 16
// 64-bit values and stores popc/clz/brev of `a` in 64 bits, bfe of `a` in all four types with the position and length
// taken from b's low and high words (positions and lengths past the width, zero, and with bits above the low byte,
// which PTX ignores), bfind of `a` in all four types with and without `.shiftamt`, and prmt of a's two words with a
// selector from b (byte picks and sign replication).
.kernel edges_bits
.desc "edge operands of popc/clz/brev.b64, bfe, bfind and prmt (256 pairs of 16 values)"
.warp_sizes 32
.grid 2
.block 128
.buffer vals s64[16] = 0, [0..] = [0, -1, 1, (-9223372036854775807 - 1), 34359738372, 137438953503, 141733920800, 4294967359, 274877906944, 279172874304, 2233382994180, 1311768467463790320, -81985529216486896, 6442450944, 9223372036854775807, 85899345932]
.buffer out u32[256 * 24]
.reg %gid, %ia, %ib, %base, %alo, %ahi, %blo, %bhi, %r<24>
.reg.b64 %a, %b, %w<4>
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        shr.u32             %ia, %gid, 4
        and.b32             %ib, %gid, 15
        ld.global.b64       %a, vals[%ia]
        ld.global.b64       %b, vals[%ib]
        mov.b64             {%alo, %ahi}, %a
        mov.b64             {%blo, %bhi}, %b
        popc.b64            %r0, %a
        clz.b64             %r1, %a
        brev.b64            %w0, %a
        mov.b64             {%r2, %r3}, %w0
        bfe.u32             %r4, %alo, %blo, %bhi
        bfe.s32             %r5, %alo, %blo, %bhi
        bfe.u64             %w1, %a, %blo, %bhi
        mov.b64             {%r6, %r7}, %w1
        bfe.s64             %w2, %a, %blo, %bhi
        mov.b64             {%r8, %r9}, %w2
        bfind.u32           %r10, %alo
        bfind.s32           %r11, %alo
        bfind.shiftamt.u32  %r12, %alo
        bfind.shiftamt.s32  %r13, %alo
        bfind.u64           %r14, %a
        bfind.s64           %r15, %a
        bfind.shiftamt.u64  %r16, %a
        bfind.shiftamt.s64  %r17, %a
        prmt.b32            %r18, %alo, %ahi, %blo
        prmt.b32            %r19, %ahi, %alo, %bhi
        popc.b32            %r20, %ahi
        clz.b32             %r21, %ahi
        brev.b32            %r22, %ahi
        bfe.u32             %r23, %ahi, %bhi, %blo
        mul.lo.u32          %base, %gid, 24
        st.global.u32       out[%base + 0], %r0
        st.global.u32       out[%base + 1], %r1
        st.global.u32       out[%base + 2], %r2
        st.global.u32       out[%base + 3], %r3
        st.global.u32       out[%base + 4], %r4
        st.global.u32       out[%base + 5], %r5
        st.global.u32       out[%base + 6], %r6
        st.global.u32       out[%base + 7], %r7
        st.global.u32       out[%base + 8], %r8
        st.global.u32       out[%base + 9], %r9
        st.global.u32       out[%base + 10], %r10
        st.global.u32       out[%base + 11], %r11
        st.global.u32       out[%base + 12], %r12
        st.global.u32       out[%base + 13], %r13
        st.global.u32       out[%base + 14], %r14
        st.global.u32       out[%base + 15], %r15
        st.global.u32       out[%base + 16], %r16
        st.global.u32       out[%base + 17], %r17
        st.global.u32       out[%base + 18], %r18
        st.global.u32       out[%base + 19], %r19
        st.global.u32       out[%base + 20], %r20
        st.global.u32       out[%base + 21], %r21
        st.global.u32       out[%base + 22], %r22
        st.global.u32       out[%base + 23], %r23
