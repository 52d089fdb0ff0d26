//! The web page's endgame table (`play::endgame`): built in slices over many frames, in frames others ask for (it
//! asks for none), then shared with the strong levels, after which a strong level's turn in a small endgame is the
//! table's. Its own test program: the shared table is global to a process.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::platform::redraw::FrameStats;
use fanorona::play::endgame::{EndgameTable, WEB_PIECES};
use fanorona_engine::levels::{Level, Thinking};
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::tablebase::{Tablebase, TbValue, shared_pieces};
use fanorona_engine::{Position, Variant};

#[test]
fn the_table_is_built_between_frames_then_shared() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin));
    app.world_mut().resource_mut::<EndgameTable>().enabled = true;
    assert_eq!(shared_pieces(Variant::Tsivy), None, "nothing shares a table before the build");
    let mut frames = 0;
    while !app.world().resource::<EndgameTable>().is_complete() && frames < 10_000 {
        app.update();
        frames += 1;
    }
    let table = app.world().resource::<EndgameTable>();
    assert!(table.is_complete(), "not done after {frames} frames");
    assert_eq!(table.frames, frames, "every frame until the end worked on it");
    assert!(frames > 5, "{frames} frames: the build was not spread over frames");
    let stats = *app.world().resource::<FrameStats>();
    assert_eq!(stats.redraws_requested, 0, "the build asks for no frames of its own: {stats:?}");
    for variant in [Variant::Tsivy, Variant::Dimy] {
        assert_eq!(shared_pieces(variant), Some(WEB_PIECES), "{variant}");
    }
    // Done: later frames leave it alone.
    app.update();
    assert_eq!(app.world().resource::<EndgameTable>().frames, frames);

    // Master, searching two turns deep, in a three-piece ending won in 25 turns: it plays a turn that keeps the
    // shortest win, which only the table sees.
    let pos = Position::from_fen("9/B8/9/9/B5W2 b").expect("a position");
    let whole = Tablebase::build(Variant::Tsivy, WEB_PIECES, |_| {});
    let (_, value) = whole.best_turn(&pos).expect("in the table");
    assert_eq!(value, TbValue::Win(25));
    let mut thinking = Thinking::new(Level::Master, Searcher::new(4), &pos, &[], 1, Limits::depth(2));
    while !thinking.run(None, &mut |_| {}) {}
    let (_, turn) = thinking.finish();
    let mut after = pos;
    after.play_turn(&turn.expect("a turn")).expect("legal");
    assert_eq!(whole.probe(&after).map(|v| v.after_turn()), Some(value), "Master's turn {after} keeps the win");
}
