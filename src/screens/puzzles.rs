//! Puzzle mode: positions from the engine's verified puzzle set, picked near the player's puzzle rating.
//!
//! The player plays the solver's turns on the board as in a game; each finished turn is checked by the puzzle
//! ([`Puzzle::check`]). A right turn is answered by the opponent's reply from the solution, a wrong one is explained
//! (it takes fewer pieces, it loses pieces, the other capture kind was right…) and the position is set up again.
//! "Show solution" plays the rest of the solution, animated. The first attempt at each puzzle changes the rating
//! (an Elo update, see the engine's `puzzles::update`); rating and counts are kept with the stats.

use crate::i18n::{t, tf};
use crate::platform::redraw::WakeOn;
use crate::play::arrows::BoardArrows;
use crate::play::board::BoardFrame;
use crate::play::input::Selection;
use crate::play::referee::{
    AnimationsPending, GameSet, GameState, LoadGame, MatchSetup, MoveAction, MoveRequest, Player, RequestRejected,
    TurnEnded,
};
use crate::save::persist::PlayerStats;
use crate::save::storage::Storage;
use crate::screens::widgets::{report_button, side_panel};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::puzzles::{self, Check, Kind, Miss, Puzzle, Rating};
use fanorona_engine::{Game, Rules, Turn};

/// How many of the puzzles nearest the player's rating the next one is drawn from.
const NEAREST: usize = 12;
/// How many recent puzzles are not offered again.
const RECENT: usize = 20;

/// Where the player stands in the current puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right so far; the opponent's reply follows.
    Right,
    /// Solved.
    Solved,
    /// Wrong, and why.
    Wrong(Miss),
    /// The solution was shown.
    Shown,
}

/// The puzzle being solved.
#[derive(Resource, Clone, Debug, Default)]
pub struct PuzzleRun {
    /// The whole set (the engine's built-in puzzles), read once.
    pub set: Vec<Puzzle>,
    /// Index of the current puzzle in `set`.
    pub current: usize,
    /// Index in the solution of the solver's next turn.
    pub step: usize,
    /// The last verdict.
    pub verdict: Option<Verdict>,
    /// Whether this puzzle already counted for the rating (only the first attempt does).
    pub rated: bool,
    /// Turns still to play on the board (a reply, or the rest of a shown solution), one per finished animation.
    pub queue: Vec<Turn>,
    /// The puzzles played recently, most recent last.
    pub recent: Vec<usize>,
    /// The rules' last refusal, in words.
    pub refused: Option<String>,
}

impl PuzzleRun {
    /// The current puzzle.
    pub fn puzzle(&self) -> Option<&Puzzle> {
        self.set.get(self.current)
    }
}

/// What the puzzle screen is asked to do.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleNav {
    /// Open the puzzle mode with a puzzle near the player's rating.
    Open,
    /// Open this puzzle of the set (tests, links).
    Puzzle(usize),
    /// The next puzzle near the rating.
    Next,
    /// Set the current position up again after a wrong turn.
    Retry,
    /// Play the rest of the solution.
    ShowSolution,
    /// Back to the title.
    Close,
}

/// Adds the puzzle mode.
pub fn plugin(app: &mut App) {
    app.add_woken_message::<PuzzleNav>()
        .init_resource::<PuzzleRun>()
        .add_systems(Update, navigate.in_set(GameSet::Request))
        .add_systems(Update, (judge, play_queue).chain().in_set(GameSet::Present).run_if(in_state(Screen::Puzzle)))
        .add_systems(OnExit(Screen::Puzzle), |mut arrows: ResMut<BoardArrows>, mut frame: ResMut<BoardFrame>| {
            *arrows = BoardArrows::default();
            *frame = BoardFrame::default();
        })
        .add_systems(EguiPrimaryContextPass, panel.run_if(in_state(Screen::Puzzle)));
}

/// The puzzle to offer: one of the [`NEAREST`] to `rating`, not played recently, drawn with `seed`.
pub fn pick(set: &[Puzzle], rating: f32, recent: &[usize], seed: u64) -> Option<usize> {
    let mut order: Vec<usize> = (0..set.len()).filter(|i| !recent.contains(i)).collect();
    if order.is_empty() {
        order = (0..set.len()).collect();
    }
    order.sort_by(|&a, &b| {
        let da = (set[a].rating as f32 - rating).abs();
        let db = (set[b].rating as f32 - rating).abs();
        da.total_cmp(&db).then(a.cmp(&b))
    });
    order.truncate(NEAREST);
    (!order.is_empty()).then(|| order[(seed % order.len() as u64) as usize])
}

/// Sets the position before solution turn `step` of the current puzzle up on the board.
fn set_up(run: &mut PuzzleRun, setup: &mut MatchSetup, loads: &mut MessageWriter<LoadGame>) {
    run.queue.clear();
    run.refused = None;
    let Some(p) = run.puzzle() else { return };
    let Some(pos) = p.position_at(run.step) else { return };
    let rules = Rules { variant: pos.variant(), ..Rules::default() };
    *setup = MatchSetup { rules, players: [Player::Human, Player::Human], seed: setup.seed, vela_match: false };
    loads.write(LoadGame(Game::from_position(pos, rules)));
}

#[allow(clippy::too_many_arguments)]
fn navigate(
    mut nav: MessageReader<PuzzleNav>,
    mut run: ResMut<PuzzleRun>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut next: ResMut<NextState<Screen>>,
    mut sel: ResMut<Selection>,
    mut arrows: ResMut<BoardArrows>,
    stats: Res<PlayerStats>,
    time: Res<Time<Real>>,
) {
    for n in nav.read() {
        *sel = Selection::default();
        *arrows = BoardArrows::default();
        if run.set.is_empty() {
            run.set = puzzles::builtin();
        }
        let open = |run: &mut PuzzleRun, i: usize| {
            run.current = i;
            run.step = 0;
            run.verdict = None;
            run.rated = false;
            run.recent.push(i);
            if run.recent.len() > RECENT {
                run.recent.remove(0);
            }
        };
        match *n {
            PuzzleNav::Open | PuzzleNav::Next => {
                let seed = time.elapsed().as_nanos() as u64;
                let Some(i) = pick(&run.set, stats.0.puzzles.rating, &run.recent, seed) else { continue };
                open(&mut run, i);
                set_up(&mut run, &mut setup, &mut loads);
                next.set(Screen::Puzzle);
            }
            PuzzleNav::Puzzle(i) if i < run.set.len() => {
                open(&mut run, i);
                set_up(&mut run, &mut setup, &mut loads);
                next.set(Screen::Puzzle);
            }
            PuzzleNav::Puzzle(_) => {}
            PuzzleNav::Retry => {
                run.verdict = None;
                set_up(&mut run, &mut setup, &mut loads);
            }
            PuzzleNav::ShowSolution => {
                set_up(&mut run, &mut setup, &mut loads);
                let rest = run.puzzle().map(|p| p.solution[run.step.min(p.solution.len())..].to_vec());
                run.queue = rest.unwrap_or_default();
                run.queue.reverse();
                run.verdict = Some(Verdict::Shown);
            }
            PuzzleNav::Close => next.set(Screen::Title),
        }
    }
}

/// Checks each turn the solver finishes, and counts the first attempt for the rating.
#[allow(clippy::too_many_arguments)]
fn judge(
    mut turns: MessageReader<TurnEnded>,
    mut refusals: MessageReader<RequestRejected>,
    mut run: ResMut<PuzzleRun>,
    state: Res<GameState>,
    mut stats: ResMut<PlayerStats>,
    storage: Option<Res<Storage>>,
) {
    for r in refusals.read() {
        run.refused = Some(r.reason.clone());
    }
    let ended: Vec<TurnEnded> = turns.read().cloned().collect();
    if run.verdict == Some(Verdict::Shown) {
        return;
    }
    let Some(puzzle) = run.puzzle().cloned() else { return };
    let solver = puzzle.position.side_to_move();
    for t in ended.iter().filter(|t| t.side == solver) {
        // Only a turn played from the puzzle's position: a turn of the game shown before the puzzle opened (the
        // title's) may still be reported in the first frames.
        let game = state.game();
        let before = game.turns().len().checked_sub(1).and_then(|i| game.turn_starts().get(i));
        if before.copied() != puzzle.position_at(run.step) || game.turns().last() != Some(&t.turn) {
            continue;
        }
        run.refused = None;
        let outcome = puzzle.check(run.step, &t.turn);
        let (verdict, solved) = match outcome {
            Check::Correct { reply } => {
                run.step += 2;
                run.queue = vec![reply];
                (Verdict::Right, None)
            }
            Check::Solved => (Verdict::Solved, Some(true)),
            Check::Wrong { why } => (Verdict::Wrong(why), Some(false)),
        };
        run.verdict = Some(verdict);
        if let Some(solved) = solved
            && !run.rated
        {
            run.rated = true;
            let p = &mut stats.0.puzzles;
            let after = puzzles::update(Rating { value: p.rating, attempts: p.attempts }, puzzle.rating as f32, solved);
            p.rating = after.value;
            p.attempts = after.attempts;
            p.solved += u32::from(solved);
            if let Some(storage) = storage.as_deref() {
                // A failed write loses only this update; the notice system reports storage trouble elsewhere.
                let _ = storage.save(&stats.0);
            }
        }
    }
}

/// Plays the queued turns (the opponent's reply, a shown solution) one at a time, after the animations.
fn play_queue(mut run: ResMut<PuzzleRun>, busy: Res<AnimationsPending>, mut requests: MessageWriter<MoveRequest>) {
    if busy.0 {
        return;
    }
    if let Some(turn) = run.queue.pop() {
        requests.write(MoveRequest::new(MoveAction::Turn(turn)));
    }
}

/// What a puzzle asks, translated.
pub fn kind_text(kind: Kind) -> String {
    match kind {
        Kind::WinIn(n) => tf("puzzles.kind_win", &[("n", n.into())]),
        Kind::BiggestRelay => t("puzzles.kind_relay").to_string(),
        Kind::SaveYourPieces => t("puzzles.kind_save").to_string(),
        Kind::ApproachOrWithdrawal => t("puzzles.kind_choice").to_string(),
    }
}

/// Why an answer was wrong, translated.
pub fn miss_text(miss: Miss) -> String {
    match miss {
        Miss::NoSuchStep | Miss::Illegal => t("puzzles.miss_illegal").to_string(),
        Miss::CapturesFewer { took, most } => tf("puzzles.miss_fewer", &[("took", took.into()), ("most", most.into())]),
        Miss::LosesPieces { pieces } => tf("puzzles.miss_loses", &[("pieces", pieces.into())]),
        Miss::WrongCaptureKind => t("puzzles.miss_kind").to_string(),
        Miss::NotBest => t("puzzles.miss_not_best").to_string(),
    }
}

fn panel(
    mut contexts: EguiContexts,
    run: Res<PuzzleRun>,
    stats: Res<PlayerStats>,
    state: Res<GameState>,
    mut nav: MessageWriter<PuzzleNav>,
    mut requests: MessageWriter<MoveRequest>,
    mut frame: ResMut<BoardFrame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    side_panel(ctx, "puzzle", 310.0, &mut frame, |ui| {
        let p = &stats.0.puzzles;
        ui.label(
            egui::RichText::new(tf(
                "puzzles.rating",
                &[
                    ("rating", format!("{:.0}", p.rating).into()),
                    ("solved", p.solved.into()),
                    ("tried", p.attempts.into()),
                ],
            ))
            .color(colors::DIM),
        );
        // The buttons first, always all there (greyed out when they do nothing): the texts below them come and go
        // as the player plays, and a button must not move while the pointer is on its way to it.
        let puzzle = run.puzzle();
        let wrong = matches!(run.verdict, Some(Verdict::Wrong(_)));
        let finished = matches!(run.verdict, Some(Verdict::Solved | Verdict::Shown));
        ui.horizontal(|ui| {
            let relay = puzzle.is_some() && state.position().in_relay();
            let end = ui.add_enabled(relay, egui::Button::new(t("hud.end_turn")));
            if report_button(ui, "puzzle_end_turn", &end).clicked() {
                requests.write(MoveRequest::new(MoveAction::EndTurn));
            }
            let retry = ui.add_enabled(puzzle.is_some() && wrong, egui::Button::new(t("lessons.retry")));
            if report_button(ui, "puzzle_retry", &retry).clicked() {
                nav.write(PuzzleNav::Retry);
            }
            let show = ui.add_enabled(puzzle.is_some() && !finished, egui::Button::new(t("puzzles.show_solution")));
            if report_button(ui, "puzzle_show_solution", &show).clicked() {
                nav.write(PuzzleNav::ShowSolution);
            }
        });
        ui.horizontal(|ui| {
            let next = egui::Button::new(t("puzzles.next"));
            let next = if run.verdict == Some(Verdict::Solved) { next.fill(colors::GO) } else { next };
            let next = ui.add_enabled(puzzle.is_some(), next);
            if report_button(ui, "puzzle_next", &next).clicked() {
                nav.write(PuzzleNav::Next);
            }
            let close = ui.button(t("lessons.close"));
            if report_button(ui, "puzzle_close", &close).clicked() {
                nav.write(PuzzleNav::Close);
            }
        });
        ui.separator();
        let Some(puzzle) = puzzle else {
            ui.label(t("puzzles.none"));
            return;
        };
        ui.heading(egui::RichText::new(kind_text(puzzle.kind)).color(colors::GOLD));
        ui.label(tf(
            "puzzles.to_move",
            &[
                ("side", crate::i18n::side_name(puzzle.position.side_to_move()).into()),
                ("rating", puzzle.rating.into()),
            ],
        ));
        if let Some(reason) = &run.refused {
            ui.label(
                egui::RichText::new(tf("lessons.refused", &[("reason", reason.as_str().into())])).color(colors::WARN),
            );
        }
        match &run.verdict {
            Some(Verdict::Right) => {
                ui.label(egui::RichText::new(t("puzzles.right")).color(colors::GOOD));
            }
            Some(Verdict::Solved) => {
                ui.label(egui::RichText::new(t("puzzles.solved")).size(18.0).color(colors::GOOD));
            }
            Some(Verdict::Wrong(miss)) => {
                ui.label(egui::RichText::new(miss_text(*miss)).color(colors::WARN));
            }
            Some(Verdict::Shown) => {
                ui.label(egui::RichText::new(t("puzzles.shown")).color(colors::DIM));
            }
            None => {}
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_near_the_rating_and_not_a_recent_one() {
        let base = Puzzle {
            kind: Kind::BiggestRelay,
            rating: 0,
            position: fanorona_engine::Position::start(&Rules::default()),
            solution: Vec::new(),
            theme: String::new(),
        };
        let set: Vec<Puzzle> = (0..40).map(|i| Puzzle { rating: 800 + i * 50, ..base.clone() }).collect();
        for seed in 0..50 {
            let i = pick(&set, 1500.0, &[], seed).expect("a puzzle");
            assert!((set[i].rating as f32 - 1500.0).abs() <= 300.0, "rating {}", set[i].rating);
        }
        let recent: Vec<usize> = (0..40).filter(|&i| i != 3).collect();
        assert_eq!(pick(&set, 1500.0, &recent, 7), Some(3), "only the one not played recently");
        assert_eq!(pick(&[], 1500.0, &[], 7), None);
    }
}
