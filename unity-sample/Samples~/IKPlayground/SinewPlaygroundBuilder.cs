// Builds the IK playground at run time from primitives, so the sample needs no binary scene
// or model assets: an arm (SinewTwoBoneIK), a tentacle with cone limits (SinewFabrikChain), a
// tail with hinge limits (SinewCcdChain), a hand-retargeting rig (SinewHandIKRetargeting) and
// a second arm driven by the Animation C# Jobs path (SinewTwoBoneIKJobDriver). Every bone
// points along its local +Y; the visible capsules are children of the joints, not joints.

using UnityEngine;

namespace SinewUnity.Samples
{
    public sealed class SinewPlaygroundBuilder : MonoBehaviour
    {
        public bool buildArm = true;
        public bool buildTentacle = true;
        public bool buildTail = true;
        public bool buildHands = true;
        public bool buildJobArm = true;

        void Awake()
        {
            SinewPlaygroundHud hud = gameObject.AddComponent<SinewPlaygroundHud>();
            if (buildArm)
            {
                hud.arm = BuildArm(new Vector3(-2f, 1.5f, 0f));
            }
            if (buildTentacle)
            {
                hud.tentacle = BuildTentacle(new Vector3(0f, 0f, 0f));
            }
            if (buildTail)
            {
                hud.tail = BuildTail(new Vector3(2f, 0f, 0f));
            }
            if (buildHands)
            {
                hud.hands = BuildHands(new Vector3(0f, 0f, -2f));
            }
            if (buildJobArm)
            {
                hud.jobArm = BuildJobArm(new Vector3(-2f, 1.5f, -2f));
            }
        }

        // ---- pieces -------------------------------------------------------------------------

        /// <summary>A joint at <paramref name="localPosition"/> with a capsule along +Y of <paramref name="length"/>.</summary>
        static Transform Joint(string name, Transform parent, Vector3 localPosition, float length, float thickness)
        {
            GameObject joint = new GameObject(name);
            joint.transform.SetParent(parent, false);
            joint.transform.localPosition = localPosition;
            if (length > 0f)
            {
                GameObject capsule = GameObject.CreatePrimitive(PrimitiveType.Capsule);
                capsule.name = name + " (mesh)";
                Destroy(capsule.GetComponent<Collider>());
                capsule.transform.SetParent(joint.transform, false);
                capsule.transform.localPosition = new Vector3(0f, length * 0.5f, 0f);
                capsule.transform.localScale = new Vector3(thickness, length * 0.5f, thickness);
            }
            return joint.transform;
        }

        static Transform Marker(string name, Vector3 position, float size, bool moving)
        {
            GameObject sphere = GameObject.CreatePrimitive(PrimitiveType.Sphere);
            sphere.name = name;
            Destroy(sphere.GetComponent<Collider>());
            sphere.transform.position = position;
            sphere.transform.localScale = new Vector3(size, size, size);
            if (moving)
            {
                sphere.AddComponent<SinewTargetMotion>();
            }
            return sphere.transform;
        }

        /// <summary>A chain of <paramref name="count"/> joints along +Y; returns the joints, root first.</summary>
        static Transform[] Chain(string name, Transform parent, int count, float segment, float thickness)
        {
            Transform[] joints = new Transform[count];
            Transform p = parent;
            for (int i = 0; i < count; i++)
            {
                bool last = i == count - 1;
                joints[i] = Joint(name + " " + i, p, i == 0 ? Vector3.zero : new Vector3(0f, segment, 0f),
                    last ? 0f : segment, thickness * (1f - 0.6f * i / count));
                p = joints[i];
            }
            return joints;
        }

        // Components are added to inactive objects and configured before OnEnable runs.
        static GameObject Holder(string name, Vector3 position)
        {
            GameObject go = new GameObject(name);
            go.SetActive(false);
            go.transform.position = position;
            return go;
        }

        // ---- rigs ---------------------------------------------------------------------------

        SinewTwoBoneIK BuildArm(Vector3 shoulder)
        {
            GameObject rig = Holder("Arm (SinewTwoBoneIK)", shoulder);
            Transform upper = Joint("Upper arm", rig.transform, Vector3.zero, 0.5f, 0.12f);
            upper.localRotation = Quaternion.Euler(0f, 0f, -100f);
            Transform fore = Joint("Forearm", upper, new Vector3(0f, 0.5f, 0f), 0.45f, 0.1f);
            fore.localRotation = Quaternion.Euler(0f, 0f, 20f);
            Transform hand = Joint("Hand", fore, new Vector3(0f, 0.45f, 0f), 0.12f, 0.08f);

            SinewTwoBoneIK ik = rig.AddComponent<SinewTwoBoneIK>();
            ik.root = upper;
            ik.mid = fore;
            ik.tip = hand;
            ik.target = Marker("Arm target", shoulder + new Vector3(0.6f, -0.3f, 0.2f), 0.1f, true);
            ik.hint = Marker("Elbow hint", shoulder + new Vector3(0.3f, -0.2f, -0.8f), 0.06f, false);
            ik.targetRotationWeight = 0f;
            ik.soften = 0.95f;
            rig.SetActive(true);
            return ik;
        }

        SinewFabrikChain BuildTentacle(Vector3 basePosition)
        {
            GameObject rig = Holder("Tentacle (SinewFabrikChain)", basePosition);
            Transform[] joints = Chain("Tentacle", rig.transform, 9, 0.25f, 0.14f);

            SinewFabrikChain fabrik = rig.AddComponent<SinewFabrikChain>();
            fabrik.root = joints[0];
            fabrik.tip = joints[joints.Length - 1];
            fabrik.target = Marker("Tentacle target", basePosition + new Vector3(0.5f, 1.6f, 0.3f), 0.1f, true);
            fabrik.jointLimits.Clear();
            for (int i = 0; i < joints.Length; i++)
            {
                // The root swings freely; every other joint stays inside a 35 x 25 degree cone.
                fabrik.jointLimits.Add(i == 0 ? SinewJointLimit.Free : SinewJointLimit.Cone(35f, 25f));
            }
            rig.SetActive(true);
            return fabrik;
        }

        SinewCcdChain BuildTail(Vector3 basePosition)
        {
            GameObject rig = Holder("Tail (SinewCcdChain)", basePosition);
            Transform[] joints = Chain("Tail", rig.transform, 7, 0.3f, 0.12f);

            SinewCcdChain ccd = rig.AddComponent<SinewCcdChain>();
            ccd.root = joints[0];
            ccd.tip = joints[joints.Length - 1];
            ccd.target = Marker("Tail target", basePosition + new Vector3(0.8f, 1.2f, 0f), 0.1f, true);
            ccd.maxIterations = 16;
            ccd.jointLimits.Clear();
            ccd.jointTuning.Clear();
            for (int i = 0; i < joints.Length; i++)
            {
                // Hinges about local Z: the tail curls in one plane, at most 50 degrees per joint.
                ccd.jointLimits.Add(SinewJointLimit.Hinge(Vector3.forward, -50f, 50f));
                SinewCcdJoint tuning = SinewCcdJoint.Unlimited;
                tuning.weight = 0.8f;
                ccd.jointTuning.Add(tuning);
            }
            rig.SetActive(true);
            return ccd;
        }

        SinewHandIKRetargeting BuildHands(Vector3 basePosition)
        {
            // FK hands move with the "animation"; the IK hand bones hang under ik_hand_root,
            // authored for a slightly different skeleton (offset), and get pulled onto them.
            GameObject rig = Holder("Hands (SinewHandIKRetargeting)", basePosition);
            Transform fkRight = Marker("hand_r (FK)", basePosition + new Vector3(0.3f, 1.2f, 0.3f), 0.08f, true);
            Transform fkLeft = Marker("hand_l (FK)", basePosition + new Vector3(-0.3f, 1.2f, 0.3f), 0.08f, false);
            fkLeft.SetParent(fkRight, true);
            Transform ikRoot = Joint("ik_hand_root", rig.transform, new Vector3(0.05f, 1.1f, 0.25f), 0f, 0f);
            Transform ikRight = Marker("ik_hand_r", Vector3.zero, 0.05f, false);
            ikRight.SetParent(ikRoot, false);
            ikRight.localPosition = new Vector3(0.25f, 0f, 0f);
            Transform ikLeft = Marker("ik_hand_l", Vector3.zero, 0.05f, false);
            ikLeft.SetParent(ikRoot, false);
            ikLeft.localPosition = new Vector3(-0.35f, 0f, 0f);

            SinewHandIKRetargeting retarget = rig.AddComponent<SinewHandIKRetargeting>();
            retarget.rightHandFK = fkRight;
            retarget.leftHandFK = fkLeft;
            retarget.rightHandIK = ikRight;
            retarget.leftHandIK = ikLeft;
            retarget.bonesToMove.Add(ikRoot);
            retarget.handFKWeight = 0.5f;
            rig.SetActive(true);
            return retarget;
        }

        SinewTwoBoneIKJobDriver BuildJobArm(Vector3 shoulder)
        {
            // An Animator without a controller: the job solves from the bind pose every frame.
            // With a controller, it solves on top of the controller's pose.
            GameObject rig = Holder("Arm (SinewTwoBoneIKJobDriver)", shoulder);
            rig.AddComponent<Animator>();
            Transform upper = Joint("Upper arm", rig.transform, Vector3.zero, 0.5f, 0.12f);
            upper.localRotation = Quaternion.Euler(0f, 0f, -100f);
            Transform fore = Joint("Forearm", upper, new Vector3(0f, 0.5f, 0f), 0.45f, 0.1f);
            fore.localRotation = Quaternion.Euler(0f, 0f, 20f);
            Transform hand = Joint("Hand", fore, new Vector3(0f, 0.45f, 0f), 0.12f, 0.08f);

            SinewTwoBoneIKJobDriver job = rig.AddComponent<SinewTwoBoneIKJobDriver>();
            job.root = upper;
            job.mid = fore;
            job.tip = hand;
            job.target = Marker("Job arm target", shoulder + new Vector3(0.6f, -0.3f, 0.2f), 0.1f, true);
            job.hint = Marker("Job elbow hint", shoulder + new Vector3(0.3f, -0.2f, -0.8f), 0.06f, false);
            job.targetRotationWeight = 0f;
            job.allowStretching = true;
            rig.SetActive(true);
            return job;
        }
    }
}
