//! Sleeping when idle, headless: a game waiting for the player asks for no frames and no early wake-up; a move's
//! animation asks for every frame, a search on the pool for a slow clock tick and wakes the loop when it ends,
//! and sliced thinking asks for every frame.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::platform::redraw::{FrameStats, IDLE_WAIT, LoopWaker, THINKING_TICK};
use fanorona::play::board::BoardLayout;
use fanorona::play::cpu::{CpuPlayer, CpuThreading};
use fanorona::play::referee::*;
use fanorona::state::Screen;
use fanorona_engine::Rules;
use fanorona_engine::levels::Level;
use std::time::{Duration, Instant};

/// The player (White) against the CPU, with animations, on the playing screen.
fn new_app(level: Level) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin, LogicPlugin))
        .insert_resource(BoardLayout { variant: Rules::default().variant });
    fanorona::play::animation::plugin(&mut app);
    app.insert_resource(MatchSetup {
        rules: Rules::default(),
        players: [Player::Human, Player::Cpu(level)],
        seed: 7,
        vela_match: false,
    });
    app.update();
    app.world_mut().write_message(NewGame);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app
}

fn stats(app: &App) -> FrameStats {
    *app.world().resource::<FrameStats>()
}

fn busy(app: &App) -> bool {
    app.world().resource::<AnimationsPending>().0
}

/// A legal turn for the player after which the CPU must search: the opening book would answer at once.
fn turn_out_of_book(app: &App) -> fanorona_engine::Turn {
    let pos = *app.world().resource::<GameState>().position();
    let book = fanorona_engine::book::OpeningBook::builtin();
    pos.legal_turns()
        .into_iter()
        .find(|t| {
            let mut after = pos;
            after.play_turn(t).is_ok() && book.moves(&after).is_none()
        })
        .expect("some first turn leaves the book")
}

fn turns(app: &App) -> usize {
    app.world().resource::<GameState>().game().turns().len()
}

/// Runs frames (a few milliseconds apart, as a window would) until `done`, returning how many it took.
fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) -> u32 {
    let start = Instant::now();
    let mut frames = 0;
    while !done(app) {
        assert!(start.elapsed() < Duration::from_secs(30), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(4));
        app.update();
        frames += 1;
    }
    frames
}

/// A game waiting for the player: many updates, none of them asking for another frame or an early wake-up.
fn assert_sleeps(app: &mut App) {
    let before = stats(app);
    for _ in 0..30 {
        app.update();
        assert_eq!(stats(app).last_wait, IDLE_WAIT, "nothing should shorten the sleep");
    }
    assert_eq!(stats(app).redraws_requested, before.redraws_requested, "an idle game asked for frames");
}

#[test]
fn an_idle_game_sleeps_and_a_move_a_search_and_an_answer_wake_it() {
    let mut app = new_app(Level::Novice);
    run_until(&mut app, "the start to settle", |a| !busy(a));
    assert_sleeps(&mut app);

    // The player's turn (what a click sends): its animation asks for every frame while it plays.
    let first = app.world().resource::<GameState>().position().legal_turns()[0].clone();
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(first)));
    let before = stats(&app);
    app.update();
    assert!(busy(&app), "the step animates");
    assert_eq!(stats(&app).redraws_requested, before.redraws_requested + 1, "the animation's first frame asks");
    let wakes = app.world().resource::<LoopWaker>().calls();

    // The CPU answers on the pool: its end wakes the loop by itself, and its turn animates in turn.
    run_until(&mut app, "the CPU's answer", |a| turns(a) == 2);
    assert!(app.world().resource::<LoopWaker>().calls() > wakes, "a finished search wakes the loop");
    run_until(&mut app, "the CPU's turn to be shown", |a| !busy(a));
    assert!(stats(&app).redraws_requested > before.redraws_requested + 2);
    assert_sleeps(&mut app);
}

#[test]
fn a_search_on_the_pool_ticks_the_clock_and_sliced_thinking_asks_for_every_frame() {
    let mut app = new_app(Level::Master);
    run_until(&mut app, "the start to settle", |a| !busy(a));
    let first = turn_out_of_book(&app);
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(first)));
    run_until(&mut app, "the CPU to think", |a| a.world().resource::<CpuPlayer>().thinking().is_some() && !busy(a));
    // The master thinks for a while: between the clock's ticks the loop may sleep.
    app.update();
    assert_eq!(stats(&app).last_wait, THINKING_TICK);
    let asked = stats(&app).redraws_requested;
    app.update();
    assert_eq!(stats(&app).redraws_requested, asked, "a search on the pool needs no frames of its own");

    // The same search in slices (the web) is the frames' work: each one asks for the next.
    let mut sliced = new_app(Level::Master);
    sliced.insert_resource(CpuThreading::Sliced(Duration::from_millis(2)));
    run_until(&mut sliced, "the start to settle", |a| !busy(a));
    let first = turn_out_of_book(&sliced);
    sliced.world_mut().write_message(MoveRequest::new(MoveAction::Turn(first)));
    run_until(&mut sliced, "the CPU to think", |a| a.world().resource::<CpuPlayer>().thinking().is_some() && !busy(a));
    let asked = stats(&sliced).redraws_requested;
    for _ in 0..5 {
        sliced.update();
    }
    assert_eq!(stats(&sliced).redraws_requested, asked + 5, "every slice asks for the next frame");
}

/// What the markers saw in the updates that played a turn: whether its animation was already pending.
#[derive(Resource, Default)]
struct SeenAtTurns(Vec<bool>);

fn note_pending_at_turns(
    mut turns: MessageReader<TurnEnded>,
    busy: Res<AnimationsPending>,
    mut seen: ResMut<SeenAtTurns>,
) {
    for _ in turns.read() {
        seen.0.push(busy.0);
    }
}

#[test]
fn what_is_shown_in_the_update_a_turn_is_played_already_knows_it_animates() {
    // The move arrows and highlights draw in `GameSet::Present`: in the update a turn is played they must see its
    // animation pending, or they mark the turn's captures on pieces that have not moved yet, for a frame or more.
    let mut app = new_app(Level::Novice);
    app.init_resource::<SeenAtTurns>().add_systems(Update, note_pending_at_turns.in_set(GameSet::Present));
    run_until(&mut app, "the start to settle", |a| !busy(a));
    let first = app.world().resource::<GameState>().position().legal_turns()[0].clone();
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(first)));
    run_until(&mut app, "the CPU's answer to be shown", |a| turns(a) == 2 && !busy(a));
    assert_eq!(app.world().resource::<SeenAtTurns>().0, vec![true, true], "the player's turn, then the CPU's");
}
