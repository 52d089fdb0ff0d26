//! Sound: valiha-like plucked strings synthesised at start-up ([`synth`]) and played through bevy_kira_audio in
//! answer to the referee's messages and to egui button clicks.
//!
//! Nothing here decides anything: sounds follow [`StepPlayed`], [`PiecesCaptured`], [`TurnEnded`] and
//! [`GameEnded`], and only for the player's own game (the CPU game behind the title stays silent). With no sound
//! device kira logs one warning and every play call does nothing, so the game runs on.

pub mod synth;

use crate::i18n::t;
use crate::platform::redraw::WakeOn;
use crate::play::referee::{GameEnded, GameSet, MatchSetup, PiecesCaptured, StepPlayed, TurnEnded};
use crate::state::{BoardPlay, Screen};
use bevy::prelude::*;
use bevy_egui::{EguiOutput, EguiPostUpdateSet, egui};
use bevy_kira_audio::prelude::{
    AudioApp, AudioChannel, AudioControl, AudioSource, AudioTween, Decibels, Frame, StaticSoundData,
    StaticSoundSettings,
};
use fanorona_engine::{GameResult, StepKind};
use std::sync::Arc;

/// The channel of game sound effects (moves, captures, phrases, clicks).
#[derive(Resource)]
pub struct Effects;

/// The channel of music (kept apart so its volume is set on its own): the title melody.
#[derive(Resource)]
pub struct Music;

/// Volume settings, each from 0 (silent) to 1 (full), as shown by the settings panel.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct SoundSettings {
    /// Scales every channel.
    pub master: f32,
    /// Sound effects.
    pub effects: f32,
    /// Music.
    pub music: f32,
    /// Silences everything, keeping the levels for later.
    pub muted: bool,
}

impl Default for SoundSettings {
    fn default() -> Self {
        SoundSettings { master: 0.8, effects: 1.0, music: 0.6, muted: false }
    }
}

impl SoundSettings {
    /// The gain of the effects channel in decibels.
    pub fn effects_db(&self) -> Decibels {
        to_decibels(if self.muted { 0.0 } else { self.master * self.effects })
    }

    /// The gain of the music channel in decibels.
    pub fn music_db(&self) -> Decibels {
        to_decibels(if self.muted { 0.0 } else { self.master * self.music })
    }
}

/// A linear amplitude factor as kira's decibels: `20·log10(v)`, and kira's silence for 0 (or anything below
/// −60 dB), since kira takes volumes in dB and a plain 0.3 would mean +0.3 dB.
pub fn to_decibels(v: f32) -> Decibels {
    if v <= 0.001 { Decibels::SILENCE } else { Decibels(20.0 * v.min(1.0).log10()) }
}

/// The synthesised sounds, ready to play.
#[derive(Resource, Debug, Default)]
pub struct Sounds {
    /// A paika move.
    pub paika: Handle<AudioSource>,
    /// Captures of 1 to [`synth::MAX_CAPTURE`] pieces (index = count − 1).
    pub captures: Vec<Handle<AudioSource>>,
    /// The later captures of a relay (index = relay step − 1).
    pub relays: Vec<Handle<AudioSource>>,
    /// The end of a long relay turn.
    pub turn_end: Handle<AudioSource>,
    /// The player (or, between two people or two CPUs, anyone) won.
    pub win: Handle<AudioSource>,
    /// The player lost to the CPU.
    pub loss: Handle<AudioSource>,
    /// A draw.
    pub draw: Handle<AudioSource>,
    /// A UI button.
    pub click: Handle<AudioSource>,
    /// The title melody (looped).
    pub title: Handle<AudioSource>,
}

/// A turn with at least this many captures ends with the relay chord.
const LONG_RELAY: usize = 3;

/// Adds kira's audio plugin, the two channels, the settings, the sounds and the systems that play them. Needs the
/// asset plugin (part of `DefaultPlugins`).
pub fn plugin(app: &mut App) {
    app.add_plugins(bevy_kira_audio::AudioPlugin)
        .add_audio_channel::<Effects>()
        .add_audio_channel::<Music>()
        .init_resource::<SoundSettings>()
        .init_resource::<MusicOn>()
        // In the browser the synthesis (about 80 ms there) waits for the first picture: see `first_picture_shown`.
        .add_systems(
            PreUpdate,
            make_sounds.run_if(not(resource_exists::<Sounds>)).run_if(crate::platform::web::first_picture_shown),
        )
        .add_systems(OnEnter(Screen::Title), start_music)
        // Sounds made after the title was entered (in the browser) start its music then.
        .add_systems(Update, start_music.run_if(resource_added::<Sounds>).run_if(in_state(Screen::Title)))
        .add_systems(OnEnter(Screen::Playing), stop_music)
        .add_woken_message::<Cue>()
        .add_systems(Update, (apply_volume, (cue_game_sounds, play_cues).chain().in_set(GameSet::Present)))
        // Clicks are known once egui's output is processed; they play in the next frame's `play_cues`.
        .add_systems(PostUpdate, cue_clicks.after(EguiPostUpdateSet::ProcessOutput));
}

/// A mono buffer as a kira sound (both channels the same).
fn to_source(samples: &[f32]) -> AudioSource {
    let frames: Arc<[Frame]> = samples.iter().map(|&s| Frame::from_mono(s)).collect();
    AudioSource {
        sound: StaticSoundData {
            sample_rate: synth::SAMPLE_RATE,
            frames,
            settings: StaticSoundSettings::default(),
            slice: None,
        },
    }
}

fn make_sounds(mut assets: ResMut<Assets<AudioSource>>, mut commands: Commands) {
    let mut add = |samples: Vec<f32>| assets.add(to_source(&samples));
    let sounds = Sounds {
        paika: add(synth::paika()),
        captures: (1..=synth::MAX_CAPTURE).map(|n| add(synth::capture(n))).collect(),
        relays: (1..=synth::RELAY_STEPS).map(|i| add(synth::relay_step(i))).collect(),
        turn_end: add(synth::turn_end()),
        win: add(synth::win()),
        loss: add(synth::loss()),
        draw: add(synth::draw()),
        click: add(synth::click()),
        title: add(synth::title_melody()),
    };
    commands.insert_resource(sounds);
}

/// Whether the title melody is playing (it goes on through the menus and stops when a game starts).
#[derive(Resource, Default)]
struct MusicOn(bool);

fn start_music(sounds: Option<Res<Sounds>>, music: Res<AudioChannel<Music>>, mut on: ResMut<MusicOn>) {
    let Some(sounds) = sounds else { return };
    if !on.0 {
        music.play(sounds.title.clone()).looped();
        on.0 = true;
    }
}

fn stop_music(music: Res<AudioChannel<Music>>, mut on: ResMut<MusicOn>) {
    if on.0 {
        music.stop().fade_out(AudioTween::linear(std::time::Duration::from_millis(600)));
        on.0 = false;
    }
}

/// Sets the channels' volumes at start and whenever the settings change.
fn apply_volume(settings: Res<SoundSettings>, effects: Res<AudioChannel<Effects>>, music: Res<AudioChannel<Music>>) {
    if settings.is_changed() {
        effects.set_volume(settings.effects_db());
        music.set_volume(settings.music_db());
    }
}

/// A sound to play, decided from the rules' messages or the UI; [`play_cues`] turns each into a kira play call.
/// Kept as a message so that what is heard can be checked without a sound device.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum Cue {
    /// A paika move.
    Paika,
    /// A first capture of this many pieces.
    Capture(usize),
    /// A later capture of a relay: its step index within the turn (1 for the second capture) and pieces taken.
    Relay {
        /// Index of the capturing step within its turn.
        index: usize,
        /// Pieces taken.
        pieces: usize,
    },
    /// The end of a long relay turn.
    TurnEnd,
    /// A win (the person's, or anyone's between two people or two CPUs).
    Win,
    /// The person lost to the CPU.
    Loss,
    /// A draw.
    Draw,
    /// A UI button, radio button or checkbox.
    Click,
}

/// Turns the rules' messages about the player's game into [`Cue`]s.
fn cue_game_sounds(
    mut steps: MessageReader<StepPlayed>,
    mut captures: MessageReader<PiecesCaptured>,
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    in_game: Option<Res<State<BoardPlay>>>,
    setup: Res<MatchSetup>,
    mut cues: MessageWriter<Cue>,
) {
    // Every message is read even off screen, so that none is played late when the player's game comes up: the CPU
    // game behind the title stays silent.
    let steps: Vec<StepPlayed> = steps.read().cloned().collect();
    let captures: Vec<PiecesCaptured> = captures.read().cloned().collect();
    let turns: Vec<TurnEnded> = turns.read().cloned().collect();
    let ended: Vec<GameEnded> = ended.read().cloned().collect();
    if in_game.is_none() {
        return;
    }
    cues.write_batch(steps.iter().filter(|s| s.kind == StepKind::Paika).map(|_| Cue::Paika));
    cues.write_batch(captures.iter().map(|c| match c.relay_index {
        0 => Cue::Capture(c.points.len()),
        index => Cue::Relay { index, pieces: c.points.len() },
    }));
    cues.write_batch(turns.iter().filter(|t| t.turn.steps.len() >= LONG_RELAY).map(|_| Cue::TurnEnd));
    cues.write_batch(ended.iter().map(|e| match e.outcome.result() {
        GameResult::Draw => Cue::Draw,
        // Against the CPU the phrase is the person's: a CPU win is their loss.
        GameResult::Win(side) if setup.is_cpu(side) && setup.is_human(side.opponent()) => Cue::Loss,
        GameResult::Win(_) => Cue::Win,
    }));
}

/// Plays every [`Cue`] on the effects channel.
fn play_cues(mut cues: MessageReader<Cue>, sounds: Option<Res<Sounds>>, effects: Res<AudioChannel<Effects>>) {
    let Some(sounds) = sounds else {
        cues.clear();
        return;
    };
    for cue in cues.read() {
        let (sound, db) = match *cue {
            Cue::Paika => (&sounds.paika, 0.0),
            Cue::Capture(n) => (&sounds.captures[n.clamp(1, synth::MAX_CAPTURE) - 1], 0.0),
            // The relay's climb carries the melody; bigger captures within it are a little louder.
            Cue::Relay { index, pieces } => {
                (&sounds.relays[index.clamp(1, synth::RELAY_STEPS) - 1], -3.0 + pieces.min(4) as f32)
            }
            Cue::TurnEnd => (&sounds.turn_end, -4.0),
            Cue::Win => (&sounds.win, 0.0),
            Cue::Loss => (&sounds.loss, 0.0),
            Cue::Draw => (&sounds.draw, 0.0),
            Cue::Click => (&sounds.click, 0.0),
        };
        effects.play(sound.clone()).with_volume(Decibels(db));
    }
}

/// Cues the click for every egui button, radio button or checkbox clicked this frame.
fn cue_clicks(outputs: Query<&EguiOutput>, mut cues: MessageWriter<Cue>) {
    let clicked = outputs.iter().any(|o| {
        o.platform_output.events.iter().any(|e| {
            matches!(e, egui::output::OutputEvent::Clicked(info)
                if matches!(info.typ, egui::WidgetType::Button | egui::WidgetType::RadioButton | egui::WidgetType::Checkbox))
        })
    });
    if clicked {
        cues.write(Cue::Click);
    }
}

/// The volume part of the shared settings panel: master, effects and music sliders and a mute box.
pub fn volume_controls(ui: &mut egui::Ui, settings: &mut ResMut<SoundSettings>) {
    // Edit a copy so that change detection (which sets the channels' volumes) fires only on a real change.
    let mut s = **settings;
    ui.label(t("sound.title"));
    egui::Grid::new("volume").num_columns(2).show(ui, |ui| {
        let sliders = [
            (t("sound.master"), &mut s.master),
            (t("sound.effects"), &mut s.effects),
            (t("sound.music"), &mut s.music),
        ];
        for (name, value) in sliders {
            ui.label(name);
            ui.add(egui::Slider::new(value, 0.0..=1.0).show_value(false));
            ui.end_row();
        }
    });
    ui.checkbox(&mut s.muted, t("sound.mute"));
    settings.set_if_neq(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volumes_are_decibels() {
        assert_eq!(to_decibels(1.0).0, 0.0);
        assert!((to_decibels(0.5).0 + 6.02).abs() < 0.01);
        assert!((to_decibels(0.1).0 + 20.0).abs() < 0.01);
        assert_eq!(to_decibels(0.0), Decibels::SILENCE);
        let muted = SoundSettings { muted: true, ..default() };
        assert_eq!(muted.effects_db(), Decibels::SILENCE);
        assert_eq!(muted.music_db(), Decibels::SILENCE);
        let half = SoundSettings { master: 0.5, effects: 1.0, music: 0.5, muted: false };
        assert!((half.effects_db().0 + 6.02).abs() < 0.01);
        assert!((half.music_db().0 + 12.04).abs() < 0.01);
    }
}
