//! Section 5: multi-effector FABRIK. An upper body (pelvis, spine, chest, two arms) reaches with
//! both hands for targets moving along smooth paths, solved every frame from the previous
//! frame's output with the default settings. The right target passes out of reach and comes
//! back, so the table and the picture show the tree tracking, then compromising, then reaching
//! again.

use std::f32::consts::TAU;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use glam::Vec2;
use sinew::{
    EffectorTarget, IkResult, MultiFabrik, MultiFabrikSettings, Pose, Skeleton, Transform, Vec3,
};

use crate::figure::{self, TwoViewPanels, INK, MUTED, TARGET_RED};
use crate::svg::{Font, Plane, Style, Svg, Viewport};
use crate::table::{Column, Table};
use crate::timing;

/// Joint names; [`PARENTS`] gives each one's parent.
const JOINTS: [&str; 9] = [
    "pelvis",
    "spine",
    "chest",
    "shoulder_l",
    "elbow_l",
    "hand_l",
    "shoulder_r",
    "elbow_r",
    "hand_r",
];
const PARENTS: [i32; 9] = [-1, 0, 1, 2, 3, 4, 2, 6, 7];

/// The tree's root (pelvis, which stays in place) and its effectors (left hand, right hand).
const ROOT: u32 = 0;
const HANDS: [u32; 2] = [5, 8];
/// Joints drawn as the trunk, and as each arm from the chest (left, right).
const TRUNK: [usize; 3] = [0, 1, 2];
const ARMS: [[usize; 4]; 2] = [[2, 3, 4, 5], [2, 6, 7, 8]];

/// Bone lengths, in metres.
const UPPER_ARM: f32 = 0.28;
const FOREARM: f32 = 0.26;

/// Frames of the sequence (four seconds at 60 Hz); the targets' paths are closed loops over it.
const FRAMES: usize = 240;
const FRAME_RATE: f32 = 60.0;

/// How far the right target travels out, up and forward at the far end of its path.
const RIGHT_SWEEP: Vec3 = Vec3::new(-0.95, 0.40, 0.15);

/// Runs the section: solves the sequence, prints the table and writes the SVG.
pub fn multi_fabrik_section(out_dir: &Path) {
    crate::heading("5. Multi-effector FABRIK: an upper body reaching with both hands");
    let body = Body::new();
    println!(
        "Rig: {} joints, pelvis (root, fixed) to each hand {:.2} m through spine, chest, \
         shoulder, elbow; both hands are effectors of weight 1.",
        JOINTS.len(),
        body.reach
    );
    println!(
        "The left target loops 10 cm around the hand's rest place; the right one sweeps {:.2} m \
         out to the right and back, beyond the pelvis's reach at the far end.",
        RIGHT_SWEEP.length()
    );
    println!(
        "Each of the {FRAMES} frames is solved from the previous frame's output, default \
         settings ({} iterations at most, precision {} of the tree's size).\n",
        MultiFabrikSettings::default().max_iterations,
        MultiFabrikSettings::default().precision
    );

    let frames = body.run();
    print_table(&frames);
    let ns = timing::median_ns_per_call_batched(1, || {
        black_box(body.run());
    });
    println!(
        "\nMean time per solve over the sequence: {:.1} us (the whole sequence timed, median of \
         {} runs).",
        ns / FRAMES as f64 / 1000.0,
        timing::BATCHES
    );

    let svg = draw(&frames, &body);
    crate::write_output(out_dir, "multi_fabrik.svg", &svg);
}

/// The upper body at its rest pose.
struct Body {
    pose: Pose,
    /// Model-space positions of every joint at rest.
    rest: Vec<Vec3>,
    /// Length of the path from the pelvis to a hand: the farthest a hand can get from it.
    reach: f32,
}

impl Body {
    fn new() -> Self {
        let local = rest_local();
        let skeleton = Skeleton::new(&PARENTS, &local, Some(&JOINTS))
            .expect("the built-in upper body is a valid skeleton");
        for (&hand, name) in HANDS.iter().zip(["hand_l", "hand_r"]) {
            assert_eq!(skeleton.find_joint(name), Some(hand as usize));
        }
        let pose = Pose::new(Arc::new(skeleton));
        let rest = positions(&pose);
        let reach = TRUNK[1..]
            .iter()
            .chain(&ARMS[0][1..])
            .map(|&j| local[j].translation.length())
            .sum();
        Self { pose, rest, reach }
    }

    /// Rest position of hand `k` (0 left, 1 right).
    fn rest_hand(&self, k: usize) -> Vec3 {
        self.rest[HANDS[k] as usize]
    }

    /// Both targets at frame `f`. The left one loops around the left hand's rest place (a
    /// 10 cm circle up and to the side, weaving forward and back); the right one sweeps out by
    /// [`RIGHT_SWEEP`] and back, easing in and out. Both start at the rest hands.
    fn targets(&self, f: usize) -> [Vec3; 2] {
        let a = TAU * f as f32 / FRAMES as f32;
        let loop_offset = Vec3::new(
            0.10 * a.sin(),
            0.10 * (1.0 - a.cos()),
            0.08 * (2.0 * a).sin(),
        );
        let sweep = 0.5 * (1.0 - a.cos());
        [
            self.rest_hand(0) + loop_offset,
            self.rest_hand(1) + RIGHT_SWEEP * sweep,
        ]
    }

    /// Solves every frame from the previous frame's output, starting at the rest pose.
    fn run(&self) -> Vec<Frame> {
        let mut ik = MultiFabrik::new(MultiFabrikSettings::default(), JOINTS.len(), HANDS.len())
            .expect("the default settings are valid");
        let mut pose = self.pose.clone();
        let mut before = model(&pose);
        (0..FRAMES)
            .map(|f| {
                let targets = self.targets(f);
                let mut results = [IkResult::default(); 2];
                ik.solve_pose(
                    &mut pose,
                    ROOT,
                    &HANDS,
                    &targets.map(EffectorTarget::at),
                    &mut results,
                )
                .expect("the tour's tree and targets are valid");
                let after = model(&pose);
                let turn = largest_turn(&before, &after);
                let joints = after.iter().map(|t| t.translation).collect();
                before = after;
                Frame {
                    index: f,
                    targets,
                    results,
                    joints,
                    turn,
                }
            })
            .collect()
    }
}

/// Rest locals, translations only (identity rotations): the trunk straight up, the arms hanging
/// down and a little out with the elbows bent so the forearms point forward (x is the body's
/// left, z forward).
fn rest_local() -> Vec<Transform> {
    let t = Transform::from_translation;
    let mut local = vec![
        t(Vec3::new(0.0, 1.0, 0.0)),
        t(Vec3::new(0.0, 0.20, 0.0)),
        t(Vec3::new(0.0, 0.22, 0.0)),
    ];
    for side in [1.0, -1.0] {
        local.extend([
            t(Vec3::new(0.18 * side, 0.14, 0.0)),
            t(Vec3::new(0.2 * side, -1.0, 0.05).normalize() * UPPER_ARM),
            t(Vec3::new(0.05 * side, -0.15, 1.0).normalize() * FOREARM),
        ]);
    }
    local
}

/// Model-space transforms of every joint of `pose`.
fn model(pose: &Pose) -> Vec<Transform> {
    let mut out = vec![Transform::IDENTITY; pose.joint_count()];
    pose.model_into(&mut out)
        .expect("the body stays within f32 range");
    out
}

/// Model-space positions of every joint of `pose`.
fn positions(pose: &Pose) -> Vec<Vec3> {
    model(pose).iter().map(|t| t.translation).collect()
}

/// The largest angle between the model rotations of any joint in two poses, in degrees: how
/// far the solve turned a bone from one frame to the next.
fn largest_turn(a: &[Transform], b: &[Transform]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.rotation.angle_between(y.rotation).to_degrees())
        .fold(0.0, f32::max)
}

/// One solved frame.
struct Frame {
    index: usize,
    /// Left and right targets.
    targets: [Vec3; 2],
    /// The solver's result for each hand (iterations are the solve's).
    results: [IkResult; 2],
    /// Model-space positions of every joint after the solve.
    joints: Vec<Vec3>,
    /// Largest per-frame bone turn since the previous frame (from the rest pose at frame 0),
    /// degrees.
    turn: f32,
}

impl Frame {
    /// Position of hand `k` after the solve.
    fn hand(&self, k: usize) -> Vec3 {
        self.joints[HANDS[k] as usize]
    }

    /// Distance of hand `k` to its target, measured here from the solved pose.
    fn off(&self, k: usize) -> f32 {
        (self.hand(k) - self.targets[k]).length()
    }

    fn reached(&self) -> [bool; 2] {
        self.results.map(|r| r.reached)
    }

    /// Distance of the right target from the pelvis, which stays in place.
    fn right_target_distance(&self) -> f32 {
        (self.targets[1] - self.joints[ROOT as usize]).length()
    }
}

/// Which hands reached, in words.
fn reached_label([left, right]: [bool; 2]) -> &'static str {
    match (left, right) {
        (true, true) => "both",
        (true, false) => "left only",
        (false, true) => "right only",
        (false, false) => "neither",
    }
}

/// Millimetres, one decimal.
fn mm(metres: f32) -> String {
    format!("{:.1}", metres * 1000.0)
}

/// Prints one row per run of frames in which the same hands reached their targets, then a row
/// for the whole sequence.
fn print_table(frames: &[Frame]) {
    use Column::{Left, Right};
    let table = Table::new([
        Left(9),
        Left(10),
        Right(10),
        Right(12),
        Right(13),
        Right(14),
    ]);
    table.header([
        "frames",
        "reached",
        "mean iter.",
        "largest turn",
        "left off (mm)",
        "right off (mm)",
    ]);
    let mut start = 0;
    while start < frames.len() {
        let state = frames[start].reached();
        let len = frames[start..]
            .iter()
            .take_while(|f| f.reached() == state)
            .count();
        let run = &frames[start..start + len];
        print_row(
            &table,
            &format!("{}-{}", start, start + len - 1),
            reached_label(state),
            run,
        );
        start += len;
    }
    print_row(&table, &format!("all {}", frames.len()), "", frames);
    println!(
        "\nlargest turn: the most any joint's model rotation changed from one frame to the next \
         (degrees); off: the largest distance of each hand to its target over those frames."
    );
}

fn print_row(table: &Table<6>, frames_label: &str, reached: &str, frames: &[Frame]) {
    let iterations: u32 = frames.iter().map(|f| f.results[0].iterations).sum();
    let turn = frames.iter().map(|f| f.turn).fold(0.0, f32::max);
    let off = |k: usize| frames.iter().map(|f| f.off(k)).fold(0.0, f32::max);
    table.row([
        frames_label,
        reached,
        &format!("{:.2}", iterations as f32 / frames.len() as f32),
        &format!("{turn:.2}°"),
        &mm(off(0)),
        &mm(off(1)),
    ]);
}

// ---------------------------------------------------------------------------------------------
// Picture: a few frames, each with a front and a side view of the body, the targets and the
// whole paths of both targets and both hands.

/// Panels two to a row, 300 pixels per metre.
const PANELS: TwoViewPanels = TwoViewPanels {
    columns: 2,
    scale: 300.0,
    caption_h: 84.0,
};
/// Spacing of the faint background grid, in metres.
const GRID_STEP: f32 = 0.1;

const TRUNK_GREY: &str = "#475569";
/// Left and right arm, and their hands' paths.
const ARM_COLOURS: [&str; 2] = ["#2563eb", "#ea580c"];
const PATH_COLOURS: [&str; 2] = ["#93c5fd", "#fdba74"];
const TARGET_PATH: &str = "#f0a3a3";

/// The frames drawn: both hands reaching early on, the first frame the right hand misses, the
/// far end of the right target's sweep, and the first frame both reach again after it.
fn shown(frames: &[Frame]) -> Vec<&Frame> {
    let misses = |f: &&Frame| !f.results[1].reached;
    let first_miss = frames
        .iter()
        .find(misses)
        .expect("the right target passes out of reach");
    let far = &frames[FRAMES / 2];
    let back = frames[FRAMES / 2..]
        .iter()
        .find(|f| f.reached() == [true, true])
        .expect("both hands reach again once the right target is back");
    vec![&frames[FRAMES / 6], first_miss, far, back]
}

/// Everything the figure draws, in model space.
fn points<'a>(frames: &'a [Frame], body: &'a Body) -> impl Iterator<Item = Vec3> + 'a {
    frames
        .iter()
        .flat_map(|f| f.joints.iter().copied().chain(f.targets))
        .chain(body.rest.iter().copied())
}

/// World bounds of one plane, padded and snapped outward to the grid.
fn plane_bounds(plane: Plane, frames: &[Frame], body: &Body) -> (Vec2, Vec2) {
    let bounds = points(frames, body).map(|p| plane.project(p)).fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(min, max), p| (min.min(p), max.max(p)),
    );
    figure::snap_out(bounds, 0.1, GRID_STEP)
}

/// The whole figure: a title block with a legend, then one panel per shown frame.
fn draw(frames: &[Frame], body: &Body) -> String {
    let items = shown(frames);
    PANELS.draw(
        &items,
        Plane::BOTH.map(|plane| plane_bounds(plane, frames, body)),
        |svg| draw_title(svg, body),
        |svg, corner, panel, number, f| draw_caption(svg, corner, panel, number, f, body),
        |svg, plane, view, bounds, f| draw_view(svg, plane, view, bounds, f, frames, body),
    )
}

/// Figure title, a one-line explanation and the legend.
fn draw_title(svg: &mut Svg, body: &Body) {
    let mut legend = figure::title_block(
        svg,
        "Sinew multi-effector FABRIK: an upper body reaching with both hands",
        &format!(
            "Pelvis fixed, {:.2} m from each hand along the tree; each frame solved from the \
             last one's output ({FRAMES} frames at {FRAME_RATE:.0} Hz). Grid {} cm.",
            body.reach,
            GRID_STEP * 100.0
        ),
    );
    legend.line("rest pose", 100.0, figure::rest_style());
    legend.item("left / right arm", 150.0, |svg, c| {
        left_right_swatch(svg, c, ARM_COLOURS, 3.0)
    });
    legend.item("hands' paths", 120.0, |svg, c| {
        left_right_swatch(svg, c, PATH_COLOURS, 2.0)
    });
    legend.line("targets' paths", 130.0, target_path_style());
    legend.item("targets", 80.0, figure::target_marker);
    legend.line("hand to a missed target", 200.0, miss_style());
}

/// A panel's header (frame and time, iterations) and caption (each hand's distance, what to
/// see).
fn draw_caption(svg: &mut Svg, corner: Vec2, panel: Vec2, number: usize, f: &Frame, body: &Body) {
    let iterations = f.results[0].iterations;
    TwoViewPanels::header(
        svg,
        corner,
        panel,
        &format!(
            "{number}. frame {} (t = {:.2} s)",
            f.index,
            f.index as f32 / FRAME_RATE
        ),
        &format!(
            "{iterations} iteration{}, largest turn {:.1}°",
            if iterations == 1 { "" } else { "s" },
            f.turn
        ),
    );
    let line1 = PANELS.caption_at(corner, panel, 17.0);
    svg.text(
        line1,
        &format!(
            "left hand {} mm off, right hand {} mm off",
            mm(f.off(0)),
            mm(f.off(1))
        ),
        Font::new(13.0, INK).bold(),
    );
    let width = panel.x - 2.0 * TwoViewPanels::PAD;
    figure::caption(svg, line1 + Vec2::Y * 20.0, width, &what_to_see(f, body));
}

/// What a panel shows, in words, from the frame's measures.
fn what_to_see(f: &Frame, body: &Body) -> String {
    let distance = f.right_target_distance();
    match f.reached() {
        [true, true] => format!(
            "Both hands on their targets (the right one {distance:.2} m from the pelvis, inside \
             the {:.2} m reach): the spine and arms share the bend.",
            body.reach
        ),
        [left, false] => {
            let lean = (f.joints[2] - f.joints[0])
                .angle_between(Vec3::Y)
                .to_degrees();
            let left = if left {
                "the left hand stays on its target".to_owned()
            } else {
                format!("the left hand gives way by {} mm", mm(f.off(0)))
            };
            let beyond = if distance > body.reach {
                format!("beyond the {:.2} m reach", body.reach)
            } else {
                format!(
                    "inside the {:.2} m reach, but not while the left hand holds on",
                    body.reach
                )
            };
            format!(
                "The right target is {distance:.2} m from the pelvis, {beyond}: the right arm \
                 points at it, the trunk leans {lean:.0}° toward it, and {left}."
            )
        }
        [false, true] => "The left hand misses its target.".to_owned(),
    }
}

/// One view of one panel: frame and grid, the paths of the targets and hands over the whole
/// sequence, the rest pose, the body at this frame and its targets.
fn draw_view(
    svg: &mut Svg,
    plane: Plane,
    view: &Viewport,
    (min, max): (Vec2, Vec2),
    f: &Frame,
    frames: &[Frame],
    body: &Body,
) {
    let top_left = figure::view_frame(svg, view, (min, max), GRID_STEP);
    let project = |p: Vec3| view.map(plane.project(p));

    for (k, colour) in PATH_COLOURS.into_iter().enumerate() {
        let targets: Vec<Vec2> = frames.iter().map(|g| project(g.targets[k])).collect();
        svg.polyline(&targets, target_path_style());
        let hands: Vec<Vec2> = frames.iter().map(|g| project(g.hand(k))).collect();
        svg.polyline(&hands, Style::stroke(colour, 2.0));
    }
    let limb = |joints: &[usize], positions: &[Vec3]| -> Vec<Vec2> {
        joints.iter().map(|&j| project(positions[j])).collect()
    };
    svg.polyline(&limb(&TRUNK, &body.rest), figure::rest_style());
    for arm in ARMS {
        svg.polyline(&limb(&arm, &body.rest), figure::rest_style());
    }

    let trunk = limb(&TRUNK, &f.joints);
    svg.polyline(&trunk, Style::stroke(TRUNK_GREY, 3.0));
    for (k, arm) in ARMS.iter().enumerate() {
        let px = limb(arm, &f.joints);
        svg.polyline(&px, Style::stroke(ARM_COLOURS[k], 3.0));
        for &p in &px[1..] {
            svg.circle(p, 3.0, Style::stroke(ARM_COLOURS[k], 1.5).filled("white"));
        }
        if !f.results[k].reached {
            svg.line(project(f.hand(k)), project(f.targets[k]), miss_style());
        }
        figure::target_marker(svg, project(f.targets[k]));
        svg.text(
            px[3] + Vec2::new(-4.0, 20.0),
            ["L", "R"][k],
            Font::new(12.0, ARM_COLOURS[k]).bold().halo(),
        );
    }
    for &p in &trunk[1..] {
        svg.circle(p, 3.0, Style::stroke(TRUNK_GREY, 1.5).filled("white"));
    }
    svg.circle(trunk[0], 4.5, Style::fill(INK));
    svg.text(
        trunk[0] + Vec2::new(8.0, 14.0),
        "pelvis (root)",
        Font::new(11.0, MUTED).halo(),
    );
    figure::plane_label(svg, top_left, plane);
}

fn target_path_style() -> Style {
    Style::stroke(TARGET_PATH, 1.5).dashed("4 3")
}

fn miss_style() -> Style {
    Style::stroke(TARGET_RED, 1.5).dashed("2 3")
}

/// A legend sample of two short strokes around `c`, the left hand's colour then the right's.
fn left_right_swatch(svg: &mut Svg, c: Vec2, colours: [&'static str; 2], width: f32) {
    svg.line(
        c - Vec2::X * 10.0,
        c - Vec2::X,
        Style::stroke(colours[0], width),
    );
    svg.line(
        c + Vec2::X,
        c + Vec2::X * 10.0,
        Style::stroke(colours[1], width),
    );
}
