//! The seven-piece endgame tables offered in Settings (desktop only): built on this computer's idle cores on
//! request, stoppable and resumed, then played by the strong levels (the engine's `tablebase::SevenBuild`).

use crate::i18n::{t, tf};
use crate::platform::redraw::{FrameDemand, LoopWaker};
use crate::screens::widgets::report_button;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::egui;
use fanorona_engine::Variant;
use fanorona_engine::tablebase::{
    COMPACT_PIECES, SEVEN_STEPS, SevenBuild, SevenOnDisk, SevenStatus, default_dir, seven_on_disk, shared_pieces,
};
use std::path::PathBuf;
use std::time::Duration;

/// Adds the seven-piece tables' build and its place in Settings.
pub fn plugin(app: &mut App) {
    app.insert_resource(SevenTables::new(Variant::Tsivy, default_dir()));
}

/// The board and folder of the tables, and the build this run started, if any.
#[derive(Resource)]
pub struct SevenTables {
    /// The standard board in the game (tests use the small one, whose tables build in seconds).
    variant: Variant,
    /// The tablebase cache folder (None: no home folder, nothing to build into).
    dir: Option<PathBuf>,
    build: Option<SevenBuild>,
}

impl SevenTables {
    /// No build yet, for the tables of `variant` in `dir`.
    pub fn new(variant: Variant, dir: Option<PathBuf>) -> SevenTables {
        SevenTables { variant, dir, build: None }
    }

    /// The build's status, if one was started in this run.
    pub fn status(&self) -> Option<SevenStatus> {
        self.build.as_ref().map(SevenBuild::status)
    }

    /// Starts (or resumes) the build, which wakes the window through `waker` at each change; nothing without a
    /// folder or while a build runs.
    pub fn start(&mut self, waker: &LoopWaker) {
        let running = self.build.as_ref().is_some_and(|b| !b.is_finished());
        if let (Some(dir), false) = (self.dir.clone(), running) {
            let waker = waker.clone();
            self.build = Some(SevenBuild::start(self.variant, dir, move || waker.wake()));
        }
    }
}

/// The seven-piece part of Settings: what the tables would cost and a button to build them; while they are built,
/// the step and a button to stop; nothing once they are played (the status line above then says seven pieces).
///
/// It keeps the height of its tallest state so far, so that the buttons below it (Back) hold still as the build
/// starts, stops and ends.
pub fn section(ui: &mut egui::Ui, seven: &mut SevenTables, waker: &LoopWaker, demand: &mut FrameDemand) {
    let top = ui.cursor().top();
    section_body(ui, seven, waker, demand);
    let used = ui.cursor().top() - top;
    let tallest = ui.ctx().data_mut(|d| {
        let tallest = d.get_temp_mut_or(egui::Id::new("seven_tables_height"), 0.0f32);
        *tallest = tallest.max(used);
        *tallest
    });
    if tallest > used {
        ui.add_space(tallest - used);
    }
}

/// [`section`]'s contents in the build's present state.
fn section_body(ui: &mut egui::Ui, seven: &mut SevenTables, waker: &LoopWaker, demand: &mut FrameDemand) {
    let Some(dir) = seven.dir.clone() else { return };
    if shared_pieces(seven.variant).is_some_and(|n| n >= COMPACT_PIECES) {
        // The table-status line above already says so.
        return;
    }
    let dim = |s: &str| egui::RichText::new(s).small().color(colors::DIM);
    match seven.status() {
        Some(SevenStatus::Building { step, since }) => {
            let (a, b) = SevenStatus::material(step);
            let material = if step == 0 {
                tf("settings.seven_six", &[("pieces", a.into())])
            } else {
                tf("settings.seven_pair", &[("a", a.into()), ("b", b.into())])
            };
            let elapsed = since.elapsed();
            let minutes = elapsed.as_secs() / 60;
            ui.label(dim(&tf(
                "settings.seven_building",
                &[
                    ("step", (step + 1).into()),
                    ("steps", SEVEN_STEPS.into()),
                    ("material", material.into()),
                    ("minutes", minutes.into()),
                ],
            )));
            // The minutes shown tick without input, at the next whole minute; the build's steps and its end wake
            // the window through the waker.
            demand.within(Duration::from_secs((minutes + 1) * 60).saturating_sub(elapsed));
            let stop = ui.button(t("settings.seven_stop"));
            if report_button(ui, "seven_stop", &stop).clicked() {
                seven.build.as_ref().expect("a build is running").stop();
            }
            return;
        }
        Some(SevenStatus::Stopping) => {
            // The build wakes the window when it has stopped.
            ui.label(dim(t("settings.seven_stopping")));
            return;
        }
        Some(SevenStatus::Ready) => return,
        Some(SevenStatus::Failed(e)) => {
            ui.label(dim(&tf("settings.seven_failed", &[("error", e.into())])));
        }
        Some(SevenStatus::Stopped) => {
            ui.label(dim(t("settings.seven_stopped")));
        }
        None => {}
    }
    ui.label(dim(t("settings.seven_offer")));
    let label = match seven_on_disk(&dir, seven.variant) {
        SevenOnDisk::Nothing => t("settings.seven_build").to_string(),
        SevenOnDisk::Partial(done) => {
            tf("settings.seven_resume", &[("done", done.into()), ("steps", SEVEN_STEPS.into())])
        }
        SevenOnDisk::Complete => {
            tf("settings.seven_resume", &[("done", SEVEN_STEPS.into()), ("steps", SEVEN_STEPS.into())])
        }
    };
    let build = ui.button(label);
    if report_button(ui, "seven_build", &build).clicked() {
        seven.start(waker);
    }
}
