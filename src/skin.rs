//! `Skin`: the inverse bind matrices of a skinned mesh, given once, from which
//! [`crate::Pose::skinning_palette_into`] computes each frame's skinning palette.

use glam::Mat4;

use crate::error::{Error, ErrorKind, Result};
use crate::skeleton::Skeleton;

/// The joints a mesh is skinned to (all of a skeleton's in order, or a list of them, as glTF's
/// `skin.joints`) and one inverse bind matrix for each: the inverse of the joint's model-space
/// matrix when the mesh was bound, taking mesh space to the joint's space. Immutable.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// Joint count of the skeleton the skin was made for.
    skeleton_joints: usize,
    /// Skeleton joint of each palette entry.
    joints: Vec<u32>,
    inverse_binds: Vec<Mat4>,
    /// Palette entry of each skeleton joint up to the last one skinned, [`NOT_SKINNED`] for
    /// joints the skin leaves out.
    entries: Vec<u32>,
    /// The largest magnitude of any inverse bind entry (at least 1), for the palette's bound.
    magnitude: f32,
}

/// [`Skin::entries`] value of a joint with no palette entry.
const NOT_SKINNED: u32 = u32::MAX;

impl Skin {
    /// A skin of `skeleton`: palette entry `k` is joint `joints[k]` (indices unique and in
    /// range), or joint `k` when `joints` is `None`, with inverse bind matrix
    /// `inverse_binds[k]` (finite; one per entry, at least one). Errors:
    /// [`ErrorKind::InvalidArgument`] (no entries, or a joint listed twice),
    /// [`ErrorKind::SizeMismatch`], [`ErrorKind::OutOfRange`], [`ErrorKind::NonFinite`].
    pub fn new(
        skeleton: &Skeleton,
        joints: Option<&[u32]>,
        inverse_binds: &[Mat4],
    ) -> Result<Self> {
        if inverse_binds.is_empty() {
            let message = "a skin needs at least one joint";
            return Err(Error::new(ErrorKind::InvalidArgument, message));
        }
        let n = skeleton.joint_count();
        let joints: Vec<u32> = match joints {
            Some(joints) => joints.to_vec(),
            None => (0..n as u32).collect(),
        };
        if joints.len() != inverse_binds.len() {
            let message = format!(
                "{} inverse bind matrices given for {} skinned joints",
                inverse_binds.len(),
                joints.len()
            );
            return Err(Error::new(ErrorKind::SizeMismatch, message));
        }
        let last = joints.iter().copied().max().unwrap_or(0) as usize;
        skeleton.check_joint(last)?;
        let mut entries = vec![NOT_SKINNED; last + 1];
        for (k, &j) in joints.iter().enumerate() {
            let entry = &mut entries[j as usize];
            if *entry != NOT_SKINNED {
                let message = format!("joint {j} is listed twice (entries {} and {k})", *entry);
                return Err(Error::new(ErrorKind::InvalidArgument, message));
            }
            *entry = k as u32;
        }
        if let Some(k) = inverse_binds.iter().position(|m| !m.is_finite()) {
            let message = format!("inverse bind matrix {k} is not finite (NaN or infinity)");
            return Err(Error::new(ErrorKind::NonFinite, message));
        }
        let magnitude = inverse_binds
            .iter()
            .map(|m| m.abs().to_cols_array().into_iter().fold(1.0, f32::max))
            .fold(1.0, f32::max);
        Ok(Self {
            skeleton_joints: n,
            joints,
            inverse_binds: inverse_binds.to_vec(),
            entries,
            magnitude,
        })
    }

    /// Number of palette entries (skinned joints).
    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// The skeleton joint of each palette entry.
    pub fn joints(&self) -> &[u32] {
        &self.joints
    }

    /// The inverse bind matrix of each palette entry.
    pub fn inverse_binds(&self) -> &[Mat4] {
        &self.inverse_binds
    }

    /// Joint count of the skeleton the skin was made for.
    pub fn skeleton_joint_count(&self) -> usize {
        self.skeleton_joints
    }

    /// Skeleton joints `0..len` cover every skinned joint.
    pub(crate) fn joints_used(&self) -> usize {
        self.entries.len()
    }

    /// The palette entry of skeleton joint `joint` (below [`Self::joints_used`]), if skinned.
    #[inline]
    pub(crate) fn entry(&self, joint: usize) -> Option<usize> {
        let k = self.entries[joint];
        (k != NOT_SKINNED).then_some(k as usize)
    }

    /// [`Skin::magnitude`].
    pub(crate) fn magnitude(&self) -> f32 {
        self.magnitude
    }
}
