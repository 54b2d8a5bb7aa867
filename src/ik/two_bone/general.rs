//! The general placement: defined for every finite chain and target, with a branch for each
//! case the kernel leaves out.

use glam::{Quat, Vec3, Vec3A};

use super::placement::Placement;
use super::settings::{TwoBoneIkSettings, TwoBoneTarget};
use super::stretch::{softened, stretched};
use crate::math;
use crate::rotation::{
    frame_perpendicular, perpendicular_unit, shortest_arc, unit_arc_unnormalized,
};
use crate::transform::Transform;

/// Places one chain: the single-solve path, also the batch fallback for every degenerate
/// case (target at the root, zero-length bones, pole on the aim line, partial pole
/// weight, half turns, huge coordinates).
pub(super) fn place(
    s: &TwoBoneIkSettings,
    chain: &[Transform; 3],
    target: &TwoBoneTarget,
) -> Placement {
    let [root, mid, _] = *chain;
    let a = Vec3A::from(root.translation);
    let b = Vec3A::from(mid.translation);
    let c = Vec3A::from(chain[2].translation);
    let (upper, lower) = (b - a, c - b);
    let l1 = upper.length();
    let l2 = lower.length();
    let length = l1 + l2;
    let tiny = length * 1e-6 + f32::MIN_POSITIVE;
    let goal = Vec3A::from(target.position);

    let to_goal = goal - a;
    let goal_dist = to_goal.length();
    let dir = if goal_dist > tiny {
        to_goal / goal_dist
    } else {
        fallback_direction(&root, upper, c - a, tiny)
    };
    let plane_eps = (l1 * 1e-5).max(tiny);
    let bend = bend_direction(s, a, dir, target.pole, tiny, || {
        carried_bend(&root, upper, c - a, dir, tiny, plane_eps)
    });

    // Bones of no length stay as they are (no ratio to stretch by).
    let (u1, u2) = if length > tiny {
        stretched(s, l1, l2, goal_dist, length)
    } else {
        (l1, l2)
    };
    let reach = u1 + u2;
    let dist = softened(s, goal_dist, reach);

    // Place the joint by the law of cosines, then the end along the joint-to-goal line so
    // both bone lengths hold even when the triangle cannot close. `None` marks a bone
    // whose new direction is undefined (zero length).
    let (new_b, new_c, upper_dir, lower_dir) = if dist >= reach {
        (a + dir * u1, a + dir * reach, Some(dir), Some(dir))
    } else if u1 <= tiny {
        (a, a + dir * u2, None, Some(dir))
    } else {
        let d = dist.max(tiny);
        let cos = ((u1 * u1 + d * d - u2 * u2) / (2.0 * u1 * d)).clamp(-1.0, 1.0);
        // (1 - c)(1 + c) keeps precision near full extension, where 1 - c² cancels.
        let sin = ((1.0 - cos) * (1.0 + cos)).max(0.0).sqrt();
        let upper_dir = dir * cos + bend * sin;
        let nb = a + upper_dir * u1;
        let to_aim = a + dir * dist - nb;
        let aim_len = to_aim.length();
        let lower_dir = if aim_len > tiny {
            to_aim / aim_len
        } else {
            dir
        };
        (nb, nb + lower_dir * u2, Some(upper_dir), Some(lower_dir))
    };
    Placement {
        b: new_b,
        c: new_c,
        root: turn(upper, l1, upper_dir, root.rotation),
        mid: turn(lower, l2, lower_dir, mid.rotation),
        length,
    }
}

/// Unit direction perpendicular to `dir` toward which the joint bends: without a pole
/// `no_pole` (the input's bend carried onto the aim line, [`carried_bend`]), turned from
/// there toward the pole by `pole_weight`.
fn bend_direction(
    s: &TwoBoneIkSettings,
    a: Vec3A,
    dir: Vec3A,
    pole: Option<Vec3>,
    tiny: f32,
    no_pole: impl FnOnce() -> Vec3A,
) -> Vec3A {
    let pole_dir = pole.and_then(|p| perpendicular_unit(Vec3A::from(p) - a, dir, tiny));
    let w = s.pole_weight;
    if let (Some(pole_dir), true) = (pole_dir, w >= 1.0) {
        // The input's bend only matters when the pole is missing or only partly applied.
        return pole_dir;
    }
    let current = no_pole();
    let Some(pole_dir) = pole_dir else {
        return current;
    };
    let angle = math::atan2(current.cross(pole_dir).dot(dir), current.dot(pole_dir));
    Quat::from_axis_angle(dir.into(), angle * w) * current
}

/// The input's bend direction (the joint's offset from the root-end line, perpendicular to
/// it) carried by the minimal rotation from the input's root-end direction to `dir`, so the
/// joint keeps the animation's bend as the end is pulled toward the target (like Unity's
/// TwoBoneIK). A straight input (joint within `plane_eps` of its root-end line) uses a
/// direction fixed in the root bone's frame, an input end at the root the upper bone, and a
/// target within 0.1 degree of straight behind the input's end keeps the input's direction.
fn carried_bend(
    root: &Transform,
    upper: Vec3A,
    to_end: Vec3A,
    dir: Vec3A,
    tiny: f32,
    plane_eps: f32,
) -> Vec3A {
    let end_dist = to_end.length();
    let Some(from) = (end_dist > tiny).then(|| to_end / end_dist) else {
        return perpendicular_unit(upper, dir, plane_eps)
            .unwrap_or_else(|| root_frame_perpendicular(root, upper, dir));
    };
    let Some(bend) = perpendicular_unit(upper, from, plane_eps) else {
        return root_frame_perpendicular(root, upper, dir);
    };
    // The minimal rotation from `from` to `dir`, on a vector perpendicular to `from`: a
    // reflection through the plane perpendicular to `from + dir`.
    let k = 1.0 + from.dot(dir);
    let carried = if k > 1e-6 {
        bend - (from + dir) * (bend.dot(dir) / k)
    } else {
        bend
    };
    // Unit and perpendicular to `dir` up to rounding; one more pass makes it exact.
    perpendicular_unit(carried, dir, 0.5)
        .unwrap_or_else(|| root_frame_perpendicular(root, upper, dir))
}

/// `rotation` turned by the minimal arc that takes bone vector `old` (of length `old_len`) onto
/// unit direction `new_dir`; only renormalized when the new direction is undefined.
fn turn(old: Vec3A, old_len: f32, new_dir: Option<Vec3A>, rotation: Quat) -> Quat {
    let Some(to) = new_dir else {
        return rotation.normalize();
    };
    // Unit-vector fast path; zero, tiny, huge and near-opposite cases go through the robust arc.
    let arc = (old_len > 1e-15 && old_len.is_finite())
        .then(|| unit_arc_unnormalized(old / old_len, to))
        .flatten()
        .unwrap_or_else(|| shortest_arc(old.into(), to.into()));
    (arc * rotation).normalize()
}

/// Direction toward a target at the root: the current end, then the upper bone, then the
/// root's own X axis.
fn fallback_direction(root: &Transform, upper: Vec3A, to_end: Vec3A, tiny: f32) -> Vec3A {
    [to_end, upper]
        .into_iter()
        .find(|v| v.length() > tiny)
        .map_or(root.rotation * Vec3A::X, Vec3A::normalize)
}

/// A bend direction that moves with the root bone: [`frame_perpendicular`] of the root's
/// rotation and the upper bone in its frame (a per-rig constant), perpendicular to `dir`.
fn root_frame_perpendicular(root: &Transform, upper: Vec3A, dir: Vec3A) -> Vec3A {
    frame_perpendicular(root.rotation, root.rotation.conjugate() * upper, dir)
}
