//! Pose blending: two-pose blends (whole, masked, or with model-space rotations for masked
//! joints), N-layer weighted blends with a rest-pose fallback (ozz's BlendingJob semantics),
//! and additive layers. Every operation works in place on the output pose and allocates
//! nothing; rotations blend on the shortest arc and stay normalized. Every input pose must
//! belong to the output's skeleton or to one with the same parents: another joint count is a
//! size mismatch, other parents (the same count, another hierarchy) an invalid argument.

use std::sync::Arc;

use glam::{Quat, Vec3, Vec4};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::mask::{check_count, JointMask};
use crate::pose::Pose;
use crate::rotation::{nlerp_shortest, same_hemisphere};
use crate::transform::{normalize_rotations, safe_recip, Transform};

/// Where the rotations of masked joints are blended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendSpace {
    /// Local (parent-relative) rotations: the usual blend.
    #[default]
    Local,
    /// Model-space rotations for joints with a non-zero weight (Unreal's mesh-space rotation
    /// blend): an upper-body layer keeps its world orientation whatever the lower body does.
    ModelRotation,
}

/// One input of [`Pose::blend_layers`].
#[derive(Clone, Copy, Debug)]
pub struct Layer<'a> {
    /// The layer's pose.
    pub pose: &'a Pose,
    /// Its weight, at least 0.
    pub weight: f32,
    /// Optional per-joint weights multiplying `weight`.
    pub mask: Option<&'a JointMask>,
}

/// Which operand of a two-pose blend the output pose already holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    A,
    B,
}

impl Pose {
    /// Sets this pose to the blend of `a` and `b` by `t` in [0, 1] (0 gives `a`, 1 gives `b`
    /// exactly), each joint weighted by `mask` when given.
    pub fn blend(
        &mut self,
        a: &Pose,
        b: &Pose,
        t: f32,
        mask: Option<&JointMask>,
        space: BlendSpace,
    ) -> Result<()> {
        self.check_blend(a, t, mask)?;
        self.check_blend(b, t, mask)?;
        match space {
            BlendSpace::Local => {
                let inputs = a.local.iter().zip(&b.local);
                for (i, (out, (a, b))) in self.local.iter_mut().zip(inputs).enumerate() {
                    *out = mix_exact(a, b, mask.map_or(t, |m| t * m.weight(i)));
                }
            }
            BlendSpace::ModelRotation => {
                self.local.copy_from_slice(&a.local);
                self.blend_in_place(b, t, mask, space, Holds::A);
            }
        }
        Ok(())
    }

    /// In place: this pose becomes the blend of itself (as `a`) toward `b` by `t`.
    pub fn blend_toward(
        &mut self,
        b: &Pose,
        t: f32,
        mask: Option<&JointMask>,
        space: BlendSpace,
    ) -> Result<()> {
        self.check_blend(b, t, mask)?;
        self.blend_in_place(b, t, mask, space, Holds::A);
        Ok(())
    }

    /// In place: this pose becomes the blend of `a` toward itself (as `b`) by `t`.
    pub fn blend_from(
        &mut self,
        a: &Pose,
        t: f32,
        mask: Option<&JointMask>,
        space: BlendSpace,
    ) -> Result<()> {
        self.check_blend(a, t, mask)?;
        self.blend_in_place(a, t, mask, space, Holds::B);
        Ok(())
    }

    fn check_blend(&self, other: &Pose, t: f32, mask: Option<&JointMask>) -> Result<()> {
        self.check_blend_factor(t, mask)?;
        self.check_pose(other, "the other pose")
    }

    /// Fails unless `other` is a pose of this pose's skeleton or of one with the same parents
    /// (so joint i is the same joint in both): another joint count is a size mismatch, other
    /// parents an invalid argument.
    fn check_pose(&self, other: &Pose, what: &str) -> Result<()> {
        check_count(other.joint_count(), self.joint_count(), what)?;
        if Arc::ptr_eq(&other.skeleton, &self.skeleton) {
            return Ok(());
        }
        let (theirs, ours) = (other.skeleton.parents(), self.skeleton.parents());
        match theirs.iter().zip(ours).position(|(a, b)| a != b) {
            None => Ok(()),
            Some(i) => Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "{what} belongs to a skeleton with other parents (joint {i} has parent {}, \
                     not {})",
                    theirs[i], ours[i]
                ),
            )),
        }
    }

    /// Validates a blend factor in [0, 1] and a mask for this pose's joint count.
    pub(crate) fn check_blend_factor(&self, t: f32, mask: Option<&JointMask>) -> Result<()> {
        ensure_finite(t.is_finite(), "blend factor")?;
        if !(0.0..=1.0).contains(&t) {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("blend factor {t} is outside [0, 1]"),
            ));
        }
        if let Some(m) = mask {
            check_count(m.joint_count(), self.joint_count(), "the mask")?;
        }
        Ok(())
    }

    fn blend_in_place(
        &mut self,
        other: &Pose,
        t: f32,
        mask: Option<&JointMask>,
        space: BlendSpace,
        holds: Holds,
    ) {
        let weight = |i: usize| mask.map_or(t, |m| t * m.weight(i));
        let pick = |own: Transform, theirs: Transform| match holds {
            Holds::A => (own, theirs),
            Holds::B => (theirs, own),
        };
        match space {
            BlendSpace::Local => {
                for (i, (own, theirs)) in self.local.iter_mut().zip(&other.local).enumerate() {
                    let (a, b) = pick(*own, *theirs);
                    *own = mix_exact(&a, &b, weight(i));
                }
            }
            BlendSpace::ModelRotation => {
                let n = self.local.len();
                let parents = self.skeleton.parents();
                let (ra, rest) = self.rotations.split_at_mut(n);
                let (rb, ro) = rest.split_at_mut(n);
                // Model rotations of both operands first, so the output may overwrite either.
                for i in 0..n {
                    let (a, b) = pick(self.local[i], other.local[i]);
                    let p = parents[i];
                    (ra[i], rb[i]) = if p < 0 {
                        (a.rotation, b.rotation)
                    } else {
                        (ra[p as usize] * a.rotation, rb[p as usize] * b.rotation)
                    };
                }
                for i in 0..n {
                    let (a, b) = pick(self.local[i], other.local[i]);
                    let w = weight(i);
                    let p = parents[i];
                    let parent = if p < 0 {
                        Quat::IDENTITY
                    } else {
                        ro[p as usize]
                    };
                    let mut out = mix_exact(&a, &b, w);
                    let parent_is_b = p < 0 || ro[p as usize] == rb[p as usize];
                    if w >= 1.0 && parent_is_b {
                        // All of b down to here: b's local rotation, bit for bit.
                        ro[i] = rb[i];
                    } else if w > 0.0 {
                        ro[i] = nlerp_shortest(ra[i], rb[i], w);
                        out.rotation = (parent.conjugate() * ro[i]).normalize();
                    } else {
                        ro[i] = parent * a.rotation;
                    }
                    self.local[i] = out;
                }
            }
        }
    }

    /// Sets this pose to the weighted blend of `layers` (each weight times its mask, per joint,
    /// normalized). Where a joint's total weight is below `threshold` the rest pose makes up the
    /// difference, so the result eases to the rest pose instead of dividing by nothing.
    /// Unchanged on error.
    pub fn blend_layers(&mut self, layers: &[Layer<'_>], threshold: f32) -> Result<()> {
        self.blend_layer_iter(layers.iter().copied(), threshold)
    }

    /// [`Self::blend_layers`] over any re-iterable source of layers (read once per joint), so
    /// callers holding layers in another form need not collect them.
    pub fn blend_layer_iter<'a, I>(&mut self, layers: I, threshold: f32) -> Result<()>
    where
        I: Iterator<Item = Layer<'a>> + Clone,
    {
        ensure_finite(threshold.is_finite(), "threshold")?;
        if threshold <= 0.0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("threshold {threshold} must be positive"),
            ));
        }
        for (k, layer) in layers.clone().enumerate() {
            ensure_finite(layer.weight.is_finite(), "layer weight")?;
            if layer.weight < 0.0 {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("layer {k} has negative weight {}", layer.weight),
                ));
            }
            self.check_pose(layer.pose, "a layer's pose")?;
            if let Some(m) = layer.mask {
                check_count(m.joint_count(), self.joint_count(), "a layer's mask")?;
            }
        }
        if layers.clone().all(|l| l.mask.is_none()) {
            self.stage_uniform_layers(layers, threshold);
        } else {
            self.stage_masked_layers(layers, threshold);
        }
        let rest = self.skeleton.rest_pose();
        let finite = normalize_rotations(&mut self.model, |i, _| rest[i].rotation);
        self.commit_staged(finite)
    }

    /// Stages the weighted sums of `layers` (some masked) and the rest pose in the model
    /// buffer, one joint at a time, their rotations unnormalized.
    fn stage_masked_layers<'a, I>(&mut self, layers: I, threshold: f32)
    where
        I: Iterator<Item = Layer<'a>> + Clone,
    {
        let rest = self.skeleton.rest_pose();
        for (i, (sum, rest)) in self.model.iter_mut().zip(rest).enumerate() {
            let joint_weight = |l: &Layer<'_>| l.mask.map_or(l.weight, |m| l.weight * m.weight(i));
            let weights = Weights::new(layers.clone().map(|l| joint_weight(&l)), threshold);
            *sum = EMPTY_SUM;
            // The first input with a positive weight starts the sum and sets the hemisphere.
            let mut hemisphere = None;
            let mut add = |t: &Transform, w: f32| {
                if w > 0.0 {
                    match hemisphere {
                        Some(h) => accumulate(sum, t, w, h),
                        None => {
                            *sum = start_sum(t, w);
                            hemisphere = Some(t.rotation);
                        }
                    }
                }
            };
            for l in layers.clone() {
                add(&l.pose.local[i], weights.of(joint_weight(&l)));
            }
            add(rest, weights.rest);
        }
    }

    /// [`Self::stage_masked_layers`] without masks: every joint has the same weights, so they
    /// are normalized once and each input is added in a pass of its own over the joints. The
    /// same operations in the same order per joint, so the same results.
    fn stage_uniform_layers<'a, I>(&mut self, layers: I, threshold: f32)
    where
        I: Iterator<Item = Layer<'a>> + Clone,
    {
        let weights = Weights::new(layers.clone().map(|l| l.weight), threshold);
        let mut inputs = layers
            .map(|l| (&l.pose.local[..], weights.of(l.weight)))
            .chain(std::iter::once((self.skeleton.rest_pose(), weights.rest)))
            .filter(|&(_, w)| w > 0.0);
        // The first input starts the sums and sets every joint's hemisphere.
        let Some((first, w)) = inputs.next() else {
            self.model.fill(EMPTY_SUM);
            return;
        };
        for (sum, t) in self.model.iter_mut().zip(first) {
            *sum = start_sum(t, w);
        }
        for (input, w) in inputs {
            for ((sum, t), h) in self.model.iter_mut().zip(input).zip(first) {
                accumulate(sum, t, w, h.rotation);
            }
        }
    }

    /// Copies another pose's local transforms (a pose of this skeleton or of one with the same
    /// parents, as every blend requires). Unchanged on error.
    pub fn copy_from(&mut self, other: &Pose) -> Result<()> {
        self.check_pose(other, "the other pose")?;
        self.local.copy_from_slice(&other.local);
        Ok(())
    }

    /// Sets this pose to the additive delta of `pose` over `reference`, per joint: rotation
    /// `normalize(conj(ref.q) * q)`, translation `t - ref.t`, scale `s * (1 / ref.s)` per
    /// component (a ratio: scales multiply), a reciprocal that is not finite counting as 0.
    /// Applying it to `reference` at weight 1 gives `pose` back up to rounding (the rotation
    /// possibly as the negated quaternion) where `reference`'s scales have finite reciprocals.
    /// Unchanged on error.
    pub fn make_additive(&mut self, pose: &Pose, reference: &Pose) -> Result<()> {
        self.check_pose(pose, "the pose")?;
        self.check_pose(reference, "the reference")?;
        for ((slot, p), r) in self.model.iter_mut().zip(&pose.local).zip(&reference.local) {
            *slot = Transform {
                translation: p.translation - r.translation,
                rotation: r.rotation.conjugate() * p.rotation,
                scale: p.scale * safe_recip(r.scale),
            };
        }
        // A degenerate product normalizes to NaN, reported as overflow.
        let finite = normalize_rotations(&mut self.model, |_, q| q.normalize());
        self.commit_staged(finite)
    }

    /// In place: applies an additive `delta` (from [`Pose::make_additive`]) with `weight`
    /// (negative subtracts it), per joint at `w = weight * mask[joint]` (ozz's convention):
    ///
    /// - rotation: with `d` the delta's rotation on the identity's side (negated when its `w`
    ///   component is negative) and `r = 1 + |w| (d - 1)` (the unnormalized lerp from the
    ///   identity quaternion `1`), `normalize(q * r)` for `w >= 0`, `normalize(q * conj(r))`
    ///   for `w < 0`;
    /// - translation: `t + w delta.t`;
    /// - scale: with `l = (1 - |w|) + |w| delta.s` per component, `s * l` for `w >= 0`,
    ///   `s * (1 / l)` for `w < 0` (a reciprocal that is not finite counting as 0).
    ///
    /// `w = 0` leaves a joint as it is; `|w| > 1` extrapolates. Unchanged on error.
    pub fn add(&mut self, delta: &Pose, weight: f32, mask: Option<&JointMask>) -> Result<()> {
        let finite = self.stage_additive(None, delta, weight, mask)?;
        self.commit_staged(finite)
    }

    /// Sets this pose to `base` with an additive `delta` applied, as [`Pose::add`].
    pub fn add_to(
        &mut self,
        base: &Pose,
        delta: &Pose,
        weight: f32,
        mask: Option<&JointMask>,
    ) -> Result<()> {
        self.check_pose(base, "the base")?;
        let finite = self.stage_additive(Some(base), delta, weight, mask)?;
        self.commit_staged(finite)
    }

    /// Computes `base ⊕ delta` at `weight` (base defaulting to this pose) into the model buffer;
    /// returns whether it is all finite.
    fn stage_additive(
        &mut self,
        base: Option<&Pose>,
        delta: &Pose,
        weight: f32,
        mask: Option<&JointMask>,
    ) -> Result<bool> {
        ensure_finite(weight.is_finite(), "additive weight")?;
        self.check_pose(delta, "the delta")?;
        if let Some(m) = mask {
            check_count(m.joint_count(), self.joint_count(), "the mask")?;
        }
        let base = base.map_or(&self.local[..], |b| &b.local[..]);
        for (i, (slot, (b, d))) in self
            .model
            .iter_mut()
            .zip(base.iter().zip(&delta.local))
            .enumerate()
        {
            let w = mask.map_or(weight, |m| weight * m.weight(i));
            *slot = apply_delta(b, d, w);
        }
        // A degenerate product normalizes to NaN, reported as overflow.
        Ok(normalize_rotations(&mut self.model, |_, q| q.normalize()))
    }

    /// Makes the transforms staged in the model buffer the local ones if they are all
    /// `finite`, by swapping the buffers (the model buffer is scratch between `model()` calls).
    fn commit_staged(&mut self, finite: bool) -> Result<()> {
        if !finite {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "the blended pose is not representable in f32 (inputs too large)",
            ));
        }
        std::mem::swap(&mut self.local, &mut self.model);
        Ok(())
    }
}

/// [`Transform::mix`] that returns `a` at 0 and `b` at 1 bit for bit.
fn mix_exact(a: &Transform, b: &Transform, w: f32) -> Transform {
    if w <= 0.0 {
        *a
    } else if w >= 1.0 {
        *b
    } else {
        a.mix(b, w)
    }
}

/// `base ⊕ delta` at weight `w` for one joint, as [`Pose::add`] documents (exactly `base` at
/// weight 0), its rotation left for [`normalize_rotations`]. The lerp from the identity toward
/// the delta's rotation stays unnormalized: normalizing only the product gives the same
/// rotation (up to rounding) with one square root less.
#[inline]
fn apply_delta(base: &Transform, delta: &Transform, w: f32) -> Transform {
    if w == 0.0 {
        return *base;
    }
    // The delta on the identity's side: its dot product with the identity is its w.
    let d = Vec4::from(delta.rotation);
    let toward = Quat::from_vec4(Vec4::select(Vec4::splat(d.w).cmplt(Vec4::ZERO), -d, d));
    let partial = |w: f32| {
        (
            Quat::IDENTITY + (toward - Quat::IDENTITY) * w,
            Vec3::ONE * (1.0 - w) + delta.scale * w,
        )
    };
    let (rotation, scale) = if w >= 0.0 {
        let (r, s) = partial(w);
        (base.rotation * r, base.scale * s)
    } else {
        let (r, s) = partial(-w);
        (base.rotation * r.conjugate(), base.scale * safe_recip(s))
    };
    Transform {
        translation: base.translation + delta.translation * w,
        rotation,
        scale,
    }
}

/// One joint's weight normalization: the layers' weights sum in f64 (so huge finite weights
/// still normalize), the rest pose makes up any shortfall below the threshold, and each weight
/// is divided by the total (multiplied by its reciprocal, computed once).
#[derive(Clone, Copy)]
struct Weights {
    inv_total: f64,
    /// The rest pose's normalized weight.
    rest: f32,
}

impl Weights {
    fn new(layer_weights: impl Iterator<Item = f32>, threshold: f32) -> Self {
        let sum: f64 = layer_weights.map(f64::from).sum();
        let rest = (f64::from(threshold) - sum).max(0.0);
        // At least the (positive) threshold, so the reciprocal is finite.
        let inv_total = 1.0 / (sum + rest);
        Self {
            inv_total,
            rest: (rest * inv_total) as f32,
        }
    }

    /// A layer's normalized weight.
    fn of(&self, weight: f32) -> f32 {
        (f64::from(weight) * self.inv_total) as f32
    }
}

/// The empty weighted sum that [`accumulate`] adds to.
const EMPTY_SUM: Transform = Transform {
    translation: Vec3::ZERO,
    rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
    scale: Vec3::ZERO,
};

/// [`EMPTY_SUM`] with its first input added: [`accumulate`] with `t`'s own rotation as the
/// hemisphere, which leaves the rotation as it is.
#[inline]
fn start_sum(t: &Transform, w: f32) -> Transform {
    Transform {
        translation: EMPTY_SUM.translation + t.translation * w,
        rotation: EMPTY_SUM.rotation + t.rotation * w,
        scale: EMPTY_SUM.scale + t.scale * w,
    }
}

/// Adds `t` with (normalized) weight `w` to a weighted sum, its rotation aligned to
/// `hemisphere`, the rotation of the sum's first input (the neighbourhood check).
#[inline]
fn accumulate(sum: &mut Transform, t: &Transform, w: f32, hemisphere: Quat) {
    sum.translation += t.translation * w;
    sum.rotation += same_hemisphere(t.rotation, hemisphere) * w;
    sum.scale += t.scale * w;
}
