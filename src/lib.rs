//! Fanorona, the game: Bevy plugins for the rules, the board, input, animation, the CPU player and the menus.
//!
//! One plugin per concern, each in its own module. [`LogicPlugin`] is everything that decides (rules, pieces as
//! entities, the CPU player) and runs headless; [`GamePlugin`] adds everything that shows and listens (board,
//! input, animation, sound, egui menus and HUD, command-line automation).

pub mod animation;
pub mod audio;
pub mod board;
pub mod cli;
pub mod cpu;
pub mod help;
pub mod hud;
pub mod i18n;
pub mod input;
pub mod menu;
pub mod pause;
pub mod persist;
pub mod records;
pub mod rules;
pub mod screen;
pub mod stats;
pub mod storage;
pub mod theme;
pub mod web;

use bevy::prelude::*;

/// The game's logic without rendering: screen states, rules and piece entities, the CPU player. Needs
/// `StatesPlugin` (in `DefaultPlugins`; add it yourself to `MinimalPlugins`).
pub struct LogicPlugin;

impl Plugin for LogicPlugin {
    fn build(&self, app: &mut App) {
        screen::plugin(app);
        rules::plugin(app);
        cpu::plugin(app);
    }
}

/// The whole game on top of `DefaultPlugins`: the logic, the board, input, animation, sound, menus and HUD, and the
/// command-line automation described by `args`.
pub struct GamePlugin {
    /// Command-line options.
    pub args: cli::Args,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        // First: the saved settings must be in place before the other plugins build on them.
        // A demo (automation) never touches the player's own data unless given a folder.
        let storage = match &self.args.data_dir {
            Some(dir) => storage::Storage::in_dir(dir),
            None if self.args.demo => storage::Storage::memory(),
            None => storage::Storage::platform(),
        };
        // A demo is a fresh CPU game; everything else resumes the player's unfinished game.
        persist::plugin(app, storage, !self.args.demo);
        app.add_plugins(LogicPlugin);
        app.add_plugins(bevy_egui::EguiPlugin::default());
        board::plugin(app);
        input::plugin(app);
        animation::plugin(app);
        audio::plugin(app);
        hud::plugin(app);
        menu::plugin(app);
        pause::plugin(app);
        records::plugin(app);
        cli::plugin(app, self.args.clone());
        web::plugin(app);
        stats::plugin(app);
    }
}
