//! Settings: the title's settings screen and the controls it shares with the pause window (language, animation
//! speed, volumes, board theme).

use crate::audio::SoundSettings;
use crate::i18n::{Lang, t, tf};
use crate::play::animation::AnimationSpeed;
use crate::play::engine_jobs::EngineJobs;
use crate::save::records::KeepGames;
use crate::save::storage::Storage;
use crate::screens::widgets::centered;
use crate::state::Screen;
use crate::theme::{Theme, colors};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Adds the settings screen.
pub fn plugin(app: &mut App) {
    #[cfg(not(target_arch = "wasm32"))]
    super::seven_tables::plugin(app);
    app.add_systems(EguiPrimaryContextPass, settings_screen.run_if(in_state(Screen::Settings)));
}

fn settings_screen(
    mut contexts: EguiContexts,
    mut speed: ResMut<AnimationSpeed>,
    mut sound: ResMut<SoundSettings>,
    mut theme: ResMut<Theme>,
    mut keep: ResMut<KeepGames>,
    storage: Res<Storage>,
    jobs: Res<EngineJobs>,
    #[cfg(not(target_arch = "wasm32"))] mut seven: ResMut<super::seven_tables::SevenTables>,
    #[cfg(not(target_arch = "wasm32"))] waker: Res<crate::platform::redraw::LoopWaker>,
    #[cfg(not(target_arch = "wasm32"))] mut demand: ResMut<crate::platform::redraw::FrameDemand>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("settings").show(ctx, |ui| {
        ui.set_width(300.0);
        ui.label(egui::RichText::new(t("menu.settings")).size(26.0).color(colors::GOLD));
        settings_controls(ui, &mut speed, &mut sound);
        ui.add_space(6.0);
        theme_selector(ui, &mut theme);
        ui.add_space(6.0);
        let mut on = keep.0;
        if ui.checkbox(&mut on, t("settings.keep_games")).changed() {
            keep.0 = on;
        }
        ui.add_space(6.0);
        ui.label(
            egui::RichText::new(tf("settings.data_dir", &[("place", storage.describe().into())]))
                .small()
                .color(colors::DIM),
        );
        ui.label(egui::RichText::new(tablebase_status(&jobs)).small().color(colors::DIM));
        #[cfg(not(target_arch = "wasm32"))]
        super::seven_tables::section(ui, &mut seven, &waker, &mut demand);
        ui.add_space(8.0);
        if ui.button(t("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

/// What the strong levels know of endgames: the pieces of the tablebase ready now, and the one being built (in
/// the background on the desktop, in the engine worker or between frames in a browser).
fn tablebase_status(jobs: &EngineJobs) -> String {
    use fanorona_engine::Variant::Tsivy;
    use fanorona_engine::tablebase::{BACKGROUND_PIECES, shared_pieces};
    let status = if jobs.in_worker() {
        (jobs.worker_table(Tsivy), crate::play::engine_jobs::WORKER_PIECES)
    } else if cfg!(target_arch = "wasm32") {
        (shared_pieces(Tsivy), crate::play::endgame::WEB_PIECES)
    } else {
        (shared_pieces(Tsivy), BACKGROUND_PIECES)
    };
    match status {
        (Some(n), target) if n >= target => tf("settings.tablebase_ready", &[("pieces", n.into())]),
        (Some(n), target) => tf("settings.tablebase_growing", &[("pieces", n.into()), ("next", target.into())]),
        (None, target) => tf("settings.tablebase_building", &[("next", target.into())]),
    }
}

/// The settings themselves, shared by the title's settings screen and the pause window: language, animation speed
/// and sound volumes.
pub fn settings_controls(ui: &mut egui::Ui, speed: &mut AnimationSpeed, sound: &mut ResMut<SoundSettings>) {
    language_selector(ui);
    ui.add_space(6.0);
    ui.label(t("settings.animation_speed"));
    ui.horizontal(|ui| {
        for s in AnimationSpeed::ALL {
            ui.radio_value(speed, s, s.name());
        }
    });
    ui.add_space(6.0);
    crate::audio::volume_controls(ui, sound);
}

/// The board theme choice.
pub fn theme_selector(ui: &mut egui::Ui, theme: &mut Theme) {
    ui.horizontal(|ui| {
        ui.label(t("settings.theme"));
        for th in Theme::ALL {
            ui.radio_value(theme, th, t(th.key()));
        }
    });
}

/// The language choice: every language by its own name. Changing it changes every text from the next frame on.
fn language_selector(ui: &mut egui::Ui) {
    let current = crate::i18n::language();
    ui.horizontal(|ui| {
        ui.label(t("settings.language"));
        egui::ComboBox::from_id_salt("language").selected_text(current.native_name()).show_ui(ui, |ui| {
            for lang in Lang::ALL {
                if ui.selectable_label(lang == current, lang.native_name()).clicked() && lang != current {
                    crate::i18n::set_language(lang);
                }
            }
        });
    });
}
