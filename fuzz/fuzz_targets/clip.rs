#![no_main]
//! Fuzz target `clip`: see `sinew_fuzz::targets::clip` and docs/FUZZING.md.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::targets::clip::run(data));
