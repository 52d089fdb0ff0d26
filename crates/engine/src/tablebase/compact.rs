//! The seven-piece table in compact form ([`Compact`]): only the positions of exactly seven pieces, only the
//! canonical rows of each material class ([`Rows`]), one byte per entry in blocks compressed with zstd, probed
//! straight from the mapped files through a small cache of decompressed blocks per thread; and its build from the
//! six-piece table, pair of classes by pair, each pair a file of its own, so that an interrupted build keeps the
//! pairs it finished and the analysis of the pair in progress.
//!
//! # Files
//!
//! One file per pair of classes, `fanorona-<board>-7-<a>v<b>.tbc` for a = 4, 5, 6 and b = 7 − a:
//!
//! - a 48-byte header: magic, format version, board, pieces (7), a, b, the length of what follows, the checksum of
//!   the two directories, and the pair's longest win as its build found it (the byte, the own count of its class,
//!   6 zeros, the entry as a `u64`; all zeros for none), which [`Compact::longest_win`] reads back to confirm;
//! - for class (b, a) then (a, b): own count, opponent count, rows, blocks (four `u32`), the length of the block
//!   data (`u64`), the blocks' ends (`u64` each) from the start of the data, then the blocks, each a zstd frame
//!   with its content checksum, so that a damaged block is found when it is read.
//!
//! The rows are not stored: they are the canonical own sets, found again when the file is opened and checked
//! against the count in the file.
//!
//! The classes (7, 0) and (0, 7) are not stored: the side without pieces has lost, so (0, 7) is a loss at once and
//! (7, 0) a win in one turn (any move leaves the opponent without pieces or moves), as the smaller tables hold them.

use super::file::{TbError, checksum, header_of, variant_code, write_whole};
use super::index::{Indexer, Rows, own_to_move};
use super::probe::{Tablebase, Top};
use super::solve::{Pair, Solver};
use super::value::TbValue;
use crate::geometry::Variant;
use crate::position::Position;
use std::cell::RefCell;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use web_time::Instant;

/// The pieces of the positions a compact table holds.
pub const COMPACT_PIECES: u32 = 7;

/// The pairs of classes (a, b), a > b, each a file: the largest first, so that an interrupted build has done the
/// longest part.
pub(super) const PAIRS: [(u32, u32); 3] = [(4, 3), (5, 2), (6, 1)];

/// Entries per compressed block: a probe decompresses one block (a few microseconds) when its thread's cache does
/// not hold it.
const BLOCK: usize = 1 << 10;

/// How often a pair in progress is saved after its first pass. A save writes the pair's values and counts (1.6 GB
/// for 4 v 3, about 4.5 s on the development VM), so saving every minute cost a twentieth of the build.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(150);

/// The zstd level of the blocks.
const LEVEL: i32 = 3;

/// File magic: the full table's, with another fifth letter.
const MAGIC: [u8; 8] = *b"FNRTC\r\n\x1a";
/// The format version of a pair file.
const VERSION: u32 = 1;
/// The length of a pair file's header.
const HEADER_LEN: usize = 48;
/// The length of a class's directory header (own, opp, rows, blocks, data length).
const CLASS_HEAD: usize = 24;

/// Gives each opened table its own number: the per-thread block cache tells tables apart by it.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The compact seven-piece table of one board (see the [module documentation](self)).
pub struct Compact {
    ix: Indexer,
    /// Classes by own count: index `own − 1` for own = 1..=6.
    classes: Vec<Class>,
    /// This table's number in the block cache.
    id: u64,
    /// The files' total size in bytes.
    bytes: u64,
    /// Each pair file's longest win as its build found it: (byte, own count of its class, entry); None for a file
    /// that records none.
    longest: Vec<Option<(u8, u32, usize)>>,
}

/// One class of a mapped pair file.
struct Class {
    rows: Rows,
    row_len: usize,
    map: Arc<memmap2::Mmap>,
    /// Byte position in `map` of the blocks' ends.
    ends: usize,
    /// Byte position in `map` of the first block.
    data: usize,
    blocks: usize,
}

impl std::fmt::Debug for Compact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compact({} seven-piece, {} bytes)", self.ix.variant, self.bytes)
    }
}

impl Compact {
    /// The file of pair (a, b), e.g. `fanorona-tsivy-7-4v3.tbc`.
    pub fn file_name(variant: Variant, a: u32, b: u32) -> String {
        format!("fanorona-{variant}-{COMPACT_PIECES}-{a}v{b}.tbc")
    }

    /// The board.
    pub fn variant(&self) -> Variant {
        self.ix.variant
    }

    /// The size of the table's files in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Opens the compact table of `variant` in `dir` (all three pair files, mapped); an error when one is missing,
    /// damaged or for another table. Reads only the directories: a block is checked when a probe first reads it.
    pub fn load(dir: &Path, variant: Variant) -> Result<Compact, TbError> {
        let ix = Indexer::new(variant, COMPACT_PIECES);
        let mut classes: Vec<Option<Class>> = (0..COMPACT_PIECES - 1).map(|_| None).collect();
        let mut bytes = 0;
        let mut longest = Vec::new();
        for (a, b) in PAIRS {
            let (pair, len, top) = open_pair(&dir.join(Self::file_name(variant, a, b)), &ix, a, b)?;
            bytes += len;
            longest.push(top);
            for c in pair {
                let own = c.0;
                classes[own as usize - 1] = Some(c.1);
            }
        }
        let classes = classes.into_iter().map(|c| c.expect("every own count 1..=6 is in a pair")).collect();
        Ok(Compact { ix, classes, id: NEXT_ID.fetch_add(1, Ordering::Relaxed), bytes, longest })
    }

    /// The exact value of (own, opp) with `own` to move, when it has seven pieces; None for other counts, and for
    /// a block that cannot be read (damaged).
    #[inline]
    pub(super) fn probe(&self, own: u64, opp: u64) -> Option<TbValue> {
        let (a, b) = (own.count_ones(), opp.count_ones());
        if a + b != COMPACT_PIECES {
            return None;
        }
        if a == 0 {
            return Some(TbValue::Loss(0));
        }
        if b == 0 {
            return Some(TbValue::Win(1));
        }
        let ix = &self.ix;
        let (own, opp) = ix.canonical(own, opp);
        let class = &self.classes[a as usize - 1];
        let slot = class.rows.slot(ix.rank(own, ix.board))?;
        let at = slot * class.row_len + ix.rank(opp, ix.board & !own) as usize;
        let (block, within) = (at / BLOCK, at % BLOCK);
        let tag = self.id << 40 | (a as u64) << 32 | block as u64;
        CACHE
            .with(|cache| cache.borrow_mut().get(tag, |out| class.decompress(block, out)).map(|b| b[within]))
            .map(TbValue::decode)
    }

    /// Reads every block of every class: Ok with the number of blocks, or the first damaged one's class and block.
    pub fn check_blocks(&self) -> Result<usize, String> {
        let mut out = vec![0u8; BLOCK];
        let mut n = 0;
        for (i, class) in self.classes.iter().enumerate() {
            for block in 0..class.blocks {
                class.decompress(block, &mut out).ok_or_else(|| format!("class {}: block {block} damaged", i + 1))?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// The won, drawn and lost positions of class (own, opp), own + opp = 7 and both ≥ 1, counting every position
    /// (each canonical entry for the positions of its symmetry class): how the table reports its contents.
    pub fn count(&self, own: u32, opp: u32) -> [u64; 3] {
        let class = &self.classes[own as usize - 1];
        let mut out = vec![0u8; BLOCK];
        let mut current = usize::MAX;
        count_class(&self.ix, (own, opp), &class.rows, |at| {
            if at / BLOCK != current {
                current = at / BLOCK;
                if class.decompress(current, &mut out).is_none() {
                    out.fill(0);
                }
            }
            out[at % BLOCK]
        })
    }

    /// The longest forced win of the table and a position (White to move) with it; None when no entry is won.
    ///
    /// Each pair file records the longest win its build found; that entry is read to confirm it. Only where a
    /// file records none or its entry does not hold the recorded win are all its blocks read.
    pub fn longest_win(&self) -> Option<(u32, Position)> {
        let recorded = self.longest.iter().map(|top| {
            let (byte, own, at) = (*top)?;
            let class = self.classes.get(own.checked_sub(1)? as usize)?;
            let mut out = vec![0u8; BLOCK];
            (at < class.rows.len() * class.row_len).then_some(())?;
            class.decompress(at / BLOCK, &mut out)?;
            (out[at % BLOCK] == byte && byte % 2 == 0 && byte > 0).then_some((byte, own as usize - 1, at))
        });
        let mut best: Option<(u8, usize, usize)> = None;
        for (pair, found) in PAIRS.iter().zip(recorded) {
            // Class (b, a) first and the first of equals, as the build records it.
            let found = found.or_else(|| {
                let scans = [pair.1, pair.0].map(|own| self.scan_longest(own as usize - 1));
                scans.into_iter().flatten().fold(
                    None,
                    |best: Option<(u8, usize, usize)>, f| {
                        if f.0 > best.map_or(0, |b| b.0) { Some(f) } else { best }
                    },
                )
            });
            if found.is_some_and(|f| f.0 > best.map_or(0, |b| b.0)) {
                best = found;
            }
        }
        let (byte, i, at) = best?;
        let (own, opp) = self.classes[i].unindex(&self.ix, i as u32 + 1, at);
        Some((byte as u32 - 1, own_to_move(self.ix.variant, own, opp)))
    }

    /// The longest win of class `i` (own count i + 1) by reading all its blocks: (byte, i, entry).
    fn scan_longest(&self, i: usize) -> Option<(u8, usize, usize)> {
        let class = &self.classes[i];
        let mut best: Option<(u8, usize, usize)> = None;
        let mut out = vec![0u8; BLOCK];
        for block in 0..class.blocks {
            class.decompress(block, &mut out)?;
            let n = (class.rows.len() * class.row_len - block * BLOCK).min(BLOCK);
            // Wins are the even bytes (distance + 1 with an odd distance).
            let top = out[..n].iter().copied().filter(|b| b % 2 == 0).max().unwrap_or(0);
            if top > best.map_or(0, |b| b.0) {
                let at = out[..n].iter().position(|&b| b == top).expect("just found");
                best = Some((top, i, block * BLOCK + at));
            }
        }
        best
    }

    /// Checks every `stride`-th canonical entry with a capture against `six` (the six-piece table): its value must
    /// be the best that its capture turns (every turn there captures, into six pieces or fewer) reach, as
    /// [`Tablebase::best_turn`] finds it with the rules' own turn generator. Returns how many entries were
    /// checked and the positions (White to move) that disagree, on `threads` threads.
    pub fn verify_captures(&self, six: &Tablebase, stride: usize, threads: usize) -> (u64, Vec<Position>) {
        let stride = stride.max(1);
        let jobs: Vec<(usize, usize)> =
            (0..self.classes.len()).flat_map(|i| (0..self.classes[i].rows.len()).map(move |slot| (i, slot))).collect();
        let next = AtomicU64::new(0);
        let results = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads.max(1))
                .map(|_| {
                    s.spawn(|| {
                        let (mut checked, mut bad) = (0u64, Vec::new());
                        let mut pts = [0u8; 64];
                        loop {
                            let j = next.fetch_add(1, Ordering::Relaxed) as usize;
                            let Some(&(i, slot)) = jobs.get(j) else { break };
                            let class = &self.classes[i];
                            let (a, b) = (i as u32 + 1, COMPACT_PIECES - 1 - i as u32);
                            let ix = &self.ix;
                            let own = ix.unrank(class.rows.rank(slot), a, ix.board);
                            super::index::free_points(ix.board & !own, &mut pts);
                            let mut comb: u64 = (1u64 << b) - 1;
                            for col in 0..class.row_len {
                                let opp = super::index::spread(comb, &pts);
                                comb = super::index::next_combination(comb);
                                if !(slot * class.row_len + col).is_multiple_of(stride)
                                    || ix.canonical(own, opp) != (own, opp)
                                {
                                    continue;
                                }
                                let pos = own_to_move(ix.variant, own, opp);
                                if !pos.has_capture() {
                                    continue;
                                }
                                checked += 1;
                                if six.best_turn(&pos).map(|t| t.1) != self.probe(own, opp) {
                                    bad.push(pos);
                                }
                            }
                        }
                        (checked, bad)
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().expect("verification worker panicked")).collect::<Vec<_>>()
        });
        results.into_iter().fold((0, Vec::new()), |(n, mut bad), (m, b)| {
            bad.extend(b);
            (n + m, bad)
        })
    }

    /// Builds the compact table of the board of `lower` (a table of six pieces) into `dir`, pair by pair, on
    /// `threads` threads, reporting through `progress`; pairs already in `dir` are kept, and a pair whose build
    /// was interrupted takes up its saved analysis. Then opens it.
    pub fn build(
        dir: &Path,
        lower: &Tablebase,
        threads: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Compact, TbError> {
        Self::build_until(dir, lower, threads, progress, &|| false, &mut |_| {})?.ok_or(TbError::WrongLength)
    }

    /// [`Compact::build`], asking `stop` after each round of the retrograde analysis and before each block of a
    /// first pass: Ok(None) when it said yes, with the analysis of the pair in progress saved for the next build
    /// (unless it was in its first pass). Calls `on_pair(i)` as it comes to pair `i` of [`PAIRS`].
    pub(super) fn build_until(
        dir: &Path,
        lower: &Tablebase,
        threads: usize,
        progress: &mut dyn FnMut(&str),
        stop: &(dyn Fn() -> bool + Sync),
        on_pair: &mut dyn FnMut(usize),
    ) -> Result<Option<Compact>, TbError> {
        if lower.ix.max != COMPACT_PIECES - 1 {
            return Err(TbError::WrongPieces { expected: COMPACT_PIECES - 1, found: lower.ix.max });
        }
        fs::create_dir_all(dir)?;
        let variant = lower.variant();
        let ix = Indexer::new(variant, COMPACT_PIECES);
        let threads = threads.clamp(1, 8);
        let started = Instant::now();
        for (i, (a, b)) in PAIRS.into_iter().enumerate() {
            on_pair(i);
            if !build_pair(dir, lower, &ix, (a, b), threads, progress, stop)? {
                return Ok(None);
            }
        }
        let table = Compact::load(dir, variant)?;
        progress(&format!(
            "tablebase {variant} seven pieces: {} bytes in {:.1} s",
            table.bytes,
            started.elapsed().as_secs_f64()
        ));
        Ok(Some(table))
    }
}

/// Builds pair (a, b) into its file in `dir` unless an intact one is there; false when `stop` stopped it.
fn build_pair(
    dir: &Path,
    lower: &Tablebase,
    ix: &Indexer,
    (a, b): (u32, u32),
    threads: usize,
    progress: &mut dyn FnMut(&str),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<bool, TbError> {
    let variant = ix.variant;
    let path = dir.join(Compact::file_name(variant, a, b));
    let name = format!("{a}v{b} and {b}v{a}");
    if open_pair(&path, ix, a, b).is_ok() {
        progress(&format!("tablebase {variant} {name}: kept from an earlier build"));
        return Ok(true);
    }
    let started = Instant::now();
    let rows = [Rows::canonical(ix, b), Rows::canonical(ix, a)];
    let sizes = [rows[0].len() * ix.row_len(b, a) as usize, rows[1].len() * ix.row_len(a, b) as usize];
    let (mut first, mut second) = (vec![0u8; sizes[0]], vec![0u8; sizes[1]]);
    let mut pair = Pair {
        ix,
        class: [(b, a), (a, b)],
        vals: [&mut first, &mut second],
        rows: [Some(&rows[0]), Some(&rows[1])],
        counts: [vec![0; sizes[0]], vec![0; sizes[1]]],
        hist: [0; 256],
    };
    let partial = dir.join(format!("fanorona-{variant}-{COMPACT_PIECES}c.partial-{a}v{b}"));
    let resumed = pair.read_partial(&partial, variant, COMPACT_PIECES);
    let mut first_pass_s = 0.0;
    if resumed.is_none() {
        pair.vals.iter_mut().for_each(|v| v.fill(0));
        pair.counts.iter_mut().for_each(|c| c.fill(0));
        let solver = Solver { ix, lower: &lower.data[..] };
        for (k, rows) in rows.iter().enumerate() {
            // Stopped in its first pass, a pair keeps nothing: the next build does that pass again.
            let Some(h) =
                solver.first_pass(pair.class[k], Some(rows), pair.vals[k], &mut pair.counts[k], threads, stop)
            else {
                return Ok(false);
            };
            for (x, y) in pair.hist.iter_mut().zip(h) {
                *x += y;
            }
        }
        first_pass_s = started.elapsed().as_secs_f64();
        if let Err(e) = pair.write_partial(&partial, variant, COMPACT_PIECES, 0) {
            progress(&format!("tablebase progress {} not saved: {e}", partial.display()));
        }
    }
    let mut saved_at = Instant::now();
    let mut after_round = |pair: &Pair, d: u32| {
        let stopping = stop();
        if stopping || saved_at.elapsed() >= SAVE_EVERY {
            if let Err(e) = pair.write_partial(&partial, variant, COMPACT_PIECES, d + 1) {
                progress(&format!("tablebase progress {} not saved: {e}", partial.display()));
            }
            saved_at = Instant::now();
        }
        !stopping
    };
    if !pair.retrograde(threads, resumed.unwrap_or(0), &mut after_round) {
        return Ok(false);
    }
    let solved_s = started.elapsed().as_secs_f64();
    // Recorded in the file, so that reporting the longest win does not read every block again. Wins are the even
    // bytes (distance + 1 with an odd distance).
    let top = (2..=u8::MAX).rev().step_by(2).find(|&v| pair.hist[v as usize] > 0);
    drop(pair);
    let longest = top.and_then(|v| {
        [(b, &first[..]), (a, &second[..])]
            .into_iter()
            .find_map(|(own, vals)| super::solve::find_byte(vals, 0, v).map(|at| (v, own, at)))
    });
    let sections = [(b, a, &rows[0], &first[..]), (a, b, &rows[1], &second[..])]
        .map(|(own, opp, rows, vals)| section(own, opp, rows.len(), vals, threads));
    write_pair(&path, variant, (a, b), &sections, longest)?;
    let _ = fs::remove_file(&partial);
    // Both classes at once: a pass over every entry, in the build's own time.
    let counts = std::thread::scope(|s| {
        let second = s.spawn(|| count_class(ix, (a, b), &rows[1], |at| second[at]));
        let first = count_class(ix, (b, a), &rows[0], |at| first[at]);
        (first, second.join().expect("counting worker panicked"))
    });
    let wdl: [u64; 3] = std::array::from_fn(|i| counts.0[i] + counts.1[i]);
    let size: usize = sections.iter().map(|s| s.iter().map(Vec::len).sum::<usize>()).sum();
    progress(&format!(
        "tablebase {variant} {name}: {} positions in {:.2} s ({}; {} canonical entries, {size} bytes; \
         win {}, draw {}, loss {})",
        wdl.iter().sum::<u64>(),
        started.elapsed().as_secs_f64(),
        match resumed {
            Some(d) => format!("resumed at distance {d}"),
            None => format!("first pass {first_pass_s:.2} s, solved at {solved_s:.2} s"),
        },
        sizes[0] + sizes[1],
        wdl[0],
        wdl[1],
        wdl[2]
    ));
    Ok(true)
}

/// Counts won, drawn and lost positions of class (own, opp) whose compact entries `value(at)` gives: each
/// canonical entry for every position of its symmetry class (4 over the number of symmetries that fix it), the
/// unread entries of symmetric rows not at all.
fn count_class(ix: &Indexer, (a, b): (u32, u32), rows: &Rows, mut value: impl FnMut(usize) -> u8) -> [u64; 3] {
    let row_len = ix.row_len(a, b) as usize;
    let mut wdl = [0u64; 3];
    let mut pts = [0u8; 64];
    for slot in 0..rows.len() {
        let own = ix.unrank(rows.rank(slot), a, ix.board);
        let fixing: Vec<usize> = (0..3).filter(|&k| ix.image(k, own) == own).collect();
        super::index::free_points(ix.board & !own, &mut pts);
        let mut comb: u64 = (1u64 << b) - 1;
        for col in 0..row_len {
            let at = slot * row_len + col;
            let weight = if fixing.is_empty() {
                4
            } else {
                let opp = super::index::spread(comb, &pts);
                if fixing.iter().any(|&k| ix.image(k, opp) < opp) {
                    0
                } else {
                    4 / (1 + fixing.iter().filter(|&&k| ix.image(k, opp) == opp).count() as u64)
                }
            };
            if comb != 0 {
                comb = super::index::next_combination(comb);
            }
            if weight == 0 {
                continue;
            }
            wdl[match TbValue::decode(value(at)) {
                TbValue::Win(_) => 0,
                TbValue::Draw => 1,
                TbValue::Loss(_) => 2,
            }] += weight;
        }
    }
    wdl
}

/// A class's section of a pair file: its directory header, its blocks' ends, its blocks.
fn section(own: u32, opp: u32, rows: usize, vals: &[u8], threads: usize) -> [Vec<u8>; 3] {
    let blocks: Vec<&[u8]> = vals.chunks(BLOCK).collect();
    let per = blocks.len().div_ceil(threads).max(1);
    let compressed: Vec<Vec<u8>> = std::thread::scope(|s| {
        let workers: Vec<_> = blocks
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    let mut c = zstd::bulk::Compressor::new(LEVEL).expect("a zstd context");
                    c.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true)).expect("a zstd parameter");
                    chunk.iter().map(|b| c.compress(b).expect("compressing to a growing buffer")).collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("compression worker panicked")).collect()
    });
    let mut ends = Vec::with_capacity(compressed.len() * 8);
    let mut data = Vec::new();
    for c in &compressed {
        data.extend_from_slice(c);
        ends.extend_from_slice(&(data.len() as u64).to_le_bytes());
    }
    let mut head = Vec::with_capacity(CLASS_HEAD);
    for x in [own, opp, rows as u32, compressed.len() as u32] {
        head.extend_from_slice(&x.to_le_bytes());
    }
    head.extend_from_slice(&(data.len() as u64).to_le_bytes());
    [head, ends, data]
}

/// The checksum of a pair file's two directories (class headers and block ends).
fn directory_sum(parts: [&[u8]; 4]) -> u64 {
    parts.iter().enumerate().fold(0, |x, (i, p)| x ^ checksum(p).rotate_left(i as u32 * 7))
}

/// Writes a pair file whole (see [`write_whole`]), with its longest win (byte, own count of its class, entry) in
/// the header's last 16 bytes (all 0 for none).
fn write_pair(
    path: &Path,
    variant: Variant,
    (a, b): (u32, u32),
    sections: &[[Vec<u8>; 3]; 2],
    longest: Option<(u8, u32, usize)>,
) -> Result<(), TbError> {
    let mut h = [0u8; HEADER_LEN];
    let len: usize = sections.iter().flatten().map(Vec::len).sum();
    let sum = directory_sum([&sections[0][0], &sections[0][1], &sections[1][0], &sections[1][1]]);
    h[..32].copy_from_slice(&header_of(MAGIC, VERSION, variant, COMPACT_PIECES, (a, b), len as u64, sum));
    if let Some((byte, own, at)) = longest {
        h[32] = byte;
        h[33] = own as u8;
        h[40..48].copy_from_slice(&(at as u64).to_le_bytes());
    }
    let mut pieces: Vec<&[u8]> = vec![&h];
    pieces.extend(sections.iter().flatten().map(Vec::as_slice));
    write_whole(path, &pieces)
}

/// A pair file's two classes by own count, its size, and the longest win its header records.
type OpenPair = (Vec<(u32, Class)>, u64, Option<(u8, u32, usize)>);

/// Maps and checks pair file `path` of pair (a, b): its two classes by own count, its size and the longest win
/// it records (checked by [`Compact::longest_win`] before use).
fn open_pair(path: &Path, ix: &Indexer, a: u32, b: u32) -> Result<OpenPair, TbError> {
    let file = fs::File::open(path)?;
    // SAFETY: the map is only read, and pair files are never written in place (`write_whole` renames a new file
    // over the old), so a mapped file does not change under the map.
    let map = Arc::new(unsafe { memmap2::Mmap::map(&file)? });
    let m: &[u8] = &map;
    let h = m.get(..HEADER_LEN).ok_or(TbError::NotATablebase)?;
    if h[0..8] != MAGIC {
        return Err(TbError::NotATablebase);
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(TbError::Version(version));
    }
    if h[12] != variant_code(ix.variant) {
        return Err(TbError::WrongVariant { expected: ix.variant, found: h[12] });
    }
    if (h[13], h[14], h[15]) != (COMPACT_PIECES as u8, a as u8, b as u8) {
        return Err(TbError::WrongPieces { expected: COMPACT_PIECES, found: h[13] as u32 });
    }
    if u64::from_le_bytes(h[16..24].try_into().expect("8 bytes")) != (m.len() - HEADER_LEN) as u64 {
        return Err(TbError::WrongLength);
    }
    let u32_at = |at: usize| u32::from_le_bytes(m[at..at + 4].try_into().expect("4 bytes"));
    let u64_at = |at: usize| u64::from_le_bytes(m[at..at + 8].try_into().expect("8 bytes"));
    let mut at = HEADER_LEN;
    let mut dirs: Vec<&[u8]> = Vec::new();
    let mut classes = Vec::new();
    for (own, opp) in [(b, a), (a, b)] {
        if m.len() < at + CLASS_HEAD || (u32_at(at), u32_at(at + 4)) != (own, opp) {
            return Err(TbError::WrongLength);
        }
        let (rows, blocks, data_len) = (u32_at(at + 8) as usize, u32_at(at + 12) as usize, u64_at(at + 16));
        let row_len = ix.row_len(own, opp) as usize;
        let entries = rows.checked_mul(row_len).ok_or(TbError::WrongLength)?;
        let ends = at + CLASS_HEAD;
        let data = blocks.checked_mul(8).and_then(|x| x.checked_add(ends)).ok_or(TbError::WrongLength)?;
        let end = usize::try_from(data_len).ok().and_then(|l| l.checked_add(data)).ok_or(TbError::WrongLength)?;
        if blocks != entries.div_ceil(BLOCK) || end > m.len() {
            return Err(TbError::WrongLength);
        }
        // Block ends rise and the last is the data's end.
        let mut last = 0;
        for i in 0..blocks {
            let e = u64_at(ends + 8 * i);
            if e <= last || e > data_len {
                return Err(TbError::WrongLength);
            }
            last = e;
        }
        if last != data_len {
            return Err(TbError::WrongLength);
        }
        dirs.push(&m[at..ends]);
        dirs.push(&m[ends..data]);
        classes.push((own, rows, row_len, ends, data, blocks));
        at = end;
    }
    if at != m.len() {
        return Err(TbError::WrongLength);
    }
    if directory_sum([dirs[0], dirs[1], dirs[2], dirs[3]]) != u64::from_le_bytes(h[24..32].try_into().expect("8")) {
        return Err(TbError::Checksum);
    }
    let size = m.len() as u64;
    let top =
        (h[32] != 0).then(|| (h[32], h[33] as u32, u64::from_le_bytes(h[40..48].try_into().expect("8")) as usize));
    let mut out = Vec::new();
    for (own, rows, row_len, ends, data, blocks) in classes {
        let canonical = Rows::canonical(ix, own);
        if canonical.len() != rows {
            return Err(TbError::WrongLength);
        }
        out.push((own, Class { rows: canonical, row_len, map: map.clone(), ends, data, blocks }));
    }
    Ok((out, size, top))
}

impl Class {
    /// The (own, opp) sets of entry `at` of this class, whose own count is `a`.
    fn unindex(&self, ix: &Indexer, a: u32, at: usize) -> (u64, u64) {
        let b = COMPACT_PIECES - a;
        let own = ix.unrank(self.rows.rank(at / self.row_len), a, ix.board);
        (own, ix.unrank((at % self.row_len) as u64, b, ix.board & !own))
    }

    /// Decompresses block `block` into `out` (`BLOCK` bytes; the last block may fill less); None when it is
    /// damaged.
    fn decompress(&self, block: usize, out: &mut [u8]) -> Option<()> {
        let end_at = |i: usize| -> usize {
            let at = self.ends + 8 * i;
            u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes")) as usize
        };
        let start = if block == 0 { 0 } else { end_at(block - 1) };
        let frame = &self.map[self.data + start..self.data + end_at(block)];
        DECOMPRESSOR.with(|d| {
            let mut d = d.borrow_mut();
            let d = d.as_mut()?;
            d.decompress_to_buffer(frame, out).ok().map(|_| ())
        })
    }
}

/// Decompressed blocks kept per thread: 1,024 of 1 KiB, a megabyte.
const CACHE_SLOTS: usize = 1024;

/// A thread's cache of decompressed blocks, direct-mapped by the block's tag (table, class, block).
struct BlockCache {
    tags: Vec<u64>,
    blocks: Vec<u8>,
}

impl BlockCache {
    /// The block of `tag`, decompressed by `fill` if it is not held; None when `fill` fails.
    #[inline]
    fn get(&mut self, tag: u64, fill: impl FnOnce(&mut [u8]) -> Option<()>) -> Option<&[u8]> {
        if self.tags.is_empty() {
            self.tags = vec![0; CACHE_SLOTS];
            self.blocks = vec![0; CACHE_SLOTS * BLOCK];
        }
        let slot = (tag.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CACHE_SLOTS.trailing_zeros())) as usize;
        let out = &mut self.blocks[slot * BLOCK..(slot + 1) * BLOCK];
        if self.tags[slot] != tag {
            self.tags[slot] = 0;
            fill(out)?;
            self.tags[slot] = tag;
        }
        Some(out)
    }
}

thread_local! {
    static CACHE: RefCell<BlockCache> = const { RefCell::new(BlockCache { tags: Vec::new(), blocks: Vec::new() }) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        RefCell::new(zstd::bulk::Decompressor::new().ok());
}

impl Top for Compact {
    fn probe(&self, own: u64, opp: u64) -> Option<TbValue> {
        Compact::probe(self, own, opp)
    }
}

impl Tablebase {
    /// The table joined with the compact seven-piece table of the same board, which then answers for the
    /// positions of seven pieces ([`Tablebase::max_pieces`] becomes 7); the table itself must be of six pieces.
    pub fn with_seven(mut self, seven: Arc<Compact>) -> Result<Tablebase, TbError> {
        if self.ix.max + 1 != COMPACT_PIECES {
            return Err(TbError::WrongPieces { expected: COMPACT_PIECES - 1, found: self.ix.max });
        }
        if seven.variant() != self.ix.variant {
            return Err(TbError::WrongVariant { expected: self.ix.variant, found: variant_code(seven.variant()) });
        }
        self.top = Some(seven);
        Ok(self)
    }
}

/// `tb` joined with the compact seven-piece table in `dir` when `tb` is of six pieces and that table is there and
/// intact; `tb` as it is otherwise.
pub(super) fn join_cached(mut tb: Tablebase, dir: &Path) -> Tablebase {
    if tb.ix.max + 1 == COMPACT_PIECES
        && let Ok(seven) = Compact::load(dir, tb.variant())
    {
        tb.top = Some(Arc::new(seven));
    }
    tb
}

/// The table of up to seven pieces of `variant` in `dir`: the six-piece table loaded or built
/// ([`Tablebase::load_or_build_on`]), joined with the compact seven-piece table, loaded or built
/// ([`Compact::build`]), on `threads` threads.
pub fn load_or_build_seven(
    dir: &Path,
    variant: Variant,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Tablebase, TbError> {
    // Six pieces take a minute: nothing of them is saved before the whole table, as the saves would cost a tenth
    // of that minute (see SAVE_EVERY).
    let saving = (SAVE_EVERY, SAVE_EVERY);
    let six = Tablebase::load_or_build_saving(dir, variant, COMPACT_PIECES - 1, threads, saving, &mut *progress)?;
    let seven = match Compact::load(dir, variant) {
        Ok(seven) => seven,
        Err(_) => Compact::build(dir, &six, threads, progress)?,
    };
    six.with_seven(Arc::new(seven))
}

/// The folder and the files of the compact table of `variant` there.
pub fn compact_files(dir: &Path, variant: Variant) -> Vec<PathBuf> {
    PAIRS.iter().map(|&(a, b)| dir.join(Compact::file_name(variant, a, b))).collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{quiet, tmp_path};
    use super::*;

    /// The compact table of the 5 × 5 board gives every position of seven pieces the value of the full table of
    /// seven pieces (one byte for every entry, built the simple way), and reports the same counts.
    #[test]
    fn the_compact_table_agrees_with_the_full_one_everywhere() {
        let variant = Variant::Dimy;
        let full = Tablebase::build(variant, 7, quiet);
        let six = Tablebase::build(variant, 6, quiet);
        let dir = tmp_path("compact-dimy");
        let _ = fs::remove_dir_all(&dir);
        let mut log = Vec::new();
        let compact = Compact::build(&dir, &six, 2, &mut |s| log.push(s.to_string())).unwrap();
        let ix = &full.ix;
        for a in 0..=7 {
            let b = 7 - a;
            let mut wdl = [0u64; 3];
            for i in 0..ix.class_size(a, b) {
                let (own, opp) = ix.unindex(a, b, i);
                let want = TbValue::decode(full.data[ix.offset(a, b) + i]);
                assert_eq!(compact.probe(own, opp), Some(want), "{a}v{b} entry {i}");
                wdl[if want.is_win() {
                    0
                } else if want.is_draw() {
                    1
                } else {
                    2
                }] += 1;
            }
            if a > 0 && b > 0 {
                assert_eq!(compact.count(a, b), wdl, "{a}v{b}");
            }
        }
        // Joined to the six-piece table, it answers for positions as the full table does.
        let joined = six.with_seven(Arc::new(compact)).unwrap();
        assert_eq!(joined.max_pieces(), 7);
        for pos in super::super::sample(&full, 4, 3, super::super::ValueKind::Win, 50, 1) {
            assert_eq!(joined.probe(&pos), full.probe(&pos), "{pos}");
            assert_eq!(joined.best_turn(&pos).map(|t| t.1), full.best_turn(&pos).map(|t| t.1), "{pos}");
        }
        assert!(log.iter().any(|l| l.contains("4v3 and 3v4: ")), "{log:?}");
        // The search reads the seven-piece values: one turn deep from a lost position of seven pieces, whose turns
        // lead to seven pieces (paika) or fewer (captures), it scores it as the table's best turn does.
        let joined = Arc::new(joined);
        let mut searcher = crate::search::Searcher::new(1);
        searcher.set_oracle(Some(joined.clone()));
        let mut checked = 0;
        for pos in super::super::sample(&full, 4, 3, super::super::ValueKind::Loss, 20, 2) {
            let Some((_, want)) = joined.best_turn(&pos) else { continue };
            let r = searcher.search(&pos, &[], crate::search::Limits::depth(1), |_| {});
            assert_eq!(r.value(), crate::score::Score::from(want), "{pos}");
            checked += 1;
        }
        assert!(checked >= 10);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A build stopped halfway keeps its finished pairs and the analysis of the pair in progress, and the next
    /// build ends with the same table; a damaged or missing pair file is built again.
    #[test]
    fn an_interrupted_build_resumes() {
        let variant = Variant::Dimy;
        let six = Tablebase::build(variant, 6, quiet);
        let dir = tmp_path("compact-resume");
        let _ = fs::remove_dir_all(&dir);
        let want = Compact::build(&dir, &six, 2, &mut quiet).unwrap();
        let files = compact_files(&dir, variant);
        let bytes: Vec<Vec<u8>> = files.iter().map(|f| fs::read(f).unwrap()).collect();
        // Stopped in the second pair (5v2), after a few rounds.
        fs::remove_file(&files[1]).unwrap();
        fs::remove_file(&files[2]).unwrap();
        // Stopped in its first pass (asked by the pass's workers, before each block), a pair keeps nothing.
        let test_thread = std::thread::current().id();
        let in_first_pass = || std::thread::current().id() != test_thread;
        assert!(Compact::build_until(&dir, &six, 2, &mut quiet, &in_first_pass, &mut |_| {}).unwrap().is_none());
        assert!(!files[1].exists() && !dir.join(format!("fanorona-{variant}-7c.partial-5v2")).exists());
        // Stopped after a few rounds of its retrograde analysis (asked on the building thread).
        let rounds = AtomicU64::new(0);
        let stop = || std::thread::current().id() == test_thread && rounds.fetch_add(1, Ordering::Relaxed) >= 3;
        assert!(Compact::build_until(&dir, &six, 2, &mut quiet, &stop, &mut |_| {}).unwrap().is_none());
        assert!(!files[1].exists() && dir.join(format!("fanorona-{variant}-7c.partial-5v2")).exists());
        let mut log = Vec::new();
        let again = Compact::build(&dir, &six, 2, &mut |s| log.push(s.to_string())).unwrap();
        assert!(log[0].contains("4v3 and 3v4: kept"), "{log:?}");
        assert!(log[1].contains("resumed at distance 4"), "{log:?}");
        assert_eq!(files.iter().map(|f| fs::read(f).unwrap()).collect::<Vec<_>>(), bytes, "the same files");
        assert_eq!(again.bytes(), want.bytes());
        // A flipped bit in a block is found when the block is read, never taken for a value.
        let mut damaged = bytes[0].clone();
        let last = damaged.len() - 3;
        damaged[last] ^= 0x10;
        fs::write(&files[0], &damaged).unwrap();
        let table = Compact::load(&dir, variant).unwrap();
        assert!(table.check_blocks().is_err());
        // A damaged directory is refused at once, and the build makes the pair again.
        damaged = bytes[0].clone();
        damaged[HEADER_LEN + 10] ^= 1;
        fs::write(&files[0], &damaged).unwrap();
        assert!(matches!(Compact::load(&dir, variant), Err(TbError::Checksum | TbError::WrongLength)));
        fs::write(&files[0], &bytes[0][..1000]).unwrap();
        assert!(Compact::load(&dir, variant).is_err());
        Compact::build(&dir, &six, 2, &mut quiet).unwrap();
        assert_eq!(fs::read(&files[0]).unwrap(), bytes[0]);
        // The longest win the files record is the one a reading of every block finds, and a record that does not
        // hold (another byte there, or none) is not believed.
        let recorded = Compact::load(&dir, variant).unwrap().longest_win().expect("won positions");
        for (i, file) in files.iter().enumerate() {
            let mut b = fs::read(file).unwrap();
            if i == 0 {
                b[32] += 2;
            } else {
                b[32..48].fill(0);
            }
            fs::write(file, &b).unwrap();
        }
        assert_eq!(Compact::load(&dir, variant).unwrap().longest_win(), Some(recorded));
        fs::remove_dir_all(&dir).unwrap();
    }
}
