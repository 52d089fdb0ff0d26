//! The screen state machine: title, new-game setup, playing, game over, rules, settings, records, replay and
//! lessons.

use crate::platform::redraw::WakeOn;
use bevy::prelude::*;

/// Which screen the player is on. The board and its pieces stay in every screen (a CPU-vs-CPU game plays behind
/// the title); UI and board highlights are scoped to the screen that shows them.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// The title, with a CPU-vs-CPU game playing behind it.
    #[default]
    Title,
    /// Choosing players, colour, level and variant for a new game.
    Setup,
    /// A game in progress.
    Playing,
    /// The game just ended: the result over the final position.
    GameOver,
    /// The rules, for reading.
    Rules,
    /// Settings (animation speed, sound).
    Settings,
    /// The saved game records, and loading one from a file or pasted text.
    Records,
    /// A loaded record replayed turn by turn; the board shows its position, nobody plays.
    Replay,
    /// The player's statistics.
    Stats,
    /// A lesson of the guided first game: the player makes the move the lesson asks for.
    Lesson,
    /// The analysis board: any position set up and explored with the engine; not a game.
    Analysis,
    /// Puzzles: find the best turn of a position from the puzzle set.
    Puzzle,
    /// Fanoron-Telo, the 3 × 3 game (drawn by egui over the main board).
    Telo,
    /// Playing a friend online: the server, a name, create, join, quick match or watch, then the wait for the
    /// friend (the game itself is [`Screen::Playing`]).
    Online,
}

/// Whether the player's own game is on screen (playing or just over): the computed state that board highlights
/// and the move list are scoped to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InGame;

impl ComputedStates for InGame {
    type SourceStates = Screen;

    fn compute(screen: Screen) -> Option<Self> {
        matches!(screen, Screen::Playing | Screen::GameOver).then_some(InGame)
    }
}

/// Whether the board takes the player's moves: in a game, and in the screens where the player moves pieces
/// without playing a counted game (lessons, the analysis board, puzzles). Input, selection highlights and the game's sounds are scoped to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardPlay;

impl ComputedStates for BoardPlay {
    type SourceStates = Screen;

    fn compute(screen: Screen) -> Option<Self> {
        matches!(screen, Screen::Playing | Screen::GameOver | Screen::Lesson | Screen::Analysis | Screen::Puzzle)
            .then_some(BoardPlay)
    }
}

/// Whether the player's game is running or paused (the pause window is open). Exists only while
/// [`Screen::Playing`]: leaving the game drops it, and every return to the game starts running.
#[derive(SubStates, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[source(Screen = Screen::Playing)]
pub enum Pause {
    /// The game goes on: input, the CPU and animations run.
    #[default]
    Running,
    /// The pause window is open: the CPU starts no search and plays no move, animations hold, the board ignores
    /// clicks.
    Paused,
}

/// Whether the game is paused: false wherever [`Pause`] does not exist (title, headless tests without a screen).
pub fn is_paused(pause: Option<&State<Pause>>) -> bool {
    pause.is_some_and(|p| *p.get() == Pause::Paused)
}

/// Adds the screen states.
pub fn plugin(app: &mut App) {
    app.init_woken_state::<Screen>()
        .add_woken_computed_state::<InGame>()
        .add_woken_computed_state::<BoardPlay>()
        .add_woken_sub_state::<Pause>();
}
