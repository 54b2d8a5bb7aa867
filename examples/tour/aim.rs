//! Section 6: aim and look-at. A spine, neck and head track a target that circles the character
//! (behind it too), free and limited; then a gun held in the hand is aimed with its muzzle off
//! the hand's axis.
//!
//! Model space as in the other sections: y up, z forward (the character faces +z), x to its
//! left. The aim axis is +z, the head's and the gun's forward.

use std::hint::black_box;
use std::path::Path;

use glam::Vec2;
use sinew::{AimIk, AimIkSettings, AimJoint, AimTarget, IkResult, Transform, Vec3};

use crate::figure::{self, INK, MARGIN, MUTED, TARGET_RED, TITLE_H};
use crate::svg::{Align, Font, Style, Svg, Viewport};
use crate::table::{yes_no, Column, Table};
use crate::timing;

/// Height of the spine's joints (pelvis, chest, neck, head), in metres.
const SPINE: [f32; 4] = [1.0, 1.3, 1.55, 1.65];
/// The eyes, in the head's frame: ahead of and above the head joint.
const EYES: Vec3 = Vec3::new(0.0, 0.08, 0.1);
/// Radius and height of the target's circle around the head.
const CIRCLE_R: f32 = 1.5;
const CIRCLE_Y: f32 = 1.75;

/// One tracking setup: how the chain is limited and what each frame solves from.
struct Setup {
    name: &'static str,
    colour: &'static str,
    joint_limit_deg: f32,
    clamp_deg: f32,
    from_previous: bool,
}

const SETUPS: [Setup; 3] = [
    Setup {
        name: "free, from the last frame",
        colour: "#2563eb",
        joint_limit_deg: 180.0,
        clamp_deg: 180.0,
        from_previous: true,
    },
    Setup {
        name: "clamp 90°, from the animation",
        colour: "#d97706",
        joint_limit_deg: 180.0,
        clamp_deg: 90.0,
        from_previous: false,
    },
    Setup {
        name: "joints 25° each, from the animation",
        colour: "#15803d",
        joint_limit_deg: 25.0,
        clamp_deg: 180.0,
        from_previous: false,
    },
];

/// The spine at rest, facing +z.
fn spine() -> Vec<Transform> {
    SPINE
        .iter()
        .map(|&y| Transform::from_translation(Vec3::new(0.0, y, 0.0)))
        .collect()
}

/// Where the target is at `frame` (one degree a frame, starting in front, turning to the
/// character's left).
fn circle(frame: usize) -> Vec3 {
    let a = (frame as f32).to_radians();
    Vec3::new(CIRCLE_R * a.sin(), CIRCLE_Y, CIRCLE_R * a.cos())
}

/// Yaw of a direction in degrees: 0 forward (+z), positive to the character's left (+x).
fn yaw(d: Vec3) -> f32 {
    d.x.atan2(d.z).to_degrees()
}

/// A setup's run around the circle: the head's aim yaw each frame, the largest turn of any
/// joint between frames, the worst residual where the aim is reachable, mean passes.
struct Track {
    yaws: Vec<f32>,
    largest_turn_deg: f32,
    worst_residual: f32,
    mean_iterations: f32,
    ns_per_solve: f64,
}

fn solver(setup: &Setup) -> AimIk {
    let settings = AimIkSettings {
        aim_axis: Vec3::Z,
        aim_offset: EYES,
        max_angle_degrees: setup.clamp_deg,
        ..AimIkSettings::default()
    };
    let mut aim = AimIk::new(settings, 4).expect("valid settings");
    for j in 0..4 {
        let tuning = AimJoint {
            weight: [1.0, 1.0, 1.5, 2.0][j],
            max_angle_degrees: setup.joint_limit_deg,
        };
        aim.set_joint(j, tuning).expect("valid tuning");
    }
    aim
}

fn track(setup: &Setup) -> Track {
    let mut aim = solver(setup);
    let rest = spine();
    let mut previous = rest.clone();
    let (mut yaws, mut largest, mut worst, mut iterations) = (Vec::new(), 0.0f32, 0.0f32, 0);
    for frame in 0..=360 {
        let mut chain = if setup.from_previous {
            previous.clone()
        } else {
            rest.clone()
        };
        let r: IkResult = aim
            .solve(&mut chain, &AimTarget::at(circle(frame)))
            .expect("solves");
        yaws.push(yaw(chain[3].rotation * Vec3::Z));
        let turn = previous
            .iter()
            .zip(&chain)
            .map(|(a, b)| a.rotation.angle_between(b.rotation))
            .fold(0.0, f32::max);
        if frame > 0 {
            largest = largest.max(turn.to_degrees());
        }
        // The free setup reaches every frame; the limited ones within their limits.
        if setup.from_previous {
            worst = worst.max(r.error);
        }
        iterations += r.iterations;
        previous = chain;
    }
    let mut chain = rest.clone();
    let goal = AimTarget::at(circle(60));
    let ns = timing::median_ns_per_call_batched(timing::CALLS_PER_BATCH / 10, || {
        chain.copy_from_slice(&rest);
        black_box(aim.solve(black_box(&mut chain), &goal).ok());
    });
    Track {
        yaws,
        largest_turn_deg: largest,
        worst_residual: worst,
        mean_iterations: iterations as f32 / 361.0,
        ns_per_solve: ns,
    }
}

/// The arm holding the gun: shoulder, elbow, hand (the hand's +z along the barrel).
fn arm() -> Vec<Transform> {
    vec![
        Transform::from_translation(Vec3::new(-0.2, 1.45, 0.0)),
        Transform::from_translation(Vec3::new(-0.22, 1.2, 0.1)),
        Transform::from_translation(Vec3::new(-0.2, 1.15, 0.35)),
    ]
}

/// The muzzle in the hand's frame: along the barrel and above the grip, off the aim axis.
const MUZZLE: Vec3 = Vec3::new(0.0, 0.09, 0.3);

const GUN_TARGETS: [Vec3; 3] = [
    Vec3::new(-1.0, 1.5, 1.3),
    Vec3::new(0.4, 0.8, 1.1),
    Vec3::new(-0.7, 1.9, 0.5),
];

struct Shot {
    solved: Vec<Transform>,
    target: Vec3,
    result: IkResult,
}

fn shoot() -> Vec<Shot> {
    let settings = AimIkSettings {
        aim_axis: Vec3::Z,
        aim_offset: MUZZLE,
        ..AimIkSettings::default()
    };
    let mut aim = AimIk::new(settings, 3).expect("valid settings");
    // The shoulder takes most of the turn, the hand a little.
    for (j, weight) in [3.0, 1.0, 0.5].into_iter().enumerate() {
        let tuning = AimJoint {
            weight,
            max_angle_degrees: 180.0,
        };
        aim.set_joint(j, tuning).expect("valid tuning");
    }
    GUN_TARGETS
        .iter()
        .map(|&target| {
            let mut solved = arm();
            let up = AimTarget::at(target).with_up(Vec3::Y);
            let result = aim.solve(&mut solved, &up).expect("solves");
            Shot {
                solved,
                target,
                result,
            }
        })
        .collect()
}

/// Runs the section: tracks the circling target with each setup, aims the gun, prints the
/// tables and writes the SVG.
pub fn aim_section(out_dir: &Path) {
    crate::heading(
        "6. Aim and look-at: a head tracking a circling target, a gun with a muzzle offset",
    );
    println!(
        "Rig: pelvis, chest, neck and head at {:?} m; eyes {:.2} m ahead and {:.2} m above the \
         head joint; weights 1, 1, 1.5, 2. The target circles the head at {CIRCLE_R} m, one degree \
         a frame, for 360 frames (behind the character at frame 180).\n",
        SPINE, EYES.z, EYES.y
    );
    let tracks: Vec<Track> = SETUPS.iter().map(track).collect();
    let table = Table::new([
        Column::Left(38),
        Column::Right(12),
        Column::Right(14),
        Column::Right(11),
        Column::Right(10),
    ]);
    table.header([
        "setup",
        "largest turn",
        "worst residual",
        "mean passes",
        "ns/solve",
    ]);
    for (setup, t) in SETUPS.iter().zip(&tracks) {
        let residual = if setup.from_previous {
            format!("{:.1e} rad", t.worst_residual)
        } else {
            "limited".into()
        };
        table.row([
            setup.name,
            &format!("{:.2}°", t.largest_turn_deg),
            &residual,
            &format!("{:.2}", t.mean_iterations),
            &format!("{:.0}", t.ns_per_solve),
        ]);
    }
    println!(
        "\nLimited chains hold at their limit while the target is in the nearer half of what \
         lies beyond it, then ease back to the animation by exactly behind: no frame flips from \
         one side to the other."
    );

    let shots = shoot();
    println!(
        "\nA gun in the right hand, muzzle {MUZZLE} in the hand's frame (off the barrel axis):\n"
    );
    let table = Table::new([
        Column::Left(22),
        Column::Right(16),
        Column::Right(8),
        Column::Right(8),
    ]);
    table.header(["target", "residual", "passes", "reached"]);
    for s in &shots {
        table.row([
            &format!("{:.1}, {:.1}, {:.1}", s.target.x, s.target.y, s.target.z),
            &format!("{:.1e} rad", s.result.error),
            &s.result.iterations.to_string(),
            yes_no(s.result.reached),
        ]);
    }

    let svg = draw(&tracks, &shots);
    crate::write_output(out_dir, "aim.svg", &svg);
}

const PANEL_W: f32 = 560.0;
const PANEL_H: f32 = 380.0;
const CAPTION_W: f32 = PANEL_W - 24.0;

fn draw(tracks: &[Track], shots: &[Shot]) -> String {
    let captions = [
        "The head's aim (its yaw, vertical) as the target goes once around the character \
         (horizontal; behind it at 180°). Free and solved from the last frame, the chain follows \
         all the way round. Limited and solved from the animation every frame, it turns to its \
         limit, holds there, then eases back to the animation as the target reaches exactly \
         behind, and out to the other side: a steady path, never a flip.",
        "The gun seen from above: the arm (shoulder, elbow, hand) turns so that the line from \
         the muzzle, which sits above the barrel's axis, passes through each target. Grey \
         dashes: the arm at rest.",
    ];
    let caption_h = captions
        .iter()
        .map(|c| figure::caption_height(c, CAPTION_W))
        .fold(0.0, f32::max);
    let width = 2.0 * PANEL_W + 3.0 * MARGIN;
    let height = TITLE_H + PANEL_H + caption_h + 3.0 * MARGIN;
    let mut svg = Svg::new(width, height);
    {
        let mut legend = figure::title_block(
            &mut svg,
            "Aim and look-at",
            "One rotation shared by the joints' weights; limits hold and never flip sides.",
        );
        for s in &SETUPS {
            legend.line(s.name, 250.0, Style::stroke(s.colour, 2.5));
        }
    }
    let top = TITLE_H + MARGIN;
    let left = Vec2::new(MARGIN, top);
    let right = Vec2::new(2.0 * MARGIN + PANEL_W, top);
    figure::panel(&mut svg, left, Vec2::new(PANEL_W, PANEL_H));
    figure::panel(&mut svg, right, Vec2::new(PANEL_W, PANEL_H));
    draw_chart(&mut svg, left, tracks);
    draw_gun(&mut svg, right, shots);
    for (corner, text) in [left, right].iter().zip(captions) {
        figure::caption(
            &mut svg,
            *corner + Vec2::new(12.0, PANEL_H + 20.0),
            CAPTION_W,
            text,
        );
    }
    svg.finish()
}

/// The head's yaw against the target's angle, one line per setup.
fn draw_chart(svg: &mut Svg, corner: Vec2, tracks: &[Track]) {
    let inner = Vec2::new(PANEL_W - 70.0, PANEL_H - 70.0);
    let origin = corner + Vec2::new(50.0, 30.0);
    let view = Viewport::fit(
        Vec2::new(0.0, -190.0),
        Vec2::new(360.0, 190.0),
        origin,
        inner,
    );
    svg.text(
        corner + Vec2::new(14.0, 20.0),
        "head yaw (°) against the target's angle around the character (°)",
        Font::new(12.5, INK).bold(),
    );
    let grid = Style::stroke(figure::FAINT, 1.0);
    for x in (0..=360).step_by(45) {
        let (a, b) = (
            view.map(Vec2::new(x as f32, -180.0)),
            view.map(Vec2::new(x as f32, 180.0)),
        );
        svg.line(a, b, grid);
        svg.text(
            view.map(Vec2::new(x as f32, -180.0)) + Vec2::Y * 14.0,
            &x.to_string(),
            Font::new(10.0, MUTED).aligned(Align::Middle),
        );
    }
    for y in (-180..=180).step_by(90) {
        let (a, b) = (
            view.map(Vec2::new(0.0, y as f32)),
            view.map(Vec2::new(360.0, y as f32)),
        );
        svg.line(a, b, grid);
        svg.text(
            a - Vec2::new(6.0, -3.0),
            &y.to_string(),
            Font::new(10.0, MUTED).aligned(Align::End),
        );
    }
    let behind = [
        view.map(Vec2::new(180.0, -180.0)),
        view.map(Vec2::new(180.0, 180.0)),
    ];
    svg.line(
        behind[0],
        behind[1],
        Style::stroke(TARGET_RED, 1.0).dashed("3 3"),
    );
    svg.text(
        behind[1] + Vec2::new(4.0, 12.0),
        "exactly behind",
        Font::new(10.0, TARGET_RED),
    );
    for (setup, t) in SETUPS.iter().zip(tracks) {
        // Split where the yaw wraps from +180 to -180 (the same direction), not a turn.
        let mut line: Vec<Vec2> = Vec::new();
        for (frame, &y) in t.yaws.iter().enumerate() {
            if let Some(&last) = t.yaws.get(frame.wrapping_sub(1)) {
                if (y - last).abs() > 180.0 {
                    svg.polyline(&line, Style::stroke(setup.colour, 2.5));
                    line.clear();
                }
            }
            line.push(view.map(Vec2::new(frame as f32, y)));
        }
        svg.polyline(&line, Style::stroke(setup.colour, 2.5));
    }
}

/// The arm and its aim lines from above (x to the character's left, z forward).
fn draw_gun(svg: &mut Svg, corner: Vec2, shots: &[Shot]) {
    let top = |p: Vec3| Vec2::new(-p.x, p.z);
    let points = arm()
        .into_iter()
        .map(|t| t.translation)
        .chain(shots.iter().map(|s| s.target));
    let (min, max) = points.fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(top(p)), hi.max(top(p))),
    );
    let view = Viewport::fit(
        min - Vec2::splat(0.15),
        max + Vec2::splat(0.15),
        corner + Vec2::new(20.0, 40.0),
        Vec2::new(PANEL_W - 40.0, PANEL_H - 60.0),
    );
    svg.text(
        corner + Vec2::new(14.0, 20.0),
        "top view (x → to the character's right, z forward ↑)",
        Font::new(12.5, INK).bold(),
    );
    let rest = arm();
    let pts: Vec<Vec2> = rest.iter().map(|t| view.map(top(t.translation))).collect();
    svg.polyline(&pts, figure::rest_style());
    let colours = ["#7c3aed", "#0891b2", "#db2777"];
    for (s, colour) in shots.iter().zip(colours) {
        let pts: Vec<Vec2> = s
            .solved
            .iter()
            .map(|t| view.map(top(t.translation)))
            .collect();
        svg.polyline(&pts, Style::stroke(colour, 3.0));
        let hand = s.solved[2];
        let muzzle = hand.transform_point(MUZZLE);
        let barrel = hand.rotation * Vec3::Z;
        let reach = (s.target - muzzle).length();
        svg.line(
            view.map(top(hand.translation)),
            view.map(top(muzzle)),
            Style::stroke(INK, 4.0),
        );
        svg.line(
            view.map(top(muzzle)),
            view.map(top(muzzle + barrel * reach)),
            Style::stroke(colour, 1.2).dashed("6 3"),
        );
        svg.circle(view.map(top(muzzle)), 3.0, Style::fill(colour));
        figure::target_marker(svg, view.map(top(s.target)));
        svg.text(
            view.map(top(s.target)) + Vec2::new(8.0, -6.0),
            &format!("height {:.1} m, {:.0e} rad", s.target.y, s.result.error),
            Font::new(10.5, MUTED),
        );
    }
}
