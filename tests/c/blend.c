/*
 * Blending parity: BLEND, LAYERS, ADDMAKE / ADDAPPLY and MASK lines, and huge finite blends.
 */

#include "abi_test.h"

/* ================================================================ two-pose blends */

int g_blend_id;

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

/* One BLEND case: random poses, factor, mask, space and aliasing of the output. */
static void blend_case(const Skel sk[2], int c)
{
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

    print_line_start("BLEND", id, s);
    print_pose_tag("A", in_a, n);
    print_pose_tag("B", alias == 3 ? in_a : in_b, n);
    print_pose_tag("OUTIN", in_out, n);
    printf(" T");
    pf(t);
    print_mask(has_mask, w, n);
    printf(" SPACE %d ALIAS %d", space, alias);
    print_line_end(st, after, n);

    valid = t >= 0.0f && t <= 1.0f;
    CHECK(st == (valid ? SINEW_STATUS_OK : SINEW_STATUS_INVALID_ARGUMENT),
          "blend case %d (t %g) returned %s", id, (double)t, status_name(st));
    CHECK(memcmp(a_after, in_a, n * sizeof in_a[0]) == 0 &&
              memcmp(b_after, in_b, n * sizeof in_b[0]) == 0,
          "blend case %d: an input pose changed", id);
    if (st != SINEW_STATUS_OK) {
        CHECK(memcmp(after, in_out, n * sizeof after[0]) == 0,
              "blend case %d: output changed on error", id);
    } else {
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
    }
    sinew_joint_mask_destroy(m);
    sinew_pose_destroy(a);
    sinew_pose_destroy(b);
    sinew_pose_destroy(out);
    sinew_pose_destroy(scratch);
}

void blend_two_poses(void)
{
    run_skel_cases("A parity: sinew_pose_blend", 1, 2, N_BLEND, blend_case);
}

/* ================================================================ layered blends */

int g_layers_id;

#define N_LAYERS 100
#define MAXL 4

/* sinew_pose_blend_layers_additive on a LAYERS case's layers, from the same output pose: with
 * no additive layer it is the case's result (status and bits), with one (a delta of the first
 * layer over the case's result, masked on odd cases) it is that result with
 * sinew_pose_apply_additive applied, both of which the parity lines check against Rust. */
static void layers_additive_matches(const Skel *s, const SinewBlendLayer *layers, uint32_t k,
                                    float thr, const SinewTransform *in_out, SinewStatus want,
                                    const SinewTransform *want_after, int c)
{
    uint32_t n = s->n;
    SinewTransform got[NB], two[NB];
    SinewPose *out = pose_make(s, in_out), *delta, *base;
    SinewBlendLayer add;
    SinewStatus st = sinew_pose_blend_layers_additive(k == 0 && c % 2 ? NULL : layers, k, NULL, 0,
                                                      thr, out);
    pose_read(out, got, n);
    CHECK(st == want, "layers case %d: one call without additive layers returned %s", c,
          status_name(st));
    CHECK(memcmp(got, want_after, n * sizeof got[0]) == 0,
          "layers case %d: one call without additive layers differs", c);
    if (want != SINEW_STATUS_OK || k == 0) {
        sinew_pose_destroy(out);
        return;
    }
    base = pose_make(s, want_after);
    delta = pose_make(s, NULL);
    EXPECT(sinew_pose_make_additive(layers[0].pose, base, delta), SINEW_STATUS_OK);
    add.pose = delta;
    add.weight = c % 4 == 1 ? -0.5f : 0.75f;
    add.mask = c % 2 ? layers[0].mask : NULL;
    EXPECT(sinew_pose_apply_additive(base, delta, add.weight, add.mask, base), SINEW_STATUS_OK);
    pose_read(base, two, n);
    EXPECT(sinew_pose_set_local(out, in_out, n), SINEW_STATUS_OK);
    EXPECT(sinew_pose_blend_layers_additive(layers, k, &add, 1, thr, out), SINEW_STATUS_OK);
    pose_read(out, got, n);
    CHECK(memcmp(got, two, n * sizeof got[0]) == 0,
          "layers case %d: one call with an additive layer differs from two", c);
    sinew_pose_destroy(delta);
    sinew_pose_destroy(base);
    sinew_pose_destroy(out);
}

/* One LAYERS case: up to MAXL masked layers (one pose twice now and then) and a threshold. */
static void layers_case(const Skel sk[2], int c)
{
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

    print_line_start("LAYERS", id, s);
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
    print_line_end(st, after, n);

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
    layers_additive_matches(s, layers, k, thr, in_out, st, after, c);
    for (l = 0; l < k; l++) {
        if (!(shared && l == 1)) {
            sinew_pose_destroy(poses[l]);
        }
        sinew_joint_mask_destroy(masks[l]);
    }
    sinew_pose_destroy(out);
    sinew_pose_destroy(rest_pose_h);
}

void blend_layers(void)
{
    run_skel_cases("A parity: sinew_pose_blend_layers", 0, 1, N_LAYERS, layers_case);
}

/* ================================================================ additive layers */

int g_addmake_id;
int g_addapply_id;

#define N_ADD 90

static float additive_weight(int k)
{
    static const float list[9] = {-1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f, 1.5f, 2.0f, -0.0f};
    return k % 10 == 9 ? rng_float(-1.0f, 2.0f) : list[k % 10];
}

/* One ADDMAKE and one ADDAPPLY case: a delta of two poses, applied (masked, in place or not)
 * to the reference or another pose. */
static void additive_case(const Skel sk[2], int c)
{
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

    print_line_start("ADDMAKE", make_id, s);
    print_pose_tag("P", in_p, n);
    print_pose_tag("R", in_r, n);
    print_pose_tag("OUTIN", in_d, n);
    print_line_end(st, delta, n);

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

    print_line_start("ADDAPPLY", apply_id, s);
    print_pose_tag("BASE", in_base, n);
    print_pose_tag("D", delta, n);
    print_pose_tag("OUTIN", in_out, n);
    printf(" W");
    pf(weight);
    print_mask(has_mask, w, n);
    printf(" ALIAS %d", alias);
    print_line_end(st2, after, n);

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

void additive_layers(void)
{
    run_skel_cases("A parity: sinew_pose_make_additive / sinew_pose_apply_additive", 1, 0, N_ADD,
                   additive_case);
}

/* ================================================================ joint masks */

int g_mask_id;

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

/* One MASK case: a uniform or subtree mask, then MASK_OPS random edits. */
static void mask_case(const Skel sk[2], int c)
{
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

    print_line_start("MASK", id, s);
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

void joint_masks(void)
{
    run_skel_cases("A parity: joint masks", 2, 0, N_MASK, mask_case);
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

void blend_huge(void)
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
