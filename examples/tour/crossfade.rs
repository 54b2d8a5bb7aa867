//! Section 4: crossfades and layers. A small humanoid walks and, at 1.0 s, is asked to wave
//! instead: once through a linear fade, once through a smooth fade and once inertialized.
//! Then the wave is layered onto the walking legs through an upper-body mask, blending local
//! and then model-space rotations, and a forward lean is added on top.

use std::f32::consts::TAU;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use glam::Vec2;
use sinew::rotation::angle;
use sinew::{
    BlendSpace, Clip, Crossfade, FadeCurve, Interpolation, JointMask, Pose, Quat, Skeleton, Track,
    Transform, Vec3,
};

use crate::figure::{self, TwoViewPanels, INK, MUTED, REST_GREY};
use crate::svg::{Align, Font, Plane, Style, Svg, Viewport};
use crate::table::{Column, Table};
use crate::timing;

/// Joint names; every parent comes before its children (see [`PARENTS`]).
const JOINTS: [&str; 17] = [
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
const HEAD_RADIUS: f32 = 0.11;

/// Frames per second of the simulated game loop, and frames played after the first (3 s).
const FPS: f32 = 60.0;
const DT: f32 = 1.0 / FPS;
const FRAMES: usize = 180;
/// The frame after which the walk is asked to become the wave (t = 1.0 s).
const REQUEST: usize = 60;
/// Length of every transition, in seconds.
const FADE: f32 = 0.4;
/// Output within this many degrees of the wave on every joint counts as settled.
const SETTLED_DEG: f32 = 0.5;
/// The transitions compared, in the order of the tables and the legend.
const CURVES: [FadeCurve; 3] = [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize];

/// How a procedural clip is keyed: its length, its keys per rotation track (evenly spaced over
/// one loop, plus a closing key equal to the first), their interpolation, and the motion it
/// samples: each joint's rotation at a time, or `None` for joints the clip leaves at rest.
struct ClipSpec {
    duration: f32,
    keys: usize,
    interpolation: Interpolation,
    motion: fn(&str, f32) -> Option<Quat>,
}

/// A 1 s walk cycle: legs swinging and knees bending, arms counter-swinging, hips and shoulders
/// turning against each other. Cubic keys, so 8 per loop follow the sines closely.
const WALK: ClipSpec = ClipSpec {
    duration: 1.0,
    keys: 8,
    interpolation: Interpolation::Cubic,
    motion: walk_motion,
};

/// A 0.8 s wave: the right arm raised, its forearm swinging side to side over the head, the
/// upper body swaying slightly. Linear keys, 16 per loop.
const WAVE: ClipSpec = ClipSpec {
    duration: 0.8,
    keys: 16,
    interpolation: Interpolation::Linear,
    motion: wave_motion,
};

/// Joint rotations of the walk at `time`.
fn walk_motion(joint: &str, time: f32) -> Option<Quat> {
    let (s, c) = (TAU * time / WALK.duration).sin_cos();
    Some(match joint {
        "pelvis" => turn(-6.0 * s),
        "spine" => lean(4.0) * turn(3.0 * s),
        "chest" => turn(5.0 * s),
        "upperarm_l" => raise(LEFT, 8.0) * forward(-20.0 * s),
        "lowerarm_l" => forward(20.0 - 12.0 * s),
        "upperarm_r" => raise(RIGHT, 8.0) * forward(20.0 * s),
        "lowerarm_r" => forward(20.0 + 12.0 * s),
        "thigh_l" => forward(25.0 * s),
        "shin_l" => forward(-22.0 - 18.0 * c),
        "thigh_r" => forward(-25.0 * s),
        "shin_r" => forward(-22.0 + 18.0 * c),
        _ => return None,
    })
}

/// Joint rotations of the wave at `time`.
fn wave_motion(joint: &str, time: f32) -> Option<Quat> {
    let s = (TAU * time / WAVE.duration).sin();
    Some(match joint {
        "spine" => tilt(2.0 * s),
        "chest" => tilt(1.0 * s),
        "head" => tilt(-6.0),
        "upperarm_r" => raise(RIGHT, 125.0 + 5.0 * s) * forward(15.0),
        "lowerarm_r" => raise(RIGHT, 35.0 + 25.0 * s),
        "upperarm_l" => raise(LEFT, 6.0),
        "lowerarm_l" => forward(12.0),
        "thigh_l" => raise(LEFT, 4.0),
        "thigh_r" => raise(RIGHT, 4.0),
        _ => return None,
    })
}

/// How far the additive lean bends the spine and the chest forward, in degrees.
const SPINE_LEAN: f32 = 12.0;
const CHEST_LEAN: f32 = 8.0;

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

/// Runs the section: builds the rig and clips, plays every transition, prints the tables and
/// writes the SVG.
pub fn crossfade_section(out_dir: &Path) {
    crate::heading("4. Crossfades and layers: a walking character starts to wave");
    let rig = Rig::new();
    println!(
        "Rig: {} joints: pelvis > spine > chest > neck > head, arms (upper, lower, hand) on the \
         chest, legs (thigh, shin, foot) on the pelvis.",
        JOINTS.len()
    );
    println!(
        "Clips: walk {} s loop, {} cubic keys per rotation track; wave {} s loop, {} linear keys \
         per track.",
        WALK.duration, WALK.keys, WAVE.duration, WAVE.keys
    );
    println!(
        "Played at {FPS} frames/s for {:.1} s; at {:.1} s, fade_to(wave, {FADE} s) with each curve.\n",
        frame_time(FRAMES),
        frame_time(REQUEST)
    );

    let alone = Alone::new(&rig);
    let runs: Vec<Run> = CURVES.map(|curve| rig.play(curve, &alone)).into();
    print_fade_table(&runs, rig.walk_update_ns());
    println!();
    print_layer_table(&rig);

    let svg = draw(&rig, &runs, &alone);
    crate::write_output(out_dir, "crossfade.svg", &svg);
}

/// Playback time of frame `k`, in seconds.
fn frame_time(k: usize) -> f32 {
    k as f32 * DT
}

/// The skeleton, its clips, and the additive lean.
struct Rig {
    skeleton: Arc<Skeleton>,
    walk: Arc<Clip>,
    wave: Arc<Clip>,
    /// The lean's additive delta over the rest pose.
    lean: Pose,
}

impl Rig {
    fn new() -> Self {
        let rest = OFFSETS.map(Transform::from_translation);
        let skeleton = Arc::new(
            Skeleton::new(&PARENTS, &rest, Some(&JOINTS))
                .expect("the built-in humanoid is a valid skeleton"),
        );
        let walk = Arc::new(build_clip(&skeleton, &WALK));
        let wave = Arc::new(build_clip(&skeleton, &WAVE));
        let mut leaning = Pose::new(skeleton.clone());
        for (local, name) in leaning.local_mut().iter_mut().zip(JOINTS) {
            if let Some(rotation) = lean_motion(name) {
                local.rotation = rotation;
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
    fn joint(&self, name: &str) -> usize {
        self.skeleton
            .find_joint(name)
            .unwrap_or_else(|| panic!("{name} is a joint of the rig"))
    }

    /// `clip` sampled on its own, looping, at `time`.
    fn sample(&self, clip: &Clip, time: f32) -> Pose {
        let mut pose = Pose::new(self.skeleton.clone());
        clip.sample(time, true, None, &mut pose)
            .expect("the tour's clips sample at finite times");
        pose
    }

    /// A controller playing the walk, updated through frame 0.
    fn walking(&self) -> Crossfade {
        let mut controller =
            Crossfade::new(self.skeleton.clone(), 1).expect("one queued fade is allowed");
        controller
            .play(self.walk.clone(), true)
            .expect("the walk is made for this skeleton");
        controller.update(0.0).expect("a zero step is valid");
        controller
    }

    /// Plays the walk, asks for the wave with `curve` after frame [`REQUEST`], and records
    /// every frame; times one update in the middle of the transition.
    fn play(&self, curve: FadeCurve, alone: &Alone) -> Run {
        let mut controller = self.walking();
        let mut frames = vec![controller.pose().local().to_vec()];
        let (mut done, mut middle) = (None, None);
        for k in 1..=FRAMES {
            controller.update(DT).expect("the frame step is valid");
            frames.push(controller.pose().local().to_vec());
            if k == REQUEST {
                controller
                    .fade_to(self.wave.clone(), FADE, curve, true)
                    .expect("the fade request is valid");
            }
            let transitioning = controller.fade_count() > 0 || controller.is_inertializing();
            if k > REQUEST && !transitioning && done.is_none() {
                done = Some(k);
            }
            if k == REQUEST + (FADE * FPS / 2.0).round() as usize {
                middle = Some(controller.clone());
            }
        }
        Run {
            curve,
            settled: settled_frame(&frames, alone),
            done: done.expect("every transition ends within the run"),
            ns: update_ns(middle.expect("the run passes the transition's middle")),
            frames,
        }
    }

    /// Median cost of one update of a controller playing the walk alone, in nanoseconds.
    fn walk_update_ns(&self) -> f64 {
        update_ns(self.walking())
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

/// Median cost of one `update` of `controller`, in nanoseconds. The step is zero so that a
/// transition never ends while it is timed; each call still samples, blends or decays
/// everything a real frame does.
fn update_ns(mut controller: Crossfade) -> f64 {
    timing::median_ns_per_call(|| {
        black_box(&mut controller)
            .update(black_box(0.0))
            .expect("a zero step is valid");
    })
}

/// Each clip played on its own, frame by frame, to compare the transitions with.
struct Alone {
    /// The walk at every frame's time.
    walk: Vec<Vec<Transform>>,
    /// The wave from its start at the request: entry `j` is frame `REQUEST + j`.
    wave: Vec<Vec<Transform>>,
}

impl Alone {
    fn new(rig: &Rig) -> Self {
        let local = |clip: &Clip, k: usize| rig.sample(clip, frame_time(k)).local().to_vec();
        Self {
            walk: (0..=FRAMES).map(|k| local(&rig.walk, k)).collect(),
            wave: (0..=FRAMES - REQUEST)
                .map(|j| local(&rig.wave, j))
                .collect(),
        }
    }

    /// The wave alone at frame `k` (at or after the request).
    fn wave_at(&self, k: usize) -> &[Transform] {
        &self.wave[k - REQUEST]
    }
}

/// One play-through: the walk, then from [`REQUEST`] a transition to the wave along `curve`.
struct Run {
    curve: FadeCurve,
    /// The controller's output (local transforms) at every frame, from t = 0.
    frames: Vec<Vec<Transform>>,
    /// First frame with no fade or inertialization left.
    done: usize,
    /// First frame from which the output stays within [`SETTLED_DEG`] of the wave.
    settled: usize,
    /// Median cost of one update in the middle of the transition, in nanoseconds.
    ns: f64,
}

impl Run {
    /// Fastest any joint turns between consecutive frames `first - 1 ..= last`, in degrees
    /// per second (local rotations).
    fn max_speed(&self, first: usize, last: usize) -> f32 {
        (first..=last)
            .map(|k| max_gap_deg(&self.frames[k - 1], &self.frames[k]) * FPS)
            .fold(0.0, f32::max)
    }
}

/// Short name of a transition curve, for tables and the legend.
fn curve_label(curve: FadeCurve) -> &'static str {
    match curve {
        FadeCurve::Linear => "linear fade",
        FadeCurve::Smooth => "smooth fade",
        FadeCurve::Inertialize => "inertialization",
    }
}

/// Largest angle between the local rotations of the same joint in two poses, in degrees.
fn max_gap_deg(a: &[Transform], b: &[Transform]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| angle(a.rotation.conjugate() * b.rotation).to_degrees())
        .fold(0.0, f32::max)
}

/// The first frame after the request from which `frames` stay within [`SETTLED_DEG`] of the
/// wave played alone.
fn settled_frame(frames: &[Vec<Transform>], alone: &Alone) -> usize {
    (REQUEST..=FRAMES)
        .rev()
        .find(|&k| max_gap_deg(&frames[k], alone.wave_at(k)) > SETTLED_DEG)
        .map_or(REQUEST, |k| k + 1)
}

/// Prints one row per transition, then what the columns mean.
fn print_fade_table(runs: &[Run], walk_ns: f64) {
    use Column::{Left, Right};
    let table = Table::new([
        Left(15),
        Right(10),
        Right(8),
        Right(12),
        Right(8),
        Right(8),
        Right(8),
        Right(9),
    ]);
    table.header([
        "transition",
        "requested",
        "done",
        "settled in",
        "before",
        "during",
        "after",
        "ns/update",
    ]);
    for run in runs {
        let seconds = |k: usize| format!("{:.3} s", frame_time(k));
        let speed = |first: usize, last: usize| format!("{:.0}", run.max_speed(first, last));
        table.row([
            curve_label(run.curve),
            &seconds(REQUEST),
            &seconds(run.done),
            &seconds(run.settled - REQUEST),
            &speed(1, REQUEST),
            &speed(REQUEST + 1, run.done),
            &speed(run.done + 1, FRAMES),
            &format!("{:.0}", run.ns),
        ]);
    }
    println!(
        "\ndone: first frame with no fade or inertialization left. settled in: from the request \
         until every joint stays\nwithin {SETTLED_DEG} degrees of the wave played alone. before, \
         during, after: fastest local joint rotation (deg/s)\nbefore the request, until done, and \
         after. ns/update: median of {} batches of {} `update` calls in the middle\nof the \
         transition (walk alone: {walk_ns:.0} ns), with a zero step so the transition stays in \
         progress.",
        timing::BATCHES,
        timing::CALLS_PER_BATCH
    );
}

// ---------------------------------------------------------------------------------------------
// Layers: the wave on the upper body of the walk, and an additive lean.

/// The times the layered poses are taken at: the walk at full stride (hips turned 6 degrees),
/// the wave with the forearm at one end of its swing.
const WALK_AT: f32 = 0.25;
const WAVE_AT: f32 = 0.2;
/// Weight of the additive lean.
const LEAN_WEIGHT: f32 = 0.5;

/// The walk and the wave at [`WALK_AT`] and [`WAVE_AT`], the wave layered over the walk from
/// the chest up in each blend space, and the model-space layer with the lean added, each with
/// a label.
fn layer_poses(rig: &Rig) -> Vec<(String, Pose)> {
    let walk = rig.sample(&rig.walk, WALK_AT);
    let wave = rig.sample(&rig.wave, WAVE_AT);
    let mask =
        JointMask::subtree(&rig.skeleton, rig.joint("chest"), 1).expect("the chest is a joint");
    let layered = |space: BlendSpace| {
        let mut pose = walk.clone();
        pose.blend_toward(&wave, 1.0, Some(&mask), space)
            .expect("the poses and mask share the skeleton");
        pose
    };
    let local = layered(BlendSpace::Local);
    let model = layered(BlendSpace::ModelRotation);
    let mut leaning = model.clone();
    leaning
        .add(&rig.lean, LEAN_WEIGHT, None)
        .expect("the lean shares the skeleton");
    vec![
        (format!("walk at {WALK_AT} s"), walk),
        (format!("wave at {WAVE_AT} s"), wave),
        ("wave over walk, Local".into(), local),
        ("wave over walk, ModelRotation".into(), model),
        (format!("  + lean x {LEAN_WEIGHT}"), leaning),
    ]
}

/// Prints a few model-space angles of each layered pose.
fn print_layer_table(rig: &Rig) {
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
        let model = |name: &str| {
            pose.model_of(rig.joint(name))
                .expect("the rig stays within f32 range")
        };
        let degrees = |x: f32, y: f32| format!("{:.1}", x.atan2(y).to_degrees());
        let thigh = model("thigh_l").rotation * Vec3::NEG_Y;
        let chest_up = model("chest").rotation * Vec3::Y;
        let chest_front = model("chest").rotation * Vec3::Z;
        let arm = upper_arm_direction(rig, pose);
        table.row([
            label,
            &degrees(thigh.z, -thigh.y),
            &degrees(chest_up.z, chest_up.y),
            &degrees(chest_front.x, chest_front.z),
            &format!("{:.1}", arm.angle_between(wave_arm).to_degrees()),
            &format!("{:.3} m", model("hand_r").translation.y),
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
    let shoulder = pose.model_of(rig.joint("upperarm_r"));
    shoulder.expect("the rig stays within f32 range").rotation * Vec3::NEG_Y
}

// ---------------------------------------------------------------------------------------------
// Picture: the right upper arm's angle over the whole run and over the transition, and the
// inertialized transition as a strip of stick figures.

const WIDTH: f32 = 1200.0;
const CHART_H: f32 = 330.0;
/// Space between panels.
const GAP: f32 = 16.0;
/// Height of a panel's header, above its contents.
const HEADER_H: f32 = 30.0;
/// Height of the two caption lines under each stick figure.
const FIGURE_CAPTION_H: f32 = 46.0;

const LINEAR_BLUE: &str = "#2563eb";
const SMOOTH_ORANGE: &str = "#ea580c";
const INERTIAL_PURPLE: &str = "#9333ea";
const WINDOW_SHADE: &str = "#eef2f7";
const BODY: &str = "#475569";

/// Colour of a transition's curve.
fn curve_colour(curve: FadeCurve) -> &'static str {
    match curve {
        FadeCurve::Linear => LINEAR_BLUE,
        FadeCurve::Smooth => SMOOTH_ORANGE,
        FadeCurve::Inertialize => INERTIAL_PURPLE,
    }
}

fn walk_alone_style() -> Style {
    Style::stroke(REST_GREY, 1.5).dashed("6 4")
}

fn wave_alone_style() -> Style {
    Style::stroke("#64748b", 1.5).dashed("2 3")
}

/// The whole figure: title block, the two charts side by side, the strip below.
fn draw(rig: &Rig, runs: &[Run], alone: &Alone) -> String {
    let inertial = runs
        .iter()
        .find(|r| r.curve == FadeCurve::Inertialize)
        .expect("inertialization is one of the curves");
    let inner = WIDTH - 2.0 * figure::MARGIN;
    let strip = Strip::new(rig, inertial, alone, inner);
    let top = figure::MARGIN + figure::TITLE_H;
    let height = top + CHART_H + GAP + strip.height() + figure::MARGIN;
    let mut svg = Svg::new(WIDTH, height);
    draw_title(&mut svg);

    let chart = Vec2::new((inner - GAP) / 2.0, CHART_H);
    let series = arm_series(rig, runs, alone);
    for (i, view) in CHART_VIEWS.iter().enumerate() {
        let corner = Vec2::new(figure::MARGIN + i as f32 * (chart.x + GAP), top);
        draw_chart(&mut svg, (corner, chart), view, &series, runs);
    }
    let corner = Vec2::new(figure::MARGIN, top + CHART_H + GAP);
    strip.draw(&mut svg, corner, rig, inertial, alone);
    svg.finish()
}

/// Figure title, a one-line explanation and the legend.
fn draw_title(svg: &mut Svg) {
    let mut legend = figure::title_block(
        svg,
        "Sinew crossfade: walking, then waving, three ways",
        &format!(
            "Right upper arm's angle from its rest pose (hanging down), every 1/{FPS} s. At {:.1} \
             s the walk is asked to become the wave over {FADE} s.",
            frame_time(REQUEST)
        ),
    );
    for curve in CURVES {
        legend.line(
            curve_label(curve),
            130.0,
            Style::stroke(curve_colour(curve), 2.5),
        );
    }
    legend.line("walk alone", 105.0, walk_alone_style());
    legend.line("wave alone (the target)", 190.0, wave_alone_style());
    legend.item("transition window", 150.0, |svg, c| {
        svg.rect(
            c - Vec2::new(10.0, 7.0),
            Vec2::new(20.0, 14.0),
            2.0,
            Style::fill(WINDOW_SHADE),
        );
    });
}

/// One line of a chart: (time, degrees) points, and its style.
struct Series {
    points: Vec<Vec2>,
    style: Style,
}

/// The right upper arm's angle from rest: the walk and the wave alone, then each run.
fn arm_series(rig: &Rig, runs: &[Run], alone: &Alone) -> Vec<Series> {
    let arm = rig.joint("upperarm_r");
    let point = |k: usize, pose: &[Transform]| {
        Vec2::new(frame_time(k), angle(pose[arm].rotation).to_degrees())
    };
    let mut series = vec![
        Series {
            points: (0..=FRAMES).map(|k| point(k, &alone.walk[k])).collect(),
            style: walk_alone_style(),
        },
        Series {
            points: (REQUEST..=FRAMES)
                .map(|k| point(k, alone.wave_at(k)))
                .collect(),
            style: wave_alone_style(),
        },
    ];
    series.extend(runs.iter().map(|run| Series {
        points: (0..=FRAMES).map(|k| point(k, &run.frames[k])).collect(),
        style: Style::stroke(curve_colour(run.curve), 2.5),
    }));
    series
}

/// Angles the charts span, and their tick spacing, in degrees.
const ANGLE_RANGE: (f32, f32) = (0.0, 140.0);
const ANGLE_STEP: f32 = 20.0;

/// What one chart shows: its title, time range and tick spacing in seconds, and whether it
/// lists when each transition settled.
struct ChartView {
    title: &'static str,
    time: (f32, f32),
    time_step: f32,
    settle_notes: bool,
}

/// The whole run, and a close-up of the transition.
const CHART_VIEWS: [ChartView; 2] = [
    ChartView {
        title: "Whole run",
        time: (0.0, 3.0),
        time_step: 0.5,
        settle_notes: false,
    },
    ChartView {
        title: "Close-up of the transition",
        time: (0.9, 1.7),
        time_step: 0.1,
        settle_notes: true,
    },
];

/// A panel at `corner` of `size` with a chart of every series in `view`.
fn draw_chart(
    svg: &mut Svg,
    (corner, size): (Vec2, Vec2),
    view: &ChartView,
    series: &[Series],
    runs: &[Run],
) {
    figure::panel(svg, corner, size);
    TwoViewPanels::header(
        svg,
        corner,
        size,
        view.title,
        "right upper arm: angle from rest",
    );
    let chart = Chart {
        corner: corner + Vec2::new(56.0, HEADER_H + 14.0),
        size: size - Vec2::new(56.0 + 20.0, HEADER_H + 14.0 + 52.0),
        time: view.time,
    };
    chart.window(svg);
    chart.axes(svg, view.time_step);
    for s in series {
        chart.series(svg, s);
    }
    if view.settle_notes {
        chart.settle_notes(svg, runs);
    }
}

/// Maps (time in seconds, angle in degrees) onto a box of pixels.
struct Chart {
    corner: Vec2,
    size: Vec2,
    time: (f32, f32),
}

impl Chart {
    fn map(&self, p: Vec2) -> Vec2 {
        let x = (p.x - self.time.0) / (self.time.1 - self.time.0);
        let y = (p.y - ANGLE_RANGE.0) / (ANGLE_RANGE.1 - ANGLE_RANGE.0);
        self.corner + Vec2::new(x, 1.0 - y) * self.size
    }

    /// Grid lines, ticks and labels every `time_step` seconds and [`ANGLE_STEP`] degrees, and
    /// the axis lines.
    fn axes(&self, svg: &mut Svg, time_step: f32) {
        let grid = Style::stroke("#e9edf1", 1.0);
        let label = Font::new(11.5, MUTED);
        let ticks = |(min, max): (f32, f32), step: f32| {
            let first = (min / step - 1e-3).ceil() as i32;
            let last = (max / step + 1e-3).floor() as i32;
            (first..=last).map(move |i| i as f32 * step)
        };
        for deg in ticks(ANGLE_RANGE, ANGLE_STEP) {
            let left = self.map(Vec2::new(self.time.0, deg));
            svg.line(left, left + Vec2::X * self.size.x, grid);
            svg.text(
                left + Vec2::new(-7.0, 4.0),
                &format!("{deg}°"),
                label.aligned(Align::End),
            );
        }
        for t in ticks(self.time, time_step) {
            let bottom = self.map(Vec2::new(t, ANGLE_RANGE.0));
            svg.line(bottom, bottom - Vec2::Y * self.size.y, grid);
            svg.line(bottom, bottom + Vec2::Y * 5.0, Style::stroke(INK, 1.0));
            svg.text(
                bottom + Vec2::Y * 18.0,
                &format!("{t:.1}"),
                label.aligned(Align::Middle),
            );
        }
        let origin = self.corner + Vec2::Y * self.size.y;
        let axis = Style::stroke(INK, 1.0);
        svg.line(origin, origin + Vec2::X * self.size.x, axis);
        svg.line(origin, self.corner, axis);
        svg.text(
            origin + Vec2::new(self.size.x, 36.0),
            "time (s)",
            Font::new(12.0, INK).aligned(Align::End),
        );
    }

    /// Shades the transition window and labels it above the chart.
    fn window(&self, svg: &mut Svg) {
        let (start, end) = (frame_time(REQUEST), frame_time(REQUEST) + FADE);
        let top_left = self.map(Vec2::new(start, ANGLE_RANGE.1));
        let bottom_right = self.map(Vec2::new(end, ANGLE_RANGE.0));
        svg.rect(
            top_left,
            bottom_right - top_left,
            0.0,
            Style::fill(WINDOW_SHADE),
        );
        svg.text(
            Vec2::new((top_left.x + bottom_right.x) / 2.0, top_left.y - 6.0),
            &format!("{FADE} s"),
            Font::new(11.5, MUTED).aligned(Align::Middle),
        );
    }

    /// The part of `series` within the chart's time range.
    fn series(&self, svg: &mut Svg, series: &Series) {
        let (min, max) = (self.time.0 - 1e-4, self.time.1 + 1e-4);
        let points: Vec<Vec2> = series
            .points
            .iter()
            .filter(|p| (min..=max).contains(&p.x))
            .map(|&p| self.map(p))
            .collect();
        svg.polyline(&points, series.style);
    }

    /// When each run settled, listed in its colour below the end of the transition, where
    /// the curves leave room.
    fn settle_notes(&self, svg: &mut Svg, runs: &[Run]) {
        let mut at = self.map(Vec2::new(frame_time(REQUEST) + 0.75 * FADE, 92.0));
        svg.text(
            at,
            &format!("time to settle within {SETTLED_DEG}° of the wave:"),
            Font::new(12.0, MUTED).halo(),
        );
        for run in runs {
            at.y += 18.0;
            svg.text(
                at,
                &format!(
                    "{}: {:.3} s",
                    curve_label(run.curve),
                    frame_time(run.settled - REQUEST)
                ),
                Font::new(12.0, curve_colour(run.curve)).bold().halo(),
            );
        }
    }
}

/// Frames shown in the strip, counted from the request: the last walking frame, then through
/// the transition.
const STRIP_FRAMES: [usize; 8] = [0, 3, 6, 9, 12, 15, 18, 24];

/// The strip of stick figures: the front-view world box every cell shows, and the size of a
/// cell in pixels.
struct Strip {
    bounds: (Vec2, Vec2),
    cell: Vec2,
}

impl Strip {
    /// Cells side by side across a panel `width` pixels wide, as tall as the box needs.
    fn new(rig: &Rig, run: &Run, alone: &Alone, width: f32) -> Self {
        let bounds = strip_bounds(rig, run, alone);
        let extent = bounds.1 - bounds.0;
        let cell_width = (width - 2.0 * TwoViewPanels::PAD) / STRIP_FRAMES.len() as f32;
        Self {
            bounds,
            cell: Vec2::new(cell_width, extent.y * cell_width / extent.x),
        }
    }

    /// Height of the strip's panel.
    fn height(&self) -> f32 {
        HEADER_H + self.cell.y + FIGURE_CAPTION_H
    }

    /// A panel at `corner` of front views of `run` at [`STRIP_FRAMES`], each over the wave
    /// alone at the same moment, captioned with the time and the largest joint gap to the wave.
    fn draw(&self, svg: &mut Svg, corner: Vec2, rig: &Rig, run: &Run, alone: &Alone) {
        let size = Vec2::new(
            self.cell.x * STRIP_FRAMES.len() as f32 + 2.0 * TwoViewPanels::PAD,
            self.height(),
        );
        figure::panel(svg, corner, size);
        TwoViewPanels::header(
            svg,
            corner,
            size,
            "Inertialized transition, front view",
            "dotted: the wave alone at the same moment; n° off: largest joint angle from it; \
             purple: right upper arm",
        );
        let (min, max) = self.bounds;
        for (i, k) in STRIP_FRAMES.map(|j| REQUEST + j).into_iter().enumerate() {
            let cell_corner =
                corner + Vec2::new(TwoViewPanels::PAD + i as f32 * self.cell.x, HEADER_H);
            let view = Viewport::fit(min, max, cell_corner, self.cell);
            svg.line(
                view.map(Vec2::new(min.x + 0.1, 0.0)),
                view.map(Vec2::new(max.x - 0.1, 0.0)),
                Style::stroke("#cbd2d9", 1.5),
            );
            draw_figure(svg, &view, rig, alone.wave_at(k), FigureStyle::Target);
            draw_figure(svg, &view, rig, &run.frames[k], FigureStyle::Output);

            let caption = Vec2::new(
                cell_corner.x + self.cell.x / 2.0,
                cell_corner.y + self.cell.y + 18.0,
            );
            let note = if k == REQUEST {
                "fade_to(wave)".to_owned()
            } else {
                format!("{:.0}° off", max_gap_deg(&run.frames[k], alone.wave_at(k)))
            };
            svg.text(
                caption,
                &format!("{:.2} s", frame_time(k)),
                Font::new(13.0, INK).bold().aligned(Align::Middle),
            );
            svg.text(
                caption + Vec2::Y * 16.0,
                &note,
                Font::new(12.0, MUTED).aligned(Align::Middle),
            );
        }
    }
}

/// The front-view world box that holds both poses of every frame of the strip, with room
/// around them, centred on the body's midline so the figures line up.
fn strip_bounds(rig: &Rig, run: &Run, alone: &Alone) -> (Vec2, Vec2) {
    let (mut half_width, mut top) = (0.0f32, 0.0f32);
    for k in STRIP_FRAMES.map(|j| REQUEST + j) {
        for local in [&run.frames[k][..], alone.wave_at(k)] {
            let model = model_transforms(rig, local);
            let head_top = head_centre(rig, &model) + Vec3::Y * HEAD_RADIUS;
            for p in model.iter().map(|t| t.translation).chain([head_top]) {
                half_width = half_width.max(p.x.abs());
                top = top.max(p.y);
            }
        }
    }
    let margin = 0.08;
    (
        Vec2::new(-half_width - margin, -margin),
        Vec2::new(half_width + margin, top + margin),
    )
}

/// Model-space transforms of the pose with local transforms `local`.
fn model_transforms(rig: &Rig, local: &[Transform]) -> Vec<Transform> {
    let mut model = vec![Transform::IDENTITY; local.len()];
    rig.skeleton.local_to_model(local, &mut model);
    model
}

/// Centre of the head drawn on a pose with model transforms `model`: one radius above the
/// head joint, along the head's up axis.
fn head_centre(rig: &Rig, model: &[Transform]) -> Vec3 {
    model[rig.joint("head")].transform_point(Vec3::Y * HEAD_RADIUS)
}

/// How a stick figure is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FigureStyle {
    /// The controller's output: solid, with joints and the right upper arm highlighted.
    Output,
    /// The target pose underneath: thin and dotted.
    Target,
}

/// The bone chains a stick figure is drawn as.
const CHAINS: [&[&str]; 5] = [
    &["pelvis", "spine", "chest", "neck", "head"],
    &["chest", "upperarm_l", "lowerarm_l", "hand_l"],
    &["chest", "upperarm_r", "lowerarm_r", "hand_r"],
    &["pelvis", "thigh_l", "shin_l", "foot_l"],
    &["pelvis", "thigh_r", "shin_r", "foot_r"],
];

/// A front view of the pose with local transforms `local`: bones, joints and a head.
fn draw_figure(svg: &mut Svg, view: &Viewport, rig: &Rig, local: &[Transform], style: FigureStyle) {
    let model = model_transforms(rig, local);
    let project = |p: Vec3| view.map(Plane::Front.project(p));
    let at = |name: &str| project(model[rig.joint(name)].translation);
    let bone = match style {
        FigureStyle::Output => Style::stroke(BODY, 3.0),
        FigureStyle::Target => wave_alone_style(),
    };
    for chain in CHAINS {
        let points: Vec<Vec2> = chain.iter().map(|&n| at(n)).collect();
        svg.polyline(&points, bone);
    }
    if style == FigureStyle::Output {
        svg.line(
            at("upperarm_r"),
            at("lowerarm_r"),
            Style::stroke(INERTIAL_PURPLE, 3.5),
        );
        for name in JOINTS.iter().filter(|&&n| n != "head") {
            svg.circle(at(name), 2.5, Style::fill(BODY));
        }
    }
    svg.circle(
        project(head_centre(rig, &model)),
        view.scale(HEAD_RADIUS),
        bone.filled("white"),
    );
}
