//! Endgame tablebase: the exact value (win, draw or loss, and the distance in turns) of every position with few pieces.
//!
//! # Values
//!
//! A value is always seen from the side to move, at the start of a turn (never in the middle of a relay), under the
//! default rules (default relay rule, no vela, no first-turn options). Distances count **turns** of both sides; a
//! whole relay is one turn.
//!
//! - [`TbValue::Loss`]`(0)`: the side to move has no piece or no legal turn: it has lost.
//! - [`TbValue::Win`]`(d)`: the side to move can force the opponent into a lost position (a `Loss(0)`) at the end of
//!   turn `d` at the latest, counting its own turns and the opponent's, and the opponent can delay it that long. So
//!   `Win(1)` means "this turn leaves the opponent without pieces or moves".
//! - [`TbValue::Loss`]`(d)`: the opponent wins that way after `d` turns, however the side to move defends.
//! - [`TbValue::Draw`]: neither side can force a win (with best play the game goes on forever, which the game
//!   record ends by repetition or the no-capture rule).
//!
//! Wins always have odd distances and losses even ones. A position is worth `Win(d + 1)` when its best turn leads to
//! `Loss(d)`, and `Loss(d + 1)` when every turn leads to a win for the opponent, the longest being `Win(d)`.
//!
//! # Construction
//!
//! Entries are stored relative to the side to move ("own" and "opponent" pieces): the rules are the same for both
//! colours, so a position with Black to move is looked up as its colour swap. The table is split into material
//! classes (own count, opponent count) and built from fewer to more pieces. Captures are compulsory and always
//! remove enemy material, so a position where the side to move can capture depends only on smaller classes and is
//! settled in one pass over its capture turns (every stopping point of every relay is a turn). The remaining
//! (paika) positions lead to the class with the counts swapped, and are solved by successor-counting retrograde
//! analysis over the pair of classes, in order of distance. Positions left unresolved are draws.
//!
//! Both boards are symmetric under the left-right and up-down mirrors (and so the half turn), which map lines onto
//! lines and strong points onto strong points, and no rule depends on a direction; so only **canonical** entries
//! (the least of their up to four images) are solved, about a quarter of the table. In the retrograde pass a
//! settled entry takes one off the count of every canonical position with a paika move into its symmetry class
//! (each un-move's predecessor is mapped to its canonical form together with the move, and repeats are dropped).
//! When a pair of classes is done, every other entry gets the value of its canonical image, so the stored table
//! (and probing) is the same as without the reduction; a test compares the table up to 4 pieces, byte for byte,
//! with the simple builder that solves every entry.
//!
//! # Index
//!
//! Within a class the own set is ranked among the board's points and the opponent set among the remaining points,
//! both in colexicographic order; the index is `rank(own) · C(n − own, opp) + rank(opp)`. One byte per entry:
//! `0` is a draw and `d + 1` a distance `d` (its parity says win or loss), so distances up to 254 fit. The file
//! stores every entry (the symmetry only saves building time), so a probe is one index computation.
//!
//! # Use
//!
//! - [`Tablebase::build`]`(variant, max_pieces, progress)`, or [`Tablebase::load_or_build`] with a cache folder,
//!   whose builds resume what an interrupted one left there (the largest smaller table, whose entries are the
//!   first ones of the larger, each finished pair of classes, and the pair in progress every few seconds);
//!   [`Tablebase::save`] and [`Tablebase::load`] (a 32-byte header: magic, format version, board, piece count,
//!   data length, checksum; a corrupt or mismatched file is a [`TbError`]).
//! - [`SlicedBuild`]: the same build on the calling thread in short slices, for a web page that must keep drawing
//!   frames (the 4-piece table of the 9 × 5 board in about 0.3 s of work, slices of a few milliseconds).
//! - [`Tablebase::probe`] for a position's value, [`Tablebase::best_turn`] for a turn that realises it,
//!   [`Tablebase::longest_win`] for the table's longest forced win.
//!
//! Measured on 2 cores shared with other builds (load average about 5), release build, 9×5 board: up to 3 pieces
//! 0.03 s (117,571 entries, longest win 29 turns), 4 pieces 0.6 s (2.5 M entries, 49 turns), 5 pieces 10.3 CPU-s
//! and 11.5 s (41.6 M entries, 42 MB, 59 turns; 26 CPU-s before the symmetry reduction), 6 pieces 169 CPU-s and
//! 3 min 7 s, 684 MB at most (563 M entries, 563 MB, 81 turns: `4B4/9/9/7B1/WWW3W2 w`).

use crate::geometry::Variant;
use crate::position::{Position, StepList};
use crate::rules::{RelayRule, Rules, Side};
use crate::score::Score;
use crate::turns::Turn;
use std::cmp::Ordering;
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

/// The most pieces a table can be built for. Seven pieces already take about 6 GB on the 9×5 board.
pub const MAX_PIECES: u32 = 7;

/// The longest distance one byte per entry can hold.
const MAX_DISTANCE: u32 = 254;

/// The exact value of a position for the side to move; see the [module documentation](self) for the convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbValue {
    /// The side to move wins; the opponent is left without pieces or moves after this many turns (odd, ≥ 1).
    Win(u32),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses after this many turns (even, ≥ 0; 0 means it has already lost).
    Loss(u32),
}

impl TbValue {
    /// The distance in turns, for a win or a loss.
    pub fn distance(self) -> Option<u32> {
        match self {
            TbValue::Win(d) | TbValue::Loss(d) => Some(d),
            TbValue::Draw => None,
        }
    }

    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        matches!(self, TbValue::Win(_))
    }

    /// Whether the side to move loses.
    pub fn is_loss(self) -> bool {
        matches!(self, TbValue::Loss(_))
    }

    /// Whether the position is drawn.
    pub fn is_draw(self) -> bool {
        self == TbValue::Draw
    }

    /// The value of a turn for the side that plays it, when the position it leads to is worth `self` to the
    /// opponent (then to move): a loss for the opponent in `d` is a win in `d + 1`, and so on.
    pub fn after_turn(self) -> TbValue {
        match self {
            TbValue::Win(d) => TbValue::Loss(d + 1),
            TbValue::Draw => TbValue::Draw,
            TbValue::Loss(d) => TbValue::Win(d + 1),
        }
    }

    /// A score that orders values by preference of the side to move: faster wins first, then draws, then slower
    /// losses.
    fn score(self) -> i64 {
        match self {
            TbValue::Win(d) => (1i64 << 40) - d as i64,
            TbValue::Draw => 0,
            TbValue::Loss(d) => -(1i64 << 40) + d as i64,
        }
    }

    /// The stored byte: 0 for a draw, `d + 1` for a distance `d`.
    fn encode(self) -> u8 {
        match self {
            TbValue::Draw => 0,
            TbValue::Win(d) | TbValue::Loss(d) => {
                debug_assert_eq!(d % 2 == 1, self.is_win(), "wins have odd distances, losses even ones");
                assert!(d <= MAX_DISTANCE, "tablebase distance {d} does not fit in a byte");
                (d + 1) as u8
            }
        }
    }

    /// Reads a stored byte (every byte is a valid value).
    fn decode(b: u8) -> TbValue {
        match b {
            0 => TbValue::Draw,
            _ => {
                let d = b as u32 - 1;
                if d % 2 == 1 { TbValue::Win(d) } else { TbValue::Loss(d) }
            }
        }
    }
}

/// Ordered by preference of the side to move: `a > b` when `a` is better (a faster win, a slower loss).
impl Ord for TbValue {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score().cmp(&other.score())
    }
}

impl PartialOrd for TbValue {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for TbValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbValue::Win(d) => write!(f, "win in {d}"),
            TbValue::Draw => write!(f, "draw"),
            TbValue::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// Why a tablebase file could not be used.
#[derive(Debug)]
pub enum TbError {
    /// Reading or writing the file failed.
    Io(io::Error),
    /// The file does not start with the tablebase magic bytes.
    NotATablebase,
    /// The file has a format version this code does not read.
    Version(u32),
    /// The file is for another board (the stored variant code).
    WrongVariant {
        /// The variant asked for.
        expected: Variant,
        /// The code found in the file.
        found: u8,
    },
    /// The file holds another number of pieces.
    WrongPieces {
        /// The piece count asked for.
        expected: u32,
        /// The piece count found in the file.
        found: u32,
    },
    /// The file is shorter or longer than its header says, or the header's length is wrong for the table.
    WrongLength,
    /// The data does not match the stored checksum.
    Checksum,
    /// More pieces than [`MAX_PIECES`].
    TooManyPieces(u32),
}

impl fmt::Display for TbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TbError::Io(e) => write!(f, "tablebase file: {e}"),
            TbError::NotATablebase => write!(f, "not a Fanorona tablebase file"),
            TbError::Version(v) => write!(f, "unsupported tablebase format version {v}"),
            TbError::WrongVariant { expected, found } => {
                write!(f, "tablebase is for board code {found}, not {expected}")
            }
            TbError::WrongPieces { expected, found } => {
                write!(f, "tablebase holds up to {found} pieces, not {expected}")
            }
            TbError::WrongLength => write!(f, "tablebase file has the wrong length (truncated or padded)"),
            TbError::Checksum => write!(f, "tablebase file is corrupt (checksum mismatch)"),
            TbError::TooManyPieces(n) => write!(f, "tablebases go up to {MAX_PIECES} pieces, not {n}"),
        }
    }
}

impl std::error::Error for TbError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TbError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for TbError {
    fn from(e: io::Error) -> Self {
        TbError::Io(e)
    }
}

/// Colex ranking of piece sets and the layout of the material classes in one byte array.
#[derive(Clone, Debug)]
struct Indexer {
    variant: Variant,
    max: u32,
    /// Points on the board.
    n: u32,
    board: u64,
    /// `binom[o][i]` = C(o, i).
    binom: [[u64; MAX_PIECES as usize + 1]; 65],
    /// Start of class (own, opp) at `own * (max + 1) + opp`; classes are laid out by total pieces, then own count.
    offsets: Vec<usize>,
    total: usize,
    /// `sym[k][p]`: the image of point `p` under the left-right mirror (k = 0), the up-down mirror (1) and the
    /// half turn (2). Both boards are symmetric under them: lines and strong points ((file + rank) even, and the
    /// widths and height are odd) map onto lines and strong points, and no rule depends on a direction.
    sym: [[u8; 64]; 3],
}

impl Indexer {
    fn new(variant: Variant, max: u32) -> Indexer {
        assert!(max <= MAX_PIECES, "tablebases go up to {MAX_PIECES} pieces");
        let mut binom = [[0u64; MAX_PIECES as usize + 1]; 65];
        for (o, row) in binom.iter_mut().enumerate() {
            row[0] = 1;
            for i in 1..row.len() {
                // C(o, i) = C(o, i - 1) · (o − i + 1) / i, exact at every step.
                row[i] = row[i - 1] * (o as u64 + 1).saturating_sub(i as u64) / i as u64;
            }
        }
        let board = variant.geometry().board;
        let n = board.count_ones();
        let (w, h) = (variant.width() as u32, variant.height() as u32);
        let mut sym = [[0u8; 64]; 3];
        for p in (0..64).filter(|&p| board >> p & 1 == 1) {
            let (f, r) = (p % 9, p / 9);
            sym[0][p as usize] = (r * 9 + (w - 1 - f)) as u8;
            sym[1][p as usize] = ((h - 1 - r) * 9 + f) as u8;
            sym[2][p as usize] = ((h - 1 - r) * 9 + (w - 1 - f)) as u8;
        }
        let mut ix = Indexer {
            variant,
            max,
            n,
            board,
            binom,
            offsets: vec![0; ((max + 1) * (max + 1)) as usize],
            total: 0,
            sym,
        };
        let mut at = 0;
        for t in 0..=max {
            for own in 0..=t {
                ix.offsets[(own * (max + 1) + t - own) as usize] = at;
                at += ix.class_size(own, t - own);
            }
        }
        ix.total = at;
        // The retrograde pass lists entries of a class as u32 indices.
        assert!((0..=max).all(|own| ix.class_size(own, max - own) <= u32::MAX as usize));
        ix
    }

    #[inline(always)]
    fn c(&self, o: u32, i: u32) -> u64 {
        self.binom[o as usize][i as usize]
    }

    /// Opponent placements per own placement in class (own, opp).
    #[inline(always)]
    fn row_len(&self, own: u32, opp: u32) -> u64 {
        self.c(self.n - own, opp)
    }

    fn class_size(&self, own: u32, opp: u32) -> usize {
        (self.c(self.n, own) * self.row_len(own, opp)) as usize
    }

    #[inline(always)]
    fn offset(&self, own: u32, opp: u32) -> usize {
        self.offsets[(own * (self.max + 1) + opp) as usize]
    }

    /// Colex rank of `set` among the points of `avail` (`set ⊆ avail`).
    #[inline(always)]
    fn rank(&self, set: u64, avail: u64) -> u64 {
        let mut r = 0;
        let mut s = set;
        let mut i = 1;
        while s != 0 {
            let p = s.trailing_zeros();
            let o = (avail & ((1u64 << p) - 1)).count_ones();
            r += self.binom[o as usize][i];
            i += 1;
            s &= s - 1;
        }
        r
    }

    /// The set of `k` points of `avail` with colex rank `r`.
    fn unrank(&self, mut r: u64, k: u32, avail: u64) -> u64 {
        let mut o = avail.count_ones() as usize;
        let mut set = 0;
        for i in (1..=k as usize).rev() {
            // The largest element is the largest ordinal o with C(o, i) ≤ r; C(i − 1, i) = 0 stops the search.
            o -= 1;
            while self.binom[o][i] > r {
                o -= 1;
            }
            r -= self.binom[o][i];
            set |= 1 << select(avail, o);
        }
        set
    }

    /// Index of (own, opp) inside its class.
    #[inline(always)]
    fn index(&self, own: u64, opp: u64) -> usize {
        let row = self.row_len(own.count_ones(), opp.count_ones());
        (self.rank(own, self.board) * row + self.rank(opp, self.board & !own)) as usize
    }

    /// Position in the whole table of (own, opp).
    #[inline(always)]
    fn global(&self, own: u64, opp: u64) -> usize {
        self.offset(own.count_ones(), opp.count_ones()) + self.index(own, opp)
    }

    /// The (own, opp) sets of entry `idx` of class (a, b).
    fn unindex(&self, a: u32, b: u32, idx: usize) -> (u64, u64) {
        let row = self.row_len(a, b);
        let own = self.unrank(idx as u64 / row, a, self.board);
        let opp = self.unrank(idx as u64 % row, b, self.board & !own);
        (own, opp)
    }

    /// The image of `set` under symmetry `k` (see [`Indexer::sym`]).
    #[inline(always)]
    fn image(&self, k: usize, set: u64) -> u64 {
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            out |= 1 << self.sym[k][s.trailing_zeros() as usize];
            s &= s - 1;
        }
        out
    }

    /// The canonical form of (own, opp): the least of its images as the pair of bitmasks, which is also the one
    /// with the least index (colex order is the numeric order of the sets). Only canonical entries are solved.
    #[inline(always)]
    fn canonical(&self, own: u64, opp: u64) -> (u64, u64) {
        let mut best = (own, opp);
        for k in 0..3 {
            best = best.min((self.image(k, own), self.image(k, opp)));
        }
        best
    }

    /// The class (own, opp) holding global entry `at`.
    fn class_of(&self, at: usize) -> (u32, u32) {
        for t in 0..=self.max {
            for own in 0..=t {
                let start = self.offset(own, t - own);
                if at >= start && at < start + self.class_size(own, t - own) {
                    return (own, t - own);
                }
            }
        }
        unreachable!("entry {at} is outside the table")
    }
}

/// The point of `bb` with ordinal `o` (0 = lowest).
#[inline]
fn select(bb: u64, o: usize) -> u32 {
    // Whole bytes first: ordinals go up to 44, so a bit at a time is most of the cost of unranking.
    let mut o = o as u32;
    let mut shift = 0;
    loop {
        let c = (bb >> shift & 0xff).count_ones();
        if c > o {
            break;
        }
        o -= c;
        shift += 8;
    }
    let mut byte = bb >> shift & 0xff;
    for _ in 0..o {
        byte &= byte - 1;
    }
    shift + byte.trailing_zeros()
}

/// The next larger bitmask with the same number of bits (Gosper's hack): colex order, the order of [`Indexer::rank`].
#[inline(always)]
fn next_combination(m: u64) -> u64 {
    let c = m & m.wrapping_neg();
    let r = m + c;
    (((r ^ m) >> 2) / c) | r
}

/// The points of `pts` whose ordinals are the bits of `comb` (a set of free points chosen by its colex ordinal).
#[inline(always)]
fn spread(mut comb: u64, pts: &[u8]) -> u64 {
    let mut set = 0u64;
    while comb != 0 {
        set |= 1 << pts[comb.trailing_zeros() as usize];
        comb &= comb - 1;
    }
    set
}

/// The position with the "own" pieces as White and White to move (how the builder sees an entry).
#[inline(always)]
fn own_to_move(variant: Variant, own: u64, opp: u64) -> Position {
    Position::from_parts(variant, own, opp, Side::White, &Rules { variant, ..Rules::default() })
}

/// Best values found among the capture turns of one position.
struct Best {
    /// Shortest win (from a successor lost in `win − 1`), or `u32::MAX`.
    win: u32,
    draw: bool,
    /// Longest loss found so far.
    loss: u32,
}

/// What the first pass needs: the finished smaller classes.
struct Solver<'a> {
    ix: &'a Indexer,
    /// Every class with fewer pieces than the ones being built (the start of the table).
    lower: &'a [u8],
}

impl Solver<'_> {
    /// The value of a position reached after a capture turn (a smaller class).
    #[inline(always)]
    fn lookup(&self, pos: &Position) -> TbValue {
        let s = pos.side_to_move();
        TbValue::decode(self.lower[self.ix.global(pos.pieces(s), pos.pieces(s.opponent()))])
    }

    /// Visits every capture turn from `pos` (a turn start or a relay in progress); returns true once a turn that
    /// wins at once is found, as nothing can beat it.
    fn walk(&self, pos: &Position, best: &mut Best) -> bool {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &s in list.iter() {
            let mut c = *pos;
            if c.play(s).turn_ended {
                match self.lookup(&c) {
                    TbValue::Loss(d) => {
                        best.win = best.win.min(d + 1);
                        if d == 0 {
                            return true;
                        }
                    }
                    TbValue::Draw => best.draw = true,
                    TbValue::Win(d) => best.loss = best.loss.max(d + 1),
                }
            } else if self.walk(&c, best) {
                return true;
            }
        }
        false
    }

    /// First look at an entry: (stored byte, paika successor count). Capture positions and positions without a
    /// turn are final (count 0); paika positions get byte 0 and their number of successors.
    #[inline]
    fn first_look(&self, own: u64, opp: u64) -> (u8, u8) {
        let pos = own_to_move(self.ix.variant, own, opp);
        if pos.has_capture() {
            let mut best = Best { win: u32::MAX, draw: false, loss: 0 };
            self.walk(&pos, &mut best);
            let v = if best.win != u32::MAX {
                TbValue::Win(best.win)
            } else if best.draw {
                TbValue::Draw
            } else {
                TbValue::Loss(best.loss)
            };
            (v.encode(), 0)
        } else {
            match pos.count_paika() {
                0 => (TbValue::Loss(0).encode(), 0),
                k => (0, u8::try_from(k).expect("at most 8 steps per piece")),
            }
        }
    }

    /// First look at rows `row0..` of class (a, b); returns the histogram of stored bytes (final entries only).
    fn first_rows(&self, a: u32, b: u32, row0: usize, vals: &mut [u8], counts: &mut [u8]) -> [u64; 256] {
        let mut hist = [0u64; 256];
        let at = row0 * self.ix.row_len(a, b) as usize;
        self.first_span(a, b, at, vals, counts, &mut hist);
        hist
    }

    /// First look at the entries of class (a, b) from index `at` on, as many as `vals` holds (`counts` the same
    /// entries); adds the stored bytes of the final entries to `hist`. A span may start and end within a row: a
    /// build in slices ([`SlicedBuild`]) takes a few thousand entries at a time.
    fn first_span(&self, a: u32, b: u32, at: usize, vals: &mut [u8], counts: &mut [u8], hist: &mut [u64; 256]) {
        let ix = self.ix;
        let row = ix.row_len(a, b) as usize;
        let mut pts = [0u8; 64];
        let (mut done, end) = (0, vals.len());
        while done < end {
            let (r, col) = ((at + done) / row, (at + done) % row);
            let n = (row - col).min(end - done);
            let (vrow, crow) = (&mut vals[done..done + n], &mut counts[done..done + n]);
            done += n;
            let own = ix.unrank(r as u64, a, ix.board);
            // Only canonical entries are solved (the others stay 0 and are copied in at the end): a row whose own
            // set has a smaller image has none, and only the symmetries that fix the own set can make a smaller
            // opponent set.
            let mut fixing = [0usize; 3];
            let mut nfix = 0;
            let mut smaller = false;
            for k in 0..3 {
                let img = ix.image(k, own);
                smaller |= img < own;
                if img == own {
                    fixing[nfix] = k;
                    nfix += 1;
                }
            }
            if smaller {
                continue;
            }
            let free = free_points(ix.board & !own, &mut pts);
            // Opponent sets in colex order, as ordinals among the free points.
            let mut comb: u64 = first_combination(ix, b, col, free);
            for (v, c) in vrow.iter_mut().zip(crow.iter_mut()) {
                let opp = spread(comb, &pts);
                if comb != 0 {
                    comb = next_combination(comb);
                }
                if fixing[..nfix].iter().any(|&k| ix.image(k, opp) < opp) {
                    continue;
                }
                let (byte, count) = self.first_look(own, opp);
                *v = byte;
                *c = count;
                if count == 0 {
                    hist[byte as usize] += 1;
                }
            }
        }
    }

    /// First look at all of class (a, b), on `threads` threads.
    fn first_pass(&self, a: u32, b: u32, vals: &mut [u8], counts: &mut [u8], threads: usize) -> [u64; 256] {
        let row = self.ix.row_len(a, b) as usize;
        if threads <= 1 || vals.len() < 1 << 14 {
            return self.first_rows(a, b, 0, vals, counts);
        }
        // Small blocks handed out on demand: capture positions, which cost the most, are unevenly spread.
        let rows_per_block = (1usize << 14).div_ceil(row);
        let blocks: Vec<_> = vals
            .chunks_mut(rows_per_block * row)
            .zip(counts.chunks_mut(rows_per_block * row))
            .enumerate()
            .map(|(i, (v, c))| (i * rows_per_block, v, c))
            .collect();
        let queue = Mutex::new(blocks.into_iter());
        let mut hist = [0u64; 256];
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut h = [0u64; 256];
                        loop {
                            let next = queue.lock().expect("no worker panics holding the lock").next();
                            let Some((row0, v, c)) = next else { break };
                            for (x, y) in h.iter_mut().zip(self.first_rows(a, b, row0, v, c)) {
                                *x += y;
                            }
                        }
                        h
                    })
                })
                .collect();
            for w in workers {
                for (x, y) in hist.iter_mut().zip(w.join().expect("tablebase worker panicked")) {
                    *x += y;
                }
            }
        });
        hist
    }
}

/// The first index at or after `from` where `s` holds `v`.
fn find_byte(s: &[u8], from: usize, v: u8) -> Option<usize> {
    let mut i = from;
    // Skip whole blocks without `v` with a branch-free test that vectorises (an early-exit search does not).
    while i + 64 <= s.len() {
        if s[i..i + 64].iter().fold(false, |acc, &x| acc | (x == v)) {
            break;
        }
        i += 64;
    }
    s[i..].iter().position(|&x| x == v).map(|k| i + k)
}

/// The two classes (a, b) and (b, a) whose paika turns lead into each other (one class when a = b).
struct Pair<'a> {
    ix: &'a Indexer,
    /// (own, opp) counts of each class.
    class: [(u32, u32); 2],
    vals: [&'a mut [u8]; 2],
    /// Paika successors not yet known to win for the opponent; 0 for final entries.
    counts: [Vec<u8>; 2],
    /// Number of final entries per stored byte.
    hist: [u64; 256],
}

impl Pair<'_> {
    fn other(&self, k: usize) -> usize {
        if self.class[0] == self.class[1] { k } else { 1 - k }
    }

    /// Successor-counting retrograde analysis, distance by distance, over the canonical entries.
    ///
    /// Each round, `threads` threads scan a stretch of a class for the entries settled at the current distance and
    /// list their predecessors' indices (reading only), then one thread applies the list, prefetching ahead, as
    /// the random accesses to the predecessors are most of what is left of the cost. Applying in any order gives
    /// the same table: the entries touched at distance `d` are only ever set to distance `d + 1`.
    ///
    /// Starts at distance `from` (a resumed build: the rounds before are done) and calls `after_round` with the
    /// distance of each finished round; stops, returning false, when it answers false.
    fn retrograde(&mut self, threads: usize, from: u32, after_round: &mut dyn FnMut(&Pair, u32) -> bool) -> bool {
        /// Entries of a class each thread scans per round: its list of predecessors stays a few megabytes.
        const STRETCH: usize = 1 << 19;
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); threads.max(1)];
        // Up to MAX_DISTANCE included: an entry at the last distance must still be looked at, so that a predecessor
        // that would need a longer one fails loudly instead of passing for a draw.
        for d in from..=MAX_DISTANCE {
            let v = (d + 1) as u8;
            let mut left = self.hist[v as usize];
            let classes = if self.class[0] == self.class[1] { 1 } else { 2 };
            for k in 0..classes {
                let pk = self.other(k);
                let n = self.vals[k].len();
                let mut start = 0;
                while left > 0 && start < n {
                    let this = &*self;
                    let ranges: Vec<_> = (0..lists.len())
                        .map(|t| (start + t * STRETCH).min(n)..(start + (t + 1) * STRETCH).min(n))
                        .collect();
                    start = ranges.last().expect("at least one thread").end;
                    let found: u64 = if lists.len() == 1 {
                        this.predecessors(k, v, ranges[0].clone(), &mut lists[0])
                    } else {
                        std::thread::scope(|s| {
                            let (first, rest) = lists.split_first_mut().expect("at least one thread");
                            let workers: Vec<_> = rest
                                .iter_mut()
                                .zip(&ranges[1..])
                                .map(|(list, r)| s.spawn(move || this.predecessors(k, v, r.clone(), list)))
                                .collect();
                            let mine = this.predecessors(k, v, ranges[0].clone(), first);
                            mine + workers
                                .into_iter()
                                .map(|w| w.join().expect("tablebase worker panicked"))
                                .sum::<u64>()
                        })
                    };
                    left -= found;
                    for list in &lists {
                        self.settle(pk, d, list);
                    }
                }
            }
            if d < MAX_DISTANCE && !after_round(self, d) {
                return false;
            }
        }
        true
    }

    /// The number of entries holding each byte, as the first pass and [`Pair::settle`] keep it (every nonzero
    /// byte is a final entry): what a resumed build needs again.
    fn recount(&mut self) {
        self.hist = [0; 256];
        for &byte in self.vals.iter().flat_map(|v| v.iter()) {
            self.hist[byte as usize] += 1;
        }
    }

    /// Lists in `out` the canonical predecessor of every paika move into the symmetry class of each entry of
    /// class `k` in `range` that holds byte `v`; returns how many such entries there were.
    ///
    /// A count is a number of paika **moves**, so when an entry is settled every move into its symmetry class must
    /// be taken off exactly once: each un-move leads to a predecessor, which is mapped to its canonical form by
    /// every symmetry that does so (more than one when the predecessor is symmetric), carrying the move along;
    /// the distinct (predecessor, move) pairs are the moves into the class. Repeats can only come from a
    /// symmetric entry, so only those are checked for them.
    fn predecessors(&self, k: usize, v: u8, range: std::ops::Range<usize>, out: &mut Vec<u32>) -> u64 {
        let ix = self.ix;
        let g = ix.variant.geometry();
        let (a, b) = self.class[k];
        let vals = &self.vals[k][..range.end];
        out.clear();
        let mut moves: Vec<(u32, u8, u8)> = Vec::with_capacity(256);
        let mut found = 0;
        let mut i = range.start;
        while let Some(at) = find_byte(vals, i, v) {
            i = at + 1;
            found += 1;
            let (own, opp) = ix.unindex(a, b, at);
            let empty = ix.board & !(own | opp);
            let own_img = [ix.image(0, own), ix.image(1, own), ix.image(2, own)];
            let opp_img = [ix.image(0, opp), ix.image(1, opp), ix.image(2, opp)];
            let symmetric = (0..3).any(|s| (own_img[s], opp_img[s]) == (own, opp));
            moves.clear();
            // Predecessors: the opponent had just moved a piece from an empty point to where it stands.
            let mut moved = opp;
            while moved != 0 {
                let q = moved.trailing_zeros() as usize;
                moved &= moved - 1;
                let mut from = g.adjacent[q] & empty;
                while from != 0 {
                    let p = from.trailing_zeros() as usize;
                    from &= from - 1;
                    let before = opp ^ (1 << q) ^ (1 << p);
                    let mut best = (before, own);
                    let mut images = [(before, own); 3];
                    for s in 0..3 {
                        let (sq, sp) = (ix.sym[s][q], ix.sym[s][p]);
                        images[s] = (opp_img[s] ^ (1 << sq) ^ (1 << sp), own_img[s]);
                        best = best.min(images[s]);
                    }
                    let pi = ix.index(best.0, best.1) as u32;
                    let mut note = |m: (u32, u8, u8)| {
                        if !symmetric || !moves.contains(&m) {
                            moves.push(m);
                        }
                    };
                    if best == (before, own) {
                        note((pi, p as u8, q as u8));
                    }
                    for (image, sym) in images.iter().zip(&ix.sym) {
                        if *image == best {
                            note((pi, sym[p], sym[q]));
                        }
                    }
                }
            }
            out.extend(moves.iter().map(|m| m.0));
        }
        found
    }

    /// Applies to class `pk` the predecessors listed for entries settled at distance `d`.
    fn settle(&mut self, pk: usize, d: u32, list: &[u32]) {
        /// How far ahead in the list entries are prefetched.
        const AHEAD: usize = 32;
        let vals = &mut *self.vals[pk];
        let counts = &mut self.counts[pk];
        for (j, &pi) in list.iter().enumerate() {
            if let Some(&next) = list.get(j + AHEAD) {
                prefetch(vals, next as usize);
                prefetch(counts, next as usize);
            }
            let pi = pi as usize;
            // Count 0: final already, a capture position (paika was not legal there), or not canonical.
            if vals[pi] != 0 || counts[pi] == 0 {
                continue;
            }
            assert!(d < MAX_DISTANCE, "tablebase distance {} does not fit in a byte", d + 1);
            if d.is_multiple_of(2) {
                // This entry is lost: moving into it wins.
                vals[pi] = TbValue::Win(d + 1).encode();
                self.hist[d as usize + 2] += 1;
            } else {
                counts[pi] -= 1;
                if counts[pi] == 0 {
                    // Every turn leads to a win for the opponent, this one (processed last) the longest.
                    vals[pi] = TbValue::Loss(d + 1).encode();
                    self.hist[d as usize + 2] += 1;
                }
            }
        }
    }

    /// The header of the file [`Pair::write_partial`] writes: magic, format version, board, the table's pieces, the
    /// pair, the length of what follows, its checksum and the distance of the next round.
    fn partial_header(&self, variant: Variant, max_pieces: u32, next: u32) -> [u8; PARTIAL_HEADER_LEN] {
        let (a, b) = self.class[1];
        let parts = [&*self.vals[0], &*self.vals[1], &self.counts[0], &self.counts[1]];
        let mut h = [0u8; PARTIAL_HEADER_LEN];
        h[..HEADER_LEN].copy_from_slice(&pair_header(PARTIAL_MAGIC, variant, max_pieces, a, b, &parts));
        h[32..36].copy_from_slice(&next.to_le_bytes());
        h
    }

    /// Saves the pair's analysis before the round of distance `next` (values and successor counts of both
    /// classes; 0 after the first pass), through a temporary name so that the file is whole or absent.
    fn write_partial(&self, path: &Path, variant: Variant, max_pieces: u32, next: u32) -> Result<(), TbError> {
        let header = self.partial_header(variant, max_pieces, next);
        write_whole(path, &[&header, self.vals[0], self.vals[1], &self.counts[0], &self.counts[1]])
    }

    /// Takes up the analysis [`Pair::write_partial`] saved for exactly this table and pair: the distance of the
    /// next round, or None (the arrays then in any state) when the file is absent, damaged or another's.
    fn read_partial(&mut self, path: &Path, variant: Variant, max_pieces: u32) -> Option<u32> {
        let mut f = io::BufReader::new(fs::File::open(path).ok()?);
        let mut h = [0u8; PARTIAL_HEADER_LEN];
        f.read_exact(&mut h).ok()?;
        // The header alone first: a file of another pair is not read through.
        let next = u32::from_le_bytes(h[32..36].try_into().expect("4 bytes"));
        if h[..16] != self.partial_header(variant, max_pieces, next)[..16] || next > MAX_DISTANCE {
            return None;
        }
        let [v0, v1] = &mut self.vals;
        let [c0, c1] = &mut self.counts;
        for part in [&mut **v0, &mut **v1, c0.as_mut_slice(), c1.as_mut_slice()] {
            f.read_exact(part).ok()?;
        }
        if !matches!(f.read(&mut [0u8; 1]), Ok(0)) || h != self.partial_header(variant, max_pieces, next) {
            return None;
        }
        self.recount();
        Some(next)
    }

    /// Copies the value of each canonical entry to the other entries of its symmetry class.
    fn fill(&mut self) {
        let classes = if self.class[0] == self.class[1] { 1 } else { 2 };
        for k in 0..classes {
            let n = self.vals[k].len();
            self.fill_span(k, 0..n);
        }
    }

    /// [`Pair::fill`] for the entries `range` of class `k` (the canonical entries of the class are all final).
    fn fill_span(&mut self, k: usize, range: std::ops::Range<usize>) {
        let ix = self.ix;
        let (a, b) = self.class[k];
        let vals = &mut *self.vals[k];
        let row = ix.row_len(a, b) as usize;
        let mut pts = [0u8; 64];
        let mut at = range.start;
        while at < range.end {
            let (r, col) = (at / row, at % row);
            let n = (row - col).min(range.end - at);
            let chunk = at;
            at += n;
            let own = ix.unrank(r as u64, a, ix.board);
            let own_img = [ix.image(0, own), ix.image(1, own), ix.image(2, own)];
            if own_img.iter().all(|&i| i > own) {
                // Every entry of the row is canonical.
                continue;
            }
            let free = free_points(ix.board & !own, &mut pts);
            let mut comb: u64 = first_combination(ix, b, col, free);
            for at in chunk..chunk + n {
                let opp = spread(comb, &pts);
                if comb != 0 {
                    comb = next_combination(comb);
                }
                let (co, cp) = ix.canonical(own, opp);
                if (co, cp) != (own, opp) {
                    vals[at] = vals[ix.index(co, cp)];
                }
            }
        }
    }
}

/// Lists the points of `avail` in `pts`, lowest first; returns how many there are.
#[inline]
fn free_points(mut avail: u64, pts: &mut [u8; 64]) -> u32 {
    let mut k = 0;
    while avail != 0 {
        pts[k] = avail.trailing_zeros() as u8;
        avail &= avail - 1;
        k += 1;
    }
    k as u32
}

/// The `b` ordinals among `free` points with colex rank `col`: the opponent set of column `col` of a row, from
/// which [`next_combination`] walks the rest of the row.
#[inline]
fn first_combination(ix: &Indexer, b: u32, col: usize, free: u32) -> u64 {
    if col == 0 { (1 << b) - 1 } else { ix.unrank(col as u64, b, (1u64 << free) - 1) }
}

/// Starts loading `s[i]` into the cache (a hint: no effect on the result).
#[inline(always)]
fn prefetch(s: &[u8], i: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = s.as_ptr().wrapping_add(i);
        // SAFETY: prefetching is a hint with no effect on memory safety, whatever the address.
        unsafe { std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (s, i);
}

/// File magic: a name, then bytes that text-mode transfers would mangle.
const MAGIC: [u8; 8] = *b"FNRTB\r\n\x1a";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 32;

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Tsivy => 0,
        Variant::Dimy => 1,
    }
}

/// A 64-bit checksum of the data; every step is a bijection of the state, so any single changed word is caught.
fn checksum(data: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ data.len() as u64;
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    h
}

/// Checks a table file's header (see [`Tablebase::save`]) against the table wanted: `variant`, `max_pieces` and
/// its `total` entries.
fn check_header(h: &[u8; HEADER_LEN], variant: Variant, max_pieces: u32, total: usize) -> Result<(), TbError> {
    if h[0..8] != MAGIC {
        return Err(TbError::NotATablebase);
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TbError::Version(version));
    }
    if h[12] != variant_code(variant) {
        return Err(TbError::WrongVariant { expected: variant, found: h[12] });
    }
    if h[13] as u32 != max_pieces {
        return Err(TbError::WrongPieces { expected: max_pieces, found: h[13] as u32 });
    }
    let len = u64::from_le_bytes(h[16..24].try_into().expect("8 bytes"));
    if len != total as u64 || h[14..16] != [0, 0] {
        return Err(TbError::WrongLength);
    }
    Ok(())
}

/// Reads a table file's header from `f` and checks it against the table wanted ([`check_header`]).
fn read_header(f: &mut impl Read, variant: Variant, max_pieces: u32) -> Result<([u8; HEADER_LEN], Indexer), TbError> {
    let mut h = [0u8; HEADER_LEN];
    f.read_exact(&mut h)
        .map_err(|e| if e.kind() == io::ErrorKind::UnexpectedEof { TbError::NotATablebase } else { TbError::Io(e) })?;
    let ix = Indexer::new(variant, max_pieces);
    check_header(&h, variant, max_pieces, ix.total)?;
    Ok((h, ix))
}

/// Checks a table's entries against the checksum its file's header `h` holds.
fn check_sum(h: &[u8; HEADER_LEN], data: &[u8]) -> Result<(), TbError> {
    if checksum(data) == u64::from_le_bytes(h[24..32].try_into().expect("8 bytes")) {
        Ok(())
    } else {
        Err(TbError::Checksum)
    }
}

/// An endgame tablebase for one board: the exact value of every position with up to [`Tablebase::max_pieces`]
/// pieces in total.
#[derive(Clone)]
pub struct Tablebase {
    ix: Indexer,
    data: Entries,
}

/// Where a table's entries live: in memory the program owns (built, or read from a file), or mapped from its
/// cached file. Mapping skips the copy: a cached six-piece table (563 MB) loads in about a third of the time of
/// reading it, and engines that run at once share its pages instead of each holding a copy.
enum Entries {
    Owned(Vec<u8>),
    #[cfg(not(target_arch = "wasm32"))]
    Mapped(memmap2::Mmap),
}

impl Entries {
    /// The entries.
    fn slice(&self) -> &[u8] {
        match self {
            Entries::Owned(v) => v,
            #[cfg(not(target_arch = "wasm32"))]
            Entries::Mapped(m) => m,
        }
    }
}

impl std::ops::Deref for Entries {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.slice()
    }
}

impl Clone for Entries {
    fn clone(&self) -> Entries {
        Entries::Owned(self.slice().to_vec())
    }
}

impl PartialEq for Entries {
    fn eq(&self, other: &Entries) -> bool {
        self.slice() == other.slice()
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} entries", self.slice().len())
    }
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("variant", &self.ix.variant)
            .field("max_pieces", &self.ix.max)
            .field("entries", &self.data.len())
            .finish()
    }
}

impl Tablebase {
    /// Builds the table of every position with up to `max_pieces` pieces on `variant`'s board, calling `progress`
    /// with a line of text after each pair of material classes. Uses every available core (scoped threads) for
    /// the first look at each entry and for listing predecessors in the retrograde pass.
    ///
    /// # Panics
    /// If `max_pieces` exceeds [`MAX_PIECES`], or (never seen for small tables) a distance exceeds 254 turns.
    pub fn build(variant: Variant, max_pieces: u32, progress: impl FnMut(&str)) -> Tablebase {
        Self::build_on(variant, max_pieces, all_cores(), progress)
    }

    /// [`Tablebase::build`] on `threads` threads (a background build leaves the other cores to the search).
    pub fn build_on(variant: Variant, max_pieces: u32, threads: usize, mut progress: impl FnMut(&str)) -> Tablebase {
        Self::build_with(variant, max_pieces, threads, None, &mut progress).expect("never asked to stop")
    }

    /// The build itself. With a folder (`resume`), it starts from the largest smaller table cached there (whose
    /// entries are the first ones of this table: the layout is by total pieces), restores every pair of classes
    /// that an earlier, interrupted build of the same table finished, and writes each pair it finishes to a part
    /// file there, so that an engine that quits before the build is done (a short game on a fresh machine) leaves
    /// the next one less to do. Within a pair it saves the retrograde analysis's progress now and then, as the
    /// largest pair takes most of a minute on one core. None when `resume`'s `stop` said so.
    fn build_with(
        variant: Variant,
        max_pieces: u32,
        threads: usize,
        resume: Option<&Resume>,
        progress: &mut dyn FnMut(&str),
    ) -> Option<Tablebase> {
        let started = Instant::now();
        let ix = Indexer::new(variant, max_pieces);
        let mut data = vec![0u8; ix.total];
        let threads = threads.clamp(1, 8);
        let mut first_total = 0;
        if let Some(r) = resume {
            remove_stale_temporaries(r.dir, variant, max_pieces);
        }
        if let Some((smaller, path)) = resume.and_then(|r| smaller_cached(r.dir, variant, max_pieces)) {
            data[..smaller.data.len()].copy_from_slice(&smaller.data);
            first_total = smaller.max_pieces() + 1;
            progress(&format!("tablebase {variant}: up to {} pieces from {}", smaller.max_pieces(), path.display()));
        }
        for t in first_total..=max_pieces {
            let start = ix.offset(0, t);
            let (lower, upper) = data.split_at_mut(start);
            let solver = Solver { ix: &ix, lower };
            // Pairs (a, b) with a ≥ b; class (b, a) lies before (a, b) in the layout.
            for a in t.div_ceil(2)..=t {
                if resume.is_some_and(|r| (r.stop)()) {
                    return None;
                }
                let b = t - a;
                let group_started = Instant::now();
                let lo = ix.offset(b, a) - start;
                let hi = ix.offset(a, b) - start;
                let single = a == b;
                // For a = b both ranges are the same class: it goes in slot 0 and slot 1 stays empty.
                let (first, second) = upper.split_at_mut(if single { hi + ix.class_size(a, b) } else { hi });
                let first = &mut first[lo..lo + ix.class_size(b, a)];
                let second = if single { &mut [] } else { &mut second[..ix.class_size(a, b)] };
                let part = resume.map(|r| r.dir.join(part_name(variant, max_pieces, a, b)));
                let partial = resume.map(|r| r.dir.join(partial_name(variant, max_pieces, a, b)));
                let mut first_pass_s = 0.0;
                let mut resumed_at = None;
                let restored =
                    part.as_deref().is_some_and(|path| read_part(path, variant, max_pieces, a, b, first, second));
                if !restored {
                    let mut pair = Pair {
                        ix: &ix,
                        class: [(b, a), (a, b)],
                        counts: [vec![0; first.len()], vec![0; second.len()]],
                        vals: [&mut *first, &mut *second],
                        hist: [0; 256],
                    };
                    resumed_at = partial.as_deref().and_then(|path| pair.read_partial(path, variant, max_pieces));
                    if resumed_at.is_none() {
                        // A file that failed its checks may have been read into the arrays halfway.
                        pair.vals.iter_mut().for_each(|v| v.fill(0));
                        pair.counts.iter_mut().for_each(|c| c.fill(0));
                        let classes = if single { 1 } else { 2 };
                        for k in 0..classes {
                            let (ca, cb) = pair.class[k];
                            let h = solver.first_pass(ca, cb, pair.vals[k], &mut pair.counts[k], threads);
                            for (x, y) in pair.hist.iter_mut().zip(h) {
                                *x += y;
                            }
                        }
                        first_pass_s = group_started.elapsed().as_secs_f64();
                    }
                    let mut saved_at = Instant::now();
                    // A long first pass is kept at once: a short-lived engine may not see the next save.
                    if let (Some(r), Some(path), None) = (resume, partial.as_deref(), resumed_at)
                        && first_pass_s >= r.every.as_secs_f64() / 4.0
                        && let Err(e) = pair.write_partial(path, variant, max_pieces, 0)
                    {
                        progress(&format!("tablebase progress {} not saved: {e}", path.display()));
                    }
                    let mut after_round = |pair: &Pair, d: u32| {
                        let Some(r) = resume else { return true };
                        let stopping = (r.stop)();
                        if stopping || saved_at.elapsed() >= r.every {
                            let path = partial.as_deref().expect("a resumable build has the folder");
                            if let Err(e) = pair.write_partial(path, variant, max_pieces, d + 1) {
                                progress(&format!("tablebase progress {} not saved: {e}", path.display()));
                            }
                            saved_at = Instant::now();
                        }
                        !stopping
                    };
                    if !pair.retrograde(threads, resumed_at.unwrap_or(0), &mut after_round) {
                        return None;
                    }
                    pair.fill();
                    if let (Some(path), Some(partial), Some(r)) = (&part, &partial, resume) {
                        let saved = if group_started.elapsed() >= r.keep_from || resumed_at.is_some() {
                            write_part(path, variant, max_pieces, a, b, first, second)
                        } else {
                            Ok(())
                        };
                        // The analysis in progress is of no more use once the pair is saved or quick to build.
                        match saved {
                            Ok(()) => {
                                let _ = fs::remove_file(partial);
                            }
                            Err(e) => progress(&format!("tablebase part {} not saved: {e}", path.display())),
                        }
                    }
                }
                let mut wdl = [0usize; 3];
                for &byte in first.iter().chain(second.iter()) {
                    wdl[match TbValue::decode(byte) {
                        TbValue::Win(_) => 0,
                        TbValue::Draw => 1,
                        TbValue::Loss(_) => 2,
                    }] += 1;
                }
                let names = if single { format!("{a}v{b}") } else { format!("{a}v{b} and {b}v{a}") };
                progress(&format!(
                    "tablebase {variant} {names}: {} positions {} (win {}, draw {}, loss {})",
                    wdl.iter().sum::<usize>(),
                    if restored {
                        "restored from an earlier build's part file".to_string()
                    } else if let Some(d) = resumed_at {
                        format!(
                            "in {:.2} s, resumed at distance {d} from an earlier build",
                            group_started.elapsed().as_secs_f64()
                        )
                    } else {
                        format!("in {:.2} s (first pass {first_pass_s:.2} s)", group_started.elapsed().as_secs_f64())
                    },
                    wdl[0],
                    wdl[1],
                    wdl[2]
                ));
            }
        }
        progress(&format!(
            "tablebase {variant} up to {max_pieces} pieces: {} positions in {:.2} s",
            data.len(),
            started.elapsed().as_secs_f64()
        ));
        Some(Tablebase { ix, data: Entries::Owned(data) })
    }

    /// The board.
    pub fn variant(&self) -> Variant {
        self.ix.variant
    }

    /// The most pieces (both sides together) a position may have to be in the table.
    pub fn max_pieces(&self) -> u32 {
        self.ix.max
    }

    /// Number of stored entries (positions relative to the side to move).
    pub fn entries(&self) -> usize {
        self.data.len()
    }

    /// The exact value of a position for its side to move; `None` when the table does not cover it: another
    /// board, more pieces than [`Tablebase::max_pieces`], a relay in progress, or rules other than the defaults
    /// (another relay rule, vela, a first-turn option that still applies).
    pub fn probe(&self, pos: &Position) -> Option<TbValue> {
        // The search probes every node: rule out the common cases cheaply first.
        let s = pos.side_to_move();
        let (own, opp) = (pos.pieces(s), pos.pieces(s.opponent()));
        if own.count_ones() + opp.count_ones() > self.ix.max || pos.in_relay() || !self.covers_rules(pos) {
            return None;
        }
        Some(TbValue::decode(self.data[self.ix.global(own, opp)]))
    }

    /// Whether the position's rules give every turn from here the same options as the default rules.
    fn covers_rules(&self, pos: &Position) -> bool {
        let r = pos.rules();
        pos.variant() == self.ix.variant
            && r.relay == RelayRule::Default
            && r.vela.is_none()
            && !(r.first_turn_no_relay && pos.is_first_turn())
            && !(r.single_first_capture && !(pos.has_captured(Side::White) && pos.has_captured(Side::Black)))
    }

    /// A turn that realises the position's value and that value (for the side to move): the fastest win, the
    /// longest loss, or a drawing turn. Works in the middle of a relay too: the turn then completes the relay, and
    /// an empty turn means stopping at once. Also works where the position itself is not covered but its
    /// successors are (more pieces than the table but only captures, or a first turn under a first-turn option).
    /// `None` when there is no legal turn (the side to move has lost) or some successor is not in the table.
    pub fn best_turn(&self, pos: &Position) -> Option<(Turn, TbValue)> {
        let mut best: Option<(Turn, TbValue)> = None;
        for turn in pos.legal_turns() {
            let mut child = *pos;
            if turn.is_empty() {
                // In a relay, the empty completion is stopping at once.
                child.stop_relay();
            } else {
                child.play_turn(&turn).ok()?;
            }
            let v = self.probe(&child)?.after_turn();
            if best.as_ref().is_none_or(|(_, b)| v > *b) {
                best = Some((turn, v));
            }
        }
        best
    }

    /// The longest forced win in the table and a position (White to move) that has it; `None` if no position is
    /// won (only with fewer than one piece).
    pub fn longest_win(&self) -> Option<(u32, Position)> {
        // Wins are stored as even bytes (distance + 1 with an odd distance).
        // Two plain scans (the first vectorises) rather than one with indices: a second instead of several on
        // the 6-piece table.
        let byte = self.data.iter().map(|&b| if b % 2 == 0 { b } else { 0 }).max().filter(|&b| b != 0)?;
        let at = self.data.iter().position(|&b| b == byte).expect("the byte was just found");
        let (a, b) = self.ix.class_of(at);
        let (own, opp) = self.ix.unindex(a, b, at - self.ix.offset(a, b));
        Some((byte as u32 - 1, own_to_move(self.ix.variant, own, opp)))
    }

    /// The file name [`Tablebase::load_or_build`] uses, e.g. `fanorona-tsivy-5.tb`.
    pub fn file_name(variant: Variant, max_pieces: u32) -> String {
        format!("fanorona-{variant}-{max_pieces}.tb")
    }

    fn header(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = variant_code(self.ix.variant);
        h[13] = self.ix.max as u8;
        h[16..24].copy_from_slice(&(self.data.len() as u64).to_le_bytes());
        h[24..32].copy_from_slice(&checksum(&self.data).to_le_bytes());
        h
    }

    /// Writes the table to `path`: a 32-byte header (magic, format version, board, piece count, data length,
    /// checksum) and one byte per entry, through a temporary name so that the file is whole or absent.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), TbError> {
        write_whole(path.as_ref(), &[&self.header(), &self.data])
    }

    /// Reads a table written by [`Tablebase::save`], checking that it is for `variant` and `max_pieces` and that
    /// it is intact. Never panics on a bad file.
    pub fn load(path: impl AsRef<Path>, variant: Variant, max_pieces: u32) -> Result<Tablebase, TbError> {
        if max_pieces > MAX_PIECES {
            return Err(TbError::TooManyPieces(max_pieces));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(mapped) = Self::map(path.as_ref(), variant, max_pieces) {
            return mapped;
        }
        Self::read(path.as_ref(), variant, max_pieces)
    }

    /// [`Tablebase::load`] by reading the file into memory.
    fn read(path: &Path, variant: Variant, max_pieces: u32) -> Result<Tablebase, TbError> {
        let mut f = io::BufReader::new(fs::File::open(path)?);
        let (h, ix) = read_header(&mut f, variant, max_pieces)?;
        let mut data = vec![0u8; ix.total];
        f.read_exact(&mut data).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof { TbError::WrongLength } else { TbError::Io(e) }
        })?;
        if f.read(&mut [0u8; 1])? != 0 {
            return Err(TbError::WrongLength);
        }
        check_sum(&h, &data)?;
        Ok(Tablebase { ix, data: Entries::Owned(data) })
    }

    /// [`Tablebase::load`] by mapping the file's entries: None where they cannot be mapped (the caller reads the
    /// file instead).
    #[cfg(not(target_arch = "wasm32"))]
    fn map(path: &Path, variant: Variant, max_pieces: u32) -> Option<Result<Tablebase, TbError>> {
        let mapped = || -> Result<Option<Tablebase>, TbError> {
            let mut file = fs::File::open(path)?;
            let (h, ix) = read_header(&mut file, variant, max_pieces)?;
            if file.metadata()?.len() != (HEADER_LEN + ix.total) as u64 {
                return Err(TbError::WrongLength);
            }
            // Not `populate`: the checksum below reads every page anyway and faults them in as it goes (the
            // six-piece table loaded in 0.14-0.15 s either way), without keeping the process's memory map busy.
            let mut options = memmap2::MmapOptions::new();
            options.offset(HEADER_LEN as u64).len(ix.total);
            // SAFETY: the map is only read. A mapped file that changed under the map would change the table (or,
            // truncated, stop the program), so no table file is ever written in place: `write_whole` writes a new
            // file and renames it over the old one, which leaves a mapped old file as it was.
            let Ok(map) = (unsafe { options.map(&file) }) else { return Ok(None) };
            check_sum(&h, &map)?;
            Ok(Some(Tablebase { ix, data: Entries::Mapped(map) }))
        };
        mapped().transpose()
    }

    /// Loads `dir/`[`file_name`](Tablebase::file_name) if it is there and intact; otherwise builds the table and
    /// saves it there (creating `dir`). A cache that cannot be written is reported through `progress` and the
    /// built table is still returned; only an invalid `max_pieces` is an error.
    pub fn load_or_build(
        dir: impl AsRef<Path>,
        variant: Variant,
        max_pieces: u32,
        progress: impl FnMut(&str),
    ) -> Result<Tablebase, TbError> {
        Self::load_or_build_on(dir, variant, max_pieces, all_cores(), progress)
    }

    /// [`Tablebase::load_or_build`], building on `threads` threads. The build resumes what an interrupted one
    /// left in `dir` (it starts from the largest smaller table cached there, takes each pair of material classes
    /// already finished, and the pair in progress where it was last saved: see the module documentation) and
    /// removes those files once the whole table is saved.
    pub fn load_or_build_on(
        dir: impl AsRef<Path>,
        variant: Variant,
        max_pieces: u32,
        threads: usize,
        mut progress: impl FnMut(&str),
    ) -> Result<Tablebase, TbError> {
        let resume = Resume { dir: dir.as_ref(), every: CHECKPOINT_EVERY, keep_from: KEEP_FROM, stop: &|| false };
        Self::load_or_build_until(&resume, variant, max_pieces, threads, &mut progress)
            .map(|tb| tb.expect("never asked to stop"))
    }

    /// [`Tablebase::load_or_build_on`] in `resume.dir`, which asks `resume.stop` between pairs of classes and
    /// rounds of their retrograde analysis: Ok(None) when it said yes, with what was done left there for the
    /// next build.
    fn load_or_build_until(
        resume: &Resume,
        variant: Variant,
        max_pieces: u32,
        threads: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Option<Tablebase>, TbError> {
        let dir = resume.dir;
        if max_pieces > MAX_PIECES {
            return Err(TbError::TooManyPieces(max_pieces));
        }
        let path = dir.join(Self::file_name(variant, max_pieces));
        if path.exists() {
            match Self::load(&path, variant, max_pieces) {
                Ok(tb) => {
                    progress(&format!("tablebase loaded from {}", path.display()));
                    return Ok(Some(tb));
                }
                Err(e) => progress(&format!("tablebase {} not usable ({e}); rebuilding", path.display())),
            }
        }
        // Without the folder the build still runs, only without part files.
        let resume = fs::create_dir_all(dir).is_ok().then_some(resume);
        let Some(tb) = Self::build_with(variant, max_pieces, threads, resume, progress) else {
            return Ok(None);
        };
        match tb.save(&path) {
            Ok(()) => {
                progress(&format!("tablebase saved to {}", path.display()));
                for t in 0..=max_pieces {
                    for a in t.div_ceil(2)..=t {
                        let _ = fs::remove_file(dir.join(part_name(variant, max_pieces, a, t - a)));
                        let _ = fs::remove_file(dir.join(partial_name(variant, max_pieces, a, t - a)));
                    }
                }
            }
            Err(e) => progress(&format!("tablebase not saved to {}: {e}", path.display())),
        }
        Ok(Some(tb))
    }
}

/// Entries a slice of [`SlicedBuild`] looks at before it checks the clock: a few milliseconds' work at most on
/// the 9 × 5 board, in the browser too.
const SLICE_ENTRIES: usize = 1 << 12;

/// Where a [`SlicedBuild`] stands within the pair of classes it builds.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// The first look at class `k` of the pair, from entry `at` on.
    First {
        k: usize,
        at: usize,
    },
    /// The retrograde round of distance `d` over class `k`, from entry `at` on; `left` entries holding the round's
    /// byte are still to be found in this round.
    Retro {
        d: u32,
        k: usize,
        at: usize,
        left: u64,
    },
    /// Copying canonical values to the rest of class `k`, from entry `at` on.
    Fill {
        k: usize,
        at: usize,
    },
    Done,
}

/// A tablebase built in short slices on the calling thread, for a program that has a single thread and must keep
/// drawing frames (the web page): call [`SlicedBuild::run_for`] between frames until it says it is done, then take
/// the table with [`SlicedBuild::finish`]. It does the work of [`Tablebase::build`] on one thread, in the same
/// order, and gives the same table byte for byte; only slower by the checks of the clock.
pub struct SlicedBuild {
    ix: Indexer,
    data: Vec<u8>,
    /// Total pieces of the pair being built, and its larger count (the pair is classes (b, a) and (a, b)).
    t: u32,
    a: u32,
    stage: Stage,
    counts: [Vec<u8>; 2],
    hist: [u64; 256],
    list: Vec<u32>,
    /// Entries of the pairs finished so far.
    settled: usize,
    slices: u64,
    longest: Duration,
}

impl SlicedBuild {
    /// Starts a build of `variant`'s table up to `max_pieces` pieces; nothing is computed before the first
    /// [`SlicedBuild::run_for`].
    ///
    /// # Panics
    /// If `max_pieces` exceeds [`MAX_PIECES`].
    pub fn new(variant: Variant, max_pieces: u32) -> SlicedBuild {
        let ix = Indexer::new(variant, max_pieces);
        let data = vec![0u8; ix.total];
        let mut build = SlicedBuild {
            ix,
            data,
            t: 0,
            a: 0,
            stage: Stage::Done,
            counts: [Vec::new(), Vec::new()],
            hist: [0; 256],
            list: Vec::new(),
            settled: 0,
            slices: 0,
            longest: Duration::ZERO,
        };
        build.start_pair();
        build
    }

    /// Works for about `budget` (at least one slice of [`SLICE_ENTRIES`] entries, so that any budget makes
    /// progress); true once the table is complete.
    pub fn run_for(&mut self, budget: Duration) -> bool {
        let started = Instant::now();
        loop {
            if self.is_done() {
                return true;
            }
            let slice = Instant::now();
            self.step();
            self.slices += 1;
            self.longest = self.longest.max(slice.elapsed());
            if started.elapsed() >= budget {
                return self.is_done();
            }
        }
    }

    /// Whether the table is complete.
    pub fn is_done(&self) -> bool {
        matches!(self.stage, Stage::Done)
    }

    /// The share of the table's entries in the pairs of classes finished so far, from 0 to 1 (a rough measure of
    /// the time left: the last pairs are the largest).
    pub fn fraction_done(&self) -> f32 {
        if self.is_done() {
            return 1.0;
        }
        self.settled as f32 / self.ix.total.max(1) as f32
    }

    /// Slices run so far, and the longest of them: what a frame may lose to the build at worst.
    pub fn slices(&self) -> (u64, Duration) {
        (self.slices, self.longest)
    }

    /// The table, once [`SlicedBuild::is_done`]; None before.
    pub fn finish(self) -> Option<Tablebase> {
        if self.is_done() { Some(Tablebase { ix: self.ix, data: Entries::Owned(self.data) }) } else { None }
    }

    /// Sets up the pair (t − a, a) and (a, t − a) for its first look, or ends the build past the last pair.
    fn start_pair(&mut self) {
        if self.t > self.ix.max {
            self.stage = Stage::Done;
            self.counts = [Vec::new(), Vec::new()];
            self.list = Vec::new();
            return;
        }
        let (a, b) = (self.a, self.t - self.a);
        let second = if a == b { 0 } else { self.ix.class_size(a, b) };
        self.counts = [vec![0; self.ix.class_size(b, a)], vec![0; second]];
        self.hist = [0; 256];
        self.stage = Stage::First { k: 0, at: 0 };
    }

    /// The pair after this one: the next larger count in the same total, then the next total.
    fn next_pair(&mut self) {
        let (a, b) = (self.a, self.t - self.a);
        self.settled += self.ix.class_size(b, a) + if a == b { 0 } else { self.ix.class_size(a, b) };
        if self.a < self.t {
            self.a += 1;
        } else {
            self.t += 1;
            self.a = self.t.div_ceil(2);
        }
        self.start_pair();
    }

    /// One slice: a few thousand entries of the current stage (or the stage's end).
    fn step(&mut self) {
        let (t, a) = (self.t, self.a);
        let b = t - a;
        let single = a == b;
        let classes = if single { 1 } else { 2 };
        let ix = &self.ix;
        let start = ix.offset(0, t);
        let (lower, upper) = self.data.split_at_mut(start);
        let lo = ix.offset(b, a) - start;
        let hi = ix.offset(a, b) - start;
        let (first, second) = upper.split_at_mut(if single { hi + ix.class_size(a, b) } else { hi });
        let first = &mut first[lo..lo + ix.class_size(b, a)];
        let second = if single { &mut [] } else { &mut second[..ix.class_size(a, b)] };
        let mut pair = Pair {
            ix,
            class: [(b, a), (a, b)],
            counts: std::mem::take(&mut self.counts),
            vals: [first, second],
            hist: self.hist,
        };
        let next = match self.stage {
            Stage::First { k, at } => {
                let n = pair.vals[k].len();
                let end = (at + SLICE_ENTRIES).min(n);
                let (ca, cb) = pair.class[k];
                let solver = Solver { ix, lower };
                let mut hist = [0u64; 256];
                solver.first_span(ca, cb, at, &mut pair.vals[k][at..end], &mut pair.counts[k][at..end], &mut hist);
                for (x, y) in pair.hist.iter_mut().zip(hist) {
                    *x += y;
                }
                if end < n {
                    Stage::First { k, at: end }
                } else if k + 1 < classes {
                    Stage::First { k: k + 1, at: 0 }
                } else {
                    Stage::Retro { d: 0, k: 0, at: 0, left: pair.hist[1] }
                }
            }
            Stage::Retro { d, k, at, left } => {
                // As [`Pair::retrograde`] on one thread: a round ends once its entries are all found.
                let n = pair.vals[k].len();
                let mut found = 0;
                let mut end = at;
                if left > 0 && at < n {
                    end = (at + SLICE_ENTRIES).min(n);
                    found = pair.predecessors(k, (d + 1) as u8, at..end, &mut self.list);
                    pair.settle(pair.other(k), d, &self.list);
                }
                let left = left - found;
                if left > 0 && end < n {
                    Stage::Retro { d, k, at: end, left }
                } else if left > 0 && k + 1 < classes {
                    Stage::Retro { d, k: k + 1, at: 0, left }
                } else if d < MAX_DISTANCE {
                    Stage::Retro { d: d + 1, k: 0, at: 0, left: pair.hist[d as usize + 2] }
                } else {
                    Stage::Fill { k: 0, at: 0 }
                }
            }
            Stage::Fill { k, at } => {
                let n = pair.vals[k].len();
                let end = (at + SLICE_ENTRIES).min(n);
                pair.fill_span(k, at..end);
                if end < n {
                    Stage::Fill { k, at: end }
                } else if k + 1 < classes {
                    Stage::Fill { k: k + 1, at: 0 }
                } else {
                    Stage::Done
                }
            }
            Stage::Done => Stage::Done,
        };
        self.hist = pair.hist;
        self.counts = pair.counts;
        self.stage = next;
        if matches!(next, Stage::Done) {
            self.next_pair();
        }
    }
}

/// The largest table with fewer than `max_pieces` pieces cached intact in `dir`, and its path.
fn smaller_cached(dir: &Path, variant: Variant, max_pieces: u32) -> Option<(Tablebase, PathBuf)> {
    (1..max_pieces).rev().find_map(|k| {
        let path = dir.join(Tablebase::file_name(variant, k));
        if !path.exists() {
            return None;
        }
        Tablebase::load(&path, variant, k).ok().map(|tb| (tb, path))
    })
}

/// The file of one finished pair of classes, (a, b) and (b, a), of an unfinished `max_pieces` table.
fn part_name(variant: Variant, max_pieces: u32, a: u32, b: u32) -> String {
    format!("fanorona-{variant}-{max_pieces}.part-{a}v{b}")
}

/// Removes the temporary files (`fanorona-<board>-<pieces>.tmp<pid>`) that a build of this table killed while it
/// wrote left in `dir`: several hundred megabytes each. Only those of processes no longer running, where that can
/// be known (Linux); elsewhere they stay.
fn remove_stale_temporaries(dir: &Path, variant: Variant, max_pieces: u32) {
    let prefix = format!("fanorona-{variant}-{max_pieces}.tmp");
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !process_running(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` is running; true where that cannot be known.
fn process_running(pid: u32) -> bool {
    if cfg!(target_os = "linux") { Path::new("/proc").join(pid.to_string()).exists() } else { true }
}

/// The file of one pair's unfinished retrograde analysis (see [`Pair::write_partial`]).
fn partial_name(variant: Variant, max_pieces: u32, a: u32, b: u32) -> String {
    format!("fanorona-{variant}-{max_pieces}.partial-{a}v{b}")
}

/// How often a resumable build saves an unfinished pair: a few times in the largest pair of six pieces (about a
/// minute on one core, 4v2 and 2v4), each save about half a gigabyte written in a second or two. A first pass
/// of a quarter of this or more is saved as soon as it ends.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// Where a resumable build keeps what it has done, how often it saves a pair in progress, the shortest build of
/// a pair worth a part file, and when to stop.
struct Resume<'a> {
    dir: &'a Path,
    every: Duration,
    keep_from: Duration,
    stop: &'a dyn Fn() -> bool,
}

/// The shortest build of a pair that a resumable build saves: the smaller pairs take less than this to build
/// again, and a table of five pieces leaves two part files instead of sixteen.
const KEEP_FROM: Duration = Duration::from_secs(1);

/// The magic bytes of a file of a pair in progress, and the length of its header.
const PARTIAL_MAGIC: [u8; 8] = *b"FNRTB\r\n\x1c";
const PARTIAL_HEADER_LEN: usize = 40;

/// The magic bytes of a part file (the table's own, with a different last byte, so that neither loads as the other).
const PART_MAGIC: [u8; 8] = *b"FNRTB\r\n\x1b";

/// The header of a part file.
fn part_header(variant: Variant, max_pieces: u32, a: u32, b: u32, first: &[u8], second: &[u8]) -> [u8; HEADER_LEN] {
    pair_header(PART_MAGIC, variant, max_pieces, a, b, &[first, second])
}

/// The header of a file of pair (a, b) of a `max_pieces` table, whose contents are `parts` one after the other:
/// magic, format version, board, the table's pieces, a, b, length, checksum.
fn pair_header(magic: [u8; 8], variant: Variant, max_pieces: u32, a: u32, b: u32, parts: &[&[u8]]) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(&magic);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = variant_code(variant);
    h[13] = max_pieces as u8;
    h[14] = a as u8;
    h[15] = b as u8;
    h[16..24].copy_from_slice(&(parts.iter().map(|p| p.len()).sum::<usize>() as u64).to_le_bytes());
    let sum = parts.iter().enumerate().fold(0u64, |x, (i, p)| x ^ checksum(p).rotate_left(i as u32));
    h[24..32].copy_from_slice(&sum.to_le_bytes());
    h
}

/// Saves a finished pair (through a temporary name, so that the part file is whole or absent).
fn write_part(
    path: &Path,
    variant: Variant,
    max_pieces: u32,
    a: u32,
    b: u32,
    first: &[u8],
    second: &[u8],
) -> Result<(), TbError> {
    write_whole(path, &[&part_header(variant, max_pieces, a, b, first, second), first, second])
}

/// Writes `pieces` one after the other to `path` through a temporary name in the same folder
/// (`<stem>.tmp<pid>`, which [`remove_stale_temporaries`] clears after a crash), so that the file is whole or
/// absent, never half written.
fn write_whole(path: &Path, pieces: &[&[u8]]) -> Result<(), TbError> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = (|| {
        let mut f = io::BufWriter::new(fs::File::create(&tmp)?);
        for piece in pieces {
            f.write_all(piece)?;
        }
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    Ok(written?)
}

/// Fills the pair's two classes from its part file when that file is there and intact for exactly this table
/// and pair; false (and the slices in any state) otherwise, and the pair is built again.
fn read_part(
    path: &Path,
    variant: Variant,
    max_pieces: u32,
    a: u32,
    b: u32,
    first: &mut [u8],
    second: &mut [u8],
) -> bool {
    let Ok(file) = fs::File::open(path) else { return false };
    let mut f = io::BufReader::new(file);
    let mut h = [0u8; HEADER_LEN];
    let read = f.read_exact(&mut h).is_ok()
        && f.read_exact(first).is_ok()
        && f.read_exact(second).is_ok()
        && matches!(f.read(&mut [0u8; 1]), Ok(0));
    read && h == part_header(variant, max_pieces, a, b, first, second)
}

/// The search's reading of a table value: a win or loss in the same number of turns, a draw as an even score.
impl From<TbValue> for Score {
    fn from(v: TbValue) -> Score {
        match v {
            TbValue::Win(d) => Score::Win(d),
            TbValue::Loss(d) => Score::Loss(d),
            TbValue::Draw => Score::ZERO,
        }
    }
}

impl crate::score::Oracle for Tablebase {
    fn score(&self, pos: &Position) -> Option<i32> {
        self.probe(pos).map(|v| Score::from(v).raw())
    }
}

/// What [`sample`] looks for: positions won, drawn or lost for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl ValueKind {
    /// Whether `v` is of this kind.
    pub fn holds(self, v: TbValue) -> bool {
        matches!(
            (self, v),
            (ValueKind::Win, TbValue::Win(_)) | (ValueKind::Draw, TbValue::Draw) | (ValueKind::Loss, TbValue::Loss(_))
        )
    }
}

/// `count` distinct random positions of `tb`'s board under the default rules with `own` pieces for the side to
/// move and `other` for its opponent, where the side to move has no capture (a quiet position, as play reaches
/// them) and `tb` gives the value `want`; each side to move equally often. Reproducible from `seed`. Fewer when
/// `tb` does not cover that material or such positions are too rare (a million draws at most).
pub fn sample(tb: &Tablebase, own: u32, other: u32, want: ValueKind, count: usize, seed: u64) -> Vec<Position> {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let board = tb.variant().geometry().board;
    let points: Vec<u32> = (0..64).filter(|p| board >> p & 1 == 1).collect();
    if own + other > tb.max_pieces() || (own + other) as usize > points.len() || own == 0 {
        return Vec::new();
    }
    let rules = Rules { variant: tb.variant(), ..Rules::default() };
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for _ in 0..1_000_000 {
        if out.len() >= count {
            break;
        }
        let side = if out.len() % 2 == 0 { Side::White } else { Side::Black };
        let (mut mine, mut theirs) = (0u64, 0u64);
        while mine.count_ones() < own {
            mine |= 1 << points[rng.random_range(0..points.len())];
        }
        while theirs.count_ones() < other {
            theirs |= 1 << points[rng.random_range(0..points.len())] & !mine;
        }
        let (white, black) = if side == Side::White { (mine, theirs) } else { (theirs, mine) };
        let pos = Position::from_parts(tb.variant(), white, black, side, &rules);
        if pos.has_capture() || !tb.probe(&pos).is_some_and(|v| want.holds(v)) || !seen.insert(pos.hash()) {
            continue;
        }
        out.push(pos);
    }
    out
}

/// Pieces of the table every program can have at once: built in memory in about a second.
pub const QUICK_PIECES: u32 = 4;

/// The most pieces of a cached table that [`shared`] looks for: 6 pieces take 563 MB in memory (one byte for each
/// of 562,881,619 entries), built once with `fanorona-cli tablebase build --pieces 6`.
pub const SHARED_MAX_PIECES: u32 = 6;

/// The table [`shared`] builds in the background and caches when it finds none larger than [`QUICK_PIECES`]:
/// about 10 CPU-seconds and 42 MB on the 9 × 5 board.
pub const BACKGROUND_PIECES: u32 = 5;

/// The shared tables, by variant (see [`shared`]).
static SHARED: [Mutex<Option<Arc<Tablebase>>>; 2] = [Mutex::new(None), Mutex::new(None)];

fn shared_slot(variant: Variant) -> &'static Mutex<Option<Arc<Tablebase>>> {
    &SHARED[match variant {
        Variant::Tsivy => 0,
        Variant::Dimy => 1,
    }]
}

/// The tablebase of `variant` shared by the whole program: the largest cached table in `dir` (up to
/// [`SHARED_MAX_PIECES`] pieces, see [`Tablebase::load_or_build`]) if there is one. Otherwise a [`QUICK_PIECES`]
/// table built at once (well under a second), and, when there is a cache folder, a [`BACKGROUND_PIECES`] table
/// built on a thread of its own, saved there, and shared from then on: a caller holding the quick table keeps it,
/// the next call gets the larger one. Nothing waits for the background build.
pub fn shared(variant: Variant, dir: Option<&Path>) -> Arc<Tablebase> {
    share(shared_slot(variant), variant, dir)
}

/// [`shared`] with the slot to share through.
fn share(shared: &'static Mutex<Option<Arc<Tablebase>>>, variant: Variant, dir: Option<&Path>) -> Arc<Tablebase> {
    let mut slot = shared.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(tb) = slot.as_ref() {
        return tb.clone();
    }
    if let Some(dir) = dir {
        for n in (QUICK_PIECES + 1..=SHARED_MAX_PIECES).rev() {
            if let Ok(tb) = Tablebase::load(dir.join(Tablebase::file_name(variant, n)), variant, n) {
                return slot.insert(Arc::new(tb)).clone();
            }
        }
    }
    let quick = slot.insert(Arc::new(Tablebase::build(variant, QUICK_PIECES, |_| {}))).clone();
    if let Some(dir) = dir.map(Path::to_path_buf) {
        std::thread::spawn(move || {
            background_priority();
            // A folder that cannot be written still gets the table for this run.
            let tb = Tablebase::load_or_build(&dir, variant, BACKGROUND_PIECES, |_| {})
                .unwrap_or_else(|_| Tablebase::build(variant, BACKGROUND_PIECES, |_| {}));
            offer(shared, tb);
        });
    }
    quick
}

/// The pieces [`grow_shared`] builds up to when asked for `pieces` with `FANORONA_TB_PIECES` set to `cap`: the
/// smaller of the two (a cap that is not a number is ignored), never more than [`SHARED_MAX_PIECES`].
fn grown_pieces(pieces: u32, cap: Option<&str>) -> u32 {
    cap.and_then(|v| v.trim().parse::<u32>().ok()).map_or(pieces, |cap| pieces.min(cap)).min(SHARED_MAX_PIECES)
}

/// Puts the calling thread, and the threads it starts from now on, in the scheduler's idle class (Linux's
/// `SCHED_IDLE`): a background build then runs only on cores that nothing else wants, so it never takes time
/// from a search, the opponent's program or the game's frames. Returns whether the class was set (elsewhere,
/// or where the system refuses, the thread keeps its priority and the build merely competes for the cores).
pub fn background_priority() -> bool {
    // SAFETY: pid 0 names the calling thread; the call only changes its scheduling class and reads the parameter.
    #[cfg(target_os = "linux")]
    let set = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &libc::sched_param { sched_priority: 0 }) == 0 };
    #[cfg(not(target_os = "linux"))]
    let set = false;
    set
}

/// The cores of this machine (at least one).
fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Shares `tb` through `slot` unless the slot already holds a table at least as large (two background builds
/// may finish in either order).
fn offer(slot: &Mutex<Option<Arc<Tablebase>>>, tb: Tablebase) {
    let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
    if slot.as_ref().is_none_or(|old| old.max_pieces() < tb.max_pieces()) {
        let old = slot.replace(Arc::new(tb));
        // A background builder runs in the idle class: free the old table (possibly its last holder) after the
        // lock, not while a search's start may be waiting on it.
        drop(slot);
        drop(old);
    }
}

/// Shares `tb` as the table of its board for the whole program ([`shared_now`], [`shared_pieces`]) unless a table
/// at least as large is shared already: how a table built elsewhere, such as a web page's [`SlicedBuild`],
/// reaches the strong levels.
pub fn offer_shared(tb: Tablebase) {
    offer(shared_slot(tb.variant()), tb);
}

/// The table the protocol engine (`fanorona-cli engine`) grows to in the background: full strength then plays
/// every endgame of up to six pieces perfectly, from the first start that finds no cached table a few minutes
/// after it starts (all cores but one, in the scheduler's idle class ([`background_priority`]), so that it only
/// takes time no search or other program wants: 108 s, 88 CPU-seconds and 658 MB at the peak
/// on the 2-core development machine, a 563 MB file in the cache folder), and at once from the next.
pub const ENGINE_PIECES: u32 = 6;

/// The longest [`grow_shared`] waits for the smaller table before it builds the larger one from scratch.
const SMALLER_WAIT: Duration = Duration::from_secs(180);

/// [`shared`], then, on a thread of its own, the shared table of `variant` brought up to `pieces` pieces: loaded
/// from `dir` when it is cached there, else built and saved there. Searches meanwhile use the smaller tables and
/// nothing waits for the build. Without a cache folder, or with `FANORONA_TB_PIECES` set to fewer pieces, it
/// stops at what [`shared`] gives. Returns the thread, which a caller may leave running. A program that quits
/// before the build is done leaves its progress in `dir`, and the next one goes on from there (see
/// [`Tablebase::load_or_build_on`]).
pub fn grow_shared(variant: Variant, dir: Option<PathBuf>, pieces: u32) -> std::thread::JoinHandle<()> {
    let pieces = grown_pieces(pieces, std::env::var("FANORONA_TB_PIECES").ok().as_deref());
    std::thread::spawn(move || {
        // Only the larger build goes to the idle class: the first `shared` may load a cached table under the
        // slot's lock, which a search and `isready` wait on, and a busy machine would starve it there.
        let current = shared(variant, dir.as_deref()).max_pieces();
        background_priority();
        let Some(dir) = dir.filter(|_| current < pieces && pieces > BACKGROUND_PIECES) else { return };
        // The larger build starts from the cached smaller table (its first entries): wait for the build `shared`
        // started rather than do its work twice. A stuck one is not waited for beyond a few minutes.
        let waiting = Instant::now();
        while shared_pieces(variant).is_none_or(|n| n < BACKGROUND_PIECES) && waiting.elapsed() < SMALLER_WAIT {
            std::thread::sleep(Duration::from_millis(50));
        }
        let threads = all_cores().saturating_sub(1).max(1);
        if let Ok(tb) = Tablebase::load_or_build_on(&dir, variant, pieces, threads, |_| {}) {
            offer(shared_slot(variant), tb);
        }
    })
}

/// The table [`shared`] holds now for `variant`, without waiting: None before its first use and while a table is
/// being loaded or built under the slot's lock. A search far from the endgame asks this way, so that the first
/// turn of a freshly started engine does not wait for the cached table to load (about 0.2 s for six pieces, mapped).
pub fn shared_now(variant: Variant) -> Option<Arc<Tablebase>> {
    peek(shared_slot(variant))
}

/// What `slot` holds now, or None while someone holds its lock.
fn peek(slot: &Mutex<Option<Arc<Tablebase>>>) -> Option<Arc<Tablebase>> {
    match slot.try_lock() {
        Ok(slot) => slot.clone(),
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner().clone(),
        Err(std::sync::TryLockError::WouldBlock) => None,
    }
}

/// The most pieces of the table [`shared`] holds now for `variant` (None before its first use, and while that
/// first use builds the quick table): what a settings screen shows while the background build runs. It never
/// waits for a build, so a frame can ask.
pub fn shared_pieces(variant: Variant) -> Option<u32> {
    shared_now(variant).map(|tb| tb.max_pieces())
}

/// Where tablebase files are cached: `$FANORONA_TB_DIR`, else the platform's cache folder as the `directories`
/// crate finds it (`$XDG_CACHE_HOME` or `~/.cache` on Linux, the local AppData folder on Windows,
/// `~/Library/Caches` on macOS) with the game's own folder in it, named as its data folder is: `fanorona`, or
/// `Fanorona` where folder names are capitalised. On Linux that is where earlier versions cached the tables.
///
/// An empty variable counts as unset, rather than as the current folder, where a table of several hundred
/// megabytes would land wherever the program was started.
pub fn default_dir() -> Option<PathBuf> {
    dir_from(|name| std::env::var_os(name), platform_cache_dir)
}

/// [`default_dir`] with the environment read through `env` and the platform's folder from `platform`.
fn dir_from(
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
    platform: impl FnOnce() -> Option<PathBuf>,
) -> Option<PathBuf> {
    match env("FANORONA_TB_DIR").filter(|v| !v.is_empty()) {
        Some(d) => Some(PathBuf::from(d)),
        None => platform(),
    }
}

/// The platform's cache folder for the game (see [`default_dir`]); None without a home folder.
#[cfg(not(target_arch = "wasm32"))]
fn platform_cache_dir() -> Option<PathBuf> {
    let name = if cfg!(any(target_os = "windows", target_os = "macos")) { "Fanorona" } else { "fanorona" };
    directories::BaseDirs::new().map(|dirs| dirs.cache_dir().join(name))
}

/// A page has no cache folder: its tables live in memory.
#[cfg(target_arch = "wasm32")]
fn platform_cache_dir() -> Option<PathBuf> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[cfg(target_os = "linux")]
    #[test]
    fn background_builds_run_in_the_idle_class_and_their_threads_inherit_it() {
        let caller = unsafe { libc::sched_getscheduler(0) };
        let classes = std::thread::spawn(|| {
            let before = unsafe { libc::sched_getscheduler(0) };
            assert!(background_priority(), "the idle class is always allowed to lower a thread");
            let own = unsafe { libc::sched_getscheduler(0) };
            let child = std::thread::spawn(|| unsafe { libc::sched_getscheduler(0) }).join().expect("child");
            (before, own, child)
        })
        .join()
        .expect("the thread runs");
        // A new thread starts in its creator's class; the lowered one and its children are idle.
        assert_eq!(classes, (caller, libc::SCHED_IDLE, libc::SCHED_IDLE));
        // The caller's own thread is untouched.
        assert_eq!(unsafe { libc::sched_getscheduler(0) }, caller);
    }

    #[test]
    fn the_shared_table_grows_in_the_background_and_is_cached() {
        static SLOT: Mutex<Option<Arc<Tablebase>>> = Mutex::new(None);
        let dir = std::env::temp_dir().join(format!("fanorona-tb-shared-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let variant = Variant::Dimy;
        let quick = share(&SLOT, variant, Some(&dir));
        assert_eq!(quick.max_pieces(), QUICK_PIECES);
        let start = std::time::Instant::now();
        let grown = loop {
            let now = share(&SLOT, variant, Some(&dir));
            if now.max_pieces() == BACKGROUND_PIECES {
                break now;
            }
            assert!(start.elapsed().as_secs() < 300, "the background build did not finish");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        // The larger table agrees with the quick one where both have entries, and is cached for the next run.
        let pos = Position::from_fen("5/5/2B2/5/1W1W1 w").expect("a valid position");
        assert_eq!(grown.probe(&pos), quick.probe(&pos));
        let path = dir.join(Tablebase::file_name(variant, BACKGROUND_PIECES));
        assert_eq!(Tablebase::load(&path, variant, BACKGROUND_PIECES).expect("cached").max_pieces(), BACKGROUND_PIECES);
        // A new program (a fresh slot) loads it instead of building anything.
        static FRESH: Mutex<Option<Arc<Tablebase>>> = Mutex::new(None);
        assert_eq!(share(&FRESH, variant, Some(&dir)).max_pieces(), BACKGROUND_PIECES);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_engine_grows_its_table_as_far_as_it_is_allowed() {
        assert_eq!(grown_pieces(ENGINE_PIECES, None), 6);
        assert_eq!(grown_pieces(ENGINE_PIECES, Some("5")), 5);
        assert_eq!(grown_pieces(ENGINE_PIECES, Some(" 4 ")), 4);
        assert_eq!(grown_pieces(ENGINE_PIECES, Some("many")), 6);
        assert_eq!(grown_pieces(9, None), SHARED_MAX_PIECES);
    }

    #[test]
    fn a_shared_table_is_only_replaced_by_a_larger_one() {
        static SLOT: Mutex<Option<Arc<Tablebase>>> = Mutex::new(None);
        offer(&SLOT, Tablebase::build(Variant::Dimy, 3, quiet));
        offer(&SLOT, Tablebase::build(Variant::Dimy, 2, quiet));
        assert_eq!(SLOT.lock().unwrap().as_ref().unwrap().max_pieces(), 3);
        offer(&SLOT, Tablebase::build(Variant::Dimy, 4, quiet));
        assert_eq!(SLOT.lock().unwrap().as_ref().unwrap().max_pieces(), 4);
    }

    #[test]
    fn a_peek_never_waits_for_a_table_being_loaded() {
        static SLOT: Mutex<Option<Arc<Tablebase>>> = Mutex::new(None);
        assert!(peek(&SLOT).is_none(), "nothing shared yet");
        let (locked, release) = (std::sync::mpsc::channel(), std::sync::mpsc::channel::<()>());
        let loader = std::thread::spawn(move || {
            // A load in progress: the lock is held until the table is in.
            let mut slot = SLOT.lock().unwrap();
            locked.0.send(()).unwrap();
            release.1.recv().unwrap();
            *slot = Some(Arc::new(Tablebase::build(Variant::Dimy, 2, quiet)));
        });
        locked.1.recv().unwrap();
        assert!(peek(&SLOT).is_none(), "a table being loaded is not waited for");
        release.0.send(()).unwrap();
        loader.join().unwrap();
        assert_eq!(peek(&SLOT).map(|tb| tb.max_pieces()), Some(2));
    }

    fn quiet(_: &str) {}

    /// Exhaustive depth-limited minimax over whole turns, independent of the table: the exact value if either side
    /// forces a win within `depth` turns, else `None`. Memoised on (pieces, side, depth) only for speed.
    fn brute(
        pos: &Position,
        depth: u32,
        memo: &mut HashMap<(u64, u64, Side, u32), Option<TbValue>>,
    ) -> Option<TbValue> {
        let key = (pos.pieces(Side::White), pos.pieces(Side::Black), pos.side_to_move(), depth);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let turns = pos.legal_turns();
        let v = if turns.is_empty() {
            Some(TbValue::Loss(0))
        } else if depth == 0 {
            None
        } else {
            let mut win = None;
            let mut all_lose = Some(0);
            for t in &turns {
                let mut c = *pos;
                c.play_turn(t).unwrap();
                match brute(&c, depth - 1, memo) {
                    Some(TbValue::Loss(d)) => win = Some(win.map_or(d + 1, |w: u32| w.min(d + 1))),
                    Some(TbValue::Win(d)) => all_lose = all_lose.map(|l: u32| l.max(d + 1)),
                    _ => all_lose = None,
                }
            }
            match (win, all_lose) {
                (Some(w), _) => Some(TbValue::Win(w)),
                (None, Some(l)) => Some(TbValue::Loss(l)),
                _ => None,
            }
        };
        memo.insert(key, v);
        v
    }

    /// Every entry of class (a, b) as a position; odd entries with Black to move (colours swapped) so that both
    /// sides are exercised.
    fn class_positions(tb: &Tablebase, a: u32, b: u32) -> impl Iterator<Item = Position> + '_ {
        let v = tb.variant();
        (0..tb.ix.class_size(a, b)).map(move |i| {
            let (own, opp) = tb.ix.unindex(a, b, i);
            if i % 2 == 0 {
                own_to_move(v, own, opp)
            } else {
                Position::from_parts(v, opp, own, Side::Black, &Rules { variant: v, ..Rules::default() })
            }
        })
    }

    type Memo = HashMap<(u64, u64, Side, u32), Option<TbValue>>;

    /// Whether brute force decides `pos` within `depth` turns; panics if it disagrees with the table.
    fn compare_with_brute(tb: &Tablebase, pos: &Position, depth: u32, memo: &mut Memo) -> bool {
        let table = tb.probe(pos).unwrap();
        match brute(pos, depth, memo) {
            Some(v) => {
                assert_eq!(table, v, "{pos}: table {table}, brute force {v}");
                true
            }
            None => {
                assert!(
                    table.distance().is_none_or(|d| d > depth),
                    "{pos}: table {table}, brute force undecided within {depth}"
                );
                false
            }
        }
    }

    fn check_against_brute_force(variant: Variant, max: u32, depth: u32) {
        let tb = Tablebase::build(variant, max, quiet);
        let mut memo = HashMap::new();
        let mut decided = 0;
        for t in 0..=max {
            for a in 0..=t {
                for pos in class_positions(&tb, a, t - a) {
                    decided += compare_with_brute(&tb, &pos, depth, &mut memo) as usize;
                }
            }
        }
        assert!(decided > 1000, "only {decided} positions decided");
    }

    #[test]
    fn agrees_with_brute_force_dimy() {
        check_against_brute_force(Variant::Dimy, 3, 9);
    }

    #[test]
    fn agrees_with_brute_force_tsivy() {
        check_against_brute_force(Variant::Tsivy, 3, 7);
    }

    /// Every entry equals the best of its successors' values one turn later (turns from `legal_turns`).
    fn check_consistent(tb: &Tablebase, stride: usize) {
        for t in 0..=tb.max_pieces() {
            for a in 0..=t {
                for pos in class_positions(tb, a, t - a).step_by(stride) {
                    let v = tb.probe(&pos).unwrap();
                    match tb.best_turn(&pos) {
                        None => assert_eq!(v, TbValue::Loss(0), "{pos}"),
                        Some((_, best)) => assert_eq!(v, best, "{pos}"),
                    }
                }
            }
        }
    }

    #[test]
    fn consistent_one_turn_ahead() {
        check_consistent(&Tablebase::build(Variant::Tsivy, 3, quiet), 1);
        check_consistent(&Tablebase::build(Variant::Dimy, 4, quiet), 1);
    }

    /// The builder as it was before the symmetry reduction (every entry solved, settled entries handled one at a
    /// time, no copying), kept to check that the current one gives exactly the same table.
    fn reference_build(variant: Variant, max: u32) -> Vec<u8> {
        let ix = Indexer::new(variant, max);
        let g = variant.geometry();
        let mut data = vec![0u8; ix.total];
        for t in 0..=max {
            let (lower, upper) = data.split_at_mut(ix.offset(0, t));
            let solver = Solver { ix: &ix, lower };
            for a in t.div_ceil(2)..=t {
                let b = t - a;
                let class = if a == b { vec![(a, b)] } else { vec![(b, a), (a, b)] };
                let other = |k: usize| if class.len() == 1 { k } else { 1 - k };
                let mut vals: Vec<Vec<u8>> = class.iter().map(|&(x, y)| vec![0; ix.class_size(x, y)]).collect();
                let mut counts = vals.clone();
                for (k, &(x, y)) in class.iter().enumerate() {
                    for i in 0..vals[k].len() {
                        let (own, opp) = ix.unindex(x, y, i);
                        (vals[k][i], counts[k][i]) = solver.first_look(own, opp);
                    }
                }
                for d in 0..MAX_DISTANCE {
                    let v = (d + 1) as u8;
                    for (k, &(x, y)) in class.iter().enumerate() {
                        let pk = other(k);
                        for at in 0..vals[k].len() {
                            if vals[k][at] != v {
                                continue;
                            }
                            let (own, opp) = ix.unindex(x, y, at);
                            let empty = ix.board & !(own | opp);
                            for q in (0..64).filter(|&q| opp >> q & 1 == 1) {
                                for p in (0..64).filter(|&p| (g.adjacent[q] & empty) >> p & 1 == 1) {
                                    let pi = ix.index(opp ^ (1 << q) ^ (1 << p), own);
                                    if vals[pk][pi] != 0 || counts[pk][pi] == 0 {
                                        continue;
                                    }
                                    if d % 2 == 0 {
                                        vals[pk][pi] = TbValue::Win(d + 1).encode();
                                    } else {
                                        counts[pk][pi] -= 1;
                                        if counts[pk][pi] == 0 {
                                            vals[pk][pi] = TbValue::Loss(d + 1).encode();
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                for (k, &(x, y)) in class.iter().enumerate() {
                    let at = ix.offset(x, y) - ix.offset(0, t);
                    upper[at..at + vals[k].len()].copy_from_slice(&vals[k]);
                }
            }
        }
        data
    }

    #[test]
    fn a_build_in_slices_gives_the_same_table() {
        for (variant, max) in [(Variant::Tsivy, 4), (Variant::Dimy, 5)] {
            let whole = Tablebase::build(variant, max, quiet);
            let mut sliced = SlicedBuild::new(variant, max);
            let mut calls = 0;
            let mut last = 0.0;
            // A zero budget runs one slice a call: every stage is cut wherever a slice ends.
            while !sliced.run_for(Duration::ZERO) {
                calls += 1;
                let done = sliced.fraction_done();
                assert!((last..1.0).contains(&done), "{variant}: the share done went from {last} to {done}");
                last = done;
            }
            assert!(sliced.is_done() && sliced.fraction_done() == 1.0);
            let (slices, _) = sliced.slices();
            assert_eq!(slices, calls + 1, "{variant}: one slice a call");
            assert!(slices > 100, "{variant}: {slices} slices: the build was not cut up");
            let table = sliced.finish().expect("done");
            assert_eq!(table.max_pieces(), max);
            assert!(table.data == whole.data, "{variant}: the sliced build differs from the whole one");
        }
    }

    #[test]
    fn same_table_as_the_reference_builder() {
        for variant in [Variant::Dimy, Variant::Tsivy] {
            let tb = Tablebase::build(variant, 4, quiet);
            let reference = reference_build(variant, 4);
            let first_difference = tb.data.iter().zip(&reference).position(|(x, y)| x != y);
            assert_eq!(first_difference, None, "{variant}");
            assert_eq!(tb.data.len(), reference.len());
        }
    }

    /// The symmetries the builder relies on map each board onto itself: points, strong points and lines.
    #[test]
    fn symmetries_preserve_the_board() {
        for variant in [Variant::Tsivy, Variant::Dimy] {
            let ix = Indexer::new(variant, 2);
            let g = variant.geometry();
            for k in 0..3 {
                assert_eq!(ix.image(k, g.board), g.board, "{variant} {k}");
                assert_eq!(ix.image(k, g.strong), g.strong, "{variant} {k}");
                for p in (0..64).filter(|&p| g.board >> p & 1 == 1) {
                    assert_eq!(ix.image(k, g.adjacent[p]), g.adjacent[ix.sym[k][p] as usize], "{variant} {k} {p}");
                    assert_eq!(ix.image(k, ix.image(k, 1 << p)), 1 << p, "an involution");
                }
            }
        }
    }

    #[test]
    fn index_round_trips() {
        for variant in [Variant::Tsivy, Variant::Dimy] {
            let ix = Indexer::new(variant, 4);
            let mut seen = 0;
            for t in 0..=4 {
                for a in 0..=t {
                    let b = t - a;
                    let size = ix.class_size(a, b);
                    assert_eq!(ix.offset(a, b), seen, "classes are contiguous");
                    seen += size;
                    // Every index of the small classes, a stride through the large ones.
                    let stride = (size / 5000).max(1);
                    for i in (0..size).step_by(stride).chain([size - 1]) {
                        let (own, opp) = ix.unindex(a, b, i);
                        assert_eq!((own.count_ones(), opp.count_ones()), (a, b));
                        assert_eq!(own & opp, 0);
                        assert_eq!((own | opp) & !ix.board, 0);
                        assert_eq!(ix.index(own, opp), i);
                        assert_eq!(ix.class_of(ix.offset(a, b) + i), (a, b));
                    }
                }
            }
            assert_eq!(seen, ix.total);
        }
        // Colex order is the numeric order of the sets' ordinal bitmasks, which Gosper's hack walks.
        let ix = Indexer::new(Variant::Dimy, 3);
        let mut m = 0b111u64;
        for r in 0..ix.c(25, 3) {
            assert_eq!(ix.unrank(r, 3, ix.board), m.iter_bits_as_points(ix.board));
            m = next_combination(m);
        }
    }

    trait Deposit {
        fn iter_bits_as_points(self, avail: u64) -> u64;
    }

    impl Deposit for u64 {
        /// Software `pdep`: ordinal bit o goes to the o-th point of `avail`.
        fn iter_bits_as_points(self, avail: u64) -> u64 {
            let mut out = 0;
            let mut m = self;
            while m != 0 {
                out |= 1 << select(avail, m.trailing_zeros() as usize);
                m &= m - 1;
            }
            out
        }
    }

    fn tmp_path(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("fanorona-tb-test-{}-{name}", std::process::id()))
    }

    #[test]
    fn save_load_round_trip_and_rejects_bad_files() {
        let tb = Tablebase::build(Variant::Dimy, 3, quiet);
        let path = tmp_path("roundtrip.tb");
        tb.save(&path).unwrap();
        let back = Tablebase::load(&path, Variant::Dimy, 3).unwrap();
        #[cfg(not(target_arch = "wasm32"))]
        assert!(matches!(back.data, Entries::Mapped(_)), "a cached table is mapped, not read");
        assert_eq!(back.data, tb.data);
        assert_eq!(back.clone().data, tb.data);
        assert_eq!(Tablebase::read(&path, Variant::Dimy, 3).unwrap().data, tb.data);
        // The damaged files below are written in place, which no table file ever is while mapped.
        drop(back);
        assert!(matches!(Tablebase::load(&path, Variant::Tsivy, 3), Err(TbError::WrongVariant { .. })));
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 2), Err(TbError::WrongPieces { .. })));
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 9), Err(TbError::TooManyPieces(9))));
        let good = fs::read(&path).unwrap();
        // Mapped or read, a damaged file gets the same error.
        let check = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            let read = Tablebase::read(&path, Variant::Dimy, 3);
            let loaded = Tablebase::load(&path, Variant::Dimy, 3);
            assert_eq!(
                format!("{:?}", read.as_ref().map(|t| &t.data)),
                format!("{:?}", loaded.as_ref().map(|t| &t.data))
            );
            loaded
        };
        let mut flipped = good.clone();
        flipped[HEADER_LEN + 1234] ^= 0x10;
        assert!(matches!(check(&flipped), Err(TbError::Checksum)));
        assert!(matches!(check(&good[..good.len() - 1]), Err(TbError::WrongLength)));
        assert!(matches!(check(&[good.as_slice(), &[0]].concat()), Err(TbError::WrongLength)));
        assert!(matches!(check(&good[..10]), Err(TbError::NotATablebase)));
        assert!(matches!(check(b""), Err(TbError::NotATablebase)));
        assert!(matches!(check(&[b"garbage!".as_slice(), &good[8..]].concat()), Err(TbError::NotATablebase)));
        let mut version = good.clone();
        version[8] = 99;
        assert!(matches!(check(&version), Err(TbError::Version(99))));
        let mut length = good.clone();
        length[16] ^= 1;
        assert!(matches!(check(&length), Err(TbError::WrongLength)));
        assert!(check(&good).is_ok());
        fs::remove_file(&path).unwrap();
        assert!(matches!(Tablebase::load(&path, Variant::Dimy, 3), Err(TbError::Io(_))));

        // The cache: built and saved the first time, loaded the second, rebuilt over a corrupt file.
        let dir = tmp_path("cache");
        let _ = fs::remove_dir_all(&dir);
        let mut log = Vec::new();
        let first = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log.last().unwrap().contains("saved"), "{log:?}");
        log.clear();
        let second = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log[0].contains("loaded"), "{log:?}");
        assert_eq!(first.data, second.data);
        let file = dir.join(Tablebase::file_name(Variant::Dimy, 2));
        fs::write(&file, b"not a table").unwrap();
        log.clear();
        let third = Tablebase::load_or_build(&dir, Variant::Dimy, 2, |s| log.push(s.to_string())).unwrap();
        assert!(log[0].contains("not usable"), "{log:?}");
        assert_eq!(third.data, first.data);
        assert!(Tablebase::load(&file, Variant::Dimy, 2).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A `stop` for a resumable build that says yes from its `n + 1`-th question on, counting them in `asked`.
    fn stop_after(asked: &std::cell::Cell<usize>, n: usize) -> impl Fn() -> bool + '_ {
        move || {
            asked.set(asked.get() + 1);
            asked.get() > n
        }
    }

    #[test]
    fn an_interrupted_build_resumes_from_its_part_files_and_the_smaller_table() {
        let variant = Variant::Tsivy;
        let want = Tablebase::build_on(variant, 4, 2, quiet);
        let dir = tmp_path("resume");
        let _ = fs::remove_dir_all(&dir);
        let part = |a: u32, b: u32| dir.join(part_name(variant, 4, a, b));
        // The three-piece table is cached: the four-piece build starts from its entries.
        Tablebase::load_or_build_on(&dir, variant, 3, 2, quiet).unwrap();
        // A killed build's temporary file is removed; a running process's is not.
        let stale = dir.join(format!("fanorona-{variant}-4.tmp{}", u32::MAX - 1));
        let live = dir.join(format!("fanorona-{variant}-4.tmp1"));
        fs::write(&stale, b"half a table").unwrap();
        fs::write(&live, b"being written").unwrap();
        // Stopped before its third pair (4v0): 2v2 and 3v1 are finished and saved as parts, no table yet. `stop`
        // is asked before each pair and after each of its MAX_DISTANCE rounds of retrograde analysis.
        let asked = std::cell::Cell::new(0);
        let per_pair = 1 + MAX_DISTANCE as usize;
        let stop = stop_after(&asked, 2 * per_pair);
        let mut log = Vec::new();
        let never = Duration::MAX;
        let resume = Resume { dir: &dir, every: never, keep_from: Duration::ZERO, stop: &stop };
        let stopped = Tablebase::load_or_build_until(&resume, variant, 4, 2, &mut |s| log.push(s.to_string()));
        assert!(stopped.unwrap().is_none());
        assert!(log[0].contains("up to 3 pieces from"), "{log:?}");
        assert!(log.iter().all(|l| !l.contains("2v1") && !l.contains("restored")), "{log:?}");
        assert!(part(2, 2).exists() && part(3, 1).exists() && !part(4, 0).exists());
        assert!(!dir.join(Tablebase::file_name(variant, 4)).exists());
        assert!(!stale.exists() || !cfg!(target_os = "linux"));
        assert!(live.exists(), "process 1 runs");
        // A damaged part is built again; the intact one is taken as it is.
        let mut damaged = fs::read(part(3, 1)).unwrap();
        damaged[HEADER_LEN + 777] ^= 1;
        fs::write(part(3, 1), &damaged).unwrap();
        log.clear();
        let resume = Resume { dir: &dir, every: never, keep_from: Duration::ZERO, stop: &|| false };
        let tb = Tablebase::load_or_build_until(&resume, variant, 4, 2, &mut |s| log.push(s.to_string()));
        let tb = tb.unwrap().expect("not stopped");
        assert_eq!(tb.data, want.data, "the resumed table is the one built in one go");
        let line = |name: &str| log.iter().find(|l| l.contains(name)).cloned().unwrap_or_default();
        assert!(line(" 2v2:").contains("restored"), "{log:?}");
        assert!(line(" 3v1 ").contains(" in "), "{log:?}");
        assert!(line(" 4v0 ").contains(" in "), "{log:?}");
        // Saved whole, and the parts are gone.
        assert_eq!(Tablebase::load(dir.join(Tablebase::file_name(variant, 4)), variant, 4).unwrap().data, want.data);
        assert!(!part(2, 2).exists() && !part(3, 1).exists() && !part(4, 0).exists());
        // A part of another table or pair is never taken for this one.
        write_part(&part(2, 2), variant, 5, 2, 2, &want.data[..10], &[]).unwrap();
        let (mut first, mut second) = (vec![0u8; 10], vec![]);
        assert!(!read_part(&part(2, 2), variant, 4, 2, 2, &mut first, &mut second));
        assert!(read_part(&part(2, 2), variant, 5, 2, 2, &mut first, &mut second));
        assert!(!read_part(&part(2, 2), variant, 5, 3, 1, &mut first, &mut second));
        // Pairs quicker to build than `keep_from` are not saved.
        let _ = fs::remove_dir_all(&dir);
        asked.set(0);
        let resume = Resume { dir: &dir, every: never, keep_from: Duration::MAX, stop: &stop };
        assert!(Tablebase::load_or_build_until(&resume, variant, 4, 2, &mut |_| {}).unwrap().is_none());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_folder_is_the_variables_or_else_the_platforms_and_an_empty_variable_is_unset() {
        let with = |tb: Option<&str>, platform: Option<&str>| {
            let tb: Option<std::ffi::OsString> = tb.map(Into::into);
            dir_from(move |name| tb.clone().filter(|_| name == "FANORONA_TB_DIR"), || platform.map(PathBuf::from))
        };
        assert_eq!(with(Some("/tb"), Some("/cache/fanorona")), Some(PathBuf::from("/tb")));
        assert_eq!(with(None, Some("/cache/fanorona")), Some(PathBuf::from("/cache/fanorona")));
        assert_eq!(with(Some(""), Some("/cache/fanorona")), Some(PathBuf::from("/cache/fanorona")));
        assert_eq!(with(Some(""), None), None);
        // The platform's folder is the game's own, under the cache folder `directories` finds.
        #[cfg(target_os = "linux")]
        if let Some(dirs) = directories::BaseDirs::new() {
            assert_eq!(platform_cache_dir(), Some(dirs.cache_dir().join("fanorona")));
        }
    }

    #[test]
    fn a_pair_stopped_halfway_resumes_its_retrograde_analysis() {
        let variant = Variant::Dimy;
        let want = Tablebase::build_on(variant, 5, 2, quiet);
        let dir = tmp_path("halfway");
        let _ = fs::remove_dir_all(&dir);
        let partial = |a: u32, b: u32| dir.join(partial_name(variant, 5, a, b));
        let fresh = || {
            let _ = fs::remove_dir_all(&dir);
            Tablebase::load_or_build_on(&dir, variant, 4, 2, quiet).unwrap();
        };
        // From the cached 4-piece table, the pairs are 3v2 (asked before it, then after each round), 4v1 and 5v0.
        // Stopped after round 4 of 3v2, saved only there, or saved at every round: the last save is at the stop.
        for (stop_at, every) in [(5, Duration::MAX), (5, Duration::ZERO)] {
            fresh();
            let asked = std::cell::Cell::new(0);
            let stop = stop_after(&asked, stop_at);
            let resume = Resume { dir: &dir, every, keep_from: Duration::ZERO, stop: &stop };
            let mut log = Vec::new();
            let stopped = Tablebase::load_or_build_until(&resume, variant, 5, 2, &mut |s| log.push(s.to_string()));
            assert!(stopped.unwrap().is_none(), "{log:?}");
            assert!(partial(3, 2).exists() && !dir.join(part_name(variant, 5, 3, 2)).exists());
            log.clear();
            let resume = Resume { dir: &dir, every: Duration::MAX, keep_from: Duration::ZERO, stop: &|| false };
            let tb = Tablebase::load_or_build_until(&resume, variant, 5, 2, &mut |s| log.push(s.to_string()));
            assert_eq!(tb.unwrap().expect("not stopped").data, want.data);
            let line = log.iter().find(|l| l.contains(" 3v2 and 2v3:")).cloned().unwrap_or_default();
            assert!(line.contains("resumed at distance 5 "), "{log:?}");
            assert!(!partial(3, 2).exists());
        }
        // A damaged save is not taken up: the pair is built from its first pass again.
        let asked = std::cell::Cell::new(0);
        let stop = stop_after(&asked, 5);
        fresh();
        let resume = Resume { dir: &dir, every: Duration::MAX, keep_from: Duration::ZERO, stop: &stop };
        assert!(Tablebase::load_or_build_until(&resume, variant, 5, 2, &mut |_| {}).unwrap().is_none());
        let mut damaged = fs::read(partial(3, 2)).unwrap();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        fs::write(partial(3, 2), &damaged).unwrap();
        let mut log = Vec::new();
        let resume = Resume { dir: &dir, every: Duration::MAX, keep_from: Duration::ZERO, stop: &|| false };
        let tb = Tablebase::load_or_build_until(&resume, variant, 5, 2, &mut |s| log.push(s.to_string()));
        assert_eq!(tb.unwrap().expect("not stopped").data, want.data);
        let line = log.iter().find(|l| l.contains(" 3v2 and 2v3:")).cloned().unwrap_or_default();
        assert!(line.contains("first pass"), "{log:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    fn fen(s: &str) -> Position {
        Position::from_fen(s).unwrap()
    }

    #[test]
    fn known_positions() {
        let tb = Tablebase::build(Variant::Tsivy, 4, quiet);
        let v = |s: &str| tb.probe(&fen(s)).unwrap();
        // a1 against c1: whoever moves captures by approach on b1.
        assert_eq!(v("9/9/9/9/W1B6 w"), TbValue::Win(1));
        assert_eq!(v("9/9/9/9/W1B6 b"), TbValue::Win(1));
        // No enemy left: the side to move has lost; the other side wins with any paika move.
        assert_eq!(v("9/9/9/9/WW7 b"), TbValue::Loss(0));
        assert_eq!(v("9/9/9/9/WW7 w"), TbValue::Win(1));
        // White on b1 is boxed in by a1, c1 and b2 (b1 is weak: no diagonals) and cannot capture: lost at once.
        assert_eq!(v("9/9/9/1B7/BWB6 w"), TbValue::Loss(0));
        // Black to move there withdraws b2-b3 and takes b1.
        assert_eq!(v("9/9/9/1B7/BWB6 b"), TbValue::Win(1));
        // White a1 against b3 and c2 has no capture (c1, a3 and c3 are empty) and every step is taken next turn:
        // a1-b1 by b3-b2A, a1-a2 by c2-b2A, a1-b2 by b3-b4W.
        assert_eq!(v("9/9/1B7/2B6/W8 w"), TbValue::Loss(2));
        // One against one in opposite corners: neither side can be forced, a draw.
        assert_eq!(v("8B/9/9/9/W8 w"), TbValue::Draw);
        // The longest 1-against-1 win (checked by the brute-force test too).
        assert_eq!(v("9/B8/9/9/W8 w"), TbValue::Win(7));
        // Too many pieces, another board, other rules: not covered.
        assert_eq!(tb.probe(&fen("9/9/9/9/WWBBB4 w")), None);
        assert_eq!(Tablebase::build(Variant::Dimy, 2, quiet).probe(&fen("9/9/9/9/W1B6 w")), None);
        let lines = fen("9/9/9/9/W1B6 w").with_rules(&Rules { relay: RelayRule::Lines, ..Rules::default() });
        assert_eq!(tb.probe(&lines), None);
        // On the first turn of a game with "first turn without relay" the table does not apply, but every turn
        // leads to positions it covers, so best_turn still works.
        let first = fen("9/9/9/9/W1B6 w").with_rules(&Rules { first_turn_no_relay: true, ..Rules::default() });
        assert_eq!(tb.probe(&first), None);
        assert_eq!(tb.best_turn(&first).map(|(_, v)| v), Some(TbValue::Win(1)));
    }

    #[test]
    fn a_relay_is_one_turn() {
        let tb = Tablebase::build(Variant::Tsivy, 3, quiet);
        // White c1 takes e1 by approach (c1-d1A), then d3 by approach (d1-d2A): both black pieces in one turn.
        let pos = fen("9/9/3B5/9/2W1B4 w");
        assert_eq!(tb.probe(&pos), Some(TbValue::Win(1)));
        let (turn, v) = tb.best_turn(&pos).unwrap();
        assert_eq!((turn.to_string().as_str(), v), ("c1-d1A d1-d2A", TbValue::Win(1)));
        // In the middle of the relay the table has no entry, but best_turn completes the turn.
        let mut relay = pos;
        assert!(!relay.play(turn.steps[0]).turn_ended);
        assert_eq!(tb.probe(&relay), None);
        let (rest, v) = tb.best_turn(&relay).unwrap();
        assert_eq!((rest.to_string().as_str(), v), ("d1-d2A", TbValue::Win(1)));
    }

    #[test]
    fn best_play_takes_exactly_the_distance() {
        let tb = Tablebase::build(Variant::Tsivy, 4, quiet);
        let (d, pos) = tb.longest_win().unwrap();
        assert_eq!(tb.probe(&pos), Some(TbValue::Win(d)));
        let mut p = pos;
        for i in 0..d {
            let (turn, v) = tb.best_turn(&p).unwrap();
            assert_eq!(v.distance(), Some(d - i));
            p.play_turn(&turn).unwrap();
        }
        assert!(p.is_lost());
        assert_eq!(tb.probe(&p), Some(TbValue::Loss(0)));
        assert_eq!(tb.best_turn(&p), None);
    }

    /// Release-only checks on the full 4-piece table and a sample of the 5-piece one:
    /// `cargo test --release -p fanorona-engine --lib tablebase -- --ignored`.
    #[test]
    #[ignore = "slow outside release"]
    fn large_tables_consistent() {
        let tb = Tablebase::build(Variant::Tsivy, 4, quiet);
        check_consistent(&tb, 1);
        let mut memo = HashMap::new();
        for (i, pos) in class_positions(&tb, 2, 2).chain(class_positions(&tb, 3, 1)).enumerate() {
            if i % 97 == 0 {
                compare_with_brute(&tb, &pos, 5, &mut memo);
            }
        }
        let tb = Tablebase::build(Variant::Tsivy, 5, quiet);
        check_consistent(&tb, 101);
        check_consistent(&Tablebase::build(Variant::Dimy, 5, quiet), 7);
    }
}
