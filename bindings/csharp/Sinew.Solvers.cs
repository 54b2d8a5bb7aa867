// IK solvers: two-bone, FABRIK and CCD (one ChainSolver base), multi-effector FABRIK, and hand
// IK retargeting.
// Solving allocates nothing. SolveBatch solves a crowd's chains in one call; give each worker
// thread its own solver (the native library holds no global lock). The constructors, Settings,
// NativePointer and the C functions each chain solver calls are generated in NativeMethods.g.cs.

using System;
using Sinew.Native;

namespace Sinew
{
    /// <summary>
    /// Analytic two-bone IK (Unreal's TwoBoneIK node semantics). One solver may serve many
    /// chains (SolveBatch: many per call); use it from one thread at a time.
    /// </summary>
    public sealed unsafe partial class TwoBoneIk
    {
        /// <summary>
        /// Solves three model-space transforms (root, joint, end) in place toward
        /// <paramref name="effectorPosition"/>. <paramref name="jointTarget"/> is the pole (null
        /// keeps the chain's bend, turned onto the target by the minimal rotation of its root-end
        /// direction). On error the chain is untouched.
        /// </summary>
        public IkResult Solve(Transform[] chain, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            if (chain.Length != 3) Library.ThrowLength("chain", "a two-bone chain has 3 transforms, not " + chain.Length);
            fixed (Transform* c = chain) return Solve(c, effectorPosition, effectorRotation, jointTarget);
        }

        /// <summary>As Solve(Transform[], ...) on 3 transforms at <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform* chain, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            Quat rotation = effectorRotation.GetValueOrDefault();
            Vec3 pole = jointTarget.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            {
                Library.Check(NativeMethods.sinew_two_bone_ik_solve(
                    (SinewTwoBoneIk*)self.Pointer,
                    (SinewTransform*)chain,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    jointTarget.HasValue ? (SinewVec3*)&pole : null,
                    &result.Native));
            }
            return result;
        }

        /// <summary>
        /// Solves many independent chains in one call (a crowd): <paramref name="chains"/> holds
        /// 3 model-space transforms (root, joint, end) per chain, back to back, solved in place;
        /// chain i goes toward effectorPositions[i]. <paramref name="effectorRotations"/>,
        /// <paramref name="jointTargets"/> (poles) and <paramref name="results"/> are each null
        /// (none, for every chain) or hold one item per chain. Each chain ends exactly (bit for
        /// bit) where Solve puts it (four chains per pass of four-wide lanes through the kernel Solve runs on
        /// one chain, per component in the same order). Every input is checked before anything is written, so a SinewException
        /// leaves every array untouched, except Status.NumericOverflow: the chains whose result
        /// is not representable (NativeMessage names the first) keep their transforms and
        /// results, and the others are solved.
        /// Allocates nothing. One solver per worker thread; there is no global lock.
        /// </summary>
        public void SolveBatch(Transform[] chains, Vec3[] effectorPositions, Quat[] effectorRotations = null, Vec3[] jointTargets = null, IkResult[] results = null)
        {
            if (effectorPositions == null) Library.ThrowNull("effectorPositions");
            SolveBatch(true, chains, effectorPositions.Length, effectorPositions, effectorRotations, jointTargets, results);
        }

        /// <summary>
        /// As SolveBatch on the first <paramref name="chainCount"/> chains of reusable arrays
        /// (each at least that long; <paramref name="chains"/> at least 3 * chainCount).
        /// </summary>
        public void SolveBatch(Transform[] chains, int chainCount, Vec3[] effectorPositions, Quat[] effectorRotations = null, Vec3[] jointTargets = null, IkResult[] results = null)
        {
            SolveBatch(false, chains, chainCount, effectorPositions, effectorRotations, jointTargets, results);
        }

        void SolveBatch(bool exact, Transform[] chains, int chainCount, Vec3[] effectorPositions, Quat[] effectorRotations, Vec3[] jointTargets, IkResult[] results)
        {
            BatchArguments.Check(exact, chainCount, 3, chains, effectorPositions, effectorRotations, "effectorRotations", jointTargets, "jointTargets", results);
            fixed (Transform* c = chains)
            fixed (Vec3* p = effectorPositions)
            fixed (Quat* r = effectorRotations)
            fixed (Vec3* t = jointTargets)
            fixed (IkResult* o = results)
            {
                SolveBatch(c, chainCount, p, r, t, o);
            }
        }

        /// <summary>
        /// As SolveBatch(Transform[], ...) on <paramref name="chainCount"/> chains at
        /// <paramref name="chains"/> (3 * chainCount transforms) and arrays of chainCount items
        /// (optional ones may be null), e.g. from NativeArray.GetUnsafePtr.
        /// </summary>
        public void SolveBatch(Transform* chains, int chainCount, Vec3* effectorPositions, Quat* effectorRotations = null, Vec3* jointTargets = null, IkResult* results = null)
        {
            if (chainCount < 0) BatchArguments.ThrowCount("chainCount", chainCount);
            using (Lease self = Lease())
            {
                Library.Check(NativeMethods.sinew_two_bone_ik_solve_batch(
                    (SinewTwoBoneIk*)self.Pointer,
                    (SinewTransform*)chains,
                    (uint)chainCount,
                    (SinewVec3*)effectorPositions,
                    (SinewQuat*)effectorRotations,
                    (SinewVec3*)jointTargets,
                    (SinewIkResult*)results));
            }
        }

        /// <summary>
        /// SolveBatch for chains in structure-of-arrays blocks of four (ozz's SoaTransform
        /// layout): group g holds chains 4g to 4g+3 in lanes 0 to 3 of chains[3g] (roots),
        /// chains[3g + 1] (joints) and chains[3g + 2] (ends), toward the lanes of
        /// effectorPositions[g]; <paramref name="effectorRotations"/> and
        /// <paramref name="jointTargets"/> are null or hold one block per group, and
        /// <paramref name="results"/> null or one item per chain. Arrays may be longer than
        /// needed for <paramref name="chainCount"/> chains ((chainCount + 3) / 4 groups). Lanes
        /// past chainCount in the last group are read but never written. Each chain ends exactly
        /// (bit for bit) where SolveBatch and Solve put it; errors as in SolveBatch.
        /// </summary>
        public void SolveBatchSoa(SoaTransform[] chains, int chainCount, SoaVec3[] effectorPositions, SoaQuat[] effectorRotations = null, SoaVec3[] jointTargets = null, IkResult[] results = null)
        {
            if (chains == null) Library.ThrowNull("chains");
            if (effectorPositions == null) Library.ThrowNull("effectorPositions");
            if (chainCount < 0) BatchArguments.ThrowCount("chainCount", chainCount);
            int groups = chainCount / 4 + (chainCount % 4 != 0 ? 1 : 0);
            if ((long)chains.Length < 3L * groups) Library.ThrowLength("chains", "chains has " + chains.Length + " blocks for " + groups + " groups of four chains (3 each)");
            Blocks(effectorPositions, groups, "effectorPositions");
            Blocks(effectorRotations, groups, "effectorRotations");
            Blocks(jointTargets, groups, "jointTargets");
            if (results != null && results.Length < chainCount) Library.ThrowLength("results", "results has " + results.Length + " items for " + chainCount + " chains");
            fixed (SoaTransform* c = chains)
            fixed (SoaVec3* p = effectorPositions)
            fixed (SoaQuat* r = effectorRotations)
            fixed (SoaVec3* t = jointTargets)
            fixed (IkResult* o = results)
            {
                SolveBatchSoa(c, chainCount, p, r, t, o);
            }
        }

        static void Blocks(Array blocks, int groups, string name)
        {
            if (blocks != null && blocks.Length < groups) Library.ThrowLength(name, name + " has " + blocks.Length + " blocks for " + groups + " groups of four chains");
        }

        /// <summary>
        /// As SolveBatchSoa(SoaTransform[], ...) on <paramref name="chainCount"/> chains at
        /// <paramref name="chains"/> (3 blocks per group of four) and block arrays (optional ones
        /// may be null), e.g. from NativeArray.GetUnsafePtr.
        /// </summary>
        public void SolveBatchSoa(SoaTransform* chains, int chainCount, SoaVec3* effectorPositions, SoaQuat* effectorRotations = null, SoaVec3* jointTargets = null, IkResult* results = null)
        {
            if (chainCount < 0) BatchArguments.ThrowCount("chainCount", chainCount);
            using (Lease self = Lease())
            {
                Library.Check(NativeMethods.sinew_two_bone_ik_solve_batch_soa(
                    (SinewTwoBoneIk*)self.Pointer,
                    (SinewSoaTransform*)chains,
                    (uint)chainCount,
                    (SinewSoaVec3*)effectorPositions,
                    (SinewSoaQuat*)effectorRotations,
                    (SinewSoaVec3*)jointTargets,
                    (SinewIkResult*)results));
            }
        }

        /// <summary>
        /// Solves joints root, joint, end of <paramref name="pose"/> (each the parent of the next)
        /// toward a model-space effector and writes their local rotations back.
        /// </summary>
        public IkResult SolvePose(Pose pose, int root, int joint, int end, Vec3 effectorPosition, Quat? effectorRotation = null, Vec3? jointTarget = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            Quat rotation = effectorRotation.GetValueOrDefault();
            Vec3 pole = jointTarget.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            using (Lease p = pose.Lease())
            {
                Library.Check(NativeMethods.sinew_two_bone_ik_solve_pose(
                    (SinewTwoBoneIk*)self.Pointer,
                    (SinewPose*)p.Pointer,
                    (uint)root,
                    (uint)joint,
                    (uint)end,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    jointTarget.HasValue ? (SinewVec3*)&pole : null,
                    &result.Native));
            }
            return result;
        }
    }

    /// <summary>
    /// What FABRIK and CCD share: chains of up to MaxJoints joints (all memory allocated at
    /// creation), per-joint constraints, and single, batch and pose solves. Use a solver from one
    /// thread at a time (SolveBatch: many chains per call).
    /// </summary>
    public abstract unsafe class ChainSolver : NativeObject
    {
        internal ChainSolver() { }

        /// <summary>The longest chain the solver takes, fixed at creation.</summary>
        public int MaxJoints { get; internal set; }

        // The solver's C functions (one signature for FABRIK and CCD; generated in NativeMethods.g.cs).
        internal abstract SinewStatus NativeSetConstraint(IntPtr self, uint joint, SinewJointConstraint* constraint);
        internal abstract SinewStatus NativeSolve(IntPtr self, SinewTransform* chain, uint joint_count, SinewQuat* root_parent_rotation, SinewVec3* effector_position, SinewQuat* effector_rotation, SinewIkResult* out_result);
        internal abstract SinewStatus NativeSolvePose(IntPtr self, SinewPose* pose, uint* joints, uint joint_count, SinewVec3* effector_position, SinewQuat* effector_rotation, SinewIkResult* out_result);
        internal abstract SinewStatus NativeSolveBatch(IntPtr self, SinewTransform* chains, uint joint_count, uint chain_count, SinewQuat* root_parent_rotations, SinewVec3* effector_positions, SinewQuat* effector_rotations, SinewIkResult* out_results);

        /// <summary>Sets the constraint of chain joint <paramref name="joint"/> (0 is the chain's root).</summary>
        public void SetConstraint(int joint, JointConstraint constraint)
        {
            using (Lease self = Lease()) Library.Check(NativeSetConstraint(self.Pointer, (uint)joint, &constraint.Native));
        }

        /// <summary>Removes the constraint of chain joint <paramref name="joint"/>.</summary>
        public void ClearConstraint(int joint)
        {
            using (Lease self = Lease()) Library.Check(NativeSetConstraint(self.Pointer, (uint)joint, null));
        }

        /// <summary>
        /// Solves a model-space chain (root first; the root stays in place) in place.
        /// <paramref name="rootParentRotation"/> is the model rotation the root's constraint is
        /// relative to (null: identity).
        /// </summary>
        public IkResult Solve(Transform[] chain, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            return Solve(chain, chain.Length, effectorPosition, effectorRotation, rootParentRotation);
        }

        /// <summary>As Solve on the first <paramref name="count"/> transforms of <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform[] chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            if (count < 0 || count > chain.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the chain array");
            fixed (Transform* c = chain) return Solve(c, count, effectorPosition, effectorRotation, rootParentRotation);
        }

        /// <summary>As Solve on <paramref name="count"/> transforms at <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform* chain, int count, Vec3 effectorPosition, Quat? effectorRotation = null, Quat? rootParentRotation = null)
        {
            Quat rotation = effectorRotation.GetValueOrDefault();
            Quat parent = rootParentRotation.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            {
                Library.Check(NativeSolve(
                    self.Pointer,
                    (SinewTransform*)chain,
                    (uint)count,
                    rootParentRotation.HasValue ? (SinewQuat*)&parent : null,
                    (SinewVec3*)&effectorPosition,
                    effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                    &result.Native));
            }
            return result;
        }

        /// <summary>
        /// Solves many independent chains of <paramref name="jointCount"/> model-space transforms
        /// each, stored back to back in <paramref name="chains"/>, in one call (a crowd); chain i
        /// is solved exactly (bit for bit) as Solve would, toward effectorPositions[i].
        /// <paramref name="effectorRotations"/>, <paramref name="rootParentRotations"/> (null:
        /// identity) and <paramref name="results"/> are each null (for every chain) or hold one
        /// item per chain. Every input is checked before anything is written, so a
        /// SinewException leaves every array untouched, except Status.NumericOverflow: the chains
        /// whose result is not representable (NativeMessage names the first) keep their
        /// transforms and results, and the others are solved. Allocates nothing. The solver's
        /// scratch memory makes it one thread at a time: one solver per worker thread; there is
        /// no global lock.
        /// </summary>
        public void SolveBatch(Transform[] chains, int jointCount, Vec3[] effectorPositions, Quat[] effectorRotations = null, Quat[] rootParentRotations = null, IkResult[] results = null)
        {
            if (effectorPositions == null) Library.ThrowNull("effectorPositions");
            SolveBatch(true, chains, jointCount, effectorPositions.Length, effectorPositions, effectorRotations, rootParentRotations, results);
        }

        /// <summary>
        /// As SolveBatch on the first <paramref name="chainCount"/> chains of reusable arrays
        /// (each at least that long; <paramref name="chains"/> at least jointCount * chainCount).
        /// </summary>
        public void SolveBatch(Transform[] chains, int jointCount, int chainCount, Vec3[] effectorPositions, Quat[] effectorRotations = null, Quat[] rootParentRotations = null, IkResult[] results = null)
        {
            SolveBatch(false, chains, jointCount, chainCount, effectorPositions, effectorRotations, rootParentRotations, results);
        }

        void SolveBatch(bool exact, Transform[] chains, int jointCount, int chainCount, Vec3[] effectorPositions, Quat[] effectorRotations, Quat[] rootParentRotations, IkResult[] results)
        {
            BatchArguments.Check(exact, chainCount, jointCount, chains, effectorPositions, effectorRotations, "effectorRotations", rootParentRotations, "rootParentRotations", results);
            fixed (Transform* c = chains)
            fixed (Vec3* p = effectorPositions)
            fixed (Quat* r = effectorRotations)
            fixed (Quat* q = rootParentRotations)
            fixed (IkResult* o = results)
            {
                SolveBatch(c, jointCount, chainCount, p, r, q, o);
            }
        }

        /// <summary>
        /// As SolveBatch(Transform[], ...) on <paramref name="chainCount"/> chains at
        /// <paramref name="chains"/> (jointCount * chainCount transforms) and arrays of
        /// chainCount items (optional ones may be null), e.g. from NativeArray.GetUnsafePtr.
        /// </summary>
        public void SolveBatch(Transform* chains, int jointCount, int chainCount, Vec3* effectorPositions, Quat* effectorRotations = null, Quat* rootParentRotations = null, IkResult* results = null)
        {
            if (jointCount < 0) BatchArguments.ThrowCount("jointCount", jointCount);
            if (chainCount < 0) BatchArguments.ThrowCount("chainCount", chainCount);
            using (Lease self = Lease())
            {
                Library.Check(NativeSolveBatch(
                    self.Pointer,
                    (SinewTransform*)chains,
                    (uint)jointCount,
                    (uint)chainCount,
                    (SinewQuat*)rootParentRotations,
                    (SinewVec3*)effectorPositions,
                    (SinewQuat*)effectorRotations,
                    (SinewIkResult*)results));
            }
        }

        /// <summary>
        /// Solves joints <paramref name="joints"/> of <paramref name="pose"/> (root to tip, each
        /// the parent of the next) toward a model-space effector; writes local rotations back.
        /// </summary>
        public IkResult SolvePose(Pose pose, int[] joints, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (joints == null) Library.ThrowNull("joints");
            return SolvePose(pose, joints, joints.Length, effectorPosition, effectorRotation);
        }

        /// <summary>As SolvePose on the first <paramref name="count"/> entries of <paramref name="joints"/>.</summary>
        public IkResult SolvePose(Pose pose, int[] joints, int count, Vec3 effectorPosition, Quat? effectorRotation = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (joints == null) Library.ThrowNull("joints");
            if (count < 0 || count > joints.Length) throw new ArgumentOutOfRangeException("count", count, "count must be within the joints array");
            Quat rotation = effectorRotation.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            using (Lease p = pose.Lease())
            {
                fixed (int* j = joints)
                {
                    Library.Check(NativeSolvePose(
                        self.Pointer,
                        (SinewPose*)p.Pointer,
                        (uint*)j,
                        (uint)count,
                        (SinewVec3*)&effectorPosition,
                        effectorRotation.HasValue ? (SinewQuat*)&rotation : null,
                        &result.Native));
                }
            }
            return result;
        }
    }

    /// <summary>
    /// FABRIK chain solver (Unreal's FABRIK node) with per-joint constraints; everything it does
    /// is <see cref="ChainSolver"/>'s (and generated: constructors, Settings, NativePointer).
    /// </summary>
    public sealed partial class Fabrik
    {
    }

    /// <summary>
    /// CCD chain solver (Unreal's CCDIK node) with per-joint constraints, rotation limits and
    /// weights; see <see cref="ChainSolver"/>.
    /// </summary>
    public sealed unsafe partial class Ccd
    {
        /// <summary>
        /// Chain joint <paramref name="joint"/>'s rotation limit (degrees from the input per
        /// solve, in [0, 180]; 180 is unlimited; from the input's projection where it breaks the
        /// joint's constraint; not the tip, which follows the end rotation) and weight (fraction
        /// of each step, in [0, 1]).
        /// </summary>
        public void SetJoint(int joint, float rotationLimitDegrees, float weight = 1f)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_ccd_set_joint((SinewCcd*)self.Pointer, (uint)joint, rotationLimitDegrees, weight));
        }
    }

    /// <summary>
    /// Aim / look-at chain: turns a chain (spine to head, or one joint) so the last joint's aim
    /// axis, from its aim origin (AimOffset), points at a target. The turn is one rotation,
    /// shared out by per-joint weights under per-joint limits and an overall clamp (README, "Aim
    /// and look-at"); IkResult.Error is the residual angle in radians. All memory is allocated
    /// at creation; solving allocates nothing; one thread at a time.
    /// </summary>
    public sealed unsafe partial class AimIk
    {
        /// <summary>
        /// Chain joint <paramref name="joint"/>'s share of the turn (weight at least 0; 0 does
        /// not turn) and limit (degrees from its input rotation, in [0, 180]): joint i turns
        /// min(limit_i, lambda * weight_i), the turns adding up to the whole turn.
        /// </summary>
        public void SetJoint(int joint, float weight, float maxAngleDegrees = 180f)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_aim_ik_set_joint((SinewAimIk*)self.Pointer, (uint)joint, weight, maxAngleDegrees));
        }

        /// <summary>
        /// Turns a model-space chain (root first; the root stays in place) in place so the aim
        /// axis points at <paramref name="target"/>; <paramref name="upTarget"/> (a direction, or
        /// a position with UpIsPosition) rolls the last joint's up axis toward it (null: minimal
        /// roll).
        /// </summary>
        public IkResult Solve(Transform[] chain, Vec3 target, Vec3? upTarget = null)
        {
            if (chain == null) Library.ThrowNull("chain");
            fixed (Transform* c = chain) return Solve(c, chain.Length, target, upTarget);
        }

        /// <summary>As Solve on <paramref name="count"/> transforms at <paramref name="chain"/>.</summary>
        public IkResult Solve(Transform* chain, int count, Vec3 target, Vec3? upTarget = null)
        {
            Vec3 up = upTarget.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            {
                Library.Check(NativeMethods.sinew_aim_ik_solve(
                    (SinewAimIk*)self.Pointer,
                    (SinewTransform*)chain,
                    (uint)count,
                    (SinewVec3*)&target,
                    upTarget.HasValue ? (SinewVec3*)&up : null,
                    &result.Native));
            }
            return result;
        }

        /// <summary>
        /// Solves targets.Length chains of <paramref name="jointCount"/> transforms stored back
        /// to back, each exactly (bit for bit) as Solve; <paramref name="upTargets"/> and
        /// <paramref name="results"/> are null or hold one item per chain. Checks, untouched
        /// arrays on error and the overflow rule as Fabrik's SolveBatch.
        /// </summary>
        public void SolveBatch(Transform[] chains, int jointCount, Vec3[] targets, Vec3[] upTargets = null, IkResult[] results = null)
        {
            if (targets == null) Library.ThrowNull("targets");
            BatchArguments.Check(true, targets.Length, jointCount, chains, targets, upTargets, "upTargets", null, null, results);
            fixed (Transform* c = chains)
            fixed (Vec3* p = targets)
            fixed (Vec3* u = upTargets)
            fixed (IkResult* o = results)
            {
                SolveBatch(c, jointCount, targets.Length, p, u, o);
            }
        }

        /// <summary>As SolveBatch on raw arrays of chainCount items (optional ones may be null), e.g. from NativeArray.GetUnsafePtr.</summary>
        public void SolveBatch(Transform* chains, int jointCount, int chainCount, Vec3* targets, Vec3* upTargets = null, IkResult* results = null)
        {
            if (jointCount < 0) BatchArguments.ThrowCount("jointCount", jointCount);
            if (chainCount < 0) BatchArguments.ThrowCount("chainCount", chainCount);
            using (Lease self = Lease())
            {
                Library.Check(NativeMethods.sinew_aim_ik_solve_batch(
                    (SinewAimIk*)self.Pointer,
                    (SinewTransform*)chains,
                    (uint)jointCount,
                    (uint)chainCount,
                    (SinewVec3*)targets,
                    (SinewVec3*)upTargets,
                    (SinewIkResult*)results));
            }
        }

        /// <summary>
        /// Solves joints <paramref name="joints"/> of <paramref name="pose"/> (root to tip, each
        /// the parent of the next) and writes their local rotations back.
        /// </summary>
        public IkResult SolvePose(Pose pose, int[] joints, Vec3 target, Vec3? upTarget = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (joints == null) Library.ThrowNull("joints");
            Vec3 up = upTarget.GetValueOrDefault();
            IkResult result = default(IkResult);
            using (Lease self = Lease())
            using (Lease p = pose.Lease())
            {
                fixed (int* j = joints)
                {
                    Library.Check(NativeMethods.sinew_aim_ik_solve_pose(
                        (SinewAimIk*)self.Pointer,
                        (SinewPose*)p.Pointer,
                        (uint*)j,
                        (uint)joints.Length,
                        (SinewVec3*)&target,
                        upTarget.HasValue ? (SinewVec3*)&up : null,
                        &result.Native));
                }
            }
            return result;
        }
    }

    /// <summary>
    /// Multi-effector FABRIK: a joint tree (a root and several end joints, e.g. pelvis to both
    /// hands) solved toward one weighted target per effector; constraints are set per skeleton
    /// joint. All memory is allocated at creation; solving allocates nothing. One thread at a time.
    /// </summary>
    public sealed unsafe partial class MultiFabrik
    {
        /// <summary>Constrains skeleton joint <paramref name="joint"/> whenever it is in a solved tree.</summary>
        public void SetConstraint(int joint, JointConstraint constraint)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_multi_fabrik_set_constraint((SinewMultiFabrik*)self.Pointer, (uint)joint, &constraint.Native));
        }

        /// <summary>Removes the constraint of skeleton joint <paramref name="joint"/>.</summary>
        public void ClearConstraint(int joint)
        {
            using (Lease self = Lease()) Library.Check(NativeMethods.sinew_multi_fabrik_set_constraint((SinewMultiFabrik*)self.Pointer, (uint)joint, null));
        }

        /// <summary>
        /// Solves the tree of <paramref name="root"/> and <paramref name="effectors"/> in
        /// <paramref name="model"/> (every model-space transform of <paramref name="skeleton"/>)
        /// toward <paramref name="targets"/> (one per effector); writes the tree's translations and
        /// rotations, and one result per effector into <paramref name="results"/> (null: not reported).
        /// </summary>
        public void Solve(Skeleton skeleton, Transform[] model, int root, int[] effectors, EffectorTarget[] targets, IkResult[] results = null)
        {
            if (model == null) Library.ThrowNull("model");
            CheckTargets(effectors, targets, results);
            fixed (Transform* m = model)
            fixed (int* e = effectors)
            fixed (EffectorTarget* t = targets)
            fixed (IkResult* r = results)
            {
                Solve(skeleton, m, model.Length, root, e, effectors.Length, t, r);
            }
        }

        /// <summary>As Solve on <paramref name="count"/> transforms and <paramref name="effectorCount"/> effectors, targets and (unless null) results at the pointers (e.g. NativeArray.GetUnsafePtr).</summary>
        public void Solve(Skeleton skeleton, Transform* model, int count, int root, int* effectors, int effectorCount, EffectorTarget* targets, IkResult* results = null)
        {
            if (skeleton == null) Library.ThrowNull("skeleton");
            if (count < 0) BatchArguments.ThrowCount("count", count);
            if (effectorCount < 0) BatchArguments.ThrowCount("effectorCount", effectorCount);
            using (Lease self = Lease())
            using (Lease s = skeleton.Lease())
            {
                Library.Check(NativeMethods.sinew_multi_fabrik_solve(
                    (SinewMultiFabrik*)self.Pointer, (SinewSkeleton*)s.Pointer, (SinewTransform*)model, (uint)count,
                    (uint)root, (uint*)effectors, (uint)effectorCount, (SinewEffectorTarget*)targets, (SinewIkResult*)results));
            }
        }

        /// <summary>As Solve, on <paramref name="pose"/>: the solved rotations go back as local rotations (joints outside the tree follow).</summary>
        public void SolvePose(Pose pose, int root, int[] effectors, EffectorTarget[] targets, IkResult[] results = null)
        {
            CheckTargets(effectors, targets, results);
            fixed (int* e = effectors)
            fixed (EffectorTarget* t = targets)
            fixed (IkResult* r = results)
            {
                SolvePose(pose, root, e, effectors.Length, t, r);
            }
        }

        /// <summary>As SolvePose with <paramref name="effectorCount"/> effectors, targets and (unless null) results at the pointers.</summary>
        public void SolvePose(Pose pose, int root, int* effectors, int effectorCount, EffectorTarget* targets, IkResult* results = null)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (effectorCount < 0) BatchArguments.ThrowCount("effectorCount", effectorCount);
            using (Lease self = Lease())
            using (Lease p = pose.Lease())
            {
                Library.Check(NativeMethods.sinew_multi_fabrik_solve_pose(
                    (SinewMultiFabrik*)self.Pointer, (SinewPose*)p.Pointer, (uint)root, (uint*)effectors,
                    (uint)effectorCount, (SinewEffectorTarget*)targets, (SinewIkResult*)results));
            }
        }

        static void CheckTargets(int[] effectors, EffectorTarget[] targets, IkResult[] results)
        {
            if (effectors == null) Library.ThrowNull("effectors");
            if (targets == null) Library.ThrowNull("targets");
            if (targets.Length != effectors.Length)
            {
                Library.ThrowLength("targets", "targets has " + targets.Length + " items for " + effectors.Length + " effectors");
            }
            if (results != null && results.Length != effectors.Length)
            {
                Library.ThrowLength("results", "results has " + results.Length + " items for " + effectors.Length + " effectors");
            }
        }
    }

    /// <summary>Argument checks of the SolveBatch overloads, before anything is pinned.</summary>
    static class BatchArguments
    {
        /// <summary>
        /// The arrays of <paramref name="count"/> chains of <paramref name="joints"/> transforms:
        /// exactly that long when <paramref name="exact"/>, else at least (reusable arrays with a
        /// count). Optional arrays may be null.
        /// </summary>
        internal static void Check(bool exact, int count, int joints, Transform[] chains, Vec3[] positions, Array first, string firstName, Array second, string secondName, IkResult[] results)
        {
            if (chains == null) Library.ThrowNull("chains");
            if (positions == null) Library.ThrowNull("effectorPositions");
            if (joints < 0) ThrowCount("jointCount", joints);
            if (exact)
            {
                if ((long)count * joints != chains.Length)
                {
                    Library.ThrowLength("chains", "chains has " + chains.Length + " transforms for " + count + " chains of " + joints);
                }
            }
            else if (count < 0 || count > positions.Length || (long)count * joints > chains.Length)
            {
                throw new ArgumentOutOfRangeException("chainCount", count, "chainCount must be within effectorPositions and chains (" + joints + " transforms per chain)");
            }
            Optional(exact, count, first, firstName);
            Optional(exact, count, second, secondName);
            Optional(exact, count, results, "results");
        }

        static void Optional(bool exact, int count, Array array, string name)
        {
            if (array != null && (exact ? array.Length != count : array.Length < count))
            {
                Library.ThrowLength(name, name + " has " + array.Length + " items for " + count + " chains");
            }
        }

        internal static void ThrowCount(string name, int value)
        {
            throw new ArgumentOutOfRangeException(name, value, name + " must not be negative");
        }
    }

    /// <summary>
    /// Unreal's HandIKRetargeting node: moves bones by (FK - IK) * PerAxisAlpha, FK and IK being
    /// the hand positions mixed by HandFkWeight.
    /// </summary>
    public sealed unsafe partial class HandIkRetargeting
    {
        /// <summary>
        /// Adds the offset to the translation of each listed bone of a model-space array (the
        /// hands are read from the same array); returns the offset.
        /// </summary>
        public Vec3 ApplyModel(Transform[] model, HandJoints hands, int[] bones)
        {
            if (model == null) Library.ThrowNull("model");
            if (bones == null) Library.ThrowNull("bones");
            Vec3 offset;
            using (Lease self = Lease())
            {
                fixed (Transform* m = model)
                fixed (int* b = bones)
                {
                    Library.Check(NativeMethods.sinew_hand_ik_retargeting_apply_model(
                        (SinewHandIkRetargeting*)self.Pointer, (SinewTransform*)m, (uint)model.Length, &hands.Native, (uint*)b, (uint)bones.Length, (SinewVec3*)&offset));
                }
            }
            return offset;
        }

        /// <summary>
        /// Moves each listed bone of <paramref name="pose"/> by the offset in model space
        /// (descendants follow); returns the offset.
        /// </summary>
        public Vec3 ApplyPose(Pose pose, HandJoints hands, int[] bones)
        {
            if (pose == null) Library.ThrowNull("pose");
            if (bones == null) Library.ThrowNull("bones");
            Vec3 offset;
            using (Lease self = Lease())
            using (Lease p = pose.Lease())
            {
                fixed (int* b = bones)
                {
                    Library.Check(NativeMethods.sinew_hand_ik_retargeting_apply_pose(
                        (SinewHandIkRetargeting*)self.Pointer, (SinewPose*)p.Pointer, &hands.Native, (uint*)b, (uint)bones.Length, (SinewVec3*)&offset));
                }
            }
            return offset;
        }
    }
}
