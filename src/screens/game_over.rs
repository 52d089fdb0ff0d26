//! The game-over window: the result and why, a vela game to claim, new game, take back, save the record.

use crate::i18n::capitalise;
use crate::i18n::{outcome_reason, result_text, side_name, t, tf};
use crate::play::board::BoardFrame;
use crate::play::input::undo_action;
use crate::play::referee::{AnimationsPending, GameState, MatchSetup, MoveRequest, NewGame};
use crate::play::setup::next_vela;
use crate::screens::widgets::big_button;
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::Side;

/// Adds the game-over window and the moves to and from it.
pub fn plugin(app: &mut App) {
    app.add_systems(Update, to_game_over)
        .add_systems(EguiPrimaryContextPass, game_over.run_if(in_state(Screen::GameOver)));
}

/// Shows the result once the last turn has been seen.
fn to_game_over(
    screen: Res<State<Screen>>,
    state: Res<GameState>,
    busy: Res<AnimationsPending>,
    mut next: ResMut<NextState<Screen>>,
) {
    match screen.get() {
        Screen::Playing if state.game().is_over() && !busy.0 => next.set(Screen::GameOver),
        // A takeback from the game-over window reopens the game.
        Screen::GameOver if !state.game().is_over() => next.set(Screen::Playing),
        _ => {}
    }
}

fn game_over(
    mut contexts: EguiContexts,
    frame: Res<BoardFrame>,
    state: Res<GameState>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    mut requests: MessageWriter<MoveRequest>,
    mut next: ResMut<NextState<Screen>>,
    mut export: MessageWriter<crate::screens::records::ExportRecord>,
    mut replays: MessageWriter<crate::screens::records::ReplayGame>,
    mut online: Option<ResMut<crate::online::Online>>,
    kept: Res<crate::screens::records::KeptRecord>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(outcome) = state.game().outcome() else { return Ok(()) };
    let headline = match outcome.result() {
        fanorona_engine::GameResult::Win(side) if setup.is_human(side) && setup.is_cpu(side.opponent()) => {
            t("result.you_win")
        }
        fanorona_engine::GameResult::Win(side) if setup.is_cpu(side) && setup.is_human(side.opponent()) => {
            t("result.cpu_wins")
        }
        // Online, the player against a person elsewhere: the result in the player's own words too.
        fanorona_engine::GameResult::Win(side) if setup.is_human(side) && setup.is_online() => t("result.you_win"),
        fanorona_engine::GameResult::Win(side) if setup.is_human(side.opponent()) && setup.is_online() => {
            t("result.you_lose")
        }
        result => result_text(result),
    };
    egui::Window::new("game over")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        // Over the board's centre, whichever side the HUD takes.
        .anchor(egui::Align2::CENTER_CENTER, [(frame.left - frame.right) / 2.0, (frame.top - frame.bottom) / 2.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                ui.label(egui::RichText::new(headline).size(32.0).color(colors::GOLD));
                // The headline already says who won: this says why.
                ui.label(capitalise(outcome_reason(outcome)));
                let after = tf("over.after_turns", &[("turns", state.game().turns().len().into())]);
                ui.label(egui::RichText::new(after).color(colors::DIM));
                if kept.name_of(state.game()).is_some() {
                    ui.label(egui::RichText::new(t("over.kept")).small().color(colors::DIM));
                }
                ui.add_space(8.0);
                // An online game was the server's: another one starts from the online screen.
                let is_online = setup.is_online();
                if is_online && big_button(ui, "online.again") {
                    if let Some(online) = online.as_deref_mut() {
                        online.leave();
                    }
                    next.set(Screen::Online);
                    return;
                }
                if let Some((loser, vela)) =
                    next_vela(&setup, state.game().rules(), outcome.result()).filter(|_| !is_online)
                {
                    let key = if state.game().rules().vela.is_some() { "vela.again" } else { "vela.claim" };
                    let text = tf(key, &[("side", side_name(loser).into())]);
                    let b = ui.add_sized([220.0, 36.0], egui::Button::new(egui::RichText::new(text).size(16.0)));
                    crate::screens::widgets::report_button(ui, "vela", &b);
                    if b.clicked() {
                        setup.rules.vela = Some(vela);
                        new.write(NewGame);
                        next.set(Screen::Playing);
                    }
                }
                if !is_online && big_button(ui, "menu.new_game") {
                    // After a vela game (claimed or not), a plain new game is on equal terms.
                    setup.rules.vela = None;
                    new.write(NewGame);
                    next.set(Screen::Playing);
                }
                if !is_online && big_button(ui, "over.change_setup") {
                    next.set(Screen::Setup);
                }
                let human = Side::BOTH.iter().any(|s| setup.is_human(*s));
                if human && !is_online && !state.game().turns().is_empty() && big_button(ui, "over.take_back") {
                    requests.write(MoveRequest::new(undo_action(&setup)));
                }
                if big_button(ui, "review.button") {
                    replays.write(crate::screens::records::ReplayGame {
                        game: state.game().clone(),
                        white: crate::play::setup::player_name(setup.player(Side::White)),
                        black: crate::play::setup::player_name(setup.player(Side::Black)),
                        review: true,
                        finished: Some(setup.clone()),
                    });
                }
                if big_button(ui, "records.save") {
                    export.write(crate::screens::records::ExportRecord::Save);
                }
                if big_button(ui, "menu.title_screen") {
                    next.set(Screen::Title);
                }
            });
        });
    Ok(())
}
