//! Sinew: IK solvers and pose blending for game engines, in plain Rust with a stable C ABI.
//!
//! The core ([`Skeleton`], [`Pose`], [`Transform`], [`ik`], blending in [`blend`], [`clip`],
//! [`crossfade`]) knows nothing of the FFI; the C ABI lives in [`ffi`] and only checks,
//! converts, calls and reports.

pub mod blend;
pub mod clip;
pub mod constraint;
pub mod crossfade;
pub mod error;
pub mod ffi;
pub mod ik;
pub mod mask;
pub mod pose;
pub mod rotation;
pub mod skeleton;
pub mod transform;

pub use blend::{BlendSpace, Layer};
pub use clip::{Clip, ClipCursor, Interpolation, Property, Track};
pub use constraint::{JointConstraint, Limit};
pub use crossfade::{Crossfade, FadeCurve};
pub use error::{Error, ErrorKind, Result};
pub use glam::{Quat, Vec3};
pub use ik::{
    Ccd, CcdJoint, CcdSettings, ChainTarget, EndRotation, Fabrik, FabrikSettings,
    HandIkRetargeting, HandIkRetargetingSettings, HandPair, IkResult, TwoBoneIk, TwoBoneIkSettings,
    TwoBoneTarget,
};
pub use mask::JointMask;
pub use pose::Pose;
pub use skeleton::{Skeleton, MAX_JOINTS, NO_PARENT};
pub use transform::Transform;
