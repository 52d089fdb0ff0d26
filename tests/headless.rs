//! Headless integration tests: the game's logic plugins under `MinimalPlugins` (no window, no rendering), driven
//! by move requests like input and the CPU send them; checks the messages, the piece entities and the CPU's tasks.

mod common;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use common::press;
use fanorona::LogicPlugin;
use fanorona::play::cpu::{CpuLimits, CpuPlayer};
use fanorona::play::referee::*;
use fanorona::state::{Pause, Screen};
use fanorona_engine::levels::Level;
use fanorona_engine::search::Limits;
use fanorona_engine::{Position, Rules, Side, Step, StepKind, Turn, Variant};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Everything the rules said, frame by frame.
#[derive(Resource, Default)]
struct Log {
    steps: Vec<StepPlayed>,
    captures: Vec<PiecesCaptured>,
    relays: Vec<RelayContinues>,
    turns: Vec<TurnEnded>,
    ended: Vec<GameEnded>,
    undos: Vec<UndoHappened>,
    rejected: Vec<RequestRejected>,
    started: usize,
}

impl Log {
    fn clear(&mut self) {
        *self = Log { started: self.started, ..Log::default() };
    }
}

fn record(
    mut log: ResMut<Log>,
    mut steps: MessageReader<StepPlayed>,
    mut captures: MessageReader<PiecesCaptured>,
    mut relays: MessageReader<RelayContinues>,
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    mut undos: MessageReader<UndoHappened>,
    mut rejected: MessageReader<RequestRejected>,
    mut started: MessageReader<GameStarted>,
) {
    log.steps.extend(steps.read().cloned());
    log.captures.extend(captures.read().cloned());
    log.relays.extend(relays.read().cloned());
    log.turns.extend(turns.read().cloned());
    log.ended.extend(ended.read().cloned());
    log.undos.extend(undos.read().cloned());
    log.rejected.extend(rejected.read().cloned());
    log.started += started.read().count();
}

fn app(setup: MatchSetup) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin))
        .init_resource::<Log>()
        .add_systems(Update, record.in_set(GameSet::Present));
    app.insert_resource(setup);
    app.update();
    app.world_mut().write_message(NewGame);
    app.update();
    assert_eq!(app.world().resource::<Log>().started, 1);
    app
}

fn hot_seat(rules: Rules) -> MatchSetup {
    MatchSetup { rules, players: [Player::Human, Player::Human], seed: 1, vela_match: false }
}

fn send(app: &mut App, action: MoveAction) {
    app.world_mut().write_message(MoveRequest::new(action));
    app.update();
}

fn position(app: &App) -> Position {
    *app.world().resource::<GameState>().position()
}

fn generation(app: &App) -> u64 {
    app.world().resource::<GameState>().generation()
}

/// The piece entities as (point, side), sorted.
fn pieces(app: &mut App) -> Vec<(u8, Side)> {
    let mut q = app.world_mut().query::<&Piece>();
    let mut v: Vec<(u8, Side)> = q.iter(app.world()).map(|p| (p.point, p.side)).collect();
    v.sort();
    v
}

/// The piece entities must be exactly the engine's pieces.
fn assert_pieces_match(app: &mut App) {
    let pos = position(app);
    let want: Vec<(u8, Side)> = (0..64u8).filter_map(|p| pos.piece_at(p).map(|s| (p, s))).collect();
    let have = pieces(app);
    assert_eq!(have, want, "piece entities differ from the engine's position {pos}");
    for side in Side::BOTH {
        assert_eq!(have.iter().filter(|(_, s)| *s == side).count() as u32, pos.count(side));
    }
    // Every captured piece stays (in its capturer's tray), each in its own slot.
    let state = app.world().resource::<GameState>();
    let want_captured = Side::BOTH.map(|s| state.captured(s));
    let mut q = app.world_mut().query::<&Captured>();
    for side in Side::BOTH {
        let mut slots: Vec<u32> = q.iter(app.world()).filter(|c| c.side == side).map(|c| c.slot).collect();
        slots.sort();
        let want: Vec<u32> = (0..want_captured[side.index()]).collect();
        assert_eq!(slots, want, "captured {side} pieces in the trays");
    }
}

fn log(app: &mut App) -> Mut<'_, Log> {
    app.world_mut().resource_mut::<Log>()
}

/// Plays whole games step by step through move requests, checking every message and the entities per colour.
fn play_games(rules: Rules, games: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut app = app(hot_seat(rules));
        assert_pieces_match(&mut app);
        for turn_no in 1..=400usize {
            let pos = position(&app);
            if app.world().resource::<GameState>().game().is_over() {
                break;
            }
            let turns = pos.legal_turns();
            // Prefer captures of many pieces, so that games end; keep some randomness.
            let turn: Turn = if rng.random_bool(0.7) {
                turns.iter().max_by_key(|t| (t.len(), rng.random_range(0..4u8))).cloned().unwrap()
            } else {
                turns[rng.random_range(0..turns.len())].clone()
            };
            let mover = pos.side_to_move();
            log(&mut app).clear();
            let mut expect = pos;
            for (i, &step) in turn.steps.iter().enumerate() {
                let captured = expect.captured_by(step).count_ones() as usize;
                let effect = expect.play(step);
                send(&mut app, MoveAction::Step(step));
                let l = app.world().resource::<Log>();
                let played = l.steps.last().expect("a StepPlayed for every step");
                assert_eq!((played.from, played.to, played.kind, played.side), (step.from, step.to, step.kind, mover));
                assert_eq!(played.relay_index, i);
                if captured > 0 {
                    let c = l.captures.last().expect("a PiecesCaptured for every capture");
                    assert_eq!((c.points.len(), c.pieces.len(), c.relay_index, c.by), (captured, captured, i, mover));
                    let kind =
                        if step.kind == StepKind::Approach { CaptureKind::Approach } else { CaptureKind::Withdrawal };
                    assert_eq!(c.kind, kind);
                }
                if !effect.turn_ended {
                    let r = l.relays.last().expect("a RelayContinues while the relay may go on");
                    assert_eq!(r.piece, step.to);
                    let want: Vec<Step> = expect.steps().iter().copied().filter(|s| s.kind != StepKind::Stop).collect();
                    assert_eq!(r.continuations, want);
                }
                assert_pieces_match(&mut app);
            }
            if position(&app).in_relay() {
                send(&mut app, MoveAction::EndTurn);
            }
            let l = app.world().resource::<Log>();
            assert!(l.rejected.is_empty(), "legal steps were refused: {:?}", l.rejected);
            assert_eq!(l.steps.len(), turn.len());
            assert_eq!(l.turns.len(), 1, "one TurnEnded per turn");
            let t = &l.turns[0];
            assert_eq!((t.number, t.side, &t.turn), (turn_no, mover, &turn));
            assert_pieces_match(&mut app);
        }
        let state = app.world().resource::<GameState>();
        let outcome = state.game().outcome().expect("the game ended");
        assert_eq!(app.world().resource::<Log>().ended.last().map(|e| e.outcome), Some(outcome));
    }
}

#[test]
fn full_games_through_requests() {
    play_games(Rules::default(), 3, 7);
}

#[test]
fn full_games_on_the_small_board() {
    play_games(Rules { variant: Variant::Dimy, ..Rules::default() }, 3, 11);
}

#[test]
fn illegal_requests_change_nothing() {
    let mut app = app(hot_seat(Rules::default()));
    let p = |s: &str| -> Step { s.parse().unwrap() };
    let t = |s: &str| -> Turn { s.parse().unwrap() };
    let illegal = [
        MoveAction::Step(p("e2-e3")),            // paika while a capture exists
        MoveAction::Step(p("d4-e3W")),           // the opponent's piece
        MoveAction::Step(p("a1-a2")),            // onto an occupied point
        MoveAction::EndTurn,                     // no relay
        MoveAction::Undo { until: None },        // nothing to undo
        MoveAction::Redo,                        // nothing to redo
        MoveAction::AnswerDraw { accept: true }, // no offer
        MoveAction::Turn(t("d3-e3A e3-d3A")),    // a legal first step, then back to where it came from
    ];
    for action in illegal {
        let before_pos = position(&app);
        let before_gen = generation(&app);
        let before_pieces = pieces(&mut app);
        log(&mut app).clear();
        send(&mut app, action.clone());
        let l = app.world().resource::<Log>();
        assert_eq!(l.rejected.len(), 1, "{action:?} was not refused");
        assert!(l.steps.is_empty() && l.captures.is_empty() && l.turns.is_empty() && l.undos.is_empty());
        assert_eq!(position(&app), before_pos, "{action:?} changed the position");
        assert_eq!(generation(&app), before_gen, "{action:?} changed the generation");
        assert_eq!(pieces(&mut app), before_pieces, "{action:?} changed the pieces");
    }
    // A request made for an earlier state is refused even when its move is legal now.
    let g = generation(&app);
    send(&mut app, MoveAction::Step(p("d3-e3A")));
    assert!(generation(&app) > g);
    send(&mut app, MoveAction::Undo { until: None });
    let pos = position(&app);
    log(&mut app).clear();
    app.world_mut().write_message(MoveRequest { action: MoveAction::Step(p("d3-e3A")), expect_generation: Some(g) });
    app.update();
    assert_eq!(position(&app), pos);
    assert_eq!(log(&mut app).rejected.len(), 1);
}

#[test]
fn undo_redo_and_takeback_respawn_pieces() {
    let mut app = app(hot_seat(Rules::default()));
    let start = position(&app);
    send(&mut app, MoveAction::Turn("d3-e3A".parse().unwrap()));
    let after_one = position(&app);
    assert_ne!(after_one, start);
    let reply = after_one.legal_turns()[0].clone();
    send(&mut app, MoveAction::Turn(reply));
    assert_eq!(app.world().resource::<GameState>().game().turns().len(), 2);
    // Back to White's turn: against the CPU that is two turns (Black's reply and White's turn).
    log(&mut app).clear();
    send(&mut app, MoveAction::Undo { until: Some(Side::White) });
    assert_eq!(position(&app), start);
    assert_eq!(log(&mut app).undos[0].kind, UndoKind::Turns(2));
    assert_pieces_match(&mut app);
    send(&mut app, MoveAction::Redo);
    assert_eq!(position(&app), after_one);
    assert_pieces_match(&mut app);
    // Nothing in progress and nothing further back for Black: refused, nothing changes.
    send(&mut app, MoveAction::Undo { until: Some(Side::Black) });
    assert_eq!(position(&app), after_one);
}

fn cpu_setup(white: Player, black: Player) -> MatchSetup {
    MatchSetup { rules: Rules::default(), players: [white, black], seed: 3, vela_match: false }
}

/// Runs frames until `done` holds or `secs` pass.
fn run_until(app: &mut App, secs: f32, mut done: impl FnMut(&mut App) -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs_f32(secs);
    while Instant::now() < end {
        app.update();
        if done(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    false
}

#[test]
fn cpu_plays_a_game_against_itself() {
    let mut app = app(cpu_setup(Player::Cpu(Level::Beginner), Player::Cpu(Level::Beginner)));
    app.insert_resource(CpuLimits(Limits::depth(1)));
    let mut seen = 0;
    let finished = run_until(&mut app, 120.0, |app| {
        let n = app.world().resource::<Log>().turns.len();
        if n > seen {
            seen = n;
            assert_pieces_match(app);
            assert!(app.world().resource::<Log>().rejected.is_empty());
        }
        app.world().resource::<GameState>().game().is_over() || seen >= 60
    });
    assert!(finished, "the CPU stalled after {seen} turns");
    let l = app.world().resource::<Log>();
    for (i, t) in l.turns.iter().enumerate() {
        assert_eq!(t.number, i + 1);
    }
}

#[test]
fn a_cancelled_cpu_search_never_lands() {
    let mut app = app(cpu_setup(Player::Human, Player::Cpu(Level::Beginner)));
    let start = position(&app);
    // The human plays; in the very next frame the CPU starts thinking and the human takes the turn back.
    send(&mut app, MoveAction::Turn("d3-e3A".parse().unwrap()));
    assert_eq!(log(&mut app).turns.len(), 1);
    app.world_mut().write_message(MoveRequest::new(MoveAction::Undo { until: Some(Side::White) }));
    app.update();
    assert_eq!(app.world().resource::<CpuPlayer>().started, 1, "the CPU started thinking in that frame");
    assert_eq!(position(&app), start);
    // Whatever that search finds must never be played: wait well past its end.
    run_until(&mut app, 3.0, |_| false);
    let l = app.world().resource::<Log>();
    assert!(l.turns.iter().all(|t| t.side == Side::White), "a stale CPU turn landed: {:?}", l.turns);
    assert_eq!(position(&app), start);
    let cpu = app.world().resource::<CpuPlayer>();
    assert_eq!(cpu.cancelled + cpu.stale, 1);
    assert!(cpu.thinking().is_none());
    // The CPU still answers a fresh turn.
    send(&mut app, MoveAction::Turn("f2-e3A".parse().unwrap()));
    let answered =
        run_until(&mut app, 30.0, |app| app.world().resource::<Log>().turns.iter().any(|t| t.side == Side::Black));
    assert!(answered, "the CPU did not answer");
    assert_pieces_match(&mut app);
}

#[test]
fn a_new_game_drops_the_search_in_flight() {
    let mut app = app(cpu_setup(Player::Cpu(Level::Intermediate), Player::Human));
    app.update();
    assert!(app.world().resource::<CpuPlayer>().thinking().is_some());
    // Now a person plays White: the new game must not receive the old game's answer.
    app.insert_resource(cpu_setup(Player::Human, Player::Human));
    app.world_mut().write_message(NewGame);
    app.update();
    run_until(&mut app, 3.0, |_| false);
    assert!(log(&mut app).turns.is_empty(), "a CPU turn landed in the new game");
    assert_eq!(position(&app), Position::start(&Rules::default()));
    assert!(app.world().resource::<CpuPlayer>().thinking().is_none());
}

fn set_pause(app: &mut App, pause: Pause) {
    app.world_mut().resource_mut::<NextState<Pause>>().set(pause);
    app.update();
    assert_eq!(*app.world().resource::<State<Pause>>().get(), pause);
}

#[test]
fn pausing_stops_the_cpu_and_resuming_lets_it_move() {
    let mut app = app(hot_seat(Rules::default()));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    set_pause(&mut app, Pause::Paused);
    // A game where the CPU moves first, started while paused: the CPU must not even start thinking.
    app.insert_resource(cpu_setup(Player::Cpu(Level::Beginner), Player::Human));
    app.world_mut().write_message(NewGame);
    app.update();
    run_until(&mut app, 1.5, |_| false);
    assert_eq!(app.world().resource::<CpuPlayer>().started, 0, "the CPU started a search while paused");
    assert!(log(&mut app).turns.is_empty(), "the CPU moved while paused");
    set_pause(&mut app, Pause::Running);
    let moved = run_until(&mut app, 30.0, |app| !app.world().resource::<Log>().turns.is_empty());
    assert!(moved, "the CPU did not move after resuming");
    assert_eq!(log(&mut app).turns[0].side, Side::White);
    assert_pieces_match(&mut app);

    // A search running when the game is paused may finish, but its answer waits for the game to resume.
    let reply = position(&app).legal_turns()[0].clone();
    send(&mut app, MoveAction::Turn(reply));
    app.update();
    assert!(app.world().resource::<CpuPlayer>().thinking().is_some(), "the CPU is thinking");
    set_pause(&mut app, Pause::Paused);
    let answered = run_until(&mut app, 30.0, |app| app.world().resource::<CpuPlayer>().has_answer());
    assert!(answered, "the search in flight did not finish");
    run_until(&mut app, 0.3, |_| false);
    assert_eq!(log(&mut app).turns.len(), 2, "the CPU's answer was played while paused");
    set_pause(&mut app, Pause::Running);
    let moved = run_until(&mut app, 5.0, |app| app.world().resource::<Log>().turns.len() == 3);
    assert!(moved, "the waiting answer was not played after resuming");
    assert_eq!(log(&mut app).turns[2].side, Side::White);
    assert!(log(&mut app).rejected.is_empty());
    assert_pieces_match(&mut app);
}

#[test]
fn taps_map_to_the_nearest_point_within_reach() {
    use fanorona::play::board::{BoardLayout, HIT_RADIUS};
    for variant in [Variant::Tsivy, Variant::Dimy] {
        let layout = BoardLayout { variant };
        let g = variant.geometry();
        for p in (0..64u8).filter(|&p| g.contains(p)) {
            let at = layout.point_pos(p);
            assert_eq!(layout.point_at(at), Some(p));
            assert_eq!(layout.point_at(at + Vec2::new(HIT_RADIUS * 0.9, 0.0)), Some(p));
        }
        // Halfway between two neighbours, and off the board, is nobody's.
        let mid = (layout.point_pos(0) + layout.point_pos(1)) / 2.0;
        assert_eq!(layout.point_at(mid), None);
        assert_eq!(layout.point_at(Vec2::new(100.0, 0.0)), None);
    }
}

/// A hot-seat game on `rules` with the input plugin and a keyboard, on the playing screen.
fn keyboard_app(rules: Rules) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin, LogicPlugin))
        .insert_resource(fanorona::play::board::BoardLayout { variant: rules.variant })
        .init_resource::<Log>()
        .add_systems(Update, record.in_set(GameSet::Present));
    fanorona::play::input::plugin(&mut app);
    app.insert_resource(hot_seat(rules));
    app.update();
    app.world_mut().write_message(NewGame);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    assert_eq!(app.world().resource::<Log>().started, 1);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    app
}

fn key_cursor(app: &App) -> Option<u8> {
    app.world().resource::<fanorona::play::input::KeyCursor>().0
}

/// Moves the keyboard cursor to `target` with the arrow keys (the first press shows it).
fn cursor_to(app: &mut App, target: u8) {
    use fanorona_engine::geometry::coords;
    if key_cursor(app).is_none() {
        press(app, KeyCode::ArrowRight);
    }
    for _ in 0..20 {
        let at = key_cursor(app).expect("the cursor is shown");
        let ((f, r), (tf, tr)) = (coords(at), coords(target));
        let key = match (tf.cmp(&f), tr.cmp(&r)) {
            (std::cmp::Ordering::Greater, _) => KeyCode::ArrowRight,
            (std::cmp::Ordering::Less, _) => KeyCode::ArrowLeft,
            (_, std::cmp::Ordering::Greater) => KeyCode::ArrowUp,
            (_, std::cmp::Ordering::Less) => KeyCode::ArrowDown,
            _ => return,
        };
        press(app, key);
    }
    panic!("the cursor never reached {target}");
}

fn turns_played(app: &App) -> usize {
    app.world().resource::<GameState>().game().turns().len()
}

fn pt(s: &str) -> u8 {
    fanorona_engine::geometry::parse_point(s).unwrap()
}

/// Plays one step with the keyboard: select its piece (unless it relays), then act on its destination, answering
/// the approach-or-withdrawal choice with A or W when the step could capture either way.
fn play_with_keys(app: &mut App, step: Step) {
    let pos = position(app);
    if !pos.in_relay() {
        cursor_to(app, step.from);
        press(app, KeyCode::Enter);
    }
    cursor_to(app, step.to);
    press(app, KeyCode::Space);
    let ways = pos.steps().iter().filter(|s| s.from == step.from && s.to == step.to).count();
    if ways == 2 {
        press(app, if step.kind == StepKind::Approach { KeyCode::KeyA } else { KeyCode::KeyW });
    }
}

#[test]
fn keyboard_plays_an_approach_from_the_start() {
    let mut app = keyboard_app(Rules::default());
    let start = position(&app);
    // The first arrow only shows the cursor, on a piece that can move.
    press(&mut app, KeyCode::ArrowUp);
    let shown = key_cursor(&app).expect("an arrow shows the cursor");
    assert!(start.steps().iter().any(|s| s.from == shown));
    assert_eq!(position(&app), start);
    cursor_to(&mut app, pt("d2"));
    press(&mut app, KeyCode::Enter);
    cursor_to(&mut app, pt("e3"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(turns_played(&app), 1, "d2-e3 ends the turn");
    let turn = app.world().resource::<GameState>().game().turns()[0].clone();
    assert_eq!(turn, "d2-e3A".parse().unwrap());
    let pos = position(&app);
    assert_eq!(
        (pos.piece_at(pt("e3")), pos.piece_at(pt("f4")), pos.piece_at(pt("g5"))),
        (Some(Side::White), None, None)
    );
    assert!(log(&mut app).rejected.is_empty());
    // U takes it back.
    press(&mut app, KeyCode::KeyU);
    assert_eq!(position(&app), start);
}

/// Plays first turns until the side to move has a turn of at least two steps, and returns it.
fn reach_a_relay(app: &mut App) -> Turn {
    for _ in 0..80 {
        let turns = position(app).legal_turns();
        if let Some(t) = turns.iter().find(|t| t.steps.iter().filter(|s| s.kind != StepKind::Stop).count() >= 2) {
            return t.clone();
        }
        send(app, MoveAction::Turn(turns[0].clone()));
    }
    panic!("no relay came up");
}

#[test]
fn keyboard_continues_a_relay_and_ends_it_with_e() {
    let mut app = keyboard_app(Rules::default());
    let turn = reach_a_relay(&mut app);
    let before = turns_played(&app);
    play_with_keys(&mut app, turn.steps[0]);
    assert!(position(&app).in_relay(), "the relay goes on after {}", turn.steps[0]);
    play_with_keys(&mut app, turn.steps[1]);
    let game = app.world().resource::<GameState>().game();
    let played: Vec<Step> = if game.turns().len() > before {
        game.turns().last().unwrap().steps.clone()
    } else {
        game.pending_steps().to_vec()
    };
    assert_eq!(played[..2], turn.steps[..2]);
    if position(&app).in_relay() {
        assert_eq!(turns_played(&app), before);
        press(&mut app, KeyCode::KeyE);
    }
    assert_eq!(turns_played(&app), before + 1, "E ends the relay");
    assert!(log(&mut app).rejected.is_empty());
}

/// Clicks point `p` as the pointer would.
fn click(app: &mut App, p: u8) {
    app.world_mut().write_message(fanorona::play::input::PointClicked(p));
    app.update();
}

fn selected(app: &App) -> Option<u8> {
    app.world().resource::<fanorona::play::input::Selection>().piece
}

#[test]
fn a_relay_ended_by_key_leaves_nothing_selected_for_the_next_turn() {
    let mut app = keyboard_app(Rules::default());
    let turn = reach_a_relay(&mut app);
    let mover = position(&app).side_to_move();
    let first = turn.steps[0];
    play_with_keys(&mut app, first);
    assert!(position(&app).in_relay(), "{first} leaves the relay open");
    app.update();
    assert_eq!(selected(&app), Some(first.to), "the relaying piece is selected");
    // The player stops there; then the opponent plays.
    press(&mut app, KeyCode::KeyE);
    assert!(!position(&app).in_relay());
    assert_eq!(selected(&app), None, "a finished turn leaves nothing selected");
    let answer = position(&app).legal_turns()[0].clone();
    send(&mut app, MoveAction::Turn(answer));
    assert_eq!(position(&app).side_to_move(), mover);
    // A click on the piece that relayed selects it (it used to take the stale selection back instead).
    // (Another piece that can move where the answer left that one none.)
    let steps = position(&app).steps();
    let piece = if steps.iter().any(|s| s.from == first.to) { first.to } else { steps[0].from };
    click(&mut app, piece);
    assert_eq!(selected(&app), Some(piece));
}

#[test]
fn enter_on_the_relaying_piece_ends_the_turn() {
    let mut app = keyboard_app(Rules::default());
    let turn = reach_a_relay(&mut app);
    let before = turns_played(&app);
    play_with_keys(&mut app, turn.steps[0]);
    assert!(position(&app).in_relay());
    cursor_to(&mut app, turn.steps[0].to);
    press(&mut app, KeyCode::Enter);
    assert_eq!(turns_played(&app), before + 1, "Enter on the relaying piece ends the turn");
    assert_eq!(app.world().resource::<GameState>().game().turns().last().unwrap().steps[0], turn.steps[0]);
    assert!(log(&mut app).rejected.is_empty());
}

#[test]
fn keyboard_answers_the_approach_or_withdrawal_choice() {
    let mut app = keyboard_app(Rules::default());
    let start = position(&app);
    // d3-e3 captures f3 by approach or c3 by withdrawal: the step waits for the answer.
    for (key, gone, kept) in [(KeyCode::KeyW, "c3", "f3"), (KeyCode::KeyA, "f3", "c3"), (KeyCode::Digit2, "c3", "f3")] {
        cursor_to(&mut app, pt("d3"));
        press(&mut app, KeyCode::Enter);
        cursor_to(&mut app, pt("e3"));
        press(&mut app, KeyCode::Enter);
        assert_eq!(position(&app), start, "the step waits for the choice");
        assert_eq!(turns_played(&app), 0);
        press(&mut app, key);
        assert_eq!(turns_played(&app), 1, "{key:?} answers the choice");
        let pos = position(&app);
        assert_eq!((pos.piece_at(pt(gone)), pos.piece_at(pt(kept))), (None, Some(Side::Black)));
        press(&mut app, KeyCode::KeyU);
        assert_eq!(position(&app), start);
    }
    assert!(log(&mut app).rejected.is_empty());
}

#[test]
fn backspace_cancels_and_escape_pauses() {
    let mut app = keyboard_app(Rules::default());
    let start = position(&app);
    // A cancelled selection: the destination is then just an empty point.
    cursor_to(&mut app, pt("d2"));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Backspace);
    cursor_to(&mut app, pt("e3"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(position(&app), start);
    // A cancelled choice: A then answers nothing.
    cursor_to(&mut app, pt("d3"));
    press(&mut app, KeyCode::Enter);
    cursor_to(&mut app, pt("e3"));
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::KeyA);
    assert_eq!(position(&app), start);
    assert_eq!(turns_played(&app), 0);
    assert!(log(&mut app).rejected.is_empty() && log(&mut app).steps.is_empty());
    // Backspace with nothing picked does nothing; Escape pauses.
    press(&mut app, KeyCode::Backspace);
    assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Running);
    press(&mut app, KeyCode::Escape);
    assert_eq!(*app.world().resource::<State<Pause>>().get(), Pause::Paused);
}

#[test]
fn the_cursor_stays_on_either_board() {
    for variant in [Variant::Tsivy, Variant::Dimy] {
        let mut app = keyboard_app(Rules { variant, ..Rules::default() });
        let g = variant.geometry();
        press(&mut app, KeyCode::ArrowLeft);
        for (key, corner) in
            [(KeyCode::ArrowRight, (variant.width() - 1, 0)), (KeyCode::ArrowUp, (variant.width() - 1, 4))]
        {
            for _ in 0..12 {
                press(&mut app, key);
            }
            if key == KeyCode::ArrowRight {
                for _ in 0..6 {
                    press(&mut app, KeyCode::ArrowDown);
                }
            }
            assert_eq!(key_cursor(&app), g.point(corner.0, corner.1), "{variant}: {key:?}");
        }
        // H, J, K, L move it too.
        press(&mut app, KeyCode::KeyH);
        press(&mut app, KeyCode::KeyJ);
        assert_eq!(key_cursor(&app), g.point(variant.width() - 2, 3));
    }
}
