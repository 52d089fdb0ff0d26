//! Headless tests of the puzzle mode: a wrong answer is explained and counted once, a multi-turn puzzle is played
//! with the opponent's replies, the rating moves and is kept with the stats, and a shown solution is played out.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::arrows::BoardArrows;
use fanorona::play::board::BoardFrame;
use fanorona::play::input::Selection;
use fanorona::play::referee::*;
use fanorona::save::persist::{self, PlayerStats, Stats};
use fanorona::save::storage::{Loaded, Storage};
use fanorona::screens::puzzles::{self, PuzzleNav, PuzzleRun, Verdict};
use fanorona::state::Screen;
use fanorona_engine::puzzles::{Kind, builtin};
use fanorona_engine::{Position, Turn};

fn app(storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    persist::plugin(&mut app, storage.clone(), false);
    app.add_plugins(LogicPlugin)
        .init_resource::<Selection>()
        .init_resource::<BoardArrows>()
        .init_resource::<BoardFrame>();
    puzzles::plugin(&mut app);
    app.update();
    app
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

fn play(app: &mut App, turn: &Turn) {
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn.clone())));
    frames(app, 3);
}

fn run(app: &App) -> PuzzleRun {
    app.world().resource::<PuzzleRun>().clone()
}

fn board(app: &App) -> Position {
    *app.world().resource::<GameState>().position()
}

#[test]
fn a_wrong_answer_counts_once_and_the_right_one_solves() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let set = builtin();
    let (i, puzzle) =
        set.iter().enumerate().find(|(_, p)| p.kind == Kind::BiggestRelay).expect("a biggest-relay puzzle");
    app.world_mut().write_message(PuzzleNav::Puzzle(i));
    frames(&mut app, 2);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Puzzle);
    assert_eq!(board(&app), puzzle.position);
    let right = puzzle.solution[0].clone();
    let wrong = puzzle.position.legal_turns().into_iter().find(|t| *t != right).expect("another legal turn");
    play(&mut app, &wrong);
    assert!(matches!(run(&app).verdict, Some(Verdict::Wrong(_))), "{:?}", run(&app).verdict);
    let after_miss = app.world().resource::<PlayerStats>().0.puzzles.clone();
    assert_eq!(after_miss.attempts, 1);
    assert!(after_miss.rating < 1200.0, "a miss lowers the rating");

    app.world_mut().write_message(PuzzleNav::Retry);
    frames(&mut app, 2);
    assert_eq!(board(&app), puzzle.position, "set up again");
    play(&mut app, &right);
    assert_eq!(run(&app).verdict, Some(Verdict::Solved));
    let stats = app.world().resource::<PlayerStats>().0.puzzles.clone();
    assert_eq!(stats, after_miss, "only the first attempt counts");
    let Loaded::Found(saved) = storage.load::<Stats>() else { panic!("the stats were saved") };
    assert_eq!(saved.puzzles, after_miss);
}

#[test]
fn a_win_in_n_is_played_with_the_replies_and_raises_the_rating() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let set = builtin();
    let (i, puzzle) =
        set.iter().enumerate().find(|(_, p)| matches!(p.kind, Kind::WinIn(_))).expect("a win-in-N puzzle");
    app.world_mut().write_message(PuzzleNav::Puzzle(i));
    frames(&mut app, 2);
    for (k, turn) in puzzle.solution.iter().enumerate().step_by(2) {
        assert_eq!(Some(board(&app)), puzzle.position_at(k), "before solver turn {k}");
        play(&mut app, turn);
        frames(&mut app, 3);
    }
    assert_eq!(run(&app).verdict, Some(Verdict::Solved));
    let p = app.world().resource::<PlayerStats>().0.puzzles.clone();
    assert_eq!((p.attempts, p.solved), (1, 1));
    assert!(p.rating > 1200.0);
}

#[test]
fn the_solution_is_shown_on_the_board() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let set = builtin();
    let (i, puzzle) = set.iter().enumerate().max_by_key(|(_, p)| p.solution.len()).expect("a puzzle");
    app.world_mut().write_message(PuzzleNav::Puzzle(i));
    frames(&mut app, 2);
    app.world_mut().write_message(PuzzleNav::ShowSolution);
    frames(&mut app, 6 * puzzle.solution.len() + 4);
    assert_eq!(run(&app).verdict, Some(Verdict::Shown));
    assert_eq!(Some(board(&app)), puzzle.position_at(puzzle.solution.len()));
    assert_eq!(app.world().resource::<PlayerStats>().0.puzzles.attempts, 0, "a shown solution is not rated");
}

#[test]
fn open_picks_a_puzzle_near_the_rating() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    app.world_mut().write_message(PuzzleNav::Open);
    frames(&mut app, 2);
    let r = run(&app);
    let p = r.puzzle().expect("a puzzle");
    assert!(r.set.len() >= 300);
    // Among the twelve nearest to 1200 of hundreds: not far from it.
    let mut gaps: Vec<f32> = r.set.iter().map(|q| (q.rating as f32 - 1200.0).abs()).collect();
    gaps.sort_by(f32::total_cmp);
    assert!((p.rating as f32 - 1200.0).abs() <= gaps[11]);
}
