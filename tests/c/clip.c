/*
 * Clip parity: CLIP lines (tracks, clears and samples, with and without a cursor), and huge
 * finite clips.
 */

#include "abi_test.h"

/* ================================================================ clips */

int g_clip_id;

#define N_CLIP 60
#define MAXS 40

/* One CLIP case: random tracks, then samples forward, backward, at random and at key times. */
static void clip_case(const Skel sk[2], int c)
{
    static ClipSample samples[MAXS];
    const Skel *s = &sk[c % 4 == 3];
    uint32_t n = s->n, nt, ns = 0, seg;
    int id = g_clip_id++;
    float dur = c % 8 == 7 ? 0.0f : rng_float(0.5f, 3.0f), span = dur > 0.0f ? dur : 1.0f;
    TrackSpec tracks[MAXK];
    SinewStatus tst[MAXK], cst;
    SinewClip *clip = clip_make(s, dur, c, c % 6 == 5, tracks, tst, &nt, &cst);
    SinewClipCursor *cursor = NULL;
    SinewPose *out = pose_make(s, NULL), *check = pose_make(s, NULL);

    if (clip == NULL) {
        sinew_pose_destroy(out);
        sinew_pose_destroy(check);
        return;
    }
    EXPECT(sinew_clip_cursor_create(clip, &cursor), SINEW_STATUS_OK);
    /* Forward, backward, random, then exact key times and the ends. */
    for (seg = 0; seg < 4; seg++) {
        uint32_t count = seg == 0 ? 14 : seg == 1 ? 8 : seg == 2 ? 10 : 6, j;
        float t = seg == 0 ? -0.25f * span : 2.2f * span;
        for (j = 0; j < count && ns < MAXS; j++) {
            ClipSample *sm = &samples[ns++];
            switch (seg) {
            case 0: t += span * rng_float(0.02f, 0.3f); break;
            case 1: t -= span * rng_float(0.05f, 0.4f); break;
            case 2: t = rng_float(-span, 3.0f * span); break;
            default:
                t = j == 0 ? 0.0f : j == 1 ? dur : j == 2 ? -0.0f
                    : tracks[0].times[(j - 3) % tracks[0].n];
                break;
            }
            sm->t = t;
            sm->looping = (uint32_t)((c + (int)seg + (seg == 3 ? (int)j : 0)) % 2);
            sm->cursor = c % 3 == 0 ? 0 : c % 3 == 1 ? 1 : (int)(j % 2);
            clip_take_sample(clip, cursor, sm, out, check, n, "clip", id);
        }
    }

    print_line_start("CLIP", id, s);
    print_clip(dur, cst, tracks, tst, nt);
    print_samples_end(samples, ns, n, clip, cursor, out, check);
}

void clip_tracks(void)
{
    run_skel_cases("A parity: clips", 0, 1, N_CLIP, clip_case);
}

void clip_huge(void)
{
    Skel s;
    SinewClip *clip = NULL;
    SinewPose *out;
    SinewTransform before[NB];
    TrackSpec k;
    int c, j;

    g_section = "B huge finite clips";
    if (!skel_make(&s, 0)) {
        return;
    }
    out = pose_make(&s, NULL);
    for (c = 0; c < 24; c++) {
        int32_t prop = (int32_t)(c % 3), interp = (int32_t)((c / 3) % 4);
        if (!EXPECT(sinew_clip_create(s.skel, 1.0f, &clip), SINEW_STATUS_OK)) {
            continue;
        }
        base_track(&k, prop, interp);
        k.joint = 2;
        for (j = 0; j < 3; j++) {
            float sign = c % 2 && j == 1 ? -1.0f : 1.0f;
            if (prop == SINEW_TRACK_PROPERTY_ROTATION) {
                float scale = FLT_MAX * rng_float(0.5f, 1.0f);
                k.vals[j] = qscale(rng_quat(), scale);
                k.tin[j] = qt(FLT_MAX, -FLT_MAX, FLT_MAX * sign, FLT_MAX);
                k.tout[j] = qt(FLT_MAX * sign, FLT_MAX, -FLT_MAX, FLT_MAX);
            } else {
                k.vals[j] = qt(FLT_MAX * sign, FLT_MAX, -FLT_MAX * sign, 0);
                k.tin[j] = qt(c % 4 ? FLT_MAX : 0.0f, -FLT_MAX * sign, FLT_MAX, 0);
                k.tout[j] = qt(FLT_MAX, FLT_MAX * sign, c % 4 ? -FLT_MAX : 0.0f, 0);
            }
        }
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
        for (j = 0; j < 12; j++) {
            float t = j < 10 ? 0.1f * (float)j + 0.03f : j == 10 ? 0.25f : 0.75f;
            SinewStatus st;
            pose_read(out, before, SJ);
            st = sinew_clip_sample(clip, NULL, t, (uint32_t)(j % 2), out);
            check_huge_result("clip sample", c * 100 + j, st, out, before, SJ);
        }
        sinew_clip_destroy(clip);
        clip = NULL;
    }
    sinew_pose_destroy(out);
    sinew_skeleton_destroy(s.skel);
}
