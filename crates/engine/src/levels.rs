//! CPU levels, from a beginner who makes human-looking mistakes to full-strength master play with opening
//! variety; draw-offer judgement and hints.

use crate::game::Game;
use crate::position::Position;
use crate::rules::Side;
use crate::search::{Info, Limits, Oracle, PIECE, Score, SearchResult, Searcher, SlicedSearch};
use crate::tablebase;
use crate::turns::Turn;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Search options of full strength (`level max`, the default): the defaults, a time budget spent to the end,
/// answering with the unfinished iteration's best turn (STRENGTH.md: +19.7 Elo [+3.4, +36.1] in 600 games at
/// 40 ms a turn), a capture quiescence that follows forced captures for 2 turns instead of 6 (+18.0 Elo
/// [+4.0, +32.0] in 792 games at 60,000 nodes a turn, SPRT H1), and where it stops with a capture still due,
/// a piece per piece of that capture (`capgain=100` against none +31.3 Elo [+12.8, +50.0] and +27.8 [+10.8,
/// +44.9] from two books, SPRT H1 at 60,000 nodes a turn; +2.9 [−14.1, +19.9] in 120 games at 200 ms; depth 9
/// over the bench positions in 11 M nodes instead of 20 M), and together late-move pruning of paika steps at
/// depth 1–2 (`lmp=3`), delta pruning in the quiescence (`delta=100`) and a centrality term (`centre=5`):
/// +13.1 Elo [+2.9, +23.3] and +16.5 [+4.3, +28.7] from two books, SPRT H1 at 60,000 nodes a turn; and null-move
/// pruning with late-move reductions that grow with depth and the step's place (`nmp,lmr-log=50`): +9.0, +4.2 and
/// +9.0 Elo from three books at 300,000 nodes a turn, +7.4 [+2.4, +12.4] over the 1,500 games together, even at
/// 200 ms; depth 11 over nine bench positions in 4.1 M nodes instead of 12.1 M; and captures ordered by what
/// the whole turn takes with them (`relay-order=2`): +10.4, +17.0 and +16.6 Elo from two books at 60,000 and
/// 300,000 nodes a turn (two SPRT H1), depth 9 over 54 positions from match games in 1.3 s instead of 2.4 s;
/// and the evaluation network's correction of quiet leaves (`net`, [`crate::eval_net`]): +23.9 Elo [+8.4, +39.5] at
/// 60,000 nodes a turn and +18.2 [+5.1, +31.3] at 40 ms a turn (SPRT H1 both), and retrained with the games'
/// results making up 30% of its targets, +20.0 [+3.9, +36.2] and +19.3 [+3.8, +35.0] Elo against the first from
/// two books at 60,000 nodes a turn (SPRT H1 both), and on twice the positions (half from games of that network),
/// +12.4 [+2.8, +22.1] (SPRT H1) and +4.8 [−4.6, +14.1] from two books, and on the positions of the games of
/// the last two networks, +17.2 [+4.6, +29.8] (SPRT H1) and +6.9 [−2.1, +16.0] from two books; now a wide
/// network (it also sees the side to move's exposed pieces) on the positions of the last two networks' games,
/// +5.6 [−1.6, +12.9] at 60,000 nodes a turn and +3.9 [−2.2, +10.0] and +6.7 [−1.5, +14.9] from two books at
/// 300,000 (about +5 over the 2,380 games), retrained with a step size that falls to the end, +9.6 [+2.0, +17.2]
/// and +16.1 [+4.2, +28.0] from two books at 60,000 nodes a turn (SPRT H1 both); and singular extensions
/// (`se=4`), +8.9 [+2.5, +15.2] and +9.7 [+2.2, +17.2] from two books at 300,000 nodes a turn (SPRT H1 both);
/// and six of those numbers tuned together by SPSA (`fanorona-cli spsa`, 1,800 pairs at 60,000 nodes a turn:
/// `capgain` 100 → 102, `threat` 80 → 87, `mob` 8 → 7, `centre` 5 → 4, `lmr-log` 50 → 53, `delta` 100 → 109),
/// +11.2 [+2.4, +19.9] (SPRT H1) and +5.9 [−1.1, +12.9] from two books at 60,000 nodes a turn, +7.7 [+2.2,
/// +13.2] over the 1,528 games together; and seven numbers of the search tuned together by SPSA (2,000 pairs:
/// `lmp` 3 → 4, `lmp-depth` 2 → 1, `se` 4 → 3, `se-depth` 6 → 4, `asp` 40 → 30, `nmp-r` 2 unchanged,
/// `net-scale` 100 → 102), +11.0 [+2.3, +19.8] and +14.1 [+4.2, +23.9] from two books at 60,000 nodes a turn
/// (SPRT H1 both) and +4.1 [−4.2, +12.3] at 300,000.
pub const FULL_STRENGTH: &str = "max,spend,qs-turns=2,capgain=102,threat=87,mob=7,lmp=4,lmp-depth=1,delta=109,\
centre=4,nmp,lmr-log=53,relay-order=2,net,se=3,se-depth=4,asp=30,net-scale=102";

/// What [`FULL_STRENGTH`] adds to the searcher's defaults (`max`): the whole time budget spent, a quiescence
/// over at most two turns of captures, the worth of a capture left at its horizon, late-move and delta pruning,
/// centrality, the threat and mobility weights as SPSA set them, null moves and late-move reductions, captures
/// ordered with their relays, the evaluation network and its scale, singular extensions, the aspiration window.
/// Master plays with them too ([`crate::levels::Level::Master`]).
pub const FULL_STRENGTH_EXTRAS: &str = "spend,qs-turns=2,capgain=102,threat=87,mob=7,lmp=4,lmp-depth=1,delta=109,\
centre=4,nmp,lmr-log=53,relay-order=2,net,se=3,se-depth=4,asp=30,net-scale=102";

/// A CPU playing strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Level {
    /// Looks one turn ahead, misjudges often, sometimes stops a relay too early.
    Beginner = 1,
    /// Looks two turns ahead with some noise.
    Novice = 2,
    /// A club player: three turns and a little noise.
    #[default]
    Intermediate = 3,
    /// A solid search with a short time budget.
    Advanced = 4,
    /// Full strength: deep search, endgame tablebase, opening variety.
    Master = 5,
}

struct Spec {
    /// Search depth of each candidate turn's evaluation (noisy levels) or of the search.
    depth: u32,
    /// Time budget (full searches only).
    movetime: Option<u64>,
    /// Spread of the evaluation noise in hundredths of a piece (0: none, full search).
    noise: i32,
    /// Chance of stopping a relay early, as if its continuation went unseen.
    relay_cut: f64,
    /// Searches with full strength's options ([`FULL_STRENGTH_EXTRAS`]): quiescence over at most
    /// two turns of captures, the worth of a capture left at its horizon, late-move and delta pruning, centrality,
    /// null moves, late-move reductions, singular extensions, and the whole time budget spent. Master
    /// only, so that it stays clearly above Advanced (with the faster search of 2026-11-25 it scored 63% against
    /// it without; STRENGTH.md).
    full_strength: bool,
}

impl Level {
    /// All levels, weakest first.
    pub const ALL: [Level; 5] = [Level::Beginner, Level::Novice, Level::Intermediate, Level::Advanced, Level::Master];

    /// The level with number 1..=5.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    /// The number 1..=5.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// Name shown to players.
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "Beginner",
            Level::Novice => "Novice",
            Level::Intermediate => "Intermediate",
            Level::Advanced => "Advanced",
            Level::Master => "Master",
        }
    }

    fn spec(self) -> Spec {
        match self {
            Level::Beginner => Spec { depth: 1, movetime: None, noise: 220, relay_cut: 0.45, full_strength: false },
            Level::Novice => Spec { depth: 2, movetime: None, noise: 90, relay_cut: 0.2, full_strength: false },
            Level::Intermediate => Spec { depth: 3, movetime: None, noise: 25, relay_cut: 0.05, full_strength: false },
            Level::Advanced => Spec { depth: 5, movetime: Some(300), noise: 0, relay_cut: 0.0, full_strength: false },
            Level::Master => Spec { depth: 64, movetime: Some(1500), noise: 0, relay_cut: 0.0, full_strength: true },
        }
    }

    /// The search limits of this level for a full search, tightened by `cap` where it is stricter.
    pub fn limits(self, cap: Limits) -> Limits {
        let s = self.spec();
        let movetime = match (s.movetime.map(Duration::from_millis), cap.movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits { depth: Some(cap.depth.map_or(s.depth, |d| d.min(s.depth))), movetime, ..cap }
    }

    /// Chooses a turn at this level. `seed` makes the choice reproducible; `cap` can shorten the thinking.
    pub fn choose(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[u64],
        seed: u64,
        cap: Limits,
    ) -> Option<Turn> {
        self.choose_with_info(searcher, pos, history, seed, cap, |_| {})
    }

    /// [`Level::choose`], reporting the progress of the search (full-strength levels) to `info`.
    pub fn choose_with_info(
        self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[u64],
        seed: u64,
        cap: Limits,
        mut info: impl FnMut(&Info),
    ) -> Option<Turn> {
        let mut thinking =
            Thinking::new(self, std::mem::replace(searcher, Searcher::placeholder()), pos, history, seed, cap);
        thinking.run(None, &mut info);
        let (s, turn) = thinking.finish();
        *searcher = s;
        turn
    }

    /// Whether the CPU playing `cpu` accepts a draw offer in `pos`: only when its search says it is not winning.
    pub fn accepts_draw(self, searcher: &mut Searcher, pos: &Position, history: &[u64], cpu: Side) -> bool {
        let r = searcher.search(pos, history, self.draw_limits(), |_| {});
        Level::accepts_draw_after(pos, cpu, r.score)
    }

    /// The limits of the search that judges a draw offer.
    pub fn draw_limits(self) -> Limits {
        self.limits(Limits::movetime(400))
    }

    /// Whether the CPU playing `cpu` accepts a draw in `pos`, whose search (with [`Level::draw_limits`]) scored
    /// `score` for the side to move.
    pub fn accepts_draw_after(pos: &Position, cpu: Side, score: i32) -> bool {
        let for_cpu = if pos.side_to_move() == cpu { score } else { -score };
        // A quarter of a piece is within the evaluation's noise: "not winning".
        for_cpu <= PIECE / 4
    }
}

impl Searcher {
    /// Scores every legal turn with a search of `depth` turns (the turn itself included), best first.
    pub fn score_turns(&mut self, pos: &Position, history: &[u64], depth: u32) -> Vec<(Turn, i32)> {
        let hist = turn_history(pos, history);
        let stop = self.stop_flag();
        let mut out: Vec<(Turn, i32)> = pos
            .legal_turns()
            .into_iter()
            .take_while(|_| !stop.load(Ordering::Relaxed))
            .map(|t| {
                let s = self.score_turn(pos, &hist, &t, depth);
                (t, s)
            })
            .collect();
        out.sort_by_key(|a| std::cmp::Reverse(a.1));
        stop.store(false, Ordering::Relaxed);
        out
    }

    /// [`Searcher::score_turns`] with at most `max_nodes` nodes for each turn's search: None when one needs more
    /// (a few positions of long exchanges take minutes at depths that take milliseconds elsewhere).
    pub fn score_turns_within(
        &mut self,
        pos: &Position,
        history: &[u64],
        depth: u32,
        max_nodes: u64,
    ) -> Option<Vec<(Turn, i32)>> {
        let hist = turn_history(pos, history);
        let mut out = Vec::new();
        for t in pos.legal_turns() {
            let s = self.score_turn_within(pos, &hist, &t, depth, max_nodes)?;
            out.push((t, s));
        }
        out.sort_by_key(|a| std::cmp::Reverse(a.1));
        Some(out)
    }

    /// The score of playing `turn` in `pos` from a search of `depth` turns (the turn included); `hist` is
    /// [`turn_history`] of `pos`.
    fn score_turn(&mut self, pos: &Position, hist: &[u64], turn: &Turn, depth: u32) -> i32 {
        self.score_turn_by(pos, hist, turn, |s, c, h| Some(s.fixed_depth(c, h, depth.saturating_sub(1))))
            .expect("a search without a node budget always scores")
    }

    /// [`Searcher::score_turn`] within `max_nodes` nodes: None when its search needs more.
    fn score_turn_within(
        &mut self,
        pos: &Position,
        hist: &[u64],
        turn: &Turn,
        depth: u32,
        max_nodes: u64,
    ) -> Option<i32> {
        self.score_turn_by(pos, hist, turn, |s, c, h| s.fixed_depth_within(c, h, depth.saturating_sub(1), max_nodes))
    }

    /// Plays `turn` and scores it by `search` of the position after it (from the opponent's side), or as a win
    /// when the opponent has lost.
    fn score_turn_by(
        &mut self,
        pos: &Position,
        hist: &[u64],
        turn: &Turn,
        search: impl FnOnce(&mut Self, &Position, &[u64]) -> Option<i32>,
    ) -> Option<i32> {
        let mut c = *pos;
        c.play_turn(turn).expect("generated turns are legal");
        let h: &[u64] = if turn.is_capture() { &[] } else { hist };
        if c.is_lost() {
            Some(Score::Win(1).raw())
        } else {
            // Draws are judged for the side choosing the turn.
            self.root_side = pos.side_to_move();
            search(self, &c, h).map(|s| -s)
        }
    }
}

/// The history after a turn from `pos` starts: `history` plus `pos` itself when `pos` starts a turn.
fn turn_history(pos: &Position, history: &[u64]) -> Vec<u64> {
    let mut hist = history.to_vec();
    if !pos.in_relay() {
        hist.push(pos.hash());
    }
    hist
}

/// A CPU's choice of turn in progress, which can run in short slices (a web page's single thread, between
/// frames) or all at once ([`Level::choose`]). Both ways make the same choice from the same seed, as long as the
/// time limits do not cut the search.
pub struct Thinking {
    level: Level,
    pos: Position,
    history: Vec<u64>,
    rng: SmallRng,
    variety_depth: u32,
    phase: Phase,
}

enum Phase {
    /// The full-strength search.
    Search(Box<SlicedSearch>),
    /// Scoring every turn one by one: for the noisy levels, or for the master's opening variety around `best`.
    Score {
        searcher: Searcher,
        hist: Vec<u64>,
        todo: Vec<Turn>,
        depth: u32,
        scored: Vec<(Turn, i32)>,
        best: Option<Turn>,
    },
    /// The choice is made.
    Done { searcher: Searcher, turn: Option<Turn> },
    /// Passing between phases.
    Empty,
}

impl Thinking {
    /// Starts thinking about `pos` at `level` (see [`Level::choose`] for the arguments).
    pub fn new(
        level: Level,
        mut searcher: Searcher,
        pos: &Position,
        history: &[u64],
        seed: u64,
        cap: Limits,
    ) -> Thinking {
        let spec = level.spec();
        // The strong levels play small endgames perfectly; the others find their own way (and their mistakes).
        // In a browser nothing may wait for a build: the engine's worker (or the page, without one) builds its
        // tables in slices and shares each when complete (`service::Engine::with_tables`, the game's
        // `play::endgame`), and endgames are played by search until then.
        let oracle: Option<Arc<dyn Oracle>> = if level < Level::Advanced {
            None
        } else if cfg!(target_arch = "wasm32") {
            tablebase::shared_now(pos.variant()).map(|tb| tb as Arc<dyn Oracle>)
        } else {
            Some(tablebase::shared(pos.variant(), tablebase::default_dir().as_deref()))
        };
        searcher.set_oracle(oracle);
        if spec.full_strength {
            searcher.configure(FULL_STRENGTH_EXTRAS).expect("the full-strength options are valid");
        }
        let mut rng = SmallRng::seed_from_u64(seed ^ (level as u64) << 56 ^ pos.hash());
        let book = searcher.opening_book().filter(|_| level == Level::Master).and_then(|b| b.choose(pos, &mut rng));
        let phase = if let Some(turn) = book {
            Phase::Done { searcher, turn: Some(turn) }
        } else if spec.noise == 0 {
            Phase::Search(Box::new(SlicedSearch::new(searcher, pos, history, level.limits(cap))))
        } else {
            let hist = turn_history(pos, history);
            Phase::Score { searcher, hist, todo: pos.legal_turns(), depth: spec.depth, scored: Vec::new(), best: None }
        };
        Thinking { level, pos: *pos, history: history.to_vec(), rng, variety_depth: 6, phase }
    }

    /// Caps the depth of the master's search for equally good opening turns (default 6), whose single steps
    /// cannot be sliced: a web page keeps its frames short with a lower cap.
    pub fn with_variety_depth(mut self, depth: u32) -> Thinking {
        self.variety_depth = depth.max(1);
        self
    }

    /// Thinks for about `slice` (None: until done), reporting the full search's iterations to `info`. Returns
    /// whether the choice is made.
    pub fn run(&mut self, slice: Option<Duration>, info: &mut impl FnMut(&Info)) -> bool {
        let end = slice.map(|s| Instant::now() + s);
        loop {
            match std::mem::replace(&mut self.phase, Phase::Empty) {
                Phase::Search(mut search) => {
                    let done = match slice {
                        Some(s) => search.run_for(s, &mut *info).is_some(),
                        None => {
                            search.finish(&mut *info);
                            true
                        }
                    };
                    if !done {
                        self.phase = Phase::Search(search);
                        return false;
                    }
                    let r = search.current().clone();
                    let searcher = search.into_searcher();
                    self.phase = self.after_search(searcher, r);
                }
                Phase::Score { mut searcher, hist, mut todo, depth, mut scored, best } => {
                    let stop = searcher.stop_flag();
                    // Turns are scored in the order they were generated (the choice's noise depends on it).
                    while scored.len() < todo.len() && (scored.is_empty() || !stop.load(Ordering::Relaxed)) {
                        let t = todo[scored.len()].clone();
                        let s = searcher.score_turn(&self.pos, &hist, &t, depth);
                        scored.push((t, s));
                        if end.is_some_and(|e| Instant::now() >= e) && scored.len() < todo.len() {
                            self.phase = Phase::Score { searcher, hist, todo, depth, scored, best };
                            return false;
                        }
                    }
                    stop.store(false, Ordering::Relaxed);
                    todo.clear();
                    scored.sort_by_key(|a| std::cmp::Reverse(a.1));
                    let turn = self.pick(&scored, best);
                    self.phase = Phase::Done { searcher, turn };
                }
                done @ Phase::Done { .. } => {
                    self.phase = done;
                    return true;
                }
                Phase::Empty => unreachable!("a phase is always put back"),
            }
        }
    }

    /// The next phase once the full search is over: done, or the master's opening variety.
    fn after_search(&mut self, searcher: Searcher, r: SearchResult) -> Phase {
        let Some(best) = r.best else { return Phase::Done { searcher, turn: None } };
        let pos = &self.pos;
        let total = pos.count(pos.side_to_move()) + pos.count(pos.side_to_move().opponent());
        if self.level == Level::Master && total >= 2 * pos.variant().start_pieces() - 4 {
            // Opening variety without weakening: on the first turns, pick among turns that score as well.
            let hist = turn_history(pos, &self.history);
            let depth = r.depth.clamp(1, self.variety_depth);
            return Phase::Score {
                searcher,
                hist,
                todo: pos.legal_turns(),
                depth,
                scored: Vec::new(),
                best: Some(best),
            };
        }
        Phase::Done { searcher, turn: Some(best) }
    }

    /// The choice among scored turns (best first): the noisy levels' pick, or the master's variety.
    fn pick(&mut self, scored: &[(Turn, i32)], best: Option<Turn>) -> Option<Turn> {
        if let Some(best) = best {
            let top = scored.first().map_or(0, |a| a.1);
            let close: Vec<&(Turn, i32)> = scored.iter().filter(|a| a.1 >= top - 5).collect();
            if close.len() > 1 && close.iter().any(|a| a.0 == best) {
                return Some(close[self.rng.random_range(0..close.len())].0.clone());
            }
            return Some(best);
        }
        let spec = self.level.spec();
        let rng = &mut self.rng;
        let mut choice = scored
            .iter()
            .max_by_key(|(_, s)| {
                // Noise shaped like a sum of uniforms (roughly normal), so big blunders stay rarer than small ones.
                let n: i32 = (0..3).map(|_| rng.random_range(-spec.noise..=spec.noise)).sum::<i32>() / 3;
                // A forced win or loss is seen even by a beginner only when it is immediate.
                s.saturating_add(n)
            })?
            .0
            .clone();
        if choice.len() > 1 && rng.random_bool(spec.relay_cut) {
            let keep = rng.random_range(1..choice.len());
            choice.steps.truncate(keep);
        }
        Some(choice)
    }

    /// The flag that stops the thinking at its next check (it then answers with what it has).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        match &self.phase {
            Phase::Search(s) => s.stop_flag(),
            Phase::Score { searcher, .. } | Phase::Done { searcher, .. } => searcher.stop_flag(),
            Phase::Empty => Arc::new(AtomicBool::new(true)),
        }
    }

    /// Whether the choice is made.
    pub fn is_done(&self) -> bool {
        matches!(self.phase, Phase::Done { .. })
    }

    /// Ends the thinking: the searcher (with what its table learnt) and the chosen turn (None while not done, or
    /// when there is no legal turn).
    pub fn finish(self) -> (Searcher, Option<Turn>) {
        match self.phase {
            Phase::Done { searcher, turn } => {
                // A book turn ends the thinking before any search could see (and clear) a stop request.
                searcher.stop_flag().store(false, Ordering::Relaxed);
                (searcher, turn)
            }
            Phase::Search(s) => (s.into_searcher(), None),
            Phase::Score { searcher, .. } => (searcher, None),
            Phase::Empty => (Searcher::placeholder(), None),
        }
    }
}

/// Hashes of the positions at the start of the game's turns since the last capture, oldest first, not counting
/// the current turn: what [`Searcher::search`] wants as `history`.
pub fn history_hashes(game: &Game) -> Vec<u64> {
    let starts = game.turn_starts();
    let quiet = game.turns_without_capture();
    let n = starts.len() - 1;
    starts[n - quiet.min(n)..n].iter().map(|p| p.hash()).collect()
}

/// A suggested turn for the side to move and its score (the player's hint), from a search of `movetime`.
pub fn hint(searcher: &mut Searcher, game: &Game, movetime: Duration) -> Option<(Turn, Score)> {
    let pos = *game.position();
    let history = history_hashes(game);
    let r = searcher.search(&pos, &history, Limits { movetime: Some(movetime), ..Limits::default() }, |_| {});
    let score = r.value();
    r.best.map(|b| (b, score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_level_plays_legal_turns() {
        let mut game = Game::new(Rules::default());
        let mut s = Searcher::new(1);
        for (i, level) in Level::ALL.iter().cycle().take(12).enumerate() {
            if game.is_over() {
                break;
            }
            let pos = *game.position();
            let cap = Limits { depth: Some(3), movetime: Some(Duration::from_millis(50)), ..Limits::default() };
            let t = level.choose(&mut s, &pos, &history_hashes(&game), i as u64, cap).expect("has a turn");
            game.play_turn(&t).expect("legal");
        }
    }

    /// Plays a few turns of a game and returns the positions and histories met.
    fn sample_positions() -> Vec<(Position, Vec<u64>)> {
        let mut game = Game::new(Rules::default());
        let mut out = Vec::new();
        let mut s = Searcher::new(1);
        for i in 0..8u64 {
            out.push((*game.position(), history_hashes(&game)));
            let pos = *game.position();
            let t = Level::Novice.choose(&mut s, &pos, &history_hashes(&game), i, Limits::default()).unwrap();
            game.play_turn(&t).unwrap();
        }
        out
    }

    #[test]
    fn sliced_thinking_chooses_as_one_go() {
        for (pos, hist) in sample_positions() {
            for level in [Level::Beginner, Level::Novice, Level::Intermediate] {
                for seed in 0..3 {
                    let once = level.choose(&mut Searcher::new(1), &pos, &hist, seed, Limits::default());
                    let mut thinking = Thinking::new(level, Searcher::new(1), &pos, &hist, seed, Limits::default());
                    // A zero slice scores one turn per call: the page gets a frame between any two turns' searches.
                    let mut calls = 0;
                    while !thinking.run(Some(Duration::ZERO), &mut |_| {}) {
                        calls += 1;
                    }
                    assert_eq!(calls, pos.legal_turns().len() - 1, "{level:?} at {}", pos.to_fen());
                    assert_eq!(thinking.finish().1, once, "{level:?} seed {seed} at {}", pos.to_fen());
                }
            }
        }
    }

    #[test]
    fn sliced_full_search_finishes_with_a_legal_turn() {
        for (pos, hist) in sample_positions().into_iter().step_by(3) {
            for level in [Level::Advanced, Level::Master] {
                let cap = Limits { depth: Some(4), ..Limits::default() };
                // The search itself, not the opening book's answer.
                let mut searcher = Searcher::new(1);
                searcher.configure("nobook").unwrap();
                let mut thinking = Thinking::new(level, searcher, &pos, &hist, 7, cap).with_variety_depth(2);
                let mut calls = 0;
                let mut depths = Vec::new();
                let t0 = Instant::now();
                while !thinking.run(Some(Duration::from_micros(200)), &mut |i| depths.push(i.depth)) {
                    calls += 1;
                    assert!(calls < 1_000_000, "the search ends");
                }
                let spent = t0.elapsed();
                let turn = thinking.finish().1.expect("a turn");
                assert!(pos.legal_turns().contains(&turn), "{turn} at {}", pos.to_fen());
                // The level's own time budget may end it before the depth cap (on a loaded machine even before the
                // first iteration, and then only once that budget is spent); each iteration is reported once.
                let budget = level.limits(cap).movetime.expect("full-strength levels have a time budget");
                assert!(!depths.is_empty() || spent >= budget, "no iteration in {spent:?} at {}", pos.to_fen());
                assert!(depths.len() <= 4, "{depths:?} at {}", pos.to_fen());
                assert_eq!(depths, (1..=depths.len() as u32).collect::<Vec<_>>(), "at {}", pos.to_fen());
            }
        }
    }

    #[test]
    fn master_opens_from_the_book_without_searching() {
        let pos = Position::start(&Rules::default());
        let moves = crate::book::OpeningBook::builtin().moves(&pos).expect("the start is in the book");
        let close: Vec<&Turn> =
            moves.iter().filter(|m| m.score >= moves[0].score - crate::book::PLAY_MARGIN).map(|m| &m.turn).collect();
        for seed in 0..10 {
            let mut searcher = Searcher::new(1);
            let turn = Level::Master.choose(&mut searcher, &pos, &[], seed, Limits::default()).unwrap();
            assert!(close.contains(&&turn), "{turn} is not among the book's best");
            assert_eq!(searcher.nodes_searched(), 0);
        }
        // Without the book Master searches; the other levels never use it. (The nodes tell, not the iterations
        // reported: on a loaded machine the level's time budget can end the search before its first iteration.)
        let mut searcher = Searcher::new(1);
        searcher.configure("nobook").unwrap();
        Level::Master.choose(&mut searcher, &pos, &[], 1, Limits::depth(2)).unwrap();
        assert!(searcher.nodes_searched() > 0);
        let mut searcher = Searcher::new(1);
        Level::Advanced.choose(&mut searcher, &pos, &[], 1, Limits::depth(2)).unwrap();
        assert!(searcher.nodes_searched() > 0);
    }

    #[test]
    fn stopped_thinking_still_answers() {
        let pos = Position::start(&Rules::default());
        for level in Level::ALL {
            let mut thinking = Thinking::new(level, Searcher::new(1), &pos, &[], 1, Limits::default());
            thinking.stop_flag().store(true, Ordering::Relaxed);
            while !thinking.run(Some(Duration::from_millis(1)), &mut |_| {}) {}
            let (searcher, turn) = thinking.finish();
            assert!(turn.is_some_and(|t| pos.legal_turns().contains(&t)), "{level:?}");
            assert!(!searcher.stop_flag().load(Ordering::Relaxed), "the stop is cleared for the next search");
        }
    }

    #[test]
    fn draw_offers_are_judged() {
        let mut s = Searcher::new(1);
        // White to move, two pieces against one lone black piece far away: White is winning.
        let p = Position::from_fen("8B/9/9/9/WW7 w").unwrap();
        assert!(!Level::Advanced.accepts_draw(&mut s, &p, &[], Side::White));
        assert!(Level::Advanced.accepts_draw(&mut s, &p, &[], Side::Black));
    }

    #[test]
    fn levels_number_round_trip() {
        for l in Level::ALL {
            assert_eq!(Level::from_number(l.number()), Some(l));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(6), None);
    }
}
