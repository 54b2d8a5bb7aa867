//! Chain IK frame after frame, for FABRIK and CCD side by side (the one property the two
//! solvers' own files, fabrik.rs and ccd.rs, leave here: how a solve follows the previous
//! frame's output). Issue 12, points 1-4, measured as a game uses the solvers, with default
//! settings: straight chains bend toward targets on their own line; nothing pops near full
//! reach; the defaults reach reachable targets; constrained chains follow smooth paths without
//! jumps and inside their limits. Then smooth paths and the edge of reach with other settings,
//! and static targets, which re-solving never drifts away from.
//! Each test prints its figures and collects its failures before one assert.

use std::f32::consts::PI;
use std::time::Instant;

use sinew::{
    CcdSettings, ChainTarget, EndRotation, FabrikSettings, JointConstraint, Limit, Quat, Transform,
    Vec3,
};

mod common;

use common::chain_contract::{self, random_chain_of};
use common::chains::{
    bits, bone_axis, bone_lengths, build, chain_of, locals_of, random_chain, tip, total_length,
    Draw,
};
use common::limits::{
    check_allowed, constrain, pose_chain, random_allowed_coords, random_spec_of, Spec, LIMIT_TOL,
};
use common::rng::Rng;
use common::rotations::rot_between;
use common::solvers::{ccd_settings, fabrik_settings, Solver};

// ------------------------------------------------------------------------------------ helpers

/// This file's random scenarios: SplitMix64 streams salted with this file's constant.
fn seeded(seed: u64) -> Rng {
    Rng::salted(seed, 0x6A09_E667_F3BC_C908)
}

/// Largest turn of any bone in one frame for unconstrained chains, degrees (point 2).
const MAX_TURN: f32 = 7.0;

/// Largest turn of any bone in one frame for constrained chains, degrees (point 4).
const MAX_CONSTRAINED_TURN: f32 = 15.0;

/// Target step per frame, as a fraction of the chain length.
const STEP: f32 = 0.0025;

/// Share of targets or frames that must be reached.
const MIN_REACH: f32 = 0.99;

/// The default precision, as a fraction of the chain length.
const PRECISION: f32 = 1e-3;

/// Error drop in one solve, in multiples of the target's step, that marks an escape from a
/// local minimum: tracking changes the error by at most about one step.
const ESCAPE_DROP: f32 = 5.0;

/// Room for every chain of this file.
const MAX_JOINTS: usize = 32;

/// FABRIK and CCD with their default settings.
fn default_solvers() -> [Solver; 2] {
    [
        Solver::fabrik(FabrikSettings::default(), MAX_JOINTS),
        Solver::ccd(CcdSettings::default(), MAX_JOINTS),
    ]
}

/// A fresh default solver of the same kind as `solver`.
fn fresh_default(solver: &Solver) -> Solver {
    match solver {
        Solver::Fabrik(_) => Solver::fabrik(FabrikSettings::default(), MAX_JOINTS),
        Solver::Ccd(_) => Solver::ccd(CcdSettings::default(), MAX_JOINTS),
    }
}

/// The same kind of solver with iterations to spare and no stall stop: it prepares the reached
/// poses that single-step measurements start from.
fn generous(solver: &Solver) -> Solver {
    match solver {
        Solver::Fabrik(_) => Solver::fabrik(fabrik_settings(1000, false), MAX_JOINTS),
        Solver::Ccd(_) => Solver::ccd(ccd_settings(1000, false), MAX_JOINTS),
    }
}

/// Largest rotation of any joint between two poses of a chain (model space, degrees), and the
/// joint.
fn largest_turn(a: &[Transform], b: &[Transform]) -> (f32, usize) {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| (rot_between(x.rotation, y.rotation).to_degrees(), i))
        .fold((0.0, 0), |w, t| if t.0 > w.0 { t } else { w })
}

/// Largest distance any joint moved between two poses of a chain.
fn largest_move(a: &[Transform], b: &[Transform]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.translation - y.translation).length())
        .fold(0.0, f32::max)
}

/// Whether the chain's tip is within the default precision of `goal` (1e-3 of the chain length,
/// as documented; measured here, not taken from the solver's result).
fn arrived(chain: &[Transform], goal: Vec3) -> bool {
    (tip(chain) - goal).length() <= PRECISION * (1.0 + 1e-4) * total_length(chain)
}

/// Whether a solve toward `goal` returned its input (to within 1e-5 of the chain length)
/// without reaching: a solve that did nothing.
fn unchanged_unreached(input: &[Transform], output: &[Transform], goal: Vec3) -> bool {
    !arrived(output, goal) && largest_move(input, output) <= 1e-5 * total_length(input)
}

/// Points of the curve `path` (parameter 0..=1) `step` apart by arc length (each the first of
/// 20,000 samples at or past the next step); the first point is `path(0)`.
fn walk(path: impl Fn(f32) -> Vec3, step: f32) -> Vec<Vec3> {
    const SAMPLES: usize = 20_000;
    let mut points = vec![path(0.0)];
    let mut since = 0.0;
    let mut previous = path(0.0);
    for k in 1..=SAMPLES {
        let p = path(k as f32 / SAMPLES as f32);
        since += (p - previous).length();
        previous = p;
        if since >= step {
            points.push(p);
            since = 0.0;
        }
    }
    points
}

/// Two unit vectors perpendicular to `d` and to each other.
fn perpendiculars(d: Vec3) -> (Vec3, Vec3) {
    let a = d.any_orthonormal_vector();
    (a, d.cross(a).normalize())
}

/// What following a sequence of targets gave.
#[derive(Debug, Default)]
struct Tracking {
    /// Largest per-frame turn (degrees), its frame, joint and the target's distance over the
    /// chain length.
    worst: f32,
    frame: usize,
    joint: usize,
    ratio: f32,
    /// Frames reached, of the frames whose target lies within reach.
    reached: usize,
    reachable: usize,
    /// Frames whose solve returned its input unchanged without reaching.
    stuck: usize,
    frames: usize,
}

impl Tracking {
    fn line(&self) -> String {
        format!(
            "largest turn {:.2} deg (frame {}, joint {}, target at {:.4} L), reached {}/{} frames within reach, {} unchanged+unreached, {} frames",
            self.worst, self.frame, self.joint, self.ratio, self.reached, self.reachable, self.stuck, self.frames
        )
    }
}

/// Solves `goal` from `start` with `settler` (up to `solves` solves, until reached): the solved
/// pose a measurement starts from, and whether it reached.
fn settle(
    mut settler: Solver,
    start: &[Transform],
    root_parent: Quat,
    goal: Vec3,
    solves: usize,
) -> (Vec<Transform>, bool) {
    let mut current = start.to_vec();
    let reached = (0..solves).any(|_| {
        settler
            .solve(&mut current, root_parent, &ChainTarget::at(goal))
            .unwrap();
        arrived(&current, goal)
    });
    (current, reached)
}

/// Solves `targets[1..]` in order with `solver`, each frame from the previous output, starting
/// from `start` solved to `targets[0]` with iterations to spare.
fn track(
    solver: &mut Solver,
    start: &[Transform],
    root_parent: Quat,
    targets: &[Vec3],
) -> Tracking {
    let length = total_length(start);
    let root = start[0].translation;
    let (mut current, _) = settle(generous(solver), start, root_parent, targets[0], 10);
    let mut t = Tracking::default();
    for (f, &goal) in targets.iter().enumerate().skip(1) {
        let mut out = current.clone();
        solver
            .solve(&mut out, root_parent, &ChainTarget::at(goal))
            .unwrap();
        let ratio = (goal - root).length() / length;
        let (turn, joint) = largest_turn(&current, &out);
        if turn > t.worst {
            (t.worst, t.frame, t.joint, t.ratio) = (turn, f, joint, ratio);
        }
        if ratio <= 1.0 {
            t.reachable += 1;
            t.reached += usize::from(arrived(&out, goal));
        }
        t.stuck += usize::from(unchanged_unreached(&current, &out, goal));
        t.frames += 1;
        current = out;
    }
    t
}

fn percent(part: usize, whole: usize) -> f32 {
    100.0 * part as f32 / whole.max(1) as f32
}

// ---------------------------------------------------- point 1: straight chains on their line

/// A straight chain: its model transforms, the root's parent rotation and the unit direction of
/// its line.
struct Straight {
    name: &'static str,
    chain: Vec<Transform>,
    root_parent: Quat,
    line: Vec3,
}

/// The straight chains of point 1: the 3-joint example, 4 and 10 unit bones along +X,
/// a chain with bones along local +Y (as Unity rigs) lying along model +Y, and one with a
/// rotated root, twisted joints and a rotated root parent.
fn straight_chains() -> Vec<Straight> {
    let along_x = |n: usize| chain_of(Transform::IDENTITY, &vec![1.0; n - 1], |_| Quat::IDENTITY);
    let y_root = Transform::from_translation(Vec3::new(0.5, -1.0, 2.0));
    let y_locals: Vec<Transform> = [0.8, 1.2, 0.5, 1.0]
        .iter()
        .map(|&l| Transform::from_translation(Vec3::Y * l))
        .collect();
    let turned = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 2.0);
    let turned_root = Transform::from_rotation_translation(turned, Vec3::new(-1.0, 0.5, 0.25));
    vec![
        Straight {
            name: "3 joints (issue example)",
            chain: along_x(3),
            root_parent: Quat::IDENTITY,
            line: Vec3::X,
        },
        Straight {
            name: "4 joints along +X",
            chain: along_x(4),
            root_parent: Quat::IDENTITY,
            line: Vec3::X,
        },
        Straight {
            name: "10 joints along +X",
            chain: along_x(10),
            root_parent: Quat::IDENTITY,
            line: Vec3::X,
        },
        Straight {
            name: "5 joints, bones on local +Y",
            chain: build(y_root, &y_locals),
            root_parent: Quat::IDENTITY,
            line: Vec3::Y,
        },
        Straight {
            name: "4 joints, rotated root, twisted joints",
            chain: chain_of(turned_root, &[1.0, 0.7, 1.3], |i| {
                Quat::from_rotation_x(0.5 + 0.2 * i as f32)
            }),
            root_parent: Quat::from_axis_angle(Vec3::new(0.0, 1.0, 1.0).normalize(), 1.0),
            line: turned * Vec3::X,
        },
    ]
}

/// Point 1: a straight chain reaches reachable targets on its own line with default settings,
/// in one solve: in front of the root at several distances (the (1.2, 0, 0) among them)
/// and behind it.
#[test]
fn straight_chain_bends_toward_targets_on_its_line() {
    // Signed distances along the line, as fractions of the chain length.
    const ALONG: [f32; 10] = [0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, -0.3, -0.7];
    let mut failures = Vec::new();
    for s in straight_chains() {
        let length = total_length(&s.chain);
        let root = s.chain[0].translation;
        for mut solver in default_solvers() {
            let what = format!("{} {}", solver.name(), s.name);
            let (mut reached, mut worst_error, mut most_iterations) = (0, 0.0f32, 0);
            let mut missed = Vec::new();
            for a in ALONG {
                let goal = root + s.line * a * length;
                let mut out = s.chain.clone();
                let r = solver
                    .solve(&mut out, s.root_parent, &ChainTarget::at(goal))
                    .unwrap();
                let error = (tip(&out) - goal).length() / length;
                reached += usize::from(arrived(&out, goal));
                worst_error = worst_error.max(error);
                most_iterations = most_iterations.max(r.iterations);
                if !arrived(&out, goal) {
                    missed.push(format!("{a} L (error {error:.4} L)"));
                }
                for (l0, l1) in bone_lengths(&s.chain).iter().zip(bone_lengths(&out)) {
                    assert!(
                        (l0 - l1).abs() <= 1e-4 * length,
                        "{what}: bone length {l0} -> {l1}"
                    );
                }
            }
            eprintln!(
                "{what}: reached {reached}/{} targets on the line, worst error {worst_error:.4} L, most iterations {most_iterations}",
                ALONG.len()
            );
            if !missed.is_empty() {
                failures.push(format!("{what}: not reached at {}", missed.join(", ")));
            }
        }
    }
    // The exact case, printed as the issue states it.
    let s = &straight_chains()[0];
    for mut solver in default_solvers() {
        let mut out = s.chain.clone();
        let r = solver
            .solve(
                &mut out,
                Quat::IDENTITY,
                &ChainTarget::at(Vec3::new(1.2, 0.0, 0.0)),
            )
            .unwrap();
        eprintln!(
            "{} issue example, target (1.2, 0, 0): tip {}, reached {}, error {:.4}, {} iterations",
            solver.name(),
            tip(&out),
            r.reached,
            r.error,
            r.iterations
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Point 1 with hinges: a straight two-bone chain of hinges about Z (the root's range [-1.5, 1.5],
/// the middle joint's lopsided: [-0.5, 2] or its mirror) bends toward targets on its own line
/// within 5 % of the chain length of its tip (where constrained chains take closing steps), in
/// one solve with default settings, on the side where the middle hinge has more room (its
/// range's middle, as the README says of singular poses).
#[test]
fn straight_hinge_chain_bends_toward_the_side_with_room() {
    let chain = chain_of(Transform::IDENTITY, &[1.0, 1.0], |_| Quat::IDENTITY);
    let hinge = |min: f32, max: f32| {
        JointConstraint::new(Quat::IDENTITY, Vec3::Z, Limit::Hinge { min, max }).unwrap()
    };
    let mut failures = Vec::new();
    for (min, max) in [(-0.5f32, 2.0f32), (-2.0, 0.5)] {
        for mut solver in default_solvers() {
            solver.set_constraint(0, Some(hinge(-1.5, 1.5))).unwrap();
            solver.set_constraint(1, Some(hinge(min, max))).unwrap();
            for along in [0.96f32, 0.97, 0.98, 0.99] {
                let goal = Vec3::X * 2.0 * along;
                let mut out = chain.clone();
                solver
                    .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
                    .unwrap();
                let local = out[0].rotation.conjugate() * out[1].rotation;
                let bend = 2.0 * local.z.atan2(local.w);
                let error = (tip(&out) - goal).length() / 2.0;
                eprintln!(
                    "{} middle hinge [{min}, {max}], target at {along} L: bend {bend:.3} rad, error {error:.4} L",
                    solver.name()
                );
                if !arrived(&out, goal) || bend * (min + max) <= 0.0 {
                    failures.push(format!(
                        "{} [{min}, {max}] at {along} L: bend {bend} rad, error {error} L",
                        solver.name()
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The bend plane of a chain about its line through the root: the principal direction (either
/// sign) of the joints' offsets from the line, as an angle about the line from `a` toward `b`
/// (both perpendicular to it); `None` while no joint is 1 % of the chain length off the line.
fn bend_plane(chain: &[Transform], line: Vec3, (a, b): (Vec3, Vec3)) -> Option<f32> {
    let root = chain[0].translation;
    let (mut xx, mut yy, mut xy, mut largest) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for t in chain {
        let p = t.translation - root;
        let off = p - line * p.dot(line);
        let (x, y) = (off.dot(a), off.dot(b));
        (xx, yy, xy) = (xx + x * x, yy + y * y, xy + x * y);
        largest = largest.max(off.length());
    }
    (largest > 1e-2 * total_length(chain)).then(|| 0.5 * (2.0 * xy).atan2(xx - yy))
}

/// Angle between two bend planes given by `bend_plane`, degrees (0 to 90).
fn plane_change(p: f32, q: f32) -> f32 {
    let d = (q - p).rem_euclid(PI);
    d.min(PI - d).to_degrees()
}

/// Point 1: an unreachable target far along the line lays the chain straight; the target then
/// comes back along the same ray, each frame solved from the previous output: in steps of 0.25 %
/// of the chain length from 1.05 of it, or first straight back to 0.8 of it and then in those
/// steps, down to 0.25. Every frame within reach is reached; after the first frame no bone turns
/// more than 7 degrees in a frame and the bend plane turns at most 7 degrees a frame; a second
/// run gives the same bits.
#[test]
fn bend_direction_is_stable_along_the_line() {
    let mut failures = Vec::new();
    for s in straight_chains() {
        let length = total_length(&s.chain);
        let root = s.chain[0].translation;
        let across = perpendiculars(s.line);
        // Start bent at joint 1, as a chain is before its target runs away along the line.
        let bent = {
            let mut locals = locals_of(&s.chain, s.root_parent);
            locals[1] =
                Quat::from_axis_angle(s.chain[0].rotation.conjugate() * across.0, 0.3) * locals[1];
            pose_chain(&s.chain, s.root_parent, &locals)
        };
        let far = root + s.line * 3.0 * length;
        let steps: Vec<f32> = (0..)
            .map(|k| 1.05 - STEP * k as f32)
            .take_while(|&d| d >= 0.25)
            .collect();
        let jump: Vec<f32> = (0..)
            .map(|k| 0.8 - STEP * k as f32)
            .take_while(|&d| d >= 0.25)
            .collect();
        for (path_name, path) in [
            ("steps from 1.05 L", &steps),
            ("back to 0.8 L, then steps", &jump),
        ] {
            // Per frame: the output's bits, and problems; then a summary.
            let run = |solver: &mut Solver| -> (Vec<Vec<u32>>, Vec<String>, String) {
                let mut current = bent.clone();
                solver
                    .solve(&mut current, s.root_parent, &ChainTarget::at(far))
                    .unwrap();
                let mut problems = Vec::new();
                let off_line = current
                    .iter()
                    .map(|t| (t.translation - root).cross(s.line).length())
                    .fold(0.0, f32::max);
                if off_line > 1e-4 * length {
                    problems.push(format!(
                        "the far target left a joint {off_line} off the line (documented: laid straight)"
                    ));
                }
                let mut frame_bits = Vec::new();
                let (mut reached, mut reachable) = (0, 0);
                let (mut worst, mut worst_at) = (0.0f32, 0.0);
                let (mut worst_plane, mut plane_at) = (0.0f32, 0.0);
                let (mut first_plane, mut previous_plane, mut last_plane) = (None, None, None);
                for (f, &d) in path.iter().enumerate() {
                    let mut out = current.clone();
                    let goal = root + s.line * d * length;
                    solver
                        .solve(&mut out, s.root_parent, &ChainTarget::at(goal))
                        .unwrap();
                    frame_bits.push(bits(&out));
                    if d <= 1.0 {
                        reachable += 1;
                        reached += usize::from(arrived(&out, goal));
                    }
                    let (turn, _) = largest_turn(&current, &out);
                    // The first frame may jump (from straight to 0.8 L); later ones may not.
                    if f > 0 && turn > worst {
                        (worst, worst_at) = (turn, d);
                    }
                    let plane = bend_plane(&out, s.line, across);
                    if let (Some(p), Some(q)) = (previous_plane, plane) {
                        let change = plane_change(p, q);
                        if change > worst_plane {
                            (worst_plane, plane_at) = (change, d);
                        }
                    }
                    first_plane = first_plane.or(plane);
                    last_plane = plane.or(last_plane);
                    previous_plane = plane;
                    current = out;
                }
                let drift = match (first_plane, last_plane) {
                    (Some(p), Some(q)) => plane_change(p, q),
                    _ => f32::NAN,
                };
                if reached < reachable {
                    problems.push(format!(
                        "reached only {reached}/{reachable} frames within reach"
                    ));
                }
                if worst > MAX_TURN {
                    problems.push(format!(
                        "a bone turned {worst:.2} deg in a frame (target at {worst_at:.4} L)"
                    ));
                }
                if worst_plane > MAX_TURN {
                    problems.push(format!(
                        "the bend plane turned {worst_plane:.2} deg in a frame (target at {plane_at:.4} L)"
                    ));
                }
                let plane = if first_plane.is_some() {
                    format!("bend plane turns at most {worst_plane:.2} deg a frame (at {plane_at:.4} L) and {drift:.1} deg over the path")
                } else {
                    "the chain never bends".to_owned()
                };
                let summary = format!(
                    "reached {reached}/{reachable} frames within reach, largest turn {worst:.2} deg (at {worst_at:.4} L), {plane}"
                );
                (frame_bits, problems, summary)
            };
            for mut solver in default_solvers() {
                let what = format!("{} {}, {path_name}", solver.name(), s.name);
                let (first, problems, summary) = run(&mut solver);
                let (second, _, _) = run(&mut fresh_default(&solver));
                eprintln!("{what}: {summary}");
                failures.extend(problems.into_iter().map(|p| format!("{what}: {p}")));
                if first != second {
                    let frame = first
                        .iter()
                        .zip(&second)
                        .position(|(a, b)| a != b)
                        .unwrap_or(0);
                    failures.push(format!("{what}: a second run differs from frame {frame}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ----------------------------------------------------------- point 2: no pops near full reach

/// A chain of `n` joints with the given bone lengths (cycled) and a gentle 3D rest bend.
fn rest_chain(n: usize, lengths: &[f32]) -> Vec<Transform> {
    let l: Vec<f32> = (0..n - 1).map(|i| lengths[i % lengths.len()]).collect();
    let bend = Quat::from_rotation_z(1.2 / n as f32) * Quat::from_rotation_y(0.4 / n as f32);
    chain_of(Transform::IDENTITY, &l, |_| bend)
}

/// Point 2 (a): the example. Ten joints, unit bones along +X, the root unrotated and each
/// of the nine others turned 0.17 rad about +Z locally, solved until reached to (7.647353,
/// 3.823676, 0), 0.95 of the reach; then a 0.25 % step to (7.647353, 3.846176, 0) with default
/// settings is reached and turns no bone more than 7 degrees.
#[test]
fn no_pops_near_full_reach() {
    let mut failures = Vec::new();
    let chain = chain_of(Transform::IDENTITY, &[1.0; 9], |_| {
        Quat::from_rotation_z(0.17)
    });
    let first = Vec3::new(7.647353, 3.823676, 0.0);
    let second = Vec3::new(7.647353, 3.846176, 0.0);
    for solver in default_solvers() {
        let (settled, ok) = settle(generous(&solver), &chain, Quat::IDENTITY, first, 10);
        assert!(ok, "{}: the start target is reached", solver.name());
        let mut step = fresh_default(&solver);
        let mut out = settled.clone();
        let r = step
            .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(second))
            .unwrap();
        let (turn, joint) = largest_turn(&settled, &out);
        let what = format!("{} issue example", solver.name());
        let reached = arrived(&out, second);
        eprintln!(
            "{what}: from the reached pose, the 0.25 % step: largest turn {turn:.2} deg (joint {joint}), reached {reached}, error {:.5} ({} iterations), unchanged+unreached {}",
            (tip(&out) - second).length(),
            r.iterations,
            unchanged_unreached(&settled, &out, second)
        );
        if turn > MAX_TURN || !reached {
            failures.push(format!(
                "{what}: 0.25 % step turned joint {joint} by {turn:.2} deg, reached {reached}"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Point 2 (b): a circle and a figure-eight whose distance from the root sweeps from 0.8 through
/// 1.0 to 1.05 of the chain length, in steps of 0.25 % of it, on 4-, 10- and 25-joint chains of
/// equal bones and a 10-joint chain of unequal bones, each frame solved from the previous output
/// with default settings: no bone turns more than 7 degrees in a frame.
#[test]
fn smooth_paths_near_full_reach_do_not_pop() {
    let mut failures = Vec::new();
    let chains = [
        ("4 joints", rest_chain(4, &[1.0])),
        ("10 joints", rest_chain(10, &[1.0])),
        ("25 joints", rest_chain(25, &[1.0])),
        (
            "10 joints unequal",
            rest_chain(10, &[1.5, 0.4, 1.0, 0.3, 1.2, 0.8, 0.5, 1.4, 0.6]),
        ),
    ];
    for (name, chain) in &chains {
        let length = total_length(chain);
        let root = chain[0].translation;
        let radial = Vec3::new(0.6, 0.7, 0.38).normalize();
        let (e1, e2) = perpendiculars(radial);
        let center = root + radial * 0.925 * length;
        let circle = walk(
            |t| {
                let a = 2.0 * PI * t;
                center + (radial * a.cos() + e1 * a.sin()) * 0.125 * length
            },
            STEP * length,
        );
        let eight = walk(
            |t| {
                let a = 2.0 * PI * t;
                center + (radial * a.sin() + e2 * 1.2 * a.sin() * a.cos()) * 0.125 * length
            },
            STEP * length,
        );
        for (path_name, path) in [("circle", &circle), ("figure-eight", &eight)] {
            for mut solver in default_solvers() {
                let t = track(&mut solver, chain, Quat::IDENTITY, path);
                let what = format!("{} {name}, {path_name}", solver.name());
                eprintln!("{what}: {}", t.line());
                if t.worst > MAX_TURN {
                    failures.push(format!(
                        "{what}: joint {} turned {:.2} deg at frame {} (target at {:.4} L)",
                        t.joint, t.worst, t.frame, t.ratio
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Point 2 (c): from a reached pose (from a random bend, solved until reached) with its target at
/// 90-99.5 % of the reach in a random direction, one default solve toward a target moved 0.25 %
/// of the chain length in a random direction turns no bone more than 7 degrees and never returns
/// the chain unchanged and unreached. 4-, 10- and 25-joint chains of unit bones.
#[test]
fn single_steps_near_full_reach_stay_small() {
    const CASES: usize = 60;
    let mut failures = Vec::new();
    for n in [4usize, 10, 25] {
        for solver in default_solvers() {
            let mut rng = seeded(n as u64);
            let what = format!("{} {n} joints", solver.name());
            let (mut worst, mut worst_case) = (0.0f32, String::new());
            let (mut stuck, mut reached, mut unsettled) = (0, 0, 0);
            let mut turns = Vec::new();
            for _ in 0..CASES {
                let chain = chain_of(Transform::IDENTITY, &vec![1.0; n - 1], |_| {
                    rng.rotation(0.4)
                });
                let length = total_length(&chain);
                let ratio = rng.range(0.9, 0.995);
                let goal = rng.dir() * ratio * length;
                let (settled, ok) = settle(generous(&solver), &chain, Quat::IDENTITY, goal, 10);
                let moved = goal + rng.dir() * STEP * length;
                if !ok {
                    unsettled += 1;
                    continue;
                }
                let mut out = settled.clone();
                fresh_default(&solver)
                    .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(moved))
                    .unwrap();
                let (turn, joint) = largest_turn(&settled, &out);
                turns.push(turn);
                reached += usize::from(arrived(&out, moved));
                stuck += usize::from(unchanged_unreached(&settled, &out, moved));
                if turn > worst {
                    worst = turn;
                    worst_case = format!("joint {joint} at {ratio:.4} of the reach");
                }
            }
            turns.sort_by(f32::total_cmp);
            let median = turns.get(turns.len() / 2).copied().unwrap_or(f32::NAN);
            let measured = turns.len();
            eprintln!(
                "{what}: {measured} steps from reached poses at 0.90-0.995 L: largest turn {worst:.2} deg ({worst_case}), median {median:.2} deg, reached {reached}/{measured}, unchanged+unreached {stuck}; {unsettled} start poses not reached"
            );
            if worst > MAX_TURN {
                failures.push(format!(
                    "{what}: a 0.25 % step turned {worst:.2} deg ({worst_case})"
                ));
            }
            if stuck > 0 {
                failures.push(format!(
                    "{what}: {stuck} steps returned the chain unchanged and unreached"
                ));
            }
            if unsettled > 0 {
                failures.push(format!(
                    "{what}: {unsettled} start targets not reached even with 10 x 1000 iterations"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ----------------------------------------------------- point 3: defaults that converge

/// What solving many targets once each gave.
struct Reach {
    reached: usize,
    cases: usize,
    iterations: u64,
    seconds: f64,
}

impl Reach {
    /// Prints the figures of `what`; a failure unless at least 99 % were reached.
    fn check(&self, what: &str, failures: &mut Vec<String>) {
        eprintln!("{what}: {}", self.line());
        if (self.reached as f32) < MIN_REACH * self.cases as f32 {
            failures.push(format!(
                "{what}: reached {:.1} % < 99 %",
                percent(self.reached, self.cases)
            ));
        }
    }

    fn line(&self) -> String {
        format!(
            "reached {}/{} ({:.1} %), mean {:.2} iterations, mean {:.1} us per solve{}",
            self.reached,
            self.cases,
            percent(self.reached, self.cases),
            self.iterations as f64 / self.cases as f64,
            1e6 * self.seconds / self.cases as f64,
            if cfg!(debug_assertions) {
                " (debug build)"
            } else {
                ""
            }
        )
    }
}

/// Solves `cases` targets, each once with `solver` from the chain `start` gives; the wall time
/// counts the solves only.
fn reach(
    solver: &mut Solver,
    cases: usize,
    mut start: impl FnMut() -> Vec<Transform>,
    mut target: impl FnMut() -> Vec3,
) -> Reach {
    let mut r = Reach {
        reached: 0,
        cases,
        iterations: 0,
        seconds: 0.0,
    };
    for _ in 0..cases {
        let mut chain = start();
        let goal = target();
        let clock = Instant::now();
        let result = solver
            .solve(&mut chain, Quat::IDENTITY, &ChainTarget::at(goal))
            .unwrap();
        r.seconds += clock.elapsed().as_secs_f64();
        r.reached += usize::from(arrived(&chain, goal));
        r.iterations += u64::from(result.iterations);
    }
    r
}

/// A 7-joint spine-to-hand chain in a natural rest pose (Y up, X forward, Z to the right):
/// spine 0.12, chest 0.15, neck base to clavicle 0.14, clavicle 0.16, upper arm 0.30, forearm
/// 0.27 (then the hand). Bones lie on each joint's local X.
fn spine_to_hand() -> Vec<Transform> {
    let bones = [
        (Vec3::new(0.05, 1.0, 0.0), 0.12),
        (Vec3::new(0.1, 1.0, 0.0), 0.15),
        (Vec3::new(0.15, 1.0, 0.35), 0.14),
        (Vec3::new(0.1, 0.05, 1.0), 0.16),
        (Vec3::new(0.1, -1.0, 0.15), 0.30),
        (Vec3::new(0.8, -0.6, 0.1), 0.27),
    ];
    let mut rotation = Quat::IDENTITY;
    let mut position = Vec3::new(0.0, 1.0, 0.0);
    let mut chain = Vec::new();
    for (dir, len) in bones {
        let dir = dir.normalize();
        rotation = (Quat::from_rotation_arc(rotation * Vec3::X, dir) * rotation).normalize();
        chain.push(Transform::from_rotation_translation(rotation, position));
        position += dir * len;
    }
    chain.push(Transform::from_rotation_translation(rotation, position));
    chain
}

/// Point 3: with untouched defaults, FABRIK and CCD reach at least 99 % of targets inside 0.95 of
/// the reach at their default precision (1e-3 of the chain length): the FABRIK paper's 10-joint
/// chain of unit bones (targets uniform in the ball, from a straight chain and from random
/// bends) and a 7-joint spine-to-hand chain from its rest pose. Mean iterations and wall time
/// per solve are printed, not asserted.
#[test]
fn default_settings_reach_reachable_targets() {
    const CASES: usize = 1000;
    let mut failures = Vec::new();
    let arm = spine_to_hand();
    let arm_length = total_length(&arm);
    for mut solver in default_solvers() {
        for bent in [false, true] {
            let mut targets = seeded(1);
            let mut bends = seeded(2);
            let r = reach(
                &mut solver,
                CASES,
                || {
                    chain_of(Transform::IDENTITY, &[1.0; 9], |_| {
                        if bent {
                            bends.rotation(0.8)
                        } else {
                            Quat::IDENTITY
                        }
                    })
                },
                || targets.in_ball(Vec3::ZERO, 0.95 * 9.0),
            );
            let start = if bent { "random bends" } else { "straight" };
            r.check(
                &format!("{} 10 joints from {start}", solver.name()),
                &mut failures,
            );
        }
        let mut targets = seeded(3);
        let r = reach(
            &mut solver,
            CASES,
            || arm.clone(),
            || targets.in_ball(arm[0].translation, 0.95 * arm_length),
        );
        r.check(
            &format!("{} 7-joint spine to hand", solver.name()),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ------------------------------------------------------- point 4: constrained chains track

/// A constrained chain: the rest pose, the root's parent rotation, each joint's limit (centred
/// on its rest local rotation) and the range its paths move in (its limit, or for a free joint
/// a cone of 1 rad with twist within 1 rad about its rest rotation).
struct Rig {
    chain: Vec<Transform>,
    root_parent: Quat,
    specs: Vec<Option<Spec>>,
    ranges: Vec<Spec>,
}

/// A random rig of 4 to 8 joints: bones 0.3..1.5 on local X, rest bends up to 0.6 rad. With
/// `hinges`, every joint is a hinge about an axis perpendicular to its bone; otherwise 80 % of
/// the joints have a cone (with or without twist range), a hinge or a twist range, and the
/// others are free.
fn random_rig(rng: &mut Rng, hinges: bool) -> Rig {
    let n = 4 + rng.index(5);
    let root = Transform::from_rotation_translation(rng.rotation(PI), rng.vec3(1.0));
    let lengths: Vec<f32> = (1..n).map(|_| rng.range(0.3, 1.5)).collect();
    let chain = chain_of(root, &lengths, |_| rng.rotation(0.6));
    let root_parent = rng.rotation(PI);
    let reference = locals_of(&chain, root_parent);
    let specs: Vec<Option<Spec>> = (0..n)
        .map(|i| {
            let kind = if hinges { 2 } else { rng.index(4) };
            let limited = hinges || rng.chance(0.8);
            limited.then(|| random_spec_of(rng, reference[i], bone_axis(&chain, i), kind))
        })
        .collect();
    let ranges = (0..n)
        .map(|i| {
            specs[i].unwrap_or(Spec {
                reference: reference[i],
                axis: bone_axis(&chain, i).try_normalize().unwrap_or(Vec3::X),
                limit: Limit::Cone {
                    half_angle_1: 1.0,
                    half_angle_2: 1.0,
                    twist: Some((-1.0, 1.0)),
                },
            })
        })
        .collect();
    Rig {
        chain,
        root_parent,
        specs,
        ranges,
    }
}

/// Every joint's limit on a solved chain: the largest violation (by `JointConstraint::violation`
/// and by the independent check, both to `LIMIT_TOL`) and a description of the first failure.
fn limit_failure(rig: &Rig, out: &[Transform]) -> Option<String> {
    let locals = locals_of(out, rig.root_parent);
    for (i, spec) in rig.specs.iter().enumerate() {
        let Some(spec) = spec else { continue };
        let v = spec.constraint().violation(locals[i]);
        if let Err(e) = check_allowed(spec, locals[i], LIMIT_TOL) {
            return Some(format!("joint {i} ({:?}): {e}, violation {v}", spec.limit));
        }
        if v > LIMIT_TOL {
            return Some(format!("joint {i} ({:?}): violation {v}", spec.limit));
        }
    }
    None
}

/// A path of allowed poses: each joint's swing and twist coordinates interpolated linearly
/// between two random rotations in its range (free twists the short way round); each limit is
/// convex in these coordinates, so every pose on the path is allowed (checked).
fn allowed_path(rng: &mut Rng, rig: &Rig, frames: usize) -> Vec<Vec<Transform>> {
    let ends: Vec<((Vec3, f32), (Vec3, f32))> = rig
        .ranges
        .iter()
        .map(|range| {
            let a = random_allowed_coords(rng, range);
            let mut b = random_allowed_coords(rng, range);
            if matches!(range.limit, Limit::Cone { twist: None, .. }) {
                b.1 = a.1 + (b.1 - a.1 + PI).rem_euclid(2.0 * PI) - PI;
            }
            (a, b)
        })
        .collect();
    (0..frames)
        .map(|k| {
            let s = k as f32 / (frames - 1) as f32;
            let locals: Vec<Quat> = rig
                .ranges
                .iter()
                .zip(&ends)
                .map(|(range, (a, b))| {
                    let local = range.local_at(a.0.lerp(b.0, s), a.1 + (b.1 - a.1) * s);
                    assert!(
                        check_allowed(range, local, 1e-4).is_ok(),
                        "the path leaves the limit {:?}",
                        range.limit
                    );
                    local
                })
                .collect();
            pose_chain(&rig.chain, rig.root_parent, &locals)
        })
        .collect()
}

/// What following a path with a constrained chain gave: frames reached, the largest turn held to
/// the limit and where, and the frames where a limit failed.
#[derive(Debug, Default)]
struct Constrained {
    reached: usize,
    frames: usize,
    worst: f32,
    worst_case: String,
    limit_failures: usize,
    first_limit_failure: Option<String>,
}

impl Constrained {
    /// Counts frame `f` of chain `c` (solved from `current` to `out` toward `goal`): reached,
    /// and its limits; returns its largest turn and the joint.
    fn frame(
        &mut self,
        rig: &Rig,
        (c, f): (usize, usize),
        current: &[Transform],
        out: &[Transform],
        goal: Vec3,
    ) -> (f32, usize) {
        self.reached += usize::from(arrived(out, goal));
        self.frames += 1;
        if let Some(e) = limit_failure(rig, out) {
            self.limit_failures += 1;
            self.first_limit_failure
                .get_or_insert(format!("chain {c} frame {f}: {e}"));
        }
        largest_turn(current, out)
    }

    /// A turn held to the limit, described by `case` if it is the largest so far.
    fn turn(&mut self, turn: f32, case: impl FnOnce() -> String) {
        if turn > self.worst {
            (self.worst, self.worst_case) = (turn, case());
        }
    }

    /// A turn over the limit and the first limit that failed, each a failure of `what`.
    fn failures(&self, what: &str) -> Vec<String> {
        let mut failures = Vec::new();
        if self.worst > MAX_CONSTRAINED_TURN {
            failures.push(format!(
                "{what}: a bone turned {:.2} deg in a frame ({})",
                self.worst, self.worst_case
            ));
        }
        if let Some(e) = &self.first_limit_failure {
            failures.push(format!(
                "{what}: {} frames outside a limit, first {e}",
                self.limit_failures
            ));
        }
        failures
    }
}

/// Point 4: random constrained chains (cones with and without twist ranges, hinges, twist
/// ranges; and chains of hinges only) follow targets made by forward kinematics of a smooth path
/// of allowed poses (240 frames from one allowed pose to another), each frame solved from the
/// previous output with default settings: at least 99 % of frames reached, no bone turns more
/// than 15 degrees in a frame, and every limit holds to 1e-3 rad after every solve.
fn constrained_chains_track_allowed_paths(which: &str, hinges_only: bool) {
    const CHAINS: usize = 80;
    const FRAMES: usize = 240;
    let mut failures = Vec::new();
    for (family, hinges) in [("mixed limits", false), ("hinges only", true)]
        .into_iter()
        .filter(|&(_, h)| h == hinges_only)
    {
        for solver in default_solvers().into_iter().filter(|s| s.name() == which) {
            let mut rng = seeded(40 + u64::from(hinges));
            let what = format!("{} {family}", solver.name());
            let mut run = Constrained::default();
            let mut path_worst = 0.0f32;
            for c in 0..CHAINS {
                let rig = random_rig(&mut rng, hinges);
                let path = allowed_path(&mut rng, &rig, FRAMES);
                let length = total_length(&rig.chain);
                for w in path.windows(2) {
                    path_worst = path_worst.max(largest_turn(&w[0], &w[1]).0);
                }
                let mut s = fresh_default(&solver);
                constrain(&mut s, &rig.specs);
                let mut current = path[0].clone();
                for (f, pose) in path.iter().enumerate() {
                    let mut out = current.clone();
                    let goal = tip(pose);
                    s.solve(&mut out, rig.root_parent, &ChainTarget::at(goal))
                        .unwrap();
                    let (turn, joint) = run.frame(&rig, (c, f), &current, &out, goal);
                    run.turn(turn, || {
                        format!(
                            "chain {c} ({} joints), frame {f}, joint {joint}, error {:.4} L",
                            rig.chain.len(),
                            (tip(&out) - goal).length() / length
                        )
                    });
                    current = out;
                }
            }
            let (reached, frames) = (run.reached, run.frames);
            eprintln!(
                "{what}: {CHAINS} chains x {FRAMES} frames: reached {reached}/{frames} ({:.1} %), largest turn {:.2} deg ({}), the path itself turns at most {path_worst:.2} deg a frame, {} frames outside a limit",
                percent(reached, frames),
                run.worst,
                run.worst_case,
                run.limit_failures
            );
            if (reached as f32) < MIN_REACH * frames as f32 {
                failures.push(format!(
                    "{what}: reached {:.1} % of frames < 99 %",
                    percent(reached, frames)
                ));
            }
            failures.extend(run.failures(&what));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constrained_chains_track_allowed_paths_fabrik() {
    constrained_chains_track_allowed_paths("FABRIK", false);
}

#[test]
fn constrained_chains_track_allowed_paths_ccd() {
    constrained_chains_track_allowed_paths("CCD", false);
}

#[test]
fn hinge_chains_track_allowed_paths_fabrik() {
    constrained_chains_track_allowed_paths("FABRIK", true);
}

#[test]
fn hinge_chains_track_allowed_paths_ccd() {
    constrained_chains_track_allowed_paths("CCD", true);
}

/// Point 4: constrained chains following an arbitrary circle (radius 0.3 of the chain length,
/// centred 0.7 of it from the root, in a random plane; partly beyond the reach and beyond what
/// the limits allow), in steps of 0.25 % of the chain length, each frame from the previous
/// output with default settings: no bone turns more than 15 degrees in a frame, and every limit
/// holds after every solve.
///
/// Frames where the solve escapes a local minimum (its error drops by more than
/// [`ESCAPE_DROP`] steps) are counted and reported, not held to the 15 degrees: where the
/// target leaves what the limits allow, a chain can be left in a minimum far from it, and
/// between two minima the error rises, so no motion that keeps the error falling gets from one
/// to the other; a solver that never jumped would stay stuck. A jump without such a drop (a
/// bone spinning about itself, or the chain trading one pose for another as good) fails.
fn constrained_chains_on_circle_paths_do_not_jump(which: &str) {
    let mut failures = Vec::new();
    for (family, hinges, chains) in [("mixed limits", false, 6), ("hinges only", true, 4)] {
        for solver in default_solvers().into_iter().filter(|s| s.name() == which) {
            let mut rng = seeded(60 + u64::from(hinges));
            let what = format!("{} {family}", solver.name());
            let mut run = Constrained::default();
            let (mut escapes, mut worst_escape) = (0, 0.0f32);
            for c in 0..chains {
                let rig = random_rig(&mut rng, hinges);
                let length = total_length(&rig.chain);
                let root = rig.chain[0].translation;
                let center = root + rng.dir() * 0.7 * length;
                let (u, v) = perpendiculars(rng.dir());
                let path = walk(
                    |t| {
                        let a = 2.0 * PI * t;
                        center + (u * a.cos() + v * a.sin()) * 0.3 * length
                    },
                    STEP * length,
                );
                let mut s = fresh_default(&solver);
                constrain(&mut s, &rig.specs);
                let mut settler = generous(&s);
                constrain(&mut settler, &rig.specs);
                let (mut current, _) = settle(settler, &rig.chain, rig.root_parent, path[0], 3);
                for (f, &goal) in path.iter().enumerate().skip(1) {
                    let mut out = current.clone();
                    s.solve(&mut out, rig.root_parent, &ChainTarget::at(goal))
                        .unwrap();
                    let (turn, joint) = run.frame(&rig, (c, f), &current, &out, goal);
                    let (before, after) =
                        ((tip(&current) - goal).length(), (tip(&out) - goal).length());
                    if before - after > ESCAPE_DROP * STEP * length {
                        escapes += 1;
                        worst_escape = worst_escape.max(turn);
                    } else {
                        run.turn(turn, || {
                            format!(
                                "chain {c} ({} joints), frame {f}, joint {joint}, target at {:.3} L, error {:.4} -> {:.4} L",
                                rig.chain.len(),
                                (goal - root).length() / length,
                                before / length,
                                after / length
                            )
                        });
                    }
                    current = out;
                }
            }
            eprintln!(
                "{what}: {chains} chains, {} frames: largest turn {:.2} deg ({}), {escapes} escapes (largest turn {worst_escape:.2} deg), reached {}/{} frames, {} frames outside a limit",
                run.frames,
                run.worst,
                run.worst_case,
                run.reached,
                run.frames,
                run.limit_failures
            );
            failures.extend(run.failures(&what));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constrained_chains_on_circle_paths_do_not_jump_fabrik() {
    constrained_chains_on_circle_paths_do_not_jump("FABRIK");
}

#[test]
fn constrained_chains_on_circle_paths_do_not_jump_ccd() {
    constrained_chains_on_circle_paths_do_not_jump("CCD");
}

// ------------------------------------- smooth paths and the edge of reach, any settings

/// (These two come from the former chain_ik.rs, with its seeds: FABRIK and CCD with default and
/// generous settings, with and without cone limits.)
///
/// Solves along a circle of targets that leaves the reachable ball, each frame from the
/// previous frame's output. Returns the largest rotation (degrees) of any joint between two
/// frames, the frame where it happened and that frame's target distance over the chain length.
fn largest_frame_turn(
    solver: &mut Solver,
    chain: &[Transform],
    frames: usize,
    constrained: bool,
) -> (f32, usize, f32) {
    let total = total_length(chain);
    let root = chain[0].translation;
    let center = root + Vec3::new(0.75, 0.3, 0.15) * total;
    let (u, v) = (
        Vec3::new(1.0, 0.0, 0.3).normalize(),
        Vec3::new(0.0, 1.0, -0.2).normalize(),
    );
    let radius = 0.45 * total;
    let mut current = chain.to_vec();
    let mut worst = (0.0f32, 0, 0.0);
    let mut previous_error = 0.0;
    let mut previous_goal = center + u * radius;
    let mut escapes = 0;
    for f in 0..=frames {
        let a = 2.0 * PI * f as f32 / frames as f32;
        let goal = center + (u * a.cos() + v * a.sin()) * radius;
        let mut out = current.clone();
        let result = solver
            .solve(&mut out, Quat::IDENTITY, &ChainTarget::at(goal))
            .unwrap();
        // A constrained chain can be stuck in a local minimum short of a target its limits
        // allow; where that minimum disappears the chain necessarily turns fast, and its error
        // drops by far more than the target moved (tracking changes the error by at most the
        // target's step). Such escapes are counted and reported, not held to the tracking limit.
        let step = (goal - previous_goal).length();
        previous_goal = goal;
        let escape = constrained && previous_error - result.error > ESCAPE_DROP * step;
        previous_error = result.error;
        if escape {
            escapes += 1;
            current = out;
            continue;
        }
        let (turn, _) = largest_turn(&current, &out);
        if f > 0 && turn > worst.0 {
            worst = (turn, f, (goal - root).length() / total);
        }
        current = out;
    }
    if escapes > 0 {
        eprintln!(
            "  {}: {escapes} escapes from a local minimum (error dropped by over {ESCAPE_DROP} target steps)",
            solver.name()
        );
    }
    worst
}

/// A circle of targets (radius 0.45 of the chain length; from about 0.38 to 1.25 of it away from
/// the root), one solve per frame from the previous output: no joint turns more than 15 degrees
/// in a frame.
/// At 720 frames per turn the target moves 0.4 % of the chain length per frame; at 2880,
/// 0.1 %. A solver that is continuous in its input can only do better on the slower path, so
/// a turn that does not shrink with the step is a discontinuity, not a fast target.
#[test]
fn smooth_target_paths_give_smooth_motion() {
    let mut rng = chain_contract::seeded(7);
    let chain = random_chain_of(&mut rng, 6, 0.5, true);
    let total = total_length(&chain);
    let center = chain[0].translation + Vec3::new(0.75, 0.3, 0.15) * total;
    let d = (center - chain[0].translation).length();
    assert!(
        d + 0.45 * total > total && d - 0.45 * total < total,
        "the path crosses the reach"
    );
    let mut failures = Vec::new();
    for constrained in [false, true] {
        // Default settings at both speeds; generous iterations (slow in debug) at the faster one.
        for (max_iterations, stalled, frames) in
            [(10, true, 720), (10, true, 2880), (40, false, 720)]
        {
            {
                for mut solver in Solver::both(max_iterations, stalled, EndRotation::KeepLocal, 8) {
                    if constrained {
                        let mut crng = chain_contract::seeded(11);
                        let reference = locals_of(&chain, Quat::IDENTITY);
                        for (i, r) in reference.iter().enumerate() {
                            let cone = Limit::Cone {
                                half_angle_1: crng.range(0.5, 1.0),
                                half_angle_2: crng.range(0.5, 1.0),
                                twist: Some((-0.3, 0.3)),
                            };
                            let c = JointConstraint::new(*r, Vec3::X, cone).unwrap();
                            solver.set_constraint(i, Some(c)).unwrap();
                        }
                    }
                    let (worst, frame, reach) =
                        largest_frame_turn(&mut solver, &chain, frames, constrained);
                    let what = format!(
                        "{} constrained={constrained} max_iterations={max_iterations} frames={frames}",
                        solver.name()
                    );
                    eprintln!(
                        "{what}: largest turn {worst:.2} deg at frame {frame} (target at {reach:.4} of the chain length)"
                    );
                    if worst > 15.0 {
                        failures.push(format!(
                            "{what}: a joint turned {worst:.2} degrees at frame {frame} (target at {reach:.4} of the chain length)"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A target that crosses the edge of the reach by 0.04 % of the chain length must not change
/// the solved pose much: the exact solutions on either side differ by a few degrees at most.
/// Both solvers, default and generous iterations, from the same bent input.
#[test]
fn crossing_the_edge_of_reach_is_not_a_cliff() {
    let chain = chain_of(Transform::IDENTITY, &[1.0; 5], |_| {
        Quat::from_rotation_z(0.4)
    });
    let total = total_length(&chain);
    let dir = Vec3::new(1.0, 1.0, 0.2).normalize();
    let mut failures = Vec::new();
    for (max_iterations, stalled) in [(10, true), (100, false)] {
        for mut solver in Solver::both(max_iterations, stalled, EndRotation::KeepLocal, 8) {
            let (mut inside, mut outside) = (chain.clone(), chain.clone());
            let near = ChainTarget::at(dir * total * 0.9998);
            let far = ChainTarget::at(dir * total * 1.0002);
            let ri = solver.solve(&mut inside, Quat::IDENTITY, &near).unwrap();
            let ro = solver.solve(&mut outside, Quat::IDENTITY, &far).unwrap();
            let worst = inside
                .iter()
                .zip(&outside)
                .map(|(a, b)| rot_between(a.rotation, b.rotation).to_degrees())
                .fold(0.0, f32::max);
            let what = format!("{} max_iterations={max_iterations}", solver.name());
            eprintln!(
                "{what}: inside error {:.4}, outside error {:.4}, poses differ by {worst:.1} deg",
                ri.error, ro.error
            );
            if worst > 15.0 {
                failures.push(format!(
                    "{what}: poses {worst:.1} deg apart across the edge of reach (inside error {:.4}, outside {:.4})",
                    ri.error, ro.error
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Solving toward a fixed target again from the previous output never ends farther from it
/// (README, "Solving every frame"). Found by constraints.rs `static_targets_never_drift_away`;
/// these are its cases, drawn as that file draws them (4 joints, no limits, 20 iterations). A
/// solve left the chain folded along the root–goal line with its tip within 5 % of the chain
/// length of the target, so the next solve ran the closing step on its input first, which laid
/// the chain out as an arc farther off. No later iterate beat the input, and the best-iterate
/// bookkeeping, which had not set the input aside, returned the arc: 0.039 L off became 0.23 L.
#[test]
fn static_targets_never_drift_away_from_folded_chains() {
    const SEEDS: [u64; 3] = [
        18_044_038_780_661_791_356,
        5_219_467_811_930_374_336,
        2_826_871_550_980_987_626,
    ];
    let mut failures = Vec::new();
    for seed in SEEDS {
        // constraints.rs's stream: its salt, its chain drawing, then the root parent and goal.
        let mut rng = Rng::salted(seed, 0x2545_F491_4F6C_DD1D);
        let chain = random_chain(&mut rng, 4, 1.0, true, Draw::BendFirst);
        let root_parent = rng.rotation(PI);
        let total = total_length(&chain);
        let goal = rng.in_ball(chain[0].translation, 1.3 * total);
        for mut solver in Solver::both(20, false, EndRotation::KeepLocal, 10) {
            let mut current = chain.clone();
            let mut error = (tip(&current) - goal).length();
            let mut errors = vec![error / total];
            for k in 0..4 {
                let mut out = current.clone();
                let r = solver
                    .solve(&mut out, root_parent, &ChainTarget::at(goal))
                    .unwrap();
                if r.error > error + 1e-5 * total {
                    failures.push(format!(
                        "seed {seed} {} solve {k}: error went from {:.4} L to {:.4} L",
                        solver.name(),
                        error / total,
                        r.error / total
                    ));
                }
                error = r.error;
                errors.push(error / total);
                current = out;
            }
            eprintln!("seed {seed} {}: errors (L) {errors:.4?}", solver.name());
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
