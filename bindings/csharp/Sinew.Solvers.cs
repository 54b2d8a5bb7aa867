// IK solvers: two-bone, FABRIK, CCD, and hand IK retargeting. Solving allocates nothing.

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>
    /// Analytic two-bone IK (Unreal's TwoBoneIK node semantics). One solver may serve many
    /// chains; use it from one thread at a time.
    /// </summary>
    public sealed unsafe class TwoBoneIk : IDisposable
    {
        readonly TwoBoneIkHandle handle = new TwoBoneIkHandle();

        public TwoBoneIk() : this(TwoBoneIkSettings.Default) { }

        public TwoBoneIk(TwoBoneIkSettings settings)
        {
            SinewTwoBoneIk* native = null;
            Library.Check(NativeMethods.sinew_two_bone_ik_create((SinewTwoBoneIkSettings*)&settings, &native));
            handle.Attach((IntPtr)native);
        }

        public TwoBoneIkHandle Handle { get { return handle; } }

        public SinewTwoBoneIk* NativePointer { get { return (SinewTwoBoneIk*)handle.Pointer; } }

        SinewTwoBoneIk* Enter(ref bool added) { return (SinewTwoBoneIk*)handle.Enter(ref added); }

        /// <summary>The solver's settings; setting validates them (unchanged on error).</summary>
        public TwoBoneIkSettings Settings
        {
            get
            {
                TwoBoneIkSettings s;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_two_bone_ik_get_settings(Enter(ref a), (SinewTwoBoneIkSettings*)&s)); }
                finally { handle.Exit(a); }
                return s;
            }
            set
            {
                bool a = false;
                try { Library.Check(NativeMethods.sinew_two_bone_ik_set_settings(Enter(ref a), (SinewTwoBoneIkSettings*)&value)); }
                finally { handle.Exit(a); }
            }
        }

        /// <summary>
        /// Solves three model-space transforms (root, joint, end) in place toward
        /// <paramref name="effectorPosition"/>. <paramref name="jointTarget"/> is the pole (null
        /// keeps the chain's bend plane). On error the chain is untouched.
        /// </summary>
        public IkResult Solve(Transform[] chain, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            if (chain.Length != 3) Library.ThrowLength("chain", "a two-bone chain has 3 transforms, not " + chain.Length);
            fixed (Transform* c = chain) return Solve(c, effectorPosition, effectorRotation, jointTarget);
        }

        /// <summary>As Solve(Transform[], ...) on 3 transforms at <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform* chain, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            Quat rotation = effectorRotation.GetValueOrDefault();
            Vec3 pole = jointTarget.GetValueOrDefault();
            IkResult result;
            bool a = false;
            try
            {
                Library.Check(NativeMethods.sinew_two_bone_ik_solve(
                    Enter(ref a),
                    (SinewTransform*)chain,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    jointTarget.HasValue ? (SinewVec3*)&pole : null,
                    (SinewIkResult*)&result));
            }
            finally { handle.Exit(a); }
            return result;
        }

        /// <summary>
        /// Solves joints root, joint, end of <paramref name="pose"/> (each the parent of the next)
        /// toward a model-space effector and writes their local rotations back.
        /// </summary>
        public IkResult SolvePose(Pose pose, int root, int joint, int end, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            Quat rotation = effectorRotation.GetValueOrDefault();
            Vec3 pole = jointTarget.GetValueOrDefault();
            IkResult result;
            bool a = false, p = false;
            try
            {
                SinewTwoBoneIk* solver = Enter(ref a);
                Library.Check(NativeMethods.sinew_two_bone_ik_solve_pose(
                    solver,
                    pose.Enter(ref p),
                    (uint)root,
                    (uint)joint,
                    (uint)end,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    jointTarget.HasValue ? (SinewVec3*)&pole : null,
                    (SinewIkResult*)&result));
            }
            finally
            {
                handle.Exit(a);
                pose.Exit(p);
            }
            return result;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// FABRIK chain solver with per-joint constraints; all memory is allocated at creation for
    /// chains of up to MaxJoints joints. Use from one thread at a time.
    /// </summary>
    public sealed unsafe class Fabrik : IDisposable
    {
        readonly FabrikHandle handle = new FabrikHandle();

        public Fabrik(int maxJoints) : this(maxJoints, FabrikSettings.Default) { }

        public Fabrik(int maxJoints, FabrikSettings settings)
        {
            SinewFabrik* native = null;
            Library.Check(NativeMethods.sinew_fabrik_create((SinewFabrikSettings*)&settings, (uint)maxJoints, &native));
            handle.Attach((IntPtr)native);
            MaxJoints = maxJoints;
        }

        public int MaxJoints { get; }

        public FabrikHandle Handle { get { return handle; } }

        public SinewFabrik* NativePointer { get { return (SinewFabrik*)handle.Pointer; } }

        SinewFabrik* Enter(ref bool added) { return (SinewFabrik*)handle.Enter(ref added); }

        public FabrikSettings Settings
        {
            get
            {
                FabrikSettings s;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_fabrik_get_settings(Enter(ref a), (SinewFabrikSettings*)&s)); }
                finally { handle.Exit(a); }
                return s;
            }
            set
            {
                bool a = false;
                try { Library.Check(NativeMethods.sinew_fabrik_set_settings(Enter(ref a), (SinewFabrikSettings*)&value)); }
                finally { handle.Exit(a); }
            }
        }

        /// <summary>Sets the constraint of chain joint <paramref name="joint"/> (0 is the chain's root).</summary>
        public void SetConstraint(int joint, JointConstraint constraint)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_fabrik_set_constraint(Enter(ref a), (uint)joint, (SinewJointConstraint*)&constraint)); }
            finally { handle.Exit(a); }
        }

        public void ClearConstraint(int joint)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_fabrik_set_constraint(Enter(ref a), (uint)joint, null)); }
            finally { handle.Exit(a); }
        }

        /// <summary>
        /// Solves a model-space chain (root first; the root stays in place) in place.
        /// <paramref name="rootParentRotation"/> is the model rotation the root's constraint is
        /// relative to (null: identity).
        /// </summary>
        public IkResult Solve(Transform[] chain, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            return Solve(chain, chain.Length, effectorPosition, effectorRotation, rootParentRotation);
        }

        /// <summary>As Solve on the first <paramref name="count"/> transforms of <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform[] chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            if (count < 0 || count > chain.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the chain array");
            fixed (Transform* c = chain) return Solve(c, count, effectorPosition, effectorRotation, rootParentRotation);
        }

        public IkResult Solve(Transform* chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            Quat rotation = effectorRotation.GetValueOrDefault();
            Quat parent = rootParentRotation.GetValueOrDefault();
            IkResult result;
            bool a = false;
            try
            {
                Library.Check(NativeMethods.sinew_fabrik_solve(
                    Enter(ref a),
                    (SinewTransform*)chain,
                    (uint)count,
                    rootParentRotation.HasValue ? (SinewQuat*)&parent : null,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    (SinewIkResult*)&result));
            }
            finally { handle.Exit(a); }
            return result;
        }

        /// <summary>
        /// Solves joints <paramref name="joints"/> of <paramref name="pose"/> (root to tip, each
        /// the parent of the next) toward a model-space effector; writes local rotations back.
        /// </summary>
        public IkResult SolvePose(Pose pose, int[] joints, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (joints == null) Library.ThrowNull("joints");
            return SolvePose(pose, joints, joints.Length, effectorPosition, effectorRotation);
        }

        public IkResult SolvePose(Pose pose, int[] joints, int count, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (joints == null) Library.ThrowNull("joints");
            if (count < 0 || count > joints.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the joints array");
            Quat rotation = effectorRotation.GetValueOrDefault();
            IkResult result;
            bool a = false, p = false;
            try
            {
                SinewFabrik* solver = Enter(ref a);
                fixed (int* j = joints)
                {
                    Library.Check(NativeMethods.sinew_fabrik_solve_pose(
                        solver,
                        pose.Enter(ref p),
                        (uint*)j,
                        (uint)count,
                        (SinewVec3*)&effectorPosition,
                        effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                        (SinewIkResult*)&result));
                }
            }
            finally
            {
                handle.Exit(a);
                pose.Exit(p);
            }
            return result;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// CCD chain solver with per-joint constraints, rotation limits and weights; all memory is
    /// allocated at creation. Use from one thread at a time.
    /// </summary>
    public sealed unsafe class Ccd : IDisposable
    {
        readonly CcdHandle handle = new CcdHandle();

        public Ccd(int maxJoints) : this(maxJoints, CcdSettings.Default) { }

        public Ccd(int maxJoints, CcdSettings settings)
        {
            SinewCcd* native = null;
            Library.Check(NativeMethods.sinew_ccd_create((SinewCcdSettings*)&settings, (uint)maxJoints, &native));
            handle.Attach((IntPtr)native);
            MaxJoints = maxJoints;
        }

        public int MaxJoints { get; }

        public CcdHandle Handle { get { return handle; } }

        public SinewCcd* NativePointer { get { return (SinewCcd*)handle.Pointer; } }

        SinewCcd* Enter(ref bool added) { return (SinewCcd*)handle.Enter(ref added); }

        public CcdSettings Settings
        {
            get
            {
                CcdSettings s;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_ccd_get_settings(Enter(ref a), (SinewCcdSettings*)&s)); }
                finally { handle.Exit(a); }
                return s;
            }
            set
            {
                bool a = false;
                try { Library.Check(NativeMethods.sinew_ccd_set_settings(Enter(ref a), (SinewCcdSettings*)&value)); }
                finally { handle.Exit(a); }
            }
        }

        public void SetConstraint(int joint, JointConstraint constraint)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_ccd_set_constraint(Enter(ref a), (uint)joint, (SinewJointConstraint*)&constraint)); }
            finally { handle.Exit(a); }
        }

        public void ClearConstraint(int joint)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_ccd_set_constraint(Enter(ref a), (uint)joint, null)); }
            finally { handle.Exit(a); }
        }

        /// <summary>
        /// Chain joint <paramref name="joint"/>'s rotation limit (degrees from the input per
        /// solve, in [0, 180]; 180 is unlimited) and weight (fraction of each step, in [0, 1]).
        /// </summary>
        public void SetJoint(int joint, float rotationLimitDegrees, float weight = 1f)
        {
            bool a = false;
            try { Library.Check(NativeMethods.sinew_ccd_set_joint(Enter(ref a), (uint)joint, rotationLimitDegrees, weight)); }
            finally { handle.Exit(a); }
        }

        public IkResult Solve(Transform[] chain, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            return Solve(chain, chain.Length, effectorPosition, effectorRotation, rootParentRotation);
        }

        public IkResult Solve(Transform[] chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            if (count < 0 || count > chain.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the chain array");
            fixed (Transform* c = chain) return Solve(c, count, effectorPosition, effectorRotation, rootParentRotation);
        }

        public IkResult Solve(Transform* chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            Quat rotation = effectorRotation.GetValueOrDefault();
            Quat parent = rootParentRotation.GetValueOrDefault();
            IkResult result;
            bool a = false;
            try
            {
                Library.Check(NativeMethods.sinew_ccd_solve(
                    Enter(ref a),
                    (SinewTransform*)chain,
                    (uint)count,
                    rootParentRotation.HasValue ? (SinewQuat*)&parent : null,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    (SinewIkResult*)&result));
            }
            finally { handle.Exit(a); }
            return result;
        }

        public IkResult SolvePose(Pose pose, int[] joints, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (joints == null) Library.ThrowNull("joints");
            return SolvePose(pose, joints, joints.Length, effectorPosition, effectorRotation);
        }

        public IkResult SolvePose(Pose pose, int[] joints, int count, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (joints == null) Library.ThrowNull("joints");
            if (count < 0 || count > joints.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the joints array");
            Quat rotation = effectorRotation.GetValueOrDefault();
            IkResult result;
            bool a = false, p = false;
            try
            {
                SinewCcd* solver = Enter(ref a);
                fixed (int* j = joints)
                {
                    Library.Check(NativeMethods.sinew_ccd_solve_pose(
                        solver,
                        pose.Enter(ref p),
                        (uint*)j,
                        (uint)count,
                        (SinewVec3*)&effectorPosition,
                        effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                        (SinewIkResult*)&result));
                }
            }
            finally
            {
                handle.Exit(a);
                pose.Exit(p);
            }
            return result;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }

    /// <summary>
    /// Unreal's HandIKRetargeting node: moves bones by (FK - IK) * PerAxisAlpha, FK and IK being
    /// the hand positions mixed by HandFkWeight.
    /// </summary>
    public sealed unsafe class HandIkRetargeting : IDisposable
    {
        readonly HandIkRetargetingHandle handle = new HandIkRetargetingHandle();

        public HandIkRetargeting() : this(HandIkRetargetingSettings.Default) { }

        public HandIkRetargeting(HandIkRetargetingSettings settings)
        {
            SinewHandIkRetargeting* native = null;
            Library.Check(NativeMethods.sinew_hand_ik_retargeting_create((SinewHandIkRetargetingSettings*)&settings, &native));
            handle.Attach((IntPtr)native);
        }

        public HandIkRetargetingHandle Handle { get { return handle; } }

        public SinewHandIkRetargeting* NativePointer { get { return (SinewHandIkRetargeting*)handle.Pointer; } }

        SinewHandIkRetargeting* Enter(ref bool added) { return (SinewHandIkRetargeting*)handle.Enter(ref added); }

        public HandIkRetargetingSettings Settings
        {
            get
            {
                HandIkRetargetingSettings s;
                bool a = false;
                try { Library.Check(NativeMethods.sinew_hand_ik_retargeting_get_settings(Enter(ref a), (SinewHandIkRetargetingSettings*)&s)); }
                finally { handle.Exit(a); }
                return s;
            }
            set
            {
                bool a = false;
                try { Library.Check(NativeMethods.sinew_hand_ik_retargeting_set_settings(Enter(ref a), (SinewHandIkRetargetingSettings*)&value)); }
                finally { handle.Exit(a); }
            }
        }

        /// <summary>
        /// Adds the offset to the translation of each listed bone of a model-space array (the
        /// hands are read from the same array); returns the offset.
        /// </summary>
        public Vec3 ApplyModel(Transform[] model, HandJoints hands, int[] bones)
        {
            if (model == null) Library.ThrowNull("model");
            if (bones == null) Library.ThrowNull("bones");
            Vec3 offset;
            bool a = false;
            try
            {
                fixed (Transform* m = model)
                fixed (int* b = bones)
                {
                    Library.Check(NativeMethods.sinew_hand_ik_retargeting_apply_model(
                        Enter(ref a), (SinewTransform*)m, (uint)model.Length, (SinewHandJoints*)&hands, (uint*)b, (uint)bones.Length, (SinewVec3*)&offset));
                }
            }
            finally { handle.Exit(a); }
            return offset;
        }

        /// <summary>
        /// Moves each listed bone of <paramref name="pose"/> by the offset in model space
        /// (descendants follow); returns the offset.
        /// </summary>
        public Vec3 ApplyPose(Pose pose, HandJoints hands, int[] bones)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (bones == null) Library.ThrowNull("bones");
            Vec3 offset;
            bool a = false, p = false;
            try
            {
                SinewHandIkRetargeting* node = Enter(ref a);
                fixed (int* b = bones)
                {
                    Library.Check(NativeMethods.sinew_hand_ik_retargeting_apply_pose(
                        node, pose.Enter(ref p), (SinewHandJoints*)&hands, (uint*)b, (uint)bones.Length, (SinewVec3*)&offset));
                }
            }
            finally
            {
                handle.Exit(a);
                pose.Exit(p);
            }
            return offset;
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }
    }
}
