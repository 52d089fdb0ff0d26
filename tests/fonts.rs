//! The game's cut-down fonts draw every character of every translation and of the texts written in the code.

use bevy_egui::egui::{self, FontFamily};
use fanorona::screens::fonts::{definitions, missing};
use std::path::PathBuf;

/// The package's folder as `cargo test` gives it to the running test: a build shared by two checkouts (one
/// target folder) keeps the compile-time path of whichever checkout built it, which may be gone.
fn package_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| env!("CARGO_MANIFEST_DIR").into(), Into::into)
}

fn context() -> egui::Context {
    let ctx = egui::Context::default();
    ctx.set_fonts(definitions());
    // Fonts take effect at the start of a pass.
    let mut output = ctx.run_ui(egui::RawInput::default(), |_| {});
    output.textures_delta.clear();
    ctx
}

#[test]
fn every_translation_can_be_drawn() {
    let ctx = context();
    for lang in ["en", "fr", "mg"] {
        let path = package_dir().join(format!("assets/i18n/{lang}.ftl"));
        let text = std::fs::read_to_string(&path).unwrap();
        let gaps = missing(&ctx, &FontFamily::Proportional, &text);
        assert!(gaps.is_empty(), "{lang}.ftl uses characters the fonts lack: {gaps:?} (scripts/subset-fonts.sh)");
    }
}

/// Texts outside the translations (symbols on buttons, notation, the board's coordinates) are string literals.
#[test]
fn every_literal_in_the_code_can_be_drawn() {
    let ctx = context();
    let mut literals = String::new();
    let mut stack = vec![package_dir().join("src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                for line in std::fs::read_to_string(&path).unwrap().lines() {
                    let code = line.trim_start();
                    if !code.starts_with("//") {
                        literals.extend(code.split('"').skip(1).step_by(2).flat_map(str::chars));
                    }
                }
            }
        }
    }
    assert!(literals.contains('▶'), "the scan found the play symbol's literal");
    for family in [FontFamily::Proportional, FontFamily::Monospace] {
        let gaps = missing(&ctx, &family, &literals);
        assert!(gaps.is_empty(), "{family:?} lacks {gaps:?} (scripts/subset-fonts.sh)");
    }
}

#[test]
fn names_in_latin_scripts_can_be_drawn_and_others_are_reported() {
    let ctx = context();
    assert!(missing(&ctx, &FontFamily::Proportional, "Rakotomalala Ñoño Łukasz Şahin Dvořák ô").is_empty());
    assert_eq!(missing(&ctx, &FontFamily::Proportional, "ab中"), vec!['中']);
}
