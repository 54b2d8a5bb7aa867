// Tests of the C# bindings under Mono, run by tests/csharp.rs:
//
//   mcs -unsafe -out:SinewTests.exe bindings/csharp/*.cs tests/csharp/SinewTests.cs
//   mono SinewTests.exe golden.txt
//
// golden.txt holds values the Rust core computed for the scenarios below (mirrored literally in
// tests/csharp.rs): one line per result, `NAME count hex-f32-bits...`. Every scenario is also run
// through the raw NativeMethods in this process; the idiomatic layer must match it bit for bit
// and the Rust core within 1e-6 (relative). Batch solves must equal the raw batch calls and
// single solves bit for bit (two-bone, FABRIK and CCD alike). Beyond parity: layouts,
// errors, disposal and finalization, threads, allocations. Prints `LIBRARY <path of the libsinew mapped>` and, last,
// `N passed, M failed`.

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using Sinew;
using Sinew.Native;

static unsafe class SinewTests
{
    // ------------------------------------------------------------------ harness

    static int passed, failed, checkFailures;
    static long checks;
    static long floatsCompared, bitIdentical;
    static double maxDiff;
    static Dictionary<string, float[]> golden;
    static Dictionary<string, float[]> idiomatic;
    static Dictionary<string, float[]> raw;

    static int Main(string[] args)
    {
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: SinewTests.exe golden.txt");
            return 2;
        }
        Stopwatch total = Stopwatch.StartNew();
        golden = LoadGolden(args[0]);
        Console.WriteLine("LIBRARY " + LoadedLibrary());

        Run("version and ABI", TestVersion);
        Run("value type and settings layouts match the C structs", TestLayouts);
        Run("enums mirror the generated ones", TestEnums);
        Run("settings defaults come from the native library", TestDefaults);
        Run("scenarios run through both layers", ComputeScenarios);
        Run("skeleton and pose", () => Compare("REST_MODEL"));
        Run("two-bone IK", () => Compare("TWOBONE", "TWOBONE_RESULT", "TWOBONE_STRETCH", "TWOBONE_STRETCH_RESULT", "TWOBONE_POSE", "TWOBONE_POSE_RESULT"));
        Run("FABRIK and CCD", () => Compare("FABRIK", "FABRIK_RESULT", "CCD", "CCD_RESULT"));
        Run("aim chains", () => Compare("AIM", "AIM_RESULT"));
        Run("blends, layers and additive", () => Compare("BLEND", "BLEND_MODEL", "LAYERS", "ADDITIVE"));
        Run("clips and crossfade", () => Compare("CLIP", "CLIP_WRAP", "FRAMES", "FRAMES_WRAP", "CROSSFADE", "CROSSFADE_WEIGHTS", "CROSSFADE_TIMES", "CROSSFADE_INERTIAL", "CROSSFADE_HELD", "CROSSFADE_HELD_TIMES"));
        Run("hand IK retargeting", () => Compare("HAND_OFFSET", "HAND_MODEL"));
        Run("pose-level chain solves and hand IK match the raw calls", TestPoseSolvesParity);
        Run("multi-effector FABRIK equals the Rust core and the raw calls bit for bit", TestMultiFabrik);
        Run("two-bone batches equal single solves and the raw calls bit for bit", TestTwoBoneBatchParity);
        Run("SoA two-bone batches equal array batches and the raw call bit for bit", TestTwoBoneBatchSoa);
        Run("FABRIK and CCD batches equal single solves bit for bit", TestChainBatchParity);
        Run("batch errors throw and leave every array untouched", TestBatchErrors);
        Run("skeleton names, lookups and copies", TestSkeletonQueries);
        Run("layers beyond the stack buffer", TestManyLayers);
        Run("layers with additive layers in one call equal BlendLayers then ApplyAdditive bit for bit", TestLayersWithAdditive);
        Run("errors throw SinewException with the native message", TestErrors);
        Run("argument checks before the native call", TestArgumentChecks);
        Run("disposed objects", TestDisposed);
        Run("shared native ownership outlives the C# objects", TestSharedOwnership);
        Run("Dispose frees native memory", TestDisposeFreesMemory);
        Run("finalizers free native memory", TestFinalizersFreeMemory);
        Run("threads with their own handles match a serial run", TestThreads);
        Run("hot paths allocate nothing", TestNoAllocation);
        Run("model matrices and skinning palettes equal the raw calls and the Rust core bit for bit", TestMatrices);

        Console.WriteLine(string.Format(CultureInfo.InvariantCulture,
            "parity with the Rust core: {0} floats compared, {1} bit-identical, max |C# - Rust| = {2:E3}; {3} checks; {4} ms",
            floatsCompared, bitIdentical, maxDiff, checks, total.ElapsedMilliseconds));
        Console.WriteLine(passed + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    static void Run(string name, Action test)
    {
        int before = checkFailures;
        Stopwatch sw = Stopwatch.StartNew();
        try
        {
            test();
        }
        catch (Exception e)
        {
            Fail(name + ": unexpected exception " + e);
        }
        if (checkFailures == before)
        {
            passed++;
            Console.WriteLine("ok   " + name + " (" + sw.ElapsedMilliseconds + " ms)");
        }
        else
        {
            failed++;
            Console.WriteLine("FAIL " + name);
        }
    }

    static void Fail(string message)
    {
        checkFailures++;
        Console.WriteLine("  FAILED: " + message);
    }

    static void Check(bool condition, string what)
    {
        checks++;
        if (!condition) Fail(what);
    }

    static void Throws<T>(string what, Action action, Func<T, bool> check) where T : Exception
    {
        checks++;
        try
        {
            action();
        }
        catch (T e)
        {
            if (check != null && !check(e)) Fail(what + ": wrong " + typeof(T).Name + ": " + e.Message);
            return;
        }
        catch (Exception e)
        {
            Fail(what + ": expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message);
            return;
        }
        Fail(what + ": expected " + typeof(T).Name + ", nothing thrown");
    }

    static void ThrowsSinew(string what, Status status, Action action, string messagePart = null)
    {
        Throws<SinewException>(what, action, e =>
            e.Status == status && e.NativeMessage.Length > 0 && e.Message.Contains(e.NativeMessage)
            && (messagePart == null || e.NativeMessage.Contains(messagePart)));
    }

    static Dictionary<string, float[]> LoadGolden(string path)
    {
        Dictionary<string, float[]> values = new Dictionary<string, float[]>();
        foreach (string line in File.ReadAllLines(path))
        {
            string[] words = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            if (words.Length < 2) continue;
            int n = int.Parse(words[1], CultureInfo.InvariantCulture);
            if (words.Length != n + 2) throw new FormatException("golden line " + words[0] + " has the wrong count");
            float[] v = new float[n];
            for (int i = 0; i < n; i++)
            {
                int bits = (int)uint.Parse(words[i + 2], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                v[i] = BitConverter.ToSingle(BitConverter.GetBytes(bits), 0);
            }
            values[words[0]] = v;
        }
        return values;
    }

    /// <summary>The path of the libsinew this process mapped.</summary>
    static string LoadedLibrary()
    {
        NativeMethods.sinew_abi_version(); // make sure it is loaded
        foreach (string line in File.ReadAllLines("/proc/self/maps"))
        {
            int slash = line.IndexOf('/');
            if (slash >= 0 && line.Contains("libsinew")) return line.Substring(slash);
        }
        return "(not found in /proc/self/maps)";
    }

    static float[] Golden(string name)
    {
        float[] v;
        if (!golden.TryGetValue(name, out v)) throw new KeyNotFoundException("golden.txt has no " + name);
        return v;
    }

    /// <summary>Idiomatic equals raw bit for bit, and equals the Rust core within tolerance.</summary>
    static void Compare(params string[] names)
    {
        foreach (string name in names)
        {
            float[] mine = idiomatic[name];
            float[] viaRaw = raw[name];
            float[] rust = Golden(name);
            Check(mine.Length == rust.Length && viaRaw.Length == rust.Length,
                name + ": " + mine.Length + " values (raw " + viaRaw.Length + "), Rust has " + rust.Length);
            for (int i = 0; i < Math.Min(mine.Length, Math.Min(viaRaw.Length, rust.Length)); i++)
            {
                Check(Bits(mine[i]) == Bits(viaRaw[i]), name + "[" + i + "]: idiomatic " + R(mine[i]) + " but raw NativeMethods " + R(viaRaw[i]));
                Near(name + "[" + i + "]", mine[i], rust[i]);
            }
        }
    }

    static void Near(string what, float actual, float expected)
    {
        floatsCompared++;
        if (Bits(actual) == Bits(expected))
        {
            bitIdentical++;
            return;
        }
        double diff = Math.Abs((double)actual - expected);
        if (diff > maxDiff) maxDiff = diff;
        Check(diff <= 1e-6 * Math.Max(1.0, Math.Abs((double)expected)), what + ": " + R(actual) + " but the Rust core gives " + R(expected));
    }

    static int Bits(float f) { return BitConverter.ToInt32(BitConverter.GetBytes(f), 0); }

    static string R(float f) { return f.ToString("R", CultureInfo.InvariantCulture); }

    static bool SameBits(float[] a, float[] b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++)
        {
            if (Bits(a[i]) != Bits(b[i])) return false;
        }
        return true;
    }

    static float[] F(Transform[] ts)
    {
        float[] v = new float[ts.Length * 10];
        for (int i = 0; i < ts.Length; i++) Put(v, i * 10, ts[i]);
        return v;
    }

    static void Put(float[] v, int at, Transform t)
    {
        v[at] = t.Translation.x; v[at + 1] = t.Translation.y; v[at + 2] = t.Translation.z;
        v[at + 3] = t.Rotation.x; v[at + 4] = t.Rotation.y; v[at + 5] = t.Rotation.z; v[at + 6] = t.Rotation.w;
        v[at + 7] = t.Scale.x; v[at + 8] = t.Scale.y; v[at + 9] = t.Scale.z;
    }

    static float[] F(IkResult r) { return new[] { r.Reached ? 1f : 0f, r.Error, (float)r.Iterations }; }

    static float[] F(SinewIkResult r) { return new[] { (float)r.reached, r.error, (float)r.iterations }; }

    static float[] F(Vec3 v) { return new[] { v.x, v.y, v.z }; }

    static float[] F(float[] v, int count)
    {
        float[] copy = new float[count];
        Array.Copy(v, copy, count);
        return copy;
    }

    // ------------------------------------------------------------------ scenarios (mirror tests/csharp.rs)

    static readonly Quat ID = new Quat(0f, 0f, 0f, 1f);
    static readonly Quat Z45 = new Quat(0f, 0f, 0.38268343f, 0.9238795f);
    static readonly Quat Y22 = new Quat(0f, 0.19509032f, 0f, 0.98078525f);
    static readonly Quat X15 = new Quat(0.13052619f, 0f, 0f, 0.9914449f);
    static readonly Quat Z30 = new Quat(0f, 0f, 0.25881904f, 0.9659258f);
    static readonly Quat Y60 = new Quat(0f, 0.5f, 0f, 0.8660254f);
    static readonly Quat X90 = new Quat(0.70710677f, 0f, 0f, 0.70710677f);

    static Transform Tr(float x, float y, float z, Quat r) { return new Transform(new Vec3(x, y, z), r, Vec3.One); }

    static readonly int[] Parents = { -1, 0, 1, 2, 1, 4 };
    static readonly string[] Names = { "root", "spine", "arm_r", "hand_r", "arm_l", "hand_l" };

    static Transform[] Rest()
    {
        return new[]
        {
            Tr(0f, 1f, 0f, ID),
            Tr(0f, 0.5f, 0f, Z45),
            Tr(0.3f, 0f, 0f, Y22),
            Tr(0.3f, 0f, 0f, ID),
            Tr(-0.3f, 0f, 0f, X15),
            Tr(-0.3f, 0f, 0f, ID),
        };
    }

    static Skeleton MakeSkeleton() { return new Skeleton(Parents, Rest(), Names); }

    static Transform[] PoseB(Transform[] rest)
    {
        Transform[] b = (Transform[])rest.Clone();
        b[1].Rotation = Z30;
        b[2].Rotation = Y60;
        b[3].Translation = new Vec3(0.35f, 0.05f, 0f);
        b[4].Rotation = X90;
        b[5].Scale = new Vec3(1.2f, 1.2f, 1.2f);
        return b;
    }

    static readonly float[] ClipOneRotationTimes = { 0f, 0.5f, 1f };
    static readonly Quat[] ClipOneRotations = { ID, Z45, X90 };
    static readonly float[] ClipOneTranslationTimes = { 0f, 1f };
    static readonly Vec3[] ClipOneTranslations = { new Vec3(0.3f, 0f, 0f), new Vec3(0.3f, 0.2f, 0f) };
    static readonly Vec3[] ClipOneIn = { Vec3.Zero, new Vec3(0f, 0.5f, 0f) };
    static readonly Vec3[] ClipOneOut = { new Vec3(0f, 0.5f, 0f), Vec3.Zero };
    static readonly float[] ClipOneScaleTimes = { 0f, 0.4f };
    static readonly Vec3[] ClipOneScales = { Vec3.One, new Vec3(1.2f, 1.2f, 1.2f) };
    static readonly float[] ClipTwoTimes = { 0f, 2f };
    static readonly Quat[] ClipTwoRotations = { ID, Y60 };

    static Clip ClipOne(Skeleton skeleton)
    {
        Clip clip = new Clip(skeleton, 1f);
        clip.SetRotationTrack(1, Interpolation.Linear, ClipOneRotationTimes, ClipOneRotations);
        clip.SetTranslationTrack(2, Interpolation.Cubic, ClipOneTranslationTimes, ClipOneTranslations, ClipOneIn, ClipOneOut);
        clip.SetScaleTrack(4, Interpolation.Step, ClipOneScaleTimes, ClipOneScales);
        return clip;
    }

    /// <summary>Four frames of the six joints (values exact in binary, rotations unnormalized).</summary>
    static Transform[] Frames()
    {
        Transform[] frames = new Transform[4 * 6];
        for (int f = 0; f < 4; f++)
        {
            for (int j = 0; j < 6; j++)
            {
                frames[f * 6 + j] = new Transform(new Vec3(0.25f * f, 0.125f * j, -0.5f), new Quat(0.25f * f, 0.125f * j, 0f, 1f), new Vec3(1f, 1f + 0.25f * f, 1f));
            }
        }
        return frames;
    }

    static readonly bool[] FramesMask = { true, false, true, true, true, true };

    static Clip ClipTwo(Skeleton skeleton)
    {
        Clip clip = new Clip(skeleton, 2f);
        clip.SetRotationTrack(3, Interpolation.Slerp, ClipTwoTimes, ClipTwoRotations);
        return clip;
    }

    static Transform[] Arm() { return new[] { Tr(0f, 0f, 0f, ID), Tr(0.3f, 0f, -0.05f, ID), Tr(0.6f, 0f, 0f, ID) }; }

    static Transform[] StraightChain(int n)
    {
        Transform[] chain = new Transform[n];
        for (int i = 0; i < n; i++) chain[i] = Tr(0.25f * i, 0f, 0f, ID);
        return chain;
    }

    static readonly Vec3 ArmTarget = new Vec3(0.35f, 0.25f, 0.1f);
    static readonly Vec3 ArmPole = new Vec3(0.3f, 0f, -1f);
    static readonly Vec3 StretchTarget = new Vec3(0.9f, 0.3f, 0f);
    static readonly Vec3 PoseTarget = new Vec3(0.2f, 1.6f, 0.3f);
    static readonly Vec3 ChainGoal = new Vec3(0.5f, 0.6f, 0.2f);
    static readonly HandJoints Hands = new HandJoints(3, 5, 2, 4);
    static readonly int[] HandBones = { 1 };

    static void ComputeScenarios()
    {
        idiomatic = Idiomatic();
        raw = Raw();
    }

    /// <summary>
    /// The handles the scenario runs share, made on one skeleton and disposed together: the three
    /// solvers (chains of up to 8 joints), clip one with a cursor, clip two, and a crossfade of up
    /// to 4 fades.
    /// </summary>
    sealed class Kit : IDisposable
    {
        public readonly TwoBoneIk Ik = new TwoBoneIk();
        public readonly Fabrik Fabrik = new Fabrik(8);
        public readonly Ccd Ccd = new Ccd(8);
        public readonly Clip One, Two;
        public readonly ClipCursor Cursor;
        public readonly Crossfade Fade;

        public Kit(Skeleton skeleton)
        {
            One = ClipOne(skeleton);
            Two = ClipTwo(skeleton);
            Cursor = new ClipCursor(One);
            Fade = new Crossfade(skeleton, 4);
        }

        public void Dispose()
        {
            foreach (IDisposable d in new IDisposable[] { Fade, Cursor, Two, One, Ccd, Fabrik, Ik }) d.Dispose();
        }
    }

    /// <summary>Every scenario through the idiomatic layer.</summary>
    static Dictionary<string, float[]> Idiomatic()
    {
        Dictionary<string, float[]> r = new Dictionary<string, float[]>();
        using (Skeleton skeleton = MakeSkeleton())
        using (Pose rest = new Pose(skeleton))
        using (Pose a = new Pose(skeleton))
        using (Pose b = new Pose(skeleton))
        using (Pose output = new Pose(skeleton))
        using (Pose delta = new Pose(skeleton))
        using (JointMask mask = JointMask.Subtree(skeleton, 1, 2))
        using (Kit kit = new Kit(skeleton))
        {
            Transform[] restModel = rest.GetModel();
            r["REST_MODEL"] = F(restModel);

            Transform[] chain = Arm();
            r["TWOBONE_RESULT"] = F(kit.Ik.Solve(chain, ArmTarget, null, ArmPole));
            r["TWOBONE"] = F(chain);
            TwoBoneIkSettings stretchy = TwoBoneIkSettings.Default;
            stretchy.AllowStretching = true;
            using (TwoBoneIk stretch = new TwoBoneIk(stretchy))
            {
                chain = Arm();
                r["TWOBONE_STRETCH_RESULT"] = F(stretch.Solve(chain, StretchTarget));
                r["TWOBONE_STRETCH"] = F(chain);
            }
            using (Pose pose = new Pose(skeleton))
            {
                r["TWOBONE_POSE_RESULT"] = F(kit.Ik.SolvePose(pose, 1, 2, 3, PoseTarget));
                r["TWOBONE_POSE"] = F(pose.GetLocal());
            }

            chain = StraightChain(5);
            r["FABRIK_RESULT"] = F(kit.Fabrik.Solve(chain, ChainGoal));
            r["FABRIK"] = F(chain);
            chain = StraightChain(5);
            r["CCD_RESULT"] = F(kit.Ccd.Solve(chain, ChainGoal));
            r["CCD"] = F(chain);
            AimIkSettings aimSettings = AimIkSettings.Default;
            aimSettings.AimOffset = new Vec3(0.05f, 0.1f, 0f);
            using (AimIk aim = new AimIk(8, aimSettings))
            {
                aim.SetJoint(1, 2f, 20f);
                chain = StraightChain(5);
                r["AIM_RESULT"] = F(aim.Solve(chain, new Vec3(-0.5f, 1.6f, 0.4f), new Vec3(0f, 0f, 1f)));
                r["AIM"] = F(chain);
                // A batch of two equals the single solve, and the pose entry runs.
                Transform[] chains = new Transform[10];
                Array.Copy(StraightChain(5), 0, chains, 0, 5);
                Array.Copy(StraightChain(5), 0, chains, 5, 5);
                Vec3[] targets = { new Vec3(-0.5f, 1.6f, 0.4f), new Vec3(-0.5f, 1.6f, 0.4f) };
                Vec3[] ups = { new Vec3(0f, 0f, 1f), new Vec3(0f, 0f, 1f) };
                IkResult[] results = new IkResult[2];
                aim.SolveBatch(chains, 5, targets, ups, results);
                Transform[] second = new Transform[5];
                Array.Copy(chains, 5, second, 0, 5);
                Check(SameBits(F(second), r["AIM"]) && SameBits(F(results[1]), r["AIM_RESULT"]), "aim batch equals the single solve");
                ThrowsSinew("an aim chain longer than the solver", Status.OutOfRange, () => aim.Solve(StraightChain(9), ChainGoal));
            }

            b.SetLocal(PoseB(skeleton.GetRestPose()));
            Blending.Blend(a, b, 0.3f, output, mask);
            r["BLEND"] = F(output.GetLocal());
            Blending.Blend(a, b, 0.6f, output, null, BlendSpace.ModelRotation);
            r["BLEND_MODEL"] = F(output.GetLocal());
            Blending.BlendLayers(new[] { new BlendLayer(a, 0.25f), new BlendLayer(b, 0.5f, mask) }, 0.1f, output);
            r["LAYERS"] = F(output.GetLocal());
            Blending.MakeAdditive(b, a, delta);
            Blending.ApplyAdditive(a, delta, 0.5f, output);
            r["ADDITIVE"] = F(output.GetLocal());

            kit.One.Sample(0.3f, true, output);
            r["CLIP"] = F(output.GetLocal());
            kit.One.Sample(1.7f, true, output, kit.Cursor);
            r["CLIP_WRAP"] = F(output.GetLocal());
            using (Clip frames = Clip.FromFrames(skeleton, Frames(), 4, 10f, Interpolation.Linear, false, FramesMask))
            {
                Check(!frames.Wrap && frames.Duration == (float)(3.0 / 10.0), "a frames clip without wrap");
                frames.Sample(0.15f, true, output);
                r["FRAMES"] = F(output.GetLocal());
            }
            using (Clip frames = Clip.FromFrames(skeleton, Frames(), 4, 10f, Interpolation.Slerp, true))
            {
                Check(frames.Wrap && frames.Duration == 0.4f, "a wrapping frames clip");
                frames.Sample(0.37f, true, output);
                r["FRAMES_WRAP"] = F(output.GetLocal());
                frames.Wrap = false;
                Check(!frames.Wrap, "the wrap flag turns off");
            }
            kit.Fade.Play(kit.One, true);
            kit.Fade.Update(0.2f);
            Check(kit.Fade.FadeTo(kit.Two, 0.5f, FadeCurve.Smooth, true), "the fade to clip two is queued");
            kit.Fade.Update(0.25f);
            kit.Fade.GetPose(output);
            r["CROSSFADE"] = F(output.GetLocal());
            float[] weights = new float[4];
            r["CROSSFADE_WEIGHTS"] = F(weights, kit.Fade.GetWeights(weights));
            float[] times = new float[4];
            r["CROSSFADE_TIMES"] = F(times, kit.Fade.GetTimes(times));
            Check(kit.Fade.FadeTo(kit.One, 0.5f, FadeCurve.Inertialize, true), "the inertialized switch to clip one starts");
            Check(kit.Fade.FadeCount == 0, "the inertialized switch drops the queued fade");
            kit.Fade.Update(0.125f);
            float left;
            bool active = kit.Fade.GetInertialization(out left);
            Check(active == kit.Fade.IsInertializing, "IsInertializing agrees with GetInertialization");
            r["CROSSFADE_INERTIAL"] = new[] { active ? 1f : 0f, left };
            Check(!kit.Fade.FadeTo(kit.One, 0.5f, FadeCurve.Linear, false), "the same clip again starts no transition");
            kit.Fade.Update(2f);
            kit.Fade.GetPose(output);
            r["CROSSFADE_HELD"] = F(output.GetLocal());
            r["CROSSFADE_HELD_TIMES"] = F(times, kit.Fade.GetTimes(times));

            HandIkRetargetingSettings hs = HandIkRetargetingSettings.Default;
            hs.HandFkWeight = 0.25f;
            using (HandIkRetargeting hand = new HandIkRetargeting(hs))
            {
                r["HAND_OFFSET"] = F(hand.ApplyModel(restModel, Hands, HandBones));
                r["HAND_MODEL"] = F(restModel);
            }
        }
        return r;
    }

    // ------------------------------------------------------------------ the same through NativeMethods

    static void Ok(SinewStatus status, string what)
    {
        if (status != SinewStatus.Ok) throw new Exception(what + " returned " + status + ": " + Library.LastErrorMessage());
    }

    static SinewSkeleton* RawSkeleton()
    {
        Transform[] rest = Rest();
        SinewSkeleton* s = null;
        fixed (int* p = Parents)
        fixed (Transform* r = rest)
        {
            Ok(NativeMethods.sinew_skeleton_create(p, (SinewTransform*)r, null, 6, &s), "sinew_skeleton_create");
        }
        return s;
    }

    static SinewPose* RawPose(SinewSkeleton* s)
    {
        SinewPose* p = null;
        Ok(NativeMethods.sinew_pose_create(s, &p), "sinew_pose_create");
        return p;
    }

    static float[] RawLocal(SinewPose* p)
    {
        SinewTransform[] local = new SinewTransform[6];
        fixed (SinewTransform* l = local) Ok(NativeMethods.sinew_pose_get_local(p, l, 6), "sinew_pose_get_local");
        Transform[] ts = new Transform[6];
        for (int i = 0; i < 6; i++) ts[i] = local[i];
        return F(ts);
    }

    /// <summary>A crossfade's clip times, through the raw call.</summary>
    static float[] RawTimes(SinewCrossfade* fade)
    {
        float* times = stackalloc float[4];
        uint count;
        Ok(NativeMethods.sinew_crossfade_get_times(fade, times, 4, &count), "get_times");
        float[] t = new float[count];
        for (int i = 0; i < count; i++) t[i] = times[i];
        return t;
    }

    static float[] RawChain(SinewTransform[] chain)
    {
        Transform[] ts = new Transform[chain.Length];
        for (int i = 0; i < chain.Length; i++) ts[i] = chain[i];
        return F(ts);
    }

    static SinewTransform[] ToRaw(Transform[] ts)
    {
        SinewTransform[] r = new SinewTransform[ts.Length];
        for (int i = 0; i < ts.Length; i++) r[i] = ts[i];
        return r;
    }

    static void RawTrack(SinewClip* clip, int kind, uint joint, int interpolation, float[] times, SinewVec3[] vecs, SinewQuat[] quats, SinewVec3[] ins, SinewVec3[] outs)
    {
        fixed (float* t = times)
        fixed (SinewVec3* v = vecs)
        fixed (SinewQuat* q = quats)
        fixed (SinewVec3* i = ins)
        fixed (SinewVec3* o = outs)
        {
            uint n = (uint)times.Length;
            if (kind == 0) Ok(NativeMethods.sinew_clip_set_translation_track(clip, joint, interpolation, t, v, i, o, n), "translation track");
            else if (kind == 1) Ok(NativeMethods.sinew_clip_set_rotation_track(clip, joint, interpolation, t, q, null, null, n), "rotation track");
            else Ok(NativeMethods.sinew_clip_set_scale_track(clip, joint, interpolation, t, v, i, o, n), "scale track");
        }
    }

    static SinewVec3[] V(Vec3[] v)
    {
        SinewVec3[] r = new SinewVec3[v.Length];
        for (int i = 0; i < v.Length; i++) r[i] = v[i];
        return r;
    }

    static SinewQuat[] Q(Quat[] q)
    {
        SinewQuat[] r = new SinewQuat[q.Length];
        for (int i = 0; i < q.Length; i++) r[i] = q[i];
        return r;
    }

    /// <summary>Every scenario through the raw P/Invoke layer only (no Sinew.* classes).</summary>
    static Dictionary<string, float[]> Raw()
    {
        Dictionary<string, float[]> r = new Dictionary<string, float[]>();
        SinewSkeleton* s = RawSkeleton();
        SinewPose* rest = RawPose(s);
        SinewPose* a = RawPose(s);
        SinewPose* b = RawPose(s);
        SinewPose* output = RawPose(s);
        SinewPose* delta = RawPose(s);
        SinewJointMask* mask = null;
        Ok(NativeMethods.sinew_joint_mask_create_subtree(s, 1, 2, &mask), "mask");

        SinewTransform[] restModel = new SinewTransform[6];
        fixed (SinewTransform* m = restModel) Ok(NativeMethods.sinew_pose_get_model(rest, m, 6), "get_model");
        r["REST_MODEL"] = RawChain(restModel);

        SinewTwoBoneIkSettings ts;
        NativeMethods.sinew_two_bone_ik_settings_default(&ts);
        SinewTwoBoneIk* ik = null;
        Ok(NativeMethods.sinew_two_bone_ik_create(&ts, &ik), "two_bone_ik_create");
        SinewIkResult result;
        SinewTransform[] chain = ToRaw(Arm());
        SinewVec3 target = ArmTarget, pole = ArmPole;
        fixed (SinewTransform* c = chain) Ok(NativeMethods.sinew_two_bone_ik_solve(ik, c, &target, null, &pole, &result), "two_bone_ik_solve");
        r["TWOBONE"] = RawChain(chain);
        r["TWOBONE_RESULT"] = F(result);
        ts.allow_stretching = 1;
        SinewTwoBoneIk* stretch = null;
        Ok(NativeMethods.sinew_two_bone_ik_create(&ts, &stretch), "two_bone_ik_create");
        chain = ToRaw(Arm());
        target = StretchTarget;
        fixed (SinewTransform* c = chain) Ok(NativeMethods.sinew_two_bone_ik_solve(stretch, c, &target, null, null, &result), "two_bone_ik_solve");
        r["TWOBONE_STRETCH"] = RawChain(chain);
        r["TWOBONE_STRETCH_RESULT"] = F(result);
        NativeMethods.sinew_two_bone_ik_destroy(stretch);
        SinewPose* pose = RawPose(s);
        target = PoseTarget;
        Ok(NativeMethods.sinew_two_bone_ik_solve_pose(ik, pose, 1, 2, 3, &target, null, null, &result), "two_bone_ik_solve_pose");
        r["TWOBONE_POSE"] = RawLocal(pose);
        r["TWOBONE_POSE_RESULT"] = F(result);
        NativeMethods.sinew_pose_destroy(pose);
        NativeMethods.sinew_two_bone_ik_destroy(ik);

        // FABRIK, then CCD, with the default settings: a straight five-joint chain to ChainGoal.
        SinewFabrikSettings fs;
        NativeMethods.sinew_fabrik_settings_default(&fs);
        SinewCcdSettings cs;
        NativeMethods.sinew_ccd_settings_default(&cs);
        SinewFabrik* fabrik = null;
        SinewCcd* ccd = null;
        Ok(NativeMethods.sinew_fabrik_create(&fs, 8, &fabrik), "fabrik_create");
        Ok(NativeMethods.sinew_ccd_create(&cs, 8, &ccd), "ccd_create");
        target = ChainGoal;
        foreach (string name in new[] { "FABRIK", "CCD" })
        {
            chain = ToRaw(StraightChain(5));
            fixed (SinewTransform* c = chain)
            {
                SinewStatus status = name == "FABRIK"
                    ? NativeMethods.sinew_fabrik_solve(fabrik, c, 5, null, &target, null, &result)
                    : NativeMethods.sinew_ccd_solve(ccd, c, 5, null, &target, null, &result);
                Ok(status, name.ToLowerInvariant() + "_solve");
            }
            r[name] = RawChain(chain);
            r[name + "_RESULT"] = F(result);
        }
        NativeMethods.sinew_fabrik_destroy(fabrik);
        NativeMethods.sinew_ccd_destroy(ccd);

        SinewAimIkSettings aimSettings;
        NativeMethods.sinew_aim_ik_settings_default(&aimSettings);
        aimSettings.aim_offset = new Vec3(0.05f, 0.1f, 0f);
        SinewAimIk* aim = null;
        Ok(NativeMethods.sinew_aim_ik_create(&aimSettings, 8, &aim), "aim_ik_create");
        Ok(NativeMethods.sinew_aim_ik_set_joint(aim, 1, 2f, 20f), "aim_ik_set_joint");
        chain = ToRaw(StraightChain(5));
        target = new Vec3(-0.5f, 1.6f, 0.4f);
        SinewVec3 up = new Vec3(0f, 0f, 1f);
        fixed (SinewTransform* c = chain) Ok(NativeMethods.sinew_aim_ik_solve(aim, c, 5, &target, &up, &result), "aim_ik_solve");
        r["AIM"] = RawChain(chain);
        r["AIM_RESULT"] = F(result);
        NativeMethods.sinew_aim_ik_destroy(aim);

        SinewTransform[] bLocal = ToRaw(PoseB(Rest()));
        fixed (SinewTransform* l = bLocal) Ok(NativeMethods.sinew_pose_set_local(b, l, 6), "set_local");
        Ok(NativeMethods.sinew_pose_blend(a, b, 0.3f, mask, (int)SinewBlendSpace.Local, output), "blend");
        r["BLEND"] = RawLocal(output);
        Ok(NativeMethods.sinew_pose_blend(a, b, 0.6f, null, (int)SinewBlendSpace.ModelRotation, output), "blend model");
        r["BLEND_MODEL"] = RawLocal(output);
        SinewBlendLayer* layers = stackalloc SinewBlendLayer[2];
        layers[0].pose = a; layers[0].weight = 0.25f; layers[0].mask = null;
        layers[1].pose = b; layers[1].weight = 0.5f; layers[1].mask = mask;
        Ok(NativeMethods.sinew_pose_blend_layers(layers, 2, 0.1f, output), "blend_layers");
        r["LAYERS"] = RawLocal(output);
        Ok(NativeMethods.sinew_pose_make_additive(b, a, delta), "make_additive");
        Ok(NativeMethods.sinew_pose_apply_additive(a, delta, 0.5f, null, output), "apply_additive");
        r["ADDITIVE"] = RawLocal(output);

        SinewClip* one = null, two = null;
        Ok(NativeMethods.sinew_clip_create(s, 1f, &one), "clip_create");
        RawTrack(one, 1, 1, (int)SinewInterpolation.Linear, ClipOneRotationTimes, null, Q(ClipOneRotations), null, null);
        RawTrack(one, 0, 2, (int)SinewInterpolation.Cubic, ClipOneTranslationTimes, V(ClipOneTranslations), null, V(ClipOneIn), V(ClipOneOut));
        RawTrack(one, 2, 4, (int)SinewInterpolation.Step, ClipOneScaleTimes, V(ClipOneScales), null, null, null);
        Ok(NativeMethods.sinew_clip_create(s, 2f, &two), "clip_create");
        RawTrack(two, 1, 3, (int)SinewInterpolation.Slerp, ClipTwoTimes, null, Q(ClipTwoRotations), null, null);
        Ok(NativeMethods.sinew_clip_sample(one, null, 0.3f, 1, output), "clip_sample");
        r["CLIP"] = RawLocal(output);
        SinewClipCursor* cursor = null;
        Ok(NativeMethods.sinew_clip_cursor_create(one, &cursor), "cursor_create");
        Ok(NativeMethods.sinew_clip_sample(one, cursor, 1.7f, 1, output), "clip_sample");
        r["CLIP_WRAP"] = RawLocal(output);
        SinewTransform[] rawFrames = ToRaw(Frames());
        byte[] rawMask = { 1, 0, 1, 1, 1, 1 };
        foreach (string name in new[] { "FRAMES", "FRAMES_WRAP" })
        {
            bool wrap = name == "FRAMES_WRAP";
            SinewClip* frames = null;
            int interpolation = (int)(wrap ? SinewInterpolation.Slerp : SinewInterpolation.Linear);
            fixed (SinewTransform* f = rawFrames)
            fixed (byte* m = rawMask)
            {
                Ok(NativeMethods.sinew_clip_create_from_frames(s, f, 4, 6, 10f, wrap ? null : m, interpolation, wrap ? 1u : 0u, &frames), "clip_create_from_frames");
            }
            uint wraps;
            Ok(NativeMethods.sinew_clip_get_wrap(frames, &wraps), "clip_get_wrap");
            Check(wraps == (wrap ? 1u : 0u), "raw wrap flag");
            Ok(NativeMethods.sinew_clip_sample(frames, null, wrap ? 0.37f : 0.15f, 1, output), "clip_sample");
            r[name] = RawLocal(output);
            Ok(NativeMethods.sinew_clip_set_wrap(frames, 0), "clip_set_wrap");
            NativeMethods.sinew_clip_destroy(frames);
        }
        NativeMethods.sinew_clip_cursor_destroy(cursor);
        SinewCrossfade* fade = null;
        Ok(NativeMethods.sinew_crossfade_create(s, 4, &fade), "crossfade_create");
        Ok(NativeMethods.sinew_crossfade_play(fade, one, 1), "play");
        Ok(NativeMethods.sinew_crossfade_update(fade, 0.2f), "update");
        uint queued;
        Ok(NativeMethods.sinew_crossfade_fade_to(fade, two, 0.5f, (int)SinewFadeCurve.Smooth, 1, &queued), "fade_to");
        Ok(NativeMethods.sinew_crossfade_update(fade, 0.25f), "update");
        Ok(NativeMethods.sinew_crossfade_get_pose(fade, output), "get_pose");
        r["CROSSFADE"] = RawLocal(output);
        float* weights = stackalloc float[4];
        uint count;
        Ok(NativeMethods.sinew_crossfade_get_weights(fade, weights, 4, &count), "get_weights");
        float[] w = new float[count];
        for (int i = 0; i < count; i++) w[i] = weights[i];
        r["CROSSFADE_WEIGHTS"] = w;
        r["CROSSFADE_TIMES"] = RawTimes(fade);
        Ok(NativeMethods.sinew_crossfade_fade_to(fade, one, 0.5f, (int)SinewFadeCurve.Inertialize, 1, &queued), "fade_to");
        Ok(NativeMethods.sinew_crossfade_update(fade, 0.125f), "update");
        uint active;
        float left;
        Ok(NativeMethods.sinew_crossfade_is_inertializing(fade, &active, &left), "is_inertializing");
        r["CROSSFADE_INERTIAL"] = new[] { (float)active, left };
        Ok(NativeMethods.sinew_crossfade_fade_to(fade, one, 0.5f, (int)SinewFadeCurve.Linear, 0, &queued), "fade_to");
        Check(queued == 0, "raw: the same clip again starts no transition");
        Ok(NativeMethods.sinew_crossfade_update(fade, 2f), "update");
        Ok(NativeMethods.sinew_crossfade_get_pose(fade, output), "get_pose");
        r["CROSSFADE_HELD"] = RawLocal(output);
        r["CROSSFADE_HELD_TIMES"] = RawTimes(fade);
        NativeMethods.sinew_crossfade_destroy(fade);
        NativeMethods.sinew_clip_destroy(one);
        NativeMethods.sinew_clip_destroy(two);

        SinewHandIkRetargetingSettings hs;
        NativeMethods.sinew_hand_ik_retargeting_settings_default(&hs);
        hs.hand_fk_weight = 0.25f;
        SinewHandIkRetargeting* hand = null;
        Ok(NativeMethods.sinew_hand_ik_retargeting_create(&hs, &hand), "hand_create");
        SinewHandJoints hj = new SinewHandJoints { right_fk = 3, left_fk = 5, right_ik = 2, left_ik = 4 };
        uint bone = 1;
        SinewVec3 offset;
        fixed (SinewTransform* m = restModel)
        {
            Ok(NativeMethods.sinew_hand_ik_retargeting_apply_model(hand, m, 6, &hj, &bone, 1, &offset), "apply_model");
        }
        r["HAND_OFFSET"] = F((Vec3)offset);
        r["HAND_MODEL"] = RawChain(restModel);
        NativeMethods.sinew_hand_ik_retargeting_destroy(hand);

        NativeMethods.sinew_joint_mask_destroy(mask);
        foreach (IntPtr p in new[] { (IntPtr)rest, (IntPtr)a, (IntPtr)b, (IntPtr)output, (IntPtr)delta })
        {
            NativeMethods.sinew_pose_destroy((SinewPose*)p);
        }
        NativeMethods.sinew_skeleton_destroy(s);
        return r;
    }

    // ------------------------------------------------------------------ batches

    const int BatchCount = 9;

    static readonly Vec3[] ArmReach =
    {
        new Vec3(0.35f, 0.25f, 0.1f), new Vec3(0.4f, -0.1f, 0.2f), new Vec3(0.1f, 0.4f, -0.2f),
        new Vec3(0.5f, 0.1f, 0f), new Vec3(0f, 0f, 0f), new Vec3(0.2f, 0.2f, 0.2f),
        new Vec3(0.05f, 0.3f, 0.3f), new Vec3(1.5f, 1f, 0.5f), new Vec3(-0.3f, 0.2f, 0.1f),
    };

    static readonly Vec3[] LimbReach =
    {
        new Vec3(0.5f, 0.6f, 0.2f), new Vec3(0.8f, 0.3f, -0.1f), new Vec3(0.2f, 0.7f, 0.3f),
        new Vec3(3f, 0f, 0f), new Vec3(0.6f, -0.4f, 0.1f), new Vec3(0.3f, 0.3f, 0.3f),
        new Vec3(0.9f, 0.2f, 0f), new Vec3(0.1f, 0.5f, -0.4f), new Vec3(0.7f, 0.1f, 0.2f),
    };

    static Vec3 Add(Vec3 a, Vec3 b) { return new Vec3(a.x + b.x, a.y + b.y, a.z + b.z); }

    /// <summary>
    /// BatchCount arms back to back, each moved and bent a little, with targets in reach, out of
    /// reach and at the root (degenerate: the general path inside a SIMD group of four), poles
    /// and effector rotations.
    /// </summary>
    static Transform[] BatchArms(out Vec3[] targets, out Vec3[] poles, out Quat[] rotations)
    {
        Transform[] arms = new Transform[3 * BatchCount];
        for (int i = 0; i < BatchCount; i++)
        {
            Transform[] arm = Arm();
            Vec3 shift = new Vec3(0.1f * i, -0.05f * i, 0.02f * i);
            for (int j = 0; j < 3; j++)
            {
                arm[j].Translation = Add(arm[j].Translation, shift);
                arms[3 * i + j] = arm[j];
            }
            arms[3 * i + 1].Translation = Add(arms[3 * i + 1].Translation, new Vec3(0f, 0.02f * i, 0f));
            arms[3 * i + 1].Rotation = Quat.AxisAngle(new Vec3(0f, 0f, 1f), 0.1f * i);
        }
        targets = PerChain(i => Add(arms[3 * i].Translation, ArmReach[i]));
        poles = PerChain(i => Add(arms[3 * i].Translation, new Vec3(0.3f, -0.2f + 0.1f * i, -1f)));
        rotations = PerChain(i => Quat.AxisAngle(new Vec3(1f, 0.1f * i, 1f), 0.2f + 0.1f * i));
        return arms;
    }

    /// <summary>One value per batch chain: value i is <paramref name="at"/>(i).</summary>
    static T[] PerChain<T>(Func<int, T> at)
    {
        T[] values = new T[BatchCount];
        for (int i = 0; i < BatchCount; i++) values[i] = at(i);
        return values;
    }

    /// <summary>BatchCount bent five-joint chains back to back, with targets (one out of reach), effector and root parent rotations.</summary>
    static Transform[] BatchLimbs(out Vec3[] targets, out Quat[] rotations, out Quat[] parents)
    {
        Transform[] limbs = new Transform[5 * BatchCount];
        for (int i = 0; i < BatchCount; i++)
        {
            Transform[] line = StraightChain(5);
            for (int j = 0; j < 5; j++)
            {
                line[j].Translation = Add(line[j].Translation, new Vec3(0f, 0.1f * i + (j == 2 ? 0.03f * i : 0f), -0.05f * i));
                limbs[5 * i + j] = line[j];
            }
        }
        targets = PerChain(i => Add(limbs[5 * i].Translation, LimbReach[i]));
        rotations = PerChain(i => Quat.AxisAngle(new Vec3(0f, 1f, 0.2f * i), 0.2f + 0.1f * i));
        parents = PerChain(i => Quat.AxisAngle(new Vec3(0.1f * i, 0f, 1f), 0.05f * i));
        return limbs;
    }

    static Transform[] Slice(Transform[] all, int start, int count)
    {
        Transform[] part = new Transform[count];
        Array.Copy(all, start, part, 0, count);
        return part;
    }

    static IkResult[] Sentinels(int count)
    {
        IkResult[] r = new IkResult[count];
        for (int i = 0; i < count; i++) r[i] = new IkResult(true, 42.5f, 77);
        return r;
    }

    static float[] F(IkResult[] rs)
    {
        float[] v = new float[rs.Length * 3];
        for (int i = 0; i < rs.Length; i++) Array.Copy(F(rs[i]), 0, v, 3 * i, 3);
        return v;
    }

    static float[] F(SinewIkResult[] rs)
    {
        float[] v = new float[rs.Length * 3];
        for (int i = 0; i < rs.Length; i++) Array.Copy(F(rs[i]), 0, v, 3 * i, 3);
        return v;
    }

    static void TestTwoBoneBatchParity()
    {
        Vec3[] targets, poles;
        Quat[] rotations;
        Transform[] arms = BatchArms(out targets, out poles, out rotations);
        TwoBoneIkSettings stretchy = TwoBoneIkSettings.Default;
        stretchy.AllowStretching = true;
        stretchy.Soften = 0.9f;
        stretchy.PoleWeight = 0.8f;
        stretchy.EndRotation = EndRotation.CopyEffector;
        TwoBoneIkSettings twist = TwoBoneIkSettings.Default;
        twist.Weight = 0.6f;
        twist.KeepTwist = true;
        foreach (TwoBoneIkSettings settings in new[] { TwoBoneIkSettings.Default, stretchy, twist })
        {
            using (TwoBoneIk ik = new TwoBoneIk(settings))
            {
                for (int with = 0; with < 2; with++)
                {
                    bool all = with == 1;
                    string what = "two-bone batch (settings " + settings.EndRotation + "/" + settings.Weight + (all ? ", every array" : ", positions only") + ")";
                    Transform[] batch = (Transform[])arms.Clone();
                    IkResult[] results = Sentinels(BatchCount);
                    if (all) ik.SolveBatch(batch, targets, rotations, poles, results);
                    else ik.SolveBatch(batch, targets);

                    SinewTransform[] raw = ToRaw(arms);
                    SinewIkResult[] rawResults = new SinewIkResult[BatchCount];
                    SinewVec3[] rawTargets = V(targets), rawPoles = V(poles);
                    SinewQuat[] rawRotations = Q(rotations);
                    fixed (SinewTransform* c = raw)
                    fixed (SinewVec3* t = rawTargets)
                    fixed (SinewQuat* r = rawRotations)
                    fixed (SinewVec3* p = rawPoles)
                    fixed (SinewIkResult* o = rawResults)
                    {
                        Ok(NativeMethods.sinew_two_bone_ik_solve_batch(ik.NativePointer, c, BatchCount, t, all ? r : null, all ? p : null, all ? o : null), "two_bone_ik_solve_batch");
                    }
                    Check(SameBits(F(batch), RawChain(raw)), what + ": idiomatic equals raw NativeMethods bit for bit");
                    if (all) Check(SameBits(F(results), F(rawResults)), what + ": results equal the raw call's");
                    Check(!SameBits(F(batch), F(arms)), what + ": the chains were solved");

                    for (int i = 0; i < BatchCount; i++)
                    {
                        Transform[] single = Slice(arms, 3 * i, 3);
                        IkResult expected = ik.Solve(single, targets[i], all ? rotations[i] : (Quat?)null, all ? poles[i] : (Vec3?)null);
                        Check(SameBits(F(Slice(batch, 3 * i, 3)), F(single)), what + ": chain " + i + " equals Solve's bit for bit");
                        if (all)
                        {
                            Check(SameBits(F(results[i]), F(expected)), what + ": result " + i + " equals Solve's bit for bit");
                        }
                        else
                        {
                            Check(SameBits(F(results[i]), F(new IkResult(true, 42.5f, 77))), what + ": results untouched when not asked for");
                        }
                    }

                    // The reusable-array overload on larger arrays, and the pointer overload, give the same.
                    if (all)
                    {
                        Transform[] big = new Transform[3 * BatchCount + 6];
                        Array.Copy(arms, big, arms.Length);
                        Vec3[] bigTargets = new Vec3[BatchCount + 2], bigPoles = new Vec3[BatchCount + 2];
                        Quat[] bigRotations = new Quat[BatchCount + 2];
                        Array.Copy(targets, bigTargets, BatchCount);
                        Array.Copy(poles, bigPoles, BatchCount);
                        Array.Copy(rotations, bigRotations, BatchCount);
                        IkResult[] bigResults = Sentinels(BatchCount + 2);
                        ik.SolveBatch(big, BatchCount, bigTargets, bigRotations, bigPoles, bigResults);
                        Check(SameBits(F(Slice(big, 0, 3 * BatchCount)), F(batch)) && SameBits(F(Slice(big, 3 * BatchCount, 6)), F(new Transform[6])), what + ": the first chainCount chains of reusable arrays");
                        Check(SameBits(F(bigResults[BatchCount]), F(new IkResult(true, 42.5f, 77))) && SameBits(F(bigResults[BatchCount + 1]), F(new IkResult(true, 42.5f, 77))), what + ": results past chainCount untouched");
                        IkResult[] firstResults = new IkResult[BatchCount];
                        Array.Copy(bigResults, firstResults, BatchCount);
                        Check(SameBits(F(firstResults), F(results)), what + ": reusable-array results");
                        Transform[] viaPointer = (Transform[])arms.Clone();
                        IkResult[] pointerResults = new IkResult[BatchCount];
                        fixed (Transform* c = viaPointer)
                        fixed (Vec3* t = targets)
                        fixed (Quat* r = rotations)
                        fixed (Vec3* p = poles)
                        fixed (IkResult* o = pointerResults)
                        {
                            ik.SolveBatch(c, BatchCount, t, r, p, o);
                        }
                        Check(SameBits(F(viaPointer), F(batch)) && SameBits(F(pointerResults), F(results)), what + ": the pointer overload");
                    }
                }
            }
        }
    }

    /// <summary>Chains (three transforms each) in SoA blocks; lanes past the last hold <paramref name="blank"/>.</summary>
    static SoaTransform[] SoaChains(Transform[] chains, Transform blank)
    {
        int count = chains.Length / 3, groups = (count + 3) / 4;
        SoaTransform[] blocks = new SoaTransform[3 * groups];
        for (int i = 0; i < 4 * groups; i++)
        {
            for (int k = 0; k < 3; k++) blocks[3 * (i / 4) + k][i % 4] = i < count ? chains[3 * i + k] : blank;
        }
        return blocks;
    }

    static SoaVec3[] SoaItems(Vec3[] items)
    {
        SoaVec3[] blocks = new SoaVec3[(items.Length + 3) / 4];
        for (int i = 0; i < items.Length; i++) blocks[i / 4][i % 4] = items[i];
        return blocks;
    }

    static float[] F(SoaTransform[] blocks)
    {
        float[] v = new float[blocks.Length * 40];
        fixed (SoaTransform* b = blocks) Marshal.Copy((IntPtr)b, v, 0, v.Length);
        return v;
    }

    static void TestTwoBoneBatchSoa()
    {
        Check(sizeof(SoaVec3) == 48 && sizeof(SoaQuat) == 64 && sizeof(SoaTransform) == 160, "SoaVec3/SoaQuat/SoaTransform sizes 48/64/160");
        foreach (Type t in new[] { typeof(SoaVec3), typeof(SoaQuat), typeof(SoaTransform) }) Layout(t, NativeOf(t));
        Vec3[] targets, poles;
        Quat[] rotations;
        Transform[] arms = BatchArms(out targets, out poles, out rotations);
        SoaQuat[] soaRotations = new SoaQuat[(BatchCount + 3) / 4];
        for (int i = 0; i < BatchCount; i++) soaRotations[i / 4][i % 4] = rotations[i];
        SoaVec3[] soaTargets = SoaItems(targets), soaPoles = SoaItems(poles);
        Transform blank = new Transform(new Vec3(9f, 9f, 9f), new Quat(0.5f, 0.5f, 0.5f, 0.5f), new Vec3(2f, 2f, 2f));
        TwoBoneIkSettings copy = TwoBoneIkSettings.Default;
        copy.EndRotation = EndRotation.CopyEffector;
        foreach (TwoBoneIkSettings settings in new[] { TwoBoneIkSettings.Default, copy })
        {
            using (TwoBoneIk ik = new TwoBoneIk(settings))
            {
                Transform[] batch = (Transform[])arms.Clone();
                IkResult[] results = Sentinels(BatchCount);
                ik.SolveBatch(batch, targets, rotations, poles, results);
                SoaTransform[] soa = SoaChains(arms, blank);
                IkResult[] soaResults = Sentinels(BatchCount);
                ik.SolveBatchSoa(soa, BatchCount, soaTargets, soaRotations, soaPoles, soaResults);
                string what = "SoA two-bone batch (" + settings.EndRotation + ")";
                Check(SameBits(F(soa), F(SoaChains(batch, blank))), what + ": blocks equal the array batch bit for bit, unused lanes untouched");
                Check(SameBits(F(soaResults), F(results)), what + ": results equal the array batch's");

                SoaTransform[] raw = SoaChains(arms, blank);
                SinewIkResult[] rawResults = new SinewIkResult[BatchCount];
                fixed (SoaTransform* c = raw)
                fixed (SoaVec3* t = soaTargets)
                fixed (SoaQuat* r = soaRotations)
                fixed (SoaVec3* p = soaPoles)
                fixed (SinewIkResult* o = rawResults)
                {
                    Ok(NativeMethods.sinew_two_bone_ik_solve_batch_soa(ik.NativePointer, (SinewSoaTransform*)c, BatchCount, (SinewSoaVec3*)t, (SinewSoaQuat*)r, (SinewSoaVec3*)p, o), "two_bone_ik_solve_batch_soa");
                }
                Check(SameBits(F(raw), F(soa)) && SameBits(F(rawResults), F(soaResults)), what + ": idiomatic equals raw NativeMethods bit for bit");

                SoaTransform[] fresh = SoaChains(arms, blank);
                float[] freshBits = F(fresh);
                Throws<ArgumentException>("SoA chains too short", () => ik.SolveBatchSoa(fresh, BatchCount + 4, soaTargets), null);
                Throws<ArgumentException>("SoA poles too short", () => ik.SolveBatchSoa(fresh, BatchCount, soaTargets, null, new SoaVec3[1]), null);
                SoaVec3[] nan = SoaItems(targets);
                Vec3 bad = targets[5];
                bad.y = float.NaN;
                nan[1][1] = bad;
                ThrowsSinew("a NaN target in a SoA batch", Status.NonFinite, () => ik.SolveBatchSoa(fresh, BatchCount, nan, soaRotations, soaPoles, results), "chain 5");
                Check(SameBits(F(fresh), freshBits), what + ": errors write nothing");
            }
        }
    }

    static void TestChainBatchParity()
    {
        Vec3[] targets;
        Quat[] rotations, parents;
        Transform[] limbs = BatchLimbs(out targets, out rotations, out parents);
        JointConstraint cone = JointConstraint.Cone(ID, new Vec3(1f, 0f, 0f), 0.4f, 0.3f);
        FabrikSettings fs = FabrikSettings.Default;
        fs.Precision = 1e-4f;
        fs.MaxIterations = 25;
        fs.StopWhenStalled = false;
        fs.EndRotation = EndRotation.CopyEffector;
        CcdSettings cs = CcdSettings.Default;
        cs.MaxIterations = 30;
        cs.StartFromTail = false;
        cs.EndRotation = EndRotation.KeepModel;
        using (Fabrik fabrik = new Fabrik(8, fs))
        using (Fabrik fabrikSingles = new Fabrik(8, fs))
        using (Ccd ccd = new Ccd(8, cs))
        using (Ccd ccdSingles = new Ccd(8, cs))
        {
            fabrik.SetConstraint(1, cone);
            fabrikSingles.SetConstraint(1, cone);
            ccd.SetConstraint(1, cone);
            ccdSingles.SetConstraint(1, cone);
            ccd.SetJoint(2, 30f, 0.8f);
            ccdSingles.SetJoint(2, 30f, 0.8f);
            for (int solver = 0; solver < 2; solver++)
            {
                for (int with = 0; with < 2; with++)
                {
                    bool all = with == 1;
                    string what = (solver == 0 ? "FABRIK" : "CCD") + " batch" + (all ? " (every array)" : " (positions only)");
                    Transform[] batch = (Transform[])limbs.Clone();
                    IkResult[] results = Sentinels(BatchCount);
                    if (solver == 0)
                    {
                        if (all) fabrik.SolveBatch(batch, 5, targets, rotations, parents, results);
                        else fabrik.SolveBatch(batch, 5, targets);
                    }
                    else
                    {
                        if (all) ccd.SolveBatch(batch, 5, targets, rotations, parents, results);
                        else ccd.SolveBatch(batch, 5, targets);
                    }

                    SinewTransform[] raw = ToRaw(limbs);
                    SinewIkResult[] rawResults = new SinewIkResult[BatchCount];
                    SinewVec3[] rawTargets = V(targets);
                    SinewQuat[] rawRotations = Q(rotations), rawParents = Q(parents);
                    fixed (SinewTransform* c = raw)
                    fixed (SinewVec3* t = rawTargets)
                    fixed (SinewQuat* r = rawRotations)
                    fixed (SinewQuat* p = rawParents)
                    fixed (SinewIkResult* o = rawResults)
                    {
                        SinewStatus status = solver == 0
                            ? NativeMethods.sinew_fabrik_solve_batch(fabrik.NativePointer, c, 5, BatchCount, all ? p : null, t, all ? r : null, all ? o : null)
                            : NativeMethods.sinew_ccd_solve_batch(ccd.NativePointer, c, 5, BatchCount, all ? p : null, t, all ? r : null, all ? o : null);
                        Ok(status, what);
                    }
                    Check(SameBits(F(batch), RawChain(raw)), what + ": idiomatic equals raw NativeMethods bit for bit");
                    if (all) Check(SameBits(F(results), F(rawResults)), what + ": results equal the raw call's");

                    for (int i = 0; i < BatchCount; i++)
                    {
                        Transform[] single = Slice(limbs, 5 * i, 5);
                        Quat? r = all ? rotations[i] : (Quat?)null, p = all ? parents[i] : (Quat?)null;
                        IkResult expected = solver == 0 ? fabrikSingles.Solve(single, targets[i], r, p) : ccdSingles.Solve(single, targets[i], r, p);
                        Check(SameBits(F(Slice(batch, 5 * i, 5)), F(single)), what + ": chain " + i + " equals Solve bit for bit");
                        Check(!SameBits(F(single), F(Slice(limbs, 5 * i, 5))), what + ": chain " + i + " moved");
                        Check(SameBits(F(results[i]), all ? F(expected) : F(new IkResult(true, 42.5f, 77))), what + ": result " + i);
                    }
                }
            }
        }
    }

    static void TestBatchErrors()
    {
        Vec3[] targets, poles;
        Quat[] rotations;
        Transform[] arms = BatchArms(out targets, out poles, out rotations);
        float[] armBits = F(arms), sentinelBits = F(Sentinels(BatchCount));
        using (TwoBoneIk ik = new TwoBoneIk())
        {
            Transform[] chains = (Transform[])arms.Clone();
            IkResult[] results = Sentinels(BatchCount);
            Func<bool> untouched = () => SameBits(F(chains), armBits) && SameBits(F(results), sentinelBits);

            Vec3[] nan = (Vec3[])targets.Clone();
            nan[5].y = float.NaN;
            ThrowsSinew("a NaN target in a batch", Status.NonFinite, () => ik.SolveBatch(chains, nan, rotations, poles, results), "chain 5");
            Check(untouched(), "a NaN target leaves every array untouched");
            Quat[] zero = (Quat[])rotations.Clone();
            zero[8] = new Quat(0f, 0f, 0f, 0f);
            ThrowsSinew("a zero effector rotation in a batch", Status.InvalidArgument, () => ik.SolveBatch(chains, targets, zero, poles, results), "chain 8");
            Check(untouched(), "a zero rotation leaves every array untouched");
            Transform[] bad = (Transform[])arms.Clone();
            bad[3 * 7 + 1].Rotation = new Quat(float.PositiveInfinity, 0f, 0f, 1f);
            float[] badBits = F(bad);
            ThrowsSinew("an infinite joint rotation in a batch", Status.NonFinite, () => ik.SolveBatch(bad, targets, null, null, results), "chain 7");
            Check(SameBits(F(bad), badBits) && SameBits(F(results), sentinelBits), "a bad chain leaves every array untouched");

            // Argument checks, before the native call: nothing written either.
            Throws<ArgumentNullException>("null chains", () => ik.SolveBatch(null, targets), null);
            Throws<ArgumentNullException>("null targets", () => ik.SolveBatch(chains, null), null);
            Throws<ArgumentException>("chains for another count", () => ik.SolveBatch(new Transform[26], targets), null);
            Throws<ArgumentException>("rotations for another count", () => ik.SolveBatch(chains, targets, new Quat[8]), null);
            Throws<ArgumentException>("poles for another count", () => ik.SolveBatch(chains, targets, null, new Vec3[1]), null);
            Throws<ArgumentException>("results for another count", () => ik.SolveBatch(chains, targets, null, null, new IkResult[10]), null);
            Throws<ArgumentOutOfRangeException>("a count beyond the targets", () => ik.SolveBatch(chains, BatchCount + 1, targets), null);
            Throws<ArgumentOutOfRangeException>("a count beyond the chains", () => ik.SolveBatch(new Transform[3 * BatchCount - 1], BatchCount, targets), null);
            Throws<ArgumentOutOfRangeException>("a negative count", () => ik.SolveBatch(chains, -1, targets), null);
            Throws<ArgumentException>("optional arrays shorter than the count", () => ik.SolveBatch(chains, BatchCount, targets, null, null, new IkResult[BatchCount - 1]), null);
            Throws<ArgumentOutOfRangeException>("a negative count through pointers", () => { fixed (Transform* c = chains) fixed (Vec3* t = targets) ik.SolveBatch(c, -1, t); }, null);
            Check(untouched(), "argument errors leave every array untouched");

            // A chain whose solution overflows f32 is left alone with its result; the others are solved.
            const float Huge = 3e38f;
            Transform[] overflow = (Transform[])arms.Clone();
            for (int j = 0; j < 3; j++) overflow[6 + j] = new Transform(new Vec3(Huge * (j - 1), 0f, 0f), ID, Vec3.One);
            Vec3[] origin = (Vec3[])targets.Clone();
            origin[2] = Vec3.Zero;
            chains = (Transform[])overflow.Clone();
            ThrowsSinew("an overflowing chain", Status.NumericOverflow, () => ik.SolveBatch(chains, origin, rotations, poles, results), "chain 2 ");
            Check(SameBits(F(Slice(chains, 6, 3)), F(Slice(overflow, 6, 3))) && SameBits(F(results[2]), F(new IkResult(true, 42.5f, 77))), "the overflowing chain and its result are untouched");
            for (int i = 0; i < BatchCount; i++)
            {
                if (i == 2) continue;
                Transform[] single = Slice(overflow, 3 * i, 3);
                IkResult expected = ik.Solve(single, origin[i], rotations[i], poles[i]);
                Check(SameBits(F(Slice(chains, 3 * i, 3)), F(single)) && SameBits(F(results[i]), F(expected)), "chain " + i + " is solved around the overflow, as Solve solves it");
            }

            // Empty batches are fine.
            ik.SolveBatch(new Transform[0], new Vec3[0]);
            ik.SolveBatch(new Transform[0], new Vec3[0], new Quat[0], new Vec3[0], new IkResult[0]);
            ik.SolveBatch(chains, 0, targets);
            ik.SolveBatch((Transform*)null, 0, (Vec3*)null);
            Check(Library.LastErrorMessage() == "", "an empty batch succeeds");
        }

        Vec3[] limbTargets;
        Quat[] limbRotations, parents;
        Transform[] limbs = BatchLimbs(out limbTargets, out limbRotations, out parents);
        float[] limbBits = F(limbs);
        using (Fabrik fabrik = new Fabrik(8))
        using (Ccd ccd = new Ccd(8))
        {
            Transform[] chains = (Transform[])limbs.Clone();
            IkResult[] results = Sentinels(BatchCount);
            Func<bool> untouched = () => SameBits(F(chains), limbBits) && SameBits(F(results), sentinelBits);
            Quat[] zero = (Quat[])parents.Clone();
            zero[6] = new Quat(0f, 0f, 0f, 0f);
            ThrowsSinew("a zero root parent rotation in a FABRIK batch", Status.InvalidArgument, () => fabrik.SolveBatch(chains, 5, limbTargets, limbRotations, zero, results), "chain 6");
            Check(untouched(), "a zero parent rotation leaves every array untouched");
            Vec3[] inf = (Vec3[])limbTargets.Clone();
            inf[8].z = float.PositiveInfinity;
            ThrowsSinew("an infinite target in a CCD batch", Status.NonFinite, () => ccd.SolveBatch(chains, 5, inf, null, null, results), "chain 8");
            Check(untouched(), "an infinite target leaves every array untouched");
            ThrowsSinew("chains longer than the solver", Status.OutOfRange, () => fabrik.SolveBatch(new Transform[9 * BatchCount], 9, limbTargets));
            ThrowsSinew("chains of one joint", Status.InvalidArgument, () => ccd.SolveBatch(new Transform[BatchCount], 1, limbTargets));
            Throws<ArgumentException>("chains for another joint count", () => fabrik.SolveBatch(chains, 4, limbTargets), null);
            Throws<ArgumentException>("parents for another count", () => ccd.SolveBatch(chains, 5, limbTargets, null, new Quat[2]), null);
            Throws<ArgumentOutOfRangeException>("a negative joint count", () => fabrik.SolveBatch(chains, -5, limbTargets), null);
            Throws<ArgumentOutOfRangeException>("a chain count beyond the chains", () => ccd.SolveBatch(chains, 6, BatchCount, limbTargets), null);
            Throws<ArgumentOutOfRangeException>("a negative joint count through pointers", () => { fixed (Transform* c = chains) fixed (Vec3* t = limbTargets) ccd.SolveBatch(c, -1, 1, t); }, null);
            Check(untouched(), "argument errors leave every array untouched");
            fabrik.SolveBatch(new Transform[0], 5, new Vec3[0]);
            ccd.SolveBatch(chains, 5, 0, limbTargets, null, null, results);
            Check(untouched(), "an empty batch writes nothing");
        }

        TwoBoneIk disposed = new TwoBoneIk();
        disposed.Dispose();
        Throws<ObjectDisposedException>("a batch on a disposed solver", () => disposed.SolveBatch(arms, targets), null);
        Fabrik disposedFabrik = new Fabrik(8);
        disposedFabrik.Dispose();
        Throws<ObjectDisposedException>("a batch on a disposed FABRIK solver", () => disposedFabrik.SolveBatch(limbs, 5, limbTargets), null);
        Check(SameBits(F(arms), armBits) && SameBits(F(limbs), limbBits), "disposed solvers write nothing");
    }

    // ------------------------------------------------------------------ individual tests

    static void TestVersion()
    {
        float[] v = Golden("VERSION");
        Version version = Library.Version;
        Check(version.Major == (int)v[0] && version.Minor == (int)v[1] && version.Build == (int)v[2],
            "Library.Version " + version + " differs from the crate's " + v[0] + "." + v[1] + "." + v[2]);
        Check(Library.NativeAbiVersion == (uint)Golden("ABI")[0], "native ABI version " + Library.NativeAbiVersion);
        Check(Library.BindingsAbiVersion == (uint)Golden("ABI")[0], "bindings ABI version " + Library.BindingsAbiVersion);
        Library.EnsureCompatible();
    }

    static void Layout(Type mine, Type native)
    {
        Check(Marshal.SizeOf(mine) == Marshal.SizeOf(native),
            mine.Name + " is " + Marshal.SizeOf(mine) + " bytes, " + native.Name + " " + Marshal.SizeOf(native));
        FieldInfo[] a = SortedFields(mine);
        FieldInfo[] b = SortedFields(native);
        Check(a.Length == b.Length, mine.Name + " has " + a.Length + " fields, " + native.Name + " " + b.Length);
        for (int i = 0; i < Math.Min(a.Length, b.Length); i++)
        {
            long oa = (long)Marshal.OffsetOf(mine, a[i].Name), ob = (long)Marshal.OffsetOf(native, b[i].Name);
            int sa = FieldSize(a[i].FieldType), sb = FieldSize(b[i].FieldType);
            Check(oa == ob && sa == sb, mine.Name + "." + a[i].Name + " (offset " + oa + ", " + sa + " bytes) vs " + native.Name + "." + b[i].Name + " (offset " + ob + ", " + sb + " bytes)");
            Check(IsFloat(a[i].FieldType) == IsFloat(b[i].FieldType), mine.Name + "." + a[i].Name + " and " + native.Name + "." + b[i].Name + " differ in float-ness");
        }
    }

    static FieldInfo[] SortedFields(Type t)
    {
        FieldInfo[] fields = t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Array.Sort(fields, (x, y) => ((long)Marshal.OffsetOf(t, x.Name)).CompareTo((long)Marshal.OffsetOf(t, y.Name)));
        return fields;
    }

    static int FieldSize(Type t) { return Marshal.SizeOf(t.IsEnum ? Enum.GetUnderlyingType(t) : t); }

    static bool IsFloat(Type t) { return t == typeof(float); }

    static void TestLayouts()
    {
        Check(sizeof(Vec3) == 12 && sizeof(Quat) == 16 && sizeof(Transform) == 40, "Vec3/Quat/Transform sizes 12/16/40");
        foreach (Type t in new[] { typeof(Vec3), typeof(Quat), typeof(Transform) }) Layout(t, NativeOf(t));
        Type[] generated =
        {
            typeof(IkResult), typeof(TwoBoneIkSettings), typeof(FabrikSettings), typeof(CcdSettings),
            typeof(HandIkRetargetingSettings), typeof(HandJoints), typeof(JointConstraint),
            typeof(MultiFabrikSettings), typeof(EffectorTarget),
        };
        foreach (Type t in generated) Wraps(t, NativeOf(t));
    }

    /// <summary>The C type behind an idiomatic one: <c>Sinew.Native.Sinew</c> and its name.</summary>
    static Type NativeOf(Type mine)
    {
        Type native = typeof(SinewStatus).Assembly.GetType("Sinew.Native.Sinew" + mine.Name);
        if (native == null) throw new ArgumentException("no Sinew.Native.Sinew" + mine.Name + " for " + mine.FullName);
        return native;
    }

    /// <summary>
    /// A generated value type holds its C struct as its only field (so it has the C layout) and
    /// has one property per C field, named in PascalCase, that reads that field: each field in
    /// turn gets a value no other field has, and only its property must show it.
    /// </summary>
    static void Wraps(Type mine, Type native)
    {
        FieldInfo[] fields = mine.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Check(fields.Length == 1 && fields[0].FieldType == native && (long)Marshal.OffsetOf(mine, fields[0].Name) == 0,
            mine.Name + " holds a " + native.Name + " as its only field");
        Check(Marshal.SizeOf(mine) == Marshal.SizeOf(native), mine.Name + " is " + Marshal.SizeOf(mine) + " bytes, " + native.Name + " " + Marshal.SizeOf(native));
        if (fields.Length != 1) return;
        foreach (FieldInfo f in native.GetFields(BindingFlags.Instance | BindingFlags.Public))
        {
            string name = string.Concat(Array.ConvertAll(f.Name.Split('_'), w => char.ToUpperInvariant(w[0]) + w.Substring(1)));
            PropertyInfo property = mine.GetProperty(name);
            Check(property != null, mine.Name + " has no property " + name + " for " + native.Name + "." + f.Name);
            if (property == null) continue;
            object raw = Activator.CreateInstance(native);
            f.SetValue(raw, Marked(f.FieldType));
            object value = Activator.CreateInstance(mine);
            fields[0].SetValue(value, raw);
            Check(ShowsMark(property.GetValue(value, null)), mine.Name + "." + name + " does not read " + native.Name + "." + f.Name);
        }
    }

    /// <summary>A value of a C field's type that a zeroed struct does not hold (1 for a flag).</summary>
    static object Marked(Type t)
    {
        if (t == typeof(float)) return 2.5f;
        if (t == typeof(uint)) return 1u;
        if (t == typeof(int)) return 2;
        if (t == typeof(SinewVec3)) return new SinewVec3 { x = 2.5f };
        if (t == typeof(SinewQuat)) return new SinewQuat { x = 2.5f };
        throw new ArgumentException("no marked value for " + t.Name);
    }

    /// <summary>Whether a property's value is the mark of <see cref="Marked"/>, read through its idiomatic type.</summary>
    static bool ShowsMark(object v)
    {
        if (v is float) return (float)v == 2.5f;
        if (v is bool) return (bool)v;
        if (v is Vec3) return ((Vec3)v).x == 2.5f;
        if (v is Quat) return ((Quat)v).x == 2.5f;
        long n = Convert.ToInt64(v);
        return n == 1 || n == 2;
    }

    static void SameEnum(Type mine, Type native)
    {
        string[] a = Enum.GetNames(mine), b = Enum.GetNames(native);
        Check(string.Join(",", a) == string.Join(",", b), mine.Name + " names " + string.Join(",", a) + " vs " + native.Name + " " + string.Join(",", b));
        foreach (string name in a)
        {
            if (Array.IndexOf(b, name) < 0) continue;
            int va = Convert.ToInt32(Enum.Parse(mine, name)), vb = Convert.ToInt32(Enum.Parse(native, name));
            Check(va == vb, mine.Name + "." + name + " = " + va + " but " + native.Name + "." + name + " = " + vb);
        }
    }

    static void TestEnums()
    {
        Type[] enums =
        {
            typeof(Status), typeof(EndRotation), typeof(ConstraintType), typeof(BlendSpace),
            typeof(Interpolation), typeof(TrackProperty), typeof(FadeCurve),
        };
        foreach (Type t in enums) SameEnum(t, NativeOf(t));
    }

    static void TestDefaults()
    {
        TwoBoneIkSettings t = TwoBoneIkSettings.Default;
        Expect("DEFAULT_TWOBONE", t.Weight, t.AllowStretching ? 1f : 0f, t.StartStretchRatio, t.MaxStretchScale, (float)t.EndRotation, t.Soften, t.KeepTwist ? 1f : 0f, t.PoleWeight);
        FabrikSettings f = FabrikSettings.Default;
        Expect("DEFAULT_FABRIK", f.Precision, f.RelativePrecision ? 1f : 0f, f.MaxIterations, f.StopWhenStalled ? 1f : 0f, (float)f.EndRotation);
        CcdSettings c = CcdSettings.Default;
        Expect("DEFAULT_CCD", c.Precision, c.RelativePrecision ? 1f : 0f, c.MaxIterations, c.StartFromTail ? 1f : 0f, c.FixRoot ? 1f : 0f, c.StopWhenStalled ? 1f : 0f, (float)c.EndRotation);
        HandIkRetargetingSettings h = HandIkRetargetingSettings.Default;
        Expect("DEFAULT_HAND", h.HandFkWeight, h.PerAxisAlpha.x, h.PerAxisAlpha.y, h.PerAxisAlpha.z);
        using (TwoBoneIk ik = new TwoBoneIk())
        {
            TwoBoneIkSettings s = ik.Settings;
            Check(s.Weight == t.Weight && s.EndRotation == t.EndRotation && s.PoleWeight == t.PoleWeight, "a default solver reports the default settings");
            s.AllowStretching = true;
            s.MaxStretchScale = 1.5f;
            s.EndRotation = EndRotation.KeepLocal;
            ik.Settings = s;
            TwoBoneIkSettings back = ik.Settings;
            Check(back.AllowStretching && back.MaxStretchScale == 1.5f && back.EndRotation == EndRotation.KeepLocal, "settings round-trip through the solver");
        }
        using (Ccd ccd = new Ccd(4))
        {
            CcdSettings s = ccd.Settings;
            s.FixRoot = true;
            s.MaxIterations = 3;
            ccd.Settings = s;
            Check(ccd.Settings.FixRoot && ccd.Settings.MaxIterations == 3 && ccd.Settings.StartFromTail, "CCD settings round-trip");
        }
        TwoBoneIkSettings pole = TwoBoneIkSettings.Default;
        pole.PoleWeight = 0.5f;
        JointConstraint turned = JointConstraint.Default;
        turned.Axis = new Vec3(0f, 1f, 0f);
        Check(t.Equals(TwoBoneIkSettings.Default) && t.GetHashCode() == TwoBoneIkSettings.Default.GetHashCode() && !t.Equals(pole)
            && !JointConstraint.Default.Equals(turned) && !h.Equals((object)t),
            "value types compare field by field (how the Unity components skip unchanged settings)");
        JointConstraint jc = JointConstraint.Default;
        Check(jc.Type == ConstraintType.Cone && !jc.LimitTwist && jc.Axis.Equals(new Vec3(1f, 0f, 0f)) && jc.Reference.Equals(Quat.Identity),
            "JointConstraint.Default is the native default cone about +X");
    }

    static void Expect(string name, params float[] actual)
    {
        float[] expected = Golden(name);
        Check(SameBits(actual, expected), name + ": C# " + string.Join(" ", Array.ConvertAll(actual, R)) + " vs Rust " + string.Join(" ", Array.ConvertAll(expected, R)));
    }

    static void TestPoseSolvesParity()
    {
        int[] joints = { 0, 1, 2, 3 };
        Vec3 goal = new Vec3(0.4f, 1.9f, 0.2f);
        Quat tilt = Quat.AxisAngle(new Vec3(0f, 0f, 1f), 0.3f);
        using (Skeleton skeleton = MakeSkeleton())
        using (Pose pose = new Pose(skeleton))
        using (Fabrik fabrik = new Fabrik(6))
        using (Ccd ccd = new Ccd(6))
        using (HandIkRetargeting hand = new HandIkRetargeting())
        {
            JointConstraint cone = JointConstraint.Cone(Z45, new Vec3(1f, 0f, 0f), 0.4f, 0.3f);
            fabrik.SetConstraint(1, cone);
            ccd.SetConstraint(1, cone);
            ccd.SetJoint(2, 30f, 0.8f);
            IkResult fr = fabrik.SolvePose(pose, joints, goal, tilt);
            float[] fabrikLocal = F(pose.GetLocal());
            pose.Reset();
            IkResult cr = ccd.SolvePose(pose, joints, goal);
            float[] ccdLocal = F(pose.GetLocal());
            pose.Reset();
            Vec3 offset = hand.ApplyPose(pose, Hands, HandBones);
            float[] handLocal = F(pose.GetLocal());
            pose.Reset();
            pose.ApplyConstraints(new[] { 1 }, new[] { JointConstraint.Hinge(ID, new Vec3(0f, 0f, 1f), -0.2f, 0.2f) });
            float[] constrained = F(pose.GetLocal());
            Transform moved = new Transform(new Vec3(0.1f, 1.2f, 0.05f), Y22, Vec3.One);
            pose.SetModelTransform(2, moved);
            Transform readBack = pose.GetModelTransform(2);
            float[] afterMove = F(pose.GetModel());
            Check(SameBits(afterMove, F(pose.ComputeModel())), "ComputeModel reads what GetModel gives");

            SinewSkeleton* s = RawSkeleton();
            SinewPose* p = RawPose(s);
            SinewFabrikSettings fs;
            NativeMethods.sinew_fabrik_settings_default(&fs);
            SinewFabrik* rf = null;
            Ok(NativeMethods.sinew_fabrik_create(&fs, 6, &rf), "fabrik_create");
            SinewCcdSettings cs;
            NativeMethods.sinew_ccd_settings_default(&cs);
            SinewCcd* rc = null;
            Ok(NativeMethods.sinew_ccd_create(&cs, 6, &rc), "ccd_create");
            SinewJointConstraint rcone;
            NativeMethods.sinew_joint_constraint_default(&rcone);
            rcone.type = (int)SinewConstraintType.Cone;
            rcone.reference = Z45;
            rcone.axis = new Vec3(1f, 0f, 0f);
            rcone.swing_half_angle_1 = 0.4f;
            rcone.swing_half_angle_2 = 0.3f;
            Ok(NativeMethods.sinew_fabrik_set_constraint(rf, 1, &rcone), "set_constraint");
            Ok(NativeMethods.sinew_ccd_set_constraint(rc, 1, &rcone), "set_constraint");
            Ok(NativeMethods.sinew_ccd_set_joint(rc, 2, 30f, 0.8f), "set_joint");
            SinewVec3 g = goal;
            SinewQuat q = tilt;
            SinewIkResult result;
            fixed (int* j = joints)
            {
                Ok(NativeMethods.sinew_fabrik_solve_pose(rf, p, (uint*)j, 4, &g, &q, &result), "fabrik_solve_pose");
                Check(SameBits(F(fr), F(result)), "FABRIK pose result");
                Check(SameBits(fabrikLocal, RawLocal(p)), "FABRIK pose");
                Ok(NativeMethods.sinew_pose_reset(p), "reset");
                Ok(NativeMethods.sinew_ccd_solve_pose(rc, p, (uint*)j, 4, &g, null, &result), "ccd_solve_pose");
                Check(SameBits(F(cr), F(result)), "CCD pose result");
                Check(SameBits(ccdLocal, RawLocal(p)), "CCD pose");
            }
            Check(!SameBits(fabrikLocal, ccdLocal), "FABRIK and CCD differ (the scenario exercises something)");
            Ok(NativeMethods.sinew_pose_reset(p), "reset");
            SinewHandIkRetargetingSettings hs;
            NativeMethods.sinew_hand_ik_retargeting_settings_default(&hs);
            SinewHandIkRetargeting* rh = null;
            Ok(NativeMethods.sinew_hand_ik_retargeting_create(&hs, &rh), "hand_create");
            SinewHandJoints hj = new SinewHandJoints { right_fk = 3, left_fk = 5, right_ik = 2, left_ik = 4 };
            uint bone = 1;
            SinewVec3 rawOffset;
            Ok(NativeMethods.sinew_hand_ik_retargeting_apply_pose(rh, p, &hj, &bone, 1, &rawOffset), "apply_pose");
            Check(SameBits(F(offset), F((Vec3)rawOffset)) && SameBits(handLocal, RawLocal(p)), "hand IK on a pose");
            Ok(NativeMethods.sinew_pose_reset(p), "reset");
            uint cj = 1;
            SinewJointConstraint hinge;
            NativeMethods.sinew_joint_constraint_default(&hinge);
            hinge.type = (int)SinewConstraintType.Hinge;
            hinge.reference = ID;
            hinge.axis = new Vec3(0f, 0f, 1f);
            hinge.min_angle = -0.2f;
            hinge.max_angle = 0.2f;
            Ok(NativeMethods.sinew_pose_apply_constraints(p, &cj, &hinge, 1), "apply_constraints");
            Check(SameBits(constrained, RawLocal(p)), "apply constraints");
            SinewTransform rawMoved = moved;
            Ok(NativeMethods.sinew_pose_set_model_transform(p, 2, &rawMoved), "set_model_transform");
            SinewTransform rawRead;
            Ok(NativeMethods.sinew_pose_get_model_transform(p, 2, &rawRead), "get_model_transform");
            Check(readBack.Equals((Transform)rawRead), "model transform of one joint");
            SinewTransform[] rawModel = new SinewTransform[6];
            fixed (SinewTransform* m = rawModel) Ok(NativeMethods.sinew_pose_get_model(p, m, 6), "get_model");
            Check(SameBits(afterMove, RawChain(rawModel)), "model pose after moving a joint");
            fixed (SinewTransform* m = rawModel) Ok(NativeMethods.sinew_pose_compute_model(p, m, 6), "compute_model");
            Check(SameBits(afterMove, RawChain(rawModel)), "model pose read from a const pose");
            NativeMethods.sinew_hand_ik_retargeting_destroy(rh);
            NativeMethods.sinew_fabrik_destroy(rf);
            NativeMethods.sinew_ccd_destroy(rc);
            NativeMethods.sinew_pose_destroy(p);
            NativeMethods.sinew_skeleton_destroy(s);
        }
    }

    static void TestMultiFabrik()
    {
        int[] hands = { 3, 5 };
        EffectorTarget[] targets =
        {
            new EffectorTarget(new Vec3(0.5f, 1.6f, 0.2f)).WithRotation(Y22),
            new EffectorTarget(new Vec3(-0.45f, 1.7f, 0.15f), 0.5f),
        };
        using (Skeleton skeleton = MakeSkeleton())
        using (Pose pose = new Pose(skeleton))
        using (MultiFabrik ik = new MultiFabrik(6, 2))
        {
            Check(ik.Settings.Equals(MultiFabrikSettings.Default), "default settings");
            pose.SetLocal(PoseB(Rest()));
            Transform[] model = pose.GetModel();
            Transform[] rawModel = (Transform[])model.Clone();
            IkResult[] results = new IkResult[2];
            ik.SolvePose(pose, 1, hands, targets, results);
            Expect("MULTI_FABRIK", F(pose.GetLocal()));
            Expect("MULTI_FABRIK_RESULTS", F(results));
            ik.Solve(skeleton, model, 1, hands, targets, results);
            Expect("MULTI_FABRIK_MODEL", F(model));
            Expect("MULTI_FABRIK_MODEL_RESULTS", F(results));

            // The raw call on the same model, constraints set and cleared through both layers.
            JointConstraint cone = JointConstraint.Cone(ID, new Vec3(1f, 0f, 0f), 0.6f, 0.5f);
            ik.SetConstraint(2, cone);
            ik.ClearConstraint(2);
            SinewIkResult[] raw = new SinewIkResult[2];
            fixed (Transform* m = rawModel)
            fixed (int* h = hands)
            fixed (EffectorTarget* t = targets)
            fixed (SinewIkResult* r = raw)
            {
                Ok(NativeMethods.sinew_multi_fabrik_solve(ik.NativePointer, skeleton.NativePointer, (SinewTransform*)m, 6, 1, (uint*)h, 2, (SinewEffectorTarget*)t, r), "multi_fabrik_solve");
            }
            Check(SameBits(F(model), F(rawModel)) && SameBits(F(results), F(raw)), "the raw call gives the same model and results");

            // Errors leave the pose untouched.
            float[] before = F(pose.GetLocal());
            EffectorTarget[] negative = { targets[0], targets[1].WithWeight(-1f) };
            ThrowsSinew("a negative weight", Status.InvalidArgument, () => ik.SolvePose(pose, 1, hands, negative), "weight");
            ThrowsSinew("an effector above another", Status.InvalidArgument, () => ik.SolvePose(pose, 1, new[] { 2, 3 }, targets), "ancestor");
            ThrowsSinew("more effectors than max_effectors", Status.OutOfRange, () => ik.SolvePose(pose, 0, new[] { 3, 5, 4 }, new[] { targets[0], targets[1], targets[1] }));
            Throws<ArgumentException>("targets not one per effector", () => ik.SolvePose(pose, 1, hands, new[] { targets[0] }), null);
            Check(SameBits(before, F(pose.GetLocal())), "errors leave the pose untouched");
            ThrowsSinew("max_effectors above max_joints", Status.OutOfRange, () => new MultiFabrik(2, 3));
        }
    }

    static void TestSkeletonQueries()
    {
        string longName = new string('x', 300) + "_joint";
        string[] names = { "root", "épaule", "肘", longName, "a", "b" };
        using (Skeleton skeleton = new Skeleton(Parents, Rest(), names))
        {
            Check(skeleton.JointCount == 6, "JointCount");
            for (int i = 0; i < names.Length; i++)
            {
                Check(skeleton.FindJoint(names[i]) == i, "FindJoint(" + names[i].Substring(0, Math.Min(12, names[i].Length)) + ")");
            }
            int index;
            Check(!skeleton.TryFindJoint("nope", out index), "TryFindJoint of a missing name");
            Check(skeleton.TryFindJoint("肘", out index) && index == 2, "TryFindJoint of a UTF-8 name");
            Check(string.Join(",", skeleton.GetParents()) == string.Join(",", Parents), "GetParents");
            Transform[] rest = skeleton.GetRestPose();
            Transform[] expected = Rest();
            for (int i = 0; i < 6; i++) Check(Near(rest[i], expected[i], 1e-6f), "rest pose joint " + i);
            Check(Library.LastErrorMessage() == "", "the last error is empty after a successful call");
        }
        using (Skeleton unnamed = new Skeleton(Parents, Rest()))
        using (Pose pose = new Pose(unnamed))
        {
            ThrowsSinew("FindJoint without names", Status.NotFound, () => unnamed.FindJoint("root"));
            Transform[] local = pose.GetLocal();
            local[3].Translation = new Vec3(0.5f, 0f, 0f);
            pose.SetLocal(local);
            Check(pose.GetModelTransform(3).Translation.Length > 0f, "SetLocal then GetModelTransform");
            Transform[] model = pose.GetModel();
            pose.Reset();
            pose.SetModel(model);
            Transform[] again = pose.GetLocal();
            for (int i = 0; i < 6; i++) Check(Near(again[i], local[i], 1e-5f), "SetModel round-trips joint " + i);
            using (JointMask mask = new JointMask(unnamed, 0.5f))
            {
                float[] w = mask.GetWeights();
                Check(w.Length == 6 && w[0] == 0.5f && w[5] == 0.5f, "uniform mask weights");
                mask.SetWeight(2, 0.25f);
                mask.SetWeights(new[] { 0f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f });
                mask.GetWeights(w);
                Check(w[3] == 0.3f && w[5] == 0.5f, "mask SetWeights/GetWeights");
            }
            using (Clip clip = new Clip(unnamed, 1.5f))
            {
                Check(clip.Duration == 1.5f && clip.JointCount == 6, "clip duration and joint count");
                clip.SetRotationTrack(1, Interpolation.Linear, ClipOneRotationTimes, ClipOneRotations);
                clip.ClearTrack(1, TrackProperty.Rotation);
                clip.Sample(0.5f, false, pose);
                Transform[] sampled = pose.GetLocal();
                Transform[] rest = unnamed.GetRestPose();
                Check(SameBits(F(sampled), F(rest)), "a cleared track samples the rest pose");
            }
        }
    }

    static bool Near(Transform a, Transform b, float tolerance)
    {
        float[] x = F(new[] { a }), y = F(new[] { b });
        for (int i = 0; i < 10; i++)
        {
            if (Math.Abs(x[i] - y[i]) > tolerance) return false;
        }
        return true;
    }

    /// <summary>The test skeleton and poses of it, disposed together.</summary>
    sealed class Posed : IDisposable
    {
        public readonly Skeleton Skeleton = MakeSkeleton();
        readonly List<Pose> poses = new List<Pose>();

        /// <summary>A new pose of the skeleton (at its rest pose).</summary>
        public Pose NewPose()
        {
            Pose pose = new Pose(Skeleton);
            poses.Add(pose);
            return pose;
        }

        public void Dispose()
        {
            foreach (Pose pose in poses) pose.Dispose();
            Skeleton.Dispose();
        }
    }

    static void TestManyLayers()
    {
        using (Posed posed = new Posed())
        {
            Skeleton skeleton = posed.Skeleton;
            Pose a = posed.NewPose(), b = posed.NewPose(), two = posed.NewPose(), many = posed.NewPose();
            b.SetLocal(PoseB(skeleton.GetRestPose()));
            BlendLayer[] layers = new BlendLayer[100];
            for (int i = 0; i < layers.Length; i++) layers[i] = new BlendLayer(i % 2 == 0 ? a : b, 1f);
            Blending.BlendLayers(layers, 0.1f, many);
            Blending.BlendLayers(new[] { new BlendLayer(a, 1f), new BlendLayer(b, 1f) }, 0.1f, two);
            Transform[] x = many.GetLocal(), y = two.GetLocal();
            for (int i = 0; i < 6; i++) Check(Near(x[i], y[i], 1e-5f), "100 alternating layers blend like two, joint " + i);
            Blending.BlendLayers(layers, 2, 0.1f, many);
            Check(SameBits(F(many.GetLocal()), F(two.GetLocal())), "the first 2 of an array of layers");
            Blending.BlendLayers(new BlendLayer[0], 0.1f, many);
            Check(SameBits(F(many.GetLocal()), F(skeleton.GetRestPose())), "no layers give the rest pose");
            layers[5].Pose = null;
            Throws<ArgumentNullException>("a layer without a pose", () => Blending.BlendLayers(layers, 0.1f, many), null);
            layers[5].Pose = many;
            ThrowsSinew("the output among the layers", Status.InvalidArgument, () => Blending.BlendLayers(layers, 0.1f, many));
            // Every reference taken for the call was released: the poses can still be disposed.
            a.Dispose();
            Check(a.IsDisposed, "a pose used as a layer disposes");
        }
    }

    static void TestLayersWithAdditive()
    {
        using (Posed posed = new Posed())
        using (JointMask mask = JointMask.Subtree(posed.Skeleton, 1, 1))
        {
            Skeleton skeleton = posed.Skeleton;
            Pose a = posed.NewPose(), b = posed.NewPose(), delta = posed.NewPose(), one = posed.NewPose(), turns = posed.NewPose();
            b.SetLocal(PoseB(skeleton.GetRestPose()));
            Blending.MakeAdditive(b, a, delta);
            BlendLayer[] layers = { new BlendLayer(a, 0.25f), new BlendLayer(b, 0.5f, mask) };
            BlendLayer[] additive = { new BlendLayer(delta, 0.8f, mask), new BlendLayer(delta, -0.35f) };
            Blending.BlendLayersAdditive(layers, additive, 0.1f, one);
            Blending.BlendLayers(layers, 0.1f, turns);
            Blending.ApplyAdditive(turns, delta, 0.8f, turns, mask);
            Blending.ApplyAdditive(turns, delta, -0.35f, turns);
            Check(SameBits(F(one.GetLocal()), F(turns.GetLocal())), "two layers and two additive layers");
            Check(!SameBits(F(one.GetLocal()), F(a.GetLocal())), "the additive layers change the pose");
            Blending.BlendLayersAdditive(layers, 2, additive, 1, 0.1f, one);
            Blending.BlendLayers(layers, 0.1f, turns);
            Blending.ApplyAdditive(turns, delta, 0.8f, turns, mask);
            Check(SameBits(F(one.GetLocal()), F(turns.GetLocal())), "the first 1 of an array of additive layers");
            Blending.BlendLayersAdditive(layers, 2, additive, 0, 0.1f, one);
            Blending.BlendLayers(layers, 0.1f, turns);
            Check(SameBits(F(one.GetLocal()), F(turns.GetLocal())), "no additive layers: the blend alone");

            // More layers than the stack buffer holds: through the heap array.
            BlendLayer[] many = new BlendLayer[70];
            for (int i = 0; i < many.Length; i++) many[i] = new BlendLayer(delta, (i % 5 - 2) * 0.1f, i % 2 == 0 ? mask : null);
            Blending.BlendLayersAdditive(layers, many, 0.1f, one);
            Blending.BlendLayers(layers, 0.1f, turns);
            foreach (BlendLayer l in many) Blending.ApplyAdditive(turns, l.Pose, l.Weight, turns, l.Mask);
            Check(SameBits(F(one.GetLocal()), F(turns.GetLocal())), "70 additive layers");

            Transform[] before = one.GetLocal();
            ThrowsSinew("the output is an additive layer's delta", Status.InvalidArgument,
                () => Blending.BlendLayersAdditive(layers, additive, 0.1f, delta), "delta");
            additive[1].Weight = float.NaN;
            ThrowsSinew("a NaN additive weight", Status.NonFinite, () => Blending.BlendLayersAdditive(layers, additive, 0.1f, one));
            Check(SameBits(F(one.GetLocal()), F(before)), "errors leave the output untouched");
            additive[1] = new BlendLayer(null, 1f);
            Throws<ArgumentNullException>("an additive layer without a pose", () => Blending.BlendLayersAdditive(layers, additive, 0.1f, one), null);
            Throws<ArgumentNullException>("no additive array", () => Blending.BlendLayersAdditive(layers, null, 0.1f, one), null);
            Throws<ArgumentOutOfRangeException>("additiveCount beyond the array", () => Blending.BlendLayersAdditive(layers, 2, additive, 3, 0.1f, one), null);
            // Every reference taken for the calls was released: the poses can still be disposed.
            delta.Dispose();
            Check(delta.IsDisposed, "a pose used as an additive layer disposes");
        }
    }

    static void TestErrors()
    {
        TwoBoneIkSettings bad = TwoBoneIkSettings.Default;
        bad.Weight = 2f;
        SinewException e = null;
        try { new TwoBoneIk(bad).Dispose(); } catch (SinewException x) { e = x; }
        Check(e != null && e.Status == Status.InvalidArgument, "a weight of 2 is rejected with InvalidArgument");
        SinewTwoBoneIk* solver = null;
        Check(NativeMethods.sinew_two_bone_ik_create((SinewTwoBoneIkSettings*)&bad, &solver) == SinewStatus.InvalidArgument, "the raw call fails too");
        string rawMessage = Library.LastErrorMessage();
        Check(e != null && e.NativeMessage == rawMessage && rawMessage.Contains("weight"),
            "the exception carries the native message (" + (e == null ? "none" : e.NativeMessage) + " / " + rawMessage + ")");

        using (Skeleton skeleton = MakeSkeleton())
        using (Pose pose = new Pose(skeleton))
        using (TwoBoneIk ik = new TwoBoneIk())
        using (Clip clip = new Clip(skeleton, 1f))
        using (Crossfade fade = new Crossfade(skeleton, 1))
        {
            Transform[] chain = Arm();
            float[] before = F(chain);
            ThrowsSinew("a NaN effector", Status.NonFinite, () => ik.Solve(chain, new Vec3(float.NaN, 0f, 0f)));
            Check(SameBits(before, F(chain)), "the chain is untouched after an error");
            ThrowsSinew("an unknown joint name", Status.NotFound, () => skeleton.FindJoint("tail"), "tail");
            ThrowsSinew("a pose buffer of the wrong size", Status.SizeMismatch, () => pose.GetLocal(new Transform[3]));
            ThrowsSinew("a model buffer of the wrong size", Status.SizeMismatch, () => pose.ComputeModel(new Transform[3]));
            ThrowsSinew("a joint out of range", Status.OutOfRange, () => pose.GetModelTransform(6));
            ThrowsSinew("a negative joint index", Status.OutOfRange, () => ik.SolvePose(pose, -1, 2, 3, PoseTarget));
            ThrowsSinew("parents that are not a tree", Status.InvalidSkeleton, () => new Skeleton(new[] { -1, 5 }, new[] { Transform.Identity, Transform.Identity }));
            ThrowsSinew("duplicate joint names", Status.InvalidSkeleton, () => new Skeleton(new[] { -1, 0 }, new[] { Transform.Identity, Transform.Identity }, new[] { "a", "a" }));
            ThrowsSinew("unsorted key times", Status.InvalidArgument, () => clip.SetRotationTrack(1, Interpolation.Linear, new[] { 0.5f, 0.2f }, new[] { ID, Z45 }));
            ThrowsSinew("a cubic track without tangents", Status.NullPointer, () => clip.SetTranslationTrack(1, Interpolation.Cubic, new[] { 0f, 1f }, new[] { Vec3.Zero, Vec3.One }, new[] { Vec3.Zero, Vec3.Zero }, null));
            ThrowsSinew("an additive delta as the output", Status.InvalidArgument, () => Blending.ApplyAdditive(pose, pose, 1f, pose));
            ThrowsSinew("a crossfade of 0 fades", Status.OutOfRange, () => new Crossfade(skeleton, 0));
            ThrowsSinew("a FABRIK solver for 1 joint", Status.OutOfRange, () => new Fabrik(1));
            ThrowsSinew("a chain longer than the solver", Status.OutOfRange, () => { using (Fabrik f = new Fabrik(3)) f.Solve(StraightChain(5), ChainGoal); });
            ThrowsSinew("a hinge axis of zero", Status.InvalidArgument, () => pose.ApplyConstraints(new[] { 1 }, new[] { JointConstraint.Hinge(ID, Vec3.Zero, -1f, 1f) }));
            using (Clip other = new Clip(skeleton, 1f))
            {
                fade.Play(other);
                ThrowsSinew("editing a playing clip", Status.InvalidArgument, () => other.SetScaleTrack(1, Interpolation.Step, new[] { 0f }, new[] { Vec3.One }), "crossfade");
                ThrowsSinew("a full fade queue", Status.OutOfRange, () => { fade.FadeTo(clip, 1f, FadeCurve.Linear); fade.FadeTo(other, 1f, FadeCurve.Linear); });
            }
            using (Skeleton small = new Skeleton(new[] { -1 }, new[] { Transform.Identity }))
            using (Pose smallPose = new Pose(small))
            {
                ThrowsSinew("blending poses of different skeletons", Status.SizeMismatch, () => Blending.Blend(pose, smallPose, 0.5f, pose));
            }
            int[] otherParents = (int[])Parents.Clone();
            otherParents[otherParents.Length - 1] = 0;
            using (Skeleton other = new Skeleton(otherParents, Rest()))
            using (Pose otherPose = new Pose(other))
            {
                float[] kept = F(pose.GetLocal());
                ThrowsSinew("blending a pose of a skeleton with other parents", Status.InvalidArgument, () => Blending.Blend(pose, otherPose, 0.5f, pose), "other parents");
                ThrowsSinew("an additive delta of a skeleton with other parents", Status.InvalidArgument, () => Blending.ApplyAdditive(pose, otherPose, 1f, pose), "other parents");
                Check(SameBits(kept, F(pose.GetLocal())), "the output is untouched after a skeleton mismatch");
            }
            ik.Solve(Arm(), ArmTarget);
            Check(Library.LastErrorMessage() == "", "a successful call clears the message");
        }
        Check(Library.LastErrorMessage() == "", "no message after successful disposal");
    }

    static void TestArgumentChecks()
    {
        using (Skeleton skeleton = MakeSkeleton())
        using (Pose pose = new Pose(skeleton))
        using (TwoBoneIk ik = new TwoBoneIk())
        using (Clip clip = new Clip(skeleton, 1f))
        using (Fabrik fabrik = new Fabrik(8))
        {
            Throws<ArgumentException>("a two-bone chain of 2", () => ik.Solve(new Transform[2], ArmTarget), null);
            Throws<ArgumentException>("fewer values than key times", () => clip.SetRotationTrack(1, Interpolation.Linear, new[] { 0f, 1f }, new[] { ID }), null);
            Throws<ArgumentException>("tangents of the wrong length", () => clip.SetTranslationTrack(1, Interpolation.Cubic, new[] { 0f, 1f }, new[] { Vec3.Zero, Vec3.One }, new[] { Vec3.Zero }, new[] { Vec3.Zero, Vec3.One }), null);
            Throws<ArgumentException>("rest pose and parents of different lengths", () => new Skeleton(new[] { -1, 0 }, new[] { Transform.Identity }), null);
            Throws<ArgumentException>("names and parents of different lengths", () => new Skeleton(new[] { -1 }, new[] { Transform.Identity }, new[] { "a", "b" }), null);
            Throws<ArgumentException>("constraints and joints of different lengths", () => pose.ApplyConstraints(new[] { 1, 2 }, new[] { JointConstraint.Default }), null);
            Throws<ArgumentOutOfRangeException>("a count beyond the chain", () => fabrik.Solve(StraightChain(3), 4, ChainGoal), null);
            Throws<ArgumentNullException>("a null pose", () => ik.SolvePose(null, 1, 2, 3, PoseTarget), null);
            Throws<ArgumentNullException>("a null output", () => Blending.Blend(pose, pose, 0.5f, null), null);
            Throws<ArgumentNullException>("a null name", () => new Skeleton(new[] { -1 }, new[] { Transform.Identity }, new string[] { null }), null);
            Throws<ArgumentException>("frames short of frameCount x joints", () => Clip.FromFrames(skeleton, Frames(), 5, 10f), null);
            Throws<ArgumentException>("a joint mask of another length", () => Clip.FromFrames(skeleton, Frames(), 4, 10f, Interpolation.Linear, false, new bool[2]), null);
            Throws<ArgumentNullException>("null frames", () => Clip.FromFrames(skeleton, null, 4, 10f), null);
            ThrowsSinew("cubic frames", Status.InvalidArgument, () => Clip.FromFrames(skeleton, Frames(), 4, 10f, Interpolation.Cubic), "tangents");
            ThrowsSinew("a zero frame rate", Status.InvalidArgument, () => Clip.FromFrames(skeleton, Frames(), 4, 0f), "frame_rate");
            ThrowsSinew("a wrap flag set on a clip a crossfade plays", Status.InvalidArgument, () =>
            {
                using (Clip frames = Clip.FromFrames(skeleton, Frames(), 4, 10f))
                using (Crossfade fade = new Crossfade(skeleton, 1))
                {
                    fade.Play(frames, true);
                    frames.Wrap = true;
                }
            }, "crossfade");
        }
    }

    static void TestDisposed()
    {
        Skeleton skeleton = MakeSkeleton();
        Pose pose = new Pose(skeleton);
        TwoBoneIk ik = new TwoBoneIk();
        pose.Dispose();
        pose.Dispose();
        Check(pose.IsDisposed, "IsDisposed after Dispose");
        Throws<ObjectDisposedException>("GetLocal after Dispose", () => pose.GetLocal(), null);
        Throws<ObjectDisposedException>("NativePointer after Dispose", () => Console.WriteLine((long)pose.NativePointer), null);
        Throws<ObjectDisposedException>("solving a disposed pose", () => ik.SolvePose(pose, 1, 2, 3, PoseTarget), null);
        ik.Dispose();
        ik.Dispose();
        Throws<ObjectDisposedException>("a disposed solver", () => ik.Solve(Arm(), ArmTarget), null);
        skeleton.Dispose();
        Throws<ObjectDisposedException>("a pose from a disposed skeleton object", () => new Pose(skeleton), null);
        skeleton.Dispose();
    }

    static void TestSharedOwnership()
    {
        Skeleton skeleton = MakeSkeleton();
        Pose pose = new Pose(skeleton);
        Clip clip = ClipOne(skeleton);
        Crossfade fade = new Crossfade(skeleton);
        fade.Play(clip);
        skeleton.Dispose();
        clip.Dispose();
        // The native pose keeps its skeleton, the controller its clip.
        fade.Update(0.3f);
        fade.GetPose(pose);
        using (Skeleton again = MakeSkeleton())
        using (Pose expected = new Pose(again))
        using (Clip clipAgain = ClipOne(again))
        {
            clipAgain.Sample(0.3f, true, expected);
            Check(SameBits(F(pose.GetLocal()), F(expected.GetLocal())), "a crossfade plays a clip whose C# object was disposed");
        }
        fade.Dispose();
        pose.Dispose();
    }

    // Native heap in use, from glibc's mallinfo2 (-1 when unavailable).
    [StructLayout(LayoutKind.Sequential)]
    struct MallInfo2
    {
        public UIntPtr arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost;
    }

    [DllImport("libc.so.6", EntryPoint = "mallinfo2")]
    static extern MallInfo2 mallinfo2();

    static long NativeHeapBytes()
    {
        try
        {
            MallInfo2 m = mallinfo2();
            return (long)(ulong)m.uordblks + (long)(ulong)m.hblkhd;
        }
        catch (Exception)
        {
            return -1;
        }
    }

    const int BigJoints = 200;
    const int Rounds = 1000;

    static Skeleton BigSkeleton()
    {
        int[] parents = new int[BigJoints];
        Transform[] rest = new Transform[BigJoints];
        for (int i = 0; i < BigJoints; i++)
        {
            parents[i] = i - 1;
            rest[i] = Tr(0.1f, 0f, 0f, Z45);
        }
        return new Skeleton(parents, rest);
    }

    static void Collect()
    {
        for (int i = 0; i < 3; i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
    }

    /// <summary>Native bytes one round of every object holds, measured while they are alive.</summary>
    static long HeldPerRound()
    {
        Collect();
        long before = NativeHeapBytes();
        List<IDisposable> alive = new List<IDisposable>();
        for (int i = 0; i < 20; i++) MakeRound(alive);
        long after = NativeHeapBytes();
        foreach (IDisposable d in alive) d.Dispose();
        return (after - before) / 20;
    }

    static void MakeRound(List<IDisposable> keep)
    {
        Skeleton skeleton = BigSkeleton();
        Pose pose = new Pose(skeleton);
        JointMask mask = JointMask.Subtree(skeleton, 10, 3);
        Clip clip = new Clip(skeleton, 1f);
        clip.SetRotationTrack(5, Interpolation.Linear, ClipOneRotationTimes, ClipOneRotations);
        ClipCursor cursor = new ClipCursor(clip);
        Crossfade fade = new Crossfade(skeleton, 8);
        Fabrik fabrik = new Fabrik(BigJoints);
        Ccd ccd = new Ccd(BigJoints);
        TwoBoneIk ik = new TwoBoneIk();
        HandIkRetargeting hand = new HandIkRetargeting();
        if (keep != null)
        {
            keep.AddRange(new IDisposable[] { skeleton, pose, mask, clip, cursor, fade, fabrik, ccd, ik, hand });
        }
    }

    static void TestDisposeFreesMemory()
    {
        long perRound = HeldPerRound();
        Collect();
        long live = SinewHandle.LiveCount;
        long heap = NativeHeapBytes();
        for (int i = 0; i < Rounds; i++)
        {
            using (Skeleton skeleton = BigSkeleton())
            using (Pose pose = new Pose(skeleton))
            using (JointMask mask = JointMask.Subtree(skeleton, 10, 3))
            using (Clip clip = new Clip(skeleton, 1f))
            using (ClipCursor cursor = new ClipCursor(clip))
            using (Crossfade fade = new Crossfade(skeleton, 8))
            using (Fabrik fabrik = new Fabrik(BigJoints))
            using (Ccd ccd = new Ccd(BigJoints))
            using (TwoBoneIk ik = new TwoBoneIk())
            using (HandIkRetargeting hand = new HandIkRetargeting())
            {
                clip.SetRotationTrack(5, Interpolation.Linear, ClipOneRotationTimes, ClipOneRotations);
                fade.Play(clip);
                fade.Update(0.1f);
            }
        }
        long grown = NativeHeapBytes() - heap;
        Check(SinewHandle.LiveCount == live, "every handle released: " + (SinewHandle.LiveCount - live) + " left");
        Console.WriteLine("  one round holds " + perRound + " native bytes; after " + Rounds + " disposed rounds the native heap grew " + grown + " bytes");
        if (heap >= 0)
        {
            Check(perRound > 50000, "a round holds a measurable amount of native memory (" + perRound + " bytes)");
            Check(grown < perRound * Rounds / 20, "native memory is freed on Dispose (grew " + grown + " bytes; leaking would be ~" + perRound * Rounds + ")");
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static void Abandon(int rounds)
    {
        for (int i = 0; i < rounds; i++) MakeRound(null);
    }

    static void TestFinalizersFreeMemory()
    {
        long perRound = HeldPerRound();
        Collect();
        long live = SinewHandle.LiveCount;
        long heap = NativeHeapBytes();
        Abandon(Rounds);
        long abandoned = SinewHandle.LiveCount - live;
        Collect();
        long left = SinewHandle.LiveCount - live;
        long grown = NativeHeapBytes() - heap;
        Console.WriteLine("  " + abandoned + " handles alive before collecting, " + left + " after; the native heap grew " + grown + " bytes");
        // Mono scans stacks conservatively, so the last round may still look reachable.
        Check(left <= 10, left + " abandoned handles were not finalized");
        Check(abandoned > 0 || GC.CollectionCount(0) > 0, "the objects were abandoned alive or collected during the loop");
        if (heap >= 0)
        {
            Check(grown < perRound * Rounds / 20, "finalizers free native memory (grew " + grown + " bytes; leaking would be ~" + perRound * Rounds + ")");
        }
    }

    static float[] Workload(Skeleton skeleton, int seed)
    {
        List<float> results = new List<float>();
        using (Pose pose = new Pose(skeleton))
        using (Kit kit = new Kit(skeleton))
        using (JointMask mask = JointMask.Subtree(skeleton, 1, 1))
        using (Pose other = new Pose(skeleton))
        {
            Transform[] local = new Transform[6];
            Vec3[] targets, poles, limbTargets;
            Quat[] rotations, limbRotations, parents;
            Transform[] arms = BatchArms(out targets, out poles, out rotations);
            Transform[] limbs = BatchLimbs(out limbTargets, out limbRotations, out parents);
            IkResult[] batchResults = new IkResult[BatchCount];
            kit.Fade.Play(kit.One);
            other.SetLocal(PoseB(skeleton.GetRestPose()));
            string missing = "missing_" + seed;
            for (int i = 0; i < 300; i++)
            {
                float s = i * 0.01f;
                Transform[] chain = Arm();
                IkResult r = kit.Ik.Solve(chain, new Vec3(0.3f + 0.1f * (float)Math.Sin(s), 0.2f, 0.05f * i % 0.3f), null, ArmPole);
                results.AddRange(F(chain));
                results.Add(r.Error);
                Transform[] line = StraightChain(5);
                results.Add(kit.Fabrik.Solve(line, new Vec3(0.5f, 0.6f - 0.001f * i, 0.2f)).Error);
                results.AddRange(F(line));
                line = StraightChain(5);
                results.Add(kit.Ccd.Solve(line, new Vec3(0.5f, 0.6f, 0.2f - 0.001f * i)).Error);
                results.AddRange(F(line));
                if (i % 10 == 0)
                {
                    // A crowd's batches, each thread with its own solvers.
                    Transform[] armBatch = (Transform[])arms.Clone();
                    targets[i % BatchCount].x += 0.01f;
                    kit.Ik.SolveBatch(armBatch, targets, rotations, poles, batchResults);
                    results.AddRange(F(armBatch));
                    results.AddRange(F(batchResults));
                    Transform[] limbBatch = (Transform[])limbs.Clone();
                    kit.Fabrik.SolveBatch(limbBatch, 5, limbTargets, limbRotations, parents, batchResults);
                    results.AddRange(F(limbBatch));
                    results.AddRange(F(batchResults));
                    limbBatch = (Transform[])limbs.Clone();
                    kit.Ccd.SolveBatch(limbBatch, 5, limbTargets, null, parents, batchResults);
                    results.AddRange(F(limbBatch));
                    results.AddRange(F(batchResults));
                }
                kit.One.Sample(s * 3f, true, pose, kit.Cursor);
                pose.GetLocal(local);
                results.AddRange(F(local));
                if (i == 100) kit.Fade.FadeTo(kit.Two, 0.5f);
                if (i == 200) kit.Fade.FadeTo(kit.One, 0.3f, FadeCurve.Inertialize);
                kit.Fade.Update(1f / 60f);
                kit.Fade.GetPose(pose);
                Blending.Blend(pose, other, 0.5f, pose, mask);
                pose.GetLocal(local);
                results.AddRange(F(local));
                try
                {
                    skeleton.FindJoint(missing);
                    Fail("FindJoint(" + missing + ") succeeded");
                }
                catch (SinewException e)
                {
                    // The error slot is per thread: another thread's failure never shows here.
                    if (!e.NativeMessage.Contains(missing)) Fail("thread " + seed + " got another thread's message: " + e.NativeMessage);
                }
            }
        }
        return results.ToArray();
    }

    static void TestThreads()
    {
        const int Threads = 4;
        using (Skeleton skeleton = MakeSkeleton())
        {
            float[] serial = Workload(skeleton, 0);
            float[][] parallel = new float[Threads][];
            Exception[] errors = new Exception[Threads];
            Thread[] threads = new Thread[Threads];
            for (int t = 0; t < Threads; t++)
            {
                int k = t;
                threads[t] = new Thread(() =>
                {
                    try { parallel[k] = Workload(skeleton, k + 1); }
                    catch (Exception e) { errors[k] = e; }
                });
            }
            foreach (Thread thread in threads) thread.Start();
            foreach (Thread thread in threads) thread.Join();
            for (int t = 0; t < Threads; t++)
            {
                Check(errors[t] == null, "thread " + t + " threw " + errors[t]);
                Check(parallel[t] != null && SameBits(parallel[t], serial), "thread " + t + " matches the serial run bit for bit (" + serial.Length + " floats)");
            }
        }
    }

    static Func<long> AllocatedBytes()
    {
        MethodInfo m = typeof(GC).GetMethod("GetAllocatedBytesForCurrentThread", BindingFlags.Public | BindingFlags.Static);
        if (m == null) return null;
        try
        {
            Func<long> f = (Func<long>)Delegate.CreateDelegate(typeof(Func<long>), m);
            f();
            return f;
        }
        catch (Exception)
        {
            return null;
        }
    }

    static float[] M(Mat4[] ms)
    {
        float[] v = new float[ms.Length * 16];
        for (int i = 0; i < ms.Length; i++)
        {
            for (int c = 0; c < 4; c++)
            {
                for (int r = 0; r < 4; r++) v[16 * i + 4 * c + r] = ms[i][r, c];
            }
        }
        return v;
    }

    static float[] M(SinewMat4[] ms)
    {
        float[] v = new float[ms.Length * 16];
        fixed (SinewMat4* p = ms)
        {
            for (int i = 0; i < v.Length; i++) v[i] = ((float*)p)[i];
        }
        return v;
    }

    static void TestMatrices()
    {
        float[] bindFloats = Golden("INVERSE_BINDS");
        Mat4[] binds = new Mat4[bindFloats.Length / 16];
        for (int k = 0; k < binds.Length; k++)
        {
            for (int c = 0; c < 4; c++)
            {
                for (int r = 0; r < 4; r++) binds[k][r, c] = bindFloats[16 * k + 4 * c + r];
            }
        }
        int[] joints = { 3, 1, 5 };
        Transform[] poseB = PoseB(Rest());
        using (Skeleton skeleton = MakeSkeleton())
        using (Pose pose = new Pose(skeleton))
        using (Skin skin = new Skin(skeleton, joints, binds))
        {
            Check(skin.JointCount == 3, "Skin.JointCount");
            Check(M(pose.ComputeSkinningPalette(skin)).Length == 48, "palette length");
            pose.SetLocal(poseB);
            Mat4[] matrices = pose.ComputeModelMatrices();
            Expect("MATRICES", M(matrices));
            Mat4[] palette = new Mat4[3];
            pose.ComputeSkinningPalette(skin, palette);
            Expect("PALETTE", M(palette));
            Transform[] model = pose.ComputeModel();
            for (int j = 0; j < model.Length; j++)
            {
                // Matrices are composed as matrices: the model translation to rounding.
                Vec3 t = model[j].Translation, m = matrices[j].Translation;
                float size = 1f + Math.Abs(t.x) + Math.Abs(t.y) + Math.Abs(t.z);
                bool close = Math.Abs(m.x - t.x) <= 1e-5f * size && Math.Abs(m.y - t.y) <= 1e-5f * size && Math.Abs(m.z - t.z) <= 1e-5f * size;
                Check(close && matrices[j][3, 3] == 1f && matrices[j].M03 == matrices[j][0, 3],
                    "matrix " + j + " holds its model translation");
            }
            Check(Mat4.Identity[2, 2] == 1f && Mat4.Identity[2, 1] == 0f, "Mat4.Identity");

            // The raw calls: the same bits.
            SinewSkeleton* s = RawSkeleton();
            SinewPose* p = RawPose(s);
            SinewSkin* rs = null;
            SinewMat4[] rawMatrices = new SinewMat4[6];
            SinewMat4[] rawPalette = new SinewMat4[3];
            fixed (Transform* l = poseB) Ok(NativeMethods.sinew_pose_set_local(p, (SinewTransform*)l, 6), "sinew_pose_set_local");
            fixed (int* j = joints)
            fixed (Mat4* b = binds)
            {
                Ok(NativeMethods.sinew_skin_create(s, (uint*)j, (SinewMat4*)b, 3, &rs), "sinew_skin_create");
            }
            fixed (SinewMat4* m = rawMatrices) Ok(NativeMethods.sinew_pose_compute_model_matrices(p, m, 6), "sinew_pose_compute_model_matrices");
            fixed (SinewMat4* m = rawPalette) Ok(NativeMethods.sinew_pose_compute_skinning_palette(p, rs, m, 3), "sinew_pose_compute_skinning_palette");
            Check(SameBits(M(rawMatrices), M(matrices)), "ComputeModelMatrices equals the raw call");
            Check(SameBits(M(rawPalette), M(palette)), "ComputeSkinningPalette equals the raw call");
            NativeMethods.sinew_skin_destroy(rs);
            NativeMethods.sinew_pose_destroy(p);
            NativeMethods.sinew_skeleton_destroy(s);

            // Errors: the native message, outputs untouched.
            Mat4[] shortPalette = new Mat4[2];
            ThrowsSinew("a palette of the wrong size", Status.SizeMismatch, () => pose.ComputeSkinningPalette(skin, shortPalette), "out_palette");
            Check(shortPalette[0].Equals(default(Mat4)), "untouched palette");
            ThrowsSinew("matrices of the wrong size", Status.SizeMismatch, () => pose.ComputeModelMatrices(new Mat4[5]), "out_matrices");
            ThrowsSinew("a joint listed twice", Status.InvalidArgument, () => new Skin(skeleton, new[] { 1, 1 }, new[] { binds[0], binds[1] }), "twice");
            ThrowsSinew("a count other than the joint count", Status.SizeMismatch, () => new Skin(skeleton, binds));
            Mat4 bad = binds[0];
            bad[1, 3] = float.NaN;
            ThrowsSinew("a NaN inverse bind", Status.NonFinite, () => new Skin(skeleton, new[] { 2 }, new[] { bad }), "inverse bind matrix 0");
            Throws<ArgumentNullException>("a null skin", () => pose.ComputeSkinningPalette(null), e => e.ParamName == "skin");
            Throws<ArgumentOutOfRangeException>("a row out of range", () => { float x = binds[0][4, 0]; }, e => e.ParamName == "row");
        }
    }

    static void TestNoAllocation()
    {
        using (Posed posed = new Posed())
        using (JointMask mask = JointMask.Subtree(posed.Skeleton, 1, 1))
        using (Kit kit = new Kit(posed.Skeleton))
        using (HandIkRetargeting hand = new HandIkRetargeting())
        {
            Pose pose = posed.NewPose(), other = posed.NewPose(), mixed = posed.NewPose();
            Transform[] arm = Arm(), chain = new Transform[3], line = new Transform[5], local = new Transform[6], model = new Transform[6];
            Transform[] straight = StraightChain(5);
            BlendLayer[] layers = { new BlendLayer(pose, 0.5f), new BlendLayer(other, 0.5f, mask) };
            BlendLayer[] additive = { new BlendLayer(pose, -0.25f, mask) };
            int[] joints = { 1, 2, 3 };
            float[] weights = new float[4];
            Vec3[] targets, poles, limbTargets;
            Quat[] rotations, limbRotations, parents;
            Transform[] arms = BatchArms(out targets, out poles, out rotations);
            Transform[] limbs = BatchLimbs(out limbTargets, out limbRotations, out parents);
            Transform[] armBatch = new Transform[arms.Length], limbBatch = new Transform[limbs.Length];
            IkResult[] batchResults = new IkResult[BatchCount];
            kit.Fade.Play(kit.One);
            Func<long> allocated = AllocatedBytes();
            int gcs = GC.CollectionCount(0);
            long before = allocated != null ? allocated() : GC.GetTotalMemory(false);
            for (int i = 0; i < 2000; i++)
            {
                Array.Copy(arm, chain, 3);
                kit.Ik.Solve(chain, ArmTarget, null, ArmPole);
                kit.Ik.SolvePose(pose, 1, 2, 3, PoseTarget, Z45);
                Array.Copy(straight, line, 5);
                kit.Fabrik.Solve(line, ChainGoal);
                Array.Copy(straight, line, 5);
                kit.Ccd.Solve(line, ChainGoal, Quat.Identity);
                kit.Fabrik.SolvePose(pose, joints, PoseTarget);
                Array.Copy(arms, armBatch, arms.Length);
                kit.Ik.SolveBatch(armBatch, targets, rotations, poles, batchResults);
                kit.Ik.SolveBatch(armBatch, BatchCount - 1, targets, null, poles);
                Array.Copy(limbs, limbBatch, limbs.Length);
                kit.Fabrik.SolveBatch(limbBatch, 5, limbTargets, limbRotations, parents, batchResults);
                Array.Copy(limbs, limbBatch, limbs.Length);
                kit.Ccd.SolveBatch(limbBatch, 5, BatchCount, limbTargets, null, parents);
                fixed (Transform* c = limbBatch)
                fixed (Vec3* t = limbTargets)
                fixed (IkResult* o = batchResults)
                {
                    kit.Ccd.SolveBatch(c, 5, BatchCount, t, null, null, o);
                }
                kit.One.Sample(i * 0.01f, true, pose, kit.Cursor);
                pose.GetLocal(local);
                other.SetLocal(local);
                pose.GetModel(model);
                pose.ComputeModel(model);
                hand.ApplyModel(model, Hands, HandBones);
                Blending.Blend(pose, other, 0.3f, pose, mask);
                Blending.BlendLayers(layers, 0.1f, mixed);
                Blending.MakeAdditive(mixed, other, pose);
                Blending.ApplyAdditive(other, pose, 0.5f, mixed, mask);
                Blending.BlendLayersAdditive(layers, additive, 0.1f, mixed);
                kit.Fade.Update(0.016f);
                kit.Fade.GetPose(pose);
                kit.Fade.GetWeights(weights);
                kit.Fade.GetTimes(weights);
                float left;
                kit.Fade.GetInertialization(out left);
                TwoBoneIkSettings s = kit.Ik.Settings;
                kit.Ik.Settings = s;
                pose.GetModelTransform(3);
            }
            long after = allocated != null ? allocated() : GC.GetTotalMemory(false);
            string how = allocated != null ? "GC.GetAllocatedBytesForCurrentThread" : "GC.GetTotalMemory with no collection";
            if (allocated == null && GC.CollectionCount(0) != gcs)
            {
                Console.WriteLine("  note: a collection ran during the loop; allocation check inconclusive");
                return;
            }
            Console.WriteLine("  2000 rounds of the hot paths allocated " + (after - before) + " bytes (" + how + ")");
            Check(after - before < 1024, "the hot paths allocate nothing (" + (after - before) + " bytes over 2000 rounds)");
        }
    }
}
