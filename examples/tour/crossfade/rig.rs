//! The small humanoid of the crossfade section: its skeleton, its two procedural clips (a walk
//! and a wave), the additive lean, and the angles the tables and pictures read off a pose.

use std::f32::consts::TAU;
use std::sync::Arc;

use sinew::{Clip, Crossfade, Interpolation, Pose, Quat, Skeleton, Track, Transform, Vec3};

/// Joint names; every parent comes before its children (see [`PARENTS`]).
pub const JOINTS: [&str; 17] = [
    "pelvis",
    "spine",
    "chest",
    "neck",
    "head",
    "upperarm_l",
    "lowerarm_l",
    "hand_l",
    "upperarm_r",
    "lowerarm_r",
    "hand_r",
    "thigh_l",
    "shin_l",
    "foot_l",
    "thigh_r",
    "shin_r",
    "foot_r",
];

/// Parent of each joint in [`JOINTS`]: the trunk from the pelvis up, the arms on the chest,
/// the legs on the pelvis.
const PARENTS: [i32; 17] = [-1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9, 0, 11, 12, 0, 14, 15];

/// Where each joint sits in its parent's frame at rest, in metres. Model space is y up,
/// z forward and x to the character's left. The rest pose stands upright with the arms and legs
/// hanging straight down and every rotation the identity, so a joint's local rotation is its
/// rotation away from rest.
const OFFSETS: [Vec3; 17] = [
    Vec3::new(0.0, 0.95, 0.0),
    Vec3::new(0.0, 0.10, 0.0),
    Vec3::new(0.0, 0.15, 0.0),
    Vec3::new(0.0, 0.20, 0.0),
    Vec3::new(0.0, 0.08, 0.0),
    Vec3::new(0.17, 0.17, 0.0),
    Vec3::new(0.0, -0.28, 0.0),
    Vec3::new(0.0, -0.25, 0.0),
    Vec3::new(-0.17, 0.17, 0.0),
    Vec3::new(0.0, -0.28, 0.0),
    Vec3::new(0.0, -0.25, 0.0),
    Vec3::new(0.09, -0.05, 0.0),
    Vec3::new(0.0, -0.44, 0.0),
    Vec3::new(0.0, -0.42, 0.0),
    Vec3::new(-0.09, -0.05, 0.0),
    Vec3::new(0.0, -0.44, 0.0),
    Vec3::new(0.0, -0.42, 0.0),
];

/// Radius of the head drawn above the head joint, in metres.
pub const HEAD_RADIUS: f32 = 0.11;

/// How a procedural clip is keyed: its length, its keys per rotation track (evenly spaced over
/// one loop, plus a closing key equal to the first), their interpolation, and the motion it
/// samples: each joint's rotation at a time, or `None` for joints the clip leaves at rest.
pub struct ClipSpec {
    pub duration: f32,
    pub keys: usize,
    interpolation: Interpolation,
    motion: fn(&str, f32) -> Option<Quat>,
}

/// A 1 s walk cycle: legs swinging and knees bending, arms counter-swinging, hips and shoulders
/// turning against each other, the trunk bobbing forward twice a stride. Cubic keys, so 8 per
/// loop follow the sines closely.
pub const WALK: ClipSpec = ClipSpec {
    duration: 1.0,
    keys: 8,
    interpolation: Interpolation::Cubic,
    motion: walk_motion,
};

/// A 0.8 s wave: the right arm raised in front, above the head, its forearm swinging side to
/// side, the upper body swaying slightly. Linear keys, 16 per loop.
pub const WAVE: ClipSpec = ClipSpec {
    duration: 0.8,
    keys: 16,
    interpolation: Interpolation::Linear,
    motion: wave_motion,
};

/// How far the walk swings each arm forward and back, in degrees.
pub const ARM_SWING: f32 = 25.0;
/// How far the wave raises the right arm forward, on average, in degrees.
pub const WAVE_RAISE: f32 = 140.0;

/// Joint rotations of the walk at `time`. The right arm swings back fastest at 0.5 s into
/// each loop (where `sin` falls through zero).
fn walk_motion(joint: &str, time: f32) -> Option<Quat> {
    let phase = TAU * time / WALK.duration;
    let (s, c) = phase.sin_cos();
    Some(match joint {
        "pelvis" => turn(-6.0 * s),
        "spine" => lean(4.0 + 2.0 * (2.0 * phase).cos()) * turn(3.0 * s),
        "chest" => turn(5.0 * s),
        "upperarm_l" => raise(LEFT, 8.0) * forward(-ARM_SWING * s),
        "lowerarm_l" => forward(20.0 - 12.0 * s),
        "upperarm_r" => raise(RIGHT, 8.0) * forward(ARM_SWING * s),
        "lowerarm_r" => forward(20.0 + 12.0 * s),
        "thigh_l" => forward(25.0 * s),
        "shin_l" => forward(-22.0 - 18.0 * c),
        "thigh_r" => forward(-25.0 * s),
        "shin_r" => forward(-22.0 + 18.0 * c),
        _ => return None,
    })
}

/// Joint rotations of the wave at `time`. The right arm is raised in the plane it swings in
/// when walking, so the walk's swing runs along the transition to it.
fn wave_motion(joint: &str, time: f32) -> Option<Quat> {
    let s = (TAU * time / WAVE.duration).sin();
    Some(match joint {
        "spine" => tilt(2.0 * s),
        "chest" => tilt(1.0 * s),
        "head" => tilt(-6.0),
        "upperarm_r" => forward(WAVE_RAISE + 5.0 * s),
        "lowerarm_r" => raise(RIGHT, 30.0 + 25.0 * s),
        "upperarm_l" => raise(LEFT, 6.0),
        "lowerarm_l" => forward(12.0),
        "thigh_l" => raise(LEFT, 4.0),
        "thigh_r" => raise(RIGHT, 4.0),
        _ => return None,
    })
}

/// How far the additive lean bends the spine and the chest forward, in degrees.
pub const SPINE_LEAN: f32 = 12.0;
pub const CHEST_LEAN: f32 = 8.0;

/// Joint rotations of the pose the additive lean is made from.
fn lean_motion(joint: &str) -> Option<Quat> {
    match joint {
        "spine" => Some(lean(SPINE_LEAN)),
        "chest" => Some(lean(CHEST_LEAN)),
        _ => None,
    }
}

/// Sides for [`raise`]: the character's left is +x, its right -x.
const LEFT: f32 = 1.0;
const RIGHT: f32 = -1.0;

/// A hanging limb swung forward by `deg` degrees (backward when negative).
fn forward(deg: f32) -> Quat {
    Quat::from_rotation_x(-deg.to_radians())
}

/// A hanging limb on `side` raised sideways, away from the body, by `deg` degrees.
fn raise(side: f32, deg: f32) -> Quat {
    Quat::from_rotation_z(side * deg.to_radians())
}

/// The trunk leaning forward by `deg` degrees.
fn lean(deg: f32) -> Quat {
    Quat::from_rotation_x(deg.to_radians())
}

/// The trunk tilted sideways, toward the character's left, by `deg` degrees.
fn tilt(deg: f32) -> Quat {
    Quat::from_rotation_z(-deg.to_radians())
}

/// Turned about the vertical, toward the character's left, by `deg` degrees.
fn turn(deg: f32) -> Quat {
    Quat::from_rotation_y(deg.to_radians())
}

/// How far a limb turned by `rotation` swings forward from hanging down, in degrees (negative
/// behind): the angle its bone makes in a side view.
pub fn swing_deg(rotation: Quat) -> f32 {
    let bone = rotation * Vec3::NEG_Y;
    bone.z.atan2(-bone.y).to_degrees()
}

/// How far a trunk joint turned by `rotation` leans forward from upright, in degrees: the angle
/// it makes in a side view.
pub fn lean_deg(rotation: Quat) -> f32 {
    let up = rotation * Vec3::Y;
    up.z.atan2(up.y).to_degrees()
}

/// The skeleton, its clips, and the additive lean.
pub struct Rig {
    pub skeleton: Arc<Skeleton>,
    pub walk: Arc<Clip>,
    pub wave: Arc<Clip>,
    /// The lean's additive delta over the rest pose.
    pub lean: Pose,
}

impl Rig {
    pub fn new() -> Self {
        let rest = OFFSETS.map(Transform::from_translation);
        let skeleton = Arc::new(
            Skeleton::new(&PARENTS, &rest, Some(&JOINTS))
                .expect("the built-in humanoid is a valid skeleton"),
        );
        let walk = Arc::new(build_clip(&skeleton, &WALK));
        let wave = Arc::new(build_clip(&skeleton, &WAVE));
        let mut leaning = Pose::new(skeleton.clone());
        for (j, name) in JOINTS.iter().enumerate() {
            if let Some(rotation) = lean_motion(name) {
                leaning
                    .edit_local(j, |local| local.rotation = rotation)
                    .expect("a unit rotation on a joint of the skeleton");
            }
        }
        let mut lean = Pose::new(skeleton.clone());
        lean.make_additive(&leaning, &Pose::new(skeleton.clone()))
            .expect("the lean and rest poses share the skeleton");
        Self {
            skeleton,
            walk,
            wave,
            lean,
        }
    }

    /// Index of the joint called `name`.
    pub fn joint(&self, name: &str) -> usize {
        self.skeleton
            .find_joint(name)
            .unwrap_or_else(|| panic!("{name} is a joint of the rig"))
    }

    /// `clip` sampled on its own, looping, at `time`.
    pub fn sample(&self, clip: &Clip, time: f32) -> Pose {
        let mut pose = Pose::new(self.skeleton.clone());
        clip.sample(time, true, None, &mut pose)
            .expect("the tour's clips sample at finite times");
        pose
    }

    /// Model-space rotation of the joint called `name` in `pose`.
    pub fn model_rotation(&self, pose: &Pose, name: &str) -> Quat {
        pose.model_of(self.joint(name))
            .expect("the rig stays within f32 range")
            .rotation
    }

    /// A controller playing the walk, updated through frame 0.
    pub fn walking(&self) -> Crossfade {
        let mut controller =
            Crossfade::new(self.skeleton.clone(), 1).expect("one queued fade is allowed");
        controller
            .play(self.walk.clone(), true)
            .expect("the walk is made for this skeleton");
        controller.update(0.0).expect("a zero step is valid");
        controller
    }
}

/// Half the time step of the central differences that give cubic tracks their tangents, in
/// seconds: small against the motions' periods, large enough for f32 differences to stay
/// precise.
const TANGENT_STEP: f32 = 1e-3;

/// Builds a looping clip from `spec`: a rotation track for every joint its motion moves.
/// Cubic tracks take the motion's own rate of change (a central difference) as tangents.
fn build_clip(skeleton: &Skeleton, spec: &ClipSpec) -> Clip {
    let mut clip = Clip::new(skeleton, spec.duration).expect("the clip durations are valid");
    let times: Vec<f32> = (0..=spec.keys)
        .map(|i| spec.duration * i as f32 / spec.keys as f32)
        .collect();
    for (joint, name) in JOINTS.iter().enumerate() {
        if (spec.motion)(name, 0.0).is_none() {
            continue;
        }
        let at =
            |t: f32| (spec.motion)(name, t).expect("a motion moves the same joints throughout");
        let values: Vec<Quat> = times.iter().map(|&t| at(t)).collect();
        let h = TANGENT_STEP;
        let tangents: Vec<Quat> = times
            .iter()
            .map(|&t| (at(t + h) - at(t - h)) / (2.0 * h))
            .collect();
        let tangents =
            (spec.interpolation == Interpolation::Cubic).then_some((&tangents[..], &tangents[..]));
        let track = Track::new(spec.interpolation, &times, &values, tangents, spec.duration)
            .expect("the procedural keys are valid");
        clip.set_rotation_track(joint, track)
            .expect("every joint of JOINTS is in the skeleton");
    }
    clip
}
