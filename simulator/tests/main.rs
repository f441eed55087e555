//! The `sim` binary and the engine from outside, as one test binary: each file is a module (`cargo test -p
//! warpsim --test integration cli::` runs one file's tests).

mod browser;
mod cli;
mod hostile;
mod shuffle;
