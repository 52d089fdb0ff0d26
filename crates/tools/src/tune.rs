//! Texel-style tuning of the evaluation: the features of a position, the tuned weights the search uses with
//! `eval=tuned`, a generator of labelled positions from self-play games, and a logistic fit of the weights.
//!
//! A sample is a quiet turn-start position (the side to move has no capture) with the final result of its game
//! from the side to move's point of view (1, ½ or 0), or its exact value when the tablebase knows it. The fit
//! minimises the mean of `(result − σ(K · eval / 100))²`: `K` first, with the starting weights, then every
//! weight but the material one (which keeps the scale: hundredths of a piece) by gradient descent (Adam).

use crate::sprt::Openings;
use fanorona_engine::game::{Game, GameResult};
use fanorona_engine::levels::history_hashes;
use fanorona_engine::position::Position;
use fanorona_engine::rules::{Rules, Side};
use fanorona_engine::search::{Limits, Oracle, PIECE, Score, Searcher};
pub use fanorona_engine::tuned::{
    FEATURE_NAMES, FEATURES, PST_CLASSES, TUNED_WEIGHTS, evaluate_with, features, tuned_evaluate,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (a turn start where the side to move has no capture).
    pub pos: Position,
    /// The result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
    /// The self-play search's score of the position for the side to move, in hundredths of a piece (a won or lost
    /// score clamped to ±[`SCORE_CLAMP`]), when the data set has it: a far less noisy label than a drawish game's
    /// result ([`fit`] blends the two).
    pub score: Option<i32>,
}

/// The largest search score a sample keeps: a won or lost position is ten pieces up or down.
pub const SCORE_CLAMP: i32 = 10 * PIECE;

/// Plays `games` self-play games with search options `spec` at `nodes` nodes a turn, from the book's openings
/// (each followed by a few random turns, so that games differ), on `threads` threads, and keeps each quiet
/// position after the opening with probability `keep`. Labels come from the game's result, or from `oracle`
/// (the tablebase) where it knows the position. Reproducible for one thread count.
#[allow(clippy::too_many_arguments)]
pub fn generate(
    spec: &str,
    games: usize,
    nodes: u64,
    keep: f64,
    seed: u64,
    threads: usize,
    oracle: Option<Arc<dyn Oracle>>,
    progress: impl Fn(usize) + Sync,
) -> Result<Vec<Sample>, String> {
    Searcher::new(1).configure(spec)?;
    let book = Openings::builtin();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut all = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (book, next, done, oracle, progress) = (&book, &next, &done, oracle.clone(), &progress);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    let mut searcher = Searcher::new(16);
                    searcher.configure(spec).expect("checked above");
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        if k >= games {
                            break;
                        }
                        let mut rng = SmallRng::seed_from_u64(seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                        searcher.clear();
                        out.extend(self_play(
                            &mut searcher,
                            &book.openings[k % book.openings.len()],
                            nodes,
                            keep,
                            &mut rng,
                            oracle.as_deref(),
                        ));
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            all.extend(h.join().expect("a generator thread panicked"));
        }
    });
    Ok(all)
}

/// The samples again, each scored by a fresh search of `nodes` nodes with options `spec` (the game's result and
/// the positions kept, a tablebase label left as it is), on `threads` threads: deeper labels for the network than
/// the self-play search's. The scores do not depend on the thread count; `progress` sees the count done.
pub fn relabel(
    samples: &[Sample],
    spec: &str,
    nodes: u64,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Result<Vec<Sample>, String> {
    Searcher::new(1).configure(spec)?;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut scored: Vec<Option<i32>> = samples.iter().map(|s| s.score).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (next, done, progress) = (&next, &done, &progress);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    // A small table, cleared for each position: a score that depends only on the position.
                    let mut searcher = Searcher::new(4);
                    searcher.configure(spec).expect("checked above");
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(sample) = samples.get(k) else { break };
                        if sample.score.is_some() {
                            searcher.clear();
                            let r = searcher.search(&sample.pos, &[], Limits::nodes(nodes), |_| {});
                            out.push((k, r.score.clamp(-SCORE_CLAMP, SCORE_CLAMP)));
                        }
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            for (k, score) in h.join().expect("a relabelling thread panicked") {
                scored[k] = Some(score);
            }
        }
    });
    Ok(samples.iter().zip(scored).map(|(s, score)| Sample { pos: s.pos, result: s.result, score }).collect())
}

/// A game longer than this is stopped and labelled a draw.
const MAX_GAME_TURNS: usize = 250;

fn self_play(
    searcher: &mut Searcher,
    opening: &[fanorona_engine::turns::Turn],
    nodes: u64,
    keep: f64,
    rng: &mut SmallRng,
    oracle: Option<&dyn Oracle>,
) -> Vec<Sample> {
    let mut game = Game::new(Rules::default());
    for t in opening {
        if game.play_turn(t).is_err() {
            return Vec::new();
        }
    }
    // A few random turns after the book line: distinct games from the same opening.
    for _ in 0..rng.random_range(0..=3) {
        let turns = game.position().legal_turns();
        if turns.is_empty() || game.is_over() {
            break;
        }
        let t = turns[rng.random_range(0..turns.len())].clone();
        let _ = game.play_turn(&t);
    }
    let mut picked: Vec<(Position, Option<f64>, Option<i32>)> = Vec::new();
    while !game.is_over() && game.turns().len() < MAX_GAME_TURNS {
        let pos = *game.position();
        let pick = !pos.has_capture() && rng.random_bool(keep.clamp(0.0, 1.0));
        if pick {
            let exact = oracle.and_then(|o| o.score(&pos)).map(|s| match Score::from_raw(s) {
                Score::Win(_) => 1.0,
                Score::Loss(_) => 0.0,
                Score::Eval(_) => 0.5,
            });
            picked.push((pos, exact, None));
        }
        let r = searcher.search(&pos, &history_hashes(&game), Limits::nodes(nodes), |_| {});
        if pick && let Some(last) = picked.last_mut() {
            last.2 = Some(r.score.clamp(-SCORE_CLAMP, SCORE_CLAMP));
        }
        let Some(t) = r.best else { break };
        if game.play_turn(&t).is_err() {
            break;
        }
    }
    let white = match game.outcome().map(|o| o.result()) {
        Some(GameResult::Win(Side::White)) => 1.0,
        Some(GameResult::Win(Side::Black)) => 0.0,
        _ => 0.5,
    };
    picked
        .into_iter()
        .map(|(pos, exact, score)| {
            let result = exact.unwrap_or(if pos.side_to_move() == Side::White { white } else { 1.0 - white });
            // A tablebase label is exact: the search score would only blur it.
            let score = if exact.is_some() { None } else { score };
            Sample { pos, result, score }
        })
        .collect()
}

/// The samples as text: one a line, `FEN;result` or `FEN;result;score`.
pub fn to_text(samples: &[Sample]) -> String {
    let mut s = String::new();
    for x in samples {
        match x.score {
            Some(score) => s.push_str(&format!("{};{};{score}\n", x.pos.to_fen(), x.result)),
            None => s.push_str(&format!("{};{}\n", x.pos.to_fen(), x.result)),
        }
    }
    s
}

/// Reads samples written by [`to_text`]; a bad line is an error naming it.
pub fn parse(text: &str) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default();
        let r = fields.next().ok_or_else(|| format!("line {}: no ';'", i + 1))?;
        let pos = Position::from_fen(fen).map_err(|e| format!("line {}: {e}", i + 1))?;
        let result: f64 = r.trim().parse().map_err(|_| format!("line {}: bad result {r:?}", i + 1))?;
        if !(0.0..=1.0).contains(&result) {
            return Err(format!("line {}: result {result} is not between 0 and 1", i + 1));
        }
        let score = match fields.next() {
            None => None,
            Some(x) => {
                let v: i32 = x.trim().parse().map_err(|_| format!("line {}: bad score {x:?}", i + 1))?;
                if v.abs() > SCORE_CLAMP {
                    return Err(format!("line {}: score {v} is beyond ±{SCORE_CLAMP}", i + 1));
                }
                Some(v)
            }
        };
        if fields.next().is_some() {
            return Err(format!("line {}: more than three fields", i + 1));
        }
        out.push(Sample { pos, result, score });
    }
    Ok(out)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the weights `w` on the feature rows, with scale `k`.
fn loss(rows: &[([f64; FEATURES], f64)], w: &[f64; FEATURES], k: f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(f, r)| {
            let e: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
            (r - sigmoid(k * e / PIECE as f64)).powi(2)
        })
        .sum();
    sum / rows.len().max(1) as f64
}

/// The result of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The scale of the logistic.
    pub k: f64,
    /// The loss with the starting weights.
    pub loss_before: f64,
    /// The loss with the fitted weights.
    pub loss_after: f64,
    /// The fitted weights, rounded.
    pub weights: [i32; FEATURES],
}

/// Fits `K` with the weights `start` to the game results, then the weights marked in `free` (never the first,
/// material, which keeps the scale) by `iterations` steps of Adam on the whole set. The target of a sample with a
/// search score is `lambda · result + (1 − lambda) · σ(K · score / 100)`: the score through the same logistic
/// as the evaluation, so that `lambda = 0` fits the static evaluation to the search's verdict and `lambda = 1`
/// to the results alone. Weights whose feature is zero in every sample stay where they start.
pub fn fit(
    samples: &[Sample],
    start: [i32; FEATURES],
    free: [bool; FEATURES],
    iterations: usize,
    lambda: f64,
    mut progress: impl FnMut(usize, f64),
) -> Fit {
    let mut rows: Vec<([f64; FEATURES], f64)> =
        samples.iter().map(|s| (features(&s.pos).map(f64::from), s.result)).collect();
    let mut w = start.map(f64::from);
    // K by a scan and a golden-section refinement: the loss is smooth and unimodal in K.
    let (mut lo, mut hi) = (0.01, 3.0);
    for _ in 0..60 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if loss(&rows, &w, m1) < loss(&rows, &w, m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let k = (lo + hi) / 2.0;
    let lambda = lambda.clamp(0.0, 1.0);
    for (row, s) in rows.iter_mut().zip(samples) {
        if let Some(score) = s.score {
            row.1 = lambda * s.result + (1.0 - lambda) * sigmoid(k * f64::from(score) / PIECE as f64);
        }
    }
    let loss_before = loss(&rows, &w, k);
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (b1, b2, lr) = (0.9, 0.999, 0.5);
    let n = rows.len().max(1) as f64;
    for it in 1..=iterations {
        let mut grad = [0.0; FEATURES];
        for (f, r) in &rows {
            let e: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let s = sigmoid(k * e / PIECE as f64);
            let common = -2.0 * (r - s) * s * (1.0 - s) * k / PIECE as f64;
            for j in 0..FEATURES {
                grad[j] += common * f[j];
            }
        }
        for j in (1..FEATURES).filter(|&j| free[j]) {
            let g = grad[j] / n;
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - f64::powi(b1, it as i32));
            let vh = v[j] / (1.0 - f64::powi(b2, it as i32));
            w[j] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if it % 100 == 0 {
            progress(it, loss(&rows, &w, k));
        }
    }
    let weights = w.map(|x| x.round() as i32);
    let loss_after = loss(&rows, &weights.map(f64::from), k);
    Fit { k, loss_before, loss_after, weights }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_antisymmetric_where_they_should_be() {
        // The same pieces with the other side to move: material, points and mobility change sign.
        let p = Position::from_fen("9/2B3B2/1B1W1W1B1/2W3W2/9 w").unwrap();
        let q = Position::from_fen("9/2B3B2/1B1W1W1B1/2W3W2/9 b").unwrap();
        let (fp, fq) = (features(&p), features(&q));
        for j in [0, 1, 2, 9, 10, 11] {
            assert_eq!(fp[j], -fq[j], "feature {}", FEATURE_NAMES[j]);
        }
        // The enemy's captures count where the side to move cannot capture, its own where it can.
        for fen in ["9/2B3B2/1B1W1W1B1/2W3W2/9 w", "9/2B3B2/1B1W1W1B1/2W3W2/9 b", "9/4B4/9/2W3W2/9 w", "B8/9/9/9/WW7 b"]
        {
            let p = Position::from_fen(fen).unwrap();
            let f = features(&p);
            let enemy = p.opponent_capture_summary();
            let own = p.null_move().unwrap().opponent_capture_summary();
            if p.has_capture() {
                assert_eq!(f[4..9], [0, 0, 0, own.0 as i32, own.1 as i32], "{fen}");
                assert!(own.0 > 0, "{fen}");
            } else {
                assert_eq!(f[4..9], [enemy.0 as i32, enemy.1 as i32, enemy.2 as i32, 0, 0], "{fen}");
            }
        }
    }

    #[test]
    fn relabelling_scores_each_position_alone_and_keeps_results_and_table_labels() {
        let quiet = Position::from_fen("B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW w").unwrap();
        // A sample the tablebase labelled (no search score) stays as it is.
        let won = Position::from_fen("9/4B4/9/2W3W2/9 b").unwrap();
        let samples = vec![
            Sample { pos: quiet, result: 0.5, score: Some(0) },
            Sample { pos: won, result: 1.0, score: None },
            Sample { pos: quiet, result: 1.0, score: Some(900) },
        ];
        let one = relabel(&samples, "max", 3000, 1, |_| {}).unwrap();
        let two = relabel(&samples, "max", 3000, 2, |_| {}).unwrap();
        assert_eq!(one, two, "the scores do not depend on the threads");
        // The same position gets the same score whatever came before it; results and table labels stay.
        assert_eq!(one[0].score, one[2].score);
        let fresh = Searcher::new(4).search(&quiet, &[], Limits::nodes(3000), |_| {}).score;
        assert_eq!(one[0].score, Some(fresh.clamp(-SCORE_CLAMP, SCORE_CLAMP)));
        assert_eq!((one[0].result, one[2].result), (0.5, 1.0));
        assert_eq!(one[1], samples[1]);
        assert!(relabel(&samples, "max,bogus", 100, 1, |_| {}).is_err());
    }

    #[test]
    fn samples_round_trip_and_bad_lines_are_rejected() {
        let pos = Position::from_fen("9/4B4/9/2W3W2/9 w").unwrap();
        let s = vec![Sample { pos, result: 1.0, score: None }, Sample { pos, result: 0.5, score: Some(-120) }];
        assert_eq!(parse(&to_text(&s)).unwrap(), s);
        assert!(parse("9/4B4/9/2W3W2/9 w").is_err());
        assert!(parse("9/4B4/9/2W3W2/9 w;1;x").is_err());
        assert!(parse("9/4B4/9/2W3W2/9 w;1;5000").is_err(), "a score beyond the clamp");
        assert!(parse("9/4B4/9/2W3W2/9 w;1;10;3").is_err());
        assert!(parse("9/4B4/9/2W3W2/9 w;2").is_err());
        assert!(parse("not a fen;1").is_err());
    }

    #[test]
    fn the_committed_data_set_loads() {
        let samples = parse(include_str!("../data/tune-selfplay.txt")).unwrap();
        assert!(samples.len() > 40_000, "{}", samples.len());
        assert!(samples.iter().filter(|s| s.score.is_some()).count() > 20_000);
    }

    #[test]
    fn the_fit_learns_that_material_wins() {
        // Samples where the side ahead in material won: the fit keeps material decisive and lowers the loss.
        let mut samples = Vec::new();
        for fen in ["9/4B4/9/2W3W2/9 w", "9/9/9/2W1W1W2/4B4 w", "B8/9/9/9/WW7 w"] {
            samples.push(Sample { pos: Position::from_fen(fen).unwrap(), result: 1.0, score: None });
        }
        for fen in ["9/4B4/9/2W3W2/9 b", "9/9/9/2W1W1W2/4B4 b", "B8/9/9/9/WW7 b"] {
            samples.push(Sample { pos: Position::from_fen(fen).unwrap(), result: 0.0, score: None });
        }
        let mut free = [true; FEATURES];
        free[1] = false;
        let f = fit(&samples, TUNED_WEIGHTS, free, 200, 1.0, |_, _| {});
        assert!(f.loss_after <= f.loss_before + 1e-9, "{f:?}");
        assert_eq!((f.weights[0], f.weights[1]), (TUNED_WEIGHTS[0], TUNED_WEIGHTS[1]), "fixed weights stay");
    }
}
