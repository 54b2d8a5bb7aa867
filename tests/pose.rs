//! Skeletons and poses. Validity first: bad parents, names, rest poses and local or model
//! transforms are refused with the right kind and leave the pose untouched.
//!
//! Then one model-space rule everywhere. A joint's model transform is its parent's model transform
//! composed with its local one, root first (README, "Poses and model space"): translation
//! `parent.t + parent.r · (parent.s ⊙ local.t)`, rotation `parent.r · local.r`, scale
//! `parent.s ⊙ local.s`. With a non-uniform scale above a rotation, composing from the joint
//! upward gives another answer, so every read, write and pose-level solve is checked here
//! against a forward kinematics written from that rule, on random skeletons with non-uniform
//! scales.

mod common;

use std::sync::Arc;

use common::ffi::{c_skeleton, ok};
use common::props::config;
use common::rng::Rng;
use common::rotations::same_rotation;
use common::solvers::{Kind, Solver};
use proptest::prelude::*;
use sinew::ffi::*;
use sinew::{
    CcdSettings, ChainTarget, ErrorKind, FabrikSettings, HandIkRetargeting,
    HandIkRetargetingSettings, HandPair, IkResult, Mat4, Pose, Quat, Skeleton, Skin, Transform,
    TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

// ------------------------------------------------------------------------------ validity

/// `Skeleton::new` refuses what the README calls an invalid skeleton (a parent that is not an
/// earlier joint, names that are empty or repeated) and non-finite or zero-rotation rest
/// transforms, each with its kind.
#[test]
fn invalid_skeletons_are_refused() {
    let rest = [Transform::IDENTITY; 3];
    for parents in [
        [-1, 2, 1],
        [-1, 1, 1],
        [0, 0, 1],
        [-1, -2, 1],
        [-1, i32::MIN, 1],
        [-1, 0, 3],
    ] {
        let e = Skeleton::new(&parents, &rest, None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidSkeleton, "parents {parents:?}");
    }
    let parents = [-1, 0, 1];
    for names in [["a", "b", "a"], ["a", "", "c"]] {
        let e = Skeleton::new(&parents, &rest, Some(&names)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidSkeleton, "names {names:?}");
    }
    let e = Skeleton::new(&parents, &rest[..2], None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);
    let mut bad = rest;
    bad[2].scale.y = f32::INFINITY;
    let e = Skeleton::new(&parents, &bad, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NonFinite);
    bad[2] = Transform {
        rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
        ..Transform::IDENTITY
    };
    let e = Skeleton::new(&parents, &bad, None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidArgument);
}

/// Local and model writes with the wrong count, a non-finite value, a zero rotation or a joint
/// out of range fail with that kind and leave every local transform as it was; reads of a joint
/// out of range fail too.
#[test]
fn pose_errors_leave_the_pose_untouched() {
    let mut rng = Rng::salted(1, SALT);
    let (parents, local) = random_rig(&mut rng);
    let n = parents.len();
    let mut pose = posed(&parents, &local);
    let before = pose.local().to_vec();
    let model = reference_model(&parents, &local);
    let mut nan = local.clone();
    nan[n - 1].translation.x = f32::NAN;
    let mut zero = model.clone();
    zero[n - 1].rotation = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    let writes: [(&str, Result<(), sinew::Error>, ErrorKind); 8] = [
        (
            "set_local short",
            pose.set_local(&local[..n - 1]),
            ErrorKind::SizeMismatch,
        ),
        ("set_local NaN", pose.set_local(&nan), ErrorKind::NonFinite),
        (
            "set_model short",
            pose.set_model(&model[1..]),
            ErrorKind::SizeMismatch,
        ),
        ("set_model NaN", pose.set_model(&nan), ErrorKind::NonFinite),
        (
            "set_model zero rotation",
            pose.set_model(&zero),
            ErrorKind::InvalidArgument,
        ),
        (
            "set_model_of out of range",
            pose.set_model_of(n, &model[0]),
            ErrorKind::OutOfRange,
        ),
        (
            "set_model_of NaN",
            pose.set_model_of(1, &nan[n - 1]),
            ErrorKind::NonFinite,
        ),
        (
            "set_model_of zero rotation",
            pose.set_model_of(n - 1, &zero[n - 1]),
            ErrorKind::InvalidArgument,
        ),
    ];
    for (what, result, kind) in writes {
        assert_eq!(result.map_err(|e| e.kind()), Err(kind), "{what}");
    }
    assert_eq!(pose.local(), &before[..]);
    assert_eq!(pose.model_of(n).unwrap_err().kind(), ErrorKind::OutOfRange);
    let mut out = vec![Transform::IDENTITY; n + 1];
    let e = pose.model_into(&mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);
}

// ------------------------------------------------------------------------------ the model-space rule

/// Salt for this file's scenarios (see [`Rng::salted`]).
const SALT: u64 = 0x6d6f_6465_6c72_756c;

/// Model transforms by the documented rule, root first, written without the library's
/// `Transform` arithmetic.
fn reference_model(parents: &[i32], local: &[Transform]) -> Vec<Transform> {
    let mut model: Vec<Transform> = Vec::with_capacity(local.len());
    for (&p, l) in parents.iter().zip(local) {
        let m = if p < 0 {
            *l
        } else {
            let parent = model[p as usize];
            Transform {
                translation: parent.translation + parent.rotation * (parent.scale * l.translation),
                rotation: parent.rotation * l.rotation,
                scale: parent.scale * l.scale,
            }
        };
        model.push(m);
    }
    model
}

/// Whether two transforms agree within `eps`, relative to the translation's magnitude.
fn close(a: &Transform, b: &Transform, eps: f32) -> bool {
    let size = 1.0 + a.translation.length().max(b.translation.length());
    a.translation.abs_diff_eq(b.translation, eps * size)
        && same_rotation(a.rotation, b.rotation, eps)
        && a.scale.abs_diff_eq(b.scale, eps * (1.0 + a.scale.length()))
}

fn assert_close(what: &str, got: &Transform, want: &Transform, eps: f32) {
    assert!(
        close(got, want, eps),
        "{what}: {got:?}\n  expected {want:?}"
    );
}

/// A random skeleton of 2 to 12 joints (parents first, possibly several roots) and a posed
/// set of local transforms with non-uniform scales and arbitrary rotations. Half the joints
/// continue the previous one, so chains run deep (the rule shows from three joints down).
fn random_rig(rng: &mut Rng) -> (Vec<i32>, Vec<Transform>) {
    let n = 2 + rng.index(11);
    let parents: Vec<i32> = (0..n)
        .map(|i| {
            if i > 0 && rng.chance(0.5) {
                i as i32 - 1
            } else {
                rng.index(i + 1) as i32 - 1
            }
        })
        .collect();
    let local = (0..n)
        .map(|_| {
            let scale = Vec3::new(
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
                rng.range(0.5, 2.0),
            );
            Transform::new(rng.vec3(1.0), rng.rotation(std::f32::consts::PI), scale)
        })
        .collect();
    (parents, local)
}

/// The path from `joint` up to its root, joint first.
fn path_up(parents: &[i32], joint: usize) -> Vec<usize> {
    let mut path = vec![joint];
    while let Ok(p) = usize::try_from(parents[*path.last().unwrap()]) {
        path.push(p);
    }
    path
}

/// A pose of a fresh skeleton of `parents`, set to `local`.
fn posed(parents: &[i32], local: &[Transform]) -> Pose {
    let skeleton = Arc::new(Skeleton::new(parents, local, None).expect("valid skeleton"));
    let mut pose = Pose::new(skeleton);
    pose.set_local(local).expect("valid locals");
    pose
}

/// A C ABI pose of `parents` set to `local`, with its skeleton; the caller destroys both.
fn ffi_pose(parents: &[i32], local: &[Transform]) -> (*mut SinewSkeleton, *mut SinewPose) {
    let rest: Vec<SinewTransform> = local.iter().map(|&t| t.into()).collect();
    let skeleton = c_skeleton(parents, &rest);
    let mut pose = std::ptr::null_mut();
    // SAFETY: a live skeleton; `rest` holds `parents.len()` items; the out-pointer is a local.
    unsafe {
        let n = parents.len() as u32;
        ok(sinew_pose_create(skeleton, &mut pose));
        ok(sinew_pose_set_local(pose, rest.as_ptr(), n));
    }
    (skeleton, pose)
}

/// Every model-space read of the C ABI: the whole pose (mutable, then const), then each
/// joint alone; the two whole-pose reads must agree bit for bit.
fn ffi_reads(pose: *mut SinewPose, n: usize) -> (Vec<Transform>, Vec<Transform>) {
    let mut all = vec![SinewTransform::default(); n];
    let mut computed = vec![SinewTransform::default(); n];
    let mut one = SinewTransform::default();
    // SAFETY: a live pose of `n` joints and buffers of `n` transforms.
    unsafe {
        ok(sinew_pose_get_model(pose, all.as_mut_ptr(), n as u32));
        ok(sinew_pose_compute_model(
            pose,
            computed.as_mut_ptr(),
            n as u32,
        ));
        assert_eq!(all, computed, "sinew_pose_compute_model");
        let each = (0..n)
            .map(|j| {
                ok(sinew_pose_get_model_transform(pose, j as u32, &mut one));
                one.into()
            })
            .collect();
        (all.into_iter().map(Into::into).collect(), each)
    }
}

/// The issue's example: a chain of three joints one unit apart, the root scaled (2, 1, 1)
/// and joint 1 turned 90 degrees about Z. Joint 2 is at (3, 2, 0) by the rule: the root's
/// scale stretches joint 1's offset to (2, 0, 0), and joint 2's offset, scaled by (2, 1, 1)
/// first and turned by joint 1's model rotation, becomes (0, 2, 0).
#[test]
fn the_issue_example_reads_and_writes_by_one_rule() {
    let parents = [-1, 0, 1];
    let mut local = [Transform::from_translation(Vec3::X); 3];
    local[0].scale = Vec3::new(2.0, 1.0, 1.0);
    local[1].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let (skeleton, pose) = ffi_pose(&parents, &local);
    let (all, each) = ffi_reads(pose, 3);
    let want = Vec3::new(3.0, 2.0, 0.0);
    assert!(all[2].translation.abs_diff_eq(want, 1e-6), "{all:?}");
    assert!(each[2].translation.abs_diff_eq(want, 1e-6), "{each:?}");
    assert_eq!(
        all, each,
        "one joint's read equals the whole pose's, bit for bit"
    );

    // Set joint 2 somewhere with a non-uniform scale of its own; reading it back gives it.
    let target = Transform::new(
        Vec3::new(0.5, -1.0, 2.0),
        Quat::from_rotation_x(0.7),
        Vec3::new(1.5, 0.5, 1.0),
    );
    let sinew_target: SinewTransform = target.into();
    // SAFETY: a live pose and a local transform.
    let st = unsafe { sinew_pose_set_model_transform(pose, 2, &sinew_target) };
    ok(st);
    let (all, each) = ffi_reads(pose, 3);
    assert_close("get_model after set", &all[2], &target, 1e-5);
    assert_close("get_model_transform after set", &each[2], &target, 1e-5);
    assert_eq!(all, each);
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_pose_destroy(pose);
        sinew_skeleton_destroy(skeleton);
    }
}

/// One random rig: its skeleton, local transforms, and model transforms by the reference
/// rule and as `Pose::model` gives them (the input of the model-space solves, which may be
/// ill-conditioned enough that the last bits matter).
struct Scenario {
    parents: Vec<i32>,
    local: Vec<Transform>,
    model: Vec<Transform>,
    pose_model: Vec<Transform>,
}

impl Scenario {
    fn new(seed: u64) -> (Self, Rng) {
        let mut rng = Rng::salted(seed, SALT);
        let (parents, local) = random_rig(&mut rng);
        let model = reference_model(&parents, &local);
        let pose_model = posed(&parents, &local).model().unwrap().to_vec();
        (
            Self {
                parents,
                local,
                model,
                pose_model,
            },
            rng,
        )
    }

    fn n(&self) -> usize {
        self.parents.len()
    }

    /// Model transforms of `pose` by the reference rule.
    fn model_of_pose(&self, pose: &Pose) -> Vec<Transform> {
        reference_model(&self.parents, &pose.local().to_vec())
    }

    /// A random chain of `len` joints ending at a random joint deep enough, root first.
    fn chain(&self, rng: &mut Rng, len: usize) -> Option<Vec<usize>> {
        let deep: Vec<usize> = (0..self.n())
            .filter(|&j| path_up(&self.parents, j).len() >= len)
            .collect();
        let tip = *deep.get(rng.index(deep.len().max(1)))?;
        let mut chain = path_up(&self.parents, tip);
        chain.truncate(len);
        chain.reverse();
        Some(chain)
    }

    /// A target near the chain's root, within about the chain's reach.
    fn target(&self, rng: &mut Rng, chain: &[usize]) -> Vec3 {
        let reach: f32 = chain
            .windows(2)
            .map(|w| (self.model[w[1]].translation - self.model[w[0]].translation).length())
            .sum();
        rng.in_ball(self.model[chain[0]].translation, reach.max(0.1) * 1.1)
    }

    /// The model transform of the chain root's parent, identity for a root.
    fn root_parent(&self, chain: &[usize]) -> Transform {
        usize::try_from(self.parents[chain[0]]).map_or(Transform::IDENTITY, |p| self.pose_model[p])
    }
}

fn reads_follow_the_rule(seed: u64) {
    let (s, _) = Scenario::new(seed);
    let mut pose = posed(&s.parents, &s.local);
    let model = pose.model().unwrap().to_vec();
    for (j, (got, want)) in model.iter().zip(&s.model).enumerate() {
        assert_close(&format!("Pose::model joint {j}"), got, want, 1e-5);
        assert_eq!(pose.model_of(j).unwrap(), *got, "Pose::model_of({j})");
    }
    let shared: &Pose = &pose;
    let mut into = vec![Transform::IDENTITY; s.n()];
    shared.model_into(&mut into).unwrap();
    assert_eq!(into, model, "Pose::model_into");
    let (skeleton, ffi) = ffi_pose(&s.parents, &s.local);
    let (all, each) = ffi_reads(ffi, s.n());
    assert_eq!(all, model, "sinew_pose_get_model");
    assert_eq!(each, model, "sinew_pose_get_model_transform");
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_pose_destroy(ffi);
        sinew_skeleton_destroy(skeleton);
    }
}

fn writes_invert_the_rule(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    for j in 0..s.n() {
        let mut pose = posed(&s.parents, &s.local);
        let scale = Vec3::new(
            rng.range(0.5, 2.0),
            rng.range(0.5, 2.0),
            rng.range(0.5, 2.0),
        );
        let target = Transform::new(rng.vec3(3.0), rng.rotation(3.0), scale);
        pose.set_model_of(j, &target).unwrap();
        let after = s.model_of_pose(&pose);
        assert_close(
            &format!("set_model_of({j}) then FK"),
            &after[j],
            &target,
            1e-4,
        );
        assert_close(
            &format!("set_model_of({j}) then model_of"),
            &pose.model_of(j).unwrap(),
            &target,
            1e-4,
        );
        // Ancestors and unrelated joints do not move; the rest of the pose is as before.
        for k in (0..s.n()).filter(|&k| !path_up(&s.parents, k).contains(&j)) {
            assert_eq!(after[k], s.model[k], "joint {k} moved when {j} was set");
        }
    }
}

impl Scenario {
    /// A pose-level solve (`got` on `pose`) agrees with the model-space solve of its `chain`
    /// (`want`, solving `solved`): the same error, and every chain joint where it put it.
    fn assert_pose_solve(
        &self,
        name: &str,
        (pose, got): (&Pose, IkResult),
        chain: &[usize],
        (solved, want): (&[Transform], IkResult),
    ) {
        assert!(
            (got.error - want.error).abs() <= 1e-4,
            "{name}: {got:?} vs {want:?}"
        );
        let after = self.model_of_pose(pose);
        for (k, &j) in chain.iter().enumerate() {
            assert_close(&format!("{name} joint {j}"), &after[j], &solved[k], 1e-4);
        }
    }
}

fn two_bone_pose_solve_is_the_model_solve(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    let Some(chain) = s.chain(&mut rng, 3) else {
        return;
    };
    let settings = TwoBoneIkSettings {
        allow_stretching: rng.chance(0.5),
        ..TwoBoneIkSettings::default()
    };
    let ik = TwoBoneIk::new(settings).unwrap();
    let target = TwoBoneTarget::at(s.target(&mut rng, &chain));
    let mut model_chain = [chain[0], chain[1], chain[2]].map(|j| s.pose_model[j]);
    let want = ik.solve(&mut model_chain, &target).unwrap();
    let mut pose = posed(&s.parents, &s.local);
    let joints = [chain[0] as u32, chain[1] as u32, chain[2] as u32];
    let got = ik.solve_pose(&mut pose, joints, &target).unwrap();
    s.assert_pose_solve("two-bone", (&pose, got), &chain, (&model_chain, want));
}

fn chain_pose_solves_are_the_model_solves(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    let len = 2 + rng.index(4);
    let Some(chain) = s.chain(&mut rng, len).or_else(|| s.chain(&mut rng, 2)) else {
        return;
    };
    let target = ChainTarget::at(s.target(&mut rng, &chain));
    let joints: Vec<u32> = chain.iter().map(|&j| j as u32).collect();
    let root_parent = s.root_parent(&chain).rotation;
    for kind in Kind::ALL {
        let mut model_chain: Vec<Transform> = chain.iter().map(|&j| s.pose_model[j]).collect();
        let mut pose = posed(&s.parents, &s.local);
        let defaults = (FabrikSettings::default(), CcdSettings::default());
        let mut solver = Solver::of(kind, defaults.0, defaults.1, 16);
        let want = solver
            .solve(&mut model_chain, root_parent, &target)
            .unwrap();
        let got = solver.solve_pose(&mut pose, &joints, &target).unwrap();
        let name = solver.name();
        s.assert_pose_solve(name, (&pose, got), &chain, (&model_chain, want));
    }
}

fn hand_retargeting_pose_is_the_model(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    let n = s.n();
    let mut pick = || rng.index(n) as u32;
    let hands = HandPair {
        right_fk: pick(),
        left_fk: pick(),
        right_ik: pick(),
        left_ik: pick(),
    };
    let bones: Vec<u32> = (0..1 + rng.index(3)).map(|_| rng.index(n) as u32).collect();
    let settings = HandIkRetargetingSettings {
        hand_fk_weight: rng.unit_f32(),
        ..HandIkRetargetingSettings::default()
    };
    let retarget = HandIkRetargeting::new(settings).unwrap();
    let mut model = s.pose_model.clone();
    let want = retarget.apply_model(&mut model, &hands, &bones).unwrap();
    let mut pose = posed(&s.parents, &s.local);
    let got = retarget.apply_pose(&mut pose, &hands, &bones).unwrap();
    assert!(got.abs_diff_eq(want, 1e-4), "offset {got} vs {want}");
    let after = s.model_of_pose(&pose);
    for &b in &bones {
        let b = b as usize;
        assert_close(&format!("bone {b}"), &after[b], &model[b], 1e-4);
    }
}

/// Each property a proptest of its own, over random scenario seeds.
macro_rules! seeded_properties {
    ($($test:ident => $property:ident,)*) => {
        proptest! {
            #![proptest_config(config(256))]
            $(
                #[test]
                fn $test(seed in any::<u64>()) {
                    $property(seed);
                }
            )*
        }
    };
}

seeded_properties! {
    model_reads_follow_the_rule => reads_follow_the_rule,
    model_writes_invert_the_rule => writes_invert_the_rule,
    two_bone_solve_pose_agrees_with_the_model_space_solve => two_bone_pose_solve_is_the_model_solve,
    chain_solve_pose_agrees_with_the_model_space_solve => chain_pose_solves_are_the_model_solves,
    hand_retargeting_apply_pose_agrees_with_apply_model => hand_retargeting_pose_is_the_model,
}

// ------------------------------------------------------------------------------ matrices and skins

/// `Skin::new` refuses what its documentation lists (no entries, counts that differ, a joint
/// out of range or listed twice, a non-finite inverse bind), each with its kind; the palette
/// refuses a pose of another joint count and a buffer of the wrong length, writing nothing.
#[test]
fn invalid_skins_and_palette_buffers_are_refused() {
    let (parents, local) = ([-1, 0, 1], [Transform::from_translation(Vec3::Y); 3]);
    let skeleton = Skeleton::new(&parents, &local, None).unwrap();
    let id = [Mat4::IDENTITY; 3];
    let kind = |joints: Option<&[u32]>, binds: &[Mat4]| {
        Skin::new(&skeleton, joints, binds).unwrap_err().kind()
    };
    assert_eq!(kind(Some(&[]), &[]), ErrorKind::InvalidArgument);
    assert_eq!(kind(None, &[]), ErrorKind::InvalidArgument);
    assert_eq!(kind(None, &id[..2]), ErrorKind::SizeMismatch);
    assert_eq!(kind(Some(&[0, 1]), &id), ErrorKind::SizeMismatch);
    assert_eq!(kind(Some(&[0, 3]), &id[..2]), ErrorKind::OutOfRange);
    assert_eq!(kind(Some(&[2, 1, 2]), &id), ErrorKind::InvalidArgument);
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut binds = id;
        binds[1].w_axis.y = bad;
        assert_eq!(kind(None, &binds), ErrorKind::NonFinite);
    }
    let skin = Skin::new(&skeleton, Some(&[2, 0]), &id[..2]).unwrap();
    assert_eq!((skin.joint_count(), skin.joints()), (2, &[2u32, 0][..]));
    let sentinel = Mat4::from_cols_array(&[7.0; 16]);
    let mut out = [sentinel; 3];
    let pose = posed(&parents, &local);
    let e = pose.skinning_palette_into(&skin, &mut out).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);
    let e = pose.model_matrices_into(&mut out[..2]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);
    let other = posed(&[-1, 0], &local[..2]);
    let e = other
        .skinning_palette_into(&skin, &mut out[..2])
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::SizeMismatch);
    assert_eq!(out, [sentinel; 3]);
}

/// The matrix of a transform as the documentation writes it (README, "Poses and model space"):
/// rotation columns scaled per axis, translation in the last column, in f64, column-major.
fn reference_matrix(t: &Transform) -> [f64; 16] {
    let [x, y, z, w] = t.rotation.to_array().map(f64::from);
    let [sx, sy, sz] = t.scale.to_array().map(f64::from);
    let [tx, ty, tz] = t.translation.to_array().map(f64::from);
    [
        sx * (1.0 - 2.0 * (y * y + z * z)),
        sx * 2.0 * (x * y + w * z),
        sx * 2.0 * (x * z - w * y),
        0.0,
        sy * 2.0 * (x * y - w * z),
        sy * (1.0 - 2.0 * (x * x + z * z)),
        sy * 2.0 * (y * z + w * x),
        0.0,
        sz * 2.0 * (x * z + w * y),
        sz * 2.0 * (y * z - w * x),
        sz * (1.0 - 2.0 * (x * x + y * y)),
        0.0,
        tx,
        ty,
        tz,
        1.0,
    ]
}

/// `a · b` of column-major 4×4 matrices.
fn reference_mul(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    std::array::from_fn(|i| {
        let (row, col) = (i % 4, i / 4);
        (0..4).map(|k| a[4 * k + row] * b[4 * col + k]).sum()
    })
}

fn assert_matrix_close(what: &str, got: &Mat4, want: &[f64; 16], eps: f64) {
    let got = got.to_cols_array();
    let size = 1.0 + want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(g) - w).abs() <= eps * size,
            "{what}: entry {i} (row {}, column {}) is {g}, expected {w}",
            i % 4,
            i / 4
        );
    }
}

/// The C ABI's model matrices of `pose` (`n` joints), as the core's type.
fn ffi_matrices(pose: *const SinewPose, n: usize) -> Vec<Mat4> {
    let mut out = vec![SinewMat4::default(); n];
    // SAFETY: a live pose of `n` joints and a buffer of `n` matrices.
    ok(unsafe { sinew_pose_compute_model_matrices(pose, out.as_mut_ptr(), n as u32) });
    out.into_iter().map(Into::into).collect()
}

/// The issue's example as matrices: joint 2's matrix is the matrix of its model transform,
/// translation (3, 2, 0), and not the product of the local matrices, which shears it (the
/// root's (2, 1, 1) scale acts on joint 1's rotated axes) and puts joint 2 at (3, 1, 0).
#[test]
fn matrices_are_of_the_composed_transform_not_products_of_local_ones() {
    let parents = [-1, 0, 1];
    let mut local = [Transform::from_translation(Vec3::X); 3];
    local[0].scale = Vec3::new(2.0, 1.0, 1.0);
    local[1].rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let pose = posed(&parents, &local);
    let mut m = [Mat4::ZERO; 3];
    pose.model_matrices_into(&mut m).unwrap();
    assert!(m[2]
        .w_axis
        .abs_diff_eq(glam::Vec4::new(3.0, 2.0, 0.0, 1.0), 1e-6));
    let product = local
        .iter()
        .fold(Mat4::IDENTITY, |acc, l| acc * l.to_matrix());
    assert!(product
        .w_axis
        .abs_diff_eq(glam::Vec4::new(3.0, 1.0, 0.0, 1.0), 1e-6));
    // Joint 1's model rotation is 90° about Z with scale (2, 1, 1) after it: no shear.
    assert!(m[1]
        .x_axis
        .abs_diff_eq(glam::Vec4::new(0.0, 2.0, 0.0, 0.0), 1e-6));
    assert!(m[1]
        .y_axis
        .abs_diff_eq(glam::Vec4::new(-1.0, 0.0, 0.0, 0.0), 1e-6));
}

/// The model matrices as the documentation composes them (README, "Model matrices and
/// skinning palettes"): rotation matrices multiplied down the hierarchy, scales kept apart,
/// each f32 operation in the documented order.
fn reference_composed_matrices(parents: &[i32], local: &[Transform]) -> Vec<Mat4> {
    // A frame: rotation matrix r[row][column], scale, translation.
    type Frame = ([[f32; 3]; 3], [f32; 3], [f32; 3]);
    let identity: Frame = (
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        [1.0; 3],
        [0.0; 3],
    );
    let mut frames: Vec<Frame> = Vec::with_capacity(local.len());
    let mut out = Vec::with_capacity(local.len());
    for (&p, l) in parents.iter().zip(local) {
        let (rp, sp, tp) = usize::try_from(p).map_or(identity, |p| frames[p]);
        let [x, y, z, w] = l.rotation.to_array();
        let (xx, yy, zz) = (x * x, y * y, z * z);
        let (xy, xz, yz, wx, wy, wz) = (x * y, x * z, y * z, w * x, w * y, w * z);
        let lm = [
            [1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)],
            [2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)],
            [2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)],
        ];
        let r: [[f32; 3]; 3] = std::array::from_fn(|row| {
            std::array::from_fn(|c| {
                rp[row][0] * lm[0][c] + rp[row][1] * lm[1][c] + rp[row][2] * lm[2][c]
            })
        });
        let (ls, lt) = (l.scale.to_array(), l.translation.to_array());
        let s: [f32; 3] = std::array::from_fn(|i| sp[i] * ls[i]);
        let v: [f32; 3] = std::array::from_fn(|i| sp[i] * lt[i]);
        let t: [f32; 3] = std::array::from_fn(|row| {
            tp[row] + rp[row][0] * v[0] + rp[row][1] * v[1] + rp[row][2] * v[2]
        });
        frames.push((r, s, t));
        out.push(Mat4::from_cols_array(&[
            r[0][0] * s[0],
            r[1][0] * s[0],
            r[2][0] * s[0],
            0.0,
            r[0][1] * s[1],
            r[1][1] * s[1],
            r[2][1] * s[1],
            0.0,
            r[0][2] * s[2],
            r[1][2] * s[2],
            r[2][2] * s[2],
            0.0,
            t[0],
            t[1],
            t[2],
            1.0,
        ]));
    }
    out
}

fn matrices_follow_the_rule(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    let pose = posed(&s.parents, &s.local);
    let mut matrices = vec![Mat4::ZERO; s.n()];
    pose.model_matrices_into(&mut matrices).unwrap();
    let composed = reference_composed_matrices(&s.parents, &pose.local().to_vec());
    for (j, (m, model)) in matrices.iter().zip(&s.model).enumerate() {
        // The matrix of the model transform, to rounding.
        assert_matrix_close(&format!("joint {j}"), m, &reference_matrix(model), 1e-5);
        // The documented composition, bit for bit.
        let bits = |m: &Mat4| m.to_cols_array().map(f32::to_bits);
        assert_eq!(bits(m), bits(&composed[j]), "joint {j}");
        let p = rng.vec3(2.0);
        let moved = m.transform_point3(p);
        let want = s.model[j].translation + s.model[j].rotation * (s.model[j].scale * p);
        assert!(moved.abs_diff_eq(want, 1e-4 * (1.0 + want.length())));
    }
    let (skeleton, ffi) = ffi_pose(&s.parents, &s.local);
    assert_eq!(ffi_matrices(ffi, s.n()), matrices, "C ABI");
    // SAFETY: live handles, destroyed once.
    unsafe {
        sinew_pose_destroy(ffi);
        sinew_skeleton_destroy(skeleton);
    }
}

/// A random skin of the scenario's skeleton bound at its rest pose (`s.local`): some joints in
/// a shuffled order, or all of them in order (`None`), each with the inverse of its bind-time
/// model matrix.
fn random_skin(s: &Scenario, rng: &mut Rng) -> (Option<Vec<u32>>, Vec<Mat4>) {
    let mut joints: Vec<u32> = (0..s.n() as u32).collect();
    let all = rng.chance(0.3);
    if !all {
        for i in (1..joints.len()).rev() {
            joints.swap(i, rng.index(i + 1));
        }
        joints.truncate(1 + rng.index(s.n()));
    }
    let binds = joints
        .iter()
        .map(|&j| s.pose_model[j as usize].to_matrix().inverse())
        .collect();
    ((!all).then_some(joints), binds)
}

fn palettes_follow_the_rule(seed: u64) {
    let (s, mut rng) = Scenario::new(seed);
    let (joints, binds) = random_skin(&s, &mut rng);
    let skeleton = Skeleton::new(&s.parents, &s.local, None).unwrap();
    let skin = Skin::new(&skeleton, joints.as_deref(), &binds).unwrap();
    let entry_joint = |k: usize| joints.as_ref().map_or(k, |j| j[k] as usize);
    // At the bind pose every entry is the identity (to rounding).
    let mut pose = posed(&s.parents, &s.local);
    let mut palette = vec![Mat4::ZERO; skin.joint_count()];
    pose.skinning_palette_into(&skin, &mut palette).unwrap();
    let identity = Mat4::IDENTITY.to_cols_array().map(f64::from);
    for (k, p) in palette.iter().enumerate() {
        assert_matrix_close(&format!("bind pose entry {k}"), p, &identity, 1e-4);
    }
    // Posed: model · inverse bind, by the reference rule.
    for j in 0..s.n() {
        pose.edit_local(j, |l| {
            l.rotation = (rng.rotation(1.0) * l.rotation).normalize();
            l.translation += rng.vec3(0.5);
        })
        .unwrap();
    }
    pose.skinning_palette_into(&skin, &mut palette).unwrap();
    let model = s.model_of_pose(&pose);
    let mut matrices = vec![Mat4::ZERO; s.n()];
    pose.model_matrices_into(&mut matrices).unwrap();
    for (k, p) in palette.iter().enumerate() {
        let j = entry_joint(k);
        let bind = binds[k].to_cols_array().map(f64::from);
        let want = reference_mul(&reference_matrix(&model[j]), &bind);
        assert_matrix_close(&format!("entry {k} (joint {j})"), p, &want, 1e-4);
        // The model matrix the pose gives, times the inverse bind (to rounding).
        let product = matrices[j] * binds[k];
        let size = product
            .to_cols_array()
            .iter()
            .fold(1.0f32, |m, x| m.max(x.abs()));
        assert!(p.abs_diff_eq(product, 1e-5 * size));
    }
    // The C ABI: the same bits.
    let (c_skeleton, ffi) = ffi_pose(&s.parents, &s.local);
    let c_binds: Vec<SinewMat4> = binds.iter().map(|&m| m.into()).collect();
    let c_joints = joints.as_ref().map_or(std::ptr::null(), |j| j.as_ptr());
    let local: Vec<SinewTransform> = pose.local().iter().map(|t| t.into()).collect();
    let mut skin_handle = std::ptr::null_mut();
    let mut out = vec![SinewMat4::default(); palette.len()];
    let (count, mut reported) = (palette.len() as u32, 0u32);
    // SAFETY: live handles; buffers of the counts passed; handles destroyed once.
    unsafe {
        ok(sinew_skin_create(
            c_skeleton,
            c_joints,
            c_binds.as_ptr(),
            count,
            &mut skin_handle,
        ));
        ok(sinew_skin_joint_count(skin_handle, &mut reported));
        assert_eq!(reported, count);
        ok(sinew_pose_set_local(ffi, local.as_ptr(), s.n() as u32));
        ok(sinew_pose_compute_skinning_palette(
            ffi,
            skin_handle,
            out.as_mut_ptr(),
            count,
        ));
        sinew_skin_destroy(skin_handle);
        sinew_pose_destroy(ffi);
        sinew_skeleton_destroy(c_skeleton);
    }
    let out: Vec<Mat4> = out.into_iter().map(Into::into).collect();
    assert_eq!(out, palette, "C ABI");
}

/// Model matrices follow the documented composition bit for bit in any joint order: parents
/// kept for later children (depth first, interleaved chains, breadth first) and parents more
/// than the pass keeps at once (each joint the child of the one 100 before), skeletons of
/// every length modulo four; palettes are those matrices times the inverse binds.
#[test]
fn matrices_follow_the_rule_in_any_joint_order() {
    let mut rng = Rng::salted(7, SALT);
    let n = 301;
    let depth_first: Vec<i32> = {
        let mut spine = -1;
        (0..n as i32)
            .map(|i| {
                let p = spine;
                if i % 3 != 2 {
                    spine = i;
                }
                p
            })
            .collect()
    };
    let star: Vec<i32> = (0..n as i32).map(|i| (i - 1).min(0)).collect();
    let interleaved: Vec<i32> = (0..n as i32).map(|i| (i - 2).max(-1)).collect();
    let far: Vec<i32> = (0..n as i32).map(|i| (i - 100).max(-1)).collect();
    let breadth_first: Vec<i32> = (0..n as i32)
        .map(|i| if i == 0 { -1 } else { (i - 1) / 3 })
        .collect();
    for parents in [depth_first, star, interleaved, far, breadth_first] {
        for len in [n - 3, n - 2, n - 1, n] {
            let parents = &parents[..len];
            let local: Vec<Transform> = (0..len)
                .map(|_| {
                    let scale = Vec3::new(rng.range(0.9, 1.1), rng.range(0.9, 1.1), 1.0);
                    Transform::new(rng.vec3(1.0), rng.rotation(0.5), scale)
                })
                .collect();
            let pose = posed(parents, &local);
            let mut matrices = vec![Mat4::ZERO; len];
            pose.model_matrices_into(&mut matrices).unwrap();
            let want = reference_composed_matrices(parents, &pose.local().to_vec());
            let bits = |m: &[Mat4]| -> Vec<[u32; 16]> {
                m.iter()
                    .map(|m| m.to_cols_array().map(f32::to_bits))
                    .collect()
            };
            assert_eq!(bits(&matrices), bits(&want), "{len} joints");
            let skeleton = Skeleton::new(parents, &local, None).unwrap();
            let binds: Vec<Mat4> = (0..len)
                .map(|j| Mat4::from_translation(Vec3::splat(j as f32)))
                .collect();
            let skin = Skin::new(&skeleton, None, &binds).unwrap();
            let mut palette = vec![Mat4::ZERO; len];
            pose.skinning_palette_into(&skin, &mut palette).unwrap();
            for (j, p) in palette.iter().enumerate() {
                assert_eq!(*p, want[j] * binds[j], "palette entry {j}");
            }
        }
    }
}

/// Finite poses whose matrices or palette entries leave f32's range fail with
/// NUMERIC_OVERFLOW and write nothing; huge ones that stay inside it pass the checking pass.
#[test]
fn matrix_and_palette_overflow_writes_nothing() {
    let parents = [-1, 0, 1];
    let local = [Transform::from_translation(Vec3::X); 3];
    let skeleton = Skeleton::new(&parents, &local, None).unwrap();
    let mut pose = posed(&parents, &local);
    let sentinel = Mat4::from_cols_array(&[7.0; 16]);
    let huge_bind = Mat4::from_scale(Vec3::splat(1e30));
    let skin = Skin::new(&skeleton, Some(&[2]), &[huge_bind]).unwrap();
    let mut palette = [sentinel];
    let mut matrices = [sentinel; 3];
    // Fine: translations near 1e37, inside the range though past the cheap bound.
    pose.edit_local(0, |t| t.scale = Vec3::splat(1e37)).unwrap();
    pose.model_matrices_into(&mut matrices).unwrap();
    assert!(matrices[2].w_axis.x > 1e37 && matrices.iter().all(|m| m.is_finite()));
    // The palette entry: 1e37 · 1e30 overflows.
    let e = pose.skinning_palette_into(&skin, &mut palette).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NumericOverflow);
    assert_eq!(palette, [sentinel]);
    // A finite model scale whose matrix entry overflows (rounding above 1 in the rotation).
    pose.edit_local(0, |t| t.scale = Vec3::splat(f32::MAX))
        .unwrap();
    pose.edit_local(0, |t| t.rotation = Quat::from_rotation_z(0.7))
        .unwrap();
    let mut matrices = [sentinel; 3];
    match pose.model_matrices_into(&mut matrices) {
        Ok(()) => assert!(matrices.iter().all(|m| m.is_finite())),
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::NumericOverflow);
            assert_eq!(matrices, [sentinel; 3]);
        }
    }
    // Model translations overflow.
    pose.edit_local(0, |t| t.rotation = Quat::IDENTITY).unwrap();
    pose.edit_local(1, |t| t.translation = Vec3::new(3e38, 0.0, 0.0))
        .unwrap();
    pose.edit_local(2, |t| t.translation = Vec3::new(3e38, 0.0, 0.0))
        .unwrap();
    let e = pose.model_matrices_into(&mut matrices).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NumericOverflow);
    assert_eq!(matrices, [sentinel; 3]);
    let e = pose.skinning_palette_into(&skin, &mut palette).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NumericOverflow);
    assert_eq!(palette, [sentinel]);
}

seeded_properties! {
    model_matrices_follow_the_rule => matrices_follow_the_rule,
    skinning_palettes_follow_the_rule => palettes_follow_the_rule,
}

/// The pose's joint-by-joint view and edits over its blocks of four joints: every joint count
/// around a block boundary, edits checked like `set_local`, errors leaving the pose untouched.
#[test]
fn local_view_and_edits_cover_every_joint_of_a_partial_block() {
    for n in 1..=9usize {
        let parents: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
        let rest: Vec<Transform> = (0..n)
            .map(|i| Transform::from_translation(Vec3::new(i as f32, 0.0, 0.0)))
            .collect();
        let s = Arc::new(Skeleton::new(&parents, &rest, None).unwrap());
        let mut pose = Pose::new(s.clone());
        assert_eq!(pose.local(), rest);
        assert_eq!(pose.local().len(), n);
        // A non-unit rotation comes back renormalized, as from set_local.
        let last = n - 1;
        let q = Quat::from_xyzw(0.0, 0.0, 2.0, 2.0);
        pose.edit_local(last, |t| t.rotation = q).unwrap();
        let mut whole = Pose::new(s.clone());
        let mut all = rest.clone();
        all[last].rotation = q;
        whole.set_local(&all).unwrap();
        assert_eq!(pose.local(), whole.local());
        assert!((pose.local().get(last).rotation.length() - 1.0).abs() < 1e-6);
        let mut copied = vec![Transform::IDENTITY; n];
        pose.local_into(&mut copied).unwrap();
        assert_eq!(copied, pose.local().to_vec());
        // Bad edits: nothing changes.
        let before = pose.local().to_vec();
        let err = pose.edit_local(last, |t| t.scale.x = f32::NAN).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NonFinite);
        let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
        let err = pose.edit_local(0, |t| t.rotation = zero).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidArgument);
        assert_eq!(
            pose.edit_local(n, |_| {}).unwrap_err().kind(),
            ErrorKind::OutOfRange
        );
        assert_eq!(pose.local(), before);
        assert_eq!(
            pose.local_into(&mut copied[..n - 1]).unwrap_err().kind(),
            ErrorKind::SizeMismatch
        );
    }
}
