// Shows each Sinew component's last result in the Game view (sample code: OnGUI allocates).

using UnityEngine;

namespace SinewUnity.Samples
{
    public sealed class SinewPlaygroundHud : MonoBehaviour
    {
        public SinewTwoBoneIK arm;
        public SinewFabrikChain tentacle;
        public SinewCcdChain tail;
        public SinewHandIKRetargeting hands;
        public SinewTwoBoneIKJobDriver jobArm;

        void OnGUI()
        {
            float y = 10f;
            if (arm != null)
            {
                GUI.Label(new Rect(10f, y, 600f, 20f), "Two-bone IK arm: " + arm.LastResult);
                y += 20f;
            }
            if (tentacle != null)
            {
                GUI.Label(new Rect(10f, y, 600f, 20f), "FABRIK tentacle: " + tentacle.LastResult);
                y += 20f;
            }
            if (tail != null)
            {
                GUI.Label(new Rect(10f, y, 600f, 20f), "CCD tail: " + tail.LastResult);
                y += 20f;
            }
            if (hands != null)
            {
                GUI.Label(new Rect(10f, y, 600f, 20f), "Hand IK retargeting offset: " + hands.LastOffset);
                y += 20f;
            }
            if (jobArm != null)
            {
                GUI.Label(new Rect(10f, y, 600f, 20f), "Animation-job arm: " + jobArm.LastStatus + ", " + jobArm.LastResult);
            }
        }
    }
}
