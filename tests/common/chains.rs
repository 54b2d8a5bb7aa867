//! Model-space chains: one transform per joint, root first, each joint the parent of the next.

use std::f32::consts::PI;

use sinew::{Quat, Transform, Vec3};

use super::rng::Rng;

/// Model-space chain from a root transform and the local transforms of joints 1..n.
pub fn build(root: Transform, locals: &[Transform]) -> Vec<Transform> {
    let mut out = vec![root];
    for l in locals {
        let m = out.last().unwrap().mul_transform(l);
        out.push(m);
    }
    out
}

/// A chain rooted at `root`: bone `i` has length `lengths[i]` along joint `i`'s local X, and
/// joint `i + 1` has local rotation `bend(i)`.
pub fn chain_of(
    root: Transform,
    lengths: &[f32],
    mut bend: impl FnMut(usize) -> Quat,
) -> Vec<Transform> {
    let locals: Vec<Transform> = lengths
        .iter()
        .enumerate()
        .map(|(i, &l)| Transform::from_rotation_translation(bend(i), Vec3::X * l))
        .collect();
    build(root, &locals)
}

/// Which of its length and its bend a random bone draws first: each file's recorded seeds rely
/// on the order it was written with.
#[derive(Clone, Copy, Debug)]
pub enum Draw {
    LengthFirst,
    BendFirst,
}

/// A random rig-like chain of `n` joints: a random root, bone lengths in 0.3..1.5, every local
/// rotation a random bend of up to `bend` radians; bones along the parent's X (`x_aligned`) or
/// any axis.
pub fn random_chain(
    rng: &mut Rng,
    n: usize,
    bend: f32,
    x_aligned: bool,
    draw: Draw,
) -> Vec<Transform> {
    let root = Transform::from_rotation_translation(rng.rotation(PI), rng.vec3(1.0));
    let locals: Vec<Transform> = (1..n)
        .map(|_| {
            let dir = if x_aligned { Vec3::X } else { rng.dir() };
            let (len, turn) = match draw {
                Draw::LengthFirst => {
                    let len = rng.range(0.3, 1.5);
                    (len, rng.rotation(bend))
                }
                Draw::BendFirst => {
                    let turn = rng.rotation(bend);
                    (rng.range(0.3, 1.5), turn)
                }
            };
            Transform::from_rotation_translation(turn, dir * len)
        })
        .collect();
    build(root, &locals)
}

/// Distance from each joint to the next.
pub fn bone_lengths(chain: &[Transform]) -> Vec<f32> {
    chain
        .windows(2)
        .map(|w| (w[1].translation - w[0].translation).length())
        .collect()
}

/// Sum of the bone lengths.
pub fn total_length(chain: &[Transform]) -> f32 {
    bone_lengths(chain).iter().sum()
}

/// Inner radius of the reachable shell of a chain with these bone lengths (0 unless one bone
/// outweighs the rest).
pub fn inner_radius(lengths: &[f32]) -> f32 {
    let total: f32 = lengths.iter().sum();
    let longest = lengths.iter().copied().fold(0.0, f32::max);
    (2.0 * longest - total).max(0.0)
}

/// Position of the chain's last joint.
pub fn tip(chain: &[Transform]) -> Vec3 {
    chain.last().unwrap().translation
}

/// Local rotations (root relative to `root_parent`).
pub fn locals_of(chain: &[Transform], root_parent: Quat) -> Vec<Quat> {
    let mut parent = root_parent;
    chain
        .iter()
        .map(|t| {
            let l = parent.conjugate() * t.rotation;
            parent = t.rotation;
            l
        })
        .collect()
}

/// The bone of chain joint `i` in its own frame (X for the tip).
pub fn bone_axis(chain: &[Transform], i: usize) -> Vec3 {
    if i + 1 < chain.len() {
        chain[i].rotation.conjugate() * (chain[i + 1].translation - chain[i].translation)
    } else {
        Vec3::X
    }
}

/// The bits of every float of every transform, to compare chains exactly.
pub fn bits(chain: &[Transform]) -> Vec<u32> {
    chain
        .iter()
        .flat_map(|t| {
            t.translation
                .to_array()
                .into_iter()
                .chain(t.rotation.to_array())
                .chain(t.scale.to_array())
        })
        .map(f32::to_bits)
        .collect()
}
