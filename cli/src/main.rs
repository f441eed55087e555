//! `sim`: the command line over the warpsim library. It parses flags, calls the library, and renders.
//!
//! Exit status: 0 success; 1 a fault in the simulated program; 2 bad input (assembly errors, bad flags,
//! unreadable files).

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, PoisonError};
use std::time::{Duration, Instant};
use warpsim::render;
use warpsim::{
    Checks, Config, Dim3, Launch, Machine, NoTrace, Progress, ProgressFn, RunOptions, Schedule, SchedulerPolicy,
    TraceBuffer, programs,
};
use warpsim_isa::{AssembleError, Program};

const EXAMPLES: &str = "\
Examples:
  sim run butterfly_max --warp 8 --trace             the 8-lane butterfly, step by step
  sim run butterfly_max --format json                values and cycles as JSON
  sim run shfl_wrap --set offset=-2                  override a program parameter
  sim run my_kernel.s --grid 4 --block 64            run your own file
  sim run block_reduce --set n=1000 --input in=data.npy --save out=sums.npy
                                                     your data in (.npy, .bin, .json), a buffer saved
  sim run butterfly_max --stats                      cycles, IPC and where each warp's cycles went
  sim run butterfly_max --warp 8 --svg b.svg         the lane exchanges drawn (SVG)
  sim run histogram_bin --html h.html                step through the trace in a browser
  sim run block_reduce --trace-format chrome t.json  a timeline for Perfetto / chrome://tracing
  sim calibrate                                      simulated vs measured H200 cycles, row by row
  sim check my_kernel.s                              assemble and report errors
  sim list                                           the shipped programs";

#[derive(Parser)]
#[command(name = "sim", version, about = "warpsim: a cycle-level SIMT warp simulator", after_help = EXAMPLES)]
struct Cli {
    /// Colour: auto (when the output is a terminal and NO_COLOR is unset), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum View {
    /// Every issued instruction with its per-lane effect.
    Detail,
    /// The lane grid: lanes as columns, one row per exchange step.
    Grid,
    /// Both.
    Both,
}

#[derive(Subcommand)]
enum Command {
    /// Run a shipped program (by name) or an assembly file.
    #[command(after_help = EXAMPLES)]
    Run(RunArgs),
    /// Run a program without tracing and report how fast warpsim simulated it: wall time, cycles, warp and lane
    /// instructions per second, peak memory.
    #[command(after_help = BENCH_EXAMPLES)]
    Bench(BenchArgs),
    /// List the shipped programs.
    #[command(
        after_help = "Tags, where each program comes from: P25, P26, P27 the chapters of a GPU puzzle book on \
                            shuffle_down (stencils), shuffle_xor (butterflies) and a block-level prefix sum; BLOG an \
                            article on the four shuffle variants; LESSON a lesson on hierarchical reduction \
                            (registers, warp shuffle, shared memory, atomics)."
    )]
    List,
    /// Assemble a file (or shipped program) and report errors, without running it.
    Check {
        /// A program name or a path to an assembly file.
        program: String,
        /// Also check that it launches at this warp size (default: 32, or the nearest size the program allows).
        #[arg(long, value_name = "W", value_parser = warp_size, allow_negative_numbers = true)]
        warp: Option<u32>,
    },
    /// Print a shipped program's source.
    Show {
        /// A program name (see `sim list`).
        program: String,
    },
    /// Print a CUDA kernel equivalent to a program, instruction by instruction (at W = 32).
    EmitCuda {
        /// A program name (see `sim list`) or a path to an assembly file.
        program: String,
        #[command(flatten)]
        shape: ShapeArgs,
    },
    /// Run programs on a real NVIDIA GPU (translated to CUDA) and compare every buffer, bit for bit, and the
    /// cycles. Needs a build with `--features cuda`, the CUDA driver and NVRTC.
    #[command(after_help = CROSSCHECK_EXAMPLES)]
    Crosscheck(CrosscheckArgs),
    /// Run a grid of programs × parameters × machine configurations from a spec file and write one JSON line per
    /// run (values' digest, cycles, statistics); `--shard I/N` runs a deterministic share of it.
    #[command(after_help = SWEEP_EXAMPLES)]
    Sweep {
        /// The spec: a JSON file (see below).
        spec: String,
        /// Run only the rows whose number is I modulo N (`--shard $SLURM_ARRAY_TASK_ID/N`): the shards' lines
        /// together are the whole sweep's.
        #[arg(long, value_name = "I/N", value_parser = sweep::shard, default_value = "0/1")]
        shard: (usize, usize),
        /// Append the lines to FILE instead of printing them; a rerun skips the rows FILE already holds.
        #[arg(long, value_name = "FILE")]
        out: Option<String>,
        /// Rows run at once, each on one host thread (default: the cores, at most 8).
        #[arg(long, default_value_t = default_jobs())]
        jobs: usize,
    },
    /// Internal: the GPU side of `sim crosscheck`, one CUDA module per process.
    #[command(hide = true)]
    CrosscheckWorker {
        /// The ptxas to compile the module with (`sim crosscheck --ptxas`).
        #[arg(long, value_name = "PATH")]
        ptxas: Option<std::path::PathBuf>,
    },
    /// Print a random program of `sim crosscheck --random` (the same seed and index always give the same one).
    Random {
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: u64,
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        index: u64,
    },
    /// Puzzles: the shipped teaching programs as exercises, with a checker (list, show, check).
    #[command(subcommand)]
    Puzzle(puzzle::PuzzleCommand),
    /// Print the default machine configuration (JSON) to copy and edit for `--config`.
    Config,
    /// Run the calibration microbenchmarks and compare each with the cycles measured on an H200.
    Calibrate {
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Machine configuration file to calibrate (JSON, see `sim config`); default: the built-in `hopper`.
        #[arg(long)]
        config: Option<String>,
        /// Warp-scheduling policy (overrides the configuration's).
        #[arg(long, value_enum)]
        policy: Option<Policy>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Policy {
    /// Loose round robin.
    Lrr,
    /// Greedy then oldest.
    Gto,
}

impl From<Policy> for SchedulerPolicy {
    fn from(p: Policy) -> SchedulerPolicy {
        match p {
            Policy::Lrr => SchedulerPolicy::LooseRoundRobin,
            Policy::Gto => SchedulerPolicy::GreedyThenOldest,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ScheduleArg {
    Default,
    Reverse,
    Random,
}

/// `--check LIST`: the sanitizers, and `scheduling` (the run again under the other warp scheduling, the results
/// compared); `all` is every one of them.
#[derive(Clone, Copy, Debug, Default)]
struct CheckArg {
    checks: Checks,
    scheduling: bool,
}

fn parse_checks(text: &str) -> Result<CheckArg, String> {
    let (checks, scheduling) = Checks::parse_with_scheduling(text)?;
    Ok(CheckArg { checks, scheduling })
}

fn parse_scheduling(text: &str) -> Result<warpsim::Scheduling, String> {
    warpsim::Scheduling::parse(text)
}

#[derive(clap::Args)]
struct RunArgs {
    /// A program name (see `sim list`) or a path to an assembly file.
    program: String,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    shape: ShapeArgs,
    #[command(flatten)]
    inputs: InputArgs,
    #[command(flatten)]
    saves: SaveArgs,
    /// Trace every issued warp instruction and each lane exchange.
    #[arg(long)]
    trace: bool,
    /// What `--trace` shows in text form.
    #[arg(long, value_enum, default_value_t = View::Both, requires = "trace")]
    view: View,
    /// The widest line of the text output, at least 60 (wider lists of lanes become rules, rows or bands of
    /// lanes; messages wrap). Default: the terminal's width, or 120 when the output is not a terminal.
    #[arg(long, value_name = "COLUMNS", value_parser = text_width)]
    width: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print statistics: IPC, the stall breakdown of every warp, shuffles, bank conflicts, L1 hits (JSON
    /// output always has them under `stats`).
    #[arg(long)]
    stats: bool,
    /// Stop with a fault after this many cycles.
    #[arg(long, default_value_t = RunOptions::default().max_cycles, value_parser = cycle_limit, allow_negative_numbers = true)]
    max_cycles: u64,
    /// Stop with a fault after this many warp instructions (checked every epoch: 287 cycles on `hopper`).
    #[arg(long, default_value_t = RunOptions::default().max_instructions, value_name = "N", value_parser = instruction_limit, allow_negative_numbers = true)]
    max_instructions: u64,
    /// Stop with a fault (exit status 3) after this many seconds of wall-clock time (checked every epoch);
    /// `none` or `0`: no time limit.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = time_limit, allow_negative_numbers = true)]
    timeout: TimeLimit,
    /// Sanitizers for the simulated program, comma-separated: `race` (shared- and global-memory hazards between
    /// threads nothing orders: no barrier within a block, nothing between blocks), `init` (reads of registers, predicates or shared memory never written), `shfl`
    /// (shuffles reading a lane that is inactive or outside the member mask), `sync` (member masks of `.sync`
    /// instructions that PTX leaves undefined or that name lanes not executing them), `scheduling` (the program
    /// runs again under the other `--scheduling` and every buffer is compared: code that relies on lockstep
    /// execution differs or faults), or `all`. Findings are reported after the run (exit status 1).
    #[arg(long, value_name = "LIST", value_parser = parse_checks)]
    check: Option<CheckArg>,
    /// The order in which warp schedulers pick ready warps: `default` (the configuration's policy),
    /// `reverse` (youngest warp first, schedulers in reverse turn) or `random` (seeded by --seed). A correct
    /// program gives the same values under every schedule.
    #[arg(long, value_enum, default_value_t = ScheduleArg::Default)]
    schedule: ScheduleArg,
    /// The seed of `--schedule random`.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    seed: Option<u64>,
    /// How a warp's diverged paths run: `lockstep` (the reconvergence stack: one path at a time until it
    /// reconverges; the default) or `its` (independent thread scheduling, PTX's sm_70+ semantics: the paths
    /// issue in turn and warp-synchronous instructions wait for the lanes of their member mask).
    #[arg(long, value_name = "MODE", value_parser = parse_scheduling)]
    scheduling: Option<warpsim::Scheduling>,
    /// Stream the trace into FILE as it is produced, one JSON object per line (any length, in constant memory;
    /// the same records as `--format json`'s `trace`).
    #[arg(long, value_name = "FILE")]
    trace_file: Option<String>,
    /// With --trace, --svg, --html or --trace-format: keep at most this many events in memory, at most 1000000
    /// (about 2 KB each; a long run's trace is cut short, and says so). --trace-file streams every event.
    #[arg(long, default_value_t = DEFAULT_TRACE_EVENTS, value_name = "N", value_parser = trace_event_limit, allow_negative_numbers = true)]
    max_trace_events: usize,
    /// Draw the lane-exchange diagram into FILE (SVG): lanes as lines, one column per step that moves data
    /// between lanes, and a bank map for each shared-memory instruction.
    #[arg(long, value_name = "FILE", help_heading = "Pictures")]
    svg: Option<String>,
    /// Write the interactive trace stepper into FILE: one self-contained HTML page, no network access.
    #[arg(long, value_name = "FILE", help_heading = "Pictures")]
    html: Option<String>,
    /// Write the trace into FILE in FORMAT: `chrome` (trace-event JSON for Perfetto and chrome://tracing: a
    /// track per warp, a slice per instruction from issue to completion, the stalls).
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"], help_heading = "Pictures")]
    trace_format: Option<Vec<String>>,
    /// With --svg: the block to draw (default: the first one launched).
    #[arg(long, value_name = "B", help_heading = "Pictures", allow_negative_numbers = true)]
    draw_block: Option<u32>,
    /// With --svg: the warps of that block to draw, as a list of warps and inclusive ranges: `0-3`, `0,2`, `5`
    /// (default: the first 4).
    #[arg(long, value_name = "LIST", help_heading = "Pictures")]
    warps: Option<String>,
    /// With --svg: the exchange steps to draw: `8` (steps 1 to 8) or `5-8` (default: the first 64).
    #[arg(long, value_name = "RANGE", help_heading = "Pictures")]
    steps: Option<String>,
}

const BENCH_EXAMPLES: &str = "\
Examples:
  sim bench block_reduce --set n=16777216              2^24 elements in 131072 blocks, every core
  sim bench block_reduce --set n=16777216 --threads 1  the same on one host thread
  sim bench moving_average --set size=16777216 --format json
  sim bench block_reduce --set n=16777216 --scaling 1,2,4,8,16
                                                       host-thread scaling: shortest of 3 runs per count

`wall_seconds` times the simulation alone (from the first cycle to the last SM's finish);
`setup_seconds` is the assembly (`assembly_seconds`) and the buffers' initialisation with the kernel's
decoding (`initialisation_seconds`). Peak memory is the process's
(VmHWM), buffers included.";

#[derive(clap::Args)]
struct BenchArgs {
    /// A program name (see `sim list`) or a path to an assembly file.
    program: String,
    #[command(flatten)]
    machine: MachineArgs,
    #[command(flatten)]
    shape: ShapeArgs,
    #[command(flatten)]
    inputs: InputArgs,
    #[command(flatten)]
    saves: SaveArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Stop with a fault after this many cycles.
    #[arg(long, default_value_t = RunOptions::default().max_cycles, value_parser = cycle_limit, allow_negative_numbers = true)]
    max_cycles: u64,
    /// Stop with a fault after this many warp instructions (checked every epoch: 287 cycles on `hopper`).
    #[arg(long, default_value_t = RunOptions::default().max_instructions, value_name = "N", value_parser = instruction_limit, allow_negative_numbers = true)]
    max_instructions: u64,
    /// Stop with a fault (exit status 3) after this many seconds of wall-clock time (checked every epoch);
    /// `none` or `0`: no time limit.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = time_limit, allow_negative_numbers = true)]
    timeout: TimeLimit,
    /// Run at each of these host-thread counts (`--scaling 1,2,4,8,16`), `--repeat` times each: the shortest wall
    /// time and the speedup over the first count, and a check that cycles and every buffer are identical at
    /// every count (exit status 1 if not).
    #[arg(long, value_name = "T,T,...", value_delimiter = ',', conflicts_with = "threads", value_parser = clap::value_parser!(u16).range(1..=1024))]
    scaling: Vec<u16>,
    /// Runs per thread count with `--scaling` (the shortest is quoted).
    #[arg(long, value_name = "K", default_value_t = 3, requires = "scaling", value_parser = clap::value_parser!(u16).range(1..=100))]
    repeat: u16,
}

/// `sim bench --scaling`: the run at each thread count, `--repeat` times, each on a copy of the buffers.
fn bench_scaling(
    args: &BenchArgs,
    machine: &Machine,
    kernel: &warpsim::Kernel,
    memory: &[warpsim::Buffer],
    color: bool,
) -> Result<String, Failure> {
    let mut rows = Vec::new();
    let mut first: Option<(u64, u64, Vec<warpsim::Buffer>)> = None;
    let mut identical = true;
    for &t in &args.scaling {
        let options = RunOptions {
            max_cycles: args.max_cycles,
            max_instructions: args.max_instructions,
            timeout: args.timeout.0,
            threads: usize::from(t),
            ..RunOptions::default()
        };
        let mut walls = Vec::new();
        for _ in 0..args.repeat {
            let start = Instant::now();
            let result = machine.run_on(kernel, memory.to_vec(), &options, &mut NoTrace);
            walls.push(start.elapsed().as_secs_f64());
            let out = result.map_err(|fault| Failure {
                message: fault.render(kernel, color),
                code: fault_code(&fault),
            })?;
            match &first {
                None => first = Some((out.cycles, out.stats.lane_instructions, out.buffers)),
                Some((cycles, _, buffers)) => identical &= out.cycles == *cycles && out.buffers == *buffers,
            }
        }
        rows.push((t, walls));
    }
    let (cycles, lanes, _) = first.expect("at least one run");
    let shortest = |w: &[f64]| w.iter().copied().fold(f64::INFINITY, f64::min);
    let base = shortest(&rows[0].1);
    #[allow(clippy::cast_precision_loss, reason = "a rate, printed to 4 significant digits")]
    let rate = |wall: f64| lanes as f64 / wall;
    let text = match args.format {
        Format::Json => {
            let doc = serde_json::json!({
                "program": kernel.program.name,
                "warp_size": kernel.warp_size,
                "grid": kernel.grid,
                "block": kernel.block,
                "sms": machine.config().sms,
                "cycles": cycles,
                "lane_instructions": lanes,
                "identical": identical,
                "scaling": rows.iter().map(|(t, w)| serde_json::json!({
                    "threads": t,
                    "wall_seconds": w,
                    "shortest_seconds": shortest(w),
                    "lane_instructions_per_second": rate(shortest(w)),
                    "speedup": base / shortest(w),
                })).collect::<Vec<_>>(),
            });
            emit_json(&doc)?;
            String::new()
        }
        Format::Text => {
            let mut s = format!(
                "{}: W={}, grid {} x block {}, {} SMs, {cycles} cycles, {lanes} lane instructions; the shortest of {} \
                 runs per thread count\n  threads  wall         lane instr/s  speedup\n",
                kernel.program.name,
                kernel.warp_size,
                kernel.grid_dim,
                kernel.block_dim,
                machine.config().sms,
                args.repeat
            );
            for (t, w) in &rows {
                let _ = writeln!(
                    s,
                    "  {t:<7}  {:<9.3} s  {:<12.3e}  {:.2}",
                    shortest(w),
                    rate(shortest(w)),
                    base / shortest(w)
                );
            }
            s.push_str(if identical {
                "  cycles and every buffer identical at every thread count\n"
            } else {
                "  RESULTS DIFFER between thread counts: a determinism bug\n"
            });
            s
        }
    };
    if identical {
        Ok(text)
    } else {
        Err(Failure { message: text, code: 1 })
    }
}

fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(8)
}

const SWEEP_EXAMPLES: &str = "\
The spec is a JSON object; every axis but `programs` is optional:
  {
    \"programs\": [\"butterfly_max\", \"block_reduce --grid 64\",
                 \"k.ptx --block 32 --buffer out=f32[32]\"],
    \"configs\": [\"hopper\", \"my-config.json\"],
    \"policies\": [\"lrr\", \"gto\"],
    \"sms\": [1, 132],
    \"warps\": [8, 16, 32],
    \"set\": {\"n\": [1024, 4096]}
  }
Each program is a line of a launches file: a shipped program or a file (paths
relative to the spec), then the flags that launch it. The rows are the product
of the axes, numbered in that order. Each output line holds the row's number
and key, its warp size, SMs, cycles, a SHA-256 digest of every buffer and the
statistics, or the row's `error` or `fault` (docs/sweep.md).

Examples:
  sim sweep sweep.json                      every row, on standard output
  sim sweep sweep.json --shard 3/16 --out s3.jsonl
                                            the fourth of 16 shards; a rerun
                                            resumes it

Exit status: 0 every row ran; 1 a row stopped with an error or fault (its line
says so); 2 a bad spec.";

const CROSSCHECK_EXAMPLES: &str = "\
Examples:
  sim crosscheck butterfly_max                         one program
  sim crosscheck --all                                 every shipped program
  sim crosscheck --random 1000 --seed 7                1000 random programs
  sim crosscheck --all --random 1000 --out crosscheck  write crosscheck/report.json and REPORT.md

Exit status: 0 every value matches; 1 a mismatch, or a program that could not be compared; 2 bad input, or no
GPU (no driver, no NVRTC, no device, or a build without the `cuda` feature).";

#[derive(clap::Args)]
struct CrosscheckArgs {
    /// Program names (see `sim list`) or assembly files.
    programs: Vec<String>,
    /// Every shipped program.
    #[arg(long)]
    all: bool,
    /// Also every launch of FILE: one per line, a PTX file (relative to FILE) and its `sim run` flags
    /// (`programs/ptx/launches.txt`, the PTX corpus).
    #[arg(long, value_name = "FILE")]
    launches: Option<String>,
    /// Also run this many random programs (one CUDA module per 250).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    random: Option<u64>,
    /// The random programs' seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: u64,
    /// The first random program's index (`--random 1 --from K` runs program K alone).
    #[arg(long, default_value_t = 0, value_name = "K", allow_negative_numbers = true)]
    from: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write `report.json` and `REPORT.md` into this folder (rewritten as the run goes: a stopped run
    /// leaves a valid partial report).
    #[arg(long, value_name = "DIR")]
    out: Option<String>,
    /// Also write what the GPU left in the buffers of each named program (not the random ones) to
    /// `DIR/NAME.gpu.json`.
    #[arg(long, value_name = "DIR")]
    save_buffers: Option<String>,
    /// Use no GPU: score this build's cycles against the GPU figures of REPORT (a `report.json` that `sim
    /// crosscheck --out` wrote on a GPU, with the same programs, launches and random batch).
    #[arg(long, value_name = "REPORT")]
    against: Option<String>,
    /// warpsim's machine configuration (JSON, see `sim config`; its warp size is set to CUDA's 32) instead of
    /// the built-in one: with --against, scores a changed timing model against saved GPU figures without
    /// rebuilding warpsim.
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// GPU worker processes at once (each compiles its own CUDA module; kernels take turns on the GPU).
    #[arg(long, value_name = "N", default_value_t = default_jobs())]
    jobs: usize,
    /// Compile every module's PTX with this ptxas (to a cubin the driver loads) instead of the driver's own; also
    /// `WARPSIM_PTXAS`. ptxas 13.0 (CUDA 13.0's driver) miscompiles three programs of `crosscheck/open/`, which
    /// 13.5 gets right (`pip install nvidia-cuda-nvcc` has one); 13.5 miscompiles another
    /// (`crosscheck/open/seed-20261128/`).
    #[arg(long, value_name = "PATH")]
    ptxas: Option<std::path::PathBuf>,
    /// Launch flags for the named programs (not `--all`, not the random ones).
    #[command(flatten)]
    shape: ShapeArgs,
    /// Data files for the named programs' buffers (the GPU starts from the same contents).
    #[command(flatten)]
    inputs: InputArgs,
}

/// The simulated machine, and the host threads that simulate it (`run`, `bench`).
#[derive(clap::Args)]
struct MachineArgs {
    /// Warp size: a power of two from 2 to 64 [default: 32, or the configuration's].
    #[arg(long, short = 'w', value_name = "W", value_parser = warp_size, allow_negative_numbers = true)]
    warp: Option<u32>,
    /// Machine configuration file (JSON, see `sim config`).
    #[arg(long)]
    config: Option<String>,
    /// Warp-scheduling policy (overrides the configuration's): lrr (loose round robin) or gto (greedy then
    /// oldest).
    #[arg(long, value_enum)]
    policy: Option<Policy>,
    /// SMs of the machine (overrides the configuration's; `hopper` has 132). `--sms 1` puts every block on one SM.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    sms: Option<u32>,
    /// Host threads simulating the SMs (default: every core). Results are identical for every number.
    #[arg(long, value_name = "T", allow_negative_numbers = true)]
    threads: Option<usize>,
}

impl MachineArgs {
    fn machine(&self) -> Result<Machine, Failure> {
        let machine = load_config(self.config.as_deref(), self.warp, self.policy)?;
        match self.sms {
            None => Ok(machine),
            Some(sms) => Machine::new(Config {
                sms,
                ..machine.config().clone()
            })
            .map_err(|e| Failure::input(format!("error: --sms {sms}: {e}"))),
        }
    }

    /// The `threads` of [`RunOptions`]: 0 for every core.
    fn threads(&self) -> Result<usize, Failure> {
        match self.threads {
            Some(0) => Err(Failure::input(
                "error: --threads 0: there must be at least one thread\n  help: leave --threads out to use every core",
            )),
            Some(t) if t > 1024 => Err(Failure::input(format!(
                "error: --threads {t}: at most 1024 host threads"
            ))),
            Some(t) => Ok(t),
            None => Ok(0),
        }
    }
}

/// `--max-cycles N`: at least 1 (0 would stop every run before its first cycle; there is no "unlimited").
fn cycle_limit(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(format!(
            "0 cycles would stop every run before it starts; the limit is 1 to {} (default {})",
            u64::MAX,
            RunOptions::default().max_cycles
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("expected a whole number of cycles from 1 to {}", u64::MAX)),
    }
}

/// The events an in-memory trace keeps by default (`--max-trace-events`), and at most: an event takes about
/// 2 KB in memory, so a trace holds at most about 2 GB (1 GB by default). `--trace-file` streams any number.
const DEFAULT_TRACE_EVENTS: usize = 500_000;
const MAX_TRACE_EVENTS: usize = 1_000_000;

/// `--max-trace-events N`: 0 to [`MAX_TRACE_EVENTS`].
fn trace_event_limit(text: &str) -> Result<usize, String> {
    match text.trim().parse::<u64>().map(usize::try_from) {
        Ok(Ok(n)) if n <= MAX_TRACE_EVENTS => Ok(n),
        Ok(_) => Err(format!(
            "at most {MAX_TRACE_EVENTS} events are kept in memory (about 2 KB each; default {DEFAULT_TRACE_EVENTS}); \
             --trace-file FILE streams a trace of any length"
        )),
        Err(_) => Err(format!(
            "expected a whole number of events from 0 to {MAX_TRACE_EVENTS}"
        )),
    }
}

/// `--timeout SECONDS` (`None`: no time limit).
#[derive(Clone, Copy, Debug)]
struct TimeLimit(Option<std::time::Duration>);

/// `--timeout SECONDS`: a wall-clock limit in seconds (fractions allowed); `none` or `0`: none.
fn time_limit(text: &str) -> Result<TimeLimit, String> {
    let text = text.trim();
    if text == "none" {
        return Ok(TimeLimit(None));
    }
    match text.parse::<f64>() {
        Ok(0.0) => Ok(TimeLimit(None)),
        Ok(s) if (0.001..=1e9).contains(&s) => Ok(TimeLimit(Some(std::time::Duration::from_secs_f64(s)))),
        _ => Err("expected a number of seconds from 0.001 to 1000000000, or `none` (`0` is none too)".into()),
    }
}

/// `--max-instructions N`: at least 1, as `--max-cycles`.
fn instruction_limit(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err(format!(
            "0 instructions would stop every run before it starts; the limit is 1 to {} (default {})",
            u64::MAX,
            RunOptions::default().max_instructions
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a whole number of warp instructions from 1 to {}",
            u64::MAX
        )),
    }
}

/// `--grid`/`--block`: [`Dim3::parse`].
fn launch_shape(text: &str) -> Result<Dim3, String> {
    Dim3::parse(text)
}

/// The launch flags shared by `run`, `bench`, `emit-cuda` and `crosscheck`.
#[derive(clap::Args, Clone, Default)]
struct ShapeArgs {
    /// The grid's shape: blocks in x, `XxY` or `XxYxZ` (`--grid 8`, `--grid 8x4`; overrides the program's `.grid`).
    #[arg(long, value_name = "SHAPE", value_parser = launch_shape, allow_negative_numbers = true)]
    grid: Option<Dim3>,
    /// The block's shape: threads in x, `XxY` or `XxYxZ` (`--block 256`, `--block 16x16`; overrides the program's `.block`).
    #[arg(long, value_name = "SHAPE", value_parser = launch_shape, allow_negative_numbers = true)]
    block: Option<Dim3>,
    /// Bytes of dynamic shared memory per block (sizes the program's `.shared NAME TYPE[]` array).
    #[arg(long, value_name = "BYTES", allow_negative_numbers = true)]
    dynamic_shared: Option<u32>,
    /// Set a program parameter: `--set NAME=VALUE` (repeatable). For a PTX kernel, a scalar argument by
    /// its name or position (`--set n=1024`, `--set 2=1024`).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// A PTX file's kernel to run: its name, mangled or demangled (default: the file's only kernel).
    #[arg(long, value_name = "NAME", help_heading = "PTX kernels")]
    pub(crate) entry: Option<String>,
    /// A PTX kernel's pointer argument NAME (its name or position) points to a new buffer of LEN elements of TYPE
    /// (u32, s32, f32, u64, s64, f64), zeroed unless `--input NAME=FILE` fills it: `--buffer out=f32[1024]`
    /// (repeatable).
    #[arg(long = "buffer", value_name = "NAME=TYPE[LEN]", help_heading = "PTX kernels")]
    buffer: Vec<String>,
}

impl ShapeArgs {
    fn launch(&self) -> Result<Launch, Failure> {
        Ok(Launch {
            grid: self.grid,
            block: self.block,
            set: parse_set(&self.set)?,
            dynamic_shared: self.dynamic_shared,
            contents: Vec::new(),
        })
    }
}

/// `--input NAME=FILE`: a buffer's initial contents from a data file (`run`, `bench`, `crosscheck`).
#[derive(clap::Args, Clone, Default)]
struct InputArgs {
    /// Start buffer NAME with the contents of FILE instead of its initialiser: `.npy` (NumPy's format, the
    /// buffer's dtype), `.bin` (the elements' raw little-endian bytes) or `.json` (an array of numbers); exactly as
    /// many elements as the buffer has (repeatable, one per buffer).
    #[arg(long = "input", value_name = "NAME=FILE", help_heading = "Data files")]
    input: Vec<String>,
}

/// `--save NAME=FILE`: a buffer's contents after the run, into a data file (`run`, `bench`).
#[derive(clap::Args, Clone, Default)]
struct SaveArgs {
    /// After the run, write buffer NAME into FILE: `.npy`, `.bin` or `.json`, as `--input` reads them (repeatable).
    /// Written whole or not at all, and only when the run succeeds.
    #[arg(long = "save", value_name = "NAME=FILE", help_heading = "Data files")]
    save: Vec<String>,
}

/// `NAME=FILE` of `--input`/`--save` (`flag`), split.
fn name_and_file<'a>(flag: &str, text: &'a str) -> Result<(&'a str, &'a str), Failure> {
    match text.split_once('=') {
        Some((name, file)) if !name.trim().is_empty() && !file.is_empty() => Ok((name.trim(), file)),
        _ => Err(Failure::input(format!(
            "error: `{flag} {text}`: expected NAME=FILE\n  help: for example `{flag} in=data.npy`"
        ))),
    }
}

/// The largest data file `--input` reads: the largest buffer's bytes (every buffer together holds at most
/// [`warpsim::kernel::MAX_BUFFER_ELEMENTS`]) and 1 MiB for a `.npy` header or JSON's punctuation. A larger file
/// is refused by its size before a byte is read.
fn max_input_bytes(elem: warpsim_isa::ElemTy) -> u64 {
    warpsim::kernel::MAX_BUFFER_ELEMENTS * warpsim::data::dtype(elem).size as u64 + (1 << 20)
}

impl InputArgs {
    /// Read and decode every `--input` for `program`'s buffers: the launch's contents.
    fn contents(&self, program: &Program) -> Result<Vec<warpsim::Contents>, Failure> {
        let mut out: Vec<warpsim::Contents> = Vec::with_capacity(self.input.len());
        for text in &self.input {
            let (name, file) = name_and_file("--input", text)?;
            let flag = format!("`--input {text}`");
            let fail = |m: String| Failure::input(format!("error: {flag}: {m}"));
            let format = warpsim::data::Format::of_path(file).map_err(|e| fail(e.to_string()))?;
            let k = warpsim::kernel::find_buffer(program, name).map_err(fail)?;
            if let Some(first) = out.iter().find(|c| c.buffer == name) {
                return Err(fail(format!(
                    "buffer `{name}` already starts from {}\n  help: give each buffer one --input",
                    first.origin
                )));
            }
            let elem = program.buffers[k].elem;
            let bytes = read_input(file, max_input_bytes(elem)).map_err(fail)?;
            // The hint's NumPy line names this file.
            let data = warpsim::data::decode(format, &bytes, elem).map_err(|e| {
                let quoted = format!("{file:?}");
                fail(
                    e.to_string()
                        .replace("\"FILE.npy\"", &quoted)
                        .replace("\"FILE.bin\"", &quoted),
                )
            })?;
            out.push(warpsim::Contents {
                buffer: name.to_string(),
                data,
                origin: format!("`{file}`"),
            });
        }
        Ok(out)
    }
}

/// The bytes of data file `file`, at most `limit` of them (checked before reading).
fn read_input(file: &str, limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let path = Path::new(file);
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    if meta.is_dir() {
        return Err(format!("`{file}` is a directory, not a data file"));
    }
    if meta.len() > limit {
        return Err(format!(
            "`{file}` is {} bytes, more than the largest buffer's data ({limit} bytes with room for a header)",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read `{file}`: {e}"))?;
    Ok(bytes)
}

/// One `--save NAME=FILE`, checked before the run.
struct Save {
    buffer: String,
    format: warpsim::data::Format,
    file: String,
}

impl SaveArgs {
    /// Every `--save` checked before the run: a buffer of `program`, a data format, a path that can become a file,
    /// no two into one file.
    fn targets(&self, program: &Program) -> Result<Vec<Save>, Failure> {
        let mut out: Vec<Save> = Vec::with_capacity(self.save.len());
        for text in &self.save {
            let (name, file) = name_and_file("--save", text)?;
            let fail = |m: String| Failure::input(format!("error: `--save {text}`: {m}"));
            let format = warpsim::data::Format::of_path(file).map_err(|e| fail(e.to_string()))?;
            warpsim::kernel::find_buffer(program, name).map_err(fail)?;
            check_output("--save", file).map_err(|f| {
                Failure::input(
                    f.message
                        .replace(&format!("`--save {file}`"), &format!("`--save {text}`")),
                )
            })?;
            if let Some(first) = out.iter().find(|s| same_path(&s.file, file)) {
                return Err(Failure::input(format!(
                    "error: `--save {}={}` and `--save {text}` both write `{file}`\n  help: give each output its own file",
                    first.buffer, first.file
                )));
            }
            out.push(Save {
                buffer: name.to_string(),
                format,
                file: file.to_string(),
            });
        }
        Ok(out)
    }
}

/// Two paths that name one file the same way, `./x` and `x` alike.
fn same_path(a: &str, b: &str) -> bool {
    let parts = |p: &str| -> Vec<std::path::PathBuf> {
        Path::new(p)
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .map(|c| c.as_os_str().into())
            .collect()
    };
    parts(a) == parts(b)
}

/// Write each `--save` from the run's final buffers, each whole or not at all: the errors, one message each.
fn save_buffers(saves: &[Save], buffers: &[warpsim::Buffer]) -> Vec<String> {
    let mut errors = Vec::new();
    for s in saves {
        let Some(b) = buffers.iter().find(|b| b.name == s.buffer) else {
            continue;
        };
        let bytes = warpsim::data::encode(s.format, b.elem, &b.data);
        match write_bytes_atomically(Path::new(&s.file), &bytes) {
            Ok(()) => eprintln!("wrote {}", s.file),
            Err(f) => errors.push(f.message),
        }
    }
    errors
}

/// A failure: what to print on stderr and the exit status.
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
}

fn main() -> ExitCode {
    // A panic is a warpsim bug: say so in one line, without a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!(
            "internal error: {message}{location} (this is a bug in warpsim; please report it with the command you ran)"
        );
    }));
    // A write past the file size limit (`ulimit -f`) fails with EFBIG and is reported ("File too large"),
    // instead of SIGXFSZ killing the process and leaving a temporary file.
    let _ = signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        Arc::new(std::sync::atomic::AtomicBool::new(false)),
    );
    let cli = Cli::parse();
    // Colour on each stream: `auto` asks anstream (a terminal, and neither NO_COLOR nor TERM=dumb; CLICOLOR_FORCE
    // forces it).
    let wants = |auto: anstream::ColorChoice| match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => auto != anstream::ColorChoice::Never,
    };
    let color = wants(anstream::AutoStream::choice(&std::io::stderr()));
    let color_out = wants(anstream::AutoStream::choice(&std::io::stdout()));
    let result = match cli.command {
        Command::Run(args) => run(&args, color, color_out),
        Command::Bench(args) => bench(&args, color),
        Command::List => Ok(list()),
        Command::Check { program, warp } => check(&program, warp, color),
        Command::Show { program } => match programs::source(&program) {
            Some(text) => Ok(text.to_string()),
            None => Err(unknown_program(&program)),
        },
        Command::Calibrate { format, config, policy } => calibrate(format, config.as_deref(), policy),
        Command::EmitCuda { program, shape } => emit_cuda(&program, &shape, color),
        Command::Crosscheck(args) => crosscheck(&args, color),
        Command::Sweep { spec, shard, out, jobs } => {
            if jobs == 0 {
                Err(Failure::input("error: --jobs must be at least 1"))
            } else {
                sweep::sweep(&sweep::SweepArgs {
                    spec: &spec,
                    shard,
                    out: out.as_deref(),
                    jobs,
                    color,
                })
                .and_then(|(summary, ok)| {
                    eprintln!("{summary}");
                    if ok {
                        Ok(String::new())
                    } else {
                        Err(Failure {
                            message: "error: some rows stopped with an error or a fault: their lines say which".into(),
                            code: 1,
                        })
                    }
                })
            }
        }
        Command::CrosscheckWorker { ptxas } => return crosscheck_worker(ptxas.as_deref()),
        Command::Puzzle(c) => puzzle::command(&c, color),
        Command::Random { seed, index } => Ok(warpsim_tools::random::generate(seed, index).source),
        Command::Config => Ok(serde_json::to_string_pretty(&Config::hopper()).unwrap_or_default() + "\n"),
    };
    match result.and_then(|text| emit(&text)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let mut err = anstream::stderr();
            let _ = err.write_all(f.message.as_bytes());
            if !f.message.ends_with('\n') {
                let _ = err.write_all(b"\n");
            }
            ExitCode::from(f.code)
        }
    }
}

/// Write to stdout; a closed pipe (`sim … | head`) is not an error.
fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    output_result(out.write_all(text.as_bytes()).and_then(|()| out.flush()))
}

/// A closed pipe (`sim … | head`) is not an error; any other write failure is reported.
fn output_result(r: std::io::Result<()>) -> Result<(), Failure> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::input(format!("error: cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Write a JSON document to stdout, streaming (buffers are not built in memory first).
fn emit_json(doc: &impl serde::Serialize) -> Result<(), Failure> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let r = serde_json::to_writer_pretty(&mut out, doc)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    output_result(r)
}

mod ptx;
mod puzzle;
mod sweep;

fn list() -> String {
    let mut out = String::new();
    let all = programs::described();
    let width = all.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, desc) in all {
        let desc = desc.unwrap_or_else(|| "(does not assemble)".into());
        let _ = writeln!(out, "{name:<width$}  {desc}");
    }
    out
}

fn unknown_program(name: &str) -> Failure {
    let names = programs::names();
    let hint = match warpsim_isa::diagnostic::closest(name, names.iter().copied()) {
        Some(s) => format!("\n  help: did you mean `{s}`?"),
        None => "\n  help: `sim list` shows the shipped programs; a file path must exist".into(),
    };
    Failure::input(format!("error: no program or file named `{name}`{hint}"))
}

/// A program by name or path, assembled.
fn load(program: &str, color: bool) -> Result<Program, Failure> {
    load_for(program, color, &ShapeArgs::default())
}

/// A program by name or path, assembled; a `.ptx` file lowered for the launch `shape` describes (its entry,
/// buffers and scalars).
#[allow(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "what makes a name a path is unchanged: `.s` exactly (any other name is a file when no program has it)"
)]
fn load_for(program: &str, color: bool, shape: &ShapeArgs) -> Result<Program, Failure> {
    if ptx::is_ptx_or_cuda(program) {
        return ptx::load(program, color, shape);
    }
    let looks_like_path = program.contains('/') || program.contains('\\') || program.ends_with(".s");
    if !looks_like_path && let Some(result) = programs::assemble(program) {
        return result.map_err(|e| assemble_failure(&e, color));
    }
    let path = Path::new(program);
    if !path.exists() {
        return Err(unknown_program(program));
    }
    let text = warpsim_isa::read_source(path).map_err(|e| Failure::input(format!("error: {e}")))?;
    warpsim_isa::parse(program, &text, &programs::Resolver).map_err(|e| assemble_failure(&e, color))
}

fn assemble_failure(e: &AssembleError, color: bool) -> Failure {
    Failure::input(e.render(color))
}

fn check(program: &str, warp: Option<u32>, color: bool) -> Result<String, Failure> {
    const SHOWN: usize = 16;
    if ptx::is_ptx_or_cuda(program) {
        return ptx::check(program, color);
    }
    let p = load(program, color)?;
    let warp = warp.unwrap_or(32u32.clamp(p.warp_sizes.0, p.warp_sizes.1));
    let machine =
        Machine::new(Config::hopper().with_warp_size(warp)).map_err(|e| Failure::input(format!("error: {e}")))?;
    let kernel = machine
        .load(&p, &Launch::default())
        .map_err(|e| Failure::input(e.render(&p, color)))?;
    let cfg = warpsim_isa::cfg::analyse(&p);
    let all_branches: Vec<String> = p
        .instructions
        .iter()
        .enumerate()
        .filter(|(_, i)| i.op.is_branch() && i.guard.is_some())
        .map(|(pc, _)| match cfg.reconvergence_pc(pc) {
            Some(r) => format!("pc {pc} -> {r}"),
            None => format!("pc {pc} -> exit"),
        })
        .collect();
    let mut branches: Vec<String> = all_branches.iter().take(SHOWN).cloned().collect();
    if all_branches.len() > SHOWN {
        branches.push(format!("… and {} more", all_branches.len() - SHOWN));
    }
    Ok(format!(
        "{}: ok: kernel `{}`, {} instruction(s) in {} basic block(s), {} register(s), {} predicate(s), buffers: {}\n  \
         launch at W={warp}: grid {} x block {}; conditional branches (reconvergence): {}\n",
        p.sources.file(warpsim_isa::FileId(0)).name,
        p.name,
        p.instructions.len(),
        cfg.blocks.len(),
        p.regs.len(),
        p.preds.len(),
        kernel
            .buffers
            .iter()
            .map(|b| format!("{} {}[{}]", b.name, b.elem.name(), b.len()))
            .collect::<Vec<_>>()
            .join(", "),
        kernel.grid_dim,
        kernel.block_dim,
        if branches.is_empty() {
            "none".into()
        } else {
            branches.join(", ")
        }
    ))
}

/// Largest configuration file read (`sim config` prints about 2 KiB).
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A `--config` file's text: a regular file of at most [`MAX_CONFIG_BYTES`] (refused by its size before it is
/// read), UTF-8. The error is one line.
fn read_config(path: &Path) -> Result<String, Failure> {
    use std::io::Read;
    let shown = path.display();
    let fail = |what: String| Failure::input(format!("error: cannot read config: {what}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("`{shown}`: {e}")))?;
    if meta.is_dir() {
        return Err(fail(format!("`{shown}` is a directory, not a configuration file")));
    }
    if !meta.is_file() {
        return Err(fail(format!("`{shown}` is not a regular file")));
    }
    let too_big = || {
        fail(format!(
            "`{shown}` is larger than {MAX_CONFIG_BYTES} bytes, the limit for a configuration file"
        ))
    };
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| fail(format!("`{shown}`: {e}")))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "`{shown}` is not UTF-8 text (invalid byte at offset {}); `sim config` prints a valid configuration (JSON)",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// `--warp`: a power of two from 2 to 64, checked where the user typed it.
/// `--width COLUMNS`: at least [`render::MIN_WIDTH`].
fn text_width(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= render::MIN_WIDTH => Ok(n),
        _ => Err(format!(
            "`{s}` is not a width: a number of columns, at least {}",
            render::MIN_WIDTH
        )),
    }
}

/// The width of `sim run`'s text: `--width`, else the terminal's (when stdout is one), else
/// [`render::DEFAULT_WIDTH`].
fn output_width(flag: Option<usize>) -> usize {
    flag.or_else(|| {
        std::io::stdout()
            .is_terminal()
            .then(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0).max(render::MIN_WIDTH)))
            .flatten()
    })
    .unwrap_or(render::DEFAULT_WIDTH)
}

fn warp_size(s: &str) -> Result<u32, String> {
    let w: u32 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a warp size: a power of two from 2 to 64"))?;
    if w.is_power_of_two() && (2..=64).contains(&w) {
        Ok(w)
    } else {
        Err(format!(
            "{w} is not a warp size: a power of two from 2 to 64 (2, 4, 8, 16, 32 or 64)"
        ))
    }
}

fn load_config(path: Option<&str>, warp: Option<u32>, policy: Option<Policy>) -> Result<Machine, Failure> {
    let mut config = match path {
        None => Config::hopper(),
        Some(path) => {
            let text = read_config(Path::new(path))?;
            serde_json::from_str(&text).map_err(|e| {
                Failure::input(format!(
                    "error: {path}: invalid configuration: {e}\n  help: `sim config` prints a valid one to start from"
                ))
            })?
        }
    };
    if let Some(w) = warp {
        config.warp_size = w;
    }
    if let Some(p) = policy {
        config.scheduler_policy = p.into();
    }
    Machine::new(config).map_err(|e| {
        let source = path.map(|p| format!("{p}: ")).unwrap_or_default();
        Failure::input(format!(
            "error: {source}{e}\n  help: `sim config` prints a valid configuration"
        ))
    })
}

fn calibrate(format: Format, config: Option<&str>, policy: Option<Policy>) -> Result<String, Failure> {
    let machine = load_config(config, None, policy)?;
    let config = machine.config();
    let table = warpsim_tools::calibrate::table();
    let rows = warpsim_tools::calibrate::run_table(&table, config).map_err(|e| Failure {
        message: format!("error: {e}"),
        code: 1,
    })?;
    Ok(match format {
        Format::Json => {
            let doc = serde_json::json!({ "machine": config.name, "gpu": table.gpu, "rows": rows });
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        Format::Text => warpsim_tools::calibrate::report(&config.name, &table.gpu, &rows),
    })
}

/// The GPU side of `sim crosscheck`: worker processes of this same binary (`sim crosscheck-worker`), so that a
/// kernel that hangs costs one program, not the batch.
fn gpu_workers(
    parallel: usize,
    ptxas: Option<&std::path::Path>,
) -> Result<warpsim_tools::crosscheck::isolated::Workers, Failure> {
    // (Checked first: a bad path is the same mistake in any build.)
    let ptxas = match ptxas {
        None => None,
        Some(p) if !p.is_file() => {
            return Err(Failure::input(format!(
                "error: --ptxas {}: no such file (the path of a ptxas executable)",
                p.display()
            )));
        }
        // An absolute path: the workers may resolve it from another directory.
        Some(p) => {
            Some(std::fs::canonicalize(p).map_err(|e| Failure::input(format!("error: --ptxas {}: {e}", p.display())))?)
        }
    };
    if !cfg!(feature = "cuda") {
        return Err(Failure::input(
            "error: no GPU support in this build of sim: rebuild with `cargo build --release --features cuda` (no CUDA is needed to build)",
        ));
    }
    let exe = std::env::current_exe().map_err(|e| {
        Failure::input(format!(
            "error: cannot find the sim executable to start GPU workers: {e}"
        ))
    })?;
    let mut command = vec![exe.into_os_string(), "crosscheck-worker".into()];
    if let Some(p) = ptxas {
        command.extend(["--ptxas".into(), p.into_os_string()]);
    }
    Ok(warpsim_tools::crosscheck::isolated::Workers {
        command,
        parallel,
        compile_timeout: std::time::Duration::from_secs(600),
        launch_timeout: std::time::Duration::from_secs(30),
    })
}

/// How far the model's cycles are from a GPU's on programs like `kernel` (the PTX corpus for PTX, else the shipped
/// programs), from the committed cross-check reports.
fn known_error(kernel: &warpsim::Kernel) -> Option<String> {
    let ptx = kernel.program.instructions.iter().any(|i| i.origin.is_some());
    let debug = kernel.program.ptx.as_ref().is_some_and(|p| p.debug_build());
    let (text, set, file) = if ptx {
        (
            include_str!("../../crosscheck/ptx/report.json"),
            if debug { "ptx/-G (debug)" } else { "ptx/optimised" },
            "crosscheck/ptx/REPORT.md",
        )
    } else {
        (
            include_str!("../../crosscheck/report.json"),
            "shipped",
            "crosscheck/REPORT.md",
        )
    };
    let report: warpsim_tools::crosscheck::Report = serde_json::from_str(text).ok()?;
    let c = report.cycles.iter().find(|c| c.set == set)?;
    Some(format!(
        "the timing model's cycles against an {}: {:.1}% mean error over the {} {} (worst {} {:+.1}%, summed \
         warpsim/GPU {:.2}; {file}): read these as estimates within about that",
        report.gpu,
        100.0 * c.mean_abs_error,
        c.programs,
        match (ptx, debug) {
            (false, _) => "shipped programs",
            (true, false) => "optimised PTX corpus kernels",
            (true, true) => "PTX corpus kernels built with -G, which the GPU runs unoptimised",
        },
        c.worst,
        100.0 * c.worst_error,
        c.ratio
    ))
}

/// `sim crosscheck-worker` (internal): one module's launches on the GPU, answers as JSON lines on stdout.
fn crosscheck_worker(ptxas: Option<&std::path::Path>) -> ExitCode {
    #[cfg(feature = "cuda")]
    {
        let code = warpsim_tools::crosscheck::gpu::serve(
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            ptxas.map(std::path::Path::to_path_buf),
        );
        ExitCode::from(u8::try_from(code.clamp(0, 255)).expect("clamped to 0..=255"))
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = ptxas;
        eprintln!("error: no GPU support in this build of sim");
        ExitCode::from(2)
    }
}

fn crosscheck(args: &CrosscheckArgs, color: bool) -> Result<String, Failure> {
    use rayon::prelude::*;
    use warpsim_tools::crosscheck::{self as xc, ProgramReport};
    if args.programs.is_empty() && !args.all && args.random.is_none() && args.launches.is_none() {
        return Err(Failure::input(
            "error: nothing to cross-check\n  help: name programs, or use --all, --launches FILE and/or --random N",
        ));
    }
    if args.jobs == 0 {
        return Err(Failure::input("error: --jobs must be at least 1"));
    }
    let launch = args.shape.launch()?;
    let machine = load_config(args.config.as_deref(), Some(warpsim_tools::emit_cuda::CUDA_WARP), None)?;
    let config = machine.config();
    // Assemble everything first: bad input is reported before the GPU is looked for.
    let mut named: Vec<(String, Program, Launch)> = Vec::new();
    // Each named program's set, for the cycle error per set.
    let mut sets: Vec<&str> = Vec::new();
    for p in &args.programs {
        let program = load_for(p, color, &args.shape)?;
        let launch = Launch {
            contents: args.inputs.contents(&program)?,
            ..launch.clone()
        };
        named.push((p.clone(), program, launch));
        sets.push(if programs::names().contains(&p.as_str()) {
            "shipped"
        } else {
            "file"
        });
    }
    if let Some(file) = &args.launches {
        for l in ptx::launches(file, color)? {
            sets.push(l.set);
            named.push((l.name, l.program, l.launch));
        }
    }
    if args.all {
        for name in programs::names() {
            let p = load(name, color)?;
            named.push((name.to_string(), p, Launch::default()));
            sets.push("shipped");
        }
    }
    if let (Some(_), Some(p)) = (&args.against, &args.ptxas) {
        return Err(Failure::input(format!(
            "error: --ptxas {} with --against: no module is compiled when the GPU figures come from a report\n  help: drop one of the two",
            p.display()
        )));
    }
    let saved: Option<xc::Report> = match &args.against {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| Failure::input(format!("error: cannot read {path}: {e}")))?;
            Some(serde_json::from_str(&text).map_err(|e| {
                Failure::input(format!(
                    "error: {path}: not a cross-check report: {e}\n  help: give the report.json `sim crosscheck --out DIR` wrote"
                ))
            })?)
        }
        None => None,
    };
    // The GPU figures: from the GPU, or from a saved report.
    let source = match saved {
        Some(r) => Err(r),
        None => Ok(gpu_workers(args.jobs, args.ptxas.as_deref())?),
    };
    let info = match &source {
        Err(r) => xc::GpuInfo {
            name: r.gpu.clone(),
            driver: r.driver.clone(),
            arch: r.arch.clone(),
            ptxas: r.ptxas.clone(),
        },
        Ok(w) => w.info().map_err(|e| Failure::input(format!("error: {e}")))?,
    };
    let mut report = xc::Report::new(&info);
    if let (Err(r), Some(path)) = (&source, &args.against) {
        report.date.clone_from(&r.date);
        report.against = Some(format!("`{path}` ({}, {})", r.gpu, r.date));
    }
    report.config = args.config.as_ref().map(|c| format!("`{c}`"));
    // Simulate and translate every program (on every core); what cannot be compared is reported as it is.
    let prepared: Vec<Result<xc::Case, Box<ProgramReport>>> = named
        .par_iter()
        .enumerate()
        .map(|(k, (_, program, launch))| {
            let cname = format!("{}_{k}", warpsim_tools::emit_cuda::kernel_name(&program.name));
            xc::prepare_with(program, launch, &cname, config)
                .map_err(|e| Box::new(ProgramReport::failed(&program.name, e)))
        })
        .collect();
    let named_count = prepared.len();
    let random_indices: Vec<u64> = match args.random {
        Some(n) => (args.from..args.from.saturating_add(n)).collect(),
        None => Vec::new(),
    };
    let random_prepared: Vec<Result<xc::Case, Box<ProgramReport>>> = random_indices
        .par_iter()
        .map(|&index| xc::random_case_with(args.seed, index, config))
        .collect();
    // One list of cases for the GPU; the rest keep their place by index.
    let all: Vec<Result<xc::Case, Box<ProgramReport>>> = prepared.into_iter().chain(random_prepared).collect();
    let total = all.len();
    let (cases, places): (Vec<xc::Case>, Vec<usize>) = all
        .iter()
        .enumerate()
        .filter_map(|(k, c)| c.as_ref().ok().map(|c| (c.clone(), k)))
        .unzip();
    let assemble = |gpu: &[Option<ProgramReport>], report: &mut xc::Report| -> usize {
        let mut slots: Vec<Option<ProgramReport>> =
            all.iter().map(|c| c.as_ref().err().map(|r| (**r).clone())).collect();
        for (r, &k) in gpu.iter().zip(&places) {
            slots[k].clone_from(r);
        }
        let finished = slots.iter().filter(|s| s.is_some()).count();
        report.programs = slots[..named_count]
            .iter()
            .zip(&sets)
            .filter_map(|(r, set)| {
                r.clone().map(|mut r| {
                    r.set = (*set).to_string();
                    r
                })
            })
            .collect();
        if args.random.is_some() {
            let done: Vec<ProgramReport> = slots[named_count..].iter().flatten().cloned().collect();
            report.random = Some(xc::random_report(args.seed, &done));
        }
        report.summarise();
        finished
    };
    // With --out, the report is rewritten after every module: a run that is stopped leaves a valid, partial one.
    let out_dir = args.out.as_ref().map(std::path::PathBuf::from);
    let write_error: std::sync::Mutex<Option<Failure>> = std::sync::Mutex::new(None);
    let write = |report: &xc::Report| {
        if let Some(dir) = &out_dir {
            let r = write_atomically(&dir.join("report.json"), &report.to_json())
                .and_then(|()| write_atomically(&dir.join("REPORT.md"), &report.to_markdown()));
            if let Err(e) = r {
                let mut slot = write_error.lock().unwrap_or_else(PoisonError::into_inner);
                slot.get_or_insert(e);
            }
        }
    };
    let partial = std::sync::Mutex::new(report.clone());
    let progress = |gpu: &[Option<ProgramReport>]| {
        let mut r = partial.lock().unwrap_or_else(PoisonError::into_inner);
        let finished = assemble(gpu, &mut r);
        r.progress = Some(format!("{finished} of {total} programs done; the run had not finished"));
        write(&r);
    };
    let results: Vec<Option<ProgramReport>> = match &source {
        Ok(workers) => workers.run(&cases, &progress).into_iter().map(Some).collect(),
        Err(saved) => cases.iter().map(|c| Some(xc::against(c, saved))).collect(),
    };
    assemble(&results, &mut report);
    report.progress = None;
    write(&report);
    if let Some(dir) = &args.save_buffers {
        for ((r, &k), case) in results.iter().zip(&places).zip(&cases) {
            let (Some(r), Some((_, program, _))) = (r, named.get(k)) else {
                continue;
            };
            if r.gpu_buffers.is_empty() {
                continue;
            }
            let buffers: serde_json::Map<String, serde_json::Value> = case
                .kernel
                .buffers
                .iter()
                .zip(&r.gpu_buffers)
                .map(|(b, data)| (b.name.clone(), serde_json::json!(data)))
                .collect();
            let text = serde_json::to_string_pretty(&serde_json::json!({
                "program": program.name,
                "gpu": info.name,
                "buffers": buffers,
            }))
            .unwrap_or_default();
            write_atomically(
                &std::path::Path::new(dir).join(format!("{}.gpu.json", program.name)),
                &(text + "\n"),
            )?;
        }
    }
    if let Some(e) = write_error.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    let text = match args.format {
        Format::Json => report.to_json(),
        Format::Text => report.to_text(),
    };
    if report.passed() {
        Ok(text)
    } else {
        emit(&text)?;
        Err(Failure {
            message: "error: the GPU and warpsim disagree (or a program could not be compared): see above".into(),
            code: 1,
        })
    }
}

/// Sends every event to two sinks.
struct Tee<'a, A, B>(&'a mut A, &'a mut B);

impl<A: warpsim::TraceSink, B: warpsim::TraceSink> warpsim::TraceSink for Tee<'_, A, B> {
    const ENABLED: bool = true;
    fn event(&mut self, event: warpsim::Event) {
        self.0.event(event.clone());
        self.1.event(event);
    }
}

/// `--trace-file`: events streamed as JSON lines, as they come. Into a regular file (new or replaced) through a
/// temporary file beside it, renamed over it when the run ends (a fault included: the trace up to it), removed on
/// a write error or a signal; into anything else (a FIFO, a device, `/dev/stdout`) directly.
struct TraceFile {
    path: std::path::PathBuf,
    out: Option<Output>,
    error: Option<std::io::Error>,
}

/// The sink over a [`TraceFile`] for one run; hands the writer back when dropped.
struct TraceFileSink<'f, 'k> {
    file: &'f mut TraceFile,
    lines: Option<render::json::JsonLines<'k, Output>>,
}

impl TraceFile {
    fn create(path: &str) -> Result<TraceFile, Failure> {
        let path = Path::new(path).to_path_buf();
        let out = Output::open(&path).map_err(|e| write_failure(&path, &e))?;
        Ok(TraceFile {
            path,
            out: Some(out),
            error: None,
        })
    }

    fn sink<'f, 'k>(&'f mut self, kernel: &'k warpsim::Kernel) -> TraceFileSink<'f, 'k> {
        let lines = self.out.take().map(|out| render::json::JsonLines::new(kernel, out));
        TraceFileSink { file: self, lines }
    }

    fn finish(mut self) -> Result<(), Failure> {
        let result = match (self.error.take(), self.out.take()) {
            (Some(e), Some(out)) => {
                out.discard();
                Err(e)
            }
            (Some(e), None) => Err(e),
            (None, Some(out)) => out.commit(),
            (None, None) => Ok(()),
        };
        result.map_err(|e| write_failure(&self.path, &e))
    }
}

impl warpsim::TraceSink for TraceFileSink<'_, '_> {
    const ENABLED: bool = true;
    fn event(&mut self, event: warpsim::Event) {
        if let Some(lines) = self.lines.as_mut() {
            lines.event(event);
        }
    }
}

impl Drop for TraceFileSink<'_, '_> {
    fn drop(&mut self) {
        if let Some(mut lines) = self.lines.take() {
            // The writer comes back even after an error, so that its temporary file is removed.
            match lines.error.take() {
                Some(e) => {
                    self.file.error = Some(e);
                    self.file.out = lines.finish().ok();
                }
                None => match lines.finish() {
                    Ok(out) => self.file.out = Some(out),
                    Err(e) => self.file.error = Some(e),
                },
            }
        }
    }
}

fn write_failure(path: &Path, e: &std::io::Error) -> Failure {
    Failure::input(format!("error: cannot write `{}`: {e}", path.display()))
}

/// Where an output path leads, decided when it is opened.
enum Destination {
    /// A regular file, new or replaced (through a symbolic link: its target), written whole or not at all: a
    /// temporary file beside it, renamed over it when complete.
    Replace(std::path::PathBuf),
    /// This process's standard output or error, named as `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/2`, …: written
    /// through the descriptor itself, so it goes wherever that goes (a terminal, a pipe, a redirected file).
    Descriptor(u8),
    /// Anything else that exists and is not a folder (a FIFO, a device): opened for writing and written in place,
    /// never replaced.
    InPlace(std::path::PathBuf),
}

/// Decide where `path` leads: an error for a symbolic link that leads nowhere (it is not followed into
/// creating a file elsewhere) and for a directory.
fn destination(path: &Path) -> std::io::Result<Destination> {
    use std::io::{Error, ErrorKind};
    let text = path.to_string_lossy();
    for (fd, names) in [
        (1, ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]),
        (2, ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"]),
    ] {
        if names.contains(&text.as_ref()) {
            return Ok(Destination::Descriptor(fd));
        }
    }
    let link = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Destination::Replace(path.to_path_buf())),
        Err(e) => return Err(e),
        Ok(m) => m,
    };
    let meta = if link.file_type().is_symlink() {
        match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                let target = std::fs::read_link(path)
                    .map(|t| t.display().to_string())
                    .unwrap_or_default();
                return Err(Error::new(
                    ErrorKind::NotFound,
                    format!("it is a symbolic link to `{target}`, which does not exist"),
                ));
            }
            Err(e) => return Err(e),
        }
    } else {
        link.clone()
    };
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::IsADirectory, "it is a directory"));
    }
    if !meta.is_file() {
        return Ok(Destination::InPlace(path.to_path_buf()));
    }
    if link.file_type().is_symlink() {
        // The link stays a link: its target is replaced.
        return std::fs::canonicalize(path).map(Destination::Replace);
    }
    Ok(Destination::Replace(path.to_path_buf()))
}

/// An output being written: a temporary file that becomes the target on [`Output::commit`], or the target
/// itself.
struct Output {
    writer: std::io::BufWriter<std::fs::File>,
    /// (temporary file, the file it replaces)
    replace: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

impl Output {
    fn open(path: &Path) -> std::io::Result<Output> {
        use std::os::fd::AsFd;
        let (file, replace) = match destination(path)? {
            Destination::Replace(target) => {
                if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                let tmp = temp_beside(&target);
                (temp_files::create(&tmp)?, Some((tmp, target)))
            }
            Destination::Descriptor(fd) => {
                let owned = if fd == 1 {
                    std::io::stdout().as_fd().try_clone_to_owned()?
                } else {
                    std::io::stderr().as_fd().try_clone_to_owned()?
                };
                (std::fs::File::from(owned), None)
            }
            Destination::InPlace(path) => (std::fs::OpenOptions::new().write(true).open(path)?, None),
        };
        Ok(Output {
            writer: std::io::BufWriter::with_capacity(1 << 20, file),
            replace,
        })
    }

    /// Flush and put the file in place; on an error the temporary file is removed.
    fn commit(mut self) -> std::io::Result<()> {
        let flushed = self.writer.flush();
        match (flushed, self.replace.take()) {
            (Ok(()), Some((tmp, target))) => temp_files::rename(&tmp, &target),
            (Ok(()), None) => Ok(()),
            (Err(e), Some((tmp, _))) => {
                temp_files::remove(&tmp);
                Err(e)
            }
            (Err(e), None) => Err(e),
        }
    }

    /// Give up: the temporary file is removed (what went to a FIFO or a device stays sent).
    fn discard(mut self) {
        if let Some((tmp, _)) = self.replace.take() {
            temp_files::remove(&tmp);
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

/// An output never committed (a panic unwinding through the run) leaves no temporary file behind.
impl Drop for Output {
    fn drop(&mut self) {
        if let Some((tmp, _)) = self.replace.take() {
            temp_files::remove(&tmp);
        }
    }
}

/// The temporary files of this process, removed when a signal (SIGINT, SIGTERM, SIGHUP) ends it: one lock
/// orders each file's creation, rename and removal with the signal's clean-up, so a file is either removed by
/// the clean-up or whole in place.
mod temp_files {
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

    static FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

    fn files() -> MutexGuard<'static, Vec<PathBuf>> {
        FILES.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Catch SIGINT, SIGTERM and SIGHUP on a thread of their own (once): remove every temporary file, then exit
    /// with the shell's status for the signal (128 + its number: 130, 143, 129).
    fn watch_signals() {
        static WATCHING: OnceLock<()> = OnceLock::new();
        WATCHING.get_or_init(|| {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
                return;
            };
            let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    // The lock is kept until the process ends: no file is created or renamed after this.
                    let files = files();
                    for f in files.iter() {
                        let _ = std::fs::remove_file(f);
                    }
                    std::process::exit(128 + signal);
                }
            });
        });
    }

    /// Create (or truncate) the temporary file `tmp`, to be removed if a signal ends the process.
    pub fn create(tmp: &Path) -> std::io::Result<std::fs::File> {
        watch_signals();
        let mut files = files();
        let file = std::fs::File::create(tmp)?;
        files.push(tmp.to_path_buf());
        Ok(file)
    }

    /// Rename the complete `tmp` over `target`; on failure remove it.
    pub fn rename(tmp: &Path, target: &Path) -> std::io::Result<()> {
        let mut files = files();
        files.retain(|f| f != tmp);
        std::fs::rename(tmp, target).inspect_err(|_| {
            let _ = std::fs::remove_file(tmp);
        })
    }

    /// Remove `tmp` (an incomplete output).
    pub fn remove(tmp: &Path) {
        let mut files = files();
        if let Some(k) = files.iter().position(|f| f == tmp) {
            files.swap_remove(k);
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// The temporary file beside `path` that becomes `path` when complete: `.NAME.PID.tmp`, so no two outputs of
/// one run (nor two runs) share one.
fn temp_beside(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Write a whole output or nothing (see [`Output`]): every error reported, naming `path`.
fn write_atomically(path: &Path, text: &str) -> Result<(), Failure> {
    write_bytes_atomically(path, text.as_bytes())
}

/// [`write_atomically`] for bytes.
fn write_bytes_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let mut out = Output::open(path).map_err(|e| write_failure(path, &e))?;
    match out.write_all(bytes) {
        Ok(()) => out.commit(),
        Err(e) => {
            out.discard();
            Err(e)
        }
    }
    .map_err(|e| write_failure(path, &e))
}

fn emit_cuda(program: &str, shape: &ShapeArgs, color: bool) -> Result<String, Failure> {
    let p = load_for(program, color, shape)?;
    if !(p.warp_sizes.0..=p.warp_sizes.1).contains(&32) {
        return Err(Failure::input(format!(
            "error: `{}` does not run at W = 32 (its `.warp_sizes` is {}..{}), and CUDA warps have 32 lanes",
            p.name, p.warp_sizes.0, p.warp_sizes.1
        )));
    }
    let machine =
        Machine::new(Config::hopper().with_warp_size(32)).map_err(|e| Failure::input(format!("error: {e}")))?;
    let kernel = machine
        .load(&p, &shape.launch()?)
        .map_err(|e| Failure::input(e.render(&p, color)))?;
    let cuda = warpsim_tools::emit_cuda::emit(&kernel, &warpsim_tools::emit_cuda::kernel_name(&p.name))
        .map_err(|e| Failure::input(format!("error: {}", e.0)))?;
    Ok(warpsim_tools::emit_cuda::translation_unit(&cuda))
}

/// A progress bar on stderr for a run longer than about a second: only when stderr is a terminal and `show`
/// (never for JSON). Returns the callback for [`RunOptions::progress`] and the bar, to clear at the end.
fn progress_bar(show: bool) -> (Option<ProgressFn>, Option<ProgressBar>) {
    if !show || !std::io::stderr().is_terminal() {
        return (None, None);
    }
    let bar = ProgressBar::hidden();
    let style = ProgressStyle::with_template("{spinner} cycle {msg}  [{bar:30}] {pos}/{len} blocks  {elapsed}")
        .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    let start = Instant::now();
    let b = bar.clone();
    let callback = move |p: Progress| {
        if b.is_hidden() {
            if start.elapsed() < Duration::from_secs(1) {
                return;
            }
            b.set_draw_target(ProgressDrawTarget::stderr());
        }
        b.set_length(p.blocks);
        b.set_position(p.blocks_finished);
        b.set_message(p.cycle.to_string());
    };
    (Some(Arc::new(callback)), Some(bar))
}

/// The process's peak resident memory in bytes (Linux: `VmHWM` of /proc/self/status); None elsewhere.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

fn bench(args: &BenchArgs, color: bool) -> Result<String, Failure> {
    let setup = Instant::now();
    let machine = args.machine.machine()?;
    let config = machine.config();
    let threads = args.machine.threads()?;
    let program = load_for(&args.program, color, &args.shape)?;
    let assembly_seconds = setup.elapsed().as_secs_f64();
    let saves = args.saves.targets(&program)?;
    let launch = Launch {
        contents: args.inputs.contents(&program)?,
        ..args.shape.launch()?
    };
    let mut kernel = machine
        .load(&program, &launch)
        .map_err(|e| Failure::input(e.render(&program, color)))?;
    drop(launch);
    // The run consumes the buffers: no second copy.
    let memory = kernel.take_buffers();
    let buffer_bytes: u64 = memory.iter().map(|b| b.data.len() as u64 * 4).sum();
    let setup_seconds = setup.elapsed().as_secs_f64();
    if !args.scaling.is_empty() {
        return bench_scaling(args, &machine, &kernel, &memory, color);
    }
    let (progress, bar) = progress_bar(args.format == Format::Text);
    let options = RunOptions {
        max_cycles: args.max_cycles,
        max_instructions: args.max_instructions,
        timeout: args.timeout.0,
        threads,
        progress,
        ..RunOptions::default()
    };
    let start = Instant::now();
    let result = machine.run_on(&kernel, memory, &options, &mut NoTrace);
    let wall = start.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let out = result.map_err(|fault| Failure {
        message: fault.render(&kernel, color),
        code: fault_code(&fault),
    })?;
    let errors = save_buffers(&saves, &out.buffers);
    if !errors.is_empty() {
        return Err(Failure::input(errors.join("\n")));
    }
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    #[allow(clippy::cast_precision_loss, reason = "a rate, printed to 4 significant digits")]
    let per_second = |n: u64| if wall > 0.0 { n as f64 / wall } else { 0.0 };
    let peak = peak_memory();
    let s = &out.stats;
    match args.format {
        Format::Json => {
            let doc = serde_json::json!({
                "program": kernel.program.name,
                "warp_size": kernel.warp_size,
                "grid": kernel.grid,
                "block": kernel.block,
                "grid_shape": [kernel.grid_dim.x, kernel.grid_dim.y, kernel.grid_dim.z],
                "block_shape": [kernel.block_dim.x, kernel.block_dim.y, kernel.block_dim.z],
                "sms": config.sms,
                "threads": threads,
                "wall_seconds": wall,
                "setup_seconds": setup_seconds,
                "assembly_seconds": assembly_seconds,
                "initialisation_seconds": setup_seconds - assembly_seconds,
                "cycles": out.cycles,
                "warp_instructions": s.warp_instructions,
                "lane_instructions": s.lane_instructions,
                "lane_instructions_per_second": per_second(s.lane_instructions),
                "warp_instructions_per_second": per_second(s.warp_instructions),
                "cycles_per_second": per_second(out.cycles),
                "peak_memory_bytes": peak,
                "buffer_bytes": buffer_bytes,
            });
            emit_json(&doc)?;
            Ok(String::new())
        }
        Format::Text => {
            #[allow(clippy::cast_precision_loss, reason = "a size in MiB, printed to one decimal")]
            let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
            let mut text = format!(
                "{}: W={}, grid {} x block {}, {} SMs, {} host thread{}\n",
                kernel.program.name,
                kernel.warp_size,
                kernel.grid_dim,
                kernel.block_dim,
                config.sms,
                threads,
                if threads == 1 { "" } else { "s" }
            );
            let _ = writeln!(
                text,
                "  wall               {wall:.3} s (simulation; setup {setup_seconds:.3} s: assembly {assembly_seconds:.3} s, \
                 buffers and kernel {:.3} s)",
                setup_seconds - assembly_seconds
            );
            let _ = writeln!(
                text,
                "  cycles             {:<14} {:.3e} per second",
                out.cycles,
                per_second(out.cycles)
            );
            let _ = writeln!(
                text,
                "  warp instructions  {:<14} {:.3e} per second",
                s.warp_instructions,
                per_second(s.warp_instructions)
            );
            let _ = writeln!(
                text,
                "  lane instructions  {:<14} {:.3e} per second",
                s.lane_instructions,
                per_second(s.lane_instructions)
            );
            match peak {
                Some(p) => {
                    let _ = writeln!(
                        text,
                        "  peak memory        {:.1} MiB (the program's buffers: {:.1} MiB)",
                        mib(p),
                        mib(buffer_bytes)
                    );
                }
                None => text.push_str("  peak memory        not measured on this system\n"),
            }
            Ok(text)
        }
    }
}

fn parse_set(set: &[String]) -> Result<Vec<(String, warpsim_isa::Value)>, Failure> {
    set.iter()
        .map(|s| {
            let (name, value) = s.split_once('=').filter(|(n, _)| !n.trim().is_empty()).ok_or_else(|| {
                Failure::input(format!("error: `--set {s}`: expected NAME=VALUE\n  help: for example `--set target_bin=3`"))
            })?;
            let v = warpsim::kernel::parse_value(value).ok_or_else(|| {
                // Digits that do not fit: say so, rather than "not a number".
                let digits = value.trim().trim_start_matches('-');
                if digits.starts_with(|c: char| c.is_ascii_digit()) && digits.parse::<f64>().is_ok() {
                    Failure::input(format!("error: `--set {s}`: `{value}` is out of range\n  help: integers are 64-bit (-9223372036854775808 to 9223372036854775807); floats must be finite"))
                } else {
                    Failure::input(format!("error: `--set {s}`: `{value}` is not a number\n  help: use an integer (42, -2, 0x1f) or a float (0.5)"))
                }
            })?;
            Ok((name.trim().to_string(), v))
        })
        .collect()
}

fn run(args: &RunArgs, color: bool, color_out: bool) -> Result<String, Failure> {
    let machine = args.machine.machine()?;
    let config = machine.config();
    let program = load_for(&args.program, color, &args.shape)?;
    let saves = args.saves.targets(&program)?;
    let launch = Launch {
        contents: args.inputs.contents(&program)?,
        ..args.shape.launch()?
    };
    let mut kernel = machine
        .load(&program, &launch)
        .map_err(|e| Failure::input(e.render(&program, color)))?;
    // The kernel has its own copy of the contents.
    drop(launch);
    // The run consumes the initial buffers (the renderers need only their names and types): no second copy.
    let memory = kernel.take_buffers();
    let schedule = match (args.schedule, args.seed) {
        (ScheduleArg::Random, seed) => Schedule::Random {
            seed: seed.unwrap_or(1),
        },
        (_, Some(_)) => {
            return Err(Failure::input(
                "error: --seed is the seed of a random schedule\n  help: add `--schedule random`",
            ));
        }
        (ScheduleArg::Default, None) => Schedule::Policy,
        (ScheduleArg::Reverse, None) => Schedule::Reverse,
    };
    let CheckArg {
        checks,
        scheduling: check_scheduling,
    } = args.check.unwrap_or_default();
    // The scheduling check reruns the kernel from its initial buffers.
    let initial = check_scheduling.then(|| memory.clone());
    let options = RunOptions {
        max_cycles: args.max_cycles,
        max_instructions: args.max_instructions,
        timeout: args.timeout.0,
        checks,
        schedule,
        threads: args.machine.threads()?,
        scheduling: args.scheduling,
        profile: args.stats || args.format == Format::Json || args.html.is_some(),
        ..RunOptions::default()
    };
    let files = OutputFiles::from_args(args)?;
    let mut trace = TraceBuffer::with_limit(args.max_trace_events);
    let (progress, bar) = progress_bar(args.format == Format::Text);
    let options = RunOptions { progress, ..options };
    let in_memory = args.trace || files.any();
    let mut stream = args.trace_file.as_deref().map(TraceFile::create).transpose()?;
    let result = match (&mut stream, in_memory) {
        (Some(file), true) => machine.run_on(&kernel, memory, &options, &mut Tee(&mut file.sink(&kernel), &mut trace)),
        (Some(file), false) => machine.run_on(&kernel, memory, &options, &mut file.sink(&kernel)),
        (None, true) => machine.run_on(&kernel, memory, &options, &mut trace),
        (None, false) => machine.run_on(&kernel, memory, &options, &mut NoTrace),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let dropped = trace.dropped;
    // The pictures are drawn from the trace up to a fault, too; each file on its own.
    let mut file_errors = files.write(&kernel, config, &trace.events, &result, dropped);
    // The buffers are saved only after a run that succeeds (no fault, nothing found by --check).
    if let Ok(out) = &result
        && out.findings.is_empty()
    {
        file_errors.extend(save_buffers(&saves, &out.buffers));
    }
    if let Some(Err(e)) = stream.map(TraceFile::finish) {
        file_errors.push(e.message);
    }
    let events = args.trace.then_some(trace.events.as_slice());
    // A likely missing barrier, said once on stderr after the run's output, whatever the format (with
    // `--check race` the engine does not look: the race check reports it).
    let unordered = result
        .as_ref()
        .ok()
        .and_then(|o| o.unordered.as_ref())
        .map(|u| u.render(&kernel, color));
    let warn_unordered = || {
        if let Some(warning) = &unordered {
            eprint!("{warning}");
        }
    };
    let outcome = (|| match args.format {
        Format::Json => {
            let mut doc = render::json::Document::new(&kernel, result.as_ref(), events);
            if dropped > 0 {
                doc.note_dropped_events(dropped);
                if args.trace {
                    eprintln!(
                        "note: the trace was cut short after {} events ({dropped} more not recorded, see \
                         `trace_dropped_events`); raise --max-trace-events (at most {MAX_TRACE_EVENTS}) or stream \
                         every event with --trace-file FILE",
                        trace.events.len()
                    );
                }
            }
            if checks.any() {
                doc.note_checks(checks);
            }
            emit_json(&doc)?;
            warn_unordered();
            match result {
                Ok(output) if output.findings.is_empty() => Ok(String::new()),
                Ok(output) => Err(findings_failure(&kernel, &output.findings, checks, None, color)),
                Err(fault) => Err(findings_failure(&kernel, &fault.findings, checks, Some(&fault), color)),
            }
        }
        Format::Text => {
            let mut out = render::text::header(&kernel);
            let width = output_width(args.width);
            if let Some(events) = events {
                if args.view != View::Grid {
                    out.push_str(&render::text::trace(&kernel, events, width));
                }
                if args.view != View::Detail {
                    out.push_str(&render::grid::grid(&kernel, events, width));
                }
                if dropped > 0 {
                    let _ = writeln!(
                        out,
                        "\n(trace truncated: {dropped} more events were not recorded; raise --max-trace-events, up to \
                         {MAX_TRACE_EVENTS}, or stream every event with --trace-file FILE)"
                    );
                }
                out.push('\n');
            }
            let paint = |text: String| {
                if color_out {
                    render::colour::paint(&text, render::text::mask_columns(kernel.warp_size, width))
                } else {
                    text
                }
            };
            match result {
                Ok(output) => {
                    out.push_str(&render::text::printed(&output));
                    out.push_str(&render::text::summary(&output, width));
                    if args.stats {
                        out.push_str(&render::text::stats(&output));
                        out.push_str(&render::text::lines(&kernel, &output, known_error(&kernel).as_deref()));
                    }
                    if checks.any() {
                        out.push_str(&render::text::checks(checks, &output.findings));
                    }
                    if output.findings.is_empty() {
                        if output.unordered.is_none() {
                            return Ok(paint(out));
                        }
                        emit(&paint(out))?;
                        warn_unordered();
                        return Ok(String::new());
                    }
                    // The run's output, then the findings on stderr.
                    emit(&paint(out))?;
                    Err(findings_failure(&kernel, &output.findings, checks, None, color))
                }
                Err(fault) => {
                    // The trace up to the fault is still shown.
                    emit(&paint(out))?;
                    Err(findings_failure(&kernel, &fault.findings, checks, Some(&fault), color))
                }
            }
        }
    })();
    // --check scheduling: after a run that passed, the two schedulings compared (from the initial buffers).
    let outcome = match (outcome, initial) {
        // A program written for independent thread scheduling has no lockstep behaviour to compare with.
        (Ok(text), Some(_)) if kernel.program.scheduling == Some(warpsim::Scheduling::Its) => {
            Ok(if args.format == Format::Text {
                format!(
                    "{text}scheduling: the program declares `.scheduling its` (written for independent thread scheduling): not compared with lockstep (--check scheduling)\n"
                )
            } else {
                text
            })
        }
        (Ok(text), Some(initial)) => {
            let plain = RunOptions {
                progress: None,
                ..options.clone()
            };
            match machine.scheduling_difference(&kernel, &initial, &plain) {
                None if args.format == Format::Text => Ok(format!(
                    "{text}scheduling: the same results under --scheduling lockstep and its (--check scheduling)\n"
                )),
                None => Ok(text),
                Some(d) => {
                    emit(&text)?;
                    Err(Failure {
                        message: format!("error: {}\n", d.message()),
                        code: 1,
                    })
                }
            }
        }
        (outcome, _) => outcome,
    };
    if file_errors.is_empty() {
        return outcome;
    }
    // The run's own output still comes first; then why a file was not written (a fault's status wins).
    let errors = file_errors.join("\n");
    match outcome {
        Ok(text) => {
            emit(&text)?;
            Err(Failure::input(errors))
        }
        Err(f) => Err(Failure {
            message: format!("{}\n{errors}", f.message.trim_end()),
            code: f.code,
        }),
    }
}

/// What goes to stderr after a run with findings or a fault: each finding, then the fault; exit status 1 (3 for
/// the time limit).
fn findings_failure(
    kernel: &warpsim::Kernel,
    findings: &[warpsim::Finding],
    checks: Checks,
    fault: Option<&warpsim::Fault>,
    color: bool,
) -> Failure {
    let mut message = String::new();
    for f in findings {
        message.push_str(&f.render(kernel, color));
        message.push('\n');
    }
    if !findings.is_empty() {
        let n = findings.len();
        let _ = writeln!(
            message,
            "error: --check {}: {n} problem{} found",
            checks.names(),
            if n == 1 { "" } else { "s" }
        );
    }
    if let Some(fault) = fault {
        if !findings.is_empty() {
            message.push('\n');
        }
        message.push_str(&fault.render(kernel, color));
    }
    let code = fault.map(fault_code).unwrap_or(1);
    Failure { message, code }
}

/// A fault's exit status: 3 for the wall-clock limit (`--timeout`: the host was too slow, or the program loops),
/// 1 for every other (the simulated program's).
fn fault_code(fault: &warpsim::Fault) -> u8 {
    match fault.kind {
        warpsim::FaultKind::Timeout { .. } => 3,
        _ => 1,
    }
}

/// The files `sim run` draws (`--svg`, `--html`, `--trace-format`), checked before the run.
struct OutputFiles {
    svg: Option<(String, render::svg::SvgOptions)>,
    html: Option<String>,
    chrome: Option<String>,
}

impl OutputFiles {
    fn from_args(args: &RunArgs) -> Result<OutputFiles, Failure> {
        let chrome = match &args.trace_format {
            None => None,
            Some(v) => match (v[0].as_str(), v.get(1)) {
                ("chrome", Some(file)) => Some(file.clone()),
                (other, _) => {
                    return Err(Failure::input(format!(
                        "error: `--trace-format {other}`: unknown trace format\n  help: the formats are: chrome (for example `--trace-format chrome trace.json`, then open it in https://ui.perfetto.dev or chrome://tracing)"
                    )));
                }
            },
        };
        let picture_flag = [
            ("--draw-block", args.draw_block.is_some()),
            ("--warps", args.warps.is_some()),
            ("--steps", args.steps.is_some()),
        ]
        .into_iter()
        .find(|(_, set)| *set);
        if let (None, Some((flag, _))) = (&args.svg, picture_flag) {
            return Err(Failure::input(format!(
                "error: `{flag}` chooses what `--svg` draws, and there is no `--svg FILE`\n  help: add `--svg FILE`"
            )));
        }
        let svg = match &args.svg {
            None => None,
            Some(file) => {
                let warps = args.warps.as_deref().map(parse_list).transpose()?;
                let steps = args.steps.as_deref().map(parse_steps).transpose()?;
                Some((
                    file.clone(),
                    render::svg::SvgOptions {
                        block: args.draw_block,
                        warps,
                        steps,
                        banks: 32,
                    },
                ))
            }
        };
        // A path that cannot be written is refused before the run, and so are two outputs into one file.
        let outputs = [
            ("--svg", svg.as_ref().map(|(f, _)| f)),
            ("--html", args.html.as_ref()),
            ("--trace-format chrome", chrome.as_ref()),
            ("--trace-file", args.trace_file.as_ref()),
        ];
        let outputs: Vec<(&str, &String)> = outputs.into_iter().filter_map(|(f, p)| Some((f, p?))).collect();
        for (k, &(flag, file)) in outputs.iter().enumerate() {
            check_output(flag, file)?;
            let parts = |p: &String| -> Vec<std::path::PathBuf> {
                let p = Path::new(p).components();
                p.filter(|c| *c != std::path::Component::CurDir)
                    .map(|c| c.as_os_str().into())
                    .collect()
            };
            let same = |other: &String| parts(other) == parts(file);
            if let Some((first, _)) = outputs[..k].iter().find(|(_, other)| same(other)) {
                return Err(Failure::input(format!(
                    "error: `{first}` and `{flag}` both write `{file}`\n  help: give each output its own file"
                )));
            }
        }
        Ok(OutputFiles {
            svg,
            html: args.html.clone(),
            chrome,
        })
    }

    fn any(&self) -> bool {
        self.svg.is_some() || self.html.is_some() || self.chrome.is_some()
    }

    /// Write every requested file, each on its own; the errors, one message each.
    fn write(
        &self,
        kernel: &warpsim::Kernel,
        config: &Config,
        events: &[warpsim::Event],
        result: &Result<warpsim::RunOutput, warpsim::Fault>,
        dropped: u64,
    ) -> Vec<String> {
        let mut errors = Vec::new();
        let mut written = |file: &str, text: Result<String, String>| match text
            .map_err(Failure::input)
            .and_then(|t| write_atomically(Path::new(file), &t))
        {
            Ok(()) => eprintln!("wrote {file}"),
            Err(f) => errors.push(f.message),
        };
        if dropped > 0 && self.any() {
            eprintln!(
                "note: the trace was cut short after {} events ({dropped} more not recorded): the files show the run up to there; raise --max-trace-events (at most {MAX_TRACE_EVENTS}) to see more",
                events.len()
            );
        }
        if let Some((file, opts)) = &self.svg {
            let opts = render::svg::SvgOptions {
                banks: config.shared_banks,
                ..opts.clone()
            };
            written(
                file,
                render::svg::diagram(kernel, events, &opts).map_err(|e| format!("error: --svg {file}: {e}")),
            );
        }
        if let Some(file) = &self.html {
            let outcome = match result {
                Ok(out) => Ok(out.cycles),
                Err(f) => Err(f.message()),
            };
            if events.len() > render::html::MAX_EVENTS {
                eprintln!(
                    "note: {file} holds the first {} of {} events (a page a browser opens quickly)",
                    render::html::MAX_EVENTS,
                    events.len()
                );
            }
            written(
                file,
                Ok(render::html::stepper(
                    kernel,
                    events,
                    outcome,
                    dropped,
                    config.shared_banks,
                    result.as_ref().map_or(&[][..], |o| o.lines.as_slice()),
                )),
            );
        }
        if let Some(file) = &self.chrome {
            written(file, Ok(render::chrome::chrome_trace(kernel, events)));
        }
        errors
    }
}

/// Refuse, before the run, an output path that cannot become a file: empty, a directory (or ending in `/`), or
/// inside something that is not a directory. A missing folder is fine: it is created.
fn check_output(flag: &str, file: &str) -> Result<(), Failure> {
    let path = Path::new(file);
    if file.is_empty() {
        return Err(Failure::input(format!("error: `{flag}` needs a file name")));
    }
    if file.ends_with(std::path::is_separator) || path.is_dir() {
        let example = path.join(match flag {
            "--svg" => "out.svg",
            "--html" => "out.html",
            "--trace-file" => "trace.jsonl",
            "--save" => "out.npy",
            _ => "trace.json",
        });
        return Err(Failure::input(format!(
            "error: `{flag} {file}`: `{file}` is a directory\n  help: name a file, for example `{}`",
            example.display()
        )));
    }
    // A symbolic link is followed to the file it names, which is replaced (the link stays); one that leads
    // nowhere is refused rather than followed into creating a file elsewhere.
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) && std::fs::metadata(path).is_err() {
        let target = std::fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return Err(Failure::input(format!(
            "error: `{flag} {file}`: `{file}` is a symbolic link to `{target}`, which does not exist\n  help: \
             remove the link, or create the file it names"
        )));
    }
    for dir in path.ancestors().skip(1).filter(|d| !d.as_os_str().is_empty()) {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(Failure::input(format!(
                    "error: `{flag} {file}`: `{}` is a file, not a folder",
                    dir.display()
                )));
            }
            Err(_) => {}
        }
    }
    Ok(())
}

/// `0-3`, `0,2`, `5`, `0-1,4`: sorted, without repeats.
fn parse_list(text: &str) -> Result<Vec<u32>, Failure> {
    let bad = || {
        Failure::input(format!(
            "error: `--warps {text}`: expected warp numbers and inclusive ranges separated by commas\n  help: for example `--warps 0-3` or `--warps 0,2`"
        ))
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (part, part),
        };
        let (a, b): (u32, u32) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if a > b || b - a > 4096 {
            return Err(bad());
        }
        out.extend(a..=b);
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `8` (steps 1 to 8) or `5-8`.
fn parse_steps(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || {
        Failure::input(format!(
            "error: `--steps {text}`: expected a count or an inclusive range of exchange steps, counted from 1\n  help: for example `--steps 8` (steps 1 to 8) or `--steps 5-8`"
        ))
    };
    let range = match text.split_once('-') {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => (1, text.trim().parse().map_err(|_| bad())?),
    };
    if range.0 == 0 || range.0 > range.1 {
        return Err(bad());
    }
    Ok(range)
}
