//! The real-GPU cross-check: run a program in warpsim and, translated to CUDA ([`crate::emit_cuda`]), on an
//! NVIDIA GPU; compare every buffer bit for bit and report both machines' cycles.
//!
//! This module holds everything that needs no GPU: preparing a case (instantiate at W = 32, simulate, translate),
//! comparing a GPU's results with the simulation, and the reports (text, JSON, Markdown). The GPU itself is
//! behind the [`Gpu`] trait; [`gpu::CudaGpu`] implements it with cudarc when the `cuda` feature is on.

#[cfg(feature = "cuda")]
pub mod gpu;
pub mod isolated;
pub mod ptx;

use crate::emit_cuda::{self, CudaKernel, Helpers};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use warpsim::RunOutput;
use warpsim::kernel::{Kernel, Launch};
use warpsim::{Config, RunOptions};
use warpsim::{Event, TraceSink};
use warpsim_isa::{ElemTy, Program};

/// NVRTC options: no multiply-add contraction (bit-exact floats), IEEE division, no flush to zero.
pub const NVRTC_OPTIONS: &str = "--fmad=false --prec-div=true --prec-sqrt=true --ftz=false";

/// At most this many kernels share one CUDA module (one NVRTC compilation).
pub const KERNELS_PER_MODULE: usize = 250;

/// A warpsim run still going after this many cycles is reported as a hang (no shipped or generated program
/// comes near it: the longest random programs take a few thousand).
pub const SIM_MAX_CYCLES: u64 = 2_000_000;

/// The error of a program that did not finish on the GPU.
pub fn hang_message() -> String {
    #[cfg(feature = "cuda")]
    let s = gpu::LAUNCH_TIMEOUT.as_secs();
    #[cfg(not(feature = "cuda"))]
    let s = 10;
    format!("hangs on the GPU: did not finish within {s} s")
}

/// A program ready to run on both machines.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub kernel: Kernel,
    pub cuda: CudaKernel,
    /// A program lowered from PTX runs its own PTX on the GPU (then `cuda` only names the entry).
    pub ptx: Option<ptx::PtxJob>,
    pub sim: RunOutput,
    /// The longest block, first issue to last exit, in the simulation (the GPU's `gpu_cycles` measures the same).
    pub sim_span: u64,
}

/// Prepare `program` for the cross-check under `launch`, naming its CUDA kernel `name`. An error is a reason
/// the program cannot be compared (it does not run at W = 32, it faults, or it reads undefined lanes).
pub fn prepare(program: &Program, launch: &Launch, name: &str) -> Result<Case, String> {
    prepare_with(program, launch, name, &Config::hopper())
}

/// [`prepare`], warpsim's side on the machine `config` (its warp size set to CUDA's 32): `sim crosscheck --config`,
/// which scores a changed model against a saved GPU run without rebuilding warpsim.
pub fn prepare_with(program: &Program, launch: &Launch, name: &str, config: &Config) -> Result<Case, String> {
    if !(program.warp_sizes.0..=program.warp_sizes.1).contains(&emit_cuda::CUDA_WARP) {
        return Err(format!(
            "does not run at W = 32 (`.warp_sizes {}..{}`), and CUDA warps have 32 lanes",
            program.warp_sizes.0, program.warp_sizes.1
        ));
    }
    let config = config.clone().with_warp_size(emit_cuda::CUDA_WARP);
    let kernel = warpsim::instantiate(program, &config, launch).map_err(|e| first_line(&e.render(program, false)))?;
    let mut spans = Spans::default();
    let options = RunOptions {
        max_cycles: SIM_MAX_CYCLES,
        threads: 1,
        ..RunOptions::default()
    };
    let sim = warpsim::run(&kernel, &config, &options, &mut spans).map_err(|f| {
        let what = if matches!(
            f.kind,
            warpsim::FaultKind::CycleLimit { .. } | warpsim::FaultKind::InstructionLimit { .. }
        ) {
            "hangs in warpsim"
        } else {
            "faults in warpsim"
        };
        format!("{what}: {}", first_line(&f.render(&kernel, false)))
    })?;
    if sim.stats.undefined_shuffle_reads > 0 {
        return Err(format!(
            "reads {} lane values that are undefined on hardware (shuffles from lanes that do not take part)",
            sim.stats.undefined_shuffle_reads
        ));
    }
    let (cuda, ptx) = match &program.ptx {
        None => (emit_cuda::emit(&kernel, name).map_err(|e| e.0)?, None),
        Some(source) => {
            let job = ptx::job(&kernel, source)?;
            let cuda = CudaKernel {
                name: source.entry.clone(),
                body: String::new(),
                helpers: Helpers::default(),
                dynamic_shared_bytes: launch.dynamic_shared.unwrap_or(0),
                clock_buffers: vec![false; kernel.buffers.len()],
            };
            (cuda, Some(job))
        }
    };
    Ok(Case {
        name: program.name.clone(),
        kernel,
        cuda,
        ptx,
        sim,
        sim_span: spans.longest(),
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").trim_start_matches("error: ").to_string()
}

/// Records each block's first issue and last warp exit.
#[derive(Default)]
struct Spans {
    blocks: Vec<(u64, u64)>,
}

impl Spans {
    fn at(&mut self, block: u32) -> &mut (u64, u64) {
        let b = block as usize;
        if self.blocks.len() <= b {
            self.blocks.resize(b + 1, (u64::MAX, 0));
        }
        &mut self.blocks[b]
    }

    fn longest(&self) -> u64 {
        self.blocks
            .iter()
            .filter(|(s, _)| *s != u64::MAX)
            .map(|(s, e)| e.saturating_sub(*s))
            .max()
            .unwrap_or(0)
    }
}

impl TraceSink for Spans {
    const ENABLED: bool = true;
    fn event(&mut self, event: Event) {
        match event {
            Event::Issue(i) => {
                let span = self.at(i.block);
                span.0 = span.0.min(i.cycle);
                span.1 = span.1.max(i.cycle);
            }
            Event::WarpExit { cycle, block, .. } => {
                let span = self.at(block);
                span.1 = span.1.max(cycle);
            }
            _ => {}
        }
    }
}

/// The CUDA source of one module holding `cases`.
pub fn module_source(cases: &[&Case]) -> String {
    let helpers = cases.iter().fold(Helpers::default(), |h, c| h.union(c.cuda.helpers));
    let mut s = format!(
        "// Generated by warpsim (`sim crosscheck`): {} kernel(s), compiled with {NVRTC_OPTIONS}.\n{}",
        cases.len(),
        emit_cuda::prelude(helpers)
    );
    for c in cases {
        s.push('\n');
        s.push_str(&c.cuda.body);
    }
    s
}

/// One kernel launch of a [`Job`]: everything the GPU side needs, without the simulator's state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LaunchJob {
    /// The `extern "C"` kernel name in the job's module.
    pub kernel: String,
    /// The grid's and the block's shapes, x, y, z (CUDA's `dim3`).
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared_bytes: u32,
    /// The initial buffers, in [`Kernel::buffers`] order.
    pub buffers: Vec<Vec<u32>>,
    /// A PTX kernel's parameters (then the clock array follows them); `None`: the CUDA translation's
    /// (every buffer, the clock array, `warpsim_zero`).
    pub args: Option<Vec<ptx::LaunchArg>>,
}

impl LaunchJob {
    pub fn of(case: &Case) -> LaunchJob {
        LaunchJob {
            kernel: case.cuda.name.clone(),
            grid: [case.kernel.grid_dim.x, case.kernel.grid_dim.y, case.kernel.grid_dim.z],
            block: [
                case.kernel.block_dim.x,
                case.kernel.block_dim.y,
                case.kernel.block_dim.z,
            ],
            dynamic_shared_bytes: case.cuda.dynamic_shared_bytes,
            buffers: case.kernel.buffers.iter().map(|b| b.data.clone()).collect(),
            args: case.ptx.as_ref().map(|p| p.args.clone()),
        }
    }
}

/// What a GPU worker process is given: one module and its launches, in order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Job {
    /// The CUDA module (NVRTC compiles it), or empty for a PTX module.
    pub source: String,
    /// A PTX program's module, loaded as it is (then `launches` has its one launch).
    pub ptx: Option<String>,
    pub launches: Vec<LaunchJob>,
}

impl Job {
    /// The job of `cases`: translated programs together, or one PTX program (see [`modules`]).
    pub fn of(cases: &[&Case]) -> Job {
        match cases.first().and_then(|c| c.ptx.as_ref()) {
            Some(p) => Job {
                source: String::new(),
                ptx: Some(p.text.clone()),
                launches: vec![LaunchJob::of(cases[0])],
            },
            None => Job {
                source: module_source(cases),
                ptx: None,
                launches: cases.iter().map(|c| LaunchJob::of(c)).collect(),
            },
        }
    }
}

/// `cases` split into GPU modules, each with the index of its first case: up to [`KERNELS_PER_MODULE`]
/// translated programs share one; a PTX program has its own (its module is its PTX).
pub fn modules(cases: &[Case]) -> Vec<(usize, &[Case])> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < cases.len() {
        let end = if cases[start].ptx.is_some() {
            start + 1
        } else {
            let run = cases[start..]
                .iter()
                .take(KERNELS_PER_MODULE)
                .take_while(|c| c.ptx.is_none())
                .count();
            start + run
        };
        out.push((start, &cases[start..end]));
        start = end;
    }
    out
}

/// One line a GPU worker writes: the device first, then the module, then one line per launch. After
/// `Hung` or `Failed` the worker has exited.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Answer {
    Info(GpuInfo),
    Compiled,
    ModuleFailed { error: String },
    Ran { index: usize, run: GpuRun },
    Hung { index: usize },
    Failed { index: usize, error: String },
}

/// What the GPU returned for one case.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuRun {
    /// Every buffer's final contents, in [`Kernel::buffers`] order.
    pub buffers: Vec<Vec<u32>>,
    /// Per block: the first start and last exit `clock64()` (of the first run).
    pub clocks: Vec<(u64, u64)>,
    /// When the kernel ran several times (`CudaGpu::launch`, feature `cuda`): each run's longest block, in GPU
    /// cycles.
    #[serde(default)]
    pub runs: Vec<u64>,
}

impl GpuRun {
    /// The longest block, in GPU cycles: of the one run, or the typical of several ([`typical_span`]).
    pub fn span(&self) -> u64 {
        if self.runs.is_empty() {
            self.clocks.iter().map(|(s, e)| e.saturating_sub(*s)).max().unwrap_or(0)
        } else {
            typical_span(&self.runs)
        }
    }
}

/// What several runs of one kernel took, as one figure: the mean of the middle half of their spans (the lowest
/// and the highest quarter left out, so that a stray slow run counts for nothing), rounded to the nearest cycle.
/// A small kernel's runs fall near two values, as its inputs lie near the SM in L2 or far from it; the mean of
/// the middle ones estimates the mean over placements, which the model prices (docs/timing.md).
pub fn typical_span(spans: &[u64]) -> u64 {
    let mut sorted = spans.to_vec();
    sorted.sort_unstable();
    let cut = sorted.len() / 4;
    let middle = &sorted[cut..sorted.len() - cut];
    if middle.is_empty() {
        return 0;
    }
    let sum: u128 = middle.iter().map(|&x| u128::from(x)).sum();
    let n = middle.len() as u128;
    u64::try_from((sum + n / 2) / n).unwrap_or(u64::MAX)
}

/// The machine a report was made on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GpuInfo {
    pub name: String,
    pub driver: String,
    /// `sm_90` and the like.
    pub arch: String,
    /// The ptxas that compiled the modules when it is not the driver's (`WARPSIM_PTXAS`): its version line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptxas: Option<String>,
}

/// A GPU that can compile and run translated programs.
pub trait Gpu {
    fn info(&self) -> &GpuInfo;
    /// Compile `cases` as one module and run each; the outer error is a failure of the whole module
    /// (compilation), the inner ones of single launches.
    fn run(&mut self, cases: &[&Case]) -> Result<Vec<Result<GpuRun, String>>, String>;
}

/// The first difference between the two machines' buffers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    pub buffer: String,
    pub index: usize,
    /// Elements that differ in this buffer.
    pub differing: usize,
    pub sim: String,
    pub gpu: String,
    pub sim_bits: String,
    pub gpu_bits: String,
}

/// A buffer that holds cycle-clock readings: shown side by side, not compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockValues {
    pub buffer: String,
    /// The first elements (at most 16).
    pub sim: Vec<u32>,
    pub gpu: Vec<u32>,
}

/// One program's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProgramReport {
    pub name: String,
    /// Which set it belongs to, for the cycle error of each set ([`CycleError`]): `shipped` (the shipped
    /// programs), `ptx` (a PTX launch), `file` (any other program named on the command line), `random`.
    #[serde(default)]
    pub set: String,
    #[serde(rename = "match")]
    pub matched: bool,
    /// Blocks and threads per block in all.
    pub grid: u32,
    pub block: u32,
    /// The launch's shapes (x, y, z).
    pub grid_shape: [u32; 3],
    pub block_shape: [u32; 3],
    /// The longest block on the GPU, first start to last exit (`clock64`).
    pub gpu_cycles: Option<u64>,
    /// The same span in warpsim.
    pub sim_cycles: Option<u64>,
    /// The whole run in warpsim, as `sim run` reports it.
    pub sim_run_cycles: Option<u64>,
    pub mismatch: Option<Mismatch>,
    /// Buffers written from `%clock`.
    pub clock_buffers: Vec<ClockValues>,
    /// Why it could not be compared.
    pub error: Option<String>,
    /// Where it hung, `gpu` or `warpsim` (then `error` says how).
    pub hang: Option<String>,
    /// What the GPU left in every buffer, in [`Kernel::buffers`] order (`sim crosscheck --save-buffers`).
    #[serde(skip)]
    pub gpu_buffers: Vec<Vec<u32>>,
}

impl ProgramReport {
    /// (warpsim − GPU) / GPU, for a program with both cycle counts.
    #[allow(clippy::cast_precision_loss, reason = "cycle counts, far below 2^52")]
    pub fn cycle_error(&self) -> Option<f64> {
        match (self.sim_cycles, self.gpu_cycles) {
            (Some(s), Some(g)) if g > 0 => Some((s as f64 - g as f64) / g as f64),
            _ => None,
        }
    }
}

/// A GPU span shorter than this many cycles is not compared: the compiler removed the timed work (a program
/// whose results are all dead, such as one that exits before its first store, runs nothing between its two
/// clock reads; random 314159 program 893 measures 2 cycles).
pub const MIN_GPU_SPAN: u64 = 20;

/// How close warpsim's cycles are to the GPU's over a set of programs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CycleError {
    pub set: String,
    /// Programs with both cycle counts.
    pub programs: u64,
    /// Programs left out because the GPU's span is under [`MIN_GPU_SPAN`].
    #[serde(default)]
    pub excluded: u64,
    /// The mean of |warpsim − GPU| / GPU.
    pub mean_abs_error: f64,
    /// The program with the largest |error|, and its error (signed).
    pub worst: String,
    pub worst_error: f64,
    /// Every program's |error|, in the set's order (not written to the report: [`Report::summarise`]
    /// recomputes it).
    #[serde(skip)]
    pub abs_errors: Vec<f64>,
    /// Cycles summed over the set, and warpsim's sum over the GPU's.
    pub gpu_cycles: u64,
    pub sim_cycles: u64,
    pub ratio: f64,
}

impl CycleError {
    /// How many programs' |error| exceeds `bound`.
    pub fn programs_over(&self, bound: f64) -> usize {
        self.abs_errors.iter().filter(|&&e| e > bound).count()
    }

    /// Over `programs`: (name, GPU cycles, warpsim cycles); `None` if none has a GPU figure.
    #[allow(clippy::cast_precision_loss, reason = "cycle counts, far below 2^52")]
    pub fn of<'a>(set: &str, programs: impl Iterator<Item = (&'a str, u64, u64)>) -> Option<CycleError> {
        let mut out = CycleError {
            set: set.to_string(),
            programs: 0,
            excluded: 0,
            mean_abs_error: 0.0,
            worst: String::new(),
            worst_error: 0.0,
            abs_errors: Vec::new(),
            gpu_cycles: 0,
            sim_cycles: 0,
            ratio: 0.0,
        };
        let mut sum = 0.0;
        for (name, gpu, sim) in programs {
            if gpu < MIN_GPU_SPAN {
                out.excluded += 1;
                continue;
            }
            let e = (sim as f64 - gpu as f64) / gpu as f64;
            sum += e.abs();
            out.abs_errors.push(e.abs());
            if out.programs == 0 || e.abs() > out.worst_error.abs() {
                out.worst = name.to_string();
                out.worst_error = e;
            }
            out.programs += 1;
            out.gpu_cycles += gpu;
            out.sim_cycles += sim;
        }
        if out.programs == 0 {
            return None;
        }
        out.mean_abs_error = sum / out.programs as f64;
        out.ratio = out.sim_cycles as f64 / out.gpu_cycles as f64;
        Some(out)
    }
}

impl ProgramReport {
    /// A program that could not be run on one of the machines.
    pub fn failed(name: &str, error: String) -> ProgramReport {
        ProgramReport {
            name: name.to_string(),
            matched: false,
            grid: 0,
            block: 0,
            grid_shape: [0; 3],
            block_shape: [0; 3],
            gpu_cycles: None,
            sim_cycles: None,
            sim_run_cycles: None,
            mismatch: None,
            clock_buffers: Vec::new(),
            hang: if error.starts_with("hangs on the GPU") {
                Some("gpu".into())
            } else if error.starts_with("hangs in warpsim") {
                Some("warpsim".into())
            } else {
                None
            },
            error: Some(error),
            gpu_buffers: Vec::new(),
            set: String::new(),
        }
    }
}

fn show(elem: ElemTy, bits: u32) -> String {
    match elem {
        ElemTy::F32 => format!("{:?}", f32::from_bits(bits)),
        ElemTy::S32 => bits.cast_signed().to_string(),
        ElemTy::U32 => bits.to_string(),
        // (Buffers are compared word by word: a 64-bit element is two.)
        ElemTy::F64 | ElemTy::S64 | ElemTy::U64 => format!("0x{bits:08x} (a word of a {} element)", elem.name()),
    }
}

/// Compare the GPU's buffers with warpsim's, bit for bit.
pub fn compare(case: &Case, gpu: &GpuRun) -> ProgramReport {
    let mut mismatch = None;
    let mut clock_buffers = Vec::new();
    for (i, b) in case.sim.buffers.iter().enumerate() {
        let theirs = gpu.buffers.get(i).map(Vec::as_slice).unwrap_or(&[]);
        if case.cuda.clock_buffers.get(i).copied().unwrap_or(false) {
            clock_buffers.push(ClockValues {
                buffer: b.name.clone(),
                sim: b.data.iter().take(16).copied().collect(),
                gpu: theirs.iter().take(16).copied().collect(),
            });
            continue;
        }
        if mismatch.is_some() {
            continue;
        }
        let differing = b.data.iter().zip(theirs).filter(|(a, g)| a != g).count() + b.data.len().abs_diff(theirs.len());
        if let Some(index) = (0..b.data.len().max(theirs.len())).find(|&k| b.data.get(k) != theirs.get(k)) {
            let sim_bits = b.data.get(index).copied();
            let gpu_bits = theirs.get(index).copied();
            let fmt = |v: Option<u32>| v.map(|v| show(b.elem, v)).unwrap_or_else(|| "(missing)".into());
            let bits = |v: Option<u32>| v.map(|v| format!("0x{v:08x}")).unwrap_or_else(|| "-".into());
            mismatch = Some(Mismatch {
                buffer: b.name.clone(),
                index,
                differing,
                sim: fmt(sim_bits),
                gpu: fmt(gpu_bits),
                sim_bits: bits(sim_bits),
                gpu_bits: bits(gpu_bits),
            });
        }
    }
    ProgramReport {
        matched: mismatch.is_none(),
        mismatch,
        clock_buffers,
        gpu_buffers: gpu.buffers.clone(),
        ..ProgramReport::of(case, gpu.span())
    }
}

impl ProgramReport {
    /// `case`'s report with the GPU's span `gpu_cycles` and warpsim's cycles, values matched.
    fn of(case: &Case, gpu_cycles: u64) -> ProgramReport {
        let k = &case.kernel;
        ProgramReport {
            name: case.name.clone(),
            set: String::new(),
            matched: true,
            grid: k.grid,
            block: k.block,
            grid_shape: [k.grid_dim.x, k.grid_dim.y, k.grid_dim.z],
            block_shape: [k.block_dim.x, k.block_dim.y, k.block_dim.z],
            gpu_cycles: Some(gpu_cycles),
            sim_cycles: Some(case.sim_span),
            sim_run_cycles: Some(case.sim.cycles),
            mismatch: None,
            clock_buffers: Vec::new(),
            error: None,
            hang: None,
            gpu_buffers: Vec::new(),
        }
    }
}

/// The random batch's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomReport {
    pub count: u64,
    pub seed: u64,
    /// Programs whose buffers differ.
    pub mismatches: u64,
    /// Programs that hung on the GPU or in warpsim (each is listed in `failed`).
    pub hangs: u64,
    /// Programs that could not be compared for another reason (each is listed in `failed`).
    pub errors: u64,
    /// Sum over the batch of the GPU's and warpsim's cycles (longest block).
    pub gpu_cycles: u64,
    pub sim_cycles: u64,
    /// The programs that mismatched or failed (at most 50), to reproduce with `sim random --seed S --index K`.
    pub failed: Vec<ProgramReport>,
    /// Every compared program's index, GPU cycles and warpsim cycles (`sim crosscheck --against` scores a
    /// changed model against these GPU figures).
    #[serde(default)]
    pub each: Vec<[u64; 3]>,
}

/// A whole cross-check.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub gpu: String,
    pub driver: String,
    pub arch: String,
    pub date: String,
    pub warpsim: String,
    pub nvrtc_options: String,
    /// The ptxas that compiled the modules when it was not the driver's ([`GpuInfo::ptxas`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptxas: Option<String>,
    pub programs: Vec<ProgramReport>,
    pub random: Option<RandomReport>,
    /// The cycle error of each set of programs (shipped, ptx, file, random).
    #[serde(default)]
    pub cycles: Vec<CycleError>,
    /// With `sim crosscheck --against REPORT`: the report whose GPU figures (values and cycles) these are, measured
    /// on `gpu` on `date`; warpsim's cycles are this build's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// With `sim crosscheck --config FILE`: the machine configuration warpsim's side ran on, not the built-in one
    /// (`Config::hopper`) the committed reports use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    /// Set while the run is still going (the report is rewritten as it goes): what is done so far. A report
    /// with `progress` set is partial and never counts as passed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
}

impl Report {
    pub fn new(info: &GpuInfo) -> Report {
        Report {
            gpu: info.name.clone(),
            driver: info.driver.clone(),
            arch: info.arch.clone(),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            warpsim: env!("CARGO_PKG_VERSION").to_string(),
            nvrtc_options: NVRTC_OPTIONS.to_string(),
            ptxas: info.ptxas.clone(),
            programs: Vec::new(),
            random: None,
            cycles: Vec::new(),
            against: None,
            config: None,
            progress: None,
        }
    }

    /// Fill [`Report::cycles`] from the programs and the random batch.
    ///
    /// A set named `GROUP/PART` counts in its own row and, when the group has several parts, in a row for the
    /// whole group before them (`ptx`, then `ptx/optimised` and `ptx/-G (debug)`).
    pub fn summarise(&mut self) {
        let mut sets: Vec<&str> = Vec::new();
        for p in &self.programs {
            if !sets.contains(&p.set.as_str()) {
                sets.push(&p.set);
            }
        }
        let group = |set: &str| set.split_once('/').map(|(g, _)| g.to_string());
        let mut rows: Vec<String> = Vec::new();
        for set in &sets {
            if let Some(g) = group(set) {
                let parts = sets.iter().filter(|s| group(s).as_ref() == Some(&g)).count();
                if parts > 1 && !rows.contains(&g) {
                    rows.push(g);
                }
            }
            rows.push((*set).to_string());
        }
        let mut cycles: Vec<CycleError> = rows
            .iter()
            .filter_map(|row| {
                CycleError::of(
                    row,
                    self.programs
                        .iter()
                        .filter(|p| p.set == *row || group(&p.set).as_ref() == Some(row))
                        .filter_map(|p| Some((p.name.as_str(), p.gpu_cycles?, p.sim_cycles?))),
                )
            })
            .collect();
        if let Some(r) = &self.random {
            let names: Vec<String> = r.each.iter().map(|e| format!("random_{}_{}", r.seed, e[0])).collect();
            cycles.extend(CycleError::of(
                "random",
                r.each.iter().zip(&names).map(|(e, n)| (n.as_str(), e[1], e[2])),
            ));
        }
        self.cycles = cycles;
    }

    /// Every program matched and nothing failed.
    pub fn passed(&self) -> bool {
        self.programs.iter().all(|p| p.matched)
            && self
                .random
                .as_ref()
                .is_none_or(|r| r.mismatches == 0 && r.hangs == 0 && r.errors == 0)
            && self.progress.is_none()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The terminal summary.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "cross-check on {} ({}, driver {}), {}\n",
            self.gpu, self.arch, self.driver, self.date
        );
        if !self.programs.is_empty() {
            s.push_str(&program_table(&self.programs, false));
        }
        if let Some(r) = &self.random {
            let _ = writeln!(
                s,
                "\nrandom programs: {} with seed {}: {} mismatch(es), {} hang(s), {} error(s)",
                r.count, r.seed, r.mismatches, r.hangs, r.errors
            );
            if r.count > 0 {
                let _ = writeln!(
                    s,
                    "  cycles over the batch: GPU {}, warpsim {} ({})",
                    r.gpu_cycles,
                    r.sim_cycles,
                    ratio(r.sim_cycles, r.gpu_cycles)
                );
            }
            s.push_str(&failures(&r.failed, r.seed));
        }
        s.push_str(&failures(&self.programs, 0));
        if !self.cycles.is_empty() {
            s.push('\n');
            s.push_str(&cycle_table(&self.cycles, false));
        }
        if let Some(a) = &self.against {
            let _ = writeln!(s, "\nGPU figures from {a}; warpsim's cycles from this build");
        }
        if let Some(c) = &self.config {
            let _ = writeln!(s, "warpsim's machine configuration: {c}, not the built-in one");
        }
        if let Some(p) = &self.progress {
            let _ = writeln!(s, "\npartial report: {p}");
        }
        let _ = writeln!(
            s,
            "\n{}",
            if self.passed() {
                "all values match, bit for bit"
            } else {
                "MISMATCH: see above"
            }
        );
        s
    }

    /// `crosscheck/REPORT.md`.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from("# warpsim against a real GPU\n\n");
        let _ = writeln!(
            s,
            "Written by `sim crosscheck` (do not edit by hand; `crosscheck/README.md` says how to regenerate it).\n"
        );
        let _ = writeln!(s, "| | |\n|---|---|");
        let _ = writeln!(s, "| GPU | {} ({}) |", self.gpu, self.arch);
        let _ = writeln!(s, "| driver | {} |", self.driver);
        let _ = writeln!(s, "| date | {} |", self.date);
        let _ = writeln!(s, "| warpsim | {} |", self.warpsim);
        let _ = writeln!(s, "| NVRTC options | `{}` |", self.nvrtc_options);
        if let Some(p) = &self.ptxas {
            let _ = writeln!(s, "| ptxas | {p} (`WARPSIM_PTXAS`), not the driver's |");
        }
        if let Some(a) = &self.against {
            let _ = writeln!(s, "| GPU figures | from {a}; warpsim's cycles from this build |");
        }
        if let Some(c) = &self.config {
            let _ = writeln!(s, "| warpsim's configuration | {c}, not the built-in one |");
        }
        if let Some(p) = &self.progress {
            let _ = writeln!(s, "| **partial** | {p} |");
        }
        let _ = writeln!(
            s,
            "| result | {} |\n",
            if self.passed() {
                "every value matches, bit for bit"
            } else {
                "**mismatches: see below**"
            }
        );
        if !self.cycles.is_empty() {
            let _ = writeln!(
                s,
                "## Cycles\n\nwarpsim's cycles against the GPU's, per set: the mean of |warpsim − GPU| / GPU, the worst \
                 program, and warpsim's cycles summed over the set divided by the GPU's. A program whose GPU span is \
                 under 20 cycles is left out: the compiler removed its timed work as dead code (results never \
                 stored), which warpsim executes.\n"
            );
            s.push_str(&cycle_table(&self.cycles, true));
            s.push('\n');
            s.push_str(&target_table(&self.cycles));
        }
        if !self.programs.is_empty() {
            let matched = self.programs.iter().filter(|p| p.matched).count();
            let _ = writeln!(
                s,
                "## Shipped programs (W = 32)\n\n{matched} of {} match bit for bit. Cycles: `GPU` is the longest \
                 block from its first warp's start to its last warp's exit, read with `clock64()`; `warpsim` is the \
                 same span in the simulation; `run` is the whole simulated run (`sim run`).\n",
                self.programs.len()
            );
            s.push_str(&program_table(&self.programs, true));
            s.push('\n');
            for p in &self.programs {
                for c in &p.clock_buffers {
                    let _ = writeln!(
                        s,
                        "`{}` buffer `{}` holds clock readings: GPU {:?}, warpsim {:?}\n",
                        p.name, c.buffer, c.gpu, c.sim
                    );
                }
            }
        }
        if let Some(r) = &self.random {
            let _ = writeln!(
                s,
                "## Random programs\n\n{} programs from seed {} (`sim crosscheck --random {} --seed {}`): **{} \
                 mismatches**, {} hangs, {} errors.\n\nCycles summed over the batch: GPU {}, warpsim {} ({}).\n",
                r.count,
                r.seed,
                r.count,
                r.seed,
                r.mismatches,
                r.hangs,
                r.errors,
                r.gpu_cycles,
                r.sim_cycles,
                ratio(r.sim_cycles, r.gpu_cycles)
            );
            if !r.failed.is_empty() {
                s.push_str("```text\n");
                s.push_str(&failures(&r.failed, r.seed));
                s.push_str("```\n");
            }
        }
        let fails = failures(&self.programs, 0);
        if !fails.is_empty() {
            let _ = writeln!(s, "## Differences\n\n```text{fails}```");
        }
        s
    }
}

#[allow(
    clippy::cast_precision_loss,
    reason = "a ratio of cycle counts, printed to two decimals"
)]
fn ratio(sim: u64, gpu: u64) -> String {
    if gpu == 0 {
        "-".into()
    } else {
        format!("warpsim/GPU {:.2}", sim as f64 / gpu as f64)
    }
}

/// `a / b` to two decimals.
#[allow(
    clippy::cast_precision_loss,
    reason = "a ratio of cycle counts, printed to two decimals"
)]
fn ratio_cell(a: u64, b: u64) -> String {
    format!("{:.2}", a as f64 / b as f64)
}

/// A signed fraction as a percentage: `+12.3%`.
fn percent(e: f64) -> String {
    format!("{:+.1}%", 100.0 * e)
}

fn cycle_table(sets: &[CycleError], markdown: bool) -> String {
    let mut s = String::new();
    if markdown {
        s.push_str(
            "| set | programs | mean error | worst | warpsim/GPU summed | left out (GPU span under 20 cycles) |\n\
             |---|---:|---:|---|---:|---:|\n",
        );
    } else {
        let _ = writeln!(
            s,
            "cycles, warpsim against the GPU:\n  {:<8} {:>8} {:>11}  {:<44} {:>7} {:>9}",
            "set", "programs", "mean |err|", "worst", "summed", "left out"
        );
    }
    for c in sets {
        let worst = format!("{} ({})", c.worst, percent(c.worst_error));
        if markdown {
            let _ = writeln!(
                s,
                "| {} | {} | {:.1}% | {worst} | {:.2} | {} |",
                c.set,
                c.programs,
                100.0 * c.mean_abs_error,
                c.ratio,
                c.excluded
            );
        } else {
            let _ = writeln!(
                s,
                "  {:<8} {:>8} {:>10.1}%  {worst:<44} {:>7.2} {:>9}",
                c.set,
                c.programs,
                100.0 * c.mean_abs_error,
                c.ratio,
                c.excluded
            );
        }
    }
    s
}

/// The accuracy the project aims for, per set: (set, what is measured, the bound). The cycle model's
/// documentation (`docs/timing.md`) says where the remaining error comes from.
pub const TARGETS: &[(&str, Target)] = &[
    ("shipped", Target::MeanError(0.10)),
    ("shipped", Target::WorstError(0.20)),
    ("random", Target::MeanError(0.20)),
    ("random", Target::Summed(0.9, 1.1)),
    ("ptx", Target::MeanError(0.15)),
];

/// One accuracy target of a set of programs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// The mean of |warpsim − GPU| / GPU at most this.
    MeanError(f64),
    /// No program's |error| over this.
    WorstError(f64),
    /// warpsim's summed cycles over the GPU's within these bounds.
    Summed(f64, f64),
}

impl Target {
    /// What is measured, the target, the figure, and whether it is reached (with by how much when not).
    fn judge(self, c: &CycleError) -> [String; 4] {
        let pct = |e: f64| format!("{:.1}%", 100.0 * e);
        match self {
            Target::MeanError(bound) => [
                "mean error".into(),
                format!("≤ {}", pct(bound)),
                pct(c.mean_abs_error),
                if c.mean_abs_error <= bound {
                    "reached".into()
                } else {
                    format!("not reached: {:.1} points over", 100.0 * (c.mean_abs_error - bound))
                },
            ],
            Target::WorstError(bound) => {
                let over = c.programs_over(bound);
                [
                    "worst error".into(),
                    format!("≤ {}", pct(bound)),
                    format!("{} ({})", pct(c.worst_error.abs()), c.worst),
                    if over == 0 {
                        "reached".into()
                    } else {
                        format!("not reached: {over} of {} programs over", c.programs)
                    },
                ]
            }
            Target::Summed(lo, hi) => [
                "warpsim/GPU summed".into(),
                format!("{lo:.2}–{hi:.2}"),
                format!("{:.2}", c.ratio),
                if (lo..=hi).contains(&c.ratio) {
                    "reached".into()
                } else if c.ratio < lo {
                    format!("not reached: {:.2} under", lo - c.ratio)
                } else {
                    format!("not reached: {:.2} over", c.ratio - hi)
                },
            ],
        }
    }
}

/// The report's targets section: each [`TARGETS`] row whose set is in the report.
fn target_table(sets: &[CycleError]) -> String {
    let mut s = String::new();
    for (set, target) in TARGETS {
        let Some(c) = sets.iter().find(|c| c.set == *set) else {
            continue;
        };
        if s.is_empty() {
            s.push_str(
                "### Targets\n\nThe accuracy warpsim aims for; `docs/timing.md` (\"Where the GPU's cycles go\") says where \
                 the remaining error comes from.\n\n| set | measure | target | now | |\n|---|---|---|---:|---|\n",
            );
        }
        let [what, bound, now, verdict] = target.judge(c);
        let _ = writeln!(s, "| {set} | {what} | {bound} | {now} | {verdict} |");
    }
    if !s.is_empty() {
        s.push('\n');
    }
    s
}

/// A launch shape as `sim run` writes it: `8`, `8x4`, `8x4x2` (trailing 1s left out).
fn dims(d: [u32; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, 1] => format!("{x}x{y}"),
        [x, y, z] => format!("{x}x{y}x{z}"),
    }
}

fn program_table(programs: &[ProgramReport], markdown: bool) -> String {
    let mut s = String::new();
    let cell = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    if markdown {
        s.push_str(
            "| program | grid × block | match | GPU cycles | warpsim cycles | warpsim/GPU | error | run cycles |\n",
        );
        s.push_str("|---|---|---|---:|---:|---:|---:|---:|\n");
    } else {
        let _ = writeln!(
            s,
            "{:<22} {:>12}  {:<8} {:>10} {:>10} {:>8} {:>8} {:>10}",
            "program", "grid×block", "match", "GPU cyc", "sim cyc", "sim/GPU", "error", "run cyc"
        );
    }
    for p in programs {
        let verdict = if p.hang.is_some() {
            "HANG"
        } else if p.error.is_some() {
            "error"
        } else if p.matched {
            "yes"
        } else {
            "NO"
        };
        let r = match (p.sim_cycles, p.gpu_cycles) {
            (Some(a), Some(b)) if b > 0 => ratio_cell(a, b),
            _ => "-".into(),
        };
        let shape = format!("{} × {}", dims(p.grid_shape), dims(p.block_shape));
        let e = p.cycle_error().map_or_else(|| "-".into(), percent);
        if markdown {
            let _ = writeln!(
                s,
                "| {} | {shape} | {verdict} | {} | {} | {r} | {e} | {} |",
                p.name,
                cell(p.gpu_cycles),
                cell(p.sim_cycles),
                cell(p.sim_run_cycles)
            );
        } else {
            let _ = writeln!(
                s,
                "{:<22} {:>12}  {:<8} {:>10} {:>10} {:>8} {:>8} {:>10}",
                p.name,
                shape,
                verdict,
                cell(p.gpu_cycles),
                cell(p.sim_cycles),
                r,
                e,
                cell(p.sim_run_cycles)
            );
        }
    }
    s
}

fn failures(programs: &[ProgramReport], seed: u64) -> String {
    let mut s = String::new();
    for p in programs.iter().filter(|p| !p.matched) {
        let _ = write!(s, "\n{}", p.name);
        if let Some(index) = p.name.strip_prefix(&format!("random_{seed}_")) {
            let _ = write!(s, " (sim random --seed {seed} --index {index})");
        }
        s.push('\n');
        match (&p.error, &p.hang) {
            (Some(e), Some(_)) => {
                let _ = writeln!(s, "  {e}");
            }
            (Some(e), None) => {
                let _ = writeln!(s, "  could not be compared: {e}");
            }
            _ => {}
        }
        if let Some(m) = &p.mismatch {
            let _ = writeln!(
                s,
                "  {}[{}]: warpsim {} ({}), GPU {} ({}); {} {} differ{}",
                m.buffer,
                m.index,
                m.sim,
                m.sim_bits,
                m.gpu,
                m.gpu_bits,
                m.differing,
                if m.differing == 1 { "element" } else { "elements" },
                if m.differing == 1 { "s" } else { "" }
            );
        }
    }
    s
}

/// Run `cases` on `gpu`, a module at a time, and compare each.
pub fn run_cases(gpu: &mut dyn Gpu, cases: &[Case]) -> Vec<ProgramReport> {
    let mut out = Vec::with_capacity(cases.len());
    for chunk in cases.chunks(KERNELS_PER_MODULE) {
        let refs: Vec<&Case> = chunk.iter().collect();
        match gpu.run(&refs) {
            Ok(runs) => {
                for (case, run) in chunk.iter().zip(runs) {
                    out.push(match run {
                        Ok(run) => compare(case, &run),
                        Err(e) => ProgramReport::failed(&case.name, e),
                    });
                }
            }
            Err(e) => {
                for case in chunk {
                    out.push(ProgramReport::failed(&case.name, e.clone()));
                }
            }
        }
    }
    out
}

/// Prepare program `index` of the random batch `seed`; an error report if it cannot be compared (a generator
/// bug: every generated program must assemble, run without a fault and read no undefined lane).
pub fn random_case(seed: u64, index: u64) -> Result<Case, Box<ProgramReport>> {
    random_case_with(seed, index, &Config::hopper())
}

/// [`random_case`] on the machine `config` ([`prepare_with`]).
pub fn random_case_with(seed: u64, index: u64, config: &Config) -> Result<Case, Box<ProgramReport>> {
    let r = crate::random::generate(seed, index);
    let failed = |e: String| Box::new(ProgramReport::failed(&r.name, e));
    let program = warpsim_isa::parse(&format!("{}.s", r.name), &r.source, &warpsim::programs::Resolver)
        .map_err(|e| failed(format!("does not assemble: {}", first_line(&e.render(false)))))?;
    prepare_with(&program, &Launch::default(), &r.name, config).map_err(failed)
}

/// Summarise a random batch.
pub fn random_report(seed: u64, reports: &[ProgramReport]) -> RandomReport {
    RandomReport {
        count: reports.len() as u64,
        seed,
        mismatches: reports.iter().filter(|r| r.error.is_none() && !r.matched).count() as u64,
        hangs: reports.iter().filter(|r| r.hang.is_some()).count() as u64,
        errors: reports.iter().filter(|r| r.error.is_some() && r.hang.is_none()).count() as u64,
        gpu_cycles: reports.iter().filter_map(|r| r.gpu_cycles).sum(),
        sim_cycles: reports.iter().filter_map(|r| r.sim_cycles).sum(),
        failed: reports.iter().filter(|r| !r.matched).take(50).cloned().collect(),
        each: reports
            .iter()
            .filter_map(|r| {
                let index = r.name.rsplit('_').next()?.parse().ok()?;
                Some([index, r.gpu_cycles?, r.sim_cycles?])
            })
            .collect(),
    }
}

/// `case` scored against a saved report's GPU figures (`sim crosscheck --against`): the values' verdict and the
/// GPU's cycles as the GPU gave them then, warpsim's cycles from this build. A program the report does not have
/// is an error.
pub fn against(case: &Case, saved: &Report) -> ProgramReport {
    let random = saved
        .random
        .as_ref()
        .filter(|r| case.name.starts_with(&format!("random_{}_", r.seed)));
    let mut out = if let Some(p) = saved.programs.iter().find(|p| p.name == case.name) {
        p.clone()
    } else if let Some(r) = random {
        let index: Option<u64> = case.name.rsplit('_').next().and_then(|k| k.parse().ok());
        match r.each.iter().find(|e| Some(e[0]) == index) {
            Some(e) => ProgramReport {
                set: "random".into(),
                matched: !r.failed.iter().any(|f| f.name == case.name),
                ..ProgramReport::of(case, e[1])
            },
            None => return ProgramReport::failed(&case.name, "not in the report's random batch".into()),
        }
    } else {
        return ProgramReport::failed(&case.name, "not in the report".into());
    };
    if out.gpu_cycles.is_some() {
        out.sim_cycles = Some(case.sim_span);
        out.sim_run_cycles = Some(case.sim.cycles);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_runs_give_the_mean_of_their_middle_half() {
        // Nine runs: the two lowest and two highest left out, the middle five averaged (rounded).
        assert_eq!(typical_span(&[503, 335, 497, 1200, 501, 337, 340, 9000, 499]), 468);
        assert_eq!(typical_span(&[700]), 700);
        assert_eq!(typical_span(&[10, 11]), 11);
        assert_eq!(typical_span(&[]), 0);
        // One run's span is its longest block; several runs' the typical of theirs.
        let one = GpuRun {
            clocks: vec![(100, 350), (90, 400)],
            ..GpuRun::default()
        };
        assert_eq!(one.span(), 310);
        let several = GpuRun {
            runs: vec![300, 500, 400],
            ..one
        };
        assert_eq!(several.span(), 400);
    }

    fn program(name: &str, set: &str, gpu: u64, sim: u64) -> ProgramReport {
        let mut p = ProgramReport::failed(name, String::new());
        p.error = None;
        p.set = set.into();
        p.gpu_cycles = Some(gpu);
        p.sim_cycles = Some(sim);
        p
    }

    fn report(programs: Vec<ProgramReport>) -> Report {
        let mut r = Report::new(&GpuInfo {
            name: "test".into(),
            driver: String::new(),
            arch: "sm_90".into(),
            ptxas: None,
        });
        r.programs = programs;
        r.summarise();
        r
    }

    #[test]
    fn a_group_of_sets_gets_its_own_row_before_its_parts() {
        let r = report(vec![
            program("a", "ptx/optimised", 100, 110),
            program("b", "ptx/-G (debug)", 1000, 200),
            program("c", "ptx/optimised", 200, 150),
            program("d", "shipped", 100, 100),
        ]);
        let rows: Vec<(&str, u64, u64, u64)> = r
            .cycles
            .iter()
            .map(|c| (c.set.as_str(), c.programs, c.gpu_cycles, c.sim_cycles))
            .collect();
        assert_eq!(
            rows,
            [
                ("ptx", 3, 1300, 460),
                ("ptx/optimised", 2, 300, 260),
                ("ptx/-G (debug)", 1, 1000, 200),
                ("shipped", 1, 100, 100)
            ]
        );
        // (0.1 + 0.8 + 0.25) / 3
        assert!((r.cycles[0].mean_abs_error - 1.15 / 3.0).abs() < 1e-12);
        assert_eq!(r.cycles[0].worst, "b");
        // A group with one part has no row of its own.
        let r = report(vec![program("a", "ptx/optimised", 100, 110)]);
        assert_eq!(r.cycles.len(), 1);
        assert_eq!(r.cycles[0].set, "ptx/optimised");
    }

    #[test]
    fn targets_say_whether_they_are_reached_and_by_how_much() {
        let r = report(vec![
            program("a", "shipped", 100, 105),
            program("b", "shipped", 100, 130),
            program("c", "shipped", 100, 100),
        ]);
        let c = &r.cycles[0];
        assert_eq!(c.programs_over(0.20), 1);
        assert_eq!(
            Target::MeanError(0.10).judge(c),
            ["mean error", "≤ 10.0%", "11.7%", "not reached: 1.7 points over"]
        );
        assert_eq!(Target::MeanError(0.15).judge(c)[3], "reached");
        assert_eq!(
            Target::WorstError(0.20).judge(c),
            [
                "worst error",
                "≤ 20.0%",
                "30.0% (b)",
                "not reached: 1 of 3 programs over"
            ]
        );
        assert_eq!(
            Target::Summed(0.9, 1.1).judge(c),
            ["warpsim/GPU summed", "0.90–1.10", "1.12", "not reached: 0.02 over"]
        );
        assert_eq!(Target::Summed(1.0, 1.2).judge(c)[3], "reached");
        let table = target_table(&r.cycles);
        assert!(table.contains("| shipped | mean error | ≤ 10.0% | 11.7% | not reached: 1.7 points over |\n"));
        assert!(!table.contains("| random |"));
        assert_eq!(target_table(&[]), "");
    }
}
