// Sinew C++ wrapper: header-only C++17 over the C ABI in include/sinew.h.
//
// Everything here is a thin, inline layer over the `sinew_*` functions:
//
// - Value types (`Vec3`, `Quat`, `Transform`) are layout-compatible with their C counterparts,
//   so arrays of them are passed to the library without copying.
// - Every handle (`Skeleton`, `Pose`, solvers, masks, clips, ...) is a move-only RAII owner of
//   the native handle: the destructor calls the native `*_destroy`, a moved-from object holds
//   nullptr (safe to destroy, assign, or call: calls then fail with `Status::null_pointer`).
// - Every operation returns `Result<T>` (or `Result<void>`), which carries either the value or an
//   `Error { Status status; std::string message; }` taken from `sinew_last_error_message`.
//   Nothing throws, so the default layer works with `-fno-exceptions`. Define
//   `SINEW_CPP_EXCEPTIONS` (with exceptions enabled) to get `sinew::Exception`,
//   `value_or_throw` and `throw_if_error`.
// - Array arguments are `Span<T>` (pointer + count), built from std::vector, std::array or C
//   arrays; solve, blend and sample paths allocate nothing on success.
// - Crowds: `TwoBoneIk`, `Fabrik` and `Ccd` have `solve_batch`, many independent chains per
//   call (`TwoBoneIk::solve_batch_soa` for chains in ozz-style SoA blocks of four). Handles are used from one thread at a time and the library holds no global lock, so
//   give each worker thread its own solver and its own slice of the crowd.
//
// Errors detected by the wrapper itself (before calling the library, e.g. two spans whose sizes
// must agree) carry a message starting with "sinew C++:" and leave the library's thread-local
// error message untouched.
//
// Naming follows the C API: `sinew_pose_set_local(pose, ...)` is `pose.set_local(...)`,
// `sinew_pose_create(skeleton, &out)` is `Pose::create(skeleton)`. Handles are owned by
// `UniqueHandle` and their C functions named by `HandleTraits`, both in sinew_handle.hpp (shared
// with the Unreal helpers).

#ifndef SINEW_HPP
#define SINEW_HPP

#include "sinew.h"
#include "sinew_handle.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(SINEW_CPP_EXCEPTIONS)
#if !defined(__cpp_exceptions) && !defined(__EXCEPTIONS) && !defined(_CPPUNWIND)
#error "SINEW_CPP_EXCEPTIONS is defined but C++ exceptions are disabled"
#endif
#include <stdexcept>
#endif

namespace sinew {

// ============================================================================ enums

/// Mirrors `SinewStatus`: the outcome of every call.
enum class Status : int32_t {
  ok = SINEW_STATUS_OK,
  null_pointer = SINEW_STATUS_NULL_POINTER,
  invalid_argument = SINEW_STATUS_INVALID_ARGUMENT,
  non_finite = SINEW_STATUS_NON_FINITE,
  out_of_range = SINEW_STATUS_OUT_OF_RANGE,
  size_mismatch = SINEW_STATUS_SIZE_MISMATCH,
  invalid_skeleton = SINEW_STATUS_INVALID_SKELETON,
  panic = SINEW_STATUS_PANIC,
  not_found = SINEW_STATUS_NOT_FOUND,
  numeric_overflow = SINEW_STATUS_NUMERIC_OVERFLOW,
};

/// The enumerator's name ("ok", "null_pointer", ...), or "unknown" for other values.
inline const char* to_string(Status status) noexcept {
  switch (status) {
    case Status::ok: return "ok";
    case Status::null_pointer: return "null_pointer";
    case Status::invalid_argument: return "invalid_argument";
    case Status::non_finite: return "non_finite";
    case Status::out_of_range: return "out_of_range";
    case Status::size_mismatch: return "size_mismatch";
    case Status::invalid_skeleton: return "invalid_skeleton";
    case Status::panic: return "panic";
    case Status::not_found: return "not_found";
    case Status::numeric_overflow: return "numeric_overflow";
  }
  return "unknown";
}

/// Mirrors `SinewEndRotation`: which rotation a solved chain's last joint gets.
enum class EndRotation : int32_t {
  keep_model = SINEW_END_ROTATION_KEEP_MODEL,
  copy_effector = SINEW_END_ROTATION_COPY_EFFECTOR,
  keep_local = SINEW_END_ROTATION_KEEP_LOCAL,
};

/// Mirrors `SinewConstraintType`: the shape of a joint constraint.
enum class ConstraintType : int32_t {
  cone = SINEW_CONSTRAINT_TYPE_CONE,
  hinge = SINEW_CONSTRAINT_TYPE_HINGE,
  twist = SINEW_CONSTRAINT_TYPE_TWIST,
};

/// Mirrors `SinewBlendSpace`: whether `blend` mixes local or model-space rotations.
enum class BlendSpace : int32_t {
  local = SINEW_BLEND_SPACE_LOCAL,
  model_rotation = SINEW_BLEND_SPACE_MODEL_ROTATION,
};

/// Mirrors `SinewInterpolation`: how a clip track interpolates between keys.
enum class Interpolation : int32_t {
  step = SINEW_INTERPOLATION_STEP,
  linear = SINEW_INTERPOLATION_LINEAR,
  slerp = SINEW_INTERPOLATION_SLERP,
  cubic = SINEW_INTERPOLATION_CUBIC,
};

/// Mirrors `SinewTrackProperty`: which track `Clip::clear_track` removes.
enum class TrackProperty : int32_t {
  translation = SINEW_TRACK_PROPERTY_TRANSLATION,
  rotation = SINEW_TRACK_PROPERTY_ROTATION,
  scale = SINEW_TRACK_PROPERTY_SCALE,
};

/// Mirrors `SinewFadeCurve`: the shape of a crossfade transition.
enum class FadeCurve : int32_t {
  linear = SINEW_FADE_CURVE_LINEAR,
  smooth = SINEW_FADE_CURVE_SMOOTH,
  inertialize = SINEW_FADE_CURVE_INERTIALIZE,
};

// ============================================================================ value types

/// A 3D vector, layout-compatible with `SinewVec3` (and Unity's `Vector3`), so spans of it go
/// to the library as `SinewVec3*` without copies.
struct Vec3 {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;

  constexpr Vec3() noexcept = default;
  constexpr Vec3(float x_, float y_, float z_) noexcept : x(x_), y(y_), z(z_) {}
  constexpr Vec3(const SinewVec3& v) noexcept : x(v.x), y(v.y), z(v.z) {}  // NOLINT: implicit
  constexpr operator SinewVec3() const noexcept { return SinewVec3{x, y, z}; }
  constexpr SinewVec3 to_c() const noexcept { return SinewVec3{x, y, z}; }

  static constexpr Vec3 zero() noexcept { return Vec3{}; }
  static constexpr Vec3 one() noexcept { return Vec3{1.0f, 1.0f, 1.0f}; }

  friend constexpr bool operator==(const Vec3& a, const Vec3& b) noexcept {
    return a.x == b.x && a.y == b.y && a.z == b.z;
  }
  friend constexpr bool operator!=(const Vec3& a, const Vec3& b) noexcept { return !(a == b); }
};

/// A rotation quaternion `{x, y, z, w}`, layout-compatible with `SinewQuat`. Default: identity.
struct Quat {
  float x = 0.0f;
  float y = 0.0f;
  float z = 0.0f;
  float w = 1.0f;

  constexpr Quat() noexcept = default;
  constexpr Quat(float x_, float y_, float z_, float w_) noexcept : x(x_), y(y_), z(z_), w(w_) {}
  constexpr Quat(const SinewQuat& q) noexcept : x(q.x), y(q.y), z(q.z), w(q.w) {}  // NOLINT
  constexpr operator SinewQuat() const noexcept { return SinewQuat{x, y, z, w}; }
  constexpr SinewQuat to_c() const noexcept { return SinewQuat{x, y, z, w}; }

  static constexpr Quat identity() noexcept { return Quat{}; }

  friend constexpr bool operator==(const Quat& a, const Quat& b) noexcept {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
  }
  friend constexpr bool operator!=(const Quat& a, const Quat& b) noexcept { return !(a == b); }
};

/// Translation, rotation and per-axis scale, layout-compatible with `SinewTransform`.
/// Default: identity (zero translation, identity rotation, unit scale).
struct Transform {
  Vec3 translation{};
  Quat rotation{};
  Vec3 scale{1.0f, 1.0f, 1.0f};

  constexpr Transform() noexcept = default;
  constexpr Transform(const Vec3& translation_, const Quat& rotation_,
                      const Vec3& scale_ = Vec3::one()) noexcept
      : translation(translation_), rotation(rotation_), scale(scale_) {}
  constexpr Transform(const SinewTransform& t) noexcept  // NOLINT: implicit
      : translation(t.translation), rotation(t.rotation), scale(t.scale) {}
  constexpr operator SinewTransform() const noexcept { return to_c(); }
  constexpr SinewTransform to_c() const noexcept {
    return SinewTransform{translation.to_c(), rotation.to_c(), scale.to_c()};
  }

  static constexpr Transform identity() noexcept { return Transform{}; }

  friend constexpr bool operator==(const Transform& a, const Transform& b) noexcept {
    return a.translation == b.translation && a.rotation == b.rotation && a.scale == b.scale;
  }
  friend constexpr bool operator!=(const Transform& a, const Transform& b) noexcept {
    return !(a == b);
  }
};

namespace detail {
template <class Cpp, class C>
constexpr bool layout_compatible() noexcept {
  return sizeof(Cpp) == sizeof(C) && alignof(Cpp) == alignof(C) &&
         std::is_standard_layout<Cpp>::value && std::is_trivially_copyable<Cpp>::value;
}
}  // namespace detail

static_assert(detail::layout_compatible<Vec3, SinewVec3>(), "Vec3 must match SinewVec3");
static_assert(sizeof(Vec3) == 12, "Vec3 is 12 bytes");
static_assert(offsetof(Vec3, x) == offsetof(SinewVec3, x), "Vec3::x");
static_assert(offsetof(Vec3, y) == offsetof(SinewVec3, y), "Vec3::y");
static_assert(offsetof(Vec3, z) == offsetof(SinewVec3, z), "Vec3::z");
static_assert(detail::layout_compatible<Quat, SinewQuat>(), "Quat must match SinewQuat");
static_assert(sizeof(Quat) == 16, "Quat is 16 bytes");
static_assert(offsetof(Quat, x) == offsetof(SinewQuat, x), "Quat::x");
static_assert(offsetof(Quat, y) == offsetof(SinewQuat, y), "Quat::y");
static_assert(offsetof(Quat, z) == offsetof(SinewQuat, z), "Quat::z");
static_assert(offsetof(Quat, w) == offsetof(SinewQuat, w), "Quat::w");
static_assert(detail::layout_compatible<Transform, SinewTransform>(),
              "Transform must match SinewTransform");
static_assert(sizeof(Transform) == 40, "Transform is 40 bytes");
static_assert(offsetof(Transform, translation) == offsetof(SinewTransform, translation),
              "Transform::translation");
static_assert(offsetof(Transform, rotation) == offsetof(SinewTransform, rotation),
              "Transform::rotation");
static_assert(offsetof(Transform, scale) == offsetof(SinewTransform, scale), "Transform::scale");

/// Four vectors, quaternions or transforms in structure-of-arrays blocks (lane `i` of every
/// field is item `i`; ozz's `SoaFloat3`, `SoaQuaternion` and `SoaTransform` layouts): the C
/// structs as they are, for `TwoBoneIk::solve_batch_soa`.
using SoaVec3 = SinewSoaVec3;
using SoaQuat = SinewSoaQuat;
using SoaTransform = SinewSoaTransform;

/// A 4×4 matrix, layout-compatible with `SinewMat4`: 16 floats, column-major (`m[4 * col +
/// row]`, the layout of Unity's `Matrix4x4`, glTF, OpenGL and GLM), for column vectors: a
/// point maps to `M · (p, 1)`, the translation in `m[12..14]`. Unreal multiplies row vectors:
/// its `FMatrix44f` holds these same 16 floats in this order. Default: identity.
struct Mat4 {
  float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

  constexpr Mat4() noexcept = default;
  Mat4(const SinewMat4& c) noexcept { std::memcpy(m, &c, sizeof m); }  // NOLINT: implicit
  operator SinewMat4() const noexcept { return to_c(); }
  SinewMat4 to_c() const noexcept {
    SinewMat4 c;
    std::memcpy(&c, m, sizeof m);
    return c;
  }

  /// Entry at `row`, `col` (0 to 3).
  constexpr float operator()(int row, int col) const noexcept { return m[4 * col + row]; }
  constexpr float& operator()(int row, int col) noexcept { return m[4 * col + row]; }

  static constexpr Mat4 identity() noexcept { return Mat4{}; }

  friend bool operator==(const Mat4& a, const Mat4& b) noexcept {
    for (int i = 0; i < 16; ++i) {
      if (a.m[i] != b.m[i]) return false;
    }
    return true;
  }
  friend bool operator!=(const Mat4& a, const Mat4& b) noexcept { return !(a == b); }
};

static_assert(detail::layout_compatible<Mat4, SinewMat4>(), "Mat4 must match SinewMat4");
static_assert(sizeof(Mat4) == 64, "Mat4 is 64 bytes");
static_assert(offsetof(SinewMat4, m10) == 4 && offsetof(SinewMat4, m01) == 16 &&
                  offsetof(SinewMat4, m03) == 48 && offsetof(SinewMat4, m33) == 60,
              "SinewMat4 is column-major");

/// Outcome of an IK solve (`SinewIkResult` with `reached` as a bool).
struct IkResult {
  bool reached = false;     ///< The end finished within tolerance of the target.
  float error = 0.0f;       ///< Distance from the chain's end to the target after the solve.
  uint32_t iterations = 0;  ///< Iterations used (1 for analytic solvers).

  constexpr IkResult() noexcept = default;
  constexpr IkResult(const SinewIkResult& r) noexcept  // NOLINT: implicit
      : reached(r.reached != 0), error(r.error), iterations(r.iterations) {}
  constexpr SinewIkResult to_c() const noexcept {
    return SinewIkResult{reached ? 1u : 0u, error, iterations};
  }
};

// ============================================================================ settings

/// A solver's settings: the C struct of `HandleTraits<Native>::Settings`, initialized from the
/// solver's `*_settings_default` (for two-bone IK, FABRIK and CCD, Unreal's node defaults). The
/// fields are the C struct's; adjust them after construction.
template <class Native>
struct SolverSettings : HandleTraits<Native>::Settings {
  using C = typename HandleTraits<Native>::Settings;
  SolverSettings() noexcept : C() { HandleTraits<Native>::settings_default(this); }
  SolverSettings(const C& c) noexcept : C(c) {}  // NOLINT: implicit
};

using TwoBoneIkSettings = SolverSettings<SinewTwoBoneIk>;
using FabrikSettings = SolverSettings<SinewFabrik>;
using CcdSettings = SolverSettings<SinewCcd>;
/// Aim settings: aim axis +X, up axis +Y, no offset, weight 1, unlimited (180 degrees),
/// tolerance 1e-4 rad, 16 passes.
using AimIkSettings = SolverSettings<SinewAimIk>;
using HandIkRetargetingSettings = SolverSettings<SinewHandIkRetargeting>;
using MultiFabrikSettings = SolverSettings<SinewMultiFabrik>;

/// Where one effector of a multi-effector FABRIK solve should go (`SinewEffectorTarget`, same
/// layout): a model-space position, an optional rotation (`use_rotation`) and a weight (0 or
/// more; 0 turns the effector off). Default: the origin, no rotation, weight 1.
struct EffectorTarget : SinewEffectorTarget {
  constexpr EffectorTarget() noexcept : SinewEffectorTarget{{0, 0, 0}, {0, 0, 0, 1}, 1.0f, 0} {}
  /// A target at `position` without rotation, of `weight_`.
  constexpr explicit EffectorTarget(const Vec3& position_, float weight_ = 1.0f) noexcept
      : SinewEffectorTarget{position_.to_c(), {0, 0, 0, 1}, weight_, 0} {}
  constexpr EffectorTarget(const SinewEffectorTarget& c) noexcept  // NOLINT: implicit
      : SinewEffectorTarget(c) {}
  /// The target with `rotation_` as the effector's model rotation.
  constexpr EffectorTarget with_rotation(const Quat& rotation_) const noexcept {
    EffectorTarget t = *this;
    t.rotation = rotation_.to_c();
    t.use_rotation = 1;
    return t;
  }
  /// The target with weight `weight_`.
  constexpr EffectorTarget with_weight(float weight_) const noexcept {
    EffectorTarget t = *this;
    t.weight = weight_;
    return t;
  }
};

/// Joint indices of the four hands hand IK retargeting measures its offset between.
struct HandJoints : SinewHandJoints {
  constexpr HandJoints() noexcept : SinewHandJoints{0, 0, 0, 0} {}
  constexpr HandJoints(uint32_t right_fk_, uint32_t left_fk_, uint32_t right_ik_,
                       uint32_t left_ik_) noexcept
      : SinewHandJoints{right_fk_, left_fk_, right_ik_, left_ik_} {}
  constexpr HandJoints(const SinewHandJoints& c) noexcept : SinewHandJoints(c) {}  // NOLINT
};

/// A limit on a joint's local rotation (radians), initialized from
/// `sinew_joint_constraint_default` (45-degree cone about +X, twist unlimited, identity
/// reference). The named constructors fill the fields the README documents for each type.
struct JointConstraint : SinewJointConstraint {
  JointConstraint() noexcept : SinewJointConstraint() { sinew_joint_constraint_default(this); }
  JointConstraint(const SinewJointConstraint& c) noexcept : SinewJointConstraint(c) {}  // NOLINT

  /// Swing inside an elliptical cone about `axis` (half-angles about the frame's Y and Z).
  static JointConstraint cone(const Quat& reference, const Vec3& axis, float swing_half_angle_1,
                              float swing_half_angle_2) noexcept {
    JointConstraint c = of(SINEW_CONSTRAINT_TYPE_CONE, reference, axis);
    c.swing_half_angle_1 = swing_half_angle_1;
    c.swing_half_angle_2 = swing_half_angle_2;
    return c;
  }
  /// Rotation only about `axis`, by an angle in [min_angle, max_angle].
  static JointConstraint hinge(const Quat& reference, const Vec3& axis, float min_angle,
                               float max_angle) noexcept {
    return of(SINEW_CONSTRAINT_TYPE_HINGE, reference, axis).range(min_angle, max_angle);
  }
  /// Free swing; twist about `axis` in [min_angle, max_angle].
  static JointConstraint twist(const Quat& reference, const Vec3& axis, float min_angle,
                               float max_angle) noexcept {
    return of(SINEW_CONSTRAINT_TYPE_TWIST, reference, axis).range(min_angle, max_angle);
  }
  /// A cone that also limits twist to [min_angle, max_angle].
  JointConstraint& limit_twist_to(float min_angle_, float max_angle_) noexcept {
    limit_twist = 1;
    return range(min_angle_, max_angle_);
  }

 private:
  static JointConstraint of(int32_t type_, const Quat& reference_, const Vec3& axis_) noexcept {
    JointConstraint c;
    c.type = type_;
    c.reference = reference_;
    c.axis = axis_;
    return c;
  }
  JointConstraint& range(float min_angle_, float max_angle_) noexcept {
    min_angle = min_angle_;
    max_angle = max_angle_;
    return *this;
  }
};

static_assert(sizeof(TwoBoneIkSettings) == sizeof(SinewTwoBoneIkSettings) &&
                  sizeof(FabrikSettings) == sizeof(SinewFabrikSettings) &&
                  sizeof(CcdSettings) == sizeof(SinewCcdSettings) &&
                  sizeof(AimIkSettings) == sizeof(SinewAimIkSettings) &&
                  sizeof(HandIkRetargetingSettings) == sizeof(SinewHandIkRetargetingSettings) &&
                  sizeof(MultiFabrikSettings) == sizeof(SinewMultiFabrikSettings),
              "settings have their C struct's layout");
static_assert(sizeof(HandJoints) == sizeof(SinewHandJoints), "layout");
static_assert(detail::layout_compatible<EffectorTarget, SinewEffectorTarget>() &&
                  sizeof(EffectorTarget) == 36,
              "EffectorTarget arrays are passed as SinewEffectorTarget arrays");
static_assert(detail::layout_compatible<JointConstraint, SinewJointConstraint>(),
              "JointConstraint arrays are passed as SinewJointConstraint arrays");

// ============================================================================ Error, Result

/// A failed call: the status and the library's message (from `sinew_last_error_message`, read
/// right after the failing call) or, for checks done by the wrapper, a "sinew C++:" message.
struct Error {
  Status status = Status::ok;
  std::string message{};

  /// The error the library just reported with `status`: reads this thread's message (length
  /// first, then the text, so it is never truncated).
  static Error from_last(SinewStatus status) {
    Error error;
    error.status = static_cast<Status>(status);
    std::size_t length = 0;
    if (sinew_last_error_message(nullptr, 0, &length) == SINEW_STATUS_OK && length > 0) {
      error.message.resize(length + 1);
      std::size_t written = 0;
      if (sinew_last_error_message(&error.message[0], error.message.size(), &written) ==
          SINEW_STATUS_OK) {
        error.message.resize(written < length ? written : length);
      } else {
        error.message.clear();
      }
    }
    return error;
  }
};

namespace detail {
[[noreturn]] inline void bad_result_access(const Error& error) noexcept {
  std::fprintf(stderr, "sinew: value() called on a failed Result (%s): %s\n",
               to_string(error.status), error.message.c_str());
  std::abort();
}

inline Error wrapper_error(Status status, const char* message) {
  Error error;
  error.status = status;
  error.message = "sinew C++: ";
  error.message += message;
  return error;
}
}  // namespace detail

/// Either a `T` or an `Error`; what every wrapper operation returns, so no exceptions are
/// needed. Check `ok()` (or `if (result)`) before `value()`: `value()` on an error prints the
/// error and aborts (with `SINEW_CPP_EXCEPTIONS`, `value_or_throw` throws instead).
template <class T>
class [[nodiscard]] Result {
 public:
  using value_type = T;

  Result(T value) : value_(std::move(value)), error_() {}      // NOLINT: implicit by design
  Result(Error error) : value_(), error_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  /// `Status::ok` on success, else the error's status.
  Status status() const noexcept { return ok() ? Status::ok : error_.status; }
  /// The error (status `ok` and an empty message on success).
  const Error& error() const noexcept { return error_; }

  T& value() & noexcept {
    if (!ok()) detail::bad_result_access(error_);
    return *value_;
  }
  const T& value() const& noexcept {
    if (!ok()) detail::bad_result_access(error_);
    return *value_;
  }
  T&& value() && noexcept {
    if (!ok()) detail::bad_result_access(error_);
    return std::move(*value_);
  }
  T& operator*() & noexcept { return value(); }
  const T& operator*() const& noexcept { return value(); }
  T&& operator*() && noexcept { return std::move(*this).value(); }
  T* operator->() noexcept { return &value(); }
  const T* operator->() const noexcept { return &value(); }

  /// The value, or `fallback` on error.
  template <class U>
  T value_or(U&& fallback) const& {
    return ok() ? *value_ : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  T value_or(U&& fallback) && {
    return ok() ? std::move(*value_) : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::optional<T> value_;
  Error error_;
};

/// Success or an `Error`, for operations with no value.
template <>
class [[nodiscard]] Result<void> {
 public:
  using value_type = void;

  Result() noexcept : error_(), failed_(false) {}
  Result(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT: implicit

  bool ok() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return ok(); }
  Status status() const noexcept { return failed_ ? error_.status : Status::ok; }
  const Error& error() const noexcept { return error_; }
  /// Aborts (printing the error) on failure; nothing on success.
  void value() const noexcept {
    if (failed_) detail::bad_result_access(error_);
  }

 private:
  Error error_;
  bool failed_ = false;
};

namespace detail {
/// `Result<void>` from a native status, reading the message on failure.
inline Result<void> check_status(SinewStatus status) {
  if (status == SINEW_STATUS_OK) return {};
  return Error::from_last(status);
}

/// `value` (what the call wrote) when `status` is OK, else the error.
template <class T>
Result<T> checked(SinewStatus status, T value) {
  if (status == SINEW_STATUS_OK) return value;
  return Error::from_last(status);
}

/// Narrows a span size to the C API's `uint32_t` count.
inline bool narrow(std::size_t size, uint32_t& out) noexcept {
  if (size > UINT32_MAX) return false;
  out = static_cast<uint32_t>(size);
  return true;
}

inline Error too_large() {
  return wrapper_error(Status::out_of_range, "array has more than UINT32_MAX items");
}

inline uint32_t flag(bool b) noexcept { return b ? 1u : 0u; }

/// An optional handle argument given but empty: refused rather than read as "none".
inline Error empty_handle(const char* what) {
  std::string message = "the ";
  message += what;
  message += " given is empty (moved from or destroyed)";
  return wrapper_error(Status::null_pointer, message.c_str());
}

template <class T, class C>
const C* c_ptr(const T* p) noexcept {
  static_assert(layout_compatible<T, C>(), "layout-compatible types only");
  return reinterpret_cast<const C*>(p);
}
template <class T, class C>
C* c_ptr(T* p) noexcept {
  static_assert(layout_compatible<T, C>(), "layout-compatible types only");
  return reinterpret_cast<C*>(p);
}

/// Types the C API takes as they are (integers, floats, C structs and their subclasses).
template <class T>
T* c_ptr(T* p) noexcept {
  return p;
}
inline const SinewTransform* c_ptr(const Transform* p) noexcept {
  return c_ptr<Transform, SinewTransform>(p);
}
inline SinewTransform* c_ptr(Transform* p) noexcept { return c_ptr<Transform, SinewTransform>(p); }
inline const SinewVec3* c_ptr(const Vec3* p) noexcept { return c_ptr<Vec3, SinewVec3>(p); }
inline const SinewQuat* c_ptr(const Quat* p) noexcept { return c_ptr<Quat, SinewQuat>(p); }
inline const SinewMat4* c_ptr(const Mat4* p) noexcept { return c_ptr<Mat4, SinewMat4>(p); }
inline SinewMat4* c_ptr(Mat4* p) noexcept { return c_ptr<Mat4, SinewMat4>(p); }

/// Optional argument -> NULL or a pointer to a converted local.
template <class C, class T>
const C* opt_ptr(const std::optional<T>& value, C& storage) noexcept {
  if (!value) return nullptr;
  storage = *value;
  return &storage;
}

template <class From, class To>
using enable_span_from = std::enable_if_t<
    std::is_same<std::remove_const_t<From>, std::remove_const_t<To>>::value &&
        (std::is_const<To>::value || !std::is_const<From>::value),
    int>;
}  // namespace detail

// ============================================================================ Span

/// A non-owning view of `size()` contiguous `T`s (pointer + count), the wrapper's array
/// argument. Built implicitly from std::vector, std::array and C arrays (a `Span<const T>` also
/// from const containers and from `Span<T>`); the viewed storage must outlive the call.
template <class T>
class Span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  using size_type = std::size_t;
  using pointer = T*;
  using iterator = T*;

  constexpr Span() noexcept = default;
  constexpr Span(T* data, std::size_t size) noexcept : data_(data), size_(size) {}
  template <std::size_t N>
  constexpr Span(T (&array)[N]) noexcept : data_(array), size_(N) {}  // NOLINT: implicit
  template <class U, std::size_t N, detail::enable_span_from<U, T> = 0>
  constexpr Span(std::array<U, N>& array) noexcept  // NOLINT: implicit
      : data_(array.data()), size_(N) {}
  template <class U, std::size_t N, detail::enable_span_from<const U, T> = 0>
  constexpr Span(const std::array<U, N>& array) noexcept  // NOLINT: implicit
      : data_(array.data()), size_(N) {}
  template <class U, class A, detail::enable_span_from<U, T> = 0>
  Span(std::vector<U, A>& vector) noexcept  // NOLINT: implicit
      : data_(vector.data()), size_(vector.size()) {}
  template <class U, class A, detail::enable_span_from<const U, T> = 0>
  Span(const std::vector<U, A>& vector) noexcept  // NOLINT: implicit
      : data_(vector.data()), size_(vector.size()) {}
  template <class U, detail::enable_span_from<U, T> = 0>
  constexpr Span(const Span<U>& other) noexcept  // NOLINT: implicit
      : data_(other.data()), size_(other.size()) {}

  constexpr T* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr T* begin() const noexcept { return data_; }
  constexpr T* end() const noexcept { return data_ + size_; }
  constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// ============================================================================ handles

namespace detail {
/// A handle class (`Derived`) over `UniqueHandle`, which it extends with `adopt` (and whose
/// `reset` it keeps private: `Pose::reset` is the pose's own).
template <class Derived, class Native>
class Owned : public UniqueHandle<Native> {
 public:
  /// Takes ownership of a handle created through the C API.
  static Derived adopt(Native* handle) noexcept {
    Derived d;
    static_cast<UniqueHandle<Native>&>(d).reset(handle);
    return d;
  }

 protected:
  Owned() noexcept {}

  /// The object `create(args..., &out)` makes, or the error it reports.
  template <class... Params, class... Args>
  static Result<Derived> make(SinewStatus (*create)(Params...), Args... args) {
    Native* raw = nullptr;
    SinewStatus s = create(args..., &raw);
    if (s != SINEW_STATUS_OK) return Error::from_last(s);
    return adopt(raw);
  }

 private:
  using UniqueHandle<Native>::reset;
};

/// `f(handle, items, count)` for the items of a span, its size narrowed to the C `uint32_t`.
template <class F, class H, class T>
Result<void> call_with_span(F f, H* handle, Span<T> items) {
  uint32_t n = 0;
  if (!narrow(items.size(), n)) return too_large();
  return check_status(f(handle, c_ptr(items.data()), n));
}

/// A new vector of `count` items (unless `count` is an error) that `fill` writes into.
template <class T, class Fill>
Result<std::vector<T>> filled(Result<uint32_t> count, Fill fill) {
  if (!count) return count.error();
  std::vector<T> out(*count);
  Result<void> r = fill(Span<T>(out));
  if (!r) return r.error();
  return out;
}
}  // namespace detail

/// Joint hierarchy, rest pose and optional names; immutable once created and shared (by
/// reference count, inside the library) with the poses, masks, clips and controllers made
/// from it, so it may be destroyed before them.
class Skeleton : public detail::Owned<Skeleton, SinewSkeleton> {
 public:
  /// An empty handle (as a moved-from one).
  Skeleton() noexcept {}  // user-provided: not an aggregate

  /// A skeleton from parent indices (-1 for roots; parents before children) and rest-pose
  /// local transforms, of equal sizes.
  static Result<Skeleton> create(Span<const int32_t> parents, Span<const Transform> rest_pose) {
    return create_raw(parents, rest_pose, nullptr, 0, false);
  }
  /// As above, with one unique non-empty UTF-8 name per joint (copied).
  static Result<Skeleton> create(Span<const int32_t> parents, Span<const Transform> rest_pose,
                                 Span<const char* const> names) {
    return create_raw(parents, rest_pose, names.data(), names.size(), true);
  }
  /// As above, with names as std::strings.
  static Result<Skeleton> create(Span<const int32_t> parents, Span<const Transform> rest_pose,
                                 Span<const std::string> names) {
    std::vector<const char*> pointers;
    pointers.reserve(names.size());
    for (const std::string& name : names) pointers.push_back(name.c_str());
    return create_raw(parents, rest_pose, pointers.data(), names.size(), true);
  }

  Result<uint32_t> joint_count() const {
    uint32_t count = 0;
    SinewStatus s = sinew_skeleton_joint_count(get(), &count);
    return detail::checked(s, count);
  }

  /// Index of the joint named `name`; `Status::not_found` when there is none.
  Result<uint32_t> find_joint(const char* name) const {
    uint32_t index = 0;
    SinewStatus s = sinew_skeleton_find_joint(get(), name, &index);
    return detail::checked(s, index);
  }
  Result<uint32_t> find_joint(const std::string& name) const { return find_joint(name.c_str()); }

  /// Copies the parent indices into `out` (its size must be the joint count).
  Result<void> get_parents(Span<int32_t> out) const {
    return detail::call_with_span(&sinew_skeleton_get_parents, get(), out);
  }
  /// The parent indices, in a new vector.
  Result<std::vector<int32_t>> parents() const {
    return detail::filled<int32_t>(joint_count(),
                                   [this](Span<int32_t> out) { return get_parents(out); });
  }

  /// Copies the rest-pose local transforms into `out` (its size must be the joint count).
  Result<void> get_rest_pose(Span<Transform> out) const {
    return detail::call_with_span(&sinew_skeleton_get_rest_pose, get(), out);
  }
  /// The rest-pose local transforms, in a new vector.
  Result<std::vector<Transform>> rest_pose() const {
    return detail::filled<Transform>(joint_count(),
                                     [this](Span<Transform> out) { return get_rest_pose(out); });
  }

 private:
  static Result<Skeleton> create_raw(Span<const int32_t> parents, Span<const Transform> rest,
                                     const char* const* names, std::size_t name_count,
                                     bool with_names) {
    if (rest.size() != parents.size() || (with_names && name_count != parents.size())) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "parents, rest_pose and names must have the same size");
    }
    uint32_t n = 0;
    if (!detail::narrow(parents.size(), n)) return detail::too_large();
    return make(&sinew_skeleton_create, parents.data(), detail::c_ptr(rest.data()),
                with_names ? names : nullptr, n);
  }
};

/// Per-joint weights in [0, 1] for one skeleton's joint count: restricts a blend or an
/// additive layer to part of the body.
class JointMask : public detail::Owned<JointMask, SinewJointMask> {
 public:
  /// An empty handle (as a moved-from one).
  JointMask() noexcept {}  // user-provided: not an aggregate

  /// Every joint of `skeleton` gets `value`.
  static Result<JointMask> create(const Skeleton& skeleton, float value) {
    return make(&sinew_joint_mask_create, skeleton.get(), value);
  }
  /// Weight 1 on the subtree at `root` (0 elsewhere), ramping over its first `blend_depth`
  /// levels as (depth + 1) / (blend_depth + 1), like Unreal's branch filter.
  static Result<JointMask> create_subtree(const Skeleton& skeleton, uint32_t root,
                                          uint32_t blend_depth) {
    return make(&sinew_joint_mask_create_subtree, skeleton.get(), root, blend_depth);
  }

  Result<void> set_weight(uint32_t joint, float weight) {
    return detail::check_status(sinew_joint_mask_set_weight(get(), joint, weight));
  }
  /// Replaces every weight (`weights.size()` must be the joint count).
  Result<void> set_weights(Span<const float> weights) {
    return detail::call_with_span(&sinew_joint_mask_set_weights, get(), weights);
  }
  /// Copies every weight into `out` (its size must be the joint count).
  Result<void> get_weights(Span<float> out) const {
    return detail::call_with_span(&sinew_joint_mask_get_weights, get(), out);
  }
};

/// The joints a mesh is skinned to and one inverse bind matrix each (the inverse of the
/// joint's model matrix at bind time, as glTF's `inverseBindMatrices`), given once; poses
/// compute skinning palettes from it (`Pose::compute_skinning_palette`). Immutable.
class Skin : public detail::Owned<Skin, SinewSkin> {
 public:
  /// An empty handle (as a moved-from one).
  Skin() noexcept {}  // user-provided: not an aggregate

  /// A skin of every joint of `skeleton` in order (`inverse_binds.size()` is the joint count).
  static Result<Skin> create(const Skeleton& skeleton, Span<const Mat4> inverse_binds) {
    uint32_t n = 0;
    if (!detail::narrow(inverse_binds.size(), n)) return detail::too_large();
    return make(&sinew_skin_create, skeleton.get(), static_cast<const uint32_t*>(nullptr),
                detail::c_ptr(inverse_binds.data()), n);
  }
  /// A skin whose palette entry `k` is joint `joints[k]` (unique), with `inverse_binds[k]`
  /// (equal sizes).
  static Result<Skin> create(const Skeleton& skeleton, Span<const uint32_t> joints,
                             Span<const Mat4> inverse_binds) {
    if (joints.size() != inverse_binds.size()) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "joints and inverse_binds must have the same size");
    }
    uint32_t n = 0;
    if (!detail::narrow(joints.size(), n)) return detail::too_large();
    return make(&sinew_skin_create, skeleton.get(), joints.data(),
                detail::c_ptr(inverse_binds.data()), n);
  }

  /// Number of palette entries (skinned joints).
  Result<uint32_t> joint_count() const {
    uint32_t count = 0;
    SinewStatus s = sinew_skin_joint_count(get(), &count);
    return detail::checked(s, count);
  }
};

/// One local transform per joint of a skeleton (which it keeps alive): what solvers, blends,
/// clips and crossfades read and write. Use one pose from one thread at a time.
class Pose : public detail::Owned<Pose, SinewPose> {
 public:
  /// An empty handle (as a moved-from one).
  Pose() noexcept {}  // user-provided: not an aggregate

  /// A pose of `skeleton` at its rest pose.
  static Result<Pose> create(const Skeleton& skeleton) {
    return make(&sinew_pose_create, skeleton.get());
  }

  Result<uint32_t> joint_count() const {
    uint32_t count = 0;
    SinewStatus s = sinew_pose_joint_count(get(), &count);
    return detail::checked(s, count);
  }

  /// Returns every joint to the skeleton's rest pose.
  Result<void> reset() { return detail::check_status(sinew_pose_reset(get())); }

  /// Copies the local transforms into `out` (its size must be the joint count).
  Result<void> get_local(Span<Transform> out) const {
    return detail::call_with_span(&sinew_pose_get_local, get(), out);
  }
  /// The local transforms, in a new vector.
  Result<std::vector<Transform>> get_local() const {
    return detail::filled<Transform>(joint_count(),
                                     [this](Span<Transform> out) { return get_local(out); });
  }
  /// Replaces the local transforms (rotations renormalized); unchanged on error.
  Result<void> set_local(Span<const Transform> local) {
    return detail::call_with_span(&sinew_pose_set_local, get(), local);
  }

  /// Computes the model-space transforms into `out`: each joint's parent's model transform
  /// composed with its local one, root first (the one rule every model-space call follows).
  /// The same results as the const `compute_model` (the C call takes a mutable pose only for
  /// compatibility); `out` is untouched on error.
  Result<void> get_model(Span<Transform> out) {
    return detail::call_with_span(&sinew_pose_get_model, get(), out);
  }
  /// The model-space transforms, in a new vector.
  Result<std::vector<Transform>> get_model() {
    return detail::filled<Transform>(joint_count(),
                                     [this](Span<Transform> out) { return get_model(out); });
  }
  /// `get_model` on a const pose: the same transforms, bit for bit, into `out` (its size must
  /// be the joint count). A cheap first pass bounds the results, so `out` is untouched on
  /// error.
  Result<void> compute_model(Span<Transform> out) const {
    return detail::call_with_span(&sinew_pose_compute_model, get(), out);
  }
  /// `compute_model` into a new vector.
  Result<std::vector<Transform>> compute_model() const {
    return detail::filled<Transform>(joint_count(),
                                     [this](Span<Transform> out) { return compute_model(out); });
  }
  /// Model-space 4×4 matrices (column-major) of every joint into `out` (its size must be the
  /// joint count): each joint's model transform as a matrix (scale, then rotation, then
  /// translation), composed as matrices down the hierarchy, so equal to the matrix of
  /// `compute_model`'s transform to rounding (the exact rule: `sinew_pose_compute_model_matrices`).
  /// Const; `out` is untouched on error.
  Result<void> compute_model_matrices(Span<Mat4> out) const {
    return detail::call_with_span(&sinew_pose_compute_model_matrices, get(), out);
  }
  /// `compute_model_matrices` into a new vector.
  Result<std::vector<Mat4>> compute_model_matrices() const {
    return detail::filled<Mat4>(joint_count(),
                                [this](Span<Mat4> out) { return compute_model_matrices(out); });
  }
  /// `skin`'s skinning palette into `out` (its size must be the skin's joint count): entry `k`
  /// is the model matrix of the skin's joint `k` times its inverse bind matrix. Const; `out`
  /// is untouched on error.
  Result<void> compute_skinning_palette(const Skin& skin, Span<Mat4> out) const {
    uint32_t n = 0;
    if (!detail::narrow(out.size(), n)) return detail::too_large();
    return detail::check_status(
        sinew_pose_compute_skinning_palette(get(), skin.get(), detail::c_ptr(out.data()), n));
  }
  /// `compute_skinning_palette` into a new vector.
  Result<std::vector<Mat4>> compute_skinning_palette(const Skin& skin) const {
    return detail::filled<Mat4>(skin.joint_count(), [this, &skin](Span<Mat4> out) {
      return compute_skinning_palette(skin, out);
    });
  }
  /// Sets the pose from model-space transforms of every joint; unchanged on error.
  Result<void> set_model(Span<const Transform> model) {
    return detail::call_with_span(&sinew_pose_set_model, get(), model);
  }

  /// One joint's model-space transform (walks its ancestors only, root first: the same bits
  /// as `get_model`).
  Result<Transform> model_transform(uint32_t joint) const {
    SinewTransform out{};
    SinewStatus s = sinew_pose_get_model_transform(get(), joint, &out);
    return detail::checked(s, Transform(out));
  }
  /// Moves one joint to a model-space transform; its descendants follow.
  Result<void> set_model_transform(uint32_t joint, const Transform& transform) {
    const SinewTransform t = transform;
    return detail::check_status(sinew_pose_set_model_transform(get(), joint, &t));
  }

  /// Projects the local rotations of `joints[i]` onto `constraints[i]` (equal sizes); every
  /// entry is validated before any is applied.
  Result<void> apply_constraints(Span<const uint32_t> joints,
                                 Span<const JointConstraint> constraints) {
    if (joints.size() != constraints.size()) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "joints and constraints must have the same size");
    }
    uint32_t n = 0;
    if (!detail::narrow(joints.size(), n)) return detail::too_large();
    return detail::check_status(
        sinew_pose_apply_constraints(get(), joints.data(), constraints.data(), n));
  }
};

namespace detail {
/// Whether an optional per-chain span of a batch is absent (empty) or has one item per chain.
inline bool per_chain(std::size_t size, std::size_t chains) noexcept {
  return size == 0 || size == chains;
}

/// Whether `transforms` is exactly `joints` transforms for each of `chains` chains (computed
/// without overflow).
inline bool holds_chains(std::size_t transforms, std::size_t joints, std::size_t chains) noexcept {
  return chains == 0 ? transforms == 0 : transforms % chains == 0 && transforms / chains == joints;
}

/// An optional batch array: NULL when empty (an empty span's data() need not be NULL).
inline const SinewVec3* opt_array(Span<const Vec3> s) noexcept {
  return s.empty() ? nullptr : c_ptr(s.data());
}
inline const SinewQuat* opt_array(Span<const Quat> s) noexcept {
  return s.empty() ? nullptr : c_ptr(s.data());
}
template <class T>
const T* opt_array(Span<const T> s) noexcept {
  return s.empty() ? nullptr : s.data();
}

static_assert(sizeof(IkResult) == sizeof(SinewIkResult) &&
                  alignof(IkResult) == alignof(SinewIkResult) &&
                  std::is_trivially_copyable<IkResult>::value,
              "batch results are converted in place");

/// Hands a span of `IkResult` to a batch call as `SinewIkResult*` without a buffer: the two
/// have one size but not one layout (`bool reached`), so each entry is rewritten as its C
/// struct for the call and read back (as the library left it) when this object goes away.
/// Entries the library does not write keep their values.
class BatchResults {
 public:
  explicit BatchResults(Span<IkResult> results) noexcept : results_(results) {
    for (IkResult& r : results_) {
      const SinewIkResult c = r.to_c();
      std::memcpy(static_cast<void*>(&r), &c, sizeof c);
    }
  }
  BatchResults(const BatchResults&) = delete;
  BatchResults& operator=(const BatchResults&) = delete;
  ~BatchResults() {
    for (IkResult& r : results_) {
      SinewIkResult c;
      std::memcpy(&c, static_cast<const void*>(&r), sizeof c);
      r = IkResult(c);
    }
  }
  /// The C array (NULL when no results were asked for).
  SinewIkResult* get() const noexcept {
    return results_.empty() ? nullptr : reinterpret_cast<SinewIkResult*>(results_.data());
  }

 private:
  Span<IkResult> results_;
};
}  // namespace detail

namespace detail {
/// What every solver has: its settings (`SolverSettings<Native>`), read and replaced through
/// `HandleTraits<Native>`, and creation from them.
template <class Derived, class Native>
class Solver : public Owned<Derived, Native> {
  using C = HandleTraits<Native>;

 public:
  Result<SolverSettings<Native>> settings() const {
    typename C::Settings out{};
    SinewStatus s = C::get_settings(this->get(), &out);
    return checked(s, SolverSettings<Native>(out));
  }
  /// Replaces the settings (validated; unchanged on error).
  Result<void> set_settings(const SolverSettings<Native>& settings) {
    return check_status(C::set_settings(this->get(), &settings));
  }

 protected:
  Solver() noexcept {}

  /// The solver `HandleTraits<Native>::create(&settings, extra..., &out)` makes.
  template <class... Extra>
  static Result<Derived> create_solver(const SolverSettings<Native>& settings, Extra... extra) {
    return Solver::make(C::create, static_cast<const typename C::Settings*>(&settings), extra...);
  }
};
}  // namespace detail

/// Analytic two-bone IK (Unreal's TwoBoneIK node plus soften, twist preservation and pole
/// weight). One solver may serve many chains, from one thread at a time; for a crowd,
/// `solve_batch` solves many chains per call, with one solver per worker thread.
class TwoBoneIk : public detail::Solver<TwoBoneIk, SinewTwoBoneIk> {
 public:
  /// An empty handle (as a moved-from one).
  TwoBoneIk() noexcept {}  // user-provided: not an aggregate

  static Result<TwoBoneIk> create(const TwoBoneIkSettings& settings = TwoBoneIkSettings()) {
    return create_solver(settings);
  }

  /// Solves three model-space transforms (root, joint, end) in place toward `effector`.
  /// `effector_rotation` is used by `EndRotation::copy_effector`; `joint_target` is the pole
  /// (none keeps the chain's bend, turned onto the target by the minimal rotation of its
  /// root-end direction). `chain` must hold exactly 3 transforms.
  Result<IkResult> solve(Span<Transform> chain, const Vec3& effector,
                         const std::optional<Quat>& effector_rotation = std::nullopt,
                         const std::optional<Vec3>& joint_target = std::nullopt) {
    if (chain.size() != 3) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "a two-bone chain holds exactly 3 transforms");
    }
    const SinewVec3 e = effector;
    SinewQuat rotation_storage{};
    SinewVec3 target_storage{};
    SinewIkResult result{};
    SinewStatus s = sinew_two_bone_ik_solve(
        get(), detail::c_ptr(chain.data()), &e,
        detail::opt_ptr(effector_rotation, rotation_storage),
        detail::opt_ptr(joint_target, target_storage), &result);
    return detail::checked(s, IkResult(result));
  }

  /// Solves `effector_positions.size()` independent chains in one call (a crowd): `chains`
  /// holds 3 model-space transforms (root, joint, end) per chain, back to back, solved in place
  /// toward `effector_positions[i]`. `effector_rotations`, `joint_targets` (poles) and
  /// `out_results` are each empty (none, for every chain) or hold one item per chain. Each
  /// chain's result equals `solve`'s bit for bit (four chains per pass of four-wide lanes through the kernel
  /// that `solve` runs on one chain, per component in the same order). Every input is checked before anything is written, so an
  /// error leaves every span untouched, except `Status::numeric_overflow`: chains whose result
  /// is not representable (the message names the first) keep their transforms and results,
  /// and the others are solved. Allocates nothing on success. One solver per worker thread;
  /// there is no global lock.
  Result<void> solve_batch(Span<Transform> chains, Span<const Vec3> effector_positions,
                           Span<const Quat> effector_rotations = {},
                           Span<const Vec3> joint_targets = {},
                           Span<IkResult> out_results = {}) {
    const std::size_t count = effector_positions.size();
    if (!detail::holds_chains(chains.size(), 3, count)) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "chains must hold 3 transforms per effector position");
    }
    if (!detail::per_chain(effector_rotations.size(), count) ||
        !detail::per_chain(joint_targets.size(), count) ||
        !detail::per_chain(out_results.size(), count)) {
      return detail::wrapper_error(
          Status::size_mismatch,
          "effector_rotations, joint_targets and out_results must be empty or hold one item "
          "per effector position");
    }
    uint32_t n = 0;
    if (!detail::narrow(count, n)) return detail::too_large();
    detail::BatchResults results(out_results);
    return detail::check_status(sinew_two_bone_ik_solve_batch(
        get(), detail::c_ptr(chains.data()), n, detail::c_ptr(effector_positions.data()),
        detail::opt_array(effector_rotations), detail::opt_array(joint_targets), results.get()));
  }

  /// `solve_batch` for chains in structure-of-arrays blocks of four (ozz's `SoaTransform`
  /// layout): group `g` holds chains `4g..4g+3` in lanes 0 to 3 of `chains[3g]` (roots),
  /// `chains[3g + 1]` (joints) and `chains[3g + 2]` (ends), toward the lanes of
  /// `effector_positions[g]`. `chains` holds 3 blocks and `effector_positions` one per group
  /// of four (`(chain_count + 3) / 4` groups); `effector_rotations` and `joint_targets` are
  /// empty or hold one block per group, `out_results` is empty or holds one result per chain.
  /// Lanes past `chain_count` in the last group are read but never written. Each chain's
  /// result equals `solve_batch`'s (and `solve`'s) bit for bit; errors as in `solve_batch`.
  Result<void> solve_batch_soa(Span<SoaTransform> chains, std::size_t chain_count,
                               Span<const SoaVec3> effector_positions,
                               Span<const SoaQuat> effector_rotations = {},
                               Span<const SoaVec3> joint_targets = {},
                               Span<IkResult> out_results = {}) {
    const std::size_t groups = chain_count / 4 + (chain_count % 4 != 0 ? 1 : 0);
    if (chains.size() != 3 * groups || effector_positions.size() != groups) {
      return detail::wrapper_error(
          Status::size_mismatch,
          "chains must hold 3 blocks and effector_positions 1 block per group of four chains");
    }
    if (!detail::per_chain(effector_rotations.size(), groups) ||
        !detail::per_chain(joint_targets.size(), groups) ||
        !detail::per_chain(out_results.size(), chain_count)) {
      return detail::wrapper_error(
          Status::size_mismatch,
          "effector_rotations and joint_targets must be empty or hold one block per group of "
          "four chains, out_results empty or one item per chain");
    }
    uint32_t n = 0;
    if (!detail::narrow(chain_count, n)) return detail::too_large();
    detail::BatchResults results(out_results);
    return detail::check_status(sinew_two_bone_ik_solve_batch_soa(
        get(), chains.data(), n, effector_positions.data(),
        detail::opt_array(effector_rotations), detail::opt_array(joint_targets), results.get()));
  }

  /// Solves joints `root`, `joint`, `end` of `pose` (each the parent of the next) toward a
  /// model-space effector and writes their local transforms back.
  Result<IkResult> solve_pose(Pose& pose, uint32_t root, uint32_t joint, uint32_t end,
                              const Vec3& effector,
                              const std::optional<Quat>& effector_rotation = std::nullopt,
                              const std::optional<Vec3>& joint_target = std::nullopt) {
    const SinewVec3 e = effector;
    SinewQuat rotation_storage{};
    SinewVec3 target_storage{};
    SinewIkResult result{};
    SinewStatus s = sinew_two_bone_ik_solve_pose(
        get(), pose.get(), root, joint, end, &e,
        detail::opt_ptr(effector_rotation, rotation_storage),
        detail::opt_ptr(joint_target, target_storage), &result);
    return detail::checked(s, IkResult(result));
  }
};

namespace detail {
/// FABRIK and CCD: one implementation over the chain functions of `HandleTraits<Native>`.
template <class Derived, class Native>
class ChainSolver : public Solver<Derived, Native> {
  using C = HandleTraits<Native>;

 public:
  using Settings = SolverSettings<Native>;

  /// A solver for chains of 2 to `max_joints` joints; all its memory is allocated here.
  static Result<Derived> create(const Settings& settings, uint32_t max_joints) {
    return ChainSolver::create_solver(settings, max_joints);
  }
  /// As above with default settings.
  static Result<Derived> create(uint32_t max_joints) { return create(Settings(), max_joints); }

  /// Constrains chain joint `joint` (0 is the chain's root).
  Result<void> set_constraint(uint32_t joint, const JointConstraint& constraint) {
    return check_status(C::set_constraint(this->get(), joint, &constraint));
  }
  /// Removes chain joint `joint`'s constraint.
  Result<void> clear_constraint(uint32_t joint) {
    return check_status(C::set_constraint(this->get(), joint, nullptr));
  }

  /// Solves model-space transforms (root first; the root stays in place) in place toward
  /// `effector`. `root_parent_rotation` is the model rotation of the root's parent, which the
  /// root's constraint is relative to (none: identity).
  Result<IkResult> solve(Span<Transform> chain, const Vec3& effector,
                         const std::optional<Quat>& effector_rotation = std::nullopt,
                         const std::optional<Quat>& root_parent_rotation = std::nullopt) {
    uint32_t n = 0;
    if (!narrow(chain.size(), n)) return too_large();
    const SinewVec3 e = effector;
    SinewQuat rotation_storage{};
    SinewQuat parent_storage{};
    SinewIkResult result{};
    SinewStatus s = C::solve(this->get(), c_ptr(chain.data()), n,
                             opt_ptr(root_parent_rotation, parent_storage), &e,
                             opt_ptr(effector_rotation, rotation_storage), &result);
    return checked(s, IkResult(result));
  }

  /// Solves `effector_positions.size()` independent chains of `joint_count` model-space
  /// transforms each, stored back to back in `chains`, in one call (a crowd); chain i is solved
  /// exactly (bit for bit) as `solve` would, toward `effector_positions[i]`.
  /// `effector_rotations`, `root_parent_rotations` (none: identity) and `out_results` are each
  /// empty (for every chain) or hold one item per chain. Every input is checked before
  /// anything is written, so an error leaves every span untouched, except
  /// `Status::numeric_overflow`: chains whose result is not representable (the message names
  /// the first) keep their transforms and results, and the others are solved. Allocates
  /// nothing on success. The solver's scratch memory makes it one thread at a time: one solver
  /// per worker thread; there is no global lock.
  Result<void> solve_batch(Span<Transform> chains, std::size_t joint_count,
                           Span<const Vec3> effector_positions,
                           Span<const Quat> effector_rotations = {},
                           Span<const Quat> root_parent_rotations = {},
                           Span<IkResult> out_results = {}) {
    const std::size_t count = effector_positions.size();
    if (!holds_chains(chains.size(), joint_count, count)) {
      return wrapper_error(Status::size_mismatch,
                           "chains must hold joint_count transforms per effector position");
    }
    if (!per_chain(effector_rotations.size(), count) ||
        !per_chain(root_parent_rotations.size(), count) ||
        !per_chain(out_results.size(), count)) {
      return wrapper_error(Status::size_mismatch,
                           "effector_rotations, root_parent_rotations and out_results must be "
                           "empty or hold one item per effector position");
    }
    uint32_t n = 0;
    uint32_t joints = 0;
    if (!narrow(count, n) || !narrow(joint_count, joints)) return too_large();
    BatchResults results(out_results);
    return check_status(C::solve_batch(this->get(), c_ptr(chains.data()), joints, n,
                                       opt_array(root_parent_rotations),
                                       c_ptr(effector_positions.data()),
                                       opt_array(effector_rotations), results.get()));
  }

  /// Solves joints `joints` of `pose` (root to tip, each the parent of the next) toward a
  /// model-space effector and writes their local rotations back.
  Result<IkResult> solve_pose(Pose& pose, Span<const uint32_t> joints, const Vec3& effector,
                              const std::optional<Quat>& effector_rotation = std::nullopt) {
    uint32_t n = 0;
    if (!narrow(joints.size(), n)) return too_large();
    const SinewVec3 e = effector;
    SinewQuat rotation_storage{};
    SinewIkResult result{};
    SinewStatus s = C::solve_pose(this->get(), pose.get(), joints.data(), n, &e,
                                  opt_ptr(effector_rotation, rotation_storage), &result);
    return checked(s, IkResult(result));
  }

 protected:
  ChainSolver() noexcept {}
};
}  // namespace detail

/// FABRIK chain solver (Unreal's FABRIK node plus per-joint constraints); all memory is
/// allocated at creation, solving allocates nothing. One thread at a time; for a crowd,
/// `solve_batch` solves many chains per call, with one solver per worker thread.
class Fabrik : public detail::ChainSolver<Fabrik, SinewFabrik> {
 public:
  /// An empty handle (as a moved-from one).
  Fabrik() noexcept {}  // user-provided: not an aggregate
};

/// CCD chain solver (Unreal's CCDIK node plus per-joint constraints, weights and rotation
/// limits); all memory is allocated at creation. One thread at a time; for a crowd,
/// `solve_batch` solves many chains per call, with one solver per worker thread.
class Ccd : public detail::ChainSolver<Ccd, SinewCcd> {
 public:
  /// An empty handle (as a moved-from one).
  Ccd() noexcept {}  // user-provided: not an aggregate

  /// Chain joint `joint`'s rotation limit (degrees from the input per solve, in [0, 180];
  /// 180 is unlimited; from the input's projection where it breaks the joint's constraint; not
  /// the tip, which follows end_rotation) and weight (fraction of each step taken, in [0, 1]).
  Result<void> set_joint(uint32_t joint, float rotation_limit_degrees, float weight) {
    return detail::check_status(sinew_ccd_set_joint(get(), joint, rotation_limit_degrees, weight));
  }
};

/// Aim / look-at chain: turns a chain (spine to head, or one joint) so the last joint's aim
/// axis, from its aim origin (`aim_offset`), points at a target; the turn is one rotation
/// shared out by per-joint weights under per-joint limits and an overall clamp (README, "Aim
/// and look-at"). `IkResult::error` is the residual angle in radians. All memory is allocated
/// at creation; one thread at a time; `solve_batch` solves a crowd in one call.
class AimIk : public detail::Solver<AimIk, SinewAimIk> {
 public:
  /// An empty handle (as a moved-from one).
  AimIk() noexcept {}  // user-provided: not an aggregate

  /// A solver for chains of 1 to `max_joints` joints (every joint weight 1, unlimited).
  static Result<AimIk> create(const AimIkSettings& settings, uint32_t max_joints) {
    return create_solver(settings, max_joints);
  }
  /// As above with default settings.
  static Result<AimIk> create(uint32_t max_joints) { return create(AimIkSettings(), max_joints); }

  /// Chain joint `joint`'s share of the turn (`weight` >= 0; 0 does not turn) and its limit
  /// (degrees from its input rotation, in [0, 180]): joint i turns min(limit_i, lambda *
  /// weight_i), the turns adding up to the whole turn.
  Result<void> set_joint(uint32_t joint, float weight, float max_angle_degrees) {
    return detail::check_status(sinew_aim_ik_set_joint(get(), joint, weight, max_angle_degrees));
  }

  /// Turns model-space transforms (root first; the root stays in place) in place so the aim
  /// axis points at `target`; `up_target` (a direction, or a position with `up_is_position`)
  /// rolls the last joint's up axis toward it (none: minimal roll).
  Result<IkResult> solve(Span<Transform> chain, const Vec3& target,
                         const std::optional<Vec3>& up_target = std::nullopt) {
    uint32_t n = 0;
    if (!detail::narrow(chain.size(), n)) return detail::too_large();
    const SinewVec3 t = target;
    SinewVec3 up_storage{};
    SinewIkResult result{};
    SinewStatus s = sinew_aim_ik_solve(get(), detail::c_ptr(chain.data()), n, &t,
                                       detail::opt_ptr(up_target, up_storage), &result);
    return detail::checked(s, IkResult(result));
  }

  /// Solves `targets.size()` chains of `joint_count` transforms stored back to back, each
  /// exactly (bit for bit) as `solve`; `up_targets` and `out_results` are empty or hold one
  /// item per chain. Checks, untouched outputs on error and the overflow rule as
  /// `Fabrik::solve_batch`.
  Result<void> solve_batch(Span<Transform> chains, std::size_t joint_count,
                           Span<const Vec3> targets, Span<const Vec3> up_targets = {},
                           Span<IkResult> out_results = {}) {
    const std::size_t count = targets.size();
    if (!detail::holds_chains(chains.size(), joint_count, count)) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "chains must hold joint_count transforms per target");
    }
    if (!detail::per_chain(up_targets.size(), count) ||
        !detail::per_chain(out_results.size(), count)) {
      return detail::wrapper_error(
          Status::size_mismatch, "up_targets and out_results must be empty or hold one item per target");
    }
    uint32_t n = 0;
    uint32_t joints = 0;
    if (!detail::narrow(count, n) || !detail::narrow(joint_count, joints)) {
      return detail::too_large();
    }
    detail::BatchResults results(out_results);
    return detail::check_status(sinew_aim_ik_solve_batch(
        get(), detail::c_ptr(chains.data()), joints, n, detail::c_ptr(targets.data()),
        detail::opt_array(up_targets), results.get()));
  }

  /// Solves joints `joints` of `pose` (root to tip, each the parent of the next) and writes
  /// their local rotations back.
  Result<IkResult> solve_pose(Pose& pose, Span<const uint32_t> joints, const Vec3& target,
                              const std::optional<Vec3>& up_target = std::nullopt) {
    uint32_t n = 0;
    if (!detail::narrow(joints.size(), n)) return detail::too_large();
    const SinewVec3 t = target;
    SinewVec3 up_storage{};
    SinewIkResult result{};
    SinewStatus s = sinew_aim_ik_solve_pose(get(), pose.get(), joints.data(), n, &t,
                                            detail::opt_ptr(up_target, up_storage), &result);
    return detail::checked(s, IkResult(result));
  }
};

/// Multi-effector FABRIK: a joint tree (a root and several end joints, e.g. pelvis to both
/// hands) solved toward one weighted target per effector; constraints are set per skeleton
/// joint. All memory is allocated at creation, solving allocates nothing. One thread at a time.
class MultiFabrik : public detail::Solver<MultiFabrik, SinewMultiFabrik> {
 public:
  using Settings = MultiFabrikSettings;

  /// An empty handle (as a moved-from one).
  MultiFabrik() noexcept {}  // user-provided: not an aggregate

  /// A solver for trees of 2 to `max_joints` joints and 1 to `max_effectors` effectors (at
  /// most `max_joints` and 64).
  static Result<MultiFabrik> create(const Settings& settings, uint32_t max_joints,
                                    uint32_t max_effectors) {
    return create_solver(settings, max_joints, max_effectors);
  }
  /// As above with default settings.
  static Result<MultiFabrik> create(uint32_t max_joints, uint32_t max_effectors) {
    return create(Settings(), max_joints, max_effectors);
  }

  /// Constrains skeleton joint `joint` whenever it is in a solved tree.
  Result<void> set_constraint(uint32_t joint, const JointConstraint& constraint) {
    return detail::check_status(sinew_multi_fabrik_set_constraint(get(), joint, &constraint));
  }
  /// Removes skeleton joint `joint`'s constraint.
  Result<void> clear_constraint(uint32_t joint) {
    return detail::check_status(sinew_multi_fabrik_set_constraint(get(), joint, nullptr));
  }

  /// Solves the tree of `root` and `effectors` in `model` (every model-space transform of
  /// `skeleton`) toward `targets` (one per effector); writes the tree's translations and
  /// rotations, and one result per effector into `out_results` (empty: not reported).
  Result<void> solve(const Skeleton& skeleton, Span<Transform> model, uint32_t root,
                     Span<const uint32_t> effectors, Span<const EffectorTarget> targets,
                     Span<IkResult> out_results = {}) {
    uint32_t n = 0;
    uint32_t m = 0;
    if (!detail::narrow(model.size(), n)) return detail::too_large();
    if (auto e = check_sizes(effectors, targets, out_results, m)) return *e;
    detail::BatchResults results(out_results);
    return detail::check_status(sinew_multi_fabrik_solve(
        get(), skeleton.get(), detail::c_ptr(model.data()), n, root, effectors.data(), m,
        targets.data(), results.get()));
  }

  /// As `solve`, on `pose`: the solved rotations go back as local rotations (joints outside
  /// the tree keep their locals and follow).
  Result<void> solve_pose(Pose& pose, uint32_t root, Span<const uint32_t> effectors,
                          Span<const EffectorTarget> targets, Span<IkResult> out_results = {}) {
    uint32_t m = 0;
    if (auto e = check_sizes(effectors, targets, out_results, m)) return *e;
    detail::BatchResults results(out_results);
    return detail::check_status(sinew_multi_fabrik_solve_pose(
        get(), pose.get(), root, effectors.data(), m, targets.data(), results.get()));
  }

 private:
  /// One target per effector, and no results or one per effector; their count in `m`.
  static std::optional<Error> check_sizes(Span<const uint32_t> effectors,
                                          Span<const EffectorTarget> targets,
                                          Span<IkResult> out_results, uint32_t& m) {
    if (targets.size() != effectors.size() ||
        !(out_results.empty() || out_results.size() == effectors.size())) {
      return detail::wrapper_error(Status::size_mismatch,
                                   "targets must hold one item per effector, out_results none "
                                   "or one per effector");
    }
    if (!detail::narrow(effectors.size(), m)) return detail::too_large();
    return std::nullopt;
  }
};

/// Unreal's HandIKRetargeting node: moves IK bones by the offset between the FK and IK hands.
class HandIkRetargeting : public detail::Solver<HandIkRetargeting, SinewHandIkRetargeting> {
 public:
  /// An empty handle (as a moved-from one).
  HandIkRetargeting() noexcept {}  // user-provided: not an aggregate

  static Result<HandIkRetargeting> create(
      const HandIkRetargetingSettings& settings = HandIkRetargetingSettings()) {
    return create_solver(settings);
  }

  /// Moves `bones` of a model-space array by the offset (hands read from the same array);
  /// returns the offset.
  Result<Vec3> apply_model(Span<Transform> model, const HandJoints& hands,
                           Span<const uint32_t> bones) const {
    uint32_t n = 0;
    uint32_t bone_count = 0;
    if (!detail::narrow(model.size(), n) || !detail::narrow(bones.size(), bone_count)) {
      return detail::too_large();
    }
    SinewVec3 offset{};
    SinewStatus s = sinew_hand_ik_retargeting_apply_model(
        get(), detail::c_ptr(model.data()), n, &hands, bones.data(), bone_count, &offset);
    return detail::checked(s, Vec3(offset));
  }
  /// Moves `bones` of `pose` by the offset in model space (descendants follow); returns it.
  Result<Vec3> apply_pose(Pose& pose, const HandJoints& hands, Span<const uint32_t> bones) const {
    uint32_t bone_count = 0;
    if (!detail::narrow(bones.size(), bone_count)) return detail::too_large();
    SinewVec3 offset{};
    SinewStatus s = sinew_hand_ik_retargeting_apply_pose(get(), pose.get(), &hands, bones.data(),
                                                         bone_count, &offset);
    return detail::checked(s, Vec3(offset));
  }
};

class Clip;

/// Remembers key positions so forward playback of a clip is O(1) per track. Works with any
/// clip of the joint count it was made for.
class ClipCursor
    : public detail::Owned<ClipCursor, SinewClipCursor> {
 public:
  /// An empty handle (as a moved-from one).
  ClipCursor() noexcept {}  // user-provided: not an aggregate
  /// A cursor for clips of `clip`'s joint count (defined after `Clip`).
  static Result<ClipCursor> create(const Clip& clip);
};

/// A keyframed clip of one skeleton's joints (joints without tracks keep the rest pose).
/// Set its tracks before a crossfade plays it: playing controllers share it by reference
/// count and keep it alive after this handle is destroyed.
class Clip : public detail::Owned<Clip, SinewClip> {
 public:
  /// An empty handle (as a moved-from one).
  Clip() noexcept {}  // user-provided: not an aggregate

  /// An empty clip of `duration` seconds.
  static Result<Clip> create(const Skeleton& skeleton, float duration) {
    return make(&sinew_clip_create, skeleton.get(), duration);
  }

  Result<float> duration() const {
    float out = 0.0f;
    SinewStatus s = sinew_clip_duration(get(), &out);
    return detail::checked(s, out);
  }

  /// A clip from `frame_count` uniformly sampled frames at `frame_rate` frames per second
  /// (`sinew_clip_create_from_frames`): `frames` holds `frame_count` x joint count local
  /// transforms, frame-major (frame f, joint j at `f * joint_count + j`). Joints whose
  /// `joint_mask` byte is 1 (every joint when the mask is empty; 0 keeps the rest pose) get
  /// translation, rotation and scale tracks keyed at `k / frame_rate` s (computed in double
  /// per key, rounded once: the last key is the duration exactly). The duration is
  /// `(frame_count - 1) / frame_rate`, or with `wrap` `frame_count / frame_rate` and the clip
  /// wrapping (`set_wrap`). `interpolation` is step, linear or slerp. The joint count passed
  /// to the library is `frames.size() / frame_count` (the library checks it against the
  /// skeleton); the wrapper refuses a `frames` size that `frame_count` does not divide and a
  /// mask of another size.
  static Result<Clip> create_from_frames(const Skeleton& skeleton, Span<const Transform> frames,
                                         uint32_t frame_count, float frame_rate,
                                         Interpolation interpolation, bool wrap = false,
                                         Span<const uint8_t> joint_mask = {}) {
    const std::size_t per_frame = frame_count == 0 ? 0 : frames.size() / frame_count;
    uint32_t joints = 0;
    if (!detail::narrow(per_frame, joints)) return detail::too_large();
    if (per_frame * frame_count != frames.size() ||
        (!joint_mask.empty() && joint_mask.size() != joints)) {
      return detail::wrapper_error(
          Status::size_mismatch,
          "frames must hold frame_count x joint count transforms, joint_mask one byte per joint");
    }
    const uint8_t* mask = joint_mask.empty() ? nullptr : joint_mask.data();
    return make(&sinew_clip_create_from_frames, skeleton.get(), detail::c_ptr(frames.data()),
                frame_count, joints, frame_rate, mask, static_cast<int32_t>(interpolation),
                detail::flag(wrap));
  }

  /// Sets whether looping playback wraps from each track's last key back to its first
  /// (`sinew_clip_set_wrap`: over `dt = (duration - t_last) + t_first`, at the fraction
  /// `(t - t_last) / dt` after the last key, `((duration - t_last) + t) / dt` before the
  /// first). Clamped playback is unaffected. Refused while a crossfade plays the clip.
  Result<void> set_wrap(bool wrap) {
    return detail::check_status(sinew_clip_set_wrap(get(), detail::flag(wrap)));
  }
  /// Whether looping playback wraps (`set_wrap`).
  Result<bool> wraps() const {
    uint32_t out = 0;
    SinewStatus s = sinew_clip_get_wrap(get(), &out);
    return detail::checked(s, out == 1);
  }

  /// Sets (replaces) joint `joint`'s translation track: strictly increasing `times` in
  /// [0, duration] and one value per time; tangents (units per second) for
  /// `Interpolation::cubic` only, empty otherwise. Unchanged on error.
  Result<void> set_translation_track(uint32_t joint, Interpolation interpolation,
                                     Span<const float> times, Span<const Vec3> values,
                                     Span<const Vec3> in_tangents = {},
                                     Span<const Vec3> out_tangents = {}) {
    return set_track(&sinew_clip_set_translation_track, joint, interpolation, times, values,
                     in_tangents, out_tangents);
  }
  /// As `set_translation_track`, with quaternion keys (renormalized; zero is rejected).
  Result<void> set_rotation_track(uint32_t joint, Interpolation interpolation,
                                  Span<const float> times, Span<const Quat> values,
                                  Span<const Quat> in_tangents = {},
                                  Span<const Quat> out_tangents = {}) {
    return set_track(&sinew_clip_set_rotation_track, joint, interpolation, times, values,
                     in_tangents, out_tangents);
  }
  /// As `set_translation_track`, for scale.
  Result<void> set_scale_track(uint32_t joint, Interpolation interpolation,
                               Span<const float> times, Span<const Vec3> values,
                               Span<const Vec3> in_tangents = {},
                               Span<const Vec3> out_tangents = {}) {
    return set_track(&sinew_clip_set_scale_track, joint, interpolation, times, values,
                     in_tangents, out_tangents);
  }
  /// Removes joint `joint`'s track for `property` (the joint keeps the rest pose's value).
  Result<void> clear_track(uint32_t joint, TrackProperty property) {
    return detail::check_status(sinew_clip_clear_track(get(), joint, static_cast<int32_t>(property)));
  }

  /// Samples at playback `time` (wrapped when `looping`, else clamped) into `out`. A cursor
  /// (may be null, but not an empty object) makes forward playback O(1) per track. Unchanged
  /// on error.
  Result<void> sample(ClipCursor* cursor, float time, bool looping, Pose& out) const {
    if (cursor != nullptr && !cursor->valid()) return detail::empty_handle("cursor");
    return detail::check_status(sinew_clip_sample(get(), cursor != nullptr ? cursor->get() : nullptr,
                                           time, detail::flag(looping), out.get()));
  }
  /// As above, with a cursor.
  Result<void> sample(ClipCursor& cursor, float time, bool looping, Pose& out) const {
    return sample(&cursor, time, looping, out);
  }
  /// As above, without a cursor.
  Result<void> sample(float time, bool looping, Pose& out) const {
    return sample(nullptr, time, looping, out);
  }

 private:
  /// One of the three track setters, `set`, after the wrapper's size checks; keys of `T`
  /// (`Vec3` or `Quat`), empty tangent spans passed as NULL.
  template <class T, class C>
  Result<void> set_track(SinewStatus (*set)(SinewClip*, uint32_t, int32_t, const float*, const C*,
                                            const C*, const C*, uint32_t),
                         uint32_t joint, Interpolation interpolation, Span<const float> times,
                         Span<const T> values, Span<const T> in, Span<const T> out) {
    if (values.size() != times.size() || in.size() != out.size() ||
        (!in.empty() && in.size() != times.size())) {
      return detail::wrapper_error(
          Status::size_mismatch,
          "times, values and (when given) both tangent arrays must have the same size");
    }
    uint32_t n = 0;
    if (!detail::narrow(times.size(), n)) return detail::too_large();
    const C* in_c = in.empty() ? nullptr : detail::c_ptr(in.data());
    const C* out_c = out.empty() ? nullptr : detail::c_ptr(out.data());
    return detail::check_status(set(get(), joint, static_cast<int32_t>(interpolation),
                                    times.data(), detail::c_ptr(values.data()), in_c, out_c, n));
  }
};

inline Result<ClipCursor> ClipCursor::create(const Clip& clip) {
  return make(&sinew_clip_cursor_create, clip.get());
}

/// Plays clips of one skeleton with queued transitions (linear, smooth, inertialized) and
/// keeps the clips it plays alive. `update` allocates nothing. Clock rules (as `SinewCrossfade`
/// in the header): a clip starts at time 0 when played or faded to; `update` advances every
/// clip and transition by `dt`, then samples at the new times; queued fades run at once and
/// finish in queue order, the newest finished one becoming current with its own time.
class Crossfade : public detail::Owned<Crossfade, SinewCrossfade> {
 public:
  /// An empty handle (as a moved-from one).
  Crossfade() noexcept {}  // user-provided: not an aggregate

  /// A controller that can queue up to `max_fades` (1 to 256) fades.
  static Result<Crossfade> create(const Skeleton& skeleton, uint32_t max_fades) {
    return make(&sinew_crossfade_create, skeleton.get(), max_fades);
  }

  /// Plays `clip` from time 0 at once, dropping queued fades and any inertialization.
  Result<void> play(const Clip& clip, bool looping) {
    return detail::check_status(sinew_crossfade_play(get(), clip.get(), detail::flag(looping)));
  }
  /// Requests a transition to `clip` over `duration` seconds; returns whether one started.
  /// When `clip` is already the last request (current with nothing queued, or last queued),
  /// none starts (false) and that clip plays on with `looping` applied: turned off, its time
  /// wraps into the clip first (no jump; it then holds its last pose); turned on, its time is
  /// clamped into the clip first (a clip held at its end starts over). Linear and smooth fades
  /// queue, the new clip from time 0 (`Status::out_of_range` when the queue is full).
  /// Inertialized ones switch at once and drop the queued fades (success: the decaying offset
  /// from the last output holds them). Nothing playing or a zero duration: the clip plays.
  Result<bool> fade_to(const Clip& clip, float duration, FadeCurve curve, bool looping) {
    uint32_t queued = 0;
    SinewStatus s = sinew_crossfade_fade_to(get(), clip.get(), duration,
                                            static_cast<int32_t>(curve), detail::flag(looping),
                                            &queued);
    return detail::checked(s, queued != 0);
  }
  /// Advances every clip and transition by `dt` seconds (at least 0), then computes the output
  /// from the new times. On error nothing changes.
  Result<void> update(float dt) { return detail::check_status(sinew_crossfade_update(get(), dt)); }
  /// Copies the output pose of the last update into `out` (a pose of the controller's skeleton
  /// or of one with the same parents).
  Result<void> get_pose(Pose& out) const {
    return detail::check_status(sinew_crossfade_get_pose(get(), out.get()));
  }
  /// Number of queued fades.
  Result<uint32_t> fade_count() const {
    uint32_t count = 0;
    SinewStatus s = sinew_crossfade_fade_count(get(), &count);
    return detail::checked(s, count);
  }
  /// Writes each clip's weight (current first, then queued fades; they sum to one) into
  /// `out`, up to its size; returns how many weights there are (may exceed `out.size()`).
  Result<uint32_t> get_weights(Span<float> out) const {
    return per_clip(&sinew_crossfade_get_weights, out);
  }
  /// Every clip's weight, in a new vector.
  Result<std::vector<float>> weights() const { return per_clip(&sinew_crossfade_get_weights); }
  /// Writes each clip's time in the clip (where the next update advances from: wrapped when
  /// looping, clamped otherwise; 0 for a clip requested since), in the order of the weights,
  /// into `out`, up to its size; returns how many there are (may exceed `out.size()`).
  Result<uint32_t> get_times(Span<float> out) const {
    return per_clip(&sinew_crossfade_get_times, out);
  }
  /// Every clip's time, in a new vector.
  Result<std::vector<float>> times() const { return per_clip(&sinew_crossfade_get_times); }

  /// A running inertialized transition: whether one runs and the seconds left of its duration.
  struct Inertialization {
    bool active = false;
    float remaining = 0.0f;
  };
  /// The inertialized transition's state (inactive, 0 s left when none runs).
  Result<Inertialization> inertialization() const {
    uint32_t active = 0;
    Inertialization out;
    SinewStatus s = sinew_crossfade_is_inertializing(get(), &active, &out.remaining);
    if (s != SINEW_STATUS_OK) return Error::from_last(s);
    out.active = active != 0;
    return out;
  }

 private:
  using PerClip = SinewStatus (*)(const SinewCrossfade*, float*, uint32_t, uint32_t*);
  Result<uint32_t> per_clip(PerClip read, Span<float> out) const {
    uint32_t capacity = 0;
    if (!detail::narrow(out.size(), capacity)) return detail::too_large();
    uint32_t count = 0;
    SinewStatus s = read(get(), out.data(), capacity, &count);
    return detail::checked(s, count);
  }
  Result<std::vector<float>> per_clip(PerClip read) const {
    Result<uint32_t> n = per_clip(read, Span<float>());
    if (!n) return n.error();
    std::vector<float> out(*n);
    Result<uint32_t> m = per_clip(read, out);
    if (!m) return m.error();
    out.resize(*m < out.size() ? *m : out.size());
    return out;
  }
};

// ============================================================================ blending

/// One layer of `blend_layers` or `blend_layers_additive`, layout-compatible with `SinewBlendLayer` (so a span of them is
/// passed without copies). Holds the raw handles of a pose and an optional mask, read when it
/// is built: build layers after the poses and masks they name, and note that an empty mask
/// (moved from or destroyed) then reads as no mask, unlike `blend`, which refuses it.
struct BlendLayer : SinewBlendLayer {
  BlendLayer() noexcept : SinewBlendLayer{nullptr, 0.0f, nullptr} {}
  BlendLayer(const Pose& pose_, float weight_, const JointMask* mask_ = nullptr) noexcept
      : SinewBlendLayer{pose_.get(), weight_, mask_ != nullptr ? mask_->get() : nullptr} {}
  BlendLayer(const SinewBlendLayer& c) noexcept : SinewBlendLayer(c) {}  // NOLINT: implicit
};
static_assert(detail::layout_compatible<BlendLayer, SinewBlendLayer>(),
              "BlendLayer arrays are passed as SinewBlendLayer arrays");

/// `out` = `a` blended toward `b` by `t` in [0, 1] (0 gives `a`, 1 gives `b`), each joint's
/// factor times `mask` (null: all 1; an empty mask object is refused, not read as null).
/// `out` may be `a` or `b`; one pose as all three is left as it is. Unchanged on error.
inline Result<void> blend(const Pose& a, const Pose& b, float t, Pose& out,
                          const JointMask* mask = nullptr, BlendSpace space = BlendSpace::local) {
  if (mask != nullptr && !mask->valid()) return detail::empty_handle("mask");
  return detail::check_status(sinew_pose_blend(a.get(), b.get(), t,
                                        mask != nullptr ? mask->get() : nullptr,
                                        static_cast<int32_t>(space), out.get()));
}

/// Blends `layers` into `out`: per joint each layer's weight times its mask, normalized; below
/// `threshold` (> 0; ozz uses 0.1) the rest pose makes up the difference. `out` must not be a
/// layer's pose.
inline Result<void> blend_layers(Span<const BlendLayer> layers, float threshold, Pose& out) {
  uint32_t n = 0;
  if (!detail::narrow(layers.size(), n)) return detail::too_large();
  return detail::check_status(sinew_pose_blend_layers(layers.data(), n, threshold, out.get()));
}

/// `blend_layers`, then each of `additive` applied in order as `apply_additive` does, in one
/// call (the same bits as those calls in turn). An additive layer's pose is a delta
/// (from `make_additive`) and its weight any finite value, negative subtracting; per joint at
/// w = weight * mask[joint]: rotation normalize(q * r), or normalize(q * conj(r)) for w < 0,
/// with r = 1 + |w| * (d - 1) and d = delta.q negated when d.w < 0; translation
/// t + w * delta.t; scale s * l, or s * (1 / l) for w < 0, with l = (1 - |w|) + |w| * delta.s
/// (a reciprocal that is not finite counting as 0). `out` must not be a layer's pose nor an
/// additive layer's delta. Unchanged on error.
inline Result<void> blend_layers_additive(Span<const BlendLayer> layers,
                                          Span<const BlendLayer> additive, float threshold,
                                          Pose& out) {
  uint32_t n = 0;
  uint32_t m = 0;
  if (!detail::narrow(layers.size(), n) || !detail::narrow(additive.size(), m)) {
    return detail::too_large();
  }
  return detail::check_status(sinew_pose_blend_layers_additive(layers.data(), n, additive.data(),
                                                               m, threshold, out.get()));
}

/// Writes into `out_delta` (a third pose) the additive delta of `pose` over `reference`, per
/// joint: rotation normalize(conj(ref.q) * q), translation t - ref.t, scale s * (1 / ref.s)
/// (a reciprocal that is not finite counting as 0). Unchanged on error.
inline Result<void> make_additive(const Pose& pose, const Pose& reference, Pose& out_delta) {
  return detail::check_status(sinew_pose_make_additive(pose.get(), reference.get(), out_delta.get()));
}

/// Applies an additive `delta` to `base` with `weight` (negative subtracts) into `out` (which
/// may be `base`, not `delta`), per joint at w = weight * mask[joint] (null mask: all 1), as
/// ozz does: rotation normalize(q * r), or normalize(q * conj(r)) for w < 0, with
/// r = 1 + |w| * (d - 1) and d = delta.q negated when d.w < 0; translation t + w * delta.t;
/// scale s * l, or s * (1 / l) for w < 0, with l = (1 - |w|) + |w| * delta.s (a reciprocal
/// that is not finite counting as 0). w = 0 leaves a joint as it is. Unchanged on error.
inline Result<void> apply_additive(const Pose& base, const Pose& delta, float weight, Pose& out,
                                   const JointMask* mask = nullptr) {
  if (mask != nullptr && !mask->valid()) return detail::empty_handle("mask");
  return detail::check_status(sinew_pose_apply_additive(base.get(), delta.get(), weight,
                                                 mask != nullptr ? mask->get() : nullptr,
                                                 out.get()));
}

// ============================================================================ misc

/// The library's semantic version.
struct Version {
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t patch = 0;
};

inline Result<Version> version() {
  Version v;
  SinewStatus s = sinew_version(&v.major, &v.minor, &v.patch);
  return detail::checked(s, v);
}

/// The loaded library's ABI version.
inline uint32_t abi_version() noexcept { return sinew_abi_version(); }

/// Whether the loaded library matches the header this was compiled against.
inline bool abi_compatible() noexcept { return sinew_abi_version() == SINEW_ABI_VERSION; }

/// This thread's last library error message (empty after a successful call).
inline std::string last_error_message() { return Error::from_last(SINEW_STATUS_OK).message; }

// ============================================================================ exceptions (opt-in)

#if defined(SINEW_CPP_EXCEPTIONS)

/// Thrown by `value_or_throw` and `throw_if_error`: a `std::runtime_error` whose `what()` is
/// the error message, carrying the status.
class Exception : public std::runtime_error {
 public:
  explicit Exception(const Error& error)
      : std::runtime_error(error.message), status_(error.status) {}
  Status status() const noexcept { return status_; }
  Error error() const { return Error{status_, what()}; }

 private:
  Status status_;
};

/// Throws `sinew::Exception` when `result` holds an error.
template <class T>
void throw_if_error(const Result<T>& result) {
  if (!result.ok()) throw Exception(result.error());
}

/// The value of `result`, or throws `sinew::Exception` with its error.
template <class T>
T value_or_throw(Result<T>&& result) {
  throw_if_error(result);
  return std::move(result).value();
}
template <class T>
T& value_or_throw(Result<T>& result) {
  throw_if_error(result);
  return result.value();
}
template <class T>
const T& value_or_throw(const Result<T>& result) {
  throw_if_error(result);
  return result.value();
}
inline void value_or_throw(const Result<void>& result) { throw_if_error(result); }

#endif  // SINEW_CPP_EXCEPTIONS

}  // namespace sinew

#endif  // SINEW_HPP
