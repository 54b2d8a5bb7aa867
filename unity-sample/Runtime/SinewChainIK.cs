// Base of the chain components (FABRIK, CCD): discovers the joints from root to tip in the
// hierarchy, owns the buffers (allocated when the chain is built, never per frame), keeps the
// native solver's settings and joint constraints in sync with the inspector, and runs one
// native solve per LateUpdate.

using System;
using System.Collections.Generic;
using UnityEngine;

namespace SinewUnity
{
    public abstract class SinewChainIK : MonoBehaviour
    {
        [Header("Chain")]
        [Tooltip("First joint of the chain; it stays in place (it may rotate).")]
        public Transform root;
        [Tooltip("Last joint: a descendant of Root. Every transform between them is a joint.")]
        public Transform tip;

        [Header("Goal")]
        [Tooltip("Where the tip goes.")]
        public Transform target;
        [Tooltip("Blend of the solved chain over the animated one, per joint in local space.")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("Keep Local: the tip keeps its local rotation. Keep Model: its world rotation. " +
            "Copy Effector: it takes the target's rotation.")]
        public Sinew.EndRotation tipRotation = Sinew.EndRotation.KeepLocal;

        [Header("Solver")]
        [Tooltip("Most iterations per frame.")]
        [Min(1)] public int maxIterations = 10;
        [Tooltip("Reach tolerance: a fraction of the chain length when Relative Precision is on, else in metres.")]
        [Min(1e-6f)] public float precision = 1e-3f;
        public bool relativePrecision = true;
        [Tooltip("Stop when an iteration improves the error by less than 0.1 %.")]
        public bool stopWhenStalled = true;

        [Header("Joint limits (root first, one per joint)")]
        [Tooltip("Measured from each joint's local rotation when the component was enabled.")]
        public List<SinewJointLimit> jointLimits = new List<SinewJointLimit>();

        [Header("Gizmos")]
        [Min(0f)] public float gizmoSize = 0.03f;
        public bool drawLimits = true;

        /// <summary>Outcome of the last solve.</summary>
        public Sinew.IkResult LastResult { get; private set; }

        /// <summary>Joints of the chain, root first (empty until the chain is built).</summary>
        public IReadOnlyList<Transform> Joints { get { return m_Joints; } }

        /// <summary>Number of joints in the built chain.</summary>
        public int JointCount { get { return m_Joints.Length; } }

        Sinew.ChainSolver m_Solver;
        Transform[] m_Joints = new Transform[0];
        Sinew.Transform[] m_Chain;
        Quaternion[] m_Rest;
        Vector3[] m_BoneLocal;
        Quaternion[] m_InputLocal;
        SinewJointLimit[] m_AppliedLimits;
        bool[] m_LimitApplied;
        Transform m_BuiltRoot, m_BuiltTip;
        Transform m_FailedRoot, m_FailedTip;
        bool m_ErrorLogged;
        static readonly List<Transform> s_Scratch = new List<Transform>();

        // ---- what a solver adds -------------------------------------------------------------

        /// <summary>The native solver while enabled (null otherwise).</summary>
        protected Sinew.ChainSolver NativeSolver { get { return m_Solver; } }
        /// <summary>A native solver for chains of up to <paramref name="maxJoints"/>, with the inspector's settings.</summary>
        protected abstract Sinew.ChainSolver CreateSolver(int maxJoints);
        /// <summary>Pushes the inspector settings to the solver when they changed.</summary>
        protected abstract void SyncSettings(bool force);
        /// <summary>Called after the chain is (re)built with its joint count.</summary>
        protected virtual void OnChainBuilt(int count) { }

        void DisposeSolver()
        {
            if (m_Solver != null)
            {
                m_Solver.Dispose();
                m_Solver = null;
            }
        }

        // ---- lifecycle ----------------------------------------------------------------------

        protected virtual void OnEnable()
        {
            if (!SinewRuntime.EnsureLoaded(this))
            {
                enabled = false;
                return;
            }
            m_ErrorLogged = false;
            TryBuild();
        }

        protected virtual void OnDisable()
        {
            DisposeSolver();
            m_BuiltRoot = null;
            m_BuiltTip = null;
            m_FailedRoot = null;
            m_FailedTip = null;
        }

        /// <summary>
        /// Re-reads the chain from the hierarchy and recaptures each joint's rest rotation (the
        /// centre of its limits) from the current pose. Allocates; call it when the rig changes.
        /// </summary>
        public void Rebuild()
        {
            m_BuiltRoot = null;
            m_BuiltTip = null;
            m_FailedRoot = null;
            m_FailedTip = null;
            TryBuild();
        }

        /// <summary>
        /// Collects the joints from <paramref name="root"/> to <paramref name="tip"/> into
        /// <paramref name="joints"/>; false when the tip is not below the root or the chain has
        /// fewer than two joints.
        /// </summary>
        public static bool Discover(Transform root, Transform tip, List<Transform> joints)
        {
            joints.Clear();
            if (root == null || tip == null)
            {
                return false;
            }
            for (Transform t = tip; t != null; t = t.parent)
            {
                joints.Add(t);
                if (t == root)
                {
                    joints.Reverse();
                    return joints.Count >= 2;
                }
            }
            joints.Clear();
            return false;
        }

        bool TryBuild()
        {
            if (m_BuiltRoot == root && m_BuiltTip == tip && m_BuiltRoot != null && m_Solver != null)
            {
                return true;
            }
            // A chain that failed is not retried (and reallocated) every frame: only once its
            // ends change or Rebuild is called.
            if (m_FailedRoot == root && m_FailedTip == tip && m_FailedRoot != null)
            {
                return false;
            }
            if (!Discover(root, tip, s_Scratch))
            {
                if (root != null && tip != null)
                {
                    m_FailedRoot = root;
                    m_FailedTip = tip;
                    SinewRuntime.Report(new ArgumentException(
                        "Tip must be a descendant of Root, at least one level below it."), this, ref m_ErrorLogged);
                }
                return false;
            }
            int n = s_Scratch.Count;
            m_Joints = s_Scratch.ToArray();
            m_Chain = new Sinew.Transform[n];
            m_Rest = new Quaternion[n];
            m_BoneLocal = new Vector3[n];
            m_InputLocal = new Quaternion[n];
            m_AppliedLimits = new SinewJointLimit[n];
            m_LimitApplied = new bool[n];
            for (int i = 0; i < n; i++)
            {
                m_Rest[i] = m_Joints[i].localRotation;
                m_BoneLocal[i] = BoneLocal(m_Joints, i);
            }
            PadLimits(n);
            try
            {
                if (m_Solver == null || m_Solver.MaxJoints < n)
                {
                    DisposeSolver();
                    m_Solver = CreateSolver(n);
                }
                for (int i = 0; i < n; i++)
                {
                    m_Solver.ClearConstraint(i);
                }
                OnChainBuilt(n);
                SyncSettings(true);
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
                DisposeSolver();
                m_FailedRoot = root;
                m_FailedTip = tip;
                return false;
            }
            m_FailedRoot = null;
            m_FailedTip = null;
            m_BuiltRoot = root;
            m_BuiltTip = tip;
            return true;
        }

        /// <summary>The bone leaving joint <paramref name="i"/>, in its local frame.</summary>
        static Vector3 BoneLocal(IList<Transform> joints, int i)
        {
            if (i + 1 < joints.Count)
            {
                return joints[i + 1].localPosition;
            }
            // The tip has no next joint: continue the last bone's direction.
            Transform t = joints[i];
            Vector3 along = t.position - joints[i - 1].position;
            return Quaternion.Inverse(t.rotation) * along;
        }

        void PadLimits(int n)
        {
            if (jointLimits == null)
            {
                jointLimits = new List<SinewJointLimit>();
            }
            while (jointLimits.Count < n)
            {
                jointLimits.Add(SinewJointLimit.Free);
            }
        }

        void SyncLimits()
        {
            int n = m_Joints.Length;
            int listed = jointLimits != null ? jointLimits.Count : 0;
            for (int i = 0; i < n; i++)
            {
                SinewJointLimit want = i < listed ? jointLimits[i] : SinewJointLimit.Free;
                bool active = want.type != SinewJointLimitType.None;
                if (m_LimitApplied[i] == active && (!active || want.Equals(m_AppliedLimits[i])))
                {
                    continue;
                }
                if (active)
                {
                    m_Solver.SetConstraint(i, want.ToConstraint(m_Rest[i], want.ResolveAxis(m_BoneLocal[i])));
                }
                else
                {
                    m_Solver.ClearConstraint(i);
                }
                m_AppliedLimits[i] = want;
                m_LimitApplied[i] = active;
            }
        }

        protected virtual void LateUpdate()
        {
            if (target == null || weight <= 0f || !TryBuild())
            {
                return;
            }
            try
            {
                SyncSettings(false);
                SyncLimits();

                int n = m_Joints.Length;
                Vector3 origin = m_Joints[0].position;
                for (int i = 0; i < n; i++)
                {
                    Transform j = m_Joints[i];
                    m_InputLocal[i] = j.localRotation;
                    m_Chain[i] = new Sinew.Transform(j.position - origin, j.rotation);
                }
                Transform parent = m_Joints[0].parent;
                Quaternion parentRotation = parent != null ? parent.rotation : Quaternion.identity;
                Sinew.Quat? effectorRotation = null;
                if (tipRotation == Sinew.EndRotation.CopyEffector)
                {
                    effectorRotation = (Sinew.Quat)target.rotation;
                }

                LastResult = m_Solver.Solve(m_Chain, n, target.position - origin, effectorRotation,
                    parent != null ? (Sinew.Quat)parentRotation : (Sinew.Quat?)null);

                // Back to local rotations, each relative to the previous joint's solved rotation,
                // blended with the input by weight (Unreal's alpha).
                Quaternion parentWorld = parentRotation;
                for (int i = 0; i < n; i++)
                {
                    Quaternion world = m_Chain[i].Rotation;
                    Quaternion local = Quaternion.Inverse(parentWorld) * world;
                    parentWorld = world;
                    m_Joints[i].localRotation = weight >= 1f ? local : Quaternion.Slerp(m_InputLocal[i], local, weight);
                }
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
        }

        protected virtual void OnValidate()
        {
            // Keep one limit per joint so the list lines up with the chain in the inspector.
            if (Discover(root, tip, s_Scratch))
            {
                PadLimits(s_Scratch.Count);
            }
        }

        protected virtual void OnDrawGizmosSelected()
        {
            bool built = m_BuiltRoot != null && m_BuiltRoot == root && m_BuiltTip == tip;
            IList<Transform> joints = built ? (IList<Transform>)m_Joints : s_Scratch;
            if (!built && !Discover(root, tip, s_Scratch))
            {
                return;
            }
            int n = joints.Count;
            for (int i = 0; i + 1 < n; i++)
            {
                SinewGizmos.Bone(joints[i].position, joints[i + 1].position, gizmoSize);
            }
            Gizmos.DrawWireSphere(joints[n - 1].position, gizmoSize);
            SinewGizmos.Target(target, gizmoSize * 1.5f);
            if (!drawLimits || jointLimits == null)
            {
                return;
            }
            for (int i = 0; i < n && i < jointLimits.Count; i++)
            {
                Transform j = joints[i];
                Quaternion parentRotation = j.parent != null ? j.parent.rotation : Quaternion.identity;
                // While solving, limits are centred on the rotations captured at OnEnable.
                Quaternion reference = built ? m_Rest[i] : j.localRotation;
                Vector3 bone = built ? m_BoneLocal[i] : BoneLocal(joints, i);
                float length = Mathf.Max(bone.magnitude * 0.5f, gizmoSize * 4f);
                SinewGizmos.Limit(jointLimits[i], j.position, parentRotation, reference, bone, length);
            }
        }
    }
}
