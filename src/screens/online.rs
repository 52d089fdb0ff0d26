//! Playing a friend online: the screen to create, join, quick-match or watch a game (then the wait for the
//! friend, with the invite code and link to copy), the online section of the in-game HUD (the opponent's presence,
//! the code to share for watching, their offers to answer) and the server's notices.

use crate::i18n::FluentValue;
use crate::i18n::variant_name;
use crate::i18n::{side_name, t, tf};
use crate::online::{Goal, Link, Online, default_server, parse_code, parse_invite};
use crate::platform::cli::Options;
use crate::platform::redraw::FrameDemand;
use crate::play::board::BoardFrame;
use crate::play::referee::MatchSetup;
use crate::save::persist::OnlinePrefs;
use crate::screens::widgets::centered;
use crate::state::{InGame, Screen};
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::{Side, Variant};
use fanorona_net::{Board, ClientMsg, Colour, ColourChoice, MAX_NAME_CHARS};
use std::time::Duration;

/// The online form, kept while the game runs; the server and name are saved with the settings.
#[derive(Resource, Clone, Debug)]
pub struct OnlineForm {
    /// The server's address as typed: one, or several separated by commas or spaces
    /// ([`crate::online::server_urls`]).
    pub server: String,
    /// The display name.
    pub name: String,
    /// The board of a created game or a quick match.
    pub board: Board,
    /// The colour asked for when creating.
    pub colour: ColourChoice,
    /// The invite code (or link) typed to join.
    pub join_code: String,
    /// The spectator code typed to watch.
    pub watch_code: String,
    /// Join with `join_code` as soon as the online screen opens (`--join`, `?join=` in the page address).
    pub join_at_once: bool,
}

impl Default for OnlineForm {
    fn default() -> Self {
        OnlineForm {
            server: default_server(),
            name: String::new(),
            board: Board::Tsivy,
            colour: ColourChoice::Random,
            join_code: String::new(),
            watch_code: String::new(),
            join_at_once: false,
        }
    }
}

/// Adds the online screen and the server's notices in the game.
pub fn plugin(app: &mut App) {
    app.init_resource::<OnlinePrefs>()
        .add_systems(Update, keep_prefs.run_if(resource_exists_and_changed::<OnlineForm>))
        .add_systems(Startup, init_form)
        .add_systems(OnEnter(Screen::Online), join_at_once)
        .add_systems(
            EguiPrimaryContextPass,
            (online_screen.run_if(in_state(Screen::Online)), online_notice.run_if(in_state(InGame))),
        );
}

/// The form from the command line (or the page address): `--server`, and `--join CODE`, which opens the online
/// screen to join at once.
fn init_form(
    mut commands: Commands,
    options: Res<Options>,
    saved: Option<Res<OnlinePrefs>>,
    mut next: ResMut<NextState<Screen>>,
) {
    // The saved server and name (see `persist`) fill the form; the command line wins over them.
    let mut form = OnlineForm::default();
    if let Some(saved) = saved {
        form.name = saved.name.clone();
        if !saved.server.is_empty() {
            form.server = saved.server.clone();
        }
    }
    if let Some(server) = &options.0.server {
        form.server = server.clone();
    }
    if let Some(code) = &options.0.join {
        form.join_code = code.clone();
        form.join_at_once = true;
        next.set(Screen::Online);
    }
    commands.insert_resource(form);
}

/// Keeps the form's server and name for the settings to save.
fn keep_prefs(form: Res<OnlineForm>, mut prefs: ResMut<OnlinePrefs>) {
    prefs.set_if_neq(OnlinePrefs { server: form.server.clone(), name: form.name.clone() });
}

/// Joins the game of `--join` once the online screen is open (the title, entered first, ends any session).
fn join_at_once(form: Option<ResMut<OnlineForm>>, mut online: ResMut<Online>) {
    let Some(mut form) = form else { return };
    if !std::mem::take(&mut form.join_at_once) {
        return;
    }
    match parse_invite(&form.join_code) {
        Some(code) => online.start(&form.server, &form.name, Goal::Join(code)),
        None => online.fail(t("online.bad_code").to_string()),
    }
}

/// Puts `text` on the clipboard: the page's clipboard on the web, egui's on the desktop.
fn copy(ctx: &egui::Context, text: &str) {
    if !crate::platform::web::copy(text) {
        ctx.copy_text(text.to_string());
    }
}

fn online_screen(
    mut contexts: EguiContexts,
    form: Option<ResMut<OnlineForm>>,
    mut online: ResMut<Online>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(mut form) = form else { return Ok(()) };
    let ctx = contexts.ctx_mut()?.clone();
    centered("online").show(&ctx, |ui| {
        ui.set_width(430.0);
        ui.label(egui::RichText::new(t("online.title")).size(26.0).color(colors::GOLD));
        ui.add_space(6.0);
        if online.is_active() {
            waiting(ui, &ctx, &mut online);
        } else {
            form_ui(ui, &mut form, &mut online);
        }
        ui.add_space(8.0);
        if ui.add_sized([120.0, 30.0], egui::Button::new(t("menu.back"))).clicked() {
            online.leave();
            next.set(Screen::Title);
        }
    });
    Ok(())
}

/// The session under way: connecting, queued, or waiting for the friend with the invite to give.
fn waiting(ui: &mut egui::Ui, ctx: &egui::Context, online: &mut Online) {
    let server = online.url().to_string();
    let several = online.servers().len() > 1;
    match online.link() {
        Link::Connecting => {
            ui.label(tf("online.connecting", &[("server", server.into())]));
        }
        // With several servers the address is the next one tried, not the one that failed.
        Link::Retrying { .. } => {
            let key = if several { "online.retrying_next" } else { "online.retrying" };
            ui.label(egui::RichText::new(tf(key, &[("server", server.into())])).color(colors::WARN));
        }
        Link::Refused => {
            ui.label(egui::RichText::new(online.failure().unwrap_or_default()).color(colors::WARN));
        }
        Link::Open if several => {
            ui.label(egui::RichText::new(tf("online.connected_to", &[("server", server.into())])).color(colors::DIM));
        }
        Link::Open | Link::Offline => {}
    }
    if online.queued() {
        ui.label(t("online.queued"));
    } else if let Some(code) = online.invite().map(fanorona_net::format_invite) {
        ui.label(t("online.invite_intro"));
        // Short and grouped, to be read out over the phone: `7KQ2M-XW9PD`.
        ui.label(egui::RichText::new(&code).monospace().size(22.0).color(colors::GOLD));
        let link = online.invite_link().unwrap_or_default();
        crate::platform::web::event_once("invite", &link);
        ui.label(egui::RichText::new(&link).monospace().small());
        ui.horizontal(|ui| {
            if ui.button(t("online.copy_code")).clicked() {
                copy(ctx, &code);
            }
            if ui.button(t("online.copy_link")).clicked() {
                copy(ctx, &link);
            }
        });
        if let Some(watch) = online.spectate().map(str::to_string) {
            ui.add_space(4.0);
            ui.label(egui::RichText::new(t("online.spectate_intro")).color(colors::DIM));
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new(&watch).monospace().small().color(colors::DIM));
                if ui.small_button(t("online.copy_code")).clicked() {
                    copy(ctx, &watch);
                }
            });
        }
        ui.add_space(4.0);
        ui.label(t("online.waiting_friend"));
    } else if online.link() == Link::Open {
        ui.label(t("online.joining"));
    }
    ui.add_space(6.0);
    if ui.button(t("online.cancel")).clicked() {
        online.leave();
    }
}

/// The form: server, name, board and colour; then create, join, quick match or watch.
fn form_ui(ui: &mut egui::Ui, form: &mut OnlineForm, online: &mut Online) {
    if let Some(why) = online.failure() {
        ui.label(egui::RichText::new(why).color(colors::WARN));
    }
    egui::Grid::new("online_grid").num_columns(2).spacing([14.0, 8.0]).show(ui, |ui| {
        ui.label(t("online.server"));
        // A host alone will do (`server_url` completes it), so nothing needs deleting before typing one.
        ui.add(egui::TextEdit::singleline(&mut form.server).hint_text("fanorona.example").desired_width(260.0))
            .on_hover_text(t("online.server_hint"));
        ui.end_row();
        ui.label(t("online.name"));
        ui.add(egui::TextEdit::singleline(&mut form.name).char_limit(MAX_NAME_CHARS).desired_width(200.0));
        ui.end_row();
        ui.label(t("setup.board"));
        ui.horizontal(|ui| {
            ui.radio_value(&mut form.board, Board::Tsivy, variant_name(Variant::Tsivy));
            ui.radio_value(&mut form.board, Board::Dimy, variant_name(Variant::Dimy));
        });
        ui.end_row();
        ui.label(t("online.colour"));
        ui.horizontal(|ui| {
            ui.radio_value(&mut form.colour, ColourChoice::White, side_name(Side::White));
            ui.radio_value(&mut form.colour, ColourChoice::Black, side_name(Side::Black));
            ui.radio_value(&mut form.colour, ColourChoice::Random, t("online.random"));
        });
        ui.end_row();
    });
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        let create = ui.add_sized([180.0, 30.0], egui::Button::new(t("online.create")));
        crate::screens::widgets::report_button(ui, "create", &create);
        if create.clicked() {
            let goal = Goal::Create { board: form.board, colour: form.colour };
            online.start(&form.server, &form.name, goal);
        }
        if ui.add_sized([180.0, 30.0], egui::Button::new(t("online.quick"))).clicked() {
            online.start(&form.server, &form.name, Goal::QuickMatch(form.board));
        }
    });
    ui.separator();
    if code_row(ui, "online.code", "online.join", &mut form.join_code) {
        match parse_invite(&form.join_code) {
            Some(code) => online.start(&form.server, &form.name, Goal::Join(code)),
            None => online.fail(t("online.bad_code").to_string()),
        }
    }
    if code_row(ui, "online.watch_code", "online.watch", &mut form.watch_code) {
        match parse_code(&form.watch_code) {
            Some(code) => online.start(&form.server, &form.name, Goal::Watch(code)),
            None => online.fail(t("online.bad_code").to_string()),
        }
    }
}

/// A code field and its button; true when the button is clicked.
fn code_row(ui: &mut egui::Ui, label: &'static str, button: &'static str, code: &mut String) -> bool {
    ui.horizontal(|ui| {
        ui.label(t(label));
        ui.add(egui::TextEdit::singleline(code).desired_width(200.0).font(egui::TextStyle::Monospace));
        ui.button(t(button)).clicked()
    })
    .inner
}

fn side_of(colour: Colour) -> Side {
    match colour {
        Colour::White => Side::White,
        Colour::Black => Side::Black,
    }
}

/// The online part of the HUD's side panel: the opponent's presence, the connection, the code to share for
/// watching, and the opponent's offers to answer. Drawn by the HUD ([`crate::screens::hud`]) inside its panel,
/// so that it takes room from the move list rather than covering the board or a tray.
pub fn online_section(ui: &mut egui::Ui, online: &mut Online) {
    if !online.in_game() {
        return;
    }
    let me = online.my_side();
    if me.is_none() {
        ui.label(t("online.watching"));
    }
    // With several servers, which one: the one played on, or the one tried now.
    let server = [("server", FluentValue::from(online.url().to_string()))];
    match (online.link(), online.servers().len() > 1) {
        (Link::Open, true) => {
            ui.label(egui::RichText::new(tf("online.connected_to", &server)).small().color(colors::DIM));
        }
        (Link::Open, false) => {}
        (_, true) => {
            ui.label(egui::RichText::new(tf("online.reconnecting_to", &server)).color(colors::WARN));
        }
        (_, false) => {
            ui.label(egui::RichText::new(t("online.reconnecting")).color(colors::WARN));
        }
    }
    let Some(s) = online.server_state().cloned() else { return };
    for side in Side::BOTH {
        if me == Some(side) {
            continue;
        }
        let seat = if side == Side::White { &s.white } else { &s.black };
        let name = if seat.name.is_empty() { t("online.no_name").to_string() } else { seat.name.clone() };
        let args: [(&str, FluentValue); 2] = [("side", side_name(side).into()), ("name", name.into())];
        if !seat.taken {
            ui.label(tf("online.seat_free", &args[..1]));
        } else if online.link() != Link::Open {
            // What the server last said is stale while our own connection is down: say so rather than repeat it.
            ui.label(egui::RichText::new(tf("online.seat_unknown", &args)).color(colors::DIM));
        } else if seat.connected {
            ui.label(egui::RichText::new(tf("online.seat_here", &args)).color(colors::DIM));
        } else {
            ui.label(egui::RichText::new(tf("online.seat_away", &args)).color(colors::WARN));
        }
    }
    if let Some(code) = online.spectate().map(str::to_string) {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(t("online.spectate_intro")).color(colors::DIM));
            if ui.small_button(t("online.copy_code")).on_hover_text(&code).clicked() {
                copy(ui.ctx(), &code);
            }
        });
    }
    let Some(me) = me else { return };
    if let Some(by) = s.draw_offer.map(side_of) {
        if by == me {
            ui.label(egui::RichText::new(t("online.draw_offered")).color(colors::DIM));
        } else {
            ui.label(tf("hud.offers_draw", &[("side", side_name(by).into())]));
            answer(ui, online, ClientMsg::AcceptDraw, ClientMsg::DeclineDraw);
        }
    }
    if let Some(by) = s.takeback_request.map(side_of) {
        if by == me {
            ui.label(egui::RichText::new(t("online.takeback_waiting")).color(colors::DIM));
        } else {
            ui.label(tf("online.takeback_asked", &[("side", side_name(by).into())]));
            answer(ui, online, ClientMsg::AcceptTakeback, ClientMsg::DeclineTakeback);
        }
    }
}

/// The server's notice (a refusal, a declined offer), over the board's top edge for a few seconds.
fn online_notice(
    mut contexts: EguiContexts,
    online: Res<Online>,
    setup: Res<MatchSetup>,
    frame: Res<BoardFrame>,
    time: Res<Time<Real>>,
    mut demand: ResMut<FrameDemand>,
) -> Result {
    if !online.in_game() || !setup.is_online() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let now = time.elapsed_secs_f64();
    if let Some(text) = online.notice(now).map(str::to_string) {
        egui::Area::new(egui::Id::new("online_notice"))
            .anchor(egui::Align2::CENTER_TOP, [(frame.left - frame.right) / 2.0, frame.top + 8.0])
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::new()
                    .fill(egui::Color32::from_black_alpha(190))
                    .corner_radius(6.0)
                    .inner_margin(egui::Margin::symmetric(10, 6))
                    .show(ui, |ui| ui.label(egui::RichText::new(text).color(colors::WARN)));
            });
        // Wake once more to take the notice down.
        demand.within(Duration::from_secs_f64(crate::online::NOTICE_SECS));
    }
    Ok(())
}

/// Accept and Decline buttons sending `yes` or `no`.
fn answer(ui: &mut egui::Ui, online: &mut Online, yes: ClientMsg, no: ClientMsg) {
    ui.horizontal(|ui| {
        if ui.button(t("hud.accept")).clicked() {
            online.send(yes);
        }
        if ui.button(t("hud.decline")).clicked() {
            online.send(no);
        }
    });
}
