//! Four chains solved side by side in [`F4`] lanes, from reading to the result: the input
//! check, the kernel and the finish of the common settings (full weight, minimal-arc joint
//! rotation), each the lane form of the single solve's arithmetic so every lane it completes
//! equals a single solve bit for bit. Lanes it cannot complete are reported, for the caller to
//! solve one at a time.

use glam::{Quat, Vec3};

use super::finish::{finishes_early, tolerance, Solved};
use super::kernel::{self, KernelChain, Placed};
use super::lanes::{Vector, Q, V3};
use super::settings::{EndRotation, TwoBoneIkSettings, TwoBoneTarget};
use crate::ik::IkResult;
use crate::simd::{F4, M4};
use crate::transform::Transform;

/// Four chains and their targets in lanes, as read (nothing checked yet).
pub(crate) struct Chains4 {
    /// Root, joint and end translations.
    pub pos: [V3<F4>; 3],
    /// Root, joint and end rotations.
    pub rot: [Q<F4>; 3],
    /// Root, joint and end scales (only checked: a solve keeps them).
    pub scale: [V3<F4>; 3],
    pub goal: V3<F4>,
    /// Effector rotations, identity in lanes without one.
    pub goal_rot: Q<F4>,
    /// Lanes (bits) that have an effector rotation.
    pub has_goal_rot: u32,
    /// Poles, zero in lanes without one.
    pub pole: V3<F4>,
    /// Lanes (bits) that have a pole.
    pub has_pole: u32,
}

impl Chains4 {
    /// Four chains and targets read one by one.
    #[inline(always)]
    pub(crate) fn gather(chains: &[[Transform; 3]; 4], targets: &[TwoBoneTarget; 4]) -> Self {
        let pos = |k: usize| V3::gather(chains.each_ref().map(|c| c[k].translation));
        let rot = |k: usize| Q::gather(chains.each_ref().map(|c| c[k].rotation));
        let scale = |k: usize| V3::gather(chains.each_ref().map(|c| c[k].scale));
        let bits = |has: fn(&TwoBoneTarget) -> bool| {
            (0..4).map(|j| u32::from(has(&targets[j])) << j).sum()
        };
        Chains4 {
            pos: [pos(0), pos(1), pos(2)],
            rot: [rot(0), rot(1), rot(2)],
            scale: [scale(0), scale(1), scale(2)],
            goal: V3::gather(targets.map(|t| t.position)),
            goal_rot: Q::gather(targets.map(|t| t.rotation.unwrap_or(Quat::IDENTITY))),
            has_goal_rot: bits(|t| t.rotation.is_some()),
            pole: V3::gather(targets.map(|t| t.pole.unwrap_or(Vec3::ZERO))),
            has_pole: bits(|t| t.pole.is_some()),
        }
    }

    /// Lane `j`'s chain and target.
    pub(crate) fn lane(&self, j: usize) -> ([Transform; 3], TwoBoneTarget) {
        let v = |v: V3<F4>| Vec3::new(v.x.to_array()[j], v.y.to_array()[j], v.z.to_array()[j]);
        let q = |q: Q<F4>| Quat::from_array([q.x, q.y, q.z, q.w].map(|l| l.to_array()[j]));
        let t = |k: usize| Transform {
            translation: v(self.pos[k]),
            rotation: q(self.rot[k]),
            scale: v(self.scale[k]),
        };
        let has = |bits: u32| bits & (1 << j) != 0;
        let target = TwoBoneTarget {
            position: v(self.goal),
            rotation: has(self.has_goal_rot).then(|| q(self.goal_rot)),
            pole: has(self.has_pole).then(|| v(self.pole)),
        };
        ([t(0), t(1), t(2)], target)
    }

    /// Lanes (bits) whose chain and target can be used as they are: `is_clean` per lane, the
    /// same operations in the same order. (A unit rotation is finite, so the effector
    /// rotation needs only the unit test.)
    #[inline(always)]
    fn clean(&self) -> u32 {
        let sum = |k: usize| {
            let (q, t, s) = (self.rot[k], self.pos[k], self.scale[k]);
            q.x + q.y + q.z + q.w + (t.x + s.x) + (t.y + s.y) + (t.z + s.z)
        };
        let unit = |q: Q<F4>| {
            let d = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - F4::splat(1.0);
            d.le(F4::splat(1e-6)) & d.ge(F4::splat(-1e-6))
        };
        let target = self.goal + self.pole;
        let goal_rot_ok = unit(self.goal_rot) | !M4::from_bitmask(self.has_goal_rot);
        let ok = (sum(0) + sum(1) + sum(2)).is_finite()
            & unit(self.rot[0])
            & unit(self.rot[1])
            & unit(self.rot[2])
            & target.x.is_finite()
            & target.y.is_finite()
            & target.z.is_finite()
            & goal_rot_ok;
        ok.bitmask()
    }
}

/// Four solved chains in lanes.
pub(crate) struct Solved4 {
    pub root: Q<F4>,
    pub mid: (V3<F4>, Q<F4>),
    pub end: (V3<F4>, Q<F4>),
    pub error: F4,
    pub reached: M4,
}

impl Solved4 {
    /// The four lanes as single solves' outcomes.
    #[inline(always)]
    pub(crate) fn lanes(&self) -> [(Solved, IkResult); 4] {
        let (root, mid_rot, end_rot) = (
            self.root.scatter(),
            self.mid.1.scatter(),
            self.end.1.scatter(),
        );
        let (mid, end) = (self.mid.0.scatter(), self.end.0.scatter());
        let (error, reached) = (self.error.to_array(), self.reached.bitmask());
        std::array::from_fn(|j| {
            let solved = Solved {
                root: root[j],
                mid: (mid[j].into(), mid_rot[j]),
                end: (end[j].into(), end_rot[j]),
            };
            let result = IkResult {
                reached: reached & (1 << j) != 0,
                error: error[j],
                iterations: 1,
            };
            (solved, result)
        })
    }
}

/// What a pass of four lanes produced.
pub(crate) struct Pass4 {
    /// The kernel's placement, when the settings and poles let it run.
    pub placed: Option<Placed<F4>>,
    /// The finished chains, when the settings let lanes finish.
    pub solved: Option<Solved4>,
    /// Lanes (bits) the kernel placed (and whose input was clean).
    pub placed_ok: u32,
    /// Lanes (bits) finished in `solved`.
    pub done: u32,
}

/// Bits of the lanes whose input is clean.
#[inline(always)]
pub(crate) fn clean(chains: &Chains4) -> u32 {
    chains.clean()
}

/// Checks, places and (where the settings allow) finishes four chains.
#[inline(always)]
pub(crate) fn solve(s: &TwoBoneIkSettings, c: &Chains4) -> Pass4 {
    let clean = c.clean();
    let none = Pass4 {
        placed: None,
        solved: None,
        placed_ok: 0,
        done: 0,
    };
    let uniform = c.has_pole == 0 || c.has_pole == 0b1111;
    if !(uniform && s.weight > 0.0 && kernel::applies(s, c.has_pole != 0)) {
        return none;
    }
    let k = KernelChain {
        a: c.pos[0],
        b: c.pos[1],
        c: c.pos[2],
        root: c.rot[0],
        mid: c.rot[1],
        goal: c.goal,
        pole: (c.has_pole != 0).then_some(c.pole),
    };
    let placed = kernel::place::<F4>(s, &k);
    let placed_ok = placed.ok.bitmask() & clean;
    if !finishes_early(s) {
        return Pass4 {
            placed: Some(placed),
            placed_ok,
            ..none
        };
    }
    let (solved, finished) = finish(s, c, &placed);
    Pass4 {
        placed: Some(placed),
        solved: Some(solved),
        placed_ok,
        done: placed_ok & finished.bitmask(),
    }
}

/// `finish` at full weight without twist, per lane, and the lanes it completed: the end
/// rotation, the reach error (lanes whose error needs `exact_length`'s scaled form are left
/// out) and the check that every new value is finite.
#[inline(always)]
fn finish(s: &TwoBoneIkSettings, c: &Chains4, p: &Placed<F4>) -> (Solved4, M4) {
    let end = c.rot[2];
    let end_rot = match s.end_rotation {
        EndRotation::KeepModel => end,
        EndRotation::CopyEffector => {
            let m = M4::from_bitmask(c.has_goal_rot);
            Q {
                x: F4::select(m, c.goal_rot.x, end.x),
                y: F4::select(m, c.goal_rot.y, end.y),
                z: F4::select(m, c.goal_rot.z, end.z),
                w: F4::select(m, c.goal_rot.w, end.w),
            }
        }
        EndRotation::KeepLocal => p.mid.mul(c.rot[1].conjugate().mul(end)).normalize(),
    };
    let to_goal = p.c - c.goal;
    let sq = to_goal.dot(to_goal);
    let error = sq.sqrt();
    let reached = error.le(tolerance(p.length));
    let zero = F4::splat(0.0);
    let probe = |v: V3<F4>| v.x * zero + v.y * zero + v.z * zero;
    let probe_q = |q: Q<F4>| q.x * zero + q.y * zero + q.z * zero + q.w * zero;
    let probe = probe(p.b) + probe(p.c) + error * zero + probe_q(p.root) + probe_q(p.mid);
    let finite = (probe + probe_q(end_rot)).eq(zero);
    let solved = Solved4 {
        root: p.root,
        mid: (p.b, p.mid),
        end: (p.c, end_rot),
        error,
        reached,
    };
    // `exact_length` takes the square root where the square is normal or the vector zero.
    let at_goal = to_goal.x.eq(zero) & to_goal.y.eq(zero) & to_goal.z.eq(zero);
    let exact = sq.ge(F4::splat(f32::MIN_POSITIVE)) | at_goal;
    (solved, finite & exact)
}
