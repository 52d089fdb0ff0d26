//! Buttons hold still: the screens are laid out by egui headless, in the states a player goes through, and every
//! button keeps its rectangle while texts around it come, go and grow.

mod egui_pass;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy_egui::egui;
use fanorona::LogicPlugin;
use fanorona::platform::redraw::WakeOn;
use fanorona::play::arrows::BoardArrows;
use fanorona::play::board::BoardFrame;
use fanorona::play::cpu::CpuThreading;
use fanorona::play::input::{BoardEditing, PointClicked, Selection};
use fanorona::play::referee::*;
use fanorona::save::persist;
use fanorona::save::storage::Storage;
use fanorona::screens::analysis::{self, AnalysisAction};
use fanorona::screens::puzzles::{self, PuzzleNav, PuzzleRun, Verdict};
use fanorona::screens::widgets::reported_button;
use fanorona::state::Screen;
use fanorona_engine::puzzles::builtin;
use std::time::Duration;

/// The game's logic with the screens under test, and an egui context that the tests run passes of by hand.
fn app(storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    persist::plugin(&mut app, storage.clone(), false);
    app.add_plugins(LogicPlugin)
        .init_resource::<Selection>()
        .init_resource::<BoardArrows>()
        .init_resource::<BoardFrame>()
        .init_resource::<BoardEditing>()
        .add_woken_message::<PointClicked>()
        .insert_resource(CpuThreading::Sliced(Duration::from_millis(5)));
    puzzles::plugin(&mut app);
    analysis::plugin(&mut app);
    fanorona::screens::hud::plugin(&mut app);
    egui_pass::attach(&mut app);
    app.update();
    app
}

/// One frame: the update, then the egui pass that draws the screens.
fn frame(app: &mut App) -> egui::Context {
    app.update();
    egui_pass::draw(app)
}

/// Where the buttons `ids` are after a few frames (egui settles a new layout over a pass or two).
fn buttons(app: &mut App, ids: &[&str]) -> Vec<egui::Rect> {
    let mut ctx = frame(app);
    for _ in 0..3 {
        ctx = frame(app);
    }
    ids.iter().map(|id| reported_button(&ctx, id).unwrap_or_else(|| panic!("button {id} was not drawn"))).collect()
}

const PUZZLE_BUTTONS: [&str; 5] =
    ["puzzle_end_turn", "puzzle_retry", "puzzle_show_solution", "puzzle_next", "puzzle_close"];

#[test]
fn the_puzzle_buttons_hold_still_through_a_wrong_answer_and_a_shown_solution() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let set = builtin();
    // A puzzle whose answer is a relay, so that End turn would come and go as the player plays.
    let (i, puzzle) = set.iter().enumerate().find(|(_, p)| p.solution[0].steps.len() > 1).expect("a relay puzzle");
    app.world_mut().write_message(PuzzleNav::Puzzle(i));
    let at_start = buttons(&mut app, &PUZZLE_BUTTONS);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Puzzle);

    // The first step of the answer: a relay under way.
    let first = puzzle.solution[0].steps[0];
    app.world_mut().write_message(MoveRequest::new(MoveAction::Step(first)));
    let in_relay = buttons(&mut app, &PUZZLE_BUTTONS);
    assert!(app.world().resource::<GameState>().position().in_relay());
    assert_eq!(in_relay, at_start, "a relay under way moved the buttons");

    // A wrong answer from the start: its explanation appears under the buttons.
    app.world_mut().write_message(PuzzleNav::Retry);
    buttons(&mut app, &PUZZLE_BUTTONS);
    let pos = *app.world().resource::<GameState>().position();
    let wrong = pos.legal_turns().into_iter().find(|t| *t != puzzle.solution[0]).expect("another turn");
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(wrong)));
    let after_wrong = buttons(&mut app, &PUZZLE_BUTTONS);
    assert!(matches!(app.world().resource::<PuzzleRun>().verdict, Some(Verdict::Wrong(_))));
    assert_eq!(after_wrong, at_start, "the explanation of a wrong answer moved the buttons");

    app.world_mut().write_message(PuzzleNav::ShowSolution);
    let shown = buttons(&mut app, &PUZZLE_BUTTONS);
    assert_eq!(shown, at_start, "the shown solution moved the buttons");
}

#[test]
fn the_analysis_boards_way_out_holds_still_while_the_engine_reports() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    app.world_mut().write_message(AnalysisAction::Open(None));
    let before = buttons(&mut app, &["analysis_close"]);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Analysis);
    // The engine thinks between frames and its lines come and lengthen.
    let mut later = Vec::new();
    for _ in 0..40 {
        later.push(buttons(&mut app, &["analysis_close"])[0]);
    }
    let analysis = app.world().resource::<analysis::Analysis>();
    assert!(!analysis.lines.is_empty(), "the engine reported lines");
    assert!(later.iter().all(|r| *r == before[0]), "Back moved: {before:?} then {later:?}");
}

const HUD_BUTTONS: [&str; 6] = ["end_turn", "undo", "hint", "offer_draw", "resign", "menu"];

#[test]
fn the_hud_buttons_hold_still_when_a_hint_comes() {
    use fanorona::play::cpu::{Hint, HintRequest};
    use fanorona_engine::levels::Level;
    let storage = Storage::memory();
    let mut app = app(&storage);
    app.insert_resource(MatchSetup {
        rules: fanorona_engine::Rules::default(),
        players: [Player::Human, Player::Cpu(Level::Beginner)],
        seed: 1,
        vela_match: false,
    });
    app.world_mut().write_message(NewGame);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    let mut before = buttons(&mut app, &HUD_BUTTONS);
    while app.world().resource::<AnimationsPending>().0 {
        before = buttons(&mut app, &HUD_BUTTONS);
    }
    app.world_mut().write_message(HintRequest);
    for _ in 0..400 {
        if app.world().resource::<Hint>().answer.is_some() {
            break;
        }
        assert_eq!(buttons(&mut app, &HUD_BUTTONS), before, "the hint being searched moved the buttons");
    }
    assert!(app.world().resource::<Hint>().answer.is_some(), "the hint came");
    assert_eq!(buttons(&mut app, &HUD_BUTTONS), before, "the hint's line moved the buttons");
}
