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
        t.bufs(
            export,
            "settings",
            Domain,
            "hand_fk_weight -0.1",
            negative,
            INVALID,
        );
        let above = |b: &mut Bufs| b.hand.per_axis_alpha.y = 2.0;
        t.bufs(
            export,
            "settings",
            Domain,
            "per_axis_alpha.y 2",
            above,
            INVALID,
        );
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
            t.bufs(
                export,
                path,
                Range,
                &format!("{path} out of range"),
                f,
                RANGE,
            );
        }
        let beyond = |b: &mut Bufs| b.bones[1] = J as u32;
        t.bufs(
            export,
            "bones",
            Range,
            "bones[1] = joint count",
            beyond,
            RANGE,
        );
        let beyond = |b: &mut Bufs| b.bones[1] = u32::MAX;
        t.bufs(export, "bones", Range, "bones[1] = u32::MAX", beyond, RANGE);
        t.int(export, "bone_count", Count, 0, OK);
        t.bufs(
            export,
            "bones",
            Valid,
            "duplicate bones",
            |b| b.bones = [5, 5],
            OK,
        );
    }
    t.int(hm, "count", Count, 0, RANGE);
    let below = crate::call::Args::none().int("count", 4);
    t.args(
        hm,
        "count",
        Count,
        "count below the hand indices",
        below,
        RANGE,
    );
    t.int(hm, "count", Valid, J as i64 + 1, OK);
    let coincide = |b: &mut Bufs| {
        b.model[6].translation = b.model[4].translation;
        b.model[7].translation = b.model[3].translation;
    };
    t.bufs(
        hm,
        "model",
        Degenerate,
        "FK and IK hands coincide",
        coincide,
        OK,
    );
    let overflow = |b: &mut Bufs| {
        b.model[4].translation = v(3e38, 0.0, 0.0);
        b.model[3].translation = v(3e38, 0.0, 0.0);
        b.model[6].translation = v(-3e38, 0.0, 0.0);
        b.model[7].translation = v(-3e38, 0.0, 0.0);
    };
    t.bufs(
        hm,
        "model",
        Overflow,
        "offset overflows",
        overflow,
        OVERFLOW,
    );
    let what = "pose of another skeleton (joints out of its range)";
    t.swap(hp, "pose", Size, what, pose2, RANGE);
    let what = "pose whose model space overflows";
    t.world(hp, "pose", Overflow, what, overflow_pose, OVERFLOW);
}
