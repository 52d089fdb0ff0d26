//! Board themes: the colours of the background, frame, wood, lines, labels and trays.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The look of the board, chosen in the settings.
#[derive(Resource, Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Warm carved wood, as the boards of Madagascar.
    #[default]
    Wood,
    /// Dark stone with pale lines, easy on the eyes at night.
    Night,
    /// A pale sand board with strong contrast.
    Sand,
}

/// The colours of one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Behind the board.
    pub background: Color,
    /// The frame around the playing surface.
    pub frame: Color,
    /// The playing surface.
    pub wood: Color,
    /// Lines.
    pub line: Color,
    /// Coordinates.
    pub label: Color,
    /// The bed of a tray of captured pieces.
    pub tray: Color,
    /// The grain stripes of the surface (dark ones, light ones).
    pub grain: (Color, Color),
    /// The rim of the points.
    pub point: Color,
}

impl Theme {
    /// Every theme, in the order the settings list them.
    pub const ALL: [Theme; 3] = [Theme::Wood, Theme::Night, Theme::Sand];

    /// The translation key of the theme's name.
    pub fn key(self) -> &'static str {
        match self {
            Theme::Wood => "theme.wood",
            Theme::Night => "theme.night",
            Theme::Sand => "theme.sand",
        }
    }

    /// The theme's colours.
    pub fn palette(self) -> Palette {
        match self {
            Theme::Wood => Palette {
                background: Color::srgb(0.16, 0.12, 0.10),
                frame: Color::srgb(0.36, 0.21, 0.11),
                wood: Color::srgb(0.80, 0.58, 0.34),
                line: Color::srgb(0.25, 0.14, 0.07),
                label: Color::srgb(0.96, 0.86, 0.68),
                tray: Color::srgb(0.27, 0.16, 0.09),
                grain: (Color::srgba(0.45, 0.27, 0.12, 0.10), Color::srgba(1.0, 0.9, 0.7, 0.07)),
                point: Color::srgb(0.93, 0.78, 0.55),
            },
            Theme::Night => Palette {
                background: Color::srgb(0.07, 0.08, 0.10),
                frame: Color::srgb(0.16, 0.18, 0.22),
                wood: Color::srgb(0.27, 0.30, 0.35),
                line: Color::srgb(0.70, 0.74, 0.80),
                label: Color::srgb(0.80, 0.84, 0.90),
                tray: Color::srgb(0.11, 0.12, 0.15),
                grain: (Color::srgba(0.0, 0.0, 0.0, 0.10), Color::srgba(1.0, 1.0, 1.0, 0.03)),
                point: Color::srgb(0.55, 0.60, 0.68),
            },
            Theme::Sand => Palette {
                background: Color::srgb(0.30, 0.26, 0.20),
                frame: Color::srgb(0.62, 0.50, 0.34),
                wood: Color::srgb(0.93, 0.86, 0.70),
                line: Color::srgb(0.30, 0.22, 0.14),
                // The coordinates sit on the pale surface's margin: dark, unlike the other themes.
                label: Color::srgb(0.36, 0.26, 0.16),
                tray: Color::srgb(0.48, 0.38, 0.25),
                grain: (Color::srgba(0.55, 0.42, 0.25, 0.08), Color::srgba(1.0, 1.0, 1.0, 0.10)),
                point: Color::srgb(0.80, 0.68, 0.48),
            },
        }
    }
}

/// Accent colours of the UI.
pub mod colors {
    use bevy_egui::egui::Color32;
    /// Headings and the side to move.
    pub const GOLD: Color32 = Color32::from_rgb(240, 200, 120);
    /// Explanations of refused moves.
    pub const WARN: Color32 = Color32::from_rgb(255, 150, 110);
    /// Praise: a lesson or puzzle done right.
    pub const GOOD: Color32 = Color32::from_rgb(150, 225, 140);
    /// The button that leads on after a success.
    pub const GO: Color32 = Color32::from_rgb(52, 105, 58);
    /// Quiet text.
    pub const DIM: Color32 = Color32::from_rgb(190, 175, 150);
}
