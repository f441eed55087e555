// Probe (issue 22): a dependent chain of `atom.global.add.u32` by 32 lanes, lane k on word (k * spread) & 31.
.kernel gl_add32_1
.param spread = 0
.param iters = 64
.buffer out u32[W]
.buffer cyc u32[1]
.buffer g u32[32]
.reg %a, %i, %t0, %t1, %w, %x
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        add.u32 %w, %tid.x, 1
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        atom.global.add.u32 %x, g[%a], %w
        add.u32 %w, %w, %x
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %w
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
