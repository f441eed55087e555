//! The `sim` binary from outside, as one test binary: each file is a module (`cargo test -p warpsim-cli cli::`
//! runs one file's tests).

mod browser;
mod cli;
mod cycles;
mod data;
mod hostile;
mod playground;
mod ptx;
mod python;
mod sweep;
