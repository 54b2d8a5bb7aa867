//! Additive layers: making a delta and applying it.

use super::blend::other_skeletons;
use crate::header::Class::*;
use crate::table::*;

pub fn cases(t: &mut Table) {
    let mk = "sinew_pose_make_additive";
    other_skeletons(t, mk, &["pose", "reference", "out_delta"]);
    t.at(mk, "out_delta", Alias)
        .swap("out_delta == pose", pose_a, INVALID);
    t.at(mk, "out_delta", Alias)
        .swap("out_delta == reference", pose_b, INVALID);

    let ad = "sinew_pose_apply_additive";
    other_skeletons(t, ad, &["base", "delta", "out"]);
    t.at(ad, "mask", Size)
        .swap("mask of another skeleton", mask2, SIZE);
    t.at(ad, "out", Alias).swap("out == delta", pose_b, INVALID);
    t.at(ad, "out", Alias)
        .swap("out == base (allowed)", pose_a, OK);
    t.at(ad, "weight", Valid).float(-1.0, OK);
}
