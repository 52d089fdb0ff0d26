//! `fanorona-cli`: perft, legal turns, applying turns and benchmarks from the command line.

use clap::{Args, Parser, Subcommand, ValueEnum};
use fanorona_engine::book::OpeningBook;
use fanorona_engine::levels::Level;
use fanorona_engine::turns::Perft;
use fanorona_engine::{Position, RelayRule, Rules, Side, Turn, Variant, Vela};
use fanorona_tools::book_gen::{self, BookConfig};
use fanorona_tools::{matches, sprt, spsa};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Prints a line to standard output; when the reader has gone away (`fanorona-cli moves | head`), exits quietly
/// instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        emit(format_args!($($arg)*))
    };
}

/// The book of `--book`, or the committed one.
fn load_openings(path: Option<&std::path::Path>) -> Result<sprt::Openings, String> {
    let Some(path) = path else { return Ok(sprt::Openings::builtin()) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    sprt::Openings::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{args}").and_then(|_| stdout.flush()).is_err() {
        std::process::exit(0);
    }
}

#[derive(Parser)]
#[command(name = "fanorona-cli", version, about = "Fanorona engine: perft, legal turns, apply turns, benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Turn-level perft: prints `<depth> <count>` for every depth 1..=DEPTH.
    Perft {
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
    },
    /// Every legal turn, one per line, in turn notation.
    Moves {
        #[command(flatten)]
        pos: PositionArgs,
    },
    /// Prints the position after a turn as FEN; an illegal turn exits with code 2.
    Apply {
        #[command(flatten)]
        pos: PositionArgs,
        /// The turn in turn notation, e.g. "d3-e3A e3-e4W" (one argument or several).
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        turn: Vec<String>,
    },
    /// The engine protocol on standard input and output (see docs/engine-protocol.md).
    Engine,
    /// Endgame tablebases: build (cached on disk) or probe.
    Tablebase {
        #[command(subcommand)]
        action: TbAction,
    },
    /// Play against the CPU in the terminal (type turns like `d3-e3A`; `help` lists commands).
    Play {
        /// CPU level (1-5).
        #[arg(long, default_value_t = 3)]
        level: u8,
        /// Your colour.
        #[arg(long, value_enum, default_value_t = SideArg::White)]
        color: SideArg,
        #[command(flatten)]
        pos: PositionArgs,
    },
    /// Plays one CPU-vs-CPU game and prints its turns and result.
    Selfplay {
        /// Level of White (1-5).
        #[arg(long, default_value_t = 3)]
        white: u8,
        /// Level of Black (1-5).
        #[arg(long, default_value_t = 3)]
        black: u8,
        /// Cap on thinking time per turn, in milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Random opening turns before the levels play.
        #[arg(long, default_value_t = 0)]
        opening: usize,
        /// Seed of the random choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop (drawn) after this many turns.
        #[arg(long, default_value_t = 400)]
        max_turns: usize,
    },
    /// Plays a match between two levels with randomised openings, each opening with both colours.
    Match {
        /// Level of player A (1-5).
        a: u8,
        /// Level of player B (1-5).
        b: u8,
        /// Pairs of games.
        #[arg(long, default_value_t = 10)]
        pairs: u32,
        /// Cap on A's thinking time per turn, in milliseconds.
        #[arg(long)]
        movetime_a: Option<u64>,
        /// Cap on B's thinking time per turn, in milliseconds.
        #[arg(long)]
        movetime_b: Option<u64>,
        /// Random opening turns.
        #[arg(long, default_value_t = 2)]
        opening: usize,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop a game (drawn) after this many turns.
        #[arg(long, default_value_t = 400)]
        max_turns: usize,
    },
    /// Perft throughput (turns/s and steps/s) and search speed (nodes/s, depth in a set time) from fixed positions.
    Bench {
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
    },
    /// Sequential probability ratio test: engine A against engine B over the opening book, each opening with
    /// both colours, until the log-likelihood ratio decides or the pair limit is reached.
    Sprt {
        /// Engine A (the candidate): search options such as `max`, `baseline`, `max,noqs`, `max,qs-turns=2`,
        /// `max,lmr`, `max,threat=0`, `max,eval=plain`, a level `level1`..`level5`, or another program speaking
        /// the engine protocol, `exe:PROGRAM ARGS…` (e.g. `exe:/tmp/old/fanorona-cli engine`).
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
    },
    /// SPSA tuning of whole-number search options by self-play (fishtest's method): every pair of games moves
    /// all parameters at once; prints their values as it goes and the options to test with `sprt` at the end.
    Spsa {
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
    },
    /// Puzzles: generate, check, show.
    Puzzles {
        #[command(subcommand)]
        action: PuzzleAction,
    },
    /// Texel-style tuning of the evaluation: labelled positions from self-play, and the fit of the weights.
    Tune {
        #[command(subcommand)]
        action: TuneAction,
    },
    /// Generates a book of balanced openings (4-6 turns whose shallow-search score is near even).
    Openings {
        /// Openings to generate.
        #[arg(long, default_value_t = 400)]
        count: usize,
        /// Depth of the search that picks each turn (the final check searches one turn deeper).
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Largest final score kept, in hundredths of a piece (from either side).
        #[arg(long, default_value_t = 30)]
        margin: i32,
        /// Smallest final score kept (from either side): above 0, openings where one side is ahead, which
        /// decide more pairs of an SPRT than balanced ones (e.g. `--min 60 --margin 150`).
        #[arg(long, default_value_t = 0)]
        min: i32,
        /// Each turn is drawn among those scored within this much of the best (hundredths of a piece); wider
        /// choices reach more distinct openings (unbalanced ones are rarer: e.g. `--choice 300`).
        #[arg(long, default_value_t = sprt::CHOICE_MARGIN)]
        choice: i32,
        /// A second check of each final position: a full-strength search of this many nodes must also score it
        /// within the window (e.g. 2000000: the shallow check alone lets through openings that a deeper search
        /// finds decided).
        #[arg(long)]
        check_nodes: Option<u64>,
        /// Every opening this many turns long instead of 4 to 6 (e.g. 4, as the hidden match plays).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=40))]
        turns: Option<u64>,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Builds the opening book of Master and full strength (crates/engine/data/book.txt) by deep searches.
    Book {
        /// Positions up to this many turns from the start get an entry.
        #[arg(long, default_value_t = 6)]
        turns: usize,
        /// Nodes of each position's search.
        #[arg(long, default_value_t = 2_000_000)]
        nodes: u64,
        /// Root turns searched and kept per position.
        #[arg(long, default_value_t = 3)]
        lines: usize,
        /// The position after a kept turn is searched too when it scores within this much of the best
        /// (hundredths of a piece).
        #[arg(long, default_value_t = 30)]
        follow: i32,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Instead of the book from the start: the balanced book (crates/engine/data/book-balanced.txt), every
        /// position this many turns from the start that a search of `--depth` turns scores within `--margin`
        /// of even and the committed book lacks, most balanced first. Needs `--out`, which it rewrites as it
        /// goes and resumes from: the positions already there are kept and not searched again.
        #[arg(long)]
        after: Option<usize>,
        #[command(flatten)]
        balanced: Balanced,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum PuzzleAction {
    /// Generates puzzles (both boards) and writes them in the puzzle file format.
    Generate {
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Puzzles of each tactical kind on the 9 x 5 board (the 5 x 5 board gets a fifth as many).
        #[arg(long, default_value_t = 70)]
        per_kind: usize,
        /// Win-in-N puzzles on the 9 x 5 board (the 5 x 5 board gets a third as many).
        #[arg(long, default_value_t = 60)]
        wins: usize,
        /// Output file (default: standard output).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Parses a puzzle file and re-checks every answer with the engine and the tablebase.
    Check {
        /// The file (default: the shipped puzzles).
        file: Option<std::path::PathBuf>,
    },
    /// Prints a puzzle's position, kind and rating (numbered from 1; default: the shipped puzzles).
    Show {
        /// Puzzle number.
        number: usize,
        /// The file.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
    },
}

#[derive(Subcommand)]
enum TuneAction {
    /// Plays self-play games and writes labelled quiet positions (`FEN;result`, one a line).
    Gen {
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
    },
    /// Fits the weights of the tuned evaluation to a file of labelled positions and prints them.
    Fit {
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
    },
    /// Trains the network of option `net` on labelled positions with search scores (`tune gen` files): the
    /// network learns what the search's score adds to the score of the quiet leaf under `--engine`.
    Net {
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
    },
    /// Scores the positions of `tune gen` files again with a search of `--nodes` nodes each (a fresh search per
    /// position, so that the file is reproducible), keeping each game's result: deeper labels for `tune net`.
    Relabel {
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
    },
}

#[derive(Subcommand)]
enum TbAction {
    /// Builds the table for up to N pieces, reports progress, and caches it to disk.
    Build {
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
    },
    /// Prints the exact value of a position and a turn that keeps it.
    Probe {
        /// The position.
        #[arg(long)]
        fen: String,
        /// Most pieces of the table to use.
        #[arg(long, default_value_t = 5)]
        pieces: u32,
        /// Cache folder (default: $FANORONA_TB_DIR, else the platform's cache folder, ~/.cache/fanorona on Linux).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Prints random quiet 9 × 5 positions of given material and value as an endgame book for `sprt --book`
    /// (`fen` lines): for example drawn 2 v 2 endings, to measure how an engine sets traps in a drawn ending.
    Sample {
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
    },
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum ValueArg {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum RelayArg {
    /// No same direction twice in a row, no revisiting a point (RULES.md default).
    Default,
    /// Change direction each step, never travel a segment twice.
    Lines,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum SideArg {
    White,
    Black,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::White => Side::White,
            SideArg::Black => Side::Black,
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum VariantArg {
    /// 9×5 Fanoron-Tsivy.
    Tsivy,
    /// 5×5 Fanoron-Dimy.
    Dimy,
}

/// The position and the rule options that apply to it.
#[derive(Args)]
struct PositionArgs {
    /// Position in FEN (default: the start position of the variant).
    #[arg(long)]
    fen: Option<String>,
    /// Board for the start position (a FEN decides by its width).
    #[arg(long, value_enum, default_value_t = VariantArg::Tsivy)]
    variant: VariantArg,
    /// Relay restriction.
    #[arg(long, value_enum, default_value_t = RelayArg::Default)]
    rules: RelayArg,
    /// The game's first turn ends after its first capture.
    #[arg(long)]
    first_turn_no_relay: bool,
    /// Each player's first capturing turn ends after one capture.
    #[arg(long)]
    single_first_capture: bool,
    /// Who moves first in the start position.
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    first: SideArg,
    /// Vela game: the previous winner, who may not capture yet.
    #[arg(long, value_enum)]
    vela_winner: Option<SideArg>,
    /// Vela game: how many of the winner's pieces are already captured.
    #[arg(long, default_value_t = 0, requires = "vela_winner")]
    vela_captured: u8,
}

impl PositionArgs {
    fn rules(&self) -> Rules {
        Rules {
            variant: match self.variant {
                VariantArg::Tsivy => Variant::Tsivy,
                VariantArg::Dimy => Variant::Dimy,
            },
            first_player: self.first.into(),
            relay: match self.rules {
                RelayArg::Default => RelayRule::Default,
                RelayArg::Lines => RelayRule::Lines,
            },
            first_turn_no_relay: self.first_turn_no_relay,
            single_first_capture: self.single_first_capture,
            vela: self.vela_winner.map(|w| Vela { winner: w.into(), captured: self.vela_captured }),
            ..Rules::default()
        }
    }

    fn position(&self) -> Result<Position, String> {
        let rules = self.rules();
        match &self.fen {
            None => Ok(Position::start(&rules)),
            Some(f) => Position::from_fen_with_rules(f, &rules).map_err(|e| e.to_string()),
        }
    }
}

/// The options of `book --after` that say which positions it searches.
#[derive(Args)]
struct Balanced {
    /// With `--after`: instead of those positions, the positions after the best turn of each position
    /// `--after` turns from the start that the book (`--out`'s, then the committed one's) has, where the
    /// engine plays its first turn with the second move (the balance checks are not made again).
    #[arg(long)]
    replies: bool,
    /// With `--replies`: how many best turns of the book to follow from each of those positions (2: the
    /// position where the engine plays its second turn with the first move, after the book's best reply).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    reply_turns: u32,
    /// With `--replies`: the first turn followed from each position is each of its entry's first this many
    /// turns that score within `--reply-margin` of its best, not the best alone (the positions where the
    /// engine playing second answers an opponent's second choice; the entries need as many lines, e.g. from
    /// a run with `--lines 4` into the same `--out`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    reply_lines: u32,
    /// With `--reply-lines`: how far below the best a followed turn may score (hundredths of a piece).
    #[arg(long, default_value_t = 150)]
    reply_margin: i32,
    /// Depth of the balance check of `--after` (the balanced-opening generator checks at 4).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Largest score of the balance check of `--after` (from either side, hundredths of a piece).
    #[arg(long, default_value_t = 60)]
    margin: i32,
    /// With `--after`: also the positions that full strength searching this many nodes scores within
    /// `--margin` (a second balance check, as other programs' checks differ from the depth-4 one).
    #[arg(long)]
    check_nodes: Option<u64>,
    /// Most positions `--after` searches, the most balanced first.
    #[arg(long)]
    limit: Option<usize>,
}

/// `book --after`: the balanced book, written to `out` as it grows and resumed from it.
fn balanced_book(cfg: &BookConfig, after: usize, b: Balanced, out: Option<std::path::PathBuf>) -> Result<(), String> {
    let Balanced { replies, reply_turns, reply_lines, reply_margin, depth, margin, check_nodes, limit } = b;
    let (nodes, lines) = (cfg.nodes, cfg.lines);
    let t0 = Instant::now();
    let out = out.ok_or("book --after needs --out (the file it rewrites as it goes and resumes from)")?;
    let mut kept = match std::fs::read_to_string(&out) {
        Ok(text) => OpeningBook::parse(&text).map_err(|e| format!("{}: {e}", out.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => OpeningBook::default(),
        Err(e) => return Err(format!("cannot read {}: {e}", out.display())),
    };
    let committed = OpeningBook::parse(fanorona_engine::book::BUILTIN).map_err(|e| e.to_string())?;
    let mut skip = kept.clone();
    skip.merge(committed.clone());
    let mut positions = if replies {
        // The ends are those the file has already (the run without `--replies` put them there): the balance
        // checks are not made again. Those of book.txt have their replies there (it follows its best turns).
        let mut ends: Vec<(Position, i32)> = OpeningBook::positions_after(after)
            .into_iter()
            .filter_map(|p| kept.moves(&p).and_then(|m| m.first()).map(|m| (p, m.score)))
            .collect();
        ends.sort_by_cached_key(|(p, score)| (score.abs(), p.to_fen()));
        eprintln!("{} positions {after} turns from the start in the book", ends.len());
        ends
    } else {
        let check = check_nodes.map(|n| (n, cfg.threads));
        let ends = book_gen::balanced_positions_checked(after, depth, margin, check);
        let checked = check_nodes.map_or(String::new(), |n| format!(" or after {n} nodes"));
        eprintln!("{} positions {after} turns from the start within {margin} at depth {depth}{checked}", ends.len());
        ends
    };
    positions.truncate(limit.unwrap_or(usize::MAX));
    let ends = positions.iter().filter(|(p, _)| committed.moves(p).is_none()).count();
    let mut positions: Vec<Position> = positions.into_iter().map(|(p, _)| p).collect();
    if replies {
        positions = skip.follow(&positions, reply_turns, reply_lines as usize, reply_margin);
        let firsts = if reply_lines > 1 {
            format!(" (the first of {reply_lines} lines within {reply_margin})")
        } else {
            String::new()
        };
        eprintln!("{} positions after {reply_turns} best turns of the book{firsts}", positions.len());
    }
    let header = format!(
        "Balanced book of Master and full strength: `FEN | turn = score; ...`, best first (scores in hundredths\n\
         of a piece for the side to move). Every position {after} turns from the start (default rules) that a\n\
         {depth}-turn search of `max,qs-turns=2`{} scores within {margin} of even, where random balanced\n\
         openings end, the most balanced first ({ends} of them besides those of book.txt), and the position after\n\
         each one's best turn, where the engine's first turn is the second: each a {lines}-line search of\n\
         {nodes} nodes ({}). Generated by `fanorona-cli book --after {after} --depth {depth} --margin {margin}\n\
         {}--nodes {nodes} --lines {lines}{}`, then the same with `--replies`{}.",
        check_nodes.map_or(String::new(), |n| format!(" or full strength's search of {n} nodes")),
        fanorona_engine::levels::FULL_STRENGTH,
        check_nodes.map_or(String::new(), |n| format!("--check-nodes {n} ")),
        limit.map_or(String::new(), |l| format!(" --limit {l}")),
        match (reply_turns, reply_lines) {
            (1, 1) => String::new(),
            (t, 1) => format!(" and with `--replies --reply-turns {t}`"),
            (t, l) =>
                format!(" and with `--replies --reply-turns {t} --reply-lines {l} --reply-margin {reply_margin}`"),
        },
    );
    let mut save_error = None;
    let fresh = book_gen::generate_balanced(&positions, cfg, &skip, |done, of, book| {
        let mut all = kept.clone();
        all.merge(book.clone());
        if let Err(e) = std::fs::write(&out, all.to_text(&header)) {
            save_error = Some(format!("cannot write {}: {e}", out.display()));
        }
        eprintln!("{done}/{of} positions searched, {:.0} s", t0.elapsed().as_secs_f64());
    });
    if let Some(e) = save_error {
        return Err(e);
    }
    kept.merge(fresh);
    eprintln!("{} positions", kept.len());
    if !kept.is_empty() {
        write_out(Some(out), &kept.to_text(&header))?;
    }
    Ok(())
}

/// Writes `text` to `out`, or to standard output.
fn write_out(out: Option<std::path::PathBuf>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Perft { depth, pos, steps, divide } => {
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
        }
        Command::Moves { pos } => {
            let p = pos.position()?;
            let mut turns: Vec<String> = p.legal_turns().iter().map(|t| t.to_string()).collect();
            turns.sort();
            for t in turns {
                out!("{t}");
            }
        }
        Command::Apply { pos, turn } => {
            let mut p = pos.position()?;
            let text = turn.join(" ");
            let t: Turn = text.parse().map_err(|e| format!("{e}"))?;
            p.play_turn(&t).map_err(|e| format!("illegal turn {text:?}: {e}"))?;
            out!("{}", p.to_fen());
        }
        Command::Bench { depth, movetime, depths, max_depth, max_nodes, engine, hash, fens } => {
            let positions = match fens {
                Some(path) => read_fens(&path)?,
                None => DEPTH_FENS.iter().map(|f| f.to_string()).collect(),
            };
            if !depths {
                bench(depth, movetime);
            }
            depth_report(&engine, &positions, max_depth, max_nodes, hash)?;
        }
        Command::Sprt {
            a,
            b,
            movetime,
            nodes,
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
        } => {
            let book = load_openings(book.as_deref())?;
            let limits = sprt::turn_limits(nodes.is_none().then_some(movetime), nodes);
            let cfg = sprt::Config {
                a: a.parse()?,
                b: b.parse()?,
                limits,
                elo0,
                elo1,
                alpha,
                beta,
                max_pairs,
                threads,
                max_turns,
                tt_megabytes: hash,
            };
            let tc = match nodes {
                Some(n) => format!("{n} nodes a turn"),
                None => format!("{movetime} ms a turn"),
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
            let mut log = match &games {
                Some(path) => Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(path)
                        .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
                ),
                None => None,
            };
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
                    sprt::Verdict::H1 =>
                        format!("H1 accepted: A is stronger by at least {elo1} Elo (at alpha {alpha})"),
                    sprt::Verdict::H0 =>
                        format!("H0 accepted: A is not stronger by more than {elo0} Elo (at beta {beta})"),
                    sprt::Verdict::Inconclusive => format!("inconclusive after {} pairs", state.penta.pairs()),
                }
            );
        }
        Command::Spsa { base, params, pairs, nodes, threads, book, seed, every } => {
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
                settings
                    .params
                    .iter()
                    .zip(values)
                    .map(|(p, v)| format!("{}={v:.2}", p.name))
                    .collect::<Vec<_>>()
                    .join(" ")
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
        }
        Command::Openings { count, depth, margin, min, choice, check_nodes, turns, seed, out } => {
            if min > margin {
                return Err(format!("--min {min} is above --margin {margin}"));
            }
            if min < 0 || choice < 0 {
                return Err(format!("--min ({min}) and --choice ({choice}) cannot be negative"));
            }
            let t0 = Instant::now();
            if check_nodes == Some(0) {
                return Err("--check-nodes must be above 0".into());
            }
            let length = turns.map_or((4, 6), |n| (n as usize, n as usize));
            let spec =
                sprt::GenerateSpec { count, depth, window: (min, margin), choice, check_nodes, turns: length, seed };
            let book = sprt::Openings::generate(&spec, |n, tries| {
                if n % 50 == 0 {
                    eprintln!("{n} openings from {tries} tries, {:.0} s", t0.elapsed().as_secs_f64());
                }
            });
            if book.openings.len() < count {
                eprintln!(
                    "found {} of the {count} openings asked for: the turns chosen reach no more distinct ones within the \
                     window (a wider --choice reaches more)",
                    book.openings.len()
                );
            }
            let (kind, window, mut flag) = if min > 0 {
                ("Unbalanced", format!("between {min} and {margin}"), format!(" --min {min}"))
            } else {
                ("Balanced", format!("within {margin}"), String::new())
            };
            if choice != sprt::CHOICE_MARGIN {
                flag.push_str(&format!(" --choice {choice}"));
            }
            if let Some(n) = turns {
                flag.push_str(&format!(" --turns {n}"));
            }
            let deep = match check_nodes {
                Some(n) => {
                    flag.push_str(&format!(" --check-nodes {n}"));
                    format!(",\nand again by a full-strength search of {n} nodes")
                }
                None => String::new(),
            };
            let header = format!(
                "{kind} openings for `fanorona-cli sprt`: one a line, turns separated by commas, from the start.\n\
                 Generated by `fanorona-cli openings --count {count} --depth {depth} --margin {margin}{flag} --seed {seed}`:\n\
                 each turn drawn among those a depth-{depth} search scores within {} pieces of the best, the final\n\
                 position scored {window} hundredths of a piece from even by a depth-{} search{deep}.",
                f64::from(choice) / 100.0,
                depth + 1
            );
            write_out(out, &book.to_text(&header))?;
        }
        Command::Book { turns, nodes, lines, follow, threads, after, balanced, out } => {
            let t0 = Instant::now();
            let cfg = BookConfig {
                turns,
                nodes,
                lines,
                follow_margin: follow,
                options: fanorona_engine::levels::FULL_STRENGTH,
                threads,
            };
            if let Some(after) = after {
                return balanced_book(&cfg, after, balanced, out);
            }
            let book = book_gen::generate(&cfg, |turn, done, of| {
                eprintln!("turn {}: {done}/{of} positions, {:.0} s", turn + 1, t0.elapsed().as_secs_f64());
            });
            let header = format!(
                "Opening book of Master and full strength: `FEN | turn = score; ...`, best first (scores in hundredths\n\
                 of a piece for the side to move). Generated by `fanorona-cli book --turns {turns} --nodes {nodes} --lines\n\
                 {lines} --follow {follow}` in {:.0} s: a {lines}-line search of {nodes} nodes ({}) a position,\n\
                 breadth-first from the start, following every turn within {follow} of the best for both sides.",
                t0.elapsed().as_secs_f64(),
                fanorona_engine::levels::FULL_STRENGTH,
            );
            eprintln!("{} positions", book.len());
            write_out(out, &book.to_text(&header))?;
        }
        Command::Selfplay { white, black, movetime, opening, seed, max_turns } => {
            let w = player(white, movetime)?;
            let b = player(black, movetime)?;
            let setup = matches::Setup { rules: Rules::default(), opening, seed, max_turns };
            let rec = matches::play_game(&setup, w, b, |n, side, t| out!("turn {n} {side} {t}"));
            match rec.outcome {
                Some(o) => out!("result {o}"),
                None => out!("result draw: stopped after {max_turns} turns"),
            }
        }
        Command::Match { a, b, pairs, movetime_a, movetime_b, opening, seed, max_turns } => {
            let pa = player(a, movetime_a)?;
            let pb = player(b, movetime_b)?;
            let setup = matches::Setup { rules: Rules::default(), opening, seed, max_turns };
            let mut n = 0;
            let score = matches::play_match(&setup, pa, pb, pairs, |a_side, rec| {
                n += 1;
                let result = match rec.outcome {
                    Some(o) => o.to_string(),
                    None => "draw at the turn limit".to_string(),
                };
                out!("game {n}: A ({}) as {a_side}: {result} after {} turns", pa.level.name(), rec.turns.len());
            });
            out!(
                "A {} vs B {}: +{} ={} -{} ({:.1}%)",
                pa.level.name(),
                pb.level.name(),
                score.wins,
                score.draws,
                score.losses,
                100.0 * score.fraction()
            );
        }
        Command::Play { level, color, pos } => play(level, color.into(), &pos)?,
        Command::Tablebase { action } => tablebase(action)?,
        Command::Puzzles { action } => puzzles(action)?,
        Command::Tune { action } => tune(action)?,
        Command::Engine => {
            let out: fanorona_engine::protocol::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
            fanorona_engine::protocol::run(std::io::stdin().lock(), out);
        }
    }
    Ok(())
}

fn play(level: u8, human: Side, args: &PositionArgs) -> Result<(), String> {
    use fanorona_engine::Game;
    use fanorona_engine::levels::{hint, history_hashes};
    use fanorona_engine::search::{Limits, Searcher};
    use std::io::BufRead;
    let level = Level::from_number(level).ok_or_else(|| format!("level {level} does not exist (1-5)"))?;
    let rules = args.rules();
    let mut game = Game::from_position(args.position()?, rules);
    let mut searcher = Searcher::new(64);
    let mut input = std::io::stdin().lock().lines();
    let mut seed = 1u64;
    out!("You play {human} against the CPU ({}). Type a turn like d3-e3A, or help.", level.name());
    loop {
        let pos = *game.position();
        out!("\n{}", pos.diagram());
        if let Some(o) = game.outcome() {
            out!("Game over: {o}.");
            return Ok(());
        }
        if pos.side_to_move() != human {
            let t = level
                .choose(&mut searcher, &pos, &history_hashes(&game), seed, Limits::default())
                .ok_or("the CPU has no turn")?;
            seed += 1;
            game.play_turn(&t).map_err(|e| e.to_string())?;
            out!("CPU ({}) plays {t}", pos.side_to_move());
            continue;
        }
        print!("{human} to move> ");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = input.next() else { return Ok(()) };
        match line.trim() {
            "quit" | "exit" => return Ok(()),
            "help" => out!(
                "Commands: a turn (steps like d3-e3A separated by spaces; A = approach, W = withdrawal, none = paika),\n\
                 moves (list legal turns), hint, undo (takes back your last turn), draw (offer a draw), resign, quit."
            ),
            "moves" => {
                let mut turns: Vec<String> = pos.legal_turns().iter().map(|t| t.to_string()).collect();
                turns.sort();
                out!("{}", turns.join("\n"));
            }
            "hint" => match hint(&mut searcher, &game, std::time::Duration::from_millis(700)) {
                Some((t, s)) => out!("Hint: {t} ({s})"),
                None => out!("No legal turn."),
            },
            "undo" => {
                // Take back the CPU's reply and your own turn.
                let _ = game.undo();
                if game.position().side_to_move() != human {
                    let _ = game.undo();
                }
            }
            "draw" => {
                if level.accepts_draw(&mut searcher, &pos, &history_hashes(&game), human.opponent()) {
                    let _ = game.agree_draw();
                    out!("The CPU accepts the draw.");
                } else {
                    out!("The CPU declines: it thinks it is winning.");
                }
            }
            "resign" => {
                let _ = game.resign(human);
            }
            text => match text.parse::<Turn>() {
                Ok(t) => {
                    if let Err(e) = game.play_turn(&t) {
                        out!("{e}");
                    }
                }
                Err(e) => out!("{e}"),
            },
        }
    }
}

fn tune(action: TuneAction) -> Result<(), String> {
    use fanorona_tools::tune;
    match action {
        TuneAction::Gen { games, nodes, keep, engine, seed, threads, out } => {
            let t0 = Instant::now();
            // Small endgames are labelled exactly: the shared table (the largest cached one, else 4 pieces).
            let oracle = fanorona_engine::tablebase::shared(
                Variant::Tsivy,
                fanorona_engine::tablebase::default_dir().as_deref(),
            );
            let samples = tune::generate(&engine, games, nodes, keep, seed, threads, Some(oracle), |n| {
                if n % 100 == 0 {
                    eprintln!("{n} games, {:.0} s", t0.elapsed().as_secs_f64());
                }
            })?;
            std::fs::write(&out, tune::to_text(&samples))
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            out!(
                "{} positions from {games} games in {:.0} s, written to {}",
                samples.len(),
                t0.elapsed().as_secs_f64(),
                out.display()
            );
        }
        TuneAction::Fit { data, iterations, free, start, lambda, min_pieces } => {
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
        }
        TuneAction::Relabel { data, engine, nodes, min_pieces, threads, out } => {
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
        }
        TuneAction::Net {
            data,
            engine,
            epochs,
            rate,
            final_rate,
            min_pieces,
            result_weight,
            average,
            exposed,
            seed,
            out,
        } => {
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
            std::fs::write(&out, trained.to_text(&header))
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        }
    }
    Ok(())
}

fn tablebase(action: TbAction) -> Result<(), String> {
    use fanorona_engine::tablebase::{self, Tablebase};
    let folder = |dir: Option<std::path::PathBuf>| {
        dir.or_else(tablebase::default_dir).ok_or("no cache folder: pass --dir".to_string())
    };
    match action {
        TbAction::Build { pieces, variant, dir, slice_ms } => {
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
        }
        TbAction::Probe { fen, pieces, dir } => {
            let p = Position::from_fen(&fen).map_err(|e| e.to_string())?;
            let dir = folder(dir)?;
            let tb =
                Tablebase::load_or_build(&dir, p.variant(), pieces, |m| eprintln!("{m}")).map_err(|e| e.to_string())?;
            match (tb.probe(&p), tb.best_turn(&p)) {
                (Some(v), Some((t, _))) => out!("{v} (best turn {t})"),
                (Some(v), None) => out!("{v}"),
                (None, _) => return Err(format!("the table covers up to {pieces} pieces")),
            }
        }
        TbAction::Sample { material, value, count, seed, dir } => {
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
        }
    }
    Ok(())
}

fn player(level: u8, movetime: Option<u64>) -> Result<matches::Player, String> {
    let level = Level::from_number(level).ok_or_else(|| format!("level {level} does not exist (1-5)"))?;
    Ok(matches::Player { level, movetime: movetime.map(std::time::Duration::from_millis) })
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

fn read_puzzles(file: Option<&std::path::Path>) -> Result<Vec<fanorona_engine::puzzles::Puzzle>, String> {
    use fanorona_engine::puzzles;
    match file {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
            puzzles::parse(&text).map_err(|e| format!("{}: {e}", f.display()))
        }
        None => puzzles::parse(puzzles::BUILTIN).map_err(|e| format!("shipped puzzles: {e}")),
    }
}

fn puzzles(action: PuzzleAction) -> Result<(), String> {
    use fanorona_engine::puzzles::{self, Kind};
    use fanorona_tools::puzzle_gen::{self, Quota};
    match action {
        PuzzleAction::Generate { seed, per_kind, wins, out } => {
            let t0 = Instant::now();
            let mut all = Vec::new();
            for (variant, k, w) in
                [(Variant::Tsivy, per_kind, wins), (Variant::Dimy, per_kind.div_ceil(5), wins.div_ceil(3))]
            {
                let quota = Quota { variant, win: w, relay: k, save: k, choice: k };
                all.extend(puzzle_gen::generate(quota, seed, |line| {
                    eprintln!("{line} ({:.0} s)", t0.elapsed().as_secs_f64())
                }));
            }
            let mut text = format!(
                "# Fanorona puzzles: kind | rating | FEN | solution (turns separated by ';') | theme\n\
                 # Generated by `fanorona-cli puzzles generate --seed {seed} --per-kind {per_kind} --wins {wins}`;\n\
                 # see crates/engine/src/puzzles.rs for the format and how each answer is proven unique.\n"
            );
            for p in &all {
                text.push_str(&format!("{p}\n"));
            }
            eprintln!("{} puzzles in {:.0} s", all.len(), t0.elapsed().as_secs_f64());
            match out {
                Some(path) => {
                    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?
                }
                None => print!("{text}"),
            }
        }
        PuzzleAction::Check { file } => {
            let all = read_puzzles(file.as_deref())?;
            let mut bad = 0;
            for (i, p) in all.iter().enumerate() {
                let ok = match p.kind {
                    Kind::WinIn(_) => {
                        let tb = fanorona_engine::tablebase::shared(p.position.variant(), None);
                        puzzles::verify_win(p, &tb)
                    }
                    _ => puzzles::engine_agrees(p, puzzles::VERIFY_DEPTH, puzzles::MARGIN),
                };
                if !ok {
                    bad += 1;
                    out!("puzzle {} not confirmed: {p}", i + 1);
                }
            }
            out!("{} puzzles, {} confirmed, {bad} not", all.len(), all.len() - bad);
            if bad > 0 {
                return Err(format!("{bad} puzzles not confirmed"));
            }
        }
        PuzzleAction::Show { number, file } => {
            let all = read_puzzles(file.as_deref())?;
            let p = number
                .checked_sub(1)
                .and_then(|i| all.get(i))
                .ok_or_else(|| format!("no puzzle {number} (1..={})", all.len()))?;
            out!("{} (rating {}, {}), {} to move", p.kind, p.rating, p.theme, p.position.side_to_move());
            out!("{}", p.position.diagram());
        }
    }
    Ok(())
}
