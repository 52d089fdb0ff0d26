//! The search's options: every tuning knob and evaluation term of a [`super::Searcher`], with its default, and
//! the comma-separated option strings (`max,spend,qs-turns=2,capgain=102,…`) that the levels, the protocol and the
//! strength tools describe players with. Loading the files some options name (an opening book, a network) is
//! done here too, so that a parsed set of options is complete; what an option asks of the searcher itself (its
//! oracle, its table, its threads) is handed back to it as a [`SearcherOption`].

use super::eval::{EvalKind, MOBILITY_WEIGHT, STRONG_WEIGHT};
use std::sync::Arc;

#[cfg(doc)]
use super::eval::evaluate;
#[cfg(doc)]
use crate::position::Position;

/// Default penalty per piece the opponent threatens at a quiet leaf. Measured at 60 ms a turn, 40 games each:
/// 80 scored 70% against none from purely random openings, and 48.8% (+13 =13 -14) from sound random openings;
/// kept because it never measured worse, but not proven better.
pub(super) const THREAT_WEIGHT: i32 = 80;
/// Quiescence stops following forced captures after this many turns and evaluates statically.
pub(super) const QS_MAX_TURNS: u32 = 6;
/// Singular extensions ([`SearchParams::singular`]) test turn starts of at least this depth, unless `se-depth`
/// says otherwise (4 and 8 measured worse at 300,000 nodes a turn, STRENGTH.md).
pub(super) const SE_DEPTH: i32 = 6;
/// Out of how much an update's weight counts ([`SearchParams::corr_rate`]).
pub(super) const CORR_RATE: i32 = 32;
/// The most weight one update of correction history has (a search of depth 15 or more): `corr-rate` is at least
/// this, so that an update never moves an entry past the error.
pub(super) const CORR_MAX_WEIGHT: i32 = 16;
/// The least depth of a search whose score correction history learns from ([`SearchParams::corr_depth`]).
pub(super) const CORR_DEPTH: i32 = 1;
/// The most pieces of a position the quiescence search asks the oracle about (option `tb-qs-pieces`).
pub(super) const TB_QS_PIECES: u32 = 6;
/// The most threads a search uses ([`super::Searcher::threads`]).
pub const MAX_THREADS: usize = 64;

/// What an option asks of the searcher itself rather than of its [`SearchParams`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearcherOption {
    /// `tb` (true): the shared 9 × 5 tablebase as oracle; `notb` (false): no oracle.
    Tablebase(bool),
    /// `tt-single`: one transposition table entry a bucket, as before the buckets (for strength tests).
    SingleSlot(bool),
    /// `threads=N`: the threads of a search (Lazy SMP).
    Threads(usize),
}

/// Every option of a search, with the full-strength searcher's defaults ([`SearchParams::default`], the option
/// `max`). Options that are off by default are the experiments the strength tools measure.
#[derive(Clone)]
pub struct SearchParams {
    /// Experimental (option `caphist`): captures of equal size ordered by their history.
    pub cap_hist: bool,
    /// Experimental (option `hmalus`): a cut lowers the history of the quiet steps tried before it, and
    /// history moves by gravity (a bonus shrinks as the entry nears its bound), as in Stockfish.
    pub hist_malus: bool,
    /// Experimental (option `hage=N`): each new search starts with the history shifted right by N bits, so
    /// that what was learnt in an earlier phase of the game fades instead of saturating at its bound.
    pub hist_age: u32,
    /// Experimental: whether quiescence uses the static score as a floor where the side to move must capture.
    pub qs_floor: bool,
    /// How much worse than equal a draw by rule is for the side the search plays for (hundredths of a piece).
    pub contempt: i32,
    /// Experimental: quiescence turn limit.
    pub qs_max_turns: u32,
    /// Experimental: whether quiescence nodes use the transposition table.
    pub qs_table: bool,
    /// Experimental (option `progress=N`, 0 off): leaf scores shrink towards a draw from N turns without a
    /// capture on (`Searcher::progress_scale`).
    pub progress_from: i32,
    /// Whether the quiescence leaves the table alone within a relay (mid-turn positions: they seldom
    /// transpose, and their probes, each a miss in memory, were much of its time; option `qs-relay-skip=0` turns
    /// it off).
    pub qs_relay_skip: bool,
    /// Forced captures past the quiescence's horizon (option `qs-single=N`, 0 off): where its turns of captures
    /// are spent and the side to move has a single capturing first step, that step is followed (up to N turns
    /// more) instead of scored by its size, so that the forced answer it leads to is seen.
    pub qs_single: u32,
    /// Experimental: late-move reductions of quiet steps.
    pub lmr: bool,
    /// Experimental (option `lmr-log=N`): late-move reductions that grow with depth and the step's place in the
    /// order, `ln(depth) · ln(place) · N / 100` turns (at most depth − 2), for quiet steps that are neither the
    /// table's nor a killer; 0: off.
    pub lmr_log: i32,
    /// Experimental (option `threat2=N`): at a quiet leaf, N hundredths of a piece against the opponent's second
    /// threat, disjoint from its largest ([`Position::double_threat`]).
    pub threat2_weight: i32,
    /// With `lmr-log`, how the reduction follows the node and the step (option `lmr-adj=N`, bits): 1, a turn
    /// less in a node searched with an open window (on the principal variation); 2, a turn more for a step
    /// that never caused a cut (history 0); 4, a turn more for a step whose ordering key is below 0 (with
    /// `conthist`, whose histories say it failed more than it cut) and a turn less for one whose key is above half
    /// the history's bound.
    pub lmr_adjust: i32,
    /// Experimental (option `threat-ext=T`): a quiet leaf where the opponent threatens to take T or more pieces
    /// with one capture is searched one turn deeper (at most twice on a path), to see whether the threat can be
    /// met, instead of being scored with the threat term; 0: off.
    pub threat_ext: i32,
    /// Penalty per piece the opponent threatens to take at a quiet leaf (0: off).
    pub threat_weight: i32,
    /// Which static evaluation scores the leaves.
    pub eval: EvalKind,
    /// Weight of [`Position::mobility`] in the full evaluation (hundredths of a piece per paika step).
    pub mobility_weight: i32,
    /// Penalty per piece of the side to move that the opponent could take ([`Position::exposed`]) at a quiet leaf.
    pub exposed_weight: i32,
    /// Weight of a piece on a strong point in the full evaluation beyond [`evaluate`]'s own (experimental:
    /// option `strong=N` sets the whole weight to N).
    pub strong_extra: i32,
    /// Extra mobility weight as the board empties (experimental, option `mobend=N`): up to N more hundredths of a
    /// piece per paika step, in proportion to the pieces captured so far.
    pub mobility_endgame: i32,
    /// Experimental trade-down term (options `lead=W`, `lead-from=T`): with at most T pieces on the board, W
    /// hundredths of a piece per piece of material lead for every piece fewer than T, on top of [`evaluate`]'s.
    pub lead_weight: i32,
    /// The piece count from which [`SearchParams::lead_weight`] counts.
    pub lead_from: i32,
    /// Experimental (option `immobile=N`): N hundredths of a piece against each piece of the side to move that
    /// cannot step anywhere, and for each such piece of the opponent ([`Position::immobile`]).
    pub immobile_weight: i32,
    /// `centre`: hundredths of a piece per step of centrality (up to 2 across the files, 2 across the ranks) of
    /// each own piece, less the opponent's.
    pub centre_weight: i32,
    /// `lmp`: late-move pruning. At a quiet turn start of depth 1 or 2 searched with a null window, paika steps
    /// after the first `lmp × depth` tried are not searched (0: off).
    pub late_moves: i32,
    /// The deepest turn start where late-move pruning applies (option `lmp-depth=N`, default 2).
    pub late_move_depth: i32,
    /// `delta`: delta pruning in the quiescence, with this margin in hundredths of a piece (0: off).
    pub delta_margin: i32,
    /// Whether a search stopped by its time or node budget answers with the best root turn of its unfinished
    /// iteration (and so keeps iterating until the budget is spent).
    pub use_partial: bool,
    /// With [`SearchParams::use_partial`]: whether an iteration cut while it searches again, with a wider window,
    /// a root turn that failed high answers that turn (on by default; `keep-fh=0` answers as before, with the
    /// last completed iteration's turn).
    pub(crate) keep_fail_high: bool,
    /// Where quiescence stops at a position whose side to move must capture, the static score gains this much
    /// per piece of the largest single capture available (0: the static score alone).
    pub capture_gain: i32,
    /// `threat-relay`: the threat term counts the opponent's whole turn, the relay after its first capture
    /// included ([`Position::threat_relay`]), instead of the first capture alone.
    pub threat_relay: bool,
    /// `capgain-relay`: the capture gain at the quiescence's horizon counts the whole turn, relay included
    /// ([`Position::best_capture_relay`]), instead of the first capture alone.
    pub capgain_relay: bool,
    /// Whether quiet steps that refuted a sibling (killers) are tried early.
    pub use_killers: bool,
    /// Master opens with the opening book's turns ([`crate::book`]).
    pub(crate) use_book: bool,
    /// The weights of `eval=tuned` (option `tuned=w0:w1:…`; default [`crate::tuned::TUNED_WEIGHTS`]).
    pub(crate) tuned_weights: [i32; crate::tuned::FEATURES],
    /// The book it opens from when not the built-in one (option `bookfile=PATH`, for testing a new book).
    pub(crate) book: Option<Arc<crate::book::OpeningBook>>,
    /// Null-move pruning: in a quiet position (no capture for the side to move, enough pieces on both sides)
    /// whose static score is at least beta, a pass searched `null_reduction` turns shallower that still fails
    /// high ends the node.
    pub null_move: bool,
    /// Extra turns of reduction of the null-move search (beyond the pass itself).
    pub null_reduction: i32,
    /// Futility margin per turn of depth at depth 1 and 2 in quiet positions (0: off): a position whose static
    /// score is below alpha by more than the margin is not searched further.
    pub futility: i32,
    /// Reverse futility margin per turn of depth (0: off): at a null-window turn start of depth up to
    /// `rfp_depth` where the side to move has no capture, a score that stays at or above beta by the margin
    /// times the depth ends the node (the beta side of `futility`, below the depths null moves serve).
    pub rfp: i32,
    /// The greatest depth reverse futility prunes at.
    pub rfp_depth: i32,
    /// Whether reverse futility asks the quiet leaf's whole score (threat and network included) instead of the
    /// hand-made terms alone.
    pub rfp_quiet: bool,
    /// ProbCut margin (0: off): at a null-window turn start of depth `PROBCUT_DEPTH` or more, a search of the
    /// node `PROBCUT_REDUCTION` turns shallower that holds beta plus the margin ends the node. Unlike null moves
    /// it also serves turn starts that must capture, where the exchanges of the opening are.
    pub probcut: i32,
    /// Whether a turn start with a single legal step is searched one turn deeper (the analogue of a check
    /// extension: a forced reply costs no depth).
    pub single_reply: bool,
    /// `iir`: internal iterative reduction. A turn start of depth 4 or more that the table knows nothing about
    /// (no step to try first) is searched a turn shallower: its ordering is poor, and what it stores orders the
    /// next iteration's search of it.
    pub iir: bool,
    /// Experimental (option `space=N`): N hundredths of a piece per empty point the side to move's pieces can
    /// step to, less those the opponent's can (mobility counts steps; this counts the points they reach).
    pub space_weight: i32,
    /// Hundredths of a piece per piece on the board, for the side the search plays for (option `keep`): a
    /// stronger player keeps the game complicated, trading down into a drawn ending only when it gains.
    pub keep_weight: i32,
    /// Half-width of the first aspiration window around the previous iteration's score (option `asp=N`).
    pub aspiration: i32,
    /// Experimental (option `cmove`): a paika step that refuted the opponent's last step is tried after the
    /// killers wherever that step is played again (the countermove heuristic).
    pub use_countermoves: bool,
    /// Option `relay-order=N` (full strength and Master: 2): captures are ordered by what the whole turn can take
    /// with them, the best relay after each included, instead of by the step's own run: 1 in the main search, 2
    /// in the quiescence too (0: by the run, the searcher's default, which the levels below Master keep).
    pub relay_order: i32,
    /// Option `swindle=N` (0: off): in a position the oracle knows to be drawn, play the drawing turn that leaves
    /// the opponent the most replies that lose, a reply that loses in n turns counting fully from n = N on and
    /// less below (a short loss is one the opponent's search sees). The search alone picks any drawing turn,
    /// since they all score 0, and a fallible opponent is then seldom given the chance to go wrong.
    pub swindle: i32,
    /// Option `tb-contempt`: a position the oracle knows to be drawn is scored as a draw by rule, with contempt,
    /// instead of 0, so that the search prefers a level position with play left to a trade into a dead draw.
    pub tb_contempt: bool,
    /// Option `tb-pieces=N`: the oracle is asked only about positions of at most N pieces (to measure what the
    /// compact seven-piece table, dearer to probe than the smaller ones, brings).
    pub tb_pieces: u32,
    /// Option `tb-qs-pieces=N`: the same limit in the quiescence search, whose nodes are most of a search's and
    /// where a probe of the compact seven-piece table costs more than the evaluation it replaces.
    pub tb_qs_pieces: u32,
    /// Option `se=N` (0: off): singular extensions. At a turn start of depth ≥ [`SearchParams::se_depth`] whose
    /// table step holds a lower bound from nearly as deep, the other first steps are searched at half the depth
    /// against the table's score less N hundredths of a piece per turn of depth; if none comes near it, the
    /// table's step is the only good one and is searched a turn deeper (and if one beats beta even so, the node
    /// cuts).
    pub singular: i32,
    /// Option `se-depth=N`: the least depth of a turn start that the singular test looks at.
    pub se_depth: i32,
    /// Option `se-neg`: when the singular test finds another first step as good but not beta, and the table's
    /// score beats beta, the table's step is searched a turn shallower (it is likely to cut, and others can too).
    pub se_neg: bool,
    /// Option `net` (the committed network) or `netfile=PATH`: a small network's correction added to the score of
    /// every quiet leaf ([`crate::eval_net`]).
    pub(crate) net: Option<Arc<crate::eval_net::Net>>,
    /// Experimental (option `conthist`, or `conthist=N`): paika steps are also ordered by a history kept for
    /// each point the opponent's last step ended on (continuation history, as in Stockfish): what answers a step
    /// there. With 2, also by one kept for each point the side's own last step ended on: what follows it up.
    /// 0: off.
    pub cont_hist: u8,
    /// Option `corr=N` (0: off): correction history, as in Stockfish. Where a quiet turn start's search ends
    /// with a score the quiet leaf's evaluation missed, the error is learnt in tables keyed by the side to move's
    /// pieces and by the opponent's; N percent of what they hold for a quiet leaf is added to its score.
    pub corr: i32,
    /// Option `corr-depth=N`: the least depth of a search whose score correction history learns from.
    pub corr_depth: i32,
    /// Option `corr-rate=N`: how fast an entry follows the errors, an update of a search of depth d moving it
    /// (d + 1) / N of the way (at most 16 / N).
    pub corr_rate: i32,
    /// Option `net-scale=P`: the network's correction counts P percent (100: as trained).
    pub net_scale: i32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            cap_hist: false,
            hist_malus: false,
            hist_age: 0,
            qs_floor: true,
            contempt: 20,
            qs_max_turns: QS_MAX_TURNS,
            qs_table: true,
            progress_from: 0,
            qs_relay_skip: true,
            qs_single: 0,
            lmr: false,
            lmr_log: 0,
            threat2_weight: 0,
            lmr_adjust: 0,
            threat_ext: 0,
            threat_weight: THREAT_WEIGHT,
            eval: EvalKind::Full,
            mobility_weight: MOBILITY_WEIGHT,
            exposed_weight: 0,
            strong_extra: 0,
            mobility_endgame: 0,
            lead_weight: 0,
            lead_from: 24,
            immobile_weight: 0,
            centre_weight: 0,
            late_moves: 0,
            late_move_depth: 2,
            delta_margin: 0,
            use_partial: false,
            keep_fail_high: true,
            capture_gain: 0,
            threat_relay: false,
            capgain_relay: false,
            use_killers: true,
            use_book: true,
            tuned_weights: crate::tuned::TUNED_WEIGHTS,
            book: None,
            null_move: false,
            null_reduction: 2,
            futility: 0,
            rfp: 0,
            rfp_depth: 3,
            rfp_quiet: false,
            probcut: 0,
            single_reply: false,
            iir: false,
            space_weight: 0,
            keep_weight: 0,
            aspiration: 40,
            use_countermoves: false,
            relay_order: 0,
            swindle: 0,
            tb_contempt: false,
            tb_pieces: crate::tablebase::MAX_PIECES,
            tb_qs_pieces: TB_QS_PIECES,
            singular: 0,
            se_depth: SE_DEPTH,
            se_neg: false,
            net: None,
            cont_hist: 0,
            corr: 0,
            corr_depth: CORR_DEPTH,
            corr_rate: CORR_RATE,
            net_scale: 100,
        }
    }
}

impl SearchParams {
    /// Changes search options from a comma-separated list, applied in order: `max` (full-strength defaults),
    /// `baseline` (the plain reference player), `noqs` (no quiescence), `tb`/`notb` (the shared 9 × 5 tablebase
    /// as oracle: the largest cached table, else 4 pieces built at first use), `lmr`/`nolmr`, `nokillers`, and
    /// `nmp` (null-move pruning), `ext1` (single-reply extension), `book`/`nobook` (Master's opening book),
    /// `bookfile=PATH` (open from that book file instead of the built-in one), `tuned=w0:w1:…` (`eval=tuned` with
    /// these weights, see [`crate::tuned::FEATURE_NAMES`]), and
    /// `name=value` for `qs-turns`, `threat`, `capgain`, `threat-relay`, `capgain-relay`, `relay-terms` (both),
    /// `spend` (use the whole time budget), `keep-fh` (with `spend`, on unless `keep-fh=0`: a cut search answers a root turn that failed high), `mob`, `mobend`, `exposed`, `strong`, `lead`, `lead-from`, `immobile`,
    /// `centre`, `lmp` (late-move pruning), `delta` (delta pruning margin), `contempt`, `qs-floor`, `qs-table`,
    /// `lmr`, `killers`, `nmp`, `nmp-r` (null-move reduction), `fut` (futility margin), `rfp`
    /// (reverse futility margin), `rfp-depth`, `rfp-quiet`, `pc` (ProbCut margin), `qs-single`, `ext1`, `iir` (internal
    /// iterative reduction), `caphist` (capture history among captures of one size), `hmalus` (history gravity
    /// and malus), `hage` (history aged at each search), `corr` (correction history), `corr-depth`, `corr-rate`, `threads` (Lazy SMP), `cmove` (countermoves), `conthist` (continuation history), `space`, `keep` (pieces kept on the board), `asp`
    /// (aspiration width), `lmr-log` (scaled late-move reductions), `lmr-adj` (their adjustments), `threat-ext`
    /// (threat extension), `threat2`, `lmp-depth`, `swindle` (see [`SearchParams::swindle`]), `tb-contempt`, `se` (singular extensions), `se-depth`, `se-neg`, `net`, `netfile=PATH`, `net-scale` (the network's weight, in percent) and `eval` (`full`, `plain` or `tuned`).
    /// `tb`/`notb`, `tt-single` and `threads` are the searcher's own: they are handed to `searcher` (see
    /// [`SearcherOption`]). Used by the SPRT tool, the tuner and the protocol, through
    /// [`super::Searcher::configure`]. An unknown name or a bad value is an error, and the options before it stay
    /// applied.
    pub fn apply(&mut self, spec: &str, mut searcher: impl FnMut(SearcherOption)) -> Result<(), String> {
        for item in spec.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, value) = item.split_once('=').map_or((item, None), |(n, v)| (n.trim(), Some(v.trim())));
            let number = || -> Result<i32, String> {
                value
                    .ok_or_else(|| format!("option {name:?} needs a value ({name}=N)"))?
                    .parse::<i32>()
                    .map_err(|_| format!("option {name:?}: {:?} is not a whole number", value.unwrap_or("")))
            };
            let flag = || -> Result<bool, String> { Ok(value.is_none() || number()? != 0) };
            match name {
                "max" => *self = SearchParams::default(),
                "baseline" => {
                    *self = SearchParams::default();
                    self.qs_max_turns = 0;
                    self.threat_weight = 0;
                    self.eval = EvalKind::Plain;
                    self.use_killers = false;
                    self.lmr = false;
                    self.null_move = false;
                    self.futility = 0;
                    self.rfp = 0;
                    self.probcut = 0;
                    self.qs_single = 0;
                    self.single_reply = false;
                    self.iir = false;
                    self.use_book = false;
                }
                "noqs" => self.qs_max_turns = 0,
                "se" => self.singular = number()?.max(0),
                "se-depth" => self.se_depth = number()?.max(2),
                "se-neg" => self.se_neg = flag()?,
                "tb" => searcher(SearcherOption::Tablebase(true)),
                "notb" => searcher(SearcherOption::Tablebase(false)),
                "book" => self.use_book = flag()?,
                "nobook" => self.use_book = false,
                "tuned" => {
                    let text = value.ok_or("option \"tuned\" needs weights (tuned=w0:w1:…)")?;
                    let weights: Vec<i32> = text
                        .split(':')
                        .map(|w| w.trim().parse().map_err(|_| format!("option \"tuned\": {w:?} is not a whole number")))
                        .collect::<Result<_, _>>()?;
                    // The piece-square classes came after the first twelve weights: a shorter list leaves them 0.
                    let n = crate::tuned::FEATURES;
                    if weights.len() < n - crate::tuned::PST_CLASSES || weights.len() > n {
                        return Err(format!(
                            "option \"tuned\" has {} weights, not {} (or {} without the piece-square classes)",
                            weights.len(),
                            n,
                            n - crate::tuned::PST_CLASSES
                        ));
                    }
                    self.tuned_weights = [0; crate::tuned::FEATURES];
                    self.tuned_weights[..weights.len()].copy_from_slice(&weights);
                    self.threat_weight = 0;
                    self.exposed_weight = 0;
                    self.mobility_weight = 0;
                    self.eval = EvalKind::Tuned;
                }
                "bookfile" => {
                    let path = value.ok_or("option \"bookfile\" needs a file (bookfile=PATH)")?;
                    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read book {path}: {e}"))?;
                    let book = crate::book::OpeningBook::parse(&text).map_err(|e| format!("{path}: {e}"))?;
                    self.book = Some(Arc::new(book));
                    self.use_book = true;
                }
                "qs-turns" => self.qs_max_turns = number()?.max(0) as u32,
                "threat" => self.threat_weight = number()?,
                "capgain" => self.capture_gain = number()?,
                "threat-relay" => self.threat_relay = flag()?,
                "capgain-relay" => self.capgain_relay = flag()?,
                "relay-terms" => {
                    self.threat_relay = flag()?;
                    self.capgain_relay = self.threat_relay;
                }
                "spend" => self.use_partial = flag()?,
                "keep-fh" => self.keep_fail_high = flag()?,
                "mob" => self.mobility_weight = number()?,
                "exposed" => self.exposed_weight = number()?,
                "strong" => self.strong_extra = number()? - STRONG_WEIGHT,
                "mobend" => self.mobility_endgame = number()?,
                "lead" => self.lead_weight = number()?,
                "lead-from" => self.lead_from = number()?,
                "immobile" => self.immobile_weight = number()?,
                "centre" => self.centre_weight = number()?,
                "space" => self.space_weight = number()?,
                "keep" => self.keep_weight = number()?,
                "lmr-log" => self.lmr_log = number()?.max(0),
                "threat2" => self.threat2_weight = number()?,
                "lmr-adj" => self.lmr_adjust = number()?.max(0),
                "threat-ext" => self.threat_ext = number()?.max(0),
                "asp" => self.aspiration = number()?.max(1),
                "cmove" => self.use_countermoves = flag()?,
                "conthist" => self.cont_hist = if value.is_none() { 1 } else { number()?.clamp(0, 2) as u8 },
                "relay-order" => self.relay_order = number()?.clamp(0, 2),
                "swindle" => self.swindle = number()?.clamp(0, 100),
                "tb-contempt" => self.tb_contempt = flag()?,
                "tb-pieces" => self.tb_pieces = number()?.max(0) as u32,
                "tb-qs-pieces" => self.tb_qs_pieces = number()?.max(0) as u32,
                "net" => self.net = flag()?.then(|| crate::eval_net::Net::builtin().clone()),
                "netfile" => {
                    let path = value.ok_or("option \"netfile\" needs a file (netfile=PATH)")?;
                    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read network {path}: {e}"))?;
                    self.net = Some(Arc::new(crate::eval_net::Net::parse(&text).map_err(|e| format!("{path}: {e}"))?));
                }
                "net-scale" => self.net_scale = number()?.clamp(0, 400),
                "lmp" => self.late_moves = number()?.max(0),
                "lmp-depth" => self.late_move_depth = number()?.max(1),
                "delta" => self.delta_margin = number()?.max(0),
                "contempt" => self.contempt = number()?,
                "qs-floor" => self.qs_floor = flag()?,
                "qs-table" => self.qs_table = flag()?,
                "qs-relay-skip" => self.qs_relay_skip = flag()?,
                "qs-single" => self.qs_single = number()?.clamp(0, 8) as u32,
                "progress" => self.progress_from = number()?.max(0),
                "tt-single" => searcher(SearcherOption::SingleSlot(flag()?)),
                "lmr" => self.lmr = flag()?,
                "nolmr" => self.lmr = false,
                "killers" => self.use_killers = flag()?,
                "nokillers" => self.use_killers = false,
                "nmp" => self.null_move = flag()?,
                "nmp-r" => self.null_reduction = number()?.clamp(0, 6),
                "fut" => self.futility = number()?.max(0),
                "rfp" => self.rfp = number()?.max(0),
                "rfp-depth" => self.rfp_depth = number()?.clamp(1, 8),
                "rfp-quiet" => self.rfp_quiet = flag()?,
                "pc" => self.probcut = number()?.max(0),
                "ext1" => self.single_reply = flag()?,
                "iir" => self.iir = flag()?,
                "caphist" => self.cap_hist = flag()?,
                "hmalus" => self.hist_malus = flag()?,
                "hage" => self.hist_age = number()?.clamp(0, 31) as u32,
                "corr" => self.corr = number()?.clamp(0, 400),
                "corr-depth" => self.corr_depth = number()?.clamp(1, 64),
                "corr-rate" => self.corr_rate = number()?.clamp(CORR_MAX_WEIGHT, 4096),
                "threads" => searcher(SearcherOption::Threads(number()?.clamp(1, MAX_THREADS as i32) as usize)),
                "eval" => {
                    self.eval = match value {
                        Some("full") => EvalKind::Full,
                        Some("plain") => EvalKind::Plain,
                        Some("tuned") => {
                            self.threat_weight = 0;
                            self.exposed_weight = 0;
                            self.mobility_weight = 0;
                            self.tuned_weights = crate::tuned::TUNED_WEIGHTS;
                            EvalKind::Tuned
                        }
                        _ => return Err("option \"eval\" is eval=full, eval=plain or eval=tuned".to_string()),
                    }
                }
                _ => return Err(format!("unknown search option {name:?}")),
            }
        }
        Ok(())
    }
}
