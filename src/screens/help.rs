//! The rules and help screen (egui): the rules of RULES.md section by section, with small animated boards.
//!
//! Each animated example is a FEN and the steps played from it. The animation takes every piece it moves and
//! removes from the engine ([`Position::try_step`] and [`Position::captured_by`]), so an example can only show a
//! legal turn, and the tests check that each example captures the pieces its text promises.

use crate::i18n::t;
use crate::play::board::palette;
use crate::theme::colors;
use bevy::prelude::Color;
use bevy_egui::egui::{self, Color32, Pos2, Rect, Stroke, Vec2, pos2, vec2};
use fanorona_engine::geometry::{Direction, coords};
use fanorona_engine::{Position, Side, Step};

/// Size of an example board, in logical pixels.
const EXAMPLE_SIZE: Vec2 = vec2(300.0, 170.0);
/// Below this width the text goes above its example instead of beside it.
const SIDE_BY_SIDE_WIDTH: f32 = 560.0;
/// Stillness before the first step of an example, in seconds.
const HOLD_BEFORE: f32 = 0.7;
/// Time given to each step: the slide, then the captured pieces leaving.
const STEP_TIME: f32 = 1.2;
/// Length of a slide.
const SLIDE_TIME: f32 = 0.55;
/// Delay between two captured pieces of one line leaving, so the eye follows the line outwards.
const CAPTURE_STAGGER: f32 = 0.16;
/// How long one captured piece takes to fade and shrink away.
const FADE_TIME: f32 = 0.4;
/// How long before its slide a step's arrow and the red rings of its captures show.
const MARK_LEAD: f32 = 0.4;
/// Stillness after the last step, before the loop starts over.
const HOLD_AFTER: f32 = 1.1;
/// Time over which the pieces of the next loop fade back in.
const RESET_TIME: f32 = 0.3;

/// A turn to animate: a position and the steps played from it.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The position before the turn (White to move).
    pub fen: &'static str,
    /// The turn's steps in notation (`c3-d3A`).
    pub steps: &'static [&'static str],
    /// The pieces each step must capture, for the tests: what the text says the example shows.
    pub captures: &'static [&'static [&'static str]],
}

/// The start of Fanoron-Tsivy, drawn still.
pub const START: Example =
    Example { fen: "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", steps: &[], captures: &[] };

/// A paika move: nothing on the board can be captured, so White may simply step.
pub const PAIKA: Example = Example { fen: "B5BBB/9/9/3W5/1W4W2 w", steps: &["d2-e3"], captures: &[&[]] };

/// Approach: the line stops at the first gap, so i3 survives.
pub const APPROACH: Example =
    Example { fen: "4B4/7B1/2W1BBB1B/1W7/W8 w", steps: &["c3-d3A"], captures: &[&["e3", "f3", "g3"]] };

/// Withdrawal along a diagonal, to show that diagonals capture too.
pub const WITHDRAWAL: Example =
    Example { fen: "7B1/1B7/B3W4/3B3W1/2B6 w", steps: &["e3-f4W"], captures: &[&["d2", "c1"]] };

/// One step that could capture either way; the screen alternates between the two choices.
pub const CHOICE: [Example; 2] = [
    Example { fen: "2B6/9/1BBW1BB2/5W3/W8 w", steps: &["d3-e3A"], captures: &[&["f3", "g3"]] },
    Example { fen: "2B6/9/1BBW1BB2/5W3/W8 w", steps: &["d3-e3W"], captures: &[&["c3", "b3"]] },
];

/// A relay of three captures: east, south, then west (east again would be allowed, just not twice in a row).
pub const RELAY: Example = Example {
    fen: "3B4B/3B3B1/2W1BB3/BB5W1/6W2 w",
    steps: &["c3-d3A", "d3-d2W", "d2-c2A"],
    captures: &[&["e3", "f3"], &["d4", "d5"], &["b2", "a2"]],
};

/// One step of an example as the engine played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptStep {
    /// The step.
    pub step: Step,
    /// The captured points, nearest the moving piece first (the order in which they leave).
    pub captured: Vec<u8>,
}

/// An example checked by the engine: the starting pieces and the steps with what each captured.
#[derive(Clone, Debug)]
pub struct Script {
    /// The position before the turn.
    pub start: Position,
    /// The steps played.
    pub steps: Vec<ScriptStep>,
}

impl Example {
    /// Plays the example through the engine; an error names the step that is not legal.
    pub fn script(&self) -> Result<Script, String> {
        let start = Position::from_fen(self.fen).map_err(|e| format!("{}: {e}", self.fen))?;
        let mut pos = start;
        let mut steps = Vec::new();
        for text in self.steps {
            let step: Step = text.parse().map_err(|e| format!("{text}: {e}"))?;
            let expected = pos.captured_by(step);
            let effect = pos.try_step(step).map_err(|e| format!("{text}: {e}"))?;
            debug_assert_eq!(effect.captured, expected);
            let mut captured: Vec<u8> = bits(effect.captured).collect();
            captured.sort_by_key(|&p| distance2(p, step.to));
            steps.push(ScriptStep { step, captured });
        }
        Ok(Script { start, steps })
    }

    /// How long one loop of the animation lasts, in seconds.
    fn cycle(&self) -> f32 {
        HOLD_BEFORE + self.steps.len() as f32 * STEP_TIME + HOLD_AFTER
    }
}

fn bits(mut bb: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let p = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            p
        })
    })
}

fn distance2(a: u8, b: u8) -> i32 {
    let ((af, ar), (bf, br)) = (coords(a), coords(b));
    let (df, dr) = (af as i32 - bf as i32, ar as i32 - br as i32);
    df * df + dr * dr
}

/// The rules and help, section by section, in a vertical scroll area as tall as the space left in `ui`.
pub fn rules_ui(ui: &mut egui::Ui) {
    let height = ui.available_height().max(120.0);
    egui::ScrollArea::vertical().max_height(height).auto_shrink([false, true]).show(ui, |ui| {
        ui.spacing_mut().item_spacing.y = 6.0;
        section(ui, t("help.board.title"), &[t("help.board.body")], &[START]);
        section(ui, t("help.paika.title"), &[t("help.paika.body")], &[PAIKA]);
        section(ui, t("help.approach.title"), &[t("help.approach.body")], &[APPROACH]);
        section(ui, t("help.withdrawal.title"), &[t("help.withdrawal.body")], &[WITHDRAWAL]);
        section(ui, t("help.choice.title"), &[t("help.choice.body")], &CHOICE);
        section(ui, t("help.relay.title"), &[t("help.relay.body")], &[RELAY]);
        section(ui, t("help.end.title"), &[t("help.end.body")], &[]);
        section(
            ui,
            t("help.variants.title"),
            &[t("help.variants.dimy"), t("help.variants.vela"), t("help.variants.options")],
            &[],
        );
        section(
            ui,
            t("help.controls.title"),
            &[t("help.controls.mouse"), t("help.controls.keys"), t("help.controls.keyboard")],
            &[],
        );
    });
}

/// A heading, its paragraphs, and its example beside them (or under them in a narrow window). Several examples
/// take turns, one loop each.
fn section(ui: &mut egui::Ui, title: &str, paragraphs: &[&str], examples: &[Example]) {
    ui.add_space(6.0);
    ui.label(egui::RichText::new(title).size(19.0).color(colors::GOLD));
    let text = |ui: &mut egui::Ui| {
        for p in paragraphs {
            ui.label(*p);
        }
    };
    if examples.is_empty() {
        text(ui);
        return;
    }
    let width = ui.available_width();
    if width >= SIDE_BY_SIDE_WIDTH {
        let text_width = width - EXAMPLE_SIZE.x - ui.spacing().item_spacing.x - 8.0;
        ui.horizontal_top(|ui| {
            ui.allocate_ui_with_layout(vec2(text_width, 0.0), egui::Layout::top_down(egui::Align::Min), |ui| {
                ui.set_width(text_width);
                text(ui);
            });
            ui.add_space(8.0);
            ui.allocate_ui_with_layout(vec2(EXAMPLE_SIZE.x, 0.0), egui::Layout::top_down(egui::Align::Center), |ui| {
                example_ui(ui, examples)
            });
        });
    } else {
        text(ui);
        ui.vertical_centered(|ui| example_ui(ui, examples));
    }
}

/// One example board with its turn in notation underneath.
fn example_ui(ui: &mut egui::Ui, examples: &[Example]) {
    let now = ui.input(|i| i.time);
    // The loops of alternating examples follow one another, so pick by whole loops of the first one's length.
    let cycle = examples[0].cycle() as f64;
    let index = ((now / cycle) as usize) % examples.len();
    let example = &examples[index];
    let local = (now % cycle) as f32;
    let (response, painter) = ui.allocate_painter(EXAMPLE_SIZE, egui::Sense::hover());
    match example.script() {
        Ok(script) => draw_example(&painter, response.rect, &script, local),
        // Cannot happen for the examples above (the tests play them); show the rule text alone rather than panic.
        Err(e) => {
            painter.text(
                response.rect.center(),
                egui::Align2::CENTER_CENTER,
                e,
                egui::FontId::monospace(11.0),
                colors::WARN,
            );
        }
    }
    if !example.steps.is_empty() {
        let turn = example.steps.join(" ");
        ui.label(egui::RichText::new(turn).monospace().color(colors::DIM));
        if ui.is_rect_visible(response.rect) {
            ui.ctx().request_repaint();
        }
    }
}

fn color32(c: Color) -> Color32 {
    let s = c.to_srgba();
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    Color32::from_rgba_unmultiplied(byte(s.red), byte(s.green), byte(s.blue), byte(s.alpha))
}

/// Smooth start and stop, like the game's own slides.
fn ease(u: f32) -> f32 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

/// A piece as drawn at one instant.
struct Drawn {
    point: u8,
    side: Side,
    at: Pos2,
    /// 1 when fully there, 0 when gone.
    presence: f32,
    /// How strongly it is marked as being captured.
    doomed: f32,
}

/// Draws the board of `script` at `time` seconds into its loop.
fn draw_example(painter: &egui::Painter, rect: Rect, script: &Script, time: f32) {
    let g = script.start.geometry();
    let (w, h) = (g.width as f32, g.height as f32);
    // Spacing of points, with the board's margin (0.68) and frame (0.14) around the lines, as on the real board.
    let border = 2.0 * (0.68 + 0.14);
    let s = ((rect.width() - 4.0) / (w - 1.0 + border)).min((rect.height() - 4.0) / (h - 1.0 + border));
    let centre = rect.center();
    let at = |p: u8| {
        let (f, r) = coords(p);
        pos2(centre.x + (f as f32 - (w - 1.0) / 2.0) * s, centre.y - (r as f32 - (h - 1.0) / 2.0) * s)
    };
    let inner = Rect::from_center_size(centre, vec2((w - 1.0) * s, (h - 1.0) * s));
    let wood = inner.expand(0.68 * s);
    let frame = wood.expand(0.14 * s);
    painter.rect_filled(frame.translate(vec2(2.0, 3.0)), 4.0, Color32::from_black_alpha(90));
    painter.rect_filled(frame, 4.0, color32(palette::FRAME));
    painter.rect_filled(wood, 2.0, color32(palette::WOOD));
    let line = color32(palette::LINE);
    for p in (0..64u8).filter(|&p| g.contains(p)) {
        for d in [Direction::East, Direction::NorthEast, Direction::North, Direction::NorthWest] {
            if let Some(q) = g.step(p, d.index()) {
                let width = if d.is_diagonal() { 0.045 } else { 0.055 } * s;
                painter.line_segment([at(p), at(q)], Stroke::new(width.max(1.0), line));
            }
        }
    }
    let pale = Color32::from_rgb(237, 199, 140);
    for p in (0..64u8).filter(|&p| g.contains(p)) {
        if g.is_strong(p) {
            painter.circle_filled(at(p), 0.12 * s, pale);
            painter.circle_filled(at(p), 0.08 * s, line);
        } else {
            painter.circle_filled(at(p), 0.05 * s, line);
        }
    }
    let label = color32(palette::LABEL).gamma_multiply(0.8);
    // Small and close to the wood's edge, as on the real board, so the pieces of the outer lines leave them readable.
    let font = egui::FontId::proportional((0.3 * s).clamp(7.0, 10.0));
    for f in 0..g.width {
        let x = at(f).x;
        let text = ((b'a' + f) as char).to_string();
        painter.text(pos2(x, wood.bottom() - 0.17 * s), egui::Align2::CENTER_CENTER, text, font.clone(), label);
    }
    for r in 0..g.height {
        let y = at(r * 9).y;
        painter.text(
            pos2(wood.left() + 0.17 * s, y),
            egui::Align2::CENTER_CENTER,
            (r + 1).to_string(),
            font.clone(),
            label,
        );
    }

    let (pieces, mover, trail) = pieces_at(script, time, &at);
    let gold = colors::GOLD;
    // The path travelled so far, so a relay shows it never returns to a point.
    for pair in trail.windows(2) {
        painter.line_segment([pair[0], pair[1]], Stroke::new(0.1 * s, gold.gamma_multiply(0.7)));
    }
    // The next step's arrow while the piece waits for it.
    if let Some((step, strength)) = upcoming(script, time) {
        let (a, b) = (at(step.from), at(step.to));
        let dir = (b - a).normalized();
        let color = gold.gamma_multiply(0.8 * strength);
        painter.arrow(a + dir * 0.42 * s, (b - a) - dir * 0.5 * s, Stroke::new(0.08 * s, color));
    }
    for piece in &pieces {
        draw_piece(painter, piece, s, mover == Some(piece.point));
    }
}

/// Where every piece is at `time`, which one moves (by its current point), and the points of its path so far.
fn pieces_at(script: &Script, time: f32, at: &dyn Fn(u8) -> Pos2) -> (Vec<Drawn>, Option<u8>, Vec<Pos2>) {
    let mut pieces: Vec<Drawn> = Side::BOTH
        .iter()
        .flat_map(|&side| bits(script.start.pieces(side)).map(move |p| (p, side)))
        .map(|(point, side)| Drawn { point, side, at: at(point), presence: 1.0, doomed: 0.0 })
        .collect();
    let Some(first) = script.steps.first() else { return (pieces, None, Vec::new()) };
    let mut mover = first.step.from;
    let mut trail = vec![at(mover)];
    let mover_side = script.start.side_to_move();
    for (i, s) in script.steps.iter().enumerate() {
        let begin = HOLD_BEFORE + i as f32 * STEP_TIME;
        let u = (time - begin) / SLIDE_TIME;
        // The pieces a step will take are ringed in red with its arrow, before it moves, as the game marks its
        // capturing points: the eye sees what is at stake, then watches it go.
        let mark = ease((time - begin + MARK_LEAD) / 0.25);
        for (j, &c) in s.captured.iter().enumerate() {
            let gone = ((time - begin - SLIDE_TIME * 0.8 - j as f32 * CAPTURE_STAGGER) / FADE_TIME).clamp(0.0, 1.0);
            if let Some(piece) = pieces.iter_mut().find(|d| d.point == c && d.side != mover_side) {
                piece.presence = 1.0 - ease(gone);
                piece.doomed = mark;
            }
        }
        if u <= 0.0 {
            break;
        }
        if let Some(piece) = pieces.iter_mut().find(|d| d.point == mover && d.side == mover_side && d.presence > 0.0) {
            piece.at = at(s.step.from).lerp(at(s.step.to), ease(u));
            trail.push(piece.at);
            if u >= 1.0 {
                piece.point = s.step.to;
                mover = s.step.to;
            }
        }
        if u < 1.0 {
            break;
        }
    }
    // The pieces the last loop took away or moved come back gently instead of popping in.
    let back = ease(time / RESET_TIME);
    let returning =
        script.steps.iter().flat_map(|s| s.captured.iter()).fold(1u64 << first.step.from, |m, &p| m | 1 << p);
    for piece in &mut pieces {
        if returning >> piece.point & 1 == 1 {
            piece.presence *= back;
        }
    }
    pieces.retain(|d| d.presence > 0.01);
    (pieces, Some(mover), trail)
}

/// The step about to be played at `time` and how visible its arrow is (it fades in, and out as the slide starts).
fn upcoming(script: &Script, time: f32) -> Option<(Step, f32)> {
    script.steps.iter().enumerate().find_map(|(i, s)| {
        let begin = HOLD_BEFORE + i as f32 * STEP_TIME;
        let shown_from = if i == 0 { RESET_TIME } else { begin - MARK_LEAD };
        (time >= shown_from && time < begin + SLIDE_TIME * 0.5).then(|| {
            let fade_in = ((time - shown_from) / 0.25).clamp(0.0, 1.0);
            let fade_out = 1.0 - ((time - begin) / (SLIDE_TIME * 0.5)).clamp(0.0, 1.0);
            (s.step, fade_in.min(fade_out))
        })
    })
}

/// A stone like the board's: shadow, rim, body and a soft highlight, shrinking and fading as it leaves.
fn draw_piece(painter: &egui::Painter, piece: &Drawn, s: f32, moving: bool) {
    let a = piece.presence;
    let r = 0.36 * s * (0.4 + 0.6 * a);
    let c = piece.at;
    crate::screens::widgets::paint_stone(painter, c, r, piece.side, a);
    if piece.doomed > 0.0 {
        let red = Color32::from_rgb(230, 60, 45).gamma_multiply(piece.doomed * a);
        painter.circle_stroke(c, r + 0.06 * s, Stroke::new(0.08 * s, red));
    }
    if moving {
        painter.circle_stroke(c, r + 0.06 * s, Stroke::new(0.08 * s, colors::GOLD));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::geometry::point_name;

    fn name(p: u8) -> String {
        point_name(p).to_string()
    }

    fn all() -> Vec<Example> {
        let mut v = vec![START, PAIKA, APPROACH, WITHDRAWAL, RELAY];
        v.extend(CHOICE);
        v
    }

    #[test]
    fn examples_are_legal_and_capture_what_they_say() {
        for ex in all() {
            let script = ex.script().unwrap_or_else(|e| panic!("{}: {e}", ex.fen));
            assert_eq!(script.steps.len(), ex.steps.len());
            assert_eq!(ex.captures.len(), ex.steps.len(), "{}", ex.fen);
            for (s, want) in script.steps.iter().zip(ex.captures) {
                let got: Vec<String> = s.captured.iter().map(|&p| name(p)).collect();
                assert_eq!(got, *want, "{} {}", ex.fen, s.step);
            }
        }
    }

    #[test]
    fn captured_pieces_are_gone_before_the_next_step_starts() {
        for ex in all() {
            for (i, s) in ex.script().unwrap().steps.iter().enumerate() {
                let last = s.captured.len().saturating_sub(1) as f32;
                let gone_at = SLIDE_TIME * 0.8 + last * CAPTURE_STAGGER + FADE_TIME;
                assert!(gone_at <= STEP_TIME, "{} step {i}", ex.fen);
            }
        }
    }

    #[test]
    fn paika_is_legal_only_because_nothing_can_be_captured() {
        let pos = Position::from_fen(PAIKA.fen).unwrap();
        assert!(!pos.has_capture());
        let step: Step = PAIKA.steps[0].parse().unwrap();
        assert_eq!(step.kind, fanorona_engine::StepKind::Paika);
    }

    #[test]
    fn choice_step_captures_both_ways() {
        let [a, w] = CHOICE;
        assert_eq!(a.fen, w.fen);
        let pos = Position::from_fen(a.fen).unwrap();
        for ex in CHOICE {
            let step: Step = ex.steps[0].parse().unwrap();
            assert!(pos.check_step(step).is_ok(), "{}", ex.steps[0]);
        }
    }

    #[test]
    fn relay_is_one_turn_with_changing_directions() {
        let script = RELAY.script().unwrap();
        let mut pos = script.start;
        for (i, s) in script.steps.iter().enumerate() {
            let effect = pos.play(s.step);
            // Every step but the last leaves the same player to move: it is one turn.
            assert_eq!(effect.turn_ended, i + 1 == script.steps.len(), "{}", s.step);
        }
        for pair in script.steps.windows(2) {
            assert_ne!(pair[0].step.dir, pair[1].step.dir);
        }
    }

    #[test]
    fn animation_removes_the_captured_pieces_and_moves_the_piece() {
        let script = RELAY.script().unwrap();
        let at = |p: u8| pos2(p as f32, 0.0);
        let end = RELAY.cycle() - 0.01;
        let (pieces, mover, _) = pieces_at(&script, end, &at);
        let start = script.start.count(Side::White) + script.start.count(Side::Black);
        let captured: usize = script.steps.iter().map(|s| s.captured.len()).sum();
        assert_eq!(pieces.len(), start as usize - captured);
        assert_eq!(mover, Some(script.steps.last().unwrap().step.to));
        let (before, _, _) = pieces_at(&script, HOLD_BEFORE * 0.9, &at);
        assert_eq!(before.len(), start as usize);
    }
}
