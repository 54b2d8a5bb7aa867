// =====================================================================================
//  COMPILE CHECK ONLY — NOT A SUBSTITUTE FOR UNITY.
//
//  Stand-ins for UnityEngine.Playables, UnityEngine.Animations (Animation C# Jobs) and
//  UnityEngine.Experimental.Animations: only what unity-sample/ uses, with the names,
//  generic constraints and signatures of Unity 2021.3. See UnityEngine.cs.
// =====================================================================================

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
        public static PlayableGraph Create(string name) { throw Shim.NotUnity(); }
        public void Destroy() { throw Shim.NotUnity(); }
        public bool IsValid() { throw Shim.NotUnity(); }
        public void Play() { throw Shim.NotUnity(); }
        public void SetTimeUpdateMode(DirectorUpdateMode value) { throw Shim.NotUnity(); }
    }

    public static class PlayableExtensions
    {
        public static bool IsValid<U>(this U playable) where U : struct, IPlayable { throw Shim.NotUnity(); }
    }

    public static class PlayableOutputExtensions
    {
        public static void SetSourcePlayable<U, V>(this U output, V value)
            where U : struct, IPlayableOutput
            where V : struct, IPlayable
        { throw Shim.NotUnity(); }
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
        public Vector3 GetPosition(AnimationStream stream) { throw Shim.NotUnity(); }
        public void SetPosition(AnimationStream stream, Vector3 position) { throw Shim.NotUnity(); }
        public Quaternion GetRotation(AnimationStream stream) { throw Shim.NotUnity(); }
        public void SetRotation(AnimationStream stream, Quaternion rotation) { throw Shim.NotUnity(); }
    }

    public struct TransformSceneHandle
    {
        public bool IsValid(AnimationStream stream) { throw Shim.NotUnity(); }
        public Vector3 GetPosition(AnimationStream stream) { throw Shim.NotUnity(); }
        public Quaternion GetRotation(AnimationStream stream) { throw Shim.NotUnity(); }
    }

    public static class AnimatorJobExtensions
    {
        public static TransformStreamHandle BindStreamTransform(this Animator animator, Transform transform) { throw Shim.NotUnity(); }
        public static TransformSceneHandle BindSceneTransform(this Animator animator, Transform transform) { throw Shim.NotUnity(); }
    }

    public struct AnimationScriptPlayable : IPlayable
    {
        public static AnimationScriptPlayable Create<T>(PlayableGraph graph, T jobData, int inputCount = 0)
            where T : struct, IAnimationJob
        { throw Shim.NotUnity(); }

        public PlayableHandle GetHandle() { throw Shim.NotUnity(); }
        public T GetJobData<T>() where T : struct, IAnimationJob { throw Shim.NotUnity(); }
        public void SetJobData<T>(T jobData) where T : struct, IAnimationJob { throw Shim.NotUnity(); }
    }

    public struct AnimationPlayableOutput : IPlayableOutput
    {
        public static AnimationPlayableOutput Create(PlayableGraph graph, string name, Animator target) { throw Shim.NotUnity(); }
        public PlayableOutputHandle GetHandle() { throw Shim.NotUnity(); }
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
        { throw Shim.NotUnity(); }

        public static void SetSortingOrder(this AnimationPlayableOutput output, ushort sortingOrder)
        { throw Shim.NotUnity(); }
    }
}
