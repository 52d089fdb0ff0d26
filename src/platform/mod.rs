//! Where the game runs: the command line and its automation options, the window's sleep when nothing moves, and
//! the web page bridge.

pub mod cli;
pub mod measure;
pub mod redraw;
pub mod web;
