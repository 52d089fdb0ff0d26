//! Game review: each turn of a played game compared with the engine's best, classed (best … blunder) with a
//! structured note for the game to put into words, and a summary with an accuracy figure.
//!
//! Everything here is data, never English text: the game translates [`Class`] and [`Note`].
//!
//! Scores are [`Score`]s from the mover's point of view: hundredths of a piece ([`PIECE`]), or wins and losses
//! in a number of turns. A turn is judged by the searcher's own evaluation at one depth: both
//! the best turn and the played one are scored by a fixed-depth search of the position after them, so small node
//! budgets (the web build reviews a turn with `Limits::nodes(..)`) give consistent if shallow verdicts. Where the
//! searcher's oracle (the tablebase, see [`Searcher::set_oracle`]) knows every position after the turns, the values
//! are exact and [`TurnReview::exact`] is set.

use crate::position::Position;
use crate::rules::Side;
use crate::search::{Limits, PIECE, Score, Searcher};
use crate::turns::{IllegalTurn, Turn};

/// How good a turn was, from [`TurnReview::loss`] (in pieces) or from what it did to a proven result.
///
/// Thresholds (the loss is the best turn's score minus the played turn's, in pieces, never negative):
/// best ≤ 0.1, good ≤ 0.5, inaccuracy ≤ 1, mistake ≤ 2, blunder > 2. A turn that turns a proven win into anything
/// else, or a position not proven lost into a proven loss, is a blunder whatever the numbers say. A turn that was
/// the only legal one is forced.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The only legal turn.
    Forced,
    /// The best turn, or as good (loss ≤ 0.1 piece).
    Best,
    /// Loss ≤ 0.5 piece.
    Good,
    /// Loss ≤ 1 piece.
    Inaccuracy,
    /// Loss ≤ 2 pieces.
    Mistake,
    /// Loss > 2 pieces, or a proven result thrown away.
    Blunder,
}

impl Class {
    /// Every class, in order (the index of [`Summary::counts`]).
    pub const ALL: [Class; 6] =
        [Class::Forced, Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// The class of a turn that lost `loss` pieces against the best (not forced, no proven result changed).
    pub fn from_loss(loss: f32) -> Class {
        match loss {
            l if l <= 0.1 => Class::Best,
            l if l <= 0.5 => Class::Good,
            l if l <= 1.0 => Class::Inaccuracy,
            l if l <= 2.0 => Class::Mistake,
            _ => Class::Blunder,
        }
    }

    /// Index in [`Class::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Why a turn was worse than the best, as data for the game to put into words.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Note {
    /// Nothing to say (a good turn, or a loss the notes below do not explain).
    None,
    /// The best turn forced a win; the played one does not.
    MissedWin,
    /// After the played turn the opponent can force a win, which it could not after the best turn.
    AllowsForcedLoss,
    /// After the played turn the opponent's biggest capture takes `pieces` pieces (more than after the best turn).
    AllowedCapture {
        /// Pieces the opponent's biggest capturing turn takes.
        pieces: u32,
    },
    /// The best turn captured `pieces` more pieces than the played one (a longer relay, or a capture at all).
    MissedRelay {
        /// How many more pieces the best turn took.
        pieces: u32,
    },
}

/// The verdict on one played turn.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct TurnReview {
    /// The engine's best turn (the played one when it is as good).
    pub best: Turn,
    /// Score of the best turn, for the mover.
    pub best_score: Score,
    /// Score of the played turn, for the mover, at the same depth.
    pub played_score: Score,
    /// `best_score − played_score` in pieces (wins and losses count as ±[`DECISIVE_PIECES`]), never negative.
    pub loss: f32,
    /// The class of the played turn.
    pub class: Class,
    /// What the played turn missed or allowed.
    pub note: Note,
    /// Whether the scores are exact (every position after the turns is in the searcher's tablebase).
    pub exact: bool,
    /// Depth in turns of the scores (the turn itself included); 0 when exact.
    pub depth: u32,
}

/// How many pieces a proven win (or loss) counts for in [`TurnReview::loss`] and in accuracy: more than any
/// evaluation of material says, so that throwing a win away is always the largest loss.
pub const DECISIVE_PIECES: f32 = 10.0;

/// A score in pieces, with wins and losses counted as ±[`DECISIVE_PIECES`].
pub fn score_pieces(score: Score) -> f32 {
    match score {
        Score::Win(_) => DECISIVE_PIECES,
        Score::Loss(_) => -DECISIVE_PIECES,
        Score::Eval(cp) => (cp as f32 / PIECE as f32).clamp(-DECISIVE_PIECES, DECISIVE_PIECES),
    }
}

/// Reviews `played` in `pos` (the start of the turn; `history` as for [`Searcher::search`]). The searcher first
/// finds the best turn within `limits` (any of depth, nodes or time), then both turns are scored by a search of
/// the same depth from the position after them. Returns the reason when `played` is not legal in `pos`.
pub fn review_turn(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    played: &Turn,
    limits: Limits,
) -> Result<TurnReview, IllegalTurn> {
    let mut after_played = *pos;
    after_played.play_turn(played)?;
    let legal = pos.legal_turns();
    let hist = turn_history(pos, history);
    let me = pos.side_to_move();

    // Exact values where the tablebase knows every position after the turns.
    if let Some(exact) = exact_values(searcher, pos, &legal) {
        let played_score = exact.iter().find(|(t, _)| t == played).map_or(Score::ZERO, |x| x.1);
        let (best, best_score) = exact.iter().max_by_key(|(_, s)| *s).cloned().expect("a legal turn");
        let (best, best_score) =
            if played_score >= best_score { (played.clone(), played_score) } else { (best, best_score) };
        return Ok(judge(pos, &legal, &after_played, best, best_score, played_score, true, 0));
    }

    let r = searcher.search(pos, history, Limits { multipv: 1, ..limits }, |_| {});
    let depth = r.depth.max(1);
    let best = r.best.unwrap_or_else(|| played.clone());
    let played_score = turn_score(searcher, pos, &hist, played, depth, me);
    let best_score = if best == *played { played_score } else { turn_score(searcher, pos, &hist, &best, depth, me) };
    // The fixed-depth scores may rank the played turn higher than the search's choice: then it was the best.
    let (best, best_score) =
        if played_score >= best_score { (played.clone(), played_score) } else { (best, best_score) };
    Ok(judge(pos, &legal, &after_played, best, best_score, played_score, false, depth))
}

/// The verdict once both scores are known.
#[allow(clippy::too_many_arguments)]
fn judge(
    pos: &Position,
    legal: &[Turn],
    after_played: &Position,
    best: Turn,
    best_score: Score,
    played_score: Score,
    exact: bool,
    depth: u32,
) -> TurnReview {
    let loss = (score_pieces(best_score) - score_pieces(played_score)).max(0.0);
    let (best_wins, played_wins) = (best_score.win_in().is_some(), played_score.win_in().is_some());
    let (best_loses, played_loses) = (best_score.loss_in().is_some(), played_score.loss_in().is_some());
    let class = if legal.len() == 1 {
        Class::Forced
    } else if (best_wins && !played_wins) || (played_loses && !best_loses) {
        Class::Blunder
    } else {
        Class::from_loss(loss)
    };
    let note = if class <= Class::Good {
        Note::None
    } else if best_wins && !played_wins {
        Note::MissedWin
    } else if played_loses && !best_loses {
        Note::AllowsForcedLoss
    } else {
        let mut after_best = *pos;
        let _ = after_best.play_turn(&best);
        let (allowed, allowed_by_best) = (biggest_capture(after_played), biggest_capture(&after_best));
        let missed = captured(pos, &after_best).saturating_sub(captured(pos, after_played));
        if allowed > allowed_by_best {
            Note::AllowedCapture { pieces: allowed }
        } else if missed > 0 {
            Note::MissedRelay { pieces: missed }
        } else {
            Note::None
        }
    };
    TurnReview { best, best_score, played_score, loss, class, note, exact, depth }
}

/// Pieces the mover of `before` took to reach `after`.
fn captured(before: &Position, after: &Position) -> u32 {
    let opp = before.side_to_move().opponent();
    before.count(opp).saturating_sub(after.count(opp))
}

/// The most pieces one turn of the side to move can take (relays included).
pub fn biggest_capture(pos: &Position) -> u32 {
    if !pos.has_capture() {
        return 0;
    }
    pos.legal_turns()
        .iter()
        .map(|t| {
            let mut c = *pos;
            let _ = c.play_turn(t);
            captured(pos, &c)
        })
        .max()
        .unwrap_or(0)
}

/// Every legal turn's exact value for the mover, when the searcher's oracle knows every position after them.
fn exact_values(searcher: &Searcher, pos: &Position, legal: &[Turn]) -> Option<Vec<(Turn, Score)>> {
    let oracle = searcher.oracle()?;
    oracle.score(pos)?;
    legal
        .iter()
        .map(|t| {
            let mut c = *pos;
            c.play_turn(t).ok()?;
            let s = if c.is_lost() { Score::Win(1) } else { from_child(Score::from_raw(oracle.score(&c)?)) };
            Some((t.clone(), s))
        })
        .collect()
}

/// The mover's score of a turn from the score of the position after it (for the opponent, distances counted
/// from there): one turn further for a win or a loss.
fn from_child(child: Score) -> Score {
    match -child {
        Score::Win(n) => Score::Win(n + 1),
        Score::Loss(n) => Score::Loss(n + 1),
        eval => eval,
    }
}

/// The score of `turn` from a search of `depth` turns (the turn included).
fn turn_score(searcher: &mut Searcher, pos: &Position, hist: &[u64], turn: &Turn, depth: u32, me: Side) -> Score {
    let mut c = *pos;
    if c.play_turn(turn).is_err() {
        return Score::Loss(0);
    }
    if c.is_lost() {
        return Score::Win(1);
    }
    let h: &[u64] = if turn.is_capture() { &[] } else { hist };
    // Draws by rule are judged for the mover.
    searcher.root_side = me;
    from_child(Score::from_raw(searcher.fixed_depth(&c, h, depth - 1)))
}

/// The history after a turn from `pos` starts.
fn turn_history(pos: &Position, history: &[u64]) -> Vec<u64> {
    let mut h = history.to_vec();
    h.push(pos.hash());
    h
}

/// Counts and accuracy of a player's reviewed turns.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Summary {
    /// How many turns of each class, indexed by [`Class::index`] (order of [`Class::ALL`]).
    pub counts: [u32; 6],
    /// Accuracy from 0 to 100 (100 when there was no unforced turn); see [`summary`].
    pub accuracy: f32,
    /// Average loss per unforced turn, in pieces.
    pub average_loss: f32,
}

/// The chance of winning, in percent, of a side whose score is `pieces` pieces: `100 / (1 + e^(−0.5·pieces))`
/// (one piece ahead ≈ 62%, three ≈ 82%, a proven win 99.3%).
pub fn win_percent(pieces: f32) -> f32 {
    100.0 / (1.0 + (-0.5 * pieces).exp())
}

/// The accuracy of one turn, from 0 to 100, lichess-style: `103.1668·e^(−0.04354·d) − 3.1669` where `d` is the
/// drop in [`win_percent`] from the best turn's score to the played turn's (clamped to 0..100).
pub fn turn_accuracy(review: &TurnReview) -> f32 {
    let drop = (win_percent(score_pieces(review.best_score)) - win_percent(score_pieces(review.played_score))).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Class counts, the average loss, and the accuracy: the mean [`turn_accuracy`] of the turns that were not
/// forced (a forced turn says nothing about the player).
pub fn summary(reviews: &[TurnReview]) -> Summary {
    let mut s = Summary::default();
    let mut n = 0;
    let (mut acc, mut loss) = (0.0f32, 0.0f32);
    for r in reviews {
        s.counts[r.class.index()] += 1;
        if r.class != Class::Forced {
            n += 1;
            acc += turn_accuracy(r);
            loss += r.loss;
        }
    }
    s.accuracy = if n == 0 { 100.0 } else { acc / n as f32 };
    s.average_loss = if n == 0 { 0.0 } else { loss / n as f32 };
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn review(fen: &str, played: &str, limits: Limits) -> TurnReview {
        let p = Position::from_fen(fen).unwrap();
        review_turn(&mut Searcher::new(1), &p, &[], &played.parse().unwrap(), limits).unwrap()
    }

    #[test]
    fn thresholds_are_as_documented() {
        let c: Vec<Class> = [0.0, 0.1, 0.11, 0.5, 0.9, 1.0, 1.5, 2.0, 2.01, 9.0].map(Class::from_loss).to_vec();
        use Class::*;
        assert_eq!(c, [Best, Best, Good, Good, Inaccuracy, Inaccuracy, Mistake, Mistake, Blunder, Blunder]);
    }

    #[test]
    fn handing_over_a_big_capture_is_a_blunder() {
        // White e5, d2, e2, h1 against Black h4, a2, no capture on the board. After e2-f2 Black can take three
        // white pieces in one turn; d2-c3 leaves Black nothing to take.
        let fen = "4W4/7B1/9/B2WW4/7W1 w";
        let p = Position::from_fen(fen).unwrap();
        let played: Turn = "e2-f2".parse().unwrap();
        let mut after = p;
        after.play_turn(&played).unwrap();
        assert_eq!(biggest_capture(&after), 3);
        for limits in [Limits::depth(3), Limits::nodes(5_000)] {
            let r = review_turn(&mut Searcher::new(1), &p, &[], &played, limits).unwrap();
            assert_eq!(r.class, Class::Blunder, "{r:?}");
            assert_eq!(r.note, Note::AllowedCapture { pieces: 3 }, "{r:?}");
            assert_eq!(r.best.to_string(), "d2-c3", "{r:?}");
            assert!(r.loss > 2.0 && r.best_score > r.played_score && !r.exact, "{r:?}");
            let mut after_best = p;
            after_best.play_turn(&r.best).unwrap();
            assert_eq!(biggest_capture(&after_best), 0);
        }
    }

    #[test]
    fn walking_into_a_lost_ending_is_a_blunder() {
        // c5-b4 lets Black take all four white pieces in one relay.
        let r = review("2W4B1/9/1B2WW3/9/W8 w", "c5-b4", Limits::depth(3));
        assert_eq!((r.class, r.note), (Class::Blunder, Note::AllowsForcedLoss), "{r:?}");
        assert!(r.played_score.loss_in().is_some() && !r.best_score.is_decisive(), "{r:?}");
        assert_eq!(r.loss, DECISIVE_PIECES + score_pieces(r.best_score));
    }

    #[test]
    fn missing_a_relay_is_noted() {
        // a1-b2A takes c3, and b2-c2A would go on to take d2, Black's last piece: stopping early misses it.
        let r = review("9/9/2B6/3B5/W8 w", "a1-b2A", Limits::depth(2));
        assert_eq!(r.best.to_string(), "a1-b2A b2-c2A");
        assert_eq!(r.best_score, Score::Win(1));
        assert_eq!((r.class, r.note), (Class::Blunder, Note::MissedWin), "{r:?}");
    }

    #[test]
    fn exact_reviews_use_the_tablebase() {
        let tb = crate::tablebase::shared(crate::geometry::Variant::Tsivy, None);
        let mut s = Searcher::new(1);
        s.set_oracle(Some(tb.clone()));
        // Two against two, the longest four-piece win: only the table's turns keep it.
        let p = Position::from_fen("9/9/B8/9/3WW3B w").unwrap();
        let (best, value) = tb.best_turn(&p).unwrap();
        assert!(value.is_win());
        let good = review_turn(&mut s, &p, &[], &best, Limits::nodes(1_000)).unwrap();
        assert_eq!((good.class, good.exact, good.loss), (Class::Best, true, 0.0), "{good:?}");
        let mut threw = 0;
        for t in p.legal_turns() {
            let mut c = p;
            c.play_turn(&t).unwrap();
            if tb.probe(&c).is_some_and(|v| !v.after_turn().is_win()) {
                let r = review_turn(&mut s, &p, &[], &t, Limits::nodes(1_000)).unwrap();
                assert_eq!((r.class, r.note, r.exact), (Class::Blunder, Note::MissedWin, true), "{t}: {r:?}");
                threw += 1;
            }
        }
        assert!(threw > 0, "some turn throws the win away");
    }

    #[test]
    fn forced_and_best_turns() {
        // Black's only legal turn: the corner piece has one empty neighbour.
        let p = Position::from_fen("9/9/9/7WW/W7B b").unwrap();
        let turns = p.legal_turns();
        assert_eq!(turns.len(), 1, "{turns:?}");
        let r = review_turn(&mut Searcher::new(1), &p, &[], &turns[0], Limits::depth(2)).unwrap();
        assert_eq!((r.class, r.note), (Class::Forced, Note::None));
        let start = Position::start(&Rules::default());
        let mut s = Searcher::new(1);
        let best = s.search(&start, &[], Limits::depth(2), |_| {}).best.unwrap();
        let r = review_turn(&mut s, &start, &[], &best, Limits::depth(2)).unwrap();
        assert_eq!((r.class, r.note, r.loss), (Class::Best, Note::None, 0.0));
        assert_eq!(r.best, best);
        // An illegal turn is an error, not a panic.
        assert!(review_turn(&mut s, &start, &[], &"a1-a2".parse().unwrap(), Limits::depth(1)).is_err());
    }

    #[test]
    fn summary_counts_and_accuracy() {
        let start = Position::start(&Rules::default());
        let mut s = Searcher::new(1);
        let reviews: Vec<TurnReview> = start
            .legal_turns()
            .iter()
            .map(|t| review_turn(&mut s, &start, &[], t, Limits::nodes(20_000)).unwrap())
            .collect();
        let sum = summary(&reviews);
        assert_eq!(sum.counts.iter().sum::<u32>(), 5);
        assert!(sum.counts[Class::Best.index()] >= 1);
        assert!(sum.accuracy > 0.0 && sum.accuracy < 100.0, "{sum:?}");
        let perfect: Vec<TurnReview> = reviews.iter().filter(|r| r.class == Class::Best).cloned().collect();
        assert!((summary(&perfect).accuracy - 100.0).abs() < 0.01);
        assert_eq!(summary(&[]).accuracy, 100.0);
    }
}
