// Calibration microbenchmark (mirrors calibration/measured/ubench34.cu): a dependent chain `v = op(v) + 1` of one
// warp, 256 operations unrolled 4 times (the loop counter and compare placed as in ddiv_chain.s), `kind` choosing
// the operation: 0 div.rn.f32, 1 div.rz.f32, 2 sqrt.rn.f32, 3 sqrt.rz.f32, 4 div.rn.f64, 5 div.rz.f64, 6 rcp.rz.f64, 7 sqrt.rn.f64, 8 sqrt.rz.f64, 9 rcp.rn.f32, 10 rcp.rn.f64 (the divisions
// `1.5 / v`). The branch to the chosen loop lies before the first clock read. The rows take a directed rounding's
// chain less its `.rn` form's (`timing.slow_paths.*_directed`) and the reciprocals' chains whole (`units.fp32_rcp`,
// `units.fp64_rcp`). `cyc[0]`: the cycles between the clock reads.
.kernel directed_chain
.param kind = 0
.param iters = 256
.buffer out f32[W]
.buffer cyc u32[1]
.reg %i, %t0, %t1, %v, %r
.reg.b64 %dv
.pred %more, %first, %p

        cvt.rn.f32.u32      %v, %tid.x
        add.f32             %v, %v, 2.0
        cvt.rn.f64.u32      %dv, %tid.x
        add.f64             %dv, %dv, 2.0
        mov.u32             %i, 0
        setp.eq.u32         %p, kind, 1
        @%p bra             k1
        setp.eq.u32         %p, kind, 2
        @%p bra             k2
        setp.eq.u32         %p, kind, 3
        @%p bra             k3
        setp.eq.u32         %p, kind, 4
        @%p bra             k4
        setp.eq.u32         %p, kind, 5
        @%p bra             k5
        setp.eq.u32         %p, kind, 6
        @%p bra             k6
        setp.eq.u32         %p, kind, 7
        @%p bra             k7
        setp.eq.u32         %p, kind, 8
        @%p bra             k8
        setp.eq.u32         %p, kind, 9
        @%p bra             k9
        setp.eq.u32         %p, kind, 10
        @%p bra             k10
        mov.u32             %t0, %clock
l0:
        div.rn.f32          %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.rn.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.rn.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.rn.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l0
        mov.u32             %t1, %clock
        bra                 done
k1:
        mov.u32             %t0, %clock
l1:
        div.rz.f32          %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.rz.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.rz.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.rz.f32          %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l1
        mov.u32             %t1, %clock
        bra                 done
k2:
        mov.u32             %t0, %clock
l2:
        sqrt.rn.f32         %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.rn.f32         %v, %v
        add.f32             %v, %v, 1.0
        sqrt.rn.f32         %v, %v
        add.f32             %v, %v, 1.0
        sqrt.rn.f32         %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l2
        mov.u32             %t1, %clock
        bra                 done
k3:
        mov.u32             %t0, %clock
l3:
        sqrt.rz.f32         %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.rz.f32         %v, %v
        add.f32             %v, %v, 1.0
        sqrt.rz.f32         %v, %v
        add.f32             %v, %v, 1.0
        sqrt.rz.f32         %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l3
        mov.u32             %t1, %clock
        bra                 done
k4:
        mov.u32             %t0, %clock
l4:
        div.rn.f64          %dv, 1.5, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        div.rn.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        div.rn.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        div.rn.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l4
        mov.u32             %t1, %clock
        bra                 done
k5:
        mov.u32             %t0, %clock
l5:
        div.rz.f64          %dv, 1.5, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        div.rz.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        div.rz.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        div.rz.f64          %dv, 1.5, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l5
        mov.u32             %t1, %clock
        bra                 done
k6:
        mov.u32             %t0, %clock
l6:
        rcp.rz.f64          %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.rz.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.rz.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.rz.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l6
        mov.u32             %t1, %clock
        bra                 done
k7:
        mov.u32             %t0, %clock
l7:
        sqrt.rn.f64         %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.rn.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        sqrt.rn.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        sqrt.rn.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l7
        mov.u32             %t1, %clock
        bra                 done
k8:
        mov.u32             %t0, %clock
l8:
        sqrt.rz.f64         %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.rz.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        sqrt.rz.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        sqrt.rz.f64         %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l8
        mov.u32             %t1, %clock
        bra                 done
k9:
        mov.u32             %t0, %clock
l9:
        rcp.rn.f32          %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.rn.f32          %v, %v
        add.f32             %v, %v, 1.0
        rcp.rn.f32          %v, %v
        add.f32             %v, %v, 1.0
        rcp.rn.f32          %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l9
        mov.u32             %t1, %clock
        bra                 done
k10:
        mov.u32             %t0, %clock
l10:
        rcp.rn.f64          %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.rn.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.rn.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.rn.f64          %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l10
        mov.u32             %t1, %clock
        bra                 done
done:
        sub.u32             %t1, %t1, %t0
        cvt.rn.f32.f64      %r, %dv
        add.f32             %v, %v, %r
        st.global.f32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
