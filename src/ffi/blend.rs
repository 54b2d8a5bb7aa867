//! Blending exports: two-pose and N-layer blends, additive deltas. Outputs are poses; a
//! two-pose blend or an additive application may write over one of its inputs. Input poses
//! must belong to the output's skeleton or one with the same parents.

use std::ptr;

use super::args::{arg, arg_mut, arg_slice, c_enum, check_pointer, opt_arg};
use super::guard::{guard, FfiError, FfiResult};
use super::mask::SinewJointMask;
use super::pose::SinewPose;
use super::status::SinewStatus;
use crate::blend::{BlendSpace, Layer};

/// Values of the `space` argument of `sinew_pose_blend`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SinewBlendSpace {
    /// Blend local rotations (the usual blend).
    Local = 0,
    /// Blend the model-space rotations of joints with a non-zero weight (Unreal's mesh-space
    /// rotation blend): a masked upper body keeps its world orientation.
    ModelRotation = 1,
}

/// One layer of `sinew_pose_blend_layers`, or of `sinew_pose_blend_layers_additive` (its
/// blended or its additive layers).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewBlendLayer {
    /// The layer's pose (must not be the output pose); for an additive layer, a delta from
    /// `sinew_pose_make_additive`.
    pub pose: *const SinewPose,
    /// Its weight, at least 0; an additive layer's may be any finite value (negative
    /// subtracts).
    pub weight: f32,
    /// Optional per-joint weights (NULL: all 1).
    pub mask: *const SinewJointMask,
}

/// How a layer array is named in error messages.
struct LayerNames {
    array: &'static str,
    pose: &'static str,
    mask: &'static str,
    /// What the output pose must not be.
    alias: &'static str,
}

const BLENDED: LayerNames = LayerNames {
    array: "layers",
    pose: "layers[i].pose",
    mask: "layers[i].mask",
    alias: "one of the layers",
};

const ADDITIVE: LayerNames = LayerNames {
    array: "additive",
    pose: "additive[i].pose",
    mask: "additive[i].mask",
    alias: "an additive layer's delta",
};

/// Layers whose pose and mask pointers passed [`Checked::new`]'s checks, none of them the
/// output pose.
#[derive(Clone, Copy)]
struct Checked<'a>(&'a [SinewBlendLayer]);

impl<'a> Checked<'a> {
    /// Borrows the `count` layers at `layers` (NULL only when `count` is 0) once each pose
    /// pointer and each non-null mask pointer is non-null and aligned and no pose is `out`
    /// (compared, never borrowed).
    ///
    /// # Safety
    /// `layers` holds `count` items whose non-null pointers are valid for `'a`.
    unsafe fn new(
        layers: *const SinewBlendLayer,
        count: u32,
        names: &LayerNames,
        out: *const SinewPose,
    ) -> FfiResult<Self> {
        // SAFETY: `layers` holds `count` items.
        let layers = unsafe { arg_slice(layers, count, names.array) }?;
        for l in layers {
            check_pointer(l.pose, names.pose)?;
            if !l.mask.is_null() {
                check_pointer(l.mask, names.mask)?;
            }
            if ptr::eq(l.pose, out) {
                return Err(aliasing(names.alias));
            }
        }
        Ok(Self(layers))
    }

    /// The layers as the core takes them.
    fn iter(self) -> impl Iterator<Item = Layer<'a>> + Clone {
        self.0.iter().map(|l| Layer {
            // SAFETY: checked non-null and aligned by `new`, valid per its contract, and
            // distinct from the output.
            pose: unsafe { &(*l.pose).inner },
            weight: l.weight,
            mask: unsafe { l.mask.as_ref() }.map(|m| &m.inner),
        })
    }
}

/// Checks pose pointers in order (null, alignment), forming no reference: the output may be
/// one of the inputs.
fn check_poses(poses: &[(*const SinewPose, &str)]) -> FfiResult<()> {
    poses
        .iter()
        .try_for_each(|&(p, name)| check_pointer(p, name))
}

fn aliasing(what: &str) -> FfiError {
    let message = format!("the output pose must not be {what}");
    FfiError::new(SinewStatus::InvalidArgument, message)
}

/// Blends `a` toward `b` by `t` in [0, 1] into `out` (0 gives `a`, 1 gives `b`), each joint's
/// factor multiplied by `mask` (may be NULL). `out` may be `a` or `b`; when `a`, `b` and `out`
/// are one pose, the call validates and leaves it as it is, bit for bit. Rotations blend on the
/// shortest arc, in local space or (`SINEW_BLEND_SPACE_MODEL_ROTATION`) in model space for
/// joints with a non-zero weight. `a` and `b` must belong to `out`'s skeleton or to one with
/// the same parents (another joint count: `SINEW_STATUS_SIZE_MISMATCH`; other parents:
/// `SINEW_STATUS_INVALID_ARGUMENT`). Unchanged on error.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_blend(
    a: *const SinewPose,
    b: *const SinewPose,
    t: f32,
    mask: *const SinewJointMask,
    space: i32,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        let spaces = [BlendSpace::Local, BlendSpace::ModelRotation];
        let space = c_enum(space, "space", "SinewBlendSpace", &spaces)?;
        // SAFETY: pointers are compared before any reference is formed, so the output is never
        // borrowed mutably while also borrowed as an input.
        unsafe {
            let mask = opt_arg(mask, "mask")?.map(|m| &m.inner);
            check_poses(&[(a, "a"), (b, "b")])?;
            let out_ptr = out.cast_const();
            let out_pose = &mut arg_mut(out, "out")?.inner;
            match (ptr::eq(out_ptr, a), ptr::eq(out_ptr, b)) {
                // A pose blended with itself is itself: validate only.
                (true, true) => out_pose.check_blend_factor(t, mask)?,
                (true, false) => out_pose.blend_toward(&(*b).inner, t, mask, space)?,
                (false, true) => out_pose.blend_from(&(*a).inner, t, mask, space)?,
                (false, false) => out_pose.blend(&(*a).inner, &(*b).inner, t, mask, space)?,
            }
        }
        Ok(())
    })
}

/// Blends `count` layers into `out`: per joint, each layer's weight times its mask, normalized;
/// where the total is below `threshold` (> 0; ozz uses 0.1) the rest pose makes up the
/// difference. `out` must not be one of the layers' poses, which must belong to `out`'s
/// skeleton or to one with the same parents (another joint count:
/// `SINEW_STATUS_SIZE_MISMATCH`; other parents: `SINEW_STATUS_INVALID_ARGUMENT`). Unchanged on
/// error.
///
/// # Safety
/// `layers` must hold `count` items whose non-null pointers are valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_blend_layers(
    layers: *const SinewBlendLayer,
    count: u32,
    threshold: f32,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        check_pointer(out.cast_const(), "out")?;
        // SAFETY: `layers` holds `count` items; none is `out`, borrowed only after the check.
        unsafe {
            let layers = Checked::new(layers, count, &BLENDED, out.cast_const())?;
            let out = arg_mut(out, "out")?;
            out.inner.blend_layer_iter(layers.iter(), threshold)?;
        }
        Ok(())
    })
}

/// Blends `count` layers into `out` as `sinew_pose_blend_layers` does, then applies each of the
/// `additive_count` additive layers in order as `sinew_pose_apply_additive` does, in one call:
/// the same bits as those calls in turn. An additive layer's `pose` is a delta (from
/// `sinew_pose_make_additive`) and its `weight` any finite value (negative subtracts); per
/// joint at `w = weight * mask[joint]` (a NULL mask: all 1):
/// - rotation: d = delta.q, negated when d.w < 0 (the identity's side);
///   r = 1 + |w| * (d - 1), the unnormalized lerp from the identity quaternion 1;
///   normalize(q * r) for w >= 0, normalize(q * conj(r)) for w < 0;
/// - translation: t + w * delta.t;
/// - scale: l = (1 - |w|) + |w| * delta.s per component; s * l for w >= 0, s * (1 / l) for
///   w < 0 (a reciprocal that is not finite counting as 0).
///
/// `layers` and `additive` may be NULL when their count is 0. `out` must not be a layer's
/// pose nor an additive layer's delta (`SINEW_STATUS_INVALID_ARGUMENT`); every pose must
/// belong to `out`'s skeleton or to one with the same parents (another joint count:
/// `SINEW_STATUS_SIZE_MISMATCH`; other parents: `SINEW_STATUS_INVALID_ARGUMENT`). Unchanged on
/// error.
///
/// # Safety
/// `layers` must hold `count` items and `additive` `additive_count` items whose non-null
/// pointers are valid.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_blend_layers_additive(
    layers: *const SinewBlendLayer,
    count: u32,
    additive: *const SinewBlendLayer,
    additive_count: u32,
    threshold: f32,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        check_pointer(out.cast_const(), "out")?;
        // SAFETY: the arrays hold their counts; no pose in them is `out`, borrowed only after
        // the checks.
        unsafe {
            let layers = Checked::new(layers, count, &BLENDED, out.cast_const())?;
            let additive = Checked::new(additive, additive_count, &ADDITIVE, out.cast_const())?;
            let out = arg_mut(out, "out")?;
            out.inner
                .blend_layers_additive_iter(layers.iter(), additive.iter(), threshold)?;
        }
        Ok(())
    })
}

/// Writes into `out_delta` the additive delta of `pose` over `reference`, per joint: rotation
/// normalize(conj(ref.q) * q), translation t - ref.t, scale s * (1 / ref.s) per component (a
/// reciprocal that is not finite counting as 0). `out_delta` must be a third pose; all three
/// must belong to one skeleton or to skeletons with the same parents (another joint count:
/// `SINEW_STATUS_SIZE_MISMATCH`; other parents: `SINEW_STATUS_INVALID_ARGUMENT`). Unchanged on
/// error.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_make_additive(
    pose: *const SinewPose,
    reference: *const SinewPose,
    out_delta: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        let out = out_delta.cast_const();
        check_poses(&[(pose, "pose"), (reference, "reference"), (out, "out_delta")])?;
        if ptr::eq(out, pose) || ptr::eq(out, reference) {
            return Err(aliasing("an input"));
        }
        // SAFETY: checked non-null and aligned; `out_delta` is distinct from the inputs.
        let (pose, reference, out) = unsafe { (&*pose, &*reference, &mut *out_delta) };
        Ok(out.inner.make_additive(&pose.inner, &reference.inner)?)
    })
}

/// Applies an additive `delta` to `base` with `weight` (negative subtracts) into `out`, per
/// joint at `w = weight * mask[joint]` (`mask` may be NULL: all 1), as ozz does:
/// - rotation: d = delta.q, negated when d.w < 0 (the identity's side);
///   r = 1 + |w| * (d - 1), the unnormalized lerp from the identity quaternion 1;
///   normalize(q * r) for w >= 0, normalize(q * conj(r)) for w < 0;
/// - translation: t + w * delta.t;
/// - scale: l = (1 - |w|) + |w| * delta.s per component; s * l for w >= 0, s * (1 / l) for
///   w < 0 (a reciprocal that is not finite counting as 0).
///
/// w = 0 leaves a joint as it is; |w| > 1 extrapolates; w then -w gives the base back up to
/// rounding (where no l is 0). Applying the delta of (P, R) to R at weight 1 gives P up to
/// rounding (the rotation possibly as the negated quaternion) where R's scales have finite
/// reciprocals. `out` may be `base` (in place) but not `delta`; all three must belong to one
/// skeleton or to skeletons with the same parents (another joint count:
/// `SINEW_STATUS_SIZE_MISMATCH`; other parents: `SINEW_STATUS_INVALID_ARGUMENT`). Unchanged on
/// error.
#[no_mangle]
pub unsafe extern "C" fn sinew_pose_apply_additive(
    base: *const SinewPose,
    delta: *const SinewPose,
    weight: f32,
    mask: *const SinewJointMask,
    out: *mut SinewPose,
) -> SinewStatus {
    guard(|| {
        let out_ptr = out.cast_const();
        check_poses(&[(base, "base"), (delta, "delta"), (out_ptr, "out")])?;
        if ptr::eq(out_ptr, delta) {
            return Err(aliasing("the delta"));
        }
        // SAFETY: `out` is not `delta`, and `base` is read only when it is not `out`.
        unsafe {
            let mask = opt_arg(mask, "mask")?.map(|m| &m.inner);
            arg(base, "base")?;
            let delta = &arg(delta, "delta")?.inner;
            let out_pose = &mut arg_mut(out, "out")?.inner;
            if ptr::eq(out_ptr, base) {
                out_pose.add(delta, weight, mask)?;
            } else {
                out_pose.add_to(&(*base).inner, delta, weight, mask)?;
            }
        }
        Ok(())
    })
}
