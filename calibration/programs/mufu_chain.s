// Calibration microbenchmark (mirrors calibration/measured/ubench35.cu): a dependent chain `v = op(v) + c` of one
// warp, 256 operations unrolled 4 times (the loop counter and compare placed as in directed_chain.s), `kind` choosing
// the special-function unit's approximation: 0 rcp.approx.ftz.f32, 1 rcp.approx.f32, 2 rsqrt.approx.ftz.f32, 3 rsqrt.approx.f32, 4 sqrt.approx.ftz.f32, 5 sqrt.approx.f32, 6 ex2.approx.ftz.f32, 7 ex2.approx.f32, 8 lg2.approx.ftz.f32, 9 lg2.approx.f32, 10 div.approx.ftz.f32, 11 div.approx.f32, 12 div.full.f32, 13 div.full.ftz.f32, 14 rcp.approx.ftz.f64, 15 rsqrt.approx.ftz.f64 (the divisions `1.5 / v`; c is
// 1, -1.5 for ex2, 2 for lg2); 17 sin.approx.f32, 18 cos.approx.ftz.f32 (c = 1). Kind 16: eight independent `rcp.approx.ftz.f32` + add chains, 256 steps of each, the eight
// reciprocals of a step before their adds (the pipe's interval). The branch to the chosen loop lies before the first clock read. `cyc[0]`: the cycles between
// the clock reads. (Written by a script from the list of forms; the rows are in calibration/h200.json.)
.kernel mufu_chain
.param kind = 0
.param iters = 256
.buffer out f32[W]
.buffer cyc u32[1]
.reg %i, %t0, %t1, %v, %v1, %v2, %v3, %v4, %v5, %v6, %v7
.reg.b64 %dv
.pred %more, %p

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
        setp.eq.u32         %p, kind, 11
        @%p bra             k11
        setp.eq.u32         %p, kind, 12
        @%p bra             k12
        setp.eq.u32         %p, kind, 13
        @%p bra             k13
        setp.eq.u32         %p, kind, 14
        @%p bra             k14
        setp.eq.u32         %p, kind, 15
        @%p bra             k15
        setp.eq.u32         %p, kind, 16
        @%p bra             k16
        setp.eq.u32         %p, kind, 17
        @%p bra             k17
        setp.eq.u32         %p, kind, 18
        @%p bra             k18
        mov.u32             %t0, %clock
l0:
        rcp.approx.ftz.f32  %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        rcp.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        rcp.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l0
        mov.u32             %t1, %clock
        bra                 done
k1:
        mov.u32             %t0, %clock
l1:
        rcp.approx.f32      %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        rcp.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        rcp.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l1
        mov.u32             %t1, %clock
        bra                 done
k2:
        mov.u32             %t0, %clock
l2:
        rsqrt.approx.ftz.f32 %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        rsqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        rsqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        rsqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l2
        mov.u32             %t1, %clock
        bra                 done
k3:
        mov.u32             %t0, %clock
l3:
        rsqrt.approx.f32    %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        rsqrt.approx.f32    %v, %v
        add.f32             %v, %v, 1.0
        rsqrt.approx.f32    %v, %v
        add.f32             %v, %v, 1.0
        rsqrt.approx.f32    %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l3
        mov.u32             %t1, %clock
        bra                 done
k4:
        mov.u32             %t0, %clock
l4:
        sqrt.approx.ftz.f32 %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        sqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        sqrt.approx.ftz.f32 %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l4
        mov.u32             %t1, %clock
        bra                 done
k5:
        mov.u32             %t0, %clock
l5:
        sqrt.approx.f32     %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        sqrt.approx.f32     %v, %v
        add.f32             %v, %v, 1.0
        sqrt.approx.f32     %v, %v
        add.f32             %v, %v, 1.0
        sqrt.approx.f32     %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l5
        mov.u32             %t1, %clock
        bra                 done
k6:
        mov.u32             %t0, %clock
l6:
        ex2.approx.ftz.f32  %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, -1.5
        setp.ne.u32         %more, %i, iters
        ex2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, -1.5
        ex2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, -1.5
        ex2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, -1.5
        @%more bra          l6
        mov.u32             %t1, %clock
        bra                 done
k7:
        mov.u32             %t0, %clock
l7:
        ex2.approx.f32      %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, -1.5
        setp.ne.u32         %more, %i, iters
        ex2.approx.f32      %v, %v
        add.f32             %v, %v, -1.5
        ex2.approx.f32      %v, %v
        add.f32             %v, %v, -1.5
        ex2.approx.f32      %v, %v
        add.f32             %v, %v, -1.5
        @%more bra          l7
        mov.u32             %t1, %clock
        bra                 done
k8:
        mov.u32             %t0, %clock
l8:
        lg2.approx.ftz.f32  %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 2.0
        setp.ne.u32         %more, %i, iters
        lg2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 2.0
        lg2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 2.0
        lg2.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 2.0
        @%more bra          l8
        mov.u32             %t1, %clock
        bra                 done
k9:
        mov.u32             %t0, %clock
l9:
        lg2.approx.f32      %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 2.0
        setp.ne.u32         %more, %i, iters
        lg2.approx.f32      %v, %v
        add.f32             %v, %v, 2.0
        lg2.approx.f32      %v, %v
        add.f32             %v, %v, 2.0
        lg2.approx.f32      %v, %v
        add.f32             %v, %v, 2.0
        @%more bra          l9
        mov.u32             %t1, %clock
        bra                 done
k10:
        mov.u32             %t0, %clock
l10:
        div.approx.ftz.f32  %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.approx.ftz.f32  %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.approx.ftz.f32  %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.approx.ftz.f32  %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l10
        mov.u32             %t1, %clock
        bra                 done
k11:
        mov.u32             %t0, %clock
l11:
        div.approx.f32      %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.approx.f32      %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.approx.f32      %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.approx.f32      %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l11
        mov.u32             %t1, %clock
        bra                 done
k12:
        mov.u32             %t0, %clock
l12:
        div.full.f32        %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.full.f32        %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.full.f32        %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.full.f32        %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l12
        mov.u32             %t1, %clock
        bra                 done
k13:
        mov.u32             %t0, %clock
l13:
        div.full.ftz.f32    %v, 1.5, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        div.full.ftz.f32    %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.full.ftz.f32    %v, 1.5, %v
        add.f32             %v, %v, 1.0
        div.full.ftz.f32    %v, 1.5, %v
        add.f32             %v, %v, 1.0
        @%more bra          l13
        mov.u32             %t1, %clock
        bra                 done
k14:
        mov.u32             %t0, %clock
l14:
        rcp.approx.ftz.f64  %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        rcp.approx.ftz.f64  %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.approx.ftz.f64  %dv, %dv
        add.f64             %dv, %dv, 1.0
        rcp.approx.ftz.f64  %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l14
        mov.u32             %t1, %clock
        bra                 done
k15:
        mov.u32             %t0, %clock
l15:
        rsqrt.approx.ftz.f64 %dv, %dv
        add.u32             %i, %i, 4
        add.f64             %dv, %dv, 1.0
        setp.ne.u32         %more, %i, iters
        rsqrt.approx.ftz.f64 %dv, %dv
        add.f64             %dv, %dv, 1.0
        rsqrt.approx.ftz.f64 %dv, %dv
        add.f64             %dv, %dv, 1.0
        rsqrt.approx.ftz.f64 %dv, %dv
        add.f64             %dv, %dv, 1.0
        @%more bra          l15
        mov.u32             %t1, %clock
        bra                 done
k17:
        mov.u32             %t0, %clock
l17:
        sin.approx.f32      %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        sin.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        sin.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        sin.approx.f32      %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l17
        mov.u32             %t1, %clock
        bra                 done
k18:
        mov.u32             %t0, %clock
l18:
        cos.approx.ftz.f32  %v, %v
        add.u32             %i, %i, 4
        add.f32             %v, %v, 1.0
        setp.ne.u32         %more, %i, iters
        cos.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        cos.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        cos.approx.ftz.f32  %v, %v
        add.f32             %v, %v, 1.0
        @%more bra          l18
        mov.u32             %t1, %clock
        bra                 done
k16:
        add.f32             %v1, %v, 1.0
        add.f32             %v2, %v, 2.0
        add.f32             %v3, %v, 3.0
        add.f32             %v4, %v, 4.0
        add.f32             %v5, %v, 5.0
        add.f32             %v6, %v, 6.0
        add.f32             %v7, %v, 7.0
        mov.u32             %t0, %clock
l16:
        rcp.approx.ftz.f32  %v, %v
        rcp.approx.ftz.f32  %v1, %v1
        rcp.approx.ftz.f32  %v2, %v2
        rcp.approx.ftz.f32  %v3, %v3
        rcp.approx.ftz.f32  %v4, %v4
        rcp.approx.ftz.f32  %v5, %v5
        rcp.approx.ftz.f32  %v6, %v6
        rcp.approx.ftz.f32  %v7, %v7
        add.f32             %v, %v, 1.0
        add.f32             %v1, %v1, 1.0
        add.f32             %v2, %v2, 1.0
        add.f32             %v3, %v3, 1.0
        add.f32             %v4, %v4, 1.0
        add.f32             %v5, %v5, 1.0
        add.f32             %v6, %v6, 1.0
        add.f32             %v7, %v7, 1.0
        add.u32             %i, %i, 2
        setp.ne.u32         %more, %i, iters
        rcp.approx.ftz.f32  %v, %v
        rcp.approx.ftz.f32  %v1, %v1
        rcp.approx.ftz.f32  %v2, %v2
        rcp.approx.ftz.f32  %v3, %v3
        rcp.approx.ftz.f32  %v4, %v4
        rcp.approx.ftz.f32  %v5, %v5
        rcp.approx.ftz.f32  %v6, %v6
        rcp.approx.ftz.f32  %v7, %v7
        add.f32             %v, %v, 1.0
        add.f32             %v1, %v1, 1.0
        add.f32             %v2, %v2, 1.0
        add.f32             %v3, %v3, 1.0
        add.f32             %v4, %v4, 1.0
        add.f32             %v5, %v5, 1.0
        add.f32             %v6, %v6, 1.0
        add.f32             %v7, %v7, 1.0
        @%more bra          l16
        mov.u32             %t1, %clock
        add.f32             %v, %v, %v1
        add.f32             %v, %v, %v2
        add.f32             %v, %v, %v3
        add.f32             %v, %v, %v4
        add.f32             %v, %v, %v5
        add.f32             %v, %v, %v6
        add.f32             %v, %v, %v7
done:
        cvt.rn.f32.f64      %v1, %dv
        add.f32             %v, %v, %v1
        st.global.f32       out[%tid.x], %v
        sub.u32             %t0, %t1, %t0
        setp.eq.u32         %p, %tid.x, 0
        @%p st.global.u32   cyc[0], %t0
