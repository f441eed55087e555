"""warpsim: a cycle-level SIMT warp simulator, from Python.

``warpsim.run(program, grid=..., block=..., inputs={...}, outputs={...})`` runs a warp program (warpsim's own
assembly, PTX text, or a ``.s``/``.ptx``/``.cu`` file) and returns a :class:`Result`: the output arrays as NumPy
arrays, the cycles, the statistics, the trace, and pictures that Jupyter shows inline. ``warpsim.numba`` runs
Numba CUDA kernels the same way. No GPU is needed.
"""

from __future__ import annotations

import functools
import html as _html
import json
import math
import os
import sys
from typing import Any, Dict, Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "AssembleError",
    "ConfigError",
    "Fault",
    "LaunchError",
    "Program",
    "Result",
    "SchedulingError",
    "WarpsimError",
    "default_config",
    "load",
    "programs",
    "run",
]


class WarpsimError(Exception):
    """Any error warpsim reports; ``str(e)`` is its diagnostic (file, line, column, what was expected, a hint)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class AssembleError(WarpsimError, ValueError):
    """The program text does not assemble (warpsim assembly) or lower (PTX), or its arguments cannot be bound."""


class LaunchError(WarpsimError, ValueError):
    """The program cannot be launched as asked (shape, parameters, buffers)."""


class ConfigError(WarpsimError, ValueError):
    """The machine configuration is invalid."""


class Fault(WarpsimError, RuntimeError):
    """The simulated program faulted (out of bounds, deadlock, limits...).

    Attributes name where: ``block`` (its name, ``(x, y, z)``), ``warp``, ``lane``, ``pc``, ``cycle``,
    ``instruction`` (its text), ``file``/``line``/``column`` in the program, and for PTX compiled with line
    information (``nvcc -lineinfo``, every Numba kernel) ``source_file``/``source_line``: the CUDA or Python line.
    ``what`` is the fault in one sentence.
    """

    block: Optional[str] = None
    warp: Optional[int] = None
    lane: Optional[int] = None
    pc: Optional[int] = None
    cycle: Optional[int] = None
    instruction: Optional[str] = None
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    source_file: Optional[str] = None
    source_line: Optional[int] = None
    what: Optional[str] = None


class SchedulingError(WarpsimError, RuntimeError):
    """With ``checks="scheduling"``: the kernel's results differ between lockstep and independent thread
    scheduling (``sim run --check scheduling``), so it relies on how a warp's diverged paths are ordered (a
    missing ``bar.warp.sync``, a spin on another lane); ``str(e)`` says where the results first differ."""


_ERRORS = {
    "assemble": AssembleError,
    "launch": LaunchError,
    "config": ConfigError,
    "fault": Fault,
    "scheduling": SchedulingError,
    "usage": ValueError,
}


def _raise(err: _native.Error) -> None:
    kind, message, details = err.args
    cls = _ERRORS.get(kind, WarpsimError)
    if cls is ValueError:
        raise ValueError(message) from None
    exc = cls(message)
    for key, value in (details or {}).items():
        setattr(exc, key, value)
    raise exc from None


# warpsim's element types and NumPy's dtypes.
_DTYPES = {
    "u32": np.dtype(np.uint32),
    "s32": np.dtype(np.int32),
    "f32": np.dtype(np.float32),
    "u64": np.dtype(np.uint64),
    "s64": np.dtype(np.int64),
    "f64": np.dtype(np.float64),
}
_ELEMS = {dtype: elem for elem, dtype in _DTYPES.items()}
# NumPy's 8- and 16-bit integers, bool and float16: a PTX pointer to them (a Numba array of them) takes a u32 buffer
# whose words hold 4 or 2 of them, little-endian, as on the GPU; the array comes back in its own dtype and shape.
_SMALL = {np.dtype(t) for t in (np.uint8, np.int8, np.bool_, np.uint16, np.int16, np.float16)}


def _packed(dtype: np.dtype, shape: Tuple[int, ...], what: str) -> Tuple[int, ...]:
    """The u32 buffer's shape for a C-ordered array of 8- or 16-bit ``dtype``: its last dimension in words."""
    per = 4 // dtype.itemsize
    shape = tuple(shape) or (1,)
    if shape[-1] % per:
        raise ValueError(
            f"{what}: a {dtype} array is held {per} elements to a 32-bit word, so its last dimension ({shape[-1]}) "
            f"must be a multiple of {per}: pad it (e.g. numpy.pad) and pass the length as a parameter"
        )
    return shape[:-1] + (shape[-1] // per,)


def _elem_of(dtype: Any, what: str) -> str:
    try:
        d = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"{what}: `{dtype!r}` is not a NumPy dtype") from None
    elem = _ELEMS.get(d)
    if elem is None:
        names = ", ".join(str(t) for t in _DTYPES.values())
        raise ValueError(f"{what}: dtype {d} is not one warpsim simulates (it has {names})")
    return elem


def programs() -> Dict[str, str]:
    """The shipped programs: name -> description."""
    return dict(_native.programs())


def default_config() -> Dict[str, Any]:
    """The default machine configuration (an H100-class GPU) as a dict, the form ``config=`` takes."""
    return json.loads(_native.default_config())


def _looks_like_ptx(text: str) -> bool:
    return ".entry" in text and (".version" in text or ".target" in text)


class Program:
    """A program, assembled (warpsim assembly) or lowered (PTX), ready to :func:`run`."""

    def __init__(
        self,
        native: Any,
        outputs: Mapping[str, Tuple[str, Tuple[int, ...]]],
        views: Optional[Mapping[str, Tuple[np.dtype, Tuple[int, ...]]]] = None,
    ):
        self._native = native
        # PTX buffers bound here: name -> (element type, shape).
        self._shapes = dict(outputs)
        # Buffers of 8- or 16-bit elements: name -> (their dtype, the array's shape).
        self._views = dict(views or {})

    @property
    def name(self) -> str:
        return self._native.name

    @property
    def description(self) -> Optional[str]:
        return self._native.description

    @property
    def buffers(self) -> Dict[str, np.dtype]:
        """The global buffers: name -> NumPy dtype."""
        return {name: _DTYPES[elem] for name, elem in self._native.buffers}

    @property
    def params(self) -> Sequence[str]:
        return list(self._native.params)

    @property
    def warp_sizes(self) -> Tuple[int, int]:
        return tuple(self._native.warp_sizes)

    @property
    def is_ptx(self) -> bool:
        return self._native.is_ptx

    def __repr__(self) -> str:
        kind = "PTX kernel" if self.is_ptx else "program"
        return f"<warpsim {kind} {self.name!r}: buffers {list(self.buffers)}>"


ProgramLike = Union[str, "os.PathLike[str]", Program]


def load(
    program: ProgramLike,
    *,
    entry: Optional[str] = None,
    inputs: Optional[Mapping[str, Any]] = None,
    outputs: Optional[Mapping[str, Any]] = None,
    params: Optional[Mapping[str, Union[int, float]]] = None,
    sources: Optional[Mapping[str, str]] = None,
) -> Program:
    """Load ``program``: a shipped program's name, warpsim assembly text, PTX text, or a path to a ``.s``,
    ``.ptx`` or ``.cu`` file (``.cu`` needs nvcc; any other existing file is read as warpsim assembly). A PTX
    kernel's arguments are bound here, by name or position: arrays (``inputs``) and new buffers (``outputs``) to
    its pointers, ``params`` to its scalars; ``entry`` picks its kernel. ``sources`` (path -> text) are source
    files that its line information names. A program loaded from text is kept for the next load of the same
    text with the same bindings (the last 64)."""
    if isinstance(program, Program):
        return program
    inputs = dict(inputs or {})
    outputs = dict(outputs or {})
    params = dict(params or {})
    buffers = []
    shapes = {}
    views = {}
    for name, array in inputs.items():
        what = f"inputs[{name!r}]"
        a = _as_array(array, what)
        if a.dtype in _SMALL:
            if a.ndim > 1 and not a.flags.c_contiguous:
                raise ValueError(f"{what}: a {a.dtype} array must be C-ordered: numpy.ascontiguousarray(x)")
            views[str(name)] = (a.dtype, a.shape)
            shape = _packed(a.dtype, a.shape, what)
            shapes[str(name)] = ("u32", shape)
            buffers.append(f"{name}=u32[{'x'.join(str(n) for n in shape)}]")
            continue
        elem = _elem_of(a.dtype, what)
        shapes[str(name)] = (elem, a.shape)
        buffers.append(f"{name}={elem}[{'x'.join(str(n) for n in a.shape) or 1}]")
    for name, spec in outputs.items():
        if name in inputs:
            continue
        dtype, shape = _output_spec(name, spec)
        if dtype in _SMALL:
            views[str(name)] = (dtype, shape)
            shape = _packed(dtype, shape, f"outputs[{name!r}]")
            shapes[str(name)] = ("u32", shape)
            buffers.append(f"{name}=u32[{'x'.join(str(n) for n in shape)}]")
            continue
        elem = _elem_of(dtype, f"outputs[{name!r}]")
        shapes[str(name)] = (elem, shape)
        buffers.append(f"{name}={elem}[{'x'.join(str(n) for n in shape)}]")
    sets = [f"{name}=" for name in params]
    source_list = list((sources or {}).items())
    if isinstance(program, os.PathLike) or (
        isinstance(program, str)
        and "\n" not in program
        and (program.endswith((".s", ".ptx", ".cu")) or os.path.isfile(program))
    ):
        path = os.fspath(program)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"error: no file named `{path}`")
        kind, text, label = "file", path, path
    elif not isinstance(program, str):
        raise TypeError(f"program: expected a name, source text or a path, got {type(program).__name__}")
    elif "\n" in program or program.lstrip().startswith((".", "//")):
        if _looks_like_ptx(program):
            kind, text, label = "ptx", program, "<ptx>"
        else:
            kind, text, label = "source", program, "<source>"
    else:
        kind, text, label = "name", program, program
    try:
        if kind == "file":
            # (A file may change between launches: read it each time.)
            native = _native.load(kind, text, label, entry, buffers, sets, source_list)
        else:
            native = _load_text(kind, text, label, entry, tuple(buffers), tuple(sets), tuple(source_list))
    except _native.Error as e:
        _raise(e)
    # A warpsim program declares its buffers (`.buffer`): the shapes only say how to return them.
    return Program(native, shapes, views)


@functools.lru_cache(maxsize=64)
def _load_text(
    kind: str,
    text: str,
    label: str,
    entry: Optional[str],
    buffers: Tuple[str, ...],
    sets: Tuple[str, ...],
    sources: Tuple[Tuple[str, str], ...],
) -> Any:
    """A program loaded from text (or a shipped name), kept for the next launch of the same text with the same
    bindings: a notebook or a Numba kernel launched in a loop parses and lowers its PTX once. (A loaded program is
    immutable; errors are not kept.)"""
    return _native.load(kind, text, label, entry, list(buffers), list(sets), list(sources))


def _as_array(value: Any, what: str) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(value)
    except Exception as e:  # noqa: BLE001 - any conversion failure is the caller's bad input
        raise ValueError(f"{what}: not an array: {e}") from None


def _output_spec(name: str, spec: Any) -> Tuple[np.dtype, Tuple[int, ...]]:
    """``(dtype, length)`` or ``(dtype, shape)`` of an output."""
    what = f"outputs[{name!r}]"
    if isinstance(spec, np.ndarray):
        return spec.dtype, spec.shape
    if not (isinstance(spec, tuple) and len(spec) == 2):
        raise ValueError(f"{what}: expected (dtype, length) or (dtype, shape), e.g. (numpy.float32, 1024)")
    dtype, shape = spec
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not shape or not all(isinstance(n, (int, np.integer)) and n >= 0 for n in shape):
        raise ValueError(f"{what}: the shape {spec[1]!r} is not a length or a tuple of lengths")
    return np.dtype(dtype), tuple(int(n) for n in shape)


def _dim(value: Any, what: str) -> Optional[Tuple[int, int, int]]:
    if value is None:
        return None
    dims = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or not all(isinstance(n, (int, np.integer)) and n >= 1 for n in dims):
        raise ValueError(f"{what}: expected 1 to 3 positive whole numbers (x first, as CUDA's dim3), got {value!r}")
    dims = tuple(int(n) for n in dims) + (1,) * (3 - len(dims))
    if any(n >= 2**32 for n in dims):
        raise ValueError(f"{what}: {value!r} is too large")
    return dims


def run(
    program: ProgramLike,
    *,
    grid: Any = None,
    block: Any = None,
    inputs: Optional[Mapping[str, Any]] = None,
    outputs: Optional[Mapping[str, Any]] = None,
    params: Optional[Mapping[str, Union[int, float]]] = None,
    warp_size: Optional[int] = None,
    config: Optional[Union[Mapping[str, Any], str, "os.PathLike[str]"]] = None,
    trace: bool = False,
    checks: Optional[str] = None,
    entry: Optional[str] = None,
    dynamic_shared: Optional[int] = None,
    max_cycles: Optional[int] = None,
    max_instructions: Optional[int] = None,
    max_trace_events: int = 1_000_000,
    threads: int = 0,
    sources: Optional[Mapping[str, str]] = None,
) -> "Result":
    """Run ``program`` and return its :class:`Result`.

    - ``program``: a shipped program's name (``"butterfly_max"``), warpsim assembly text, PTX text, a path
      (``.s``, ``.ptx``, ``.cu``), or a :class:`Program`.
    - ``grid``, ``block``: the launch's shape, an int or a tuple (x first); None keeps the program's ``.grid`` and
      ``.block``.
    - ``inputs``: buffer name -> array, its initial contents (the same dtype and number of elements as the
      buffer); for PTX, also binds the pointer argument of that name (or position) to a new buffer.
    - ``outputs``: for PTX, pointer argument -> ``(dtype, length or shape)``, a new zeroed buffer; for any
      program, which buffers the result's ``outputs`` hold (default: every buffer).
    - ``params``: parameter -> value (``.param`` of a warpsim program; a PTX kernel's scalar arguments).
    - ``warp_size``: lanes per warp (2 to 64, default 32); ``config``: a configuration dict (see
      :func:`default_config`), JSON text, or a JSON file's path.
    - ``trace``: record every event (the trace, the pictures); ``checks``: sanitizers, as ``sim run --check``
      (``"race"``, ``"sync"``, ``"all"``...), and ``"scheduling"``: the kernel run again under the other warp
      scheduling and the results compared (:class:`SchedulingError` if they differ).
    """
    inputs = dict(inputs or {})
    outputs_given = outputs is not None
    prog = load(program, entry=entry, inputs=inputs, outputs=outputs, params=params, sources=sources)
    declared = prog._native.buffers
    by_name = dict(declared)
    contents = []
    for name, value in inputs.items():
        if name not in by_name:
            known = ", ".join(f"`{n}`" for n, _ in declared) or "none"
            raise ValueError(f"inputs[{name!r}]: the program has no buffer `{name}` (its buffers: {known})")
        a = _as_array(value, f"inputs[{name!r}]")
        want = _DTYPES[by_name[name]]
        if name in prog._views and a.dtype == prog._views[name][0] and by_name[name] == "u32":
            # 8- or 16-bit elements, packed into the buffer's words as they lie in memory.
            contents.append((name, np.ascontiguousarray(a).tobytes()))
            continue
        if a.dtype != want:
            raise ValueError(
                f"inputs[{name!r}]: dtype {a.dtype}, but buffer `{name}` holds {by_name[name]} ({want}); "
                f"convert it: `x.astype(numpy.{want})`"
            )
        contents.append((name, np.ascontiguousarray(a).tobytes()))
    if outputs_given:
        for name in outputs:
            if name not in by_name:
                known = ", ".join(f"`{n}`" for n, _ in declared) or "none"
                raise ValueError(f"outputs[{name!r}]: the program has no buffer `{name}` (its buffers: {known})")
            elem = prog._shapes.get(name, (by_name[name], None))[0]
            if elem != by_name[name]:
                want = _DTYPES[by_name[name]]
                raise ValueError(
                    f"outputs[{name!r}]: dtype {_DTYPES[elem]}, but buffer `{name}` holds {by_name[name]} ({want})"
                )
    config_text = _config_text(config)
    param_list = []
    for name, value in (params or {}).items():
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"params[{name!r}]: expected an int or a float, got {value!r}")
        param_list.append((str(name), value.item() if isinstance(value, np.generic) else value))
    try:
        native = _native.run(
            prog._native,
            warp_size=warp_size,
            grid=_dim(grid, "grid"),
            block=_dim(block, "block"),
            params=param_list,
            contents=contents,
            config=config_text,
            trace=bool(trace),
            checks=checks,
            max_cycles=max_cycles,
            max_instructions=max_instructions,
            max_trace_events=max_trace_events,
            dynamic_shared=dynamic_shared,
            threads=threads,
        )
    except _native.Error as e:
        _raise(e)
    # What the kernel's printf calls printed, printed as a GPU program's are (when the launch is done).
    if native.stdout:
        sys.stdout.write(native.stdout)
    shapes = {name: shape for name, (_, shape) in prog._shapes.items()}
    for name, value in inputs.items():
        shapes.setdefault(name, np.shape(value))
    wanted = list(outputs) if outputs_given else [n for n, _ in declared]
    lengths = {n: length for n, _, length in native.buffers}
    for name in wanted:
        shape = shapes.get(name)
        if shape is not None and int(math.prod(shape)) != lengths[name]:
            raise ValueError(
                f"outputs[{name!r}]: shape {tuple(shape)} has {int(math.prod(shape))} elements, but buffer `{name}` "
                f"has {lengths[name]}"
            )
    return Result(native, prog, shapes, wanted)


def _config_text(config: Any) -> Optional[str]:
    if config is None:
        return None
    if isinstance(config, Mapping):
        return json.dumps(config)
    if isinstance(config, os.PathLike) or (isinstance(config, str) and not config.lstrip().startswith("{")):
        path = os.fspath(config)
        with open(path, encoding="utf-8") as f:
            return f.read()
    if isinstance(config, str):
        return config
    raise TypeError(f"config: expected a dict, JSON text or a path, got {type(config).__name__}")


class Result:
    """A finished run: ``outputs`` (name -> NumPy array), ``buffers`` (every buffer), ``cycles``, ``stats``,
    ``trace`` (a list of event dicts when run with ``trace=True``), ``findings`` (the sanitizers'), and its
    pictures: :meth:`svg` (the lane exchanges), :meth:`html` (the trace stepper), :meth:`text`. In Jupyter a
    result shows itself: the statistics, the picture and the stepper."""

    def __init__(self, native: Any, program: Program, shapes: Mapping[str, Tuple[int, ...]], wanted: Sequence[str]):
        self._native = native
        self.program = program
        self._shapes = dict(shapes)
        self._wanted = list(wanted)
        self._buffers: Dict[str, np.ndarray] = {}
        self._summary: Optional[Dict[str, Any]] = None

    def _array(self, name: str) -> np.ndarray:
        if name not in self._buffers:
            elems = {n: e for n, e, _ in self._native.buffers}
            data = self._native.buffer(name)
            view = self.program._views.get(name)
            if view is not None and elems[name] == "u32":
                # (The buffer's words as the 8- or 16-bit elements they hold, in the array's shape.)
                a = np.frombuffer(data, dtype=view[0]).copy()
                if int(math.prod(view[1])) == a.size:
                    a = a.reshape(view[1])
                self._buffers[name] = a
                return a
            a = np.frombuffer(data, dtype=_DTYPES[elems[name]]).copy()
            shape = self._shapes.get(name)
            if shape is not None and int(math.prod(shape)) == a.size:
                a = a.reshape(shape)
            self._buffers[name] = a
        return self._buffers[name]

    @property
    def outputs(self) -> Dict[str, np.ndarray]:
        return {name: self._array(name) for name in self._wanted}

    @property
    def buffers(self) -> Dict[str, np.ndarray]:
        return {name: self._array(name) for name, _, _ in self._native.buffers}

    def __getitem__(self, name: str) -> np.ndarray:
        return self._array(name)

    @property
    def cycles(self) -> int:
        return self._native.cycles

    @property
    def stdout(self) -> str:
        """What the kernel's ``printf`` calls printed (also written to ``sys.stdout`` when the launch ends)."""
        return self._native.stdout

    @property
    def printed(self) -> list:
        """Each ``printf`` call: a dict of ``cycle``, ``block``, ``warp``, ``lane`` and ``text``, in order."""
        keys = ("cycle", "block", "warp", "lane", "text")
        return [dict(zip(keys, p)) for p in self._native.printed]

    def _doc(self) -> Dict[str, Any]:
        if self._summary is None:
            self._summary = json.loads(self._native.document())
        return self._summary

    @property
    def stats(self) -> Dict[str, Any]:
        """``sim run --format json``'s statistics: instructions, IPC, shuffles, divergence, bank conflicts,
        L1 hits, stall breakdowns, and per instruction (``lines``) the cycles it cost."""
        return self._doc()["stats"]

    @property
    def trace(self) -> Optional[list]:
        """Every event of a traced run (``trace=True``), as ``sim run --format json --trace`` gives them."""
        doc = json.loads(self._native.document(trace=True))
        return doc.get("trace")

    @property
    def findings(self) -> list:
        return list(self._native.findings())

    @property
    def unordered_read(self) -> Optional[str]:
        """A likely missing barrier: a shared read of a word another warp wrote since their last barrier."""
        return self._native.unordered()

    @property
    def traced(self) -> bool:
        return self._native.traced

    def text(self, width: int = 100) -> str:
        """``sim run --trace``'s text: the trace and the lane grid (when traced), the summary and statistics."""
        return self._native.text(width)

    def svg(self) -> str:
        """The lane-exchange picture of a traced run (SVG)."""
        try:
            return self._native.svg()
        except _native.Error as e:
            _raise(e)

    def html(self) -> str:
        """The trace stepper of a traced run, a standalone HTML page."""
        try:
            return self._native.html()
        except _native.Error as e:
            _raise(e)

    @property
    def picture(self) -> "Picture":
        """The lane-exchange picture, an object Jupyter displays as SVG."""
        return Picture(self.svg())

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the picture (``.svg``) or the stepper (``.html``)."""
        path = os.fspath(path)
        text = self.svg() if path.endswith(".svg") else self.html()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def stats_table(self) -> str:
        """The main statistics as an HTML table."""
        s = self.stats
        rows = [
            ("cycles", s["cycles"]),
            ("warp instructions", s["warp_instructions"]),
            ("lane instructions", s["lane_instructions"]),
            ("IPC", f"{s['ipc']:.3f}"),
            ("shuffles", s["shuffles"]),
            ("divergent branches", s["divergent_branches"]),
            ("shared accesses", s["shared_accesses"]),
            ("bank conflicts", f"{s['bank_conflicts']} ({s['bank_conflict_cycles']} cycles)"),
            ("atomics", s["atomics"]),
            ("barriers", s["barriers"]),
            ("L1 hits / misses", f"{s['l1_hits']} / {s['l1_misses']}"),
            ("warps", s["warp_count"]),
            ("dead code (warp instructions)", s["dead_instructions"]),
        ]
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{_html.escape(str(v))}</td></tr>" for k, v in rows)
        return f"<table class='warpsim-stats'>{body}</table>"

    def _repr_html_(self) -> str:
        parts = [f"<p><b>warpsim</b>: <code>{_html.escape(self.program.name)}</code>, {self.cycles} cycles</p>"]
        parts.append(self.stats_table())
        for f in self.findings:
            parts.append(f"<pre style='color:#b00'>{_html.escape(f)}</pre>")
        if self.traced:
            parts.append(self.svg())
            page = _html.escape(self.html(), quote=True)
            parts.append(
                f"<iframe srcdoc=\"{page}\" style='width:100%;height:560px;border:1px solid #ccc' "
                "title='warpsim trace stepper'></iframe>"
            )
        return "\n".join(parts)

    def __repr__(self) -> str:
        outs = ", ".join(f"{k}: {v.dtype}{list(v.shape)}" for k, v in self.outputs.items())
        return f"<warpsim.Result {self.program.name!r}: {self.cycles} cycles; {outs}>"


class Picture:
    """An SVG picture that Jupyter displays inline."""

    def __init__(self, svg: str):
        self.data = svg

    def _repr_svg_(self) -> str:
        return self.data

    def __str__(self) -> str:
        return self.data
