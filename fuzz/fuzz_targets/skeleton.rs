#![no_main]
//! Fuzz target `skeleton`: see `sinew_fuzz::targets::skeleton` and docs/FUZZING.md.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::targets::skeleton::run(data));
