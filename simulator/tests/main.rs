//! The engine's units from outside, as one test binary: each file is a module.

mod contents;
mod shuffle;
