// Calibration microbenchmark (mirrors `k_lines` of calibration/measured/ubench5.cu): each of the 32 lanes follows
// its own chain through a buffer where g[x] = x, starting at lane x stride, so every load after the first hits
// L1; lanes `stride` words apart touch more lines and, at power-of-two strides, more words of one bank.
.kernel l1_bank_chase
.param stride = 1
.param iters = 256
.buffer g u32[2048] = i
.buffer out u32[32]
.buffer cyc u32[1]
.block 32
.reg %p, %i, %t0, %t1
.pred %more, %first

        mul.lo.u32          %p, %laneid, stride
        ld.global.u32       %p, g[%p]
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        ld.global.u32       %p, g[%p]
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%laneid], %p
        setp.eq.u32         %first, %laneid, 0
        @%first st.global.u32 cyc[0], %t1
