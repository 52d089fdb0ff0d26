//! `perft`, `moves` and `apply`: counting, listing and playing legal turns.

use crate::args::PositionArgs;
use clap::Args;
use fanorona_engine::Turn;

/// The arguments of `fanorona-cli perft`.
#[derive(Args)]
pub(crate) struct PerftArgs {
    /// Number of turns.
    depth: u32,
    #[command(flatten)]
    pos: PositionArgs,
    /// Count single steps (a relay stop is a step) instead of whole turns.
    #[arg(long)]
    steps: bool,
    /// Print the count below each legal turn at DEPTH.
    #[arg(long)]
    divide: bool,
}

impl PerftArgs {
    /// Turn-level perft: prints `<depth> <count>` for every depth 1..=DEPTH.
    pub(crate) fn run(self) -> Result<(), String> {
        let PerftArgs { depth, pos, steps, divide } = self;
        let p = pos.position()?;
        if divide {
            let mut turns = p.legal_turns();
            turns.sort_by_cached_key(|t| t.to_string());
            let mut total = 0;
            for t in turns {
                let mut c = p;
                c.play_turn(&t).map_err(|e| e.to_string())?;
                let n = if depth <= 1 { 1 } else { c.perft(depth - 1) };
                total += n;
                out!("{t}: {n}");
            }
            out!("total {total}");
            return Ok(());
        }
        for d in 1..=depth {
            let n = if steps { p.perft_steps(d) } else { p.perft(d) };
            out!("{d} {n}");
        }
        Ok(())
    }
}

/// The arguments of `fanorona-cli moves`.
#[derive(Args)]
pub(crate) struct MovesArgs {
    #[command(flatten)]
    pos: PositionArgs,
}

impl MovesArgs {
    /// Every legal turn, one per line, in turn notation.
    pub(crate) fn run(self) -> Result<(), String> {
        let MovesArgs { pos } = self;
        let p = pos.position()?;
        let mut turns: Vec<String> = p.legal_turns().iter().map(|t| t.to_string()).collect();
        turns.sort();
        for t in turns {
            out!("{t}");
        }
        Ok(())
    }
}

/// The arguments of `fanorona-cli apply`.
#[derive(Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// The turn in turn notation, e.g. "d3-e3A e3-e4W" (one argument or several).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    turn: Vec<String>,
}

impl ApplyArgs {
    /// Prints the position after a turn as FEN; an illegal turn exits with code 2.
    pub(crate) fn run(self) -> Result<(), String> {
        let ApplyArgs { pos, turn } = self;
        let mut p = pos.position()?;
        let text = turn.join(" ");
        let t: Turn = text.parse().map_err(|e| format!("{e}"))?;
        p.play_turn(&t).map_err(|e| format!("illegal turn {text:?}: {e}"))?;
        out!("{}", p.to_fen());
        Ok(())
    }
}
