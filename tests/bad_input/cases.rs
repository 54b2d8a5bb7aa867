//! The cases written out by hand, one module per job, each for its exports: integer arguments
//! and fields (out of range, counts, enum and flag values), sizes, parents, keys, degenerate
//! geometry, aliasing, state, and the boundary values that must be accepted.

mod additive;
mod aim;
mod batch;
mod blend;
mod chains;
mod clip;
mod constraints;
mod crossfade;
mod hand;
mod multi_fabrik;
mod pose;
mod skeleton;
mod skin;
mod two_bone;

use crate::header::Class::{Degenerate, Overflow, Size};
use crate::table::*;
use crate::world::{v, World};

/// A pose-level solve's pose: of another skeleton (its joints out of range), or with a model
/// space that overflows.
fn pose_cases(t: &mut Table, export: &'static str) {
    let what = "pose of another skeleton (joints out of its range)";
    t.at(export, "pose", Size).swap(what, pose2, RANGE);
    let what = "pose whose model space overflows";
    t.at(export, "pose", Overflow)
        .world(what, overflow_pose, OVERFLOW);
}

/// [`pose_cases`], and degenerate geometry a pose-level solve must solve: a zero-length bone,
/// the effector (parameter `target`) at the chain's first joint `root`.
fn pose_solve_cases(t: &mut Table, export: &'static str, target: &str, root: u32) {
    pose_cases(t, export);
    let zero_bone = |w: &mut World| pose_translation(w, 3, v(0.0, 0.0, 0.0));
    t.at(export, "pose", Degenerate)
        .world("zero-length bone in the pose", zero_bone, OK);
    let at_root = move |w: &mut World| w.b.pose_effector = pose_position(w, root);
    let what = "effector at the chain's first joint";
    t.at(export, target, Degenerate).world(what, at_root, OK);
}

pub fn all(t: &mut Table) {
    skeleton::cases(t);
    pose::cases(t);
    blend::cases(t);
    additive::cases(t);
    constraints::cases(t);
    two_bone::cases(t);
    chains::cases(t);
    aim::cases(t);
    batch::cases(t);
    hand::cases(t);
    multi_fabrik::cases(t);
    clip::cases(t);
    clip::frame_cases(t);
    crossfade::cases(t);
    skin::cases(t);
}
