//! Playing a game: the referee (the only writer of game state, applying the rules), the board and its pieces,
//! input, animation, the CPU player and the match being set up.

pub mod animation;
pub mod arrows;
pub mod board;
pub mod cpu;
pub mod endgame;
pub mod engine_jobs;
pub mod input;
pub mod referee;
pub mod setup;
