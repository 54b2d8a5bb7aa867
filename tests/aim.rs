//! Aim / look-at chains: exact aims with offsets, limits, the weight distribution against an
//! independent reference written from the README ("Aim and look-at"), targets circling the
//! character (behind included), degenerate inputs, pose-level and batch entries.

mod common;

use std::f32::consts::PI;
use std::sync::Arc;

use common::rng::Rng;
use common::rotations::{quat_angle, rot_between};
use sinew::{
    AimIk, AimIkSettings, AimJoint, AimTarget, ErrorKind, Pose, Quat, Skeleton, Transform, Vec3,
};

const SALT: u64 = 0xA1_5EED;

/// Spine, chest, neck and head of a character facing +X, Y up, at rest (identity rotations).
fn spine() -> Vec<Transform> {
    [0.0, 1.0, 1.25, 1.5, 1.6]
        .windows(2)
        .map(|y| Transform::from_translation(Vec3::new(0.0, y[1], 0.0)))
        .take(4)
        .collect()
}

/// Each joint's turn from the input: the angle of its local rotation's change.
fn local_turns(input: &[Transform], output: &[Transform]) -> Vec<f32> {
    (0..input.len())
        .map(|i| {
            let local = |c: &[Transform]| {
                if i == 0 {
                    c[0].rotation
                } else {
                    c[i - 1].rotation.conjugate() * c[i].rotation
                }
            };
            rot_between(local(input), local(output))
        })
        .collect()
}

/// The residual as the README defines it, computed here from the output.
fn residual(chain: &[Transform], s: &AimIkSettings, goal: Vec3) -> f32 {
    let tip = chain.last().unwrap();
    let aim = tip.rotation * s.aim_axis.normalize();
    let d = goal - tip.transform_point(s.aim_offset);
    angle(aim, d)
}

/// Angle between two vectors, precise near 0 (glam's `angle_between` is an acos).
fn angle(a: Vec3, b: Vec3) -> f32 {
    a.cross(b).length().atan2(a.dot(b))
}

/// Largest angle between consecutive frames' model rotations of any joint.
fn frame_turn(a: &[Transform], b: &[Transform]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| rot_between(x.rotation, y.rotation))
        .fold(0.0, f32::max)
}

fn solver(settings: AimIkSettings, joints: &[AimJoint]) -> AimIk {
    let mut ik = AimIk::new(settings, 8).unwrap();
    for (i, j) in joints.iter().enumerate() {
        ik.set_joint(i, *j).unwrap();
    }
    ik
}

#[test]
fn reachable_aims_are_exact_with_offsets() {
    let mut rng = Rng::salted(1, SALT);
    let mut worst: f32 = 0.0;
    let mut iterations = 0;
    let mut solves = 0;
    for case in 0..400 {
        let n = 1 + case % 4;
        let chain: Vec<Transform> = spine()[4 - n..].to_vec();
        let offset = match case % 3 {
            0 => Vec3::ZERO,
            1 => Vec3::new(0.08, 0.1, 0.0), // eyes: ahead and above the head joint
            _ => Vec3::new(0.5, -0.1, 0.15), // a muzzle off the axis
        };
        let settings = AimIkSettings {
            aim_offset: offset,
            ..AimIkSettings::default()
        };
        let mut ik = solver(settings, &[]);
        let goal = chain[n - 1].translation + rng.dir() * rng.range(1.5, 6.0);
        let mut out = chain.clone();
        let result = ik.solve(&mut out, &AimTarget::at(goal)).unwrap();
        let r = residual(&out, &settings, goal);
        assert!(
            (r - result.error).abs() < 1e-5,
            "reported {} vs {r}",
            result.error
        );
        assert!(
            result.reached && r <= 1e-3,
            "case {case}: residual {r} {result:?} n {n} offset {offset} goal {goal}"
        );
        worst = worst.max(r);
        iterations += result.iterations;
        solves += 1;
        assert_eq!(out[0].translation, chain[0].translation, "the root stays");
    }
    println!(
        "aim: worst residual {worst:.2e} rad, mean iterations {:.2}",
        iterations as f32 / solves as f32
    );
}

/// The distribution rule from the README, written independently: joint i turns
/// min(limit_i, lambda * weight_i), lambda found by bisection so the turns sum to the total.
fn reference_shares(total: f32, weights: &[f32], limits: &[f32]) -> Vec<f32> {
    let share = |lambda: f32| -> Vec<f32> {
        weights
            .iter()
            .zip(limits)
            .map(|(w, l)| (lambda * w).min(*l))
            .collect()
    };
    let (mut lo, mut hi) = (0.0f32, 1e4f32);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if share(mid).iter().sum::<f32>() < total {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    share(0.5 * (lo + hi))
}

/// The limit rule from the README: whole up to the limit C, held at C until (180 + C) / 2,
/// then linearly to 0 at 180 degrees.
fn reference_limited(turn: f32, limit: f32) -> f32 {
    if limit >= PI || turn <= limit {
        turn.min(limit)
    } else {
        let hold = (PI + limit) / 2.0;
        if turn <= hold {
            limit
        } else {
            limit * (PI - turn) / (PI - hold)
        }
    }
}

#[test]
fn weights_and_limits_follow_the_documented_rules() {
    // Coincident joints with the target far along the XZ plane: the aim origin does not move
    // as the chain turns, so the whole turn is the angle to the target and every share is
    // exact in one pass.
    let chain = vec![Transform::from_translation(Vec3::new(0.0, 1.0, 0.0)); 4];
    let cases: [(&[f32], &[f32], f32); 5] = [
        (&[1.0, 1.0, 1.0, 1.0], &[180.0; 4], 180.0),
        (&[1.0, 2.0, 3.0, 4.0], &[180.0; 4], 180.0),
        (&[1.0, 2.0, 3.0, 4.0], &[10.0, 180.0, 15.0, 180.0], 180.0),
        (&[0.0, 1.0, 1.0, 5.0], &[180.0, 20.0, 30.0, 25.0], 180.0),
        (&[1.0, 1.0, 2.0, 2.0], &[30.0, 30.0, 30.0, 30.0], 60.0),
    ];
    for (weights, limits, clamp) in cases {
        let joints: Vec<AimJoint> = weights
            .iter()
            .zip(limits)
            .map(|(&weight, &max_angle_degrees)| AimJoint {
                weight,
                max_angle_degrees,
            })
            .collect();
        let settings = AimIkSettings {
            max_angle_degrees: clamp,
            ..AimIkSettings::default()
        };
        for deg in [5.0f32, 40.0, 75.0, 110.0, 135.0, 160.0, 175.0] {
            let a = deg.to_radians();
            let goal = Vec3::new(0.0, 1.0, 0.0) + 10.0 * Vec3::new(a.cos(), 0.0, -a.sin());
            let mut ik = solver(settings, &joints);
            let mut out = chain.clone();
            ik.solve(&mut out, &AimTarget::at(goal)).unwrap();
            let radians: Vec<f32> = limits.iter().map(|l| l.to_radians()).collect();
            let cap: f32 = radians
                .iter()
                .zip(weights)
                .filter(|(_, w)| **w > 0.0)
                .map(|(l, _)| *l)
                .sum::<f32>()
                .min(clamp.to_radians());
            let total = reference_limited(a, cap);
            let expected = reference_shares(total, weights, &radians);
            let turns = local_turns(&chain, &out);
            for (i, (t, e)) in turns.iter().zip(&expected).enumerate() {
                assert!(
                    (t - e).abs() < 1e-4,
                    "{weights:?} {limits:?} clamp {clamp} target {deg}: joint {i} turned {t}, \
                     rule says {e}"
                );
                assert!(*t <= radians[i] + 1e-3, "joint limit held");
            }
            // All shares are about one axis: the aim turns by their sum, within the clamp.
            let aim = out[3].rotation * Vec3::X;
            assert!(angle(aim, Vec3::X) <= clamp.to_radians() + 1e-3);
            assert!((angle(aim, Vec3::X) - total).abs() < 1e-4);
        }
    }
}

#[test]
fn limits_hold_on_random_targets() {
    let mut rng = Rng::salted(2, SALT);
    let chain = spine();
    let joints = [
        AimJoint {
            weight: 1.0,
            max_angle_degrees: 20.0,
        },
        AimJoint {
            weight: 2.0,
            max_angle_degrees: 30.0,
        },
        AimJoint {
            weight: 1.0,
            max_angle_degrees: 45.0,
        },
        AimJoint {
            weight: 3.0,
            max_angle_degrees: 60.0,
        },
    ];
    let settings = AimIkSettings {
        max_angle_degrees: 100.0,
        aim_offset: Vec3::new(0.1, 0.08, 0.0),
        ..AimIkSettings::default()
    };
    let mut ik = solver(settings, &joints);
    let mut worst: f32 = 0.0;
    for _ in 0..500 {
        let goal = Vec3::new(0.0, 1.6, 0.0) + rng.dir() * rng.range(0.5, 5.0);
        let mut out = chain.clone();
        let result = ik.solve(&mut out, &AimTarget::at(goal)).unwrap();
        for (i, t) in local_turns(&chain, &out).iter().enumerate() {
            let limit = joints[i].max_angle_degrees.to_radians();
            worst = worst.max(t - limit);
            assert!(*t <= limit + 1e-3, "joint {i} turned {t} past {limit}");
        }
        let aim = out[3].rotation * Vec3::X;
        assert!(angle(aim, Vec3::X) <= 100f32.to_radians() + 1e-3);
        // Within the limits the aim is exact.
        if result.error > 1e-3 {
            assert!(!result.reached);
        }
        assert!(out.iter().all(Transform::is_finite));
    }
    println!("aim: largest excess over a joint limit {worst:.2e} rad");
}

/// A target circling the head at 1 degree per frame, starting in front, twice around.
fn circle(frame: usize, height: f32) -> Vec3 {
    let a = (frame as f32).to_radians();
    Vec3::new(0.0, 1.6, 0.0) + Vec3::new(2.0 * a.cos(), height, -2.0 * a.sin())
}

fn track(ik: &mut AimIk, from_rest: bool, height: f32) -> (f32, usize, f32) {
    let rest = spine();
    let mut previous = rest.clone();
    let (mut worst, mut at, mut worst_residual) = (0.0f32, 0, 0.0f32);
    for frame in 0..=720 {
        let mut out = if from_rest {
            rest.clone()
        } else {
            previous.clone()
        };
        let result = ik
            .solve(&mut out, &AimTarget::at(circle(frame, height)))
            .unwrap();
        worst_residual = worst_residual.max(result.error);
        let turn = frame_turn(&previous, &out);
        if frame > 0 && turn > worst {
            (worst, at) = (turn, frame);
        }
        previous = out;
    }
    (worst.to_degrees(), at, worst_residual)
}

#[test]
fn a_target_circling_the_character_is_tracked_without_flips() {
    let limited = [AimJoint {
        weight: 1.0,
        max_angle_degrees: 30.0,
    }; 4];
    let free = [AimJoint::default(); 4];
    let clamp = |deg| AimIkSettings {
        max_angle_degrees: deg,
        ..AimIkSettings::default()
    };
    for height in [0.0, 0.25, 0.5] {
        for (name, settings, joints) in [
            ("unlimited", clamp(180.0), free),
            ("joint limits 30 deg", clamp(180.0), limited),
            ("clamp 90 deg", clamp(90.0), free),
            ("clamp 120 deg", clamp(120.0), limited),
            (
                "clamp 90 deg, eyes off the axis",
                AimIkSettings {
                    aim_offset: Vec3::new(0.1, 0.08, 0.0),
                    ..clamp(90.0)
                },
                free,
            ),
        ] {
            let mut ik = solver(settings, &joints);
            let (turn, at, residual) = track(&mut ik, false, height);
            println!("aim circle h {height}, {name}, from the previous output: {turn:.2} deg (frame {at}), residual {residual:.1e}");
            assert!(turn <= 5.0, "{name}: {turn} deg at frame {at}");
            // Limits count from the input: from the last output every step is within reach.
            assert!(residual <= 1e-3);
            if name != "unlimited" {
                let (turn, at, _) = track(&mut ik, true, height);
                println!("aim circle h {height}, {name}, from rest: {turn:.2} deg (frame {at})");
                assert!(turn <= 5.0, "{name} from rest: {turn} deg at frame {at}");
            }
        }
    }
}

#[test]
fn a_target_swinging_behind_holds_at_the_limit_on_its_side() {
    let settings = AimIkSettings {
        max_angle_degrees: 90.0,
        ..AimIkSettings::default()
    };
    let mut ik = solver(settings, &[]);
    let rest = spine();
    // Left of the character (+Z is its left as it faces +X with Y up... any side will do):
    // from 90 to 135 degrees the chain holds at the 90-degree limit on that side.
    for deg in (90..=135).step_by(5) {
        let mut out = rest.clone();
        ik.solve(&mut out, &AimTarget::at(circle(deg, 0.0)))
            .unwrap();
        let aim = out[3].rotation * Vec3::X;
        assert!(
            (angle(aim, Vec3::X) - PI / 2.0).abs() < 1e-3,
            "{deg}: held at the limit"
        );
        assert!(aim.z < -0.99, "{deg}: on the target's side, aim {aim}");
    }
    // Exactly behind: no turn at all, the documented middle of the ease back.
    let mut out = rest.clone();
    let behind = Vec3::new(-2.0, 1.6, 0.0);
    ik.solve(&mut out, &AimTarget::at(behind)).unwrap();
    assert!(local_turns(&rest, &out).iter().all(|t| *t < 1e-4));
}

#[test]
fn unlimited_chains_turn_about_their_up_axis_for_a_target_exactly_behind() {
    let mut ik = solver(AimIkSettings::default(), &[]);
    let rest = spine();
    let mut out = rest.clone();
    let behind = Vec3::new(-5.0, 1.6, 0.0);
    let result = ik.solve(&mut out, &AimTarget::at(behind)).unwrap();
    assert!(result.reached, "{result:?}");
    // Every joint turned about the model Y axis (the head's up axis), a quarter turn each.
    for (i, j) in out.iter().enumerate() {
        let q = j.rotation;
        let axis = Vec3::new(q.x, q.y, q.z).normalize();
        assert!(axis.abs().y > 0.999, "joint {i} turned about {axis}");
        assert!((quat_angle(q) - (i + 1) as f32 * PI / 4.0).abs() < 1e-3);
    }
}

#[test]
fn up_control_rolls_the_up_axis_toward_the_up_target() {
    let mut rng = Rng::salted(3, SALT);
    for up_is_position in [false, true] {
        let settings = AimIkSettings {
            up_axis: Vec3::Y,
            up_is_position,
            ..AimIkSettings::default()
        };
        let mut ik = solver(settings, &[]);
        for _ in 0..100 {
            let chain = spine();
            let goal = Vec3::new(0.0, 1.6, 0.0) + rng.dir() * 3.0;
            let up = rng.dir() * 2.0;
            let mut out = chain.clone();
            let result = ik
                .solve(&mut out, &AimTarget::at(goal).with_up(up))
                .unwrap();
            assert!(result.reached, "{result:?} {goal} {up} {up_is_position}");
            let tip = out[3];
            let aim = tip.rotation * Vec3::X;
            let wanted = if up_is_position {
                up - tip.translation
            } else {
                up
            };
            let wanted = wanted - aim * wanted.dot(aim);
            // Within 10 degrees of the aim line the roll fades out (README).
            if wanted.length()
                < 0.18
                    * (if up_is_position {
                        up - tip.translation
                    } else {
                        up
                    })
                    .length()
            {
                continue;
            }
            let axis_up = tip.rotation * Vec3::Y;
            assert!(angle(axis_up, wanted) < 2e-3, "up {axis_up} vs {wanted}");
        }
    }
}

#[test]
fn degenerate_inputs_have_documented_results() {
    let rest = spine();
    let head = rest[3].translation;
    let eyes = Vec3::new(0.1, 0.05, 0.0);
    let settings = AimIkSettings {
        aim_offset: eyes,
        ..AimIkSettings::default()
    };
    let mut ik = solver(settings, &[]);
    // Target at the aim origin: nothing turns, residual 0.
    let mut out = rest.clone();
    let r = ik.solve(&mut out, &AimTarget::at(head + eyes)).unwrap();
    assert_eq!(out, rest);
    assert!(r.reached && r.error == 0.0);
    // Target at the last joint: nothing turns; the residual is the angle seen from the origin.
    let mut out = rest.clone();
    let r = ik.solve(&mut out, &AimTarget::at(head)).unwrap();
    assert_eq!(out, rest);
    assert!(r.error.is_finite() && !r.reached);
    // Offset farther off the axis than the target: the aim line passes as near as it can,
    // finite, not reached.
    let far = AimIkSettings {
        aim_offset: Vec3::new(0.0, 0.0, 1.0),
        ..AimIkSettings::default()
    };
    let mut ik_far = solver(far, &[]);
    let mut out = rest.clone();
    let r = ik_far
        .solve(&mut out, &AimTarget::at(head + Vec3::new(0.3, 0.2, 0.0)))
        .unwrap();
    assert!(out.iter().all(Transform::is_finite) && r.error.is_finite() && !r.reached);
    // Zero aim axis, up axis along the aim axis: rejected, the solver keeps its settings.
    for bad in [
        AimIkSettings {
            aim_axis: Vec3::ZERO,
            ..AimIkSettings::default()
        },
        AimIkSettings {
            up_axis: Vec3::new(2.0, 0.0, 0.0),
            ..AimIkSettings::default()
        },
    ] {
        let e = ik.set_settings(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert_eq!(ik.settings(), &settings);
    }
    // An up target along the aim: the roll fades out, nearly as without one.
    let goal = head + Vec3::new(3.0, 0.0, 1.0);
    let (mut a, mut b) = (rest.clone(), rest.clone());
    ik.solve(&mut a, &AimTarget::at(goal)).unwrap();
    let along = a[3].rotation * Vec3::X;
    ik.solve(&mut b, &AimTarget::at(goal).with_up(along))
        .unwrap();
    assert!(frame_turn(&a, &b) < 1e-3, "{}", frame_turn(&a, &b));
    // A zero-length chain of coincident joints and a one-joint chain solve too.
    let mut one = vec![rest[3]];
    let r = ik.solve(&mut one, &AimTarget::at(head + Vec3::Z)).unwrap();
    assert!(r.reached, "{r:?}");
    // Non-finite input: rejected, the chain untouched.
    let mut out = rest.clone();
    let e = ik
        .solve(&mut out, &AimTarget::at(Vec3::new(f32::NAN, 0.0, 0.0)))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NonFinite);
    assert_eq!(out, rest);
}

#[test]
fn weight_blends_each_joint_toward_its_input() {
    let settings = AimIkSettings {
        weight: 0.25,
        ..AimIkSettings::default()
    };
    let rest = spine();
    let goal = Vec3::new(1.0, 2.5, 2.0);
    let (mut full, mut part) = (rest.clone(), rest.clone());
    solver(AimIkSettings::default(), &[])
        .solve(&mut full, &AimTarget::at(goal))
        .unwrap();
    let r = solver(settings, &[])
        .solve(&mut part, &AimTarget::at(goal))
        .unwrap();
    assert!(!r.reached);
    for (f, p) in local_turns(&rest, &full)
        .iter()
        .zip(local_turns(&rest, &part))
    {
        assert!((p - 0.25 * f).abs() < 1e-4);
    }
    let mut none = rest.clone();
    solver(
        AimIkSettings {
            weight: 0.0,
            ..settings
        },
        &[],
    )
    .solve(&mut none, &AimTarget::at(goal))
    .unwrap();
    assert_eq!(none, rest);
}

#[test]
fn pose_and_batch_entries_agree_with_the_chain_solve() {
    let rest = spine();
    let mut locals = vec![rest[0]];
    for w in rest.windows(2) {
        locals.push(w[0].inverse_mul(&w[1]));
    }
    let skeleton = Arc::new(Skeleton::new(&[-1, 0, 1, 2], &locals, None).unwrap());
    let mut pose = Pose::new(skeleton);
    let settings = AimIkSettings {
        aim_offset: Vec3::new(0.1, 0.05, 0.0),
        ..AimIkSettings::default()
    };
    let mut ik = solver(settings, &[]);
    let goal = Vec3::new(1.0, 2.0, -1.5);
    let target = AimTarget::at(goal).with_up(Vec3::Y);
    let mut chain = rest.clone();
    let single = ik.solve(&mut chain, &target).unwrap();
    let by_pose = ik.solve_pose(&mut pose, &[0, 1, 2, 3], &target).unwrap();
    assert_eq!(single, by_pose);
    for (j, t) in chain.iter().enumerate() {
        let m = pose.model_of(j).unwrap();
        assert!(rot_between(m.rotation, t.rotation) < 1e-5);
        assert!((m.translation - t.translation).length() < 1e-5);
    }
    let mut chains: Vec<Transform> = rest.iter().chain(&rest).copied().collect();
    let targets = [target, AimTarget::at(Vec3::new(-1.0, 1.0, 1.0))];
    let mut results = [sinew::IkResult::default(); 2];
    ik.solve_batch(&mut chains, 4, &targets, &mut results)
        .unwrap();
    assert_eq!(results[0], single);
    assert_eq!(&chains[..4], &chain[..]);
    let mut second = rest.clone();
    assert_eq!(ik.solve(&mut second, &targets[1]).unwrap(), results[1]);
    assert_eq!(&chains[4..], &second[..]);
    let _ = Quat::IDENTITY;
}

/// Passes stop once they stop gaining, whatever the iteration budget: the bad-input harness
/// accepts `max_iterations` up to u32::MAX, and an aim that cannot settle (a target inside the
/// offset, beside the last joint) ran the whole budget.
#[test]
fn passes_stop_when_they_stop_gaining() {
    let settings = AimIkSettings {
        aim_offset: Vec3::new(0.0, 0.0, 1.0),
        max_iterations: 100_000,
        ..AimIkSettings::default()
    };
    let limited = AimIkSettings {
        aim_offset: Vec3::new(0.1, 0.08, 0.0),
        max_angle_degrees: 30.0,
        max_iterations: 100_000,
        ..AimIkSettings::default()
    };
    let head = spine()[3].translation;
    let mut rng = Rng::salted(4, SALT);
    let mut most = 0;
    for s in [settings, limited] {
        let mut ik = solver(s, &[]);
        for _ in 0..200 {
            let goal = head + rng.dir() * rng.range(0.05, 3.0);
            let mut out = spine();
            let r = ik.solve(&mut out, &AimTarget::at(goal)).unwrap();
            most = most.max(r.iterations);
        }
    }
    println!("aim: most passes on hard targets {most}");
    assert!(most <= 100, "{most} passes");
}
