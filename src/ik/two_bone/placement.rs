//! A placement (where a solve puts the joint and end, with the new root and joint rotations)
//! and the glue between chains of transforms and the kernel's lanes.

use glam::{Quat, Vec3A};

use super::kernel::{KernelChain, Placed};
#[cfg(test)]
use super::lanes::{Q, V3};
use super::packed::{P3, P4};
use super::settings::TwoBoneTarget;
use crate::simd::F4;
use crate::transform::Transform;

/// Where a solve put the joint and end, the new root and joint rotations, and the input
/// chain length (for the reach tolerance).
#[derive(Clone, Copy)]
pub(super) struct Placement {
    pub b: Vec3A,
    pub c: Vec3A,
    pub root: Quat,
    pub mid: Quat,
    pub length: f32,
}

impl Placement {
    /// A kernel placement of one chain.
    #[inline(always)]
    pub(super) fn lane(placed: &Placed<f32>) -> Self {
        Placement {
            b: placed.b.vec3().into(),
            c: placed.c.vec3().into(),
            root: placed.root.quat(),
            mid: placed.mid.quat(),
            length: placed.length,
        }
    }

    /// The four lanes of a kernel placement, with the lanes it placed.
    #[inline(always)]
    pub(super) fn lanes(placed: &Placed<F4>) -> ([Self; 4], [bool; 4]) {
        let (b, c) = (placed.b.scatter(), placed.c.scatter());
        let (root, mid) = (placed.root.scatter(), placed.mid.scatter());
        let length = placed.length.to_array();
        let ok = placed.ok.bitmask();
        let lane = |j: usize| Placement {
            b: b[j],
            c: c[j],
            root: root[j],
            mid: mid[j],
            length: length[j],
        };
        (
            [lane(0), lane(1), lane(2), lane(3)],
            [0, 1, 2, 3].map(|j| ok & (1 << j) != 0),
        )
    }
}

/// One validated chain and target for the kernel's one-chain form.
#[inline(always)]
pub(super) fn one_chain(input: &[Transform; 3], target: &TwoBoneTarget) -> KernelChain<f32> {
    KernelChain {
        a: P3::new(input[0].translation),
        b: P3::new(input[1].translation),
        c: P3::new(input[2].translation),
        root: P4::new(input[0].rotation),
        mid: P4::new(input[1].rotation),
        goal: P3::new(target.position),
        pole: target.pole.map(P3::new),
    }
}

/// Four validated chains and targets side by side for the kernel (all with a pole or none).
#[cfg(test)]
pub(super) fn gather(group: &[([Transform; 3], TwoBoneTarget); 4]) -> KernelChain<F4> {
    let chains = group.each_ref().map(|g| &g.0);
    let targets = group.each_ref().map(|g| &g.1);
    let joint = |k: usize| V3::gather(chains.map(|c| c[k].translation));
    let rotation = |k: usize| Q::gather(chains.map(|c| c[k].rotation));
    KernelChain {
        a: joint(0),
        b: joint(1),
        c: joint(2),
        root: rotation(0),
        mid: rotation(1),
        goal: V3::gather(targets.map(|t| t.position)),
        pole: targets[0]
            .pole
            .map(|_| V3::gather(targets.map(|t| t.pole.unwrap_or_default()))),
    }
}
