//! What a placement becomes: the joint's twist, the end rotation, the weight blend with the
//! input, and the reach error, with one check that the new values are representable.

use glam::{Quat, Vec3, Vec3A, Vec4};

use super::lanes::Lane;
use super::placement::Placement;
use super::settings::{EndRotation, TwoBoneIkSettings, TwoBoneTarget};
use crate::error::{Error, ErrorKind, Result};
use crate::ik::access::TransformAccess;
use crate::ik::{exact_length, IkResult};
use crate::rotation::{nlerp_shortest, swing_twist};
use crate::transform::Transform;

/// Relative reach tolerance: the end counts as reached within this fraction of the chain length.
pub const REACH_TOLERANCE: f32 = 1e-4;

/// What a solve changes: the root's rotation, the joint's and end's translation and rotation.
pub(crate) struct Solved {
    pub root: Quat,
    pub mid: (Vec3, Quat),
    pub end: (Vec3, Quat),
}

impl Solved {
    /// Writes the new values over a chain.
    #[inline(always)]
    pub(crate) fn write<T: TransformAccess>(&self, chain: &mut [T; 3]) {
        chain[0].set_rotation(self.root);
        chain[1].set_translation_rotation(self.mid.0, self.mid.1);
        chain[2].set_translation_rotation(self.end.0, self.end.1);
    }
}

/// Applies twist, end rotation and weight to a placement and measures the reach error.
/// `None` means nothing changes (weight 0); fails when the result is not representable.
#[inline(always)]
pub(super) fn finish(
    s: &TwoBoneIkSettings,
    input: &[Transform; 3],
    target: &TwoBoneTarget,
    placed: Placement,
) -> Result<(Option<Solved>, IkResult)> {
    let tolerance = tolerance(placed.length);
    let overflow = || {
        Err(Error::new(
            ErrorKind::NumericOverflow,
            "two-bone IK result is not representable in f32 (inputs too large)",
        ))
    };
    // At weight 0 there is nothing to apply: the chain stays bit-identical.
    if s.weight == 0.0 {
        let error = exact_length((input[2].translation - target.position).into());
        return if error.is_finite() {
            Ok((None, result(error, tolerance)))
        } else {
            overflow()
        };
    }
    let [root, mid, end] = [0, 1, 2].map(|j| input[j].rotation);
    let root_rot = placed.root;
    let mut mid_rot = placed.mid;
    let lower = input[2].translation - input[1].translation;
    if s.keep_twist && lower.length() > placed.length * 1e-6 + f32::MIN_POSITIVE {
        let axis = (mid.conjugate() * lower).normalize();
        let old_local = root.conjugate() * mid;
        let new_local = root_rot.conjugate() * mid_rot;
        let (swing, _) = swing_twist(new_local, axis);
        let (_, twist) = swing_twist(old_local, axis);
        mid_rot = (root_rot * swing * twist).normalize();
    }
    let end_rot = match s.end_rotation {
        EndRotation::KeepModel => end,
        EndRotation::CopyEffector => target.rotation.unwrap_or(end),
        EndRotation::KeepLocal => (mid_rot * (mid.conjugate() * end)).normalize(),
    };
    let mut solved = Solved {
        root: root_rot,
        mid: (placed.b.into(), mid_rot),
        end: (placed.c.into(), end_rot),
    };
    if s.weight < 1.0 {
        let mut full = *input;
        solved.write(&mut full);
        let [r, m, e] = blend_chain(input, &full, s.weight);
        solved = Solved {
            root: r.rotation,
            mid: (m.translation, m.rotation),
            end: (e.translation, e.rotation),
        };
    }
    let error = exact_length((solved.end.0 - target.position).into());
    // Only the new values can be non-finite: the rest of the chain was checked on input.
    let zero = |q: Quat| Vec4::from(q) * 0.0;
    let probe = (Vec3A::from(solved.mid.0) + Vec3A::from(solved.end.0)) * 0.0;
    let probe =
        probe.extend(error * 0.0) + zero(solved.root) + zero(solved.mid.1) + zero(solved.end.1);
    if probe != Vec4::ZERO {
        return overflow();
    }
    Ok((Some(solved), result(error, tolerance)))
}

/// Whether kernel placements are finished before [`finish`] (four in lanes, or one packed):
/// full weight and minimal-arc joint rotations (blending and twist stay with `finish`).
#[inline(always)]
pub(super) fn finishes_early(s: &TwoBoneIkSettings) -> bool {
    s.weight == 1.0 && !s.keep_twist
}

/// Absolute reach tolerance for a chain of `length` (of one chain or four in lanes).
#[inline(always)]
pub(super) fn tolerance<L: Lane>(length: L) -> L {
    (length * L::splat(REACH_TOLERANCE)).max(L::splat(1e-6))
}

fn result(error: f32, tolerance: f32) -> IkResult {
    IkResult {
        reached: error <= tolerance,
        error,
        iterations: 1,
    }
}

/// Blends the solved chain with the input in local space by `w`, then rebuilds model space.
fn blend_chain(input: &[Transform; 3], solved: &[Transform; 3], w: f32) -> [Transform; 3] {
    let root = Transform {
        rotation: nlerp_shortest(input[0].rotation, solved[0].rotation, w),
        ..input[0]
    };
    let mid_local = input[0]
        .inverse_mul(&input[1])
        .mix(&solved[0].inverse_mul(&solved[1]), w);
    let end_local = input[1]
        .inverse_mul(&input[2])
        .mix(&solved[1].inverse_mul(&solved[2]), w);
    let mid = root.mul_transform(&mid_local);
    let end = mid.mul_transform(&end_local);
    [
        root,
        Transform {
            scale: input[1].scale,
            ..mid
        },
        Transform {
            scale: input[2].scale,
            ..end
        },
    ]
}
