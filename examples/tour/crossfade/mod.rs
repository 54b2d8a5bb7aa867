//! Section 4: crossfades and layers. A small humanoid walks and, at 1.5 s, just as its right
//! arm swings back fastest, is asked to wave instead: once through a linear fade, once through
//! a smooth fade and once inertialized. Then the wave is layered onto the walking legs through
//! an upper-body mask, blending local and then model-space rotations, and a forward lean is
//! added on top.

mod chart;
mod layers;
mod picture;
mod rig;

use std::hint::black_box;
use std::path::Path;

use sinew::rotation::angle;
use sinew::{Crossfade, FadeCurve, Transform};

use crate::table::{Column, Table};
use crate::timing;
use rig::{swing_deg, Rig, JOINTS, WALK, WAVE};

/// Frames per second of the simulated game loop, and frames played after the first (3 s).
const FPS: f32 = 60.0;
const DT: f32 = 1.0 / FPS;
const FRAMES: usize = 180;
/// The frame after which the walk is asked to become the wave (t = 1.5 s): half way through a
/// walk loop, where the right arm swings back through hanging straight down at its fastest,
/// away from where the wave raises it.
const REQUEST: usize = 90;
/// Length of every transition, in seconds.
const FADE: f32 = 0.5;
/// Output within this many degrees of the wave on every joint counts as settled.
const SETTLED_DEG: f32 = 0.5;
/// The transitions compared, in the order of the tables and the legend.
const CURVES: [FadeCurve; 3] = [FadeCurve::Linear, FadeCurve::Smooth, FadeCurve::Inertialize];
/// Frames after the request over which the early velocity at the switch is averaged (0.05 s).
const EARLY_FRAMES: usize = 3;

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
        "Played at {FPS} frames/s for {:.1} s; at {:.1} s, as the right arm swings back, \
         fade_to(wave, {FADE} s) with each curve.\n",
        frame_time(FRAMES),
        frame_time(REQUEST)
    );

    let alone = Alone::new(&rig);
    let runs: Vec<Run> = CURVES.map(|curve| Run::play(&rig, curve, &alone)).into();
    print_fade_table(&runs, walk_update_ns(&rig));
    println!();
    print_switch_table(&rig, &runs, &alone);
    println!();
    layers::print_layer_table(&rig);

    let svg = picture::draw(&rig, &runs, &alone);
    crate::write_output(out_dir, "crossfade.svg", &svg);
}

/// Playback time of frame `k`, in seconds.
fn frame_time(k: usize) -> f32 {
    k as f32 * DT
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
        let local = |clip: &sinew::Clip, k: usize| rig.sample(clip, frame_time(k)).local().to_vec();
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
    /// Plays the walk, asks for the wave with `curve` after frame [`REQUEST`], and records
    /// every frame; times one update in the middle of the transition.
    fn play(rig: &Rig, curve: FadeCurve, alone: &Alone) -> Self {
        let mut controller = rig.walking();
        let mut frames = vec![controller.pose().local().to_vec()];
        let (mut done, mut middle) = (None, None);
        for k in 1..=FRAMES {
            controller.update(DT).expect("the frame step is valid");
            frames.push(controller.pose().local().to_vec());
            if k == REQUEST {
                controller
                    .fade_to(rig.wave.clone(), FADE, curve, true)
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

    /// Fastest any joint turns between consecutive frames `first - 1 ..= last`, in degrees
    /// per second (local rotations).
    fn max_speed(&self, first: usize, last: usize) -> f32 {
        (first..=last)
            .map(|k| max_gap_deg(&self.frames[k - 1], &self.frames[k]) * FPS)
            .fold(0.0, f32::max)
    }
}

/// Median cost of one `update` of a controller playing the walk alone, in nanoseconds.
fn walk_update_ns(rig: &Rig) -> f64 {
    update_ns(rig.walking())
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

/// The right upper arm's forward swing (local, in its parent's frame) at every frame of
/// `frames`, in degrees.
fn arm_swing(rig: &Rig, frames: &[Vec<Transform>]) -> Vec<f32> {
    let arm = rig.joint("upperarm_r");
    frames.iter().map(|f| swing_deg(f[arm].rotation)).collect()
}

/// How the right arm moves just after the request, read off its forward swing at every frame.
#[derive(Clone, Copy, Debug)]
struct Switch {
    /// Velocity over the first frame after the request, in degrees per second.
    first_frame: f32,
    /// Mean velocity over the first [`EARLY_FRAMES`] frames, in degrees per second.
    early: f32,
    /// How long the arm goes on swinging back (its angle falling) after the request, in seconds.
    back_for: f32,
    /// The lowest swing from the request until it rises again, in degrees.
    lowest: f32,
}

impl Switch {
    /// Reads the switch off `swing`, the forward swing at every frame from t = 0.
    fn new(swing: &[f32]) -> Self {
        let at = |j: usize| swing[REQUEST + j];
        let falling = (1..=FRAMES - REQUEST)
            .take_while(|&j| at(j) < at(j - 1))
            .count();
        Self {
            first_frame: (at(1) - at(0)) * FPS,
            early: (at(EARLY_FRAMES) - at(0)) * FPS / EARLY_FRAMES as f32,
            back_for: frame_time(falling),
            lowest: at(falling),
        }
    }
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

/// Prints how the right arm moves just after the request, for the walk alone and each run.
fn print_switch_table(rig: &Rig, runs: &[Run], alone: &Alone) {
    use Column::{Left, Right};
    let table = Table::new([Left(15), Right(11), Right(14), Right(15), Right(8)]);
    table.header([
        "right arm",
        "first frame",
        "first 0.05 s",
        "swings back for",
        "lowest",
    ]);
    let walk = Switch::new(&arm_swing(rig, &alone.walk));
    let rows = std::iter::once(("walk alone", walk)).chain(runs.iter().map(|run| {
        (
            curve_label(run.curve),
            Switch::new(&arm_swing(rig, &run.frames)),
        )
    }));
    for (label, s) in rows {
        table.row([
            label,
            &format!("{:+.0} deg/s", s.first_frame),
            &format!("{:+.0} deg/s", s.early),
            &format!("{:.3} s", s.back_for),
            &format!("{:+.1}", s.lowest),
        ]);
    }
    println!(
        "\nThe right upper arm's forward swing (local, degrees; negative is behind) from the \
         request at {:.1} s, where the walk\nswings it back at {:.0} deg/s; the wave holds it \
         near +{:.0}. first frame, first 0.05 s: its mean velocity over the first\nframe and \
         the first {EARLY_FRAMES} frames. swings back for: until its angle stops falling; \
         lowest: the angle there. Inertialization\ncarries the old velocity on along the \
         offset it decays (from the wave's pose to the walk's; the arm swings in the\nplane \
         the wave raises it in); a smooth fade's weight starts flat, then rises; a linear \
         fade's rises from the first frame.",
        frame_time(REQUEST),
        -walk.first_frame,
        rig::WAVE_RAISE
    );
}
