.kernel br_b
.param n = 128
.param threads = 128
.grid (n + threads - 1) / threads
.block threads
.buffer in  u32[n] = i
.buffer o   u32[n]
.buffer out u32[(n + threads - 1) / threads]
.shared partial u32[threads / W]
.include "warp.s"
.reg %gid, %v, %other, %off
.pred %inside, %lane0, %warp0, %has, %more
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.u32             %v, 0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.u32 %v, in[%gid]
        bfly_sum_u32 %v, %other, %off, %more
        @%inside st.global.u32 o[%gid], %v
