//! `bench`, `sprt` and `spsa`: speed, strength tests between engines, and tuning of search options by self-play.

use clap::Args;
use fanorona_engine::Position;
use fanorona_engine::turns::Perft;
use fanorona_tools::{sprt, spsa};
use std::time::Instant;

/// The arguments of `fanorona-cli bench`.
#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Perft depth for the start position (deeper is slower).
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Search time per position, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Only the report of nodes and time to each depth from the ten fixed positions.
    #[arg(long)]
    depths: bool,
    /// Deepest iteration of the depth report.
    #[arg(long, default_value_t = 10)]
    max_depth: u32,
    /// Node budget of each position in the depth report (deeper iterations are not started past it).
    #[arg(long, default_value_t = 30_000_000)]
    max_nodes: u64,
    /// Search options of the depth report (see `sprt --a`; default: full strength as the protocol plays it,
    /// without the tablebase).
    #[arg(long, default_value = fanorona_engine::levels::FULL_STRENGTH)]
    engine: String,
    /// Transposition table of the depth report, in megabytes (the protocol's default is 64).
    #[arg(long, default_value_t = 64, value_parser = table_megabytes())]
    hash: usize,
    /// Positions of the depth report instead of the ten fixed ones: a file of FENs, one a line (`#` starts
    /// a comment), e.g. positions from a match's games.
    #[arg(long)]
    fens: Option<std::path::PathBuf>,
    /// Only this: the engine service's search job of this depth from the start (the hint's searcher: 8 MB
    /// table, no tablebase), as the browser's engine worker runs it: `service search depth D: N nodes in T s`.
    /// The same job in the worker searches the same nodes, so the two times compare the WebAssembly engine with
    /// this build (web/e2e/worker.mjs).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=30))]
    service_depth: Option<u32>,
}

/// The engine service's search of `depth` from the start, timed (see `bench --service-depth`).
fn service_bench(depth: u32) {
    use fanorona_engine::service::{Job, Memory, Reply, game_text, run_to_end};
    let game = fanorona_engine::Game::new(fanorona_engine::Rules::default());
    let limits = fanorona_engine::search::Limits::depth(depth);
    let job = Job::Search { game: game_text(&game), limits, memory: Memory::Hint };
    let mut result = None;
    run_to_end(1, job, None, &mut |r| {
        if let Reply::Searched { result: r, .. } = r {
            result = Some(r);
        }
    });
    let r = result.expect("a search job always answers");
    let secs = r.elapsed.as_secs_f64().max(1e-9);
    out!(
        "service search depth {depth}: {} nodes in {secs:.3} s = {:.0} nodes/s (best {})",
        r.nodes,
        r.nodes as f64 / secs,
        r.best.map_or("none".to_string(), |t| t.to_string())
    );
}

impl BenchArgs {
    /// Perft throughput (turns/s and steps/s) and search speed (nodes/s, depth in a set time) from fixed positions.
    pub(crate) fn run(self) -> Result<(), String> {
        let BenchArgs { depth, movetime, depths, max_depth, max_nodes, engine, hash, fens, service_depth } = self;
        if let Some(d) = service_depth {
            service_bench(d);
            return Ok(());
        }
        let positions = match fens {
            Some(path) => read_fens(&path)?,
            None => DEPTH_FENS.iter().map(|f| f.to_string()).collect(),
        };
        if !depths {
            bench(depth, movetime);
        }
        depth_report(&engine, &positions, max_depth, max_nodes, hash)?;
        Ok(())
    }
}

/// The arguments of `fanorona-cli sprt`.
#[derive(Args)]
pub(crate) struct SprtArgs {
    /// Engine A (the candidate): search options such as `max`, `baseline`, `max,noqs`, `max,qs-turns=2`,
    /// `max,lmr`, `max,threat=0`, `max,eval=plain`, a level `level1`..`level5`, or another program speaking
    /// the engine protocol, `exe:PROGRAM ARGS…` (e.g. `exe:/tmp/old/fanorona-cli engine`), or one that thinks on
    /// its opponent's time, `exe-ponder:PROGRAM ARGS…`.
    #[arg(long, default_value = "max")]
    a: String,
    /// Engine B (the reference), as for A.
    #[arg(long, default_value = "baseline")]
    b: String,
    /// Time per turn in milliseconds (ignored when --nodes is given).
    #[arg(long, default_value_t = 40)]
    movetime: u64,
    /// Nodes per turn instead of time.
    #[arg(long)]
    nodes: Option<u64>,
    /// B's time per turn, where it differs from A's (time odds: `--movetime 20 --movetime-b 200` gives A a
    /// tenth of B's time).
    #[arg(long, conflicts_with = "nodes_b")]
    movetime_b: Option<u64>,
    /// B's nodes per turn, where they differ from A's.
    #[arg(long)]
    nodes_b: Option<u64>,
    /// Elo of H0 (A is at most this much stronger).
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    elo0: f64,
    /// Elo of H1 (A is at least this much stronger).
    #[arg(long, default_value_t = 20.0, allow_hyphen_values = true)]
    elo1: f64,
    /// False-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// False-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Most pairs of games.
    #[arg(long, default_value_t = 1000)]
    max_pairs: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Opening book (default: the committed crates/tools/data/openings.txt).
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// A game longer than this many turns is a draw.
    #[arg(long, default_value_t = 300)]
    max_turns: usize,
    /// Append every game to this file, one line each: pair, A's colour and points, how it ended, the
    /// material left and the turns (to see which games a side could not convert).
    #[arg(long)]
    games: Option<std::path::PathBuf>,
    /// Print every pair, not only every tenth.
    #[arg(long)]
    verbose: bool,
    /// Transposition table of each engine in this process, in MB (the engine protocol plays with 64; the
    /// default keeps the strength log's earlier rows comparable).
    #[arg(long, default_value_t = 16, value_parser = table_megabytes())]
    hash: usize,
}

impl SprtArgs {
    /// Sequential probability ratio test: engine A against engine B over the opening book, each opening with both colours, until the log-likelihood ratio decides or the pair limit is reached.
    pub(crate) fn run(self) -> Result<(), String> {
        let SprtArgs {
            a,
            b,
            movetime,
            nodes,
            movetime_b,
            nodes_b,
            elo0,
            elo1,
            alpha,
            beta,
            max_pairs,
            threads,
            book,
            max_turns,
            games,
            verbose,
            hash,
        } = self;
        let book = load_openings(book.as_deref())?;
        let limits = sprt::turn_limits(nodes.is_none().then_some(movetime), nodes);
        let limits_b = (movetime_b.is_some() || nodes_b.is_some()).then(|| sprt::turn_limits(movetime_b, nodes_b));
        let cfg = sprt::Config {
            a: a.parse()?,
            b: b.parse()?,
            limits,
            limits_b,
            elo0,
            elo1,
            alpha,
            beta,
            max_pairs,
            threads,
            max_turns,
            tt_megabytes: hash,
        };
        let per_turn = |movetime: Option<u64>, nodes: Option<u64>| match (nodes, movetime) {
            (Some(n), _) => format!("{n} nodes a turn"),
            (None, Some(t)) => format!("{t} ms a turn"),
            (None, None) => "no limit".to_string(),
        };
        let tc = match limits_b {
            None => per_turn(Some(movetime), nodes),
            Some(_) => format!("A {}, B {}", per_turn(Some(movetime), nodes), per_turn(movetime_b, nodes_b)),
        };
        let (lo, hi) = sprt::sprt_bounds(alpha, beta);
        out!(
            "SPRT A = {a:?} vs B = {b:?}, {tc}, elo0 {elo0} elo1 {elo1} alpha {alpha} beta {beta} (LLR bounds {lo:.2} {hi:.2}), {} openings, {threads} threads",
            book.openings.len()
        );
        let line = |p: &sprt::Progress| {
            let e = p.penta.elo();
            format!(
                "pairs {} games {}: +{} ={} -{} score {:.1}% elo {:+.1} [{:+.1}, {:+.1}] LLR {:.2} penta {:?}",
                p.penta.pairs(),
                2 * p.penta.pairs(),
                p.wins,
                p.draws,
                p.losses,
                100.0 * p.penta.score(),
                e.elo,
                e.low,
                e.high,
                p.llr,
                p.penta.counts
            )
        };
        let mut log = crate::args::open_game_log(games.as_deref())?;
        let mut log_error = None;
        let (verdict, state) = sprt::run_logged(
            &cfg,
            &book,
            |p| {
                if verbose || p.penta.pairs() % 10 == 0 {
                    out!("{}", line(p));
                }
            },
            |g| {
                use std::io::Write as _;
                if let Some(f) = log.as_mut()
                    && let Err(e) = writeln!(f, "{g}")
                {
                    log_error.get_or_insert(e);
                }
            },
        );
        if let (Some(e), Some(path)) = (log_error, &games) {
            return Err(format!("cannot write the game log {}: {e}", path.display()));
        }
        out!("final {}", line(&state));
        out!(
            "verdict: {}",
            match verdict {
                sprt::Verdict::H1 => format!("H1 accepted: A is stronger by at least {elo1} Elo (at alpha {alpha})"),
                sprt::Verdict::H0 => format!("H0 accepted: A is not stronger by more than {elo0} Elo (at beta {beta})"),
                sprt::Verdict::Inconclusive => format!("inconclusive after {} pairs", state.penta.pairs()),
            }
        );
        Ok(())
    }
}

/// The arguments of `fanorona-cli spsa`.
#[derive(Args)]
pub(crate) struct SpsaArgs {
    /// The options both engines share, before the tuned ones (e.g. full strength's `max,…,net`).
    #[arg(long, default_value = "max")]
    base: String,
    /// A tuned parameter, `name,start,min,max,c_end,r_end` (fishtest's line; repeat for each).
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    /// Iterations (one game pair each).
    #[arg(long, default_value_t = 2000)]
    pairs: usize,
    /// Nodes per turn.
    #[arg(long, default_value_t = 60_000)]
    nodes: u64,
    /// Pairs played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Opening book (default: the committed crates/tools/data/openings.txt).
    #[arg(long)]
    book: Option<std::path::PathBuf>,
    /// Seed of the perturbations and the openings' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the values every this many pairs.
    #[arg(long, default_value_t = 100)]
    every: usize,
}

impl SpsaArgs {
    /// SPSA tuning of whole-number search options by self-play (fishtest's method): every pair of games moves all parameters at once; prints their values as it goes and the options to test with `sprt` at the end.
    pub(crate) fn run(self) -> Result<(), String> {
        let SpsaArgs { base, params, pairs, nodes, threads, book, seed, every } = self;
        let params = params.iter().map(|p| p.parse()).collect::<Result<Vec<spsa::Param>, String>>()?;
        fanorona_engine::search::Searcher::new(1).configure(&base).map_err(|e| format!("--base: {e}"))?;
        let book = load_openings(book.as_deref())?;
        let settings = spsa::Settings {
            base,
            params,
            pairs,
            limits: sprt::turn_limits(None, Some(nodes)),
            threads,
            max_turns: 300,
            tt_megabytes: 16,
            seed,
        };
        let show = |values: &[f64]| {
            settings.params.iter().zip(values).map(|(p, v)| format!("{}={v:.2}", p.name)).collect::<Vec<_>>().join(" ")
        };
        out!("SPSA over {pairs} pairs, {nodes} nodes a turn, {} openings, {threads} threads", book.openings.len());
        let t0 = Instant::now();
        let values = spsa::run(&settings, &book, |done, values| {
            if done % every.max(1) == 0 {
                out!("pairs {done} ({:.0} s): {}", t0.elapsed().as_secs_f64(), show(values));
            }
        })?;
        let rounded: Vec<i64> = values.iter().map(|v| v.round() as i64).collect();
        out!("final: {}", show(&values));
        out!("options: {}", spsa::spec(&settings.base, &settings.params, &rounded));
        Ok(())
    }
}

/// The book of `--book`, or the committed one.
pub(crate) fn load_openings(path: Option<&std::path::Path>) -> Result<sprt::Openings, String> {
    let Some(path) = path else { return Ok(sprt::Openings::builtin()) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    sprt::Openings::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Middlegame positions with relays available, reached by play from the start (fixed for comparable figures).
const BENCH_FENS: [&str; 3] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w",
    "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b",
];

fn bench(start_depth: u32, movetime: u64) {
    out!(
        "perft throughput (turn level, bulk-counted at the last turn; steps = steps played + last steps counted unplayed)"
    );
    let mut total_turns = 0u64;
    let mut total_steps = 0u64;
    let mut total_secs = 0f64;
    for (i, fen) in BENCH_FENS.iter().enumerate() {
        let p = Position::from_fen(fen).expect("bench FEN is valid");
        let depth = if i == 0 { start_depth } else { start_depth.saturating_sub(2).max(1) };
        let mut perft = Perft::default();
        let t0 = Instant::now();
        let n = perft.turns(&p, depth);
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        total_turns += perft.leaf_turns;
        total_steps += perft.steps_played + perft.steps_counted;
        total_secs += secs;
        out!(
            "  {fen}  depth {depth}: {n} turns in {secs:.3} s = {:.1} M turns/s, {:.1} M steps/s",
            n as f64 / secs / 1e6,
            (perft.steps_played + perft.steps_counted) as f64 / secs / 1e6
        );
    }
    out!(
        "total: {:.1} M turns/s, {:.1} M steps/s",
        total_turns as f64 / total_secs / 1e6,
        total_steps as f64 / total_secs / 1e6
    );
    let p = Position::from_fen(BENCH_FENS[1]).expect("bench FEN is valid");
    let mut perft = Perft::default();
    let t0 = Instant::now();
    let n = perft.steps(&p, 7);
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    out!(
        "step-level perft 7 from the second position: {n} leaves, {} steps played in {secs:.3} s = {:.1} M steps/s (leaves included: {:.1} M/s)",
        perft.steps_played,
        perft.steps_played as f64 / secs / 1e6,
        (perft.steps_played + n) as f64 / secs / 1e6
    );
    out!("search for {movetime} ms per position (fresh 64 MB table each)");
    let mut nodes = 0u64;
    let mut secs = 0f64;
    for fen in BENCH_FENS.iter().chain(SEARCH_FENS.iter()) {
        let p = Position::from_fen(fen).expect("bench FEN is valid");
        let mut s = fanorona_engine::search::Searcher::new(64);
        let r = s.search(&p, &[], fanorona_engine::search::Limits::movetime(movetime), |_| {});
        nodes += r.nodes;
        secs += r.elapsed.as_secs_f64();
        out!(
            "  {fen}  depth {} score {} best {} nodes {} = {:.2} M nodes/s",
            r.depth,
            r.value(),
            r.best.map(|t| t.to_string()).unwrap_or_default(),
            r.nodes,
            r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9) / 1e6
        );
    }
    out!("search total: {:.2} M nodes/s", nodes as f64 / secs.max(1e-9) / 1e6);
}

/// Quieter middlegame and endgame positions for the search benchmark.
const SEARCH_FENS: [&str; 3] =
    ["1B1B1B1B1/B1B3B1B/2W1W1W2/W1W3W1W/1W1W1W1W1 w", "9/2B3B2/1B1W1W1B1/2W3W2/9 b", "9/4B4/9/2W3W2/9 w"];

/// The ten positions of the depth report: the start, middlegames of several shapes, and endgames.
const DEPTH_FENS: [&str; 10] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w",
    "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b",
    "1B1B1B1B1/B1B3B1B/2W1W1W2/W1W3W1W/1W1W1W1W1 w",
    "BB1B1B1BB/1B1B1B1B1/9/1W1W1W1W1/WW1W1W1WW w",
    "2B1B1B2/1B3B1B1/B1W3W1B/1W1W1W3/2W1W1W2 w",
    "BBB3BBB/1B5B1/2W3W2/1W5W1/WWW3WWW w",
    "9/1BBB1BBB1/9/1WWW1WWW1/9 w",
    "B1B1B1B1B/9/9/9/W1W1W1W1W w",
    "1B5B1/9/2B3W2/9/1W5W1 w",
];

/// The positions of a file of FENs, one a line (blank lines and `#` comments skipped); a bad line is an error
/// that names it.
fn read_fens(path: &std::path::Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        Position::from_fen(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        fens.push(line.to_string());
    }
    if fens.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(fens)
}

/// The size of a transposition table given on the command line, in MB: a size the machine cannot allocate
/// would abort the program instead of answering with an error.
fn table_megabytes() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=4096)
}

/// Nodes and time to each depth from `positions` (FENs), with a fresh table of `hash` MB per position.
fn depth_report(engine: &str, positions: &[String], max_depth: u32, max_nodes: u64, hash: usize) -> Result<(), String> {
    use fanorona_engine::search::{Limits, Searcher};
    out!(
        "nodes and time to depth 6..{max_depth} (engine {engine:?}, {hash} MB table, at most {max_nodes} nodes a position; - = not reached)"
    );
    let mut sums = vec![(0u64, 0f64, 0usize); max_depth as usize + 1];
    for fen in positions {
        let p = Position::from_fen(fen).map_err(|e| e.to_string())?;
        let mut s = Searcher::new(hash);
        s.configure(engine)?;
        let mut reached = Vec::new();
        let limits = Limits { depth: Some(max_depth), nodes: Some(max_nodes), ..Limits::default() };
        s.search(&p, &[], limits, |i| reached.push((i.depth, i.nodes, i.elapsed.as_secs_f64())));
        let mut cells = Vec::new();
        for d in 6..=max_depth {
            match reached.iter().find(|r| r.0 == d) {
                Some(&(_, n, t)) => {
                    sums[d as usize].0 += n;
                    sums[d as usize].1 += t;
                    sums[d as usize].2 += 1;
                    cells.push(format!("d{d} {:.2}M {:.2}s", n as f64 / 1e6, t));
                }
                None => cells.push(format!("d{d} -")),
            }
        }
        out!("  {fen:<52} {}", cells.join(" | "));
    }
    let totals: Vec<String> = (6..=max_depth)
        .map(|d| {
            let (n, t, k) = sums[d as usize];
            format!("d{d} {k}/{} reached, {:.2}M nodes {:.2}s", positions.len(), n as f64 / 1e6, t)
        })
        .collect();
    out!("  sums over the positions that reached each depth: {}", totals.join(" | "));
    Ok(())
}
