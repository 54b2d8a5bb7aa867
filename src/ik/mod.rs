//! Inverse kinematics solvers. Each works on model-space transforms of a chain, root first,
//! and reports an [`IkResult`].

pub mod access;
pub mod aim;
pub mod ccd;
pub mod chain;
pub(crate) mod chain_batch;
pub mod fabrik;
pub mod hand_retarget;
pub mod multi_fabrik;
mod reach;
mod tree;
mod tree_newton;
pub mod two_bone;

pub use access::TransformAccess;
pub use aim::{AimIk, AimIkSettings, AimJoint, AimTarget};
pub use ccd::CcdJoint;
pub use ccd::{Ccd, CcdSettings};
pub use chain::ChainTarget;
pub use fabrik::{Fabrik, FabrikSettings};
pub use hand_retarget::{HandIkRetargeting, HandIkRetargetingSettings, HandPair};
pub use multi_fabrik::{EffectorTarget, MultiFabrik, MultiFabrikSettings};
pub use two_bone::{EndRotation, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget};

/// Outcome of one solve, shared by every solver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IkResult {
    /// Whether the end effector finished within the solver's tolerance of the target.
    pub reached: bool,
    /// Distance from the chain's end to the target after the solve, in model units.
    pub error: f32,
    /// Iterations used (1 for analytic solvers).
    pub iterations: u32,
}

/// `|v|` without the underflow of squaring subnormal components (their squares are zero), so
/// solvers report the true error of tiny chains.
pub(crate) fn exact_length(v: glam::Vec3A) -> f32 {
    let sq = v.length_squared();
    if sq >= f32::MIN_POSITIVE || v == glam::Vec3A::ZERO {
        return sq.sqrt();
    }
    // Scaled by 2^64 the components are normal and their squares representable.
    const UP: f32 = 18_446_744_073_709_551_616.0;
    (v * UP).length() / UP
}
