//! # warpsim
//!
//! A cycle-level model of a GPU of `config.sms` streaming multiprocessors (132 on the default `hopper`),
//! simulated in parallel with results independent of the host's threads, running warpsim's SIMT assembly:
//! lanes grouped into warps with a register file per lane, the `shfl.sync` network, SIMT divergence with a
//! reconvergence stack, shared memory with banks, barriers, atomics and global memory, warp schedulers and a
//! scoreboard, driven cycle by cycle.
//!
//! The library is a small front door; the hardware units behind it are private and free to change:
//!
//! - [`Machine`]: a validated [`Config`]; it [`Machine::load`]s a program for a [`Launch`] into a [`Kernel`]
//!   (the program representation: code decoded, buffers made) and [`Machine::run`]s it with [`RunOptions`],
//!   sending [`Event`]s to a [`TraceSink`]; a run gives a [`RunOutput`] (buffers, cycles, [`Stats`], the
//!   sanitizers' [`Finding`]s) or a [`Fault`];
//! - [`programs`]: the shipped programs and the include resolver;
//! - [`data`]: a buffer's contents as the bytes of a `.npy`, `.bin` or `.json` file and back (a [`Launch`]'s
//!   [`Contents`] give a buffer's initial contents instead of its initialiser);
//! - [`render`]: text, JSON, SVG, HTML and Chrome-trace renderers, which read events and the kernel's
//!   instruction descriptions only (`render::json::event` is the one serialisation of an event);
//! - [`kernel`] and [`trace`]: the program representation and the events, for tools that read them (the CUDA
//!   emitter, the cross-check); [`shuffle`]: the shuffle network's rule, PTX's pseudo-code for `W` lanes;
//! - [`instantiate`], [`run`] and [`simulate`]: the same steps as free functions, for tests.
//!
//! ```
//! use warpsim::{programs, simulate, Config, Launch};
//! let program = programs::assemble("butterfly_max").unwrap().unwrap();
//! let out = simulate(&program, &Config::hopper().with_warp_size(8), &Launch::default()).unwrap();
//! let values: Vec<f32> = out.buffer("out").unwrap().data.iter().map(|&b| f32::from_bits(b)).collect();
//! assert_eq!(values, vec![1000.0; 8]);
//! ```

pub(crate) mod alu;
pub(crate) mod barrier;
pub(crate) mod block;
pub(crate) mod cache;
pub(crate) mod check;
pub mod config;
pub mod data;
pub(crate) mod execute;
pub(crate) mod fault;
pub(crate) mod gpu;
mod its;
pub mod kernel;
pub(crate) mod lsu;
mod machine;
pub(crate) mod printf;
pub mod profile;
pub mod programs;
pub mod ptx;
pub(crate) mod register_file;
pub mod render;
pub(crate) mod rows;
pub(crate) mod run;
pub(crate) mod sanitizers;
pub(crate) mod scoreboard;
pub(crate) mod sfu;
pub(crate) mod shared_memory;
pub mod shuffle;
pub(crate) mod simt_stack;
pub(crate) mod sm;
pub(crate) mod team;
pub(crate) mod timing;
pub mod trace;
pub mod unroll;
pub(crate) mod vote;
pub(crate) mod warp;
pub(crate) mod warp_scheduler;

pub use check::{Access, AccessKind, Checks, Finding, FindingKind, Hazard, MaskReason, ShuffleReason, UnorderedRead};
pub use config::{Config, DebugBuild, DebugSass, SchedulerPolicy, SlowPaths, Timing};
pub use fault::{AssertionFailure, Fault, FaultKind};
pub use gpu::{run, run_with};
pub use kernel::{Buffer, Contents, Dim3, Kernel, Launch, Limits, LoadError, instantiate, instantiate_with};
pub use machine::{Machine, SchedulingDifference};
pub use profile::LineCycles;
pub use run::{Printed, Progress, ProgressFn, RunOptions, RunOutput, Stats};
pub use run::{Stalls, WarpStalls};
pub use trace::{Event, NoTrace, TraceBuffer, TraceSink};
pub use warp_scheduler::Schedule;
pub use warpsim_isa::DebugClass;
pub use warpsim_isa::Scheduling;

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
