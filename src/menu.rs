//! Menus (egui): the title with a CPU-vs-CPU game behind it, new-game setup, rules, settings and game over.

use crate::animation::AnimationSpeed;
use crate::audio::SoundSettings;
use crate::board::BoardFrame;
use crate::cli::Options;
use crate::hud::{capitalise, colors, variant_name};
use crate::input::undo_action;
use crate::rules::{AnimationsPending, GameState, MatchSetup, MoveRequest, NewGame, Player};
use crate::screen::Screen;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::levels::Level;
use fanorona_engine::{RelayRule, Rules, Side, Variant};

/// Who plays in the game being set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the CPU.
    VsCpu,
    /// Two people at one screen.
    HotSeat,
    /// The CPU against itself.
    CpuVsCpu,
}

/// The new-game form, kept between games.
#[derive(Resource, Clone, Debug)]
pub struct SetupForm {
    /// Who plays.
    pub mode: Mode,
    /// The person's colour against the CPU.
    pub colour: Side,
    /// CPU level 1–5.
    pub level: u8,
    /// Rule options (variant included).
    pub rules: Rules,
}

impl SetupForm {
    /// The match this form describes.
    pub fn to_setup(&self, seed: u64) -> MatchSetup {
        let cpu = Player::Cpu(Level::from_number(self.level).unwrap_or_default());
        let players = match self.mode {
            Mode::HotSeat => [Player::Human, Player::Human],
            Mode::CpuVsCpu => [cpu, cpu],
            Mode::VsCpu if self.colour == Side::White => [Player::Human, cpu],
            Mode::VsCpu => [cpu, Player::Human],
        };
        MatchSetup { rules: self.rules, players, seed }
    }
}

/// Adds the menus and the screen flow.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, init_form)
        .add_systems(OnEnter(Screen::Title), start_title_game)
        .add_systems(Update, (restart_title_game.run_if(in_state(Screen::Title)), to_game_over))
        .add_systems(
            EguiPrimaryContextPass,
            (
                style,
                title.run_if(in_state(Screen::Title)),
                setup_screen.run_if(in_state(Screen::Setup)),
                rules_screen.run_if(in_state(Screen::Rules)),
                settings_screen.run_if(in_state(Screen::Settings)),
                game_over.run_if(in_state(Screen::GameOver)),
            ),
        );
}

fn init_form(mut commands: Commands, options: Res<Options>) {
    commands.insert_resource(SetupForm {
        mode: Mode::VsCpu,
        colour: Side::White,
        level: options.0.level().number(),
        rules: Rules::default(),
    });
}

/// Warm colours for egui, set once the context exists.
fn style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    *done = true;
    let ctx = contexts.ctx_mut()?;
    let mut visuals = egui::Visuals::dark();
    visuals.window_fill = egui::Color32::from_rgba_unmultiplied(38, 28, 22, 250);
    visuals.panel_fill = egui::Color32::from_rgb(34, 26, 21);
    visuals.window_corner_radius = egui::CornerRadius::same(10);
    visuals.selection.bg_fill = egui::Color32::from_rgb(150, 95, 45);
    ctx.set_visuals(visuals);
    ctx.all_styles_mut(|s| {
        s.spacing.button_padding = egui::vec2(10.0, 5.0);
        s.spacing.item_spacing = egui::vec2(8.0, 6.0);
    });
    Ok(())
}

/// The title plays a CPU-vs-CPU game behind the menu.
fn start_title_game(mut setup: ResMut<MatchSetup>, mut new: MessageWriter<NewGame>, time: Res<Time<Real>>) {
    *setup = MatchSetup {
        rules: Rules::default(),
        players: [Player::Cpu(Level::Novice), Player::Cpu(Level::Novice)],
        seed: time.elapsed().as_nanos() as u64,
    };
    new.write(NewGame);
}

/// When the game behind the title ends, start another after a pause.
fn restart_title_game(
    state: Res<GameState>,
    busy: Res<AnimationsPending>,
    time: Res<Time<Real>>,
    mut over_since: Local<Option<f32>>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
) {
    if !state.game().is_over() || busy.0 {
        *over_since = None;
        return;
    }
    let now = time.elapsed_secs();
    let since = *over_since.get_or_insert(now);
    if now - since > 3.0 {
        setup.seed = setup.seed.wrapping_add(1);
        new.write(NewGame);
        *over_since = None;
    }
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

fn centered(title: &str) -> egui::Window<'_> {
    egui::Window::new(title)
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
}

fn big_button(ui: &mut egui::Ui, text: &str) -> bool {
    ui.add_sized([220.0, 36.0], egui::Button::new(egui::RichText::new(text).size(18.0))).clicked()
}

fn title(mut contexts: EguiContexts, mut next: ResMut<NextState<Screen>>, mut exit: MessageWriter<AppExit>) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("title").show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(8.0);
            ui.label(egui::RichText::new("Fanorona").size(44.0).color(colors::GOLD));
            ui.label(egui::RichText::new("the board game of Madagascar").size(16.0).color(colors::DIM));
            ui.add_space(14.0);
            if big_button(ui, "New game") {
                next.set(Screen::Setup);
            }
            if big_button(ui, "Settings") {
                next.set(Screen::Settings);
            }
            if big_button(ui, "Rules") {
                next.set(Screen::Rules);
            }
            #[cfg(not(target_arch = "wasm32"))]
            if big_button(ui, "Quit") {
                exit.write(AppExit::Success);
            }
            ui.add_space(8.0);
        });
    });
    #[cfg(target_arch = "wasm32")]
    let _ = &mut exit;
    Ok(())
}

fn setup_screen(
    mut contexts: EguiContexts,
    mut form: ResMut<SetupForm>,
    options: Res<Options>,
    time: Res<Time<Real>>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("setup").show(ctx, |ui| {
        ui.set_width(380.0);
        ui.label(egui::RichText::new("New game").size(26.0).color(colors::GOLD));
        ui.add_space(6.0);
        egui::Grid::new("setup_grid").num_columns(2).spacing([16.0, 10.0]).show(ui, |ui| {
            ui.label("Players");
            ui.vertical(|ui| {
                ui.radio_value(&mut form.mode, Mode::VsCpu, "Against the CPU");
                ui.radio_value(&mut form.mode, Mode::HotSeat, "Two players, one screen");
                ui.radio_value(&mut form.mode, Mode::CpuVsCpu, "Watch the CPU play itself");
            });
            ui.end_row();
            if form.mode == Mode::VsCpu {
                ui.label("You play");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut form.colour, Side::White, "White");
                    ui.radio_value(&mut form.colour, Side::Black, "Black");
                });
                ui.end_row();
            }
            if form.mode != Mode::HotSeat {
                ui.label("CPU level");
                ui.horizontal(|ui| {
                    ui.add(egui::Slider::new(&mut form.level, 1..=5).show_value(false));
                    ui.label(Level::from_number(form.level).unwrap_or_default().name());
                });
                ui.end_row();
            }
            ui.label("Board");
            ui.vertical(|ui| {
                ui.radio_value(&mut form.rules.variant, Variant::Tsivy, variant_name(Variant::Tsivy));
                ui.radio_value(&mut form.rules.variant, Variant::Dimy, variant_name(Variant::Dimy));
            });
            ui.end_row();
            ui.label("Relays");
            ui.vertical(|ui| {
                ui.radio_value(&mut form.rules.relay, RelayRule::Default, "Standard (no point twice)");
                ui.radio_value(&mut form.rules.relay, RelayRule::Lines, "Lines (no segment twice)");
            });
            ui.end_row();
            ui.label("Options");
            ui.vertical(|ui| {
                ui.checkbox(&mut form.rules.first_turn_no_relay, "First turn without relay");
                ui.checkbox(&mut form.rules.single_first_capture, "Single first capture");
                let mut black_first = form.rules.first_player == Side::Black;
                if ui.checkbox(&mut black_first, "Black starts").changed() {
                    form.rules.first_player = if black_first { Side::Black } else { Side::White };
                }
            });
            ui.end_row();
        });
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            if ui.add_sized([120.0, 32.0], egui::Button::new("Start")).clicked() {
                let seed = options.0.seed.unwrap_or_else(|| time.elapsed().as_nanos() as u64);
                *setup = form.to_setup(seed);
                new.write(NewGame);
                next.set(Screen::Playing);
            }
            if ui.add_sized([120.0, 32.0], egui::Button::new("Back")).clicked() {
                next.set(Screen::Title);
            }
        });
    });
    Ok(())
}

/// The rules in short, for the rules screen and the pause window.
pub const RULES_TEXT: &str = "\
The board: 9 × 5 points joined by lines. Strong points (marked with a ring) are also joined diagonally.

A turn: move one of your pieces one step along a line to an empty point.

Capturing is compulsory. A step captures by approach when it stops just before an enemy piece in the \
direction of travel, and by withdrawal when it moves directly away from an enemy piece. The enemy piece and \
every enemy piece right behind it on that line are removed. If a step could do both, you choose one.

Relay: after a capture the same piece may capture again, but not in the same direction twice in a row and \
never onto a point it already stood on this turn. You may stop whenever you like (End turn, or Enter).

A move that captures nothing (paika) is allowed only when no capture exists anywhere on the board.

You lose with no pieces left, or no legal move. Three repetitions, or 100 turns without a capture, draw.

Controls: click a piece, then a highlighted point. Red points capture, green ones do not. U undoes, \
Escape cancels a selection or, with nothing selected, pauses.";

fn rules_screen(mut contexts: EguiContexts, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("rules").show(ctx, |ui| {
        ui.set_width(520.0);
        ui.label(egui::RichText::new("How to play").size(26.0).color(colors::GOLD));
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
            for para in RULES_TEXT.split("\n\n") {
                ui.label(para);
                ui.add_space(4.0);
            }
        });
        if ui.button("Back").clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

fn settings_screen(
    mut contexts: EguiContexts,
    mut speed: ResMut<AnimationSpeed>,
    mut sound: ResMut<SoundSettings>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("settings").show(ctx, |ui| {
        ui.set_width(300.0);
        ui.label(egui::RichText::new("Settings").size(26.0).color(colors::GOLD));
        settings_controls(ui, &mut speed, &mut sound);
        ui.add_space(8.0);
        if ui.button("Back").clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

fn game_over(
    mut contexts: EguiContexts,
    frame: Res<BoardFrame>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    mut requests: MessageWriter<MoveRequest>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(outcome) = state.game().outcome() else { return Ok(()) };
    let headline = match outcome.result() {
        fanorona_engine::GameResult::Win(side) if setup.is_human(side) && setup.is_cpu(side.opponent()) => {
            "You win!".to_string()
        }
        fanorona_engine::GameResult::Win(side) if setup.is_cpu(side) && setup.is_human(side.opponent()) => {
            "The CPU wins".to_string()
        }
        fanorona_engine::GameResult::Win(side) => format!("{} wins", capitalise(side.name())),
        fanorona_engine::GameResult::Draw => "Draw".to_string(),
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
                // The outcome reads "white wins: black has no pieces left"; the headline already says who won.
                let text = outcome.to_string();
                let reason = text.split_once(": ").map_or(text.as_str(), |(_, r)| r);
                ui.label(capitalise(reason));
                ui.label(egui::RichText::new(format!("after {} turns", state.game().turns().len())).color(colors::DIM));
                ui.add_space(8.0);
                if big_button(ui, "New game") {
                    new.write(NewGame);
                    next.set(Screen::Playing);
                }
                if big_button(ui, "Change setup") {
                    next.set(Screen::Setup);
                }
                let human = Side::BOTH.iter().any(|s| setup.is_human(*s));
                if human && !state.game().turns().is_empty() && big_button(ui, "Take back") {
                    requests.write(MoveRequest::new(undo_action(&setup)));
                }
                if big_button(ui, "Title") {
                    next.set(Screen::Title);
                }
            });
        });
    Ok(())
}

/// The settings themselves, shared by the title's settings screen and the pause window: animation speed and sound
/// volumes.
pub fn settings_controls(ui: &mut egui::Ui, speed: &mut AnimationSpeed, sound: &mut ResMut<SoundSettings>) {
    ui.label("Animation speed");
    ui.horizontal(|ui| {
        for s in AnimationSpeed::ALL {
            ui.radio_value(speed, s, s.name());
        }
    });
    ui.add_space(6.0);
    crate::audio::volume_controls(ui, sound);
}
