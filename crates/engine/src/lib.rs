//! Fanorona engine: evaluation, search, endgame tablebase, opening book, CPU levels and review, on the rules of
//! `fanorona-rules`.
//!
//! No Bevy and no tooling here: the game and the engine protocol stand on this crate, and the strength tools
//! (`fanorona-tools`, the `fanorona-cli` program) on top of it. The rules' modules are re-exported, so
//! `fanorona_engine::position` is `fanorona_rules::position`:
//! [`geometry`], [`rules`], [`position`], [`turns`], [`notation`], [`game`], [`record`].
//!
//! - [`search`]: the alpha-beta search that plays and gives hints.
//! - [`levels`]: CPU levels, draw offers and hints.
//! - [`book`]: the opening book of the strongest levels, searched once and committed as data.
//! - [`review`]: per-turn review of a played game (best turn, loss, class, notes) and its summary.
//! - [`puzzles`]: generated puzzles with unique answers (tablebase wins and tactics), checking and ratings.
//! - [`protocol`]: the line protocol of `fanorona-cli engine`.
//! - [`matches`](mod@matches): engine-vs-engine games for self-play and the level ladder.
//! - [`telo`]: Fanoron-Telo, the 3 × 3 placing-and-moving game, solved; perfect and gentle players.
//! - [`sprt`]: strength tests: a book of balanced openings, pairs of games, Elo and the SPRT.
//! - [`tune`]: Texel-style tuning of the evaluation weights on labelled self-play positions.
//! - [`net`]: a small network that corrects the evaluation of quiet positions, and its trainer.

pub mod book;
pub mod eval_net;
pub mod levels;
pub mod matches;
pub mod protocol;
pub mod puzzles;
pub mod review;
pub mod score;
pub mod search;
pub mod sprt;
pub mod spsa;
pub mod tablebase;
pub mod telo;
pub mod tune;
pub mod tuned;

pub use fanorona_rules::{
    Direction, DrawReason, DrawRule, FenError, Game, GameError, GameResult, IllegalReason, IllegalTurn, NotationError,
    Outcome, Position, Record, RecordError, RecordErrorKind, RelayRule, Rules, RulesTagError, RulesTagErrorKind, Side,
    Step, StepEffect, StepKind, StepList, Turn, Variant, Vela,
};
pub use fanorona_rules::{game, geometry, notation, position, record, rules, turns};

/// `text` as `#` comment lines, each ending in a newline: the header of a data file this crate writes.
pub(crate) fn comment_lines(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}
