//! The title (with a CPU-vs-CPU game behind it), the new-game setup form and the rules screen.

use crate::i18n::variant_name;
use crate::i18n::{level_name, side_name, t};
use crate::platform::cli::Options;
use crate::platform::redraw::{FrameDemand, WindowShown};
use crate::play::cpu::CpuEnabled;
use crate::play::referee::{AnimationsPending, GameState, MatchSetup, NewGame, Player};
use crate::play::setup::{Mode, SetupForm};
use crate::screens::analysis::AnalysisAction;
use crate::screens::lessons::LessonNav;
use crate::screens::puzzles::PuzzleNav;
use crate::screens::telo::TeloAction;
use crate::screens::widgets::{big_button, centered};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPreUpdateSet, EguiPrimaryContextPass, egui};
use fanorona_engine::levels::Level;
use fanorona_engine::{RelayRule, Rules, Side, Variant};
use std::time::Duration;

/// Adds the title, setup and rules screens.
pub fn plugin(app: &mut App) {
    app.add_systems(Startup, init_form)
        .add_systems(OnEnter(Screen::Title), start_title_game)
        .add_systems(Update, (restart_title_game, pause_title_game_when_hidden).run_if(in_state(Screen::Title)))
        // Whatever the title's window did, the player's own game has its CPU.
        .add_systems(OnExit(Screen::Title), |mut cpu: ResMut<CpuEnabled>| cpu.0 = true)
        // Before the first pass begins, so that its first frame already has the fonts (set_fonts takes effect
        // at the start of a pass).
        .add_systems(PreUpdate, style.after(EguiPreUpdateSet::InitContexts).before(EguiPreUpdateSet::BeginPass))
        .add_systems(
            EguiPrimaryContextPass,
            (
                settle_first_layout,
                title.run_if(in_state(Screen::Title)),
                setup_screen.run_if(in_state(Screen::Setup)),
                rules_screen.run_if(in_state(Screen::Rules)),
            ),
        );
}

/// The saved form (see `persist`) wins over the command line's default level, which only fills a fresh form.
fn init_form(mut commands: Commands, options: Res<Options>, form: Option<Res<SetupForm>>) {
    if form.is_none() {
        commands.insert_resource(SetupForm { level: options.0.level().number(), ..SetupForm::default() });
    }
}

/// Warm colours and the game's fonts for egui, set once the context exists.
fn style(mut contexts: EguiContexts, mut done: Local<bool>) {
    if *done {
        return;
    }
    // The primary context appears with the window's camera: until then, try again next frame.
    let Ok(ctx) = contexts.ctx_mut() else { return };
    *done = true;
    ctx.set_fonts(crate::screens::fonts::definitions());
    ctx.options_mut(|o| {
        o.max_passes = FIRST_LAYOUT_PASSES;
        patient_clicks(&mut o.input_options);
    });
    let mut visuals = egui::Visuals::dark();
    // Opaque: a window over the moving board behind the title must read as well as one over a still board.
    visuals.window_fill = egui::Color32::from_rgb(38, 28, 22);
    visuals.panel_fill = egui::Color32::from_rgb(34, 26, 21);
    visuals.window_corner_radius = egui::CornerRadius::same(10);
    visuals.selection.bg_fill = egui::Color32::from_rgb(150, 95, 45);
    ctx.set_visuals(visuals);
    ctx.all_styles_mut(|s| {
        s.spacing.button_padding = egui::vec2(10.0, 5.0);
        s.spacing.item_spacing = egui::vec2(8.0, 6.0);
    });
}

/// A press on a button and its release count as a click however long apart they reach egui. egui's default (0.8 s,
/// after which a still press is a touch screen's long press for a context menu, which this game has none of) is
/// judged on frame times: where frames come half a second apart (a slow machine, a software-rendered browser), a
/// quick click's press and release can reach egui in frames 0.9 s apart, and the button ignored it (the web tests
/// caught Resign and Create ignored three times running).
pub(crate) fn patient_clicks(input: &mut egui::InputOptions) {
    input.max_click_duration = f64::INFINITY;
}

/// Passes egui may run within one frame (its default is 2); [`settle_first_layout`] uses them all once.
const FIRST_LAYOUT_PASSES: std::num::NonZeroUsize = std::num::NonZeroUsize::new(3).unwrap();

/// Lays the first frame out until it has settled: a new egui window is measured invisibly in its first pass and
/// placed from that size in the next, and a centred one lands in its place only a pass later. egui spreads those
/// passes over frames, so the first picture showed the menu off centre, in the browser for the half second that
/// a frame takes there in software rendering. Discarding the context's first passes runs them within the first
/// frame instead (a few milliseconds, once).
fn settle_first_layout(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.cumulative_pass_nr() + 1 < FIRST_LAYOUT_PASSES.get() as u64 {
        ctx.request_discard("the first frame's layout");
    }
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

/// Seconds between the end of the title's game and the next one.
const TITLE_RESTART_SECS: f32 = 3.0;

/// When the game behind the title ends, start another after a pause.
fn restart_title_game(
    state: Res<GameState>,
    busy: Res<AnimationsPending>,
    time: Res<Time<Real>>,
    mut over_since: Local<Option<f32>>,
    mut setup: ResMut<MatchSetup>,
    mut new: MessageWriter<NewGame>,
    mut demand: ResMut<FrameDemand>,
) {
    if !state.game().is_over() || busy.0 {
        *over_since = None;
        return;
    }
    let now = time.elapsed_secs();
    let since = *over_since.get_or_insert(now);
    if now - since > TITLE_RESTART_SECS {
        setup.seed = setup.seed.wrapping_add(1);
        new.write(NewGame);
        *over_since = None;
    } else {
        demand.within(Duration::from_secs_f32(TITLE_RESTART_SECS - (now - since)));
    }
}

/// The game behind the title starts no search while nobody can see it (a minimised window, a background tab).
fn pause_title_game_when_hidden(shown: Res<WindowShown>, mut cpu: ResMut<CpuEnabled>) {
    if cpu.0 != shown.0 {
        cpu.0 = shown.0;
    }
}

fn title(
    mut contexts: EguiContexts,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    resume: Res<crate::save::persist::Resume>,
    mut resume_game: MessageWriter<crate::save::persist::ResumeGame>,
    stats: Res<crate::save::persist::PlayerStats>,
    mut lessons: MessageWriter<LessonNav>,
    mut analysis: MessageWriter<AnalysisAction>,
    mut telo: MessageWriter<TeloAction>,
    mut puzzles: MessageWriter<PuzzleNav>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The first start offers the lessons once, beside the menu; a player with games behind them is not asked.
    if !stats.0.lessons_offered && stats.0.games_played == 0 {
        egui::Window::new(t("lessons.offer.title"))
            .id(egui::Id::new("lessons_offer"))
            .collapsible(false)
            .resizable(false)
            // Beside the menu, not over it.
            .anchor(egui::Align2::RIGHT_TOP, [-16.0, 16.0])
            .default_width(300.0)
            .show(ctx, |ui| {
                ui.label(t("lessons.offer.text"));
                ui.horizontal(|ui| {
                    if ui.button(t("lessons.offer.yes")).clicked() {
                        lessons.write(LessonNav::Open(0));
                    }
                    if ui.button(t("lessons.offer.no")).clicked() {
                        lessons.write(LessonNav::Offered);
                    }
                });
            });
    }
    centered("title").show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(8.0);
            ui.label(egui::RichText::new(t("app.title")).size(44.0).color(colors::GOLD));
            ui.label(egui::RichText::new(t("menu.subtitle")).size(16.0).color(colors::DIM));
            ui.add_space(14.0);
            if resume.unfinished() && big_button(ui, "persist.continue") {
                resume_game.write(crate::save::persist::ResumeGame);
            }
            if big_button(ui, "menu.new_game") {
                next.set(Screen::Setup);
            }
            if big_button(ui, "online.button") {
                next.set(Screen::Online);
            }
            if big_button(ui, "lessons.button") {
                lessons.write(LessonNav::Open(0));
            }
            if big_button(ui, "puzzles.button") {
                puzzles.write(PuzzleNav::Open);
            }
            if big_button(ui, "analysis.button") {
                analysis.write(AnalysisAction::Open(None));
            }
            if big_button(ui, "telo.button") {
                telo.write(TeloAction::Open);
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
            players_rows(ui, &mut form);
            rules_rows(ui, &mut form);
        });
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            let start = ui.add_sized([120.0, 32.0], egui::Button::new(t("setup.start")));
            crate::screens::widgets::report_button(ui, "start", &start);
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

/// The setup's rows about who plays: mode, the person's colour, the CPU's level.
fn players_rows(ui: &mut egui::Ui, form: &mut SetupForm) {
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
}

/// The setup's rows about the rules: board, relay rule and options.
fn rules_rows(ui: &mut egui::Ui, form: &mut SetupForm) {
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
}

fn rules_screen(mut contexts: EguiContexts, mut next: ResMut<NextState<Screen>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // As large as the screen allows: the help scrolls, the title and Back button stay in view.
    let screen = ctx.viewport_rect().size();
    let (width, height) = ((screen.x - 40.0).clamp(260.0, 640.0), (screen.y - 130.0).max(120.0));
    centered("rules").show(ctx, |ui| {
        ui.set_width(width);
        ui.label(egui::RichText::new(t("rules.title")).size(26.0).color(colors::GOLD));
        ui.allocate_ui(egui::vec2(width, height), crate::screens::help::rules_ui);
        if ui.button(t("menu.back")).clicked() {
            next.set(Screen::Title);
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use bevy_egui::egui;

    /// One egui pass at `time` (seconds) with `events`, showing a single button: its rectangle and whether it
    /// was clicked in this pass.
    fn pass(ctx: &egui::Context, time: f64, events: Vec<egui::Event>) -> (egui::Rect, bool) {
        let input = egui::RawInput {
            time: Some(time),
            events,
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(400.0, 300.0))),
            ..Default::default()
        };
        let mut out = (egui::Rect::NOTHING, false);
        let mut output = ctx.run_ui(input, |ui| {
            let r = ui.button("Resign");
            out = (r.rect, r.clicked());
        });
        // No renderer takes the font atlas here.
        output.textures_delta.clear();
        out
    }

    /// A click whose press and release reach egui in frames `apart` seconds apart (the pointer still on the
    /// button throughout), in a fresh context with the game's input options or egui's own: whether the button
    /// took it.
    fn click_over_slow_frames(patient: bool, apart: f64) -> bool {
        let ctx = egui::Context::default();
        if patient {
            ctx.options_mut(|o| super::patient_clicks(&mut o.input_options));
        }
        let (rect, _) = pass(&ctx, 0.0, Vec::new());
        let pos = rect.center();
        let button = |pressed| egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        };
        pass(&ctx, 0.5, vec![egui::Event::PointerMoved(pos)]);
        let (_, on_press) = pass(&ctx, 1.0, vec![button(true)]);
        let (_, on_release) = pass(&ctx, 1.0 + apart, vec![button(false)]);
        on_press || on_release
    }

    #[test]
    fn a_click_counts_however_far_apart_its_frames_are() {
        for apart in [0.05, 0.5, 0.92, 3.0] {
            assert!(click_over_slow_frames(true, apart), "a click over frames {apart} s apart was ignored");
        }
        // egui's own default ignores the slow one: the case the setting is for.
        assert!(click_over_slow_frames(false, 0.05));
        assert!(!click_over_slow_frames(false, 0.92));
    }
}
