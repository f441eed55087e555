"""Numba CUDA kernels in warpsim, with real warp operations.

Numba compiles the kernel to PTX (``numba.cuda.compile_ptx``: NVVM, no GPU or driver needed), warpsim runs the
PTX, and the results are written back into the NumPy arrays passed in, as on a GPU::

    from warpsim.numba import cuda          # instead of `from numba import cuda`

    @cuda.jit
    def add_ten(out, a):
        i = cuda.threadIdx.x
        out[i] = a[i] + 10

    add_ten[1, 8](out, a)                   # or warpsim.numba.launch(add_ten, 1, 8, out, a)

``cuda.shfl_*_sync``, ``cuda.syncwarp``, ``cuda.activemask``, the votes, ``cuda.shared.array`` and atomics work
(Numba's own simulator, ``NUMBA_ENABLE_CUDASIM=1``, has no warp operations). A fault names the kernel's Python
line (``Fault.source_file``, ``Fault.source_line``). Each launch returns the run's :class:`warpsim.Result`
(cycles, statistics, the trace and its pictures with ``trace=True``).
"""

from __future__ import annotations

import inspect
import linecache
import types
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from . import _SMALL, AssembleError, Program, Result, load, run

try:
    import numba as _numba
    from numba import cuda as _cuda
except ImportError as _e:  # pragma: no cover - exercised only without numba-cuda
    raise ImportError(
        "warpsim.numba needs Numba's CUDA target: pip install numba-cuda nvidia-cuda-nvcc nvidia-cuda-nvrtc "
        "nvidia-cuda-runtime (no GPU needed), or pip install './python[numba]'"
    ) from _e

__all__ = ["Kernel", "compile", "cuda", "jit", "launch"]

# The compute capability compiled for: Hopper, what warpsim's timing is calibrated on.
CC = (9, 0)


class _CudaModule(types.ModuleType):
    """``warpsim.numba.cuda``: Numba's ``numba.cuda`` with ``jit`` replaced by warpsim's."""

    def __getattr__(self, name: str) -> Any:
        return getattr(_cuda, name)


def _real_globals(func: Callable) -> Callable:
    """``func`` with every global and closure variable bound to ``warpsim.numba.cuda`` rebound to ``numba.cuda``
    (Numba types the kernel's ``cuda.threadIdx`` through the real module); the code object, and so its lines,
    unchanged."""
    g = func.__globals__
    swapped = {k: _cuda for k, v in g.items() if v is cuda}
    cells = func.__closure__ or ()
    closure_swapped = any(_cell(c) is cuda for c in cells)
    if not swapped and not closure_swapped:
        return func
    closure = tuple(types.CellType(_cuda) if _cell(c) is cuda else c for c in cells) or None
    new = types.FunctionType(func.__code__, {**g, **swapped}, func.__name__, func.__defaults__, closure)
    new.__kwdefaults__ = func.__kwdefaults__
    return new


def _cell(c: Any) -> Any:
    try:
        return c.cell_contents
    except ValueError:  # an empty cell
        return None


def _py_func(kernel: Any) -> Callable:
    if isinstance(kernel, Kernel):
        return kernel.py_func
    func = getattr(kernel, "py_func", kernel)
    if not callable(func) or not hasattr(func, "__code__"):
        raise TypeError(f"expected a Python function or a @cuda.jit kernel, got {type(kernel).__name__}")
    return func


def _argument(value: Any, name: str) -> Any:
    """A kernel argument as Numba sees it: a C-contiguous array, or a scalar."""
    if isinstance(value, np.ndarray):
        if value.dtype not in _ELEMS and value.dtype not in _SMALL:
            allowed = ", ".join(str(d) for d in [*_ELEMS, *_SMALL])
            raise ValueError(f"argument `{name}`: arrays of {value.dtype} are not simulated (warpsim has {allowed})")
        return np.ascontiguousarray(value)
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return value
    raise ValueError(
        f"argument `{name}`: expected a NumPy array or a number, got {type(value).__name__}"
        + (" (convert it with numpy.asarray)" if isinstance(value, (list, tuple)) else "")
    )


_ELEMS = {np.dtype(t) for t in (np.uint32, np.int32, np.float32, np.uint64, np.int64, np.float64)}
_CACHE: Dict[Tuple[Any, ...], Tuple[str, Dict[str, str]]] = {}
# The same, by the arguments' kinds (`_kind`) rather than their Numba types.
_FAST: Dict[Tuple[Any, ...], Tuple[str, Dict[str, str]]] = {}
# Each kernel function's parameter names.
_NAMES: Dict[Any, list] = {}
# The loaded program of a compiled kernel for its arguments' names (or positions), array dtypes and shapes, and
# scalars' names: a kernel launched in a loop is bound once (`warpsim.load` would find it too, after more work).
_PROGRAMS: Dict[Tuple[Any, ...], Program] = {}


def compile(kernel: Any, *args: Any, fastmath: Optional[bool] = None) -> str:  # noqa: A001 - numba's own verb
    """The PTX Numba compiles ``kernel`` to for these arguments' types (sm_90, with line information); ``fastmath``
    by default the kernel's own option (``@cuda.jit(fastmath=True)``)."""
    if fastmath is None:
        fastmath = bool(getattr(kernel, "options", {}).get("fastmath", False))
    return _compile(_py_func(kernel), args, fastmath)[0]


def _kind(value: Any) -> Any:
    """What Numba's type of a kernel argument depends on, cheaper to find than the type itself (the compiled PTX
    is looked up by it): an array's dtype, dimensions, layout and flags; a Python int's range (int64 or uint64);
    a scalar's class."""
    if isinstance(value, np.ndarray):
        f = value.flags
        return (value.dtype.str, value.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned)
    if type(value) is int:
        return (int, -(2**63) <= value < 2**63)
    return type(value)


def _compile(func: Callable, args: Tuple[Any, ...], fastmath: bool = False) -> Tuple[str, Dict[str, str]]:
    fast = (func.__code__, id(func.__globals__), tuple(_kind(a) for a in args), fastmath)
    hit = _FAST.get(fast)
    if hit is not None:
        return hit
    sig = tuple(_numba.typeof(a) for a in args)
    key = (func.__code__, id(func.__globals__), sig, fastmath)
    if key not in _CACHE:
        ptx, _ = _cuda.compile_ptx(_real_globals(func), sig, cc=CC, lineinfo=True, fastmath=fastmath)
        path = func.__code__.co_filename
        lines = linecache.getlines(path)
        # The kernel's own file, also when it exists only in memory (a notebook cell): its line information names it.
        _CACHE[key] = (ptx, {path: "".join(lines)} if lines else {})
    if len(_FAST) >= 1024:
        _FAST.clear()
    _FAST[fast] = _CACHE[key]
    return _CACHE[key]


def launch(
    kernel: Any,
    grid: Any,
    block: Any,
    *args: Any,
    warp_size: Optional[int] = None,
    config: Any = None,
    trace: bool = False,
    checks: Optional[str] = None,
    dynamic_shared: Optional[int] = None,
    max_cycles: Optional[int] = None,
    threads: int = 0,
    fastmath: bool = False,
) -> Result:
    """Run Numba kernel ``kernel`` (a ``@cuda.jit`` kernel or a plain function) on a ``grid`` of ``block``s with
    ``args``, writing every array argument's final contents back into it. Returns the run's Result. ``fastmath``
    is Numba's: f32 arithmetic that flushes subnormals to zero and the special-function unit's approximations, run
    as the GPU computes them."""
    func = _py_func(kernel)
    names = _NAMES.get(func.__code__)
    if names is None:
        names = _NAMES[func.__code__] = list(inspect.signature(func).parameters)
    if len(args) != len(names):
        raise TypeError(f"{func.__name__}() takes {len(names)} arguments ({', '.join(names)}), got {len(args)}")
    values = [_argument(a, n) for a, n in zip(args, names)]
    ptx, sources = _compile(func, tuple(values), fastmath)

    def attempt(keys: list) -> Result:
        inputs = {k: v for k, v in zip(keys, values) if isinstance(v, np.ndarray)}
        params = {k: v for k, v in zip(keys, values) if not isinstance(v, np.ndarray)}
        bound = (ptx, tuple(keys), tuple((k, v.dtype.str, v.shape) for k, v in inputs.items()), tuple(params))
        program = _PROGRAMS.get(bound)
        if program is None:
            if len(_PROGRAMS) >= 1024:
                _PROGRAMS.clear()
            program = _PROGRAMS[bound] = load(ptx, inputs=inputs, params=params, sources=sources)
        return run(
            program,
            grid=grid,
            block=block,
            inputs=inputs,
            params=params,
            warp_size=warp_size,
            config=config,
            trace=trace,
            checks=checks,
            dynamic_shared=dynamic_shared,
            max_cycles=max_cycles,
            threads=threads,
            sources=sources,
        )

    # By the parameters' names (what the trace and pictures then show), which warpsim reads from the kernel's
    # source; by position where that source is not to be had (code given to `exec`, or typed at the prompt).
    keys = names
    try:
        result = attempt(keys) if sources else None
    except AssembleError as e:
        if "has no argument" not in str(e):
            raise
        result = None
    if result is None:
        keys = [str(k) for k in range(len(names))]
        result = attempt(keys)
    for original, key in zip(args, keys):
        if isinstance(original, np.ndarray) and original.flags.writeable:
            original[...] = result[key].reshape(original.shape)
    return result


class Kernel:
    """A kernel for warpsim, launched as Numba's are: ``kernel[grid, block](*args)`` or
    ``kernel[grid, block, 0, shared_bytes](*args)``. ``kernel.last`` is the last launch's Result."""

    def __init__(self, func: Callable, **options: Any):
        self.py_func = func
        self.options = options
        self.last: Optional[Result] = None
        self.__name__ = func.__name__
        self.__doc__ = func.__doc__

    def __getitem__(self, config: Any) -> Callable[..., Result]:
        if not isinstance(config, tuple) or len(config) not in (2, 3, 4):
            raise ValueError("launch a kernel as kernel[grid, block](args...) (or [grid, block, stream, shared_bytes])")
        grid, block = config[0], config[1]
        shared = config[3] if len(config) == 4 else None

        def launcher(*args: Any, **options: Any) -> Result:
            opts = {**self.options, **options}
            if shared:
                opts.setdefault("dynamic_shared", int(shared))
            self.last = launch(self, grid, block, *args, **opts)
            return self.last

        return launcher

    def __call__(self, *args: Any) -> Any:
        raise TypeError(f"launch kernel `{self.__name__}` with a grid and a block: {self.__name__}[grid, block](...)")

    def ptx(self, *args: Any) -> str:
        """The PTX for these arguments' types."""
        return compile(self, *args)


def jit(func: Optional[Callable] = None, **options: Any) -> Any:
    """``@jit`` or ``@jit(warp_size=8, trace=True, ...)``: a :class:`Kernel` run by warpsim. Options are
    :func:`launch`'s keywords, ``fastmath=True`` among them (Numba's); Numba's others (``device``, signatures) are
    not supported."""
    if func is not None and not callable(func):
        raise TypeError("warpsim.numba.jit takes no signature: types come from each launch's arguments")
    if func is None:
        return lambda f: Kernel(f, **options)
    return Kernel(func, **options)


# `from warpsim.numba import cuda`: Numba's cuda module with warpsim's jit.
cuda = _CudaModule("warpsim.numba.cuda", "numba.cuda, its kernels run by warpsim")
cuda.jit = jit
