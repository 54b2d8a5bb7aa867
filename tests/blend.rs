//! Pose blending: two-pose blends (local and model-space rotations, with and without masks, out
//! of place and in place), joint masks, N-layer blends with the rest-pose fallback, and the C
//! ABI's aliasing rules for these calls. Validity first: bad factors, masks, weights and poses of
//! other skeletons are refused with the output untouched.
//!
//! The fixtures (a body skeleton, pose comparisons, strategies, C handles) are in
//! `tests/common/poses.rs`, shared with `tests/additive.rs`.

use std::ptr;
use std::sync::Arc;

use proptest::prelude::*;
use sinew::ffi::{
    sinew_pose_blend, sinew_pose_blend_layers, sinew_pose_blend_layers_additive,
    sinew_pose_get_local, sinew_pose_make_additive, SinewBlendLayer, SinewStatus, SinewTransform,
};
use sinew::{BlendSpace, ErrorKind, JointMask, Layer, Pose, Quat, Skeleton, Transform, Vec3};

mod common;

use common::ffi::ok;
use common::poses::*;
use common::props::config;
use common::rotations::rot_between;

// ------------------------------------------------------------------------------ validity

#[test]
fn two_pose_blend_errors_leave_the_output_untouched() {
    let s = body();
    let other = Arc::new(Skeleton::new(&[-1, 0], &[Transform::IDENTITY; 2], None).unwrap());
    let mut la = s.rest_pose().to_vec();
    la[CHEST].translation = Vec3::new(1.0, 2.0, 3.0);
    let a = pose_of(&s, &la);
    let b = Pose::new(s.clone());
    let short = Pose::new(other.clone());
    let short_mask = JointMask::uniform(&other, 1.0).unwrap();
    let mut out = pose_of(&s, &la);
    out.edit_local(HEAD, |t| t.rotation = Quat::from_rotation_x(0.5))
        .unwrap();
    let before = bits(&out);
    for space in SPACES {
        let cases: [(f32, Option<&Pose>, Option<&JointMask>, ErrorKind); 7] = [
            (1.5, None, None, ErrorKind::InvalidArgument),
            (-0.1, None, None, ErrorKind::InvalidArgument),
            (f32::NAN, None, None, ErrorKind::NonFinite),
            (f32::INFINITY, None, None, ErrorKind::NonFinite),
            (0.5, Some(&short), None, ErrorKind::SizeMismatch),
            (0.5, None, Some(&short_mask), ErrorKind::SizeMismatch),
            (0.0, Some(&short), None, ErrorKind::SizeMismatch),
        ];
        for (t, bad_pose, mask, kind) in cases {
            let b2 = bad_pose.unwrap_or(&b);
            let e = out.blend(&a, b2, t, mask, space).unwrap_err();
            assert_eq!(e.kind(), kind, "blend t={t} {space:?}");
            let e = out.blend(b2, &a, t, mask, space).unwrap_err();
            assert_eq!(e.kind(), kind, "blend (swapped) t={t} {space:?}");
            let e = out.blend_toward(b2, t, mask, space).unwrap_err();
            assert_eq!(e.kind(), kind, "blend_toward t={t} {space:?}");
            let e = out.blend_from(b2, t, mask, space).unwrap_err();
            assert_eq!(e.kind(), kind, "blend_from t={t} {space:?}");
            assert_eq!(bits(&out), before);
        }
    }
}

#[test]
fn mask_weights_are_validated() {
    let s = body();
    for v in [0.0, 0.25, 1.0] {
        assert_eq!(JointMask::uniform(&s, v).unwrap().weights(), &[v; N]);
    }
    for (v, kind) in [
        (-0.01, ErrorKind::InvalidArgument),
        (1.01, ErrorKind::InvalidArgument),
        (f32::NAN, ErrorKind::NonFinite),
        (f32::INFINITY, ErrorKind::NonFinite),
        (f32::NEG_INFINITY, ErrorKind::NonFinite),
    ] {
        assert_eq!(JointMask::uniform(&s, v).unwrap_err().kind(), kind, "{v}");
    }

    let mut m = JointMask::subtree(&s, CHEST, 1).unwrap();
    let before = m.clone();
    m.set_weight(PELVIS, 0.75).unwrap();
    assert_eq!(m.weight(PELVIS), 0.75);
    m.set_weight(PELVIS, 0.0).unwrap();
    assert_eq!(m, before);
    for (joint, v, kind) in [
        (HEAD, 1.5, ErrorKind::InvalidArgument),
        (HEAD, -0.5, ErrorKind::InvalidArgument),
        (HEAD, f32::NAN, ErrorKind::NonFinite),
        (N, 0.5, ErrorKind::OutOfRange),
        (usize::MAX, 0.5, ErrorKind::OutOfRange),
    ] {
        assert_eq!(m.set_weight(joint, v).unwrap_err().kind(), kind);
        assert_eq!(m, before, "unchanged after set_weight({joint}, {v})");
    }

    let good: Vec<f32> = (0..N).map(|i| i as f32 / N as f32).collect();
    m.set_weights(&good).unwrap();
    assert_eq!(m.weights(), &good[..]);
    let mut bad = good.clone();
    bad[N - 1] = 2.0;
    assert_eq!(
        m.set_weights(&bad).unwrap_err().kind(),
        ErrorKind::InvalidArgument
    );
    bad[N - 1] = f32::NAN;
    assert_eq!(
        m.set_weights(&bad).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert_eq!(
        m.set_weights(&good[..N - 1]).unwrap_err().kind(),
        ErrorKind::SizeMismatch
    );
    assert_eq!(
        m.set_weights(&[0.5; N + 1]).unwrap_err().kind(),
        ErrorKind::SizeMismatch
    );
    assert_eq!(
        m.weights(),
        &good[..],
        "unchanged after rejected set_weights"
    );
}

#[test]
fn layer_blend_errors_leave_the_output_untouched() {
    let s = body();
    let other = Arc::new(Skeleton::new(&[-1, 0], &[Transform::IDENTITY; 2], None).unwrap());
    let a = Pose::new(s.clone());
    let short = Pose::new(other.clone());
    let short_mask = JointMask::uniform(&other, 1.0).unwrap();
    let mut out = Pose::new(s.clone());
    out.edit_local(HEAD, |t| t.translation = Vec3::new(4.0, 5.0, 6.0))
        .unwrap();
    let before = bits(&out);
    let cases: Vec<(Vec<Layer<'_>>, f32, ErrorKind)> = vec![
        (
            vec![layer(&a, 1.0, None), layer(&a, -0.5, None)],
            0.1,
            ErrorKind::InvalidArgument,
        ),
        (vec![layer(&a, f32::NAN, None)], 0.1, ErrorKind::NonFinite),
        (
            vec![layer(&a, f32::INFINITY, None)],
            0.1,
            ErrorKind::NonFinite,
        ),
        (
            vec![layer(&a, 1.0, None), layer(&short, 1.0, None)],
            0.1,
            ErrorKind::SizeMismatch,
        ),
        (
            vec![layer(&a, 1.0, Some(&short_mask))],
            0.1,
            ErrorKind::SizeMismatch,
        ),
        (vec![layer(&a, 1.0, None)], 0.0, ErrorKind::InvalidArgument),
        (vec![layer(&a, 1.0, None)], -1.0, ErrorKind::InvalidArgument),
        (vec![layer(&a, 1.0, None)], f32::NAN, ErrorKind::NonFinite),
        (
            vec![layer(&a, 1.0, None)],
            f32::INFINITY,
            ErrorKind::NonFinite,
        ),
    ];
    for (k, (layers, threshold, kind)) in cases.iter().enumerate() {
        let e = out.blend_layers(layers, *threshold).unwrap_err();
        assert_eq!(e.kind(), *kind, "case {k}");
        assert_eq!(bits(&out), before, "case {k} changed the output");
    }
}

/// Poses of a skeleton with the same joint count but other parents are refused by every blend,
/// layer, additive and copy, in every role (`InvalidArgument`, the output untouched); a pose of
/// another skeleton with the same parents is accepted, and blends as a pose of the first does.
#[test]
fn poses_of_skeletons_with_other_parents_are_refused() {
    let s = body();
    // The right arm under the left arm instead of the chest.
    let mut parents = PARENTS;
    parents[R_ARM] = L_ARM as i32;
    let rest = s.rest_pose().to_vec();
    let other = Arc::new(Skeleton::new(&parents, &rest, None).unwrap());
    let twin_rest: Vec<Transform> = rest
        .iter()
        .map(|t| Transform {
            scale: Vec3::ONE,
            ..*t
        })
        .collect();
    let twin = Arc::new(Skeleton::new(&PARENTS, &twin_rest, None).unwrap());
    let locals = |seed: f32| -> Vec<Transform> {
        (0..N)
            .map(|i| {
                let f = seed + i as f32;
                Transform::new(
                    Vec3::new(0.1 * f, -0.2, 0.05 * f),
                    Quat::from_euler(glam::EulerRot::XYZ, 0.3 * f, -0.1, 0.2 * seed),
                    Vec3::splat(1.0 + 0.02 * f),
                )
            })
            .collect()
    };
    let (a, b) = (pose_of(&s, &locals(0.5)), pose_of(&s, &locals(-1.5)));
    let x = pose_of(&other, &locals(2.0));
    let mask = JointMask::uniform(&s, 0.5).unwrap();

    type Op<'a> = Box<dyn Fn(&mut Pose) -> sinew::Result<()> + 'a>;
    // Each operation with the foreign pose as an input, writing into a pose of `s`.
    let with_input: Vec<(&str, Op)> = vec![
        (
            "blend a",
            Box::new(|o| o.blend(&x, &b, 0.5, None, BlendSpace::Local)),
        ),
        (
            "blend b",
            Box::new(|o| o.blend(&a, &x, 0.5, Some(&mask), BlendSpace::ModelRotation)),
        ),
        (
            "blend_toward",
            Box::new(|o| o.blend_toward(&x, 0.5, None, BlendSpace::Local)),
        ),
        (
            "blend_from",
            Box::new(|o| o.blend_from(&x, 0.5, None, BlendSpace::ModelRotation)),
        ),
        (
            "blend_layers",
            Box::new(|o| o.blend_layers(&[layer(&a, 1.0, None), layer(&x, 1.0, None)], 0.1)),
        ),
        ("copy_from", Box::new(|o| o.copy_from(&x))),
        ("make_additive pose", Box::new(|o| o.make_additive(&x, &a))),
        (
            "make_additive reference",
            Box::new(|o| o.make_additive(&a, &x)),
        ),
        ("add delta", Box::new(|o| o.add(&x, 0.5, None))),
        ("add_to base", Box::new(|o| o.add_to(&x, &a, 0.5, None))),
        (
            "add_to delta",
            Box::new(|o| o.add_to(&a, &x, -0.5, Some(&mask))),
        ),
    ];
    for (what, op) in &with_input {
        let mut out = pose_of(&s, &locals(3.0));
        let before = bits(&out);
        let err = op(&mut out).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{what}");
        assert!(
            err.message().contains("other parents"),
            "{what}: {}",
            err.message()
        );
        assert_eq!(bits(&out), before, "{what} changed the output");
    }
    // The foreign pose as the output of inputs of `s`.
    let with_output: Vec<(&str, Op)> = vec![
        (
            "blend",
            Box::new(|o| o.blend(&a, &b, 0.5, None, BlendSpace::Local)),
        ),
        (
            "blend_toward",
            Box::new(|o| o.blend_toward(&b, 0.5, None, BlendSpace::Local)),
        ),
        (
            "blend_from",
            Box::new(|o| o.blend_from(&a, 0.5, None, BlendSpace::Local)),
        ),
        (
            "blend_layers",
            Box::new(|o| o.blend_layers(&[layer(&a, 1.0, None)], 0.1)),
        ),
        ("copy_from", Box::new(|o| o.copy_from(&a))),
        ("make_additive", Box::new(|o| o.make_additive(&a, &b))),
        ("add", Box::new(|o| o.add(&a, 0.5, None))),
        ("add_to", Box::new(|o| o.add_to(&a, &b, 0.5, None))),
    ];
    for (what, op) in &with_output {
        let mut out = x.clone();
        let before = bits(&out);
        let err = op(&mut out).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::InvalidArgument,
            "into a foreign pose: {what}"
        );
        assert_eq!(bits(&out), before, "{what} changed the output");
    }

    // Another skeleton with the same parents: the same results as a pose of `s` holding the
    // same transforms (the rest pose, used where layers fall short, is the output's).
    let t = pose_of(&twin, &locals(2.0));
    let same = pose_of(&s, &locals(2.0));
    type Run<'a> = Box<dyn Fn(&Pose, &mut Pose) -> sinew::Result<()> + 'a>;
    let runs: Vec<(&str, Run)> = vec![
        (
            "blend",
            Box::new(|p, o| o.blend(&a, p, 0.25, Some(&mask), BlendSpace::ModelRotation)),
        ),
        (
            "blend_layers",
            Box::new(|p, o| {
                o.blend_layers(&[layer(&a, 0.5, None), layer(p, 0.2, Some(&mask))], 1.0)
            }),
        ),
        ("copy_from", Box::new(|p, o| o.copy_from(p))),
        ("make_additive", Box::new(|p, o| o.make_additive(p, &a))),
        ("add_to", Box::new(|p, o| o.add_to(&b, p, 0.7, None))),
    ];
    for (what, run) in &runs {
        let (mut got, mut want) = (pose_of(&s, &locals(3.0)), pose_of(&s, &locals(3.0)));
        run(&t, &mut got).unwrap();
        run(&same, &mut want).unwrap();
        assert_eq!(bits(&got), bits(&want), "{what}");
    }
    let mut into_twin = pose_of(&twin, &locals(3.0));
    into_twin
        .blend(&a, &b, 0.5, None, BlendSpace::Local)
        .unwrap();
}

// ------------------------------------------------------------------------------ two-pose blends

/// Model-space rotations (parents first).
fn model_rotations(p: &Pose) -> Vec<Quat> {
    let parents = p.skeleton().parents();
    let mut out: Vec<Quat> = Vec::with_capacity(p.joint_count());
    for (i, t) in p.local().iter().enumerate() {
        let r = if parents[i] < 0 {
            t.rotation
        } else {
            out[parents[i] as usize] * t.rotation
        };
        out.push(r);
    }
    out
}

/// Reference nlerp on the shortest arc.
fn nlerp(a: Quat, b: Quat, t: f32) -> Quat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    (a * (1.0 - t) + b * t).normalize()
}

proptest! {
    #![proptest_config(config(96))]

    /// t = 0 gives `a` and t = 1 gives `b` bit for bit, in both spaces, with and without masks;
    /// at t = 1 a 0/1 mask gives `a` where it is 0 and `b` where it is 1 (in model-rotation
    /// space: `b` bit for bit where the whole ancestor chain is 1, `b`'s translation and scale
    /// and `b`'s model rotation elsewhere).
    #[test]
    fn blend_endpoints_are_the_inputs_bit_for_bit(
        la in locals(),
        lb in locals(),
        weights in mask_weights(),
        binary in prop::collection::vec(any::<bool>(), N),
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mask = mask_of(&s, &weights);
        let full = JointMask::uniform(&s, 1.0).unwrap();
        let binary_weights: Vec<f32> = binary.iter().map(|&x| if x { 1.0 } else { 0.0 }).collect();
        let binary_mask = mask_of(&s, &binary_weights);
        let mut out = Pose::new(s.clone());
        for space in SPACES {
            out.blend(&a, &b, 0.0, None, space).unwrap();
            prop_assert_eq!(bits(&out), bits(&a), "t = 0, {:?}", space);
            out.blend(&a, &b, 1.0, None, space).unwrap();
            prop_assert_eq!(bits(&out), bits(&b), "t = 1, {:?}", space);
            out.blend(&a, &b, 0.0, Some(&mask), space).unwrap();
            prop_assert_eq!(bits(&out), bits(&a), "t = 0 with a mask, {:?}", space);
            out.blend(&a, &b, 1.0, Some(&full), space).unwrap();
            prop_assert_eq!(bits(&out), bits(&b), "t = 1 with a full mask, {:?}", space);

            out.blend(&a, &b, 1.0, Some(&binary_mask), space).unwrap();
            let model_out = model_rotations(&out);
            let model_b = model_rotations(&b);
            let mut chain_is_one = [false; N];
            for i in 0..N {
                let p = PARENTS[i];
                chain_is_one[i] = binary[i] && (p < 0 || chain_is_one[p as usize]);
                let (o, want_a, want_b) = (&out.local().get(i), &a.local().get(i), &b.local().get(i));
                if !binary[i] {
                    prop_assert_eq!(
                        transform_bits(o), transform_bits(want_a), "joint {} {:?}", i, space
                    );
                } else if space == BlendSpace::Local || chain_is_one[i] {
                    prop_assert_eq!(
                        transform_bits(o), transform_bits(want_b), "joint {} {:?}", i, space
                    );
                } else {
                    prop_assert_eq!(o.translation, want_b.translation);
                    prop_assert_eq!(o.scale, want_b.scale);
                    let gap = rot_between(model_out[i], model_b[i]);
                    prop_assert!(gap < 2e-5, "joint {}: model rotation {} rad from b's", i, gap);
                }
            }
        }
    }

    /// Joints whose mask weight is 0 keep `a` exactly; in local space every other joint is the
    /// unmasked blend at `t * weight` (the mask only scales each joint's own factor).
    #[test]
    fn masks_touch_only_their_joints(
        la in locals(),
        lb in locals(),
        weights in mask_weights(),
        t in 0.0f32..=1.0,
        root in 0..N,
        depth in 0u32..4,
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let subtree = JointMask::subtree(&s, root, depth).unwrap();
        let arbitrary = mask_of(&s, &weights);
        let mut out = Pose::new(s.clone());
        let mut single = Pose::new(s.clone());
        for mask in [&subtree, &arbitrary] {
            for space in SPACES {
                out.blend(&a, &b, t, Some(mask), space).unwrap();
                for i in 0..N {
                    if mask.weight(i) == 0.0 {
                        prop_assert_eq!(
                            transform_bits(&out.local().get(i)),
                            transform_bits(&a.local().get(i)),
                            "joint {} has weight 0 ({:?})", i, space
                        );
                    }
                }
            }
            out.blend(&a, &b, t, Some(mask), BlendSpace::Local).unwrap();
            for i in 0..N {
                single.blend(&a, &b, t * mask.weight(i), None, BlendSpace::Local).unwrap();
                prop_assert_eq!(
                    transform_bits(&out.local().get(i)),
                    transform_bits(&single.local().get(i)),
                    "joint {}", i
                );
            }
        }
    }

    /// `blend_toward` (output holds `a`) and `blend_from` (output holds `b`) give exactly what
    /// `blend` gives into a distinct output.
    #[test]
    fn in_place_blends_equal_blend(
        la in locals(),
        lb in locals(),
        weights in mask_weights(),
        use_mask in any::<bool>(),
        t in prop_oneof![Just(0.0f32), Just(1.0f32), 0.0f32..=1.0],
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mask = mask_of(&s, &weights);
        let mask = use_mask.then_some(&mask);
        for space in SPACES {
            let mut expected = Pose::new(s.clone());
            expected.blend(&a, &b, t, mask, space).unwrap();
            let mut toward = a.clone();
            toward.blend_toward(&b, t, mask, space).unwrap();
            prop_assert_eq!(bits(&toward), bits(&expected), "blend_toward {:?}", space);
            let mut from = b.clone();
            from.blend_from(&a, t, mask, space).unwrap();
            prop_assert_eq!(bits(&from), bits(&expected), "blend_from {:?}", space);
        }
    }

    /// Blended rotations are unit and lie on the shortest arc between the inputs (local
    /// rotations in local space, model rotations in model-rotation space); the midpoint is
    /// halfway.
    #[test]
    fn rotations_stay_unit_on_the_shortest_arc(
        la in locals(),
        lb in locals(),
        t in 0.0f32..=1.0,
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mut out = Pose::new(s.clone());
        for space in SPACES {
            for tt in [t, 0.5] {
                out.blend(&a, &b, tt, None, space).unwrap();
                let (ra, rb, ro) = match space {
                    BlendSpace::Local => {
                        let r = |p: &Pose| p.local().iter().map(|x| x.rotation).collect::<Vec<_>>();
                        (r(&a), r(&b), r(&out))
                    }
                    BlendSpace::ModelRotation => {
                        (model_rotations(&a), model_rotations(&b), model_rotations(&out))
                    }
                };
                for i in 0..N {
                    let q = out.local().get(i).rotation;
                    prop_assert!(
                        (q.length() - 1.0).abs() < 1e-5, "joint {} |q| = {}", i, q.length()
                    );
                    let (whole, to_a, to_b) = (
                        rot_between(ra[i], rb[i]),
                        rot_between(ra[i], ro[i]),
                        rot_between(ro[i], rb[i]),
                    );
                    prop_assert!(whole <= std::f32::consts::PI + 1e-6);
                    prop_assert!(
                        (to_a + to_b - whole).abs() < 1e-4,
                        "joint {} off the shortest arc ({:?}): {} + {} vs {}",
                        i, space, to_a, to_b, whole
                    );
                    if tt == 0.5 {
                        prop_assert!(
                            (to_a - 0.5 * whole).abs() < 1e-4,
                            "joint {} midpoint ({:?}): {} of {}", i, space, to_a, whole
                        );
                    }
                }
            }
        }
    }

    /// Model-rotation space: every joint with a non-zero weight ends with the shortest-arc nlerp
    /// of the two model rotations, whatever its ancestors' weights; zero-weight joints keep
    /// `a`'s local transform; translations and scales always blend locally.
    #[test]
    fn model_rotation_blends_model_rotations_of_weighted_joints(
        la in locals(),
        lb in locals(),
        weights in mask_weights(),
        t in 0.0f32..=1.0,
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mask = mask_of(&s, &weights);
        let mut out = Pose::new(s.clone());
        out.blend(&a, &b, t, Some(&mask), BlendSpace::ModelRotation).unwrap();
        let mut local = Pose::new(s.clone());
        local.blend(&a, &b, t, Some(&mask), BlendSpace::Local).unwrap();
        let (ma, mb, mo) = (model_rotations(&a), model_rotations(&b), model_rotations(&out));
        for i in 0..N {
            let w = t * weights[i];
            let (o, l) = (&out.local().get(i), &local.local().get(i));
            prop_assert_eq!(o.translation, l.translation, "joint {}", i);
            prop_assert_eq!(o.scale, l.scale, "joint {}", i);
            if w > 0.0 {
                let gap = rot_between(mo[i], nlerp(ma[i], mb[i], w));
                prop_assert!(
                    gap < 3e-5, "joint {} (w {}): model rotation off by {} rad", i, w, gap
                );
            } else {
                prop_assert_eq!(transform_bits(o), transform_bits(&a.local().get(i)), "joint {}", i);
            }
        }
    }

    /// Two-pose blends of finite poses are finite, even at the edge of f32's range.
    #[test]
    fn blends_of_huge_finite_poses_stay_finite(
        signs in prop::collection::vec((any::<bool>(), any::<bool>()), N),
        t in 0.0f32..=1.0,
    ) {
        let s = body();
        let huge = |neg: bool| Transform::new(
            Vec3::splat(if neg { -f32::MAX } else { f32::MAX }),
            Quat::IDENTITY,
            Vec3::splat(f32::MAX),
        );
        let la: Vec<_> = signs.iter().map(|&(x, _)| huge(x)).collect();
        let lb: Vec<_> = signs.iter().map(|&(_, y)| huge(y)).collect();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mut out = Pose::new(s.clone());
        for space in SPACES {
            out.blend(&a, &b, t, None, space).unwrap();
            prop_assert!(out.local().iter().all(|t| t.is_finite()), "{:?}", space);
        }
    }
}

#[test]
fn neighbouring_rotations_of_opposite_sign_blend_without_a_flip() {
    let s = Arc::new(Skeleton::new(&[-1], &[Transform::IDENTITY], None).unwrap());
    let q = Quat::from_euler(glam::EulerRot::YXZ, 1.2, -0.4, 2.5);
    let small = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 0.2);
    let single = |r: Quat| pose_of(&s, &[Transform::from_rotation_translation(r, Vec3::ZERO)]);
    let mut out = Pose::new(s.clone());
    for space in SPACES {
        // The same rotation written as q and -q: every blend is that rotation.
        let (a, b) = (single(q), single(-q));
        for k in 0..=10 {
            out.blend(&a, &b, k as f32 / 10.0, None, space).unwrap();
            let r = out.local().get(0).rotation;
            assert!(rot_between(r, q) < 1e-5, "{space:?} k={k}: {r}");
        }
        // A 0.2 rad neighbour written with the opposite sign: the blend stays within 0.2 rad
        // of both and turns monotonically, half way at 0.5.
        let (a, b) = (single(q), single(-(q * small)));
        let mut last = 0.0;
        for k in 0..=20 {
            let t = k as f32 / 20.0;
            out.blend(&a, &b, t, None, space).unwrap();
            let r = out.local().get(0).rotation;
            let from_a = rot_between(q, r);
            assert!(
                from_a <= 0.2 + 1e-5,
                "{space:?} t={t}: {from_a} rad from a (flip)"
            );
            assert!(rot_between(r, q * small) <= 0.2 + 1e-5);
            assert!(from_a + 1e-6 >= last, "{space:?} t={t}: not monotonic");
            last = from_a;
            if k == 10 {
                assert!((from_a - 0.1).abs() < 1e-4, "{space:?}: midpoint {from_a}");
            }
        }
    }
}

/// The upper body blended in model-rotation space keeps `b`'s world orientation even though
/// the pelvis (weight 0) keeps `a`'s very different rotation; local-space blending would not.
#[test]
fn model_rotation_upper_body_keeps_its_world_orientation() {
    let s = body();
    let mut la = s.rest_pose().to_vec();
    let mut lb = s.rest_pose().to_vec();
    // a: pelvis turned and leaning (e.g. a run cycle); b: an aiming upper body on an upright
    // pelvis.
    la[PELVIS].rotation = Quat::from_euler(glam::EulerRot::YXZ, 1.1, 0.4, -0.2);
    la[L_THIGH].rotation = Quat::from_rotation_x(-0.7);
    la[SPINE].rotation = Quat::from_rotation_z(0.3);
    lb[PELVIS].rotation = Quat::from_rotation_y(-0.3);
    lb[SPINE].rotation = Quat::from_rotation_x(0.25);
    lb[CHEST].rotation = Quat::from_rotation_y(0.6);
    lb[L_ARM].rotation = Quat::from_euler(glam::EulerRot::XYZ, 0.9, 0.2, -1.3);
    lb[R_ARM].rotation = Quat::from_rotation_z(-1.0);
    lb[HEAD].translation = Vec3::new(0.0, 0.35, 0.02);
    let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
    let upper = JointMask::subtree(&s, SPINE, 0).unwrap();

    let mut out = Pose::new(s.clone());
    out.blend(&a, &b, 1.0, Some(&upper), BlendSpace::ModelRotation)
        .unwrap();
    let (mo, mb) = (model_rotations(&out), model_rotations(&b));
    for i in [SPINE, CHEST, HEAD, L_ARM, L_HAND, R_ARM] {
        let gap = rot_between(mo[i], mb[i]);
        assert!(gap < 2e-5, "joint {i}: {gap} rad from b's model rotation");
        assert_eq!(out.local().get(i).translation, b.local().get(i).translation);
        assert_eq!(out.local().get(i).scale, b.local().get(i).scale);
    }
    for i in [PELVIS, L_THIGH, L_SHIN, R_THIGH] {
        assert_eq!(
            transform_bits(&out.local().get(i)),
            transform_bits(&a.local().get(i)),
            "joint {i} keeps a's local transform"
        );
    }
    // The same request in local space hangs b's local spine under a's pelvis instead.
    let mut local = Pose::new(s.clone());
    local
        .blend(&a, &b, 1.0, Some(&upper), BlendSpace::Local)
        .unwrap();
    assert!(rot_between(model_rotations(&local)[CHEST], mb[CHEST]) > 0.5);

    // An excluded joint under a blended parent keeps a's local rotation (and so follows the
    // parent), in model-rotation space too.
    let mut no_head = upper.clone();
    no_head.set_weight(HEAD, 0.0).unwrap();
    out.blend(&a, &b, 1.0, Some(&no_head), BlendSpace::ModelRotation)
        .unwrap();
    assert_eq!(
        transform_bits(&out.local().get(HEAD)),
        transform_bits(&a.local().get(HEAD))
    );
    let mo = model_rotations(&out);
    assert!(rot_between(mo[CHEST], mb[CHEST]) < 2e-5);
    assert!(rot_between(mo[HEAD], mb[CHEST] * a.local().get(HEAD).rotation) < 2e-5);
}

// ------------------------------------------------------------------------------ joint masks

#[test]
fn subtree_masks_ramp_over_the_blend_depth() {
    let s = body();
    let m = JointMask::subtree(&s, CHEST, 2).unwrap();
    let mut want = [0.0f32; N];
    want[CHEST] = 1.0 / 3.0;
    want[HEAD] = 2.0 / 3.0;
    want[L_ARM] = 2.0 / 3.0;
    want[R_ARM] = 2.0 / 3.0;
    want[L_HAND] = 1.0;
    assert_eq!(m.weights(), &want);
    assert_eq!(m.joint_count(), N);

    // Depth 0: a hard subtree; depth 1: half at the subtree root.
    let hard = JointMask::subtree(&s, SPINE, 0).unwrap();
    let soft = JointMask::subtree(&s, SPINE, 1).unwrap();
    for i in 0..N {
        let inside = [SPINE, CHEST, HEAD, L_ARM, L_HAND, R_ARM].contains(&i);
        assert_eq!(hard.weight(i), if inside { 1.0 } else { 0.0 }, "joint {i}");
        let w = if i == SPINE {
            0.5
        } else if inside {
            1.0
        } else {
            0.0
        };
        assert_eq!(soft.weight(i), w, "joint {i}");
    }
    // The whole skeleton from the root; a leaf alone.
    assert_eq!(
        JointMask::subtree(&s, PELVIS, 0).unwrap().weights(),
        &[1.0; N]
    );
    let leaf = JointMask::subtree(&s, L_HAND, 3).unwrap();
    for i in 0..N {
        assert_eq!(leaf.weight(i), if i == L_HAND { 0.25 } else { 0.0 });
    }
    // A ramp longer than the subtree never reaches 1.
    let long = JointMask::subtree(&s, SPINE, 9).unwrap();
    assert_eq!(long.weight(SPINE), 0.1);
    assert_eq!(long.weight(L_HAND), 0.4);
    assert_eq!(
        JointMask::subtree(&s, N, 0).unwrap_err().kind(),
        ErrorKind::OutOfRange
    );
}

// ------------------------------------------------------------------------------ N-layer blends

proptest! {
    #![proptest_config(config(64))]

    /// Weights are normalized: two layers of weight 2 are a half blend; one layer above the
    /// threshold is that layer; scaling every weight by k (staying above the threshold)
    /// changes nothing.
    #[test]
    fn layer_weights_normalize(
        la in locals(),
        lb in locals(),
        lc in locals(),
        w in prop::collection::vec(0.0f32..3.0, 3),
        k in 0.2f32..20.0,
    ) {
        let s = body();
        let (a, b, c) = (pose_of(&s, &la), pose_of(&s, &lb), pose_of(&s, &lc));
        let threshold = 0.1;
        let mut out = Pose::new(s.clone());
        let mut half = Pose::new(s.clone());
        out.blend_layers(&[layer(&a, 2.0, None), layer(&b, 2.0, None)], threshold).unwrap();
        half.blend(&a, &b, 0.5, None, BlendSpace::Local).unwrap();
        assert_close_pose(&out, &half, 2e-6, "weights 2 and 2 vs blend 0.5");

        out.blend_layers(&[layer(&c, 0.7, None)], threshold).unwrap();
        prop_assert_eq!(out.local(), c.local(), "a single layer above the threshold is itself");

        let sum: f32 = w.iter().sum();
        prop_assume!(sum >= threshold && k * sum >= threshold);
        let poses = [&a, &b, &c];
        let layers: Vec<_> = (0..3).map(|i| layer(poses[i], w[i], None)).collect();
        let scaled: Vec<_> = (0..3).map(|i| layer(poses[i], w[i] * k, None)).collect();
        out.blend_layers(&layers, threshold).unwrap();
        let mut other = Pose::new(s.clone());
        other.blend_layers(&scaled, threshold).unwrap();
        assert_close_pose(&other, &out, 2e-6, "weights scaled by k");
        for t in out.local() {
            prop_assert!((t.rotation.length() - 1.0).abs() < 1e-5);
        }
    }

    /// Unmasked layers (weights normalized once for all joints) give the same bits as the same
    /// layers under masks of all ones (weights normalized per joint), weights below the
    /// threshold and of zero included.
    #[test]
    fn unmasked_layers_match_masks_of_one_bit_for_bit(
        la in locals(),
        lb in locals(),
        lc in locals(),
        w in prop::collection::vec(prop_oneof![Just(0.0f32), 0.0f32..0.1, 0.0f32..3.0], 1..=3),
    ) {
        let s = body();
        let poses = [pose_of(&s, &la), pose_of(&s, &lb), pose_of(&s, &lc)];
        let ones = JointMask::uniform(&s, 1.0).unwrap();
        let plain: Vec<_> = w.iter().zip(&poses).map(|(&w, p)| layer(p, w, None)).collect();
        let masked: Vec<_> = w.iter().zip(&poses).map(|(&w, p)| layer(p, w, Some(&ones))).collect();
        let (mut fast, mut general) = (Pose::new(s.clone()), Pose::new(s.clone()));
        fast.blend_layers(&plain, 0.1).unwrap();
        general.blend_layers(&masked, 0.1).unwrap();
        prop_assert_eq!(bits(&fast), bits(&general));
    }

    /// Per-layer masks weight each joint: where a layer's mask is 0 the joint ignores it.
    #[test]
    fn layer_masks_apply_per_joint(
        la in locals(),
        lb in locals(),
        root in 0..N,
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let mask = JointMask::subtree(&s, root, 0).unwrap();
        let mut out = Pose::new(s.clone());
        out.blend_layers(&[layer(&a, 1.0, None), layer(&b, 1.0, Some(&mask))], 0.1).unwrap();
        let mut half = Pose::new(s.clone());
        half.blend(&a, &b, 0.5, None, BlendSpace::Local).unwrap();
        // Joints in the mask are the half blend; the others are `outside` (`why`).
        let masked = |out: &Pose, outside: &[Transform], why: &str| {
            for (i, (got, outside)) in out.local().iter().zip(outside).enumerate() {
                if mask.weight(i) == 0.0 {
                    prop_assert_eq!(&got, outside, "joint {} {}", i, why);
                } else {
                    let what = format!("joint {i}");
                    assert_close_transform(&got, &half.local().get(i), 2e-6, &what);
                }
            }
            Ok(())
        };
        masked(&out, &a.local().to_vec(), "outside the mask")?;
        // With a mask on both layers, joints outside both ease to the rest pose.
        out.blend_layers(&[layer(&a, 1.0, Some(&mask)), layer(&b, 1.0, Some(&mask))], 0.1).unwrap();
        masked(&out, s.rest_pose(), "is in no layer")?;
    }
}

/// `blend_layers` from its documented rule, one joint at a time in plain scalar code: weights
/// `w_k = weight_k · mask_k` summed in f32 in order to `W`, rest weight
/// `max(threshold − W, 0)`, each input times `1 / (W + rest)`; translations and scales summed,
/// each rotation negated when its dot product with the rotation sum so far is negative, the
/// sum normalized.
fn blend_layers_reference(
    skeleton: &Skeleton,
    layers: &[Layer<'_>],
    threshold: f32,
) -> Vec<Transform> {
    (0..skeleton.joint_count())
        .map(|j| {
            let raw: Vec<f32> = layers
                .iter()
                .map(|l| l.weight * l.mask.map_or(1.0, |m| m.weight(j)))
                .collect();
            let total = raw.iter().fold(0.0f32, |a, &w| a + w);
            let rest = (threshold - total).max(0.0);
            let inv = 1.0 / (total + rest);
            let mut inputs: Vec<(Transform, f32)> = layers
                .iter()
                .zip(&raw)
                .map(|(l, &w)| (l.pose.local().get(j), w * inv))
                .collect();
            inputs.push((skeleton.rest_pose()[j], rest * inv));
            let (mut t, mut r, mut sc) =
                (Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ZERO);
            for (x, w) in inputs.into_iter().filter(|&(_, w)| w > 0.0) {
                t += x.translation * w;
                sc += x.scale * w;
                let q = if r.dot(x.rotation) < 0.0 {
                    -x.rotation
                } else {
                    x.rotation
                };
                r += q * w;
            }
            Transform::new(t, r.normalize(), sc)
        })
        .collect()
}

proptest! {
    #![proptest_config(config(64))]

    /// N-layer blends follow the documented rule (checked against a scalar reference), with
    /// and without masks, above and below the threshold.
    #[test]
    fn layer_blends_follow_the_documented_rule(
        la in locals(),
        lb in locals(),
        lc in locals(),
        w in prop::collection::vec(prop_oneof![Just(0.0f32), 0.0f32..0.1, 0.0f32..3.0], 3),
        mw in mask_weights(),
        masked in prop::collection::vec(any::<bool>(), 3),
    ) {
        let s = body();
        let poses = [pose_of(&s, &la), pose_of(&s, &lb), pose_of(&s, &lc)];
        let mask = mask_of(&s, &mw);
        let layers: Vec<_> = (0..3)
            .map(|i| layer(&poses[i], w[i], masked[i].then_some(&mask)))
            .collect();
        let mut out = Pose::new(s.clone());
        out.blend_layers(&layers, 0.1).unwrap();
        let want = pose_of(&s, &blend_layers_reference(&s, &layers, 0.1));
        assert_close_pose(&out, &want, 2e-6, "blend_layers vs its documented rule");
    }

    /// Additive layers in the blend's call give the same bits as `blend_layers` and then
    /// `add` for each, in order (negative and extrapolating weights, masks, included).
    #[test]
    fn additive_layers_in_one_call_equal_the_calls_in_turn(
        la in locals(),
        lb in locals(),
        lc in locals(),
        ld in locals(),
        w in prop::collection::vec(0.0f32..3.0, 2),
        aw in prop::collection::vec(-1.5f32..1.5, 0..3),
        mw in mask_weights(),
    ) {
        let s = body();
        let (a, b) = (pose_of(&s, &la), pose_of(&s, &lb));
        let (c, d) = (pose_of(&s, &lc), pose_of(&s, &ld));
        let mut delta = Pose::new(s.clone());
        delta.make_additive(&c, &d).unwrap();
        let mask = mask_of(&s, &mw);
        let layers = [layer(&a, w[0], None), layer(&b, w[1], Some(&mask))];
        let additive: Vec<_> = aw
            .iter()
            .enumerate()
            .map(|(k, &w)| layer(&delta, w, (k % 2 == 1).then_some(&mask)))
            .collect();
        let mut one = Pose::new(s.clone());
        one.blend_layers_additive(&layers, &additive, 0.1).unwrap();
        let mut turns = Pose::new(s.clone());
        turns.blend_layers(&layers, 0.1).unwrap();
        for l in &additive {
            turns.add(l.pose, l.weight, l.mask).unwrap();
        }
        prop_assert_eq!(bits(&one), bits(&turns));
    }
}

#[test]
fn layers_below_the_threshold_ease_to_the_rest_pose() {
    let s = body();
    let mut la = s.rest_pose().to_vec();
    for (i, t) in la.iter_mut().enumerate() {
        t.translation += Vec3::new(0.5, -0.25, i as f32 * 0.1);
        t.rotation = Quat::from_rotation_y(0.8 + 0.1 * i as f32) * t.rotation;
        t.scale *= 1.5;
    }
    let a = pose_of(&s, &la);
    let b = pose_of(&s, s.rest_pose());
    let threshold = 0.25;
    let mut out = Pose::new(s.clone());
    out.edit_local(0, |t| t.translation = Vec3::splat(9.0))
        .unwrap();

    // No layers, or only weight-0 layers: exactly the rest pose.
    out.blend_layers(&[], threshold).unwrap();
    assert_eq!(out.local(), s.rest_pose());
    out.edit_local(0, |t| t.translation = Vec3::splat(9.0))
        .unwrap();
    out.blend_layers(&[layer(&a, 0.0, None), layer(&b, 0.0, None)], threshold)
        .unwrap();
    assert_eq!(out.local(), s.rest_pose());

    // Below the threshold: the layer at weight w / threshold over the rest pose.
    let mut expected = Pose::new(s.clone());
    for w in [0.01, 0.1, 0.2] {
        out.blend_layers(&[layer(&a, w, None)], threshold).unwrap();
        expected
            .blend(&b, &a, w / threshold, None, BlendSpace::Local)
            .unwrap();
        assert_close_pose(&out, &expected, 2e-6, &format!("weight {w}"));
    }

    // Continuity: sweep the weight across the threshold in small steps.
    let mut previous = Pose::new(s.clone());
    previous
        .blend_layers(&[layer(&a, 0.0, None)], threshold)
        .unwrap();
    let steps = 400;
    for k in 1..=steps {
        let w = 2.0 * threshold * k as f32 / steps as f32;
        out.blend_layers(&[layer(&a, w, None)], threshold).unwrap();
        for (i, (o, p)) in out.local().iter().zip(previous.local()).enumerate() {
            // Each step moves the blend by at most 1 / 200 of the way.
            let dt = (o.translation - p.translation).length();
            let dr = rot_between(o.rotation, p.rotation);
            assert!(dt < 0.02 && dr < 0.02, "w={w}, joint {i}: jump {dt} / {dr}");
        }
        std::mem::swap(&mut out, &mut previous);
    }
    // Just below and just above the threshold agree.
    let mut below = Pose::new(s.clone());
    let mut above = Pose::new(s.clone());
    below
        .blend_layers(&[layer(&a, threshold * (1.0 - 1e-6), None)], threshold)
        .unwrap();
    above
        .blend_layers(&[layer(&a, threshold * (1.0 + 1e-6), None)], threshold)
        .unwrap();
    assert_close_pose(&below, &above, 1e-5, "across the threshold");
    assert_close_pose(&above, &a, 1e-6, "above the threshold");
}

/// A weighted average of finite poses is within their range, so it must come out finite (or,
/// at worst, be reported as `NumericOverflow` with the output untouched) — never as an
/// infinite pose with `Ok`.
#[test]
fn layer_blend_of_huge_finite_poses_is_finite_or_reported() {
    let s = Arc::new(Skeleton::new(&[-1], &[Transform::IDENTITY], None).unwrap());
    let huge = pose_of(
        &s,
        &[Transform::new(
            Vec3::splat(f32::MAX),
            Quat::IDENTITY,
            Vec3::splat(f32::MAX),
        )],
    );
    for count in 1..=16 {
        let layers: Vec<_> = (0..count).map(|_| layer(&huge, 1.0, None)).collect();
        let mut out = Pose::new(s.clone());
        let before = bits(&out);
        match out.blend_layers(&layers, 0.1) {
            Ok(()) => assert!(
                out.local().get(0).is_finite(),
                "{count} layers of f32::MAX gave {:?}",
                out.local().get(0)
            ),
            Err(e) => {
                assert_eq!(e.kind(), ErrorKind::NumericOverflow);
                assert_eq!(bits(&out), before);
            }
        }
    }
}

/// Finite results are never reported as overflow, however large: a pose blended with itself
/// at f32's edge (every translation and scale ±f32::MAX, whose sum overflows) comes back exactly.
#[test]
fn layer_blend_of_a_huge_pose_with_itself_is_that_pose() {
    let n = 9;
    let parents: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
    let s = Arc::new(Skeleton::new(&parents, &vec![Transform::IDENTITY; n], None).unwrap());
    let huge: Vec<_> = (0..n)
        .map(|j| {
            let m = if j % 2 == 0 { f32::MAX } else { -f32::MAX };
            Transform::new(Vec3::splat(m), Quat::IDENTITY, Vec3::splat(f32::MAX))
        })
        .collect();
    let huge = pose_of(&s, &huge);
    let mut out = Pose::new(s.clone());
    out.blend_layers(&[layer(&huge, 1.0, None), layer(&huge, 1.0, None)], 0.1)
        .unwrap();
    assert_eq!(bits(&out), bits(&huge));
    let mut masked = JointMask::uniform(&s, 0.0).unwrap();
    masked.set_weights(&[1.0; 9]).unwrap();
    out.blend_layers(
        &[layer(&huge, 1.0, Some(&masked)), layer(&huge, 1.0, None)],
        0.1,
    )
    .unwrap();
    assert_eq!(bits(&out), bits(&huge));
}

/// Layer weights are any finite non-negative numbers and only their ratios matter above the
/// threshold, so two huge equal weights are still a half blend (or, at worst, an error with
/// the output untouched) — never a collapsed pose with zero scale.
#[test]
fn huge_layer_weights_still_normalize() {
    let s = body();
    let (a, b) = (
        pose_of(&s, &sample_locals(0.0)),
        pose_of(&s, &sample_locals(3.0)),
    );
    let mut half = Pose::new(s.clone());
    half.blend(&a, &b, 0.5, None, BlendSpace::Local).unwrap();
    for w in [1.0, 1e30, 1e38, 2e38, f32::MAX] {
        let mut out = Pose::new(s.clone());
        let before = bits(&out);
        let ones = JointMask::uniform(&s, 1.0).unwrap();
        for mask in [None, Some(&ones)] {
            match out.blend_layers(&[layer(&a, w, mask), layer(&b, w, None)], 0.1) {
                Ok(()) => assert_close_pose(&out, &half, 2e-6, &format!("weights {w:e}")),
                Err(e) => {
                    assert_eq!(e.kind(), ErrorKind::NumericOverflow, "weights {w:e}");
                    assert_eq!(bits(&out), before);
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------ C ABI: the same operations, and the documented aliasing rules

/// `sinew_pose_blend` may write over `a` or `b` (or both, when they are the same pose) and
/// gives the same bits as the core's out-of-place blend; failures leave the output untouched.
#[test]
fn c_blend_allows_the_output_to_be_an_input() {
    let CPair {
        s,
        la,
        lb,
        a,
        b,
        mask,
        mut h,
        c_mask,
        ..
    } = c_pair_of(2.5, SPINE);
    for (space, c_space) in [(BlendSpace::Local, 0), (BlendSpace::ModelRotation, 1)] {
        for (use_mask, m) in [(false, ptr::null()), (true, c_mask.cast_const())] {
            let t = 0.3;
            let mut expected = Pose::new(s.clone());
            expected
                .blend(&a, &b, t, use_mask.then_some(&mask), space)
                .unwrap();
            let want = bits(&expected);
            let (ca, cb, out) = (h.pose(&la), h.pose(&lb), h.pose(&la));
            // SAFETY: live handles; aliasing of `out` with `a` or `b` is documented as allowed.
            unsafe {
                ok(sinew_pose_blend(ca, cb, t, m, c_space, out));
                assert_eq!(c_bits(out), want, "distinct output {space:?}");
                ok(sinew_pose_blend(ca, cb, t, m, c_space, ca));
                assert_eq!(c_bits(ca), want, "out = a {space:?}");
                assert_eq!(c_bits(cb), bits(&b), "b untouched");
                let ca2 = h.pose(&la);
                ok(sinew_pose_blend(ca2, cb, t, m, c_space, cb));
                assert_eq!(c_bits(cb), want, "out = b {space:?}");
                // A pose blended with itself is itself.
                let same = h.pose(&la);
                ok(sinew_pose_blend(same, same, t, m, c_space, same));
                assert_eq!(c_bits(same), bits(&a));
                // Errors leave the output alone, aliased or not.
                let before = c_bits(out);
                for (tt, sp, status) in [
                    (1.5, c_space, SinewStatus::InvalidArgument),
                    (f32::NAN, c_space, SinewStatus::NonFinite),
                    (0.5, 7, SinewStatus::InvalidArgument),
                ] {
                    assert_eq!(sinew_pose_blend(ca2, out, tt, m, sp, out), status);
                    assert_eq!(c_bits(out), before);
                    assert_eq!(sinew_pose_blend(same, same, tt, m, sp, same), status);
                    assert_eq!(c_bits(same), bits(&a));
                }
            }
        }
    }
}

/// `sinew_pose_blend_layers` equals the core and refuses an output that is one of the layers.
#[test]
fn c_layers_match_the_core_and_check_aliasing() {
    let CPair {
        s,
        a,
        b,
        mask,
        c_mask,
        h: _handles,
        c: [ca, cb, out],
        ..
    } = c_pair();

    let mut expected = Pose::new(s.clone());
    expected
        .blend_layers(&[layer(&a, 0.4, None), layer(&b, 1.3, Some(&mask))], 0.1)
        .unwrap();
    let layers = [
        SinewBlendLayer {
            pose: ca,
            weight: 0.4,
            mask: ptr::null(),
        },
        SinewBlendLayer {
            pose: cb,
            weight: 1.3,
            mask: c_mask,
        },
    ];
    // SAFETY: live handles; `layers` holds 2 items.
    unsafe {
        ok(sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, out));
        assert_eq!(c_bits(out), bits(&expected));
        let before = c_bits(ca);
        assert_eq!(
            sinew_pose_blend_layers(layers.as_ptr(), 2, 0.1, ca),
            SinewStatus::InvalidArgument
        );
        assert_eq!(c_bits(ca), before);
        assert_eq!(
            sinew_pose_blend_layers(layers.as_ptr(), 2, 0.0, out),
            SinewStatus::InvalidArgument
        );
        assert_eq!(c_bits(out), bits(&expected));
        // Zero layers: the rest pose.
        ok(sinew_pose_blend_layers(ptr::null(), 0, 0.1, out));
        // (Compared as values: the sum may turn a -0.0 of the rest pose into +0.0.)
        let mut got = vec![SinewTransform::default(); N];
        ok(sinew_pose_get_local(out, got.as_mut_ptr(), N as u32));
        let got: Vec<Transform> = got.into_iter().map(Transform::from).collect();
        assert_eq!(&got[..], s.rest_pose());
    }
}

/// `sinew_pose_blend_layers_additive` equals the core's `blend_layers_additive` bit for bit,
/// takes NULL arrays with counts of 0, and refuses an output that is a layer's pose or an
/// additive layer's delta (or a NaN additive weight), leaving it untouched.
#[test]
fn c_layers_with_additive_layers_match_the_core() {
    let CPair {
        s,
        la,
        a,
        b,
        mask,
        c_mask,
        h: mut handles,
        c: [ca, cb, out],
        ..
    } = c_pair();
    let mut delta = Pose::new(s.clone());
    delta.make_additive(&b, &a).unwrap();
    let cdelta = handles.pose(&la);
    let mut expected = Pose::new(s.clone());
    expected
        .blend_layers_additive(
            &[layer(&a, 0.4, None), layer(&b, 1.3, Some(&mask))],
            &[layer(&delta, 0.8, Some(&mask)), layer(&delta, -0.35, None)],
            0.1,
        )
        .unwrap();
    let c_layer = |pose, weight, mask| SinewBlendLayer { pose, weight, mask };
    let layers = [c_layer(ca, 0.4, ptr::null()), c_layer(cb, 1.3, c_mask)];
    let additive = [
        c_layer(cdelta, 0.8, c_mask),
        c_layer(cdelta, -0.35, ptr::null()),
    ];
    let blend = |layers: &[SinewBlendLayer], additive: &[SinewBlendLayer], out| {
        // SAFETY: live handles; the arrays hold their lengths.
        unsafe {
            sinew_pose_blend_layers_additive(
                layers.as_ptr(),
                layers.len() as u32,
                additive.as_ptr(),
                additive.len() as u32,
                0.1,
                out,
            )
        }
    };
    // SAFETY: live handles of the body skeleton.
    ok(unsafe { sinew_pose_make_additive(cb, ca, cdelta) });
    assert_eq!(c_bits(cdelta), bits(&delta));
    ok(blend(&layers, &additive, out));
    assert_eq!(c_bits(out), bits(&expected));

    for (bad, status) in [
        (cdelta, SinewStatus::InvalidArgument),
        (ca, SinewStatus::InvalidArgument),
    ] {
        let before = c_bits(bad);
        assert_eq!(blend(&layers, &additive, bad), status);
        assert_eq!(c_bits(bad), before);
    }
    let nan = [c_layer(cdelta, f32::NAN, ptr::null())];
    assert_eq!(blend(&layers, &nan, out), SinewStatus::NonFinite);
    assert_eq!(c_bits(out), bits(&expected));
    // SAFETY: NULL arrays with counts of 0, or a count with no array; a live output.
    unsafe {
        let s = sinew_pose_blend_layers_additive(layers.as_ptr(), 2, ptr::null(), 1, 0.1, out);
        assert_eq!(s, SinewStatus::NullPointer);
        assert_eq!(c_bits(out), bits(&expected));
        ok(sinew_pose_blend_layers_additive(
            ptr::null(),
            0,
            ptr::null(),
            0,
            0.1,
            out,
        ));
    }
    let mut rest = Pose::new(s.clone());
    rest.blend_layers(&[], 0.1).unwrap();
    assert_eq!(c_bits(out), bits(&rest));
}
