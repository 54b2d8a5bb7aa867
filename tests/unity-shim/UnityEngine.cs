// =====================================================================================
//  COMPILE CHECK ONLY — NOT A SUBSTITUTE FOR UNITY.
//
//  A stand-in for the slice of UnityEngine that unity-sample/ (Runtime and Samples~) uses,
//  so tests/unity_compile.rs can compile the package with mcs where Unity is not installed.
//  It declares only the types and members those scripts use, with Unity's names and
//  signatures: the Animation C# Jobs and Playables members checked against Unity 2021.3's
//  reference source, the rest written from the scripting reference. Every body throws.
//  Compiling against it proves the scripts and the C# bindings are consistent C#; it says
//  nothing about behaviour in Unity (serialization, import settings, the player loop, IL2CPP,
//  Burst, native plugin loading). Add a member here only when a package script needs it.
// =====================================================================================

#pragma warning disable 0660, 0661 // == without Equals/GetHashCode: declarations only

using System;

namespace UnityEngine
{
    static class Shim
    {
        internal static Exception NotUnity()
        {
            return new NotSupportedException("tests/unity-shim is a compile check, not Unity");
        }
    }

    public class Object
    {
        public string name { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public static bool operator ==(Object x, Object y) { throw Shim.NotUnity(); }
        public static bool operator !=(Object x, Object y) { throw Shim.NotUnity(); }
        public static void Destroy(Object obj) { throw Shim.NotUnity(); }
    }

    public class Component : Object
    {
        public Transform transform { get { throw Shim.NotUnity(); } }
        public GameObject gameObject { get { throw Shim.NotUnity(); } }
        public T GetComponent<T>() { throw Shim.NotUnity(); }
    }

    public class Behaviour : Component
    {
        public bool enabled { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
    }

    public class MonoBehaviour : Behaviour
    {
    }

    public sealed class GameObject : Object
    {
        public GameObject(string name) { throw Shim.NotUnity(); }
        public Transform transform { get { throw Shim.NotUnity(); } }
        public T AddComponent<T>() where T : Component { throw Shim.NotUnity(); }
        public T GetComponent<T>() { throw Shim.NotUnity(); }
        public void SetActive(bool value) { throw Shim.NotUnity(); }
        public static GameObject CreatePrimitive(PrimitiveType type) { throw Shim.NotUnity(); }
    }

    public enum PrimitiveType
    {
        Sphere = 0,
        Capsule = 1,
        Cylinder = 2,
        Cube = 3,
        Plane = 4,
        Quad = 5,
    }

    public class Transform : Component
    {
        public Vector3 position { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public Quaternion rotation { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public Vector3 localPosition { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public Quaternion localRotation { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public Vector3 localScale { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public Transform parent { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public void SetParent(Transform parent, bool worldPositionStays) { throw Shim.NotUnity(); }
        public Vector3 TransformPoint(Vector3 position) { throw Shim.NotUnity(); }
        public Vector3 InverseTransformPoint(Vector3 position) { throw Shim.NotUnity(); }
        public Vector3 TransformVector(Vector3 vector) { throw Shim.NotUnity(); }
    }

    public class Animator : Behaviour
    {
    }

    public class Collider : Component
    {
    }

    public struct Matrix4x4
    {
        public float m00, m10, m20, m30;
        public float m01, m11, m21, m31;
        public float m02, m12, m22, m32;
        public float m03, m13, m23, m33;
    }

    public struct Vector3
    {
        public float x;
        public float y;
        public float z;

        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }

        public static Vector3 zero { get { throw Shim.NotUnity(); } }
        public static Vector3 one { get { throw Shim.NotUnity(); } }
        public static Vector3 right { get { throw Shim.NotUnity(); } }
        public static Vector3 up { get { throw Shim.NotUnity(); } }
        public static Vector3 forward { get { throw Shim.NotUnity(); } }

        public float magnitude { get { throw Shim.NotUnity(); } }
        public float sqrMagnitude { get { throw Shim.NotUnity(); } }
        public Vector3 normalized { get { throw Shim.NotUnity(); } }

        public static Vector3 Lerp(Vector3 a, Vector3 b, float t) { throw Shim.NotUnity(); }
        public static Vector3 LerpUnclamped(Vector3 a, Vector3 b, float t) { throw Shim.NotUnity(); }
        public static float Distance(Vector3 a, Vector3 b) { throw Shim.NotUnity(); }
        public static Vector3 ProjectOnPlane(Vector3 vector, Vector3 planeNormal) { throw Shim.NotUnity(); }

        public static Vector3 operator +(Vector3 a, Vector3 b) { throw Shim.NotUnity(); }
        public static Vector3 operator -(Vector3 a, Vector3 b) { throw Shim.NotUnity(); }
        public static Vector3 operator *(Vector3 a, float d) { throw Shim.NotUnity(); }
        public static Vector3 operator /(Vector3 a, float d) { throw Shim.NotUnity(); }
        public static bool operator ==(Vector3 lhs, Vector3 rhs) { throw Shim.NotUnity(); }
        public static bool operator !=(Vector3 lhs, Vector3 rhs) { throw Shim.NotUnity(); }
    }

    public struct Quaternion
    {
        public float x;
        public float y;
        public float z;
        public float w;

        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }

        public static Quaternion identity { get { throw Shim.NotUnity(); } }

        public static Quaternion Inverse(Quaternion rotation) { throw Shim.NotUnity(); }
        public static Quaternion Slerp(Quaternion a, Quaternion b, float t) { throw Shim.NotUnity(); }
        public static Quaternion AngleAxis(float angle, Vector3 axis) { throw Shim.NotUnity(); }
        public static Quaternion FromToRotation(Vector3 fromDirection, Vector3 toDirection) { throw Shim.NotUnity(); }
        public static Quaternion Euler(float x, float y, float z) { throw Shim.NotUnity(); }

        public static Quaternion operator *(Quaternion lhs, Quaternion rhs) { throw Shim.NotUnity(); }
        public static Vector3 operator *(Quaternion rotation, Vector3 point) { throw Shim.NotUnity(); }
    }

    public struct Color
    {
        public float r;
        public float g;
        public float b;
        public float a;

        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }

        public static Color red { get { throw Shim.NotUnity(); } }
        public static Color green { get { throw Shim.NotUnity(); } }
        public static Color blue { get { throw Shim.NotUnity(); } }
    }

    public struct Rect
    {
        public Rect(float x, float y, float width, float height) { throw Shim.NotUnity(); }
    }

    public static class Mathf
    {
        public const float PI = 3.14159274f;
        public const float Deg2Rad = PI * 2f / 360f;
        public const float Rad2Deg = 1f / Deg2Rad;

        public static float Clamp(float value, float min, float max) { throw Shim.NotUnity(); }
        public static float Clamp01(float value) { throw Shim.NotUnity(); }
        public static float Min(float a, float b) { throw Shim.NotUnity(); }
        public static float Max(float a, float b) { throw Shim.NotUnity(); }
        public static int Max(int a, int b) { throw Shim.NotUnity(); }
        public static float Lerp(float a, float b, float t) { throw Shim.NotUnity(); }
        public static float Sin(float f) { throw Shim.NotUnity(); }
        public static float Cos(float f) { throw Shim.NotUnity(); }
    }

    public static class Time
    {
        public static float time { get { throw Shim.NotUnity(); } }
    }

    public static class Gizmos
    {
        public static Color color { get { throw Shim.NotUnity(); } set { throw Shim.NotUnity(); } }
        public static void DrawLine(Vector3 from, Vector3 to) { throw Shim.NotUnity(); }
        public static void DrawWireSphere(Vector3 center, float radius) { throw Shim.NotUnity(); }
        public static void DrawWireCube(Vector3 center, Vector3 size) { throw Shim.NotUnity(); }
    }

    public static class Debug
    {
        public static void LogError(object message, Object context) { throw Shim.NotUnity(); }
    }

    public class GUI
    {
        public static void Label(Rect position, string text) { throw Shim.NotUnity(); }
    }

    public abstract class PropertyAttribute : Attribute
    {
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = true)]
    public class HeaderAttribute : PropertyAttribute
    {
        public HeaderAttribute(string header) { }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public class TooltipAttribute : PropertyAttribute
    {
        public TooltipAttribute(string tooltip) { }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public sealed class RangeAttribute : PropertyAttribute
    {
        public RangeAttribute(float min, float max) { }
    }

    [AttributeUsage(AttributeTargets.Field, Inherited = true, AllowMultiple = false)]
    public sealed class MinAttribute : PropertyAttribute
    {
        public MinAttribute(float min) { }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false)]
    public sealed class AddComponentMenu : Attribute
    {
        public AddComponentMenu(string menuName) { }
    }

    [AttributeUsage(AttributeTargets.Class)]
    public class DefaultExecutionOrder : Attribute
    {
        public DefaultExecutionOrder(int order) { }
    }

    [AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = true)]
    public sealed class RequireComponent : Attribute
    {
        public RequireComponent(Type requiredComponent) { }
    }
}
