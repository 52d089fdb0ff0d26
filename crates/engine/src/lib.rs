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
//! - [`service`]: the engine's jobs and answers as messages, run in slices or to their end (a Web Worker's engine).
//! - [`engine_protocol`]: the line protocol of `fanorona-cli engine` (not the online one, `fanorona-net`).
//! - [`telo`]: Fanoron-Telo, the 3 × 3 placing-and-moving game, solved; perfect and gentle players.
//! - [`score`]: the scale of scores (hundredths of a piece, wins in N) and the oracle the search consults.
//! - [`tuned`]: the tuned evaluation's features and weights.
//! - [`eval_net`]: a small network that corrects the evaluation of quiet positions.
//! - [`tablebase`]: perfect endgame tables, built, cached and probed.

pub mod book;
pub mod engine_protocol;
pub mod eval_net;
pub mod levels;
pub mod puzzles;
pub mod review;
pub mod score;
pub mod search;
pub mod service;
pub mod tablebase;
pub mod telo;
pub mod tuned;

pub use fanorona_rules::{
    Direction, DrawReason, DrawRule, FenError, Game, GameError, GameResult, IllegalReason, IllegalTurn, NotationError,
    Outcome, Position, Record, RecordError, RecordErrorKind, RelayRule, Rules, RulesTagError, RulesTagErrorKind, Side,
    Step, StepEffect, StepKind, StepList, Turn, Variant, Vela,
};
pub use fanorona_rules::{game, geometry, notation, position, record, rules, turns};

/// `text` as `#` comment lines, each ending in a newline: the header of a data file that this crate or its tools
/// write (networks, books, openings).
pub fn comment_lines(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}
