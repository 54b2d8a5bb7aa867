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
    public sealed unsafe partial class Skeleton
    {
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
                    Created(NativeMethods.sinew_skeleton_create(p, (SinewTransform*)r, namePointers, (uint)parents.Length, &native), native);
                }
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
            using (Lease self = Lease())
            {
                SinewSkeleton* s = (SinewSkeleton*)self.Pointer;
                fixed (byte* h = heap)
                fixed (char* c = name)
                {
                    byte* text = heap == null ? stack : h;
                    Encoding.UTF8.GetBytes(c, name.Length, text, length);
                    text[length] = 0;
                    status = NativeMethods.sinew_skeleton_find_joint(s, text, &found);
                }
            }
            index = (int)found;
            return status;
        }

        /// <summary>Copies the parent indices into <paramref name="output"/> (length JointCount).</summary>
        public void GetParents(int[] output)
        {
            if (output == null) Library.ThrowNull("output");
            using (Lease self = Lease())
            {
                fixed (int* p = output)
                {
                    Library.Check(NativeMethods.sinew_skeleton_get_parents((SinewSkeleton*)self.Pointer, p, (uint)output.Length));
                }
            }
        }

        public int[] GetParents() { return NewArray<int>(JointCount, GetParents); }

        /// <summary>Copies the rest-pose local transforms into <paramref name="output"/> (length JointCount).</summary>
        public void GetRestPose(Transform[] output)
        {
            if (output == null) Library.ThrowNull("output");
            using (Lease self = Lease())
            {
                fixed (Transform* p = output)
                {
                    Library.Check(NativeMethods.sinew_skeleton_get_rest_pose((SinewSkeleton*)self.Pointer, (SinewTransform*)p, (uint)output.Length));
                }
            }
        }

        public Transform[] GetRestPose() { return NewArray<Transform>(JointCount, GetRestPose); }
    }

    /// <summary>One local transform per joint of a skeleton. Use one pose from one thread at a time.</summary>
    public sealed unsafe partial class Pose
    {
        /// <summary>A pose of <paramref name="skeleton"/> at its rest pose.</summary>
        public Pose(Skeleton skeleton)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewPose* native = null;
            using (Lease source = skeleton.Lease()) Created(NativeMethods.sinew_pose_create((SinewSkeleton*)source.Pointer, &native), native);
            JointCount = skeleton.JointCount;
        }

        public int JointCount { get; }

        /// <summary>Returns every joint to the skeleton's rest pose.</summary>
        public void Reset()
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_pose_reset((SinewPose*)self.Pointer));
        }

        /// <summary>A function reading or writing every joint's transform (local or model space).</summary>
        delegate SinewStatus Transforms(SinewPose* pose, SinewTransform* transforms, uint count);

        static readonly Transforms GetLocalCall = NativeMethods.sinew_pose_get_local;
        static readonly Transforms SetLocalCall = NativeMethods.sinew_pose_set_local;
        static readonly Transforms GetModelCall = NativeMethods.sinew_pose_get_model;
        static readonly Transforms ComputeModelCall = NativeMethods.sinew_pose_compute_model;
        static readonly Transforms SetModelCall = NativeMethods.sinew_pose_set_model;

        void Call(Transforms call, Transform* transforms, int count)
        {
            using (Lease self = Lease()) Library.Check(call((SinewPose*)self.Pointer, (SinewTransform*)transforms, (uint)count));
        }

        void Call(Transforms call, Transform[] transforms, string name)
        {
            if (transforms == null) Library.ThrowNull(name);
            fixed (Transform* p = transforms) Call(call, p, transforms.Length);
        }

        /// <summary>Copies the local transforms into <paramref name="output"/> (length JointCount).</summary>
        public void GetLocal(Transform[] output) { Call(GetLocalCall, output, "output"); }
        public void GetLocal(Transform* output, int count) { Call(GetLocalCall, output, count); }
        public Transform[] GetLocal() { return NewArray<Transform>(JointCount, GetLocal); }

        /// <summary>Replaces the local transforms (length JointCount; rotations renormalized).</summary>
        public void SetLocal(Transform[] local) { Call(SetLocalCall, local, "local"); }
        public void SetLocal(Transform* local, int count) { Call(SetLocalCall, local, count); }

        /// <summary>
        /// Computes every joint's model-space transform into <paramref name="output"/> (length
        /// JointCount): its parent's model transform composed with its local one, root first, the
        /// one rule every model-space call follows. The same results as
        /// <see cref="ComputeModel(Transform[])"/> (the C call takes a mutable pose only for
        /// compatibility); the output is untouched on error.
        /// </summary>
        public void GetModel(Transform[] output) { Call(GetModelCall, output, "output"); }
        public void GetModel(Transform* output, int count) { Call(GetModelCall, output, count); }
        public Transform[] GetModel() { return NewArray<Transform>(JointCount, GetModel); }

        /// <summary>
        /// <see cref="GetModel(Transform[])"/> without modifying the pose (sinew_pose_compute_model
        /// takes a const pose): the same transforms, bit for bit. A cheap first pass bounds the
        /// results, so <paramref name="output"/> is untouched on error.
        /// </summary>
        public void ComputeModel(Transform[] output) { Call(ComputeModelCall, output, "output"); }
        public void ComputeModel(Transform* output, int count) { Call(ComputeModelCall, output, count); }
        public Transform[] ComputeModel() { return NewArray<Transform>(JointCount, ComputeModel); }

        /// <summary>Sets the pose from model-space transforms of every joint.</summary>
        public void SetModel(Transform[] model) { Call(SetModelCall, model, "model"); }
        public void SetModel(Transform* model, int count) { Call(SetModelCall, model, count); }

        /// <summary>One joint's model-space transform (its ancestors only, root first: the same bits as GetModel).</summary>
        public Transform GetModelTransform(int joint)
        {
            Transform t;
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_pose_get_model_transform((SinewPose*)self.Pointer, (uint)joint, (SinewTransform*)&t));
            return t;
        }

        /// <summary>Moves one joint to a model-space transform; its descendants follow.</summary>
        public void SetModelTransform(int joint, Transform transform)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_pose_set_model_transform((SinewPose*)self.Pointer, (uint)joint, (SinewTransform*)&transform));
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
            using (Lease self = Lease())
            {
                fixed (int* j = joints)
                fixed (JointConstraint* c = constraints)
                {
                    Library.Check(NativeMethods.sinew_pose_apply_constraints((SinewPose*)self.Pointer, (uint*)j, (SinewJointConstraint*)c, (uint)joints.Length));
                }
            }
        }
    }

    /// <summary>Per-joint weights in [0, 1] for one skeleton's joint count.</summary>
    public sealed unsafe partial class JointMask
    {
        JointMask(int jointCount) { JointCount = jointCount; }

        /// <summary>A mask giving every joint of <paramref name="skeleton"/> the weight <paramref name="value"/>.</summary>
        public JointMask(Skeleton skeleton, float value = 1f)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewJointMask* native = null;
            using (Lease source = skeleton.Lease()) Created(NativeMethods.sinew_joint_mask_create((SinewSkeleton*)source.Pointer, value, &native), native);
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
            using (Lease source = skeleton.Lease()) mask.Created(NativeMethods.sinew_joint_mask_create_subtree((SinewSkeleton*)source.Pointer, (uint)root, (uint)blendDepth, &native), native);
            return mask;
        }

        public int JointCount { get; }

        public void SetWeight(int joint, float weight)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_joint_mask_set_weight((SinewJointMask*)self.Pointer, (uint)joint, weight));
        }

        /// <summary>Replaces every weight (length JointCount).</summary>
        public void SetWeights(float[] weights)
        {
            if (weights == null) Library.ThrowNull("weights");
            using (Lease self = Lease())
            {
                fixed (float* w = weights) Library.Check(NativeMethods.sinew_joint_mask_set_weights((SinewJointMask*)self.Pointer, w, (uint)weights.Length));
            }
        }

        /// <summary>Copies every weight into <paramref name="output"/> (length JointCount).</summary>
        public void GetWeights(float[] output)
        {
            if (output == null) Library.ThrowNull("output");
            using (Lease self = Lease())
            {
                fixed (float* w = output) Library.Check(NativeMethods.sinew_joint_mask_get_weights((SinewJointMask*)self.Pointer, w, (uint)output.Length));
            }
        }

        public float[] GetWeights() { return NewArray<float>(JointCount, GetWeights); }
    }

    /// <summary>
    /// A keyframed clip. Set its tracks before a crossfade plays it (a playing clip is shared
    /// with the controller and cannot change).
    /// </summary>
    public sealed unsafe partial class Clip
    {
        /// <summary>An empty clip of <paramref name="duration"/> seconds; joints without tracks keep the rest pose.</summary>
        public Clip(Skeleton skeleton, float duration)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewClip* native = null;
            using (Lease source = skeleton.Lease()) Created(NativeMethods.sinew_clip_create((SinewSkeleton*)source.Pointer, duration, &native), native);
            JointCount = skeleton.JointCount;
        }

        Clip(int jointCount) { JointCount = jointCount; }

        /// <summary>
        /// A clip from <paramref name="frameCount"/> uniformly sampled frames at
        /// <paramref name="frameRate"/> frames per second: <paramref name="frames"/> holds
        /// frameCount × JointCount local transforms, frame-major (frame f, joint j at
        /// f * JointCount + j), as importers produce them. Joints whose
        /// <paramref name="jointMask"/> entry is true (every joint when it is null) get translation,
        /// rotation and scale tracks keyed at k / frameRate seconds (computed in double per key and
        /// rounded once: the last key is the duration exactly); the others keep the rest pose.
        /// Duration (frameCount - 1) / frameRate, or with <paramref name="wrap"/>
        /// frameCount / frameRate and the clip wrapping (<see cref="Wrap"/>). Interpolation is
        /// Step, Linear or Slerp (Cubic is refused: frames have no tangents).
        /// </summary>
        public static Clip FromFrames(Skeleton skeleton, Transform[] frames, int frameCount, float frameRate, Interpolation interpolation = Interpolation.Linear, bool wrap = false, bool[] jointMask = null)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            if (frames == null) Library.ThrowNull("frames");
            int joints = skeleton.JointCount;
            if (frameCount < 0 || (long)frameCount * joints != frames.Length)
            {
                Library.ThrowLength("frames", "frames has " + frames.Length + " entries for " + frameCount + " frames of " + joints + " joints");
            }
            if (jointMask != null && jointMask.Length != joints)
            {
                Library.ThrowLength("jointMask", "jointMask has " + jointMask.Length + " entries for " + joints + " joints");
            }
            byte[] mask = null;
            if (jointMask != null)
            {
                mask = new byte[joints];
                for (int j = 0; j < joints; j++) mask[j] = jointMask[j] ? (byte)1 : (byte)0;
            }
            Clip clip = new Clip(joints);
            SinewClip* native = null;
            using (Lease source = skeleton.Lease())
            fixed (Transform* f = frames)
            fixed (byte* m = mask)
            {
                clip.Created(NativeMethods.sinew_clip_create_from_frames((SinewSkeleton*)source.Pointer, (SinewTransform*)f, (uint)frameCount, (uint)joints, frameRate, m, (int)interpolation, wrap ? 1u : 0u, &native), native);
            }
            return clip;
        }

        public int JointCount { get; }

        /// <summary>
        /// Whether looping playback wraps from each track's last key back to its first: after the
        /// last key t_last (or before the first, t_first) it interpolates from the last key to the
        /// first over dt = (Duration - t_last) + t_first, at the fraction (t - t_last) / dt after
        /// the last key and ((Duration - t_last) + t) / dt before the first. Clamped playback is
        /// unaffected; setting it is refused while a crossfade plays the clip.
        /// </summary>
        public bool Wrap
        {
            get
            {
                uint w;
                using (Lease self = Lease()) Library.Check(NativeMethods.sinew_clip_get_wrap((SinewClip*)self.Pointer, &w));
                return w == 1;
            }
            set
            {
                using (Lease self = Lease()) Library.Check(NativeMethods.sinew_clip_set_wrap((SinewClip*)self.Pointer, value ? 1u : 0u));
            }
        }

        /// <summary>Seconds.</summary>
        public float Duration
        {
            get
            {
                float d;
                using (Lease self = Lease()) Library.Check(NativeMethods.sinew_clip_duration((SinewClip*)self.Pointer, &d));
                return d;
            }
        }

        /// <summary>
        /// Sets (replaces) a joint's translation track: strictly increasing times within
        /// [0, Duration]; tangents (units per second) for Cubic only, null otherwise.
        /// </summary>
        public void SetTranslationTrack(int joint, Interpolation interpolation, float[] times, Vec3[] values, Vec3[] inTangents = null, Vec3[] outTangents = null)
        {
            fixed (Vec3* v = values, i = inTangents, o = outTangents) SetTrack(TranslationTrack, joint, interpolation, times, values, inTangents, outTangents, v, i, o);
        }

        /// <summary>Sets (replaces) a joint's rotation track (keys renormalized); see SetTranslationTrack.</summary>
        public void SetRotationTrack(int joint, Interpolation interpolation, float[] times, Quat[] values, Quat[] inTangents = null, Quat[] outTangents = null)
        {
            fixed (Quat* v = values, i = inTangents, o = outTangents) SetTrack(RotationTrack, joint, interpolation, times, values, inTangents, outTangents, v, i, o);
        }

        /// <summary>Sets (replaces) a joint's scale track; see SetTranslationTrack.</summary>
        public void SetScaleTrack(int joint, Interpolation interpolation, float[] times, Vec3[] values, Vec3[] inTangents = null, Vec3[] outTangents = null)
        {
            fixed (Vec3* v = values, i = inTangents, o = outTangents) SetTrack(ScaleTrack, joint, interpolation, times, values, inTangents, outTangents, v, i, o);
        }

        /// <summary>A track setter of the C API, its value and tangent arrays (SinewVec3 or SinewQuat) as pointers.</summary>
        delegate SinewStatus Track(SinewClip* clip, uint joint, int interpolation, float* times, void* values, void* inTangents, void* outTangents, uint count);

        static readonly Track TranslationTrack = (c, j, m, t, v, i, o, n) => NativeMethods.sinew_clip_set_translation_track(c, j, m, t, (SinewVec3*)v, (SinewVec3*)i, (SinewVec3*)o, n);
        static readonly Track RotationTrack = (c, j, m, t, v, i, o, n) => NativeMethods.sinew_clip_set_rotation_track(c, j, m, t, (SinewQuat*)v, (SinewQuat*)i, (SinewQuat*)o, n);
        static readonly Track ScaleTrack = (c, j, m, t, v, i, o, n) => NativeMethods.sinew_clip_set_scale_track(c, j, m, t, (SinewVec3*)v, (SinewVec3*)i, (SinewVec3*)o, n);

        /// <summary>Checks the key arrays (values, and tangents when given, one per time), then sets the track from their pinned addresses.</summary>
        void SetTrack(Track set, int joint, Interpolation interpolation, float[] times, Array values, Array inTangents, Array outTangents, void* v, void* i, void* o)
        {
            if (times == null) Library.ThrowNull("times");
            if (values == null) Library.ThrowNull("values");
            KeysMatch("values", values, times.Length);
            KeysMatch("inTangents", inTangents, times.Length);
            KeysMatch("outTangents", outTangents, times.Length);
            using (Lease self = Lease())
            {
                fixed (float* t = times) Library.Check(set((SinewClip*)self.Pointer, (uint)joint, (int)interpolation, t, v, i, o, (uint)times.Length));
            }
        }

        static void KeysMatch(string name, Array keys, int times)
        {
            if (keys != null && keys.Length != times)
            {
                Library.ThrowLength(name, name + " has " + keys.Length + " entries for " + times + " key times");
            }
        }

        /// <summary>Removes a joint's track so it keeps the rest pose's value.</summary>
        public void ClearTrack(int joint, TrackProperty property)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_clip_clear_track((SinewClip*)self.Pointer, (uint)joint, (int)property));
        }

        /// <summary>
        /// Samples at playback <paramref name="time"/> (wrapped when looping, else clamped) into
        /// <paramref name="output"/>; a cursor makes forward playback O(1) per track.
        /// </summary>
        public void Sample(float time, bool looping, Pose output, ClipCursor cursor = null)
        {
            if (output == null) Library.ThrowNull("output");
            using (Lease self = Lease())
            using (Lease c = ClipCursor.LeaseOrNone(cursor))
            using (Lease o = output.Lease())
            {
                Library.Check(NativeMethods.sinew_clip_sample((SinewClip*)self.Pointer, (SinewClipCursor*)c.Pointer, time, looping ? 1u : 0u, (SinewPose*)o.Pointer));
            }
        }
    }

    /// <summary>Remembers key positions so forward playback samples in O(1) per track.</summary>
    public sealed unsafe partial class ClipCursor
    {
        /// <summary>A cursor for clips of <paramref name="clip"/>'s joint count.</summary>
        public ClipCursor(Clip clip)
        {
            if (clip == null) Library.ThrowNull("clip");
            SinewClipCursor* native = null;
            using (Lease source = clip.Lease()) Created(NativeMethods.sinew_clip_cursor_create((SinewClip*)source.Pointer, &native), native);
        }
    }

    /// <summary>
    /// Plays clips of one skeleton with queued transitions; keeps the clips it plays alive.
    /// Update allocates nothing. Clock rules (as SinewCrossfade in sinew.h): a clip starts at
    /// time 0 when played or faded to; Update advances every clip and transition by dt, then
    /// samples at the new times; queued fades run at once and finish in queue order, the newest
    /// finished one becoming current with its own time.
    /// </summary>
    public sealed unsafe partial class Crossfade
    {
        /// <summary>A controller that can queue up to <paramref name="maxFades"/> (1 to 256) fades.</summary>
        public Crossfade(Skeleton skeleton, int maxFades = 4)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            SinewCrossfade* native = null;
            using (Lease source = skeleton.Lease()) Created(NativeMethods.sinew_crossfade_create((SinewSkeleton*)source.Pointer, (uint)maxFades, &native), native);
            JointCount = skeleton.JointCount;
        }

        public int JointCount { get; }

        /// <summary>Plays <paramref name="clip"/> from time 0 at once, dropping queued fades and any inertialization.</summary>
        public void Play(Clip clip, bool looping = true)
        {
            if (clip == null) Library.ThrowNull("clip");
            using (Lease self = Lease())
            using (Lease c = clip.Lease())
            {
                Library.Check(NativeMethods.sinew_crossfade_play((SinewCrossfade*)self.Pointer, (SinewClip*)c.Pointer, looping ? 1u : 0u));
            }
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
            using (Lease self = Lease())
            using (Lease c = clip.Lease())
            {
                Library.Check(NativeMethods.sinew_crossfade_fade_to((SinewCrossfade*)self.Pointer, (SinewClip*)c.Pointer, duration, (int)curve, looping ? 1u : 0u, &queued));
            }
            return queued != 0;
        }

        /// <summary>
        /// Advances every clip and transition by <paramref name="dt"/> seconds, then computes the
        /// output pose from the new times. On an exception nothing changes.
        /// </summary>
        public void Update(float dt)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_crossfade_update((SinewCrossfade*)self.Pointer, dt));
        }

        /// <summary>
        /// Copies the output pose of the last update into <paramref name="output"/>, a pose of the
        /// controller's skeleton or of one with the same parents.
        /// </summary>
        public void GetPose(Pose output)
        {
            if (output == null) Library.ThrowNull("output");
            using (Lease self = Lease())
            using (Lease o = output.Lease())
            {
                Library.Check(NativeMethods.sinew_crossfade_get_pose((SinewCrossfade*)self.Pointer, (SinewPose*)o.Pointer));
            }
        }

        /// <summary>Number of queued fades.</summary>
        public int FadeCount
        {
            get
            {
                uint count;
                using (Lease self = Lease()) Library.Check(NativeMethods.sinew_crossfade_fade_count((SinewCrossfade*)self.Pointer, &count));
                return (int)count;
            }
        }

        /// <summary>
        /// Writes each playing clip's weight (current first, then queued fades) into
        /// <paramref name="output"/>, up to its length; returns how many there are.
        /// </summary>
        public int GetWeights(float[] output) { return PerClip(WeightsCall, output); }

        /// <summary>
        /// Writes each playing clip's time in the clip (where the next update advances from:
        /// wrapped when looping, clamped otherwise; 0 for a clip requested since), in the order of
        /// GetWeights, into <paramref name="output"/>, up to its length; returns how many there are.
        /// </summary>
        public int GetTimes(float[] output) { return PerClip(TimesCall, output); }

        /// <summary>A C function writing one float per playing clip and their count.</summary>
        delegate SinewStatus PerClipCall(SinewCrossfade* crossfade, float* output, uint capacity, uint* count);

        static readonly PerClipCall WeightsCall = NativeMethods.sinew_crossfade_get_weights;
        static readonly PerClipCall TimesCall = NativeMethods.sinew_crossfade_get_times;

        int PerClip(PerClipCall read, float[] output)
        {
            if (output == null) Library.ThrowNull("output");
            uint count;
            using (Lease self = Lease())
            {
                fixed (float* o = output) Library.Check(read((SinewCrossfade*)self.Pointer, o, (uint)output.Length, &count));
            }
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
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_crossfade_is_inertializing((SinewCrossfade*)self.Pointer, &active, &left));
            remaining = left;
            return active != 0;
        }
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
            using (Lease pa = Pose.Required(a, "a"))
            using (Lease pb = Pose.Required(b, "b"))
            using (Lease po = Pose.Required(output, "output"))
            using (Lease pm = JointMask.LeaseOrNone(mask))
            {
                Library.Check(NativeMethods.sinew_pose_blend((SinewPose*)pa.Pointer, (SinewPose*)pb.Pointer, t, (SinewJointMask*)pm.Pointer, (int)space, (SinewPose*)po.Pointer));
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
            BlendLayers(layers, count, null, 0, threshold, output);
        }

        /// <summary>
        /// BlendLayers, then each additive layer applied in order as ApplyAdditive does, in one
        /// call: the same bits as those calls in turn. An additive layer's Pose is a
        /// delta (from MakeAdditive) and its Weight any finite value, negative subtracting; per
        /// joint at w = weight * mask[joint] (null mask: all 1): rotation normalize(q * r), or
        /// normalize(q * conj(r)) for w &lt; 0, with r = 1 + |w| * (d - 1) and d = delta.q
        /// negated when d.w &lt; 0; translation t + w * delta.t; scale s * l, or s * (1 / l) for
        /// w &lt; 0, with l = (1 - |w|) + |w| * delta.s (a reciprocal that is not finite counting
        /// as 0). The output must not be a layer's pose nor an additive layer's delta.
        /// </summary>
        public static void BlendLayersAdditive(BlendLayer[] layers, BlendLayer[] additive, float threshold, Pose output)
        {
            if (layers == null) Library.ThrowNull("layers");
            if (additive == null) Library.ThrowNull("additive");
            BlendLayersAdditive(layers, layers.Length, additive, additive.Length, threshold, output);
        }

        /// <summary>
        /// As BlendLayersAdditive, with the first <paramref name="count"/> layers and the first
        /// <paramref name="additiveCount"/> additive layers of reusable arrays.
        /// </summary>
        public static void BlendLayersAdditive(BlendLayer[] layers, int count, BlendLayer[] additive, int additiveCount, float threshold, Pose output)
        {
            if (layers == null) Library.ThrowNull("layers");
            if (additive == null) Library.ThrowNull("additive");
            BlendLayers(layers, count, additive, additiveCount, threshold, output);
        }

        /// <summary>
        /// Marshals the layers and (when <paramref name="additive"/> is not null) the additive
        /// layers into one native array, on the stack up to StackLayers of them, and blends.
        /// </summary>
        static void BlendLayers(BlendLayer[] layers, int count, BlendLayer[] additive, int additiveCount, float threshold, Pose output)
        {
            if (output == null) Library.ThrowNull("output");
            if (count < 0 || count > layers.Length)
            {
                throw new ArgumentOutOfRangeException("count", count, "count must be within the layers array");
            }
            int additiveLength = additive == null ? 0 : additive.Length;
            if (additiveCount < 0 || additiveCount > additiveLength)
            {
                throw new ArgumentOutOfRangeException("additiveCount", additiveCount, "additiveCount must be within the additive array");
            }
            int total = checked(count + additiveCount);
            if (total <= StackLayers)
            {
                SinewBlendLayer* native = stackalloc SinewBlendLayer[total == 0 ? 1 : total];
                BlendLayers(layers, count, additive, additiveCount, threshold, output, native);
            }
            else
            {
                fixed (SinewBlendLayer* native = new SinewBlendLayer[total])
                {
                    BlendLayers(layers, count, additive, additiveCount, threshold, output, native);
                }
            }
        }

        /// <summary>
        /// Fills <paramref name="native"/> with the layers, then the additive ones, holding a
        /// reference on every pose and mask for the call, and calls sinew_pose_blend_layers, or
        /// sinew_pose_blend_layers_additive when <paramref name="additive"/> is not null.
        /// </summary>
        static void BlendLayers(BlendLayer[] layers, int count, BlendLayer[] additive, int additiveCount, float threshold, Pose output, SinewBlendLayer* native)
        {
            int held = 0, heldAdditive = 0;
            SinewBlendLayer* nativeAdditive = native + count;
            try
            {
                Hold(layers, count, "layers", native, ref held);
                Hold(additive, additiveCount, "additive", nativeAdditive, ref heldAdditive);
                using (Lease o = output.Lease())
                {
                    SinewBlendLayer* l = count == 0 ? null : native;
                    SinewPose* po = (SinewPose*)o.Pointer;
                    Library.Check(additive == null
                        ? NativeMethods.sinew_pose_blend_layers(l, (uint)count, threshold, po)
                        : NativeMethods.sinew_pose_blend_layers_additive(l, (uint)count, additiveCount == 0 ? null : nativeAdditive, (uint)additiveCount, threshold, po));
                }
            }
            finally
            {
                Release(layers, held);
                Release(additive, heldAdditive);
            }
        }

        /// <summary>
        /// Copies the first <paramref name="count"/> layers into <paramref name="native"/>,
        /// taking a reference on each pose, then its mask, layer by layer; their number varies,
        /// so instead of one lease each the references taken are counted in
        /// <paramref name="held"/>, for Release to give back in the same order.
        /// </summary>
        static void Hold(BlendLayer[] layers, int count, string name, SinewBlendLayer* native, ref int held)
        {
            for (int i = 0; i < count; i++)
            {
                if (layers[i].Pose == null) Library.ThrowNull(name + "[" + i + "].Pose");
                native[i].pose = (SinewPose*)AddRef(layers[i].Pose.Handle, ref held);
                native[i].weight = layers[i].Weight;
                native[i].mask = layers[i].Mask == null ? null : (SinewJointMask*)AddRef(layers[i].Mask.Handle, ref held);
            }
        }

        /// <summary>Gives back the <paramref name="held"/> references Hold took, in its order.</summary>
        static void Release(BlendLayer[] layers, int held)
        {
            for (int i = 0; held > 0; i++)
            {
                layers[i].Pose.Handle.DangerousRelease();
                if (--held > 0 && layers[i].Mask != null)
                {
                    layers[i].Mask.Handle.DangerousRelease();
                    held--;
                }
            }
        }

        static IntPtr AddRef(SafeHandle handle, ref int held)
        {
            bool added = false;
            handle.DangerousAddRef(ref added);
            held++;
            return handle.DangerousGetHandle();
        }

        /// <summary>
        /// Writes the additive delta of <paramref name="pose"/> over <paramref name="reference"/>
        /// into <paramref name="outDelta"/> (a third pose), per joint: rotation
        /// normalize(conj(ref.q) * q), translation t - ref.t, scale s * (1 / ref.s) (a
        /// reciprocal that is not finite counting as 0).
        /// </summary>
        public static void MakeAdditive(Pose pose, Pose reference, Pose outDelta)
        {
            using (Lease pp = Pose.Required(pose, "pose"))
            using (Lease pr = Pose.Required(reference, "reference"))
            using (Lease po = Pose.Required(outDelta, "outDelta"))
            {
                Library.Check(NativeMethods.sinew_pose_make_additive((SinewPose*)pp.Pointer, (SinewPose*)pr.Pointer, (SinewPose*)po.Pointer));
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
            using (Lease pb = Pose.Required(basePose, "basePose"))
            using (Lease pd = Pose.Required(delta, "delta"))
            using (Lease po = Pose.Required(output, "output"))
            using (Lease pm = JointMask.LeaseOrNone(mask))
            {
                Library.Check(NativeMethods.sinew_pose_apply_additive((SinewPose*)pb.Pointer, (SinewPose*)pd.Pointer, weight, (SinewJointMask*)pm.Pointer, (SinewPose*)po.Pointer));
            }
        }
    }

    /// <summary>
    /// The joints a mesh is skinned to and one inverse bind matrix each (the inverse of the
    /// joint's model matrix at bind time, as glTF's inverseBindMatrices), given once; poses
    /// compute skinning palettes from it. Immutable.
    /// </summary>
    public sealed unsafe partial class Skin
    {
        /// <summary>A skin of every joint of <paramref name="skeleton"/> in order (inverseBinds of length JointCount).</summary>
        public Skin(Skeleton skeleton, Mat4[] inverseBinds) : this(skeleton, null, inverseBinds) { }

        /// <summary>
        /// A skin whose palette entry k is joint <paramref name="joints"/>[k] (unique), with
        /// <paramref name="inverseBinds"/>[k]; <paramref name="joints"/> null for every joint in order.
        /// </summary>
        public Skin(Skeleton skeleton, int[] joints, Mat4[] inverseBinds)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            if (inverseBinds == null) Library.ThrowNull("inverseBinds");
            if (joints != null && joints.Length != inverseBinds.Length)
            {
                Library.ThrowLength("inverseBinds", "inverseBinds has " + inverseBinds.Length + " entries for " + joints.Length + " joints");
            }
            SinewSkin* native = null;
            using (Lease source = skeleton.Lease())
            fixed (int* j = joints)
            fixed (Mat4* b = inverseBinds)
            {
                Created(NativeMethods.sinew_skin_create((SinewSkeleton*)source.Pointer, (uint*)j, (SinewMat4*)b, (uint)inverseBinds.Length, &native), native);
            }
            JointCount = inverseBinds.Length;
        }

        /// <summary>Number of palette entries (skinned joints).</summary>
        public int JointCount { get; }
    }

    public sealed unsafe partial class Pose
    {
        /// <summary>
        /// Model-space 4×4 matrices (column-major) of every joint into <paramref name="output"/>
        /// (length JointCount): each joint's model transform as a matrix (scale, then rotation, then
        /// translation), composed as matrices down the hierarchy, so equal to the matrix of
        /// ComputeModel's transform to rounding (the exact rule: sinew_pose_compute_model_matrices).
        /// Reads the pose only; output untouched on error.
        /// </summary>
        public void ComputeModelMatrices(Mat4[] output)
        {
            if (output == null) Library.ThrowNull("output");
            fixed (Mat4* p = output) ComputeModelMatrices(p, output.Length);
        }
        public void ComputeModelMatrices(Mat4* output, int count)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_pose_compute_model_matrices((SinewPose*)self.Pointer, (SinewMat4*)output, (uint)count));
        }
        public Mat4[] ComputeModelMatrices() { return NewArray<Mat4>(JointCount, ComputeModelMatrices); }

        /// <summary>
        /// <paramref name="skin"/>'s skinning palette into <paramref name="output"/> (length
        /// skin.JointCount): entry k is the model matrix of the skin's joint k times its inverse bind
        /// matrix. Reads the pose only; output untouched on error.
        /// </summary>
        public void ComputeSkinningPalette(Skin skin, Mat4[] output)
        {
            if (output == null) Library.ThrowNull("output");
            fixed (Mat4* p = output) ComputeSkinningPalette(skin, p, output.Length);
        }
        public void ComputeSkinningPalette(Skin skin, Mat4* output, int count)
        {
            if (skin == null) Library.ThrowNull("skin");
            using (Lease self = Lease())
            using (Lease s = skin.Lease())
            {
                Library.Check(NativeMethods.sinew_pose_compute_skinning_palette((SinewPose*)self.Pointer, (SinewSkin*)s.Pointer, (SinewMat4*)output, (uint)count));
            }
        }
        public Mat4[] ComputeSkinningPalette(Skin skin)
        {
            if (skin == null) Library.ThrowNull("skin");
            return NewArray<Mat4>(skin.JointCount, o => ComputeSkinningPalette(skin, o));
        }
    }
}
