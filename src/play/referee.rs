//! The referee: the plugin that applies the rules, the only writer of the authoritative game record and of the
//! piece entities.
//!
//! Input and the CPU player send [`MoveRequest`]s; this plugin validates them with the engine and reports what
//! happened as messages ([`StepPlayed`], [`PiecesCaptured`], [`RelayContinues`], [`TurnEnded`], [`GameEnded`],
//! [`UndoHappened`], …) that animation, audio and the HUD consume. An illegal request changes nothing and is
//! answered with [`RequestRejected`].

use crate::platform::redraw::WakeOn;
use bevy::prelude::*;
use fanorona_engine::geometry::NO_POINT;
use fanorona_engine::levels::Level;
use fanorona_engine::{Game, GameError, Outcome, Position, Rules, Side, Step, StepKind, Turn, Variant};

/// Who plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at this screen (mouse, touch or keyboard).
    Human,
    /// The engine at a level.
    Cpu(Level),
    /// A person at another screen, through the online server (`crate::online`): their turns arrive as
    /// [`MoveAction::Turn`] requests; input and the CPU never move for them.
    Remote,
}

/// How the next game is set up: the rules, who plays each side, and the seed of the CPU's choices.
#[derive(Resource, Clone, Debug)]
pub struct MatchSetup {
    /// Rule options (variant included).
    pub rules: Rules,
    /// The players, indexed by [`Side::index`].
    pub players: [Player; 2],
    /// Seed of the CPU's random choices (noise, opening variety).
    pub seed: u64,
    /// A vela match: after a decided game the loser may claim a vela (handicap) game.
    pub vela_match: bool,
}

impl Default for MatchSetup {
    fn default() -> Self {
        MatchSetup { rules: Rules::default(), players: [Player::Human, Player::Human], seed: 0, vela_match: false }
    }
}

impl MatchSetup {
    /// Who plays `side`.
    pub fn player(&self, side: Side) -> Player {
        self.players[side.index()]
    }

    /// Whether the CPU plays `side`.
    pub fn is_cpu(&self, side: Side) -> bool {
        matches!(self.player(side), Player::Cpu(_))
    }

    /// Whether a person plays `side`.
    pub fn is_human(&self, side: Side) -> bool {
        self.player(side) == Player::Human
    }

    /// Whether this is an online game (a player, or both when watching, is [`Player::Remote`]): the server decides
    /// draws, resignations and takebacks, so the rules refuse those requests (`crate::online` sends them on).
    pub fn is_online(&self) -> bool {
        self.players.contains(&Player::Remote)
    }
}

/// The authoritative game: the engine's record plus a generation counter that changes with every change, so that
/// anything computed for an older state (a CPU search, a hint) can tell it is stale.
#[derive(Resource, Debug)]
pub struct GameState {
    game: Game,
    generation: u64,
    draw_offer: Option<Side>,
}

impl Default for GameState {
    fn default() -> Self {
        GameState { game: Game::new(Rules::default()), generation: 0, draw_offer: None }
    }
}

impl GameState {
    /// The game record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position (possibly in the middle of a relay).
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Changes with every change of the game (steps, undo, new game); never repeats within a run.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The side whose draw offer waits for an answer, if any.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }

    /// Pieces of `side` captured so far in this game.
    pub fn captured(&self, side: Side) -> u32 {
        let start = self.game.start_position().count(side);
        start - self.position().count(side)
    }
}

/// What a player asks the rules to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveAction {
    /// Play one step (paika, a capture, or a stop ending a relay).
    Step(Step),
    /// Play a whole turn (what the CPU sends); it is checked in full first, so an illegal turn changes nothing.
    Turn(Turn),
    /// End the relay in progress (the "End turn" button).
    EndTurn,
    /// Take back the turn in progress; with nothing in progress, take back whole turns until `until` is to move
    /// (at least one; `None`: exactly one).
    Undo {
        /// The side that should be to move afterwards (a human taking back against the CPU).
        until: Option<Side>,
    },
    /// Replay the last turn taken back.
    Redo,
    /// `side` offers a draw.
    OfferDraw(Side),
    /// The opponent of the offering side answers the pending draw offer.
    AnswerDraw {
        /// Whether the draw is accepted (the game ends drawn).
        accept: bool,
    },
    /// `side` resigns.
    Resign(Side),
}

/// A request to change the game, from input or the CPU.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct MoveRequest {
    /// What to do.
    pub action: MoveAction,
    /// When set, the request is only valid in this [`GameState::generation`]; the CPU sets it so that a search
    /// finished for an older position can never land.
    pub expect_generation: Option<u64>,
}

impl MoveRequest {
    /// A request valid whatever the generation.
    pub fn new(action: MoveAction) -> Self {
        MoveRequest { action, expect_generation: None }
    }
}

/// Starts a new game from the current [`MatchSetup`].
#[derive(Message, Clone, Debug, Default)]
pub struct NewGame;

/// Replaces the game with `game` (a saved game resumed, a record imported), keeping the current [`MatchSetup`].
#[derive(Message, Clone, Debug)]
pub struct LoadGame(pub Game);

/// A new game started (the pieces were respawned).
#[derive(Message, Clone, Debug)]
pub struct GameStarted {
    /// The board.
    pub variant: Variant,
    /// Whether it is a game loaded part-way ([`LoadGame`]) rather than a new one.
    pub loaded: bool,
}

/// A piece moved one step.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct StepPlayed {
    /// The piece entity.
    pub piece: Entity,
    /// Its side.
    pub side: Side,
    /// Origin point.
    pub from: u8,
    /// Destination point.
    pub to: u8,
    /// Paika, approach or withdrawal.
    pub kind: StepKind,
    /// Index of the step within its turn (0 for the first; more in a relay).
    pub relay_index: usize,
}

/// How pieces were captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureKind {
    /// By approach: the run starts just beyond the destination.
    Approach,
    /// By withdrawal: the run starts just behind the origin.
    Withdrawal,
}

/// Enemy pieces were removed by a capturing step.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PiecesCaptured {
    /// The capturing side.
    pub by: Side,
    /// Approach or withdrawal.
    pub kind: CaptureKind,
    /// The captured points, nearest to the capturer first.
    pub points: Vec<u8>,
    /// The captured piece entities, in the order of `points` (they now carry [`Captured`] instead of [`Piece`]).
    pub pieces: Vec<Entity>,
    /// Index of the capturing step within its turn.
    pub relay_index: usize,
}

/// A capture left a relay in progress: the same piece may capture again, or the player may end the turn.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct RelayContinues {
    /// The relaying piece's point.
    pub piece: u8,
    /// Its legal capturing continuations.
    pub continuations: Vec<Step>,
}

/// A turn was completed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TurnEnded {
    /// Who played it.
    pub side: Side,
    /// Its number in the game, from 1.
    pub number: usize,
    /// The turn, for the move list (turn notation through `Display`).
    pub turn: Turn,
}

/// The game is over.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    /// Result and reason.
    pub outcome: Outcome,
}

/// What an undo took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoKind {
    /// The steps of the turn in progress.
    WithinTurn,
    /// This many whole turns.
    Turns(usize),
    /// A turn was replayed (redo).
    Redo,
}

/// The position jumped back (or forward, for a redo): pieces were respawned where the engine says.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct UndoHappened {
    /// What changed.
    pub kind: UndoKind,
}

/// A side offered a draw.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct DrawOffered {
    /// The offering side.
    pub by: Side,
}

/// A draw offer was answered.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct DrawAnswered {
    /// The answering side.
    pub by: Side,
    /// Whether it was accepted.
    pub accepted: bool,
}

/// A request was refused; nothing changed.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct RequestRejected {
    /// The request.
    pub action: MoveAction,
    /// Why, for people.
    pub reason: String,
}

/// A piece on the board: its colour and point. Only the referee spawns, moves and removes these.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its colour.
    pub side: Side,
    /// The point it stands on.
    pub point: u8,
}

/// A captured piece: no longer on the board, shown in the capturer's tray for the rest of the game (the animation
/// takes it there). Despawned and respawned with the others at a new game, undo or redo.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Captured {
    /// Its colour.
    pub side: Side,
    /// The point it was taken from ([`NO_POINT`] for pieces restored by an undo or redo, which are shown in the tray
    /// at once).
    pub point: u8,
    /// Its place in the capturer's tray: how many pieces of its colour had been captured before it.
    pub slot: u32,
}

/// Whether animations are still playing what the rules already decided: input and the CPU wait while it is set.
/// Written by the animation plugin; always false without it (headless).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimationsPending(pub bool);

/// Which entity stands on each point (the referee's own index, so it never depends on command flushes).
#[derive(Resource, Debug)]
struct PieceIndex([Option<Entity>; 64]);

impl Default for PieceIndex {
    fn default() -> Self {
        PieceIndex([None; 64])
    }
}

/// The order in which the game's systems run within `Update`: requests are made, then applied, then animated,
/// then shown.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameSet {
    /// Input and the CPU make requests.
    Request,
    /// The rules apply them.
    Rules,
    /// The animations take what happened in (so that [`AnimationsPending`] is already true in the update a turn
    /// is played, and nothing shown after reads a stale "at rest").
    Animate,
    /// Markers, HUD and automation react to what happened.
    Present,
}

/// Adds the rules: resources, messages and the request handler.
pub fn plugin(app: &mut App) {
    app.init_resource::<MatchSetup>()
        .init_resource::<GameState>()
        .init_resource::<PieceIndex>()
        .init_resource::<AnimationsPending>()
        // The game and the end of its animations decide the HUD and the game-over window.
        .wake_on_change::<GameState>()
        .wake_on_change::<AnimationsPending>()
        .add_woken_message::<MoveRequest>()
        .add_woken_message::<NewGame>()
        .add_woken_message::<LoadGame>()
        .add_woken_message::<GameStarted>()
        .add_woken_message::<StepPlayed>()
        .add_woken_message::<PiecesCaptured>()
        .add_woken_message::<RelayContinues>()
        .add_woken_message::<TurnEnded>()
        .add_woken_message::<GameEnded>()
        .add_woken_message::<UndoHappened>()
        .add_woken_message::<DrawOffered>()
        .add_woken_message::<DrawAnswered>()
        .add_woken_message::<RequestRejected>()
        .configure_sets(Update, (GameSet::Request, GameSet::Rules, GameSet::Animate, GameSet::Present).chain())
        .add_systems(Update, (start_new_games, apply_requests).chain().in_set(GameSet::Rules));
}

/// The message writers of the request handler, bundled to keep the system signature readable.
#[derive(bevy::ecs::system::SystemParam)]
struct Out<'w> {
    started: MessageWriter<'w, GameStarted>,
    steps: MessageWriter<'w, StepPlayed>,
    captures: MessageWriter<'w, PiecesCaptured>,
    relays: MessageWriter<'w, RelayContinues>,
    turns: MessageWriter<'w, TurnEnded>,
    ended: MessageWriter<'w, GameEnded>,
    undos: MessageWriter<'w, UndoHappened>,
    offers: MessageWriter<'w, DrawOffered>,
    answers: MessageWriter<'w, DrawAnswered>,
    rejected: MessageWriter<'w, RequestRejected>,
}

fn start_new_games(
    mut requests: MessageReader<NewGame>,
    mut loads: MessageReader<LoadGame>,
    setup: Res<MatchSetup>,
    mut state: ResMut<GameState>,
    mut index: ResMut<PieceIndex>,
    mut commands: Commands,
    captured: Query<Entity, With<Captured>>,
    mut out: Out,
) {
    let new = requests.read().count() > 0;
    // A load after a new game in the same frame wins: it is the more specific request.
    let loaded = loads.read().last().map(|l| l.0.clone());
    if !new && loaded.is_none() {
        return;
    }
    state.game = loaded.clone().unwrap_or_else(|| Game::new(setup.rules));
    state.generation += 1;
    state.draw_offer = None;
    respawn_pieces(&state, &mut index, &mut commands, &captured);
    out.started.write(GameStarted { variant: state.game.rules().variant, loaded: loaded.is_some() });
    if let Some(outcome) = state.game.outcome() {
        out.ended.write(GameEnded { outcome });
    }
}

/// Makes the piece entities match the engine's position from scratch (new game, undo, redo).
fn respawn_pieces(
    state: &GameState,
    index: &mut PieceIndex,
    commands: &mut Commands,
    captured: &Query<Entity, With<Captured>>,
) {
    for e in index.0.iter_mut().filter_map(Option::take) {
        commands.entity(e).try_despawn();
    }
    for e in captured {
        commands.entity(e).try_despawn();
    }
    let pos = state.position();
    for p in 0..64u8 {
        if let Some(side) = pos.piece_at(p) {
            let e = commands.spawn((Name::new(format!("{side} piece")), Piece { side, point: p })).id();
            index.0[p as usize] = Some(e);
        }
    }
    // The pieces captured so far go back to their trays.
    for side in Side::BOTH {
        for slot in 0..state.captured(side) {
            commands.spawn((Name::new(format!("captured {side} piece")), Captured { side, point: NO_POINT, slot }));
        }
    }
}

fn apply_requests(
    mut requests: MessageReader<MoveRequest>,
    setup: Res<MatchSetup>,
    mut state: ResMut<GameState>,
    mut index: ResMut<PieceIndex>,
    mut commands: Commands,
    captured: Query<Entity, With<Captured>>,
    mut out: Out,
) {
    for req in requests.read() {
        let result = admissible(req, &setup, &state).and_then(|()| match &req.action {
            MoveAction::Step(step) => play_step(&mut state, &mut index, &mut commands, *step, &mut out),
            MoveAction::EndTurn => match state.position().relay_piece() {
                Some(p) => play_step(&mut state, &mut index, &mut commands, Step::stop(p), &mut out),
                None => Err("there is no relay to end".to_string()),
            },
            MoveAction::Turn(turn) => play_turn(&mut state, &mut index, &mut commands, turn, &mut out),
            MoveAction::Undo { until } => undo(&mut state, *until).map(|kind| {
                respawn_pieces(&state, &mut index, &mut commands, &captured);
                out.undos.write(UndoHappened { kind });
            }),
            MoveAction::Redo => state.game.redo().map_err(|e| e.to_string()).map(|()| {
                state.generation += 1;
                respawn_pieces(&state, &mut index, &mut commands, &captured);
                out.undos.write(UndoHappened { kind: UndoKind::Redo });
                report_turn_end(&state, &mut out);
            }),
            MoveAction::OfferDraw(side) => offer_draw(&mut state, *side, &mut out),
            MoveAction::AnswerDraw { accept } => answer_draw(&mut state, *accept, &mut out),
            MoveAction::Resign(side) => state.game.resign(*side).map_err(|e| e.to_string()).map(|()| {
                state.generation += 1;
                out.ended.write(GameEnded { outcome: state.game.outcome().expect("just resigned") });
            }),
        });
        if let Err(reason) = result {
            out.rejected.write(RequestRejected { action: req.action.clone(), reason });
        }
    }
}

/// Whether a request may be tried at all: made for the position now shown, and (online) one the player may make
/// locally.
fn admissible(req: &MoveRequest, setup: &MatchSetup, state: &GameState) -> Result<(), String> {
    if req.expect_generation.is_some_and(|g| g != state.generation) {
        return Err("the position changed since the request was made".into());
    }
    if setup.is_online() && !allowed_online(&req.action, &state.game) {
        return Err("in an online game the server decides this".into());
    }
    Ok(())
}

/// Plays a whole turn, checked on a copy first: an illegal turn must change nothing.
fn play_turn(
    state: &mut GameState,
    index: &mut PieceIndex,
    commands: &mut Commands,
    turn: &Turn,
    out: &mut Out,
) -> Result<(), String> {
    let mut check = state.game.clone();
    turn.steps.iter().try_for_each(|s| check.play_step(*s).map(|_| ())).map_err(|e| e.to_string())?;
    for s in &turn.steps {
        play_step(state, index, commands, *s, out)?;
    }
    // A turn given without its final stop leaves a relay: the CPU meant to stop there.
    match state.position().relay_piece() {
        Some(p) => play_step(state, index, commands, Step::stop(p), out),
        None => Ok(()),
    }
}

/// A side offers a draw (one offer waits at a time).
fn offer_draw(state: &mut GameState, side: Side, out: &mut Out) -> Result<(), String> {
    if state.game.is_over() {
        return Err("the game is over".into());
    }
    if state.draw_offer.is_some() {
        return Err("a draw offer is already waiting for an answer".into());
    }
    state.draw_offer = Some(side);
    state.generation += 1;
    out.offers.write(DrawOffered { by: side });
    Ok(())
}

/// The other side answers the waiting draw offer; accepted, the game ends drawn.
fn answer_draw(state: &mut GameState, accept: bool, out: &mut Out) -> Result<(), String> {
    let by = state.draw_offer.take().ok_or("there is no draw offer to answer")?;
    state.generation += 1;
    out.answers.write(DrawAnswered { by: by.opponent(), accepted: accept });
    if accept {
        state.game.agree_draw().map_err(|e| e.to_string())?;
        out.ended.write(GameEnded { outcome: state.game.outcome().expect("just agreed") });
    }
    Ok(())
}

/// Whether `action` may change an online game locally: moves, and taking back the steps of one's own relay in
/// progress (the server never saw them). Draws, resignations and takebacks of whole turns go through the server,
/// whose answer arrives as a [`LoadGame`].
fn allowed_online(action: &MoveAction, game: &Game) -> bool {
    match action {
        MoveAction::Step(_) | MoveAction::Turn(_) | MoveAction::EndTurn => true,
        MoveAction::Undo { .. } => !game.pending_steps().is_empty(),
        MoveAction::Redo | MoveAction::OfferDraw(_) | MoveAction::AnswerDraw { .. } | MoveAction::Resign(_) => false,
    }
}

/// Takes back the turn in progress, or whole turns until `until` is to move. Changes nothing on failure.
fn undo(state: &mut GameState, until: Option<Side>) -> Result<UndoKind, String> {
    if state.game.undo_pending() {
        state.generation += 1;
        return Ok(UndoKind::WithinTurn);
    }
    if state.game.turns().is_empty() {
        return Err("there is nothing to take back".into());
    }
    let mut copy = state.game.clone();
    let mut n = 0;
    loop {
        if copy.undo().is_err() {
            break;
        }
        n += 1;
        match until {
            Some(side) if copy.position().side_to_move() != side => continue,
            _ => break,
        }
    }
    if let Some(side) = until
        && copy.position().side_to_move() != side
    {
        return Err(format!("there is no earlier turn of {side} to go back to"));
    }
    state.game = copy;
    state.generation += 1;
    state.draw_offer = None;
    Ok(UndoKind::Turns(n))
}

fn report_turn_end(state: &GameState, out: &mut Out) {
    let game = &state.game;
    if let Some(turn) = game.turns().last() {
        let side = game.turn_start().side_to_move().opponent();
        out.turns.write(TurnEnded { side, number: game.turns().len(), turn: turn.clone() });
    }
    if let Some(outcome) = game.outcome() {
        out.ended.write(GameEnded { outcome });
    }
}

/// The captured points of `step` from `before`, nearest to the capturer first.
pub fn captured_points(before: &Position, step: Step) -> Vec<u8> {
    let run = before.captured_by(step);
    let g = before.geometry();
    let (mut p, d) = match step.kind {
        StepKind::Approach => (g.neighbor[step.dir.index()][step.to as usize], step.dir.index()),
        StepKind::Withdrawal => {
            let o = step.dir.opposite().index();
            (g.neighbor[o][step.from as usize], o)
        }
        _ => return Vec::new(),
    };
    let mut points = Vec::new();
    while p != NO_POINT && run >> p & 1 == 1 {
        points.push(p);
        p = g.neighbor[d][p as usize];
    }
    points
}

fn play_step(
    state: &mut GameState,
    index: &mut PieceIndex,
    commands: &mut Commands,
    step: Step,
    out: &mut Out,
) -> Result<(), String> {
    let before = *state.position();
    let side = before.side_to_move();
    let relay_index = state.game.pending_steps().len();
    let effect = state.game.play_step(step).map_err(|e| match e {
        GameError::Illegal(r) => r.to_string(),
        e => e.to_string(),
    })?;
    state.generation += 1;
    // Any move answers a pending draw offer with "no".
    if let Some(by) = state.draw_offer.take() {
        out.answers.write(DrawAnswered { by: by.opponent(), accepted: false });
    }
    if step.kind != StepKind::Stop {
        let piece = index.0[step.from as usize].take().expect("the engine moved a piece the index knows");
        index.0[step.to as usize] = Some(piece);
        commands.entity(piece).insert(Piece { side, point: step.to });
        out.steps.write(StepPlayed { piece, side, from: step.from, to: step.to, kind: step.kind, relay_index });
        if effect.captured != 0 {
            let points = captured_points(&before, step);
            debug_assert_eq!(points.iter().fold(0u64, |b, &p| b | 1 << p), effect.captured);
            let mut pieces = Vec::with_capacity(points.len());
            let victim = side.opponent();
            let mut slot = state.game.start_position().count(victim) - before.count(victim);
            for &p in &points {
                if let Some(e) = index.0[p as usize].take() {
                    commands.entity(e).remove::<Piece>().insert(Captured { side: victim, point: p, slot });
                    pieces.push(e);
                    slot += 1;
                }
            }
            let kind = if step.kind == StepKind::Approach { CaptureKind::Approach } else { CaptureKind::Withdrawal };
            out.captures.write(PiecesCaptured { by: side, kind, points, pieces, relay_index });
        }
    }
    if effect.turn_ended {
        report_turn_end(state, out);
    } else if let Some(piece) = state.position().relay_piece() {
        let continuations = state.position().steps().iter().copied().filter(|s| s.kind != StepKind::Stop).collect();
        out.relays.write(RelayContinues { piece, continuations });
    }
    Ok(())
}
