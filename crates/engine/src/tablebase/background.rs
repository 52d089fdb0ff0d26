//! The seven-piece table built in the background of a program that plays (the desktop game's Settings): on the
//! cores nothing else wants, stoppable at any time with what it has done kept, its progress readable by any frame,
//! and shared with the whole program when it is done.

use super::build::all_cores;
use super::cache::{background_priority, offer_shared};
use super::compact::{COMPACT_PIECES, Compact, PAIRS};
use super::file::TbError;
use super::probe::Tablebase;
use crate::geometry::Variant;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use web_time::Instant;

/// The steps of the build: the six-piece table, then each pair of seven-piece classes (4 v 3, 5 v 2, 6 v 1).
pub const SEVEN_STEPS: usize = 1 + PAIRS.len();

/// Where a background build of the seven-piece table stands.
#[derive(Clone, Debug, PartialEq)]
pub enum SevenStatus {
    /// Working on step `step` (0 for six pieces, then the pairs of [`SevenStatus::material`]) since `since`.
    Building {
        /// The step, from 0 to [`SEVEN_STEPS`] − 1.
        step: usize,
        /// When the build started (this run of it).
        since: Instant,
    },
    /// Asked to stop: it stops after the current round of its analysis, or within a block of its first pass
    /// (seconds at most).
    Stopping,
    /// Stopped, its progress kept in the folder for the next build.
    Stopped,
    /// Done: the table of up to seven pieces is shared.
    Ready,
    /// Failed: the folder could not be written, or memory ran short.
    Failed(String),
}

impl SevenStatus {
    /// The material of step `step`: (pieces of one side, pieces of the other), (6, 0) standing for every table of
    /// up to six pieces.
    pub fn material(step: usize) -> (u32, u32) {
        if step == 0 { (COMPACT_PIECES - 1, 0) } else { PAIRS[(step - 1).min(PAIRS.len() - 1)] }
    }
}

/// What a folder holds of the seven-piece table, by its files' names alone (a build checks them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SevenOnDisk {
    /// Nothing of it.
    Nothing,
    /// An unfinished build: this many of the [`SEVEN_STEPS`] steps are done (the one after may be partly done).
    Partial(usize),
    /// Every file of the table.
    Complete,
}

/// What `dir` holds of the seven-piece table of `variant`, from the names of the files there (cheap enough for a
/// settings screen to ask each frame): the files of the finished steps, or the saved analysis of one in progress.
/// A six-piece table alone is not a start: programs that play cache it for themselves.
pub fn seven_on_disk(dir: &Path, variant: Variant) -> SevenOnDisk {
    let six = dir.join(Tablebase::file_name(variant, COMPACT_PIECES - 1)).exists();
    let pairs = super::compact::compact_files(dir, variant).iter().filter(|p| p.exists()).count();
    if pairs == PAIRS.len() {
        return SevenOnDisk::Complete;
    }
    let saved = std::fs::read_dir(dir).into_iter().flatten().flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with(&format!("fanorona-{variant}-{COMPACT_PIECES}c.partial-"))
    });
    match (six, pairs, saved) {
        (_, 0, false) => SevenOnDisk::Nothing,
        (six, pairs, _) => SevenOnDisk::Partial(usize::from(six) + pairs),
    }
}

/// A background build of the seven-piece table (see the [module documentation](self)).
pub struct SevenBuild {
    shared: Arc<Shared>,
}

/// What the build's thread and its owner share.
struct Shared {
    stop: AtomicBool,
    status: Mutex<SevenStatus>,
}

impl SevenBuild {
    /// Starts building the table of up to seven pieces of `variant` in `dir`, taking up what an earlier build left
    /// there, on a thread in the idle class ([`background_priority`]) using every core nothing else wants. `wake`
    /// is called from that thread whenever the status changes (a sleeping window redraws). When done, the table
    /// is shared with the whole program ([`offer_shared`]) and stays in `dir` for later runs.
    pub fn start(variant: Variant, dir: PathBuf, wake: impl Fn() + Send + 'static) -> SevenBuild {
        let shared = Arc::new(Shared {
            stop: AtomicBool::new(false),
            status: Mutex::new(SevenStatus::Building { step: 0, since: Instant::now() }),
        });
        let inner = shared.clone();
        std::thread::spawn(move || {
            background_priority();
            let set = |status: SevenStatus| {
                *inner.status.lock().unwrap_or_else(|e| e.into_inner()) = status;
                wake();
            };
            let since = Instant::now();
            let stop = || inner.stop.load(Ordering::Relaxed);
            let status = match build(variant, &dir, &stop, &mut |step| set(SevenStatus::Building { step, since })) {
                Ok(Some(tb)) => {
                    offer_shared(tb);
                    SevenStatus::Ready
                }
                Ok(None) => SevenStatus::Stopped,
                Err(e) => SevenStatus::Failed(e.to_string()),
            };
            set(status);
        });
        SevenBuild { shared }
    }

    /// Where the build stands now (never waits on the build).
    pub fn status(&self) -> SevenStatus {
        let status = self.shared.status.lock().unwrap_or_else(|e| e.into_inner()).clone();
        match status {
            SevenStatus::Building { .. } if self.shared.stop.load(Ordering::Relaxed) => SevenStatus::Stopping,
            status => status,
        }
    }

    /// Asks the build to stop, keeping what it has done; [`SevenBuild::status`] says when it has.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the build's thread has ended (done, stopped or failed).
    pub fn is_finished(&self) -> bool {
        matches!(self.status(), SevenStatus::Stopped | SevenStatus::Ready | SevenStatus::Failed(_))
    }
}

/// The build itself: six pieces, then each pair, telling `step` which step it is on; Ok(None) when `stop` said so.
fn build(
    variant: Variant,
    dir: &Path,
    stop: &(dyn Fn() -> bool + Sync),
    step: &mut dyn FnMut(usize),
) -> Result<Option<Tablebase>, TbError> {
    let threads = all_cores();
    step(0);
    let Some(six) = Tablebase::load_or_build_stoppable(dir, variant, COMPACT_PIECES - 1, threads, stop)? else {
        return Ok(None);
    };
    let Some(seven) = Compact::build_until(dir, &six, threads, &mut |_| {}, stop, &mut |i| step(1 + i))? else {
        return Ok(None);
    };
    six.with_seven(Arc::new(seven)).map(Some)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::tmp_path;
    use super::*;
    use std::time::Duration;

    /// Waits until `build` has ended, at most a few minutes.
    fn wait(build: &SevenBuild) -> SevenStatus {
        let start = std::time::Instant::now();
        while !build.is_finished() {
            assert!(start.elapsed() < Duration::from_secs(600), "the background build did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
        build.status()
    }

    /// On the 5 × 5 board: a build stopped at once keeps what it did and says so; started again it takes that up,
    /// finishes, leaves the whole table in the folder, and shares a table of seven pieces with the program.
    #[test]
    fn a_background_build_stops_resumes_and_shares_the_table() {
        let variant = Variant::Dimy;
        let dir = tmp_path("seven-background");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(seven_on_disk(&dir, variant), SevenOnDisk::Nothing);
        let wakes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = wakes.clone();
        let first = SevenBuild::start(variant, dir.clone(), move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        first.stop();
        assert!(matches!(first.status(), SevenStatus::Stopping | SevenStatus::Stopped));
        assert_eq!(wait(&first), SevenStatus::Stopped);
        assert!(wakes.load(Ordering::Relaxed) >= 2, "the window is woken for each change of status");
        let counter = wakes.clone();
        let second = SevenBuild::start(variant, dir.clone(), move || {
            counter.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(wait(&second), SevenStatus::Ready);
        assert_eq!(seven_on_disk(&dir, variant), SevenOnDisk::Complete);
        assert_eq!(super::super::cache::shared_pieces(variant), Some(COMPACT_PIECES));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_step_has_its_material() {
        assert_eq!(SevenStatus::material(0), (6, 0));
        assert_eq!(SevenStatus::material(1), (4, 3));
        assert_eq!(SevenStatus::material(3), (6, 1));
    }
}
