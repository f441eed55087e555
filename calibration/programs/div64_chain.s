// Calibration microbenchmark (mirrors `k_div` of calibration/measured/ubench7.cu): a dependent chain of 64-bit
// divisions or remainders, q = (a ^ (q & 1)) op 7 with a = 0x7fffffffffff1234; `op` 0: div.s64, 1: div.u64,
// 2: rem.s64, 3: rem.u64. ptxas calls a division subroutine for each (the warp runs it to its end).
.kernel div64_chain
.param op = 0
.param iters = 256
.buffer out u64[W]
.buffer cyc u32[1]
.block 1
.reg.b64 %q, %x
.reg %i, %t0, %t1
.pred %more, %s

        mov.b64             %q, 0
        mov.u32             %i, 0
        setp.eq.u32         %s, op, 0
        @%s bra             div_s
        setp.eq.u32         %s, op, 1
        @%s bra             div_u
        setp.eq.u32         %s, op, 2
        @%s bra             rem_s
        mov.u32             %t0, %clock
rem_u:
        and.b64             %x, %q, 1
        xor.b64             %x, %x, 0x7fffffffffff1234
        rem.u64             %q, %x, 7
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          rem_u
        bra                 done
div_s:
        mov.u32             %t0, %clock
div_s_loop:
        and.b64             %x, %q, 1
        xor.b64             %x, %x, 0x7fffffffffff1234
        div.s64             %q, %x, 7
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          div_s_loop
        bra                 done
div_u:
        mov.u32             %t0, %clock
div_u_loop:
        and.b64             %x, %q, 1
        xor.b64             %x, %x, 0x7fffffffffff1234
        div.u64             %q, %x, 7
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          div_u_loop
        bra                 done
rem_s:
        mov.u32             %t0, %clock
rem_s_loop:
        and.b64             %x, %q, 1
        xor.b64             %x, %x, 0x7fffffffffff1234
        rem.s64             %q, %x, 7
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          rem_s_loop
done:
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u64       out[%tid.x], %q
        st.global.u32       cyc[0], %t1
