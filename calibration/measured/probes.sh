#!/bin/bash
# The atomic probes of probes-2026-11-28.txt (issue 22): dependent chains of 64 atomics by 32 lanes, lane k on
# word (k * spread) & 31, in warpsim's ISA, written into DIR. Run on a GPU: `sim crosscheck DIR/*.s --jobs 1
# --format json` (a build with `--features cuda`); each program's `cyc` (GPU and warpsim) is in `clock_buffers`.
set -e
dir=${1:?usage: probes.sh DIR}
mkdir -p "$dir"
# gen64 NAME OP SPACE SPREAD DECLARATION: a 64-bit operand chain.
gen64() {
cat > "$dir/$1.s" <<EOF
// Probe (issue 22): a dependent chain of \`$2\` by 32 lanes, lane k on word (k * spread) & 31.
.kernel $1
.param spread = $4
.param iters = 64
.buffer out u32[W]
.buffer cyc u32[1]
$5
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
        $2 %x, $3[%a], %w
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
EOF
}
# gen32 NAME OP SPACE SPREAD DECLARATION FIRST NEXT: a 32-bit operand chain (FIRST sets it, NEXT updates it).
gen32() {
cat > "$dir/$1.s" <<EOF
// Probe (issue 22): a dependent chain of \`$2\` by 32 lanes, lane k on word (k * spread) & 31.
.kernel $1
.param spread = $4
.param iters = 64
.buffer out u32[W]
.buffer cyc u32[1]
$5
.reg %a, %i, %t0, %t1, %w, %x
.pred %more, %first

        mul.lo.u32          %a, %tid.x, spread
        and.b32             %a, %a, 31
        $6
        mov.u32             %i, 0
        mov.u32             %t0, %clock
loop:
        $2 %x, $3[%a], %w
        $7
        add.u32             %i, %i, 1
        setp.ne.u32         %more, %i, iters
        @%more bra          loop
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        st.global.u32       out[%tid.x], %w
        setp.eq.u32         %first, %tid.x, 0
        @%first st.global.u32 cyc[0], %t1
EOF
}
gen64 sh_add64_d "atom.shared.add.u64" s 1 ".shared s u64[32]"
gen64 sh_add64_1 "atom.shared.add.u64" s 0 ".shared s u64[32]"
gen64 sh_add64_s2 "atom.shared.add.u64" s 2 ".shared s u64[32]"
gen64 sh_add64_s16 "atom.shared.add.u64" s 16 ".shared s u64[32]"
gen64 sh_and64_d "atom.shared.and.b64" s 1 ".shared s u64[32]"
gen64 sh_max64_d "atom.shared.max.u64" s 1 ".shared s u64[32]"
gen64 gl_add64_d "atom.global.add.u64" g 1 ".buffer g u64[32]"
gen64 gl_add64_1 "atom.global.add.u64" g 0 ".buffer g u64[32]"
gen64 gl_max64_1 "atom.global.max.s64" g 0 ".buffer g s64[32]"
gen64 gl_xor64_d "atom.global.xor.b64" g 1 ".buffer g u64[32]"
gen32 gl_fmin_1 "atom.global.min.f32" g 0 ".buffer g f32[32] = 1.0e6" "cvt.rn.f32.u32 %w, %tid.x" "sub.f32 %w, %x, 1.0"
gen32 gl_fmin_s2 "atom.global.min.f32" g 2 ".buffer g f32[32] = 1.0e6" "cvt.rn.f32.u32 %w, %tid.x" "sub.f32 %w, %x, 1.0"
gen32 gl_fmin_s16 "atom.global.min.f32" g 16 ".buffer g f32[32] = 1.0e6" "cvt.rn.f32.u32 %w, %tid.x" "sub.f32 %w, %x, 1.0"
gen32 gl_fmax_d "atom.global.max.f32" g 1 ".buffer g f32[32] = 0.0" "cvt.rn.f32.u32 %w, %tid.x" "add.f32 %w, %x, 1.0"
gen32 gl_add32_1 "atom.global.add.u32" g 0 ".buffer g u32[32]" "add.u32 %w, %tid.x, 1" "add.u32 %w, %w, %x"
gen32 sh_add32_d "atom.shared.add.u32" s 1 ".shared s u32[32]" "add.u32 %w, %tid.x, 1" "add.u32 %w, %w, %x"
gen32 gl_exch32_1 "atom.global.exch.b32" g 0 ".buffer g u32[32]" "add.u32 %w, %tid.x, 1" "add.u32 %w, %w, %x"
gen32 gl_min32_1 "atom.global.min.u32" g 0 ".buffer g u32[32] = 0xffffffff" "add.u32 %w, %tid.x, 1" "add.u32 %w, %w, %x"
