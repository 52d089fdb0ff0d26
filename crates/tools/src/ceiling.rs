//! How much a book of openings leaves to play for: each opening judged drawn, decided or open by a deep search from
//! its end, and the most an engine could score from the book in pairs of games against an opponent that holds the
//! draws and converts the wins.
//!
//! A match plays each opening twice, once with each colour. On an opening that is already decided, the stronger
//! engine wins with the winning side and loses with the other; on one that is already drawn, both games are drawn:
//! either way the pair scores 1 of 2 however well it is played. Only the open openings can give 2 of 2. So a book's
//! ceiling is `(drawn + decided + 2 · open) / (2 · openings)`, and a target above it cannot be met from that book
//! against a sound opponent. A balance check of a few turns lets many decided and drawn openings through once they
//! are six or eight turns long (STRENGTH.md, "What long random openings leave to play for").

use crate::sprt::Openings;
use fanorona_engine::levels::history_hashes;
use fanorona_engine::rules::Side;
use fanorona_engine::score::WIN_BOUND;
use fanorona_engine::search::{Limits, Searcher};

/// What a deep search says of an opening's end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningClass {
    /// Scored exactly 0: a draw the search proves in its lines (trades into drawn tables, repetitions).
    Drawn,
    /// Won for this side: a forced win, or a lead of at least the decided margin.
    Decided(Side),
    /// Anything else: the games are still to be played.
    Open,
}

impl OpeningClass {
    /// The class of a score for White (hundredths of a piece; beyond ±[`WIN_BOUND`] a forced result), with
    /// `decided` the lead that counts as decided.
    pub fn of_score(white_score: i32, decided: i32) -> OpeningClass {
        if white_score == 0 {
            OpeningClass::Drawn
        } else if white_score >= decided.min(WIN_BOUND) {
            OpeningClass::Decided(Side::White)
        } else if white_score <= -decided.min(WIN_BOUND) {
            OpeningClass::Decided(Side::Black)
        } else {
            OpeningClass::Open
        }
    }
}

/// One opening as the deep search judged it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedOpening {
    /// The search's score for White at the opening's end (hundredths of a piece).
    pub white_score: i32,
    /// The depth the search reached.
    pub depth: u32,
    /// The class that score gives.
    pub class: OpeningClass,
}

/// The counts of a judged book and the ceiling they give.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Ceiling {
    /// Openings scored exactly 0.
    pub drawn: usize,
    /// Openings won for one side.
    pub decided: usize,
    /// The rest.
    pub open: usize,
}

impl Ceiling {
    /// Counts one more opening of `class`.
    pub fn add(&mut self, class: OpeningClass) {
        match class {
            OpeningClass::Drawn => self.drawn += 1,
            OpeningClass::Decided(_) => self.decided += 1,
            OpeningClass::Open => self.open += 1,
        }
    }

    /// The openings counted.
    pub fn openings(&self) -> usize {
        self.drawn + self.decided + self.open
    }

    /// The most points a perfect engine could take from the book's pairs against an opponent that holds the draws
    /// and converts the wins: 1 of 2 for each drawn or decided opening, 2 of 2 for each open one.
    pub fn points(&self) -> usize {
        self.drawn + self.decided + 2 * self.open
    }

    /// [`Ceiling::points`] as a share of all the points, in percent (0 for an empty book).
    pub fn percent(&self) -> f64 {
        if self.openings() == 0 {
            return 0.0;
        }
        100.0 * self.points() as f64 / (2 * self.openings()) as f64
    }
}

/// Judges every opening of `book` by a search of `limits` from its end (a cleared table each time, so that a fixed
/// depth gives the same answer whatever came before; the game's turns count for repetitions), calling `each` with
/// the opening's index and its judgement, and returns the counts.
pub fn judge(
    book: &Openings,
    searcher: &mut Searcher,
    limits: Limits,
    decided: i32,
    mut each: impl FnMut(usize, &JudgedOpening),
) -> Ceiling {
    let mut ceiling = Ceiling::default();
    for i in 0..book.openings.len() {
        let game = book.game(i);
        let pos = *game.position();
        searcher.clear();
        let r = searcher.search(&pos, &history_hashes(&game), limits, |_| {});
        let white_score = if pos.side_to_move() == Side::White { r.score } else { -r.score };
        let judged = JudgedOpening { white_score, depth: r.depth, class: OpeningClass::of_score(white_score, decided) };
        ceiling.add(judged.class);
        each(i, &judged);
    }
    ceiling
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_classed_by_the_margin_and_forced_results() {
        assert_eq!(OpeningClass::of_score(0, 300), OpeningClass::Drawn);
        assert_eq!(OpeningClass::of_score(1, 300), OpeningClass::Open);
        assert_eq!(OpeningClass::of_score(299, 300), OpeningClass::Open);
        assert_eq!(OpeningClass::of_score(300, 300), OpeningClass::Decided(Side::White));
        assert_eq!(OpeningClass::of_score(-300, 300), OpeningClass::Decided(Side::Black));
        // A margin beyond any evaluation still counts forced results.
        assert_eq!(OpeningClass::of_score(WIN_BOUND + 5, i32::MAX), OpeningClass::Decided(Side::White));
        assert_eq!(OpeningClass::of_score(-WIN_BOUND - 5, i32::MAX), OpeningClass::Decided(Side::Black));
        assert_eq!(OpeningClass::of_score(2_000, i32::MAX), OpeningClass::Open);
    }

    #[test]
    fn the_ceiling_counts_a_point_for_each_settled_opening_and_two_for_each_open_one() {
        // The six-turn book of STRENGTH.md: 10 drawn, 12 decided, 18 open.
        let mut c = Ceiling::default();
        for (class, n) in
            [(OpeningClass::Drawn, 10), (OpeningClass::Decided(Side::Black), 12), (OpeningClass::Open, 18)]
        {
            (0..n).for_each(|_| c.add(class));
        }
        assert_eq!((c.openings(), c.points()), (40, 58));
        assert!((c.percent() - 72.5).abs() < 1e-9);
        assert_eq!(Ceiling::default().percent(), 0.0);
    }

    #[test]
    fn a_book_is_judged_from_each_opening_end_with_white_s_view() {
        // A lone black piece against two white ones is a win for White whoever moves (in 23 and 24 turns); the
        // two against two is a draw the table knows; a first turn from the start is open.
        let book = Openings::parse("fen 8B/9/9/9/WW7 w\nfen 8B/9/9/9/WW7 b\nfen W8/6W2/9/9/4B3B w\nd2-e3A\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let mut s = Searcher::new(1);
        s.configure("max,tb").unwrap();
        let mut seen = Vec::new();
        let c = judge(&book, &mut s, Limits::depth(6), 300, |i, j| seen.push((i, j.class, j.white_score)));
        let classes: Vec<OpeningClass> = seen.iter().map(|s| s.1).collect();
        assert_eq!(
            classes,
            [
                OpeningClass::Decided(Side::White),
                OpeningClass::Decided(Side::White),
                OpeningClass::Drawn,
                OpeningClass::Open
            ],
            "{seen:?}"
        );
        assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(c, Ceiling { drawn: 1, decided: 2, open: 1 });
    }
}
