//! Model-space chains: one transform per joint, root first, each joint the parent of the next.

use sinew::{Quat, Transform, Vec3};

/// Model-space chain from a root transform and the local transforms of joints 1..n.
pub fn build(root: Transform, locals: &[Transform]) -> Vec<Transform> {
    let mut out = vec![root];
    for l in locals {
        let m = out.last().unwrap().mul_transform(l);
        out.push(m);
    }
    out
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
