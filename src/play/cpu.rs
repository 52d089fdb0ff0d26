//! The CPU player: searches on the async compute pool when it is its turn, never blocking a frame.
//!
//! Each search owns a copy of the position and history and is tagged with the [`GameState::generation`] it was
//! started for. When the game changes under it (undo, new game, a resignation…) the search is told to stop and
//! its answer is dropped; the move request it sends also carries the generation, so the rules refuse it if
//! anything changed in between. Draw offers to the CPU and the player's hints are judged the same way.
//!
//! Every search is a job of the engine service, run where [`EngineJobs`] runs them: on the async pool on the
//! desktop, in the engine's Web Worker in the browser, or in short slices between frames where neither can.
//!
//! While the game is paused ([`Pause::Paused`]) no search starts and no answer is played: a search already running
//! may finish, and its answer waits (checked against the generation as always) until the game resumes.

use crate::platform::redraw::WakeOn;
use crate::platform::redraw::{FrameDemand, THINKING_TICK};
pub use crate::play::engine_jobs::CpuThreading;
use crate::play::engine_jobs::{EngineJobs, JobHandle};
use crate::play::referee::{
    AnimationsPending, DrawOffered, GameSet, GameState, MatchSetup, MoveAction, MoveRequest, Player,
};
use crate::state::{Pause, is_paused};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use fanorona_engine::levels::Level;
use fanorona_engine::search::{Limits, Score};
use fanorona_engine::service::{Job, Memory, Reply, game_text};
use fanorona_engine::{Side, Turn};
use std::time::Duration;

/// Extra limits on the CPU's thinking, tighter than its level's where set (automation, tests, slow machines).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct CpuLimits(pub Limits);

/// Whether the CPU may start thinking (e.g. off while a menu pauses the game).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuEnabled(pub bool);

impl Default for CpuEnabled {
    fn default() -> Self {
        CpuEnabled(true)
    }
}

/// A search in flight.
struct Search {
    job: JobHandle,
    generation: u64,
    hash: u64,
    side: Side,
    started: Duration,
    /// The depth the search has completed (0: none yet).
    depth: u32,
}

/// What the CPU is doing, for the HUD ("thinking…") and for tests.
#[derive(Resource, Default)]
pub struct CpuPlayer {
    search: Option<Search>,
    /// A finished answer waiting for the animations to end: (generation, turn).
    ready: Option<(u64, Turn)>,
    /// Searches started (for tests and diagnostics).
    pub started: u64,
    /// Searches cancelled because the game changed under them.
    pub cancelled: u64,
    /// Answers dropped because they were computed for another position.
    pub stale: u64,
    /// The longest time one frame spent thinking during the last finished search (thinking in the frames only;
    /// zero on the thread pool and in the worker): how long the CPU can hold a web page's frame.
    pub longest_slice: Duration,
    /// When the answer waiting in `ready` was found.
    found: Option<Instant>,
    /// From the last answer being found to the frame that played it (animations before it excluded), for
    /// `--measure-idle`: how long a sleeping window took to show the CPU's turn.
    pub answer_delay: Option<Duration>,
}

impl CpuPlayer {
    /// The side the CPU is thinking for and since when (app time), if it is thinking.
    pub fn thinking(&self) -> Option<(Side, Duration)> {
        self.search.as_ref().map(|s| (s.side, s.started))
    }

    /// The depth (in turns) the search in flight has completed so far, if it is thinking and has reported one.
    /// The weaker levels' shallow searches report none.
    pub fn thinking_depth(&self) -> Option<u32> {
        self.search.as_ref().map(|s| s.depth).filter(|&d| d > 0)
    }

    /// Whether an answer is computed and waits to be played (e.g. until the game resumes from a pause).
    pub fn has_answer(&self) -> bool {
        self.ready.is_some()
    }
}

/// A hint for the side to move, computed off the main thread.
#[derive(Message, Clone, Debug, Default)]
pub struct HintRequest;

/// The answer to a [`HintRequest`].
#[derive(Resource, Default, Debug, Clone)]
pub struct Hint {
    /// The suggested turn and its score (for the side to move) for the generation it was computed in.
    pub answer: Option<(u64, Turn, Score)>,
    /// Whether a hint is being computed.
    pub pending: bool,
}

/// The hint and draw judgement in flight: (job, generation it is for).
#[derive(Resource, Default)]
struct Background {
    hint: Option<(JobHandle, u64)>,
    draw: Option<(JobHandle, u64, Side)>,
}

/// Adds the CPU player.
pub fn plugin(app: &mut App) {
    app.init_resource::<CpuPlayer>()
        .init_resource::<CpuLimits>()
        .init_resource::<CpuEnabled>()
        .init_resource::<CpuThreading>()
        .init_resource::<Hint>()
        // A hint that arrives is drawn in the frame after, with any glyph its text adds to the font atlas.
        .wake_on_change::<Hint>()
        .init_resource::<Background>()
        .add_woken_message::<HintRequest>()
        .add_systems(Update, (drive_cpu, answer_draw_offers, compute_hints).in_set(GameSet::Request))
        .add_systems(Update, demand_frames.after(GameSet::Request));
}

fn drive_cpu(
    mut cpu: ResMut<CpuPlayer>,
    mut jobs: ResMut<EngineJobs>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    limits: Res<CpuLimits>,
    enabled: Res<CpuEnabled>,
    busy: Res<AnimationsPending>,
    pause: Option<Res<State<Pause>>>,
    time: Res<Time<Real>>,
    mut requests: MessageWriter<MoveRequest>,
) {
    let paused = is_paused(pause.as_deref());
    let generation = state.generation();
    let pos = *state.position();
    // Drop work for a position that is gone: the job stops at its next check and nothing of it is delivered.
    if let Some(s) = &cpu.search
        && (s.generation != generation || s.hash != pos.hash() || state.game().is_over())
    {
        let s = cpu.search.take().expect("checked");
        jobs.cancel(s.job);
        cpu.cancelled += 1;
    }
    if cpu.ready.as_ref().is_some_and(|(g, _)| *g != generation) {
        cpu.ready = None;
        cpu.stale += 1;
    }
    if let Some(s) = cpu.search.as_mut() {
        let mut answer = None;
        for reply in jobs.take(&s.job) {
            match reply {
                Reply::Info { info, .. } => s.depth = info.depth,
                Reply::Played { turn, .. } => answer = Some(turn),
                Reply::Failed { error, .. } => {
                    warn!("the CPU could not think: {error}");
                    answer = Some(None);
                }
                _ => {}
            }
        }
        if let Some(turn) = answer {
            cpu.longest_slice = std::mem::take(&mut jobs.longest_frame);
            let s = cpu.search.take().expect("checked");
            match turn {
                Some(t) => {
                    cpu.ready = Some((s.generation, t));
                    cpu.found = Some(Instant::now());
                }
                None => warn!("the CPU found no turn to play"),
            }
        }
    }
    if busy.0 && cpu.ready.is_some() {
        // An answer that waits for animations is measured from the last frame that held it back.
        cpu.found = Some(Instant::now());
    }
    if !busy.0
        && !paused
        && let Some((g, turn)) = cpu.ready.take()
    {
        cpu.answer_delay = cpu.found.take().map(|f| f.elapsed());
        requests.write(MoveRequest { action: MoveAction::Turn(turn), expect_generation: Some(g) });
        return;
    }
    let side = pos.side_to_move();
    let Player::Cpu(level) = setup.player(side) else { return };
    if cpu.search.is_some() || cpu.ready.is_some() || !enabled.0 || paused || state.game().is_over() {
        return;
    }
    // The CPU plays whole turns from a turn's start; a relay in progress (a human's, before a switch of players)
    // is not its business.
    if pos.in_relay() {
        return;
    }
    let seed = setup.seed ^ (state.game().turns().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // One step of the master's opening variety cannot be cut into slices: keep it short in the frames.
    let variety_depth = if jobs.in_frames() { 3 } else { 6 };
    let job = jobs.start(Job::Play {
        game: game_text(state.game()),
        level: level.number(),
        seed,
        cap: limits.0,
        variety_depth,
        memory: Memory::Player(side),
    });
    jobs.longest_frame = Duration::ZERO;
    cpu.started += 1;
    cpu.search = Some(Search { job, generation, hash: pos.hash(), side, started: time.elapsed(), depth: 0 });
}

fn answer_draw_offers(
    mut offers: MessageReader<DrawOffered>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    mut bg: ResMut<Background>,
    mut jobs: ResMut<EngineJobs>,
    mut requests: MessageWriter<MoveRequest>,
) {
    for offer in offers.read() {
        let cpu = offer.by.opponent();
        let Player::Cpu(level) = setup.player(cpu) else { continue };
        if let Some((old, _, _)) = bg.draw.take() {
            jobs.cancel(old);
        }
        let job = jobs.start(Job::Search {
            game: game_text(state.game()),
            limits: level.draw_limits(),
            memory: Memory::Draw,
        });
        bg.draw = Some((job, state.generation(), cpu));
    }
    let Some((job, g, cpu)) = &bg.draw else { return };
    let (g, cpu) = (*g, *cpu);
    for reply in jobs.take(job) {
        let accept = match reply {
            Reply::Searched { result, .. } => Level::accepts_draw_after(state.game().position(), cpu, result.score),
            Reply::Failed { .. } => false,
            _ => continue,
        };
        bg.draw = None;
        requests.write(MoveRequest { action: MoveAction::AnswerDraw { accept }, expect_generation: Some(g) });
    }
}

fn compute_hints(
    mut asks: MessageReader<HintRequest>,
    state: Res<GameState>,
    mut hint_res: ResMut<Hint>,
    mut bg: ResMut<Background>,
    mut jobs: ResMut<EngineJobs>,
) {
    if asks.read().count() > 0 && bg.hint.is_none() && !state.game().is_over() {
        let limits = Limits { movetime: Some(Duration::from_millis(700)), ..Limits::default() };
        let job = jobs.start(Job::Search { game: game_text(state.game()), limits, memory: Memory::Hint });
        bg.hint = Some((job, state.generation()));
        hint_res.pending = true;
    }
    if let Some((job, g)) = &bg.hint {
        let g = *g;
        for reply in jobs.take(job) {
            let answer = match reply {
                Reply::Searched { result, .. } => result.best.clone().map(|b| (g, b, result.value())),
                Reply::Failed { .. } => None,
                _ => continue,
            };
            bg.hint = None;
            hint_res.pending = false;
            hint_res.answer = answer;
        }
    }
    // A hint is only worth showing for the position it was computed for.
    if hint_res.answer.as_ref().is_some_and(|(g, _, _)| *g != state.generation()) {
        hint_res.answer = None;
    }
}

/// Frames the CPU needs: one for an answer about to be played, a few a second for the HUD's clock while it
/// thinks (replies wake the window by themselves, and thinking in the frames asks for its own: `engine_jobs`).
fn demand_frames(
    cpu: Res<CpuPlayer>,
    busy: Res<AnimationsPending>,
    pause: Option<Res<State<Pause>>>,
    mut demand: ResMut<FrameDemand>,
) {
    let answer_due = cpu.ready.is_some() && !busy.0 && !is_paused(pause.as_deref());
    if answer_due {
        demand.next_frame();
    } else if cpu.search.is_some() {
        demand.within(THINKING_TICK);
    }
}

/// The level of the CPU playing `side`, if the CPU plays it.
pub fn cpu_level(setup: &MatchSetup, side: Side) -> Option<Level> {
    match setup.player(side) {
        Player::Cpu(l) => Some(l),
        Player::Human | Player::Remote => None,
    }
}
