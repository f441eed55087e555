#!/usr/bin/env python3
"""Which of CUDA's math functions and integer intrinsics warpsim runs, as nvcc compiles them (docs/ptx.md).

One kernel per function (`o[i] = f(a[i])`, two-operand ones `f(a[i], a[i ^ 1])`), compiled with
`nvcc -ptx -arch=sm_90 -O3` into a temporary folder, each run with `sim run` on one warp; prints OK or the first
error for each. Needs nvcc (see README.md, "Regenerating the PTX") and a built `sim`:

    NVCC=/tmp/venv-ptx/lib/python3.11/site-packages/nvidia/cu13/bin/nvcc programs/ptx/survey_math.py [target/release/sim]

`NVCC_FLAGS=-use_fast_math` adds flags to nvcc's (the fast-math forms: `.ftz` arithmetic, more approximations).
`--launches=DIR` also writes DIR/m.ptx and DIR/launches.txt, every kernel that runs with inputs off exact values, for
`sim crosscheck --launches DIR/launches.txt` on a GPU.
"""
import os, re, subprocess, sys, tempfile

f32 = "sinf cosf tanf expf exp2f exp10f logf log2f log10f log1pf expm1f sqrtf cbrtf rsqrtf erff erfcf erfinvf erfcinvf tanhf sinhf coshf asinf acosf atanf asinhf acoshf atanhf lgammaf tgammaf floorf ceilf roundf truncf rintf nearbyintf sinpif cospif normcdff normcdfinvf j0f y0f __sinf __cosf __tanf __expf __logf __log2f __log10f __exp10f __saturatef __frcp_rn __frcp_rz __frsqrt_rn __fsqrt_rn __fsqrt_ru __fsqrt_rd __fsqrt_rz __frcp_ru __frcp_rd".split()
f32b = "powf atan2f hypotf fmodf remainderf fminf fmaxf fdimf copysignf __fdividef __fadd_rd __fadd_ru __fadd_rz __fmul_rd __fmul_ru __fmul_rz __fsub_rd __fdiv_rn __fdiv_rz __fdiv_ru __fdiv_rd __powf nextafterf".split()
f64 = "sin cos tan exp exp2 exp10 log log2 log10 log1p expm1 sqrt cbrt rsqrt erf erfc erfinv tanh sinh cosh asin acos atan asinh acosh atanh lgamma tgamma floor ceil round trunc rint sinpi cospi normcdf __drcp_rn __dsqrt_rn __dsqrt_rz __dsqrt_ru __dsqrt_rd __drcp_rz".split()
f64b = "pow atan2 hypot fmod remainder fmin fmax copysign __dadd_rd __dadd_ru __dadd_rz __dmul_rd __dmul_ru __dmul_rz __ddiv_rn __ddiv_rz __ddiv_ru __ddiv_rd __dsub_rz __fma_rz __fma_rd".split()
ints = ["__mul64hi(x, y)", "__umul64hi(x, y)", "__clzll(x)", "__popcll(x)", "__brevll(x)", "__ffsll(x)", "x / y", "x % y", "(long long)((unsigned long long)x / (unsigned long long)y)", "(long long)((unsigned long long)x % (unsigned long long)y)", "__dp4a((int)x,(int)y,(int)x)", "__dp2a_lo((int)x,(int)y,(int)x)", "__vadd4((unsigned)x,(unsigned)y)", "__vabsdiffu4((unsigned)x,(unsigned)y)", "__vcmpgtu4((unsigned)x,(unsigned)y)", "__vmaxs2((unsigned)x,(unsigned)y)", "__sad((int)x,(int)y,3u)", "__hadd((int)x,(int)y)", "__rhadd((int)x,(int)y)", "llabs(x)", "llmin(x,y)", "ullmax(x,y)", "(long long)__float2ll_rd((float)x)", "(long long)__double2ull_ru((double)y)", "(long long)__ll2float_rz(x)", "(long long)__ull2double_rd(y)", "(long long)__float2int_rn((float)x)", "(long long)__float2uint_rz((float)x)", "(long long)__int2float_rd((int)x)", "(long long)__double2float_ru((double)x)", "(long long)__double2int_rz((double)x)", "(long long)__float_as_uint(__uint_as_float((unsigned)x))", "(long long)__double_as_longlong((double)x)", "(long long)__hiloint2double((int)x,(int)y)", "(long long)__double2hiint((double)x)"]
out = ['#include <cuda_fp16.h>', '#include <cuda_bf16.h>']
k = 0
for f in f32:
    out.append(f'extern "C" __global__ void k{k}(float *o, const float *a) {{ int i = threadIdx.x; o[i] = {f}(a[i]); }} // {f}'); k += 1
for f in f32b:
    out.append(f'extern "C" __global__ void k{k}(float *o, const float *a) {{ int i = threadIdx.x; o[i] = {f}(a[i], a[i^1]); }} // {f}'); k += 1
for f in f64:
    out.append(f'extern "C" __global__ void k{k}(double *o, const double *a) {{ int i = threadIdx.x; o[i] = {f}(a[i]); }} // {f}'); k += 1
for f in f64b:
    args = "a[i], a[i^1], a[i^2]" if f.startswith("__fma") else "a[i], a[i^1]"
    out.append(f'extern "C" __global__ void k{k}(double *o, const double *a) {{ int i = threadIdx.x; o[i] = {f}({args}); }} // {f}'); k += 1
for f in ints:
    out.append(f'extern "C" __global__ void k{k}(long long *o, const long long *a) {{ int i = threadIdx.x; long long x = a[i], y = a[i^1] | 1; o[i] = (long long)({f}); }} // {f}'); k += 1

args = [a for a in sys.argv[1:] if not a.startswith("--launches=")]
launches = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--launches=")), None)
sim = args[0] if args else "target/release/sim"
nvcc = os.environ.get("NVCC", "nvcc")
with tempfile.TemporaryDirectory() as tmp:
    out_dir = launches or tmp
    os.makedirs(out_dir, exist_ok=True)
    cu, ptx = os.path.join(tmp, "m.cu"), os.path.join(out_dir, "m.ptx")
    open(cu, "w").write("\n".join(out) + "\n")
    subprocess.run([nvcc, "-ptx", "-arch=sm_90", "-O3", "-w", *os.environ.get("NVCC_FLAGS", "").split(), cu, "-o", ptx], check=True)
    ok = 0
    written = []
    for line in out[2:]:
        k, ty, name = re.match(r'.*void (k\d+)\((float|double|long long)\b.*// (.*)', line).groups()
        elem = {"float": "f32", "double": "f64"}.get(ty, "s64")
        init = "i*3-40" if elem == "s64" else "(i-16)*0.7371+0.0131"
        flags = ["--entry", k, "--block", "32", "--buffer", f"0={elem}[32]", "--buffer", f"1={elem}[32]={init}"]
        r = subprocess.run([sim, "run", ptx, *flags], capture_output=True, text=True)
        first = (r.stdout + r.stderr).splitlines()[0] if r.returncode else ""
        ok += r.returncode == 0
        if r.returncode == 0:
            written.append("m.ptx " + " ".join(flags))
        print(f"{'OK  ' if r.returncode == 0 else 'FAIL'} {name}" + (f": {first}" if first else ""))
    print(f"{ok} of {len(out) - 2} run")
    if launches:
        # Every kernel that runs, for `sim crosscheck --launches DIR/launches.txt` on a GPU (inputs off exact values).
        open(os.path.join(launches, "launches.txt"), "w").write("\n".join(written) + "\n")
        print(f"wrote {launches}/m.ptx and {launches}/launches.txt")
