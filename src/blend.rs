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
    mul_quat, normalize_glam, rows3, rows4, safe_recip4, same_hemisphere4, Finish, Rows,
    SoaTransform,
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
    ///
    /// Per joint, with `w_k = weight_k · mask_k` summed in `f32` in layer order to `W`, the rest
    /// pose's weight is `r = max(threshold − W, 0)`, and each input's normalized weight is its
    /// weight times `1 / (W + r)`. When a weight or the threshold exceeds 2^100 all of them are
    /// first multiplied by one power of two (exact for every weight above 2^-98, and smaller
    /// ones are under 2^-198 of the largest), so the sum cannot overflow. Translations and scales are the normalized weighted sums; rotations
    /// are summed in order, each negated when its dot product with the sum so far is negative
    /// (ozz's neighbourhood rule), then normalized. Unchanged on error.
    pub fn blend_layers(&mut self, layers: &[Layer<'_>], threshold: f32) -> Result<()> {
        self.blend_layer_iter(layers.iter().copied(), threshold)
    }

    /// [`Self::blend_layers`] over any re-iterable source of layers (read once per four
    /// joints), so callers holding layers in another form need not collect them.
    pub fn blend_layer_iter<'a, I>(&mut self, layers: I, threshold: f32) -> Result<()>
    where
        I: Iterator<Item = Layer<'a>> + Clone,
    {
        self.blend_layers_additive_iter(layers, std::iter::empty(), threshold)
    }

    /// [`Self::blend_layers`], then each of `additive` applied in order as [`Self::add`] does
    /// (its `pose` a delta from [`Self::make_additive`], its weight any finite value, negative
    /// subtracting), in one pass: the same bits as those calls in turn (ozz's `BlendingJob`
    /// with additive layers). Unchanged on error.
    pub fn blend_layers_additive(
        &mut self,
        layers: &[Layer<'_>],
        additive: &[Layer<'_>],
        threshold: f32,
    ) -> Result<()> {
        let additive = additive.iter().copied();
        self.blend_layers_additive_iter(layers.iter().copied(), additive, threshold)
    }

    /// [`Self::blend_layers_additive`] over re-iterable sources of layers (each read once per
    /// four joints).
    pub fn blend_layers_additive_iter<'a, 'b, I, A>(
        &mut self,
        layers: I,
        additive: A,
        threshold: f32,
    ) -> Result<()>
    where
        I: Iterator<Item = Layer<'a>> + Clone,
        A: Iterator<Item = Layer<'b>> + Clone,
    {
        ensure_finite(threshold.is_finite(), "threshold")?;
        if threshold <= 0.0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("threshold {threshold} must be positive"),
            ));
        }
        let mut largest = threshold;
        for (k, layer) in layers.clone().enumerate() {
            ensure_finite(layer.weight.is_finite(), "layer weight")?;
            if layer.weight < 0.0 {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("layer {k} has negative weight {}", layer.weight),
                ));
            }
            largest = largest.max(layer.weight);
            self.check_pose(layer.pose, "a layer's pose")?;
            if let Some(m) = layer.mask {
                check_count(m.joint_count(), self.joint_count(), "a layer's mask")?;
            }
        }
        for layer in additive.clone() {
            ensure_finite(layer.weight.is_finite(), "additive layer weight")?;
            self.check_pose(layer.pose, "an additive layer's delta")?;
            if let Some(m) = layer.mask {
                check_count(
                    m.joint_count(),
                    self.joint_count(),
                    "an additive layer's mask",
                )?;
            }
        }
        let scale = weight_scale(largest);
        let threshold = threshold * scale;
        let Staging {
            staged,
            skeleton,
            norms,
            ..
        } = self.staging();
        let rest = skeleton.rest_pose();
        let n = rest.len();
        let positive = layers.clone().filter(|l| l.weight > 0.0);
        let rest_blocks = skeleton.rest_blocks();
        if layers.clone().any(|l| l.mask.is_some()) {
            let (inv_totals, rests) = normalize_blocks(norms, layers.clone(), scale, threshold);
            let masked = |l: Layer<'a>| {
                let weights = Masked {
                    weight: l.weight * scale,
                    mask: l.mask.map(JointMask::blocks),
                    factors: inv_totals,
                };
                (l.pose.blocks(), weights)
            };
            let rest_needed = rests.iter().any(|r| r.iter().any(|&r| r > 0.0));
            let rest = rest_needed.then_some((
                rest_blocks,
                Masked {
                    weight: 1.0,
                    mask: None,
                    factors: rests,
                },
            ));
            stage_passes(staged, positive.map(masked).chain(rest));
        } else {
            let weights = layers.clone().map(|l| l.weight * scale);
            let (inv_total, rest) = uniform_norm(weights, threshold);
            let uniform = |l: Layer<'a>| (l.pose.blocks(), F4::splat(l.weight * scale * inv_total));
            let rest = (rest > 0.0).then_some((rest_blocks, F4::splat(rest)));
            stage_passes(staged, positive.map(uniform).chain(rest));
        }
        // Normalized, and each additive layer applied, in passes of their own.
        let mut finish = Finish::default();
        finish.normalize(staged, n, &|i, _| rest[i].rotation);
        for l in additive {
            additive_pass(staged, None, l.pose.blocks(), l.weight, l.mask);
            finish.normalize(staged, n, &product_fallback);
        }
        self.commit_finished(&finish)
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
        for (b, (slot, (p, r))) in staged.iter_mut().zip(inputs).enumerate() {
            let (p, r) = (p.rows(), r.rows());
            let conj = [-r.r[0], -r.r[1], -r.r[2], r.r[3]];
            let mut rows = Rows {
                t: rows3(|c| p.t[c] - r.t[c]),
                r: mul_quat(&conj, &p.r),
                s: rows3(|c| p.s[c] * safe_recip4(r.s[c])),
            };
            finish.store(&mut rows, slot, b, n, &product_fallback);
        }
        self.commit_finished(&finish)
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
        let finish = self.stage_additive(None, delta, weight, mask)?;
        self.commit_finished(&finish)
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
        let finish = self.stage_additive(Some(base), delta, weight, mask)?;
        self.commit_finished(&finish)
    }

    /// Computes `base ⊕ delta` at `weight` (base defaulting to this pose) into the staged
    /// blocks; returns the [`Finish`] that stored them.
    fn stage_additive(
        &mut self,
        base: Option<&Pose>,
        delta: &Pose,
        weight: f32,
        mask: Option<&JointMask>,
    ) -> Result<Finish> {
        ensure_finite(weight.is_finite(), "additive weight")?;
        self.check_pose(delta, "the delta")?;
        if let Some(m) = mask {
            check_count(m.joint_count(), self.joint_count(), "the mask")?;
        }
        let n = self.joint_count();
        let Staging { staged, local, .. } = self.staging();
        let base = base.map_or(local, |b| b.blocks());
        additive_pass(staged, Some(base), delta.blocks(), weight, mask);
        let mut finish = Finish::default();
        finish.normalize(staged, n, &product_fallback);
        Ok(finish)
    }
}

/// Four joints' blend weights: `t`, times the mask's weights when there is one.
#[inline(always)]
fn block_weight(t: f32, mask: Option<&JointMask>, block: usize) -> F4 {
    let t = F4::splat(t);
    mask.map_or(t, |m| t * F4::load(&m.blocks()[block]))
}

/// `base ⊕ delta` at `weight` (times `mask`'s weights) into `out`, block by block, as
/// [`Pose::add`] documents, `base` defaulting to `out` itself; rotations are left for a
/// [`Finish::normalize`] pass. Without a mask the weight is a constant of the loop, and so is
/// everything the kernel derives from it.
fn additive_pass(
    out: &mut [SoaTransform],
    base: Option<&[SoaTransform]>,
    delta: &[SoaTransform],
    weight: f32,
    mask: Option<&JointMask>,
) {
    match mask {
        None => apply_blocks(out, base, delta, F4::splat(weight)),
        Some(m) => apply_blocks(out, base, delta, MaskWeights(weight, m.blocks())),
    }
}

/// [`additive_pass`] with its weights from `w`.
#[inline(always)]
fn apply_blocks<W: Weight>(
    out: &mut [SoaTransform],
    base: Option<&[SoaTransform]>,
    delta: &[SoaTransform],
    w: W,
) {
    let n = out.len();
    let covered = |blocks: usize| blocks >= n;
    assert!(covered(delta.len()) && base.is_none_or(|b| covered(b.len())) && w.covers(n));
    // A uniform weight of 0 leaves every joint as it is; any other keeps zeros out of the loop.
    if W::UNIFORM && w.lanes(0).eq(F4::splat(0.0)).all() {
        if let Some(base) = base {
            out.copy_from_slice(&base[..n]);
        }
        return;
    }
    for b in 0..n {
        let from = base.map_or_else(|| out[b].rows(), |base| base[b].rows());
        out[b].store(&apply_delta4(
            &from,
            &delta[b].rows(),
            w.lanes(b),
            !W::UNIFORM,
        ));
    }
}

/// The rotation of a joint whose additive product does not normalize: glam's normalization,
/// NaN for a degenerate product, which [`Finish`] reports as overflow.
fn product_fallback(_: usize, q: Quat) -> Quat {
    q.normalize()
}

/// [`mix_exact`] on four lanes: `a` where `w <= 0`, `b` where `w >= 1`, else
/// [`Transform::mix`]'s formulas, its operations in its order.
#[inline(always)]
fn mix4(a: &Rows, b: &Rows, w: F4) -> Rows {
    let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
    let u = one - w;
    let lerp = |x: F4, y: F4| x * u + y * w;
    let toward = same_hemisphere4(&b.r, &a.r);
    let r = rows4(|c| a.r[c] + (toward[c] - a.r[c]) * w);
    let mixed = Rows {
        t: rows3(|c| lerp(a.t[c], b.t[c])),
        r: normalize_glam(&r),
        s: rows3(|c| lerp(a.s[c], b.s[c])),
    };
    Rows::select(w.le(zero), a, &Rows::select(w.ge(one), b, &mixed))
}

/// `base ⊕ delta` at weight `w` on four lanes, as [`Pose::add`] documents (exactly `base`
/// where `w` is 0, which the caller rules out when `zeros` is false), rotations left for
/// [`Finish`]. The lerp from the identity toward the delta's rotation stays unnormalized:
/// normalizing only the product gives the same rotation (up to rounding) with one square
/// root less.
#[inline(always)]
fn apply_delta4(base: &Rows, delta: &Rows, w: F4, zeros: bool) -> Rows {
    let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
    let negative: M4 = w.lt(zero);
    let aw = w.negate_where(negative);
    // The delta on the identity's side (its dot product with the identity is its w), then the
    // unnormalized lerp from the identity quaternion toward it by |w|.
    let d = rows4(|c| delta.r[c].negate_where(delta.r[3].lt(zero)));
    let identity = [zero, zero, zero, one];
    let r = rows4(|c| identity[c] + (d[c] - identity[c]) * aw);
    // Subtracting is multiplying by the conjugate and dividing the scale.
    let [x, y, z, w_] = r;
    let r = rows3(|c| [x, y, z][c].negate_where(negative));
    let r = [r[0], r[1], r[2], w_];
    // Blocks without negative weights (the usual case) skip the reciprocals.
    let subtracts = negative.any();
    let applied = Rows {
        t: rows3(|c| base.t[c] + delta.t[c] * w),
        r: mul_quat(&base.r, &r),
        s: rows3(|c| {
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
    if zeros && unweighted.any() {
        Rows::select(unweighted, base, &applied)
    } else {
        applied
    }
}

/// The normalization of layers without masks, from their (scaled) weights in order: the
/// reciprocal of the total, and the rest pose's normalized weight.
fn uniform_norm(weights: impl Iterator<Item = f32>, threshold: f32) -> (f32, f32) {
    let total = weights.fold(0.0f32, |sum, w| sum + w);
    let rest = (threshold - total).max(0.0);
    let total = total + rest;
    // At least the threshold, unless that underflowed to 0 when scaled: then the rest pose.
    if total == 0.0 {
        return (0.0, 1.0);
    }
    let inv_total = 1.0 / total;
    (inv_total, rest * inv_total)
}

/// Per block, each lane's weight normalization for `layers` (weights multiplied by `scale`,
/// masks applied): the totals summed layer by layer over every block, then
/// [`uniform_norm`]'s rule per lane. Returns each lane's reciprocal total and the rest pose's
/// normalized weight, block by block (the two halves of `norms`).
fn normalize_blocks<'a, 'n>(
    norms: &'n mut [[f32; 4]],
    layers: impl Iterator<Item = Layer<'a>>,
    scale: f32,
    threshold: f32,
) -> (&'n [[f32; 4]], &'n [[f32; 4]]) {
    let (inv_totals, rests) = norms.split_at_mut(norms.len() / 2);
    inv_totals.fill([0.0; 4]);
    for l in layers {
        for (b, n) in inv_totals.iter_mut().enumerate() {
            (F4::load(n) + block_weight(l.weight * scale, l.mask, b)).store(n);
        }
    }
    let (zero, one) = (F4::splat(0.0), F4::splat(1.0));
    for (n, r) in inv_totals.iter_mut().zip(rests.iter_mut()) {
        let total = F4::load(n);
        let rest = (F4::splat(threshold) - total).max(zero);
        let total = total + rest;
        let empty = total.eq(zero);
        let inv_total = F4::select(empty, zero, one / total);
        inv_total.store(n);
        F4::select(empty, one, rest * inv_total).store(r);
    }
    (inv_totals, rests)
}

/// Where an input of a layer blend gets its four joints' normalized weights.
trait Weight: Copy {
    /// Whether every block has the same lanes.
    const UNIFORM: bool = false;
    fn lanes(&self, b: usize) -> F4;
    /// Whether it has weights for at least `blocks` blocks.
    fn covers(&self, blocks: usize) -> bool;
}

/// The same weight on every joint (layers without masks).
impl Weight for F4 {
    const UNIFORM: bool = true;
    #[inline(always)]
    fn lanes(&self, _: usize) -> F4 {
        *self
    }
    fn covers(&self, _: usize) -> bool {
        true
    }
}

/// A weight times a mask's lanes (additive layers).
#[derive(Clone, Copy)]
struct MaskWeights<'a>(f32, &'a [[f32; 4]]);

impl Weight for MaskWeights<'_> {
    #[inline(always)]
    fn lanes(&self, b: usize) -> F4 {
        F4::splat(self.0) * F4::load(&self.1[b])
    }
    fn covers(&self, blocks: usize) -> bool {
        self.1.len() >= blocks
    }
}

/// Weights normalized per block ([`normalize_blocks`]): `weight` times the mask's lanes (when
/// there is a mask) times `factors`' lanes. A layer: its scaled weight, its mask and the
/// reciprocal totals; the rest pose: 1, no mask and its normalized weights.
#[derive(Clone, Copy)]
struct Masked<'a> {
    weight: f32,
    mask: Option<&'a [[f32; 4]]>,
    factors: &'a [[f32; 4]],
}

impl Weight for Masked<'_> {
    #[inline(always)]
    fn lanes(&self, b: usize) -> F4 {
        let w = F4::splat(self.weight);
        let raw = self.mask.map_or(w, |m| w * F4::load(&m[b]));
        raw * F4::load(&self.factors[b])
    }
    fn covers(&self, blocks: usize) -> bool {
        self.factors.len() >= blocks && self.mask.is_none_or(|m| m.len() >= blocks)
    }
}

/// An input of a layer blend: its blocks and where its weights come from.
type Input<'a, W> = (&'a [SoaTransform], W);

/// Whether `input` has blocks and weights for at least `blocks` blocks.
fn covers<W: Weight>(input: &Input<'_, W>, blocks: usize) -> bool {
    input.0.len() >= blocks && input.1.covers(blocks)
}

/// The sums block `b` starts with: `input`'s weighted values.
#[inline(always)]
fn start<W: Weight>(input: &Input<'_, W>, b: usize) -> Rows {
    let (t, w) = (input.0[b].rows(), input.1.lanes(b));
    Rows {
        t: rows3(|c| t.t[c] * w),
        r: rows4(|c| t.r[c] * w),
        s: rows3(|c| t.s[c] * w),
    }
}

/// Adds `input`'s weighted values to block `b`'s sums, its rotations aligned to the
/// hemisphere of the sum so far.
#[inline(always)]
fn add_to<W: Weight>(sum: &mut Rows, input: &Input<'_, W>, b: usize) {
    let t = input.0[b].rows();
    let q = same_hemisphere4(&t.r, &sum.r);
    sum.add_scaled(&t, &q, input.1.lanes(b));
}

/// Sums `inputs` into `staged` one input at a time over every block, as ozz's blending job
/// does: the first two inputs in one pass, each further one in its own, each input's rotations
/// aligned to the hemisphere of the sum so far (the neighbourhood check).
fn stage_passes<'a, W: Weight>(
    staged: &mut [SoaTransform],
    mut inputs: impl Iterator<Item = Input<'a, W>>,
) {
    // The rest pose comes last and is there whenever no layer has a positive weight.
    let Some(first) = inputs.next() else { return };
    let Some(second) = inputs.next() else {
        return pass(staged, Start(first));
    };
    pass(staged, StartTwo(first, second));
    for input in inputs {
        pass(staged, AddTo(input));
    }
}

/// The sums a pass of [`stage_passes`] computes for block `b` (staged as `out`).
trait Sums {
    fn sums(&self, b: usize, out: &SoaTransform) -> Rows;
    /// Whether every input has at least `blocks` blocks (asserted before a pass, which
    /// lets the compiler drop the bounds checks from its loop).
    fn covers(&self, blocks: usize) -> bool;
}

/// One input's weighted values.
struct Start<'a, W>(Input<'a, W>);
/// Two inputs' weighted sum.
struct StartTwo<'a, W>(Input<'a, W>, Input<'a, W>);
/// An input added to the staged sums.
struct AddTo<'a, W>(Input<'a, W>);

impl<W: Weight> Sums for Start<'_, W> {
    #[inline(always)]
    fn sums(&self, b: usize, _: &SoaTransform) -> Rows {
        start(&self.0, b)
    }
    fn covers(&self, blocks: usize) -> bool {
        covers(&self.0, blocks)
    }
}

impl<W: Weight> Sums for StartTwo<'_, W> {
    #[inline(always)]
    fn sums(&self, b: usize, _: &SoaTransform) -> Rows {
        let mut sum = start(&self.0, b);
        add_to(&mut sum, &self.1, b);
        sum
    }
    fn covers(&self, blocks: usize) -> bool {
        covers(&self.0, blocks) && covers(&self.1, blocks)
    }
}

impl<W: Weight> Sums for AddTo<'_, W> {
    #[inline(always)]
    fn sums(&self, b: usize, out: &SoaTransform) -> Rows {
        let mut sum = out.rows();
        add_to(&mut sum, &self.0, b);
        sum
    }
    fn covers(&self, blocks: usize) -> bool {
        covers(&self.0, blocks)
    }
}

/// One pass of [`stage_passes`] over every block: the sums stored.
#[inline(always)]
fn pass(staged: &mut [SoaTransform], sums: impl Sums) {
    assert!(sums.covers(staged.len()), "a blend input is too short");
    // Indices bounded by `staged.len()` and the assertion: the loop has no bounds checks.
    #[allow(clippy::needless_range_loop)]
    for b in 0..staged.len() {
        let out = &mut staged[b];
        out.store(&sums.sums(b, out));
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

/// The power of two that brings `largest` (a positive finite weight or threshold) to at
/// most 2^100, or 1 when it already is: layer weights and the threshold scaled by it sum in
/// `f32` without overflow, and keep their ratios (exactly, but for weights under 2^-98, which
/// the scale may round into subnormals).
fn weight_scale(largest: f32) -> f32 {
    let exponent = (largest.to_bits() >> 23) as i32 - 127;
    if exponent < 100 {
        1.0
    } else {
        f32::from_bits(((127 + 99 - exponent) as u32) << 23)
    }
}
