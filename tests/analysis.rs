//! Headless tests of the analysis board: setting a position up by clicks and FEN, playing both sides into a tree of
//! variations, and the engine's best lines (multi-PV) with their arrows, thought in slices as on the web.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::platform::redraw::WakeOn;
use fanorona::play::arrows::{ArrowStyle, BoardArrows};
use fanorona::play::board::BoardFrame;
use fanorona::play::cpu::CpuThreading;
use fanorona::play::input::{BoardEditing, PointClicked, Selection};
use fanorona::play::referee::*;
use fanorona::screens::analysis::{self, Analysis, AnalysisAction, Brush};
use fanorona::state::Screen;
use fanorona_engine::geometry::parse_point;
use fanorona_engine::{Position, Rules, Side, Turn};
use std::time::Duration;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin))
        .init_resource::<Selection>()
        .init_resource::<BoardArrows>()
        .init_resource::<BoardFrame>()
        .init_resource::<BoardEditing>()
        .add_woken_message::<PointClicked>()
        .insert_resource(CpuThreading::Sliced(Duration::from_millis(5)));
    analysis::plugin(&mut app);
    app.update();
    app
}

fn act(app: &mut App, a: AnalysisAction) {
    app.world_mut().write_message(a);
    app.update();
    app.update();
}

fn analysis(app: &App) -> &Analysis {
    app.world().resource::<Analysis>()
}

fn board(app: &App) -> Position {
    *app.world().resource::<GameState>().position()
}

#[test]
fn a_position_set_up_by_clicks_and_fen_is_what_the_board_shows() {
    let mut app = app();
    act(&mut app, AnalysisAction::Open(None));
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Analysis);
    assert_eq!(board(&app), Position::start(&Rules::default()));
    act(&mut app, AnalysisAction::Edit(true));
    assert!(app.world().resource::<BoardEditing>().0, "clicks edit");
    act(&mut app, AnalysisAction::Clear);
    assert_eq!(board(&app).count(Side::White) + board(&app).count(Side::Black), 0);
    for (brush, point) in [(Brush::White, "c1"), (Brush::Black, "c4"), (Brush::White, "e2")] {
        app.world_mut().resource_mut::<Analysis>().brush = brush;
        app.world_mut().write_message(PointClicked(parse_point(point).expect("point")));
        app.update();
        app.update();
    }
    // A second click with the same brush takes the piece away.
    app.world_mut().resource_mut::<Analysis>().brush = Brush::White;
    app.world_mut().write_message(PointClicked(parse_point("e2").expect("point")));
    app.update();
    app.update();
    let pos = board(&app);
    assert_eq!(pos.piece_at(parse_point("c1").expect("point")), Some(Side::White));
    assert_eq!(pos.piece_at(parse_point("c4").expect("point")), Some(Side::Black));
    assert_eq!(pos.count(Side::White), 1);
    assert_eq!(analysis(&app).fen, pos.to_fen());

    act(&mut app, AnalysisAction::LoadFen("2B2/2B2/5/2W2/5 w".into()));
    assert_eq!(board(&app), Position::from_fen("2B2/2B2/5/2W2/5 w").expect("fen"));
    // A bad FEN is reported and changes nothing.
    act(&mut app, AnalysisAction::LoadFen("2B2/2X2/5/2W2/5 w".into()));
    assert!(analysis(&app).fen_error.is_some());
    assert_eq!(board(&app), Position::from_fen("2B2/2B2/5/2W2/5 w").expect("fen"));
}

#[test]
fn turns_played_grow_a_tree_of_variations() {
    let mut app = app();
    act(&mut app, AnalysisAction::Open(None));
    let start = board(&app);
    let turns = start.legal_turns();
    let play = |app: &mut App, turn: &Turn| {
        app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn.clone())));
        app.update();
        app.update();
    };
    play(&mut app, &turns[0]);
    assert_eq!(analysis(&app).current, 1);
    // Both sides are played by the person at the board.
    let reply = board(&app).legal_turns().remove(0);
    play(&mut app, &reply);
    assert_eq!(analysis(&app).tree.path(analysis(&app).current), vec![turns[0].clone(), reply]);
    act(&mut app, AnalysisAction::Back);
    act(&mut app, AnalysisAction::Back);
    assert_eq!(analysis(&app).current, 0);
    assert_eq!(board(&app), start);
    play(&mut app, &turns[1]);
    assert_eq!(analysis(&app).tree.nodes[0].children.len(), 2, "a second variation from the start");
    act(&mut app, AnalysisAction::Goto(1));
    let mut after = start;
    after.play_turn(&turns[0]).expect("legal");
    assert_eq!(board(&app), after);
}

#[test]
fn the_engine_reports_three_different_lines_with_arrows() {
    let mut app = app();
    act(&mut app, AnalysisAction::Open(None));
    for _ in 0..2000 {
        app.update();
        let lines = &analysis(&app).lines;
        if lines.len() == 3 && lines.iter().all(|l| l.depth >= 3) {
            break;
        }
    }
    let lines = analysis(&app).lines.clone();
    assert_eq!(lines.len(), 3, "three lines");
    let firsts: Vec<&Turn> = lines.iter().map(|l| l.pv.first().expect("a turn")).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    let legal = board(&app).legal_turns();
    assert!(firsts.iter().all(|t| legal.contains(t)));
    let arrows = app.world().resource::<BoardArrows>();
    assert_eq!(arrows.paths.len(), 3);
    assert!(arrows.paths.iter().any(|p| p.style == ArrowStyle::Line(0)));
    // Fewer lines asked: fewer shown.
    act(&mut app, AnalysisAction::Lines(1));
    for _ in 0..200 {
        app.update();
        if !analysis(&app).lines.is_empty() {
            break;
        }
    }
    assert_eq!(app.world().resource::<BoardArrows>().paths.len(), 1);
}

#[test]
fn a_turn_of_the_game_shown_before_is_not_taken_into_the_tree() {
    let mut app = app();
    // The title's game plays a turn in the very frame the analysis board opens.
    app.world_mut().write_message(NewGame);
    app.update();
    let turn = board(&app).legal_turns().remove(0);
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn)));
    app.world_mut().write_message(AnalysisAction::Open(None));
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(analysis(&app).current, 0);
    assert!(analysis(&app).tree.nodes[0].children.is_empty());
    assert_eq!(board(&app), Position::start(&Rules::default()));
}
