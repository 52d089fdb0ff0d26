//! The engine's texts (sides, levels, outcomes, refused steps, scores) in the current language.
//!
//! The engine writes English for logs and the command line; the game shows its own translations of the same
//! values, matched on the engine's enums.

use super::capitalise;
use super::{FluentValue, t, tf};
use fanorona_engine::geometry::point_name;
use fanorona_engine::levels::Level;
use fanorona_engine::search::Score;
use fanorona_engine::{DrawReason, GameResult, IllegalReason, Outcome, Side};

/// "White" or "Black", capitalised as a name.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => t("side.white"),
        Side::Black => t("side.black"),
    }
}

/// "W" or "B": the side in the move list.
pub fn side_initial(side: Side) -> &'static str {
    match side {
        Side::White => t("side.white_initial"),
        Side::Black => t("side.black_initial"),
    }
}

/// The name of a CPU level ("Beginner" … "Master").
pub fn level_name(level: Level) -> &'static str {
    match level {
        Level::Beginner => t("level.beginner"),
        Level::Novice => t("level.novice"),
        Level::Intermediate => t("level.intermediate"),
        Level::Advanced => t("level.advanced"),
        Level::Master => t("level.master"),
    }
}

/// The result alone: "White wins", "Black wins" or "Draw".
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::Win(Side::White) => t("result.white_wins"),
        GameResult::Win(Side::Black) => t("result.black_wins"),
        GameResult::Draw => t("result.draw"),
    }
}

/// Why the game ended, as it follows a colon: "Black has no pieces left", "draw by repetition" (lower case but
/// for the sides' names).
pub fn outcome_reason(outcome: Outcome) -> &'static str {
    let by_loser = |white: &'static str, black: &'static str, winner: Side| match winner.opponent() {
        Side::White => t(white),
        Side::Black => t(black),
    };
    match outcome {
        Outcome::NoPieces { winner } => by_loser("reason.white_no_pieces", "reason.black_no_pieces", winner),
        Outcome::NoMoves { winner } => by_loser("reason.white_no_moves", "reason.black_no_moves", winner),
        Outcome::Resignation { winner } => by_loser("reason.white_resigned", "reason.black_resigned", winner),
        Outcome::Draw(DrawReason::Repetition) => t("reason.draw_repetition"),
        Outcome::Draw(DrawReason::NoCapture) => t("reason.no_capture"),
        Outcome::Draw(DrawReason::Agreement) => t("reason.draw_agreement"),
    }
}

/// The whole outcome, as the engine's `Display` gives it in English but with the sides' names capitalised:
/// "White wins: Black has no pieces left",
/// "Draw by repetition", "Draw: too many turns without a capture".
pub fn outcome_text(outcome: Outcome) -> String {
    let text = match outcome {
        Outcome::Draw(DrawReason::Repetition | DrawReason::Agreement) => outcome_reason(outcome).to_string(),
        _ => tf(
            "outcome.with_reason",
            &[("result", result_text(outcome.result()).into()), ("reason", outcome_reason(outcome).into())],
        ),
    };
    capitalise(&text)
}

/// Why a step is not legal, in lower case (it is capitalised where shown).
pub fn illegal_reason_text(reason: IllegalReason) -> String {
    match reason {
        IllegalReason::GameOver => t("illegal.game_over").to_string(),
        IllegalReason::OffBoard(p) => tf("illegal.off_board", &[("point", point_name(p).to_string().into())]),
        IllegalReason::NotYourPiece(p) => tf("illegal.not_your_piece", &[("point", point_name(p).to_string().into())]),
        IllegalReason::NotJoined => t("illegal.not_joined").to_string(),
        IllegalReason::Occupied(p) => tf("illegal.occupied", &[("point", point_name(p).to_string().into())]),
        IllegalReason::CaptureCompulsory => t("illegal.capture_compulsory").to_string(),
        IllegalReason::NothingToCapture => t("illegal.nothing_to_capture").to_string(),
        IllegalReason::VelaNoCapture => t("illegal.vela_no_capture").to_string(),
        IllegalReason::MustContinueWith(p) => tf("note.relay_only", &[("point", point_name(p).to_string().into())]),
        IllegalReason::SameDirection => t("illegal.same_direction").to_string(),
        IllegalReason::Revisited(p) => tf("illegal.revisited", &[("point", point_name(p).to_string().into())]),
        IllegalReason::SegmentReused => t("illegal.segment_reused").to_string(),
        IllegalReason::RelayMustCapture => t("illegal.relay_must_capture").to_string(),
        IllegalReason::NoRelay => t("illegal.no_relay").to_string(),
    }
}

/// A search score as the engine's [`Score`] shows it in English ("win in 3", "loss in 2", "+0.25"), translated;
/// the turns are a Fluent number, so that a translation may select a plural.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Win(n) => tf("score.win_in", &[("turns", FluentValue::from(n))]),
        Score::Loss(n) => tf("score.loss_in", &[("turns", FluentValue::from(n))]),
        // Only the decimal separator differs between languages; the engine's own form fixes sign and places.
        Score::Eval(_) => decimal(&score.to_string()),
    }
}

/// A number written with a decimal point, with the current language's decimal separator instead.
pub fn decimal(number: &str) -> String {
    number.replace('.', t("number.decimal_separator"))
}
