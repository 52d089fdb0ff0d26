//! `tune gen`, `fit`, `net` and `relabel`: labelled positions from self-play and the fit of the evaluation.

use clap::{Args, Subcommand};
use fanorona_engine::{Side, Variant};
use fanorona_tools::tune;
use std::time::Instant;

/// The commands of `fanorona-cli tune`.
#[derive(Subcommand)]
pub(crate) enum TuneAction {
    /// Plays self-play games and writes labelled quiet positions (`FEN;result`, one a line).
    Gen(GenArgs),
    /// Fits the weights of the tuned evaluation to a file of labelled positions and prints them.
    Fit(FitArgs),
    /// Trains the network of option `net` on labelled positions with search scores (`tune gen` files): the
    /// network learns what the search's score adds to the score of the quiet leaf under `--engine`.
    Net(NetArgs),
    /// Scores the positions of `tune gen` files again with a search of `--nodes` nodes each (a fresh search per
    /// position, so that the file is reproducible), keeping each game's result: deeper labels for `tune net`.
    Relabel(RelabelArgs),
}

/// `fanorona-cli tune`: labels positions, fits the evaluation or its network.
pub(crate) fn run(action: TuneAction) -> Result<(), String> {
    match action {
        TuneAction::Gen(args) => args.run(),
        TuneAction::Fit(args) => args.run(),
        TuneAction::Net(args) => args.run(),
        TuneAction::Relabel(args) => args.run(),
    }
}

/// The arguments of `fanorona-cli tune gen`.
#[derive(Args)]
pub(crate) struct GenArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes a turn.
    #[arg(long, default_value_t = 4000)]
    nodes: u64,
    /// Chance that a quiet position is kept.
    #[arg(long, default_value_t = 0.3)]
    keep: f64,
    /// Search options of both players (see `sprt --a`).
    #[arg(long, default_value = "max")]
    engine: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Output file.
    #[arg(long)]
    out: std::path::PathBuf,
}

impl GenArgs {
    /// Plays self-play games and writes labelled quiet positions (`FEN;result`, one a line).
    pub(crate) fn run(self) -> Result<(), String> {
        let GenArgs { games, nodes, keep, engine, seed, threads, out } = self;
        let t0 = Instant::now();
        // Small endgames are labelled exactly: the shared table (the largest cached one, else 4 pieces).
        let oracle =
            fanorona_engine::tablebase::shared(Variant::Tsivy, fanorona_engine::tablebase::default_dir().as_deref());
        let samples = tune::generate(&engine, games, nodes, keep, seed, threads, Some(oracle), |n| {
            if n % 100 == 0 {
                eprintln!("{n} games, {:.0} s", t0.elapsed().as_secs_f64());
            }
        })?;
        std::fs::write(&out, tune::to_text(&samples)).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        out!(
            "{} positions from {games} games in {:.0} s, written to {}",
            samples.len(),
            t0.elapsed().as_secs_f64(),
            out.display()
        );
        Ok(())
    }
}

/// The arguments of `fanorona-cli tune fit`.
#[derive(Args)]
pub(crate) struct FitArgs {
    /// The labelled positions.
    #[arg(long)]
    data: std::path::PathBuf,
    /// Gradient steps.
    #[arg(long, default_value_t = 2000)]
    iterations: usize,
    /// Indices of the weights to fit, comma-separated (default: all but material, index 0).
    #[arg(long, value_delimiter = ',')]
    free: Vec<usize>,
    /// Starting weights, comma-separated (default: the committed tuned weights).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    start: Vec<i32>,
    /// Weight of the game result in the target of a sample that has a search score (1: results only; 0: the
    /// search's score only).
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Only positions with at least this many pieces (both sides): with the tablebase, full strength never
    /// evaluates the smallest endgames.
    #[arg(long, default_value_t = 0)]
    min_pieces: u32,
}

impl FitArgs {
    /// Fits the weights of the tuned evaluation to a file of labelled positions and prints them.
    pub(crate) fn run(self) -> Result<(), String> {
        let FitArgs { data, iterations, free, start, lambda, min_pieces } = self;
        let mut mask = [free.is_empty(); tune::FEATURES];
        for j in free {
            *mask.get_mut(j).ok_or(format!("weight {j} does not exist (0-{})", tune::FEATURES - 1))? = true;
        }
        let start: [i32; tune::FEATURES] = match start.len() {
            0 => tune::TUNED_WEIGHTS,
            n if (tune::FEATURES - tune::PST_CLASSES..=tune::FEATURES).contains(&n) => {
                // Without the piece-square classes' weights, they start at 0.
                let mut w = [0; tune::FEATURES];
                w[..n].copy_from_slice(&start);
                w
            }
            n => return Err(format!("{n} starting weights for {} features", tune::FEATURES)),
        };
        let text = std::fs::read_to_string(&data).map_err(|e| format!("cannot read {}: {e}", data.display()))?;
        let mut samples = tune::parse(&text).map_err(|e| format!("{}: {e}", data.display()))?;
        samples.retain(|s| s.pos.count(Side::White) + s.pos.count(Side::Black) >= min_pieces);
        let t0 = Instant::now();
        let f = tune::fit(&samples, start, mask, iterations, lambda, |it, loss| {
            if it % 500 == 0 {
                eprintln!("step {it}: loss {loss:.6}");
            }
        });
        out!(
            "{} positions, K {:.4}, loss {:.6} -> {:.6} in {:.1} s",
            samples.len(),
            f.k,
            f.loss_before,
            f.loss_after,
            t0.elapsed().as_secs_f64()
        );
        for (name, (old, new)) in tune::FEATURE_NAMES.iter().zip(start.iter().zip(f.weights)) {
            out!("  {name:<46} {old:>5} -> {new:>5}");
        }
        out!("weights {:?}", f.weights);
        Ok(())
    }
}

/// The arguments of `fanorona-cli tune net`.
#[derive(Args)]
pub(crate) struct NetArgs {
    /// The labelled positions (one or more files).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<std::path::PathBuf>,
    /// Search options whose quiet-leaf score the network corrects (full strength's; without its network).
    #[arg(long, default_value = fanorona_engine::levels::FULL_STRENGTH)]
    engine: String,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// The step size at the end: from `--rate` it falls along half a cosine to this (the same as `--rate` when
    /// not given: a constant step).
    #[arg(long)]
    final_rate: Option<f32>,
    /// Only positions with at least this many pieces (both sides).
    #[arg(long, default_value_t = 7)]
    min_pieces: u32,
    /// How much of each target is the game's result rather than the search score (0 to 1).
    #[arg(long, default_value_t = 0.0)]
    result_weight: f32,
    /// The result is a running average of the weights with this decay a step (below 1; e.g. 0.9999 averages
    /// about the last 10,000 steps of 256 examples), not the last weights.
    #[arg(long)]
    average: Option<f32>,
    /// A wide network: it also sees which of the side to move's pieces the opponent could take next.
    #[arg(long)]
    exposed: bool,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the network.
    #[arg(long)]
    out: std::path::PathBuf,
}

impl NetArgs {
    /// Trains the network of option `net` on labelled positions with search scores (`tune gen` files): the network learns what the search's score adds to the score of the quiet leaf under `--engine`.
    pub(crate) fn run(self) -> Result<(), String> {
        let NetArgs { data, engine, epochs, rate, final_rate, min_pieces, result_weight, average, exposed, seed, out } =
            self;
        use fanorona_engine::eval_net;
        use fanorona_tools::net_train::{self, Example, TrainConfig};
        let inputs = if exposed { eval_net::WIDE_INPUTS } else { eval_net::INPUTS };
        if !(0.0..=1.0).contains(&result_weight) {
            return Err(format!("--result-weight {result_weight}: give a weight from 0 to 1"));
        }
        if let Some(f) = final_rate.filter(|f| !(f.is_finite() && *f >= 0.0 && *f <= rate)) {
            return Err(format!("--final-rate {f}: give a step size from 0 to --rate ({rate})"));
        }
        if let Some(a) = average.filter(|a| !(a.is_finite() && (0.0..1.0).contains(a))) {
            return Err(format!("--average {a}: give a decay from 0 to below 1"));
        }
        let mut searcher = fanorona_engine::search::Searcher::new(1);
        // The network learns a correction of the evaluation without one, whatever network `engine` names.
        searcher.configure(&engine)?;
        searcher.configure("net=0")?;
        let mut samples = Vec::new();
        for path in &data {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            samples.extend(tune::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        samples.retain(|s| s.score.is_some() && s.pos.count(Side::White) + s.pos.count(Side::Black) >= min_pieces);
        if samples.len() < 10 {
            return Err(format!("{} positions with a search score: too few to train on", samples.len()));
        }
        // The last tenth of the positions checks the fit: they come from other games than the rest.
        let split = samples.len() * 9 / 10;
        let examples = |part: &[tune::Sample]| -> Vec<Example> {
            part.iter()
                .flat_map(|s| {
                    let base = searcher.quiet_eval(&s.pos);
                    Example::with_mirrors_for(inputs, &s.pos, base, s.score.unwrap_or(0), s.result, result_weight)
                })
                .collect()
        };
        let (train, check) = (examples(&samples[..split]), examples(&samples[split..]));
        let zero = eval_net::Net::zero(inputs);
        let (zt, zc) = (net_train::loss(&zero, &train), net_train::loss(&zero, &check));
        out!(
            "{} positions ({} examples with mirror images), {} to check; loss without the network: {zt:.6} / {zc:.6}",
            samples.len(),
            train.len(),
            check.len()
        );
        let t0 = Instant::now();
        let cfg = TrainConfig {
            epochs,
            rate,
            final_rate: final_rate.unwrap_or(rate),
            batch: 256,
            seed,
            inputs,
            average: average.unwrap_or(0.0),
        };
        let trained = net_train::train(&train, cfg, |epoch, l| eprintln!("epoch {epoch}: training loss {l:.6}"));
        let (lt, lc) = (net_train::loss(&trained, &train), net_train::loss(&trained, &check));
        out!("trained in {:.1} s: loss {lt:.6} / {lc:.6}", t0.elapsed().as_secs_f64());
        let files: Vec<String> = data.iter().map(|p| p.display().to_string()).collect();
        let blend = if result_weight > 0.0 { format!(" --result-weight {result_weight}") } else { String::new() };
        let blend = if exposed { format!("{blend} --exposed") } else { blend };
        let blend = match final_rate {
            Some(f) => format!(" --final-rate {f}{blend}"),
            None => blend,
        };
        let blend = match average {
            Some(a) => format!("{blend} --average {a}"),
            None => blend,
        };
        let header = format!(
            "The network of option `net` (crates/engine/src/eval_net.rs), trained by\n`fanorona-cli tune net --data {} \
             --epochs {epochs} --rate {rate} --min-pieces {min_pieces}{blend} --seed {seed}`\non {} positions of at \
             least {min_pieces} pieces, correcting `{engine}` without a network:\nloss {zt:.6} -> {lt:.6} (training), {zc:.6} -> \
             {lc:.6} (the last tenth, held out).",
            files.join(" "),
            samples.len()
        );
        std::fs::write(&out, trained.to_text(&header)).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        Ok(())
    }
}

/// The arguments of `fanorona-cli tune relabel`.
#[derive(Args)]
pub(crate) struct RelabelArgs {
    /// The labelled positions.
    #[arg(long)]
    data: std::path::PathBuf,
    /// Search options of the new scores.
    #[arg(long, default_value = fanorona_engine::levels::FULL_STRENGTH)]
    engine: String,
    /// Nodes a position.
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    /// Only positions with at least this many pieces (both sides); the others are left out.
    #[arg(long, default_value_t = 7)]
    min_pieces: u32,
    /// Threads (the scores do not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Where to write the relabelled positions.
    #[arg(long)]
    out: std::path::PathBuf,
}

impl RelabelArgs {
    /// Scores the positions of `tune gen` files again with a search of `--nodes` nodes each (a fresh search per position, so that the file is reproducible), keeping each game's result: deeper labels for `tune net`.
    pub(crate) fn run(self) -> Result<(), String> {
        let RelabelArgs { data, engine, nodes, min_pieces, threads, out } = self;
        let text = std::fs::read_to_string(&data).map_err(|e| format!("cannot read {}: {e}", data.display()))?;
        let mut samples = tune::parse(&text).map_err(|e| format!("{}: {e}", data.display()))?;
        samples.retain(|s| s.pos.count(Side::White) + s.pos.count(Side::Black) >= min_pieces);
        let t0 = Instant::now();
        let total = samples.len();
        let relabelled = tune::relabel(&samples, &engine, nodes, threads, |n| {
            if n % 10_000 == 0 {
                eprintln!("{n} of {total} positions, {:.0} s", t0.elapsed().as_secs_f64());
            }
        })?;
        let header = format!(
            "# The positions of {} with at least {min_pieces} pieces, scored again by\n# `fanorona-cli tune \
             relabel --nodes {nodes} --min-pieces {min_pieces} --engine {engine}` (a fresh search of each \
             position).\n",
            data.display()
        );
        std::fs::write(&out, format!("{header}{}", tune::to_text(&relabelled)))
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        out!("{total} positions scored again in {:.0} s, written to {}", t0.elapsed().as_secs_f64(), out.display());
        Ok(())
    }
}
