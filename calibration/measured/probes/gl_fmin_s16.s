// Probe (issue 22): a dependent chain of `atom.global.min.f32` by 32 lanes, lane k on word (k * spread) & 31.
.kernel gl_fmin_s16
.param spread = 16
.param iters = 64
.buffer out u32[W]
.buffer cyc u32[1]
.buffer g f32[32] = 1.0e6
.reg %a, %i, %t0, %t1, %w, %x
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        cvt.rn.f32.u32 %w, %tid.x
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        atom.global.min.f32 %x, g[%a], %w
        sub.f32 %w, %x, 1.0
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %w
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
