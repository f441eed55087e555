// Calibration microbenchmark (run on the GPU as itself, through `sim crosscheck`, which reports what the GPU left
// in `cyc`): a loop of `atom.shared.add.u32` that leaves when the atomic returns `stops[lane]` (never), lane k
// running `n + (k % period) * step` times. A loop that leaves on an atomic's result gets a `YIELD` from ptxas
// (`timing.yield_stall` a pass; the kernel's 64-bit division, which no lane reaches, would give it one too), and
// lanes that leave it early are released to run on alone (`timing.yield_release`, then `timing.yield_diverged`
// each pass while they wait at the `bar.warp.sync`). `cyc[0]`: the loop's cycles.
.kernel yield_loop
.param n = 64
.param step = 0
.param period = W
.buffer iters u32[W] = n + (i % period) * step
.buffer stops u32[W] = 0xffffffff
.shared s u32[W]
.buffer q u64[W] = i + 1
.buffer cyc u32[1]
.reg %r, %stop, %c, %t0, %t1
.reg.b64 %x, %y
.pred %out, %first, %never

        ld.global.u32       %c, iters[%tid.x]
        ld.global.u32       %stop, stops[%tid.x]
        bar.warp.sync       0xffffffff
        mov.u32             %t0, %clock
loop:
        setp.eq.u32         %out, %c, 0
        @%out bra           endloop
        atom.shared.add.u32 %r, s[%tid.x], 1
        setp.eq.u32         %out, %r, %stop
        @%out bra           endloop
        sub.u32             %c, %c, 1
        bra                 loop
endloop:
        bar.warp.sync       0xffffffff
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
        setp.lt.u32         %never, %tid.x, W
        @%never exit
        ld.global.u64       %x, q[%tid.x]
        div.u64             %y, %x, %x
        st.global.u64       q[%tid.x], %y
