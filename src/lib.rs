//! Sinew: IK solvers and pose blending for game engines, in plain Rust with a stable C ABI.
//!
//! The core ([`Skeleton`], [`Pose`], [`Transform`], [`ik`], blending in [`blend`], [`clip`],
//! [`crossfade`]) knows nothing of the FFI; the C ABI lives in [`ffi`] and only checks,
//! converts, calls and reports.
//!
//! ```
//! use std::sync::Arc;
//! use sinew::{Pose, Quat, Skeleton, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3};
//!
//! // An arm: shoulder -> elbow -> hand, 0.3 m and 0.27 m bones along X.
//! let rest = [
//!     Transform::from_translation(Vec3::new(0.0, 1.4, 0.0)),
//!     Transform::from_rotation_translation(Quat::from_rotation_z(-0.2), Vec3::X * 0.3),
//!     Transform::from_translation(Vec3::X * 0.27),
//! ];
//! let skeleton = Arc::new(Skeleton::new(&[-1, 0, 1], &rest, Some(&["shoulder", "elbow", "hand"]))?);
//! let mut pose = Pose::new(skeleton.clone());
//! let ik = TwoBoneIk::new(TwoBoneIkSettings::default())?;
//! let goal = Vec3::new(0.3, 1.2, 0.2);
//! let target = TwoBoneTarget::at(goal).with_pole(Vec3::new(0.2, 1.0, -1.0));
//! let result = ik.solve_pose(&mut pose, [0, 1, 2], &target)?;
//! assert!(result.reached);
//! let hand = pose.model_of(skeleton.find_joint("hand").unwrap())?;
//! assert!((hand.translation - goal).length() < 1e-4);
//! # Ok::<(), sinew::Error>(())
//! ```

pub mod blend;
pub mod clip;
pub mod constraint;
pub mod crossfade;
pub mod error;
pub mod ffi;
pub mod ik;
pub mod mask;
mod math;
mod matrices;
mod packed;
mod plan;
pub mod pose;
pub mod rotation;
mod simd;
pub mod skeleton;
pub mod skin;
mod soa;
pub mod transform;

pub use blend::{BlendSpace, Layer};
pub use clip::{Clip, ClipCursor, Interpolation, Property, Track};
pub use constraint::{JointConstraint, Limit};
pub use crossfade::{Crossfade, FadeCurve};
pub use error::{Error, ErrorKind, Result};
pub use glam::{Mat4, Quat, Vec3};
pub use ik::{
    AimIk, AimIkSettings, AimJoint, AimTarget, Ccd, CcdJoint, CcdSettings, ChainTarget,
    EffectorTarget, EndRotation, Fabrik, FabrikSettings, HandIkRetargeting,
    HandIkRetargetingSettings, HandPair, IkResult, MultiFabrik, MultiFabrikSettings, TwoBoneIk,
    TwoBoneIkSettings, TwoBoneTarget,
};
pub use mask::JointMask;
pub use pose::{Locals, LocalsIter, Pose};
pub use skeleton::{Skeleton, MAX_JOINTS, NO_PARENT};
pub use skin::Skin;
pub use transform::Transform;
