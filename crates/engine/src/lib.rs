//! Fanorona engine: exact rules of Madagascar's national board game on bitboards, notation, search and tablebase.
//!
//! No Bevy here: the game, the command-line tool and the tests all stand on this crate.
//!
//! - [`geometry`]: the 9×5 (Fanoron-Tsivy) and 5×5 (Fanoron-Dimy) boards, points, lines and bitboard tables.
//! - [`position`]: positions, steps and move generation at the level of single steps.
//! - [`turns`]: whole turns (every stopping point of a relay), perft.
//! - [`notation`]: FEN and turn notation.
//! - [`game`]: a game record with results, draws and undo/redo.
//! - [`record`]: the text of a game (tags and turns, PGN-like), to export, import and save games in progress.
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
pub mod game;
pub mod geometry;
pub mod levels;
pub mod matches;
pub mod notation;
pub mod position;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod review;
pub mod rules;
pub mod score;
pub mod search;
pub mod sprt;
pub mod spsa;
pub mod tablebase;
pub mod telo;
pub mod tune;
pub mod tuned;
pub mod turns;
mod zobrist;

pub use game::{DrawReason, Game, GameError, GameResult, Outcome};
pub use geometry::{Direction, Variant};
pub use notation::{FenError, NotationError};
pub use position::{IllegalReason, Position, Step, StepEffect, StepKind, StepList};
pub use record::{Record, RecordError, RecordErrorKind};
pub use rules::{DrawRule, RelayRule, Rules, RulesTagError, RulesTagErrorKind, Side, Vela};
pub use turns::{IllegalTurn, Turn};

/// `text` as `#` comment lines, each ending in a newline: the header of a data file this crate writes.
pub(crate) fn comment_lines(text: &str) -> String {
    text.lines().map(|l| format!("# {l}\n")).collect()
}
