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

    /// Both solvers with the same common settings.
    pub fn both(
        max_iterations: u32,
        stalled: bool,
        end: EndRotation,
        max_joints: usize,
    ) -> [Self; 2] {
        [
            Self::fabrik(
                FabrikSettings {
                    end_rotation: end,
                    ..fabrik_settings(max_iterations, stalled)
                },
                max_joints,
            ),
            Self::ccd(
                CcdSettings {
                    end_rotation: end,
                    ..ccd_settings(max_iterations, stalled)
                },
                max_joints,
            ),
        ]
    }

    pub fn name(&self) -> &'static str {
        match self {
            Self::Fabrik(_) => "FABRIK",
            Self::Ccd(_) => "CCD",
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
