#!/usr/bin/env python3
"""Issue 22: random programs cut after every line of their middle part (after the opening loads and compares, up to
the closing stores), to see which instruction the GPU's cycles jump at.

    python3 calibration/measured/random_cuts.py OUT_DIR INDEX...   (from the repository's root; seed 314159)

writes OUT_DIR/kINDEX_cK.s: program INDEX with the lines from K + 1 to the closing stores removed (labels kept).
Run on the GPU with `sim crosscheck OUT_DIR/*.s --jobs 1 --format json` (three times), and score warpsim against
it with `sim crosscheck OUT_DIR/*.s --against RUN.json [--config FILE]`; random-cuts-h200-2026-11-29.txt holds the
result for programs 9650, 1115, 874 and 6602.
"""
import subprocess, os, sys
SEED=314159
EPI="        mul.lo.u32 %t0, %gid, 7"
START="        setp.ne.u32 %p2, %r4, %laneid"
out=sys.argv[1]
os.makedirs(out, exist_ok=True)
for index in [int(x) for x in sys.argv[2:]]:
    src=subprocess.run(["target/release/sim","random","--seed",str(SEED),"--index",str(index)],capture_output=True,text=True,check=True).stdout.split("\n")
    st=src.index(START); epi=src.index(EPI)
    for c in range(st+1, epi+1):
        if src[c-1].endswith(":"): continue
        name=f"k{index}_c{c}"
        lines=[(".kernel "+name if l.startswith(".kernel") else l) for i,l in enumerate(src) if not (i+1>c and i<epi and not l.endswith(":"))]
        open(os.path.join(out,name+".s"),"w").write("\n".join(lines)+"\n")
