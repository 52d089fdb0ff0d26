//! Game records in the UI: saving the game as a record (pause and game-over windows), the list of saved records,
//! loading one from storage, a file or pasted text, and replaying it turn by turn.
//!
//! The UI only writes messages ([`ExportRecord`], [`OpenRecord`], [`ReplayNav`]); systems in `Update` act on them,
//! so that headless tests drive records exactly as the buttons do. A replay shows its positions through the rules
//! plugin ([`LoadGame`], or a [`MoveRequest`] for one turn forward so that it animates) with both players set to
//! people: the CPU never moves, and the board takes no input outside [`Screen::Playing`].

use crate::i18n::{result_text, t, tf};
use crate::platform::redraw::FrameDemand;
use crate::platform::redraw::WakeOn;
use crate::platform::web;
use crate::play::board::BoardFrame;
use crate::play::referee::{GameEnded, GameSet, GameState, LoadGame, MatchSetup, MoveAction, MoveRequest, Player};
use crate::play::setup::player_name;
use crate::save::records::{
    KEPT_SUFFIXES, KeepGames, date_tag, keep_record, record_name, unix_now, unused_record_name,
};
use crate::save::storage::Storage;
use crate::state::{InGame, Screen};
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::{Game, GameResult, Record, Side};
use std::time::Duration;

/// Asks to export the current game (finished or not) as a record.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportRecord {
    /// Save it in [`Storage`] (on the web also download it and copy it to the clipboard).
    Save,
    /// Copy it to the clipboard only (where [`web::copy`] works).
    Copy,
}

/// Asks to load a record's text and replay it; an invalid record changes nothing and sets [`RecordsUi::error`].
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct OpenRecord(pub String);

/// Moves within the replay, or leaves it.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayNav {
    /// The start position.
    First,
    /// One turn back.
    Back,
    /// One turn forward (animated when it can be).
    Forward,
    /// The end of the record.
    Last,
    /// Show the position after this many turns.
    To(usize),
    /// Start a game (two people) from the position shown.
    PlayFromHere,
    /// Play on from the position shown against the CPU at this level, the person taking the side to move.
    PlayVsCpu(fanorona_engine::levels::Level),
    /// Back to the list of records.
    Close,
}

/// Asks to replay a game in memory (the one just finished), with the players' names; `review` starts its review.
#[derive(Message, Clone, Debug)]
pub struct ReplayGame {
    /// The whole game.
    pub game: Game,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Whether to start reviewing it at once.
    pub review: bool,
    /// The setup the game was played with, when it is the player's game just finished: leaving the replay then
    /// returns to its game-over window (and its actions) instead of the records list.
    pub finished: Option<MatchSetup>,
}

/// The record the player's last finished game was kept as, and that game: "Save record" for the same game
/// points to it instead of writing it twice.
#[derive(Resource, Clone, Debug, Default)]
pub struct KeptRecord(pub Option<(String, Game)>);

impl KeptRecord {
    /// The name `game` was kept under, if it is the game kept last (same rules, start, turns and result).
    pub fn name_of(&self, game: &Game) -> Option<&str> {
        let (name, kept) = self.0.as_ref()?;
        let same = kept.rules() == game.rules()
            && kept.turn_starts().first() == game.turn_starts().first()
            && kept.turns() == game.turns()
            && kept.outcome() == game.outcome();
        same.then_some(name.as_str())
    }
}

/// Asks to review the game being replayed: the engine analyses every turn in the background.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StartReview;

/// The last confirmation or error of an export, shown for a few seconds over any screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct RecordNotice {
    /// The text, translated; empty for none.
    pub text: String,
    /// Whether it reports a failure (shown in red).
    pub error: bool,
    /// When it was set (real time, seconds).
    since: f32,
}

/// One saved record in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordEntry {
    /// Its name in storage.
    pub name: String,
    /// Players, result and number of turns, in words.
    pub summary: String,
}

/// The state of the records screen, kept between visits (what was typed stays).
#[derive(Resource, Clone, Debug, Default)]
pub struct RecordsUi {
    /// The saved records, newest first (read on entering the screen).
    pub entries: Vec<RecordEntry>,
    /// Why the last load failed, if it did.
    pub error: Option<String>,
    /// The desktop's file path field.
    pub path: String,
    /// The paste box.
    pub pasted: String,
    /// Whether the browser's file picker was opened and its file is awaited.
    pub waiting_for_file: bool,
}

/// The record being replayed: the whole game, the number of turns shown, and the players' names from its header.
#[derive(Resource, Clone, Debug)]
pub struct Replay {
    game: Game,
    shown: usize,
    white: String,
    black: String,
    finished: Option<MatchSetup>,
    /// Whether its review is under way (set by the review, which is built on the replay), so that the replay's
    /// window no longer offers one.
    pub reviewing: bool,
}

impl Replay {
    /// The whole game of the record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// How many turns the board shows (0: the start position).
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// The number of turns of the record.
    pub fn len(&self) -> usize {
        self.game.turns().len()
    }

    /// Whether the record has no turns.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Adds record export, the records screen and the replay.
pub fn plugin(app: &mut App) {
    app.add_woken_message::<ExportRecord>()
        .add_woken_message::<OpenRecord>()
        .add_woken_message::<ReplayNav>()
        .add_woken_message::<ReplayGame>()
        .add_woken_message::<StartReview>()
        .init_resource::<RecordNotice>()
        .init_resource::<RecordsUi>()
        .init_resource::<KeepGames>()
        .init_resource::<KeptRecord>()
        .add_systems(OnEnter(Screen::Records), refresh_list)
        .add_systems(OnExit(Screen::Replay), |frame: Option<ResMut<BoardFrame>>| {
            if let Some(mut frame) = frame {
                *frame = BoardFrame::default();
            }
        })
        .add_systems(
            Update,
            (
                keep_finished_games,
                export_records,
                poll_file.run_if(in_state(Screen::Records)),
                open_records,
                replay_game,
                (replay_keys, navigate).chain().run_if(in_state(Screen::Replay)),
            )
                .chain()
                .in_set(GameSet::Request),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                records_screen.run_if(in_state(Screen::Records)),
                replay_window.run_if(in_state(Screen::Replay)),
                notice_toast,
            ),
        );
}

/// The pause and game-over windows' export buttons: "Save record", and "Copy record" where the clipboard can be
/// reached. `button` draws a button in the window's style and says whether it was clicked.
pub fn export_buttons(
    ui: &mut egui::Ui,
    export: &mut MessageWriter<ExportRecord>,
    mut button: impl FnMut(&mut egui::Ui, &str) -> bool,
) {
    if button(ui, t("records.save")) {
        export.write(ExportRecord::Save);
    }
    if web::IN_BROWSER && button(ui, t("records.copy")) {
        export.write(ExportRecord::Copy);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Export

/// The record text of `game` as played under `setup`, dated `date`.
pub fn record_text(game: &Game, setup: &MatchSetup, date: &str) -> String {
    let white = player_name(setup.player(Side::White));
    let black = player_name(setup.player(Side::Black));
    Record::from_game(game, &white, &black, date).to_string()
}

/// Keeps the player's finished game as a record (online games are kept by the online module with the server's
/// record), so that a game reviewed, left or closed is still there.
fn keep_finished_games(
    mut ended: MessageReader<GameEnded>,
    in_game: Option<Res<State<InGame>>>,
    keep: Res<KeepGames>,
    storage: Option<Res<Storage>>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    mut kept: ResMut<KeptRecord>,
) {
    // Only the player's own game (not the title's) with a person in it; online games are kept by the online module.
    if ended.read().count() == 0 || in_game.is_none() || !keep.0 || setup.is_online() {
        return;
    }
    let Some(storage) = storage else { return };
    // A finished game shown again (back from its review) ends again: it is kept once.
    let people = Side::BOTH.iter().any(|s| setup.is_human(*s));
    if !people || !state.game().is_over() || kept.name_of(state.game()).is_some() {
        return;
    }
    let now = unix_now();
    let kind = if Side::BOTH.iter().any(|s| setup.is_cpu(*s)) { KEPT_SUFFIXES[0] } else { KEPT_SUFFIXES[1] };
    match keep_record(&storage, kind, now, &record_text(state.game(), &setup, &date_tag(now))) {
        Ok(name) => kept.0 = Some((name, state.game().clone())),
        Err(e) => warn!("the finished game could not be kept as a record: {e}"),
    }
}

fn export_records(
    mut asks: MessageReader<ExportRecord>,
    storage: Option<Res<Storage>>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    kept: Res<KeptRecord>,
    time: Res<Time<Real>>,
    mut notice: ResMut<RecordNotice>,
) {
    for ask in asks.read() {
        let now = unix_now();
        let text = record_text(state.game(), &setup, &date_tag(now));
        let already = kept.name_of(state.game());
        let (message, error) = match ask {
            ExportRecord::Save => save_record(storage.as_deref(), now, &text, already),
            ExportRecord::Copy if web::copy(&text) => (t("records.copied").to_string(), false),
            ExportRecord::Copy => (t("records.copy_failed").to_string(), true),
        };
        *notice = RecordNotice { text: message, error, since: time.elapsed_secs() };
    }
}

/// Saves `text` under a fresh name, unless the game is kept already as record `already`; the confirmation or the
/// error, and whether it is an error.
fn save_record(storage: Option<&Storage>, now: i64, text: &str, already: Option<&str>) -> (String, bool) {
    let Some(storage) = storage else { return (tf("records.save_failed", &[("error", "no storage".into())]), true) };
    let name = match already {
        Some(name) => name.to_string(),
        None => {
            let name = unused_record_name(storage, &record_name(now));
            if let Err(e) = storage.write_record(&name, text) {
                return (tf("records.save_failed", &[("error", e.to_string().into())]), true);
            }
            name
        }
    };
    let mut message = tf("records.saved", &[("place", storage.record_location(&name).into())]);
    if web::IN_BROWSER {
        if web::download(&format!("{name}.txt"), text) {
            message = format!("{message} {}", t("records.downloaded"));
        }
        if web::copy(text) {
            message = format!("{message} {}", t("records.copied"));
        }
    }
    (message, false)
}

/// Seconds an export's notice stays up.
const NOTICE_SECS: f32 = 6.0;

/// The export's confirmation, over every window (the pause window is a modal) for a few seconds.
fn notice_toast(
    mut contexts: EguiContexts,
    notice: Res<RecordNotice>,
    time: Res<Time<Real>>,
    mut demand: ResMut<FrameDemand>,
) -> Result {
    let shown_for = time.elapsed_secs() - notice.since;
    if notice.text.is_empty() || shown_for > NOTICE_SECS {
        return Ok(());
    }
    // Wake to take it down.
    demand.within(Duration::from_secs_f32(NOTICE_SECS - shown_for + 0.05));
    let ctx = contexts.ctx_mut()?;
    egui::Area::new("record notice".into())
        .order(egui::Order::Tooltip)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -24.0])
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).inner_margin(egui::Margin::symmetric(14, 8)).show(ui, |ui| {
                ui.set_max_width((ctx.viewport_rect().width() - 60.0).max(200.0));
                let color = if notice.error { egui::Color32::from_rgb(235, 90, 80) } else { colors::GOLD };
                ui.label(egui::RichText::new(&notice.text).color(color));
            });
        });
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// The list and loading

/// Players, result and number of turns of a record's text, in words.
fn summary(text: &str) -> String {
    let Ok(record) = Record::parse(text) else { return t("records.unreadable").to_string() };
    let name = |tag: &str, side: Side| {
        record.tag(tag).filter(|n| !n.is_empty()).map_or_else(|| crate::i18n::side_name(side).to_string(), String::from)
    };
    let result = match record.tag("Result").map(str::trim) {
        Some("1-0") => result_text(GameResult::Win(Side::White)),
        Some("0-1") => result_text(GameResult::Win(Side::Black)),
        Some("1/2-1/2") => result_text(GameResult::Draw),
        _ => t("records.in_progress"),
    };
    let turns = record.turns().len() + usize::from(!record.pending_steps().is_empty());
    tf(
        "records.summary",
        &[
            ("white", name("White", Side::White).into()),
            ("black", name("Black", Side::Black).into()),
            ("result", result.into()),
            ("turns", turns.into()),
        ],
    )
}

fn refresh_list(storage: Option<Res<Storage>>, mut ui: ResMut<RecordsUi>) {
    ui.error = None;
    ui.waiting_for_file = false;
    let Some(storage) = storage else { return };
    // Names carry the date and time, so the reverse of their order is newest first.
    ui.entries = storage
        .list_records()
        .into_iter()
        .rev()
        .map(|name| {
            let summary = match storage.read_record(&name) {
                Ok(Some(text)) => summary(&text),
                _ => t("records.unreadable").to_string(),
            };
            RecordEntry { name, summary }
        })
        .collect();
}

fn poll_file(mut ui: ResMut<RecordsUi>, mut opens: MessageWriter<OpenRecord>) {
    if let Some(text) = web::take_file() {
        ui.waiting_for_file = false;
        opens.write(OpenRecord(text));
    }
}

/// The first `turns` turns of `game` as a game of their own (the whole game, relay in progress and result included,
/// for `turns` at or past its end): what the replay shows and "Play from here" starts from.
pub fn game_prefix(game: &Game, turns: usize) -> Game {
    if turns >= game.turns().len() {
        return game.clone();
    }
    let mut prefix = Game::from_position(*game.start_position(), *game.rules());
    for turn in &game.turns()[..turns] {
        // The record was replayed in full when it was loaded, so its turns are legal.
        if prefix.play_turn(turn).is_err() {
            error!("turn {turn} of a loaded record does not replay");
            break;
        }
    }
    prefix
}

fn open_records(
    mut opens: MessageReader<OpenRecord>,
    mut ui: ResMut<RecordsUi>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(OpenRecord(text)) = opens.read().last() else { return };
    let game = match Record::load(text) {
        Ok(game) => game,
        Err(e) => {
            ui.error = Some(tf("records.invalid", &[("error", e.to_string().into())]));
            return;
        }
    };
    let record = Record::parse(text).ok();
    let name = |tag: &str, side: Side| {
        record
            .as_ref()
            .and_then(|r| r.tag(tag))
            .filter(|n| !n.is_empty())
            .map_or_else(|| crate::i18n::side_name(side).to_string(), String::from)
    };
    let replay = Replay {
        white: name("White", Side::White),
        black: name("Black", Side::Black),
        shown: 0,
        game: game.clone(),
        finished: None,
        reviewing: false,
    };
    ui.error = None;
    // People on both sides: the CPU never plays in a replay, whatever was playing before (the title's game).
    *setup = MatchSetup {
        rules: *game.rules(),
        players: [Player::Human, Player::Human],
        seed: setup.seed,
        vela_match: false,
    };
    loads.write(LoadGame(game_prefix(&game, 0)));
    commands.insert_resource(replay);
    next.set(Screen::Replay);
}

/// Replays a game handed over in memory (the game-over window's "Review").
fn replay_game(
    mut games: MessageReader<ReplayGame>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut reviews: MessageWriter<StartReview>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(r) = games.read().last() else { return };
    *setup = MatchSetup {
        rules: *r.game.rules(),
        players: [Player::Human, Player::Human],
        seed: setup.seed,
        vela_match: false,
    };
    loads.write(LoadGame(game_prefix(&r.game, 0)));
    commands.insert_resource(Replay {
        white: r.white.clone(),
        black: r.black.clone(),
        shown: 0,
        game: r.game.clone(),
        finished: r.finished.clone(),
        reviewing: false,
    });
    if r.review {
        reviews.write(StartReview);
    }
    next.set(Screen::Replay);
}

fn records_screen(
    mut contexts: EguiContexts,
    mut ui_state: ResMut<RecordsUi>,
    storage: Option<Res<Storage>>,
    mut opens: MessageWriter<OpenRecord>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.viewport_rect().size();
    let width = (screen.x - 40.0).clamp(260.0, 620.0);
    let list_height = ((screen.y - 420.0) * 0.6).clamp(60.0, 300.0);
    let s = &mut *ui_state;
    egui::Window::new("records")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_width(width);
            ui.label(egui::RichText::new(t("records.title")).size(26.0).color(colors::GOLD));
            ui.add_space(4.0);
            saved_list(ui, s, storage.as_deref(), &mut opens, list_height);
            ui.separator();
            if web::IN_BROWSER {
                browser_file(ui, s);
            } else {
                desktop_file(ui, s, &mut opens, width);
            }
            ui.add_space(4.0);
            paste_box(ui, s, &mut opens, width);
            if let Some(error) = &s.error {
                ui.add_space(4.0);
                ui.label(egui::RichText::new(error).color(egui::Color32::from_rgb(235, 90, 80)));
            }
            ui.add_space(8.0);
            if ui.add_sized([120.0, 30.0], egui::Button::new(t("menu.back"))).clicked() {
                next.set(Screen::Title);
            }
        });
    Ok(())
}

/// Why the file `file` could not be read, for the screen.
fn file_error(file: &str, error: String) -> String {
    tf("records.file_error", &[("file", file.into()), ("error", error.into())])
}

/// The saved records, each with its "Open" button.
fn saved_list(
    ui: &mut egui::Ui,
    s: &mut RecordsUi,
    storage: Option<&Storage>,
    opens: &mut MessageWriter<OpenRecord>,
    height: f32,
) {
    if s.entries.is_empty() {
        ui.label(egui::RichText::new(t("records.none")).color(colors::DIM));
        return;
    }
    let mut error = None;
    egui::ScrollArea::vertical().max_height(height).show(ui, |ui| {
        for entry in &s.entries {
            ui.horizontal(|ui| {
                if ui.button(t("records.open")).clicked() {
                    match storage.map(|st| st.read_record(&entry.name)) {
                        Some(Ok(Some(text))) => {
                            opens.write(OpenRecord(text));
                        }
                        Some(Err(e)) => error = Some(file_error(&entry.name, e.to_string())),
                        _ => error = Some(file_error(&entry.name, "?".into())),
                    }
                }
                ui.vertical(|ui| {
                    ui.label(&entry.name);
                    ui.label(egui::RichText::new(&entry.summary).color(colors::DIM));
                });
            });
        }
    });
    if error.is_some() {
        s.error = error;
    }
}

/// The browser's file picker.
fn browser_file(ui: &mut egui::Ui, s: &mut RecordsUi) {
    ui.horizontal(|ui| {
        if ui.button(t("records.open_file")).clicked() {
            s.waiting_for_file = web::pick_file();
        }
        if s.waiting_for_file {
            ui.label(egui::RichText::new(t("records.waiting_file")).color(colors::DIM));
        }
    });
}

/// A path to a record file on the desktop.
fn desktop_file(ui: &mut egui::Ui, s: &mut RecordsUi, opens: &mut MessageWriter<OpenRecord>, width: f32) {
    ui.label(t("records.path"));
    ui.horizontal(|ui| {
        let field = egui::TextEdit::singleline(&mut s.path).desired_width(width - 90.0);
        let response = ui.add(field);
        let enter = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button(t("records.load")).clicked() || enter) && !s.path.trim().is_empty() {
            let path = s.path.trim().to_string();
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    opens.write(OpenRecord(text));
                }
                Err(e) => s.error = Some(file_error(&path, e.to_string())),
            }
        }
    });
}

/// The box a record's text is pasted into.
fn paste_box(ui: &mut egui::Ui, s: &mut RecordsUi, opens: &mut MessageWriter<OpenRecord>, width: f32) {
    ui.label(t("records.paste"));
    egui::ScrollArea::vertical().id_salt("paste").max_height(140.0).show(ui, |ui| {
        ui.add(
            egui::TextEdit::multiline(&mut s.pasted)
                .code_editor()
                .desired_rows(5)
                .desired_width(width - 16.0)
                .hint_text("[Variant \"9x5\"]\n1. d3-e3A"),
        );
    });
    if ui.button(t("records.load_pasted")).clicked() && !s.pasted.trim().is_empty() {
        opens.write(OpenRecord(s.pasted.clone()));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Replay

fn replay_keys(keys: Option<Res<ButtonInput<KeyCode>>>, mut nav: MessageWriter<ReplayNav>) {
    let Some(keys) = keys else { return };
    for (key, to) in [
        (KeyCode::ArrowLeft, ReplayNav::Back),
        (KeyCode::ArrowRight, ReplayNav::Forward),
        (KeyCode::Home, ReplayNav::First),
        (KeyCode::End, ReplayNav::Last),
        (KeyCode::Escape, ReplayNav::Close),
    ] {
        if keys.just_pressed(key) {
            nav.write(to);
        }
    }
}

fn navigate(
    mut nav: MessageReader<ReplayNav>,
    replay: Option<ResMut<Replay>>,
    state: Res<GameState>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut requests: MessageWriter<MoveRequest>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(mut replay) = replay else {
        nav.clear();
        return;
    };
    let (before, len) = (replay.shown, replay.len());
    let mut target = before;
    for n in nav.read() {
        match n {
            ReplayNav::First => target = 0,
            ReplayNav::Back => target = target.saturating_sub(1),
            ReplayNav::Forward => target = (target + 1).min(len),
            ReplayNav::Last => target = len,
            ReplayNav::To(k) => target = (*k).min(len),
            ReplayNav::PlayVsCpu(level) => {
                let game = game_prefix(&replay.game, target);
                let person = game.position().side_to_move();
                let mut players = [Player::Cpu(*level); 2];
                players[person.index()] = Player::Human;
                *setup = MatchSetup { rules: *replay.game.rules(), players, seed: setup.seed, vela_match: false };
                loads.write(LoadGame(game));
                commands.remove_resource::<Replay>();
                next.set(Screen::Playing);
                return;
            }
            ReplayNav::PlayFromHere => {
                *setup = MatchSetup {
                    rules: *replay.game.rules(),
                    players: [Player::Human, Player::Human],
                    seed: setup.seed,
                    vela_match: false,
                };
                loads.write(LoadGame(game_prefix(&replay.game, target)));
                commands.remove_resource::<Replay>();
                next.set(Screen::Playing);
                return;
            }
            ReplayNav::Close => {
                commands.remove_resource::<Replay>();
                match replay.finished.take() {
                    // The player's game just finished: back to it, over, with its game-over window.
                    Some(played) => {
                        *setup = played;
                        loads.write(LoadGame(replay.game.clone()));
                        next.set(Screen::GameOver);
                    }
                    None => next.set(Screen::Records),
                }
                return;
            }
        }
    }
    if target == before {
        return;
    }
    replay.shown = target;
    let shown = game_prefix(&replay.game, target);
    // One turn forward from what the board shows animates; anything else (and a last turn whose result or relay in
    // progress a plain turn would not give) jumps.
    if target == before + 1 {
        let from = game_prefix(&replay.game, before);
        let turn = &replay.game.turns()[before];
        let mut played = from.clone();
        let same = played.play_turn(turn).is_ok()
            && played.position() == shown.position()
            && played.outcome() == shown.outcome()
            && shown.pending_steps().is_empty();
        let on_board = state.game().turns() == from.turns()
            && state.game().pending_steps().is_empty()
            && state.position() == from.position();
        if same && on_board {
            requests.write(MoveRequest::new(MoveAction::Turn(turn.clone())));
            return;
        }
    }
    loads.write(LoadGame(shown));
}

fn replay_window(
    mut contexts: EguiContexts,
    replay: Option<Res<Replay>>,
    frame: Option<ResMut<BoardFrame>>,
    mut nav: MessageWriter<ReplayNav>,
    mut reviews: MessageWriter<StartReview>,
) -> Result {
    let Some(replay) = replay else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let (k, n) = (replay.shown, replay.len());
    let response = egui::Window::new("replay")
        .title_bar(false)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .show(ctx, |ui| {
            ui.vertical_centered(|ui| {
                let players = tf(
                    "records.players",
                    &[("white", replay.white.as_str().into()), ("black", replay.black.as_str().into())],
                );
                ui.label(egui::RichText::new(players).size(18.0).color(colors::GOLD));
                let turn = match k.checked_sub(1).and_then(|i| replay.game.turns().get(i)) {
                    Some(turn) => format!("{k}. {turn}"),
                    None => t("records.start_position").to_string(),
                };
                ui.label(format!("{k} / {n}    {turn}"));
                if k == n
                    && let Some(outcome) = replay.game.outcome()
                {
                    ui.label(egui::RichText::new(crate::i18n::outcome_text(outcome)).color(colors::DIM));
                }
                ui.horizontal(|ui| {
                    let step = |ui: &mut egui::Ui, text: &str, enabled: bool| {
                        ui.add_enabled(enabled, egui::Button::new(egui::RichText::new(text).size(18.0).monospace()))
                            .clicked()
                    };
                    if step(ui, "|<", k > 0) {
                        nav.write(ReplayNav::First);
                    }
                    if step(ui, "<", k > 0) {
                        nav.write(ReplayNav::Back);
                    }
                    if step(ui, ">", k < n) {
                        nav.write(ReplayNav::Forward);
                    }
                    if step(ui, ">|", k < n) {
                        nav.write(ReplayNav::Last);
                    }
                    ui.add_space(10.0);
                    if ui.button(t("records.play_from_here")).clicked() {
                        nav.write(ReplayNav::PlayFromHere);
                    }
                    if !replay.reviewing {
                        let review = ui.button(t("review.button"));
                        if crate::screens::widgets::report_button(ui, "review", &review).clicked() {
                            reviews.write(StartReview);
                        }
                    }
                    if ui.button(t("menu.back")).clicked() {
                        nav.write(ReplayNav::Close);
                    }
                });
                ui.label(egui::RichText::new(t("records.keys")).small().color(colors::DIM));
            });
        });
    // The board fits above the window.
    if let (Some(mut frame), Some(r)) = (frame, response) {
        // Rounded, so that sub-pixel changes of the window's height do not refit the camera every frame.
        // The left inset belongs to the review's panel, when one is open.
        let wanted = BoardFrame { bottom: (r.response.rect.height() + 16.0).round(), ..*frame };
        if *frame != wanted {
            *frame = wanted;
        }
    }
    Ok(())
}
