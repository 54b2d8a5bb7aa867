//! Property tests for the math the solvers stand on: shortest arcs, swing-twist, nlerp,
//! `Transform` composition, and skeleton/pose model-space conversions.

use std::sync::Arc;

use proptest::prelude::*;
use sinew::rotation::{nlerp_shortest, shortest_arc, swing_twist};
use sinew::{Pose, Quat, Skeleton, Transform, Vec3};

mod common;

use common::props::{config, unit_dir, unit_quat, vec3};
use common::rotations::same_rotation;

/// A transform with uniform positive scale (the case where TRS composition is exact).
fn uniform_transform() -> impl Strategy<Value = Transform> {
    (vec3(10.0), unit_quat(), 0.25f32..4.0)
        .prop_map(|(t, r, s)| Transform::new(t, r, Vec3::splat(s)))
}

/// A transform with arbitrary positive per-axis scale.
fn any_scale_transform() -> impl Strategy<Value = Transform> {
    (
        vec3(10.0),
        unit_quat(),
        (0.25f32..4.0, 0.25f32..4.0, 0.25f32..4.0),
    )
        .prop_map(|(t, r, (x, y, z))| Transform::new(t, r, Vec3::new(x, y, z)))
}

fn close(a: Vec3, b: Vec3, eps: f32) -> bool {
    (a - b).length() <= eps
}

fn is_unit(q: Quat) -> bool {
    q.is_finite() && (q.length() - 1.0).abs() < 1e-5
}

/// Random valid parent array: each parent is -1 or an earlier joint.
fn parents_and_locals() -> impl Strategy<Value = (Vec<i32>, Vec<Transform>)> {
    (1usize..20).prop_flat_map(|n| {
        let parents: Vec<_> = (0..n).map(|i| -1i32..i as i32).collect();
        let locals = proptest::collection::vec(
            (vec3(2.0), unit_quat(), 0.5f32..2.0)
                .prop_map(|(t, r, s)| Transform::new(t, r, Vec3::splat(s))),
            n,
        );
        (parents, locals)
    })
}

fn transform_close(a: &Transform, b: &Transform, eps: f32) -> bool {
    let scale = 1.0 + a.translation.length().max(b.translation.length());
    close(a.translation, b.translation, eps * scale)
        && same_rotation(a.rotation, b.rotation, eps)
        && close(a.scale, b.scale, eps * (1.0 + a.scale.length()))
}

proptest! {
    #![proptest_config(config(256))]

    // ---------------------------------------------------------------- shortest_arc

    #[test]
    fn shortest_arc_maps_from_onto_to(f in unit_dir(), t in unit_dir(), lf in 0.01f32..100.0, lt in 0.01f32..100.0) {
        let q = shortest_arc(f * lf, t * lt);
        prop_assert!(is_unit(q), "not unit: {q:?}");
        let mapped = q * f;
        // Away from the antipode the arc is exact to float precision.
        let tol = if f.dot(t) > -0.999 { 1e-5 } else { 2e-3 };
        prop_assert!(close(mapped, t, tol), "q*from = {mapped:?}, to = {t:?}");
    }

    #[test]
    fn shortest_arc_axis_is_perpendicular_to_both(f in unit_dir(), t in unit_dir()) {
        prop_assume!(f.cross(t).length() > 1e-2);
        let q = shortest_arc(f, t);
        let axis = Vec3::new(q.x, q.y, q.z).normalize();
        prop_assert!(axis.dot(f).abs() < 1e-5, "axis {axis:?} . from = {}", axis.dot(f));
        prop_assert!(axis.dot(t).abs() < 1e-5, "axis {axis:?} . to = {}", axis.dot(t));
        // Minimal: the rotation angle equals the angle between the vectors.
        let expected = f.dot(t).clamp(-1.0, 1.0).acos();
        let got = sinew::rotation::angle(q);
        prop_assert!((got - expected).abs() < 1e-3, "angle {got} vs {expected}");
    }

    #[test]
    fn shortest_arc_near_opposite_is_finite_and_maps(f in unit_dir(), perp in unit_dir(), eps in 0.0f32..1e-2) {
        // `to` is `-from` turned by a tiny angle `eps` (possibly exactly opposite).
        let axis = f.cross(perp);
        prop_assume!(axis.length() > 0.1);
        let t = Quat::from_axis_angle(axis.normalize(), eps) * -f;
        let q = shortest_arc(f, t);
        prop_assert!(is_unit(q), "not unit: {q:?}");
        let mapped = q * f;
        prop_assert!(mapped.is_finite());
        prop_assert!(close(mapped, t.normalize(), 2e-3), "q*from = {mapped:?}, to = {t:?}");
    }

    /// IK turns bones with these arcs and then rebuilds positions from the rotations, so the
    /// mapping must stay precise all the way to the antipode (a half turn about a perpendicular
    /// followed by the small remaining arc achieves ~5e-7 in f32).
    #[test]
    fn shortest_arc_near_opposite_is_precise(f in unit_dir(), perp in unit_dir(), log_eps in -7.0f32..-1.0) {
        let axis = f.cross(perp);
        prop_assume!(axis.length() > 0.1);
        let eps = 10f32.powf(log_eps);
        let t = (Quat::from_axis_angle(axis.normalize(), eps) * -f).normalize();
        let q = shortest_arc(f, t);
        let miss = (q * f - t).length();
        prop_assert!(miss < 1e-5, "q*from misses to by {miss:e} at {eps:e} from opposite");
    }

    #[test]
    fn shortest_arc_tiny_vectors_never_nan(f in unit_dir(), t in unit_dir(), ef in -40i32..1, et in -40i32..1) {
        let (sf, st) = (10f32.powi(ef), 10f32.powi(et));
        let q = shortest_arc(f * sf, t * st);
        prop_assert!(is_unit(q), "not unit: {q:?} for scales {sf:e}, {st:e}");
        // Vectors comfortably above the documented "undefined direction" threshold still map.
        if sf >= 1e-10 && st >= 1e-10 && f.dot(t) > -0.999 {
            prop_assert!(close(q * f, t, 1e-4), "q*from = {:?}, to = {t:?}", q * f);
        }
    }

    // ---------------------------------------------------------------- swing_twist

    #[test]
    fn swing_twist_recomposes_about_the_axis(q in unit_quat(), axis in unit_dir()) {
        let (swing, twist) = swing_twist(q, axis);
        prop_assert!(swing.is_finite() && twist.is_finite());
        prop_assert!(is_unit(twist), "twist not unit: {twist:?}");
        prop_assert!(same_rotation(swing * twist, q, 1e-5), "swing*twist = {:?}, q = {q:?}", swing * twist);
        // The twist turns about `axis` only.
        let tv = Vec3::new(twist.x, twist.y, twist.z);
        prop_assert!(tv.cross(axis).length() < 1e-5, "twist axis {tv:?} vs {axis:?}");
        prop_assert!(close(twist * axis, axis, 1e-5));
        // The swing does all of the axis's motion and has no component about the axis.
        prop_assert!(close(swing * axis, q * axis, 1e-5));
        let sv = Vec3::new(swing.x, swing.y, swing.z);
        prop_assert!(sv.dot(axis).abs() < 1e-5, "swing has a twist part: {}", sv.dot(axis));
    }

    #[test]
    fn swing_twist_of_pure_twist_and_pure_swing(axis in unit_dir(), other in unit_dir(), angle in -3.1f32..3.1) {
        let pure_twist = Quat::from_axis_angle(axis, angle);
        let (s, t) = swing_twist(pure_twist, axis);
        prop_assert!(same_rotation(s, Quat::IDENTITY, 1e-5), "swing of a twist: {s:?}");
        prop_assert!(same_rotation(t, pure_twist, 1e-5));
        let perp = other.cross(axis);
        prop_assume!(perp.length() > 0.1);
        let pure_swing = Quat::from_axis_angle(perp.normalize(), angle);
        let (s, t) = swing_twist(pure_swing, axis);
        prop_assert!(same_rotation(t, Quat::IDENTITY, 1e-5), "twist of a swing: {t:?}");
        prop_assert!(same_rotation(s, pure_swing, 1e-5));
    }

    // ---------------------------------------------------------------- nlerp_shortest

    #[test]
    fn nlerp_endpoints_and_shortest_path(a in unit_quat(), b in unit_quat(), t in 0.0f32..=1.0) {
        prop_assert!(same_rotation(nlerp_shortest(a, b, 0.0), a, 1e-6));
        prop_assert!(same_rotation(nlerp_shortest(a, b, 1.0), b, 1e-6));
        let m = nlerp_shortest(a, b, t);
        prop_assert!(is_unit(m), "not unit: {m:?}");
        // On the shorter arc: never farther from either end than the ends are from each other.
        let ab = sinew::rotation::angle(a.conjugate() * b);
        let am = sinew::rotation::angle(a.conjugate() * m);
        let mb = sinew::rotation::angle(m.conjugate() * b);
        prop_assert!(ab <= std::f32::consts::PI + 1e-4);
        prop_assert!(am <= ab + 2e-3 && mb <= ab + 2e-3, "ab {ab} am {am} mb {mb}");
        prop_assert!((am + mb - ab).abs() < 2e-3, "not on the arc: ab {ab} am {am} mb {mb}");
        // The sign of the inputs does not matter.
        prop_assert!(same_rotation(nlerp_shortest(a, -b, t), m, 1e-5));
    }

    #[test]
    fn nlerp_midpoint_is_halfway(a in unit_quat(), b in unit_quat()) {
        let m = nlerp_shortest(a, b, 0.5);
        let am = sinew::rotation::angle(a.conjugate() * m);
        let mb = sinew::rotation::angle(m.conjugate() * b);
        prop_assert!((am - mb).abs() < 2e-3, "am {am} mb {mb}");
    }

    // ---------------------------------------------------------------- Transform

    #[test]
    fn inverse_mul_undoes_mul_transform(a in uniform_transform(), b in any_scale_transform()) {
        let ab = a.mul_transform(&b);
        let back = a.inverse_mul(&ab);
        prop_assert!(transform_close(&back, &b, 1e-5), "{back:?} vs {b:?}");
        // And the other way round: a * (a^-1 * c) = c.
        let again = a.mul_transform(&a.inverse_mul(&b));
        prop_assert!(transform_close(&again, &b, 1e-5), "{again:?} vs {b:?}");
    }

    #[test]
    fn inverse_composes_to_identity(a in uniform_transform()) {
        // The translations cancel: float error scales with the translation that cancels
        // (|t| for a^-1 * a, |t| / s for a * a^-1 before scaling back by s).
        let magnitude = 1.0 + a.translation.length() * a.scale.x.max(1.0 / a.scale.x);
        for id in [a.inverse().mul_transform(&a), a.mul_transform(&a.inverse())] {
            prop_assert!(id.translation.length() <= 1e-6 * magnitude, "{id:?}");
            prop_assert!(same_rotation(id.rotation, Quat::IDENTITY, 1e-6), "{id:?}");
            prop_assert!(close(id.scale, Vec3::ONE, 1e-6), "{id:?}");
        }
    }

    #[test]
    fn transform_point_agrees_with_mul_transform(a in uniform_transform(), b in any_scale_transform(), p in vec3(10.0)) {
        let composed = a.mul_transform(&b).transform_point(p);
        let nested = a.transform_point(b.transform_point(p));
        let scale = 1.0 + nested.length();
        prop_assert!(close(composed, nested, 1e-5 * scale), "{composed:?} vs {nested:?}");
        // Vectors ignore translation.
        let v = a.mul_transform(&b).transform_vector(p);
        let nv = a.transform_vector(b.transform_vector(p));
        prop_assert!(close(v, nv, 1e-5 * scale), "{v:?} vs {nv:?}");
        prop_assert!(close(a.transform_point(p) - a.translation, a.transform_vector(p), 1e-5 * scale));
    }

    #[test]
    fn mul_transform_is_associative_for_uniform_scale(a in uniform_transform(), b in uniform_transform(), c in any_scale_transform()) {
        let left = a.mul_transform(&b).mul_transform(&c);
        let right = a.mul_transform(&b.mul_transform(&c));
        prop_assert!(transform_close(&left, &right, 1e-5), "{left:?} vs {right:?}");
    }

    #[test]
    fn mix_endpoints(a in any_scale_transform(), b in any_scale_transform()) {
        prop_assert!(transform_close(&a.mix(&b, 0.0), &a, 1e-6));
        prop_assert!(transform_close(&a.mix(&b, 1.0), &b, 1e-5));
    }
}

proptest! {
    #![proptest_config(config(96))]

    // ---------------------------------------------------------------- Skeleton and Pose

    #[test]
    fn local_to_model_agrees_with_model_of((parents, locals) in parents_and_locals()) {
        let skeleton = Skeleton::new(&parents, &locals, None).unwrap();
        let mut model = vec![Transform::IDENTITY; parents.len()];
        skeleton.local_to_model(&locals, &mut model);
        for (i, m) in model.iter().enumerate() {
            // The same rule, root first, in the same order: the same bits.
            prop_assert_eq!(skeleton.model_of(&locals, i), *m, "joint {}", i);
            let expected = match parents[i] {
                -1 => locals[i],
                p => model[p as usize].mul_transform(&locals[i]),
            };
            prop_assert_eq!(*m, expected);
        }
    }

    #[test]
    fn pose_set_model_round_trips((parents, locals) in parents_and_locals(), posed in proptest::collection::vec(unit_quat(), 20)) {
        let n = parents.len();
        let skeleton = Arc::new(Skeleton::new(&parents, &locals, None).unwrap());
        let mut pose = Pose::new(skeleton.clone());
        // Move away from rest so the round trip is not trivially the rest pose.
        let local: Vec<_> = locals
            .iter()
            .zip(&posed)
            .map(|(l, r)| Transform { rotation: (*r * l.rotation).normalize(), ..*l })
            .collect();
        pose.set_local(&local).unwrap();
        let model = pose.model().unwrap().to_vec();
        prop_assert_eq!(model.len(), n);

        let mut other = Pose::new(skeleton);
        other.set_model(&model).unwrap();
        for (i, (got, want)) in other.local().iter().zip(&local).enumerate() {
            prop_assert!(transform_close(&got, want, 1e-4), "joint {i}: {got:?} vs {want:?}");
        }
        let again = other.model().unwrap().to_vec();
        for i in 0..n {
            prop_assert!(transform_close(&again[i], &model[i], 1e-4), "joint {i}");
            let one = other.model_of(i).unwrap();
            prop_assert!(transform_close(&one, &model[i], 1e-4), "joint {i}");
        }
    }
}

#[test]
fn shortest_arc_exactly_opposite_axes() {
    for v in [
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        -Vec3::X,
        Vec3::new(1.0, 1.0, 1.0),
    ] {
        let q = shortest_arc(v, -v);
        assert!(is_unit(q), "{v:?}: {q:?}");
        assert!(
            close(q * v.normalize(), -v.normalize(), 1e-5),
            "{v:?}: {:?}",
            q * v
        );
    }
    assert_eq!(shortest_arc(Vec3::ZERO, Vec3::ZERO), Quat::IDENTITY);
}

proptest! {
    #![proptest_config(config(64))]

    /// `shortest_arc` documents that its inputs need not be normalized and that only a
    /// zero-length input gives the identity; large finite vectors have a direction too.
    #[test]
    fn shortest_arc_large_finite_vectors(f in unit_dir(), t in unit_dir(), ef in 0i32..31, et in 0i32..31) {
        prop_assume!(f.dot(t) > -0.999);
        let (sf, st) = (10f32.powi(ef), 10f32.powi(et));
        let q = shortest_arc(f * sf, t * st);
        prop_assert!(is_unit(q), "not unit: {q:?}");
        prop_assert!(close(q * f, t, 1e-4), "scales {sf:e}, {st:e}: q*from = {:?}, to = {t:?}", q * f);
    }
}
