//! Helpers shared by the integration tests. Each file under `tests/` is its own crate and
//! declares `mod common;`, then imports what it needs from the submodules below:
//!
//! - [`props`]: the proptest configuration and the strategies for vectors and rotations;
//! - [`rng`]: a small seeded generator, for tests whose scenarios come from one seed;
//! - [`rotations`]: rotation angles and comparisons;
//! - [`chains`]: model-space chains of transforms (random chains, forward kinematics, bone
//!   lengths, bits);
//! - [`solvers`]: FABRIK and CCD behind one interface;
//! - [`chain_contract`]: what FABRIK and CCD both promise, as test bodies fabrik.rs and ccd.rs
//!   run;
//! - [`limits`]: joint limits checked independently of `JointConstraint`, random allowed poses;
//! - [`ffi`]: C ABI handles set up the same way by several tests;
//! - [`hash`]: the fingerprint bit-exactness tests record;
//! - [`native`]: the cdylib the C, C++, C# and Unreal-logic programs load, and linking them;
//! - [`trees`]: joint trees for the multi-effector solver (upper body, hand, random trees);
//! - [`poses`]: the blending jobs' body skeleton, pose comparisons, strategies and C handles.

// No test uses every helper, and each test crate compiles all of them.
#![allow(dead_code)]

pub mod chain_contract;
pub mod chains;
pub mod ffi;
pub mod hash;
pub mod limits;
pub mod native;
pub mod poses;
pub mod props;
pub mod rng;
pub mod rotations;
pub mod solvers;
pub mod trees;
