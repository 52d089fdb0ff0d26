//! Headless tests of the lessons: each lesson sets its position up, a wrong turn is explained and the right turn is
//! drawn, a right turn is praised and remembered with the stats, and the last page starts the first game.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::arrows::{ArrowStyle, BoardArrows};
use fanorona::play::board::BoardFrame;
use fanorona::play::input::Selection;
use fanorona::play::referee::*;
use fanorona::save::persist::{self, PlayerStats, Stats};
use fanorona::save::storage::{Loaded, Storage};
use fanorona::screens::lessons::{self, LESSONS, LessonNav, LessonRun, Verdict};
use fanorona::state::Screen;
use fanorona_engine::geometry::parse_point;
use fanorona_engine::levels::Level;
use fanorona_engine::{Side, Turn, Variant};

fn app(storage: &Storage) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    persist::plugin(&mut app, storage.clone(), false);
    app.add_plugins(LogicPlugin)
        .init_resource::<Selection>()
        .init_resource::<BoardArrows>()
        .init_resource::<BoardFrame>();
    lessons::plugin(&mut app);
    app.update();
    app
}

fn nav(app: &mut App, to: LessonNav) {
    app.world_mut().write_message(to);
    app.update();
    app.update();
}

fn play(app: &mut App, turn: &str) {
    let turn: Turn = turn.parse().expect("notation");
    app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(turn)));
    app.update();
    app.update();
}

fn run(app: &App) -> LessonRun {
    app.world().resource::<LessonRun>().clone()
}

#[test]
fn a_wrong_turn_is_explained_with_arrows_and_a_right_one_is_remembered() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let choice = LESSONS.iter().position(|d| d.id == "choice").expect("lesson");
    nav(&mut app, LessonNav::Open(choice));
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Lesson);
    let state = app.world().resource::<GameState>();
    assert_eq!(state.position(), &LESSONS[choice].position());
    assert_eq!(state.position().variant(), Variant::Dimy);
    // Nobody answers: both sides are people, so the position after the player's turn stays to be looked at.
    assert_eq!(app.world().resource::<MatchSetup>().players, [Player::Human, Player::Human]);

    play(&mut app, "c3-c2A");
    assert_eq!(run(&app).verdict, Some(Verdict::Wrong("lessons.wrong.more")));
    let arrows = app.world().resource::<BoardArrows>().clone();
    assert_eq!(arrows.paths.len(), 1);
    assert_eq!(arrows.paths[0].style, ArrowStyle::Best);
    let point = |name: &str| parse_point(name).expect("a point");
    assert_eq!(arrows.paths[0].steps, vec![(point("c3"), point("c2"))]);
    assert_eq!(arrows.paths[0].captured.count_ones(), 2, "the withdrawal takes c4 and c5");
    assert!(app.world().resource::<PlayerStats>().0.lessons_done.is_empty());

    nav(&mut app, LessonNav::Retry);
    assert_eq!(run(&app).verdict, None);
    assert!(app.world().resource::<BoardArrows>().paths.is_empty());
    assert_eq!(app.world().resource::<GameState>().position(), &LESSONS[choice].position());

    play(&mut app, "c3-c2W");
    assert_eq!(run(&app).verdict, Some(Verdict::Right));
    assert_eq!(app.world().resource::<PlayerStats>().0.lessons_done, vec!["choice".to_string()]);
    // Remembered on disk with the stats, and the first start's offer counts as answered.
    let Loaded::Found(saved) = storage.load::<Stats>() else { panic!("the stats were saved") };
    assert_eq!(saved.lessons_done, vec!["choice".to_string()]);
    assert!(saved.lessons_offered);
}

#[test]
fn the_compulsory_capture_lesson_explains_a_refused_paika() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    let i = LESSONS.iter().position(|d| d.id == "compulsory").expect("lesson");
    nav(&mut app, LessonNav::Open(i));
    play(&mut app, "b1-c1");
    let r = run(&app);
    assert_eq!(r.verdict, None, "a refused turn is not judged");
    assert!(r.refused.is_some(), "the refusal is kept for the panel");
    assert_eq!(app.world().resource::<GameState>().position(), &LESSONS[i].position(), "nothing changed");
    play(&mut app, "e1-e2A");
    assert_eq!(run(&app).verdict, Some(Verdict::Right));
    assert_eq!(run(&app).refused, None);
}

#[test]
fn every_lesson_in_turn_then_the_first_game_against_beginner() {
    let storage = Storage::memory();
    let mut app = app(&storage);
    nav(&mut app, LessonNav::Open(0));
    for (i, def) in LESSONS.iter().enumerate() {
        assert_eq!(run(&app).index, i);
        let model = def.model_turn().expect("a right turn");
        app.world_mut().write_message(MoveRequest::new(MoveAction::Turn(model)));
        app.update();
        app.update();
        assert_eq!(run(&app).verdict, Some(Verdict::Right), "{}", def.id);
        nav(&mut app, LessonNav::Next);
    }
    assert_eq!(run(&app).index, LESSONS.len(), "the closing page");
    assert_eq!(app.world().resource::<PlayerStats>().0.lessons_done.len(), LESSONS.len());
    nav(&mut app, LessonNav::FirstGame);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    let setup = app.world().resource::<MatchSetup>();
    assert_eq!(setup.rules.variant, Variant::Dimy);
    assert_eq!(setup.player(Side::White), Player::Human);
    assert_eq!(setup.player(Side::Black), Player::Cpu(Level::Beginner));
    let state = app.world().resource::<GameState>();
    assert_eq!(state.game().turns().len(), 0);
    assert_eq!(state.position().count(Side::White), 12);
}
