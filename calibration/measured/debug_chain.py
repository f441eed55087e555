#!/usr/bin/env python3
# Debug-build chains (calibration/measured/debug-build-h200-2026-11-28.txt): a PTX module of `.target sm_90, debug`
# whose entry `debug_cost` times, by `kind`, a straight line of 16 or 48 instructions of one class between two
# clock reads. `python3 debug_chain.py add,iadd,mov,fadd,mul,add64,cvt,setp,bra,ldg,stg,lds,sts,shfl,iaddsum >
# debug_chain.ptx`; kind 2k times class k with 16 instructions, 2k+1 with 48. Run with `sim crosscheck --launches`
# (one launch per kind; thread 0 writes the cycles to cyc[0]).
# Generate a debug-target PTX microbenchmark: kind k selects a straight-line block timed by two clock reads.
import sys
def chain(cls, n):
    L = []
    for i in range(n):
        a, b = 20 + i, 21 + i
        if cls == 'add':   L.append(f"add.s32 %r{b}, %r{a}, 3;")
        elif cls == 'iadd': L.append(f"add.s32 %r{b}, %r20, {i};")
        elif cls == 'iaddsum': L.append(f"add.s32 %r{b}, %r20, {i};" if i < n//2 else f"add.s32 %r{b}, %r{b-n//2}, %r{b-1};")
        elif cls == 'mov':  L.append(f"mov.b32 %r{b}, %r{a};")
        elif cls == 'fadd': L.append(f"add.f32 %f{b}, %f{a}, 0f3F800000;")
        elif cls == 'mul':  L.append(f"mul.lo.s32 %r{b}, %r{a}, 3;")
        elif cls == 'add64': L.append(f"add.s64 %rd{b}, %rd{a}, 8;")
        elif cls == 'cvt':  L.append(f"cvt.s64.s32 %rd{b}, %r{a};" if i % 2 == 0 else f"cvt.u32.u64 %r{b}, %rd{a};")
        elif cls == 'setp': L.append(f"setp.lt.s32 %p{b}, %r{a}, {i};\n\tselp.b32 %r{b}, 1, 2, %p{b};")
        elif cls == 'bra':  L.append(f"bra.uni $B{n}_{i};\n$B{n}_{i}:")
        elif cls == 'ldg':  L.append(f"ld.u32 %r{b}, [%rd5];")
        elif cls == 'stg':  L.append(f"st.u32 [%rd5], %r20;")
        elif cls == 'lds':  L.append(f"ld.u32 %r{b}, [%rd6];")
        elif cls == 'sts':  L.append(f"st.u32 [%rd6], %r20;")
        elif cls == 'shfl': L.append(f"shfl.sync.bfly.b32 %r{b}, %r{a}, 1, 31, -1;")
        else: raise SystemExit(cls)
    return "\n\t".join(L)
def sink(c, n):
    last = 20 + n
    if c == 'fadd': return f"st.f32 [%rd5+4], %f{last};"
    if c in ('add64',): return f"st.u64 [%rd5+8], %rd{last};"
    if c == 'cvt': return f"st.u32 [%rd5+4], %r{last};" if n % 2 == 0 else f"st.u64 [%rd5+8], %rd{last};"
    if c in ('bra','stg','sts'): return ""
    return f"st.u32 [%rd5+4], %r{last};"
classes = sys.argv[1].split(',')
short, long_ = 16, 48
out = [""".version 8.0
.target sm_90, debug
.address_size 64

.visible .entry debug_cost(
	.param .u64 cyc,
	.param .u64 buf,
	.param .u32 kind
)
{
	.reg .pred %p<80>;
	.reg .b32 %r<80>;
	.reg .f32 %f<80>;
	.reg .b64 %rd<80>;
	.shared .align 4 .b8 sh[256];

	.loc 1 1 0
	ld.param.u64 %rd1, [cyc];
	ld.param.u64 %rd2, [buf];
	ld.param.u32 %r1, [kind];
	cvta.to.global.u64 %rd3, %rd1;
	mov.u32 %r2, %tid.x;
	mov.u32 %r20, %r2;
	cvt.rn.f32.s32 %f20, %r2;
	cvt.u64.u32 %rd20, %r2;
	mov.u64 %rd5, %rd2;
	mov.u32 %r3, sh;
	cvt.u64.u32 %rd7, %r3;
	cvta.shared.u64 %rd6, %rd7;
	st.u32 [%rd6], %r2;
	ld.u32 %r4, [%rd5];
	st.u32 [%rd5], %r4;"""]
for k, c in enumerate(classes):
    for j, n in enumerate((short, long_)):
        out.append(f"\tsetp.eq.s32 %p1, %r1, {2*k+j};\n\t@%p1 bra $K{2*k+j};")
out.append("\tbra.uni $DONE;")
for k, c in enumerate(classes):
    for j, n in enumerate((short, long_)):
        out.append(f"$K{2*k+j}:\n\tmov.u64 %rd10, %clock64;\n\t{chain(c, n)}\n\tmov.u64 %rd11, %clock64;\n\t{sink(c, n)}\n\tbra.uni $DONE;")
out.append("""$DONE:
	sub.s64 %rd12, %rd11, %rd10;
	cvt.u32.u64 %r5, %rd12;
	setp.ne.s32 %p2, %r2, 0;
	@%p2 bra $END;
	st.global.u32 [%rd3], %r5;
$END:
	ret;
}
	.file 1 \"dbg.cu\"
	.section .debug_info
	{
	}""")
print("\n".join(out))
