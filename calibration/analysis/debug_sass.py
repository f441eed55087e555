#!/usr/bin/env python3
"""The SASS instructions ptxas makes of each PTX instruction of a debug build (`.target sm_90, debug`), by class:
the counts of `timing.debug_build.sass` (simulator/src/config.rs; docs/timing.md, "Debug builds").

Usage: debug_sass.py FILE.G.ptx... (ptxas and nvdisasm on PATH: `pip install nvidia-cuda-nvcc
nvidia-cuda-nvdisasm`; no GPU needed).

Each file is rewritten with a `.loc` of its own PTX line before every instruction (ptxas then makes the same SASS,
checked on the 53 `-G` kernels of programs/ptx/cuda), compiled by ptxas, and disassembled by `nvdisasm
--print-line-info`, which names each SASS instruction's line. The instructions are sorted into the classes of
`isa/src/ptx/debug.rs` (the same rules), and each class's mean is printed in tenths, leaving out lines of more than
3 × the class's median + 10 instructions (a `ret` or a call that ptxas followed with a subroutine's body).
"""
import collections, os, re, subprocess, sys, tempfile

SPECIAL = re.compile(r'%(tid|ntid|ctaid|nctaid|laneid|warpid|nwarpid|smid|nsmid|clock|globaltimer|lanemask|'
                     r'dynamic_smem_size|total_smem_size|gridid|envreg)')


def with_locs(src):
    """The PTX with `.loc 1 N 0` (N its own line) before each instruction, and the lines given one."""
    out, lines = [], set()
    depth, header, prev_end = 0, False, True
    for i, l in enumerate(src):
        s = l.strip()
        if re.match(r'\.loc\s', s):
            continue
        if re.search(r'\.(entry|func)\b', s) and depth == 0:
            header = True
        if (depth > 0 and s and prev_end and not s.endswith(':')
                and re.match(r'(@!?%\w+\s+)?[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\s|;|$)', s)):
            out.append(f"\t.loc\t1 {i + 1} 0")
            lines.add(i + 1)
        out.append(l)
        if s.startswith('{') and (header or depth > 0):
            depth += 1
            header = False
        if s.startswith('}') and depth > 0:
            depth -= 1
        if s and not s.startswith('//'):
            prev_end = s.endswith((';', '{', '}', ':')) or s.startswith(('.', '{'))
    return out, lines


def klass(ptx):
    """The class of one PTX instruction (isa/src/ptx/debug.rs's rules)."""
    s = re.sub(r'^@!?%\w+\s+', '', ptx).rstrip(';')
    parts = s.split(None, 1)
    q = parts[0].split('.')
    op, quals, ops = q[0], q[1:], (parts[1] if len(parts) > 1 else '')
    wide = any(x in ('s64', 'u64', 'b64', 'f64') for x in quals)
    if op in ('ld', 'st') and 'param' in quals:
        return 'param_call' if re.search(r'\[(param|retval|func_retval)\d', ptx) or op == 'st' else 'param_entry'
    if op in ('ld', 'ldu'):
        return 'load'
    if op == 'st':
        return 'store'
    if op == 'mov':
        src = ops.split(',')[-1].strip()
        if SPECIAL.match(src):
            return 'mov_special'
        if not src.startswith('%') and re.match(r'[A-Za-z_$]', src):
            return 'mov_symbol'
        return 'mov64' if wide else 'mov'
    if op == 'cvt':
        return 'cvt64' if wide else 'cvt'
    if op == 'cvta':
        return 'cvta'
    if op in ('div', 'rem', 'sqrt', 'rcp') and 'f64' in quals and 'approx' not in quals:
        return 'double_div'
    if op in ('div', 'sqrt', 'rcp') and 'f32' in quals and 'approx' not in quals and 'full' not in quals:
        return 'float_div'
    if op in ('div', 'rem') and 'f32' not in quals and 'f64' not in quals:
        return 'int_div64' if wide else 'int_div'
    if op == 'mul' and wide and 'lo' in quals:
        return 'mul64'
    if op in ('bra', 'brx'):
        return 'branch'
    if op in ('shfl', 'vote', 'match', 'redux'):
        return 'warp'
    if op == 'activemask':
        return 'mov'
    if op in ('atom', 'red'):
        return 'atomic'
    if op in ('bar', 'barrier', 'membar', 'fence'):
        return 'barrier'
    if op == 'call':
        return 'call'
    if op in ('ret', 'exit'):
        return 'ret'
    return 'alu64' if wide else 'alu'


def counts(path, tmp):
    src = open(path).read().split('\n')
    text, lines = with_locs(src)
    ptx, cubin = os.path.join(tmp, 'k.ptx'), os.path.join(tmp, 'k.cubin')
    open(ptx, 'w').write('\n'.join(text))
    subprocess.run(['ptxas', '-arch=sm_90', '-o', cubin, ptx], check=True, capture_output=True)
    dis = subprocess.run(['nvdisasm', '--print-line-info', '-c', cubin], check=True, capture_output=True,
                         text=True).stdout
    n, line = collections.Counter(), None
    for l in dis.split('\n'):
        m = re.search(r'//## File ".*", line (\d+)', l)
        if m:
            line = int(m.group(1))
        elif re.match(r'\s+/\*[0-9a-f]{4}\*/\s+', l) and line is not None and 'NOP' not in l:
            n[line] += 1
    return [(src[ln - 1].strip(), n.get(ln, 0)) for ln in sorted(lines)]


def main():
    by = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for path in sys.argv[1:]:
            for ptx, n in counts(path, tmp):
                by[klass(ptx)].append(n)
    for k in sorted(by):
        ns = sorted(by[k])
        median = ns[len(ns) // 2]
        kept = [n for n in ns if n <= 3 * median + 10]
        print(f"{k:12s} {len(ns):6d} instructions  mean {sum(kept) / len(kept):6.2f}  tenths {round(10 * sum(kept) / len(kept)):4d}")


if __name__ == '__main__':
    main()
