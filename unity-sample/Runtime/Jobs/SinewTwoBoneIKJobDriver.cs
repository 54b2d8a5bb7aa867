// Builds the PlayableGraph that runs SinewTwoBoneIKJob after the Animator's own evaluation:
// one AnimationPlayableOutput on this Animator, reading the previous outputs' pose
// (AnimationStreamSource.PreviousInputs, the Animator Controller's result), with an
// AnimationScriptPlayable carrying the job as its source. Owns the native solver and the
// job's NativeArrays; everything is allocated in OnEnable and released in OnDisable.

using System;
using Sinew.Native;
using Unity.Collections;
using UnityEngine;
using UnityEngine.Animations;
using UnityEngine.Experimental.Animations;
using UnityEngine.Playables;

namespace SinewUnity
{
    [RequireComponent(typeof(Animator))]
    [AddComponentMenu("Sinew/Sinew Two Bone IK (Animation Job)")]
    public sealed unsafe class SinewTwoBoneIKJobDriver : MonoBehaviour
    {
        /// <summary>
        /// Sorting order of the output: after the Animator Controller's (100), like Animation
        /// Rigging's rig outputs (1000).
        /// </summary>
        public const ushort OutputSortingOrder = 1000;

        [Header("Chain (in this Animator's hierarchy)")]
        public Transform root;
        public Transform mid;
        public Transform tip;

        [Header("Goal (any scene Transform)")]
        public Transform target;
        public Transform hint;

        [Header("Weights")]
        [Range(0f, 1f)] public float weight = 1f;
        [Range(0f, 1f)] public float targetPositionWeight = 1f;
        [Range(0f, 1f)] public float targetRotationWeight = 1f;
        [Range(0f, 1f)] public float hintWeight = 1f;

        [Header("Reach")]
        public bool allowStretching;
        [Min(0.01f)] public float startStretchRatio = 1f;
        [Min(1f)] public float maxStretchScale = 1.2f;
        [Range(0.5f, 1f)] public float soften = 1f;
        public bool keepTwist;

        /// <summary>Outcome of the last evaluated solve.</summary>
        public Sinew.IkResult LastResult { get; private set; }

        /// <summary>Status of the last evaluated solve (Ok before the first).</summary>
        public Sinew.Status LastStatus { get; private set; }

        /// <summary>The graph while enabled.</summary>
        public PlayableGraph Graph { get { return m_Graph; } }

        Animator m_Animator;
        PlayableGraph m_Graph;
        AnimationScriptPlayable m_Playable;
        Sinew.TwoBoneIk m_Solver;
        bool m_SolverReferenced;
        Sinew.TwoBoneIkSettings m_Applied;
        NativeArray<SinewTransform> m_Chain;
        NativeArray<SinewIkResult> m_Result;
        NativeArray<int> m_Status;
        bool m_ErrorLogged;

        void OnEnable()
        {
            if (!SinewRuntime.EnsureLoaded(this))
            {
                enabled = false;
                return;
            }
            m_Animator = GetComponent<Animator>();
            if (root == null || mid == null || tip == null || target == null)
            {
                Debug.LogError("Sinew: assign Root, Mid, Tip and Target before enabling " + name + ".", this);
                enabled = false;
                return;
            }
            try
            {
                m_Applied = BuildSettings();
                m_Solver = new Sinew.TwoBoneIk(m_Applied);
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
                enabled = false;
                return;
            }
            // The job holds the raw address: keep the SafeHandle referenced until the graph is gone.
            m_SolverReferenced = false;
            m_Solver.Handle.DangerousAddRef(ref m_SolverReferenced);

            m_Chain = new NativeArray<SinewTransform>(3, Allocator.Persistent);
            m_Result = new NativeArray<SinewIkResult>(1, Allocator.Persistent);
            m_Status = new NativeArray<int>(1, Allocator.Persistent);

            SinewTwoBoneIKJob job = new SinewTwoBoneIKJob();
            job.root = m_Animator.BindStreamTransform(root);
            job.mid = m_Animator.BindStreamTransform(mid);
            job.tip = m_Animator.BindStreamTransform(tip);
            job.target = m_Animator.BindSceneTransform(target);
            if (hint != null)
            {
                job.hint = m_Animator.BindSceneTransform(hint);
                job.hasHint = 1;
            }
            job.solver = (IntPtr)m_Solver.NativePointer;
            job.chain = m_Chain;
            job.result = m_Result;
            job.status = m_Status;
            CopyWeights(ref job);

            m_Graph = PlayableGraph.Create(name + " (Sinew Two Bone IK)");
            m_Graph.SetTimeUpdateMode(DirectorUpdateMode.GameTime);
            AnimationPlayableOutput output = AnimationPlayableOutput.Create(m_Graph, "Sinew Two Bone IK", m_Animator);
            output.SetAnimationStreamSource(AnimationStreamSource.PreviousInputs);
            output.SetSortingOrder(OutputSortingOrder);
            m_Playable = AnimationScriptPlayable.Create(m_Graph, job);
            output.SetSourcePlayable(m_Playable);
            m_Graph.Play();
            m_ErrorLogged = false;
        }

        void OnDisable()
        {
            // The graph first: no job may run once the solver and the arrays are gone.
            if (m_Graph.IsValid())
            {
                m_Graph.Destroy();
            }
            if (m_Chain.IsCreated)
            {
                m_Chain.Dispose();
            }
            if (m_Result.IsCreated)
            {
                m_Result.Dispose();
            }
            if (m_Status.IsCreated)
            {
                m_Status.Dispose();
            }
            if (m_Solver != null)
            {
                if (m_SolverReferenced)
                {
                    m_Solver.Handle.DangerousRelease();
                    m_SolverReferenced = false;
                }
                m_Solver.Dispose();
                m_Solver = null;
            }
        }

        /// <summary>The native settings: as SinewTwoBoneIK's, but weight 1 (the job blends).</summary>
        public Sinew.TwoBoneIkSettings BuildSettings()
        {
            Sinew.TwoBoneIkSettings s = SinewDefaults.TwoBoneIk;
            s.Weight = 1f;
            s.AllowStretching = allowStretching;
            s.StartStretchRatio = Mathf.Max(startStretchRatio, 0.01f);
            s.MaxStretchScale = Mathf.Max(maxStretchScale, 1f);
            s.EndRotation = Sinew.EndRotation.CopyEffector;
            s.Soften = Mathf.Clamp(soften, 0.01f, 1f);
            s.KeepTwist = keepTwist;
            s.PoleWeight = Mathf.Clamp01(hintWeight);
            return s;
        }

        void CopyWeights(ref SinewTwoBoneIKJob job)
        {
            job.weight = Mathf.Clamp01(weight);
            job.targetPositionWeight = Mathf.Clamp01(targetPositionWeight);
            job.targetRotationWeight = Mathf.Clamp01(targetRotationWeight);
            job.writePositions = allowStretching ? 1 : 0;
        }

        void Update()
        {
            if (m_Solver == null || !m_Playable.IsValid())
            {
                return;
            }
            // Update runs before the Animator evaluates the graph, so neither the settings nor
            // the job data change while the job runs.
            try
            {
                Sinew.TwoBoneIkSettings s = BuildSettings();
                if (!s.Equals(m_Applied))
                {
                    m_Solver.Settings = s;
                    m_Applied = s;
                }
            }
            catch (Sinew.SinewException e)
            {
                SinewRuntime.Report(e, this, ref m_ErrorLogged);
            }
            SinewTwoBoneIKJob job = m_Playable.GetJobData<SinewTwoBoneIKJob>();
            CopyWeights(ref job);
            m_Playable.SetJobData(job);
        }

        void LateUpdate()
        {
            if (!m_Status.IsCreated)
            {
                return;
            }
            // The Animator has evaluated: read back what the job reported. The native message
            // stays in the worker thread's error slot, so only the status is available here.
            LastStatus = (Sinew.Status)m_Status[0];
            if (LastStatus == Sinew.Status.Ok)
            {
                LastResult = ReadResult();
                m_ErrorLogged = false;
            }
            else if (!m_ErrorLogged)
            {
                m_ErrorLogged = true;
                Debug.LogError("Sinew " + name + ": the animation job's solve returned " + LastStatus +
                    " (non-finite or degenerate input?).", this);
            }
        }

        Sinew.IkResult ReadResult()
        {
            SinewIkResult r = m_Result[0];
            return *(Sinew.IkResult*)&r;
        }

        void OnDrawGizmosSelected()
        {
            if (root == null || mid == null || tip == null)
            {
                return;
            }
            SinewGizmos.Bone(root.position, mid.position, 0.03f);
            SinewGizmos.Bone(mid.position, tip.position, 0.03f);
            SinewGizmos.Target(target, 0.045f);
            SinewGizmos.Pole(mid.position, hint, 0.03f);
        }
    }
}
