//! Nothing decided waits for input: run as the window's sleeping loop runs it, with nobody touching anything, the
//! CPU's winning turn, a resignation and every change of screen reach the screen by themselves.

mod egui_pass;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::platform::redraw::{FrameStats, LoopWaker};
use fanorona::play::board::BoardLayout;
use fanorona::play::referee::*;
use fanorona::screens::widgets::reported_button;
use fanorona::state::Screen;
use fanorona_engine::levels::Level;
use fanorona_engine::record::Record;
use fanorona_engine::{Rules, Side};
use std::time::{Duration, Instant};

/// How long the tests wait for what must come at once: far below the idle loop's minute-long sleep, far above
/// a CPU's answer and a game-over pause.
const LIMIT: Duration = Duration::from_secs(20);

/// Runs `app` as winit's reactive loop runs it when nobody touches the window, until `done` holds: the next update
/// comes at once when the last one asked for a redraw or another thread woke the loop, and otherwise only when the
/// sleep that the last update allowed has passed. Returns the updates it took, or how it got stuck.
fn run_untouched(app: &mut App, done: impl Fn(&App) -> bool) -> Result<u32, String> {
    let start = Instant::now();
    let mut last_update = Instant::now();
    let mut wakes_seen = app.world().resource::<LoopWaker>().calls();
    let mut updates = 0;
    while !done(app) {
        if start.elapsed() > LIMIT {
            let screen = *app.world().resource::<State<Screen>>().get();
            return Err(format!("still on {screen:?} after {updates} updates: the loop went to sleep"));
        }
        // In a headless app the frame demand is the only thing that asks for redraws.
        let redraw = app.world().resource::<FrameStats>().next_frame_asked;
        let wakes = app.world().resource::<LoopWaker>().calls();
        let slept_out = last_update.elapsed() >= app.world().resource::<FrameStats>().last_wait;
        if redraw || wakes > wakes_seen || slept_out {
            wakes_seen = wakes;
            // A frame's worth of time, as a window would take.
            std::thread::sleep(Duration::from_millis(4));
            app.update();
            updates += 1;
            last_update = Instant::now();
        } else {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    Ok(updates)
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// The game's logic, its animations and the move to the game-over window, with `players` on the playing screen.
fn app(players: [Player; 2]) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, bevy::input::InputPlugin, LogicPlugin))
        .insert_resource(BoardLayout { variant: Rules::default().variant });
    fanorona::play::animation::plugin(&mut app);
    fanorona::screens::game_over::plugin(&mut app);
    // The game-over window draws over the board's frame, and its buttons ask the records for a save or a review.
    app.init_resource::<fanorona::play::board::BoardFrame>();
    fanorona::screens::records::plugin(&mut app);
    egui_pass::attach(&mut app);
    app.insert_resource(MatchSetup { rules: Rules::default(), players, seed: 3, vela_match: false });
    app.update();
    app
}

/// What a click does: the request is made during one update (the one the click itself causes).
fn click(app: &mut App, request: impl FnOnce(&mut World)) {
    request(app.world_mut());
    app.update();
}

#[test]
fn the_cpus_winning_turn_opens_the_game_over_window_untouched() {
    // The reproduction: Black (the CPU) to play captures White's last piece at once.
    let game = Record::load("[Variant \"9x5\"]\n[Result \"*\"]\n[Start \"9/9/4B4/9/4W4 b\"]\n").expect("a record");
    let mut app = app([Player::Human, Player::Cpu(Level::Intermediate)]);
    click(&mut app, |w| {
        w.write_message(LoadGame(game));
        w.resource_mut::<NextState<Screen>>().set(Screen::Playing);
    });
    let updates = run_untouched(&mut app, |a| screen(a) == Screen::GameOver).unwrap();
    let state = app.world().resource::<GameState>();
    assert_eq!(state.game().outcome().map(|o| o.result()), Some(fanorona_engine::GameResult::Win(Side::Black)));
    assert!(updates > 1, "the CPU's turn was animated before the window opened ({updates} updates)");
    // The frame drawn after that update shows the window, its buttons ready for a click.
    let ctx = egui_pass::draw(&mut app);
    for button in ["new_game", "review", "title_screen"] {
        assert!(reported_button(&ctx, button).is_some(), "the game-over window's {button} is not drawn");
    }
}

#[test]
fn a_resignation_opens_the_game_over_window_untouched() {
    let mut app = app([Player::Human, Player::Cpu(Level::Beginner)]);
    click(&mut app, |w| {
        w.write_message(NewGame);
        w.resource_mut::<NextState<Screen>>().set(Screen::Playing);
    });
    run_untouched(&mut app, |a| !a.world().resource::<AnimationsPending>().0).unwrap();
    click(&mut app, |w| {
        w.write_message(MoveRequest::new(MoveAction::Resign(Side::White)));
    });
    run_untouched(&mut app, |a| screen(a) == Screen::GameOver).unwrap();
}

/// A screen chosen in a menu: set while the egui pass runs, after `Update`, as the menus' buttons set it.
#[derive(Resource)]
struct Chosen(Screen);

fn choose(chosen: Option<Res<Chosen>>, mut next: ResMut<NextState<Screen>>, mut commands: Commands) {
    if let Some(c) = chosen {
        next.set(c.0);
        commands.remove_resource::<Chosen>();
    }
}

#[test]
fn every_screen_chosen_in_a_menu_is_shown_untouched() {
    let all = [
        Screen::Setup,
        Screen::Playing,
        Screen::GameOver,
        Screen::Rules,
        Screen::Settings,
        Screen::Records,
        Screen::Replay,
        Screen::Stats,
        Screen::Lesson,
        Screen::Analysis,
        Screen::Puzzle,
        Screen::Telo,
        Screen::Online,
        Screen::Title,
    ];
    let mut app = app([Player::Human, Player::Human]);
    app.add_systems(PostUpdate, choose);
    run_untouched(&mut app, |a| !a.world().resource::<AnimationsPending>().0).unwrap();
    for target in all {
        click(&mut app, |w| w.insert_resource(Chosen(target)));
        let stats = *app.world().resource::<FrameStats>();
        let updates = run_untouched(&mut app, |a| screen(a) == target).unwrap_or_else(|e| panic!("{target:?}: {e}"));
        assert_eq!(updates, 1, "{target:?} was shown in the update right after the click");
        assert!(
            app.world().resource::<FrameStats>().redraws_requested > stats.redraws_requested,
            "{target:?}: the frame that shows the new screen asked for one more to settle its layout"
        );
    }
}
