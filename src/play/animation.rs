//! The animation plugin: plays what the rules decided, one thing after another.
//!
//! A step slides its piece along the line with easing; the pieces it captured leave one after another, nearest
//! first, setting off along the captured line and curving into the capturer's tray, where they stay, small, for
//! the rest of the game; a short pause marks the end of each turn and a longer one the end of the game. While anything plays, [`AnimationsPending`] is set and input and the CPU wait. While the
//! game is paused, animations hold where they are.

use crate::platform::redraw::FrameDemand;
use crate::play::board::{BoardLayout, MOVING_Z, PIECE_Z, TRAY_SCALE};
use crate::play::referee::{
    AnimationsPending, CaptureKind, Captured, GameEnded, GameSet, GameStarted, Piece, PiecesCaptured, StepPlayed,
    TurnEnded, UndoHappened,
};
use crate::state::{Pause, is_paused};
use bevy::prelude::*;
use std::collections::VecDeque;

/// How fast animations play.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AnimationSpeed {
    /// No animation: everything jumps to its end at once.
    Instant,
    /// Twice as fast.
    Fast,
    /// The default.
    #[default]
    Normal,
    /// For following every capture.
    Slow,
}

impl AnimationSpeed {
    /// Every speed, fastest first.
    pub const ALL: [AnimationSpeed; 4] =
        [AnimationSpeed::Instant, AnimationSpeed::Fast, AnimationSpeed::Normal, AnimationSpeed::Slow];

    /// Multiplier of every duration (0: instant).
    pub fn factor(self) -> f32 {
        match self {
            AnimationSpeed::Instant => 0.0,
            AnimationSpeed::Fast => 0.5,
            AnimationSpeed::Normal => 1.0,
            AnimationSpeed::Slow => 1.8,
        }
    }

    /// Name for the settings screen, in the current language.
    pub fn name(self) -> &'static str {
        match self {
            AnimationSpeed::Instant => crate::i18n::t("speed.off"),
            AnimationSpeed::Fast => crate::i18n::t("speed.fast"),
            AnimationSpeed::Normal => crate::i18n::t("speed.normal"),
            AnimationSpeed::Slow => crate::i18n::t("speed.slow"),
        }
    }
}

const SLIDE_SECS: f32 = 0.32;
const CAPTURE_SECS: f32 = 0.5;
/// The most the first frame of an animation after a rest may advance it (one frame at 60 Hz).
const FIRST_FRAME_SECS: f32 = 1.0 / 60.0;
const CAPTURE_STAGGER: f32 = 0.14;
/// How far a captured piece first travels along the captured line before it turns towards the tray.
const CAPTURE_LEAD: f32 = 0.8;
const TURN_PAUSE: f32 = 0.22;
const GAME_OVER_PAUSE: f32 = 0.8;

#[derive(Debug, Clone)]
enum Anim {
    Slide {
        piece: Entity,
        from: Vec2,
        to: Vec2,
    },
    /// `dir`: the captured line's direction, away from the capturer.
    Capture {
        pieces: Vec<Entity>,
        by: fanorona_engine::Side,
        dir: Vec2,
    },
    Pause(f32),
}

#[derive(Debug)]
struct Playing {
    anim: Anim,
    elapsed: f32,
    starts: Vec<Vec3>,
    /// Where each captured piece ends, in its tray.
    targets: Vec<Vec2>,
}

/// What is left to play.
#[derive(Resource, Default, Debug)]
struct AnimQueue {
    items: VecDeque<Anim>,
    current: Option<Playing>,
    /// Nothing was playing at the end of the last frame: the window may have slept since, so that frame's time
    /// belongs to no animation.
    resting: bool,
}

/// Adds the animations.
pub fn plugin(app: &mut App) {
    app.init_resource::<AnimationSpeed>()
        .init_resource::<AnimQueue>()
        .add_systems(Update, (enqueue, advance).chain().in_set(GameSet::Animate));
}

fn enqueue(
    mut started: MessageReader<GameStarted>,
    mut undos: MessageReader<UndoHappened>,
    mut steps: MessageReader<StepPlayed>,
    mut captures: MessageReader<PiecesCaptured>,
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    layout: Res<BoardLayout>,
    mut queue: ResMut<AnimQueue>,
) {
    // A new game or an undo respawns the pieces where they belong (trays included): drop whatever was still to play.
    if started.read().count() + undos.read().count() > 0 {
        queue.items.clear();
        queue.current = None;
    }
    let mut caps: VecDeque<PiecesCaptured> = captures.read().cloned().collect();
    for s in steps.read() {
        queue.items.push_back(Anim::Slide {
            piece: s.piece,
            from: layout.point_pos(s.from),
            to: layout.point_pos(s.to),
        });
        // Each step's captures follow it (the messages of one frame may hold several steps of a relay).
        if caps.front().is_some_and(|c| c.relay_index == s.relay_index && c.by == s.side) {
            let c = caps.pop_front().expect("checked");
            let (from, to) = (layout.point_pos(s.from), layout.point_pos(s.to));
            // Approach captures ahead of the move, withdrawal behind it.
            let dir = if c.kind == CaptureKind::Approach { to - from } else { from - to };
            queue.items.push_back(Anim::Capture { pieces: c.pieces, by: c.by, dir: dir.normalize_or_zero() });
        }
    }
    for c in caps {
        let dir = match c.points.as_slice() {
            [a, b, ..] => (layout.point_pos(*b) - layout.point_pos(*a)).normalize_or_zero(),
            _ => Vec2::ZERO,
        };
        queue.items.push_back(Anim::Capture { pieces: c.pieces, by: c.by, dir });
    }
    if turns.read().count() > 0 {
        queue.items.push_back(Anim::Pause(TURN_PAUSE));
    }
    if ended.read().count() > 0 {
        queue.items.push_back(Anim::Pause(GAME_OVER_PAUSE));
    }
}

fn advance(
    time: Res<Time>,
    speed: Res<AnimationSpeed>,
    mut queue: ResMut<AnimQueue>,
    mut pending: ResMut<AnimationsPending>,
    layout: Res<BoardLayout>,
    mut transforms: Query<&mut Transform, Or<(With<Piece>, With<Captured>)>>,
    captured: Query<&Captured>,
    pause: Option<Res<State<Pause>>>,
    mut demand: ResMut<FrameDemand>,
) {
    // Paused: everything holds (and stays pending, so nothing else moves either).
    if is_paused(pause.as_deref()) {
        return;
    }
    let factor = speed.factor();
    // After a rest the frame's time is mostly the sleep before the click: the first step starts from its
    // beginning and moves by one frame's worth.
    let mut budget = if queue.resting { time.delta_secs().min(FIRST_FRAME_SECS) } else { time.delta_secs() };
    // Loop so that instant speed (and long frames) finish several items in one frame.
    loop {
        if queue.current.is_none() {
            let Some(anim) = queue.items.pop_front() else { break };
            let (starts, targets) = match &anim {
                Anim::Capture { pieces, by, .. } => (
                    pieces.iter().map(|e| transforms.get(*e).map(|t| t.translation).unwrap_or_default()).collect(),
                    pieces
                        .iter()
                        .map(|e| captured.get(*e).map(|c| layout.tray_slot(*by, c.slot)).unwrap_or_default())
                        .collect(),
                ),
                _ => (Vec::new(), Vec::new()),
            };
            queue.current = Some(Playing { anim, elapsed: 0.0, starts, targets });
        }
        let playing = queue.current.as_mut().expect("set above");
        let total = match &playing.anim {
            Anim::Slide { .. } => SLIDE_SECS,
            Anim::Capture { pieces, .. } => CAPTURE_SECS + CAPTURE_STAGGER * pieces.len().saturating_sub(1) as f32,
            Anim::Pause(s) => *s,
        } * factor;
        let used = (total - playing.elapsed).max(0.0).min(budget);
        playing.elapsed += used;
        budget -= used;
        let done = playing.elapsed >= total;
        // `t`: unscaled seconds since the item began.
        let t = if factor > 0.0 { playing.elapsed / factor } else { f32::INFINITY };
        match &playing.anim {
            Anim::Slide { piece, from, to } => {
                if let Ok(mut tf) = transforms.get_mut(*piece) {
                    let u = if done { 1.0 } else { (t / SLIDE_SECS).clamp(0.0, 1.0) };
                    let p = EasingCurve::new(*from, *to, EaseFunction::CubicInOut).sample_clamped(u);
                    let lift = if done { 0.0 } else { (u * std::f32::consts::PI).sin() * 0.1 };
                    tf.translation = p.extend(if done { PIECE_Z } else { MOVING_Z });
                    tf.scale = Vec3::splat(1.0 + lift);
                }
            }
            Anim::Capture { pieces, dir, .. } => {
                for (i, e) in pieces.iter().enumerate() {
                    let u = if done { 1.0 } else { ((t - i as f32 * CAPTURE_STAGGER) / CAPTURE_SECS).clamp(0.0, 1.0) };
                    let start = playing.starts.get(i).copied().unwrap_or_default().truncate();
                    let end = playing.targets.get(i).copied().unwrap_or(start);
                    if let Ok(mut tf) = transforms.get_mut(*e) {
                        let k = EaseFunction::CubicInOut.sample_clamped(u);
                        // A quadratic Bézier whose first leg runs along the captured line.
                        let lead = start + *dir * CAPTURE_LEAD;
                        let p = start.lerp(lead, k).lerp(lead.lerp(end, k), k);
                        // Pieces on their way fly above the board; settled ones lie in the tray.
                        let z = if u >= 1.0 {
                            PIECE_Z
                        } else if u > 0.0 {
                            MOVING_Z - 0.1
                        } else {
                            PIECE_Z
                        };
                        tf.translation = p.extend(z);
                        tf.scale = Vec3::splat(1.0 + (TRAY_SCALE - 1.0) * k);
                    }
                }
            }
            Anim::Pause(_) => {}
        }
        if !done {
            break;
        }
        queue.current = None;
    }
    let busy = queue.current.is_some() || !queue.items.is_empty();
    queue.resting = !busy;
    if busy {
        demand.next_frame();
    }
    if pending.0 != busy {
        pending.0 = busy;
    }
}
