//! The trainer of the evaluation network ([`fanorona_engine::eval_net`]): examples from labelled positions, the
//! loss, and Adam over mini-batches (`fanorona-cli tune net`).

use fanorona_engine::eval_net::{self, HIDDEN, INPUTS, Net, POINTS, WIDE_INPUTS, wide_inputs};
use fanorona_engine::position::Position;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One training example: the active inputs of a position, the hand-made score of its quiet leaf and the target.
#[derive(Clone, Debug)]
pub struct Example {
    /// Active inputs (side to move's pieces, then the opponent's at `POINTS` further).
    pub inputs: Vec<u16>,
    /// The search's own score of the quiet leaf without the network (hundredths of a piece).
    pub base: f32,
    /// The expectation (0 loss, 1 win) that the logistic of the network plus `base` should predict.
    pub target: f32,
}

/// The four mirror images of a 9 × 5 point (itself, files reversed, ranks reversed, both).
fn mirrors(point: u32) -> [u32; 4] {
    let (x, y) = (point % 9, point / 9);
    [point, y * 9 + (8 - x), (4 - y) * 9 + x, (4 - y) * 9 + (8 - x)]
}

impl Example {
    /// The example of `pos` (9 × 5 only) and its four mirror images, whose target is the expectation of a
    /// search score `score` blended with the game's `result` (1 win, 0.5 draw, 0 loss for the side to move):
    /// `result_weight` 0 learns the score alone, 1 the result alone.
    pub fn with_mirrors(pos: &Position, base: i32, score: i32, result: f64, result_weight: f32) -> Vec<Example> {
        Example::with_mirrors_for(INPUTS, pos, base, score, result, result_weight)
    }

    /// [`Example::with_mirrors`] for a network of `inputs` inputs ([`INPUTS`] or [`WIDE_INPUTS`]).
    pub fn with_mirrors_for(
        inputs: usize,
        pos: &Position,
        base: i32,
        score: i32,
        result: f64,
        result_weight: f32,
    ) -> Vec<Example> {
        let target = (1.0 - result_weight) * sigmoid(score as f32) + result_weight * result as f32;
        let active: Vec<usize> =
            if inputs == WIDE_INPUTS { wide_inputs(pos).collect() } else { eval_net::inputs(pos).collect() };
        (0..4)
            .map(|m| Example {
                inputs: active
                    .iter()
                    .map(|&i| (mirrors((i % POINTS) as u32)[m] as usize + i / POINTS * POINTS) as u16)
                    .collect(),
                base: base as f32,
                target,
            })
            .collect()
    }
}

/// Scale of the loss's logistic: a score of `SCALE` hundredths of a piece is a 73% expectation.
const SCALE: f32 = 200.0;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

/// The mean loss of `net` over `examples`: the squared difference of the predicted and target expectations
/// (logistic of the score), so that a few large scores do not dominate.
pub fn loss(net: &Net, examples: &[Example]) -> f64 {
    let mut total = 0.0f64;
    for e in examples {
        let (out, _) = forward(net, e);
        let d = sigmoid(e.base + out) - e.target;
        total += f64::from(d * d);
    }
    total / examples.len().max(1) as f64
}

fn forward(net: &Net, e: &Example) -> (f32, [f32; HIDDEN]) {
    net.sum(e.inputs.iter().map(|&i| usize::from(i)))
}

/// Settings of [`train`].
#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Passes over the examples.
    pub epochs: usize,
    /// Adam's step size at the start.
    pub rate: f32,
    /// The step size at the end: it falls from `rate` along half a cosine (equal to `rate`: a constant step).
    pub final_rate: f32,
    /// Examples a step.
    pub batch: usize,
    /// Seed of the initial weights and the order of the examples.
    pub seed: u64,
    /// Inputs of the network ([`INPUTS`], or [`WIDE_INPUTS`] for examples made for one).
    pub inputs: usize,
    /// Decay of a running average of the weights, per step (0: none, the last weights are the result; 0.9999:
    /// the average over about the last 10,000 steps is the result).
    pub average: f32,
}

/// Trains a network on `examples` with Adam, starting from small random input weights and zero output weights
/// (a network that adds nothing); `progress` sees each epoch's number and training loss.
pub fn train(examples: &[Example], cfg: TrainConfig, mut progress: impl FnMut(usize, f64)) -> Net {
    let mut rng = SmallRng::seed_from_u64(cfg.seed);
    let inputs = cfg.inputs;
    let mut net = Net::zero(inputs);
    for row in net.w1.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.random_range(-0.1..0.1);
        }
    }
    for b in net.b1.iter_mut() {
        *b = 0.5;
    }
    // Parameters laid out flat for Adam: w1, b1, w2, b2.
    let n = inputs * HIDDEN + 2 * HIDDEN + 1;
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let (b1_at, w2_at, b2_at) = (inputs * HIDDEN, inputs * HIDDEN + HIDDEN, inputs * HIDDEN + 2 * HIDDEN);
    let mut t = 0i32;
    let steps = (cfg.epochs * order.len().div_ceil(cfg.batch.max(1))).max(1) as f32;
    // The noise of the last steps averages out of the running mean of the weights, not out of the weights.
    let mut average = (cfg.average > 0.0).then(|| net.clone());
    for epoch in 0..cfg.epochs {
        for k in (1..order.len()).rev() {
            order.swap(k, rng.random_range(0..=k));
        }
        let mut total = 0.0f64;
        for chunk in order.chunks(cfg.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &k in chunk {
                let e = &examples[k];
                let (out, acc) = forward(&net, e);
                let (p, q) = (sigmoid(e.base + out), e.target);
                total += f64::from((p - q) * (p - q));
                // d loss / d out = 2 (p − q) p (1 − p) / SCALE.
                let g_out = 2.0 * (p - q) * p * (1.0 - p) / SCALE;
                grad[b2_at] += g_out;
                for h in 0..HIDDEN {
                    grad[w2_at + h] += g_out * acc[h].clamp(0.0, 1.0);
                    if acc[h] > 0.0 && acc[h] < 1.0 {
                        let g_h = g_out * net.w2[h];
                        grad[b1_at + h] += g_h;
                        for &i in &e.inputs {
                            grad[i as usize * HIDDEN + h] += g_h;
                        }
                    }
                }
            }
            t += 1;
            // Large steps early find the shape of the fit; small ones late settle it instead of wandering around it.
            let rate = cfg.final_rate
                + (cfg.rate - cfg.final_rate) * 0.5 * (1.0 + (std::f32::consts::PI * (t - 1) as f32 / steps).cos());
            let scale = 1.0 / chunk.len() as f32;
            let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
            let (c1, c2) = (1.0 - beta1.powi(t), 1.0 - beta2.powi(t));
            for j in 0..n {
                let g = grad[j] * scale;
                if g == 0.0 && m[j] == 0.0 {
                    continue;
                }
                m[j] = beta1 * m[j] + (1.0 - beta1) * g;
                v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
                let step = rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                // The output weights are in hundredths of a piece: they move on a scale a hundred times larger.
                let step = if j >= w2_at { step * 100.0 } else { step };
                match j {
                    j if j < b1_at => net.w1[j / HIDDEN][j % HIDDEN] -= step,
                    j if j < w2_at => net.b1[j - b1_at] -= step,
                    j if j < b2_at => net.w2[j - w2_at] -= step,
                    _ => net.b2 -= step,
                }
            }
            if let Some(avg) = average.as_mut() {
                move_towards(avg, &net, 1.0 - cfg.average);
            }
        }
        progress(epoch + 1, total / examples.len().max(1) as f64);
    }
    average.unwrap_or(net)
}

/// Moves every weight of `net` the fraction `k` of the way to `other`'s (a network of as many inputs).
fn move_towards(net: &mut Net, other: &Net, k: f32) {
    let lerp = |a: &mut f32, b: f32| *a += k * (b - *a);
    for (row, theirs) in net.w1.iter_mut().zip(&other.w1) {
        row.iter_mut().zip(theirs).for_each(|(a, &b)| lerp(a, b));
    }
    net.b1.iter_mut().zip(&other.b1).for_each(|(a, &b)| lerp(a, b));
    net.w2.iter_mut().zip(&other.w2).for_each(|(a, &b)| lerp(a, b));
    lerp(&mut net.b2, other.b2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::geometry::Variant;
    use fanorona_engine::rules::Rules;

    #[test]
    fn examples_of_a_wide_network_carry_the_exposed_pieces_mirrored_with_the_board() {
        // White's c3 can be taken by e3-d3A if it were Black's turn.
        let exposed: Position = "9/9/2W1B4/9/9 w".parse().unwrap();
        let c3 = exposed.pieces(fanorona_engine::rules::Side::White);
        let examples = Example::with_mirrors_for(WIDE_INPUTS, &exposed, 0, 0, 0.5, 0.0);
        let g3 = 8 - c3.trailing_zeros() as u16 % 9 + c3.trailing_zeros() as u16 / 9 * 9;
        assert!(examples[0].inputs.contains(&(INPUTS as u16 + c3.trailing_zeros() as u16)));
        assert!(examples[1].inputs.contains(&(INPUTS as u16 + g3)));
        assert!(Example::with_mirrors(&exposed, 0, 0, 0.5, 0.0)[0].inputs.iter().all(|&i| usize::from(i) < INPUTS));
    }

    #[test]
    fn the_evaluation_sees_mirror_images_and_colours_alike_after_training_on_them() {
        // A network trained to add 50 for a side-to-move piece on a corner must add it on every corner.
        let rules = Rules::default();
        let corner: Position = "W8/9/9/9/4B4 w".parse().unwrap();
        let centre: Position = "9/9/4W4/9/B8 w".parse().unwrap();
        let mut examples = Vec::new();
        for _ in 0..50 {
            examples.extend(Example::with_mirrors(&corner, 0, 50, 0.5, 0.0));
            examples.extend(Example::with_mirrors(&centre, 0, -50, 0.5, 0.0));
        }
        let net = train(
            &examples,
            TrainConfig { epochs: 200, rate: 0.01, final_rate: 0.01, batch: 16, seed: 1, inputs: INPUTS, average: 0.0 },
            |_, _| {},
        );
        for fen in ["W8/9/9/9/4B4 w", "8W/9/9/9/4B4 w", "4B4/9/9/9/W8 w", "4B4/9/9/9/8W w", "B8/9/9/9/4W4 b"] {
            let p = Position::from_fen_with_rules(fen, &rules).unwrap();
            let v = net.evaluate(&p);
            assert!((35..=65).contains(&v), "{fen}: {v}");
        }
        let v = net.evaluate(&centre);
        assert!((-65..=-35).contains(&v), "{v}");
        assert!(loss(&net, &examples) < 0.1 * loss(&Net::default(), &examples));
        // The 5 × 5 board gets nothing.
        let dimy = Position::start(&Rules { variant: Variant::Dimy, ..Rules::default() });
        assert_eq!(net.evaluate(&dimy), 0);
    }

    /// One position whose samples say +200 half the time and 0 otherwise: batches disagree, and a training that
    /// settles on their mean (about +100) fits them best.
    fn noisy_samples() -> (Position, Vec<Example>) {
        let p: Position = "W8/9/9/9/4B4 w".parse().unwrap();
        let examples =
            (0..50).flat_map(|k| Example::with_mirrors(&p, 0, if k % 2 == 0 { 200 } else { 0 }, 0.5, 0.0)).collect();
        (p, examples)
    }

    /// `settled` is near the samples' mean and fits them better than `wandering`.
    fn assert_settles(p: &Position, examples: &[Example], settled: &Net, wandering: &Net) {
        assert!((80..=120).contains(&settled.evaluate(p)), "{}", settled.evaluate(p));
        let (a, b) = (loss(settled, examples), loss(wandering, examples));
        assert!(a < b, "{a} {b}");
    }

    #[test]
    fn the_step_size_falls_from_rate_to_final_rate() {
        let (p, examples) = noisy_samples();
        let cfg = |rate: f32, final_rate: f32| TrainConfig {
            epochs: 100,
            rate,
            final_rate,
            batch: 16,
            seed: 1,
            inputs: INPUTS,
            average: 0.0,
        };
        // No step at all: the output weights stay 0 and the network adds nothing.
        assert_eq!(train(&examples, cfg(0.0, 0.0), |_, _| {}).evaluate(&p), 0);
        // A step that falls to a twentieth fits the mean (about +100), closer than a constant step does.
        let decayed = train(&examples, cfg(0.01, 0.0005), |_, _| {});
        let constant = train(&examples, cfg(0.01, 0.01), |_, _| {});
        assert_settles(&p, &examples, &decayed, &constant);
    }

    #[test]
    fn a_running_average_of_the_weights_settles_where_the_last_weights_wander() {
        let (p, examples) = noisy_samples();
        let cfg = |average: f32| TrainConfig {
            epochs: 100,
            rate: 0.01,
            final_rate: 0.01,
            batch: 16,
            seed: 1,
            inputs: INPUTS,
            average,
        };
        let last = train(&examples, cfg(0.0), |_, _| {});
        let averaged = train(&examples, cfg(0.99), |_, _| {});
        // The same steps: only what is returned differs.
        assert_settles(&p, &examples, &averaged, &last);
    }

    #[test]
    fn a_blended_target_moves_between_the_score_and_the_result() {
        let p: Position = "W8/9/9/9/4B4 w".parse().unwrap();
        // A search score of 0 in a game the side to move won: the score alone, the result alone, half of each.
        let at = |weight: f32| Example::with_mirrors(&p, 0, 0, 1.0, weight)[0].target;
        assert_eq!(at(0.0), 0.5);
        assert_eq!(at(1.0), 1.0);
        assert!((at(0.5) - 0.75).abs() < 1e-6);
        // Trained on the result alone, the network adds to the score of a position whose games are won.
        let examples: Vec<Example> = (0..50).flat_map(|_| Example::with_mirrors(&p, 0, 0, 1.0, 0.5)).collect();
        let net = train(
            &examples,
            TrainConfig { epochs: 200, rate: 0.01, final_rate: 0.01, batch: 16, seed: 1, inputs: INPUTS, average: 0.0 },
            |_, _| {},
        );
        // The logistic of 0.75 is 200 · ln 3 ≈ 220 hundredths.
        let v = net.evaluate(&p);
        assert!((180..=260).contains(&v), "{v}");
    }
}
