//! # warpsim-tools
//!
//! The tools around the simulator, built on its library: none of them is needed to simulate.
//!
//! - [`emit_cuda`]: an instantiated warpsim kernel as CUDA C (inline PTX where C leaves an edge undefined), for
//!   the real GPU;
//! - [`crosscheck`]: runs programs in warpsim and on an NVIDIA GPU (feature `cuda`, through cudarc; libcuda and
//!   libnvrtc opened at run time) and compares every buffer bit for bit, and the cycles;
//! - [`calibrate`]: the timing model's calibration table (measured on an H200) and the runner behind
//!   `sim calibrate`;
//! - [`random`]: the seeded random-program generator (crate `warpsim-random`).

pub mod calibrate;
#[cfg(feature = "crosscheck")]
pub mod crosscheck;
pub mod emit_cuda;
pub mod puzzle;
/// The seeded random-program generator (crate `warpsim-random`).
#[cfg(feature = "crosscheck")]
pub use warpsim_random as random;
