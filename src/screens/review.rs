//! Game review: the engine analyses every turn of a replayed game in the background and the replay shows an
//! evaluation graph, each turn's class (best … blunder) with the better turn drawn as arrows and a one-line
//! explanation, a summary per side, and "play on from here against the CPU".
//!
//! The analysis is a job of the engine ([`EngineJobs`]: the async pool on the desktop, the engine worker in the
//! browser), so the screen stays responsive and shows its progress as each turn's review arrives; where the jobs
//! run in the frames, each turn gets a small node budget. The review belongs to the replay screen: it starts with
//! [`StartReview`] and ends when the replay closes.

use crate::i18n::{t, tf};
use crate::play::arrows::{ArrowPath, ArrowStyle, BoardArrows};
use crate::play::board::BoardFrame;
use crate::play::engine_jobs::{EngineJobs, JobHandle};
use crate::play::referee::GameSet;
use crate::screens::records::{Replay, ReplayNav, StartReview};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, Plot, PlotPoints, Points};
use fanorona_engine::levels::Level;
use fanorona_engine::review::{Class, Note, TurnReview, score_pieces, summary};
use fanorona_engine::search::Limits;
use fanorona_engine::service::{Job, Reply, game_text};
use fanorona_engine::{Game, Side};
use std::time::Duration;

/// How much the engine thinks about each turn (where jobs run in the frames, within [`FRAMES_REVIEW_NODES`] too).
#[derive(Resource, Clone, Copy, Debug)]
pub struct ReviewLimits(pub Limits);

impl Default for ReviewLimits {
    fn default() -> Self {
        ReviewLimits(Limits { movetime: Some(Duration::from_millis(400)), ..Limits::default() })
    }
}

/// Each turn's node budget at most when the review runs in slices between frames, where one turn's review cannot be
/// cut: a few tens of milliseconds in a browser.
pub const FRAMES_REVIEW_NODES: u64 = 40_000;

/// The review of the game being replayed.
#[derive(Resource)]
pub struct Review {
    game: Game,
    /// The reviews found so far, by turn index (None: not analysed yet).
    pub turns: Vec<Option<TurnReview>>,
    /// The engine's job (dropping it stops the review).
    job: JobHandle,
    /// The turn whose arrows are drawn.
    drawn: Option<usize>,
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
    mut jobs: ResMut<EngineJobs>,
    mut commands: Commands,
) {
    if starts.read().last().is_none() {
        return;
    }
    let Some(mut replay) = replay else { return };
    replay.reviewing = true;
    let game = replay.game().clone();
    let n = game.turns().len();
    let mut limits = limits.0;
    if jobs.in_frames() {
        limits.nodes = Some(limits.nodes.map_or(FRAMES_REVIEW_NODES, |n| n.min(FRAMES_REVIEW_NODES)));
    }
    let job = jobs.start(Job::Review { game: game_text(&game), limits, from: 0 });
    commands.insert_resource(Review { game, turns: vec![None; n], job, drawn: None });
}

/// Reads the turns reviewed since the last frame, and draws the shown turn's arrows.
fn collect(
    review: Option<ResMut<Review>>,
    replay: Option<Res<Replay>>,
    mut jobs: ResMut<EngineJobs>,
    mut arrows: ResMut<BoardArrows>,
) {
    let Some(mut review) = review else { return };
    let review = &mut *review;
    for reply in jobs.take(&review.job) {
        if let Reply::Reviewed { index, review: found, .. } = reply
            && let Some(slot) = review.turns.get_mut(index)
        {
            *slot = found;
            review.drawn = None;
        }
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
