//! [`SlicedBuild`]: the build of a table in short slices on the calling thread, for a web page that must keep
//! drawing frames.

use super::index::Indexer;
use super::probe::{Entries, Tablebase};
use super::solve::{Pair, Solver};
use super::value::MAX_DISTANCE;
use crate::geometry::Variant;
use std::time::Duration;
use web_time::Instant;

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
    /// If `max_pieces` exceeds [`MAX_PIECES`](super::MAX_PIECES).
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

    /// The board whose table this builds.
    pub fn variant(&self) -> Variant {
        self.ix.variant
    }

    /// The pieces the table goes up to.
    pub fn max_pieces(&self) -> u32 {
        self.ix.max
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
        if self.is_done() { Some(Tablebase { ix: self.ix, data: Entries::Owned(self.data), top: None }) } else { None }
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
            rows: [None, None],
            hist: self.hist,
        };
        let next = match self.stage {
            Stage::First { k, at } => {
                let n = pair.vals[k].len();
                let end = (at + SLICE_ENTRIES).min(n);
                let (ca, cb) = pair.class[k];
                let solver = Solver { ix, lower };
                let mut hist = [0u64; 256];
                solver.first_span(
                    (ca, cb),
                    None,
                    at,
                    &mut pair.vals[k][at..end],
                    &mut pair.counts[k][at..end],
                    &mut hist,
                );
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
                    self.list.clear();
                    found = pair.predecessors(k, (d + 1) as u8, at..end, std::slice::from_mut(&mut self.list));
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

#[cfg(test)]
mod tests {
    use super::super::test_support::quiet;
    use super::*;

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
}
