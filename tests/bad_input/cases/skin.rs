//! Model matrices, skins and skinning palettes.

use sinew::ffi::*;

use super::skeleton::count_cases;
use crate::call::*;
use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    let none = Args::none;
    let mm = "sinew_pose_compute_model_matrices";
    let sp = "sinew_pose_compute_skinning_palette";
    let sc = "sinew_skin_create";
    count_cases(t, &[mm, sp]);
    for export in [mm, sp] {
        t.at(export, "pose", Overflow)
            .world("model space overflows", overflow_pose, OVERFLOW);
    }
    let misaligned = none().misaligned_by("out_matrices", 1);
    t.at(mm, "out_matrices", Align)
        .args("misaligned out_matrices", misaligned, INVALID);
    let other = none().swap("pose", pose2).int("count", J2 as i64);
    t.at(mm, "count", Size)
        .args("pose of another skeleton, its count", other, OK);

    // The palette: a skin or pose of another joint count, entries that overflow.
    t.at(sp, "skin", Size)
        .args("skin of another skeleton", none().swap("skin", skin2), SIZE);
    let both = none().swap("skin", skin2).int("count", J2 as i64);
    t.at(sp, "pose", Size)
        .args("skin of another skeleton, its count", both, SIZE);
    let both = none()
        .swap("skin", skin2)
        .int("count", J2 as i64)
        .swap("pose", pose2);
    t.at(sp, "pose", Valid)
        .args("pose and skin of the other skeleton", both, OK);
    let huge = |w: &mut World| {
        let huge_bind = |b: &mut Bufs| b.inverse_binds[2].m03 = 1e38;
        huge_bind(&mut w.b);
        let (joints, binds) = (w.b.skin_joints.as_ptr(), w.b.inverse_binds.as_ptr());
        let mut skin = std::ptr::null_mut();
        // SAFETY: a live skeleton, buffers of J items, a local out-pointer.
        ok(unsafe { sinew_skin_create(w.skel, joints, binds, J as u32, &mut skin) });
        // SAFETY: both live; the world's skin is not used again.
        unsafe { sinew_skin_destroy(std::mem::replace(&mut w.skin, skin)) };
        let mut local = posed(0.15);
        local[0].scale = v(10.0, 10.0, 10.0);
        // SAFETY: a live pose and a buffer of J transforms.
        ok(unsafe { sinew_pose_set_local(w.pose_a, local.as_ptr(), J as u32) });
    };
    t.at(sp, "skin", Overflow).world(
        "finite model and inverse bind, product beyond float",
        huge,
        OVERFLOW,
    );

    // Skins: counts, joints out of range or repeated, a NULL joint list.
    let counts = [(0, INVALID), (J as i64 - 1, OK), (J as i64 + 1, RANGE)];
    for (n, expect) in counts {
        let what = format!("count {n} with a joint list (guard joint {J} out of range)");
        t.at(sc, "count", Count)
            .args(&what, none().int("count", n), expect);
    }
    let what = "count 0 without a joint list";
    let args = none().null("joints").int("count", 0);
    t.at(sc, "count", Count).args(what, args, INVALID);
    let what = "count other than the joint count without a joint list";
    let args = none().null("joints").int("count", J as i64 - 1);
    t.at(sc, "count", Size).args(what, args, SIZE);
    let out = |b: &mut Bufs| b.skin_joints[3] = J as u32;
    t.at(sc, "joints", Range)
        .bufs("joint out of range", out, RANGE);
    let huge = |b: &mut Bufs| b.skin_joints[5] = u32::MAX;
    t.at(sc, "joints", Range)
        .bufs("joint u32::MAX", huge, RANGE);
    let twice = |b: &mut Bufs| b.skin_joints[5] = b.skin_joints[1];
    t.at(sc, "joints", Domain)
        .bufs("joint listed twice", twice, INVALID);
    let what = "a skeleton of fewer joints than listed";
    let args = none().swap("skeleton", skel2);
    t.at(sc, "skeleton", Size).args(what, args, RANGE);
}
