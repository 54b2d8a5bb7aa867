// CCD on a Transform chain: Unreal's CCDIK node (start from tail, per-joint rotation limits)
// plus per-joint weights and constraints. One native call per frame (sinew_ccd_solve).

using System;
using System.Collections.Generic;
using UnityEngine;

namespace SinewUnity
{
    /// <summary>CCD tuning of one joint (Unreal's RotationLimitPerJoints, plus damping).</summary>
    [Serializable]
    public struct SinewCcdJoint : IEquatable<SinewCcdJoint>
    {
        [Tooltip("Degrees the joint may turn from its animated rotation per solve; 180 is unlimited.")]
        [Range(0f, 180f)] public float rotationLimit;
        [Tooltip("Fraction of each CCD step this joint takes; below 1 damps it.")]
        [Range(0f, 1f)] public float weight;

        public static SinewCcdJoint Unlimited
        {
            get
            {
                SinewCcdJoint j;
                j.rotationLimit = 180f;
                j.weight = 1f;
                return j;
            }
        }

        public bool Equals(SinewCcdJoint o) { return rotationLimit == o.rotationLimit && weight == o.weight; }
        public override bool Equals(object o) { return o is SinewCcdJoint && Equals((SinewCcdJoint)o); }
        public override int GetHashCode() { return rotationLimit.GetHashCode() ^ (weight.GetHashCode() * 397); }
    }

    [AddComponentMenu("Sinew/Sinew CCD Chain")]
    [DefaultExecutionOrder(SinewExecutionOrder.Chain)]
    public sealed class SinewCcdChain : SinewChainIK
    {
        [Header("CCD")]
        [Tooltip("Each sweep starts at the joint nearest the tip (Unreal's bStartFromTail).")]
        public bool startFromTail = true;
        [Tooltip("The root keeps its rotation, as Unreal's node always does.")]
        public bool fixRoot;
        [Tooltip("Per-joint rotation limit and weight, root first (missing entries: unlimited, weight 1).")]
        public List<SinewCcdJoint> jointTuning = new List<SinewCcdJoint>();

        Sinew.CcdSettings m_Applied;
        SinewCcdJoint[] m_AppliedTuning = new SinewCcdJoint[0];

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.Ccd Solver { get { return (Sinew.Ccd)NativeSolver; } }

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.CcdSettings BuildSettings()
        {
            Sinew.CcdSettings s = SinewDefaults.Ccd;
            s.Precision = Mathf.Max(precision, 1e-6f);
            s.RelativePrecision = relativePrecision;
            s.MaxIterations = Mathf.Max(maxIterations, 1);
            s.StartFromTail = startFromTail;
            s.FixRoot = fixRoot;
            s.StopWhenStalled = stopWhenStalled;
            s.EndRotation = tipRotation;
            return s;
        }

        protected override Sinew.ChainSolver CreateSolver(int maxJoints)
        {
            m_Applied = BuildSettings();
            m_AppliedTuning = new SinewCcdJoint[0];
            return new Sinew.Ccd(maxJoints, m_Applied);
        }

        protected override void OnChainBuilt(int count)
        {
            while (jointTuning.Count < count)
            {
                jointTuning.Add(SinewCcdJoint.Unlimited);
            }
            m_AppliedTuning = new SinewCcdJoint[count];
            for (int i = 0; i < count; i++)
            {
                m_AppliedTuning[i] = SinewCcdJoint.Unlimited;
                Solver.SetJoint(i, 180f, 1f);
            }
        }

        protected override void SyncSettings(bool force)
        {
            Sinew.CcdSettings s = BuildSettings();
            if (force || !s.Equals(m_Applied))
            {
                Solver.Settings = s;
                m_Applied = s;
            }
            int n = m_AppliedTuning.Length;
            for (int i = 0; i < n; i++)
            {
                SinewCcdJoint want = i < jointTuning.Count ? jointTuning[i] : SinewCcdJoint.Unlimited;
                want.rotationLimit = Mathf.Clamp(want.rotationLimit, 0f, 180f);
                want.weight = Mathf.Clamp01(want.weight);
                if (!want.Equals(m_AppliedTuning[i]))
                {
                    Solver.SetJoint(i, want.rotationLimit, want.weight);
                    m_AppliedTuning[i] = want;
                }
            }
        }

        protected override void OnValidate()
        {
            base.OnValidate();
            if (jointTuning == null)
            {
                jointTuning = new List<SinewCcdJoint>();
            }
            int n = jointLimits != null ? jointLimits.Count : 0;
            while (jointTuning.Count < n)
            {
                jointTuning.Add(SinewCcdJoint.Unlimited);
            }
        }
    }
}
