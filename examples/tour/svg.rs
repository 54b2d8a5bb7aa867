//! A minimal hand-written SVG writer: just the shapes the tour draws, so the example needs no
//! extra crates and every section can draw its own figure the same way.

use std::fmt::Write as _;

use glam::{Vec2, Vec3};

/// Stroke and fill of a shape. Colours are any SVG colour string (`"#336699"`, `"none"`).
#[derive(Clone, Copy, Debug)]
pub struct Style {
    stroke: &'static str,
    stroke_width: f32,
    fill: &'static str,
    dash: Option<&'static str>,
}

impl Style {
    /// An outline of `colour`, `width` pixels wide, with no fill.
    pub fn stroke(colour: &'static str, width: f32) -> Self {
        Self {
            stroke: colour,
            stroke_width: width,
            fill: "none",
            dash: None,
        }
    }

    /// A filled shape with no outline.
    pub fn fill(colour: &'static str) -> Self {
        Self {
            stroke: "none",
            stroke_width: 0.0,
            fill: colour,
            dash: None,
        }
    }

    /// The same style filled with `colour`.
    pub fn filled(self, colour: &'static str) -> Self {
        Self {
            fill: colour,
            ..self
        }
    }

    /// The same style with a dash pattern (SVG `stroke-dasharray`, e.g. `"4 3"`).
    pub fn dashed(self, pattern: &'static str) -> Self {
        Self {
            dash: Some(pattern),
            ..self
        }
    }

    /// A line in this shape's colour: its outline (with its dashes) if it has one, else a
    /// 2-pixel line of its fill colour.
    pub fn line(self) -> Self {
        if self.stroke == "none" {
            Self::stroke(self.fill, 2.0)
        } else {
            Self {
                fill: "none",
                ..self
            }
        }
    }

    fn attributes(&self) -> String {
        let mut s = format!(
            r#"fill="{}" stroke="{}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round""#,
            self.fill, self.stroke, self.stroke_width
        );
        if let Some(dash) = self.dash {
            let _ = write!(s, r#" stroke-dasharray="{dash}""#);
        }
        s
    }
}

/// Horizontal alignment of text relative to its anchor point.
#[derive(Clone, Copy, Debug)]
pub enum Align {
    Start,
    Middle,
    End,
}

/// Size, colour, weight and alignment of a line of text.
#[derive(Clone, Copy, Debug)]
pub struct Font {
    pub size: f32,
    pub colour: &'static str,
    pub bold: bool,
    pub align: Align,
    /// Outline the letters in white so they stay legible over lines.
    pub halo: bool,
}

impl Font {
    /// Regular text of `size` pixels in `colour`, left-aligned.
    pub fn new(size: f32, colour: &'static str) -> Self {
        Self {
            size,
            colour,
            bold: false,
            align: Align::Start,
            halo: false,
        }
    }

    /// The same font in bold.
    pub fn bold(self) -> Self {
        Self { bold: true, ..self }
    }

    /// The same font with a white halo.
    pub fn halo(self) -> Self {
        Self { halo: true, ..self }
    }

    /// The same font with another alignment.
    pub fn aligned(self, align: Align) -> Self {
        Self { align, ..self }
    }
}

/// An SVG document being built, in pixel coordinates (x right, y down).
pub struct Svg {
    width: f32,
    height: f32,
    body: String,
}

impl Svg {
    /// An empty picture of `width` x `height` pixels on a white background. The size is rounded
    /// up to whole pixels, so renderers leave no half-transparent edge.
    pub fn new(width: f32, height: f32) -> Self {
        let (width, height) = (width.ceil(), height.ceil());
        let mut svg = Self {
            width,
            height,
            body: String::new(),
        };
        svg.rect(
            Vec2::ZERO,
            Vec2::new(width, height),
            0.0,
            Style::fill("white"),
        );
        svg
    }

    /// A rectangle from its top-left corner and size, with rounded corners of radius `round`.
    pub fn rect(&mut self, corner: Vec2, size: Vec2, round: f32, style: Style) {
        self.push(format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{round}" {}/>"#,
            corner.x,
            corner.y,
            size.x,
            size.y,
            style.attributes()
        ));
    }

    /// A straight line segment.
    pub fn line(&mut self, a: Vec2, b: Vec2, style: Style) {
        self.polyline(&[a, b], style);
    }

    /// Connected line segments through `points`.
    pub fn polyline(&mut self, points: &[Vec2], style: Style) {
        self.push(format!(
            r#"<polyline points="{}" {}/>"#,
            point_list(points),
            style.attributes()
        ));
    }

    /// A closed polygon through `points`.
    pub fn polygon(&mut self, points: &[Vec2], style: Style) {
        self.push(format!(
            r#"<polygon points="{}" {}/>"#,
            point_list(points),
            style.attributes()
        ));
    }

    /// A circle.
    pub fn circle(&mut self, centre: Vec2, radius: f32, style: Style) {
        self.push(format!(
            r#"<circle cx="{:.1}" cy="{:.1}" r="{radius:.1}" {}/>"#,
            centre.x,
            centre.y,
            style.attributes()
        ));
    }

    /// An "x" marker: two diagonals of half-size `r` centred on `centre`.
    pub fn cross(&mut self, centre: Vec2, r: f32, style: Style) {
        self.line(centre - Vec2::splat(r), centre + Vec2::splat(r), style);
        self.line(centre + Vec2::new(-r, r), centre + Vec2::new(r, -r), style);
    }

    /// A diamond marker with corners `r` from `centre`.
    pub fn diamond(&mut self, centre: Vec2, r: f32, style: Style) {
        let corners = [Vec2::X, Vec2::Y, -Vec2::X, -Vec2::Y].map(|d| centre + d * r);
        self.polygon(&corners, style);
    }

    /// An arrow from `from` to `to` whose head, `head` pixels long, is filled with the stroke
    /// colour. An arrow shorter than its head is just the head; a zero-length one is not drawn.
    pub fn arrow(&mut self, from: Vec2, to: Vec2, head: f32, style: Style) {
        let Some(dir) = (to - from).try_normalize() else {
            return;
        };
        let base = to - dir * head;
        let side = dir.perp() * head * 0.45;
        if (to - from).length() > head {
            self.line(from, base, style);
        }
        self.polygon(&[to, base + side, base - side], Style::fill(style.stroke));
    }

    /// Faint lines every `step` world units across the world box `min..max` of `view`, whose
    /// edges should lie on multiples of `step`.
    pub fn grid(&mut self, view: &Viewport, (min, max): (Vec2, Vec2), step: f32) {
        let style = Style::stroke("#f0f2f4", 1.0);
        let steps = ((max - min) / step).round();
        for i in 1..steps.x as i32 {
            let x = min.x + i as f32 * step;
            self.line(
                view.map(Vec2::new(x, min.y)),
                view.map(Vec2::new(x, max.y)),
                style,
            );
        }
        for i in 1..steps.y as i32 {
            let y = min.y + i as f32 * step;
            self.line(
                view.map(Vec2::new(min.x, y)),
                view.map(Vec2::new(max.x, y)),
                style,
            );
        }
    }

    /// One line of text whose baseline is anchored at `at`.
    pub fn text(&mut self, at: Vec2, text: &str, font: Font) {
        let anchor = match font.align {
            Align::Start => "start",
            Align::Middle => "middle",
            Align::End => "end",
        };
        let weight = if font.bold { "bold" } else { "normal" };
        let halo = if font.halo {
            r#" stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke""#
        } else {
            ""
        };
        self.push(format!(
            r#"<text x="{:.1}" y="{:.1}" font-size="{}" font-weight="{weight}" fill="{}" text-anchor="{anchor}"{halo}>{}</text>"#,
            at.x,
            at.y,
            font.size,
            font.colour,
            escape(text)
        ));
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" "#,
                r#"font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#,
                "\n{body}</svg>\n"
            ),
            w = self.width,
            h = self.height,
            body = self.body
        )
    }

    fn push(&mut self, element: String) {
        self.body.push_str(&element);
        self.body.push('\n');
    }
}

/// Maps a rectangle of world coordinates (y up) onto a rectangle of pixels (y down) with one
/// uniform scale, centred, so that shapes keep their proportions.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    world_centre: Vec2,
    pixel_centre: Vec2,
    scale: f32,
}

impl Viewport {
    /// Fits the world box `min..max` inside the pixel box at `corner` of size `size`.
    pub fn fit(min: Vec2, max: Vec2, corner: Vec2, size: Vec2) -> Self {
        let extent = (max - min).max(Vec2::splat(f32::EPSILON));
        Self {
            world_centre: (min + max) * 0.5,
            pixel_centre: corner + size * 0.5,
            scale: (size / extent).min_element(),
        }
    }

    /// Pixel position of a world point.
    pub fn map(&self, p: Vec2) -> Vec2 {
        let d = (p - self.world_centre) * self.scale;
        self.pixel_centre + Vec2::new(d.x, -d.y)
    }

    /// Pixel length of a world length.
    pub fn scale(&self, length: f32) -> f32 {
        length * self.scale
    }
}

/// A view onto a plane of the tour's model space (y up, z forward, x to the character's left).
/// Both keep y up, so side by side they share a vertical axis.
#[derive(Clone, Copy, Debug)]
pub enum Plane {
    /// Looking at the character from the front: x (towards its left) to the right.
    Front,
    /// Looking from the character's right side: z (forward) to the right.
    Side,
}

impl Plane {
    /// Front, then side.
    pub const BOTH: [Plane; 2] = [Plane::Front, Plane::Side];

    /// The point's coordinates in this plane.
    pub fn project(self, p: Vec3) -> Vec2 {
        match self {
            Plane::Front => Vec2::new(p.x, p.y),
            Plane::Side => Vec2::new(p.z, p.y),
        }
    }

    /// A corner label naming the view and its horizontal axis.
    pub fn label(self) -> &'static str {
        match self {
            Plane::Front => "front view   x →",
            Plane::Side => "side view   z (forward) →",
        }
    }
}

fn point_list(points: &[Vec2]) -> String {
    let coords: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.x, p.y))
        .collect();
    coords.join(" ")
}

/// Escapes the characters XML gives a meaning to.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
