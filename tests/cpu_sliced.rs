//! The CPU player as the web build runs it: every search on the main thread, in short slices between frames
//! ([`CpuThreading::Sliced`]). Whole games must play out exactly as with threads, and no single frame may hold
//! more than a slice of thinking.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::cpu::{CpuLimits, CpuPlayer, CpuThreading, Hint, HintRequest};
use fanorona::play::referee::*;
use fanorona_engine::levels::Level;
use fanorona_engine::search::Limits;
use fanorona_engine::{Rules, Side};
use std::time::Duration;

fn app(players: [Player; 2], slice: Duration) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin));
    app.insert_resource(CpuThreading::Sliced(slice));
    app.insert_resource(CpuLimits(Limits {
        depth: Some(4),
        movetime: Some(Duration::from_millis(150)),
        ..Limits::default()
    }));
    app.insert_resource(MatchSetup { rules: Rules::default(), players, seed: 9, vela_match: false });
    app.update();
    app.world_mut().write_message(NewGame);
    app.update();
    app
}

#[test]
fn every_level_plays_in_slices() {
    for level in Level::ALL {
        let mut app = app([Player::Cpu(level), Player::Cpu(level)], Duration::from_millis(2));
        let mut frames = 0;
        while app.world().resource::<GameState>().game().turns().len() < 4 && frames < 20_000 {
            app.update();
            frames += 1;
        }
        let game = app.world().resource::<GameState>().game();
        assert!(game.turns().len() >= 4, "{level:?}: {} turns in {frames} frames", game.turns().len());
        // Sliced thinking takes many frames per turn: proof that no search ran to its end inside one frame.
        let started = app.world().resource::<CpuPlayer>().started;
        assert!(frames as u64 > started, "{level:?}: {frames} frames for {started} searches");
    }
}

#[test]
fn hints_and_draw_offers_are_answered_in_slices() {
    let mut app = app([Player::Human, Player::Cpu(Level::Advanced)], Duration::from_millis(2));
    app.world_mut().write_message(HintRequest);
    let mut frames = 0;
    while app.world().resource::<Hint>().answer.is_none() && frames < 5_000 {
        app.update();
        frames += 1;
    }
    let (_, turn, _) = app.world().resource::<Hint>().answer.clone().expect("a hint");
    let pos = *app.world().resource::<GameState>().position();
    assert!(pos.legal_turns().contains(&turn));
    assert!(frames > 1, "the hint took several frames");
    app.world_mut().write_message(MoveRequest::new(MoveAction::OfferDraw(Side::White)));
    let mut answered = false;
    for _ in 0..5_000 {
        app.update();
        let state = app.world().resource::<GameState>();
        if state.draw_offer().is_none() {
            answered = true;
            break;
        }
    }
    assert!(answered, "the CPU answered the draw offer");
    // At the start the CPU is not losing: a draw is accepted only when it is not winning, either way the game
    // must be in a consistent state.
    let game = app.world().resource::<GameState>().game();
    assert!(game.is_over() || game.outcome().is_none());
}
