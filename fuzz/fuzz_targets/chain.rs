#![no_main]
//! Fuzz target `chain`: see `sinew_fuzz::targets::chain` and docs/FUZZING.md.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::targets::chain::run(data));
