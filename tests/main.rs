//! warpsim's end-to-end tests as one test binary: each file is a module (`cargo test -p warpsim-tests
//! traces::` runs one file's tests). One binary links the engine once; the files build and run together.

mod bits;
mod block;
mod crosscheck;
mod diagnostics;
mod differential;
mod docs;
mod flat;
mod fuzz_regressions;
mod generator;
mod isa;
mod member_masks;
mod parallel;
mod pictures;
mod printf;
mod programs;
mod ptx;
mod ptx_entry;
mod ptx_lower;
mod puzzles;
mod rows;
mod sanitizers;
mod scheduling;
mod shape;
mod timing;
mod traces;
mod transpose;
mod wide;
