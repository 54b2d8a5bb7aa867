//! Effective bone lengths and reach distance, written once over lanes for the kernel and the
//! general path: Unreal's stretch, then the soften ease.

use super::lanes::Lane;
use super::settings::TwoBoneIkSettings;

/// Both bone lengths scaled alike by Unreal's stretch: by 1 up to a target distance of
/// `start_stretch_ratio` chain lengths, then linearly in the distance up to
/// `max_stretch_scale` (reached at `max_stretch_scale` chain lengths).
#[inline(always)]
pub(super) fn stretched<L: Lane>(
    s: &TwoBoneIkSettings,
    l1: L,
    l2: L,
    goal_dist: L,
    length: L,
) -> (L, L) {
    let range = s.max_stretch_scale - s.start_stretch_ratio;
    if !(s.allow_stretching && range > 1e-6) {
        return (l1, l2);
    }
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let ratio = goal_dist / length;
    let t = ((ratio - L::splat(s.start_stretch_ratio)) / L::splat(range))
        .max(zero)
        .min(one);
    let grow = one + L::splat(s.max_stretch_scale - 1.0) * t;
    (l1 * grow, l2 * grow)
}

/// The target distance with a soft reach: beyond `da = soften * reach` it eases in as
/// `da + ds (1 - e^{-(d - da)/ds})`, `ds = reach - da`: slope 1 where it starts and always
/// below both the distance and `reach`. A `soften` of 1 leaves the distance as it is.
#[inline(always)]
pub(super) fn softened<L: Lane>(s: &TwoBoneIkSettings, goal_dist: L, reach: L) -> L {
    if s.soften >= 1.0 {
        return goal_dist;
    }
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let da = L::splat(s.soften) * reach;
    let ds = reach - da;
    let eased = da + ds * (one - ((da - goal_dist) / ds).exp());
    L::select(goal_dist.gt(da) & ds.gt(zero), eased, goal_dist)
}
