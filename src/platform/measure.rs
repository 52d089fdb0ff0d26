//! `--measure-idle SECS`: the figures of a sleeping window, measured the way a player leaves the game.
//!
//! The run shows the title, then starts a game against the CPU with the player to move and leaves it alone for
//! SECS seconds, then plays the player's first legal turn and waits for the CPU's answer. It prints, one
//! `measure` line each: the time from launch to the first title frame, resident memory at the title and in the
//! game, the process's CPU time and the frames drawn over the idle window (and whether the window had the focus),
//! and the delay from the CPU's search ending to the frame that played its turn. Then it exits.
//!
//! CPU time and memory come from `/proc/self` (Linux); elsewhere they read "n/a".

use crate::platform::redraw::{ApplyDemand, FrameDemand, FrameStats, LoopWaker};
use crate::play::cpu::CpuPlayer;
use crate::play::referee::{AnimationsPending, GameState, MatchSetup, MoveAction, MoveRequest, NewGame, Player};
use crate::state::Screen;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use fanorona_engine::Rules;
use fanorona_engine::levels::Level;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long the title is shown before its memory is read.
const TITLE_SECS: f32 = 2.0;
/// How long the game must have been still before the idle window opens.
const SETTLE_SECS: f32 = 1.0;
/// How long to wait for the CPU's answer before giving up on that figure.
const ANSWER_TIMEOUT_SECS: f32 = 30.0;

/// Where the measurement stands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Title {
        since: f32,
    },
    Settling {
        still_since: Option<f32>,
    },
    /// Settled: the next update (the one winit runs when the sleep's length changes) opens the window.
    Arming,
    Idle {
        until: f32,
        cpu: Option<f64>,
        updates: u64,
        focused: bool,
    },
    Answer {
        since: f32,
    },
}

/// The measurement in progress.
#[derive(Resource, Debug)]
struct Measure {
    secs: f32,
    level: Level,
    launched: Instant,
    phase: Option<Phase>,
    /// Set by the alarm thread when the idle window is over (the app's clock lags behind a sleeping loop).
    rang: Arc<AtomicBool>,
    /// The process's CPU time at the window's start and end, read by the alarm thread.
    cpu_window: Arc<Mutex<Option<(f64, f64)>>>,
}

/// Adds the measurement: idle for `secs` seconds against the CPU at `level`; `launched` is when the program
/// started.
pub fn plugin(app: &mut App, secs: f32, level: Level, launched: Instant) {
    app.insert_resource(Measure {
        secs,
        level,
        launched,
        phase: None,
        rang: Arc::default(),
        cpu_window: Arc::default(),
    })
    .add_systems(Last, step.before(ApplyDemand));
}

/// The process's CPU time (user and system, every thread) in seconds.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces: the fields counted here start after its closing parenthesis.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// Resident memory in MiB.
pub fn resident_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Wakes the loop once `secs` from now without asking it for anything before: the idle window's end must not
/// shorten its sleeps. The web has no threads: there the idle phase asks for its deadline, which costs a few
/// early updates.
///
/// The CPU time is read by the thread itself, from one second in (the renderer may still be finishing the frame
/// drawn before the window opened) to the end.
fn alarm(waker: &LoopWaker, secs: f32, rang: &Arc<AtomicBool>, cpu_window: &Arc<Mutex<Option<(f64, f64)>>>) {
    let (waker, rang, cpu_window) = (waker.clone(), rang.clone(), cpu_window.clone());
    if cfg!(target_arch = "wasm32") {
        return;
    }
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(1));
        let start = cpu_seconds();
        std::thread::sleep(Duration::from_secs_f32((secs - 1.0).max(0.0)));
        if let (Some(a), Some(b)) = (start, cpu_seconds()) {
            *cpu_window.lock().unwrap_or_else(|e| e.into_inner()) = Some((a, b));
        }
        rang.store(true, Ordering::Relaxed);
        waker.wake();
    });
}

fn show(v: Option<f64>, unit: &str) -> String {
    v.map_or("n/a".to_string(), |v| format!("{v:.2} {unit}"))
}

fn step(
    mut m: ResMut<Measure>,
    time: Res<Time<Real>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    state: Res<GameState>,
    busy: Res<AnimationsPending>,
    mut cpu: ResMut<CpuPlayer>,
    stats: Res<FrameStats>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut demand: ResMut<FrameDemand>,
    waker: Res<LoopWaker>,
    mut requests: MessageWriter<MoveRequest>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = time.elapsed_secs();
    let focused = windows.single().is_ok_and(|w| w.focused);
    let phase = match m.phase {
        None if *screen.get() == Screen::Title => {
            println!("measure startup: first title frame {:.2} s after launch", m.launched.elapsed().as_secs_f32());
            Phase::Title { since: now }
        }
        None => return,
        Some(Phase::Title { since }) if now - since < TITLE_SECS => {
            demand.next_frame();
            return;
        }
        Some(Phase::Title { .. }) => {
            println!("measure memory: title {}", show(resident_mib(), "MiB"));
            *setup = MatchSetup {
                rules: Rules::default(),
                players: [Player::Human, Player::Cpu(m.level)],
                seed: 1,
                vela_match: false,
            };
            new.write(NewGame);
            next.set(Screen::Playing);
            Phase::Settling { still_since: None }
        }
        Some(Phase::Settling { still_since }) => {
            let still = *screen.get() == Screen::Playing && !busy.0 && cpu.thinking().is_none();
            match (still, still_since) {
                (false, _) => Phase::Settling { still_since: None },
                (true, None) => {
                    demand.within(Duration::from_secs_f32(SETTLE_SECS));
                    Phase::Settling { still_since: Some(now) }
                }
                (true, Some(s)) if now - s < SETTLE_SECS => {
                    demand.within(Duration::from_secs_f32(SETTLE_SECS - (now - s)));
                    Phase::Settling { still_since }
                }
                (true, Some(_)) => {
                    println!("measure memory: game {}", show(resident_mib(), "MiB"));
                    Phase::Arming
                }
            }
        }
        Some(Phase::Arming) => {
            alarm(&waker, m.secs, &m.rang, &m.cpu_window);
            // The closing update below is the measurement's own wake, not the game's.
            Phase::Idle { until: now + m.secs, cpu: cpu_seconds(), updates: stats.updates, focused }
        }
        Some(Phase::Idle { until, cpu: cpu0, updates, focused: f0 })
            if now < until && !m.rang.load(Ordering::Relaxed) =>
        {
            if cfg!(target_arch = "wasm32") {
                demand.within(Duration::from_secs_f32(until - now));
            }
            Phase::Idle { until, cpu: cpu0, updates, focused: f0 && focused }
        }
        Some(Phase::Idle { cpu: cpu0, updates, focused: f0, .. }) => {
            let window = *m.cpu_window.lock().unwrap_or_else(|e| e.into_inner());
            let used = window.map(|(a, b)| b - a).or_else(|| cpu_seconds().zip(cpu0).map(|(b, a)| b - a));
            let frames = stats.updates.saturating_sub(updates + 1);
            let focus = if f0 && focused { "focused" } else { "unfocused" };
            println!(
                "measure idle: {:.1} s on the game screen ({focus}), frames drawn {frames}, cpu {} (over the last {:.1} s)",
                m.secs,
                show(used, "s"),
                (m.secs - 1.0).max(0.0)
            );
            cpu.answer_delay = None;
            match state.position().legal_turns().into_iter().next() {
                Some(turn) => {
                    requests.write(MoveRequest::new(MoveAction::Turn(turn)));
                    // Written after this update's rules: the next update plays it.
                    demand.next_frame();
                }
                None => {
                    exit.write(AppExit::error());
                    return;
                }
            };
            Phase::Answer { since: now }
        }
        Some(Phase::Answer { since }) => {
            if let Some(delay) = cpu.answer_delay {
                println!("measure answer: cpu turn played {:.1} ms after its search ended", delay.as_secs_f64() * 1e3);
                exit.write(AppExit::Success);
            } else if now - since > ANSWER_TIMEOUT_SECS {
                println!("measure answer: none within {ANSWER_TIMEOUT_SECS} s");
                exit.write(AppExit::error());
            }
            Phase::Answer { since }
        }
    };
    m.phase = Some(phase);
}
