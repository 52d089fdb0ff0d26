//! Alpha-beta search over steps: iterative deepening, principal variation search, transposition table, move
//! ordering, quiescence over forced captures, draws by rule, and time/node limits with a shared stop flag.
//!
//! Depth is counted in whole turns: a relay continuation does not use depth, so relays are never cut in the
//! middle. Scores are from the side to move's point of view; a step that keeps the same side to move (a relay)
//! does not negate.

mod eval;
mod ordering;
mod parameters;
mod table;

pub use eval::{EvalKind, MOBILITY_WEIGHT, STRONG_WEIGHT, evaluate, full_evaluate, plain_evaluate};
pub use parameters::{MAX_THREADS, SearchParams, SearcherOption};

use crate::position::{Position, Step, StepKind, StepList};
use crate::rules::{DrawRule, Side};
use crate::turns::Turn;
use eval::centrality;
use ordering::{
    CONT_SIZE, HISTORY_MAX, KeyBuffer, cap_slot, capture_key, cont_index, gravity, key_buffer, keys_for, pick,
    several_captures,
};
use parameters::CORR_MAX_WEIGHT;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use table::{EXACT, LOWER, PREFETCH, Table, UPPER, from_tt, to_tt, unpack};
use web_time::Instant;

// The scale is the score module's, shared with the endgame tables; the search's users find it here too.
pub use crate::score::{Oracle, PIECE, Score, WIN, WIN_BOUND};
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 512;

/// How long to search, and how many lines to report.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in turns.
    pub depth: Option<u32>,
    /// Wall-clock budget.
    pub movetime: Option<Duration>,
    /// Maximum nodes (steps searched).
    pub nodes: Option<u64>,
    /// How many best root turns to search and report as [`SearchResult::lines`] (default 1; 0 counts as 1).
    /// Line `k` is searched with the root turns of lines `1..k` excluded, as UCI engines do.
    pub multipv: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { depth: None, movetime: None, nodes: None, multipv: 1 }
    }
}

impl Limits {
    /// These limits, reporting the `n` best root turns.
    pub fn with_multipv(self, n: usize) -> Limits {
        Limits { multipv: n, ..self }
    }

    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    /// Search for a fixed time.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime: Some(Duration::from_millis(ms)), ..Limits::default() }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth completed, in turns.
    pub depth: u32,
    /// Deepest turn reached (quiescence included).
    pub seldepth: u32,
    /// Score for the side to move at the root, raw (see [`Info::value`]).
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation, as whole turns.
    pub pv: Vec<Turn>,
    /// Which line this is, 1 being the best (see [`Limits::multipv`]); `score` and `pv` are that line's.
    pub multipv: usize,
}

impl Info {
    /// The score, read as an evaluation or a win or loss in turns.
    pub fn value(&self) -> Score {
        Score::from_raw(self.score)
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// The answer of a search.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best turn found (None when the side to move has no legal turn).
    pub best: Option<Turn>,
    /// Its score, raw (see [`SearchResult::value`]).
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Turn>,
    /// Time used.
    pub elapsed: Duration,
    /// The best root turns with their lines, best first (one line unless [`Limits::multipv`] asks for more; fewer
    /// when there are fewer legal turns). Filled at every completed iteration; a search stopped while it searched
    /// lines 2 and beyond keeps the earlier iteration's lines for the turns it did not reach, with their own
    /// depth. Empty when no iteration completed.
    pub lines: Vec<PvLine>,
}

/// One line of a multi-PV search: a root turn, its score and what follows.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Score for the side to move at the root, raw (see [`PvLine::value`]).
    pub score: i32,
    /// Depth of the iteration that found it, in turns.
    pub depth: u32,
    /// The line, starting with its root turn (never empty).
    pub pv: Vec<Turn>,
}

impl SearchResult {
    /// The best turn's score, read as an evaluation or a win or loss in turns.
    pub fn value(&self) -> Score {
        Score::from_raw(self.score)
    }
}

impl PvLine {
    /// The line's score, read as an evaluation or a win or loss in turns.
    pub fn value(&self) -> Score {
        Score::from_raw(self.score)
    }
}

/// The search engine. Keep one per player: its table and history make later searches faster.
pub struct Searcher {
    /// The search options ([`Searcher::configure`]): every tuning knob and evaluation term, with its default.
    pub params: SearchParams,
    tt: Arc<Table>,
    /// Whether the table is used (off only to test the search against plain minimax).
    tt_enabled: bool,
    /// Threads of a search with a time or depth limit (Lazy SMP: helpers search the same position, sharing the
    /// table, and the main thread answers). A node budget always searches on one thread, so that it replays.
    pub threads: usize,
    /// The helper threads' searchers, kept from search to search for their history and killers.
    helpers: Vec<Searcher>,
    /// A helper that searches only even depths after the first two (so that it runs ahead of the main thread
    /// instead of repeating its work).
    skip_odd: bool,
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// History of captures that caused a cut, by side and kind (approach, withdrawal), origin and destination:
    /// orders captures of the same size (option `caphist`).
    cap_history: Box<[[[i32; 64]; 64]; 4]>,
    killers: Vec<[Option<Step>; 2]>,
    pv: Vec<Vec<Step>>,
    /// Turn-start hashes of the game so far and of the current search path (for repetition).
    path: Vec<u64>,
    oracle: Option<Arc<dyn Oracle>>,
    stop: Arc<AtomicBool>,
    draw: DrawRule,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    seldepth: u32,
    pub(crate) root_side: Side,
    /// Threat extensions on the path to the node at each step ply.
    exts: Vec<u8>,
    /// Root turns a multi-PV search leaves out (the lines already found at this depth).
    excluded: Vec<Turn>,
    /// The steps of the root turn played so far on the current path, while `excluded` is not empty.
    root_prefix: Vec<Step>,
    /// Whether the node at each step ply is inside its own ProbCut search (no second one nested in it).
    pc_at: Vec<bool>,
    /// Whether the node at each step ply was reached by a pass (no two passes in a row).
    null_at: Vec<bool>,
    /// The first step that the singular test at each ply leaves out ([`SearchParams::singular`]).
    se_excluded: Vec<Option<Step>>,
    /// The depth of the current iteration: extensions stop at twice that many turns from the root.
    iter_depth: i32,
    /// The refutation of each step, by the side that played it, its origin and its destination
    /// ([`SearchParams::use_countermoves`]).
    countermoves: Box<[[[Option<Step>; 64]; 64]; 2]>,
    /// The step played from the node at each step ply on the current path.
    played: Vec<Option<Step>>,
    /// The continuation histories of [`SearchParams::cont_hist`], the opponent's then the side's own, each by side,
    /// the earlier step's destination, and the step's origin and destination ([`cont_index`]); empty until the
    /// option is first used.
    cont_table: Vec<i32>,
    /// The step ply at which the turn of the node at each step ply started (for the side's own last step).
    turn_start: Vec<usize>,
    /// The tables of [`SearchParams::corr`] ([`corr_slots`]): empty until the option is first used.
    corr_table: Vec<i32>,
}

/// `n.ln()` for the late-move reductions, from a table for the depths and step counts that occur (the logarithm
/// itself took 2% of the search's time): the same `f32` values, so the search is node for node the same.
#[inline]
fn ln(n: usize) -> f32 {
    static TABLE: std::sync::LazyLock<[f32; 256]> =
        std::sync::LazyLock::new(|| std::array::from_fn(|n| (n as f32).ln()));
    TABLE.get(n).copied().unwrap_or_else(|| (n as f32).ln())
}

/// Null-move pruning needs at least this many pieces of the side to move: with fewer, being forced to move
/// (into a capture) decides endgames, and a pass is not a fair lower bound.
const NULL_MIN_PIECES: u32 = 5;
/// The least depth of a ProbCut test (option `pc`).
const PROBCUT_DEPTH: i32 = 5;
/// How many turns shallower a ProbCut test searches.
const PROBCUT_REDUCTION: i32 = 4;

/// What the table holds for a node, as its stages read it: the score (at the node's distance from the root), the
/// depth it was searched to and its bound.
type TableBound = (i32, i32, u8);

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(16)
    }
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_megabytes` MB.
    pub fn new(tt_megabytes: usize) -> Searcher {
        Searcher::with_table(Table::new(tt_megabytes))
    }

    fn with_table(tt: Table) -> Searcher {
        Searcher {
            params: SearchParams::default(),
            tt: Arc::new(tt),
            tt_enabled: true,
            threads: 1,
            helpers: Vec::new(),
            skip_odd: false,
            history: Box::new([[[0; 64]; 64]; 2]),
            cap_history: Box::new([[[0; 64]; 64]; 4]),
            killers: vec![[None; 2]; MAX_PLY],
            pv: vec![Vec::new(); MAX_PLY + 1],
            path: Vec::new(),
            oracle: None,
            stop: Arc::new(AtomicBool::new(false)),
            draw: DrawRule::default(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            seldepth: 0,
            root_side: Side::White,
            pc_at: vec![false; MAX_PLY + 1],
            null_at: vec![false; MAX_PLY + 1],
            exts: vec![0; MAX_PLY + 1],
            se_excluded: vec![None; MAX_PLY + 1],
            iter_depth: 0,
            countermoves: Box::new([[[None; 64]; 64]; 2]),
            played: vec![None; MAX_PLY + 1],
            cont_table: Vec::new(),
            turn_start: vec![0; MAX_PLY + 1],
            corr_table: Vec::new(),
            excluded: Vec::new(),
            root_prefix: Vec::new(),
        }
    }

    /// The deliberately plain reference player's searcher: material and a piece-square table, PVS with the
    /// table and history ordering, relays that do not use depth, and no quiescence (a position at depth 0 is
    /// scored as it stands, even when the side to move must capture).
    pub fn baseline(tt_megabytes: usize) -> Searcher {
        let mut s = Searcher::new(tt_megabytes);
        s.configure("baseline").expect("the baseline options are valid");
        s
    }

    /// Changes search options from a comma-separated list, applied in order (see [`SearchParams::apply`] for the
    /// names): the options of the searcher itself (`tb`/`notb`, `tt-single`, `threads`) change it, the others its
    /// [`Searcher::params`]. An unknown name or a bad value is an error, and the options before it stay applied.
    pub fn configure(&mut self, spec: &str) -> Result<(), String> {
        let (tt, oracle, threads) = (&self.tt, &mut self.oracle, &mut self.threads);
        self.params.apply(spec, |option| match option {
            SearcherOption::Tablebase(true) => {
                let dir = crate::tablebase::default_dir();
                *oracle = Some(crate::tablebase::shared(crate::geometry::Variant::Tsivy, dir.as_deref()));
            }
            SearcherOption::Tablebase(false) => *oracle = None,
            SearcherOption::SingleSlot(on) => tt.single.store(on, Ordering::Relaxed),
            SearcherOption::Threads(n) => *threads = n,
        })
    }

    /// Whether Master plays the opening book's turns with this searcher (option `book`, on by default;
    /// `nobook` and `baseline` turn it off).
    pub fn uses_book(&self) -> bool {
        self.params.use_book
    }

    /// The opening book this searcher plays from: None with `nobook`, else the file of `bookfile=PATH` or the
    /// built-in book.
    pub fn opening_book(&self) -> Option<&crate::book::OpeningBook> {
        self.params.use_book.then(|| self.params.book.as_deref().unwrap_or_else(|| crate::book::OpeningBook::builtin()))
    }

    /// The score of a quiet leaf (a turn start where the side to move cannot capture) for the side to move: the
    /// static evaluation, less what the opponent threatens to take, plus the network's correction with `net`.
    pub fn quiet_eval(&self, pos: &Position) -> i32 {
        let mut score = self.static_eval(pos);
        // A wide network's exposed pieces come from the same walk of the opponent's captures as the threat.
        let wide = self.params.net.as_ref().is_some_and(|n| n.inputs() == crate::eval_net::WIDE_INPUTS);
        let mut exposed = None;
        if self.params.threat2_weight != 0 && !self.params.threat_relay {
            let (first, second) = pos.double_threat();
            score -= self.params.threat_weight * first as i32 + self.params.threat2_weight * second as i32;
        } else if self.params.threat_weight != 0 {
            let threat = if self.params.threat_relay {
                pos.threat_relay()
            } else if wide {
                let (most, union) = pos.threat_and_exposed();
                exposed = Some(union);
                most
            } else {
                pos.threat()
            };
            score -= self.params.threat_weight * threat as i32;
        }
        if self.params.exposed_weight != 0 {
            let union = *exposed.get_or_insert_with(|| pos.exposed_pieces());
            score -= self.params.exposed_weight * union.count_ones() as i32;
        }
        if let Some(net) = &self.params.net {
            let correction = match exposed {
                Some(union) => net.evaluate_exposed(pos, union),
                None => net.evaluate(pos),
            };
            // The default skips a division at every quiet leaf (the search's hottest evaluation).
            score += if self.params.net_scale == 100 { correction } else { correction * self.params.net_scale / 100 };
        }
        score
    }

    /// The static score of a turn-start position for the side to move, with this searcher's evaluation.
    #[inline]
    fn static_eval(&self, pos: &Position) -> i32 {
        match self.params.eval {
            EvalKind::Full => {
                let mut score = evaluate(pos);
                if self.params.mobility_weight != 0 {
                    score += self.params.mobility_weight * pos.mobility();
                }
                if self.params.mobility_endgame != 0 {
                    let start = 2 * pos.variant().start_pieces() as i32;
                    let gone = start - (pos.count(Side::White) + pos.count(Side::Black)) as i32;
                    score += self.params.mobility_endgame * gone / start.max(1) * pos.mobility();
                }
                if self.params.lead_weight != 0 {
                    let (own, opp) =
                        (pos.count(pos.side_to_move()) as i32, pos.count(pos.side_to_move().opponent()) as i32);
                    score += (own - opp) * (self.params.lead_from - own - opp).max(0) * self.params.lead_weight;
                }
                if self.params.centre_weight != 0 {
                    let (own, opp) = (pos.pieces(pos.side_to_move()), pos.pieces(pos.side_to_move().opponent()));
                    score +=
                        self.params.centre_weight * (centrality(pos.variant(), own) - centrality(pos.variant(), opp));
                }
                if self.params.space_weight != 0 {
                    score += self.params.space_weight * pos.space();
                }
                if self.params.keep_weight != 0 {
                    let on_board = (pos.count(Side::White) + pos.count(Side::Black)) as i32;
                    let keep = self.params.keep_weight * on_board;
                    score += if pos.side_to_move() == self.root_side { keep } else { -keep };
                }
                if self.params.immobile_weight != 0 {
                    let (own, opp) = pos.immobile();
                    score += self.params.immobile_weight * (opp as i32 - own as i32);
                }
                if self.params.strong_extra != 0 {
                    let strong = pos.geometry().strong;
                    let (own, opp) = (pos.pieces(pos.side_to_move()), pos.pieces(pos.side_to_move().opponent()));
                    score += self.params.strong_extra
                        * ((own & strong).count_ones() as i32 - (opp & strong).count_ones() as i32);
                }
                score
            }
            EvalKind::Plain => plain_evaluate(pos),
            EvalKind::Tuned => crate::tuned::evaluate_with(&self.params.tuned_weights, pos),
        }
    }

    /// A searcher with a one-entry table: a cheap stand-in while the real one is lent out.
    pub(crate) fn placeholder() -> Searcher {
        Searcher::with_table(Table::new(0))
    }

    /// The flag that stops a running search at once when set (shared with other threads).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The nodes of this searcher's last search (0 before its first): whether, and how far, it searched.
    #[cfg(test)]
    pub(crate) fn nodes_searched(&self) -> u64 {
        self.nodes
    }

    /// Makes `stop` the flag that stops this searcher's searches, in place of its own: a caller can then hand
    /// out the flag before the searcher exists (the game makes a searcher, which writes its whole table, off the
    /// frame that asked for it).
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

    /// The exact endgame oracle the search uses, if any.
    pub fn oracle(&self) -> Option<&Arc<dyn Oracle>> {
        self.oracle.as_ref()
    }

    /// Uses an exact endgame oracle (the tablebase) in the search.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle>>) {
        self.oracle = oracle;
    }

    /// The draw rule the search respects (default: the game's default).
    pub fn set_draw_rule(&mut self, draw: DrawRule) {
        self.draw = draw;
    }

    /// Turns the transposition table off or on (for testing the search against plain minimax).
    pub fn set_table_enabled(&mut self, on: bool) {
        self.tt_enabled = on;
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.helpers.clear();
        for h in self.history.iter_mut().chain(self.cap_history.iter_mut()) {
            for row in h.iter_mut() {
                row.fill(0);
            }
        }
        self.killers.fill([None; 2]);
        for side in self.countermoves.iter_mut() {
            for row in side.iter_mut() {
                row.fill(None);
            }
        }
        self.cont_table.fill(0);
        self.corr_table.fill(0);
    }

    /// Searches `pos` (at the start of a turn or mid-relay). `history` holds the hashes of the positions at the
    /// start of the earlier turns of the game since its last capture (oldest first, for repetitions); their
    /// count is the number of turns without capture so far. `info` is called after every completed iteration.
    pub fn search(&mut self, pos: &Position, history: &[u64], limits: Limits, info: impl FnMut(&Info)) -> SearchResult {
        let mut result = self.search_threads(pos, history, limits, info);
        if limits.multipv <= 1
            && let Some(turn) = self.swindle_turn(pos, history).filter(|t| result.best.as_ref() != Some(t))
        {
            result.pv = vec![turn.clone()];
            result.best = Some(turn);
        }
        result
    }

    /// The drawing turn of option `swindle` when the oracle knows `pos` to be drawn and some drawing turn leaves
    /// the opponent a reply that loses; None otherwise. A turn that repeats a position of `history` counts half
    /// (its repetition brings the draw by rule nearer) and one that would repeat a position for the third time
    /// is left out. Ties go to the first turn in the order of [`Position::legal_turns`].
    pub fn swindle_turn(&self, pos: &Position, history: &[u64]) -> Option<Turn> {
        let oracle = self.oracle.as_ref().filter(|_| self.params.swindle > 0)?;
        if pos.in_relay() || oracle.score(pos)? != 0 {
            return None;
        }
        let full = f64::from(self.params.swindle.max(1));
        let mut best: Option<(Turn, f64)> = None;
        for turn in pos.legal_turns() {
            let mut child = *pos;
            if child.play_turn(&turn).is_err() || oracle.score(&child) != Some(0) {
                continue;
            }
            let seen = history.iter().filter(|&&h| h == child.hash()).count();
            if seen >= 2 {
                continue;
            }
            let (mut traps, mut safe) = (0.0, 0.0);
            for reply in child.legal_turns() {
                let mut next = child;
                if next.play_turn(&reply).is_err() {
                    continue;
                }
                match oracle.score(&next).map(Score::from_raw) {
                    // A loss in n turns for the opponent: the longer, the less likely its search sees it.
                    Some(Score::Win(n)) => traps += (f64::from(n) / full).min(1.0),
                    _ => safe += 1.0,
                }
            }
            if traps + safe <= 0.0 {
                continue;
            }
            let chance = traps / (traps + safe) * 0.5f64.powi(seen as i32);
            if chance > 0.0 && best.as_ref().is_none_or(|b| chance > b.1) {
                best = Some((turn, chance));
            }
        }
        best.map(|b| b.0)
    }

    /// [`Searcher::search`] without the swindle: on this thread, or with helpers.
    fn search_threads(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
        mut info: impl FnMut(&Info),
    ) -> SearchResult {
        self.tt.next_generation();
        let helpers = if limits.nodes.is_none() { self.threads.clamp(1, MAX_THREADS) - 1 } else { 0 };
        if helpers == 0 {
            return self.search_alone(pos, history, limits, info);
        }
        let mut team = std::mem::take(&mut self.helpers);
        team.truncate(helpers);
        while team.len() < helpers {
            team.push(self.helper());
        }
        for h in team.iter_mut() {
            h.copy_options(self);
            h.stop.store(false, Ordering::Relaxed);
        }
        // Helpers look a little further than asked, so that they are still filling the table when the main
        // thread reaches its last depth; the main thread's answer is the search's.
        let helper_limits = Limits { depth: limits.depth.map(|d| d + 1), multipv: 1, ..limits };
        let stops: Vec<Arc<AtomicBool>> = team.iter().map(|h| h.stop.clone()).collect();
        let (result, helper_nodes) = std::thread::scope(|scope| {
            let running: Vec<_> = team
                .iter_mut()
                .enumerate()
                .map(|(k, h)| {
                    h.skip_odd = k % 2 == 1;
                    scope.spawn(move || h.search_alone(pos, history, helper_limits, |_| {}).nodes)
                })
                .collect();
            let result = self.search_alone(pos, history, limits, &mut info);
            for stop in &stops {
                stop.store(true, Ordering::Relaxed);
            }
            (result, running.into_iter().map(|r| r.join().unwrap_or(0)).sum::<u64>())
        });
        self.helpers = team;
        SearchResult { nodes: result.nodes + helper_nodes, ..result }
    }

    /// [`Searcher::search`] on this thread only.
    fn search_alone(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: Limits,
        mut info: impl FnMut(&Info),
    ) -> SearchResult {
        let mut run = Run::new(self, pos, history, limits);
        self.advance(&mut run, None, &mut info);
        // A stop request ends this search only: clear it here, not at the start, so that a stop sent before
        // the search got going is not lost.
        self.stop.store(false, Ordering::Relaxed);
        run.result
    }

    /// A helper of a parallel search: the same table and options, its own history, killers and stop flag.
    fn helper(&self) -> Searcher {
        let mut h = Searcher::with_table(Table::new(0));
        h.tt = self.tt.clone();
        h.copy_options(self);
        h
    }

    /// Takes the search options of `main` (everything [`Searcher::configure`] sets, the oracle and draw rule).
    fn copy_options(&mut self, main: &Searcher) {
        self.tt_enabled = main.tt_enabled;
        self.oracle = main.oracle.clone();
        self.draw = main.draw;
        self.params = main.params.clone();
    }

    /// Runs iterations of `run` until it is done or `slice_end` passes (an unfinished iteration is dropped, but
    /// what it stored in the transposition table makes the next attempt at that depth much cheaper).
    fn advance(&mut self, run: &mut Run, slice_end: Option<Instant>, info: &mut impl FnMut(&Info)) {
        let deadline = match (run.deadline, slice_end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        while !run.done {
            self.aborted = false;
            self.deadline = deadline;
            self.nodes = run.nodes;
            self.node_limit = run.limits.nodes.unwrap_or(u64::MAX);
            // Line 1 is the plain search; line k leaves out the root turns of the lines found before it.
            let line = run.found.len();
            self.excluded = run.found.iter().map(|l| l.pv[0].clone()).collect();
            let prev = if line == 0 { run.prev } else { run.result.lines.get(line).map(|l| l.score) };
            let outcome = self.iterate(&run.pos, &run.history, run.depth, prev);
            self.excluded.clear();
            run.nodes = self.nodes;
            run.result.nodes = self.nodes;
            run.result.elapsed = run.start.elapsed();
            let Some(score) = outcome else {
                // Stopped: by the caller, the node budget or the overall deadline ends the search; the end of a
                // slice only pauses it.
                let paused = slice_end.is_some_and(|e| Instant::now() >= e)
                    && !self.stop.load(Ordering::Relaxed)
                    && self.nodes < self.node_limit
                    && run.deadline.is_none_or(|d| Instant::now() < d);
                run.done = !paused;
                if run.done && line > 0 {
                    // The lines found at this depth, then the last iteration's for the turns not reached.
                    let mut lines = std::mem::take(&mut run.found);
                    let old = std::mem::take(&mut run.result.lines);
                    let fresh: Vec<Turn> = lines.iter().map(|l| l.pv[0].clone()).collect();
                    lines.extend(old.into_iter().filter(|o| !fresh.contains(&o.pv[0])));
                    lines.truncate(run.lines_wanted);
                    run.result.lines = lines;
                }
                // The unfinished iteration searched its first root turns completely: a turn it found better than
                // the last iteration's choice (the table's turn, searched first) is the better answer, and so is
                // one that failed high on the aspiration window ([`Searcher::iterate`] keeps its line).
                if run.done && self.params.use_partial && run.depth > 1 && line == 0 {
                    let pv = steps_to_turns(&run.pos, &self.pv[0]);
                    if let Some(first) = pv.first().filter(|t| run.pos.legal_turns().contains(t)) {
                        run.result.best = Some(first.clone());
                        run.result.pv = pv;
                    }
                }
                return;
            };
            let pv = steps_to_turns(&run.pos, &self.pv[0]);
            if line == 0 {
                run.prev = Some(score);
                run.result = SearchResult {
                    best: pv.first().cloned().or(run.result.best.take()),
                    score,
                    depth: run.depth,
                    nodes: self.nodes,
                    pv: pv.clone(),
                    elapsed: run.start.elapsed(),
                    lines: std::mem::take(&mut run.result.lines),
                };
            }
            match pv.first() {
                Some(first) if !run.found.iter().any(|l| l.pv[0] == *first) => {
                    run.found.push(PvLine { score, depth: run.depth, pv });
                }
                // No line (a search stopped before its first step): report the lines found so far.
                _ => run.lines_wanted = run.found.len().max(1),
            }
            if run.found.len() < run.lines_wanted {
                continue;
            }
            let mut lines = std::mem::take(&mut run.found);
            // Search instability can rank a later line above an earlier one: report them best first, and answer
            // with the best.
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            if let Some(top) = lines.first().filter(|_| run.lines_wanted > 1) {
                run.result.best = Some(top.pv[0].clone());
                run.result.score = top.score;
                run.result.pv = top.pv.clone();
            }
            for (k, l) in lines.iter().enumerate() {
                info(&Info {
                    depth: run.depth,
                    seldepth: self.seldepth,
                    score: l.score,
                    nodes: self.nodes,
                    elapsed: run.start.elapsed(),
                    pv: l.pv.clone(),
                    multipv: k + 1,
                });
            }
            // A win or loss proven within the depth searched: deeper cannot change it.
            let proven = |score: i32| match Score::from_raw(score) {
                Score::Win(n) | Score::Loss(n) => run.depth > n + 1,
                Score::Eval(_) => false,
            };
            let forced =
                lines.iter().map(|l| l.score).chain((lines.is_empty()).then_some(run.result.score)).all(proven);
            run.result.lines = lines;
            // Another iteration usually costs several times the last one. Without partial results, do not start
            // what cannot finish; with them, the time is a budget to spend: a partial iteration still answers.
            let out_of_time = run.deadline.is_some_and(|d| {
                let now = Instant::now();
                now >= d
                    || (!self.params.use_partial
                        && run.limits.depth.is_none()
                        && (now - run.start) * 3 > (d - run.start) * 2)
            });
            run.depth += 1 + u32::from(self.skip_odd && run.depth >= 2 && run.depth.is_multiple_of(2));
            run.done = forced || out_of_time || run.depth > run.max_depth;
        }
    }

    /// The score of `pos` from a search of exactly `depth` turns (0: forced captures only), without iterative
    /// deepening or reports.
    pub fn search_at_depth(&mut self, pos: &Position, history: &[u64], depth: u32) -> i32 {
        self.root_side = pos.side_to_move();
        let score = self.fixed_depth(pos, history, depth);
        self.stop.store(false, Ordering::Relaxed);
        score
    }

    /// [`Searcher::search_at_depth`] for the side the caller set in `root_side` (whose draws get contempt).
    pub(crate) fn fixed_depth(&mut self, pos: &Position, history: &[u64], depth: u32) -> i32 {
        self.fixed_depth_unchecked(pos, history, depth, u64::MAX)
    }

    /// [`Searcher::fixed_depth`] within `max_nodes` nodes: None when the search needs more.
    pub(crate) fn fixed_depth_within(
        &mut self,
        pos: &Position,
        history: &[u64],
        depth: u32,
        max_nodes: u64,
    ) -> Option<i32> {
        let score = self.fixed_depth_unchecked(pos, history, depth, max_nodes);
        (!self.aborted).then_some(score)
    }

    fn fixed_depth_unchecked(&mut self, pos: &Position, history: &[u64], depth: u32, max_nodes: u64) -> i32 {
        let limits = Limits { nodes: (max_nodes < u64::MAX).then_some(max_nodes), ..Limits::default() };
        self.begin(limits, Instant::now());
        self.path.clear();
        self.path.extend_from_slice(history);
        if depth == 0 {
            self.quiesce(pos, -INF, INF, 0, 0, 0)
        } else {
            self.negamax(pos, depth as i32, -INF, INF, 0, 0, history.len() as u32)
        }
    }

    fn begin(&mut self, limits: Limits, start: Instant) {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.movetime.map(|t| start + t);
    }

    /// One iteration at `depth`, with an aspiration window around the previous score. None if aborted.
    fn iterate(&mut self, pos: &Position, history: &[u64], depth: u32, prev: Option<i32>) -> Option<i32> {
        self.root_side = pos.side_to_move();
        self.path.clear();
        self.path.extend_from_slice(history);
        self.root_prefix.clear();
        let quiet = history.len() as u32;
        self.seldepth = 0;
        self.iter_depth = depth as i32;
        let mut delta = self.params.aspiration;
        let (mut alpha, mut beta) = match prev {
            Some(s) if depth >= 4 && s.abs() < WIN_BOUND => (s - delta, s + delta),
            _ => (-INF, INF),
        };
        // The line of a root turn that failed high: it beat the window's top, and so the last iteration's choice,
        // at this depth. A re-search cut before it completes its first turn must not forget it. (A later root
        // turn that only beats the best so far in its null-window search is not kept: those searches prune
        // more, and answering them measured −149 Elo at 60,000 nodes a turn.)
        let mut fail_high: Option<Vec<Step>> = None;
        loop {
            let score = self.negamax(pos, depth as i32, alpha, beta, 0, 0, quiet);
            if self.aborted {
                if self.params.keep_fail_high
                    && self.pv[0].is_empty()
                    && let Some(line) = fail_high
                {
                    self.pv[0] = line;
                }
                return None;
            }
            if score <= alpha && alpha > -INF {
                fail_high = None;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                if !self.pv[0].is_empty() {
                    fail_high = Some(self.pv[0].clone());
                }
                beta = (score + delta).min(INF);
            } else {
                return Some(score);
            }
            delta *= 3;
        }
    }

    #[inline]
    fn poll(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.nodes >= self.node_limit
            {
                self.aborted = true;
            }
        } else if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        self.aborted
    }

    /// The principal variation at `sply` becomes `step` followed by the child's.
    #[inline]
    fn update_pv(&mut self, sply: usize, step: Step) {
        let (head, tail) = self.pv.split_at_mut(sply + 1);
        head[sply].clear();
        head[sply].push(step);
        head[sply].extend_from_slice(&tail[0]);
    }

    /// The oracle's exact score of a turn-start position `tply` turns from the root, wins and losses counted
    /// from the root.
    #[inline]
    fn oracle_score(&self, pos: &Position, tply: i32) -> Option<i32> {
        self.oracle_score_upto(pos, tply, self.params.tb_pieces)
    }

    /// [`Searcher::oracle_score`] for positions of at most `pieces` pieces.
    #[inline]
    fn oracle_score_upto(&self, pos: &Position, tply: i32, pieces: u32) -> Option<i32> {
        if (pos.pieces(Side::White) | pos.pieces(Side::Black)).count_ones() > pieces {
            return None;
        }
        // The oracle counts from the position itself, as the table does.
        match self.oracle.as_ref()?.score(pos)? {
            0 if self.params.tb_contempt => Some(self.draw_score(pos)),
            s => Some(from_tt(s, tply)),
        }
    }

    /// A draw by rule, scored with contempt: slightly bad for the side the search plays for, so that it plays on
    /// when it is not worse instead of settling for a repetition.
    #[inline]
    fn draw_score(&self, pos: &Position) -> i32 {
        if pos.side_to_move() == self.root_side { -self.params.contempt } else { self.params.contempt }
    }

    fn is_repetition(&self, hash: u64, quiet: u32) -> bool {
        let n = self.path.len();
        let from = n.saturating_sub(quiet as usize);
        // Same side to move only every other turn.
        self.path[from..].iter().rev().skip(1).step_by(2).any(|&h| h == hash)
    }

    /// Terminal and rule checks at the start of a turn: the score if the game is decided here.
    #[inline]
    fn turn_start_score(&self, pos: &Position, tply: i32, quiet: u32) -> Option<i32> {
        if pos.count(pos.side_to_move()) == 0 {
            return Some(-WIN + tply);
        }
        if tply > 0 {
            let limit = self.draw.no_capture_turns as u32;
            if limit > 0 && quiet >= limit {
                return Some(self.draw_score(pos));
            }
            if self.draw.repetitions > 0 && quiet >= 2 && self.is_repetition(pos.hash(), quiet) {
                return Some(self.draw_score(pos));
            }
            if let Some(s) = self.oracle_score(pos, tply) {
                return Some(s);
            }
        }
        None
    }

    /// The share `num / den` of a leaf's score kept `quiet` turns after the last capture, with option
    /// `progress=N`: all of it for N turns, then less and less until the no-capture limit, where the game is drawn
    /// (a lead that makes no progress is worth less, as the draw comes nearer). None: the whole score.
    fn progress_scale(&self, quiet: u32) -> Option<(i32, i32)> {
        let (from, limit, q) = (self.params.progress_from, i32::from(self.draw.no_capture_turns), quiet as i32);
        (from > 0 && limit > from && q > from).then(|| ((limit - q).max(1), limit - from))
    }

    /// Alpha-beta search (principal variation search) of `pos` to `depth` whole turns, within (`alpha`, `beta`),
    /// `sply` steps and `tply` turns from the root, after `quiet` turns without a capture: the score from the side
    /// to move's point of view. Each stage that can end the node early is a method of its own, in the order they
    /// run: draws and the oracle, the horizon, the table, pruning before any step is tried, the singular test;
    /// then the steps are searched in order and what was found is stored.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        sply: usize,
        tply: i32,
        quiet: u32,
    ) -> i32 {
        self.pv[sply].clear();
        if self.poll() {
            return 0;
        }
        let relay = pos.in_relay();
        let inherited = self.enter_node(relay, sply);
        if !relay {
            if let Some(s) = self.turn_start_score(pos, tply, quiet) {
                return s;
            }
            if depth <= 0 && self.threat_extends(pos, inherited, sply) {
                self.exts[sply] = inherited + 1;
                depth = 1;
            }
            if depth <= 0 {
                return self.horizon(pos, alpha, beta, sply, tply, quiet);
            }
        }
        if sply + 2 >= MAX_PLY {
            return self.static_eval(pos);
        }
        let key = pos.hash();
        // Within the root turn of a multi-PV line, scores depend on the excluded turns: the table may order
        // steps here but neither answer nor learn.
        let excluding = tply == 0 && !self.excluded.is_empty();
        // A singular test searches this node without one first step: the table may not answer or learn for it.
        let se_skip = if self.params.singular > 0 { self.se_excluded[sply] } else { None };
        let (tt_step, tt_bound) = match self.probe_table(key, depth, alpha, beta, tply, se_skip) {
            ControlFlow::Break(s) => return s,
            ControlFlow::Continue(hint) => hint,
        };
        let side = pos.side_to_move();
        let quiet_node = !relay && sply > 0 && beta.abs() < WIN_BOUND && alpha.abs() < WIN_BOUND;
        if quiet_node
            && se_skip.is_none()
            && let Some(s) = self.prune_quiet(pos, key, depth, alpha, beta, sply, tply, quiet)
        {
            return s;
        }
        if !relay
            && sply > 0
            && se_skip.is_none()
            && let Some(s) = self.probcut(pos, depth, alpha, beta, sply, tply, quiet, tt_bound)
        {
            return s;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        if list.is_empty() {
            return -WIN + tply;
        }
        let depth = depth + i32::from(self.params.single_reply && !relay && sply > 0 && list.len() == 1)
            - i32::from(self.params.iir && !relay && sply > 0 && depth >= 4 && tt_step.is_none());
        // The table's step and the turns the singular test adds to its depth (−1 with `se-neg`).
        let mut tt_extension = None;
        if !relay
            && sply > 0
            && se_skip.is_none()
            && list.len() > 1
            && let Some(step) = tt_step
            && let Some(bound) = tt_bound
        {
            match self.singular_test(pos, step, bound, depth, beta, sply, tply, quiet) {
                ControlFlow::Break(s) => return s,
                ControlFlow::Continue(extension) => tt_extension = extension,
            }
        }
        let mut buf = key_buffer();
        let (counter, cont) = self.ordering_context(relay, sply, side);
        let keys = self.order(&mut buf, pos, &list, tt_step, sply, side, counter, cont);
        if !relay {
            self.path.push(key);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_step = None;
        let mut searched = 0;
        // Late-move pruning applies where only paika steps are legal (a capture list has no paika steps).
        let prune_after =
            if self.params.late_moves > 0 && quiet_node && depth <= self.params.late_move_depth && beta - alpha == 1 {
                (self.params.late_moves * depth) as usize
            } else {
                usize::MAX
            };
        // Whether the lookahead below already put step i in place (picking it again would scan the rest anew).
        let mut picked = false;
        for i in 0..list.len() {
            let step = if picked { list.as_slice()[i] } else { pick(list.as_mut_slice(), keys, i) };
            picked = false;
            if se_skip == Some(step) {
                continue;
            }
            let depth = depth + tt_extension.map_or(0, |(tt, turns)| if tt == step { turns } else { 0 });
            if i >= prune_after && step.kind == StepKind::Paika && best > -WIN_BOUND && keys[i] < 1 << 21 {
                break;
            }
            let mut child = *pos;
            let effect = child.play(step);
            if excluding {
                if self.completes_excluded(step, effect.turn_ended) {
                    continue;
                }
                if !effect.turn_ended {
                    self.root_prefix.push(step);
                }
            }
            self.tt.prefetch(child.hash());
            // The next step's entry too: it arrives while this step's subtree is searched instead of stalling
            // the next child's first probe (a probe's cache miss was a quarter of the search's time).
            if PREFETCH && i + 1 < list.len().min(prune_after) {
                let next = pick(list.as_mut_slice(), keys, i + 1);
                picked = true;
                let mut after = *pos;
                after.play(next);
                self.tt.prefetch(after.hash());
            }
            if self.params.use_countermoves || self.params.cont_hist > 0 {
                self.played[sply] = Some(step);
            }
            let cq = if step.kind == StepKind::Paika {
                quiet + 1
            } else if effect.turn_ended {
                0
            } else {
                quiet
            };
            // Late quiet steps are rarely best: they are looked at a little shallower first.
            let late = effect.turn_ended
                && searched > 0
                && depth >= 3
                && i >= 3
                && step.kind == StepKind::Paika
                && keys[i] < (1 << 21) - 1;
            let reduce = if late { self.late_move_reduction(depth, i, keys[i], beta - alpha > 1) } else { 0 };
            let score =
                self.search_step(&child, effect.turn_ended, searched == 0, reduce, depth, alpha, beta, sply, tply, cq);
            searched += 1;
            if excluding && !effect.turn_ended {
                self.root_prefix.pop();
            }
            if self.aborted {
                if !relay {
                    self.path.pop();
                }
                return 0;
            }
            if score > best {
                best = score;
                best_step = Some(step);
                if score > alpha {
                    alpha = score;
                    self.update_pv(sply, step);
                    if alpha >= beta {
                        self.learn_cut(step, &list.as_slice()[..i], side, depth, sply, relay, cont);
                        break;
                    }
                }
            }
        }
        if !relay {
            self.path.pop();
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        // Without some of its steps (multi-PV, singular test), the node's result holds only for this search.
        if !excluding && se_skip.is_none() {
            self.store_node(pos, key, best, best_step, bound, depth, tply, relay);
        }
        best
    }

    /// Keeps the path's bookkeeping for the options that read it: the step ply at which the node's turn started
    /// (`conthist=2`) and the threat extensions on the path (`threat-ext`), which it returns. Every node would
    /// pay for these writes otherwise.
    #[inline]
    fn enter_node(&mut self, relay: bool, sply: usize) -> u8 {
        if self.params.cont_hist >= 2 {
            self.turn_start[sply] = if relay && sply > 0 { self.turn_start[sply - 1] } else { sply };
        }
        if self.params.threat_ext > 0 {
            let e = if sply > 0 { self.exts[sply - 1] } else { 0 };
            self.exts[sply] = e;
            e
        } else {
            0
        }
    }

    /// Whether the horizon turn start `pos` is searched a turn deeper instead (`threat-ext`): the opponent
    /// threatens a large capture, the side to move has none, and the path has fewer than two extensions.
    #[inline]
    fn threat_extends(&self, pos: &Position, inherited: u8, sply: usize) -> bool {
        self.params.threat_ext > 0
            && inherited < 2
            && sply + 8 < MAX_PLY
            && !pos.has_capture()
            && pos.threat() >= self.params.threat_ext as u32
    }

    /// The score of a turn start at the horizon: the quiescence's, shrunk towards a draw by `progress`.
    #[inline]
    fn horizon(&mut self, pos: &Position, alpha: i32, beta: i32, sply: usize, tply: i32, quiet: u32) -> i32 {
        if let Some((num, den)) = self.progress_scale(quiet) {
            // The leaf's score is scaled by num/den: search it with the window scaled the other way, so that its
            // bounds still mean what the parent's window asks.
            let widen =
                |x: i32| if x.abs() >= WIN_BOUND { x } else { (x * den / num).clamp(-WIN_BOUND + 1, WIN_BOUND - 1) };
            let s = self.quiesce(pos, widen(alpha), widen(beta), sply, tply, 0);
            return if s.abs() >= WIN_BOUND { s } else { s * num / den };
        }
        self.quiesce(pos, alpha, beta, sply, tply, 0)
    }

    /// Looks the node up in the table: `Break` with the entry's score where it is deep enough and its bound
    /// settles the window, else `Continue` with the step to try first and the entry's (score, depth, bound).
    #[inline]
    fn probe_table(
        &self,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        tply: i32,
        se_skip: Option<Step>,
    ) -> ControlFlow<i32, (Option<Step>, Option<TableBound>)> {
        let Some(e) = self.tt.probe(key).filter(|_| self.tt_enabled) else {
            return ControlFlow::Continue((None, None));
        };
        let s = from_tt(e.score as i32, tply);
        // Within the root turn the table orders steps but never answers: its answer carries no line, and the
        // root's line must hold the whole first turn (a cut there would answer the relay's first steps as if the
        // turn stopped, giving up the rest).
        if tply > 0 && e.depth as i32 >= depth && se_skip.is_none() {
            match e.bound {
                EXACT => return ControlFlow::Break(s),
                LOWER if s >= beta => return ControlFlow::Break(s),
                UPPER if s <= alpha => return ControlFlow::Break(s),
                _ => {}
            }
        }
        ControlFlow::Continue((unpack(e.step), Some((s, e.depth as i32, e.bound))))
    }

    /// Pruning of a quiet turn start (no capture, some paika step) before its steps are tried: futility far
    /// below alpha, reverse futility far above beta, and a null move that still fails high. Some score ends the
    /// node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn prune_quiet(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        sply: usize,
        tply: i32,
        quiet: u32,
    ) -> Option<i32> {
        if !(self.params.null_move || self.params.futility > 0 || self.params.rfp > 0)
            || pos.has_capture()
            || pos.count_paika() == 0
        {
            return None;
        }
        let side = pos.side_to_move();
        let stand = self.static_eval(pos);
        // A quiet position cannot gain material this turn: far below alpha at a shallow depth, it fails low.
        if self.params.futility > 0 && depth <= 2 && stand + self.params.futility * depth <= alpha {
            return Some(stand);
        }
        let enough = pos.count(side) >= NULL_MIN_PIECES && pos.count(side.opponent()) >= NULL_MIN_PIECES;
        // Far enough above beta at a shallow depth, the opponent's best answers within the depth are not
        // expected to bring it back; few pieces leave room for zugzwang, as with null moves.
        if self.params.rfp > 0 && depth <= self.params.rfp_depth && beta - alpha == 1 && enough {
            let score = if self.params.rfp_quiet { self.quiet_eval(pos) } else { stand };
            if score - self.params.rfp * depth >= beta {
                return Some(score);
            }
        }
        if self.params.null_move
            && depth >= 3
            && stand >= beta
            && enough
            && !self.null_at[sply]
            && let Some(null) = pos.null_move()
        {
            self.path.push(key);
            if self.params.use_countermoves || self.params.cont_hist > 0 {
                self.played[sply] = None;
            }
            self.null_at[sply + 1] = true;
            let r = self.params.null_reduction + i32::from(depth >= 7);
            let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, sply + 1, tply + 1, quiet + 1);
            self.null_at[sply + 1] = false;
            self.path.pop();
            if self.aborted {
                return Some(0);
            }
            if s >= beta {
                return Some(if s > WIN_BOUND { beta } else { s });
            }
        }
        None
    }

    /// ProbCut at a turn start below the root: a search a few turns shallower that clears beta by a margin is
    /// taken as the deeper one's cut. The table may already say that it would not: a bound from about that depth
    /// under the raised beta. Some score ends the node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn probcut(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        sply: usize,
        tply: i32,
        quiet: u32,
        tt_bound: Option<TableBound>,
    ) -> Option<i32> {
        if self.params.probcut <= 0
            || depth < PROBCUT_DEPTH
            || beta - alpha != 1
            || beta.abs() >= WIN_BOUND - self.params.probcut
            || self.pc_at[sply]
        {
            return None;
        }
        let pbeta = beta + self.params.probcut;
        let hopeless = tt_bound.is_some_and(|(s, d, b)| d >= depth - PROBCUT_REDUCTION && b != LOWER && s < pbeta);
        if hopeless {
            return None;
        }
        self.pc_at[sply] = true;
        let s = self.negamax(pos, depth - PROBCUT_REDUCTION, pbeta - 1, pbeta, sply, tply, quiet);
        self.pc_at[sply] = false;
        if self.aborted {
            return Some(0);
        }
        (s >= pbeta).then_some(s)
    }

    /// The singular test ([`SearchParams::singular`]) of the table's step `step`, whose entry is `tt_bound`:
    /// `Break` with a score that ends the node (another first step reaches beta too), else `Continue` with the
    /// turns the step's search gains (1, or −1 with `se-neg`), if any.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn singular_test(
        &mut self,
        pos: &Position,
        step: Step,
        (tt_score, tt_depth, bound): TableBound,
        depth: i32,
        beta: i32,
        sply: usize,
        tply: i32,
        quiet: u32,
    ) -> ControlFlow<i32, Option<(Step, i32)>> {
        if self.params.singular <= 0
            || depth < self.params.se_depth
            || tply >= 2 * self.iter_depth
            || tt_depth < depth - 3
            || bound == UPPER
            || tt_score.abs() >= WIN_BOUND
        {
            return ControlFlow::Continue(None);
        }
        let sbeta = tt_score - self.params.singular * depth;
        self.se_excluded[sply] = Some(step);
        let s = self.negamax(pos, (depth - 1) / 2, sbeta - 1, sbeta, sply, tply, quiet);
        self.se_excluded[sply] = None;
        if self.aborted {
            return ControlFlow::Break(0);
        }
        if s < sbeta {
            ControlFlow::Continue(Some((step, 1)))
        } else if sbeta >= beta {
            // Another first step reaches beta at half the depth, and so does the table's: a cut.
            ControlFlow::Break(sbeta)
        } else if self.params.se_neg && tt_score >= beta {
            ControlFlow::Continue(Some((step, -1)))
        } else {
            ControlFlow::Continue(None)
        }
    }

    /// The earlier steps that order a turn start's paika steps: the countermove of the opponent's last step
    /// (`cmove`), and the opponent's last step and the side's own for the continuation histories (`conthist`),
    /// whose tables are made at their first use.
    #[inline]
    fn ordering_context(&mut self, relay: bool, sply: usize, side: Side) -> (Option<Step>, [Option<Step>; 2]) {
        let counter = if self.params.use_countermoves && !relay && sply > 0 {
            self.played[sply - 1]
                .and_then(|p| self.countermoves[side.opponent().index()][p.from as usize][p.to as usize])
        } else {
            None
        };
        let cont = if self.params.cont_hist > 0 && !relay && sply > 0 {
            let own = if self.params.cont_hist >= 2 {
                let opponent_start = self.turn_start[sply - 1];
                if opponent_start > 0 { self.played[opponent_start - 1] } else { None }
            } else {
                None
            };
            [self.played[sply - 1], own]
        } else {
            [None; 2]
        };
        if cont.iter().any(Option::is_some) && self.cont_table.is_empty() {
            self.cont_table = vec![0; 2 * CONT_SIZE];
        }
        (counter, cont)
    }

    /// How many turns shallower a late quiet step (the `i`th tried, with ordering key `key`) is searched first:
    /// `lmr-log`'s reduction, which grows with the depth and the place and follows `lmr-adj`, else `lmr`'s turn.
    #[inline]
    fn late_move_reduction(&self, depth: i32, i: usize, key: i32, open_window: bool) -> i32 {
        if self.params.lmr_log > 0 {
            let mut r = (ln(depth as usize) * ln(i) * self.params.lmr_log as f32 / 100.0) as i32;
            if self.params.lmr_adjust & 1 != 0 && open_window {
                r -= 1;
            }
            if self.params.lmr_adjust & 2 != 0 && key == 0 {
                r += 1;
            }
            if self.params.lmr_adjust & 4 != 0 {
                r += i32::from(key < 0) - i32::from(key > HISTORY_MAX / 2);
            }
            r.clamp(0, depth - 2)
        } else {
            i32::from(self.params.lmr)
        }
    }

    /// The score of `child`, reached by one of a node's steps. Within a turn (`turn_ended` false) the side to move
    /// and the depth stay and the score is not negated. The first step is searched with the node's window; a
    /// later one with a null window, first `reduce` turns shallower, and again with the whole window only if it
    /// may be better.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_step(
        &mut self,
        child: &Position,
        turn_ended: bool,
        first: bool,
        reduce: i32,
        depth: i32,
        alpha: i32,
        beta: i32,
        sply: usize,
        tply: i32,
        quiet: u32,
    ) -> i32 {
        if !turn_ended {
            if first {
                self.negamax(child, depth, alpha, beta, sply + 1, tply, quiet)
            } else {
                let s = self.negamax(child, depth, alpha, alpha + 1, sply + 1, tply, quiet);
                if s > alpha && s < beta { self.negamax(child, depth, alpha, beta, sply + 1, tply, quiet) } else { s }
            }
        } else if first {
            -self.negamax(child, depth - 1, -beta, -alpha, sply + 1, tply + 1, quiet)
        } else {
            let mut s = -self.negamax(child, depth - 1 - reduce, -alpha - 1, -alpha, sply + 1, tply + 1, quiet);
            if reduce > 0 && s > alpha && !self.aborted {
                s = -self.negamax(child, depth - 1, -alpha - 1, -alpha, sply + 1, tply + 1, quiet);
            }
            if s > alpha && s < beta {
                -self.negamax(child, depth - 1, -beta, -alpha, sply + 1, tply + 1, quiet)
            } else {
                s
            }
        }
    }

    /// Learns from `step`'s cut, after the steps `tried` before it: a quiet step becomes a killer and the
    /// countermove, and gains history (the steps tried before it lose some, with `hmalus` or `conthist`); a
    /// capture gains capture history (`caphist`).
    #[allow(clippy::too_many_arguments)]
    // Always inline, as when it was part of the node's body: out of line, the search ran about 0.35% more
    // instructions (the compiler keeps it apart for its size, though the node has only this one call).
    #[inline(always)]
    fn learn_cut(
        &mut self,
        step: Step,
        tried: &[Step],
        side: Side,
        depth: i32,
        sply: usize,
        relay: bool,
        cont: [Option<Step>; 2],
    ) {
        let bonus = depth * depth;
        if step.kind == StepKind::Paika {
            let k = &mut self.killers[sply];
            if k[0] != Some(step) {
                k[1] = k[0];
                k[0] = Some(step);
            }
            if self.params.use_countermoves
                && !relay
                && sply > 0
                && let Some(p) = self.played[sply - 1]
            {
                self.countermoves[side.opponent().index()][p.from as usize][p.to as usize] = Some(step);
            }
            for (which, p) in cont.iter().enumerate() {
                let Some(p) = *p else { continue };
                gravity(&mut self.cont_table[cont_index(which, side, p, step)], bonus);
                for &s in tried {
                    if s.kind == StepKind::Paika {
                        gravity(&mut self.cont_table[cont_index(which, side, p, s)], -bonus);
                    }
                }
            }
            let h = &mut self.history[side.index()][step.from as usize][step.to as usize];
            if self.params.hist_malus {
                gravity(h, bonus);
                for &s in tried {
                    if s.kind == StepKind::Paika {
                        gravity(&mut self.history[side.index()][s.from as usize][s.to as usize], -bonus);
                    }
                }
            } else {
                *h = (*h + bonus).min(1 << 20);
            }
        } else if self.params.cap_hist && step.kind != StepKind::Stop {
            let h = &mut self.cap_history[cap_slot(side, step)][step.from as usize][step.to as usize];
            gravity(h, bonus);
            if self.params.hist_malus {
                for &s in tried {
                    if s.kind != StepKind::Paika && s.kind != StepKind::Stop {
                        let slot = cap_slot(side, s);
                        gravity(&mut self.cap_history[slot][s.from as usize][s.to as usize], -bonus);
                    }
                }
            }
        }
    }

    /// Keeps what the search of the node at `pos` found: its result in the table, and the quiet leaf
    /// evaluation's error in correction history (`corr`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store_node(
        &mut self,
        pos: &Position,
        key: u64,
        best: i32,
        best_step: Option<Step>,
        bound: u8,
        depth: i32,
        tply: i32,
        relay: bool,
    ) {
        if self.tt_enabled {
            self.tt.store(key, best_step, to_tt(best, tply), depth, bound);
        }
        if self.params.corr > 0
            && depth >= self.params.corr_depth
            && !relay
            && best.abs() < WIN_BOUND
            && !pos.has_capture()
        {
            let eval = self.quiet_eval(pos) + self.correction(pos);
            // A bound says only on which side of it the true score lies: it teaches nothing when the evaluation
            // is already on that side.
            if !(bound == LOWER && best <= eval || bound == UPPER && best >= eval) {
                self.learn_correction(pos, best - eval, depth);
            }
        }
    }

    /// What correction history adds to the quiet leaf `pos`'s score ([`SearchParams::corr`]).
    #[inline]
    fn correction(&self, pos: &Position) -> i32 {
        if self.params.corr == 0 || self.corr_table.is_empty() {
            return 0;
        }
        let [a, b] = corr_slots(pos);
        (self.corr_table[a] + self.corr_table[b]) * self.params.corr / (200 * CORR_GRAIN)
    }

    /// Moves the correction tables of `pos` towards `error` (the search's score less the leaf's), by more the
    /// deeper the search that found it.
    fn learn_correction(&mut self, pos: &Position, error: i32, depth: i32) {
        if self.corr_table.is_empty() {
            self.corr_table = vec![0; 2 * 2 * CORR_SIZE];
        }
        let weight = (depth + 1).min(CORR_MAX_WEIGHT);
        let target = error.clamp(-CORR_LIMIT, CORR_LIMIT) * CORR_GRAIN;
        for slot in corr_slots(pos) {
            let e = &mut self.corr_table[slot];
            *e = (*e * (self.params.corr_rate - weight) + target * weight) / self.params.corr_rate;
        }
    }

    /// Whether `step`, played in the root turn after `root_prefix`, completes one of the excluded root turns.
    fn completes_excluded(&self, step: Step, turn_ended: bool) -> bool {
        if !turn_ended {
            return false;
        }
        let prefix = &self.root_prefix[..];
        let stop = step.kind == StepKind::Stop;
        self.excluded.iter().any(|t| {
            let s = &t.steps;
            s.len() == prefix.len() + usize::from(!stop)
                && s[..prefix.len()] == *prefix
                && (stop || s[prefix.len()] == step)
        })
    }

    /// Follows forced captures (capturing is compulsory, so a side that can capture may not "stand pat") until a
    /// position where the side to move cannot capture, then evaluates.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, sply: usize, tply: i32, qturns: u32) -> i32 {
        self.pv[sply].clear();
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(tply as u32);
        let relay = pos.in_relay();
        if !relay {
            if pos.count(pos.side_to_move()) == 0 {
                return -WIN + tply;
            }
            if let Some(s) = self.oracle_score_upto(pos, tply, self.params.tb_qs_pieces.min(self.params.tb_pieces)) {
                return s;
            }
            if !pos.has_capture() {
                if pos.count_paika() == 0 {
                    return -WIN + tply;
                }
                return self.quiet_eval(pos) + self.correction(pos);
            }
            // Capturing is compulsory, so "standing pat" is not a real option; but the capture gains material,
            // so the static score is a fair lower bound and keeps the tree of exchanges small.
            let stand = self.static_eval(pos);
            if (qturns >= self.params.qs_max_turns || sply + 2 >= MAX_PLY)
                && !(qturns < self.params.qs_max_turns + self.params.qs_single
                    && sply + 8 < MAX_PLY
                    && pos.single_first_capture())
            {
                if self.params.capture_gain != 0 {
                    let gain = if self.params.capgain_relay { pos.best_capture_relay() } else { pos.best_capture() };
                    return stand + self.params.capture_gain * gain as i32;
                }
                return stand;
            }
            if self.params.qs_floor {
                if stand >= beta {
                    return stand;
                }
                alpha = alpha.max(stand);
            }
            // Delta pruning: even the largest whole-turn capture, with a margin for what it changes besides
            // material, cannot lift the score to alpha, and the opponent's answers only take pieces back.
            if self.params.delta_margin > 0 && stand + self.params.delta_margin <= alpha && alpha < WIN_BOUND {
                // The fewest pieces that would lift the ceiling above alpha: ask only whether a turn takes that many.
                // A turn that takes every enemy piece wins outright, whatever the ceiling says: never prune that.
                let needed = (alpha - stand - self.params.delta_margin) / PIECE + 1;
                let enemies = pos.count(pos.side_to_move().opponent()) as i32;
                let target = needed.min(enemies) as u32;
                let most = pos.best_capture_relay_until(target);
                if most < target {
                    return stand + PIECE * most as i32 + self.params.delta_margin;
                }
            }
        }
        let use_table = self.params.qs_table && !(relay && self.params.qs_relay_skip);
        let key = if use_table { pos.hash() } else { 0 };
        // What this node's score depends on is how many more turns of captures it may follow: that is its depth
        // in the table (0 for a full quiescence, less with fewer turns left; a search of depth 1 or more is
        // deeper still). An entry found with fewer turns left saw a nearer horizon and must not answer here.
        let qdepth = qs_depth(qturns, self.params.qs_max_turns + self.params.qs_single);
        let mut tt_step = None;
        if let Some(e) = self.tt.probe(key).filter(|_| use_table && self.tt_enabled) {
            tt_step = unpack(e.step);
            if e.depth as i32 >= qdepth {
                let s = from_tt(e.score as i32, tply);
                match e.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let mut buf = key_buffer();
        let side = pos.side_to_move();
        let relays = self.params.relay_order >= 2 && several_captures(&list);
        let keys = keys_for(&mut buf, &list, |s| {
            if Some(s) == tt_step {
                1 << 30
            } else {
                self.capture_order(pos, s, relays) + self.capture_tiebreak(side, s)
            }
        });
        let mut best = -INF;
        let mut best_step = None;
        for i in 0..list.len() {
            let step = pick(list.as_mut_slice(), keys, i);
            let mut child = *pos;
            let effect = child.play(step);
            if self.params.qs_table && (effect.turn_ended || !self.params.qs_relay_skip) {
                self.tt.prefetch(child.hash());
            }
            let score = if effect.turn_ended {
                -self.quiesce(&child, -beta, -alpha, sply + 1, tply + 1, qturns + 1)
            } else {
                self.quiesce(&child, alpha, beta, sply + 1, tply, qturns)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_step = Some(step);
                if score > alpha {
                    alpha = score;
                    self.update_pv(sply, step);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Keep the stand-pat bound if no capture beat it.
        let best = best.max(alpha);
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        if use_table && self.tt_enabled {
            self.tt.store(key, best_step, to_tt(best, tply), qdepth, bound);
        }
        best
    }

    /// The ordering keys of `list`'s steps at a node of the main search, best first once picked.
    #[allow(clippy::too_many_arguments)]
    // Always inline into its one caller, as the compiler did before `negamax` was split (it now keeps it apart).
    #[inline(always)]
    fn order<'k>(
        &self,
        buf: &'k mut KeyBuffer,
        pos: &Position,
        list: &StepList,
        tt: Option<Step>,
        sply: usize,
        side: Side,
        counter: Option<Step>,
        cont: [Option<Step>; 2],
    ) -> &'k mut [i32] {
        let killers = self.killers[sply];
        let relays = self.params.relay_order >= 1 && several_captures(list);
        keys_for(buf, list, |s| {
            if Some(s) == tt {
                1 << 30
            } else if s.kind == StepKind::Paika {
                let k = if !self.params.use_killers {
                    0
                } else if killers[0] == Some(s) {
                    1 << 22
                } else if killers[1] == Some(s) {
                    1 << 21
                } else if counter == Some(s) {
                    // Above every history entry, below the killers.
                    (1 << 21) - 1
                } else {
                    0
                };
                let h = self.history[side.index()][s.from as usize][s.to as usize];
                if cont == [None; 2] {
                    return k + h;
                }
                // The mean of the histories, so that it stays below the killers' keys.
                let (mut sum, mut n) = (h, 1);
                for (which, p) in cont.iter().enumerate() {
                    if let Some(p) = *p {
                        sum += self.cont_table[cont_index(which, side, p, s)];
                        n += 1;
                    }
                }
                k + sum / n
            } else {
                self.capture_order(pos, s, relays) + self.capture_tiebreak(side, s)
            }
        })
    }

    /// The ordering key of a capture or a relay's stop: [`capture_key`], or with `relays` the whole turn's take.
    #[inline]
    fn capture_order(&self, pos: &Position, s: Step, relays: bool) -> i32 {
        if relays && s.kind != StepKind::Stop {
            (1 << 24) + pos.capture_with_relays(s) as i32 * 64
        } else {
            capture_key(pos, s)
        }
    }

    /// With `caphist`, a capture's history as a key below one captured piece's worth ([`capture_key`]): it
    /// orders captures of the same size.
    #[inline]
    fn capture_tiebreak(&self, side: Side, s: Step) -> i32 {
        if !self.params.cap_hist || s.kind == StepKind::Stop {
            return 0;
        }
        (self.cap_history[cap_slot(side, s)][s.from as usize][s.to as usize] >> 10).clamp(0, 63)
    }
}

/// The state of an iterative-deepening search between iterations (and between slices).
struct Run {
    pos: Position,
    history: Vec<u64>,
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    depth: u32,
    max_depth: u32,
    prev: Option<i32>,
    nodes: u64,
    result: SearchResult,
    done: bool,
    /// How many lines each iteration searches: [`Limits::multipv`], at most the number of legal turns.
    lines_wanted: usize,
    /// The lines of the current iteration found so far (a slice may end between two lines).
    found: Vec<PvLine>,
}

impl Run {
    fn new(searcher: &mut Searcher, pos: &Position, history: &[u64], limits: Limits) -> Run {
        let start = Instant::now();
        searcher.begin(limits, start);
        if searcher.params.hist_age > 0 {
            let shift = searcher.params.hist_age;
            for h in searcher.history.iter_mut().chain(searcher.cap_history.iter_mut()) {
                for row in h.iter_mut() {
                    row.iter_mut().for_each(|v| *v >>= shift);
                }
            }
        }
        // The first legal turn, so that a search stopped at once still answers.
        let turns = pos.legal_turns();
        let lines_wanted = limits.multipv.clamp(1, turns.len().max(1));
        let best = turns.into_iter().next();
        let done = best.is_none();
        Run {
            pos: *pos,
            history: history.to_vec(),
            limits,
            start,
            deadline: limits.movetime.map(|t| start + t),
            depth: 1,
            max_depth: limits.depth.unwrap_or(MAX_PLY as u32 / 2).clamp(1, MAX_PLY as u32 / 2),
            prev: None,
            nodes: 0,
            result: SearchResult {
                pv: best.iter().cloned().collect(),
                best,
                score: 0,
                depth: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                lines: Vec::new(),
            },
            done,
            lines_wanted,
            found: Vec::new(),
        }
    }
}

/// A search that runs in short slices, for a single-threaded host such as a web page: call
/// [`SlicedSearch::run_for`] once per frame until it reports the result. The searcher's transposition table
/// carries the work of an unfinished iteration over to the next slice.
pub struct SlicedSearch {
    searcher: Searcher,
    run: Run,
}

impl SlicedSearch {
    /// Starts a search of `pos` (see [`Searcher::search`] for `history`).
    pub fn new(mut searcher: Searcher, pos: &Position, history: &[u64], limits: Limits) -> SlicedSearch {
        searcher.tt.next_generation();
        let run = Run::new(&mut searcher, pos, history, limits);
        SlicedSearch { searcher, run }
    }

    /// Searches for about `slice` (never much longer), calling `info` after each completed iteration. Returns
    /// the result once the search is complete.
    pub fn run_for(&mut self, slice: Duration, mut info: impl FnMut(&Info)) -> Option<&SearchResult> {
        if !self.run.done {
            let end = Instant::now() + slice;
            self.searcher.advance(&mut self.run, Some(end), &mut info);
            if self.run.done {
                self.searcher.stop.store(false, Ordering::Relaxed);
            }
        }
        self.run.done.then_some(&self.run.result)
    }

    /// Runs the search to its end in one go, calling `info` after each completed iteration.
    pub fn finish(&mut self, mut info: impl FnMut(&Info)) -> &SearchResult {
        if !self.run.done {
            self.searcher.advance(&mut self.run, None, &mut info);
            self.searcher.stop.store(false, Ordering::Relaxed);
        }
        &self.run.result
    }

    /// The best result so far (the last completed iteration's).
    pub fn current(&self) -> &SearchResult {
        &self.run.result
    }

    /// Whether the search is complete.
    pub fn is_done(&self) -> bool {
        self.run.done
    }

    /// The flag that ends the search at its next slice (or at once, from another thread).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.searcher.stop_flag()
    }

    /// Gives the searcher back (with what its table learnt).
    pub fn into_searcher(self) -> Searcher {
        self.searcher
    }
}

/// Entries of each correction table ([`SearchParams::corr`]), by side to move and key.
const CORR_SIZE: usize = 1 << 14;
/// Correction entries hold hundredths of a piece times this, so that small updates are not rounded away.
const CORR_GRAIN: i32 = 256;
/// The largest error learnt, in hundredths of a piece: the evaluation misses more only where tactics decide.
const CORR_LIMIT: i32 = 2 * PIECE;

/// The two correction-table entries of `pos`: one keyed by the side to move's pieces, one by the opponent's,
/// each within the side to move's half.
fn corr_slots(pos: &Position) -> [usize; 2] {
    let side = pos.side_to_move();
    let slot = |bits: u64, table: usize| {
        let h = (bits ^ (table as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (side.index() * 2 + table) * CORR_SIZE + (h >> (64 - CORR_SIZE.trailing_zeros())) as usize
    };
    [slot(pos.pieces(side), 0), slot(pos.pieces(side.opponent()), 1)]
}

/// The table depth of a quiescence node `qturns` turns into a quiescence of at most `max_turns` turns: 0 with
/// every turn left, one less per turn used (always below the depth 1 of the shallowest full-width search).
#[inline]
fn qs_depth(qturns: u32, max_turns: u32) -> i32 {
    -(qturns.min(max_turns).min(127) as i32)
}

/// Groups a step sequence from `pos` into whole turns (a trailing incomplete relay is stopped).
pub fn steps_to_turns(pos: &Position, steps: &[Step]) -> Vec<Turn> {
    let mut p = *pos;
    let mut turns = Vec::new();
    let mut cur = Vec::new();
    for &s in steps {
        if p.check_step(s).is_err() {
            break;
        }
        let e = p.play(s);
        if s.kind != StepKind::Stop {
            cur.push(s);
        }
        if e.turn_ended {
            turns.push(Turn::new(std::mem::take(&mut cur)));
        }
    }
    if !cur.is_empty() {
        turns.push(Turn::new(cur));
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::eval::centre_table;
    use super::parameters::{QS_MAX_TURNS, SE_DEPTH, THREAT_WEIGHT};
    use super::table::{Entry, OLD_ENTRY_PENALTY};
    use super::*;
    use crate::geometry::Direction;
    use crate::position::random_game_position;
    use crate::rules::Rules;

    #[test]
    fn finds_a_legal_turn_at_every_depth() {
        let p = Position::start(&Rules::default());
        let mut s = Searcher::new(1);
        for d in 1..=4 {
            let r = s.search(&p, &[], Limits::depth(d), |_| {});
            let best = r.best.expect("start has turns");
            let mut c = p;
            assert!(c.play_turn(&best).is_ok(), "{best}");
            assert_eq!(r.depth, d);
        }
    }

    #[test]
    fn history_ages_at_each_new_search_only_when_asked() {
        let p = Position::start(&Rules::default());
        let mut s = Searcher::new(1);
        s.history[0][10][11] = 1000;
        s.history[1][20][21] = -7;
        s.cap_history[2][30][31] = 64;
        Run::new(&mut s, &p, &[], Limits::depth(1));
        assert_eq!((s.history[0][10][11], s.history[1][20][21], s.cap_history[2][30][31]), (1000, -7, 64));
        s.configure("max,hage=2").unwrap();
        Run::new(&mut s, &p, &[], Limits::depth(1));
        // A quarter, rounded down (a malus stays negative).
        assert_eq!((s.history[0][10][11], s.history[1][20][21], s.cap_history[2][30][31]), (250, -2, 16));
        s.configure("max").unwrap();
        assert_eq!(s.params.hist_age, 0);
        assert!(s.configure("hage=x").is_err());
    }

    #[test]
    fn finds_the_winning_relay() {
        // a1-b2A takes c3, then b2-c2A takes d2, Black's last piece: a win in one turn.
        let p = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        let mut s = Searcher::new(1);
        let r = s.search(&p, &[], Limits::depth(3), |_| {});
        assert_eq!(r.best.as_ref().unwrap().to_string(), "a1-b2A b2-c2A");
        assert_eq!(r.value(), Score::Win(1), "score {}", r.value());
    }

    #[test]
    fn the_answer_is_a_whole_turn_even_when_the_table_knows_the_relay() {
        // A deeper search leaves the position after a1-b2A (mid-relay) in the table; a later, shallower search
        // must still answer the whole relay, not the first step of it (which would stop the relay and give up
        // the win: the table's answer for the child carries no line of steps).
        let p = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        let mut s = Searcher::new(1);
        s.search(&p, &[], Limits::depth(4), |_| {});
        for depth in 1..=3 {
            let r = s.search(&p, &[], Limits::depth(depth), |_| {});
            assert_eq!(r.best.unwrap().to_string(), "a1-b2A b2-c2A", "depth {depth}");
            assert_eq!(r.score, WIN - 1);
        }
    }

    #[test]
    fn parallel_search_finds_what_one_thread_finds() {
        let win = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        let mid = Position::from_fen("BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w").unwrap();
        let mut one = Searcher::new(4);
        one.configure("max").unwrap();
        let mut team = Searcher::new(4);
        team.configure("max,threads=3").unwrap();
        assert_eq!(team.threads, 3);
        let r = team.search(&win, &[], Limits::depth(4), |_| {});
        assert_eq!(r.best.unwrap().to_string(), "a1-b2A b2-c2A");
        assert_eq!(r.score, WIN - 1);
        // Helpers store deeper results in the shared table, so a fixed depth may score differently from one
        // thread alone, but it reaches the same depth with a legal turn, and the helpers' nodes count.
        for depth in 1..=5 {
            let alone = one.search(&mid, &[], Limits::depth(depth), |_| {});
            team.clear();
            let together = team.search(&mid, &[], Limits::depth(depth), |_| {});
            assert_eq!(together.depth, alone.depth);
            assert!(mid.legal_turns().contains(together.best.as_ref().unwrap()));
            assert_eq!(team.helpers.len(), 2);
        }
        // A node budget searches on one thread, so that it replays exactly.
        team.clear();
        let a = team.search(&mid, &[], Limits::nodes(20_000), |_| {});
        team.clear();
        let b = team.search(&mid, &[], Limits::nodes(20_000), |_| {});
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
        // A time budget keeps every thread busy until it is spent, then answers.
        let timed = team.search(&mid, &[], Limits::movetime(100), |_| {});
        assert!(mid.legal_turns().contains(timed.best.as_ref().unwrap()));
    }

    #[test]
    fn a_stop_flag_handed_out_before_the_searcher_stops_its_search() {
        let pos = Position::start(&Rules::default());
        let flag = Arc::new(AtomicBool::new(false));
        let mut s = Searcher::new(1);
        s.set_stop_flag(flag.clone());
        assert!(Arc::ptr_eq(&s.stop_flag(), &flag));
        // Set before the search starts (a game that moved on while the searcher was being made): the search
        // answers at once, and the flag is cleared for the next one.
        flag.store(true, Ordering::Relaxed);
        let stopped = s.search(&pos, &[], Limits::depth(30), |_| {});
        assert!(stopped.nodes < 10_000, "{} nodes", stopped.nodes);
        assert!(!flag.load(Ordering::Relaxed));
        let next = s.search(&pos, &[], Limits::depth(3), |_| {});
        assert_eq!(next.depth, 3);
        assert!(pos.legal_turns().contains(next.best.as_ref().unwrap()));
    }

    #[test]
    fn a_torn_table_slot_reads_as_empty() {
        let t = Table::new(0);
        let step = Step { from: 1, to: 2, dir: Direction::from_index(0), kind: StepKind::Paika };
        t.store(0x1234, Some(step), 77, 5, EXACT);
        let e = t.probe(0x1234).expect("stored");
        assert_eq!((unpack(e.step), e.score, e.depth, e.bound), (Some(step), 77, 5, EXACT));
        assert!(t.probe(0x1235).is_none());
        // Another thread's data word over this key's: the key no longer matches, so nothing wrong is read.
        t.buckets[0].0[0][1]
            .store(Entry { key: 0, step: 0, score: -5, depth: 9, bound: LOWER }.to_bits(), Ordering::Relaxed);
        assert!(t.probe(0x1234).is_none());
        t.clear();
        assert!(t.probe(0).is_none(), "an empty slot matches no key, not even 0");
    }

    #[test]
    fn with_progress_a_lead_that_makes_no_progress_is_worth_less() {
        let mut s = Searcher::new(1);
        s.configure("max,progress=20").unwrap();
        assert_eq!(s.progress_scale(20), None);
        assert_eq!(s.progress_scale(60), Some((40, 80)));
        assert_eq!(s.progress_scale(99), Some((1, 80)));
        // White three pieces up, far from any capture: the same search scores it lower the longer the
        // game has gone without a capture (the earlier positions' hashes stand for those turns).
        let p = Position::from_fen("W7W/9/9/9/B3W3W w").unwrap();
        let score = |s: &mut Searcher, quiet: u64| {
            s.clear();
            let history: Vec<u64> = (1..=quiet).collect();
            s.search(&p, &history, Limits::depth(2), |_| {}).score
        };
        let fresh = score(&mut s, 0);
        let late = score(&mut s, 80);
        assert!(fresh > 200 && late > 0 && late < fresh / 2, "{fresh} {late}");
        s.configure("progress=0").unwrap();
        assert_eq!(score(&mut s, 80), fresh, "off: the count does not matter");
    }

    #[test]
    fn shallow_results_do_not_push_a_deep_one_out_of_its_bucket() {
        let t = Table::new(0);
        t.next_generation();
        t.store(0xA, None, 10, 8, LOWER);
        // A flood of quiescence results in the same bucket: they take turns in the second entry.
        for k in 0..100u64 {
            t.store(0xB00 + k, None, 1, -1, EXACT);
        }
        assert_eq!(t.probe(0xA).map(|e| (e.depth, e.score, e.bound)), Some((8, 10, LOWER)));
        assert!(t.probe(0xB00 + 99).is_some() && t.probe(0xB00 + 98).is_none());
        // The same key is updated where it is, and keeps its step when the new result has none.
        let step = Step { from: 3, to: 4, dir: Direction::from_index(0), kind: StepKind::Paika };
        t.store(0xA, Some(step), 12, 9, EXACT);
        t.store(0xA, None, 13, 9, EXACT);
        let e = t.probe(0xA).unwrap();
        assert_eq!((unpack(e.step), e.score), (Some(step), 13));
        // In a later search the old results count OLD_ENTRY_PENALTY turns shallower: the old quiescence result
        // goes first, then the deep one gives way to results as deep as it is worth.
        t.next_generation();
        t.store(0xC, None, 5, 1, UPPER);
        assert!(t.probe(0xA).is_some() && t.probe(0xC).is_some() && t.probe(0xB00 + 99).is_none());
        t.store(0xD, None, 5, 9 - OLD_ENTRY_PENALTY, UPPER);
        assert!(t.probe(0xA).is_some() && t.probe(0xC).is_none());
        t.store(0xE, None, 5, 9 - OLD_ENTRY_PENALTY + 1, UPPER);
        assert!(t.probe(0xA).is_none() && t.probe(0xD).is_some() && t.probe(0xE).is_some());
    }

    #[test]
    fn pruning_options_keep_the_forced_win() {
        // A won endgame and a middlegame with a large relay: null moves and futility must not hide either.
        let p = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        for spec in [
            "max,nmp",
            "max,nmp,fut=100",
            "max,eval=tuned,nmp",
            "max,iir",
            "max,relay-terms,capgain=100",
            "max,lmp=1",
            "max,delta=50,centre=10",
            "max,cmove,space=4,asp=10",
            "max,lmr-log=80,lmr-adj=3",
            "max,threat-ext=2",
            "max,threat2=40",
            "max,se=10",
            "max,se=4,se-depth=3,se-neg",
            "max,rfp=60",
            "max,rfp=60,rfp-quiet,rfp-depth=4",
            "max,pc=100",
            "max,qs-single=4",
            "max,conthist,nmp",
            "max,conthist=2",
            "max,nmp,corr=100",
        ] {
            let mut s = Searcher::new(1);
            s.configure(spec).unwrap();
            let r = s.search(&p, &[], Limits::depth(5), |_| {});
            assert_eq!(r.best.unwrap().to_string(), "a1-b2A b2-c2A", "{spec}");
            assert_eq!(r.score, WIN - 1, "{spec}");
        }
        let mid = Position::from_fen("BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w").unwrap();
        let mut plain = Searcher::new(4);
        plain.configure("max").unwrap();
        let a = plain.search(&mid, &[], Limits::depth(5), |_| {});
        for spec in ["max,nmp", "max,lmp=2,delta=100", "max,rfp=60", "max,pc=100", "max,qs-single=4", "max,conthist"] {
            let mut pruned = Searcher::new(4);
            pruned.configure(spec).unwrap();
            let b = pruned.search(&mid, &[], Limits::depth(5), |_| {});
            // Both take the largest material gain: the scores agree to within a piece.
            assert!((a.score - b.score).abs() <= PIECE, "{spec}: {} vs {}", a.score, b.score);
        }
        // Singular extensions test turn starts of depth 6 and more: deep enough, they change the tree (and
        // extend it), never the win the endgame above holds.
        let deep = |spec: &str, p: &Position, d: u32| {
            let mut s = Searcher::new(4);
            s.configure(spec).unwrap();
            s.search(p, &[], Limits::depth(d), |_| {})
        };
        let (a, b) = (deep("max", &mid, 7), deep("max,se=10", &mid, 7));
        assert_ne!(a.nodes, b.nodes);
        assert!((a.score - b.score).abs() <= PIECE, "se: {} vs {}", a.score, b.score);
        let won = deep("max,se=10", &p, 8);
        assert_eq!((won.best.unwrap().to_string(), won.score), ("a1-b2A b2-c2A".to_string(), WIN - 1));
    }

    #[test]
    fn tb_contempt_scores_a_drawn_table_position_as_a_draw_by_rule() {
        /// Knows every position of three pieces or fewer, both sides on the board, to be drawn.
        struct SmallDraws;
        impl Oracle for SmallDraws {
            fn score(&self, pos: &Position) -> Option<i32> {
                let (w, b) = (pos.count(Side::White), pos.count(Side::Black));
                (w > 0 && b > 0 && w + b <= 3).then_some(0)
            }
        }
        // White must capture (a1-b2A, then the relay on d2), and every turn leaves three pieces or fewer.
        let p = Position::from_fen("8B/9/2B6/3B5/W8 w").unwrap();
        for (spec, want) in [("max", 0), ("max,tb-contempt", -20), ("max,tb-contempt,contempt=50", -50)] {
            let mut s = Searcher::new(1);
            s.configure(spec).unwrap();
            s.set_oracle(Some(Arc::new(SmallDraws)));
            let r = s.search(&p, &[], Limits::depth(3), |_| {});
            assert_eq!(r.score, want, "{spec}");
            // From Black's side of the board the same draw counts against Black, the side searched for: the
            // relay leaves one piece each, and each of Black's turns leads into another drawn position.
            let mut q = p;
            q.play_turn(&r.best.unwrap()).unwrap();
            assert_eq!((q.count(Side::White), q.count(Side::Black)), (1, 1));
            let reply = s.search(&q, &[], Limits::depth(3), |_| {});
            assert!(reply.best.is_some());
            assert_eq!(reply.score, want, "{spec}: Black");
        }
    }

    #[test]
    fn correction_history_learns_the_leafs_error_only_when_asked() {
        let mid = Position::from_fen("BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w").unwrap();
        let mut plain = Searcher::new(4);
        plain.configure("max,nmp").unwrap();
        let a = plain.search(&mid, &[], Limits::depth(8), |_| {});
        assert!(plain.corr_table.is_empty());
        let mut s = Searcher::new(4);
        s.configure("max,nmp,corr=100").unwrap();
        assert_eq!(s.correction(&mid), 0);
        let b = s.search(&mid, &[], Limits::depth(8), |_| {});
        assert!(s.corr_table.iter().any(|&e| e != 0), "a search learns some errors");
        assert_ne!(a.nodes, b.nodes);
        // Repeated errors are learnt whole, up to the limit, and count by the option's percentage.
        s.clear();
        for _ in 0..300 {
            s.learn_correction(&mid, 150, 20);
        }
        assert!((145..=150).contains(&s.correction(&mid)), "{}", s.correction(&mid));
        for _ in 0..300 {
            s.learn_correction(&mid, -1_000, 20);
        }
        assert!((-CORR_LIMIT..=-CORR_LIMIT + 5).contains(&s.correction(&mid)), "{}", s.correction(&mid));
        s.configure("corr=50").unwrap();
        assert!((-CORR_LIMIT / 2..=-CORR_LIMIT / 2 + 5).contains(&s.correction(&mid)));
        // The other side to move has tables of its own.
        let flipped = Position::from_fen("BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW b").unwrap();
        assert_eq!(s.correction(&flipped), 0);
        s.configure("corr=0").unwrap();
        assert_eq!(s.correction(&mid), 0);
    }

    #[test]
    fn net_scale_weighs_the_networks_correction() {
        let mid = Position::from_fen("BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w").unwrap();
        let quiet = |options: &str| {
            let mut s = Searcher::new(1);
            s.configure(options).unwrap();
            (s.quiet_eval(&mid), s)
        };
        let (without, _) = quiet("max");
        let (with, _) = quiet("max,net");
        let correction = with - without;
        assert!(correction.abs() >= 4, "the committed network corrects this position: {correction}");
        assert_eq!(quiet("max,net,net-scale=100").0, with);
        assert_eq!(quiet("max,net,net-scale=0").0, without);
        assert_eq!(quiet("max,net,net-scale=200").0, without + 2 * correction);
        assert_eq!(quiet("max,net,net-scale=50").0, without + correction / 2);
        // `max` restores the full scale, and a search at half the scale is another search.
        let (_, mut reset) = quiet("max,net,net-scale=50");
        reset.configure("max").unwrap();
        assert_eq!(reset.params.net_scale, 100);
        let (_, mut full) = quiet("max,net");
        let (_, mut half) = quiet("max,net,net-scale=50");
        let a = full.search(&mid, &[], Limits::depth(6), |_| {});
        let b = half.search(&mid, &[], Limits::depth(6), |_| {});
        assert_ne!(a.nodes, b.nodes);
        assert!(Searcher::new(1).configure("net-scale=x").is_err());
    }

    #[test]
    fn sliced_search_matches_a_plain_search() {
        let p = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        let mut sliced = SlicedSearch::new(Searcher::new(1), &p, &[], Limits::depth(4));
        let mut slices = 0;
        let result = loop {
            slices += 1;
            if let Some(r) = sliced.run_for(Duration::from_micros(200), |_| {}) {
                break r.clone();
            }
            assert!(slices < 100_000, "the sliced search must finish");
        };
        assert_eq!(result.best.unwrap().to_string(), "a1-b2A b2-c2A");
        let start = Position::start(&Rules::default());
        let mut sliced = SlicedSearch::new(Searcher::new(1), &start, &[], Limits::depth(3));
        let mut n = 0;
        while sliced.run_for(Duration::from_millis(1), |_| {}).is_none() {
            n += 1;
            assert!(n < 100_000);
        }
        assert_eq!(sliced.current().depth, 3);
        let mut c = start;
        assert!(c.play_turn(sliced.current().best.as_ref().unwrap()).is_ok());
    }

    /// Plain minimax with the search's exact semantics (depth in turns, relays free, quiescence over forced
    /// captures with the static score as a floor), no pruning and no table.
    fn minimax(pos: &Position, depth: i32, tply: i32) -> i32 {
        if !pos.in_relay() {
            if pos.count(pos.side_to_move()) == 0 {
                return -WIN + tply;
            }
            if depth <= 0 {
                return quiescence(pos, tply, 0);
            }
        }
        let steps = pos.steps();
        if steps.is_empty() {
            return -WIN + tply;
        }
        steps
            .iter()
            .map(|&s| {
                let mut c = *pos;
                if c.play(s).turn_ended { -minimax(&c, depth - 1, tply + 1) } else { minimax(&c, depth, tply) }
            })
            .max()
            .unwrap()
    }

    fn quiescence(pos: &Position, tply: i32, qturns: u32) -> i32 {
        let mut floor = -INF;
        if !pos.in_relay() {
            if pos.count(pos.side_to_move()) == 0 {
                return -WIN + tply;
            }
            if !pos.has_capture() {
                return if pos.count_paika() == 0 {
                    -WIN + tply
                } else {
                    full_evaluate(pos) - THREAT_WEIGHT * pos.threat() as i32
                };
            }
            floor = full_evaluate(pos);
            if qturns >= QS_MAX_TURNS {
                return floor;
            }
        }
        let best = pos
            .steps()
            .iter()
            .map(|&s| {
                let mut c = *pos;
                if c.play(s).turn_ended { -quiescence(&c, tply + 1, qturns + 1) } else { quiescence(&c, tply, qturns) }
            })
            .max()
            .unwrap();
        best.max(floor)
    }

    /// Compares `s`'s fixed-depth scores (depths 1 to 3) with [`minimax`] from positions of `tries` random games
    /// seeded with `seed`, far enough in for the quiescence tree to stay small; returns how many it checked.
    fn matches_minimax_from_random_games(s: &mut Searcher, seed: u64, tries: usize) -> usize {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        s.set_table_enabled(false);
        s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
        let mut checked = 0;
        for _ in 0..tries {
            let mut p = Position::start(&Rules::default());
            for _ in 0..rng.random_range(8..40) {
                let turns = p.legal_turns();
                if turns.is_empty() {
                    break;
                }
                p.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
            }
            if p.is_lost() || p.count(Side::White) + p.count(Side::Black) > 20 {
                continue;
            }
            for depth in 1..=3 {
                assert_eq!(s.search_at_depth(&p, &[], depth), minimax(&p, depth as i32, 0), "{} depth {depth}", p);
            }
            checked += 1;
        }
        checked
    }

    #[test]
    fn alpha_beta_equals_minimax() {
        let checked = matches_minimax_from_random_games(&mut Searcher::new(1), 11, 80);
        assert!(checked >= 30, "only {checked} positions checked");
    }

    #[test]
    fn history_ordering_options_keep_the_minimax_value() {
        // Capture history and history gravity only reorder steps: with the table off, every fixed-depth score is
        // still the minimax value, though the histories they learn carry from search to search.
        let mut s = Searcher::new(1);
        s.configure("caphist,hmalus,cmove").unwrap();
        let checked = matches_minimax_from_random_games(&mut s, 23, 60);
        assert!(checked >= 20, "only {checked} positions checked");
        assert!(s.cap_history.iter().flatten().flatten().any(|&h| h != 0), "no capture caused a cut");
        assert!(s.countermoves.iter().flatten().flatten().any(Option::is_some), "no countermove was learnt");
    }

    /// Plain minimax with the baseline player's semantics: no quiescence, material and piece-square table.
    fn plain_minimax(pos: &Position, depth: i32, tply: i32) -> i32 {
        if !pos.in_relay() {
            if pos.count(pos.side_to_move()) == 0 {
                return -WIN + tply;
            }
            if depth <= 0 {
                return if !pos.has_capture() && pos.count_paika() == 0 { -WIN + tply } else { plain_evaluate(pos) };
            }
        }
        let steps = pos.steps();
        if steps.is_empty() {
            return -WIN + tply;
        }
        steps
            .iter()
            .map(|&s| {
                let mut c = *pos;
                if c.play(s).turn_ended {
                    -plain_minimax(&c, depth - 1, tply + 1)
                } else {
                    plain_minimax(&c, depth, tply)
                }
            })
            .max()
            .unwrap()
    }

    #[test]
    fn baseline_equals_plain_minimax() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut s = Searcher::baseline(1);
        s.set_table_enabled(false);
        s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
        for _ in 0..30 {
            let mut p = Position::start(&Rules::default());
            for _ in 0..rng.random_range(2..30) {
                let turns = p.legal_turns();
                if turns.is_empty() {
                    break;
                }
                p.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
            }
            for depth in 1..=3 {
                assert_eq!(s.search_at_depth(&p, &[], depth), plain_minimax(&p, depth as i32, 0), "{p} depth {depth}");
            }
        }
    }

    #[test]
    fn centrality_peaks_in_the_middle_of_either_board() {
        let at = |v, p: &str| centrality(v, 1 << crate::geometry::parse_point(p).unwrap());
        use crate::geometry::Variant::{Dimy, Tsivy};
        assert_eq!(
            (at(Tsivy, "e3"), at(Tsivy, "a1"), at(Tsivy, "i5"), at(Tsivy, "c3"), at(Tsivy, "e1")),
            (4, 0, 0, 3, 2)
        );
        assert_eq!((at(Dimy, "c3"), at(Dimy, "a1"), at(Dimy, "e5"), at(Dimy, "b3"), at(Dimy, "c1")), (4, 0, 0, 3, 2));
        // The masks give every point its table value, so a set of pieces sums the table.
        for (v, width) in [(Tsivy, 9), (Dimy, 5)] {
            let table = centre_table(width);
            for (p, &value) in table.iter().enumerate() {
                assert_eq!(centrality(v, 1 << p), value, "point {p} of {v:?}");
            }
            let bits = 0x1234_5678_9abcu64 & ((1 << 45) - 1);
            let sum: i32 = (0..45).filter(|p| bits >> p & 1 == 1).map(|p| table[p]).sum();
            assert_eq!(centrality(v, bits), sum);
        }
    }

    #[test]
    fn plain_evaluation_counts_material_and_points() {
        let start = Position::start(&Rules::default());
        assert_eq!(plain_evaluate(&start), 0, "the start is symmetric");
        // White on the centre e3 (strong, central: 4 + 2 + 2) and the corner a1 (strong: 4 + 0 + 0) against
        // Black on the weak edge point b1 (0 + 0 + 0).
        let p = Position::from_fen("9/9/4W4/9/WB7 w").unwrap();
        assert_eq!(plain_evaluate(&p), PIECE + 8 + 4);
        assert_eq!(plain_evaluate(&Position::from_fen("9/9/4W4/9/WB7 b").unwrap()), -(PIECE + 8 + 4));
    }

    #[test]
    fn search_options_are_parsed_and_checked() {
        let mut s = Searcher::new(1);
        s.configure("baseline").unwrap();
        assert_eq!(
            (s.params.eval, s.params.qs_max_turns, s.params.threat_weight, s.params.use_killers),
            (EvalKind::Plain, 0, 0, false)
        );
        s.configure("max, lmr, qs-turns=2, threat=40").unwrap();
        assert_eq!(
            (s.params.eval, s.params.qs_max_turns, s.params.threat_weight, s.params.lmr),
            (EvalKind::Full, 2, 40, true)
        );
        s.configure("noqs,nolmr,killers=0,eval=plain").unwrap();
        assert_eq!(
            (s.params.eval, s.params.qs_max_turns, s.params.lmr, s.params.use_killers),
            (EvalKind::Plain, 0, false, false)
        );
        assert!(s.configure("fast").is_err());
        assert!(s.configure("threat=x").is_err());
        assert!(s.configure("eval=neural").is_err());
        s.configure("max,eval=tuned,nmp,nmp-r=3,fut=90").unwrap();
        assert_eq!(
            (s.params.eval, s.params.threat_weight, s.params.null_move, s.params.null_reduction, s.params.futility),
            (EvalKind::Tuned, 0, true, 3, 90)
        );
        s.configure("rfp=70,rfp-depth=2,rfp-quiet,pc=150,qs-single=3").unwrap();
        assert_eq!(
            (s.params.rfp, s.params.rfp_depth, s.params.rfp_quiet, s.params.probcut, s.params.qs_single),
            (70, 2, true, 150, 3)
        );
        s.configure("baseline").unwrap();
        assert_eq!(
            (s.params.null_move, s.params.futility, s.params.rfp, s.params.probcut, s.params.qs_single),
            (false, 0, 0, 0, 0)
        );
        s.configure("max,strong=12,mobend=8,threads=2").unwrap();
        assert_eq!(
            (s.params.mobility_weight, s.params.strong_extra, s.params.mobility_endgame, s.threads),
            (MOBILITY_WEIGHT, 8, 8, 2)
        );
        s.configure("max,threads=0").unwrap();
        assert_eq!((s.params.strong_extra, s.params.mobility_endgame, s.threads), (0, 0, 1));
        assert!(s.configure("mobend=lots").is_err());
        s.configure("max,iir,relay-terms,capgain-relay=0").unwrap();
        assert_eq!((s.params.iir, s.params.threat_relay, s.params.capgain_relay), (true, true, false));
        s.configure("max").unwrap();
        assert_eq!((s.params.iir, s.params.threat_relay, s.params.capgain_relay), (false, false, false));
        s.configure("lmp=3,delta=120,centre=-5").unwrap();
        assert_eq!((s.params.late_moves, s.params.delta_margin, s.params.centre_weight), (3, 120, -5));
        assert!(s.configure("lmp=many").is_err());
        // `tuned` takes the twelve weights of the first features, the piece-square classes left at 0, or all of them.
        s.configure("tuned=100:4:8:10:-80:0:0:0:0:8:5:0").unwrap();
        assert_eq!(s.params.tuned_weights[..13], [100, 4, 8, 10, -80, 0, 0, 0, 0, 8, 5, 0, 0]);
        let all = ["1"; crate::tuned::FEATURES].join(":");
        s.configure(&format!("tuned={all}")).unwrap();
        assert_eq!(s.params.tuned_weights, [1; crate::tuned::FEATURES]);
        assert!(s.configure("tuned=1:2:3").is_err());
        assert!(s.configure(&format!("tuned={all}:1")).is_err());
        s.configure("cmove,space=4,asp=20,lmr-log=50,threat-ext=3,lmp-depth=3,lmr-adj=2").unwrap();
        assert_eq!(s.params.lmr_adjust, 2);
        assert_eq!(
            (
                s.params.use_countermoves,
                s.params.space_weight,
                s.params.aspiration,
                s.params.lmr_log,
                s.params.threat_ext,
                s.params.late_move_depth
            ),
            (true, 4, 20, 50, 3, 3)
        );
        s.configure("se=4,se-depth=4,se-neg,conthist").unwrap();
        assert_eq!((s.params.singular, s.params.se_depth, s.params.se_neg, s.params.cont_hist), (4, 4, true, 1));
        s.configure("conthist=2").unwrap();
        assert_eq!(s.params.cont_hist, 2);
        assert!(s.configure("conthist=x").is_err());
        assert!(s.configure("se-depth=deep").is_err());
        s.configure("max").unwrap();
        assert_eq!(
            (
                s.params.use_countermoves,
                s.params.space_weight,
                s.params.aspiration,
                s.params.lmr_log,
                s.params.threat_ext,
                s.params.late_move_depth
            ),
            (false, 0, 40, 0, 0, 2)
        );
        assert_eq!(
            (s.params.singular, s.params.se_depth, s.params.se_neg, s.params.cont_hist),
            (0, SE_DEPTH, false, 0)
        );
        // The strong-point weight changes the score by what it says: White on e3 (strong), Black on b1 (weak).
        let p = Position::from_fen("9/9/4W4/9/1B7 w").unwrap();
        let plain = Searcher::new(0).static_eval(&p);
        let mut strong = Searcher::new(0);
        strong.configure("strong=10").unwrap();
        assert_eq!(strong.static_eval(&p), plain + (10 - STRONG_WEIGHT));
        // `keep` counts the pieces on the board for the side the search plays for, against the other side.
        let mut keep = Searcher::new(0);
        keep.configure("keep=10").unwrap();
        keep.root_side = Side::White;
        assert_eq!(keep.static_eval(&p), plain + 10 * 2);
        keep.root_side = Side::Black;
        assert_eq!(keep.static_eval(&p), plain - 10 * 2);
        keep.configure("max").unwrap();
        assert_eq!(keep.static_eval(&p), plain);
    }

    #[test]
    fn a_cut_iteration_answers_a_legal_turn() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut cut = 0;
        for _ in 0..40 {
            let plies = rng.random_range(0..20);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            let mut s = Searcher::new(1);
            s.configure("max,spend").unwrap();
            let nodes = rng.random_range(2_000..60_000);
            let r = s.search(&p, &[], Limits::nodes(nodes), |_| {});
            let best = r.best.expect("a turn");
            assert!(p.legal_turns().contains(&best), "{best} at {p}");
            assert_eq!(r.pv.first(), Some(&best), "the reported line starts with the answer");
            cut += usize::from(r.nodes >= nodes);
        }
        assert!(cut >= 20, "only {cut} searches were cut by their budget");
    }

    #[test]
    fn a_cut_iteration_keeps_a_root_turn_that_failed_high() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let (mut changed, mut cut) = (0, 0);
        for _ in 0..300 {
            let plies = rng.random_range(4..30);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            let nodes = rng.random_range(5_000..80_000);
            let answer = |keep: bool| {
                let mut s = Searcher::new(1);
                s.configure(crate::levels::FULL_STRENGTH).unwrap();
                // The narrowest aspiration window, so that iterations often fail high.
                s.configure(if keep { "asp=1" } else { "asp=1,keep-fh=0" }).unwrap();
                s.search(&p, &[], Limits::nodes(nodes), |_| {})
            };
            let (plain, kept) = (answer(false), answer(true));
            let best = kept.best.clone().expect("a turn");
            assert!(p.legal_turns().contains(&best), "{best} at {p}");
            assert_eq!(kept.pv.first(), Some(&best), "the reported line starts with the answer");
            // Both searches are the same node for node: only the answer of the cut iteration may differ.
            assert_eq!(plain.nodes, kept.nodes);
            cut += usize::from(kept.nodes >= nodes);
            changed += usize::from(plain.best != kept.best);
        }
        assert!(cut >= 150, "only {cut} searches were cut by their budget");
        assert!(changed >= 1, "no cut iteration answered a turn that failed high");
    }

    #[test]
    fn multipv_lines_are_the_best_turns_in_order() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        let mut checked = 0;
        while checked < 20 {
            let plies = rng.random_range(8..40);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            if p.count(Side::White) + p.count(Side::Black) > 20 {
                continue;
            }
            // Without the table and draw rules the search is exact: line k must score as the k-th best turn.
            let mut s = Searcher::new(1);
            s.set_table_enabled(false);
            s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
            for depth in 1..=3 {
                let r = s.search(&p, &[], Limits::depth(depth).with_multipv(3), |_| {});
                // `score_turns` counts distances from the position after the turn (one turn less), except for a
                // turn that wins at once.
                let from_root = |v: i32| v - v.signum() * i32::from(v < -WIN_BOUND || (v > WIN_BOUND && v < WIN - 1));
                let mut exact: Vec<i32> =
                    s.score_turns(&p, &[], depth).into_iter().map(|(_, v)| from_root(v)).collect();
                exact.truncate(3);
                let got: Vec<i32> = r.lines.iter().map(|l| l.score).collect();
                assert_eq!(got, exact, "{p} depth {depth}");
                let firsts: Vec<&Turn> = r.lines.iter().map(|l| &l.pv[0]).collect();
                for (i, t) in firsts.iter().enumerate() {
                    assert!(p.legal_turns().contains(t), "{t} at {p}");
                    assert!(!firsts[..i].contains(t), "{t} twice at {p}");
                }
                assert!(r.lines.iter().all(|l| l.depth == depth));
                assert_eq!((r.best.as_ref(), r.score), (Some(firsts[0]), r.lines[0].score));
                let mut plain = Searcher::new(1);
                plain.set_table_enabled(false);
                plain.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
                assert_eq!(plain.search(&p, &[], Limits::depth(depth), |_| {}).score, r.lines[0].score, "{p}");
            }
            checked += 1;
        }
    }

    #[test]
    fn continuation_history_reorders_without_changing_the_score() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let (mut checked, mut reordered) = (0, 0);
        while checked < 12 {
            let plies = rng.random_range(4..30);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            // Without the table, draw rules or pruning, alpha-beta's score does not depend on the order.
            let run = |spec: &str| {
                let mut s = Searcher::new(1);
                s.configure(spec).unwrap();
                s.set_table_enabled(false);
                s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
                s.search(&p, &[], Limits::depth(4), |_| {})
            };
            let (plain, cont, cont2) = (run("killers"), run("killers,conthist"), run("killers,conthist=2"));
            assert_eq!((plain.score, plain.score), (cont.score, cont2.score), "{p}");
            reordered += usize::from(plain.nodes != cont.nodes && cont.nodes != cont2.nodes);
            checked += 1;
        }
        assert!(reordered >= 3, "continuation history changed the tree of only {reordered} searches");
    }

    #[test]
    fn multipv_with_the_table_reports_every_line() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(8);
        let mut checked = 0;
        while checked < 15 {
            let plies = rng.random_range(10..40);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            if p.count(Side::White) + p.count(Side::Black) > 20 {
                continue;
            }
            let want = p.legal_turns().len().min(3);
            let mut infos = Vec::new();
            let r = Searcher::new(4).search(&p, &[], Limits::depth(4).with_multipv(3), |i| infos.push(i.clone()));
            assert_eq!(r.lines.len(), want, "{p}");
            assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score), "{:?}", r.lines);
            assert_eq!((r.best.as_ref(), r.score), (Some(&r.lines[0].pv[0]), r.lines[0].score));
            // One report per line and completed depth (a forced result ends the search early), numbered in order.
            assert_eq!(infos.len(), r.depth as usize * want, "{p}");
            for (i, info) in infos.iter().enumerate() {
                assert_eq!((info.depth as usize, info.multipv), (i / want + 1, i % want + 1));
            }
            let last = &infos[infos.len() - want..];
            assert!(last.iter().zip(&r.lines).all(|(i, l)| i.score == l.score && i.pv == l.pv));
            checked += 1;
        }
    }

    #[test]
    fn sliced_multipv_matches_a_plain_search() {
        // Without the table, slices cannot change what the search sees: the lines must be the plain search's.
        let p = Position::from_fen("2B1B1B2/1B3B1B1/B1W3W1B/1W1W1W3/2W1W1W2 w").unwrap();
        let limits = Limits::depth(3).with_multipv(4);
        let fresh = || {
            let mut s = Searcher::new(1);
            s.set_table_enabled(false);
            s
        };
        let plain = fresh().search(&p, &[], limits, |_| {});
        let mut sliced = SlicedSearch::new(fresh(), &p, &[], limits);
        let mut reports = 0;
        let mut n = 0;
        // A slice that ends an iteration early makes the next one start it again (without the table nothing of it
        // is kept), so an iteration longer than a slice would never end: on a slow or loaded machine the slices
        // grow until the iterations fit.
        let (mut slice, mut last, mut idle) = (Duration::from_micros(300), 0, 0);
        while sliced.run_for(slice, |_| reports += 1).is_none() {
            n += 1;
            if reports == last {
                idle += 1;
                if idle == 20 {
                    slice *= 2;
                    idle = 0;
                }
            } else {
                (last, idle) = (reports, 0);
            }
            assert!(n < 100_000);
        }
        assert!(n > 3, "the search was sliced");
        assert_eq!(reports, 12);
        assert_eq!(sliced.current().lines, plain.lines);
        // The start has five turns: a search asking for more lines reports them all.
        let start = Position::start(&Rules::default());
        let all = Searcher::new(1).search(&start, &[], Limits::depth(1).with_multipv(9), |_| {});
        assert_eq!(all.lines.len(), 5);
    }

    #[test]
    fn multipv_of_a_relay_in_progress_includes_stopping() {
        // After a1-b2A (taking c3) White may stop or go on with b2-c2A, which takes Black's last piece.
        let mut p = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        p.play("a1-b2A".parse().unwrap());
        assert!(p.in_relay());
        let r = Searcher::new(1).search(&p, &[], Limits::depth(2).with_multipv(5), |_| {});
        let firsts: Vec<String> = r.lines.iter().map(|l| l.pv[0].to_string()).collect();
        assert_eq!(firsts.len(), p.legal_turns().len());
        assert_eq!(firsts[0], "b2-c2A");
        assert!(firsts.contains(&String::new()), "stopping is a line: {firsts:?}");
        assert!(r.lines[0].score > WIN_BOUND && r.lines.last().unwrap().score < r.lines[0].score);
    }

    #[test]
    fn stop_flag_stops_at_once() {
        let p = Position::start(&Rules::default());
        let mut s = Searcher::new(1);
        // A stop sent before the search starts is honoured: it answers at once with a legal turn.
        s.stop_flag().store(true, Ordering::Relaxed);
        let r = s.search(&p, &[], Limits::depth(30), |_| {});
        assert!(r.best.is_some());
        assert!(r.nodes <= 1024, "{} nodes", r.nodes);
        // The request is used up: the next search runs normally.
        let r = s.search(&p, &[], Limits::depth(2), |_| {});
        assert_eq!(r.depth, 2);
        // A stop from another thread ends a long search.
        let flag = s.stop_flag();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            flag.store(true, Ordering::Relaxed);
        });
        let t0 = Instant::now();
        let r = s.search(&p, &[], Limits::depth(60), |_| {});
        stopper.join().unwrap();
        assert!(t0.elapsed() < Duration::from_secs(5));
        assert!(r.best.is_some());
    }

    /// Random game positions under `rules`, some of them in the middle of a relay.
    fn table_test_positions(rules: &Rules, seed: u64, n: usize) -> Vec<Position> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut out = vec![Position::start(rules)];
        while out.len() < n {
            let mut p = Position::start(rules);
            for _ in 0..rng.random_range(1..30) {
                let turns = p.legal_turns();
                if turns.is_empty() {
                    break;
                }
                p.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
            }
            // Stop some positions inside a relay: after the first capture of a turn that can go on.
            if rng.random_bool(0.7) {
                for &step in p.steps().iter().filter(|s| s.kind != StepKind::Paika) {
                    let mut c = p;
                    c.play(step);
                    if c.in_relay() {
                        p = c;
                        break;
                    }
                }
            }
            if !p.legal_turns().is_empty() {
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn the_table_does_not_change_fixed_depth_scores() {
        // Regression: quiescence stored its entries at depth -1 whatever its turn budget, and probed them with
        // no depth check, so an entry found with fewer capture turns left (a nearer horizon) answered for a node
        // with more left. Iterative deepening hit this at every leaf: a depth-2 search of the start scored 198,
        // the depth-1 score (both horizons at turn 7), where the exact score is 10.
        let start = Position::start(&Rules::default());
        let r = Searcher::new(16).search(&start, &[], Limits::depth(2), |_| {});
        let mut exact = Searcher::new(1);
        exact.set_table_enabled(false);
        let (d1, d2) = (exact.search_at_depth(&start, &[], 1), exact.search_at_depth(&start, &[], 2));
        assert_ne!(d1, d2, "the start's depth-1 and depth-2 scores differ, or this test shows nothing");
        assert_eq!(r.score, d2);
        let lines = Rules { relay: crate::rules::RelayRule::Lines, ..Rules::default() };
        let mut positions = table_test_positions(&Rules::default(), 17, 12);
        positions.extend(table_test_positions(&lines, 18, 12));
        let relays = positions.iter().filter(|p| p.in_relay()).count();
        assert!(relays >= 4, "{relays} positions in a relay");
        for p in &positions {
            for depth in 1..=3 {
                let mut exact = Searcher::new(1);
                exact.set_table_enabled(false);
                exact.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
                let want = exact.search_at_depth(p, &[], depth);
                // Iterative deepening with the table (and shallower entries left in it by earlier iterations).
                let mut s = Searcher::new(16);
                s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
                let got = s.search(p, &[], Limits::depth(depth), |_| {}).score;
                assert_eq!(got, want, "{p} depth {depth} (in relay: {})", p.in_relay());
                if !p.in_relay() && depth > 1 {
                    let mut s = Searcher::new(16);
                    s.set_draw_rule(DrawRule { repetitions: 0, no_capture_turns: 0 });
                    let best = s.score_turns(p, &[], depth).first().map(|&(_, v)| v);
                    assert_eq!(best.filter(|v| v.abs() < WIN_BOUND), Some(want).filter(|v| v.abs() < WIN_BOUND));
                }
            }
        }
    }
}
