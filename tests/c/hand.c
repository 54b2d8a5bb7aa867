/*
 * Hand IK retargeting parity: HANDM lines (apply_model) and HANDP lines (apply_pose), and
 * huge finite inputs.
 */

#include "abi_test.h"

/* ================================================================ hand IK retargeting */

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

/* Checks hand `what` case `id` returned OK and, when `off` is given, wrote the documented offset
 * of the hand joints `h` in `model` (model space before the call) within `tol`; returns the
 * documented offset. */
static SinewVec3 check_offset(const char *what, int id, SinewStatus st,
                              const SinewHandIkRetargetingSettings *s, const SinewHandJoints *h,
                              const SinewTransform *model, const SinewVec3 *off, float tol)
{
    SinewVec3 want;
    CHECK(st == SINEW_STATUS_OK, "hand %s case %d returned %s", what, id, status_name(st));
    want = hand_offset(s, model[h->right_fk].translation, model[h->left_fk].translation,
                       model[h->right_ik].translation, model[h->left_ik].translation);
    if (off != NULL) {
        CHECK(vec_near(*off, want, tol),
              "hand %s case %d: offset (%g %g %g), documented (%g %g %g)", what, id,
              (double)off->x, (double)off->y, (double)off->z, (double)want.x, (double)want.y,
              (double)want.z);
    }
    return want;
}

int g_hand_model_id;
int g_hand_pose_id;

#define N_HAND_MODEL 40
#define N_HAND_POSE 30

void hand_model(void)
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
            SinewVec3 scale = rng_below(3) == 0 ? v3(1.5f, 0.5f, 2.0f) : ONE3();
            SinewQuat r = rng_quat();
            model[i] = xf(rng_point(5.0f), r, scale);
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

        want = check_offset("model", id, st, &s, &h, model, with_offset ? &off : NULL,
                            1e-5f * 20.0f);
        if (with_offset) {
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

void hand_pose(void)
{
    static const uint32_t likely[6] = {15, 16, 17, 18, 14, 12};
    SinewTransform rest[NB], local[NB], before[NB], after[NB], model0[NB], model1[NB];
    SinewHandIkRetargetingSettings def;
    SinewHandIkRetargeting *node = NULL;
    SinewPose *pose = NULL;
    SinewHandJoints h;
    SinewVec3 off, want;
    uint32_t bones[8];
    int c, i;

    g_section = "A parity: hand IK retargeting, pose";
    pose = make_big_pose(rest);
    if (pose == NULL) {
        return;
    }
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
        print_big_pose(rest, local);
        print_hand_settings(&s, &h);
        print_indices("BONES", bones, bc);
        print_outputs(st, after, model1, NB);
        print_opt_vec("OFF", with_offset ? &off : NULL);
        printf("\n");

        want = check_offset("pose", id, st, &s, &h, model0, with_offset ? &off : NULL, 1e-4f);
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

void hand_huge(void)
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
