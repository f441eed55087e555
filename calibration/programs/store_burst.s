// Calibration microbenchmark: `warps` warps, each 128 global stores in a row between two clock reads, the lanes
// `spread` words apart and each store `step` words past the one before: a store of 32 `spread`-word strides on
// lines no store touched when `step` is 32 * `spread`, on the lines of the store before it when `step` is 1. Lane 0
// first stores past the bursts, so that the buffer's address is read before the first clock. One-line stores show
// a store's issue (`memory.store_drain.issue`); stores of 2 to 32 lines fill the queue on the way to L2 (the
// rest of `memory.store_drain`); stores that repeat the lines before them merge (`merge_lines`). Raw data:
// calibration/measured/store-burst-h200-2026-11-29.txt. `cyc[0]`: the slowest warp's cycles.
.kernel store_burst
.param spread = 1
.param step = 32
.param warps = 1
.block warps * W
.buffer C u32[warps * (128 * step + 32 * spread) + 64]
.buffer cyc u32[1]
.reg %a, %w, %t0, %t1, %old
.pred %first

        mul.lo.u32          %a, %tid.x, spread
        div.u32             %w, %tid.x, W
        mad.lo.u32          %a, %w, 128 * step, %a
        setp.eq.u32         %first, %laneid, 0
        @%first st.global.u32 C[%w + warps * (128 * step + 32 * spread)], %a
        mov.u32             %t0, %clock
        st.global.u32       C[%a + 0 * step], %tid.x
        st.global.u32       C[%a + 1 * step], %tid.x
        st.global.u32       C[%a + 2 * step], %tid.x
        st.global.u32       C[%a + 3 * step], %tid.x
        st.global.u32       C[%a + 4 * step], %tid.x
        st.global.u32       C[%a + 5 * step], %tid.x
        st.global.u32       C[%a + 6 * step], %tid.x
        st.global.u32       C[%a + 7 * step], %tid.x
        st.global.u32       C[%a + 8 * step], %tid.x
        st.global.u32       C[%a + 9 * step], %tid.x
        st.global.u32       C[%a + 10 * step], %tid.x
        st.global.u32       C[%a + 11 * step], %tid.x
        st.global.u32       C[%a + 12 * step], %tid.x
        st.global.u32       C[%a + 13 * step], %tid.x
        st.global.u32       C[%a + 14 * step], %tid.x
        st.global.u32       C[%a + 15 * step], %tid.x
        st.global.u32       C[%a + 16 * step], %tid.x
        st.global.u32       C[%a + 17 * step], %tid.x
        st.global.u32       C[%a + 18 * step], %tid.x
        st.global.u32       C[%a + 19 * step], %tid.x
        st.global.u32       C[%a + 20 * step], %tid.x
        st.global.u32       C[%a + 21 * step], %tid.x
        st.global.u32       C[%a + 22 * step], %tid.x
        st.global.u32       C[%a + 23 * step], %tid.x
        st.global.u32       C[%a + 24 * step], %tid.x
        st.global.u32       C[%a + 25 * step], %tid.x
        st.global.u32       C[%a + 26 * step], %tid.x
        st.global.u32       C[%a + 27 * step], %tid.x
        st.global.u32       C[%a + 28 * step], %tid.x
        st.global.u32       C[%a + 29 * step], %tid.x
        st.global.u32       C[%a + 30 * step], %tid.x
        st.global.u32       C[%a + 31 * step], %tid.x
        st.global.u32       C[%a + 32 * step], %tid.x
        st.global.u32       C[%a + 33 * step], %tid.x
        st.global.u32       C[%a + 34 * step], %tid.x
        st.global.u32       C[%a + 35 * step], %tid.x
        st.global.u32       C[%a + 36 * step], %tid.x
        st.global.u32       C[%a + 37 * step], %tid.x
        st.global.u32       C[%a + 38 * step], %tid.x
        st.global.u32       C[%a + 39 * step], %tid.x
        st.global.u32       C[%a + 40 * step], %tid.x
        st.global.u32       C[%a + 41 * step], %tid.x
        st.global.u32       C[%a + 42 * step], %tid.x
        st.global.u32       C[%a + 43 * step], %tid.x
        st.global.u32       C[%a + 44 * step], %tid.x
        st.global.u32       C[%a + 45 * step], %tid.x
        st.global.u32       C[%a + 46 * step], %tid.x
        st.global.u32       C[%a + 47 * step], %tid.x
        st.global.u32       C[%a + 48 * step], %tid.x
        st.global.u32       C[%a + 49 * step], %tid.x
        st.global.u32       C[%a + 50 * step], %tid.x
        st.global.u32       C[%a + 51 * step], %tid.x
        st.global.u32       C[%a + 52 * step], %tid.x
        st.global.u32       C[%a + 53 * step], %tid.x
        st.global.u32       C[%a + 54 * step], %tid.x
        st.global.u32       C[%a + 55 * step], %tid.x
        st.global.u32       C[%a + 56 * step], %tid.x
        st.global.u32       C[%a + 57 * step], %tid.x
        st.global.u32       C[%a + 58 * step], %tid.x
        st.global.u32       C[%a + 59 * step], %tid.x
        st.global.u32       C[%a + 60 * step], %tid.x
        st.global.u32       C[%a + 61 * step], %tid.x
        st.global.u32       C[%a + 62 * step], %tid.x
        st.global.u32       C[%a + 63 * step], %tid.x
        st.global.u32       C[%a + 64 * step], %tid.x
        st.global.u32       C[%a + 65 * step], %tid.x
        st.global.u32       C[%a + 66 * step], %tid.x
        st.global.u32       C[%a + 67 * step], %tid.x
        st.global.u32       C[%a + 68 * step], %tid.x
        st.global.u32       C[%a + 69 * step], %tid.x
        st.global.u32       C[%a + 70 * step], %tid.x
        st.global.u32       C[%a + 71 * step], %tid.x
        st.global.u32       C[%a + 72 * step], %tid.x
        st.global.u32       C[%a + 73 * step], %tid.x
        st.global.u32       C[%a + 74 * step], %tid.x
        st.global.u32       C[%a + 75 * step], %tid.x
        st.global.u32       C[%a + 76 * step], %tid.x
        st.global.u32       C[%a + 77 * step], %tid.x
        st.global.u32       C[%a + 78 * step], %tid.x
        st.global.u32       C[%a + 79 * step], %tid.x
        st.global.u32       C[%a + 80 * step], %tid.x
        st.global.u32       C[%a + 81 * step], %tid.x
        st.global.u32       C[%a + 82 * step], %tid.x
        st.global.u32       C[%a + 83 * step], %tid.x
        st.global.u32       C[%a + 84 * step], %tid.x
        st.global.u32       C[%a + 85 * step], %tid.x
        st.global.u32       C[%a + 86 * step], %tid.x
        st.global.u32       C[%a + 87 * step], %tid.x
        st.global.u32       C[%a + 88 * step], %tid.x
        st.global.u32       C[%a + 89 * step], %tid.x
        st.global.u32       C[%a + 90 * step], %tid.x
        st.global.u32       C[%a + 91 * step], %tid.x
        st.global.u32       C[%a + 92 * step], %tid.x
        st.global.u32       C[%a + 93 * step], %tid.x
        st.global.u32       C[%a + 94 * step], %tid.x
        st.global.u32       C[%a + 95 * step], %tid.x
        st.global.u32       C[%a + 96 * step], %tid.x
        st.global.u32       C[%a + 97 * step], %tid.x
        st.global.u32       C[%a + 98 * step], %tid.x
        st.global.u32       C[%a + 99 * step], %tid.x
        st.global.u32       C[%a + 100 * step], %tid.x
        st.global.u32       C[%a + 101 * step], %tid.x
        st.global.u32       C[%a + 102 * step], %tid.x
        st.global.u32       C[%a + 103 * step], %tid.x
        st.global.u32       C[%a + 104 * step], %tid.x
        st.global.u32       C[%a + 105 * step], %tid.x
        st.global.u32       C[%a + 106 * step], %tid.x
        st.global.u32       C[%a + 107 * step], %tid.x
        st.global.u32       C[%a + 108 * step], %tid.x
        st.global.u32       C[%a + 109 * step], %tid.x
        st.global.u32       C[%a + 110 * step], %tid.x
        st.global.u32       C[%a + 111 * step], %tid.x
        st.global.u32       C[%a + 112 * step], %tid.x
        st.global.u32       C[%a + 113 * step], %tid.x
        st.global.u32       C[%a + 114 * step], %tid.x
        st.global.u32       C[%a + 115 * step], %tid.x
        st.global.u32       C[%a + 116 * step], %tid.x
        st.global.u32       C[%a + 117 * step], %tid.x
        st.global.u32       C[%a + 118 * step], %tid.x
        st.global.u32       C[%a + 119 * step], %tid.x
        st.global.u32       C[%a + 120 * step], %tid.x
        st.global.u32       C[%a + 121 * step], %tid.x
        st.global.u32       C[%a + 122 * step], %tid.x
        st.global.u32       C[%a + 123 * step], %tid.x
        st.global.u32       C[%a + 124 * step], %tid.x
        st.global.u32       C[%a + 125 * step], %tid.x
        st.global.u32       C[%a + 126 * step], %tid.x
        st.global.u32       C[%a + 127 * step], %tid.x
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        @%first atom.global.max.u32 %old, cyc[0], %t1
