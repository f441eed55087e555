#!/usr/bin/env python3
"""The SFU tables warpsim runs from (`simulator/data/sfu/NAME.zst`), made from the packs written on the GPU machine
(`NAME.d32.xz`: the int32 differences of successive entries, lzma): `mufu_tables OUT && pack.py OUT DIR` (rcp, rsq,
lg2, rcp64h, rsq64h), `mufu_tables2 OUT && pack2.py OUT DIR` (lg2_m1, lg2_m2, sqrt), `mufu_tables3 OUT && pack2.py
OUT DIR ex2_neg ex2_pos`, `mufu_tables5 OUT && pack2.py OUT DIR sin cos` (the plus halves), all into one DIR; the same differences,
zstd-compressed (a pure-Rust decoder reads them; `simulator/src/sfu.rs`). Each table's count and a digest of its
entries are printed, to compare with `sfu.rs`'s test of them.

    python3 calibration/measured/mufu/tables.py DIR_WITH_PACKS simulator/data/sfu    (needs numpy and zstandard)
"""
import hashlib, lzma, os, sys
import numpy as np
import zstandard

# name in the packs -> name in the simulator, entries
TABLES = [("rcp", "rcp", 1 << 23), ("rsq", "rsqrt", 1 << 24), ("sqrt", "sqrt", 1 << 24), ("ex2_pos", "ex2_pos", 1 << 24),
          ("ex2_neg", "ex2_neg", 1 << 24), ("lg2", "lg2_0", 1 << 23), ("lg2_m1", "lg2_m1", 1 << 23),
          ("lg2_m2", "lg2_m2", 1 << 23), ("rcp64h", "rcp64h", 1 << 20), ("rsq64h", "rsqrt64h", 1 << 21),
          ("sin", "sin", 1 << 25), ("cos", "cos", 1 << 25)]
src, dst = sys.argv[1], sys.argv[2]
for pack, name, n in TABLES:
    d = np.frombuffer(lzma.decompress(open(os.path.join(src, pack + ".d32.xz"), "rb").read()), dtype="<i4")
    assert len(d) == n, (pack, len(d))
    blob = zstandard.ZstdCompressor(level=22, write_content_size=True).compress(d.tobytes())
    open(os.path.join(dst, name + ".zst"), "wb").write(blob)
    values = np.cumsum(d.astype(np.int64)).astype("<u4")
    print(f"{name}: {n} entries, {len(blob)} bytes, sha256 of the entries {hashlib.sha256(values.tobytes()).hexdigest()[:16]}")
