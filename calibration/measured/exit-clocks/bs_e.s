.kernel bs_e
.param n = 1000
.param threads = 256
.grid (n + threads - 1) / threads
.block threads
.buffer x   f32[n] = i + 1
.buffer o   f32[n]
.buffer out f32[(n + threads - 1) / threads]
.shared partial f32[threads / W]
.include "warp.s"
.reg %gid, %v, %other, %off
.pred %inside, %p, %more, %thread0
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        mov.f32             %v, 0.0
        setp.lt.u32         %inside, %gid, n
        @%inside ld.global.f32 %v, x[%gid]
        block_sum_f32 %v, %other, %off, %more, %p, partial
        setp.eq.u32 %thread0, %tid.x, 0
        @%thread0 red.global.add.f32 out[0], %v
