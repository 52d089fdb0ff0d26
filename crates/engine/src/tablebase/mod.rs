//! Endgame tablebase: the exact value (win, draw or loss, and the distance in turns) of every position with few pieces.
//!
//! # Values
//!
//! A value is always seen from the side to move, at the start of a turn (never in the middle of a relay), under the
//! default rules (default relay rule, no vela, no first-turn options). Distances count **turns** of both sides; a
//! whole relay is one turn.
//!
//! - [`TbValue::Loss`]`(0)`: the side to move has no piece or no legal turn: it has lost.
//! - [`TbValue::Win`]`(d)`: the side to move can force the opponent into a lost position (a `Loss(0)`) at the end of
//!   turn `d` at the latest, counting its own turns and the opponent's, and the opponent can delay it that long. So
//!   `Win(1)` means "this turn leaves the opponent without pieces or moves".
//! - [`TbValue::Loss`]`(d)`: the opponent wins that way after `d` turns, however the side to move defends.
//! - [`TbValue::Draw`]: neither side can force a win (with best play the game goes on forever, which the game
//!   record ends by repetition or the no-capture rule).
//!
//! Wins always have odd distances and losses even ones. A position is worth `Win(d + 1)` when its best turn leads to
//! `Loss(d)`, and `Loss(d + 1)` when every turn leads to a win for the opponent, the longest being `Win(d)`.
//!
//! # Construction
//!
//! Entries are stored relative to the side to move ("own" and "opponent" pieces): the rules are the same for both
//! colours, so a position with Black to move is looked up as its colour swap. The table is split into material
//! classes (own count, opponent count) and built from fewer to more pieces. Captures are compulsory and always
//! remove enemy material, so a position where the side to move can capture depends only on smaller classes and is
//! settled in one pass over its capture turns (every stopping point of every relay is a turn). The remaining
//! (paika) positions lead to the class with the counts swapped, and are solved by successor-counting retrograde
//! analysis over the pair of classes, in order of distance. Positions left unresolved are draws.
//!
//! Both boards are symmetric under the left-right and up-down mirrors (and so the half turn), which map lines onto
//! lines and strong points onto strong points, and no rule depends on a direction; so only **canonical** entries
//! (the least of their up to four images) are solved, about a quarter of the table. In the retrograde pass a
//! settled entry takes one off the count of every canonical position with a paika move into its symmetry class
//! (each un-move's predecessor is mapped to its canonical form together with the move, and repeats are dropped).
//! When a pair of classes is done, every other entry gets the value of its canonical image, so the stored table
//! (and probing) is the same as without the reduction; a test compares the table up to 4 pieces, byte for byte,
//! with the simple builder that solves every entry.
//!
//! # Index
//!
//! Within a class the own set is ranked among the board's points and the opponent set among the remaining points,
//! both in colexicographic order; the index is `rank(own) · C(n − own, opp) + rank(opp)`. One byte per entry:
//! `0` is a draw and `d + 1` a distance `d` (its parity says win or loss), so distances up to 254 fit. The file
//! stores every entry (the symmetry only saves building time), so a probe is one index computation.
//!
//! # Seven pieces
//!
//! The 1-byte layout of seven pieces would take 6.0 GB (5.8 billion entries) and about 7 GB of memory to build.
//! The compact table ([`Compact`]) keeps only the rows of each class whose own set is the least of its images
//! (a quarter of them), one byte per entry, in blocks of 1,024 entries compressed with zstd, so that the
//! capture positions, draws and distances all stay exact; a probe maps the position to its canonical image,
//! finds the row, and reads one block, which a per-thread cache of 1,024 blocks keeps. The build solves one pair
//! of classes at a time on those rows alone, so a pair needs two bytes per canonical entry (1.6 GB for 4 v 3).
//!
//! # Use
//!
//! - [`Tablebase::build`]`(variant, max_pieces, progress)`, or [`Tablebase::load_or_build`] with a cache folder,
//!   whose builds resume what an interrupted one left there (the largest smaller table, whose entries are the
//!   first ones of the larger, each finished pair of classes, and the pair in progress every few seconds);
//!   [`Tablebase::save`] and [`Tablebase::load`] (a 32-byte header: magic, format version, board, piece count,
//!   data length, checksum; a corrupt or mismatched file is a [`TbError`]).
//! - [`SlicedBuild`]: the same build on the calling thread in short slices, for a web page that must keep drawing
//!   frames (the 4-piece table of the 9 × 5 board in about 0.3 s of work, slices of a few milliseconds).
//! - [`Tablebase::probe`] for a position's value, [`Tablebase::best_turn`] for a turn that realises it,
//!   [`Tablebase::longest_win`] for the table's longest forced win.
//!
//! Measured on 2 cores shared with other builds (load average about 5), release build, 9×5 board: up to 3 pieces
//! 0.03 s (117,571 entries, longest win 29 turns), 4 pieces 0.6 s (2.5 M entries, 49 turns), 5 pieces 10.3 CPU-s
//! and 11.5 s (41.6 M entries, 42 MB, 59 turns; 26 CPU-s before the symmetry reduction), 6 pieces 169 CPU-s and
//! 3 min 7 s, 684 MB at most (563 M entries, 563 MB, 81 turns: `4B4/9/9/7B1/WWW3W2 w`).
//!
//! # Files
//!
//! Each file uses only those above it in this list (the arrows point one way), and this one re-exports what is
//! public, so every path is `tablebase::X`:
//!
//! - `value`: [`TbValue`] and the byte it is stored as.
//! - `index`: where an entry sits in the table, the board's symmetries ([`MAX_PIECES`]).
//! - `probe`: [`Tablebase`] in memory and its probes ([`Tablebase::probe`], [`Tablebase::best_turn`], [`sample`]).
//! - `file`: the file formats, [`Tablebase::save`] and [`Tablebase::load`], [`TbError`].
//! - `solve`: the first pass and the retrograde analysis of a pair of classes.
//! - `build`: [`Tablebase::build`], and [`Tablebase::load_or_build`] with the files that let a build resume.
//! - `sliced`: [`SlicedBuild`].
//! - `compact` (not in a browser): the seven-piece table in compact form ([`Compact`]: canonical rows only, zstd
//!   blocks, one file per pair of classes, probed from the mapped files), its resumable build from the six-piece
//!   table, and [`Tablebase::with_seven`], which joins it to a six-piece table.
//! - `cache`: the tables [`shared`] by the whole program (joined with the seven-piece table when it is cached) and
//!   their [`default_dir`].
//! - `background` (not in a browser): [`SevenBuild`], the seven-piece table built on the idle cores of a program
//!   that plays (the desktop game's Settings), stoppable and resumed, then shared.

#[cfg(not(target_arch = "wasm32"))]
mod background;
mod build;
mod cache;
#[cfg(not(target_arch = "wasm32"))]
mod compact;
mod file;
mod index;
mod probe;
mod sliced;
mod solve;
mod value;

#[cfg(not(target_arch = "wasm32"))]
pub use background::{SEVEN_STEPS, SevenBuild, SevenOnDisk, SevenStatus, seven_on_disk};
pub use cache::{
    BACKGROUND_PIECES, ENGINE_PIECES, QUICK_PIECES, SHARED_MAX_PIECES, background_priority, default_dir, grow_shared,
    offer_shared, shared, shared_now, shared_pieces,
};
#[cfg(not(target_arch = "wasm32"))]
pub use compact::{COMPACT_PIECES, Compact, compact_files, load_or_build_seven};
pub use file::TbError;
pub use index::MAX_PIECES;
pub use probe::{Tablebase, ValueKind, sample};
pub use sliced::SlicedBuild;
pub use value::TbValue;

/// Helpers the tests of several files share.
#[cfg(test)]
mod test_support {
    use std::path::PathBuf;

    /// A `progress` that prints nothing.
    pub(super) fn quiet(_: &str) {}

    /// A path in the temporary folder, unique to this test process.
    pub(super) fn tmp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("fanorona-tb-test-{}-{name}", std::process::id()))
    }
}
