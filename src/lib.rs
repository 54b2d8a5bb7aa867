//! Sinew: IK solvers and pose blending for game engines, in plain Rust with a stable C ABI.
//!
//! The core ([`Skeleton`], [`Pose`], [`Transform`], [`ik`]) knows nothing of the FFI; the C ABI
//! lives in [`ffi`] and only checks, converts, calls and reports.

pub mod constraint;
pub mod error;
pub mod ffi;
pub mod ik;
pub mod pose;
pub mod rotation;
pub mod skeleton;
pub mod transform;

pub use constraint::{JointConstraint, Limit};
pub use error::{Error, ErrorKind, Result};
pub use glam::{Quat, Vec3};
pub use ik::{
    Ccd, CcdJoint, CcdSettings, ChainTarget, EndRotation, Fabrik, FabrikSettings,
    HandIkRetargeting, HandIkRetargetingSettings, HandPair, IkResult, TwoBoneIk, TwoBoneIkSettings,
    TwoBoneTarget,
};
pub use pose::Pose;
pub use skeleton::{Skeleton, MAX_JOINTS, NO_PARENT};
pub use transform::Transform;
