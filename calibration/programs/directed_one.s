// Calibration microbenchmark (mirrors calibration/measured/ubench33.cu): one division, reciprocal or square root
// timed alone, `kind` choosing it (0 div.rn.f32, 1 div.rz.f32, 2 sqrt.rn.f32, 3 sqrt.rz.f32, 4 div.rn.f64,
// 5 div.rz.f64, 6 rcp.rz.f64, 7 sqrt.rn.f64, 8 sqrt.rz.f64), on operands loaded before the first clock read, its
// result stored to shared memory so that the second clock read waits for it. The rows take a directed form less
// its `.rn` form on the same operands (1.5 and 3): the subroutine ptxas calls for it (`timing.slow_paths.*_directed`).
// The branch to the chosen operation lies before the first clock read. `cyc[0]`: the cycles between the reads.
.kernel directed_one
.param kind = 0
.buffer v u32[2] = (i == 0) * 1069547520 + (i == 1) * 1077936128
.buffer w u64[2] = (i == 0) * 4609434218613702656 + (i == 1) * 4613937818241073152
.buffer cyc u32[1]
.shared s u32[4]
.shared t u64[4]
.block 1
.reg %a, %b, %r, %t0, %t1
.reg.b64 %da, %db, %dr
.pred %p

        ld.global.u32       %a, v[0]
        ld.global.u32       %b, v[1]
        ld.global.u64       %da, w[0]
        ld.global.u64       %db, w[1]
        st.shared.u32       s[1], %a
        st.shared.u32       s[2], %b
        st.shared.u64       t[1], %da
        st.shared.u64       t[2], %db
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
        mov.u32             %t0, %clock
        div.rn.f32          %r, %a, %b
        st.shared.u32       s[0], %r
        mov.u32             %t1, %clock
        bra                 done
k1:
        mov.u32             %t0, %clock
        div.rz.f32          %r, %a, %b
        st.shared.u32       s[0], %r
        mov.u32             %t1, %clock
        bra                 done
k2:
        mov.u32             %t0, %clock
        sqrt.rn.f32         %r, %a
        st.shared.u32       s[0], %r
        mov.u32             %t1, %clock
        bra                 done
k3:
        mov.u32             %t0, %clock
        sqrt.rz.f32         %r, %a
        st.shared.u32       s[0], %r
        mov.u32             %t1, %clock
        bra                 done
k4:
        mov.u32             %t0, %clock
        div.rn.f64          %dr, %da, %db
        st.shared.u64       t[0], %dr
        mov.u32             %t1, %clock
        bra                 done
k5:
        mov.u32             %t0, %clock
        div.rz.f64          %dr, %da, %db
        st.shared.u64       t[0], %dr
        mov.u32             %t1, %clock
        bra                 done
k6:
        mov.u32             %t0, %clock
        rcp.rz.f64          %dr, %da
        st.shared.u64       t[0], %dr
        mov.u32             %t1, %clock
        bra                 done
k7:
        mov.u32             %t0, %clock
        sqrt.rn.f64         %dr, %da
        st.shared.u64       t[0], %dr
        mov.u32             %t1, %clock
        bra                 done
k8:
        mov.u32             %t0, %clock
        sqrt.rz.f64         %dr, %da
        st.shared.u64       t[0], %dr
        mov.u32             %t1, %clock
done:
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
