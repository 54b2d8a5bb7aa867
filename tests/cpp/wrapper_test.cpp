// Test of the C++ wrapper (bindings/cpp/sinew.hpp), built and run by tests/cpp_wrapper.rs
// (`cargo test --test cpp_wrapper`) twice: with -fno-exceptions (default layer only) and with
// exceptions and SINEW_CPP_EXCEPTIONS (adds the throwing layer's checks).
//
// - Parity: every wrapper operation is run next to the C function it wraps, on the same inputs
//   and on parallel C handles, and the outputs (transforms, results, weights, offsets) must be
//   bit-for-bit equal.
// - Errors: a failed call's Result carries the library's status and message (the message read
//   from sinew_last_error_message right after the call, and equal to the message a direct C
//   call with the same arguments leaves); wrapper-side checks carry a "sinew C++:" message and
//   leave the library's message alone.
// - Handles: move construction and assignment, self-move, moved-from and destroyed handles,
//   release/adopt, a skeleton (and clips) destroyed before what was made from them.
// - Batches: solve_batch equals the C batch function and single solves bit for bit (two-bone,
//   FABRIK and CCD alike); bad input and wrong sizes leave every
//   array untouched; an overflowing chain is skipped while the others are solved.
// - Allocation: the solve (batches too), blend, sample and crossfade paths allocate nothing in
//   C++ (global operator new is counted).
//
// Failures go to stderr; the last stdout line is "N passed, N failed" and the exit status is
// non-zero on any failure.
//
// The blending jobs' tests (masks, blends, clips, crossfade) are in wrapper_blending_test.cpp;
// the helpers both files use are in wrapper_test.hpp.

#include "wrapper_test.hpp"

// ================================================================ allocation counting

// Not inlined, so GCC's -Wmismatched-new-delete does not see malloc/free through them.
[[gnu::noinline]] static void* counted_allocate(std::size_t size) {
  ++g_allocations;
  void* p = std::malloc(size != 0 ? size : 1);
  if (p == nullptr) std::abort();
  return p;
}
[[gnu::noinline]] static void counted_free(void* p) noexcept { std::free(p); }

void* operator new(std::size_t size) { return counted_allocate(size); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }

// ================================================================ value types

template <class Enum>
static constexpr bool same_value(Enum wrapper, int32_t c) {
  return static_cast<int32_t>(wrapper) == c;
}
static_assert(same_value(sinew::Status::ok, SINEW_STATUS_OK) &&
                  same_value(sinew::Status::numeric_overflow, SINEW_STATUS_NUMERIC_OVERFLOW) &&
                  same_value(sinew::EndRotation::keep_local, SINEW_END_ROTATION_KEEP_LOCAL) &&
                  same_value(sinew::ConstraintType::twist, SINEW_CONSTRAINT_TYPE_TWIST) &&
                  same_value(sinew::BlendSpace::model_rotation,
                             SINEW_BLEND_SPACE_MODEL_ROTATION) &&
                  same_value(sinew::Interpolation::cubic, SINEW_INTERPOLATION_CUBIC) &&
                  same_value(sinew::TrackProperty::scale, SINEW_TRACK_PROPERTY_SCALE) &&
                  same_value(sinew::FadeCurve::inertialize, SINEW_FADE_CURVE_INERTIALIZE),
              "the wrapper's enumerators have the header's values");
static_assert(sizeof(sinew::Transform) == sizeof(SinewTransform), "layout");
static_assert(sizeof(sinew::BlendLayer) == sizeof(SinewBlendLayer), "layout");
static_assert(sinew::Transform::identity().rotation.w == 1.0f, "constexpr identity");

template <class Handle, class Native>
static constexpr bool handle_traits() {
  return !std::is_copy_constructible<Handle>::value && !std::is_copy_assignable<Handle>::value &&
         std::is_nothrow_move_constructible<Handle>::value &&
         std::is_nothrow_move_assignable<Handle>::value &&
         std::is_nothrow_default_constructible<Handle>::value &&
         std::is_same<decltype(std::declval<const Handle&>().get()), Native*>::value;
}
static_assert(handle_traits<sinew::Skeleton, SinewSkeleton>(), "Skeleton");
static_assert(handle_traits<sinew::Pose, SinewPose>(), "Pose");
static_assert(handle_traits<sinew::TwoBoneIk, SinewTwoBoneIk>(), "TwoBoneIk");
static_assert(handle_traits<sinew::Fabrik, SinewFabrik>(), "Fabrik");
static_assert(handle_traits<sinew::AimIk, SinewAimIk>(), "AimIk");
static_assert(handle_traits<sinew::MultiFabrik, SinewMultiFabrik>(), "MultiFabrik");
static_assert(handle_traits<sinew::Ccd, SinewCcd>(), "Ccd");
static_assert(handle_traits<sinew::HandIkRetargeting, SinewHandIkRetargeting>(), "Hand");
static_assert(handle_traits<sinew::JointMask, SinewJointMask>(), "JointMask");
static_assert(handle_traits<sinew::Clip, SinewClip>(), "Clip");
static_assert(handle_traits<sinew::ClipCursor, SinewClipCursor>(), "ClipCursor");
static_assert(handle_traits<sinew::Crossfade, SinewCrossfade>(), "Crossfade");
static_assert(handle_traits<sinew::Skin, SinewSkin>(), "Skin");

static void test_value_types() {
  g_section = "value types";
  using sinew::Quat;
  using sinew::Transform;
  using sinew::Vec3;

  CHECK(Vec3{} == Vec3(0.0f, 0.0f, 0.0f));
  CHECK(Vec3::one() == Vec3(1.0f, 1.0f, 1.0f));
  CHECK(Quat{} == Quat(0.0f, 0.0f, 0.0f, 1.0f));
  CHECK(Quat::identity() == Quat{});
  const SinewTransform c_identity = {
      {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
  CHECK(same_bits(Transform::identity(), c_identity));
  CHECK(same_bits(Transform{}, c_identity));

  const Transform t{Vec3{1.5f, -2.0f, 3.25f}, Quat{0.1f, 0.2f, 0.3f, 0.9f}, Vec3{2.0f, 3.0f, 4.0f}};
  const SinewTransform c = t;
  CHECK(same_bits(t, c));
  CHECK(c.rotation.y == 0.2f && c.scale.z == 4.0f && c.translation.x == 1.5f);
  const Transform back = c;
  CHECK(back == t);
  CHECK(!(back != t));
  CHECK(same_bits(t.to_c(), c));
  const SinewVec3 cv = Vec3{7.0f, 8.0f, 9.0f};
  CHECK(cv.x == 7.0f && cv.y == 8.0f && cv.z == 9.0f);
  const SinewQuat cq = Quat{1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(Quat(cq) == Quat(1.0f, 2.0f, 3.0f, 4.0f));

  const SinewIkResult cr = {1u, 0.25f, 7u};
  const sinew::IkResult r = cr;
  CHECK(r.reached && r.error == 0.25f && r.iterations == 7u);
  CHECK(same_bits(r.to_c(), cr));

  // Settings start from the native defaults, bit for bit.
  CHECK(same_bits(sinew::TwoBoneIkSettings{}, c_default(sinew_two_bone_ik_settings_default)));
  CHECK(same_bits(sinew::FabrikSettings{}, c_default(sinew_fabrik_settings_default)));
  CHECK(same_bits(sinew::AimIkSettings{}, c_default(sinew_aim_ik_settings_default)));
  CHECK(same_bits(sinew::CcdSettings{}, c_default(sinew_ccd_settings_default)));
  CHECK(same_bits(sinew::HandIkRetargetingSettings{},
                  c_default(sinew_hand_ik_retargeting_settings_default)));
  CHECK(same_bits(sinew::JointConstraint{}, c_default(sinew_joint_constraint_default)));

  const sinew::JointConstraint hinge =
      sinew::JointConstraint::hinge(Quat::identity(), Vec3{0.0f, 0.0f, 1.0f}, -0.5f, 1.0f);
  CHECK(hinge.type == SINEW_CONSTRAINT_TYPE_HINGE && hinge.min_angle == -0.5f &&
        hinge.max_angle == 1.0f && hinge.axis.z == 1.0f);
  sinew::JointConstraint cone =
      sinew::JointConstraint::cone(Quat::identity(), Vec3{1.0f, 0.0f, 0.0f}, 0.4f, 0.6f);
  cone.limit_twist_to(-0.2f, 0.3f);
  CHECK(cone.type == SINEW_CONSTRAINT_TYPE_CONE && cone.swing_half_angle_2 == 0.6f &&
        cone.limit_twist == 1u && cone.min_angle == -0.2f);
  const sinew::HandJoints hands{1, 2, 3, 4};
  CHECK(hands.right_fk == 1u && hands.left_fk == 2u && hands.right_ik == 3u &&
        hands.left_ik == 4u);

  CHECK(std::strcmp(sinew::to_string(sinew::Status::not_found), "not_found") == 0);
  CHECK(std::strcmp(sinew::to_string(static_cast<sinew::Status>(99)), "unknown") == 0);
}

// ================================================================ Span

static_assert(std::is_convertible<std::vector<int>&, sinew::Span<const int>>::value, "span");
static_assert(std::is_convertible<const std::vector<int>&, sinew::Span<const int>>::value,
              "span");
static_assert(std::is_convertible<std::vector<int>&, sinew::Span<int>>::value, "span");
static_assert(!std::is_constructible<sinew::Span<int>, const std::vector<int>&>::value,
              "a mutable span of a const vector");
static_assert(!std::is_constructible<sinew::Span<int>, std::vector<float>&>::value,
              "a span of another type");
static_assert(!std::is_constructible<sinew::Span<int>, const std::array<int, 3>&>::value,
              "a mutable span of a const array");
static_assert(std::is_convertible<sinew::Span<int>, sinew::Span<const int>>::value, "span");
static_assert(!std::is_convertible<sinew::Span<const int>, sinew::Span<int>>::value, "span");
static_assert(std::is_trivially_copyable<sinew::Span<int>>::value, "span is a pointer + count");

static void test_span() {
  g_section = "span";
  std::vector<int> vector = {1, 2, 3};
  const std::vector<int>& const_vector = vector;
  std::array<int, 4> array = {{4, 5, 6, 7}};
  int c_array[5] = {8, 9, 10, 11, 12};
  const char* const names[2] = {"a", "b"};

  sinew::Span<int> a = vector;
  CHECK(a.data() == vector.data() && a.size() == 3 && !a.empty());
  sinew::Span<const int> b = const_vector;
  CHECK(b.data() == vector.data() && b.size() == 3);
  sinew::Span<int> c = array;
  CHECK(c.data() == array.data() && c.size() == 4);
  sinew::Span<const int> d = c_array;
  CHECK(d.data() == c_array && d.size() == 5);
  sinew::Span<const int> e = a;
  CHECK(e.data() == a.data() && e.size() == a.size());
  sinew::Span<const char* const> f = names;
  CHECK(f.size() == 2 && f[1] == names[1]);
  sinew::Span<int> g(c_array + 1, 2);
  CHECK(g[0] == 9 && g[1] == 10);
  g[1] = 42;
  CHECK(c_array[2] == 42);
  int sum = 0;
  for (int x : b) sum += x;
  CHECK(sum == 6);
  sinew::Span<float> empty;
  CHECK(empty.data() == nullptr && empty.size() == 0 && empty.empty());
  std::vector<float> empty_vector;
  sinew::Span<const float> h = empty_vector;
  CHECK(h.empty());
}

// ================================================================ Result and Error

static void test_result_and_error() {
  g_section = "result and error";
  sinew::Result<int> good = 5;
  CHECK(good.ok() && static_cast<bool>(good) && good.value() == 5 && *good == 5);
  CHECK(good.status() == sinew::Status::ok && good.error().message.empty());
  CHECK(good.value_or(9) == 5);
  sinew::Result<int> bad = sinew::Error{sinew::Status::out_of_range, "nope"};
  CHECK(!bad.ok() && !bad && bad.status() == sinew::Status::out_of_range);
  CHECK(bad.error().message == "nope" && bad.value_or(9) == 9);
  sinew::Result<void> fine;
  CHECK(fine.ok() && fine.status() == sinew::Status::ok);
  fine.value();
  sinew::Result<void> failed = sinew::Error{sinew::Status::panic, "boom"};
  CHECK(!failed.ok() && failed.status() == sinew::Status::panic &&
        failed.error().message == "boom");
  sinew::Result<std::vector<int>> moved = std::vector<int>{1, 2};
  std::vector<int> taken = std::move(moved).value();
  CHECK(taken.size() == 2);
  sinew::Result<std::string> arrow = std::string("abc");
  CHECK(arrow->size() == 3);

  SinewSkeleton* cs = c_skeleton(true);
  sinew::Skeleton skeleton = cpp_skeleton();

  // A native error: the status, and the message the library leaves, equal to a C call's.
  uint32_t index = 0;
  EXPECT_NATIVE_ERROR(skeleton.find_joint("no_such_joint"),
                      sinew_skeleton_find_joint(cs, "no_such_joint", &index),
                      sinew::Status::not_found);
  {
    sinew::Result<uint32_t> r = skeleton.find_joint("no_such_joint");
    CHECK(r.error().message.find("no_such_joint") != std::string::npos);
    CHECK(sinew::last_error_message() == r.error().message);
  }

  // A long message is read whole (length query, then the text).
  const std::string long_name(3000, 'x');
  EXPECT_NATIVE_ERROR(skeleton.find_joint(long_name),
                      sinew_skeleton_find_joint(cs, long_name.c_str(), &index),
                      sinew::Status::not_found);
  {
    sinew::Result<uint32_t> r = skeleton.find_joint(long_name);
    CHECK(r.error().message.size() > 3000);
    CHECK(r.error().message.find(long_name) != std::string::npos);
  }
  // A multi-byte UTF-8 name survives intact.
  const std::string utf8 = "h\xC3\xA4nd_\xE2\x9C\x8B";
  {
    sinew::Result<uint32_t> r = skeleton.find_joint(utf8);
    CHECK(r.status() == sinew::Status::not_found);
    CHECK(r.error().message.find(utf8) != std::string::npos);
  }

  // A wrapper-side error leaves the library's message alone.
  {
    std::vector<int32_t> parents = {-1, 0};
    std::vector<sinew::Transform> rest(3);
    EXPECT_WRAPPER_ERROR(sinew::Skeleton::create(parents, rest), sinew::Status::size_mismatch);
  }
  // A success clears the library's message, and a later error's message is its own.
  CHECK_OK(skeleton.joint_count());
  CHECK(sinew::last_error_message().empty());
  sinew::Error from_ok = sinew::Error::from_last(SINEW_STATUS_OK);
  CHECK(from_ok.status == sinew::Status::ok && from_ok.message.empty());

  sinew_skeleton_destroy(cs);
}

// ================================================================ Skeleton

static void test_skeleton() {
  g_section = "skeleton";
  SinewSkeleton* cs = c_skeleton(true);
  const std::vector<sinew::Transform> rest = rest_pose();

  // Three ways to give names (none, C strings, std::strings), one result.
  sinew::Skeleton unnamed = MUST(sinew::Skeleton::create(kParents, rest));
  sinew::Skeleton named = MUST(sinew::Skeleton::create(kParents, rest, kNames));
  std::vector<std::string> strings(kNames, kNames + JOINTS);
  sinew::Skeleton named_strings = MUST(sinew::Skeleton::create(kParents, rest, strings));
  std::vector<const char*> pointers(kNames, kNames + JOINTS);
  sinew::Skeleton named_pointers = MUST(sinew::Skeleton::create(kParents, rest, pointers));

  std::vector<SinewTransform> c_rest(JOINTS);
  CHECK(sinew_skeleton_get_rest_pose(cs, c_rest.data(), JOINTS) == SINEW_STATUS_OK);
  std::vector<int32_t> c_parents(JOINTS);
  CHECK(sinew_skeleton_get_parents(cs, c_parents.data(), JOINTS) == SINEW_STATUS_OK);
  for (const sinew::Skeleton* s : {&unnamed, &named, &named_strings, &named_pointers}) {
    CHECK(MUST(s->joint_count()) == JOINTS);
    CHECK(same_bits(MUST(s->rest_pose()), c_rest));
    CHECK(MUST(s->parents()) == c_parents);
    std::array<sinew::Transform, JOINTS> rest_out;
    CHECK_OK(s->get_rest_pose(rest_out));
    CHECK(std::memcmp(rest_out.data(), c_rest.data(), sizeof rest_out) == 0);
    int32_t parents_out[JOINTS];
    CHECK_OK(s->get_parents(parents_out));
    CHECK(std::memcmp(parents_out, kParents, sizeof parents_out) == 0);
  }
  // The rest rotation given at twice unit length came back renormalized.
  CHECK(!same_bits(rest[UPPER_R], c_rest[UPPER_R]));

  for (uint32_t j = 0; j < JOINTS; ++j) {
    uint32_t c_index = 99;
    CHECK(sinew_skeleton_find_joint(cs, kNames[j], &c_index) == SINEW_STATUS_OK);
    CHECK(MUST(named.find_joint(kNames[j])) == c_index && c_index == j);
    CHECK(MUST(named_strings.find_joint(strings[j])) == j);
  }
  CHECK(unnamed.find_joint("spine").status() == sinew::Status::not_found);

  // Errors from the library, compared with direct C calls.
  SinewSkeleton* out = nullptr;
  const int32_t bad_parents[3] = {-1, 2, 0};
  const std::vector<sinew::Transform> three(3);
  EXPECT_NATIVE_ERROR(sinew::Skeleton::create(bad_parents, three),
                      sinew_skeleton_create(bad_parents, c_ptr(three), nullptr, 3, &out),
                      sinew::Status::invalid_skeleton);
  const int32_t chain3[3] = {-1, 0, 1};
  const char* const duplicate[3] = {"a", "b", "a"};
  EXPECT_NATIVE_ERROR(sinew::Skeleton::create(chain3, three, duplicate),
                      sinew_skeleton_create(chain3, c_ptr(three), duplicate, 3, &out),
                      sinew::Status::invalid_skeleton);
  const std::vector<int32_t> none;
  const std::vector<sinew::Transform> no_rest;
  EXPECT_NATIVE_ERROR(sinew::Skeleton::create(none, no_rest),
                      sinew_skeleton_create(nullptr, nullptr, nullptr, 0, &out),
                      sinew::Status::out_of_range);
  std::vector<sinew::Transform> nan_rest(3);
  nan_rest[1].translation.y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NATIVE_ERROR(sinew::Skeleton::create(chain3, nan_rest),
                      sinew_skeleton_create(chain3, c_ptr(nan_rest), nullptr, 3, &out),
                      sinew::Status::non_finite);
  CHECK(out == nullptr);
  std::vector<int32_t> short_parents(JOINTS - 1);
  EXPECT_NATIVE_ERROR(named.get_parents(short_parents),
                      sinew_skeleton_get_parents(cs, short_parents.data(), JOINTS - 1),
                      sinew::Status::size_mismatch);
  std::vector<sinew::Transform> long_rest(JOINTS + 1);
  EXPECT_NATIVE_ERROR(named.get_rest_pose(long_rest),
                      sinew_skeleton_get_rest_pose(cs, c_ptr(long_rest), JOINTS + 1),
                      sinew::Status::size_mismatch);
  // Sizes the wrapper checks: names must match parents; rest_pose must match parents.
  const char* const two_names[2] = {"a", "b"};
  EXPECT_WRAPPER_ERROR(sinew::Skeleton::create(chain3, three, two_names),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(sinew::Skeleton::create(chain3, no_rest), sinew::Status::size_mismatch);
  // Empty name lists are a size mismatch too, not "no names".
  const std::vector<const char*> no_names;
  EXPECT_WRAPPER_ERROR(sinew::Skeleton::create(chain3, three, no_names),
                       sinew::Status::size_mismatch);
  const std::vector<std::string> no_strings;
  EXPECT_WRAPPER_ERROR(sinew::Skeleton::create(chain3, three, no_strings),
                       sinew::Status::size_mismatch);

  sinew_skeleton_destroy(cs);
}

// ================================================================ Pose

static void test_pose() {
  g_section = "pose";
  TwinRig rig(nullptr, true);

  CHECK(MUST(rig.pose.joint_count()) == JOINTS);
  CHECK(rig.same_local());
  CHECK(same_bits(local_of(rig.pose), MUST(rig.skeleton.rest_pose())));

  // set_local (rotations renormalized), get_local into a span and into a vector.
  std::vector<sinew::Transform> animated = animated_pose();
  CHECK_OK(rig.pose.set_local(animated));
  CHECK(sinew_pose_set_local(rig.cp, c_ptr(animated), JOINTS) == SINEW_STATUS_OK);
  std::array<sinew::Transform, JOINTS> local_span;
  CHECK_OK(rig.pose.get_local(local_span));
  std::vector<SinewTransform> c_after = c_local(rig.cp);
  CHECK(std::memcmp(local_span.data(), c_after.data(), sizeof local_span) == 0);
  CHECK(same_bits(local_of(rig.pose), c_after));
  CHECK(!same_bits(animated, c_after));  // renormalized, so something changed

  // get_model (span and vector), model_transform.
  std::vector<SinewTransform> c_model_before = c_model(rig.cp);
  CHECK(same_bits(MUST(rig.pose.get_model()), c_model_before));
  sinew::Transform model_span[JOINTS];
  CHECK_OK(rig.pose.get_model(model_span));
  CHECK(std::memcmp(model_span, c_model_before.data(), sizeof model_span) == 0);
  for (uint32_t j = 0; j < JOINTS; ++j) {
    SinewTransform c_one;
    CHECK(sinew_pose_get_model_transform(rig.cp, j, &c_one) == SINEW_STATUS_OK);
    CHECK(same_bits(MUST(rig.pose.model_transform(j)), c_one));
  }
  // compute_model reads a const pose (span and vector): the same bits as get_model.
  const sinew::Pose& const_pose = rig.pose;
  CHECK(same_bits(MUST(const_pose.compute_model()), c_model_before));
  sinew::Transform computed_span[JOINTS];
  CHECK_OK(const_pose.compute_model(computed_span));
  CHECK(std::memcmp(computed_span, c_model_before.data(), sizeof computed_span) == 0);
  std::vector<SinewTransform> c_computed(JOINTS);
  CHECK(sinew_pose_compute_model(rig.cp, c_computed.data(), JOINTS) == SINEW_STATUS_OK);
  CHECK(same_bits(c_computed, c_model_before));

  // set_model_transform moves a joint and its descendants.
  const sinew::Transform moved{sinew::Vec3{0.4f, 1.5f, 0.3f}, axis_angle(0, 1, 1, 0.8f)};
  const SinewTransform c_moved = moved;
  CHECK_OK(rig.pose.set_model_transform(LOWER_R, moved));
  CHECK(sinew_pose_set_model_transform(rig.cp, LOWER_R, &c_moved) == SINEW_STATUS_OK);
  CHECK(rig.same_local());
  CHECK(!same_bits(local_of(rig.pose), c_after));

  // set_model from edited model transforms.
  std::vector<sinew::Transform> model = MUST(rig.pose.get_model());
  model[SPINE].translation.x += 0.1f;
  model[HAND_L].rotation = axis_angle(1, 1, 0, 0.3f);
  CHECK_OK(rig.pose.set_model(model));
  CHECK(sinew_pose_set_model(rig.cp, c_ptr(model), JOINTS) == SINEW_STATUS_OK);
  CHECK(rig.same_local());
  CHECK(same_bits(MUST(rig.pose.get_model()), c_model(rig.cp)));

  // apply_constraints.
  const std::array<uint32_t, 2> joints = {{LOWER_R, UPPER_L}};
  const std::array<sinew::JointConstraint, 2> constraints = {
      {sinew::JointConstraint::hinge(sinew::Quat::identity(), sinew::Vec3{0, 1, 0}, -0.2f, 0.2f),
       sinew::JointConstraint::cone(sinew::Quat::identity(), sinew::Vec3{1, 0, 0}, 0.1f, 0.2f)}};
  const std::vector<sinew::Transform> before_constraints = local_of(rig.pose);
  CHECK_OK(rig.pose.apply_constraints(joints, constraints));
  CHECK(sinew_pose_apply_constraints(rig.cp, joints.data(), constraints.data(), 2) ==
        SINEW_STATUS_OK);
  CHECK(rig.same_local());
  CHECK(!same_bits(local_of(rig.pose), before_constraints));

  // reset.
  CHECK_OK(rig.pose.reset());
  CHECK(sinew_pose_reset(rig.cp) == SINEW_STATUS_OK);
  CHECK(rig.same_local());
  CHECK(same_bits(local_of(rig.pose), MUST(rig.skeleton.rest_pose())));

  // Errors. Every span of transforms holds one per joint.
  std::vector<sinew::Transform> short_local(JOINTS - 2);
  const auto expect_short = [&](auto wrapper_call, auto c_call) {
    EXPECT_NATIVE_ERROR(wrapper_call(), c_call(rig.cp, c_ptr(short_local), JOINTS - 2),
                        sinew::Status::size_mismatch);
  };
  expect_short([&] { return rig.pose.set_local(short_local); }, sinew_pose_set_local);
  expect_short([&] { return rig.pose.get_local(short_local); }, sinew_pose_get_local);
  expect_short([&] { return rig.pose.get_model(short_local); }, sinew_pose_get_model);
  expect_short([&] { return const_pose.compute_model(short_local); }, sinew_pose_compute_model);
  std::vector<sinew::Transform> nan_local = animated;
  nan_local[HAND_R].rotation.w = std::numeric_limits<float>::infinity();
  EXPECT_NATIVE_ERROR(rig.pose.set_local(nan_local),
                      sinew_pose_set_local(rig.cp, c_ptr(nan_local), JOINTS),
                      sinew::Status::non_finite);
  EXPECT_NATIVE_ERROR(rig.pose.set_model(nan_local),
                      sinew_pose_set_model(rig.cp, c_ptr(nan_local), JOINTS),
                      sinew::Status::non_finite);
  CHECK(rig.same_local());  // untouched by the failures
  SinewTransform c_one;
  EXPECT_NATIVE_ERROR(rig.pose.model_transform(JOINTS),
                      sinew_pose_get_model_transform(rig.cp, JOINTS, &c_one),
                      sinew::Status::out_of_range);
  EXPECT_NATIVE_ERROR(rig.pose.set_model_transform(JOINTS + 5, moved),
                      sinew_pose_set_model_transform(rig.cp, JOINTS + 5, &c_moved),
                      sinew::Status::out_of_range);
  std::array<sinew::JointConstraint, 2> bad_constraints = constraints;
  bad_constraints[1].type = 7;
  EXPECT_NATIVE_ERROR(rig.pose.apply_constraints(joints, bad_constraints),
                      sinew_pose_apply_constraints(rig.cp, joints.data(), bad_constraints.data(),
                                                   2),
                      sinew::Status::invalid_argument);
  const std::array<uint32_t, 2> bad_joints = {{LOWER_R, 77}};
  EXPECT_NATIVE_ERROR(rig.pose.apply_constraints(bad_joints, constraints),
                      sinew_pose_apply_constraints(rig.cp, bad_joints.data(), constraints.data(),
                                                   2),
                      sinew::Status::out_of_range);
  const sinew::Span<const sinew::JointConstraint> one_constraint(constraints.data(), 1);
  EXPECT_WRAPPER_ERROR(rig.pose.apply_constraints(joints, one_constraint),
                       sinew::Status::size_mismatch);
  SinewPose* no_pose = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Pose::create(sinew::Skeleton{}), sinew_pose_create(nullptr, &no_pose),
                      sinew::Status::null_pointer);
}

// ================================================================ two-bone IK

static void test_two_bone_ik() {
  g_section = "two-bone IK";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);

  sinew::TwoBoneIk ik = MUST(sinew::TwoBoneIk::create());
  CHECK(same_bits(MUST(ik.settings()), c_default(sinew_two_bone_ik_settings_default)));

  sinew::TwoBoneIkSettings settings;
  settings.allow_stretching = 1;
  settings.soften = 0.9f;
  settings.pole_weight = 0.8f;
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::copy_effector);
  CHECK_OK(ik.set_settings(settings));
  CHECK(same_bits(MUST(ik.settings()), static_cast<const SinewTwoBoneIkSettings&>(settings)));
  SinewTwoBoneIk* cik = nullptr;
  CHECK(sinew_two_bone_ik_create(&settings, &cik) == SINEW_STATUS_OK);
  sinew::TwoBoneIk created = MUST(sinew::TwoBoneIk::create(settings));
  CHECK(same_bits(MUST(created.settings()), MUST(ik.settings())));

  const std::vector<sinew::Transform> model = MUST(rig.pose.get_model());
  const std::array<sinew::Transform, 3> input = {{model[UPPER_R], model[LOWER_R], model[HAND_R]}};
  struct Case {
    sinew::Vec3 effector;
    bool has_rotation;
    bool has_pole;
  };
  const Case cases[] = {
      {{0.5f, 1.2f, 0.3f}, false, false},
      {{0.4f, 1.6f, -0.2f}, true, false},
      {{0.3f, 1.1f, 0.4f}, false, true},
      {{2.0f, 2.0f, 2.0f}, true, true},  // out of reach: stretches
      {{0.2f, 1.4f, 0.0f}, true, true},  // at the root: degenerate
  };
  const sinew::Quat rotation = axis_angle(1, 0, 1, 0.7f);
  const sinew::Vec3 pole{0.3f, 1.0f, -1.0f};
  for (const Case& k : cases) {
    std::array<sinew::Transform, 3> chain = input;
    std::array<SinewTransform, 3> c_chain = {{input[0], input[1], input[2]}};
    std::optional<sinew::Quat> r;
    std::optional<sinew::Vec3> p;
    if (k.has_rotation) r = rotation;
    if (k.has_pole) p = pole;
    const sinew::IkResult result = MUST(ik.solve(chain, k.effector, r, p));
    const SinewVec3 c_effector = k.effector;
    const SinewQuat c_rotation = rotation;
    const SinewVec3 c_pole = pole;
    SinewIkResult c_result;
    CHECK(sinew_two_bone_ik_solve(cik, c_chain.data(), &c_effector,
                                  k.has_rotation ? &c_rotation : nullptr,
                                  k.has_pole ? &c_pole : nullptr, &c_result) == SINEW_STATUS_OK);
    CHECK(same_bits(chain, c_chain));
    CHECK(same_bits(result.to_c(), c_result));
    CHECK(!same_bits(chain, input));
  }

  // solve_pose.
  const sinew::IkResult pose_result =
      MUST(ik.solve_pose(rig.pose, UPPER_R, LOWER_R, HAND_R, sinew::Vec3{0.5f, 1.3f, 0.3f},
                         std::nullopt, pole));
  const SinewVec3 c_target = {0.5f, 1.3f, 0.3f};
  const SinewVec3 c_pole = pole;
  SinewIkResult c_pose_result;
  CHECK(sinew_two_bone_ik_solve_pose(cik, rig.cp, UPPER_R, LOWER_R, HAND_R, &c_target, nullptr,
                                     &c_pole, &c_pose_result) == SINEW_STATUS_OK);
  rig.check_solved(pose_result.to_c(), c_pose_result, animated);

  // Errors.
  std::array<sinew::Transform, 3> chain = input;
  std::array<SinewTransform, 3> c_chain = {{input[0], input[1], input[2]}};
  const sinew::Vec3 nan_effector{std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f};
  const SinewVec3 c_nan = nan_effector;
  EXPECT_NATIVE_ERROR(ik.solve(chain, nan_effector),
                      sinew_two_bone_ik_solve(cik, c_chain.data(), &c_nan, nullptr, nullptr,
                                              nullptr),
                      sinew::Status::non_finite);
  CHECK(same_bits(chain, input));  // untouched
  EXPECT_NATIVE_ERROR(
      ik.solve_pose(rig.pose, UPPER_R, HAND_R, LOWER_R, sinew::Vec3{0.5f, 1.3f, 0.3f}),
      sinew_two_bone_ik_solve_pose(cik, rig.cp, UPPER_R, HAND_R, LOWER_R, &c_target, nullptr,
                                   nullptr, nullptr),
      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(ik.solve_pose(rig.pose, UPPER_R, LOWER_R, 40, sinew::Vec3{0.5f, 1.3f, 0.3f}),
                      sinew_two_bone_ik_solve_pose(cik, rig.cp, UPPER_R, LOWER_R, 40, &c_target,
                                                   nullptr, nullptr, nullptr),
                      sinew::Status::out_of_range);
  EXPECT_WRAPPER_ERROR(ik.solve(sinew::Span<sinew::Transform>(chain.data(), 2), sinew::Vec3{}),
                       sinew::Status::size_mismatch);
  sinew::TwoBoneIkSettings bad = settings;
  bad.weight = 2.0f;
  SinewTwoBoneIk* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::TwoBoneIk::create(bad), sinew_two_bone_ik_create(&bad, &none),
                      sinew::Status::invalid_argument);
  bad = settings;
  bad.keep_twist = 2;
  EXPECT_NATIVE_ERROR(ik.set_settings(bad), sinew_two_bone_ik_set_settings(cik, &bad),
                      sinew::Status::invalid_argument);
  CHECK(same_bits(MUST(ik.settings()), static_cast<const SinewTwoBoneIkSettings&>(settings)));

  sinew_two_bone_ik_destroy(cik);
}

// ================================================================ FABRIK and CCD

/// The chain spine -> upperarm_l -> lowerarm_l -> hand_l.
static const std::array<uint32_t, 4> kChain = {{SPINE, UPPER_L, LOWER_L, HAND_L}};

static std::vector<sinew::Transform> chain_model(sinew::Pose& pose) {
  const std::vector<sinew::Transform> model = MUST(pose.get_model());
  std::vector<sinew::Transform> chain;
  for (uint32_t j : kChain) chain.push_back(model[j]);
  return chain;
}

/// FABRIK's and CCD's solve: same (handle, chain, count, root parent, target, rotation, result).
template <class CSolver>
using CChainSolve = SinewStatus (*)(CSolver*, SinewTransform*, uint32_t, const SinewQuat*,
                                    const SinewVec3*, const SinewQuat*, SinewIkResult*);

/// FABRIK or CCD on `input`: each target without, then with, an effector `rotation` and a root
/// `parent` rotation, through the wrapper (`solve(chain, target, with)`) and through C; the same
/// chains and results, bit for bit, and the chain moved.
template <class Solve, class CSolver>
static void check_chain_solves(Solve solve, CSolver* c_solver, CChainSolve<CSolver> c_solve,
                               const std::vector<sinew::Transform>& input,
                               const sinew::Vec3 (&targets)[3], const sinew::Quat& rotation,
                               const sinew::Quat& parent) {
  for (const sinew::Vec3& target : targets) {
    for (int with = 0; with < 2; ++with) {
      std::vector<sinew::Transform> chain = input;
      std::vector<sinew::Transform> c_chain = input;
      const sinew::IkResult result = MUST(solve(chain, target, with != 0));
      const SinewVec3 c_target = target;
      const SinewQuat c_rotation = rotation;
      const SinewQuat c_parent = parent;
      SinewIkResult c_result;
      CHECK(c_solve(c_solver, c_ptr(c_chain), u32(c_chain.size()), with ? &c_parent : nullptr,
                    &c_target, with ? &c_rotation : nullptr, &c_result) == SINEW_STATUS_OK);
      CHECK(same_bits(chain, c_chain));
      CHECK(same_bits(result.to_c(), c_result));
      CHECK(!same_bits(chain, input));
    }
  }
}

/// FABRIK's and CCD's solve_pose: (handle, pose, joints, count, target, rotation, result).
template <class CSolver>
using CChainSolvePose = SinewStatus (*)(CSolver*, SinewPose*, const uint32_t*, uint32_t,
                                        const SinewVec3*, const SinewQuat*, SinewIkResult*);

/// FABRIK or CCD on kChain of the rig's poses from `before`: `result` (the wrapper's), and C
/// with the same `target` and effector `rotation` (none when NULL), alike bit for bit.
template <class CSolver>
static void check_chain_pose_solve(TwinRig& rig, const sinew::IkResult& result,
                                   CSolver* c_solver, CChainSolvePose<CSolver> c_solve_pose,
                                   const sinew::Vec3& target, const sinew::Quat* rotation,
                                   const std::vector<sinew::Transform>& before) {
  const SinewVec3 c_target = target;
  const SinewQuat c_rotation = rotation != nullptr ? *rotation : sinew::Quat::identity();
  SinewIkResult c_result;
  CHECK(c_solve_pose(c_solver, rig.cp, kChain.data(), u32(kChain.size()), &c_target,
                     rotation != nullptr ? &c_rotation : nullptr, &c_result) == SINEW_STATUS_OK);
  rig.check_solved(result.to_c(), c_result, before);
}

/// New `settings` through the wrapper's and the C setter: both accept them, and the wrapper reads
/// them back bit for bit.
template <class Solver, class CSolver, class Settings, class CSettings>
static void set_settings_both(Solver& solver, CSolver* c_solver,
                              SinewStatus (*c_set)(CSolver*, const CSettings*),
                              const Settings& settings) {
  CHECK_OK(solver.set_settings(settings));
  CHECK(c_set(c_solver, &settings) == SINEW_STATUS_OK);
  CHECK(same_bits(MUST(solver.settings()), static_cast<const CSettings&>(settings)));
}

// Aim chains: the wrapper's solves equal the C calls bit for bit (and the C calls equal the Rust
// core: tests/ffi_miri), with the optional up target as std::optional and batches as spans.
static void test_aim() {
  g_section = "aim";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);
  sinew::AimIkSettings settings;
  CHECK(settings.aim_axis.x == 1.0f && settings.up_axis.y == 1.0f);
  settings.aim_offset = sinew::Vec3{0.1f, 0.05f, 0.0f};
  settings.max_angle_degrees = 120.0f;
  sinew::AimIk aim = MUST(sinew::AimIk::create(settings, 6));
  SinewAimIk* ca = nullptr;
  CHECK(sinew_aim_ik_create(&settings, 6, &ca) == SINEW_STATUS_OK);
  CHECK_OK(aim.set_joint(1, 2.0f, 25.0f));
  CHECK(sinew_aim_ik_set_joint(ca, 1, 2.0f, 25.0f) == SINEW_STATUS_OK);
  settings.weight = 0.8f;
  set_settings_both(aim, ca, sinew_aim_ik_set_settings, settings);

  const std::vector<sinew::Transform> input = chain_model(rig.pose);
  const sinew::Vec3 targets[] = {{-0.5f, 1.1f, 0.3f}, {3.0f, 1.0f, 0.0f}, {-3.0f, 1.4f, -0.1f}};
  const sinew::Vec3 up{0.0f, 1.0f, 0.2f};
  for (const sinew::Vec3& target : targets) {
    for (int with_up = 0; with_up < 2; ++with_up) {
      std::vector<sinew::Transform> chain = input;
      std::vector<sinew::Transform> c_chain = input;
      std::optional<sinew::Vec3> u;
      if (with_up) u = up;
      const sinew::IkResult r = MUST(aim.solve(chain, target, u));
      const SinewVec3 t = target;
      const SinewVec3 cu = up;
      SinewIkResult cr{};
      CHECK(sinew_aim_ik_solve(ca, c_ptr(c_chain), static_cast<uint32_t>(c_chain.size()), &t,
                               with_up ? &cu : nullptr, &cr) == SINEW_STATUS_OK);
      CHECK(same_bits(chain, c_chain));
      CHECK(same_bits(r.to_c(), cr));
      CHECK(std::isfinite(r.error));
    }
  }
  // A batch of three chains equals three single solves.
  std::vector<sinew::Transform> chains;
  for (int i = 0; i < 3; ++i) chains.insert(chains.end(), input.begin(), input.end());
  std::vector<sinew::IkResult> results(3);
  CHECK_OK(aim.solve_batch(chains, input.size(), targets, {}, results));
  for (std::size_t i = 0; i < 3; ++i) {
    std::vector<sinew::Transform> single = input;
    const sinew::IkResult r = MUST(aim.solve(single, targets[i]));
    CHECK(same_bits(std::vector<sinew::Transform>(chains.begin() + i * input.size(),
                                                  chains.begin() + (i + 1) * input.size()),
                    single));
    CHECK(same_bits(r.to_c(), results[i].to_c()));
  }
  EXPECT_WRAPPER_ERROR(aim.solve_batch(chains, input.size(), targets, {}, {results.data(), 2}),
                       sinew::Status::size_mismatch);

  const sinew::Vec3 target{-0.45f, 1.2f, 0.35f};
  const sinew::IkResult pose_result = MUST(aim.solve_pose(rig.pose, kChain, target));
  const SinewVec3 c_target = target;
  SinewIkResult c_pose_result;
  CHECK(sinew_aim_ik_solve_pose(ca, rig.cp, kChain.data(), u32(kChain.size()), &c_target, nullptr,
                                &c_pose_result) == SINEW_STATUS_OK);
  rig.check_solved(pose_result.to_c(), c_pose_result, animated);

  // Errors.
  std::vector<sinew::Transform> too_long(7);
  EXPECT_NATIVE_ERROR(aim.solve(too_long, target),
                      sinew_aim_ik_solve(ca, c_ptr(too_long), 7, &c_target, nullptr, nullptr),
                      sinew::Status::out_of_range);
  EXPECT_NATIVE_ERROR(aim.set_joint(1, -1.0f, 10.0f), sinew_aim_ik_set_joint(ca, 1, -1.0f, 10.0f),
                      sinew::Status::invalid_argument);
  sinew::AimIkSettings bad = settings;
  bad.aim_axis = sinew::Vec3{0.0f, 0.0f, 0.0f};
  SinewAimIk* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::AimIk::create(bad, 6), sinew_aim_ik_create(&bad, 6, &none),
                      sinew::Status::invalid_argument);
  sinew_aim_ik_destroy(ca);
}

static void test_fabrik() {
  g_section = "FABRIK";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);

  const SinewFabrikSettings c_defaults = c_default(sinew_fabrik_settings_default);
  CHECK(same_bits(MUST(MUST(sinew::Fabrik::create(6)).settings()), c_defaults));

  sinew::FabrikSettings settings;
  settings.precision = 1e-4f;
  settings.max_iterations = 25;
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::copy_effector);
  sinew::Fabrik fabrik = MUST(sinew::Fabrik::create(settings, 6));
  CHECK(same_bits(MUST(fabrik.settings()), static_cast<const SinewFabrikSettings&>(settings)));
  SinewFabrik* cf = nullptr;
  CHECK(sinew_fabrik_create(&settings, 6, &cf) == SINEW_STATUS_OK);
  settings.stop_when_stalled = 0;
  set_settings_both(fabrik, cf, sinew_fabrik_set_settings, settings);

  const sinew::JointConstraint cone =
      sinew::JointConstraint::cone(animated[UPPER_L].rotation, sinew::Vec3{-1, 0, 0}, 0.6f, 0.4f);
  const sinew::JointConstraint hinge =
      sinew::JointConstraint::hinge(sinew::Quat::identity(), sinew::Vec3{0, 1, 0}, -1.5f, 0.1f);
  CHECK_OK(fabrik.set_constraint(1, cone));
  CHECK_OK(fabrik.set_constraint(2, hinge));
  CHECK_OK(fabrik.set_constraint(3, hinge));
  CHECK_OK(fabrik.clear_constraint(3));
  CHECK(sinew_fabrik_set_constraint(cf, 1, &cone) == SINEW_STATUS_OK);
  CHECK(sinew_fabrik_set_constraint(cf, 2, &hinge) == SINEW_STATUS_OK);

  // The optional rotations given as std::optional.
  const std::vector<sinew::Transform> input = chain_model(rig.pose);
  const sinew::Quat parent = MUST(rig.pose.model_transform(ROOT)).rotation;
  const sinew::Vec3 targets[] = {{-0.5f, 1.1f, 0.3f}, {-0.3f, 1.6f, -0.2f}, {-3.0f, 1.0f, 0.0f}};
  const sinew::Quat rotation = axis_angle(0, 1, 1, 0.5f);
  const auto solve = [&](std::vector<sinew::Transform>& chain, const sinew::Vec3& target,
                         bool with) {
    std::optional<sinew::Quat> r;
    std::optional<sinew::Quat> p;
    if (with) {
      r = rotation;
      p = parent;
    }
    return fabrik.solve(chain, target, r, p);
  };
  check_chain_solves(solve, cf, sinew_fabrik_solve, input, targets, rotation, parent);

  const sinew::Vec3 target{-0.45f, 1.2f, 0.35f};
  check_chain_pose_solve(rig, MUST(fabrik.solve_pose(rig.pose, kChain, target)), cf,
                         sinew_fabrik_solve_pose, target, nullptr, animated);

  // Errors.
  const SinewVec3 c_target = target;
  std::vector<sinew::Transform> too_long(7);
  EXPECT_NATIVE_ERROR(fabrik.solve(too_long, target),
                      sinew_fabrik_solve(cf, c_ptr(too_long), 7, nullptr, &c_target, nullptr,
                                         nullptr),
                      sinew::Status::out_of_range);
  std::vector<sinew::Transform> one(1);
  EXPECT_NATIVE_ERROR(fabrik.solve(one, target),
                      sinew_fabrik_solve(cf, c_ptr(one), 1, nullptr, &c_target, nullptr, nullptr),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(fabrik.set_constraint(6, cone), sinew_fabrik_set_constraint(cf, 6, &cone),
                      sinew::Status::out_of_range);
  const std::array<uint32_t, 3> not_a_chain = {{SPINE, LOWER_L, HAND_L}};
  EXPECT_NATIVE_ERROR(fabrik.solve_pose(rig.pose, not_a_chain, target),
                      sinew_fabrik_solve_pose(cf, rig.cp, not_a_chain.data(), 3, &c_target,
                                              nullptr, nullptr),
                      sinew::Status::invalid_argument);
  sinew::FabrikSettings bad = settings;
  bad.end_rotation = 9;
  SinewFabrik* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Fabrik::create(bad, 4), sinew_fabrik_create(&bad, 4, &none),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(fabrik.set_settings(bad), sinew_fabrik_set_settings(cf, &bad),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::Fabrik::create(1), sinew_fabrik_create(&c_defaults, 1, &none),
                      sinew::Status::out_of_range);

  sinew_fabrik_destroy(cf);
}

static void test_multi_fabrik() {
  g_section = "multi-effector FABRIK";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);

  const SinewMultiFabrikSettings c_defaults = c_default(sinew_multi_fabrik_settings_default);
  CHECK(same_bits(MUST(MUST(sinew::MultiFabrik::create(8, 2)).settings()), c_defaults));
  sinew::MultiFabrikSettings settings;
  settings.max_iterations = 12;
  sinew::MultiFabrik ik = MUST(sinew::MultiFabrik::create(settings, 8, 2));
  SinewMultiFabrik* cm = nullptr;
  CHECK(sinew_multi_fabrik_create(&settings, 8, 2, &cm) == SINEW_STATUS_OK);
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::keep_model);
  set_settings_both(ik, cm, sinew_multi_fabrik_set_settings, settings);
  const sinew::JointConstraint cone =
      sinew::JointConstraint::cone(animated[UPPER_L].rotation, sinew::Vec3{-1, 0, 0}, 0.6f, 0.4f);
  CHECK_OK(ik.set_constraint(UPPER_L, cone));
  CHECK_OK(ik.set_constraint(LOWER_R, cone));
  CHECK_OK(ik.clear_constraint(LOWER_R));
  CHECK(sinew_multi_fabrik_set_constraint(cm, UPPER_L, &cone) == SINEW_STATUS_OK);

  // Both hands from the spine, the right one turned and weighing half.
  const std::array<uint32_t, 2> hands = {{HAND_R, HAND_L}};
  const std::array<sinew::EffectorTarget, 2> targets = {
      {sinew::EffectorTarget(sinew::Vec3{0.45f, 1.25f, 0.3f})
           .with_rotation(axis_angle(0, 1, 0, 0.4f))
           .with_weight(0.5f),
       sinew::EffectorTarget(sinew::Vec3{-0.4f, 1.5f, 0.25f})}};
  std::array<sinew::IkResult, 2> results{};
  std::array<SinewIkResult, 2> c_results{};
  CHECK_OK(ik.solve_pose(rig.pose, SPINE, hands, targets, results));
  CHECK(sinew_multi_fabrik_solve_pose(cm, rig.cp, SPINE, hands.data(), 2, targets.data(),
                                      c_results.data()) == SINEW_STATUS_OK);
  rig.check_solved(std::array<SinewIkResult, 2>{{results[0].to_c(), results[1].to_c()}},
                   c_results, animated);
  CHECK(results[0].iterations >= 1 && results[1].error < 0.05f);

  // Model space: the wrapper and C on copies of the same array, without results.
  std::vector<sinew::Transform> model = MUST(rig.pose.get_model());
  std::vector<sinew::Transform> c_model = model;
  const std::array<sinew::EffectorTarget, 2> moved = {
      {targets[0], sinew::EffectorTarget(sinew::Vec3{-0.35f, 1.45f, 0.3f})}};
  CHECK_OK(ik.solve(rig.skeleton, model, SPINE, hands, moved));
  CHECK(sinew_multi_fabrik_solve(cm, rig.cs, c_ptr(c_model), JOINTS, SPINE, hands.data(), 2,
                                 moved.data(), nullptr) == SINEW_STATUS_OK);
  CHECK(same_bits(model, c_model));
  CHECK(!same_bits(model, MUST(rig.pose.get_model())));

  // Errors.
  const std::array<sinew::EffectorTarget, 1> one = {{targets[0]}};
  const auto before = model;
  CHECK(ik.solve(rig.skeleton, model, SPINE, hands, one).error().status ==
        sinew::Status::size_mismatch);
  std::array<sinew::EffectorTarget, 2> negative = targets;
  negative[1].weight = -1.0f;
  EXPECT_NATIVE_ERROR(ik.solve(rig.skeleton, model, SPINE, hands, negative),
                      sinew_multi_fabrik_solve(cm, rig.cs, c_ptr(c_model), JOINTS, SPINE,
                                               hands.data(), 2, negative.data(), nullptr),
                      sinew::Status::invalid_argument);
  const std::array<uint32_t, 2> nested = {{LOWER_L, HAND_L}};
  EXPECT_NATIVE_ERROR(ik.solve_pose(rig.pose, SPINE, nested, targets),
                      sinew_multi_fabrik_solve_pose(cm, rig.cp, SPINE, nested.data(), 2,
                                                    targets.data(), nullptr),
                      sinew::Status::invalid_argument);
  CHECK(same_bits(model, before));
  sinew::MultiFabrikSettings bad = settings;
  bad.max_iterations = 0;
  SinewMultiFabrik* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::MultiFabrik::create(bad, 8, 2),
                      sinew_multi_fabrik_create(&bad, 8, 2, &none),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::MultiFabrik::create(4, 5),
                      sinew_multi_fabrik_create(&c_defaults, 4, 5, &none),
                      sinew::Status::out_of_range);
  sinew_multi_fabrik_destroy(cm);
}

static void test_ccd() {
  g_section = "CCD";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);

  CHECK(same_bits(MUST(MUST(sinew::Ccd::create(5)).settings()),
                  c_default(sinew_ccd_settings_default)));

  sinew::CcdSettings settings;
  settings.max_iterations = 30;
  settings.start_from_tail = 0;
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::keep_model);
  sinew::Ccd ccd = MUST(sinew::Ccd::create(settings, 5));
  SinewCcd* cc = nullptr;
  CHECK(sinew_ccd_create(&settings, 5, &cc) == SINEW_STATUS_OK);
  settings.fix_root = 1;
  set_settings_both(ccd, cc, sinew_ccd_set_settings, settings);

  CHECK_OK(ccd.set_joint(1, 30.0f, 0.7f));
  CHECK_OK(ccd.set_joint(2, 180.0f, 0.5f));
  CHECK(sinew_ccd_set_joint(cc, 1, 30.0f, 0.7f) == SINEW_STATUS_OK);
  CHECK(sinew_ccd_set_joint(cc, 2, 180.0f, 0.5f) == SINEW_STATUS_OK);
  const sinew::JointConstraint twist =
      sinew::JointConstraint::twist(animated[LOWER_L].rotation, sinew::Vec3{-1, 0, 0}, -0.2f, 0.2f);
  CHECK_OK(ccd.set_constraint(2, twist));
  CHECK(sinew_ccd_set_constraint(cc, 2, &twist) == SINEW_STATUS_OK);
  CHECK_OK(ccd.set_constraint(3, twist));
  CHECK_OK(ccd.clear_constraint(3));

  // The optional rotations given as plain values, or left out.
  const std::vector<sinew::Transform> input = chain_model(rig.pose);
  const sinew::Quat parent = MUST(rig.pose.model_transform(ROOT)).rotation;
  const sinew::Vec3 targets[] = {{-0.5f, 1.1f, 0.3f}, {-0.2f, 1.7f, 0.1f}, {-2.0f, 0.0f, 1.0f}};
  const sinew::Quat rotation = axis_angle(1, 0, 0, 0.3f);
  const auto solve = [&](std::vector<sinew::Transform>& chain, const sinew::Vec3& target,
                         bool with) {
    return with ? ccd.solve(chain, target, rotation, parent) : ccd.solve(chain, target);
  };
  check_chain_solves(solve, cc, sinew_ccd_solve, input, targets, rotation, parent);

  const sinew::Vec3 target{-0.4f, 1.25f, 0.3f};
  const sinew::Quat end_rotation = axis_angle(0, 0, 1, 1.0f);
  check_chain_pose_solve(rig, MUST(ccd.solve_pose(rig.pose, kChain, target, end_rotation)), cc,
                         sinew_ccd_solve_pose, target, &end_rotation, animated);

  // Errors.
  EXPECT_NATIVE_ERROR(ccd.set_joint(1, 30.0f, 2.0f), sinew_ccd_set_joint(cc, 1, 30.0f, 2.0f),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(ccd.set_joint(1, 270.0f, 1.0f), sinew_ccd_set_joint(cc, 1, 270.0f, 1.0f),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(ccd.set_joint(9, 30.0f, 1.0f), sinew_ccd_set_joint(cc, 9, 30.0f, 1.0f),
                      sinew::Status::out_of_range);
  sinew::JointConstraint bad_twist = twist;
  bad_twist.min_angle = 1.0f;
  bad_twist.max_angle = -1.0f;
  EXPECT_NATIVE_ERROR(ccd.set_constraint(1, bad_twist), sinew_ccd_set_constraint(cc, 1, &bad_twist),
                      sinew::Status::invalid_argument);
  const sinew::Quat zero{0.0f, 0.0f, 0.0f, 0.0f};
  const SinewQuat c_zero = zero;
  const SinewVec3 c_target = target;
  std::vector<sinew::Transform> chain = input;
  std::vector<sinew::Transform> c_chain = input;
  EXPECT_NATIVE_ERROR(ccd.solve(chain, target, std::nullopt, zero),
                      sinew_ccd_solve(cc, c_ptr(c_chain), 4, &c_zero, &c_target, nullptr, nullptr),
                      sinew::Status::invalid_argument);
  CHECK(same_bits(chain, input));
  sinew::CcdSettings bad = settings;
  bad.start_from_tail = 3;
  SinewCcd* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Ccd::create(bad, 4), sinew_ccd_create(&bad, 4, &none),
                      sinew::Status::invalid_argument);

  sinew_ccd_destroy(cc);
}

// ================================================================ batch solves

static constexpr std::size_t kBatch = 9;

/// Field by field (an IkResult has padding, so not memcmp), floats by bits.
static bool same_result(const sinew::IkResult& a, const sinew::IkResult& b) {
  return a.reached == b.reached && same_bits(a.error, b.error) && a.iterations == b.iterations;
}

static bool same_results(const std::vector<sinew::IkResult>& a,
                         const std::vector<sinew::IkResult>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_result(a[i], b[i])) return false;
  }
  return true;
}

static bool same_results(const std::vector<sinew::IkResult>& a,
                         const std::vector<SinewIkResult>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_bits(a[i].to_c(), b[i])) return false;
  }
  return true;
}

/// What an untouched result entry holds.
static const sinew::IkResult kSentinel(SinewIkResult{1u, 42.5f, 77u});

static std::vector<SinewIkResult> c_sentinels() {
  return std::vector<SinewIkResult>(kBatch, kSentinel.to_c());
}

static std::vector<sinew::IkResult> sentinels() {
  return std::vector<sinew::IkResult>(kBatch, kSentinel);
}

static SinewIkResult* c_res(std::vector<SinewIkResult>& v) { return v.data(); }

/// A batch's outputs through the wrapper and through C, first the input chains and sentinel
/// results, so that a call that fails can be seen to write nothing.
struct BatchOutputs {
  std::vector<sinew::Transform> chains;
  std::vector<sinew::IkResult> results = sentinels();
  std::vector<sinew::Transform> c_chains;
  std::vector<SinewIkResult> c_results = c_sentinels();

  explicit BatchOutputs(const std::vector<sinew::Transform>& in) : chains(in), c_chains(in) {}

  /// Nothing written through the wrapper: the chains still `in`, the results untouched.
  bool untouched(const std::vector<sinew::Transform>& in) const {
    return same_bits(chains, in) && same_results(results, sentinels());
  }
  /// Nothing written through C.
  bool c_untouched(const std::vector<sinew::Transform>& in) const {
    return same_bits(c_chains, in) && same_results(sentinels(), c_results);
  }
};

/// kBatch chains in one array, with each chain's effector and effector rotation.
struct BatchInput {
  std::vector<sinew::Transform> chains;
  std::vector<sinew::Vec3> effectors;
  std::vector<sinew::Quat> rotations;

  /// Adds the effector of the chain of `n` joints added last, `offset` from its root; returns
  /// the root.
  sinew::Vec3 add_effector(std::size_t n, const sinew::Vec3& offset) {
    const sinew::Vec3 root = chains[chains.size() - n].translation;
    effectors.push_back(sinew::Vec3{root.x + offset.x, root.y + offset.y, root.z + offset.z});
    return root;
  }
};

/// The optional inputs of batch chain `i` when `given` (none otherwise): its effector rotation,
/// and its pole (two-bone) or root parent rotation (FABRIK, CCD).
template <class Extra>
static std::pair<std::optional<sinew::Quat>, std::optional<Extra>> optional_inputs(
    const BatchInput& in, const std::vector<Extra>& extras, std::size_t i, bool given) {
  if (!given) return {};
  return {in.rotations[i], extras[i]};
}

/// Each batch chain's effector, from the chain's root: the arms' (in reach, out of reach, at the
/// root: arm 4) and the limbs' (one out of reach: limb 3).
static const sinew::Vec3 kArmReach[kBatch] = {
    {0.3f, 0.2f, 0.1f},  {0.4f, -0.1f, 0.2f}, {0.1f, 0.4f, -0.2f},
    {0.5f, 0.1f, 0.0f},  {0.0f, 0.0f, 0.0f},  {0.2f, 0.2f, 0.2f},
    {0.05f, 0.3f, 0.3f}, {1.5f, 1.0f, 0.5f},  {-0.3f, 0.2f, 0.1f}};
static const sinew::Vec3 kLimbReach[kBatch] = {
    {-0.5f, 0.1f, 0.3f},  {-0.3f, 0.6f, -0.2f}, {-0.6f, -0.2f, 0.1f},
    {-3.0f, 0.0f, 0.0f},  {-0.2f, 0.3f, 0.4f},  {-0.4f, -0.4f, -0.1f},
    {-0.1f, 0.5f, 0.2f},  {-0.7f, 0.2f, -0.3f}, {-0.45f, 0.2f, 0.35f}};

/// kBatch arms (root, joint, end in model space), each moved and bent a little, with effectors
/// in reach, out of reach and at the root (degenerate: the general path inside a SIMD group).
struct ArmBatch : BatchInput {
  std::vector<sinew::Vec3> poles;
};

static ArmBatch arm_batch(const std::vector<sinew::Transform>& model) {
  ArmBatch b;
  for (std::size_t i = 0; i < kBatch; ++i) {
    const float f = static_cast<float>(i);
    const sinew::Vec3 shift{0.1f * f, -0.05f * f, 0.02f * f};
    for (uint32_t j : {UPPER_R, LOWER_R, HAND_R}) {
      sinew::Transform t = model[j];
      t.translation = sinew::Vec3{t.translation.x + shift.x, t.translation.y + shift.y,
                                  t.translation.z + shift.z};
      if (j == LOWER_R) t.translation.y += 0.02f * f;  // bend differently
      b.chains.push_back(t);
    }
    const sinew::Vec3 root = b.add_effector(3, kArmReach[i]);
    b.rotations.push_back(axis_angle(1, 0.1f * f, 1, 0.2f + 0.1f * f));
    b.poles.push_back(sinew::Vec3{root.x + 0.3f, root.y - 0.2f + 0.1f * f, root.z - 1.0f});
  }
  return b;
}

static void check_two_bone_batch(sinew::TwoBoneIk& ik, const ArmBatch& in, bool optional) {
  BatchOutputs out(in.chains);
  if (optional) {
    CHECK_OK(ik.solve_batch(out.chains, in.effectors, in.rotations, in.poles, out.results));
  } else {
    CHECK_OK(ik.solve_batch(out.chains, in.effectors));
  }

  // The C function on the same inputs.
  CHECK(sinew_two_bone_ik_solve_batch(ik.get(), c_ptr(out.c_chains), u32(kBatch),
                                      c_vec3(in.effectors),
                                      optional ? c_quat(in.rotations) : nullptr,
                                      optional ? c_vec3(in.poles) : nullptr,
                                      optional ? c_res(out.c_results) : nullptr) ==
        SINEW_STATUS_OK);
  CHECK(same_bits(out.chains, out.c_chains));
  if (optional) CHECK(same_results(out.results, out.c_results));

  // Each chain as a single solve.
  for (std::size_t i = 0; i < kBatch; ++i) {
    std::array<sinew::Transform, 3> single = {
        {in.chains[3 * i], in.chains[3 * i + 1], in.chains[3 * i + 2]}};
    const auto [r, p] = optional_inputs(in, in.poles, i, optional);
    const sinew::IkResult expected = MUST(ik.solve(single, in.effectors[i], r, p));
    CHECK(std::memcmp(&out.chains[3 * i], single.data(), sizeof single) == 0);
    if (optional) {
      CHECK(same_result(out.results[i], expected));
    } else {
      CHECK(same_result(out.results[i], kSentinel));  // no results asked for: untouched
    }
  }
  CHECK(!same_bits(out.chains, in.chains));
}

/// Lane `l` of SoA blocks.
static void set_lane(SinewSoaVec3& b, std::size_t l, const sinew::Vec3& v) {
  b.x[l] = v.x;
  b.y[l] = v.y;
  b.z[l] = v.z;
}
static void set_lane(SinewSoaQuat& b, std::size_t l, const sinew::Quat& q) {
  b.x[l] = q.x;
  b.y[l] = q.y;
  b.z[l] = q.z;
  b.w[l] = q.w;
}

/// `chains` (three transforms each) in SoA blocks, three per group of four; lanes past the
/// last chain hold `blank`.
static std::vector<sinew::SoaTransform> soa_chains(const std::vector<sinew::Transform>& chains,
                                                   float blank) {
  const std::size_t count = chains.size() / 3, groups = (count + 3) / 4;
  sinew::SoaTransform empty;
  float* f = reinterpret_cast<float*>(&empty);
  for (std::size_t k = 0; k < sizeof empty / sizeof(float); ++k) f[k] = blank;
  std::vector<sinew::SoaTransform> out(3 * groups, empty);
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t k = 0; k < 3; ++k) {
      const sinew::Transform& t = chains[3 * i + k];
      sinew::SoaTransform& b = out[3 * (i / 4) + k];
      set_lane(b.translation, i % 4, t.translation);
      set_lane(b.rotation, i % 4, t.rotation);
      set_lane(b.scale, i % 4, t.scale);
    }
  }
  return out;
}

template <class B, class T>
static std::vector<B> soa_items(const std::vector<T>& items) {
  std::vector<B> out((items.size() + 3) / 4, B{});
  for (std::size_t i = 0; i < items.size(); ++i) set_lane(out[i / 4], i % 4, items[i]);
  return out;
}

/// The SoA batch equals the array batch bit for bit and never writes the unused lanes.
static void check_two_bone_batch_soa(sinew::TwoBoneIk& ik, const ArmBatch& in) {
  BatchOutputs out(in.chains);
  CHECK_OK(ik.solve_batch(out.chains, in.effectors, in.rotations, in.poles, out.results));
  const float blank = 1234.5f;
  std::vector<sinew::SoaTransform> soa = soa_chains(in.chains, blank);
  const auto effectors = soa_items<sinew::SoaVec3>(in.effectors);
  const auto rotations = soa_items<sinew::SoaQuat>(in.rotations);
  const auto poles = soa_items<sinew::SoaVec3>(in.poles);
  std::vector<sinew::IkResult> results = sentinels();
  CHECK_OK(ik.solve_batch_soa(soa, kBatch, effectors, rotations, poles, results));
  const std::vector<sinew::SoaTransform> want = soa_chains(out.chains, blank);
  CHECK(std::memcmp(soa.data(), want.data(), soa.size() * sizeof soa[0]) == 0);
  CHECK(same_results(results, out.results));
  // The C function on the same blocks.
  std::vector<sinew::SoaTransform> c_soa = soa_chains(in.chains, blank);
  std::vector<SinewIkResult> c_results = c_sentinels();
  CHECK(sinew_two_bone_ik_solve_batch_soa(ik.get(), c_soa.data(), u32(kBatch), effectors.data(),
                                          rotations.data(), poles.data(),
                                          c_res(c_results)) == SINEW_STATUS_OK);
  CHECK(std::memcmp(c_soa.data(), want.data(), soa.size() * sizeof soa[0]) == 0);
  CHECK(same_results(results, c_results));

  // Sizes the wrapper checks: block counts of the groups, results of the chains.
  std::vector<sinew::SoaTransform> fresh = soa_chains(in.chains, blank);
  EXPECT_WRAPPER_ERROR(ik.solve_batch_soa(fresh, kBatch + 4, effectors),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      ik.solve_batch_soa(fresh, kBatch, sinew::Span<const sinew::SoaVec3>(effectors.data(), 2)),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(ik.solve_batch_soa(fresh, kBatch, effectors, {}, poles,
                                          sinew::Span<sinew::IkResult>(results.data(), 4)),
                       sinew::Status::size_mismatch);
  // Bad input: the library's error, nothing written.
  std::vector<sinew::SoaVec3> bad = effectors;
  bad[1].y[1] = std::numeric_limits<float>::quiet_NaN();
  std::vector<sinew::IkResult> untouched = sentinels();
  const auto r = ik.solve_batch_soa(fresh, kBatch, bad, rotations, poles, untouched);
  CHECK(!r && r.error().status == sinew::Status::non_finite);
  const std::vector<sinew::SoaTransform> again = soa_chains(in.chains, blank);
  CHECK(std::memcmp(fresh.data(), again.data(), fresh.size() * sizeof fresh[0]) == 0);
  CHECK(same_results(untouched, sentinels()));
}

static void test_two_bone_batch() {
  g_section = "two-bone IK batch";
  sinew::Skeleton skeleton = cpp_skeleton();
  sinew::Pose pose = MUST(sinew::Pose::create(skeleton));
  CHECK_OK(pose.set_local(animated_pose()));
  const ArmBatch in = arm_batch(MUST(pose.get_model()));

  sinew::TwoBoneIkSettings stretchy;
  stretchy.allow_stretching = 1;
  stretchy.soften = 0.9f;
  stretchy.pole_weight = 0.8f;
  stretchy.end_rotation = static_cast<int32_t>(sinew::EndRotation::copy_effector);
  sinew::TwoBoneIkSettings twist;
  twist.weight = 0.6f;
  twist.keep_twist = 1;
  for (const sinew::TwoBoneIkSettings& settings : {sinew::TwoBoneIkSettings(), stretchy, twist}) {
    sinew::TwoBoneIk ik = MUST(sinew::TwoBoneIk::create(settings));
    check_two_bone_batch(ik, in, true);
    check_two_bone_batch(ik, in, false);
    check_two_bone_batch_soa(ik, in);
  }

  sinew::TwoBoneIk ik = MUST(sinew::TwoBoneIk::create(stretchy));

  // Bad input anywhere: an error, and nothing written.
  BatchOutputs out(in.chains);
  std::vector<sinew::Vec3> effectors = in.effectors;
  effectors[5].y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_NATIVE_ERROR(ik.solve_batch(out.chains, effectors, in.rotations, in.poles, out.results),
                      sinew_two_bone_ik_solve_batch(ik.get(), c_ptr(out.c_chains), u32(kBatch),
                                                    c_vec3(effectors), c_quat(in.rotations),
                                                    c_vec3(in.poles), c_res(out.c_results)),
                      sinew::Status::non_finite);
  CHECK(out.untouched(in.chains));
  CHECK(out.c_untouched(in.chains));
  std::vector<sinew::Quat> rotations = in.rotations;
  rotations[8] = sinew::Quat{0.0f, 0.0f, 0.0f, 0.0f};
  EXPECT_NATIVE_ERROR(ik.solve_batch(out.chains, in.effectors, rotations, in.poles, out.results),
                      sinew_two_bone_ik_solve_batch(ik.get(), c_ptr(out.c_chains), u32(kBatch),
                                                    c_vec3(in.effectors), c_quat(rotations),
                                                    c_vec3(in.poles), c_res(out.c_results)),
                      sinew::Status::invalid_argument);
  CHECK(out.untouched(in.chains));
  std::vector<sinew::Transform> bad = in.chains;
  bad[3 * 7 + 1].rotation.x = std::numeric_limits<float>::infinity();
  std::vector<sinew::Transform> c_bad = bad;
  EXPECT_NATIVE_ERROR(ik.solve_batch(bad, in.effectors, {}, {}, out.results),
                      sinew_two_bone_ik_solve_batch(ik.get(), c_ptr(c_bad), u32(kBatch),
                                                    c_vec3(in.effectors), nullptr, nullptr,
                                                    c_res(out.c_results)),
                      sinew::Status::non_finite);
  CHECK(same_bits(bad, c_bad) && same_results(out.results, sentinels()));
  CHECK(same_bits(c_bad[3 * 7 + 1].rotation.x, std::numeric_limits<float>::infinity()));

  // A chain whose solution overflows f32 is left alone with its result; the others are solved.
  const float huge = 3.0e38f;
  std::vector<sinew::Transform> overflow = in.chains;
  for (int j = 0; j < 3; ++j) {
    overflow[3 * 2 + j] = sinew::Transform{sinew::Vec3{huge * static_cast<float>(j - 1), 0, 0},
                                           sinew::Quat::identity()};
  }
  std::vector<sinew::Vec3> at_origin = in.effectors;
  at_origin[2] = sinew::Vec3{};
  std::vector<sinew::Transform> c_overflow = overflow;
  out.chains = overflow;
  EXPECT_NATIVE_ERROR(ik.solve_batch(out.chains, at_origin, in.rotations, in.poles, out.results),
                      sinew_two_bone_ik_solve_batch(ik.get(), c_ptr(c_overflow), u32(kBatch),
                                                    c_vec3(at_origin), c_quat(in.rotations),
                                                    c_vec3(in.poles), c_res(out.c_results)),
                      sinew::Status::numeric_overflow);
  CHECK(c_message().find("chain 2 ") != std::string::npos);
  CHECK(same_bits(out.chains, c_overflow));
  CHECK(same_results(out.results, out.c_results));
  for (std::size_t i = 0; i < kBatch; ++i) {
    std::array<sinew::Transform, 3> single = {
        {overflow[3 * i], overflow[3 * i + 1], overflow[3 * i + 2]}};
    if (i == 2) {
      CHECK(std::memcmp(&out.chains[6], &overflow[6], 3 * sizeof(sinew::Transform)) == 0);
      CHECK(same_result(out.results[i], kSentinel));
      CHECK(ik.solve(single, at_origin[i], in.rotations[i], in.poles[i]).status() ==
            sinew::Status::numeric_overflow);
      continue;
    }
    const sinew::IkResult expected =
        MUST(ik.solve(single, at_origin[i], in.rotations[i], in.poles[i]));
    CHECK(std::memcmp(&out.chains[3 * i], single.data(), sizeof single) == 0);
    CHECK(same_result(out.results[i], expected));
  }

  // Sizes the wrapper checks: a "sinew C++:" error, nothing written, the library's message kept.
  out.chains = in.chains;
  out.results = sentinels();
  const sinew::Span<sinew::Transform> all(out.chains.data(), out.chains.size());
  EXPECT_WRAPPER_ERROR(
      ik.solve_batch(sinew::Span<sinew::Transform>(out.chains.data(), 26), in.effectors),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      ik.solve_batch(all, sinew::Span<const sinew::Vec3>(in.effectors.data(), 8)),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(ik.solve_batch(all, in.effectors,
                                      sinew::Span<const sinew::Quat>(in.rotations.data(), 8)),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      ik.solve_batch(all, in.effectors, {}, sinew::Span<const sinew::Vec3>(in.poles.data(), 1)),
      sinew::Status::size_mismatch);
  std::vector<sinew::IkResult> ten(10, kSentinel);
  EXPECT_WRAPPER_ERROR(ik.solve_batch(all, in.effectors, in.rotations, in.poles, ten),
                       sinew::Status::size_mismatch);
  CHECK(out.untouched(in.chains));
  if (sizeof(std::size_t) > sizeof(uint32_t)) {
    // More chains than a uint32_t counts: refused before anything is read.
    const std::size_t too_many = static_cast<std::size_t>(UINT32_MAX) + 1;
    EXPECT_WRAPPER_ERROR(
        ik.solve_batch(sinew::Span<sinew::Transform>(out.chains.data(), 3 * too_many),
                       sinew::Span<const sinew::Vec3>(in.effectors.data(), too_many)),
        sinew::Status::out_of_range);
  }

  // An empty batch is fine, with or without (empty) optional spans; an empty handle is not.
  std::vector<sinew::Transform> no_chains;
  std::vector<sinew::Vec3> no_effectors;
  std::vector<sinew::IkResult> no_results;
  CHECK_OK(ik.solve_batch(no_chains, no_effectors));
  CHECK_OK(ik.solve_batch(sinew::Span<sinew::Transform>(), sinew::Span<const sinew::Vec3>(), {},
                          {}, no_results));
  CHECK(sinew_two_bone_ik_solve_batch(ik.get(), nullptr, 0, nullptr, nullptr, nullptr,
                                      nullptr) == SINEW_STATUS_OK);
  sinew::TwoBoneIk empty;
  EXPECT_NATIVE_ERROR(empty.solve_batch(no_chains, no_effectors),
                      sinew_two_bone_ik_solve_batch(nullptr, nullptr, 0, nullptr, nullptr, nullptr,
                                                    nullptr),
                      sinew::Status::null_pointer);
}

/// kBatch copies of the chain spine -> hand_l, each moved and bent a little, with per-chain
/// effectors (one out of reach), effector rotations and root parent rotations.
struct LimbBatch : BatchInput {
  std::vector<sinew::Quat> parents;
};

static LimbBatch limb_batch(const std::vector<sinew::Transform>& chain) {
  LimbBatch b;
  const std::size_t n = chain.size();
  for (std::size_t i = 0; i < kBatch; ++i) {
    const float f = static_cast<float>(i);
    for (std::size_t j = 0; j < n; ++j) {
      sinew::Transform t = chain[j];
      t.translation.x -= 0.05f * f;
      t.translation.z += 0.03f * f;
      if (j == 2) t.translation.y += 0.02f * f;  // bend differently
      b.chains.push_back(t);
    }
    b.add_effector(n, kLimbReach[i]);
    b.rotations.push_back(axis_angle(0, 1, 0.2f * f, 0.5f + 0.1f * f));
    b.parents.push_back(axis_angle(0.1f * f, 0, 1, 0.05f * f));
  }
  return b;
}

/// FABRIK or CCD: a batch equals single solves bit for bit, and the C function's batch.
template <class Solver, class CBatch>
static void check_chain_batch(Solver& solver, Solver& singles, CBatch c_batch, const LimbBatch& in,
                              std::size_t n, bool optional) {
  BatchOutputs out(in.chains);
  if (optional) {
    CHECK_OK(
        solver.solve_batch(out.chains, n, in.effectors, in.rotations, in.parents, out.results));
  } else {
    CHECK_OK(solver.solve_batch(out.chains, n, in.effectors));
  }
  CHECK(c_batch(solver.get(), c_ptr(out.c_chains), u32(n), u32(kBatch),
                optional ? c_quat(in.parents) : nullptr, c_vec3(in.effectors),
                optional ? c_quat(in.rotations) : nullptr,
                optional ? c_res(out.c_results) : nullptr) == SINEW_STATUS_OK);
  CHECK(same_bits(out.chains, out.c_chains));
  if (optional) CHECK(same_results(out.results, out.c_results));
  for (std::size_t i = 0; i < kBatch; ++i) {
    const auto first = in.chains.begin() + static_cast<std::ptrdiff_t>(n * i);
    std::vector<sinew::Transform> single(first, first + static_cast<std::ptrdiff_t>(n));
    const auto [r, p] = optional_inputs(in, in.parents, i, optional);
    const sinew::IkResult expected = MUST(singles.solve(single, in.effectors[i], r, p));
    CHECK(std::memcmp(&out.chains[n * i], single.data(), n * sizeof(sinew::Transform)) == 0);
    CHECK(optional ? same_result(out.results[i], expected)
                   : same_result(out.results[i], kSentinel));
    CHECK(std::memcmp(&out.chains[n * i], &in.chains[n * i], n * sizeof(sinew::Transform)) != 0);
  }
}

template <class Solver, class CBatch>
static void test_chain_batch(const char* section, Solver (*make)(), CBatch c_batch) {
  g_section = section;
  sinew::Skeleton skeleton = cpp_skeleton();
  sinew::Pose pose = MUST(sinew::Pose::create(skeleton));
  CHECK_OK(pose.set_local(animated_pose()));
  const std::vector<sinew::Transform> limb = chain_model(pose);
  const std::size_t n = limb.size();
  const LimbBatch in = limb_batch(limb);

  Solver solver = make();
  Solver singles = make();
  check_chain_batch(solver, singles, c_batch, in, n, true);
  check_chain_batch(solver, singles, c_batch, in, n, false);
  // Shorter chains (the first three joints) on the same solvers.
  LimbBatch short_in;
  for (std::size_t i = 0; i < kBatch; ++i) {
    for (std::size_t j = 0; j < 3; ++j) short_in.chains.push_back(in.chains[n * i + j]);
  }
  short_in.effectors = in.effectors;
  short_in.rotations = in.rotations;
  short_in.parents = in.parents;
  check_chain_batch(solver, singles, c_batch, short_in, 3, true);

  // Bad input anywhere: an error, and nothing written.
  BatchOutputs out(in.chains);
  std::vector<sinew::Quat> parents = in.parents;
  parents[6] = sinew::Quat{0.0f, 0.0f, 0.0f, 0.0f};
  EXPECT_NATIVE_ERROR(
      solver.solve_batch(out.chains, n, in.effectors, in.rotations, parents, out.results),
      c_batch(solver.get(), c_ptr(out.c_chains), u32(n), u32(kBatch), c_quat(parents),
              c_vec3(in.effectors), c_quat(in.rotations), c_res(out.c_results)),
      sinew::Status::invalid_argument);
  CHECK(out.untouched(in.chains));
  CHECK(out.c_untouched(in.chains));
  std::vector<sinew::Vec3> effectors = in.effectors;
  effectors[8].z = std::numeric_limits<float>::infinity();
  EXPECT_NATIVE_ERROR(solver.solve_batch(out.chains, n, effectors, {}, {}, out.results),
                      c_batch(solver.get(), c_ptr(out.c_chains), u32(n), u32(kBatch), nullptr,
                              c_vec3(effectors), nullptr, c_res(out.c_results)),
                      sinew::Status::non_finite);
  CHECK(out.untouched(in.chains));
  std::vector<sinew::Transform> seven(7 * kBatch);
  std::vector<sinew::Transform> c_seven = seven;
  EXPECT_NATIVE_ERROR(solver.solve_batch(seven, 7, in.effectors),
                      c_batch(solver.get(), c_ptr(c_seven), 7, u32(kBatch), nullptr,
                              c_vec3(in.effectors), nullptr, nullptr),
                      sinew::Status::out_of_range);
  std::vector<sinew::Transform> ones(kBatch);
  std::vector<sinew::Transform> c_ones = ones;
  EXPECT_NATIVE_ERROR(solver.solve_batch(ones, 1, in.effectors),
                      c_batch(solver.get(), c_ptr(c_ones), 1, u32(kBatch), nullptr,
                              c_vec3(in.effectors), nullptr, nullptr),
                      sinew::Status::invalid_argument);
  CHECK(same_bits(ones, std::vector<sinew::Transform>(kBatch)));

  // Sizes the wrapper checks.
  EXPECT_WRAPPER_ERROR(solver.solve_batch(out.chains, n + 1, in.effectors),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      solver.solve_batch(sinew::Span<sinew::Transform>(out.chains.data(), n * kBatch - 1), n,
                         in.effectors),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      solver.solve_batch(out.chains, n, in.effectors, {},
                         sinew::Span<const sinew::Quat>(in.parents.data(), kBatch - 1)),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(
      solver.solve_batch(out.chains, n, in.effectors,
                         sinew::Span<const sinew::Quat>(in.rotations.data(), 2)),
      sinew::Status::size_mismatch);
  std::vector<sinew::IkResult> ten(10, kSentinel);
  EXPECT_WRAPPER_ERROR(solver.solve_batch(out.chains, n, in.effectors, {}, {}, ten),
                       sinew::Status::size_mismatch);
  CHECK(out.untouched(in.chains));
  if (sizeof(std::size_t) > sizeof(uint32_t)) {
    const std::size_t too_many = static_cast<std::size_t>(UINT32_MAX) + 1;
    EXPECT_WRAPPER_ERROR(
        solver.solve_batch(sinew::Span<sinew::Transform>(out.chains.data(), too_many), 1,
                           sinew::Span<const sinew::Vec3>(in.effectors.data(), too_many)),
        sinew::Status::out_of_range);
    EXPECT_WRAPPER_ERROR(solver.solve_batch(sinew::Span<sinew::Transform>(), too_many,
                                            sinew::Span<const sinew::Vec3>()),
                         sinew::Status::out_of_range);
  }

  // An empty batch is fine; an empty handle is not.
  std::vector<sinew::Transform> no_chains;
  std::vector<sinew::Vec3> no_effectors;
  std::vector<sinew::IkResult> no_results;
  CHECK_OK(solver.solve_batch(no_chains, n, no_effectors));
  CHECK_OK(solver.solve_batch(no_chains, n, no_effectors, {}, {}, no_results));
  CHECK(c_batch(solver.get(), nullptr, u32(n), 0, nullptr, nullptr, nullptr, nullptr) ==
        SINEW_STATUS_OK);
  Solver empty;
  EXPECT_NATIVE_ERROR(empty.solve_batch(no_chains, n, no_effectors),
                      c_batch(nullptr, nullptr, u32(n), 0, nullptr, nullptr, nullptr, nullptr),
                      sinew::Status::null_pointer);
}

/// FABRIK as in test_fabrik: tight precision, copied effector rotation, a cone and a hinge.
static sinew::Fabrik make_batch_fabrik() {
  sinew::FabrikSettings settings;
  settings.precision = 1e-4f;
  settings.max_iterations = 25;
  settings.stop_when_stalled = 0;
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::copy_effector);
  sinew::Fabrik fabrik = MUST(sinew::Fabrik::create(settings, 6));
  const std::vector<sinew::Transform> animated = animated_pose();
  CHECK_OK(fabrik.set_constraint(1, sinew::JointConstraint::cone(animated[UPPER_L].rotation,
                                                                  sinew::Vec3{-1, 0, 0}, 0.6f,
                                                                  0.4f)));
  CHECK_OK(fabrik.set_constraint(2, sinew::JointConstraint::hinge(sinew::Quat::identity(),
                                                                   sinew::Vec3{0, 1, 0}, -1.5f,
                                                                   0.1f)));
  return fabrik;
}

/// CCD as in test_ccd: from the root, fixed root, a limited joint, a damped one, a twist limit.
static sinew::Ccd make_batch_ccd() {
  sinew::CcdSettings settings;
  settings.max_iterations = 30;
  settings.start_from_tail = 0;
  settings.fix_root = 1;
  settings.end_rotation = static_cast<int32_t>(sinew::EndRotation::keep_model);
  sinew::Ccd ccd = MUST(sinew::Ccd::create(settings, 5));
  CHECK_OK(ccd.set_joint(1, 30.0f, 0.7f));
  CHECK_OK(ccd.set_joint(2, 180.0f, 0.5f));
  CHECK_OK(ccd.set_constraint(
      2, sinew::JointConstraint::twist(animated_pose()[LOWER_L].rotation, sinew::Vec3{-1, 0, 0},
                                       -0.2f, 0.2f)));
  return ccd;
}

static void test_batches() {
  test_two_bone_batch();
  test_chain_batch<sinew::Fabrik>("FABRIK batch", make_batch_fabrik, &sinew_fabrik_solve_batch);
  test_chain_batch<sinew::Ccd>("CCD batch", make_batch_ccd, &sinew_ccd_solve_batch);
}

// ================================================================ hand IK retargeting

static void test_hand_ik() {
  g_section = "hand IK retargeting";
  const std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);

  CHECK(same_bits(MUST(MUST(sinew::HandIkRetargeting::create()).settings()),
                  c_default(sinew_hand_ik_retargeting_settings_default)));

  sinew::HandIkRetargetingSettings settings;
  settings.hand_fk_weight = 0.3f;
  settings.per_axis_alpha = sinew::Vec3{1.0f, 0.5f, 0.75f};
  sinew::HandIkRetargeting node = MUST(sinew::HandIkRetargeting::create(settings));
  SinewHandIkRetargeting* cn = nullptr;
  CHECK(sinew_hand_ik_retargeting_create(&settings, &cn) == SINEW_STATUS_OK);
  settings.hand_fk_weight = 0.6f;
  set_settings_both(node, cn, sinew_hand_ik_retargeting_set_settings, settings);

  const sinew::HandJoints hands{HAND_R, HAND_L, IK_HAND_R, IK_HAND_L};
  const std::array<uint32_t, 2> bones = {{IK_ROOT, IK_HAND_R}};  // ik_hand_r moves once

  std::vector<sinew::Transform> model = MUST(rig.pose.get_model());
  std::vector<sinew::Transform> c_model_array = model;
  const std::vector<sinew::Transform> model_before = model;
  const sinew::Vec3 offset = MUST(node.apply_model(model, hands, bones));
  SinewVec3 c_offset;
  CHECK(sinew_hand_ik_retargeting_apply_model(cn, c_ptr(c_model_array), JOINTS, &hands,
                                              bones.data(), 2, &c_offset) == SINEW_STATUS_OK);
  CHECK(same_bits(model, c_model_array));
  CHECK(same_bits(offset, c_offset));
  CHECK(!same_bits(model, model_before));

  const sinew::Vec3 pose_offset = MUST(node.apply_pose(rig.pose, hands, bones));
  SinewVec3 c_pose_offset;
  CHECK(sinew_hand_ik_retargeting_apply_pose(cn, rig.cp, &hands, bones.data(), 2,
                                             &c_pose_offset) == SINEW_STATUS_OK);
  rig.check_solved(pose_offset, c_pose_offset, animated);

  // Errors.
  const std::array<uint32_t, 1> bad_bones = {{40}};
  EXPECT_NATIVE_ERROR(node.apply_pose(rig.pose, hands, bad_bones),
                      sinew_hand_ik_retargeting_apply_pose(cn, rig.cp, &hands, bad_bones.data(), 1,
                                                           nullptr),
                      sinew::Status::out_of_range);
  const sinew::HandJoints bad_hands{HAND_R, HAND_L, IK_HAND_R, 50};
  EXPECT_NATIVE_ERROR(node.apply_model(model, bad_hands, bones),
                      sinew_hand_ik_retargeting_apply_model(cn, c_ptr(c_model_array), JOINTS,
                                                            &bad_hands, bones.data(), 2, nullptr),
                      sinew::Status::out_of_range);
  CHECK(same_bits(model, c_model_array));
  sinew::HandIkRetargetingSettings bad = settings;
  bad.per_axis_alpha.y = 2.0f;
  SinewHandIkRetargeting* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::HandIkRetargeting::create(bad),
                      sinew_hand_ik_retargeting_create(&bad, &none),
                      sinew::Status::invalid_argument);

  sinew_hand_ik_retargeting_destroy(cn);
}

// ================================================================ handles

/// Move construction, move assignment (over a live handle, from an empty one), self-move, a
/// moved-from object's calls failing cleanly, destroy() twice, release and adopt.
template <class Handle, class Call>
static void exercise_moves(const char* name, Handle (*make)(), Call call) {
  g_section = name;
  Handle first = make();
  auto* raw = first.get();
  CHECK(raw != nullptr && first.valid() && static_cast<bool>(first));
  CHECK(call(first).ok());

  Handle second(std::move(first));
  CHECK(first.get() == nullptr && !first.valid() && !first);  // NOLINT: use after move
  CHECK(second.get() == raw);
  CHECK(call(second).ok());
  {
    // The library reports the NULL handle (or, for an optional handle argument, the wrapper
    // refuses the empty object).
    auto r = call(first);
    CHECK(r.status() == sinew::Status::null_pointer);
    CHECK(!r.error().message.empty());
    CHECK(r.error().message == c_message() || r.error().message.rfind("sinew C++: ", 0) == 0);
  }

  Handle third = make();
  CHECK(third.get() != raw);
  third = std::move(second);  // destroys third's own handle
  CHECK(third.get() == raw && second.get() == nullptr);

  Handle& alias = third;
  third = std::move(alias);  // self-move keeps the handle
  CHECK(third.get() == raw);
  CHECK(call(third).ok());

  second = std::move(first);  // empty into empty
  CHECK(second.get() == nullptr && first.get() == nullptr);
  first = make();
  first = Handle{};  // assigning an empty handle destroys the old one
  CHECK(first.get() == nullptr);

  auto* released = third.release();
  CHECK(released == raw && third.get() == nullptr);
  Handle adopted = Handle::adopt(released);
  CHECK(adopted.get() == raw);
  CHECK(call(adopted).ok());
  adopted.destroy();
  CHECK(adopted.get() == nullptr);
  adopted.destroy();  // again: no-op
  Handle never;
  never.destroy();
}

static sinew::Skeleton g_skeleton;

static sinew::Skeleton make_skeleton() { return cpp_skeleton(); }
static sinew::Pose make_pose() { return MUST(sinew::Pose::create(g_skeleton)); }
static sinew::TwoBoneIk make_two_bone() { return MUST(sinew::TwoBoneIk::create()); }
static sinew::Fabrik make_fabrik() { return MUST(sinew::Fabrik::create(4)); }
static sinew::Ccd make_ccd() { return MUST(sinew::Ccd::create(4)); }
static sinew::HandIkRetargeting make_hand() { return MUST(sinew::HandIkRetargeting::create()); }
static sinew::JointMask make_mask() { return MUST(sinew::JointMask::create(g_skeleton, 1.0f)); }
static sinew::Clip make_clip() { return MUST(sinew::Clip::create(g_skeleton, 1.0f)); }
static sinew::ClipCursor make_cursor() {
  sinew::Clip clip = make_clip();
  return MUST(sinew::ClipCursor::create(clip));  // outlives its clip
}
static sinew::Crossfade make_crossfade() { return MUST(sinew::Crossfade::create(g_skeleton, 2)); }

static void test_handles() {
  g_skeleton = cpp_skeleton();
  exercise_moves<sinew::Skeleton>("handles: Skeleton", make_skeleton,
                                  [](const sinew::Skeleton& s) { return s.joint_count(); });
  exercise_moves<sinew::Pose>("handles: Pose", make_pose,
                              [](sinew::Pose& p) { return p.reset(); });
  exercise_moves<sinew::TwoBoneIk>("handles: TwoBoneIk", make_two_bone,
                                   [](const sinew::TwoBoneIk& s) { return s.settings(); });
  exercise_moves<sinew::Fabrik>("handles: Fabrik", make_fabrik,
                                [](sinew::Fabrik& s) { return s.clear_constraint(0); });
  exercise_moves<sinew::Ccd>("handles: Ccd", make_ccd,
                             [](sinew::Ccd& s) { return s.set_joint(1, 90.0f, 1.0f); });
  exercise_moves<sinew::HandIkRetargeting>(
      "handles: HandIkRetargeting", make_hand,
      [](const sinew::HandIkRetargeting& s) { return s.settings(); });
  exercise_moves<sinew::JointMask>("handles: JointMask", make_mask,
                                   [](sinew::JointMask& m) { return m.set_weight(0, 0.5f); });
  exercise_moves<sinew::Clip>("handles: Clip", make_clip,
                              [](const sinew::Clip& c) { return c.duration(); });
  exercise_moves<sinew::ClipCursor>("handles: ClipCursor", make_cursor, [](sinew::ClipCursor& c) {
    sinew::Clip clip = make_clip();
    sinew::Pose pose = make_pose();
    return clip.sample(c, 0.5f, false, pose);
  });
  exercise_moves<sinew::Crossfade>("handles: Crossfade", make_crossfade,
                                   [](const sinew::Crossfade& f) { return f.fade_count(); });

  g_section = "handles: lifetimes";
  // Results hand their value over by move; the moved-from Result's handle is empty.
  {
    sinew::Result<sinew::Pose> result = sinew::Pose::create(g_skeleton);
    SinewPose* raw = result->get();
    sinew::Pose pose = std::move(result).value();
    CHECK(pose.get() == raw && result.ok() && result->get() == nullptr);  // NOLINT
  }
  // Destroy order: the skeleton first, then use (and destroy) what was made from it.
  {
    sinew::Skeleton skeleton = cpp_skeleton();
    sinew::Pose pose = MUST(sinew::Pose::create(skeleton));
    sinew::Pose other = MUST(sinew::Pose::create(skeleton));
    sinew::JointMask mask = MUST(sinew::JointMask::create_subtree(skeleton, SPINE, 0));
    sinew::Clip clip = MUST(sinew::Clip::create(skeleton, 1.0f));
    sinew::Crossfade fade = MUST(sinew::Crossfade::create(skeleton, 2));
    const std::vector<sinew::Transform> rest = MUST(skeleton.rest_pose());
    skeleton.destroy();
    CHECK(!skeleton.valid());
    CHECK(skeleton.joint_count().status() == sinew::Status::null_pointer);
    CHECK(MUST(pose.joint_count()) == JOINTS);
    CHECK_OK(pose.set_local(animated_pose()));
    CHECK_OK(pose.get_model());
    CHECK_OK(pose.reset());
    CHECK(same_bits(local_of(pose), rest));
    CHECK_OK(sinew::blend(pose, other, 0.5f, other, &mask));
    CHECK_OK(clip.sample(0.5f, true, pose));
    CHECK_OK(fade.play(clip, true));
    clip.destroy();
    CHECK_OK(fade.update(0.1f));
    CHECK_OK(fade.get_pose(other));
    // pose (made after the skeleton) is destroyed before other; all after the skeleton.
  }
  // A skeleton replaced by move assignment while poses of it live.
  {
    sinew::Skeleton skeleton = cpp_skeleton();
    sinew::Pose pose = MUST(sinew::Pose::create(skeleton));
    skeleton = cpp_skeleton();
    CHECK_OK(pose.get_model());
  }
  // Moved-from and empty handles through the free functions.
  {
    sinew::Pose empty;
    sinew::Pose pose = make_pose();
    SinewPose* c_no_pose = nullptr;
    EXPECT_NATIVE_ERROR(sinew::blend(pose, empty, 0.5f, pose),
                        sinew_pose_blend(pose.get(), c_no_pose, 0.5f, nullptr, 0, pose.get()),
                        sinew::Status::null_pointer);
    const std::array<sinew::BlendLayer, 1> layers = {{sinew::BlendLayer(empty, 1.0f)}};
    const SinewBlendLayer c_layers[1] = {{nullptr, 1.0f, nullptr}};
    EXPECT_NATIVE_ERROR(sinew::blend_layers(layers, 0.1f, pose),
                        sinew_pose_blend_layers(c_layers, 1, 0.1f, pose.get()),
                        sinew::Status::null_pointer);
    // An empty mask object is refused, not read as "no mask".
    sinew::JointMask empty_mask;
    EXPECT_WRAPPER_ERROR(sinew::blend(pose, pose, 0.5f, pose, &empty_mask),
                         sinew::Status::null_pointer);
    EXPECT_WRAPPER_ERROR(sinew::apply_additive(pose, pose, 0.5f, pose, &empty_mask),
                         sinew::Status::null_pointer);
    sinew::Clip clip = make_clip();
    sinew::ClipCursor empty_cursor;
    EXPECT_WRAPPER_ERROR(clip.sample(empty_cursor, 0.5f, true, pose), sinew::Status::null_pointer);
    CHECK_OK(clip.sample(nullptr, 0.5f, true, pose));
  }
  g_skeleton.destroy();
}

// ================================================================ allocation

/// The non-allocating paths (spans in, spans out) allocate nothing in C++.
static void test_no_allocation() {
  g_section = "no allocation";
  sinew::Skeleton skeleton = cpp_skeleton();
  sinew::Pose pose = MUST(sinew::Pose::create(skeleton));
  sinew::Pose other = MUST(sinew::Pose::create(skeleton));
  sinew::Pose out = MUST(sinew::Pose::create(skeleton));
  sinew::Pose delta = MUST(sinew::Pose::create(skeleton));
  sinew::JointMask mask = MUST(sinew::JointMask::create_subtree(skeleton, SPINE, 1));
  sinew::TwoBoneIk two = MUST(sinew::TwoBoneIk::create());
  sinew::Fabrik fabrik = MUST(sinew::Fabrik::create(4));
  sinew::Ccd ccd = MUST(sinew::Ccd::create(4));
  sinew::HandIkRetargeting hand = MUST(sinew::HandIkRetargeting::create());
  SinewSkeleton* cs = c_skeleton(false);
  ClipPair walk = make_clip_pair(skeleton, cs, 1.0f, UPPER_R, 0.5f);
  sinew::ClipCursor cursor = MUST(sinew::ClipCursor::create(walk.cpp));
  sinew::Crossfade fade = MUST(sinew::Crossfade::create(skeleton, 2));
  CHECK_OK(fade.play(walk.cpp, true));
  const std::vector<sinew::Transform> animated = animated_pose();
  std::vector<sinew::Transform> local(JOINTS);
  std::vector<sinew::Transform> model(JOINTS);
  std::array<float, 4> weights{};
  std::array<sinew::Transform, 3> chain{};
  std::array<sinew::Transform, 4> long_chain{};
  const std::array<sinew::BlendLayer, 2> layers = {
      {sinew::BlendLayer(pose, 0.5f), sinew::BlendLayer(other, 0.5f, &mask)}};
  const sinew::HandJoints hands{HAND_R, HAND_L, IK_HAND_R, IK_HAND_L};
  const std::array<uint32_t, 1> bones = {{IK_ROOT}};
  const sinew::Quat rotation = axis_angle(0, 1, 0, 0.3f);
  CHECK_OK(pose.set_local(animated));
  const ArmBatch arms = arm_batch(MUST(pose.get_model()));
  const LimbBatch limbs = limb_batch(chain_model(pose));
  std::array<sinew::Transform, 3 * kBatch> arm_chains{};
  std::array<sinew::Transform, 4 * kBatch> limb_chains{};
  std::array<sinew::IkResult, kBatch> batch_results{};
  bool all_ok = true;

  const std::size_t before = g_allocations;
  for (int frame = 0; frame < 3; ++frame) {
    all_ok &= pose.set_local(animated).ok();
    all_ok &= pose.get_local(local).ok();
    all_ok &= pose.get_model(model).ok();
    all_ok &= pose.model_transform(HAND_R).ok();
    chain[0] = model[UPPER_R];
    chain[1] = model[LOWER_R];
    chain[2] = model[HAND_R];
    all_ok &= two.solve(chain, sinew::Vec3{0.5f, 1.2f, 0.3f}, rotation, sinew::Vec3{0, 0, -1}).ok();
    all_ok &= two.solve_pose(pose, UPPER_R, LOWER_R, HAND_R, sinew::Vec3{0.5f, 1.2f, 0.3f}).ok();
    for (std::size_t i = 0; i < kChain.size(); ++i) long_chain[i] = model[kChain[i]];
    all_ok &= fabrik.solve(long_chain, sinew::Vec3{-0.5f, 1.1f, 0.3f}, rotation, rotation).ok();
    all_ok &= fabrik.solve_pose(pose, kChain, sinew::Vec3{-0.5f, 1.1f, 0.3f}).ok();
    all_ok &= ccd.solve(long_chain, sinew::Vec3{-0.5f, 1.1f, 0.3f}).ok();
    all_ok &= ccd.solve_pose(pose, kChain, sinew::Vec3{-0.5f, 1.1f, 0.3f}, rotation).ok();
    std::copy(arms.chains.begin(), arms.chains.end(), arm_chains.begin());
    all_ok &= two.solve_batch(arm_chains, arms.effectors, arms.rotations, arms.poles,
                              batch_results).ok();
    all_ok &= two.solve_batch(arm_chains, arms.effectors).ok();
    std::copy(limbs.chains.begin(), limbs.chains.end(), limb_chains.begin());
    all_ok &= fabrik.solve_batch(limb_chains, 4, limbs.effectors, limbs.rotations, limbs.parents,
                                 batch_results).ok();
    std::copy(limbs.chains.begin(), limbs.chains.end(), limb_chains.begin());
    all_ok &= ccd.solve_batch(limb_chains, 4, limbs.effectors, {}, {}, batch_results).ok();
    all_ok &= hand.apply_model(model, hands, bones).ok();
    all_ok &= hand.apply_pose(pose, hands, bones).ok();
    all_ok &= walk.cpp.sample(cursor, 0.1f * static_cast<float>(frame), true, other).ok();
    all_ok &= sinew::blend(pose, other, 0.4f, out, &mask, sinew::BlendSpace::model_rotation).ok();
    all_ok &= sinew::blend_layers(layers, 0.1f, out).ok();
    all_ok &= sinew::make_additive(other, pose, delta).ok();
    all_ok &= sinew::apply_additive(pose, delta, 0.5f, out, &mask).ok();
    all_ok &= fade.update(1.0f / 60.0f).ok();
    all_ok &= fade.get_pose(out).ok();
    all_ok &= fade.get_weights(weights).ok();
    all_ok &= fade.get_times(weights).ok();
    all_ok &= fade.inertialization().ok();
    all_ok &= fade.fade_count().ok();
    all_ok &= mask.set_weights(sinew::Span<const float>(weights.data(), 0)).status() ==
              sinew::Status::size_mismatch;
  }
  const std::size_t after = g_allocations;
  CHECK(all_ok);
  // Only the deliberate error (its message string, once per frame) allocated.
  CHECK(after - before == 3);
  const std::size_t before_ok = g_allocations;
  all_ok &= pose.get_model(model).ok();
  all_ok &= two.solve(chain, sinew::Vec3{0.5f, 1.2f, 0.3f}).ok();
  all_ok &= fabrik.solve(long_chain, sinew::Vec3{-0.5f, 1.1f, 0.3f}).ok();
  all_ok &= two.solve_batch(arm_chains, arms.effectors, {}, arms.poles, batch_results).ok();
  all_ok &= ccd.solve_batch(limb_chains, 4, limbs.effectors, limbs.rotations).ok();
  all_ok &= sinew::blend_layers(layers, 0.1f, out).ok();
  all_ok &= fade.update(1.0f / 60.0f).ok();
  CHECK(all_ok);
  CHECK(g_allocations == before_ok);

  sinew_clip_destroy(walk.c);
  sinew_skeleton_destroy(cs);
}

// ================================================================ version

static void test_version() {
  g_section = "version";
  CHECK(sinew::abi_compatible());
  CHECK(sinew::abi_version() == SINEW_ABI_VERSION);
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t patch = 0;
  CHECK(sinew_version(&major, &minor, &patch) == SINEW_STATUS_OK);
  const sinew::Version v = MUST(sinew::version());
  CHECK(v.major == major && v.minor == minor && v.patch == patch);
  std::printf("VERSION %u.%u.%u ABI %u\n", v.major, v.minor, v.patch, sinew::abi_version());
}

// ================================================================ exceptions (opt-in layer)

#if defined(SINEW_CPP_EXCEPTIONS)
/// The status of the sinew::Exception `body` throws (ok when it throws none), its text in `what`.
template <class Body>
static sinew::Status thrown_status(Body body, std::string* what = nullptr) {
  try {
    body();
  } catch (const sinew::Exception& e) {
    if (what != nullptr) *what = e.what();
    return e.status();
  }
  return sinew::Status::ok;
}

static void test_exceptions() {
  g_section = "exceptions";
  const int32_t bad_parents[3] = {-1, 2, 0};
  const std::vector<sinew::Transform> three(3);

  // value_or_throw on a failed create throws with the status and the native message.
  bool thrown = false;
  try {
    sinew::Skeleton s = sinew::value_or_throw(sinew::Skeleton::create(bad_parents, three));
    CHECK(false && "no exception");
  } catch (const sinew::Exception& e) {
    thrown = true;
    CHECK(e.status() == sinew::Status::invalid_skeleton);
    CHECK(std::string(e.what()) == c_message() && !c_message().empty());
    CHECK(e.error().status == sinew::Status::invalid_skeleton && e.error().message == e.what());
  }
  CHECK(thrown);

  // throw_if_error on Result<void>, caught as std::runtime_error.
  sinew::Skeleton skeleton = sinew::value_or_throw(sinew::Skeleton::create(kParents, rest_pose()));
  CHECK(skeleton.valid());
  sinew::Pose pose = sinew::value_or_throw(sinew::Pose::create(skeleton));
  thrown = false;
  try {
    sinew::throw_if_error(pose.set_local(three));
  } catch (const std::runtime_error& e) {
    thrown = true;
    const sinew::Exception* se = dynamic_cast<const sinew::Exception*>(&e);
    CHECK(se != nullptr && se->status() == sinew::Status::size_mismatch);
    CHECK(std::string(e.what()) == c_message());
  }
  CHECK(thrown);

  // value_or_throw on Result<void> and on lvalue Results.
  CHECK(thrown_status([&] { sinew::value_or_throw(pose.model_transform(JOINTS)); }) ==
        sinew::Status::out_of_range);
  thrown = false;
  try {
    sinew::value_or_throw(pose.reset());
    sinew::Result<uint32_t> count = pose.joint_count();
    uint32_t& n = sinew::value_or_throw(count);
    CHECK(n == JOINTS);
    const sinew::Result<uint32_t>& const_count = count;
    CHECK(sinew::value_or_throw(const_count) == JOINTS);
    sinew::throw_if_error(count);
  } catch (...) {
    thrown = true;
  }
  CHECK(!thrown);

  // A wrapper-side error throws too.
  std::string what;
  const auto short_chain = [] {
    sinew::TwoBoneIk ik = sinew::value_or_throw(sinew::TwoBoneIk::create());
    std::array<sinew::Transform, 2> two{};
    sinew::value_or_throw(ik.solve(two, sinew::Vec3{}));
  };
  CHECK(thrown_status(short_chain, &what) == sinew::Status::size_mismatch &&
        what.rfind("sinew C++: ", 0) == 0);

  // Batch solves: a wrapper-side size error and a library error both throw.
  const auto short_batch = [] {
    sinew::TwoBoneIk ik = sinew::value_or_throw(sinew::TwoBoneIk::create());
    std::array<sinew::Transform, 5> five{};
    const std::array<sinew::Vec3, 2> effectors{};
    sinew::throw_if_error(ik.solve_batch(five, effectors));
  };
  CHECK(thrown_status(short_batch, &what) == sinew::Status::size_mismatch &&
        what.rfind("sinew C++: ", 0) == 0);
  const auto nan_batch = [] {
    sinew::Fabrik fabrik = sinew::value_or_throw(sinew::Fabrik::create(4));
    std::array<sinew::Transform, 6> chains{};
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::array<sinew::Vec3, 2> effectors = {{sinew::Vec3{}, sinew::Vec3{nan, 0, 0}}};
    sinew::value_or_throw(fabrik.solve_batch(chains, 3, effectors));
  };
  CHECK(thrown_status(nan_batch, &what) == sinew::Status::non_finite && what == c_message());
}
#endif

// ================================================================ main

static void test_matrices() {
  g_section = "matrices";
  std::vector<sinew::Transform> animated = animated_pose();
  TwinRig rig(&animated);
  const sinew::Pose& pose = rig.pose;

  // Model matrices: the wrapper is the C call, bit for bit (span and vector); each matrix's
  // last column is its joint's model translation (to rounding: matrices are composed as
  // matrices) with 1, and its last row (0, 0, 0, 1) exactly.
  std::vector<SinewMat4> c_matrices(JOINTS);
  CHECK(sinew_pose_compute_model_matrices(rig.cp, c_matrices.data(), JOINTS) == SINEW_STATUS_OK);
  std::vector<sinew::Mat4> matrices = MUST(pose.compute_model_matrices());
  CHECK(same_bits(matrices, c_matrices));
  std::array<sinew::Mat4, JOINTS> span;
  CHECK_OK(pose.compute_model_matrices(span));
  CHECK(std::memcmp(span.data(), c_matrices.data(), sizeof span) == 0);
  std::vector<SinewTransform> model = c_model(rig.cp);
  for (uint32_t j = 0; j < JOINTS; ++j) {
    const sinew::Mat4& m = matrices[j];
    const SinewVec3& t = model[j].translation;
    const float size = 1.0f + std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z);
    CHECK(std::fabs(m(0, 3) - t.x) <= 1e-5f * size && std::fabs(m(1, 3) - t.y) <= 1e-5f * size &&
          std::fabs(m(2, 3) - t.z) <= 1e-5f * size);
    CHECK(same_bits(m(3, 0), 0.0f) && same_bits(m(3, 1), 0.0f) && same_bits(m(3, 2), 0.0f) &&
          m(3, 3) == 1.0f);
    CHECK(m.m[12] == m(0, 3) && c_matrices[j].m03 == m(0, 3) && c_matrices[j].m10 == m(1, 0));
  }
  CHECK(sinew::Mat4::identity() == sinew::Mat4(sinew::Mat4{}.to_c()));
  CHECK(sinew::Mat4{}(2, 2) == 1.0f && sinew::Mat4{}(1, 2) == 0.0f);

  // A skin of two joints (every other joint left out), bound at the animated pose: identity
  // palette there; the same bits as C after the pose moves.
  const std::array<uint32_t, 2> joints{HAND_R, UPPER_R};
  std::array<sinew::Mat4, 2> binds;
  for (std::size_t k = 0; k < binds.size(); ++k) {
    // The inverse of a model matrix [R diag(s) | t]: rows diag(1/s) Rᵀ, so entry (r, c) is
    // m(c, r) / s_r² (s_r² the squared length of column r), translation -that · t.
    const sinew::Mat4& m = matrices[joints[k]];
    sinew::Mat4 inv;
    for (int r = 0; r < 3; ++r) {
      const float s2 = m(0, r) * m(0, r) + m(1, r) * m(1, r) + m(2, r) * m(2, r);
      for (int c = 0; c < 3; ++c) inv(r, c) = m(c, r) / s2;
    }
    for (int r = 0; r < 3; ++r) {
      inv(r, 3) = -(inv(r, 0) * m(0, 3) + inv(r, 1) * m(1, 3) + inv(r, 2) * m(2, 3));
    }
    binds[k] = inv;
  }
  sinew::Skin skin = MUST(sinew::Skin::create(rig.skeleton, joints, binds));
  CHECK(MUST(skin.joint_count()) == 2u);
  std::vector<sinew::Mat4> palette = MUST(pose.compute_skinning_palette(skin));
  for (const sinew::Mat4& p : palette) {
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) CHECK(std::fabs(p(r, c) - (r == c ? 1.0f : 0.0f)) < 1e-4f);
    }
  }
  SinewSkin* cskin = nullptr;
  std::array<SinewMat4, 2> c_binds{binds[0].to_c(), binds[1].to_c()};
  CHECK(sinew_skin_create(rig.cs, joints.data(), c_binds.data(), 2, &cskin) == SINEW_STATUS_OK);
  const sinew::Transform moved{sinew::Vec3{0.4f, 1.5f, 0.3f}, axis_angle(0, 1, 1, 0.8f)};
  const SinewTransform c_moved = moved;
  CHECK_OK(rig.pose.set_model_transform(LOWER_R, moved));
  CHECK(sinew_pose_set_model_transform(rig.cp, LOWER_R, &c_moved) == SINEW_STATUS_OK);
  std::array<SinewMat4, 2> c_palette;
  CHECK(sinew_pose_compute_skinning_palette(rig.cp, cskin, c_palette.data(), 2) ==
        SINEW_STATUS_OK);
  std::array<sinew::Mat4, 2> palette_span;
  CHECK_OK(pose.compute_skinning_palette(skin, palette_span));
  CHECK(same_bits(palette_span, c_palette));
  CHECK(same_bits(MUST(pose.compute_skinning_palette(skin)), std::vector<SinewMat4>(
                                                                   c_palette.begin(), c_palette.end())));

  // Errors: the wrapper reports the library's, outputs untouched.
  std::array<sinew::Mat4, 1> short_palette;
  EXPECT_NATIVE_ERROR(pose.compute_skinning_palette(skin, short_palette),
                      sinew_pose_compute_skinning_palette(rig.cp, cskin, c_palette.data(), 1),
                      sinew::Status::size_mismatch);
  CHECK(short_palette[0] == sinew::Mat4::identity());
  std::vector<sinew::Mat4> short_matrices(JOINTS - 1);
  EXPECT_NATIVE_ERROR(pose.compute_model_matrices(short_matrices),
                      sinew_pose_compute_model_matrices(rig.cp, c_matrices.data(), JOINTS - 1),
                      sinew::Status::size_mismatch);
  std::array<uint32_t, 2> twice{HAND_R, HAND_R};
  SinewSkin* c_bad = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Skin::create(rig.skeleton, twice, binds),
                      sinew_skin_create(rig.cs, twice.data(), c_binds.data(), 2, &c_bad),
                      sinew::Status::invalid_argument);
  std::array<sinew::Mat4, 1> one_bind{binds[0]};
  auto mismatched = sinew::Skin::create(rig.skeleton, joints, one_bind);
  CHECK(!mismatched && mismatched.status() == sinew::Status::size_mismatch);
  sinew_skin_destroy(cskin);
}

int main() {
#if defined(SINEW_CPP_EXCEPTIONS)
  std::printf("MODE exceptions\n");
#else
  std::printf("MODE no-exceptions\n");
#endif
  test_value_types();
  test_span();
  test_result_and_error();
  test_skeleton();
  test_pose();
  test_two_bone_ik();
  test_fabrik();
  test_multi_fabrik();
  test_ccd();
  test_aim();
  test_batches();
  test_hand_ik();
  test_masks();
  test_blending();
  test_clips();
  test_frame_clips();
  test_crossfade();
  test_handles();
  test_no_allocation();
  test_version();
  test_matrices();
#if defined(SINEW_CPP_EXCEPTIONS)
  test_exceptions();
#endif
  summary_and_exit();
}
