#!/usr/bin/env python3
"""Regenerate programs/ptx/numba/FILE.NAME.ptx from the kernel sources next to them.

Each programs/ptx/numba/*.py defines SIGS = [(name, python_function, signature[, options]), ...]; every entry is
compiled with cuda.compile_ptx(fn, sig, cc=(9, 0), lineinfo=True, **options) into FILE.NAME.ptx.

    python3 -m venv /tmp/venv-ptx
    /tmp/venv-ptx/bin/pip install numba-cuda numpy
    /tmp/venv-ptx/bin/python programs/ptx/compile_numba.py [NAME ...]   # default: every kernel

Works on a machine without a GPU; numba-cuda finds the pip-installed NVVM/libdevice (nvidia-nvvm,
nvidia-cuda-nvcc wheels) by itself through cuda-pathfinder. No NUMBA_* environment variable is needed.
"""
import importlib.util, pathlib, sys
from numba import cuda
import numba.cuda.dispatcher as _disp

# numba-cuda 0.30: a kernel that calls a @cuda.jit(device=True) function makes the
# dispatcher ask the *current device* for its compute capability (dispatcher.py,
# compile_device: cc = get_current_device().compute_capability), which fails with
# "CUDA driver library cannot be found" on a machine without a GPU. Pretend sm_90.
class _FakeDevice:
    compute_capability = (9, 0)
_disp.get_current_device = lambda: _FakeDevice()

here = pathlib.Path(__file__).resolve().parent / "numba"
only = set(sys.argv[1:])
for src in sorted(here.glob("*.py")):
    spec = importlib.util.spec_from_file_location(src.stem, src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for name, fn, sig, *options in mod.SIGS:
        if only and name not in only:
            continue
        # (An optional fourth element: compile_ptx's options, e.g. {"fastmath": True}.)
        ptx, resty = cuda.compile_ptx(fn, sig, cc=(9, 0), lineinfo=True, **(options[0] if options else {}))
        out = here / f"{src.stem}.{name}.ptx"
        out.write_text(ptx)
        print(f"{out.name}: {len(ptx.splitlines())} lines, restype {resty}")
