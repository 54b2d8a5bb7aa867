/*
 * Shared by the C ABI test program: bookkeeping (CHECK, EXPECT), math, the random
 * generator, printing of parity lines, and the skeletons, poses, masks and tracks several jobs use.
 */

#include "abi_test.h"

/* ================================================================ bookkeeping */

int g_passed;
int g_failed;
int g_verbose;
const char *g_section = "";

int check_impl(int ok, int line, const char *expr, const char *fmt, ...)
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

const char *status_name(SinewStatus s)
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

/* After a failed call: the message is non-empty, its length query agrees with a full read,
 * and reading it (twice) does not clear it. */
void check_error_message(int line, const char *call, SinewStatus got)
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

void check_no_error_message(int line, const char *call)
{
    size_t len = (size_t)-1;
    char buf[16];
    SinewStatus st;
    memset(buf, 0xA5, sizeof buf);
    st = sinew_last_error_message(buf, sizeof buf, &len);
    check_impl(st == SINEW_STATUS_OK && len == 0 && buf[0] == '\0', line, call,
               "error message not empty after success (len %zu)", len);
}

int expect_impl(SinewStatus got, SinewStatus want, int line, const char *call)
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

int is_filled(const void *p, size_t n)
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

/* ================================================================ math helpers */

SinewVec3 v3(float x, float y, float z)
{
    SinewVec3 v = {x, y, z};
    return v;
}

SinewQuat qt(float x, float y, float z, float w)
{
    SinewQuat q = {x, y, z, w};
    return q;
}

SinewTransform xf(SinewVec3 t, SinewQuat r, SinewVec3 s)
{
    SinewTransform x = {t, r, s};
    return x;
}

SinewVec3 add(SinewVec3 a, SinewVec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
SinewVec3 sub(SinewVec3 a, SinewVec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
SinewVec3 mulf(SinewVec3 a, float k) { return v3(a.x * k, a.y * k, a.z * k); }
float dot(SinewVec3 a, SinewVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
float len3(SinewVec3 a) { return sqrtf(dot(a, a)); }

float qlen(SinewQuat q) { return sqrtf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); }

SinewVec3 ONE3(void) { return v3(1.0f, 1.0f, 1.0f); }
SinewQuat QID(void) { return qt(0.0f, 0.0f, 0.0f, 1.0f); }

/* Field i (0..9) of a transform: translation xyz, rotation xyzw, scale xyz. */
float *xf_field(SinewTransform *t, int i)
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

const char *const XF_FIELD_NAMES[10] = {"translation.x", "translation.y", "translation.z",
                                        "rotation.x",    "rotation.y",    "rotation.z",
                                        "rotation.w",    "scale.x",       "scale.y",
                                        "scale.z"};

float *vec_field(SinewVec3 *v, int i)
{
    return i == 0 ? &v->x : i == 1 ? &v->y : &v->z;
}

float *quat_field(SinewQuat *q, int i)
{
    return i == 0 ? &q->x : i == 1 ? &q->y : i == 2 ? &q->z : &q->w;
}

int xf_finite(const SinewTransform *t)
{
    int i;
    for (i = 0; i < 10; i++) {
        if (!isfinite(*xf_field((SinewTransform *)t, i))) {
            return 0;
        }
    }
    return 1;
}

int xf_unit_rotation(const SinewTransform *t)
{
    return fabsf(qlen(t->rotation) - 1.0f) < 1e-4f;
}

/* Quaternion helpers (for building inputs and for checks; the library's own math is what is
 * under test). */
SinewQuat qmul(SinewQuat a, SinewQuat b)
{
    return qt(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
              a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
              a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
              a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

SinewQuat qconj(SinewQuat q) { return qt(-q.x, -q.y, -q.z, q.w); }

SinewQuat qscale(SinewQuat q, float k) { return qt(q.x * k, q.y * k, q.z * k, q.w * k); }

SinewQuat qunit(SinewQuat q) { return qscale(q, 1.0f / qlen(q)); }

SinewVec3 qrot(SinewQuat q, SinewVec3 v)
{
    SinewQuat p = qmul(qmul(q, qt(v.x, v.y, v.z, 0.0f)), qconj(q));
    return v3(p.x, p.y, p.z);
}

/* |cos(angle / 2)| between two rotations of any length: 1 when they are the same rotation. */
float qsame(SinewQuat a, SinewQuat b)
{
    a = qunit(a);
    b = qunit(b);
    return fabsf(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
}

/* Angle in radians between two rotations. */
float qangle(SinewQuat a, SinewQuat b)
{
    float d = qsame(a, b);
    return 2.0f * acosf(d > 1.0f ? 1.0f : d);
}

SinewVec3 vunit(SinewVec3 v) { return mulf(v, 1.0f / len3(v)); }

/* Float comparison relative to magnitude. */
int near(float a, float b, float rel)
{
    float m = fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b);
    return fabsf(a - b) <= rel * (m > 1.0f ? m : 1.0f);
}

int xf_near(const SinewTransform *a, const SinewTransform *b, float rel)
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

uint64_t g_rng = 0x853c49e6748fea9bULL;

/* Restarts the sequence from `name` (FNV-1a), so each part draws the same numbers whatever
 * runs before it. */
void rng_seed(const char *name)
{
    g_rng = 0xcbf29ce484222325ULL;
    for (; *name != '\0'; name++) {
        g_rng = (g_rng ^ (unsigned char)*name) * 0x100000001b3ULL;
    }
}

uint32_t rng_next(void)
{
    g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(g_rng >> 33);
}

/* Uniform in [lo, hi). */
float rng_float(float lo, float hi)
{
    float u = (float)(rng_next() >> 7) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

int rng_below(int n) { return (int)(rng_next() % (uint32_t)n); }

/* Draws come in a fixed order on every platform. C leaves the order in which a call's
 * arguments are evaluated unspecified (gcc takes them right to left on x86-64, left to right
 * on aarch64), so no call here has two arguments that draw: each draw is a statement of its
 * own, in the order x86-64 gcc has always taken them (last argument first), so the cases
 * stay the ones this program drew before. These helpers draw their components last first. */

/* Each component uniform in [lo, hi). */
SinewVec3 rng_vec3(float lo, float hi)
{
    float z = rng_float(lo, hi), y = rng_float(lo, hi), x = rng_float(lo, hi);
    return v3(x, y, z);
}

/* Each component uniform in [lo, hi) (not normalized). */
SinewQuat rng_quat4(float lo, float hi)
{
    float w = rng_float(lo, hi), z = rng_float(lo, hi), y = rng_float(lo, hi),
          x = rng_float(lo, hi);
    return qt(x, y, z, w);
}

SinewQuat rng_quat(void)
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

SinewVec3 rng_dir(void)
{
    for (;;) {
        SinewVec3 v = rng_vec3(-1, 1);
        float n2 = dot(v, v);
        if (n2 > 0.01f && n2 <= 1.0f) {
            return mulf(v, 1.0f / sqrtf(n2));
        }
    }
}

SinewVec3 rng_point(float r) { return rng_vec3(-r, r); }

/* A random direction times a length uniform in [lo, hi) (the length drawn first). */
SinewVec3 rng_bone(float lo, float hi)
{
    float length = rng_float(lo, hi);
    return mulf(rng_dir(), length);
}

/* ================================================================ printing (parity lines) */

void pf(float f) { printf(" %.9g", (double)f); }

void print_vec(const SinewVec3 *v)
{
    pf(v->x);
    pf(v->y);
    pf(v->z);
}

void print_xf(const SinewTransform *t)
{
    int i;
    for (i = 0; i < 10; i++) {
        pf(*xf_field((SinewTransform *)t, i));
    }
}

void print_settings(const SinewTwoBoneIkSettings *s)
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

void print_target(const SinewVec3 *eff, const SinewQuat *rot, const SinewVec3 *pole)
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

void print_result(const SinewIkResult *r)
{
    printf(" RES %" PRIu32, r->reached);
    pf(r->error);
    printf(" %" PRIu32, r->iterations);
}

void print_quat(const SinewQuat *q)
{
    pf(q->x);
    pf(q->y);
    pf(q->z);
    pf(q->w);
}

/* Prints " TAG", and " -" when `value` is NULL; returns whether the value is to follow. */
static int print_opt_tag(const char *tag, const void *value)
{
    printf(value != NULL ? " %s" : " %s -", tag);
    return value != NULL;
}

/* " TAG x y z w", or " TAG -" for NULL. */
void print_opt_quat(const char *tag, const SinewQuat *q)
{
    if (print_opt_tag(tag, q)) {
        print_quat(q);
    }
}

/* " TAG x y z", or " TAG -" for NULL. */
void print_opt_vec(const char *tag, const SinewVec3 *v)
{
    if (print_opt_tag(tag, v)) {
        print_vec(v);
    }
}

/* " ST st OUT <n transforms>" and, when `model` is not NULL, " MODEL <n transforms>". */
void print_outputs(SinewStatus st, const SinewTransform *out, const SinewTransform *model,
                   uint32_t n)
{
    printf(" ST %d", (int)st);
    print_xfs_untagged(" OUT", out, n);
    if (model != NULL) {
        print_xfs_untagged(" MODEL", model, n);
    }
}

/* `tag` and n transforms (without their count). */
void print_xfs_untagged(const char *tag, const SinewTransform *t, uint32_t n)
{
    uint32_t i;
    printf("%s", tag);
    for (i = 0; i < n; i++) {
        print_xf(&t[i]);
    }
}

/* " TAG n" and n transforms. */
void print_xfs(const char *tag, const SinewTransform *t, uint32_t n)
{
    uint32_t i;
    printf(" %s %" PRIu32, tag, n);
    for (i = 0; i < n; i++) {
        print_xf(&t[i]);
    }
}

/* " TAG n" and n indices. */
void print_indices(const char *tag, const uint32_t *j, uint32_t n)
{
    uint32_t i;
    printf(" %s %" PRIu32, tag, n);
    for (i = 0; i < n; i++) {
        printf(" %" PRIu32, j[i]);
    }
}

/* " NAMES n <names> PAR <n parents> REST <n transforms>": a skeleton. */
void print_skeleton(uint32_t n, const char *const *names, const int32_t *parents,
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
void print_constraint(const SinewJointConstraint *c)
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

void print_fabrik_settings(const SinewFabrikSettings *s)
{
    printf(" FS");
    pf(s->precision);
    printf(" %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRId32, s->relative_precision,
           s->max_iterations, s->stop_when_stalled, s->end_rotation);
}

void print_ccd_settings(const SinewCcdSettings *s)
{
    printf(" CS");
    pf(s->precision);
    printf(" %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRId32,
           s->relative_precision, s->max_iterations, s->start_from_tail, s->fix_root,
           s->stop_when_stalled, s->end_rotation);
}

void print_hand_settings(const SinewHandIkRetargetingSettings *s, const SinewHandJoints *h)
{
    printf(" HS");
    pf(s->hand_fk_weight);
    print_vec(&s->per_axis_alpha);
    printf(" H %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32, h->right_fk, h->left_fk,
           h->right_ik, h->left_ik);
}

const char *const JOINT_NAMES[NJ] = {"root",   "spine",  "chest", "l_upper", "l_fore",
                                      "l_hand", "head",   "r_upper", "r_fore", "r_hand"};
const int32_t JOINT_PARENTS[NJ] = {-1, 0, 1, 2, 3, 4, 2, 2, 7, 8};

void rest_pose(SinewTransform rest[NJ])
{
    int i;
    for (i = 0; i < NJ; i++) {
        SinewQuat r = rng_quat();
        rest[i] = xf(i == 0 ? v3(0, 1, 0) : rng_bone(0.3f, 1.2f), r, ONE3());
    }
}

SinewSkeleton *make_skeleton(SinewTransform rest[NJ])
{
    SinewSkeleton *skel = NULL;
    rest_pose(rest);
    if (sinew_skeleton_create(JOINT_PARENTS, rest, JOINT_NAMES, NJ, &skel) != SINEW_STATUS_OK) {
        CHECK(0, "could not create the test skeleton");
        return NULL;
    }
    return skel;
}

/* An angle in [lo, hi], the bounds themselves now and then. */
float rng_angle(float lo, float hi)
{
    switch (rng_below(8)) {
    case 0: return lo;
    case 1: return hi;
    default: return rng_float(lo, hi);
    }
}

/* sin and cos of |h| <= 1, rounded to float from their Taylor series in double arithmetic
 * (error below 1e-15 before rounding): the same bits on every platform, unlike the C library's
 * sinf and cosf, so the inputs this program draws do not depend on the platform. */
static void sin_cos_small(float h, float *s, float *c)
{
    double x = h, x2 = x * x, sum_s = 0.0, sum_c = 0.0;
    int k;
    for (k = 9; k >= 1; k--) { /* Horner, from the x^18 term down */
        sum_s = 1.0 - x2 / ((2.0 * k) * (2.0 * k + 1.0)) * sum_s;
        sum_c = 1.0 - x2 / ((2.0 * k - 1.0) * (2.0 * k)) * sum_c;
    }
    *s = (float)(x * sum_s);
    *c = (float)sum_c;
}

/* A rotation of at most `max_angle` (<= 2) radians about a random axis. */
SinewQuat rng_small_rotation(float max_angle)
{
    SinewVec3 a = rng_dir();
    float h = 0.5f * rng_float(0.0f, max_angle), s, c;
    sin_cos_small(h, &s, &c);
    return qt(a.x * s, a.y * s, a.z * s, c);
}

/* ================================================================ big skeleton */

const char *const BIG_NAMES[NB] = {"root", "c1",  "c2",  "c3",  "c4",      "c5",    "c6",
                                   "c7",   "c8",  "c9",  "c10", "c11",     "c12",   "b1",
                                   "b2",   "ik_root", "ik_gun", "ik_r", "ik_l", "b3"};
const int32_t BIG_PARENTS[NB] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                 9, 10, 11, 3, 13, 0, 15, 16, 16, 5};

SinewSkeleton *make_big_skeleton(SinewTransform rest[NB])
{
    SinewSkeleton *skel = NULL;
    int i;
    for (i = 0; i < NB; i++) {
        SinewQuat r = rng_quat();
        rest[i] = xf(i == 0 ? v3(0, 1, 0) : rng_bone(0.3f, 1.0f), r, ONE3());
    }
    if (!EXPECT(sinew_skeleton_create(BIG_PARENTS, rest, BIG_NAMES, NB, &skel),
                SINEW_STATUS_OK)) {
        return NULL;
    }
    return skel;
}

uint32_t big_depth(uint32_t j)
{
    uint32_t d = 0;
    while (BIG_PARENTS[j] >= 0) {
        j = (uint32_t)BIG_PARENTS[j];
        d++;
    }
    return d;
}

int big_is_ancestor(uint32_t a, uint32_t j)
{
    while (BIG_PARENTS[j] >= 0) {
        j = (uint32_t)BIG_PARENTS[j];
        if (j == a) {
            return 1;
        }
    }
    return 0;
}

/* A pose of the big skeleton (which it keeps alive), its rest pose in `rest`; NULL on failure. */
SinewPose *make_big_pose(SinewTransform rest[NB])
{
    SinewSkeleton *skel = make_big_skeleton(rest);
    SinewPose *pose = NULL;
    if (skel == NULL) {
        return NULL;
    }
    if (!EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        pose = NULL;
    }
    sinew_skeleton_destroy(skel);
    return pose;
}

/* " NAMES .. PAR .. REST <rest> LOCAL <local>": a pose of the big skeleton. */
void print_big_pose(const SinewTransform rest[NB], const SinewTransform local[NB])
{
    print_skeleton(NB, BIG_NAMES, BIG_PARENTS, rest);
    print_xfs_untagged(" LOCAL", local, NB);
}

/* k joints of the big skeleton, root first, each the parent of the next. */
void big_pick_chain(uint32_t *joints, uint32_t k)
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
void big_random_local(const SinewTransform rest[NB], SinewTransform local[NB], int c)
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

/* ================================================================ blending: shared */

const char *const SMALL_NAMES[SJ] = {"hips", "spine", "head", "arm", "hand", "leg"};
const int32_t SMALL_PARENTS[SJ] = {-1, 0, 1, 1, 3, 0};

/* shape 0: SJ joints, 1: NJ, 2: NB; random rest translations and rotations, scales near 1. */
int skel_make(Skel *s, int shape)
{
    uint32_t i;
    s->n = shape == 0 ? SJ : shape == 1 ? NJ : NB;
    s->names = shape == 0 ? SMALL_NAMES : shape == 1 ? JOINT_NAMES : BIG_NAMES;
    s->parents = shape == 0 ? SMALL_PARENTS : shape == 1 ? JOINT_PARENTS : BIG_PARENTS;
    for (i = 0; i < s->n; i++) {
        SinewVec3 scale = rng_vec3(0.8f, 1.25f);
        SinewQuat r = rng_quat();
        s->rest[i] = xf(i == 0 ? v3(0, 1, 0) : rng_bone(0.3f, 1.0f), r, scale);
    }
    s->skel = NULL;
    return EXPECT(sinew_skeleton_create(s->parents, s->rest, s->names, s->n, &s->skel),
                  SINEW_STATUS_OK);
}

void print_skel(const Skel *s) { print_skeleton(s->n, s->names, s->parents, s->rest); }

/* Makes the skeletons of shapes `shape0` and `shape1` (see skel_make), runs `one` on them for
 * the cases 0 .. count - 1 of section `section`, then destroys them. */
void run_skel_cases(const char *section, int shape0, int shape1, int count,
                    void (*one)(const Skel sk[2], int c))
{
    Skel sk[2];
    int c;
    g_section = section;
    if (!skel_make(&sk[0], shape0) || !skel_make(&sk[1], shape1)) {
        return;
    }
    for (c = 0; c < count; c++) {
        one(sk, c);
    }
    sinew_skeleton_destroy(sk[0].skel);
    sinew_skeleton_destroy(sk[1].skel);
}

/* A blending parity line's start: "KEYWORD id" and the skeleton. */
void print_line_start(const char *keyword, int id, const Skel *s)
{
    printf("%s %d", keyword, id);
    print_skel(s);
}

/* A blending parity line's end: " ST st OUT <pose>" and the newline. */
void print_line_end(SinewStatus st, const SinewTransform *out, uint32_t n)
{
    printf(" ST %d", (int)st);
    print_pose_tag("OUT", out, n);
    printf("\n");
}

int rng_index(uint32_t n) { return rng_below((int)n); }

/* Random local transforms near the rest pose: any rotation (either hemisphere), scales in
 * [0.5, 2); with `zero_scales`, now and then a zero scale component. */
void rng_locals(const Skel *s, SinewTransform *out, int zero_scales)
{
    uint32_t i;
    for (i = 0; i < s->n; i++) {
        SinewVec3 scale = rng_vec3(0.5f, 2.0f);
        SinewQuat r = rng_quat();
        out[i] = xf(add(s->rest[i].translation, rng_point(0.5f)), r, scale);
        if (zero_scales && rng_below(4) == 0) {
            *vec_field(&out[i].scale, rng_below(3)) = 0.0f;
        }
    }
}

/* A pose of `s` holding `local` (the rest pose when NULL). */
SinewPose *pose_make(const Skel *s, const SinewTransform *local)
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

void pose_read(const SinewPose *p, SinewTransform *buf, uint32_t n)
{
    EXPECT(sinew_pose_get_local(p, buf, n), SINEW_STATUS_OK);
}

/* Whether pose `p` of n joints holds exactly `expect`. */
int pose_holds(const SinewPose *p, const SinewTransform *expect, uint32_t n)
{
    SinewTransform now[NB];
    return sinew_pose_get_local(p, now, n) == SINEW_STATUS_OK &&
           memcmp(now, expect, n * sizeof now[0]) == 0;
}

int mask_holds(const SinewJointMask *m, const float *expect, uint32_t n)
{
    float now[NB];
    return sinew_joint_mask_get_weights(m, now, n) == SINEW_STATUS_OK &&
           memcmp(now, expect, n * sizeof now[0]) == 0;
}

int all_finite_unit(const SinewTransform *t, uint32_t n)
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
int xf_close(const SinewTransform *a, const SinewTransform *b, float tol)
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
SinewJointMask *mask_make(const Skel *s, int kind)
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
    case 2: {
        uint32_t root_weight = (uint32_t)rng_below(4);
        EXPECT(sinew_joint_mask_create_subtree(s->skel, (uint32_t)rng_index(s->n), root_weight,
                                               &m),
               SINEW_STATUS_OK);
        break;
    }
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
            float weight = rng_below(2) ? 0.0f : rng_float(0, 1);
            EXPECT(sinew_joint_mask_set_weight(m, (uint32_t)rng_index(s->n), weight),
                   SINEW_STATUS_OK);
        }
        break;
    }
    return m;
}

/* A mask's weights (all 1 for NULL); returns whether there is a mask. */
int mask_read(const SinewJointMask *m, float *w, uint32_t n)
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
void print_mask(int has_mask, const float *w, uint32_t n)
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

void print_pose_tag(const char *tag, const SinewTransform *t, uint32_t n)
{
    print_xfs(tag, t, n);
}

SinewVec3 q_xyz(SinewQuat q) { return v3(q.x, q.y, q.z); }

SinewStatus track_apply(SinewClip *clip, const TrackSpec *k)
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
void print_track(const TrackSpec *k, SinewStatus st)
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
void rng_track(TrackSpec *k, const Skel *s, float dur, int32_t interp, int32_t prop)
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
            k->tin[i] = rng_quat4(-2, 2);
            k->tout[i] = rng_quat4(-2, 2);
        } else {
            SinewVec3 v = prop == SINEW_TRACK_PROPERTY_TRANSLATION
                              ? add(s->rest[k->joint].translation, rng_point(1.0f))
                              : rng_vec3(0.25f, 2);
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
/* Samples `clip` at sm->t (through `cursor` when sm->cursor) into sm->out and checks it: OK,
 * finite unit rotations, and the pose a sample without the cursor gives. */
void clip_take_sample(SinewClip *clip, SinewClipCursor *cursor, ClipSample *sm, SinewPose *out,
                      SinewPose *check, uint32_t n, const char *what, int id)
{
    SinewTransform plain[NB];

    sm->st = sinew_clip_sample(clip, sm->cursor ? cursor : NULL, sm->t, sm->looping, out);
    pose_read(out, sm->out, n);
    CHECK(sm->st == SINEW_STATUS_OK, "%s case %d: sample at %g returned %s", what, id,
          (double)sm->t, status_name(sm->st));
    CHECK(all_finite_unit(sm->out, n), "%s case %d: sample at %g not finite/unit", what, id,
          (double)sm->t);
    /* A cursor changes the speed, not the result. */
    EXPECT(sinew_clip_sample(clip, NULL, sm->t, sm->looping, check), SINEW_STATUS_OK);
    pose_read(check, plain, n);
    CHECK(memcmp(plain, sm->out, n * sizeof plain[0]) == 0,
          "%s case %d: sample at %g with a cursor differs from without", what, id,
          (double)sm->t);
}

/* Ends a parity line with its samples (" SAMPLES n", then each one's time, flags, status and
 * pose), then destroys the case's handles. */
void print_samples_end(const ClipSample *samples, uint32_t ns, uint32_t n, SinewClip *clip,
                       SinewClipCursor *cursor, SinewPose *out, SinewPose *check)
{
    uint32_t k;

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

SinewClip *clip_make(const Skel *s, float dur, int c, int bad, TrackSpec *tracks,
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

void print_clip(float dur, SinewStatus cst, const TrackSpec *tracks,
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

/* ================================================================ huge finite blends */

/* Every blending export on finite values near FLT_MAX: NUMERIC_OVERFLOW (output untouched) or
 * OK with finite, unit results; never NaN or infinity. */
void check_huge_result(const char *what, int c, SinewStatus st, const SinewPose *out,
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

/* A valid 3-key track (times 0, 0.5, 1 of a 1-second clip) of `prop` for joint 4. */
void base_track(TrackSpec *k, int32_t prop, int32_t interp)
{
    uint32_t i;
    memset(k, 0, sizeof *k);
    k->joint = 4;
    k->prop = prop;
    k->interp = interp;
    k->n = 3;
    for (i = 0; i < 3; i++) {
        k->times[i] = 0.5f * (float)i;
        int rotation = prop == SINEW_TRACK_PROPERTY_ROTATION;
        SinewVec3 v;
        float w;
        if (rotation) {
            k->vals[i] = rng_quat();
        } else {
            v = rng_vec3(0.5f, 2);
            k->vals[i] = qt(v.x, v.y, v.z, 0);
        }
        w = rotation ? rng_float(-1, 1) : 0.0f;
        v = rng_vec3(-1, 1);
        k->tin[i] = qt(v.x, v.y, v.z, w);
        w = rotation ? rng_float(-1, 1) : 0.0f;
        v = rng_vec3(-1, 1);
        k->tout[i] = qt(v.x, v.y, v.z, w);
    }
    k->tangents = interp == SINEW_INTERPOLATION_CUBIC;
}
