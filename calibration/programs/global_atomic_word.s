// Calibration microbenchmark (`calibration/measured/atomic_probes.py`'s `w_add_l*`, the same CUDA): one warp's
// chain of 64 dependent `atom.global.add.u32`, each step on a fresh line, its first `lanes` lanes all on one word.
// Each step's address waits for the previous result (`%d`, always 0), so a step is one atomic's latency: the lanes
// on one word serialise at L2 (`global_atomic_serialize`) and the result waits for them (`memory.atomic_word_lane`).
.kernel global_atomic_word
.param lanes = 8
.block 32
.buffer B u32[2112] = i
.buffer out u32[W]
.buffer cyc u32[1]
.reg %a, %base, %r1, %d, %k, %i, %t0, %t1
.reg.b64 %w0, %w1
.pred %p, %z, %more

        mov.u32 %a, 0
        mov.u32 %base, 0
        mov.u32 %k, %tid.x
        cvt.u64.u32 %w0, %tid.x
        mov.u32 %i, 0
        mov.u32 %r1, 0
        setp.lt.u32 %p, %tid.x, lanes
        mov.u32 %t0, %clock
loop:
        add.u32 %a, %a, %base
        @%p atom.global.add.u32 %r1, B[%a], 1
        shr.u32 %d, %r1, 30
        sub.u32 %a, %a, %base
        add.u32 %base, %base, 32
        add.u32 %base, %base, %d
        add.u32 %i, %i, 1
        setp.lt.u32 %more, %i, 64
        @%more bra loop
        mov.u32 %t1, %clock
        sub.u32 %t1, %t1, %t0
        st.global.u32 out[%tid.x], %r1
        setp.eq.u32 %z, %tid.x, 0
        @%z st.global.u32 cyc[0], %t1
