/*
 * C-side test of the Sinew C ABI, compiled against include/sinew.h and linked with the cdylib.
 * Built and run by tests/c_abi.rs (`cargo test --test c_abi`).
 *
 * Part A ("parity") prints one line per two-bone IK case (CASE ...) and per pose solve
 * (POSE ...) with every input and output float in %.9g, which round-trips f32 exactly; the Rust
 * side recomputes each line with the Rust core and compares. Lines not starting with one of the
 * keywords the Rust side knows are ignored by it. The blending exports print BLEND (two-pose
 * blends in every aliasing form), LAYERS, ADDMAKE / ADDAPPLY (additive layers), MASK (joint
 * masks and their edits), CLIP (tracks and samples, with and without a cursor) and XFADE (a
 * crossfade controller driven through a script) lines; poses are printed as
 * sinew_pose_get_local reads them back.
 *
 * Part B ("bad input") checks, in C, that every status the API can report for bad input is the
 * documented one, that the thread's error message is set (and readable, truncatable, not cleared
 * by reading), and that outputs are left byte-for-byte untouched.
 *
 * Failures go to stderr; the last stdout line is "N passed, N failed" and the exit status is
 * non-zero on any failure. There is no expected-failure mechanism: a check that fails on a
 * library bug fails the test until the bug is fixed.
 * SINEW_ABI_TEST_VERBOSE=1 prints every error message the library returns ("MSG ..." lines).
 */
#include "sinew.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ bookkeeping */

static int g_passed;
static int g_failed;
static int g_verbose;
static const char *g_section = "";

static int check_impl(int ok, int line, const char *expr, const char *fmt, ...)
{
    va_list ap;
    if (ok) {
        g_passed++;
        return 1;
    }
    g_failed++;
    fprintf(stderr, "FAIL [%s] line %d: %s: ", g_section, line, expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

#define CHECK(cond, ...) check_impl((cond) ? 1 : 0, __LINE__, #cond, __VA_ARGS__)

static const char *status_name(SinewStatus s)
{
    switch (s) {
    case SINEW_STATUS_OK: return "OK";
    case SINEW_STATUS_NULL_POINTER: return "NULL_POINTER";
    case SINEW_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case SINEW_STATUS_NON_FINITE: return "NON_FINITE";
    case SINEW_STATUS_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case SINEW_STATUS_SIZE_MISMATCH: return "SIZE_MISMATCH";
    case SINEW_STATUS_INVALID_SKELETON: return "INVALID_SKELETON";
    case SINEW_STATUS_PANIC: return "PANIC";
    case SINEW_STATUS_NOT_FOUND: return "NOT_FOUND";
    case SINEW_STATUS_NUMERIC_OVERFLOW: return "NUMERIC_OVERFLOW";
    default: return "<unknown status>";
    }
}

#define MSG_CAP 4096

/* After a failed call: the message is non-empty, its length query agrees with a full read,
 * and reading it (twice) does not clear it. */
static void check_error_message(int line, const char *call, SinewStatus got)
{
    char buf[MSG_CAP + 8];
    char again[MSG_CAP + 8];
    size_t len = (size_t)-1;
    size_t len2 = (size_t)-1;
    size_t len3 = (size_t)-1;
    SinewStatus st;

    st = sinew_last_error_message(NULL, 0, &len);
    check_impl(st == SINEW_STATUS_OK, line, call, "length query returned %s", status_name(st));
    check_impl(len > 0 && len < MSG_CAP, line, call, "error message length is %zu", len);

    memset(buf, 0xA5, sizeof buf);
    st = sinew_last_error_message(buf, MSG_CAP, &len2);
    check_impl(st == SINEW_STATUS_OK, line, call, "message read returned %s", status_name(st));
    check_impl(len2 == len, line, call, "message read length %zu != query length %zu", len2, len);
    if (len < MSG_CAP) {
        check_impl(strlen(buf) == len, line, call, "strlen(message) %zu != %zu", strlen(buf), len);
        check_impl((unsigned char)buf[len + 1] == 0xA5, line, call,
                   "message read wrote past its NUL");
    }

    memset(again, 0, sizeof again);
    st = sinew_last_error_message(again, MSG_CAP, &len3);
    check_impl(st == SINEW_STATUS_OK && len3 == len && strcmp(again, buf) == 0, line, call,
               "reading the message changed it (\"%s\" then \"%s\")", buf, again);
    if (g_verbose) {
        printf("MSG %s %s: %s\n", status_name(got), call, buf);
    }
}

static void check_no_error_message(int line, const char *call)
{
    size_t len = (size_t)-1;
    char buf[16];
    SinewStatus st;
    memset(buf, 0xA5, sizeof buf);
    st = sinew_last_error_message(buf, sizeof buf, &len);
    check_impl(st == SINEW_STATUS_OK && len == 0 && buf[0] == '\0', line, call,
               "error message not empty after success (len %zu)", len);
}

static int expect_impl(SinewStatus got, SinewStatus want, int line, const char *call)
{
    int ok = check_impl(got == want, line, call, "returned %s (%d), expected %s (%d)",
                        status_name(got), (int)got, status_name(want), (int)want);
    if (got != SINEW_STATUS_OK) {
        check_error_message(line, call, got);
    } else {
        check_no_error_message(line, call);
    }
    return ok;
}

/* EXPECT(call, status): the call returns `status`, and the error slot agrees. */
#define EXPECT(call, want) expect_impl((call), (want), __LINE__, #call)

static int is_filled(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) {
        if (b[i] != 0xA5) {
            return 0;
        }
    }
    return 1;
}

#define FILL(x) memset(&(x), 0xA5, sizeof(x))
#define UNTOUCHED(x) CHECK(is_filled(&(x), sizeof(x)), "output `%s` was written on error", #x)
#define SAME(a, b) CHECK(memcmp(&(a), &(b), sizeof(a)) == 0, "`%s` changed on error", #a)

/* ================================================================ math helpers */

static SinewVec3 v3(float x, float y, float z)
{
    SinewVec3 v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}

static SinewQuat qt(float x, float y, float z, float w)
{
    SinewQuat q;
    q.x = x;
    q.y = y;
    q.z = z;
    q.w = w;
    return q;
}

static SinewTransform xf(SinewVec3 t, SinewQuat r, SinewVec3 s)
{
    SinewTransform x;
    x.translation = t;
    x.rotation = r;
    x.scale = s;
    return x;
}

static SinewVec3 add(SinewVec3 a, SinewVec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static SinewVec3 sub(SinewVec3 a, SinewVec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static SinewVec3 mulf(SinewVec3 a, float k) { return v3(a.x * k, a.y * k, a.z * k); }
static float dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static float len3(SinewVec3 a) { return sqrtf(dot(a, a)); }

static float qlen(SinewQuat q) { return sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }

static SinewVec3 ONE3(void) { return v3(1.0f, 1.0f, 1.0f); }
static SinewQuat QID(void) { return qt(0.0f, 0.0f, 0.0f, 1.0f); }

/* Field i (0..9) of a transform: translation xyz, rotation xyzw, scale xyz. */
static float *xf_field(SinewTransform *t, int i)
{
    switch (i) {
    case 0: return &t->translation.x;
    case 1: return &t->translation.y;
    case 2: return &t->translation.z;
    case 3: return &t->rotation.x;
    case 4: return &t->rotation.y;
    case 5: return &t->rotation.z;
    case 6: return &t->rotation.w;
    case 7: return &t->scale.x;
    case 8: return &t->scale.y;
    default: return &t->scale.z;
    }
}

static const char *const XF_FIELD_NAMES[10] = {"translation.x", "translation.y", "translation.z",
                                               "rotation.x",    "rotation.y",    "rotation.z",
                                               "rotation.w",    "scale.x",       "scale.y",
                                               "scale.z"};

static float *vec_field(SinewVec3 *v, int i)
{
    return i == 0 ? &v->x : i == 1 ? &v->y : &v->z;
}

static float *quat_field(SinewQuat *q, int i)
{
    return i == 0 ? &q->x : i == 1 ? &q->y : i == 2 ? &q->z : &q->w;
}

static int xf_finite(const SinewTransform *t)
{
    int i;
    for (i = 0; i < 10; i++) {
        if (!isfinite(*xf_field((SinewTransform *)t, i))) {
            return 0;
        }
    }
    return 1;
}

static int xf_unit_rotation(const SinewTransform *t)
{
    return fabsf(qlen(t->rotation) - 1.0f) < 1e-4f;
}

/* Quaternion helpers (for building inputs and for checks; the library's own math is what is
 * under test). */
static SinewQuat qmul(SinewQuat a, SinewQuat b)
{
    return qt(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
              a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

static SinewQuat qconj(SinewQuat q) { return qt(-q.x, -q.y, -q.z, q.w); }

static SinewQuat qscale(SinewQuat q, float k) { return qt(q.x * k, q.y * k, q.z * k, q.w * k); }

static SinewQuat qunit(SinewQuat q) { return qscale(q, 1.0f / qlen(q)); }

static SinewVec3 qrot(SinewQuat q, SinewVec3 v)
{
    SinewQuat p = qmul(qmul(q, qt(v.x, v.y, v.z, 0.0f)), qconj(q));
    return v3(p.x, p.y, p.z);
}

/* |cos(angle / 2)| between two rotations of any length: 1 when they are the same rotation. */
static float qsame(SinewQuat a, SinewQuat b)
{
    a = qunit(a);
    b = qunit(b);
    return fabsf(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
}

/* Angle in radians between two rotations. */
static float qangle(SinewQuat a, SinewQuat b)
{
    float d = qsame(a, b);
    return 2.0f * acosf(d > 1.0f ? 1.0f : d);
}

static SinewVec3 vunit(SinewVec3 v) { return mulf(v, 1.0f / len3(v)); }

/* Float comparison relative to magnitude. */
static int near(float a, float b, float rel)
{
    float m = fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b);
    return fabsf(a - b) <= rel * (m > 1.0f ? m : 1.0f);
}

static int xf_near(const SinewTransform *a, const SinewTransform *b, float rel)
{
    int i;
    for (i = 0; i < 10; i++) {
        if (!near(*xf_field((SinewTransform *)a, i), *xf_field((SinewTransform *)b, i), rel)) {
            return 0;
        }
    }
    return 1;
}

/* ================================================================ deterministic random */

static uint64_t g_rng = 0x853c49e6748fea9bULL;

static uint32_t rng_next(void)
{
    g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(g_rng >> 33);
}

/* Uniform in [lo, hi). */
static float rng_float(float lo, float hi)
{
    float u = (float)(rng_next() >> 7) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

static int rng_below(int n) { return (int)(rng_next() % (uint32_t)n); }

static SinewQuat rng_quat(void)
{
    for (;;) {
        float x = rng_float(-1, 1), y = rng_float(-1, 1), z = rng_float(-1, 1),
              w = rng_float(-1, 1);
        float n2 = x * x + y * y + z * z + w * w;
        if (n2 > 0.01f && n2 <= 1.0f) {
            float k = 1.0f / sqrtf(n2);
            return qt(x * k, y * k, z * k, w * k);
        }
    }
}

static SinewVec3 rng_dir(void)
{
    for (;;) {
        SinewVec3 v = v3(rng_float(-1, 1), rng_float(-1, 1), rng_float(-1, 1));
        float n2 = dot(v, v);
        if (n2 > 0.01f && n2 <= 1.0f) {
            return mulf(v, 1.0f / sqrtf(n2));
        }
    }
}

static SinewVec3 rng_point(float r) { return v3(rng_float(-r, r), rng_float(-r, r), rng_float(-r, r)); }

/* ================================================================ printing (parity lines) */

static void pf(float f) { printf(" %.9g", (double)f); }

static void print_vec(const SinewVec3 *v)
{
    pf(v->x);
    pf(v->y);
    pf(v->z);
}

static void print_xf(const SinewTransform *t)
{
    int i;
    for (i = 0; i < 10; i++) {
        pf(*xf_field((SinewTransform *)t, i));
    }
}

static void print_settings(const SinewTwoBoneIkSettings *s)
{
    printf(" S");
    pf(s->weight);
    printf(" %" PRIu32, s->allow_stretching);
    pf(s->start_stretch_ratio);
    pf(s->max_stretch_scale);
    printf(" %" PRId32, s->end_rotation);
    pf(s->soften);
    printf(" %" PRIu32, s->keep_twist);
    pf(s->pole_weight);
}

static void print_target(const SinewVec3 *eff, const SinewQuat *rot, const SinewVec3 *pole)
{
    printf(" E");
    print_vec(eff);
    printf(" R");
    if (rot != NULL) {
        pf(rot->x);
        pf(rot->y);
        pf(rot->z);
        pf(rot->w);
    } else {
        printf(" -");
    }
    printf(" P");
    if (pole != NULL) {
        print_vec(pole);
    } else {
        printf(" -");
    }
}

static void print_result(const SinewIkResult *r)
{
    printf(" RES %" PRIu32, r->reached);
    pf(r->error);
    printf(" %" PRIu32, r->iterations);
}

static void print_quat(const SinewQuat *q)
{
    pf(q->x);
    pf(q->y);
    pf(q->z);
    pf(q->w);
}

/* " TAG x y z w", or " TAG -" for NULL. */
static void print_opt_quat(const char *tag, const SinewQuat *q)
{
    printf(" %s", tag);
    if (q != NULL) {
        print_quat(q);
    } else {
        printf(" -");
    }
}

/* " TAG x y z", or " TAG -" for NULL. */
static void print_opt_vec(const char *tag, const SinewVec3 *v)
{
    printf(" %s", tag);
    if (v != NULL) {
        print_vec(v);
    } else {
        printf(" -");
    }
}

/* " TAG n" and n transforms. */
static void print_xfs(const char *tag, const SinewTransform *t, uint32_t n)
{
    uint32_t i;
    printf(" %s %" PRIu32, tag, n);
    for (i = 0; i < n; i++) {
        print_xf(&t[i]);
    }
}

/* " TAG n" and n indices. */
static void print_indices(const char *tag, const uint32_t *j, uint32_t n)
{
    uint32_t i;
    printf(" %s %" PRIu32, tag, n);
    for (i = 0; i < n; i++) {
        printf(" %" PRIu32, j[i]);
    }
}

/* " NAMES n <names> PAR <n parents> REST <n transforms>": a skeleton. */
static void print_skeleton(uint32_t n, const char *const *names, const int32_t *parents,
                           const SinewTransform *rest)
{
    uint32_t i;
    printf(" NAMES %" PRIu32, n);
    for (i = 0; i < n; i++) {
        printf(" %s", names[i]);
    }
    printf(" PAR");
    for (i = 0; i < n; i++) {
        printf(" %" PRId32, parents[i]);
    }
    printf(" REST");
    for (i = 0; i < n; i++) {
        print_xf(&rest[i]);
    }
}

/* " C type limit_twist <reference> <axis> h1 h2 min max", or " -" for NULL (no constraint). */
static void print_constraint(const SinewJointConstraint *c)
{
    if (c == NULL) {
        printf(" -");
        return;
    }
    printf(" C %" PRId32 " %" PRIu32, c->type, c->limit_twist);
    print_quat(&c->reference);
    print_vec(&c->axis);
    pf(c->swing_half_angle_1);
    pf(c->swing_half_angle_2);
    pf(c->min_angle);
    pf(c->max_angle);
}

static void print_fabrik_settings(const SinewFabrikSettings *s)
{
    printf(" FS");
    pf(s->precision);
    printf(" %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRId32, s->relative_precision,
           s->max_iterations, s->stop_when_stalled, s->end_rotation);
}

static void print_ccd_settings(const SinewCcdSettings *s)
{
    printf(" CS");
    pf(s->precision);
    printf(" %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRId32,
           s->relative_precision, s->max_iterations, s->start_from_tail, s->fix_root,
           s->stop_when_stalled, s->end_rotation);
}

static void print_hand_settings(const SinewHandIkRetargetingSettings *s, const SinewHandJoints *h)
{
    printf(" HS");
    pf(s->hand_fk_weight);
    print_vec(&s->per_axis_alpha);
    printf(" H %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32, h->right_fk, h->left_fk,
           h->right_ik, h->left_ik);
}

/* ================================================================ settings variants */

#define N_VARIANTS 10

/* Settings variant v; *rot_mode: 0 = no effector rotation, 1 = always pass one, 2 = random. */
static SinewTwoBoneIkSettings settings_variant(int v, int *rot_mode)
{
    SinewTwoBoneIkSettings s;
    sinew_two_bone_ik_settings_default(&s);
    *rot_mode = 2;
    switch (v % N_VARIANTS) {
    case 0: break;
    case 1: s.allow_stretching = 1; break;
    case 2: s.soften = 0.9f; break;
    case 3: s.weight = 0.5f; break;
    case 4: s.keep_twist = 1; break;
    case 5: s.end_rotation = SINEW_END_ROTATION_KEEP_LOCAL; break;
    case 6:
        s.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
        *rot_mode = 1;
        break;
    case 7:
        s.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
        *rot_mode = 0;
        break;
    case 8: s.pole_weight = 0.5f; break;
    default:
        s.allow_stretching = 1;
        s.start_stretch_ratio = 0.9f;
        s.max_stretch_scale = 1.5f;
        s.soften = 0.95f;
        s.weight = 0.75f;
        s.keep_twist = 1;
        s.end_rotation = SINEW_END_ROTATION_KEEP_LOCAL;
        s.pole_weight = 0.8f;
        break;
    }
    return s;
}

/* ================================================================ Part A: two-bone IK parity */

enum { KIND_VALID, KIND_HUGE };

static int g_case_id;
static int g_pose_id;

/* Runs one sinew_two_bone_ik_solve case, prints its CASE line and checks it in C.
 * KIND_VALID: must be OK with finite, unit-rotation outputs (plus light semantic checks).
 * KIND_HUGE: OK with such outputs, or NUMERIC_OVERFLOW with outputs untouched. */
static SinewStatus run_case(const SinewTwoBoneIkSettings *s, const SinewTransform in[3],
                            const SinewVec3 *eff, const SinewQuat *rot, const SinewVec3 *pole,
                            int kind)
{
    SinewTwoBoneIk *solver = NULL;
    SinewTransform chain[3];
    SinewIkResult res;
    SinewStatus st;
    int id = g_case_id++;
    int i;

    if (sinew_two_bone_ik_create(s, &solver) != SINEW_STATUS_OK) {
        CHECK(0, "case %d: settings rejected", id);
        return SINEW_STATUS_INVALID_ARGUMENT;
    }
    memcpy(chain, in, sizeof chain);
    memset(&res, 0, sizeof res);
    st = sinew_two_bone_ik_solve(solver, chain, eff, rot, pole, &res);
    sinew_two_bone_ik_destroy(solver);

    printf("CASE %d", id);
    print_settings(s);
    printf(" IN");
    for (i = 0; i < 3; i++) {
        print_xf(&in[i]);
    }
    print_target(eff, rot, pole);
    printf(" ST %d OUT", (int)st);
    for (i = 0; i < 3; i++) {
        print_xf(&chain[i]);
    }
    print_result(&res);
    printf("\n");

    if (kind == KIND_VALID) {
        CHECK(st == SINEW_STATUS_OK, "case %d returned %s", id, status_name(st));
    } else {
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "case %d (huge finite input) returned %s", id, status_name(st));
    }
    if (st != SINEW_STATUS_OK) {
        CHECK(memcmp(chain, in, sizeof chain) == 0, "case %d: chain written on error", id);
        CHECK(res.reached == 0 && res.error == 0.0f && res.iterations == 0,
              "case %d: result written on error", id);
        return st;
    }
    for (i = 0; i < 3; i++) {
        CHECK(xf_finite(&chain[i]), "case %d: output transform %d not finite", id, i);
        CHECK(xf_unit_rotation(&chain[i]), "case %d: output rotation %d has length %g", id, i,
              (double)qlen(chain[i].rotation));
    }
    CHECK(isfinite(res.error) && res.error >= 0.0f, "case %d: result error %g", id,
          (double)res.error);
    CHECK(res.reached <= 1 && res.iterations == 1, "case %d: reached %u iterations %u", id,
          (unsigned)res.reached, (unsigned)res.iterations);
    CHECK(memcmp(&chain[0].translation, &in[0].translation, sizeof(SinewVec3)) == 0,
          "case %d: root moved", id);

    if (kind == KIND_VALID) {
        SinewVec3 a = in[0].translation;
        float l1 = len3(sub(in[1].translation, a));
        float l2 = len3(sub(in[2].translation, in[1].translation));
        float total = l1 + l2;
        float tol = total * 1e-4f > 1e-6f ? total * 1e-4f : 1e-6f;
        float d = len3(sub(*eff, a));
        float err = len3(sub(chain[2].translation, *eff));
        CHECK(fabsf(err - res.error) <= 1e-5f * (1.0f + d + total),
              "case %d: reported error %g, actual %g", id, (double)res.error, (double)err);
        CHECK((res.reached == 1) == (res.error <= tol), "case %d: reached %u with error %g",
              id, (unsigned)res.reached, (double)res.error);
        if (s->weight == 1.0f && !s->allow_stretching) {
            float n1 = len3(sub(chain[1].translation, chain[0].translation));
            float n2 = len3(sub(chain[2].translation, chain[1].translation));
            float slack = 1e-4f * total + 1e-6f;
            CHECK(fabsf(n1 - l1) <= slack && fabsf(n2 - l2) <= slack,
                  "case %d: bone lengths %g %g became %g %g", id, (double)l1, (double)l2,
                  (double)n1, (double)n2);
            if (s->soften == 1.0f && d > fabsf(l1 - l2) + 1e-3f * total &&
                d < total * (1.0f - 1e-3f)) {
                CHECK(res.reached == 1, "case %d: reachable target (d %g, l1 %g, l2 %g) missed "
                                        "by %g", id, (double)d, (double)l1, (double)l2,
                      (double)res.error);
            }
            if (s->soften == 1.0f && d > total * 1.001f) {
                CHECK(fabsf(res.error - (d - total)) <= 1e-4f * (d + total),
                      "case %d: unreachable target: error %g, expected %g", id,
                      (double)res.error, (double)(d - total));
            }
            if (s->end_rotation == SINEW_END_ROTATION_KEEP_MODEL ||
                (s->end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR && rot == NULL)) {
                SinewQuat q = in[2].rotation, o = chain[2].rotation;
                float k = 1.0f / qlen(q);
                float dq = fabsf(q.x * k * o.x + q.y * k * o.y + q.z * k * o.z + q.w * k * o.w);
                CHECK(dq > 1.0f - 1e-5f, "case %d: end rotation not kept", id);
            }
            if (s->end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR && rot != NULL) {
                SinewQuat q = *rot, o = chain[2].rotation;
                float k = 1.0f / qlen(q);
                float dq = fabsf(q.x * k * o.x + q.y * k * o.y + q.z * k * o.z + q.w * k * o.w);
                CHECK(dq > 1.0f - 1e-5f, "case %d: end rotation not copied from effector", id);
            }
        }
    }
    return st;
}

static void make_arm(SinewTransform chain[3], float l1, float l2)
{
    SinewVec3 p0 = rng_point(3.0f);
    SinewVec3 p1 = add(p0, mulf(rng_dir(), l1));
    SinewVec3 p2 = add(p1, mulf(rng_dir(), l2));
    chain[0] = xf(p0, rng_quat(), ONE3());
    chain[1] = xf(p1, rng_quat(), ONE3());
    chain[2] = xf(p2, rng_quat(), ONE3());
}

#define N_RANDOM_CASES 200

static void part_a_random_cases(void)
{
    int n;
    g_section = "A parity: random chains";
    for (n = 0; n < N_RANDOM_CASES; n++) {
        int rot_mode;
        SinewTwoBoneIkSettings s = settings_variant(n, &rot_mode);
        SinewTransform chain[3];
        float l1 = rng_float(0.2f, 2.0f), l2 = rng_float(0.2f, 2.0f);
        float total = l1 + l2, lo = fabsf(l1 - l2) / total, ratio;
        int bucket = rng_below(20);
        SinewVec3 eff, pole, *pole_p = NULL;
        SinewQuat rot, *rot_p = NULL;

        make_arm(chain, l1, l2);
        if (bucket < 8) {
            ratio = rng_float(lo + 0.02f, 0.98f); /* reachable */
        } else if (bucket < 13) {
            ratio = rng_float(1.02f, 1.6f); /* just out of reach */
        } else if (bucket < 16) {
            ratio = rng_float(0.97f, 1.03f); /* around full extension */
        } else if (bucket < 18) {
            ratio = rng_float(0.0f, lo); /* nearer than |l1 - l2| */
        } else {
            ratio = rng_float(2.0f, 10.0f); /* far */
        }
        eff = add(chain[0].translation, mulf(rng_dir(), ratio * total));
        if (rng_below(3) != 0) {
            pole = add(chain[0].translation, mulf(rng_dir(), rng_float(0.5f, 3.0f)));
            pole_p = &pole;
        }
        if (rot_mode == 1 || (rot_mode == 2 && rng_below(4) == 0)) {
            rot = rng_quat();
            rot_p = &rot;
        }
        run_case(&s, chain, &eff, rot_p, pole_p, KIND_VALID);
    }
}

/* Degenerate but valid geometry: OK with finite outputs under several settings variants. */
static void part_a_degenerate_cases(void)
{
    static const int variants[] = {0, 1, 2, 3, 4, 5, 6, 9};
    size_t vi;
    g_section = "A parity: degenerate but valid";
    for (vi = 0; vi < sizeof variants / sizeof variants[0]; vi++) {
        int rot_mode;
        SinewTwoBoneIkSettings s = settings_variant(variants[vi], &rot_mode);
        SinewQuat rot = qt(0.1f, -0.7f, 0.2f, 0.6f);
        SinewQuat *rot_p = rot_mode == 1 ? &rot : NULL;
        SinewTransform bent[3], chain[3];
        SinewVec3 a = v3(0.5f, -0.25f, 1.0f), dir = v3(0.6f, 0.0f, 0.8f), eff, pole;

        bent[0] = xf(a, qt(0.0f, 0.0f, 0.38268343f, 0.92387953f), ONE3());
        bent[1] = xf(add(a, v3(1.0f, 0.0f, 0.0f)), qt(0.1f, 0.2f, 0.3f, 0.927362f), ONE3());
        bent[2] = xf(add(a, v3(1.0f, 0.8f, 0.0f)), QID(), ONE3());

        /* Target exactly at the root, without and with a pole. */
        run_case(&s, bent, &a, rot_p, NULL, KIND_VALID);
        pole = add(a, v3(0.0f, 0.0f, 1.0f));
        run_case(&s, bent, &a, rot_p, &pole, KIND_VALID);

        /* Pole on the root-target line (between and beyond), and pole at the root. */
        eff = add(a, mulf(dir, 1.2f));
        pole = add(a, mulf(dir, 0.5f));
        run_case(&s, bent, &eff, rot_p, &pole, KIND_VALID);
        pole = add(a, mulf(dir, 3.0f));
        run_case(&s, bent, &eff, rot_p, &pole, KIND_VALID);
        run_case(&s, bent, &eff, rot_p, &a, KIND_VALID);

        /* Zero-length upper bone, zero-length lower bone, both zero. */
        memcpy(chain, bent, sizeof chain);
        chain[1].translation = a;
        run_case(&s, chain, &eff, rot_p, NULL, KIND_VALID);
        memcpy(chain, bent, sizeof chain);
        chain[2].translation = chain[1].translation;
        run_case(&s, chain, &eff, rot_p, &pole, KIND_VALID);
        memcpy(chain, bent, sizeof chain);
        chain[1].translation = a;
        chain[2].translation = a;
        run_case(&s, chain, &eff, rot_p, NULL, KIND_VALID);
        run_case(&s, chain, &a, rot_p, NULL, KIND_VALID);

        /* Target nearer than |l1 - l2| (long upper bone, then long lower bone). */
        memcpy(chain, bent, sizeof chain);
        chain[1].translation = add(a, v3(1.5f, 0.0f, 0.0f));
        chain[2].translation = add(a, v3(1.5f, 0.5f, 0.0f));
        eff = add(a, mulf(dir, 0.3f));
        run_case(&s, chain, &eff, rot_p, NULL, KIND_VALID);
        chain[1].translation = add(a, v3(0.5f, 0.0f, 0.0f));
        chain[2].translation = add(a, v3(0.5f, 1.5f, 0.0f));
        run_case(&s, chain, &eff, rot_p, &pole, KIND_VALID);

        /* Straight input chain with the target on its line (no bend plane, no pole). */
        memcpy(chain, bent, sizeof chain);
        chain[1].translation = add(a, mulf(dir, 1.0f));
        chain[2].translation = add(a, mulf(dir, 2.0f));
        eff = add(a, mulf(dir, 1.0f));
        run_case(&s, chain, &eff, rot_p, NULL, KIND_VALID);
        /* Fully folded input (end back on the root), target at exactly full reach. */
        chain[2].translation = a;
        eff = add(a, mulf(dir, 2.0f));
        run_case(&s, chain, &eff, rot_p, NULL, KIND_VALID);
    }
}

/* Huge finite inputs: OK with finite, unit-rotation outputs, or NUMERIC_OVERFLOW. */
static void part_a_huge_cases(void)
{
    SinewTwoBoneIkSettings s, stretch;
    SinewTransform arm[3], chain[3];
    SinewVec3 eff = v3(0.5f, 1.0f, 0.25f), far, pole;
    SinewQuat rot;
    int rot_mode, i;

    g_section = "B huge finite inputs";
    s = settings_variant(0, &rot_mode);
    arm[0] = xf(v3(0, 0, 0), QID(), ONE3());
    arm[1] = xf(v3(1, 0, 0), qt(0, 0, 0.38268343f, 0.92387953f), ONE3());
    arm[2] = xf(v3(1, 1, 0), QID(), ONE3());

    far = v3(1e30f, 0, 0);
    run_case(&s, arm, &far, NULL, NULL, KIND_HUGE);
    far = v3(-1e30f, 1e30f, 1e30f);
    run_case(&s, arm, &far, NULL, NULL, KIND_HUGE);
    far = v3(1e18f, 0, 0); /* length still representable squared */
    run_case(&s, arm, &far, NULL, NULL, KIND_HUGE);
    pole = v3(0, 1e30f, 0);
    run_case(&s, arm, &eff, NULL, &pole, KIND_HUGE);
    pole = v3(1e30f, 1e30f, -1e30f);
    run_case(&s, arm, &far, NULL, &pole, KIND_HUGE);

    memcpy(chain, arm, sizeof chain);
    for (i = 0; i < 3; i++) {
        chain[i].translation = mulf(chain[i].translation, 1e30f);
    }
    far = v3(5e29f, 1e30f, 2.5e29f);
    run_case(&s, chain, &far, NULL, NULL, KIND_HUGE);

    memcpy(chain, arm, sizeof chain);
    for (i = 0; i < 3; i++) {
        chain[i].translation = add(chain[i].translation, v3(1e30f, -1e30f, 1e30f));
    }
    run_case(&s, chain, &eff, NULL, NULL, KIND_HUGE);

    memcpy(chain, arm, sizeof chain);
    for (i = 0; i < 3; i++) {
        chain[i].scale = v3(1e30f, 1e30f, 1e30f);
    }
    run_case(&s, chain, &eff, NULL, NULL, KIND_HUGE);

    stretch = s;
    stretch.allow_stretching = 1;
    stretch.max_stretch_scale = 1e30f;
    far = v3(1e10f, 0, 0);
    run_case(&stretch, arm, &far, NULL, NULL, KIND_HUGE);
    stretch.start_stretch_ratio = 1e30f;
    run_case(&stretch, arm, &far, NULL, NULL, KIND_HUGE);
    stretch.start_stretch_ratio = 1e-30f;
    run_case(&stretch, arm, &eff, NULL, NULL, KIND_HUGE);

    /* Weight 0.5 blends huge values in local space. */
    stretch = s;
    stretch.weight = 0.5f;
    far = v3(1e30f, 1e30f, 0);
    run_case(&stretch, arm, &far, NULL, NULL, KIND_HUGE);

    /* A finite effector rotation of huge magnitude, copied to the end bone. */
    stretch = s;
    stretch.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    rot = qt(0, 0, 1e30f, 1e30f);
    run_case(&stretch, arm, &eff, &rot, NULL, KIND_HUGE);
    rot = qt(0, 0, 0, 1e20f);
    run_case(&stretch, arm, &eff, &rot, NULL, KIND_HUGE);

    /* A finite chain rotation of huge magnitude (rotations are renormalized on input). */
    memcpy(chain, arm, sizeof chain);
    chain[1].rotation = qt(0, 0, 1e30f, 1e30f);
    run_case(&s, chain, &eff, NULL, NULL, KIND_HUGE);
}

/* ================================================================ Part A: pose parity */

#define NJ 10
static const char *const JOINT_NAMES[NJ] = {"root",   "spine",  "chest", "l_upper", "l_fore",
                                             "l_hand", "head",   "r_upper", "r_fore", "r_hand"};
static const int32_t JOINT_PARENTS[NJ] = {-1, 0, 1, 2, 3, 4, 2, 2, 7, 8};

static void rest_pose(SinewTransform rest[NJ])
{
    int i;
    for (i = 0; i < NJ; i++) {
        rest[i] = xf(i == 0 ? v3(0, 1, 0) : mulf(rng_dir(), rng_float(0.3f, 1.2f)), rng_quat(),
                     ONE3());
    }
}

#define N_POSE_CASES 30

static void part_a_pose_cases(void)
{
    SinewTransform rest[NJ], got_rest[NJ], local[NJ], before[NJ], after[NJ], model[NJ];
    int32_t parents[NJ];
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    SinewTwoBoneIk *solver = NULL;
    SinewTwoBoneIkSettings defaults;
    uint32_t count = 0, idx[6];
    int n, i;

    g_section = "A parity: pose";
    rest_pose(rest);
    if (!EXPECT(sinew_skeleton_create(JOINT_PARENTS, rest, JOINT_NAMES, NJ, &skel),
                SINEW_STATUS_OK)) {
        return;
    }
    EXPECT(sinew_skeleton_joint_count(skel, &count), SINEW_STATUS_OK);
    CHECK(count == NJ, "skeleton joint count %u", (unsigned)count);
    EXPECT(sinew_skeleton_get_parents(skel, parents, NJ), SINEW_STATUS_OK);
    CHECK(memcmp(parents, JOINT_PARENTS, sizeof parents) == 0, "parents do not round-trip");
    EXPECT(sinew_skeleton_get_rest_pose(skel, got_rest, NJ), SINEW_STATUS_OK);
    for (i = 0; i < NJ; i++) {
        CHECK(memcmp(&got_rest[i].translation, &rest[i].translation, sizeof(SinewVec3)) == 0 &&
                  xf_unit_rotation(&got_rest[i]),
              "rest pose of joint %d does not round-trip", i);
    }
    for (i = 0; i < 6; i++) {
        static const char *const chain_names[6] = {"l_upper", "l_fore", "l_hand",
                                                   "r_upper", "r_fore", "r_hand"};
        EXPECT(sinew_skeleton_find_joint(skel, chain_names[i], &idx[i]), SINEW_STATUS_OK);
    }
    CHECK(idx[0] == 3 && idx[1] == 4 && idx[2] == 5 && idx[3] == 7 && idx[4] == 8 &&
              idx[5] == 9,
          "find_joint gave %u %u %u %u %u %u", (unsigned)idx[0], (unsigned)idx[1],
          (unsigned)idx[2], (unsigned)idx[3], (unsigned)idx[4], (unsigned)idx[5]);
    EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK);
    /* The skeleton handle goes first: the pose keeps the skeleton alive. */
    sinew_skeleton_destroy(skel);
    skel = NULL;
    EXPECT(sinew_pose_joint_count(pose, &count), SINEW_STATUS_OK);
    CHECK(count == NJ, "pose joint count %u after skeleton destroyed", (unsigned)count);
    EXPECT(sinew_pose_get_local(pose, before, NJ), SINEW_STATUS_OK);
    CHECK(memcmp(before, got_rest, sizeof before) == 0, "a new pose is not at the rest pose");

    sinew_two_bone_ik_settings_default(&defaults);
    EXPECT(sinew_two_bone_ik_create(&defaults, &solver), SINEW_STATUS_OK);

    for (n = 0; n < N_POSE_CASES; n++) {
        int rot_mode, right = n % 2;
        SinewTwoBoneIkSettings s = settings_variant(n / 2 + n % 3, &rot_mode), got_s;
        uint32_t r = idx[right * 3], j = idx[right * 3 + 1], e = idx[right * 3 + 2];
        SinewVec3 eff, pole, *pole_p = NULL;
        SinewQuat rot, *rot_p = NULL;
        SinewIkResult res;
        SinewStatus st;
        float total, ratio;

        for (i = 0; i < NJ; i++) {
            local[i] = rest[i];
            local[i].rotation = rng_quat();
        }
        if (n % 4 == 3) {
            float k = n % 8 == 3 ? 1.5f : 0.8f;
            local[0].scale = v3(k, k, k); /* uniform scale above the chain */
        }
        EXPECT(sinew_pose_set_local(pose, local, NJ), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model, NJ), SINEW_STATUS_OK);
        total = len3(sub(model[j].translation, model[r].translation)) +
                len3(sub(model[e].translation, model[j].translation));
        ratio = n % 5 == 4 ? rng_float(1.05f, 1.5f) : rng_float(0.3f, 0.95f);
        eff = add(model[r].translation, mulf(rng_dir(), ratio * total));
        if (n % 3 != 2) {
            pole = add(model[r].translation, mulf(rng_dir(), 2.0f));
            pole_p = &pole;
        }
        if (rot_mode == 1 || (rot_mode == 2 && n % 4 == 0)) {
            rot = rng_quat();
            rot_p = &rot;
        }
        EXPECT(sinew_two_bone_ik_set_settings(solver, &s), SINEW_STATUS_OK);
        EXPECT(sinew_two_bone_ik_get_settings(solver, &got_s), SINEW_STATUS_OK);
        CHECK(memcmp(&got_s, &s, sizeof s) == 0, "settings do not round-trip");
        EXPECT(sinew_pose_get_local(pose, before, NJ), SINEW_STATUS_OK);
        memset(&res, 0, sizeof res);
        st = sinew_two_bone_ik_solve_pose(solver, pose, r, j, e, &eff, rot_p, pole_p, &res);
        CHECK(st == SINEW_STATUS_OK, "pose case %d returned %s", n, status_name(st));
        EXPECT(sinew_pose_get_local(pose, after, NJ), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model, NJ), SINEW_STATUS_OK);

        printf("POSE %d", g_pose_id++);
        print_skeleton(NJ, JOINT_NAMES, JOINT_PARENTS, rest);
        printf(" LOCAL");
        for (i = 0; i < NJ; i++) {
            print_xf(&local[i]);
        }
        print_settings(&s);
        printf(" J %s %" PRIu32 " %s %" PRIu32 " %s %" PRIu32, JOINT_NAMES[r], r, JOINT_NAMES[j],
               j, JOINT_NAMES[e], e);
        print_target(&eff, rot_p, pole_p);
        printf(" ST %d OUT", (int)st);
        for (i = 0; i < NJ; i++) {
            print_xf(&after[i]);
        }
        printf(" MODEL");
        for (i = 0; i < NJ; i++) {
            print_xf(&model[i]);
        }
        print_result(&res);
        printf("\n");

        for (i = 0; i < NJ; i++) {
            int in_chain = (uint32_t)i == r || (uint32_t)i == j || (uint32_t)i == e;
            CHECK(xf_finite(&after[i]) && xf_unit_rotation(&after[i]) && xf_finite(&model[i]),
                  "pose case %d: joint %d not finite/unit", n, i);
            if (!in_chain) {
                CHECK(memcmp(&after[i], &before[i], sizeof after[i]) == 0,
                      "pose case %d: joint %d outside the chain changed", n, i);
            } else if (!s.allow_stretching) {
                CHECK(memcmp(&after[i].translation, &before[i].translation,
                             sizeof(SinewVec3)) == 0 &&
                          memcmp(&after[i].scale, &before[i].scale, sizeof(SinewVec3)) == 0,
                      "pose case %d: chain joint %d translation/scale changed without "
                      "stretching",
                      n, i);
            }
        }
        CHECK(res.iterations == 1 && isfinite(res.error), "pose case %d: result", n);
        if (s.weight == 1.0f && s.soften == 1.0f && ratio < 1.0f) {
            CHECK(res.reached == 1, "pose case %d: reachable target missed by %g", n,
                  (double)res.error);
            CHECK(len3(sub(model[e].translation, eff)) <= 1e-3f * total,
                  "pose case %d: end joint %g away from the effector in model space", n,
                  (double)len3(sub(model[e].translation, eff)));
        }
    }

    /* Reset returns to the rest pose, even with the skeleton handle gone. */
    EXPECT(sinew_pose_reset(pose), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_local(pose, after, NJ), SINEW_STATUS_OK);
    CHECK(memcmp(after, got_rest, sizeof after) == 0, "reset did not restore the rest pose");
    sinew_two_bone_ik_destroy(solver);
    sinew_pose_destroy(pose);
}

/* ================================================================ Part B: bad input */

static SinewSkeleton *make_skeleton(SinewTransform rest[NJ])
{
    SinewSkeleton *skel = NULL;
    rest_pose(rest);
    if (sinew_skeleton_create(JOINT_PARENTS, rest, JOINT_NAMES, NJ, &skel) != SINEW_STATUS_OK) {
        CHECK(0, "could not create the test skeleton");
        return NULL;
    }
    return skel;
}

static void part_b_versions(void)
{
    uint32_t major, minor, patch;
    g_section = "B version";
    CHECK(sinew_abi_version() == SINEW_ABI_VERSION, "sinew_abi_version() %u != header %u",
          (unsigned)sinew_abi_version(), (unsigned)SINEW_ABI_VERSION);
    EXPECT(sinew_version(&major, &minor, &patch), SINEW_STATUS_OK);
    printf("VERSION %u %u %u ABI %u\n", (unsigned)major, (unsigned)minor, (unsigned)patch,
           (unsigned)sinew_abi_version());

    FILL(minor);
    FILL(patch);
    EXPECT(sinew_version(NULL, &minor, &patch), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(minor);
    UNTOUCHED(patch);
    FILL(major);
    FILL(patch);
    EXPECT(sinew_version(&major, NULL, &patch), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(major);
    UNTOUCHED(patch);
    FILL(major);
    FILL(minor);
    EXPECT(sinew_version(&major, &minor, NULL), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(major);
    UNTOUCHED(minor);
}

static void part_b_error_message(void)
{
    SinewTransform rest[NJ];
    SinewSkeleton *skel;
    uint32_t index;
    char full[256], buf[64];
    size_t len = 0, got = 0, cut = 0, i;
    const char *accent;

    g_section = "B error message";
    skel = make_skeleton(rest);
    if (skel == NULL) {
        return;
    }
    /* A message with a 2-byte UTF-8 character in it (joint names are echoed). */
    FILL(index);
    EXPECT(sinew_skeleton_find_joint(skel, "caf\xc3\xa9", &index), SINEW_STATUS_NOT_FOUND);
    UNTOUCHED(index);
    CHECK(sinew_last_error_message(NULL, 0, NULL) == SINEW_STATUS_OK, "NULL/0/NULL query");
    CHECK(sinew_last_error_message(NULL, 0, &len) == SINEW_STATUS_OK && len > 0,
          "length query");
    memset(full, 0, sizeof full);
    CHECK(sinew_last_error_message(full, sizeof full, &got) == SINEW_STATUS_OK && got == len &&
              strlen(full) == len,
          "full read");
    accent = strstr(full, "\xc3\xa9");
    CHECK(accent != NULL, "message \"%s\" does not echo the name", full);

    /* Truncation to capacity - 1 bytes, plus NUL, nothing written beyond. */
    for (cut = 1; cut <= len + 2 && cut < sizeof buf - 1; cut++) {
        size_t expect_n = cut - 1 < len ? cut - 1 : len;
        if (accent != NULL && expect_n == (size_t)(accent - full) + 1) {
            expect_n--; /* never split a UTF-8 character */
        }
        memset(buf, 0xA5, sizeof buf);
        got = 0;
        CHECK(sinew_last_error_message(buf, cut, &got) == SINEW_STATUS_OK, "capacity %zu", cut);
        CHECK(got == len, "capacity %zu: out_len %zu, full length %zu", cut, got, len);
        CHECK(strlen(buf) == expect_n && memcmp(buf, full, expect_n) == 0,
              "capacity %zu: got \"%s\" (%zu bytes), expected %zu bytes", cut, buf, strlen(buf),
              expect_n);
        for (i = cut; i < sizeof buf; i++) {
            if ((unsigned char)buf[i] != 0xA5) {
                CHECK(0, "capacity %zu: byte %zu written", cut, i);
                break;
            }
        }
    }
    /* Reads above did not clear or change it. */
    memset(buf, 0, sizeof buf);
    CHECK(sinew_last_error_message(buf, sizeof buf, &got) == SINEW_STATUS_OK && got == len &&
              strncmp(buf, full, sizeof buf - 1) == 0,
          "message changed by reading");
    /* out_len is optional. */
    memset(buf, 0xA5, sizeof buf);
    CHECK(sinew_last_error_message(buf, 4, NULL) == SINEW_STATUS_OK && strlen(buf) == 3,
          "read without out_len");

    /* A NULL buffer with a capacity is itself an error. */
    got = 12345;
    CHECK(sinew_last_error_message(NULL, 10, &got) == SINEW_STATUS_NULL_POINTER,
          "NULL buf with capacity 10");
    CHECK(got == 12345, "out_len written on error");
    check_error_message(__LINE__, "sinew_last_error_message(NULL, 10, &len)",
                        SINEW_STATUS_NULL_POINTER);

    /* A successful call empties it. */
    EXPECT(sinew_skeleton_find_joint(skel, "root", &index), SINEW_STATUS_OK);
    CHECK(sinew_last_error_message(NULL, 0, &len) == SINEW_STATUS_OK && len == 0,
          "message not empty after success");
    sinew_skeleton_destroy(skel);
}

static void part_b_destroy_null(void)
{
    g_section = "B destroy(NULL)";
    sinew_skeleton_destroy(NULL);
    sinew_pose_destroy(NULL);
    sinew_two_bone_ik_destroy(NULL);
    sinew_two_bone_ik_settings_default(NULL);
    sinew_fabrik_destroy(NULL);
    sinew_ccd_destroy(NULL);
    sinew_hand_ik_retargeting_destroy(NULL);
    sinew_fabrik_settings_default(NULL);
    sinew_ccd_settings_default(NULL);
    sinew_hand_ik_retargeting_settings_default(NULL);
    sinew_joint_constraint_default(NULL);
    sinew_joint_mask_destroy(NULL);
    sinew_clip_destroy(NULL);
    sinew_clip_cursor_destroy(NULL);
    sinew_crossfade_destroy(NULL);
    CHECK(1, "destroy(NULL) and settings_default(NULL) returned");
}

static void part_b_skeleton(void)
{
    SinewTransform rest[NJ], big_rest_one;
    SinewTransform *big_rest;
    int32_t *big_parents;
    SinewSkeleton *skel = NULL, *out;
    SinewPose *pose = NULL;
    uint32_t count, index, i;
    int32_t parents[NJ], parents_out[NJ + 1];
    SinewTransform rest_out[NJ + 1];
    const char *names[NJ];
    int f;

    g_section = "B skeleton";
    rest_pose(rest);
    memcpy(parents, JOINT_PARENTS, sizeof parents);
    memcpy(names, JOINT_NAMES, sizeof names);

    /* NULL pointers. */
    FILL(out);
    EXPECT(sinew_skeleton_create(NULL, rest, NULL, NJ, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_skeleton_create(parents, NULL, NULL, NJ, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_skeleton_create(parents, rest, NULL, NJ, NULL), SINEW_STATUS_NULL_POINTER);
    names[4] = NULL;
    EXPECT(sinew_skeleton_create(parents, rest, names, NJ, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    names[4] = JOINT_NAMES[4];

    /* Joint counts. */
    EXPECT(sinew_skeleton_create(parents, rest, NULL, 0, &out), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out);
    big_parents = (int32_t *)malloc(sizeof(int32_t) * (SINEW_MAX_JOINTS + 1));
    big_rest = (SinewTransform *)malloc(sizeof(SinewTransform) * (SINEW_MAX_JOINTS + 1));
    if (big_parents != NULL && big_rest != NULL) {
        big_rest_one = xf(v3(0, 0.0078125f, 0), QID(), ONE3()); /* 2^-7: sums are exact */
        for (i = 0; i <= SINEW_MAX_JOINTS; i++) {
            big_parents[i] = (int32_t)i - 1;
            big_rest[i] = big_rest_one;
        }
        EXPECT(sinew_skeleton_create(big_parents, big_rest, NULL, SINEW_MAX_JOINTS + 1, &out),
               SINEW_STATUS_OUT_OF_RANGE);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(big_parents, big_rest, NULL, UINT32_MAX, &out),
               SINEW_STATUS_OUT_OF_RANGE);
        UNTOUCHED(out);
        /* Exactly SINEW_MAX_JOINTS is fine. */
        if (EXPECT(sinew_skeleton_create(big_parents, big_rest, NULL, SINEW_MAX_JOINTS, &skel),
                   SINEW_STATUS_OK)) {
            EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK);
            EXPECT(sinew_pose_get_model_transform(pose, SINEW_MAX_JOINTS - 1, &big_rest_one),
                   SINEW_STATUS_OK);
            CHECK(big_rest_one.translation.y == 0.0078125f * SINEW_MAX_JOINTS,
                  "deep chain tip at %g", (double)big_rest_one.translation.y);
            sinew_pose_destroy(pose);
            sinew_skeleton_destroy(skel);
            pose = NULL;
            skel = NULL;
        }
    } else {
        CHECK(0, "out of memory");
    }
    free(big_parents);
    free(big_rest);

    /* Invalid hierarchies. */
    {
        static const int32_t cyclic[3] = {-1, 2, 1};
        static const int32_t two_cycle[2] = {1, 0};
        static const int32_t self_parent[3] = {-1, 1, 1};
        static const int32_t forward[3] = {-1, 2, 0};
        static const int32_t below[3] = {-1, -2, 1};
        static const int32_t min_int[2] = {-1, INT32_MIN};
        static const int32_t past_end[3] = {-1, 0, 7};
        static const int32_t root_self[1] = {0};
        EXPECT(sinew_skeleton_create(cyclic, rest, NULL, 3, &out), SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(two_cycle, rest, NULL, 2, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(self_parent, rest, NULL, 3, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(root_self, rest, NULL, 1, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(forward, rest, NULL, 3, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(below, rest, NULL, 3, &out), SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(min_int, rest, NULL, 2, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
        EXPECT(sinew_skeleton_create(past_end, rest, NULL, 3, &out),
               SINEW_STATUS_INVALID_SKELETON);
        UNTOUCHED(out);
    }

    /* Names: duplicate, empty, invalid UTF-8. */
    names[6] = "l_fore";
    EXPECT(sinew_skeleton_create(parents, rest, names, NJ, &out), SINEW_STATUS_INVALID_SKELETON);
    UNTOUCHED(out);
    names[6] = "";
    EXPECT(sinew_skeleton_create(parents, rest, names, NJ, &out), SINEW_STATUS_INVALID_SKELETON);
    UNTOUCHED(out);
    names[6] = "\xff\xfe";
    EXPECT(sinew_skeleton_create(parents, rest, names, NJ, &out),
           SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(out);
    names[6] = JOINT_NAMES[6];

    /* Non-finite and zero-rotation rest transforms. */
    for (f = 0; f < 10; f++) {
        SinewTransform bad[NJ];
        int k;
        for (k = 0; k < 3; k++) {
            memcpy(bad, rest, sizeof bad);
            *xf_field(&bad[5], f) = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
            EXPECT(sinew_skeleton_create(parents, bad, NULL, NJ, &out), SINEW_STATUS_NON_FINITE);
            UNTOUCHED(out);
        }
    }
    {
        SinewTransform bad[NJ];
        memcpy(bad, rest, sizeof bad);
        bad[2].rotation = qt(0, 0, 0, 0);
        EXPECT(sinew_skeleton_create(parents, bad, NULL, NJ, &out),
               SINEW_STATUS_INVALID_ARGUMENT);
        UNTOUCHED(out);
    }

    /* A valid skeleton for the query functions. */
    if (!EXPECT(sinew_skeleton_create(parents, rest, names, NJ, &skel), SINEW_STATUS_OK)) {
        return;
    }
    FILL(count);
    EXPECT(sinew_skeleton_joint_count(NULL, &count), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(count);
    EXPECT(sinew_skeleton_joint_count(skel, NULL), SINEW_STATUS_NULL_POINTER);

    FILL(index);
    EXPECT(sinew_skeleton_find_joint(NULL, "root", &index), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(index);
    EXPECT(sinew_skeleton_find_joint(skel, NULL, &index), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(index);
    EXPECT(sinew_skeleton_find_joint(skel, "root", NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_skeleton_find_joint(skel, "nope", &index), SINEW_STATUS_NOT_FOUND);
    UNTOUCHED(index);
    EXPECT(sinew_skeleton_find_joint(skel, "", &index), SINEW_STATUS_NOT_FOUND);
    UNTOUCHED(index);
    EXPECT(sinew_skeleton_find_joint(skel, "Root", &index), SINEW_STATUS_NOT_FOUND);
    UNTOUCHED(index);
    EXPECT(sinew_skeleton_find_joint(skel, "l_fore", &index), SINEW_STATUS_OK);
    CHECK(index == 4, "l_fore is joint %u", (unsigned)index);

    FILL(parents_out);
    EXPECT(sinew_skeleton_get_parents(NULL, parents_out, NJ), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(parents_out);
    EXPECT(sinew_skeleton_get_parents(skel, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_skeleton_get_parents(skel, parents_out, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(parents_out);
    EXPECT(sinew_skeleton_get_parents(skel, parents_out, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(parents_out);
    EXPECT(sinew_skeleton_get_parents(skel, parents_out, 0), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(parents_out);

    FILL(rest_out);
    EXPECT(sinew_skeleton_get_rest_pose(NULL, rest_out, NJ), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(rest_out);
    EXPECT(sinew_skeleton_get_rest_pose(skel, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_skeleton_get_rest_pose(skel, rest_out, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(rest_out);
    EXPECT(sinew_skeleton_get_rest_pose(skel, rest_out, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(rest_out);
    EXPECT(sinew_skeleton_get_rest_pose(skel, rest_out, 0), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(rest_out);
    sinew_skeleton_destroy(skel);

    /* A skeleton without names finds nothing. */
    if (EXPECT(sinew_skeleton_create(parents, rest, NULL, NJ, &skel), SINEW_STATUS_OK)) {
        FILL(index);
        EXPECT(sinew_skeleton_find_joint(skel, "root", &index), SINEW_STATUS_NOT_FOUND);
        UNTOUCHED(index);
        sinew_skeleton_destroy(skel);
    }
}

/* Checks a pose still holds `expect` (NJ locals). */
static int pose_is(SinewPose *pose, const SinewTransform expect[NJ])
{
    SinewTransform now[NJ];
    if (sinew_pose_get_local(pose, now, NJ) != SINEW_STATUS_OK) {
        return 0;
    }
    return memcmp(now, expect, sizeof now) == 0;
}

#define POSE_SAME(pose, snap) CHECK(pose_is((pose), (snap)), "pose changed on error")

static void part_b_pose(void)
{
    SinewTransform rest[NJ], snap[NJ], buf[NJ + 1], bad[NJ], one;
    SinewSkeleton *skel;
    SinewPose *pose = NULL, *out;
    uint32_t count;
    int f, k, i;

    g_section = "B pose";
    skel = make_skeleton(rest);
    if (skel == NULL) {
        return;
    }
    FILL(out);
    EXPECT(sinew_pose_create(NULL, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_pose_create(skel, NULL), SINEW_STATUS_NULL_POINTER);
    if (!EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel); /* pose must stay usable */
    for (i = 0; i < NJ; i++) {
        buf[i] = rest[i];
        buf[i].rotation = rng_quat();
    }
    EXPECT(sinew_pose_set_local(pose, buf, NJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);

    FILL(count);
    EXPECT(sinew_pose_joint_count(NULL, &count), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(count);
    EXPECT(sinew_pose_joint_count(pose, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_reset(NULL), SINEW_STATUS_NULL_POINTER);
    POSE_SAME(pose, snap);

    /* get_local / get_model: NULLs and count mismatches. */
    FILL(buf);
    EXPECT(sinew_pose_get_local(NULL, buf, NJ), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_local(pose, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_get_local(pose, buf, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_local(pose, buf, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_local(pose, buf, 0), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_model(NULL, buf, NJ), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_model(pose, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_get_model(pose, buf, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_model(pose, buf, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    EXPECT(sinew_pose_get_model(pose, buf, 0), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(buf);
    POSE_SAME(pose, snap);

    /* set_local / set_model: NULLs, count mismatches, non-finite, zero rotation. */
    memcpy(bad, snap, sizeof bad);
    EXPECT(sinew_pose_set_local(NULL, bad, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_local(pose, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_local(pose, bad, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    EXPECT(sinew_pose_set_local(pose, bad, 0), SINEW_STATUS_SIZE_MISMATCH);
    EXPECT(sinew_pose_set_model(NULL, bad, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_model(pose, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_model(pose, bad, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    EXPECT(sinew_pose_set_model(pose, bad, 0), SINEW_STATUS_SIZE_MISMATCH);
    POSE_SAME(pose, snap);
    for (f = 0; f < 10; f++) {
        for (k = 0; k < 3; k++) {
            float v = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
            memcpy(bad, snap, sizeof bad);
            *xf_field(&bad[NJ - 1], f) = v; /* last joint: earlier ones valid */
            EXPECT(sinew_pose_set_local(pose, bad, NJ), SINEW_STATUS_NON_FINITE);
            EXPECT(sinew_pose_set_model(pose, bad, NJ), SINEW_STATUS_NON_FINITE);
            one = snap[4];
            *xf_field(&one, f) = v;
            EXPECT(sinew_pose_set_model_transform(pose, 4, &one), SINEW_STATUS_NON_FINITE);
            POSE_SAME(pose, snap);
        }
    }
    memcpy(bad, snap, sizeof bad);
    bad[NJ - 1].rotation = qt(0, 0, 0, 0);
    EXPECT(sinew_pose_set_local(pose, bad, NJ), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_pose_set_model(pose, bad, NJ), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_pose_set_model_transform(pose, 3, &bad[NJ - 1]), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_SAME(pose, snap);

    /* Single-joint model access: NULLs and out-of-range joints. */
    FILL(one);
    EXPECT(sinew_pose_get_model_transform(NULL, 0, &one), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(one);
    EXPECT(sinew_pose_get_model_transform(pose, 0, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_get_model_transform(pose, NJ, &one), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(one);
    EXPECT(sinew_pose_get_model_transform(pose, UINT32_MAX, &one), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(one);
    one = snap[2];
    EXPECT(sinew_pose_set_model_transform(NULL, 2, &one), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_model_transform(pose, 2, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_set_model_transform(pose, NJ, &one), SINEW_STATUS_OUT_OF_RANGE);
    EXPECT(sinew_pose_set_model_transform(pose, UINT32_MAX, &one), SINEW_STATUS_OUT_OF_RANGE);
    POSE_SAME(pose, snap);

    /* Valid single-joint round trip: the joint's model transform comes back. */
    EXPECT(sinew_pose_get_model(pose, buf, NJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_model_transform(pose, 5, &one), SINEW_STATUS_OK);
    CHECK(memcmp(&one, &buf[5], sizeof one) == 0, "get_model_transform disagrees with get_model");
    {
        /* The const read gives the same bits; a wrong count leaves the buffer alone. */
        const SinewPose *read_only = pose;
        SinewTransform computed[NJ];
        EXPECT(sinew_pose_compute_model(read_only, computed, NJ), SINEW_STATUS_OK);
        CHECK(memcmp(computed, buf, sizeof computed) == 0,
              "compute_model disagrees with get_model");
        FILL(computed);
        EXPECT(sinew_pose_compute_model(read_only, computed, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
        EXPECT(sinew_pose_compute_model(NULL, computed, NJ), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_pose_compute_model(read_only, NULL, NJ), SINEW_STATUS_NULL_POINTER);
        UNTOUCHED(computed);
    }
    EXPECT(sinew_pose_set_model_transform(pose, 5, &one), SINEW_STATUS_OK);
    EXPECT(sinew_pose_set_local(pose, snap, NJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_joint_count(pose, &count), SINEW_STATUS_OK);
    CHECK(count == NJ, "joint count %u", (unsigned)count);
    sinew_pose_destroy(pose);
}

/* One model-space rule, root first (the README's): a chain of three joints one unit apart,
 * the root scaled (2, 1, 1) and joint 1 turned 90 degrees about Z puts joint 2 at (3, 2, 0)
 * for every read, and a joint set in model space reads back as set. */
static void part_b_model_rule(void)
{
    static const int32_t chain_parents[3] = {-1, 0, 1};
    SinewTransform rest[3], model[3], computed[3], one, target;
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    const float h = 0.70710678f;
    int i;

    g_section = "B model-space rule";
    for (i = 0; i < 3; i++) {
        rest[i] = xf(v3(1, 0, 0), QID(), ONE3());
    }
    rest[0].scale = v3(2, 1, 1);
    rest[1].rotation = qt(0, 0, h, h);
    if (!EXPECT(sinew_skeleton_create(chain_parents, rest, NULL, 3, &skel), SINEW_STATUS_OK) ||
        !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        sinew_skeleton_destroy(skel);
        return;
    }
    EXPECT(sinew_pose_get_model(pose, model, 3), SINEW_STATUS_OK);
    EXPECT(sinew_pose_compute_model(pose, computed, 3), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_model_transform(pose, 2, &one), SINEW_STATUS_OK);
    CHECK(len3(sub(model[2].translation, v3(3, 2, 0))) < 1e-5f, "get_model: joint 2 at (%g, %g, %g)",
          (double)model[2].translation.x, (double)model[2].translation.y,
          (double)model[2].translation.z);
    CHECK(memcmp(computed, model, sizeof model) == 0, "compute_model disagrees with get_model");
    CHECK(memcmp(&one, &model[2], sizeof one) == 0,
          "get_model_transform: joint 2 at (%g, %g, %g)", (double)one.translation.x,
          (double)one.translation.y, (double)one.translation.z);

    target = xf(v3(0.5f, -1, 2), qt(0.6f, 0, 0, 0.8f), v3(1.5f, 0.5f, 1));
    EXPECT(sinew_pose_set_model_transform(pose, 2, &target), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_model_transform(pose, 2, &one), SINEW_STATUS_OK);
    CHECK(len3(sub(one.translation, target.translation)) < 1e-5f &&
              len3(sub(one.scale, target.scale)) < 1e-5f &&
              fabsf(one.rotation.x * target.rotation.x + one.rotation.w * target.rotation.w) >
                  1 - 1e-6f,
          "set then get_model_transform: (%g, %g, %g)", (double)one.translation.x,
          (double)one.translation.y, (double)one.translation.z);
    sinew_pose_destroy(pose);
    sinew_skeleton_destroy(skel);
}

/* Overflowing model space from finite local transforms: the model-space functions should
 * report NUMERIC_OVERFLOW (or succeed with finite values), never hand out NaN or infinity. */
static void part_b_pose_overflow(void)
{
    static const int32_t chain_parents[3] = {-1, 0, 1};
    SinewTransform rest[3], model[3], one, local[3], snap[3];
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    SinewTwoBoneIk *solver = NULL;
    SinewTwoBoneIkSettings s;
    SinewIkResult res;
    SinewVec3 eff = v3(1, 1, 0);
    SinewStatus st;
    int i;

    g_section = "B huge finite pose";
    for (i = 0; i < 3; i++) {
        rest[i] = xf(v3(3e38f, 0, 0), QID(), ONE3());
    }
    if (!EXPECT(sinew_skeleton_create(chain_parents, rest, NULL, 3, &skel), SINEW_STATUS_OK) ||
        !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_two_bone_ik_settings_default(&s);
    EXPECT(sinew_two_bone_ik_create(&s, &solver), SINEW_STATUS_OK);

    FILL(model);
    st = sinew_pose_get_model(pose, model, 3);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
          "get_model returned %s", status_name(st));
    if (st == SINEW_STATUS_OK) {
        CHECK(xf_finite(&model[1]) && xf_finite(&model[2]),
              "get_model returned OK with non-finite model transforms (%g, %g)",
              (double)model[1].translation.x, (double)model[2].translation.x);
    } else {
        UNTOUCHED(model);
    }
    FILL(local);
    st = sinew_pose_compute_model(pose, local, 3);
    CHECK(st == SINEW_STATUS_NUMERIC_OVERFLOW, "compute_model returned %s", status_name(st));
    UNTOUCHED(local);
    FILL(one);
    st = sinew_pose_get_model_transform(pose, 2, &one);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
          "get_model_transform returned %s", status_name(st));
    if (st == SINEW_STATUS_OK) {
        CHECK(xf_finite(&one), "get_model_transform returned OK with (%g, %g, %g)",
              (double)one.translation.x, (double)one.translation.y, (double)one.translation.z);
    } else {
        UNTOUCHED(one);
    }
    FILL(res);
    st = sinew_two_bone_ik_solve_pose(solver, pose, 0, 1, 2, &eff, NULL, NULL, &res);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
          "solve_pose on finite locals returned %s", status_name(st));
    if (st != SINEW_STATUS_OK) {
        UNTOUCHED(res);
    }

    /* Finite model transforms whose local differences overflow. */
    EXPECT(sinew_pose_reset(pose), SINEW_STATUS_OK);
    for (i = 0; i < 3; i++) {
        model[i] = xf(v3(i == 0 ? -3e38f : 3e38f, 0, 0), QID(), ONE3());
    }
    EXPECT(sinew_pose_get_local(pose, snap, 3), SINEW_STATUS_OK);
    st = sinew_pose_set_model(pose, model, 3);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
          "set_model returned %s", status_name(st));
    EXPECT(sinew_pose_get_local(pose, local, 3), SINEW_STATUS_OK);
    if (st == SINEW_STATUS_OK) {
        CHECK(xf_finite(&local[1]), "set_model returned OK and stored local (%g, %g, %g)",
              (double)local[1].translation.x, (double)local[1].translation.y,
              (double)local[1].translation.z);
    } else {
        CHECK(memcmp(local, snap, sizeof local) == 0, "pose changed on error");
    }
    EXPECT(sinew_pose_reset(pose), SINEW_STATUS_OK);
    one = xf(v3(3e38f, 0, 0), QID(), ONE3());
    local[0] = xf(v3(-3e38f, 0, 0), QID(), ONE3());
    local[1] = xf(v3(0, 0, 0), QID(), ONE3());
    local[2] = xf(v3(0, 0, 0), QID(), ONE3());
    EXPECT(sinew_pose_set_local(pose, local, 3), SINEW_STATUS_OK);
    st = sinew_pose_set_model_transform(pose, 1, &one);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
          "set_model_transform returned %s", status_name(st));
    EXPECT(sinew_pose_get_local(pose, snap, 3), SINEW_STATUS_OK);
    if (st == SINEW_STATUS_OK) {
        CHECK(xf_finite(&snap[1]), "set_model_transform returned OK and stored local (%g, %g, %g)",
              (double)snap[1].translation.x, (double)snap[1].translation.y,
              (double)snap[1].translation.z);
    }

    sinew_two_bone_ik_destroy(solver);
    sinew_pose_destroy(pose);
    sinew_skeleton_destroy(skel);

    /* A finite effector rotation of huge magnitude copied to the end joint of a pose. */
    rest[0] = xf(v3(0, 0, 0), QID(), ONE3());
    rest[1] = xf(v3(1, 0, 0), QID(), ONE3());
    rest[2] = xf(v3(0, 1, 0), QID(), ONE3());
    s.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    if (!EXPECT(sinew_skeleton_create(chain_parents, rest, NULL, 3, &skel), SINEW_STATUS_OK) ||
        !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK) ||
        !EXPECT(sinew_two_bone_ik_create(&s, &solver), SINEW_STATUS_OK)) {
        return;
    }
    EXPECT(sinew_pose_get_local(pose, snap, 3), SINEW_STATUS_OK);
    {
        SinewQuat big = qt(0, 0, 0, 1e20f);
        st = sinew_two_bone_ik_solve_pose(solver, pose, 0, 1, 2, &eff, &big, NULL, NULL);
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "solve_pose returned %s", status_name(st));
        EXPECT(sinew_pose_get_local(pose, local, 3), SINEW_STATUS_OK);
        if (st == SINEW_STATUS_OK) {
            CHECK(xf_finite(&local[2]) && xf_unit_rotation(&local[2]),
                  "solve_pose returned OK and stored end rotation {%g, %g, %g, %g}",
                  (double)local[2].rotation.x, (double)local[2].rotation.y,
                  (double)local[2].rotation.z, (double)local[2].rotation.w);
        } else {
            CHECK(memcmp(local, snap, sizeof local) == 0, "pose changed on error");
        }
    }
    sinew_two_bone_ik_destroy(solver);
    sinew_pose_destroy(pose);
    sinew_skeleton_destroy(skel);
}

static int settings_float_count(void) { return 5; }

static float *settings_float(SinewTwoBoneIkSettings *s, int i, const char **name)
{
    switch (i) {
    case 0: *name = "weight"; return &s->weight;
    case 1: *name = "start_stretch_ratio"; return &s->start_stretch_ratio;
    case 2: *name = "max_stretch_scale"; return &s->max_stretch_scale;
    case 3: *name = "soften"; return &s->soften;
    default: *name = "pole_weight"; return &s->pole_weight;
    }
}

static void part_b_settings(void)
{
    SinewTwoBoneIkSettings def, s, got, snap;
    SinewTwoBoneIk *solver = NULL, *out;
    int f, k;

    g_section = "B settings";
    memset(&def, 0xA5, sizeof def);
    sinew_two_bone_ik_settings_default(&def);
    CHECK(def.weight == 1.0f && def.allow_stretching == 0 && def.start_stretch_ratio == 1.0f &&
              def.max_stretch_scale == 1.2f && def.end_rotation == SINEW_END_ROTATION_KEEP_MODEL &&
              def.soften == 1.0f && def.keep_twist == 0 && def.pole_weight == 1.0f,
          "defaults differ from the header's documentation");

    FILL(out);
    EXPECT(sinew_two_bone_ik_create(NULL, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_two_bone_ik_create(&def, NULL), SINEW_STATUS_NULL_POINTER);
    if (!EXPECT(sinew_two_bone_ik_create(&def, &solver), SINEW_STATUS_OK)) {
        return;
    }
    FILL(got);
    EXPECT(sinew_two_bone_ik_get_settings(NULL, &got), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(got);
    EXPECT(sinew_two_bone_ik_get_settings(solver, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_two_bone_ik_set_settings(NULL, &def), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_two_bone_ik_set_settings(solver, NULL), SINEW_STATUS_NULL_POINTER);

    /* A non-default but valid baseline, to see that failed set_settings keeps it. */
    snap = def;
    snap.weight = 0.25f;
    snap.keep_twist = 1;
    EXPECT(sinew_two_bone_ik_set_settings(solver, &snap), SINEW_STATUS_OK);

#define BAD_SETTINGS(mutate, want)                                                           \
    do {                                                                                     \
        s = def;                                                                             \
        mutate;                                                                              \
        FILL(out);                                                                           \
        EXPECT(sinew_two_bone_ik_create(&s, &out), want);                                    \
        UNTOUCHED(out);                                                                      \
        EXPECT(sinew_two_bone_ik_set_settings(solver, &s), want);                            \
        EXPECT(sinew_two_bone_ik_get_settings(solver, &got), SINEW_STATUS_OK);               \
        CHECK(memcmp(&got, &snap, sizeof got) == 0, "settings changed by failed set (%s)",   \
              #mutate);                                                                      \
    } while (0)

    BAD_SETTINGS(s.weight = 2.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.weight = -0.01f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.soften = 0.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.soften = -0.5f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.soften = 1.5f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.end_rotation = 7, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.end_rotation = -1, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.allow_stretching = 2, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.allow_stretching = UINT32_MAX, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.keep_twist = 2, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.pole_weight = 1.5f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.pole_weight = -1.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.start_stretch_ratio = 0.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_SETTINGS(s.max_stretch_scale = 0.5f, SINEW_STATUS_INVALID_ARGUMENT);
    for (f = 0; f < settings_float_count(); f++) {
        for (k = 0; k < 3; k++) {
            const char *name;
            BAD_SETTINGS(*settings_float(&s, f, &name) =
                             (k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY),
                         SINEW_STATUS_NON_FINITE);
        }
    }
#undef BAD_SETTINGS

    /* Boundary values are accepted. */
    s = def;
    s.weight = 0.0f;
    s.soften = 1e-6f;
    s.pole_weight = 0.0f;
    s.max_stretch_scale = 1.0f;
    s.start_stretch_ratio = 1e-6f;
    EXPECT(sinew_two_bone_ik_set_settings(solver, &s), SINEW_STATUS_OK);
    sinew_two_bone_ik_destroy(solver);
}

/* A byte buffer with room to place a value at a misaligned address. */
typedef union {
    unsigned char bytes[4 * 40 + 16];
    double align;
} Raw;

static void part_b_solve(void)
{
    SinewTwoBoneIkSettings s;
    SinewTwoBoneIk *solver = NULL;
    SinewTransform base[3], chain[3], copy[3];
    SinewVec3 eff = v3(0.8f, 0.9f, 0.3f), pole = v3(0, 0, 2), v;
    SinewQuat rot = qt(0, 0.6f, 0, 0.8f), q;
    SinewIkResult res;
    Raw raw;
    int t, f, k;

    g_section = "B solve";
    sinew_two_bone_ik_settings_default(&s);
    s.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    if (!EXPECT(sinew_two_bone_ik_create(&s, &solver), SINEW_STATUS_OK)) {
        return;
    }
    base[0] = xf(v3(0, 0, 0), QID(), ONE3());
    base[1] = xf(v3(1, 0, 0), qt(0, 0, 0.38268343f, 0.92387953f), ONE3());
    base[2] = xf(v3(1, 1, 0), QID(), ONE3());

#define SOLVE_EXPECT(call, want)                                                             \
    do {                                                                                     \
        memcpy(copy, chain, sizeof copy);                                                    \
        FILL(res);                                                                           \
        EXPECT(call, want);                                                                  \
        CHECK(memcmp(copy, chain, sizeof copy) == 0, "chain written on error");              \
        UNTOUCHED(res);                                                                      \
    } while (0)

    memcpy(chain, base, sizeof chain);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(NULL, chain, &eff, &rot, &pole, &res),
                 SINEW_STATUS_NULL_POINTER);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, NULL, &eff, &rot, &pole, &res),
                 SINEW_STATUS_NULL_POINTER);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, NULL, &rot, &pole, &res),
                 SINEW_STATUS_NULL_POINTER);

    /* NaN / +Inf / -Inf in every float of the chain, effector, rotation and pole. */
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        for (t = 0; t < 3; t++) {
            for (f = 0; f < 10; f++) {
                memcpy(chain, base, sizeof chain);
                *xf_field(&chain[t], f) = bad;
                SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &rot, &pole, &res),
                             SINEW_STATUS_NON_FINITE);
                if (g_verbose) {
                    printf("  (chain[%d].%s = %g)\n", t, XF_FIELD_NAMES[f], (double)bad);
                }
            }
        }
        memcpy(chain, base, sizeof chain);
        for (f = 0; f < 3; f++) {
            v = eff;
            *vec_field(&v, f) = bad;
            SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &v, &rot, &pole, &res),
                         SINEW_STATUS_NON_FINITE);
            v = pole;
            *vec_field(&v, f) = bad;
            SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &rot, &v, &res),
                         SINEW_STATUS_NON_FINITE);
        }
        for (f = 0; f < 4; f++) {
            q = rot;
            *quat_field(&q, f) = bad;
            SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &q, &pole, &res),
                         SINEW_STATUS_NON_FINITE);
        }
    }

    /* Zero quaternions in the chain and as the effector rotation. */
    for (t = 0; t < 3; t++) {
        memcpy(chain, base, sizeof chain);
        chain[t].rotation = qt(0, 0, 0, 0);
        SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &rot, &pole, &res),
                     SINEW_STATUS_INVALID_ARGUMENT);
    }
    memcpy(chain, base, sizeof chain);
    q = qt(0, 0, 0, 0);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &q, &pole, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);

    /* Misaligned pointers. */
    memcpy(raw.bytes + 1, &eff, sizeof eff);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, (const SinewVec3 *)(void *)(raw.bytes + 1),
                                         &rot, &pole, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 1, &rot, sizeof rot);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff,
                                         (const SinewQuat *)(void *)(raw.bytes + 1), &pole, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 2, &pole, sizeof pole);
    SOLVE_EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &rot,
                                         (const SinewVec3 *)(void *)(raw.bytes + 2), &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memset(raw.bytes, 0xA5, sizeof raw.bytes);
    memcpy(copy, chain, sizeof copy);
    EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, &rot, &pole,
                                   (SinewIkResult *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(copy, chain, sizeof copy) == 0, "chain written with a misaligned out_result");
    CHECK(is_filled(raw.bytes, sizeof raw.bytes), "misaligned out_result written");
    memcpy(raw.bytes + 3, base, sizeof base);
    EXPECT(sinew_two_bone_ik_solve(solver, (SinewTransform *)(void *)(raw.bytes + 3), &eff, &rot,
                                   &pole, NULL),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(raw.bytes + 3, base, sizeof base) == 0, "misaligned chain written");

    /* Optional outputs really are optional. */
    memcpy(chain, base, sizeof chain);
    EXPECT(sinew_two_bone_ik_solve(solver, chain, &eff, NULL, NULL, NULL), SINEW_STATUS_OK);
#undef SOLVE_EXPECT
    sinew_two_bone_ik_destroy(solver);
}

static void part_b_solve_pose(void)
{
    SinewTransform rest[NJ], snap[NJ];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    SinewTwoBoneIk *solver = NULL;
    SinewTwoBoneIkSettings s;
    SinewVec3 eff = v3(0.5f, 1.5f, 0.5f), pole = v3(0, 0, 3), v;
    SinewQuat rot = qt(0, 0, 0.6f, 0.8f), q;
    SinewIkResult res;
    int f, k;
    size_t c;
    /* Index triples that are not a root-first parent chain. */
    static const uint32_t not_chains[][3] = {
        {3, 5, 4}, {5, 4, 3}, {4, 3, 5}, {3, 7, 8}, {2, 3, 5}, {3, 3, 4},
        {3, 4, 4}, {7, 8, 5}, {0, 2, 3}, {6, 3, 4}, {2, 3, 3}, {1, 0, 2}};
    static const uint32_t out_of_range[][3] = {
        {NJ, 4, 5}, {3, NJ, 5}, {3, 4, NJ}, {UINT32_MAX, 4, 5}, {3, 4, UINT32_MAX},
        {3, 4, 0x80000000u}, {NJ + 1, NJ + 2, NJ + 3}};

    g_section = "B solve_pose";
    skel = make_skeleton(rest);
    if (skel == NULL) {
        return;
    }
    sinew_two_bone_ik_settings_default(&s);
    s.allow_stretching = 1; /* touches translations too */
    EXPECT(sinew_two_bone_ik_create(&s, &solver), SINEW_STATUS_OK);
    EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);

#define POSE_SOLVE_EXPECT(call, want)                                                        \
    do {                                                                                     \
        FILL(res);                                                                           \
        EXPECT(call, want);                                                                  \
        POSE_SAME(pose, snap);                                                               \
        UNTOUCHED(res);                                                                      \
    } while (0)

    POSE_SOLVE_EXPECT(sinew_two_bone_ik_solve_pose(NULL, pose, 3, 4, 5, &eff, &rot, &pole, &res),
                      SINEW_STATUS_NULL_POINTER);
    POSE_SOLVE_EXPECT(
        sinew_two_bone_ik_solve_pose(solver, NULL, 3, 4, 5, &eff, &rot, &pole, &res),
        SINEW_STATUS_NULL_POINTER);
    POSE_SOLVE_EXPECT(
        sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, NULL, &rot, &pole, &res),
        SINEW_STATUS_NULL_POINTER);

    for (c = 0; c < sizeof out_of_range / sizeof out_of_range[0]; c++) {
        POSE_SOLVE_EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, out_of_range[c][0],
                                                       out_of_range[c][1], out_of_range[c][2],
                                                       &eff, &rot, &pole, &res),
                          SINEW_STATUS_OUT_OF_RANGE);
    }
    for (c = 0; c < sizeof not_chains / sizeof not_chains[0]; c++) {
        POSE_SOLVE_EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, not_chains[c][0],
                                                       not_chains[c][1], not_chains[c][2], &eff,
                                                       &rot, &pole, &res),
                          SINEW_STATUS_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        for (f = 0; f < 3; f++) {
            v = eff;
            *vec_field(&v, f) = bad;
            POSE_SOLVE_EXPECT(
                sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, &v, &rot, &pole, &res),
                SINEW_STATUS_NON_FINITE);
            v = pole;
            *vec_field(&v, f) = bad;
            POSE_SOLVE_EXPECT(
                sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, &eff, &rot, &v, &res),
                SINEW_STATUS_NON_FINITE);
        }
        for (f = 0; f < 4; f++) {
            q = rot;
            *quat_field(&q, f) = bad;
            POSE_SOLVE_EXPECT(
                sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, &eff, &q, &pole, &res),
                SINEW_STATUS_NON_FINITE);
        }
    }
    q = qt(0, 0, 0, 0);
    POSE_SOLVE_EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, &eff, &q, &pole, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
#undef POSE_SOLVE_EXPECT

    /* The skeleton handle can go first; the pose and solves keep working. */
    sinew_skeleton_destroy(skel);
    EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, 3, 4, 5, &eff, NULL, NULL, NULL),
           SINEW_STATUS_OK);
    EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, 7, 8, 9, &eff, &rot, &pole, &res),
           SINEW_STATUS_OK);
    /* Root-level chains (the root has no parent) are fine too. */
    EXPECT(sinew_two_bone_ik_solve_pose(solver, pose, 0, 1, 2, &eff, &rot, &pole, &res),
           SINEW_STATUS_OK);
    sinew_pose_destroy(pose);
    sinew_two_bone_ik_destroy(solver);
}

/* ================================================================ chain IK (FABRIK, CCD): shared */

#define PI_F 3.14159265f
#define MAXC 16      /* max_joints of the shared solvers */
#define MAX_CHAIN 12 /* longest random chain */

enum { SOLVER_FABRIK, SOLVER_CCD };
static const char *const SOLVER_NAMES[2] = {"FABRIK", "CCD"};

/* A FABRIK or CCD handle behind one interface, so every chain test runs for both. */
typedef struct {
    int kind;
    SinewFabrik *fabrik;
    SinewCcd *ccd;
    uint32_t max_joints;
} Solver;

static Solver solver_null(int kind)
{
    Solver s;
    s.kind = kind;
    s.fabrik = NULL;
    s.ccd = NULL;
    s.max_joints = 0;
    return s;
}

static SinewStatus solver_create(int kind, const SinewFabrikSettings *fs,
                                 const SinewCcdSettings *cs, uint32_t max_joints, Solver *out)
{
    *out = solver_null(kind);
    out->max_joints = max_joints;
    return kind == SOLVER_FABRIK ? sinew_fabrik_create(fs, max_joints, &out->fabrik)
                                 : sinew_ccd_create(cs, max_joints, &out->ccd);
}

static void solver_destroy(Solver *s)
{
    if (s->kind == SOLVER_FABRIK) {
        sinew_fabrik_destroy(s->fabrik);
    } else {
        sinew_ccd_destroy(s->ccd);
    }
    s->fabrik = NULL;
    s->ccd = NULL;
}

static SinewStatus solver_set_settings(const Solver *s, const SinewFabrikSettings *fs,
                                       const SinewCcdSettings *cs)
{
    return s->kind == SOLVER_FABRIK ? sinew_fabrik_set_settings(s->fabrik, fs)
                                    : sinew_ccd_set_settings(s->ccd, cs);
}

static SinewStatus solver_set_constraint(const Solver *s, uint32_t joint,
                                         const SinewJointConstraint *c)
{
    return s->kind == SOLVER_FABRIK ? sinew_fabrik_set_constraint(s->fabrik, joint, c)
                                    : sinew_ccd_set_constraint(s->ccd, joint, c);
}

static SinewStatus solver_solve(const Solver *s, SinewTransform *chain, uint32_t n,
                                const SinewQuat *parent, const SinewVec3 *eff,
                                const SinewQuat *rot, SinewIkResult *res)
{
    return s->kind == SOLVER_FABRIK
               ? sinew_fabrik_solve(s->fabrik, chain, n, parent, eff, rot, res)
               : sinew_ccd_solve(s->ccd, chain, n, parent, eff, rot, res);
}

static SinewStatus solver_solve_pose(const Solver *s, SinewPose *pose, const uint32_t *joints,
                                     uint32_t n, const SinewVec3 *eff, const SinewQuat *rot,
                                     SinewIkResult *res)
{
    return s->kind == SOLVER_FABRIK
               ? sinew_fabrik_solve_pose(s->fabrik, pose, joints, n, eff, rot, res)
               : sinew_ccd_solve_pose(s->ccd, pose, joints, n, eff, rot, res);
}

/* One chain solve: solver kind, settings, per-joint constraints and CCD tuning, input chain,
 * root parent rotation, target. */
typedef struct {
    int kind;
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    uint32_t n;
    SinewTransform in[MAXC];
    int has_c[MAXC];
    SinewJointConstraint c[MAXC];
    float limit[MAXC];
    float weight[MAXC];
    int has_parent;
    SinewQuat parent;
    SinewVec3 eff;
    int has_rot;
    SinewQuat rot;
} ChainCase;

static void chain_case_init(ChainCase *cc, int kind, uint32_t n)
{
    uint32_t j;
    memset(cc, 0, sizeof *cc);
    cc->kind = kind;
    cc->n = n;
    sinew_fabrik_settings_default(&cc->fs);
    sinew_ccd_settings_default(&cc->cs);
    for (j = 0; j < MAXC; j++) {
        cc->limit[j] = 180.0f;
        cc->weight[j] = 1.0f;
    }
    cc->parent = QID();
    cc->rot = QID();
}

static uint32_t cc_max_iterations(const ChainCase *cc)
{
    return cc->kind == SOLVER_FABRIK ? cc->fs.max_iterations : cc->cs.max_iterations;
}

static int32_t cc_end_rotation(const ChainCase *cc)
{
    return cc->kind == SOLVER_FABRIK ? cc->fs.end_rotation : cc->cs.end_rotation;
}

/* The reach tolerance the header documents for a chain of total length `length`. */
static float cc_tolerance(const ChainCase *cc, float length)
{
    float precision = cc->kind == SOLVER_FABRIK ? cc->fs.precision : cc->cs.precision;
    uint32_t rel =
        cc->kind == SOLVER_FABRIK ? cc->fs.relative_precision : cc->cs.relative_precision;
    float t = rel ? precision * length : precision;
    return t > FLT_MIN ? t : FLT_MIN;
}

static float chain_length(const ChainCase *cc)
{
    float total = 0.0f;
    uint32_t i;
    for (i = 0; i + 1 < cc->n; i++) {
        total += len3(sub(cc->in[i + 1].translation, cc->in[i].translation));
    }
    return total;
}

/* Model rotation of chain joint i's parent in the input (the root parent for joint 0). */
static SinewQuat chain_parent_rotation(const ChainCase *cc, uint32_t i)
{
    if (i == 0) {
        return cc->has_parent ? qunit(cc->parent) : QID();
    }
    return qunit(cc->in[i - 1].rotation);
}

/* Joint i's local rotation and its bone in its own frame, in the input. */
static SinewQuat chain_local(const ChainCase *cc, uint32_t i)
{
    return qmul(qconj(chain_parent_rotation(cc, i)), qunit(cc->in[i].rotation));
}

static SinewVec3 chain_bone(const ChainCase *cc, uint32_t i)
{
    if (i + 1 >= cc->n) {
        return v3(0, 0, 0);
    }
    return qrot(qconj(qunit(cc->in[i].rotation)),
                sub(cc->in[i + 1].translation, cc->in[i].translation));
}

#define N_CHAIN_VARIANTS 12

/* Settings variant v (both solvers); *rot_mode: 0 = no effector rotation, 1 = pass one,
 * 2 = random. */
static void chain_settings_variant(ChainCase *cc, int v, int *rot_mode)
{
    float precision = 1e-3f;
    uint32_t rel = 1, iters = 10, stall = 1, tail = 1, fix = 0;
    int32_t end = SINEW_END_ROTATION_KEEP_LOCAL;
    *rot_mode = 2;
    switch (v % N_CHAIN_VARIANTS) {
    case 0: break; /* defaults */
    case 1: rel = 0; precision = 2e-3f; break; /* absolute precision */
    case 2: iters = 64; break;                 /* more iterations */
    case 3: stall = 0; break;
    case 4: end = SINEW_END_ROTATION_KEEP_MODEL; break;
    case 5: end = SINEW_END_ROTATION_COPY_EFFECTOR; *rot_mode = 1; break;
    case 6: end = SINEW_END_ROTATION_COPY_EFFECTOR; *rot_mode = 0; break;
    case 7: *rot_mode = 1; tail = 0; break; /* KEEP_LOCAL ignores a given rotation */
    case 8: iters = 1; fix = 1; break;
    case 9:
        rel = 0;
        precision = 1e-5f;
        iters = 200;
        stall = 0;
        end = SINEW_END_ROTATION_COPY_EFFECTOR;
        *rot_mode = 1;
        break;
    case 10:
        tail = 0;
        fix = 1;
        end = SINEW_END_ROTATION_KEEP_MODEL;
        *rot_mode = 0;
        break;
    default:
        precision = 0.05f;
        iters = 3;
        tail = 0;
        stall = 0;
        break;
    }
    cc->fs.precision = precision;
    cc->fs.relative_precision = rel;
    cc->fs.max_iterations = iters;
    cc->fs.stop_when_stalled = stall;
    cc->fs.end_rotation = end;
    cc->cs.precision = precision;
    cc->cs.relative_precision = rel;
    cc->cs.max_iterations = iters;
    cc->cs.start_from_tail = tail;
    cc->cs.fix_root = fix;
    cc->cs.stop_when_stalled = stall;
    cc->cs.end_rotation = end;
}

/* An angle in [lo, hi], the bounds themselves now and then. */
static float rng_angle(float lo, float hi)
{
    switch (rng_below(8)) {
    case 0: return lo;
    case 1: return hi;
    default: return rng_float(lo, hi);
    }
}

/* A rotation of at most `max_angle` radians about a random axis. */
static SinewQuat rng_small_rotation(float max_angle)
{
    SinewVec3 a = rng_dir();
    float h = 0.5f * rng_float(0.0f, max_angle);
    float s = sinf(h);
    return qt(a.x * s, a.y * s, a.z * s, cosf(h));
}

/* A random valid constraint, of `type` when positive. `local` (a candidate centre) and `bone`
 * (a candidate axis) describe the joint; the centre and axis are sometimes these, sometimes
 * identity / +X, sometimes random. */
static SinewJointConstraint rng_constraint(int type, SinewQuat local, SinewVec3 bone)
{
    SinewJointConstraint c;
    float a, b;
    sinew_joint_constraint_default(&c);
    c.type = type > 0 ? type : 1 + rng_below(3);
    c.limit_twist = c.type == SINEW_CONSTRAINT_TYPE_CONE ? (uint32_t)rng_below(2) : 0;
    switch (rng_below(4)) {
    case 0: c.reference = QID(); break;
    case 1: c.reference = rng_quat(); break;
    default: c.reference = qmul(local, rng_small_rotation(0.5f)); break;
    }
    switch (rng_below(4)) {
    case 0: c.axis = v3(1, 0, 0); break;
    case 1: c.axis = mulf(rng_dir(), rng_float(0.5f, 2.0f)); break;
    default: c.axis = len3(bone) > 1e-3f ? bone : rng_dir(); break;
    }
    c.swing_half_angle_1 = rng_angle(0.0f, PI_F);
    c.swing_half_angle_2 = rng_angle(0.0f, PI_F);
    a = rng_angle(-PI_F, PI_F);
    b = rng_angle(-PI_F, PI_F);
    c.min_angle = a < b ? a : b;
    c.max_angle = a < b ? b : a;
    return c;
}

/* Constraints on none, some or all joints (type `type` when positive, else random). */
static void chain_random_constraints(ChainCase *cc, int type)
{
    int mode = rng_below(6);
    uint32_t j;
    for (j = 0; j < cc->n; j++) {
        if (mode == 5 || (mode >= 3 && rng_below(2) == 0)) {
            cc->has_c[j] = 1;
            cc->c[j] = rng_constraint(type, chain_local(cc, j), chain_bone(cc, j));
        }
    }
}

/* CCD rotation limits and weights on none, some or all joints. */
static void chain_random_tuning(ChainCase *cc)
{
    static const float limits[5] = {0.0f, 5.0f, 30.0f, 90.0f, 180.0f};
    static const float weights[4] = {0.0f, 0.25f, 0.5f, 1.0f};
    int mode = rng_below(4);
    uint32_t j;
    for (j = 0; j < cc->n; j++) {
        if (mode == 3 || (mode == 2 && rng_below(2) == 0)) {
            cc->limit[j] = rng_below(3) == 0 ? rng_float(0.0f, 180.0f) : limits[rng_below(5)];
            cc->weight[j] = rng_below(3) == 0 ? rng_float(0.0f, 1.0f) : weights[rng_below(4)];
        }
    }
}

/* Loads a case into a solver. Every slot up to max_joints is written, constraints set or
 * cleared with NULL (some first set to a decoy that is then replaced), so nothing carries
 * over from earlier cases; slots past the chain sometimes keep random leftovers, which must
 * not matter. */
static void solver_configure(const Solver *s, const ChainCase *cc)
{
    uint32_t j;
    EXPECT(solver_set_settings(s, &cc->fs, &cc->cs), SINEW_STATUS_OK);
    for (j = 0; j < s->max_joints; j++) {
        int in_chain = j < cc->n;
        SinewJointConstraint decoy = rng_constraint(0, rng_quat(), rng_dir());
        if (rng_below(4) == 0) {
            EXPECT(solver_set_constraint(s, j, &decoy), SINEW_STATUS_OK);
        }
        if (in_chain || rng_below(2) == 0) {
            EXPECT(solver_set_constraint(s, j, in_chain && cc->has_c[j] ? &cc->c[j] : NULL),
                   SINEW_STATUS_OK);
        }
        if (s->kind == SOLVER_CCD) {
            float limit = in_chain ? cc->limit[j] : rng_float(0.0f, 180.0f);
            float weight = in_chain ? cc->weight[j] : rng_float(0.0f, 1.0f);
            EXPECT(sinew_ccd_set_joint(s->ccd, j, limit, weight), SINEW_STATUS_OK);
        }
    }
}

/* Settings and max_joints, constraints (K) and CCD tuning (JT) of a chain line. */
static void print_chain_solver(const ChainCase *cc, uint32_t max_joints)
{
    if (cc->kind == SOLVER_FABRIK) {
        print_fabrik_settings(&cc->fs);
    } else {
        print_ccd_settings(&cc->cs);
    }
    printf(" MAXJ %" PRIu32, max_joints);
}

static void print_chain_joints(const ChainCase *cc)
{
    uint32_t j;
    printf(" K");
    for (j = 0; j < cc->n; j++) {
        print_constraint(cc->has_c[j] ? &cc->c[j] : NULL);
    }
    if (cc->kind == SOLVER_CCD) {
        printf(" JT");
        for (j = 0; j < cc->n; j++) {
            pf(cc->limit[j]);
            pf(cc->weight[j]);
        }
    }
}

static int g_chain_id;

/* C-side checks of a chain solve. KIND_VALID: OK with finite unit outputs, pinned root, kept
 * scales and bone lengths, a truthful result, documented end rotations, unreachable targets
 * met straight, CCD limits and weights respected. KIND_HUGE: OK with finite outputs, or
 * NUMERIC_OVERFLOW with the chain and result untouched. */
static void check_chain_solve(const ChainCase *cc, const SinewTransform *out,
                              const SinewIkResult *res, SinewStatus st, int kind, int id)
{
    const char *name = SOLVER_NAMES[cc->kind];
    uint32_t n = cc->n, i;
    int constrained = 0, tuned = 0, free_chain;
    float total, d, err, tol, slack, lmax = 0.0f;
    int32_t end = cc_end_rotation(cc);

    if (kind == KIND_VALID) {
        CHECK(st == SINEW_STATUS_OK, "%s case %d returned %s", name, id, status_name(st));
    } else {
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "%s case %d (huge finite input) returned %s", name, id, status_name(st));
    }
    if (st != SINEW_STATUS_OK) {
        CHECK(memcmp(out, cc->in, n * sizeof *out) == 0, "%s case %d: chain written on error",
              name, id);
        CHECK(res->reached == 0 && res->error == 0.0f && res->iterations == 0,
              "%s case %d: result written on error", name, id);
        return;
    }
    for (i = 0; i < n; i++) {
        CHECK(xf_finite(&out[i]) && xf_unit_rotation(&out[i]),
              "%s case %d: output %u not finite with a unit rotation (t %g %g %g, |q| %g)",
              name, id, (unsigned)i, (double)out[i].translation.x, (double)out[i].translation.y,
              (double)out[i].translation.z, (double)qlen(out[i].rotation));
        CHECK(memcmp(&out[i].scale, &cc->in[i].scale, sizeof(SinewVec3)) == 0,
              "%s case %d: scale of joint %u changed", name, id, (unsigned)i);
    }
    CHECK(memcmp(&out[0].translation, &cc->in[0].translation, sizeof(SinewVec3)) == 0,
          "%s case %d: root moved", name, id);
    CHECK(isfinite(res->error) && res->error >= 0.0f, "%s case %d: result error %g", name, id,
          (double)res->error);
    CHECK(res->reached <= 1 && res->iterations <= cc_max_iterations(cc),
          "%s case %d: reached %u, iterations %u of at most %u", name, id,
          (unsigned)res->reached, (unsigned)res->iterations, (unsigned)cc_max_iterations(cc));
    if (kind != KIND_VALID) {
        return;
    }

    for (i = 0; i < n; i++) {
        constrained |= cc->has_c[i];
        tuned |= cc->kind == SOLVER_CCD && (cc->limit[i] < 180.0f || cc->weight[i] < 1.0f);
    }
    total = chain_length(cc);
    slack = 1e-4f * total + 1e-5f;
    for (i = 0; i + 1 < n; i++) {
        float l = len3(sub(cc->in[i + 1].translation, cc->in[i].translation));
        float m = len3(sub(out[i + 1].translation, out[i].translation));
        lmax = l > lmax ? l : lmax;
        CHECK(fabsf(l - m) <= slack, "%s case %d: bone %u length %g became %g", name, id,
              (unsigned)i, (double)l, (double)m);
    }
    d = len3(sub(cc->eff, cc->in[0].translation));
    err = len3(sub(out[n - 1].translation, cc->eff));
    CHECK(fabsf(err - res->error) <= 1e-5f * (1.0f + d + total),
          "%s case %d: reported error %g, actual %g", name, id, (double)res->error,
          (double)err);
    tol = cc_tolerance(cc, total);
    if (fabsf(res->error - tol) > 1e-5f * tol) {
        CHECK((res->reached == 1) == (res->error <= tol),
              "%s case %d: reached %u with error %g, tolerance %g", name, id,
              (unsigned)res->reached, (double)res->error, (double)tol);
    }
    free_chain = !constrained && (cc->kind == SOLVER_FABRIK || (!cc->cs.fix_root && !tuned));
    if (free_chain && d > total * 1.001f) {
        CHECK(fabsf(res->error - (d - total)) <= 1e-4f * (d + total),
              "%s case %d: unreachable target: error %g, expected %g (chain laid straight)",
              name, id, (double)res->error, (double)(d - total));
    }
    if (cc->kind == SOLVER_FABRIK && !constrained && cc->fs.max_iterations >= 64 &&
        !cc->fs.stop_when_stalled && cc->fs.relative_precision && d > 2.0f * lmax - total &&
        d > 0.1f * total && d < 0.9f * total) {
        CHECK(res->reached == 1, "%s case %d: reachable target (d %g of %g) missed by %g", name,
              id, (double)d, (double)total, (double)res->error);
    }
    if (!cc->has_c[n - 1]) {
        SinewQuat want;
        if (end == SINEW_END_ROTATION_KEEP_MODEL ||
            (end == SINEW_END_ROTATION_COPY_EFFECTOR && !cc->has_rot)) {
            want = cc->in[n - 1].rotation;
        } else if (end == SINEW_END_ROTATION_COPY_EFFECTOR) {
            want = cc->rot;
        } else {
            want = qmul(out[n - 2].rotation, chain_local(cc, n - 1));
        }
        CHECK(qsame(want, out[n - 1].rotation) > 1.0f - 1e-5f,
              "%s case %d: tip rotation does not follow end_rotation %d", name, id, (int)end);
    }
    if (cc->kind == SOLVER_CCD) {
        /* Limits hold on unconstrained joints. Weight 0 and fix_root keep a joint as it was
         * only when no constraint is set: the input is first projected onto the constraints,
         * which may turn any joint. */
        for (i = 0; i + 1 < n; i++) {
            SinewQuat pout = i == 0 ? chain_parent_rotation(cc, 0) : out[i - 1].rotation;
            SinewQuat lin = chain_local(cc, i), lout = qmul(qconj(pout), out[i].rotation);
            if (i == 0 && cc->cs.fix_root && !constrained) {
                CHECK(qsame(out[0].rotation, cc->in[0].rotation) > 1.0f - 1e-6f,
                      "%s case %d: fix_root, but the root rotated", name, id);
            }
            if (cc->has_c[i]) {
                continue; /* the constraint may pull it further than the limit */
            }
            if (cc->weight[i] == 0.0f && !constrained) {
                CHECK(qsame(lin, lout) > 1.0f - 1e-5f,
                      "%s case %d: joint %u has weight 0 but its local rotation changed by %g",
                      name, id, (unsigned)i, (double)qangle(lin, lout));
            }
            CHECK(qangle(lin, lout) <= cc->limit[i] * (PI_F / 180.0f) + 2e-3f,
                  "%s case %d: joint %u turned %g degrees, limit %g", name, id, (unsigned)i,
                  (double)(qangle(lin, lout) * (180.0f / PI_F)), (double)cc->limit[i]);
        }
    }
}

/* Runs a chain case on `shared` (or on a fresh solver sized for it), prints its CHAIN line and
 * checks it in C. The solved chain goes to `out_chain` when not NULL. */
static SinewStatus run_chain_case(const ChainCase *cc, const Solver *shared, int kind,
                                  SinewTransform *out_chain)
{
    Solver fresh, s;
    SinewTransform out[MAXC];
    SinewIkResult res;
    SinewStatus st;
    uint32_t n = cc->n;
    int id = g_chain_id;

    if (shared != NULL) {
        s = *shared;
    } else {
        if (!EXPECT(solver_create(cc->kind, &cc->fs, &cc->cs, n + (uint32_t)rng_below(3), &fresh),
                    SINEW_STATUS_OK)) {
            return SINEW_STATUS_INVALID_ARGUMENT;
        }
        s = fresh;
    }
    solver_configure(&s, cc);
    memcpy(out, cc->in, n * sizeof out[0]);
    memset(&res, 0, sizeof res);
    st = solver_solve(&s, out, n, cc->has_parent ? &cc->parent : NULL, &cc->eff,
                      cc->has_rot ? &cc->rot : NULL, &res);

    g_chain_id++;
    printf("CHAIN %d", id);
    print_chain_solver(cc, s.max_joints);
    print_xfs("IN", cc->in, n);
    print_chain_joints(cc);
    print_opt_quat("PARENT", cc->has_parent ? &cc->parent : NULL);
    printf(" E");
    print_vec(&cc->eff);
    print_opt_quat("R", cc->has_rot ? &cc->rot : NULL);
    printf(" ST %d", (int)st);
    print_xfs("OUT", out, n);
    print_result(&res);
    printf("\n");

    check_chain_solve(cc, out, &res, st, kind, id);
    if (out_chain != NULL) {
        memcpy(out_chain, out, n * sizeof out[0]);
    }
    if (shared == NULL) {
        solver_destroy(&fresh);
    }
    return st;
}

/* A random chain: random bends, bone lengths (now and then one of length zero), rotations
 * (now and then not unit length) and scales. */
static void make_chain(ChainCase *cc)
{
    uint32_t n = cc->n, i;
    int zero = rng_below(4) == 0 ? rng_below((int)n - 1) : -1;
    int scaled = rng_below(6) == 0, unnormalized = rng_below(6) == 0;
    float bend = rng_float(0.0f, 1.5f);
    SinewVec3 p = rng_point(3.0f), dir = rng_dir();
    for (i = 0; i < n; i++) {
        SinewQuat q = rng_quat();
        if (unnormalized) {
            q = qscale(q, rng_float(0.5f, 3.0f));
        }
        cc->in[i] = xf(p, q,
                       scaled ? v3(rng_float(0.5f, 2.0f), rng_float(0.5f, 2.0f),
                                   rng_float(0.5f, 2.0f))
                              : ONE3());
        if (i + 1 < n) {
            SinewVec3 nd = add(dir, mulf(rng_dir(), bend));
            if (len3(nd) > 1e-3f) {
                dir = vunit(nd);
            }
            p = add(p, mulf(dir, (int)i == zero ? 0.0f : rng_float(0.1f, 1.5f)));
        }
    }
}

/* A target for a chain of length `total` from `root`. */
static SinewVec3 rng_chain_target(SinewVec3 root, float total)
{
    int bucket = rng_below(20);
    float ratio;
    if (bucket < 9) {
        ratio = rng_float(0.1f, 0.95f); /* reachable */
    } else if (bucket < 13) {
        ratio = rng_float(1.05f, 2.5f); /* out of reach */
    } else if (bucket < 16) {
        ratio = rng_float(0.98f, 1.02f); /* around full extension */
    } else if (bucket < 18) {
        ratio = rng_float(0.0f, 0.1f); /* near the root */
    } else if (bucket < 19) {
        return root; /* at the root */
    } else {
        ratio = rng_float(3.0f, 10.0f); /* far */
    }
    return add(root, mulf(rng_dir(), ratio * total));
}

#define N_CHAIN_RANDOM 260 /* per solver */

static void part_a_chain_random(void)
{
    Solver shared;
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    int kind, c;

    g_section = "A parity: chain IK, random chains";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create(kind, &fs, &cs, MAXC, &shared), SINEW_STATUS_OK)) {
            continue;
        }
        for (c = 0; c < N_CHAIN_RANDOM; c++) {
            ChainCase cc;
            int rot_mode;
            chain_case_init(&cc, kind, 2 + (uint32_t)rng_below(MAX_CHAIN - 1));
            chain_settings_variant(&cc, c, &rot_mode);
            make_chain(&cc);
            cc.eff = rng_chain_target(cc.in[0].translation, chain_length(&cc));
            switch (rng_below(3)) {
            case 0: break; /* NULL: identity */
            case 1: cc.has_parent = 1; cc.parent = rng_quat(); break;
            default: cc.has_parent = 1; cc.parent = qscale(rng_quat(), rng_float(0.5f, 3.0f));
            }
            if (rot_mode == 1 || (rot_mode == 2 && rng_below(3) == 0)) {
                cc.has_rot = 1;
                cc.rot = rng_below(4) == 0 ? qscale(rng_quat(), 2.0f) : rng_quat();
            }
            chain_random_constraints(&cc, 0);
            if (kind == SOLVER_CCD) {
                chain_random_tuning(&cc);
            }
            run_chain_case(&cc, c % 4 == 3 ? NULL : &shared, KIND_VALID, NULL);
        }
        solver_destroy(&shared);
    }
}

/* Degenerate but valid geometry: OK with finite outputs, for both solvers, several settings,
 * without and with constraints (each type). */
#define N_DEGENERATE_GEOMETRIES 14

static void degenerate_geometry(ChainCase *cc, int g)
{
    SinewVec3 a = v3(0.5f, -0.25f, 1.0f), dir = v3(0.6f, 0.0f, 0.8f), perp = v3(0, 1, 0);
    static const SinewQuat rots[4] = {{0.0f, 0.0f, 0.38268343f, 0.92387953f},
                                      {0.1f, 0.2f, 0.3f, 0.927362f},
                                      {0.0f, 0.0f, 0.0f, 1.0f},
                                      {-0.5f, 0.5f, 0.5f, 0.5f}};
    uint32_t i, n = g >= 11 && g <= 12 ? 2 : 4;
    cc->n = n;
    for (i = 0; i < n; i++) {
        cc->in[i] = xf(a, rots[i % 4], ONE3());
    }
    switch (g) {
    case 0: /* bent chain, target at the root */
    case 13: /* closed loop (tip on the root), target at the root */
        cc->in[1].translation = add(a, v3(1, 0, 0));
        cc->in[2].translation = add(a, v3(1, 0.8f, 0));
        cc->in[3].translation = g == 0 ? add(a, v3(0.5f, 1.2f, 0.3f)) : a;
        cc->eff = a;
        break;
    case 1: /* every joint on the root, target elsewhere */
        cc->eff = add(a, dir);
        break;
    case 2: /* every joint on the root, target at the root */
        cc->eff = a;
        break;
    case 3: /* two coincident joints in the middle */
        cc->in[1].translation = add(a, v3(1, 0, 0));
        cc->in[2].translation = cc->in[1].translation;
        cc->in[3].translation = add(a, v3(1, 1, 0));
        cc->eff = add(a, mulf(dir, 1.2f));
        break;
    case 4: /* zero-length first bone */
        cc->in[2].translation = add(a, v3(1, 0, 0));
        cc->in[3].translation = add(a, v3(1, 1, 0));
        cc->eff = add(a, v3(0.3f, 0.9f, 0.6f));
        break;
    default: /* 5..10: straight chains along dir, 11..12: one bone */
        for (i = 1; i < n; i++) {
            cc->in[i].translation = add(a, mulf(dir, (float)i));
        }
        if (g == 5) {
            cc->eff = add(a, mulf(dir, 1.5f)); /* on its line, within reach */
        } else if (g == 6) {
            cc->eff = cc->in[n - 1].translation; /* already at the tip */
        } else if (g == 7) {
            cc->eff = add(a, mulf(perp, chain_length(cc))); /* full extension, elsewhere */
        } else if (g == 8) {
            cc->eff = sub(a, mulf(dir, 1.5f)); /* behind the root, on its line */
        } else if (g == 9) {
            cc->eff = add(a, mulf(dir, 2.0f * chain_length(cc))); /* beyond the tip */
        } else if (g == 10) {
            /* folded back and forth, target at exactly full extension */
            cc->in[2].translation = a;
            cc->in[3].translation = add(a, dir);
            cc->eff = add(a, mulf(dir, chain_length(cc)));
        } else if (g == 11) {
            cc->eff = add(a, v3(-2, 0.5f, 0.1f)); /* one bone */
        } else {
            cc->in[1].translation = a; /* one zero-length bone */
            cc->eff = add(a, v3(-2, 0.5f, 0.1f));
        }
        break;
    }
}

static void part_a_chain_degenerate(void)
{
    static const int variants[] = {0, 3, 4, 5, 8, 10};
    Solver shared;
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    size_t vi;
    int kind, g, with_constraints;
    uint32_t j;

    g_section = "A parity: chain IK, degenerate but valid";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create(kind, &fs, &cs, MAXC, &shared), SINEW_STATUS_OK)) {
            continue;
        }
        for (vi = 0; vi < sizeof variants / sizeof variants[0]; vi++) {
            for (with_constraints = 0; with_constraints < 2; with_constraints++) {
                for (g = 0; g < N_DEGENERATE_GEOMETRIES; g++) {
                    ChainCase cc;
                    int rot_mode;
                    chain_case_init(&cc, kind, 4);
                    chain_settings_variant(&cc, variants[vi], &rot_mode);
                    degenerate_geometry(&cc, g);
                    if (rot_mode == 1) {
                        cc.has_rot = 1;
                        cc.rot = qt(0.1f, -0.7f, 0.2f, 0.6f);
                    }
                    if (with_constraints) {
                        cc.has_parent = 1;
                        cc.parent = qt(0.0f, 0.6f, 0.0f, 0.8f);
                        for (j = 0; j < cc.n; j++) {
                            cc.has_c[j] = 1;
                            cc.c[j] = rng_constraint(1 + (int)((j + (uint32_t)g) % 3),
                                                     chain_local(&cc, j), chain_bone(&cc, j));
                        }
                        if (kind == SOLVER_CCD) {
                            cc.limit[1] = 30.0f;
                            cc.weight[0] = 0.5f;
                        }
                    }
                    run_chain_case(&cc, &shared, KIND_VALID, NULL);
                }
            }
        }
        solver_destroy(&shared);
    }
}

/* Huge finite inputs to FABRIK and CCD: OK with finite, unit-rotation outputs, or
 * NUMERIC_OVERFLOW with outputs untouched. A finite rotation of huge magnitude (chain,
 * effector, root parent, constraint reference) is renormalized like any rotation, and a huge
 * constraint axis is just a direction: those must solve exactly like their unit-length
 * equivalents. */
static void huge_base(ChainCase *cc, int kind)
{
    chain_case_init(cc, kind, 4);
    cc->in[0] = xf(v3(0, 0, 0), QID(), ONE3());
    cc->in[1] = xf(v3(1, 0, 0), qt(0, 0, 0.38268343f, 0.92387953f), ONE3());
    cc->in[2] = xf(v3(1, 1, 0), QID(), ONE3());
    cc->in[3] = xf(v3(1, 1, 1), qt(0.5f, 0.5f, 0.5f, 0.5f), ONE3());
    cc->eff = v3(0.5f, 1.0f, 0.25f);
}

/* Runs `huge` and its unit-magnitude twin `unit`: both OK and the same outputs. */
static void expect_equivalent(const ChainCase *huge, const ChainCase *unit, const Solver *s,
                              const char *what)
{
    SinewTransform a[MAXC], b[MAXC];
    SinewStatus sa, sb;
    uint32_t i;
    sa = run_chain_case(huge, s, KIND_HUGE, a);
    sb = run_chain_case(unit, s, KIND_VALID, b);
    CHECK(sa == SINEW_STATUS_OK, "%s: %s returned %s (expected to solve like the unit-length "
                                 "equivalent)",
          SOLVER_NAMES[huge->kind], what, status_name(sa));
    if (sa == SINEW_STATUS_OK && sb == SINEW_STATUS_OK) {
        for (i = 0; i < huge->n; i++) {
            CHECK(xf_near(&a[i], &b[i], 1e-5f),
                  "%s: %s: joint %u differs from the unit-length equivalent (t %g %g %g vs %g "
                  "%g %g)",
                  SOLVER_NAMES[huge->kind], what, (unsigned)i, (double)a[i].translation.x,
                  (double)a[i].translation.y, (double)a[i].translation.z,
                  (double)b[i].translation.x, (double)b[i].translation.y,
                  (double)b[i].translation.z);
        }
    }
}

static void part_b_chain_huge(void)
{
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    Solver s;
    ChainCase cc, twin;
    int kind;
    uint32_t i;

    g_section = "B huge finite inputs: chain IK";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create(kind, &fs, &cs, MAXC, &s), SINEW_STATUS_OK)) {
            continue;
        }
        huge_base(&cc, kind);
        cc.eff = v3(1e30f, 0, 0);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);
        cc.eff = v3(-1e30f, 1e30f, 1e30f);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);
        cc.eff = v3(3e38f, 3e38f, -3e38f);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);
        cc.has_c[1] = 1;
        cc.c[1] = rng_constraint(SINEW_CONSTRAINT_TYPE_CONE, chain_local(&cc, 1), chain_bone(&cc, 1));
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        huge_base(&cc, kind); /* positions scaled up: bone lengths overflow when squared */
        for (i = 0; i < cc.n; i++) {
            cc.in[i].translation = mulf(cc.in[i].translation, 1e30f);
        }
        cc.eff = v3(5e29f, 1e30f, 2.5e29f);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);
        cc.eff = v3(0, 0, 0);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        huge_base(&cc, kind); /* far from the origin */
        for (i = 0; i < cc.n; i++) {
            cc.in[i].translation = add(cc.in[i].translation, v3(1e30f, -1e30f, 1e30f));
        }
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        huge_base(&cc, kind); /* a bone whose length overflows */
        cc.in[1].translation = v3(3e38f, 0, 0);
        cc.in[2].translation = v3(-3e38f, 0, 0);
        cc.in[3].translation = v3(-3e38f, 1, 0);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        huge_base(&cc, kind); /* huge scales are carried, not used */
        for (i = 0; i < cc.n; i++) {
            cc.in[i].scale = v3(1e30f, 3e38f, 1e30f);
        }
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        huge_base(&cc, kind); /* huge precisions */
        cc.fs.precision = cc.cs.precision = 3e38f;
        run_chain_case(&cc, &s, KIND_HUGE, NULL);
        cc.fs.relative_precision = cc.cs.relative_precision = 0;
        cc.eff = v3(1e30f, 0, 0);
        run_chain_case(&cc, &s, KIND_HUGE, NULL);

        /* Huge-magnitude rotations: in the chain, as the copied effector rotation. */
        huge_base(&cc, kind);
        twin = cc;
        cc.in[1].rotation = qt(0, 0, 1e30f, 1e30f);
        twin.in[1].rotation = qt(0, 0, 0.70710678f, 0.70710678f);
        expect_equivalent(&cc, &twin, &s, "chain rotation {0, 0, 1e30, 1e30}");
        huge_base(&cc, kind);
        cc.fs.end_rotation = cc.cs.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
        twin = cc;
        cc.has_rot = twin.has_rot = 1;
        cc.rot = qt(0, 0, 1e30f, 1e30f);
        twin.rot = qt(0, 0, 0.70710678f, 0.70710678f);
        expect_equivalent(&cc, &twin, &s, "effector rotation {0, 0, 1e30, 1e30}");
        cc.rot = qt(0, 0, 0, 1e20f);
        twin.rot = QID();
        expect_equivalent(&cc, &twin, &s, "effector rotation {0, 0, 0, 1e20}");

        /* ... as the root parent rotation (a root constraint makes it matter to FABRIK). */
        huge_base(&cc, kind);
        cc.has_c[0] = 1;
        sinew_joint_constraint_default(&cc.c[0]);
        cc.c[0].swing_half_angle_1 = 0.3f;
        cc.c[0].swing_half_angle_2 = 0.2f;
        twin = cc;
        cc.has_parent = twin.has_parent = 1;
        cc.parent = qt(0, 0, 1e30f, 1e30f);
        twin.parent = qt(0, 0, 0.70710678f, 0.70710678f);
        expect_equivalent(&cc, &twin, &s, "root_parent_rotation {0, 0, 1e30, 1e30}");
        cc.parent = qt(0, 0, 0, 1e20f);
        twin.parent = QID();
        expect_equivalent(&cc, &twin, &s, "root_parent_rotation {0, 0, 0, 1e20}");

        /* ... as a constraint reference; and a huge constraint axis. */
        huge_base(&cc, kind);
        cc.has_c[1] = 1;
        sinew_joint_constraint_default(&cc.c[1]);
        cc.c[1].type = SINEW_CONSTRAINT_TYPE_HINGE;
        cc.c[1].axis = v3(0, 0, 1);
        cc.c[1].min_angle = -0.2f;
        cc.c[1].max_angle = 0.3f;
        twin = cc;
        cc.c[1].reference = qt(0, 0, 1e30f, 1e30f);
        twin.c[1].reference = qt(0, 0, 0.70710678f, 0.70710678f);
        expect_equivalent(&cc, &twin, &s, "constraint reference {0, 0, 1e30, 1e30}");
        cc.c[1].reference = twin.c[1].reference;
        cc.c[1].axis = v3(0, 0, 1e20f);
        expect_equivalent(&cc, &twin, &s, "constraint axis {0, 0, 1e20}");
        cc.c[1].axis = v3(0, 0, 3e38f);
        expect_equivalent(&cc, &twin, &s, "constraint axis {0, 0, 3e38}");
        solver_destroy(&s);
    }
}

/* ================================================================ big skeleton */

#define NB 20
static const char *const BIG_NAMES[NB] = {"root", "c1",  "c2",  "c3",  "c4",      "c5",    "c6",
                                          "c7",   "c8",  "c9",  "c10", "c11",     "c12",   "b1",
                                          "b2",   "ik_root", "ik_gun", "ik_r", "ik_l", "b3"};
static const int32_t BIG_PARENTS[NB] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                        9, 10, 11, 3, 13, 0, 15, 16, 16, 5};

static SinewSkeleton *make_big_skeleton(SinewTransform rest[NB])
{
    SinewSkeleton *skel = NULL;
    int i;
    for (i = 0; i < NB; i++) {
        rest[i] = xf(i == 0 ? v3(0, 1, 0) : mulf(rng_dir(), rng_float(0.3f, 1.0f)), rng_quat(),
                     ONE3());
    }
    if (!EXPECT(sinew_skeleton_create(BIG_PARENTS, rest, BIG_NAMES, NB, &skel),
                SINEW_STATUS_OK)) {
        return NULL;
    }
    return skel;
}

static uint32_t big_depth(uint32_t j)
{
    uint32_t d = 0;
    while (BIG_PARENTS[j] >= 0) {
        j = (uint32_t)BIG_PARENTS[j];
        d++;
    }
    return d;
}

static int big_is_ancestor(uint32_t a, uint32_t j)
{
    while (BIG_PARENTS[j] >= 0) {
        j = (uint32_t)BIG_PARENTS[j];
        if (j == a) {
            return 1;
        }
    }
    return 0;
}

/* k joints of the big skeleton, root first, each the parent of the next. */
static void big_pick_chain(uint32_t *joints, uint32_t k)
{
    for (;;) {
        uint32_t e = (uint32_t)rng_below(NB), i;
        if (big_depth(e) + 1 >= k) {
            joints[k - 1] = e;
            for (i = k - 1; i > 0; i--) {
                joints[i - 1] = (uint32_t)BIG_PARENTS[joints[i]];
            }
            return;
        }
    }
}

/* Random local rotations on the rest pose, now and then a uniform scale at the root. */
static void big_random_local(const SinewTransform rest[NB], SinewTransform local[NB], int c)
{
    int i;
    for (i = 0; i < NB; i++) {
        local[i] = rest[i];
        local[i].rotation = rng_quat();
    }
    if (c % 4 == 3) {
        float k = c % 8 == 3 ? 1.5f : 0.8f;
        local[0].scale = v3(k, k, k);
    }
}

/* ================================================================ Part A: chain IK on a pose */

static int g_chain_pose_id;

#define N_CHAIN_POSE 40

static void part_a_chain_pose(void)
{
    SinewTransform rest[NB], local[NB], before[NB], after[NB], model[NB];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    Solver shared[2];
    int c, kind, i;

    g_section = "A parity: chain IK on a pose";
    skel = make_big_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel);
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    for (kind = 0; kind < 2; kind++) {
        EXPECT(solver_create(kind, &fs, &cs, MAXC, &shared[kind]), SINEW_STATUS_OK);
    }
    for (c = 0; c < N_CHAIN_POSE; c++) {
        ChainCase cc;
        Solver fresh = solver_null(c % 2), s;
        uint32_t joints[MAX_CHAIN], k = 2 + (uint32_t)rng_below(MAX_CHAIN - 1), j;
        int rot_mode, id = g_chain_pose_id;
        SinewIkResult res;
        SinewStatus st;
        float total, d;

        kind = c % 2;
        big_pick_chain(joints, k);
        big_random_local(rest, local, c);
        EXPECT(sinew_pose_set_local(pose, local, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model, NB), SINEW_STATUS_OK);
        chain_case_init(&cc, kind, k);
        chain_settings_variant(&cc, c / 2, &rot_mode);
        for (j = 0; j < k; j++) {
            cc.in[j] = model[joints[j]];
        }
        if (BIG_PARENTS[joints[0]] >= 0) {
            cc.has_parent = 1; /* only for the constraint centres below; not passed */
            cc.parent = model[BIG_PARENTS[joints[0]]].rotation;
        }
        total = chain_length(&cc);
        cc.eff = rng_chain_target(cc.in[0].translation, total);
        if (rot_mode == 1 || (rot_mode == 2 && rng_below(3) == 0)) {
            cc.has_rot = 1;
            cc.rot = rng_quat();
        }
        chain_random_constraints(&cc, 0);
        if (kind == SOLVER_CCD) {
            chain_random_tuning(&cc);
        }
        if (c % 3 == 2) {
            if (!EXPECT(solver_create(kind, &fs, &cs, k, &fresh), SINEW_STATUS_OK)) {
                continue;
            }
            s = fresh;
        } else {
            s = shared[kind];
        }
        solver_configure(&s, &cc);
        EXPECT(sinew_pose_get_local(pose, before, NB), SINEW_STATUS_OK);
        memset(&res, 0, sizeof res);
        st = solver_solve_pose(&s, pose, joints, k, &cc.eff, cc.has_rot ? &cc.rot : NULL, &res);
        EXPECT(sinew_pose_get_local(pose, after, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model, NB), SINEW_STATUS_OK);

        g_chain_pose_id++;
        printf("CHPOSE %d", id);
        print_skeleton(NB, BIG_NAMES, BIG_PARENTS, rest);
        printf(" LOCAL");
        for (i = 0; i < NB; i++) {
            print_xf(&local[i]);
        }
        print_chain_solver(&cc, s.max_joints);
        print_indices("JOINTS", joints, k);
        print_chain_joints(&cc);
        printf(" E");
        print_vec(&cc.eff);
        print_opt_quat("R", cc.has_rot ? &cc.rot : NULL);
        printf(" ST %d OUT", (int)st);
        for (i = 0; i < NB; i++) {
            print_xf(&after[i]);
        }
        printf(" MODEL");
        for (i = 0; i < NB; i++) {
            print_xf(&model[i]);
        }
        print_result(&res);
        printf("\n");

        CHECK(st == SINEW_STATUS_OK, "%s pose case %d returned %s", SOLVER_NAMES[kind], id,
              status_name(st));
        for (i = 0; i < NB; i++) {
            int in_chain = 0;
            for (j = 0; j < k; j++) {
                in_chain |= joints[j] == (uint32_t)i;
            }
            CHECK(xf_finite(&after[i]) && xf_unit_rotation(&after[i]) && xf_finite(&model[i]),
                  "%s pose case %d: joint %d not finite/unit", SOLVER_NAMES[kind], id, i);
            if (!in_chain) {
                CHECK(memcmp(&after[i], &before[i], sizeof after[i]) == 0,
                      "%s pose case %d: joint %d outside the chain changed", SOLVER_NAMES[kind],
                      id, i);
            } else {
                CHECK(memcmp(&after[i].translation, &before[i].translation,
                             sizeof(SinewVec3)) == 0 &&
                          memcmp(&after[i].scale, &before[i].scale, sizeof(SinewVec3)) == 0,
                      "%s pose case %d: chain joint %d translation/scale changed",
                      SOLVER_NAMES[kind], id, i);
            }
        }
        d = len3(sub(cc.eff, cc.in[0].translation));
        CHECK(isfinite(res.error) && res.iterations <= cc_max_iterations(&cc) &&
                  fabsf(len3(sub(model[joints[k - 1]].translation, cc.eff)) - res.error) <=
                      1e-4f * (1.0f + d + total),
              "%s pose case %d: result error %g, end joint %g from the effector, iterations %u",
              SOLVER_NAMES[kind], id, (double)res.error,
              (double)len3(sub(model[joints[k - 1]].translation, cc.eff)),
              (unsigned)res.iterations);
        if (c % 3 == 2) {
            solver_destroy(&fresh);
        }
    }
    for (kind = 0; kind < 2; kind++) {
        solver_destroy(&shared[kind]);
    }
    sinew_pose_destroy(pose);
}

/* ================================================================ Part A: constraints on a pose */

static int g_apply_id;

#define N_APPLY 30

static void part_a_apply_constraints(void)
{
    SinewTransform rest[NB], local[NB], before[NB], after[NB], again[NB];
    SinewJointConstraint cons[8];
    uint32_t joints[8];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    int c, i;

    g_section = "A parity: sinew_pose_apply_constraints";
    skel = make_big_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel);
    for (c = 0; c < N_APPLY; c++) {
        uint32_t count = (uint32_t)rng_below(9), k, m;
        int dup = 0, id = g_apply_id++;
        SinewStatus st;
        big_random_local(rest, local, c);
        EXPECT(sinew_pose_set_local(pose, local, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_local(pose, before, NB), SINEW_STATUS_OK);
        for (k = 0; k < count; k++) {
            joints[k] = c % 5 == 4 && k > 0 ? joints[0] : (uint32_t)rng_below(NB);
            cons[k] = rng_constraint(1 + (int)((k + (uint32_t)c) % 3),
                                     qmul(local[joints[k]].rotation, rng_small_rotation(1.5f)),
                                     rng_dir());
            for (m = 0; m < k; m++) {
                dup |= joints[m] == joints[k];
            }
        }
        st = sinew_pose_apply_constraints(pose, count > 0 || c % 2 ? joints : NULL,
                                          count > 0 || c % 2 ? cons : NULL, count);
        EXPECT(sinew_pose_get_local(pose, after, NB), SINEW_STATUS_OK);

        printf("APPLY %d", id);
        print_skeleton(NB, BIG_NAMES, BIG_PARENTS, rest);
        printf(" LOCAL");
        for (i = 0; i < NB; i++) {
            print_xf(&local[i]);
        }
        printf(" LIST %" PRIu32, count);
        for (k = 0; k < count; k++) {
            printf(" %" PRIu32, joints[k]);
            print_constraint(&cons[k]);
        }
        printf(" ST %d OUT", (int)st);
        for (i = 0; i < NB; i++) {
            print_xf(&after[i]);
        }
        printf("\n");

        CHECK(st == SINEW_STATUS_OK, "apply case %d returned %s", id, status_name(st));
        for (i = 0; i < NB; i++) {
            int listed = 0;
            for (k = 0; k < count; k++) {
                listed |= joints[k] == (uint32_t)i;
            }
            CHECK(xf_finite(&after[i]) && xf_unit_rotation(&after[i]),
                  "apply case %d: joint %d not finite/unit (|q| %g)", id, i,
                  (double)qlen(after[i].rotation));
            if (!listed) {
                CHECK(memcmp(&after[i], &before[i], sizeof after[i]) == 0,
                      "apply case %d: unlisted joint %d changed", id, i);
            } else {
                CHECK(memcmp(&after[i].translation, &before[i].translation,
                             sizeof(SinewVec3)) == 0 &&
                          memcmp(&after[i].scale, &before[i].scale, sizeof(SinewVec3)) == 0,
                      "apply case %d: joint %d translation/scale changed", id, i);
            }
        }
        if (!dup && st == SINEW_STATUS_OK) {
            /* Projection is idempotent: a second pass keeps every rotation. */
            EXPECT(sinew_pose_apply_constraints(pose, joints, cons, count), SINEW_STATUS_OK);
            EXPECT(sinew_pose_get_local(pose, again, NB), SINEW_STATUS_OK);
            for (i = 0; i < NB; i++) {
                CHECK(qsame(again[i].rotation, after[i].rotation) > 1.0f - 1e-5f,
                      "apply case %d: applying again moved joint %d by %g rad", id, i,
                      (double)qangle(again[i].rotation, after[i].rotation));
            }
        }
    }
    sinew_pose_destroy(pose);
}

/* ================================================================ Part A: hand IK retargeting */

static SinewHandIkRetargetingSettings rng_hand_settings(int c)
{
    static const float picks[3] = {0.0f, 1.0f, 0.5f};
    SinewHandIkRetargetingSettings s;
    sinew_hand_ik_retargeting_settings_default(&s);
    if (c % 4 == 0) {
        return s;
    }
    s.hand_fk_weight = rng_below(2) ? picks[rng_below(3)] : rng_float(0.0f, 1.0f);
    s.per_axis_alpha.x = rng_below(3) == 0 ? picks[rng_below(3)] : rng_float(0.0f, 1.0f);
    s.per_axis_alpha.y = rng_below(3) == 0 ? picks[rng_below(3)] : rng_float(0.0f, 1.0f);
    s.per_axis_alpha.z = rng_below(3) == 0 ? picks[rng_below(3)] : rng_float(0.0f, 1.0f);
    return s;
}

/* The documented offset: (lerp(left_fk, right_fk, w) - lerp(left_ik, right_ik, w)) * alpha. */
static SinewVec3 hand_offset(const SinewHandIkRetargetingSettings *s, SinewVec3 rf, SinewVec3 lf,
                             SinewVec3 ri, SinewVec3 li)
{
    float w = s->hand_fk_weight;
    SinewVec3 fk = add(lf, mulf(sub(rf, lf), w)), ik = add(li, mulf(sub(ri, li), w));
    SinewVec3 o = sub(fk, ik);
    return v3(o.x * s->per_axis_alpha.x, o.y * s->per_axis_alpha.y, o.z * s->per_axis_alpha.z);
}

static int vec_near(SinewVec3 a, SinewVec3 b, float tol)
{
    return fabsf(a.x - b.x) <= tol && fabsf(a.y - b.y) <= tol && fabsf(a.z - b.z) <= tol;
}

static int g_hand_model_id;
static int g_hand_pose_id;

#define N_HAND_MODEL 40
#define N_HAND_POSE 30

static void part_a_hand_model(void)
{
    SinewHandIkRetargetingSettings def;
    SinewHandIkRetargeting *shared = NULL, *fresh = NULL, *node;
    SinewTransform model[12], out[12];
    SinewHandJoints h;
    SinewVec3 off, want;
    uint32_t bones[8];
    int c;

    g_section = "A parity: hand IK retargeting, model space";
    sinew_hand_ik_retargeting_settings_default(&def);
    if (!EXPECT(sinew_hand_ik_retargeting_create(&def, &shared), SINEW_STATUS_OK)) {
        return;
    }
    for (c = 0; c < N_HAND_MODEL; c++) {
        SinewHandIkRetargetingSettings s = rng_hand_settings(c);
        uint32_t count = 1 + (uint32_t)rng_below(12), bc = (uint32_t)rng_below(8), i, k;
        int with_offset = c % 5 != 4, id = g_hand_model_id++;
        SinewStatus st;
        if (c % 3 == 2) {
            if (!EXPECT(sinew_hand_ik_retargeting_create(&s, &fresh), SINEW_STATUS_OK)) {
                continue;
            }
            node = fresh;
        } else {
            EXPECT(sinew_hand_ik_retargeting_set_settings(shared, &s), SINEW_STATUS_OK);
            node = shared;
        }
        for (i = 0; i < count; i++) {
            model[i] = xf(rng_point(5.0f), rng_quat(),
                          rng_below(3) == 0 ? v3(1.5f, 0.5f, 2.0f) : ONE3());
        }
        h.right_fk = (uint32_t)rng_below((int)count);
        h.left_fk = (uint32_t)rng_below((int)count);
        h.right_ik = (uint32_t)rng_below((int)count);
        h.left_ik = (uint32_t)rng_below((int)count);
        for (k = 0; k < bc; k++) {
            bones[k] = c % 6 == 5 && k > 0 ? bones[k - 1] : (uint32_t)rng_below((int)count);
        }
        memcpy(out, model, sizeof out);
        FILL(off);
        st = sinew_hand_ik_retargeting_apply_model(node, out, count, &h,
                                                   bc > 0 || c % 2 ? bones : NULL, bc,
                                                   with_offset ? &off : NULL);

        printf("HANDM %d", id);
        print_hand_settings(&s, &h);
        print_xfs("IN", model, count);
        print_indices("BONES", bones, bc);
        printf(" ST %d", (int)st);
        print_xfs("OUT", out, count);
        print_opt_vec("OFF", with_offset ? &off : NULL);
        printf("\n");

        CHECK(st == SINEW_STATUS_OK, "hand model case %d returned %s", id, status_name(st));
        want = hand_offset(&s, model[h.right_fk].translation, model[h.left_fk].translation,
                           model[h.right_ik].translation, model[h.left_ik].translation);
        if (with_offset) {
            CHECK(vec_near(off, want, 1e-5f * 20.0f),
                  "hand model case %d: offset (%g %g %g), documented (%g %g %g)", id,
                  (double)off.x, (double)off.y, (double)off.z, (double)want.x, (double)want.y,
                  (double)want.z);
            want = off;
        }
        for (i = 0; i < count; i++) {
            int listed = 0;
            for (k = 0; k < bc; k++) {
                listed |= bones[k] == i;
            }
            CHECK(memcmp(&out[i].rotation, &model[i].rotation, sizeof(SinewQuat)) == 0 &&
                      memcmp(&out[i].scale, &model[i].scale, sizeof(SinewVec3)) == 0,
                  "hand model case %d: rotation/scale of %u changed", id, (unsigned)i);
            if (!listed) {
                CHECK(memcmp(&out[i], &model[i], sizeof out[i]) == 0,
                      "hand model case %d: unlisted transform %u changed", id, (unsigned)i);
            } else {
                CHECK(vec_near(out[i].translation, add(model[i].translation, want),
                               with_offset ? 0.0f : 1e-4f),
                      "hand model case %d: bone %u not moved by the offset exactly once", id,
                      (unsigned)i);
            }
        }
        if (c % 3 == 2) {
            sinew_hand_ik_retargeting_destroy(fresh);
        }
    }
    sinew_hand_ik_retargeting_destroy(shared);
}

static void part_a_hand_pose(void)
{
    static const uint32_t likely[6] = {15, 16, 17, 18, 14, 12};
    SinewTransform rest[NB], local[NB], before[NB], after[NB], model0[NB], model1[NB];
    SinewHandIkRetargetingSettings def;
    SinewHandIkRetargeting *node = NULL;
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    SinewHandJoints h;
    SinewVec3 off, want;
    uint32_t bones[8];
    int c, i;

    g_section = "A parity: hand IK retargeting, pose";
    skel = make_big_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel);
    sinew_hand_ik_retargeting_settings_default(&def);
    if (!EXPECT(sinew_hand_ik_retargeting_create(&def, &node), SINEW_STATUS_OK)) {
        return;
    }
    for (c = 0; c < N_HAND_POSE; c++) {
        SinewHandIkRetargetingSettings s = rng_hand_settings(c);
        uint32_t bc = (uint32_t)rng_below(7), k, m;
        int with_offset = c % 5 != 4, id = g_hand_pose_id++, moved[NB];
        SinewStatus st;
        EXPECT(sinew_hand_ik_retargeting_set_settings(node, &s), SINEW_STATUS_OK);
        big_random_local(rest, local, c);
        EXPECT(sinew_pose_set_local(pose, local, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_local(pose, before, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model0, NB), SINEW_STATUS_OK);
        h.right_fk = rng_below(2) ? 14 : (uint32_t)rng_below(NB);
        h.left_fk = rng_below(2) ? 12 : (uint32_t)rng_below(NB);
        h.right_ik = rng_below(2) ? 17 : (uint32_t)rng_below(NB);
        h.left_ik = rng_below(2) ? 18 : (uint32_t)rng_below(NB);
        for (k = 0; k < bc; k++) {
            bones[k] = rng_below(3) ? likely[rng_below(6)] : (uint32_t)rng_below(NB);
        }
        FILL(off);
        st = sinew_hand_ik_retargeting_apply_pose(node, pose, &h, bc > 0 || c % 2 ? bones : NULL,
                                                  bc, with_offset ? &off : NULL);
        EXPECT(sinew_pose_get_local(pose, after, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_model(pose, model1, NB), SINEW_STATUS_OK);

        printf("HANDP %d", id);
        print_skeleton(NB, BIG_NAMES, BIG_PARENTS, rest);
        printf(" LOCAL");
        for (i = 0; i < NB; i++) {
            print_xf(&local[i]);
        }
        print_hand_settings(&s, &h);
        print_indices("BONES", bones, bc);
        printf(" ST %d OUT", (int)st);
        for (i = 0; i < NB; i++) {
            print_xf(&after[i]);
        }
        printf(" MODEL");
        for (i = 0; i < NB; i++) {
            print_xf(&model1[i]);
        }
        print_opt_vec("OFF", with_offset ? &off : NULL);
        printf("\n");

        CHECK(st == SINEW_STATUS_OK, "hand pose case %d returned %s", id, status_name(st));
        want = hand_offset(&s, model0[h.right_fk].translation, model0[h.left_fk].translation,
                           model0[h.right_ik].translation, model0[h.left_ik].translation);
        if (with_offset) {
            CHECK(vec_near(off, want, 1e-4f), "hand pose case %d: offset (%g %g %g), documented "
                                              "(%g %g %g)",
                  id, (double)off.x, (double)off.y, (double)off.z, (double)want.x,
                  (double)want.y, (double)want.z);
        }
        /* Bones listed and not below another listed bone move; their descendants follow. */
        for (i = 0; i < NB; i++) {
            int listed = 0, covered = 0;
            for (k = 0; k < bc; k++) {
                listed |= bones[k] == (uint32_t)i;
                covered |= big_is_ancestor(bones[k], (uint32_t)i);
            }
            moved[i] = listed && !covered;
        }
        for (i = 0; i < NB; i++) {
            int follows = 0;
            for (m = 0; m < NB; m++) {
                follows |= moved[m] && (m == (uint32_t)i || big_is_ancestor(m, (uint32_t)i));
            }
            CHECK(xf_finite(&after[i]) && xf_unit_rotation(&after[i]),
                  "hand pose case %d: joint %d not finite/unit", id, i);
            if (!moved[i]) {
                CHECK(memcmp(&after[i], &before[i], sizeof after[i]) == 0,
                      "hand pose case %d: joint %d changed locally but is not a moved bone", id,
                      i);
            } else {
                CHECK(qsame(after[i].rotation, before[i].rotation) > 1.0f - 1e-5f,
                      "hand pose case %d: moved bone %d rotated", id, i);
            }
            CHECK(vec_near(model1[i].translation,
                           follows ? add(model0[i].translation, want) : model0[i].translation,
                           1e-4f * (1.0f + len3(model0[i].translation))),
                  "hand pose case %d: joint %d model position (%g %g %g), expected it %s", id,
                  i, (double)model1[i].translation.x, (double)model1[i].translation.y,
                  (double)model1[i].translation.z,
                  follows ? "moved by the offset" : "unmoved");
        }
    }
    sinew_hand_ik_retargeting_destroy(node);
    sinew_pose_destroy(pose);
}

/* ================================================================ Part B: chain IK bad input */

/* Float field i (0..10) of a constraint: reference xyzw, axis xyz, half-angles, min, max. */
static float *constraint_field(SinewJointConstraint *c, int i)
{
    switch (i) {
    case 0: return &c->reference.x;
    case 1: return &c->reference.y;
    case 2: return &c->reference.z;
    case 3: return &c->reference.w;
    case 4: return &c->axis.x;
    case 5: return &c->axis.y;
    case 6: return &c->axis.z;
    case 7: return &c->swing_half_angle_1;
    case 8: return &c->swing_half_angle_2;
    case 9: return &c->min_angle;
    default: return &c->max_angle;
    }
}

#define MAX_BAD_CONSTRAINTS 128

/* Every invalid constraint this test knows, with its documented status: unknown types, angles
 * out of range, reversed ranges, zero axis or reference, a bad flag, and NaN / +-Inf in every
 * float the type uses (a cone with limit_twist uses all of them; hinge and twist all but the
 * half-angles). Returns the count. */
static int bad_constraints(SinewJointConstraint *out, SinewStatus *want, const char **what)
{
    static const char *const names[20] = {
        "type 0",          "type 7",           "type -1",           "type INT32_MIN",
        "half-angle 1 3.2", "half-angle 2 3.2", "half-angle 1 -0.1", "half-angle 2 -1e-6",
        "cone twist min > max", "hinge min > max", "twist min > max", "hinge min -3.2",
        "twist max 3.2",   "cone twist min -4", "cone zero axis",   "hinge zero axis",
        "cone zero reference", "twist zero reference", "limit_twist 2", "limit_twist UINT32_MAX"};
    static const int32_t types[3] = {SINEW_CONSTRAINT_TYPE_CONE, SINEW_CONSTRAINT_TYPE_HINGE,
                                     SINEW_CONSTRAINT_TYPE_TWIST};
    static const char *const type_names[3] = {"cone (limit_twist 1)", "hinge", "twist"};
    static const char *const field_names[11] = {
        "reference.x", "reference.y", "reference.z", "reference.w", "axis.x", "axis.y",
        "axis.z", "swing_half_angle_1", "swing_half_angle_2", "min_angle", "max_angle"};
    static char labels[MAX_BAD_CONSTRAINTS][80];
    int n = 0, i, t, f, k;
    for (i = 0; i < 20; i++) {
        SinewJointConstraint *c = &out[n];
        sinew_joint_constraint_default(c);
        c->limit_twist = 1;
        want[n] = SINEW_STATUS_INVALID_ARGUMENT;
        what[n] = names[i];
        switch (i) {
        case 0: c->type = 0; break;
        case 1: c->type = 7; break;
        case 2: c->type = -1; break;
        case 3: c->type = INT32_MIN; break;
        case 4: c->swing_half_angle_1 = 3.2f; break;
        case 5: c->swing_half_angle_2 = 3.2f; break;
        case 6: c->swing_half_angle_1 = -0.1f; break;
        case 7: c->swing_half_angle_2 = -1e-6f; break;
        case 8: c->min_angle = 0.5f; c->max_angle = 0.2f; break;
        case 9: c->type = SINEW_CONSTRAINT_TYPE_HINGE; c->min_angle = 0.5f; c->max_angle = -0.5f; break;
        case 10: c->type = SINEW_CONSTRAINT_TYPE_TWIST; c->min_angle = 1.0f; c->max_angle = 0.9f; break;
        case 11: c->type = SINEW_CONSTRAINT_TYPE_HINGE; c->min_angle = -3.2f; break;
        case 12: c->type = SINEW_CONSTRAINT_TYPE_TWIST; c->max_angle = 3.2f; break;
        case 13: c->min_angle = -4.0f; break;
        case 14: c->axis = v3(0, 0, 0); break;
        case 15: c->type = SINEW_CONSTRAINT_TYPE_HINGE; c->axis = v3(0, 0, 0); break;
        case 16: c->reference = qt(0, 0, 0, 0); break;
        case 17: c->type = SINEW_CONSTRAINT_TYPE_TWIST; c->reference = qt(0, 0, 0, 0); break;
        case 18: c->limit_twist = 2; break;
        default: c->limit_twist = UINT32_MAX; break;
        }
        n++;
    }
    for (t = 0; t < 3; t++) {
        for (f = 0; f < 11; f++) {
            if (t != 0 && (f == 7 || f == 8)) {
                continue; /* hinge and twist have no half-angles */
            }
            for (k = 0; k < 3; k++) {
                SinewJointConstraint *c = &out[n];
                sinew_joint_constraint_default(c);
                c->type = types[t];
                c->limit_twist = t == 0 ? 1 : 0;
                *constraint_field(c, f) = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
                want[n] = SINEW_STATUS_NON_FINITE;
                sprintf(labels[n], "%s with %s = %s", type_names[t], field_names[f],
                        k == 0 ? "NaN" : k == 1 ? "+Inf" : "-Inf");
                what[n] = labels[n];
                n++;
            }
        }
    }
    return n;
}

static void part_b_chain_settings(int kind)
{
    SinewFabrikSettings fdef, fs, fgot, fsnap;
    SinewCcdSettings cdef, cs, cgot, csnap;
    Solver s, out, nul = solver_null(kind);
    static const uint32_t bad_max[4] = {0, 1, SINEW_MAX_JOINTS + 1, UINT32_MAX};
    size_t b;
    int k;

    g_section = kind == SOLVER_FABRIK ? "B FABRIK settings" : "B CCD settings";
    memset(&fdef, 0xA5, sizeof fdef);
    memset(&cdef, 0xA5, sizeof cdef);
    sinew_fabrik_settings_default(&fdef);
    sinew_ccd_settings_default(&cdef);
    if (kind == SOLVER_FABRIK) {
        CHECK(fdef.precision == 1e-3f && fdef.relative_precision == 1 &&
                  fdef.max_iterations == 10 && fdef.stop_when_stalled == 1 &&
                  fdef.end_rotation == SINEW_END_ROTATION_KEEP_LOCAL,
              "FABRIK defaults differ from the header's documentation");
    } else {
        CHECK(cdef.precision == 1e-3f && cdef.relative_precision == 1 &&
                  cdef.max_iterations == 10 && cdef.start_from_tail == 1 && cdef.fix_root == 0 &&
                  cdef.stop_when_stalled == 1 && cdef.end_rotation == SINEW_END_ROTATION_KEEP_LOCAL,
              "CCD defaults differ from the header's documentation");
    }

    /* create: NULLs, max_joints outside 2..=SINEW_MAX_JOINTS. */
    if (kind == SOLVER_FABRIK) {
        FILL(out.fabrik);
        EXPECT(sinew_fabrik_create(NULL, 8, &out.fabrik), SINEW_STATUS_NULL_POINTER);
        UNTOUCHED(out.fabrik);
        EXPECT(sinew_fabrik_create(&fdef, 8, NULL), SINEW_STATUS_NULL_POINTER);
        for (b = 0; b < 4; b++) {
            FILL(out.fabrik);
            EXPECT(sinew_fabrik_create(&fdef, bad_max[b], &out.fabrik), SINEW_STATUS_OUT_OF_RANGE);
            UNTOUCHED(out.fabrik);
        }
    } else {
        FILL(out.ccd);
        EXPECT(sinew_ccd_create(NULL, 8, &out.ccd), SINEW_STATUS_NULL_POINTER);
        UNTOUCHED(out.ccd);
        EXPECT(sinew_ccd_create(&cdef, 8, NULL), SINEW_STATUS_NULL_POINTER);
        for (b = 0; b < 4; b++) {
            FILL(out.ccd);
            EXPECT(sinew_ccd_create(&cdef, bad_max[b], &out.ccd), SINEW_STATUS_OUT_OF_RANGE);
            UNTOUCHED(out.ccd);
        }
    }
    if (EXPECT(solver_create(kind, &fdef, &cdef, 2, &out), SINEW_STATUS_OK)) {
        solver_destroy(&out);
    }
    if (EXPECT(solver_create(kind, &fdef, &cdef, SINEW_MAX_JOINTS, &out), SINEW_STATUS_OK)) {
        solver_destroy(&out);
    }
    if (!EXPECT(solver_create(kind, &fdef, &cdef, 8, &s), SINEW_STATUS_OK)) {
        return;
    }

    /* get / set: NULLs; a failed set keeps a non-default baseline. */
    if (kind == SOLVER_FABRIK) {
        FILL(fgot);
        EXPECT(sinew_fabrik_get_settings(NULL, &fgot), SINEW_STATUS_NULL_POINTER);
        UNTOUCHED(fgot);
        EXPECT(sinew_fabrik_get_settings(s.fabrik, NULL), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_fabrik_set_settings(NULL, &fdef), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_fabrik_set_settings(s.fabrik, NULL), SINEW_STATUS_NULL_POINTER);
    } else {
        FILL(cgot);
        EXPECT(sinew_ccd_get_settings(NULL, &cgot), SINEW_STATUS_NULL_POINTER);
        UNTOUCHED(cgot);
        EXPECT(sinew_ccd_get_settings(s.ccd, NULL), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_ccd_set_settings(NULL, &cdef), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_ccd_set_settings(s.ccd, NULL), SINEW_STATUS_NULL_POINTER);
    }
    EXPECT(solver_set_settings(&nul, &fdef, &cdef), SINEW_STATUS_NULL_POINTER);
    fsnap = fdef;
    fsnap.max_iterations = 7;
    fsnap.stop_when_stalled = 0;
    fsnap.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    csnap = cdef;
    csnap.max_iterations = 7;
    csnap.fix_root = 1;
    csnap.start_from_tail = 0;
    EXPECT(solver_set_settings(&s, &fsnap, &csnap), SINEW_STATUS_OK);

#define BAD_CHAIN_SETTINGS(mutate, want)                                                     \
    do {                                                                                     \
        fs = fdef;                                                                           \
        cs = cdef;                                                                           \
        mutate;                                                                              \
        if (kind == SOLVER_FABRIK) {                                                         \
            FILL(out.fabrik);                                                                \
            EXPECT(sinew_fabrik_create(&fs, 8, &out.fabrik), want);                          \
            UNTOUCHED(out.fabrik);                                                           \
            EXPECT(sinew_fabrik_set_settings(s.fabrik, &fs), want);                          \
            EXPECT(sinew_fabrik_get_settings(s.fabrik, &fgot), SINEW_STATUS_OK);             \
            CHECK(memcmp(&fgot, &fsnap, sizeof fgot) == 0, "settings changed by failed set " \
                                                           "(%s)", #mutate);                 \
        } else {                                                                             \
            FILL(out.ccd);                                                                   \
            EXPECT(sinew_ccd_create(&cs, 8, &out.ccd), want);                                \
            UNTOUCHED(out.ccd);                                                              \
            EXPECT(sinew_ccd_set_settings(s.ccd, &cs), want);                                \
            EXPECT(sinew_ccd_get_settings(s.ccd, &cgot), SINEW_STATUS_OK);                   \
            CHECK(memcmp(&cgot, &csnap, sizeof cgot) == 0, "settings changed by failed set " \
                                                           "(%s)", #mutate);                 \
        }                                                                                    \
    } while (0)

    BAD_CHAIN_SETTINGS(fs.precision = cs.precision = 0.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.precision = cs.precision = -0.0f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.precision = cs.precision = -1e-3f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.precision = cs.precision = -3e38f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.max_iterations = cs.max_iterations = 0, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.relative_precision = cs.relative_precision = 2,
                       SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.relative_precision = cs.relative_precision = UINT32_MAX,
                       SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.stop_when_stalled = cs.stop_when_stalled = 2,
                       SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.end_rotation = cs.end_rotation = 9, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.end_rotation = cs.end_rotation = 3, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.end_rotation = cs.end_rotation = -1, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_CHAIN_SETTINGS(fs.end_rotation = cs.end_rotation = INT32_MIN,
                       SINEW_STATUS_INVALID_ARGUMENT);
    if (kind == SOLVER_CCD) {
        BAD_CHAIN_SETTINGS(cs.start_from_tail = 2, SINEW_STATUS_INVALID_ARGUMENT);
        BAD_CHAIN_SETTINGS(cs.fix_root = 2, SINEW_STATUS_INVALID_ARGUMENT);
        BAD_CHAIN_SETTINGS(cs.fix_root = UINT32_MAX, SINEW_STATUS_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        BAD_CHAIN_SETTINGS(fs.precision = cs.precision = bad, SINEW_STATUS_NON_FINITE);
    }
#undef BAD_CHAIN_SETTINGS

    /* Boundary values are accepted and round-trip. */
    fs = fdef;
    cs = cdef;
    fs.precision = cs.precision = 1e-45f; /* smallest positive (subnormal) */
    fs.max_iterations = cs.max_iterations = UINT32_MAX;
    fs.relative_precision = cs.relative_precision = 0;
    fs.end_rotation = cs.end_rotation = SINEW_END_ROTATION_KEEP_MODEL;
    cs.fix_root = 1;
    EXPECT(solver_set_settings(&s, &fs, &cs), SINEW_STATUS_OK);
    if (kind == SOLVER_FABRIK) {
        EXPECT(sinew_fabrik_get_settings(s.fabrik, &fgot), SINEW_STATUS_OK);
        CHECK(memcmp(&fgot, &fs, sizeof fgot) == 0, "settings do not round-trip");
    } else {
        EXPECT(sinew_ccd_get_settings(s.ccd, &cgot), SINEW_STATUS_OK);
        CHECK(memcmp(&cgot, &cs, sizeof cgot) == 0, "settings do not round-trip");
    }
    solver_destroy(&s);
}

/* A 4-joint chain (padded to MAXC valid transforms) for the bad-input tests. */
static void bad_input_chain(SinewTransform chain[MAXC])
{
    uint32_t i;
    for (i = 0; i < MAXC; i++) {
        chain[i] = xf(v3((float)(i % 2), (float)(i / 2), 0.25f * (float)i),
                      qunit(qt(0.1f * (float)i, 0.2f, -0.1f, 0.9f)), ONE3());
    }
}

static void part_b_chain_constraints(int kind)
{
    SinewJointConstraint bad[MAX_BAD_CONSTRAINTS], good, hinge;
    SinewStatus want[MAX_BAD_CONSTRAINTS];
    const char *what[MAX_BAD_CONSTRAINTS];
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    SinewTransform base[MAXC], first[MAXC], second[MAXC];
    SinewVec3 eff = v3(1.5f, 1.0f, -0.5f);
    SinewQuat par = qt(0.2f, 0.0f, 0.0f, 0.9797959f);
    SinewIkResult r1, r2;
    Solver s, nul = solver_null(kind);
    Raw raw;
    int nbad, b, k;

    g_section = kind == SOLVER_FABRIK ? "B FABRIK constraints" : "B CCD constraints";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    if (!EXPECT(solver_create(kind, &fs, &cs, 6, &s), SINEW_STATUS_OK)) {
        return;
    }
    bad_input_chain(base);
    sinew_joint_constraint_default(&good);
    good.limit_twist = 1;
    good.swing_half_angle_1 = 0.4f;
    hinge = good;
    hinge.type = SINEW_CONSTRAINT_TYPE_HINGE;
    hinge.axis = v3(0, 0, 1);
    EXPECT(solver_set_constraint(&s, 0, &good), SINEW_STATUS_OK);
    EXPECT(solver_set_constraint(&s, 1, &hinge), SINEW_STATUS_OK);
    EXPECT(solver_set_constraint(&s, 5, &hinge), SINEW_STATUS_OK); /* past the chain */
    if (kind == SOLVER_CCD) {
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 45.0f, 0.5f), SINEW_STATUS_OK);
    }
    memcpy(first, base, sizeof first);
    EXPECT(solver_solve(&s, first, 4, &par, &eff, NULL, &r1), SINEW_STATUS_OK);

    EXPECT(sinew_fabrik_set_constraint(NULL, 0, &good), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_fabrik_set_constraint(NULL, 0, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_ccd_set_constraint(NULL, 0, &good), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_ccd_set_constraint(NULL, 0, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(solver_set_constraint(&nul, 1, &hinge), SINEW_STATUS_NULL_POINTER);
    EXPECT(solver_set_constraint(&s, 6, &good), SINEW_STATUS_OUT_OF_RANGE);
    EXPECT(solver_set_constraint(&s, 6, NULL), SINEW_STATUS_OUT_OF_RANGE);
    EXPECT(solver_set_constraint(&s, UINT32_MAX, &good), SINEW_STATUS_OUT_OF_RANGE);
    EXPECT(solver_set_constraint(&s, UINT32_MAX, NULL), SINEW_STATUS_OUT_OF_RANGE);
    nbad = bad_constraints(bad, want, what);
    for (b = 0; b < nbad; b++) {
        SinewStatus st = solver_set_constraint(&s, 1, &bad[b]);
        expect_impl(st, want[b], __LINE__, what[b]);
        st = solver_set_constraint(&s, 0, &bad[b]);
        expect_impl(st, want[b], __LINE__, what[b]);
    }
    memcpy(raw.bytes + 1, &good, sizeof good);
    EXPECT(solver_set_constraint(&s, 1,
                                 (const SinewJointConstraint *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);

    if (kind == SOLVER_CCD) {
        EXPECT(sinew_ccd_set_joint(NULL, 0, 90.0f, 1.0f), SINEW_STATUS_NULL_POINTER);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 200.0f, 1.0f), SINEW_STATUS_INVALID_ARGUMENT);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 180.01f, 1.0f), SINEW_STATUS_INVALID_ARGUMENT);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, -1.0f, 1.0f), SINEW_STATUS_INVALID_ARGUMENT);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 90.0f, 1.5f), SINEW_STATUS_INVALID_ARGUMENT);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 90.0f, -0.1f), SINEW_STATUS_INVALID_ARGUMENT);
        EXPECT(sinew_ccd_set_joint(s.ccd, 2, 90.0f, 1.0000001f), SINEW_STATUS_INVALID_ARGUMENT);
        for (k = 0; k < 3; k++) {
            float v = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
            EXPECT(sinew_ccd_set_joint(s.ccd, 2, v, 1.0f), SINEW_STATUS_NON_FINITE);
            EXPECT(sinew_ccd_set_joint(s.ccd, 2, 90.0f, v), SINEW_STATUS_NON_FINITE);
        }
        EXPECT(sinew_ccd_set_joint(s.ccd, 6, 90.0f, 1.0f), SINEW_STATUS_OUT_OF_RANGE);
        EXPECT(sinew_ccd_set_joint(s.ccd, UINT32_MAX, 90.0f, 1.0f), SINEW_STATUS_OUT_OF_RANGE);
        /* Boundaries are accepted (on joints past the 4-joint chain: no effect on it). */
        EXPECT(sinew_ccd_set_joint(s.ccd, 4, 0.0f, 0.0f), SINEW_STATUS_OK);
        EXPECT(sinew_ccd_set_joint(s.ccd, 5, 180.0f, 1.0f), SINEW_STATUS_OK);
    }
    /* Nothing above changed the solver: the same solve gives the same bytes. */
    memcpy(second, base, sizeof second);
    EXPECT(solver_solve(&s, second, 4, &par, &eff, NULL, &r2), SINEW_STATUS_OK);
    CHECK(memcmp(first, second, sizeof first) == 0 && memcmp(&r1, &r2, sizeof r1) == 0,
          "failed set_constraint / set_joint calls changed the solver");
    /* Clearing with NULL and setting again is the same solver too. */
    EXPECT(solver_set_constraint(&s, 1, NULL), SINEW_STATUS_OK);
    EXPECT(solver_set_constraint(&s, 1, &hinge), SINEW_STATUS_OK);
    memcpy(second, base, sizeof second);
    EXPECT(solver_solve(&s, second, 4, &par, &eff, NULL, &r2), SINEW_STATUS_OK);
    CHECK(memcmp(first, second, sizeof first) == 0, "clearing and resetting changed the solve");
    solver_destroy(&s);
}

static void part_b_chain_solve(int kind)
{
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    SinewJointConstraint cone;
    SinewTransform base[MAXC], chain[MAXC], copy[MAXC];
    SinewVec3 eff = v3(1.2f, 1.1f, 0.4f), v;
    SinewQuat rot = qt(0, 0.6f, 0, 0.8f), par = qt(0.2f, 0.0f, 0.0f, 0.9797959f), q;
    SinewIkResult res;
    Solver s, nul = solver_null(kind);
    Raw raw;
    int t, f, k;

    g_section = kind == SOLVER_FABRIK ? "B FABRIK solve" : "B CCD solve";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    fs.end_rotation = cs.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    if (!EXPECT(solver_create(kind, &fs, &cs, 6, &s), SINEW_STATUS_OK)) {
        return;
    }
    sinew_joint_constraint_default(&cone);
    EXPECT(solver_set_constraint(&s, 0, &cone), SINEW_STATUS_OK);
    bad_input_chain(base);

#define CHAIN_EXPECT(call, want)                                                             \
    do {                                                                                     \
        memcpy(copy, chain, sizeof copy);                                                    \
        FILL(res);                                                                           \
        EXPECT(call, want);                                                                  \
        CHECK(memcmp(copy, chain, sizeof copy) == 0, "chain written on error");              \
        UNTOUCHED(res);                                                                      \
    } while (0)

    memcpy(chain, base, sizeof chain);
    CHAIN_EXPECT(solver_solve(&nul, chain, 4, &par, &eff, &rot, &res), SINEW_STATUS_NULL_POINTER);
    CHAIN_EXPECT(solver_solve(&s, NULL, 4, &par, &eff, &rot, &res), SINEW_STATUS_NULL_POINTER);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, NULL, &rot, &res), SINEW_STATUS_NULL_POINTER);

    /* Chains of 0 and 1 joints are invalid; more than max_joints (6) out of range. */
    CHAIN_EXPECT(solver_solve(&s, chain, 0, &par, &eff, &rot, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_EXPECT(solver_solve(&s, NULL, 0, &par, &eff, &rot, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_EXPECT(solver_solve(&s, chain, 1, &par, &eff, &rot, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_EXPECT(solver_solve(&s, chain, 7, &par, &eff, &rot, &res), SINEW_STATUS_OUT_OF_RANGE);
    CHAIN_EXPECT(solver_solve(&s, chain, MAXC, &par, &eff, &rot, &res),
                 SINEW_STATUS_OUT_OF_RANGE);

    /* NaN / +Inf / -Inf in every float of the chain, effector, rotations. */
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        for (t = 0; t < 4; t++) {
            for (f = 0; f < 10; f++) {
                memcpy(chain, base, sizeof chain);
                *xf_field(&chain[t], f) = bad;
                CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &eff, &rot, &res),
                             SINEW_STATUS_NON_FINITE);
            }
        }
        memcpy(chain, base, sizeof chain);
        for (f = 0; f < 3; f++) {
            v = eff;
            *vec_field(&v, f) = bad;
            CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &v, &rot, &res),
                         SINEW_STATUS_NON_FINITE);
        }
        for (f = 0; f < 4; f++) {
            q = rot;
            *quat_field(&q, f) = bad;
            CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &eff, &q, &res),
                         SINEW_STATUS_NON_FINITE);
            q = par;
            *quat_field(&q, f) = bad;
            CHAIN_EXPECT(solver_solve(&s, chain, 4, &q, &eff, &rot, &res),
                         SINEW_STATUS_NON_FINITE);
        }
    }

    /* Zero quaternions: a chain rotation, the effector rotation, the root parent rotation. */
    for (t = 0; t < 4; t++) {
        memcpy(chain, base, sizeof chain);
        chain[t].rotation = qt(0, 0, 0, 0);
        CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &eff, &rot, &res),
                     SINEW_STATUS_INVALID_ARGUMENT);
    }
    memcpy(chain, base, sizeof chain);
    q = qt(0, 0, 0, 0);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &eff, &q, &res), SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, &q, &eff, &rot, &res), SINEW_STATUS_INVALID_ARGUMENT);

    /* Misaligned pointers. */
    memcpy(raw.bytes + 1, &eff, sizeof eff);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, (const SinewVec3 *)(void *)(raw.bytes + 1),
                              &rot, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 1, &rot, sizeof rot);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, &par, &eff,
                              (const SinewQuat *)(void *)(raw.bytes + 1), &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 2, &par, sizeof par);
    CHAIN_EXPECT(solver_solve(&s, chain, 4, (const SinewQuat *)(void *)(raw.bytes + 2), &eff,
                              &rot, &res),
                 SINEW_STATUS_INVALID_ARGUMENT);
    memset(raw.bytes, 0xA5, sizeof raw.bytes);
    memcpy(copy, chain, sizeof copy);
    EXPECT(solver_solve(&s, chain, 4, &par, &eff, &rot, (SinewIkResult *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(copy, chain, sizeof copy) == 0, "chain written with a misaligned out_result");
    CHECK(is_filled(raw.bytes, sizeof raw.bytes), "misaligned out_result written");
    memcpy(raw.bytes + 3, base, 4 * sizeof base[0]);
    EXPECT(solver_solve(&s, (SinewTransform *)(void *)(raw.bytes + 3), 4, &par, &eff, &rot, NULL),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(raw.bytes + 3, base, 4 * sizeof base[0]) == 0, "misaligned chain written");

    /* Optional arguments really are optional; a non-unit root parent is renormalized. */
    memcpy(chain, base, sizeof chain);
    EXPECT(solver_solve(&s, chain, 4, NULL, &eff, NULL, NULL), SINEW_STATUS_OK);
    memcpy(chain, base, sizeof chain);
    memcpy(copy, base, sizeof copy);
    q = qscale(par, 4.0f);
    EXPECT(solver_solve(&s, chain, 4, &q, &eff, &rot, NULL), SINEW_STATUS_OK);
    EXPECT(solver_solve(&s, copy, 4, &par, &eff, &rot, NULL), SINEW_STATUS_OK);
    for (t = 0; t < 4; t++) {
        CHECK(xf_near(&chain[t], &copy[t], 1e-5f),
              "root_parent_rotation scaled by 4 solves differently (joint %d)", t);
    }
#undef CHAIN_EXPECT
    solver_destroy(&s);
}

static void part_b_chain_solve_pose(int kind)
{
    SinewTransform rest[NJ], snap[NJ];
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    SinewVec3 eff = v3(0.5f, 1.5f, 0.5f), v;
    SinewQuat rot = qt(0, 0, 0.6f, 0.8f), q;
    SinewIkResult res;
    Solver s, nul = solver_null(kind);
    Raw raw;
    int f, k;
    size_t c;
    static const uint32_t good[4] = {2, 3, 4, 5};
    static const uint32_t five[5] = {0, 1, 2, 3, 4};
    /* Index lists that are not root-first parent chains. */
    static const uint32_t not_chains[][3] = {
        {3, 5, 4}, {5, 4, 3}, {4, 3, 5}, {3, 7, 8}, {2, 3, 5}, {3, 3, 4},
        {3, 4, 4}, {7, 8, 5}, {0, 2, 3}, {6, 3, 4}, {2, 3, 3}, {1, 0, 2}};
    static const uint32_t not_chains_2[][2] = {{3, 3}, {4, 3}, {5, 6}, {0, 2}, {9, 8}};
    static const uint32_t out_of_range[][3] = {
        {3, 4, NJ}, {NJ, 4, 5}, {UINT32_MAX, 4, 5}, {3, 4, UINT32_MAX}, {3, 4, 0x80000000u}};

    g_section = kind == SOLVER_FABRIK ? "B FABRIK solve_pose" : "B CCD solve_pose";
    skel = make_skeleton(rest);
    if (skel == NULL) {
        return;
    }
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    fs.end_rotation = cs.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    EXPECT(solver_create(kind, &fs, &cs, 4, &s), SINEW_STATUS_OK);
    EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);

#define CHAIN_POSE_EXPECT(call, want)                                                        \
    do {                                                                                     \
        FILL(res);                                                                           \
        EXPECT(call, want);                                                                  \
        POSE_SAME(pose, snap);                                                               \
        UNTOUCHED(res);                                                                      \
    } while (0)

    CHAIN_POSE_EXPECT(solver_solve_pose(&nul, pose, good, 4, &eff, &rot, &res),
                      SINEW_STATUS_NULL_POINTER);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, NULL, good, 4, &eff, &rot, &res),
                      SINEW_STATUS_NULL_POINTER);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, NULL, 4, &eff, &rot, &res),
                      SINEW_STATUS_NULL_POINTER);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 4, NULL, &rot, &res),
                      SINEW_STATUS_NULL_POINTER);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 0, &eff, &rot, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, NULL, 0, &eff, &rot, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 1, &eff, &rot, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, five, 5, &eff, &rot, &res),
                      SINEW_STATUS_OUT_OF_RANGE);
    for (c = 0; c < sizeof out_of_range / sizeof out_of_range[0]; c++) {
        CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, out_of_range[c], 3, &eff, &rot, &res),
                          SINEW_STATUS_OUT_OF_RANGE);
    }
    for (c = 0; c < sizeof not_chains / sizeof not_chains[0]; c++) {
        CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, not_chains[c], 3, &eff, &rot, &res),
                          SINEW_STATUS_INVALID_ARGUMENT);
    }
    for (c = 0; c < sizeof not_chains_2 / sizeof not_chains_2[0]; c++) {
        CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, not_chains_2[c], 2, &eff, &rot, &res),
                          SINEW_STATUS_INVALID_ARGUMENT);
    }
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        for (f = 0; f < 3; f++) {
            v = eff;
            *vec_field(&v, f) = bad;
            CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 4, &v, &rot, &res),
                              SINEW_STATUS_NON_FINITE);
        }
        for (f = 0; f < 4; f++) {
            q = rot;
            *quat_field(&q, f) = bad;
            CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 4, &eff, &q, &res),
                              SINEW_STATUS_NON_FINITE);
        }
    }
    q = qt(0, 0, 0, 0);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 4, &eff, &q, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 2, good, sizeof good);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, (const uint32_t *)(void *)(raw.bytes + 2), 4,
                                        &eff, &rot, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 1, &eff, sizeof eff);
    CHAIN_POSE_EXPECT(solver_solve_pose(&s, pose, good, 4,
                                        (const SinewVec3 *)(void *)(raw.bytes + 1), &rot, &res),
                      SINEW_STATUS_INVALID_ARGUMENT);
    memset(raw.bytes, 0xA5, sizeof raw.bytes);
    EXPECT(solver_solve_pose(&s, pose, good, 4, &eff, &rot,
                             (SinewIkResult *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);
    POSE_SAME(pose, snap);
    CHECK(is_filled(raw.bytes, sizeof raw.bytes), "misaligned out_result written");
#undef CHAIN_POSE_EXPECT

    /* The skeleton handle can go first; root-level and branch chains solve. */
    sinew_skeleton_destroy(skel);
    EXPECT(solver_solve_pose(&s, pose, good, 4, &eff, NULL, NULL), SINEW_STATUS_OK);
    EXPECT(solver_solve_pose(&s, pose, five, 4, &eff, &rot, &res), SINEW_STATUS_OK);
    EXPECT(solver_solve_pose(&s, pose, not_chains[3] + 1, 2, &eff, &rot, &res), SINEW_STATUS_OK);
    solver_destroy(&s);
    sinew_pose_destroy(pose);
}

/* Huge finite inputs to solve_pose: model space overflowing from finite locals, a huge
 * effector rotation copied to the end joint. */
static void part_b_chain_pose_huge(void)
{
    static const int32_t chain_parents[4] = {-1, 0, 1, 2};
    static const uint32_t joints[4] = {0, 1, 2, 3};
    SinewTransform rest[4], snap[4], local[4];
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    SinewVec3 eff = v3(1, 1, 0);
    SinewQuat big = qt(0, 0, 1e30f, 1e30f);
    SinewIkResult res;
    SinewStatus st;
    Solver s;
    int kind, i;

    g_section = "B huge finite inputs: chain IK on a pose";
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    fs.end_rotation = cs.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    for (kind = 0; kind < 2; kind++) {
        for (i = 0; i < 4; i++) {
            rest[i] = xf(v3(i == 0 ? 0.0f : 3e38f, 0, 0), QID(), ONE3());
        }
        if (!EXPECT(sinew_skeleton_create(chain_parents, rest, NULL, 4, &skel), SINEW_STATUS_OK) ||
            !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK) ||
            !EXPECT(solver_create(kind, &fs, &cs, 4, &s), SINEW_STATUS_OK)) {
            return;
        }
        sinew_skeleton_destroy(skel);
        EXPECT(sinew_pose_get_local(pose, snap, 4), SINEW_STATUS_OK);
        FILL(res);
        st = solver_solve_pose(&s, pose, joints, 4, &eff, NULL, &res);
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "%s solve_pose on overflowing model space returned %s", SOLVER_NAMES[kind],
              status_name(st));
        EXPECT(sinew_pose_get_local(pose, local, 4), SINEW_STATUS_OK);
        if (st != SINEW_STATUS_OK) {
            UNTOUCHED(res);
            CHECK(memcmp(local, snap, sizeof local) == 0, "pose changed on error");
        } else {
            for (i = 0; i < 4; i++) {
                CHECK(xf_finite(&local[i]) && xf_unit_rotation(&local[i]),
                      "%s solve_pose returned OK with a non-finite joint %d", SOLVER_NAMES[kind],
                      i);
            }
        }
        sinew_pose_destroy(pose);

        for (i = 0; i < 4; i++) {
            rest[i] = xf(v3(i == 0 ? 0.0f : 1.0f, 0, 0), QID(), ONE3());
        }
        if (!EXPECT(sinew_skeleton_create(chain_parents, rest, NULL, 4, &skel), SINEW_STATUS_OK) ||
            !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
            return;
        }
        sinew_skeleton_destroy(skel);
        st = solver_solve_pose(&s, pose, joints, 4, &eff, &big, NULL);
        CHECK(st == SINEW_STATUS_OK, "%s solve_pose with effector rotation {0, 0, 1e30, 1e30} "
                                     "returned %s",
              SOLVER_NAMES[kind], status_name(st));
        EXPECT(sinew_pose_get_local(pose, local, 4), SINEW_STATUS_OK);
        for (i = 0; i < 4; i++) {
            CHECK(xf_finite(&local[i]) && xf_unit_rotation(&local[i]),
                  "%s solve_pose stored a non-finite or non-unit joint %d", SOLVER_NAMES[kind],
                  i);
        }
        sinew_pose_destroy(pose);
        solver_destroy(&s);
    }
}

/* ================================================================ Part B: constraints on a pose */

static void part_b_apply_constraints(void)
{
    SinewJointConstraint bad[MAX_BAD_CONSTRAINTS], cons[3], unit, huge;
    SinewStatus want[MAX_BAD_CONSTRAINTS];
    const char *what[MAX_BAD_CONSTRAINTS];
    SinewTransform rest[NJ], local[NJ], snap[NJ], a[NJ], b[NJ];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    uint32_t joints[3] = {1, 4, 7}, j;
    Raw raw;
    int nbad, i, k;

    g_section = "B sinew_pose_apply_constraints";
    memset(&unit, 0xA5, sizeof unit);
    sinew_joint_constraint_default(&unit);
    CHECK(unit.type == SINEW_CONSTRAINT_TYPE_CONE && unit.limit_twist == 0 &&
              unit.reference.x == 0 && unit.reference.y == 0 && unit.reference.z == 0 &&
              unit.reference.w == 1 && unit.axis.x == 1 && unit.axis.y == 0 && unit.axis.z == 0 &&
              fabsf(unit.swing_half_angle_1 - PI_F / 4) < 1e-6f &&
              fabsf(unit.swing_half_angle_2 - PI_F / 4) < 1e-6f &&
              fabsf(unit.min_angle + PI_F / 4) < 1e-6f && fabsf(unit.max_angle - PI_F / 4) < 1e-6f,
          "sinew_joint_constraint_default differs from the header's documentation");
    skel = make_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel);
    for (i = 0; i < NJ; i++) {
        local[i] = rest[i];
        local[i].rotation = rng_quat();
    }
    EXPECT(sinew_pose_set_local(pose, local, NJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);
    for (k = 0; k < 3; k++) {
        cons[k] = rng_constraint(1 + k, QID(), v3(1, 0, 0));
        cons[k].swing_half_angle_1 = cons[k].swing_half_angle_2 = 0.1f;
        cons[k].min_angle = -0.1f;
        cons[k].max_angle = 0.1f;
    }

    EXPECT(sinew_pose_apply_constraints(NULL, joints, cons, 3), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_apply_constraints(pose, NULL, cons, 3), SINEW_STATUS_NULL_POINTER);
    POSE_SAME(pose, snap);
    EXPECT(sinew_pose_apply_constraints(pose, joints, NULL, 3), SINEW_STATUS_NULL_POINTER);
    POSE_SAME(pose, snap);
    EXPECT(sinew_pose_apply_constraints(pose, NULL, NULL, 0), SINEW_STATUS_OK);
    POSE_SAME(pose, snap);
    EXPECT(sinew_pose_apply_constraints(NULL, NULL, NULL, 0), SINEW_STATUS_NULL_POINTER);

    /* The last entry is bad: the valid first two must not have been applied. */
    joints[2] = NJ;
    EXPECT(sinew_pose_apply_constraints(pose, joints, cons, 3), SINEW_STATUS_OUT_OF_RANGE);
    POSE_SAME(pose, snap);
    joints[2] = UINT32_MAX;
    EXPECT(sinew_pose_apply_constraints(pose, joints, cons, 3), SINEW_STATUS_OUT_OF_RANGE);
    POSE_SAME(pose, snap);
    joints[2] = 7;
    nbad = bad_constraints(bad, want, what);
    for (k = 0; k < nbad; k++) {
        SinewJointConstraint list[3];
        SinewStatus st;
        memcpy(list, cons, sizeof list);
        list[2] = bad[k];
        st = sinew_pose_apply_constraints(pose, joints, list, 3);
        expect_impl(st, want[k], __LINE__, what[k]);
        POSE_SAME(pose, snap);
    }
    memcpy(raw.bytes + 1, cons, 3 * sizeof cons[0]);
    EXPECT(sinew_pose_apply_constraints(pose, joints,
                                        (const SinewJointConstraint *)(void *)(raw.bytes + 1), 3),
           SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 2, joints, sizeof joints);
    EXPECT(sinew_pose_apply_constraints(pose, (const uint32_t *)(void *)(raw.bytes + 2), cons, 3),
           SINEW_STATUS_INVALID_ARGUMENT);
    POSE_SAME(pose, snap);
    EXPECT(sinew_pose_apply_constraints(pose, joints, cons, 3), SINEW_STATUS_OK);

    /* Huge finite inputs: a huge-magnitude reference is a rotation like its unit version, a
     * huge axis a direction like its unit version. */
    g_section = "B huge finite inputs: sinew_pose_apply_constraints";
    for (k = 0; k < 3; k++) {
        unit = rng_constraint(1 + k, QID(), v3(1, 0, 0));
        unit.reference = qt(0, 0, 0.70710678f, 0.70710678f);
        unit.axis = v3(0, 1, 0);
        unit.swing_half_angle_1 = unit.swing_half_angle_2 = 0.2f;
        unit.min_angle = -0.1f;
        unit.max_angle = 0.3f;
        for (i = 0; i < 2; i++) {
            SinewStatus st;
            huge = unit;
            if (i == 0) {
                huge.reference = qt(0, 0, 1e30f, 1e30f);
            } else {
                huge.axis = v3(0, 1e20f, 0);
            }
            j = 4;
            EXPECT(sinew_pose_set_local(pose, local, NJ), SINEW_STATUS_OK);
            EXPECT(sinew_pose_apply_constraints(pose, &j, &unit, 1), SINEW_STATUS_OK);
            EXPECT(sinew_pose_get_local(pose, a, NJ), SINEW_STATUS_OK);
            EXPECT(sinew_pose_set_local(pose, local, NJ), SINEW_STATUS_OK);
            EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);
            st = sinew_pose_apply_constraints(pose, &j, &huge, 1);
            EXPECT(sinew_pose_get_local(pose, b, NJ), SINEW_STATUS_OK);
            CHECK(st == SINEW_STATUS_OK,
                  "type %d with %s returned %s (expected to act like the unit version)", 1 + k,
                  i == 0 ? "reference {0, 0, 1e30, 1e30}" : "axis {0, 1e20, 0}", status_name(st));
            if (st == SINEW_STATUS_OK) {
                CHECK(xf_finite(&b[4]) && xf_unit_rotation(&b[4]),
                      "type %d with %s: OK but joint 4's rotation is {%g, %g, %g, %g}", 1 + k,
                      i == 0 ? "reference {0, 0, 1e30, 1e30}" : "axis {0, 1e20, 0}",
                      (double)b[4].rotation.x, (double)b[4].rotation.y, (double)b[4].rotation.z,
                      (double)b[4].rotation.w);
                CHECK(qsame(a[4].rotation, b[4].rotation) > 1.0f - 1e-5f,
                      "type %d with %s: result differs from the unit version by %g rad", 1 + k,
                      i == 0 ? "reference {0, 0, 1e30, 1e30}" : "axis {0, 1e20, 0}",
                      (double)qangle(a[4].rotation, b[4].rotation));
            } else {
                CHECK(memcmp(b, snap, sizeof b) == 0, "pose changed on error");
            }
        }
    }
    sinew_pose_destroy(pose);
}

/* ================================================================ Part B: hand IK retargeting */

static void part_b_hand_settings(void)
{
    SinewHandIkRetargetingSettings def, s, got, snap;
    SinewHandIkRetargeting *node = NULL, *out;
    int f, k;

    g_section = "B hand IK retargeting settings";
    memset(&def, 0xA5, sizeof def);
    sinew_hand_ik_retargeting_settings_default(&def);
    CHECK(def.hand_fk_weight == 0.5f && def.per_axis_alpha.x == 1.0f &&
              def.per_axis_alpha.y == 1.0f && def.per_axis_alpha.z == 1.0f,
          "defaults differ from the header's documentation");
    FILL(out);
    EXPECT(sinew_hand_ik_retargeting_create(NULL, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_hand_ik_retargeting_create(&def, NULL), SINEW_STATUS_NULL_POINTER);
    if (!EXPECT(sinew_hand_ik_retargeting_create(&def, &node), SINEW_STATUS_OK)) {
        return;
    }
    FILL(got);
    EXPECT(sinew_hand_ik_retargeting_get_settings(NULL, &got), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(got);
    EXPECT(sinew_hand_ik_retargeting_get_settings(node, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_hand_ik_retargeting_set_settings(NULL, &def), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_hand_ik_retargeting_set_settings(node, NULL), SINEW_STATUS_NULL_POINTER);
    snap = def;
    snap.hand_fk_weight = 0.25f;
    snap.per_axis_alpha.y = 0.0f;
    EXPECT(sinew_hand_ik_retargeting_set_settings(node, &snap), SINEW_STATUS_OK);

#define BAD_HAND_SETTINGS(mutate, want)                                                      \
    do {                                                                                     \
        s = def;                                                                             \
        mutate;                                                                              \
        FILL(out);                                                                           \
        EXPECT(sinew_hand_ik_retargeting_create(&s, &out), want);                            \
        UNTOUCHED(out);                                                                      \
        EXPECT(sinew_hand_ik_retargeting_set_settings(node, &s), want);                      \
        EXPECT(sinew_hand_ik_retargeting_get_settings(node, &got), SINEW_STATUS_OK);         \
        CHECK(memcmp(&got, &snap, sizeof got) == 0, "settings changed by failed set (%s)",   \
              #mutate);                                                                      \
    } while (0)

    BAD_HAND_SETTINGS(s.hand_fk_weight = -0.1f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_HAND_SETTINGS(s.hand_fk_weight = 1.1f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_HAND_SETTINGS(s.per_axis_alpha.x = 1.5f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_HAND_SETTINGS(s.per_axis_alpha.y = -0.5f, SINEW_STATUS_INVALID_ARGUMENT);
    BAD_HAND_SETTINGS(s.per_axis_alpha.z = 2.0f, SINEW_STATUS_INVALID_ARGUMENT);
    for (f = 0; f < 4; f++) {
        for (k = 0; k < 3; k++) {
            float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
            BAD_HAND_SETTINGS(*(f == 0 ? &s.hand_fk_weight : vec_field(&s.per_axis_alpha, f - 1)) =
                                  bad,
                              SINEW_STATUS_NON_FINITE);
        }
    }
#undef BAD_HAND_SETTINGS
    s.hand_fk_weight = 1.0f;
    s.per_axis_alpha = v3(0, 1, 0);
    EXPECT(sinew_hand_ik_retargeting_set_settings(node, &s), SINEW_STATUS_OK);
    EXPECT(sinew_hand_ik_retargeting_get_settings(node, &got), SINEW_STATUS_OK);
    CHECK(memcmp(&got, &s, sizeof got) == 0, "settings do not round-trip");
    sinew_hand_ik_retargeting_destroy(node);
}

static void part_b_hand_apply(void)
{
    SinewHandIkRetargetingSettings def;
    SinewHandIkRetargeting *node = NULL;
    SinewTransform base[7], model[7], mcopy[7], rest[NJ], snap[NJ];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    SinewHandJoints hands = {0, 1, 2, 3}, h;
    SinewVec3 off;
    uint32_t bones[2] = {4, 5}, bad_bones[2];
    Raw raw;
    int i, f, k, t;

    g_section = "B hand IK retargeting apply_model";
    sinew_hand_ik_retargeting_settings_default(&def);
    if (!EXPECT(sinew_hand_ik_retargeting_create(&def, &node), SINEW_STATUS_OK)) {
        return;
    }
    for (i = 0; i < 7; i++) {
        base[i] = xf(rng_point(2.0f), rng_quat(), ONE3());
    }
    memcpy(model, base, sizeof model);

#define HAND_EXPECT(call, want)                                                              \
    do {                                                                                     \
        memcpy(mcopy, model, sizeof mcopy);                                                  \
        FILL(off);                                                                           \
        EXPECT(call, want);                                                                  \
        CHECK(memcmp(mcopy, model, sizeof mcopy) == 0, "model written on error");            \
        UNTOUCHED(off);                                                                      \
    } while (0)

    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(NULL, model, 7, &hands, bones, 2, &off),
                SINEW_STATUS_NULL_POINTER);
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, NULL, 7, &hands, bones, 2, &off),
                SINEW_STATUS_NULL_POINTER);
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, NULL, bones, 2, &off),
                SINEW_STATUS_NULL_POINTER);
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, &hands, NULL, 2, &off),
                SINEW_STATUS_NULL_POINTER);
    /* An empty model has no hands to read. */
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, NULL, 0, &hands, NULL, 0, &off),
                SINEW_STATUS_OUT_OF_RANGE);
    for (f = 0; f < 4; f++) {
        for (k = 0; k < 2; k++) {
            h = hands;
            *(f == 0 ? &h.right_fk : f == 1 ? &h.left_fk : f == 2 ? &h.right_ik : &h.left_ik) =
                k == 0 ? 7 : UINT32_MAX;
            HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, &h, bones, 2, &off),
                        SINEW_STATUS_OUT_OF_RANGE);
        }
    }
    bad_bones[0] = 4;
    bad_bones[1] = 7;
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, &hands, bad_bones, 2, &off),
                SINEW_STATUS_OUT_OF_RANGE);
    bad_bones[1] = UINT32_MAX;
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, &hands, bad_bones, 2, &off),
                SINEW_STATUS_OUT_OF_RANGE);
    /* NaN / Inf anywhere in the model: a hand (0), a moved bone (4), an uninvolved one (6). */
    for (k = 0; k < 3; k++) {
        float bad = k == 0 ? NAN : k == 1 ? INFINITY : -INFINITY;
        for (t = 0; t < 7; t += t == 0 ? 4 : 2) {
            for (f = 0; f < 10; f++) {
                memcpy(model, base, sizeof model);
                *xf_field(&model[t], f) = bad;
                HAND_EXPECT(
                    sinew_hand_ik_retargeting_apply_model(node, model, 7, &hands, bones, 2, &off),
                    SINEW_STATUS_NON_FINITE);
            }
        }
    }
    memcpy(model, base, sizeof model);
    memcpy(raw.bytes + 1, &hands, sizeof hands);
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(
                    node, model, 7, (const SinewHandJoints *)(void *)(raw.bytes + 1), bones, 2,
                    &off),
                SINEW_STATUS_INVALID_ARGUMENT);
    memcpy(raw.bytes + 2, bones, sizeof bones);
    HAND_EXPECT(sinew_hand_ik_retargeting_apply_model(
                    node, model, 7, &hands, (const uint32_t *)(void *)(raw.bytes + 2), 2, &off),
                SINEW_STATUS_INVALID_ARGUMENT);
    memset(raw.bytes, 0xA5, sizeof raw.bytes);
    memcpy(mcopy, model, sizeof mcopy);
    EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 7, &hands, bones, 2,
                                                 (SinewVec3 *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(mcopy, model, sizeof mcopy) == 0, "model written with a misaligned out_offset");
    CHECK(is_filled(raw.bytes, sizeof raw.bytes), "misaligned out_offset written");
    memcpy(raw.bytes + 3, base, 4 * sizeof base[0]);
    EXPECT(sinew_hand_ik_retargeting_apply_model(node, (SinewTransform *)(void *)(raw.bytes + 3),
                                                 4, &hands, bones, 1, NULL),
           SINEW_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(raw.bytes + 3, base, 4 * sizeof base[0]) == 0, "misaligned model written");
    /* No bones (NULL, 0) is fine: the offset is still computed, nothing moves. */
    memcpy(model, base, sizeof model);
    EXPECT(sinew_hand_ik_retargeting_apply_model(node, model, 4, &hands, NULL, 0, &off),
           SINEW_STATUS_OK);
    CHECK(memcmp(model, base, sizeof model) == 0, "no bones listed, but the model changed");
#undef HAND_EXPECT

    g_section = "B hand IK retargeting apply_pose";
    skel = make_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        sinew_hand_ik_retargeting_destroy(node);
        return;
    }
    sinew_skeleton_destroy(skel);
    EXPECT(sinew_pose_get_local(pose, snap, NJ), SINEW_STATUS_OK);
    hands.right_fk = 9;
    hands.left_fk = 5;
    hands.right_ik = 8;
    hands.left_ik = 4;
    bones[0] = 6;
    bones[1] = 7;

#define HAND_POSE_EXPECT(call, want)                                                         \
    do {                                                                                     \
        FILL(off);                                                                           \
        EXPECT(call, want);                                                                  \
        POSE_SAME(pose, snap);                                                               \
        UNTOUCHED(off);                                                                      \
    } while (0)

    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(NULL, pose, &hands, bones, 2, &off),
                     SINEW_STATUS_NULL_POINTER);
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(node, NULL, &hands, bones, 2, &off),
                     SINEW_STATUS_NULL_POINTER);
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, NULL, bones, 2, &off),
                     SINEW_STATUS_NULL_POINTER);
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, NULL, 2, &off),
                     SINEW_STATUS_NULL_POINTER);
    for (f = 0; f < 4; f++) {
        for (k = 0; k < 2; k++) {
            h = hands;
            *(f == 0 ? &h.right_fk : f == 1 ? &h.left_fk : f == 2 ? &h.right_ik : &h.left_ik) =
                k == 0 ? NJ : UINT32_MAX;
            HAND_POSE_EXPECT(
                sinew_hand_ik_retargeting_apply_pose(node, pose, &h, bones, 2, &off),
                SINEW_STATUS_OUT_OF_RANGE);
        }
    }
    bad_bones[0] = 6; /* valid, listed first */
    bad_bones[1] = NJ;
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, bad_bones, 2, &off),
                     SINEW_STATUS_OUT_OF_RANGE);
    bad_bones[1] = UINT32_MAX;
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, bad_bones, 2, &off),
                     SINEW_STATUS_OUT_OF_RANGE);
    memcpy(raw.bytes + 1, &hands, sizeof hands);
    HAND_POSE_EXPECT(sinew_hand_ik_retargeting_apply_pose(
                         node, pose, (const SinewHandJoints *)(void *)(raw.bytes + 1), bones, 2,
                         &off),
                     SINEW_STATUS_INVALID_ARGUMENT);
    memset(raw.bytes, 0xA5, sizeof raw.bytes);
    EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, bones, 2,
                                                (SinewVec3 *)(void *)(raw.bytes + 1)),
           SINEW_STATUS_INVALID_ARGUMENT);
    POSE_SAME(pose, snap);
    CHECK(is_filled(raw.bytes, sizeof raw.bytes), "misaligned out_offset written");
#undef HAND_POSE_EXPECT
    EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, NULL, 0, NULL),
           SINEW_STATUS_OK);
    POSE_SAME(pose, snap);
    EXPECT(sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, bones, 2, &off),
           SINEW_STATUS_OK);
    sinew_pose_destroy(pose);
    sinew_hand_ik_retargeting_destroy(node);
}

/* Huge finite inputs to hand IK retargeting: OK with finite outputs, or NUMERIC_OVERFLOW with
 * outputs untouched (never a partly applied offset). */
static void part_b_hand_huge(void)
{
    static const int32_t roots[3] = {-1, -1, -1};
    SinewHandIkRetargetingSettings def;
    SinewHandIkRetargeting *node = NULL;
    SinewTransform model[3], copy[3], rest[3], snap[3], local[3];
    SinewHandJoints hands = {0, 0, 1, 1};
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    SinewVec3 off;
    SinewStatus st;
    uint32_t bones[2];
    int i, c;

    g_section = "B huge finite inputs: hand IK retargeting";
    sinew_hand_ik_retargeting_settings_default(&def);
    if (!EXPECT(sinew_hand_ik_retargeting_create(&def, &node), SINEW_STATUS_OK)) {
        return;
    }
    /* FK hands at 3e38, IK hands at the origin: the offset is 3e38. */
    for (c = 0; c < 3; c++) {
        model[0] = xf(v3(3e38f, 0, 0), QID(), ONE3());
        model[1] = xf(v3(0, 0, 0), QID(), ONE3());
        model[2] = xf(v3(c == 2 ? -3e38f : 1.0f, 0, 0), QID(), ONE3());
        bones[0] = c == 0 ? 1 : c == 1 ? 0 : 2; /* 0 + 3e38 + 3e38 overflows; 2 may too */
        bones[1] = 1;
        if (c == 2) {
            model[1] = xf(v3(-3e38f, 0, 0), QID(), ONE3()); /* the offset itself overflows */
        }
        memcpy(copy, model, sizeof copy);
        FILL(off);
        st = sinew_hand_ik_retargeting_apply_model(node, model, 3, &hands, bones, 2, &off);
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "apply_model case %d returned %s", c, status_name(st));
        if (st == SINEW_STATUS_OK) {
            for (i = 0; i < 3; i++) {
                CHECK(xf_finite(&model[i]),
                      "apply_model case %d: OK but transform %d is at (%g, %g, %g)", c, i,
                      (double)model[i].translation.x, (double)model[i].translation.y,
                      (double)model[i].translation.z);
            }
            CHECK(isfinite(off.x) && isfinite(off.y) && isfinite(off.z),
                  "apply_model case %d: OK with a non-finite offset", c);
        } else {
            CHECK(memcmp(model, copy, sizeof model) == 0,
                  "apply_model case %d: model written on error", c);
            UNTOUCHED(off);
        }
    }

    for (c = 0; c < 2; c++) {
        rest[0] = xf(v3(3e38f, 0, 0), QID(), ONE3());
        rest[1] = xf(v3(0, 0, 0), QID(), ONE3());
        rest[2] = xf(v3(1, 0, 0), QID(), ONE3());
        if (!EXPECT(sinew_skeleton_create(roots, rest, NULL, 3, &skel), SINEW_STATUS_OK) ||
            !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
            break;
        }
        sinew_skeleton_destroy(skel);
        EXPECT(sinew_pose_get_local(pose, snap, 3), SINEW_STATUS_OK);
        bones[0] = c == 0 ? 1 : 2; /* a bone that moves fine first, then one that overflows */
        bones[1] = 0;
        FILL(off);
        st = sinew_hand_ik_retargeting_apply_pose(node, pose, &hands, bones, 2, &off);
        CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW,
              "apply_pose case %d returned %s", c, status_name(st));
        EXPECT(sinew_pose_get_local(pose, local, 3), SINEW_STATUS_OK);
        if (st == SINEW_STATUS_OK) {
            for (i = 0; i < 3; i++) {
                CHECK(xf_finite(&local[i]), "apply_pose case %d: OK but joint %d is not finite",
                      c, i);
            }
        } else {
            CHECK(memcmp(local, snap, sizeof local) == 0,
                  "apply_pose case %d: pose changed on error (joint 1 at %g, 2 at %g)", c,
                  (double)local[1].translation.x, (double)local[2].translation.x);
            UNTOUCHED(off);
        }
        sinew_pose_destroy(pose);
    }
    sinew_hand_ik_retargeting_destroy(node);
}

/* ================================================================ blending: shared */

#define SJ 6
static const char *const SMALL_NAMES[SJ] = {"hips", "spine", "head", "arm", "hand", "leg"};
static const int32_t SMALL_PARENTS[SJ] = {-1, 0, 1, 1, 3, 0};

/* A skeleton for the blending tests and what its parity lines print of it. */
typedef struct {
    uint32_t n;
    const char *const *names;
    const int32_t *parents;
    SinewTransform rest[NB];
    SinewSkeleton *skel;
} Skel;

/* shape 0: SJ joints, 1: NJ, 2: NB; random rest translations and rotations, scales near 1. */
static int skel_make(Skel *s, int shape)
{
    uint32_t i;
    s->n = shape == 0 ? SJ : shape == 1 ? NJ : NB;
    s->names = shape == 0 ? SMALL_NAMES : shape == 1 ? JOINT_NAMES : BIG_NAMES;
    s->parents = shape == 0 ? SMALL_PARENTS : shape == 1 ? JOINT_PARENTS : BIG_PARENTS;
    for (i = 0; i < s->n; i++) {
        s->rest[i] = xf(i == 0 ? v3(0, 1, 0) : mulf(rng_dir(), rng_float(0.3f, 1.0f)), rng_quat(),
                        v3(rng_float(0.8f, 1.25f), rng_float(0.8f, 1.25f), rng_float(0.8f, 1.25f)));
    }
    s->skel = NULL;
    return EXPECT(sinew_skeleton_create(s->parents, s->rest, s->names, s->n, &s->skel),
                  SINEW_STATUS_OK);
}

static void print_skel(const Skel *s) { print_skeleton(s->n, s->names, s->parents, s->rest); }

static int rng_index(uint32_t n) { return rng_below((int)n); }

/* Random local transforms near the rest pose: any rotation (either hemisphere), scales in
 * [0.5, 2); with `zero_scales`, now and then a zero scale component. */
static void rng_locals(const Skel *s, SinewTransform *out, int zero_scales)
{
    uint32_t i;
    for (i = 0; i < s->n; i++) {
        out[i] = xf(add(s->rest[i].translation, rng_point(0.5f)), rng_quat(),
                    v3(rng_float(0.5f, 2.0f), rng_float(0.5f, 2.0f), rng_float(0.5f, 2.0f)));
        if (zero_scales && rng_below(4) == 0) {
            *vec_field(&out[i].scale, rng_below(3)) = 0.0f;
        }
    }
}

/* A pose of `s` holding `local` (the rest pose when NULL). */
static SinewPose *pose_make(const Skel *s, const SinewTransform *local)
{
    SinewPose *p = NULL;
    if (!EXPECT(sinew_pose_create(s->skel, &p), SINEW_STATUS_OK)) {
        return NULL;
    }
    if (local != NULL) {
        EXPECT(sinew_pose_set_local(p, local, s->n), SINEW_STATUS_OK);
    }
    return p;
}

static void pose_read(const SinewPose *p, SinewTransform *buf, uint32_t n)
{
    EXPECT(sinew_pose_get_local(p, buf, n), SINEW_STATUS_OK);
}

/* Whether pose `p` of n joints holds exactly `expect`. */
static int pose_holds(const SinewPose *p, const SinewTransform *expect, uint32_t n)
{
    SinewTransform now[NB];
    return sinew_pose_get_local(p, now, n) == SINEW_STATUS_OK &&
           memcmp(now, expect, n * sizeof now[0]) == 0;
}

#define POSE_KEPT(p, snap, n) CHECK(pose_holds((p), (snap), (n)), "pose `%s` changed on error", #p)

static int mask_holds(const SinewJointMask *m, const float *expect, uint32_t n)
{
    float now[NB];
    return sinew_joint_mask_get_weights(m, now, n) == SINEW_STATUS_OK &&
           memcmp(now, expect, n * sizeof now[0]) == 0;
}

#define MASK_KEPT(m, snap, n) CHECK(mask_holds((m), (snap), (n)), "mask `%s` changed on error", #m)

static int all_finite_unit(const SinewTransform *t, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        if (!xf_finite(&t[i]) || !xf_unit_rotation(&t[i])) {
            return 0;
        }
    }
    return 1;
}

/* Same translation and scale (relative to magnitude) and the same rotation (q or -q). */
static int xf_close(const SinewTransform *a, const SinewTransform *b, float tol)
{
    int f;
    for (f = 0; f < 3; f++) {
        if (!near(*vec_field((SinewVec3 *)&a->translation, f),
                  *vec_field((SinewVec3 *)&b->translation, f), tol) ||
            !near(*vec_field((SinewVec3 *)&a->scale, f), *vec_field((SinewVec3 *)&b->scale, f),
                  tol)) {
            return 0;
        }
    }
    return qsame(a->rotation, b->rotation) > 1.0f - tol;
}

/* A random mask of `s`: kind 0 none (NULL), 1 uniform, 2 subtree with a random blend depth,
 * 3 random weights with 0 and 1 sprinkled in, 4 uniform 1 with a few joints set one by one. */
static SinewJointMask *mask_make(const Skel *s, int kind)
{
    SinewJointMask *m = NULL;
    float w[NB];
    uint32_t i;
    switch (kind) {
    case 0: return NULL;
    case 1:
        EXPECT(sinew_joint_mask_create(s->skel, rng_below(3) == 0 ? 1.0f : rng_float(0, 1), &m),
               SINEW_STATUS_OK);
        break;
    case 2:
        EXPECT(sinew_joint_mask_create_subtree(s->skel, (uint32_t)rng_index(s->n),
                                               (uint32_t)rng_below(4), &m),
               SINEW_STATUS_OK);
        break;
    case 3:
        EXPECT(sinew_joint_mask_create(s->skel, 0.0f, &m), SINEW_STATUS_OK);
        for (i = 0; i < s->n; i++) {
            int r = rng_below(4);
            w[i] = r == 0 ? 0.0f : r == 1 ? 1.0f : rng_float(0, 1);
        }
        EXPECT(sinew_joint_mask_set_weights(m, w, s->n), SINEW_STATUS_OK);
        break;
    default:
        EXPECT(sinew_joint_mask_create(s->skel, 1.0f, &m), SINEW_STATUS_OK);
        for (i = 0; i < 3; i++) {
            EXPECT(sinew_joint_mask_set_weight(m, (uint32_t)rng_index(s->n),
                                               rng_below(2) ? 0.0f : rng_float(0, 1)),
                   SINEW_STATUS_OK);
        }
        break;
    }
    return m;
}

/* A mask's weights (all 1 for NULL); returns whether there is a mask. */
static int mask_read(const SinewJointMask *m, float *w, uint32_t n)
{
    uint32_t i;
    if (m == NULL) {
        for (i = 0; i < n; i++) {
            w[i] = 1.0f;
        }
        return 0;
    }
    EXPECT(sinew_joint_mask_get_weights(m, w, n), SINEW_STATUS_OK);
    return 1;
}

/* " MASK n <n weights>", or " MASK -" for NULL. */
static void print_mask(int has_mask, const float *w, uint32_t n)
{
    uint32_t i;
    if (!has_mask) {
        printf(" MASK -");
        return;
    }
    printf(" MASK %" PRIu32, n);
    for (i = 0; i < n; i++) {
        pf(w[i]);
    }
}

static void print_pose_tag(const char *tag, const SinewTransform *t, uint32_t n)
{
    print_xfs(tag, t, n);
}

/* ================================================================ Part A: two-pose blends */

static int g_blend_id;

#define N_BLEND 160

static float blend_factor(int k)
{
    switch (k % 9) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return 0.5f;
    case 3: return 1e-7f;
    case 4: return 0.99999994f;
    case 5: return -0.0f;
    default: return rng_float(0, 1);
    }
}

static void part_a_blend(void)
{
    Skel sk[2];
    int c;

    g_section = "A parity: sinew_pose_blend";
    if (!skel_make(&sk[0], 1) || !skel_make(&sk[1], 2)) {
        return;
    }
    for (c = 0; c < N_BLEND; c++) {
        const Skel *s = &sk[c % 3 == 2];
        uint32_t n = s->n, i;
        int alias = c % 4, space = (c / 4) % 2, id = g_blend_id++, has_mask, valid;
        float t = c % 29 == 28 ? (c % 2 ? 1.25f : -0.25f) : blend_factor(c / 8 + c);
        SinewTransform la[NB], lb[NB], lo[NB], in_a[NB], in_b[NB], in_out[NB], after[NB],
            ref[NB], a_after[NB], b_after[NB];
        SinewJointMask *m = mask_make(s, (c / 2) % 5);
        SinewPose *a, *b, *out, *scratch;
        SinewStatus st, st_ref = SINEW_STATUS_OK;
        float w[NB];

        rng_locals(s, la, 0);
        rng_locals(s, lb, 0);
        if (c % 3 == 1) {
            /* b near a but on the other hemisphere: the blend must take the short way. */
            for (i = 0; i < n; i++) {
                lb[i].rotation = qscale(qmul(la[i].rotation, rng_small_rotation(0.5f)), -1.0f);
            }
        }
        rng_locals(s, lo, 0);
        if (alias == 1 || alias == 3) {
            memcpy(lo, la, sizeof lo);
        } else if (alias == 2) {
            memcpy(lo, lb, sizeof lo);
        }
        a = pose_make(s, la);
        b = pose_make(s, lb);
        out = pose_make(s, lo);
        scratch = pose_make(s, NULL);
        has_mask = mask_read(m, w, n);
        pose_read(a, in_a, n);
        pose_read(b, in_b, n);
        pose_read(out, in_out, n);
        switch (alias) {
        case 0: st = sinew_pose_blend(a, b, t, m, space, out); break;
        case 1: st = sinew_pose_blend(out, b, t, m, space, out); break;
        case 2: st = sinew_pose_blend(a, out, t, m, space, out); break;
        default: st = sinew_pose_blend(out, out, t, m, space, out); break;
        }
        pose_read(out, after, n);
        pose_read(a, a_after, n);
        pose_read(b, b_after, n);
        /* The same blend into a distinct output. */
        if (alias != 0) {
            st_ref = sinew_pose_blend(a, alias == 3 ? a : b, t, m, space, scratch);
            pose_read(scratch, ref, n);
        }

        printf("BLEND %d", id);
        print_skel(s);
        print_pose_tag("A", in_a, n);
        print_pose_tag("B", alias == 3 ? in_a : in_b, n);
        print_pose_tag("OUTIN", in_out, n);
        printf(" T");
        pf(t);
        print_mask(has_mask, w, n);
        printf(" SPACE %d ALIAS %d ST %d", space, alias, (int)st);
        print_pose_tag("OUT", after, n);
        printf("\n");

        valid = t >= 0.0f && t <= 1.0f;
        CHECK(st == (valid ? SINEW_STATUS_OK : SINEW_STATUS_INVALID_ARGUMENT),
              "blend case %d (t %g) returned %s", id, (double)t, status_name(st));
        CHECK(memcmp(a_after, in_a, n * sizeof in_a[0]) == 0 &&
                  memcmp(b_after, in_b, n * sizeof in_b[0]) == 0,
              "blend case %d: an input pose changed", id);
        if (st != SINEW_STATUS_OK) {
            CHECK(memcmp(after, in_out, n * sizeof after[0]) == 0,
                  "blend case %d: output changed on error", id);
            sinew_joint_mask_destroy(m);
            sinew_pose_destroy(a);
            sinew_pose_destroy(b);
            sinew_pose_destroy(out);
            sinew_pose_destroy(scratch);
            continue;
        }
        CHECK(all_finite_unit(after, n), "blend case %d: output not finite/unit", id);
        for (i = 0; i < n; i++) {
            float wi = t * w[i];
            const SinewTransform *bi = alias == 3 ? &in_a[i] : &in_b[i];
            if (wi <= 0.0f) {
                CHECK(memcmp(&after[i], &in_a[i], sizeof after[i]) == 0,
                      "blend case %d: joint %u at weight 0 is not a, bit for bit", id,
                      (unsigned)i);
            } else if (wi >= 1.0f && (space == 0 || !has_mask)) {
                CHECK(memcmp(&after[i], bi, sizeof after[i]) == 0,
                      "blend case %d: joint %u at weight 1 is not b, bit for bit", id,
                      (unsigned)i);
            }
        }
        if (alias == 1 || alias == 2) {
            CHECK(st_ref == SINEW_STATUS_OK && memcmp(after, ref, n * sizeof ref[0]) == 0,
                  "blend case %d: out == %s differs from a distinct output", id,
                  alias == 1 ? "a" : "b");
        } else if (alias == 3) {
            /* A pose blended with itself is itself. */
            CHECK(memcmp(after, in_a, n * sizeof in_a[0]) == 0,
                  "blend case %d: a == b == out changed the pose", id);
            for (i = 0; i < n; i++) {
                CHECK(st_ref == SINEW_STATUS_OK && xf_near(&after[i], &ref[i], 1e-6f),
                      "blend case %d: blend(a, a) into another pose moved joint %u", id,
                      (unsigned)i);
            }
        }
        sinew_joint_mask_destroy(m);
        sinew_pose_destroy(a);
        sinew_pose_destroy(b);
        sinew_pose_destroy(out);
        sinew_pose_destroy(scratch);
    }
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* ================================================================ Part A: layered blends */

static int g_layers_id;

#define N_LAYERS 100
#define MAXL 4

static void part_a_layers(void)
{
    Skel sk[2];
    int c;

    g_section = "A parity: sinew_pose_blend_layers";
    if (!skel_make(&sk[0], 0) || !skel_make(&sk[1], 1)) {
        return;
    }
    for (c = 0; c < N_LAYERS; c++) {
        const Skel *s = &sk[c % 2];
        uint32_t n = s->n, k = c % 19 == 18 ? 0 : 1 + (uint32_t)(c % MAXL), l;
        int id = g_layers_id++, has_mask[MAXL], negative = c % 23 == 22 && k > 0, shared;
        SinewBlendLayer layers[MAXL];
        SinewPose *poses[MAXL], *out, *rest_pose_h;
        SinewJointMask *masks[MAXL];
        SinewTransform local[NB], in_layer[MAXL][NB], in_out[NB], after[NB], rest[NB];
        float w[MAXL][NB], thr, sum = 0.0f;
        SinewStatus st;

        switch (c % 6) {
        case 0: thr = 0.1f; break;
        case 1: thr = 1e-3f; break;
        case 2: thr = 1.0f; break;
        case 3: thr = 2.5f; break;
        case 4: thr = FLT_MIN; break;
        default: thr = rng_float(0.05f, 3.0f); break;
        }
        shared = c % 7 == 3 && k >= 2;
        for (l = 0; l < k; l++) {
            float wl;
            switch (rng_below(6)) {
            case 0: wl = 0.0f; break;
            case 1: wl = 1.0f; break;
            case 2: wl = rng_float(2.0f, 5.0f); break;
            default: wl = rng_float(0.0f, 1.5f); break;
            }
            if (c % 3 == 0) {
                wl = thr * rng_float(0.0f, 1.0f) / (float)k; /* total below the threshold */
            }
            if (negative && l == k - 1) {
                wl = -0.5f;
            }
            rng_locals(s, local, 0);
            poses[l] = shared && l == 1 ? poses[0] : pose_make(s, local);
            masks[l] = mask_make(s, (int)((l + (uint32_t)c) % 5));
            has_mask[l] = mask_read(masks[l], w[l], n);
            layers[l].pose = poses[l];
            layers[l].weight = wl;
            layers[l].mask = masks[l];
            pose_read(poses[l], in_layer[l], n);
            sum += wl;
        }
        rng_locals(s, local, 0);
        out = pose_make(s, local);
        rest_pose_h = pose_make(s, NULL);
        pose_read(rest_pose_h, rest, n);
        pose_read(out, in_out, n);
        st = sinew_pose_blend_layers(k == 0 && c % 2 ? NULL : layers, k, thr, out);
        pose_read(out, after, n);

        printf("LAYERS %d", id);
        print_skel(s);
        print_pose_tag("OUTIN", in_out, n);
        printf(" THR");
        pf(thr);
        printf(" L %" PRIu32, k);
        for (l = 0; l < k; l++) {
            print_pose_tag("P", in_layer[l], n);
            printf(" W");
            pf(layers[l].weight);
            print_mask(has_mask[l], w[l], n);
        }
        printf(" ST %d", (int)st);
        print_pose_tag("OUT", after, n);
        printf("\n");

        CHECK(st == (negative ? SINEW_STATUS_INVALID_ARGUMENT : SINEW_STATUS_OK),
              "layers case %d returned %s", id, status_name(st));
        if (st == SINEW_STATUS_OK) {
            CHECK(all_finite_unit(after, n), "layers case %d: output not finite/unit", id);
            if (k == 1 && !has_mask[0] && layers[0].weight >= thr) {
                CHECK(memcmp(after, in_layer[0], n * sizeof after[0]) == 0,
                      "layers case %d: one layer over the threshold is not that pose", id);
            }
            if (sum == 0.0f) {
                CHECK(memcmp(after, rest, n * sizeof after[0]) == 0,
                      "layers case %d: no weight does not give the rest pose", id);
            }
        } else {
            CHECK(memcmp(after, in_out, n * sizeof after[0]) == 0,
                  "layers case %d: output changed on error", id);
        }
        for (l = 0; l < k; l++) {
            CHECK(pose_holds(poses[l], in_layer[l], n), "layers case %d: layer %u changed", id,
                  (unsigned)l);
        }
        for (l = 0; l < k; l++) {
            if (!(shared && l == 1)) {
                sinew_pose_destroy(poses[l]);
            }
            sinew_joint_mask_destroy(masks[l]);
        }
        sinew_pose_destroy(out);
        sinew_pose_destroy(rest_pose_h);
    }
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* ================================================================ Part A: additive layers */

static int g_addmake_id;
static int g_addapply_id;

#define N_ADD 90

static float additive_weight(int k)
{
    static const float list[9] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f, 1.5f, 2.0f, -0.0f};
    return k % 10 == 9 ? rng_float(-1.0f, 2.0f) : list[k % 10];
}

static void part_a_additive(void)
{
    Skel sk[2];
    int c;

    g_section = "A parity: sinew_pose_make_additive / sinew_pose_apply_additive";
    if (!skel_make(&sk[0], 1) || !skel_make(&sk[1], 0)) {
        return;
    }
    for (c = 0; c < N_ADD; c++) {
        const Skel *s = &sk[c % 3 == 2];
        uint32_t n = s->n, i;
        int make_id = g_addmake_id++, apply_id = g_addapply_id++, same = c % 11 == 5;
        int alias = c % 3, has_mask;
        SinewTransform lp[NB], lr[NB], lo[NB], in_p[NB], in_r[NB], in_d[NB], delta[NB],
            in_base[NB], in_out[NB], after[NB], ref[NB], back[NB];
        SinewPose *p, *r, *d, *base, *out, *scratch;
        SinewJointMask *m;
        SinewStatus st, st2, st_ref;
        float weight = additive_weight(c), w[NB];

        rng_locals(s, lp, c % 4 == 3);
        rng_locals(s, lr, c % 5 == 4);
        rng_locals(s, lo, 0);
        p = pose_make(s, lp);
        r = same ? p : pose_make(s, lr);
        d = pose_make(s, lo);
        pose_read(p, in_p, n);
        pose_read(r, in_r, n);
        pose_read(d, in_d, n);
        st = sinew_pose_make_additive(p, r, d);
        pose_read(d, delta, n);

        printf("ADDMAKE %d", make_id);
        print_skel(s);
        print_pose_tag("P", in_p, n);
        print_pose_tag("R", in_r, n);
        print_pose_tag("OUTIN", in_d, n);
        printf(" ST %d", (int)st);
        print_pose_tag("OUT", delta, n);
        printf("\n");

        CHECK(st == SINEW_STATUS_OK, "make_additive case %d returned %s", make_id,
              status_name(st));
        CHECK(all_finite_unit(delta, n), "make_additive case %d: delta not finite/unit",
              make_id);
        CHECK(pose_holds(p, in_p, n) && pose_holds(r, in_r, n),
              "make_additive case %d: an input changed", make_id);

        /* Apply it: to the reference, or to another pose; in place or not. */
        rng_locals(s, lo, 0);
        if (c % 3 == 0) {
            memcpy(lo, in_r, sizeof lo);
        }
        base = alias == 2 ? d : pose_make(s, lo);
        m = mask_make(s, (c / 3) % 5);
        has_mask = mask_read(m, w, n);
        rng_locals(s, lo, 0);
        out = alias == 1 ? base : pose_make(s, lo);
        scratch = pose_make(s, NULL);
        pose_read(base, in_base, n);
        pose_read(out, in_out, n);
        /* What a distinct output gets, for the in-place form to match. */
        st_ref = sinew_pose_apply_additive(base, d, weight, m, scratch);
        pose_read(scratch, ref, n);
        st2 = sinew_pose_apply_additive(base, d, weight, m, out);
        pose_read(out, after, n);

        printf("ADDAPPLY %d", apply_id);
        print_skel(s);
        print_pose_tag("BASE", in_base, n);
        print_pose_tag("D", delta, n);
        print_pose_tag("OUTIN", in_out, n);
        printf(" W");
        pf(weight);
        print_mask(has_mask, w, n);
        printf(" ALIAS %d ST %d", alias, (int)st2);
        print_pose_tag("OUT", after, n);
        printf("\n");

        CHECK(st2 == SINEW_STATUS_OK, "apply_additive case %d returned %s", apply_id,
              status_name(st2));
        CHECK(all_finite_unit(after, n), "apply_additive case %d: output not finite/unit",
              apply_id);
        CHECK(pose_holds(d, delta, n), "apply_additive case %d: the delta changed", apply_id);
        CHECK(st_ref == SINEW_STATUS_OK && memcmp(ref, after, n * sizeof ref[0]) == 0,
              "apply_additive case %d: %s differs from a distinct output", apply_id,
              alias == 1 ? "out == base" : alias == 2 ? "base == delta" : "a second call");
        for (i = 0; i < n; i++) {
            float wi = weight * w[i];
            if (wi == 0.0f) {
                CHECK(xf_near(&after[i], &in_base[i], 1e-6f),
                      "apply_additive case %d: joint %u at weight 0 moved", apply_id,
                      (unsigned)i);
            }
        }
        if (c % 3 == 0 && weight == 1.0f && !has_mask) {
            /* The delta of (P, R) applied to R gives P (where R's scale can be divided by). */
            for (i = 0; i < n; i++) {
                if (in_r[i].scale.x != 0.0f && in_r[i].scale.y != 0.0f &&
                    in_r[i].scale.z != 0.0f) {
                    CHECK(xf_close(&after[i], &in_p[i], 1e-5f),
                          "apply_additive case %d: joint %u of R + (P - R) is not P", apply_id,
                          (unsigned)i);
                }
            }
        }
        if (st2 == SINEW_STATUS_OK && alias == 0 && !has_mask && weight != 0.0f) {
            /* Adding then subtracting the same delta comes back (rotations and translations;
             * scales where the scale factor is far from zero). */
            st_ref = sinew_pose_apply_additive(out, d, -weight, NULL, out);
            pose_read(out, back, n);
            CHECK(st_ref == SINEW_STATUS_OK, "apply_additive case %d: subtracting returned %s",
                  apply_id, status_name(st_ref));
            for (i = 0; i < n; i++) {
                CHECK(qsame(back[i].rotation, in_base[i].rotation) > 1.0f - 1e-5f &&
                          len3(sub(back[i].translation, in_base[i].translation)) <
                              1e-4f * (1.0f + len3(in_base[i].translation) +
                                       fabsf(weight) * len3(delta[i].translation)),
                      "apply_additive case %d: +w then -w moved joint %u", apply_id,
                      (unsigned)i);
            }
        }
        sinew_joint_mask_destroy(m);
        if (alias != 1) {
            sinew_pose_destroy(out);
        }
        if (alias != 2) {
            sinew_pose_destroy(base);
        }
        if (!same) {
            sinew_pose_destroy(r);
        }
        sinew_pose_destroy(p);
        sinew_pose_destroy(d);
        sinew_pose_destroy(scratch);
    }
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* ================================================================ Part A: joint masks */

static int g_mask_id;

#define N_MASK 48
#define MASK_OPS 6

static float mask_value(void)
{
    switch (rng_below(8)) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -0.0f;
    case 3: return rng_below(2) ? 1.0000001f : -1e-7f; /* just outside [0, 1] */
    default: return rng_float(0, 1);
    }
}

static void part_a_masks(void)
{
    Skel sk[2];
    int c;

    g_section = "A parity: joint masks";
    if (!skel_make(&sk[0], 2) || !skel_make(&sk[1], 0)) {
        return;
    }
    for (c = 0; c < N_MASK; c++) {
        const Skel *s = &sk[c % 2];
        uint32_t n = s->n, i, root = 0, depth = 0;
        int id = g_mask_id++, op, subtree = c % 2 == 0;
        SinewJointMask *m = NULL;
        SinewStatus st;
        float value = 0.0f, w[NB], before[NB];
        /* The operations, kept to print after the calls. */
        int kind[MASK_OPS];
        uint32_t joint[MASK_OPS];
        float weight[MASK_OPS], all[MASK_OPS][NB];
        SinewStatus ost[MASK_OPS];

        memset(kind, 0, sizeof kind);
        memset(joint, 0, sizeof joint);
        memset(weight, 0, sizeof weight);
        memset(all, 0, sizeof all);
        memset(ost, 0, sizeof ost);
        if (subtree) {
            root = c % 10 == 8 ? n : (uint32_t)rng_index(n);
            switch (c % 5) {
            case 0: depth = 0; break;
            case 1: depth = 1; break;
            case 2: depth = 3; break;
            case 3: depth = 7; break;
            default: depth = c % 3 ? 2u : UINT32_MAX; break;
            }
            st = sinew_joint_mask_create_subtree(s->skel, root, depth, &m);
            CHECK(st == (root < n ? SINEW_STATUS_OK : SINEW_STATUS_OUT_OF_RANGE),
                  "mask case %d: create_subtree(%u, %u) returned %s", id, (unsigned)root,
                  (unsigned)depth, status_name(st));
        } else {
            value = mask_value();
            st = sinew_joint_mask_create(s->skel, value, &m);
            CHECK(st == (value >= 0.0f && value <= 1.0f ? SINEW_STATUS_OK
                                                        : SINEW_STATUS_INVALID_ARGUMENT),
                  "mask case %d: create(%g) returned %s", id, (double)value, status_name(st));
        }
        for (op = 0; op < MASK_OPS && st == SINEW_STATUS_OK; op++) {
            EXPECT(sinew_joint_mask_get_weights(m, before, n), SINEW_STATUS_OK);
            kind[op] = rng_below(3) == 0;
            if (kind[op] == 0) {
                joint[op] = rng_below(6) == 0 ? n : (uint32_t)rng_index(n);
                weight[op] = mask_value();
                ost[op] = sinew_joint_mask_set_weight(m, joint[op], weight[op]);
                CHECK(ost[op] == (!(weight[op] >= 0.0f && weight[op] <= 1.0f)
                                      ? SINEW_STATUS_INVALID_ARGUMENT
                                  : joint[op] >= n ? SINEW_STATUS_OUT_OF_RANGE
                                                   : SINEW_STATUS_OK),
                      "mask case %d: set_weight(%u, %g) returned %s", id, (unsigned)joint[op],
                      (double)weight[op], status_name(ost[op]));
            } else {
                int ok = 1;
                for (i = 0; i < n; i++) {
                    all[op][i] = rng_below(8) == 0 ? mask_value() : rng_float(0, 1);
                    ok &= all[op][i] >= 0.0f && all[op][i] <= 1.0f;
                }
                ost[op] = sinew_joint_mask_set_weights(m, all[op], n);
                CHECK(ost[op] == (ok ? SINEW_STATUS_OK : SINEW_STATUS_INVALID_ARGUMENT),
                      "mask case %d: set_weights returned %s", id, status_name(ost[op]));
            }
            if (ost[op] != SINEW_STATUS_OK) {
                MASK_KEPT(m, before, n);
            }
        }
        if (st == SINEW_STATUS_OK) {
            EXPECT(sinew_joint_mask_get_weights(m, w, n), SINEW_STATUS_OK);
        }

        printf("MASK %d", id);
        print_skel(s);
        if (subtree) {
            printf(" MK S %" PRIu32 " %" PRIu32, root, depth);
        } else {
            printf(" MK U");
            pf(value);
        }
        printf(" ST %d OPS %d", (int)st, st == SINEW_STATUS_OK ? MASK_OPS : 0);
        for (op = 0; op < MASK_OPS && st == SINEW_STATUS_OK; op++) {
            if (kind[op] == 0) {
                printf(" W %" PRIu32, joint[op]);
                pf(weight[op]);
            } else {
                printf(" A %" PRIu32, n);
                for (i = 0; i < n; i++) {
                    pf(all[op][i]);
                }
            }
            printf(" ST %d", (int)ost[op]);
        }
        if (st == SINEW_STATUS_OK) {
            printf(" OUT %" PRIu32, n);
            for (i = 0; i < n; i++) {
                pf(w[i]);
            }
        } else {
            printf(" OUT -");
        }
        printf("\n");
        if (st == SINEW_STATUS_OK) {
            for (i = 0; i < n; i++) {
                CHECK(w[i] >= 0.0f && w[i] <= 1.0f, "mask case %d: weight %g", id, (double)w[i]);
            }
        }
        sinew_joint_mask_destroy(m);
    }
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* ================================================================ Part A: clips */

#define MAXK 8

/* One track edit: a setter's arguments, or a clear. Vector values use xyz of the quaternions. */
typedef struct {
    int clear;
    uint32_t joint;
    int32_t prop;
    int32_t interp;
    uint32_t n;
    float times[MAXK];
    SinewQuat vals[MAXK];
    int tangents;
    SinewQuat tin[MAXK];
    SinewQuat tout[MAXK];
} TrackSpec;

static SinewVec3 q_xyz(SinewQuat q) { return v3(q.x, q.y, q.z); }

static SinewStatus track_apply(SinewClip *clip, const TrackSpec *k)
{
    SinewVec3 v[MAXK], vi[MAXK], vo[MAXK];
    uint32_t i;
    if (k->clear) {
        return sinew_clip_clear_track(clip, k->joint, k->prop);
    }
    if (k->prop == SINEW_TRACK_PROPERTY_ROTATION) {
        return sinew_clip_set_rotation_track(clip, k->joint, k->interp, k->times, k->vals,
                                             k->tangents ? k->tin : NULL,
                                             k->tangents ? k->tout : NULL, k->n);
    }
    for (i = 0; i < k->n && i < MAXK; i++) {
        v[i] = q_xyz(k->vals[i]);
        vi[i] = q_xyz(k->tin[i]);
        vo[i] = q_xyz(k->tout[i]);
    }
    return (k->prop == SINEW_TRACK_PROPERTY_TRANSLATION ? sinew_clip_set_translation_track
                                                        : sinew_clip_set_scale_track)(
        clip, k->joint, k->interp, k->times, v, k->tangents ? vi : NULL,
        k->tangents ? vo : NULL, k->n);
}

/* " J joint P prop I interp N n TIMES <n> VAL <n values> TAN (- | <n in> <n out>) ST st", or
 * " CLR joint prop ST st". */
static void print_track(const TrackSpec *k, SinewStatus st)
{
    uint32_t i;
    int c = k->prop == SINEW_TRACK_PROPERTY_ROTATION ? 4 : 3, f;
    if (k->clear) {
        printf(" CLR %" PRIu32 " %" PRId32 " ST %d", k->joint, k->prop, (int)st);
        return;
    }
    printf(" J %" PRIu32 " P %" PRId32 " I %" PRId32 " N %" PRIu32 " TIMES", k->joint, k->prop,
           k->interp, k->n);
    for (i = 0; i < k->n; i++) {
        pf(k->times[i]);
    }
    printf(" VAL");
    for (i = 0; i < k->n; i++) {
        for (f = 0; f < c; f++) {
            pf(*quat_field((SinewQuat *)&k->vals[i], f));
        }
    }
    printf(" TAN");
    if (!k->tangents) {
        printf(" -");
    } else {
        for (i = 0; i < k->n; i++) {
            for (f = 0; f < c; f++) {
                pf(*quat_field((SinewQuat *)&k->tin[i], f));
            }
        }
        for (i = 0; i < k->n; i++) {
            for (f = 0; f < c; f++) {
                pf(*quat_field((SinewQuat *)&k->tout[i], f));
            }
        }
    }
    printf(" ST %d", (int)st);
}

/* A random valid track of `s` for a clip of `dur` seconds. */
static void rng_track(TrackSpec *k, const Skel *s, float dur, int32_t interp, int32_t prop)
{
    uint32_t i, j;
    memset(k, 0, sizeof *k);
    k->joint = (uint32_t)rng_index(s->n);
    k->prop = prop;
    k->interp = interp;
    k->n = dur > 0.0f ? 1 + (uint32_t)rng_below(6) : 1;
    for (;;) {
        int ok = 1;
        for (i = 0; i < k->n; i++) {
            k->times[i] = dur > 0.0f ? rng_float(0, dur) : 0.0f;
        }
        for (i = 1; i < k->n; i++) { /* insertion sort */
            float t = k->times[i];
            for (j = i; j > 0 && k->times[j - 1] > t; j--) {
                k->times[j] = k->times[j - 1];
            }
            k->times[j] = t;
        }
        if (k->n > 1 && rng_below(3) == 0) {
            k->times[0] = 0.0f;
            k->times[k->n - 1] = dur;
        }
        for (i = 1; i < k->n; i++) {
            ok &= k->times[i] > k->times[i - 1];
        }
        if (ok) {
            break;
        }
    }
    for (i = 0; i < k->n; i++) {
        if (prop == SINEW_TRACK_PROPERTY_ROTATION) {
            SinewQuat q = rng_quat();
            if (i > 0 && rng_below(3) == 0) {
                /* Near the previous key, on the other hemisphere. */
                q = qscale(qmul(qunit(k->vals[i - 1]), rng_small_rotation(1.0f)), -1.0f);
            }
            if (rng_below(3) == 0) {
                q = qscale(q, rng_float(0.5f, 2.0f)); /* renormalized by the library */
            }
            k->vals[i] = q;
            k->tin[i] = qt(rng_float(-2, 2), rng_float(-2, 2), rng_float(-2, 2), rng_float(-2, 2));
            k->tout[i] = qt(rng_float(-2, 2), rng_float(-2, 2), rng_float(-2, 2), rng_float(-2, 2));
        } else {
            SinewVec3 v = prop == SINEW_TRACK_PROPERTY_TRANSLATION
                              ? add(s->rest[k->joint].translation, rng_point(1.0f))
                              : v3(rng_float(0.25f, 2), rng_float(0.25f, 2), rng_float(0.25f, 2));
            SinewVec3 a = rng_point(3.0f), b = rng_point(3.0f);
            k->vals[i] = qt(v.x, v.y, v.z, 0.0f);
            k->tin[i] = qt(a.x, a.y, a.z, 0.0f);
            k->tout[i] = qt(b.x, b.y, b.z, 0.0f);
        }
    }
    k->tangents = interp == SINEW_INTERPOLATION_CUBIC;
}

/* A clip of `s` with random tracks covering every interpolation and property; `bad` spoils
 * one track edit (the library must refuse it and keep the clip). */
static SinewClip *clip_make(const Skel *s, float dur, int c, int bad, TrackSpec *tracks,
                            SinewStatus *tst, uint32_t *nt, SinewStatus *cst)
{
    SinewClip *clip = NULL;
    uint32_t k;
    float got = -1.0f;
    *cst = sinew_clip_create(s->skel, dur, &clip);
    CHECK(*cst == SINEW_STATUS_OK, "clip_create(%g) returned %s", (double)dur,
          status_name(*cst));
    if (*cst != SINEW_STATUS_OK) {
        *nt = 0;
        return NULL;
    }
    EXPECT(sinew_clip_duration(clip, &got), SINEW_STATUS_OK);
    CHECK(got == dur, "clip duration %g, created with %g", (double)got, (double)dur);
    *nt = 2 + (uint32_t)rng_below(6);
    for (k = 0; k < *nt; k++) {
        SinewStatus want = SINEW_STATUS_OK;
        rng_track(&tracks[k], s, dur, (int32_t)(((uint32_t)c + k) % 4),
                  (int32_t)(((uint32_t)c + 2 * k) % 3));
        if (bad && k == 1) {
            TrackSpec *t = &tracks[k];
            switch ((c / 6) % 5) {
            case 0:
                if (t->n >= 2) {
                    float x = t->times[0];
                    t->times[0] = t->times[1];
                    t->times[1] = x;
                    want = SINEW_STATUS_INVALID_ARGUMENT;
                } else {
                    t->times[0] = dur + 0.5f;
                    want = SINEW_STATUS_OUT_OF_RANGE;
                }
                break;
            case 1:
                t->times[0] = -0.25f;
                want = SINEW_STATUS_OUT_OF_RANGE;
                break;
            case 2:
                t->times[t->n - 1] = dur * 2.0f + 1.0f;
                want = SINEW_STATUS_OUT_OF_RANGE;
                break;
            case 3:
                t->joint = s->n;
                want = SINEW_STATUS_OUT_OF_RANGE;
                break;
            default:
                t->tangents = !t->tangents;
                want = SINEW_STATUS_INVALID_ARGUMENT;
                break;
            }
        }
        if (k == *nt - 1 && c % 5 == 2) {
            /* Clear a track set earlier. */
            tracks[k] = tracks[rng_index(k)];
            tracks[k].clear = 1;
            want = tracks[k].joint < s->n ? SINEW_STATUS_OK : SINEW_STATUS_OUT_OF_RANGE;
        }
        tst[k] = track_apply(clip, &tracks[k]);
        CHECK(tst[k] == want, "clip track %u returned %s, expected %s", (unsigned)k,
              status_name(tst[k]), status_name(want));
    }
    return clip;
}

static void print_clip(float dur, SinewStatus cst, const TrackSpec *tracks,
                       const SinewStatus *tst, uint32_t nt)
{
    uint32_t k;
    printf(" DUR");
    pf(dur);
    printf(" CST %d TRACKS %" PRIu32, (int)cst, nt);
    for (k = 0; k < nt; k++) {
        print_track(&tracks[k], tst[k]);
    }
}

static int g_clip_id;

#define N_CLIP 60
#define MAXS 40

typedef struct {
    float t;
    uint32_t looping;
    int cursor;
    SinewStatus st;
    SinewTransform out[NB];
} Sample;

static void part_a_clips(void)
{
    static Sample samples[MAXS];
    Skel sk[2];
    int c;

    g_section = "A parity: clips";
    if (!skel_make(&sk[0], 0) || !skel_make(&sk[1], 1)) {
        return;
    }
    for (c = 0; c < N_CLIP; c++) {
        const Skel *s = &sk[c % 4 == 3];
        uint32_t n = s->n, nt, k, ns = 0, seg;
        int id = g_clip_id++;
        float dur = c % 8 == 7 ? 0.0f : rng_float(0.5f, 3.0f), span = dur > 0.0f ? dur : 1.0f;
        TrackSpec tracks[MAXK];
        SinewStatus tst[MAXK], cst;
        SinewClip *clip = clip_make(s, dur, c, c % 6 == 5, tracks, tst, &nt, &cst);
        SinewClipCursor *cursor = NULL;
        SinewPose *out = pose_make(s, NULL), *check = pose_make(s, NULL);
        SinewTransform plain[NB];

        if (clip == NULL) {
            continue;
        }
        EXPECT(sinew_clip_cursor_create(clip, &cursor), SINEW_STATUS_OK);
        /* Forward, backward, random, then exact key times and the ends. */
        for (seg = 0; seg < 4; seg++) {
            uint32_t count = seg == 0 ? 14 : seg == 1 ? 8 : seg == 2 ? 10 : 6, j;
            float t = seg == 0 ? -0.25f * span : 2.2f * span;
            for (j = 0; j < count && ns < MAXS; j++) {
                Sample *sm = &samples[ns++];
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
                sm->st = sinew_clip_sample(clip, sm->cursor ? cursor : NULL, t, sm->looping, out);
                pose_read(out, sm->out, n);
                CHECK(sm->st == SINEW_STATUS_OK, "clip case %d: sample at %g returned %s", id,
                      (double)t, status_name(sm->st));
                CHECK(all_finite_unit(sm->out, n), "clip case %d: sample at %g not finite/unit",
                      id, (double)t);
                if (sm->cursor) {
                    /* A cursor changes the speed, not the result. */
                    EXPECT(sinew_clip_sample(clip, NULL, t, sm->looping, check), SINEW_STATUS_OK);
                    pose_read(check, plain, n);
                    CHECK(memcmp(plain, sm->out, n * sizeof plain[0]) == 0,
                          "clip case %d: sample at %g with a cursor differs from without", id,
                          (double)t);
                }
            }
        }

        printf("CLIP %d", id);
        print_skel(s);
        print_clip(dur, cst, tracks, tst, nt);
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
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* ================================================================ Part A: crossfade */

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
static int g_xfade_id;

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

#define N_XFADE 28

static void part_a_crossfade(void)
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
            xf_fade(&x, rng_below(NCLIPS), rng_float(0.0f, 0.4f), (int32_t)rng_below(3),
                    (uint32_t)rng_below(2));
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

/* ================================================================ Part B: joint masks */

static void part_b_mask(void)
{
    static const float bad_values[7] = {NAN, INFINITY, -INFINITY, -0.1f, 1.1f, -FLT_MIN,
                                        1.0000001f};
    Skel s;
    SinewJointMask *m = NULL, *out;
    float snap[NB], w[NB + 1], bad[NB];
    uint32_t i;
    int k;

    g_section = "B joint masks";
    if (!skel_make(&s, 1)) {
        return;
    }
    /* create / create_subtree */
    FILL(out);
    EXPECT(sinew_joint_mask_create(NULL, 0.5f, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_joint_mask_create(s.skel, 0.5f, NULL), SINEW_STATUS_NULL_POINTER);
    for (k = 0; k < 7; k++) {
        FILL(out);
        EXPECT(sinew_joint_mask_create(s.skel, bad_values[k], &out),
               k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
        UNTOUCHED(out);
    }
    for (k = 0; k < 3; k++) {
        float v = k == 0 ? 0.0f : k == 1 ? 1.0f : -0.0f;
        out = NULL;
        if (EXPECT(sinew_joint_mask_create(s.skel, v, &out), SINEW_STATUS_OK)) {
            EXPECT(sinew_joint_mask_get_weights(out, w, NJ), SINEW_STATUS_OK);
            for (i = 0; i < NJ; i++) {
                CHECK(w[i] == v, "uniform mask %g has weight %g", (double)v, (double)w[i]);
            }
        }
        sinew_joint_mask_destroy(out);
    }
    FILL(out);
    EXPECT(sinew_joint_mask_create_subtree(NULL, 0, 0, &out), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out);
    EXPECT(sinew_joint_mask_create_subtree(s.skel, 0, 0, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_joint_mask_create_subtree(s.skel, NJ, 0, &out), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out);
    EXPECT(sinew_joint_mask_create_subtree(s.skel, UINT32_MAX, 2, &out),
           SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out);
    out = NULL;
    if (EXPECT(sinew_joint_mask_create_subtree(s.skel, 2, 0, &out), SINEW_STATUS_OK)) {
        /* chest (2): chest, l_* (3-5), head (6), r_* (7-9); root and spine excluded. */
        EXPECT(sinew_joint_mask_get_weights(out, w, NJ), SINEW_STATUS_OK);
        for (i = 0; i < NJ; i++) {
            CHECK(w[i] == (i >= 2 ? 1.0f : 0.0f), "subtree mask weight %u is %g", (unsigned)i,
                  (double)w[i]);
        }
    }
    sinew_joint_mask_destroy(out);
    out = NULL;
    if (EXPECT(sinew_joint_mask_create_subtree(s.skel, 2, 2, &out), SINEW_STATUS_OK)) {
        /* depth below chest: 0 for chest, 1 for l_upper/head/r_upper, 2 for the forearms. */
        EXPECT(sinew_joint_mask_get_weights(out, w, NJ), SINEW_STATUS_OK);
        CHECK(w[0] == 0.0f && w[1] == 0.0f && w[2] == 1.0f / 3.0f && w[3] == 2.0f / 3.0f &&
                  w[6] == 2.0f / 3.0f && w[4] == 1.0f && w[5] == 1.0f && w[9] == 1.0f,
              "subtree ramp: %g %g %g %g %g %g", (double)w[0], (double)w[2], (double)w[3],
              (double)w[4], (double)w[5], (double)w[6]);
    }
    sinew_joint_mask_destroy(out);

    if (!EXPECT(sinew_joint_mask_create(s.skel, 0.25f, &m), SINEW_STATUS_OK)) {
        return;
    }
    for (i = 0; i < NJ; i++) {
        snap[i] = rng_float(0, 1);
    }
    EXPECT(sinew_joint_mask_set_weights(m, snap, NJ), SINEW_STATUS_OK);
    MASK_KEPT(m, snap, NJ); /* round trip */

    /* set_weight */
    EXPECT(sinew_joint_mask_set_weight(NULL, 0, 0.5f), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_joint_mask_set_weight(m, NJ, 0.5f), SINEW_STATUS_OUT_OF_RANGE);
    MASK_KEPT(m, snap, NJ);
    EXPECT(sinew_joint_mask_set_weight(m, UINT32_MAX, 0.5f), SINEW_STATUS_OUT_OF_RANGE);
    MASK_KEPT(m, snap, NJ);
    for (k = 0; k < 7; k++) {
        EXPECT(sinew_joint_mask_set_weight(m, 3, bad_values[k]),
               k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
        MASK_KEPT(m, snap, NJ);
    }

    /* set_weights: all or nothing */
    EXPECT(sinew_joint_mask_set_weights(NULL, snap, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_joint_mask_set_weights(m, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    MASK_KEPT(m, snap, NJ);
    memcpy(bad, snap, sizeof bad);
    bad[0] = 0.5f;
    EXPECT(sinew_joint_mask_set_weights(m, bad, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    MASK_KEPT(m, snap, NJ);
    EXPECT(sinew_joint_mask_set_weights(m, bad, 0), SINEW_STATUS_SIZE_MISMATCH);
    MASK_KEPT(m, snap, NJ);
    EXPECT(sinew_joint_mask_set_weights(m, w, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    MASK_KEPT(m, snap, NJ);
    EXPECT(sinew_joint_mask_set_weights(m, NULL, 0), SINEW_STATUS_SIZE_MISMATCH);
    MASK_KEPT(m, snap, NJ);
    for (k = 0; k < 7; k++) {
        memcpy(bad, snap, sizeof bad);
        bad[0] = 0.5f;              /* a valid change before the bad value */
        bad[NJ - 1] = bad_values[k]; /* last: every earlier weight is valid */
        EXPECT(sinew_joint_mask_set_weights(m, bad, NJ),
               k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
        MASK_KEPT(m, snap, NJ);
    }

    /* get_weights */
    FILL(w);
    EXPECT(sinew_joint_mask_get_weights(NULL, w, NJ), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(w);
    EXPECT(sinew_joint_mask_get_weights(m, NULL, NJ), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_joint_mask_get_weights(m, w, NJ - 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(w);
    EXPECT(sinew_joint_mask_get_weights(m, w, NJ + 1), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(w);
    EXPECT(sinew_joint_mask_get_weights(m, w, 0), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(w);
    EXPECT(sinew_joint_mask_get_weights(m, NULL, 0), SINEW_STATUS_SIZE_MISMATCH);
    MASK_KEPT(m, snap, NJ);
    sinew_joint_mask_destroy(m);
    sinew_skeleton_destroy(s.skel);
}

/* ================================================================ Part B: two-pose blends */

static void part_b_blend(void)
{
    static const float bad_t[9] = {NAN, INFINITY, -INFINITY, -0.01f, 1.01f, -FLT_MIN,
                                   1.0000001f, FLT_MAX, -FLT_MAX};
    static const int32_t bad_space[4] = {5, 2, -1, INT32_MAX};
    Skel s, o;
    SinewTransform la[NB], lb[NB], lo[NB], sa[NB], sb[NB], so[NB], sother[NB];
    SinewPose *a, *b, *out, *other;
    SinewJointMask *m = NULL, *mo = NULL;
    int k, alias;

    g_section = "B sinew_pose_blend";
    if (!skel_make(&s, 1) || !skel_make(&o, 0)) {
        return;
    }
    rng_locals(&s, la, 0);
    rng_locals(&s, lb, 0);
    rng_locals(&s, lo, 0);
    a = pose_make(&s, la);
    b = pose_make(&s, lb);
    out = pose_make(&s, lo);
    other = pose_make(&o, NULL);
    EXPECT(sinew_joint_mask_create(s.skel, 0.5f, &m), SINEW_STATUS_OK);
    EXPECT(sinew_joint_mask_create(o.skel, 0.5f, &mo), SINEW_STATUS_OK);
    pose_read(a, sa, NJ);
    pose_read(b, sb, NJ);
    pose_read(out, so, NJ);
    pose_read(other, sother, SJ);

    EXPECT(sinew_pose_blend(NULL, b, 0.5f, NULL, 0, out), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_pose_blend(a, NULL, 0.5f, NULL, 0, out), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_pose_blend(a, b, 0.5f, NULL, 0, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_blend(NULL, NULL, 0.5f, m, 1, NULL), SINEW_STATUS_NULL_POINTER);

    for (alias = 0; alias < 4; alias++) {
        /* The aliasing forms: distinct, out == a, out == b, a == b == out. */
        const SinewPose *pa = alias == 1 || alias == 3 ? out : a;
        const SinewPose *pb = alias == 2 || alias == 3 ? out : b;
        int space;
        for (space = 0; space < 2; space++) {
            for (k = 0; k < 9; k++) {
                EXPECT(sinew_pose_blend(pa, pb, bad_t[k], NULL, space, out),
                       k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
                POSE_KEPT(out, so, NJ);
                EXPECT(sinew_pose_blend(pa, pb, bad_t[k], m, space, out),
                       k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
                POSE_KEPT(out, so, NJ);
            }
            EXPECT(sinew_pose_blend(pa, pb, 0.5f, mo, space, out), SINEW_STATUS_SIZE_MISMATCH);
            POSE_KEPT(out, so, NJ);
        }
        for (k = 0; k < 4; k++) {
            EXPECT(sinew_pose_blend(pa, pb, 0.5f, NULL, bad_space[k], out),
                   SINEW_STATUS_INVALID_ARGUMENT);
            POSE_KEPT(out, so, NJ);
        }
    }
    /* Poses of another joint count, in every position. */
    for (k = 0; k < 2; k++) {
        EXPECT(sinew_pose_blend(other, b, 0.5f, NULL, k, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_blend(a, other, 0.5f, NULL, k, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_blend(out, other, 0.5f, NULL, k, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_blend(other, out, 0.5f, NULL, k, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_blend(a, b, 0.5f, NULL, k, other), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(other, sother, SJ);
        EXPECT(sinew_pose_blend(a, a, 0.5f, NULL, k, other), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(other, sother, SJ);
        EXPECT(sinew_pose_blend(other, other, 0.5f, m, k, other), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(other, sother, SJ);
    }
    POSE_KEPT(a, sa, NJ);
    POSE_KEPT(b, sb, NJ);
    /* Boundaries that are valid. */
    EXPECT(sinew_pose_blend(a, b, -0.0f, NULL, 0, out), SINEW_STATUS_OK);
    CHECK(pose_holds(out, sa, NJ), "blend at t = -0 is not a");
    EXPECT(sinew_pose_blend(a, b, 1.0f, NULL, 1, out), SINEW_STATUS_OK);
    CHECK(pose_holds(out, sb, NJ), "model-rotation blend at t = 1 is not b");
    EXPECT(sinew_pose_blend(other, other, 0.5f, mo, 1, other), SINEW_STATUS_OK);
    POSE_KEPT(other, sother, SJ);

    sinew_joint_mask_destroy(m);
    sinew_joint_mask_destroy(mo);
    sinew_pose_destroy(a);
    sinew_pose_destroy(b);
    sinew_pose_destroy(out);
    sinew_pose_destroy(other);
    sinew_skeleton_destroy(s.skel);
    sinew_skeleton_destroy(o.skel);
}

/* ================================================================ Part B: layered blends */

static void part_b_layers(void)
{
    static const float bad_thr[7] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, -1.0f, -FLT_MIN};
    static const float bad_w[5] = {NAN, INFINITY, -INFINITY, -1.0f, -FLT_MIN};
    Skel s, o;
    SinewTransform local[NB], so[NB], sother[NB], rest[NB];
    SinewPose *p[3], *out, *other;
    SinewJointMask *m, *mo;
    SinewBlendLayer layers[3], bad[3];
    int k, j;

    g_section = "B sinew_pose_blend_layers";
    if (!skel_make(&s, 1) || !skel_make(&o, 0)) {
        return;
    }
    for (k = 0; k < 3; k++) {
        rng_locals(&s, local, 0);
        p[k] = pose_make(&s, local);
    }
    rng_locals(&s, local, 0);
    out = pose_make(&s, local);
    other = pose_make(&o, NULL);
    m = mask_make(&s, 3);
    mo = mask_make(&o, 1);
    pose_read(out, so, NJ);
    pose_read(other, sother, SJ);
    for (k = 0; k < 3; k++) {
        layers[k].pose = p[k];
        layers[k].weight = 0.5f + (float)k;
        layers[k].mask = k == 1 ? m : NULL;
    }

    EXPECT(sinew_pose_blend_layers(NULL, 3, 0.1f, out), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_pose_blend_layers(layers, 3, 0.1f, NULL), SINEW_STATUS_NULL_POINTER);
    for (j = 0; j < 3; j++) {
        memcpy(bad, layers, sizeof bad);
        bad[j].pose = NULL;
        EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out), SINEW_STATUS_NULL_POINTER);
        POSE_KEPT(out, so, NJ);
    }
    for (k = 0; k < 7; k++) {
        EXPECT(sinew_pose_blend_layers(layers, 3, bad_thr[k], out),
               k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_blend_layers(NULL, 0, bad_thr[k], out),
               k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
        POSE_KEPT(out, so, NJ);
    }
    for (j = 0; j < 3; j++) {
        for (k = 0; k < 5; k++) {
            memcpy(bad, layers, sizeof bad);
            bad[j].weight = bad_w[k];
            EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out),
                   k < 3 ? SINEW_STATUS_NON_FINITE : SINEW_STATUS_INVALID_ARGUMENT);
            POSE_KEPT(out, so, NJ);
        }
        memcpy(bad, layers, sizeof bad);
        bad[j].mask = mo;
        EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        memcpy(bad, layers, sizeof bad);
        bad[j].pose = other;
        EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        /* The output may not be one of the layers. */
        memcpy(bad, layers, sizeof bad);
        bad[j].pose = out;
        EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out), SINEW_STATUS_INVALID_ARGUMENT);
        POSE_KEPT(out, so, NJ);
        bad[j].weight = 0.0f; /* even with no weight */
        EXPECT(sinew_pose_blend_layers(bad, 3, 0.1f, out), SINEW_STATUS_INVALID_ARGUMENT);
        POSE_KEPT(out, so, NJ);
    }
    EXPECT(sinew_pose_blend_layers(layers, 3, 0.1f, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);
    EXPECT(sinew_pose_blend_layers(NULL, 0, 0.1f, NULL), SINEW_STATUS_NULL_POINTER);

    /* Valid edges: a weight of -0, a tiny threshold, no layers at all (the rest pose). */
    memcpy(bad, layers, sizeof bad);
    bad[0].weight = -0.0f;
    EXPECT(sinew_pose_blend_layers(bad, 3, FLT_MIN, out), SINEW_STATUS_OK);
    EXPECT(sinew_pose_blend_layers(NULL, 0, 0.1f, out), SINEW_STATUS_OK);
    {
        SinewPose *r = pose_make(&s, NULL);
        pose_read(r, rest, NJ);
        CHECK(pose_holds(out, rest, NJ), "no layers do not give the rest pose");
        sinew_pose_destroy(r);
    }

    for (k = 0; k < 3; k++) {
        sinew_pose_destroy(p[k]);
    }
    sinew_joint_mask_destroy(m);
    sinew_joint_mask_destroy(mo);
    sinew_pose_destroy(out);
    sinew_pose_destroy(other);
    sinew_skeleton_destroy(s.skel);
    sinew_skeleton_destroy(o.skel);
}

/* ================================================================ Part B: additive layers */

static void part_b_additive(void)
{
    static const float bad_w[3] = {NAN, INFINITY, -INFINITY};
    Skel s, o;
    SinewTransform local[NB], sp[NB], sr[NB], sd[NB], so[NB], sother[NB];
    SinewPose *p, *r, *d, *out, *other;
    SinewJointMask *m, *mo;
    int k;

    g_section = "B additive";
    if (!skel_make(&s, 1) || !skel_make(&o, 0)) {
        return;
    }
    rng_locals(&s, local, 0);
    p = pose_make(&s, local);
    rng_locals(&s, local, 0);
    r = pose_make(&s, local);
    rng_locals(&s, local, 0);
    d = pose_make(&s, local);
    rng_locals(&s, local, 0);
    out = pose_make(&s, local);
    other = pose_make(&o, NULL);
    m = mask_make(&s, 3);
    mo = mask_make(&o, 3);
    pose_read(p, sp, NJ);
    pose_read(r, sr, NJ);
    pose_read(d, sd, NJ);
    pose_read(out, so, NJ);
    pose_read(other, sother, SJ);

    /* make_additive */
    EXPECT(sinew_pose_make_additive(NULL, r, d), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(p, NULL, d), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(p, r, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_pose_make_additive(d, r, d), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(p, d, d), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(d, d, d), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(other, r, d), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(p, other, d), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_make_additive(p, r, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);
    POSE_KEPT(p, sp, NJ);
    POSE_KEPT(r, sr, NJ);

    /* apply_additive, distinct and in place */
    for (k = 0; k < 2; k++) {
        const SinewPose *base = k == 0 ? p : out;
        if (k == 0) {
            EXPECT(sinew_pose_apply_additive(NULL, d, 1.0f, NULL, out), SINEW_STATUS_NULL_POINTER);
            POSE_KEPT(out, so, NJ);
        }
        EXPECT(sinew_pose_apply_additive(base, NULL, 1.0f, NULL, out), SINEW_STATUS_NULL_POINTER);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_apply_additive(base, d, 1.0f, m, NULL), SINEW_STATUS_NULL_POINTER);
        POSE_KEPT(out, so, NJ);
        {
            int j;
            for (j = 0; j < 3; j++) {
                EXPECT(sinew_pose_apply_additive(base, d, bad_w[j], NULL, out),
                       SINEW_STATUS_NON_FINITE);
                POSE_KEPT(out, so, NJ);
                EXPECT(sinew_pose_apply_additive(base, d, bad_w[j], m, out),
                       SINEW_STATUS_NON_FINITE);
                POSE_KEPT(out, so, NJ);
            }
        }
        EXPECT(sinew_pose_apply_additive(base, d, 0.5f, mo, out), SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_pose_apply_additive(base, other, 0.5f, NULL, out),
               SINEW_STATUS_SIZE_MISMATCH);
        POSE_KEPT(out, so, NJ);
    }
    EXPECT(sinew_pose_apply_additive(other, d, 0.5f, NULL, out), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_pose_apply_additive(p, d, 0.5f, NULL, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);
    /* The output may be the base but not the delta. */
    EXPECT(sinew_pose_apply_additive(p, d, 0.5f, NULL, d), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_apply_additive(d, d, 0.5f, NULL, d), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(d, sd, NJ);
    EXPECT(sinew_pose_apply_additive(d, d, 0.5f, m, out), SINEW_STATUS_OK);
    POSE_KEPT(d, sd, NJ);
    POSE_KEPT(p, sp, NJ);

    sinew_joint_mask_destroy(m);
    sinew_joint_mask_destroy(mo);
    sinew_pose_destroy(p);
    sinew_pose_destroy(r);
    sinew_pose_destroy(d);
    sinew_pose_destroy(out);
    sinew_pose_destroy(other);
    sinew_skeleton_destroy(s.skel);
    sinew_skeleton_destroy(o.skel);
}

/* ================================================================ Part B: huge finite blends */

/* Every blending export on finite values near FLT_MAX: NUMERIC_OVERFLOW (output untouched) or
 * OK with finite, unit results; never NaN or infinity. */
static void check_huge_result(const char *what, int c, SinewStatus st, const SinewPose *out,
                              const SinewTransform *before, uint32_t n)
{
    SinewTransform now[NB];
    uint32_t i;
    pose_read(out, now, n);
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW, "%s %d returned %s",
          what, c, status_name(st));
    if (st == SINEW_STATUS_OK) {
        for (i = 0; i < n; i++) {
            CHECK(xf_finite(&now[i]) && xf_unit_rotation(&now[i]),
                  "%s %d: OK with joint %u = t(%g %g %g) q(%g %g %g %g) s(%g %g %g)", what, c,
                  (unsigned)i, (double)now[i].translation.x, (double)now[i].translation.y,
                  (double)now[i].translation.z, (double)now[i].rotation.x,
                  (double)now[i].rotation.y, (double)now[i].rotation.z,
                  (double)now[i].rotation.w, (double)now[i].scale.x, (double)now[i].scale.y,
                  (double)now[i].scale.z);
            if (!xf_finite(&now[i])) {
                break;
            }
        }
    } else {
        CHECK(memcmp(now, before, n * sizeof now[0]) == 0, "%s %d: output changed on error",
              what, c);
    }
}

static void rng_huge_locals(const Skel *s, SinewTransform *out, int flavor)
{
    uint32_t i;
    int f;
    for (i = 0; i < s->n; i++) {
        out[i] = xf(v3(0, 0, 0), rng_quat(), ONE3());
        for (f = 0; f < 3; f++) {
            float big = FLT_MAX * rng_float(0.5f, 1.0f);
            if (rng_below(4) == 0) {
                big = FLT_MAX;
            }
            *vec_field(&out[i].translation, f) = flavor == 1 && rng_below(2) ? -big : big;
            *vec_field(&out[i].scale, f) = flavor == 2 ? FLT_MAX / 4.0f * rng_float(0, 1) : big;
        }
    }
}

#define N_HUGE 40

static void part_b_blend_huge(void)
{
    Skel s;
    SinewTransform la[NB], lb[NB], lc[NB], before[NB];
    SinewPose *a, *b, *cp, *out;
    SinewJointMask *m;
    int c;

    g_section = "B huge finite blends";
    if (!skel_make(&s, 0)) {
        return;
    }
    a = pose_make(&s, NULL);
    b = pose_make(&s, NULL);
    cp = pose_make(&s, NULL);
    out = pose_make(&s, NULL);
    for (c = 0; c < N_HUGE; c++) {
        SinewBlendLayer layers[3];
        float t = c % 5 == 0 ? 0.5f : rng_float(0, 1);
        int space = c % 2, k;
        SinewStatus st;
        rng_huge_locals(&s, la, c % 3);
        rng_huge_locals(&s, lb, (c + 1) % 3);
        rng_huge_locals(&s, lc, c % 2);
        EXPECT(sinew_pose_set_local(a, la, SJ), SINEW_STATUS_OK);
        EXPECT(sinew_pose_set_local(b, lb, SJ), SINEW_STATUS_OK);
        EXPECT(sinew_pose_set_local(cp, lc, SJ), SINEW_STATUS_OK);
        m = mask_make(&s, c % 5);

        pose_read(out, before, SJ);
        st = sinew_pose_blend(a, b, t, m, space, out);
        check_huge_result("blend", c, st, out, before, SJ);

        for (k = 0; k < 3; k++) {
            layers[k].pose = k == 0 ? a : k == 1 ? b : cp;
            layers[k].weight = rng_float(0, 2);
            layers[k].mask = k == 1 ? m : NULL;
        }
        if (c % 4 == 0) {
            layers[0].weight = 1.0f;
            layers[1].weight = 1.0f;
            layers[2].weight = 1.0f;
        }
        pose_read(out, before, SJ);
        st = sinew_pose_blend_layers(layers, 1 + (uint32_t)(c % 3), c % 2 ? 0.1f : 5.0f, out);
        check_huge_result("blend_layers", c, st, out, before, SJ);

        pose_read(out, before, SJ);
        st = sinew_pose_make_additive(a, b, out);
        check_huge_result("make_additive", c, st, out, before, SJ);

        pose_read(out, before, SJ);
        st = sinew_pose_apply_additive(a, b, c % 3 == 0 ? 2.0f : rng_float(-1, 2), m, out);
        check_huge_result("apply_additive", c, st, out, before, SJ);

        EXPECT(sinew_pose_set_local(out, lc, SJ), SINEW_STATUS_OK);
        pose_read(out, before, SJ);
        st = sinew_pose_apply_additive(out, b, c % 3 == 0 ? -1.0f : rng_float(-1, 2), NULL, out);
        check_huge_result("apply_additive in place", c, st, out, before, SJ);
        sinew_joint_mask_destroy(m);
    }
    /* A reference with a small scale: the delta's scale ratio s / ref.s overflows. */
    rng_locals(&s, la, 0);
    rng_locals(&s, lb, 0);
    la[2].scale = v3(FLT_MAX, 1, 1);
    lb[2].scale = v3(1e-6f, 1, 1);
    EXPECT(sinew_pose_set_local(a, la, SJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_set_local(b, lb, SJ), SINEW_STATUS_OK);
    pose_read(out, before, SJ);
    EXPECT(sinew_pose_make_additive(a, b, out), SINEW_STATUS_NUMERIC_OVERFLOW);
    POSE_KEPT(out, before, SJ);
    /* A tiny but non-zero reference scale: the delta is still s / ref.s (finite here), so
     * applying it to the reference gives the pose back, as documented. */
    la[2].scale = v3(1, 2, 1);
    lb[2].scale = v3(1e-13f, 1, 1);
    EXPECT(sinew_pose_set_local(a, la, SJ), SINEW_STATUS_OK);
    EXPECT(sinew_pose_set_local(b, lb, SJ), SINEW_STATUS_OK);
    pose_read(a, la, SJ);
    if (EXPECT(sinew_pose_make_additive(a, b, out), SINEW_STATUS_OK) &&
        EXPECT(sinew_pose_apply_additive(b, out, 1.0f, NULL, cp), SINEW_STATUS_OK)) {
        pose_read(cp, lc, SJ);
        CHECK(xf_close(&lc[2], &la[2], 1e-5f),
              "R + (P - R) is not P for ref.s = 1e-13: scale %g %g %g, expected %g %g %g",
              (double)lc[2].scale.x, (double)lc[2].scale.y, (double)lc[2].scale.z,
              (double)la[2].scale.x, (double)la[2].scale.y, (double)la[2].scale.z);
    }
    sinew_pose_destroy(a);
    sinew_pose_destroy(b);
    sinew_pose_destroy(cp);
    sinew_pose_destroy(out);
    sinew_skeleton_destroy(s.skel);
}

/* ================================================================ Part B: clips */

/* Samples `clip` at fixed times into `probe` (n joints); `snap` holds NPROBE * n transforms. */
#define NPROBE 5
static void clip_probe(const SinewClip *clip, SinewPose *probe, SinewTransform *snap, uint32_t n)
{
    static const float times[NPROBE] = {0.0f, 0.3f, 0.55f, 0.9f, 1.7f};
    int i;
    for (i = 0; i < NPROBE; i++) {
        EXPECT(sinew_clip_sample(clip, NULL, times[i], (uint32_t)(i % 2), probe),
               SINEW_STATUS_OK);
        pose_read(probe, snap + (uint32_t)i * n, n);
    }
}

static int clip_holds(const SinewClip *clip, SinewPose *probe, const SinewTransform *snap,
                      uint32_t n)
{
    SinewTransform now[NPROBE * NB];
    clip_probe(clip, probe, now, n);
    return memcmp(now, snap, NPROBE * n * sizeof now[0]) == 0;
}

#define CLIP_KEPT(clip) \
    CHECK(clip_holds((clip), probe, csnap, NJ), "clip `%s` changed on error", #clip)

/* A valid 3-key track (times 0, 0.5, 1 of a 1-second clip) of `prop` for joint 4. */
static void base_track(TrackSpec *k, int32_t prop, int32_t interp)
{
    uint32_t i;
    memset(k, 0, sizeof *k);
    k->joint = 4;
    k->prop = prop;
    k->interp = interp;
    k->n = 3;
    for (i = 0; i < 3; i++) {
        k->times[i] = 0.5f * (float)i;
        k->vals[i] = prop == SINEW_TRACK_PROPERTY_ROTATION
                         ? rng_quat()
                         : qt(rng_float(0.5f, 2), rng_float(0.5f, 2), rng_float(0.5f, 2), 0);
        k->tin[i] = qt(rng_float(-1, 1), rng_float(-1, 1), rng_float(-1, 1),
                       prop == SINEW_TRACK_PROPERTY_ROTATION ? rng_float(-1, 1) : 0.0f);
        k->tout[i] = qt(rng_float(-1, 1), rng_float(-1, 1), rng_float(-1, 1),
                        prop == SINEW_TRACK_PROPERTY_ROTATION ? rng_float(-1, 1) : 0.0f);
    }
    k->tangents = interp == SINEW_INTERPOLATION_CUBIC;
}

/* Calls the setter of `prop` with raw pointers (any may be NULL). */
static SinewStatus set_track_raw(SinewClip *clip, int32_t prop, uint32_t joint, int32_t interp,
                                 const float *times, const SinewQuat *vals, const SinewQuat *tin,
                                 const SinewQuat *tout, uint32_t n)
{
    SinewVec3 v[MAXK], vi[MAXK], vo[MAXK];
    uint32_t i;
    if (prop == SINEW_TRACK_PROPERTY_ROTATION) {
        return sinew_clip_set_rotation_track(clip, joint, interp, times, vals, tin, tout, n);
    }
    for (i = 0; i < n && i < MAXK; i++) {
        v[i] = vals != NULL ? q_xyz(vals[i]) : v3(0, 0, 0);
        vi[i] = tin != NULL ? q_xyz(tin[i]) : v3(0, 0, 0);
        vo[i] = tout != NULL ? q_xyz(tout[i]) : v3(0, 0, 0);
    }
    return (prop == SINEW_TRACK_PROPERTY_TRANSLATION ? sinew_clip_set_translation_track
                                                     : sinew_clip_set_scale_track)(
        clip, joint, interp, times, vals != NULL ? v : NULL, tin != NULL ? vi : NULL,
        tout != NULL ? vo : NULL, n);
}

static void part_b_clip(void)
{
    static const float bad_f[3] = {NAN, INFINITY, -INFINITY};
    Skel s, o;
    SinewClip *clip = NULL, *oclip = NULL, *out_clip;
    SinewClipCursor *cursor = NULL, *ocursor = NULL, *out_cursor;
    SinewPose *probe, *out, *other;
    SinewTransform csnap[NPROBE * NB], so[NB], sother[NB];
    TrackSpec k, bad;
    float dur;
    int32_t prop;
    int i, f, interp;

    g_section = "B clips";
    if (!skel_make(&s, 1) || !skel_make(&o, 0)) {
        return;
    }
    /* create / duration */
    FILL(out_clip);
    EXPECT(sinew_clip_create(NULL, 1.0f, &out_clip), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out_clip);
    EXPECT(sinew_clip_create(s.skel, 1.0f, NULL), SINEW_STATUS_NULL_POINTER);
    for (i = 0; i < 3; i++) {
        FILL(out_clip);
        EXPECT(sinew_clip_create(s.skel, bad_f[i], &out_clip), SINEW_STATUS_NON_FINITE);
        UNTOUCHED(out_clip);
    }
    FILL(out_clip);
    EXPECT(sinew_clip_create(s.skel, -1.0f, &out_clip), SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(out_clip);
    EXPECT(sinew_clip_create(s.skel, -FLT_MIN, &out_clip), SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(out_clip);
    for (i = 0; i < 3; i++) {
        float d = i == 0 ? 0.0f : i == 1 ? -0.0f : FLT_MAX;
        out_clip = NULL;
        if (EXPECT(sinew_clip_create(s.skel, d, &out_clip), SINEW_STATUS_OK)) {
            dur = 5.0f;
            EXPECT(sinew_clip_duration(out_clip, &dur), SINEW_STATUS_OK);
            CHECK(dur == d, "duration %g of a clip created with %g", (double)dur, (double)d);
        }
        sinew_clip_destroy(out_clip);
    }
    if (!EXPECT(sinew_clip_create(s.skel, 1.0f, &clip), SINEW_STATUS_OK) ||
        !EXPECT(sinew_clip_create(o.skel, 1.0f, &oclip), SINEW_STATUS_OK)) {
        return;
    }
    FILL(dur);
    EXPECT(sinew_clip_duration(NULL, &dur), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(dur);
    EXPECT(sinew_clip_duration(clip, NULL), SINEW_STATUS_NULL_POINTER);

    probe = pose_make(&s, NULL);
    /* A track of every property, so that any change would show in the probe. */
    for (prop = 0; prop < 3; prop++) {
        base_track(&k, prop, prop == 1 ? SINEW_INTERPOLATION_CUBIC : SINEW_INTERPOLATION_LINEAR);
        EXPECT(track_apply(clip, &k), SINEW_STATUS_OK);
    }
    clip_probe(clip, probe, csnap, NJ);

    for (prop = 0; prop < 3; prop++) {
        int c = prop == SINEW_TRACK_PROPERTY_ROTATION ? 4 : 3;
        for (interp = 0; interp < 4; interp++) {
            int cubic = interp == SINEW_INTERPOLATION_CUBIC;
            base_track(&k, prop, interp);
            k.joint = 7;
            /* NULLs */
            EXPECT(set_track_raw(NULL, prop, 7, interp, k.times, k.vals, cubic ? k.tin : NULL,
                                 cubic ? k.tout : NULL, 3),
                   SINEW_STATUS_NULL_POINTER);
            EXPECT(set_track_raw(clip, prop, 7, interp, NULL, k.vals, cubic ? k.tin : NULL,
                                 cubic ? k.tout : NULL, 3),
                   SINEW_STATUS_NULL_POINTER);
            CLIP_KEPT(clip);
            EXPECT(set_track_raw(clip, prop, 7, interp, k.times, NULL, cubic ? k.tin : NULL,
                                 cubic ? k.tout : NULL, 3),
                   SINEW_STATUS_NULL_POINTER);
            CLIP_KEPT(clip);
            /* Only one of the two tangent arrays: NULL_POINTER whatever the interpolation. */
            EXPECT(set_track_raw(clip, prop, 7, interp, k.times, k.vals, k.tin, NULL, 3),
                   SINEW_STATUS_NULL_POINTER);
            CLIP_KEPT(clip);
            EXPECT(set_track_raw(clip, prop, 7, interp, k.times, k.vals, NULL, k.tout, 3),
                   SINEW_STATUS_NULL_POINTER);
            CLIP_KEPT(clip);
            /* Tangents on a non-cubic track, or none on a cubic one. */
            EXPECT(set_track_raw(clip, prop, 7, interp, k.times, k.vals, cubic ? NULL : k.tin,
                                 cubic ? NULL : k.tout, 3),
                   SINEW_STATUS_INVALID_ARGUMENT);
            CLIP_KEPT(clip);
            /* key_count 0, with and without arrays */
            EXPECT(set_track_raw(clip, prop, 7, interp, k.times, k.vals, cubic ? k.tin : NULL,
                                 cubic ? k.tout : NULL, 0),
                   SINEW_STATUS_INVALID_ARGUMENT);
            CLIP_KEPT(clip);
            EXPECT(set_track_raw(clip, prop, 7, interp, NULL, NULL, NULL, NULL, 0),
                   SINEW_STATUS_INVALID_ARGUMENT);
            CLIP_KEPT(clip);
            /* joint out of range */
            bad = k;
            bad.joint = NJ;
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_OUT_OF_RANGE);
            bad.joint = UINT32_MAX;
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_OUT_OF_RANGE);
            CLIP_KEPT(clip);
            /* times: unsorted, duplicate, outside [0, duration], not finite */
            bad = k;
            bad.times[1] = 0.75f;
            bad.times[2] = 0.6f;
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_INVALID_ARGUMENT);
            bad = k;
            bad.times[2] = bad.times[1];
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_INVALID_ARGUMENT);
            bad = k;
            bad.times[0] = -0.01f;
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_OUT_OF_RANGE);
            bad = k;
            bad.times[2] = 1.0000001f;
            EXPECT(track_apply(clip, &bad), SINEW_STATUS_OUT_OF_RANGE);
            CLIP_KEPT(clip);
            for (i = 0; i < 3; i++) {
                bad = k;
                bad.times[2] = bad_f[i];
                EXPECT(track_apply(clip, &bad), SINEW_STATUS_NON_FINITE);
                bad = k;
                bad.times[0] = bad_f[i];
                EXPECT(track_apply(clip, &bad), SINEW_STATUS_NON_FINITE);
            }
            CLIP_KEPT(clip);
            /* values and tangents: each component, each non-finite value */
            for (f = 0; f < c; f++) {
                for (i = 0; i < 3; i++) {
                    bad = k;
                    *quat_field(&bad.vals[2], f) = bad_f[i];
                    EXPECT(track_apply(clip, &bad), SINEW_STATUS_NON_FINITE);
                    if (cubic) {
                        bad = k;
                        *quat_field(&bad.tin[1], f) = bad_f[i];
                        EXPECT(track_apply(clip, &bad), SINEW_STATUS_NON_FINITE);
                        bad = k;
                        *quat_field(&bad.tout[2], f) = bad_f[i];
                        EXPECT(track_apply(clip, &bad), SINEW_STATUS_NON_FINITE);
                    }
                }
            }
            CLIP_KEPT(clip);
            if (prop == SINEW_TRACK_PROPERTY_ROTATION) {
                bad = k;
                bad.vals[1] = qt(0, 0, 0, 0);
                EXPECT(track_apply(clip, &bad), SINEW_STATUS_INVALID_ARGUMENT);
                bad.vals[1] = qt(-0.0f, 0, -0.0f, 0);
                EXPECT(track_apply(clip, &bad), SINEW_STATUS_INVALID_ARGUMENT);
                CLIP_KEPT(clip);
            }
            /* invalid interpolations */
            for (i = 0; i < 3; i++) {
                bad = k;
                bad.interp = i == 0 ? 9 : i == 1 ? -1 : 4;
                EXPECT(track_apply(clip, &bad), SINEW_STATUS_INVALID_ARGUMENT);
            }
            CLIP_KEPT(clip);
        }
    }
    /* clear_track */
    EXPECT(sinew_clip_clear_track(NULL, 4, 0), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_clip_clear_track(clip, 4, 3), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_clip_clear_track(clip, 4, -1), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_clip_clear_track(clip, NJ, 0), SINEW_STATUS_OUT_OF_RANGE);
    EXPECT(sinew_clip_clear_track(clip, UINT32_MAX, 2), SINEW_STATUS_OUT_OF_RANGE);
    CLIP_KEPT(clip);
    EXPECT(sinew_clip_clear_track(clip, 0, 1), SINEW_STATUS_OK); /* no track there: fine */
    CLIP_KEPT(clip);

    /* cursors */
    FILL(out_cursor);
    EXPECT(sinew_clip_cursor_create(NULL, &out_cursor), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out_cursor);
    EXPECT(sinew_clip_cursor_create(clip, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_clip_cursor_create(clip, &cursor), SINEW_STATUS_OK);
    EXPECT(sinew_clip_cursor_create(oclip, &ocursor), SINEW_STATUS_OK);

    /* sample */
    out = pose_make(&s, NULL);
    other = pose_make(&o, NULL);
    EXPECT(sinew_clip_sample(clip, cursor, 0.4f, 0, out), SINEW_STATUS_OK);
    pose_read(out, so, NJ);
    pose_read(other, sother, SJ);
    EXPECT(sinew_clip_sample(NULL, cursor, 0.5f, 0, out), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_clip_sample(clip, cursor, 0.5f, 0, NULL), SINEW_STATUS_NULL_POINTER);
    for (i = 0; i < 3; i++) {
        EXPECT(sinew_clip_sample(clip, cursor, bad_f[i], 1, out), SINEW_STATUS_NON_FINITE);
        POSE_KEPT(out, so, NJ);
        EXPECT(sinew_clip_sample(clip, NULL, bad_f[i], 0, out), SINEW_STATUS_NON_FINITE);
        POSE_KEPT(out, so, NJ);
    }
    EXPECT(sinew_clip_sample(clip, cursor, 0.5f, 2, out), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_clip_sample(clip, NULL, 0.5f, UINT32_MAX, out), SINEW_STATUS_INVALID_ARGUMENT);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_clip_sample(clip, cursor, 0.5f, 0, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);
    EXPECT(sinew_clip_sample(oclip, NULL, 0.5f, 0, out), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_clip_sample(clip, ocursor, 0.5f, 0, out), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(out, so, NJ);
    EXPECT(sinew_clip_sample(oclip, cursor, 0.5f, 1, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);
    /* Huge finite times are fine (looping wraps, clamping holds the ends). */
    EXPECT(sinew_clip_sample(clip, cursor, FLT_MAX, 1, out), SINEW_STATUS_OK);
    EXPECT(sinew_clip_sample(clip, cursor, -FLT_MAX, 1, out), SINEW_STATUS_OK);
    EXPECT(sinew_clip_sample(clip, cursor, FLT_MAX, 0, out), SINEW_STATUS_OK);
    EXPECT(sinew_clip_sample(clip, cursor, -FLT_MAX, 0, out), SINEW_STATUS_OK);
    EXPECT(sinew_clip_sample(oclip, ocursor, 0.5f, 1, other), SINEW_STATUS_OK);
    CLIP_KEPT(clip);

    sinew_clip_cursor_destroy(cursor);
    sinew_clip_cursor_destroy(ocursor);
    sinew_clip_destroy(clip);
    sinew_clip_destroy(oclip);
    sinew_pose_destroy(probe);
    sinew_pose_destroy(out);
    sinew_pose_destroy(other);
    sinew_skeleton_destroy(s.skel);
    sinew_skeleton_destroy(o.skel);
}

/* Huge finite keys and tangents: sampling reports NUMERIC_OVERFLOW (pose untouched) or gives
 * finite values. */
static void part_b_clip_huge(void)
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
                k.vals[j] = qscale(rng_quat(), FLT_MAX * rng_float(0.5f, 1.0f));
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

/* ================================================================ Part B: crossfade */

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
static void xf_same(SinewCrossfade *cf, SinewCrossfade *twin, SinewPose *p1, SinewPose *p2,
                    uint32_t n, int line)
{
    SinewTransform a[NB], b[NB];
    float wa[WCAP], wb[WCAP];
    uint32_t ca = 0, cb = 0, fa = 0, fb = 0;
    float dt = 1.0f / 30.0f;
    EXPECT(sinew_crossfade_update(cf, dt), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_update(twin, dt), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_get_pose(cf, p1), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_get_pose(twin, p2), SINEW_STATUS_OK);
    pose_read(p1, a, n);
    pose_read(p2, b, n);
    memset(wa, 0, sizeof wa);
    memset(wb, 0, sizeof wb);
    EXPECT(sinew_crossfade_get_weights(cf, wa, WCAP, &ca), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_get_weights(twin, wb, WCAP, &cb), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_fade_count(cf, &fa), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_fade_count(twin, &fb), SINEW_STATUS_OK);
    check_impl(memcmp(a, b, n * sizeof a[0]) == 0 && ca == cb && fa == fb &&
                   memcmp(wa, wb, sizeof wa) == 0,
               line, "xf_same", "a refused call changed the controller (fades %u vs %u)",
               (unsigned)fa, (unsigned)fb);
}

#define XF_SAME() xf_same(cf, twin, p1, p2, NJ, __LINE__)

static void part_b_crossfade(void)
{
    static const float bad_f[3] = {NAN, INFINITY, -INFINITY};
    Skel s, o;
    SinewCrossfade *cf = NULL, *twin = NULL, *out_cf;
    SinewClip *ca, *cb, *cc, *cd, *co;
    SinewPose *p1, *p2, *other;
    SinewTransform snap[NB], sother[NB];
    TrackSpec k;
    uint32_t queued, count, i;
    float w[WCAP];
    int j;

    g_section = "B crossfade";
    if (!skel_make(&s, 1) || !skel_make(&o, 0)) {
        return;
    }
    ca = simple_clip(&s, 1.0f);
    cb = simple_clip(&s, 0.8f);
    cc = simple_clip(&s, 1.3f);
    cd = simple_clip(&s, 1.1f);
    co = simple_clip(&o, 1.0f);
    p1 = pose_make(&s, NULL);
    p2 = pose_make(&s, NULL);
    other = pose_make(&o, NULL);

    /* create */
    FILL(out_cf);
    EXPECT(sinew_crossfade_create(NULL, 2, &out_cf), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(out_cf);
    EXPECT(sinew_crossfade_create(s.skel, 2, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_crossfade_create(s.skel, 0, &out_cf), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out_cf);
    EXPECT(sinew_crossfade_create(s.skel, 257, &out_cf), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out_cf);
    EXPECT(sinew_crossfade_create(s.skel, UINT32_MAX, &out_cf), SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(out_cf);
    for (j = 0; j < 2; j++) {
        out_cf = NULL;
        EXPECT(sinew_crossfade_create(s.skel, j == 0 ? 1 : 256, &out_cf), SINEW_STATUS_OK);
        sinew_crossfade_destroy(out_cf);
    }
    if (!EXPECT(sinew_crossfade_create(s.skel, 2, &cf), SINEW_STATUS_OK) ||
        !EXPECT(sinew_crossfade_create(s.skel, 2, &twin), SINEW_STATUS_OK)) {
        return;
    }

    /* Before anything plays: update gives the rest pose; weights are empty. */
    EXPECT(sinew_crossfade_update(cf, 0.1f), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_update(twin, 0.1f), SINEW_STATUS_OK);
    count = 99;
    EXPECT(sinew_crossfade_get_weights(cf, NULL, 0, &count), SINEW_STATUS_OK);
    CHECK(count == 0, "weights of an idle controller: %u", (unsigned)count);

    /* play */
    EXPECT(sinew_crossfade_play(NULL, ca, 1), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_crossfade_play(cf, NULL, 1), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_crossfade_play(cf, ca, 2), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_crossfade_play(cf, co, 1), SINEW_STATUS_SIZE_MISMATCH);
    XF_SAME();
    EXPECT(sinew_crossfade_play(cf, ca, 1), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_play(twin, ca, 1), SINEW_STATUS_OK);
    XF_SAME();
    EXPECT(sinew_crossfade_play(cf, co, 0), SINEW_STATUS_SIZE_MISMATCH);
    XF_SAME();

    /* fade_to */
    FILL(queued);
    EXPECT(sinew_crossfade_fade_to(NULL, cb, 0.5f, 0, 1, &queued), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(queued);
    EXPECT(sinew_crossfade_fade_to(cf, NULL, 0.5f, 0, 1, &queued), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(queued);
    for (j = 0; j < 3; j++) {
        EXPECT(sinew_crossfade_fade_to(cf, cb, bad_f[j], 0, 1, &queued),
               SINEW_STATUS_NON_FINITE);
        UNTOUCHED(queued);
        EXPECT(sinew_crossfade_fade_to(cf, cb, bad_f[j], SINEW_FADE_CURVE_INERTIALIZE, 1, NULL),
               SINEW_STATUS_NON_FINITE);
    }
    EXPECT(sinew_crossfade_fade_to(cf, cb, -1.0f, 0, 1, &queued), SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(queued);
    EXPECT(sinew_crossfade_fade_to(cf, cb, -FLT_MIN, 2, 1, &queued),
           SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(queued);
    for (j = 0; j < 3; j++) {
        EXPECT(sinew_crossfade_fade_to(cf, cb, 0.5f, j == 0 ? 7 : j == 1 ? 3 : -1, 1, &queued),
               SINEW_STATUS_INVALID_ARGUMENT);
        UNTOUCHED(queued);
    }
    EXPECT(sinew_crossfade_fade_to(cf, cb, 0.5f, 0, 2, &queued), SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(queued);
    EXPECT(sinew_crossfade_fade_to(cf, co, 0.5f, 0, 1, &queued), SINEW_STATUS_SIZE_MISMATCH);
    UNTOUCHED(queued);
    /* Bad arguments are refused even for a request that would be ignored. */
    EXPECT(sinew_crossfade_fade_to(cf, ca, -1.0f, 0, 1, &queued), SINEW_STATUS_INVALID_ARGUMENT);
    UNTOUCHED(queued);
    XF_SAME();

    /* Queue full: max_fades 2. */
    for (j = 0; j < 2; j++) {
        SinewCrossfade *x = j == 0 ? cf : twin;
        EXPECT(sinew_crossfade_fade_to(x, cb, 0.5f, SINEW_FADE_CURVE_LINEAR, 1, &queued),
               SINEW_STATUS_OK);
        CHECK(queued == 1, "fade to b not queued");
        EXPECT(sinew_crossfade_fade_to(x, cc, 0.5f, SINEW_FADE_CURVE_SMOOTH, 0, &queued),
               SINEW_STATUS_OK);
        CHECK(queued == 1, "fade to c not queued");
    }
    FILL(queued);
    EXPECT(sinew_crossfade_fade_to(cf, cd, 0.5f, SINEW_FADE_CURVE_LINEAR, 1, &queued),
           SINEW_STATUS_OUT_OF_RANGE);
    UNTOUCHED(queued);
    EXPECT(sinew_crossfade_fade_to(cf, cb, 0.5f, SINEW_FADE_CURVE_SMOOTH, 1, NULL),
           SINEW_STATUS_OUT_OF_RANGE);
    count = 99;
    EXPECT(sinew_crossfade_fade_count(cf, &count), SINEW_STATUS_OK);
    CHECK(count == 2, "fade count %u after a refused request", (unsigned)count);
    /* The last request again starts no transition and is not refused, even with the queue
     * full; with the same looping flag it changes nothing. */
    EXPECT(sinew_crossfade_fade_to(cf, cc, 0.5f, SINEW_FADE_CURVE_LINEAR, 0, &queued),
           SINEW_STATUS_OK);
    CHECK(queued == 0, "repeating the last request was not ignored");
    XF_SAME();
    /* With another looping flag it applies the flag, as a twin told the same does. */
    for (j = 0; j < 2; j++) {
        FILL(queued);
        EXPECT(sinew_crossfade_fade_to(j == 0 ? cf : twin, cc, 0.5f, SINEW_FADE_CURVE_SMOOTH, 1,
                                       &queued),
               SINEW_STATUS_OK);
        CHECK(queued == 0, "a new looping flag started a transition");
    }
    XF_SAME();

    /* update */
    EXPECT(sinew_crossfade_update(NULL, 0.1f), SINEW_STATUS_NULL_POINTER);
    for (j = 0; j < 3; j++) {
        EXPECT(sinew_crossfade_update(cf, bad_f[j]), SINEW_STATUS_NON_FINITE);
    }
    EXPECT(sinew_crossfade_update(cf, -1.0f), SINEW_STATUS_INVALID_ARGUMENT);
    EXPECT(sinew_crossfade_update(cf, -FLT_MIN), SINEW_STATUS_INVALID_ARGUMENT);
    XF_SAME();

    /* get_pose */
    EXPECT(sinew_crossfade_get_pose(cf, p1), SINEW_STATUS_OK);
    pose_read(p1, snap, NJ);
    pose_read(other, sother, SJ);
    EXPECT(sinew_crossfade_get_pose(NULL, p1), SINEW_STATUS_NULL_POINTER);
    POSE_KEPT(p1, snap, NJ);
    EXPECT(sinew_crossfade_get_pose(cf, NULL), SINEW_STATUS_NULL_POINTER);
    EXPECT(sinew_crossfade_get_pose(cf, other), SINEW_STATUS_SIZE_MISMATCH);
    POSE_KEPT(other, sother, SJ);

    /* fade_count */
    FILL(count);
    EXPECT(sinew_crossfade_fade_count(NULL, &count), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(count);
    EXPECT(sinew_crossfade_fade_count(cf, NULL), SINEW_STATUS_NULL_POINTER);

    /* get_weights */
    FILL(w);
    FILL(count);
    EXPECT(sinew_crossfade_get_weights(NULL, w, WCAP, &count), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(w);
    UNTOUCHED(count);
    EXPECT(sinew_crossfade_get_weights(cf, w, WCAP, NULL), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(w);
    EXPECT(sinew_crossfade_get_weights(cf, NULL, 3, &count), SINEW_STATUS_NULL_POINTER);
    UNTOUCHED(count);
    EXPECT(sinew_crossfade_get_weights(cf, NULL, 0, &count), SINEW_STATUS_OK);
    CHECK(count == 3, "get_weights count %u with two fades queued", (unsigned)count);
    EXPECT(sinew_crossfade_get_weights(cf, w, 2, &count), SINEW_STATUS_OK);
    CHECK(count == 3 && is_filled(&w[2], sizeof w - 2 * sizeof w[0]),
          "get_weights wrote past its capacity");
    XF_SAME();

    /* Editing a clip while a controller holds it (playing, or queued). */
    base_track(&k, SINEW_TRACK_PROPERTY_TRANSLATION, SINEW_INTERPOLATION_LINEAR);
    for (j = 0; j < 3; j++) {
        SinewClip *held = j == 0 ? ca : j == 1 ? cb : cc;
        for (i = 0; i < 3; i++) {
            k.prop = (int32_t)i;
            k.interp = SINEW_INTERPOLATION_STEP;
            EXPECT(track_apply(held, &k), SINEW_STATUS_INVALID_ARGUMENT);
        }
        EXPECT(sinew_clip_clear_track(held, 0, 0), SINEW_STATUS_INVALID_ARGUMENT);
    }
    XF_SAME();
    /* A clip nobody holds can be edited. */
    k.prop = SINEW_TRACK_PROPERTY_TRANSLATION;
    EXPECT(track_apply(cd, &k), SINEW_STATUS_OK);

    /* A clip's handle may go while a controller plays it. */
    sinew_clip_destroy(cc);
    cc = NULL;
    XF_SAME();
    for (j = 0; j < 40; j++) {
        XF_SAME();
    }
    count = 99;
    EXPECT(sinew_crossfade_fade_count(cf, &count), SINEW_STATUS_OK);
    CHECK(count == 0, "fades did not finish (%u left)", (unsigned)count);

    /* Once a controller lets go of a clip (another plays, or the controller is gone), the
     * clip can be edited again. */
    EXPECT(sinew_crossfade_play(cf, cd, 0), SINEW_STATUS_OK);
    EXPECT(sinew_crossfade_play(twin, cd, 0), SINEW_STATUS_OK);
    EXPECT(track_apply(ca, &k), SINEW_STATUS_OK);
    EXPECT(track_apply(cd, &k), SINEW_STATUS_INVALID_ARGUMENT);
    sinew_crossfade_destroy(cf);
    EXPECT(track_apply(cd, &k), SINEW_STATUS_INVALID_ARGUMENT); /* twin holds it */
    sinew_crossfade_destroy(twin);
    EXPECT(track_apply(cd, &k), SINEW_STATUS_OK);

    sinew_clip_destroy(ca);
    sinew_clip_destroy(cb);
    sinew_clip_destroy(cd);
    sinew_clip_destroy(co);
    sinew_pose_destroy(p1);
    sinew_pose_destroy(p2);
    sinew_pose_destroy(other);
    sinew_skeleton_destroy(s.skel);
    sinew_skeleton_destroy(o.skel);
}

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

static void part_b_crossfade_huge(void)
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

/* ================================================================ main */

int main(void)
{
    const char *env;
    int kind;
    env = getenv("SINEW_ABI_TEST_VERBOSE");
    g_verbose = env != NULL && env[0] == '1';

    part_b_versions();
    part_b_destroy_null();
    part_a_random_cases();
    part_a_degenerate_cases();
    part_a_pose_cases();
    part_a_chain_random();
    part_a_chain_degenerate();
    part_a_chain_pose();
    part_a_apply_constraints();
    part_a_hand_model();
    part_a_hand_pose();
    part_b_error_message();
    part_b_skeleton();
    part_b_pose();
    part_b_settings();
    part_b_solve();
    part_b_solve_pose();
    for (kind = 0; kind < 2; kind++) {
        part_b_chain_settings(kind);
        part_b_chain_constraints(kind);
        part_b_chain_solve(kind);
        part_b_chain_solve_pose(kind);
    }
    part_b_apply_constraints();
    part_b_hand_settings();
    part_b_hand_apply();
    part_a_huge_cases();
    part_b_model_rule();
    part_b_pose_overflow();
    part_b_chain_huge();
    part_b_chain_pose_huge();
    part_b_hand_huge();
    part_a_blend();
    part_a_layers();
    part_a_additive();
    part_a_masks();
    part_a_clips();
    part_a_crossfade();
    part_b_mask();
    part_b_blend();
    part_b_layers();
    part_b_additive();
    part_b_clip();
    part_b_crossfade();
    part_b_blend_huge();
    part_b_clip_huge();
    part_b_crossfade_huge();

    /* How many parity lines of each kind were printed, so the Rust side can tell it parsed
     * every one. */
    printf("LINES CASE %d\n", g_case_id);
    printf("LINES POSE %d\n", g_pose_id);
    printf("LINES CHAIN %d\n", g_chain_id);
    printf("LINES CHPOSE %d\n", g_chain_pose_id);
    printf("LINES APPLY %d\n", g_apply_id);
    printf("LINES HANDM %d\n", g_hand_model_id);
    printf("LINES HANDP %d\n", g_hand_pose_id);
    printf("LINES BLEND %d\n", g_blend_id);
    printf("LINES LAYERS %d\n", g_layers_id);
    printf("LINES ADDMAKE %d\n", g_addmake_id);
    printf("LINES ADDAPPLY %d\n", g_addapply_id);
    printf("LINES MASK %d\n", g_mask_id);
    printf("LINES CLIP %d\n", g_clip_id);
    printf("LINES XFADE %d\n", g_xfade_id);
    printf("%d passed, %d failed\n", g_passed, g_failed);
    fflush(stdout);
    return g_failed == 0 ? 0 : 1;
}
