//! Persistence through the running app: the player's game is saved after every step and resumed by the next
//! start (mid-relay included), settings and stats survive restarts, and damaged files are moved aside with a
//! notice while the game starts normally. Headless, on a memory or folder [`Storage`].

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::audio::SoundSettings;
use fanorona::i18n::{self, Lang};
use fanorona::play::animation::AnimationSpeed;
use fanorona::play::referee::*;
use fanorona::play::setup::SetupForm;
use fanorona::save::persist::{self, Notices, OnlinePrefs, PlayerStats, Resume, SavedGame, SettingsDoc};
use fanorona::save::records::KeepGames;
use fanorona::save::storage::{Document, Storage};
use fanorona::state::Screen;
use fanorona::theme::Theme;
use fanorona_engine::levels::Level;
use fanorona_engine::{Record, Rules, Side, Turn};

/// The language is global to the process: tests that start the game (which sets it) take turns.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A fresh run of the game's logic on `storage`, as a start of the program would do it.
fn start(storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    persist::plugin(&mut app, storage.clone(), true);
    app.add_plugins(LogicPlugin);
    for _ in 0..3 {
        app.update();
    }
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn play(app: &mut App, turn: &str) {
    let turn: Turn = turn.parse().unwrap();
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn)));
    app.update();
    app.update();
}

/// Plays the first legal turn (single-step turns first, so that no relay is left open).
fn play_any(app: &mut App) {
    let pos = *app.world().resource::<GameState>().position();
    let turns = pos.legal_turns();
    let t = turns.iter().find(|t| t.len() == 1).unwrap_or(&turns[0]).clone();
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(t)));
    app.update();
    app.update();
}

fn new_hot_seat_game(app: &mut App) {
    app.insert_resource(MatchSetup {
        rules: Rules::default(),
        players: [Player::Human, Player::Human],
        seed: 5,
        vela_match: true,
    });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.world_mut().write_message(NewGame);
    app.update();
    app.update();
}

#[test]
fn the_game_in_progress_is_resumed_at_the_next_start_mid_relay_included() {
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    assert_eq!(screen(&app), Screen::Title, "nothing to resume on a first start");
    new_hot_seat_game(&mut app);
    play(&mut app, "d2-e3A");
    play_any(&mut app);
    for _ in 0..20 {
        let pos = *app.world().resource::<GameState>().position();
        if pos.side_to_move() == Side::White && pos.legal_turns().iter().any(|t| t.len() > 1) {
            break;
        }
        play_any(&mut app);
    }
    // White starts a relay and stops in its middle: the save has the step played so far.
    let pos = *app.world().resource::<GameState>().position();
    let relay = pos.legal_turns().into_iter().find(|t| t.len() > 1).expect("the test position has a relay for White");
    app.world_mut().write_message(MoveRequest::new(MoveAction::Step(relay.steps[0])));
    app.update();
    app.update();
    let before = app.world().resource::<GameState>().game().clone();
    assert_eq!(before.pending_steps(), &relay.steps[..1]);
    drop(app);

    let mut app = start(&storage);
    assert_eq!(screen(&app), Screen::Playing, "an unfinished game is resumed at start");
    let after = app.world().resource::<GameState>().game().clone();
    assert_eq!(after.turns(), before.turns());
    assert_eq!(after.pending_steps(), before.pending_steps());
    assert_eq!(after.position(), before.position());
    assert_eq!(after.turn_starts(), before.turn_starts());
    let setup = app.world().resource::<MatchSetup>().clone();
    assert_eq!((setup.players, setup.seed, setup.vela_match), ([Player::Human; 2], 5, true));
    // The relay goes on where it stopped.
    app.world_mut().write_message(MoveRequest::new(MoveAction::Step(relay.steps[1])));
    app.update();
    let game = app.world().resource::<GameState>().game();
    assert!(game.pending_steps().len() == 2 || game.turns().len() == before.turns().len() + 1, "the relay went on");
}

#[test]
fn the_title_game_is_never_saved() {
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    app.insert_resource(MatchSetup { players: [Player::Cpu(Level::Beginner); 2], ..MatchSetup::default() });
    app.world_mut().write_message(NewGame);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Title);
    assert_eq!(storage.read_text(SavedGame::NAME).unwrap(), None);
}

#[test]
fn reviewing_a_finished_game_leaves_nothing_to_resume() {
    // Found by the web end-to-end test: the replay loads the game's first position in the frame the review is asked
    // for, still on the game-over screen, and that empty game was saved as the game in progress, so the next start
    // opened an empty two-player game instead of the title.
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    fanorona::screens::records::plugin(&mut app);
    app.init_resource::<fanorona::play::board::BoardFrame>();
    new_hot_seat_game(&mut app);
    play(&mut app, "d2-e3A");
    play_any(&mut app);
    let side = app.world().resource::<GameState>().position().side_to_move();
    app.world_mut().write_message(MoveRequest::new(MoveAction::Resign(side)));
    app.update();
    // What the game-over window's plugin does once the last animations are over.
    assert!(app.world().resource::<GameState>().game().is_over());
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::GameOver);
    app.update();
    assert_eq!(screen(&app), Screen::GameOver);
    let game = app.world().resource::<GameState>().game().clone();
    let turns = game.turns().len();
    let setup = app.world().resource::<MatchSetup>().clone();
    app.world_mut().write_message(fanorona::screens::records::ReplayGame {
        game,
        white: "White".into(),
        black: "Black".into(),
        review: false,
        finished: Some(setup),
    });
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Replay);
    // The finished game was kept as a record by itself, so nothing is lost by leaving it.
    let kept = storage.list_records();
    assert!(kept.len() == 1 && kept[0].ends_with("-hot-seat"), "{kept:?}");
    assert_eq!(Record::load(&storage.read_record(&kept[0]).unwrap().unwrap()).unwrap().turns().len(), turns);
    // Leaving the review of the game just finished returns to it, over, in its game-over window.
    app.world_mut().write_message(fanorona::screens::records::ReplayNav::Close);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::GameOver);
    assert_eq!(storage.list_records(), kept, "the game shown again is not kept twice");
    let state = app.world().resource::<GameState>();
    assert!(state.game().is_over() && state.game().turns().len() == turns);
    assert!(app.world().resource::<MatchSetup>().players.iter().all(|p| *p == Player::Human));
    drop(app);
    let app = start(&storage);
    assert_eq!(screen(&app), Screen::Title, "the finished game is not resumed, nor an empty one");
}

#[test]
fn settings_survive_a_restart() {
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    *app.world_mut().resource_mut::<AnimationSpeed>() = AnimationSpeed::Fast;
    app.world_mut().resource_mut::<SoundSettings>().music = 0.1;
    *app.world_mut().resource_mut::<Theme>() = Theme::Sand;
    app.insert_resource(SetupForm { level: 5, ..SetupForm::default() });
    app.insert_resource(OnlinePrefs { server: "fanorona.example".into(), name: "Rasoa".into() });
    app.insert_resource(KeepGames(false));
    i18n::set_language(Lang::Fr);
    // Saved a moment after the last change.
    let until = std::time::Instant::now() + std::time::Duration::from_millis(700);
    while std::time::Instant::now() < until {
        app.update();
    }
    i18n::set_language(Lang::En);
    let doc: SettingsDoc = fanorona::save::storage::decode(&storage.read_text("settings").unwrap().unwrap()).unwrap();
    assert_eq!((doc.language, doc.theme, doc.setup.level), (Lang::Fr, Theme::Sand, 5));
    drop(app);
    let app = start(&storage);
    assert_eq!(*app.world().resource::<AnimationSpeed>(), AnimationSpeed::Fast);
    assert_eq!(app.world().resource::<SoundSettings>().music, 0.1);
    assert_eq!(*app.world().resource::<Theme>(), Theme::Sand);
    assert_eq!(app.world().resource::<SetupForm>().level, 5);
    let online = app.world().resource::<OnlinePrefs>();
    assert_eq!((online.server.as_str(), online.name.as_str()), ("fanorona.example", "Rasoa"));
    assert_eq!(*app.world().resource::<KeepGames>(), KeepGames(false));
    assert_eq!(i18n::language(), Lang::Fr);
    i18n::set_language(Lang::En);
}

#[test]
fn damaged_files_are_moved_aside_with_a_notice_and_the_game_starts() {
    let _serial = serial();
    let dir = std::env::temp_dir().join(format!("fanorona-persist-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let storage = Storage::in_dir(&dir);
    storage.write_text("settings", "(version: 1, content: (master_volume: 0.5, muted: tru").unwrap();
    storage.write_text("game", "(version: 99, content: ())").unwrap();
    storage.write_text("stats", "\u{0}\u{1} not a document").unwrap();
    let mut app = start(&storage);
    assert_eq!(screen(&app), Screen::Title, "the game starts normally");
    let notices = app.world().resource::<Notices>().0.clone();
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("settings.broken-1")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("another version")), "{notices:?}");
    for name in ["settings", "game", "stats"] {
        assert!(dir.join(format!("{name}.broken-1.ron")).exists(), "{name} kept aside");
        assert!(!dir.join(format!("{name}.ron")).exists(), "{name} is free");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("game.broken-1.ron")).unwrap(),
        "(version: 99, content: ())",
        "kept byte for byte"
    );
    // Play goes on and saves anew.
    new_hot_seat_game(&mut app);
    play(&mut app, "d2-e3A");
    assert!(dir.join("game.ron").exists());
    assert!(!app.world().resource::<Resume>().unfinished() || dir.join("game.ron").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_saved_game_with_an_illegal_turn_is_moved_aside() {
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    new_hot_seat_game(&mut app);
    play(&mut app, "d2-e3A");
    drop(app);
    let text = storage.read_text("game").unwrap().unwrap();
    assert!(text.contains("1. d2-e3A"), "{text}");
    storage.write_text("game", &text.replace("1. d2-e3A", "1. a1-a2")).unwrap();
    let app = start(&storage);
    assert_eq!(screen(&app), Screen::Title);
    assert_eq!(app.world().resource::<Notices>().0.len(), 1);
    assert!(storage.names().contains(&"game.broken-1".to_string()));
}

#[test]
fn stats_count_the_players_games_once() {
    let _serial = serial();
    let storage = Storage::memory();
    let mut app = start(&storage);
    new_hot_seat_game(&mut app);
    play(&mut app, "d2-e3A");
    play_any(&mut app);
    app.world_mut().write_message(MoveRequest::new(MoveAction::Resign(Side::White)));
    app.update();
    app.update();
    let stats = app.world().resource::<PlayerStats>().0.clone();
    assert_eq!((stats.games_played, stats.games_finished), (1, 1));
    assert_eq!(stats.results["hot-seat"].losses, 1, "Black won the hot-seat game");
    assert!(stats.most_pieces >= 1 && stats.longest_relay >= 1);
    drop(app);
    let app = start(&storage);
    assert_eq!(app.world().resource::<PlayerStats>().0, stats, "stats survive a restart");
    assert_eq!(screen(&app), Screen::Title, "a finished game is not resumed");
}
