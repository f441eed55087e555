// Calibration microbenchmark (mirrors `k_atom_global` of calibration/measured/ubench.cu): `atom.global.add` throughput.
// Lane k updates word (k * spread) & 31: spread 0 puts all 32 lanes on one word, spread 1 on 32 words. As in the
// compiled kernel (calibration/measured/sass/ubench-sm90.sass: the loop unrolled by 16), the atomics are independent
// and each result is summed just before its register takes the atomic 16 later: 16 in flight (throughput).
.kernel global_atomic
.param spread = 0
.param iters = 256
.buffer g u32[32]
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %v, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %i, %t0, %t1
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        mov.u32             %v, 0
        mov.u32             %r0, 0
        mov.u32             %r1, 0
        mov.u32             %r2, 0
        mov.u32             %r3, 0
        mov.u32             %r4, 0
        mov.u32             %r5, 0
        mov.u32             %r6, 0
        mov.u32             %r7, 0
        mov.u32             %r8, 0
        mov.u32             %r9, 0
        mov.u32             %r10, 0
        mov.u32             %r11, 0
        mov.u32             %r12, 0
        mov.u32             %r13, 0
        mov.u32             %r14, 0
        mov.u32             %r15, 0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        add.u32             %v, %v, %r0
        atom.global.add.u32  %r0, g[%a], 1
        add.u32             %i, %i, 16
        add.u32             %v, %v, %r1
        atom.global.add.u32  %r1, g[%a], 1
        setp.ne.u32         %more, %i, iters
        add.u32             %v, %v, %r2
        atom.global.add.u32  %r2, g[%a], 1
        add.u32             %v, %v, %r3
        atom.global.add.u32  %r3, g[%a], 1
        add.u32             %v, %v, %r4
        atom.global.add.u32  %r4, g[%a], 1
        add.u32             %v, %v, %r5
        atom.global.add.u32  %r5, g[%a], 1
        add.u32             %v, %v, %r6
        atom.global.add.u32  %r6, g[%a], 1
        add.u32             %v, %v, %r7
        atom.global.add.u32  %r7, g[%a], 1
        add.u32             %v, %v, %r8
        atom.global.add.u32  %r8, g[%a], 1
        add.u32             %v, %v, %r9
        atom.global.add.u32  %r9, g[%a], 1
        add.u32             %v, %v, %r10
        atom.global.add.u32  %r10, g[%a], 1
        add.u32             %v, %v, %r11
        atom.global.add.u32  %r11, g[%a], 1
        add.u32             %v, %v, %r12
        atom.global.add.u32  %r12, g[%a], 1
        add.u32             %v, %v, %r13
        atom.global.add.u32  %r13, g[%a], 1
        add.u32             %v, %v, %r14
        atom.global.add.u32  %r14, g[%a], 1
        add.u32             %v, %v, %r15
        atom.global.add.u32  %r15, g[%a], 1
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
