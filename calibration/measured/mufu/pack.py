"""Pack mufu_tables' raw tables for the trip back: each table as int32 differences of successive entries, lzma."""
import lzma, sys, os
import numpy as np
raw, out = sys.argv[1], sys.argv[2]
for name in ["rcp64lo", "rsq64lo"]:
    t = np.fromfile(os.path.join(raw, name + ".u32"), dtype="<u4")
    print(name, "distinct low words:", [hex(v) for v in np.unique(t)[:8]])
for name in ["rcp", "rsq", "lg2", "ex2", "rcp64h", "rsq64h"]:
    t = np.fromfile(os.path.join(raw, name + ".u32"), dtype="<u4").astype(np.int64)
    d = np.diff(t, prepend=0).astype("<i4")
    blob = lzma.compress(d.tobytes(), preset=9)
    open(os.path.join(out, name + ".d32.xz"), "wb").write(blob)
    print(name, len(t), "entries,", len(blob), "bytes packed")
