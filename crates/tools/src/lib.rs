//! Fanorona's strength and generation tooling, on top of the engine library: what `fanorona-cli` runs and the
//! engine itself never needs.
//!
//! - [`sprt`]: strength tests: a book of balanced openings, pairs of games, Elo and the SPRT.
//! - [`spsa`]: SPSA tuning of search options by self-play.
//! - [`tune`]: Texel-style tuning of the evaluation weights on labelled self-play positions.
//! - [`net_train`]: the trainer of the evaluation network.
//! - [`matches`](mod@matches): engine-vs-engine games for self-play and the level ladder.
//! - [`book_gen`]: making the opening books.
//! - [`puzzle_gen`]: making the puzzles.
//! - [`losses`]: the turns that lost games, as a suite of positions with a deep search's answer, and its runner.
//! - [`ceiling`]: how much a book of openings leaves to play for, by a deep search of each opening's end.

pub mod book_gen;
pub mod ceiling;
pub mod losses;
pub mod matches;
pub mod net_train;
pub mod puzzle_gen;
pub mod sprt;
pub mod spsa;
pub mod tune;
