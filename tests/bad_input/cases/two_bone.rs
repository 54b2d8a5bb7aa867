//! Two-bone IK: settings, single solves, pose solves and the batch's SIMD lanes.

use std::sync::Arc;

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
    batch(t, "sinew_two_bone_ik_solve_batch");
    batch(t, "sinew_two_bone_ik_solve_batch_soa");
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

/// A two-bone chain and its targets: the single solve's, or those of one chain of the batch.
struct Limb<'a> {
    chain: &'a mut [SinewTransform],
    effector: &'a mut SinewVec3,
    pole: &'a mut SinewVec3,
}

impl<'a> Limb<'a> {
    fn single(b: &'a mut Bufs) -> Self {
        Self {
            chain: &mut b.chain3,
            effector: &mut b.effector,
            pole: &mut b.pole,
        }
    }

    fn in_batch(b: &'a mut Bufs, k: usize) -> Self {
        Self {
            chain: &mut b.batch3[3 * k..3 * k + 3],
            effector: &mut b.batch_effectors3[k],
            pole: &mut b.batch_poles[k],
        }
    }

    /// The chain's root, offset by `x` along X.
    fn along(&self, x: f32) -> SinewVec3 {
        let r = self.chain[0].translation;
        v(r.x + x, r.y, r.z)
    }
}

/// An edit of a [`Limb`].
type LimbEdit = fn(Limb<'_>);

/// Degenerate limbs every two-bone solve must solve, single or batched (the last two: the
/// effector far beyond reach, and nearer the root than |l1 - l2|).
fn degenerate_limbs() -> [(&'static str, LimbEdit); 11] {
    [
        ("upper bone of zero length", |l| {
            l.chain[1].translation = l.chain[0].translation
        }),
        ("lower bone of zero length", |l| {
            l.chain[2].translation = l.chain[1].translation
        }),
        ("both bones of zero length", |l| {
            l.chain[1].translation = l.chain[0].translation;
            l.chain[2].translation = l.chain[0].translation;
        }),
        ("effector at the root", |l| {
            *l.effector = l.chain[0].translation
        }),
        ("effector at the joint", |l| {
            *l.effector = l.chain[1].translation
        }),
        ("effector at the end", |l| {
            *l.effector = l.chain[2].translation
        }),
        ("pole at the root", |l| *l.pole = l.chain[0].translation),
        ("pole on the root-effector line", |l| {
            let (r, e) = (Vec3::from(l.chain[0].translation), Vec3::from(*l.effector));
            *l.pole = (r + (e - r) * 2.5).into();
        }),
        ("straight chain toward the pole", |l| {
            (l.chain[1].translation, l.chain[2].translation) = (l.along(0.29), l.along(0.55));
            *l.pole = l.along(0.85);
        }),
        ("effector far beyond reach", |l| {
            *l.effector = v(40.0, -30.0, 20.0)
        }),
        ("effector nearer than |l1 - l2|", |l| {
            *l.effector = l.along(0.001)
        }),
    ]
}

fn solve(t: &mut Table) {
    let ts = "sinew_two_bone_ik_solve";
    for (what, f) in degenerate_limbs() {
        let edit = move |b: &mut Bufs| f(Limb::single(b));
        t.at(ts, "chain", Degenerate).bufs(what, edit, OK);
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
    super::pose_solve_cases(t, tp, "effector_position", 2);
    let pole_at_root = |w: &mut World| w.b.pole = pose_position(w, 2);
    t.at(tp, "joint_target", Degenerate)
        .world("pole at the root joint", pole_at_root, OK);
}

/// Lanes of the batch's SIMD kernel (with poles at pole_weight 1, or without poles) that are
/// degenerate take the single path; settings the kernel does and does not cover.
fn batch(t: &mut Table, tb: &'static str) {
    let full_pole = |w: &mut World| {
        let mut s = w.b.two;
        s.pole_weight = 1.0;
        // SAFETY: a live solver and valid settings.
        ok(unsafe { sinew_two_bone_ik_set_settings(w.two_bone, &s) });
    };
    // Each degenerate limb in one chain of the batch, in turn every lane of the SIMD group and
    // the tail; and two at once in one group.
    type Edit = Arc<dyn Fn(&mut Bufs) + Send + Sync>;
    let limbs = degenerate_limbs();
    let mut cases: Vec<(String, Edit)> = limbs
        .iter()
        .enumerate()
        .map(|(i, &(what, f))| {
            let k = i % B;
            let edit: Edit = Arc::new(move |b| f(Limb::in_batch(b, k)));
            (format!("{what} in chain {k}"), edit)
        })
        .collect();
    let ((far, f), (near, n)) = (limbs[9], limbs[10]);
    let both: Edit = Arc::new(move |b| {
        f(Limb::in_batch(b, 0));
        n(Limb::in_batch(b, 1));
    });
    cases.push((format!("{far} in chain 0 and {near} in chain 1"), both));
    for (what, edit) in cases {
        let with_poles = {
            let edit = edit.clone();
            move |w: &mut World| {
                full_pole(w);
                edit(&mut w.b);
            }
        };
        let what_poles = format!("{what}, poles at pole_weight 1");
        t.at(tb, "chains", Degenerate)
            .world(&what_poles, with_poles, OK);
        let no_poles = Args::none().null("joint_targets");
        let what = format!("{what}, no poles");
        t.at(tb, "chains", Degenerate)
            .add(&what, no_poles, bufs(move |b| edit(b)), OK);
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
