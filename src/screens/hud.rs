//! The in-game HUD (egui): whose turn it is, what the CPU is doing, captured counts, the move list, the game's
//! buttons, and the approach-or-withdrawal choice. It also tells the board how much of the window it leaves free.

use crate::i18n::{
    capitalise, decimal_arg, level_name, outcome_text, score_text, side_initial, side_name, t, tf, variant_name,
};
use crate::online::Online;
use crate::play::animation::AnimationSpeed;
use crate::play::board::BoardFrame;
use crate::play::cpu::{CpuPlayer, Hint, HintRequest, cpu_level};
use crate::play::input::{Selection, human_to_move, undo_action, undo_allowed};
use crate::play::referee::{AnimationsPending, GameState, MatchSetup, MoveAction, MoveRequest, Player};
use crate::screens::online::online_section;
use crate::screens::widgets::report_button;
use crate::state::{InGame, Pause, Screen, is_paused};
use crate::theme::colors;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::Side;

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
        Player::Human if !setup.is_human(side.opponent()) => tf("hud.you", &[("side", name.into())]),
        Player::Human => name.to_string(),
        Player::Cpu(l) => tf("hud.cpu", &[("side", name.into()), ("level", level_name(l).into())]),
        Player::Remote => tf("hud.remote", &[("side", name.into())]),
    }
}

/// What the HUD reads.
#[derive(SystemParam)]
struct HudView<'w> {
    state: Res<'w, GameState>,
    setup: Res<'w, MatchSetup>,
    busy: Res<'w, AnimationsPending>,
    cpu: Res<'w, CpuPlayer>,
    hint: Res<'w, Hint>,
    time: Res<'w, Time<Real>>,
    screen: Res<'w, State<Screen>>,
    pause: Option<Res<'w, State<Pause>>>,
}

impl HudView<'_> {
    fn paused(&self) -> bool {
        is_paused(self.pause.as_deref())
    }

    /// Whether a person may act now: their turn, nothing animating, the game screen, not paused.
    fn can_act(&self) -> bool {
        human_to_move(&self.state, &self.setup, &self.busy) && *self.screen.get() == Screen::Playing && !self.paused()
    }

    /// The status line: the result, the pause, the CPU thinking, a relay to continue, or whose turn it is.
    fn status(&self) -> String {
        let pos = self.state.position();
        let to_move = pos.side_to_move();
        if let Some(o) = self.state.game().outcome() {
            outcome_text(o)
        } else if self.paused() {
            t("hud.paused").to_string()
        } else if let Some((side, since)) = self.cpu.thinking() {
            let secs = decimal_arg((self.time.elapsed() - since).as_secs_f64(), 1);
            match self.cpu.thinking_depth() {
                Some(d) => tf(
                    "hud.thinking_depth",
                    &[("side", side_label(&self.setup, side).into()), ("depth", d.into()), ("seconds", secs)],
                ),
                None => tf("hud.thinking", &[("side", side_label(&self.setup, side).into()), ("seconds", secs)]),
            }
        } else if pos.in_relay() && self.setup.is_human(to_move) {
            tf("hud.relay", &[("side", side_label(&self.setup, to_move).into())])
        } else {
            tf("hud.to_move", &[("side", side_label(&self.setup, to_move).into())])
        }
    }
}

/// What the HUD changes: requests to the rules and the CPU, the selection, screens and the animation speed.
#[derive(SystemParam)]
struct HudActions<'w> {
    requests: MessageWriter<'w, MoveRequest>,
    hints: MessageWriter<'w, HintRequest>,
    sel: ResMut<'w, Selection>,
    speed: ResMut<'w, AnimationSpeed>,
    next_pause: ResMut<'w, NextState<Pause>>,
    next: ResMut<'w, NextState<Screen>>,
    online: Option<ResMut<'w, Online>>,
}

impl HudActions<'_> {
    fn request(&mut self, action: MoveAction) {
        self.requests.write(MoveRequest::new(action));
    }
}

fn hud(mut contexts: EguiContexts, view: HudView, mut act: HudActions, mut frame: ResMut<BoardFrame>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Areas rather than panels: egui reports the pointer as "over egui" only inside them, so the board under the
    // rest of the window keeps its clicks (see `play::input`).
    let screen_rect = ctx.viewport_rect();
    let tall = portrait(screen_rect.size());
    let top = egui::Area::new("status".into())
        .anchor(egui::Align2::LEFT_TOP, [0.0, 0.0])
        .show(ctx, |ui| status_bar(ui, &view, &act.sel, screen_rect, tall));
    let anchor = if tall { egui::Align2::LEFT_BOTTOM } else { egui::Align2::RIGHT_TOP };
    let side = egui::Area::new("side".into())
        .anchor(anchor, [0.0, 0.0])
        .show(ctx, |ui| side_panel(ui, &view, &mut act, screen_rect, tall));
    let (top, panel) = (top.response.rect, side.response.rect);
    if let Some(note) = &act.sel.note {
        refusal_note(ctx, note, top.height(), screen_rect, tall);
    }
    let new_frame = if tall {
        BoardFrame { left: 0.0, top: top.height(), right: 0.0, bottom: panel.height() }
    } else {
        BoardFrame { left: 0.0, top: top.height(), right: panel.width(), bottom: 0.0 }
    };
    // Compared first so that change detection only fires when the layout really moves.
    if *frame != new_frame {
        *frame = new_frame;
    }
    Ok(())
}

/// The top bar: status, vela phase and the direction prompt.
fn status_bar(ui: &mut egui::Ui, view: &HudView, sel: &Selection, screen: egui::Rect, tall: bool) {
    let fill = ui.ctx().global_style().visuals.panel_fill;
    egui::Frame::new().fill(fill).inner_margin(egui::Margin::symmetric(10, 6)).show(ui, |ui| {
        ui.set_width(screen.width() - if tall { 0.0 } else { SIDE_WIDTH } - 20.0);
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(view.status()).size(18.0).color(colors::GOLD));
            if let Some(text) = vela_text(view.state.game()) {
                ui.label(egui::RichText::new(text).size(15.0).color(colors::DIM));
            }
            if sel.choice.is_some() {
                ui.label(egui::RichText::new(t("hud.choose_direction")).size(16.0));
            }
        });
    });
}

/// The note on a refused click, just under the top bar and over the board's edge: a line of the bar's own would
/// move the board down and back each time a note came and went. Not interactable, so that it never takes a click
/// meant for the board.
fn refusal_note(ctx: &egui::Context, note: &str, top: f32, screen: egui::Rect, tall: bool) {
    let fill = ctx.global_style().visuals.panel_fill;
    egui::Area::new("note".into()).anchor(egui::Align2::LEFT_TOP, [0.0, top]).interactable(false).show(ctx, |ui| {
        egui::Frame::new()
            .fill(fill)
            .inner_margin(egui::Margin::symmetric(10, 4))
            .corner_radius(egui::CornerRadius { ne: 0, nw: 0, se: 6, sw: 0 })
            .show(ui, |ui| {
                ui.set_max_width(screen.width() - if tall { 0.0 } else { SIDE_WIDTH } - 20.0);
                ui.label(egui::RichText::new(capitalise(note)).color(colors::WARN));
            });
    });
}

/// The side panel (under the board in portrait): players and counts, the game's buttons, hint and draw offer,
/// animation speed and menu, the move list.
fn side_panel(ui: &mut egui::Ui, view: &HudView, act: &mut HudActions, screen: egui::Rect, tall: bool) {
    let fill = ui.ctx().global_style().visuals.panel_fill;
    egui::Frame::new().fill(fill).inner_margin(egui::Margin::same(10)).show(ui, |ui| {
        if tall {
            ui.set_width(screen.width() - 20.0);
        } else {
            ui.set_width(SIDE_WIDTH - 20.0);
            ui.set_min_height(screen.height() - 20.0);
            ui.heading(t("app.title"));
        }
        players(ui, view);
        ui.separator();
        // Every button that is always there comes before any text that comes and goes (the connection's state, a
        // hint, a draw offer), so that none of them moves while the player aims at it.
        turn_buttons(ui, view, act);
        game_buttons(ui, view, act);
        speed_and_menu(ui, view, act);
        ui.separator();
        if view.setup.is_online()
            && let Some(online) = act.online.as_deref_mut()
        {
            online_section(ui, online);
        }
        hint_line(ui, &view.hint);
        draw_offer(ui, view, act);
        ui.separator();
        let room = if tall { PORTRAIT_MOVES_HEIGHT } else { (screen.bottom() - ui.cursor().top() - 16.0).max(60.0) };
        move_list(ui, view.state.game(), room);
    });
}

/// The variant, then each side with its player, pieces left and pieces taken.
fn players(ui: &mut egui::Ui, view: &HudView) {
    let (game, pos) = (view.state.game(), view.state.position());
    ui.label(egui::RichText::new(variant_name(pos.variant())).color(colors::DIM));
    ui.separator();
    for side in Side::BOTH {
        let marker = if side == pos.side_to_move() && !game.is_over() { "▶ " } else { "   " };
        ui.label(egui::RichText::new(format!("{marker}{}", side_label(&view.setup, side))).strong());
        let counts = tf(
            "hud.counts",
            &[("pieces", pos.count(side).into()), ("captured", view.state.captured(side.opponent()).into())],
        );
        ui.label(format!("   {counts}"));
    }
}

/// End turn, undo, redo.
fn turn_buttons(ui: &mut egui::Ui, view: &HudView, act: &mut HudActions) {
    let game = view.state.game();
    let calm = !view.busy.0 && !view.paused();
    ui.horizontal_wrapped(|ui| {
        let relay = view.state.position().in_relay();
        let end = ui.add_enabled(view.can_act() && relay, egui::Button::new(t("hud.end_turn")));
        if report_button(ui, "end_turn", &end).clicked() {
            act.request(MoveAction::EndTurn);
        }
        // Online, Undo outside a relay asks the server for a takeback: not twice, and not with nothing to take back.
        let can_undo = calm && undo_allowed(&view.setup, game, act.online.as_deref().map(Online::may_ask_takeback));
        let undo = ui.add_enabled(can_undo, egui::Button::new(t("hud.undo")));
        if report_button(ui, "undo", &undo).clicked() {
            act.request(undo_action(&view.setup));
            *act.sel = Selection::default();
        }
        // Online, a takeback is the server's (asked for with Undo); there is nothing to redo.
        let redo = calm && game.can_redo() && !view.setup.is_online();
        if ui.add_enabled(redo, egui::Button::new(t("hud.redo"))).clicked() {
            act.request(MoveAction::Redo);
            if view.setup.is_cpu(view.state.position().side_to_move().opponent()) {
                // Against the CPU a takeback went back two turns: bring both back.
                act.request(MoveAction::Redo);
            }
        }
    });
}

/// Hint, offer a draw, resign.
fn game_buttons(ui: &mut egui::Ui, view: &HudView, act: &mut HudActions) {
    let (can_act, to_move) = (view.can_act(), view.state.position().side_to_move());
    ui.horizontal_wrapped(|ui| {
        // No engine help against a person online.
        if !view.setup.is_online() {
            let hint = ui.add_enabled(can_act && !view.hint.pending, egui::Button::new(t("hud.hint")));
            if report_button(ui, "hint", &hint).clicked() {
                act.hints.write(HintRequest);
            }
        }
        // Online, the offer is the server's: the local game never holds it.
        let no_offer = match act.online.as_deref() {
            Some(online) if view.setup.is_online() => online.may_offer_draw(),
            _ => view.state.draw_offer().is_none(),
        };
        let offer_ok = can_act && no_offer;
        let offer = ui.add_enabled(offer_ok, egui::Button::new(t("hud.offer_draw")));
        if report_button(ui, "offer_draw", &offer).clicked() {
            act.request(MoveAction::OfferDraw(to_move));
        }
        // Resigning ends the game for good: the first click asks, in place, and the question lapses when the
        // position changes.
        let asked_id = egui::Id::new("resign asked");
        let generation = view.state.generation();
        let asked = ui.data(|d| d.get_temp::<u64>(asked_id)) == Some(generation);
        if asked && can_act {
            let confirm = ui.button(egui::RichText::new(t("hud.resign_confirm")).color(colors::WARN));
            report_button(ui, "resign_confirm", &confirm);
            if confirm.clicked() {
                act.request(MoveAction::Resign(to_move));
                ui.data_mut(|d| d.remove::<u64>(asked_id));
            }
            if ui.button(t("hud.resign_keep")).clicked() {
                ui.data_mut(|d| d.remove::<u64>(asked_id));
            }
        } else {
            let resign = ui.add_enabled(can_act, egui::Button::new(t("hud.resign")));
            report_button(ui, "resign", &resign);
            if resign.clicked() {
                ui.data_mut(|d| d.insert_temp(asked_id, generation));
            }
        }
    });
}

/// The hint being searched, or its answer.
fn hint_line(ui: &mut egui::Ui, hint: &Hint) {
    if hint.pending {
        ui.label(egui::RichText::new(t("hud.hint_pending")).color(colors::DIM));
    } else if let Some((_, turn, score)) = &hint.answer {
        ui.label(tf("hud.hint_answer", &[("turn", turn.to_string().into()), ("score", score_text(*score).into())]));
    }
}

/// A draw offer on the table: a person answers it here; the CPU's judgement is shown while it considers.
fn draw_offer(ui: &mut egui::Ui, view: &HudView, act: &mut HudActions) {
    let Some(by) = view.state.draw_offer() else { return };
    let answerer = by.opponent();
    if view.setup.is_human(answerer) {
        ui.label(tf("hud.offers_draw", &[("side", side_label(&view.setup, by).into())]));
        ui.horizontal(|ui| {
            if ui.button(t("hud.accept")).clicked() {
                act.request(MoveAction::AnswerDraw { accept: true });
            }
            if ui.button(t("hud.decline")).clicked() {
                act.request(MoveAction::AnswerDraw { accept: false });
            }
        });
    } else {
        let level = cpu_level(&view.setup, answerer).map_or("", level_name);
        ui.label(egui::RichText::new(tf("hud.cpu_considers", &[("level", level.into())])).color(colors::DIM));
    }
}

/// The animation speed and the menu button.
fn speed_and_menu(ui: &mut egui::Ui, view: &HudView, act: &mut HudActions) {
    ui.horizontal(|ui| {
        ui.label(t("hud.animation"));
        egui::ComboBox::from_id_salt("speed").selected_text(act.speed.name()).show_ui(ui, |ui| {
            for s in AnimationSpeed::ALL {
                ui.selectable_value(&mut *act.speed, s, s.name());
            }
        });
    });
    // In the game the menu is the pause window; after the game it is the title.
    let menu = ui.button(t("hud.menu"));
    if report_button(ui, "menu", &menu).clicked() {
        if *view.screen.get() == Screen::Playing {
            act.next_pause.set(Pause::Paused);
        } else {
            act.next.set(Screen::Title);
        }
    }
}

/// The turns so far, numbered, with the steps of a relay in progress.
fn move_list(ui: &mut egui::Ui, game: &fanorona_engine::Game, room: f32) {
    ui.label(egui::RichText::new(t("hud.moves")).strong());
    egui::ScrollArea::vertical().stick_to_bottom(true).max_height(room).auto_shrink([false, true]).show(ui, |ui| {
        let mut side = game.start_position().side_to_move();
        for (i, t) in game.turns().iter().enumerate() {
            let who = side_initial(side);
            // The number in a column of its own: a long relay wraps under its own start, not under the number.
            ui.horizontal_top(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                ui.label(egui::RichText::new(format!("{:>3}. {who}  ", i + 1)).monospace());
                ui.add(egui::Label::new(egui::RichText::new(t.to_string()).monospace()).wrap());
            });
            side = side.opponent();
        }
        if !game.pending_steps().is_empty() {
            let steps: Vec<String> = game.pending_steps().iter().map(|s| s.to_string()).collect();
            ui.label(egui::RichText::new(format!("     …  {}", steps.join(" "))).monospace().color(colors::DIM));
        }
    });
}
