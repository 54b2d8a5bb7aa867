/*
 * Declarations shared by the C ABI test program: bookkeeping (CHECK, EXPECT), math, the random
 * generator, printing of parity lines, and the skeletons, poses, masks and tracks several jobs use.
 */

#ifndef SINEW_ABI_TEST_H
#define SINEW_ABI_TEST_H

#include "sinew.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...) check_impl((cond) ? 1 : 0, __LINE__, #cond, __VA_ARGS__)
#define MSG_CAP 4096
/* EXPECT(call, status): the call returns `status`, and the error slot agrees. */
#define EXPECT(call, want) expect_impl((call), (want), __LINE__, #call)
#define FILL(x) memset(&(x), 0xA5, sizeof(x))
#define UNTOUCHED(x) CHECK(is_filled(&(x), sizeof(x)), "output `%s` was written on error", #x)
#define SAME(a, b) CHECK(memcmp(&(a), &(b), sizeof(a)) == 0, "`%s` changed on error", #a)
enum { KIND_VALID, KIND_HUGE };

#define NJ 10
#define PI_F 3.14159265f
#define MAXC 16      /* max_joints of the shared solvers */
#define MAX_CHAIN 12 /* longest random chain */
#define NB 20
#define SJ 6
/* A skeleton for the blending tests and what its parity lines print of it. */
typedef struct {
    uint32_t n;
    const char *const *names;
    const int32_t *parents;
    SinewTransform rest[NB];
    SinewSkeleton *skel;
} Skel;

#define POSE_KEPT(p, snap, n) CHECK(pose_holds((p), (snap), (n)), "pose `%s` changed on error", #p)
#define MASK_KEPT(m, snap, n) CHECK(mask_holds((m), (snap), (n)), "mask `%s` changed on error", #m)
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

/* One clip sample of a CLIP or FRAMES line: when, how, and what came out. */
typedef struct {
    float t;
    uint32_t looping;
    int cursor;
    SinewStatus st;
    SinewTransform out[NB];
} ClipSample;

/* ---------------------------------------------------------------- common.c */

extern int g_passed;
extern int g_failed;
extern int g_verbose;
extern const char *g_section;
int check_impl(int ok, int line, const char *expr, const char *fmt, ...);
const char *status_name(SinewStatus s);
void check_error_message(int line, const char *call, SinewStatus got);
void check_no_error_message(int line, const char *call);
int expect_impl(SinewStatus got, SinewStatus want, int line, const char *call);
int is_filled(const void *p, size_t n);
SinewVec3 v3(float x, float y, float z);
SinewQuat qt(float x, float y, float z, float w);
SinewTransform xf(SinewVec3 t, SinewQuat r, SinewVec3 s);
SinewVec3 add(SinewVec3 a, SinewVec3 b);
SinewVec3 sub(SinewVec3 a, SinewVec3 b);
SinewVec3 mulf(SinewVec3 a, float k);
float dot(SinewVec3 a, SinewVec3 b);
float len3(SinewVec3 a);
float qlen(SinewQuat q);
SinewVec3 ONE3(void);
SinewQuat QID(void);
float *xf_field(SinewTransform *t, int i);
extern const char *const XF_FIELD_NAMES[10];
float *vec_field(SinewVec3 *v, int i);
float *quat_field(SinewQuat *q, int i);
int xf_finite(const SinewTransform *t);
int xf_unit_rotation(const SinewTransform *t);
SinewQuat qmul(SinewQuat a, SinewQuat b);
SinewQuat qconj(SinewQuat q);
SinewQuat qscale(SinewQuat q, float k);
SinewQuat qunit(SinewQuat q);
SinewVec3 qrot(SinewQuat q, SinewVec3 v);
float qsame(SinewQuat a, SinewQuat b);
float qangle(SinewQuat a, SinewQuat b);
SinewVec3 vunit(SinewVec3 v);
int near(float a, float b, float rel);
int xf_near(const SinewTransform *a, const SinewTransform *b, float rel);
extern uint64_t g_rng;
void rng_seed(const char *name);
uint32_t rng_next(void);
float rng_float(float lo, float hi);
int rng_below(int n);
SinewQuat rng_quat(void);
SinewVec3 rng_dir(void);
SinewVec3 rng_point(float r);
SinewVec3 rng_vec3(float lo, float hi);
SinewQuat rng_quat4(float lo, float hi);
SinewVec3 rng_bone(float lo, float hi);
void pf(float f);
void print_vec(const SinewVec3 *v);
void print_xf(const SinewTransform *t);
void print_settings(const SinewTwoBoneIkSettings *s);
void print_target(const SinewVec3 *eff, const SinewQuat *rot, const SinewVec3 *pole);
void print_result(const SinewIkResult *r);
void print_quat(const SinewQuat *q);
void print_opt_quat(const char *tag, const SinewQuat *q);
void print_opt_vec(const char *tag, const SinewVec3 *v);
void print_outputs(SinewStatus st, const SinewTransform *out, const SinewTransform *model,
                   uint32_t n);
void print_xfs_untagged(const char *tag, const SinewTransform *t, uint32_t n);
void print_xfs(const char *tag, const SinewTransform *t, uint32_t n);
void print_indices(const char *tag, const uint32_t *j, uint32_t n);
void print_skeleton(uint32_t n, const char *const *names, const int32_t *parents,
                    const SinewTransform *rest);
void print_constraint(const SinewJointConstraint *c);
void print_fabrik_settings(const SinewFabrikSettings *s);
void print_ccd_settings(const SinewCcdSettings *s);
void print_hand_settings(const SinewHandIkRetargetingSettings *s, const SinewHandJoints *h);
extern const char *const JOINT_NAMES[NJ];
extern const int32_t JOINT_PARENTS[NJ];
void rest_pose(SinewTransform rest[NJ]);
SinewSkeleton *make_skeleton(SinewTransform rest[NJ]);
float rng_angle(float lo, float hi);
SinewQuat rng_small_rotation(float max_angle);
extern const char *const BIG_NAMES[NB];
extern const int32_t BIG_PARENTS[NB];
SinewSkeleton *make_big_skeleton(SinewTransform rest[NB]);
SinewPose *make_big_pose(SinewTransform rest[NB]);
void print_big_pose(const SinewTransform rest[NB], const SinewTransform local[NB]);
uint32_t big_depth(uint32_t j);
int big_is_ancestor(uint32_t a, uint32_t j);
void big_pick_chain(uint32_t *joints, uint32_t k);
void big_random_local(const SinewTransform rest[NB], SinewTransform local[NB], int c);
extern const char *const SMALL_NAMES[SJ];
extern const int32_t SMALL_PARENTS[SJ];
int skel_make(Skel *s, int shape);
void print_skel(const Skel *s);
int rng_index(uint32_t n);
void rng_locals(const Skel *s, SinewTransform *out, int zero_scales);
SinewPose *pose_make(const Skel *s, const SinewTransform *local);
void pose_read(const SinewPose *p, SinewTransform *buf, uint32_t n);
int pose_holds(const SinewPose *p, const SinewTransform *expect, uint32_t n);
int mask_holds(const SinewJointMask *m, const float *expect, uint32_t n);
int all_finite_unit(const SinewTransform *t, uint32_t n);
int xf_close(const SinewTransform *a, const SinewTransform *b, float tol);
SinewJointMask *mask_make(const Skel *s, int kind);
int mask_read(const SinewJointMask *m, float *w, uint32_t n);
void print_mask(int has_mask, const float *w, uint32_t n);
void print_pose_tag(const char *tag, const SinewTransform *t, uint32_t n);
SinewVec3 q_xyz(SinewQuat q);
SinewStatus track_apply(SinewClip *clip, const TrackSpec *k);
void print_track(const TrackSpec *k, SinewStatus st);
void rng_track(TrackSpec *k, const Skel *s, float dur, int32_t interp, int32_t prop);
SinewClip *clip_make(const Skel *s, float dur, int c, int bad, TrackSpec *tracks,
                     SinewStatus *tst, uint32_t *nt, SinewStatus *cst);
void clip_take_sample(SinewClip *clip, SinewClipCursor *cursor, ClipSample *sm, SinewPose *out,
                      SinewPose *check, uint32_t n, const char *what, int id);
void print_samples_end(const ClipSample *samples, uint32_t ns, uint32_t n, SinewClip *clip,
                       SinewClipCursor *cursor, SinewPose *out, SinewPose *check);
void print_clip(float dur, SinewStatus cst, const TrackSpec *tracks,
                const SinewStatus *tst, uint32_t nt);
void check_huge_result(const char *what, int c, SinewStatus st, const SinewPose *out,
                       const SinewTransform *before, uint32_t n);
void base_track(TrackSpec *k, int32_t prop, int32_t interp);
void run_skel_cases(const char *section, int shape0, int shape1, int count,
                    void (*one)(const Skel sk[2], int c));
void print_line_start(const char *keyword, int id, const Skel *s);
void print_line_end(SinewStatus st, const SinewTransform *out, uint32_t n);

/* ---------------------------------------------------------------- two_bone.c */

extern int g_case_id;
extern int g_pose_id;
void two_bone_random(void);
void two_bone_degenerate(void);
void two_bone_huge(void);
void two_bone_pose(void);

/* ---------------------------------------------------------------- chains.c */

extern int g_chain_id;
void chain_random(void);
void chain_degenerate(void);
void chain_huge(void);
extern int g_chain_pose_id;
void chain_pose(void);
extern int g_apply_id;
void apply_constraints(void);
void apply_constraints_huge(void);
void chain_pose_huge(void);

/* ---------------------------------------------------------------- hand.c */

extern int g_hand_model_id;
extern int g_hand_pose_id;
void hand_model(void);
void hand_pose(void);
void hand_huge(void);

/* ---------------------------------------------------------------- blend.c */

extern int g_blend_id;
void blend_two_poses(void);
extern int g_layers_id;
void blend_layers(void);
extern int g_addmake_id;
extern int g_addapply_id;
void additive_layers(void);
extern int g_mask_id;
void joint_masks(void);
void blend_huge(void);

/* ---------------------------------------------------------------- clip.c */

extern int g_clip_id;
void clip_tracks(void);
void clip_huge(void);

/* ---------------------------------------------------------------- frames.c */

extern int g_frames_id;
void clip_frames(void);

/* ---------------------------------------------------------------- crossfade.c */

extern int g_xfade_id;
void crossfade_script(void);
void crossfade_huge(void);

#endif
