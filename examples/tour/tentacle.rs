//! Section 2: iterative chain IK. A ten-joint tentacle reaches for targets with FABRIK and CCD,
//! each free and with joint limits (a cone at every joint, a hinge near the tip).
//!
//! The tentacle and its targets lie in the x-y plane, and every rotation the solvers make is
//! then about z, so the pictures show the solves exactly rather than a projection of them.

use std::f32::consts::PI;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use glam::Vec2;
use sinew::{
    Ccd, CcdSettings, ChainTarget, Fabrik, FabrikSettings, IkResult, JointConstraint, Limit, Pose,
    Quat, Skeleton, Transform, Vec3,
};

use crate::figure::{self, INK, MARGIN, MUTED, TITLE_H};
use crate::svg::{Align, Font, Style, Svg, Viewport};
use crate::table::{yes_no, Column, Table};
use crate::timing;

/// Joint names, base first; each joint is the parent of the next.
const JOINTS: [&str; 10] = [
    "tentacle_base",
    "tentacle_01",
    "tentacle_02",
    "tentacle_03",
    "tentacle_04",
    "tentacle_05",
    "tentacle_06",
    "tentacle_07",
    "tentacle_08",
    "tentacle_tip",
];

/// Number of bones: one from each joint to the next.
const BONES: usize = JOINTS.len() - 1;

/// Length of the first bone, in metres; each later bone is [`TAPER`] times its parent.
const BASE_BONE: f32 = 0.24;
const TAPER: f32 = 0.86;

/// Rest bend of every joint after the base, in degrees about z: a slight curl to the left.
const REST_CURL_DEG: f32 = 6.0;

/// Iteration budget of both solvers (Unreal's nodes default to 10).
const MAX_ITERATIONS: u32 = 20;

/// Calls per timing batch: a chain solve takes microseconds, so a tenth of the two-bone
/// section's batch still lasts milliseconds, and the section runs in a few seconds.
const CALLS_PER_BATCH: u32 = timing::CALLS_PER_BATCH / 10;

/// Runs the section: builds the tentacle, solves every setup and target, prints the table and
/// writes the SVG.
pub fn tentacle_section(out_dir: &Path) {
    crate::heading("2. Chain IK: a ten-joint tentacle with FABRIK and CCD");
    let mut tentacle = Tentacle::new();
    println!(
        "Rig: {} joints, {} bones tapering {:.2} m to {:.2} m (length {:.2} m), curled {} \
         degrees per joint at rest.",
        JOINTS.len(),
        BONES,
        bone_length(0),
        bone_length(BONES - 1),
        chain_length(),
        REST_CURL_DEG
    );
    println!(
        "Limits: cones of {:.0} to {:.0} degrees about the rest pose, a {} hinge on {}.",
        bend(0).planar_range().1.to_degrees(),
        bend(BONES - 2).planar_range().1.to_degrees(),
        bend(BONES - 1).range_label(),
        JOINTS[BONES - 1]
    );
    println!(
        "Both solvers: up to {MAX_ITERATIONS} iterations, reached within {}% of the length.\n",
        FabrikSettings::default().precision * 100.0
    );

    let mut outcomes = Vec::new();
    for setup in Setup::ALL {
        let mut solver = setup.solver(&tentacle.constraints);
        for case in cases() {
            outcomes.push(tentacle.run(&mut solver, setup, case));
        }
    }
    print_table(&outcomes);

    let svg = draw(&outcomes, &tentacle);
    crate::write_output(out_dir, "tentacle.svg", &svg);
}

/// Length of bone `i` (from joint `i` to joint `i + 1`).
fn bone_length(i: usize) -> f32 {
    BASE_BONE * TAPER.powi(i as i32)
}

/// Sum of all bone lengths: the farthest the tip can get from the base.
fn chain_length() -> f32 {
    (0..BONES).map(bone_length).sum()
}

/// How far one joint may bend away from its rest rotation. The tour describes limits by their
/// bend in the tentacle's plane, so it can draw them; [`Bend::limit`] turns them into Sinew's.
#[derive(Clone, Copy, Debug)]
enum Bend {
    /// A circular cone of this half-angle, in degrees, around the bone.
    Cone(f32),
    /// A hinge about z, from `min` to `max` degrees.
    Hinge { min: f32, max: f32 },
}

impl Bend {
    /// The Sinew limit, in the joint frame whose x axis is the bone (so the cone's second
    /// half-angle is its bend about z).
    fn limit(self) -> Limit {
        match self {
            Bend::Cone(half_angle) => Limit::Cone {
                half_angle_1: half_angle.to_radians(),
                half_angle_2: half_angle.to_radians(),
                twist: None,
            },
            Bend::Hinge { min, max } => Limit::Hinge {
                min: min.to_radians(),
                max: max.to_radians(),
            },
        }
    }

    /// The constraint axis in the joint's frame: the bone for cones, z for the hinge.
    fn axis(self) -> Vec3 {
        match self {
            Bend::Cone(_) => Vec3::X,
            Bend::Hinge { .. } => Vec3::Z,
        }
    }

    /// Smallest and largest bend about z away from the rest rotation, in radians.
    fn planar_range(self) -> (f32, f32) {
        match self {
            Bend::Cone(half_angle) => (-half_angle.to_radians(), half_angle.to_radians()),
            Bend::Hinge { min, max } => (min.to_radians(), max.to_radians()),
        }
    }

    /// The hinge's range for the rig summary, e.g. "-10..40 degree".
    fn range_label(self) -> String {
        let (min, max) = self.planar_range();
        format!("{:.0}..{:.0} degree", min.to_degrees(), max.to_degrees())
    }
}

/// The limit of joint `i`: cones widening from 25 degrees at the stiff base to 35 degrees, then
/// a hinge on the last bone that mostly bends one way, like a curling tip.
fn bend(i: usize) -> Bend {
    if i == BONES - 1 {
        Bend::Hinge {
            min: -10.0,
            max: 40.0,
        }
    } else {
        Bend::Cone(25.0 + 10.0 * i as f32 / (BONES - 2) as f32)
    }
}

/// Which solver a run uses, and whether its joints are limited.
#[derive(Clone, Copy, Debug)]
struct Setup {
    method: Method,
    constrained: bool,
}

/// The chain solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Fabrik,
    Ccd,
}

impl Setup {
    /// The table's and the figure's rows, in order.
    const ALL: [Setup; 4] = [
        Setup {
            method: Method::Fabrik,
            constrained: false,
        },
        Setup {
            method: Method::Fabrik,
            constrained: true,
        },
        Setup {
            method: Method::Ccd,
            constrained: false,
        },
        Setup {
            method: Method::Ccd,
            constrained: true,
        },
    ];

    /// The solver's name.
    fn method_label(self) -> &'static str {
        match self.method {
            Method::Fabrik => "FABRIK",
            Method::Ccd => "CCD",
        }
    }

    /// Whether the joint limits are on, for the table.
    fn limits_label(self) -> &'static str {
        if self.constrained {
            "on"
        } else {
            "off"
        }
    }

    /// A solver for the tentacle, given one constraint per bone (used when constrained).
    fn solver(self, constraints: &[JointConstraint]) -> Solver {
        let mut solver = match self.method {
            Method::Fabrik => Solver::Fabrik(
                Fabrik::new(
                    FabrikSettings {
                        max_iterations: MAX_ITERATIONS,
                        ..FabrikSettings::default()
                    },
                    JOINTS.len(),
                )
                .expect("the tour's FABRIK settings are valid"),
            ),
            Method::Ccd => Solver::Ccd(
                Ccd::new(
                    CcdSettings {
                        max_iterations: MAX_ITERATIONS,
                        ..CcdSettings::default()
                    },
                    JOINTS.len(),
                )
                .expect("the tour's CCD settings are valid"),
            ),
        };
        if self.constrained {
            for (joint, &c) in constraints.iter().enumerate() {
                solver.set_constraint(joint, c);
            }
        }
        solver
    }
}

/// FABRIK or CCD behind one interface, so a run does not care which.
enum Solver {
    Fabrik(Fabrik),
    Ccd(Ccd),
}

impl Solver {
    /// Limits chain joint `joint` (0 is the base).
    fn set_constraint(&mut self, joint: usize, c: JointConstraint) {
        match self {
            Solver::Fabrik(s) => s.set_constraint(joint, Some(c)),
            Solver::Ccd(s) => s.set_constraint(joint, Some(c)),
        }
        .expect("every tentacle joint is within the solver's max_joints");
    }

    /// Solves joints `joints` of `pose` toward `target`.
    fn solve_pose(&mut self, pose: &mut Pose, joints: &[u32], target: &ChainTarget) -> IkResult {
        match self {
            Solver::Fabrik(s) => s.solve_pose(pose, joints, target),
            Solver::Ccd(s) => s.solve_pose(pose, joints, target),
        }
        .expect("the tour's chain and targets are valid")
    }
}

/// One named target for the tip, in model space (the tentacle's base is the origin).
#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    target: Vec3,
}

/// The targets: two easy reaches; a curl back over the tentacle, which the limits allow only
/// with several joints bent to their ends; and one past the tentacle's length.
fn cases() -> [Case; 4] {
    [
        Case {
            name: "up and right",
            target: Vec3::new(0.55, 0.85, 0.0),
        },
        Case {
            name: "down to the left",
            target: Vec3::new(-0.70, 0.15, 0.0),
        },
        Case {
            name: "curl back",
            target: Vec3::new(-0.30, 0.50, 0.0),
        },
        Case {
            name: "out of reach",
            target: Vec3::new(1.00, 1.00, 0.0),
        },
    ]
}

/// What one solve gave.
struct Outcome {
    setup: Setup,
    case: Case,
    result: IkResult,
    /// Median time of one `solve_pose` call, including a pose reset, in nanoseconds.
    ns: f64,
    /// Model-space transforms of every joint after the solve.
    solved: Vec<Transform>,
}

/// The tentacle rig, a pose of it, and the limits of its joints.
struct Tentacle {
    pose: Pose,
    /// Joint indices of the chain, base to tip.
    chain: [u32; JOINTS.len()],
    /// The constraint of each bone's joint, centred on its rest rotation.
    constraints: Vec<JointConstraint>,
    /// Model-space transforms of the rest pose.
    rest: Vec<Transform>,
}

impl Tentacle {
    /// The rig at its rest pose, with one constraint per bone centred on the rest rotation.
    fn new() -> Self {
        let local: Vec<Transform> = (0..JOINTS.len()).map(rest_local).collect();
        let parents: Vec<i32> = (-1..JOINTS.len() as i32 - 1).collect();
        let skeleton = Skeleton::new(&parents, &local, Some(&JOINTS))
            .expect("the built-in tentacle rig is a valid skeleton");
        let chain = JOINTS.map(|name| {
            let index = skeleton
                .find_joint(name)
                .expect("every chain joint is named in the rig");
            u32::try_from(index).expect("a ten-joint rig's indices fit in u32")
        });
        let constraints = (0..BONES)
            .map(|i| {
                let b = bend(i);
                JointConstraint::new(local[i].rotation, b.axis(), b.limit())
                    .expect("the tour's limits are valid")
            })
            .collect();
        let mut pose = Pose::new(Arc::new(skeleton));
        let rest = model(&mut pose);
        Self {
            pose,
            chain,
            constraints,
            rest,
        }
    }

    /// Solves `case` from the rest pose once to record the result, then times the solve.
    fn run(&mut self, solver: &mut Solver, setup: Setup, case: Case) -> Outcome {
        let target = ChainTarget::at(case.target);
        self.pose.reset();
        let result = solver.solve_pose(&mut self.pose, &self.chain, &target);
        let solved = model(&mut self.pose);

        let (pose, chain) = (&mut self.pose, &self.chain);
        let ns = timing::median_ns_per_call_batched(CALLS_PER_BATCH, || {
            pose.reset();
            black_box(solver.solve_pose(black_box(&mut *pose), chain, black_box(&target)));
        });
        self.pose.reset();
        Outcome {
            setup,
            case,
            result,
            ns,
            solved,
        }
    }
}

/// Rest local transform of joint `i`: the base at the origin pointing straight up (bones run
/// along local x), every later joint at the end of its parent's bone, bent [`REST_CURL_DEG`] to
/// the left. The rest rotations are also the centres of the joint limits.
fn rest_local(i: usize) -> Transform {
    if i == 0 {
        Transform::from_rotation_translation(Quat::from_rotation_z(PI / 2.0), Vec3::ZERO)
    } else {
        Transform::from_rotation_translation(
            Quat::from_rotation_z(REST_CURL_DEG.to_radians()),
            Vec3::new(bone_length(i - 1), 0.0, 0.0),
        )
    }
}

/// Model-space transforms of every joint of `pose`.
fn model(pose: &mut Pose) -> Vec<Transform> {
    pose.model()
        .expect("the tentacle stays within f32 range")
        .to_vec()
}

/// Prints one aligned row per solve, then how the timings were taken.
fn print_table(outcomes: &[Outcome]) {
    use Column::{Left, Right};
    let table = Table::new([
        Left(7),
        Left(6),
        Left(17),
        Right(7),
        Right(10),
        Right(10),
        Right(8),
    ]);
    table.header([
        "solver",
        "limits",
        "target",
        "reached",
        "error (mm)",
        "iterations",
        "ns/solve",
    ]);
    for o in outcomes {
        table.row([
            o.setup.method_label(),
            o.setup.limits_label(),
            o.case.name,
            yes_no(o.result.reached),
            &format!("{:.3}", o.result.error * 1000.0),
            &o.result.iterations.to_string(),
            &format!("{:.0}", o.ns),
        ]);
    }
    println!(
        "\nns/solve: median of {} batches of {} `solve_pose` calls, each after a pose reset.",
        timing::BATCHES,
        CALLS_PER_BATCH
    );
}

// ---------------------------------------------------------------------------------------------
// Picture: a grid of panels, one row per setup and one column per target.

/// Pixels per metre in every panel.
const SCALE: f32 = 200.0;
/// Space between panels, and inside a panel.
const GAP: f32 = 14.0;
const PAD: f32 = 10.0;
/// Height of the column headers and of a panel's outcome line; width of the row labels.
const COLUMN_H: f32 = 26.0;
const OUTCOME_H: f32 = 26.0;
const ROW_LABEL_W: f32 = 110.0;
/// Spacing of the faint background grid, in metres.
const GRID_STEP: f32 = 0.1;

const LIMIT_FILL: &str = "#fdebc8";
const LIMIT_EDGE: &str = "#d97706";
const FABRIK_BLUE: &str = "#2563eb";
const CCD_TEAL: &str = "#0d9488";

/// Points along the arc of a limit wedge.
const ARC_POINTS: usize = 13;

/// Chain colour of a setup: blue for FABRIK, teal for CCD.
fn chain_colour(setup: Setup) -> &'static str {
    match setup.method {
        Method::Fabrik => FABRIK_BLUE,
        Method::Ccd => CCD_TEAL,
    }
}

/// World bounds shared by every panel: all poses and targets, padded and snapped outward to the
/// grid.
fn bounds(outcomes: &[Outcome], rest: &[Transform]) -> (Vec2, Vec2) {
    let points = outcomes
        .iter()
        .flat_map(|o| {
            o.solved
                .iter()
                .map(|t| t.translation)
                .chain([o.case.target])
        })
        .chain(rest.iter().map(|t| t.translation));
    let bounds = points.fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(min, max), p| (min.min(p.truncate()), max.max(p.truncate())),
    );
    figure::snap_out(bounds, 0.05, GRID_STEP)
}

/// The whole figure: title and legend, column headers, row labels, then the panels.
fn draw(outcomes: &[Outcome], tentacle: &Tentacle) -> String {
    let (min, max) = bounds(outcomes, &tentacle.rest);
    let view_size = (max - min) * SCALE;
    let captions: Vec<String> = outcomes.iter().map(|o| what_to_see(o, outcomes)).collect();
    let caption_h = captions
        .iter()
        .map(|c| figure::caption_height(c, view_size.x))
        .fold(0.0, f32::max);
    let panel = Vec2::new(
        view_size.x + 2.0 * PAD,
        view_size.y + PAD + OUTCOME_H + caption_h + 4.0,
    );
    let columns = cases().len();
    let rows = Setup::ALL.len();
    let grid_corner = Vec2::new(MARGIN + ROW_LABEL_W, MARGIN + TITLE_H + COLUMN_H);
    let size = grid_corner
        + Vec2::new(columns as f32, rows as f32) * (panel + GAP)
        + Vec2::splat(MARGIN - GAP);

    let mut svg = Svg::new(size.x, size.y);
    draw_title(&mut svg);
    for (c, case) in cases().iter().enumerate() {
        let at = grid_corner + Vec2::new(c as f32 * (panel.x + GAP) + PAD, -8.0);
        svg.text(at, case.name, Font::new(14.0, INK).bold());
    }
    for (r, setup) in Setup::ALL.into_iter().enumerate() {
        let y = grid_corner.y + r as f32 * (panel.y + GAP) + 20.0;
        svg.text(
            Vec2::new(MARGIN, y),
            setup.method_label(),
            Font::new(15.0, chain_colour(setup)).bold(),
        );
        let limits = if setup.constrained {
            "with limits"
        } else {
            "free joints"
        };
        svg.text(Vec2::new(MARGIN, y + 18.0), limits, Font::new(12.5, MUTED));
    }
    for (i, o) in outcomes.iter().enumerate() {
        let cell = Vec2::new((i % columns) as f32, (i / columns) as f32);
        let corner = grid_corner + cell * (panel + GAP);
        figure::panel(&mut svg, corner, panel);
        let view = Viewport::fit(min, max, corner + Vec2::splat(PAD), view_size);
        draw_view(&mut svg, &view, (min, max), o, tentacle);
        draw_caption(&mut svg, corner, panel, view_size.y, o, &captions[i]);
    }
    svg.finish()
}

/// Figure title, a one-line explanation and the legend.
fn draw_title(svg: &mut Svg) {
    let mut legend = figure::title_block(
        svg,
        "Sinew chain IK: a ten-joint tentacle, FABRIK and CCD, free and with joint limits",
        &format!(
            "Bones {:.2} m tapering to {:.2} m, base at the origin. Every solve starts from the \
             rest pose; grid {} cm.",
            bone_length(0),
            bone_length(BONES - 1),
            GRID_STEP * 100.0
        ),
    );
    legend.line("rest pose", 100.0, figure::rest_style());
    legend.item("solved (FABRIK / CCD)", 190.0, |svg, c| {
        svg.line(
            c - Vec2::X * 10.0,
            c - Vec2::X,
            Style::stroke(FABRIK_BLUE, 3.0),
        );
        svg.line(
            c + Vec2::X,
            c + Vec2::X * 10.0,
            Style::stroke(CCD_TEAL, 3.0),
        );
    });
    legend.item("joint", 70.0, |svg, c| {
        svg.circle(c, 3.5, Style::stroke(INK, 1.5).filled("white"));
    });
    legend.item("target", 80.0, figure::target_marker);
    legend.item(
        "joint limit: allowed bend of the next bone",
        320.0,
        |svg, c| {
            let wedge = [
                c - Vec2::X * 9.0,
                c + Vec2::new(9.0, -6.0),
                c + Vec2::new(9.0, 6.0),
            ];
            svg.polygon(&wedge, limit_style());
        },
    );
}

/// A panel's caption: whether the tip reached the target, how far off, and how many
/// iterations, under the view at height `view_h`; then `see`, what the picture shows.
fn draw_caption(svg: &mut Svg, corner: Vec2, panel: Vec2, view_h: f32, o: &Outcome, see: &str) {
    let at = corner + Vec2::new(PAD, PAD + view_h + 18.0);
    let (verdict, colour) = figure::verdict(o.result.reached);
    svg.text(at, verdict, Font::new(12.5, colour).bold());
    svg.text(
        at + Vec2::X * (panel.x - 2.0 * PAD),
        &format!(
            "error {:.1} mm, {} iteration{}",
            o.result.error * 1000.0,
            o.result.iterations,
            if o.result.iterations == 1 { "" } else { "s" }
        ),
        Font::new(12.0, MUTED).aligned(Align::End),
    );
    figure::caption(svg, at + Vec2::Y * 19.0, panel.x - 2.0 * PAD, see);
}

/// What a solved chain looks like, measured: its sharpest bend, how often it crosses itself,
/// and how many joints end outside their limits.
struct Shape {
    /// Largest angle between consecutive bones, in degrees.
    sharpest: f32,
    /// Pairs of bones that cross, counting only bones that do not share a joint.
    crossings: usize,
    /// Joints bent out of their limit's range (by more than half a degree).
    outside: usize,
}

impl Shape {
    /// Measures the chain whose joints have the model transforms `solved`.
    fn new(solved: &[Transform]) -> Self {
        let points: Vec<Vec2> = solved.iter().map(|t| t.translation.truncate()).collect();
        let bones: Vec<Vec2> = points.windows(2).map(|w| w[1] - w[0]).collect();
        let sharpest = bones
            .windows(2)
            .map(|b| b[0].angle_to(b[1]).abs().to_degrees())
            .fold(0.0, f32::max);
        let crossings = (0..BONES)
            .flat_map(|i| (i + 2..BONES).map(move |j| (i, j)))
            .filter(|&(i, j)| segments_cross(points[i], points[i + 1], points[j], points[j + 1]))
            .count();
        let outside = (0..BONES)
            .filter(|&i| {
                let (lo, hi) = bend(i).planar_range();
                let slack = 0.5f32.to_radians();
                !(lo - slack..=hi + slack).contains(&bend_from_rest(i, solved))
            })
            .count();
        Self {
            sharpest,
            crossings,
            outside,
        }
    }
}

/// The solve in `outcomes` with the same solver and target as `o`, its limits the other way.
fn counterpart<'a>(o: &Outcome, outcomes: &'a [Outcome]) -> &'a Outcome {
    outcomes
        .iter()
        .find(|c| {
            c.setup.method == o.setup.method
                && c.setup.constrained != o.setup.constrained
                && c.case.name == o.case.name
        })
        .expect("every setup is solved with and without limits")
}

/// Why a chain stops short of a target beyond its length; a limited chain is compared with
/// the same solver's free one in `outcomes`.
fn out_of_reach(o: &Outcome, shape: &Shape, outcomes: &[Outcome]) -> String {
    let beyond = format!("The target is beyond the chain's {:.2} m", chain_length());
    if !o.setup.constrained {
        let how = if shape.sharpest < 1.0 {
            "lies straight, pointing at it"
        } else {
            "stretches toward it"
        };
        return format!("{beyond}: the chain {how}.");
    }
    let free = counterpart(o, outcomes);
    let extra = o.result.error - free.result.error;
    let farther = if extra > 0.0 {
        format!(", {:.0} mm farther off than without limits", extra * 1000.0)
    } else {
        String::new()
    };
    format!(
        "{beyond}, and the base may lean only {:.0}° from upright: the chain bends to aim at it \
         and stops short{farther}.",
        bend(0).planar_range().1.to_degrees()
    )
}

/// Whether the segments `a0..a1` and `b0..b1` cross at a point inside both.
fn segments_cross(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let side = |p: Vec2, q0: Vec2, q1: Vec2| (q1 - q0).perp_dot(p - q0);
    side(b0, a0, a1) * side(b1, a0, a1) < 0.0 && side(a0, b0, b1) * side(a1, b0, b1) < 0.0
}

/// How far bone `i` turns about z from its rest direction relative to its solved parent (what
/// joint `i`'s limit bounds), in radians.
fn bend_from_rest(i: usize, solved: &[Transform]) -> f32 {
    let parent = match i {
        0 => Quat::IDENTITY,
        _ => solved[i - 1].rotation,
    };
    let reference = (parent * rest_local(i).rotation * Vec3::X).truncate();
    let bone = (solved[i].rotation * Vec3::X).truncate();
    reference.angle_to(bone)
}

/// What a panel shows, in words: the chain's measured shape, and why the solver gave it.
/// `outcomes` holds every solve, for comparing a limited chain with the free one.
fn what_to_see(o: &Outcome, outcomes: &[Outcome]) -> String {
    let shape = Shape::new(&o.solved);
    let crossing = match shape.crossings {
        0 => "no crossing".to_owned(),
        1 => "the chain crosses itself once".to_owned(),
        2 => "the chain crosses itself twice".to_owned(),
        n => format!("the chain crosses itself {n} times"),
    };
    let mut text = format!(
        "Sharpest bend between bones {:.0}°, {crossing}",
        shape.sharpest
    );
    if o.setup.constrained {
        text += &match shape.outside {
            0 => ", every joint within its wedge.".to_owned(),
            n => format!(", {n} joints outside their wedges."),
        };
    } else {
        text += ".";
    }
    let why = if !o.result.reached {
        out_of_reach(o, &shape, outcomes)
    } else {
        match (o.setup.method, o.setup.constrained) {
            (Method::Fabrik, false) => "FABRIK pulls the joints along straight lines to the \
                                        target and back to the base, so the bend spreads \
                                        along the chain."
                .to_owned(),
            (Method::Ccd, false) if shape.crossings > 0 => {
                let limited = counterpart(o, outcomes);
                let below = if Shape::new(&limited.solved).crossings == 0 {
                    " The limits (row below) stop every turn at its wedge: no loops there."
                } else {
                    ""
                };
                format!(
                    "Why: CCD turns one joint at a time, from the tip back, to aim the tip at \
                     the target. With no limits a turn may fold a bone right back over its \
                     neighbours, so the chain can cross itself and curl into loops.{below}"
                )
            }
            (Method::Ccd, false) => "CCD turns one joint at a time, from the tip back, to aim \
                                     the tip at the target."
                .to_owned(),
            (_, true) if shape.outside == 0 => "Each joint's bend is clamped to its wedge, so \
                                                no bone folds back: the curl is shared by \
                                                many joints."
                .to_owned(),
            (_, true) => "The wedges show how far each joint may bend.".to_owned(),
        }
    };
    format!("{text} {why}")
}

/// One panel's view: frame, grid, limits, rest pose, solved chain and target.
fn draw_view(
    svg: &mut Svg,
    view: &Viewport,
    (min, max): (Vec2, Vec2),
    o: &Outcome,
    tentacle: &Tentacle,
) {
    figure::view_frame(svg, view, (min, max), GRID_STEP);
    let project = |t: &Transform| view.map(t.translation.truncate());

    if o.setup.constrained {
        draw_limits(svg, view, &o.solved);
    }
    let rest: Vec<Vec2> = tentacle.rest.iter().map(project).collect();
    svg.polyline(&rest, figure::rest_style());

    let colour = chain_colour(o.setup);
    let solved: Vec<Vec2> = o.solved.iter().map(project).collect();
    svg.polyline(&solved, Style::stroke(colour, 3.0));
    for &p in &solved {
        svg.circle(p, 3.0, Style::stroke(colour, 1.5).filled("white"));
    }
    svg.circle(solved[0], 4.0, Style::fill(INK));
    figure::target_marker(svg, view.map(o.case.target.truncate()));
}

/// For every limited joint, a wedge showing where its bone may point.
fn draw_limits(svg: &mut Svg, view: &Viewport, solved: &[Transform]) {
    let wedges: Vec<Vec<Vec2>> = (0..BONES).map(|i| limit_wedge(i, solved, view)).collect();
    // All fills first, then all outlines, so no wedge hides another's edges.
    for wedge in &wedges {
        svg.polygon(wedge, Style::fill(LIMIT_FILL));
    }
    for wedge in &wedges {
        svg.polygon(wedge, Style::stroke(LIMIT_EDGE, 1.0));
    }
}

/// The pixel outline of joint `i`'s limit in a solved pose: a circular sector at the joint,
/// spanning the limit's range of bend about z around the rest rotation, taken relative to the
/// solved parent (as Sinew applies it), with a radius of most of the bone.
fn limit_wedge(i: usize, solved: &[Transform], view: &Viewport) -> Vec<Vec2> {
    let parent = match i {
        0 => Quat::IDENTITY,
        _ => solved[i - 1].rotation,
    };
    let reference = parent * rest_local(i).rotation;
    let (lo, hi) = bend(i).planar_range();
    let radius = 0.7 * bone_length(i);
    let centre = solved[i].translation;
    let arc = (0..ARC_POINTS).map(|k| {
        let angle = lo + (hi - lo) * k as f32 / (ARC_POINTS - 1) as f32;
        let direction = reference * Quat::from_rotation_z(angle) * Vec3::X;
        view.map((centre + direction * radius).truncate())
    });
    std::iter::once(view.map(centre.truncate()))
        .chain(arc)
        .collect()
}

fn limit_style() -> Style {
    Style::stroke(LIMIT_EDGE, 1.0).filled(LIMIT_FILL)
}
