//! Indexing: where each position of up to [`MAX_PIECES`] pieces sits in the table (colex ranks of the two piece
//! sets within their material class, classes laid out by total pieces), the board's symmetries, and the bit tricks
//! that walk a class's entries in order.

use crate::geometry::Variant;
use crate::position::Position;
use crate::rules::{Rules, Side};

/// The most pieces a table can be built for. Seven pieces already take about 6 GB on the 9×5 board.
pub const MAX_PIECES: u32 = 7;

/// Colex ranking of piece sets and the layout of the material classes in one byte array.
#[derive(Clone, Debug)]
pub(super) struct Indexer {
    /// The board.
    pub(super) variant: Variant,
    /// The most pieces of a position in the table.
    pub(super) max: u32,
    /// Points on the board.
    n: u32,
    /// The points of the board, as a bitmask.
    pub(super) board: u64,
    /// `binom[o][i]` = C(o, i).
    binom: [[u64; MAX_PIECES as usize + 1]; 65],
    /// Start of class (own, opp) at `own * (max + 1) + opp`; classes are laid out by total pieces, then own count.
    offsets: Vec<usize>,
    /// Entries in the whole table.
    pub(super) total: usize,
    /// `sym[k][p]`: the image of point `p` under the left-right mirror (k = 0), the up-down mirror (1) and the
    /// half turn (2). Both boards are symmetric under them: lines and strong points ((file + rank) even, and the
    /// widths and height are odd) map onto lines and strong points, and no rule depends on a direction.
    pub(super) sym: [[u8; 64]; 3],
}

impl Indexer {
    /// The layout of `variant`'s table up to `max` pieces.
    pub(super) fn new(variant: Variant, max: u32) -> Indexer {
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
    pub(super) fn row_len(&self, own: u32, opp: u32) -> u64 {
        self.c(self.n - own, opp)
    }

    /// Entries in class (own, opp).
    pub(super) fn class_size(&self, own: u32, opp: u32) -> usize {
        (self.c(self.n, own) * self.row_len(own, opp)) as usize
    }

    #[inline(always)]
    pub(super) fn offset(&self, own: u32, opp: u32) -> usize {
        self.offsets[(own * (self.max + 1) + opp) as usize]
    }

    /// Colex rank of `set` among the points of `avail` (`set ⊆ avail`).
    #[inline(always)]
    pub(super) fn rank(&self, set: u64, avail: u64) -> u64 {
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
    pub(super) fn unrank(&self, mut r: u64, k: u32, avail: u64) -> u64 {
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
    pub(super) fn index(&self, own: u64, opp: u64) -> usize {
        let row = self.row_len(own.count_ones(), opp.count_ones());
        (self.rank(own, self.board) * row + self.rank(opp, self.board & !own)) as usize
    }

    /// Position in the whole table of (own, opp).
    #[inline(always)]
    pub(super) fn global(&self, own: u64, opp: u64) -> usize {
        self.offset(own.count_ones(), opp.count_ones()) + self.index(own, opp)
    }

    /// The (own, opp) sets of entry `idx` of class (a, b).
    pub(super) fn unindex(&self, a: u32, b: u32, idx: usize) -> (u64, u64) {
        let row = self.row_len(a, b);
        let own = self.unrank(idx as u64 / row, a, self.board);
        let opp = self.unrank(idx as u64 % row, b, self.board & !own);
        (own, opp)
    }

    /// The image of `set` under symmetry `k` (see [`Indexer::sym`]).
    #[inline(always)]
    pub(super) fn image(&self, k: usize, set: u64) -> u64 {
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
    pub(super) fn canonical(&self, own: u64, opp: u64) -> (u64, u64) {
        let mut best = (own, opp);
        for k in 0..3 {
            best = best.min((self.image(k, own), self.image(k, opp)));
        }
        best
    }

    /// The class (own, opp) holding global entry `at`.
    pub(super) fn class_of(&self, at: usize) -> (u32, u32) {
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

/// The rows of a material class that a compact table keeps: the own sets that are the least of their images (the
/// others' entries are those of their images), by colex rank. A compact class holds `len()` rows of
/// [`Indexer::row_len`] entries, row `slot` for the own set of rank [`Rows::rank`]`(slot)`; within a row whose own
/// set is symmetric, the entries of non-canonical opponent sets are never read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rows {
    /// The colex ranks of the canonical own sets, in increasing order.
    ranks: Vec<u32>,
    /// Which own sets have a row, a bit for each colex rank, 64 to a word, each word with the number of rows
    /// before it: a row is found with one cache line (2 MB for the 8 million sets of six pieces, where a table of
    /// rows by rank took 32 MB, and waiting on it was a quarter of the build).
    words: Vec<(u64, u32)>,
}

impl Rows {
    /// The canonical own sets of `own` pieces on `ix`'s board.
    // Only the compact table makes rows, and it is not in a browser.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) fn canonical(ix: &Indexer, own: u32) -> Rows {
        let mut pts = [0u8; 64];
        let n = free_points(ix.board, &mut pts);
        let count = ix.c(n, own);
        let mut ranks = Vec::new();
        let mut comb: u64 = (1u64 << own) - 1;
        for r in 0..count {
            let set = spread(comb, &pts);
            if (0..3).all(|k| ix.image(k, set) >= set) {
                ranks.push(u32::try_from(r).expect("own sets of a class fit in u32"));
            }
            if comb != 0 {
                comb = next_combination(comb);
            }
        }
        Rows::from_ranks(ranks, count).expect("ranks found in increasing order")
    }

    /// The rows of the own sets of colex ranks `ranks` among `count` own sets; None unless the ranks rise and stay
    /// below `count`.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    fn from_ranks(ranks: Vec<u32>, count: u64) -> Option<Rows> {
        if !ranks.windows(2).all(|w| w[0] < w[1]) || ranks.last().is_some_and(|&r| r as u64 >= count) {
            return None;
        }
        let mut words = vec![(0u64, 0u32); usize::try_from(count.div_ceil(64)).ok()?];
        for &r in &ranks {
            words[r as usize / 64].0 |= 1 << (r % 64);
        }
        let mut before = 0;
        for w in &mut words {
            w.1 = before;
            before += w.0.count_ones();
        }
        Some(Rows { ranks, words })
    }

    /// Number of rows.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(super) fn len(&self) -> usize {
        self.ranks.len()
    }

    /// The colex rank of row `slot`'s own set.
    #[inline(always)]
    pub(super) fn rank(&self, slot: usize) -> u64 {
        self.ranks[slot] as u64
    }

    /// Starts loading the row of the own set of colex rank `rank` into the cache (a hint: no effect on results).
    #[inline(always)]
    pub(super) fn prefetch(&self, rank: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.words.as_ptr().wrapping_add(rank as usize / 64);
            // SAFETY: prefetching is a hint with no effect on memory safety, whatever the address.
            unsafe { std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = rank;
    }

    /// The row of the own set of colex rank `rank`, if it is canonical.
    #[inline(always)]
    pub(super) fn slot(&self, rank: u64) -> Option<usize> {
        let &(bits, before) = self.words.get(rank as usize / 64)?;
        let bit = rank % 64;
        (bits >> bit & 1 == 1).then(|| (before + (bits & ((1u64 << bit) - 1)).count_ones()) as usize)
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
pub(super) fn next_combination(m: u64) -> u64 {
    let c = m & m.wrapping_neg();
    let r = m + c;
    (((r ^ m) >> 2) / c) | r
}

/// The points of `pts` whose ordinals are the bits of `comb` (a set of free points chosen by its colex ordinal).
#[inline(always)]
pub(super) fn spread(mut comb: u64, pts: &[u8]) -> u64 {
    let mut set = 0u64;
    while comb != 0 {
        set |= 1 << pts[comb.trailing_zeros() as usize];
        comb &= comb - 1;
    }
    set
}

/// The position with the "own" pieces as White and White to move (how the builder sees an entry).
#[inline(always)]
pub(super) fn own_to_move(variant: Variant, own: u64, opp: u64) -> Position {
    Position::from_parts(variant, own, opp, Side::White, &Rules { variant, ..Rules::default() })
}

/// Lists the points of `avail` in `pts`, lowest first; returns how many there are.
#[inline]
pub(super) fn free_points(mut avail: u64, pts: &mut [u8; 64]) -> u32 {
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
pub(super) fn first_combination(ix: &Indexer, b: u32, col: usize, free: u32) -> u64 {
    if col == 0 { (1 << b) - 1 } else { ix.unrank(col as u64, b, (1u64 << free) - 1) }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
