#![no_main]
//! Fuzz target `two_bone`: see `sinew_fuzz::targets::two_bone` and docs/FUZZING.md.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::targets::two_bone::run(data));
