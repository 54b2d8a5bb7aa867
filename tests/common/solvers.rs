//! FABRIK and CCD behind one interface, for tests that run the same checks on both.

use sinew::{
    Ccd, CcdSettings, ChainTarget, EndRotation, Fabrik, FabrikSettings, IkResult, JointConstraint,
    Pose, Quat, Transform,
};

/// Default FABRIK settings with another iteration budget and stall rule.
pub fn fabrik_settings(max_iterations: u32, stop_when_stalled: bool) -> FabrikSettings {
    FabrikSettings {
        max_iterations,
        stop_when_stalled,
        ..FabrikSettings::default()
    }
}

/// Default CCD settings with another iteration budget and stall rule.
pub fn ccd_settings(max_iterations: u32, stop_when_stalled: bool) -> CcdSettings {
    CcdSettings {
        max_iterations,
        stop_when_stalled,
        ..CcdSettings::default()
    }
}

/// Both solvers' default settings with another iteration budget, stall rule and end rotation.
pub fn common_settings(
    max_iterations: u32,
    stalled: bool,
    end: EndRotation,
) -> (FabrikSettings, CcdSettings) {
    let fabrik = FabrikSettings {
        end_rotation: end,
        ..fabrik_settings(max_iterations, stalled)
    };
    let ccd = CcdSettings {
        end_rotation: end,
        ..ccd_settings(max_iterations, stalled)
    };
    (fabrik, ccd)
}

/// Which chain solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Fabrik,
    Ccd,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Fabrik, Kind::Ccd];
}

/// Either solver behind one interface.
pub enum Solver {
    Fabrik(Fabrik),
    Ccd(Ccd),
}

impl Solver {
    pub fn fabrik(settings: FabrikSettings, max_joints: usize) -> Self {
        Self::Fabrik(Fabrik::new(settings, max_joints).expect("valid FABRIK settings"))
    }

    pub fn ccd(settings: CcdSettings, max_joints: usize) -> Self {
        Self::Ccd(Ccd::new(settings, max_joints).expect("valid CCD settings"))
    }

    /// A solver of `kind`: FABRIK with `fabrik`, CCD with `ccd` (the other settings unused).
    pub fn try_of(
        kind: Kind,
        fabrik: FabrikSettings,
        ccd: CcdSettings,
        max_joints: usize,
    ) -> sinew::Result<Self> {
        Ok(match kind {
            Kind::Fabrik => Self::Fabrik(Fabrik::new(fabrik, max_joints)?),
            Kind::Ccd => Self::Ccd(Ccd::new(ccd, max_joints)?),
        })
    }

    /// [`Solver::try_of`] with valid settings.
    pub fn of(kind: Kind, fabrik: FabrikSettings, ccd: CcdSettings, max_joints: usize) -> Self {
        Self::try_of(kind, fabrik, ccd, max_joints).expect("valid settings")
    }

    /// A solver of `kind` with default settings but the common ones given here.
    pub fn new(
        kind: Kind,
        max_iterations: u32,
        stalled: bool,
        end: EndRotation,
        max_joints: usize,
    ) -> Self {
        let (fabrik, ccd) = common_settings(max_iterations, stalled, end);
        Self::of(kind, fabrik, ccd, max_joints)
    }

    /// Both solvers with the same common settings.
    pub fn both(
        max_iterations: u32,
        stalled: bool,
        end: EndRotation,
        max_joints: usize,
    ) -> [Self; 2] {
        Kind::ALL.map(|kind| Self::new(kind, max_iterations, stalled, end, max_joints))
    }

    pub fn kind(&self) -> Kind {
        match self {
            Self::Fabrik(_) => Kind::Fabrik,
            Self::Ccd(_) => Kind::Ccd,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Fabrik(_) => "FABRIK",
            Self::Ccd(_) => "CCD",
        }
    }

    /// Replaces the settings with `fabrik` or `ccd`, whichever is this solver's.
    pub fn set_settings(&mut self, fabrik: FabrikSettings, ccd: CcdSettings) -> sinew::Result<()> {
        match self {
            Self::Fabrik(s) => s.set_settings(fabrik),
            Self::Ccd(s) => s.set_settings(ccd),
        }
    }

    /// Whether this solver's settings are `fabrik` or `ccd`, whichever is its kind's.
    pub fn has_settings(&self, fabrik: &FabrikSettings, ccd: &CcdSettings) -> bool {
        match self {
            Self::Fabrik(s) => s.settings() == fabrik,
            Self::Ccd(s) => s.settings() == ccd,
        }
    }

    /// Reach tolerance for a chain of total length `length`.
    pub fn tolerance(&self, length: f32) -> f32 {
        let (p, rel) = match self {
            Self::Fabrik(s) => (s.settings().precision, s.settings().relative_precision),
            Self::Ccd(s) => (s.settings().precision, s.settings().relative_precision),
        };
        if rel {
            p * length
        } else {
            p
        }
    }

    pub fn solve(
        &mut self,
        chain: &mut [Transform],
        root_parent: Quat,
        target: &ChainTarget,
    ) -> sinew::Result<IkResult> {
        match self {
            Self::Fabrik(s) => s.solve(chain, root_parent, target),
            Self::Ccd(s) => s.solve(chain, root_parent, target),
        }
    }

    pub fn solve_pose(
        &mut self,
        pose: &mut Pose,
        joints: &[u32],
        target: &ChainTarget,
    ) -> sinew::Result<IkResult> {
        match self {
            Self::Fabrik(s) => s.solve_pose(pose, joints, target),
            Self::Ccd(s) => s.solve_pose(pose, joints, target),
        }
    }

    pub fn set_constraint(
        &mut self,
        joint: usize,
        c: Option<JointConstraint>,
    ) -> sinew::Result<()> {
        match self {
            Self::Fabrik(s) => s.set_constraint(joint, c),
            Self::Ccd(s) => s.set_constraint(joint, c),
        }
    }
}
