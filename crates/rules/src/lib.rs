//! Fanorona's exact rules on bitboards: the boards, positions, whole turns, notation and game records, no search.
//!
//! Everything that plays or judges a game stands on this crate: the engine (`fanorona-engine`), the game server
//! (`fanorona-server`), which needs the rules and nothing else, and the game itself through the engine.
//!
//! - [`geometry`]: the 9×5 (Fanoron-Tsivy) and 5×5 (Fanoron-Dimy) boards, points, lines and bitboard tables.
//! - [`rules`]: the rule options (draw rule, relay rule, vela) and the sides.
//! - [`position`]: positions, steps and move generation at the level of single steps.
//! - [`turns`]: whole turns (every stopping point of a relay), perft.
//! - [`notation`]: FEN and turn notation.
//! - [`game`]: a game record with results, draws and undo/redo.
//! - [`record`]: the text of a game (tags and turns, PGN-like), to export, import and save games in progress.

pub mod game;
pub mod geometry;
pub mod notation;
pub mod position;
pub mod record;
pub mod rules;
pub mod turns;
mod zobrist;

pub use game::{DrawReason, Game, GameError, GameResult, Outcome};
pub use geometry::{Direction, Variant};
pub use notation::{FenError, NotationError};
pub use position::{IllegalReason, Position, Step, StepEffect, StepKind, StepList};
pub use record::{Record, RecordError, RecordErrorKind};
pub use rules::{DrawRule, RelayRule, Rules, RulesTagError, RulesTagErrorKind, Side, Vela};
pub use turns::{IllegalTurn, Turn};
