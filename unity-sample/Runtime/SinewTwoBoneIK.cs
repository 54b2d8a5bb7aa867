// Two-bone IK on a Transform hierarchy (upper arm / forearm / hand, thigh / shin / foot), in
// LateUpdate after the Animator: one native call per frame (sinew_two_bone_ik_solve), plus
// sinew_two_bone_ik_set_settings on frames where a setting changed. Allocates only in OnEnable.

using System;
using UnityEngine;

namespace SinewUnity
{
    [AddComponentMenu("Sinew/Sinew Two Bone IK")]
    [DefaultExecutionOrder(SinewExecutionOrder.TwoBoneIK)]
    public sealed class SinewTwoBoneIK : MonoBehaviour
    {
        [Header("Chain (each the parent of the next)")]
        [Tooltip("Upper arm or thigh.")]
        public Transform root;
        [Tooltip("Forearm or shin: the joint that bends.")]
        public Transform mid;
        [Tooltip("Hand or foot: the end that reaches the target.")]
        public Transform tip;

        [Header("Goal")]
        [Tooltip("Where the tip goes (position, and rotation by Target Rotation Weight).")]
        public Transform target;
        [Tooltip("Optional pole: the mid joint bends toward it. Without one it keeps its animated bend.")]
        public Transform hint;

        [Header("Weights")]
        [Tooltip("Blend of the solved chain over the animated one (Unreal's alpha), in local space.")]
        [Range(0f, 1f)] public float weight = 1f;
        [Tooltip("0 aims at the tip's animated position, 1 at the target.")]
        [Range(0f, 1f)] public float targetPositionWeight = 1f;
        [Tooltip("0 keeps the tip's animated world rotation, 1 copies the target's.")]
        [Range(0f, 1f)] public float targetRotationWeight = 1f;
        [Tooltip("How far the bend turns from the animated one toward the hint (Unity's hint weight).")]
        [Range(0f, 1f)] public float hintWeight = 1f;

        [Header("Reach")]
        [Tooltip("Bones lengthen toward targets out of reach (Unreal's bAllowStretching).")]
        public bool allowStretching;
        [Tooltip("Reach ratio (distance / chain length) at which stretching starts.")]
        [Min(0.01f)] public float startStretchRatio = 1f;
        [Tooltip("Largest bone-length scale when stretching.")]
        [Min(1f)] public float maxStretchScale = 1.2f;
        [Tooltip("Below 1, the reach eases in beyond this fraction of the chain length and never snaps straight. 1 is off.")]
        [Range(0.5f, 1f)] public float soften = 1f;
        [Tooltip("Keep the mid bone's twist relative to the root bone (Unreal's bAllowTwist off).")]
        public bool keepTwist;

        [Header("Gizmos")]
        [Min(0f)] public float gizmoSize = 0.03f;

        /// <summary>Outcome of the last solve (reached, error, iterations).</summary>
        public Sinew.IkResult LastResult { get; private set; }

        /// <summary>The native solver while enabled (null otherwise).</summary>
        public Sinew.TwoBoneIk Solver { get { return m_Solver; } }

        Sinew.TwoBoneIk m_Solver;
        readonly Sinew.Transform[] m_Chain = new Sinew.Transform[3];
        Sinew.TwoBoneIkSettings m_Applied;
        bool m_HasApplied;
        bool m_ErrorLogged;

        // Stretching writes bone translations. Without an Animator rewriting them each frame,
        // the next solve would start from (and stretch) the stretched bones: the lengths found
        // before the write are put back first when nothing else has touched them since.
        bool m_WroteStretch;
        Vector3 m_MidBefore, m_TipBefore, m_MidWritten, m_TipWritten;

        void OnEnable()
        {
            if (!SinewRuntime.EnsureLoaded(this))
            {
                enabled = false;
                return;
            }
            try
            {
                m_Applied = BuildSettings();
                m_Solver = new Sinew.TwoBoneIk(m_Applied);
                m_HasApplied = true;
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
                enabled = false;
            }
        }

        void OnDisable()
        {
            UndoStretch();
            if (m_Solver != null)
            {
                m_Solver.Dispose();
                m_Solver = null;
            }
            m_HasApplied = false;
        }

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.TwoBoneIkSettings BuildSettings()
        {
            Sinew.TwoBoneIkSettings s = SinewDefaults.TwoBoneIk;
            s.Weight = Mathf.Clamp01(weight);
            s.AllowStretching = allowStretching;
            s.StartStretchRatio = Mathf.Max(startStretchRatio, 0.01f);
            s.MaxStretchScale = Mathf.Max(maxStretchScale, 1f);
            // The tip's rotation is always the effector rotation, which LateUpdate blends from
            // the tip's animated rotation by targetRotationWeight (Unity's TwoBoneIKConstraint).
            s.EndRotation = Sinew.EndRotation.CopyEffector;
            s.Soften = Mathf.Clamp(soften, 0.01f, 1f);
            s.KeepTwist = keepTwist;
            s.PoleWeight = Mathf.Clamp01(hintWeight);
            return s;
        }

        void LateUpdate()
        {
            if (m_Solver == null || root == null || mid == null || tip == null || target == null || weight <= 0f)
            {
                return;
            }
            UndoStretch();
            try
            {
                Sinew.TwoBoneIkSettings settings = BuildSettings();
                if (!m_HasApplied || !settings.Equals(m_Applied))
                {
                    m_Solver.Settings = settings;
                    m_Applied = settings;
                    m_HasApplied = true;
                }

                // Model space = world space shifted to the root: small numbers, same rotations.
                Vector3 origin = root.position;
                Vector3 tipPosition = tip.position;
                Quaternion tipRotation = tip.rotation;
                m_Chain[0] = new Sinew.Transform(Vector3.zero, root.rotation);
                m_Chain[1] = new Sinew.Transform(mid.position - origin, mid.rotation);
                m_Chain[2] = new Sinew.Transform(tipPosition - origin, tipRotation);

                Vector3 goal = Vector3.Lerp(tipPosition, target.position, targetPositionWeight) - origin;
                Quaternion goalRotation = Quaternion.Slerp(tipRotation, target.rotation, targetRotationWeight);
                Sinew.Vec3? pole = null;
                if (hint != null)
                {
                    pole = (Sinew.Vec3)(hint.position - origin);
                }

                LastResult = m_Solver.Solve(m_Chain, goal, (Sinew.Quat)goalRotation, pole);

                // Parents first: each write moves the children, whose world values come next.
                if (allowStretching)
                {
                    m_MidBefore = mid.localPosition;
                    m_TipBefore = tip.localPosition;
                }
                root.rotation = m_Chain[0].Rotation;
                if (allowStretching)
                {
                    mid.position = (Vector3)m_Chain[1].Translation + origin;
                }
                mid.rotation = m_Chain[1].Rotation;
                if (allowStretching)
                {
                    tip.position = (Vector3)m_Chain[2].Translation + origin;
                    m_MidWritten = mid.localPosition;
                    m_TipWritten = tip.localPosition;
                    m_WroteStretch = true;
                }
                tip.rotation = m_Chain[2].Rotation;
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
        }

        void UndoStretch()
        {
            if (!m_WroteStretch)
            {
                return;
            }
            m_WroteStretch = false;
            if (mid != null && mid.localPosition == m_MidWritten)
            {
                mid.localPosition = m_MidBefore;
            }
            if (tip != null && tip.localPosition == m_TipWritten)
            {
                tip.localPosition = m_TipBefore;
            }
        }

        void Reset()
        {
            // Guess the chain from a selected tip: tip = this, mid = parent, root = grandparent.
            if (transform.parent != null && transform.parent.parent != null)
            {
                tip = transform;
                mid = transform.parent;
                root = mid.parent;
            }
        }

        void OnDrawGizmosSelected()
        {
            if (root == null || mid == null || tip == null)
            {
                return;
            }
            Vector3 a = root.position, b = mid.position, c = tip.position;
            SinewGizmos.Bone(a, b, gizmoSize);
            SinewGizmos.Bone(b, c, gizmoSize);
            Gizmos.DrawWireSphere(c, gizmoSize);
            SinewGizmos.Target(target, gizmoSize * 1.5f);
            SinewGizmos.Pole(b, hint, gizmoSize);
            // The reach: a sphere of the chain length (times the stretch limit) around the root.
            float reach = Vector3.Distance(a, b) + Vector3.Distance(b, c);
            Gizmos.color = new Color(SinewGizmos.ChainColor.r, SinewGizmos.ChainColor.g, SinewGizmos.ChainColor.b, 0.15f);
            Gizmos.DrawWireSphere(a, allowStretching ? reach * Mathf.Max(maxStretchScale, 1f) : reach);
        }
    }
}
