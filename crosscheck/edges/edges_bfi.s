// bfi at its edges, for `sim crosscheck`: each of 256 threads takes one pair (a, b) of 16 64-bit values and inserts
// a's low bits into b (and into a itself, and into 0) at the position and length taken from b's words and from
// a's: positions and lengths past the width, zero, and with bits above their low byte.
.kernel edges_bfi
.desc "edge operands of bfi.b32 and bfi.b64 (256 pairs of 16 values)"
.warp_sizes 32
.grid 2
.block 128
.buffer vals s64[16] = 0, [0..] = [0, -1, 1, (-9223372036854775807 - 1), 34359738372, 137438953503, 141733920800, 4294967359, 274877906944, 279172874304, 2233382994180, 1311768467463790320, -81985529216486896, 6442450944, 9223372036854775807, 85899345932]
.buffer out u32[256 * 12]
.reg %gid, %ia, %ib, %base, %alo, %ahi, %blo, %bhi, %r<12>
.reg.b64 %a, %b, %w<3>
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        shr.u32             %ia, %gid, 4
        and.b32             %ib, %gid, 15
        ld.global.b64       %a, vals[%ia]
        ld.global.b64       %b, vals[%ib]
        mov.b64             {%alo, %ahi}, %a
        mov.b64             {%blo, %bhi}, %b
        bfi.b32             %r0, %alo, %ahi, %blo, %bhi
        bfi.b32             %r1, %ahi, %blo, %bhi, %alo
        bfi.b32             %r2, %alo, 0, %bhi, %blo
        bfi.b32             %r3, %blo, %alo, %ahi, %bhi
        bfi.b64             %w0, %a, %b, %blo, %bhi
        mov.b64             {%r4, %r5}, %w0
        bfi.b64             %w1, %b, %a, %bhi, %blo
        mov.b64             {%r6, %r7}, %w1
        bfi.b64             %w2, %a, 0, %alo, %blo
        mov.b64             {%r8, %r9}, %w2
        bfi.b64             %w2, %b, -1, 8, %ahi
        mov.b64             {%r10, %r11}, %w2
        mul.lo.u32          %base, %gid, 12
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
