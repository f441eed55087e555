// Calibration microbenchmark (mirrors `k_dfma8` of calibration/measured/ubench-f64.cu): 8 independent chains of fma.rn.f64 in one warp
.kernel dfma_throughput
.param iters = 4096
.buffer out f64[W]
.buffer cyc u32[1]
.reg %i, %t0, %t1, %x
.reg.b64 %v, %w1, %w2, %w3, %w4, %w5, %w6, %w7
.pred %more, %first

        cvt.rn.f64.u32      %v, %tid.x
        add.f64             %w1, %v, 1.0
        add.f64             %w2, %v, 2.0
        add.f64             %w3, %v, 3.0
        add.f64             %w4, %v, 4.0
        add.f64             %w5, %v, 5.0
        add.f64             %w6, %v, 6.0
        add.f64             %w7, %v, 7.0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        fma.rn.f64          %v, %v, 1.0000001, 1.0000001
        add.u32             %i, %i, 4
        fma.rn.f64          %w1, %w1, 1.0000001, 1.0000001
        fma.rn.f64          %w2, %w2, 1.0000001, 1.0000001
        fma.rn.f64          %w3, %w3, 1.0000001, 1.0000001
        setp.ne.u32         %more, %i, iters
        fma.rn.f64          %w4, %w4, 1.0000001, 1.0000001
        fma.rn.f64          %w5, %w5, 1.0000001, 1.0000001
        fma.rn.f64          %w6, %w6, 1.0000001, 1.0000001
        fma.rn.f64          %w7, %w7, 1.0000001, 1.0000001
        fma.rn.f64          %v, %v, 1.0000001, 1.0000001
        fma.rn.f64          %w1, %w1, 1.0000001, 1.0000001
        fma.rn.f64          %w2, %w2, 1.0000001, 1.0000001
        fma.rn.f64          %w3, %w3, 1.0000001, 1.0000001
        fma.rn.f64          %w4, %w4, 1.0000001, 1.0000001
        fma.rn.f64          %w5, %w5, 1.0000001, 1.0000001
        fma.rn.f64          %w6, %w6, 1.0000001, 1.0000001
        fma.rn.f64          %w7, %w7, 1.0000001, 1.0000001
        fma.rn.f64          %v, %v, 1.0000001, 1.0000001
        fma.rn.f64          %w1, %w1, 1.0000001, 1.0000001
        fma.rn.f64          %w2, %w2, 1.0000001, 1.0000001
        fma.rn.f64          %w3, %w3, 1.0000001, 1.0000001
        fma.rn.f64          %w4, %w4, 1.0000001, 1.0000001
        fma.rn.f64          %w5, %w5, 1.0000001, 1.0000001
        fma.rn.f64          %w6, %w6, 1.0000001, 1.0000001
        fma.rn.f64          %w7, %w7, 1.0000001, 1.0000001
        fma.rn.f64          %v, %v, 1.0000001, 1.0000001
        fma.rn.f64          %w1, %w1, 1.0000001, 1.0000001
        fma.rn.f64          %w2, %w2, 1.0000001, 1.0000001
        fma.rn.f64          %w3, %w3, 1.0000001, 1.0000001
        fma.rn.f64          %w4, %w4, 1.0000001, 1.0000001
        fma.rn.f64          %w5, %w5, 1.0000001, 1.0000001
        fma.rn.f64          %w6, %w6, 1.0000001, 1.0000001
        fma.rn.f64          %w7, %w7, 1.0000001, 1.0000001
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        add.f64             %v, %v, %w1
        add.f64             %v, %v, %w2
        add.f64             %v, %v, %w3
        add.f64             %v, %v, %w4
        add.f64             %v, %v, %w5
        add.f64             %v, %v, %w6
        add.f64             %v, %v, %w7
        st.global.f64       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
