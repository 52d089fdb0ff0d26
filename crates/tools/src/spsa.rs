//! SPSA tuning of numeric search and evaluation options by self-play, as fishtest tunes Stockfish's parameters.
//!
//! Simultaneous perturbation stochastic approximation: each iteration moves every parameter by ±c_k at once (a
//! random sign each), plays one opening of the book with both colours between the two perturbed engines, and
//! steps every parameter along its sign by the pair's result. All parameters are tuned together from one game
//! pair per iteration, where tuning them one by one would take one match per value. The gains follow fishtest's
//! schedule, with its parameter line (`name,start,min,max,c_end,r_end`): c_k falls to `c_end` and the step's
//! rate to `r_end` at the last iteration.

use crate::sprt::{self, Config, Engine, Openings};
use fanorona_engine::search::{Limits, Searcher};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The exponent of the step's decay (fishtest's α).
const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay (fishtest's γ).
const GAMMA: f64 = 0.101;

/// One tuned parameter: a search option that takes a whole number (`name=N`).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The option's name, as [`Searcher::configure`] reads it.
    pub name: String,
    /// Its value at the start.
    pub start: f64,
    /// The least value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The perturbation at the last iteration, in the parameter's units.
    pub c_end: f64,
    /// The step's rate at the last iteration (the step is `r_k · c_k · result`).
    pub r_end: f64,
}

impl std::str::FromStr for Param {
    type Err = String;

    /// `name,start,min,max,c_end,r_end`, fishtest's line.
    fn from_str(s: &str) -> Result<Param, String> {
        let fields: Vec<&str> = s.split(',').map(str::trim).collect();
        let [name, start, min, max, c_end, r_end] = fields[..] else {
            return Err(format!("{s:?}: a parameter is name,start,min,max,c_end,r_end"));
        };
        let number = |what: &str, v: &str| -> Result<f64, String> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("{s:?}: {what} {v:?} is not a number"))
        };
        let p = Param {
            name: name.to_string(),
            start: number("start", start)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        if !(p.min <= p.start && p.start <= p.max) {
            return Err(format!("{s:?}: start must lie within min..=max"));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(format!("{s:?}: c_end and r_end must be positive"));
        }
        let probe = format!("{}={}", p.name, p.start.round() as i64);
        Searcher::new(1).configure(&probe).map_err(|e| format!("{s:?}: {e}"))?;
        Ok(p)
    }
}

/// The gains of iteration `k` (from 1) of `n` for `p`: the perturbation c_k and the step's rate r_k.
pub fn gains(p: &Param, k: usize, n: usize) -> (f64, f64) {
    let (k, n) = (k.max(1) as f64, n.max(1) as f64);
    let big_a = 0.1 * n;
    let c = p.c_end * n.powf(GAMMA);
    let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA);
    let c_k = c / k.powf(GAMMA);
    let a_k = a / (big_a + k).powf(ALPHA);
    (c_k, a_k / (c_k * c_k))
}

/// Rounds `x` to a whole number up or down at random, in proportion to its nearness (so that the engines see the
/// fractional part on average).
fn round_randomly(x: f64, rng: &mut impl Rng) -> i64 {
    let floor = x.floor();
    floor as i64 + i64::from(rng.random::<f64>() < x - floor)
}

/// How a tuning run is played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The search options both engines share (e.g. `max,net`); the parameters come after them.
    pub base: String,
    /// The tuned parameters.
    pub params: Vec<Param>,
    /// Iterations: one game pair each.
    pub pairs: usize,
    /// The search limits of every turn.
    pub limits: Limits,
    /// Pairs played at once.
    pub threads: usize,
    /// A game still going after this many turns is a draw.
    pub max_turns: usize,
    /// Transposition table of each engine, in MB.
    pub tt_megabytes: usize,
    /// Seed of the perturbations and of the openings' order.
    pub seed: u64,
}

/// The options of an engine with `values` for `params` after `base`.
pub fn spec(base: &str, params: &[Param], values: &[i64]) -> String {
    let mut s = base.trim().trim_end_matches(',').to_string();
    for (p, v) in params.iter().zip(values) {
        if !s.is_empty() {
            s.push(',');
        }
        s.push_str(&format!("{}={v}", p.name));
    }
    s
}

/// One iteration's update: every parameter steps by `r_k · c_k · result` along its sign, within its bounds.
/// `result` is the plus engine's wins less its losses over the pair (−2 to 2).
pub fn update(theta: &mut [f64], params: &[Param], signs: &[f64], k: usize, n: usize, result: f64) {
    for ((t, p), s) in theta.iter_mut().zip(params).zip(signs) {
        let (c_k, r_k) = gains(p, k, n);
        *t = (*t + r_k * c_k * result * s).clamp(p.min, p.max);
    }
}

/// Runs the tuning over `book` (its openings in an order drawn from the seed); `report` sees the iterations done
/// and the values after each pair. Returns the final values.
pub fn run(s: &Settings, book: &Openings, mut report: impl FnMut(usize, &[f64])) -> Result<Vec<f64>, String> {
    if book.openings.is_empty() {
        return Err("the book has no openings".into());
    }
    let theta = Mutex::new(s.params.iter().map(|p| p.start).collect::<Vec<f64>>());
    let next = AtomicUsize::new(1);
    let (tx, rx) = std::sync::mpsc::channel::<Vec<f64>>();
    let failure = Mutex::new(None::<String>);
    let mut order: Vec<usize> = (0..book.openings.len()).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(s.seed));
    std::thread::scope(|scope| {
        for _ in 0..s.threads.max(1) {
            let tx = tx.clone();
            let (theta, next, failure, order) = (&theta, &next, &failure, &order);
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k > s.pairs || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    let mut rng = SmallRng::seed_from_u64(s.seed ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let signs: Vec<f64> =
                        s.params.iter().map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect();
                    let now = theta.lock().map(|t| t.clone()).unwrap_or_default();
                    let side = |sign: f64, rng: &mut SmallRng| -> Vec<i64> {
                        s.params
                            .iter()
                            .zip(&now)
                            .zip(&signs)
                            .map(|((p, t), d)| {
                                let (c_k, _) = gains(p, k, s.pairs);
                                round_randomly((t + sign * c_k * d).clamp(p.min, p.max), rng)
                            })
                            .collect()
                    };
                    let (plus, minus) = (side(1.0, &mut rng), side(-1.0, &mut rng));
                    let result = match play_pair(s, book, order[(k - 1) % order.len()], &plus, &minus, k as u64) {
                        Ok(r) => r,
                        Err(e) => {
                            if let Ok(mut f) = failure.lock() {
                                f.get_or_insert(e);
                            }
                            break;
                        }
                    };
                    let after = match theta.lock() {
                        Ok(mut t) => {
                            update(&mut t, &s.params, &signs, k, s.pairs, result);
                            t.clone()
                        }
                        Err(_) => break,
                    };
                    if tx.send(after).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (done, values) in rx.iter().enumerate() {
            report(done + 1, &values);
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    theta.into_inner().map_err(|_| "a tuning thread panicked".to_string())
}

/// The plus engine's wins less its losses over opening `n` played with both colours.
fn play_pair(s: &Settings, book: &Openings, n: usize, plus: &[i64], minus: &[i64], seed: u64) -> Result<f64, String> {
    let cfg = Config {
        a: Engine::Search(spec(&s.base, &s.params, plus)),
        b: Engine::Search(spec(&s.base, &s.params, minus)),
        limits: s.limits,
        limits_b: None,
        elo0: 0.0,
        elo1: 0.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: 1,
        threads: 1,
        max_turns: s.max_turns,
        tt_megabytes: s.tt_megabytes,
    };
    let mut players = [cfg.a.player(s.tt_megabytes)?, cfg.b.player(s.tt_megabytes)?];
    let [white, black] = sprt::play_pair(&cfg, book, n, &mut players, seed);
    Ok(2.0 * (white.points + black.points) - 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(line: &str) -> Param {
        line.parse().unwrap()
    }

    #[test]
    fn parameter_lines_are_read_and_checked() {
        let p = param("capgain, 100, 40, 200, 15, 0.002");
        assert_eq!(
            (p.name.as_str(), p.start, p.min, p.max, p.c_end, p.r_end),
            ("capgain", 100.0, 40.0, 200.0, 15.0, 0.002)
        );
        for bad in [
            "capgain,100,40,200,15",
            "capgain,300,40,200,15,0.002",
            "capgain,100,40,200,0,0.002",
            "capgain,x,40,200,15,0.002",
            "nosuchoption,1,0,2,1,0.002",
            "capgain,NaN,40,200,15,0.002",
        ] {
            assert!(bad.parse::<Param>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let p = param("delta,100,30,300,15,0.002");
        let (c, r) = gains(&p, 5000, 5000);
        assert!((c - 15.0).abs() < 1e-9 && (r - 0.002).abs() < 1e-12, "{c} {r}");
        let (c1, r1) = gains(&p, 1, 5000);
        assert!(c1 > c && r1 * c1 > r * c, "early iterations perturb and step further");
        assert_eq!(spec("max,net,", &[p.clone(), param("lmp,3,1,8,1,0.002")], &[120, 4]), "max,net,delta=120,lmp=4");
        assert_eq!(spec("", &[p], &[7]), "delta=7");
    }

    #[test]
    fn random_rounding_keeps_the_mean() {
        let mut rng = SmallRng::seed_from_u64(3);
        let n = 20_000;
        let sum: i64 = (0..n).map(|_| round_randomly(2.25, &mut rng)).sum();
        let mean = sum as f64 / n as f64;
        assert!((mean - 2.25).abs() < 0.02, "{mean}");
        assert_eq!(round_randomly(-1.0, &mut rng), -1);
    }

    /// The update, driven by a noisy game whose expected result favours the engine nearer the optimum (60 for
    /// the first parameter, 10 for the second), brings both from far away to near their optimum, within bounds.
    #[test]
    fn the_update_climbs_a_noisy_objective() {
        let params = [param("capgain,150,0,200,10,0.02"), param("centre,0,-20,20,2,0.02")];
        let best = [60.0, 10.0];
        let strength = |v: &[f64]| -> f64 {
            -v.iter().zip(&best).zip(&params).map(|((x, b), p)| ((x - b) / (p.max - p.min)).powi(2)).sum::<f64>()
        };
        let n = 4000;
        let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
        let mut rng = SmallRng::seed_from_u64(11);
        for k in 1..=n {
            let signs: Vec<f64> = params.iter().map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 }).collect();
            let at = |sign: f64| -> Vec<f64> {
                theta.iter().zip(&params).zip(&signs).map(|((t, p), s)| t + sign * gains(p, k, n).0 * s).collect()
            };
            // A pair's result: +1 or −1 with a chance that leans towards the stronger side, or a draw.
            let edge = (8.0 * (strength(&at(1.0)) - strength(&at(-1.0)))).clamp(-0.24, 0.24);
            let u: f64 = rng.random();
            let result = if u < 0.25 + edge {
                1.0
            } else if u < 0.5 {
                -1.0
            } else {
                0.0
            };
            update(&mut theta, &params, &signs, k, n, result);
            for (t, p) in theta.iter().zip(&params) {
                assert!((p.min..=p.max).contains(t));
            }
        }
        assert!((theta[0] - 60.0).abs() < 20.0, "capgain ended at {}", theta[0]);
        assert!((theta[1] - 10.0).abs() < 4.0, "centre ended at {}", theta[1]);
    }
}
