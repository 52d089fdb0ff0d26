//! The CPU player: searches on the async compute pool when it is its turn, never blocking a frame.
//!
//! Each search owns a copy of the position and history and is tagged with the [`GameState::generation`] it was
//! started for. When the game changes under it (undo, new game, a resignation…) the search is told to stop and
//! its answer is dropped; the move request it sends also carries the generation, so the rules refuse it if
//! anything changed in between. Draw offers to the CPU and the player's hints are judged the same way.
//!
//! While the game is paused ([`Pause::Paused`]) no search starts and no answer is played: a search already running
//! may finish, and its answer waits (checked against the generation as always) until the game resumes.

use crate::rules::{AnimationsPending, DrawOffered, GameSet, GameState, MatchSetup, MoveAction, MoveRequest, Player};
use crate::screen::{Pause, is_paused};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use fanorona_engine::levels::{Level, hint, history_hashes};
use fanorona_engine::search::Limits;
use fanorona_engine::search::Searcher;
use fanorona_engine::{Side, Turn};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
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
    task: Task<(Searcher, Option<Turn>)>,
    generation: u64,
    hash: u64,
    side: Side,
    stop: Arc<AtomicBool>,
    started: Duration,
    /// The depth the search has completed, written by the search thread after each iteration (0: none yet).
    depth: Arc<AtomicU32>,
}

/// What the CPU is doing, for the HUD ("thinking…") and for tests.
#[derive(Resource, Default)]
pub struct CpuPlayer {
    search: Option<Search>,
    /// A finished answer waiting for the animations to end: (generation, turn).
    ready: Option<(u64, Turn)>,
    /// One searcher per side, kept between turns for their transposition tables.
    searchers: [Option<Searcher>; 2],
    /// Searches started (for tests and diagnostics).
    pub started: u64,
    /// Searches cancelled because the game changed under them.
    pub cancelled: u64,
    /// Answers dropped because they were computed for another position.
    pub stale: u64,
}

impl CpuPlayer {
    /// The side the CPU is thinking for and since when (app time), if it is thinking.
    pub fn thinking(&self) -> Option<(Side, Duration)> {
        self.search.as_ref().map(|s| (s.side, s.started))
    }

    /// The depth (in turns) the search in flight has completed so far, if it is thinking and has reported one.
    /// The weaker levels' shallow searches report none.
    pub fn thinking_depth(&self) -> Option<u32> {
        self.search.as_ref().map(|s| s.depth.load(Ordering::Relaxed)).filter(|&d| d > 0)
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
    /// The suggested turn and its score (text) for the generation it was computed in.
    pub answer: Option<(u64, Turn, String)>,
    /// Whether a hint is being computed.
    pub pending: bool,
}

type HintTask = Task<(u64, Option<(Turn, i32)>)>;

#[derive(Resource, Default)]
struct Background {
    hint: Option<HintTask>,
    draw: Option<(u64, Task<bool>)>,
}

/// Adds the CPU player.
pub fn plugin(app: &mut App) {
    app.init_resource::<CpuPlayer>()
        .init_resource::<CpuLimits>()
        .init_resource::<CpuEnabled>()
        .init_resource::<Hint>()
        .init_resource::<Background>()
        .add_message::<HintRequest>()
        .add_systems(Update, (drive_cpu, answer_draw_offers, compute_hints).in_set(GameSet::Request));
}

fn drive_cpu(
    mut cpu: ResMut<CpuPlayer>,
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
    // Drop work for a position that is gone: stop the search (its thread ends at the next check) and forget it.
    if let Some(s) = &cpu.search
        && (s.generation != generation || s.hash != pos.hash() || state.game().is_over())
    {
        let s = cpu.search.take().expect("checked");
        s.stop.store(true, Ordering::Relaxed);
        s.task.detach();
        cpu.cancelled += 1;
    }
    if cpu.ready.as_ref().is_some_and(|(g, _)| *g != generation) {
        cpu.ready = None;
        cpu.stale += 1;
    }
    if let Some(s) = &mut cpu.search
        && let Some((searcher, turn)) = check_ready(&mut s.task)
    {
        let s = cpu.search.take().expect("checked");
        cpu.searchers[s.side.index()] = Some(searcher);
        match turn {
            Some(t) => cpu.ready = Some((s.generation, t)),
            None => warn!("the CPU found no turn to play"),
        }
    }
    if !busy.0
        && !paused
        && let Some((g, turn)) = cpu.ready.take()
    {
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
    let history = history_hashes(state.game());
    let mut searcher = cpu.searchers[side.index()].take().unwrap_or_else(|| Searcher::new(16));
    searcher.set_draw_rule(state.game().rules().draw);
    let stop = searcher.stop_flag();
    let seed = setup.seed ^ (state.game().turns().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let cap = limits.0;
    let depth = Arc::new(AtomicU32::new(0));
    let report = depth.clone();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        // The HUD reads the depth each frame; a relaxed store is enough for a progress display.
        let info = |i: &fanorona_engine::search::Info| report.store(i.depth, Ordering::Relaxed);
        let turn = level.choose_with_info(&mut searcher, &pos, &history, seed, cap, info);
        (searcher, turn)
    });
    cpu.started += 1;
    cpu.search = Some(Search { task, generation, hash: pos.hash(), side, stop, started: time.elapsed(), depth });
}

fn answer_draw_offers(
    mut offers: MessageReader<DrawOffered>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    mut bg: ResMut<Background>,
    mut requests: MessageWriter<MoveRequest>,
) {
    for offer in offers.read() {
        let cpu = offer.by.opponent();
        let Player::Cpu(level) = setup.player(cpu) else { continue };
        let game = state.game().clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let mut s = Searcher::new(4);
            let pos = *game.position();
            level.accepts_draw(&mut s, &pos, &history_hashes(&game), cpu)
        });
        bg.draw = Some((state.generation(), task));
    }
    if let Some((g, task)) = &mut bg.draw
        && let Some(accept) = check_ready(task)
    {
        let g = *g;
        bg.draw = None;
        requests.write(MoveRequest { action: MoveAction::AnswerDraw { accept }, expect_generation: Some(g) });
    }
}

fn compute_hints(
    mut asks: MessageReader<HintRequest>,
    state: Res<GameState>,
    mut hint_res: ResMut<Hint>,
    mut bg: ResMut<Background>,
) {
    if asks.read().count() > 0 && bg.hint.is_none() && !state.game().is_over() {
        let game = state.game().clone();
        let generation = state.generation();
        bg.hint = Some(AsyncComputeTaskPool::get().spawn(async move {
            let mut s = Searcher::new(8);
            (generation, hint(&mut s, &game, Duration::from_millis(700)))
        }));
        hint_res.pending = true;
    }
    if let Some(task) = &mut bg.hint
        && let Some((g, answer)) = check_ready(task)
    {
        bg.hint = None;
        hint_res.pending = false;
        hint_res.answer = answer.map(|(t, score)| (g, t, fanorona_engine::search::score_text(score)));
    }
    // A hint is only worth showing for the position it was computed for.
    if hint_res.answer.as_ref().is_some_and(|(g, _, _)| *g != state.generation()) {
        hint_res.answer = None;
    }
}

/// Stops any search in flight and forgets finished answers (used when leaving a game).
pub fn cancel_all(cpu: &mut CpuPlayer) {
    if let Some(s) = cpu.search.take() {
        s.stop.store(true, Ordering::Relaxed);
        s.task.detach();
        cpu.cancelled += 1;
    }
    cpu.ready = None;
}

/// The level of the CPU playing `side`, if the CPU plays it.
pub fn cpu_level(setup: &MatchSetup, side: Side) -> Option<Level> {
    match setup.player(side) {
        Player::Cpu(l) => Some(l),
        Player::Human => None,
    }
}
