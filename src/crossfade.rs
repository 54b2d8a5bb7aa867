//! `Crossfade`: plays clips and fades between them (the book's CrossFadeController done
//! right: queued fades finishing in order, no allocation per update), with linear and smooth
//! fade curves, and inertialized transitions (Unreal's Inertialization).

use std::sync::Arc;

use glam::{Quat, Vec3};

use crate::blend::BlendSpace;
use crate::clip::{Clip, ClipCursor};
use crate::error::{ensure_finite, Error, ErrorKind, Result};
use crate::mask::check_count;
use crate::pose::Pose;
use crate::skeleton::Skeleton;
use crate::transform::Transform;

/// How a transition moves from the old clip to the new one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FadeCurve {
    /// Blend weight rises linearly over the duration.
    #[default]
    Linear,
    /// Blend weight eases in and out (smoothstep).
    Smooth,
    /// Switch to the new clip at once and let the offset from the old pose decay to zero over
    /// the duration along a quintic that starts with the old pose's velocity along the offset
    /// (motion across it is not carried over; no blend cost).
    Inertialize,
}

/// A clip being played.
#[derive(Clone, Debug)]
struct Playing {
    clip: Arc<Clip>,
    time: f32,
    looping: bool,
}

/// A queued blend toward a clip.
#[derive(Clone, Debug)]
struct Fade {
    playing: Playing,
    elapsed: f32,
    duration: f32,
    smooth: bool,
}

impl Fade {
    /// Weight of the fade's clip over what is under it.
    fn alpha(&self) -> f32 {
        self.alpha_at(self.elapsed)
    }

    /// The weight after `elapsed` seconds.
    fn alpha_at(&self, elapsed: f32) -> f32 {
        let x = (elapsed / self.duration).clamp(0.0, 1.0);
        if self.smooth {
            x * x * (3.0 - 2.0 * x)
        } else {
            x
        }
    }
}

/// One decaying offset: `x(t)` from `x0` with velocity `v0` to 0 at `t1` (Bollo's quintic,
/// GDC 2018), along a fixed unit `axis`. Coefficients are kept in f64: they involve `t1^5`,
/// which overflows f32 for long durations.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Decay {
    axis: Vec3,
    coefficients: [f64; 6],
    t1: f64,
}

impl Decay {
    fn new(axis: Vec3, x0: f32, v0: f32, duration: f32) -> Self {
        if x0 <= 1e-7 {
            return Self::default();
        }
        let (x0, v0) = (f64::from(x0), f64::from(v0));
        // A velocity toward zero shortens the decay so it cannot overshoot.
        let t1 = if v0 < 0.0 {
            f64::from(duration).min(-5.0 * x0 / v0)
        } else {
            f64::from(duration)
        }
        .max(1e-4);
        let a0 = ((-8.0 * v0 * t1 - 20.0 * x0) / (t1 * t1)).max(0.0);
        let (t2, t3) = (t1 * t1, t1 * t1 * t1);
        let a = -(a0 * t2 + 6.0 * v0 * t1 + 12.0 * x0) / (2.0 * t3 * t2);
        let b = (3.0 * a0 * t2 + 16.0 * v0 * t1 + 30.0 * x0) / (2.0 * t2 * t2);
        let c = -(3.0 * a0 * t2 + 12.0 * v0 * t1 + 20.0 * x0) / (2.0 * t3);
        Self {
            axis,
            coefficients: [a, b, c, 0.5 * a0, v0, x0],
            t1,
        }
    }

    /// The offset at time `t` after the transition.
    fn at(&self, t: f32) -> f32 {
        let t = f64::from(t);
        if t >= self.t1 {
            return 0.0;
        }
        self.coefficients.iter().fold(0.0, |acc, &k| acc * t + k) as f32
    }
}

/// Offsets of one joint during an inertialized transition.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct JointDecay {
    translation: Decay,
    rotation: Decay,
    scale: Decay,
}

impl JointDecay {
    /// Offsets from the old pose `prev` (one frame earlier `older`, `dt` apart) to the new
    /// pose `target` (and `ahead`, `h` later). The offset's initial velocity is the old pose's
    /// minus the new one's along the offset, so the output's velocity carries over along the
    /// offset, except where the overshoot guard (a decay shortened to `-5 x0 / v0`) cuts a
    /// tiny offset short, as in Bollo's method.
    fn new(old: [&Transform; 2], dt: f32, new: [&Transform; 2], h: f32, duration: f32) -> Self {
        let ([prev, older], [target, ahead]) = (old, new);
        let rate = |delta: Vec3, over: f32| if over > 0.0 { delta / over } else { Vec3::ZERO };
        let vector = |p: Vec3, o: Vec3, t: Vec3, a: Vec3| {
            let d = p - t;
            let axis = d.normalize_or(Vec3::X);
            let x0 = d.dot(axis);
            let v0 = (rate(p - o, dt) - rate(a - t, h)).dot(axis);
            Decay::new(axis, x0, v0, duration)
        };
        let turn = |from: Quat, to: Quat| {
            let q = (to * from.conjugate()).normalize();
            if q.w < 0.0 {
                -q
            } else {
                q
            }
        };
        let (axis, x0) = turn(target.rotation, prev.rotation).to_axis_angle();
        let spin = rate(turn(older.rotation, prev.rotation).to_scaled_axis(), dt)
            - rate(turn(target.rotation, ahead.rotation).to_scaled_axis(), h);
        Self {
            translation: vector(
                prev.translation,
                older.translation,
                target.translation,
                ahead.translation,
            ),
            rotation: Decay::new(axis, x0, spin.dot(axis), duration),
            scale: vector(prev.scale, older.scale, target.scale, ahead.scale),
        }
    }

    /// `target` with the offsets at time `t` added.
    fn apply(&self, target: &Transform, t: f32) -> Transform {
        let r = &self.rotation;
        Transform {
            translation: target.translation + self.translation.axis * self.translation.at(t),
            rotation: (Quat::from_axis_angle(r.axis, r.at(t)) * target.rotation).normalize(),
            scale: target.scale + self.scale.axis * self.scale.at(t),
        }
    }
}

/// An inertialized transition in progress.
#[derive(Clone, Debug)]
struct Inertial {
    elapsed: f32,
    duration: f32,
    joints: Vec<JointDecay>,
    active: bool,
}

/// Plays clips of one skeleton and transitions between them. All memory (poses for each
/// queued fade, cursors, offsets, history) is allocated at creation; `update` allocates nothing.
#[derive(Clone, Debug)]
pub struct Crossfade {
    current: Option<Playing>,
    fades: Vec<Fade>,
    max_fades: usize,
    /// Cursors for `current` then each fade, kept in step as fades finish.
    cursors: Vec<ClipCursor>,
    scratch: Pose,
    /// The frame being computed; it becomes `output` once it succeeds.
    staged: Pose,
    /// The new clip one frame ahead, for its velocity at an inertialized switch.
    ahead: Pose,
    output: Pose,
    inertial: Inertial,
    /// The output before `output` and the time between them, for the inertialization
    /// velocity. The three poses rotate at each update, so keeping history copies nothing.
    previous: Pose,
    history_dt: f32,
    frames: u32,
}

impl Crossfade {
    /// A controller for `skeleton` that can queue up to `max_fades` fades.
    pub fn new(skeleton: Arc<Skeleton>, max_fades: usize) -> Result<Self> {
        if !(1..=256).contains(&max_fades) {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!("max_fades {max_fades} is outside 1..=256"),
            ));
        }
        let n = skeleton.joint_count();
        Ok(Self {
            current: None,
            fades: Vec::with_capacity(max_fades),
            max_fades,
            cursors: vec![ClipCursor::for_joints(n); max_fades + 1],
            scratch: Pose::new(skeleton.clone()),
            staged: Pose::new(skeleton.clone()),
            ahead: Pose::new(skeleton.clone()),
            output: Pose::new(skeleton.clone()),
            inertial: Inertial {
                elapsed: 0.0,
                duration: 0.0,
                joints: vec![JointDecay::default(); n],
                active: false,
            },
            previous: Pose::new(skeleton),
            history_dt: 0.0,
            frames: 0,
        })
    }

    /// The pose computed by the last [`Self::update`] (the rest pose before any).
    pub fn pose(&self) -> &Pose {
        &self.output
    }

    /// Number of queued fades.
    pub fn fade_count(&self) -> usize {
        self.fades.len()
    }

    /// Playback time of the current clip, if any: 0 when it was played or faded to, plus every
    /// `dt` since (not wrapped: [`Self::clip_times`] gives the time in the clip).
    pub fn current_time(&self) -> Option<f32> {
        self.current.as_ref().map(|p| p.time)
    }

    /// Writes each clip's time, the point in the clip the next update advances from (where the
    /// last update sampled it, or 0 for a clip played or faded to since): its playback time
    /// wrapped into [0, duration) when looping, clamped into [0, duration] otherwise. Current
    /// first then each fade in queue order, as [`Self::weights`] orders them, into `out`;
    /// returns how many there are.
    pub fn clip_times(&self, out: &mut [f32]) -> usize {
        let playing = self
            .current
            .iter()
            .chain(self.fades.iter().map(|f| &f.playing));
        let mut count = 0;
        for p in playing {
            if let Some(slot) = out.get_mut(count) {
                *slot = p.clip.local_time(p.time, p.looping);
            }
            count += 1;
        }
        count
    }

    /// Whether an inertialized transition is still decaying.
    pub fn is_inertializing(&self) -> bool {
        self.inertial.active
    }

    /// Seconds left of the running inertialized transition's duration, if one runs (its
    /// offsets may reach zero sooner).
    pub fn inertialization_remaining(&self) -> Option<f32> {
        let i = &self.inertial;
        i.active.then_some(i.duration - i.elapsed)
    }

    /// Writes the weight each clip has in the output, current first then each fade in queue
    /// order, into `out`; returns how many there are (they sum to one).
    pub fn weights(&self, out: &mut [f32]) -> usize {
        let count = usize::from(self.current.is_some()) + self.fades.len();
        let mut above = 1.0;
        for (k, fade) in self.fades.iter().enumerate().rev() {
            let a = fade.alpha();
            if let Some(slot) = out.get_mut(k + 1) {
                *slot = a * above;
            }
            above *= 1.0 - a;
        }
        if let (Some(slot), true) = (out.first_mut(), self.current.is_some()) {
            *slot = above;
        }
        count
    }

    fn check_clip(&self, clip: &Clip) -> Result<()> {
        check_count(clip.joint_count(), self.output.joint_count(), "the clip")
    }

    /// Plays `clip` from time 0 at once, dropping queued fades and any inertialization.
    pub fn play(&mut self, clip: Arc<Clip>, looping: bool) -> Result<()> {
        self.check_clip(&clip)?;
        self.current = Some(Playing {
            clip,
            time: 0.0,
            looping,
        });
        self.fades.clear();
        self.inertial.active = false;
        Ok(())
    }

    /// Requests a transition to `clip` over `duration` seconds; returns whether one started.
    ///
    /// - When `clip` is already the last thing requested (the current clip with nothing
    ///   queued, or the last queued fade), no transition starts (false) and that clip keeps
    ///   playing, with `looping` applied: turning looping off first wraps its time into the
    ///   clip, so it plays on without a jump to its end and holds its last pose; turning it on
    ///   first clamps its time into the clip, so a clip held at its end starts over.
    /// - With nothing playing, or a zero duration, the clip plays at once from 0 ([`Self::play`]).
    /// - Linear and smooth fades queue (an error when the queue is full), the new clip
    ///   starting at time 0; all queued fades run at once, each over what is under it.
    /// - Inertialized transitions switch at once: the clip becomes current at time 0 and the
    ///   queued fades are dropped, as the offset from the last output already holds them.
    pub fn fade_to(
        &mut self,
        clip: Arc<Clip>,
        duration: f32,
        curve: FadeCurve,
        looping: bool,
    ) -> Result<bool> {
        self.check_clip(&clip)?;
        ensure_finite(duration.is_finite(), "fade duration")?;
        if duration < 0.0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("fade duration {duration} is negative"),
            ));
        }
        let last = match self.fades.last_mut() {
            Some(f) => Some(&mut f.playing),
            None => self.current.as_mut(),
        };
        if let Some(p) = last.filter(|p| Arc::ptr_eq(&p.clip, &clip)) {
            if p.looping != looping {
                // The time it was last sampled at, so the pose goes on from where it is.
                p.time = p.clip.local_time(p.time, p.looping);
                p.looping = looping;
            }
            return Ok(false);
        }
        if self.current.is_none() || duration == 0.0 {
            self.play(clip, looping)?;
            return Ok(true);
        }
        let playing = Playing {
            clip,
            time: 0.0,
            looping,
        };
        match curve {
            FadeCurve::Linear | FadeCurve::Smooth => {
                if self.fades.len() == self.max_fades {
                    return Err(Error::new(
                        ErrorKind::OutOfRange,
                        format!("the fade queue is full ({} fades)", self.max_fades),
                    ));
                }
                self.fades.push(Fade {
                    playing,
                    elapsed: 0.0,
                    duration,
                    smooth: curve == FadeCurve::Smooth,
                });
            }
            FadeCurve::Inertialize => self.inertialize(playing, duration)?,
        }
        Ok(true)
    }

    /// Switches to `playing` now and records per-joint offsets from the last output.
    fn inertialize(&mut self, playing: Playing, duration: f32) -> Result<()> {
        let dt = if self.frames >= 2 {
            self.history_dt
        } else {
            0.0
        };
        // The new clip's velocity at the switch, over the last frame time (or 1/60 s).
        let h = if dt > 0.0 { dt } else { 1.0 / 60.0 };
        let p = &playing;
        p.clip.sample(p.time, p.looping, None, &mut self.scratch)?;
        p.clip
            .sample(p.time + h, p.looping, None, &mut self.ahead)?;
        let (prev, older) = (self.output.local(), self.previous.local());
        let targets = self.scratch.local().iter().zip(self.ahead.local().iter());
        for (i, (slot, (target, ahead))) in self.inertial.joints.iter_mut().zip(targets).enumerate()
        {
            let history = [&prev.get(i), &older.get(i)];
            *slot = JointDecay::new(history, dt, [&target, &ahead], h, duration);
        }
        self.inertial.elapsed = 0.0;
        self.inertial.duration = duration;
        self.inertial.active = self.frames > 0;
        self.current = Some(playing);
        self.fades.clear();
        Ok(())
    }

    /// Advances every clip and transition by `dt` seconds (finite, at least 0), then computes
    /// the output pose from the new times: each clip sampled at its time plus `dt`, each fade
    /// blended over what is under it by its curve at `(elapsed + dt) / duration`, in queue
    /// order, an inertialization's offsets added at its elapsed time plus `dt`. Then fades
    /// that have run their duration leave the queue: the newest of them becomes current (with
    /// its own time), dropping everything under it. On error nothing changes.
    pub fn update(&mut self, dt: f32) -> Result<()> {
        ensure_finite(dt.is_finite(), "dt")?;
        if dt < 0.0 {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("dt {dt} is negative"),
            ));
        }
        // Compute the frame into `staged`; commit times and output only if it all succeeds.
        match &self.current {
            Some(p) => {
                let cursor = Some(&mut self.cursors[0]);
                p.clip
                    .sample(p.time + dt, p.looping, cursor, &mut self.staged)?;
            }
            None => self.staged.reset(),
        }
        for (k, fade) in self.fades.iter().enumerate() {
            let p = &fade.playing;
            let cursor = Some(&mut self.cursors[k + 1]);
            p.clip
                .sample(p.time + dt, p.looping, cursor, &mut self.scratch)?;
            let alpha = fade.alpha_at(fade.elapsed + dt);
            self.staged
                .blend_toward(&self.scratch, alpha, None, BlendSpace::Local)?;
        }
        let inertial_time = self.inertial.elapsed + dt;
        if self.inertial.active {
            for (j, decay) in self.inertial.joints.iter().enumerate() {
                let out = decay.apply(&self.staged.local().get(j), inertial_time);
                self.staged.put_local(j, &out);
            }
        }
        if !self.staged.all_finite() {
            return Err(Error::new(
                ErrorKind::NumericOverflow,
                "the crossfade output is not representable in f32 (poses too far apart)",
            ));
        }
        // The new frame becomes the output and the last one the previous; the one before that
        // is scratch for the next frame.
        std::mem::swap(&mut self.previous, &mut self.output);
        std::mem::swap(&mut self.output, &mut self.staged);
        if let Some(current) = &mut self.current {
            current.time += dt;
        }
        for fade in &mut self.fades {
            fade.playing.time += dt;
            fade.elapsed += dt;
        }
        if let Some(k) = self.fades.iter().rposition(|f| f.elapsed >= f.duration) {
            // The newest finished fade covers everything under it: it becomes current.
            self.current = Some(self.fades[k].playing.clone());
            self.fades.drain(..=k);
            self.cursors[..].rotate_left(k + 1);
        }
        if self.inertial.active {
            self.inertial.elapsed = inertial_time;
            self.inertial.active = inertial_time < self.inertial.duration;
        }
        self.history_dt = dt;
        self.frames = self.frames.saturating_add(1);
        Ok(())
    }
}
