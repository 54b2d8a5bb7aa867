// Sinew: idiomatic C# layer over the raw bindings in NativeMethods.g.cs.
//
// C# 7.2 (mcs) / 7.3 (Unity 2021.3) compatible. Every call that returns a status other than OK
// throws a SinewException carrying the status and the native message. Handles are SafeHandles
// (released by Dispose or, failing that, by the finalizer). Array overloads pin with `fixed`
// and allocate nothing per call; for Burst and Animation C# Jobs use Sinew.Native.NativeMethods
// directly with the NativePointer of each object.

using System;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using Sinew.Native;

namespace Sinew
{
    /// <summary>Result of a native call (SinewStatus in the C header).</summary>
    public enum Status
    {
        Ok = (int)SinewStatus.Ok,
        NullPointer = (int)SinewStatus.NullPointer,
        InvalidArgument = (int)SinewStatus.InvalidArgument,
        NonFinite = (int)SinewStatus.NonFinite,
        OutOfRange = (int)SinewStatus.OutOfRange,
        SizeMismatch = (int)SinewStatus.SizeMismatch,
        InvalidSkeleton = (int)SinewStatus.InvalidSkeleton,
        Panic = (int)SinewStatus.Panic,
        NotFound = (int)SinewStatus.NotFound,
        NumericOverflow = (int)SinewStatus.NumericOverflow,
    }

    /// <summary>
    /// A native call failed. <see cref="Status"/> is the native status and
    /// <see cref="NativeMessage"/> the message from sinew_last_error_message. The call had no
    /// effect: its outputs are untouched (one exception: a SolveBatch failing with
    /// NumericOverflow still solved every chain whose result was representable).
    /// </summary>
    public sealed class SinewException : Exception
    {
        public Status Status { get; }
        public string NativeMessage { get; }

        public SinewException(Status status, string nativeMessage)
            : base("Sinew " + status + ": " + nativeMessage)
        {
            Status = status;
            NativeMessage = nativeMessage;
        }
    }

    /// <summary>Library-wide queries and the status check used by every wrapper.</summary>
    public static unsafe class Library
    {
        /// <summary>The ABI version these bindings were generated for.</summary>
        public const uint BindingsAbiVersion = NativeMethods.SINEW_ABI_VERSION;

        /// <summary>The ABI version of the loaded native library.</summary>
        public static uint NativeAbiVersion
        {
            get { return NativeMethods.sinew_abi_version(); }
        }

        /// <summary>The loaded library's crate version.</summary>
        public static Version Version
        {
            get
            {
                uint major, minor, patch;
                Check(NativeMethods.sinew_version(&major, &minor, &patch));
                return new Version((int)major, (int)minor, (int)patch);
            }
        }

        /// <summary>Throws when the native library's ABI differs from the bindings'.</summary>
        public static void EnsureCompatible()
        {
            uint native = NativeAbiVersion;
            if (native != BindingsAbiVersion)
            {
                throw new InvalidOperationException(
                    "the native sinew library has ABI version " + native +
                    " but these bindings were generated for " + BindingsAbiVersion);
            }
        }

        /// <summary>
        /// The calling thread's last native error message (empty after a successful call).
        /// </summary>
        public static string LastErrorMessage()
        {
            const int Stack = 512;
            byte* buffer = stackalloc byte[Stack];
            UIntPtr length;
            if (NativeMethods.sinew_last_error_message(buffer, (UIntPtr)(uint)Stack, &length) != SinewStatus.Ok)
            {
                return string.Empty;
            }
            ulong n = (ulong)length;
            if (n < Stack)
            {
                return Encoding.UTF8.GetString(buffer, (int)n);
            }
            byte[] large = new byte[n + 1];
            fixed (byte* p = large)
            {
                NativeMethods.sinew_last_error_message(p, (UIntPtr)(n + 1), &length);
                return Encoding.UTF8.GetString(p, (int)Math.Min(n, (ulong)length));
            }
        }

        /// <summary>Throws a <see cref="SinewException"/> unless <paramref name="status"/> is OK.</summary>
        public static void Check(SinewStatus status)
        {
            if (status != SinewStatus.Ok)
            {
                Throw(status);
            }
        }

        // Kept out of Check so the success path stays small enough to inline.
        static void Throw(SinewStatus status)
        {
            throw new SinewException((Status)(int)status, LastErrorMessage());
        }

        internal static void ThrowNull(string name)
        {
            throw new ArgumentNullException(name);
        }

        internal static void ThrowLength(string name, string message)
        {
            throw new ArgumentException(message, name);
        }
    }

    /// <summary>
    /// Base of the SafeHandle of every native object: the handle is released exactly once, by
    /// Dispose or by the finalizer, through the native sinew_*_destroy.
    /// </summary>
    public abstract class SinewHandle : SafeHandle
    {
        static long live;

        protected SinewHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>Native objects created through these bindings and not yet released.</summary>
        public static long LiveCount
        {
            get { return Interlocked.Read(ref live); }
        }

        internal void Attach(IntPtr native)
        {
            SetHandle(native);
            Interlocked.Increment(ref live);
        }

        /// <summary>
        /// Adds a reference for the duration of a native call (throws ObjectDisposedException
        /// when the handle is closed) and returns the pointer; pair with Exit.
        /// </summary>
        internal IntPtr Enter(ref bool added)
        {
            DangerousAddRef(ref added);
            return handle;
        }

        internal void Exit(bool added)
        {
            if (added)
            {
                DangerousRelease();
            }
        }

        /// <summary>The pointer, or ObjectDisposedException once closed.</summary>
        internal IntPtr Pointer
        {
            get
            {
                if (IsClosed)
                {
                    throw new ObjectDisposedException(GetType().Name);
                }
                return handle;
            }
        }

        protected sealed override bool ReleaseHandle()
        {
            Destroy(handle);
            Interlocked.Decrement(ref live);
            return true;
        }

        protected abstract void Destroy(IntPtr native);
    }

    public sealed unsafe class SkeletonHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_skeleton_destroy((SinewSkeleton*)native); }
    }

    public sealed unsafe class PoseHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_pose_destroy((SinewPose*)native); }
    }

    public sealed unsafe class TwoBoneIkHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_two_bone_ik_destroy((SinewTwoBoneIk*)native); }
    }

    public sealed unsafe class FabrikHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_fabrik_destroy((SinewFabrik*)native); }
    }

    public sealed unsafe class CcdHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_ccd_destroy((SinewCcd*)native); }
    }

    public sealed unsafe class HandIkRetargetingHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_hand_ik_retargeting_destroy((SinewHandIkRetargeting*)native); }
    }

    public sealed unsafe class JointMaskHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_joint_mask_destroy((SinewJointMask*)native); }
    }

    public sealed unsafe class ClipHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_clip_destroy((SinewClip*)native); }
    }

    public sealed unsafe class ClipCursorHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_clip_cursor_destroy((SinewClipCursor*)native); }
    }

    public sealed unsafe class CrossfadeHandle : SinewHandle
    {
        protected override void Destroy(IntPtr native) { NativeMethods.sinew_crossfade_destroy((SinewCrossfade*)native); }
    }
}
