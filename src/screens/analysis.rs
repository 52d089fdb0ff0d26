//! The analysis board: set up any position, play both sides freely with the variations kept as a tree, and watch
//! the engine's best lines (multi-PV) and an evaluation bar update as it thinks.
//!
//! It is not a game: nothing is counted in the stats or saved as the game in progress (those follow [`InGame`],
//! which this screen is not). The board shows the tree's current node through the referee ([`LoadGame`]), so
//! the ordinary input plays turns on it; each turn the rules report is added to the tree as a child of the node.
//! In editing mode a click on a point changes what stands there instead.
//!
//! The engine thinks wherever the game's engine jobs run (the async pool, the browser's engine worker:
//! [`EngineJobs`]), like the CPU player, and restarts whenever the current node changes.
//!
//! [`InGame`]: crate::state::InGame

use crate::i18n::{score_text, t, tf};
use crate::platform::redraw::WakeOn;
use crate::platform::web;
use crate::play::arrows::{ArrowPath, ArrowStyle, BoardArrows};
use crate::play::board::BoardFrame;
use crate::play::engine_jobs::{EngineJobs, JobHandle};
use crate::play::input::{BoardEditing, PointClicked, Selection};
use crate::play::referee::{GameSet, GameStarted, GameState, LoadGame, MatchSetup, Player, TurnEnded};
use crate::screens::widgets::{report_button, side_panel};
use crate::state::Screen;
use crate::theme::colors;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::search::{Info, Limits, Score};
use fanorona_engine::service::{Job, Memory, Reply, game_text};
use fanorona_engine::{Game, Position, Rules, Side, Turn, Variant};
use std::time::Duration;

/// The deepest the analysis goes (it stops there, or when the node changes).
const MAX_DEPTH: u32 = 40;
/// How long one analysis may think at most, so that a forgotten window does not keep a core busy for ever.
const MAX_THINK: Duration = Duration::from_secs(120);
/// The most lines shown.
pub const MAX_LINES: usize = 3;

/// One position of the tree: the turn that led to it from its parent, and the turns tried from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The turn from the parent (None at the root).
    pub turn: Option<Turn>,
    /// The parent's index (None at the root).
    pub parent: Option<usize>,
    /// The children's indices, in the order they were first played (the first is the main line).
    pub children: Vec<usize>,
}

/// The variations explored from a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// The root position (what the editor set up).
    pub root: Position,
    /// Every node; index 0 is the root.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only `root`.
    pub fn new(root: Position) -> Tree {
        Tree { root, nodes: vec![Node { turn: None, parent: None, children: Vec::new() }] }
    }

    /// The turns from the root to `node`.
    pub fn path(&self, node: usize) -> Vec<Turn> {
        let mut turns = Vec::new();
        let mut at = node;
        while let (Some(turn), Some(parent)) = (&self.nodes[at].turn, self.nodes[at].parent) {
            turns.push(turn.clone());
            at = parent;
        }
        turns.reverse();
        turns
    }

    /// The game from the root to `node` (its history makes repetitions count as in a game).
    pub fn game(&self, node: usize, rules: Rules) -> Game {
        let mut game = Game::from_position(self.root, rules);
        for turn in self.path(node) {
            // The tree holds only turns the rules accepted from these very positions.
            if game.play_turn(&turn).is_err() {
                break;
            }
        }
        game
    }

    /// The child of `node` reached by `turn`: the existing one, or a new one.
    pub fn child(&mut self, node: usize, turn: &Turn) -> usize {
        if let Some(&c) = self.nodes[node].children.iter().find(|&&c| self.nodes[c].turn.as_ref() == Some(turn)) {
            return c;
        }
        let c = self.nodes.len();
        self.nodes.push(Node { turn: Some(turn.clone()), parent: Some(node), children: Vec::new() });
        self.nodes[node].children.push(c);
        c
    }
}

/// What a click puts on a point while editing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Brush {
    /// A white piece (a click on one removes it).
    #[default]
    White,
    /// A black piece (a click on one removes it).
    Black,
    /// Nothing.
    Erase,
}

/// The analysis board's state.
#[derive(Resource)]
pub struct Analysis {
    /// The rules the position is played under (variant included).
    pub rules: Rules,
    /// Whether clicks edit the position (otherwise they play turns).
    pub editing: bool,
    /// What a click puts on a point while editing.
    pub brush: Brush,
    /// The explored variations.
    pub tree: Tree,
    /// The node the board shows.
    pub current: usize,
    /// The FEN field.
    pub fen: String,
    /// The node whose position the FEN field shows (it follows the board unless the player is typing in it).
    fen_node: usize,
    /// Why the last FEN could not be read.
    pub fen_error: Option<String>,
    /// How many lines the engine reports (1 to [`MAX_LINES`]).
    pub multipv: usize,
    /// The engine's latest lines for the current node, best first.
    pub lines: Vec<Info>,
    /// The node the board was last loaded with (to see when the tree moved).
    shown: Option<usize>,
    /// Loads asked of the rules and not yet reported done: until they are, a reported turn belongs to the game
    /// shown before (the title's).
    loads_pending: u32,
    /// The engine's job on the current node (dropping it stops the engine).
    engine: Option<JobHandle>,
}

impl Analysis {
    /// A board with `pos` and nothing explored.
    pub fn new(pos: Position, rules: Rules) -> Analysis {
        Analysis {
            rules: Rules { variant: pos.variant(), ..rules },
            editing: false,
            brush: Brush::default(),
            tree: Tree::new(pos),
            current: 0,
            fen: pos.to_fen(),
            fen_node: 0,
            fen_error: None,
            multipv: MAX_LINES,
            lines: Vec::new(),
            shown: None,
            loads_pending: 0,
            engine: None,
        }
    }

    /// The position of the current node.
    pub fn position(&self) -> Position {
        *self.tree.game(self.current, self.rules).position()
    }

    /// Starts afresh from `pos` (the editor's changes, a pasted FEN).
    fn set_root(&mut self, pos: Position) {
        self.rules.variant = pos.variant();
        self.tree = Tree::new(pos);
        self.current = 0;
        self.fen = pos.to_fen();
        self.fen_node = 0;
        self.fen_error = None;
        self.shown = None;
    }
}

/// What the analysis screen is asked to do; the panel's buttons write these, so tests drive it the same way.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum AnalysisAction {
    /// Open the board with this position (the start position when None).
    Open(Option<Position>),
    /// Switch between editing and exploring.
    Edit(bool),
    /// While editing: clear the board.
    Clear,
    /// While editing: the start position of a board.
    Start(Variant),
    /// While editing: the side to move.
    ToMove(Side),
    /// Read the FEN field.
    LoadFen(String),
    /// Go to a node of the tree.
    Goto(usize),
    /// One turn back.
    Back,
    /// One turn forward along the first variation.
    Forward,
    /// Show this many lines.
    Lines(usize),
    /// Back to the title.
    Close,
}

/// Adds the analysis board.
pub fn plugin(app: &mut App) {
    app.add_woken_message::<AnalysisAction>()
        .add_systems(Update, act.in_set(GameSet::Request))
        .add_systems(
            Update,
            (edit_clicks.in_set(GameSet::Request).after(act), (grow_tree, think).chain().in_set(GameSet::Present))
                .run_if(in_state(Screen::Analysis)),
        )
        .add_systems(OnExit(Screen::Analysis), leave)
        .add_systems(EguiPrimaryContextPass, panel.run_if(in_state(Screen::Analysis)));
    if web::IN_BROWSER {
        app.add_systems(Last, announce_best_line);
    }
}

/// Tells the web page the best line as it deepens (`analysis` "depth score first-turn"), for its tests.
fn announce_best_line(analysis: Option<Res<Analysis>>) {
    if let Some(best) = analysis.as_ref().and_then(|a| a.lines.first()) {
        let first = best.pv.first().map(|t| t.to_string()).unwrap_or_default();
        web::event_once("analysis", &format!("{} {} {first}", best.depth, best.score));
    }
}

fn leave(
    mut commands: Commands,
    mut arrows: ResMut<BoardArrows>,
    mut frame: ResMut<BoardFrame>,
    mut editing: ResMut<BoardEditing>,
) {
    // Dropping the analysis stops its engine.
    commands.remove_resource::<Analysis>();
    *arrows = BoardArrows::default();
    *frame = BoardFrame::default();
    editing.0 = false;
}

#[allow(clippy::too_many_arguments)]
fn act(
    mut actions: MessageReader<AnalysisAction>,
    analysis: Option<ResMut<Analysis>>,
    mut setup: ResMut<MatchSetup>,
    mut next: ResMut<NextState<Screen>>,
    mut editing: ResMut<BoardEditing>,
    mut sel: ResMut<Selection>,
    mut commands: Commands,
) {
    let mut analysis = analysis;
    for a in actions.read() {
        *sel = Selection::default();
        if let AnalysisAction::Open(pos) = a {
            let rules = setup.rules;
            let pos = pos.unwrap_or_else(|| Position::start(&rules));
            commands.insert_resource(Analysis::new(pos, rules));
            *setup = MatchSetup { rules, players: [Player::Human, Player::Human], seed: setup.seed, vela_match: false };
            editing.0 = false;
            next.set(Screen::Analysis);
            // The new resource is there from the next frame on; the rest of this frame's actions wait for it.
            return;
        }
        let Some(an) = analysis.as_deref_mut() else { continue };
        match a {
            AnalysisAction::Open(_) => {}
            AnalysisAction::Edit(on) => {
                if *on {
                    // Editing starts from what the board shows.
                    let pos = an.position();
                    an.set_root(pos);
                }
                an.editing = *on;
                editing.0 = *on;
            }
            AnalysisAction::Clear => {
                let side = an.tree.root.side_to_move();
                an.set_root(Position::from_parts(an.rules.variant, 0, 0, side, &an.rules));
            }
            AnalysisAction::Start(variant) => {
                let rules = Rules { variant: *variant, ..an.rules };
                an.rules = rules;
                an.set_root(Position::start(&rules));
            }
            AnalysisAction::ToMove(side) => {
                let root = an.tree.root;
                let (w, b) = (root.pieces(Side::White), root.pieces(Side::Black));
                an.set_root(Position::from_parts(an.rules.variant, w, b, *side, &an.rules));
            }
            AnalysisAction::LoadFen(text) => match Position::from_fen_with_rules(text.trim(), &an.rules) {
                Ok(pos) => an.set_root(pos),
                Err(e) => an.fen_error = Some(e.to_string()),
            },
            AnalysisAction::Goto(n) if *n < an.tree.nodes.len() => an.current = *n,
            AnalysisAction::Goto(_) => {}
            AnalysisAction::Back => an.current = an.tree.nodes[an.current].parent.unwrap_or(an.current),
            AnalysisAction::Forward => {
                an.current = an.tree.nodes[an.current].children.first().copied().unwrap_or(an.current)
            }
            AnalysisAction::Lines(n) => {
                an.multipv = (*n).clamp(1, MAX_LINES);
                an.shown = None;
            }
            AnalysisAction::Close => next.set(Screen::Title),
        }
        *setup = MatchSetup { rules: an.rules, ..setup.clone() };
    }
}

/// While editing, a click puts the brush's piece on the point (or takes away the same piece).
fn edit_clicks(mut clicks: MessageReader<PointClicked>, analysis: Option<ResMut<Analysis>>) {
    let Some(mut an) = analysis else {
        clicks.clear();
        return;
    };
    if !an.editing {
        clicks.clear();
        return;
    }
    for &PointClicked(p) in clicks.read() {
        let root = an.tree.root;
        if !root.geometry().contains(p) {
            continue;
        }
        let (mut w, mut b) = (root.pieces(Side::White), root.pieces(Side::Black));
        let bit = 1u64 << p;
        let was = root.piece_at(p);
        w &= !bit;
        b &= !bit;
        match (an.brush, was) {
            (Brush::White, Some(Side::White)) | (Brush::Black, Some(Side::Black)) | (Brush::Erase, _) => {}
            (Brush::White, _) => w |= bit,
            (Brush::Black, _) => b |= bit,
        }
        // No side may have more pieces than it starts with: the engine's tables and the trays assume it.
        let most = root.variant().start_pieces();
        if w.count_ones() > most || b.count_ones() > most {
            an.fen_error = Some(t("analysis.too_many").to_string());
            continue;
        }
        let rules = an.rules;
        an.set_root(Position::from_parts(rules.variant, w, b, root.side_to_move(), &rules));
    }
}

/// Adds each turn played on the board to the tree.
fn grow_tree(
    mut turns: MessageReader<TurnEnded>,
    mut started: MessageReader<GameStarted>,
    state: Res<GameState>,
    analysis: Option<ResMut<Analysis>>,
) {
    let Some(mut an) = analysis else {
        turns.clear();
        started.clear();
        return;
    };
    let loaded = started.read().filter(|s| s.loaded).count() as u32;
    an.loads_pending = an.loads_pending.saturating_sub(loaded);
    if an.loads_pending > 0 || an.shown.is_none() {
        turns.clear();
        return;
    }
    for _ in turns.read() {
        // Only a turn played from the node on the board: a turn of the game shown before the analysis opened (the
        // title's) may still be reported in the first frames.
        let game = state.game();
        let path = an.tree.path(an.current);
        let from_node = *game.start_position() == an.tree.root
            && game.turns().len() == path.len() + 1
            && game.turns()[..path.len()] == path[..];
        let Some(turn) = game.turns().last().cloned().filter(|_| from_node) else { continue };
        let current = an.current;
        let child = an.tree.child(current, &turn);
        an.current = child;
        // The board already shows this node: no reload, the turn's animation plays on.
        an.shown = Some(child);
        an.engine = None;
        an.lines.clear();
    }
}

/// Loads the current node on the board when it changed, (re)starts the engine on it, and collects its lines.
fn think(
    analysis: Option<ResMut<Analysis>>,
    mut loads: MessageWriter<LoadGame>,
    mut arrows: ResMut<BoardArrows>,
    mut jobs: ResMut<EngineJobs>,
) {
    let Some(mut an) = analysis else { return };
    let an = &mut *an;
    if an.shown != Some(an.current) {
        an.shown = Some(an.current);
        an.loads_pending += 1;
        loads.write(LoadGame(an.tree.game(an.current, an.rules)));
        an.engine = None;
        an.lines.clear();
    }
    if an.editing {
        an.engine = None;
        an.lines.clear();
    } else if an.engine.is_none() {
        let game = an.tree.game(an.current, an.rules);
        if !game.is_over() && !game.position().legal_turns().is_empty() {
            let limits = Limits { depth: Some(MAX_DEPTH), movetime: Some(MAX_THINK), ..Limits::default() }
                .with_multipv(an.multipv);
            an.engine = Some(jobs.start(Job::Search { game: game_text(&game), limits, memory: Memory::Analysis }));
        }
    }
    // The arrows follow the lines: rebuilt only when the engine reported something new (or the node changed,
    // which cleared the lines), not every frame.
    let mut changed = an.lines.is_empty() && !arrows.paths.is_empty();
    if let Some(engine) = &an.engine {
        for reply in jobs.take(engine) {
            if let Reply::Info { info, .. } = reply {
                keep_line(&mut an.lines, info);
                changed = true;
            }
        }
    }
    if !changed {
        return;
    }
    let pos = an.position();
    let wanted: Vec<ArrowPath> = an
        .lines
        .iter()
        .take(an.multipv)
        .enumerate()
        .filter_map(|(k, info)| info.pv.first().map(|turn| ArrowPath::of_turn(&pos, turn, ArrowStyle::Line(k as u8))))
        .rev()
        .collect();
    if arrows.paths != wanted {
        arrows.paths = wanted;
    }
}

/// Keeps the newest report of each line (line `k` at index `k - 1`).
fn keep_line(lines: &mut Vec<Info>, info: Info) {
    let k = info.multipv.max(1) - 1;
    if lines.len() <= k {
        lines.resize(k + 1, info.clone());
    }
    lines[k] = info;
}

/// The score of a line for White, in pieces, clamped for the bar (a win is a full bar).
fn white_view(score: i32, to_move: Side) -> i32 {
    if to_move == Side::White { score } else { -score }
}

#[allow(clippy::too_many_arguments)]
fn panel(
    mut contexts: EguiContexts,
    analysis: Option<ResMut<Analysis>>,
    mut actions: MessageWriter<AnalysisAction>,
    mut frame: ResMut<BoardFrame>,
) -> Result {
    let Some(mut an) = analysis else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    side_panel(ctx, "analysis", 330.0, &mut frame, |ui| {
        // The way out first, beside the title: nothing above it grows, so it never moves under the pointer.
        // The title gives way (cut short) to the button in languages where both are long.
        egui::Sides::new().shrink_left().truncate().show(
            ui,
            |ui| ui.heading(egui::RichText::new(t("analysis.title")).color(colors::GOLD)),
            |ui| {
                let close = ui.button(t("lessons.close"));
                if report_button(ui, "analysis_close", &close).clicked() {
                    actions.write(AnalysisAction::Close);
                }
            },
        );
        ui.label(egui::RichText::new(t("analysis.not_a_game")).small().color(colors::DIM));
        ui.horizontal(|ui| {
            if ui.selectable_label(!an.editing, t("analysis.explore")).clicked() {
                actions.write(AnalysisAction::Edit(false));
            }
            if ui.selectable_label(an.editing, t("analysis.edit")).clicked() {
                actions.write(AnalysisAction::Edit(true));
            }
        });
        ui.separator();
        if an.editing {
            editor(ui, &mut an, &mut actions);
        } else {
            engine_lines(ui, &an, &mut actions);
            ui.separator();
            variations(ui, &an, &mut actions);
        }
        ui.separator();
        fen_box(ui, &mut an, &mut actions);
    });
    Ok(())
}

fn editor(ui: &mut egui::Ui, an: &mut Analysis, actions: &mut MessageWriter<AnalysisAction>) {
    ui.label(t("analysis.edit_help"));
    ui.horizontal(|ui| {
        ui.selectable_value(&mut an.brush, Brush::White, t("analysis.brush_white"));
        ui.selectable_value(&mut an.brush, Brush::Black, t("analysis.brush_black"));
        ui.selectable_value(&mut an.brush, Brush::Erase, t("analysis.brush_erase"));
    });
    ui.horizontal(|ui| {
        ui.label(t("analysis.to_move"));
        let to_move = an.tree.root.side_to_move();
        for side in Side::BOTH {
            if ui.selectable_label(to_move == side, crate::i18n::side_name(side)).clicked() {
                actions.write(AnalysisAction::ToMove(side));
            }
        }
    });
    ui.horizontal(|ui| {
        if ui.button(t("analysis.clear")).clicked() {
            actions.write(AnalysisAction::Clear);
        }
        if ui.button(t("variant.tsivy")).clicked() {
            actions.write(AnalysisAction::Start(Variant::Tsivy));
        }
        if ui.button(t("variant.dimy")).clicked() {
            actions.write(AnalysisAction::Start(Variant::Dimy));
        }
    });
}

fn engine_lines(ui: &mut egui::Ui, an: &Analysis, actions: &mut MessageWriter<AnalysisAction>) {
    let pos = an.position();
    let to_move = pos.side_to_move();
    // The bar: White's share, from the best line's score (a piece is a tenth of the bar, a win all of it).
    let best = an.lines.first().map(|l| white_view(l.score, to_move));
    let share = best.map_or(0.5, |s| (0.5 + s as f32 / 2000.0).clamp(0.02, 0.98));
    let (rect, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 14.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 3.0, egui::Color32::from_gray(30));
    let white = egui::Rect::from_min_size(rect.min, egui::vec2(rect.width() * share, rect.height()));
    ui.painter().rect_filled(white, 3.0, egui::Color32::from_gray(235));
    ui.horizontal(|ui| {
        ui.label(t("analysis.lines"));
        for n in 1..=MAX_LINES {
            if ui.selectable_label(an.multipv == n, n.to_string()).clicked() {
                actions.write(AnalysisAction::Lines(n));
            }
        }
    });
    ui.label(egui::RichText::new(t("analysis.white_view")).small().color(colors::DIM));
    // One row a line, always as many rows as lines asked for and each cut to the panel's width, so that what
    // follows keeps its place while the engine's lines come and grow.
    for k in 0..an.multipv {
        ui.horizontal(|ui| {
            // The line's colour, as its arrows and crosses on the board have it.
            let (swatch, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(swatch, 2.0, ArrowStyle::Line(k as u8).color32());
            let text = match an.lines.get(k) {
                Some(info) => {
                    let pv: Vec<String> = info.pv.iter().take(4).map(|t| t.to_string()).collect();
                    let score = score_text(Score::from_raw(white_view(info.score, to_move)));
                    tf(
                        "analysis.line",
                        &[
                            ("k", (k + 1).into()),
                            ("score", score.into()),
                            ("depth", info.depth.into()),
                            ("pv", pv.join("  ").into()),
                        ],
                    )
                }
                None if k == 0 => t("analysis.thinking").to_string(),
                None => String::new(),
            };
            ui.add(egui::Label::new(egui::RichText::new(text).monospace()).truncate());
        });
    }
}

fn variations(ui: &mut egui::Ui, an: &Analysis, actions: &mut MessageWriter<AnalysisAction>) {
    ui.horizontal(|ui| {
        if ui.add_enabled(an.current != 0, egui::Button::new("<")).clicked() {
            actions.write(AnalysisAction::Back);
        }
        let has_next = !an.tree.nodes[an.current].children.is_empty();
        if ui.add_enabled(has_next, egui::Button::new(">")).clicked() {
            actions.write(AnalysisAction::Forward);
        }
        if ui.add_enabled(an.current != 0, egui::Button::new(t("analysis.root"))).clicked() {
            actions.write(AnalysisAction::Goto(0));
        }
    });
    // The path to the current node, then the other turns tried from it.
    egui::ScrollArea::vertical().max_height(180.0).show(ui, |ui| {
        let mut at = an.current;
        let mut path = vec![at];
        while let Some(p) = an.tree.nodes[at].parent {
            path.push(p);
            at = p;
        }
        path.reverse();
        ui.horizontal_wrapped(|ui| {
            for (i, &n) in path.iter().enumerate().skip(1) {
                let turn = an.tree.nodes[n].turn.as_ref().map(|t| t.to_string()).unwrap_or_default();
                if ui.selectable_label(n == an.current, format!("{i}. {turn}")).clicked() {
                    actions.write(AnalysisAction::Goto(n));
                }
            }
        });
        let children = &an.tree.nodes[an.current].children;
        if !children.is_empty() {
            ui.label(egui::RichText::new(t("analysis.tried")).color(colors::DIM));
            for &c in children {
                let turn = an.tree.nodes[c].turn.as_ref().map(|t| t.to_string()).unwrap_or_default();
                if ui.button(turn).clicked() {
                    actions.write(AnalysisAction::Goto(c));
                }
            }
        }
    });
}

fn fen_box(ui: &mut egui::Ui, an: &mut Analysis, actions: &mut MessageWriter<AnalysisAction>) {
    ui.label(t("analysis.fen"));
    let id = egui::Id::new("analysis fen");
    if an.fen_node != an.current && !ui.memory(|m| m.has_focus(id)) {
        an.fen = an.position().to_fen();
        an.fen_node = an.current;
        an.fen_error = None;
    }
    ui.add(egui::TextEdit::singleline(&mut an.fen).id(id).desired_width(310.0).code_editor());
    ui.horizontal(|ui| {
        if ui.button(t("analysis.load_fen")).clicked() {
            actions.write(AnalysisAction::LoadFen(an.fen.clone()));
        }
        if ui.button(t("analysis.copy_fen")).clicked() {
            let fen = an.position().to_fen();
            an.fen = fen.clone();
            if !web::copy(&fen) {
                ui.ctx().copy_text(fen);
            }
        }
    });
    if let Some(e) = &an.fen_error {
        ui.label(egui::RichText::new(e).color(colors::WARN));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_keeps_variations_and_rebuilds_their_games() {
        let rules = Rules::default();
        let mut tree = Tree::new(Position::start(&rules));
        let turns = tree.root.legal_turns();
        let a = tree.child(0, &turns[0]);
        let b = tree.child(0, &turns[1]);
        assert_eq!(tree.child(0, &turns[0]), a, "the same turn leads to the same node");
        assert_eq!(tree.nodes[0].children, vec![a, b]);
        let game = tree.game(a, rules);
        let reply = game.position().legal_turns().remove(0);
        let deep = tree.child(a, &reply);
        assert_eq!(tree.path(deep), vec![turns[0].clone(), reply]);
        assert_eq!(tree.game(deep, rules).turns().len(), 2);
        assert_eq!(tree.game(b, rules).turns(), std::slice::from_ref(&turns[1]));
    }
}
