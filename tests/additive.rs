//! Additive layers: a delta made from two poses and applied to a base, at any weight and under
//! a mask, checked against the README's formulas written out independently; and the C ABI's
//! aliasing rules for these calls. Validity first: bad weights, poses of other skeletons and
//! overflowing results are refused with the output untouched.
//!
//! The fixtures are in `tests/common/poses.rs`, shared with `tests/blend.rs`.

use std::sync::Arc;

use proptest::prelude::*;
use sinew::ffi::{sinew_pose_apply_additive, sinew_pose_make_additive, SinewStatus};
use sinew::{ErrorKind, JointMask, Pose, Quat, Skeleton, Transform, Vec3};

mod common;

use common::ffi::ok;
use common::poses::*;
use common::props::{config, unit_quat, vec3};
use common::rotations::rot_between;

// ------------------------------------------------------------------------------ validity

#[test]
fn additive_errors_leave_the_output_untouched() {
    let s = Arc::new(Skeleton::new(&[-1, 0], &[Transform::IDENTITY; 2], None).unwrap());
    let other = body();
    let t = |x: f32, sc: f32| {
        Transform::new(
            Vec3::new(x, 1.0, -2.0),
            Quat::from_rotation_z(0.4),
            Vec3::splat(sc),
        )
    };
    let normal = pose_of(&s, &[t(1.0, 1.0), t(2.0, 2.0)]);
    let huge = pose_of(&s, &[t(3e38, 1.0), t(1.0, 1.0)]);
    let huge_neg = pose_of(&s, &[t(-3e38, 1.0), t(1.0, 1.0)]);
    let huge_scale = pose_of(&s, &[t(1.0, 1.0), t(1.0, 1e30)]);
    let tiny_scale = pose_of(&s, &[t(1.0, 1.0), t(1.0, 1e-10)]);
    let short = Pose::new(other.clone());
    let short_mask = JointMask::uniform(&other, 1.0).unwrap();

    let mut out = pose_of(&s, &[t(5.0, 0.5), t(6.0, 0.25)]);
    let before = bits(&out);
    let check = |r: sinew::Result<()>, kind: ErrorKind, out: &Pose, what: &str| {
        assert_eq!(r.unwrap_err().kind(), kind, "{what}");
        assert_eq!(bits(out), before, "{what} changed the output");
    };

    // make_additive: t - ref.t overflows; s / ref.s overflows.
    let r = out.make_additive(&huge, &huge_neg);
    check(r, ErrorKind::NumericOverflow, &out, "make_additive t");
    let r = out.make_additive(&huge_scale, &tiny_scale);
    check(r, ErrorKind::NumericOverflow, &out, "make_additive s");
    let r = out.make_additive(&short, &normal);
    check(r, ErrorKind::SizeMismatch, &out, "make_additive count");
    let r = out.make_additive(&normal, &short);
    check(r, ErrorKind::SizeMismatch, &out, "make_additive ref count");

    // add_to: huge base plus huge delta.
    let r = out.add_to(&huge, &huge, 1.0, None);
    check(r, ErrorKind::NumericOverflow, &out, "add_to overflow");
    let r = out.add_to(&normal, &huge, 2.0, None);
    check(
        r,
        ErrorKind::NumericOverflow,
        &out,
        "add_to weight overflow",
    );
    let r = out.add_to(&huge_scale, &huge_scale, 1.0, None);
    check(r, ErrorKind::NumericOverflow, &out, "add_to scale overflow");
    let r = out.add_to(&normal, &normal, f32::NAN, None);
    check(r, ErrorKind::NonFinite, &out, "add_to NaN weight");
    let r = out.add_to(&normal, &normal, f32::INFINITY, None);
    check(r, ErrorKind::NonFinite, &out, "add_to infinite weight");
    let r = out.add_to(&short, &normal, 1.0, None);
    check(r, ErrorKind::SizeMismatch, &out, "add_to base count");
    let r = out.add_to(&normal, &short, 1.0, None);
    check(r, ErrorKind::SizeMismatch, &out, "add_to delta count");
    let r = out.add_to(&normal, &normal, 1.0, Some(&short_mask));
    check(r, ErrorKind::SizeMismatch, &out, "add_to mask count");

    // add in place: a huge pose plus its own size.
    let mut big = huge.clone();
    let big_before = bits(&big);
    let e = big.add(&huge, 1.0, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NumericOverflow);
    assert_eq!(bits(&big), big_before);
    let e = big.add(&normal, f32::NAN, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NonFinite);
    assert_eq!(bits(&big), big_before);
}

// ------------------------------------------------------------------------------ round trips, weights and masks

proptest! {
    #![proptest_config(config(96))]

    /// Applying make_additive(P, R) to R at weight 1 gives P back up to rounding (non-unit,
    /// non-uniform positive scales included; the rotation as a rotation, as the README says),
    /// in place and out of place.
    #[test]
    fn additive_round_trip(lp in locals(), lr in locals()) {
        let s = body();
        let (p, r) = (pose_of(&s, &lp), pose_of(&s, &lr));
        let mut delta = Pose::new(s.clone());
        delta.make_additive(&p, &r).unwrap();
        let mut out = Pose::new(s.clone());
        out.add_to(&r, &delta, 1.0, None).unwrap();
        assert_close_pose(&out, &p, 2e-6, "add_to(R, delta(P, R), 1)");
        let mut in_place = r.clone();
        in_place.add(&delta, 1.0, None).unwrap();
        prop_assert_eq!(bits(&in_place), bits(&out));
        // A pose over itself is the identity delta, and adds nothing.
        delta.make_additive(&p, &p).unwrap();
        for t in delta.local() {
            prop_assert!(t.translation == Vec3::ZERO);
            prop_assert!(rot_between(t.rotation, Quat::IDENTITY) < 1e-6);
            prop_assert!(close_vec(t.scale, Vec3::ONE, 1e-6));
        }
    }

    /// Weight 0 leaves the base as it is; weight -1 undoes weight 1; a mask limits the delta
    /// per joint (0: untouched, w: the delta at weight w); add_to equals copy then add.
    #[test]
    fn additive_weights_and_masks(
        lb in locals(),
        ld in locals(),
        weights in mask_weights(),
        w in -2.0f32..2.0,
    ) {
        let s = body();
        let (base, delta) = (pose_of(&s, &lb), pose_of(&s, &ld));
        let mut out = base.clone();
        out.add(&delta, 0.0, None).unwrap();
        for (o, b) in out.local().iter().zip(base.local()) {
            prop_assert_eq!(o.translation, b.translation);
            prop_assert_eq!(o.scale, b.scale);
            prop_assert!(rot_between(o.rotation, b.rotation) < 1e-6);
        }

        let mut out = base.clone();
        out.add(&delta, 1.0, None).unwrap();
        out.add(&delta, -1.0, None).unwrap();
        assert_close_pose(&out, &base, 1e-5, "+1 then -1");
        let mut out = base.clone();
        out.add(&delta, w, None).unwrap();
        out.add(&delta, -w, None).unwrap();
        assert_close_pose(&out, &base, 1e-5, &format!("+{w} then -{w}"));

        let mask = mask_of(&s, &weights);
        let mut masked = base.clone();
        masked.add(&delta, w, Some(&mask)).unwrap();
        let mut single = Pose::new(s.clone());
        for (i, &wi) in weights.iter().enumerate() {
            single.add_to(&base, &delta, w * wi, None).unwrap();
            prop_assert_eq!(
                transform_bits(&masked.local().get(i)),
                transform_bits(&single.local().get(i)),
                "joint {}", i
            );
            if wi == 0.0 {
                let (m, b) = (&masked.local().get(i), &base.local().get(i));
                prop_assert_eq!(m.translation, b.translation);
                prop_assert_eq!(m.scale, b.scale);
                prop_assert!(rot_between(m.rotation, b.rotation) < 1e-6);
            }
        }

        let mut copied = Pose::new(s.clone());
        copied.copy_from(&base).unwrap();
        copied.add(&delta, w, Some(&mask)).unwrap();
        let mut to = Pose::new(s.clone());
        to.add_to(&base, &delta, w, Some(&mask)).unwrap();
        prop_assert_eq!(bits(&to), bits(&copied));
    }
}

// ------------------------------------------------------------------------------ the documented formulas

/// The additive formulas as the README and `sinew_pose_apply_additive` state them, in f64 from
/// the f32 inputs, written from the documentation (not from the code).
mod documented {
    use sinew::{Quat, Transform};

    pub type Q = [f64; 4];
    pub type V = [f64; 3];

    fn q(q: Quat) -> Q {
        [q.x, q.y, q.z, q.w].map(f64::from)
    }

    fn v(v: sinew::Vec3) -> V {
        [v.x, v.y, v.z].map(f64::from)
    }

    /// Hamilton product, (x, y, z, w) order.
    fn mul(a: Q, b: Q) -> Q {
        let [ax, ay, az, aw] = a;
        let [bx, by, bz, bw] = b;
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ]
    }

    fn conj([x, y, z, w]: Q) -> Q {
        [-x, -y, -z, w]
    }

    fn normalize(a: Q) -> Q {
        let n = a.iter().map(|c| c * c).sum::<f64>().sqrt();
        a.map(|c| c / n)
    }

    /// `1 / x`, or 0 where the f32 reciprocal is not finite.
    fn recip(x: f64) -> f64 {
        if (1.0 / x as f32).is_finite() {
            1.0 / x
        } else {
            0.0
        }
    }

    pub struct Expected {
        pub translation: V,
        pub rotation: Q,
        pub scale: V,
    }

    /// `sinew_pose_make_additive` for one joint.
    pub fn make(p: &Transform, r: &Transform) -> Expected {
        let (pt, rt, ps, rs) = (v(p.translation), v(r.translation), v(p.scale), v(r.scale));
        Expected {
            translation: [0, 1, 2].map(|k| pt[k] - rt[k]),
            rotation: normalize(mul(conj(q(r.rotation)), q(p.rotation))),
            scale: [0, 1, 2].map(|k| ps[k] * recip(rs[k])),
        }
    }

    /// `sinew_pose_apply_additive` for one joint at `w` (weight times mask).
    pub fn apply(base: &Transform, delta: &Transform, w: f32) -> Expected {
        let (w, a) = (f64::from(w), f64::from(w.abs()));
        let mut d = q(delta.rotation);
        if d[3] < 0.0 {
            d = d.map(|c| -c);
        }
        let r = [a * d[0], a * d[1], a * d[2], 1.0 + a * (d[3] - 1.0)];
        let r = if w >= 0.0 { r } else { conj(r) };
        let (bt, dt, bs, ds) = (
            v(base.translation),
            v(delta.translation),
            v(base.scale),
            v(delta.scale),
        );
        let l = ds.map(|x| (1.0 - a) + a * x);
        Expected {
            translation: [0, 1, 2].map(|k| bt[k] + w * dt[k]),
            rotation: normalize(mul(q(base.rotation), r)),
            scale: [0, 1, 2].map(|k| {
                if w >= 0.0 {
                    bs[k] * l[k]
                } else {
                    bs[k] * recip(l[k])
                }
            }),
        }
    }
}

/// Whether `got` is `want` to within a few f32 roundings of the terms it was computed from:
/// `scale` bounds their magnitude (the condition of the sum).
fn agrees(got: f32, want: f64, scale: f64) -> bool {
    (f64::from(got) - want).abs() <= 1e-6 * scale.max(want.abs()).max(1.0)
}

/// Asserts one joint's transform against the documented result. The tolerances follow the
/// sums' conditioning: `t + w dt` by the terms' sizes, and the scale lerp `l` by its terms over
/// `|l|` where negative weights divide by it.
fn assert_documented_additive(
    got: &Transform,
    base: &Transform,
    delta: &Transform,
    w: f32,
    what: &str,
) {
    let want = documented::apply(base, delta, w);
    let a = f64::from(w.abs());
    let (t, d) = (base.translation, delta.translation);
    for k in 0..3 {
        let terms = f64::from(t[k].abs()) + a * f64::from(d[k].abs());
        assert!(
            agrees(got.translation[k], want.translation[k], terms),
            "{what}: translation {} vs {:?}",
            got.translation,
            want.translation
        );
        let (s, x) = (f64::from(base.scale[k]), f64::from(delta.scale[k]));
        let l = (1.0 - a) + a * x;
        let l_terms = (1.0 - a).abs() + a * x.abs();
        let cond = if w >= 0.0 {
            s.abs() * (l_terms + l.abs())
        } else {
            s.abs() * (l_terms + l.abs()) / (l * l)
        };
        assert!(
            agrees(got.scale[k], want.scale[k], cond),
            "{what}: scale {} vs {:?}",
            got.scale,
            want.scale
        );
    }
    let g = got.rotation.to_array();
    for (&g, &w) in g.iter().zip(&want.rotation) {
        // No sign freedom: the documented hemisphere decides the quaternion.
        assert!(
            agrees(g, w, 1.0 + a),
            "{what}: rotation {} vs {:?}",
            got.rotation,
            want.rotation
        );
    }
}

/// A delta's scales: positive, and negative or zero now and then.
fn delta_scale() -> impl Strategy<Value = Vec3> {
    let c = || prop_oneof![4 => 0.25f32..4.0, 1 => -2.0f32..-0.25, 1 => Just(0.0f32)];
    (c(), c(), c()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn delta_transform() -> impl Strategy<Value = Transform> {
    (vec3(3.0), unit_quat(), delta_scale()).prop_map(|(t, r, s)| Transform::new(t, r, s))
}

proptest! {
    #![proptest_config(config(256))]

    /// `add_to` and `make_additive` give what the README's formulas give: weights of both
    /// signs and beyond 1, masks, deltas on both quaternion hemispheres, and delta scales that
    /// are negative or zero (so negative weights divide, and by zero now and then).
    #[test]
    fn additive_matches_the_documented_formulas(
        lb in locals(),
        ld in prop::collection::vec(delta_transform(), N),
        weights in mask_weights(),
        w in prop_oneof![-2.0f32..2.0, Just(-1.0f32), Just(1.0f32), Just(-0.5f32), Just(0.5f32)],
    ) {
        let s = body();
        let (base, delta) = (pose_of(&s, &lb), pose_of(&s, &ld));
        let mask = mask_of(&s, &weights);
        let mut out = Pose::new(s.clone());
        out.add_to(&base, &delta, w, Some(&mask)).unwrap();
        for (i, o) in out.local().iter().enumerate() {
            let wi = w * weights[i];
            assert_documented_additive(&o, &lb[i], &ld[i], wi, &format!("joint {i} at {wi}"));
            if wi == 0.0 {
                prop_assert_eq!(transform_bits(&o), transform_bits(&lb[i]));
            }
        }

        // make_additive, its reference's scale sometimes zero.
        let mut made = Pose::new(s.clone());
        made.make_additive(&base, &delta).unwrap();
        for (i, m) in made.local().iter().enumerate() {
            let want = documented::make(&lb[i], &ld[i]);
            for k in 0..3 {
                let terms = f64::from(lb[i].translation[k].abs() + ld[i].translation[k].abs());
                prop_assert!(agrees(m.translation[k], want.translation[k], terms), "joint {}", i);
                prop_assert!(agrees(m.scale[k], want.scale[k], want.scale[k].abs()), "joint {}", i);
            }
            let (q, wq) = (m.rotation, want.rotation);
            for (&g, &w) in q.to_array().iter().zip(&wq) {
                prop_assert!(agrees(g, w, 1.0), "joint {}: {} vs {:?}", i, q, wq);
            }
        }
    }
}

/// The cases the formulas single out, each pinned: the delta's rotation taken on the
/// identity's side, an lerp (not a slerp power) at a quarter weight, a negative weight dividing
/// the scale, a zero divisor giving 0, and the round trip's negated quaternion.
#[test]
fn additive_formulas_single_cases() {
    let s = Arc::new(Skeleton::new(&[-1], &[Transform::IDENTITY], None).unwrap());
    let one = |t: Transform| pose_of(&s, &[t]);
    let base = Transform::new(
        Vec3::new(1.0, 2.0, 3.0),
        Quat::from_rotation_x(0.3),
        Vec3::new(2.0, 3.0, 4.0),
    );
    // A half turn about Z stored with a negative w: the same rotation as its negation.
    let turn = -Quat::from_rotation_z(3.0);
    assert!(turn.w < 0.0);
    let delta = Transform::new(Vec3::new(0.5, -1.0, 2.0), turn, Vec3::new(2.0, -1.0, 0.5));
    for w in [0.25f32, 0.5, 1.0, 1.5, -0.25, -0.5, -1.0] {
        let mut out = one(base);
        out.add(&one(delta), w, None).unwrap();
        assert_documented_additive(
            &out.local().get(0),
            &base,
            &delta,
            w,
            &format!("weight {w}"),
        );
    }
    // At a quarter weight the lerp turns 2 atan(0.25 sin(1.5) / (1 - 0.25 (1 - cos(1.5))))
    // about Z, not the slerp power's quarter of 3 rad.
    let mut out = one(Transform::IDENTITY);
    out.add(&one(delta), 0.25, None).unwrap();
    let got = out.local().get(0).rotation;
    let (h, c) = (1.5f32.sin(), 1.5f32.cos());
    let lerp_angle = 2.0 * (0.25 * h).atan2(1.0 - 0.25 * (1.0 - c));
    assert!(
        (2.0 * got.z.atan2(got.w) - lerp_angle).abs() < 1e-5,
        "{got}"
    );
    assert!((lerp_angle - 0.75).abs() > 0.05);
    // Weight -0.5 on scale -1: l = 0.5 - 0.5 = 0, whose reciprocal counts as 0.
    let mut out = one(base);
    out.add(&one(delta), -0.5, None).unwrap();
    let sc = out.local().get(0).scale;
    assert_eq!(sc.y, 0.0);
    assert_eq!(sc.x, 2.0 * (1.0 / 1.5));
    assert_eq!(sc.z, 4.0 * (1.0 / 0.75));
    // The round trip: the delta of P over the identity, applied to it, is P's rotation as the
    // negated quaternion when P's w is negative.
    let p = Transform::new(Vec3::ONE, turn, Vec3::ONE);
    let mut d = Pose::new(s.clone());
    d.make_additive(&one(p), &one(Transform::IDENTITY)).unwrap();
    let mut back = one(Transform::IDENTITY);
    back.add(&d, 1.0, None).unwrap();
    let q = back.local().get(0).rotation;
    assert!(q.abs_diff_eq(-turn, 1e-6), "{q} vs {}", -turn);
    assert!(rot_between(q, turn) < 1e-6);
}

// ------------------------------------------------------------------------------ C ABI

/// `sinew_pose_make_additive` and `sinew_pose_apply_additive` give the core's bits;
/// `sinew_pose_make_additive` refuses an aliased output; `sinew_pose_apply_additive` works in
/// place on the base but refuses an output that is the delta.
#[test]
fn c_additive_matches_the_core_and_checks_aliasing() {
    let CPair {
        s,
        a,
        b,
        lb,
        mask,
        mut h,
        c_mask,
        c: [ca, cb, out],
        ..
    } = c_pair();

    let mut delta = Pose::new(s.clone());
    delta.make_additive(&a, &b).unwrap();
    let mut applied = Pose::new(s.clone());
    applied.add_to(&b, &delta, 0.7, Some(&mask)).unwrap();
    let cd = h.pose(&sample_locals(5.0));
    // SAFETY: live handles.
    unsafe {
        ok(sinew_pose_make_additive(ca, cb, cd));
        assert_eq!(c_bits(cd), bits(&delta));
        let before = c_bits(ca);
        assert_eq!(
            sinew_pose_make_additive(ca, cb, ca),
            SinewStatus::InvalidArgument
        );
        assert_eq!(
            sinew_pose_make_additive(ca, cb, cb),
            SinewStatus::InvalidArgument
        );
        assert_eq!(c_bits(ca), before);

        ok(sinew_pose_apply_additive(cb, cd, 0.7, c_mask, out));
        assert_eq!(c_bits(out), bits(&applied));
        let base = h.pose(&lb);
        ok(sinew_pose_apply_additive(base, cd, 0.7, c_mask, base));
        assert_eq!(c_bits(base), bits(&applied), "in place on the base");
        let delta_before = c_bits(cd);
        assert_eq!(
            sinew_pose_apply_additive(cb, cd, 0.7, c_mask, cd),
            SinewStatus::InvalidArgument
        );
        assert_eq!(c_bits(cd), delta_before);
        assert_eq!(
            sinew_pose_apply_additive(cb, cd, f32::NAN, c_mask, out),
            SinewStatus::NonFinite
        );
        assert_eq!(c_bits(out), bits(&applied));
    }
}
