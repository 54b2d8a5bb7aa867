//! Analytic two-bone IK, with the semantics of Unreal's TwoBoneIK node (alpha, stretch with
//! start ratio and max scale, effector rotation modes, joint target) plus soften, twist
//! preservation and a pole weight (Unity's hint weight).

use glam::{Quat, Vec3, Vec3A, Vec4};

use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::ik::access::TransformAccess;
use crate::ik::chain_batch::batch_outcome;
use crate::ik::lanes::{Q, V3};
use crate::ik::two_bone_kernel::{self as kernel, KernelChain, Placed};
use crate::ik::{exact_length, IkResult};
use crate::pose::{finite, Pose};
use crate::rotation::{
    frame_perpendicular, nlerp_shortest, perpendicular_unit, shortest_arc, swing_twist,
    unit_arc_unnormalized,
};
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
    /// How far the bend turns from the no-pole one (the input's, carried onto the target)
    /// towards the pole, about the root-target line, in [0, 1].
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
    /// Point the joint bends towards; `None` keeps the input chain's bend, turned by the
    /// minimal rotation from its root-end direction onto the root-target direction.
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
    #[inline(always)]
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

/// Where a batch solve finds its chains, targets and results, for callers that keep them in
/// their own layout (the C ABI's arrays, whose targets may point into the chains).
pub(crate) trait TwoBoneBatch {
    /// The caller's transform type.
    type Transform: TransformAccess;
    /// Number of chains.
    fn count(&self) -> usize;
    /// Chain `i`'s target.
    fn target(&self, i: usize) -> TwoBoneTarget;
    /// Chain `i`: root, joint and end in model space.
    fn chain(&mut self, i: usize) -> &mut [Self::Transform; 3];
    /// Stores chain `i`'s result.
    fn set_result(&mut self, i: usize, result: IkResult);
    /// Whether targets may be stored inside the chains (then they change as chains are
    /// solved and are checked again when read).
    fn targets_may_alias_chains(&self) -> bool {
        false
    }
}

/// Slices of chains, targets and results of one length.
struct SliceBatch<'a> {
    chains: &'a mut [[Transform; 3]],
    targets: &'a [TwoBoneTarget],
    results: &'a mut [IkResult],
}

impl TwoBoneBatch for SliceBatch<'_> {
    type Transform = Transform;
    fn count(&self) -> usize {
        self.chains.len()
    }
    fn target(&self, i: usize) -> TwoBoneTarget {
        self.targets[i]
    }
    fn chain(&mut self, i: usize) -> &mut [Transform; 3] {
        &mut self.chains[i]
    }
    fn set_result(&mut self, i: usize, result: IkResult) {
        self.results[i] = result;
    }
}

/// What a solve changes: the root's rotation, the joint's and end's translation and rotation.
struct Solved {
    root: Quat,
    mid: (Vec3, Quat),
    end: (Vec3, Quat),
}

impl Solved {
    /// Writes the new values over a chain.
    #[inline(always)]
    fn write<T: TransformAccess>(&self, chain: &mut [T; 3]) {
        chain[0].set_rotation(self.root);
        chain[1].set_translation_rotation(self.mid.0, self.mid.1);
        chain[2].set_translation_rotation(self.end.0, self.end.1);
    }
}

/// A chain read through [`TransformAccess`].
#[inline(always)]
fn read_chain<T: TransformAccess>(chain: &[T; 3]) -> [Transform; 3] {
    [
        chain[0].transform(),
        chain[1].transform(),
        chain[2].transform(),
    ]
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

    /// Solves a chain of three model-space transforms (root, joint, end) in place, in any
    /// layout that implements [`TransformAccess`]. On error the chain is left untouched.
    pub fn solve<T: TransformAccess>(
        &self,
        chain: &mut [T; 3],
        target: &TwoBoneTarget,
    ) -> Result<IkResult> {
        let mut input = read_chain(chain);
        let mut target = *target;
        if !is_clean(&input, &target) {
            input = validated_chain(&input)?;
            target = target.validated()?;
        }
        let (solved, result) = self.finish(&input, &target, self.place(&input, &target))?;
        if let Some(solved) = solved {
            solved.write(chain);
        }
        Ok(result)
    }

    /// Solves many independent chains in one call, four at a time in SIMD lanes; each chain's
    /// result equals a single [`solve`](Self::solve) bit for bit.
    ///
    /// `chains`, `targets` and `results` must have the same length. Every input is checked
    /// before anything is written, so bad input leaves all chains untouched. A chain whose
    /// result overflows f32 is left untouched with its result entry, the others are solved,
    /// and the first such chain is reported as `NumericOverflow`.
    pub fn solve_batch(
        &self,
        chains: &mut [[Transform; 3]],
        targets: &[TwoBoneTarget],
        results: &mut [IkResult],
    ) -> Result<()> {
        if targets.len() != chains.len() || results.len() != chains.len() {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!(
                    "batch sizes differ: {} chains, {} targets, {} results",
                    chains.len(),
                    targets.len(),
                    results.len()
                ),
            ));
        }
        self.solve_batch_with(&mut SliceBatch {
            chains,
            targets,
            results,
        })
    }

    /// [`solve_batch`](Self::solve_batch) over chains the caller stores in its own layout (the
    /// C ABI's packed transforms), with the same checks and guarantees.
    pub(crate) fn solve_batch_with<B: TwoBoneBatch>(&self, batch: &mut B) -> Result<()> {
        let count = batch.count();
        // Check everything first, so bad input leaves every chain untouched.
        let mut recheck = batch.targets_may_alias_chains();
        for i in 0..count {
            let target = batch.target(i);
            let chain = read_chain(batch.chain(i));
            if !is_clean(&chain, &target) {
                validated_chain(&chain)
                    .and(target.validated())
                    .map_err(|e| Error::new(e.kind(), format!("chain {i}: {}", e.message())))?;
                recheck = true;
            }
        }
        // Inputs are read again as each chain is solved. Clean input that cannot change is
        // used as it is; otherwise (rotations to normalize, targets stored inside chains solved
        // before them) each read is checked again.
        let read = |batch: &mut B, i, (chain, target): &mut ([Transform; 3], TwoBoneTarget)| {
            let source = batch.chain(i);
            for (t, s) in chain.iter_mut().zip(source.iter()) {
                *t = s.transform();
            }
            *target = batch.target(i);
            if recheck && !is_clean(chain, target) {
                *chain = validated_chain(chain)?;
                *target = target.validated()?;
            }
            Ok(())
        };
        let mut failure: Option<(usize, Error)> = None;
        let mut group = [([Transform::IDENTITY; 3], TwoBoneTarget::at(Vec3::ZERO)); 4];
        let mut read_ok: [Result<()>; 4] = [Ok(()), Ok(()), Ok(()), Ok(())];
        let mut start = 0;
        while start < count {
            let lanes = (count - start).min(4);
            for (j, (slot, ok)) in group.iter_mut().zip(&mut read_ok).enumerate() {
                *ok = read(batch, start + j.min(lanes - 1), slot);
            }
            let has_pole = group[0].1.pole.is_some();
            let uniform = group.iter().all(|(_, t)| t.pole.is_some() == has_pole);
            let wide = (lanes == 4 && uniform && self.uses_kernel(has_pole))
                .then(|| Placement::lanes(&kernel::place(&self.settings, &gather(&group))));
            for (j, (input, target)) in group.iter().take(lanes).enumerate() {
                let solved = std::mem::replace(&mut read_ok[j], Ok(())).and_then(|()| {
                    let placed = match &wide {
                        Some((placed, ok)) if ok[j] => placed[j],
                        Some(_) => self.place_general(input, target),
                        None => self.place(input, target),
                    };
                    self.finish(input, target, placed)
                });
                match solved {
                    Ok((solved, result)) => {
                        if let Some(solved) = solved {
                            solved.write(batch.chain(start + j));
                        }
                        batch.set_result(start + j, result);
                    }
                    Err(e) => {
                        failure.get_or_insert((start + j, e));
                    }
                }
            }
            start += lanes;
        }
        batch_outcome(failure)
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

    /// Whether the SIMD-friendly kernel handles a solve with or without a pole.
    fn uses_kernel(&self, has_pole: bool) -> bool {
        self.settings.weight > 0.0 && kernel::applies(&self.settings, has_pole)
    }

    /// Places one validated chain: the kernel on one lane when it applies and succeeds (the
    /// same arithmetic as a batch lane), else the general path.
    #[inline(always)]
    fn place(&self, input: &[Transform; 3], target: &TwoBoneTarget) -> Placement {
        if self.uses_kernel(target.pole.is_some()) {
            let placed = kernel::place(&self.settings, &one_lane(input, target));
            if placed.ok {
                return Placement {
                    b: Vec3::from(placed.b).into(),
                    c: Vec3::from(placed.c).into(),
                    root: placed.root.into(),
                    mid: placed.mid.into(),
                    length: placed.length,
                };
            }
        }
        self.place_general(input, target)
    }

    /// Applies twist, end rotation and weight to a placement and measures the reach error.
    /// `None` means nothing changes (weight 0); fails when the result is not representable.
    #[inline(always)]
    fn finish(
        &self,
        input: &[Transform; 3],
        target: &TwoBoneTarget,
        placed: Placement,
    ) -> Result<(Option<Solved>, IkResult)> {
        let s = &self.settings;
        let tolerance = tolerance(placed.length);
        let overflow = || {
            Err(Error::new(
                ErrorKind::NumericOverflow,
                "two-bone IK result is not representable in f32 (inputs too large)",
            ))
        };
        // At weight 0 there is nothing to apply: the chain stays bit-identical.
        if s.weight == 0.0 {
            let error = exact_length((input[2].translation - target.position).into());
            return if error.is_finite() {
                Ok((None, result(error, tolerance)))
            } else {
                overflow()
            };
        }
        let [root, mid, end] = [0, 1, 2].map(|j| input[j].rotation);
        let root_rot = placed.root;
        let mut mid_rot = placed.mid;
        let lower = input[2].translation - input[1].translation;
        if s.keep_twist && lower.length() > placed.length * 1e-6 + f32::MIN_POSITIVE {
            let axis = (mid.conjugate() * lower).normalize();
            let old_local = root.conjugate() * mid;
            let new_local = root_rot.conjugate() * mid_rot;
            let (swing, _) = swing_twist(new_local, axis);
            let (_, twist) = swing_twist(old_local, axis);
            mid_rot = (root_rot * swing * twist).normalize();
        }
        let end_rot = match s.end_rotation {
            EndRotation::KeepModel => end,
            EndRotation::CopyEffector => target.rotation.unwrap_or(end),
            EndRotation::KeepLocal => (mid_rot * (mid.conjugate() * end)).normalize(),
        };
        let mut solved = Solved {
            root: root_rot,
            mid: (placed.b.into(), mid_rot),
            end: (placed.c.into(), end_rot),
        };
        if s.weight < 1.0 {
            let mut full = *input;
            solved.write(&mut full);
            let [r, m, e] = blend_chain(input, &full, s.weight);
            solved = Solved {
                root: r.rotation,
                mid: (m.translation, m.rotation),
                end: (e.translation, e.rotation),
            };
        }
        let error = exact_length((solved.end.0 - target.position).into());
        // Only the new values can be non-finite: the rest of the chain was checked on input.
        let zero = |q: Quat| Vec4::from(q) * 0.0;
        let probe = (Vec3A::from(solved.mid.0) + Vec3A::from(solved.end.0)) * 0.0;
        let probe =
            probe.extend(error * 0.0) + zero(solved.root) + zero(solved.mid.1) + zero(solved.end.1);
        if probe != Vec4::ZERO {
            return overflow();
        }
        Ok((Some(solved), result(error, tolerance)))
    }

    /// Places one chain: the single-solve path, also the batch fallback for every degenerate
    /// case (target at the root, zero-length bones, pole on the aim line, partial pole
    /// weight, half turns, huge coordinates).
    fn place_general(&self, chain: &[Transform; 3], target: &TwoBoneTarget) -> Placement {
        let s = &self.settings;
        let [root, mid, _] = *chain;
        let a = Vec3A::from(root.translation);
        let b = Vec3A::from(mid.translation);
        let c = Vec3A::from(chain[2].translation);
        let (upper, lower) = (b - a, c - b);
        let l1 = upper.length();
        let l2 = lower.length();
        let length = l1 + l2;
        let tiny = length * 1e-6 + f32::MIN_POSITIVE;
        let goal = Vec3A::from(target.position);

        let to_goal = goal - a;
        let goal_dist = to_goal.length();
        let dir = if goal_dist > tiny {
            to_goal / goal_dist
        } else {
            fallback_direction(&root, upper, c - a, tiny)
        };
        let plane_eps = (l1 * 1e-5).max(tiny);
        let bend = self.bend_direction(a, dir, target.pole, tiny, || {
            carried_bend(&root, upper, c - a, dir, tiny, plane_eps)
        });

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
        // both bone lengths hold even when the triangle cannot close. `None` marks a bone
        // whose new direction is undefined (zero length).
        let (new_b, new_c, upper_dir, lower_dir) = if dist >= reach {
            (a + dir * u1, a + dir * reach, Some(dir), Some(dir))
        } else if u1 <= tiny {
            (a, a + dir * u2, None, Some(dir))
        } else {
            let d = dist.max(tiny);
            let cos = ((u1 * u1 + d * d - u2 * u2) / (2.0 * u1 * d)).clamp(-1.0, 1.0);
            // (1 - c)(1 + c) keeps precision near full extension, where 1 - c² cancels.
            let sin = ((1.0 - cos) * (1.0 + cos)).max(0.0).sqrt();
            let upper_dir = dir * cos + bend * sin;
            let nb = a + upper_dir * u1;
            let to_aim = a + dir * dist - nb;
            let aim_len = to_aim.length();
            let lower_dir = if aim_len > tiny {
                to_aim / aim_len
            } else {
                dir
            };
            (nb, nb + lower_dir * u2, Some(upper_dir), Some(lower_dir))
        };
        Placement {
            b: new_b,
            c: new_c,
            root: turn(upper, l1, upper_dir, root.rotation),
            mid: turn(lower, l2, lower_dir, mid.rotation),
            length,
        }
    }

    /// Unit direction perpendicular to `dir` toward which the joint bends: without a pole
    /// `no_pole` (the input's bend carried onto the aim line, [`carried_bend`]), turned from
    /// there toward the pole by `pole_weight`.
    fn bend_direction(
        &self,
        a: Vec3A,
        dir: Vec3A,
        pole: Option<Vec3>,
        tiny: f32,
        no_pole: impl FnOnce() -> Vec3A,
    ) -> Vec3A {
        let pole_dir = pole.and_then(|p| perpendicular_unit(Vec3A::from(p) - a, dir, tiny));
        let w = self.settings.pole_weight;
        if let (Some(pole_dir), true) = (pole_dir, w >= 1.0) {
            // The input's bend only matters when the pole is missing or only partly applied.
            return pole_dir;
        }
        let current = no_pole();
        let Some(pole_dir) = pole_dir else {
            return current;
        };
        let angle = current
            .cross(pole_dir)
            .dot(dir)
            .atan2(current.dot(pole_dir));
        Quat::from_axis_angle(dir.into(), angle * w) * current
    }
}

/// The input's bend direction (the joint's offset from the root-end line, perpendicular to
/// it) carried by the minimal rotation from the input's root-end direction to `dir`, so the
/// joint keeps the animation's bend as the end is pulled toward the target (like Unity's
/// TwoBoneIK). A straight input (joint within `plane_eps` of its root-end line) uses a
/// direction fixed in the root bone's frame, an input end at the root the upper bone, and a
/// target within 0.1 degree of straight behind the input's end keeps the input's direction.
fn carried_bend(
    root: &Transform,
    upper: Vec3A,
    to_end: Vec3A,
    dir: Vec3A,
    tiny: f32,
    plane_eps: f32,
) -> Vec3A {
    let end_dist = to_end.length();
    let Some(from) = (end_dist > tiny).then(|| to_end / end_dist) else {
        return perpendicular_unit(upper, dir, plane_eps)
            .unwrap_or_else(|| root_frame_perpendicular(root, upper, dir));
    };
    let Some(bend) = perpendicular_unit(upper, from, plane_eps) else {
        return root_frame_perpendicular(root, upper, dir);
    };
    // The minimal rotation from `from` to `dir`, on a vector perpendicular to `from`: a
    // reflection through the plane perpendicular to `from + dir`.
    let k = 1.0 + from.dot(dir);
    let carried = if k > 1e-6 {
        bend - (from + dir) * (bend.dot(dir) / k)
    } else {
        bend
    };
    // Unit and perpendicular to `dir` up to rounding; one more pass makes it exact.
    perpendicular_unit(carried, dir, 0.5)
        .unwrap_or_else(|| root_frame_perpendicular(root, upper, dir))
}

/// Where a solve put the joint and end, the new root and joint rotations, and the input
/// chain length (for the reach tolerance).
#[derive(Clone, Copy)]
struct Placement {
    b: Vec3A,
    c: Vec3A,
    root: Quat,
    mid: Quat,
    length: f32,
}

impl Placement {
    /// The four lanes of a kernel placement, with the lanes it placed.
    #[inline(always)]
    fn lanes(placed: &Placed<Vec4>) -> ([Self; 4], [bool; 4]) {
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

/// One validated chain and target for the kernel's scalar form.
#[inline(always)]
fn one_lane(input: &[Transform; 3], target: &TwoBoneTarget) -> KernelChain<f32> {
    KernelChain {
        a: input[0].translation.into(),
        b: input[1].translation.into(),
        c: input[2].translation.into(),
        root: input[0].rotation.into(),
        mid: input[1].rotation.into(),
        goal: target.position.into(),
        pole: target.pole.map(Into::into),
    }
}

/// Four validated chains and targets side by side for the kernel (all with a pole or none).
#[inline(always)]
fn gather(group: &[([Transform; 3], TwoBoneTarget); 4]) -> KernelChain<Vec4> {
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

/// `rotation` turned by the minimal arc that takes bone vector `old` (of length `old_len`) onto
/// unit direction `new_dir`; only renormalized when the new direction is undefined.
fn turn(old: Vec3A, old_len: f32, new_dir: Option<Vec3A>, rotation: Quat) -> Quat {
    let Some(to) = new_dir else {
        return rotation.normalize();
    };
    // Unit-vector fast path; zero, tiny, huge and near-opposite cases go through the robust arc.
    let arc = (old_len > 1e-15 && old_len.is_finite())
        .then(|| unit_arc_unnormalized(old / old_len, to))
        .flatten()
        .unwrap_or_else(|| shortest_arc(old.into(), to.into()));
    (arc * rotation).normalize()
}

/// The chain with its rotations normalized, or why it is unusable.
fn validated_chain(chain: &[Transform; 3]) -> Result<[Transform; 3]> {
    Ok([
        validated_transform(&chain[0], || "root transform".into())?,
        validated_transform(&chain[1], || "joint transform".into())?,
        validated_transform(&chain[2], || "end transform".into())?,
    ])
}

/// Whether a chain and target can be used as they are: finite, with unit rotations.
#[inline(always)]
fn is_clean(chain: &[Transform; 3], target: &TwoBoneTarget) -> bool {
    let unit = |q: Quat| (q.length_squared() - 1.0).abs() <= 1e-6;
    let rotation_ok = target.rotation.map_or(true, |q| q.is_finite() && unit(q));
    let pole = target.pole.unwrap_or(Vec3::ZERO);
    all_finite(chain)
        && chain.iter().all(|t| unit(t.rotation))
        && (target.position + pole).is_finite()
        && rotation_ok
}

/// Whether every component of every transform is finite, or conservatively false: the sum of
/// all components is finite unless one is not (or the sum overflows, which only sends huge
/// inputs down the careful path).
#[inline(always)]
fn all_finite(ts: &[Transform; 3]) -> bool {
    let sum = |t: &Transform| {
        let v = t.translation + t.scale;
        Vec4::from(t.rotation).element_sum() + v.x + v.y + v.z
    };
    (sum(&ts[0]) + sum(&ts[1]) + sum(&ts[2])).is_finite()
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
fn fallback_direction(root: &Transform, upper: Vec3A, to_end: Vec3A, tiny: f32) -> Vec3A {
    [to_end, upper]
        .into_iter()
        .find(|v| v.length() > tiny)
        .map_or(root.rotation * Vec3A::X, Vec3A::normalize)
}

/// A bend direction that moves with the root bone: [`frame_perpendicular`] of the root's
/// rotation and the upper bone in its frame (a per-rig constant), perpendicular to `dir`.
fn root_frame_perpendicular(root: &Transform, upper: Vec3A, dir: Vec3A) -> Vec3A {
    frame_perpendicular(root.rotation, root.rotation.conjugate() * upper, dir)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v3() -> impl Strategy<Value = Vec3> {
        (-2.0f32..2.0, -2.0f32..2.0, -2.0f32..2.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn rotation() -> impl Strategy<Value = Quat> {
        (v3(), -3.0f32..3.0).prop_map(|(axis, angle)| {
            Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Y), angle)
        })
    }

    fn chain() -> impl Strategy<Value = ([Transform; 3], TwoBoneTarget)> {
        (
            [v3(), v3(), v3()],
            [rotation(), rotation(), rotation()],
            v3(),
            proptest::option::of(v3()),
        )
            .prop_map(|(p, r, goal, pole)| {
                let t = |i: usize| Transform::from_rotation_translation(r[i], p[i]);
                let target = TwoBoneTarget {
                    position: goal,
                    rotation: None,
                    pole,
                };
                ([t(0), t(1), t(2)], target)
            })
    }

    fn settings() -> impl Strategy<Value = TwoBoneIkSettings> {
        (any::<bool>(), 0.8f32..=1.0).prop_map(|(stretch, soften)| TwoBoneIkSettings {
            allow_stretching: stretch,
            soften,
            ..TwoBoneIkSettings::default()
        })
    }

    proptest! {
        // The SIMD kernel computes each lane exactly like scalar code, and where it accepts a
        // chain it agrees with the general path to float precision. (Not under Miri: proptest
        // needs the file system.)
        #[test]
        #[cfg_attr(miri, ignore)]
        fn kernel_lanes_match_scalar_and_general_path(
            group in [chain(), chain(), chain(), chain()],
            settings in settings(),
        ) {
            let solver = TwoBoneIk::new(settings).unwrap();
            let has_pole = group[0].1.pole.is_some();
            let group = group.map(|(c, mut t)| {
                t.pole = t.pole.or(has_pole.then_some(Vec3::Z)).filter(|_| has_pole);
                (c, t)
            });
            let wide = kernel::place(&settings, &gather(&group));
            for (j, (input, target)) in group.iter().enumerate() {
                let scalar = kernel::place(&settings, &one_lane(input, target));
                let (lanes, ok) = Placement::lanes(&wide);
                let lane = lanes[j];
                prop_assert_eq!(scalar.ok, ok[j]);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                prop_assert_eq!(bits(&Vec3::from(scalar.b).to_array()), bits(&lane.b.to_array()));
                prop_assert_eq!(bits(&Vec3::from(scalar.c).to_array()), bits(&lane.c.to_array()));
                prop_assert_eq!(bits(&Quat::from(scalar.root).to_array()), bits(&lane.root.to_array()));
                prop_assert_eq!(bits(&Quat::from(scalar.mid).to_array()), bits(&lane.mid.to_array()));
                if scalar.ok {
                    let general = solver.place_general(input, target);
                    let scale = 1.0 + general.length;
                    // Near full extension the joint's distance from the aim line is a square
                    // root of a rounding-sized quantity: up to sqrt(2 eps) of the bone apart.
                    let l1 = (input[1].translation - input[0].translation).length();
                    let joint_tol = 1e-5 * scale + 6e-4 * l1;
                    prop_assert!((general.b - lane.b).length() <= joint_tol);
                    prop_assert!((general.c - lane.c).length() <= 1e-5 * scale);
                    // Each rotation turns its bone onto the new direction, so it inherits the
                    // joint's spread over the bone's length (and 1e-6 in the quaternion dot,
                    // about 2.8e-3 rad, where the joint is well placed).
                    let l2 = (input[2].translation - input[1].translation).length();
                    let apart = |a: Quat, b: Quat| 2.0 * a.dot(b).abs().min(1.0).acos();
                    prop_assert!(apart(general.root, lane.root) <= 2.9e-3 + 2.0 * joint_tol / l1);
                    prop_assert!(apart(general.mid, lane.mid) <= 2.9e-3 + 2.0 * joint_tol / l2);
                }
            }
        }
    }
}
