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
