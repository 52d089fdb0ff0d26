//! Fanorona, the game: Bevy plugins for the rules, the board, input, animation, the CPU player and the menus.
//!
//! One plugin per concern, each in its own module. [`LogicPlugin`] is everything that decides (rules, pieces as
//! entities, the CPU player) and runs headless; [`GamePlugin`] adds everything that shows and listens (board,
//! input, animation, sound, egui menus and HUD, command-line automation).

pub mod audio;
pub mod i18n;
pub mod online;
pub mod platform;
pub mod play;
pub mod save;
pub mod screens;
pub mod state;
pub mod theme;

use platform::{cli, redraw, web};
use play::{animation, arrows, board, cpu, endgame, engine_jobs, input, referee};
use save::{persist, storage};
use screens::{analysis, game_over, hud, lessons, pause, puzzles, records, review, settings, stats, telo, title};

use bevy::prelude::*;
use fanorona_engine::levels::Level;

/// The game's logic without rendering: screen states, rules and piece entities, the CPU player and the web page's
/// endgame tables. Needs `StatesPlugin` (in `DefaultPlugins`; add it yourself to `MinimalPlugins`).
pub struct LogicPlugin;

impl Plugin for LogicPlugin {
    fn build(&self, app: &mut App) {
        state::plugin(app);
        // Sleeping when idle: the frame demand every concern reports to, and the waker the CPU's searches use.
        redraw::plugin(app, true);
        referee::plugin(app);
        cpu::plugin(app);
        engine_jobs::plugin(app);
        endgame::plugin(app);
    }
}

/// The whole game on top of `DefaultPlugins`: the logic, the board, input, animation, sound, menus and HUD, and the
/// command-line automation described by `args`.
pub struct GamePlugin {
    /// Command-line options.
    pub args: cli::Args,
    /// When the program started (for `--measure-idle`'s launch time).
    pub launched: bevy::platform::time::Instant,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        // First: the saved settings must be in place before the other plugins build on them.
        // A demo (automation) never touches the player's own data unless given a folder.
        let storage = match &self.args.data_dir {
            Some(dir) => storage::Storage::in_dir(dir),
            None if self.args.demo || self.args.measure_idle.is_some() => storage::Storage::memory(),
            None => storage::Storage::platform(),
        };
        // A demo is a fresh CPU game; everything else resumes the player's unfinished game.
        persist::plugin(app, storage, !self.args.demo && self.args.measure_idle.is_none());
        app.add_plugins(LogicPlugin);
        // Automation (a demo, a screenshot, a timed exit) keeps running by itself; players' windows sleep when idle.
        app.insert_resource(redraw::Reactive(!self.args.automated()));
        app.add_plugins(bevy_egui::EguiPlugin::default());
        redraw::quiet_egui(app);
        board::plugin(app);
        input::plugin(app);
        arrows::plugin(app);
        animation::plugin(app);
        audio::plugin(app);
        hud::plugin(app);
        screens::capture_choice::plugin(app);
        title::plugin(app);
        settings::plugin(app);
        game_over::plugin(app);
        pause::plugin(app);
        records::plugin(app);
        lessons::plugin(app);
        analysis::plugin(app);
        review::plugin(app);
        telo::plugin(app);
        puzzles::plugin(app);
        online::plugin(app);
        screens::online::plugin(app);
        cli::plugin(app, self.args.clone());
        if let Some(secs) = self.args.measure_idle {
            platform::measure::plugin(
                app,
                secs,
                self.args.level.and_then(Level::from_number).unwrap_or(Level::Advanced),
                self.launched,
            );
        }
        web::plugin(app);
        stats::plugin(app);
    }
}
