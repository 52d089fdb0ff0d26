//! Game records: a readable, PGN-like text of a whole game, to export, import and save games in progress.
//!
//! # Format
//!
//! ```text
//! [Game "Fanorona"]
//! [Date "2026-11-21"]
//! [White "Player"]
//! [Black "CPU (Master)"]
//! [Variant "9x5"]
//! [Rules "first=white relay=default first-turn-no-relay=no single-first-capture=no vela=none draw-repetitions=3 draw-no-capture=100"]
//! [Result "*"]
//!
//! 1. d3-e3A
//! 2. f4-f3A
//! 3. e3-f2W f2-f1W
//! 4. e5-f4A f4-e3A e3-f2A f2-g3W
//! 5. h1-h2A ...
//! ```
//!
//! A record is a header of tags, then the turns.
//!
//! - **Tags** are lines `[Name "value"]`; inside the value `\"` stands for `"` and `\\` for `\`. Names are
//!   letters, digits, `_` and `-`. Known tags:
//!   - `Variant` (required): `9x5` (Fanoron-Tsivy) or `5x5` (Fanoron-Dimy); `tsivy` and `dimy` are read too.
//!   - `Rules`: every rule option but the variant, as written by [`Rules::to_tag`]; options left out take their
//!     defaults, and a missing tag means the default rules.
//!   - `Start`: the FEN of the first position, present only when the game did not start from the standard start
//!     position of its rules. The state a FEN cannot hold (first-turn and first-capture flags, vela count) is
//!     that of a game start under the rules.
//!   - `Result`: `1-0` (White won), `0-1` (Black won), `1/2-1/2` (draw) or `*` (in progress).
//!   - `Termination`: how the game ended, once it has: `no pieces`, `no moves`, `resignation`, `repetition`,
//!     `no capture limit` or `agreement`.
//!   - `Game`, `Date`, `White`, `Black` and any other tag are kept as they are and otherwise ignored.
//! - **Turns** follow the header, one a line, numbered from 1 (the turns of both sides count): `N. steps`, in turn
//!   notation (`d3-e3A e3-e4W`). A relay still in progress (the steps played so far in the current turn) is the
//!   last line, ending with ` ...`; a record with one is a save of a game in the middle of a turn.
//! - Blank lines and comment lines (first non-blank character `;` or `#`) may appear anywhere and are skipped.
//!   Leading and trailing white space on a line is ignored, and so are runs of white space between steps.
//!
//! # Import
//!
//! [`Record::to_game`] replays the record turn by turn and stops at the first problem, naming its line, the turn
//! number, the turn text and the engine's reason. Results that moves do not produce are re-applied: a resignation
//! (the loser is the side the result says lost) or an agreed draw. A result that the moves contradict is an error.
//! When `Termination` is missing, a `1-0` or `0-1` result on a game the moves did not end counts as a resignation
//! and `1/2-1/2` as an agreed draw; a missing `Result` means whatever the moves give.

use crate::game::{DrawReason, Game, GameError, GameResult, Outcome};
use crate::geometry::Variant;
use crate::notation::{FenError, NotationError};
use crate::position::{Position, Step};
use crate::rules::{Rules, RulesTagError, Side};
use crate::turns::Turn;
use std::fmt;
use std::str::FromStr;

/// What a [`RecordError`] is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// A header line is not of the form `[Name "value"]`.
    BadTag(String),
    /// A tag is given twice.
    DuplicateTag(String),
    /// A tag line after the first turn.
    TagAfterTurns(String),
    /// There is no `Variant` tag.
    MissingVariant,
    /// The `Variant` tag names no board.
    UnknownVariant(String),
    /// The `Rules` tag could not be read.
    BadRules(RulesTagError),
    /// The `Start` tag is not a valid FEN.
    BadStart(FenError),
    /// The `Start` position is on another board than the `Variant` tag says.
    StartVariant {
        /// The board of the `Variant` tag.
        variant: Variant,
        /// The board of the `Start` position.
        start: Variant,
    },
    /// The `Result` tag is not `1-0`, `0-1`, `1/2-1/2` or `*`.
    BadResult(String),
    /// The `Termination` tag is not one of the known ways a game ends.
    BadTermination(String),
    /// A line after the header that is neither a turn `N. steps`, a blank line nor a comment.
    BadTurnLine(String),
    /// A turn line carries the wrong number.
    TurnNumber {
        /// The number the line should have.
        expected: usize,
        /// The number it has.
        found: String,
    },
    /// A turn line after the unfinished turn (which must be the last).
    AfterUnfinished,
    /// A turn's text is not turn notation.
    Notation {
        /// The turn number.
        turn: usize,
        /// The turn's text.
        text: String,
        /// The notation error.
        error: NotationError,
    },
    /// A turn (or a step of the unfinished turn) is illegal where it is played.
    Illegal {
        /// The turn number.
        turn: usize,
        /// The turn's text.
        text: String,
        /// Why the game refused it.
        error: GameError,
    },
    /// The turn marked unfinished was over after the given step (1-based): no further capture was possible.
    UnfinishedEnded {
        /// The turn number.
        turn: usize,
        /// The turn's text.
        text: String,
        /// The step after which the turn ended.
        step: usize,
    },
    /// The `Result` or `Termination` tag disagrees with how the moves end the game.
    ResultMismatch {
        /// What the tags claim, in words.
        claimed: String,
        /// What the moves give, in words.
        actual: String,
    },
}

/// A record could not be read or replayed: where (a 1-based line, when the problem has one) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The 1-based line of the text the problem is on, if it is on one.
    pub line: Option<usize>,
    /// The problem.
    pub kind: RecordErrorKind,
}

impl RecordError {
    fn new(line: Option<usize>, kind: RecordErrorKind) -> RecordError {
        RecordError { line, kind }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        match &self.kind {
            RecordErrorKind::BadTag(l) => write!(f, "{l:?} is not a tag of the form [Name \"value\"]"),
            RecordErrorKind::DuplicateTag(n) => write!(f, "the tag {n} is given twice"),
            RecordErrorKind::TagAfterTurns(n) => write!(f, "the tag {n} comes after the turns; tags go first"),
            RecordErrorKind::MissingVariant => write!(f, "the Variant tag is missing (it must be 9x5 or 5x5)"),
            RecordErrorKind::UnknownVariant(v) => write!(f, "unknown Variant {v:?}; it must be 9x5 or 5x5"),
            RecordErrorKind::BadRules(e) => write!(f, "bad Rules tag: {e}"),
            RecordErrorKind::BadStart(e) => write!(f, "bad Start tag: {e}"),
            RecordErrorKind::StartVariant { variant, start } => write!(
                f,
                "the Start position is on the {} board but the Variant tag says {}",
                variant_tag(*start),
                variant_tag(*variant)
            ),
            RecordErrorKind::BadResult(r) => write!(f, "unknown Result {r:?}; it must be 1-0, 0-1, 1/2-1/2 or *"),
            RecordErrorKind::BadTermination(t) => write!(
                f,
                "unknown Termination {t:?}; it must be no pieces, no moves, resignation, repetition, \
                 no capture limit or agreement"
            ),
            RecordErrorKind::BadTurnLine(l) => {
                write!(f, "{l:?} is not a turn (expected a number, a dot and the steps, e.g. \"1. d3-e3A\")")
            }
            RecordErrorKind::TurnNumber { expected, found } => {
                write!(f, "this turn is numbered {found} but should be {expected}")
            }
            RecordErrorKind::AfterUnfinished => {
                write!(f, "a turn follows the unfinished turn (marked \"...\"), which must be the last")
            }
            RecordErrorKind::Notation { turn, text, error } => write!(f, "turn {turn} ({text}): {error}"),
            RecordErrorKind::Illegal { turn, text, error } => write!(f, "turn {turn} ({text}): {error}"),
            RecordErrorKind::UnfinishedEnded { turn, text, step } => write!(
                f,
                "turn {turn} ({text}) is marked unfinished but no further capture was possible after step {step}"
            ),
            RecordErrorKind::ResultMismatch { claimed, actual } => {
                write!(f, "the record says {claimed}, but after its turns {actual}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// The value of the `Variant` tag for a board.
pub fn variant_tag(variant: Variant) -> &'static str {
    match variant {
        Variant::Tsivy => "9x5",
        Variant::Dimy => "5x5",
    }
}

fn parse_variant(s: &str) -> Option<Variant> {
    match s.trim().to_ascii_lowercase().as_str() {
        "9x5" | "tsivy" | "fanoron-tsivy" => Some(Variant::Tsivy),
        "5x5" | "dimy" | "fanoron-dimy" => Some(Variant::Dimy),
        _ => None,
    }
}

fn result_tag(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::Win(Side::White)) => "1-0",
        Some(GameResult::Win(Side::Black)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// `Some(None)` is `*`: a game in progress.
fn parse_result(s: &str) -> Option<Option<GameResult>> {
    match s.trim() {
        "1-0" => Some(Some(GameResult::Win(Side::White))),
        "0-1" => Some(Some(GameResult::Win(Side::Black))),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// How a game ended, without the winner (the `Result` tag has that).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Termination {
    NoPieces,
    NoMoves,
    Resignation,
    Draw(DrawReason),
}

impl Termination {
    const ALL: [Termination; 6] = [
        Termination::NoPieces,
        Termination::NoMoves,
        Termination::Resignation,
        Termination::Draw(DrawReason::Repetition),
        Termination::Draw(DrawReason::NoCapture),
        Termination::Draw(DrawReason::Agreement),
    ];

    fn of(outcome: Outcome) -> Termination {
        match outcome {
            Outcome::NoPieces { .. } => Termination::NoPieces,
            Outcome::NoMoves { .. } => Termination::NoMoves,
            Outcome::Resignation { .. } => Termination::Resignation,
            Outcome::Draw(r) => Termination::Draw(r),
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Termination::NoPieces => "no pieces",
            Termination::NoMoves => "no moves",
            Termination::Resignation => "resignation",
            Termination::Draw(DrawReason::Repetition) => "repetition",
            Termination::Draw(DrawReason::NoCapture) => "no capture limit",
            Termination::Draw(DrawReason::Agreement) => "agreement",
        }
    }

    fn parse(s: &str) -> Option<Termination> {
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase();
        Termination::ALL.into_iter().find(|t| t.tag() == s)
    }
}

/// The 1-based lines a parsed record's parts were read from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Lines {
    tags: Vec<usize>,
    turns: Vec<usize>,
}

/// A game record: its tags, completed turns and the steps of an unfinished turn. Text with [`fmt::Display`] and
/// [`Record::parse`]; a [`Game`] with [`Record::from_game`] and [`Record::to_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    tags: Vec<(String, String)>,
    turns: Vec<Turn>,
    pending: Vec<Step>,
    /// Where each tag, and each turn (then the unfinished one), was read from, for error messages; None when the
    /// record was not parsed (its lines are then those [`fmt::Display`] writes).
    lines: Option<Lines>,
}

impl Record {
    /// The record of `game`. Empty names or date leave their tag out.
    pub fn from_game(game: &Game, white: &str, black: &str, date: &str) -> Record {
        let rules = game.rules();
        let mut tags = vec![("Game".to_string(), "Fanorona".to_string())];
        for (name, value) in [("Date", date), ("White", white), ("Black", black)] {
            if !value.is_empty() {
                tags.push((name.to_string(), value.to_string()));
            }
        }
        tags.push(("Variant".to_string(), variant_tag(rules.variant).to_string()));
        tags.push(("Rules".to_string(), rules.to_tag()));
        if *game.start_position() != Position::start(rules) {
            tags.push(("Start".to_string(), game.start_position().to_fen()));
        }
        tags.push(("Result".to_string(), result_tag(game.outcome().map(Outcome::result)).to_string()));
        if let Some(o) = game.outcome() {
            tags.push(("Termination".to_string(), Termination::of(o).tag().to_string()));
        }
        Record { tags, turns: game.turns().to_vec(), pending: game.pending_steps().to_vec(), lines: None }
    }

    /// Reads a record's text, checking its form only; [`Record::to_game`] checks the rules.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut rec = Record { tags: Vec::new(), turns: Vec::new(), pending: Vec::new(), lines: None };
        let mut lines = Lines::default();
        let mut unfinished = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
                continue;
            }
            if line.starts_with('[') {
                let (name, value) =
                    parse_tag(line).ok_or_else(|| RecordError::new(Some(n), RecordErrorKind::BadTag(line.into())))?;
                if !lines.turns.is_empty() {
                    return Err(RecordError::new(Some(n), RecordErrorKind::TagAfterTurns(name)));
                }
                if rec.tag(&name).is_some() {
                    return Err(RecordError::new(Some(n), RecordErrorKind::DuplicateTag(name)));
                }
                rec.tags.push((name, value));
                lines.tags.push(n);
                continue;
            }
            if unfinished {
                return Err(RecordError::new(Some(n), RecordErrorKind::AfterUnfinished));
            }
            let number = rec.turns.len() + 1;
            let Some((num, body)) = line.split_once('.') else {
                return Err(RecordError::new(Some(n), RecordErrorKind::BadTurnLine(line.into())));
            };
            if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
                return Err(RecordError::new(Some(n), RecordErrorKind::BadTurnLine(line.into())));
            }
            if num.trim_start_matches('0') != number.to_string() {
                let found = num.to_string();
                return Err(RecordError::new(Some(n), RecordErrorKind::TurnNumber { expected: number, found }));
            }
            let mut words: Vec<&str> = body.split_whitespace().collect();
            if words.last() == Some(&"...") {
                words.pop();
                unfinished = true;
            }
            let text = words.join(" ");
            let turn: Turn = text.parse().map_err(|error| {
                RecordError::new(Some(n), RecordErrorKind::Notation { turn: number, text: text.clone(), error })
            })?;
            if unfinished {
                rec.pending = turn.steps;
            } else {
                rec.turns.push(turn);
            }
            lines.turns.push(n);
        }
        rec.lines = Some(lines);
        Ok(rec)
    }

    /// Reads a record's text and replays it: [`Record::parse`] then [`Record::to_game`].
    ///
    /// ```
    /// use fanorona_rules::record::Record;
    /// let text = "[Variant \"9x5\"]\n[Result \"*\"]\n\n1. d3-e3A\n2. f4-f3A\n3. e3-f2W f2-f1W\n4. e5-f4A ...\n";
    /// let game = Record::load(text).unwrap();
    /// assert_eq!(game.turns().len(), 3);
    /// assert_eq!(game.pending_steps().len(), 1);
    /// assert_eq!(Record::from_game(&game, "", "", "").to_string().lines().last(), Some("4. e5-f4A ..."));
    /// ```
    pub fn load(text: &str) -> Result<Game, RecordError> {
        Record::parse(text)?.to_game()
    }

    /// The tags in order, names with their (unescaped) values.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Sets a tag's value, adding the tag at the end of the header if it is new. Names should be letters, digits,
    /// `_` and `-`, or the text will not read back.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => {
                self.tags.push((name.to_string(), value.to_string()));
                // Line numbers of a parsed text no longer match what this record prints.
                self.lines = None;
            }
        }
    }

    /// The completed turns.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The steps of the unfinished turn (empty if none).
    pub fn pending_steps(&self) -> &[Step] {
        &self.pending
    }

    /// The line of turn `index` (0-based; `turns.len()` is the unfinished turn): where it was read, or else where
    /// [`fmt::Display`] writes it.
    fn line_of(&self, index: usize) -> Option<usize> {
        match &self.lines {
            Some(l) => l.turns.get(index).copied(),
            None => Some(self.tags.len() + 2 + index),
        }
    }

    /// The line of a tag, if present.
    fn tag_line(&self, name: &str) -> Option<usize> {
        let index = self.tags.iter().position(|(n, _)| n == name)?;
        match &self.lines {
            Some(l) => l.tags.get(index).copied(),
            None => Some(index + 1),
        }
    }

    /// The rules the tags give.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let variant_text = self.tag("Variant").ok_or(RecordError::new(None, RecordErrorKind::MissingVariant))?;
        let variant = parse_variant(variant_text).ok_or_else(|| {
            RecordError::new(self.tag_line("Variant"), RecordErrorKind::UnknownVariant(variant_text.into()))
        })?;
        Rules::from_tag(self.tag("Rules").unwrap_or(""), variant)
            .map_err(|e| RecordError::new(self.tag_line("Rules"), RecordErrorKind::BadRules(e)))
    }

    /// Replays the record: the game it describes, with its turns, unfinished turn and result. Stops at the first
    /// problem (see the module documentation).
    pub fn to_game(&self) -> Result<Game, RecordError> {
        let rules = self.rules()?;
        let mut game = match self.tag("Start") {
            None => Game::new(rules),
            Some(fen) => {
                let start = Position::from_fen_with_rules(fen.trim(), &rules)
                    .map_err(|e| RecordError::new(self.tag_line("Start"), RecordErrorKind::BadStart(e)))?;
                if start.variant() != rules.variant {
                    let kind = RecordErrorKind::StartVariant { variant: rules.variant, start: start.variant() };
                    return Err(RecordError::new(self.tag_line("Start"), kind));
                }
                Game::from_position(start, rules)
            }
        };
        for (i, turn) in self.turns.iter().enumerate() {
            game.play_turn(turn).map_err(|error| {
                let kind = RecordErrorKind::Illegal { turn: i + 1, text: turn.to_string(), error };
                RecordError::new(self.line_of(i), kind)
            })?;
        }
        if !self.pending.is_empty() {
            let number = self.turns.len() + 1;
            let line = self.line_of(self.turns.len());
            let text = Turn::new(self.pending.clone()).to_string();
            for (i, &step) in self.pending.iter().enumerate() {
                let effect = game.play_step(step).map_err(|error| {
                    RecordError::new(line, RecordErrorKind::Illegal { turn: number, text: text.clone(), error })
                })?;
                if effect.turn_ended {
                    let kind = RecordErrorKind::UnfinishedEnded { turn: number, text, step: i + 1 };
                    return Err(RecordError::new(line, kind));
                }
            }
        }
        self.apply_result(&mut game)?;
        Ok(game)
    }

    fn apply_result(&self, game: &mut Game) -> Result<(), RecordError> {
        let result = match self.tag("Result") {
            None => None,
            Some(r) => Some(
                parse_result(r)
                    .ok_or_else(|| RecordError::new(self.tag_line("Result"), RecordErrorKind::BadResult(r.into())))?,
            ),
        };
        let termination = match self.tag("Termination") {
            None => None,
            Some(t) => Some(Termination::parse(t).ok_or_else(|| {
                RecordError::new(self.tag_line("Termination"), RecordErrorKind::BadTermination(t.into()))
            })?),
        };
        let result_line = self.tag_line("Result").or(self.tag_line("Termination"));
        let claimed = || {
            let mut s = match result {
                None => "no result".to_string(),
                Some(r) => format!("the result {}", result_tag(r)),
            };
            if let Some(t) = termination {
                s.push_str(&format!(" by {}", t.tag()));
            }
            s
        };
        let mismatch = |actual: String| {
            Err(RecordError::new(result_line, RecordErrorKind::ResultMismatch { claimed: claimed(), actual }))
        };
        if let Some(actual) = game.outcome() {
            let result_ok = result.is_none_or(|r| r == Some(actual.result()));
            let termination_ok = termination.is_none_or(|t| t == Termination::of(actual));
            if result_ok && termination_ok {
                return Ok(());
            }
            return mismatch(format!("the game is over: {actual}"));
        }
        let open = "the game is not over".to_string();
        // Resignations and agreed draws are not in the turns, so they are re-applied here.
        let applied = match (termination, result) {
            (None | Some(Termination::Resignation), Some(Some(GameResult::Win(winner)))) => {
                game.resign(winner.opponent())
            }
            (None | Some(Termination::Draw(DrawReason::Agreement)), Some(Some(GameResult::Draw))) => game.agree_draw(),
            (Some(Termination::Draw(DrawReason::Agreement)), None) => game.agree_draw(),
            (None, None | Some(None)) => Ok(()),
            _ => return mismatch(open),
        };
        // The game is open (checked above), so resigning or agreeing cannot fail.
        applied.map_err(|e| {
            RecordError::new(result_line, RecordErrorKind::ResultMismatch { claimed: claimed(), actual: e.to_string() })
        })
    }
}

/// `[Name "value"]` with `\"` and `\\` escapes, or None.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(|c: char| c.is_whitespace())?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => match chars.next()? {
                c @ ('"' | '\\') => value.push(c),
                _ => return None,
            },
            c => value.push(c),
        }
    }
    chars.as_str().is_empty().then(|| (name.to_string(), value))
}

fn write_escaped(f: &mut fmt::Formatter<'_>, value: &str) -> fmt::Result {
    for c in value.chars() {
        match c {
            '"' | '\\' => write!(f, "\\{c}")?,
            // A line break would end the tag line; records keep one tag a line.
            c if c.is_control() => f.write_str(" ")?,
            c => write!(f, "{c}")?,
        }
    }
    Ok(())
}

impl fmt::Display for Record {
    /// The text of the record: tags, a blank line, one turn a line, and the unfinished turn ending with ` ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            write!(f, "[{name} \"")?;
            write_escaped(f, value)?;
            writeln!(f, "\"]")?;
        }
        writeln!(f)?;
        for (i, turn) in self.turns.iter().enumerate() {
            writeln!(f, "{}. {turn}", i + 1)?;
        }
        if !self.pending.is_empty() {
            writeln!(f, "{}. {} ...", self.turns.len() + 1, Turn::new(self.pending.clone()))?;
        }
        Ok(())
    }
}

impl FromStr for Record {
    type Err = RecordError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Record::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DrawRule, RelayRule, RulesTagErrorKind, Vela};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    fn assert_same(a: &Game, b: &Game) {
        assert_eq!(a.rules(), b.rules());
        assert_eq!(a.turns(), b.turns());
        assert_eq!(a.turn_starts(), b.turn_starts());
        assert_eq!(a.position(), b.position());
        assert_eq!(a.pending_steps(), b.pending_steps());
        assert_eq!(a.outcome(), b.outcome());
    }

    /// Exports, imports and checks the game comes back identical and the text is stable; returns the text.
    fn round_trip(game: &Game) -> String {
        let text = Record::from_game(game, "Player", "CPU (Master)", "2026-11-21").to_string();
        let record = Record::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let back = record.to_game().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_same(game, &back);
        assert_eq!(Record::from_game(&back, "Player", "CPU (Master)", "2026-11-21").to_string(), text);
        assert_eq!(record.to_string(), text);
        text
    }

    /// Plays random legal turns until the game ends or `max` turns are played.
    fn random_game(mut game: Game, rng: &mut SmallRng, max: usize) -> Game {
        while !game.is_over() && game.turns().len() < max {
            let turns = game.position().legal_turns();
            let turn = &turns[rng.random_range(0..turns.len())];
            game.play_turn(turn).unwrap();
        }
        game
    }

    /// Plays random turns until a relay can go on, then plays only the first step of such a turn.
    fn game_in_relay(rules: Rules, seed: u64) -> Game {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(rules);
        loop {
            let turns = game.position().legal_turns();
            if let Some(t) = turns.iter().find(|t| t.len() >= 2) {
                game.play_step(t.steps[0]).unwrap();
                assert!(!game.pending_steps().is_empty());
                return game;
            }
            game.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
            assert!(!game.is_over(), "seed {seed} ended without a relay");
        }
    }

    #[test]
    fn random_games_round_trip() {
        for seed in 0..8 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let game = random_game(Game::new(Rules::default()), &mut rng, 2000);
            assert!(game.is_over());
            let text = round_trip(&game);
            assert!(text.contains("[Termination \""), "{text}");
            assert!(!text.contains("[Start "));
        }
    }

    #[test]
    fn dimy_game_round_trips() {
        let rules = Rules { variant: Variant::Dimy, ..Rules::default() };
        let mut rng = SmallRng::seed_from_u64(5);
        let game = random_game(Game::new(rules), &mut rng, 2000);
        let text = round_trip(&game);
        assert!(text.contains("[Variant \"5x5\"]"));
        let mid = random_game(Game::new(rules), &mut rng, 7);
        round_trip(&mid);
    }

    #[test]
    fn non_default_rules_round_trip() {
        let odd = Rules {
            first_player: Side::Black,
            relay: RelayRule::Lines,
            first_turn_no_relay: true,
            single_first_capture: true,
            draw: DrawRule { repetitions: 0, no_capture_turns: 30 },
            ..Rules::default()
        };
        let vela = Rules { vela: Some(Vela { winner: Side::White, captured: 2 }), ..Rules::default() };
        let dimy_vela = Rules { variant: Variant::Dimy, vela: Some(Vela { winner: Side::Black, captured: 0 }), ..odd };
        for (i, rules) in [odd, vela, dimy_vela].into_iter().enumerate() {
            let mut rng = SmallRng::seed_from_u64(i as u64);
            let game = random_game(Game::new(rules), &mut rng, 2000);
            let text = round_trip(&game);
            assert!(text.contains(&format!("[Rules \"{}\"]", rules.to_tag())));
            round_trip(&random_game(Game::new(rules), &mut rng, 9));
        }
    }

    #[test]
    fn rules_tag_round_trips_and_names_bad_options() {
        let rules = Rules {
            variant: Variant::Dimy,
            first_player: Side::Black,
            relay: RelayRule::Lines,
            first_turn_no_relay: true,
            single_first_capture: false,
            vela: Some(Vela { winner: Side::Black, captured: 4 }),
            draw: DrawRule { repetitions: 0, no_capture_turns: 250 },
        };
        for r in [rules, Rules::default()] {
            assert_eq!(Rules::from_tag(&r.to_tag(), r.variant).unwrap(), r);
        }
        assert_eq!(Rules::from_tag("", Variant::Tsivy).unwrap(), Rules::default());
        assert_eq!(Rules::from_tag("  relay=lines  ", Variant::Tsivy).unwrap().relay, RelayRule::Lines);
        let bad = |tag: &str, option: &str, kind: RulesTagErrorKind| {
            let e = Rules::from_tag(tag, Variant::Tsivy).unwrap_err();
            assert_eq!((e.option.as_str(), &e.kind), (option, &kind), "{tag}");
            assert!(e.to_string().contains(option), "{e}");
        };
        bad(
            "relay=zigzag",
            "relay",
            RulesTagErrorKind::BadValue { value: "zigzag".into(), expected: "default or lines" },
        );
        bad("first=white colour=red", "colour", RulesTagErrorKind::UnknownOption);
        bad("first=white first=black", "first", RulesTagErrorKind::Duplicate);
        bad("first", "first", RulesTagErrorKind::NotAPair);
        bad("vela-captured=3", "vela-captured", RulesTagErrorKind::VelaCapturedWithoutVela);
        bad(
            "draw-repetitions=-1",
            "draw-repetitions",
            RulesTagErrorKind::BadValue { value: "-1".into(), expected: "a number from 0 (off) to 255" },
        );
    }

    #[test]
    fn custom_start_round_trips() {
        let rules = Rules::default();
        let start = Position::from_fen_with_rules("4B4/2B6/2W1W4/9/3W5 b", &rules).unwrap();
        let mut rng = SmallRng::seed_from_u64(3);
        let game = random_game(Game::from_position(start, rules), &mut rng, 2000);
        let text = round_trip(&game);
        assert!(text.contains("[Start \"4B4/2B6/2W1W4/9/3W5 b\"]"), "{text}");
        // The standard start written out as a Start tag is the same game.
        let plain = random_game(Game::new(rules), &mut rng, 4);
        let mut record = Record::from_game(&plain, "", "", "");
        record.set_tag("Start", &Position::start(&rules).to_fen());
        assert_same(&record.to_game().unwrap(), &plain);
    }

    #[test]
    fn resignation_and_agreement_are_reapplied() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut resigned = random_game(Game::new(Rules::default()), &mut rng, 6);
        resigned.resign(Side::White).unwrap();
        let text = round_trip(&resigned);
        assert!(text.contains("[Result \"0-1\"]\n[Termination \"resignation\"]"), "{text}");

        let mut agreed = random_game(Game::new(Rules::default()), &mut rng, 11);
        agreed.agree_draw().unwrap();
        let text = round_trip(&agreed);
        assert!(text.contains("[Result \"1/2-1/2\"]\n[Termination \"agreement\"]"), "{text}");

        // Without a Termination tag the result alone says what happened.
        let open = random_game(Game::new(Rules::default()), &mut rng, 4);
        let mut record = Record::from_game(&open, "", "", "");
        record.set_tag("Result", "1-0");
        assert_eq!(record.to_game().unwrap().outcome(), Some(Outcome::Resignation { winner: Side::White }));
        record.set_tag("Result", "1/2-1/2");
        assert_eq!(record.to_game().unwrap().outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
        let fresh = Record::from_game(&Game::new(Rules::default()), "", "", "");
        assert!(fresh.to_string().contains("[Result \"*\"]"));
        assert!(!fresh.to_string().contains("Termination"));
    }

    #[test]
    fn unfinished_relay_round_trips() {
        for seed in 0..4 {
            let game = game_in_relay(Rules::default(), seed);
            let text = round_trip(&game);
            let last = text.lines().last().unwrap();
            assert!(last.ends_with(" ..."), "{text}");
            assert!(last.starts_with(&format!("{}. ", game.turns().len() + 1)), "{text}");
            let mut resigned = game.clone();
            resigned.resign(Side::Black).unwrap();
            round_trip(&resigned);
        }
        let dimy = game_in_relay(Rules { variant: Variant::Dimy, ..Rules::default() }, 1);
        round_trip(&dimy);
    }

    #[test]
    fn first_illegal_turn_is_named() {
        let mut rng = SmallRng::seed_from_u64(21);
        let game = random_game(Game::new(Rules::default()), &mut rng, 12);
        let text = Record::from_game(&game, "A", "B", "").to_string();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let at = lines.iter().position(|l| l.starts_with("6. ")).unwrap();
        // Turn 5 again: its piece has moved, so it cannot be legal as turn 6.
        let turn5 = game.turns()[4].to_string();
        lines[at] = format!("6. {turn5}");
        let broken = lines.join("\n");
        let e = Record::load(&broken).unwrap_err();
        assert_eq!(e.line, Some(at + 1));
        match &e.kind {
            RecordErrorKind::Illegal { turn: 6, text, error: GameError::IllegalTurn(_) } => assert_eq!(text, &turn5),
            k => panic!("{k:?}"),
        }
        let msg = e.to_string();
        assert!(msg.starts_with(&format!("line {}: turn 6 ({turn5}): illegal turn: step 1", at + 1)), "{msg}");

        // Comments and blank lines are skipped but line numbers still count them.
        let commented = broken.replacen("\n1. ", "\n; a comment\n\n# another\n1. ", 1);
        assert_eq!(Record::load(&commented).unwrap_err().line, Some(at + 4));

        // A notation error names the turn too.
        lines[at] = "6. d3-z9A".to_string();
        let e = Record::load(&lines.join("\n")).unwrap_err();
        assert_eq!(e.line, Some(at + 1));
        assert!(matches!(e.kind, RecordErrorKind::Notation { turn: 6, .. }), "{e}");
        assert!(e.to_string().contains("\"z9\" is not a point"), "{e}");

        // Turns after the game ended are refused with the reason.
        let mut rng = SmallRng::seed_from_u64(2);
        let over = random_game(Game::new(Rules::default()), &mut rng, 2000);
        let mut text = Record::from_game(&over, "", "", "").to_string();
        text.push_str(&format!("{}. d3-e3A\n", over.turns().len() + 1));
        let e = Record::load(&text).unwrap_err();
        assert!(matches!(e.kind, RecordErrorKind::Illegal { error: GameError::Over(_), .. }), "{e}");
    }

    #[test]
    fn malformed_records_give_clear_errors() {
        let game = random_game(Game::new(Rules::default()), &mut SmallRng::seed_from_u64(4), 3);
        let good = Record::from_game(&game, "W \"quoted\" \\ name", "B", "2026-11-21").to_string();
        let back = Record::parse(&good).unwrap();
        assert_eq!(back.tag("White"), Some("W \"quoted\" \\ name"));
        assert_same(&back.to_game().unwrap(), &game);

        let cases: &[(&str, &str, &str)] = &[
            ("[Variant \"9x5\"]\n", "", "Variant tag is missing"),
            ("[Variant \"9x5\"]", "[Variant \"7x7\"]", "unknown Variant \"7x7\""),
            ("[Rules \"first=white", "[Rules \"first=green", "\"first\" has the value \"green\""),
            ("[Rules \"first=white", "[Rules \"speed=fast first=white", "\"speed\" is not a rule option"),
            ("[Result \"*\"]", "[Result \"2-0\"]", "unknown Result \"2-0\""),
            ("[Result \"*\"]", "[Result \"*\"]\n[Termination \"boredom\"]", "unknown Termination \"boredom\""),
            (
                "[Result \"*\"]",
                "[Result \"*\"]\n[Termination \"no pieces\"]",
                "the record says the result * by no pieces",
            ),
            ("[Result \"*\"]", "[Result \"*\"]\n[Start \"9/9/9 w\"]", "bad Start tag: invalid position"),
            ("[Result \"*\"]", "[Result \"*\"]\n[Start \"5/5/2W2/5/B4 w\"]", "Start position is on the 5x5 board"),
            ("[Game \"Fanorona\"]", "[Game Fanorona]", "is not a tag"),
            ("[Game \"Fanorona\"]", "[Game \"Fanorona\" x]", "is not a tag"),
            ("[Game \"Fanorona\"]", "[Game \"Fan\\orona\"]", "is not a tag"),
            ("[Game \"Fanorona\"]", "[Game \"Fanorona\"]\n[Game \"Other\"]", "the tag Game is given twice"),
            ("\n2. ", "\n3. ", "numbered 3 but should be 2"),
            ("\n2. ", "\ntwo. ", "is not a turn"),
            ("\n2. ", "\n2. ...\n2. ", "nothing to read"),
        ];
        for &(from, to, msg) in cases {
            assert!(good.contains(from), "{from}");
            let bad = good.replacen(from, to, 1);
            let e = Record::load(&bad).unwrap_err();
            assert!(e.to_string().contains(msg), "{e}\n{bad}");
        }
        // Tag problems name the tag's line.
        let e = Record::load(&good.replacen("draw-repetitions=3", "draw-repetitions=many", 1)).unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        assert!(e.to_string().starts_with("line 6: bad Rules tag: the rule option \"draw-repetitions\""), "{e}");
        let e = Record::load(&good.replacen("[Variant \"9x5\"]", "[Variant \"9x9\"]", 1)).unwrap_err();
        assert_eq!(e.line, Some(5), "{e}");
        // Tag after turns.
        let late = format!("{good}[Late \"tag\"]\n");
        assert!(matches!(Record::parse(&late).unwrap_err().kind, RecordErrorKind::TagAfterTurns(_)));
        // A turn after an unfinished one.
        let relay = game_in_relay(Rules::default(), 0);
        let text = format!("{}{}. d3-e3A\n", Record::from_game(&relay, "", "", ""), relay.turns().len() + 2);
        assert_eq!(Record::parse(&text).unwrap_err().kind, RecordErrorKind::AfterUnfinished);
        // Unknown tags are kept; the minimal record is just a Variant.
        let minimal = "[Variant \"dimy\"]\n[Event \"club night\"]\n1. c2-c3A\n";
        let r = Record::parse(minimal).unwrap();
        assert_eq!(r.tag("Event"), Some("club night"));
        let g = r.to_game().unwrap();
        assert_eq!(g.rules().variant, Variant::Dimy);
        assert_eq!(g.turns().len(), 1);
    }

    #[test]
    fn result_contradicting_the_moves_is_an_error() {
        let mut rng = SmallRng::seed_from_u64(0);
        let over = random_game(Game::new(Rules::default()), &mut rng, 2000);
        let outcome = over.outcome().unwrap();
        let mut record = Record::from_game(&over, "", "", "");
        record.set_tag("Result", "*");
        assert!(matches!(record.to_game().unwrap_err().kind, RecordErrorKind::ResultMismatch { .. }));
        let other = match outcome.result() {
            GameResult::Draw => "1-0",
            _ => "1/2-1/2",
        };
        record.set_tag("Result", other);
        assert!(matches!(record.to_game().unwrap_err().kind, RecordErrorKind::ResultMismatch { .. }));
        let open = Record::from_game(&Game::new(Rules::default()), "", "", "");
        let mut r = open.clone();
        r.set_tag("Termination", "resignation");
        r.set_tag("Result", "1/2-1/2");
        assert!(r.to_game().is_err());
    }

    #[test]
    fn damaged_input_never_panics() {
        let relay = game_in_relay(Rules { first_turn_no_relay: true, ..Rules::default() }, 3);
        let mut over = random_game(Game::new(Rules::default()), &mut SmallRng::seed_from_u64(8), 40);
        over.resign(Side::Black).ok();
        let texts =
            [Record::from_game(&relay, "a", "b", "c").to_string(), Record::from_game(&over, "", "", "").to_string()];
        let mut rng = SmallRng::seed_from_u64(77);
        let try_all = |s: &str| {
            if let Ok(r) = Record::parse(s) {
                let _ = r.to_game();
                let _ = r.to_string();
            }
        };
        for text in &texts {
            for (i, _) in text.char_indices() {
                try_all(&text[..i]);
                try_all(&text[i..]);
            }
            let alphabet: Vec<char> = "[]\"\\ .-AW123456789abcdefghijw/B*01\n;#x ".chars().chain(['é', '\0']).collect();
            for _ in 0..3000 {
                let mut chars: Vec<char> = text.chars().collect();
                for _ in 0..rng.random_range(1..4) {
                    let i = rng.random_range(0..chars.len());
                    match rng.random_range(0..3) {
                        0 => chars[i] = alphabet[rng.random_range(0..alphabet.len())],
                        1 => {
                            chars.remove(i);
                        }
                        _ => chars.insert(i, alphabet[rng.random_range(0..alphabet.len())]),
                    }
                }
                try_all(&chars.into_iter().collect::<String>());
            }
            let mut lines: Vec<&str> = text.lines().collect();
            for _ in 0..200 {
                let (a, b) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
                lines.swap(a, b);
                try_all(&lines.join("\n"));
            }
        }
        for _ in 0..2000 {
            let n = rng.random_range(0..200);
            let bytes: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            try_all(&String::from_utf8_lossy(&bytes));
        }
    }
}
