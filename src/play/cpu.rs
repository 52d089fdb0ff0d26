//! The CPU player: searches on the async compute pool when it is its turn, never blocking a frame.
//!
//! Each search owns a copy of the position and history and is tagged with the [`GameState::generation`] it was
//! started for. When the game changes under it (undo, new game, a resignation…) the search is told to stop and
//! its answer is dropped; the move request it sends also carries the generation, so the rules refuse it if
//! anything changed in between. Draw offers to the CPU and the player's hints are judged the same way.
//!
//! A web page runs us on one thread, where a task on the async pool would run to its end inside one frame and
//! freeze the page. There ([`CpuThreading::Sliced`], the default on the web) every search runs on the main thread
//! in short slices between frames instead, through the engine's resumable [`Thinking`] and [`SlicedSearch`].
//!
//! While the game is paused ([`Pause::Paused`]) no search starts and no answer is played: a search already running
//! may finish, and its answer waits (checked against the generation as always) until the game resumes.

use crate::platform::redraw::WakeOn;
use crate::platform::redraw::{FrameDemand, LoopWaker, THINKING_TICK};
use crate::play::referee::{
    AnimationsPending, DrawOffered, GameSet, GameState, MatchSetup, MoveAction, MoveRequest, Player,
};
use crate::state::{Pause, is_paused};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use fanorona_engine::levels::{Level, Thinking, history_hashes};
use fanorona_engine::search::{Limits, Score, Searcher, SlicedSearch};
use fanorona_engine::{Side, Turn};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
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

/// Where the CPU's searches run.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuThreading {
    /// On the async compute pool's threads (desktop).
    Pool,
    /// On the main thread, this long per frame (a web page's single thread).
    Sliced(Duration),
}

impl Default for CpuThreading {
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") { CpuThreading::Sliced(Duration::from_millis(8)) } else { CpuThreading::Pool }
    }
}

/// A piece of thinking: given a slice of time (None: as long as it takes), it works and returns its answer once
/// done.
type Work<T> = Box<dyn FnMut(Option<Duration>) -> Option<T> + Send + Sync>;

/// An answer computed on the pool, left for the next frame with the moment it was found.
type Slot<T> = Arc<Mutex<Option<(T, Instant)>>>;

/// Thinking in flight, on the pool or in slices.
enum Job<T> {
    /// On the pool: the task leaves its answer in the slot, then wakes the sleeping window so the answer is
    /// played at once rather than at the next timeout.
    Task(Task<()>, Slot<T>),
    Sliced(Work<T>),
}

impl<T: Send + 'static> Job<T> {
    fn start(mode: CpuThreading, mut work: Work<T>, waker: &LoopWaker) -> Job<T> {
        match mode {
            CpuThreading::Pool => {
                let slot: Slot<T> = Arc::default();
                let (out, waker) = (slot.clone(), waker.clone());
                let task = AsyncComputeTaskPool::get().spawn(async move {
                    let answer = loop {
                        if let Some(answer) = work(None) {
                            break answer;
                        }
                    };
                    *out.lock().unwrap_or_else(|e| e.into_inner()) = Some((answer, Instant::now()));
                    waker.wake();
                });
                Job::Task(task, slot)
            }
            CpuThreading::Sliced(_) => Job::Sliced(work),
        }
    }

    /// The answer and when it was found, if it is ready, after thinking for one slice when sliced.
    fn poll(&mut self, mode: CpuThreading) -> Option<(T, Instant)> {
        match self {
            Job::Task(_, slot) => slot.lock().unwrap_or_else(|e| e.into_inner()).take(),
            Job::Sliced(work) => work(Some(match mode {
                CpuThreading::Sliced(slice) => slice,
                CpuThreading::Pool => Duration::from_millis(8),
            }))
            .map(|answer| (answer, Instant::now())),
        }
    }

    /// Whether the job needs the main thread's frames (sliced thinking) rather than waking it when done.
    fn sliced(&self) -> bool {
        matches!(self, Job::Sliced(_))
    }

    /// Lets the job finish on its own (a task) or drops it (sliced), once it was told to stop.
    fn abandon(self) {
        if let Job::Task(task, _) = self {
            task.detach();
        }
    }
}

/// A search in flight.
struct Search {
    job: Job<(Searcher, Option<Turn>)>,
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
    /// The longest time one frame spent thinking in the last finished search (sliced thinking only; zero on the
    /// thread pool): how long the CPU can hold a web page's frame.
    pub longest_slice: Duration,
    slice_max: Duration,
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
    /// The suggested turn and its score (for the side to move) for the generation it was computed in.
    pub answer: Option<(u64, Turn, Score)>,
    /// Whether a hint is being computed.
    pub pending: bool,
}

#[derive(Resource, Default)]
struct Background {
    hint: Option<Job<(u64, Option<(Turn, Score)>)>>,
    draw: Option<(u64, Job<bool>)>,
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
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    limits: Res<CpuLimits>,
    enabled: Res<CpuEnabled>,
    busy: Res<AnimationsPending>,
    pause: Option<Res<State<Pause>>>,
    time: Res<Time<Real>>,
    threading: Res<CpuThreading>,
    waker: Res<LoopWaker>,
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
        s.job.abandon();
        cpu.cancelled += 1;
    }
    if cpu.ready.as_ref().is_some_and(|(g, _)| *g != generation) {
        cpu.ready = None;
        cpu.stale += 1;
    }
    let polled = bevy::platform::time::Instant::now();
    let answer = cpu.search.as_mut().and_then(|s| s.job.poll(*threading));
    if matches!(*threading, CpuThreading::Sliced(_)) && cpu.search.is_some() {
        cpu.slice_max = cpu.slice_max.max(polled.elapsed());
    }
    if let Some(((searcher, turn), found)) = answer {
        cpu.longest_slice = std::mem::take(&mut cpu.slice_max);
        let s = cpu.search.take().expect("checked");
        cpu.searchers[s.side.index()] = Some(searcher);
        match turn {
            Some(t) => {
                cpu.ready = Some((s.generation, t));
                cpu.found = Some(found);
            }
            None => warn!("the CPU found no turn to play"),
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
    let history = history_hashes(state.game());
    // A side's first search makes its searcher inside the job (on the pool on the desktop), not in this frame:
    // a searcher writes its whole table when it is made. The stop flag exists first, so that a game that moves
    // on meanwhile can still stop it.
    let kept = cpu.searchers[side.index()].take();
    let draw = state.game().rules().draw;
    let seed = setup.seed ^ (state.game().turns().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let depth = Arc::new(AtomicU32::new(0));
    let report = depth.clone();
    let stop = kept.as_ref().map_or_else(|| Arc::new(AtomicBool::new(false)), Searcher::stop_flag);
    let job_stop = stop.clone();
    // One turn's search of the master's opening variety cannot be cut into slices: keep it short.
    let sliced = matches!(*threading, CpuThreading::Sliced(_));
    let cap = limits.0;
    let mut start = Some((kept, pos, history));
    let mut thinking: Option<Thinking> = None;
    let work: Work<(Searcher, Option<Turn>)> = Box::new(move |slice| {
        if let Some((kept, pos, history)) = start.take() {
            let mut searcher = kept.unwrap_or_else(|| Searcher::new(16));
            searcher.set_stop_flag(job_stop.clone());
            searcher.set_draw_rule(draw);
            let t = Thinking::new(level, searcher, &pos, &history, seed, cap);
            thinking = Some(if sliced { t.with_variety_depth(3) } else { t });
        }
        // The HUD reads the depth each frame; a relaxed store is enough for a progress display.
        let mut info = |i: &fanorona_engine::search::Info| report.store(i.depth, Ordering::Relaxed);
        let done = thinking.as_mut()?.run(slice, &mut info);
        done.then(|| thinking.take().expect("still thinking").finish())
    });
    let job = Job::start(*threading, work, &waker);
    cpu.started += 1;
    cpu.slice_max = Duration::ZERO;
    cpu.search = Some(Search { job, generation, hash: pos.hash(), side, stop, started: time.elapsed(), depth });
}

fn answer_draw_offers(
    mut offers: MessageReader<DrawOffered>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    mut bg: ResMut<Background>,
    threading: Res<CpuThreading>,
    waker: Res<LoopWaker>,
    mut requests: MessageWriter<MoveRequest>,
) {
    for offer in offers.read() {
        let cpu = offer.by.opponent();
        let Player::Cpu(level) = setup.player(cpu) else { continue };
        let pos = *state.game().position();
        let (hashes, limits) = (history_hashes(state.game()), level.draw_limits());
        let mut search = None;
        let work: Work<bool> = Box::new(move |slice| {
            // Made here, on the pool where there is one, not in the frame that asked (see `compute_hints`).
            let search = search.get_or_insert_with(|| SlicedSearch::new(Searcher::new(4), &pos, &hashes, limits));
            let r = match slice {
                Some(slice) => search.run_for(slice, |_| {})?,
                None => search.finish(|_| {}),
            };
            Some(Level::accepts_draw_after(&pos, cpu, r.score))
        });
        bg.draw = Some((state.generation(), Job::start(*threading, work, &waker)));
    }
    if let Some((g, job)) = &mut bg.draw
        && let Some((accept, _)) = job.poll(*threading)
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
    threading: Res<CpuThreading>,
    waker: Res<LoopWaker>,
) {
    if asks.read().count() > 0 && bg.hint.is_none() && !state.game().is_over() {
        let pos = *state.game().position();
        let generation = state.generation();
        let limits = Limits { movetime: Some(Duration::from_millis(700)), ..Limits::default() };
        let hashes = history_hashes(state.game());
        let mut search = None;
        let work: Work<(u64, Option<(Turn, Score)>)> = Box::new(move |slice| {
            // Made here, on the pool where there is one: a searcher writes its whole table when it is made, about a
            // millisecond for 8 MB but at times tens of them (the kernel's pages), which no frame should wait for.
            let search = search.get_or_insert_with(|| SlicedSearch::new(Searcher::new(8), &pos, &hashes, limits));
            let r = match slice {
                Some(slice) => search.run_for(slice, |_| {})?,
                None => search.finish(|_| {}),
            };
            Some((generation, r.best.clone().map(|b| (b, r.value()))))
        });
        bg.hint = Some(Job::start(*threading, work, &waker));
        hint_res.pending = true;
    }
    if let Some(job) = &mut bg.hint
        && let Some(((g, answer), _)) = job.poll(*threading)
    {
        bg.hint = None;
        hint_res.pending = false;
        hint_res.answer = answer.map(|(t, score)| (g, t, score));
    }
    // A hint is only worth showing for the position it was computed for.
    if hint_res.answer.as_ref().is_some_and(|(g, _, _)| *g != state.generation()) {
        hint_res.answer = None;
    }
}

/// Frames the CPU needs: every frame for thinking in slices or an answer about to be played, a few a second for
/// the HUD's clock while a search runs on the pool (its end wakes the window by itself).
fn demand_frames(
    cpu: Res<CpuPlayer>,
    bg: Res<Background>,
    busy: Res<AnimationsPending>,
    pause: Option<Res<State<Pause>>>,
    mut demand: ResMut<FrameDemand>,
) {
    let sliced = cpu.search.as_ref().is_some_and(|s| s.job.sliced())
        || bg.hint.as_ref().is_some_and(Job::sliced)
        || bg.draw.as_ref().is_some_and(|(_, j)| j.sliced());
    let answer_due = cpu.ready.is_some() && !busy.0 && !is_paused(pause.as_deref());
    if sliced || answer_due {
        demand.next_frame();
    } else if cpu.search.is_some() {
        demand.within(THINKING_TICK);
    }
}

/// Stops any search in flight and forgets finished answers (used when leaving a game).
pub fn cancel_all(cpu: &mut CpuPlayer) {
    if let Some(s) = cpu.search.take() {
        s.stop.store(true, Ordering::Relaxed);
        s.job.abandon();
        cpu.cancelled += 1;
    }
    cpu.ready = None;
}

/// The level of the CPU playing `side`, if the CPU plays it.
pub fn cpu_level(setup: &MatchSetup, side: Side) -> Option<Level> {
    match setup.player(side) {
        Player::Cpu(l) => Some(l),
        Player::Human | Player::Remote => None,
    }
}
