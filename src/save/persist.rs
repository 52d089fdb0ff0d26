//! What the game keeps between runs: settings, the game in progress and the player's stats, in [`Storage`].
//!
//! Settings are loaded before the other plugins build (so that the first frame already has the player's volumes,
//! speed and language) and saved a moment after they stop changing. The player's game (not the title's
//! background game) is saved after every step, so that quitting at any moment, even in the middle of a relay,
//! loses nothing; the next start resumes it. Stats count each game the player starts once, with its first result.
//!
//! A document that cannot be read is moved aside by [`Storage`] and the player is told once, in plain words, by
//! a [`Notices`] window; the game then starts normally.

use crate::audio::SoundSettings;
use crate::i18n::{self, Lang};
use crate::platform::redraw::FrameDemand;
use crate::platform::redraw::WakeOn;
use crate::play::animation::AnimationSpeed;
use crate::play::referee::{GameEnded, GameStarted, GameState, LoadGame, MatchSetup, Player, TurnEnded};
use crate::play::setup::{Mode, SetupForm, player_name};
use crate::save::storage::{Document, Loaded, Storage};
use crate::state::{InGame, Screen};
use bevy::prelude::*;
use fanorona_engine::levels::Level;
use fanorona_engine::record::{Record, variant_tag};
use fanorona_engine::{Game, GameResult, Rules, Side, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// Settings: sound, animation, language, board theme and the last new-game setup.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct SettingsDoc {
    /// The language of menus and messages.
    pub language: Lang,
    /// "instant", "fast", "normal" or "slow".
    pub animation_speed: String,
    /// Master volume, 0 to 1.
    pub master_volume: f32,
    /// Effects volume, 0 to 1.
    pub effects_volume: f32,
    /// Music volume, 0 to 1.
    pub music_volume: f32,
    /// Whether sound is muted.
    pub muted: bool,
    /// The board's look.
    pub theme: crate::theme::Theme,
    /// The last new-game setup.
    pub setup: SetupDoc,
    /// The online server's address last used (empty: the default one).
    pub online_server: String,
    /// The display name last used online.
    pub online_name: String,
    /// Whether every finished game is kept as a record by itself.
    pub keep_games: bool,
}

/// The new-game form, as saved.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct SetupDoc {
    /// "vs-cpu", "hot-seat" or "cpu-vs-cpu".
    pub mode: String,
    /// The person's colour against the CPU: "white" or "black".
    pub colour: String,
    /// CPU level, 1 to 5.
    pub level: u8,
    /// "9x5" or "5x5".
    pub variant: String,
    /// The rule options, in the game record's `Rules` tag form.
    pub rules: String,
    /// Whether the loser of a game may claim a vela game.
    pub vela_match: bool,
}

impl Default for SettingsDoc {
    fn default() -> Self {
        SettingsDoc::from_parts(
            i18n::language(),
            AnimationSpeed::default(),
            &SoundSettings::default(),
            crate::theme::Theme::default(),
            &SetupForm::default(),
        )
    }
}

impl Default for SetupDoc {
    fn default() -> Self {
        SettingsDoc::from_parts(
            Lang::En,
            AnimationSpeed::default(),
            &SoundSettings::default(),
            crate::theme::Theme::default(),
            &SetupForm::default(),
        )
        .setup
    }
}

const SPEEDS: [(AnimationSpeed, &str); 4] = [
    (AnimationSpeed::Instant, "instant"),
    (AnimationSpeed::Fast, "fast"),
    (AnimationSpeed::Normal, "normal"),
    (AnimationSpeed::Slow, "slow"),
];
const MODES: [(Mode, &str); 3] = [(Mode::VsCpu, "vs-cpu"), (Mode::HotSeat, "hot-seat"), (Mode::CpuVsCpu, "cpu-vs-cpu")];

fn side_word(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn parse_side(word: &str) -> Option<Side> {
    Side::BOTH.into_iter().find(|s| side_word(*s) == word)
}

fn parse_variant(word: &str) -> Option<Variant> {
    [Variant::Tsivy, Variant::Dimy].into_iter().find(|v| variant_tag(*v) == word)
}

impl SettingsDoc {
    /// The document of these settings.
    pub fn from_parts(
        language: Lang,
        speed: AnimationSpeed,
        sound: &SoundSettings,
        theme: crate::theme::Theme,
        form: &SetupForm,
    ) -> SettingsDoc {
        SettingsDoc {
            language,
            animation_speed: SPEEDS.iter().find(|(s, _)| *s == speed).map_or("normal", |(_, n)| n).into(),
            master_volume: sound.master,
            effects_volume: sound.effects,
            music_volume: sound.music,
            muted: sound.muted,
            theme,
            setup: SetupDoc {
                mode: MODES.iter().find(|(m, _)| *m == form.mode).map_or("vs-cpu", |(_, n)| n).into(),
                colour: side_word(form.colour).into(),
                level: form.level,
                variant: variant_tag(form.rules.variant).into(),
                rules: form.rules.to_tag(),
                vela_match: form.vela_match,
            },
            online_server: String::new(),
            online_name: String::new(),
            keep_games: true,
        }
    }

    /// The animation speed.
    pub fn speed(&self) -> AnimationSpeed {
        SPEEDS.iter().find(|(_, n)| *n == self.animation_speed).map_or_else(AnimationSpeed::default, |(s, _)| *s)
    }

    /// The volumes.
    pub fn sound(&self) -> SoundSettings {
        SoundSettings {
            master: self.master_volume,
            effects: self.effects_volume,
            music: self.music_volume,
            muted: self.muted,
        }
    }

    /// The new-game form (checked by [`Document::check`] when loaded).
    pub fn form(&self) -> SetupForm {
        let s = &self.setup;
        let variant = parse_variant(&s.variant).unwrap_or_default();
        SetupForm {
            mode: MODES.iter().find(|(_, n)| *n == s.mode).map_or(Mode::VsCpu, |(m, _)| *m),
            colour: parse_side(&s.colour).unwrap_or(Side::White),
            level: s.level.clamp(1, 5),
            rules: Rules::from_tag(&s.rules, variant).unwrap_or(Rules { variant, ..Rules::default() }),
            vela_match: s.vela_match,
        }
    }
}

impl Document for SettingsDoc {
    const NAME: &'static str = "settings";
    const VERSION: u32 = 1;

    fn check(&self) -> Result<(), String> {
        let s = &self.setup;
        let volumes = [self.master_volume, self.effects_volume, self.music_volume];
        if volumes.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err("a volume is outside 0 to 1".into());
        }
        if !SPEEDS.iter().any(|(_, n)| *n == self.animation_speed) {
            return Err(format!("unknown animation speed \"{}\"", self.animation_speed));
        }
        if !MODES.iter().any(|(_, n)| *n == s.mode) {
            return Err(format!("unknown game mode \"{}\"", s.mode));
        }
        parse_side(&s.colour).ok_or_else(|| format!("unknown colour \"{}\"", s.colour))?;
        Level::from_number(s.level).ok_or_else(|| format!("level {} is not 1 to 5", s.level))?;
        let variant = parse_variant(&s.variant).ok_or_else(|| format!("unknown board \"{}\"", s.variant))?;
        Rules::from_tag(&s.rules, variant).map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// Who plays a side, as saved.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerDoc {
    /// A person.
    Human,
    /// The CPU at a level 1–5.
    Cpu(u8),
    /// A person online.
    Remote,
}

/// The seat of an online game in progress, so that "Continue" returns to it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct OnlineSeat {
    /// The server's WebSocket address: the one the seat was last played on.
    pub url: String,
    /// Every server's address, in the order the player gave them, when there are several (`url` among them);
    /// empty for one server, which saves as before this field existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    /// The seat token (or the spectator code when watching).
    pub token: String,
    /// Whether the game was watched rather than played.
    pub watching: bool,
    /// The game's spectator code, when the player has one to share.
    #[serde(default)]
    pub spectate: Option<String>,
}

/// The online server and display name last used, as the settings keep them (an empty server: the default one).
/// The online screen fills its form from them and keeps them up to date.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct OnlinePrefs {
    /// The server's address.
    pub server: String,
    /// The display name.
    pub name: String,
}

/// The seat of the online game being played, kept up to date by the online module: the saved game keeps it, so
/// that "Continue" can go back to that game. None outside online play.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct CurrentSeat(pub Option<OnlineSeat>);

/// The player's game in progress.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SavedGame {
    /// The game: rules, start, every turn, the relay in progress and the result, as a game record.
    pub record: String,
    /// White's and Black's players.
    pub players: [PlayerDoc; 2],
    /// Seed of the CPU's choices.
    pub seed: u64,
    /// Whether the loser may claim a vela game after it.
    pub vela_match: bool,
    /// The online seat, for an online game.
    #[serde(default)]
    pub online: Option<OnlineSeat>,
}

impl SavedGame {
    /// The save of `game` played by `setup`.
    pub fn new(game: &Game, setup: &MatchSetup) -> SavedGame {
        let players = Side::BOTH.map(|s| match setup.player(s) {
            Player::Human => PlayerDoc::Human,
            Player::Cpu(l) => PlayerDoc::Cpu(l.number()),
            Player::Remote => PlayerDoc::Remote,
        });
        let names = Side::BOTH.map(|s| player_name(setup.player(s)));
        SavedGame {
            record: Record::from_game(game, &names[0], &names[1], "").to_string(),
            players,
            seed: setup.seed,
            vela_match: setup.vela_match,
            online: None,
        }
    }

    /// The game and its setup.
    pub fn restore(&self) -> Result<(Game, MatchSetup), String> {
        let game = Record::load(&self.record).map_err(|e| e.to_string())?;
        let players = self
            .players
            .map(|p| match p {
                PlayerDoc::Human => Some(Player::Human),
                PlayerDoc::Cpu(n) => Level::from_number(n).map(Player::Cpu),
                PlayerDoc::Remote => Some(Player::Remote),
            })
            .map(|p| p.ok_or("a CPU level is not 1 to 5"));
        let [white, black] = players;
        let setup = MatchSetup {
            rules: *game.rules(),
            players: [white?, black?],
            seed: self.seed,
            vela_match: self.vela_match,
        };
        Ok((game, setup))
    }
}

impl Document for SavedGame {
    const NAME: &'static str = "game";
    const VERSION: u32 = 1;

    fn check(&self) -> Result<(), String> {
        self.restore().map(|_| ())
    }
}

/// Wins, losses and draws.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins (hot-seat: White's).
    pub wins: u32,
    /// Losses (hot-seat: Black's wins).
    pub losses: u32,
    /// Draws.
    pub draws: u32,
}

/// The player's stats.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct Stats {
    /// Games the player started and played at least one turn of.
    pub games_played: u32,
    /// Games that reached a result (resignations and draws included).
    pub games_finished: u32,
    /// Results by opponent: "cpu-1" … "cpu-5" (the player's results against that level), "hot-seat" and "online".
    pub results: BTreeMap<String, Tally>,
    /// The most capturing steps a player made in one turn.
    pub longest_relay: u32,
    /// The most pieces a player took in one turn.
    pub most_pieces: u32,
    /// Whether the lessons were offered (on the first start) and answered.
    pub lessons_offered: bool,
    /// The lessons done right at least once, by id.
    pub lessons_done: Vec<String>,
    /// The puzzle rating and counts.
    pub puzzles: PuzzleProgress,
}

/// The player's puzzle record, kept with the stats.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct PuzzleProgress {
    /// The puzzle rating (Elo-like; a new player starts at 1200, as the engine's `puzzles::Rating`).
    pub rating: f32,
    /// Puzzles attempted (first attempts).
    pub attempts: u32,
    /// Puzzles solved at the first attempt.
    pub solved: u32,
}

impl Default for PuzzleProgress {
    fn default() -> Self {
        PuzzleProgress { rating: 1200.0, attempts: 0, solved: 0 }
    }
}

impl Document for Stats {
    const NAME: &'static str = "stats";
    const VERSION: u32 = 1;
}

impl Stats {
    /// The key of the results against `opponent` ("hot-seat" for two people).
    pub fn key(setup: &MatchSetup) -> Option<String> {
        match setup.players {
            [Player::Human, Player::Human] => Some("hot-seat".into()),
            [Player::Human, Player::Cpu(l)] | [Player::Cpu(l), Player::Human] => Some(format!("cpu-{}", l.number())),
            // Online games count apart from the CPU and hot-seat, whoever the opponent was.
            [Player::Human, Player::Remote] | [Player::Remote, Player::Human] => Some("online".into()),
            _ => None,
        }
    }

    /// Counts a finished game with `result` (for the person, or White in hot-seat).
    pub fn count_result(&mut self, setup: &MatchSetup, result: GameResult) {
        let Some(key) = Stats::key(setup) else { return };
        let me = if setup.is_human(Side::White) { Side::White } else { Side::Black };
        let tally = self.results.entry(key).or_default();
        match result {
            GameResult::Draw => tally.draws += 1,
            GameResult::Win(s) if s == me => tally.wins += 1,
            GameResult::Win(_) => tally.losses += 1,
        }
        self.games_finished += 1;
    }
}

/// Messages for the player about storage, each shown once (a settings file moved aside, a save that failed…).
#[derive(Resource, Default, Debug)]
pub struct Notices(pub Vec<String>);

/// The player's stats, kept in memory and saved when they change.
#[derive(Resource, Default, Debug, Clone)]
pub struct PlayerStats(pub Stats);

/// The last saved state of the player's game: what "Continue" resumes.
#[derive(Resource, Default, Debug, Clone)]
pub struct Resume {
    saved: Option<SavedGame>,
    unfinished: bool,
}

impl Resume {
    /// Remembers `saved` as the player's game (replaying its record to see whether it is over).
    pub fn new(saved: Option<SavedGame>) -> Resume {
        let unfinished = saved.as_ref().and_then(|s| s.restore().ok()).is_some_and(|(g, _)| !g.is_over());
        Resume { saved, unfinished }
    }

    /// Remembers `saved`, a save of a game in memory whose end is known: no replay needed.
    fn just_saved(saved: SavedGame, unfinished: bool) -> Resume {
        Resume { saved: Some(saved), unfinished }
    }

    /// The saved game, if any.
    pub fn saved(&self) -> Option<&SavedGame> {
        self.saved.as_ref()
    }

    /// Whether there is a saved game that is not over.
    pub fn unfinished(&self) -> bool {
        self.unfinished
    }
}

/// How the current game counts in the stats.
#[derive(Resource, Default, Debug)]
struct Counting {
    /// Whether the game counts at all (the player's own game with a person playing).
    active: bool,
    played: bool,
    finished: bool,
}

/// Resumes the player's saved game: sets its setup, loads it and goes to the game screen.
#[derive(Message, Clone, Debug)]
pub struct ResumeGame;

/// Adds persistence, loading the settings into the app at once. `resume` says whether an unfinished saved game
/// is resumed at start.
pub fn plugin(app: &mut App, storage: Storage, resume: bool) {
    let mut problems = Vec::new();
    let settings = found(storage.load::<SettingsDoc>(), "persist.settings_doc", &mut problems);
    let stats = found(storage.load::<Stats>(), "persist.stats_doc", &mut problems);
    let saved = found(storage.load::<SavedGame>(), "persist.game_doc", &mut problems);
    // A saved new-game form wins over the command line's default level; without one the menus make their own.
    if let Some(doc) = &settings {
        app.insert_resource(doc.form());
        app.insert_resource(OnlinePrefs { server: doc.online_server.clone(), name: doc.online_name.clone() });
    }
    let settings = settings.unwrap_or_else(|| SettingsDoc { language: i18n::system_language(), ..default() });
    // The language first, so that the notices below are in it.
    i18n::set_language(settings.language);
    app.insert_resource(settings.speed())
        .insert_resource(settings.sound())
        .insert_resource(settings.theme)
        .insert_resource(crate::save::records::KeepGames(settings.keep_games));
    let stats = stats.unwrap_or_default();
    let notices = Notices(
        problems.iter().map(|(what, error, kept)| moved_aside_notice(i18n::t(what), error, kept.as_deref())).collect(),
    );
    let resume_state = Resume::new(saved);
    let unfinished = resume_state.unfinished();
    for n in &notices.0 {
        warn!("{n}");
    }
    app.insert_resource(storage)
        .insert_resource(notices)
        .insert_resource(PlayerStats(stats))
        .insert_resource(resume_state)
        .init_resource::<Counting>()
        .add_woken_message::<ResumeGame>()
        .add_systems(Update, resume_game.before(crate::play::referee::GameSet::Rules))
        .add_systems(Last, (save_settings, save_game, count_stats));
    if resume && unfinished {
        app.add_systems(Startup, |mut w: MessageWriter<ResumeGame>| {
            w.write(ResumeGame);
        });
    }
}

/// A document that could not be used: the key of its name, the error, and the name it is kept under.
type Problem = (&'static str, crate::save::storage::StorageError, Option<String>);

/// The document if it was found; a document moved aside is noted in `problems` (as `what`).
fn found<D: Document>(loaded: Loaded<D>, what: &'static str, problems: &mut Vec<Problem>) -> Option<D> {
    match loaded {
        Loaded::Found(d) => Some(d),
        Loaded::Missing => None,
        Loaded::MovedAside { error, kept_as } => {
            problems.push((what, error, kept_as));
            None
        }
    }
}

/// The plain-words message for a document moved aside.
pub fn moved_aside_notice(what: &str, error: &crate::save::storage::StorageError, kept_as: Option<&str>) -> String {
    match kept_as {
        Some(name) => i18n::tf(
            "persist.moved_aside",
            &[("what", what.into()), ("error", error.to_string().into()), ("file", name.into())],
        ),
        None => i18n::tf("persist.unreadable", &[("what", what.into()), ("error", error.to_string().into())]),
    }
}

fn resume_game(
    mut asks: MessageReader<ResumeGame>,
    resume: Res<Resume>,
    mut setup: ResMut<MatchSetup>,
    mut loads: MessageWriter<LoadGame>,
    mut next: ResMut<NextState<Screen>>,
    mut notices: ResMut<Notices>,
) {
    if asks.read().count() == 0 {
        return;
    }
    let Some(saved) = resume.saved() else { return };
    match saved.restore() {
        Ok((game, s)) => {
            crate::platform::web::event("resumed", &game.turns().len().to_string());
            *setup = s;
            loads.write(LoadGame(game));
            next.set(Screen::Playing);
        }
        Err(e) => notices.0.push(e),
    }
}

/// Saves the settings a moment after they last changed (sliders send a change every frame while dragged).
/// Seconds the settings must stay unchanged before they are written (a slider being dragged writes once).
const SETTINGS_SAVE_DELAY: f32 = 0.4;

fn save_settings(
    storage: Res<Storage>,
    speed: Res<AnimationSpeed>,
    sound: Res<SoundSettings>,
    theme: Res<crate::theme::Theme>,
    form: Option<Res<SetupForm>>,
    online: Option<Res<OnlinePrefs>>,
    keep: Option<Res<crate::save::records::KeepGames>>,
    time: Res<Time<Real>>,
    mut last: Local<Option<SettingsDoc>>,
    mut pending: Local<Option<(SettingsDoc, f32)>>,
    mut notices: ResMut<Notices>,
    mut demand: ResMut<FrameDemand>,
) {
    let form = form.map(|f| f.clone()).unwrap_or_default();
    let mut doc = SettingsDoc::from_parts(i18n::language(), *speed, &sound, *theme, &form);
    if let Some(online) = online {
        doc.online_server = online.server.clone();
        doc.online_name = online.name.clone();
    }
    doc.keep_games = keep.is_none_or(|k| k.0);
    let Some(saved) = last.as_ref() else {
        // The first frame's settings are what was loaded: nothing to save.
        *last = Some(doc);
        return;
    };
    if *saved == doc {
        *pending = None;
        return;
    }
    let now = time.elapsed_secs();
    match pending.as_ref() {
        Some((p, since)) if *p == doc && now - since >= SETTINGS_SAVE_DELAY => {
            if let Err(e) = storage.save(&doc) {
                notices.0.push(i18n::tf(
                    "persist.save_failed",
                    &[("what", i18n::t("persist.settings_doc").into()), ("error", e.to_string().into())],
                ));
            }
            *last = Some(doc);
            *pending = None;
        }
        Some((p, since)) if *p == doc => demand.within(Duration::from_secs_f32(SETTINGS_SAVE_DELAY - (now - since))),
        _ => {
            *pending = Some((doc, now));
            // A sleeping window must still wake to save.
            demand.within(Duration::from_secs_f32(SETTINGS_SAVE_DELAY));
        }
    }
}

/// Saves the player's game whenever it changed.
fn save_game(
    storage: Res<Storage>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    in_game: Option<Res<State<InGame>>>,
    next: Res<NextState<Screen>>,
    seat: Option<Res<CurrentSeat>>,
    mut resume: ResMut<Resume>,
    mut saved_generation: Local<Option<u64>>,
    mut notices: ResMut<Notices>,
) {
    if in_game.is_none() || *saved_generation == Some(state.generation()) {
        return;
    }
    // On the way out of play, the board may already show what the next screen loaded (a replay or review puts the
    // game's first position there in the frame it is asked for): that is not the player's game.
    if let NextState::Pending(s) | NextState::PendingIfNeq(s) = &*next
        && !matches!(s, Screen::Playing | Screen::GameOver)
    {
        return;
    }
    *saved_generation = Some(state.generation());
    let mut doc = SavedGame::new(state.game(), &setup);
    // An online game keeps its seat: without it, it could not go on.
    if setup.is_online() {
        match seat.and_then(|s| s.0.clone()) {
            Some(seat) => doc.online = Some(seat),
            None => return,
        }
    }
    if resume.saved() == Some(&doc) {
        return;
    }
    if let Err(e) = storage.save(&doc) {
        notices.0.push(i18n::tf(
            "persist.save_failed",
            &[("what", i18n::t("persist.game_doc").into()), ("error", e.to_string().into())],
        ));
    }
    // The game is at hand: replaying the record just written, after every step, would be work done twice.
    *resume = Resume::just_saved(doc, !state.game().is_over());
}

/// Counts the player's games, results and best turns.
fn count_stats(
    mut started: MessageReader<GameStarted>,
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    in_game: Option<Res<State<InGame>>>,
    storage: Res<Storage>,
    mut stats: ResMut<PlayerStats>,
    mut counting: ResMut<Counting>,
    mut notices: ResMut<Notices>,
) {
    let before = stats.0.clone();
    for s in started.read() {
        // A resumed game was counted when it started; only a new game of the player's starts counting.
        if !s.loaded {
            *counting = Counting { active: in_game.is_some() && Stats::key(&setup).is_some(), ..default() };
        }
    }
    if !counting.active {
        turns.clear();
        ended.clear();
        return;
    }
    for t in turns.read() {
        if !counting.played {
            counting.played = true;
            stats.0.games_played += 1;
        }
        if setup.is_human(t.side) {
            let captures = t.turn.steps.iter().filter(|s| s.kind.is_capture()).count() as u32;
            let starts = state.game().turn_starts();
            let taken = starts
                .get(t.number - 1)
                .zip(starts.get(t.number))
                .map_or(0, |(a, b)| a.count(t.side.opponent()) - b.count(t.side.opponent()));
            stats.0.longest_relay = stats.0.longest_relay.max(captures);
            stats.0.most_pieces = stats.0.most_pieces.max(taken);
        }
    }
    for e in ended.read() {
        if counting.played && !counting.finished {
            counting.finished = true;
            stats.0.count_result(&setup, e.outcome.result());
        }
    }
    if stats.0 != before
        && let Err(e) = storage.save(&stats.0)
    {
        notices.0.push(i18n::tf(
            "persist.save_failed",
            &[("what", i18n::t("persist.stats_doc").into()), ("error", e.to_string().into())],
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::save::storage::{decode, encode};
    use fanorona_engine::RelayRule;

    #[test]
    fn settings_round_trip() {
        let mut form = SetupForm { mode: Mode::HotSeat, colour: Side::Black, level: 4, ..SetupForm::default() };
        form.rules = Rules { variant: Variant::Dimy, relay: RelayRule::Lines, ..Rules::default() };
        form.vela_match = true;
        let sound = SoundSettings { master: 0.25, effects: 0.5, music: 0.0, muted: true };
        let doc = SettingsDoc::from_parts(Lang::Mg, AnimationSpeed::Slow, &sound, crate::theme::Theme::Night, &form);
        let back: SettingsDoc = decode(&encode(&doc)).unwrap();
        assert_eq!(back, doc);
        back.check().unwrap();
        assert_eq!(back.speed(), AnimationSpeed::Slow);
        assert_eq!(back.sound(), sound);
        assert_eq!(back.language, Lang::Mg);
        assert_eq!(back.theme, crate::theme::Theme::Night);
        let f = back.form();
        assert_eq!(
            (f.mode, f.colour, f.level, f.rules, f.vela_match),
            (Mode::HotSeat, Side::Black, 4, form.rules, true)
        );
    }

    #[test]
    fn bad_settings_fail_their_check() {
        let good = SettingsDoc::default();
        let mut bad = Vec::new();
        bad.push(SettingsDoc { master_volume: 3.0, ..good.clone() });
        bad.push(SettingsDoc { animation_speed: "warp".into(), ..good.clone() });
        for (field, value) in [("mode", "solo"), ("colour", "green"), ("variant", "3x3"), ("rules", "relay=sideways")] {
            let mut d = good.clone();
            match field {
                "mode" => d.setup.mode = value.into(),
                "colour" => d.setup.colour = value.into(),
                "variant" => d.setup.variant = value.into(),
                _ => d.setup.rules = value.into(),
            }
            bad.push(d);
        }
        bad.push(SettingsDoc { setup: SetupDoc { level: 9, ..good.setup.clone() }, ..good.clone() });
        good.check().unwrap();
        for d in bad {
            assert!(d.check().is_err(), "{d:?}");
        }
    }

    #[test]
    fn missing_settings_fields_take_defaults() {
        let doc: SettingsDoc = decode("(version: 1, content: (muted: true))").unwrap();
        assert!(doc.muted);
        assert_eq!(doc.animation_speed, "normal");
        doc.check().unwrap();
    }

    #[test]
    fn saved_game_round_trip_mid_relay() {
        // A relay in progress: White's d2-e3A… continues, Black's pieces and the history stay exact.
        let rules = Rules::default();
        let mut game = Game::new(rules);
        let mut turns = 0;
        // Play until some turn has a relay, and stop in its middle.
        'outer: for seed in 0..200u64 {
            game = Game::new(rules);
            let mut s = fanorona_engine::search::Searcher::new(1);
            for i in 0..30 {
                let pos = *game.position();
                let hist = fanorona_engine::levels::history_hashes(&game);
                let Some(t) = Level::Beginner.choose(&mut s, &pos, &hist, seed * 100 + i, Default::default()) else {
                    break;
                };
                if t.len() > 1 {
                    game.play_step(t.steps[0]).unwrap();
                    turns = game.turns().len();
                    break 'outer;
                }
                game.play_turn(&t).unwrap();
            }
        }
        assert!(!game.pending_steps().is_empty(), "a relay in progress was found");
        let setup =
            MatchSetup { rules, players: [Player::Human, Player::Cpu(Level::Advanced)], seed: 42, vela_match: true };
        let doc = SavedGame::new(&game, &setup);
        let back: SavedGame = decode(&encode(&doc)).unwrap();
        assert_eq!(back, doc);
        let (g, s) = back.restore().unwrap();
        assert_eq!(g.turns().len(), turns);
        assert_eq!(g.position(), game.position());
        assert_eq!(g.pending_steps(), game.pending_steps());
        assert_eq!(g.turn_starts(), game.turn_starts());
        assert_eq!((s.players, s.seed, s.vela_match, s.rules), (setup.players, 42, true, rules));
    }

    #[test]
    fn stats_count_results_by_opponent() {
        let mut stats = Stats::default();
        let vs = |l: Level, human: Side| MatchSetup {
            players: if human == Side::White {
                [Player::Human, Player::Cpu(l)]
            } else {
                [Player::Cpu(l), Player::Human]
            },
            ..MatchSetup::default()
        };
        stats.count_result(&vs(Level::Master, Side::Black), GameResult::Win(Side::Black));
        stats.count_result(&vs(Level::Master, Side::White), GameResult::Win(Side::Black));
        stats.count_result(&vs(Level::Novice, Side::White), GameResult::Draw);
        stats.count_result(&MatchSetup::default(), GameResult::Win(Side::Black));
        assert_eq!(stats.results["cpu-5"], Tally { wins: 1, losses: 1, draws: 0 });
        assert_eq!(stats.results["cpu-2"], Tally { wins: 0, losses: 0, draws: 1 });
        assert_eq!(stats.results["hot-seat"], Tally { wins: 0, losses: 1, draws: 0 });
        assert_eq!(stats.games_finished, 4);
        let back: Stats = decode(&encode(&stats)).unwrap();
        assert_eq!(back, stats);
    }
}
