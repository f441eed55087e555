// Probe (issue 22): a dependent chain of `atom.shared.add.u64` by 32 lanes, lane k on word (k * spread) & 31.
.kernel sh_add64_s2
.param spread = 2
.param iters = 64
.buffer out u32[W]
.buffer cyc u32[1]
.shared s u64[32]
.reg %a, %i, %t0, %t1, %lo
.reg.b64 %w, %x
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        cvt.u64.u32         %w, %tid.x
        add.u64             %w, %w, 3
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        atom.shared.add.u64 %x, s[%a], %w
        add.u64             %w, %w, %x
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        cvt.u32.u64         %lo, %w
        st.global.u32       out[%tid.x], %lo
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
