//! Headless tests of game records in the game: export through storage, import with its error reports, and the replay
//! (stepping, animating one turn forward, "Play from here"), driven by the messages the buttons send.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::referee::*;
use fanorona::save::storage::Storage;
use fanorona::screens::records::{self, ExportRecord, OpenRecord, RecordNotice, RecordsUi, Replay, ReplayNav};
use fanorona::state::Screen;
use fanorona_engine::levels::Level;
use fanorona_engine::{Game, Position, Record, Rules, Side, Turn};

fn app(players: [Player; 2], storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin));
    records::plugin(&mut app);
    app.insert_resource(storage.clone());
    app.insert_resource(MatchSetup { rules: Rules::default(), players, seed: 7, vela_match: false });
    app.update();
    app.world_mut().write_message(NewGame);
    app.update();
    app
}

fn state(app: &App) -> &GameState {
    app.world().resource::<GameState>()
}

fn position(app: &App) -> Position {
    *state(app).position()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn send(app: &mut App, action: MoveAction) {
    app.world_mut().write_message(MoveRequest::new(action));
    app.update();
}

/// Plays `n` turns, choosing among the legal ones by a fixed pattern so that captures and relays come up.
fn play_turns(app: &mut App, n: usize) {
    for i in 0..n {
        let turns = position(app).legal_turns();
        let turn = turns[(i * 7 + 3) % turns.len()].clone();
        send(app, MoveAction::Turn(turn));
    }
}

/// A game of `n` turns played by the engine alone, and its record text.
fn sample_record(n: usize) -> (Game, String) {
    let mut game = Game::new(Rules::default());
    for i in 0..n {
        let turns = game.position().legal_turns();
        game.play_turn(&turns[(i * 5 + 1) % turns.len()]).unwrap();
    }
    let text = Record::from_game(&game, "Ana", "Bema", "2026-01-02").to_string();
    (game, text)
}

fn assert_same_game(a: &Game, b: &Game) {
    assert_eq!(a.rules(), b.rules());
    assert_eq!(a.start_position(), b.start_position());
    assert_eq!(a.turns(), b.turns());
    assert_eq!(a.pending_steps(), b.pending_steps());
    assert_eq!(a.position(), b.position());
    assert_eq!(a.outcome(), b.outcome());
}

fn prefix_position(game: &Game, k: usize) -> Position {
    game.turn_starts()[k]
}

#[test]
fn export_gives_a_record_of_the_identical_game() {
    let storage = Storage::memory();
    let mut app = app([Player::Human, Player::Cpu(Level::Novice)], &storage);
    // The CPU would answer: it may, the export takes whatever the game is then.
    app.world_mut().resource_mut::<MatchSetup>().players = [Player::Human, Player::Human];
    play_turns(&mut app, 6);
    assert_eq!(state(&app).game().turns().len(), 6);
    app.world_mut().write_message(ExportRecord::Save);
    app.update();

    let names = storage.list_records();
    assert_eq!(names.len(), 1, "{names:?}");
    let name = &names[0];
    assert!(name.starts_with("fanorona-20") && name.len() == "fanorona-2026-01-02-030405".len(), "{name}");
    let text = storage.read_record(name).unwrap().unwrap();
    assert!(text.contains("[White \"Player\"]") && text.contains("[Black \"Player\"]"), "{text}");
    let today = fanorona::save::records::date_tag(fanorona::save::records::unix_now());
    assert!(text.contains(&format!("[Date \"{today}\"]")), "{text}");
    let back = Record::load(&text).expect("the exported record loads");
    assert_same_game(&back, state(&app).game());

    let notice = app.world().resource::<RecordNotice>();
    assert!(!notice.error && notice.text.contains(name.as_str()), "{}", notice.text);

    // A second save in the same second gets its own name; a finished game exports its result.
    send(&mut app, MoveAction::Resign(Side::Black));
    app.world_mut().write_message(ExportRecord::Save);
    app.update();
    let names = storage.list_records();
    assert_eq!(names.len(), 2);
    let latest = names.iter().find(|n| *n != name).unwrap();
    let text = storage.read_record(latest).unwrap().unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert_same_game(&Record::load(&text).unwrap(), state(&app).game());
}

#[test]
fn export_mid_relay_keeps_the_steps_played() {
    let storage = Storage::memory();
    let mut app = app([Player::Human, Player::Human], &storage);
    // Find a turn of two captures or more and play only its first step.
    let mut game = Game::new(Rules::default());
    let relay = loop {
        let turns = game.position().legal_turns();
        if let Some(t) = turns.iter().find(|t| t.steps.iter().filter(|s| s.kind.is_capture()).count() >= 2) {
            break t.clone();
        }
        let t = turns[game.turns().len() % turns.len()].clone();
        game.play_turn(&t).unwrap();
        send(&mut app, MoveAction::Turn(t));
        assert!(game.turns().len() < 60, "no relay came up");
    };
    send(&mut app, MoveAction::Step(relay.steps[0]));
    assert!(position(&app).in_relay());
    app.world_mut().write_message(ExportRecord::Save);
    app.update();
    let text = storage.read_record(&storage.list_records()[0]).unwrap().unwrap();
    assert!(text.trim_end().ends_with("..."), "{text}");
    assert_same_game(&Record::load(&text).unwrap(), state(&app).game());
}

#[test]
fn an_illegal_turn_is_reported_and_changes_nothing() {
    let storage = Storage::memory();
    let mut app = app([Player::Human, Player::Human], &storage);
    play_turns(&mut app, 2);
    let (before, generation) = (position(&app), state(&app).generation());

    let (game, text) = sample_record(5);
    // Turn 3 replaced by turn 2: the same move by the wrong side, or from an empty point.
    let turn2 = game.turns()[1].to_string();
    let lines: Vec<String> =
        text.lines().map(|l| if l.starts_with("3. ") { format!("3. {turn2}") } else { l.to_string() }).collect();
    let line = lines.iter().position(|l| l.starts_with("3. ")).unwrap() + 1;
    app.world_mut().write_message(OpenRecord(lines.join("\n")));
    app.update();
    app.update();

    let error = app.world().resource::<RecordsUi>().error.clone().expect("an error is shown");
    assert!(error.contains(&format!("line {line}")), "{error}");
    assert!(error.contains("turn 3"), "{error}");
    assert_eq!(position(&app), before);
    assert_eq!(state(&app).generation(), generation);
    assert_eq!(screen(&app), Screen::Title);
    assert!(app.world().get_resource::<Replay>().is_none());

    // Text that is no record at all is refused too.
    app.world_mut().write_message(OpenRecord("hello".into()));
    app.update();
    assert!(app.world().resource::<RecordsUi>().error.as_deref().is_some_and(|e| e.contains("line 1")));
    assert_eq!(state(&app).generation(), generation);
}

#[test]
fn replay_steps_and_plays_from_here() {
    let storage = Storage::memory();
    // The CPU plays both sides before the replay: it must stop for good once a record is open.
    let mut app = app([Player::Cpu(Level::Beginner), Player::Cpu(Level::Beginner)], &storage);
    let (game, text) = sample_record(8);
    storage.write_record("fanorona-2026-01-02-030405", &text).unwrap();
    app.world_mut().write_message(OpenRecord(storage.read_record("fanorona-2026-01-02-030405").unwrap().unwrap()));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Replay);
    assert_eq!(app.world().resource::<MatchSetup>().players, [Player::Human, Player::Human]);
    assert_eq!(position(&app), prefix_position(&game, 0));
    assert_eq!(app.world().resource::<Replay>().len(), 8);

    let nav = |app: &mut App, n: ReplayNav| {
        app.world_mut().write_message(n);
        app.update();
    };
    // Forward, one turn at a time (these go through the rules, as a turn played).
    let mut log = Vec::new();
    for k in 1..=3 {
        let generation = state(&app).generation();
        nav(&mut app, ReplayNav::Forward);
        assert_eq!(app.world().resource::<Replay>().shown(), k);
        assert_eq!(position(&app), prefix_position(&game, k), "after {k} forward");
        assert_eq!(state(&app).game().turns(), &game.turns()[..k]);
        log.push(state(&app).generation() != generation);
    }
    assert!(log.iter().all(|changed| *changed));
    nav(&mut app, ReplayNav::Back);
    assert_eq!(position(&app), prefix_position(&game, 2));
    assert_eq!(state(&app).game().turns().len(), 2);
    nav(&mut app, ReplayNav::Last);
    assert_eq!(position(&app), *game.position());
    nav(&mut app, ReplayNav::Forward);
    assert_eq!(app.world().resource::<Replay>().shown(), 8, "no further than the end");
    nav(&mut app, ReplayNav::First);
    assert_eq!(position(&app), prefix_position(&game, 0));
    nav(&mut app, ReplayNav::Back);
    assert_eq!(app.world().resource::<Replay>().shown(), 0, "no further back than the start");
    for _ in 0..5 {
        nav(&mut app, ReplayNav::Forward);
    }
    // Many frames: nobody moves during a replay.
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(position(&app), prefix_position(&game, 5));

    nav(&mut app, ReplayNav::PlayFromHere);
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    assert!(app.world().get_resource::<Replay>().is_none());
    assert_eq!(state(&app).game().turns(), &game.turns()[..5]);
    assert_eq!(position(&app), prefix_position(&game, 5));
    // The game goes on from there, for people on both sides.
    let next: Turn = game.turns()[5].clone();
    send(&mut app, MoveAction::Turn(next));
    assert_eq!(position(&app), prefix_position(&game, 6));
}

#[test]
fn game_prefix_is_a_game_of_its_own() {
    let (game, _) = sample_record(6);
    for k in 0..=6 {
        let p = records::game_prefix(&game, k);
        assert_eq!(p.turns(), &game.turns()[..k]);
        assert_eq!(*p.position(), prefix_position(&game, k));
    }
    let mut resigned = game.clone();
    resigned.resign(Side::White).unwrap();
    assert_eq!(records::game_prefix(&resigned, 6).outcome(), resigned.outcome());
    assert_eq!(records::game_prefix(&resigned, 5).outcome(), None);
}

#[test]
fn closing_the_replay_returns_to_the_list() {
    let storage = Storage::memory();
    let mut app = app([Player::Human, Player::Human], &storage);
    let (_, text) = sample_record(3);
    app.world_mut().write_message(OpenRecord(text));
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Replay);
    app.world_mut().write_message(ReplayNav::Close);
    app.update();
    app.update();
    assert_eq!(screen(&app), Screen::Records);
    assert!(app.world().get_resource::<Replay>().is_none());
}
