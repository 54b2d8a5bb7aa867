//! Multi-effector FABRIK: settings, sizes, constraints by skeleton joint, and the tree solves
//! (model space and pose): roots, effectors, counts, targets and degenerate geometry.

use sinew::ffi::*;

use super::constraints::constraint_cases;
use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

const SOLVE: &str = "sinew_multi_fabrik_solve";
const POSE: &str = "sinew_multi_fabrik_solve_pose";

pub fn cases(t: &mut Table) {
    settings(t);
    constraints(t);
    for export in [SOLVE, POSE] {
        tree_cases(t, export);
    }
    model_cases(t);
    super::pose_cases(t, POSE);
    let zero_bone = |w: &mut World| pose_translation(w, 3, v(0.0, 0.0, 0.0));
    t.at(POSE, "pose", Degenerate)
        .world("zero-length bone in the pose", zero_bone, OK);
}

fn settings(t: &mut Table) {
    let cases: [(&str, &str, crate::header::Class, BufsEdit, &[_]); 9] = [
        (
            "settings.relative_precision",
            "relative_precision 2",
            Enum,
            |b| b.multi.relative_precision = 2,
            INVALID,
        ),
        (
            "settings.stop_when_stalled",
            "stop_when_stalled 7",
            Enum,
            |b| b.multi.stop_when_stalled = 7,
            INVALID,
        ),
        (
            "settings.end_rotation",
            "end_rotation -1",
            Enum,
            |b| b.multi.end_rotation = -1,
            INVALID,
        ),
        (
            "settings.end_rotation",
            "end_rotation 3",
            Enum,
            |b| b.multi.end_rotation = 3,
            INVALID,
        ),
        (
            "settings.max_iterations",
            "max_iterations 0",
            Count,
            |b| b.multi.max_iterations = 0,
            INVALID,
        ),
        (
            "settings.precision",
            "precision 0",
            Domain,
            |b| b.multi.precision = 0.0,
            INVALID,
        ),
        (
            "settings.precision",
            "precision -1",
            Domain,
            |b| b.multi.precision = -1.0,
            INVALID,
        ),
        (
            "settings.precision",
            "precision -0",
            Domain,
            |b| b.multi.precision = -0.0,
            INVALID,
        ),
        (
            "settings.precision",
            "precision 1e-45, max_iterations u32::MAX",
            Valid,
            |b| {
                b.multi.precision = 1e-45;
                b.multi.max_iterations = u32::MAX;
            },
            OK,
        ),
    ];
    for export in [
        "sinew_multi_fabrik_create",
        "sinew_multi_fabrik_set_settings",
    ] {
        for (path, what, class, edit, expect) in cases {
            t.at(export, path, class).bufs(what, edit, expect);
        }
    }
    let create = "sinew_multi_fabrik_create";
    let huge = [0, 1, SINEW_MAX_JOINTS as i64 + 1, u32::MAX as i64];
    t.at(create, "max_joints", Count).ints(&huge, RANGE);
    // Fewer joints than effectors, or more effectors than 64 or max_joints.
    let few = Args::none().int("max_joints", 2).int("max_effectors", 3);
    t.at(create, "max_joints", Count)
        .args("max_joints 2 below max_effectors 3", few, RANGE);
    t.at(create, "max_effectors", Count)
        .ints(&[0, 65, u32::MAX as i64], RANGE);
    let most = Args::none().int("max_joints", 64).int("max_effectors", 64);
    t.at(create, "max_effectors", Valid)
        .args("max_effectors 64 of max_joints 64", most, OK);
}

fn constraints(t: &mut Table) {
    let sc = "sinew_multi_fabrik_set_constraint";
    let beyond = [SINEW_MAX_JOINTS as i64, u32::MAX as i64];
    t.at(sc, "joint", Range).ints(&beyond, RANGE);
    let clear = Args::none()
        .int("joint", u32::MAX as i64)
        .null("constraint");
    t.at(sc, "joint", Range)
        .args("joint u32::MAX, clearing", clear, RANGE);
    // A joint outside the world's skeleton is a skeleton joint of some other one: accepted.
    t.at(sc, "joint", Valid).int(J as i64 + 100, OK);
    let full = |w: &mut World| {
        for j in 10..10 + J as u32 - 1 {
            // SAFETY: a live solver and a local constraint.
            ok(unsafe { sinew_multi_fabrik_set_constraint(w.multi, j, &cone()) });
        }
    };
    let one_more = Args::none().int("joint", 100);
    let what = "a constraint on a joint beyond max_joints constrained joints";
    t.at(sc, "joint", State)
        .add(what, one_more, world(full), RANGE);
    constraint_cases(t, sc, "constraint", |b| &mut b.constraint);
}

/// Roots, effectors, their count and targets: the same rules for both solves.
fn tree_cases(t: &mut Table, export: &'static str) {
    t.at(export, "root", Range)
        .ints(&[J as i64, u32::MAX as i64], RANGE);
    let below = Args::none().int("root", 4);
    t.at(export, "root", Range)
        .args("root 4, the hand (effectors not below it)", below, INVALID);
    let effectors: [(&str, [u32; M], &[_]); 5] = [
        ("effectors[2] = joint count", [4, 6, J as u32], RANGE),
        ("effectors[0] = u32::MAX", [u32::MAX, 6, 7], RANGE),
        ("effectors repeat (4, 6, 4)", [4, 6, 4], INVALID),
        ("effector 5 above effector 6", [4, 5, 6], INVALID),
        ("effector 0, the root", [4, 6, 0], INVALID),
    ];
    for (what, e, expect) in effectors {
        let edit = move |b: &mut Bufs| b.effectors[..M].copy_from_slice(&e);
        t.at(export, "effectors", Range).bufs(what, edit, expect);
    }
    t.at(export, "effector_count", Count).int(0, INVALID);
    t.at(export, "effector_count", Count)
        .int(M as i64 + 1, RANGE);
    t.at(export, "effector_count", Count)
        .int(u32::MAX as i64, RANGE);
    // One effector is a chain (root 0 to the hand).
    t.at(export, "effector_count", Valid).int(1, OK);
    let flags: [(&str, BufsEdit); 2] = [
        ("targets[1].use_rotation 2", |b| {
            b.targets[1].use_rotation = 2
        }),
        ("targets[0].use_rotation u32::MAX", |b| {
            b.targets[0].use_rotation = u32::MAX
        }),
    ];
    for (what, edit) in flags {
        t.at(export, "targets.use_rotation", Enum)
            .bufs(what, edit, INVALID);
    }
    let domain: [(&str, BufsEdit, &[_]); 5] = [
        ("negative weight", |b| b.targets[1].weight = -0.5, INVALID),
        (
            "every weight zero",
            |b| b.targets.iter_mut().for_each(|t| t.weight = 0.0),
            INVALID,
        ),
        (
            "zero rotation, used",
            |b| b.targets[0].rotation = Default::default(),
            INVALID,
        ),
        (
            "zero rotation, unused",
            |b| b.targets[1].rotation = Default::default(),
            OK,
        ),
        ("one weight zero", |b| b.targets[2].weight = 0.0, OK),
    ];
    for (what, edit, expect) in domain {
        t.at(export, "targets", Domain).bufs(what, edit, expect);
    }
}

/// The model-space solve: sizes, skeletons and degenerate trees.
fn model_cases(t: &mut Table) {
    t.at(SOLVE, "count", Size)
        .ints(&[0, J as i64 - 1, J as i64 + 1], SIZE);
    let what = "skeleton of 3 joints (model of 8)";
    t.at(SOLVE, "skeleton", Size).swap(what, skel2, SIZE);
    let what = "skeleton whose joint 7 hangs below effector 6";
    t.at(SOLVE, "skeleton", Domain).swap(what, skel3, INVALID);
    let degenerate: [(&str, BufsEdit); 5] = [
        ("zero-length bone", |b| {
            b.model[3].translation = b.model[2].translation
        }),
        ("every joint at the root", |b| {
            let root = b.model[0].translation;
            b.model.iter_mut().for_each(|t| t.translation = root)
        }),
        ("targets at the root", |b| {
            let root = b.model[0].translation;
            b.targets.iter_mut().for_each(|t| t.position = root)
        }),
        ("targets far beyond reach", |b| {
            b.targets[0].position = v(-30.0, 40.0, 5.0);
            b.targets[2].position = v(30.0, -40.0, 5.0);
        }),
        ("zero scale", |b| b.model[1].scale = v(0.0, 0.0, 0.0)),
    ];
    for (what, f) in degenerate {
        t.at(SOLVE, "model", Degenerate).bufs(what, f, OK);
    }
    let zero = |b: &mut Bufs| b.model[3].rotation = SinewQuat::default();
    t.at(SOLVE, "model", Domain)
        .bufs("zero quaternion in the tree", zero, INVALID);
    let overflow = |b: &mut Bufs| {
        b.model[0].translation = v(3e38, 0.0, 0.0);
        b.model[4].translation = v(-3e38, 0.0, 0.0);
    };
    t.at(SOLVE, "model", Overflow).bufs(
        "bones longer than f32",
        overflow,
        &[
            sinew::ffi::SinewStatus::Ok,
            sinew::ffi::SinewStatus::NumericOverflow,
        ],
    );
}
