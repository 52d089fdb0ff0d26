//! The guided first game: short lessons that make the player do each rule on the board, then a first game.
//!
//! Each lesson sets up a position on the small board and asks for one turn (a paika, an approach, a withdrawal,
//! the better of the two, a compulsory capture, a relay, a relay within its limits, a relay stopped early). The
//! referee plays the turn as in a game; when it ends, [`judge`] says whether it did what the lesson asked. A
//! wrong turn is explained in the panel and a right turn is drawn on the board as arrows; "Try again" sets the
//! position up anew. The last lesson starts a real game on the 5 × 5 board against Beginner. The lessons are
//! offered once on the first start (the title's prompt) and are always on the title's menu.

use crate::i18n::{t, tf};
use crate::platform::redraw::WakeOn;
use crate::play::arrows::{ArrowPath, ArrowStyle, BoardArrows};
use crate::play::board::BoardFrame;
use crate::play::input::Selection;
use crate::play::referee::{
    GameSet, GameState, LoadGame, MatchSetup, MoveAction, MoveRequest, NewGame, Player, RequestRejected, TurnEnded,
};
use crate::save::persist::PlayerStats;
use crate::save::storage::Storage;
use crate::screens::widgets::side_panel;
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::levels::Level;
use fanorona_engine::{Game, Position, Rules, StepKind, Turn, Variant};

/// What a lesson asks the player to do with their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Any paika move.
    Paika,
    /// A capture whose first step is an approach.
    Approach,
    /// A capture whose first step is a withdrawal.
    Withdrawal,
    /// The turn that takes the most pieces.
    MostPieces,
    /// Any capture (the lesson on compulsory capture: a paika is refused by the rules themselves).
    AnyCapture,
    /// A capture, then ending the relay while it could go on.
    StopAfterOne,
}

/// One lesson: its texts' key, the position (White to move) and what it asks.
#[derive(Clone, Copy, Debug)]
pub struct LessonDef {
    /// Names the lesson (in the saved progress) and its texts: `lessons.<id>.title` and `lessons.<id>.text`.
    pub id: &'static str,
    /// The position, as FEN on the 5 × 5 board.
    pub fen: &'static str,
    /// What the player must do.
    pub goal: Goal,
}

/// The lessons, in order. The first game against Beginner follows the last.
pub const LESSONS: [LessonDef; 8] = [
    LessonDef { id: "paika", fen: "2B2/5/5/5/2W2 w", goal: Goal::Paika },
    LessonDef { id: "approach", fen: "2B2/2B2/5/2W2/5 w", goal: Goal::Approach },
    LessonDef { id: "withdrawal", fen: "2B2/2B2/2W2/5/5 w", goal: Goal::Withdrawal },
    LessonDef { id: "choice", fen: "2B2/2B2/2W2/5/2B2 w", goal: Goal::MostPieces },
    LessonDef { id: "compulsory", fen: "5/5/B3B/5/WW1WW w", goal: Goal::AnyCapture },
    LessonDef { id: "relay", fen: "5/1BB2/2B2/B4/2W2 w", goal: Goal::MostPieces },
    LessonDef { id: "limits", fen: "2B1B/5/5/2W2/2B2 w", goal: Goal::MostPieces },
    LessonDef { id: "stop", fen: "5/5/2B2/4B/2W2 w", goal: Goal::StopAfterOne },
];

/// How a turn met its lesson's goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It did what the lesson asked.
    Right,
    /// It did not; the key of the explanation (`lessons.wrong.*`).
    Wrong(&'static str),
}

impl LessonDef {
    /// The lesson's position.
    pub fn position(&self) -> Position {
        Position::from_fen(self.fen).expect("the lessons' positions are tested")
    }

    /// The lesson's title, translated.
    pub fn title(&self) -> &'static str {
        match self.id {
            "paika" => t("lessons.paika.title"),
            "approach" => t("lessons.approach.title"),
            "withdrawal" => t("lessons.withdrawal.title"),
            "choice" => t("lessons.choice.title"),
            "compulsory" => t("lessons.compulsory.title"),
            "relay" => t("lessons.relay.title"),
            "limits" => t("lessons.limits.title"),
            _ => t("lessons.stop.title"),
        }
    }

    /// What the lesson explains and asks, translated.
    pub fn text(&self) -> &'static str {
        match self.id {
            "paika" => t("lessons.paika.text"),
            "approach" => t("lessons.approach.text"),
            "withdrawal" => t("lessons.withdrawal.text"),
            "choice" => t("lessons.choice.text"),
            "compulsory" => t("lessons.compulsory.text"),
            "relay" => t("lessons.relay.text"),
            "limits" => t("lessons.limits.text"),
            _ => t("lessons.stop.text"),
        }
    }

    /// A turn that meets the goal (the one drawn after a wrong try).
    pub fn model_turn(&self) -> Option<Turn> {
        let pos = self.position();
        pos.legal_turns().into_iter().find(|turn| judge(self.goal, &pos, turn) == Verdict::Right)
    }
}

/// The pieces a turn played from `pos` captures.
fn pieces_taken(pos: &Position, turn: &Turn) -> u32 {
    let mut after = *pos;
    match after.play_turn(turn) {
        Ok(_) => pos.count(pos.side_to_move().opponent()) - after.count(pos.side_to_move().opponent()),
        Err(_) => 0,
    }
}

/// Whether `turn`, played from `pos`, does what `goal` asks.
pub fn judge(goal: Goal, pos: &Position, turn: &Turn) -> Verdict {
    let first = turn.steps.first().map(|s| s.kind);
    let captures = turn.steps.iter().filter(|s| s.kind.is_capture()).count();
    match goal {
        Goal::Paika if first == Some(StepKind::Paika) => Verdict::Right,
        Goal::Paika => Verdict::Wrong("lessons.wrong.paika"),
        Goal::Approach if first == Some(StepKind::Approach) => Verdict::Right,
        Goal::Approach => Verdict::Wrong("lessons.wrong.approach"),
        Goal::Withdrawal if first == Some(StepKind::Withdrawal) => Verdict::Right,
        Goal::Withdrawal => Verdict::Wrong("lessons.wrong.withdrawal"),
        Goal::AnyCapture if captures > 0 => Verdict::Right,
        Goal::AnyCapture => Verdict::Wrong("lessons.wrong.capture"),
        Goal::MostPieces => {
            let best = pos.legal_turns().iter().map(|t| pieces_taken(pos, t)).max().unwrap_or(0);
            if pieces_taken(pos, turn) >= best {
                Verdict::Right
            } else if turn.steps.iter().any(|s| s.kind == StepKind::Stop) || captures < 2 {
                Verdict::Wrong("lessons.wrong.more")
            } else {
                Verdict::Wrong("lessons.wrong.most")
            }
        }
        Goal::StopAfterOne if captures == 1 => Verdict::Right,
        Goal::StopAfterOne => Verdict::Wrong("lessons.wrong.stop"),
    }
}

/// The lesson on screen and how the player's last try went.
#[derive(Resource, Clone, Debug, Default)]
pub struct LessonRun {
    /// Index into [`LESSONS`]; `LESSONS.len()` is the closing page (the first game).
    pub index: usize,
    /// The verdict on the last turn played, if any.
    pub verdict: Option<Verdict>,
    /// The last refusal of the rules (a paika while a capture exists, a forbidden relay step), in words.
    pub refused: Option<String>,
}

/// Moves within the lessons; the panel's buttons and the title write these, so tests drive lessons the same way.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LessonNav {
    /// Open lesson `n` (0: the first).
    Open(usize),
    /// Set the current lesson's position up again.
    Retry,
    /// The next lesson (or the closing page).
    Next,
    /// The previous lesson.
    Previous,
    /// Start the first game: 5 × 5 against Beginner.
    FirstGame,
    /// Back to the title.
    Close,
    /// The player answered the first start's offer (either way): it is not offered again.
    Offered,
}

/// Adds the lessons.
pub fn plugin(app: &mut App) {
    app.add_woken_message::<LessonNav>()
        .init_resource::<LessonRun>()
        .add_systems(Update, navigate.in_set(GameSet::Request))
        .add_systems(Update, judge_turns.in_set(GameSet::Present).run_if(in_state(Screen::Lesson)))
        .add_systems(OnExit(Screen::Lesson), |mut arrows: ResMut<BoardArrows>, mut frame: ResMut<BoardFrame>| {
            *arrows = BoardArrows::default();
            *frame = BoardFrame::default();
        })
        .add_systems(EguiPrimaryContextPass, lesson_panel.run_if(in_state(Screen::Lesson)));
}

/// Sets lesson `index` up on the board.
fn open(index: usize, run: &mut LessonRun, setup: &mut MatchSetup, loads: &mut MessageWriter<LoadGame>) {
    *run = LessonRun { index, verdict: None, refused: None };
    let Some(def) = LESSONS.get(index) else { return };
    let rules = Rules { variant: Variant::Dimy, ..Rules::default() };
    *setup = MatchSetup { rules, players: [Player::Human, Player::Human], seed: setup.seed, vela_match: false };
    loads.write(LoadGame(Game::from_position(def.position(), rules)));
}

#[allow(clippy::too_many_arguments)]
fn navigate(
    mut nav: MessageReader<LessonNav>,
    mut run: ResMut<LessonRun>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut new: MessageWriter<NewGame>,
    mut next: ResMut<NextState<Screen>>,
    mut sel: ResMut<Selection>,
    mut arrows: ResMut<BoardArrows>,
    mut stats: ResMut<PlayerStats>,
    storage: Option<Res<Storage>>,
) {
    for n in nav.read() {
        *sel = Selection::default();
        *arrows = BoardArrows::default();
        match *n {
            LessonNav::Open(i) => {
                open(i.min(LESSONS.len()), &mut run, &mut setup, &mut loads);
                next.set(Screen::Lesson);
            }
            LessonNav::Retry => {
                let i = run.index;
                open(i, &mut run, &mut setup, &mut loads);
            }
            LessonNav::Next => {
                let i = (run.index + 1).min(LESSONS.len());
                open(i, &mut run, &mut setup, &mut loads);
            }
            LessonNav::Previous => {
                let i = run.index.saturating_sub(1);
                open(i, &mut run, &mut setup, &mut loads);
            }
            LessonNav::FirstGame => {
                *setup = MatchSetup {
                    rules: Rules { variant: Variant::Dimy, ..Rules::default() },
                    players: [Player::Human, Player::Cpu(Level::Beginner)],
                    seed: setup.seed,
                    vela_match: false,
                };
                new.write(NewGame);
                next.set(Screen::Playing);
            }
            LessonNav::Close => next.set(Screen::Title),
            LessonNav::Offered => {}
        }
        if matches!(n, LessonNav::Offered | LessonNav::Open(_)) && !stats.0.lessons_offered {
            stats.0.lessons_offered = true;
            if let Some(storage) = storage.as_deref() {
                // A failed write only means the offer comes once more; the game goes on.
                let _ = storage.save(&stats.0);
            }
        }
    }
}

/// Judges each turn the player finishes, and notes the rules' refusals so that the panel can explain them.
fn judge_turns(
    mut turns: MessageReader<TurnEnded>,
    mut refusals: MessageReader<RequestRejected>,
    state: Res<GameState>,
    mut run: ResMut<LessonRun>,
    mut arrows: ResMut<BoardArrows>,
    mut stats: ResMut<PlayerStats>,
    storage: Option<Res<Storage>>,
) {
    for r in refusals.read() {
        run.refused = Some(r.reason.clone());
    }
    let Some(def) = LESSONS.get(run.index) else {
        turns.clear();
        return;
    };
    for _ in turns.read() {
        let game = state.game();
        let (Some(turn), Some(start)) = (game.turns().first(), game.turn_starts().first()) else { continue };
        // A turn of the game shown before the lesson opened (the title's) may still be reported: not the lesson's.
        if *start != def.position() || game.turns().len() != 1 {
            continue;
        }
        let verdict = judge(def.goal, start, turn);
        run.verdict = Some(verdict);
        run.refused = None;
        if verdict == Verdict::Right {
            let id = def.id.to_string();
            if !stats.0.lessons_done.contains(&id) {
                stats.0.lessons_done.push(id);
                if let Some(storage) = storage.as_deref() {
                    let _ = storage.save(&stats.0);
                }
            }
        } else if let Some(model) = def.model_turn() {
            // Show on the board what would have done it.
            arrows.paths = vec![ArrowPath::of_turn(start, &model, ArrowStyle::Best)];
            arrows.hide_last = false;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn lesson_panel(
    mut contexts: EguiContexts,
    run: Res<LessonRun>,
    state: Res<GameState>,
    mut nav: MessageWriter<LessonNav>,
    mut requests: MessageWriter<MoveRequest>,
    mut frame: ResMut<BoardFrame>,
    stats: Res<PlayerStats>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    side_panel(ctx, "lesson", 310.0, &mut frame, |ui| {
        ui.add_space(6.0);
        let total = LESSONS.len();
        let Some(def) = LESSONS.get(run.index) else {
            ui.heading(egui::RichText::new(t("lessons.final.title")).color(colors::GOLD));
            ui.add_space(6.0);
            ui.label(t("lessons.final.text"));
            ui.add_space(10.0);
            if ui.button(t("lessons.final.play")).clicked() {
                nav.write(LessonNav::FirstGame);
            }
            if ui.button(t("lessons.previous")).clicked() {
                nav.write(LessonNav::Previous);
            }
            if ui.button(t("lessons.close")).clicked() {
                nav.write(LessonNav::Close);
            }
            return;
        };
        ui.label(
            egui::RichText::new(tf("lessons.progress", &[("n", (run.index + 1).into()), ("total", total.into())]))
                .color(colors::DIM),
        );
        let done = stats.0.lessons_done.iter().any(|d| d == def.id);
        let title = if done { format!("{} ✔", def.title()) } else { def.title().to_string() };
        ui.heading(egui::RichText::new(title).color(colors::GOLD));
        ui.add_space(6.0);
        ui.label(def.text());
        ui.add_space(8.0);
        let game = state.game();
        // Always there, greyed out outside a relay, so that it never pushes the texts and buttons below it.
        if ui.add_enabled(game.position().in_relay(), egui::Button::new(t("hud.end_turn"))).clicked() {
            requests.write(MoveRequest::new(MoveAction::EndTurn));
        }
        if let Some(reason) = &run.refused {
            ui.label(
                egui::RichText::new(tf("lessons.refused", &[("reason", reason.as_str().into())])).color(colors::WARN),
            );
        }
        match run.verdict {
            Some(Verdict::Right) => {
                ui.label(egui::RichText::new(t("lessons.right")).size(18.0).color(colors::GOOD));
            }
            Some(Verdict::Wrong(key)) => {
                ui.label(egui::RichText::new(t(key)).color(colors::WARN));
                ui.label(egui::RichText::new(t("lessons.shown")).small().color(colors::DIM));
            }
            None => {}
        }
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            if ui.add_enabled(run.index > 0, egui::Button::new(t("lessons.previous"))).clicked() {
                nav.write(LessonNav::Previous);
            }
            if ui.button(t("lessons.retry")).clicked() {
                nav.write(LessonNav::Retry);
            }
            let next = egui::Button::new(t("lessons.next"));
            let next = if run.verdict == Some(Verdict::Right) { next.fill(colors::GO) } else { next };
            if ui.add(next).clicked() {
                nav.write(LessonNav::Next);
            }
        });
        ui.add_space(6.0);
        if ui.button(t("lessons.close")).clicked() {
            nav.write(LessonNav::Close);
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::Side;

    #[test]
    fn every_lesson_can_be_done_and_done_wrong_where_a_choice_exists() {
        for def in LESSONS {
            let pos = def.position();
            assert_eq!(pos.variant(), Variant::Dimy, "{}", def.id);
            assert_eq!(pos.side_to_move(), Side::White, "{}", def.id);
            let turns = pos.legal_turns();
            let right: Vec<&Turn> = turns.iter().filter(|t| judge(def.goal, &pos, t) == Verdict::Right).collect();
            assert!(!right.is_empty(), "{}: no turn meets the goal", def.id);
            assert_eq!(def.model_turn().as_ref(), right.first().copied(), "{}", def.id);
            let wrong = turns.len() - right.len();
            match def.id {
                // These lessons are only about doing a kind of turn: every legal turn is one.
                "paika" | "approach" | "withdrawal" | "compulsory" => assert_eq!(wrong, 0, "{}", def.id),
                _ => assert!(wrong > 0, "{}: no wrong turn to learn from", def.id),
            }
        }
    }

    #[test]
    fn the_choice_lesson_wants_the_withdrawal_that_takes_two() {
        let def = LESSONS.iter().find(|d| d.id == "choice").expect("lesson");
        let pos = def.position();
        let approach: Turn = "c3-c2A".parse().expect("notation");
        let withdrawal: Turn = "c3-c2W".parse().expect("notation");
        assert_eq!(judge(def.goal, &pos, &approach), Verdict::Wrong("lessons.wrong.more"));
        assert_eq!(judge(def.goal, &pos, &withdrawal), Verdict::Right);
    }

    #[test]
    fn the_relay_lessons_want_the_whole_relay() {
        let relay = LESSONS.iter().find(|d| d.id == "relay").expect("lesson");
        let pos = relay.position();
        let short: Turn = "c1-c2A".parse().expect("notation");
        let whole: Turn = "c1-c2A c2-b2A b2-b3A".parse().expect("notation");
        assert!(matches!(judge(relay.goal, &pos, &short), Verdict::Wrong(_)));
        assert_eq!(judge(relay.goal, &pos, &whole), Verdict::Right);
        let limits = LESSONS.iter().find(|d| d.id == "limits").expect("lesson");
        let whole: Turn = "c2-c3W c3-d4A d4-e3W".parse().expect("notation");
        assert_eq!(judge(limits.goal, &limits.position(), &whole), Verdict::Right);
        // Going on north after the first step would be the same direction twice: not a legal turn at all.
        let mut pos = limits.position();
        assert!(pos.play_turn(&"c2-c3W c3-c4A".parse().expect("notation")).is_err());
    }

    #[test]
    fn the_stop_lesson_wants_one_capture() {
        let def = LESSONS.iter().find(|d| d.id == "stop").expect("lesson");
        let pos = def.position();
        assert_eq!(judge(def.goal, &pos, &"c1-c2A".parse().expect("notation")), Verdict::Right);
        assert_eq!(
            judge(def.goal, &pos, &"c1-c2A c2-d2A".parse().expect("notation")),
            Verdict::Wrong("lessons.wrong.stop")
        );
    }
}
