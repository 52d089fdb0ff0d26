//! Fanoron-Telo, the 3 × 3 children's game: three pieces each, placed then moved along the lines, three in a row
//! wins. The gentlest first step into the family, against a CPU that plays it perfectly (the game is solved by the
//! engine) or a gentle one that sometimes errs, or for two players at one screen.
//!
//! The board is small enough to be drawn by egui over the whole window, so this screen needs none of the main
//! board's entities. Clicks become [`TeloAction::Click`]s, so tests play it the same way.

use crate::i18n::{side_name, t, tf};
use crate::platform::redraw::FrameDemand;
use crate::platform::redraw::WakeOn;
use crate::play::rules::{GameSet, MatchSetup, Player};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::Side;
use fanorona_engine::telo::{TeloGame, TeloMove, TeloOutcome, kind_move, perfect_move};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;

/// How long the CPU seems to think before its move, so that the player sees each move land.
const CPU_DELAY: Duration = Duration::from_millis(450);

/// How the CPU plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TeloLevel {
    /// Takes a win on the spot and stops the player's, but otherwise errs a third of the time.
    #[default]
    Gentle,
    /// Perfect play from the complete solution.
    Perfect,
}

/// The game of Fanoron-Telo on screen.
#[derive(Resource, Clone, Debug)]
pub struct Telo {
    /// The game.
    pub game: TeloGame,
    /// The side the person plays against the CPU; None for two people.
    pub you: Option<Side>,
    /// How the CPU plays.
    pub level: TeloLevel,
    /// The piece picked to move.
    pub selected: Option<u8>,
    /// When (app time) the CPU's move is due.
    cpu_due: Option<Duration>,
    rng: SmallRng,
}

impl Default for Telo {
    fn default() -> Self {
        Telo {
            game: TeloGame::new(),
            you: Some(Side::White),
            level: TeloLevel::default(),
            selected: None,
            cpu_due: None,
            rng: SmallRng::seed_from_u64(7),
        }
    }
}

impl Telo {
    /// Whether the CPU plays the side to move.
    pub fn cpu_to_move(&self) -> bool {
        self.you.is_some_and(|you| you != self.game.position().side_to_move()) && self.game.outcome().is_none()
    }
}

/// What the Telo screen is asked to do.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeloAction {
    /// Open the screen (a new game with the current choices).
    Open,
    /// A click on point `0..9` (`3 · rank + file`).
    Click(u8),
    /// A new game: the person plays `you` (None: two people) against the CPU at `level`.
    NewGame {
        /// The person's side, or None for two people.
        you: Option<Side>,
        /// The CPU's level.
        level: TeloLevel,
    },
    /// Back to the title.
    Close,
}

/// Adds Fanoron-Telo.
pub fn plugin(app: &mut App) {
    app.add_woken_message::<TeloAction>()
        .init_resource::<Telo>()
        .add_systems(Update, act.in_set(GameSet::Request))
        .add_systems(Update, cpu_move.in_set(GameSet::Request).after(act).run_if(in_state(Screen::Telo)))
        .add_systems(EguiPrimaryContextPass, telo_screen.run_if(in_state(Screen::Telo)));
}

fn act(
    mut actions: MessageReader<TeloAction>,
    mut telo: ResMut<Telo>,
    mut setup: ResMut<MatchSetup>,
    mut next: ResMut<NextState<Screen>>,
    time: Res<Time<Real>>,
) {
    for a in actions.read() {
        match *a {
            TeloAction::Open | TeloAction::NewGame { .. } => {
                if let TeloAction::NewGame { you, level } = *a {
                    telo.you = you;
                    telo.level = level;
                }
                telo.game = TeloGame::new();
                telo.selected = None;
                telo.cpu_due = None;
                telo.rng = SmallRng::seed_from_u64(time.elapsed().as_nanos() as u64);
                // The main board behind stands still: nobody plays the game that was on it.
                setup.players = [Player::Human, Player::Human];
                next.set(Screen::Telo);
            }
            TeloAction::Click(p) if p < 9 => click(&mut telo, p),
            TeloAction::Click(_) => {}
            TeloAction::Close => next.set(Screen::Title),
        }
    }
}

/// A person's click: place, pick a piece, or move the picked piece.
fn click(telo: &mut Telo, p: u8) {
    if telo.cpu_to_move() || telo.game.outcome().is_some() {
        return;
    }
    let pos = *telo.game.position();
    if pos.placing() {
        if telo.game.play(TeloMove::Place(p)).is_ok() {
            telo.selected = None;
        }
        return;
    }
    if pos.piece_at(p) == Some(pos.side_to_move()) {
        telo.selected = if telo.selected == Some(p) { None } else { Some(p) };
        return;
    }
    if let Some(from) = telo.selected
        && telo.game.play(TeloMove::Step { from, to: p }).is_ok()
    {
        telo.selected = None;
    }
}

fn cpu_move(mut telo: ResMut<Telo>, time: Res<Time<Real>>, mut demand: ResMut<FrameDemand>) {
    if !telo.cpu_to_move() {
        telo.cpu_due = None;
        return;
    }
    let now = time.elapsed();
    let due = *telo.cpu_due.get_or_insert(now + CPU_DELAY);
    if now < due {
        demand.within(due - now);
        return;
    }
    telo.cpu_due = None;
    let pos = *telo.game.position();
    let m = match telo.level {
        TeloLevel::Perfect => perfect_move(&pos),
        TeloLevel::Gentle => kind_move(&pos, &mut telo.rng),
    };
    if let Some(m) = m {
        // The solver's moves are legal by construction; a refusal would only leave the turn to the CPU again.
        let _ = telo.game.play(m);
    }
}

/// The screen position of point `p` in a board drawn in `rect`.
fn point_pos(rect: egui::Rect, p: u8) -> egui::Pos2 {
    let (file, rank) = ((p % 3) as f32, (p / 3) as f32);
    let step = rect.width() / 3.0;
    egui::pos2(rect.left() + step * (file + 0.5), rect.bottom() - step * (rank + 0.5))
}

fn status(telo: &Telo) -> String {
    match telo.game.outcome() {
        Some(TeloOutcome::Win(side)) => tf("telo.wins", &[("side", side_name(side).into())]),
        Some(TeloOutcome::Repetition) => t("telo.draw").to_string(),
        None => {
            let side = telo.game.position().side_to_move();
            let key = if telo.game.position().placing() { "telo.to_place" } else { "telo.to_move" };
            tf(key, &[("side", side_name(side).into())])
        }
    }
}

fn telo_screen(mut contexts: EguiContexts, telo: Res<Telo>, mut actions: MessageWriter<TeloAction>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Over the whole window: the main board behind is not part of this game.
    let screen = ctx.viewport_rect();
    ctx.layer_painter(egui::LayerId::background()).rect_filled(screen, 0.0, egui::Color32::from_rgb(40, 30, 25));
    egui::Window::new("telo")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(t("telo.title")).size(26.0).color(colors::GOLD));
                ui.label(egui::RichText::new(t("telo.rules")).color(colors::DIM));
            });
            options(ui, &telo, &mut actions);
            ui.add_space(6.0);
            let side = (screen.height() - 320.0).clamp(180.0, 360.0);
            board(ui, &telo, side, &mut actions);
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(status(&telo)).size(18.0));
                if ui.button(t("lessons.close")).clicked() {
                    actions.write(TeloAction::Close);
                }
            });
        });
    Ok(())
}

fn options(ui: &mut egui::Ui, telo: &Telo, actions: &mut MessageWriter<TeloAction>) {
    ui.horizontal(|ui| {
        let choices =
            [(Some(Side::White), "telo.you_white"), (Some(Side::Black), "telo.you_black"), (None, "telo.two_players")];
        for (you, key) in choices {
            if ui.selectable_label(telo.you == you, t(key)).clicked() {
                actions.write(TeloAction::NewGame { you, level: telo.level });
            }
        }
    });
    if telo.you.is_some() {
        ui.horizontal(|ui| {
            for (level, key) in [(TeloLevel::Gentle, "telo.gentle"), (TeloLevel::Perfect, "telo.perfect")] {
                if ui.selectable_label(telo.level == level, t(key)).clicked() {
                    actions.write(TeloAction::NewGame { you: telo.you, level });
                }
            }
            if ui.button(t("menu.new_game")).clicked() {
                actions.write(TeloAction::NewGame { you: telo.you, level: telo.level });
            }
        });
    } else if ui.button(t("menu.new_game")).clicked() {
        actions.write(TeloAction::NewGame { you: None, level: telo.level });
    }
}

fn board(ui: &mut egui::Ui, telo: &Telo, side: f32, actions: &mut MessageWriter<TeloAction>) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 8.0, egui::Color32::from_rgb(204, 148, 87));
    let line = egui::Stroke::new(3.0, egui::Color32::from_rgb(64, 36, 18));
    for i in 0..3u8 {
        painter.line_segment([point_pos(rect, 3 * i), point_pos(rect, 3 * i + 2)], line);
        painter.line_segment([point_pos(rect, i), point_pos(rect, i + 6)], line);
    }
    painter.line_segment([point_pos(rect, 0), point_pos(rect, 8)], line);
    painter.line_segment([point_pos(rect, 2), point_pos(rect, 6)], line);
    let pos = *telo.game.position();
    let radius = side / 9.0;
    for p in 0..9u8 {
        let at = point_pos(rect, p);
        painter.circle_filled(at, 5.0, line.color);
        let Some(owner) = pos.piece_at(p) else { continue };
        let (fill, rim) = match owner {
            Side::White => (egui::Color32::from_rgb(240, 232, 214), egui::Color32::from_rgb(150, 140, 120)),
            Side::Black => (egui::Color32::from_rgb(45, 45, 50), egui::Color32::from_rgb(15, 15, 18)),
        };
        painter.circle(at, radius, fill, egui::Stroke::new(3.0, rim));
        if telo.selected == Some(p) {
            painter.circle_stroke(at, radius + 5.0, egui::Stroke::new(3.0, egui::Color32::from_rgb(115, 255, 140)));
        }
    }
    if let Some(click) = response.interact_pointer_pos().filter(|_| response.clicked()) {
        let nearest =
            (0..9u8).min_by(|&a, &b| point_pos(rect, a).distance(click).total_cmp(&point_pos(rect, b).distance(click)));
        if let Some(p) = nearest.filter(|&p| point_pos(rect, p).distance(click) < side / 6.0) {
            actions.write(TeloAction::Click(p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn telo(you: Option<Side>, level: TeloLevel) -> Telo {
        Telo { you, level, ..Telo::default() }
    }

    #[test]
    fn clicks_place_then_pick_and_move() {
        let mut t = telo(None, TeloLevel::Perfect);
        // Two people: W a1, B b1, W c1, B a2, W b3, B c3 (no three in a row), then moving.
        for p in [0u8, 1, 2, 3, 7, 8] {
            click(&mut t, p);
        }
        assert_eq!(t.game.moves().len(), 6);
        assert!(!t.game.position().placing());
        // White picks a1 and steps to the centre.
        click(&mut t, 0);
        assert_eq!(t.selected, Some(0));
        click(&mut t, 4);
        assert_eq!(t.game.moves().last(), Some(&TeloMove::Step { from: 0, to: 4 }));
        assert_eq!(t.selected, None);
        // A click on an occupied point of the opponent does nothing.
        let before = t.game.moves().len();
        click(&mut t, 4);
        assert_eq!(t.game.moves().len(), before);
    }

    #[test]
    fn the_person_cannot_move_for_the_cpu() {
        let mut t = telo(Some(Side::Black), TeloLevel::Perfect);
        assert!(t.cpu_to_move(), "White (the CPU) starts");
        click(&mut t, 4);
        assert!(t.game.moves().is_empty());
    }
}
