//! The options that say which position and rules a command starts from, shared by several commands.

use clap::{Args, ValueEnum};
use fanorona_engine::{Position, RelayRule, Rules, Side, Variant, Vela};

/// `--rules`: the relay rule.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum RelayArg {
    /// No same direction twice in a row, no revisiting a point (RULES.md default).
    Default,
    /// Change direction each step, never travel a segment twice.
    Lines,
}

/// A side on the command line.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub(crate) enum SideArg {
    White,
    Black,
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Side {
        match s {
            SideArg::White => Side::White,
            SideArg::Black => Side::Black,
        }
    }
}

/// A board on the command line.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub(crate) enum VariantArg {
    /// 9×5 Fanoron-Tsivy.
    Tsivy,
    /// 5×5 Fanoron-Dimy.
    Dimy,
}

/// The position and the rule options that apply to it.
#[derive(Args)]
pub(crate) struct PositionArgs {
    /// Position in FEN (default: the start position of the variant).
    #[arg(long)]
    fen: Option<String>,
    /// Board for the start position (a FEN decides by its width).
    #[arg(long, value_enum, default_value_t = VariantArg::Tsivy)]
    variant: VariantArg,
    /// Relay restriction.
    #[arg(long, value_enum, default_value_t = RelayArg::Default)]
    rules: RelayArg,
    /// The game's first turn ends after its first capture.
    #[arg(long)]
    first_turn_no_relay: bool,
    /// Each player's first capturing turn ends after one capture.
    #[arg(long)]
    single_first_capture: bool,
    /// Who moves first in the start position.
    #[arg(long, value_enum, default_value_t = SideArg::White)]
    first: SideArg,
    /// Vela game: the previous winner, who may not capture yet.
    #[arg(long, value_enum)]
    vela_winner: Option<SideArg>,
    /// Vela game: how many of the winner's pieces are already captured.
    #[arg(long, default_value_t = 0, requires = "vela_winner")]
    vela_captured: u8,
}

impl PositionArgs {
    /// The rules these options give.
    pub(crate) fn rules(&self) -> Rules {
        Rules {
            variant: match self.variant {
                VariantArg::Tsivy => Variant::Tsivy,
                VariantArg::Dimy => Variant::Dimy,
            },
            first_player: self.first.into(),
            relay: match self.rules {
                RelayArg::Default => RelayRule::Default,
                RelayArg::Lines => RelayRule::Lines,
            },
            first_turn_no_relay: self.first_turn_no_relay,
            single_first_capture: self.single_first_capture,
            vela: self.vela_winner.map(|w| Vela { winner: w.into(), captured: self.vela_captured }),
            ..Rules::default()
        }
    }

    /// The position to start from, under [`PositionArgs::rules`].
    pub(crate) fn position(&self) -> Result<Position, String> {
        let rules = self.rules();
        match &self.fen {
            None => Ok(Position::start(&rules)),
            Some(f) => Position::from_fen_with_rules(f, &rules).map_err(|e| e.to_string()),
        }
    }
}

/// The file `--games PATH` names, opened for appending (created if missing); None without the option.
pub(crate) fn open_game_log(path: Option<&std::path::Path>) -> Result<Option<std::fs::File>, String> {
    path.map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))
    })
    .transpose()
}
