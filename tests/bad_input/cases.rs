//! The cases written out by hand, one module per job, each for its exports: integer arguments
//! and fields (out of range, counts, enum and flag values), sizes, parents, keys, degenerate
//! geometry, aliasing, state, and the boundary values that must be accepted.

mod additive;
mod batch;
mod blend;
mod chains;
mod clip;
mod constraints;
mod crossfade;
mod hand;
mod pose;
mod skeleton;
mod two_bone;

use crate::table::Table;

pub fn all(t: &mut Table) {
    skeleton::cases(t);
    pose::cases(t);
    blend::cases(t);
    additive::cases(t);
    constraints::cases(t);
    two_bone::cases(t);
    chains::cases(t);
    batch::cases(t);
    hand::cases(t);
    clip::cases(t);
    crossfade::cases(t);
}
