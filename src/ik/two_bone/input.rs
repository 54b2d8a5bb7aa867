//! Reading a chain through [`TransformAccess`] and deciding whether it and its target can be
//! used as they are (the common case, decided inline) or must be checked and normalized.

use glam::Quat;

use super::packed::{P3, P4};
use super::settings::TwoBoneTarget;
use crate::error::Result;
use crate::ik::access::TransformAccess;
use crate::simd::F4;
use crate::transform::{validated_transform, Transform};

/// A chain read through [`TransformAccess`].
#[inline(always)]
pub(super) fn read_chain<T: TransformAccess>(chain: &[T; 3]) -> [Transform; 3] {
    [
        chain[0].transform(),
        chain[1].transform(),
        chain[2].transform(),
    ]
}

/// The chain with its rotations normalized, or why it is unusable.
pub(super) fn validated_chain(chain: &[Transform; 3]) -> Result<[Transform; 3]> {
    Ok([
        validated_transform(&chain[0], || "root transform".into())?,
        validated_transform(&chain[1], || "joint transform".into())?,
        validated_transform(&chain[2], || "end transform".into())?,
    ])
}

/// Whether a chain and target can be used as they are: finite, with unit rotations
/// (`|x² + y² + z² + w² - 1| <= 1e-6`, which no non-finite rotation passes), the chain's three
/// rotations and the effector's (identity without one) tested side by side in lanes.
/// Finiteness is conservative: the sum of every component of every transform is finite unless
/// one is not (or the sum overflows, which only sends huge inputs down the careful path). Each
/// sum runs in one fixed order, the batch lanes' (`wide`), so the two decide alike: per
/// transform the rotation's `x + y + z + w`, then `t + s` per axis; then over the transforms.
#[inline(always)]
pub(super) fn is_clean(chain: &[Transform; 3], target: &TwoBoneTarget) -> bool {
    let rotation = |k: usize| P4::new(chain[k].rotation).0;
    let effector = P4::new(target.rotation.unwrap_or(Quat::IDENTITY)).0;
    let [x, y, z, w] = F4::transpose([rotation(0), rotation(1), rotation(2), effector]);
    let d = x * x + y * y + z * z + w * w - F4::splat(1.0);
    let unit = d.le(F4::splat(1e-6)) & d.ge(F4::splat(-1e-6));
    let t_plus_s = |k: usize| (P3::new(chain[k].translation) + P3::new(chain[k].scale)).0;
    let [tx, ty, tz, _] = F4::transpose([t_plus_s(0), t_plus_s(1), t_plus_s(2), t_plus_s(2)]);
    let [s0, s1, s2, _] = (x + y + z + w + tx + ty + tz).to_array();
    // `position + 0` is finite exactly where `position` is.
    let position = P3::new(target.position);
    let goal = target.pole.map_or(position, |p| position + P3::new(p));
    unit.all() && goal.0.is_finite().bitmask() & 0b111 == 0b111 && (s0 + s1 + s2).is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use proptest::prelude::*;

    /// The rule on glam's scalar types, one transform at a time, in the documented order.
    fn reference(chain: &[Transform; 3], target: &TwoBoneTarget) -> bool {
        let unit = |q: Quat| (q.length_squared() - 1.0).abs() <= 1e-6;
        let sum = |t: &Transform| {
            let (q, v) = (t.rotation, t.translation + t.scale);
            q.x + q.y + q.z + q.w + v.x + v.y + v.z
        };
        let pole = target.pole.unwrap_or(Vec3::ZERO);
        (sum(&chain[0]) + sum(&chain[1]) + sum(&chain[2])).is_finite()
            && chain.iter().all(|t| unit(t.rotation))
            && (target.position + pole).is_finite()
            && target.rotation.is_none_or(unit)
    }

    /// Ordinary values, huge ones whose sums overflow in some orders and not in others, and
    /// ones past f32's limits.
    fn component() -> impl Strategy<Value = f32> {
        let huge = [1.5e38, -1.5e38, 2.5e38, -2.5e38, f32::MAX, -f32::MAX];
        let special = [0.0, -0.0, 1e-40, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        prop_oneof![
            4 => -3.0f32..3.0,
            2 => proptest::sample::select(huge.to_vec()),
            1 => proptest::sample::select(special.to_vec()),
        ]
    }

    fn vec3() -> impl Strategy<Value = Vec3> {
        [component(), component(), component()].prop_map(Vec3::from_array)
    }

    /// Unit rotations, ones whose squared length is on either side of the unit test's
    /// threshold, and arbitrary ones.
    fn rotation() -> impl Strategy<Value = Quat> {
        let unit = (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -3.0f32..3.0).prop_map(
            |(x, y, z, angle)| {
                let axis = Vec3::new(x, y, z).try_normalize().unwrap_or(Vec3::X);
                Quat::from_axis_angle(axis, angle)
            },
        );
        prop_oneof![
            4 => unit.clone(),
            2 => (unit, -2e-6f64..2e-6).prop_map(|(q, d)| {
                // Squared length 1 + d, give or take the rounding of the sum.
                let v = q.xyz();
                let w = (1.0 + d - f64::from(v.length_squared())).max(0.0).sqrt() as f32;
                Quat::from_xyzw(v.x, v.y, v.z, w)
            }),
            1 => [component(), component(), component(), component()].prop_map(Quat::from_array),
        ]
    }

    fn transform() -> impl Strategy<Value = Transform> {
        (vec3(), rotation(), vec3()).prop_map(|(translation, rotation, scale)| Transform {
            translation,
            rotation,
            scale,
        })
    }

    proptest! {
        // Sums that overflow in one order and not in another are rare draws: many cases.
        #![proptest_config(ProptestConfig::with_cases(4096))]

        // The lanes decide like the rule written one transform at a time, overflowing sums,
        // rotations at the threshold and non-finite values included.
        #[test]
        #[cfg_attr(miri, ignore)]
        fn clean_decides_like_the_scalar_rule(
            chain in [transform(), transform(), transform()],
            position in vec3(),
            rotation in proptest::option::of(rotation()),
            pole in proptest::option::of(vec3()),
        ) {
            let target = TwoBoneTarget { position, rotation, pole };
            prop_assert_eq!(is_clean(&chain, &target), reference(&chain, &target));
        }
    }
}
