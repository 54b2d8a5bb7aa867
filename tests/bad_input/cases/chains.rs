//! FABRIK and CCD: settings, constraints, per-joint tuning, single solves, pose solves and the
//! batches' joint counts and per-chain inputs.

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;

use super::constraints::constraint_cases;
use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    settings(t);
    constraints_and_tuning(t);
    for (solve, pose) in [
        ("sinew_fabrik_solve", "sinew_fabrik_solve_pose"),
        ("sinew_ccd_solve", "sinew_ccd_solve_pose"),
    ] {
        solve_cases(t, solve);
        solve_pose_cases(t, pose, "effector_position", 2);
    }
    let misaligned = Args::none()
        .misaligned_by("out_result", 1)
        .null("root_parent_rotation")
        .null("effector_rotation");
    let fs = "sinew_fabrik_solve";
    t.at(fs, "out_result", Align)
        .args("misaligned out_result", misaligned, INVALID);
    for export in ["sinew_fabrik_solve_batch", "sinew_ccd_solve_batch"] {
        batch(t, export);
    }
}

/// A case of [`settings`] for FABRIK's settings (`true`) or CCD's: its path (the first
/// field's), name, class, edit and expected status (`Valid` cases accepted, the others
/// INVALID_ARGUMENT). The edited fields are ones both solvers have, by the same names.
macro_rules! shared_case {
    ($class:ident, $first:ident = $value:expr $(, $field:ident = $more:expr)*) => {
        (
            concat!("settings.", stringify!($first)),
            concat!(
                stringify!($first), " ", stringify!($value)
                $(, " and ", stringify!($field), " ", stringify!($more))*
            ),
            $class,
            (|b: &mut Bufs, fabrik: bool| {
                if fabrik {
                    b.fabrik.$first = $value;
                    $(b.fabrik.$field = $more;)*
                } else {
                    b.ccd.$first = $value;
                    $(b.ccd.$field = $more;)*
                }
            }) as fn(&mut Bufs, bool),
            if matches!($class, Valid) { OK } else { INVALID },
        )
    };
}

/// The settings: every field both solvers share out of its set (each solver's own former
/// values for both), just outside it and at its edges (accepted); CCD's own fields; and
/// `max_joints`.
fn settings(t: &mut Table) {
    let cases = [
        shared_case!(Enum, relative_precision = 2),
        shared_case!(Enum, relative_precision = u32::MAX),
        shared_case!(Enum, stop_when_stalled = 2),
        shared_case!(Enum, end_rotation = -1),
        shared_case!(Enum, end_rotation = 3),
        shared_case!(Enum, end_rotation = 9),
        shared_case!(Enum, end_rotation = i32::MIN),
        shared_case!(Count, max_iterations = 0),
        shared_case!(Domain, precision = 0.0),
        shared_case!(Domain, precision = -1.0),
        shared_case!(Domain, precision = -0.0),
        shared_case!(Domain, precision = -3e38),
        shared_case!(Valid, precision = 1e-45, max_iterations = u32::MAX),
    ];
    for (export, fabrik) in [
        ("sinew_fabrik_create", true),
        ("sinew_fabrik_set_settings", true),
        ("sinew_ccd_create", false),
        ("sinew_ccd_set_settings", false),
    ] {
        for (path, what, class, edit, expect) in cases {
            t.at(export, path, class)
                .bufs(what, move |b| edit(b, fabrik), expect);
        }
        if fabrik {
            continue;
        }
        let ccd_only: [(&str, &str, BufsEdit); 3] = [
            ("settings.start_from_tail", "start_from_tail 2", |b| {
                b.ccd.start_from_tail = 2
            }),
            ("settings.fix_root", "fix_root 7", |b| b.ccd.fix_root = 7),
            ("settings.fix_root", "fix_root u32::MAX", |b| {
                b.ccd.fix_root = u32::MAX
            }),
        ];
        for (path, what, edit) in ccd_only {
            t.at(export, path, Enum).bufs(what, edit, INVALID);
        }
    }
    for export in ["sinew_fabrik_create", "sinew_ccd_create"] {
        let huge = [0, 1, SINEW_MAX_JOINTS as i64 + 1, u32::MAX as i64];
        t.at(export, "max_joints", Count).ints(&huge, RANGE);
        t.at(export, "max_joints", Count).int(2, OK);
    }
}

fn constraints_and_tuning(t: &mut Table) {
    for export in ["sinew_fabrik_set_constraint", "sinew_ccd_set_constraint"] {
        t.at(export, "joint", Range)
            .ints(&[N as i64, u32::MAX as i64], RANGE);
        constraint_cases(t, export, "constraint", |b| &mut b.constraint);
    }
    for export in ["sinew_fabrik_set_constraint", "sinew_ccd_set_constraint"] {
        let clear = Args::none()
            .int("joint", u32::MAX as i64)
            .null("constraint");
        let what = "joint u32::MAX, clearing";
        t.at(export, "joint", Range).args(what, clear, RANGE);
    }
    let cj = "sinew_ccd_set_joint";
    t.at(cj, "joint", Range)
        .ints(&[N as i64, u32::MAX as i64], RANGE);
    t.at(cj, "rotation_limit_degrees", Domain)
        .floats(&[-1.0, 181.0], INVALID);
    t.at(cj, "weight", Domain).floats(&[-0.1, 1.1], INVALID);
}

fn solve_cases(t: &mut Table, solve: &'static str) {
    // Counts below 2 are reported as INVALID_ARGUMENT (a chain needs 2 joints), above
    // max_joints as OUT_OF_RANGE.
    for (n, expect) in [(0, INVALID), (1, INVALID), (N as i64 + 1, RANGE)] {
        t.at(solve, "joint_count", Count).int(n, expect);
    }
    t.at(solve, "joint_count", Valid).int(2, OK);
    let degenerate: [(&str, BufsEdit); 6] = [
        ("zero-length bone", |b| {
            b.chain[2].translation = b.chain[1].translation
        }),
        ("all joints coincident", |b| {
            for k in 1..N {
                b.chain[k].translation = b.chain[0].translation;
            }
        }),
        ("effector at the root", |b| {
            b.chain_effector = b.chain[0].translation
        }),
        ("effector at the tip", |b| {
            b.chain_effector = b.chain[N - 1].translation
        }),
        ("effector far beyond reach", |b| {
            b.chain_effector = v(-30.0, 40.0, 5.0)
        }),
        ("zero scale", |b| b.chain[1].scale = v(0.0, 0.0, 0.0)),
    ];
    for (what, f) in degenerate {
        t.at(solve, "chain", Degenerate).bufs(what, f, OK);
    }
    let zero = |b: &mut Bufs| b.chain[2].rotation = SinewQuat::default();
    t.at(solve, "chain", Domain)
        .bufs("zero quaternion in the chain", zero, INVALID);
    let zero = |b: &mut Bufs| b.root_parent = SinewQuat::default();
    let what = "zero root parent rotation";
    t.at(solve, "root_parent_rotation", Domain)
        .bufs(what, zero, INVALID);
    let zero = |b: &mut Bufs| b.effector_rotation = SinewQuat::default();
    let what = "zero effector rotation";
    t.at(solve, "effector_rotation", Domain)
        .bufs(what, zero, INVALID);
}

/// A chain solver's pose solve: joint counts (below `min_joints` invalid), joint lists, and
/// the shared pose cases on its target argument `target`.
pub(super) fn solve_pose_cases(
    t: &mut Table,
    pose: &'static str,
    target: &'static str,
    min_joints: i64,
) {
    let too_few = (0..min_joints).map(|n| (n, INVALID));
    for (n, expect) in too_few.chain([(N as i64 + 1, RANGE)]) {
        let what = format!("joint_count {n}");
        let args = Args::none().int("joint_count", n);
        let joints = bufs(|b| b.joints = [0, 1, 2, 3, 4, 5]);
        t.at(pose, "joint_count", Count)
            .add(&what, args, joints, expect);
    }
    for (what, joints, expect) in [
        ("joints[3] = joint count", [1, 2, 3, J as u32], RANGE),
        ("joints[0] = u32::MAX", [u32::MAX, 2, 3, 4], RANGE),
        ("joints not a chain (1, 2, 4, 3)", [1, 2, 4, 3], INVALID),
        ("joints repeat (1, 1, 2, 3)", [1, 1, 2, 3], INVALID),
    ] {
        let edit = move |b: &mut Bufs| b.joints[..N].copy_from_slice(&joints);
        t.at(pose, "joints", Range).bufs(what, edit, expect);
    }
    super::pose_solve_cases(t, pose, target, 1);
}

/// Joint counts, root parent rotations, degenerate chains.
fn batch(t: &mut Table, export: &'static str) {
    for (n, expect) in [
        (0, INVALID),
        (1, INVALID),
        (N as i64 + 1, RANGE),
        (u32::MAX as i64, RANGE),
    ] {
        t.at(export, "joint_count", Count).int(n, expect);
        // The count, whether the message names a chain or not.
        t.needle(if n < 2 {
            "joints".into()
        } else {
            format!("{n} joints")
        });
    }
    for n in [2, 3] {
        let what = format!("joint_count {n} (chains of {n} back to back)");
        let args = Args::none().int("joint_count", n);
        t.at(export, "joint_count", Valid).args(&what, args, OK);
    }
    let zero = |b: &mut Bufs| b.batch_parents[BAD] = SinewQuat::default();
    let what = "zero root parent rotation of chain 2";
    t.at(export, "root_parent_rotations", Domain)
        .bufs(what, zero, INVALID);
    t.needle(format!("chain {BAD}: "));
    let inf = |b: &mut Bufs| b.batch_parents[B - 1].w = f32::NEG_INFINITY;
    let what = "infinite root parent rotation of the last chain";
    t.at(export, "root_parent_rotations", NegInf)
        .bufs(what, inf, &[St::NonFinite]);
    t.needle(format!("chain {}: ", B - 1));
    let degenerate: [(&str, BufsEdit); 5] = [
        ("zero-length bone in chain 1", |b| {
            b.batch[N + 2].translation = b.batch[N + 1].translation
        }),
        ("all joints of chain 3 coincident", |b| {
            for k in 1..N {
                b.batch[3 * N + k].translation = b.batch[3 * N].translation;
            }
        }),
        ("effector at the root of chain 0", |b| {
            b.batch_effectors[0] = b.batch[0].translation
        }),
        ("effector far beyond reach of chain 4", |b| {
            b.batch_effectors[4] = v(-30.0, 40.0, 5.0)
        }),
        ("zero scale in chain 2", |b| {
            b.batch[2 * N + 1].scale = v(0.0, 0.0, 0.0)
        }),
    ];
    for (what, f) in degenerate {
        t.at(export, "chains", Degenerate).bufs(what, f, OK);
    }
}
