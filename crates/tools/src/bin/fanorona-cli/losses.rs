//! `losses` and `suite`: the turn that lost each of a set of games, found by a deep search and written as a suite,
//! and the runner that scores an engine on such a suite.

use clap::Args;
use fanorona_engine::Side;
use fanorona_engine::levels::FULL_STRENGTH;
use fanorona_engine::search::Limits;
use fanorona_tools::losses::{self, Entry};
use std::path::PathBuf;

/// Whose turns to analyse.
#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WhoArg {
    /// The side that lost each game (draws are skipped).
    Loser,
    /// White in every game.
    White,
    /// Black in every game.
    Black,
}

/// A fixed depth or a time per position; the depth wins when both are given.
pub(crate) fn limits(depth: Option<u32>, time: Option<u64>) -> Result<Limits, String> {
    match (depth, time) {
        (Some(d), _) => Ok(Limits::depth(d)),
        (None, Some(ms)) => Ok(Limits::movetime(ms)),
        (None, None) => Err("give --depth N or --time MS".into()),
    }
}

/// The arguments of `fanorona-cli losses`.
#[derive(Args)]
pub(crate) struct LossesArgs {
    /// Files of games: records, game logs of `sprt --games` or `match --games`, or `selfplay` output.
    #[arg(long, num_args = 1.., required = true)]
    games: Vec<PathBuf>,
    /// Whose turns to search.
    #[arg(long, value_enum, default_value_t = WhoArg::Loser)]
    side: WhoArg,
    /// Depth of the deep search (whole turns); deterministic.
    #[arg(long)]
    depth: Option<u32>,
    /// Time of the deep search per position, in milliseconds (when no depth is given).
    #[arg(long)]
    time: Option<u64>,
    /// Leave out each game's first turns (a random or book opening nobody chose).
    #[arg(long, default_value_t = 0)]
    skip_turns: usize,
    /// Keep a game's position only when the evaluation fell at least this much (hundredths of a piece).
    #[arg(long, default_value_t = 50)]
    min_drop: i32,
    /// Search options of the deep search (see `sprt`).
    #[arg(long, default_value = FULL_STRENGTH)]
    engine: String,
    /// Transposition table of the deep search, in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// The suite file to write.
    #[arg(long)]
    out: PathBuf,
}

impl LossesArgs {
    /// Finds each game's worst turn by a deep search and writes the suite.
    pub(crate) fn run(self) -> Result<(), String> {
        let limits = limits(self.depth, self.time)?;
        let mut s = losses::searcher(&self.engine, self.hash)?;
        let mut entries: Vec<Entry> = Vec::new();
        let mut analysed = 0;
        // Random openings repeat, and so do the games played from them: each game and each position once.
        let mut seen: Vec<(fanorona_engine::Position, Vec<fanorona_engine::Turn>)> = Vec::new();
        for path in &self.games {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
            for game in losses::read_games(&text, &name)? {
                let side = match self.side {
                    WhoArg::White => Side::White,
                    WhoArg::Black => Side::Black,
                    WhoArg::Loser => match game.loser {
                        Some(side) => side,
                        None => continue,
                    },
                };
                if seen.iter().any(|(start, turns)| *start == game.start && *turns == game.turns) {
                    out!("{}: the same game as an earlier one, skipped", game.source);
                    continue;
                }
                seen.push((game.start, game.turns.clone()));
                analysed += 1;
                let drop = losses::find_drop(&game, side, self.skip_turns, |pos, history| {
                    losses::deep_verdict(&mut s, pos, history, limits).0
                });
                match drop {
                    Some(d) if entries.iter().any(|e| e.position == d.position) => {
                        out!("{}: turn {} is a position of the suite already", game.source, d.turn_index + 1)
                    }
                    Some(d) if d.fall() >= self.min_drop => {
                        let Some(e) = losses::suite_entry(&mut s, &d, &game.source, limits) else {
                            out!(
                                "{}: turn {} is the deep search's own without the game's history",
                                game.source,
                                d.turn_index + 1
                            );
                            continue;
                        };
                        out!(
                            "{}: turn {} {} played {} (best {}), {} -> {}",
                            game.source,
                            d.turn_index + 1,
                            side,
                            d.played,
                            e.best,
                            e.score,
                            d.after
                        );
                        entries.push(e);
                    }
                    Some(d) => out!("{}: largest fall {} below --min-drop", game.source, d.fall()),
                    None => out!("{}: the deep search would have played every turn of {side} itself", game.source),
                }
            }
        }
        let header = format!(
            "# Loss suite: FEN | best | score | played | drop | source (docs/cli.md)\n# fanorona-cli losses, {} games analysed, {} positions; deep search {} with `{}`\n",
            analysed,
            entries.len(),
            limits_text(self.depth, self.time),
            self.engine
        );
        let body: String = entries.iter().map(|e| format!("{e}\n")).collect();
        std::fs::write(&self.out, header + &body).map_err(|e| format!("cannot write {}: {e}", self.out.display()))?;
        out!("{} positions from {analysed} games written to {}", entries.len(), self.out.display());
        Ok(())
    }
}

/// The search limit of `--depth`/`--time` as a summary line writes it.
pub(crate) fn limits_text(depth: Option<u32>, time: Option<u64>) -> String {
    match (depth, time) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms"),
        (None, None) => String::new(),
    }
}

/// The arguments of `fanorona-cli suite`.
#[derive(Args)]
pub(crate) struct SuiteArgs {
    /// The suite file (as `losses` writes it).
    suite: PathBuf,
    /// Depth of each search (whole turns); deterministic.
    #[arg(long)]
    depth: Option<u32>,
    /// Time per position, in milliseconds (when no depth is given).
    #[arg(long)]
    time: Option<u64>,
    /// Search options (see `sprt`).
    #[arg(long, default_value = FULL_STRENGTH)]
    engine: String,
    /// Transposition table, in MB (the same as `losses`', so that the depth that made a suite answers it).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// A line for every position, not only the totals.
    #[arg(long)]
    verbose: bool,
}

impl SuiteArgs {
    /// Searches every position and reports how many the engine answers with the suite's best turn.
    pub(crate) fn run(self) -> Result<(), String> {
        let limits = limits(self.depth, self.time)?;
        let text =
            std::fs::read_to_string(&self.suite).map_err(|e| format!("cannot read {}: {e}", self.suite.display()))?;
        let entries = losses::parse_suite(&text)?;
        let mut s = losses::searcher(&self.engine, self.hash)?;
        let verbose = self.verbose;
        let score = losses::run_suite(&entries, &mut s, limits, |i, e, a| {
            if verbose {
                let turn = a.turn.as_ref().map_or("none".to_string(), |t| t.to_string());
                let mark = if a.solved {
                    "best"
                } else if a.repeated {
                    "LOST"
                } else {
                    "other"
                };
                out!("{} {mark} {turn} ({}) nodes {} [{}]", i + 1, a.score, a.nodes, e.source);
            }
        });
        out!(
            "suite {}: {} of {} best ({:.1}%), {} the losing turn, {} nodes, {:.2} s",
            self.suite.display(),
            score.solved,
            score.positions,
            100.0 * score.solved as f64 / score.positions.max(1) as f64,
            score.repeated,
            score.nodes,
            score.elapsed.as_secs_f64()
        );
        Ok(())
    }
}
