#![no_main]
//! Fuzz target `blend`: see `sinew_fuzz::targets::blend` and docs/FUZZING.md.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::targets::blend::run(data));
