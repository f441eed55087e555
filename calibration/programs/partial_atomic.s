// Calibration microbenchmark (mirrors the atomic cases of calibration/measured/ubench27.cu): one thread adds 1 to
// word 0 of a buffer of `words` words that the launch has not touched (on the GPU: L2 flushed, the buffer zeroed,
// then copied from the host), stores the old value to shared memory and reads the clock. With `words` 1 the buffer
// ends inside its only 32-byte sector, which the host's copy left partly written: L2 fills it from DRAM first
// (`memory.partial_sector_atomic`); with `words` 8 the sector is whole.
.kernel partial_atomic
.param words = 1
.buffer g u32[words] = i
.buffer cyc u32[8]
.block 1
.shared s u32[1]
.reg %v, %t0, %t1

        mov.u32             %t0, %clock
        atom.global.add.u32 %v, g[0], 1
        st.shared.u32       s[0], %v
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       cyc[0], %t1
