//! Playing a game: the rules (the only writer of game state), the board and its pieces, input, animation, the CPU
//! player and the match being set up.

pub mod animation;
pub mod arrows;
pub mod board;
pub mod cpu;
pub mod endgame;
pub mod input;
pub mod rules;
pub mod setup;
