// Aim / look-at on a Transform chain (spine to head, or one joint; a gun held by the hand): the
// tip's aim axis, from an offset origin (eyes, a muzzle), points at the target, the turn shared
// by per-joint weights under per-joint and whole-chain limits. One native call per frame
// (sinew_aim_ik_solve). Defaults follow Unity's MultiAimConstraint: aim along +Z, up along +Y.

using System;
using System.Collections.Generic;
using UnityEngine;

namespace SinewUnity
{
    [AddComponentMenu("Sinew/Sinew Aim (Look At)")]
    [DefaultExecutionOrder(SinewExecutionOrder.Chain)]
    public sealed class SinewAim : MonoBehaviour
    {
        [Header("Chain")]
        [Tooltip("First joint that turns (it stays in place). May be the Tip itself.")]
        public Transform root;
        [Tooltip("Joint that aims (the head, the hand holding the gun): Root or a descendant.")]
        public Transform tip;

        [Header("Aim")]
        [Tooltip("What to look at.")]
        public Transform target;
        [Tooltip("Direction in the tip's local frame that points at the target (Unity's forward).")]
        public Vector3 aimAxis = Vector3.forward;
        [Tooltip("Aim origin in the tip's local frame (eyes, a muzzle); need not lie on the aim axis.")]
        public Vector3 aimOffset = Vector3.zero;
        [Tooltip("Blend of the aimed chain over the animated one: every joint turns this fraction of its share.")]
        [Range(0f, 1f)] public float weight = 1f;

        [Header("Up (roll)")]
        [Tooltip("Optional: the tip rolls its Up Axis toward this transform (a direction from the tip, or its up vector).")]
        public Transform upTarget;
        [Tooltip("On: the up target's position is a pole the tip's up axis turns toward. Off: its up vector is the direction.")]
        public bool upTargetIsPosition = true;
        [Tooltip("Direction in the tip's local frame turned toward the up target (not along Aim Axis).")]
        public Vector3 upAxis = Vector3.up;

        [Header("Limits")]
        [Tooltip("Largest turn of the whole chain, in degrees (180: unlimited). Past it the chain holds, then eases back as the target goes exactly behind: it never flips sides.")]
        [Range(0f, 180f)] public float maxAngleDegrees = 180f;
        [Tooltip("Each joint's share of the turn, root first (missing entries 1; 0 does not turn).")]
        public List<float> jointWeights = new List<float>();
        [Tooltip("Each joint's largest turn from the animated pose in degrees, root first (missing entries 180).")]
        public List<float> jointMaxAngles = new List<float>();

        [Header("Solver")]
        [Tooltip("Residual aim angle (radians) under which the passes stop.")]
        [Min(1e-6f)] public float tolerance = 1e-4f;
        [Tooltip("Most passes per frame (an offset origin moves as the chain turns).")]
        [Min(1)] public int maxIterations = 16;

        [Header("Gizmos")]
        [Min(0f)] public float gizmoSize = 0.03f;

        /// <summary>Outcome of the last solve (Error is the residual angle in radians).</summary>
        public Sinew.IkResult LastResult { get; private set; }

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.AimIk Solver { get { return m_Solver; } }

        Sinew.AimIk m_Solver;
        Sinew.AimIkSettings m_Defaults;
        Sinew.AimIkSettings m_Applied;
        Transform[] m_Joints = new Transform[0];
        Sinew.Transform[] m_Chain;
        Quaternion[] m_InputLocal;
        int m_Capacity;
        Vector3 m_InputAim;
        bool m_HasInputAim;
        Transform m_BuiltRoot, m_BuiltTip;
        bool m_ErrorLogged;
        static readonly List<Transform> s_Scratch = new List<Transform>();

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.AimIkSettings BuildSettings()
        {
            Sinew.AimIkSettings s = m_Defaults;
            s.AimAxis = aimAxis;
            s.UpAxis = upAxis;
            s.AimOffset = aimOffset;
            s.UpIsPosition = upTargetIsPosition;
            s.Weight = Mathf.Clamp01(weight);
            s.MaxAngleDegrees = Mathf.Clamp(maxAngleDegrees, 0f, 180f);
            s.Tolerance = Mathf.Max(tolerance, 1e-6f);
            s.MaxIterations = Mathf.Max(maxIterations, 1);
            return s;
        }

        /// <summary>The joints from <paramref name="root"/> to <paramref name="tip"/>, root first; false when the tip is not the root or below it.</summary>
        public static bool Discover(Transform root, Transform tip, List<Transform> joints)
        {
            joints.Clear();
            for (Transform t = tip; t != null && root != null; t = t.parent)
            {
                joints.Add(t);
                if (t == root)
                {
                    joints.Reverse();
                    return true;
                }
            }
            joints.Clear();
            return false;
        }

        void OnEnable()
        {
            if (!SinewRuntime.EnsureLoaded(this))
            {
                enabled = false;
                return;
            }
            m_Defaults = Sinew.AimIkSettings.Default;
            m_ErrorLogged = false;
        }

        void OnDisable()
        {
            if (m_Solver != null)
            {
                m_Solver.Dispose();
                m_Solver = null;
            }
            m_BuiltRoot = null;
            m_BuiltTip = null;
            m_HasInputAim = false;
        }

        bool TryBuild()
        {
            if (m_Solver != null && m_BuiltRoot == root && m_BuiltTip == tip)
            {
                return true;
            }
            if (!Discover(root, tip, s_Scratch))
            {
                return false;
            }
            int n = s_Scratch.Count;
            m_Joints = s_Scratch.ToArray();
            m_Chain = new Sinew.Transform[n];
            m_InputLocal = new Quaternion[n];
            if (m_Solver == null || m_Capacity < n)
            {
                if (m_Solver != null) m_Solver.Dispose();
                m_Applied = BuildSettings();
                m_Solver = new Sinew.AimIk(n, m_Applied);
                m_Capacity = n;
            }
            m_BuiltRoot = root;
            m_BuiltTip = tip;
            return true;
        }

        static float Entry(List<float> values, int i, float fallback)
        {
            return values != null && i < values.Count && !float.IsNaN(values[i]) && !float.IsInfinity(values[i]) ? values[i] : fallback;
        }

        void LateUpdate()
        {
            if (target == null || weight <= 0f)
            {
                return;
            }
            try
            {
                if (!TryBuild())
                {
                    return;
                }
                Sinew.AimIkSettings s = BuildSettings();
                if (!s.Equals(m_Applied))
                {
                    m_Solver.Settings = s;
                    m_Applied = s;
                }
                int n = m_Joints.Length;
                for (int i = 0; i < n; i++)
                {
                    m_Solver.SetJoint(i, Mathf.Max(Entry(jointWeights, i, 1f), 0f), Mathf.Clamp(Entry(jointMaxAngles, i, 180f), 0f, 180f));
                }
                Vector3 origin = m_Joints[0].position;
                for (int i = 0; i < n; i++)
                {
                    Transform j = m_Joints[i];
                    m_InputLocal[i] = j.localRotation;
                    m_Chain[i] = new Sinew.Transform(j.position - origin, j.rotation);
                }
                m_InputAim = m_Joints[n - 1].rotation * aimAxis.normalized;
                m_HasInputAim = true;
                Sinew.Vec3? up = null;
                if (upTarget != null)
                {
                    up = upTargetIsPosition ? (Sinew.Vec3)(upTarget.position - origin) : (Sinew.Vec3)(upTarget.rotation * Vector3.up);
                }
                LastResult = m_Solver.Solve(m_Chain, target.position - origin, up);

                // Back to local rotations, each relative to the previous joint's solved rotation
                // (the weight is applied by the solver).
                Transform parent = m_Joints[0].parent;
                Quaternion parentWorld = parent != null ? parent.rotation : Quaternion.identity;
                for (int i = 0; i < n; i++)
                {
                    Quaternion world = m_Chain[i].Rotation;
                    m_Joints[i].localRotation = Quaternion.Inverse(parentWorld) * world;
                    parentWorld = world;
                }
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
            catch (ArgumentException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
        }

        void OnDrawGizmosSelected()
        {
            if (!Discover(root, tip, s_Scratch))
            {
                return;
            }
            int n = s_Scratch.Count;
            for (int i = 0; i + 1 < n; i++)
            {
                SinewGizmos.Bone(s_Scratch[i].position, s_Scratch[i + 1].position, gizmoSize);
            }
            Transform t = s_Scratch[n - 1];
            Vector3 eye = t.TransformPoint(aimOffset);
            Vector3 aim = t.rotation * aimAxis.normalized;
            Gizmos.color = SinewGizmos.ChainColor;
            Gizmos.DrawWireSphere(eye, gizmoSize);
            float reach = target != null ? Vector3.Distance(eye, target.position) : 1f;
            Gizmos.DrawLine(eye, eye + aim * reach);
            Gizmos.color = SinewGizmos.PoleColor;
            Gizmos.DrawLine(t.position, t.position + t.rotation * upAxis.normalized * gizmoSize * 6f);
            // The overall limit, about the animated aim of the last solve (the turn counts from it).
            if (maxAngleDegrees < 180f && m_HasInputAim)
            {
                Quaternion frame = Quaternion.FromToRotation(Vector3.right, m_InputAim);
                SinewGizmos.Cone(eye, frame, maxAngleDegrees, maxAngleDegrees, gizmoSize * 8f);
            }
            SinewGizmos.Target(target, gizmoSize * 1.5f);
            if (upTarget != null && upTargetIsPosition)
            {
                SinewGizmos.Pole(t.position, upTarget, gizmoSize);
            }
        }
    }
}
