/*
 * sinew_unreal.hpp: the engine-independent half of the SinewIK Unreal plugin.
 *
 * Header-only C++17 that depends only on "sinew.h" (the C ABI) and "sinew_handle.hpp" (the
 * handle ownership it shares with the C++ wrapper). It holds the logic of the plugin's anim
 * nodes that can be tested without an engine:
 *
 *   - value types standing in for Unreal's double-precision FVector / FQuat / FTransform
 *     (DVec3, DQuat, DTransform) and the small amount of transform math the nodes need;
 *   - the double -> float boundary: Unreal (UE5) poses are doubles, Sinew takes floats. Units are
 *     NOT converted (Sinew is unit-agnostic, so centimetres stay centimetres) and axes are NOT
 *     swapped (Sinew assumes no up axis; it solves in Unreal's Z-up frame as it is). Positions
 *     are rebased on the chain root before the cast (ChainFrame), so a character far from the
 *     component origin keeps sub-micrometre precision; components the solver leaves unchanged
 *     are passed back as the original doubles, bit for bit;
 *   - parameter mapping from the properties of Unreal's TwoBoneIK, FABRIK, CCDIK and
 *     HandIKRetargeting nodes (and Sinew's multi-effector FABRIK node) to Sinew settings
 *     (TwoBoneIkNodeParams and friends);
 *   - one-call solves in doubles (solve_two_bone_ik, solve_chain for FABRIK and CCD,
 *     solve_multi_fabrik over the tree collect_tree gathers, apply_hand_ik_retargeting) and the
 *     FBoneTransform-like output list, sorted by bone index
 *     as FCSPose::LocalBlendCSBoneTransforms requires (build_bone_transforms);
 *   - native handles that are created lazily and are NOT shared by copies (CopyResetHandle and
 *     SolverInstance): anim node structs are copied by the engine, and two nodes must never
 *     destroy the same solver; live_handle_count() tells the module whether any are alive.
 *
 * Nothing here throws, allocates on a solve path, or uses RTTI, so it can be included in an
 * Unreal module (exceptions off) as well as in plain C++ programs. Identifiers avoid the names of
 * Unreal's global macros (check, verify, ensure, PI, ...).
 *
 * Alpha: FAnimNode_SkeletalControlBase blends every node's output over its input by the node's
 * Alpha (in local space, FCSPose::LocalBlendCSBoneTransforms). A node deriving from it must
 * therefore solve at Sinew weight 1 (AlphaMode::AppliedByEngine); AlphaMode::AppliedBySinew
 * maps Alpha to Sinew's `weight` for callers that use Sinew without the engine's blend. Both give
 * the same pose (tests/cpp/unreal_logic_test.cpp checks it).
 */
#ifndef SINEW_UNREAL_HPP
#define SINEW_UNREAL_HPP

#include "sinew.h"
#include "sinew_handle.hpp"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sinew_unreal {

// ============================================================================== value types

/** Stand-in for Unreal's FVector (UE5: doubles). */
struct DVec3 {
    double x = 0.0;
    double y = 0.0;
    double z = 0.0;
};

/** Stand-in for Unreal's FQuat (UE5: doubles), {x, y, z, w} as in Unreal and Sinew. */
struct DQuat {
    double x = 0.0;
    double y = 0.0;
    double z = 0.0;
    double w = 1.0;
};

/** Stand-in for Unreal's FTransform: rotation, translation, per-axis scale. */
struct DTransform {
    DQuat rotation;
    DVec3 translation;
    DVec3 scale{1.0, 1.0, 1.0};
};

// ============================================================================== vector math

inline DVec3 operator+(const DVec3& a, const DVec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline DVec3 operator-(const DVec3& a, const DVec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline DVec3 operator*(const DVec3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
/** Component-wise product (Unreal's FVector * FVector). */
inline DVec3 operator*(const DVec3& a, const DVec3& b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
inline double dot(const DVec3& a, const DVec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline DVec3 cross(const DVec3& a, const DVec3& b)
{
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double length(const DVec3& a) { return std::sqrt(dot(a, a)); }
inline double distance(const DVec3& a, const DVec3& b) { return length(a - b); }
inline bool is_finite(const DVec3& a)
{
    return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
}
/** Unreal's FVector::IsNearlyZero: every component within `tolerance` of zero. */
inline bool is_nearly_zero(const DVec3& a, double tolerance = 1e-4)
{
    return std::fabs(a.x) <= tolerance && std::fabs(a.y) <= tolerance && std::fabs(a.z) <= tolerance;
}

// ============================================================================== quaternion math

inline DQuat operator*(const DQuat& a, const DQuat& b)
{
    return {
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    };
}
inline DQuat conjugate(const DQuat& q) { return {-q.x, -q.y, -q.z, q.w}; }
inline double dot(const DQuat& a, const DQuat& b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
inline bool is_finite(const DQuat& q)
{
    return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}
/** Unit quaternion; a zero or non-finite one is returned unchanged (the solver rejects it). */
inline DQuat normalized(const DQuat& q)
{
    const double n = std::sqrt(dot(q, q));
    if (!(n > 0.0) || !std::isfinite(n)) {
        return q;
    }
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}
/** Rotation of `angle` radians about the unit `axis` (Unreal's FQuat(Axis, Angle)). */
inline DQuat quat_from_axis_angle(const DVec3& axis, double angle)
{
    const double s = std::sin(angle * 0.5);
    return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle * 0.5)};
}
/** Rotates `v` by the unit quaternion `q` (Unreal's FQuat::RotateVector). */
inline DVec3 rotate(const DQuat& q, const DVec3& v)
{
    const DVec3 u{q.x, q.y, q.z};
    const DVec3 t = cross(u, v) * 2.0;
    return v + t * q.w + cross(u, t);
}
/** Angle in radians between two rotations (0 for q and -q). */
inline double angle_between(const DQuat& a, const DQuat& b)
{
    double d = std::fabs(dot(normalized(a), normalized(b)));
    d = d > 1.0 ? 1.0 : d;
    return 2.0 * std::acos(d);
}

// ============================================================================== transforms

/**
 * `parent` applied after `local`: the model-space transform of a child whose local transform
 * is `local` (Unreal writes this `Local * Parent`). Scale composes per axis, as Sinew does.
 */
inline DTransform compose(const DTransform& parent, const DTransform& local)
{
    DTransform out;
    out.rotation = normalized(parent.rotation * local.rotation);
    out.translation = parent.translation + rotate(parent.rotation, parent.scale * local.translation);
    out.scale = parent.scale * local.scale;
    return out;
}

/** The local transform of `child` relative to `parent` (Unreal's Child.GetRelativeTransform(Parent)). */
inline DTransform relative(const DTransform& parent, const DTransform& child)
{
    const DQuat inv = conjugate(normalized(parent.rotation));
    const DVec3 d = rotate(inv, child.translation - parent.translation);
    const auto div = [](double a, double b) { return b != 0.0 ? a / b : 0.0; };
    DTransform out;
    out.rotation = normalized(inv * child.rotation);
    out.translation = {div(d.x, parent.scale.x), div(d.y, parent.scale.y), div(d.z, parent.scale.z)};
    out.scale = {div(child.scale.x, parent.scale.x), div(child.scale.y, parent.scale.y),
                 div(child.scale.z, parent.scale.z)};
    return out;
}

// ============================================================================== double <-> float

/** Casts to float; no unit or axis change. */
inline SinewVec3 to_sinew(const DVec3& v)
{
    return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
}
/** Normalizes in double, then casts to float. */
inline SinewQuat to_sinew(const DQuat& q)
{
    const DQuat n = normalized(q);
    return {static_cast<float>(n.x), static_cast<float>(n.y), static_cast<float>(n.z),
            static_cast<float>(n.w)};
}
inline DVec3 to_double(const SinewVec3& v) { return {v.x, v.y, v.z}; }
/** Widens to double and renormalizes there (FTransform expects unit rotations). */
inline DQuat to_double(const SinewQuat& q) { return normalized(DQuat{q.x, q.y, q.z, q.w}); }

inline bool same_bits(const SinewVec3& a, const SinewVec3& b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(const SinewQuat& a, const SinewQuat& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/**
 * A float frame for one solve: model-space positions relative to `origin` (normally the chain
 * root's component-space position). Floats have 24 bits of mantissa: at 1e5 cm from the
 * component origin their spacing is 0.0078 cm, while relative to the root of an arm it is below
 * 1e-5 cm. Rotations and scales need no rebasing.
 */
class ChainFrame {
public:
    ChainFrame() = default;
    explicit ChainFrame(const DVec3& origin) : origin_(origin) {}

    const DVec3& origin() const { return origin_; }

    SinewVec3 point_to_sinew(const DVec3& p) const { return to_sinew(p - origin_); }
    DVec3 point_from_sinew(const SinewVec3& p) const { return to_double(p) + origin_; }

    SinewTransform to_sinew_transform(const DTransform& t) const
    {
        SinewTransform s;
        s.translation = point_to_sinew(t.translation);
        s.rotation = to_sinew(t.rotation);
        s.scale = to_sinew(t.scale);
        return s;
    }

    /**
     * The solved transform in doubles. Each of rotation, translation and scale that the solver
     * left bit-identical to `original`'s float image keeps `original`'s double value exactly,
     * so bones the solve does not move do not pick up float rounding.
     */
    DTransform from_sinew_transform(const SinewTransform& solved, const DTransform& original) const
    {
        const SinewTransform before = to_sinew_transform(original);
        DTransform out = original;
        if (!same_bits(solved.translation, before.translation)) {
            out.translation = point_from_sinew(solved.translation);
        }
        if (!same_bits(solved.rotation, before.rotation)) {
            out.rotation = to_double(solved.rotation);
        }
        if (!same_bits(solved.scale, before.scale)) {
            out.scale = to_double(solved.scale);
        }
        return out;
    }

private:
    DVec3 origin_;
};

// ============================================================================== node parameters

/** Unreal's EBoneControlSpace (same order and values). */
enum class BoneControlSpace : uint8_t { World = 0, Component = 1, ParentBone = 2, Bone = 3 };

/** Unreal's EBoneRotationSource (same order and values). */
enum class BoneRotationSource : uint8_t {
    KeepComponentSpaceRotation = 0,
    KeepLocalSpaceRotation = 1,
    CopyFromTarget = 2,
};

/** Who applies the node's Alpha. */
enum class AlphaMode {
    /** FAnimNode_SkeletalControlBase blends the output by Alpha: solve at weight 1. */
    AppliedByEngine,
    /** Sinew blends (its `weight`), for use outside the engine's skeletal-control base. */
    AppliedBySinew,
};

/** Clamps to [lo, hi]; NaN gives `fallback`. */
inline float clamp_or(double v, double lo, double hi, double fallback)
{
    if (!(v == v)) {
        return static_cast<float>(fallback);
    }
    return static_cast<float>(v < lo ? lo : (v > hi ? hi : v));
}

/** Smallest start stretch ratio passed to Sinew (which needs it positive). */
constexpr double kMinStartStretchRatio = 1e-6;

/**
 * The properties of FAnimNode_TwoBoneIK that shape the solve, with Unreal's defaults, plus
 * Sinew's extensions (soften, pole_weight; defaults leave Unreal's behaviour).
 */
struct TwoBoneIkNodeParams {
    float alpha = 1.0f;
    bool allow_stretching = false;
    double start_stretch_ratio = 1.0;
    double max_stretch_scale = 1.2;
    /** Honoured only when the effector is in bone or parent-bone space, as in Unreal. */
    bool take_rotation_from_effector_space = false;
    bool maintain_effector_rel_rot = false;
    /** Unreal's bAllowTwist (default true); false keeps the lower limb's twist (Sinew keep_twist). */
    bool allow_twist = true;
    BoneControlSpace effector_location_space = BoneControlSpace::Component;
    float soften = 1.0f;
    float pole_weight = 1.0f;
};

/** True when the end bone copies the effector rotation (Unreal: bone spaces only). */
inline bool two_bone_copies_effector_rotation(const TwoBoneIkNodeParams& p)
{
    const bool bone_space = p.effector_location_space == BoneControlSpace::Bone ||
                            p.effector_location_space == BoneControlSpace::ParentBone;
    return bone_space && p.take_rotation_from_effector_space;
}

/**
 * Sinew settings for a TwoBoneIK node. Out-of-domain values are mapped to the Unreal behaviour
 * they produce: MaxStretchScale below 1 never stretches (so it becomes 1), StartStretchRatio 0
 * becomes a tiny positive ratio, Alpha is clamped to [0, 1] as the engine clamps it.
 */
inline SinewTwoBoneIkSettings two_bone_ik_settings(const TwoBoneIkNodeParams& p, AlphaMode alpha_mode)
{
    SinewTwoBoneIkSettings s;
    sinew_two_bone_ik_settings_default(&s);
    s.weight = alpha_mode == AlphaMode::AppliedBySinew ? clamp_or(p.alpha, 0.0, 1.0, 0.0) : 1.0f;
    s.allow_stretching = p.allow_stretching ? 1u : 0u;
    s.start_stretch_ratio = clamp_or(p.start_stretch_ratio, kMinStartStretchRatio, 1e30, 1.0);
    s.max_stretch_scale = clamp_or(p.max_stretch_scale, 1.0, 1e30, 1.2);
    if (two_bone_copies_effector_rotation(p)) {
        s.end_rotation = SINEW_END_ROTATION_COPY_EFFECTOR;
    } else if (p.maintain_effector_rel_rot) {
        s.end_rotation = SINEW_END_ROTATION_KEEP_LOCAL;
    } else {
        s.end_rotation = SINEW_END_ROTATION_KEEP_MODEL;
    }
    s.soften = clamp_or(p.soften, 1e-6, 1.0, 1.0);
    s.keep_twist = p.allow_twist ? 0u : 1u;
    s.pole_weight = clamp_or(p.pole_weight, 0.0, 1.0, 1.0);
    return s;
}

/** Unreal's EffectorRotationSource as Sinew's end rotation. */
inline int32_t end_rotation_for(BoneRotationSource source)
{
    switch (source) {
    case BoneRotationSource::KeepComponentSpaceRotation:
        return SINEW_END_ROTATION_KEEP_MODEL;
    case BoneRotationSource::CopyFromTarget:
        return SINEW_END_ROTATION_COPY_EFFECTOR;
    case BoneRotationSource::KeepLocalSpaceRotation:
    default:
        return SINEW_END_ROTATION_KEEP_LOCAL;
    }
}

/**
 * The solver properties FAnimNode_Fabrik and FAnimNode_CCDIK share, with Unreal's defaults.
 * Precision is an absolute distance in the pose's units (centimetres), not Sinew's default
 * relative tolerance.
 */
struct ChainNodeParams {
    float precision = 1.0f;
    int32_t max_iterations = 10;
    /** Sinew extension: stop when an iteration (a CCD sweep) gains less than 0.1 %. */
    bool stop_when_stalled = true;
};

/** FAnimNode_Fabrik's properties. */
struct FabrikNodeParams : ChainNodeParams {
    BoneRotationSource effector_rotation_source = BoneRotationSource::KeepLocalSpaceRotation;
};

/** FAnimNode_CCDIK's properties (limits are passed separately). */
struct CcdNodeParams : ChainNodeParams {
    bool start_from_tail = true;
    bool enable_rotation_limit = false;
    /** Sinew extension: let the chain's root bone rotate too (Unreal's node never does). */
    bool rotate_root = false;
};

/** As Unreal's IsValidToEvaluate: Precision must be positive; at least one iteration. */
inline bool chain_params_valid(float precision, int32_t max_iterations)
{
    return precision > 0.0f && std::isfinite(precision) && max_iterations >= 1;
}

/** The FABRIK or CCD settings (by solver type) of the shared properties, from the defaults. */
template <class Native>
inline typename sinew::HandleTraits<Native>::Settings chain_settings(const ChainNodeParams& p)
{
    typename sinew::HandleTraits<Native>::Settings s;
    sinew::HandleTraits<Native>::settings_default(&s);
    s.precision = p.precision;
    s.relative_precision = 0;
    s.max_iterations = p.max_iterations < 1 ? 1u : static_cast<uint32_t>(p.max_iterations);
    s.stop_when_stalled = p.stop_when_stalled ? 1u : 0u;
    return s;
}

inline SinewFabrikSettings fabrik_settings(const FabrikNodeParams& p)
{
    SinewFabrikSettings s = chain_settings<SinewFabrik>(p);
    s.end_rotation = end_rotation_for(p.effector_rotation_source);
    return s;
}

/**
 * CCD settings: the root fixed as in Unreal's node (unless rotate_root), the tip keeping its
 * local rotation (Unreal's CCDIK carries the tip with its parent).
 */
inline SinewCcdSettings ccd_settings(const CcdNodeParams& p)
{
    SinewCcdSettings s = chain_settings<SinewCcd>(p);
    s.start_from_tail = p.start_from_tail ? 1u : 0u;
    s.fix_root = p.rotate_root ? 0u : 1u;
    s.end_rotation = SINEW_END_ROTATION_KEEP_LOCAL;
    return s;
}

/**
 * Chain joint `joint`'s rotation limit in degrees for sinew_ccd_set_joint, from Unreal's
 * bEnableRotationLimit and RotationLimitPerJoints (index 0 is the root). Disabled limits, joints
 * past the end of the array and non-finite entries are unlimited (180); others are clamped to
 * [0, 180].
 */
inline float ccd_rotation_limit_degrees(bool enable_rotation_limit, const float* limits, size_t limit_count,
                                        size_t joint)
{
    if (!enable_rotation_limit || limits == nullptr || joint >= limit_count || !std::isfinite(limits[joint])) {
        return 180.0f;
    }
    return clamp_or(limits[joint], 0.0, 180.0, 180.0);
}

/**
 * The Sinew Aim node's properties: Unreal's LookAt defaults where it has them (aim along X; up
 * along Z, Unreal being Z-up), Sinew's elsewhere. Angles in degrees, tolerance in radians.
 */
struct AimNodeParams {
    DVec3 aim_axis{1.0, 0.0, 0.0};
    DVec3 up_axis{0.0, 0.0, 1.0};
    /** Aim origin in the tip bone's frame (centimetres): eyes, a muzzle. */
    DVec3 aim_offset{0.0, 0.0, 0.0};
    bool up_is_position = false;
    float max_angle_degrees = 180.0f;
    float tolerance = 1e-4f;
    int32_t max_iterations = 16;
};

/**
 * Sinew aim settings from the node's properties: angles clamped to [0, 180], a non-positive or
 * non-finite tolerance 1e-4, at least one pass. Axes pass as they are (the library rejects a
 * zero aim axis or an up axis along it, and the node reports it).
 */
inline SinewAimIkSettings aim_settings(const AimNodeParams& p)
{
    SinewAimIkSettings s;
    sinew_aim_ik_settings_default(&s);
    s.aim_axis = to_sinew(p.aim_axis);
    s.up_axis = to_sinew(p.up_axis);
    s.aim_offset = to_sinew(p.aim_offset);
    s.up_is_position = p.up_is_position ? 1u : 0u;
    s.max_angle_degrees = clamp_or(p.max_angle_degrees, 0.0, 180.0, 180.0);
    s.tolerance = p.tolerance > 0.0f && std::isfinite(p.tolerance) ? p.tolerance : 1e-4f;
    s.max_iterations = p.max_iterations < 1 ? 1u : static_cast<uint32_t>(p.max_iterations);
    return s;
}

/**
 * Sets every chain joint's aim weight and limit from the node's arrays (index 0 is the root):
 * entries past an array's end, and non-finite ones, are the defaults (weight 1, 180 degrees);
 * weights below 0 are 0, limits clamped to [0, 180].
 */
inline SinewStatus apply_aim_joints(SinewAimIk* solver, uint32_t joint_count, const float* weights,
                                    size_t weight_count, const float* limits, size_t limit_count)
{
    for (uint32_t j = 0; j < joint_count; ++j) {
        const bool has_weight = weights != nullptr && j < weight_count && std::isfinite(weights[j]);
        const float weight = has_weight ? (weights[j] < 0.0f ? 0.0f : weights[j]) : 1.0f;
        const bool has_limit = limits != nullptr && j < limit_count && std::isfinite(limits[j]);
        const float limit = has_limit ? clamp_or(limits[j], 0.0, 180.0, 180.0) : 180.0f;
        const SinewStatus st = sinew_aim_ik_set_joint(solver, j, weight, limit);
        if (st != SINEW_STATUS_OK) {
            return st;
        }
    }
    return SINEW_STATUS_OK;
}

/**
 * FAnimNode_SinewMultiFabrik's solver properties: those of FABRIK (Precision in centimetres,
 * MaxIterations, stop when stalled), the rotation source applying to effectors whose goal sets no
 * rotation.
 */
struct MultiFabrikNodeParams : ChainNodeParams {
    BoneRotationSource effector_rotation_source = BoneRotationSource::KeepLocalSpaceRotation;
};

/**
 * Multi-effector FABRIK settings with an absolute Precision. CopyFromTarget asks for the goal's
 * rotation, which is per effector (its `use_rotation`): for effectors without one it keeps the
 * local rotation, as Sinew's COPY_EFFECTOR does there.
 */
inline SinewMultiFabrikSettings multi_fabrik_settings(const MultiFabrikNodeParams& p)
{
    SinewMultiFabrikSettings s = chain_settings<SinewMultiFabrik>(p);
    s.end_rotation = end_rotation_for(p.effector_rotation_source);
    return s;
}

/** One effector's goal in component space, in doubles, as the node's effector entry gives it. */
struct EffectorGoal {
    DVec3 position;
    DQuat rotation;
    /** Relative pull where branches meet; negative and NaN count as 0. */
    double weight = 1.0;
    /** Whether the effector bone takes `rotation` (else the rotation source applies). */
    bool use_rotation = false;
};

/** A goal's weight as Sinew takes it: finite and 0 or more (negative and NaN give 0). */
inline float effector_weight(double weight) { return clamp_or(weight, 0.0, 1e30, 0.0); }

/** A solve has an effect when some goal pulls (Sinew refuses a solve whose weights are all 0). */
inline bool multi_fabrik_has_effect(const EffectorGoal* goals, size_t count)
{
    for (size_t k = 0; k < count; ++k) {
        if (effector_weight(goals[k].weight) > 0.0f) {
            return true;
        }
    }
    return false;
}

/** FAnimNode_HandIKRetargeting's weights, with Unreal's defaults. */
struct HandIkNodeParams {
    float hand_fk_weight = 0.5f;
    DVec3 per_axis_alpha{1.0, 1.0, 1.0};
};

/** Sinew settings; weights are clamped to [0, 1] (Sinew's domain). */
inline SinewHandIkRetargetingSettings hand_ik_settings(const HandIkNodeParams& p)
{
    SinewHandIkRetargetingSettings s;
    sinew_hand_ik_retargeting_settings_default(&s);
    s.hand_fk_weight = clamp_or(p.hand_fk_weight, 0.0, 1.0, 0.5);
    s.per_axis_alpha = {clamp_or(p.per_axis_alpha.x, 0.0, 1.0, 1.0), clamp_or(p.per_axis_alpha.y, 0.0, 1.0, 1.0),
                        clamp_or(p.per_axis_alpha.z, 0.0, 1.0, 1.0)};
    return s;
}

/** Unreal skips the node when PerAxisAlpha is nearly zero. */
inline bool hand_ik_has_effect(const HandIkNodeParams& p) { return !is_nearly_zero(p.per_axis_alpha); }

// ============================================================================== handles

/**
 * sinew::UniqueHandle, except that copying does NOT copy the handle: a copy starts empty and
 * creates its own on first use, and assigning over a holder releases its handle. (Anim node
 * structs are copied by the engine, e.g. from the class default object; sharing a solver would
 * make two nodes destroy it.) Moving transfers ownership.
 */
template <class T, class Traits = sinew::HandleTraits<T>>
class CopyResetHandle : public sinew::UniqueHandle<T, Traits> {
public:
    using sinew::UniqueHandle<T, Traits>::UniqueHandle;
    CopyResetHandle() = default;
    CopyResetHandle(const CopyResetHandle&) noexcept : sinew::UniqueHandle<T, Traits>() {}
    CopyResetHandle& operator=(const CopyResetHandle& other) noexcept
    {
        if (this != &other) {
            this->reset();
        }
        return *this;
    }
    CopyResetHandle(CopyResetHandle&&) noexcept = default;
    CopyResetHandle& operator=(CopyResetHandle&&) noexcept = default;
    ~CopyResetHandle() = default;
};

/**
 * How many solver handles the plugin's nodes hold right now, across all threads. The module
 * reads it at shutdown: while it is not zero a node may still call into the library (e.g. to
 * destroy its solver when the engine frees the node), so the library must stay loaded.
 */
inline std::atomic<int64_t>& live_handle_count() noexcept
{
    static std::atomic<int64_t> count{0};
    return count;
}

/** HandleTraits<Native> whose destroy also counts the handle out of live_handle_count(). */
template <class Native>
struct CountedTraits : sinew::HandleTraits<Native> {
    static void destroy(Native* handle) noexcept
    {
        sinew::HandleTraits<Native>::destroy(handle);
        live_handle_count().fetch_sub(1, std::memory_order_acq_rel);
    }
};

template <class S>
inline bool same_settings(const S& a, const S& b)
{
    return std::memcmp(&a, &b, sizeof(S)) == 0;
}

/**
 * A solver (two-bone, FABRIK, CCD or hand retargeting, by its C handle type) created on first
 * use, never shared by copies; settings are pushed only when they change, and on error the
 * previous state stays. FABRIK and CCD take `prepare(settings, joint_count)`: their solver is
 * recreated for a chain longer than any seen.
 */
template <class Native>
class SolverInstance {
    using Traits = sinew::HandleTraits<Native>;

public:
    using Settings = typename Traits::Settings;

    /** Creates the solver or updates its settings. */
    SinewStatus prepare(const Settings& settings) { return handle_ ? update(settings) : create(settings); }
    /** Creates (or, for a longer chain, recreates) a chain solver, or updates its settings. */
    SinewStatus prepare(const Settings& settings, uint32_t joint_count)
    {
        if (handle_ && joint_count <= capacity_) {
            return update(settings);
        }
        const uint32_t capacity = joint_count < 2 ? 2 : joint_count;
        const SinewStatus st = create(settings, capacity);
        if (st == SINEW_STATUS_OK) {
            capacity_ = capacity;
        }
        return st;
    }
    Native* get() const { return handle_.get(); }
    /** Longest chain the current chain solver takes (0 without one). */
    uint32_t capacity() const { return handle_ ? capacity_ : 0; }
    /**
     * Multi-effector FABRIK: creates (or, for a larger tree or more effectors, recreates) the
     * solver, or updates its settings.
     */
    SinewStatus prepare(const Settings& settings, uint32_t joint_count, uint32_t effector_count)
    {
        if (handle_ && joint_count <= capacity_ && effector_count <= effector_capacity_) {
            return update(settings);
        }
        const uint32_t joints = joint_count < 2 ? 2 : joint_count;
        const uint32_t effectors = effector_count < 1 ? 1 : effector_count;
        const SinewStatus st = create(settings, joints, effectors);
        if (st == SINEW_STATUS_OK) {
            capacity_ = joints;
            effector_capacity_ = effectors;
        }
        return st;
    }
    /** Most effectors the current multi-effector solver takes (0 without one). */
    uint32_t effector_capacity() const { return handle_ ? effector_capacity_ : 0; }
    void reset() { handle_.reset(); }

private:
    template <class... Capacity>
    SinewStatus create(const Settings& settings, Capacity... capacity)
    {
        Native* h = nullptr;
        const SinewStatus st = Traits::create(&settings, capacity..., &h);
        if (st == SINEW_STATUS_OK) {
            live_handle_count().fetch_add(1, std::memory_order_acq_rel);
            handle_.reset(h);
            applied_ = settings;
        }
        return st;
    }
    SinewStatus update(const Settings& settings)
    {
        if (same_settings(settings, applied_)) {
            return SINEW_STATUS_OK;
        }
        const SinewStatus st = Traits::set_settings(handle_.get(), &settings);
        if (st == SINEW_STATUS_OK) {
            applied_ = settings;
        }
        return st;
    }

    CopyResetHandle<Native, CountedTraits<Native>> handle_;
    Settings applied_{};
    uint32_t capacity_ = 0;
    uint32_t effector_capacity_ = 0;
};

using TwoBoneIkInstance = SolverInstance<SinewTwoBoneIk>;
using FabrikInstance = SolverInstance<SinewFabrik>;
using CcdInstance = SolverInstance<SinewCcd>;
using HandIkInstance = SolverInstance<SinewHandIkRetargeting>;
using AimInstance = SolverInstance<SinewAimIk>;
using MultiFabrikInstance = SolverInstance<SinewMultiFabrik>;

/**
 * The skeleton of a multi-effector node's tree (the hierarchy collect_tree gives, identity rest
 * pose: the solve reads only the parents), created when the node's bones change, never shared by
 * copies, counted in live_handle_count().
 */
class TreeSkeleton {
public:
    /**
     * Creates the skeleton of `count` bones with `parents` (slots, -1 for the root), through
     * `scratch` (`count` transforms the caller owns). It allocates: call it when the bones
     * change, not every frame. On error the previous skeleton is released.
     */
    SinewStatus build(const int32_t* parents, uint32_t count, SinewTransform* scratch)
    {
        handle_.reset();
        if (parents == nullptr || scratch == nullptr) {
            return SINEW_STATUS_NULL_POINTER;
        }
        for (uint32_t i = 0; i < count; ++i) {
            scratch[i] = SinewTransform{{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
        }
        SinewSkeleton* h = nullptr;
        const SinewStatus st = sinew_skeleton_create(parents, scratch, nullptr, count, &h);
        if (st == SINEW_STATUS_OK) {
            live_handle_count().fetch_add(1, std::memory_order_acq_rel);
            handle_.reset(h);
        }
        return st;
    }
    const SinewSkeleton* get() const { return handle_.get(); }
    void reset() { handle_.reset(); }

private:
    CopyResetHandle<SinewSkeleton, CountedTraits<SinewSkeleton>> handle_;
};

/** Sets every chain joint's CCD rotation limit (weight 1) from the node's properties. */
inline SinewStatus apply_ccd_rotation_limits(SinewCcd* solver, uint32_t joint_count, bool enable_rotation_limit,
                                             const float* limits, size_t limit_count)
{
    for (uint32_t j = 0; j < joint_count; ++j) {
        const float limit = ccd_rotation_limit_degrees(enable_rotation_limit, limits, limit_count, j);
        const SinewStatus st = sinew_ccd_set_joint(solver, j, limit, 1.0f);
        if (st != SINEW_STATUS_OK) {
            return st;
        }
    }
    return SINEW_STATUS_OK;
}

// ============================================================================== solves in doubles

/**
 * The one shape of every solve in doubles: `count` transforms rebased on `frame` and cast to
 * floats in `scratch`, one native call (`call(scratch)`), and on success the solved doubles in
 * `out` (which may be `in`). On error `out` is untouched.
 */
template <class Call>
inline SinewStatus solve_in_frame(const ChainFrame& frame, const DTransform* in, uint32_t count,
                                  SinewTransform* scratch, DTransform* out, Call call)
{
    for (uint32_t i = 0; i < count; ++i) {
        scratch[i] = frame.to_sinew_transform(in[i]);
    }
    const SinewStatus st = call(scratch);
    if (st != SINEW_STATUS_OK) {
        return st;
    }
    for (uint32_t i = 0; i < count; ++i) {
        out[i] = frame.from_sinew_transform(scratch[i], in[i]);
    }
    return SINEW_STATUS_OK;
}

/** An optional rotation in floats: `storage` holds it, or null when `q` is null. */
inline const SinewQuat* to_sinew_or_null(const DQuat* q, SinewQuat& storage)
{
    if (q == nullptr) {
        return nullptr;
    }
    storage = to_sinew(*q);
    return &storage;
}

/**
 * Solves a two-bone chain (upper limb, lower limb, end bone) given in component space, in
 * doubles, rebased on the upper limb. `effector_rotation` and `joint_target` may be null. On
 * error `out` is untouched.
 */
inline SinewStatus solve_two_bone_ik(SinewTwoBoneIk* solver, const DTransform in[3], const DVec3& effector,
                                     const DQuat* effector_rotation, const DVec3* joint_target, DTransform out[3],
                                     SinewIkResult* result)
{
    const ChainFrame frame(in[0].translation);
    const SinewVec3 target = frame.point_to_sinew(effector);
    SinewQuat rotation{};
    const SinewQuat* rotation_ptr = to_sinew_or_null(effector_rotation, rotation);
    const SinewVec3 pole = joint_target != nullptr ? frame.point_to_sinew(*joint_target) : SinewVec3{};
    SinewTransform chain[3];
    return solve_in_frame(frame, in, 3, chain, out, [&](SinewTransform* c) {
        return sinew_two_bone_ik_solve(solver, c, &target, rotation_ptr, joint_target ? &pole : nullptr, result);
    });
}

/**
 * Solves a FABRIK or CCD chain (by the solver's type) of `count` component-space transforms
 * (root first) in doubles, rebased on the root, through `scratch` (`count` float transforms the
 * caller owns, so nothing is allocated). `out` may be `in`; `root_parent_rotation` and
 * `effector_rotation` may be null. On error `out` is untouched.
 */
template <class Solver>
inline SinewStatus solve_chain(Solver* solver, const DTransform* in, uint32_t count, const DQuat* root_parent_rotation,
                               const DVec3& effector, const DQuat* effector_rotation, SinewTransform* scratch,
                               DTransform* out, SinewIkResult* result)
{
    if (in == nullptr || scratch == nullptr || out == nullptr || count == 0) {
        return SINEW_STATUS_NULL_POINTER;
    }
    const ChainFrame frame(in[0].translation);
    const SinewVec3 target = frame.point_to_sinew(effector);
    SinewQuat rotation{};
    SinewQuat parent{};
    const SinewQuat* rotation_ptr = to_sinew_or_null(effector_rotation, rotation);
    const SinewQuat* parent_ptr = to_sinew_or_null(root_parent_rotation, parent);
    return solve_in_frame(frame, in, count, scratch, out, [&](SinewTransform* chain) {
        return sinew::HandleTraits<Solver>::solve(solver, chain, count, parent_ptr, &target, rotation_ptr, result);
    });
}

/**
 * Aims a chain of `count` component-space transforms (root first) in doubles, rebased on the
 * root, through `scratch` (`count` float transforms). `up` may be null; it is a point when
 * `up_is_position` (rebased like the target), else a direction. `out` may be `in`; on error it
 * is untouched.
 */
inline SinewStatus solve_aim(SinewAimIk* solver, const DTransform* in, uint32_t count, const DVec3& target,
                             const DVec3* up, bool up_is_position, SinewTransform* scratch, DTransform* out,
                             SinewIkResult* result)
{
    if (in == nullptr || scratch == nullptr || out == nullptr || count == 0) {
        return SINEW_STATUS_NULL_POINTER;
    }
    const ChainFrame frame(in[0].translation);
    const SinewVec3 goal = frame.point_to_sinew(target);
    SinewVec3 up_storage{};
    if (up != nullptr) {
        up_storage = up_is_position ? frame.point_to_sinew(*up) : to_sinew(*up);
    }
    return solve_in_frame(frame, in, count, scratch, out, [&](SinewTransform* chain) {
        return sinew_aim_ik_solve(solver, chain, count, &goal, up != nullptr ? &up_storage : nullptr, result);
    });
}

/**
 * Solves a multi-effector FABRIK tree in doubles: `in` holds the `count` component-space
 * transforms of `skeleton`'s bones (a TreeSkeleton, so every one is in the tree), rebased on
 * `in[root]` and cast to floats in `scratch`; `goals` (one per entry of `effectors`, slots of
 * `in`) become `targets` (`effector_count` entries the caller owns) in the same frame. `out` may
 * be `in`; `results` (one per effector) may be null. On error `out` and `results` are untouched.
 */
inline SinewStatus solve_multi_fabrik(SinewMultiFabrik* solver, const SinewSkeleton* skeleton, const DTransform* in,
                                      uint32_t count, uint32_t root, const uint32_t* effectors, uint32_t effector_count,
                                      const EffectorGoal* goals, SinewEffectorTarget* targets, SinewTransform* scratch,
                                      DTransform* out, SinewIkResult* results)
{
    if (in == nullptr || goals == nullptr || targets == nullptr || scratch == nullptr || out == nullptr) {
        return SINEW_STATUS_NULL_POINTER;
    }
    if (root >= count) {
        return SINEW_STATUS_OUT_OF_RANGE;
    }
    const ChainFrame frame(in[root].translation);
    for (uint32_t k = 0; k < effector_count; ++k) {
        targets[k].position = frame.point_to_sinew(goals[k].position);
        targets[k].rotation = to_sinew(goals[k].rotation);
        targets[k].weight = effector_weight(goals[k].weight);
        targets[k].use_rotation = goals[k].use_rotation ? 1u : 0u;
    }
    return solve_in_frame(frame, in, count, scratch, out, [&](SinewTransform* model) {
        return sinew_multi_fabrik_solve(solver, skeleton, model, count, root, effectors, effector_count, targets,
                                        results);
    });
}

/**
 * Hand IK retargeting on a dense array of `count` component-space transforms in doubles: the
 * offset between the FK and IK hands (entries `hands`) is added to the entries `bones` (listed
 * once each). Works through `scratch` (`count` float transforms). `out_offset` may be null.
 * On error `model` is untouched.
 */
inline SinewStatus apply_hand_ik_retargeting(const SinewHandIkRetargeting* node, DTransform* model, uint32_t count,
                                             const SinewHandJoints& hands, const uint32_t* bones, uint32_t bone_count,
                                             SinewTransform* scratch, DVec3* out_offset)
{
    if (model == nullptr || scratch == nullptr || count == 0) {
        return SINEW_STATUS_NULL_POINTER;
    }
    const uint32_t anchor = hands.right_fk < count ? hands.right_fk : 0;
    SinewVec3 offset{};
    const SinewStatus st = solve_in_frame(ChainFrame(model[anchor].translation), model, count, scratch, model,
                                          [&](SinewTransform* m) {
                                              return sinew_hand_ik_retargeting_apply_model(node, m, count, &hands,
                                                                                           bones, bone_count, &offset);
                                          });
    if (st == SINEW_STATUS_OK && out_offset != nullptr) {
        *out_offset = to_double(offset);
    }
    return st;
}

// ============================================================================== bones

/**
 * Collects the chain from `root` to `tip` (root first) by walking parents from the tip, as
 * Unreal's FABRIK and CCDIK nodes do. `parent_of(i)` returns the parent index or a negative
 * value at the top. Returns the number of bones written to `out` (at most `capacity`), or 0 when
 * `tip` is not `root` or one of its descendants, or the chain does not fit.
 */
template <class ParentOf>
inline size_t collect_chain(int32_t root, int32_t tip, ParentOf parent_of, int32_t* out, size_t capacity)
{
    if (root < 0 || tip < 0 || out == nullptr) {
        return 0;
    }
    size_t n = 0;
    for (int32_t bone = tip; bone >= 0; bone = parent_of(bone)) {
        if (n == capacity) {
            return 0;
        }
        out[n++] = bone;
        if (bone == root) {
            for (size_t i = 0; i < n / 2; ++i) {
                const int32_t t = out[i];
                out[i] = out[n - 1 - i];
                out[n - 1 - i] = t;
            }
            return n;
        }
    }
    return 0;
}

/**
 * Collects the tree of `root` and the `tip_count` bones `tips`: every bone on a path from a tip
 * up to the root, once, sorted by index (parents come before children in Unreal's compact pose),
 * into `out_bones`; `out_parents[i]` is the slot of bone i's parent (-1 for the root) and
 * `out_tip_slots[k]` the slot of tip k. `parent_of(i)` returns the parent index or a negative
 * value at the top. Returns the number of bones (at most `capacity`), or 0 when a tip is the root
 * or not below it, or the tree does not fit. (Sinew itself refuses a tip listed twice or above
 * another tip.)
 */
template <class ParentOf>
inline size_t collect_tree(int32_t root, const int32_t* tips, size_t tip_count, ParentOf parent_of, int32_t* out_bones,
                           int32_t* out_parents, uint32_t* out_tip_slots, size_t capacity)
{
    if (root < 0 || tips == nullptr || out_bones == nullptr || out_parents == nullptr || out_tip_slots == nullptr ||
        capacity == 0) {
        return 0;
    }
    const auto slot_of = [&](int32_t bone, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            if (out_bones[i] == bone) {
                return static_cast<int32_t>(i);
            }
        }
        return -1;
    };
    size_t n = 0;
    out_bones[n++] = root;
    for (size_t k = 0; k < tip_count; ++k) {
        if (tips[k] < 0 || tips[k] == root) {
            return 0;
        }
        // Walk up until the root or a bone already collected (whose path to the root is in).
        int32_t bone = tips[k];
        while (slot_of(bone, n) < 0) {
            if (bone < 0) {
                return 0; // reached the top without meeting the root
            }
            if (n == capacity) {
                return 0;
            }
            out_bones[n++] = bone;
            bone = parent_of(bone);
        }
    }
    // Insertion sort by index: parents before children.
    for (size_t i = 1; i < n; ++i) {
        const int32_t bone = out_bones[i];
        size_t at = i;
        while (at > 0 && out_bones[at - 1] > bone) {
            out_bones[at] = out_bones[at - 1];
            --at;
        }
        out_bones[at] = bone;
    }
    for (size_t i = 0; i < n; ++i) {
        out_parents[i] = out_bones[i] == root ? -1 : slot_of(parent_of(out_bones[i]), n);
    }
    for (size_t k = 0; k < tip_count; ++k) {
        out_tip_slots[k] = static_cast<uint32_t>(slot_of(tips[k], n));
    }
    return n;
}

/** One entry of the node's output, like Unreal's FBoneTransform (compact pose index, transform). */
struct BoneTransformOut {
    int32_t bone_index = -1;
    DTransform transform;
};

/**
 * Fills `out` with (bone_indices[i], transforms[i]) sorted by bone index, the order
 * FCSPose::LocalBlendCSBoneTransforms requires. Negative indices are skipped; for a repeated
 * index the last entry wins. Returns the number written (at most `count`). Insertion sort:
 * chains are short and usually already in order (parents come before children).
 */
inline size_t build_bone_transforms(const int32_t* bone_indices, const DTransform* transforms, size_t count,
                                    BoneTransformOut* out)
{
    size_t n = 0;
    for (size_t i = 0; i < count; ++i) {
        const int32_t bone = bone_indices[i];
        if (bone < 0) {
            continue;
        }
        size_t at = n;
        while (at > 0 && out[at - 1].bone_index > bone) {
            --at;
        }
        if (at > 0 && out[at - 1].bone_index == bone) {
            out[at - 1].transform = transforms[i];
            continue;
        }
        for (size_t k = n; k > at; --k) {
            out[k] = out[k - 1];
        }
        out[at].bone_index = bone;
        out[at].transform = transforms[i];
        ++n;
    }
    return n;
}

/**
 * Maps arbitrary (compact pose) bone indices to a dense array: `add` returns a bone's slot,
 * adding it once. Used to gather the hands and the bones to move for hand IK retargeting
 * without duplicates. Storage is the caller's (`bones` with `capacity` entries).
 */
class DenseBoneSet {
public:
    DenseBoneSet(int32_t* bones, uint32_t capacity) : bones_(bones), capacity_(capacity) {}

    /** The bone's slot, or -1 when the set is full or the index is negative. */
    int32_t add(int32_t bone)
    {
        if (bone < 0) {
            return -1;
        }
        for (uint32_t i = 0; i < size_; ++i) {
            if (bones_[i] == bone) {
                return static_cast<int32_t>(i);
            }
        }
        if (size_ == capacity_) {
            return -1;
        }
        bones_[size_] = bone;
        return static_cast<int32_t>(size_++);
    }
    uint32_t size() const { return size_; }
    const int32_t* bones() const { return bones_; }

private:
    int32_t* bones_;
    uint32_t capacity_;
    uint32_t size_ = 0;
};

// ============================================================================== diagnostics

/** The status's enumerator name without the prefix. */
inline const char* status_name(SinewStatus status)
{
    switch (status) {
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
    default: return "UNKNOWN";
    }
}

/** Copies this thread's last Sinew error message into `buf` (NUL-terminated, truncated). */
inline void last_error_message(char* buf, size_t capacity)
{
    if (buf == nullptr || capacity == 0) {
        return;
    }
    buf[0] = '\0';
    sinew_last_error_message(buf, capacity, nullptr);
}

/** True when the loaded library speaks this header's ABI. */
inline bool abi_matches() { return sinew_abi_version() == SINEW_ABI_VERSION; }

}  // namespace sinew_unreal

#endif  // SINEW_UNREAL_HPP
