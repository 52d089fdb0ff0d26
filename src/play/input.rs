//! The input plugin: clicks and taps on points, the selection logic that turns them into move requests, keyboard
//! play and shortcuts, and the highlights that show what the selection allows.
//!
//! A click or tap is read from the button release and its position, mapped through the camera to the nearest
//! point: unlike picking's `Click`, this needs no hover before the press (touch screens have none, and a press
//! that arrives together with its pointer move would otherwise be lost). The mouse's releases come from the
//! window's events in order, each where the pointer was when it happened, so that a slow frame that also brings
//! the move to the next point does not put the click there.
//!
//! Keyboard play moves a cursor ([`KeyCursor`]) over the points with the arrow keys (or H/J/K/L); Enter or Space
//! then acts exactly as a click on the cursor's point, by sending the same [`PointClicked`], so that mouse, touch
//! and keyboard share one selection logic.

use crate::i18n::{illegal_reason_text, t, tf};
use crate::platform::redraw::WakeOn;
use crate::play::board::{BoardFrame, BoardLayout, BoardMeshes, OVER_Z, UNDER_Z};
use crate::play::referee::{AnimationsPending, GameSet, GameState, MatchSetup, MoveAction, MoveRequest, TurnEnded};
use crate::state::{BoardPlay, Pause, Screen, is_paused};
use bevy::diagnostic::FrameCount;
use bevy::input::ButtonState;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowEvent};
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::geometry::{Geometry, coords, point_name};
use fanorona_engine::{Game, Position, Side, Step, StepKind};

/// A point of the board was clicked or tapped.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointClicked(pub u8);

/// What the player has picked so far.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The selected piece's point.
    pub piece: Option<u8>,
    /// A step that can capture either way, waiting for the player to pick: (approach, withdrawal).
    pub choice: Option<(Step, Step)>,
    /// The point under the pointer.
    pub hovered: Option<u8>,
    /// A short explanation of the last refused click, for the HUD.
    pub note: Option<String>,
}

/// Whether clicks on the board edit the position (the analysis board's editor) rather than play: the clicks still
/// arrive as [`PointClicked`], but nothing selects or moves pieces.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardEditing(pub bool);

/// The keyboard cursor: the point that Enter and Space act on. `None` until the player first uses the keyboard on
/// the board (and again after the mouse moves), so that mouse players never see it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCursor(pub Option<u8>);

/// Adds pointer reading, the selection logic, keyboard play and shortcuts, and highlights.
pub fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<KeyCursor>()
        .init_resource::<BoardEditing>()
        .add_woken_message::<PointClicked>()
        // The window's events in order (registered by the window plugin; here too for windowless apps and tests).
        .add_woken_message::<WindowEvent>()
        .add_systems(
            Update,
            // The keys run before the clicks, so that Enter's click on the cursor is handled in the same frame.
            (
                read_pointer,
                (handle_keys.run_if(keyboard_is_ours), follow_relay, handle_clicks).chain().run_if(playing_on_board),
            )
                .chain()
                .in_set(GameSet::Request)
                .run_if(board_takes_input),
        )
        .add_systems(Update, draw_highlights.in_set(GameSet::Present))
        .add_systems(
            EguiPrimaryContextPass,
            show_keys.run_if(in_state(Screen::Playing).or_else(in_state(Screen::Lesson))),
        )
        .add_systems(OnExit(BoardPlay), |mut sel: ResMut<Selection>, mut cursor: ResMut<KeyCursor>| {
            *sel = Selection::default();
            *cursor = KeyCursor::default();
        });
}

/// Whether the screen takes clicks and keys on the board: a game, a lesson, the analysis board, a puzzle.
fn board_takes_input(screen: Res<State<Screen>>) -> bool {
    matches!(screen.get(), Screen::Playing | Screen::Lesson | Screen::Analysis | Screen::Puzzle)
}

/// Whether clicks play turns (not while the analysis board's editor has them).
fn playing_on_board(editing: Res<BoardEditing>) -> bool {
    !editing.0
}

/// Whether the game may read the keyboard: not while egui listens to it (a focused text field or widget, where
/// arrows, Space and Enter are egui's). Without egui (headless) the keyboard is always the game's.
fn keyboard_is_ours(wants: Option<Res<EguiWantsInput>>) -> bool {
    !wants.is_some_and(|w| w.wants_any_keyboard_input())
}

/// Turns mouse releases and touch ends into [`PointClicked`], and keeps [`Selection::hovered`] on the point under
/// the mouse. Positions over egui (HUD, windows) are the UI's, not the board's.
#[allow(clippy::too_many_arguments)]
fn read_pointer(
    mut window_events: MessageReader<WindowEvent>,
    frame: Res<FrameCount>,
    mut last_run: Local<Option<u32>>,
    touches: Res<Touches>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<Camera2d>>,
    layout: Res<BoardLayout>,
    mut contexts: EguiContexts,
    mut sel: ResMut<Selection>,
    mut key_cursor: ResMut<KeyCursor>,
    mut last_cursor: Local<Option<Vec2>>,
    mut out: MessageWriter<PointClicked>,
) {
    let (camera, cam_tf) = *camera;
    // egui's layers as laid out in the last pass: a position inside one belongs to the UI (egui's background layer
    // spans the whole window and is the board's).
    let ctx = contexts.ctx_mut().ok();
    let over_ui = |screen: Vec2| {
        ctx.as_ref()
            .and_then(|c| c.layer_id_at(egui::pos2(screen.x, screen.y)))
            .is_some_and(|l| l.order != egui::Order::Background)
    };
    let point_at = |screen: Vec2| -> Option<u8> {
        if over_ui(screen) {
            return None;
        }
        let world = camera.viewport_to_world_2d(cam_tf, screen).ok()?;
        layout.point_at(world)
    };
    let cursor = window.cursor_position();
    // The mouse's button presses and releases in the order they came, each where the pointer was at that moment:
    // a frame can bring a release and then a move to the next point (a quick player, a slow frame), and the
    // release belongs to where it happened, not to where the pointer is by the time the frame runs. Events read on
    // the first run after a pause (another screen) may be a frame or two old, and are not clicks on this board.
    let fresh = last_run.is_some_and(|f| f.wrapping_add(1) == frame.0);
    *last_run = Some(frame.0);
    let mut buttons = left_button_events(*last_cursor, window_events.read());
    if !fresh {
        buttons.clear();
    }
    // A mouse that moves takes over from the keyboard: its hover is the pointer to follow, not the ring.
    if cursor != *last_cursor {
        if last_cursor.is_some() && cursor.is_some() && key_cursor.0.is_some() {
            key_cursor.0 = None;
        }
        *last_cursor = cursor;
    }
    let hovered = cursor.and_then(point_at);
    if sel.hovered != hovered {
        sel.hovered = hovered;
    }
    // One point clicked at most once a frame: a browser can report a tap both as a touch and as the mouse, and a
    // second click on a selected piece would take the selection back.
    let mut clicked: Vec<u8> = Vec::new();
    for (pressed, at) in buttons {
        report_pointer(if pressed { "press" } else { "release" }, at, &over_ui, &point_at);
        if !pressed
            && let Some(p) = at.and_then(point_at)
            && !clicked.contains(&p)
        {
            clicked.push(p);
        }
    }
    for touch in touches.iter_just_released() {
        report_pointer("touchend", Some(touch.position()), &over_ui, &point_at);
        if let Some(p) = point_at(touch.position())
            && !clicked.contains(&p)
        {
            clicked.push(p);
        }
    }
    out.write_batch(clicked.into_iter().map(PointClicked));
}

/// The left button's presses (`true`) and releases (`false`) among a frame's window `events`, in order, each
/// with where the pointer was at that moment (`None`: outside the window), the pointer starting at `start`.
fn left_button_events<'a>(
    start: Option<Vec2>,
    events: impl IntoIterator<Item = &'a WindowEvent>,
) -> Vec<(bool, Option<Vec2>)> {
    let mut at = start;
    let mut buttons = Vec::new();
    for event in events {
        match event {
            WindowEvent::CursorMoved(m) => at = Some(m.position),
            WindowEvent::CursorLeft(_) => at = None,
            WindowEvent::MouseButtonInput(b) if b.button == MouseButton::Left => {
                buttons.push((b.state == ButtonState::Pressed, at));
            }
            _ => {}
        }
    }
    buttons
}

/// Reports a button press or release to the page (`pointer` events, read by the web tests when a click does not
/// take): where it was and what it fell on, a point, the UI or neither.
fn report_pointer(
    what: &str,
    at: Option<Vec2>,
    over_ui: &impl Fn(Vec2) -> bool,
    point_at: &impl Fn(Vec2) -> Option<u8>,
) {
    if !crate::platform::web::IN_BROWSER {
        return;
    }
    let detail = match at {
        None => format!("{what} nowhere"),
        Some(v) => {
            let on = if over_ui(v) {
                "ui".to_string()
            } else {
                point_at(v).map_or_else(|| "board".to_string(), |p| point_name(p).to_string())
            };
            format!("{what} {:.0},{:.0} {on}", v.x, v.y)
        }
    };
    crate::platform::web::event("pointer", &detail);
}

/// Reports what a click on a point did to the page (`click` events, read by the web tests).
fn report_click(p: u8, outcome: &str) {
    if crate::platform::web::IN_BROWSER {
        crate::platform::web::event("click", &format!("{} {outcome}", point_name(p)));
    }
}

/// Whether a person may act now: their turn, nothing animating, the game running.
pub fn human_to_move(state: &GameState, setup: &MatchSetup, busy: &AnimationsPending) -> bool {
    !busy.0 && !state.game().is_over() && setup.is_human(state.position().side_to_move())
}

/// During a relay only the relaying piece may move: keep it selected. A turn that ends leaves nothing selected:
/// otherwise the piece that relayed last stayed selected into the player's next turn, where the click meant to
/// pick it took the selection back, and the next click moved nothing.
fn follow_relay(state: Res<GameState>, mut turns: MessageReader<TurnEnded>, mut sel: ResMut<Selection>) {
    if turns.read().count() > 0 && (sel.piece.is_some() || sel.choice.is_some()) {
        sel.piece = None;
        sel.choice = None;
    }
    let relay = state.position().relay_piece();
    if relay.is_some() && sel.piece != relay {
        sel.piece = relay;
    }
}

/// Why a step from `from` to `to` is not legal, for people, in the current language.
fn explain(pos: &Position, from: u8, to: u8) -> String {
    let Some(dir) = pos.geometry().direction_between(from, to) else {
        return tf(
            "note.not_joined",
            &[("from", point_name(from).to_string().into()), ("to", point_name(to).to_string().into())],
        );
    };
    let reasons: Vec<_> = [StepKind::Paika, StepKind::Approach, StepKind::Withdrawal]
        .into_iter()
        .filter_map(|k| pos.check_step(Step::new(from, dir, k)).err())
        .collect();
    // The paika reason ("capturing is compulsory") is the telling one when a capture exists elsewhere.
    reasons.first().map_or_else(|| t("note.not_allowed").into(), |r| illegal_reason_text(*r))
}

fn handle_clicks(
    mut clicks: MessageReader<PointClicked>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    busy: Res<AnimationsPending>,
    pause: Option<Res<State<Pause>>>,
    sel: ResMut<Selection>,
    mut requests: MessageWriter<MoveRequest>,
) {
    let sel = sel.into_inner();
    // Clicks made while paused are read and dropped, so that none lands when the game resumes.
    let paused = is_paused(pause.as_deref());
    for &PointClicked(p) in clicks.read() {
        if paused || !human_to_move(&state, &setup, &busy) {
            let why = if paused {
                "dropped paused"
            } else if busy.0 {
                "dropped animating"
            } else {
                "dropped not-to-move"
            };
            report_click(p, why);
            continue;
        }
        let pos = state.position();
        let side = pos.side_to_move();
        let legal = pos.steps();
        sel.note = None;
        let mut send = |sel: &mut Selection, step: Step| {
            requests.write(MoveRequest::new(MoveAction::Step(step)));
            sel.piece = None;
            sel.choice = None;
        };
        if let Some((a, w)) = sel.choice {
            if pos.captured_by(a) >> p & 1 == 1 {
                send(sel, a);
                report_click(p, "step");
            } else if pos.captured_by(w) >> p & 1 == 1 {
                send(sel, w);
                report_click(p, "step");
            } else {
                sel.choice = None;
                sel.note = Some(t("note.click_line").into());
                report_click(p, "refused");
            }
            continue;
        }
        if pos.piece_at(p) == Some(side) {
            if let Some(r) = pos.relay_piece()
                && r != p
            {
                sel.note = Some(tf("note.relay_only", &[("point", point_name(r).to_string().into())]));
                report_click(p, "refused");
                continue;
            }
            if legal.iter().any(|s| s.from == p && s.kind != StepKind::Stop) {
                sel.piece = if sel.piece == Some(p) && !pos.in_relay() { None } else { Some(p) };
                report_click(p, if sel.piece.is_some() { "selected" } else { "deselected" });
            } else if pos.has_capture() {
                sel.note = Some(t("note.compulsory").into());
                report_click(p, "refused");
            } else {
                sel.note = Some(t("note.nowhere").into());
                report_click(p, "refused");
            }
            continue;
        }
        let Some(from) = sel.piece else {
            report_click(p, "nothing-selected");
            continue;
        };
        let cands: Vec<Step> =
            legal.iter().copied().filter(|s| s.from == from && s.to == p && s.kind != StepKind::Stop).collect();
        match cands.as_slice() {
            [] => {
                sel.note = Some(explain(pos, from, p));
                if !pos.in_relay() {
                    sel.piece = None;
                }
                report_click(p, "refused");
            }
            [one] => {
                send(sel, *one);
                report_click(p, "step");
            }
            [x, y, ..] => {
                let (a, w) = if x.kind == StepKind::Approach { (*x, *y) } else { (*y, *x) };
                sel.choice = Some((a, w));
                report_click(p, "choice");
            }
        }
    }
}

/// The keys that move the keyboard cursor, with the file and rank change of each.
const CURSOR_KEYS: [(KeyCode, (i8, i8)); 8] = [
    (KeyCode::ArrowUp, (0, 1)),
    (KeyCode::ArrowDown, (0, -1)),
    (KeyCode::ArrowLeft, (-1, 0)),
    (KeyCode::ArrowRight, (1, 0)),
    (KeyCode::KeyK, (0, 1)),
    (KeyCode::KeyJ, (0, -1)),
    (KeyCode::KeyH, (-1, 0)),
    (KeyCode::KeyL, (1, 0)),
];

/// The neighbour of `p` on the board at a file and rank change; every point has its four orthogonal neighbours
/// within the board, so this is also the neighbour along a line.
fn neighbour(g: &Geometry, p: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let (f, r) = coords(p);
    g.point(f.checked_add_signed(df)?, r.checked_add_signed(dr)?)
}

/// Where the keyboard cursor appears: the selected (or relaying) piece, else the first piece that can move, else
/// the centre of the board.
fn cursor_start(pos: &Position, sel: &Selection) -> u8 {
    let movable = pos.steps().iter().filter(|s| s.kind != StepKind::Stop).map(|s| s.from).min();
    sel.piece.or(pos.relay_piece()).or(movable).unwrap_or_else(|| {
        let v = pos.variant();
        pos.geometry().point(v.width() / 2, v.height() / 2).unwrap_or(0)
    })
}

/// A point on the line `step` captures, so that a click there (the click path's own way of answering the choice)
/// picks that step.
fn victim_point(pos: &Position, step: Step) -> Option<u8> {
    let run = pos.captured_by(step);
    (run != 0).then(|| run.trailing_zeros() as u8)
}

fn handle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    busy: Res<AnimationsPending>,
    server: Option<Res<ServerTakeback>>,
    pause: Option<Res<State<Pause>>>,
    mut next_pause: Option<ResMut<NextState<Pause>>>,
    mut sel: ResMut<Selection>,
    mut cursor: ResMut<KeyCursor>,
    mut clicks: MessageWriter<PointClicked>,
    mut requests: MessageWriter<MoveRequest>,
) {
    // The pause window handles its own keys (Escape resumes).
    if is_paused(pause.as_deref()) {
        return;
    }
    let pos = state.position();
    let g = pos.geometry();
    // A cursor left from the other board (a new game on another variant) starts afresh.
    if cursor.0.is_some_and(|p| !g.contains(p)) {
        cursor.0 = None;
    }
    for (key, delta) in CURSOR_KEYS {
        if keys.just_pressed(key) {
            let to = match cursor.0 {
                None => cursor_start(pos, &sel),
                Some(p) => neighbour(g, p, delta).unwrap_or(p),
            };
            cursor.0 = Some(to);
        }
    }
    // Ending one's own relay needs no wait for the step's animation: the rules take it at once and the animation
    // plays the turn's end after the step, so a quick Enter is never lost.
    let can_end = !state.game().is_over() && setup.is_human(pos.side_to_move()) && pos.in_relay();
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space, KeyCode::NumpadEnter]) {
        match cursor.0 {
            // In a relay, acting anywhere but on a way the relay can go (or a line of the pending choice) ends it.
            Some(p)
                if pos.in_relay()
                    && sel.choice.is_none()
                    && !pos.steps().iter().any(|s| s.kind != StepKind::Stop && s.to == p) =>
            {
                if can_end {
                    requests.write(MoveRequest::new(MoveAction::EndTurn));
                }
            }
            Some(p) => {
                clicks.write(PointClicked(p));
            }
            None if pos.in_relay() => {
                if can_end {
                    requests.write(MoveRequest::new(MoveAction::EndTurn));
                }
            }
            // The first Enter of a keyboard player shows where the keys act.
            None => cursor.0 = Some(cursor_start(pos, &sel)),
        }
    }
    if keys.just_pressed(KeyCode::KeyE) && can_end {
        requests.write(MoveRequest::new(MoveAction::EndTurn));
    }
    if let Some((a, w)) = sel.choice {
        let approach = keys.any_just_pressed([KeyCode::KeyA, KeyCode::Digit1, KeyCode::Numpad1]);
        let withdrawal = keys.any_just_pressed([KeyCode::KeyW, KeyCode::Digit2, KeyCode::Numpad2]);
        let chosen = match (approach, withdrawal) {
            (true, false) => Some(a),
            (false, true) => Some(w),
            _ => None,
        };
        if let Some(p) = chosen.and_then(|s| victim_point(pos, s)) {
            clicks.write(PointClicked(p));
        }
    }
    if keys.just_pressed(KeyCode::KeyU) && !busy.0 && undo_allowed(&setup, state.game(), server.map(|s| s.0)) {
        requests.write(MoveRequest::new(undo_action(&setup)));
        *sel = Selection::default();
    }
    // Escape and Backspace first cancel what is picked; with nothing picked Escape opens the pause window.
    let escape = keys.just_pressed(KeyCode::Escape);
    if escape || keys.just_pressed(KeyCode::Backspace) {
        if sel.choice.is_some() {
            sel.choice = None;
        } else if sel.piece.is_some() && !pos.in_relay() {
            sel.piece = None;
        } else if escape
            && pause.is_some()
            && let Some(next_pause) = next_pause.as_mut()
        {
            // Only a game pauses; a lesson's panel has its own way out.
            next_pause.set(Pause::Paused);
        }
    }
}

/// The keyboard controls, shown at the foot of the board while the player uses the keyboard, and the keys of the
/// approach-or-withdrawal choice whenever that choice is open.
fn show_keys(
    mut contexts: EguiContexts,
    cursor: Res<KeyCursor>,
    sel: Res<Selection>,
    pause: Option<Res<State<Pause>>>,
    frame: Option<Res<BoardFrame>>,
) -> Result {
    if is_paused(pause.as_deref()) || (cursor.0.is_none() && sel.choice.is_none()) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let frame = frame.map(|f| *f).unwrap_or_default();
    let text = if sel.choice.is_some() { t("keys.choice") } else { t("keys.board") };
    egui::Area::new(egui::Id::new("keyboard_keys"))
        .anchor(egui::Align2::CENTER_BOTTOM, [(frame.left - frame.right) / 2.0, -frame.bottom - 8.0])
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(170))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(10, 6))
                .show(ui, |ui| {
                    ui.label(egui::RichText::new(text).color(egui::Color32::from_gray(235)));
                });
        });
    Ok(())
}

/// The undo a person means: against the CPU, back to their own turn; in hot-seat, one turn (or the steps of the
/// turn in progress).
pub fn undo_action(setup: &MatchSetup) -> MoveAction {
    let humans: Vec<Side> = Side::BOTH.into_iter().filter(|s| setup.is_human(*s)).collect();
    MoveAction::Undo { until: if humans.len() == 1 { Some(humans[0]) } else { None } }
}

/// Whether the server of the online game in progress would take a takeback request now (a request of either side
/// standing, the end, or watching: no). Published by the online module while it plays a game, so that the board's
/// keys follow the server without knowing the connection; absent otherwise.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServerTakeback(pub bool);

/// Whether Undo (the button or the U key) has something to do: steps of the turn in progress, or else a turn to
/// take back. Online a takeback is the server's to grant, so it follows `server` (what the server would take, when
/// the connection is known): not while a request of either side stands, not after the end, never for a spectator.
pub fn undo_allowed(setup: &MatchSetup, game: &Game, server: Option<bool>) -> bool {
    let takeback_ok = match server {
        Some(allowed) if setup.is_online() => allowed,
        _ => !game.turns().is_empty(),
    };
    takeback_ok || !game.pending_steps().is_empty()
}

/// A highlight (rebuilt whenever what it shows changes).
/// The radius of a destination dot: inside the open middle of a capture cross ([`crate::play::arrows::CROSS_GAP`]),
/// so that a point emptied by the relay and offered as its next destination shows both.
pub const DEST_DOT: f32 = 0.105;

#[derive(Component)]
struct Highlight;

#[derive(Resource)]
struct HighlightMaterials {
    movable: Handle<ColorMaterial>,
    selected: Handle<ColorMaterial>,
    cursor: Handle<ColorMaterial>,
    capture_dest: Handle<ColorMaterial>,
    paika_dest: Handle<ColorMaterial>,
    victim: Handle<ColorMaterial>,
    visited: Handle<ColorMaterial>,
}

impl FromWorld for HighlightMaterials {
    fn from_world(world: &mut World) -> Self {
        let mut m = world.resource_mut::<Assets<ColorMaterial>>();
        HighlightMaterials {
            movable: m.add(Color::srgba(1.0, 0.62, 0.15, 0.95)),
            selected: m.add(Color::srgba(0.45, 1.0, 0.55, 1.0)),
            cursor: m.add(Color::srgba(1.0, 1.0, 1.0, 0.95)),
            capture_dest: m.add(Color::srgba(0.85, 0.15, 0.1, 0.85)),
            paika_dest: m.add(Color::srgba(0.2, 0.55, 0.25, 0.85)),
            victim: m.add(Color::srgba(1.0, 0.2, 0.15, 0.95)),
            visited: m.add(Color::srgba(0.3, 0.12, 0.05, 0.55)),
        }
    }
}

#[derive(PartialEq, Clone)]
struct Shown {
    generation: u64,
    selection: Selection,
    cursor: Option<u8>,
    busy: bool,
    in_game: bool,
    variant: fanorona_engine::Variant,
}

fn draw_highlights(
    mut commands: Commands,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    sel: Res<Selection>,
    cursor: Res<KeyCursor>,
    busy: Res<AnimationsPending>,
    layout: Res<BoardLayout>,
    in_game: Option<Res<State<BoardPlay>>>,
    meshes: Option<Res<BoardMeshes>>,
    mats: Option<Res<HighlightMaterials>>,
    old: Query<Entity, With<Highlight>>,
    mut shown: Local<Option<Shown>>,
) {
    let Some(meshes) = meshes else { return };
    let Some(mats) = mats else {
        commands.init_resource::<HighlightMaterials>();
        return;
    };
    let now = Shown {
        generation: state.generation(),
        selection: Selection { note: None, ..sel.clone() },
        cursor: cursor.0,
        busy: busy.0,
        in_game: in_game.is_some(),
        variant: layout.variant,
    };
    if shown.as_ref() == Some(&now) {
        return;
    }
    *shown = Some(now.clone());
    for e in &old {
        commands.entity(e).despawn();
    }
    if layout.variant != state.position().variant() {
        return;
    }
    let pos = state.position();
    // Everything here belongs to the player's own game; the last turn and the hint are arrows (play/arrows.rs).
    if !now.in_game {
        return;
    }
    let mut spawn = |p: u8, mesh: &Handle<Mesh>, mat: &Handle<ColorMaterial>, r: f32, z: f32| {
        commands.spawn((
            Highlight,
            DespawnOnExit(BoardPlay),
            Mesh2d(mesh.clone()),
            MeshMaterial2d(mat.clone()),
            Transform::from_translation(layout.point_pos(p).extend(z)).with_scale(Vec3::splat(r)),
        ));
    };
    let game = state.game();
    // The keyboard cursor: a wide white ring outside every other highlight, shown on either side's turn so that a
    // player can aim while the other side moves.
    if let Some(p) = cursor.0.filter(|&p| pos.geometry().contains(p) && !game.is_over()) {
        spawn(p, &meshes.ring, &mats.cursor, 0.52, OVER_Z + 0.02);
    }
    if now.busy || game.is_over() || !setup.is_human(pos.side_to_move()) {
        return;
    }
    // What follows only makes sense in the player's own game, so it goes with the game screens.
    if pos.in_relay() {
        let visited = pos.visited();
        for p in 0..64u8 {
            if visited >> p & 1 == 1 && Some(p) != pos.relay_piece() {
                spawn(p, &meshes.circle, &mats.visited, 0.12, UNDER_Z + 0.05);
            }
        }
    }
    let legal = pos.steps();
    match sel.piece {
        None => {
            // Capturing is compulsory: show which pieces can capture.
            if pos.has_capture() {
                let mut froms: Vec<u8> = legal.iter().filter(|s| s.kind.is_capture()).map(|s| s.from).collect();
                froms.dedup();
                for p in froms {
                    spawn(p, &meshes.ring, &mats.movable, 0.43, OVER_Z);
                }
            }
        }
        Some(from) => {
            spawn(from, &meshes.ring, &mats.selected, 0.44, OVER_Z);
            for s in legal.iter().filter(|s| s.from == from && s.kind != StepKind::Stop) {
                let m = if s.kind.is_capture() { &mats.capture_dest } else { &mats.paika_dest };
                spawn(s.to, &meshes.circle, m, DEST_DOT, UNDER_Z + 0.1);
            }
            // Preview the victims of the hovered destination, or of both ways when the player must choose.
            let preview: Vec<Step> = match sel.choice {
                Some((a, w)) => vec![a, w],
                None => legal
                    .iter()
                    .copied()
                    .filter(|s| s.from == from && Some(s.to) == sel.hovered && s.kind.is_capture())
                    .collect(),
            };
            for s in preview {
                let run = pos.captured_by(s);
                for p in 0..64u8 {
                    if run >> p & 1 == 1 {
                        spawn(p, &meshes.ring, &mats.victim, 0.40, OVER_Z);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::mouse::MouseButtonInput;
    use bevy::window::{CursorLeft, CursorMoved};

    fn moved(x: f32, y: f32) -> WindowEvent {
        WindowEvent::CursorMoved(CursorMoved { window: Entity::PLACEHOLDER, position: Vec2::new(x, y), delta: None })
    }

    fn button(button: MouseButton, state: ButtonState) -> WindowEvent {
        WindowEvent::MouseButtonInput(MouseButtonInput { button, state, window: Entity::PLACEHOLDER })
    }

    #[test]
    fn each_press_and_release_is_where_the_pointer_was_then() {
        use ButtonState::{Pressed, Released};
        // One slow frame: a click on one point, the move to the next and a click there, then a move on.
        let frame = [
            button(MouseButton::Left, Pressed),
            button(MouseButton::Left, Released),
            moved(386.0, 186.0),
            button(MouseButton::Right, Pressed),
            button(MouseButton::Left, Pressed),
            button(MouseButton::Left, Released),
            moved(500.0, 20.0),
        ];
        let start = Some(Vec2::new(330.0, 241.0));
        assert_eq!(
            left_button_events(start, &frame),
            vec![
                (true, start),
                (false, start),
                (true, Some(Vec2::new(386.0, 186.0))),
                (false, Some(Vec2::new(386.0, 186.0)))
            ]
        );
        // A release after the pointer left the window is nowhere.
        let left =
            [WindowEvent::CursorLeft(CursorLeft { window: Entity::PLACEHOLDER }), button(MouseButton::Left, Released)];
        assert_eq!(left_button_events(start, &left), vec![(false, None)]);
        assert_eq!(left_button_events(None, &[moved(1.0, 2.0)]), vec![]);
    }

    #[test]
    fn undo_needs_something_to_undo_and_online_the_servers_leave() {
        use crate::play::referee::Player;
        use fanorona_engine::Rules;
        let local = MatchSetup::default();
        let online = MatchSetup { players: [Player::Human, Player::Remote], ..MatchSetup::default() };
        let mut game = Game::new(Rules::default());
        assert!(!undo_allowed(&local, &game, None), "nothing played yet");
        let first = game.position().legal_turns()[0].clone();
        game.play_turn(&first).unwrap();
        // Play on until a turn of several steps is legal, then only its first step: a turn in progress.
        let relay = loop {
            let turns = game.position().legal_turns();
            if let Some(t) = turns.iter().find(|t| t.steps.len() > 1) {
                break t.clone();
            }
            game.play_turn(&turns[0]).unwrap();
        };
        assert!(undo_allowed(&local, &game, None), "a turn to take back");
        // Online, a finished turn is the server's to take back: with no state from it (as with a request standing)
        // neither the button nor the key asks; without the connection's resource the local game decides.
        assert!(!undo_allowed(&online, &game, Some(false)));
        assert!(undo_allowed(&online, &game, None));
        // The steps of the turn in progress are undone locally, online too.
        game.play_step(relay.steps[0]).unwrap();
        assert!(!game.pending_steps().is_empty());
        assert!(undo_allowed(&online, &game, Some(false)));
    }
}
