// Shared plumbing of the Sinew components: loading check, error reporting, execution order.
//
// Namespace note: the components live in the top-level namespace SinewUnity, not under Sinew,
// so that Sinew.Transform (the binding's value type) never hides UnityEngine.Transform. Sinew
// types are always written qualified (Sinew.TwoBoneIk, Sinew.Transform, ...).

using System;
using UnityEngine;

namespace SinewUnity
{
    /// <summary>
    /// LateUpdate order of the Sinew components (lower runs first; the Animator has already
    /// written the frame's pose). Hand retargeting moves the IK hand bones before the limbs
    /// read them; chains (spines, tails) run before the two-bone limbs hanging off them.
    /// Change it per project in Project Settings > Script Execution Order.
    /// </summary>
    public static class SinewExecutionOrder
    {
        public const int HandIKRetargeting = 900;
        public const int Chain = 1000;
        public const int TwoBoneIK = 1100;
    }

    /// <summary>Native library checks and throttled error logging for the components.</summary>
    public static class SinewRuntime
    {
        static bool s_Loaded;
        static bool s_LoadReported;

        /// <summary>
        /// True when the native library is loaded and its ABI matches the bindings. Checked once
        /// per domain; a failure is logged once with what to do about it.
        /// </summary>
        public static bool EnsureLoaded(UnityEngine.Object context)
        {
            if (s_Loaded)
            {
                return true;
            }
            string problem;
            try
            {
                Sinew.Library.EnsureCompatible();
                s_Loaded = true;
                return true;
            }
            catch (DllNotFoundException e)
            {
                problem = "the native library (libsinew.so / sinew.dll / libsinew.dylib / libsinew.a) " +
                    "was not found for this platform. Build and copy it with scripts/stage_unity.sh. (" +
                    e.Message + ")";
            }
            catch (EntryPointNotFoundException e)
            {
                problem = "the native library is older than these bindings: rebuild it and run " +
                    "scripts/stage_unity.sh again. (" + e.Message + ")";
            }
            catch (InvalidOperationException e)
            {
                problem = e.Message + "; run scripts/stage_unity.sh to stage a matching build.";
            }
            if (!s_LoadReported)
            {
                s_LoadReported = true;
                Debug.LogError("Sinew: " + problem, context);
            }
            return false;
        }

        /// <summary>
        /// Logs <paramref name="e"/> once until <paramref name="logged"/> is reset by a successful
        /// solve, so a bad input does not flood the console every frame.
        /// </summary>
        public static void Report(Exception e, UnityEngine.Object context, ref bool logged)
        {
            if (logged)
            {
                return;
            }
            logged = true;
            Debug.LogError("Sinew " + (context != null ? context.name : "component") + ": " + e.Message, context);
        }
    }

    /// <summary>
    /// The native default settings, read once: the components build their settings from these
    /// every frame to compare with what the solver holds, without a native call per frame.
    /// </summary>
    public static class SinewDefaults
    {
        static bool s_Read;
        static Sinew.TwoBoneIkSettings s_TwoBoneIk;
        static Sinew.FabrikSettings s_Fabrik;
        static Sinew.CcdSettings s_Ccd;
        static Sinew.HandIkRetargetingSettings s_HandIkRetargeting;

        static void Read()
        {
            if (s_Read)
            {
                return;
            }
            s_TwoBoneIk = Sinew.TwoBoneIkSettings.Default;
            s_Fabrik = Sinew.FabrikSettings.Default;
            s_Ccd = Sinew.CcdSettings.Default;
            s_HandIkRetargeting = Sinew.HandIkRetargetingSettings.Default;
            s_Read = true;
        }

        public static Sinew.TwoBoneIkSettings TwoBoneIk { get { Read(); return s_TwoBoneIk; } }
        public static Sinew.FabrikSettings Fabrik { get { Read(); return s_Fabrik; } }
        public static Sinew.CcdSettings Ccd { get { Read(); return s_Ccd; } }
        public static Sinew.HandIkRetargetingSettings HandIkRetargeting { get { Read(); return s_HandIkRetargeting; } }
    }
}
