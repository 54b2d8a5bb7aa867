// FABRIK on a Transform chain (spines, tentacles, tails, necks): Unreal's FABRIK node plus
// per-joint constraints. One native call per frame (sinew_fabrik_solve).

using UnityEngine;

namespace SinewUnity
{
    [AddComponentMenu("Sinew/Sinew FABRIK Chain")]
    [DefaultExecutionOrder(SinewExecutionOrder.Chain)]
    public sealed class SinewFabrikChain : SinewChainIK
    {
        Sinew.FabrikSettings m_Applied;

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.Fabrik Solver { get { return (Sinew.Fabrik)NativeSolver; } }

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

        protected override Sinew.ChainSolver CreateSolver(int maxJoints)
        {
            m_Applied = BuildSettings();
            return new Sinew.Fabrik(maxJoints, m_Applied);
        }

        protected override void SyncSettings(bool force)
        {
            Sinew.FabrikSettings s = BuildSettings();
            if (force || !s.Equals(m_Applied))
            {
                Solver.Settings = s;
                m_Applied = s;
            }
        }
    }
}
