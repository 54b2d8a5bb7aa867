//! Two-bone IK: settings, single solves, pose solves and the batch's SIMD lanes.

use sinew::ffi::SinewStatus as St;
use sinew::ffi::*;
use sinew::Vec3;

use crate::call::Args;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    settings(t);
    solve(t);
    solve_pose(t);
    batch(t);
}

fn settings(t: &mut Table) {
    for export in ["sinew_two_bone_ik_create", "sinew_two_bone_ik_set_settings"] {
        for (what, f) in [
            ("weight -0.1", (|b| b.two.weight = -0.1) as BufsEdit),
            ("soften 0", |b| b.two.soften = 0.0),
            ("start_stretch_ratio 0", |b| b.two.start_stretch_ratio = 0.0),
            ("max_stretch_scale 0.9", |b| b.two.max_stretch_scale = 0.9),
            ("pole_weight 1.5", |b| b.two.pole_weight = 1.5),
        ] {
            t.at(export, "settings", Domain).bufs(what, f, INVALID);
        }
        for (path, f) in [
            (
                "settings.allow_stretching",
                (|b| b.two.allow_stretching = 2) as BufsEdit,
            ),
            ("settings.keep_twist", |b| b.two.keep_twist = 2),
            ("settings.end_rotation", |b| b.two.end_rotation = 3),
        ] {
            t.at(export, path, Enum)
                .bufs(&format!("{path} out of its set"), f, INVALID);
        }
    }
}

fn solve(t: &mut Table) {
    let ts = "sinew_two_bone_ik_solve";
    let degenerate: [(&str, BufsEdit); 11] = [
        ("upper bone of zero length", |b| {
            b.chain3[1].translation = b.chain3[0].translation
        }),
        ("lower bone of zero length", |b| {
            b.chain3[2].translation = b.chain3[1].translation
        }),
        ("both bones of zero length", |b| {
            b.chain3[1].translation = b.chain3[0].translation;
            b.chain3[2].translation = b.chain3[0].translation;
        }),
        ("effector at the root", |b| {
            b.effector = b.chain3[0].translation
        }),
        ("effector at the joint", |b| {
            b.effector = b.chain3[1].translation
        }),
        ("effector at the end", |b| {
            b.effector = b.chain3[2].translation
        }),
        ("pole at the root", |b| b.pole = b.chain3[0].translation),
        ("pole on the root-effector line", |b| {
            let (r, e) = (Vec3::from(b.chain3[0].translation), Vec3::from(b.effector));
            b.pole = (r + (e - r) * 2.5).into();
        }),
        ("straight chain toward the pole", |b| {
            b.chain3[1].translation = v(0.44, 1.5, 0.0);
            b.chain3[2].translation = v(0.70, 1.5, 0.0);
            b.pole = v(1.0, 1.5, 0.0);
        }),
        ("effector far beyond reach", |b| {
            b.effector = v(40.0, -30.0, 20.0)
        }),
        ("effector nearer than |l1 - l2|", |b| {
            let r = Vec3::from(b.chain3[0].translation);
            b.effector = (r + Vec3::new(0.001, 0.0, 0.0)).into();
        }),
    ];
    for (what, f) in degenerate {
        t.at(ts, "chain", Degenerate).bufs(what, f, OK);
    }
    let straight = bufs(|b| {
        b.chain3[1].translation = v(0.44, 1.5, 0.0);
        b.chain3[2].translation = v(0.70, 1.5, 0.0);
    });
    let no_pole = Args::none().null("joint_target");
    let what = "straight chain, no pole";
    t.at(ts, "joint_target", Degenerate)
        .add(what, no_pole, straight, OK);
    let zero = |b: &mut Bufs| b.chain3[1].rotation = SinewQuat::default();
    t.at(ts, "chain", Domain)
        .bufs("zero quaternion in the chain", zero, INVALID);
    let zero = |b: &mut Bufs| b.effector_rotation = SinewQuat::default();
    t.at(ts, "effector_rotation", Domain)
        .bufs("zero effector rotation", zero, INVALID);
    let misaligned = Args::misaligned("chain")
        .null("effector_rotation")
        .null("joint_target");
    t.at(ts, "chain", Align)
        .args("misaligned chain", misaligned, INVALID);
}

fn solve_pose(t: &mut Table) {
    let tp = "sinew_two_bone_ik_solve_pose";
    t.at(tp, "root", Range).int(J as i64, RANGE);
    t.at(tp, "joint", Range).int(J as i64, RANGE);
    t.at(tp, "end", Range).int(u32::MAX as i64, RANGE);
    t.at(tp, "end", Range).int(0x8000_0000, RANGE);
    let none = Args::none;
    let not_chain = none().int("end", 5);
    t.at(tp, "end", Range)
        .args("joints not a chain (2, 3, 5)", not_chain, INVALID);
    let repeated = none().int("joint", 2).int("end", 3);
    t.at(tp, "joint", Range)
        .args("joints not a chain (2, 2, 3)", repeated, INVALID);
    super::pose_solve_cases(t, tp, 2);
    let pole_at_root = |w: &mut World| w.b.pole = pose_position(w, 2);
    t.at(tp, "joint_target", Degenerate)
        .world("pole at the root joint", pole_at_root, OK);
}

/// Lanes of the batch's SIMD kernel (with poles at pole_weight 1, or without poles) that are
/// degenerate take the single path; settings the kernel does and does not cover.
fn batch(t: &mut Table) {
    let tb = "sinew_two_bone_ik_solve_batch";
    let full_pole = |w: &mut World| {
        let mut s = w.b.two;
        s.pole_weight = 1.0;
        // SAFETY: a live solver and valid settings.
        ok(unsafe { sinew_two_bone_ik_set_settings(w.two_bone, &s) });
    };
    let degenerate: [(&str, BufsEdit); 7] = [
        ("upper bone of zero length in chain 1", |b| {
            b.batch3[4].translation = b.batch3[3].translation
        }),
        ("lower bone of zero length in chain 0", |b| {
            b.batch3[2].translation = b.batch3[1].translation
        }),
        ("effector at the root of chain 3", |b| {
            b.batch_effectors3[3] = b.batch3[9].translation
        }),
        ("effector at the end of chain 2", |b| {
            b.batch_effectors3[2] = b.batch3[8].translation
        }),
        ("pole at the root of chain 1", |b| {
            b.batch_poles[1] = b.batch3[3].translation
        }),
        ("straight chain 2 toward its pole", |b| {
            let r = b.batch3[6].translation;
            b.batch3[7].translation = v(r.x + 0.3, r.y, r.z);
            b.batch3[8].translation = v(r.x + 0.55, r.y, r.z);
            b.batch_poles[2] = v(r.x + 1.0, r.y, r.z);
        }),
        ("effectors far beyond reach and at distance 0.001", |b| {
            b.batch_effectors3[0] = v(40.0, -30.0, 20.0);
            let r = b.batch3[3].translation;
            b.batch_effectors3[1] = v(r.x + 0.001, r.y, r.z);
        }),
    ];
    for (what, f) in degenerate {
        let with_poles = move |w: &mut World| {
            full_pole(w);
            f(&mut w.b);
        };
        let what_poles = format!("{what}, poles at pole_weight 1");
        t.at(tb, "chains", Degenerate)
            .world(&what_poles, with_poles, OK);
        let no_poles = Args::none().null("joint_targets");
        let what = format!("{what}, no poles");
        t.at(tb, "chains", Degenerate)
            .add(&what, no_poles, bufs(f), OK);
    }
    let settings: [(&str, SettingsEdit); 4] = [
        ("pole_weight 1 (the SIMD kernel with poles)", |s| {
            s.pole_weight = 1.0
        }),
        ("Unreal's defaults (no stretching)", |s| {
            *s = Bufs::new().two;
            s.allow_stretching = 0;
            s.pole_weight = 1.0;
        }),
        ("weight 0.6, soften 0.9, keep_twist", |s| {
            (s.weight, s.soften, s.keep_twist) = (0.6, 0.9, 1);
            s.pole_weight = 1.0;
        }),
        ("end rotation COPY_EFFECTOR, weight 0", |s| {
            s.end_rotation = SinewEndRotation::CopyEffector as i32;
            s.weight = 0.0;
        }),
    ];
    for (what, f) in settings {
        let set = move |w: &mut World| {
            let mut s = w.b.two;
            f(&mut s);
            // SAFETY: a live solver and valid settings.
            ok(unsafe { sinew_two_bone_ik_set_settings(w.two_bone, &s) });
        };
        t.at(tb, "solver", Valid).world(what, set, OK);
    }
    let nan = |b: &mut Bufs| b.batch_poles[B - 1].x = f32::NAN;
    let what = "NaN pole of the last chain";
    t.at(tb, "joint_targets", Nan)
        .bufs(what, nan, &[St::NonFinite]);
    t.needle(format!("chain {}: ", B - 1));
}
