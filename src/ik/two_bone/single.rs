//! A single chain's solve after its input is checked: the kernel on one chain (vectors packed
//! in registers) when it applies and places the chain to full precision, else the general
//! path; then, at full weight without twist, the finish on the packed values, else the general
//! finish. Batches place and finish every chain their lanes cannot in the same way, and their
//! lanes do the same arithmetic, so the two agree bit for bit.

use super::finish::{finish, finishes_early, tolerance, Solved};
use super::input::{is_clean, read_chain};
use super::kernel::Placed;
use super::lanes::Vector;
use super::packed::{P3, P4};
use super::placement::{one_chain, Placement};
use super::settings::{EndRotation, TwoBoneIkSettings, TwoBoneTarget};
use super::{general, kernel};
use crate::error::Result;
use crate::ik::access::TransformAccess;
use crate::ik::IkResult;
use crate::simd::F4;
use crate::transform::Transform;

/// Whether the SIMD-friendly kernel handles a solve with or without a pole.
fn uses_kernel(s: &TwoBoneIkSettings, has_pole: bool) -> bool {
    s.weight > 0.0 && kernel::applies(s, has_pole)
}

/// Whether [`solve_packed`] may solve a chain: full weight, minimal-arc joint rotation, and
/// the kernel's pole settings.
#[inline(always)]
pub(super) fn packed_applies(s: &TwoBoneIkSettings, has_pole: bool) -> bool {
    finishes_early(s) && kernel::applies(s, has_pole)
}

/// A whole solve on packed values, read from `chain` and written back: `None`, with nothing
/// written, where the input is not clean, the kernel cannot place the chain or the packed
/// finish declines (the caller then solves it from the start). For settings where
/// [`packed_applies`]; the same arithmetic as [`solve`], so the same bits.
#[inline(always)]
pub(super) fn solve_packed<T: TransformAccess>(
    s: &TwoBoneIkSettings,
    chain: &mut [T; 3],
    target: &TwoBoneTarget,
) -> Option<IkResult> {
    let input = read_chain(chain);
    if !is_clean(&input, target) {
        return None;
    }
    let placed = kernel::place(s, &one_chain(&input, target));
    if !placed.ok {
        return None;
    }
    let (solved, result) = finish_packed(s, &input, target, &placed)?;
    solved.write(chain);
    Some(result)
}

/// Solves one validated chain: what changes (`None` at weight 0) and the result, or the
/// overflow error of a result that is not representable.
#[inline(always)]
pub(super) fn solve(
    s: &TwoBoneIkSettings,
    input: &[Transform; 3],
    target: &TwoBoneTarget,
) -> Result<(Option<Solved>, IkResult)> {
    if uses_kernel(s, target.pole.is_some()) {
        let placed = kernel::place(s, &one_chain(input, target));
        if placed.ok {
            let done = finishes_early(s).then(|| finish_packed(s, input, target, &placed));
            if let Some((solved, result)) = done.flatten() {
                return Ok((Some(solved), result));
            }
            return finish(s, input, target, Placement::lane(&placed));
        }
    }
    finish(s, input, target, general::place(s, input, target))
}

/// [`finish`] of a kernel placement on the packed values, for settings that
/// [`finishes_early`]: the end rotation, the reach error and the check that every new value is
/// finite. `None` leaves the chain to `finish` (an error that needs `exact_length`'s scaled
/// form, a value that is not finite).
#[inline(always)]
fn finish_packed(
    s: &TwoBoneIkSettings,
    input: &[Transform; 3],
    target: &TwoBoneTarget,
    p: &Placed<f32>,
) -> Option<(Solved, IkResult)> {
    let end = P4::new(input[2].rotation);
    let end_rot = match s.end_rotation {
        EndRotation::KeepModel => end,
        EndRotation::CopyEffector => target.rotation.map_or(end, P4::new),
        EndRotation::KeepLocal => {
            let local = P4::new(input[1].rotation).conjugate().mul(end);
            p.mid.mul(local).normalize()
        }
    };
    let to_goal = p.c - P3::new(target.position);
    let sq = to_goal.dot(to_goal);
    let error = sq.sqrt();
    let zero = F4::splat(0.0);
    let finite_v = (p.b.0 * zero + p.c.0 * zero).eq(zero).bitmask() & 0b111 == 0b111;
    let probe = p.root.0 * zero + p.mid.0 * zero + end_rot.0 * zero + F4::splat(error) * zero;
    // `exact_length` takes the square root where the square is normal or the vector zero.
    let exact = sq >= f32::MIN_POSITIVE || to_goal.0.eq(zero).bitmask() & 0b111 == 0b111;
    if !(finite_v && probe.eq(zero).all() && exact) {
        return None;
    }
    let solved = Solved {
        root: p.root.quat(),
        mid: (p.b.vec3(), p.mid.quat()),
        end: (p.c.vec3(), end_rot.quat()),
    };
    let result = IkResult {
        reached: error <= tolerance(p.length),
        error,
        iterations: 1,
    };
    Some((solved, result))
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
        // The SIMD kernel computes each lane exactly like the one-chain form, and where it
        // accepts a chain it agrees with the general path to float precision. (Not under
        // Miri: proptest needs the file system.)
        #[test]
        #[cfg_attr(miri, ignore)]
        fn kernel_lanes_match_one_chain_and_general_path(
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
                let one = kernel::place(&settings, &one_chain(input, target));
                let (lanes, ok) = Placement::lanes(&wide);
                let lane = lanes[j];
                prop_assert_eq!(one.ok, ok[j]);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                prop_assert_eq!(bits(&one.b.vec3().to_array()), bits(&lane.b.to_array()));
                prop_assert_eq!(bits(&one.c.vec3().to_array()), bits(&lane.c.to_array()));
                prop_assert_eq!(bits(&one.root.quat().to_array()), bits(&lane.root.to_array()));
                prop_assert_eq!(bits(&one.mid.quat().to_array()), bits(&lane.mid.to_array()));
                if one.ok {
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

        // The packed finish gives `finish`'s bits wherever it completes a solve, for every end
        // rotation, with and without an effector rotation.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn packed_finish_equals_finish(
            (input, mut target) in chain(),
            settings in settings(),
            end_rotation in proptest::sample::select(vec![
                EndRotation::KeepModel,
                EndRotation::CopyEffector,
                EndRotation::KeepLocal,
            ]),
            rotation in proptest::option::of(rotation()),
        ) {
            let settings = TwoBoneIkSettings { end_rotation, ..settings };
            target.rotation = rotation;
            let placed = kernel::place(&settings, &one_chain(&input, &target));
            prop_assume!(placed.ok);
            let packed = finish_packed(&settings, &input, &target, &placed);
            let full = finish(&settings, &input, &target, Placement::lane(&placed));
            if let Some((solved, result)) = packed {
                let (expected, expected_result) = full.unwrap();
                let expected = expected.unwrap();
                let bits = |s: &Solved| {
                    [s.root.to_array(), s.mid.1.to_array(), s.end.1.to_array()]
                        .into_iter()
                        .flatten()
                        .chain(s.mid.0.to_array())
                        .chain(s.end.0.to_array())
                        .map(f32::to_bits)
                        .collect::<Vec<_>>()
                };
                prop_assert_eq!(bits(&solved), bits(&expected));
                prop_assert_eq!(result.error.to_bits(), expected_result.error.to_bits());
                prop_assert_eq!(result.reached, expected_result.reached);
            }
        }
    }
}
