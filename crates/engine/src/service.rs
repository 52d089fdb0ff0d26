//! The engine as a service: jobs asked for and answered by messages, so that a program can run its thinking
//! wherever suits it (a thread pool, a Web Worker, or slices of its own frames) through one vocabulary.
//!
//! - A [`Request`] starts a [`Job`] (a CPU's turn, a search, a game's review) under an id of the caller's choice,
//!   or cancels one. Positions travel as game records ([`Record`]), which hold the rules, the history for
//!   repetitions and a relay in progress.
//! - The job answers with [`Reply`] messages tagged with its id: progress ([`Reply::Info`] after each completed
//!   iteration), then its result; a cancelled job answers nothing more.
//! - [`Running`] is one job in progress, run in slices of any length or to its end, on any thread.
//! - [`Engine`] runs jobs one after the other in slices, keeps each [`Memory`]'s searcher (its transposition table)
//!   between jobs and, where asked, builds the endgame tables in the time no job wants: what a Web Worker runs.
//!
//! Both message types read and write JSON ([`Request::to_json`], [`Reply::from_json`]…), the form they cross a
//! worker's boundary in. A malformed message is an error, never a panic.

use crate::game::Game;
use crate::geometry::Variant;
use crate::levels::{Level, Thinking, history_hashes};
use crate::record::Record;
use crate::review::{TurnReview, review_turn};
use crate::rules::Side;
use crate::search::{Info, Limits, SearchResult, Searcher, SlicedSearch};
use crate::tablebase::{self, SlicedBuild, Tablebase};
use crate::turns::Turn;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// The caller's name for a job, unique among its jobs in flight.
pub type JobId = u64;

/// Which searcher a job thinks with: each keeps its transposition table from one job to the next of the same
/// memory (a player's searches of one game build on each other), and jobs of different memories never share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Memory {
    /// A CPU player's turns.
    Player(Side),
    /// The player's hints.
    Hint,
    /// Judging draw offers.
    Draw,
    /// The analysis board's lines.
    Analysis,
    /// Reviewing games.
    Review,
}

impl Memory {
    /// The transposition table's size for this memory, in megabytes.
    pub fn table_mb(self) -> usize {
        match self {
            Memory::Player(_) | Memory::Review => 16,
            Memory::Hint => 8,
            Memory::Draw => 4,
            Memory::Analysis => 32,
        }
    }
}

/// Work for the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// The CPU's turn at `level` in the game's position ([`Thinking`]): [`Reply::Info`] for the full search's
    /// iterations, then [`Reply::Played`]. The same seed makes the same choice as long as no time limit cuts
    /// the search. `variety_depth` caps the master's opening variety ([`Thinking::with_variety_depth`]).
    Play {
        /// The game as a record ([`Record`]'s text).
        game: String,
        /// The level's number (1–5, [`Level::from_number`]).
        level: u8,
        seed: u64,
        /// Limits tighter than the level's, where set.
        cap: Limits,
        variety_depth: u32,
        /// Whose searcher thinks ([`Memory::Player`] of the side to move, as a rule).
        memory: Memory,
    },
    /// A search of the game's position (a hint, a draw offer's judgement, the analysis board's lines):
    /// [`Reply::Info`] for each line of each completed iteration, then [`Reply::Searched`].
    Search { game: String, limits: Limits, memory: Memory },
    /// The review of the game's turns from `from` on ([`review_turn`]): [`Reply::Reviewed`] for each turn in
    /// order, then [`Reply::Done`].
    Review { game: String, limits: Limits, from: usize },
}

impl Job {
    /// The searcher the job thinks with.
    pub fn memory(&self) -> Memory {
        match self {
            Job::Play { memory, .. } | Job::Search { memory, .. } => *memory,
            Job::Review { .. } => Memory::Review,
        }
    }

    /// The game the job is about, read from its record.
    fn game(&self) -> Result<Game, String> {
        let text = match self {
            Job::Play { game, .. } | Job::Search { game, .. } | Job::Review { game, .. } => game,
        };
        Record::load(text).map_err(|e| format!("the job's game cannot be read: {e}"))
    }
}

/// The game's record as a [`Job`] carries it.
pub fn game_text(game: &Game) -> String {
    Record::from_game(game, "", "", "").to_string()
}

/// A message to the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Starts `job` under `id`.
    Start { id: JobId, job: Job },
    /// Stops job `id` (or drops it unstarted): nothing more is answered for it.
    Cancel { id: JobId },
}

/// A message from the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// Progress of job `id`: a completed iteration (one line of it, with several lines).
    Info { id: JobId, info: Info },
    /// The turn chosen by a [`Job::Play`] (None when there is no legal turn).
    Played { id: JobId, turn: Option<Turn> },
    /// The result of a [`Job::Search`].
    Searched { id: JobId, result: SearchResult },
    /// The review of turn `index` of a [`Job::Review`] (None when the record's turn is not legal there).
    Reviewed { id: JobId, index: usize, review: Option<TurnReview> },
    /// The end of a [`Job::Review`].
    Done { id: JobId },
    /// Job `id` could not run (a record that does not read, a level that does not exist).
    Failed { id: JobId, error: String },
    /// The endgame table of `variant` up to `pieces` pieces is in use (`stored`: it came from storage, not a build).
    Table { variant: Variant, pieces: u32, stored: bool },
    /// The engine is running and reads requests (a worker's first message).
    Ready,
}

impl Reply {
    /// The job the reply belongs to (None: the engine's own news).
    pub fn job(&self) -> Option<JobId> {
        match self {
            Reply::Info { id, .. }
            | Reply::Played { id, .. }
            | Reply::Searched { id, .. }
            | Reply::Reviewed { id, .. }
            | Reply::Done { id }
            | Reply::Failed { id, .. } => Some(*id),
            Reply::Table { .. } | Reply::Ready => None,
        }
    }

    /// Whether this is the job's last reply.
    pub fn is_final(&self) -> bool {
        matches!(self, Reply::Played { .. } | Reply::Searched { .. } | Reply::Done { .. } | Reply::Failed { .. })
    }

    /// The reply as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a reply always serialises")
    }

    /// A reply from JSON.
    pub fn from_json(text: &str) -> Result<Reply, String> {
        serde_json::from_str(text).map_err(|e| format!("not an engine reply: {e}"))
    }

    /// Replies as one JSON array: what a worker posts after a slice of work.
    pub fn list_to_json(replies: &[Reply]) -> String {
        serde_json::to_string(replies).expect("replies always serialise")
    }

    /// Replies from a JSON array ([`Reply::list_to_json`]).
    pub fn list_from_json(text: &str) -> Result<Vec<Reply>, String> {
        serde_json::from_str(text).map_err(|e| format!("not engine replies: {e}"))
    }
}

impl Request {
    /// The request as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a request always serialises")
    }

    /// A request from JSON.
    pub fn from_json(text: &str) -> Result<Request, String> {
        serde_json::from_str(text).map_err(|e| format!("not an engine request: {e}"))
    }
}

/// What a running job is doing.
enum Work {
    Play(Box<Thinking>),
    Search(Box<SlicedSearch>),
    Review {
        game: Box<Game>,
        searcher: Searcher,
        next: usize,
        limits: Limits,
    },
    /// Done: the searcher waits to be given back.
    Finished(Searcher),
}

/// One job in progress: run it with [`Running::step`] until it says it is done, then give its searcher back with
/// [`Running::into_searcher`].
pub struct Running {
    id: JobId,
    memory: Memory,
    work: Work,
    stop: Arc<AtomicBool>,
}

impl Running {
    /// Starts job `id` with the memory's kept searcher, taken from `kept` (a new one when None). A job that cannot
    /// run gives its reason and leaves `kept` as it was.
    pub fn start(id: JobId, job: Job, kept: &mut Option<Searcher>) -> Result<Running, String> {
        let memory = job.memory();
        let game = job.game()?;
        if let Job::Play { level, .. } = job
            && Level::from_number(level).is_none()
        {
            return Err(format!("no level {level}"));
        }
        let mut searcher = kept.take().unwrap_or_else(|| Searcher::new(memory.table_mb()));
        searcher.set_draw_rule(game.rules().draw);
        let stop = searcher.stop_flag();
        let work = match job {
            Job::Play { level, seed, cap, variety_depth, .. } => {
                let level = Level::from_number(level).expect("checked above");
                let history = history_hashes(&game);
                let thinking = Thinking::new(level, searcher, game.position(), &history, seed, cap)
                    .with_variety_depth(variety_depth);
                Work::Play(Box::new(thinking))
            }
            Job::Search { limits, .. } => {
                let history = history_hashes(&game);
                Work::Search(Box::new(SlicedSearch::new(searcher, game.position(), &history, limits)))
            }
            Job::Review { limits, from, .. } => Work::Review { game: Box::new(game), searcher, next: from, limits },
        };
        Ok(Running { id, memory, work, stop })
    }

    /// The job's id.
    pub fn id(&self) -> JobId {
        self.id
    }

    /// The memory whose searcher the job thinks with.
    pub fn memory(&self) -> Memory {
        self.memory
    }

    /// The flag that ends the job at its next check (from another thread too).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Works for about `slice` (None: to the end), giving every reply to `emit`. Returns whether the job is done
    /// (its last reply given). A stopped job ends at its next check and answers with what it has.
    pub fn step(&mut self, slice: Option<Duration>, emit: &mut dyn FnMut(Reply)) -> bool {
        let id = self.id;
        match &mut self.work {
            Work::Play(thinking) => {
                if !thinking.run(slice, &mut |info: &Info| emit(Reply::Info { id, info: info.clone() })) {
                    return false;
                }
                let Work::Play(thinking) = std::mem::replace(&mut self.work, Work::Finished(Searcher::placeholder()))
                else {
                    unreachable!("matched above")
                };
                let (searcher, turn) = thinking.finish();
                self.work = Work::Finished(searcher);
                emit(Reply::Played { id, turn });
                true
            }
            Work::Search(search) => {
                let mut info = |i: &Info| emit(Reply::Info { id, info: i.clone() });
                let result = match slice {
                    Some(s) => search.run_for(s, &mut info).cloned(),
                    None => Some(search.finish(&mut info).clone()),
                };
                let Some(result) = result else { return false };
                emit(Reply::Searched { id, result });
                let Work::Search(search) = std::mem::replace(&mut self.work, Work::Finished(Searcher::placeholder()))
                else {
                    unreachable!("matched above")
                };
                self.work = Work::Finished(search.into_searcher());
                true
            }
            Work::Review { game, searcher, next, limits } => {
                let end = slice.map(|s| Instant::now() + s);
                let turns = game.turns().len();
                // A stopped review ends after the turn it was on.
                while *next < turns && !self.stop.load(Ordering::Relaxed) {
                    let i = *next;
                    let starts = game.turn_starts();
                    // The positions before this turn, for repetitions as in the game.
                    let history: Vec<u64> = starts[..i].iter().map(|p| p.hash()).collect();
                    let review = review_turn(searcher, &starts[i], &history, &game.turns()[i], *limits).ok();
                    emit(Reply::Reviewed { id, index: i, review });
                    *next += 1;
                    if end.is_some_and(|e| Instant::now() >= e) && *next < turns {
                        return false;
                    }
                }
                emit(Reply::Done { id });
                let Work::Review { searcher, .. } =
                    std::mem::replace(&mut self.work, Work::Finished(Searcher::placeholder()))
                else {
                    unreachable!("matched above")
                };
                self.work = Work::Finished(searcher);
                true
            }
            Work::Finished(_) => true,
        }
    }

    /// Ends the job (done or not) and gives its searcher back, ready for the next job of its memory.
    pub fn into_searcher(self) -> Searcher {
        let searcher = match self.work {
            Work::Play(thinking) => thinking.finish().0,
            Work::Search(search) => search.into_searcher(),
            Work::Review { searcher, .. } | Work::Finished(searcher) => searcher,
        };
        searcher.stop_flag().store(false, Ordering::Relaxed);
        searcher
    }
}

/// Runs `job` to its end on the calling thread, giving every reply to `emit`: the simplest host (a thread of
/// a pool). Returns the searcher to keep for the job's memory.
pub fn run_to_end(id: JobId, job: Job, mut kept: Option<Searcher>, emit: &mut dyn FnMut(Reply)) -> Option<Searcher> {
    match Running::start(id, job, &mut kept) {
        Ok(mut running) => {
            running.step(None, emit);
            Some(running.into_searcher())
        }
        Err(error) => {
            emit(Reply::Failed { id, error });
            kept
        }
    }
}

/// The endgame tables an [`Engine`] builds when no job runs, smallest first.
struct Tables {
    /// Tables still to have, in order: (board, pieces).
    plan: VecDeque<(Variant, u32)>,
    building: Option<SlicedBuild>,
}

/// Jobs run one after the other in slices, each memory's searcher kept between them, and the endgame tables built
/// in the time left: the engine of a Web Worker (or of a page without one, between frames).
pub struct Engine {
    queue: VecDeque<(JobId, Job)>,
    running: Option<Running>,
    searchers: HashMap<Memory, Searcher>,
    tables: Tables,
    /// Replies waiting for the next [`Engine::run_for`] (a job that failed to start).
    pending: Vec<Reply>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with nothing to do and no tables to build.
    pub fn new() -> Engine {
        Engine {
            queue: VecDeque::new(),
            running: None,
            searchers: HashMap::new(),
            tables: Tables { plan: VecDeque::new(), building: None },
            pending: Vec::new(),
        }
    }

    /// Builds the endgame tables of both boards, up to `pieces` (the smaller ones first, each shared with the
    /// searches as soon as it is complete: [`tablebase::offer_shared`]), when no job wants the time.
    pub fn with_tables(mut self, pieces: u32) -> Engine {
        let small = tablebase::QUICK_PIECES.min(pieces);
        for n in [small, pieces] {
            for variant in [Variant::Tsivy, Variant::Dimy] {
                if !self.tables.plan.contains(&(variant, n)) {
                    self.tables.plan.push_back((variant, n));
                }
            }
        }
        self
    }

    /// Takes a table from storage (a file's bytes, [`Tablebase::to_bytes`]): shared at once, and no longer built
    /// if it is as large as the plan's. Bytes that are not an intact table of `variant` and `pieces` are refused.
    pub fn load_table(&mut self, bytes: &[u8], variant: Variant, pieces: u32) -> Result<(), String> {
        let tb = Tablebase::from_bytes(bytes, variant, pieces).map_err(|e| e.to_string())?;
        if tablebase::shared_pieces(variant).is_some_and(|n| n >= pieces) {
            return Ok(());
        }
        tablebase::offer_shared(tb);
        self.tables.plan.retain(|&(v, n)| v != variant || n > pieces);
        if self.tables.building.as_ref().is_some_and(|b| b.variant() == variant && b.max_pieces() <= pieces) {
            self.tables.building = None;
        }
        self.pending.push(Reply::Table { variant, pieces, stored: true });
        Ok(())
    }

    /// The shared table of `variant` as bytes to store ([`Tablebase::to_bytes`]), if there is one.
    pub fn table_bytes(&self, variant: Variant) -> Option<(u32, Vec<u8>)> {
        tablebase::shared_now(variant).map(|tb| (tb.max_pieces(), tb.to_bytes()))
    }

    /// Takes a request: a start joins the queue, a cancel stops its job (or takes it off the queue).
    pub fn handle(&mut self, request: Request) {
        match request {
            Request::Start { id, job } => self.queue.push_back((id, job)),
            Request::Cancel { id } => {
                self.queue.retain(|(queued, _)| *queued != id);
                if self.running.as_ref().is_some_and(|r| r.id() == id) {
                    let running = self.running.take().expect("checked");
                    let memory = running.memory();
                    self.searchers.insert(memory, running.into_searcher());
                }
            }
        }
    }

    /// Whether a job runs or waits, or a table is still to build.
    pub fn is_busy(&self) -> bool {
        self.has_jobs() || !self.tables.plan.is_empty() || self.tables.building.is_some()
    }

    /// Whether a job runs or waits.
    pub fn has_jobs(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty() || !self.pending.is_empty()
    }

    /// Works for about `budget`: on the jobs in order, then on the tables. Gives every reply to `emit`.
    pub fn run_for(&mut self, budget: Duration, emit: &mut dyn FnMut(Reply)) {
        let end = Instant::now() + budget;
        for reply in self.pending.drain(..) {
            emit(reply);
        }
        loop {
            if self.running.is_none() {
                let Some((id, job)) = self.queue.pop_front() else { break };
                let memory = job.memory();
                let mut kept = self.searchers.remove(&memory);
                let started = Running::start(id, job, &mut kept);
                if let Some(s) = kept {
                    self.searchers.insert(memory, s);
                }
                match started {
                    Ok(r) => self.running = Some(r),
                    Err(error) => {
                        emit(Reply::Failed { id, error });
                        continue;
                    }
                }
            }
            let running = self.running.as_mut().expect("started above");
            let left = end.saturating_duration_since(Instant::now());
            if !running.step(Some(left), emit) {
                return;
            }
            let running = self.running.take().expect("checked");
            let memory = running.memory();
            self.searchers.insert(memory, running.into_searcher());
            if Instant::now() >= end {
                return;
            }
        }
        self.build_tables(end, emit);
    }

    fn build_tables(&mut self, end: Instant, emit: &mut dyn FnMut(Reply)) {
        while Instant::now() < end {
            if self.tables.building.is_none() {
                let Some((variant, pieces)) = self.tables.plan.pop_front() else { return };
                if tablebase::shared_pieces(variant).is_some_and(|n| n >= pieces) {
                    continue;
                }
                self.tables.building = Some(SlicedBuild::new(variant, pieces));
            }
            let build = self.tables.building.as_mut().expect("set above");
            if !build.run_for(end.saturating_duration_since(Instant::now())) {
                return;
            }
            let build = self.tables.building.take().expect("checked");
            if let Some(tb) = build.finish() {
                let (variant, pieces) = (tb.variant(), tb.max_pieces());
                tablebase::offer_shared(tb);
                emit(Reply::Table { variant, pieces, stored: false });
            }
        }
    }
}
