//! Pose blending: two-pose blends (whole, masked, or with model-space rotations for masked
//! joints), N-layer weighted blends with a rest-pose fallback (ozz's BlendingJob semantics),
//! and additive layers. Every operation works in place on the output pose and allocates
//! nothing; rotations blend on the shortest arc and stay normalized. Every input pose must
//! belong to the output's skeleton or to one with the same parents: another joint count is a
//! size mismatch, other parents (the same count, another hierarchy) an invalid argument.

use std::sync::Arc;

use glam::Quat;

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::mask::{check_count, JointMask};
use crate::pose::{Pose, Staging};
use crate::rotation::nlerp_shortest;
use crate::simd::{F4, M4};
use crate::soa::{
    lanes_of, mul_quat, normalize_blocks, normalize_glam, safe_recip4, same_hemisphere4, Finish,
    Rows, SoaTransform,
};
use crate::transform::Transform;

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

impl Holds {
    /// `(a, b)` from the output's own value and the other operand's.
    fn order<T>(self, own: T, theirs: T) -> (T, T) {
        match self {
            Holds::A => (own, theirs),
            Holds::B => (theirs, own),
        }
    }
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
                let inputs = a.blocks().iter().zip(b.blocks());
                for (i, (out, (a, b))) in self.blocks_mut().iter_mut().zip(inputs).enumerate() {
                    out.store(&mix4(&a.rows(), &b.rows(), block_weight(t, mask, i)));
                }
            }
            BlendSpace::ModelRotation => {
                self.blocks_mut().copy_from_slice(a.blocks());
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
        if Arc::ptr_eq(other.skeleton(), self.skeleton()) {
            return Ok(());
        }
        let (theirs, ours) = (other.skeleton().parents(), self.skeleton().parents());
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
        match space {
            BlendSpace::Local => {
                let inputs = other.blocks().iter();
                for (i, (own, theirs)) in self.blocks_mut().iter_mut().zip(inputs).enumerate() {
                    let (a, b) = holds.order(own.rows(), theirs.rows());
                    own.store(&mix4(&a, &b, block_weight(t, mask, i)));
                }
            }
            BlendSpace::ModelRotation => {
                let n = self.joint_count();
                let parents = self.skeleton().clone();
                let parents = parents.parents();
                let mut rotations = std::mem::take(&mut self.rotations);
                let (ra, rest) = rotations.split_at_mut(n);
                let (rb, ro) = rest.split_at_mut(n);
                // Model rotations of both operands first, so the output may overwrite either.
                for i in 0..n {
                    let (a, b) = holds.order(self.local().get(i), other.local().get(i));
                    let p = parents[i];
                    (ra[i], rb[i]) = if p < 0 {
                        (a.rotation, b.rotation)
                    } else {
                        (ra[p as usize] * a.rotation, rb[p as usize] * b.rotation)
                    };
                }
                for i in 0..n {
                    let (a, b) = holds.order(self.local().get(i), other.local().get(i));
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
                    self.put_local(i, &out);
                }
                self.rotations = rotations;
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
        let uniform = layers
            .clone()
            .all(|l| l.mask.is_none())
            .then(|| Weights::new(layers.clone().map(|l| l.weight), threshold));
        let Staging {
            staged, skeleton, ..
        } = self.staging();
        let rest = skeleton.rest_pose();
        let fallback = |i: usize, _| rest[i].rotation;
        let finite = match uniform {
            Some(weights) => {
                let inputs = layers
                    .map(|l| (l.pose.blocks(), weights.of(l.weight)))
                    .chain(std::iter::once((skeleton.rest_blocks(), weights.rest)));
                stage_uniform(staged, inputs.filter(|&(_, w)| w > 0.0));
                normalize_blocks(staged, rest.len(), fallback)
            }
            None => {
                let rest_blocks = skeleton.rest_blocks();
                let mut finish = Finish::default();
                for (b, (out, rest_block)) in staged.iter_mut().zip(rest_blocks).enumerate() {
                    let lane_weights = |l: &Layer<'_>| block_weight(l.weight, l.mask, b).to_array();
                    let weights =
                        Weights::lanes(layers.clone().map(|l| lane_weights(&l)), threshold);
                    let mut sum = Sum::default();
                    for l in layers.clone() {
                        let raw = lane_weights(&l);
                        let w = std::array::from_fn(|k| weights[k].of(raw[k]));
                        sum.add(&l.pose.blocks()[b], F4::from_array(w));
                    }
                    sum.add(rest_block, F4::from_array(weights.map(|w| w.rest)));
                    finish.store(&mut sum.rows, out, b, rest.len(), &fallback);
                }
                finish.finite()
            }
        };
        self.commit_staged(finite)
    }

    /// Copies another pose's local transforms (a pose of this skeleton or of one with the same
    /// parents, as every blend requires). Unchanged on error.
    pub fn copy_from(&mut self, other: &Pose) -> Result<()> {
        self.check_pose(other, "the other pose")?;
        self.blocks_mut().copy_from_slice(other.blocks());
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
        let n = self.joint_count();
        let staged = self.staging().staged;
        let inputs = pose.blocks().iter().zip(reference.blocks());
        let mut finish = Finish::default();
        // A degenerate product normalizes to NaN, reported as overflow.
        let fallback = |_, q: Quat| q.normalize();
        for (b, (slot, (p, r))) in staged.iter_mut().zip(inputs).enumerate() {
            let (p, r) = (p.rows(), r.rows());
            let conj = [-r.r[0], -r.r[1], -r.r[2], r.r[3]];
            let mut rows = Rows {
                t: [0, 1, 2].map(|c| p.t[c] - r.t[c]),
                r: mul_quat(&conj, &p.r),
                s: [0, 1, 2].map(|c| p.s[c] * safe_recip4(r.s[c])),
            };
            finish.store(&mut rows, slot, b, n, &fallback);
        }
        self.commit_staged(finish.finite())
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
        let n = self.joint_count();
        let Staging { staged, local, .. } = self.staging();
        let base = base.map_or(local, |b| b.blocks());
        let inputs = base.iter().zip(delta.blocks());
        let mut finish = Finish::default();
        // A degenerate product normalizes to NaN, reported as overflow.
        let fallback = |_, q: Quat| q.normalize();
        for (b, (slot, (base, d))) in staged.iter_mut().zip(inputs).enumerate() {
            let w = block_weight(weight, mask, b);
            let mut rows = apply_delta4(&base.rows(), &d.rows(), w);
            finish.store(&mut rows, slot, b, n, &fallback);
        }
        Ok(finish.finite())
    }
}

/// Four joints' blend weights: `t`, times the mask's weights when there is one.
#[inline(always)]
fn block_weight(t: f32, mask: Option<&JointMask>, block: usize) -> F4 {
    let t = F4::splat(t);
    mask.map_or(t, |m| t * lanes_of(m.weights(), block))
}

/// [`mix_exact`] on four lanes: `a` where `w <= 0`, `b` where `w >= 1`, else
/// [`Transform::mix`]'s formulas, its operations in its order.
#[inline(always)]
fn mix4(a: &Rows, b: &Rows, w: F4) -> Rows {
    let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
    let u = one - w;
    let lerp = |x: F4, y: F4| x * u + y * w;
    let toward = same_hemisphere4(&b.r, &a.r);
    let r = [0, 1, 2, 3].map(|c| a.r[c] + (toward[c] - a.r[c]) * w);
    let mixed = Rows {
        t: [0, 1, 2].map(|c| lerp(a.t[c], b.t[c])),
        r: normalize_glam(&r),
        s: [0, 1, 2].map(|c| lerp(a.s[c], b.s[c])),
    };
    Rows::select(w.le(zero), a, &Rows::select(w.ge(one), b, &mixed))
}

/// `base ⊕ delta` at weight `w` on four lanes, as [`Pose::add`] documents (exactly `base`
/// where `w` is 0), rotations left for [`Finish`]. The lerp from the identity toward
/// the delta's rotation stays unnormalized: normalizing only the product gives the same
/// rotation (up to rounding) with one square root less.
#[inline(always)]
fn apply_delta4(base: &Rows, delta: &Rows, w: F4) -> Rows {
    let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
    let negative: M4 = w.lt(zero);
    let aw = w.negate_where(negative);
    // The delta on the identity's side (its dot product with the identity is its w), then the
    // unnormalized lerp from the identity quaternion toward it by |w|.
    let d = delta.r.map(|c| c.negate_where(delta.r[3].lt(zero)));
    let identity = [zero, zero, zero, one];
    let r = [0, 1, 2, 3].map(|c| identity[c] + (d[c] - identity[c]) * aw);
    // Subtracting is multiplying by the conjugate and dividing the scale.
    let [x, y, z, w_] = r;
    let r = [x, y, z].map(|c| c.negate_where(negative));
    let r = [r[0], r[1], r[2], w_];
    // Blocks without negative weights (the usual case) skip the reciprocals.
    let subtracts = negative.any();
    let applied = Rows {
        t: [0, 1, 2].map(|c| base.t[c] + delta.t[c] * w),
        r: mul_quat(&base.r, &r),
        s: [0, 1, 2].map(|c| {
            let l = one * (one - aw) + delta.s[c] * aw;
            let l = if subtracts {
                F4::select(negative, safe_recip4(l), l)
            } else {
                l
            };
            base.s[c] * l
        }),
    };
    let unweighted = w.eq(zero);
    if unweighted.any() {
        Rows::select(unweighted, base, &applied)
    } else {
        applied
    }
}

/// Stages the weighted sum of `inputs` (blocks and their normalized positive weights, the
/// same on every joint) one input at a time over every block, as ozz's blending job does:
/// the first input starts the sums and sets every joint's hemisphere, the others are added
/// aligned to it. Rotations are left unnormalized.
fn stage_uniform<'a>(
    staged: &mut [SoaTransform],
    mut inputs: impl Iterator<Item = (&'a [SoaTransform], f32)>,
) {
    let zero = F4::splat(0.0);
    let Some((first, w)) = inputs.next() else {
        // No input has weight (the rest pose's makes up any shortfall, so never).
        return;
    };
    let w = F4::splat(w);
    for (out, t) in staged.iter_mut().zip(first) {
        let t = t.rows();
        out.store(&Rows {
            t: t.t.map(|c| zero + c * w),
            r: t.r.map(|c| zero + c * w),
            s: t.s.map(|c| zero + c * w),
        });
    }
    for (input, w) in inputs {
        let w = F4::splat(w);
        for ((out, t), h) in staged.iter_mut().zip(input).zip(first) {
            let (mut sum, t) = (out.rows(), t.rows());
            let h = h.r.map(|c| F4::load(&c));
            sum.add_scaled(&t, &same_hemisphere4(&t.r, &h), w);
            out.store(&sum);
        }
    }
}

/// A weighted sum of four joints' inputs, each lane's rotations aligned to the hemisphere of
/// its first input with a positive weight (the neighbourhood check).
struct Sum {
    rows: Rows,
    hemisphere: [F4; 4],
    /// Lanes whose first input was added, and whether that is all four.
    started: M4,
    all_started: bool,
}

impl Default for Sum {
    fn default() -> Self {
        let zero = F4::splat(0.0);
        Self {
            rows: Rows {
                t: [zero; 3],
                r: [zero; 4],
                s: [zero; 3],
            },
            hemisphere: [zero; 4],
            started: zero.lt(zero),
            all_started: false,
        }
    }
}

impl Sum {
    /// Adds `t` with (normalized, non-negative) weights `w`; lanes of weight 0 add ±0, which
    /// leaves them as they are. The first input with a positive weight in a lane sets its
    /// hemisphere and, aligned to itself, adds as it is.
    #[inline(always)]
    fn add(&mut self, t: &SoaTransform, w: F4) {
        let positive = w.gt(F4::splat(0.0));
        if !positive.any() {
            return;
        }
        let t = t.rows();
        let q = if self.all_started {
            same_hemisphere4(&t.r, &self.hemisphere)
        } else {
            let first = positive & !self.started;
            self.started = self.started | positive;
            self.all_started = self.started.all();
            let h = &mut self.hemisphere;
            *h = [0, 1, 2, 3].map(|c| F4::select(first, t.r[c], h[c]));
            if first.all() {
                t.r
            } else {
                same_hemisphere4(&t.r, h)
            }
        };
        self.rows.add_scaled(&t, &q, w);
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
        Self::of_sum(layer_weights.map(f64::from).sum(), threshold)
    }

    /// [`Self::new`] for four joints at once, from each layer's four weights.
    fn lanes(layer_weights: impl Iterator<Item = [f32; 4]>, threshold: f32) -> [Self; 4] {
        let mut sums = [0.0f64; 4];
        for w in layer_weights {
            for (sum, w) in sums.iter_mut().zip(w) {
                *sum += f64::from(w);
            }
        }
        sums.map(|sum| Self::of_sum(sum, threshold))
    }

    /// The normalization for layer weights summing to `sum`.
    fn of_sum(sum: f64, threshold: f32) -> Self {
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
