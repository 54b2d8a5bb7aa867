/*
 * Crossfade parity: XFADE lines (a controller driven through a script), and huge finite
 * clips through the controller.
 */

#include "abi_test.h"

/* ================================================================ crossfade */

#define MAXOPS 200
#define NCLIPS 4
#define WCAP 8

typedef struct {
    int kind; /* 0 play, 1 fade_to, 2 update */
    int clip;
    float value; /* fade duration or dt */
    int32_t curve;
    uint32_t looping;
    int pass_queued;
    SinewStatus st;
    uint32_t queued;
    SinewTransform out[SJ];
    uint32_t wcount;
    uint32_t wcap;
    uint32_t fades;
    float w[WCAP];
} XOp;

static XOp g_ops[MAXOPS];
static int g_nops;
static int g_xf_playing;
int g_xfade_id;

typedef struct {
    SinewCrossfade *cf;
    SinewClip *clips[NCLIPS];
    SinewPose *out;
    uint32_t maxf;
    int id;
} XRun;

static XOp *xop(void)
{
    if (g_nops >= MAXOPS) {
        CHECK(0, "crossfade script longer than %d ops", MAXOPS);
        return NULL;
    }
    memset(&g_ops[g_nops], 0, sizeof g_ops[0]);
    return &g_ops[g_nops++];
}

static uint32_t xf_fade_count(const XRun *x)
{
    uint32_t f = 12345;
    EXPECT(sinew_crossfade_fade_count(x->cf, &f), SINEW_STATUS_OK);
    return f;
}

static void xf_play(XRun *x, int clip, uint32_t looping)
{
    XOp *o = xop();
    if (o == NULL) {
        return;
    }
    o->kind = 0;
    o->clip = clip;
    o->looping = looping;
    o->st = sinew_crossfade_play(x->cf, x->clips[clip], looping);
    CHECK(o->st == SINEW_STATUS_OK, "crossfade %d: play returned %s", x->id, status_name(o->st));
    CHECK(xf_fade_count(x) == 0, "crossfade %d: play left fades queued", x->id);
    g_xf_playing = 1;
}

static void xf_fade(XRun *x, int clip, float d, int32_t curve, uint32_t looping)
{
    XOp *o = xop();
    uint32_t before, after;
    if (o == NULL) {
        return;
    }
    before = xf_fade_count(x);
    o->kind = 1;
    o->clip = clip;
    o->value = d;
    o->curve = curve;
    o->looping = looping;
    o->pass_queued = rng_below(4) != 0;
    o->queued = 7;
    o->st = sinew_crossfade_fade_to(x->cf, x->clips[clip], d, curve, looping,
                                    o->pass_queued ? &o->queued : NULL);
    after = xf_fade_count(x);
    if (o->st == SINEW_STATUS_OK) {
        if (o->pass_queued) {
            CHECK(o->queued <= 1, "crossfade %d: out_queued %u", x->id, (unsigned)o->queued);
            if (o->queued == 0) {
                CHECK(after == before, "crossfade %d: an ignored request changed the queue",
                      x->id);
            }
        }
        g_xf_playing = 1;
    } else {
        CHECK(o->st == SINEW_STATUS_OUT_OF_RANGE && before == x->maxf,
              "crossfade %d: fade_to returned %s with %u of %u fades queued", x->id,
              status_name(o->st), (unsigned)before, (unsigned)x->maxf);
        CHECK(after == before && (!o->pass_queued || o->queued == 7),
              "crossfade %d: refused fade_to changed the queue or out_queued", x->id);
    }
}

static void xf_update(XRun *x, float dt)
{
    XOp *o = xop();
    uint32_t i;
    float sum = 0.0f;
    if (o == NULL) {
        return;
    }
    o->kind = 2;
    o->value = dt;
    o->st = sinew_crossfade_update(x->cf, dt);
    CHECK(o->st == SINEW_STATUS_OK, "crossfade %d: update(%g) returned %s", x->id, (double)dt,
          status_name(o->st));
    EXPECT(sinew_crossfade_get_pose(x->cf, x->out), SINEW_STATUS_OK);
    pose_read(x->out, o->out, SJ);
    o->wcap = rng_below(8) == 0 ? (uint32_t)rng_below(2) : WCAP;
    for (i = 0; i < WCAP; i++) {
        o->w[i] = -1.0f;
    }
    EXPECT(sinew_crossfade_get_weights(x->cf, o->w, o->wcap, &o->wcount), SINEW_STATUS_OK);
    o->fades = xf_fade_count(x);
    CHECK(all_finite_unit(o->out, SJ), "crossfade %d: output not finite/unit", x->id);
    CHECK(o->fades <= x->maxf, "crossfade %d: %u fades queued of %u", x->id, (unsigned)o->fades,
          (unsigned)x->maxf);
    CHECK(o->wcount == o->fades + (uint32_t)g_xf_playing,
          "crossfade %d: %u weights for %u fades (playing %d)", x->id, (unsigned)o->wcount,
          (unsigned)o->fades, g_xf_playing);
    for (i = 0; i < WCAP; i++) {
        if (i < o->wcount && i < o->wcap) {
            CHECK(o->w[i] >= 0.0f && o->w[i] <= 1.0f, "crossfade %d: weight %g", x->id,
                  (double)o->w[i]);
            sum += o->w[i];
        } else {
            CHECK(o->w[i] == -1.0f, "crossfade %d: weight %u written beyond the count/capacity",
                  x->id, (unsigned)i);
        }
    }
    if (o->wcount > 0 && o->wcap >= o->wcount) {
        CHECK(fabsf(sum - 1.0f) < 1e-5f, "crossfade %d: weights sum to %g", x->id, (double)sum);
    }
}

static float rng_dt(void)
{
    switch (rng_below(10)) {
    case 0: return 0.0f;
    case 1: return rng_float(0.2f, 0.7f);
    default: return rng_float(1.0f / 120.0f, 1.0f / 20.0f);
    }
}

static void xf_updates(XRun *x, int frames)
{
    int i;
    for (i = 0; i < frames; i++) {
        xf_update(x, rng_dt());
    }
}

#define N_XFADE 29

void crossfade_script(void)
{
    static const uint32_t maxfs[6] = {1, 2, 3, 4, 256, 2};
    Skel s;
    int c;

    g_section = "A parity: crossfade";
    if (!skel_make(&s, 0)) {
        return;
    }
    for (c = 0; c < N_XFADE; c++) {
        XRun x;
        TrackSpec tracks[NCLIPS][MAXK];
        SinewStatus tst[NCLIPS][MAXK], cst[NCLIPS];
        uint32_t nt[NCLIPS], k;
        float durs[NCLIPS];
        int op, j;
        int32_t curve = (int32_t)(c % 3);
        uint32_t loop = (uint32_t)(c % 2);

        x.id = g_xfade_id++;
        x.maxf = maxfs[c % 6];
        x.cf = NULL;
        for (k = 0; k < NCLIPS; k++) {
            durs[k] = k == 3 && c % 4 == 1 ? 0.0f : rng_float(0.3f, 1.5f);
            x.clips[k] = clip_make(&s, durs[k], c + (int)k, 0, tracks[k], tst[k], &nt[k], &cst[k]);
        }
        x.out = pose_make(&s, NULL);
        if (!EXPECT(sinew_crossfade_create(s.skel, x.maxf, &x.cf), SINEW_STATUS_OK)) {
            continue;
        }
        g_nops = 0;
        g_xf_playing = 0;

        /* Before anything plays: the rest pose, or a fade that simply plays. */
        if (c % 4 == 0) {
            xf_update(&x, 1.0f / 60.0f);
        }
        if (c % 4 == 1) {
            xf_fade(&x, 0, 0.3f, curve, loop);
        } else {
            xf_play(&x, 0, loop);
        }
        xf_updates(&x, 5);
        xf_fade(&x, 1, rng_float(0.1f, 0.5f), curve, loop);
        xf_updates(&x, 3);
        xf_fade(&x, 1, 0.3f, (curve + 1) % 3, 1 - loop); /* the last request: ignored */
        xf_fade(&x, 2, rng_float(0.1f, 0.5f), (curve + 1) % 3, loop);
        xf_updates(&x, 2);
        xf_fade(&x, 3, rng_float(0.1f, 0.5f), (curve + 2) % 3, 1 - loop);
        xf_fade(&x, 0, rng_float(0.1f, 0.5f), c % 2 ? SINEW_FADE_CURVE_LINEAR
                                                  : SINEW_FADE_CURVE_SMOOTH,
                loop); /* may find the queue full */
        xf_updates(&x, 30);
        xf_fade(&x, 2, 0.0f, curve, loop); /* zero duration: plays at once */
        xf_fade(&x, 2, 0.2f, (curve + 1) % 3, loop); /* ignored */
        xf_updates(&x, 3);
        xf_fade(&x, 1, rng_float(0.2f, 0.6f), SINEW_FADE_CURVE_INERTIALIZE, loop);
        xf_updates(&x, 4);
        xf_fade(&x, 3, rng_float(0.2f, 0.6f), SINEW_FADE_CURVE_INERTIALIZE, 1 - loop);
        xf_updates(&x, 25);
        xf_play(&x, 0, 1 - loop);
        xf_updates(&x, 3);
        xf_fade(&x, 1, 0.5f, SINEW_FADE_CURVE_LINEAR, loop);
        xf_updates(&x, 2);
        xf_fade(&x, 0, 0.5f, SINEW_FADE_CURVE_SMOOTH, loop); /* back to the current clip */
        xf_updates(&x, 2);
        xf_fade(&x, 2, 0.3f, SINEW_FADE_CURVE_INERTIALIZE, loop); /* drops the queue */
        xf_updates(&x, 20);
        for (j = 0; j < 3; j++) {
            uint32_t looping = (uint32_t)rng_below(2);
            int32_t how = (int32_t)rng_below(3);
            float duration = rng_float(0.0f, 0.4f);
            xf_fade(&x, rng_below(NCLIPS), duration, how, looping);
            xf_updates(&x, 1 + rng_below(4));
        }

        printf("XFADE %d", x.id);
        print_skel(&s);
        printf(" MAXF %" PRIu32 " CLIPS %d", x.maxf, NCLIPS);
        for (k = 0; k < NCLIPS; k++) {
            print_clip(durs[k], cst[k], tracks[k], tst[k], nt[k]);
        }
        printf(" OPS %d", g_nops);
        for (op = 0; op < g_nops; op++) {
            const XOp *o = &g_ops[op];
            switch (o->kind) {
            case 0:
                printf(" PLAY %d %" PRIu32 " ST %d", o->clip, o->looping, (int)o->st);
                break;
            case 1:
                printf(" FADE %d", o->clip);
                pf(o->value);
                printf(" %" PRId32 " %" PRIu32 " ST %d Q", o->curve, o->looping, (int)o->st);
                if (o->pass_queued && o->st == SINEW_STATUS_OK) {
                    printf(" %" PRIu32, o->queued);
                } else {
                    printf(" -");
                }
                break;
            default:
                printf(" UPD");
                pf(o->value);
                printf(" ST %d", (int)o->st);
                print_pose_tag("OUT", o->out, SJ);
                printf(" W %" PRIu32 " %" PRIu32, o->wcount, o->wcap);
                for (k = 0; k < o->wcount && k < o->wcap; k++) {
                    pf(o->w[k]);
                }
                printf(" FC %" PRIu32, o->fades);
                break;
            }
        }
        printf("\n");
        sinew_crossfade_destroy(x.cf);
        for (k = 0; k < NCLIPS; k++) {
            sinew_clip_destroy(x.clips[k]);
        }
        sinew_pose_destroy(x.out);
    }
    sinew_skeleton_destroy(s.skel);
}

/* ================================================================ crossfade */

/* A clip of `s` with a linear translation and rotation track on every joint. */
static SinewClip *simple_clip(const Skel *s, float dur)
{
    SinewClip *clip = NULL;
    TrackSpec k;
    uint32_t j;
    if (!EXPECT(sinew_clip_create(s->skel, dur, &clip), SINEW_STATUS_OK)) {
        return NULL;
    }
    for (j = 0; j < s->n; j++) {
        rng_track(&k, s, dur, SINEW_INTERPOLATION_LINEAR, SINEW_TRACK_PROPERTY_TRANSLATION);
        k.joint = j;
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
        rng_track(&k, s, dur, SINEW_INTERPOLATION_SLERP, SINEW_TRACK_PROPERTY_ROTATION);
        k.joint = j;
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
    }
    return clip;
}

/* After a refused call on `cf`: it behaves exactly as `twin`, which never saw the call. */

/* Huge finite clips through the controller: fades and inertialization between poses near
 * +-FLT_MAX never give NaN or infinity with OK, and a failed update leaves the output pose. */
static SinewClip *huge_clip(const Skel *s, float sign, int interp)
{
    SinewClip *clip = NULL;
    TrackSpec k;
    uint32_t j, i;
    if (!EXPECT(sinew_clip_create(s->skel, 1.0f, &clip), SINEW_STATUS_OK)) {
        return NULL;
    }
    for (j = 0; j < s->n; j++) {
        base_track(&k, SINEW_TRACK_PROPERTY_TRANSLATION, interp);
        k.joint = j;
        for (i = 0; i < 3; i++) {
            k.vals[i] = qt(FLT_MAX * sign, -FLT_MAX * sign * (float)(i % 2), FLT_MAX, 0);
        }
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
        base_track(&k, SINEW_TRACK_PROPERTY_SCALE, interp);
        k.joint = j;
        for (i = 0; i < 3; i++) {
            k.vals[i] = qt(FLT_MAX, FLT_MAX * 0.75f, sign * FLT_MAX, 0);
        }
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
    }
    return clip;
}

void crossfade_huge(void)
{
    Skel s;
    SinewClip *hp, *hn, *hc, *plain;
    SinewCrossfade *cf = NULL;
    SinewPose *out;
    SinewTransform before[NB], now[NB];
    TrackSpec k;
    int curve, j;

    g_section = "B huge finite crossfade";
    if (!skel_make(&s, 0)) {
        return;
    }
    hp = huge_clip(&s, 1.0f, SINEW_INTERPOLATION_LINEAR);
    hn = huge_clip(&s, -1.0f, SINEW_INTERPOLATION_STEP);
    plain = simple_clip(&s, 1.0f);
    out = pose_make(&s, NULL);
    for (curve = 0; curve < 3; curve++) {
        int bad_frames = 0, first_bad = -1;
        SinewTransform first[NB];
        if (!EXPECT(sinew_crossfade_create(s.skel, 4, &cf), SINEW_STATUS_OK)) {
            continue;
        }
        EXPECT(sinew_crossfade_play(cf, curve == 2 ? plain : hp, 1), SINEW_STATUS_OK);
        for (j = 0; j < 40; j++) {
            SinewStatus st;
            if (j == 3 || j == 20) {
                EXPECT(sinew_crossfade_fade_to(cf, j == 3 ? hn : hp, 0.4f, curve, 1, NULL),
                       SINEW_STATUS_OK);
            }
            if (j == 5 && curve != 2) {
                EXPECT(sinew_crossfade_fade_to(cf, plain, 0.3f, curve, 0, NULL), SINEW_STATUS_OK);
            }
            EXPECT(sinew_crossfade_get_pose(cf, out), SINEW_STATUS_OK);
            pose_read(out, before, SJ);
            st = sinew_crossfade_update(cf, j % 7 == 6 ? 0.0f : 1.0f / 30.0f);
            EXPECT(sinew_crossfade_get_pose(cf, out), SINEW_STATUS_OK);
            pose_read(out, now, SJ);
            CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
                  "huge crossfade (curve %d) frame %d: update returned %s", curve, j,
                  status_name(st));
            if (st == SINEW_STATUS_OK && !all_finite_unit(now, SJ)) {
                if (bad_frames++ == 0) {
                    first_bad = j;
                    memcpy(first, now, sizeof first);
                }
            } else if (st != SINEW_STATUS_OK) {
                CHECK(memcmp(now, before, SJ * sizeof now[0]) == 0,
                      "huge crossfade (curve %d) frame %d: output changed on error", curve, j);
            }
        }
        CHECK(bad_frames == 0,
              "huge crossfade (curve %d): %d of 40 updates returned OK with a non-finite "
              "output (first at frame %d: joint 1 t %g %g %g s %g %g %g)",
              curve, bad_frames, first_bad, (double)first[1].translation.x,
              (double)first[1].translation.y, (double)first[1].translation.z,
              (double)first[1].scale.x, (double)first[1].scale.y, (double)first[1].scale.z);
        sinew_crossfade_destroy(cf);
        cf = NULL;
    }

    /* A clip that overflows between its keys (huge cubic tangents) queued under a fine one:
     * the update that samples it fails, and must leave the output pose as it was. */
    if (EXPECT(sinew_clip_create(s.skel, 1.0f, &hc), SINEW_STATUS_OK)) {
        base_track(&k, SINEW_TRACK_PROPERTY_TRANSLATION, SINEW_INTERPOLATION_CUBIC);
        k.joint = 1;
        for (j = 0; j < 3; j++) {
            k.vals[j] = qt(FLT_MAX, 0, 0, 0);
            k.tout[j] = qt(FLT_MAX, 0, 0, 0);
            k.tin[j] = qt(0, 0, 0, 0);
        }
        EXPECT(track_apply(hc, &k), SINEW_STATUS_OK);
        EXPECT(sinew_clip_sample(hc, NULL, 0.25f, 0, out), SINEW_STATUS_NUMERIC_OVERFLOW);
        if (EXPECT(sinew_crossfade_create(s.skel, 2, &cf), SINEW_STATUS_OK)) {
            EXPECT(sinew_crossfade_play(cf, plain, 1), SINEW_STATUS_OK);
            EXPECT(sinew_crossfade_update(cf, 0.05f), SINEW_STATUS_OK);
            EXPECT(sinew_crossfade_fade_to(cf, hc, 1.0f, SINEW_FADE_CURVE_LINEAR, 0, NULL),
                   SINEW_STATUS_OK);
            EXPECT(sinew_crossfade_get_pose(cf, out), SINEW_STATUS_OK);
            pose_read(out, before, SJ);
            EXPECT(sinew_crossfade_update(cf, 0.25f), SINEW_STATUS_NUMERIC_OVERFLOW);
            EXPECT(sinew_crossfade_get_pose(cf, out), SINEW_STATUS_OK);
            pose_read(out, now, SJ);
            CHECK(memcmp(now, before, SJ * sizeof now[0]) == 0,
                  "crossfade update failed (NUMERIC_OVERFLOW) but changed the output pose");
            sinew_crossfade_destroy(cf);
            cf = NULL;
        }
        sinew_clip_destroy(hc);
    }
    sinew_clip_destroy(hp);
    sinew_clip_destroy(hn);
    sinew_clip_destroy(plain);
    sinew_pose_destroy(out);
    sinew_skeleton_destroy(s.skel);
}
