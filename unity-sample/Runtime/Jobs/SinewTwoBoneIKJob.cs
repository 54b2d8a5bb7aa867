// Two-bone IK as an Animation C# Job: runs inside the Animator's evaluation (on a worker
// thread), reads the chain from the animation stream, calls the raw binding
// (NativeMethods.sinew_two_bone_ik_solve) with pointers into a NativeArray, and writes the
// result back blended by weight. No managed objects: the struct holds stream/scene handles,
// NativeArrays and the native solver's address, kept alive by SinewTwoBoneIKJobDriver.

using System;
using Sinew.Native;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;
using UnityEngine.Animations;

namespace SinewUnity
{
    public unsafe struct SinewTwoBoneIKJob : IAnimationJob
    {
        /// <summary>Upper arm / thigh, forearm / shin, hand / foot, bound with Animator.BindStreamTransform.</summary>
        public TransformStreamHandle root;
        public TransformStreamHandle mid;
        public TransformStreamHandle tip;

        /// <summary>Effector and optional pole, bound with Animator.BindSceneTransform (any scene Transform).</summary>
        public TransformSceneHandle target;
        public TransformSceneHandle hint;
        /// <summary>1 when <see cref="hint"/> is bound.</summary>
        public int hasHint;

        public float weight;
        public float targetPositionWeight;
        public float targetRotationWeight;
        /// <summary>1 writes the mid and tip positions too (the solver's settings allow stretching).</summary>
        public int writePositions;

        /// <summary>The native solver (SinewTwoBoneIk*), owned by the driver; its settings' weight is 1.</summary>
        public IntPtr solver;

        /// <summary>Three model-space transforms: the buffer the native call solves in place.</summary>
        public NativeArray<SinewTransform> chain;
        /// <summary>[0]: the last solve's result, read by the driver after evaluation.</summary>
        public NativeArray<SinewIkResult> result;
        /// <summary>[0]: the last call's SinewStatus (0 is OK).</summary>
        public NativeArray<int> status;

        public void ProcessRootMotion(AnimationStream stream)
        {
        }

        public void ProcessAnimation(AnimationStream stream)
        {
            float w = weight;
            if (w <= 0f || solver == IntPtr.Zero || !target.IsValid(stream))
            {
                return;
            }

            Vector3 rootPosition = root.GetPosition(stream);
            Quaternion rootRotation = root.GetRotation(stream);
            Vector3 midPosition = mid.GetPosition(stream);
            Quaternion midRotation = mid.GetRotation(stream);
            Vector3 tipPosition = tip.GetPosition(stream);
            Quaternion tipRotation = tip.GetRotation(stream);

            // Model space = world space shifted to the root.
            SinewTransform* c = (SinewTransform*)chain.GetUnsafePtr();
            c[0] = Make(Vector3.zero, rootRotation);
            c[1] = Make(midPosition - rootPosition, midRotation);
            c[2] = Make(tipPosition - rootPosition, tipRotation);

            SinewVec3 effector = Vec(Vector3.Lerp(tipPosition, target.GetPosition(stream), targetPositionWeight) - rootPosition);
            SinewQuat effectorRotation = Rot(Quaternion.Slerp(tipRotation, target.GetRotation(stream), targetRotationWeight));
            SinewVec3 pole = default(SinewVec3);
            SinewVec3* polePointer = null;
            if (hasHint != 0 && hint.IsValid(stream))
            {
                pole = Vec(hint.GetPosition(stream) - rootPosition);
                polePointer = &pole;
            }

            SinewIkResult solved;
            SinewStatus s = NativeMethods.sinew_two_bone_ik_solve(
                (SinewTwoBoneIk*)solver, c, &effector, &effectorRotation, polePointer, &solved);
            status[0] = (int)s;
            if (s != SinewStatus.Ok)
            {
                return;
            }
            result[0] = solved;

            // World-space writes, parents first, each blended from the animated value by weight.
            root.SetRotation(stream, Quaternion.Slerp(rootRotation, Rot(c[0].rotation), w));
            if (writePositions != 0)
            {
                mid.SetPosition(stream, Vector3.Lerp(midPosition, Pos(c[1].translation) + rootPosition, w));
            }
            mid.SetRotation(stream, Quaternion.Slerp(midRotation, Rot(c[1].rotation), w));
            if (writePositions != 0)
            {
                tip.SetPosition(stream, Vector3.Lerp(tipPosition, Pos(c[2].translation) + rootPosition, w));
            }
            tip.SetRotation(stream, Quaternion.Slerp(tipRotation, Rot(c[2].rotation), w));
        }

        static SinewTransform Make(Vector3 p, Quaternion r)
        {
            SinewTransform t;
            t.translation = Vec(p);
            t.rotation = Rot(r);
            t.scale.x = 1f;
            t.scale.y = 1f;
            t.scale.z = 1f;
            return t;
        }

        static SinewVec3 Vec(Vector3 v)
        {
            SinewVec3 o;
            o.x = v.x;
            o.y = v.y;
            o.z = v.z;
            return o;
        }

        static SinewQuat Rot(Quaternion q)
        {
            SinewQuat o;
            o.x = q.x;
            o.y = q.y;
            o.z = q.z;
            o.w = q.w;
            return o;
        }

        static Vector3 Pos(SinewVec3 v)
        {
            return new Vector3(v.x, v.y, v.z);
        }

        static Quaternion Rot(SinewQuat q)
        {
            return new Quaternion(q.x, q.y, q.z, q.w);
        }
    }
}
