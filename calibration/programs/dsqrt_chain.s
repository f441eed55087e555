// Calibration microbenchmark (mirrors `k_dsqrt` of calibration/measured/ubench-f64.cu) (unrolled 4 times, as there): a dependent chain of sqrt.rn.f64 and add.f64
.kernel dsqrt_chain
.param iters = 256
.buffer out f64[W]
.buffer cyc u32[1]
.reg %i, %t0, %t1, %x
.reg.b64 %v
.pred %more, %first

        cvt.rn.f64.u32      %v, %tid.x
        add.f64             %v, %v, 2.0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        sqrt.rn.f64         %v, %v
        add.u32             %i, %i, 4
        add.f64             %v, %v, 1.5
        setp.ne.u32         %more, %i, iters
        sqrt.rn.f64         %v, %v
        add.f64             %v, %v, 1.5
        sqrt.rn.f64         %v, %v
        add.f64             %v, %v, 1.5
        sqrt.rn.f64         %v, %v
        add.f64             %v, %v, 1.5
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.f64       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
