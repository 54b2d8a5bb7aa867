//! A single chain's placement: the kernel on one lane when it applies and places the chain to
//! full precision, else the general path. Batches place every chain the wide kernel cannot
//! in the same way, so the two agree bit for bit.

use super::placement::{one_lane, Placement};
use super::settings::{TwoBoneIkSettings, TwoBoneTarget};
use super::{general, kernel};
use crate::transform::Transform;

/// Whether the SIMD-friendly kernel handles a solve with or without a pole.
pub(super) fn uses_kernel(s: &TwoBoneIkSettings, has_pole: bool) -> bool {
    s.weight > 0.0 && kernel::applies(s, has_pole)
}

/// Places one validated chain: the kernel on one lane when it applies and succeeds (the
/// same arithmetic as a batch lane), else the general path.
#[inline(always)]
pub(super) fn place(
    s: &TwoBoneIkSettings,
    input: &[Transform; 3],
    target: &TwoBoneTarget,
) -> Placement {
    if uses_kernel(s, target.pole.is_some()) {
        let placed = kernel::place(s, &one_lane(input, target));
        if placed.ok {
            return Placement::lane(&placed);
        }
    }
    general::place(s, input, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ik::two_bone::placement::gather;
    use glam::{Quat, Vec3};
    use proptest::prelude::*;

    fn v3() -> impl Strategy<Value = Vec3> {
        (-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn rotation() -> impl Strategy<Value = Quat> {
        (v3(), -3.0f32..3.0).prop_map(|(axis, angle)| {
            Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Y), angle)
        })
    }

    fn chain() -> impl Strategy<Value = ([Transform; 3], TwoBoneTarget)> {
        (
            [v3(), v3(), v3()],
            [rotation(), rotation(), rotation()],
            v3(),
            proptest::option::of(v3()),
        )
            .prop_map(|(p, r, goal, pole)| {
                let t = |i: usize| Transform::from_rotation_translation(r[i], p[i]);
                let target = TwoBoneTarget {
                    position: goal,
                    rotation: None,
                    pole,
                };
                ([t(0), t(1), t(2)], target)
            })
    }

    fn settings() -> impl Strategy<Value = TwoBoneIkSettings> {
        (any::<bool>(), 0.8f32..=1.0).prop_map(|(stretch, soften)| TwoBoneIkSettings {
            allow_stretching: stretch,
            soften,
            ..TwoBoneIkSettings::default()
        })
    }

    proptest! {
        // The SIMD kernel computes each lane exactly like scalar code, and where it accepts a
        // chain it agrees with the general path to float precision. (Not under Miri: proptest
        // needs the file system.)
        #[test]
        #[cfg_attr(miri, ignore)]
        fn kernel_lanes_match_scalar_and_general_path(
            group in [chain(), chain(), chain(), chain()],
            settings in settings(),
        ) {
            let has_pole = group[0].1.pole.is_some();
            let group = group.map(|(c, mut t)| {
                t.pole = t.pole.or(has_pole.then_some(Vec3::Z)).filter(|_| has_pole);
                (c, t)
            });
            let wide = kernel::place(&settings, &gather(&group));
            for (j, (input, target)) in group.iter().enumerate() {
                let scalar = kernel::place(&settings, &one_lane(input, target));
                let (lanes, ok) = Placement::lanes(&wide);
                let lane = lanes[j];
                prop_assert_eq!(scalar.ok, ok[j]);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                prop_assert_eq!(bits(&Vec3::from(scalar.b).to_array()), bits(&lane.b.to_array()));
                prop_assert_eq!(bits(&Vec3::from(scalar.c).to_array()), bits(&lane.c.to_array()));
                prop_assert_eq!(bits(&Quat::from(scalar.root).to_array()), bits(&lane.root.to_array()));
                prop_assert_eq!(bits(&Quat::from(scalar.mid).to_array()), bits(&lane.mid.to_array()));
                if scalar.ok {
                    let general = general::place(&settings, input, target);
                    let scale = 1.0 + general.length;
                    // Near full extension the joint's distance from the aim line is a square
                    // root of a rounding-sized quantity: up to sqrt(2 eps) of the bone apart.
                    let l1 = (input[1].translation - input[0].translation).length();
                    let joint_tol = 1e-5 * scale + 6e-4 * l1;
                    prop_assert!((general.b - lane.b).length() <= joint_tol);
                    prop_assert!((general.c - lane.c).length() <= 1e-5 * scale);
                    // Each rotation turns its bone onto the new direction, so it inherits the
                    // joint's spread over the bone's length (and 1e-6 in the quaternion dot,
                    // about 2.8e-3 rad, where the joint is well placed).
                    let l2 = (input[2].translation - input[1].translation).length();
                    let apart = |a: Quat, b: Quat| 2.0 * a.dot(b).abs().min(1.0).acos();
                    prop_assert!(apart(general.root, lane.root) <= 2.9e-3 + 2.0 * joint_tol / l1);
                    prop_assert!(apart(general.mid, lane.mid) <= 2.9e-3 + 2.0 * joint_tol / l2);
                }
            }
        }
    }
}
