//! The match being set up and played: who plays (the new-game form), the vela game that may follow, and player
//! names. Below both the menus and the saves, which each use it.

use crate::play::referee::{MatchSetup, Player};
use bevy::prelude::*;
use fanorona_engine::levels::Level;
use fanorona_engine::{GameResult, Rules, Side, Vela};

/// Who plays in the game being set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the CPU.
    VsCpu,
    /// Two people at one screen.
    HotSeat,
    /// The CPU against itself.
    CpuVsCpu,
}

/// The new-game form, kept between games.
#[derive(Resource, Clone, Debug)]
pub struct SetupForm {
    /// Who plays.
    pub mode: Mode,
    /// The person's colour against the CPU.
    pub colour: Side,
    /// CPU level 1–5.
    pub level: u8,
    /// Rule options (variant included).
    pub rules: Rules,
    /// A vela match: after a decided game the loser may claim a vela game.
    pub vela_match: bool,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            mode: Mode::VsCpu,
            colour: Side::White,
            level: Level::Intermediate.number(),
            rules: Rules::default(),
            vela_match: false,
        }
    }
}

impl SetupForm {
    /// The match this form describes.
    pub fn to_setup(&self, seed: u64) -> MatchSetup {
        let cpu = Player::Cpu(Level::from_number(self.level).unwrap_or_default());
        let players = match self.mode {
            Mode::HotSeat => [Player::Human, Player::Human],
            Mode::CpuVsCpu => [cpu, cpu],
            Mode::VsCpu if self.colour == Side::White => [Player::Human, cpu],
            Mode::VsCpu => [cpu, Player::Human],
        };
        MatchSetup { rules: self.rules, players, seed, vela_match: self.vela_match }
    }
}

/// The vela game that may follow a game with `result` under `rules` in a vela match: who claims it and its rules.
/// The loser of a game claims one; whoever loses a vela game plays vela again; winning one restores equal terms.
pub fn next_vela(setup: &MatchSetup, rules: &Rules, result: GameResult) -> Option<(Side, Vela)> {
    let GameResult::Win(winner) = result else { return None };
    if !setup.vela_match {
        return None;
    }
    match rules.vela {
        // The helped side (the earlier loser) won: equal terms again.
        Some(v) if v.winner != winner => None,
        _ => Some((winner.opponent(), Vela { winner, captured: 0 })),
    }
}

/// A player's name in game records.
pub fn player_name(p: Player) -> String {
    match p {
        Player::Human => "Player".into(),
        Player::Cpu(l) => format!("CPU ({})", l.name()),
        Player::Remote => "Online player".into(),
    }
}
