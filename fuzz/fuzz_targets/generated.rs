//! The first byte picks the machine; the rest choose a program of the random-program generator (`warpsim-random`,
//! seeded with a hash of the bytes): every input is a well-formed program, which must assemble, launch and
//! run without a panic (`warpsim_tests::fuzzing::generated`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = warpsim_tests::fuzzing::generated(bytes);
});
