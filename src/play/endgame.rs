//! The web page's endgame tables: built in slices between frames, so that the strong levels play small endgames
//! perfectly in the browser too.
//!
//! The desktop loads its cached table, or builds one on threads of its own, at start (`main.rs`, the engine's
//! `tablebase::shared`). A web page has one thread and no cache folder, so here the engine's [`SlicedBuild`]
//! builds the tables of [`BUILDS`] one after the other, a few milliseconds a frame: first up to [`WEB_PIECES`]
//! pieces of each board (about a quarter of a second of work in all on one desktop core), then up to
//! [`WEB_MAX_PIECES`] (about 6 s there). Each is offered to the whole program once complete
//! ([`tablebase::offer_shared`], which keeps the larger of two); Advanced and Master pick it up at their next
//! turn, and play endgames by search until the first one is in.
//!
//! The build asks for no frames of its own: it works in the frames the page draws anyway (the title's game, the
//! CPU's thinking, animations, input). Frames asked for only to build would keep a slow page, such as one drawn
//! in software, busy drawing for a minute and slow to answer clicks; a page that sleeps needs no table yet.

use crate::platform::web;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use fanorona_engine::Variant;
use fanorona_engine::tablebase::{self, SlicedBuild};
use std::time::Duration;

/// The pieces of the first tables a web page builds: 2.5 million entries (2.5 MB) on the 9 × 5 board, about 0.3 s
/// of work on one desktop core.
pub const WEB_PIECES: u32 = 4;

/// The pieces of the largest table a web page builds: 41.6 million entries (42 MB, 66 MB at the peak of its build)
/// on the 9 × 5 board, about 6 s of work on one desktop core, so about a minute of a page's frames.
pub const WEB_MAX_PIECES: u32 = 5;

/// How long a frame works on the build at least (one more slice of a few thousand entries may run past it).
pub const MIN_FRAME_BUDGET: Duration = Duration::from_millis(4);

/// How long a frame works on the build at most: a quarter of the last frame's time, between the two, so that a
/// page whose frames are slow (a slow device, software rendering) does not take a hundred times as many of them.
pub const MAX_FRAME_BUDGET: Duration = Duration::from_millis(16);

/// The tables built, in this order: the small ones first (the standard board's first of all), then the large.
pub const BUILDS: [(Variant, u32); 4] = [
    (Variant::Tsivy, WEB_PIECES),
    (Variant::Dimy, WEB_PIECES),
    (Variant::Dimy, WEB_MAX_PIECES),
    (Variant::Tsivy, WEB_MAX_PIECES),
];

/// The build in slices and what it has done.
#[derive(Resource)]
pub struct EndgameTable {
    /// Whether this program builds its tables in slices (the web page; tests switch it on).
    pub enabled: bool,
    /// The build of the next table of [`BUILDS`] (the one [`EndgameTable::done`] counts up to).
    building: Option<SlicedBuild>,
    /// Tables of [`BUILDS`] shared so far (built here, or as large or larger from elsewhere).
    pub done: usize,
    /// Frames that worked on the build, and the longest time one of them spent on it.
    pub frames: u64,
    pub longest: Duration,
}

impl Default for EndgameTable {
    fn default() -> Self {
        EndgameTable {
            enabled: cfg!(target_arch = "wasm32"),
            building: None,
            done: 0,
            frames: 0,
            longest: Duration::ZERO,
        }
    }
}

impl EndgameTable {
    /// Whether every table of [`BUILDS`] is shared.
    pub fn is_complete(&self) -> bool {
        self.done >= BUILDS.len()
    }
}

/// Registers the build.
pub fn plugin(app: &mut App) {
    app.init_resource::<EndgameTable>().add_systems(Update, build_in_slices);
}

/// Works on the tables for a quarter of the last frame's time, between [`MIN_FRAME_BUDGET`] and [`MAX_FRAME_BUDGET`].
fn build_in_slices(mut table: ResMut<EndgameTable>, time: Res<Time<Real>>) {
    if !table.enabled || table.is_complete() {
        return;
    }
    let budget = (time.delta() / 4).clamp(MIN_FRAME_BUDGET, MAX_FRAME_BUDGET);
    let started = Instant::now();
    let table = &mut *table;
    while !table.is_complete() {
        let (variant, pieces) = BUILDS[table.done];
        if table.building.is_none() {
            if tablebase::shared_pieces(variant).is_some_and(|n| n >= pieces) {
                table.done += 1;
                continue;
            }
            table.building = Some(SlicedBuild::new(variant, pieces));
        }
        let build = table.building.as_mut().expect("set above");
        if !build.run_for(budget.saturating_sub(started.elapsed())) {
            break;
        }
        let build = table.building.take().expect("set above");
        let (slices, longest) = build.slices();
        if let Some(tb) = build.finish() {
            info!(
                "endgame table of the {variant} board up to {pieces} pieces ready: {} entries, {slices} slices, the \
                 longest {:.1} ms",
                tb.entries(),
                longest.as_secs_f64() * 1000.0
            );
            tablebase::offer_shared(tb);
            web::event("tablebase", &format!("{variant} {pieces}"));
        }
        table.done += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    table.frames += 1;
    table.longest = table.longest.max(started.elapsed());
}
