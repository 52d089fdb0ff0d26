//! Command-line options and the automation they drive: a CPU-vs-CPU demo, turns and screens printed to standard
//! output, exiting after a number of turns, and a screenshot of the window just before exiting.

use crate::platform::redraw::WakeOn;
use crate::play::cpu::CpuEnabled;
use crate::play::referee::{AnimationsPending, GameEnded, GameSet, MatchSetup, NewGame, Player, TurnEnded};
use crate::state::{InGame, Screen};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use clap::Parser;
use fanorona_engine::levels::Level;
use fanorona_engine::{Side, Variant};
use std::io::Write;
use std::path::PathBuf;

/// Fanorona, Madagascar's national board game.
#[derive(Parser, Clone, Debug, Default)]
#[command(version, about)]
pub struct Args {
    /// Start a CPU-vs-CPU game at once, skipping the title.
    #[arg(long)]
    pub demo: bool,
    /// CPU level, 1 (beginner) to 5 (master), for the demo and as the default of new games.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub level: Option<u8>,
    /// Exit (code 0) after this many turns have been played.
    #[arg(long)]
    pub max_turns: Option<usize>,
    /// Save a screenshot of the window to this PNG just before exiting.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Seed of the CPU's random choices.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play the demo on the 5×5 board (Fanoron-Dimy).
    #[arg(long)]
    pub small: bool,
    /// Exit (code 0, after the screenshot if one is asked for) this many seconds after start.
    #[arg(long)]
    pub exit_after: Option<f32>,
    /// Keep settings, the game in progress and stats in this folder instead of the platform's data folder.
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Measure the idle game: launch time, memory, CPU time and frames over SECS seconds of a game left waiting
    /// for the player, then the CPU's answer delay; print them as `measure` lines and exit.
    #[arg(long, value_name = "SECS")]
    pub measure_idle: Option<f32>,
    /// Write every sound of the game as a WAV file into this folder and exit (code 0) without opening a window.
    #[arg(long, value_name = "DIR")]
    pub export_sounds: Option<PathBuf>,
    /// The online server's address, or several separated by commas or spaces, tried in turn when one does not
    /// answer (default: the web page's own host, or ws://127.0.0.1:8080/ws).
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// Join a friend's online game with its invite code at once (on the web: `?join=CODE` in the page address).
    #[arg(long, value_name = "CODE")]
    pub join: Option<String>,
    /// Where the engine thinks: `frames` (in short slices between frames, on the main thread) instead of its
    /// usual place (the thread pool; in a browser, the engine's Web Worker: `?engine=frames` turns it off).
    #[arg(long, value_name = "WHERE", value_parser = ["frames"])]
    pub engine: Option<String>,
}

impl Args {
    /// Whether the run drives itself to an end (a demo, a screenshot, a timed exit) and so must not sleep.
    pub fn automated(&self) -> bool {
        self.demo || self.screenshot.is_some() || self.exit_after.is_some() || self.max_turns.is_some()
    }

    /// The CPU level asked for, or the default.
    pub fn level(&self) -> Level {
        self.level.and_then(Level::from_number).unwrap_or(if self.demo { Level::Novice } else { Level::Intermediate })
    }
}

/// The options, as a resource for the menus (default level, seed).
#[derive(Resource, Clone, Debug)]
pub struct Options(pub Args);

/// Where the automated exit stands.
#[derive(Resource, Default, Debug)]
struct Exit {
    turns: usize,
    finishing: Option<Finishing>,
}

#[derive(Debug, Default)]
struct Finishing {
    waited: f32,
    /// Seconds since the animations last ended (the game-over window opens only then).
    settled: f32,
    shot_requested: bool,
    shot_done: bool,
    frames_after: u32,
}

/// Marks that the exit screenshot was written.
#[derive(Resource, Default)]
struct ShotSaved(bool);

/// Adds the automation described by `args`.
pub fn plugin(app: &mut App, args: Args) {
    if args.engine.as_deref() == Some("frames") {
        app.insert_resource(crate::play::cpu::CpuThreading::Sliced(crate::play::engine_jobs::WEB_SLICE));
    }
    if args.demo {
        let level = args.level();
        let mut rules = fanorona_engine::Rules::default();
        if args.small {
            rules.variant = Variant::Dimy;
        }
        app.insert_resource(MatchSetup {
            rules,
            players: [Player::Cpu(level), Player::Cpu(level)],
            seed: args.seed.unwrap_or(0),
            vela_match: false,
        })
        .insert_woken_state(Screen::Playing)
        .add_systems(Startup, |mut new: MessageWriter<NewGame>| {
            new.write(NewGame);
        });
    }
    app.insert_resource(Options(args))
        .init_resource::<Exit>()
        .init_resource::<ShotSaved>()
        .add_systems(Update, (print_turns, finish).chain().in_set(GameSet::Present))
        .add_systems(Update, print_screen.run_if(state_changed::<Screen>));
}

/// Reports each screen the game shows (`screen GameOver`), so that a test of the real window sees, without
/// touching it, when a screen came.
fn print_screen(screen: Res<State<Screen>>) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "screen {:?}", screen.get());
    let _ = out.flush();
}

fn print_turns(
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    in_game: Option<Res<State<InGame>>>,
    options: Res<Options>,
    mut exit: ResMut<Exit>,
    mut cpu: ResMut<CpuEnabled>,
) {
    // Only the player's own game is reported, not the one playing behind the title.
    let report = in_game.is_some();
    let mut out = std::io::stdout().lock();
    for t in turns.read() {
        if !report || exit.finishing.is_some() {
            continue;
        }
        exit.turns += 1;
        let _ = writeln!(out, "turn {} {} {}", t.number, side_name(t.side), t.turn);
        if options.0.max_turns.is_some_and(|m| exit.turns >= m) {
            exit.finishing = Some(Finishing::default());
            cpu.0 = false;
        }
    }
    for e in ended.read() {
        if !report {
            continue;
        }
        let _ = writeln!(out, "result {}", e.outcome);
        let automated = options.0.max_turns.is_some() || options.0.screenshot.is_some();
        if options.0.demo && automated && exit.finishing.is_none() {
            exit.finishing = Some(Finishing::default());
        }
    }
    let _ = out.flush();
}

fn side_name(side: Side) -> &'static str {
    side.name()
}

fn finish(
    time: Res<Time<Real>>,
    options: Res<Options>,
    busy: Res<AnimationsPending>,
    mut exit: ResMut<Exit>,
    mut saved: ResMut<ShotSaved>,
    mut commands: Commands,
    mut app_exit: MessageWriter<AppExit>,
) {
    // Without a demo or a turn limit, a screenshot alone is taken a few seconds after start (e.g. of the title).
    let alone = !options.0.demo && options.0.max_turns.is_none() && options.0.screenshot.is_some();
    let timeout = options.0.exit_after.or(alone.then_some(4.0));
    if exit.finishing.is_none() && timeout.is_some_and(|t| time.elapsed_secs() > t) {
        exit.finishing = Some(Finishing::default());
    }
    let Some(f) = exit.finishing.as_mut() else { return };
    f.waited += time.delta_secs();
    // Let the last turn's animation finish so the picture shows a settled board (but never wait forever).
    if busy.0 && f.waited < 6.0 {
        f.settled = 0.0;
        return;
    }
    f.settled += time.delta_secs();
    if let Some(path) = &options.0.screenshot {
        if !f.shot_requested {
            // Give the HUD and the game-over window time to show the final state before capturing.
            if f.settled < 0.5 {
                return;
            }
            f.shot_requested = true;
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone())).observe(
                |_: On<ScreenshotCaptured>, mut saved: ResMut<ShotSaved>| {
                    saved.0 = true;
                },
            );
            return;
        }
        if !f.shot_done {
            if saved.0 || f.waited > 20.0 {
                f.shot_done = true;
                saved.0 = false;
            }
            return;
        }
    }
    f.frames_after += 1;
    if f.frames_after > 2 {
        app_exit.write(AppExit::Success);
    }
}
