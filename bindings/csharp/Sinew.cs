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
        /// A reference on this handle for one native call (ObjectDisposedException when it is
        /// closed): <c>using (Lease l = handle.Lease()) ...(l.Pointer)</c>.
        /// </summary>
        internal Lease Lease()
        {
            return new Lease(this);
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

    /// <summary>
    /// A reference on a <see cref="SinewHandle"/> for the span of a native call, so a concurrent
    /// Dispose cannot free the native object under the call: taken by SinewHandle.Lease, given
    /// back by Dispose at the end of a <c>using</c> block. A struct, so leasing allocates nothing.
    /// </summary>
    internal struct Lease : IDisposable
    {
        readonly SinewHandle owner;
        readonly bool added;

        /// <summary>The native object (null for the default lease: no object).</summary>
        internal readonly IntPtr Pointer;

        internal Lease(SinewHandle owner)
        {
            this.owner = owner;
            added = false;
            owner.DangerousAddRef(ref added);
            Pointer = owner.DangerousGetHandle();
        }

        public void Dispose()
        {
            if (added)
            {
                owner.DangerousRelease();
            }
        }
    }

    /// <summary>
    /// Base of every wrapper class: it owns one SinewHandle (of the type the class's generated
    /// part makes in NewHandle), released by Dispose or, failing that, by the handle's finalizer.
    /// </summary>
    public abstract class NativeObject : IDisposable
    {
        internal readonly SinewHandle handle;

        internal NativeObject() { handle = NewHandle(); }

        /// <summary>A new, empty SafeHandle of the class's own type (NativeMethods.g.cs).</summary>
        internal abstract SinewHandle NewHandle();

        /// <summary>Owns <paramref name="native"/>, made by a create call that returned <paramref name="status"/> (SinewException unless OK).</summary>
        internal unsafe void Created(SinewStatus status, void* native)
        {
            Library.Check(status);
            handle.Attach((IntPtr)native);
        }

        public bool IsDisposed { get { return handle.IsClosed; } }

        public void Dispose() { handle.Dispose(); }

        /// <summary>A reference on the native object for one call (see <see cref="Sinew.Lease"/>).</summary>
        internal Lease Lease() { return handle.Lease(); }

        /// <summary>The lease of a required argument: ArgumentNullException (<paramref name="name"/>) for null.</summary>
        internal static Lease Required(NativeObject value, string name)
        {
            if (value == null) Library.ThrowNull(name);
            return value.handle.Lease();
        }

        /// <summary>The lease of an optional argument: none (a NULL pointer) for null.</summary>
        internal static Lease LeaseOrNone(NativeObject value) { return value == null ? default(Lease) : value.handle.Lease(); }

        /// <summary>A new array of <paramref name="length"/> items filled by <paramref name="fill"/>: the overloads that allocate.</summary>
        internal static T[] NewArray<T>(int length, Action<T[]> fill)
        {
            T[] array = new T[length];
            fill(array);
            return array;
        }
    }
}
