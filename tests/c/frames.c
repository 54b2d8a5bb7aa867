/*
 * Clips from frames: FRAMES lines (random frame counts, rates, masks, interpolations and the
 * wrap flag; samples at every frame time and forward across the loop point, with and without a
 * cursor).
 */

#include "abi_test.h"

int g_frames_id;

#define N_FRAMES 40
#define MAXF 12
#define MAXFS 48

/* One FRAMES case. */
static void frames_case(const Skel sk[2], int c)
{
    static const float RATES[6] = {24.0f, 30.0f, 60.0f, 120.0f, 29.97f, 0.0f};
    static SinewTransform frames[MAXF * NB];
    static ClipSample samples[MAXFS];
    const Skel *s = &sk[c % 4 == 3];
    uint32_t n = s->n, fc = 1u + (uint32_t)rng_below(MAXF), f, j, k, ns = 0;
    int id = g_frames_id++;
    float rate = c % 6 == 5 ? rng_float(1.0f, 240.0f) : RATES[c % 6];
    int32_t interp = (int32_t)(c % 3);
    uint32_t wrap = (uint32_t)((c / 3) % 2);
    uint8_t mask[NB];
    int has_mask = c % 4 != 0;
    SinewClip *clip = NULL;
    SinewClipCursor *cursor = NULL;
    SinewPose *out = pose_make(s, NULL), *check = pose_make(s, NULL);
    SinewStatus cst;
    float dur = 0.0f;

    for (f = 0; f < fc; f++) {
        rng_locals(s, &frames[f * n], 0);
    }
    for (j = 0; j < n; j++) {
        mask[j] = (uint8_t)rng_below(2);
    }
    if (c % 10 == 9) {
        rate = -rate; /* refused */
    }
    cst = sinew_clip_create_from_frames(s->skel, frames, fc, n, rate, has_mask ? mask : NULL,
                                        interp, wrap, &clip);
    if (cst == SINEW_STATUS_OK) {
        EXPECT(sinew_clip_duration(clip, &dur), SINEW_STATUS_OK);
        EXPECT(sinew_clip_cursor_create(clip, &cursor), SINEW_STATUS_OK);
        /* Every frame time (k / rate in double, rounded once), then forward playback at 60 Hz
         * from before the start to past the second loop. */
        for (k = 0; k < fc && ns < MAXFS; k++) {
            ClipSample *sm = &samples[ns++];
            sm->t = (float)((double)k / (double)rate);
            sm->looping = k % 2;
            sm->cursor = 0;
        }
        {
            float t = -0.05f, step = dur > 0.0f ? dur / 14.0f : 1.0f / 60.0f;
            while (ns < MAXFS && t < 2.5f * dur + step) {
                ClipSample *sm = &samples[ns++];
                sm->t = t;
                sm->looping = (uint32_t)(c % 5 != 0);
                sm->cursor = (int)(ns % 2);
                t += step * rng_float(0.5f, 1.5f);
            }
        }
        for (k = 0; k < ns; k++) {
            ClipSample *sm = &samples[k];
            clip_take_sample(clip, cursor, sm, out, check, n, "frames", id);
        }
    } else {
        CHECK(clip == NULL, "frames case %d: out_clip written on error", id);
    }

    print_line_start("FRAMES", id, s);
    printf(" FC %" PRIu32 " RATE", fc);
    pf(rate);
    printf(" INTERP %d WRAP %" PRIu32 " MASK", (int)interp, wrap);
    if (has_mask) {
        for (j = 0; j < n; j++) {
            printf(" %d", (int)mask[j]);
        }
    } else {
        printf(" -");
    }
    print_xfs("FR", frames, fc * n);
    printf(" CST %d DUR", (int)cst);
    pf(dur);
    print_samples_end(samples, ns, n, clip, cursor, out, check);
}

void clip_frames(void) { run_skel_cases("A parity: clips from frames", 0, 1, N_FRAMES, frames_case); }
