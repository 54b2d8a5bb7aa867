//! What the sections' figures share, on top of the SVG writer: the palette, the title block and
//! its legend, panels with their header, framed views with a grid, and the grid of panels with a
//! front and a side view that the two-bone and hand retargeting sections draw.

use glam::Vec2;

use crate::svg::{Align, Font, Plane, Style, Svg, Viewport};

pub const INK: &str = "#1f2933";
pub const MUTED: &str = "#616e7c";
pub const FAINT: &str = "#e4e7eb";
pub const REST_GREY: &str = "#9aa3ad";
pub const TARGET_RED: &str = "#dc2626";
pub const OK_GREEN: &str = "#15803d";

/// Space around a figure.
pub const MARGIN: f32 = 24.0;
/// Height of the title block above the panels.
pub const TITLE_H: f32 = 78.0;

/// The figure's title and a one-line explanation under it, at the top left; returns the legend
/// that goes on the line below.
pub fn title_block<'a>(svg: &'a mut Svg, title: &str, explanation: &str) -> Legend<'a> {
    let mut at = Vec2::new(MARGIN, MARGIN + 18.0);
    svg.text(at, title, Font::new(20.0, INK).bold());
    at.y += 22.0;
    svg.text(at, explanation, Font::new(13.0, MUTED));
    at.y += 24.0;
    Legend {
        svg,
        x: MARGIN,
        baseline: at.y,
    }
}

/// A row of legend entries, each a small sample of a drawing followed by its label.
pub struct Legend<'a> {
    svg: &'a mut Svg,
    /// Left edge of the next entry.
    x: f32,
    baseline: f32,
}

impl Legend<'_> {
    /// One entry: `sample` draws around the centre it is given, `label` follows, and the next
    /// entry starts `width` pixels further right.
    pub fn item(&mut self, label: &str, width: f32, sample: impl FnOnce(&mut Svg, Vec2)) {
        sample(self.svg, Vec2::new(self.x + 10.0, self.baseline - 4.0));
        self.svg.text(
            Vec2::new(self.x + 26.0, self.baseline),
            label,
            Font::new(12.5, INK),
        );
        self.x += width;
    }

    /// An entry whose sample is a short line in `style`.
    pub fn line(&mut self, label: &str, width: f32, style: Style) {
        self.item(label, width, |svg, c| {
            svg.line(c - Vec2::X * 10.0, c + Vec2::X * 10.0, style);
        });
    }
}

/// Size of a caption's text, and the distance between its baselines.
const CAPTION_SIZE: f32 = 12.0;
pub const CAPTION_LINE_H: f32 = 15.5;

/// `text` broken at spaces into lines that fit `width` pixels of caption text. The width of
/// a line is estimated from its length: 0.52 em a character, a little over DejaVu Sans's
/// average over English prose (0.50 em), so a line never runs past the width.
pub fn wrap(text: &str, width: f32) -> Vec<String> {
    let max_chars = (width / (0.52 * CAPTION_SIZE)).floor() as usize;
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max_chars => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// Height of `text` wrapped to `width` pixels as a caption.
pub fn caption_height(text: &str, width: f32) -> f32 {
    wrap(text, width).len() as f32 * CAPTION_LINE_H
}

/// A caption that says what to see: `text` wrapped to `width` pixels, in muted text, the first
/// baseline at `at`.
pub fn caption(svg: &mut Svg, at: Vec2, width: f32, text: &str) {
    for (i, line) in wrap(text, width).iter().enumerate() {
        svg.text(
            at + Vec2::Y * (i as f32 * CAPTION_LINE_H),
            line,
            Font::new(CAPTION_SIZE, MUTED),
        );
    }
}

/// The rest pose, drawn under the solved one.
pub fn rest_style() -> Style {
    Style::stroke(REST_GREY, 1.5).dashed("5 4")
}

/// The "x" that marks a target.
pub fn target_marker(svg: &mut Svg, centre: Vec2) {
    svg.cross(centre, 5.0, Style::stroke(TARGET_RED, 2.0));
}

/// How a solve ended, in words and colour: "reached" in green or "not reached" in red.
pub fn verdict(reached: bool) -> (&'static str, &'static str) {
    if reached {
        ("reached", OK_GREEN)
    } else {
        ("not reached", TARGET_RED)
    }
}

/// A panel's background: a rounded, faintly outlined box.
pub fn panel(svg: &mut Svg, corner: Vec2, size: Vec2) {
    svg.rect(
        corner,
        size,
        8.0,
        Style::stroke(FAINT, 1.0).filled("#f8f9fb"),
    );
}

/// The white, framed background of `view` over the world box `min..max`, with grid lines every
/// `grid_step`. Returns the view's top-left pixel corner.
pub fn view_frame(
    svg: &mut Svg,
    view: &Viewport,
    (min, max): (Vec2, Vec2),
    grid_step: f32,
) -> Vec2 {
    let top_left = view.map(Vec2::new(min.x, max.y));
    let size = view.map(Vec2::new(max.x, min.y)) - top_left;
    svg.rect(
        top_left,
        size,
        4.0,
        Style::stroke(FAINT, 1.0).filled("white"),
    );
    svg.grid(view, (min, max), grid_step);
    top_left
}

/// The name of the view's plane, in the top-left corner of a view.
pub fn plane_label(svg: &mut Svg, top_left: Vec2, plane: Plane) {
    svg.text(
        top_left + Vec2::new(6.0, 14.0),
        plane.label(),
        Font::new(11.0, MUTED).halo(),
    );
}

/// The world box `min..max` grown by `margin` on every side, then outward to multiples of
/// `step`, so grid lines meet the edges of the views cleanly.
pub fn snap_out((min, max): (Vec2, Vec2), margin: f32, step: f32) -> (Vec2, Vec2) {
    let snap = |v: Vec2, f: fn(f32) -> f32| (v / step).map(f) * step;
    (
        snap(min - margin, f32::floor),
        snap(max + margin, f32::ceil),
    )
}

/// A figure of one panel per item, `columns` to a row under the title block. Each panel has a
/// header, then a front and a side view side by side at one scale, then a caption.
pub struct TwoViewPanels {
    pub columns: usize,
    /// Pixels per metre in every view.
    pub scale: f32,
    /// Height of a panel's caption, below its views.
    pub caption_h: f32,
}

impl TwoViewPanels {
    /// Space between panels.
    const GAP: f32 = 16.0;
    /// Space inside a panel, around and between its views.
    pub const PAD: f32 = 12.0;
    /// Height of a panel's header, above its views.
    const HEADER_H: f32 = 26.0;

    /// A panel's header line: `title` in bold on the left, `note` on the right.
    pub fn header(svg: &mut Svg, corner: Vec2, panel: Vec2, title: &str, note: &str) {
        let header = corner + Vec2::new(Self::PAD, 18.0);
        svg.text(header, title, Font::new(14.0, INK).bold());
        svg.text(
            header + Vec2::X * (panel.x - 2.0 * Self::PAD),
            note,
            Font::new(12.0, MUTED).aligned(Align::End),
        );
    }

    /// Where the caption's text starts, for the first line's baseline `baseline` pixels below
    /// the top of the caption.
    pub fn caption_at(&self, corner: Vec2, panel: Vec2, baseline: f32) -> Vec2 {
        corner + Vec2::new(Self::PAD, panel.y - self.caption_h + baseline)
    }

    /// Draws the figure. `bounds` are the world boxes of the front and side views (see
    /// [`Plane::BOTH`]); both views get the union of their vertical ranges, so a figure lines
    /// up across them. `title` draws the title block; `caption` draws a panel's header and
    /// caption, given the panel's corner and size and its number (from 1); `view` draws an
    /// item in one view.
    pub fn draw<T>(
        &self,
        items: &[T],
        mut bounds: [(Vec2, Vec2); 2],
        title: impl FnOnce(&mut Svg),
        caption: impl Fn(&mut Svg, Vec2, Vec2, usize, &T),
        view: impl Fn(&mut Svg, Plane, &Viewport, (Vec2, Vec2), &T),
    ) -> String {
        let (y_min, y_max) = (
            bounds[0].0.y.min(bounds[1].0.y),
            bounds[0].1.y.max(bounds[1].1.y),
        );
        for (min, max) in &mut bounds {
            min.y = y_min;
            max.y = y_max;
        }
        let view_sizes = bounds.map(|(min, max)| (max - min) * self.scale);
        let panel_size = Vec2::new(
            view_sizes[0].x + view_sizes[1].x + 3.0 * Self::PAD,
            Self::HEADER_H + view_sizes[0].y + self.caption_h,
        );
        let (columns, rows) = (self.columns, items.len().div_ceil(self.columns));
        let size = Vec2::new(
            2.0 * MARGIN + columns as f32 * panel_size.x + (columns - 1) as f32 * Self::GAP,
            2.0 * MARGIN + TITLE_H + rows as f32 * panel_size.y + (rows - 1) as f32 * Self::GAP,
        );

        let mut svg = Svg::new(size.x, size.y);
        title(&mut svg);
        for (i, item) in items.iter().enumerate() {
            let cell = Vec2::new((i % columns) as f32, (i / columns) as f32);
            let corner = Vec2::new(MARGIN, MARGIN + TITLE_H) + cell * (panel_size + Self::GAP);
            panel(&mut svg, corner, panel_size);
            caption(&mut svg, corner, panel_size, i + 1, item);
            let mut view_corner = corner + Vec2::new(Self::PAD, Self::HEADER_H);
            for (k, plane) in Plane::BOTH.into_iter().enumerate() {
                let (min, max) = bounds[k];
                let fitted = Viewport::fit(min, max, view_corner, view_sizes[k]);
                view(&mut svg, plane, &fitted, (min, max), item);
                view_corner.x += view_sizes[k].x + Self::PAD;
            }
        }
        svg.finish()
    }
}
