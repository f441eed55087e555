// Calibration: a loop of global loads whose trip count is known only at run time, which ptxas unrolls (mirrors
// calibration/measured/ubench32.cu's k_sum_lt, kind 0: one f32 load and an add a pass; k_dot_lt, kind 1: dot_f64's
// two f64 loads and an fma; k_sum_body<30> and <60>, kinds 2 and 3: kind 0 with a chain of integer adds more a
// pass). One warp, `t` passes, every lane the same. ptxas runs four passes at a time while four are left, then two,
// then one, and issues the loads of the passes it runs together at once (`timing.runtime_unroll`); a loop longer
// than `timing.runtime_unroll_body` instructions it leaves as it is: k_sum_body<60>'s PTX loop has 67 (kind 3
// here 65), k_sum_body<30>'s 37. Kinds 2 and 3 keep the SASS's order, the adds before the f32 add that waits for
// the load; kind 2 has the SASS's 15 adds (ptxas makes each pair of the CUDA's adds one three-input `IADD3`). On the GPU each kernel runs twice and
// the second run is timed, its lines in L2 from the first; here a first pass stores zeros to them (stores reach
// L2 and are not allocated in L1). `cyc[0]` is the loop's cycles.
.kernel unrolled_loads
.param kind = 0
.param t = 4
.buffer a f32[32 * 16]
.buffer da f64[32 * 16]
.buffer db f64[32 * 16]
.buffer out f32[32]
.buffer dout f64[32]
.buffer cyc u32[1]
.block 32
.reg %i, %t0, %t1, %acc, %x, %z
.reg.b64 %dacc, %dx, %dy, %dz
.reg %c
.pred %more, %s

.macro adds10 c, i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
.endm

.macro adds5 c, i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
        add.u32             \c, \c, \i
.endm

        mov.u32             %i, %tid.x
        mov.u32             %z, 0
        mov.b64             %dz, 0
warm:
        st.global.b32       a[%i], %z
        st.global.b64       da[%i], %dz
        st.global.b64       db[%i], %dz
        add.u32             %i, %i, 32
        setp.lt.u32         %more, %i, (32 * t)
        @%more bra          warm
        mov.u32             %i, %tid.x
        mov.u32             %c, %tid.x
        setp.eq.u32         %s, kind, 1
        @%s bra             dot
        setp.eq.u32         %s, kind, 2
        @%s bra             body30
        setp.eq.u32         %s, kind, 3
        @%s bra             body60
        mov.f32             %acc, 0.0
        mov.u32             %t0, %clock
        setp.lt.u32         %more, %i, (32 * t)
        @!%more bra         sum_done
sum:
        ld.global.f32       %x, a[%i]
        add.f32             %acc, %acc, %x
        add.u32             %i, %i, 32
        setp.lt.u32         %more, %i, (32 * t)
        @%more bra          sum
sum_done:
        mov.u32             %t1, %clock
        st.global.f32       out[%tid.x], %acc
        bra                 finish
dot:
        mov.f64             %dacc, 0.0
        mov.u32             %t0, %clock
        setp.lt.u32         %more, %i, (32 * t)
        @!%more bra         dot_done
dot_loop:
        ld.global.f64       %dx, da[%i]
        ld.global.f64       %dy, db[%i]
        fma.rn.f64          %dacc, %dx, %dy, %dacc
        add.u32             %i, %i, 32
        setp.lt.u32         %more, %i, (32 * t)
        @%more bra          dot_loop
dot_done:
        mov.u32             %t1, %clock
        st.global.f64       dout[%tid.x], %dacc
        bra                 finish
body30:
        mov.f32             %acc, 0.0
        mov.u32             %t0, %clock
        setp.lt.u32         %more, %i, (32 * t)
        @!%more bra         body30_done
body30_loop:
        ld.global.f32       %x, a[%i]
        adds5               %c, %i
        adds5               %c, %i
        adds5               %c, %i
        add.f32             %acc, %acc, %x
        add.u32             %i, %i, 32
        setp.lt.u32         %more, %i, (32 * t)
        @%more bra          body30_loop
body30_done:
        mov.u32             %t1, %clock
        bra                 body_out
body60:
        mov.f32             %acc, 0.0
        mov.u32             %t0, %clock
        setp.lt.u32         %more, %i, (32 * t)
        @!%more bra         body60_done
body60_loop:
        ld.global.f32       %x, a[%i]
        adds10              %c, %i
        adds10              %c, %i
        adds10              %c, %i
        adds10              %c, %i
        adds10              %c, %i
        adds10              %c, %i
        add.f32             %acc, %acc, %x
        add.u32             %i, %i, 32
        setp.lt.u32         %more, %i, (32 * t)
        @%more bra          body60_loop
body60_done:
        mov.u32             %t1, %clock
body_out:
        cvt.rn.f32.u32      %x, %c
        add.f32             %acc, %acc, %x
        st.global.f32       out[%tid.x], %acc
finish:
        sub.u32             %t0, %t1, %t0
        setp.eq.u32         %s, %tid.x, 0
        @%s st.global.u32   cyc[0], %t0
