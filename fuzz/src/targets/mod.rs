//! The bodies of the fuzz targets; `fuzz_targets/<name>.rs` calls `<name>::run`.

pub mod blend;
pub mod chain;
pub mod clip;
pub mod skeleton;
pub mod two_bone;
