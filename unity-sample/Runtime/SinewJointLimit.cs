// Inspector-editable joint constraints for the chain components, converted to the binding's
// Sinew.JointConstraint (radians, reference rotation, axis) when applied to a solver.

using System;
using UnityEngine;

namespace SinewUnity
{
    /// <summary>Kind of limit on one chain joint.</summary>
    public enum SinewJointLimitType
    {
        /// <summary>No constraint: the joint turns freely.</summary>
        None = 0,
        /// <summary>Ball and socket: the bone stays inside an elliptical cone (optionally a twist range).</summary>
        Cone = 1,
        /// <summary>Rotation only about the axis, between Min Angle and Max Angle.</summary>
        Hinge = 2,
        /// <summary>Free swing; twist about the axis between Min Angle and Max Angle.</summary>
        Twist = 3,
    }

    /// <summary>
    /// The limit of one chain joint, as edited in the inspector (degrees). Limits are measured
    /// from the joint's local rotation when the component is enabled (its rest rotation), in the
    /// joint's own frame: <see cref="axis"/> is the bone (cone, twist) or the hinge axis.
    /// </summary>
    [Serializable]
    public struct SinewJointLimit : IEquatable<SinewJointLimit>
    {
        public SinewJointLimitType type;

        [Tooltip("Use the direction from this joint to the next one in the chain (the bone) as the axis. " +
            "Cone and twist limits usually want this; hinges usually do not.")]
        public bool axisFromChild;

        [Tooltip("The bone axis (cone, twist) or hinge axis, in the joint's local frame.")]
        public Vector3 axis;

        [Tooltip("Cone: swing half-angle about the first axis perpendicular to the bone (degrees).")]
        [Range(0f, 180f)]
        public float swingLimit1;

        [Tooltip("Cone: swing half-angle about the second perpendicular axis (degrees).")]
        [Range(0f, 180f)]
        public float swingLimit2;

        [Tooltip("Cone only: also limit twist about the bone to [Min Angle, Max Angle].")]
        public bool limitTwist;

        [Tooltip("Hinge angle or twist lower bound (degrees).")]
        [Range(-180f, 180f)]
        public float minAngle;

        [Tooltip("Hinge angle or twist upper bound (degrees).")]
        [Range(-180f, 180f)]
        public float maxAngle;

        /// <summary>Field-by-field equality (no boxing: compared every frame).</summary>
        public bool Equals(SinewJointLimit o)
        {
            return type == o.type && axisFromChild == o.axisFromChild && axis == o.axis &&
                swingLimit1 == o.swingLimit1 && swingLimit2 == o.swingLimit2 && limitTwist == o.limitTwist &&
                minAngle == o.minAngle && maxAngle == o.maxAngle;
        }

        public override bool Equals(object o)
        {
            return o is SinewJointLimit && Equals((SinewJointLimit)o);
        }

        public override int GetHashCode()
        {
            return ((int)type * 397) ^ swingLimit1.GetHashCode() ^ (swingLimit2.GetHashCode() * 31) ^
                (minAngle.GetHashCode() * 17) ^ (maxAngle.GetHashCode() * 13);
        }

        /// <summary>No limit, with sensible values for when the type is switched on.</summary>
        public static SinewJointLimit Free
        {
            get
            {
                SinewJointLimit l;
                l.type = SinewJointLimitType.None;
                l.axisFromChild = true;
                l.axis = Vector3.right;
                l.swingLimit1 = 45f;
                l.swingLimit2 = 45f;
                l.limitTwist = false;
                l.minAngle = -90f;
                l.maxAngle = 90f;
                return l;
            }
        }

        /// <summary>A cone about the bone with the given half-angles (degrees).</summary>
        public static SinewJointLimit Cone(float swing1, float swing2)
        {
            SinewJointLimit l = Free;
            l.type = SinewJointLimitType.Cone;
            l.swingLimit1 = swing1;
            l.swingLimit2 = swing2;
            return l;
        }

        /// <summary>A hinge about <paramref name="localAxis"/> between two angles (degrees).</summary>
        public static SinewJointLimit Hinge(Vector3 localAxis, float min, float max)
        {
            SinewJointLimit l = Free;
            l.type = SinewJointLimitType.Hinge;
            l.axisFromChild = false;
            l.axis = localAxis;
            l.minAngle = min;
            l.maxAngle = max;
            return l;
        }

        /// <summary>The axis this limit uses, given the next joint's rest local position.</summary>
        public Vector3 ResolveAxis(Vector3 childLocalPosition)
        {
            Vector3 a = axisFromChild ? childLocalPosition : axis;
            if (a.sqrMagnitude < 1e-12f)
            {
                a = axis.sqrMagnitude < 1e-12f ? Vector3.right : axis;
            }
            return a.normalized;
        }

        /// <summary>
        /// The native constraint, centred on <paramref name="reference"/> (the joint's rest
        /// local rotation). Angles are clamped into the domains the solver accepts.
        /// </summary>
        public Sinew.JointConstraint ToConstraint(Quaternion reference, Vector3 resolvedAxis)
        {
            Sinew.JointConstraint c = Sinew.JointConstraint.Default;
            c.Reference = reference;
            c.Axis = resolvedAxis;
            float lo = Mathf.Clamp(Mathf.Min(minAngle, maxAngle), -180f, 180f) * Mathf.Deg2Rad;
            float hi = Mathf.Clamp(Mathf.Max(minAngle, maxAngle), -180f, 180f) * Mathf.Deg2Rad;
            switch (type)
            {
                case SinewJointLimitType.Hinge:
                    c.Type = Sinew.ConstraintType.Hinge;
                    break;
                case SinewJointLimitType.Twist:
                    c.Type = Sinew.ConstraintType.Twist;
                    break;
                default:
                    c.Type = Sinew.ConstraintType.Cone;
                    c.SwingHalfAngle1 = Mathf.Clamp(swingLimit1, 0f, 180f) * Mathf.Deg2Rad;
                    c.SwingHalfAngle2 = Mathf.Clamp(swingLimit2, 0f, 180f) * Mathf.Deg2Rad;
                    c.LimitTwist = limitTwist;
                    break;
            }
            // float rounding of 180 * Deg2Rad can land just past pi; keep inside [-pi, pi].
            c.MinAngle = Mathf.Clamp(lo, -Mathf.PI, Mathf.PI);
            c.MaxAngle = Mathf.Clamp(hi, -Mathf.PI, Mathf.PI);
            c.SwingHalfAngle1 = Mathf.Min(c.SwingHalfAngle1, Mathf.PI);
            c.SwingHalfAngle2 = Mathf.Min(c.SwingHalfAngle2, Mathf.PI);
            return c;
        }
    }
}
