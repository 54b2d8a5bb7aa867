//! The crossfade section's picture, in four rows: the right arm's swing over the whole run and
//! frame by frame around the switch; the inertialized transition as stick figures; the masked
//! layer and the additive lean over time; the layered poses of the table as stick figures.
//! Every panel ends with a caption that says what to see.

use glam::Vec2;
use sinew::{FadeCurve, Transform, Vec3};

use super::chart::{Axis, Chart, Series};
use super::layers::{layer_poses, LayerCurves, LEAN_WEIGHTS};
use super::rig::{lean_deg, swing_deg, Rig, ARM_SWING, HEAD_RADIUS, WAVE_RAISE};
use super::{
    arm_swing, curve_label, frame_time, max_gap_deg, Alone, Run, Switch, CURVES, EARLY_FRAMES,
    FADE, FPS, FRAMES, REQUEST, SETTLED_DEG,
};
use crate::figure::{self, TwoViewPanels, INK, MUTED, REST_GREY};
use crate::svg::{Align, Font, Plane, Style, Svg, Viewport};

const WIDTH: f32 = 1200.0;
/// Space between panels.
const GAP: f32 = 16.0;
/// Space inside a panel.
const PAD: f32 = 12.0;
/// Height of a panel's header, above its contents.
const HEADER_H: f32 = 30.0;
/// Height of a chart's plot area, the room above it for a window's label, and the room
/// between its time axis's name and the caption's first baseline.
const PLOT_H: f32 = 230.0;
const ABOVE_PLOT: f32 = 16.0;
const BELOW_PLOT: f32 = Chart::BELOW + 14.0;
/// Tallest a stick figure's cell may be.
const MAX_CELL_H: f32 = 240.0;

const LINEAR_BLUE: &str = "#2563eb";
const SMOOTH_ORANGE: &str = "#ea580c";
const INERTIAL_PURPLE: &str = "#9333ea";
const ARM_TEAL: &str = "#0d9488";
const THIGH_GREEN: &str = "#65a30d";
const LEAN_BROWN: [&str; 2] = ["#d97706", "#92400e"];
const WINDOW_SHADE: &str = "#eef2f7";
const BODY: &str = "#475569";
const FAR_LIMB: &str = "#a7b1bc";

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

/// The whole figure: the title block, then the rows of panels.
pub fn draw(rig: &Rig, runs: &[Run], alone: &Alone) -> String {
    let inner = WIDTH - 2.0 * figure::MARGIN;
    let half = (inner - GAP) / 2.0;
    let swings = Swings::new(rig, runs, alone);
    let fade_charts = [whole_run_chart(&swings), switch_chart(&swings)];
    let inertial = runs
        .iter()
        .find(|r| r.curve == FadeCurve::Inertialize)
        .expect("inertialization is one of the curves");
    let transition = transition_strip(rig, inertial, alone, &swings);
    let curves = LayerCurves::new(rig);
    let layer_charts = [mask_chart(&curves), lean_chart(&curves)];
    let poses = pose_strip(rig);

    let chart_row_h =
        |charts: &[ChartPanel; 2]| charts.iter().map(|c| c.height(half)).fold(0.0, f32::max);
    let heights = [
        chart_row_h(&fade_charts),
        transition.height(rig, inner),
        chart_row_h(&layer_charts),
        poses.height(rig, inner),
    ];
    let top = figure::MARGIN + figure::TITLE_H;
    let height = top + heights.iter().sum::<f32>() + 3.0 * GAP + figure::MARGIN;
    let mut svg = Svg::new(WIDTH, height);
    draw_title(&mut svg);

    let mut y = top;
    for (i, chart) in fade_charts.iter().enumerate() {
        let corner = Vec2::new(figure::MARGIN + i as f32 * (half + GAP), y);
        chart.draw(&mut svg, corner, Vec2::new(half, heights[0]));
    }
    y += heights[0] + GAP;
    transition.draw(&mut svg, Vec2::new(figure::MARGIN, y), inner, rig);
    y += heights[1] + GAP;
    for (i, chart) in layer_charts.iter().enumerate() {
        let corner = Vec2::new(figure::MARGIN + i as f32 * (half + GAP), y);
        chart.draw(&mut svg, corner, Vec2::new(half, heights[2]));
    }
    y += heights[2] + GAP;
    poses.draw(&mut svg, Vec2::new(figure::MARGIN, y), inner, rig);
    svg.finish()
}

/// Figure title, a one-line explanation and the legend of the transitions.
fn draw_title(svg: &mut Svg) {
    let mut legend = figure::title_block(
        svg,
        "Sinew crossfade and layers: a walking character starts to wave",
        &format!(
            "Top: the right upper arm's forward swing (from hanging down, seen from the side) \
             every 1/60 s. At {:.1} s, as it swings back, the walk is asked to become the wave.",
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

/// The right arm's forward swing at every frame: the clips alone and each run, and how the
/// walk and each run move it at the switch.
struct Swings {
    walk: Vec<f32>,
    /// The wave alone, from the request: entry `j` is frame `REQUEST + j`.
    wave: Vec<f32>,
    runs: Vec<(FadeCurve, Vec<f32>, Switch)>,
    walk_switch: Switch,
}

impl Swings {
    fn new(rig: &Rig, runs: &[Run], alone: &Alone) -> Self {
        let walk = arm_swing(rig, &alone.walk);
        Self {
            walk_switch: Switch::new(&walk),
            walk,
            wave: arm_swing(rig, &alone.wave),
            runs: runs
                .iter()
                .map(|run| {
                    let swing = arm_swing(rig, &run.frames);
                    let switch = Switch::new(&swing);
                    (run.curve, swing, switch)
                })
                .collect(),
        }
    }

    /// How the run with `curve` moves the arm at the switch.
    fn switch(&self, curve: FadeCurve) -> Switch {
        self.runs
            .iter()
            .find(|r| r.0 == curve)
            .map(|r| r.2)
            .expect("every curve has a run")
    }

    /// The clips alone, then every run, as chart series from frame `first`.
    fn series(&self, first: usize) -> Vec<Series> {
        let points = |values: &[f32], offset: usize| {
            values
                .iter()
                .enumerate()
                .map(|(j, &v)| Vec2::new(frame_time(j + offset), v))
                .filter(|p| p.x >= frame_time(first) - 1e-4)
                .collect()
        };
        let mut series = vec![
            Series {
                points: points(&self.walk, 0),
                style: walk_alone_style(),
            },
            Series {
                points: points(&self.wave, REQUEST),
                style: wave_alone_style(),
            },
        ];
        series.extend(self.runs.iter().map(|(curve, swing, _)| Series {
            points: points(swing, 0),
            style: Style::stroke(curve_colour(*curve), 2.5),
        }));
        series
    }
}

/// What one chart panel shows.
struct ChartPanel {
    title: &'static str,
    note: String,
    caption: String,
    time: Axis,
    angle: Axis,
    /// A shaded time window and its label.
    window: Option<((f32, f32), String)>,
    series: Vec<Series>,
    /// Series also drawn as one dot per frame, in their colour.
    dots: Vec<(Vec<Vec2>, &'static str)>,
    /// Lines of text in the plot, in colour, the first baseline at a (time, degrees) point.
    notes: (Vec2, Vec<(String, &'static str)>),
}

impl ChartPanel {
    /// Height of the panel at `width` pixels wide.
    fn height(&self, width: f32) -> f32 {
        HEADER_H
            + ABOVE_PLOT
            + PLOT_H
            + BELOW_PLOT
            + figure::caption_height(&self.caption, width - 2.0 * PAD)
            + PAD
    }

    /// Draws the panel at `corner`, `size` pixels.
    fn draw(&self, svg: &mut Svg, corner: Vec2, size: Vec2) {
        figure::panel(svg, corner, size);
        TwoViewPanels::header(svg, corner, size, self.title, &self.note);
        let left = PAD + Chart::LEFT;
        let chart = Chart {
            corner: corner + Vec2::new(left, HEADER_H + ABOVE_PLOT),
            size: Vec2::new(size.x - left - 2.0 * PAD, PLOT_H),
            time: self.time,
            angle: self.angle,
        };
        if let Some((window, label)) = &self.window {
            chart.window(svg, *window, label, WINDOW_SHADE);
        }
        chart.axes(svg);
        for s in &self.series {
            chart.series(svg, s);
        }
        for (points, colour) in &self.dots {
            chart.dots(svg, points, 2.2, colour);
        }
        let (anchor, lines) = &self.notes;
        let mut at = chart.map(*anchor);
        for (text, colour) in lines {
            svg.text(at, text, Font::new(12.0, colour).bold().halo());
            at.y += 17.0;
        }
        let caption_at = corner + Vec2::new(PAD, HEADER_H + ABOVE_PLOT + PLOT_H + BELOW_PLOT);
        figure::caption(svg, caption_at, size.x - 2.0 * PAD, &self.caption);
    }
}

/// The transition window, with `label` over it.
fn fade_window(label: String) -> Option<((f32, f32), String)> {
    let start = frame_time(REQUEST);
    Some(((start, start + FADE), label))
}

/// The whole run: the walk, the switch and the wave, for every transition.
fn whole_run_chart(swings: &Swings) -> ChartPanel {
    ChartPanel {
        title: "Whole run",
        note: "right upper arm: forward swing".into(),
        caption: format!(
            "The walk swings the right arm {ARM_SWING}° forward and back (dashed). At {:.1} s, as \
             it swings back, each transition lifts it to the wave's raised arm (dotted, about \
             {WAVE_RAISE}°) within the {FADE} s window; all three then play the wave.",
            frame_time(REQUEST)
        ),
        time: Axis {
            min: 0.0,
            max: frame_time(FRAMES),
            step: 0.5,
        },
        angle: Axis {
            min: -40.0,
            max: 160.0,
            step: 20.0,
        },
        window: fade_window(format!("{FADE} s")),
        series: swings.series(0),
        dots: Vec::new(),
        notes: (Vec2::ZERO, Vec::new()),
    }
}

/// The time the early velocity at the switch is averaged over, in seconds.
const EARLY_S: f32 = EARLY_FRAMES as f32 / FPS;

/// Frames shown before and after the request in the close-up of the switch.
const SWITCH_BEFORE: usize = 3;
const SWITCH_AFTER: usize = 9;

/// A close-up of the switch, one dot per frame, with each curve's velocity just after it.
fn switch_chart(swings: &Swings) -> ChartPanel {
    let (first, last) = (REQUEST - SWITCH_BEFORE, REQUEST + SWITCH_AFTER);
    // The wave alone stays far above: the walk alone, then every run.
    let mut series = swings.series(first);
    series.remove(1);
    let in_view = |p: &&Vec2| p.x <= frame_time(last) + 1e-4;
    let (low, high) = series
        .iter()
        .flat_map(|s| s.points.iter().filter(in_view))
        .fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    // Room above the curves for the notes.
    let step = 10.0;
    let angle = Axis {
        min: (low / step).floor() * step,
        max: (high / step).ceil() * step + 3.0 * step,
        step,
    };
    let colours = std::iter::once(REST_GREY).chain(swings.runs.iter().map(|r| curve_colour(r.0)));
    let dots = series
        .iter()
        .zip(colours)
        .map(|(s, colour)| (s.points.clone(), colour))
        .collect();
    let velocities = |s: &Switch| format!("{:+.0} / {:+.0}°/s", s.first_frame, s.early);
    let mut notes = vec![
        (
            format!("velocity over the first frame / first {EARLY_S} s:"),
            MUTED,
        ),
        (
            format!("walk alone {}", velocities(&swings.walk_switch)),
            REST_GREY,
        ),
    ];
    for (curve, _, s) in &swings.runs {
        notes.push((
            format!("{} {}", curve_label(*curve), velocities(s)),
            curve_colour(*curve),
        ));
    }
    // What the arm does after the request with each curve, in words.
    let after = |curve: FadeCurve| {
        let s = swings.switch(curve);
        if s.back_for > 0.0 {
            format!(
                "keeps swinging back for {:.3} s, to {:+.1}°",
                s.back_for, s.lowest
            )
        } else {
            "turns up at once".to_owned()
        }
    };
    ChartPanel {
        title: "The switch, frame by frame",
        note: "one dot per frame".into(),
        caption: format!(
            "At the request the walk swings the arm back at {:.0}°/s (grey). Inertialization \
             carries that velocity on and lets it decay: the arm {}. A fade's rising weight \
             overrides it: with the smooth fade, whose weight starts flat, the arm {}; with \
             the linear fade it {}.",
            -swings.walk_switch.first_frame,
            after(FadeCurve::Inertialize),
            after(FadeCurve::Smooth),
            after(FadeCurve::Linear)
        ),
        time: Axis {
            min: frame_time(first),
            max: frame_time(last),
            step: 0.05,
        },
        angle,
        window: fade_window(format!("the {FADE} s transition →")),
        series,
        dots,
        notes: (
            Vec2::new(
                frame_time(first) + 0.004,
                angle.max - 0.08 * (angle.max - angle.min),
            ),
            notes,
        ),
    }
}

/// The masked layer over two walk loops: the right arm and the left thigh in the walk, the
/// wave, and the wave over the walk.
fn mask_chart(curves: &LayerCurves) -> ChartPanel {
    let styles = |colour: &'static str| {
        [
            Style::stroke(colour, 1.5).dashed("6 4"),
            Style::stroke(colour, 1.5).dashed("2 3"),
            Style::stroke(colour, 3.0),
        ]
    };
    let parts = [(&curves.arm, ARM_TEAL), (&curves.thigh, THIGH_GREEN)];
    // The clips alone first, then the layered lines on top of the clips they follow.
    let series = (0..3)
        .flat_map(|i| {
            parts.iter().map(move |(points, colour)| Series {
                points: points[i].clone(),
                style: styles(colour)[i],
            })
        })
        .collect();
    ChartPanel {
        title: "Masked layer: the wave from the chest up",
        note: "model space, both clips from 0 s".into(),
        caption: "JointMask::subtree(chest) weights the arms 1 and the legs 0: blended fully \
                  toward the wave through it (ModelRotation), the right arm (solid teal) lies on \
                  the wave's (dotted) and the left thigh (solid green) on the walk's stride \
                  (dashed)."
            .into(),
        time: Axis {
            min: 0.0,
            max: LayerCurves::duration(),
            step: 0.25,
        },
        angle: Axis {
            min: -40.0,
            max: 160.0,
            step: 20.0,
        },
        window: None,
        series,
        dots: Vec::new(),
        notes: (
            Vec2::new(0.04, 108.0),
            vec![
                ("right upper arm: swing".to_owned(), ARM_TEAL),
                ("left thigh: swing".to_owned(), THIGH_GREEN),
                (
                    "solid: wave over walk; dashed: walk alone; dotted: wave alone".to_owned(),
                    MUTED,
                ),
            ],
        ),
    }
}

/// The additive lean on the walk: the chest's forward lean with the lean at each weight.
fn lean_chart(curves: &LayerCurves) -> ChartPanel {
    let walk = &curves.lean[0];
    // How far each weight leans the chest beyond the walk, on average and at most off that.
    let added: Vec<(f32, f32)> = curves.lean[1..]
        .iter()
        .map(|c| {
            let d: Vec<f32> = c.iter().zip(walk).map(|(a, b)| a.y - b.y).collect();
            let mean = d.iter().sum::<f32>() / d.len() as f32;
            let spread = d.iter().map(|x| (x - mean).abs()).fold(0.0, f32::max);
            (mean, spread)
        })
        .collect();
    let (low, high) = curves
        .lean
        .iter()
        .flatten()
        .fold((f32::MAX, f32::MIN), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.y))
        });
    let step = 5.0;
    let angle = Axis {
        min: (low / step).floor() * step - step,
        max: (high / step).ceil() * step + 2.0 * step,
        step,
    };
    let mut series = vec![Series {
        points: walk.clone(),
        style: walk_alone_style(),
    }];
    let mut notes = vec![("walk alone".to_owned(), REST_GREY)];
    for ((points, colour), w) in curves.lean[1..].iter().zip(LEAN_BROWN).zip(LEAN_WEIGHTS) {
        series.push(Series {
            points: points.clone(),
            style: Style::stroke(colour, 2.5),
        });
        notes.push((format!("walk + lean × {w}"), colour));
    }
    notes.reverse();
    let amounts: Vec<String> = added
        .iter()
        .zip(LEAN_WEIGHTS)
        .map(|((mean, spread), w)| format!("{mean:.1}° at weight {w} (±{spread:.2}°)"))
        .collect();
    ChartPanel {
        title: "Additive lean on the walk",
        note: "chest: forward lean, model space".into(),
        caption: format!(
            "The walk bobs the chest forward twice a stride (dashed). Added on top with \
             Pose::add, the lean (a delta over the rest pose from make_additive) tilts it \
             further by {} over every frame: the bob keeps its shape.",
            amounts.join(" and ")
        ),
        time: Axis {
            min: 0.0,
            max: LayerCurves::duration(),
            step: 0.25,
        },
        angle,
        window: None,
        series,
        dots: Vec::new(),
        notes: (Vec2::new(0.04, angle.max - 1.5), notes),
    }
}

/// Lines of text under a stick figure, each in its colour; the first is bold.
type CellLines = Vec<(String, &'static str)>;

/// One stick figure of a strip: the pose drawn, the pose dotted under it, and its lines.
struct Cell {
    output: Vec<Transform>,
    target: Option<Vec<Transform>>,
    lines: CellLines,
}

/// A row of side views of poses, with bones to highlight.
struct Strip {
    title: &'static str,
    note: &'static str,
    caption: String,
    cells: Vec<Cell>,
    /// Bones drawn in colour: from a joint to its child.
    highlights: &'static [(&'static str, &'static str, &'static str)],
}

/// Height of the lines under a stick figure.
const CELL_LINE_H: f32 = 16.0;

impl Strip {
    /// The side-view world box that holds every pose of the strip, with room around it,
    /// centred on the body's plane so the figures line up.
    fn bounds(&self, rig: &Rig) -> (Vec2, Vec2) {
        let (mut half_width, mut top) = (0.0f32, 0.0f32);
        let poses = self
            .cells
            .iter()
            .flat_map(|c| std::iter::once(&c.output).chain(&c.target));
        for local in poses {
            let model = model_transforms(rig, local);
            let head = head_centre(rig, &model);
            for p in model.iter().map(|t| t.translation) {
                half_width = half_width.max(p.z.abs());
                top = top.max(p.y);
            }
            half_width = half_width.max(head.z.abs() + HEAD_RADIUS);
            top = top.max(head.y + HEAD_RADIUS);
        }
        let margin = 0.06;
        (
            Vec2::new(-half_width - margin, -margin),
            Vec2::new(half_width + margin, top + margin),
        )
    }

    /// Size of one cell in a strip `width` pixels wide.
    fn cell(&self, rig: &Rig, width: f32) -> Vec2 {
        let (min, max) = self.bounds(rig);
        let extent = max - min;
        let cell_width = (width - 2.0 * PAD) / self.cells.len() as f32;
        Vec2::new(
            cell_width,
            (extent.y * cell_width / extent.x).min(MAX_CELL_H),
        )
    }

    /// Height of the lines under the figures.
    fn lines_h(&self) -> f32 {
        let lines = self.cells.iter().map(|c| c.lines.len()).max().unwrap_or(0);
        lines as f32 * CELL_LINE_H + 14.0
    }

    /// Height of the strip's panel at `width` pixels wide.
    fn height(&self, rig: &Rig, width: f32) -> f32 {
        HEADER_H
            + self.cell(rig, width).y
            + self.lines_h()
            + figure::caption_height(&self.caption, width - 2.0 * PAD)
            + PAD
    }

    /// Draws the strip's panel at `corner`, `width` pixels wide.
    fn draw(&self, svg: &mut Svg, corner: Vec2, width: f32, rig: &Rig) {
        let size = Vec2::new(width, self.height(rig, width));
        figure::panel(svg, corner, size);
        TwoViewPanels::header(svg, corner, size, self.title, self.note);
        let (min, max) = self.bounds(rig);
        let cell = self.cell(rig, width);
        for (i, c) in self.cells.iter().enumerate() {
            let cell_corner = corner + Vec2::new(PAD + i as f32 * cell.x, HEADER_H);
            let view = Viewport::fit(min, max, cell_corner, cell);
            svg.line(
                view.map(Vec2::new(min.x + 0.05, 0.0)),
                view.map(Vec2::new(max.x - 0.05, 0.0)),
                Style::stroke("#cbd2d9", 1.5),
            );
            if let Some(target) = &c.target {
                draw_figure(svg, &view, rig, target, FigureStyle::Target, &[]);
            }
            draw_figure(
                svg,
                &view,
                rig,
                &c.output,
                FigureStyle::Output,
                self.highlights,
            );
            let mut at = Vec2::new(
                cell_corner.x + cell.x / 2.0,
                cell_corner.y + cell.y + CELL_LINE_H,
            );
            for (k, (text, colour)) in c.lines.iter().enumerate() {
                let font = Font::new(12.5, colour).aligned(Align::Middle);
                svg.text(at, text, if k == 0 { font.bold() } else { font });
                at.y += CELL_LINE_H;
            }
        }
        let caption_at = corner + Vec2::new(PAD, HEADER_H + cell.y + self.lines_h() + 4.0);
        figure::caption(svg, caption_at, width - 2.0 * PAD, &self.caption);
    }
}

/// Frames shown in the transition strip, counted from the request.
const STRIP_FRAMES: [usize; 9] = [0, 2, 4, 6, 9, 12, 18, 24, 30];

/// The inertialized transition as side views at [`STRIP_FRAMES`], each over the wave alone.
fn transition_strip(rig: &Rig, run: &Run, alone: &Alone, swings: &Swings) -> Strip {
    let arm = rig.joint("upperarm_r");
    let cells = STRIP_FRAMES
        .map(|j| REQUEST + j)
        .into_iter()
        .map(|k| {
            let gap = if k == REQUEST {
                "fade_to(wave)".to_owned()
            } else {
                format!("{:.0}° off", max_gap_deg(&run.frames[k], alone.wave_at(k)))
            };
            Cell {
                output: run.frames[k].clone(),
                target: Some(alone.wave_at(k).to_vec()),
                lines: vec![
                    (format!("{:.3} s", frame_time(k)), INK),
                    (
                        format!("arm {:+.0}°", swing_deg(run.frames[k][arm].rotation)),
                        INERTIAL_PURPLE,
                    ),
                    (gap, MUTED),
                ],
            }
        })
        .collect();
    let s = swings.switch(FadeCurve::Inertialize);
    Strip {
        title: "Inertialized transition, side view (facing right)",
        note: "dotted: the wave alone at the same moment; n° off: largest joint angle from it",
        caption: format!(
            "Purple: the right upper arm; the far (left) limbs are paler. At the switch the arm \
             is swinging back: it carries on back for {:.3} s, to {:+.1}°, then rises into the \
             wave; every joint is within {SETTLED_DEG}° of it {:.3} s after the request.",
            s.back_for,
            s.lowest,
            frame_time(run.settled - REQUEST)
        ),
        cells,
        highlights: &[("upperarm_r", "lowerarm_r", INERTIAL_PURPLE)],
    }
}

/// The layered poses of the table, side by side.
fn pose_strip(rig: &Rig) -> Strip {
    let cells = layer_poses(rig)
        .into_iter()
        .map(|(label, pose)| {
            let swing = |name| swing_deg(rig.model_rotation(&pose, name));
            Cell {
                output: pose.local().to_vec(),
                target: None,
                lines: vec![
                    (label.trim().to_owned(), INK),
                    (format!("arm {:+.0}°", swing("upperarm_r")), ARM_TEAL),
                    (format!("thigh {:+.0}°", swing("thigh_l")), THIGH_GREEN),
                    (
                        format!(
                            "chest lean {:.0}°",
                            lean_deg(rig.model_rotation(&pose, "chest"))
                        ),
                        MUTED,
                    ),
                ],
            }
        })
        .collect();
    Strip {
        title: "The layered poses of the table, side view",
        note: "angles in model space",
        caption: "Teal: the right upper arm; green: the left thigh. Over the walk, the mask \
                  takes the arm from the wave and keeps the walk's stride; in Local space the \
                  arm comes with the walk's chest turn, a few degrees off the wave's (see the \
                  table), in ModelRotation space it points exactly as in the wave. The lean \
                  then bends the trunk forward, and the arm, hung on the chest, goes with it."
            .into(),
        cells,
        highlights: &[
            ("upperarm_r", "lowerarm_r", ARM_TEAL),
            ("thigh_l", "shin_l", THIGH_GREEN),
        ],
    }
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
    /// The pose shown: solid, with joints and highlighted bones.
    Output,
    /// A pose to compare with, underneath: thin and dotted.
    Target,
}

/// The bone chains a stick figure is drawn as, the far side (the left limbs, seen from the
/// right) first, and whether each is on the far side.
const CHAINS: [(&[&str], bool); 5] = [
    (&["chest", "upperarm_l", "lowerarm_l", "hand_l"], true),
    (&["pelvis", "thigh_l", "shin_l", "foot_l"], true),
    (&["pelvis", "spine", "chest", "neck", "head"], false),
    (&["pelvis", "thigh_r", "shin_r", "foot_r"], false),
    (&["chest", "upperarm_r", "lowerarm_r", "hand_r"], false),
];

/// A side view of the pose with local transforms `local`: bones, joints, a head, and the
/// `highlights` (joint, child, colour) in colour.
fn draw_figure(
    svg: &mut Svg,
    view: &Viewport,
    rig: &Rig,
    local: &[Transform],
    style: FigureStyle,
    highlights: &[(&str, &str, &'static str)],
) {
    let model = model_transforms(rig, local);
    let project = |p: Vec3| view.map(Plane::Side.project(p));
    let at = |name: &str| project(model[rig.joint(name)].translation);
    for (chain, far) in CHAINS {
        let bone = match (style, far) {
            (FigureStyle::Target, _) => wave_alone_style(),
            (FigureStyle::Output, true) => Style::stroke(FAR_LIMB, 3.0),
            (FigureStyle::Output, false) => Style::stroke(BODY, 3.0),
        };
        let points: Vec<Vec2> = chain.iter().map(|&n| at(n)).collect();
        svg.polyline(&points, bone);
        for &(from, to, colour) in highlights.iter().filter(|h| chain.contains(&h.0)) {
            svg.line(at(from), at(to), Style::stroke(colour, 3.5));
        }
        if style == FigureStyle::Output {
            let joint = Style::fill(if far { FAR_LIMB } else { BODY });
            for &name in chain.iter().filter(|&&n| n != "head") {
                svg.circle(at(name), 2.5, joint);
            }
        }
        if chain.contains(&"head") {
            let outline = match style {
                FigureStyle::Target => wave_alone_style(),
                FigureStyle::Output => Style::stroke(BODY, 3.0),
            };
            svg.circle(
                project(head_centre(rig, &model)),
                view.scale(HEAD_RADIUS),
                outline.filled(if style == FigureStyle::Output {
                    "white"
                } else {
                    "none"
                }),
            );
        }
    }
}
