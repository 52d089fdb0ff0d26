//! Headless tests of the game review: a scripted game with a known blunder is reviewed in slices (as on the web),
//! the blunder is marked with the right better turn drawn as arrows, and play goes on from a reviewed position.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::arrows::{ArrowStyle, BoardArrows};
use fanorona::play::board::BoardFrame;
use fanorona::play::cpu::CpuThreading;
use fanorona::play::referee::*;
use fanorona::screens::records::{self, Replay, ReplayGame, ReplayNav};
use fanorona::screens::review::{self, Review, ReviewLimits};
use fanorona::state::Screen;
use fanorona_engine::levels::Level;
use fanorona_engine::review::{Class, Note};
use fanorona_engine::search::Limits;
use fanorona_engine::{Game, Position, Rules, Side, Turn, Variant};
use std::time::Duration;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin))
        .init_resource::<BoardArrows>()
        .init_resource::<BoardFrame>()
        .insert_resource(CpuThreading::Sliced(Duration::from_millis(5)))
        .insert_resource(ReviewLimits(Limits::depth(3)));
    records::plugin(&mut app);
    review::plugin(&mut app);
    app.update();
    app
}

/// White captures one piece by approach where the withdrawal took two, and Black's answer takes White's last piece.
fn blundered_game() -> Game {
    let rules = Rules { variant: Variant::Dimy, ..Rules::default() };
    let pos = Position::from_fen_with_rules("2B2/2B2/2W2/5/2B2 w", &rules).expect("fen");
    let mut game = Game::from_position(pos, rules);
    for turn in ["c3-c2A", "c4-c3A"] {
        game.play_turn(&turn.parse::<Turn>().expect("notation")).expect("legal");
    }
    assert!(game.is_over());
    game
}

fn reviewed(app: &mut App) -> Vec<Option<fanorona_engine::review::TurnReview>> {
    for _ in 0..200 {
        app.update();
        if app.world().get_resource::<Review>().is_some_and(|r| r.finished()) {
            break;
        }
    }
    app.world().resource::<Review>().turns.clone()
}

#[test]
fn a_blunder_is_marked_with_the_better_turn_and_its_arrows() {
    let mut app = app();
    let game = blundered_game();
    app.world_mut().write_message(ReplayGame {
        game: game.clone(),
        white: "Ana".into(),
        black: "Bako".into(),
        review: true,
        finished: None,
    });
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Replay);
    let turns = reviewed(&mut app);
    let first = turns[0].clone().expect("the first turn is reviewed");
    assert_eq!(first.class, Class::Blunder, "{first:?}");
    assert_eq!(first.best, "c3-c2W".parse::<Turn>().expect("notation"));
    assert!(matches!(first.note, Note::AllowsForcedLoss | Note::MissedRelay { .. } | Note::AllowedCapture { .. }));
    let second = turns[1].clone().expect("the second turn is reviewed");
    assert!(matches!(second.class, Class::Best | Class::Forced), "{second:?}");

    // At the start the board shows the blunder as played and the better turn, and not the last turn's arrows.
    let arrows = app.world().resource::<BoardArrows>().clone();
    assert!(arrows.hide_last);
    assert_eq!(arrows.paths.len(), 2);
    assert_eq!(arrows.paths[0].style, ArrowStyle::Last);
    assert_eq!(arrows.paths[1].style, ArrowStyle::Best);
    assert_eq!(arrows.paths[1].captured.count_ones(), 2, "the withdrawal takes two");

    // Black's turn was the best: only the turn as played is drawn.
    app.world_mut().write_message(ReplayNav::To(1));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Replay>().shown(), 1);
    let arrows = app.world().resource::<BoardArrows>().clone();
    assert_eq!(arrows.paths.len(), 1);
    assert_eq!(arrows.paths[0].style, ArrowStyle::Last);

    // White's summary counts one blunder; Black's play was perfect.
    let review = app.world().resource::<Review>();
    let white = fanorona_engine::review::summary(&review.of_side(Side::White));
    let black = fanorona_engine::review::summary(&review.of_side(Side::Black));
    assert_eq!(white.counts[Class::Blunder.index()], 1);
    assert!(white.accuracy < black.accuracy);
}

#[test]
fn play_on_from_a_reviewed_position_against_the_cpu() {
    let mut app = app();
    app.world_mut().write_message(ReplayGame {
        game: blundered_game(),
        white: "Ana".into(),
        black: "Bako".into(),
        review: true,
        finished: None,
    });
    app.update();
    app.update();
    reviewed(&mut app);
    app.world_mut().write_message(ReplayNav::PlayVsCpu(Level::Beginner));
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    assert!(app.world().get_resource::<Review>().is_none(), "the review ends with the replay");
    let setup = app.world().resource::<MatchSetup>();
    // The start is shown, White to move: the person takes White.
    assert_eq!(setup.players, [Player::Human, Player::Cpu(Level::Beginner)]);
    assert_eq!(app.world().resource::<GameState>().game().turns().len(), 0);
}

#[test]
fn a_loaded_record_is_reviewed_as_the_game_played() {
    let game = blundered_game();
    let mut played = app();
    played.world_mut().write_message(ReplayGame {
        game: game.clone(),
        white: "A".into(),
        black: "B".into(),
        review: true,
        finished: None,
    });
    played.update();
    played.update();
    let from_game = reviewed(&mut played);

    let mut loaded = app();
    let setup =
        MatchSetup { rules: *game.rules(), players: [Player::Human, Player::Human], seed: 1, vela_match: false };
    let text = records::record_text(&game, &setup, "2026-11-23");
    loaded.world_mut().write_message(fanorona::screens::records::OpenRecord(text));
    loaded.update();
    loaded.update();
    loaded.world_mut().write_message(fanorona::screens::records::StartReview);
    loaded.update();
    let from_record = reviewed(&mut loaded);
    assert_eq!(from_game.len(), 2);
    assert!(from_game.iter().all(Option::is_some));
    assert_eq!(from_game, from_record);
}
