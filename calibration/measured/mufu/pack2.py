"""Pack mufu_tables2's raw tables: int32 differences of successive entries, lzma."""
import lzma, sys, os
import numpy as np
raw, out = sys.argv[1], sys.argv[2]
for name in sys.argv[3:] or ["lg2_m1", "lg2_m2", "sqrt"]:
    t = np.fromfile(os.path.join(raw, name + ".u32"), dtype="<u4").astype(np.int64)
    blob = lzma.compress(np.diff(t, prepend=0).astype("<i4").tobytes(), preset=9)
    open(os.path.join(out, name + ".d32.xz"), "wb").write(blob)
    print(name, len(t), "entries,", len(blob), "bytes packed")
