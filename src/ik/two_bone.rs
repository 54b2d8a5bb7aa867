//! Analytic two-bone IK, with the semantics of Unreal's TwoBoneIK node (alpha, stretch with
//! start ratio and max scale, effector rotation modes, joint target) plus soften, twist
//! preservation and a pole weight (Unity's hint weight).

use glam::{Quat, Vec3};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::IkResult;
use crate::pose::{finite, Pose};
use crate::rotation::{nlerp_shortest, perpendicular_dir, shortest_arc, swing_twist};
use crate::skeleton::{validated_rotation, validated_transform};
use crate::transform::Transform;

/// Relative reach tolerance: the end counts as reached within this fraction of the chain length.
pub const REACH_TOLERANCE: f32 = 1e-4;

/// What rotation the end (third) bone gets after the solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndRotation {
    /// Keep its model-space rotation (Unreal's default).
    #[default]
    KeepModel,
    /// Copy the effector rotation (Unreal's `bTakeRotationFromEffectorSpace`); when no
    /// effector rotation is given the model-space rotation is kept.
    CopyEffector,
    /// Keep its rotation relative to the joint bone (Unreal's `bMaintainEffectorRelRot`).
    KeepLocal,
}

/// Two-bone IK settings. Defaults reproduce Unreal's TwoBoneIK node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneIkSettings {
    /// Blend between the input (0) and the solved (1) chain, in local space.
    pub weight: f32,
    /// Lets both bones lengthen to reach farther targets.
    pub allow_stretching: bool,
    /// Reach ratio (target distance / chain length) at which stretching starts.
    pub start_stretch_ratio: f32,
    /// Largest scale applied to the bone lengths when stretching.
    pub max_stretch_scale: f32,
    /// The end bone's rotation.
    pub end_rotation: EndRotation,
    /// In (0, 1]: beyond this fraction of the chain length the reach eases in towards full
    /// extension along an exponential of slope 1, never overshooting the target. 1 is off.
    pub soften: f32,
    /// Keep the joint bone's twist about its own axis relative to the root bone (Unreal's
    /// `bAllowTwist = false`) instead of the minimal-arc rotation.
    pub keep_twist: bool,
    /// How far the bend plane turns from the input's towards the pole, in [0, 1].
    pub pole_weight: f32,
}

impl Default for TwoBoneIkSettings {
    fn default() -> Self {
        Self {
            weight: 1.0,
            allow_stretching: false,
            start_stretch_ratio: 1.0,
            max_stretch_scale: 1.2,
            end_rotation: EndRotation::KeepModel,
            soften: 1.0,
            keep_twist: false,
            pole_weight: 1.0,
        }
    }
}

impl TwoBoneIkSettings {
    /// Checks every field is finite and in its domain.
    pub fn validate(&self) -> Result<()> {
        let fields = [
            ("weight", self.weight),
            ("start_stretch_ratio", self.start_stretch_ratio),
            ("max_stretch_scale", self.max_stretch_scale),
            ("soften", self.soften),
            ("pole_weight", self.pole_weight),
        ];
        for (name, v) in fields {
            ensure_finite(v.is_finite(), name)?;
        }
        let invalid = |m: String| Err(Error::new(ErrorKind::InvalidArgument, m));
        if !(0.0..=1.0).contains(&self.weight) {
            return invalid(format!("weight {} is outside [0, 1]", self.weight));
        }
        if !(0.0..=1.0).contains(&self.pole_weight) {
            return invalid(format!(
                "pole_weight {} is outside [0, 1]",
                self.pole_weight
            ));
        }
        if !(self.soften > 0.0 && self.soften <= 1.0) {
            return invalid(format!("soften {} is outside (0, 1]", self.soften));
        }
        if self.start_stretch_ratio <= 0.0 {
            return invalid(format!(
                "start_stretch_ratio {} must be positive",
                self.start_stretch_ratio
            ));
        }
        if self.max_stretch_scale < 1.0 {
            return invalid(format!(
                "max_stretch_scale {} must be at least 1",
                self.max_stretch_scale
            ));
        }
        Ok(())
    }
}

/// Where the chain should go: effector position, optional rotation and optional pole
/// (joint target), all in the chain's model space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoBoneTarget {
    /// Where the end bone should be.
    pub position: Vec3,
    /// Rotation for [`EndRotation::CopyEffector`].
    pub rotation: Option<Quat>,
    /// Point the joint bends towards; `None` keeps the input chain's bend plane.
    pub pole: Option<Vec3>,
}

impl TwoBoneTarget {
    /// A target position with no rotation and no pole.
    pub fn at(position: Vec3) -> Self {
        Self {
            position,
            rotation: None,
            pole: None,
        }
    }

    /// The same target with a pole.
    pub fn with_pole(self, pole: Vec3) -> Self {
        Self {
            pole: Some(pole),
            ..self
        }
    }

    /// The target with its rotation normalized, or why it is unusable.
    fn validated(&self) -> Result<Self> {
        ensure_finite(self.position.is_finite(), "effector position")?;
        if let Some(p) = self.pole {
            ensure_finite(p.is_finite(), "joint target (pole)")?;
        }
        Ok(Self {
            rotation: validated_rotation(self.rotation)?,
            ..*self
        })
    }
}

/// A two-bone IK solver: validated settings, reusable across chains and threads (it keeps no
/// per-solve state, so `&self` solves are safe to share).
#[derive(Clone, Debug)]
pub struct TwoBoneIk {
    settings: TwoBoneIkSettings,
}

impl TwoBoneIk {
    /// A solver with validated settings.
    pub fn new(settings: TwoBoneIkSettings) -> Result<Self> {
        settings.validate()?;
        Ok(Self { settings })
    }

    /// Current settings.
    pub fn settings(&self) -> &TwoBoneIkSettings {
        &self.settings
    }

    /// Replaces the settings after validating them (unchanged on error).
    pub fn set_settings(&mut self, settings: TwoBoneIkSettings) -> Result<()> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Solves a chain of three model-space transforms (root, joint, end) in place.
    /// On error the chain is left untouched.
    pub fn solve(&self, chain: &mut [Transform; 3], target: &TwoBoneTarget) -> Result<IkResult> {
        let input = [
            validated_transform(&chain[0], || "root transform".into())?,
            validated_transform(&chain[1], || "joint transform".into())?,
            validated_transform(&chain[2], || "end transform".into())?,
        ];
        let target = &target.validated()?;
        // At weight 0 there is nothing to apply: the chain stays bit-identical.
        let skip = self.settings.weight == 0.0;
        let (solved, result) = if skip {
            let [a, b, c] = input.map(|t| t.translation);
            let length = (b - a).length() + (c - b).length();
            (
                input,
                result((c - target.position).length(), tolerance(length)),
            )
        } else {
            self.solve_chain(&input, target)
        };
        let ok = solved.iter().all(Transform::is_finite) && result.error.is_finite();
        if !ok {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "two-bone IK result is not representable in f32 (inputs too large)",
            ));
        }
        if !skip {
            *chain = solved;
        }
        Ok(result)
    }

    /// Solves joints `root`, `joint`, `end` of `pose` (each the parent of the next) toward a
    /// model-space target and writes local rotations back (and translations when stretching).
    /// Like Unreal's node, stretching scales the pose's current bone lengths: feed it the
    /// animated (un-stretched) pose each frame, or repeated solves compound the stretch.
    pub fn solve_pose(
        &self,
        pose: &mut Pose,
        joints: [u32; 3],
        target: &TwoBoneTarget,
    ) -> Result<IkResult> {
        let joints = joints.map(|j| j as usize);
        pose.skeleton().check_chain(joints)?;
        let parent = pose.parent_model_of(joints[0])?;
        let root = finite(parent.mul_transform(&pose.local()[joints[0]]))?;
        let mid = finite(root.mul_transform(&pose.local()[joints[1]]))?;
        let end = finite(mid.mul_transform(&pose.local()[joints[2]]))?;
        let mut chain = [root, mid, end];
        let result = self.solve(&mut chain, target)?;
        let parents = [parent, chain[0], chain[1]];
        // Back to local space, checked before anything is written (a tiny parent scale can
        // push a stretched translation out of f32's range).
        let mut locals = [Transform::IDENTITY; 3];
        for ((rel, model), p) in locals.iter_mut().zip(&chain).zip(&parents) {
            *rel = finite(p.inverse_mul(model))?;
        }
        let stretch = self.settings.allow_stretching;
        let local = pose.local_mut();
        for (&j, rel) in joints.iter().zip(&locals) {
            local[j].rotation = rel.rotation.normalize();
            if stretch {
                local[j].translation = rel.translation;
            }
        }
        Ok(result)
    }

    fn solve_chain(
        &self,
        chain: &[Transform; 3],
        target: &TwoBoneTarget,
    ) -> ([Transform; 3], IkResult) {
        let s = &self.settings;
        let [root, mid, end] = *chain;
        let a = root.translation;
        let b = mid.translation;
        let c = end.translation;
        let l1 = (b - a).length();
        let l2 = (c - b).length();
        let length = l1 + l2;
        let tiny = length * 1e-6 + f32::MIN_POSITIVE;
        let tolerance = tolerance(length);
        let goal = target.position;

        let to_goal = goal - a;
        let goal_dist = to_goal.length();
        let dir = if goal_dist > tiny {
            to_goal / goal_dist
        } else {
            fallback_direction(&root, b - a, c - a, tiny)
        };
        let bend = self.bend_direction(&root, b - a, dir, target.pole, tiny, l1);

        // Effective bone lengths: Unreal's stretch formula.
        let (mut u1, mut u2) = (l1, l2);
        if s.allow_stretching && length > tiny {
            let range = s.max_stretch_scale - s.start_stretch_ratio;
            if range > 1e-6 {
                let ratio = goal_dist / length;
                let f = (s.max_stretch_scale - 1.0)
                    * ((ratio - s.start_stretch_ratio) / range).clamp(0.0, 1.0);
                u1 *= 1.0 + f;
                u2 *= 1.0 + f;
            }
        }
        let reach = u1 + u2;
        let dist = soften_distance(goal_dist, reach, s.soften);

        // Place the joint by the law of cosines, then the end along the joint-to-goal line so
        // both bone lengths hold even when the triangle cannot close.
        let aim = a + dir * dist;
        let (new_b, new_c) = if dist >= reach {
            (a + dir * u1, a + dir * reach)
        } else if u1 <= tiny {
            (a, a + dir * u2)
        } else {
            let d = dist.max(tiny);
            let cos = ((u1 * u1 + d * d - u2 * u2) / (2.0 * u1 * d)).clamp(-1.0, 1.0);
            let sin = (1.0 - cos * cos).max(0.0).sqrt();
            let nb = a + dir * (u1 * cos) + bend * (u1 * sin);
            let lower = aim - nb;
            let lower_len = lower.length();
            let nc = if lower_len > tiny {
                nb + lower * (u2 / lower_len)
            } else {
                nb + dir * u2
            };
            (nb, nc)
        };

        // Rotations: minimal arcs from the old bone directions to the new ones.
        let root_rot = (shortest_arc(b - a, new_b - a) * root.rotation).normalize();
        let mut mid_rot = (shortest_arc(c - b, new_c - new_b) * mid.rotation).normalize();
        if s.keep_twist && l2 > tiny {
            let axis = (mid.rotation.conjugate() * (c - b)).normalize();
            let old_local = root.rotation.conjugate() * mid.rotation;
            let new_local = root_rot.conjugate() * mid_rot;
            let (swing, _) = swing_twist(new_local, axis);
            let (_, twist) = swing_twist(old_local, axis);
            mid_rot = (root_rot * swing * twist).normalize();
        }
        let end_rot = match s.end_rotation {
            EndRotation::KeepModel => end.rotation,
            EndRotation::CopyEffector => target.rotation.unwrap_or(end.rotation),
            EndRotation::KeepLocal => {
                (mid_rot * (mid.rotation.conjugate() * end.rotation)).normalize()
            }
        };
        let mut solved = [
            Transform {
                rotation: root_rot,
                ..root
            },
            Transform {
                translation: new_b,
                rotation: mid_rot,
                ..mid
            },
            Transform {
                translation: new_c,
                rotation: end_rot,
                ..end
            },
        ];
        if s.weight < 1.0 {
            solved = blend_chain(chain, &solved, s.weight);
        }
        let error = (solved[2].translation - goal).length();
        (solved, result(error, tolerance))
    }

    /// Unit direction perpendicular to `dir` toward which the joint bends: the input bend plane,
    /// turned toward the pole by `pole_weight`; without a usable pole or plane, a direction
    /// fixed in the root bone's frame.
    fn bend_direction(
        &self,
        root: &Transform,
        upper: Vec3,
        dir: Vec3,
        pole: Option<Vec3>,
        tiny: f32,
        l1: f32,
    ) -> Vec3 {
        let pole_dir = pole.and_then(|p| perpendicular_dir(p - root.translation, dir, tiny));
        let w = self.settings.pole_weight;
        if let (Some(pole_dir), true) = (pole_dir, w >= 1.0) {
            // The input's plane only matters when the pole is missing or only partly applied.
            return pole_dir;
        }
        let plane_eps = (l1 * 1e-5).max(tiny);
        let current = perpendicular_dir(upper, dir, plane_eps)
            .unwrap_or_else(|| frame_perpendicular(root, upper, dir));
        let Some(pole_dir) = pole_dir else {
            return current;
        };
        let angle = current
            .cross(pole_dir)
            .dot(dir)
            .atan2(current.dot(pole_dir));
        Quat::from_axis_angle(dir, angle * w) * current
    }
}

/// Absolute reach tolerance for a chain of `length`.
fn tolerance(length: f32) -> f32 {
    (length * REACH_TOLERANCE).max(1e-6)
}

fn result(error: f32, tolerance: f32) -> IkResult {
    IkResult {
        reached: error <= tolerance,
        error,
        iterations: 1,
    }
}

/// Soft reach: beyond `soften * reach` the distance eases in as `da + ds (1 - e^{-(d - da)/ds})`,
/// slope 1 where it starts and always below both `d` and `reach`.
fn soften_distance(d: f32, reach: f32, soften: f32) -> f32 {
    let da = soften * reach;
    let ds = reach - da;
    if soften >= 1.0 || d <= da || ds <= 0.0 {
        return d;
    }
    da + ds * (1.0 - (-(d - da) / ds).exp())
}

/// Direction toward a target at the root: the current end, then the upper bone, then the
/// root's own X axis.
fn fallback_direction(root: &Transform, upper: Vec3, to_end: Vec3, tiny: f32) -> Vec3 {
    [to_end, upper]
        .into_iter()
        .find(|v| v.length() > tiny)
        .map_or(root.rotation * Vec3::X, Vec3::normalize)
}

/// A bend direction that moves with the root bone: the root's local axis most perpendicular to
/// the upper bone (a per-rig constant), taken to model space and made perpendicular to `dir`.
fn frame_perpendicular(root: &Transform, upper: Vec3, dir: Vec3) -> Vec3 {
    let local_bone = root.rotation.conjugate() * upper;
    let mut axes = [Vec3::X, Vec3::Y, Vec3::Z];
    axes.sort_by(|p, q| {
        local_bone
            .dot(*p)
            .abs()
            .total_cmp(&local_bone.dot(*q).abs())
    });
    axes.iter()
        .find_map(|&e| perpendicular_dir(root.rotation * e, dir, 1e-3))
        .unwrap_or_else(|| dir.any_orthonormal_vector())
}

/// Blends the solved chain with the input in local space by `w`, then rebuilds model space.
fn blend_chain(input: &[Transform; 3], solved: &[Transform; 3], w: f32) -> [Transform; 3] {
    let root = Transform {
        rotation: nlerp_shortest(input[0].rotation, solved[0].rotation, w),
        ..input[0]
    };
    let mid_local = input[0]
        .inverse_mul(&input[1])
        .mix(&solved[0].inverse_mul(&solved[1]), w);
    let end_local = input[1]
        .inverse_mul(&input[2])
        .mix(&solved[1].inverse_mul(&solved[2]), w);
    let mid = root.mul_transform(&mid_local);
    let end = mid.mul_transform(&end_local);
    [
        root,
        Transform {
            scale: input[1].scale,
            ..mid
        },
        Transform {
            scale: input[2].scale,
            ..end
        },
    ]
}
