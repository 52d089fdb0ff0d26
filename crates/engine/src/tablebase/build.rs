//! Building a whole table ([`Tablebase::build`]), and building it in a cache folder that keeps what an
//! interrupted build did ([`Tablebase::load_or_build`]): the smaller table, finished pairs of classes as part files,
//! and the retrograde analysis of the pair in progress.

use super::file::{
    HEADER_LEN, PARTIAL_HEADER_LEN, PARTIAL_MAGIC, TbError, pair_header, read_part, write_part, write_whole_synced,
};
use super::index::{Indexer, MAX_PIECES};
use super::probe::{Entries, Tablebase};
use super::solve::{Pair, Solver};
use super::value::{MAX_DISTANCE, TbValue};
use crate::geometry::Variant;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;
use web_time::Instant;

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
                let job = PairJob { ix: &ix, solver: &solver, variant, max_pieces, threads, resume };
                job.build(upper, start, a, t - a, progress)?;
            }
        }
        progress(&format!(
            "tablebase {variant} up to {max_pieces} pieces: {} positions in {:.2} s",
            data.len(),
            started.elapsed().as_secs_f64()
        ));
        Some(Tablebase { ix, data: Entries::Owned(data), top: None })
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
        Self::load_or_build_saving(
            dir.as_ref(),
            variant,
            max_pieces,
            threads,
            (CHECKPOINT_EVERY, KEEP_FROM),
            &mut progress,
        )
    }

    /// [`Tablebase::load_or_build_on`] saving a pair in progress every `every` and keeping the pairs that took
    /// `keep_from` or more to build: the seven-piece build, for which the six pieces are a minute's first step,
    /// saves them only whole, as what a save costs would be a tenth of that minute.
    pub(super) fn load_or_build_saving(
        dir: &Path,
        variant: Variant,
        max_pieces: u32,
        threads: usize,
        (every, keep_from): (Duration, Duration),
        progress: &mut dyn FnMut(&str),
    ) -> Result<Tablebase, TbError> {
        let resume = Resume { dir, every, keep_from, stop: &|| false };
        Self::load_or_build_until(&resume, variant, max_pieces, threads, progress)
            .map(|tb| tb.expect("never asked to stop"))
    }

    /// [`Tablebase::load_or_build_on`], asking `stop` between pairs of classes and rounds of their retrograde
    /// analysis: Ok(None) when it said yes, with what was done left in `dir` for the next build.
    #[cfg(not(target_arch = "wasm32"))]
    pub(super) fn load_or_build_stoppable(
        dir: &Path,
        variant: Variant,
        max_pieces: u32,
        threads: usize,
        stop: &dyn Fn() -> bool,
    ) -> Result<Option<Tablebase>, TbError> {
        let resume = Resume { dir, every: CHECKPOINT_EVERY, keep_from: KEEP_FROM, stop };
        Self::load_or_build_until(&resume, variant, max_pieces, threads, &mut |_| {})
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

/// What building one pair of material classes needs besides the entries: the table's layout, the smaller
/// classes, and how the whole build runs.
struct PairJob<'a> {
    ix: &'a Indexer,
    solver: &'a Solver<'a>,
    variant: Variant,
    max_pieces: u32,
    threads: usize,
    resume: Option<&'a Resume<'a>>,
}

impl PairJob<'_> {
    /// Builds the pair of classes (b, a) and (a, b), a ≥ b, whose entries start at `upper` (`start` entries into
    /// the table): restored from its part file, resumed from its saved analysis, or built; then reports its
    /// counts. None when the build was asked to stop.
    fn build(&self, upper: &mut [u8], start: usize, a: u32, b: u32, progress: &mut dyn FnMut(&str)) -> Option<()> {
        let group_started = Instant::now();
        let lo = self.ix.offset(b, a) - start;
        let hi = self.ix.offset(a, b) - start;
        let single = a == b;
        // For a = b both ranges are the same class: it goes in slot 0 and slot 1 stays empty.
        let (first, second) = upper.split_at_mut(if single { hi + self.ix.class_size(a, b) } else { hi });
        let first = &mut first[lo..lo + self.ix.class_size(b, a)];
        let second = if single { &mut [] } else { &mut second[..self.ix.class_size(a, b)] };
        let part = self.resume.map(|r| r.dir.join(part_name(self.variant, self.max_pieces, a, b)));
        let partial = self.resume.map(|r| r.dir.join(partial_name(self.variant, self.max_pieces, a, b)));
        let mut first_pass_s = 0.0;
        let mut resumed_at = None;
        let restored =
            part.as_deref().is_some_and(|path| read_part(path, self.variant, self.max_pieces, a, b, first, second));
        if !restored {
            let mut pair = Pair {
                ix: self.ix,
                class: [(b, a), (a, b)],
                counts: [vec![0; first.len()], vec![0; second.len()]],
                vals: [&mut *first, &mut *second],
                rows: [None, None],
                hist: [0; 256],
            };
            resumed_at = partial.as_deref().and_then(|path| pair.read_partial(path, self.variant, self.max_pieces));
            if resumed_at.is_none() {
                // A file that failed its checks may have been read into the arrays halfway.
                pair.vals.iter_mut().for_each(|v| v.fill(0));
                pair.counts.iter_mut().for_each(|c| c.fill(0));
                let classes = if single { 1 } else { 2 };
                for k in 0..classes {
                    let (ca, cb) = pair.class[k];
                    let (vals, counts) = (&mut *pair.vals[k], &mut pair.counts[k]);
                    let h = self.solver.first_pass((ca, cb), None, vals, counts, self.threads, &|| false);
                    let h = h.expect("never asked to stop");
                    for (x, y) in pair.hist.iter_mut().zip(h) {
                        *x += y;
                    }
                }
                first_pass_s = group_started.elapsed().as_secs_f64();
            }
            let mut saved_at = Instant::now();
            // A long first pass is kept at once: a short-lived engine may not see the next save.
            if let (Some(r), Some(path), None) = (self.resume, partial.as_deref(), resumed_at)
                && first_pass_s >= r.every.as_secs_f64() / 4.0
                && let Err(e) = pair.write_partial(path, self.variant, self.max_pieces, 0)
            {
                progress(&format!("tablebase progress {} not saved: {e}", path.display()));
            }
            let mut after_round = |pair: &Pair, d: u32| {
                let Some(r) = self.resume else { return true };
                let stopping = (r.stop)();
                if stopping || saved_at.elapsed() >= r.every {
                    let path = partial.as_deref().expect("a resumable build has the folder");
                    if let Err(e) = pair.write_partial(path, self.variant, self.max_pieces, d + 1) {
                        progress(&format!("tablebase progress {} not saved: {e}", path.display()));
                    }
                    saved_at = Instant::now();
                }
                !stopping
            };
            if !pair.retrograde(self.threads, resumed_at.unwrap_or(0), &mut after_round) {
                return None;
            }
            pair.fill_on(self.threads);
            if let (Some(path), Some(partial), Some(r)) = (&part, &partial, self.resume) {
                let saved = if group_started.elapsed() >= r.keep_from || resumed_at.is_some() {
                    write_part(path, self.variant, self.max_pieces, a, b, first, second)
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
        let wdl = win_draw_loss(first.iter().chain(second.iter()));
        let names = if single { format!("{a}v{b}") } else { format!("{a}v{b} and {b}v{a}") };
        progress(&format!(
            "tablebase {} {names}: {} positions {} (win {}, draw {}, loss {})",
            self.variant,
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
        Some(())
    }
}

/// How many of `entries` are wins, draws and losses.
fn win_draw_loss<'a>(entries: impl Iterator<Item = &'a u8>) -> [usize; 3] {
    let mut wdl = [0usize; 3];
    for &byte in entries {
        wdl[match TbValue::decode(byte) {
            TbValue::Win(_) => 0,
            TbValue::Draw => 1,
            TbValue::Loss(_) => 2,
        }] += 1;
    }
    wdl
}

/// The shortest build of a pair that a resumable build saves: the smaller pairs take less than this to build
/// again, and a table of five pieces leaves two part files instead of sixteen.
const KEEP_FROM: Duration = Duration::from_secs(1);

/// The cores of this machine (at least one).
pub(super) fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

// A pair's saved analysis is part of resuming a build, not of solving: the solver never touches a file.
impl Pair<'_> {
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
    pub(super) fn write_partial(
        &self,
        path: &Path,
        variant: Variant,
        max_pieces: u32,
        next: u32,
    ) -> Result<(), TbError> {
        let header = self.partial_header(variant, max_pieces, next);
        write_whole_synced(path, &[&header, self.vals[0], self.vals[1], &self.counts[0], &self.counts[1]], false)
    }

    /// Takes up the analysis [`Pair::write_partial`] saved for exactly this table and pair: the distance of the
    /// next round, or None (the arrays then in any state) when the file is absent, damaged or another's.
    pub(super) fn read_partial(&mut self, path: &Path, variant: Variant, max_pieces: u32) -> Option<u32> {
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
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{quiet, tmp_path};
    use super::*;

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
}
