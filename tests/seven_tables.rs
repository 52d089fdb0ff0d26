//! The seven-piece tables in Settings, as a player meets them without touching anything: the offer, the build
//! showing its step and ticking by itself, the window woken when the build is done, the offer gone once the tables
//! are played. On the 5 × 5 board, whose seven-piece tables build in seconds.
#![cfg(not(target_arch = "wasm32"))]

mod egui_pass;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona::platform::redraw::{FrameDemand, IDLE_WAIT, LoopWaker};
use fanorona::screens::seven_tables::{SevenTables, section};
use fanorona::screens::widgets::{report_button, reported_button};
use fanorona_engine::Variant;
use fanorona_engine::tablebase::{COMPACT_PIECES, SevenStatus, shared_pieces};
use std::time::{Duration, Instant};

/// Draws the section alone in a window, as Settings does.
fn draw_section(
    mut contexts: EguiContexts,
    mut seven: ResMut<SevenTables>,
    waker: Res<LoopWaker>,
    mut demand: ResMut<FrameDemand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("settings").show(ctx, |ui| {
        section(ui, &mut seven, &waker, &mut demand);
        // What Settings has below the section.
        let back = ui.button("Back");
        report_button(ui, "back", &back);
    });
    Ok(())
}

fn app(dir: std::path::PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(SevenTables::new(Variant::Dimy, Some(dir)))
        .insert_resource(LoopWaker::default())
        .init_resource::<FrameDemand>()
        .add_systems(EguiPrimaryContextPass, draw_section);
    egui_pass::attach(&mut app);
    app.update();
    app
}

#[test]
fn the_build_shows_its_progress_and_its_end_without_input() {
    let dir = std::env::temp_dir().join(format!("fanorona-seven-settings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app = app(dir.clone());
    // Offered, with nothing built.
    let ctx = egui_pass::draw(&mut app);
    assert!(reported_button(&ctx, "seven_build").is_some(), "the build is offered");
    assert!(reported_button(&ctx, "seven_stop").is_none());
    let back = reported_button(&ctx, "back").expect("the button below").min;
    let waker = app.world().resource::<LoopWaker>().clone();
    app.world_mut().resource_mut::<SevenTables>().start(&waker);
    // Building: a stop button, and the minutes shown tick by themselves (the frame asks for another by the next
    // whole minute).
    *app.world_mut().resource_mut::<FrameDemand>() = FrameDemand::default();
    let ctx = egui_pass::draw(&mut app);
    let status = app.world().resource::<SevenTables>().status();
    assert!(matches!(status, Some(SevenStatus::Building { .. })), "{status:?}: the build takes seconds");
    assert!(reported_button(&ctx, "seven_stop").is_some(), "a running build can be stopped");
    assert_eq!(reported_button(&ctx, "back").map(|r| r.min), Some(back), "the button below holds still");
    assert!(app.world().resource::<FrameDemand>().wait() < IDLE_WAIT, "the step's minutes tick before the idle wake");
    // The end wakes the window by itself: nobody draws or clicks until the waker is called for it.
    let start = Instant::now();
    while app.world().resource::<SevenTables>().status() != Some(SevenStatus::Ready) {
        assert!(start.elapsed() < Duration::from_secs(600), "the build did not end: {:?}", {
            app.world().resource::<SevenTables>().status()
        });
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(waker.calls() >= 2, "the build woke the window at its steps and at its end ({} calls)", waker.calls());
    assert_eq!(shared_pieces(Variant::Dimy), Some(COMPACT_PIECES));
    // The next frame has no offer and no stop left: the status line above says seven pieces.
    let ctx = egui_pass::draw(&mut app);
    assert!(reported_button(&ctx, "seven_build").is_none() && reported_button(&ctx, "seven_stop").is_none());
    assert_eq!(reported_button(&ctx, "back").map(|r| r.min), Some(back), "the button below holds still");
    let _ = std::fs::remove_dir_all(&dir);
}
