// warp.s — reusable warp-level sequences. A program writes `.include "warp.s"` and invokes a macro by name;
// labels inside a macro are local to each invocation. Every macro loops over offsets W/2, W/4, …, 1, so it
// works at any warp size.

// Butterfly maximum: every lane ends with the maximum of `v` over the warp.
// v: the f32 value (in and out); tmp, off: scratch registers; more: a scratch predicate.
.macro bfly_max_f32 v, tmp, off, more
        mov.u32             \off, (W / 2)
step:
        shfl.sync.bfly.b32  \tmp, \v, \off
        max.f32             \v, \v, \tmp
        shr.u32             \off, \off, 1
        setp.ne.u32         \more, \off, 0
        @\more bra          step
.endm

// Butterfly sum: every lane ends with the sum of `v` over the warp (u32/s32 wrap-around arithmetic).
.macro bfly_sum_u32 v, tmp, off, more
        mov.u32             \off, (W / 2)
step:
        shfl.sync.bfly.b32  \tmp, \v, \off
        add.u32             \v, \v, \tmp
        shr.u32             \off, \off, 1
        setp.ne.u32         \more, \off, 0
        @\more bra          step
.endm

// Tree sum with shfl.down: lane 0 ends with the sum of `v` over the warp; other lanes hold partial sums
// (a shfl.down past the end of the warp returns the lane's own value).
.macro down_sum_f32 v, tmp, off, more
        mov.u32             \off, (W / 2)
step:
        shfl.sync.down.b32  \tmp, \v, \off
        add.f32             \v, \v, \tmp
        shr.u32             \off, \off, 1
        setp.ne.u32         \more, \off, 0
        @\more bra          step
.endm

// Inclusive prefix sum with shfl.up (Hillis–Steele): lane k ends with v[0] + … + v[k].
// The shuffle's predicate output says whether lane - d exists; only those lanes add.
.macro scan_up_f32 v, tmp, d, more, has
        mov.u32             \d, 1
step:
        shfl.sync.up.b32    \tmp|\has, \v, \d
        @\has add.f32       \v, \v, \tmp
        shl.b32             \d, \d, 1
        setp.lt.u32         \more, \d, W
        @\more bra          step
.endm

// Inclusive prefix sum with shfl.up, u32 (wrap-around arithmetic).
.macro scan_up_u32 v, tmp, d, more, has
        mov.u32             \d, 1
step:
        shfl.sync.up.b32    \tmp|\has, \v, \d
        @\has add.u32       \v, \v, \tmp
        shl.b32             \d, \d, 1
        setp.lt.u32         \more, \d, W
        @\more bra          step
.endm

// Block sum (f32): thread 0 of the block ends with the sum of `v` over the block; the block must be at most
// W warps. Each warp sums with shfl.down (its lane 0 holds the warp's sum) and lane 0 stores that to the shared
// array `partial` (one element per warp); a barrier waits for every warp; then warp 0 sums the warp sums the
// same way. p is a scratch predicate.
.macro block_sum_f32 v, tmp, off, more, p, partial
        down_sum_f32        \v, \tmp, \off, \more
        setp.eq.u32         \p, %laneid, 0
        @\p st.shared.f32   \partial[%warpid], \v
        bar.sync            0
        setp.ne.u32         \p, %warpid, 0
        @\p bra             done
        mov.f32             \v, 0.0
        setp.lt.u32         \p, %laneid, %nwarpid
        @\p ld.shared.f32   \v, \partial[%laneid]
        down_sum_f32        \v, \tmp, \off, \more
done:
.endm

// 64-bit butterfly sums: every lane ends with the sum of the 64-bit `v` over the warp. A shuffle moves 32 bits,
// so each step moves the two halves (as CUDA's __shfl_xor_sync of a double or a long long does).
// v: the value (a .reg.b64 register, in and out); other: a .reg.b64 scratch; lo, hi, off: 32-bit scratch;
// more: a scratch predicate.
.macro bfly_sum_u64 v, other, lo, hi, off, more
        mov.u32             \off, (W / 2)
step:
        mov.b64             {\lo, \hi}, \v
        shfl.sync.bfly.b32  \lo, \lo, \off
        shfl.sync.bfly.b32  \hi, \hi, \off
        mov.b64             \other, {\lo, \hi}
        add.u64             \v, \v, \other
        shr.u32             \off, \off, 1
        setp.ne.u32         \more, \off, 0
        @\more bra          step
.endm

.macro bfly_sum_f64 v, other, lo, hi, off, more
        mov.u32             \off, (W / 2)
step:
        mov.b64             {\lo, \hi}, \v
        shfl.sync.bfly.b32  \lo, \lo, \off
        shfl.sync.bfly.b32  \hi, \hi, \off
        mov.b64             \other, {\lo, \hi}
        add.f64             \v, \v, \other
        shr.u32             \off, \off, 1
        setp.ne.u32         \more, \off, 0
        @\more bra          step
.endm
