//! The tables shared by the whole program, one per board: loaded from the cache folder or built at once, grown in
//! the background, offered by whoever builds a larger one; and where the cache folder is ([`default_dir`]).

use super::build::all_cores;
use super::probe::Tablebase;
use crate::geometry::Variant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

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
/// [`SHARED_MAX_PIECES`] pieces, see [`Tablebase::load_or_build`]) if there is one, joined with the compact
/// seven-piece table when that is there too ([`Compact`](super::Compact), built by `fanorona-cli tablebase build
/// --pieces 7`). Otherwise a [`QUICK_PIECES`]
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
                #[cfg(not(target_arch = "wasm32"))]
                let tb = super::compact::join_cached(tb, dir);
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
/// at least as large is shared already: how a table built elsewhere, such as a web page's [`SlicedBuild`](super::SlicedBuild),
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
    use super::super::test_support::quiet;
    use super::*;
    use crate::position::Position;
    use std::fs;

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
}
