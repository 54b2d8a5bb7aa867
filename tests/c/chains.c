/*
 * FABRIK and CCD parity: CHAIN lines (sinew_fabrik_solve, sinew_ccd_solve on random,
 * degenerate and huge finite chains), CHPOSE lines (their pose solves) and APPLY lines
 * (sinew_pose_apply_constraints).
 */

#include "abi_test.h"

/* ================================================================ chain IK (FABRIK, CCD): shared */

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

/* A solver of `kind` with the default settings. */
static SinewStatus solver_create_default(int kind, uint32_t max_joints, Solver *out)
{
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    sinew_fabrik_settings_default(&fs);
    sinew_ccd_settings_default(&cs);
    return solver_create(kind, &fs, &cs, max_joints, out);
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
    /* The settings both solvers have get the same values. */
    cc->fs.precision = cc->cs.precision = precision;
    cc->fs.relative_precision = cc->cs.relative_precision = rel;
    cc->fs.max_iterations = cc->cs.max_iterations = iters;
    cc->fs.stop_when_stalled = cc->cs.stop_when_stalled = stall;
    cc->fs.end_rotation = cc->cs.end_rotation = end;
    cc->cs.start_from_tail = tail;
    cc->cs.fix_root = fix;
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
    case 1: c.axis = rng_bone(0.5f, 2.0f); break;
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
        SinewVec3 bone = rng_dir();
        SinewJointConstraint decoy = rng_constraint(0, rng_quat(), bone);
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

int g_chain_id;

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
        cc->in[i] = xf(p, q, scaled ? rng_vec3(0.5f, 2.0f) : ONE3());
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

void chain_random(void)
{
    Solver shared;
    int kind, c;

    g_section = "A parity: chain IK, random chains";
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create_default(kind, MAXC, &shared), SINEW_STATUS_OK)) {
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
            default: {
                float scale = rng_float(0.5f, 3.0f);
                cc.has_parent = 1;
                cc.parent = qscale(rng_quat(), scale);
            }
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

void chain_degenerate(void)
{
    static const int variants[] = {0, 3, 4, 5, 8, 10};
    Solver shared;
    size_t vi;
    int kind, g, with_constraints;
    uint32_t j;

    g_section = "A parity: chain IK, degenerate but valid";
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create_default(kind, MAXC, &shared), SINEW_STATUS_OK)) {
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

/* Sets the rotation `huge_slot` (a field of `huge`) to the first `count` finite rotations of
 * huge magnitude below, `unit_slot` (the same field of `unit`) to their unit-length twins, and
 * expects each pair to solve alike. */
static void expect_huge_rotations(ChainCase *huge, ChainCase *unit, SinewQuat *huge_slot,
                                  SinewQuat *unit_slot, int count, const Solver *s,
                                  const char *what)
{
    static const SinewQuat huge_rotations[2] = {{0, 0, 1e30f, 1e30f}, {0, 0, 0, 1e20f}};
    static const SinewQuat unit_rotations[2] = {{0, 0, 0.70710678f, 0.70710678f}, {0, 0, 0, 1}};
    static const char *const names[2] = {"{0, 0, 1e30, 1e30}", "{0, 0, 0, 1e20}"};
    char label[96];
    int i;
    for (i = 0; i < count; i++) {
        *huge_slot = huge_rotations[i];
        *unit_slot = unit_rotations[i];
        snprintf(label, sizeof label, "%s %s", what, names[i]);
        expect_equivalent(huge, unit, s, label);
    }
}

void chain_huge(void)
{
    Solver s;
    ChainCase cc, twin;
    int kind;
    uint32_t i;

    g_section = "B huge finite inputs: chain IK";
    for (kind = 0; kind < 2; kind++) {
        if (!EXPECT(solver_create_default(kind, MAXC, &s), SINEW_STATUS_OK)) {
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
        expect_huge_rotations(&cc, &twin, &cc.in[1].rotation, &twin.in[1].rotation, 1, &s,
                              "chain rotation");
        huge_base(&cc, kind);
        cc.fs.end_rotation = cc.cs.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
        twin = cc;
        cc.has_rot = twin.has_rot = 1;
        expect_huge_rotations(&cc, &twin, &cc.rot, &twin.rot, 2, &s, "effector rotation");

        /* ... as the root parent rotation (a root constraint makes it matter to FABRIK). */
        huge_base(&cc, kind);
        cc.has_c[0] = 1;
        sinew_joint_constraint_default(&cc.c[0]);
        cc.c[0].swing_half_angle_1 = 0.3f;
        cc.c[0].swing_half_angle_2 = 0.2f;
        twin = cc;
        cc.has_parent = twin.has_parent = 1;
        expect_huge_rotations(&cc, &twin, &cc.parent, &twin.parent, 2, &s,
                              "root_parent_rotation");

        /* ... as a constraint reference; and a huge constraint axis. */
        huge_base(&cc, kind);
        cc.has_c[1] = 1;
        sinew_joint_constraint_default(&cc.c[1]);
        cc.c[1].type = SINEW_CONSTRAINT_TYPE_HINGE;
        cc.c[1].axis = v3(0, 0, 1);
        cc.c[1].min_angle = -0.2f;
        cc.c[1].max_angle = 0.3f;
        twin = cc;
        expect_huge_rotations(&cc, &twin, &cc.c[1].reference, &twin.c[1].reference, 1, &s,
                              "constraint reference");
        cc.c[1].reference = twin.c[1].reference;
        cc.c[1].axis = v3(0, 0, 1e20f);
        expect_equivalent(&cc, &twin, &s, "constraint axis {0, 0, 1e20}");
        cc.c[1].axis = v3(0, 0, 3e38f);
        expect_equivalent(&cc, &twin, &s, "constraint axis {0, 0, 3e38}");
        solver_destroy(&s);
    }
}

/* ================================================================ chain IK on a pose */

int g_chain_pose_id;

#define N_CHAIN_POSE 40

void chain_pose(void)
{
    SinewTransform rest[NB], local[NB], before[NB], after[NB], model[NB];
    SinewPose *pose = NULL;
    SinewFabrikSettings fs;
    SinewCcdSettings cs;
    Solver shared[2];
    int c, kind, i;

    g_section = "A parity: chain IK on a pose";
    pose = make_big_pose(rest);
    if (pose == NULL) {
        return;
    }
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
        print_big_pose(rest, local);
        print_chain_solver(&cc, s.max_joints);
        print_indices("JOINTS", joints, k);
        print_chain_joints(&cc);
        printf(" E");
        print_vec(&cc.eff);
        print_opt_quat("R", cc.has_rot ? &cc.rot : NULL);
        print_outputs(st, after, model, NB);
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

/* ================================================================ constraints on a pose */

int g_apply_id;

#define N_APPLY 30

void apply_constraints(void)
{
    SinewTransform rest[NB], local[NB], before[NB], after[NB], again[NB];
    SinewJointConstraint cons[8];
    uint32_t joints[8];
    SinewPose *pose = NULL;
    int c, i;

    g_section = "A parity: sinew_pose_apply_constraints";
    pose = make_big_pose(rest);
    if (pose == NULL) {
        return;
    }
    for (c = 0; c < N_APPLY; c++) {
        uint32_t count = (uint32_t)rng_below(9), k, m;
        int dup = 0, id = g_apply_id++;
        SinewStatus st;
        big_random_local(rest, local, c);
        EXPECT(sinew_pose_set_local(pose, local, NB), SINEW_STATUS_OK);
        EXPECT(sinew_pose_get_local(pose, before, NB), SINEW_STATUS_OK);
        for (k = 0; k < count; k++) {
            joints[k] = c % 5 == 4 && k > 0 ? joints[0] : (uint32_t)rng_below(NB);
            SinewVec3 bone = rng_dir();
            cons[k] = rng_constraint(1 + (int)((k + (uint32_t)c) % 3),
                                     qmul(local[joints[k]].rotation, rng_small_rotation(1.5f)),
                                     bone);
            for (m = 0; m < k; m++) {
                dup |= joints[m] == joints[k];
            }
        }
        st = sinew_pose_apply_constraints(pose, count > 0 || c % 2 ? joints : NULL,
                                          count > 0 || c % 2 ? cons : NULL, count);
        EXPECT(sinew_pose_get_local(pose, after, NB), SINEW_STATUS_OK);

        printf("APPLY %d", id);
        print_big_pose(rest, local);
        printf(" LIST %" PRIu32, count);
        for (k = 0; k < count; k++) {
            printf(" %" PRIu32, joints[k]);
            print_constraint(&cons[k]);
        }
        print_outputs(st, after, NULL, NB);
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

/* Huge finite constraint inputs: a huge-magnitude reference is a rotation like its unit
 * version, a huge axis a direction like its unit version. */
void apply_constraints_huge(void)
{
    SinewJointConstraint unit, huge;
    SinewTransform rest[NJ], local[NJ], snap[NJ], a[NJ], b[NJ];
    SinewSkeleton *skel;
    SinewPose *pose = NULL;
    uint32_t j;
    int i, k;

    g_section = "huge finite inputs: sinew_pose_apply_constraints";
    skel = make_skeleton(rest);
    if (skel == NULL || !EXPECT(sinew_pose_create(skel, &pose), SINEW_STATUS_OK)) {
        return;
    }
    sinew_skeleton_destroy(skel);
    for (i = 0; i < NJ; i++) {
        local[i] = rest[i];
        local[i].rotation = rng_quat();
    }
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

void chain_pose_huge(void)
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
