//! The first byte picks the machine (warp size, SMs, tracing, scheduler policy, sanitizers, a random
//! schedule); the rest is assembled, instantiated within small limits and run for a few thousand cycles
//! (`warpsim_tests::fuzzing::run`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = warpsim_tests::fuzzing::run(bytes);
});
