// Skeletons, poses, joint masks, clips, cursors, crossfades and the blending functions.

using System;
using System.Runtime.InteropServices;
using System.Text;
using Sinew.Native;

namespace Sinew
{
    /// <summary>
    /// Joint hierarchy, rest pose and names. Immutable, so it may be read from many threads.
    /// Poses, masks, clips and crossfades made from it stay valid after it is disposed.
    /// </summary>
    public sealed unsafe class Skeleton : IDisposable
    {
        readonly SkeletonHandle handle = new SkeletonHandle();

        /// <summary>
        /// A skeleton of parents.Length joints: parent indices (-1 for a root; each parent
        /// before its child), rest-pose local transforms and optional unique joint names.
        /// </summary>
        public Skeleton(int[] parents, Transform[] restPose, string[] names = null)
        {
            if (parents == null) Library.ThrowNull("parents");
            if (restPose == null) Library.ThrowNull("restPose");
            if (restPose.Length != parents.Length)
            {
                Library.ThrowLength("restPose", "restPose has " + restPose.Length + " transforms for " + parents.Length + " parents");
            }
            if (names != null && names.Length != parents.Length)
            {
                Library.ThrowLength("names", "names has " + names.Length + " entries for " + parents.Length + " parents");
            }
            IntPtr block = IntPtr.Zero;
            try
            {
                byte** namePointers = null;
                if (names != null)
                {
                    block = EncodeNames(names);
                    namePointers = (byte**)block;
                }
                SinewSkeleton* native = null;
                fixed (int* p = parents)
                fixed (Transform* r = restPose)
                {
                    Library.Check(NativeMethods.sinew_skeleton_create(p, (SinewTransform*)r, namePointers, (uint)parents.Length, &native));
                }
                handle.Attach((IntPtr)native);
            }
            finally
            {
                if (block != IntPtr.Zero) Marshal.FreeHGlobal(block);
            }
            JointCount = parents.Length;
        }

        /// <summary>One unmanaged block: the pointer array, then each name as NUL-terminated UTF-8.</summary>
        static IntPtr EncodeNames(string[] names)
        {
            int bytes = names.Length * IntPtr.Size;
            for (int i = 0; i < names.Length; i++)
            {
                if (names[i] == null) Library.ThrowNull("names[" + i + "]");
                bytes += Encoding.UTF8.GetByteCount(names[i]) + 1;
            }
            IntPtr block = Marshal.AllocHGlobal(bytes);
            byte** pointers = (byte**)block;
            byte* text = (byte*)block + names.Length * IntPtr.Size;
            byte* end = (byte*)block + bytes;
            for (int i = 0; i < names.Length; i++)
            {
                pointers[i] = text;
                fixed (char* c = names[i])
                {
                    text += Encoding.UTF8.GetBytes(c, names[i].Length, text, (int)(end - text));
                }
                *text++ = 0;
            }
            return block;
        }

        public int JointCount { get; }

        public SkeletonHandle Handle { get { return handle; } }

        /// <summary>The raw pointer for NativeMethods calls (e.g. from jobs); valid until Dispose.</summary>
        public SinewSkeleton* NativePointer { get { return (SinewSkeleton*)handle.Pointer; } }

        internal SinewSkeleton* Enter(ref bool added) { return (SinewSkeleton*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        /// <summary>The index of the joint named <paramref name="name"/>; SinewException (NotFound) if none.</summary>
        public int FindJoint(string name)
        {
            int index;
            SinewStatus status = Find(name, out index);
            Library.Check(status);
            return index;
        }

        /// <summary>The index of the joint named <paramref name="name"/>, or false.</summary>
        public bool TryFindJoint(string name, out int index)
        {
            SinewStatus status = Find(name, out index);
            if (status == SinewStatus.NotFound) return false;
            Library.Check(status);
            return true;
        }

        SinewStatus Find(string name, out int index)
        {
            if (name == null) Library.ThrowNull("name");
            int length = Encoding.UTF8.GetByteCount(name);
            byte[] heap = length < 256 ? null : new byte[length + 1];
            byte* stack = stackalloc byte[heap == null ? length + 1 : 1];
            uint found = 0;
            SinewStatus status;
            bool a = false;
            try
            {
                SinewSkeleton* s = Enter(ref a);
                fixed (byte* h = heap)
                fixed (char* c = name)
                {
                    byte* text = heap == null ? stack : h;
                    Encoding.UTF8.GetBytes(c, name.Length, text, length);
                    text[length] = 0;
                    status = NativeMethods.sinew_skeleton_find_joint(s, text, &found);
                }
            }
            finally { Exit(a); }
            index = (int)found;
            return status;
        }

        /// <summary>Copies the parent indices into <paramref name="output"/> (length JointCount).</summary>
        public void GetParents(int[] output)
        {
            if (output == null) Library.ThrowNull("output");
            bool a = false;
            try
            {
                fixed (int* p = output)
                {
                    Library.Check(NativeMethods.sinew_skeleton_get_parents(Enter(ref a), p, (uint)output.Length));
                }
            }
            finally { Exit(a); }
        }

        public int[] GetParents()
        {
            int[] parents = new int[JointCount];
            GetParents(parents);
            return parents;
        }

        /// <summary>Copies the rest-pose local transforms into <paramref name="output"/> (length JointCount).</summary>
        public void GetRestPose(Transform[] output)
        {
            if (output == null) Library.ThrowNull("output");
            bool a = false;
            try
            {
                fixed (Transform* p = output)
                {
                    Library.Check(NativeMethods.sinew_skeleton_get_rest_pose(Enter(ref a), (SinewTransform*)p, (uint)output.Length));
                }
            }
            finally { Exit(a); }
        }

        public Transform[] GetRestPose()
        {
            Transform[] rest = new Transform[JointCount];
            GetRestPose(rest);
            return rest;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>One local transform per joint of a skeleton. Use one pose from one thread at a time.</summary>
    public sealed unsafe class Pose : IDisposable
    {
        readonly PoseHandle handle = new PoseHandle();

        /// <summary>A pose of <paramref name="skeleton"/> at its rest pose.</summary>
        public Pose(Skeleton skeleton)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewPose* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_create(skeleton.Enter(ref a), &native)); }
            finally { skeleton.Exit(a); }
            handle.Attach((IntPtr)native);
            JointCount = skeleton.JointCount;
        }

        public int JointCount { get; }

        public PoseHandle Handle { get { return handle; } }

        /// <summary>The raw pointer for NativeMethods calls (e.g. from jobs); valid until Dispose.</summary>
        public SinewPose* NativePointer { get { return (SinewPose*)handle.Pointer; } }

        internal SinewPose* Enter(ref bool added) { return (SinewPose*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        /// <summary>Returns every joint to the skeleton's rest pose.</summary>
        public void Reset()
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_reset(Enter(ref a))); }
            finally { Exit(a); }
        }

        /// <summary>Copies the local transforms into <paramref name="output"/> (length JointCount).</summary>
        public void GetLocal(Transform[] output)
        {
            if (output == null) Library.ThrowNull("output");
            fixed (Transform* p = output) GetLocal(p, output.Length);
        }

        public void GetLocal(Transform* output, int count)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_get_local(Enter(ref a), (SinewTransform*)output, (uint)count)); }
            finally { Exit(a); }
        }

        public Transform[] GetLocal()
        {
            Transform[] local = new Transform[JointCount];
            GetLocal(local);
            return local;
        }

        /// <summary>Replaces the local transforms (length JointCount; rotations renormalized).</summary>
        public void SetLocal(Transform[] local)
        {
            if (local == null) Library.ThrowNull("local");
            fixed (Transform* p = local) SetLocal(p, local.Length);
        }

        public void SetLocal(Transform* local, int count)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_set_local(Enter(ref a), (SinewTransform*)local, (uint)count)); }
            finally { Exit(a); }
        }

        /// <summary>
        /// Computes every joint's model-space transform into <paramref name="output"/> (length
        /// JointCount): its parent's model transform composed with its local one, root first, the
        /// one rule every model-space call follows. Uses a buffer inside the pose, so it counts as
        /// a modification; <see cref="ComputeModel(Transform[])"/> only reads the pose.
        /// </summary>
        public void GetModel(Transform[] output)
        {
            if (output == null) Library.ThrowNull("output");
            fixed (Transform* p = output) GetModel(p, output.Length);
        }

        public void GetModel(Transform* output, int count)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_get_model(Enter(ref a), (SinewTransform*)output, (uint)count)); }
            finally { Exit(a); }
        }

        public Transform[] GetModel()
        {
            Transform[] model = new Transform[JointCount];
            GetModel(model);
            return model;
        }

        /// <summary>
        /// <see cref="GetModel(Transform[])"/> without modifying the pose (sinew_pose_compute_model
        /// takes a const pose): the same transforms, bit for bit. A cheap first pass bounds the
        /// results, so <paramref name="output"/> is untouched on error.
        /// </summary>
        public void ComputeModel(Transform[] output)
        {
            if (output == null) Library.ThrowNull("output");
            fixed (Transform* p = output) ComputeModel(p, output.Length);
        }

        public void ComputeModel(Transform* output, int count)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_compute_model(Enter(ref a), (SinewTransform*)output, (uint)count)); }
            finally { Exit(a); }
        }

        public Transform[] ComputeModel()
        {
            Transform[] model = new Transform[JointCount];
            ComputeModel(model);
            return model;
        }

        /// <summary>Sets the pose from model-space transforms of every joint.</summary>
        public void SetModel(Transform[] model)
        {
            if (model == null) Library.ThrowNull("model");
            fixed (Transform* p = model) SetModel(p, model.Length);
        }

        public void SetModel(Transform* model, int count)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_set_model(Enter(ref a), (SinewTransform*)model, (uint)count)); }
            finally { Exit(a); }
        }

        /// <summary>One joint's model-space transform (its ancestors only, root first: the same bits as GetModel).</summary>
        public Transform GetModelTransform(int joint)
        {
            Transform t;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_get_model_transform(Enter(ref a), (uint)joint, (SinewTransform*)&t)); }
            finally { Exit(a); }
            return t;
        }

        /// <summary>Moves one joint to a model-space transform; its descendants follow.</summary>
        public void SetModelTransform(int joint, Transform transform)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_pose_set_model_transform(Enter(ref a), (uint)joint, (SinewTransform*)&transform)); }
            finally { Exit(a); }
        }

        /// <summary>
        /// Projects the local rotations of joints[i] onto constraints[i]; every entry is
        /// validated before any is applied.
        /// </summary>
        public void ApplyConstraints(int[] joints, JointConstraint[] constraints)
        {
            if (joints == null) Library.ThrowNull("joints");
            if (constraints == null) Library.ThrowNull("constraints");
            if (joints.Length != constraints.Length)
            {
                Library.ThrowLength("constraints", "constraints has " + constraints.Length + " entries for " + joints.Length + " joints");
            }
            bool a = false;
            try
            {
                fixed (int* j = joints)
                fixed (JointConstraint* c = constraints)
                {
                    Library.Check(NativeMethods.sinew_pose_apply_constraints(Enter(ref a), (uint*)j, (SinewJointConstraint*)c, (uint)joints.Length));
                }
            }
            finally { Exit(a); }
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>Per-joint weights in [0, 1] for one skeleton's joint count.</summary>
    public sealed unsafe class JointMask : IDisposable
    {
        readonly JointMaskHandle handle = new JointMaskHandle();

        JointMask(int jointCount) { JointCount = jointCount; }

        /// <summary>A mask giving every joint of <paramref name="skeleton"/> the weight <paramref name="value"/>.</summary>
        public JointMask(Skeleton skeleton, float value = 1f)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewJointMask* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_joint_mask_create(skeleton.Enter(ref a), value, &native)); }
            finally { skeleton.Exit(a); }
            handle.Attach((IntPtr)native);
            JointCount = skeleton.JointCount;
        }

        /// <summary>
        /// Weight 1 on the subtree rooted at <paramref name="root"/>, 0 elsewhere; with
        /// <paramref name="blendDepth"/> d &gt; 0 the weight ramps as (depth + 1) / (d + 1) over the
        /// subtree's first d levels (Unreal's branch filter).
        /// </summary>
        public static JointMask Subtree(Skeleton skeleton, int root, int blendDepth = 0)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            JointMask mask = new JointMask(skeleton.JointCount);
            SinewJointMask* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_joint_mask_create_subtree(skeleton.Enter(ref a), (uint)root, (uint)blendDepth, &native)); }
            finally { skeleton.Exit(a); }
            mask.handle.Attach((IntPtr)native);
            return mask;
        }

        public int JointCount { get; }

        public JointMaskHandle Handle { get { return handle; } }

        public SinewJointMask* NativePointer { get { return (SinewJointMask*)handle.Pointer; } }

        internal SinewJointMask* Enter(ref bool added) { return (SinewJointMask*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        public void SetWeight(int joint, float weight)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_joint_mask_set_weight(Enter(ref a), (uint)joint, weight)); }
            finally { Exit(a); }
        }

        /// <summary>Replaces every weight (length JointCount).</summary>
        public void SetWeights(float[] weights)
        {
            if (weights == null) Library.ThrowNull("weights");
            bool a = false;
            try
            {
                fixed (float* w = weights) Library.Check(NativeMethods.sinew_joint_mask_set_weights(Enter(ref a), w, (uint)weights.Length));
            }
            finally { Exit(a); }
        }

        /// <summary>Copies every weight into <paramref name="output"/> (length JointCount).</summary>
        public void GetWeights(float[] output)
        {
            if (output == null) Library.ThrowNull("output");
            bool a = false;
            try
            {
                fixed (float* w = output) Library.Check(NativeMethods.sinew_joint_mask_get_weights(Enter(ref a), w, (uint)output.Length));
            }
            finally { Exit(a); }
        }

        public float[] GetWeights()
        {
            float[] weights = new float[JointCount];
            GetWeights(weights);
            return weights;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// A keyframed clip. Set its tracks before a crossfade plays it (a playing clip is shared
    /// with the controller and cannot change).
    /// </summary>
    public sealed unsafe class Clip : IDisposable
    {
        readonly ClipHandle handle = new ClipHandle();

        /// <summary>An empty clip of <paramref name="duration"/> seconds; joints without tracks keep the rest pose.</summary>
        public Clip(Skeleton skeleton, float duration)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewClip* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_clip_create(skeleton.Enter(ref a), duration, &native)); }
            finally { skeleton.Exit(a); }
            handle.Attach((IntPtr)native);
            JointCount = skeleton.JointCount;
        }

        public int JointCount { get; }

        public ClipHandle Handle { get { return handle; } }

        public SinewClip* NativePointer { get { return (SinewClip*)handle.Pointer; } }

        internal SinewClip* Enter(ref bool added) { return (SinewClip*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        /// <summary>Seconds.</summary>
        public float Duration
        {
            get
            {
                float d;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_clip_duration(Enter(ref a), &d)); }
                finally { Exit(a); }
                return d;
            }
        }

        static void CheckKeys(float[] times, int values, int inTangents, int outTangents)
        {
            if (times == null) Library.ThrowNull("times");
            if (values != times.Length)
            {
                Library.ThrowLength("values", values + " values for " + times.Length + " key times");
            }
            if (inTangents >= 0 && inTangents != times.Length)
            {
                Library.ThrowLength("inTangents", inTangents + " in tangents for " + times.Length + " key times");
            }
            if (outTangents >= 0 && outTangents != times.Length)
            {
                Library.ThrowLength("outTangents", outTangents + " out tangents for " + times.Length + " key times");
            }
        }

        /// <summary>
        /// Sets (replaces) a joint's translation track: strictly increasing times within
        /// [0, Duration]; tangents (units per second) for Cubic only, null otherwise.
        /// </summary>
        public void SetTranslationTrack(int joint, Interpolation interpolation, float[] times, Vec3[] values, Vec3[] inTangents = null, Vec3[] outTangents = null)
        {
            if (values == null) Library.ThrowNull("values");
            CheckKeys(times, values.Length, inTangents == null ? -1 : inTangents.Length, outTangents == null ? -1 : outTangents.Length);
            bool a = false;
            try
            {
                fixed (float* t = times)
                fixed (Vec3* v = values)
                fixed (Vec3* i = inTangents)
                fixed (Vec3* o = outTangents)
                {
                    Library.Check(NativeMethods.sinew_clip_set_translation_track(Enter(ref a), (uint)joint, (int)interpolation, t, (SinewVec3*)v, (SinewVec3*)i, (SinewVec3*)o, (uint)times.Length));
                }
            }
            finally { Exit(a); }
        }

        /// <summary>Sets (replaces) a joint's rotation track (keys renormalized); see SetTranslationTrack.</summary>
        public void SetRotationTrack(int joint, Interpolation interpolation, float[] times, Quat[] values, Quat[] inTangents = null, Quat[] outTangents = null)
        {
            if (values == null) Library.ThrowNull("values");
            CheckKeys(times, values.Length, inTangents == null ? -1 : inTangents.Length, outTangents == null ? -1 : outTangents.Length);
            bool a = false;
            try
            {
                fixed (float* t = times)
                fixed (Quat* v = values)
                fixed (Quat* i = inTangents)
                fixed (Quat* o = outTangents)
                {
                    Library.Check(NativeMethods.sinew_clip_set_rotation_track(Enter(ref a), (uint)joint, (int)interpolation, t, (SinewQuat*)v, (SinewQuat*)i, (SinewQuat*)o, (uint)times.Length));
                }
            }
            finally { Exit(a); }
        }

        /// <summary>Sets (replaces) a joint's scale track; see SetTranslationTrack.</summary>
        public void SetScaleTrack(int joint, Interpolation interpolation, float[] times, Vec3[] values, Vec3[] inTangents = null, Vec3[] outTangents = null)
        {
            if (values == null) Library.ThrowNull("values");
            CheckKeys(times, values.Length, inTangents == null ? -1 : inTangents.Length, outTangents == null ? -1 : outTangents.Length);
            bool a = false;
            try
            {
                fixed (float* t = times)
                fixed (Vec3* v = values)
                fixed (Vec3* i = inTangents)
                fixed (Vec3* o = outTangents)
                {
                    Library.Check(NativeMethods.sinew_clip_set_scale_track(Enter(ref a), (uint)joint, (int)interpolation, t, (SinewVec3*)v, (SinewVec3*)i, (SinewVec3*)o, (uint)times.Length));
                }
            }
            finally { Exit(a); }
        }

        /// <summary>Removes a joint's track so it keeps the rest pose's value.</summary>
        public void ClearTrack(int joint, TrackProperty property)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_clip_clear_track(Enter(ref a), (uint)joint, (int)property)); }
            finally { Exit(a); }
        }

        /// <summary>
        /// Samples at playback <paramref name="time"/> (wrapped when looping, else clamped) into
        /// <paramref name="output"/>; a cursor makes forward playback O(1) per track.
        /// </summary>
        public void Sample(float time, bool looping, Pose output, ClipCursor cursor = null)
        {
            if (output == null) Library.ThrowNull("output");
            bool a = false, o = false, c = false;
            try
            {
                SinewClip* clip = Enter(ref a);
                SinewClipCursor* cur = cursor == null ? null : cursor.Enter(ref c);
                Library.Check(NativeMethods.sinew_clip_sample(clip, cur, time, looping ? 1u : 0u, output.Enter(ref o)));
            }
            finally
            {
                Exit(a);
                output.Exit(o);
                if (cursor != null) cursor.Exit(c);
            }
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>Remembers key positions so forward playback samples in O(1) per track.</summary>
    public sealed unsafe class ClipCursor : IDisposable
    {
        readonly ClipCursorHandle handle = new ClipCursorHandle();

        /// <summary>A cursor for clips of <paramref name="clip"/>'s joint count.</summary>
        public ClipCursor(Clip clip)
        {
            if (clip == null) Library.ThrowNull("clip");
            SinewClipCursor* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_clip_cursor_create(clip.Enter(ref a), &native)); }
            finally { clip.Exit(a); }
            handle.Attach((IntPtr)native);
        }

        public ClipCursorHandle Handle { get { return handle; } }

        public SinewClipCursor* NativePointer { get { return (SinewClipCursor*)handle.Pointer; } }

        internal SinewClipCursor* Enter(ref bool added) { return (SinewClipCursor*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// Plays clips of one skeleton with queued transitions; keeps the clips it plays alive.
    /// Update allocates nothing. Clock rules (as SinewCrossfade in sinew.h): a clip starts at
    /// time 0 when played or faded to; Update advances every clip and transition by dt, then
    /// samples at the new times; queued fades run at once and finish in queue order, the newest
    /// finished one becoming current with its own time.
    /// </summary>
    public sealed unsafe class Crossfade : IDisposable
    {
        readonly CrossfadeHandle handle = new CrossfadeHandle();

        /// <summary>A controller that can queue up to <paramref name="maxFades"/> (1 to 256) fades.</summary>
        public Crossfade(Skeleton skeleton, int maxFades = 4)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewCrossfade* native = null;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_crossfade_create(skeleton.Enter(ref a), (uint)maxFades, &native)); }
            finally { skeleton.Exit(a); }
            handle.Attach((IntPtr)native);
            JointCount = skeleton.JointCount;
        }

        public int JointCount { get; }

        public CrossfadeHandle Handle { get { return handle; } }

        public SinewCrossfade* NativePointer { get { return (SinewCrossfade*)handle.Pointer; } }

        internal SinewCrossfade* Enter(ref bool added) { return (SinewCrossfade*)handle.Enter(ref added); }
        internal void Exit(bool added) { handle.Exit(added); }

        /// <summary>Plays <paramref name="clip"/> from time 0 at once, dropping queued fades and any inertialization.</summary>
        public void Play(Clip clip, bool looping = true)
        {
            if (clip == null) Library.ThrowNull("clip");
            bool a = false, c = false;
            try { Library.Check(NativeMethods.sinew_crossfade_play(Enter(ref a), clip.Enter(ref c), looping ? 1u : 0u)); }
            finally { Exit(a); clip.Exit(c); }
        }

        /// <summary>
        /// Requests a transition to <paramref name="clip"/> over <paramref name="duration"/>
        /// seconds; returns whether one started. When the clip is already the last request
        /// (current with nothing queued, or last queued), none starts (false) and that clip plays
        /// on with <paramref name="looping"/> applied: turned off, its time wraps into the clip
        /// first (no jump; it then holds its last pose); turned on, its time is clamped into the
        /// clip first (a clip held at its end starts over). Linear and smooth fades queue, the new
        /// clip from time 0 (Status.OutOfRange when the queue is full). Inertialized ones switch
        /// at once and drop the queued fades (no exception: the decaying offset from the last
        /// output holds them). Nothing playing or a zero duration: the clip plays.
        /// </summary>
        public bool FadeTo(Clip clip, float duration, FadeCurve curve = FadeCurve.Smooth, bool looping = true)
        {
            if (clip == null) Library.ThrowNull("clip");
            uint queued = 0;
            bool a = false, c = false;
            try { Library.Check(NativeMethods.sinew_crossfade_fade_to(Enter(ref a), clip.Enter(ref c), duration, (int)curve, looping ? 1u : 0u, &queued)); }
            finally { Exit(a); clip.Exit(c); }
            return queued != 0;
        }

        /// <summary>
        /// Advances every clip and transition by <paramref name="dt"/> seconds, then computes the
        /// output pose from the new times. On an exception nothing changes.
        /// </summary>
        public void Update(float dt)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_crossfade_update(Enter(ref a), dt)); }
            finally { Exit(a); }
        }

        /// <summary>
        /// Copies the output pose of the last update into <paramref name="output"/>, a pose of the
        /// controller's skeleton or of one with the same parents.
        /// </summary>
        public void GetPose(Pose output)
        {
            if (output == null) Library.ThrowNull("output");
            bool a = false, o = false;
            try { Library.Check(NativeMethods.sinew_crossfade_get_pose(Enter(ref a), output.Enter(ref o))); }
            finally { Exit(a); output.Exit(o); }
        }

        /// <summary>Number of queued fades.</summary>
        public int FadeCount
        {
            get
            {
                uint count;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_crossfade_fade_count(Enter(ref a), &count)); }
                finally { Exit(a); }
                return (int)count;
            }
        }

        /// <summary>
        /// Writes each playing clip's weight (current first, then queued fades) into
        /// <paramref name="output"/>, up to its length; returns how many there are.
        /// </summary>
        public int GetWeights(float[] output)
        {
            if (output == null) Library.ThrowNull("output");
            uint count;
            bool a = false;
            try
            {
                fixed (float* w = output) Library.Check(NativeMethods.sinew_crossfade_get_weights(Enter(ref a), w, (uint)output.Length, &count));
            }
            finally { Exit(a); }
            return (int)count;
        }

        /// <summary>
        /// Writes each playing clip's time in the clip (where the next update advances from:
        /// wrapped when looping, clamped otherwise; 0 for a clip requested since), in the order of
        /// GetWeights, into <paramref name="output"/>, up to its length; returns how many there are.
        /// </summary>
        public int GetTimes(float[] output)
        {
            if (output == null) Library.ThrowNull("output");
            uint count;
            bool a = false;
            try
            {
                fixed (float* t = output) Library.Check(NativeMethods.sinew_crossfade_get_times(Enter(ref a), t, (uint)output.Length, &count));
            }
            finally { Exit(a); }
            return (int)count;
        }

        /// <summary>Whether an inertialized transition is running.</summary>
        public bool IsInertializing
        {
            get
            {
                float remaining;
                return GetInertialization(out remaining);
            }
        }

        /// <summary>
        /// Whether an inertialized transition is running; <paramref name="remaining"/> receives the
        /// seconds left of its duration (0 when none runs).
        /// </summary>
        public bool GetInertialization(out float remaining)
        {
            uint active;
            float left;
            bool a = false;
            try { Library.Check(NativeMethods.sinew_crossfade_is_inertializing(Enter(ref a), &active, &left)); }
            finally { Exit(a); }
            remaining = left;
            return active != 0;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>Pose blending: two-pose and layered blends, additive deltas. Nothing allocates.</summary>
    public static unsafe class Blending
    {
        /// <summary>Layers up to this count are marshalled on the stack; more go through one heap array.</summary>
        const int StackLayers = 64;

        /// <summary>
        /// <paramref name="output"/> = <paramref name="a"/> blended toward <paramref name="b"/>
        /// by <paramref name="t"/> in [0, 1], each joint's factor times <paramref name="mask"/>.
        /// The output may be a or b.
        /// </summary>
        public static void Blend(Pose a, Pose b, float t, Pose output, JointMask mask = null, BlendSpace space = BlendSpace.Local)
        {
            if (a == null) Library.ThrowNull("a");
            if (b == null) Library.ThrowNull("b");
            if (output == null) Library.ThrowNull("output");
            bool ha = false, hb = false, ho = false, hm = false;
            try
            {
                SinewPose* pa = a.Enter(ref ha);
                SinewPose* pb = b.Enter(ref hb);
                SinewJointMask* pm = mask == null ? null : mask.Enter(ref hm);
                Library.Check(NativeMethods.sinew_pose_blend(pa, pb, t, pm, (int)space, output.Enter(ref ho)));
            }
            finally
            {
                a.Exit(ha);
                b.Exit(hb);
                output.Exit(ho);
                if (mask != null) mask.Exit(hm);
            }
        }

        /// <summary>
        /// Blends every layer into <paramref name="output"/>: per joint, each layer's weight times
        /// its mask, normalized; below <paramref name="threshold"/> (&gt; 0) the rest pose makes up
        /// the difference. The output must not be one of the layers' poses.
        /// </summary>
        public static void BlendLayers(BlendLayer[] layers, float threshold, Pose output)
        {
            if (layers == null) Library.ThrowNull("layers");
            BlendLayers(layers, layers.Length, threshold, output);
        }

        /// <summary>As BlendLayers, with the first <paramref name="count"/> layers of a reusable array.</summary>
        public static void BlendLayers(BlendLayer[] layers, int count, float threshold, Pose output)
        {
            if (layers == null) Library.ThrowNull("layers");
            if (output == null) Library.ThrowNull("output");
            if (count < 0 || count > layers.Length)
            {
                throw new ArgumentOutOfRangeException("count", count, "count must be within the layers array");
            }
            if (count <= StackLayers)
            {
                SinewBlendLayer* native = stackalloc SinewBlendLayer[count == 0 ? 1 : count];
                BlendLayers(layers, count, threshold, output, native);
            }
            else
            {
                fixed (SinewBlendLayer* native = new SinewBlendLayer[count])
                {
                    BlendLayers(layers, count, threshold, output, native);
                }
            }
        }

        static void BlendLayers(BlendLayer[] layers, int count, float threshold, Pose output, SinewBlendLayer* native)
        {
            int held = 0;
            bool poseAdded = false, maskAdded = false, outAdded = false;
            try
            {
                for (int i = 0; i < count; i++)
                {
                    poseAdded = false;
                    maskAdded = false;
                    Pose pose = layers[i].Pose;
                    JointMask mask = layers[i].Mask;
                    if (pose == null) Library.ThrowNull("layers[" + i + "].Pose");
                    native[i].pose = pose.Enter(ref poseAdded);
                    native[i].weight = layers[i].Weight;
                    native[i].mask = mask == null ? null : mask.Enter(ref maskAdded);
                    held++;
                }
                Library.Check(NativeMethods.sinew_pose_blend_layers(count == 0 ? null : native, (uint)count, threshold, output.Enter(ref outAdded)));
            }
            finally
            {
                for (int i = 0; i < held; i++)
                {
                    layers[i].Pose.Exit(true);
                    if (layers[i].Mask != null) layers[i].Mask.Exit(true);
                }
                if (held < count)
                {
                    if (layers[held].Pose != null) layers[held].Pose.Exit(poseAdded);
                    if (layers[held].Mask != null) layers[held].Mask.Exit(maskAdded);
                }
                output.Exit(outAdded);
            }
        }

        /// <summary>
        /// Writes the additive delta of <paramref name="pose"/> over <paramref name="reference"/>
        /// into <paramref name="outDelta"/> (a third pose), per joint: rotation
        /// normalize(conj(ref.q) * q), translation t - ref.t, scale s * (1 / ref.s) (a
        /// reciprocal that is not finite counting as 0).
        /// </summary>
        public static void MakeAdditive(Pose pose, Pose reference, Pose outDelta)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (reference == null) Library.ThrowNull("reference");
            if (outDelta == null) Library.ThrowNull("outDelta");
            bool hp = false, hr = false, ho = false;
            try
            {
                SinewPose* pp = pose.Enter(ref hp);
                SinewPose* pr = reference.Enter(ref hr);
                Library.Check(NativeMethods.sinew_pose_make_additive(pp, pr, outDelta.Enter(ref ho)));
            }
            finally
            {
                pose.Exit(hp);
                reference.Exit(hr);
                outDelta.Exit(ho);
            }
        }

        /// <summary>
        /// Applies <paramref name="delta"/> to <paramref name="basePose"/> with
        /// <paramref name="weight"/> (negative subtracts) into <paramref name="output"/>, which may
        /// be the base but not the delta, per joint at w = weight * mask[joint] (null mask: all 1),
        /// as ozz does: rotation normalize(q * r), or normalize(q * conj(r)) for w &lt; 0, with
        /// r = 1 + |w| * (d - 1) and d = delta.q negated when d.w &lt; 0; translation
        /// t + w * delta.t; scale s * l, or s * (1 / l) for w &lt; 0, with
        /// l = (1 - |w|) + |w| * delta.s (a reciprocal that is not finite counting as 0).
        /// w = 0 leaves a joint as it is.
        /// </summary>
        public static void ApplyAdditive(Pose basePose, Pose delta, float weight, Pose output, JointMask mask = null)
        {
            if (basePose == null) Library.ThrowNull("basePose");
            if (delta == null) Library.ThrowNull("delta");
            if (output == null) Library.ThrowNull("output");
            bool hb = false, hd = false, ho = false, hm = false;
            try
            {
                SinewPose* pb = basePose.Enter(ref hb);
                SinewPose* pd = delta.Enter(ref hd);
                SinewJointMask* pm = mask == null ? null : mask.Enter(ref hm);
                Library.Check(NativeMethods.sinew_pose_apply_additive(pb, pd, weight, pm, output.Enter(ref ho)));
            }
            finally
            {
                basePose.Exit(hb);
                delta.Exit(hd);
                output.Exit(ho);
                if (mask != null) mask.Exit(hm);
            }
        }
    }
}
