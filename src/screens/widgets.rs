//! Small egui building blocks shared by the menu screens.

use crate::i18n::t;
use bevy_egui::egui;

/// A window without a title bar, centred on the screen.
pub fn centered(title: &str) -> egui::Window<'_> {
    egui::Window::new(title)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

/// A large menu button with the text of `key`; its place is reported to the web page (for tests) under the
/// key's last part.
pub fn big_button(ui: &mut egui::Ui, key: &'static str) -> bool {
    let r = ui.add_sized([220.0, 36.0], egui::Button::new(egui::RichText::new(t(key)).size(18.0)));
    crate::platform::web::button_at(key.rsplit('.').next().unwrap_or(key), r.rect);
    r.clicked()
}
