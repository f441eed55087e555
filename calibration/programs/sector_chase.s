// Calibration microbenchmark (mirrors calibration/measured/ubench16.cu): one thread follows a pointer chain
// through 512 lines (64 KiB: they fit the L1), one word of each line a step; a first pass reads word 0 of every
// line (it brings each line into L1 with its first 32-byte sector), the timed second pass word `off` of every
// line: another sector (`off` = 8) misses L1 and costs the L2's latency, the same sector (`off` = 1) hits.
.kernel sector_chase
.param lines = 512
.param off = 8
.buffer g u32[16384] = (((i / 32) * 97 + 1) % 512) * 32 + i % 32
.buffer cyc u32[1]
.block 1
.reg %p, %i, %t0, %t1
.pred %more

        mov.u32             %p, 0
        mov.u32             %i, 0
first:
        ld.global.u32       %p, g[%p]
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, lines
        @%more bra          first
        add.u32             %p, %p, off
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        ld.global.u32       %p, g[%p]
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, lines
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
