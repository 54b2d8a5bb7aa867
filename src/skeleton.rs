//! `Skeleton`: the joint hierarchy (parents before children), its rest pose and joint names.

use std::collections::HashMap;

use crate::error::{Error, ErrorKind, Result};
use crate::rotation::normalize_robust;
use crate::transform::Transform;
use glam::{Quat, Vec4};

/// Most joints a skeleton may have; indices fit in `u16` with room to spare for sentinels.
pub const MAX_JOINTS: usize = 1 << 16;

/// Parent index of a root joint.
pub const NO_PARENT: i32 = -1;

/// A validated joint hierarchy. Every parent index is [`NO_PARENT`] or smaller than the
/// joint's own index, so one forward pass visits parents before children (no cycles possible).
#[derive(Clone, Debug)]
pub struct Skeleton {
    parents: Vec<i32>,
    rest: Vec<Transform>,
    names: Vec<String>,
    by_name: HashMap<String, u32>,
}

impl Skeleton {
    /// Validates and builds a skeleton from parent indices, rest-pose local transforms and
    /// optional joint names (unique, one per joint). Rest rotations are renormalized.
    pub fn new(parents: &[i32], rest: &[Transform], names: Option<&[&str]>) -> Result<Self> {
        let n = parents.len();
        if n == 0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                "a skeleton needs at least one joint",
            ));
        }
        if n > MAX_JOINTS {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("{n} joints exceeds the limit of {MAX_JOINTS}"),
            ));
        }
        if rest.len() != n {
            return Err(Error::new(
                ErrorKind::SizeMismatch,
                format!("{n} parents but {} rest transforms", rest.len()),
            ));
        }
        validate_parents(parents)?;
        let mut rest = rest.to_vec();
        for (i, t) in rest.iter_mut().enumerate() {
            *t = validated_transform(t, || format!("rest transform of joint {i}"))?;
        }
        let (names, by_name) = match names {
            None => (Vec::new(), HashMap::new()),
            Some(names) => build_name_table(names, n)?,
        };
        Ok(Self {
            parents: parents.to_vec(),
            rest,
            names,
            by_name,
        })
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// Parent index of every joint ([`NO_PARENT`] for roots); parents precede children.
    pub fn parents(&self) -> &[i32] {
        &self.parents
    }

    /// Parent of `joint`, or `None` for a root. Panics if `joint` is out of range.
    pub fn parent(&self, joint: usize) -> Option<usize> {
        usize::try_from(self.parents[joint]).ok()
    }

    /// Rest-pose local transforms.
    pub fn rest_pose(&self) -> &[Transform] {
        &self.rest
    }

    /// Joint names, empty when the skeleton was built without names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of the joint called `name`.
    pub fn find_joint(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).map(|&i| i as usize)
    }

    /// Fails with [`ErrorKind::OutOfRange`] unless `joint` is a valid index.
    pub fn check_joint(&self, joint: usize) -> Result<()> {
        if joint < self.joint_count() {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "joint index {joint} is out of range (skeleton has {} joints)",
                    self.joint_count()
                ),
            ))
        }
    }

    /// Validates that `chain` lists existing joints, root first, each the parent of the next.
    pub fn check_chain(&self, chain: impl IntoIterator<Item = usize>) -> Result<()> {
        let mut previous: Option<usize> = None;
        for j in chain {
            self.check_joint(j)?;
            if let Some(p) = previous {
                if self.parent(j) != Some(p) {
                    return Err(Error::new(
                        ErrorKind::InvalidArgument,
                        format!(
                            "joint {p} is not the parent of joint {j}: a chain lists each joint's parent before it"
                        ),
                    ));
                }
            }
            previous = Some(j);
        }
        Ok(())
    }

    /// Computes model-space transforms from local ones in one forward pass.
    /// `local` and `model` must both hold [`Self::joint_count`] transforms.
    pub fn local_to_model(&self, local: &[Transform], model: &mut [Transform]) {
        self.local_to_model_finite(local, model);
    }

    /// [`Self::local_to_model`], also returning whether every model transform is finite
    /// (checked in the same pass).
    pub(crate) fn local_to_model_finite(
        &self,
        local: &[Transform],
        model: &mut [Transform],
    ) -> bool {
        assert!(local.len() == self.parents.len() && model.len() == self.parents.len());
        // `x * 0` is ±0 for a finite x and NaN otherwise: summed over every component it checks
        // them all with one comparison at the end.
        let mut probe = Vec4::ZERO;
        for (i, (&p, l)) in self.parents.iter().zip(local).enumerate() {
            let m = if p < 0 {
                *l
            } else {
                model[p as usize].mul_transform(l)
            };
            probe += m.zero_probe();
            model[i] = m;
        }
        probe == Vec4::ZERO
    }

    /// Model-space transform of one joint by walking its ancestors: O(depth), no buffers.
    pub fn model_of(&self, local: &[Transform], joint: usize) -> Transform {
        let mut m = local[joint];
        let mut p = self.parents[joint];
        while p >= 0 {
            m = local[p as usize].mul_transform(&m);
            p = self.parents[p as usize];
        }
        m
    }
}

/// Checks a transform's components are finite and its rotation usable, returning it with the
/// rotation renormalized. `what` names it in the error and is only called on failure, so the
/// success path allocates nothing.
#[inline]
pub(crate) fn validated_transform(t: &Transform, what: impl Fn() -> String) -> Result<Transform> {
    // The common outcome, the transform as it is, is decided inline: as a call, the result
    // came back through memory in pieces and reading it back stalled hot solve loops.
    if t.is_finite() && normalize_robust(t.rotation) == Some(t.rotation) {
        return Ok(*t);
    }
    renormalized_transform(t, what)
}

/// [`validated_transform`] for transforms that are not finite or not unit.
#[cold]
fn renormalized_transform(t: &Transform, what: impl Fn() -> String) -> Result<Transform> {
    if !t.is_finite() {
        return Err(Error::new(
            ErrorKind::NonFinite,
            format!("{} is not finite (NaN or infinity)", what()),
        ));
    }
    let rotation = normalize_robust(t.rotation).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            format!("{} has a zero-length rotation quaternion", what()),
        )
    })?;
    Ok(Transform { rotation, ..*t })
}

/// Checks an optional effector rotation and returns it normalized.
pub(crate) fn validated_rotation(rotation: Option<Quat>) -> Result<Option<Quat>> {
    let Some(r) = rotation else { return Ok(None) };
    if !r.is_finite() {
        return Err(Error::new(
            ErrorKind::NonFinite,
            "effector rotation is not finite (NaN or infinity)",
        ));
    }
    normalize_robust(r).map(Some).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            "effector rotation is a zero-length quaternion",
        )
    })
}

fn validate_parents(parents: &[i32]) -> Result<()> {
    for (i, &p) in parents.iter().enumerate() {
        let bad = |why: &str| {
            Err(Error::new(
                ErrorKind::InvalidSkeleton,
                format!("joint {i} has parent {p}: {why}"),
            ))
        };
        if p == NO_PARENT {
            continue;
        }
        if p < NO_PARENT {
            return bad("negative parents other than -1 are not allowed");
        }
        if p as usize == i {
            return bad("a joint cannot be its own parent");
        }
        if p as usize > i {
            return bad(
                "parents must come before their children (no forward references or cycles)",
            );
        }
    }
    Ok(())
}

fn build_name_table(names: &[&str], n: usize) -> Result<(Vec<String>, HashMap<String, u32>)> {
    if names.len() != n {
        return Err(Error::new(
            ErrorKind::SizeMismatch,
            format!("{n} joints but {} names", names.len()),
        ));
    }
    let mut by_name = HashMap::with_capacity(n);
    for (i, name) in names.iter().enumerate() {
        if name.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidSkeleton,
                format!("joint {i} has an empty name"),
            ));
        }
        if let Some(first) = by_name.insert(name.to_string(), i as u32) {
            return Err(Error::new(
                ErrorKind::InvalidSkeleton,
                format!("joints {first} and {i} are both named {name:?}"),
            ));
        }
    }
    Ok((names.iter().map(|s| s.to_string()).collect(), by_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn rest(n: usize) -> Vec<Transform> {
        vec![Transform::from_translation(Vec3::X); n]
    }

    #[test]
    fn rejects_bad_parent_arrays() {
        for parents in [&[-1, 2, 1][..], &[-1, 1], &[0], &[-1, -2], &[-1, 5]] {
            let err = Skeleton::new(parents, &rest(parents.len()), None).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidSkeleton, "{parents:?}");
        }
        let err = Skeleton::new(&[], &[], None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        let err = Skeleton::new(&[-1, 0], &rest(1), None).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SizeMismatch);
    }

    #[test]
    fn names_are_unique_and_found() {
        let s = Skeleton::new(&[-1, 0, 1], &rest(3), Some(&["a", "b", "c"])).unwrap();
        assert_eq!(s.find_joint("c"), Some(2));
        assert_eq!(s.find_joint("z"), None);
        let err = Skeleton::new(&[-1, 0], &rest(2), Some(&["a", "a"])).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidSkeleton);
    }

    #[test]
    fn model_of_matches_forward_pass() {
        let s = Skeleton::new(&[-1, 0, 1, 0], &rest(4), None).unwrap();
        let mut model = vec![Transform::IDENTITY; 4];
        s.local_to_model(s.rest_pose(), &mut model);
        assert_eq!(model[2].translation, Vec3::new(3.0, 0.0, 0.0));
        assert_eq!(s.model_of(s.rest_pose(), 2), model[2]);
        assert_eq!(model[3].translation, Vec3::new(2.0, 0.0, 0.0));
    }
}
