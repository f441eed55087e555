// Calibration microbenchmark (mirrors `k_sync` of calibration/measured/ubench13.cu): lanes 0-15 and 16-31 each
// loop over a multiply-add and `bar.warp.sync` (`syncs` of them an iteration) on paths of their own, so every
// `bar.warp.sync` brings the two diverged paths together; with `split` 0 every lane runs one loop (converged).
.kernel warp_sync_diverged
.scheduling its
.param split = 1
.param syncs = 1
.param iters = 256
.param y = 1
.block 32
.buffer out u32[W]
.buffer cyc u32[1]
.reg %x, %i, %t0, %t1
.pred %lo, %more, %two, %first

        mov.u32             %x, %laneid
        mov.u32             %i, 0
        setp.lt.u32         %lo, %laneid, 16 * split + 32 * (1 - split)
        setp.eq.u32         %two, syncs, 2
        mov.u32             %t0, %clock
        @!%lo bra           upper
lower:
        mad.lo.u32          %x, %x, 3, y
        bar.warp.sync       0xffffffff
        @!%two bra          lower_next
        bar.warp.sync       0xffffffff
lower_next:
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          lower
        bra                 done
upper:
        mad.lo.u32          %x, %x, 5, y
        bar.warp.sync       0xffffffff
        @!%two bra          upper_next
        bar.warp.sync       0xffffffff
upper_next:
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          upper
done:
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%laneid], %x
        setp.eq.u32         %first, %laneid, 0
        @%first st.global.u32 cyc[0], %t1
