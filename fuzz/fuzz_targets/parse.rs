//! Arbitrary bytes → the assembler (as the CLI reads a file), then print and assemble again
//! (`warpsim_tests::fuzzing::parse`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = warpsim_tests::fuzzing::parse(bytes);
});
