// Calibration microbenchmark (mirrors `k_shfl` of calibration/measured/ubench15.cu, modes 0 and 3): a dependent
// chain of x = shfl.idx(x, 0) + 1. `half` 0: every lane, full mask; 1: only the even lanes, inside an `if`
// (the odd lanes wait at its join), mask 0x55555555: the GPU runs the shuffle behind a `WARPSYNC` on a
// diverged warp where a converged one passes a `BRA.DIV` that falls through.
.kernel shfl_partial
.scheduling its
.param half = 0
.param iters = 256
.block 32
.buffer out u32[W]
.buffer cyc u32[1]
.reg %x, %i, %t0, %t1, %odd
.pred %skip, %more, %first, %h

        mov.u32             %x, %laneid
        mov.u32             %i, 0
        and.b32             %odd, %laneid, 1
        setp.ne.u32         %h, half, 0
        setp.ne.u32         %skip, %odd, 0
        and.pred            %skip, %skip, %h
        mov.u32             %t0, %clock
        @%skip bra          done
        @%h bra             partial
full:
        shfl.sync.idx.b32   %x, %x, 0
        add.u32             %x, %x, 1
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          full
        bra                 done
partial:
        shfl.sync.idx.b32   %x, %x, 0, mask=0x55555555
        add.u32             %x, %x, 1
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          partial
done:
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%laneid], %x
        setp.eq.u32         %first, %laneid, 0
        @%first st.global.u32 cyc[0], %t1
