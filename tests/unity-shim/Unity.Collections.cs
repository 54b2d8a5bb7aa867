// =====================================================================================
//  COMPILE CHECK ONLY — NOT A SUBSTITUTE FOR UNITY.
//
//  Stand-ins for Unity.Collections.NativeArray<T> and NativeArrayUnsafeUtility (both in
//  UnityEngine.CoreModule in Unity 2021.3, not the Collections package): only what
//  unity-sample/ uses, with Unity's signatures. No memory is allocated. See UnityEngine.cs.
// =====================================================================================

using System;

namespace Unity.Collections
{
    public enum Allocator
    {
        Invalid = 0,
        None = 1,
        Temp = 2,
        TempJob = 3,
        Persistent = 4,
    }

    public enum NativeArrayOptions
    {
        UninitializedMemory = 0,
        ClearMemory = 1,
    }

    public struct NativeArray<T> : IDisposable where T : struct
    {
        public NativeArray(int length, Allocator allocator, NativeArrayOptions options = NativeArrayOptions.ClearMemory)
        { throw UnityEngine.Shim.NotUnity(); }

        public bool IsCreated { get { throw UnityEngine.Shim.NotUnity(); } }
        public T this[int index] { get { throw UnityEngine.Shim.NotUnity(); } set { throw UnityEngine.Shim.NotUnity(); } }
        public void Dispose() { throw UnityEngine.Shim.NotUnity(); }
    }
}

namespace Unity.Collections.LowLevel.Unsafe
{
    public static class NativeArrayUnsafeUtility
    {
        public static unsafe void* GetUnsafePtr<T>(this NativeArray<T> nativeArray) where T : struct
        { throw UnityEngine.Shim.NotUnity(); }
    }
}
