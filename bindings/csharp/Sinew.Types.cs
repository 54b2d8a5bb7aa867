// Sinew value types written by hand: vectors, rotations and transforms (with their operators and
// Unity conversions), blend layers, and the constructors and factories of the generated value
// types of NativeMethods.g.cs. Every struct has the layout of its C counterpart (checked by
// tests/csharp/SinewTests.cs), so arrays of them are passed to the native library by pointer
// without copying.

using System;
using System.Globalization;
using System.Runtime.InteropServices;
using Sinew.Native;

namespace Sinew
{
    /// <summary>A 3D vector, laid out like SinewVec3 and Unity's Vector3.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Vec3 : IEquatable<Vec3>
    {
        public float x, y, z;

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
        public float x, y, z, w;

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

    /// <summary>
    /// Four vectors in structure-of-arrays form: lane i of X, Y and Z is vector i (ozz's
    /// SoaFloat3); laid out like SinewSoaVec3 (48 bytes).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct SoaVec3
    {
        public fixed float X[4];
        public fixed float Y[4];
        public fixed float Z[4];

        /// <summary>Vector <paramref name="lane"/> (0 to 3).</summary>
        public Vec3 this[int lane]
        {
            get
            {
                SoaLanes.Check(lane);
                fixed (float* x = X, y = Y, z = Z) return new Vec3(x[lane], y[lane], z[lane]);
            }
            set
            {
                SoaLanes.Check(lane);
                fixed (float* x = X, y = Y, z = Z)
                {
                    x[lane] = value.x;
                    y[lane] = value.y;
                    z[lane] = value.z;
                }
            }
        }
    }

    /// <summary>
    /// Four rotation quaternions in structure-of-arrays form (ozz's SoaQuaternion); laid out
    /// like SinewSoaQuat (64 bytes).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct SoaQuat
    {
        public fixed float X[4];
        public fixed float Y[4];
        public fixed float Z[4];
        public fixed float W[4];

        /// <summary>Quaternion <paramref name="lane"/> (0 to 3).</summary>
        public Quat this[int lane]
        {
            get
            {
                SoaLanes.Check(lane);
                fixed (float* x = X, y = Y, z = Z, w = W) return new Quat(x[lane], y[lane], z[lane], w[lane]);
            }
            set
            {
                SoaLanes.Check(lane);
                fixed (float* x = X, y = Y, z = Z, w = W)
                {
                    x[lane] = value.x;
                    y[lane] = value.y;
                    z[lane] = value.z;
                    w[lane] = value.w;
                }
            }
        }
    }

    /// <summary>
    /// Four transforms in structure-of-arrays form (ozz's SoaTransform): lane i of every field is
    /// transform i; laid out like SinewSoaTransform (160 bytes).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SoaTransform
    {
        public SoaVec3 Translation;
        public SoaQuat Rotation;
        public SoaVec3 Scale;

        /// <summary>Transform <paramref name="lane"/> (0 to 3).</summary>
        public Transform this[int lane]
        {
            get { return new Transform(Translation[lane], Rotation[lane], Scale[lane]); }
            set { Translation[lane] = value.Translation; Rotation[lane] = value.Rotation; Scale[lane] = value.Scale; }
        }
    }

    static class SoaLanes
    {
        internal static void Check(int lane)
        {
            if (lane < 0 || lane > 3) throw new ArgumentOutOfRangeException("lane", lane, "a block has lanes 0 to 3");
        }
    }

    public partial struct IkResult
    {
        public IkResult(bool reached, float error, int iterations)
        {
            Native.reached = reached ? 1u : 0u;
            Native.error = error;
            Native.iterations = (uint)iterations;
        }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "reached={0} error={1} iterations={2}", Reached, Error, Iterations);
        }
    }

    /// <summary>A multi-effector target: a model-space position, an optional rotation and a weight.</summary>
    public partial struct EffectorTarget
    {
        /// <summary>At <paramref name="position"/>, without rotation, of <paramref name="weight"/> (0 or more; 0 turns the effector off).</summary>
        public EffectorTarget(Vec3 position, float weight = 1f)
        {
            Native.position = position;
            Native.rotation = Quat.Identity;
            Native.weight = weight;
            Native.use_rotation = 0;
        }

        /// <summary>This target with <paramref name="rotation"/> as the effector's model rotation.</summary>
        public EffectorTarget WithRotation(Quat rotation)
        {
            EffectorTarget t = this;
            t.Rotation = rotation;
            t.UseRotation = true;
            return t;
        }

        /// <summary>This target with weight <paramref name="weight"/>.</summary>
        public EffectorTarget WithWeight(float weight)
        {
            EffectorTarget t = this;
            t.Weight = weight;
            return t;
        }
    }

    public partial struct HandJoints
    {
        public HandJoints(int rightFk, int leftFk, int rightIk, int leftIk)
        {
            Native.right_fk = (uint)rightFk;
            Native.left_fk = (uint)leftFk;
            Native.right_ik = (uint)rightIk;
            Native.left_ik = (uint)leftIk;
        }
    }

    /// <summary>Factories for the three kinds, each from <see cref="Default"/> with its own fields set.</summary>
    public partial struct JointConstraint
    {
        /// <summary>Swing inside an elliptical cone about <paramref name="axis"/> (half-angles about the frame's Y and Z).</summary>
        public static JointConstraint Cone(Quat reference, Vec3 axis, float swingHalfAngle1, float swingHalfAngle2)
        {
            JointConstraint c = Of(ConstraintType.Cone, reference, axis);
            c.SwingHalfAngle1 = swingHalfAngle1;
            c.SwingHalfAngle2 = swingHalfAngle2;
            return c;
        }

        /// <summary>Rotation only about <paramref name="axis"/>, by an angle in [minAngle, maxAngle].</summary>
        public static JointConstraint Hinge(Quat reference, Vec3 axis, float minAngle, float maxAngle)
        {
            return Of(ConstraintType.Hinge, reference, axis).WithRange(minAngle, maxAngle);
        }

        /// <summary>Free swing; twist about <paramref name="axis"/> in [minAngle, maxAngle].</summary>
        public static JointConstraint TwistRange(Quat reference, Vec3 axis, float minAngle, float maxAngle)
        {
            return Of(ConstraintType.Twist, reference, axis).WithRange(minAngle, maxAngle);
        }

        static JointConstraint Of(ConstraintType type, Quat reference, Vec3 axis)
        {
            JointConstraint c = Default;
            c.Type = type;
            c.Reference = reference;
            c.Axis = axis;
            return c;
        }

        JointConstraint WithRange(float minAngle, float maxAngle)
        {
            MinAngle = minAngle;
            MaxAngle = maxAngle;
            return this;
        }
    }

    /// <summary>
    /// One layer of <see cref="Blending.BlendLayers(BlendLayer[], float, Pose)"/>, or of
    /// <see cref="Blending.BlendLayersAdditive(BlendLayer[], BlendLayer[], float, Pose)"/>.
    /// </summary>
    public struct BlendLayer
    {
        /// <summary>The layer's pose (not the output); for an additive layer, a delta from Blending.MakeAdditive.</summary>
        public Pose Pose;
        /// <summary>Its weight, at least 0; an additive layer's any finite value (negative subtracts).</summary>
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

    /// <summary>
    /// A 4×4 matrix, column-major like SinewMat4 and Unity's Matrix4x4 (fields m00 m10 m20 m30
    /// m01 ... in memory; Mrc is row r, column c), for column vectors: the translation is in
    /// M03 M13 M23.
    /// </summary>
    public partial struct Mat4
    {
        public static Mat4 Identity
        {
            get
            {
                Mat4 m = default(Mat4);
                m.Native.m00 = 1f; m.Native.m11 = 1f; m.Native.m22 = 1f; m.Native.m33 = 1f;
                return m;
            }
        }

        /// <summary>Entry at <paramref name="row"/>, <paramref name="column"/> (0 to 3).</summary>
        public unsafe float this[int row, int column]
        {
            get
            {
                if ((uint)row > 3u || (uint)column > 3u) throw new ArgumentOutOfRangeException(row > 3 || row < 0 ? "row" : "column");
                fixed (SinewMat4* m = &Native) return ((float*)m)[4 * column + row];
            }
            set
            {
                if ((uint)row > 3u || (uint)column > 3u) throw new ArgumentOutOfRangeException(row > 3 || row < 0 ? "row" : "column");
                fixed (SinewMat4* m = &Native) ((float*)m)[4 * column + row] = value;
            }
        }

        /// <summary>The translation column (M03, M13, M23).</summary>
        public Vec3 Translation { get { return new Vec3(Native.m03, Native.m13, Native.m23); } }

#if UNITY_2021_3_OR_NEWER
        public static implicit operator UnityEngine.Matrix4x4(Mat4 m)
        {
            SinewMat4 n = m.Native;
            return new UnityEngine.Matrix4x4
            {
                m00 = n.m00, m10 = n.m10, m20 = n.m20, m30 = n.m30,
                m01 = n.m01, m11 = n.m11, m21 = n.m21, m31 = n.m31,
                m02 = n.m02, m12 = n.m12, m22 = n.m22, m32 = n.m32,
                m03 = n.m03, m13 = n.m13, m23 = n.m23, m33 = n.m33,
            };
        }

        public static implicit operator Mat4(UnityEngine.Matrix4x4 u)
        {
            Mat4 m = default(Mat4);
            m.Native = new SinewMat4
            {
                m00 = u.m00, m10 = u.m10, m20 = u.m20, m30 = u.m30,
                m01 = u.m01, m11 = u.m11, m21 = u.m21, m31 = u.m31,
                m02 = u.m02, m12 = u.m12, m22 = u.m22, m32 = u.m32,
                m03 = u.m03, m13 = u.m13, m23 = u.m23, m33 = u.m33,
            };
            return m;
        }
#endif
    }
}
