// Sinew value types: vectors, rotations, transforms, settings and enums. Every struct here has
// the layout of its C counterpart (checked by tests/csharp/SinewTests.cs), so arrays of them
// are passed to the native library by pointer without copying.

using System;
using System.Globalization;
using System.Runtime.InteropServices;
using Sinew.Native;

namespace Sinew
{
    /// <summary>What rotation a chain's last joint gets (SinewEndRotation).</summary>
    public enum EndRotation
    {
        /// <summary>Keeps its model-space rotation (Unreal's default).</summary>
        KeepModel = (int)SinewEndRotation.KeepModel,
        /// <summary>Copies the effector rotation (kept when none is given).</summary>
        CopyEffector = (int)SinewEndRotation.CopyEffector,
        /// <summary>Keeps its rotation relative to the previous bone.</summary>
        KeepLocal = (int)SinewEndRotation.KeepLocal,
    }

    /// <summary>Kind of a <see cref="JointConstraint"/> (SinewConstraintType).</summary>
    public enum ConstraintType
    {
        /// <summary>Swing inside an elliptical cone about the axis, optionally a twist range.</summary>
        Cone = (int)SinewConstraintType.Cone,
        /// <summary>Rotation only about the axis, in [MinAngle, MaxAngle].</summary>
        Hinge = (int)SinewConstraintType.Hinge,
        /// <summary>Free swing; twist about the axis in [MinAngle, MaxAngle].</summary>
        Twist = (int)SinewConstraintType.Twist,
    }

    /// <summary>Space of a two-pose blend's rotations (SinewBlendSpace).</summary>
    public enum BlendSpace
    {
        Local = (int)SinewBlendSpace.Local,
        ModelRotation = (int)SinewBlendSpace.ModelRotation,
    }

    /// <summary>Interpolation between a track's keys (SinewInterpolation).</summary>
    public enum Interpolation
    {
        Step = (int)SinewInterpolation.Step,
        Linear = (int)SinewInterpolation.Linear,
        Slerp = (int)SinewInterpolation.Slerp,
        Cubic = (int)SinewInterpolation.Cubic,
    }

    /// <summary>Which track of a joint (SinewTrackProperty).</summary>
    public enum TrackProperty
    {
        Translation = (int)SinewTrackProperty.Translation,
        Rotation = (int)SinewTrackProperty.Rotation,
        Scale = (int)SinewTrackProperty.Scale,
    }

    /// <summary>Shape of a crossfade transition (SinewFadeCurve).</summary>
    public enum FadeCurve
    {
        Linear = (int)SinewFadeCurve.Linear,
        Smooth = (int)SinewFadeCurve.Smooth,
        Inertialize = (int)SinewFadeCurve.Inertialize,
    }

    /// <summary>A 3D vector, laid out like SinewVec3 and Unity's Vector3.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vec3 : IEquatable<Vec3>
    {
        public float x;
        public float y;
        public float z;

        public Vec3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }

        public static Vec3 Zero { get { return new Vec3(0f, 0f, 0f); } }
        public static Vec3 One { get { return new Vec3(1f, 1f, 1f); } }

        public static Vec3 operator +(Vec3 a, Vec3 b) { return new Vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
        public static Vec3 operator -(Vec3 a, Vec3 b) { return new Vec3(a.x - b.x, a.y - b.y, a.z - b.z); }
        public static Vec3 operator *(Vec3 a, float s) { return new Vec3(a.x * s, a.y * s, a.z * s); }

        public float Length { get { return (float)Math.Sqrt(x * x + y * y + z * z); } }

        public static implicit operator SinewVec3(Vec3 v) { return new SinewVec3 { x = v.x, y = v.y, z = v.z }; }
        public static implicit operator Vec3(SinewVec3 v) { return new Vec3(v.x, v.y, v.z); }
#if UNITY_2021_3_OR_NEWER
        public static implicit operator UnityEngine.Vector3(Vec3 v) { return new UnityEngine.Vector3(v.x, v.y, v.z); }
        public static implicit operator Vec3(UnityEngine.Vector3 v) { return new Vec3(v.x, v.y, v.z); }
#endif

        /// <summary>Bitwise component equality (NaN equals an identical NaN).</summary>
        public bool Equals(Vec3 o) { return x.Equals(o.x) && y.Equals(o.y) && z.Equals(o.z); }
        public override bool Equals(object o) { return o is Vec3 && Equals((Vec3)o); }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() * 397) ^ (z.GetHashCode() * 7919); }
        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "({0}, {1}, {2})", x, y, z);
        }
    }

    /// <summary>A rotation quaternion {x, y, z, w}, laid out like SinewQuat and Unity's Quaternion.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Quat : IEquatable<Quat>
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Quat(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }

        public static Quat Identity { get { return new Quat(0f, 0f, 0f, 1f); } }

        /// <summary>Rotation of <paramref name="radians"/> about a unit <paramref name="axis"/>.</summary>
        public static Quat AxisAngle(Vec3 axis, float radians)
        {
            float s = (float)Math.Sin(radians * 0.5);
            return new Quat(axis.x * s, axis.y * s, axis.z * s, (float)Math.Cos(radians * 0.5));
        }

        public static implicit operator SinewQuat(Quat q) { return new SinewQuat { x = q.x, y = q.y, z = q.z, w = q.w }; }
        public static implicit operator Quat(SinewQuat q) { return new Quat(q.x, q.y, q.z, q.w); }
#if UNITY_2021_3_OR_NEWER
        public static implicit operator UnityEngine.Quaternion(Quat q) { return new UnityEngine.Quaternion(q.x, q.y, q.z, q.w); }
        public static implicit operator Quat(UnityEngine.Quaternion q) { return new Quat(q.x, q.y, q.z, q.w); }
#endif

        public bool Equals(Quat o) { return x.Equals(o.x) && y.Equals(o.y) && z.Equals(o.z) && w.Equals(o.w); }
        public override bool Equals(object o) { return o is Quat && Equals((Quat)o); }
        public override int GetHashCode() { return x.GetHashCode() ^ (y.GetHashCode() * 397) ^ (z.GetHashCode() * 7919) ^ (w.GetHashCode() * 104729); }
        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "({0}, {1}, {2}, {3})", x, y, z, w);
        }
    }

    /// <summary>Translation, rotation and per-axis scale; laid out like SinewTransform (40 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Transform : IEquatable<Transform>
    {
        public Vec3 Translation;
        public Quat Rotation;
        public Vec3 Scale;

        public Transform(Vec3 translation, Quat rotation, Vec3 scale)
        {
            Translation = translation;
            Rotation = rotation;
            Scale = scale;
        }

        public Transform(Vec3 translation, Quat rotation) : this(translation, rotation, Vec3.One) { }

        public static Transform Identity { get { return new Transform(Vec3.Zero, Quat.Identity, Vec3.One); } }

        public static implicit operator SinewTransform(Transform t)
        {
            return new SinewTransform { translation = t.Translation, rotation = t.Rotation, scale = t.Scale };
        }

        public static implicit operator Transform(SinewTransform t)
        {
            return new Transform(t.translation, t.rotation, t.scale);
        }

        public bool Equals(Transform o) { return Translation.Equals(o.Translation) && Rotation.Equals(o.Rotation) && Scale.Equals(o.Scale); }
        public override bool Equals(object o) { return o is Transform && Equals((Transform)o); }
        public override int GetHashCode() { return Translation.GetHashCode() ^ (Rotation.GetHashCode() * 31) ^ (Scale.GetHashCode() * 17); }
        public override string ToString() { return "T" + Translation + " R" + Rotation + " S" + Scale; }
    }

    /// <summary>Outcome of an IK solve (SinewIkResult).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct IkResult
    {
        uint reached;
        float error;
        uint iterations;

        public IkResult(bool reached, float error, int iterations)
        {
            this.reached = reached ? 1u : 0u;
            this.error = error;
            this.iterations = (uint)iterations;
        }

        /// <summary>The end finished within tolerance of the target.</summary>
        public bool Reached { get { return reached != 0; } }
        /// <summary>Distance from the chain's end to the target after the solve.</summary>
        public float Error { get { return error; } }
        /// <summary>Iterations used (1 for analytic solvers).</summary>
        public int Iterations { get { return (int)iterations; } }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "reached={0} error={1} iterations={2}", Reached, error, iterations);
        }
    }

    /// <summary>
    /// Two-bone IK settings (SinewTwoBoneIkSettings). Start from <see cref="Default"/>:
    /// default(TwoBoneIkSettings) is all zeros, which the solver rejects.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TwoBoneIkSettings
    {
        /// <summary>Blend of the solved chain over the input, in [0, 1] (Unreal's alpha).</summary>
        public float Weight;
        uint allowStretching;
        /// <summary>Reach ratio at which stretching starts.</summary>
        public float StartStretchRatio;
        /// <summary>Largest bone-length scale when stretching, at least 1.</summary>
        public float MaxStretchScale;
        public EndRotation EndRotation;
        /// <summary>In (0, 1]; below 1 the reach eases in beyond this fraction of the chain length.</summary>
        public float Soften;
        uint keepTwist;
        /// <summary>How far the bend turns from the no-pole one toward the joint target, in [0, 1].</summary>
        public float PoleWeight;

        /// <summary>Both bones may stretch toward far targets (Unreal's bAllowStretching).</summary>
        public bool AllowStretching { get { return allowStretching != 0; } set { allowStretching = value ? 1u : 0u; } }
        /// <summary>Keeps the joint bone's twist relative to the root bone.</summary>
        public bool KeepTwist { get { return keepTwist != 0; } set { keepTwist = value ? 1u : 0u; } }

        /// <summary>The native defaults (sinew_two_bone_ik_settings_default).</summary>
        public static unsafe TwoBoneIkSettings Default
        {
            get
            {
                TwoBoneIkSettings s;
                NativeMethods.sinew_two_bone_ik_settings_default((SinewTwoBoneIkSettings*)&s);
                return s;
            }
        }
    }

    /// <summary>FABRIK settings (SinewFabrikSettings). Start from <see cref="Default"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct FabrikSettings
    {
        /// <summary>Reach tolerance, relative to the chain length when RelativePrecision.</summary>
        public float Precision;
        uint relativePrecision;
        /// <summary>Most iterations.</summary>
        public int MaxIterations;
        uint stopWhenStalled;
        public EndRotation EndRotation;

        public bool RelativePrecision { get { return relativePrecision != 0; } set { relativePrecision = value ? 1u : 0u; } }
        public bool StopWhenStalled { get { return stopWhenStalled != 0; } set { stopWhenStalled = value ? 1u : 0u; } }

        /// <summary>The native defaults (sinew_fabrik_settings_default).</summary>
        public static unsafe FabrikSettings Default
        {
            get
            {
                FabrikSettings s;
                NativeMethods.sinew_fabrik_settings_default((SinewFabrikSettings*)&s);
                return s;
            }
        }
    }

    /// <summary>CCD settings (SinewCcdSettings). Start from <see cref="Default"/>.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CcdSettings
    {
        public float Precision;
        uint relativePrecision;
        public int MaxIterations;
        uint startFromTail;
        uint fixRoot;
        uint stopWhenStalled;
        public EndRotation EndRotation;

        public bool RelativePrecision { get { return relativePrecision != 0; } set { relativePrecision = value ? 1u : 0u; } }
        /// <summary>Each sweep starts at the joint nearest the tip (Unreal's bStartFromTail).</summary>
        public bool StartFromTail { get { return startFromTail != 0; } set { startFromTail = value ? 1u : 0u; } }
        /// <summary>The root joint keeps its rotation, as in Unreal's node.</summary>
        public bool FixRoot { get { return fixRoot != 0; } set { fixRoot = value ? 1u : 0u; } }
        public bool StopWhenStalled { get { return stopWhenStalled != 0; } set { stopWhenStalled = value ? 1u : 0u; } }

        /// <summary>The native defaults (sinew_ccd_settings_default).</summary>
        public static unsafe CcdSettings Default
        {
            get
            {
                CcdSettings s;
                NativeMethods.sinew_ccd_settings_default((SinewCcdSettings*)&s);
                return s;
            }
        }
    }

    /// <summary>Hand IK retargeting settings (SinewHandIkRetargetingSettings).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HandIkRetargetingSettings
    {
        /// <summary>Which hand drives the offset: 0 the left, 1 the right, between a mix.</summary>
        public float HandFkWeight;
        /// <summary>Per-axis scale of the offset, each in [0, 1].</summary>
        public Vec3 PerAxisAlpha;

        /// <summary>The native defaults (sinew_hand_ik_retargeting_settings_default).</summary>
        public static unsafe HandIkRetargetingSettings Default
        {
            get
            {
                HandIkRetargetingSettings s;
                NativeMethods.sinew_hand_ik_retargeting_settings_default((SinewHandIkRetargetingSettings*)&s);
                return s;
            }
        }
    }

    /// <summary>Joint indices of the four hands the retargeting offset is measured between.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct HandJoints
    {
        public int RightFk;
        public int LeftFk;
        public int RightIk;
        public int LeftIk;

        public HandJoints(int rightFk, int leftFk, int rightIk, int leftIk)
        {
            RightFk = rightFk;
            LeftFk = leftFk;
            RightIk = rightIk;
            LeftIk = leftIk;
        }
    }

    /// <summary>
    /// A limit on a joint's local rotation, centred on <see cref="Reference"/>; angles in
    /// radians (SinewJointConstraint). Start from <see cref="Default"/> or a factory.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct JointConstraint
    {
        public ConstraintType Type;
        uint limitTwist;
        /// <summary>The local rotation at the centre of the limits, usually the rest pose's.</summary>
        public Quat Reference;
        /// <summary>The bone axis (cone, twist) or hinge axis, in the joint's own frame.</summary>
        public Vec3 Axis;
        public float SwingHalfAngle1;
        public float SwingHalfAngle2;
        public float MinAngle;
        public float MaxAngle;

        /// <summary>Cone only: also limit the twist to [MinAngle, MaxAngle].</summary>
        public bool LimitTwist { get { return limitTwist != 0; } set { limitTwist = value ? 1u : 0u; } }

        /// <summary>The native default: a 45-degree cone about +X centred on the identity.</summary>
        public static unsafe JointConstraint Default
        {
            get
            {
                JointConstraint c;
                NativeMethods.sinew_joint_constraint_default((SinewJointConstraint*)&c);
                return c;
            }
        }

        public static JointConstraint Cone(Quat reference, Vec3 axis, float swingHalfAngle1, float swingHalfAngle2)
        {
            JointConstraint c = Default;
            c.Type = ConstraintType.Cone;
            c.Reference = reference;
            c.Axis = axis;
            c.SwingHalfAngle1 = swingHalfAngle1;
            c.SwingHalfAngle2 = swingHalfAngle2;
            return c;
        }

        public static JointConstraint Hinge(Quat reference, Vec3 axis, float minAngle, float maxAngle)
        {
            JointConstraint c = Default;
            c.Type = ConstraintType.Hinge;
            c.Reference = reference;
            c.Axis = axis;
            c.MinAngle = minAngle;
            c.MaxAngle = maxAngle;
            return c;
        }

        public static JointConstraint TwistRange(Quat reference, Vec3 axis, float minAngle, float maxAngle)
        {
            JointConstraint c = Default;
            c.Type = ConstraintType.Twist;
            c.Reference = reference;
            c.Axis = axis;
            c.MinAngle = minAngle;
            c.MaxAngle = maxAngle;
            return c;
        }
    }

    /// <summary>One input of <see cref="Blending.BlendLayers(BlendLayer[], float, Pose)"/>.</summary>
    public struct BlendLayer
    {
        public Pose Pose;
        public float Weight;
        /// <summary>Optional per-joint weights (null: all 1).</summary>
        public JointMask Mask;

        public BlendLayer(Pose pose, float weight, JointMask mask = null)
        {
            Pose = pose;
            Weight = weight;
            Mask = mask;
        }
    }
}
