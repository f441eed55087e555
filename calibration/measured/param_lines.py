#!/usr/bin/env python3
"""Issue 22: writes calibration/programs/param_line.ptx and param_hit.ptx, the kernel parameters' constant-bank
lines. Each kernel has 16 u64 parameters (`cyc`, then p1..p15 at c[0x0][0x218 + 8(i-1)]: p1-p5 share the bank's
line 0x200 with the driver's words, p6-p13 are line 0x240, p14-p15 line 0x280). Thread 0 reads the clock, then
p1..p15 one at a time, each stored to shared memory (so that the next clock read waits for the value) with a
clock read after each, and writes each read's time to cyc[1..15] and its figure to cyc[0]:
  param_line.ptx: the first reads of lines 0x240 and 0x280 (p6 and p14) summed, each a line's miss;
  param_hit.ptx:  the twelve reads of a line already read (p2-p5, p7-p13, p15) summed.
calibration/measured/ubench25.cu runs both on the GPU (and the 63-parameter kernels it was first measured with).
Run: python3 calibration/measured/param_lines.py
"""
import os

N = 15
HERE = os.path.dirname(os.path.abspath(__file__))


def kernel(name, figure, what):
    params = ",\n".join(["\t.param .u64 cyc"] + [f"\t.param .u64 p{i}" for i in range(1, N + 1)])
    body = [
        "\tmov.u32 \t%r1, %tid.x;",
        "\tsetp.ne.s32 \t%p1, %r1, 0;",
        "\t@%p1 bra \t$L__done;",
        "\tmov.u64 \t%t0, %clock64;",
    ]
    for i in range(1, N + 1):
        body += [
            f"\tld.param.u64 \t%v, [p{i}];",
            "\tst.volatile.shared.u64 \t[s], %v;",
            f"\tmov.u64 \t%t{i}, %clock64;",
        ]
    body += ["\tld.param.u64 \t%a, [cyc];", "\tcvta.to.global.u64 \t%a, %a;"]
    for i in range(1, N + 1):
        body += [
            f"\tsub.s64 \t%d, %t{i}, %t{i - 1};",
            f"\tcvt.u32.u64 \t%w{i}, %d;",
            f"\tst.global.u32 \t[%a+{4 * i}], %w{i};",
        ]
    body += figure + ["\tst.global.u32 \t[%a], %f;", "$L__done:", "\tret;"]
    return f"""// Calibration microbenchmark (written by calibration/measured/param_lines.py): {what}
.version 8.0
.target sm_90
.address_size 64

.visible .entry {name}(
{params}
)
{{
\t.reg .pred \t%p<2>;
\t.reg .b32 \t%r<2>;
\t.reg .b32 \t%w<{N + 1}>;
\t.reg .b32 \t%f;
\t.reg .b64 \t%t<{N + 1}>;
\t.reg .b64 \t%v, %a, %d;
\t.shared .align 8 .b64 s[1];

""" + "\n".join(body) + "\n}\n"


with open(os.path.join(HERE, "../programs/param_line.ptx"), "w") as f:
    f.write(kernel("param_line", ["\tadd.s32 \t%f, %w6, %w14;"],
                   "the first reads of two further constant-bank lines of parameters (p6, line 0x240;\n"
                   "// p14, line 0x280), each with a shared store of its value, clock to clock. cyc[0]: their sum; cyc[i]: the read of p_i."))
with open(os.path.join(HERE, "../programs/param_hit.ptx"), "w") as f:
    hits = [2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15]
    f.write(kernel("param_hit", ["\tmov.b32 \t%f, %w2;"] + [f"\tadd.s32 \t%f, %f, %w{i};" for i in hits[1:]],
                   "the reads of kernel parameters whose constant-bank line is in the cache (p2-p5, p7-p13,\n"
                   "// p15), each with a shared store of its value, clock to clock. cyc[0]: their sum; cyc[i]: the read of p_i."))
