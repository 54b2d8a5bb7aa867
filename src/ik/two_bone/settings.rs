//! What a two-bone solve is asked to do: its settings (defaults from Unreal's TwoBoneIK node)
//! and its target, each checked once on entry.

use glam::{Quat, Vec3};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::transform::validated_rotation;

/// What rotation the end (third) bone gets after the solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndRotation {
    /// Keep its model-space rotation (Unreal's default).
    #[default]
    KeepModel,
    /// Copy the effector rotation (Unreal's `bTakeRotationFromEffectorSpace`); when no
    /// effector rotation is given the model-space rotation is kept.
    CopyEffector,
    /// Keep its rotation relative to the joint bone (Unreal's `bMaintainEffectorRelRot`).
    KeepLocal,
}

/// Two-bone IK settings. Defaults reproduce Unreal's TwoBoneIK node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneIkSettings {
    /// Blend between the input (0) and the solved (1) chain, in local space.
    pub weight: f32,
    /// Lets both bones lengthen to reach farther targets.
    pub allow_stretching: bool,
    /// Reach ratio (target distance / chain length) at which stretching starts.
    pub start_stretch_ratio: f32,
    /// Largest scale applied to the bone lengths when stretching.
    pub max_stretch_scale: f32,
    /// The end bone's rotation.
    pub end_rotation: EndRotation,
    /// In (0, 1]: beyond this fraction of the chain length the reach eases in towards full
    /// extension along an exponential of slope 1, never overshooting the target. 1 is off.
    pub soften: f32,
    /// Keep the joint bone's twist about its own axis relative to the root bone (Unreal's
    /// `bAllowTwist = false`) instead of the minimal-arc rotation.
    pub keep_twist: bool,
    /// How far the bend turns from the no-pole one (the input's, carried onto the target)
    /// towards the pole, about the root-target line, in [0, 1].
    pub pole_weight: f32,
}

impl Default for TwoBoneIkSettings {
    fn default() -> Self {
        Self {
            weight: 1.0,
            allow_stretching: false,
            start_stretch_ratio: 1.0,
            max_stretch_scale: 1.2,
            end_rotation: EndRotation::KeepModel,
            soften: 1.0,
            keep_twist: false,
            pole_weight: 1.0,
        }
    }
}

impl TwoBoneIkSettings {
    /// Checks every field is finite and in its domain.
    pub fn validate(&self) -> Result<()> {
        let fields = [
            ("weight", self.weight),
            ("start_stretch_ratio", self.start_stretch_ratio),
            ("max_stretch_scale", self.max_stretch_scale),
            ("soften", self.soften),
            ("pole_weight", self.pole_weight),
        ];
        for (name, v) in fields {
            ensure_finite(v.is_finite(), name)?;
        }
        let invalid = |m: String| Err(Error::new(ErrorKind::InvalidArgument, m));
        if !(0.0..=1.0).contains(&self.weight) {
            return invalid(format!("weight {} is outside [0, 1]", self.weight));
        }
        if !(0.0..=1.0).contains(&self.pole_weight) {
            return invalid(format!(
                "pole_weight {} is outside [0, 1]",
                self.pole_weight
            ));
        }
        if !(self.soften > 0.0 && self.soften <= 1.0) {
            return invalid(format!("soften {} is outside (0, 1]", self.soften));
        }
        if self.start_stretch_ratio <= 0.0 {
            return invalid(format!(
                "start_stretch_ratio {} must be positive",
                self.start_stretch_ratio
            ));
        }
        if self.max_stretch_scale < 1.0 {
            return invalid(format!(
                "max_stretch_scale {} must be at least 1",
                self.max_stretch_scale
            ));
        }
        Ok(())
    }
}

/// Where the chain should go: effector position, optional rotation and optional pole
/// (joint target), all in the chain's model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneTarget {
    /// Where the end bone should be.
    pub position: Vec3,
    /// Rotation for [`EndRotation::CopyEffector`].
    pub rotation: Option<Quat>,
    /// Point the joint bends towards; `None` keeps the input chain's bend, turned by the
    /// minimal rotation from its root-end direction onto the root-target direction.
    pub pole: Option<Vec3>,
}

impl TwoBoneTarget {
    /// A target position with no rotation and no pole.
    pub fn at(position: Vec3) -> Self {
        Self {
            position,
            rotation: None,
            pole: None,
        }
    }

    /// The same target with a pole.
    pub fn with_pole(self, pole: Vec3) -> Self {
        Self {
            pole: Some(pole),
            ..self
        }
    }

    /// The target with its rotation normalized, or why it is unusable.
    #[inline(always)]
    pub(super) fn validated(&self) -> Result<Self> {
        ensure_finite(self.position.is_finite(), "effector position")?;
        if let Some(p) = self.pole {
            ensure_finite(p.is_finite(), "joint target (pole)")?;
        }
        Ok(Self {
            rotation: validated_rotation(self.rotation)?,
            ..*self
        })
    }
}
