//! Fanoron-Telo, the 3 × 3 children's game: three pieces each, placed then moved along the lines, three in a row
//! wins. The gentlest first step into the family, against a CPU that plays it perfectly (the game is solved by the
//! engine) or a gentle one that sometimes errs, or for two players at one screen.
//!
//! The board is small enough to be drawn by egui over the whole window, so this screen needs none of the main
//! board's entities. Clicks become [`TeloAction::Click`]s, so tests play it the same way.

use crate::i18n::{side_name, t, tf};
use crate::platform::redraw::FrameDemand;
use crate::platform::redraw::WakeOn;
use crate::play::referee::{GameSet, MatchSetup, Player};
use crate::screens::widgets::paint_stone;
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

/// How long a move takes to show: a placed piece settles in, a moved one slides along its line.
const MOVE_SECS: f32 = 0.3;

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
    /// The last move and when (app time) it was played: it is animated, then marked until the next one.
    pub last: Option<(TeloMove, Duration)>,
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
            last: None,
            rng: SmallRng::seed_from_u64(7),
        }
    }
}

impl Telo {
    /// Plays `m` at app time `now`, remembering it to show; false if it is not legal.
    fn play(&mut self, m: TeloMove, now: Duration) -> bool {
        let played = self.game.play(m).is_ok();
        if played {
            self.last = Some((m, now));
        }
        played
    }

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
                telo.last = None;
                telo.rng = SmallRng::seed_from_u64(time.elapsed().as_nanos() as u64);
                // The main board behind stands still: nobody plays the game that was on it.
                setup.players = [Player::Human, Player::Human];
                next.set(Screen::Telo);
            }
            TeloAction::Click(p) if p < 9 => click(&mut telo, p, time.elapsed()),
            TeloAction::Click(_) => {}
            TeloAction::Close => next.set(Screen::Title),
        }
    }
}

/// A person's click at app time `now`: place, pick a piece, or move the picked piece.
fn click(telo: &mut Telo, p: u8, now: Duration) {
    if telo.cpu_to_move() || telo.game.outcome().is_some() {
        return;
    }
    let pos = *telo.game.position();
    if pos.placing() {
        if telo.play(TeloMove::Place(p), now) {
            telo.selected = None;
        }
        return;
    }
    if pos.piece_at(p) == Some(pos.side_to_move()) {
        telo.selected = if telo.selected == Some(p) { None } else { Some(p) };
        return;
    }
    if let Some(from) = telo.selected
        && telo.play(TeloMove::Step { from, to: p }, now)
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
        telo.play(m, now);
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

fn telo_screen(
    mut contexts: EguiContexts,
    telo: Res<Telo>,
    mut actions: MessageWriter<TeloAction>,
    time: Res<Time<Real>>,
    mut demand: ResMut<FrameDemand>,
    theme: Res<crate::theme::Theme>,
) -> Result {
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
            // How far the last move has got (1: done), eased as the main board's moves are.
            let shown = telo.last.map_or(1.0, |(_, at)| ((time.elapsed() - at).as_secs_f32() / MOVE_SECS).min(1.0));
            if shown < 1.0 {
                demand.next_frame();
            }
            let shown = EaseFunction::CubicInOut.sample_clamped(shown);
            board(ui, &telo, side, shown, theme.palette(), &mut actions);
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

/// The board with its pieces, the last move `shown` of the way (0 to 1): a placed piece grows into place, a moved
/// one slides; once there, the move stays marked (a ring on the placed piece, an arrow for a step).
fn board(
    ui: &mut egui::Ui,
    telo: &Telo,
    side: f32,
    shown: f32,
    palette: crate::theme::Palette,
    actions: &mut MessageWriter<TeloAction>,
) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::click());
    let painter = ui.painter_at(rect.expand(4.0));
    // The main board's look in the player's theme: frame, grained wood, lines, and pale rings on the strong points.
    let c = |col: Color| {
        let [r, g, b, a] = col.to_srgba().to_u8_array();
        egui::Color32::from_rgba_unmultiplied(r, g, b, a)
    };
    let s = side / 3.0;
    painter.rect_filled(rect.translate(egui::vec2(2.0, 3.0)), 6.0, egui::Color32::from_black_alpha(90));
    painter.rect_filled(rect, 6.0, c(palette.frame));
    let wood = rect.shrink(0.14 * s);
    painter.rect_filled(wood, 3.0, c(palette.wood));
    // The grain: a few faint stripes, the same every time.
    let mut y = wood.top();
    for i in 0u32.. {
        let hsh = i.wrapping_mul(2_654_435_761) >> 16;
        let thick = (0.04 + (hsh % 7) as f32 * 0.025) * s;
        if y + thick > wood.bottom() {
            break;
        }
        let tone = if hsh.is_multiple_of(3) { palette.grain.0 } else { palette.grain.1 };
        painter.rect_filled(egui::Rect::from_x_y_ranges(wood.x_range(), y..=y + thick), 0.0, c(tone));
        y += thick + (0.05 + (hsh % 5) as f32 * 0.04) * s;
    }
    let line = egui::Stroke::new((0.055 * s).max(2.0), c(palette.line));
    for i in 0..3u8 {
        painter.line_segment([point_pos(rect, 3 * i), point_pos(rect, 3 * i + 2)], line);
        painter.line_segment([point_pos(rect, i), point_pos(rect, i + 6)], line);
    }
    painter.line_segment([point_pos(rect, 0), point_pos(rect, 8)], line);
    painter.line_segment([point_pos(rect, 2), point_pos(rect, 6)], line);
    let pos = *telo.game.position();
    let radius = 0.36 * s;
    // The last turn's gold, as on the main board.
    let mark = egui::Color32::from_rgba_unmultiplied(255, 217, 77, 200);
    for p in 0..9u8 {
        // The corners and the centre are joined diagonally: the strong points.
        if p % 2 == 0 {
            painter.circle_filled(point_pos(rect, p), 0.12 * s, c(palette.point));
            painter.circle_filled(point_pos(rect, p), 0.08 * s, line.color);
        } else {
            painter.circle_filled(point_pos(rect, p), 0.05 * s, line.color);
        }
    }
    if let Some((TeloMove::Step { from, to }, _)) = telo.last {
        let (a, b) = (point_pos(rect, from), point_pos(rect, to));
        let dir = (b - a).normalized();
        painter.arrow(a + dir * radius * 0.5, (b - a) - dir * radius * 1.6, egui::Stroke::new(6.0, mark));
    }
    for p in 0..9u8 {
        let Some(owner) = pos.piece_at(p) else { continue };
        let mut at = point_pos(rect, p);
        let mut presence = 1.0;
        match telo.last {
            Some((TeloMove::Step { from, to }, _)) if to == p => at = point_pos(rect, from).lerp(at, shown),
            Some((TeloMove::Place(placed), _)) if placed == p => presence = shown,
            _ => {}
        }
        paint_stone(&painter, at, radius * (0.6 + 0.4 * presence), owner, presence);
        let landed = matches!(telo.last, Some((TeloMove::Place(q) | TeloMove::Step { to: q, .. }, _)) if q == p);
        if landed && shown >= 1.0 {
            painter.circle_stroke(at, radius + 5.0, egui::Stroke::new(3.0, mark));
        }
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
            click(&mut t, p, Duration::ZERO);
        }
        assert_eq!(t.game.moves().len(), 6);
        assert!(!t.game.position().placing());
        // White picks a1 and steps to the centre.
        click(&mut t, 0, Duration::ZERO);
        assert_eq!(t.selected, Some(0));
        click(&mut t, 4, Duration::ZERO);
        assert_eq!(t.game.moves().last(), Some(&TeloMove::Step { from: 0, to: 4 }));
        assert_eq!(t.selected, None);
        // The move is kept to be shown: slid along its line, then marked.
        assert_eq!(t.last.map(|(m, _)| m), Some(TeloMove::Step { from: 0, to: 4 }));
        // A click on an occupied point of the opponent does nothing.
        let before = t.game.moves().len();
        click(&mut t, 4, Duration::ZERO);
        assert_eq!(t.game.moves().len(), before);
    }

    #[test]
    fn the_person_cannot_move_for_the_cpu() {
        let mut t = telo(Some(Side::Black), TeloLevel::Perfect);
        assert!(t.cpu_to_move(), "White (the CPU) starts");
        click(&mut t, 4, Duration::ZERO);
        assert!(t.game.moves().is_empty());
    }
}
