//! Solving: the first look at every entry of a material class (capture positions settled from the smaller
//! classes, paika positions counted), and the retrograde analysis of a pair of classes, distance by distance, over
//! the canonical entries, whose values are then copied to the rest.

use super::index::{Indexer, Rows, first_combination, free_points, next_combination, own_to_move, spread};
use super::value::{MAX_DISTANCE, TbValue};
use crate::position::{Position, StepList};
use std::sync::Mutex;

/// Best values found among the capture turns of one position.
struct Best {
    /// Shortest win (from a successor lost in `win − 1`), or `u32::MAX`.
    win: u32,
    draw: bool,
    /// Longest loss found so far.
    loss: u32,
}

/// What the first pass needs: the finished smaller classes.
pub(super) struct Solver<'a> {
    /// The table's layout.
    pub(super) ix: &'a Indexer,
    /// Every class with fewer pieces than the ones being built (the start of the table).
    pub(super) lower: &'a [u8],
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
    fn first_rows(
        &self,
        (a, b): (u32, u32),
        rows: Option<&Rows>,
        row0: usize,
        vals: &mut [u8],
        counts: &mut [u8],
    ) -> [u64; 256] {
        let mut hist = [0u64; 256];
        let at = row0 * self.ix.row_len(a, b) as usize;
        self.first_span((a, b), rows, at, vals, counts, &mut hist);
        hist
    }

    /// First look at the entries of class (a, b) from index `at` on, as many as `vals` holds (`counts` the same
    /// entries); adds the stored bytes of the final entries to `hist`. A span may start and end within a row: a
    /// build in slices ([`SlicedBuild`]) takes a few thousand entries at a time. With `rows`, the class is compact:
    /// row `r` is that of the own set `rows.rank(r)`.
    pub(super) fn first_span(
        &self,
        (a, b): (u32, u32),
        rows: Option<&Rows>,
        at: usize,
        vals: &mut [u8],
        counts: &mut [u8],
        hist: &mut [u64; 256],
    ) {
        let ix = self.ix;
        let row = ix.row_len(a, b) as usize;
        let mut pts = [0u8; 64];
        let (mut done, end) = (0, vals.len());
        while done < end {
            let (r, col) = ((at + done) / row, (at + done) % row);
            let n = (row - col).min(end - done);
            let (vrow, crow) = (&mut vals[done..done + n], &mut counts[done..done + n]);
            done += n;
            let own = ix.unrank(rows.map_or(r as u64, |x| x.rank(r)), a, ix.board);
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

    /// First look at all of class (a, b) (compact with `rows`), on `threads` threads. On more than one thread it
    /// asks `stop` before each block of work, and answers None, the pass unfinished, when it said yes: the first
    /// pass of the largest seven-piece class takes a minute and a half, too long to wait for a player's Stop.
    pub(super) fn first_pass(
        &self,
        (a, b): (u32, u32),
        rows: Option<&Rows>,
        vals: &mut [u8],
        counts: &mut [u8],
        threads: usize,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<[u64; 256]> {
        let row = self.ix.row_len(a, b) as usize;
        if threads <= 1 || vals.len() < 1 << 14 {
            return Some(self.first_rows((a, b), rows, 0, vals, counts));
        }
        let stopped = std::sync::atomic::AtomicBool::new(false);
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
                            if stop() {
                                stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                                break;
                            }
                            let next = queue.lock().expect("no worker panics holding the lock").next();
                            let Some((row0, v, c)) = next else { break };
                            for (x, y) in h.iter_mut().zip(self.first_rows((a, b), rows, row0, v, c)) {
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
        (!stopped.into_inner()).then_some(hist)
    }
}

/// The first index at or after `from` where `s` holds `v`.
pub(super) fn find_byte(s: &[u8], from: usize, v: u8) -> Option<usize> {
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
pub(super) struct Pair<'a> {
    /// The table's layout.
    pub(super) ix: &'a Indexer,
    /// (own, opp) counts of each class.
    pub(super) class: [(u32, u32); 2],
    /// The stored bytes of each class.
    pub(super) vals: [&'a mut [u8]; 2],
    /// The rows of each class when it is compact (only canonical rows: see [`Rows`]), else None.
    pub(super) rows: [Option<&'a Rows>; 2],
    /// Paika successors not yet known to win for the opponent; 0 for final entries.
    pub(super) counts: [Vec<u8>; 2],
    /// Number of final entries per stored byte.
    pub(super) hist: [u64; 256],
}

impl Pair<'_> {
    /// The class that the paika turns from class `k` lead to.
    pub(super) fn other(&self, k: usize) -> usize {
        if self.class[0] == self.class[1] { k } else { 1 - k }
    }

    /// Successor-counting retrograde analysis, distance by distance, over the canonical entries.
    ///
    /// Each round, `threads` threads scan a stretch of a class for the entries settled at the current distance and
    /// list their predecessors' indices (reading only), each list split by where in the other class they fall;
    /// then `threads` threads apply them, each to its own part of the other class, prefetching ahead, as the
    /// random accesses to the predecessors are most of what is left of the cost. Applying in any order gives the
    /// same table: the entries touched at distance `d` are only ever set to distance `d + 1`.
    ///
    /// Starts at distance `from` (a resumed build: the rounds before are done) and calls `after_round` with the
    /// distance of each finished round; stops, returning false, when it answers false.
    pub(super) fn retrograde(
        &mut self,
        threads: usize,
        from: u32,
        after_round: &mut dyn FnMut(&Pair, u32) -> bool,
    ) -> bool {
        /// Entries of a class each thread scans per batch: its list of predecessors stays a few megabytes.
        const STRETCH: usize = 1 << 19;
        /// Entries a thread takes at a time within a batch: the entries settled at a distance are unevenly spread,
        /// and fixed halves left one core idle for a quarter of the time.
        const CHUNK: usize = 1 << 14;
        let threads = threads.max(1);
        // lists[t][j]: the predecessors producer t found in part j of the other class.
        let mut lists: Vec<Vec<Vec<u32>>> = vec![vec![Vec::new(); threads]; threads];
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
                    let end = (start + STRETCH * threads).min(n);
                    let next = std::sync::atomic::AtomicUsize::new(start);
                    let work = |out: &mut [Vec<u32>]| {
                        out.iter_mut().for_each(Vec::clear);
                        let mut found = 0;
                        loop {
                            let from = next.fetch_add(CHUNK, std::sync::atomic::Ordering::Relaxed);
                            if from >= end {
                                return found;
                            }
                            found += this.predecessors(k, v, from..(from + CHUNK).min(end), out);
                        }
                    };
                    start = end;
                    let found: u64 = if lists.len() == 1 {
                        work(&mut lists[0])
                    } else {
                        std::thread::scope(|s| {
                            let (first, rest) = lists.split_first_mut().expect("at least one thread");
                            let workers: Vec<_> = rest.iter_mut().map(|list| s.spawn(|| work(list))).collect();
                            let mine = work(first);
                            mine + workers
                                .into_iter()
                                .map(|w| w.join().expect("tablebase worker panicked"))
                                .sum::<u64>()
                        })
                    };
                    left -= found;
                    self.settle_parts(pk, d, &lists);
                }
            }
            if d < MAX_DISTANCE && !after_round(self, d) {
                return false;
            }
        }
        true
    }

    /// The number of entries holding each byte, as the first pass and [`Pair::settle`] keep it (every nonzero
    /// byte is a final entry): what a resumed build needs again. Also clears the counts of final entries, which
    /// a build saved by an earlier version may have left (see [`Pair::settle`]).
    pub(super) fn recount(&mut self) {
        self.hist = [0; 256];
        for (vals, counts) in self.vals.iter().zip(self.counts.iter_mut()) {
            for (&byte, count) in vals.iter().zip(counts.iter_mut()) {
                self.hist[byte as usize] += 1;
                if byte != 0 {
                    *count = 0;
                }
            }
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
    ///
    /// `out` holds one list per part of the other class (its entries cut into `out.len()` equal stretches): each
    /// predecessor is added to the list of its part.
    pub(super) fn predecessors(&self, k: usize, v: u8, range: std::ops::Range<usize>, out: &mut [Vec<u32>]) -> u64 {
        let ix = self.ix;
        let g = ix.variant.geometry();
        let vals = &self.vals[k][..range.end];
        let part = self.vals[self.other(k)].len().div_ceil(out.len()).max(1);
        let mut moves: Vec<(u32, u8, u8)> = Vec::with_capacity(256);
        let mut candidates: Vec<Candidate> = Vec::with_capacity(64);
        let pk = self.other(k);
        let mut found = 0;
        let mut i = range.start;
        let (a, b) = self.class[k];
        let row = ix.row_len(a, b) as usize;
        // The own set of the row last seen: entries are found in order, many to a row.
        let mut row_own = (usize::MAX, 0u64);
        while let Some(at) = find_byte(vals, i, v) {
            i = at + 1;
            found += 1;
            if row_own.0 != at / row {
                row_own = (at / row, self.unindex(k, at).0);
            }
            let own = row_own.1;
            let opp = ix.unrank((at % row) as u64, b, ix.board & !own);
            let empty = ix.board & !(own | opp);
            let own_img = [ix.image(0, own), ix.image(1, own), ix.image(2, own)];
            let opp_img = [ix.image(0, opp), ix.image(1, opp), ix.image(2, opp)];
            let symmetric = (0..3).any(|s| (own_img[s], opp_img[s]) == (own, opp));
            moves.clear();
            candidates.clear();
            // Predecessors: the opponent had just moved a piece from an empty point to where it stands. Their
            // canonical forms first, asking for each one's row early: in a class with many own sets the row
            // table is tens of megabytes, and waiting on one lookup at a time was a quarter of the work.
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
                    // Which of identity and the three symmetries map this predecessor to its canonical form.
                    let mut mapping = (best == (before, own)) as u8;
                    for (s, image) in images.iter().enumerate() {
                        mapping |= ((*image == best) as u8) << (s + 1);
                    }
                    let rank = ix.rank(best.0, ix.board);
                    if let Some(rows) = self.rows[pk] {
                        rows.prefetch(rank);
                    }
                    candidates.push(Candidate { own: best.0, opp: best.1, rank, from: p as u8, to: q as u8, mapping });
                }
            }
            for c in &candidates {
                let pi = self.index_ranked(pk, c.own, c.opp, c.rank) as u32;
                let mut note = |m: (u32, u8, u8)| {
                    if !symmetric || !moves.contains(&m) {
                        moves.push(m);
                    }
                };
                let (p, q) = (c.from as usize, c.to as usize);
                if c.mapping & 1 != 0 {
                    note((pi, c.from, c.to));
                }
                for (s, sym) in ix.sym.iter().enumerate() {
                    if c.mapping >> (s + 1) & 1 != 0 {
                        note((pi, sym[p], sym[q]));
                    }
                }
            }
            for m in &moves {
                out[m.0 as usize / part].push(m.0);
            }
        }
        found
    }

    /// The (own, opp) sets of entry `at` of class `k`.
    #[inline]
    fn unindex(&self, k: usize, at: usize) -> (u64, u64) {
        let ix = self.ix;
        let (a, b) = self.class[k];
        let row = ix.row_len(a, b) as usize;
        let slot = at / row;
        let own = ix.unrank(self.rows[k].map_or(slot as u64, |r| r.rank(slot)), a, ix.board);
        (own, ix.unrank((at % row) as u64, b, ix.board & !own))
    }

    /// The entry of the canonical position (own, opp) in class `k`, whose own set has colex rank `rank`.
    #[inline]
    fn index_ranked(&self, k: usize, own: u64, opp: u64, rank: u64) -> usize {
        let ix = self.ix;
        let (a, b) = self.class[k];
        let row = match self.rows[k] {
            None => rank as usize,
            Some(rows) => rows.slot(rank).expect("a canonical position has a canonical own set"),
        };
        row * ix.row_len(a, b) as usize + ix.rank(opp, ix.board & !own) as usize
    }

    /// Applies to class `pk` the predecessors listed for entries settled at distance `d`.
    pub(super) fn settle(&mut self, pk: usize, d: u32, list: &[u32]) {
        let settled = settle_part(&mut *self.vals[pk], &mut self.counts[pk], 0, d, std::iter::once(list));
        self.hist[d as usize + 2] += settled;
    }

    /// Applies to class `pk` the predecessors that [`Pair::predecessors`] listed, by part (`lists[t][j]`: those of
    /// producer t in part j), each part on a thread of its own.
    fn settle_parts(&mut self, pk: usize, d: u32, lists: &[Vec<Vec<u32>>]) {
        let parts = lists[0].len();
        if parts == 1 {
            for list in lists {
                self.settle(pk, d, &list[0]);
            }
            return;
        }
        let part = self.vals[pk].len().div_ceil(parts).max(1);
        let (vals, counts) = (&mut *self.vals[pk], &mut self.counts[pk][..]);
        let settled: u64 = std::thread::scope(|s| {
            let workers: Vec<_> = vals
                .chunks_mut(part)
                .zip(counts.chunks_mut(part))
                .enumerate()
                .map(|(j, (v, c))| {
                    s.spawn(move || settle_part(v, c, j * part, d, lists.iter().map(move |l| l[j].as_slice())))
                })
                .collect();
            workers.into_iter().map(|w| w.join().expect("tablebase worker panicked")).sum()
        });
        self.hist[d as usize + 2] += settled;
    }

    /// Copies the value of each canonical entry to the other entries `range` of class `k` of its symmetry class
    /// (the canonical entries of the class are all final).
    pub(super) fn fill_span(&mut self, k: usize, range: std::ops::Range<usize>) {
        let filled = self.filled(k, range.clone());
        self.vals[k][range].copy_from_slice(&filled);
    }

    /// Copies the value of each canonical entry to the other entries of its symmetry class, on `threads` threads:
    /// stretches of a class are filled at once, each into a copy (the canonical entries they read stay as they
    /// are), then copied back.
    pub(super) fn fill_on(&mut self, threads: usize) {
        /// Entries filled at once: the copies take this many bytes.
        const BATCH: usize = 1 << 24;
        let classes = if self.class[0] == self.class[1] { 1 } else { 2 };
        let threads = threads.max(1);
        for k in 0..classes {
            let n = self.vals[k].len();
            let mut start = 0;
            while start < n {
                let end = (start + BATCH).min(n);
                let per = (end - start).div_ceil(threads);
                let this = &*self;
                let filled: Vec<(usize, Vec<u8>)> = std::thread::scope(|s| {
                    let workers: Vec<_> = (0..threads)
                        .map(|t| (start + t * per).min(end)..(start + (t + 1) * per).min(end))
                        .map(|r| s.spawn(move || (r.start, this.filled(k, r))))
                        .collect();
                    workers.into_iter().map(|w| w.join().expect("tablebase worker panicked")).collect()
                });
                for (at, v) in filled {
                    self.vals[k][at..at + v.len()].copy_from_slice(&v);
                }
                start = end;
            }
        }
    }

    /// The entries `range` of class `k` with each non-canonical one given its canonical image's value.
    fn filled(&self, k: usize, range: std::ops::Range<usize>) -> Vec<u8> {
        let ix = self.ix;
        let (a, b) = self.class[k];
        let vals = &*self.vals[k];
        let mut out = vals[range.clone()].to_vec();
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
                    out[at - range.start] = vals[ix.index(co, cp)];
                }
            }
        }
        out
    }
}

/// A predecessor found by [`Pair::predecessors`], before its entry is looked up: its canonical form, the colex
/// rank of that form's own set, the move (from, to) as seen in the entry, and which of identity and the three
/// symmetries (bits 0 to 3) map the predecessor to its canonical form.
struct Candidate {
    own: u64,
    opp: u64,
    rank: u64,
    from: u8,
    to: u8,
    mapping: u8,
}

/// Applies predecessors listed for entries settled at distance `d` to the entries `base..` of a class (`vals` and
/// `counts` are that stretch); returns how many became final.
///
/// An entry's count is 0 exactly when it is final (or not canonical), so that most predecessors, already final,
/// cost one random access to the counts and none to the values.
fn settle_part<'l>(
    vals: &mut [u8],
    counts: &mut [u8],
    base: usize,
    d: u32,
    lists: impl Iterator<Item = &'l [u32]>,
) -> u64 {
    /// How far ahead in the list entries are prefetched.
    const AHEAD: usize = 32;
    let mut settled = 0;
    for list in lists {
        for (j, &pi) in list.iter().enumerate() {
            if let Some(&next) = list.get(j + AHEAD) {
                prefetch(counts, next as usize - base);
            }
            let pi = pi as usize - base;
            // Count 0: final already, a capture position (paika was not legal there), or not canonical.
            if counts[pi] == 0 {
                continue;
            }
            assert!(d < MAX_DISTANCE, "tablebase distance {} does not fit in a byte", d + 1);
            if d.is_multiple_of(2) {
                // This entry is lost: moving into it wins.
                vals[pi] = TbValue::Win(d + 1).encode();
                counts[pi] = 0;
                settled += 1;
            } else {
                counts[pi] -= 1;
                if counts[pi] == 0 {
                    // Every turn leads to a win for the opponent, this one (processed last) the longest.
                    vals[pi] = TbValue::Loss(d + 1).encode();
                    settled += 1;
                }
            }
        }
    }
    settled
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

#[cfg(test)]
mod tests {
    use super::super::probe::Tablebase;
    use super::super::test_support::quiet;
    use super::*;
    use crate::geometry::Variant;
    use crate::rules::{Rules, Side};
    use std::collections::HashMap;

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
    fn same_table_as_the_reference_builder() {
        for variant in [Variant::Dimy, Variant::Tsivy] {
            let tb = Tablebase::build(variant, 4, quiet);
            let reference = reference_build(variant, 4);
            let first_difference = tb.data.iter().zip(&reference).position(|(x, y)| x != y);
            assert_eq!(first_difference, None, "{variant}");
            assert_eq!(tb.data.len(), reference.len());
        }
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
