//! Puzzles: positions with one clearly best answer (made by `fanorona-tools`' `puzzle_gen` from self-play games
//! and the tablebase), checked turn by turn, with an Elo-style puzzle rating for the player.
//!
//! # File format
//!
//! One puzzle a line; blank lines and lines starting with `#` are ignored. Five fields separated by `|`:
//!
//! ```text
//! kind | rating | FEN | solution | theme
//! win-in-2 | 1180 | 9/9/2B6/9/W3W4 w | a1-b2 | endgame
//! ```
//!
//! - `kind`: `win-in-N` (N ≥ 2 of the solver's turns, from the tablebase), `biggest-relay`, `save-your-pieces` or
//!   `approach-or-withdrawal` (see [`Kind`]).
//! - `rating`: the puzzle's rating (a whole number, Elo-like).
//! - `FEN`: the position, solver to move (the board follows from the FEN).
//! - `solution`: turns in notation separated by `;`, the solver's turns at even indices (0, 2, …) and the
//!   opponent's fixed replies between them; it ends with a solver turn.
//! - `theme`: one word for the game to translate (`endgame`, `relay`, `defence`, `capture-choice`).
//!
//! Every solver turn is unique: for `win-in-N` it is the only turn that still wins (by the tablebase) and the
//! replies are the tablebase's best defence; for the other kinds a multi-PV search (depth [`VERIFY_DEPTH`])
//! puts it first by at least [`MARGIN`] over the second best turn, and the kind's own property holds (the most
//! pieces, the only safe turn, a capture whose other kind is worse).

use crate::notation::FenError;
use crate::position::Position;
use crate::review::biggest_capture;
use crate::search::{Limits, Searcher};
use crate::tablebase::{Tablebase, TbValue};
use crate::turns::{IllegalTurn, Turn};
use std::fmt;
use std::str::FromStr;

/// The puzzles shipped with the engine (`crates/engine/data/puzzles.txt`).
pub const BUILTIN: &str = include_str!("../data/puzzles.txt");

/// Depth of the multi-PV search that proves a tactical puzzle's answer unique.
pub const VERIFY_DEPTH: u32 = 4;
/// How much better than the second best turn (hundredths of a piece) a tactical answer must score.
pub const MARGIN: i32 = 100;

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Win in this many of the solver's turns (≥ 2) against the best defence, from the tablebase.
    WinIn(u32),
    /// Find the turn that captures the most pieces (a long relay).
    BiggestRelay,
    /// The opponent threatens a capture: find the only turn that loses no piece.
    SaveYourPieces,
    /// A capture can be made by approach or by withdrawal; only one of them is right.
    ApproachOrWithdrawal,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::WinIn(n) => write!(f, "win-in-{n}"),
            Kind::BiggestRelay => f.write_str("biggest-relay"),
            Kind::SaveYourPieces => f.write_str("save-your-pieces"),
            Kind::ApproachOrWithdrawal => f.write_str("approach-or-withdrawal"),
        }
    }
}

impl FromStr for Kind {
    type Err = ParseErrorKind;

    fn from_str(s: &str) -> Result<Kind, ParseErrorKind> {
        match s {
            "biggest-relay" => Ok(Kind::BiggestRelay),
            "save-your-pieces" => Ok(Kind::SaveYourPieces),
            "approach-or-withdrawal" => Ok(Kind::ApproachOrWithdrawal),
            _ => match s.strip_prefix("win-in-").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) if n >= 2 => Ok(Kind::WinIn(n)),
                _ => Err(ParseErrorKind::Kind(s.to_string())),
            },
        }
    }
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// What it asks.
    pub kind: Kind,
    /// Its rating (Elo-like; see [`update`]).
    pub rating: u32,
    /// The position, solver to move.
    pub position: Position,
    /// Solver turns at even indices, the opponent's replies at odd ones; ends with a solver turn.
    pub solution: Vec<Turn>,
    /// A one-word theme for the game to translate.
    pub theme: String,
}

/// Why a line of a puzzle file is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Not five `|`-separated fields (the count found).
    Fields(usize),
    /// Unknown kind.
    Kind(String),
    /// The rating is not a whole number.
    Rating(String),
    /// The FEN is invalid.
    Fen(FenError),
    /// Turn `index` (0-based) of the solution is not notation.
    Turn {
        /// Index in the solution.
        index: usize,
        /// The text.
        text: String,
    },
    /// Turn `index` is not legal where it is played.
    Illegal {
        /// Index in the solution.
        index: usize,
        /// Why.
        error: IllegalTurn,
    },
    /// The solution is empty or ends with an opponent's reply.
    SolutionLength(usize),
    /// The theme is empty.
    Theme,
}

/// A parse error with its line number (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Fields(n) => write!(f, "expected 5 fields separated by '|', found {n}"),
            ParseErrorKind::Kind(k) => write!(
                f,
                "unknown kind {k:?} (win-in-N with N >= 2, biggest-relay, save-your-pieces, approach-or-withdrawal)"
            ),
            ParseErrorKind::Rating(r) => write!(f, "rating {r:?} is not a whole number"),
            ParseErrorKind::Fen(e) => write!(f, "bad FEN: {e}"),
            ParseErrorKind::Turn { index, text } => write!(f, "solution turn {} ({text:?}) is not notation", index + 1),
            ParseErrorKind::Illegal { index, error } => write!(f, "solution turn {} is illegal: {error}", index + 1),
            ParseErrorKind::SolutionLength(n) => {
                write!(f, "the solution must have an odd number of turns (solver first and last), found {n}")
            }
            ParseErrorKind::Theme => write!(f, "empty theme"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for ParseError {}

impl FromStr for Puzzle {
    type Err = ParseErrorKind;

    /// Parses one puzzle line (see the [module documentation](self)).
    fn from_str(line: &str) -> Result<Puzzle, ParseErrorKind> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        if fields.len() != 5 {
            return Err(ParseErrorKind::Fields(fields.len()));
        }
        let kind: Kind = fields[0].parse()?;
        let rating = fields[1].parse::<u32>().map_err(|_| ParseErrorKind::Rating(fields[1].to_string()))?;
        let position = Position::from_fen(fields[2]).map_err(ParseErrorKind::Fen)?;
        let mut solution = Vec::new();
        let mut p = position;
        for (index, text) in fields[3].split(';').map(str::trim).enumerate() {
            let turn: Turn = text.parse().map_err(|_| ParseErrorKind::Turn { index, text: text.to_string() })?;
            p.play_turn(&turn).map_err(|error| ParseErrorKind::Illegal { index, error })?;
            solution.push(turn);
        }
        if solution.len().is_multiple_of(2) {
            return Err(ParseErrorKind::SolutionLength(solution.len()));
        }
        if fields[4].is_empty() {
            return Err(ParseErrorKind::Theme);
        }
        Ok(Puzzle { kind, rating, position, solution, theme: fields[4].to_string() })
    }
}

impl fmt::Display for Puzzle {
    /// The puzzle's line in the file format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let turns: Vec<String> = self.solution.iter().map(Turn::to_string).collect();
        write!(
            f,
            "{} | {} | {} | {} | {}",
            self.kind,
            self.rating,
            self.position.to_fen(),
            turns.join("; "),
            self.theme
        )
    }
}

/// Parses a whole puzzle file; the first bad line is the error.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| l.parse().map_err(|kind| ParseError { line: i + 1, kind }))
        .collect()
}

/// The shipped puzzles (empty if the shipped file were ever broken; a test makes sure it is not).
pub fn builtin() -> Vec<Puzzle> {
    parse(BUILTIN).unwrap_or_default()
}

/// The answer to a solver's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Right; the opponent replies with `reply` and the next solver turn is at `step_index + 2`.
    Correct {
        /// The opponent's reply, to play on the board.
        reply: Turn,
    },
    /// Wrong, and why.
    Wrong {
        /// Why it is wrong.
        why: Miss,
    },
    /// Right, and the puzzle is solved.
    Solved,
}

/// Why an answer is wrong, as data for the game to put into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// `step_index` is not a solver turn of this puzzle.
    NoSuchStep,
    /// Not a legal turn in the position.
    Illegal,
    /// It captures `took` pieces where `most` could be taken.
    CapturesFewer {
        /// Pieces the answer takes.
        took: u32,
        /// Pieces the best turn takes.
        most: u32,
    },
    /// After it the opponent can take this many pieces in one turn.
    LosesPieces {
        /// The opponent's biggest capture.
        pieces: u32,
    },
    /// The right capturing step, but approach instead of withdrawal or the other way round.
    WrongCaptureKind,
    /// A legal turn that is not the solution (for a win, one that does not win as fast or not at all).
    NotBest,
}

/// Pieces the side to move of `before` took to reach `after`.
pub fn taken(before: &Position, after: &Position) -> u32 {
    let opp = before.side_to_move().opponent();
    before.count(opp).saturating_sub(after.count(opp))
}

impl Puzzle {
    /// The position before solution turn `step_index`, or None past the end.
    pub fn position_at(&self, step_index: usize) -> Option<Position> {
        let mut p = self.position;
        for t in self.solution.get(..step_index)? {
            p.play_turn(t).ok()?;
        }
        Some(p)
    }

    /// Number of turns the solver has to find.
    pub fn solver_turns(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// Checks the solver's `turn` at solution index `step_index` (0, 2, 4, …).
    pub fn check(&self, step_index: usize, turn: &Turn) -> Check {
        let Some(pos) = self.position_at(step_index).filter(|_| step_index.is_multiple_of(2)) else {
            return Check::Wrong { why: Miss::NoSuchStep };
        };
        let Some(right) = self.solution.get(step_index) else { return Check::Wrong { why: Miss::NoSuchStep } };
        if turn == right {
            return match self.solution.get(step_index + 1) {
                Some(reply) => Check::Correct { reply: reply.clone() },
                None => Check::Solved,
            };
        }
        let mut after = pos;
        if after.play_turn(turn).is_err() {
            return Check::Wrong { why: Miss::Illegal };
        }
        let mut after_right = pos;
        let _ = after_right.play_turn(right);
        let why = match self.kind {
            Kind::BiggestRelay => Miss::CapturesFewer { took: taken(&pos, &after), most: taken(&pos, &after_right) },
            Kind::SaveYourPieces if biggest_capture(&after) > 0 => {
                Miss::LosesPieces { pieces: biggest_capture(&after) }
            }
            Kind::ApproachOrWithdrawal
                if turn
                    .steps
                    .first()
                    .zip(right.steps.first())
                    .is_some_and(|(a, b)| (a.from, a.to) == (b.from, b.to) && a.kind != b.kind) =>
            {
                Miss::WrongCaptureKind
            }
            _ => Miss::NotBest,
        };
        Check::Wrong { why }
    }
}

/// A player's puzzle rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (Elo-like; new players start at 1200).
    pub value: f32,
    /// Puzzles attempted so far.
    pub attempts: u32,
}

impl Default for Rating {
    fn default() -> Self {
        Rating { value: 1200.0, attempts: 0 }
    }
}

/// The player's rating after an attempt at a puzzle rated `puzzle_rating`: Elo with the expected score
/// `1 / (1 + 10^((puzzle − player) / 400))` and a factor K that starts at 60 and falls by 2 per attempt to 20, so
/// that a new player's rating settles quickly and an established one moves slowly.
pub fn update(player: Rating, puzzle_rating: f32, solved: bool) -> Rating {
    let expected = 1.0 / (1.0 + 10f32.powf((puzzle_rating - player.value) / 400.0));
    let k = (60.0 - 2.0 * player.attempts as f32).max(20.0);
    let score = if solved { 1.0 } else { 0.0 };
    Rating { value: (player.value + k * (score - expected)).max(100.0), attempts: player.attempts.saturating_add(1) }
}

/// The searcher that makes and confirms the tactics: the full search with a material evaluation (no mobility
/// term). A tactic's point is material (the biggest relay, the one turn that saves the pieces), and a positional
/// term would blur the margin by which its answer must stand out; the playing engine's mobility term came after
/// the puzzles and would fail 31 of them on margin alone.
pub fn puzzle_searcher(tt_megabytes: usize) -> Searcher {
    let mut s = Searcher::new(tt_megabytes);
    s.configure("mob=0").expect("a valid option");
    s
}

/// Whether the engine, searching `depth` turns with two lines, ranks the puzzle's first solver turn first by at
/// least `margin` (tactical kinds only; `win-in-N` puzzles are checked with [`verify_win`]).
pub fn engine_agrees(puzzle: &Puzzle, depth: u32, margin: i32) -> bool {
    let mut s = puzzle_searcher(4);
    let r = s.search(&puzzle.position, &[], Limits::depth(depth).with_multipv(2), |_| {});
    match (r.lines.first(), r.lines.get(1)) {
        (Some(a), Some(b)) => a.pv[0] == puzzle.solution[0] && a.score - b.score >= margin,
        _ => false,
    }
}

/// Whether a `win-in-N` puzzle is right by the tablebase: every solver turn is the only winning turn, it wins in
/// exactly the announced number of turns, and every reply is the table's best defence.
pub fn verify_win(puzzle: &Puzzle, tb: &Tablebase) -> bool {
    let Kind::WinIn(n) = puzzle.kind else { return false };
    if puzzle.solution.len() != 2 * n as usize - 1 || tb.probe(&puzzle.position) != Some(TbValue::Win(2 * n - 1)) {
        return false;
    }
    let mut p = puzzle.position;
    for (i, t) in puzzle.solution.iter().enumerate() {
        if i.is_multiple_of(2) {
            if unique_winning_turn(tb, &p).as_ref() != Some(t) {
                return false;
            }
        } else if tb.best_turn(&p).map(|b| b.0).as_ref() != Some(t) {
            return false;
        }
        if p.play_turn(t).is_err() {
            return false;
        }
    }
    p.is_lost()
}

/// The only turn that keeps a win, if exactly one does.
pub fn unique_winning_turn(tb: &Tablebase, pos: &Position) -> Option<Turn> {
    let mut winning = None;
    for t in pos.legal_turns() {
        let mut c = *pos;
        c.play_turn(&t).ok()?;
        let wins = c.is_lost() || tb.probe(&c)?.after_turn().is_win();
        if wins {
            if winning.is_some() {
                return None;
            }
            winning = Some(t);
        }
    }
    winning
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Variant;

    #[test]
    fn the_shipped_file_parses_and_has_every_kind() {
        let all = parse(BUILTIN).unwrap();
        assert!(all.len() >= 300, "{} puzzles", all.len());
        let count = |f: &dyn Fn(&Puzzle) -> bool| all.iter().filter(|p| f(p)).count();
        assert!(count(&|p| matches!(p.kind, Kind::WinIn(_))) >= 30);
        assert!(count(&|p| p.kind == Kind::BiggestRelay) >= 30);
        assert!(count(&|p| p.kind == Kind::SaveYourPieces) >= 30);
        assert!(count(&|p| p.kind == Kind::ApproachOrWithdrawal) >= 30);
        assert_eq!(count(&|p| p.position.legal_turns().len() < 2), 0, "every puzzle is a choice");
        let dimy = count(&|p| p.position.variant() == Variant::Dimy);
        assert!(dimy >= 20 && dimy * 2 < all.len(), "{dimy} on 5 x 5");
        // Every line prints back as it was read.
        for (p, line) in all.iter().zip(BUILTIN.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'))) {
            assert_eq!(p.to_string(), line.trim());
        }
        let mut fens: Vec<String> = all.iter().map(|p| p.position.to_fen()).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), all.len(), "no position twice");
    }

    #[test]
    fn every_solution_has_the_kinds_property() {
        for p in builtin() {
            let pos = p.position;
            let turns = pos.legal_turns();
            let after = |t: &Turn| {
                let mut c = pos;
                c.play_turn(t).unwrap();
                c
            };
            let answer = &p.solution[0];
            match p.kind {
                Kind::WinIn(_) => {}
                Kind::BiggestRelay => {
                    let most = taken(&pos, &after(answer));
                    assert!(turns.iter().filter(|t| *t != answer).all(|t| taken(&pos, &after(t)) < most), "{p}");
                }
                Kind::SaveYourPieces => {
                    assert_eq!(biggest_capture(&after(answer)), 0, "{p}");
                    assert!(turns.iter().filter(|t| *t != answer).all(|t| biggest_capture(&after(t)) > 0), "{p}");
                }
                Kind::ApproachOrWithdrawal => {
                    let f = answer.steps[0];
                    assert!(
                        turns
                            .iter()
                            .any(|t| (t.steps[0].from, t.steps[0].to) == (f.from, f.to) && t.steps[0].kind != f.kind),
                        "{p}"
                    );
                }
            }
        }
    }

    #[test]
    fn win_puzzles_are_right_by_the_tablebase() {
        for variant in [Variant::Tsivy, Variant::Dimy] {
            let tb = crate::tablebase::shared(variant, None);
            let wins: Vec<Puzzle> = builtin()
                .into_iter()
                .filter(|p| matches!(p.kind, Kind::WinIn(_)) && p.position.variant() == variant)
                .collect();
            assert!(!wins.is_empty());
            for p in &wins {
                assert!(verify_win(p, &tb), "{p}");
            }
        }
    }

    #[test]
    fn the_engine_confirms_every_tactic() {
        // The check `fanorona-cli puzzles check` makes, at the generator's depth and margin, on every shipped
        // tactic: its answer is the engine's best turn, by a clear margin over the second best.
        let all = builtin();
        let tactics: Vec<&Puzzle> = all.iter().filter(|p| !matches!(p.kind, Kind::WinIn(_))).collect();
        assert!(tactics.len() >= 150);
        let wrong: Vec<String> =
            tactics.iter().filter(|p| !engine_agrees(p, VERIFY_DEPTH, MARGIN)).map(|p| p.to_string()).collect();
        assert!(wrong.is_empty(), "{} of {} tactics not confirmed:\n{}", wrong.len(), tactics.len(), wrong.join("\n"));
    }

    #[test]
    fn answers_are_checked() {
        let all = builtin();
        for p in &all {
            let last = p.solution.len() - 1;
            for i in (0..last).step_by(2) {
                assert_eq!(p.check(i, &p.solution[i]), Check::Correct { reply: p.solution[i + 1].clone() });
            }
            assert_eq!(p.check(last, &p.solution[last]), Check::Solved);
            assert_eq!(p.check(1, &p.solution[0]), Check::Wrong { why: Miss::NoSuchStep });
            assert_eq!(p.check(last + 2, &p.solution[0]), Check::Wrong { why: Miss::NoSuchStep });
            let wrong = p.position.legal_turns().into_iter().find(|t| *t != p.solution[0]).unwrap();
            let Check::Wrong { why } = p.check(0, &wrong) else { panic!("{wrong} accepted in {p}") };
            match p.kind {
                Kind::BiggestRelay => assert!(matches!(why, Miss::CapturesFewer { took, most } if took < most)),
                Kind::SaveYourPieces => assert!(matches!(why, Miss::LosesPieces { pieces } if pieces > 0)),
                _ => assert!(matches!(why, Miss::NotBest | Miss::WrongCaptureKind)),
            }
            // The same first step twice: the piece has left its point.
            let s0 = p.solution[0].steps[0];
            assert_eq!(p.check(0, &Turn::new(vec![s0, s0])), Check::Wrong { why: Miss::Illegal });
        }
    }

    #[test]
    fn bad_lines_are_reported_not_panicked_on() {
        let good = "biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-b2A b2-c2A | relay";
        assert!(good.parse::<Puzzle>().is_ok());
        let cases = [
            ("biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-b2A", ParseErrorKind::Fields(4)),
            ("win-in-1 | 900 | 9/9/2B6/3B5/W8 w | a1-b2A | x", ParseErrorKind::Kind("win-in-1".into())),
            ("biggest-relay | high | 9/9/2B6/3B5/W8 w | a1-b2A | x", ParseErrorKind::Rating("high".into())),
            (
                "biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-b2A; | x",
                ParseErrorKind::Turn { index: 1, text: "".into() },
            ),
            ("biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-b2A; d2-c2A | x", ParseErrorKind::SolutionLength(2)),
            ("biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-b2A |  ", ParseErrorKind::Theme),
        ];
        for (line, want) in cases {
            assert_eq!(line.parse::<Puzzle>(), Err(want), "{line}");
        }
        assert!(matches!("biggest-relay | 900 | 9/9/x | a1-b2A | x".parse::<Puzzle>(), Err(ParseErrorKind::Fen(_))));
        assert!(matches!(
            "biggest-relay | 900 | 9/9/2B6/3B5/W8 w | a1-a2 | x".parse::<Puzzle>(),
            Err(ParseErrorKind::Illegal { index: 0, .. })
        ));
        let e = parse(&format!("# comment\n\n{good}\nnonsense\n")).unwrap_err();
        assert_eq!((e.line, e.kind), (4, ParseErrorKind::Fields(1)));
    }

    #[test]
    fn ratings_move_towards_results() {
        let new = Rating::default();
        let won = update(new, 1200.0, true);
        assert!((won.value - 1230.0).abs() < 0.01, "{won:?}");
        assert_eq!(won.attempts, 1);
        assert!(update(new, 1200.0, false).value < 1200.0);
        // Solving a much harder puzzle gains more than solving an easier one.
        assert!(update(new, 1800.0, true).value - 1200.0 > update(new, 900.0, true).value - 1200.0);
        // An established player moves less.
        let old = Rating { value: 1500.0, attempts: 100 };
        assert!((update(old, 1500.0, true).value - 1510.0).abs() < 0.01);
    }
}
