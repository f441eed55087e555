//! `warpsim._native`: the library's front door ([`warpsim::Machine`], [`warpsim::ptx`], the renderers) for the
//! `warpsim` Python package. The package's Python code (`python/warpsim`) checks arrays and shapes and makes
//! NumPy arrays; this module loads programs, runs them and renders results. Every error reaches Python as
//! `_native.Error(kind, message, details)`, which the package raises as its own exception classes.

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;
use warpsim::render;
use warpsim::{Config, Contents, Dim3, Event, Fault, Kernel, Launch, Machine, RunOptions, RunOutput, TraceBuffer};
use warpsim_isa::Value;

pyo3::create_exception!(
    _native,
    Error,
    PyException,
    "A warpsim error: args are (kind, message, details); the package raises it as its own class."
);

/// The error of `kind` (`assemble`, `launch`, `config`, `fault`, `usage`) with its rendered `message`.
fn error(kind: &str, message: impl Into<String>) -> PyErr {
    Error::new_err((kind.to_string(), message.into(), None::<Py<PyDict>>))
}

/// A program, assembled or lowered from PTX, ready to launch.
#[pyclass(frozen, module = "warpsim._native")]
struct Program {
    inner: warpsim_isa::Program,
    /// Its last launch's kernel (decoded code, buffers taken out), reused by a launch that differs only in its
    /// buffers' contents: a notebook or a benchmark launches the same kernel on new arrays again and again.
    last: std::sync::Mutex<Option<(LaunchKey, Arc<Kernel>)>>,
}

/// Everything besides the buffers' contents that makes a launch's kernel: the machine, the shape, the parameter
/// overrides (a float by its bits: 0.0 and -0.0 are different launches) and the dynamic shared memory.
#[derive(PartialEq)]
struct LaunchKey {
    config: Option<String>,
    warp_size: Option<u32>,
    grid: Option<(u32, u32, u32)>,
    block: Option<(u32, u32, u32)>,
    params: Vec<(String, bool, u64)>,
    dynamic_shared: Option<u32>,
}

#[pymethods]
impl Program {
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    #[getter]
    fn description(&self) -> Option<&str> {
        self.inner.description.as_deref()
    }

    /// The global buffers: (name, element type) in declaration order.
    #[getter]
    fn buffers(&self) -> Vec<(String, &'static str)> {
        self.inner
            .buffers
            .iter()
            .map(|b| (b.name.clone(), b.elem.name()))
            .collect()
    }

    /// The parameters' names.
    #[getter]
    fn params(&self) -> Vec<String> {
        self.inner.params.iter().map(|p| p.name.clone()).collect()
    }

    /// The smallest and largest warp size the program runs at.
    #[getter]
    fn warp_sizes(&self) -> (u32, u32) {
        self.inner.warp_sizes
    }

    /// Whether it was lowered from PTX.
    #[getter]
    fn is_ptx(&self) -> bool {
        self.inner.ptx.is_some()
    }

    /// The instructions as written (warpsim's text; PTX lowered), one per line.
    fn listing(&self) -> String {
        self.inner
            .instructions
            .iter()
            .map(|i| format!("{}\n", i.text))
            .collect()
    }
}

/// Load a program. `kind`: `name` (a shipped program), `source` (warpsim assembly text, called `label`), `ptx`
/// (PTX text, called `label`; source files looked for beside that path) or `file` (a `.s`, `.ptx` or `.cu`
/// path). PTX arguments are bound by `buffers` (`NAME=TYPE[SHAPE]`) and `sets` (`NAME=NAME`), by name or position;
/// `sources` (path, text) are source files the PTX's `.loc`s name (a Numba kernel's Python file).
#[pyfunction]
#[allow(clippy::needless_pass_by_value, reason = "PyO3 extracts arguments as owned values")]
#[pyo3(signature = (kind, text, label, entry=None, buffers=Vec::new(), sets=Vec::new(), sources=Vec::new()))]
fn load(
    kind: &str,
    text: &str,
    label: &str,
    entry: Option<String>,
    buffers: Vec<String>,
    sets: Vec<String>,
    sources: Vec<(String, String)>,
) -> PyResult<Program> {
    let args = warpsim::ptx::Arguments {
        entry,
        buffers,
        sets,
        syntax: warpsim::ptx::Syntax::Python,
    };
    let assemble = |e: warpsim_isa::AssembleError| error("assemble", e.render(false));
    let inner = match kind {
        "name" => match warpsim::programs::assemble(text) {
            Some(p) => p.map_err(assemble)?,
            None => {
                let names = warpsim::programs::names();
                let hint = warpsim_isa::diagnostic::closest(text, names.iter().copied())
                    .map(|s| format!("\n  help: did you mean `{s}`?"))
                    .unwrap_or_else(|| "\n  help: warpsim.programs() lists the shipped programs".into());
                return Err(error(
                    "usage",
                    format!("error: no shipped program named `{text}`{hint}"),
                ));
            }
        },
        "source" => warpsim_isa::parse(label, text, &warpsim::programs::Resolver).map_err(assemble)?,
        "ptx" => warpsim::ptx::load_text(label, text, &args, &sources, false).map_err(|m| error("assemble", m))?,
        "file" if warpsim::ptx::is_ptx_or_cuda(text) => {
            warpsim::ptx::load(text, &args, false).map_err(|m| error("assemble", m))?
        }
        "file" => {
            let path = std::path::Path::new(text);
            let source = warpsim_isa::read_source(path).map_err(|e| error("usage", format!("error: {e}")))?;
            warpsim_isa::parse(text, &source, &warpsim::programs::Resolver).map_err(assemble)?
        }
        other => return Err(error("usage", format!("error: unknown program kind `{other}`"))),
    };
    Ok(Program {
        inner,
        last: std::sync::Mutex::new(None),
    })
}

/// The shipped programs: (name, description).
#[pyfunction]
fn programs() -> Vec<(String, String)> {
    warpsim::programs::described()
        .into_iter()
        .map(|(n, d)| (n.to_string(), d.unwrap_or_default()))
        .collect()
}

/// The default configuration (an H100-class GPU, `hopper`) as JSON, `sim config`'s text.
#[pyfunction]
fn default_config() -> String {
    serde_json::to_string_pretty(&Config::hopper()).unwrap_or_default()
}

/// A parameter's value from Python: an int (from -2^63 to 2^64 - 1) or a float.
#[derive(FromPyObject)]
enum Number {
    Int(i64),
    /// An int from 2^63 on (what Numba types `uint64`): its 64 bits, which a 64-bit parameter holds.
    UInt(u64),
    Float(f64),
}

/// A finished run: the kernel, its result and its trace, rendered on demand.
#[pyclass(frozen, module = "warpsim._native")]
struct Run {
    kernel: Arc<Kernel>,
    output: RunOutput,
    events: Option<Vec<Event>>,
    dropped: u64,
    banks: u32,
}

#[pymethods]
impl Run {
    #[getter]
    fn cycles(&self) -> u64 {
        self.output.cycles
    }

    /// Every global buffer: (name, element type, length).
    #[getter]
    fn buffers(&self) -> Vec<(String, &'static str, usize)> {
        self.output
            .buffers
            .iter()
            .map(|b| (b.name.clone(), b.elem.name(), b.len()))
            .collect()
    }

    /// Buffer `name`'s final contents as little-endian bytes, or None.
    fn buffer<'py>(&self, py: Python<'py>, name: &str) -> Option<Bound<'py, PyBytes>> {
        let b = self.output.buffer(name)?;
        Some(PyBytes::new(
            py,
            &warpsim::data::encode(warpsim::data::Format::Bin, b.elem, &b.data),
        ))
    }

    /// The run as `sim run --format json` writes it (docs/run.schema.json): the buffers only with `buffers`, the
    /// trace only with `trace` (and when recorded).
    #[pyo3(signature = (buffers=false, trace=false))]
    fn document(&self, buffers: bool, trace: bool) -> String {
        let events = if trace { self.events.as_deref() } else { None };
        let mut doc = render::json::Document::new(&self.kernel, Ok(&self.output), events);
        if !buffers {
            doc.omit_buffers();
        }
        if self.dropped > 0 {
            doc.note_dropped_events(self.dropped);
        }
        serde_json::to_string(&doc).unwrap_or_default()
    }

    /// The sanitizers' findings, rendered.
    fn findings(&self) -> Vec<String> {
        self.output
            .findings
            .iter()
            .map(|f| f.render(&self.kernel, false))
            .collect()
    }

    /// A likely missing barrier (a shared read of a word another warp wrote since the last barrier), rendered.
    fn unordered(&self) -> Option<String> {
        self.output.unordered.as_ref().map(|u| u.render(&self.kernel, false))
    }

    /// `sim run --trace`'s text: the header, the trace and its lane grid when traced, the summary and the stats.
    fn text(&self, width: usize) -> String {
        let width = width.max(render::MIN_WIDTH);
        let mut out = render::text::header(&self.kernel);
        if let Some(events) = &self.events {
            out.push_str(&render::text::trace(&self.kernel, events, width));
            out.push_str(&render::grid::grid(&self.kernel, events, width));
            out.push('\n');
        }
        out.push_str(&render::text::summary(&self.output, width));
        out.push_str(&render::text::stats(&self.output));
        out
    }

    /// The lane-exchange picture (SVG) of a traced run.
    fn svg(&self) -> PyResult<String> {
        let events = self.events()?;
        let opts = render::svg::SvgOptions {
            banks: self.banks,
            ..render::svg::SvgOptions::default()
        };
        render::svg::diagram(&self.kernel, events, &opts).map_err(|e| error("usage", format!("error: {e}")))
    }

    /// The trace stepper (a standalone HTML page) of a traced run.
    fn html(&self) -> PyResult<String> {
        let events = self.events()?;
        Ok(render::html::stepper(
            &self.kernel,
            events,
            Ok(self.output.cycles),
            self.dropped,
            self.banks,
            &self.output.lines,
        ))
    }

    /// What the run's `printf`s printed, as the program would print it on a GPU (`sim run`'s text).
    #[getter]
    fn stdout(&self) -> String {
        render::text::printed(&self.output)
    }

    /// Each `printf` call's text: (cycle, block, warp, lane, text), in the order of `stdout`.
    #[getter]
    fn printed(&self) -> Vec<(u64, u32, u32, u32, String)> {
        self.output
            .printed
            .iter()
            .map(|p| (p.cycle, p.block, p.warp, p.lane, p.text.clone()))
            .collect()
    }

    /// Whether the run was traced (its events kept).
    #[getter]
    fn traced(&self) -> bool {
        self.events.is_some()
    }

    /// Events not recorded past the trace limit.
    #[getter]
    fn dropped_events(&self) -> u64 {
        self.dropped
    }
}

impl Run {
    fn events(&self) -> PyResult<&[Event]> {
        self.events.as_deref().ok_or_else(|| {
            error(
                "usage",
                "error: this run was not traced\n  help: run it with trace=True to draw it",
            )
        })
    }
}

/// The configuration: `config` (JSON, `sim config`'s form) or the default, at `warp_size`.
fn machine(config: Option<&str>, warp_size: Option<u32>) -> PyResult<Machine> {
    let mut c: Config = match config {
        None => Config::hopper(),
        Some(text) => serde_json::from_str(text).map_err(|e| {
            error(
                "config",
                format!(
                    "error: invalid configuration: {e}\n  help: warpsim.default_config() is a valid one to start from"
                ),
            )
        })?,
    };
    if let Some(w) = warp_size {
        c.warp_size = w;
    }
    Machine::new(c).map_err(|e| {
        error(
            "config",
            format!("error: {e}\n  help: warp sizes are powers of two from 2 to 64"),
        )
    })
}

/// A fault as an error whose details name where it happened.
fn fault_error(py: Python<'_>, kernel: &Kernel, fault: &Fault) -> PyErr {
    let message = fault.report(kernel, false);
    let details = PyDict::new(py);
    let inst = kernel.program.instructions.get(fault.pc as usize);
    let set = || -> PyResult<()> {
        details.set_item("what", fault.message())?;
        details.set_item("block", kernel.block_name(fault.block))?;
        details.set_item("warp", fault.warp)?;
        details.set_item("lane", fault.lane)?;
        details.set_item("pc", fault.pc)?;
        details.set_item("cycle", fault.cycle)?;
        details.set_item("instruction", inst.map(|i| i.text.clone()))?;
        let at = inst.map(|i| kernel.program.sources.location(i.span));
        details.set_item("file", at.map(|l| l.file.to_string()))?;
        details.set_item("line", at.map(|l| l.line))?;
        details.set_item("column", at.map(|l| l.col))?;
        let origin = inst.and_then(|i| i.origin.as_ref());
        details.set_item("source_file", origin.map(|o| o.file.clone()))?;
        details.set_item("source_line", origin.map(|o| o.line))?;
        Ok(())
    };
    if let Err(e) = set() {
        return e;
    }
    Error::new_err(("fault".to_string(), message, details.unbind()))
}

/// Run `program`. `grid`/`block`: (x, y, z) or None for the program's own; `params`: (name, value);
/// `contents`: (buffer, little-endian bytes of exactly its elements); `config`: JSON or None; `checks`: `sim run
/// --check`'s words (`race`, `sync`, `all`…).
#[pyfunction]
#[pyo3(signature = (program, warp_size=None, grid=None, block=None, params=Vec::new(), contents=Vec::new(),
    config=None, trace=false, checks=None, max_cycles=None, max_instructions=None, max_trace_events=1_000_000,
    dynamic_shared=None, threads=0))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments, each optional")]
fn run(
    py: Python<'_>,
    program: &Program,
    warp_size: Option<u32>,
    grid: Option<(u32, u32, u32)>,
    block: Option<(u32, u32, u32)>,
    params: Vec<(String, Number)>,
    contents: Vec<(String, Vec<u8>)>,
    config: Option<&str>,
    trace: bool,
    checks: Option<&str>,
    max_cycles: Option<u64>,
    max_instructions: Option<u64>,
    max_trace_events: usize,
    dynamic_shared: Option<u32>,
    threads: usize,
) -> PyResult<Run> {
    let machine = machine(config, warp_size)?;
    let p = &program.inner;
    let mut data = Vec::with_capacity(contents.len());
    for (name, bytes) in contents {
        let k = warpsim::kernel::find_buffer(p, &name).map_err(|m| error("usage", format!("error: {m}")))?;
        let elem = p.buffers[k].elem;
        let words = warpsim::data::decode(warpsim::data::Format::Bin, &bytes, elem)
            .map_err(|e| error("usage", format!("error: the array for `{name}`: {e}")))?;
        data.push(Contents {
            buffer: name,
            data: words,
            origin: "the array".into(),
        });
    }
    let dim = |d: (u32, u32, u32)| Dim3::new(d.0, d.1, d.2);
    let launch = Launch {
        grid: grid.map(dim),
        block: block.map(dim),
        set: params
            .into_iter()
            .map(|(n, v)| {
                let v = match v {
                    Number::Int(i) => Value::Int(i),
                    Number::UInt(u) => Value::Int(u.cast_signed()),
                    Number::Float(f) => Value::Float(f),
                };
                (n, v)
            })
            .collect(),
        dynamic_shared,
        contents: data,
    };
    let key = LaunchKey {
        config: config.map(str::to_string),
        warp_size,
        grid,
        block,
        params: launch
            .set
            .iter()
            .map(|(n, v)| match v {
                Value::Int(i) => (n.clone(), false, i.cast_unsigned()),
                Value::Float(f) => (n.clone(), true, f.to_bits()),
            })
            .collect(),
        dynamic_shared,
    };
    let launch_error = |e: warpsim::LoadError| error("launch", e.render(p, false));
    let last = program.last.lock().ok().and_then(|l| {
        l.as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, kernel)| Arc::clone(kernel))
    });
    let (kernel, memory) = match last {
        Some(kernel) => {
            let memory = kernel.buffers_for(&launch).map_err(launch_error)?;
            (kernel, memory)
        }
        None => {
            let mut kernel = machine.load(p, &launch).map_err(launch_error)?;
            let memory = kernel.take_buffers();
            let kernel = Arc::new(kernel);
            if let Ok(mut l) = program.last.lock() {
                *l = Some((key, Arc::clone(&kernel)));
            }
            (kernel, memory)
        }
    };
    drop(launch);
    // `scheduling` (in `all` too): the run again under the other warp scheduling, from the same buffers.
    let (checks, scheduling) = match checks {
        None => (warpsim::Checks::default(), false),
        Some(text) => {
            warpsim::Checks::parse_with_scheduling(text).map_err(|e| error("usage", format!("error: checks: {e}")))?
        }
    };
    // (A program declaring `.scheduling its` has no lockstep behaviour to compare with.)
    let scheduling = scheduling && kernel.program.scheduling != Some(warpsim::Scheduling::Its);
    let initial = scheduling.then(|| memory.clone());
    let defaults = RunOptions::default();
    let options = RunOptions {
        max_cycles: max_cycles.unwrap_or(defaults.max_cycles),
        max_instructions: max_instructions.unwrap_or(defaults.max_instructions),
        checks,
        threads,
        profile: true,
        ..defaults
    };
    let banks = machine.config().shared_banks;
    let (result, buffer) = py.detach(|| {
        let mut buffer = TraceBuffer::with_limit(max_trace_events);
        let result = if trace {
            machine.run_on(&kernel, memory, &options, &mut buffer)
        } else {
            machine.run_on(&kernel, memory, &options, &mut warpsim::NoTrace)
        };
        (result, buffer)
    });
    if let (Ok(_), Some(initial)) = (&result, initial) {
        let plain = RunOptions {
            profile: false,
            ..options.clone()
        };
        if let Some(d) = py.detach(|| machine.scheduling_difference(&kernel, &initial, &plain)) {
            return Err(error("scheduling", format!("error: {}", d.message())));
        }
    }
    match result {
        Ok(output) => Ok(Run {
            kernel,
            output,
            events: trace.then_some(buffer.events),
            dropped: buffer.dropped,
            banks,
        }),
        Err(fault) => Err(fault_error(py, &kernel, &fault)),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Error", m.py().get_type::<Error>())?;
    m.add_class::<Program>()?;
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(programs, m)?)?;
    m.add_function(wrap_pyfunction!(default_config, m)?)?;
    Ok(())
}
