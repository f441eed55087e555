// Calibration microbenchmark (mirrors `k_branch_ptx` of calibration/measured/ubench5.cu, part A'): a loop whose
// body is an if/else of 16 dependent multiply-adds a path. `mode` 0: the lanes alternate (both paths run, one after
// the other), 1: every lane takes the branch, 2: every lane falls through (and jumps over the other path). As
// compiled (the SASS in docs/timing.md), ptxas brackets the if/else with a convergence barrier: `BSSY` before
// the branch, `BSYNC` at the join.
.kernel branch_ifelse
.param mode = 0
.param iters = 256
.param y = 1
.block 32
.buffer out u32[W]
.buffer cyc u32[1]
.reg %x, %i, %c, %t0, %t1
.pred %p, %more, %first

        mov.u32             %x, %tid.x
        and.b32             %c, %tid.x, 1
        setp.eq.u32         %p, mode, 1
        @%p mov.u32         %c, 1
        setp.eq.u32         %p, mode, 2
        @%p mov.u32         %c, 0
        setp.ne.u32         %p, %c, 0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%p bra             path_a
        mad.lo.u32          %x, %x, 3, y
        mad.lo.u32          %x, %x, 3, y
        mad.lo.u32          %x, %x, 3, y
        mad.lo.u32          %x, %x, 3, y
        mad.lo.u32          %x, %x, 5, y
        mad.lo.u32          %x, %x, 5, y
        mad.lo.u32          %x, %x, 5, y
        mad.lo.u32          %x, %x, 5, y
        mad.lo.u32          %x, %x, 7, y
        mad.lo.u32          %x, %x, 7, y
        mad.lo.u32          %x, %x, 7, y
        mad.lo.u32          %x, %x, 7, y
        mad.lo.u32          %x, %x, 9, y
        mad.lo.u32          %x, %x, 9, y
        mad.lo.u32          %x, %x, 9, y
        mad.lo.u32          %x, %x, 9, y
        bra                 join
path_a:
        mad.lo.u32          %x, %x, 11, y
        mad.lo.u32          %x, %x, 11, y
        mad.lo.u32          %x, %x, 11, y
        mad.lo.u32          %x, %x, 11, y
        mad.lo.u32          %x, %x, 13, y
        mad.lo.u32          %x, %x, 13, y
        mad.lo.u32          %x, %x, 13, y
        mad.lo.u32          %x, %x, 13, y
        mad.lo.u32          %x, %x, 15, y
        mad.lo.u32          %x, %x, 15, y
        mad.lo.u32          %x, %x, 15, y
        mad.lo.u32          %x, %x, 15, y
        mad.lo.u32          %x, %x, 17, y
        mad.lo.u32          %x, %x, 17, y
        mad.lo.u32          %x, %x, 17, y
        mad.lo.u32          %x, %x, 17, y
join:
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %x
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
