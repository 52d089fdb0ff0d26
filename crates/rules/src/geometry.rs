//! Board geometry: variants, points, directions and the precomputed bitboard tables.
//!
//! A point is a bit index `i = 9 · rank + file` (0-based) on both boards: Fanoron-Dimy uses files a–e of the same
//! layout, so point indices, names and step offsets are the same for every variant. Because 9 is odd, a point is
//! strong (joined diagonally) exactly when its index is even.

use std::fmt;

/// Which board the game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Variant {
    /// Fanoron-Tsivy, the main game: 9 files × 5 ranks, 22 pieces a side.
    #[default]
    Tsivy,
    /// Fanoron-Dimy: 5 files × 5 ranks, 12 pieces a side.
    Dimy,
}

impl Variant {
    /// The board tables of this variant.
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        match self {
            Variant::Tsivy => &TSIVY,
            Variant::Dimy => &DIMY,
        }
    }

    /// Number of files (columns).
    pub const fn width(self) -> u8 {
        match self {
            Variant::Tsivy => 9,
            Variant::Dimy => 5,
        }
    }

    /// Number of ranks (rows); 5 on both boards.
    pub const fn height(self) -> u8 {
        5
    }

    /// Number of points on the board.
    pub const fn points(self) -> u8 {
        self.width() * self.height()
    }

    /// Pieces each side has at the start.
    pub const fn start_pieces(self) -> u32 {
        match self {
            Variant::Tsivy => 22,
            Variant::Dimy => 12,
        }
    }

    /// The variant whose ranks are `width` points wide, if any.
    pub const fn from_width(width: usize) -> Option<Variant> {
        match width {
            9 => Some(Variant::Tsivy),
            5 => Some(Variant::Dimy),
            _ => None,
        }
    }

    /// A short name ("tsivy" or "dimy").
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Tsivy => "tsivy",
            Variant::Dimy => "dimy",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the eight directions a step can take. Opposite directions differ by 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Direction {
    /// Towards file i.
    East = 0,
    /// Towards file i and rank 5.
    NorthEast = 1,
    /// Towards rank 5.
    North = 2,
    /// Towards file a and rank 5.
    NorthWest = 3,
    /// Towards file a.
    West = 4,
    /// Towards file a and rank 1.
    SouthWest = 5,
    /// Towards rank 1.
    South = 6,
    /// Towards file i and rank 1.
    SouthEast = 7,
}

impl Direction {
    /// All eight directions, in index order.
    pub const ALL: [Direction; 8] = [
        Direction::East,
        Direction::NorthEast,
        Direction::North,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::South,
        Direction::SouthEast,
    ];

    /// The direction with index `i & 7`.
    #[inline]
    pub const fn from_index(i: u8) -> Direction {
        Direction::ALL[(i & 7) as usize]
    }

    /// The index 0..8 of this direction.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as u8 + 4)
    }

    /// Whether this is one of the four diagonal directions.
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        (self as u8) & 1 == 1
    }

    /// File and rank change of one step.
    pub const fn offset(self) -> (i8, i8) {
        match self {
            Direction::East => (1, 0),
            Direction::NorthEast => (1, 1),
            Direction::North => (0, 1),
            Direction::NorthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::SouthWest => (-1, -1),
            Direction::South => (0, -1),
            Direction::SouthEast => (1, -1),
        }
    }

    /// The direction of a one-step move from `(df, dr)`, if it is one.
    pub const fn from_offset(df: i8, dr: i8) -> Option<Direction> {
        let mut i = 0;
        while i < 8 {
            let d = Direction::ALL[i];
            let (f, r) = d.offset();
            if f == df && r == dr {
                return Some(d);
            }
            i += 1;
        }
        None
    }
}

/// Marker for "no such point" in the neighbour tables.
pub const NO_POINT: u8 = u8::MAX;

/// Bit-index distance between ranks, on every board.
pub const STRIDE: u8 = 9;

/// File (0-based) and rank (0-based) of a point index.
#[inline]
pub const fn coords(p: u8) -> (u8, u8) {
    (p % STRIDE, p / STRIDE)
}

/// The name of a point index, e.g. `e3`.
pub const fn point_name(p: u8) -> PointName {
    PointName { file: b'a' + p % STRIDE, rank: b'1' + p / STRIDE }
}

/// Parses a point name like `e3` on the largest board (files a–i, ranks 1–5); whether the point is on a given
/// board is [`Geometry::contains`]'s business.
pub fn parse_point(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].checked_sub(b'a')?;
    let r = b[1].checked_sub(b'1')?;
    (f < STRIDE && r < 5).then(|| r * STRIDE + f)
}

/// Precomputed tables of one board.
#[derive(Debug)]
pub struct Geometry {
    /// The variant these tables describe.
    pub variant: Variant,
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Number of points.
    pub points: u8,
    /// Every point of the board.
    pub board: u64,
    /// The strong points (joined diagonally).
    pub strong: u64,
    /// Bit-index change of one step in each direction.
    pub delta: [i8; 8],
    /// For each direction, the points from which a step in that direction stays on the board and on a line.
    pub can_step: [u64; 8],
    /// `neighbor[d][p]`: the point one step from `p` in direction `d`, or [`NO_POINT`].
    pub neighbor: [[u8; 64]; 8],
    /// `ray[d][p]`: the points from `p` (included) onward along the line in direction `d`.
    pub ray: [[u64; 64]; 8],
    /// `adjacent[p]`: the points joined to `p` by a line.
    pub adjacent: [u64; 64],
    /// `step_bits[d][p]`: the bit of the point one step from `p` in direction `d` (0 if none).
    pub step_bits: [[u64; 64]; 8],
    /// `capture_bits[d][p]`: where an enemy piece must stand for a piece on `p` stepping in direction `d` to
    /// capture: two steps ahead (approach) or one step behind (withdrawal).
    pub capture_bits: [[u64; 64]; 8],
    /// `dir_by_delta[to - from + 10]`: direction index of a step with that bit-index change.
    pub dir_by_delta: [u8; 21],
    /// `ring_lines[p]`: the directions (as [`ring1`] bits) in which `p` has a neighbour on a line.
    pub ring_lines: [u8; 64],
    /// `ring_far[p]`: the directions (as [`ring2`] bits) in which the line from `p` goes on for two steps.
    pub ring_far: [u8; 64],
}

/// The direction index of each bit of a ring pattern ([`ring1`], [`ring2`]): the eight neighbours in increasing
/// bit-index order, so that the opposite of bit `b` is bit `7 - b` and `u8::reverse_bits` turns a pattern round.
pub const RING_DIR: [u8; 8] = [5, 6, 7, 4, 0, 3, 2, 1];
/// The ring-pattern bit of each direction (the inverse of [`RING_DIR`]).
pub const DIR_RING: [u8; 8] = [4, 7, 6, 5, 3, 0, 1, 2];
/// The bit-index change of one step in the direction of each ring-pattern bit.
pub const RING_DELTA: [i8; 8] = [-10, -9, -8, -1, 1, 8, 9, 10];

/// The eight points one step from `p` along every direction, read from `bb` into a byte (bit `b` for the step of
/// [`RING_DELTA`]`[b]`): one rotation and four masks instead of eight table lookups. Points past an edge read as
/// whatever `bb` holds there, so callers mask the result with [`Geometry::ring_lines`].
#[inline(always)]
pub fn ring1(bb: u64, p: usize) -> u8 {
    // Rotated so that p - 10 lands on bit 0: the neighbours sit at bits 0-2, 9, 11 and 18-20. A point index
    // below 0 wraps to bits 54-63, which are never on the board.
    let x = bb.rotate_right((p as u32).wrapping_sub(10) & 63);
    ((x & 7) | ((x >> 6) & 8) | ((x >> 7) & 16) | ((x >> 13) & 0xE0)) as u8
}

/// [`ring1`] two steps out: the points two steps from `p` in every direction (mask with [`Geometry::ring_far`]).
#[inline(always)]
pub fn ring2(bb: u64, p: usize) -> u8 {
    // p - 20 on bit 0: the points sit at bits 0, 2, 4, 18, 22, 36, 38 and 40.
    let x = bb.rotate_right((p as u32).wrapping_sub(20) & 63);
    ((x & 1)
        | ((x >> 1) & 2)
        | ((x >> 2) & 4)
        | ((x >> 15) & 8)
        | ((x >> 18) & 16)
        | ((x >> 31) & 32)
        | ((x >> 32) & 64)
        | ((x >> 33) & 128)) as u8
}

/// Bit-index change of one step in each direction (the same on both boards).
pub const DELTA: [i8; 8] = [1, 10, 9, 8, -1, -10, -9, -8];

impl Geometry {
    const fn build(variant: Variant) -> Geometry {
        let width = variant.width();
        let height = variant.height();
        let mut board = 0u64;
        let mut strong = 0u64;
        let mut can_step = [0u64; 8];
        let mut neighbor = [[NO_POINT; 64]; 8];
        let mut delta = [0i8; 8];
        let mut d = 0;
        while d < 8 {
            let (df, dr) = Direction::ALL[d].offset();
            delta[d] = df + dr * STRIDE as i8;
            d += 1;
        }
        let mut p = 0u8;
        while p < STRIDE * height {
            let f = (p % STRIDE) as i8;
            let r = (p / STRIDE) as i8;
            if f >= width as i8 {
                p += 1;
                continue;
            }
            board |= 1 << p;
            let is_strong = (f + r) % 2 == 0;
            if is_strong {
                strong |= 1 << p;
            }
            let mut d = 0;
            while d < 8 {
                let dir = Direction::ALL[d];
                let (df, dr) = dir.offset();
                let (nf, nr) = (f + df, r + dr);
                let on_board = nf >= 0 && nf < width as i8 && nr >= 0 && nr < height as i8;
                if on_board && (is_strong || !dir.is_diagonal()) {
                    can_step[d] |= 1 << p;
                    neighbor[d][p as usize] = (nr * STRIDE as i8 + nf) as u8;
                }
                d += 1;
            }
            p += 1;
        }
        let mut ray = [[0u64; 64]; 8];
        let mut adjacent = [0u64; 64];
        let mut dir_by_delta = [NO_POINT; 21];
        let mut d = 0;
        while d < 8 {
            dir_by_delta[(delta[d] + 10) as usize] = d as u8;
            let mut p = 0;
            while p < 64 {
                if board >> p & 1 == 1 {
                    let mut q = p as u8;
                    while q != NO_POINT {
                        ray[d][p] |= 1 << q;
                        q = neighbor[d][q as usize];
                    }
                    if neighbor[d][p] != NO_POINT {
                        adjacent[p] |= 1 << neighbor[d][p];
                    }
                }
                p += 1;
            }
            d += 1;
        }
        let mut step_bits = [[0u64; 64]; 8];
        let mut d = 0;
        while d < 8 {
            let mut p = 0;
            while p < 64 {
                if neighbor[d][p] != NO_POINT {
                    step_bits[d][p] = 1 << neighbor[d][p];
                }
                p += 1;
            }
            d += 1;
        }
        let mut capture_bits = [[0u64; 64]; 8];
        let mut d = 0;
        while d < 8 {
            let mut p = 0;
            while p < 64 {
                let n = neighbor[d][p];
                if n != NO_POINT {
                    if neighbor[d][n as usize] != NO_POINT {
                        capture_bits[d][p] |= 1 << neighbor[d][n as usize];
                    }
                    capture_bits[d][p] |= step_bits[(d + 4) % 8][p];
                }
                p += 1;
            }
            d += 1;
        }
        let mut ring_lines = [0u8; 64];
        let mut ring_far = [0u8; 64];
        let mut b = 0;
        while b < 8 {
            let d = RING_DIR[b] as usize;
            let mut p = 0;
            while p < 64 {
                let n = neighbor[d][p];
                if n != NO_POINT {
                    ring_lines[p] |= 1 << b;
                    if neighbor[d][n as usize] != NO_POINT {
                        ring_far[p] |= 1 << b;
                    }
                }
                p += 1;
            }
            b += 1;
        }
        Geometry {
            variant,
            width,
            height,
            points: width * height,
            board,
            strong,
            delta,
            can_step,
            neighbor,
            ray,
            adjacent,
            step_bits,
            capture_bits,
            dir_by_delta,
            ring_lines,
            ring_far,
        }
    }

    /// The capturing steps open to a piece on `p` that may step onto the points of `free`, as ring-pattern bytes
    /// ([`ring1`]): the directions where it captures by approach (an enemy two steps ahead) and by withdrawal (an
    /// enemy one step behind).
    #[inline(always)]
    pub fn capture_rings(&self, p: usize, free: u64, opp: u64) -> (u8, u8) {
        let lines = self.ring_lines[p & 63];
        let open = ring1(free, p) & lines;
        let approach = open & ring2(opp, p) & self.ring_far[p & 63];
        let withdrawal = open & (ring1(opp, p) & lines).reverse_bits();
        (approach, withdrawal)
    }

    /// Whether a piece on `p` that may step onto the points `cand` can capture a piece of `opp` from there,
    /// without branches on board contents.
    #[inline(always)]
    pub fn can_capture_from(&self, p: usize, cand: u64, opp: u64) -> bool {
        let (approach, withdrawal) = self.capture_rings(p, cand, opp);
        approach | withdrawal != 0
    }

    /// Shifts every point of `bb` that can step in direction `d` by one step in that direction.
    #[inline(always)]
    pub fn shift(&self, bb: u64, d: usize) -> u64 {
        let m = bb & self.can_step[d];
        if d < 4 { m << DELTA[d] } else { m >> DELTA[d - 4] }
    }

    /// The neighbour of `p` in direction `d`, if on a line.
    #[inline(always)]
    pub fn step(&self, p: u8, d: usize) -> Option<u8> {
        let n = self.neighbor[d][p as usize];
        (n != NO_POINT).then_some(n)
    }

    /// The direction of the line joining adjacent points `from` and `to`, if they are joined.
    pub fn direction_between(&self, from: u8, to: u8) -> Option<Direction> {
        if !self.contains(from) || !self.contains(to) {
            return None;
        }
        Direction::ALL.into_iter().find(|d| self.neighbor[d.index()][from as usize] == to)
    }

    /// Whether `p` is a strong point.
    #[inline]
    pub fn is_strong(&self, p: u8) -> bool {
        self.strong >> p & 1 == 1
    }

    /// Whether `p` is a point of this board.
    #[inline]
    pub fn contains(&self, p: u8) -> bool {
        p < 64 && self.board >> p & 1 == 1
    }

    /// The point at a 0-based file and rank, if on this board.
    #[inline]
    pub fn point(&self, file: u8, rank: u8) -> Option<u8> {
        (file < self.width && rank < self.height).then(|| rank * STRIDE + file)
    }

    /// Parses a point name like `e3`, if it names a point of this board.
    pub fn parse_point(&self, s: &str) -> Option<u8> {
        parse_point(s).filter(|&p| self.contains(p))
    }

    /// The line segment from `p` one step in `d`, as (axis 0..4, lower endpoint): segments are stored against
    /// the endpoint from which they point in one of the four "forward" directions (E, NE, N, NW).
    #[inline]
    pub fn segment(&self, p: u8, d: usize) -> (usize, u8) {
        if d < 4 { (d, p) } else { (d - 4, self.neighbor[d][p as usize]) }
    }
}

/// The printable name of a point; avoids allocating a `String`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointName {
    file: u8,
    rank: u8,
}

impl fmt::Display for PointName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file as char, self.rank as char)
    }
}

/// Tables of Fanoron-Tsivy.
pub static TSIVY: Geometry = Geometry::build(Variant::Tsivy);
/// Tables of Fanoron-Dimy.
pub static DIMY: Geometry = Geometry::build(Variant::Dimy);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strong_points_are_even_indices() {
        for g in [&TSIVY, &DIMY] {
            assert_eq!(g.board.count_ones(), g.points as u32);
            for p in 0..45 {
                let (f, r) = coords(p);
                assert_eq!(g.contains(p), f < g.width);
                if g.contains(p) {
                    assert_eq!(g.is_strong(p), (f + r) % 2 == 0);
                    assert_eq!(g.is_strong(p), p % 2 == 0);
                }
            }
        }
    }

    #[test]
    fn no_wraparound_and_no_weak_diagonals() {
        let g = &TSIVY;
        let i1 = g.parse_point("i1").unwrap();
        assert_eq!(g.step(i1, Direction::East as usize), None);
        assert_eq!(g.step(i1, Direction::NorthEast as usize), None);
        let e1 = DIMY.parse_point("e1").unwrap();
        assert_eq!(DIMY.step(e1, Direction::East as usize), None);
        assert_eq!(DIMY.shift(1 << e1, Direction::NorthEast as usize), 0);
        let a2 = g.parse_point("a2").unwrap();
        assert_eq!(g.step(a2, Direction::West as usize), None);
        // b1 is weak: no diagonals at all.
        let b1 = g.parse_point("b1").unwrap();
        for d in [1, 3, 5, 7] {
            assert_eq!(g.step(b1, d), None);
        }
        let e3 = g.parse_point("e3").unwrap();
        assert_eq!(g.step(e3, Direction::NorthWest as usize), g.parse_point("d4"));
        assert_eq!(g.shift(1 << g.parse_point("i3").unwrap(), Direction::East as usize), 0);
        // Counting lines: each edge is counted from both ends.
        let degree: u32 = (0..8).map(|d| g.can_step[d].count_ones()).sum();
        // 40 horizontal + 36 vertical + 2·16 diagonal segments on the 9×5 board.
        assert_eq!(degree, 2 * (40 + 36 + 32));
    }

    #[test]
    fn ring_patterns_match_the_neighbour_tables() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for g in [&TSIVY, &DIMY] {
            for b in 0..8 {
                assert_eq!(DIR_RING[RING_DIR[b] as usize] as usize, b);
                assert_eq!(RING_DELTA[b], g.delta[RING_DIR[b] as usize]);
                // Opposite directions sit at mirrored bits, which `reverse_bits` swaps.
                assert_eq!(RING_DIR[7 - b] as usize, (RING_DIR[b] as usize + 4) % 8);
            }
            for _ in 0..2000 {
                let (x, y) = (rng.random::<u64>() & g.board, rng.random::<u64>() & g.board);
                let (free, opp) = (x & !y, y & !x);
                for p in 0..64 {
                    let (mut approach, mut withdrawal) = (0u8, 0u8);
                    for (d, &ring_bit) in DIR_RING.iter().enumerate() {
                        let to = g.neighbor[d][p];
                        if to == NO_POINT || free >> to & 1 == 0 {
                            continue;
                        }
                        let bit = 1 << ring_bit;
                        let beyond = g.neighbor[d][to as usize];
                        if beyond != NO_POINT && opp >> beyond & 1 == 1 {
                            approach |= bit;
                        }
                        let behind = g.neighbor[(d + 4) % 8][p];
                        if behind != NO_POINT && opp >> behind & 1 == 1 {
                            withdrawal |= bit;
                        }
                    }
                    assert_eq!(g.capture_rings(p, free, opp), (approach, withdrawal), "point {p}");
                    let cand = free & g.adjacent[p];
                    let hits =
                        (0..8).filter(|&d| g.step_bits[d][p] & cand != 0).fold(0, |acc, d| acc | g.capture_bits[d][p]);
                    assert_eq!(g.can_capture_from(p, cand, opp), hits & opp != 0);
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for g in [&TSIVY, &DIMY] {
            for p in 0..45 {
                let name = point_name(p).to_string();
                assert_eq!(parse_point(&name), Some(p));
                assert_eq!(g.parse_point(&name), g.contains(p).then_some(p));
            }
        }
        assert_eq!(DIMY.parse_point("f1"), None);
        assert_eq!(TSIVY.parse_point("a6"), None);
        assert_eq!(TSIVY.parse_point("a0"), None);
    }
}
