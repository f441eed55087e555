// Calibration microbenchmark (mirrors `k_dadd` of calibration/measured/ubench-f64.cu): a dependent chain of add.f64
.kernel dadd_chain
.param iters = 4096
.buffer out f64[W]
.buffer cyc u32[1]
.reg %i, %t0, %t1, %x
.reg.b64 %v
.pred %more, %first

        cvt.rn.f64.u32      %v, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        add.f64             %v, %v, 1.0000001
        add.u32             %i, %i, 16
        add.f64             %v, %v, 1.0000001
        setp.ne.u32         %more, %i, iters
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        add.f64             %v, %v, 1.0000001
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.f64       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
