// Moves a target along a Lissajous curve around where it started, so the IK has something to
// follow in the playground.

using UnityEngine;

namespace SinewUnity.Samples
{
    public sealed class SinewTargetMotion : MonoBehaviour
    {
        [Tooltip("Half-extent of the motion on each world axis.")]
        public Vector3 amplitude = new Vector3(0.4f, 0.3f, 0.2f);
        [Tooltip("Angular frequency on each axis (radians per second).")]
        public Vector3 frequency = new Vector3(0.9f, 1.3f, 0.7f);

        Vector3 m_Center;

        void Start()
        {
            m_Center = transform.position;
        }

        void Update()
        {
            float t = Time.time;
            transform.position = m_Center + new Vector3(
                amplitude.x * Mathf.Sin(t * frequency.x),
                amplitude.y * Mathf.Sin(t * frequency.y),
                amplitude.z * Mathf.Cos(t * frequency.z));
        }
    }
}
