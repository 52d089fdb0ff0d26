//! The statistics screen (games, results by opponent, best turns, reset with confirmation) and the window that
//! tells the player, once, about a saved file that could not be used.

use crate::i18n::{level_name, t, tf};
use crate::save::persist::{Notices, PlayerStats, Stats};
use crate::save::storage::Storage;
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::levels::Level;

/// Adds the statistics screen and the notices window.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (stats_screen.run_if(in_state(Screen::Stats)), notices_window));
}

fn stats_screen(
    mut contexts: EguiContexts,
    mut stats: ResMut<PlayerStats>,
    storage: Res<Storage>,
    mut notices: ResMut<Notices>,
    mut next: ResMut<NextState<Screen>>,
    mut confirming: Local<bool>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("stats")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_width(380.0);
            ui.label(egui::RichText::new(t("stats.title")).size(26.0).color(colors::GOLD));
            ui.add_space(6.0);
            let s = &stats.0;
            if s.games_played == 0 && s.results.is_empty() {
                ui.label(t("stats.none"));
                learning(ui, s);
            } else {
                egui::Grid::new("stats_counts").num_columns(2).spacing([16.0, 4.0]).show(ui, |ui| {
                    ui.label(t("stats.played"));
                    ui.label(s.games_played.to_string());
                    ui.end_row();
                    ui.label(t("stats.finished"));
                    ui.label(s.games_finished.to_string());
                    ui.end_row();
                });
                ui.add_space(8.0);
                results_table(ui, s);
                ui.add_space(8.0);
                ui.label(tf("stats.longest_relay", &[("captures", s.longest_relay.into())]));
                ui.label(tf("stats.most_pieces", &[("pieces", s.most_pieces.into())]));
                learning(ui, s);
            }
            ui.add_space(10.0);
            ui.horizontal(|ui| {
                if ui.button(t("menu.back")).clicked() {
                    *confirming = false;
                    next.set(Screen::Title);
                }
                if !*confirming && ui.button(t("stats.reset")).clicked() {
                    *confirming = true;
                }
            });
            if *confirming {
                ui.add_space(6.0);
                ui.label(egui::RichText::new(t("stats.reset_confirm")).color(colors::WARN));
                ui.horizontal(|ui| {
                    if ui.button(t("stats.yes_reset")).clicked() {
                        stats.0 = Stats::default();
                        if let Err(e) = storage.save(&stats.0) {
                            notices.0.push(tf(
                                "persist.save_failed",
                                &[("what", t("persist.stats_doc").into()), ("error", e.to_string().into())],
                            ));
                        }
                        *confirming = false;
                    }
                    if ui.button(t("stats.cancel")).clicked() {
                        *confirming = false;
                    }
                });
            }
        });
    Ok(())
}

/// The lessons done and the puzzle rating, once the player has tried either.
fn learning(ui: &mut egui::Ui, s: &Stats) {
    if s.lessons_done.is_empty() && s.puzzles.attempts == 0 {
        return;
    }
    ui.add_space(8.0);
    let total = crate::screens::lessons::LESSONS.len();
    let done = crate::screens::lessons::LESSONS.iter().filter(|l| s.lessons_done.iter().any(|d| d == l.id)).count();
    ui.label(tf("stats.lessons_done", &[("done", done.into()), ("total", total.into())]));
    let p = &s.puzzles;
    // The rating as the puzzle screen shows it: a whole number, without a thousands separator.
    let rating = format!("{:.0}", p.rating).into();
    ui.label(tf("puzzles.rating", &[("rating", rating), ("solved", p.solved.into()), ("tried", p.attempts.into())]));
}

/// Wins, losses and draws against each CPU level and in hot-seat games.
fn results_table(ui: &mut egui::Ui, s: &Stats) {
    egui::Grid::new("stats_results").num_columns(4).striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
        ui.label(egui::RichText::new(t("stats.opponent")).color(colors::DIM));
        for k in ["stats.wins", "stats.losses", "stats.draws"] {
            ui.label(egui::RichText::new(t(k)).color(colors::DIM));
        }
        ui.end_row();
        let rows = Level::ALL
            .iter()
            .map(|l| (format!("cpu-{}", l.number()), tf("stats.vs_level", &[("level", level_name(*l).into())])))
            .chain(std::iter::once(("hot-seat".to_string(), t("stats.hot_seat").to_string())))
            .chain(std::iter::once(("online".to_string(), t("stats.online").to_string())));
        for (key, name) in rows {
            let Some(tally) = s.results.get(&key) else { continue };
            ui.label(name);
            ui.label(tally.wins.to_string());
            ui.label(tally.losses.to_string());
            ui.label(tally.draws.to_string());
            ui.end_row();
        }
    });
}

/// Shows the oldest notice until the player dismisses it, then the next.
fn notices_window(mut contexts: EguiContexts, mut notices: ResMut<Notices>) -> Result {
    let Some(text) = notices.0.first().cloned() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    egui::Window::new(t("persist.notice_title"))
        .id(egui::Id::new("notice"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 40.0])
        .show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.label(text);
            if ui.button(t("persist.ok")).clicked() {
                notices.0.remove(0);
            }
        });
    Ok(())
}
