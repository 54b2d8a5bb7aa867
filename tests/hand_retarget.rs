//! Hand IK retargeting (Unreal's HandIKRetargeting): validity first (bad settings and inputs
//! change nothing), then the offset formula and which bones move, on model arrays and poses.

use std::f32::consts::PI;
use std::sync::Arc;

use proptest::prelude::*;
use sinew::{
    ErrorKind, HandIkRetargeting, HandIkRetargetingSettings, HandPair, Pose, Skeleton, Transform,
    Vec3,
};

mod common;

use common::chains::bits;
use common::props::config;
use common::rng::Rng;
use common::rotations::rot_between;

/// This file's random scenarios: the salt these cases had in tests/chain_ik.rs, so the
/// recorded seeds still describe the same scenarios.
fn seeded(seed: u64) -> Rng {
    Rng::salted(seed, 0x5DEE_CE66_D1A4_F87B)
}

fn retargeter(hand_fk_weight: f32, per_axis_alpha: Vec3) -> HandIkRetargeting {
    HandIkRetargeting::new(HandIkRetargetingSettings {
        hand_fk_weight,
        per_axis_alpha,
    })
    .unwrap()
}

#[test]
fn hand_retargeting_errors_write_nothing() {
    let r = retargeter(0.5, Vec3::ONE);
    let hands = HandPair {
        right_fk: 0,
        left_fk: 1,
        right_ik: 2,
        left_ik: 3,
    };
    let mut model = vec![Transform::from_translation(Vec3::X); 4];
    model[1].translation = Vec3::Y;
    let before = model.clone();
    let err = r.apply_model(&mut model, &hands, &[0, 4]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutOfRange);
    assert_eq!(model, before);
    let bad_hands = HandPair {
        left_ik: 9,
        ..hands
    };
    assert_eq!(
        r.apply_model(&mut model, &bad_hands, &[0])
            .unwrap_err()
            .kind(),
        ErrorKind::OutOfRange
    );
    assert_eq!(model, before);
    let mut nan = before.clone();
    nan[3].translation.z = f32::NAN;
    let nan_before = bits(&nan);
    assert_eq!(
        r.apply_model(&mut nan, &hands, &[0]).unwrap_err().kind(),
        ErrorKind::NonFinite
    );
    assert_eq!(bits(&nan), nan_before);

    let rest = vec![Transform::from_translation(Vec3::X); 4];
    let skeleton = Arc::new(Skeleton::new(&[-1, 0, 0, 2], &rest, None).unwrap());
    let mut pose = Pose::new(skeleton);
    pose.edit_local(1, |t| t.translation = Vec3::Z).unwrap();
    let before = pose.local().to_vec();
    assert_eq!(
        r.apply_pose(&mut pose, &hands, &[1, 2, 7])
            .unwrap_err()
            .kind(),
        ErrorKind::OutOfRange
    );
    assert_eq!(
        r.apply_pose(&mut pose, &bad_hands, &[1])
            .unwrap_err()
            .kind(),
        ErrorKind::OutOfRange
    );
    assert_eq!(pose.local(), &before[..]);

    let settings = |w, a| HandIkRetargetingSettings {
        hand_fk_weight: w,
        per_axis_alpha: a,
    };
    let kind = |s| HandIkRetargeting::new(s).unwrap_err().kind();
    assert_eq!(kind(settings(1.5, Vec3::ONE)), ErrorKind::InvalidArgument);
    assert_eq!(kind(settings(-0.1, Vec3::ONE)), ErrorKind::InvalidArgument);
    assert_eq!(
        kind(settings(0.5, Vec3::new(1.0, 2.0, 0.0))),
        ErrorKind::InvalidArgument
    );
    assert_eq!(kind(settings(f32::NAN, Vec3::ONE)), ErrorKind::NonFinite);
    assert_eq!(
        kind(settings(0.5, Vec3::new(0.0, f32::INFINITY, 0.0))),
        ErrorKind::NonFinite
    );
    let mut r = retargeter(0.25, Vec3::ONE);
    assert!(r.set_settings(settings(2.0, Vec3::ONE)).is_err());
    assert_eq!(r.settings().hand_fk_weight, 0.25);
}

proptest! {
    #![proptest_config(config(64))]

    /// offset = (lerp(left_fk, right_fk, w) - lerp(left_ik, right_ik, w)) * alpha; w = 0 reads
    /// only the left hands, w = 1 only the right ones.
    #[test]
    fn hand_offset_formula(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        let [rf, lf, ri, li] = [0; 4].map(|_| rng.vec3(50.0));
        let w = rng.range(0.0, 1.0);
        let alpha = Vec3::new(rng.unit_f32(), rng.unit_f32(), rng.unit_f32());
        let got = retargeter(w, alpha).offset(rf, lf, ri, li);
        let expected = (lf + (rf - lf) * w - (li + (ri - li) * w)) * alpha;
        prop_assert!((got - expected).length() <= 1e-4, "{got} vs {expected}");
        let other = rng.vec3(50.0);
        let left_only = retargeter(0.0, alpha);
        prop_assert_eq!(left_only.offset(rf, lf, ri, li), (lf - li) * alpha);
        prop_assert_eq!(left_only.offset(other, lf, -other, li), (lf - li) * alpha);
        let right_only = retargeter(1.0, alpha);
        prop_assert_eq!(right_only.offset(rf, lf, ri, li), (rf - ri) * alpha);
        prop_assert_eq!(right_only.offset(rf, other, ri, -other), (rf - ri) * alpha);
        prop_assert_eq!(retargeter(w, Vec3::ZERO).offset(rf, lf, ri, li), Vec3::ZERO);
    }

    /// apply_model moves each listed bone once (duplicates too) and nothing else; rotations and
    /// scales are untouched.
    #[test]
    fn hand_apply_model_moves_listed_bones_once(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        let model: Vec<Transform> = (0..8)
            .map(|_| Transform::new(rng.vec3(5.0), rng.rotation(PI), Vec3::splat(rng.range(0.5, 2.0))))
            .collect();
        let hands = HandPair { right_fk: 1, left_fk: 2, right_ik: 5, left_ik: 6 };
        let bones: Vec<u32> = (0..rng.index(6) + 1).map(|_| rng.index(8) as u32).collect();
        let r = retargeter(rng.unit_f32(), Vec3::new(1.0, rng.unit_f32(), 0.5));
        let expected_offset = r.offset(model[1].translation, model[2].translation, model[5].translation, model[6].translation);
        let mut out = model.clone();
        let offset = r.apply_model(&mut out, &hands, &bones).unwrap();
        prop_assert_eq!(offset, expected_offset);
        for (i, (a, b)) in model.iter().zip(&out).enumerate() {
            let moved = if bones.contains(&(i as u32)) { a.translation + offset } else { a.translation };
            prop_assert_eq!(b.translation, moved, "bone {} (list {:?})", i, &bones);
            prop_assert_eq!(b.rotation, a.rotation);
            prop_assert_eq!(b.scale, a.scale);
        }
    }

    /// apply_pose moves listed bones in model space and their descendants with them; a bone
    /// below a listed bone (or listed twice) moves once; rotations are untouched.
    #[test]
    fn hand_apply_pose_moves_subtrees_once(seed in any::<u64>()) {
        let mut rng = seeded(seed);
        // 0 root, 1 spine, 2 hand_r (FK), 3 hand_l (FK), 4 ik_hand_root, 5 ik_hand_gun,
        // 6 ik_hand_r, 7 ik_hand_l, 8 child of ik_hand_r.
        let parents = [-1, 0, 1, 1, 0, 4, 5, 5, 6];
        let rest: Vec<Transform> = (0..parents.len())
            .map(|_| Transform::new(rng.vec3(1.0), rng.rotation(PI), Vec3::splat(rng.range(0.8, 1.2))))
            .collect();
        let skeleton = Arc::new(Skeleton::new(&parents, &rest, None).unwrap());
        let mut pose = Pose::new(skeleton);
        let before = pose.model().unwrap().to_vec();
        let hands = HandPair { right_fk: 2, left_fk: 3, right_ik: 6, left_ik: 7 };
        let lists: [&[u32]; 5] = [&[5, 6, 7], &[6, 7, 5, 6], &[8, 6], &[6, 7], &[3, 3]];
        let bones = lists[rng.index(lists.len())];
        let r = retargeter(rng.unit_f32(), Vec3::ONE);
        let offset = r.apply_pose(&mut pose, &hands, bones).unwrap();
        let expected = r.offset(before[2].translation, before[3].translation, before[6].translation, before[7].translation);
        prop_assert!((offset - expected).length() <= 1e-5);
        let after = pose.model().unwrap().to_vec();
        let moves = |mut j: usize| loop {
            if bones.contains(&(j as u32)) { return true; }
            match parents[j] { -1 => return false, p => j = p as usize }
        };
        for j in 0..parents.len() {
            let want = if moves(j) { before[j].translation + offset } else { before[j].translation };
            prop_assert!((after[j].translation - want).length() <= 1e-4, "joint {} with list {:?}", j, bones);
            prop_assert!(rot_between(after[j].rotation, before[j].rotation) <= 1e-5);
        }
    }
}
