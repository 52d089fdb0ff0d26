//! Menus (egui): the title with a CPU-vs-CPU game behind it, new-game setup, rules, settings and game over.

use crate::animation::AnimationSpeed;
use crate::audio::SoundSettings;
use crate::board::BoardFrame;
use crate::cli::Options;
use crate::hud::{capitalise, colors, variant_name};
use crate::i18n::{Lang, level_name, outcome_reason, result_text, side_name, t, tf};
use crate::input::undo_action;
use crate::rules::{AnimationsPending, GameState, MatchSetup, MoveRequest, NewGame, Player};
use crate::screen::Screen;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::levels::Level;
use fanorona_engine::{GameResult, RelayRule, Rules, Side, Variant, Vela};

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
    /// A vela match: after a decided game the loser may claim a vela game.
    pub vela_match: bool,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            mode: Mode::VsCpu,
            colour: Side::White,
            level: Level::Intermediate.number(),
            rules: Rules::default(),
            vela_match: false,
        }
    }
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
        MatchSetup { rules: self.rules, players, seed, vela_match: self.vela_match }
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

/// The saved form (see `persist`) wins over the command line's default level, which only fills a fresh form.
fn init_form(mut commands: Commands, options: Res<Options>, form: Option<Res<SetupForm>>) {
    if form.is_none() {
        commands.insert_resource(SetupForm { level: options.0.level().number(), ..SetupForm::default() });
    }
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
        vela_match: false,
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

/// A large menu button with the text of `key`; its place is reported to the web page (for tests) under the
/// key's last part.
fn big_button(ui: &mut egui::Ui, key: &'static str) -> bool {
    let r = ui.add_sized([220.0, 36.0], egui::Button::new(egui::RichText::new(t(key)).size(18.0)));
    crate::web::button_at(key.rsplit('.').next().unwrap_or(key), r.rect);
    r.clicked()
}

fn title(
    mut contexts: EguiContexts,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    resume: Res<crate::persist::Resume>,
    mut resume_game: MessageWriter<crate::persist::ResumeGame>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("title").show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(8.0);
            ui.label(egui::RichText::new(t("app.title")).size(44.0).color(colors::GOLD));
            ui.label(egui::RichText::new(t("menu.subtitle")).size(16.0).color(colors::DIM));
            ui.add_space(14.0);
            if resume.unfinished() && big_button(ui, "persist.continue") {
                resume_game.write(crate::persist::ResumeGame);
            }
            if big_button(ui, "menu.new_game") {
                next.set(Screen::Setup);
            }
            if big_button(ui, "stats.button") {
                next.set(Screen::Stats);
            }
            if big_button(ui, "menu.settings") {
                next.set(Screen::Settings);
            }
            if big_button(ui, "menu.rules") {
                next.set(Screen::Rules);
            }
            if big_button(ui, "records.title") {
                next.set(Screen::Records);
            }
            #[cfg(not(target_arch = "wasm32"))]
            if big_button(ui, "menu.quit") {
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
        ui.label(egui::RichText::new(t("menu.new_game")).size(26.0).color(colors::GOLD));
        ui.add_space(6.0);
        egui::Grid::new("setup_grid").num_columns(2).spacing([16.0, 10.0]).show(ui, |ui| {
            ui.label(t("setup.players"));
            ui.vertical(|ui| {
                ui.radio_value(&mut form.mode, Mode::VsCpu, t("setup.vs_cpu"));
                ui.radio_value(&mut form.mode, Mode::HotSeat, t("setup.hot_seat"));
                ui.radio_value(&mut form.mode, Mode::CpuVsCpu, t("setup.cpu_vs_cpu"));
            });
            ui.end_row();
            if form.mode == Mode::VsCpu {
                ui.label(t("setup.you_play"));
                ui.horizontal(|ui| {
                    ui.radio_value(&mut form.colour, Side::White, side_name(Side::White));
                    ui.radio_value(&mut form.colour, Side::Black, side_name(Side::Black));
                });
                ui.end_row();
            }
            if form.mode != Mode::HotSeat {
                ui.label(t("setup.cpu_level"));
                ui.horizontal(|ui| {
                    ui.add(egui::Slider::new(&mut form.level, 1..=5).show_value(false));
                    ui.label(level_name(Level::from_number(form.level).unwrap_or_default()));
                });
                ui.end_row();
            }
            ui.label(t("setup.board"));
            ui.vertical(|ui| {
                ui.radio_value(&mut form.rules.variant, Variant::Tsivy, variant_name(Variant::Tsivy));
                ui.radio_value(&mut form.rules.variant, Variant::Dimy, variant_name(Variant::Dimy));
            });
            ui.end_row();
            ui.label(t("setup.relays"));
            ui.vertical(|ui| {
                ui.radio_value(&mut form.rules.relay, RelayRule::Default, t("setup.relay_default"));
                ui.radio_value(&mut form.rules.relay, RelayRule::Lines, t("setup.relay_lines"));
            });
            ui.end_row();
            ui.label(t("setup.options"));
            ui.vertical(|ui| {
                ui.checkbox(&mut form.rules.first_turn_no_relay, t("setup.first_turn_no_relay"));
                ui.checkbox(&mut form.rules.single_first_capture, t("setup.single_first_capture"));
                let mut black_first = form.rules.first_player == Side::Black;
                if ui.checkbox(&mut black_first, t("setup.black_starts")).changed() {
                    form.rules.first_player = if black_first { Side::Black } else { Side::White };
                }
                ui.checkbox(&mut form.vela_match, t("vela.match"));
            });
            ui.end_row();
        });
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            let start = ui.add_sized([120.0, 32.0], egui::Button::new(t("setup.start")));
            crate::web::button_at("start", start.rect);
            if start.clicked() {
                let seed = options.0.seed.unwrap_or_else(|| time.elapsed().as_nanos() as u64);
                *setup = form.to_setup(seed);
                new.write(NewGame);
                next.set(Screen::Playing);
            }
            if ui.add_sized([120.0, 32.0], egui::Button::new(t("menu.back"))).clicked() {
                next.set(Screen::Title);
            }
        });
    });
    Ok(())
}

fn rules_screen(mut contexts: EguiContexts, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // As large as the screen allows: the help scrolls, the title and Back button stay in view.
    let screen = ctx.viewport_rect().size();
    let (width, height) = ((screen.x - 40.0).clamp(260.0, 640.0), (screen.y - 130.0).max(120.0));
    centered("rules").show(ctx, |ui| {
        ui.set_width(width);
        ui.label(egui::RichText::new(t("rules.title")).size(26.0).color(colors::GOLD));
        ui.allocate_ui(egui::vec2(width, height), crate::help::rules_ui);
        if ui.button(t("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

fn settings_screen(
    mut contexts: EguiContexts,
    mut speed: ResMut<AnimationSpeed>,
    mut sound: ResMut<SoundSettings>,
    mut theme: ResMut<crate::theme::Theme>,
    storage: Res<crate::storage::Storage>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    centered("settings").show(ctx, |ui| {
        ui.set_width(300.0);
        ui.label(egui::RichText::new(t("menu.settings")).size(26.0).color(colors::GOLD));
        settings_controls(ui, &mut speed, &mut sound);
        ui.add_space(6.0);
        theme_selector(ui, &mut theme);
        ui.add_space(6.0);
        ui.label(egui::RichText::new(tf("settings.data_dir", &[("place", storage.describe().into())])).small().color(colors::DIM));
        ui.add_space(8.0);
        if ui.button(t("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

fn game_over(
    mut contexts: EguiContexts,
    frame: Res<BoardFrame>,
    state: Res<GameState>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    mut requests: MessageWriter<MoveRequest>,
    mut next: ResMut<NextState<Screen>>,
    mut export: MessageWriter<crate::records::ExportRecord>,
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
                ui.add_space(8.0);
                if let Some((loser, vela)) = next_vela(&setup, state.game().rules(), outcome.result()) {
                    let key = if state.game().rules().vela.is_some() { "vela.again" } else { "vela.claim" };
                    let text = tf(key, &[("side", side_name(loser).into())]);
                    let b = ui.add_sized([220.0, 36.0], egui::Button::new(egui::RichText::new(text).size(16.0)));
                    crate::web::button_at("vela", b.rect);
                    if b.clicked() {
                        setup.rules.vela = Some(vela);
                        new.write(NewGame);
                        next.set(Screen::Playing);
                    }
                }
                if big_button(ui, "menu.new_game") {
                    // After a vela game (claimed or not), a plain new game is on equal terms.
                    setup.rules.vela = None;
                    new.write(NewGame);
                    next.set(Screen::Playing);
                }
                if big_button(ui, "over.change_setup") {
                    next.set(Screen::Setup);
                }
                let human = Side::BOTH.iter().any(|s| setup.is_human(*s));
                if human && !state.game().turns().is_empty() && big_button(ui, "over.take_back") {
                    requests.write(MoveRequest::new(undo_action(&setup)));
                }
                if big_button(ui, "records.save") {
                    export.write(crate::records::ExportRecord::Save);
                }
                if big_button(ui, "menu.title_screen") {
                    next.set(Screen::Title);
                }
            });
        });
    Ok(())
}

/// The vela game that may follow a game with `result` under `rules` in a vela match: who claims it and its rules.
/// The loser of a game claims one; whoever loses a vela game plays vela again; winning one restores equal terms.
pub fn next_vela(setup: &MatchSetup, rules: &Rules, result: GameResult) -> Option<(Side, Vela)> {
    let GameResult::Win(winner) = result else { return None };
    if !setup.vela_match {
        return None;
    }
    match rules.vela {
        // The helped side (the earlier loser) won: equal terms again.
        Some(v) if v.winner != winner => None,
        _ => Some((winner.opponent(), Vela { winner, captured: 0 })),
    }
}

/// The settings themselves, shared by the title's settings screen and the pause window: language, animation speed
/// and sound volumes.
pub fn settings_controls(ui: &mut egui::Ui, speed: &mut AnimationSpeed, sound: &mut ResMut<SoundSettings>) {
    language_selector(ui);
    ui.add_space(6.0);
    ui.label(t("settings.animation_speed"));
    ui.horizontal(|ui| {
        for s in AnimationSpeed::ALL {
            ui.radio_value(speed, s, s.name());
        }
    });
    ui.add_space(6.0);
    crate::audio::volume_controls(ui, sound);
}

/// The board theme choice.
pub fn theme_selector(ui: &mut egui::Ui, theme: &mut crate::theme::Theme) {
    ui.horizontal(|ui| {
        ui.label(t("settings.theme"));
        for th in crate::theme::Theme::ALL {
            ui.radio_value(theme, th, t(th.key()));
        }
    });
}

/// The language choice: every language by its own name. Changing it changes every text from the next frame on.
fn language_selector(ui: &mut egui::Ui) {
    let current = crate::i18n::language();
    ui.horizontal(|ui| {
        ui.label(t("settings.language"));
        egui::ComboBox::from_id_salt("language").selected_text(current.native_name()).show_ui(ui, |ui| {
            for lang in Lang::ALL {
                if ui.selectable_label(lang == current, lang.native_name()).clicked() && lang != current {
                    crate::i18n::set_language(lang);
                }
            }
        });
    });
}
