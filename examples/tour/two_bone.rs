//! Section 1: analytic two-bone IK. A left arm (clavicle, upper arm, forearm, hand) reaches for
//! eight targets that cover the solver's regimes: easy reaches, the inner dead zone, full
//! extension, out of reach, stretching and soft reach.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use glam::Vec2;
use sinew::{
    IkResult, Pose, Quat, Skeleton, Transform, TwoBoneIk, TwoBoneIkSettings, TwoBoneTarget, Vec3,
};

use crate::figure::{self, TwoViewPanels, MUTED, REST_GREY};
use crate::svg::{Font, Plane, Style, Svg, Viewport};
use crate::table::{yes_no, Column, Table};
use crate::timing;

/// Joint names, root first; each joint is the parent of the next. Model space is y up,
/// z forward, and x towards the character's left, so this is the left arm.
const JOINTS: [&str; 4] = ["clavicle_l", "upperarm_l", "lowerarm_l", "hand_l"];

/// The IK chain: upper arm (shoulder), forearm (elbow), hand (wrist).
const CHAIN: [&str; 3] = ["upperarm_l", "lowerarm_l", "hand_l"];

/// Bone lengths of an adult arm, in metres: shoulder to elbow, elbow to wrist.
const UPPER_ARM: f32 = 0.30;
const FOREARM: f32 = 0.27;

/// Runs the section: builds the arm, solves every case, prints the table and writes the SVG.
pub fn two_bone_section(out_dir: &Path) {
    crate::heading("1. Two-bone IK: a left arm reaching for targets");
    let mut arm = Arm::new();
    let rest = arm.joint_positions();
    let shoulder = rest[1];
    println!(
        "Rig: {} (upper arm {UPPER_ARM:.2} m, forearm {FOREARM:.2} m, reach {:.2} m).",
        JOINTS.join(" > "),
        UPPER_ARM + FOREARM
    );
    println!("Model space: y up, z forward, x to the character's left; positions in metres.\n");

    let outcomes: Vec<Outcome> = cases(shoulder)
        .into_iter()
        .map(|case| arm.run(case))
        .collect();
    print_table(&outcomes);
    crowd(&mut arm);

    let svg = draw(&outcomes, rest);
    crate::write_output(out_dir, "two_bone_ik.svg", &svg);
}

/// Which solver settings a case uses.
#[derive(Clone, Copy, Debug)]
enum Setup {
    /// Unreal's TwoBoneIK defaults: rigid bones, hard reach.
    Plain,
    /// Bones may lengthen up to 20% once the target is past full reach.
    Stretch,
    /// Reach eases in over the last 5% of the chain length, so the elbow never snaps straight.
    Soften,
}

impl Setup {
    /// Short name for tables and captions.
    fn label(self) -> &'static str {
        match self {
            Setup::Plain => "plain",
            Setup::Stretch => "stretch",
            Setup::Soften => "soften",
        }
    }

    /// A solver with these settings.
    fn solver(self) -> TwoBoneIk {
        let defaults = TwoBoneIkSettings::default();
        let settings = match self {
            Setup::Plain => defaults,
            Setup::Stretch => TwoBoneIkSettings {
                allow_stretching: true,
                ..defaults
            },
            Setup::Soften => TwoBoneIkSettings {
                soften: 0.95,
                ..defaults
            },
        };
        TwoBoneIk::new(settings).expect("the tour's solver settings are valid")
    }

    /// Closest and farthest the hand can get from the shoulder: |upper arm - forearm|, and the
    /// arm's length (times the stretch limit when stretching).
    fn reach_range(self) -> (f32, f32) {
        let solver = self.solver();
        let settings = solver.settings();
        let stretch = if settings.allow_stretching {
            settings.max_stretch_scale
        } else {
            1.0
        };
        ((UPPER_ARM - FOREARM).abs(), (UPPER_ARM + FOREARM) * stretch)
    }
}

/// One named target for the hand, with the elbow's pole, in model space, and what its picture
/// shows.
#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    setup: Setup,
    target: Vec3,
    pole: Vec3,
    /// What its picture shows, for the panel's caption.
    see: &'static str,
}

/// The targets, placed relative to the shoulder so the intent of each stays readable:
/// offsets are (out to the side, up, forward) in metres.
fn cases(shoulder: Vec3) -> Vec<Case> {
    let reach = UPPER_ARM + FOREARM;
    let along = |dir: Vec3, dist: f32| shoulder + dir.normalize() * dist;
    let at = |x: f32, y: f32, z: f32| shoulder + Vec3::new(x, y, z);
    vec![
        Case {
            name: "in front",
            setup: Setup::Plain,
            target: at(0.10, -0.15, 0.38),
            pole: at(0.15, -0.35, -0.25),
            see: "The hand lands on the target in front of the chest; the elbow bends down, \
                  toward the pole.",
        },
        Case {
            name: "above",
            setup: Setup::Plain,
            target: at(0.08, 0.45, 0.12),
            pole: at(0.25, 0.0, -0.35),
            see: "Overhead: the upper arm rises above the shoulder, and the elbow bends back \
                  toward the pole behind it.",
        },
        Case {
            name: "across the body",
            setup: Setup::Plain,
            target: at(-0.36, -0.10, 0.25),
            pole: at(0.05, -0.45, -0.10),
            see: "The hand crosses the body's midline (the vertical line in the front view); the \
                  elbow still bends toward the pole.",
        },
        Case {
            // 2 cm away: closer than |upper arm - forearm| = 3 cm, so the hand stops 1 cm off.
            name: "near the shoulder",
            setup: Setup::Plain,
            target: at(0.012, -0.012, 0.010),
            pole: at(0.10, -0.30, -0.20),
            see: "Closer than |upper arm − forearm|: the arm folds as far as it can, and the \
                  hand stops short of the target.",
        },
        Case {
            name: "full extension",
            setup: Setup::Plain,
            target: along(Vec3::new(1.0, -0.35, 0.35), reach),
            pole: at(0.20, -0.40, -0.20),
            see: "Exactly at full reach: the arm is straight and the hand touches the target; a \
                  straight arm has no bend for the pole to steer.",
        },
        Case {
            name: "out of reach",
            setup: Setup::Plain,
            target: at(0.75, 0.25, 0.30),
            pole: at(0.20, -0.40, -0.20),
            see: "Past full reach (the dashed circle): the arm points straight at the target, \
                  and the hand stops short of it at full reach.",
        },
        Case {
            // 12% past full reach: within the 20% stretch limit, so the bones lengthen to get there.
            name: "stretched",
            setup: Setup::Stretch,
            target: along(Vec3::new(0.8, 0.1, 0.3), reach * 1.12),
            pole: at(0.20, -0.40, -0.20),
            see: "Past full reach with stretching on: the bones lengthen (the reach circle grows \
                  to the stretch limit) and the hand gets there.",
        },
        Case {
            // 98% of full reach, inside the softened zone: the hand eases in a few mm short.
            name: "softened",
            setup: Setup::Soften,
            target: along(Vec3::new(1.0, -0.35, 0.35), reach * 0.98),
            pole: at(0.20, -0.40, -0.20),
            see: "Just inside full reach with soft reach on: the hand eases in a few millimetres \
                  short, so the elbow never snaps straight.",
        },
    ]
}

/// What solving one case gave.
struct Outcome {
    case: Case,
    result: IkResult,
    /// Median time of one `solve_pose` call, including a pose reset, in nanoseconds.
    ns: f64,
    /// Model-space joint positions after the solve, in [`JOINTS`] order.
    solved: [Vec3; 4],
}

/// The arm rig and a pose of it.
struct Arm {
    pose: Pose,
    chain: [u32; 3],
}

impl Arm {
    /// The built-in rig at its rest pose: a relaxed A-pose with the elbow bent slightly forward.
    fn new() -> Self {
        let rest = [
            // Clavicle at the base of the neck, 1.40 m up, axes aligned with the model.
            Transform::from_translation(Vec3::new(0.0, 1.40, 0.0)),
            // Shoulder 18 cm out along the clavicle; the arm hangs 45 degrees down.
            Transform::from_rotation_translation(
                Quat::from_rotation_z(-45f32.to_radians()),
                Vec3::new(0.18, 0.03, 0.0),
            ),
            // Elbow at the end of the upper arm (bones run along local x), bent 15 degrees forward.
            Transform::from_rotation_translation(
                Quat::from_rotation_y(-15f32.to_radians()),
                Vec3::new(UPPER_ARM, 0.0, 0.0),
            ),
            // Wrist at the end of the forearm.
            Transform::from_translation(Vec3::new(FOREARM, 0.0, 0.0)),
        ];
        let skeleton = Skeleton::new(&[-1, 0, 1, 2], &rest, Some(&JOINTS))
            .expect("the built-in arm rig is a valid skeleton");
        let chain = CHAIN.map(|name| {
            let index = skeleton
                .find_joint(name)
                .expect("every chain joint is named in the rig");
            u32::try_from(index).expect("a four-joint rig's indices fit in u32")
        });
        Self {
            pose: Pose::new(Arc::new(skeleton)),
            chain,
        }
    }

    /// Model-space position of every joint, in [`JOINTS`] order.
    fn joint_positions(&mut self) -> [Vec3; 4] {
        let model = self
            .pose
            .model()
            .expect("the arm rig stays within f32 range");
        std::array::from_fn(|i| model[i].translation)
    }

    /// Solves `case` from the rest pose once to record the result, then times the solve.
    fn run(&mut self, case: Case) -> Outcome {
        let solver = case.setup.solver();
        let target = TwoBoneTarget::at(case.target).with_pole(case.pole);
        self.pose.reset();
        let result = solver
            .solve_pose(&mut self.pose, self.chain, &target)
            .expect("the tour's chain and targets are valid");
        let solved = self.joint_positions();

        let (pose, chain) = (&mut self.pose, self.chain);
        let ns = timing::median_ns_per_call(|| {
            pose.reset();
            let r = solver.solve_pose(black_box(&mut *pose), chain, black_box(&target));
            black_box(r.expect("the tour's chain and targets are valid"));
        });
        self.pose.reset();
        Outcome {
            case,
            result,
            ns,
            solved,
        }
    }
}

/// Prints one aligned row per case, then how the timings were taken.
fn print_table(outcomes: &[Outcome]) {
    use Column::{Left, Right};
    let table = Table::new([Left(18), Left(7), Left(24), Right(7), Right(10), Right(8)]);
    table.header([
        "target",
        "solver",
        "position (x, y, z) m",
        "reached",
        "error (mm)",
        "ns/solve",
    ]);
    for o in outcomes {
        let p = o.case.target;
        table.row([
            o.case.name,
            o.case.setup.label(),
            &format!("({:6.3}, {:6.3}, {:6.3})", p.x, p.y, p.z),
            yes_no(o.result.reached),
            &format!("{:.3}", o.result.error * 1000.0),
            &format!("{:.0}", o.ns),
        ]);
    }
    println!(
        "\nns/solve: median of {} batches of {} `solve_pose` calls, each after a pose reset, on \
         this machine.\nIndicative only: the Criterion benches under benches/ (`cargo bench`) \
         are the reference.",
        timing::BATCHES,
        timing::CALLS_PER_BATCH
    );
}

/// Arms in the crowd demonstration.
const CROWD: usize = 256;

/// A crowd of this arm reaching for scattered targets: one batch call against one call per
/// arm, with the same results bit for bit.
fn crowd(arm: &mut Arm) {
    let model = arm
        .pose
        .model()
        .expect("the arm rig stays within f32 range");
    let chain: [Transform; 3] = arm.chain.map(|j| model[j as usize]);
    let shoulder = chain[0].translation;
    let reach = UPPER_ARM + FOREARM;
    let targets: Vec<TwoBoneTarget> = (0..CROWD)
        .map(|i| {
            // A golden-angle spiral of directions at 40 % to 110 % of the reach.
            let (t, turn) = ((i as f32 + 0.5) / CROWD as f32, i as f32 * 2.399_963);
            let (y, r) = (1.0 - 2.0 * t, (1.0 - (1.0 - 2.0 * t).powi(2)).sqrt());
            let dir = Vec3::new(r * turn.cos(), y, r * turn.sin());
            let at =
                shoulder + dir * reach * (0.4 + 0.7 * ((i * 37) % CROWD) as f32 / CROWD as f32);
            TwoBoneTarget::at(at).with_pole(shoulder + Vec3::new(0.2, -0.3, -0.5))
        })
        .collect();
    let solver = TwoBoneIk::new(TwoBoneIkSettings::default()).expect("defaults are valid");
    let input = vec![chain; CROWD];
    let mut one_by_one = input.clone();
    let mut batched = input.clone();
    let mut results = vec![IkResult::default(); CROWD];
    let calls = timing::CALLS_PER_BATCH / CROWD as u32;
    let single_ns = timing::median_ns_per_call_batched(calls, || {
        one_by_one.copy_from_slice(&input);
        for (c, t) in one_by_one.iter_mut().zip(&targets) {
            black_box(
                solver
                    .solve(black_box(c), t)
                    .expect("valid arms and targets"),
            );
        }
    }) / CROWD as f64;
    let batch_ns = timing::median_ns_per_call_batched(calls, || {
        batched.copy_from_slice(&input);
        let done = solver.solve_batch(black_box(&mut batched), &targets, &mut results);
        done.expect("valid arms and targets");
    }) / CROWD as f64;
    let same = one_by_one == batched;
    let reached = results.iter().filter(|r| r.reached).count();
    println!(
        "\nA crowd of {CROWD} arms reaching for scattered targets ({reached} within reach): \
         {single_ns:.0} ns per arm one call at a time,\n{batch_ns:.0} ns per arm through \
         `solve_batch` (four arms per SIMD pass); results identical bit for bit: {}.",
        yes_no(same)
    );
}

// ---------------------------------------------------------------------------------------------
// Picture: one panel per case, each with a front and a side view at the same scale.

/// Panels four to a row, 140 pixels per metre, with two lines of outcome and two of what to
/// see.
const PANELS: TwoViewPanels = TwoViewPanels {
    columns: 4,
    scale: 140.0,
    caption_h: 78.0,
};
/// Spacing of the faint background grid, in metres.
const GRID_STEP: f32 = 0.1;

const SOLVED_BLUE: &str = "#2563eb";
const POLE_PURPLE: &str = "#9333ea";

/// Everything a panel draws: the rest pose, the solved pose, the target and the pole.
fn panel_points(o: &Outcome, rest: &[Vec3; 4]) -> Vec<Vec3> {
    let mut points = rest.to_vec();
    points.extend(o.solved);
    points.extend([o.case.target, o.case.pole]);
    points
}

/// World bounds of one plane over every panel, including the reach circles, padded and
/// snapped outward to the grid so grid lines meet the view's edges cleanly.
fn plane_bounds(plane: Plane, outcomes: &[Outcome], rest: &[Vec3; 4]) -> (Vec2, Vec2) {
    let shoulder = plane.project(rest[1]);
    let (mut min, mut max) = (shoulder, shoulder);
    for o in outcomes {
        let reach = Vec2::splat(o.case.setup.reach_range().1);
        min = min.min(shoulder - reach);
        max = max.max(shoulder + reach);
        for p in panel_points(o, rest) {
            min = min.min(plane.project(p));
            max = max.max(plane.project(p));
        }
    }
    figure::snap_out((min, max), 0.04, GRID_STEP)
}

/// The whole figure: a title block with a legend, then a grid of panels.
fn draw(outcomes: &[Outcome], rest: [Vec3; 4]) -> String {
    PANELS.draw(
        outcomes,
        Plane::BOTH.map(|plane| plane_bounds(plane, outcomes, &rest)),
        |svg| draw_title(svg, outcomes.len()),
        draw_caption,
        |svg, plane, view, bounds, o| draw_view(svg, plane, view, bounds, o, &rest),
    )
}

/// Figure title, a one-line explanation and the legend.
fn draw_title(svg: &mut Svg, cases: usize) {
    let mut legend = figure::title_block(
        svg,
        &format!("Sinew two-bone IK: a left arm reaching for {cases} targets"),
        &format!(
            "Upper arm {UPPER_ARM} m, forearm {FOREARM} m. Each panel: front and side view at the \
             same scale; grid {} cm.",
            GRID_STEP * 100.0
        ),
    );
    legend.line("rest pose", 100.0, figure::rest_style());
    legend.line("solved", 85.0, solved_style());
    legend.item("shoulder, elbow, hand", 175.0, |svg, c| {
        svg.circle(c, 4.0, joint_style());
    });
    legend.item("target", 80.0, figure::target_marker);
    legend.item("pole (elbow hint)", 150.0, |svg, c| {
        svg.diamond(c, 5.5, Style::fill(POLE_PURPLE));
    });
    legend.line("reach limit", 115.0, reach_style());
    legend.line(
        "body midline (front) / body plane (side)",
        300.0,
        midline_style(),
    );
}

/// A panel's header (number, name, solver) and caption (outcome, distance to the target, what
/// to see).
fn draw_caption(svg: &mut Svg, corner: Vec2, panel: Vec2, number: usize, o: &Outcome) {
    TwoViewPanels::header(
        svg,
        corner,
        panel,
        &format!("{number}. {}", o.case.name),
        &format!("{} solver", o.case.setup.label()),
    );
    let line1 = PANELS.caption_at(corner, panel, 16.0);
    let (verdict, colour) = figure::verdict(o.result.reached);
    svg.text(
        line1,
        &format!("{verdict}, error {:.3} mm", o.result.error * 1000.0),
        Font::new(13.0, colour).bold(),
    );
    let distance = (o.case.target - o.solved[1]).length();
    let (near, far) = o.case.setup.reach_range();
    svg.text(
        line1 + Vec2::Y * 17.0,
        &format!("target {distance:.3} m from the shoulder; reach {near:.2}–{far:.2} m"),
        Font::new(12.0, MUTED),
    );
    let width = panel.x - 2.0 * TwoViewPanels::PAD;
    figure::caption(svg, line1 + Vec2::Y * 36.0, width, o.case.see);
}

/// One view of one panel: frame, grid, references, rest pose, solved pose, pole and target.
fn draw_view(
    svg: &mut Svg,
    plane: Plane,
    view: &Viewport,
    (min, max): (Vec2, Vec2),
    o: &Outcome,
    rest: &[Vec3; 4],
) {
    let top_left = figure::view_frame(svg, view, (min, max), GRID_STEP);
    // Body midline (front) or body plane (side): both are the zero of the horizontal axis.
    svg.line(
        view.map(Vec2::new(0.0, min.y)),
        view.map(Vec2::new(0.0, max.y)),
        midline_style(),
    );
    let project = |p: Vec3| view.map(plane.project(p));
    let shoulder = project(rest[1]);
    let far = o.case.setup.reach_range().1;
    svg.circle(shoulder, view.scale(far), reach_style());

    // Rest pose underneath, dashed grey.
    let rest_px = rest.map(project);
    svg.polyline(&rest_px, figure::rest_style());
    for &p in &rest_px[1..] {
        svg.circle(p, 2.5, Style::fill(REST_GREY));
    }

    // Pole and the line from the solved elbow towards it.
    let pole = project(o.case.pole);
    let solved = o.solved.map(project);
    svg.line(
        solved[2],
        pole,
        Style::stroke(POLE_PURPLE, 1.0).dashed("1 3"),
    );
    svg.diamond(pole, 5.0, Style::fill(POLE_PURPLE));

    // Solved pose: clavicle in grey (IK leaves it alone), the chain in blue.
    svg.line(solved[0], solved[1], Style::stroke(REST_GREY, 2.0));
    svg.circle(solved[0], 2.5, Style::fill(REST_GREY));
    svg.polyline(&solved[1..], solved_style());
    for &p in &solved[1..] {
        svg.circle(p, 3.5, joint_style());
    }

    figure::target_marker(svg, project(o.case.target));
    figure::plane_label(svg, top_left, plane);
}

fn solved_style() -> Style {
    Style::stroke(SOLVED_BLUE, 3.0)
}

fn joint_style() -> Style {
    Style::stroke(SOLVED_BLUE, 1.8).filled("white")
}

fn reach_style() -> Style {
    Style::stroke("#aab4be", 1.0).dashed("3 3")
}

fn midline_style() -> Style {
    Style::stroke("#d3d9df", 2.0)
}
