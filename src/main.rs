//! Fanorona: the game binary. Sets up the window and adds the game's plugins.

use bevy::prelude::*;
use clap::Parser;
use fanorona::{GamePlugin, cli::Args};

fn main() -> AppExit {
    let args = Args::parse();
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "Fanorona".into(),
                resolution: (1280, 800).into(),
                // On the web the canvas follows its page element, so the board can fit narrow screens.
                fit_canvas_to_parent: true,
                ..default()
            }),
            ..default()
        }))
        .add_plugins(GamePlugin { args })
        .run()
}
