//! The in-game HUD (egui): whose turn it is, what the CPU is doing, captured counts, the move list, the game's
//! buttons, and the approach-or-withdrawal choice. It also tells the board how much of the window it leaves free.

use crate::animation::AnimationSpeed;
use crate::board::BoardFrame;
use crate::cpu::{CpuPlayer, Hint, HintRequest, cpu_level};
use crate::i18n::{decimal_arg, level_name, outcome_text, score_text, side_initial, side_name, t, tf};
use crate::input::{Selection, human_to_move, undo_action};
use crate::rules::{AnimationsPending, GameState, MatchSetup, MoveAction, MoveRequest, Player};
use crate::screen::{InGame, Pause, Screen, is_paused};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::Side;

/// Accent colours of the UI.
pub mod colors {
    use bevy_egui::egui::Color32;
    /// Headings and the side to move.
    pub const GOLD: Color32 = Color32::from_rgb(240, 200, 120);
    /// Explanations of refused moves.
    pub const WARN: Color32 = Color32::from_rgb(255, 150, 110);
    /// Quiet text.
    pub const DIM: Color32 = Color32::from_rgb(190, 175, 150);
}

/// Width of the side panel, in logical pixels.
const SIDE_WIDTH: f32 = 250.0;
/// Height of the move list in a portrait window, where the panel sits under the board.
const PORTRAIT_MOVES_HEIGHT: f32 = 90.0;

/// Whether a window of this size gets the portrait layout (panel under the board rather than beside it): a side
/// panel would leave a narrow window's board too small.
pub fn portrait(size: egui::Vec2) -> bool {
    size.x < 820.0 && size.y > size.x
}

/// The vela phase in words: who may not capture yet and the count towards the threshold (seventeen on 9×5); or,
/// in a vela game past its phase, that normal rules apply.
pub fn vela_text(game: &fanorona_engine::Game) -> Option<String> {
    let variant = game.rules().variant;
    let threshold = fanorona_engine::Vela::threshold(variant);
    match game.position().vela() {
        Some((winner, left)) => {
            let taken = threshold - left;
            Some(crate::i18n::tf(
                "vela.hud",
                &[("side", side_name(winner).into()), ("threshold", threshold.into()), ("taken", taken.into())],
            ))
        }
        None if game.rules().vela.is_some() => Some(t("vela.over").to_string()),
        None => None,
    }
}

/// Adds the HUD.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, hud.run_if(in_state(InGame)))
        .add_systems(OnExit(InGame), |mut frame: ResMut<BoardFrame>| *frame = BoardFrame::default());
}

/// The name of a side with its player, e.g. "Black (CPU, Novice)", in the current language.
pub fn side_label(setup: &MatchSetup, side: Side) -> String {
    let name = side_name(side);
    match setup.player(side) {
        Player::Human if setup.is_cpu(side.opponent()) => tf("hud.you", &[("side", name.into())]),
        Player::Human => name.to_string(),
        Player::Cpu(l) => tf("hud.cpu", &[("side", name.into()), ("level", level_name(l).into())]),
    }
}

fn hud(
    mut contexts: EguiContexts,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    busy: Res<AnimationsPending>,
    cpu: Res<CpuPlayer>,
    hint: Res<Hint>,
    time: Res<Time<Real>>,
    screen: Res<State<Screen>>,
    pause: Option<Res<State<Pause>>>,
    mut next_pause: ResMut<NextState<Pause>>,
    mut speed: ResMut<AnimationSpeed>,
    mut sel: ResMut<Selection>,
    mut frame: ResMut<BoardFrame>,
    mut requests: MessageWriter<MoveRequest>,
    mut hints: MessageWriter<HintRequest>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Areas rather than panels: egui reports the pointer as "over egui" only inside them, so the board under the
    // rest of the window keeps receiving clicks through picking.
    let screen_rect = ctx.viewport_rect();
    let fill = ctx.global_style().visuals.panel_fill;
    let game = state.game();
    let pos = state.position();
    let to_move = pos.side_to_move();
    let paused = is_paused(pause.as_deref());
    let tall = portrait(screen_rect.size());
    let can_act = human_to_move(&state, &setup, &busy) && *screen.get() == Screen::Playing && !paused;

    let top = egui::Area::new("status".into()).anchor(egui::Align2::LEFT_TOP, [0.0, 0.0]).show(ctx, |ui| {
        egui::Frame::new().fill(fill).inner_margin(egui::Margin::symmetric(10, 6)).show(ui, |ui| {
            ui.set_width(screen_rect.width() - if tall { 0.0 } else { SIDE_WIDTH } - 20.0);
            ui.horizontal(|ui| {
                let status = if let Some(o) = game.outcome() {
                    outcome_text(o)
                } else if paused {
                    t("hud.paused").to_string()
                } else if let Some((side, since)) = cpu.thinking() {
                    let secs = decimal_arg((time.elapsed() - since).as_secs_f64(), 1);
                    match cpu.thinking_depth() {
                        Some(d) => tf(
                            "hud.thinking_depth",
                            &[("side", side_label(&setup, side).into()), ("depth", d.into()), ("seconds", secs)],
                        ),
                        None => tf("hud.thinking", &[("side", side_label(&setup, side).into()), ("seconds", secs)]),
                    }
                } else if pos.in_relay() && setup.is_human(to_move) {
                    tf("hud.relay", &[("side", side_label(&setup, to_move).into())])
                } else {
                    tf("hud.to_move", &[("side", side_label(&setup, to_move).into())])
                };
                ui.label(egui::RichText::new(status).size(18.0).color(colors::GOLD));
                if let Some(text) = vela_text(game) {
                    ui.label(egui::RichText::new(text).size(15.0).color(colors::DIM));
                }
                if sel.choice.is_some() {
                    ui.label(egui::RichText::new(t("hud.choose_direction")).size(16.0));
                }
            });
            if let Some(note) = &sel.note {
                ui.label(egui::RichText::new(capitalise(note)).color(colors::WARN));
            }
        });
    });

    let anchor = if tall { egui::Align2::LEFT_BOTTOM } else { egui::Align2::RIGHT_TOP };
    let right = egui::Area::new("side".into()).anchor(anchor, [0.0, 0.0]).show(ctx, |ui| {
        egui::Frame::new().fill(fill).inner_margin(egui::Margin::same(10)).show(ui, |ui| {
            if tall {
                ui.set_width(screen_rect.width() - 20.0);
            } else {
                ui.set_width(SIDE_WIDTH - 20.0);
                ui.set_min_height(screen_rect.height() - 20.0);
                ui.heading(t("app.title"));
            }
            ui.label(egui::RichText::new(variant_name(pos.variant())).color(colors::DIM));
            ui.separator();
            for side in Side::BOTH {
                let marker = if side == to_move && !game.is_over() { "▶ " } else { "   " };
                ui.label(egui::RichText::new(format!("{marker}{}", side_label(&setup, side))).strong());
                let counts = tf("hud.counts", &[("pieces", pos.count(side).into()), ("captured", state.captured(side.opponent()).into())]);
                ui.label(format!("   {counts}"));
            }
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                let relay = pos.in_relay();
                if ui.add_enabled(can_act && relay, egui::Button::new(t("hud.end_turn"))).clicked() {
                    requests.write(MoveRequest::new(MoveAction::EndTurn));
                }
                let can_undo = !busy.0 && !paused && (!game.turns().is_empty() || !game.pending_steps().is_empty());
                if ui.add_enabled(can_undo, egui::Button::new(t("hud.undo"))).clicked() {
                    requests.write(MoveRequest::new(undo_action(&setup)));
                    *sel = Selection::default();
                }
                if ui.add_enabled(!busy.0 && !paused && game.can_redo(), egui::Button::new(t("hud.redo"))).clicked() {
                    requests.write(MoveRequest::new(MoveAction::Redo));
                    if setup.is_cpu(to_move.opponent()) {
                        // Against the CPU a takeback went back two turns: bring both back.
                        requests.write(MoveRequest::new(MoveAction::Redo));
                    }
                }
            });
            ui.horizontal_wrapped(|ui| {
                if ui.add_enabled(can_act && !hint.pending, egui::Button::new(t("hud.hint"))).clicked() {
                    hints.write(HintRequest);
                }
                let offer_ok = can_act && state.draw_offer().is_none();
                if ui.add_enabled(offer_ok, egui::Button::new(t("hud.offer_draw"))).clicked() {
                    requests.write(MoveRequest::new(MoveAction::OfferDraw(to_move)));
                }
                if ui.add_enabled(can_act, egui::Button::new(t("hud.resign"))).clicked() {
                    requests.write(MoveRequest::new(MoveAction::Resign(to_move)));
                }
            });
            if hint.pending {
                ui.label(egui::RichText::new(t("hud.hint_pending")).color(colors::DIM));
            } else if let Some((_, turn, score)) = &hint.answer {
                ui.label(tf("hud.hint_answer", &[("turn", turn.to_string().into()), ("score", score_text(score).into())]));
            }
            if let Some(by) = state.draw_offer() {
                let answerer = by.opponent();
                if setup.is_human(answerer) {
                    ui.label(tf("hud.offers_draw", &[("side", side_label(&setup, by).into())]));
                    ui.horizontal(|ui| {
                        if ui.button(t("hud.accept")).clicked() {
                            requests.write(MoveRequest::new(MoveAction::AnswerDraw { accept: true }));
                        }
                        if ui.button(t("hud.decline")).clicked() {
                            requests.write(MoveRequest::new(MoveAction::AnswerDraw { accept: false }));
                        }
                    });
                } else {
                    let level = cpu_level(&setup, answerer).map_or("", level_name);
                    ui.label(egui::RichText::new(tf("hud.cpu_considers", &[("level", level.into())])).color(colors::DIM));
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label(t("hud.animation"));
                egui::ComboBox::from_id_salt("speed").selected_text(speed.name()).show_ui(ui, |ui| {
                    for s in AnimationSpeed::ALL {
                        ui.selectable_value(&mut *speed, s, s.name());
                    }
                });
            });
            // In the game the menu is the pause window; after the game it is the title.
            if ui.button(t("hud.menu")).clicked() {
                if *screen.get() == Screen::Playing {
                    next_pause.set(Pause::Paused);
                } else {
                    next.set(Screen::Title);
                }
            }
            ui.separator();
            ui.label(egui::RichText::new(t("hud.moves")).strong());
            let room =
                if tall { PORTRAIT_MOVES_HEIGHT } else { (screen_rect.bottom() - ui.cursor().top() - 16.0).max(60.0) };
            egui::ScrollArea::vertical().stick_to_bottom(true).max_height(room).auto_shrink([false, true]).show(
                ui,
                |ui| {
                    let mut side = game.start_position().side_to_move();
                    for (i, t) in game.turns().iter().enumerate() {
                        let who = side_initial(side);
                        ui.label(egui::RichText::new(format!("{:>3}. {who}  {t}", i + 1)).monospace());
                        side = side.opponent();
                    }
                    if !game.pending_steps().is_empty() {
                        let steps: Vec<String> = game.pending_steps().iter().map(|s| s.to_string()).collect();
                        ui.label(
                            egui::RichText::new(format!("     …  {}", steps.join(" "))).monospace().color(colors::DIM),
                        );
                    }
                },
            );
        });
    });

    // The approach-or-withdrawal choice also has buttons, for players who prefer them to clicking the line.
    if let Some((a, w)) = sel.choice {
        egui::Window::new(t("capture.title"))
            .id(egui::Id::new("capture_choice"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, [(frame.left - frame.right) / 2.0, frame.top + 36.0])
            .show(ctx, |ui| {
                ui.label(t("capture.explain"));
                ui.horizontal(|ui| {
                    let na = pos.captured_by(a).count_ones();
                    let nw = pos.captured_by(w).count_ones();
                    if ui.button(tf("capture.approach", &[("count", na.into())])).clicked() {
                        requests.write(MoveRequest::new(MoveAction::Step(a)));
                        sel.choice = None;
                        sel.piece = None;
                    }
                    if ui.button(tf("capture.withdrawal", &[("count", nw.into())])).clicked() {
                        requests.write(MoveRequest::new(MoveAction::Step(w)));
                        sel.choice = None;
                        sel.piece = None;
                    }
                    if ui.button(t("capture.cancel")).clicked() {
                        sel.choice = None;
                    }
                });
                ui.label(egui::RichText::new(t("keys.choice")).small().color(colors::DIM));
            });
    }

    let panel = right.response.rect;
    let new_frame = if tall {
        BoardFrame { left: 0.0, top: top.response.rect.height(), right: 0.0, bottom: panel.height() }
    } else {
        BoardFrame { left: 0.0, top: top.response.rect.height(), right: panel.width(), bottom: 0.0 }
    };
    if *frame != new_frame {
        *frame = new_frame;
    }
    Ok(())
}

/// "Fanoron-Tsivy (9 × 5)" or "Fanoron-Dimy (5 × 5)", in the current language.
pub fn variant_name(v: fanorona_engine::Variant) -> &'static str {
    match v {
        fanorona_engine::Variant::Tsivy => t("variant.tsivy"),
        fanorona_engine::Variant::Dimy => t("variant.dimy"),
    }
}

/// The text with its first letter in upper case.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
