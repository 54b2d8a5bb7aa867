// Multi-effector FABRIK on a Transform tree (a spine reaching with both hands, a palm with its
// fingertips): every effector toward its own target at once, branches meeting at the weighted
// centroid of where they pull. One native call per frame (sinew_multi_fabrik_solve).

using System;
using System.Collections.Generic;
using UnityEngine;

namespace SinewUnity
{
    /// <summary>One effector of a <see cref="SinewMultiEffectorFabrik"/>: a joint ending a branch, and its target.</summary>
    [Serializable]
    public struct SinewEffector
    {
        [Tooltip("Joint ending a branch: below Root, neither above nor below another effector.")]
        public Transform bone;
        [Tooltip("Where the joint goes (none: the effector pulls nothing).")]
        public Transform target;
        [Tooltip("How hard it pulls where branches meet, relative to the others; 0: its branch keeps the animated rotations.")]
        [Min(0f)] public float weight;
        [Tooltip("The joint takes the target's rotation; otherwise the component's End Rotation applies.")]
        public bool useRotation;
    }

    [AddComponentMenu("Sinew/Sinew Multi-Effector FABRIK")]
    [DefaultExecutionOrder(SinewExecutionOrder.Chain)]
    public sealed class SinewMultiEffectorFabrik : MonoBehaviour
    {
        [Header("Tree")]
        [Tooltip("Root of the tree, an ancestor of every effector; it stays in place (it may rotate).")]
        public Transform root;
        [Tooltip("The effectors; the tree is Root, them and every joint between.")]
        public List<SinewEffector> effectors = new List<SinewEffector>();

        [Header("Goal")]
        [Tooltip("Blend of the solved tree over the animated one, per joint in local space.")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("Rotation of effectors without Use Rotation. Keep Local: their local rotation; Keep Model: their world rotation.")]
        public Sinew.EndRotation endRotation = Sinew.EndRotation.KeepLocal;

        [Header("Solver")]
        [Tooltip("Most iterations of an attempt per frame; a solve that stops short of targets it may reach retries, up to six attempts.")]
        [Min(1)] public int maxIterations = 10;
        [Tooltip("Reach tolerance of every effector: a fraction of the tree's size when Relative Precision is on, else in metres.")]
        [Min(1e-6f)] public float precision = 1e-3f;
        public bool relativePrecision = true;
        [Tooltip("Stop when two iterations running each improve the error by less than 0.1 %.")]
        public bool stopWhenStalled = true;

        [Header("Gizmos")]
        [Min(0f)] public float gizmoSize = 0.03f;

        /// <summary>Outcome of the last solve, one per effector (empty until the tree is built).</summary>
        public IReadOnlyList<Sinew.IkResult> LastResults { get { return m_Results; } }

        /// <summary>Joints of the tree, parents before children, the root first (empty until built).</summary>
        public IReadOnlyList<Transform> Joints { get { return m_Joints; } }

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.MultiFabrik Solver { get { return m_Solver; } }

        Sinew.MultiFabrik m_Solver;
        Sinew.Skeleton m_Skeleton;
        Sinew.MultiFabrikSettings m_Applied;
        Transform[] m_Joints = new Transform[0];
        int[] m_Parents;
        int[] m_EffectorJoints;
        Sinew.Transform[] m_Model;
        Sinew.EffectorTarget[] m_Targets;
        Sinew.IkResult[] m_Results = new Sinew.IkResult[0];
        Quaternion[] m_InputLocal;
        Transform[] m_BuiltFor;
        bool m_BuildFailed;
        bool m_ErrorLogged;
        static readonly List<Transform> s_Joints = new List<Transform>();
        static readonly List<Transform> s_Path = new List<Transform>();

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.MultiFabrikSettings BuildSettings()
        {
            Sinew.MultiFabrikSettings s = Sinew.MultiFabrikSettings.Default;
            s.Precision = Mathf.Max(precision, 1e-6f);
            s.RelativePrecision = relativePrecision;
            s.MaxIterations = Mathf.Max(maxIterations, 1);
            s.StopWhenStalled = stopWhenStalled;
            s.EndRotation = endRotation;
            return s;
        }

        /// <summary>
        /// Collects the tree of <paramref name="root"/> and the effector joints into
        /// <paramref name="joints"/>, each path root first so parents come before children;
        /// false when an effector is missing, is the root or is not below it.
        /// </summary>
        public static bool Discover(Transform root, IList<SinewEffector> effectors, List<Transform> joints)
        {
            joints.Clear();
            if (root == null || effectors == null || effectors.Count == 0)
            {
                return false;
            }
            joints.Add(root);
            for (int k = 0; k < effectors.Count; k++)
            {
                Transform bone = effectors[k].bone;
                if (bone == null || bone == root)
                {
                    joints.Clear();
                    return false;
                }
                s_Path.Clear();
                Transform t = bone;
                for (; t != null && !joints.Contains(t); t = t.parent)
                {
                    s_Path.Add(t);
                }
                if (t == null || (t != root && !IsBelow(t, root)))
                {
                    joints.Clear();
                    return false;
                }
                for (int i = s_Path.Count - 1; i >= 0; i--)
                {
                    joints.Add(s_Path[i]);
                }
            }
            return true;
        }

        static bool IsBelow(Transform t, Transform root)
        {
            for (Transform p = t.parent; p != null; p = p.parent)
            {
                if (p == root)
                {
                    return true;
                }
            }
            return false;
        }

        void OnEnable()
        {
            if (!SinewRuntime.EnsureLoaded(this))
            {
                enabled = false;
                return;
            }
            m_ErrorLogged = false;
            Rebuild();
        }

        void OnDisable()
        {
            DisposeNative();
            m_BuiltFor = null;
        }

        void DisposeNative()
        {
            if (m_Solver != null)
            {
                m_Solver.Dispose();
                m_Solver = null;
            }
            if (m_Skeleton != null)
            {
                m_Skeleton.Dispose();
                m_Skeleton = null;
            }
        }

        /// <summary>Re-reads the tree from the hierarchy. Allocates; call it when the rig or the effector joints change.</summary>
        public void Rebuild()
        {
            m_BuiltFor = null;
            m_BuildFailed = false;
            TryBuild();
        }

        bool BuiltForCurrent()
        {
            if (m_BuiltFor == null || m_BuiltFor.Length != effectors.Count + 1 || m_BuiltFor[0] != root)
            {
                return false;
            }
            for (int k = 0; k < effectors.Count; k++)
            {
                if (m_BuiltFor[k + 1] != effectors[k].bone)
                {
                    return false;
                }
            }
            return true;
        }

        bool TryBuild()
        {
            if (BuiltForCurrent())
            {
                return !m_BuildFailed;
            }
            // A tree that failed is not retried (and reallocated) every frame: only once its
            // joints change or Rebuild is called.
            m_BuiltFor = new Transform[effectors.Count + 1];
            m_BuiltFor[0] = root;
            for (int k = 0; k < effectors.Count; k++)
            {
                m_BuiltFor[k + 1] = effectors[k].bone;
            }
            DisposeNative();
            m_BuildFailed = true;
            if (!Discover(root, effectors, s_Joints))
            {
                if (root != null && effectors.Count > 0)
                {
                    SinewRuntime.Report(new ArgumentException(
                        "Every effector must be a descendant of Root."), this, ref m_ErrorLogged);
                }
                return false;
            }
            int n = s_Joints.Count;
            int m = effectors.Count;
            m_Joints = s_Joints.ToArray();
            m_Parents = new int[n];
            Sinew.Transform[] rest = new Sinew.Transform[n];
            for (int i = 0; i < n; i++)
            {
                m_Parents[i] = i == 0 ? -1 : Array.IndexOf(m_Joints, m_Joints[i].parent);
                rest[i] = Sinew.Transform.Identity; // the solve reads only the hierarchy
            }
            m_EffectorJoints = new int[m];
            for (int k = 0; k < m; k++)
            {
                m_EffectorJoints[k] = Array.IndexOf(m_Joints, effectors[k].bone);
            }
            m_Model = new Sinew.Transform[n];
            m_InputLocal = new Quaternion[n];
            m_Targets = new Sinew.EffectorTarget[m];
            m_Results = new Sinew.IkResult[m];
            try
            {
                m_Skeleton = new Sinew.Skeleton(m_Parents, rest);
                m_Applied = BuildSettings();
                m_Solver = new Sinew.MultiFabrik(n, m, m_Applied);
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
                DisposeNative();
                return false;
            }
            m_BuildFailed = false;
            return true;
        }

        void LateUpdate()
        {
            if (weight <= 0f || !TryBuild())
            {
                return;
            }
            try
            {
                Sinew.MultiFabrikSettings s = BuildSettings();
                if (!s.Equals(m_Applied))
                {
                    m_Solver.Settings = s;
                    m_Applied = s;
                }

                int n = m_Joints.Length;
                Vector3 origin = m_Joints[0].position;
                bool pulls = false;
                for (int k = 0; k < m_Targets.Length; k++)
                {
                    SinewEffector e = effectors[k];
                    float w = e.target != null ? Mathf.Max(e.weight, 0f) : 0f;
                    pulls |= w > 0f;
                    Vector3 goal = e.target != null ? e.target.position - origin : m_Joints[m_EffectorJoints[k]].position - origin;
                    Sinew.EffectorTarget t = new Sinew.EffectorTarget(goal, w);
                    m_Targets[k] = e.useRotation && e.target != null ? t.WithRotation(e.target.rotation) : t;
                }
                if (!pulls)
                {
                    return; // nothing pulls: the animated pose stays (Sinew refuses all-zero weights)
                }
                for (int i = 0; i < n; i++)
                {
                    Transform j = m_Joints[i];
                    m_InputLocal[i] = j.localRotation;
                    m_Model[i] = new Sinew.Transform(j.position - origin, j.rotation);
                }

                m_Solver.Solve(m_Skeleton, m_Model, 0, m_EffectorJoints, m_Targets, m_Results);

                // Back to local rotations, each relative to its parent's solved rotation, blended
                // with the input by weight.
                Transform above = m_Joints[0].parent;
                for (int i = 0; i < n; i++)
                {
                    Quaternion parentWorld = i == 0
                        ? (above != null ? above.rotation : Quaternion.identity)
                        : (Quaternion)m_Model[m_Parents[i]].Rotation;
                    Quaternion local = Quaternion.Inverse(parentWorld) * m_Model[i].Rotation;
                    m_Joints[i].localRotation = weight >= 1f ? local : Quaternion.Slerp(m_InputLocal[i], local, weight);
                }
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
        }

        void OnValidate()
        {
            // New list entries start at weight 1, not the struct's 0.
            if (effectors == null)
            {
                effectors = new List<SinewEffector>();
            }
            for (int k = 0; k < effectors.Count; k++)
            {
                SinewEffector e = effectors[k];
                if (e.bone == null && e.target == null && e.weight == 0f && !e.useRotation)
                {
                    e.weight = 1f;
                    effectors[k] = e;
                }
            }
        }

        void OnDrawGizmosSelected()
        {
            if (!Discover(root, effectors, s_Joints))
            {
                return;
            }
            for (int i = 1; i < s_Joints.Count; i++)
            {
                SinewGizmos.Bone(s_Joints[i].parent.position, s_Joints[i].position, gizmoSize);
            }
            for (int k = 0; k < effectors.Count; k++)
            {
                Gizmos.DrawWireSphere(effectors[k].bone.position, gizmoSize);
                SinewGizmos.Target(effectors[k].target, gizmoSize * 1.5f);
            }
        }
    }
}
