// Shared by the C++ wrapper's test program (tests/cpp/wrapper_test.cpp and
// tests/cpp/wrapper_blending_test.cpp): bookkeeping (CHECK, CHECK_OK, MUST and the error
// expectations; the counters are test_counts.hpp's), bit comparison, the rig every test uses and
// its twin fixtures (the same skeleton and poses through the wrapper and through C), clip tracks
// set through both, and the allocation counter.

#ifndef SINEW_WRAPPER_TEST_HPP
#define SINEW_WRAPPER_TEST_HPP

#include "sinew.hpp"
#include "test_counts.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// ================================================================ allocation counting

// Counted by the global operator new defined in wrapper_test.cpp.
inline std::size_t g_allocations = 0;

// ================================================================ bookkeeping

inline bool check_impl(bool ok, int line, const char* expr) {
  if (counted(ok, line, expr)) return true;
  std::fputc('\n', stderr);
  return false;
}

#define CHECK(cond) check_impl(static_cast<bool>(cond), __LINE__, #cond)

template <class R>
inline bool check_ok_impl(const R& result, int line, const char* expr) {
  if (counted(result.ok(), line, expr)) return true;
  std::fprintf(stderr, ": %s: %s\n", sinew::to_string(result.status()),
               result.error().message.c_str());
  return false;
}

#define CHECK_OK(result) check_ok_impl((result), __LINE__, #result)

/// The value of a Result the rest of a section depends on; a failure ends the program (with
/// the summary line) instead of aborting in value().
template <class T>
inline T must_impl(sinew::Result<T>&& result, int line, const char* expr) {
  if (!check_ok_impl(result, line, expr)) summary_and_exit();
  return std::move(result).value();
}

#define MUST(result) must_impl((result), __LINE__, #result)

/// The library's thread-local error message, read directly through the C API.
inline std::string c_message() {
  std::size_t length = 0;
  if (sinew_last_error_message(nullptr, 0, &length) != SINEW_STATUS_OK) return "<unreadable>";
  std::string text(length + 1, '\0');
  std::size_t again = 0;
  sinew_last_error_message(&text[0], text.size(), &again);
  text.resize(length);
  return text;
}

/// A failed wrapper call `result`, whose library message right after the call was `native`,
/// against a direct C call of the same function on the same inputs (`c_status`, `c_msg`).
template <class R>
inline void check_native_error(int line, const char* expr, const R& result,
                               const std::string& native, SinewStatus c_status,
                               const std::string& c_msg, sinew::Status expected) {
  bool ok = !result.ok() && result.status() == expected &&
            static_cast<int>(c_status) == static_cast<int>(expected) &&
            result.error().message == native && native == c_msg && !native.empty();
  if (counted(ok, line, expr)) return;
  std::fprintf(stderr, ": expected %s; wrapper %s \"%s\"; native \"%s\"; C %d \"%s\"\n",
               sinew::to_string(expected), sinew::to_string(result.status()),
               result.error().message.c_str(), native.c_str(), static_cast<int>(c_status),
               c_msg.c_str());
}

/// Runs `wrapper_call`, reads the native message, then runs `c_call` (the same C function on
/// the same inputs) and reads its message; all must agree on `expected`.
#define EXPECT_NATIVE_ERROR(wrapper_call, c_call, expected)                                    \
  do {                                                                                         \
    auto result_ = (wrapper_call);                                                             \
    std::string native_ = c_message();                                                         \
    SinewStatus c_status_ = (c_call);                                                          \
    std::string c_msg_ = c_message();                                                          \
    check_native_error(__LINE__, #wrapper_call, result_, native_, c_status_, c_msg_,           \
                       expected);                                                              \
  } while (0)

/// A wrapper-side error: the status, a "sinew C++:" message, the library's message untouched.
template <class R>
inline void check_wrapper_error(int line, const char* expr, const R& result,
                                sinew::Status expected, const std::string& native_before) {
  bool ok = !result.ok() && result.status() == expected &&
            result.error().message.rfind("sinew C++: ", 0) == 0 && c_message() == native_before;
  if (!check_impl(ok, line, expr)) {
    std::fprintf(stderr, "    got %s \"%s\"\n", sinew::to_string(result.status()),
                 result.error().message.c_str());
  }
}

#define EXPECT_WRAPPER_ERROR(wrapper_call, expected)                                           \
  do {                                                                                         \
    std::string before_ = c_message();                                                         \
    auto result_ = (wrapper_call);                                                             \
    check_wrapper_error(__LINE__, #wrapper_call, result_, expected, before_);                  \
  } while (0)

// ================================================================ bit comparison

template <class A, class B>
inline bool same_bits(const A& a, const B& b) {
  static_assert(sizeof(A) == sizeof(B), "same size");
  return std::memcmp(&a, &b, sizeof(A)) == 0;
}

template <class A, class B>
inline bool same_bits(const std::vector<A>& a, const std::vector<B>& b) {
  static_assert(sizeof(A) == sizeof(B), "same size");
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(A)) == 0);
}

template <class A, class B, std::size_t N>
inline bool same_bits(const std::array<A, N>& a, const std::array<B, N>& b) {
  static_assert(sizeof(A) == sizeof(B), "same size");
  return std::memcmp(a.data(), b.data(), N * sizeof(A)) == 0;
}

inline const SinewTransform* c_ptr(const std::vector<sinew::Transform>& v) {
  return reinterpret_cast<const SinewTransform*>(v.data());
}
inline SinewTransform* c_ptr(std::vector<sinew::Transform>& v) {
  return reinterpret_cast<SinewTransform*>(v.data());
}
inline const SinewVec3* c_vec3(const std::vector<sinew::Vec3>& v) {
  return reinterpret_cast<const SinewVec3*>(v.data());
}
inline const SinewQuat* c_quat(const std::vector<sinew::Quat>& v) {
  return reinterpret_cast<const SinewQuat*>(v.data());
}
inline uint32_t u32(std::size_t n) { return static_cast<uint32_t>(n); }

// ================================================================ rig

enum Joint : uint32_t {
  ROOT,
  SPINE,
  UPPER_R,
  LOWER_R,
  HAND_R,
  UPPER_L,
  LOWER_L,
  HAND_L,
  IK_ROOT,
  IK_HAND_R,
  IK_HAND_L,
  JOINTS
};

inline const int32_t kParents[JOINTS] = {-1, 0, 1, 2, 3, 1, 5, 6, 0, 8, 8};
inline const char* const kNames[JOINTS] = {
    "root",       "spine",      "upperarm_r", "lowerarm_r",   "hand_r",   "upperarm_l",
    "lowerarm_l", "hand_l",     "ik_hand_root", "ik_hand_r", "ik_hand_l"};

inline sinew::Quat axis_angle(float x, float y, float z, float angle) {
  float length = std::sqrt(x * x + y * y + z * z);
  float s = std::sin(angle * 0.5f) / length;
  return sinew::Quat{x * s, y * s, z * s, std::cos(angle * 0.5f)};
}

inline sinew::Quat scaled(sinew::Quat q, float k) {
  return sinew::Quat{q.x * k, q.y * k, q.z * k, q.w * k};
}

inline std::vector<sinew::Transform> rest_pose() {
  using sinew::Transform;
  using sinew::Vec3;
  std::vector<Transform> rest(JOINTS);
  rest[SPINE] = Transform{Vec3{0.0f, 1.0f, 0.0f}, axis_angle(0, 0, 1, 0.05f)};
  // Not normalized: the library renormalizes rest rotations.
  rest[UPPER_R] = Transform{Vec3{0.2f, 0.4f, 0.0f}, scaled(axis_angle(0, 0, 1, -0.3f), 2.0f)};
  rest[LOWER_R] = Transform{Vec3{0.3f, 0.0f, 0.0f}, axis_angle(0, 1, 0, 0.4f)};
  rest[HAND_R] = Transform{Vec3{0.25f, 0.0f, 0.0f}, sinew::Quat::identity()};
  rest[UPPER_L] = Transform{Vec3{-0.2f, 0.4f, 0.0f}, axis_angle(0, 0, 1, 0.3f)};
  rest[LOWER_L] = Transform{Vec3{-0.3f, 0.0f, 0.0f}, axis_angle(0, 1, 0, -0.4f)};
  rest[HAND_L] = Transform{Vec3{-0.25f, 0.0f, 0.0f}, sinew::Quat::identity(),
                           Vec3{1.0f, 1.1f, 1.0f}};
  rest[IK_HAND_R] = Transform{Vec3{0.6f, 1.3f, 0.1f}, sinew::Quat::identity()};
  rest[IK_HAND_L] = Transform{Vec3{-0.6f, 1.3f, 0.05f}, sinew::Quat::identity()};
  return rest;
}

/// Local transforms different from the rest pose (some rotations not normalized).
inline std::vector<sinew::Transform> animated_pose() {
  std::vector<sinew::Transform> local = rest_pose();
  local[SPINE].rotation = axis_angle(1, 0, 0.3f, 0.2f);
  local[UPPER_R].rotation = scaled(axis_angle(0.2f, 0.1f, 1, -0.7f), 0.5f);
  local[LOWER_R].rotation = axis_angle(0, 1, 0.1f, 0.9f);
  local[UPPER_L].rotation = axis_angle(0.3f, 0, 1, 0.6f);
  local[LOWER_L].translation = sinew::Vec3{-0.32f, 0.01f, 0.0f};
  local[IK_HAND_R].translation = sinew::Vec3{0.55f, 1.25f, 0.2f};
  local[IK_HAND_L].translation = sinew::Vec3{-0.5f, 1.35f, 0.0f};
  local[HAND_R].scale = sinew::Vec3{1.0f, 0.9f, 1.2f};
  return local;
}

/// The same skeleton through the C API.
inline SinewSkeleton* c_skeleton(bool names) {
  std::vector<sinew::Transform> rest = rest_pose();
  SinewSkeleton* skeleton = nullptr;
  SinewStatus s = sinew_skeleton_create(kParents, c_ptr(rest), names ? kNames : nullptr, JOINTS,
                                        &skeleton);
  if (!CHECK(s == SINEW_STATUS_OK)) summary_and_exit();
  return skeleton;
}

inline sinew::Skeleton cpp_skeleton() {
  return MUST(sinew::Skeleton::create(kParents, rest_pose(), kNames));
}

inline SinewPose* c_pose(const SinewSkeleton* skeleton) {
  SinewPose* pose = nullptr;
  if (!CHECK(sinew_pose_create(skeleton, &pose) == SINEW_STATUS_OK)) summary_and_exit();
  return pose;
}

inline std::vector<SinewTransform> c_local(const SinewPose* pose) {
  std::vector<SinewTransform> out(JOINTS);
  CHECK(sinew_pose_get_local(pose, out.data(), u32(out.size())) == SINEW_STATUS_OK);
  return out;
}

inline std::vector<SinewTransform> c_model(SinewPose* pose) {
  std::vector<SinewTransform> out(JOINTS);
  CHECK(sinew_pose_get_model(pose, out.data(), u32(out.size())) == SINEW_STATUS_OK);
  return out;
}

inline std::vector<sinew::Transform> local_of(const sinew::Pose& pose) {
  return MUST(pose.get_local());
}

/// What a C `*_settings_default` function writes.
template <class CSettings>
inline CSettings c_default(void (*fill)(CSettings*)) {
  CSettings settings;
  fill(&settings);
  return settings;
}

// ================================================================ the rig through both APIs

/// A skeleton of `parents` with identity rest transforms and no names, through the C API.
inline SinewSkeleton* c_skeleton_of(const std::vector<int32_t>& parents) {
  const std::vector<sinew::Transform> rest(parents.size());
  SinewSkeleton* skeleton = nullptr;
  CHECK(sinew_skeleton_create(parents.data(), c_ptr(rest), nullptr, u32(parents.size()),
                              &skeleton) == SINEW_STATUS_OK);
  return skeleton;
}

/// A skeleton through the wrapper and through the C API, the C handle destroyed with the
/// fixture: the rig's (with joint names in C when `names`), or one of other `parents`.
struct TwinSkeleton {
  SinewSkeleton* cs;
  sinew::Skeleton skeleton;

  explicit TwinSkeleton(bool names = false) : cs(c_skeleton(names)), skeleton(cpp_skeleton()) {}
  explicit TwinSkeleton(const std::vector<int32_t>& parents)
      : cs(c_skeleton_of(parents)),
        skeleton(MUST(sinew::Skeleton::create(
            parents, std::vector<sinew::Transform>(parents.size())))) {}
  TwinSkeleton(const TwinSkeleton&) = delete;
  TwinSkeleton& operator=(const TwinSkeleton&) = delete;
  ~TwinSkeleton() { sinew_skeleton_destroy(cs); }
};

/// The twin skeletons with a pose of each, both holding `local` when given (the rest pose
/// otherwise).
struct TwinRig : TwinSkeleton {
  SinewPose* cp;
  sinew::Pose pose;

  explicit TwinRig(const std::vector<sinew::Transform>* local, bool names = false)
      : TwinSkeleton(names), cp(c_pose(cs)), pose(MUST(sinew::Pose::create(skeleton))) {
    if (local == nullptr) return;
    CHECK_OK(pose.set_local(*local));
    CHECK(sinew_pose_set_local(cp, c_ptr(*local), JOINTS) == SINEW_STATUS_OK);
  }
  /// Poses of a skeleton of other `parents` (see TwinSkeleton), at its rest pose.
  explicit TwinRig(const std::vector<int32_t>& parents)
      : TwinSkeleton(parents), cp(c_pose(cs)), pose(MUST(sinew::Pose::create(skeleton))) {}
  TwinRig(const TwinRig&) = delete;
  TwinRig& operator=(const TwinRig&) = delete;
  ~TwinRig() { sinew_pose_destroy(cp); }

  /// Both poses hold the same local transforms, bit for bit.
  bool same_local() const { return same_bits(local_of(pose), c_local(cp)); }

  /// A solve of both poses from `before`: the same poses and the same result (`result` through
  /// the wrapper, `c_result` through C) bit for bit, and the pose moved.
  template <class R, class C>
  void check_solved(const R& result, const C& c_result,
                    const std::vector<sinew::Transform>& before) {
    CHECK(same_local());
    CHECK(same_bits(result, c_result));
    CHECK(!same_bits(local_of(pose), before));
  }
};


// ================================================================ clips

/// A track property's setter in the wrapper (keys `Key`) and in the C API (keys `CKey`).
template <class Key, class CKey>
struct TrackSetter {
  using Keys = sinew::Span<const Key>;
  sinew::Result<void> (sinew::Clip::*set)(uint32_t, sinew::Interpolation, sinew::Span<const float>,
                                          Keys, Keys, Keys);
  SinewStatus (*c_set)(SinewClip*, uint32_t, int32_t, const float*, const CKey*, const CKey*,
                       const CKey*, uint32_t);
};

inline const TrackSetter<sinew::Vec3, SinewVec3> kTranslationTrack{
    &sinew::Clip::set_translation_track, sinew_clip_set_translation_track};
inline const TrackSetter<sinew::Quat, SinewQuat> kRotationTrack{&sinew::Clip::set_rotation_track,
                                                                 sinew_clip_set_rotation_track};
inline const TrackSetter<sinew::Vec3, SinewVec3> kScaleTrack{&sinew::Clip::set_scale_track,
                                                             sinew_clip_set_scale_track};

/// Sets one track of `property` on `clip` and on `c_clip` with the same keys (and tangents when
/// given): both succeed, or both fail with `expected` and the same message.
template <class Key, class CKey>
inline void track_both(sinew::Clip& clip, SinewClip* c_clip, sinew::Status expected,
                       const TrackSetter<Key, CKey>& property, uint32_t joint,
                       sinew::Interpolation interpolation, sinew::Span<const float> times,
                       typename TrackSetter<Key, CKey>::Keys values,
                       typename TrackSetter<Key, CKey>::Keys in_tangents = {},
                       typename TrackSetter<Key, CKey>::Keys out_tangents = {}) {
  const auto keys = [](typename TrackSetter<Key, CKey>::Keys k) {
    return reinterpret_cast<const CKey*>(k.data());
  };
  const auto c_call = [&] {
    return property.c_set(c_clip, joint, static_cast<int32_t>(interpolation), times.data(),
                          keys(values), keys(in_tangents), keys(out_tangents), u32(values.size()));
  };
  if (expected == sinew::Status::ok) {
    CHECK_OK((clip.*property.set)(joint, interpolation, times, values, in_tangents, out_tangents));
    CHECK(c_call() == SINEW_STATUS_OK);
  } else {
    EXPECT_NATIVE_ERROR(
        (clip.*property.set)(joint, interpolation, times, values, in_tangents, out_tangents),
        c_call(), expected);
  }
}

struct ClipPair {
  sinew::Clip cpp;
  SinewClip* c = nullptr;
};

/// Builds the same clip through the wrapper and the C API: one rotation track on `joint`.
inline ClipPair make_clip_pair(const sinew::Skeleton& skeleton, const SinewSkeleton* cs,
                               float duration, uint32_t joint, float angle) {
  ClipPair pair;
  pair.cpp = MUST(sinew::Clip::create(skeleton, duration));
  CHECK(sinew_clip_create(cs, duration, &pair.c) == SINEW_STATUS_OK);
  const float times[3] = {0.0f, duration * 0.5f, duration};
  const sinew::Quat values[3] = {axis_angle(0, 0, 1, -angle), axis_angle(0, 1, 1, angle),
                                 axis_angle(0, 0, 1, -angle)};
  track_both(pair.cpp, pair.c, sinew::Status::ok, kRotationTrack, joint,
             sinew::Interpolation::slerp, times, values);
  const float tt[2] = {0.0f, duration};
  const sinew::Vec3 root[2] = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, angle}};
  track_both(pair.cpp, pair.c, sinew::Status::ok, kTranslationTrack, ROOT,
             sinew::Interpolation::linear, tt, root);
  return pair;
}

// ================================================================ wrapper_blending_test.cpp

void test_masks();
void test_blending();
void test_clips();
void test_frame_clips();
void test_crossfade();

#endif  // SINEW_WRAPPER_TEST_HPP
