// Calibration microbenchmark (mirrors `k_atom_shared` of calibration/measured/ubench.cu): `atom.shared.add`
// throughput. Lane k updates word (k * spread) & 31: spread 0 puts all 32 lanes on one word, spread 1 on 32
// words. As in the compiled kernel (64 atomics per loop iteration), the atomics are independent, each result
// is summed (into two accumulators) 8 atomics later, and the last ones at the end of the iteration.
.kernel shared_atomic
.param spread = 0
.param iters = 1024
.shared s u32[32]
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %v, %u, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %i, %t0, %t1
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        mov.u32             %v, 0
        mov.u32             %u, 0
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        atom.shared.add.u32  %r0, s[%a], 1
        add.u32             %i, %i, 64
        atom.shared.add.u32  %r1, s[%a], 1
        setp.ne.u32         %more, %i, iters
        atom.shared.add.u32  %r2, s[%a], 1
        atom.shared.add.u32  %r3, s[%a], 1
        atom.shared.add.u32  %r4, s[%a], 1
        atom.shared.add.u32  %r5, s[%a], 1
        atom.shared.add.u32  %r6, s[%a], 1
        atom.shared.add.u32  %r7, s[%a], 1
        atom.shared.add.u32  %r8, s[%a], 1
        add.u32             %v, %v, %r0
        atom.shared.add.u32  %r9, s[%a], 1
        add.u32             %u, %u, %r1
        atom.shared.add.u32  %r10, s[%a], 1
        add.u32             %v, %v, %r2
        atom.shared.add.u32  %r11, s[%a], 1
        add.u32             %u, %u, %r3
        atom.shared.add.u32  %r12, s[%a], 1
        add.u32             %v, %v, %r4
        atom.shared.add.u32  %r13, s[%a], 1
        add.u32             %u, %u, %r5
        atom.shared.add.u32  %r14, s[%a], 1
        add.u32             %v, %v, %r6
        atom.shared.add.u32  %r15, s[%a], 1
        add.u32             %u, %u, %r7
        atom.shared.add.u32  %r0, s[%a], 1
        add.u32             %v, %v, %r8
        atom.shared.add.u32  %r1, s[%a], 1
        add.u32             %u, %u, %r9
        atom.shared.add.u32  %r2, s[%a], 1
        add.u32             %v, %v, %r10
        atom.shared.add.u32  %r3, s[%a], 1
        add.u32             %u, %u, %r11
        atom.shared.add.u32  %r4, s[%a], 1
        add.u32             %v, %v, %r12
        atom.shared.add.u32  %r5, s[%a], 1
        add.u32             %u, %u, %r13
        atom.shared.add.u32  %r6, s[%a], 1
        add.u32             %v, %v, %r14
        atom.shared.add.u32  %r7, s[%a], 1
        add.u32             %u, %u, %r15
        atom.shared.add.u32  %r8, s[%a], 1
        add.u32             %v, %v, %r0
        atom.shared.add.u32  %r9, s[%a], 1
        add.u32             %u, %u, %r1
        atom.shared.add.u32  %r10, s[%a], 1
        add.u32             %v, %v, %r2
        atom.shared.add.u32  %r11, s[%a], 1
        add.u32             %u, %u, %r3
        atom.shared.add.u32  %r12, s[%a], 1
        add.u32             %v, %v, %r4
        atom.shared.add.u32  %r13, s[%a], 1
        add.u32             %u, %u, %r5
        atom.shared.add.u32  %r14, s[%a], 1
        add.u32             %v, %v, %r6
        atom.shared.add.u32  %r15, s[%a], 1
        add.u32             %u, %u, %r7
        atom.shared.add.u32  %r0, s[%a], 1
        add.u32             %v, %v, %r8
        atom.shared.add.u32  %r1, s[%a], 1
        add.u32             %u, %u, %r9
        atom.shared.add.u32  %r2, s[%a], 1
        add.u32             %v, %v, %r10
        atom.shared.add.u32  %r3, s[%a], 1
        add.u32             %u, %u, %r11
        atom.shared.add.u32  %r4, s[%a], 1
        add.u32             %v, %v, %r12
        atom.shared.add.u32  %r5, s[%a], 1
        add.u32             %u, %u, %r13
        atom.shared.add.u32  %r6, s[%a], 1
        add.u32             %v, %v, %r14
        atom.shared.add.u32  %r7, s[%a], 1
        add.u32             %u, %u, %r15
        atom.shared.add.u32  %r8, s[%a], 1
        add.u32             %v, %v, %r0
        atom.shared.add.u32  %r9, s[%a], 1
        add.u32             %u, %u, %r1
        atom.shared.add.u32  %r10, s[%a], 1
        add.u32             %v, %v, %r2
        atom.shared.add.u32  %r11, s[%a], 1
        add.u32             %u, %u, %r3
        atom.shared.add.u32  %r12, s[%a], 1
        add.u32             %v, %v, %r4
        atom.shared.add.u32  %r13, s[%a], 1
        add.u32             %u, %u, %r5
        atom.shared.add.u32  %r14, s[%a], 1
        add.u32             %v, %v, %r6
        atom.shared.add.u32  %r15, s[%a], 1
        add.u32             %u, %u, %r7
        atom.shared.add.u32  %r0, s[%a], 1
        add.u32             %v, %v, %r8
        atom.shared.add.u32  %r1, s[%a], 1
        add.u32             %u, %u, %r9
        atom.shared.add.u32  %r2, s[%a], 1
        add.u32             %v, %v, %r10
        atom.shared.add.u32  %r3, s[%a], 1
        add.u32             %u, %u, %r11
        atom.shared.add.u32  %r4, s[%a], 1
        add.u32             %v, %v, %r12
        atom.shared.add.u32  %r5, s[%a], 1
        add.u32             %u, %u, %r13
        atom.shared.add.u32  %r6, s[%a], 1
        add.u32             %v, %v, %r14
        atom.shared.add.u32  %r7, s[%a], 1
        add.u32             %u, %u, %r15
        atom.shared.add.u32  %r8, s[%a], 1
        add.u32             %v, %v, %r0
        atom.shared.add.u32  %r9, s[%a], 1
        add.u32             %u, %u, %r1
        atom.shared.add.u32  %r10, s[%a], 1
        add.u32             %v, %v, %r2
        atom.shared.add.u32  %r11, s[%a], 1
        add.u32             %u, %u, %r3
        atom.shared.add.u32  %r12, s[%a], 1
        add.u32             %v, %v, %r4
        atom.shared.add.u32  %r13, s[%a], 1
        add.u32             %u, %u, %r5
        atom.shared.add.u32  %r14, s[%a], 1
        add.u32             %v, %v, %r6
        atom.shared.add.u32  %r15, s[%a], 1
        add.u32             %u, %u, %r7
        add.u32             %v, %v, %r8
        add.u32             %u, %u, %r9
        add.u32             %v, %v, %r10
        add.u32             %u, %u, %r11
        add.u32             %v, %v, %r12
        add.u32             %u, %u, %r13
        add.u32             %v, %v, %r14
        add.u32             %u, %u, %r15
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        add.u32             %v, %v, %u
        st.global.u32       out[%tid.x], %v
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
