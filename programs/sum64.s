// sum64: the 64-bit sum of n 32-bit values, which overflows 32 bits. Every thread widens its element to 64
// bits (cvt.u64.u32), each warp sums with 64-bit butterfly shuffles (two 32-bit shuffles per step), and lane 0
// of every warp adds the warp's sum to the total with one 64-bit atomic (red.global.add.u64: integer addition
// commutes, so the total is the same in any order). Run it on your own data:
//   sim run sum64 --set n=16777216 --input in=values.npy --save total=total.npy
// Default: in[i] = 4000000000 - i over 64 elements: 255999997984 (a u32 sum would wrap around to 2596927520).
.kernel sum64
.desc "64-bit sum of 32-bit values: widen, 64-bit warp butterfly (two shuffles a step), one 64-bit atomic per warp"
.param n = 64
.param threads = 64
.require threads % W == 0, "sum64 needs whole warps: --set threads to a multiple of the warp size"
.grid (n + threads - 1) / threads
.block threads
.buffer in    u32[n] = 4000000000 - i
.buffer total u64[1]
.include "warp.s"
.reg %gid, %x, %lo, %hi, %off
.reg.b64 %v, %other
.pred %inside, %more, %lane0

        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.u64             %v, 0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.u32 %x, in[%gid]
        @%inside cvt.u64.u32 %v, %x
        bfly_sum_u64        %v, %other, %lo, %hi, %off, %more
        setp.eq.u32         %lane0, %laneid, 0
        @%lane0 red.global.add.u64 total[0], %v
