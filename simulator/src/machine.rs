//! The front door: a [`Machine`] (a validated configuration) loads a program for a launch into a [`Kernel`] and
//! runs it, sending events to a [`TraceSink`].
//!
//! ```
//! use warpsim::{programs, Config, Launch, Machine, NoTrace, RunOptions};
//! let machine = Machine::new(Config::hopper().with_warp_size(8)).unwrap();
//! let program = programs::assemble("butterfly_max").unwrap().unwrap();
//! let kernel = machine.load(&program, &Launch::default()).unwrap();
//! let out = machine.run(&kernel, &RunOptions::default(), &mut NoTrace).unwrap();
//! assert_eq!(out.buffer("out").unwrap().data, vec![1000f32.to_bits(); 8]);
//! ```

use crate::Scheduling;
use crate::config::Config;
use crate::fault::Fault;
use crate::kernel::{Buffer, Kernel, Launch, Limits, LoadError};
use crate::run::{RunOptions, RunOutput};
use crate::trace::TraceSink;
use warpsim_isa::Program;

/// A GPU to run kernels on: its configuration, checked once ([`Config::validate`]).
#[derive(Clone, Debug)]
pub struct Machine {
    config: Config,
}

impl Machine {
    /// The machine `config` describes, or why it cannot exist (`invalid configuration: …`).
    pub fn new(config: Config) -> Result<Machine, String> {
        config.validate()?;
        Ok(Machine { config })
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// `program` instantiated for this machine's warp size and `launch` (parameters, shape, buffers): its code
    /// decoded, its buffers made. A load error has spans into the program.
    pub fn load(&self, program: &Program, launch: &Launch) -> Result<Kernel, LoadError> {
        crate::kernel::instantiate(program, &self.config, launch)
    }

    /// [`Machine::load`] under lower `limits` (an embedder that loads untrusted programs in bulk).
    pub fn load_with(&self, program: &Program, launch: &Launch, limits: &Limits) -> Result<Kernel, LoadError> {
        crate::kernel::instantiate_with(program, &self.config, launch, limits)
    }

    /// Run `kernel` on its own buffers (copied), events to `sink`: the output, or the first fault.
    pub fn run<T: TraceSink>(&self, kernel: &Kernel, options: &RunOptions, sink: &mut T) -> Result<RunOutput, Fault> {
        crate::gpu::run(kernel, &self.config, options, sink)
    }

    /// Whether `kernel`'s results depend on how a warp's diverged paths are scheduled: it runs from `memory` (its
    /// buffers at the launch) under
    /// [`Scheduling::Lockstep`] and [`Scheduling::Its`] (untraced, without the sanitizers, `options`' limits and
    /// threads otherwise) and compares every buffer bit for bit. `None`: the same results (or the same fault)
    /// in both; else the first difference. Code that silently relied on lockstep execution (a missing
    /// `bar.warp.sync`, a spin on another lane of the warp) differs or faults in one of the modes.
    pub fn scheduling_difference(
        &self,
        kernel: &Kernel,
        memory: &[Buffer],
        options: &RunOptions,
    ) -> Option<SchedulingDifference> {
        let run = |mode: Scheduling| {
            let o = RunOptions {
                scheduling: Some(mode),
                checks: crate::check::Checks::default(),
                progress: None,
                ..options.clone()
            };
            crate::gpu::run_with(kernel, memory.to_vec(), &self.config, &o, &mut crate::trace::NoTrace)
        };
        match (run(Scheduling::Lockstep), run(Scheduling::Its)) {
            (Ok(a), Ok(b)) => {
                for (x, y) in a.buffers.iter().zip(&b.buffers) {
                    let differ: Vec<usize> = (0..x.len()).filter(|&k| x.element(k) != y.element(k)).collect();
                    if let Some(&first) = differ.first() {
                        return Some(SchedulingDifference::Values {
                            buffer: x.name.clone(),
                            elem: x.elem,
                            differing: differ.len(),
                            first,
                            lockstep: x.element(first),
                            its: y.element(first),
                        });
                    }
                }
                None
            }
            (Err(f), Err(g)) if f.message() == g.message() => None,
            (Err(f), _) => Some(SchedulingDifference::Fault {
                mode: Scheduling::Lockstep,
                message: f.message(),
            }),
            (_, Err(g)) => Some(SchedulingDifference::Fault {
                mode: Scheduling::Its,
                message: g.message(),
            }),
        }
    }

    /// [`Machine::run`] on `memory`, the kernel's buffers taken from it ([`Kernel::take_buffers`]): no second
    /// copy of a large input.
    pub fn run_on<T: TraceSink>(
        &self,
        kernel: &Kernel,
        memory: Vec<Buffer>,
        options: &RunOptions,
        sink: &mut T,
    ) -> Result<RunOutput, Fault> {
        crate::gpu::run_with(kernel, memory, &self.config, options, sink)
    }
}

/// How a kernel's results depend on the warp scheduling ([`Machine::scheduling_difference`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchedulingDifference {
    /// Buffer `buffer` differs in `differing` elements; the first is element `first`, with these bits under each
    /// mode (a 32-bit element's in the low half).
    Values {
        buffer: String,
        elem: warpsim_isa::ElemTy,
        differing: usize,
        first: usize,
        lockstep: u64,
        its: u64,
    },
    /// The run faults under `mode` (only, or with another fault than under the other mode).
    Fault { mode: Scheduling, message: String },
}

impl SchedulingDifference {
    /// What differs, in a sentence, with the hint.
    pub fn message(&self) -> String {
        let hint = "the program relies on how a warp's diverged lanes are scheduled: where lanes of a warp \
                    exchange data through memory or wait for each other, meet with `bar.warp.sync` (or use the \
                    shuffles' and votes' own synchronisation) rather than relying on lockstep execution";
        match self {
            SchedulingDifference::Values {
                buffer,
                elem,
                differing,
                first,
                lockstep,
                its,
            } => format!(
                "the results depend on the warp scheduling: buffer `{buffer}` differs between --scheduling lockstep \
                 and --scheduling its in {differing} element{}; the first is element {first}: {} under lockstep, {} \
                 under its\n  help: {hint}",
                if *differing == 1 { "" } else { "s" },
                crate::render::elem_value(*elem, *lockstep),
                crate::render::elem_value(*elem, *its),
            ),
            SchedulingDifference::Fault { mode, message } => format!(
                "the results depend on the warp scheduling: under --scheduling {} the run faults: {message}\n  help: {hint}",
                mode.name()
            ),
        }
    }
}
