//! Headless tests of the sound plugin: with kira's plugin and no sound device it starts, makes every sound, and
//! cues exactly the sounds the rules' messages call for, and only for the player's own game.

use bevy::asset::AssetPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::audio::{Cue, Sounds};
use fanorona::platform::redraw::WakeOn;
use fanorona::play::referee::*;
use fanorona::state::Screen;
use fanorona_engine::{Rules, StepKind, Turn};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The cues of the last frames.
#[derive(Resource, Default)]
struct Heard(Vec<Cue>);

fn listen(mut cues: MessageReader<Cue>, mut heard: ResMut<Heard>) {
    heard.0.extend(cues.read().copied());
}

fn app(screen: Screen) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), StatesPlugin, LogicPlugin))
        .init_resource::<Heard>()
        .add_systems(Last, listen);
    fanorona::audio::plugin(&mut app);
    app.insert_resource(MatchSetup {
        rules: Rules::default(),
        players: [Player::Human, Player::Human],
        seed: 1,
        vela_match: false,
    });
    app.insert_woken_state(screen);
    app.update();
    app.world_mut().write_message(NewGame);
    app.update();
    app
}

fn take(app: &mut App) -> Vec<Cue> {
    std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0)
}

#[test]
fn sounds_are_made_at_start_up() {
    let app = app(Screen::Playing);
    let sounds = app.world().resource::<Sounds>();
    assert_eq!(sounds.captures.len(), fanorona::audio::synth::MAX_CAPTURE);
    assert_eq!(sounds.relays.len(), fanorona::audio::synth::RELAY_STEPS);
    let assets = app.world().resource::<Assets<bevy_kira_audio::AudioSource>>();
    assert!(assets.get(&sounds.win).is_some_and(|s| s.sound.frames.len() > 44_100));
}

#[test]
fn each_message_of_the_game_is_heard() {
    let mut app = app(Screen::Playing);
    let mut rng = StdRng::seed_from_u64(5);
    take(&mut app);
    let mut long_relays = 0;
    for _ in 0..300 {
        let state = app.world().resource::<GameState>();
        if state.game().is_over() {
            break;
        }
        let pos = *state.position();
        let turns = pos.legal_turns();
        let turn: Turn = turns.iter().max_by_key(|t| (t.len(), rng.random_range(0..4u8))).cloned().unwrap();
        let mut expect = pos;
        let mut want = Vec::new();
        for (i, &step) in turn.steps.iter().enumerate() {
            let taken = expect.captured_by(step).count_ones() as usize;
            expect.play(step);
            want.push(match (step.kind, i) {
                (StepKind::Paika, _) => Cue::Paika,
                (_, 0) => Cue::Capture(taken),
                (_, index) => Cue::Relay { index, pieces: taken },
            });
            app.world_mut().write_message(MoveRequest::new(MoveAction::Step(step)));
            app.update();
        }
        if turn.steps.len() >= 3 {
            long_relays += 1;
            want.push(Cue::TurnEnd);
        }
        let mut heard = take(&mut app);
        if app.world().resource::<GameState>().game().is_over() {
            assert!(matches!(heard.pop(), Some(Cue::Win | Cue::Draw)), "no end phrase");
        }
        assert_eq!(heard, want, "turn {turn}");
    }
    assert!(app.world().resource::<GameState>().game().is_over());
    assert!(long_relays > 0, "the game had no long relay to test");
}

#[test]
fn the_title_game_is_silent() {
    let mut app = app(Screen::Title);
    take(&mut app);
    let pos = *app.world().resource::<GameState>().position();
    let turn = pos.legal_turns().into_iter().next().unwrap();
    for step in turn.steps {
        app.world_mut().write_message(MoveRequest::new(MoveAction::Step(step)));
        app.update();
    }
    assert!(take(&mut app).is_empty());
}
