//! Reading a chain through [`TransformAccess`] and deciding whether it and its target can be
//! used as they are (the common case, decided inline) or must be checked and normalized.

use glam::{Quat, Vec3, Vec4};

use super::settings::TwoBoneTarget;
use crate::error::Result;
use crate::ik::access::TransformAccess;
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

/// Whether a chain and target can be used as they are: finite, with unit rotations.
#[inline(always)]
pub(super) fn is_clean(chain: &[Transform; 3], target: &TwoBoneTarget) -> bool {
    let unit = |q: Quat| (q.length_squared() - 1.0).abs() <= 1e-6;
    let rotation_ok = target.rotation.is_none_or(|q| q.is_finite() && unit(q));
    let pole = target.pole.unwrap_or(Vec3::ZERO);
    all_finite(chain)
        && chain.iter().all(|t| unit(t.rotation))
        && (target.position + pole).is_finite()
        && rotation_ok
}

/// Whether every component of every transform is finite, or conservatively false: the sum of
/// all components is finite unless one is not (or the sum overflows, which only sends huge
/// inputs down the careful path).
#[inline(always)]
fn all_finite(ts: &[Transform; 3]) -> bool {
    let sum = |t: &Transform| {
        let v = t.translation + t.scale;
        Vec4::from(t.rotation).element_sum() + v.x + v.y + v.z
    };
    (sum(&ts[0]) + sum(&ts[1]) + sum(&ts[2])).is_finite()
}
