// Scene-view drawing shared by the components' OnDrawGizmosSelected: chains, targets, poles,
// and joint limits (cones, hinge arcs, twist arcs) drawn with the same math the solver uses:
// a limit's frame is parentRotation * reference * FromToRotation(X, axis), and a cone's
// boundary is the rotation vector (0, a cos t, b sin t) in that frame applied to X.

using UnityEngine;

namespace SinewUnity
{
    public static class SinewGizmos
    {
        public static readonly Color ChainColor = new Color(0.2f, 0.8f, 1f, 1f);
        public static readonly Color TargetColor = new Color(1f, 0.35f, 0.2f, 1f);
        public static readonly Color PoleColor = new Color(1f, 0.85f, 0.2f, 1f);
        public static readonly Color LimitColor = new Color(0.4f, 1f, 0.4f, 0.9f);
        public static readonly Color TwistColor = new Color(0.9f, 0.4f, 1f, 0.9f);

        const int Segments = 24;

        /// <summary>A bone from <paramref name="a"/> to <paramref name="b"/> with a joint marker.</summary>
        public static void Bone(Vector3 a, Vector3 b, float jointRadius)
        {
            Gizmos.color = ChainColor;
            Gizmos.DrawLine(a, b);
            Gizmos.DrawWireSphere(a, jointRadius);
        }

        /// <summary>An effector target: a sphere and its axes.</summary>
        public static void Target(Transform target, float size)
        {
            if (target == null)
            {
                return;
            }
            Gizmos.color = TargetColor;
            Vector3 p = target.position;
            Gizmos.DrawWireSphere(p, size);
            Quaternion r = target.rotation;
            Gizmos.color = Color.red;
            Gizmos.DrawLine(p, p + r * Vector3.right * size * 2f);
            Gizmos.color = Color.green;
            Gizmos.DrawLine(p, p + r * Vector3.up * size * 2f);
            Gizmos.color = Color.blue;
            Gizmos.DrawLine(p, p + r * Vector3.forward * size * 2f);
        }

        /// <summary>A pole (hint): a small sphere and a dashed line from the joint bending toward it.</summary>
        public static void Pole(Vector3 joint, Transform pole, float size)
        {
            if (pole == null)
            {
                return;
            }
            Gizmos.color = PoleColor;
            Vector3 p = pole.position;
            Gizmos.DrawWireSphere(p, size);
            const int Dashes = 8;
            for (int i = 0; i < Dashes; i += 2)
            {
                Gizmos.DrawLine(
                    Vector3.Lerp(joint, p, i / (float)Dashes),
                    Vector3.Lerp(joint, p, (i + 1) / (float)Dashes));
            }
        }

        /// <summary>
        /// Draws <paramref name="limit"/> of a joint at <paramref name="position"/> whose parent
        /// has world rotation <paramref name="parentRotation"/>, centred on the rest local
        /// rotation <paramref name="reference"/>; <paramref name="boneLocal"/> is the next
        /// joint's rest local position (the bone), <paramref name="length"/> the drawn size.
        /// </summary>
        public static void Limit(SinewJointLimit limit, Vector3 position, Quaternion parentRotation,
            Quaternion reference, Vector3 boneLocal, float length)
        {
            if (limit.type == SinewJointLimitType.None || length <= 0f)
            {
                return;
            }
            Vector3 axis = limit.ResolveAxis(boneLocal);
            Quaternion rest = parentRotation * reference;
            Vector3 bone = boneLocal.sqrMagnitude > 1e-12f ? boneLocal.normalized : axis;
            switch (limit.type)
            {
                case SinewJointLimitType.Cone:
                    Cone(position, rest * Quaternion.FromToRotation(Vector3.right, axis),
                        limit.swingLimit1, limit.swingLimit2, length);
                    if (limit.limitTwist)
                    {
                        Arc(position, rest, axis, Perpendicular(axis), limit.minAngle, limit.maxAngle,
                            length * 0.35f, TwistColor);
                    }
                    break;
                case SinewJointLimitType.Hinge:
                    // The bone turns about the hinge axis: sweep it from min to max.
                    Arc(position, rest, axis, bone, limit.minAngle, limit.maxAngle, length, LimitColor);
                    Gizmos.color = LimitColor;
                    Gizmos.DrawLine(position, position + rest * axis * (length * 0.3f));
                    break;
                case SinewJointLimitType.Twist:
                    Arc(position, rest, axis, Perpendicular(axis), limit.minAngle, limit.maxAngle,
                        length * 0.35f, TwistColor);
                    break;
            }
        }

        /// <summary>
        /// An elliptical cone with apex <paramref name="apex"/>, its X axis along
        /// <paramref name="frame"/> * right, half-angles in degrees about the frame's Y and Z.
        /// </summary>
        public static void Cone(Vector3 apex, Quaternion frame, float halfAngle1, float halfAngle2, float length)
        {
            Gizmos.color = LimitColor;
            float a = Mathf.Clamp(halfAngle1, 0f, 180f) * Mathf.Deg2Rad;
            float b = Mathf.Clamp(halfAngle2, 0f, 180f) * Mathf.Deg2Rad;
            Vector3 previous = Vector3.zero;
            for (int i = 0; i <= Segments; i++)
            {
                float t = i * (2f * Mathf.PI / Segments);
                Vector3 rv = new Vector3(0f, a * Mathf.Cos(t), b * Mathf.Sin(t));
                float angle = rv.magnitude;
                Vector3 dir = angle > 1e-6f
                    ? Quaternion.AngleAxis(angle * Mathf.Rad2Deg, rv / angle) * Vector3.right
                    : Vector3.right;
                Vector3 p = apex + frame * dir * length;
                if (i > 0)
                {
                    Gizmos.DrawLine(previous, p);
                }
                if (i % (Segments / 4) == 0)
                {
                    Gizmos.DrawLine(apex, p);
                }
                previous = p;
            }
            Gizmos.DrawLine(apex, apex + frame * Vector3.right * length);
        }

        /// <summary>
        /// Sweeps <paramref name="localVector"/> about <paramref name="localAxis"/> (both in the
        /// frame <paramref name="rest"/>) from <paramref name="minDegrees"/> to <paramref name="maxDegrees"/>.
        /// </summary>
        public static void Arc(Vector3 center, Quaternion rest, Vector3 localAxis, Vector3 localVector,
            float minDegrees, float maxDegrees, float radius, Color color)
        {
            Gizmos.color = color;
            float lo = Mathf.Min(minDegrees, maxDegrees);
            float hi = Mathf.Max(minDegrees, maxDegrees);
            Vector3 v = Vector3.ProjectOnPlane(localVector, localAxis);
            if (v.sqrMagnitude < 1e-12f)
            {
                v = Perpendicular(localAxis);
            }
            v = v.normalized;
            Vector3 previous = Vector3.zero;
            for (int i = 0; i <= Segments; i++)
            {
                float deg = Mathf.Lerp(lo, hi, i / (float)Segments);
                Vector3 p = center + rest * (Quaternion.AngleAxis(deg, localAxis) * v) * radius;
                if (i > 0)
                {
                    Gizmos.DrawLine(previous, p);
                }
                if (i == 0 || i == Segments)
                {
                    Gizmos.DrawLine(center, p);
                }
                previous = p;
            }
        }

        /// <summary>The image of +Y under the shortest arc from +X to <paramref name="axis"/> (the solver's frame Y).</summary>
        public static Vector3 Perpendicular(Vector3 axis)
        {
            return Quaternion.FromToRotation(Vector3.right, axis) * Vector3.up;
        }
    }
}
