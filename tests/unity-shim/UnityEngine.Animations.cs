// =====================================================================================
//  COMPILE CHECK ONLY — NOT A SUBSTITUTE FOR UNITY.
//
//  Stand-ins for UnityEngine.Playables, UnityEngine.Animations (Animation C# Jobs) and
//  UnityEngine.Experimental.Animations: only what unity-sample/ uses, with the names,
//  generic constraints and signatures of Unity 2021.3. See UnityEngine.cs.
// =====================================================================================

using System;

namespace UnityEngine.Playables
{
    public enum DirectorUpdateMode
    {
        DSPClock = 0,
        GameTime = 1,
        UnscaledGameTime = 2,
        Manual = 3,
    }

    public struct PlayableHandle
    {
    }

    public struct PlayableOutputHandle
    {
    }

    public interface IPlayable
    {
        PlayableHandle GetHandle();
    }

    public interface IPlayableOutput
    {
        PlayableOutputHandle GetHandle();
    }

    public struct PlayableGraph
    {
        public static PlayableGraph Create(string name) { throw UnityShim.NotUnity(); }
        public void Destroy() { throw UnityShim.NotUnity(); }
        public bool IsValid() { throw UnityShim.NotUnity(); }
        public void Play() { throw UnityShim.NotUnity(); }
        public void SetTimeUpdateMode(DirectorUpdateMode value) { throw UnityShim.NotUnity(); }
    }

    public static class PlayableExtensions
    {
        public static bool IsValid<U>(this U playable) where U : struct, IPlayable { throw UnityShim.NotUnity(); }
    }

    public static class PlayableOutputExtensions
    {
        public static void SetSourcePlayable<U, V>(this U output, V value)
            where U : struct, IPlayableOutput
            where V : struct, IPlayable
        { throw UnityShim.NotUnity(); }
    }

    static class UnityShim
    {
        internal static Exception NotUnity()
        {
            return new NotSupportedException("tests/unity-shim is a compile check, not Unity");
        }
    }
}

namespace UnityEngine.Animations
{
    using UnityEngine.Playables;

    public struct AnimationStream
    {
    }

    public interface IAnimationJob
    {
        void ProcessAnimation(AnimationStream stream);
        void ProcessRootMotion(AnimationStream stream);
    }

    public struct TransformStreamHandle
    {
        public Vector3 GetPosition(AnimationStream stream) { throw ShimA.NotUnity(); }
        public void SetPosition(AnimationStream stream, Vector3 position) { throw ShimA.NotUnity(); }
        public Quaternion GetRotation(AnimationStream stream) { throw ShimA.NotUnity(); }
        public void SetRotation(AnimationStream stream, Quaternion rotation) { throw ShimA.NotUnity(); }
    }

    public struct TransformSceneHandle
    {
        public bool IsValid(AnimationStream stream) { throw ShimA.NotUnity(); }
        public Vector3 GetPosition(AnimationStream stream) { throw ShimA.NotUnity(); }
        public Quaternion GetRotation(AnimationStream stream) { throw ShimA.NotUnity(); }
    }

    public static class AnimatorJobExtensions
    {
        public static TransformStreamHandle BindStreamTransform(this Animator animator, Transform transform) { throw ShimA.NotUnity(); }
        public static TransformSceneHandle BindSceneTransform(this Animator animator, Transform transform) { throw ShimA.NotUnity(); }
    }

    public struct AnimationScriptPlayable : IPlayable
    {
        public static AnimationScriptPlayable Create<T>(PlayableGraph graph, T jobData, int inputCount = 0)
            where T : struct, IAnimationJob
        { throw ShimA.NotUnity(); }

        public PlayableHandle GetHandle() { throw ShimA.NotUnity(); }
        public T GetJobData<T>() where T : struct, IAnimationJob { throw ShimA.NotUnity(); }
        public void SetJobData<T>(T jobData) where T : struct, IAnimationJob { throw ShimA.NotUnity(); }
    }

    public struct AnimationPlayableOutput : IPlayableOutput
    {
        public static AnimationPlayableOutput Create(PlayableGraph graph, string name, Animator target) { throw ShimA.NotUnity(); }
        public PlayableOutputHandle GetHandle() { throw ShimA.NotUnity(); }
    }

    static class ShimA
    {
        internal static Exception NotUnity()
        {
            return new NotSupportedException("tests/unity-shim is a compile check, not Unity");
        }
    }
}

namespace UnityEngine.Experimental.Animations
{
    using UnityEngine.Animations;

    public enum AnimationStreamSource
    {
        DefaultValues,
        PreviousInputs,
    }

    public static class AnimationPlayableOutputExtensions
    {
        public static void SetAnimationStreamSource(this AnimationPlayableOutput output, AnimationStreamSource streamSource)
        { throw new NotSupportedException("tests/unity-shim is a compile check, not Unity"); }

        public static void SetSortingOrder(this AnimationPlayableOutput output, ushort sortingOrder)
        { throw new NotSupportedException("tests/unity-shim is a compile check, not Unity"); }
    }
}
