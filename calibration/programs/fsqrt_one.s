// Calibration microbenchmark (mirrors calibration/measured/ubench20.cu and ubench21.cu): one `sqrt.rn.f32` timed alone on
// operands loaded before the first clock read (their bits are parameters), its result stored to shared memory so
// that the second clock read waits for it. Fast-path operands by default; the rows also run it on operands that
// send the GPU's code down its slow path (`timing.slow_paths`). `cyc[0]`: the cycles between the clock reads.
.kernel fsqrt_one
.param a = 1069547520
.param b = 1065353216
.buffer v u32[2] = (i == 0) * a + (i == 1) * b
.buffer cyc u32[1]
.shared s u32[3]
.block 1
.reg %a, %b, %r, %t0, %t1

        ld.global.u32       %a, v[0]
        ld.global.u32       %b, v[1]
        st.shared.u32       s[1], %a
        st.shared.u32       s[2], %b
        mov.u32             %t0, %clock
        sqrt.rn.f32         %r, %a
        st.shared.u32       s[0], %r
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
