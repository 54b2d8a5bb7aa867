//! Additive layers: making a delta and applying it.

use super::blend::other_skeletons;
use crate::header::Class::*;
use crate::table::*;

pub fn cases(t: &mut Table) {
    let mk = "sinew_pose_make_additive";
    other_skeletons(t, mk, ["pose", "reference", "out_delta"]);
    t.swap(mk, "out_delta", Alias, "out_delta == pose", pose_a, INVALID);
    t.swap(
        mk,
        "out_delta",
        Alias,
        "out_delta == reference",
        pose_b,
        INVALID,
    );

    let ad = "sinew_pose_apply_additive";
    other_skeletons(t, ad, ["base", "delta", "out"]);
    t.swap(ad, "mask", Size, "mask of another skeleton", mask2, SIZE);
    t.swap(ad, "out", Alias, "out == delta", pose_b, INVALID);
    t.swap(ad, "out", Alias, "out == base (allowed)", pose_a, OK);
    t.float(ad, "weight", Valid, -1.0, OK);
}
