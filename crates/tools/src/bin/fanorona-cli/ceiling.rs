//! `ceiling`: each opening of a book judged drawn, decided or open by a deep search from its end, and the most an
//! engine could score from the book against an opponent that holds the draws and converts the wins.

use crate::losses::{limits, limits_text};
use crate::strength::load_openings;
use clap::Args;
use fanorona_engine::levels::FULL_STRENGTH;
use fanorona_tools::ceiling::{self, OpeningClass};
use fanorona_tools::losses;
use std::path::PathBuf;

/// The arguments of `fanorona-cli ceiling`.
#[derive(Args)]
pub(crate) struct CeilingArgs {
    /// The book of openings (as `sprt --book` reads it); the committed one without it.
    #[arg(long)]
    book: Option<PathBuf>,
    /// Depth of the search from each opening's end (whole turns); deterministic.
    #[arg(long)]
    depth: Option<u32>,
    /// Time of the search from each opening's end, in milliseconds (when no depth is given).
    #[arg(long)]
    time: Option<u64>,
    /// The lead that counts as decided, in hundredths of a piece (forced results always do).
    #[arg(long, default_value_t = 300)]
    decided: i32,
    /// Search options (see `sprt`); the endgame table is what proves most draws.
    #[arg(long, default_value_t = format!("{FULL_STRENGTH},tb"))]
    engine: String,
    /// Transposition table, in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

impl CeilingArgs {
    /// Judges every opening, a line each, then the counts and the ceiling.
    pub(crate) fn run(self) -> Result<(), String> {
        let limits = limits(self.depth, self.time)?;
        if self.decided <= 0 {
            return Err(format!("--decided {} must be above 0 (0 is a draw)", self.decided));
        }
        let book = load_openings(self.book.as_deref())?;
        let mut s = losses::searcher(&self.engine, self.hash)?;
        let c = ceiling::judge(&book, &mut s, limits, self.decided, |i, j| {
            let class = match j.class {
                OpeningClass::Drawn => "drawn".to_string(),
                OpeningClass::Decided(side) => format!("decided for {side}"),
                OpeningClass::Open => "open".to_string(),
            };
            out!("{} {class}: {} for White at depth {}", i + 1, j.white_score, j.depth);
        });
        out!(
            "{} openings ({}, decided at {}): {} drawn, {} decided, {} open; ceiling {} of {} points ({:.1}%)",
            c.openings(),
            limits_text(self.depth, self.time),
            self.decided,
            c.drawn,
            c.decided,
            c.open,
            c.points(),
            2 * c.openings(),
            c.percent()
        );
        Ok(())
    }
}
