/*
 * C-side test of the Sinew C ABI, compiled against include/sinew.h and linked with the cdylib.
 * Built and run by tests/c_abi.rs (`cargo test --test c_abi`) from every .c file here.
 *
 * Parity: each job's file prints one line per call with every input and output float in %.9g,
 * which round-trips f32 exactly; the Rust side recomputes each line with the Rust core and
 * compares. two_bone.c prints CASE (two-bone solves) and POSE (pose solves) lines, chains.c
 * CHAIN, CHPOSE and APPLY (FABRIK, CCD, constraints), hand.c HANDM and HANDP, blend.c BLEND
 * (two-pose blends in every aliasing form), LAYERS, ADDMAKE / ADDAPPLY (additive layers) and
 * MASK (joint masks and their edits), clip.c CLIP (tracks and samples, with and without a
 * cursor), crossfade.c XFADE (a controller driven through a script); poses are printed as
 * sinew_pose_get_local reads them back. Lines not starting with one of the keywords the Rust
 * side knows are ignored by it. Each file also checks, in C, what the documentation promises
 * of its calls (finite, unit outputs; constraints held; huge finite inputs solved like unit
 * ones or reported as NUMERIC_OVERFLOW with outputs untouched).
 *
 * Bad input (every status the API reports for it, the error message, untouched outputs) is
 * tests/bad_input's, for every export and argument; this file keeps the message slot as C
 * reads it and the model-space rule.
 *
 * Failures go to stderr; the last stdout line is "N passed, N failed" and the exit status is
 * non-zero on any failure. There is no expected-failure mechanism: a check that fails on a
 * library bug fails the test until the bug is fixed.
 * SINEW_ABI_TEST_VERBOSE=1 prints every error message the library returns ("MSG ..." lines).
 */

#include "abi_test.h"

/* The version the library reports, for the Rust side to compare with the crate's. */
static void versions(void)
{
    uint32_t major, minor, patch;
    g_section = "version";
    CHECK(sinew_abi_version() == SINEW_ABI_VERSION, "sinew_abi_version() %u != header %u",
          (unsigned)sinew_abi_version(), (unsigned)SINEW_ABI_VERSION);
    EXPECT(sinew_version(&major, &minor, &patch), SINEW_STATUS_OK);
    printf("VERSION %u %u %u ABI %u\n", (unsigned)major, (unsigned)minor, (unsigned)patch,
           (unsigned)sinew_abi_version());
}

/* The message slot read from C: length query, truncation on a UTF-8 boundary, reads that do
 * not clear it, and a success that empties it. */
static void error_message(void)
{
    SinewTransform rest[NJ];
    SinewSkeleton *skel;
    uint32_t index;
    char full[256], buf[64];
    size_t len = 0, got = 0, cut = 0, i;
    const char *accent;

    g_section = "error message";
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

/* One model-space rule, root first (the README's): a chain of three joints one unit apart,
 * the root scaled (2, 1, 1) and joint 1 turned 90 degrees about Z puts joint 2 at (3, 2, 0)
 * for every read, and a joint set in model space reads back as set. */
static void model_rule(void)
{
    static const int32_t chain_parents[3] = {-1, 0, 1};
    SinewTransform rest[3], model[3], computed[3], one, target;
    SinewSkeleton *skel = NULL;
    SinewPose *pose = NULL;
    const float h = 0.70710678f;
    int i;

    g_section = "model-space rule";
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

/* After a model-space write `what` to a pose of three joints returned `st`: OK or
 * NUMERIC_OVERFLOW; on OK joint 1's stored local transform is finite; on overflow the pose
 * still holds `snap` (when given). */
static void check_stored_local(const SinewPose *pose, SinewStatus st, const char *what,
                               const SinewTransform *snap)
{
    SinewTransform local[3];
    CHECK(st == SINEW_STATUS_OK || st == SINEW_STATUS_NUMERIC_OVERFLOW, "%s returned %s", what,
          status_name(st));
    EXPECT(sinew_pose_get_local(pose, local, 3), SINEW_STATUS_OK);
    if (st == SINEW_STATUS_OK) {
        CHECK(xf_finite(&local[1]), "%s returned OK and stored local (%g, %g, %g)", what,
              (double)local[1].translation.x, (double)local[1].translation.y,
              (double)local[1].translation.z);
    } else if (snap != NULL) {
        CHECK(memcmp(local, snap, sizeof local) == 0, "%s: pose changed on error", what);
    }
}

/* Overflowing model space from finite local transforms: the model-space functions should
 * report NUMERIC_OVERFLOW (or succeed with finite values), never hand out NaN or infinity. */
static void model_overflow(void)
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

    g_section = "huge finite pose";
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
    check_stored_local(pose, sinew_pose_set_model(pose, model, 3), "set_model", snap);
    EXPECT(sinew_pose_reset(pose), SINEW_STATUS_OK);
    one = xf(v3(3e38f, 0, 0), QID(), ONE3());
    local[0] = xf(v3(-3e38f, 0, 0), QID(), ONE3());
    local[1] = xf(v3(0, 0, 0), QID(), ONE3());
    local[2] = xf(v3(0, 0, 0), QID(), ONE3());
    EXPECT(sinew_pose_set_local(pose, local, 3), SINEW_STATUS_OK);
    check_stored_local(pose, sinew_pose_set_model_transform(pose, 1, &one), "set_model_transform",
                       NULL);

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

/* Runs one part with the random sequence seeded by its name. */
#define RUN(part) (rng_seed(#part), part())

int main(void)
{
    const char *env;
    env = getenv("SINEW_ABI_TEST_VERBOSE");
    g_verbose = env != NULL && env[0] == '1';

    RUN(versions);
    RUN(two_bone_random);
    RUN(two_bone_degenerate);
    RUN(two_bone_pose);
    RUN(chain_random);
    RUN(chain_degenerate);
    RUN(chain_pose);
    RUN(apply_constraints);
    RUN(hand_model);
    RUN(hand_pose);
    RUN(error_message);
    RUN(two_bone_huge);
    RUN(model_rule);
    RUN(model_overflow);
    RUN(chain_huge);
    RUN(chain_pose_huge);
    RUN(apply_constraints_huge);
    RUN(hand_huge);
    RUN(blend_two_poses);
    RUN(blend_layers);
    RUN(additive_layers);
    RUN(joint_masks);
    RUN(clip_tracks);
    RUN(crossfade_script);
    RUN(blend_huge);
    RUN(clip_huge);
    RUN(crossfade_huge);
    RUN(clip_frames);

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
    printf("LINES FRAMES %d\n", g_frames_id);
    printf("%d passed, %d failed\n", g_passed, g_failed);
    fflush(stdout);
    return g_failed == 0 ? 0 : 1;
}
