// Calibration microbenchmark (mirrors calibration/measured/ubench20.cu): one `div.rn.f64` timed alone on operands
// loaded before the first clock read (their bits are parameters), its result stored to shared memory so that the
// second clock read waits for it. Fast-path operands by default; the rows also run it on operands that send the
// GPU's code down its slow path (`timing.slow_paths`). `cyc[0]`: the cycles between the clock reads.
.kernel ddiv_one
.param a = 4609434218613702656
.param b = 4609434218613702656
.buffer v u64[2] = (i == 0) * a + (i == 1) * b
.buffer cyc u32[1]
.shared s u64[3]
.block 1
.reg %t0, %t1
.reg.b64 %a, %b, %r

        ld.global.u64       %a, v[0]
        ld.global.u64       %b, v[1]
        st.shared.u64       s[1], %a
        st.shared.u64       s[2], %b
        mov.u32             %t0, %clock
        div.rn.f64          %r, %a, %b
        st.shared.u64       s[0], %r
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
