//! The branch-free two-bone placement shared by single solves (`f32`) and four-chain SIMD
//! batches (`F4` lanes). It covers the common case only; a lane it cannot place to full
//! precision (degenerate bones or targets, a pole on the aim line, a near half-turn, overflow)
//! clears its `ok` flag and goes through the general path instead.
//!
//! The kernel and the general path share the bone lengths and reach (`stretch`, one form) but
//! build the bend direction, the joint and the arcs in two forms, tied to float precision by
//! the property test in `single`. The kernel's forms are single-pass and branch-free, to keep
//! a solve's dependency chain short: the pole projected with the squared goal distance before
//! the aim direction exists, the carried bend as one cross product, the joint as lengths
//! along and across the aim line, arcs scaled by known lengths instead of normalized. Their
//! rounding grows without bound near the cases the `ok` mask rejects (as 1/sin of the input's
//! bend, near half turns, with a pole near the aim line). The general path answers every
//! finite chain, so it needs a branch and unit directions per case: a target at the root, a
//! zero-length bone, a straight input, a pole on the aim line, a partial pole weight (an angle
//! about the aim line) and near half turns (the robust arc). Even the joint's law of cosines
//! keeps its own form there: computed the kernel's way it changed a quarter of the general
//! path's results in the last bits, moved ill-conditioned chains (a target at the root) by up
//! to a chain length, and gave finite answers where squared lengths overflow (the kernel's
//! min/max clamp swallows their NaN, which its `ok` mask catches and the general path's
//! clamp reports as an overflow).

use super::lanes::{Form, Vector};
use super::settings::TwoBoneIkSettings;
use super::stretch::{softened, stretched};

/// One chain, or four side by side: positions and rotations of root, joint and end, the goal
/// and the optional pole, all in model space with unit rotations.
pub(super) struct KernelChain<L: Form> {
    pub a: L::V,
    pub b: L::V,
    pub c: L::V,
    pub root: L::Q,
    pub mid: L::Q,
    pub goal: L::V,
    pub pole: Option<L::V>,
}

/// New joint and end positions, root and joint rotations, and the input chain length.
pub(super) struct Placed<L: Form> {
    pub b: L::V,
    pub c: L::V,
    pub root: L::Q,
    pub mid: L::Q,
    pub length: L,
    /// Lanes placed to full precision; the others must use the general path.
    pub ok: L::Mask,
}

/// Whether the kernel handles these settings with or without a pole: a partly weighted pole
/// needs the general path's plane interpolation.
pub(super) fn applies(settings: &TwoBoneIkSettings, has_pole: bool) -> bool {
    !has_pole || settings.pole_weight >= 1.0
}

/// Places the joint and end like the general path: law of cosines in the plane toward the
/// pole (or the input's bend carried onto the aim line), Unreal's stretch, soften, and
/// minimal-arc rotations. Written for a short dependency chain: no division waits on another where a product of
/// known lengths will do, since a single solve is bound by sqrt and division latency.
#[inline(always)]
pub(super) fn place<L: Form>(s: &TwoBoneIkSettings, k: &KernelChain<L>) -> Placed<L> {
    let (zero, one) = (L::splat(0.0), L::splat(1.0));
    let upper = k.b - k.a;
    let lower = k.c - k.b;
    let upper_sq = upper.dot(upper);
    let l1 = upper_sq.sqrt();
    let l2 = lower.dot(lower).sqrt();
    let length = l1 + l2;
    let tiny = length * L::splat(1e-6) + L::splat(f32::MIN_POSITIVE);
    let to_goal = k.goal - k.a;
    let goal_sq = to_goal.dot(to_goal);
    let goal_dist = goal_sq.sqrt();
    let dir = to_goal.scale(one / goal_dist);

    let (bend, bend_len, bend_ok) = match k.pole {
        Some(p) => toward_pole::<L>(p - k.a, to_goal, goal_sq, tiny),
        None => carried::<L>(upper, upper_sq, k.c - k.a, to_goal, goal_sq, dir, tiny),
    };
    let finite = L::splat(f32::MAX).ge(length + goal_dist + bend_len);
    let mut ok = finite & goal_dist.gt(tiny) & l1.gt(tiny) & l2.gt(tiny) & bend_ok;

    let (u1, u2) = stretched(s, l1, l2, goal_dist, length);
    let reach = u1 + u2;
    let dist = softened(s, goal_dist, reach);

    // Joint by the law of cosines: `along = u1 cos`, `across = u1 sin` in the bend plane; a
    // straight chain is the same formulas with `along = u1`, `across = 0`.
    let straight = dist.ge(reach);
    let d = dist.max(tiny);
    let along = ((u1 * u1 + d * d - u2 * u2) / (L::splat(2.0) * d))
        .max(zero - u1)
        .min(u1);
    // (u1 - along)(u1 + along) keeps precision near full extension, where u1² - along² cancels.
    let across = ((u1 - along) * (u1 + along)).max(zero).sqrt();
    let along = L::select(straight, u1, along);
    let across = L::select(straight, zero, across);
    let upper_vec = dir.scale(along) + bend.scale(across);
    let b = k.a + upper_vec;
    // End along the joint-to-aim line, so both bone lengths hold even when the triangle
    // cannot close.
    let to_aim = k.a + dir.scale(dist) - b;
    let aim_len = to_aim.dot(to_aim).sqrt();
    let bent = aim_len.gt(tiny) & !straight;
    let lower_vec = <L::V as Vector<L>>::select(bent, to_aim, dir);
    let lower_len = L::select(bent, aim_len, one);
    let c = b + lower_vec.scale(u2 / lower_len);

    // Minimal arcs from the old bone directions to the new ones, in half-angle form.
    let (root, d1) = turn::<L>(upper, l1, upper_vec, u1, k.root);
    let (mid, d2) = turn::<L>(lower, l2, lower_vec, lower_len, k.mid);
    let half_turn = L::splat(-0.99);
    ok = ok & d1.gt(half_turn * l1 * u1) & d2.gt(half_turn * l2 * lower_len);
    Placed {
        b,
        c,
        root,
        mid,
        length,
        ok,
    }
}

/// The pole `v` (from the root) made perpendicular to the aim line, unit, with its length
/// before normalizing and the lanes where it is usable. Projected with the squared goal
/// distance so it need not wait for `dir`; one pass is exact enough unless the pole is within
/// 30 degrees of the aim line.
#[inline(always)]
fn toward_pole<L: Form>(v: L::V, to_goal: L::V, goal_sq: L, tiny: L) -> (L::V, L, L::Mask) {
    let w = v - to_goal.scale(v.dot(to_goal) / goal_sq);
    let w_sq = w.dot(w);
    let w_len = w_sq.sqrt();
    let ok = w_len.gt(tiny) & w_sq.ge(L::splat(0.25) * v.dot(v));
    (w.scale(L::splat(1.0) / w_len), w_len, ok)
}

/// The input's bend direction carried by the minimal arc from the input's root-end direction
/// `e` onto the aim line, like the general path, with its length before normalizing and the
/// lanes where it is usable. With the input's bend-plane normal `m = e × upper` and the
/// root-goal vector `g` it is `(m − e t) × dir` for `t = (m·g) / (|e||g| + e·g)`, here scaled
/// by the positive `|e||g| + e·g` so nothing waits on a division, and summed as
/// `m |e||g| + (m (e·g) − e (m·g))` so only the last addition waits on the square root. The
/// cross product with `dir` is perpendicular to the aim line to rounding.
#[inline(always)]
fn carried<L: Form>(
    upper: L::V,
    upper_sq: L,
    e: L::V,
    to_goal: L::V,
    goal_sq: L,
    dir: L::V,
    tiny: L,
) -> (L::V, L, L::Mask) {
    let m = e.cross(upper);
    let e_sq = e.dot(e);
    let eg = (e_sq * goal_sq).sqrt();
    let e_dot_g = e.dot(to_goal);
    let den = eg + e_dot_g;
    let early = m.scale(e_dot_g) - e.scale(m.dot(to_goal));
    let w = (m.scale(eg) + early).cross(dir);
    let w_sq = w.dot(w);
    let w_len = w_sq.sqrt();
    // Only where this matches the general path to full precision (rounding in `m` grows as
    // eps / sin of the input's bend, and the arc's near a half turn): the upper bone at least
    // 0.01 rad off the input's root-end line (and clear of the general path's straight-input
    // threshold), the input's end clear of the root, the target less than about 154 degrees
    // from the input's end direction, and `w` well inside f32's normal range.
    let bent_enough = (L::splat(1e-4) * upper_sq).max(L::splat(4.0) * tiny * tiny);
    let ok = m.dot(m).gt(e_sq * bent_enough)
        & e_sq.gt(L::splat(4.0) * tiny * tiny)
        & den.gt(L::splat(0.1) * eg)
        & w_sq.gt(L::splat(1e-30));
    (w.scale(L::splat(1.0) / w_len), w_len, ok)
}

/// `rotation` turned by the minimal arc from `from` (of length `from_len`) to `to` (of length
/// `to_len`), and their dot product (the half-angle form loses precision near a half turn).
/// No division: the arc is scaled by `from_len * to_len`, and the product is normalized.
#[inline(always)]
fn turn<L: Form>(from: L::V, from_len: L, to: L::V, to_len: L, rotation: L::Q) -> (L::Q, L) {
    let d = from.dot(to);
    (L::turn(from.cross(to), from_len * to_len + d, rotation), d)
}
