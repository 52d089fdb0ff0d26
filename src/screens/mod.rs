//! What the player sees around the board, one module a screen or window (egui): title and new-game setup, the
//! in-game HUD, pause, game over, settings, rules and help, statistics, game records,
//! lessons, the analysis board,
//! game review, puzzles and Fanoron-Telo.

pub mod analysis;
pub mod capture_choice;
pub mod fonts;
pub mod game_over;
pub mod help;
pub mod hud;
pub mod lessons;
pub mod online;
pub mod pause;
pub mod puzzles;
pub mod records;
pub mod review;
pub mod settings;
#[cfg(not(target_arch = "wasm32"))]
pub mod seven_tables;
pub mod stats;
pub mod telo;
pub mod title;
pub mod widgets;
