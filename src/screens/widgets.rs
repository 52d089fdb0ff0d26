//! Small egui building blocks shared by the menu screens.

use crate::i18n::t;
use crate::play::board::BoardFrame;
use bevy::prelude::{DetectChangesMut, ResMut};
use bevy_egui::egui;

/// A stone as the board draws it: shadow, rim, body and a soft highlight, of radius `r` at `c`, `presence` from 0
/// (gone) to 1 (fully there). Shared by the drawings egui makes of the game (the rules' examples, Fanoron-Telo).
pub fn paint_stone(painter: &egui::Painter, c: egui::Pos2, r: f32, side: fanorona_engine::Side, presence: f32) {
    use egui::Color32;
    let (rim, body, shine, shine_r) = match side {
        fanorona_engine::Side::White => {
            (Color32::from_rgb(168, 153, 128), Color32::from_rgb(242, 235, 217), Color32::from_white_alpha(140), 0.42)
        }
        fanorona_engine::Side::Black => {
            (Color32::from_rgb(13, 13, 15), Color32::from_rgb(48, 48, 54), Color32::from_white_alpha(41), 0.36)
        }
    };
    let a = presence;
    painter.circle_filled(c + egui::vec2(0.1, 0.14) * r, r * 1.02, Color32::from_black_alpha(97).gamma_multiply(a));
    painter.circle_filled(c, r, rim.gamma_multiply(a));
    painter.circle_filled(c, r * 0.8, body.gamma_multiply(a));
    painter.circle_filled(c + egui::vec2(-0.25, -0.28) * r, shine_r * r, shine.gamma_multiply(a));
}

/// The smallest size of a [`big_button`].
pub const BIG_BUTTON: egui::Vec2 = egui::vec2(220.0, 36.0);

/// A window without a title bar, centred on the screen.
pub fn centered(title: &str) -> egui::Window<'_> {
    egui::Window::new(title)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

/// A large menu button with the text of `key`, at least [`BIG_BUTTON`] wide and wider rather than wrapped when a
/// language's text is longer (the text stays on one centred line); its place is reported to the web page (for
/// tests) under [`button_id`].
pub fn big_button(ui: &mut egui::Ui, key: &'static str) -> bool {
    // The big buttons of one menu share the widest one's width, learnt in the pass before (egui lays the window
    // out again at once when it grows).
    let shared = ui.id().with("big button width");
    let width = ui.data(|d| d.get_temp::<f32>(shared)).unwrap_or(BIG_BUTTON.x).max(BIG_BUTTON.x);
    let button = egui::Button::new(egui::RichText::new(t(key)).size(18.0))
        .wrap_mode(egui::TextWrapMode::Extend)
        .min_size(egui::vec2(width, BIG_BUTTON.y));
    let r = ui.add(button);
    if r.rect.width() > width + 0.5 {
        ui.data_mut(|d| d.insert_temp(shared, r.rect.width()));
        ui.ctx().request_discard("a big button is wider than its menu's others");
    }
    report_button(ui, button_id(key), &r);
    r.clicked()
}

/// Reports where button `id` was drawn this pass: to the web page (for its tests) and in the egui context's memory,
/// where [`reported_button`] reads it back (for the layout tests that check buttons hold still). Returns the
/// response, for chaining.
pub fn report_button<'a>(ui: &egui::Ui, id: &str, response: &'a egui::Response) -> &'a egui::Response {
    ui.ctx().data_mut(|d| d.insert_temp(egui::Id::new(("reported button", id)), response.rect));
    crate::platform::web::button_at(id, response.rect);
    response
}

/// Where button `id` was last reported ([`report_button`]), if it was.
pub fn reported_button(ctx: &egui::Context, id: &str) -> Option<egui::Rect> {
    ctx.data(|d| d.get_temp(egui::Id::new(("reported button", id))))
}

/// Forgets every reported button, so that the next pass tells which are drawn now.
pub fn forget_reported_buttons(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove_by_type::<egui::Rect>());
}

/// The name a button of text `key` is reported under: the key's last part (`menu.new_game`: `new_game`), or its
/// first where the last is the generic `button` (`analysis.button`: `analysis`).
pub fn button_id(key: &str) -> &str {
    let mut parts = key.split('.');
    let first = parts.next().unwrap_or(key);
    match parts.next_back() {
        Some("button") | None => first,
        Some(last) => last,
    }
}

/// A panel at the window's right edge, `width` wide, beside the board: shows `contents` and narrows the board's
/// part of the window ([`BoardFrame`]) to what the panel leaves free.
pub fn side_panel(
    ctx: &egui::Context,
    id: &str,
    width: f32,
    frame: &mut ResMut<BoardFrame>,
    contents: impl FnOnce(&mut egui::Ui),
) {
    let shown = egui::Window::new(id)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .show(ctx, |ui| {
            ui.set_width(width);
            contents(ui);
        });
    if let Some(shown) = shown {
        // Rounded, so that sub-pixel changes of the panel's size do not refit the camera every frame.
        let right = (shown.response.rect.width() + 16.0).round();
        // Compared first: writing an equal value would still mark it changed and refit every frame.
        frame.set_if_neq(BoardFrame { right, ..Default::default() });
    }
}

#[cfg(test)]
mod tests {
    use super::button_id;

    #[test]
    fn buttons_are_reported_under_distinct_names() {
        assert_eq!(button_id("menu.new_game"), "new_game");
        assert_eq!(button_id("analysis.button"), "analysis");
        assert_eq!(button_id("online.button"), "online");
        assert_eq!(button_id("review.button"), "review");
        assert_eq!(button_id("start"), "start");
    }
}
