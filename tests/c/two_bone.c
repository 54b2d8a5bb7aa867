/*
 * Two-bone IK parity: CASE lines (sinew_two_bone_ik_solve on random, degenerate and huge
 * finite chains) and POSE lines (sinew_two_bone_ik_solve_pose).
 */

#include "abi_test.h"

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

/* ================================================================ two-bone IK parity */

int g_case_id;
int g_pose_id;

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
    print_outputs(st, chain, NULL, 3);
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

void two_bone_random(void)
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
            pole = add(chain[0].translation, rng_bone(0.5f, 3.0f));
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
void two_bone_degenerate(void)
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
void two_bone_huge(void)
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

#define N_POSE_CASES 30

void two_bone_pose(void)
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
        print_outputs(st, after, model, NJ);
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
