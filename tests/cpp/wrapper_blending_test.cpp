// The C++ wrapper's blending jobs: joint masks, two-pose, layered and additive blends, clips
// and the crossfade controller, each next to the C functions it wraps (see wrapper_test.cpp).

#include "wrapper_test.hpp"

// ================================================================ joint masks

static std::vector<float> c_weights(const SinewJointMask* mask) {
  std::vector<float> out(JOINTS);
  CHECK(sinew_joint_mask_get_weights(mask, out.data(), JOINTS) == SINEW_STATUS_OK);
  return out;
}

static std::vector<float> weights_of(const sinew::JointMask& mask) {
  std::vector<float> out(JOINTS);
  CHECK_OK(mask.get_weights(out));
  return out;
}

void test_masks() {
  g_section = "joint masks";
  TwinSkeleton rig;

  sinew::JointMask uniform = MUST(sinew::JointMask::create(rig.skeleton, 0.5f));
  SinewJointMask* cu = nullptr;
  CHECK(sinew_joint_mask_create(rig.cs, 0.5f, &cu) == SINEW_STATUS_OK);
  CHECK(same_bits(weights_of(uniform), c_weights(cu)));

  sinew::JointMask subtree = MUST(sinew::JointMask::create_subtree(rig.skeleton, SPINE, 2));
  SinewJointMask* ct = nullptr;
  CHECK(sinew_joint_mask_create_subtree(rig.cs, SPINE, 2, &ct) == SINEW_STATUS_OK);
  CHECK(same_bits(weights_of(subtree), c_weights(ct)));
  CHECK(weights_of(subtree)[ROOT] == 0.0f && weights_of(subtree)[HAND_R] == 1.0f);

  CHECK_OK(subtree.set_weight(HAND_R, 0.25f));
  CHECK(sinew_joint_mask_set_weight(ct, HAND_R, 0.25f) == SINEW_STATUS_OK);
  CHECK(same_bits(weights_of(subtree), c_weights(ct)));

  std::vector<float> weights(JOINTS);
  for (uint32_t j = 0; j < JOINTS; ++j) {
    weights[j] = static_cast<float>(j) / static_cast<float>(JOINTS);
  }
  CHECK_OK(uniform.set_weights(weights));
  CHECK(sinew_joint_mask_set_weights(cu, weights.data(), JOINTS) == SINEW_STATUS_OK);
  CHECK(same_bits(weights_of(uniform), c_weights(cu)));
  CHECK(weights_of(uniform) == weights);

  // Errors.
  SinewJointMask* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::JointMask::create(rig.skeleton, 1.5f),
                      sinew_joint_mask_create(rig.cs, 1.5f, &none),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::JointMask::create_subtree(rig.skeleton, JOINTS, 0),
                      sinew_joint_mask_create_subtree(rig.cs, JOINTS, 0, &none),
                      sinew::Status::out_of_range);
  EXPECT_NATIVE_ERROR(uniform.set_weight(JOINTS, 0.5f),
                      sinew_joint_mask_set_weight(cu, JOINTS, 0.5f),
                      sinew::Status::out_of_range);
  EXPECT_NATIVE_ERROR(uniform.set_weight(1, std::numeric_limits<float>::quiet_NaN()),
                      sinew_joint_mask_set_weight(cu, 1, std::numeric_limits<float>::quiet_NaN()),
                      sinew::Status::non_finite);
  std::vector<float> short_weights(3, 0.5f);
  EXPECT_NATIVE_ERROR(uniform.set_weights(short_weights),
                      sinew_joint_mask_set_weights(cu, short_weights.data(), 3),
                      sinew::Status::size_mismatch);
  EXPECT_NATIVE_ERROR(uniform.get_weights(short_weights),
                      sinew_joint_mask_get_weights(cu, short_weights.data(), 3),
                      sinew::Status::size_mismatch);
  CHECK(same_bits(weights_of(uniform), c_weights(cu)));

  sinew_joint_mask_destroy(cu);
  sinew_joint_mask_destroy(ct);
}

// ================================================================ blending

void test_blending() {
  g_section = "blending";
  TwinSkeleton rig;
  const std::vector<sinew::Transform> animated = animated_pose();
  std::vector<sinew::Transform> other = animated;
  for (sinew::Transform& t : other) {
    t.rotation = axis_angle(0.2f, 1.0f, 0.3f, -0.4f);
    t.translation.z += 0.2f;
    t.scale = sinew::Vec3{1.1f, 0.9f, 1.0f};
  }

  sinew::Pose a = MUST(sinew::Pose::create(rig.skeleton));
  sinew::Pose b = MUST(sinew::Pose::create(rig.skeleton));
  sinew::Pose out = MUST(sinew::Pose::create(rig.skeleton));
  SinewPose* ca = c_pose(rig.cs);
  SinewPose* cb = c_pose(rig.cs);
  SinewPose* cout = c_pose(rig.cs);
  CHECK_OK(a.set_local(animated));
  CHECK_OK(b.set_local(other));
  CHECK(sinew_pose_set_local(ca, c_ptr(animated), JOINTS) == SINEW_STATUS_OK);
  CHECK(sinew_pose_set_local(cb, c_ptr(other), JOINTS) == SINEW_STATUS_OK);
  sinew::JointMask mask = MUST(sinew::JointMask::create_subtree(rig.skeleton, UPPER_R, 1));
  SinewJointMask* cm = nullptr;
  CHECK(sinew_joint_mask_create_subtree(rig.cs, UPPER_R, 1, &cm) == SINEW_STATUS_OK);

  // Two-pose blends: plain, masked, model-space rotations.
  CHECK_OK(sinew::blend(a, b, 0.3f, out));
  CHECK(sinew_pose_blend(ca, cb, 0.3f, nullptr, SINEW_BLEND_SPACE_LOCAL, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));
  CHECK(!same_bits(local_of(out), animated));
  CHECK_OK(sinew::blend(a, b, 0.6f, out, &mask));
  CHECK(sinew_pose_blend(ca, cb, 0.6f, cm, SINEW_BLEND_SPACE_LOCAL, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));
  CHECK_OK(sinew::blend(a, b, 0.6f, out, &mask, sinew::BlendSpace::model_rotation));
  CHECK(sinew_pose_blend(ca, cb, 0.6f, cm, SINEW_BLEND_SPACE_MODEL_ROTATION, cout) ==
        SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));

  // In place: out is a.
  {
    sinew::Pose in_place = MUST(sinew::Pose::create(rig.skeleton));
    SinewPose* c_in_place = c_pose(rig.cs);
    CHECK_OK(in_place.set_local(animated));
    CHECK(sinew_pose_set_local(c_in_place, c_ptr(animated), JOINTS) == SINEW_STATUS_OK);
    CHECK_OK(sinew::blend(in_place, b, 0.45f, in_place));
    CHECK(sinew_pose_blend(c_in_place, cb, 0.45f, nullptr, SINEW_BLEND_SPACE_LOCAL, c_in_place) ==
          SINEW_STATUS_OK);
    CHECK(same_bits(local_of(in_place), c_local(c_in_place)));
    sinew_pose_destroy(c_in_place);
  }

  // Layers.
  sinew::Pose c_layer_pose = MUST(sinew::Pose::create(rig.skeleton));
  std::vector<sinew::Transform> third = animated;
  third[SPINE].rotation = axis_angle(0, 0, 1, 0.9f);
  CHECK_OK(c_layer_pose.set_local(third));
  SinewPose* cc = c_pose(rig.cs);
  CHECK(sinew_pose_set_local(cc, c_ptr(third), JOINTS) == SINEW_STATUS_OK);
  const std::array<sinew::BlendLayer, 3> layers = {
      {sinew::BlendLayer(a, 0.5f), sinew::BlendLayer(b, 0.3f, &mask),
       sinew::BlendLayer(c_layer_pose, 0.05f)}};
  const std::array<SinewBlendLayer, 3> c_layers = {
      {{ca, 0.5f, nullptr}, {cb, 0.3f, cm}, {cc, 0.05f, nullptr}}};
  CHECK_OK(sinew::blend_layers(layers, 0.1f, out));
  CHECK(sinew_pose_blend_layers(c_layers.data(), 3, 0.1f, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));
  CHECK_OK(sinew::blend_layers(sinew::Span<const sinew::BlendLayer>(layers.data(), 1), 0.9f, out));
  CHECK(sinew_pose_blend_layers(c_layers.data(), 1, 0.9f, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));

  // Additive.
  sinew::Pose delta = MUST(sinew::Pose::create(rig.skeleton));
  SinewPose* cdelta = c_pose(rig.cs);
  CHECK_OK(sinew::make_additive(b, a, delta));
  CHECK(sinew_pose_make_additive(cb, ca, cdelta) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(delta), c_local(cdelta)));
  CHECK_OK(sinew::apply_additive(a, delta, 0.5f, out, &mask));
  CHECK(sinew_pose_apply_additive(ca, cdelta, 0.5f, cm, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));
  CHECK_OK(sinew::apply_additive(out, delta, -0.25f, out));  // in place
  CHECK(sinew_pose_apply_additive(cout, cdelta, -0.25f, nullptr, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));

  // Layers and additive layers in one call: the C call's bits, and those of the calls in turn.
  const std::array<sinew::BlendLayer, 2> additive = {
      {sinew::BlendLayer(delta, 0.8f, &mask), sinew::BlendLayer(delta, -0.35f)}};
  const std::array<SinewBlendLayer, 2> c_additive = {{{cdelta, 0.8f, cm}, {cdelta, -0.35f, nullptr}}};
  CHECK_OK(sinew::blend_layers_additive(layers, additive, 0.1f, out));
  CHECK(sinew_pose_blend_layers_additive(c_layers.data(), 3, c_additive.data(), 2, 0.1f, cout) ==
        SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));
  {
    sinew::Pose turns = MUST(sinew::Pose::create(rig.skeleton));
    CHECK_OK(sinew::blend_layers(layers, 0.1f, turns));
    CHECK_OK(sinew::apply_additive(turns, delta, 0.8f, turns, &mask));
    CHECK_OK(sinew::apply_additive(turns, delta, -0.35f, turns));
    CHECK(same_bits(local_of(out), local_of(turns)));
  }
  CHECK_OK(sinew::blend_layers_additive({}, {}, 0.1f, out));
  CHECK(sinew_pose_blend_layers_additive(nullptr, 0, nullptr, 0, 0.1f, cout) == SINEW_STATUS_OK);
  CHECK(same_bits(local_of(out), c_local(cout)));

  // Errors.
  EXPECT_NATIVE_ERROR(sinew::blend(a, b, 1.5f, out),
                      sinew_pose_blend(ca, cb, 1.5f, nullptr, SINEW_BLEND_SPACE_LOCAL, cout),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::blend(a, b, 0.5f, out, nullptr, static_cast<sinew::BlendSpace>(5)),
                      sinew_pose_blend(ca, cb, 0.5f, nullptr, 5, cout),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::blend_layers(layers, 0.1f, b),
                      sinew_pose_blend_layers(c_layers.data(), 3, 0.1f, cb),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::blend_layers(layers, 0.0f, out),
                      sinew_pose_blend_layers(c_layers.data(), 3, 0.0f, cout),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::blend_layers_additive(layers, additive, 0.1f, delta),
                      sinew_pose_blend_layers_additive(c_layers.data(), 3, c_additive.data(), 2,
                                                       0.1f, cdelta),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::make_additive(b, a, a), sinew_pose_make_additive(cb, ca, ca),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::apply_additive(a, delta, 0.5f, delta),
                      sinew_pose_apply_additive(ca, cdelta, 0.5f, nullptr, cdelta),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(sinew::apply_additive(a, delta, std::numeric_limits<float>::infinity(), out),
                      sinew_pose_apply_additive(ca, cdelta, std::numeric_limits<float>::infinity(),
                                                nullptr, cout),
                      sinew::Status::non_finite);
  // A pose of another skeleton.
  {
    const TwinRig small(std::vector<int32_t>{-1, 0});
    EXPECT_NATIVE_ERROR(sinew::blend(a, small.pose, 0.5f, out),
                        sinew_pose_blend(ca, small.cp, 0.5f, nullptr, SINEW_BLEND_SPACE_LOCAL,
                                         cout),
                        sinew::Status::size_mismatch);
  }
  CHECK(same_bits(local_of(out), c_local(cout)));

  sinew_joint_mask_destroy(cm);
  sinew_pose_destroy(cdelta);
  sinew_pose_destroy(cc);
  sinew_pose_destroy(cout);
  sinew_pose_destroy(cb);
  sinew_pose_destroy(ca);
}

// ================================================================ clips

/// Sets the same tracks on a wrapper clip and a C clip (of the rig, duration 2 s).
static void set_test_tracks(sinew::Clip& clip, SinewClip* c_clip) {
  using sinew::Interpolation;
  using sinew::Quat;
  using sinew::Vec3;
  const sinew::Status ok = sinew::Status::ok;
  // Translation, linear.
  const std::vector<float> t3 = {0.0f, 0.7f, 2.0f};
  const std::vector<Vec3> spine = {{0.0f, 1.0f, 0.0f}, {0.05f, 1.1f, 0.0f}, {0.0f, 1.0f, 0.1f}};
  track_both(clip, c_clip, ok, kTranslationTrack, SPINE, Interpolation::linear, t3, spine);
  // Rotation, slerp (one key not normalized).
  const std::array<float, 4> t4 = {{0.0f, 0.5f, 1.2f, 1.9f}};
  const std::array<Quat, 4> upper = {{axis_angle(0, 0, 1, -0.3f),
                                      scaled(axis_angle(0, 0, 1, 0.4f), 3.0f),
                                      axis_angle(0, 1, 1, 0.8f), axis_angle(1, 0, 0, -0.2f)}};
  track_both(clip, c_clip, ok, kRotationTrack, UPPER_R, Interpolation::slerp, t4, upper);
  // Rotation, cubic with tangents.
  const float t2[2] = {0.2f, 1.8f};
  const Quat lower[2] = {axis_angle(0, 1, 0, 0.1f), axis_angle(0, 1, 0, 1.2f)};
  const Quat lower_in[2] = {Quat{0.0f, 0.1f, 0.0f, 0.0f}, Quat{0.0f, 0.3f, 0.0f, -0.05f}};
  const Quat lower_out[2] = {Quat{0.0f, 0.2f, 0.0f, 0.0f}, Quat{0.0f, 0.1f, 0.0f, 0.0f}};
  track_both(clip, c_clip, ok, kRotationTrack, LOWER_R, Interpolation::cubic, t2, lower, lower_in,
             lower_out);
  // Translation, cubic.
  const Vec3 root[2] = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.5f}};
  const Vec3 root_in[2] = {{0.0f, 0.0f, 0.5f}, {0.0f, 0.0f, 1.0f}};
  const Vec3 root_out[2] = {{0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.5f}};
  track_both(clip, c_clip, ok, kTranslationTrack, ROOT, Interpolation::cubic, t2, root, root_in,
             root_out);
  // Scale, step.
  const Vec3 hand[2] = {{1.0f, 1.0f, 1.0f}, {1.3f, 1.3f, 1.3f}};
  track_both(clip, c_clip, ok, kScaleTrack, HAND_R, Interpolation::step, t2, hand);
  // A track set and cleared.
  CHECK_OK(clip.set_scale_track(HAND_L, Interpolation::linear, t2, hand));
  CHECK_OK(clip.clear_track(HAND_L, sinew::TrackProperty::scale));
}

void test_clips() {
  g_section = "clips";
  TwinRig rig(nullptr);
  sinew::Clip clip = MUST(sinew::Clip::create(rig.skeleton, 2.0f));
  SinewClip* cclip = nullptr;
  CHECK(sinew_clip_create(rig.cs, 2.0f, &cclip) == SINEW_STATUS_OK);
  float c_duration = 0.0f;
  CHECK(sinew_clip_duration(cclip, &c_duration) == SINEW_STATUS_OK);
  CHECK(same_bits(MUST(clip.duration()), c_duration) && c_duration == 2.0f);
  set_test_tracks(clip, cclip);

  // Without a cursor, looping and clamped.
  const float times[] = {0.0f, 0.37f, 1.0f, 1.5f, 2.0f, 2.5f, -0.3f, 7.1f};
  for (float t : times) {
    for (uint32_t looping = 0; looping < 2; ++looping) {
      CHECK_OK(clip.sample(t, looping != 0, rig.pose));
      CHECK(sinew_clip_sample(cclip, nullptr, t, looping, rig.cp) == SINEW_STATUS_OK);
      CHECK(rig.same_local());
    }
  }
  CHECK(!same_bits(local_of(rig.pose), MUST(rig.skeleton.rest_pose())));

  // With cursors: forward playback, then a jump back.
  sinew::ClipCursor cursor = MUST(sinew::ClipCursor::create(clip));
  SinewClipCursor* ccursor = nullptr;
  CHECK(sinew_clip_cursor_create(cclip, &ccursor) == SINEW_STATUS_OK);
  float t = 0.0f;
  for (int frame = 0; frame < 90; ++frame, t += 1.0f / 30.0f) {
    const float when = frame == 60 ? 0.25f : t;
    CHECK_OK(clip.sample(cursor, when, true, rig.pose));
    CHECK(sinew_clip_sample(cclip, ccursor, when, 1, rig.cp) == SINEW_STATUS_OK);
    CHECK(rig.same_local());
  }
  CHECK_OK(clip.sample(&cursor, 0.9f, false, rig.pose));
  CHECK(sinew_clip_sample(cclip, ccursor, 0.9f, 0, rig.cp) == SINEW_STATUS_OK);
  CHECK(rig.same_local());

  // Errors.
  using sinew::Interpolation;
  const std::vector<float> unsorted = {0.0f, 1.0f, 0.5f};
  const std::vector<sinew::Vec3> three(3);
  track_both(clip, cclip, sinew::Status::invalid_argument, kTranslationTrack, SPINE,
             Interpolation::linear, unsorted, three);
  const std::vector<float> too_late = {0.0f, 2.5f};
  track_both(clip, cclip, sinew::Status::out_of_range, kScaleTrack, SPINE, Interpolation::linear,
             too_late, sinew::Span<const sinew::Vec3>(three.data(), 2));
  const std::vector<float> ok_times = {0.0f, 1.0f};
  const std::vector<sinew::Quat> zero_key = {sinew::Quat{}, sinew::Quat{0.0f, 0.0f, 0.0f, 0.0f}};
  track_both(clip, cclip, sinew::Status::invalid_argument, kRotationTrack, SPINE,
             Interpolation::slerp, ok_times, zero_key);
  const std::vector<sinew::Vec3> two(2);
  track_both(clip, cclip, sinew::Status::out_of_range, kTranslationTrack, JOINTS,
             Interpolation::step, ok_times, two);
  track_both(clip, cclip, sinew::Status::invalid_argument, kTranslationTrack, SPINE,
             Interpolation::cubic, ok_times, two);
  track_both(clip, cclip, sinew::Status::invalid_argument, kTranslationTrack, SPINE,
             static_cast<Interpolation>(8), ok_times, two);
  EXPECT_NATIVE_ERROR(clip.clear_track(SPINE, static_cast<sinew::TrackProperty>(3)),
                      sinew_clip_clear_track(cclip, SPINE, 3), sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(clip.sample(std::numeric_limits<float>::quiet_NaN(), true, rig.pose),
                      sinew_clip_sample(cclip, nullptr, std::numeric_limits<float>::quiet_NaN(), 1,
                                        rig.cp),
                      sinew::Status::non_finite);
  SinewClip* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Clip::create(rig.skeleton, -1.0f),
                      sinew_clip_create(rig.cs, -1.0f, &none), sinew::Status::invalid_argument);
  SinewClipCursor* no_cursor = nullptr;
  EXPECT_NATIVE_ERROR(sinew::ClipCursor::create(sinew::Clip{}),
                      sinew_clip_cursor_create(nullptr, &no_cursor), sinew::Status::null_pointer);
  // Sizes the wrapper checks.
  EXPECT_WRAPPER_ERROR(clip.set_translation_track(SPINE, Interpolation::linear, unsorted, two),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(clip.set_translation_track(SPINE, Interpolation::cubic, ok_times, two, two,
                                                  sinew::Span<const sinew::Vec3>()),
                       sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(clip.set_rotation_track(SPINE, Interpolation::cubic, ok_times, zero_key,
                                               sinew::Span<const sinew::Quat>(zero_key.data(), 1),
                                               sinew::Span<const sinew::Quat>(zero_key.data(), 1)),
                       sinew::Status::size_mismatch);
  // Nothing changed.
  CHECK_OK(clip.sample(1.3f, false, rig.pose));
  CHECK(sinew_clip_sample(cclip, nullptr, 1.3f, 0, rig.cp) == SINEW_STATUS_OK);
  CHECK(rig.same_local());

  sinew_clip_cursor_destroy(ccursor);
  sinew_clip_destroy(cclip);
}

// ================================================================ clips from frames

/// Clips from frames and the wrap flag: the wrapper and C build and sample the same clip bit for
/// bit, keys come back exactly, wrapping plays from the last frame into the first.
void test_frame_clips() {
  g_section = "clips from frames";
  using sinew::Interpolation;
  TwinRig rig(nullptr);
  const uint32_t frames = 5;
  std::vector<sinew::Transform> data(frames * JOINTS);
  for (std::size_t i = 0; i < data.size(); ++i) {
    const float f = static_cast<float>(i) * 0.37f;
    data[i].translation = sinew::Vec3{std::sin(f), 0.1f * f, -0.0f};
    const float h = 0.5f * f;
    data[i].rotation = sinew::Quat{0.0f, std::sin(h), 0.0f, std::cos(h)};
  }
  std::vector<uint8_t> mask(JOINTS, 1);
  mask[SPINE] = 0;
  const float rate = 24.0f;
  for (int wrap = 0; wrap < 2; ++wrap) {
    sinew::Clip clip = MUST(sinew::Clip::create_from_frames(rig.skeleton, data, frames, rate,
                                                            Interpolation::slerp, wrap != 0, mask));
    SinewClip* cclip = nullptr;
    CHECK(sinew_clip_create_from_frames(rig.cs, c_ptr(data), frames, JOINTS, rate, mask.data(),
                                        SINEW_INTERPOLATION_SLERP, static_cast<uint32_t>(wrap),
                                        &cclip) == SINEW_STATUS_OK);
    const float duration = static_cast<float>((wrap ? 5.0 : 4.0) / 24.0);
    CHECK(MUST(clip.duration()) == duration);
    CHECK(MUST(clip.wraps()) == (wrap != 0));
    // Every frame comes back exactly; the masked-out spine keeps the rest pose.
    for (uint32_t k = 0; k < frames; ++k) {
      const float t = static_cast<float>(k / 24.0);
      CHECK_OK(clip.sample(t, false, rig.pose));
      CHECK(sinew_clip_sample(cclip, nullptr, t, 0, rig.cp) == SINEW_STATUS_OK);
      CHECK(rig.same_local());
      std::vector<sinew::Transform> want(data.begin() + k * JOINTS,
                                         data.begin() + (k + 1) * JOINTS);
      want[SPINE] = MUST(rig.skeleton.rest_pose())[SPINE];
      CHECK(same_bits(local_of(rig.pose), want));
    }
    // Forward playback across the loop point.
    sinew::ClipCursor cursor = MUST(sinew::ClipCursor::create(clip));
    for (int frame = 0; frame < 40; ++frame) {
      const float t = static_cast<float>(frame) / 60.0f;
      CHECK_OK(clip.sample(cursor, t, true, rig.pose));
      CHECK(sinew_clip_sample(cclip, nullptr, t, 1, rig.cp) == SINEW_STATUS_OK);
      CHECK(rig.same_local());
    }
    // Halfway through the frame after the last: halfway from the last frame to the first when
    // wrapping; otherwise the time wraps past the 4-frame duration, halfway from frame 0 to 1.
    const float after = static_cast<float>(4.5 / 24.0);
    CHECK_OK(clip.sample(after, true, rig.pose));
    const float y = local_of(rig.pose)[ROOT].translation.y;
    const float from = data[(wrap ? 4 : 0) * JOINTS + ROOT].translation.y;
    const float to = data[(wrap ? 0 : 1) * JOINTS + ROOT].translation.y;
    CHECK(std::fabs(y - 0.5f * (from + to)) < 1e-5f);
    sinew_clip_destroy(cclip);
  }
  // The flag toggles, and is refused while a crossfade plays the clip.
  sinew::Clip clip = MUST(
      sinew::Clip::create_from_frames(rig.skeleton, data, frames, rate, Interpolation::linear));
  CHECK(!MUST(clip.wraps()));
  CHECK_OK(clip.set_wrap(true));
  CHECK(MUST(clip.wraps()));
  sinew::Crossfade fade = MUST(sinew::Crossfade::create(rig.skeleton, 1));
  CHECK_OK(fade.play(clip, true));
  SinewClip* cheld = nullptr;
  CHECK(sinew_clip_create_from_frames(rig.cs, c_ptr(data), frames, JOINTS, rate, nullptr,
                                      SINEW_INTERPOLATION_LINEAR, 0, &cheld) == SINEW_STATUS_OK);
  SinewCrossfade* cfade = nullptr;
  CHECK(sinew_crossfade_create(rig.cs, 1, &cfade) == SINEW_STATUS_OK);
  CHECK(sinew_crossfade_play(cfade, cheld, 1) == SINEW_STATUS_OK);
  EXPECT_NATIVE_ERROR(clip.set_wrap(false), sinew_clip_set_wrap(cheld, 0),
                      sinew::Status::invalid_argument);
  sinew_crossfade_destroy(cfade);
  sinew_clip_destroy(cheld);
  // Errors: the library's, then the sizes the wrapper checks.
  SinewClip* none = nullptr;
  EXPECT_NATIVE_ERROR(
      sinew::Clip::create_from_frames(rig.skeleton, data, frames, rate, Interpolation::cubic),
      sinew_clip_create_from_frames(rig.cs, c_ptr(data), frames, JOINTS, rate, nullptr,
                                    SINEW_INTERPOLATION_CUBIC, 0, &none),
      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(
      sinew::Clip::create_from_frames(rig.skeleton, data, frames, -24.0f, Interpolation::step),
      sinew_clip_create_from_frames(rig.cs, c_ptr(data), frames, JOINTS, -24.0f, nullptr,
                                    SINEW_INTERPOLATION_STEP, 0, &none),
      sinew::Status::invalid_argument);
  CHECK(none == nullptr);
  EXPECT_WRAPPER_ERROR(
      sinew::Clip::create_from_frames(rig.skeleton, data, frames - 2, rate, Interpolation::step),
      sinew::Status::size_mismatch);
  // Frames for one joint fewer: the library refuses the joint count.
  const sinew::Span<const sinew::Transform> fewer(data.data(), frames * (JOINTS - 1));
  EXPECT_NATIVE_ERROR(
      sinew::Clip::create_from_frames(rig.skeleton, fewer, frames, rate, Interpolation::step),
      sinew_clip_create_from_frames(rig.cs, c_ptr(data), frames, JOINTS - 1, rate, nullptr,
                                    SINEW_INTERPOLATION_STEP, 0, &none),
      sinew::Status::size_mismatch);
  EXPECT_WRAPPER_ERROR(sinew::Clip::create_from_frames(rig.skeleton, data, frames, rate,
                                                       Interpolation::step, false,
                                                       sinew::Span<const uint8_t>(mask.data(), 2)),
                       sinew::Status::size_mismatch);
}

// ================================================================ crossfade

void test_crossfade() {
  g_section = "crossfade";
  TwinRig rig(nullptr);
  ClipPair idle = make_clip_pair(rig.skeleton, rig.cs, 1.0f, SPINE, 0.2f);
  ClipPair walk = make_clip_pair(rig.skeleton, rig.cs, 0.8f, UPPER_R, 0.6f);
  ClipPair run = make_clip_pair(rig.skeleton, rig.cs, 0.6f, LOWER_R, 1.1f);

  sinew::Crossfade fade = MUST(sinew::Crossfade::create(rig.skeleton, 4));
  SinewCrossfade* cf = nullptr;
  CHECK(sinew_crossfade_create(rig.cs, 4, &cf) == SINEW_STATUS_OK);

  auto compare = [&]() {
    CHECK_OK(fade.get_pose(rig.pose));
    CHECK(sinew_crossfade_get_pose(cf, rig.cp) == SINEW_STATUS_OK);
    CHECK(rig.same_local());
    uint32_t c_count = 0;
    CHECK(sinew_crossfade_fade_count(cf, &c_count) == SINEW_STATUS_OK);
    CHECK(MUST(fade.fade_count()) == c_count);
    float c_w[8] = {0};
    uint32_t c_n = 0;
    CHECK(sinew_crossfade_get_weights(cf, c_w, 8, &c_n) == SINEW_STATUS_OK);
    const std::vector<float> w = MUST(fade.weights());
    CHECK(w.size() == c_n && std::memcmp(w.data(), c_w, c_n * sizeof(float)) == 0);
    float c_t[8] = {0};
    CHECK(sinew_crossfade_get_times(cf, c_t, 8, &c_n) == SINEW_STATUS_OK);
    const std::vector<float> t = MUST(fade.times());
    CHECK(t.size() == c_n && std::memcmp(t.data(), c_t, c_n * sizeof(float)) == 0);
    uint32_t c_active = 7;
    float c_left = -1.0f;
    CHECK(sinew_crossfade_is_inertializing(cf, &c_active, &c_left) == SINEW_STATUS_OK);
    const sinew::Crossfade::Inertialization in = MUST(fade.inertialization());
    CHECK(in.active == (c_active == 1) && same_bits(in.remaining, c_left));
  };
  auto step = [&](float dt) {
    CHECK_OK(fade.update(dt));
    CHECK(sinew_crossfade_update(cf, dt) == SINEW_STATUS_OK);
    compare();
  };

  CHECK_OK(fade.play(idle.cpp, true));
  CHECK(sinew_crossfade_play(cf, idle.c, 1) == SINEW_STATUS_OK);
  step(0.0f);
  step(0.1f);
  uint32_t c_queued = 7;
  CHECK(MUST(fade.fade_to(walk.cpp, 0.5f, sinew::FadeCurve::linear, true)) == true);
  CHECK(sinew_crossfade_fade_to(cf, walk.c, 0.5f, SINEW_FADE_CURVE_LINEAR, 1, &c_queued) ==
            SINEW_STATUS_OK &&
        c_queued == 1);
  // Already the last request: ignored.
  CHECK(MUST(fade.fade_to(walk.cpp, 0.5f, sinew::FadeCurve::linear, true)) == false);
  CHECK(sinew_crossfade_fade_to(cf, walk.c, 0.5f, SINEW_FADE_CURVE_LINEAR, 1, &c_queued) ==
            SINEW_STATUS_OK &&
        c_queued == 0);
  CHECK(MUST(fade.fade_count()) == 1);
  for (int i = 0; i < 4; ++i) step(1.0f / 30.0f);
  CHECK(MUST(fade.fade_to(run.cpp, 0.3f, sinew::FadeCurve::smooth, false)));
  CHECK(sinew_crossfade_fade_to(cf, run.c, 0.3f, SINEW_FADE_CURVE_SMOOTH, 0, nullptr) ==
        SINEW_STATUS_OK);
  CHECK(MUST(fade.weights()).size() == 3);
  // get_weights and get_times into a span smaller than the count report the full count.
  float first[1] = {-1.0f};
  CHECK(MUST(fade.get_weights(first)) == 3 && first[0] >= 0.0f);
  first[0] = -1.0f;
  CHECK(MUST(fade.get_times(first)) == 3 && first[0] > 0.0f);
  // The newest request's clip starts at time 0.
  CHECK(MUST(fade.times()).back() == 0.0f);
  for (int i = 0; i < 2; ++i) step(1.0f / 30.0f);
  // An inertialized switch drops the queued fades, with success.
  CHECK(MUST(fade.fade_to(idle.cpp, 0.25f, sinew::FadeCurve::inertialize, true)));
  CHECK(sinew_crossfade_fade_to(cf, idle.c, 0.25f, SINEW_FADE_CURVE_INERTIALIZE, 1, nullptr) ==
        SINEW_STATUS_OK);
  CHECK(MUST(fade.fade_count()) == 0);
  compare();
  step(1.0f / 30.0f);
  const sinew::Crossfade::Inertialization running = MUST(fade.inertialization());
  CHECK(running.active && running.remaining > 0.2f && running.remaining < 0.25f);
  for (int i = 0; i < 12; ++i) step(1.0f / 30.0f);
  CHECK(!MUST(fade.inertialization()).active);
  // The clip already playing again, looping off: no transition, and it holds its end.
  CHECK(MUST(fade.fade_to(idle.cpp, 0.25f, sinew::FadeCurve::smooth, false)) == false);
  CHECK(sinew_crossfade_fade_to(cf, idle.c, 0.25f, SINEW_FADE_CURVE_SMOOTH, 0, &c_queued) ==
            SINEW_STATUS_OK &&
        c_queued == 0);
  for (int i = 0; i < 30; ++i) step(1.0f / 30.0f);
  CHECK(MUST(fade.times()) == std::vector<float>{1.0f});

  // Clips are kept alive by the controllers playing them.
  idle.cpp.destroy();
  sinew_clip_destroy(idle.c);
  idle.c = nullptr;
  for (int i = 0; i < 5; ++i) step(1.0f / 30.0f);

  // Errors.
  EXPECT_NATIVE_ERROR(fade.update(-1.0f), sinew_crossfade_update(cf, -1.0f),
                      sinew::Status::invalid_argument);
  EXPECT_NATIVE_ERROR(fade.fade_to(walk.cpp, 0.5f, static_cast<sinew::FadeCurve>(3), true),
                      sinew_crossfade_fade_to(cf, walk.c, 0.5f, 3, 1, nullptr),
                      sinew::Status::invalid_argument);
  SinewCrossfade* none = nullptr;
  EXPECT_NATIVE_ERROR(sinew::Crossfade::create(rig.skeleton, 0),
                      sinew_crossfade_create(rig.cs, 0, &none),
                      sinew::Status::out_of_range);
  {
    // A full queue.
    sinew::Crossfade small = MUST(sinew::Crossfade::create(rig.skeleton, 1));
    SinewCrossfade* c_small = nullptr;
    CHECK(sinew_crossfade_create(rig.cs, 1, &c_small) == SINEW_STATUS_OK);
    CHECK_OK(small.play(walk.cpp, true));
    CHECK(sinew_crossfade_play(c_small, walk.c, 1) == SINEW_STATUS_OK);
    // A clip being played cannot be edited.
    const float times[2] = {0.0f, 0.5f};
    const sinew::Vec3 values[2] = {};
    EXPECT_NATIVE_ERROR(walk.cpp.set_translation_track(SPINE, sinew::Interpolation::linear, times,
                                                       values),
                        sinew_clip_set_translation_track(walk.c, SPINE, SINEW_INTERPOLATION_LINEAR,
                                                         times,
                                                         reinterpret_cast<const SinewVec3*>(values),
                                                         nullptr, nullptr, 2),
                        sinew::Status::invalid_argument);
    CHECK(MUST(small.fade_to(run.cpp, 0.5f, sinew::FadeCurve::linear, true)));
    CHECK(sinew_crossfade_fade_to(c_small, run.c, 0.5f, SINEW_FADE_CURVE_LINEAR, 1, nullptr) ==
          SINEW_STATUS_OK);
    EXPECT_NATIVE_ERROR(small.fade_to(walk.cpp, 0.5f, sinew::FadeCurve::linear, true),
                        sinew_crossfade_fade_to(c_small, walk.c, 0.5f, SINEW_FADE_CURVE_LINEAR, 1,
                                                nullptr),
                        sinew::Status::out_of_range);
    sinew_crossfade_destroy(c_small);
  }
  {
    // get_pose into a pose of another skeleton.
    TwinRig small(std::vector<int32_t>{-1, 0});
    EXPECT_NATIVE_ERROR(fade.get_pose(small.pose), sinew_crossfade_get_pose(cf, small.cp),
                        sinew::Status::size_mismatch);
  }
  {
    // get_pose into a pose of a skeleton with as many joints but other parents.
    std::vector<int32_t> parents(kParents, kParents + JOINTS);
    parents[JOINTS - 1] = 0;
    TwinRig other(parents);
    EXPECT_NATIVE_ERROR(fade.get_pose(other.pose), sinew_crossfade_get_pose(cf, other.cp),
                        sinew::Status::invalid_argument);
  }

  sinew_crossfade_destroy(cf);
  sinew_clip_destroy(run.c);
  sinew_clip_destroy(walk.c);
}
