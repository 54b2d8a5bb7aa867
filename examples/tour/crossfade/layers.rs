//! Layers: the wave on the upper body of the walk through a joint mask, and an additive lean.
//! The table compares the poses at one moment; the curves follow them over time for the
//! picture.

use glam::Vec2;
use sinew::{BlendSpace, JointMask, Pose, Vec3};

use super::rig::{lean_deg, swing_deg, Rig, CHEST_LEAN, SPINE_LEAN};
use super::{frame_time, FPS};
use crate::table::{Column, Table};

/// The times the layered poses of the table are taken at: the walk at full stride (hips
/// turned 6 degrees), the wave with the forearm at one end of its swing.
pub const WALK_AT: f32 = 0.25;
pub const WAVE_AT: f32 = 0.2;
/// Weight of the additive lean in the table, and the weights the picture compares.
pub const LEAN_WEIGHT: f32 = 0.5;
pub const LEAN_WEIGHTS: [f32; 2] = [0.5, 1.0];
/// Frames of layering the picture follows (2 s: two walk loops).
const LAYER_FRAMES: usize = 120;

/// The upper-body mask: the chest at half weight, everything above it at full weight, the rest
/// (pelvis, spine, legs) at zero.
fn upper_body(rig: &Rig) -> JointMask {
    JointMask::subtree(&rig.skeleton, rig.joint("chest"), 1).expect("the chest is a joint")
}

/// `wave` over `walk` through `mask` in `space`: a copy of the walk blended fully toward the
/// wave wherever the mask lets it.
fn layered(walk: &Pose, wave: &Pose, mask: &JointMask, space: BlendSpace) -> Pose {
    let mut pose = walk.clone();
    pose.blend_toward(wave, 1.0, Some(mask), space)
        .expect("the poses and mask share the skeleton");
    pose
}

/// `pose` with the rig's lean added at `weight`.
fn leaning(rig: &Rig, pose: &Pose, weight: f32) -> Pose {
    let mut pose = pose.clone();
    pose.add(&rig.lean, weight, None)
        .expect("the lean shares the skeleton");
    pose
}

/// The walk and the wave at [`WALK_AT`] and [`WAVE_AT`], the wave layered over the walk from
/// the chest up in each blend space, and the model-space layer with the lean added, each with
/// a label.
pub fn layer_poses(rig: &Rig) -> Vec<(String, Pose)> {
    let walk = rig.sample(&rig.walk, WALK_AT);
    let wave = rig.sample(&rig.wave, WAVE_AT);
    let mask = upper_body(rig);
    let local = layered(&walk, &wave, &mask, BlendSpace::Local);
    let model = layered(&walk, &wave, &mask, BlendSpace::ModelRotation);
    let lean = leaning(rig, &model, LEAN_WEIGHT);
    vec![
        (format!("walk at {WALK_AT} s"), walk),
        (format!("wave at {WAVE_AT} s"), wave),
        ("wave over walk, Local".into(), local),
        ("wave over walk, ModelRotation".into(), model),
        (format!("  + lean x {LEAN_WEIGHT}"), lean),
    ]
}

/// Prints a few model-space angles of each layered pose.
pub fn print_layer_table(rig: &Rig) {
    use Column::{Left, Right};
    let poses = layer_poses(rig);
    let wave_arm = upper_arm_direction(rig, &poses[1].1);
    let table = Table::new([
        Left(30),
        Right(11),
        Right(10),
        Right(10),
        Right(12),
        Right(11),
    ]);
    table.header([
        "pose",
        "left thigh",
        "chest lean",
        "chest turn",
        "arm vs wave",
        "hand height",
    ]);
    for (label, pose) in &poses {
        let chest = rig.model_rotation(pose, "chest");
        let chest_front = chest * Vec3::Z;
        let arm = upper_arm_direction(rig, pose);
        let hand = pose
            .model_of(rig.joint("hand_r"))
            .expect("the rig stays within f32 range");
        table.row([
            label,
            &format!("{:.1}", swing_deg(rig.model_rotation(pose, "thigh_l"))),
            &format!("{:.1}", lean_deg(chest)),
            &format!("{:.1}", chest_front.x.atan2(chest_front.z).to_degrees()),
            &format!("{:.1}", arm.angle_between(wave_arm).to_degrees()),
            &format!("{:.3} m", hand.translation.y),
        ]);
    }
    println!(
        "\nMask: JointMask::subtree(chest, blend_depth 1): chest 0.5, neck, head and arms 1, the \
         rest 0. Angles in degrees, model\nspace: left thigh swung forward, chest leaned forward \
         and turned to the left; arm vs wave: angle between the right\nupper arm and its \
         direction in the wave. The lean ({} degrees forward over the trunk) is an additive \
         delta over the\nrest pose.",
        SPINE_LEAN + CHEST_LEAN
    );
}

/// Model-space direction of the right upper arm (shoulder to elbow) in `pose`.
fn upper_arm_direction(rig: &Rig, pose: &Pose) -> Vec3 {
    rig.model_rotation(pose, "upperarm_r") * Vec3::NEG_Y
}

/// Curves of (time, degrees) over [`LAYER_FRAMES`] frames, each clip playing from 0.
pub struct LayerCurves {
    /// Model-space forward swing of the right upper arm: walk, wave, wave over walk.
    pub arm: [Vec<Vec2>; 3],
    /// The same for the left thigh.
    pub thigh: [Vec<Vec2>; 3],
    /// Model-space forward lean of the chest: the walk, then with the lean added at each of
    /// [`LEAN_WEIGHTS`].
    pub lean: [Vec<Vec2>; 3],
}

impl LayerCurves {
    /// Samples both clips every frame and layers them (model-space rotations, as in the
    /// table's last rows).
    pub fn new(rig: &Rig) -> Self {
        let mask = upper_body(rig);
        let mut curves = Self {
            arm: Default::default(),
            thigh: Default::default(),
            lean: Default::default(),
        };
        for k in 0..=LAYER_FRAMES {
            let t = frame_time(k);
            let walk = rig.sample(&rig.walk, t);
            let wave = rig.sample(&rig.wave, t);
            let layer = layered(&walk, &wave, &mask, BlendSpace::ModelRotation);
            for (i, pose) in [&walk, &wave, &layer].into_iter().enumerate() {
                let swing = |name| swing_deg(rig.model_rotation(pose, name));
                curves.arm[i].push(Vec2::new(t, swing("upperarm_r")));
                curves.thigh[i].push(Vec2::new(t, swing("thigh_l")));
            }
            let leans = [walk.clone()]
                .into_iter()
                .chain(LEAN_WEIGHTS.map(|w| leaning(rig, &walk, w)));
            for (i, pose) in leans.enumerate() {
                let chest = lean_deg(rig.model_rotation(&pose, "chest"));
                curves.lean[i].push(Vec2::new(t, chest));
            }
        }
        curves
    }

    /// The time the curves span, in seconds.
    pub fn duration() -> f32 {
        LAYER_FRAMES as f32 / FPS
    }
}
