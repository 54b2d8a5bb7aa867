// FABRIK on a Transform chain (spines, tentacles, tails, necks): Unreal's FABRIK node plus
// per-joint constraints. One native call per frame (sinew_fabrik_solve).

using UnityEngine;

namespace SinewUnity
{
    [AddComponentMenu("Sinew/Sinew FABRIK Chain")]
    [DefaultExecutionOrder(SinewExecutionOrder.Chain)]
    public sealed class SinewFabrikChain : SinewChainIK
    {
        Sinew.Fabrik m_Solver;
        Sinew.FabrikSettings m_Applied;

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.Fabrik Solver { get { return m_Solver; } }

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.FabrikSettings BuildSettings()
        {
            Sinew.FabrikSettings s = SinewDefaults.Fabrik;
            s.Precision = Mathf.Max(precision, 1e-6f);
            s.RelativePrecision = relativePrecision;
            s.MaxIterations = Mathf.Max(maxIterations, 1);
            s.StopWhenStalled = stopWhenStalled;
            s.EndRotation = tipRotation;
            return s;
        }

        protected override bool HasSolver { get { return m_Solver != null; } }

        protected override int SolverCapacity { get { return m_Solver != null ? m_Solver.MaxJoints : 0; } }

        protected override void CreateSolver(int maxJoints)
        {
            m_Applied = BuildSettings();
            m_Solver = new Sinew.Fabrik(maxJoints, m_Applied);
        }

        protected override void DisposeSolver()
        {
            if (m_Solver != null)
            {
                m_Solver.Dispose();
                m_Solver = null;
            }
        }

        protected override void SyncSettings(bool force)
        {
            Sinew.FabrikSettings s = BuildSettings();
            if (force || s.Precision != m_Applied.Precision || s.RelativePrecision != m_Applied.RelativePrecision ||
                s.MaxIterations != m_Applied.MaxIterations || s.StopWhenStalled != m_Applied.StopWhenStalled ||
                s.EndRotation != m_Applied.EndRotation)
            {
                m_Solver.Settings = s;
                m_Applied = s;
            }
        }

        protected override void SetConstraint(int joint, Sinew.JointConstraint constraint)
        {
            m_Solver.SetConstraint(joint, constraint);
        }

        protected override void ClearConstraint(int joint)
        {
            m_Solver.ClearConstraint(joint);
        }

        protected override Sinew.IkResult Solve(Sinew.Transform[] chain, int count, Sinew.Vec3 effector,
            Sinew.Quat? effectorRotation, Sinew.Quat? rootParentRotation)
        {
            return m_Solver.Solve(chain, count, effector, effectorRotation, rootParentRotation);
        }
    }
}
