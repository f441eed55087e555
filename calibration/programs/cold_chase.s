// Calibration microbenchmark (mirrors `k_cold` of calibration/measured/ubench4.cu on its 4 KiB buffer): one
// thread follows a chain through a buffer that nothing has touched yet in the launch (on the GPU: copied from
// the host just before it), each load timed on its own: the shared store waits for the loaded value, and the
// clock is read after it. Words 0, 32, 64, 96, 128, 512: the SM's first load, then five more lines, each a
// first touch (DRAM). `cyc[0]` is the time of steps `first` to `last` - 1.
.kernel cold_chase
.param first = 0
.param last = 1
.buffer g u32[1024] = (i == 0) * 32 + (i == 32) * 64 + (i == 64) * 96 + (i == 96) * 128 + (i == 128) * 512 + (i == 512) * 520
.buffer cyc u32[1]
.shared s u32[16]
.block 1
.reg %p, %t0, %t1, %t2, %t3, %t4, %t5, %t6, %a, %b
.pred %q

        mov.u32             %p, 0
        mov.u32             %t0, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[0], %p
        mov.u32             %t1, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[1], %p
        mov.u32             %t2, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[2], %p
        mov.u32             %t3, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[3], %p
        mov.u32             %t4, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[4], %p
        mov.u32             %t5, %clock
        ld.global.u32       %p, g[%p]
        st.shared.u32       s[5], %p
        mov.u32             %t6, %clock
        // The clock readings of steps `first` and `last`.
        mov.u32             %a, %t0
        setp.eq.u32         %q, first, 1
        selp.u32            %a, %t1, %a, %q
        mov.u32             %b, %t1
        setp.eq.u32         %q, last, 6
        selp.u32            %b, %t6, %b, %q
        sub.u32             %a, %b, %a
        st.global.u32       cyc[0], %a
