//! The web page's endgame table when the engine cannot run in its worker: built in slices between frames, so that
//! the strong levels play small endgames perfectly in such a browser too. (The worker builds larger tables of its
//! own: `engine_jobs`.)
//!
//! The desktop loads its cached table, or builds one on threads of its own, at start (`main.rs`, the engine's
//! `tablebase::shared`). A web page has one thread and no cache folder, so here the table of up to
//! [`WEB_PIECES`] pieces of each board is built by the engine's [`SlicedBuild`], a few milliseconds a frame (about
//! a quarter of a second of work in all on the desktop), and offered to the whole program once complete
//! ([`tablebase::offer_shared`]). Advanced and Master pick it up at their next turn; until then they play
//! endgames by search, as before.
//!
//! The build asks for no frames of its own: it works in the frames the page draws anyway (the title's game, the
//! CPU's thinking, animations, input). Frames asked for only to build would keep a slow page, such as one drawn
//! in software, busy drawing for a minute and slow to answer clicks; a page that sleeps needs no table yet.

use crate::platform::web;
use crate::play::engine_jobs::{CpuThreading, EngineJobs};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use fanorona_engine::Variant;
use fanorona_engine::tablebase::{self, SlicedBuild};
use std::time::Duration;

/// The most pieces of the table a web page builds: 2.5 million entries (2.5 MB) on the 9 × 5 board, about
/// 0.3 s of work on one desktop core. Five pieces would take 40 times that.
pub const WEB_PIECES: u32 = 4;

/// How long a frame works on the build at least (one more slice of a few thousand entries may run past it).
pub const MIN_FRAME_BUDGET: Duration = Duration::from_millis(4);

/// How long a frame works on the build at most: a quarter of the last frame's time, between the two, so that a
/// page whose frames are slow (a slow device, software rendering) does not take a hundred times as many of them.
pub const MAX_FRAME_BUDGET: Duration = Duration::from_millis(16);

/// The boards whose tables are built, in this order: the standard board first.
const BOARDS: [Variant; 2] = [Variant::Tsivy, Variant::Dimy];

/// The build in slices and what it has done.
#[derive(Resource)]
pub struct EndgameTable {
    /// Whether this program builds its table in slices (the web page; tests switch it on).
    pub enabled: bool,
    /// The build of the next board's table (the board [`EndgameTable::done`] counts up to).
    building: Option<SlicedBuild>,
    /// Boards whose table is shared (built here, or larger ones from elsewhere).
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
    /// Whether every board's table is shared.
    pub fn is_complete(&self) -> bool {
        self.done >= BOARDS.len()
    }
}

/// Registers the build.
pub fn plugin(app: &mut App) {
    app.init_resource::<EndgameTable>().add_systems(Update, build_in_slices);
}

/// Works on the tables for a quarter of the last frame's time, between [`MIN_FRAME_BUDGET`] and [`MAX_FRAME_BUDGET`].
/// Not while the engine runs in its worker, which builds larger tables of its own.
fn build_in_slices(
    mut table: ResMut<EndgameTable>,
    time: Res<Time<Real>>,
    threading: Res<CpuThreading>,
    jobs: Res<EngineJobs>,
) {
    if !table.enabled || table.is_complete() || (*threading == CpuThreading::Worker && !jobs.in_frames()) {
        return;
    }
    let budget = (time.delta() / 4).clamp(MIN_FRAME_BUDGET, MAX_FRAME_BUDGET);
    let started = Instant::now();
    let table = &mut *table;
    while !table.is_complete() {
        let variant = BOARDS[table.done];
        if table.building.is_none() {
            if tablebase::shared_pieces(variant).is_some_and(|n| n >= WEB_PIECES) {
                table.done += 1;
                continue;
            }
            table.building = Some(SlicedBuild::new(variant, WEB_PIECES));
        }
        let build = table.building.as_mut().expect("set above");
        if !build.run_for(budget.saturating_sub(started.elapsed())) {
            break;
        }
        let build = table.building.take().expect("set above");
        let (slices, longest) = build.slices();
        if let Some(tb) = build.finish() {
            info!(
                "endgame table of the {variant} board up to {WEB_PIECES} pieces ready: {} entries, {slices} slices, \
                 the longest {:.1} ms",
                tb.entries(),
                longest.as_secs_f64() * 1000.0
            );
            tablebase::offer_shared(tb);
            web::event("tablebase", &format!("{variant} {WEB_PIECES}"));
        }
        table.done += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    table.frames += 1;
    table.longest = table.longest.max(started.elapsed());
}
