//! `tablebase build`, `probe` and `sample`: endgame tables from the command line.

use crate::args::VariantArg;
use clap::{Args, Subcommand, ValueEnum};
use fanorona_engine::tablebase::{self, Tablebase};
use fanorona_engine::{Position, Variant};
use std::time::{Duration, Instant};

/// The commands of `fanorona-cli tablebase`.
#[derive(Subcommand)]
pub(crate) enum TbAction {
    /// Builds the table for up to N pieces, reports progress, and caches it to disk.
    Build(BuildArgs),
    /// Prints the exact value of a position and a turn that keeps it.
    Probe(ProbeArgs),
    /// Prints random quiet 9 × 5 positions of given material and value as an endgame book for `sprt --book`
    /// (`fen` lines): for example drawn 2 v 2 endings, to measure how an engine sets traps in a drawn ending.
    Sample(SampleArgs),
}

/// The value `tablebase sample` looks for.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub(crate) enum ValueArg {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

/// `fanorona-cli tablebase`: builds, probes or samples a table.
pub(crate) fn run(action: TbAction) -> Result<(), String> {
    match action {
        TbAction::Build(args) => args.run(),
        TbAction::Probe(args) => args.run(),
        TbAction::Sample(args) => args.run(),
    }
}

/// The arguments of `fanorona-cli tablebase build`.
#[derive(Args)]
pub(crate) struct BuildArgs {
    /// Most pieces in total (both sides).
    #[arg(long, default_value_t = 5)]
    pieces: u32,
    /// Board.
    #[arg(long, value_enum, default_value_t = VariantArg::Tsivy)]
    variant: VariantArg,
    /// Cache folder (default: $FANORONA_TB_DIR, else the platform's cache folder, ~/.cache/fanorona on Linux).
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
    /// Build in memory only, on one thread, in slices of this many milliseconds as the web page does between
    /// frames (nothing is cached), and report the slices: how long a frame can lose to the build.
    #[arg(long)]
    slice_ms: Option<u64>,
}

impl BuildArgs {
    /// Builds the table for up to N pieces, reports progress, and caches it to disk.
    pub(crate) fn run(self) -> Result<(), String> {
        let BuildArgs { pieces, variant, dir, slice_ms } = self;
        let variant = match variant {
            VariantArg::Tsivy => Variant::Tsivy,
            VariantArg::Dimy => Variant::Dimy,
        };
        if let Some(ms) = slice_ms {
            if pieces > fanorona_engine::tablebase::MAX_PIECES {
                return Err(format!("tablebases go up to {} pieces", fanorona_engine::tablebase::MAX_PIECES));
            }
            let t0 = Instant::now();
            let mut build = fanorona_engine::tablebase::SlicedBuild::new(variant, pieces);
            let mut calls = 0u64;
            while !build.run_for(Duration::from_millis(ms)) {
                calls += 1;
            }
            let (slices, longest) = build.slices();
            let tb = build.finish().ok_or("the sliced build did not finish")?;
            out!(
                "{variant} board, up to {pieces} pieces, in slices of {ms} ms: {} entries in {:.2} s, {} calls, \
                 {slices} slices of work, the longest {:.2} ms",
                tb.entries(),
                t0.elapsed().as_secs_f64(),
                calls + 1,
                longest.as_secs_f64() * 1000.0
            );
            return Ok(());
        }
        let dir = folder(dir)?;
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let t0 = Instant::now();
        let tb = Tablebase::load_or_build(&dir, variant, pieces, |m| out!("{m}")).map_err(|e| e.to_string())?;
        out!(
            "{} board, up to {pieces} pieces: {} entries, ready in {:.1} s, cached in {}",
            variant,
            tb.entries(),
            t0.elapsed().as_secs_f64(),
            dir.join(Tablebase::file_name(variant, pieces)).display()
        );
        if let Some((d, p)) = tb.longest_win() {
            out!("longest win: {d} turns, e.g. {p}");
        }
        Ok(())
    }
}

/// The arguments of `fanorona-cli tablebase probe`.
#[derive(Args)]
pub(crate) struct ProbeArgs {
    /// The position.
    #[arg(long)]
    fen: String,
    /// Most pieces of the table to use.
    #[arg(long, default_value_t = 5)]
    pieces: u32,
    /// Cache folder (default: $FANORONA_TB_DIR, else the platform's cache folder, ~/.cache/fanorona on Linux).
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
}

impl ProbeArgs {
    /// Prints the exact value of a position and a turn that keeps it.
    pub(crate) fn run(self) -> Result<(), String> {
        let ProbeArgs { fen, pieces, dir } = self;
        let p = Position::from_fen(&fen).map_err(|e| e.to_string())?;
        let dir = folder(dir)?;
        let tb =
            Tablebase::load_or_build(&dir, p.variant(), pieces, |m| eprintln!("{m}")).map_err(|e| e.to_string())?;
        match (tb.probe(&p), tb.best_turn(&p)) {
            (Some(v), Some((t, _))) => out!("{v} (best turn {t})"),
            (Some(v), None) => out!("{v}"),
            (None, _) => return Err(format!("the table covers up to {pieces} pieces")),
        }
        Ok(())
    }
}

/// The arguments of `fanorona-cli tablebase sample`.
#[derive(Args)]
pub(crate) struct SampleArgs {
    /// Material: the side to move's pieces, `v`, the opponent's (`2v2`, `3v2`).
    #[arg(long)]
    material: String,
    /// The value for the side to move.
    #[arg(long, value_enum, default_value_t = ValueArg::Draw)]
    value: ValueArg,
    /// How many positions.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Seed of the random placement.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Cache folder (default: $FANORONA_TB_DIR, else the platform's cache folder, ~/.cache/fanorona on Linux).
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
}

impl SampleArgs {
    /// Prints random quiet 9 × 5 positions of given material and value as an endgame book for `sprt --book` (`fen` lines): for example drawn 2 v 2 endings, to measure how an engine sets traps in a drawn ending.
    pub(crate) fn run(self) -> Result<(), String> {
        let SampleArgs { material, value, count, seed, dir } = self;
        let bad = || format!("material {material:?}: write the two sides' pieces as 2v2 or 3v1");
        let (own, other) = material.split_once(['v', 'V']).ok_or_else(bad)?;
        let (own, other): (u32, u32) =
            (own.trim().parse().map_err(|_| bad())?, other.trim().parse().map_err(|_| bad())?);
        if own == 0 || own + other > tablebase::SHARED_MAX_PIECES {
            return Err(format!(
                "material {material:?}: the side to move needs a piece, and tables go up to {} pieces",
                tablebase::SHARED_MAX_PIECES
            ));
        }
        let dir = folder(dir)?;
        let tb = Tablebase::load_or_build(&dir, Variant::Tsivy, (own + other).max(tablebase::QUICK_PIECES), |m| {
            eprintln!("{m}")
        })
        .map_err(|e| e.to_string())?;
        let (want, name, verb) = match value {
            ValueArg::Win => (tablebase::ValueKind::Win, "win", "wins"),
            ValueArg::Draw => (tablebase::ValueKind::Draw, "draw", "draws"),
            ValueArg::Loss => (tablebase::ValueKind::Loss, "loss", "loses"),
        };
        let found = tablebase::sample(&tb, own, other, want, count, seed);
        out!("# {} quiet positions, {own} v {other} for the side to move, which {verb}:", found.len());
        out!("# fanorona-cli tablebase sample --material {material} --value {name} --count {count} --seed {seed}");
        for p in found {
            out!("fen {}", p.to_fen());
        }
        Ok(())
    }
}

/// The cache folder: `--dir`, else the default one.
fn folder(dir: Option<std::path::PathBuf>) -> Result<std::path::PathBuf, String> {
    dir.or_else(tablebase::default_dir).ok_or("no cache folder: pass --dir".to_string())
}
