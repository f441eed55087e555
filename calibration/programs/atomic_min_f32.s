// Calibration microbenchmark (mirrors `k_fmin` of calibration/measured/ubench7.cu, shapes 0 and 1): 64 calls of
// the f32 atomic min, each lane on its own word, lowering it every call (value 1e6 - 64 i). The GPU has no such
// instruction: the emitted CUDA runs a compare-and-swap loop (a load, then atomicCAS until it takes), and the
// warp finishes it before the next call.
.kernel atomic_min_f32
.param iters = 64
.buffer g f32[32] = 1.5e6
.buffer out u32[W]
.buffer cyc u32[1]
.param lanes = 32
.block lanes
.reg %i, %acc, %r, %f, %v, %t0, %t1
.pred %more, %first

        mov.u32             %i, 0
        mov.u32             %acc, 0
        mov.u32             %t0, %clock
loop:
        cvt.rn.f32.u32      %f, %i
        mad.f32             %v, %f, -64.0, 1.0e6
        atom.global.min.f32 %r, g[%tid.x], %v
        add.u32             %acc, %acc, %r
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %acc
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
