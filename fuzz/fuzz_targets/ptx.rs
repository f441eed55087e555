//! Arbitrary bytes → the PTX parser (as the CLI reads a file): no panic, every span in the text
//! (`warpsim_tests::fuzzing::ptx`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = warpsim_tests::fuzzing::ptx(bytes);
});
