/*
 * Tests of bindings/cpp/unreal/sinew_unreal.hpp, the engine-independent half of the SinewIK
 * Unreal plugin: double <-> float conversion and rebasing, the mapping from Unreal node
 * properties to Sinew settings, solves in doubles through the real library, the sorted
 * FBoneTransform-like output, chain collection and the copy-safe handle holders.
 *
 * Built and run by tests/unreal_logic.rs (g++ -std=c++17 -Wall -Wextra -Werror, linked with
 * libsinew.so). Failures go to stderr; the last stdout line is "N passed, N failed" and the exit
 * status is non-zero on any failure.
 *
 * Units are centimetres and Z is up, as in Unreal; Sinew is given the values as they are.
 */
#include "sinew_unreal.hpp"
#include "test_counts.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace sinew_unreal;

// ============================================================================== bookkeeping

static bool check_impl(bool ok, int line, const char* expr, const char* fmt, ...)
{
    if (counted(ok, line, expr)) {
        return true;
    }
    std::fputs(": ", stderr);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fputc('\n', stderr);
    return false;
}

#define CHECK(cond, ...) check_impl((cond), __LINE__, #cond, __VA_ARGS__)
#define CHECK_OK(call)                                                                                     \
    do {                                                                                                   \
        const SinewStatus st_ = (call);                                                                    \
        char msg_[256];                                                                                    \
        last_error_message(msg_, sizeof msg_);                                                             \
        CHECK(st_ == SINEW_STATUS_OK, "%s returned %s: %s", #call, status_name(st_), st_ ? msg_ : "");    \
    } while (0)

static void section(const char* name)
{
    g_section = name;
    std::printf("-- %s\n", name);
}

// ============================================================================== helpers

static DVec3 v(double x, double y, double z) { return {x, y, z}; }
static DVec3 normalize(const DVec3& a) { return a * (1.0 / length(a)); }

static DTransform xf(const DVec3& t, const DQuat& r = DQuat{}, const DVec3& s = DVec3{1.0, 1.0, 1.0})
{
    DTransform x;
    x.translation = t;
    x.rotation = r;
    x.scale = s;
    return x;
}

static bool same_bits_d(const DTransform& a, const DTransform& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/** Minimal-arc rotation turning direction a onto direction b (both non-zero, not opposite). */
static DQuat arc(const DVec3& a, const DVec3& b)
{
    const DVec3 na = normalize(a);
    const DVec3 nb = normalize(b);
    const DVec3 c = cross(na, nb);
    return normalized(DQuat{c.x, c.y, c.z, 1.0 + dot(na, nb)});
}

/**
 * A model-space chain through `points` whose bones point along their local +X (Unreal's bone
 * convention): each joint's rotation turns +X onto the direction to the next joint; the last
 * copies its parent's.
 */
static std::vector<DTransform> chain_through(const std::vector<DVec3>& points)
{
    std::vector<DTransform> out(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        const DQuat r = i + 1 < points.size() ? arc(v(1, 0, 0), points[i + 1] - points[i]) : out[i - 1].rotation;
        out[i] = xf(points[i], r);
    }
    return out;
}

/** Exact two-bone answer in doubles: joint position for root a, target t (reachable), pole p. */
static DVec3 analytic_joint(const DVec3& a, double l1, double l2, const DVec3& t, const DVec3& pole)
{
    const double d = distance(a, t);
    const DVec3 dir = (t - a) * (1.0 / d);
    const DVec3 to_pole = pole - a;
    const DVec3 bend = normalize(to_pole - dir * dot(to_pole, dir));
    const double c = (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d);
    const double s = std::sqrt(1.0 - c * c);
    return a + dir * (l1 * c) + bend * (l1 * s);
}

/** The engine's alpha blend emulated in doubles: each bone's local transform (relative to its
 *  parent) lerped / nlerped between input and solved, then recomposed (what
 *  FCSPose::LocalBlendCSBoneTransforms does). `parent` is the chain root's unchanged parent. */
static std::vector<DTransform> local_blend(const DTransform& parent, const std::vector<DTransform>& in,
                                           const std::vector<DTransform>& solved, double w)
{
    std::vector<DTransform> out(in.size());
    DTransform in_parent = parent;
    DTransform solved_parent = parent;
    DTransform out_parent = parent;
    for (size_t i = 0; i < in.size(); ++i) {
        const DTransform a = relative(in_parent, in[i]);
        const DTransform b = relative(solved_parent, solved[i]);
        DQuat rb = b.rotation;
        if (dot(a.rotation, rb) < 0.0) {
            rb = DQuat{-rb.x, -rb.y, -rb.z, -rb.w};
        }
        DTransform local;
        local.translation = a.translation + (b.translation - a.translation) * w;
        local.rotation = normalized(DQuat{a.rotation.x + (rb.x - a.rotation.x) * w, a.rotation.y + (rb.y - a.rotation.y) * w,
                                          a.rotation.z + (rb.z - a.rotation.z) * w, a.rotation.w + (rb.w - a.rotation.w) * w});
        local.scale = a.scale + (b.scale - a.scale) * w;
        out[i] = compose(out_parent, local);
        in_parent = in[i];
        solved_parent = solved[i];
        out_parent = out[i];
    }
    return out;
}

// ============================================================================== tests

static void test_conversions()
{
    section("double/float conversions");
    const SinewVec3 f = to_sinew(v(1.5, -2.25, 1e5 + 0.3));
    CHECK(f.x == 1.5f && f.y == -2.25f && f.z == static_cast<float>(1e5 + 0.3), "cast %g %g %g", f.x, f.y, f.z);

    const SinewQuat q = to_sinew(DQuat{0.0, 0.0, 2.0, 2.0});
    const float r = 0.70710678f;
    CHECK(std::fabs(q.z - r) < 1e-7f && std::fabs(q.w - r) < 1e-7f && q.x == 0.0f, "normalized in double: %g %g", q.z, q.w);

    const DQuat back = to_double(SinewQuat{0.0f, 0.0f, 0.70710677f, 0.70710677f});
    CHECK(std::fabs(dot(back, back) - 1.0) < 1e-15, "renormalized in double: |q|^2 - 1 = %g", dot(back, back) - 1.0);

    // A transform the solver does not change comes back as the original doubles, bit for bit.
    const DTransform t = xf(v(100000.123456789, -99999.987654321, 15000.5), quat_from_axis_angle(normalize(v(1, 2, 3)), 0.7),
                            v(1.0000001, 1.0, 0.9999999));
    const ChainFrame frame(v(100000.1, -99999.9, 15000.0));
    const SinewTransform s = frame.to_sinew_transform(t);
    CHECK(same_bits_d(frame.from_sinew_transform(s, t), t), "unchanged transform passes through exactly");

    // Rebased: the float image is relative to the origin.
    CHECK(std::fabs(s.translation.x - 0.023456789f) < 1e-6f, "rebased x %g", s.translation.x);

    // A changed translation comes back in double, origin added in double.
    SinewTransform moved = s;
    moved.translation.x += 1.0f;
    const DTransform m = frame.from_sinew_transform(moved, t);
    CHECK(std::fabs(m.translation.x - (t.translation.x + 1.0)) < 1e-6, "moved x %.9f", m.translation.x);
    CHECK(std::memcmp(&m.rotation, &t.rotation, sizeof m.rotation) == 0, "untouched rotation kept exactly");
}

static void test_rebasing_precision()
{
    section("rebasing keeps precision 1e5 cm from the origin");
    // An arm about 1e5 cm from the component origin (e.g. a world-space level streaming setup).
    const DVec3 base = v(100000.0031, -100000.0047, 50.0026);
    const DVec3 shoulder = base + v(0.0, 0.0, 140.0);
    const DVec3 elbow = shoulder + v(28.0, 6.0, -10.0);
    const DVec3 hand = elbow + v(26.0, -4.0, -12.0);
    const std::vector<DTransform> in = chain_through({shoulder, elbow, hand});
    const double l1 = distance(shoulder, elbow);
    const double l2 = distance(elbow, hand);
    const DVec3 target = shoulder + v(30.0031, 20.0017, -25.0039);
    const DVec3 pole = elbow + v(0.0, 0.0, -40.0);

    const DVec3 want_joint = analytic_joint(shoulder, l1, l2, target, pole);

    TwoBoneIkInstance ik;
    CHECK_OK(ik.prepare(two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine)));
    DTransform out[3];
    SinewIkResult res{};
    CHECK_OK(solve_two_bone_ik(ik.get(), in.data(), target, nullptr, &pole, out, &res));
    const double joint_err = distance(out[1].translation, want_joint);
    const double end_err = distance(out[2].translation, target);
    const double len_err = std::fabs(distance(out[0].translation, out[1].translation) - l1);
    std::printf("rebased: joint error %.3g cm, end error %.3g cm, upper length error %.3g cm\n", joint_err, end_err, len_err);
    CHECK(joint_err < 1e-4 && end_err < 1e-4 && len_err < 1e-4, "rebased errors %g %g %g cm", joint_err, end_err, len_err);
    CHECK(res.reached == 1, "reached");
    CHECK(std::memcmp(&out[0].translation, &in[0].translation, sizeof(DVec3)) == 0,
          "root translation kept exactly");

    // The same solve with absolute coordinates cast to float (no rebasing) loses precision:
    // float spacing at 1e5 is 0.0078 cm. This shows the check above has teeth.
    SinewTransform naive[3];
    for (int i = 0; i < 3; ++i) {
        naive[i] = ChainFrame().to_sinew_transform(in[i]);
    }
    const SinewVec3 naive_target = to_sinew(target);
    const SinewVec3 naive_pole = to_sinew(pole);
    CHECK_OK(sinew_two_bone_ik_solve(ik.get(), naive, &naive_target, nullptr, &naive_pole, nullptr));
    const double naive_joint_err = distance(to_double(naive[1].translation), want_joint);
    const double naive_end_err = distance(to_double(naive[2].translation), target);
    std::printf("not rebased: joint error %.3g cm, end error %.3g cm\n", naive_joint_err, naive_end_err);
    CHECK(naive_joint_err > 1e-3 || naive_end_err > 1e-3, "naive cast errors %g %g cm (expected > 1e-3)", naive_joint_err,
          naive_end_err);
}

static void test_two_bone_mapping()
{
    section("TwoBoneIK property mapping");
    SinewTwoBoneIkSettings def;
    sinew_two_bone_ik_settings_default(&def);
    const SinewTwoBoneIkSettings s = two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine);
    CHECK(same_settings(s, def), "Unreal's node defaults are Sinew's defaults");

    TwoBoneIkNodeParams p;
    p.take_rotation_from_effector_space = true;
    CHECK(two_bone_ik_settings(p, AlphaMode::AppliedByEngine).end_rotation == SINEW_END_ROTATION_KEEP_MODEL,
          "bTakeRotationFromEffectorSpace is ignored in component space");
    p.effector_location_space = BoneControlSpace::World;
    CHECK(two_bone_ik_settings(p, AlphaMode::AppliedByEngine).end_rotation == SINEW_END_ROTATION_KEEP_MODEL,
          "... and in world space");
    p.effector_location_space = BoneControlSpace::Bone;
    CHECK(two_bone_ik_settings(p, AlphaMode::AppliedByEngine).end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR,
          "bone space copies the effector rotation");
    p.effector_location_space = BoneControlSpace::ParentBone;
    p.maintain_effector_rel_rot = true;
    CHECK(two_bone_ik_settings(p, AlphaMode::AppliedByEngine).end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR,
          "parent bone space copies it too, before bMaintainEffectorRelRot");
    p.take_rotation_from_effector_space = false;
    CHECK(two_bone_ik_settings(p, AlphaMode::AppliedByEngine).end_rotation == SINEW_END_ROTATION_KEEP_LOCAL,
          "bMaintainEffectorRelRot keeps the local rotation");

    TwoBoneIkNodeParams t;
    t.allow_twist = false;
    CHECK(two_bone_ik_settings(t, AlphaMode::AppliedByEngine).keep_twist == 1, "bAllowTwist false -> keep_twist");
    t.allow_twist = true;
    CHECK(two_bone_ik_settings(t, AlphaMode::AppliedByEngine).keep_twist == 0, "bAllowTwist true -> minimal arcs");

    TwoBoneIkNodeParams a;
    a.alpha = 0.25f;
    CHECK(two_bone_ik_settings(a, AlphaMode::AppliedByEngine).weight == 1.0f, "engine applies alpha: weight 1");
    CHECK(two_bone_ik_settings(a, AlphaMode::AppliedBySinew).weight == 0.25f, "Sinew applies alpha");
    a.alpha = 1.7f;
    CHECK(two_bone_ik_settings(a, AlphaMode::AppliedBySinew).weight == 1.0f, "alpha clamped high");
    a.alpha = -0.3f;
    CHECK(two_bone_ik_settings(a, AlphaMode::AppliedBySinew).weight == 0.0f, "alpha clamped low");

    TwoBoneIkNodeParams st;
    st.allow_stretching = true;
    st.start_stretch_ratio = 0.0;
    st.max_stretch_scale = 0.5;
    const SinewTwoBoneIkSettings ss = two_bone_ik_settings(st, AlphaMode::AppliedByEngine);
    CHECK(ss.allow_stretching == 1 && ss.start_stretch_ratio > 0.0f && ss.max_stretch_scale == 1.0f,
          "stretch limits mapped into Sinew's domain: %g %g", ss.start_stretch_ratio, ss.max_stretch_scale);
    SinewTwoBoneIk* h = nullptr;
    CHECK_OK(sinew_two_bone_ik_create(&ss, &h));
    sinew_two_bone_ik_destroy(h);
}

static void test_two_bone_node_in_cm()
{
    section("TwoBoneIK node configuration in cm solves like the Sinew call");
    // A right arm in component space, Z up, centimetres.
    const DVec3 shoulder = v(12.5, -20.0, 140.0);
    const DVec3 elbow = shoulder + v(0.0, -29.0, -6.0);
    const DVec3 hand = elbow + v(4.0, -26.0, 2.0);
    std::vector<DTransform> in = chain_through({shoulder, elbow, hand});
    in[2].rotation = normalized(in[2].rotation * quat_from_axis_angle(v(1, 0, 0), 0.4));
    const double l1 = distance(shoulder, elbow);
    const double l2 = distance(elbow, hand);
    const double reach = l1 + l2;

    TwoBoneIkNodeParams p;
    p.allow_stretching = true;
    p.start_stretch_ratio = 0.9;
    p.max_stretch_scale = 1.2;
    p.maintain_effector_rel_rot = true;
    const DVec3 dir = normalize(v(0.2, -1.0, 0.3));
    const DVec3 target = shoulder + dir * (1.1 * reach);
    const DVec3 pole = elbow + v(0.0, 0.0, -30.0);

    TwoBoneIkInstance node;
    CHECK_OK(node.prepare(two_bone_ik_settings(p, AlphaMode::AppliedByEngine)));
    DTransform out[3];
    SinewIkResult res{};
    CHECK_OK(solve_two_bone_ik(node.get(), in.data(), target, nullptr, &pole, out, &res));

    // The equivalent direct C call, settings written by hand from Unreal's semantics.
    SinewTwoBoneIkSettings direct;
    sinew_two_bone_ik_settings_default(&direct);
    direct.allow_stretching = 1;
    direct.start_stretch_ratio = 0.9f;
    direct.max_stretch_scale = 1.2f;
    direct.end_rotation = SINEW_END_ROTATION_KEEP_LOCAL;
    SinewTwoBoneIk* ik = nullptr;
    CHECK_OK(sinew_two_bone_ik_create(&direct, &ik));
    SinewTransform chain[3];
    for (int i = 0; i < 3; ++i) {
        chain[i] = ChainFrame().to_sinew_transform(in[i]);
    }
    const SinewVec3 t = to_sinew(target);
    const SinewVec3 pl = to_sinew(pole);
    SinewIkResult direct_res{};
    CHECK_OK(sinew_two_bone_ik_solve(ik, chain, &t, nullptr, &pl, &direct_res));
    sinew_two_bone_ik_destroy(ik);

    double max_pos = 0.0;
    double max_rot = 0.0;
    for (int i = 0; i < 3; ++i) {
        max_pos = std::fmax(max_pos, distance(out[i].translation, to_double(chain[i].translation)));
        max_rot = std::fmax(max_rot, angle_between(out[i].rotation, to_double(chain[i].rotation)));
    }
    std::printf("node vs direct call: max position difference %.3g cm, max rotation difference %.3g rad\n", max_pos, max_rot);
    CHECK(max_pos < 1e-3 && max_rot < 1e-5, "node %g cm / %g rad from the direct call", max_pos, max_rot);
    CHECK(res.reached == direct_res.reached && res.iterations == direct_res.iterations, "same result flags");

    // Unreal's stretch formula: at 1.1 of the length with start 0.9 and max 1.2 the bones scale
    // by 1 + 0.2 * (1.1 - 0.9) / (1.2 - 0.9) = 1.1333, so the target is reached with bent bones.
    const double scale = 1.0 + 0.2 * (1.1 - 0.9) / (1.2 - 0.9);
    const double upper = distance(out[0].translation, out[1].translation);
    const double lower = distance(out[1].translation, out[2].translation);
    CHECK(std::fabs(upper - l1 * scale) < 1e-3 && std::fabs(lower - l2 * scale) < 1e-3,
          "stretched lengths %g %g, expected %g %g", upper, lower, l1 * scale, l2 * scale);
    CHECK(distance(out[2].translation, target) < 1e-3 && res.reached == 1, "target reached: %g cm",
          distance(out[2].translation, target));

    // bMaintainEffectorRelRot: the hand keeps its rotation relative to the forearm.
    const DQuat rel_in = conjugate(in[1].rotation) * in[2].rotation;
    const DQuat rel_out = conjugate(out[1].rotation) * out[2].rotation;
    CHECK(angle_between(rel_in, rel_out) < 1e-5, "hand relative rotation kept (%g rad)", angle_between(rel_in, rel_out));
}

static void test_alpha_equivalence()
{
    section("engine alpha blend == Sinew weight");
    const DTransform parent = xf(v(0.0, 0.0, 130.0), quat_from_axis_angle(v(0, 0, 1), 0.3));
    const DVec3 a = v(10.0, -15.0, 140.0);
    const DVec3 b = a + v(3.0, -28.0, -8.0);
    const DVec3 c = b + v(6.0, -25.0, 4.0);
    const std::vector<DTransform> in = chain_through({a, b, c});
    const DVec3 target = a + v(25.0, -20.0, -20.0);
    const DVec3 pole = b + v(0.0, 0.0, -30.0);
    const double alpha = 0.3;

    TwoBoneIkNodeParams p;
    p.alpha = static_cast<float>(alpha);
    TwoBoneIkInstance engine_node;
    TwoBoneIkInstance sinew_node;
    CHECK_OK(engine_node.prepare(two_bone_ik_settings(p, AlphaMode::AppliedByEngine)));
    CHECK_OK(sinew_node.prepare(two_bone_ik_settings(p, AlphaMode::AppliedBySinew)));
    std::vector<DTransform> full(3);
    std::vector<DTransform> weighted(3);
    CHECK_OK(solve_two_bone_ik(engine_node.get(), in.data(), target, nullptr, &pole, full.data(), nullptr));
    CHECK_OK(solve_two_bone_ik(sinew_node.get(), in.data(), target, nullptr, &pole, weighted.data(), nullptr));
    const std::vector<DTransform> blended = local_blend(parent, in, full, alpha);
    double max_pos = 0.0;
    double max_rot = 0.0;
    for (int i = 0; i < 3; ++i) {
        max_pos = std::fmax(max_pos, distance(blended[i].translation, weighted[i].translation));
        max_rot = std::fmax(max_rot, angle_between(blended[i].rotation, weighted[i].rotation));
    }
    std::printf("alpha %.2f: engine-style local blend vs Sinew weight: %.3g cm, %.3g rad\n", alpha, max_pos, max_rot);
    CHECK(max_pos < 1e-3 && max_rot < 1e-5, "blends differ by %g cm / %g rad", max_pos, max_rot);
    CHECK(distance(full[2].translation, weighted[2].translation) > 1.0, "the blend is not the full solve");
}

static void test_z_up_leg()
{
    section("Z-up leg bends toward its joint target");
    const DVec3 hip = v(0.0, 10.0, 95.0);
    const DVec3 knee = v(2.0, 10.0, 50.0);
    const DVec3 foot = v(0.0, 10.0, 8.0);
    const std::vector<DTransform> in = chain_through({hip, knee, foot});
    const DVec3 target = v(5.0, 10.0, 30.0);
    TwoBoneIkInstance ik;
    CHECK_OK(ik.prepare(two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine)));
    for (int sign = -1; sign <= 1; sign += 2) {
        const DVec3 pole = knee + v(50.0 * sign, 0.0, 0.0);
        DTransform out[3];
        CHECK_OK(solve_two_bone_ik(ik.get(), in.data(), target, nullptr, &pole, out, nullptr));
        const double side = (out[1].translation.x - (hip.x + target.x) * 0.5) * sign;
        CHECK(side > 5.0, "knee bends toward pole %+d along X (offset %g cm)", sign, side);
        CHECK(std::fabs(out[1].translation.y - 10.0) < 1e-4, "knee stays in the leg's plane (y %g)", out[1].translation.y);
        CHECK(distance(out[2].translation, target) < 1e-3, "foot reaches the target");
        CHECK(std::fabs(distance(out[0].translation, out[1].translation) - distance(hip, knee)) < 1e-4,
              "thigh length kept in cm");
        CHECK(std::memcmp(&out[2].rotation, &in[2].rotation, sizeof(DQuat)) == 0,
              "end keeps its component-space rotation exactly (Unreal's default)");
    }
}

static void test_chain_mapping()
{
    section("FABRIK / CCDIK property mapping");
    FabrikNodeParams f;
    SinewFabrikSettings fs = fabrik_settings(f);
    CHECK(fs.precision == 1.0f && fs.relative_precision == 0 && fs.max_iterations == 10,
          "Precision is absolute centimetres (%g, relative %u), MaxIterations %u", fs.precision, fs.relative_precision,
          fs.max_iterations);
    CHECK(fs.end_rotation == SINEW_END_ROTATION_KEEP_LOCAL, "default EffectorRotationSource keeps local rotation");
    f.effector_rotation_source = BoneRotationSource::KeepComponentSpaceRotation;
    CHECK(fabrik_settings(f).end_rotation == SINEW_END_ROTATION_KEEP_MODEL, "KeepComponentSpaceRotation");
    f.effector_rotation_source = BoneRotationSource::CopyFromTarget;
    CHECK(fabrik_settings(f).end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR, "CopyFromTarget");
    CHECK(!chain_params_valid(0.0f, 10) && !chain_params_valid(-1.0f, 10) && !chain_params_valid(1.0f, 0) &&
              chain_params_valid(0.5f, 1),
          "IsValidToEvaluate: Precision > 0 and an iteration");

    CcdNodeParams c;
    SinewCcdSettings cs = ccd_settings(c);
    CHECK(cs.precision == 1.0f && cs.relative_precision == 0 && cs.max_iterations == 10 && cs.start_from_tail == 1 &&
              cs.fix_root == 1 && cs.end_rotation == SINEW_END_ROTATION_KEEP_LOCAL,
          "CCD defaults as Unreal's node");
    c.start_from_tail = false;
    c.rotate_root = true;
    cs = ccd_settings(c);
    CHECK(cs.start_from_tail == 0 && cs.fix_root == 0, "bStartFromTail false, root rotating");

    const float limits[] = {10.0f, 20.0f, -5.0f, 500.0f, NAN};
    CHECK(ccd_rotation_limit_degrees(false, limits, 5, 0) == 180.0f, "disabled: unlimited");
    CHECK(ccd_rotation_limit_degrees(true, limits, 5, 0) == 10.0f && ccd_rotation_limit_degrees(true, limits, 5, 1) == 20.0f,
          "enabled: per joint");
    CHECK(ccd_rotation_limit_degrees(true, limits, 5, 2) == 0.0f && ccd_rotation_limit_degrees(true, limits, 5, 3) == 180.0f,
          "clamped to [0, 180]");
    CHECK(ccd_rotation_limit_degrees(true, limits, 5, 4) == 180.0f && ccd_rotation_limit_degrees(true, limits, 5, 7) == 180.0f,
          "NaN and missing entries unlimited");

    HandIkNodeParams h;
    SinewHandIkRetargetingSettings hs = hand_ik_settings(h);
    CHECK(hs.hand_fk_weight == 0.5f && hs.per_axis_alpha.x == 1.0f && hs.per_axis_alpha.z == 1.0f, "hand defaults");
    h.hand_fk_weight = 3.0f;
    h.per_axis_alpha = v(-1.0, 0.25, 2.0);
    hs = hand_ik_settings(h);
    CHECK(hs.hand_fk_weight == 1.0f && hs.per_axis_alpha.x == 0.0f && hs.per_axis_alpha.y == 0.25f &&
              hs.per_axis_alpha.z == 1.0f,
          "hand weights clamped to [0, 1]");
    CHECK(hand_ik_has_effect(h), "has effect");
    h.per_axis_alpha = v(0.0, 0.00001, 0.0);
    CHECK(!hand_ik_has_effect(h), "PerAxisAlpha nearly zero: skipped as Unreal does");
}

static std::vector<DTransform> tentacle(const DVec3& base, int joints, double bone)
{
    std::vector<DVec3> points;
    for (int i = 0; i < joints; ++i) {
        points.push_back(base + v(bone * i, 0.0, 2.0 * std::sin(i * 0.7)));
    }
    return chain_through(points);
}

/** Solves `in` towards `target` with a chain solver of `Instance` type (named `name`) and
 *  `settings` mapped from a Precision of `precision` cm: the tip must end within it. */
template <class Instance, class Settings>
static SinewIkResult solve_to_precision(const char* name, const Settings& settings, float precision,
                                        const std::vector<DTransform>& in, const DVec3& target,
                                        std::vector<DTransform>& out)
{
    std::vector<SinewTransform> scratch(in.size());
    Instance solver;
    CHECK_OK(solver.prepare(settings, static_cast<uint32_t>(in.size())));
    SinewIkResult res{};
    CHECK_OK(solve_chain(solver.get(), in.data(), static_cast<uint32_t>(in.size()), nullptr, target, nullptr,
                         scratch.data(), out.data(), &res));
    const double err = distance(out.back().translation, target);
    std::printf("%s Precision %.2f cm: error %.4g cm in %u iterations\n", name, precision, err, res.iterations);
    CHECK(res.reached == 1 && err <= precision * 1.0001, "%s Precision %g cm: error %g cm", name, precision, err);
    return res;
}

static void test_centimetre_tolerances()
{
    section("centimetre tolerances");
    const DVec3 base = v(50000.0, -30000.0, 100.0);  // far from the origin too
    const std::vector<DTransform> in = tentacle(base, 6, 20.0);
    const DVec3 target = base + v(40.0, 35.0, 50.0);
    std::vector<DTransform> out(in.size());

    uint32_t fabrik_iters[2] = {0, 0};
    const float precisions[2] = {1.0f, 0.01f};
    for (int k = 0; k < 2; ++k) {
        FabrikNodeParams p;
        p.precision = precisions[k];
        p.max_iterations = 100;
        const SinewIkResult res =
            solve_to_precision<FabrikInstance>("FABRIK", fabrik_settings(p), precisions[k], in, target, out);
        const double err = distance(out.back().translation, target);
        CHECK(std::fabs(err - res.error) < 1e-3, "reported error %g matches %g", res.error, err);
        fabrik_iters[k] = res.iterations;
        for (size_t i = 0; i + 1 < in.size(); ++i) {
            const double before = distance(in[i].translation, in[i + 1].translation);
            const double after = distance(out[i].translation, out[i + 1].translation);
            CHECK(std::fabs(before - after) < 1e-3, "bone %zu length kept (%g vs %g cm)", i, after, before);
        }
    }
    CHECK(fabrik_iters[0] <= fabrik_iters[1], "a coarser Precision never stops later (%u vs %u iterations)", fabrik_iters[0],
          fabrik_iters[1]);

    for (int k = 0; k < 2; ++k) {
        CcdNodeParams p;
        p.precision = precisions[k];
        p.max_iterations = 200;
        solve_to_precision<CcdInstance>("CCD", ccd_settings(p), precisions[k], in, target, out);
        CHECK(std::memcmp(&out[0], &in[0], sizeof(DTransform)) == 0, "CCD root fixed, passed through exactly");
    }

    // The mapped tolerance differs from Sinew's relative default (1e-3 of the 100 cm chain).
    SinewFabrikSettings def;
    sinew_fabrik_settings_default(&def);
    CHECK(def.relative_precision == 1 && fabrik_settings(FabrikNodeParams{}).relative_precision == 0,
          "Sinew's default tolerance is relative; Unreal's Precision is not");
}

static void test_ccd_limits_hold()
{
    section("CCDIK rotation limits");
    const DVec3 base = v(0.0, 0.0, 100.0);
    const std::vector<DTransform> in = tentacle(base, 5, 15.0);
    const DVec3 target = base + v(10.0, 30.0, 30.0);
    const float limits[] = {30.0f, 10.0f, 10.0f, 10.0f, 10.0f};
    CcdNodeParams p;
    p.enable_rotation_limit = true;
    p.max_iterations = 50;
    CcdInstance ccd;
    const uint32_t n = static_cast<uint32_t>(in.size());
    CHECK_OK(ccd.prepare(ccd_settings(p), n));
    CHECK_OK(apply_ccd_rotation_limits(ccd.get(), n, p.enable_rotation_limit, limits, 5));
    std::vector<SinewTransform> scratch(n);
    std::vector<DTransform> out(n);
    CHECK_OK(solve_chain(ccd.get(), in.data(), n, nullptr, target, nullptr, scratch.data(), out.data(), nullptr));
    for (uint32_t i = 1; i < n; ++i) {
        const DQuat before = conjugate(in[i - 1].rotation) * in[i].rotation;
        const DQuat after = conjugate(out[i - 1].rotation) * out[i].rotation;
        const double deg = angle_between(before, after) * 180.0 / 3.14159265358979323846;
        CHECK(deg <= limits[i] + 0.01, "joint %u turned %g degrees (limit %g)", i, deg, limits[i]);
    }
    double total = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        total += distance(out[i].translation, in[i].translation);
    }
    CHECK(total > 1.0, "the chain moved");

    // Without the limit the same target turns a joint further.
    CHECK_OK(apply_ccd_rotation_limits(ccd.get(), n, false, limits, 5));
    CHECK_OK(solve_chain(ccd.get(), in.data(), n, nullptr, target, nullptr, scratch.data(), out.data(), nullptr));
    double most = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        const DQuat before = conjugate(in[i - 1].rotation) * in[i].rotation;
        const DQuat after = conjugate(out[i - 1].rotation) * out[i].rotation;
        most = std::fmax(most, angle_between(before, after) * 180.0 / 3.14159265358979323846);
    }
    CHECK(most > 10.01, "unlimited solve turns a joint %g degrees", most);
}

static void test_fabrik_copy_rotation()
{
    section("FABRIK EffectorRotationSource");
    const std::vector<DTransform> in = tentacle(v(0.0, 0.0, 80.0), 4, 20.0);
    const DVec3 target = v(30.0, 20.0, 110.0);
    const DQuat effector_rotation = quat_from_axis_angle(normalize(v(0, 1, 1)), 1.1);
    const uint32_t n = static_cast<uint32_t>(in.size());
    std::vector<SinewTransform> scratch(n);
    std::vector<DTransform> out(n);

    FabrikNodeParams p;
    p.effector_rotation_source = BoneRotationSource::CopyFromTarget;
    FabrikInstance fabrik;
    CHECK_OK(fabrik.prepare(fabrik_settings(p), n));
    CHECK_OK(solve_chain(fabrik.get(), in.data(), n, nullptr, target, &effector_rotation, scratch.data(), out.data(),
                          nullptr));
    CHECK(angle_between(out.back().rotation, effector_rotation) < 1e-6, "tip copies the target rotation");

    p.effector_rotation_source = BoneRotationSource::KeepComponentSpaceRotation;
    CHECK_OK(fabrik.prepare(fabrik_settings(p), n));
    CHECK_OK(solve_chain(fabrik.get(), in.data(), n, nullptr, target, &effector_rotation, scratch.data(), out.data(),
                          nullptr));
    CHECK(std::memcmp(&out.back().rotation, &in.back().rotation, sizeof(DQuat)) == 0,
          "tip keeps its component-space rotation exactly");

    p.effector_rotation_source = BoneRotationSource::KeepLocalSpaceRotation;
    CHECK_OK(fabrik.prepare(fabrik_settings(p), n));
    CHECK_OK(solve_chain(fabrik.get(), in.data(), n, nullptr, target, &effector_rotation, scratch.data(), out.data(),
                          nullptr));
    const DQuat rel_in = conjugate(in[n - 2].rotation) * in[n - 1].rotation;
    const DQuat rel_out = conjugate(out[n - 2].rotation) * out[n - 1].rotation;
    CHECK(angle_between(rel_in, rel_out) < 1e-5, "tip keeps its local rotation");
}

static void test_aim_node()
{
    section("Sinew Aim node");
    // A Z-up spine of four bones (root 100 cm up), looking along X at rest.
    std::vector<DTransform> in(4);
    for (uint32_t i = 0; i < 4; ++i) {
        in[i].translation = v(0.0, 0.0, 100.0 + 20.0 * i);
        in[i].rotation = DQuat{0.0, 0.0, 0.0, 1.0};
        in[i].scale = v(1.0, 1.0, 1.0);
    }
    const uint32_t n = 4;
    std::vector<SinewTransform> scratch(n);
    std::vector<DTransform> out(n);
    AimNodeParams p;
    p.aim_offset = v(10.0, 0.0, 8.0);  // eyes, ahead of and above the head bone
    const SinewAimIkSettings s = aim_settings(p);
    CHECK(s.up_axis.z == 1.0f && s.aim_axis.x == 1.0f, "Unreal's LookAt axes: aim X, up Z");
    AimInstance aim;
    CHECK_OK(aim.prepare(s, n));
    const float weights[] = {1.0f, 1.0f, 2.0f};
    const float limits[] = {20.0f};
    CHECK_OK(apply_aim_joints(aim.get(), n, weights, 3, limits, 1));
    const DVec3 target = v(150.0, 200.0, 220.0);
    const DVec3 up = v(0.0, 0.0, 1.0);
    SinewIkResult result{};
    CHECK_OK(solve_aim(aim.get(), in.data(), n, target, &up, false, scratch.data(), out.data(), &result));
    CHECK(result.reached == 1 && result.error <= 1e-3f, "aims at the target (residual %g rad)", result.error);
    const DQuat root_turn = conjugate(in[0].rotation) * out[0].rotation;
    CHECK(angle_between(root_turn, in[0].rotation) * 180.0 / 3.14159265358979323846 <= 20.0 + 1e-3,
          "the root's 20-degree limit holds");
    // The same solve through the direct C call, in floats rebased on the root, is the same.
    SinewAimIk* direct = nullptr;
    CHECK_OK(sinew_aim_ik_create(&s, n, &direct));
    CHECK_OK(apply_aim_joints(direct, n, weights, 3, limits, 1));
    std::vector<SinewTransform> c(n);
    const ChainFrame frame(in[0].translation);
    for (uint32_t i = 0; i < n; ++i) c[i] = frame.to_sinew_transform(in[i]);
    const SinewVec3 goal = frame.point_to_sinew(target);
    const SinewVec3 cup = to_sinew(up);
    SinewIkResult c_result{};
    CHECK_OK(sinew_aim_ik_solve(direct, c.data(), n, &goal, &cup, &c_result));
    CHECK(std::memcmp(&c_result, &result, sizeof result) == 0, "node solve equals the direct call");
    sinew_aim_ik_destroy(direct);
    // Properties out of range are clamped; a zero aim axis is the library's error.
    AimNodeParams bad;
    bad.max_angle_degrees = 400.0f;
    bad.tolerance = -1.0f;
    bad.max_iterations = 0;
    const SinewAimIkSettings clamped = aim_settings(bad);
    CHECK(clamped.max_angle_degrees == 180.0f && clamped.tolerance == 1e-4f && clamped.max_iterations == 1,
          "clamped settings");
    bad.aim_axis = v(0.0, 0.0, 0.0);
    AimInstance broken;
    CHECK(broken.prepare(aim_settings(bad), n) == SINEW_STATUS_INVALID_ARGUMENT, "zero aim axis rejected");
}

// ============================================================================== multi-effector FABRIK

/* An upper body in compact-pose order (Z up, cm), 1e5 cm from the origin: 0 pelvis, 1 spine,
 * 2 chest, 3 head (not in the tree), 4-6 left arm to hand, 7-9 right arm to hand. */
static const int32_t kBodyParents[10] = {-1, 0, 1, 2, 2, 4, 5, 2, 7, 8};

static std::vector<DTransform> body_locals(double turn)
{
    const DVec3 offsets[10] = {v(1e5, 0, 100), v(0, 0, 20), v(0, 0, 25), v(0, 0, 15), v(0, 18, 10),
                               v(0, 30, 0),    v(0, 28, 0), v(0, -18, 10), v(0, -30, 0), v(0, -28, 0)};
    std::vector<DTransform> locals(10);
    for (int i = 0; i < 10; ++i) {
        // Each joint turned about its own axis by `turn` (a pose of the skeleton).
        const DVec3 axis = normalize(v(1.0 + i, 2.0 - i, 0.5 * i + 1.0));
        locals[i] = xf(offsets[i], quat_from_axis_angle(axis, turn * (i % 3 == 0 ? -0.5 : 0.7)));
    }
    return locals;
}

static std::vector<DTransform> forward_kinematics(const std::vector<DTransform>& locals, const int32_t* parents)
{
    std::vector<DTransform> model(locals.size());
    for (size_t i = 0; i < locals.size(); ++i) {
        model[i] = parents[i] < 0 ? locals[i] : compose(model[static_cast<size_t>(parents[i])], locals[i]);
    }
    return model;
}

static void test_multi_fabrik_mapping()
{
    section("multi-effector FABRIK property mapping");
    MultiFabrikNodeParams p;
    const SinewMultiFabrikSettings s = multi_fabrik_settings(p);
    CHECK(s.precision == 1.0f && s.relative_precision == 0 && s.max_iterations == 10 && s.stop_when_stalled == 1,
          "FABRIK's defaults, Precision absolute in cm (%g, %u, %u, %u)", s.precision, s.relative_precision,
          s.max_iterations, s.stop_when_stalled);
    CHECK(s.end_rotation == SINEW_END_ROTATION_KEEP_LOCAL, "KeepLocalSpaceRotation by default");
    p.effector_rotation_source = BoneRotationSource::KeepComponentSpaceRotation;
    CHECK(multi_fabrik_settings(p).end_rotation == SINEW_END_ROTATION_KEEP_MODEL, "KeepComponentSpaceRotation");
    p.effector_rotation_source = BoneRotationSource::CopyFromTarget;
    CHECK(multi_fabrik_settings(p).end_rotation == SINEW_END_ROTATION_COPY_EFFECTOR, "CopyFromTarget");
    p.max_iterations = 0;
    p.stop_when_stalled = false;
    CHECK(multi_fabrik_settings(p).max_iterations == 1 && multi_fabrik_settings(p).stop_when_stalled == 0,
          "at least one iteration; stall rule off");

    CHECK(effector_weight(0.25) == 0.25f && effector_weight(3.0) == 3.0f, "weights pass through");
    CHECK(effector_weight(-1.0) == 0.0f && effector_weight(NAN) == 0.0f, "negative and NaN weights are 0");
    EffectorGoal goals[2];
    goals[0].weight = 0.0;
    goals[1].weight = -2.0;
    CHECK(!multi_fabrik_has_effect(goals, 2), "no goal pulls: the node passes the pose through");
    goals[1].weight = 0.1;
    CHECK(multi_fabrik_has_effect(goals, 2), "one goal pulls");
}

static void test_collect_tree()
{
    section("tree collection (root to several tips)");
    const auto parent_of = [](int32_t bone) { return kBodyParents[bone]; };
    int32_t bones[10];
    int32_t parents[10];
    uint32_t slots[2];
    const int32_t tips[2] = {9, 6};
    const size_t n = collect_tree(0, tips, 2, parent_of, bones, parents, slots, 10);
    const int32_t want_bones[9] = {0, 1, 2, 4, 5, 6, 7, 8, 9};
    const int32_t want_parents[9] = {-1, 0, 1, 2, 3, 4, 2, 6, 7};
    CHECK(n == 9, "9 bones (the head is not in the tree): %zu", n);
    CHECK(n == 9 && std::memcmp(bones, want_bones, sizeof want_bones) == 0, "sorted by index, parents first");
    CHECK(n == 9 && std::memcmp(parents, want_parents, sizeof want_parents) == 0, "parents as slots");
    CHECK(slots[0] == 8 && slots[1] == 5, "tip slots in the tips' order (%u, %u)", slots[0], slots[1]);

    const int32_t from_chest[2] = {6, 9};
    CHECK(collect_tree(2, from_chest, 2, parent_of, bones, parents, slots, 10) == 7 && bones[0] == 2 &&
              parents[0] == -1 && parents[1] == 0 && parents[4] == 0,
          "a tree rooted at the chest");
    const int32_t head_and_hand[2] = {3, 6};
    CHECK(collect_tree(4, head_and_hand, 2, parent_of, bones, parents, slots, 10) == 0, "a tip not below the root");
    const int32_t root_tip[1] = {0};
    CHECK(collect_tree(0, root_tip, 1, parent_of, bones, parents, slots, 10) == 0, "the root as a tip");
    CHECK(collect_tree(0, tips, 2, parent_of, bones, parents, slots, 8) == 0, "a tree that does not fit");
    const int32_t negative[1] = {-1};
    CHECK(collect_tree(0, negative, 1, parent_of, bones, parents, slots, 10) == 0, "a missing bone");
}

/* The node's path: the tree of the body, its skeleton, and a solve in doubles toward goals that
 * are the hands' places in another pose (so reachable), 1e5 cm from the origin. */
static void test_multi_fabrik_solve()
{
    section("multi-effector FABRIK solve in doubles");
    const auto parent_of = [](int32_t bone) { return kBodyParents[bone]; };
    const int32_t tips[2] = {6, 9};
    int32_t bones[10];
    int32_t parents[10];
    uint32_t slots[2];
    const uint32_t n = static_cast<uint32_t>(collect_tree(0, tips, 2, parent_of, bones, parents, slots, 10));
    CHECK(n == 9, "tree of 9");
    std::vector<SinewTransform> scratch(n);
    TreeSkeleton skeleton;
    CHECK_OK(skeleton.build(parents, n, scratch.data()));

    const std::vector<DTransform> rest = forward_kinematics(body_locals(0.0), kBodyParents);
    const std::vector<DTransform> goal_pose = forward_kinematics(body_locals(0.4), kBodyParents);
    std::vector<DTransform> in(n);
    for (uint32_t i = 0; i < n; ++i) {
        in[i] = rest[static_cast<size_t>(bones[i])];
    }
    EffectorGoal goals[2];
    goals[0].position = goal_pose[6].translation;
    goals[1].position = goal_pose[9].translation;
    goals[1].rotation = goal_pose[9].rotation;
    goals[1].use_rotation = true;

    MultiFabrikNodeParams p;
    p.precision = 0.01f;
    p.max_iterations = 30;
    MultiFabrikInstance solver;
    CHECK_OK(solver.prepare(multi_fabrik_settings(p), n, 2));
    SinewEffectorTarget targets[2];
    SinewIkResult results[2];
    std::vector<DTransform> out(n);
    CHECK_OK(solve_multi_fabrik(solver.get(), skeleton.get(), in.data(), n, 0, slots, 2, goals, targets,
                                scratch.data(), out.data(), results));
    for (int k = 0; k < 2; ++k) {
        const double d = distance(out[slots[k]].translation, goals[k].position);
        CHECK(d < 0.01 && results[k].reached == 1, "hand %d within 0.01 cm, 1e5 cm from the origin (%g cm)", k, d);
    }
    CHECK(angle_between(out[slots[1]].rotation, goals[1].rotation) < 1e-5, "the right hand takes its goal's rotation");
    CHECK(std::memcmp(&out[0].translation, &in[0].translation, sizeof(DVec3)) == 0,
          "the root stays where it was, bit for bit");
    double worst = 0.0;
    for (uint32_t i = 1; i < n; ++i) {
        const uint32_t up = static_cast<uint32_t>(parents[i]);
        const double before = distance(in[i].translation, in[up].translation);
        const double after = distance(out[i].translation, out[up].translation);
        worst = std::fmax(worst, std::fabs(after - before));
    }
    CHECK(worst < 1e-3, "bone lengths kept within 1e-3 cm (%g)", worst);

    // Weight 0: the left arm pulls nothing and keeps its input local rotations.
    goals[0].position = goals[0].position + v(500, 0, 0);
    goals[0].weight = 0.0;
    CHECK_OK(solve_multi_fabrik(solver.get(), skeleton.get(), in.data(), n, 0, slots, 2, goals, targets,
                                scratch.data(), out.data(), results));
    double turned = 0.0;
    for (uint32_t i = 3; i <= 5; ++i) {
        const uint32_t up = static_cast<uint32_t>(parents[i]);
        turned = std::fmax(turned, angle_between(relative(in[up], in[i]).rotation, relative(out[up], out[i]).rotation));
    }
    CHECK(turned < 1e-5, "the unweighted arm keeps its locals (%g rad)", turned);
    CHECK(distance(out[slots[1]].translation, goals[1].position) < 0.01, "the weighted hand still reaches");

    // Errors leave the output untouched.
    std::vector<DTransform> kept(n, xf(v(7, 7, 7)));
    goals[1].position = v(NAN, 0, 0);
    const SinewStatus st = solve_multi_fabrik(solver.get(), skeleton.get(), in.data(), n, 0, slots, 2, goals, targets,
                                              scratch.data(), kept.data(), results);
    CHECK(st == SINEW_STATUS_NON_FINITE, "NaN goal: %s", status_name(st));
    CHECK(kept[0].translation.x == 7.0 && kept[n - 1].translation.z == 7.0, "output untouched");
    goals[1].position = goal_pose[9].translation;
    goals[0].weight = 0.0;
    goals[1].weight = 0.0;
    CHECK(!multi_fabrik_has_effect(goals, 2), "all weights 0: the node skips the solve");
    CHECK(solve_multi_fabrik(solver.get(), skeleton.get(), in.data(), n, 0, slots, 2, goals, targets, scratch.data(),
                             kept.data(), results) == SINEW_STATUS_INVALID_ARGUMENT,
          "which Sinew would refuse");
    CHECK(solve_multi_fabrik(solver.get(), skeleton.get(), in.data(), n, n, slots, 2, goals, targets, scratch.data(),
                             kept.data(), results) == SINEW_STATUS_OUT_OF_RANGE,
          "a root slot out of range");

    // The solver grows for a larger tree or more effectors, and copies hold nothing.
    SinewMultiFabrik* first = solver.get();
    CHECK_OK(solver.prepare(multi_fabrik_settings(p), 4, 1));
    CHECK(solver.get() == first && solver.capacity() == n && solver.effector_capacity() == 2, "smaller trees reuse it");
    CHECK_OK(solver.prepare(multi_fabrik_settings(p), n, 3));
    CHECK(solver.effector_capacity() == 3 && solver.get() != nullptr, "recreated for more effectors");
    MultiFabrikInstance copy = solver;
    TreeSkeleton skeleton_copy = skeleton;
    CHECK(copy.get() == nullptr && skeleton_copy.get() == nullptr && skeleton.get() != nullptr,
          "copies hold no handle");
}

static void test_output_sorted()
{
    section("FBoneTransform-like output sorted by bone index");
    const int32_t idx[] = {7, 3, 5, 3, -1, 9, 1};
    DTransform t[7];
    for (int i = 0; i < 7; ++i) {
        t[i] = xf(v(i, 0, 0));
    }
    BoneTransformOut out[7];
    const size_t n = build_bone_transforms(idx, t, 7, out);
    CHECK(n == 5, "5 unique valid bones, got %zu", n);
    const int32_t want[] = {1, 3, 5, 7, 9};
    bool sorted = n == 5;
    for (size_t i = 0; i < n && i < 5; ++i) {
        sorted = sorted && out[i].bone_index == want[i];
    }
    CHECK(sorted, "order 1 3 5 7 9");
    CHECK(out[1].transform.translation.x == 3.0, "a repeated bone keeps its last transform");
    CHECK(out[0].transform.translation.x == 6.0 && out[4].transform.translation.x == 5.0, "transforms travel with indices");

    CHECK(build_bone_transforms(idx, t, 0, out) == 0, "empty");
}

static void test_collect_chain()
{
    section("chain collection (root to tip)");
    //            0   1  2  3  4  5  6
    const int32_t parents[] = {-1, 0, 1, 0, 2, 4, 3};
    const auto parent_of = [&](int32_t i) { return parents[i]; };
    int32_t out[8];
    size_t n = collect_chain(1, 5, parent_of, out, 8);
    CHECK(n == 4 && out[0] == 1 && out[1] == 2 && out[2] == 4 && out[3] == 5, "1 2 4 5 (n %zu)", n);
    CHECK(collect_chain(1, 6, parent_of, out, 8) == 0, "tip outside the root's subtree");
    CHECK(collect_chain(1, 5, parent_of, out, 3) == 0, "does not fit");
    n = collect_chain(2, 2, parent_of, out, 8);
    CHECK(n == 1 && out[0] == 2, "root is the tip");
    CHECK(collect_chain(-1, 5, parent_of, out, 8) == 0, "invalid root");
}

static void test_hand_ik()
{
    section("HandIKRetargeting in doubles");
    // Compact pose indices as the engine would give them; positions 1e5 cm from the origin.
    const DVec3 o = v(-100000.0, 100000.0, 0.0);
    struct Bone {
        int32_t index;
        DVec3 at;
    };
    const Bone right_fk{20, o + v(40.0, -30.0, 120.0)};
    const Bone left_fk{21, o + v(40.0, 30.0, 121.0)};
    const Bone right_ik{4, o + v(42.5, -31.0, 118.0)};
    const Bone left_ik{9, o + v(41.0, 28.0, 119.5)};
    const Bone ik_root{2, o + v(0.0, 0.0, 0.0)};
    const Bone all[] = {right_fk, left_fk, right_ik, left_ik, ik_root};
    const auto position_of = [&](int32_t index) {
        for (const Bone& b : all) {
            if (b.index == index) {
                return b.at;
            }
        }
        return DVec3{};
    };
    // IKBonesToMove, unsorted and with a duplicate: the IK hands themselves and the IK root.
    const int32_t to_move[] = {9, 2, 4, 9};

    HandIkNodeParams p;
    p.hand_fk_weight = 0.25f;
    p.per_axis_alpha = v(1.0, 0.5, 1.0);
    HandIkInstance node;
    CHECK_OK(node.prepare(hand_ik_settings(p)));

    int32_t slots_storage[8];
    DenseBoneSet set(slots_storage, 8);
    SinewHandJoints hands;
    hands.right_fk = static_cast<uint32_t>(set.add(right_fk.index));
    hands.left_fk = static_cast<uint32_t>(set.add(left_fk.index));
    hands.right_ik = static_cast<uint32_t>(set.add(right_ik.index));
    hands.left_ik = static_cast<uint32_t>(set.add(left_ik.index));
    uint32_t bones[4];
    uint32_t bone_count = 0;
    for (int32_t b : to_move) {
        const int32_t slot = set.add(b);
        bool seen = false;
        for (uint32_t k = 0; k < bone_count; ++k) {
            seen = seen || bones[k] == static_cast<uint32_t>(slot);
        }
        if (!seen) {
            bones[bone_count++] = static_cast<uint32_t>(slot);
        }
    }
    CHECK(set.size() == 5 && bone_count == 3, "5 distinct bones, 3 to move (%u, %u)", set.size(), bone_count);
    CHECK(set.add(-1) == -1, "negative index rejected");

    std::vector<DTransform> model(set.size());
    for (uint32_t i = 0; i < set.size(); ++i) {
        model[i] = xf(position_of(set.bones()[i]), quat_from_axis_angle(v(0, 0, 1), 0.1 * i));
    }
    const std::vector<DTransform> before = model;
    std::vector<SinewTransform> scratch(model.size());
    DVec3 offset;
    CHECK_OK(apply_hand_ik_retargeting(node.get(), model.data(), set.size(), hands, bones, bone_count, scratch.data(),
                                       &offset));

    const double w = 0.25;
    const DVec3 fk = left_fk.at + (right_fk.at - left_fk.at) * w;
    const DVec3 ik = left_ik.at + (right_ik.at - left_ik.at) * w;
    const DVec3 want = (fk - ik) * v(1.0, 0.5, 1.0);
    CHECK(distance(offset, want) < 1e-5, "offset (%g %g %g) vs (%g %g %g)", offset.x, offset.y, offset.z, want.x, want.y,
          want.z);

    // Output for the moved bones, as the node builds it.
    int32_t out_indices[4];
    DTransform out_transforms[4];
    for (uint32_t k = 0; k < bone_count; ++k) {
        out_indices[k] = set.bones()[bones[k]];
        out_transforms[k] = model[bones[k]];
    }
    BoneTransformOut out[4];
    const size_t n = build_bone_transforms(out_indices, out_transforms, bone_count, out);
    CHECK(n == 3 && out[0].bone_index == 2 && out[1].bone_index == 4 && out[2].bone_index == 9,
          "sorted unique output 2 4 9");
    for (size_t k = 0; k < n; ++k) {
        const DVec3 moved = out[k].transform.translation - position_of(out[k].bone_index);
        CHECK(distance(moved, want) < 1e-5, "bone %d moved by the offset once (error %g cm)", out[k].bone_index,
              distance(moved, want));
    }
    for (uint32_t i = 0; i < set.size(); ++i) {
        CHECK(std::memcmp(&model[i].rotation, &before[i].rotation, sizeof(DQuat)) == 0, "rotation %u untouched", i);
    }
    CHECK(same_bits_d(model[hands.right_fk], before[hands.right_fk]), "FK hands untouched, exactly");
}

static int g_fake_destroyed = 0;
struct Fake {
    int id;
};
static void fake_destroy(Fake* f)
{
    ++g_fake_destroyed;
    delete f;
}

struct FakeTraits {
    static constexpr auto destroy = &fake_destroy;
};

static void test_handles()
{
    section("copy-safe handles");
    using Holder = CopyResetHandle<Fake, FakeTraits>;
    {
        Holder a(new Fake{1});
        Holder b(a);
        CHECK(a.get() != nullptr && b.get() == nullptr, "a copy starts empty");
        Holder c(new Fake{2});
        c = a;
        CHECK(g_fake_destroyed == 1 && c.get() == nullptr && a.get() != nullptr, "assignment releases, shares nothing");
        Holder d(static_cast<Holder&&>(a));
        CHECK(a.get() == nullptr && d.get() != nullptr && d.get()->id == 1, "move transfers");
        d = d;
        CHECK(d.get() != nullptr, "self-assignment keeps the handle");
    }
    CHECK(g_fake_destroyed == 2, "every handle destroyed exactly once (%d)", g_fake_destroyed);

    TwoBoneIkInstance node;
    CHECK(node.get() == nullptr, "lazy: no handle before first use");
    SinewTwoBoneIkSettings s = two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine);
    CHECK_OK(node.prepare(s));
    SinewTwoBoneIk* first = node.get();
    CHECK(first != nullptr, "created on first use");
    CHECK_OK(node.prepare(s));
    CHECK(node.get() == first, "same settings keep the handle");
    s.allow_stretching = 1;
    CHECK_OK(node.prepare(s));
    SinewTwoBoneIkSettings got;
    CHECK_OK(sinew_two_bone_ik_get_settings(node.get(), &got));
    CHECK(node.get() == first && got.allow_stretching == 1, "changed settings pushed to the same handle");
    SinewTwoBoneIkSettings bad = s;
    bad.weight = 2.0f;
    CHECK(node.prepare(bad) == SINEW_STATUS_INVALID_ARGUMENT, "invalid settings rejected");
    CHECK_OK(sinew_two_bone_ik_get_settings(node.get(), &got));
    CHECK(got.allow_stretching == 1 && got.weight == 1.0f, "previous settings stay after a rejection");

    TwoBoneIkInstance copy(node);
    CHECK(copy.get() == nullptr && node.get() == first, "a copied node has no handle");
    CHECK_OK(copy.prepare(s));
    CHECK(copy.get() != nullptr && copy.get() != first, "the copy creates its own");
    TwoBoneIkInstance assigned;
    CHECK_OK(assigned.prepare(s));
    assigned = node;
    CHECK(assigned.get() == nullptr, "assignment drops the handle");

    FabrikInstance fabrik;
    const SinewFabrikSettings fs = fabrik_settings(FabrikNodeParams{});
    CHECK_OK(fabrik.prepare(fs, 3));
    CHECK(fabrik.capacity() == 3, "capacity 3");
    SinewFabrik* small = fabrik.get();
    CHECK_OK(fabrik.prepare(fs, 6));
    CHECK(fabrik.capacity() == 6 && fabrik.get() != nullptr, "recreated for a longer chain (%p was %p)",
          static_cast<void*>(fabrik.get()), static_cast<void*>(small));
    SinewFabrik* big = fabrik.get();
    CHECK_OK(fabrik.prepare(fs, 4));
    CHECK(fabrik.capacity() == 6 && fabrik.get() == big, "shorter chains reuse it");
    FabrikInstance fabrik_copy = fabrik;
    CHECK(fabrik_copy.get() == nullptr && fabrik_copy.capacity() == 0, "copied chain solver is empty");
}

/* The module unloads the library at shutdown only when live_handle_count() is 0: it must count
 * every solver the nodes create, and count it out exactly once whichever way it goes. */
static void test_live_handles()
{
    section("live solver count (module shutdown)");
    const int64_t base = live_handle_count().load();
    CHECK(base == 0, "no solver alive between tests (%lld)", static_cast<long long>(base));
    const SinewTwoBoneIkSettings s = two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine);
    const SinewFabrikSettings fs = fabrik_settings(FabrikNodeParams{});
    {
        TwoBoneIkInstance a;
        CHECK(live_handle_count().load() == base, "lazy: nothing counted before first use");
        CHECK_OK(a.prepare(s));
        TwoBoneIkInstance b(a);
        CHECK(live_handle_count().load() == base + 1, "a copy holds nothing");
        CHECK_OK(b.prepare(s));
        TwoBoneIkInstance moved(static_cast<TwoBoneIkInstance&&>(a));
        CHECK(live_handle_count().load() == base + 2, "two solvers, a move counts nothing");
        FabrikInstance chain;
        CHECK_OK(chain.prepare(fs, 3));
        CHECK_OK(chain.prepare(fs, 8));
        CHECK(live_handle_count().load() == base + 3, "recreating for a longer chain keeps one");
        TreeSkeleton tree;
        const int32_t parents[2] = {-1, 0};
        SinewTransform scratch[2];
        CHECK_OK(tree.build(parents, 2, scratch));
        CHECK(live_handle_count().load() == base + 4, "a tree's skeleton counts");
        CHECK(tree.build(parents, 0, scratch) != SINEW_STATUS_OK && live_handle_count().load() == base + 3,
              "a failed rebuild releases the old skeleton");
        b.reset();
        CHECK(live_handle_count().load() == base + 2, "reset counts out");
        moved = b;
        CHECK(live_handle_count().load() == base + 1, "assigning over a holder counts out");
    }
    CHECK(live_handle_count().load() == base, "every solver counted out once (%lld)",
          static_cast<long long>(live_handle_count().load()));
}

static void test_errors()
{
    section("errors leave the output untouched");
    const std::vector<DTransform> in = chain_through({v(0, 0, 100), v(30, 0, 100), v(55, 0, 100)});
    TwoBoneIkInstance ik;
    CHECK_OK(ik.prepare(two_bone_ik_settings(TwoBoneIkNodeParams{}, AlphaMode::AppliedByEngine)));
    DTransform out[3];
    for (DTransform& t : out) {
        t = xf(v(7, 7, 7));
    }
    const DVec3 bad = v(NAN, 0.0, 0.0);
    const SinewStatus st = solve_two_bone_ik(ik.get(), in.data(), bad, nullptr, nullptr, out, nullptr);
    CHECK(st == SINEW_STATUS_NON_FINITE, "NaN effector: %s", status_name(st));
    char msg[256];
    last_error_message(msg, sizeof msg);
    CHECK(std::strlen(msg) > 0, "message: %s", msg);
    CHECK(out[0].translation.x == 7.0 && out[2].translation.z == 7.0, "output untouched");
    CHECK(abi_matches(), "library ABI %u, header %d", sinew_abi_version(), SINEW_ABI_VERSION);
}

int main()
{
    test_conversions();
    test_rebasing_precision();
    test_two_bone_mapping();
    test_two_bone_node_in_cm();
    test_alpha_equivalence();
    test_z_up_leg();
    test_chain_mapping();
    test_centimetre_tolerances();
    test_ccd_limits_hold();
    test_fabrik_copy_rotation();
    test_aim_node();
    test_multi_fabrik_mapping();
    test_collect_tree();
    test_multi_fabrik_solve();
    test_output_sorted();
    test_collect_chain();
    test_hand_ik();
    test_handles();
    test_live_handles();
    test_errors();
    summary_and_exit();
}
