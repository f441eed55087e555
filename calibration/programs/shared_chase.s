// Calibration microbenchmark (mirrors `k_smem_chase` of calibration/measured/ubench.cu): every lane follows
// a pointer chain in shared memory, p = s[p], starting at (lane * stride) % 2112 where s[p] = p, so `stride`
// sets the bank-conflict degree (stride 0: every lane reads one word, a broadcast).
.kernel shared_chase
.param stride = 1
.param iters = 4096
.buffer out u32[W]
.buffer cyc u32[1]
.shared s u32[2112]
.macro chase4 p
        ld.shared.u32       \p, s[\p]
        ld.shared.u32       \p, s[\p]
        ld.shared.u32       \p, s[\p]
        ld.shared.u32       \p, s[\p]
.endm
.reg %p, %i, %t0, %t1
.pred %more, %first

        mul.lo.u32          %p, %tid.x, stride
        rem.u32             %p, %p, 2112
        st.shared.u32       s[%p], %p
        bar.sync            0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        chase4              %p
        add.u32             %i, %i, 16
        chase4              %p
        setp.ne.u32         %more, %i, iters
        chase4              %p
        chase4              %p
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %p
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
