//! The game's fonts: egui's four default faces, cut down to the characters the game shows (`scripts/subset-fonts.sh`).
//!
//! egui's own default fonts cover every script and many emoji; they were 1.4 MB of the web module and compress
//! poorly. These subsets keep the same faces and the same fallback order, so nothing looks different.

use bevy_egui::egui::{self, FontData, FontDefinitions, FontFamily, FontTweak};
use std::sync::Arc;

/// The faces by egui's names for them, with the size tweaks egui's defaults give the two symbol fonts.
fn faces() -> [(&'static str, &'static [u8], f32); 5] {
    [
        ("Ubuntu-Light", include_bytes!("../../assets/fonts/Ubuntu-Light.ttf"), 1.0),
        ("Hack", include_bytes!("../../assets/fonts/Hack-Regular.ttf"), 1.0),
        ("NotoEmoji-Regular", include_bytes!("../../assets/fonts/NotoEmoji-Regular.ttf"), 0.81),
        ("emoji-icon-font", include_bytes!("../../assets/fonts/emoji-icon-font.ttf"), 0.90),
        ("replacement", include_bytes!("../../assets/fonts/Replacement.ttf"), 0.81),
    ]
}

/// The font definitions to give egui once its context exists (`Context::set_fonts`).
///
/// egui draws a character no face has as the first ◻ of the chain, and counts a character as missing when it
/// falls to the face of that ◻: "replacement" holds only ◻ and comes last, so that `missing` is exact.
pub fn definitions() -> FontDefinitions {
    let mut fonts = FontDefinitions::empty();
    for (name, bytes, scale) in faces() {
        let data = FontData::from_static(bytes).tweak(FontTweak { scale, ..Default::default() });
        fonts.font_data.insert(name.to_owned(), Arc::new(data));
    }
    let order = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
    fonts.families.insert(
        FontFamily::Proportional,
        order(&["Ubuntu-Light", "NotoEmoji-Regular", "emoji-icon-font", "replacement"]),
    );
    // Ubuntu after Hack gives the monospace face its symbols (√, arrows), as in egui's defaults.
    fonts.families.insert(
        FontFamily::Monospace,
        order(&["Hack", "Ubuntu-Light", "NotoEmoji-Regular", "emoji-icon-font", "replacement"]),
    );
    fonts
}

/// The characters of `text` that no face of `family` can draw, for the tests (and a translator's check).
pub fn missing(ctx: &egui::Context, family: &FontFamily, text: &str) -> Vec<char> {
    let font = egui::FontId::new(14.0, family.clone());
    ctx.fonts_mut(|fonts| {
        let mut missing: Vec<char> = text.chars().filter(|c| !c.is_control() && !fonts.has_glyph(&font, *c)).collect();
        missing.sort_unstable();
        missing.dedup();
        missing
    })
}
