//! Aim chains: settings, per-joint tuning, single solves, pose solves and the batch's joint
//! counts and degenerate chains (the batch's shared cases are in `batch.rs`).

use sinew::ffi::SinewStatus as St;
use sinew::ffi::SINEW_MAX_JOINTS;

use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    settings(t);
    let sj = "sinew_aim_ik_set_joint";
    t.at(sj, "joint", Range)
        .ints(&[N as i64, u32::MAX as i64], RANGE);
    t.at(sj, "weight", Domain).floats(&[-0.1, -3e38], INVALID);
    t.at(sj, "weight", Valid).floats(&[0.0, 1e30], OK);
    t.at(sj, "max_angle_degrees", Domain)
        .floats(&[-1.0, 180.5], INVALID);
    t.at(sj, "max_angle_degrees", Valid)
        .floats(&[0.0, 180.0], OK);
    solve(t);
    super::chains::solve_pose_cases(t, "sinew_aim_ik_solve_pose", "target_position", 1);
    batch(t);
}

fn settings(t: &mut Table) {
    let cases: [(&str, &str, BufsEdit, &[St]); 14] = [
        (
            "settings.up_is_position",
            "up_is_position 2",
            |b| b.aim.up_is_position = 2,
            INVALID,
        ),
        (
            "settings.up_is_position",
            "up_is_position u32::MAX",
            |b| b.aim.up_is_position = u32::MAX,
            INVALID,
        ),
        (
            "settings.max_iterations",
            "max_iterations 0",
            |b| b.aim.max_iterations = 0,
            INVALID,
        ),
        (
            "settings.max_iterations",
            "max_iterations u32::MAX",
            |b| b.aim.max_iterations = u32::MAX,
            OK,
        ),
        (
            "settings.aim_axis",
            "zero aim_axis",
            |b| b.aim.aim_axis = v(0.0, 0.0, 0.0),
            INVALID,
        ),
        (
            "settings.up_axis",
            "zero up_axis",
            |b| b.aim.up_axis = v(0.0, 0.0, 0.0),
            INVALID,
        ),
        (
            "settings.up_axis",
            "up_axis along aim_axis",
            |b| b.aim.up_axis = v(-2.0, 0.0, 0.0),
            INVALID,
        ),
        (
            "settings.weight",
            "weight -0.1",
            |b| b.aim.weight = -0.1,
            INVALID,
        ),
        (
            "settings.weight",
            "weight 1.5",
            |b| b.aim.weight = 1.5,
            INVALID,
        ),
        (
            "settings.max_angle_degrees",
            "max_angle_degrees -1",
            |b| b.aim.max_angle_degrees = -1.0,
            INVALID,
        ),
        (
            "settings.max_angle_degrees",
            "max_angle_degrees 181",
            |b| b.aim.max_angle_degrees = 181.0,
            INVALID,
        ),
        (
            "settings.tolerance",
            "tolerance 0",
            |b| b.aim.tolerance = 0.0,
            INVALID,
        ),
        (
            "settings.tolerance",
            "tolerance -1",
            |b| b.aim.tolerance = -1.0,
            INVALID,
        ),
        (
            "settings.weight",
            "weight 0, max_angle_degrees 0, tolerance 1e-45",
            |b| {
                b.aim.weight = 0.0;
                b.aim.max_angle_degrees = 0.0;
                b.aim.tolerance = 1e-45;
            },
            OK,
        ),
    ];
    for export in ["sinew_aim_ik_create", "sinew_aim_ik_set_settings"] {
        for (path, what, edit, expect) in cases {
            let class = match (path, expect == OK) {
                (_, true) => Valid,
                ("settings.up_is_position", _) => Enum,
                ("settings.max_iterations", _) => Count,
                _ => Domain,
            };
            t.at(export, path, class).bufs(what, edit, expect);
        }
    }
    let c = "sinew_aim_ik_create";
    t.at(c, "max_joints", Count)
        .ints(&[0, SINEW_MAX_JOINTS as i64 + 1, u32::MAX as i64], RANGE);
    t.at(c, "max_joints", Count).int(1, OK);
}

fn solve(t: &mut Table) {
    let s = "sinew_aim_ik_solve";
    for (n, expect) in [(0, INVALID), (N as i64 + 1, RANGE)] {
        t.at(s, "joint_count", Count).int(n, expect);
    }
    t.at(s, "joint_count", Valid).int(1, OK);
    let degenerate: [(&str, BufsEdit); 7] = [
        ("target at the last joint", |b| {
            b.chain_effector = b.chain[N - 1].translation
        }),
        ("target exactly behind the aim axis", |b| {
            let tip = b.chain[N - 1].translation;
            b.chain_effector = v(tip.x - 3.0, tip.y, tip.z);
            b.chain[N - 1].rotation = ID;
        }),
        ("target at the aim origin", |b| {
            let tip = b.chain[N - 1].translation;
            b.chain_effector = v(tip.x + 0.1, tip.y + 0.05, tip.z);
            b.chain[N - 1].rotation = ID;
        }),
        (
            "target nearer the joint than the offset is off the axis",
            |b| {
                b.chain_effector = b.chain[N - 1].translation;
                b.chain_effector.x += 0.01;
            },
        ),
        ("all joints coincident", |b| {
            for k in 1..N {
                b.chain[k].translation = b.chain[0].translation;
            }
        }),
        ("up target along the aim", |b| b.pole = b.chain_effector),
        ("zero scale", |b| b.chain[3].scale = v(0.0, 0.0, 0.0)),
    ];
    for (what, f) in degenerate {
        t.at(s, "chain", Degenerate).bufs(what, f, OK);
    }
    let zero = |b: &mut Bufs| b.chain[2].rotation = sinew::ffi::SinewQuat::default();
    t.at(s, "chain", Domain)
        .bufs("zero quaternion in the chain", zero, INVALID);
    let up = |b: &mut Bufs| b.pole = v(0.0, 0.0, 0.0);
    t.at(s, "up_target", Degenerate)
        .bufs("zero up target", up, OK);
    let huge = |b: &mut Bufs| b.chain_effector = v(3e38, -3e38, 3e38);
    t.at(s, "target_position", Overflow)
        .bufs("target beyond f32's range from the chain", huge, OK);
}

fn batch(t: &mut Table) {
    let export = "sinew_aim_ik_solve_batch";
    for (n, expect) in [
        (0, INVALID),
        (N as i64 + 1, RANGE),
        (u32::MAX as i64, RANGE),
    ] {
        t.at(export, "joint_count", Count).int(n, expect);
        t.needle(if n < 1 {
            "joints".into()
        } else {
            format!("{n} joints")
        });
    }
    for n in [1, 3] {
        let what = format!("joint_count {n} (chains of {n} back to back)");
        let args = Args::none().int("joint_count", n);
        t.at(export, "joint_count", Valid).args(&what, args, OK);
    }
    let degenerate: [(&str, BufsEdit); 3] = [
        ("all joints of chain 3 coincident", |b| {
            for k in 1..N {
                b.batch[3 * N + k].translation = b.batch[3 * N].translation;
            }
        }),
        ("target at the last joint of chain 0", |b| {
            b.batch_effectors[0] = b.batch[N - 1].translation
        }),
        ("zero up target of chain 2", |b| {
            b.batch_poles[2] = v(0.0, 0.0, 0.0)
        }),
    ];
    for (what, f) in degenerate {
        t.at(export, "chains", Degenerate).bufs(what, f, OK);
    }
}
