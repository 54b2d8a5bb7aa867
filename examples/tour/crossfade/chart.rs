//! Line charts of angles over time: axes with ticks and grid lines, shaded time windows, and
//! series drawn as lines or as one dot per frame.

use glam::Vec2;

use crate::figure::{INK, MUTED};
use crate::svg::{Align, Font, Style, Svg};

/// One line of a chart: (time in seconds, degrees) points, and its style.
pub struct Series {
    pub points: Vec<Vec2>,
    pub style: Style,
}

/// A range of values and the spacing of its ticks.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    pub min: f32,
    pub max: f32,
    pub step: f32,
}

impl Axis {
    /// Multiples of the step within the range.
    fn ticks(self) -> impl Iterator<Item = f32> {
        let first = (self.min / self.step - 1e-3).ceil() as i32;
        let last = (self.max / self.step + 1e-3).floor() as i32;
        (first..=last).map(move |i| i as f32 * self.step)
    }

    /// Decimals that show every tick of this axis exactly.
    fn decimals(self) -> usize {
        let mut decimals = 0;
        while (self.step * 10f32.powi(decimals as i32)).fract().abs() > 1e-3 && decimals < 3 {
            decimals += 1;
        }
        decimals
    }
}

/// Maps (time in seconds, angle in degrees) onto a box of pixels.
pub struct Chart {
    pub corner: Vec2,
    pub size: Vec2,
    pub time: Axis,
    pub angle: Axis,
}

impl Chart {
    /// Space left of the plot for the angle labels, and below it for the time labels.
    pub const LEFT: f32 = 48.0;
    pub const BELOW: f32 = 40.0;

    pub fn map(&self, p: Vec2) -> Vec2 {
        let x = (p.x - self.time.min) / (self.time.max - self.time.min);
        let y = (p.y - self.angle.min) / (self.angle.max - self.angle.min);
        self.corner + Vec2::new(x, 1.0 - y) * self.size
    }

    /// Grid lines, ticks and labels on both axes, the axis lines, and the time axis's name.
    pub fn axes(&self, svg: &mut Svg) {
        let grid = Style::stroke("#e9edf1", 1.0);
        let label = Font::new(11.5, MUTED);
        for deg in self.angle.ticks() {
            let left = self.map(Vec2::new(self.time.min, deg));
            let colour = if deg == 0.0 { "#cbd2d9" } else { "#e9edf1" };
            svg.line(
                left,
                left + Vec2::X * self.size.x,
                Style::stroke(colour, 1.0),
            );
            svg.text(
                left + Vec2::new(-7.0, 4.0),
                &format!("{deg:.0}°"),
                label.aligned(Align::End),
            );
        }
        let decimals = self.time.decimals();
        for t in self.time.ticks() {
            let bottom = self.map(Vec2::new(t, self.angle.min));
            svg.line(bottom, bottom - Vec2::Y * self.size.y, grid);
            svg.line(bottom, bottom + Vec2::Y * 5.0, Style::stroke(INK, 1.0));
            svg.text(
                bottom + Vec2::Y * 18.0,
                &format!("{t:.decimals$}"),
                label.aligned(Align::Middle),
            );
        }
        let origin = self.corner + Vec2::Y * self.size.y;
        let axis = Style::stroke(INK, 1.0);
        svg.line(origin, origin + Vec2::X * self.size.x, axis);
        svg.line(origin, self.corner, axis);
        svg.text(
            origin + Vec2::new(self.size.x, 34.0),
            "time (s)",
            Font::new(12.0, INK).aligned(Align::End),
        );
    }

    /// Shades the times `start..end` (clipped to the chart) and labels the window above it.
    pub fn window(
        &self,
        svg: &mut Svg,
        (start, end): (f32, f32),
        label: &str,
        shade: &'static str,
    ) {
        let (start, end) = (start.max(self.time.min), end.min(self.time.max));
        let top_left = self.map(Vec2::new(start, self.angle.max));
        let bottom_right = self.map(Vec2::new(end, self.angle.min));
        svg.rect(top_left, bottom_right - top_left, 0.0, Style::fill(shade));
        svg.text(
            Vec2::new((top_left.x + bottom_right.x) / 2.0, top_left.y - 6.0),
            label,
            Font::new(11.5, MUTED).aligned(Align::Middle),
        );
    }

    /// The part of `series` within the chart's time range, as a line.
    pub fn series(&self, svg: &mut Svg, series: &Series) {
        let points: Vec<Vec2> = self.visible(&series.points).collect();
        svg.polyline(&points, series.style);
    }

    /// The part of `points` within the chart's time range, as one dot per point.
    pub fn dots(&self, svg: &mut Svg, points: &[Vec2], radius: f32, colour: &'static str) {
        for p in self.visible(points) {
            svg.circle(p, radius, Style::fill(colour));
        }
    }

    /// Pixel positions of the points of `points` within the chart's time range.
    fn visible<'a>(&'a self, points: &'a [Vec2]) -> impl Iterator<Item = Vec2> + 'a {
        let (min, max) = (self.time.min - 1e-4, self.time.max + 1e-4);
        points
            .iter()
            .filter(move |p| (min..=max).contains(&p.x))
            .map(|&p| self.map(p))
    }
}
