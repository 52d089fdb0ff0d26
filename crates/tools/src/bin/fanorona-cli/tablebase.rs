//! `tablebase build`, `probe` and `sample`: endgame tables from the command line.

use crate::args::VariantArg;
use clap::{Args, Subcommand, ValueEnum};
use fanorona_engine::rules::{Rules, Side};
use fanorona_engine::tablebase::{self, Tablebase};
use fanorona_engine::{Position, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// The commands of `fanorona-cli tablebase`.
#[derive(Subcommand)]
pub(crate) enum TbAction {
    /// Builds the table for up to N pieces, reports progress, and caches it to disk.
    Build(BuildArgs),
    /// Prints the exact value of a position and a turn that keeps it.
    Probe(ProbeArgs),
    /// Checks the compact seven-piece table: every block, the won/drawn/lost counts of each material, capture
    /// positions against the six-piece table, random positions one turn ahead, by brute force, and against the
    /// full one-byte table where one is given.
    Verify(VerifyArgs),
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
        TbAction::Verify(args) => args.run(),
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
    /// With 7 pieces: the whole table at one byte a position (6 GB, about 7 GB of memory to build) instead of the
    /// compact one, to check the compact one against.
    #[arg(long)]
    full: bool,
}

impl BuildArgs {
    /// Builds the table for up to N pieces, reports progress, and caches it to disk.
    pub(crate) fn run(self) -> Result<(), String> {
        let BuildArgs { pieces, variant, dir, slice_ms, full } = self;
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
        if pieces == tablebase::COMPACT_PIECES && !full {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            let tb = tablebase::load_or_build_seven(&dir, variant, threads, &mut |m| out!("{m}"))
                .map_err(|e| e.to_string())?;
            let seven = tablebase::Compact::load(&dir, variant).map_err(|e| e.to_string())?;
            out!(
                "{variant} board, up to {pieces} pieces: ready in {:.1} s; seven pieces in {} bytes ({} files), \
                 six in {} bytes, {} in all, in {}",
                t0.elapsed().as_secs_f64(),
                seven.bytes(),
                tablebase::compact_files(&dir, variant).len(),
                tb.entries() + 32,
                seven.bytes() + tb.entries() as u64 + 32,
                dir.display()
            );
            if let Some((d, p)) = seven.longest_win() {
                out!("longest win of seven pieces: {d} turns, e.g. {p}");
            }
            return Ok(());
        }
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
        let tb = if pieces == tablebase::COMPACT_PIECES {
            tablebase::load_or_build_seven(&dir, p.variant(), 2, &mut |m| eprintln!("{m}"))
        } else {
            Tablebase::load_or_build(&dir, p.variant(), pieces, |m| eprintln!("{m}"))
        }
        .map_err(|e| e.to_string())?;
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

/// The arguments of `fanorona-cli tablebase verify`.
#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// Board.
    #[arg(long, value_enum, default_value_t = VariantArg::Tsivy)]
    variant: VariantArg,
    /// Cache folder holding the six-piece table and the compact seven-piece one.
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
    /// Check every Nth canonical capture entry against the six-piece table (1: all of them).
    #[arg(long, default_value_t = 1)]
    stride: usize,
    /// Random positions of seven pieces to check one turn ahead, and against the full table.
    #[arg(long, default_value_t = 100_000)]
    sample: usize,
    /// Random positions of seven pieces to check by brute force (a search of every turn to `--depth` turns that
    /// uses only the six-piece table).
    #[arg(long, default_value_t = 2_000)]
    brute: usize,
    /// Depth in turns of the brute-force search.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// The full one-byte table of seven pieces (`tablebase build --pieces 7 --full`) to compare the sample with.
    #[arg(long)]
    full: Option<std::path::PathBuf>,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

impl VerifyArgs {
    /// Runs the checks, printing what each found; an error when any disagrees.
    pub(crate) fn run(self) -> Result<(), String> {
        let variant = match self.variant {
            VariantArg::Tsivy => Variant::Tsivy,
            VariantArg::Dimy => Variant::Dimy,
        };
        let dir = folder(self.dir)?;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let t0 = Instant::now();
        let six = Tablebase::load(dir.join(Tablebase::file_name(variant, 6)), variant, 6).map_err(|e| e.to_string())?;
        let seven = std::sync::Arc::new(tablebase::Compact::load(&dir, variant).map_err(|e| e.to_string())?);
        let joined = Tablebase::load(dir.join(Tablebase::file_name(variant, 6)), variant, 6)
            .and_then(|t| t.with_seven(seven.clone()))
            .map_err(|e| e.to_string())?;
        let mut failures = Vec::new();
        match seven.check_blocks() {
            Ok(n) => out!("blocks: all {n} intact ({:.1} s)", t0.elapsed().as_secs_f64()),
            Err(e) => failures.push(format!("blocks: {e}")),
        }
        out!("material (side to move v other): won, drawn, lost positions");
        let (mut all_w, mut all_d, mut all_l) = (0, 0, 0);
        for own in 1..tablebase::COMPACT_PIECES {
            let [w, d, l] = seven.count(own, tablebase::COMPACT_PIECES - own);
            out!("{own}v{}: {w} {d} {l}", tablebase::COMPACT_PIECES - own);
            (all_w, all_d, all_l) = (all_w + w, all_d + d, all_l + l);
        }
        out!("all: {all_w} {all_d} {all_l} ({} positions)", all_w + all_d + all_l);
        let t = Instant::now();
        let (checked, bad) = seven.verify_captures(&six, self.stride, threads);
        out!(
            "capture positions: {checked} checked against the six-piece table (every canonical entry{}), {} \
             disagree ({:.1} s)",
            if self.stride > 1 { format!(" of {}", self.stride) } else { String::new() },
            bad.len(),
            t.elapsed().as_secs_f64()
        );
        if let Some(p) = bad.first() {
            failures.push(format!("capture position {p} disagrees with the six-piece table"));
        }
        let full = match &self.full {
            Some(path) => Some(Tablebase::load(path, variant, 7).map_err(|e| e.to_string())?),
            None => None,
        };
        let mut rng = SmallRng::seed_from_u64(self.seed);
        let (mut consistent, mut same_as_full) = (0usize, 0usize);
        let t = Instant::now();
        for _ in 0..self.sample {
            let pos = random_seven(variant, &mut rng);
            let v = joined.probe(&pos);
            match joined.best_turn(&pos) {
                Some((_, best)) if Some(best) == v => consistent += 1,
                None if v == Some(tablebase::TbValue::Loss(0)) => consistent += 1,
                other => failures.push(format!("{pos}: table {v:?}, one turn ahead {:?}", other.map(|t| t.1))),
            }
            if let Some(full) = &full {
                if full.probe(&pos) == v {
                    same_as_full += 1;
                } else {
                    failures.push(format!("{pos}: compact {v:?}, full {:?}", full.probe(&pos)));
                }
            }
        }
        out!(
            "one turn ahead: {consistent} of {} random positions consistent ({:.1} s)",
            self.sample,
            t.elapsed().as_secs_f64()
        );
        if full.is_some() {
            out!("full one-byte table: {same_as_full} of {} random positions the same", self.sample);
        }
        let t = Instant::now();
        let (mut decided, mut agree) = (0usize, 0usize);
        for _ in 0..self.brute {
            let pos = random_seven(variant, &mut rng);
            let table = joined.probe(&pos).ok_or("a position of seven pieces is not in the table")?;
            let mut memo = std::collections::HashMap::new();
            match brute(&six, &pos, self.depth, &mut memo) {
                Some(v) => {
                    decided += 1;
                    if v == table {
                        agree += 1;
                    } else {
                        failures.push(format!("{pos}: table {table}, brute force {v}"));
                    }
                }
                None if table.distance().is_none_or(|d| d > self.depth) => agree += 1,
                None => failures.push(format!("{pos}: table {table}, brute force undecided in {}", self.depth)),
            }
        }
        out!(
            "brute force to {} turns: {agree} of {} random positions agree, {decided} of them decided within the \
             depth ({:.1} s)",
            self.depth,
            self.brute,
            t.elapsed().as_secs_f64()
        );
        for f in failures.iter().take(20) {
            out!("FAILED {f}");
        }
        if failures.is_empty() { Ok(()) } else { Err(format!("{} checks failed", failures.len())) }
    }
}

/// A random position of seven pieces under the default rules, each side at least one piece, either side to move.
fn random_seven(variant: Variant, rng: &mut SmallRng) -> Position {
    let points: Vec<u32> = (0..64).filter(|p| variant.geometry().board >> p & 1 == 1).collect();
    let white_count = rng.random_range(1..tablebase::COMPACT_PIECES);
    let (mut white, mut black) = (0u64, 0u64);
    while (white | black).count_ones() < tablebase::COMPACT_PIECES {
        let p = 1u64 << points[rng.random_range(0..points.len())];
        if (white | black) & p != 0 {
            continue;
        }
        if white.count_ones() < white_count {
            white |= p;
        } else {
            black |= p;
        }
    }
    let side = if rng.random_bool(0.5) { Side::White } else { Side::Black };
    Position::from_parts(variant, white, black, side, &Rules { variant, ..Rules::default() })
}

/// The memo of [`brute`]: a position's pieces, side to move and depth, and what the search found.
type BruteMemo = std::collections::HashMap<(u64, u64, Side, u32), Option<tablebase::TbValue>>;

/// Exhaustive depth-limited minimax over whole turns that knows only the six-piece table (after a capture): the
/// exact value when either side forces a win within `depth` turns, else None. Every value it gives is exact: the
/// six-piece table's, or one within the depth.
fn brute(six: &Tablebase, pos: &Position, depth: u32, memo: &mut BruteMemo) -> Option<tablebase::TbValue> {
    use tablebase::TbValue;
    let s = pos.side_to_move();
    if pos.count(s) + pos.count(s.opponent()) <= 6 {
        return six.probe(pos);
    }
    let key = (pos.pieces(Side::White), pos.pieces(Side::Black), s, depth);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let turns = pos.legal_turns();
    let v = if turns.is_empty() {
        Some(TbValue::Loss(0))
    } else if depth == 0 {
        None
    } else {
        let (mut win, mut all_lose) = (None::<u32>, Some(0u32));
        for t in &turns {
            let mut c = *pos;
            if c.play_turn(t).is_err() {
                return None;
            }
            match brute(six, &c, depth - 1, memo) {
                Some(TbValue::Loss(d)) => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
                Some(TbValue::Win(d)) => all_lose = all_lose.map(|l| l.max(d + 1)),
                _ => all_lose = None,
            }
        }
        match (win, all_lose) {
            (Some(w), _) => Some(TbValue::Win(w)),
            (None, Some(l)) => Some(TbValue::Loss(l)),
            _ => None,
        }
    };
    // Exact only within the depth: a faster result may lie behind a turn the depth did not decide, and any such
    // turn's own result is longer than what is left of the depth.
    let v = v.filter(|v| v.distance().is_some_and(|d| d <= depth));
    memo.insert(key, v);
    v
}
