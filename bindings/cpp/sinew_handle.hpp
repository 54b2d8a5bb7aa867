// sinew_handle.hpp: how the C++ layers own a native Sinew handle, shared by sinew.hpp and
// unreal/sinew_unreal.hpp.
//
// - `HandleTraits<SinewX>` names, once per handle type, the C functions that manage it: always
//   `destroy`; for solvers also their settings struct and `settings_default`, `create`,
//   `get_settings`, `set_settings`; for the chain solvers (FABRIK, CCD) the functions they share
//   (`set_constraint`, `solve`, `solve_pose`, `solve_batch`).
// - `UniqueHandle<SinewX>` is the one owner of a native handle: move-only, destroyed through its
//   traits.
//
// Header-only C++17 over "sinew.h": no exceptions, no allocation, no RTTI, so Unreal modules can
// include it.

#ifndef SINEW_HANDLE_HPP
#define SINEW_HANDLE_HPP

#include "sinew.h"

namespace sinew {

/// The C functions of the handle type `Native`; specialized below for every Sinew handle.
template <class Native>
struct HandleTraits;

// The members each kind of handle has; `prefix` is its functions' prefix, `Type` its C type.
#define SINEW_HANDLE_MEMBERS_(prefix) static constexpr auto destroy = &prefix##_destroy;
#define SINEW_SOLVER_MEMBERS_(Type, prefix)                              \
  SINEW_HANDLE_MEMBERS_(prefix)                                          \
  using Settings = Type##Settings;                                       \
  static constexpr auto settings_default = &prefix##_settings_default;   \
  static constexpr auto create = &prefix##_create;                       \
  static constexpr auto get_settings = &prefix##_get_settings;           \
  static constexpr auto set_settings = &prefix##_set_settings;
#define SINEW_CHAIN_MEMBERS_(Type, prefix)                               \
  SINEW_SOLVER_MEMBERS_(Type, prefix)                                    \
  static constexpr auto set_constraint = &prefix##_set_constraint;       \
  static constexpr auto solve = &prefix##_solve;                         \
  static constexpr auto solve_pose = &prefix##_solve_pose;               \
  static constexpr auto solve_batch = &prefix##_solve_batch;

template <> struct HandleTraits<SinewSkeleton> { SINEW_HANDLE_MEMBERS_(sinew_skeleton) };
template <> struct HandleTraits<SinewPose> { SINEW_HANDLE_MEMBERS_(sinew_pose) };
template <> struct HandleTraits<SinewJointMask> { SINEW_HANDLE_MEMBERS_(sinew_joint_mask) };
template <> struct HandleTraits<SinewClip> { SINEW_HANDLE_MEMBERS_(sinew_clip) };
template <> struct HandleTraits<SinewClipCursor> { SINEW_HANDLE_MEMBERS_(sinew_clip_cursor) };
template <> struct HandleTraits<SinewCrossfade> { SINEW_HANDLE_MEMBERS_(sinew_crossfade) };
template <> struct HandleTraits<SinewSkin> { SINEW_HANDLE_MEMBERS_(sinew_skin) };
template <> struct HandleTraits<SinewTwoBoneIk> {
  SINEW_SOLVER_MEMBERS_(SinewTwoBoneIk, sinew_two_bone_ik)
};
template <> struct HandleTraits<SinewHandIkRetargeting> {
  SINEW_SOLVER_MEMBERS_(SinewHandIkRetargeting, sinew_hand_ik_retargeting)
};
template <> struct HandleTraits<SinewMultiFabrik> {
  SINEW_SOLVER_MEMBERS_(SinewMultiFabrik, sinew_multi_fabrik)
};
template <> struct HandleTraits<SinewFabrik> { SINEW_CHAIN_MEMBERS_(SinewFabrik, sinew_fabrik) };
template <> struct HandleTraits<SinewCcd> { SINEW_CHAIN_MEMBERS_(SinewCcd, sinew_ccd) };
template <> struct HandleTraits<SinewAimIk> { SINEW_SOLVER_MEMBERS_(SinewAimIk, sinew_aim_ik) };

#undef SINEW_CHAIN_MEMBERS_
#undef SINEW_SOLVER_MEMBERS_
#undef SINEW_HANDLE_MEMBERS_

/// Sole owner of one native handle, destroyed through `Traits::destroy` when the owner is
/// destroyed, reset or assigned over. Move-only; a moved-from owner holds nullptr (safe to
/// destroy, assign or pass on: the library reports the NULL handle).
template <class Native, class Traits = HandleTraits<Native>>
class UniqueHandle {
 public:
  using native_type = Native;

  UniqueHandle() noexcept {}
  explicit UniqueHandle(Native* handle) noexcept : handle_(handle) {}
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(other.release()) {}
  UniqueHandle& operator=(UniqueHandle&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  ~UniqueHandle() { reset(); }

  /// The native handle (nullptr when empty or moved from), for calling the C API directly.
  Native* get() const noexcept { return handle_; }
  /// Whether this object owns a handle.
  bool valid() const noexcept { return handle_ != nullptr; }
  explicit operator bool() const noexcept { return valid(); }
  /// Gives up ownership: the caller must destroy the returned handle.
  Native* release() noexcept {
    Native* h = handle_;
    handle_ = nullptr;
    return h;
  }
  /// Owns `handle` instead, destroying the previous one (unless it is `handle`).
  void reset(Native* handle = nullptr) noexcept {
    Native* old = handle_;
    handle_ = handle;
    if (old != nullptr && old != handle) Traits::destroy(old);
  }
  /// Destroys the native handle now (no-op when empty); the object is left empty.
  void destroy() noexcept { reset(); }

 private:
  Native* handle_ = nullptr;
};

}  // namespace sinew

#endif  // SINEW_HANDLE_HPP
