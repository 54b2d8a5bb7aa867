//! Section 3: hand IK retargeting, after Unreal's HandIKRetargeting node. A rifle-aiming frame
//! was authored on a taller character with longer arms and then retargeted to ours: the arms
//! (FK) copy the source's joint rotations, so with our shorter bones the hands land elsewhere,
//! while the IK hand bones keep the source's hand positions. Moving the IK bones by the
//! offset between the FK and IK hands puts them back on our hands.

use std::path::Path;
use std::sync::Arc;

use glam::Vec2;
use sinew::{
    HandIkRetargeting, HandIkRetargetingSettings, HandPair, Pose, Quat, Skeleton, Transform, Vec3,
};

use crate::figure::{self, TwoViewPanels, INK, MUTED};
use crate::svg::{Font, Plane, Style, Svg, Viewport};
use crate::table::{Column, Table};

/// Joint names; every parent comes before its children (see [`PARENTS`]).
const JOINTS: [&str; 12] = [
    "root",
    "spine",
    "upperarm_r",
    "lowerarm_r",
    "hand_r",
    "upperarm_l",
    "lowerarm_l",
    "hand_l",
    "ik_hand_root",
    "ik_hand_gun",
    "ik_hand_r",
    "ik_hand_l",
];

/// Parent of each joint in [`JOINTS`]: the body (root > spine > both arms) and, beside it, the
/// IK bones (root > ik_hand_root > ik_hand_gun > both IK hands), as on Unreal's mannequin.
const PARENTS: [i32; 12] = [-1, 0, 1, 2, 3, 1, 5, 6, 0, 8, 9, 9];

/// Body measurements, in metres, that differ between the two characters.
#[derive(Clone, Copy, Debug)]
struct Proportions {
    /// Height of the spine joint (between the shoulders) above the root.
    shoulder_height: f32,
    /// Distance from the spine joint to either shoulder.
    half_shoulder_width: f32,
    upper_arm: f32,
    forearm: f32,
}

/// The character the animation was authored on.
const SOURCE: Proportions = Proportions {
    shoulder_height: 1.45,
    half_shoulder_width: 0.20,
    upper_arm: 0.31,
    forearm: 0.29,
};

/// Our character, shorter and narrower.
const TARGET: Proportions = Proportions {
    shoulder_height: 1.38,
    half_shoulder_width: 0.17,
    upper_arm: 0.27,
    forearm: 0.25,
};

/// The frame of animation: model-space directions of the upper arm and forearm of each arm.
/// The right hand holds the grip by the chest, the left supports the barrel further forward.
const RIGHT_ARM: [Vec3; 2] = [Vec3::new(0.15, -0.85, 0.30), Vec3::new(0.45, 0.20, 0.90)];
const LEFT_ARM: [Vec3; 2] = [Vec3::new(-0.10, -0.70, 0.60), Vec3::new(-0.45, 0.15, 0.90)];

/// Runs the section: builds both characters, applies every setting, prints the table and
/// writes the SVG.
pub fn hand_retarget_section(out_dir: &Path) {
    crate::heading("3. Hand IK retargeting: IK hand bones follow retargeted FK hands");
    let source = Rig::new(SOURCE);
    let mut rig = Rig::new(TARGET);
    rig.copy_ik_bones_from(&source);
    println!(
        "Source character: shoulders {:.2} m high, arms {:.2} + {:.2} m. Ours: {:.2} m, {:.2} + \
         {:.2} m.",
        SOURCE.shoulder_height,
        SOURCE.upper_arm,
        SOURCE.forearm,
        TARGET.shoulder_height,
        TARGET.upper_arm,
        TARGET.forearm
    );
    println!(
        "The IK hand bones sit on the source's hands; the offset moves the listed bones, their \
         children follow,\nand a bone listed with its ancestor moves once. hand_fk_weight picks \
         the hand the offset is measured\nat: 0 the left, 1 the right, 0.5 halfway. Distances \
         in mm.\n"
    );

    let outcomes: Vec<Outcome> = cases().into_iter().map(|case| rig.run(case)).collect();
    print_table(&outcomes);

    let svg = draw(&outcomes, &source.arms());
    crate::write_output(out_dir, "hand_retarget.svg", &svg);
}

/// One setting of the node, which bones it moves, and what its picture shows.
#[derive(Clone, Copy, Debug)]
struct Case {
    /// Which hand the offset is measured at: 0 the left, 1 the right.
    hand_fk_weight: f32,
    /// Scale of each component of the offset.
    per_axis_alpha: Vec3,
    /// Names of the bones the offset moves.
    bones: &'static [&'static str],
    /// What its picture shows, for the panel's caption.
    see: &'static str,
}

impl Case {
    /// "weight 0.5, alpha (1, 0, 1)".
    fn label(&self) -> String {
        let a = self.per_axis_alpha;
        format!(
            "weight {}, alpha ({}, {}, {})",
            self.hand_fk_weight, a.x, a.y, a.z
        )
    }
}

/// The settings: each hand weight with the full offset, then, at weight 0.5, the offset without
/// its vertical part, applied to one IK hand only, and applied to a bone and its parent.
fn cases() -> [Case; 6] {
    let case = |hand_fk_weight, per_axis_alpha, bones, see| Case {
        hand_fk_weight,
        per_axis_alpha,
        bones,
        see,
    };
    [
        case(
            0.0,
            Vec3::ONE,
            &["ik_hand_root"],
            "Measured at the left hand: the left IK hand lands on its FK hand. The right one \
             moves by the same offset (ik_hand_root carries both): the left hand's, not its \
             own, so it stays off.",
        ),
        case(
            0.5,
            Vec3::ONE,
            &["ik_hand_root"],
            "Measured halfway between the hands: the difference is split, and both IK hands \
             end equally close to their FK hands.",
        ),
        case(
            1.0,
            Vec3::ONE,
            &["ik_hand_root"],
            "Measured at the right hand: the right IK hand lands on its FK hand; the left one \
             moves by the right hand's offset, not its own, so it stays off.",
        ),
        case(
            0.5,
            Vec3::new(1.0, 0.0, 1.0),
            &["ik_hand_root"],
            "Alpha y = 0 drops the offset's vertical part: the IK bones move only forward and \
             sideways, and stay above our hands.",
        ),
        case(
            0.5,
            Vec3::ONE,
            &["ik_hand_l"],
            "Only the listed bone moves, with its children (it has none): the left IK hand \
             drops next to our left hand, while the gun and the right IK hand stay on the \
             source's hands.",
        ),
        case(
            0.5,
            Vec3::ONE,
            &["ik_hand_root", "ik_hand_gun"],
            "ik_hand_gun is a child of ik_hand_root, so it moves once, with its parent: the \
             result is panel 2's. Moved twice, the IK bones would land on the dashed outlines, \
             a second offset further.",
        ),
    ]
}

/// Whether `case` lists a bone together with one of its ancestors.
fn lists_ancestor(case: &Case) -> bool {
    let index = |name: &str| {
        JOINTS
            .iter()
            .position(|&j| j == name)
            .unwrap_or_else(|| panic!("{name} is a joint of the rig"))
    };
    let listed: Vec<usize> = case.bones.iter().map(|&b| index(b)).collect();
    listed.iter().any(|&bone| {
        let mut parent = PARENTS[bone];
        while let Ok(p) = usize::try_from(parent) {
            if listed.contains(&p) {
                return true;
            }
            parent = PARENTS[p];
        }
        false
    })
}

/// Model-space positions of the hands and IK bones at one moment.
#[derive(Clone, Copy, Debug)]
struct Hands {
    fk_r: Vec3,
    fk_l: Vec3,
    ik_r: Vec3,
    ik_l: Vec3,
    ik_gun: Vec3,
}

impl Hands {
    /// The same hands with the IK bones moved by `offset`.
    fn moved(&self, offset: Vec3) -> Self {
        Self {
            ik_r: self.ik_r + offset,
            ik_l: self.ik_l + offset,
            ik_gun: self.ik_gun + offset,
            ..*self
        }
    }

    /// How far each IK hand is from its FK hand: (right, left).
    fn gaps(&self) -> (f32, f32) {
        (
            (self.fk_r - self.ik_r).length(),
            (self.fk_l - self.ik_l).length(),
        )
    }
}

/// What applying one case gave.
struct Outcome {
    case: Case,
    /// The model-space offset the node applied.
    offset: Vec3,
    /// The hands and IK bones before and after applying it.
    before: Hands,
    after: Hands,
    /// Model-space positions of both arms' joints, right then left: see [`Rig::arms`].
    arms: [[Vec3; 4]; 2],
}

/// A character: a pose of its skeleton, and which joints are its hands.
#[derive(Clone, Debug)]
struct Rig {
    pose: Pose,
    /// The FK and IK hand joints the offset is measured between.
    hands: HandPair,
}

impl Rig {
    /// A character with `proportions` in the animation frame, its IK bones on its own hands
    /// as the animation was authored: ik_hand_gun (and with it ik_hand_r) on the right hand,
    /// ik_hand_l on the left; ik_hand_root stays at the origin.
    fn new(proportions: Proportions) -> Self {
        let local = local_transforms(proportions);
        let skeleton = Skeleton::new(&PARENTS, &local, Some(&JOINTS))
            .expect("the built-in rigs are valid skeletons");
        let hands = HandPair {
            right_fk: joint(&skeleton, "hand_r"),
            left_fk: joint(&skeleton, "hand_l"),
            right_ik: joint(&skeleton, "ik_hand_r"),
            left_ik: joint(&skeleton, "ik_hand_l"),
        };
        let mut rig = Self {
            pose: Pose::new(Arc::new(skeleton)),
            hands,
        };
        rig.move_to("ik_hand_gun", rig.position("hand_r"));
        rig.move_to("ik_hand_l", rig.position("hand_l"));
        rig
    }

    /// Copies the IK bones' local transforms from `source`'s pose, as retargeting an animation
    /// does: the arms keep their rotations on our shorter bones, the IK bones their positions.
    fn copy_ik_bones_from(&mut self, source: &Rig) {
        for name in ["ik_hand_root", "ik_hand_gun", "ik_hand_r", "ik_hand_l"] {
            let j = joint(self.pose.skeleton(), name) as usize;
            let local = source.pose.local().get(j);
            self.pose
                .edit_local(j, |t| *t = local)
                .expect("a pose's own transform");
        }
    }

    /// Moves the joint called `name` to a model-space position (its children follow).
    fn move_to(&mut self, name: &str, position: Vec3) {
        let j = joint(self.pose.skeleton(), name) as usize;
        self.pose
            .set_model_of(j, &Transform::from_translation(position))
            .expect("the rigs stay within f32 range");
    }

    /// Model-space position of the joint called `name`.
    fn position(&self, name: &str) -> Vec3 {
        let index = joint(self.pose.skeleton(), name);
        self.pose
            .model_of(index as usize)
            .expect("the rigs stay within f32 range")
            .translation
    }

    /// Where the hands and IK bones are now.
    fn hands(&self) -> Hands {
        Hands {
            fk_r: self.position("hand_r"),
            fk_l: self.position("hand_l"),
            ik_r: self.position("ik_hand_r"),
            ik_l: self.position("ik_hand_l"),
            ik_gun: self.position("ik_hand_gun"),
        }
    }

    /// Spine, shoulder, elbow and hand of the right arm, then of the left.
    fn arms(&self) -> [[Vec3; 4]; 2] {
        [
            ["spine", "upperarm_r", "lowerarm_r", "hand_r"].map(|n| self.position(n)),
            ["spine", "upperarm_l", "lowerarm_l", "hand_l"].map(|n| self.position(n)),
        ]
    }

    /// Applies `case` to a fresh copy of the pose and records the hands before and after.
    fn run(&self, case: Case) -> Outcome {
        let retargeter = HandIkRetargeting::new(HandIkRetargetingSettings {
            hand_fk_weight: case.hand_fk_weight,
            per_axis_alpha: case.per_axis_alpha,
        })
        .expect("the tour's retargeting settings are valid");
        let bones: Vec<u32> = case
            .bones
            .iter()
            .map(|name| joint(self.pose.skeleton(), name))
            .collect();
        let mut moved = self.clone();
        let offset = retargeter
            .apply_pose(&mut moved.pose, &self.hands, &bones)
            .expect("the tour's bones and pose are valid");
        Outcome {
            case,
            offset,
            before: self.hands(),
            after: moved.hands(),
            arms: self.arms(),
        }
    }
}

/// Index of the joint called `name`.
fn joint(skeleton: &Skeleton, name: &str) -> u32 {
    let index = skeleton
        .find_joint(name)
        .unwrap_or_else(|| panic!("{name} is a joint of the rig"));
    u32::try_from(index).expect("a twelve-joint rig's indices fit in u32")
}

/// Local transforms of every joint in [`JOINTS`] order, with all IK bones at the origin.
/// Bones run along their joint's local x; the root, spine and IK bones keep the model's axes.
fn local_transforms(p: Proportions) -> Vec<Transform> {
    let mut local = vec![
        Transform::IDENTITY,
        Transform::from_translation(Vec3::new(0.0, p.shoulder_height, 0.0)),
    ];
    local.extend(arm(p, -1.0, RIGHT_ARM));
    local.extend(arm(p, 1.0, LEFT_ARM));
    local.extend([Transform::IDENTITY; 4]);
    local
}

/// Local transforms of one arm (upper arm, forearm, hand) whose bones point along
/// `directions` in model space; `side` is -1 for the right arm (towards -x), 1 for the left.
fn arm(p: Proportions, side: f32, directions: [Vec3; 2]) -> [Transform; 3] {
    let [upper, fore] = directions.map(|d| Quat::from_rotation_arc(Vec3::X, d.normalize()));
    [
        Transform::from_rotation_translation(
            upper,
            Vec3::new(side * p.half_shoulder_width, 0.0, 0.0),
        ),
        Transform::from_rotation_translation(
            upper.conjugate() * fore,
            Vec3::new(p.upper_arm, 0.0, 0.0),
        ),
        Transform::from_translation(Vec3::new(p.forearm, 0.0, 0.0)),
    ]
}

/// Prints one aligned row per case.
fn print_table(outcomes: &[Outcome]) {
    use Column::{Left, Right};
    let table = Table::new([
        Left(27),
        Left(26),
        Left(21),
        Right(8),
        Right(7),
        Right(8),
        Right(7),
    ]);
    table.header([
        "setting",
        "bones moved",
        "offset (x, y, z) mm",
        "R before",
        "R after",
        "L before",
        "L after",
    ]);
    for o in outcomes {
        let (r0, l0) = o.before.gaps();
        let (r1, l1) = o.after.gaps();
        table.row([
            &o.case.label(),
            &o.case.bones.join(", "),
            &offset_mm(o.offset),
            &mm(r0),
            &mm(r1),
            &mm(l0),
            &mm(l1),
        ]);
    }
    println!(
        "\nR, L: distance from the right (left) FK hand to its IK hand bone, before and after."
    );
}

/// A length in metres as millimetres with one decimal, never "-0.0".
fn mm(metres: f32) -> String {
    let text = format!("{:.1}", metres * 1000.0);
    match text.strip_prefix('-') {
        Some(unsigned) if unsigned.trim_matches(['0', '.']).is_empty() => unsigned.to_owned(),
        _ => text,
    }
}

/// An offset in millimetres: "(x, y, z)", each right-aligned to five characters.
fn offset_mm(offset: Vec3) -> String {
    let [x, y, z] = offset.to_array().map(mm);
    format!("({x:>5}, {y:>5}, {z:>5})")
}

// ---------------------------------------------------------------------------------------------
// Picture: one panel per case, each with a front and a side view of the arms at the same scale.

/// Panels two to a row, 560 pixels per metre, with two lines of outcome and up to three of
/// what to see.
const PANELS: TwoViewPanels = TwoViewPanels {
    columns: 2,
    scale: 560.0,
    caption_h: 96.0,
};
/// Spacing of the faint background grid, in metres.
const GRID_STEP: f32 = 0.05;

const BODY: &str = "#475569";
const FK_BLUE: &str = "#2563eb";
const SOURCE_GREY: &str = "#c3cad2";
const BEFORE_GREY: &str = "#8a94a0";
const AFTER_ORANGE: &str = "#ea580c";

/// Everything a panel draws, in model space.
fn panel_points(o: &Outcome, source_arms: &[[Vec3; 4]; 2]) -> Vec<Vec3> {
    let mut points: Vec<Vec3> = o
        .arms
        .iter()
        .chain(source_arms)
        .flatten()
        .copied()
        .collect();
    for h in [o.before, o.after] {
        points.extend([h.ik_r, h.ik_l, h.ik_gun]);
    }
    points
}

/// World bounds of one plane over every panel, padded and snapped outward to the grid.
fn plane_bounds(plane: Plane, outcomes: &[Outcome], source_arms: &[[Vec3; 4]; 2]) -> (Vec2, Vec2) {
    let points = outcomes
        .iter()
        .flat_map(|o| panel_points(o, source_arms))
        .map(|p| plane.project(p));
    let bounds = points.fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(min, max), p| (min.min(p), max.max(p)),
    );
    figure::snap_out(bounds, 0.03, GRID_STEP)
}

/// The whole figure: a title block with a legend, then a grid of panels.
fn draw(outcomes: &[Outcome], source_arms: &[[Vec3; 4]; 2]) -> String {
    PANELS.draw(
        outcomes,
        Plane::BOTH.map(|plane| plane_bounds(plane, outcomes, source_arms)),
        draw_title,
        draw_caption,
        |svg, plane, view, bounds, o| draw_view(svg, plane, view, bounds, o, source_arms),
    )
}

/// Figure title, a one-line explanation and the legend.
fn draw_title(svg: &mut Svg) {
    let mut legend = figure::title_block(
        svg,
        "Sinew hand IK retargeting: moving the IK hand bones onto retargeted FK hands",
        &format!(
            "The IK bones were authored on a taller character (its arms dashed). Offset = (FK − \
             IK) at the weighted hand, times alpha per axis. Grid {} cm.",
            GRID_STEP * 100.0
        ),
    );
    legend.line("our arms (FK)", 125.0, body_style());
    legend.item("FK hand", 90.0, |svg, c| {
        svg.circle(c, 4.5, fk_hand_style());
    });
    legend.line("source's arms", 130.0, source_style());
    legend.item("IK hands and gun before", 195.0, |svg, c| {
        legend_ik_bones(svg, c, Style::fill(BEFORE_GREY));
    });
    legend.item("after", 70.0, |svg, c| {
        legend_ik_bones(svg, c, Style::fill(AFTER_ORANGE));
    });
    legend.item("moved twice (panel 6)", 175.0, |svg, c| {
        legend_ik_bones(svg, c, twice_style());
    });
    legend.item("offset, at the weighted hand", 230.0, |svg, c| {
        svg.arrow(
            c - Vec2::X * 10.0,
            c + Vec2::X * 10.0,
            7.0,
            Style::stroke(INK, 1.5),
        );
    });
}

/// The legend's sample of the IK bones in `style`: the gun line ending in an IK hand's square.
fn legend_ik_bones(svg: &mut Svg, centre: Vec2, style: Style) {
    svg.line(
        centre - Vec2::X * 10.0,
        centre + Vec2::X * 6.0,
        style.line(),
    );
    svg.rect(centre + Vec2::new(2.0, -4.0), Vec2::splat(8.0), 1.0, style);
}

/// A panel's header (number, setting, bones) and caption (offset, hand distances, what to
/// see).
fn draw_caption(svg: &mut Svg, corner: Vec2, panel: Vec2, number: usize, o: &Outcome) {
    TwoViewPanels::header(
        svg,
        corner,
        panel,
        &format!("{number}. {}", o.case.label()),
        &format!("moves {}", o.case.bones.join(" + ")),
    );
    let line1 = PANELS.caption_at(corner, panel, 17.0);
    let [x, y, z] = o.offset.to_array().map(mm);
    svg.text(
        line1,
        &format!("offset ({x}, {y}, {z}) mm"),
        Font::new(13.0, INK).bold(),
    );
    let (r0, l0) = o.before.gaps();
    let (r1, l1) = o.after.gaps();
    svg.text(
        line1 + Vec2::Y * 18.0,
        &format!(
            "IK hand to FK hand: right {} → {} mm, left {} → {} mm",
            mm(r0),
            mm(r1),
            mm(l0),
            mm(l1)
        ),
        Font::new(12.5, MUTED),
    );
    let width = panel.x - 2.0 * TwoViewPanels::PAD;
    figure::caption(svg, line1 + Vec2::Y * 38.0, width, o.case.see);
}

/// One view of one panel: frame, grid, the source's arms, our arms, the IK bones before and
/// after, and the offset arrow.
fn draw_view(
    svg: &mut Svg,
    plane: Plane,
    view: &Viewport,
    (min, max): (Vec2, Vec2),
    o: &Outcome,
    source_arms: &[[Vec3; 4]; 2],
) {
    let top_left = figure::view_frame(svg, view, (min, max), GRID_STEP);
    let project = |p: Vec3| view.map(plane.project(p));

    for arm in source_arms {
        svg.polyline(&arm.map(project), source_style());
    }
    for arm in &o.arms {
        let px = arm.map(project);
        svg.polyline(&px, body_style());
        for &joint in &px[..3] {
            svg.circle(joint, 3.0, Style::fill(BODY));
        }
    }
    draw_ik_bones(svg, &o.before, &project, Style::fill(BEFORE_GREY));
    draw_ik_bones(svg, &o.after, &project, Style::fill(AFTER_ORANGE));
    if lists_ancestor(&o.case) {
        let twice = o.after.moved(o.offset);
        draw_ik_bones(svg, &twice, &project, twice_style());
    }
    for (arm, side) in o.arms.iter().zip(["R", "L"]) {
        let hand = project(arm[3]);
        svg.circle(hand, 5.0, fk_hand_style());
        svg.text(
            hand + Vec2::new(-4.0, 20.0),
            side,
            Font::new(12.0, FK_BLUE).bold().halo(),
        );
    }

    let w = o.case.hand_fk_weight;
    let from = o.before.ik_l.lerp(o.before.ik_r, w);
    svg.arrow(
        project(from),
        project(from + o.offset),
        8.0,
        Style::stroke(INK, 1.5),
    );
    figure::plane_label(svg, top_left, plane);
}

/// The IK bones as the weapon (ik_hand_gun to ik_hand_l) and a square on each IK hand, in
/// `style`: filled squares on a solid line, or outlined ones on a dashed line.
fn draw_ik_bones(svg: &mut Svg, hands: &Hands, project: &dyn Fn(Vec3) -> Vec2, style: Style) {
    svg.line(project(hands.ik_gun), project(hands.ik_l), style.line());
    for p in [hands.ik_r, hands.ik_l] {
        svg.rect(project(p) - 4.0, Vec2::splat(8.0), 1.0, style);
    }
}

/// The IK bones if the offset were applied twice: outlined, dashed.
fn twice_style() -> Style {
    Style::stroke(AFTER_ORANGE, 1.5).dashed("3 2")
}

fn body_style() -> Style {
    Style::stroke(BODY, 2.5)
}

fn source_style() -> Style {
    Style::stroke(SOURCE_GREY, 1.5).dashed("5 4")
}

fn fk_hand_style() -> Style {
    Style::stroke(FK_BLUE, 2.0).filled("white")
}
