//! Hand IK retargeting: settings, and applying it to model-space transforms or a pose.

use crate::header::Class::*;
use crate::table::*;
use crate::world::*;

pub fn cases(t: &mut Table) {
    for export in [
        "sinew_hand_ik_retargeting_create",
        "sinew_hand_ik_retargeting_set_settings",
    ] {
        let negative = |b: &mut Bufs| b.hand.hand_fk_weight = -0.1;
        t.at(export, "settings", Domain)
            .bufs("hand_fk_weight -0.1", negative, INVALID);
        let above = |b: &mut Bufs| b.hand.per_axis_alpha.y = 2.0;
        t.at(export, "settings", Domain)
            .bufs("per_axis_alpha.y 2", above, INVALID);
    }
    let hm = "sinew_hand_ik_retargeting_apply_model";
    let hp = "sinew_hand_ik_retargeting_apply_pose";
    for export in [hm, hp] {
        for (path, f) in [
            (
                "hands.right_fk",
                (|b| b.hands.right_fk = J as u32) as BufsEdit,
            ),
            ("hands.left_fk", |b| b.hands.left_fk = u32::MAX),
            ("hands.right_ik", |b| b.hands.right_ik = J as u32),
            ("hands.left_ik", |b| b.hands.left_ik = J as u32 + 7),
        ] {
            t.at(export, path, Range)
                .bufs(&format!("{path} out of range"), f, RANGE);
        }
        let beyond = |b: &mut Bufs| b.bones[1] = J as u32;
        t.at(export, "bones", Range)
            .bufs("bones[1] = joint count", beyond, RANGE);
        let beyond = |b: &mut Bufs| b.bones[1] = u32::MAX;
        t.at(export, "bones", Range)
            .bufs("bones[1] = u32::MAX", beyond, RANGE);
        t.at(export, "bone_count", Count).int(0, OK);
        t.at(export, "bones", Valid)
            .bufs("duplicate bones", |b| b.bones = [5, 5], OK);
    }
    t.at(hm, "count", Count).int(0, RANGE);
    let below = crate::call::Args::none().int("count", 4);
    t.at(hm, "count", Count)
        .args("count below the hand indices", below, RANGE);
    t.at(hm, "count", Valid).int(J as i64 + 1, OK);
    let coincide = |b: &mut Bufs| {
        b.model[6].translation = b.model[4].translation;
        b.model[7].translation = b.model[3].translation;
    };
    t.at(hm, "model", Degenerate)
        .bufs("FK and IK hands coincide", coincide, OK);
    let overflow = |b: &mut Bufs| {
        b.model[4].translation = v(3e38, 0.0, 0.0);
        b.model[3].translation = v(3e38, 0.0, 0.0);
        b.model[6].translation = v(-3e38, 0.0, 0.0);
        b.model[7].translation = v(-3e38, 0.0, 0.0);
    };
    t.at(hm, "model", Overflow)
        .bufs("offset overflows", overflow, OVERFLOW);
    super::pose_cases(t, hp);
}
