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

typedef struct {
    float t;
    uint32_t looping;
    int cursor;
    SinewStatus st;
    SinewTransform out[NB];
} FrameSample;

/* One FRAMES case. */
static void frames_case(const Skel sk[2], int c)
{
    static const float RATES[6] = {24.0f, 30.0f, 60.0f, 120.0f, 29.97f, 0.0f};
    static SinewTransform frames[MAXF * NB];
    static FrameSample samples[MAXFS];
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
    SinewTransform plain[NB];
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
            FrameSample *sm = &samples[ns++];
            sm->t = (float)((double)k / (double)rate);
            sm->looping = k % 2;
            sm->cursor = 0;
        }
        {
            float t = -0.05f, step = dur > 0.0f ? dur / 14.0f : 1.0f / 60.0f;
            while (ns < MAXFS && t < 2.5f * dur + step) {
                FrameSample *sm = &samples[ns++];
                sm->t = t;
                sm->looping = (uint32_t)(c % 5 != 0);
                sm->cursor = (int)(ns % 2);
                t += step * rng_float(0.5f, 1.5f);
            }
        }
        for (k = 0; k < ns; k++) {
            FrameSample *sm = &samples[k];
            sm->st = sinew_clip_sample(clip, sm->cursor ? cursor : NULL, sm->t, sm->looping, out);
            pose_read(out, sm->out, n);
            CHECK(sm->st == SINEW_STATUS_OK, "frames case %d: sample at %g returned %s", id,
                  (double)sm->t, status_name(sm->st));
            CHECK(all_finite_unit(sm->out, n), "frames case %d: sample at %g not finite/unit", id,
                  (double)sm->t);
            EXPECT(sinew_clip_sample(clip, NULL, sm->t, sm->looping, check), SINEW_STATUS_OK);
            pose_read(check, plain, n);
            CHECK(memcmp(plain, sm->out, n * sizeof plain[0]) == 0,
                  "frames case %d: sample at %g with a cursor differs from without", id,
                  (double)sm->t);
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
    printf(" SAMPLES %" PRIu32, ns);
    for (k = 0; k < ns; k++) {
        printf(" T");
        pf(samples[k].t);
        printf(" L %" PRIu32 " C %d ST %d", samples[k].looping, samples[k].cursor,
               (int)samples[k].st);
        print_pose_tag("OUT", samples[k].out, n);
    }
    printf("\n");
    sinew_clip_cursor_destroy(cursor);
    sinew_clip_destroy(clip);
    sinew_pose_destroy(out);
    sinew_pose_destroy(check);
}

void clip_frames(void) { run_skel_cases("A parity: clips from frames", 0, 1, N_FRAMES, frames_case); }
