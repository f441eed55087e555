//! # warpsim
//!
//! A cycle-level model of a GPU of `config.sms` streaming multiprocessors ([`gpu`]; 132 on the default
//! `hopper`), simulated in parallel with results independent of the host's threads, running warpsim's SIMT
//! assembly: lanes grouped into
//! warps with a register file per lane, the `shfl.sync` network, SIMT divergence with a reconvergence stack,
//! global memory, warp schedulers and a scoreboard, driven cycle by cycle. Semantics ([`alu`], [`shuffle`]) are
//! kept apart from timing ([`config::Timing`], [`scoreboard`], [`sm`]).
//!
//! ```
//! use warpsim::{programs, simulate, Config, Launch};
//! let program = programs::assemble("butterfly_max").unwrap().unwrap();
//! let out = simulate(&program, &Config::hopper().with_warp_size(8), &Launch::default()).unwrap();
//! let values: Vec<f32> = out.buffer("out").unwrap().data.iter().map(|&b| f32::from_bits(b)).collect();
//! assert_eq!(values, vec![1000.0; 8]);
//! ```

pub mod alu;
pub mod barrier;
pub mod cache;
pub mod check;
pub mod config;
pub mod fault;
pub mod gpu;
pub mod kernel;
pub(crate) mod lsu;
pub mod programs;
pub(crate) mod register_file;
pub mod render;
pub mod scoreboard;
pub mod shared_memory;
pub mod shuffle;
pub mod simt_stack;
pub mod sm;
pub mod trace;
pub(crate) mod vote;
pub(crate) mod warp_scheduler;

pub use check::{Checks, Finding, FindingKind, UnorderedRead};
pub use config::{Config, SchedulerPolicy, Timing};
pub use fault::{Fault, FaultKind};
pub use gpu::{run, run_with};
pub use kernel::{Buffer, Kernel, Launch, Limits, LoadError, instantiate, instantiate_with};
pub use sm::{Progress, ProgressFn, RunOptions, RunOutput, Stats};
pub use sm::{Stalls, WarpStalls};
pub use trace::{Event, NoTrace, TraceBuffer, TraceSink};
pub use warp_scheduler::Schedule;

/// Why a simulation did not produce output.
#[derive(Debug)]
pub enum SimError {
    Load(LoadError),
    Fault(Box<Fault>),
}

/// Instantiate and run without tracing: the convenient entry point for tests and embedding.
pub fn simulate(program: &warpsim_isa::Program, config: &Config, launch: &Launch) -> Result<RunOutput, SimError> {
    let kernel = instantiate(program, config, launch).map_err(SimError::Load)?;
    run(&kernel, config, &RunOptions::default(), &mut NoTrace).map_err(|f| SimError::Fault(Box::new(f)))
}
