//! The approach-or-withdrawal window: when a step can capture either way, the player picks which line to take,
//! wherever the board takes moves (a game, a lesson, a puzzle, the analysis board).

use crate::i18n::{t, tf};
use crate::play::board::BoardFrame;
use crate::play::input::Selection;
use crate::play::referee::{GameState, MoveAction, MoveRequest};
use crate::state::BoardPlay;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// Adds the window.
pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, capture_choice.run_if(in_state(BoardPlay)));
}

/// Asks the player which way to capture, above the board; the keys and a click on a line answer it too
/// (`play::input`).
fn capture_choice(
    mut contexts: EguiContexts,
    state: Res<GameState>,
    mut sel: ResMut<Selection>,
    frame: Res<BoardFrame>,
    mut requests: MessageWriter<MoveRequest>,
) -> Result {
    let Some((a, w)) = sel.choice else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let pos = state.position();
    egui::Window::new(t("capture.title"))
        .id(egui::Id::new("capture_choice"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [(frame.left - frame.right) / 2.0, frame.top + 36.0])
        .show(ctx, |ui| {
            ui.label(t("capture.explain"));
            ui.horizontal(|ui| {
                let options = [("capture.approach", a), ("capture.withdrawal", w)];
                for (key, step) in options {
                    if ui.button(tf(key, &[("count", pos.captured_by(step).count_ones().into())])).clicked() {
                        requests.write(MoveRequest::new(MoveAction::Step(step)));
                        sel.choice = None;
                        sel.piece = None;
                    }
                }
                if ui.button(t("capture.cancel")).clicked() {
                    sel.choice = None;
                }
            });
            ui.label(egui::RichText::new(t("keys.choice")).small().color(colors::DIM));
        });
    Ok(())
}
