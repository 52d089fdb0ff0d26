//! The pause window (egui): Resume, New game, Settings, Rules and Title over the paused game.
//!
//! Opened by Escape with nothing selected or by the HUD's Menu button ([`Pause::Paused`]); while it is open the CPU
//! and animations hold (see the CPU and animation plugins). Settings and rules are shown inside the window, so the
//! game stays where it is and Resume returns to it.

use crate::i18n::t;
use crate::play::animation::AnimationSpeed;
use crate::play::referee::NewGame;
use crate::state::{Pause, Screen};
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// What the pause window shows.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
enum PauseView {
    /// The buttons.
    #[default]
    Main,
    /// Animation speed and sound.
    Settings,
    /// The rules in short.
    Rules,
}

/// Adds the pause window.
pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Pause::Paused), |mut commands: Commands| commands.insert_resource(PauseView::Main))
        .add_systems(OnExit(Pause::Paused), |mut commands: Commands| commands.remove_resource::<PauseView>())
        .add_systems(EguiPrimaryContextPass, pause_window.run_if(in_state(Pause::Paused)));
}

fn pause_window(
    mut contexts: EguiContexts,
    view: Option<ResMut<PauseView>>,
    mut speed: ResMut<AnimationSpeed>,
    mut sound: ResMut<crate::audio::SoundSettings>,
    mut new: MessageWriter<NewGame>,
    mut next_pause: ResMut<NextState<Pause>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut export: MessageWriter<crate::screens::records::ExportRecord>,
    setup: Res<crate::play::referee::MatchSetup>,
) -> Result {
    let Some(mut view) = view else { return Ok(()) };
    let online = setup.is_online();
    let ctx = contexts.ctx_mut()?;
    let button = |ui: &mut egui::Ui, text: &str| {
        ui.add_sized([200.0, 34.0], egui::Button::new(egui::RichText::new(text).size(17.0))).clicked()
    };
    let response = egui::Modal::new("pause".into()).show(ctx, |ui| match *view {
        PauseView::Main => {
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(t("pause.title")).size(28.0).color(colors::GOLD));
                ui.add_space(6.0);
                if button(ui, t("pause.resume")) {
                    next_pause.set(Pause::Running);
                }
                // An online game has no local new game: the server holds it.
                if !online && button(ui, t("menu.new_game")) {
                    // The same players and rules; "Title" leads to a different setup.
                    new.write(NewGame);
                    next_pause.set(Pause::Running);
                }
                if button(ui, t("menu.settings")) {
                    *view = PauseView::Settings;
                }
                if button(ui, t("menu.rules")) {
                    *view = PauseView::Rules;
                }
                crate::screens::records::export_buttons(ui, &mut export, button);
                if button(ui, t("menu.title_screen")) {
                    next_screen.set(Screen::Title);
                }
            });
        }
        PauseView::Settings => {
            ui.set_width(300.0);
            ui.label(egui::RichText::new(t("menu.settings")).size(24.0).color(colors::GOLD));
            crate::screens::settings::settings_controls(ui, &mut speed, &mut sound);
            ui.add_space(8.0);
            if ui.button(t("menu.back")).clicked() {
                *view = PauseView::Main;
            }
        }
        PauseView::Rules => {
            // Narrow windows get a narrower text column rather than a window wider than the screen.
            let width = (ctx.viewport_rect().width() - 60.0).clamp(240.0, 640.0);
            ui.set_width(width);
            ui.label(egui::RichText::new(t("rules.title")).size(24.0).color(colors::GOLD));
            let height = (ctx.viewport_rect().height() - 160.0).max(120.0);
            ui.allocate_ui(egui::vec2(width, height), crate::screens::help::rules_ui);
            if ui.button(t("menu.back")).clicked() {
                *view = PauseView::Main;
            }
        }
    });
    // Escape or a click beside the window: back one level, then resume.
    if response.should_close() {
        if *view == PauseView::Main {
            next_pause.set(Pause::Running);
        } else {
            *view = PauseView::Main;
        }
    }
    Ok(())
}
