// Unreal's HandIKRetargeting node on a Transform hierarchy: moves the listed bones (typically
// ik_hand_root or ik_hand_gun) by (FK - IK) * per-axis alpha, where FK and IK are the right and
// left hand positions mixed by Hand FK Weight, so IK hand bones authored for one skeleton land
// on another's FK hands. One native call per frame (sinew_hand_ik_retargeting_apply_model).

using System.Collections.Generic;
using UnityEngine;

namespace SinewUnity
{
    [AddComponentMenu("Sinew/Sinew Hand IK Retargeting")]
    [DefaultExecutionOrder(SinewExecutionOrder.HandIKRetargeting)]
    public sealed class SinewHandIKRetargeting : MonoBehaviour
    {
        [Header("Hands")]
        public Transform rightHandFK;
        public Transform leftHandFK;
        public Transform rightHandIK;
        public Transform leftHandIK;

        [Header("Bones to move")]
        [Tooltip("Moved by the offset (their children follow). A bone below another listed bone is moved once, with it.")]
        public List<Transform> bonesToMove = new List<Transform>();

        [Header("Settings")]
        [Tooltip("Which hand drives the offset: 0 the left, 1 the right, between a mix.")]
        [Range(0f, 1f)] public float handFKWeight = 0.5f;
        [Tooltip("Per-axis scale of the offset, in this GameObject's local axes (the character's component space), each in [0, 1].")]
        public Vector3 perAxisAlpha = Vector3.one;
        [Tooltip("Blend of the moved bones over their input positions.")]
        [Range(0f, 1f)] public float weight = 1f;

        [Header("Gizmos")]
        [Min(0f)] public float gizmoSize = 0.03f;

        /// <summary>The offset (FK - IK) * alpha of the last frame, in world space.</summary>
        public Vector3 LastOffset { get; private set; }

        /// <summary>The native node while enabled (null otherwise).</summary>
        public Sinew.HandIkRetargeting Node { get { return m_Node; } }

        const int HandCount = 4;

        Sinew.HandIkRetargeting m_Node;
        Sinew.HandIkRetargetingSettings m_Applied;
        Sinew.Transform[] m_Model;
        int[] m_BoneIndices;
        Transform[] m_Bones;
        Vector3[] m_Before;
        readonly List<Transform> m_Source = new List<Transform>();
        bool m_ErrorLogged;

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
                m_Node = new Sinew.HandIkRetargeting(m_Applied);
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
                enabled = false;
                return;
            }
            RebuildBones();
        }

        void OnDisable()
        {
            if (m_Node != null)
            {
                m_Node.Dispose();
                m_Node = null;
            }
        }

        /// <summary>The native settings the inspector values describe (clamped into their domains).</summary>
        public Sinew.HandIkRetargetingSettings BuildSettings()
        {
            Sinew.HandIkRetargetingSettings s = SinewDefaults.HandIkRetargeting;
            s.HandFkWeight = Mathf.Clamp01(handFKWeight);
            s.PerAxisAlpha = new Vector3(Mathf.Clamp01(perAxisAlpha.x), Mathf.Clamp01(perAxisAlpha.y), Mathf.Clamp01(perAxisAlpha.z));
            return s;
        }

        bool SourceChanged()
        {
            if (bonesToMove == null)
            {
                return m_Source.Count != 0;
            }
            if (bonesToMove.Count != m_Source.Count)
            {
                return true;
            }
            for (int i = 0; i < m_Source.Count; i++)
            {
                if (bonesToMove[i] != m_Source[i])
                {
                    return true;
                }
            }
            return false;
        }

        /// <summary>
        /// Re-reads Bones To Move: drops missing and repeated bones and bones below another
        /// listed bone (a Transform's children follow it, so they would move twice). Allocates;
        /// runs automatically when the list changes.
        /// </summary>
        public void RebuildBones()
        {
            m_Source.Clear();
            if (bonesToMove != null)
            {
                m_Source.AddRange(bonesToMove);
            }
            var kept = new List<Transform>();
            for (int i = 0; i < m_Source.Count; i++)
            {
                Transform bone = m_Source[i];
                if (bone == null || kept.Contains(bone) || HasListedAncestor(bone))
                {
                    continue;
                }
                kept.Add(bone);
            }
            m_Bones = kept.ToArray();
            m_Before = new Vector3[m_Bones.Length];
            m_BoneIndices = new int[m_Bones.Length];
            m_Model = new Sinew.Transform[HandCount + m_Bones.Length];
            for (int i = 0; i < m_Bones.Length; i++)
            {
                m_BoneIndices[i] = HandCount + i;
            }
        }

        bool HasListedAncestor(Transform bone)
        {
            for (Transform t = bone.parent; t != null; t = t.parent)
            {
                if (m_Source.Contains(t))
                {
                    return true;
                }
            }
            return false;
        }

        void LateUpdate()
        {
            if (m_Node == null || rightHandFK == null || leftHandFK == null || rightHandIK == null || leftHandIK == null)
            {
                return;
            }
            if (SourceChanged())
            {
                RebuildBones();
            }
            if (m_Bones.Length == 0 || weight <= 0f)
            {
                return;
            }
            try
            {
                Sinew.HandIkRetargetingSettings s = BuildSettings();
                if (!s.Equals(m_Applied))
                {
                    m_Node.Settings = s;
                    m_Applied = s;
                }

                // Model space is this GameObject's space (Unreal's component space), so the
                // per-axis alpha follows the character's axes. Only translations are read.
                Transform space = transform;
                m_Model[0] = new Sinew.Transform(space.InverseTransformPoint(rightHandFK.position), Sinew.Quat.Identity);
                m_Model[1] = new Sinew.Transform(space.InverseTransformPoint(leftHandFK.position), Sinew.Quat.Identity);
                m_Model[2] = new Sinew.Transform(space.InverseTransformPoint(rightHandIK.position), Sinew.Quat.Identity);
                m_Model[3] = new Sinew.Transform(space.InverseTransformPoint(leftHandIK.position), Sinew.Quat.Identity);
                for (int i = 0; i < m_Bones.Length; i++)
                {
                    m_Before[i] = m_Bones[i].position;
                    m_Model[HandCount + i] = new Sinew.Transform(space.InverseTransformPoint(m_Before[i]), Sinew.Quat.Identity);
                }
                var hands = new Sinew.HandJoints(0, 1, 2, 3);

                LastOffset = space.TransformVector(m_Node.ApplyModel(m_Model, hands, m_BoneIndices));

                for (int i = 0; i < m_Bones.Length; i++)
                {
                    Vector3 moved = space.TransformPoint(m_Model[HandCount + i].Translation);
                    m_Bones[i].position = weight >= 1f ? moved : Vector3.LerpUnclamped(m_Before[i], moved, weight);
                }
                m_ErrorLogged = false;
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
        }

        void OnDrawGizmosSelected()
        {
            DrawPair(rightHandFK, rightHandIK);
            DrawPair(leftHandFK, leftHandIK);
            if (bonesToMove == null)
            {
                return;
            }
            Gizmos.color = SinewGizmos.PoleColor;
            for (int i = 0; i < bonesToMove.Count; i++)
            {
                Transform bone = bonesToMove[i];
                if (bone != null)
                {
                    Gizmos.DrawWireCube(bone.position, Vector3.one * gizmoSize * 2f);
                }
            }
        }

        void DrawPair(Transform fk, Transform ik)
        {
            if (fk == null || ik == null)
            {
                return;
            }
            Gizmos.color = SinewGizmos.ChainColor;
            Gizmos.DrawWireSphere(fk.position, gizmoSize);
            Gizmos.color = SinewGizmos.TargetColor;
            Gizmos.DrawWireSphere(ik.position, gizmoSize);
            Gizmos.DrawLine(fk.position, ik.position);
        }
    }
}
