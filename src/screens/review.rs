//! Game review: the engine analyses every turn of a replayed game in the background and the replay shows an
//! evaluation graph, each turn's class (best … blunder) with the better turn drawn as arrows and a one-line
//! explanation, a summary per side, and "play on from here against the CPU".
//!
//! The analysis runs on the async compute pool on the desktop and in slices between frames on the web (each slice
//! reviews one turn with a small node budget), so the screen stays responsive and shows its progress. The review
//! belongs to the replay screen: it starts with [`StartReview`] and ends when the replay closes.

use crate::i18n::{t, tf};
use crate::platform::redraw::{FrameDemand, LoopWaker};
use crate::play::arrows::{ArrowPath, ArrowStyle, BoardArrows};
use crate::play::board::BoardFrame;
use crate::play::cpu::CpuThreading;
use crate::play::referee::GameSet;
use crate::screens::records::{Replay, ReplayNav, StartReview};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, Plot, PlotPoints, Points};
use fanorona_engine::levels::Level;
use fanorona_engine::review::{Class, Note, TurnReview, review_turn, score_pieces, summary};
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::{Game, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How much the engine thinks about each turn.
#[derive(Resource, Clone, Copy, Debug)]
pub struct ReviewLimits(pub Limits);

impl Default for ReviewLimits {
    fn default() -> Self {
        // The web reviews a turn within one slice between frames: a node budget that takes a few tens of
        // milliseconds there. The desktop thinks longer on its own thread.
        if cfg!(target_arch = "wasm32") {
            ReviewLimits(Limits::nodes(40_000))
        } else {
            ReviewLimits(Limits { movetime: Some(Duration::from_millis(400)), ..Limits::default() })
        }
    }
}

/// The reviews found so far, by turn index.
type Found = Arc<Mutex<Vec<Option<TurnReview>>>>;

/// The review of the game being replayed.
#[derive(Resource)]
pub struct Review {
    game: Game,
    found: Found,
    /// The reviews as last read, by turn index (None: not analysed yet).
    pub turns: Vec<Option<TurnReview>>,
    stop: Arc<AtomicBool>,
    task: Option<Task<()>>,
    /// Sliced work (the web): the searcher and the next turn to review.
    sliced: Option<(Searcher, usize)>,
    /// The turn whose arrows are drawn.
    drawn: Option<usize>,
}

impl Drop for Review {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(task) = self.task.take() {
            task.detach();
        }
    }
}

impl Review {
    /// How many turns are reviewed so far.
    pub fn done(&self) -> usize {
        self.turns.iter().filter(|r| r.is_some()).count()
    }

    /// Whether every turn is reviewed.
    pub fn finished(&self) -> bool {
        self.done() == self.turns.len()
    }

    /// The reviewed turns of `side`.
    pub fn of_side(&self, side: Side) -> Vec<TurnReview> {
        self.turns
            .iter()
            .enumerate()
            .filter(|(i, _)| self.game.turn_starts()[*i].side_to_move() == side)
            .filter_map(|(_, r)| r.clone())
            .collect()
    }
}

/// Reviews turn `i` of `game` (None if the record's turn is not legal there, which a loaded game never has).
fn review_one(searcher: &mut Searcher, game: &Game, i: usize, limits: Limits) -> Option<TurnReview> {
    let starts = game.turn_starts();
    // The positions before this turn, for repetitions as in the game.
    let history: Vec<u64> = starts[..i].iter().map(|p| p.hash()).collect();
    review_turn(searcher, &starts[i], &history, &game.turns()[i], limits).ok()
}

/// Adds the review.
pub fn plugin(app: &mut App) {
    app.init_resource::<ReviewLimits>()
        .add_systems(Update, (start, collect).chain().in_set(GameSet::Present).run_if(in_state(Screen::Replay)))
        .add_systems(OnExit(Screen::Replay), |mut commands: Commands, mut arrows: ResMut<BoardArrows>| {
            commands.remove_resource::<Review>();
            *arrows = BoardArrows::default();
        })
        .add_systems(EguiPrimaryContextPass, review_panel.run_if(in_state(Screen::Replay)));
    if crate::platform::web::IN_BROWSER {
        app.add_systems(Last, announce_progress);
    }
}

/// Tells the web page how far the review has got (`review` "done/total"), for its tests.
fn announce_progress(review: Option<Res<Review>>) {
    if let Some(r) = review {
        crate::platform::web::event_once("review", &format!("{}/{}", r.done(), r.turns.len()));
    }
}

fn start(
    mut starts: MessageReader<StartReview>,
    replay: Option<ResMut<Replay>>,
    limits: Res<ReviewLimits>,
    threading: Res<CpuThreading>,
    waker: Res<LoopWaker>,
    mut commands: Commands,
) {
    if starts.read().last().is_none() {
        return;
    }
    let Some(mut replay) = replay else { return };
    replay.reviewing = true;
    let game = replay.game().clone();
    let n = game.turns().len();
    let found: Found = Arc::new(Mutex::new(vec![None; n]));
    let mut searcher = Searcher::new(16);
    searcher.set_draw_rule(game.rules().draw);
    let stop = Arc::new(AtomicBool::new(false));
    let limits = limits.0;
    let (task, sliced) = match *threading {
        CpuThreading::Pool => {
            let (out, stop, waker, game) = (found.clone(), stop.clone(), waker.clone(), game.clone());
            let task = AsyncComputeTaskPool::get().spawn(async move {
                for i in 0..n {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let r = review_one(&mut searcher, &game, i, limits);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = r;
                    waker.wake();
                }
            });
            (Some(task), None)
        }
        CpuThreading::Sliced(_) => (None, Some((searcher, 0))),
    };
    commands.insert_resource(Review { game, found, turns: vec![None; n], stop, task, sliced, drawn: None });
}

/// Reviews a turn per frame when sliced, reads what the pool found, and draws the shown turn's arrows.
fn collect(
    review: Option<ResMut<Review>>,
    replay: Option<Res<Replay>>,
    limits: Res<ReviewLimits>,
    mut demand: ResMut<FrameDemand>,
    mut arrows: ResMut<BoardArrows>,
) {
    let Some(mut review) = review else { return };
    let review = &mut *review;
    if let Some((searcher, next)) = review.sliced.as_mut()
        && *next < review.turns.len()
    {
        let r = review_one(searcher, &review.game, *next, limits.0);
        review.found.lock().unwrap_or_else(|e| e.into_inner())[*next] = r;
        *next += 1;
        demand.next_frame();
    }
    // Copied only when the analysis found something new, not every frame.
    let found = review.found.lock().unwrap_or_else(|e| e.into_inner());
    if *found != review.turns {
        review.turns = found.clone();
        drop(found);
        review.drawn = None;
    }
    // The board shows the position before turn `shown`: draw that turn as played, and the better one.
    let Some(replay) = replay else { return };
    let shown = replay.shown();
    if review.drawn == Some(shown) {
        return;
    }
    review.drawn = Some(shown);
    let mut wanted = BoardArrows::default();
    if let (Some(Some(r)), Some(pos)) = (review.turns.get(shown), review.game.turn_starts().get(shown)) {
        wanted.hide_last = true;
        wanted.paths.push(ArrowPath::of_turn(pos, &review.game.turns()[shown], ArrowStyle::Last));
        if !matches!(r.class, Class::Best | Class::Forced) {
            wanted.paths.push(ArrowPath::of_turn(pos, &r.best, ArrowStyle::Best));
        }
    }
    if *arrows != wanted {
        *arrows = wanted;
    }
}

/// The class's name, translated.
pub fn class_name(class: Class) -> &'static str {
    match class {
        Class::Forced => t("review.class_forced"),
        Class::Best => t("review.class_best"),
        Class::Good => t("review.class_good"),
        Class::Inaccuracy => t("review.class_inaccuracy"),
        Class::Mistake => t("review.class_mistake"),
        Class::Blunder => t("review.class_blunder"),
    }
}

/// The class's colour on the graph and in the list.
fn class_color(class: Class) -> egui::Color32 {
    match class {
        Class::Forced | Class::Best => egui::Color32::from_rgb(120, 200, 120),
        Class::Good => egui::Color32::from_rgb(170, 200, 150),
        Class::Inaccuracy => egui::Color32::from_rgb(230, 200, 90),
        Class::Mistake => egui::Color32::from_rgb(240, 140, 60),
        Class::Blunder => egui::Color32::from_rgb(230, 70, 60),
    }
}

/// A turn's explanation, translated.
pub fn note_text(note: &Note) -> String {
    match note {
        Note::None => String::new(),
        Note::MissedRelay { pieces } => tf("review.note_missed_relay", &[("pieces", (*pieces).into())]),
        Note::AllowedCapture { pieces } => tf("review.note_allowed_capture", &[("pieces", (*pieces).into())]),
        Note::MissedWin => t("review.note_missed_win").to_string(),
        Note::AllowsForcedLoss => t("review.note_allows_loss").to_string(),
    }
}

/// The score of a review for White, in pieces, clamped for the graph.
fn white_pieces(game: &Game, i: usize, r: &TurnReview) -> f64 {
    let mover = game.turn_starts()[i].side_to_move();
    let score = score_pieces(r.played_score) as f64;
    if mover == Side::White { score } else { -score }
}

fn review_panel(
    mut contexts: EguiContexts,
    review: Option<Res<Review>>,
    replay: Option<Res<Replay>>,
    mut nav: MessageWriter<ReplayNav>,
    mut frame: ResMut<BoardFrame>,
) -> Result {
    let (Some(review), Some(replay)) = (review, replay) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let shown = egui::Window::new("review")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
        .show(ctx, |ui| {
            ui.set_width(300.0);
            ui.heading(egui::RichText::new(t("review.title")).color(colors::GOLD));
            if !review.finished() {
                let done = review.done() as f32 / review.turns.len().max(1) as f32;
                ui.add(egui::ProgressBar::new(done).text(tf(
                    "review.progress",
                    &[("done", review.done().into()), ("total", review.turns.len().into())],
                )));
            }
            graph(ui, &review, replay.shown(), &mut nav);
            shown_turn(ui, &review, replay.shown());
            ui.separator();
            for side in Side::BOTH {
                let s = summary(&review.of_side(side));
                ui.label(egui::RichText::new(tf(
                    "review.summary",
                    &[
                        ("side", crate::i18n::side_name(side).into()),
                        ("accuracy", format!("{:.0}", s.accuracy).into()),
                        ("inaccuracies", s.counts[Class::Inaccuracy.index()].into()),
                        ("mistakes", s.counts[Class::Mistake.index()].into()),
                        ("blunders", s.counts[Class::Blunder.index()].into()),
                    ],
                )));
            }
            ui.separator();
            if ui.button(t("review.play_on")).clicked() {
                nav.write(ReplayNav::PlayVsCpu(Level::Advanced));
            }
        });
    // The board fits beside the panel (rounded, so that sub-pixel changes of its size do not refit the camera).
    if let Some(shown) = shown {
        let left = (shown.response.rect.width() + 16.0).round();
        frame.set_if_neq(BoardFrame { left, ..*frame });
    }
    Ok(())
}

/// The evaluation over the game, a point per reviewed turn coloured by its class; a click jumps to that turn.
fn graph(ui: &mut egui::Ui, review: &Review, shown: usize, nav: &mut MessageWriter<ReplayNav>) {
    let points: Vec<[f64; 2]> = review
        .turns
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().map(|r| [i as f64 + 1.0, white_pieces(&review.game, i, r)]))
        .collect();
    let response = Plot::new("review_graph")
        .height(120.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .include_y(-3.0)
        .include_y(3.0)
        .show(ui, |plot| {
            plot.line(Line::new("eval", PlotPoints::from(points.clone())).color(egui::Color32::from_gray(220)));
            for (i, r) in review.turns.iter().enumerate() {
                if let Some(r) = r
                    && !matches!(r.class, Class::Best | Class::Forced | Class::Good)
                {
                    let y = white_pieces(&review.game, i, r);
                    plot.points(
                        Points::new(class_name(r.class), vec![[i as f64 + 1.0, y]])
                            .radius(4.0)
                            .color(class_color(r.class)),
                    );
                }
            }
            if shown < review.turns.len() {
                let x = shown as f64 + 1.0;
                plot.line(
                    Line::new("shown", PlotPoints::from(vec![[x, -10.0], [x, 10.0]]))
                        .color(egui::Color32::from_rgb(240, 200, 120)),
                );
            }
            plot.pointer_coordinate()
        });
    if response.response.clicked()
        && let Some(at) = response.inner
    {
        let turn = (at.x.round().max(1.0) as usize) - 1;
        nav.write(ReplayNav::To(turn.min(review.turns.len())));
    }
}

/// The class, explanation and better turn of the turn about to be played from the shown position.
fn shown_turn(ui: &mut egui::Ui, review: &Review, shown: usize) {
    let Some(turn) = review.game.turns().get(shown) else {
        ui.label(egui::RichText::new(t("review.end")).color(colors::DIM));
        return;
    };
    match review.turns.get(shown) {
        Some(Some(r)) => {
            ui.label(
                egui::RichText::new(tf(
                    "review.turn",
                    &[
                        ("n", (shown + 1).into()),
                        ("turn", turn.to_string().into()),
                        ("class", class_name(r.class).into()),
                    ],
                ))
                .color(class_color(r.class)),
            );
            if !matches!(r.class, Class::Best | Class::Forced) {
                ui.label(tf(
                    "review.better",
                    &[("turn", r.best.to_string().into()), ("loss", format!("{:.1}", r.loss).into())],
                ));
            }
            let note = note_text(&r.note);
            if !note.is_empty() {
                ui.label(egui::RichText::new(note).color(colors::DIM));
            }
        }
        _ => {
            ui.label(egui::RichText::new(t("review.waiting")).color(colors::DIM));
        }
    }
}
