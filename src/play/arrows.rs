//! Move arrows: the last turn, a hint, and the engine's suggested turns drawn on the board as chains of arrows.
//!
//! Every step of a relay gets its own arrow, in order, and the points whose pieces the turn captured are marked
//! with a cross while they stay empty, so that a player who looked away sees what happened. A cross is open in its
//! middle, where a destination dot may sit, and arrows stop short of the centres: no marker hides another. The
//! same drawing shows the hint and, for the review and analysis screens, whatever turns they put in
//! [`BoardArrows`].

use crate::play::board::{BoardLayout, PIECE_Z};
use crate::play::cpu::Hint;
use crate::play::referee::{AnimationsPending, GameSet, GameState, MatchSetup};
use crate::state::InGame;
use bevy::prelude::*;
use fanorona_engine::{Position, Step, Turn};

/// Depth of arrows: over the resting pieces, under the selection rings.
const ARROW_Z: f32 = PIECE_Z + 0.5;
/// Width of an arrow's shaft, in units of the point spacing.
const SHAFT: f32 = 0.11;
/// Length and width of an arrow's head.
const HEAD_LEN: f32 = 0.3;
const HEAD_WIDTH: f32 = 0.34;
/// How far from the centre of a point an arrow starts (so that chained arrows do not overlap).
const START_GAP: f32 = 0.14;
/// How far short of the centre of a point an arrow's tip stops.
const END_GAP: f32 = 0.12;
/// How far from a captured point's centre the four arms of its cross reach.
const CROSS: f32 = 0.24;
/// The open middle of a cross: a destination dot (radius [`crate::play::input::DEST_DOT`]) fits inside.
pub const CROSS_GAP: f32 = 0.125;

/// What an arrow means, which picks its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowStyle {
    /// The turn just played (or the relay so far).
    Last,
    /// The hint the player asked for.
    Hint,
    /// The engine's better turn in a review.
    Best,
    /// The `k`-th line of an analysis (0 the best); later lines are fainter.
    Line(u8),
}

impl ArrowStyle {
    fn color(self) -> Color {
        match self {
            ArrowStyle::Last => Color::srgba(1.0, 0.85, 0.3, 0.8),
            ArrowStyle::Hint => Color::srgba(0.35, 0.7, 1.0, 0.9),
            ArrowStyle::Best => Color::srgba(0.3, 0.85, 0.4, 0.9),
            ArrowStyle::Line(k) => {
                let [r, g, b] = LINE_COLOURS[k as usize % LINE_COLOURS.len()];
                Color::srgba(r, g, b, 0.9)
            }
        }
    }

    /// The colour as egui draws it, for legends beside the board.
    pub fn color32(self) -> bevy_egui::egui::Color32 {
        let [r, g, b, a] = self.color().to_srgba().to_u8_array();
        bevy_egui::egui::Color32::from_rgba_unmultiplied(r, g, b, a)
    }
}

/// The analysis lines' colours, best first: hues far apart, so that each line's arrows and crosses are told apart
/// (the capture crosses take them too), none of them the last turn's gold or the crosses' usual red.
const LINE_COLOURS: [[f32; 3]; 3] = [[0.3, 0.75, 1.0], [0.85, 0.45, 1.0], [0.35, 0.95, 0.65]];

/// One turn as a chain of arrows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrowPath {
    /// The steps as (from, to) points, in order; stops are left out.
    pub steps: Vec<(u8, u8)>,
    /// The points whose pieces the turn captures (a bitboard).
    pub captured: u64,
    /// What the arrows mean.
    pub style: ArrowStyle,
}

impl ArrowPath {
    /// The path of `steps` played from `pos` (the position before the first of them). Steps that are not legal
    /// there are drawn up to the first illegal one, so that a stale suggestion can never panic. Only captured
    /// points that are empty after the steps are marked: a relay that lands on one shows its piece, not a cross.
    pub fn of_steps(pos: &Position, steps: &[Step], style: ArrowStyle) -> ArrowPath {
        let mut p = *pos;
        let mut path = ArrowPath { steps: Vec::new(), captured: 0, style };
        for &s in steps {
            let Ok(effect) = p.try_step(s) else { break };
            if s.from != s.to {
                path.steps.push((s.from, s.to));
            }
            path.captured |= effect.captured;
        }
        path.captured &= p.empty();
        path
    }

    /// The path of a whole turn played from `pos`.
    pub fn of_turn(pos: &Position, turn: &Turn, style: ArrowStyle) -> ArrowPath {
        ArrowPath::of_steps(pos, &turn.steps, style)
    }
}

/// Turns other screens want drawn (a review's better turn, an analysis's lines), on top of the last turn and hint.
#[derive(Resource, Default, Clone, Debug, PartialEq, Eq)]
pub struct BoardArrows {
    /// The paths, drawn in order (later ones on top).
    pub paths: Vec<ArrowPath>,
    /// Hide the last turn's arrows (a screen that shows its own position).
    pub hide_last: bool,
}

/// Part of a drawn arrow (rebuilt whenever what is shown changes).
#[derive(Component)]
struct ArrowPart;

#[derive(Resource)]
struct ArrowMeshes {
    shaft: Handle<Mesh>,
    head: Handle<Mesh>,
}

impl FromWorld for ArrowMeshes {
    fn from_world(world: &mut World) -> Self {
        let mut meshes = world.resource_mut::<Assets<Mesh>>();
        ArrowMeshes {
            shaft: meshes.add(Rectangle::new(1.0, 1.0)),
            // Pointing along +x, tip at the origin, so that scaling and rotating keep the tip on the point.
            head: meshes.add(Triangle2d::new(Vec2::ZERO, Vec2::new(-1.0, 0.5), Vec2::new(-1.0, -0.5))),
        }
    }
}

/// Adds the arrows.
pub fn plugin(app: &mut App) {
    app.init_resource::<BoardArrows>()
        .init_resource::<ArrowMeshes>()
        .add_systems(Update, draw_arrows.in_set(GameSet::Present));
}

/// The paths to show now: the last turn (unless pieces are still sliding), the hint, and the other screens' paths.
pub fn wanted_paths(
    state: &GameState,
    setup: &MatchSetup,
    hint: &Hint,
    arrows: &BoardArrows,
    busy: bool,
    in_game: bool,
) -> Vec<ArrowPath> {
    let game = state.game();
    let mut paths = Vec::new();
    if !busy && !arrows.hide_last {
        let last = if !game.pending_steps().is_empty() {
            Some(ArrowPath::of_steps(game.turn_start(), game.pending_steps(), ArrowStyle::Last))
        } else {
            // `turn_starts` holds the position before each completed turn, then the current one.
            let n = game.turns().len();
            game.turns()
                .last()
                .zip(n.checked_sub(1).and_then(|i| game.turn_starts().get(i)))
                .map(|(t, start)| ArrowPath::of_turn(start, t, ArrowStyle::Last))
        };
        paths.extend(last);
    }
    let pos = state.position();
    if in_game
        && !busy
        && !game.is_over()
        && setup.is_human(pos.side_to_move())
        && let Some((generation, turn, _)) = &hint.answer
        && *generation == state.generation()
    {
        paths.push(ArrowPath::of_turn(pos, turn, ArrowStyle::Hint));
    }
    paths.extend(arrows.paths.iter().cloned());
    paths
}

#[allow(clippy::too_many_arguments)]
fn draw_arrows(
    mut commands: Commands,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    hint: Res<Hint>,
    arrows: Res<BoardArrows>,
    busy: Res<AnimationsPending>,
    layout: Res<BoardLayout>,
    in_game: Option<Res<State<InGame>>>,
    meshes: Res<ArrowMeshes>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    old: Query<Entity, With<ArrowPart>>,
    mut shown: Local<Option<Vec<ArrowPath>>>,
) {
    let paths = if layout.variant == state.position().variant() {
        wanted_paths(&state, &setup, &hint, &arrows, busy.0, in_game.is_some())
    } else {
        Vec::new()
    };
    if shown.as_ref() == Some(&paths) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    for (i, path) in paths.iter().enumerate() {
        let material = materials.add(path.style.color());
        // Later paths lie a little higher so that overlapping arrows keep a stable order.
        let z = ARROW_Z + i as f32 * 0.01;
        for &(from, to) in &path.steps {
            let (a, b) = (layout.point_pos(from), layout.point_pos(to));
            let dir = (b - a).normalize_or_zero();
            let start = a + dir * START_GAP;
            let tip = b - dir * END_GAP;
            let shaft_end = tip - dir * (HEAD_LEN * 0.9);
            let angle = dir.to_angle();
            let rot = Quat::from_rotation_z(angle);
            commands.spawn((
                ArrowPart,
                Mesh2d(meshes.shaft.clone()),
                MeshMaterial2d(material.clone()),
                Transform::from_translation(((start + shaft_end) / 2.0).extend(z))
                    .with_rotation(rot)
                    .with_scale(Vec3::new(start.distance(shaft_end), SHAFT, 1.0)),
            ));
            commands.spawn((
                ArrowPart,
                Mesh2d(meshes.head.clone()),
                MeshMaterial2d(material.clone()),
                Transform::from_translation(tip.extend(z))
                    .with_rotation(rot)
                    .with_scale(Vec3::new(HEAD_LEN, HEAD_WIDTH, 1.0)),
            ));
        }
        // The analysis lines' crosses take their line's colour, so that three lines' captures are told apart.
        let cross = match path.style {
            ArrowStyle::Line(_) => material.clone(),
            style => materials.add(Color::srgba(0.85, 0.12, 0.08, style.color().alpha())),
        };
        for p in (0..64u8).filter(|p| path.captured >> p & 1 == 1) {
            for k in 0..4 {
                let angle = std::f32::consts::FRAC_PI_4 + k as f32 * std::f32::consts::FRAC_PI_2;
                let arm = Vec2::from_angle(angle);
                commands.spawn((
                    ArrowPart,
                    Mesh2d(meshes.shaft.clone()),
                    MeshMaterial2d(cross.clone()),
                    Transform::from_translation((layout.point_pos(p) + arm * (CROSS_GAP + CROSS) / 2.0).extend(z))
                        .with_rotation(Quat::from_rotation_z(angle))
                        .with_scale(Vec3::new(CROSS - CROSS_GAP, SHAFT * 0.7, 1.0)),
                ));
            }
        }
    }
    *shown = Some(paths);
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::{Rules, Side};

    #[test]
    fn a_relay_is_one_arrow_per_step_with_every_capture_marked() {
        let pos = Position::start(&Rules::default());
        let turns = pos.legal_turns();
        let relay = turns.iter().max_by_key(|t| t.steps.len()).expect("a turn");
        let path = ArrowPath::of_turn(&pos, relay, ArrowStyle::Last);
        let moving = relay.steps.iter().filter(|s| s.from != s.to).count();
        assert_eq!(path.steps.len(), moving);
        // Each arrow starts where the previous one ended.
        for w in path.steps.windows(2) {
            assert_eq!(w[0].1, w[1].0);
        }
        let mut after = pos;
        after.play_turn(relay).expect("legal");
        assert_eq!(path.captured.count_ones(), pos.count(Side::Black) - after.count(Side::Black));
        assert!(path.captured != 0, "the start position's turns all capture");
    }

    #[test]
    fn a_captured_point_the_relay_lands_on_is_not_marked() {
        // Walk a game (each side playing its longest turn) and check every turn of every position on the way.
        let mut pos = Position::start(&Rules::default());
        let mut landed_on_a_capture = 0;
        for _ in 0..40 {
            let turns = pos.legal_turns();
            for turn in &turns {
                let (mut after, mut emptied) = (pos, 0u64);
                for &s in &turn.steps {
                    emptied |= after.try_step(s).expect("a legal turn's steps").captured;
                }
                let path = ArrowPath::of_turn(&pos, turn, ArrowStyle::Last);
                assert_eq!(path.captured, emptied & after.empty(), "{turn}");
                if emptied & !after.empty() != 0 {
                    landed_on_a_capture += 1;
                }
            }
            let Some(longest) = turns.iter().max_by_key(|t| t.steps.len()) else { break };
            pos.play_turn(longest).expect("legal");
        }
        assert!(landed_on_a_capture > 0, "some relay on the way lands on a point it emptied");
    }

    #[test]
    fn the_analysis_lines_have_distinct_colours() {
        let colours: Vec<_> = (0..3).map(|k| ArrowStyle::Line(k).color32()).collect();
        assert!(colours[0] != colours[1] && colours[1] != colours[2] && colours[0] != colours[2]);
        assert!(!colours.contains(&ArrowStyle::Last.color32()));
    }

    #[test]
    fn a_stale_suggestion_draws_only_its_legal_prefix() {
        let pos = Position::start(&Rules::default());
        let turn = pos.legal_turns().into_iter().next().expect("a turn");
        let mut moved = pos;
        moved.play_turn(&turn).expect("legal");
        // The same turn again, from the position after it: the first step is no longer legal.
        let path = ArrowPath::of_turn(&moved, &turn, ArrowStyle::Hint);
        assert!(path.steps.is_empty());
        assert_eq!(path.captured, 0);
    }
}
