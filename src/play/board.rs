//! The board plugin: the camera, the wooden board with its lines and strong points, and the look of the pieces.
//!
//! World units: one unit between neighbouring points, the board centred on the origin, with each side's tray of
//! captured pieces along the board's edge on that side (White's below, Black's above). The camera uses
//! `ScalingMode::AutoMin` sized so that the board and its trays always fit the part of the window the HUD leaves
//! free.

use crate::platform::redraw::WakeOn;
use crate::play::referee::{Captured, GameStarted, GameState, Piece};
use crate::state::Screen;
use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fanorona_engine::Variant;
use fanorona_engine::geometry::{Direction, coords};

/// Radius of a piece, in units of the point spacing.
pub const PIECE_RADIUS: f32 = 0.36;
/// Depth of resting pieces.
pub const PIECE_Z: f32 = 1.0;
/// Depth of a piece while it slides (above the others).
pub const MOVING_Z: f32 = 2.0;
/// Depth of highlights drawn under the pieces.
pub const UNDER_Z: f32 = 0.5;
/// Depth of highlights drawn over the pieces.
pub const OVER_Z: f32 = 1.6;
/// How far from a point (in units of the point spacing) a click or tap still counts as on it: generous, for
/// fingers, yet short of half the spacing so that neighbouring points never compete.
pub const HIT_RADIUS: f32 = 0.48;
/// Wood beyond the outer lines.
const MARGIN: f32 = 0.68;
/// Scale of a piece lying in a tray.
pub const TRAY_SCALE: f32 = 0.45;
/// Distance between neighbouring pieces in a tray.
const TRAY_SPACING: f32 = 0.36;
/// Depth of one row of a tray, the tray's border, and its gap to the board's frame.
const TRAY_ROW: f32 = 0.36;
const TRAY_BORDER: f32 = 0.14;
const TRAY_GAP: f32 = 0.12;

/// Where the points are, for the board on screen.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct BoardLayout {
    /// The board being shown.
    pub variant: Variant,
}

impl BoardLayout {
    /// World position of a point.
    pub fn point_pos(&self, p: u8) -> Vec2 {
        let (f, r) = coords(p);
        let w = self.variant.width() as f32;
        let h = self.variant.height() as f32;
        Vec2::new(f as f32 - (w - 1.0) / 2.0, r as f32 - (h - 1.0) / 2.0)
    }

    /// The point within [`HIT_RADIUS`] of a world position, if any.
    pub fn point_at(&self, world: Vec2) -> Option<u8> {
        let g = self.variant.geometry();
        (0..64u8)
            .filter(|&p| g.contains(p))
            .map(|p| (p, self.point_pos(p).distance(world)))
            .filter(|&(_, d)| d <= HIT_RADIUS)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(p, _)| p)
    }

    /// Width and height of the wooden board, frame included.
    pub fn size(&self) -> Vec2 {
        Vec2::new(self.variant.width() as f32 - 1.0, self.variant.height() as f32 - 1.0) + 2.0 * (MARGIN + 0.14)
    }

    /// Width and height of everything that must stay on screen: the board and both trays.
    pub fn view_size(&self) -> Vec2 {
        self.size() + Vec2::new(0.0, 2.0 * (self.tray_depth() + TRAY_GAP))
    }

    /// Pieces in one row of a tray.
    fn tray_per_row(&self) -> u32 {
        (((self.size().x - 0.4) / TRAY_SPACING) as u32).max(1)
    }

    /// Depth of a tray: rows enough for every piece of a side (one on 9 × 5, two on 5 × 5).
    fn tray_depth(&self) -> f32 {
        let pieces = (self.variant.width() as u32 * self.variant.height() as u32 - 1) / 2;
        let rows = pieces.div_ceil(self.tray_per_row());
        rows as f32 * TRAY_ROW + 2.0 * TRAY_BORDER
    }

    /// The centre of the tray of `by` (where the pieces it captures go): along the board's edge on its side.
    pub fn tray_centre(&self, by: fanorona_engine::Side) -> Vec2 {
        let y = self.size().y / 2.0 + TRAY_GAP + self.tray_depth() / 2.0;
        match by {
            fanorona_engine::Side::White => Vec2::new(0.0, -y),
            fanorona_engine::Side::Black => Vec2::new(0.0, y),
        }
    }

    /// Where the `slot`-th piece captured by `by` lies in its tray: rows from the left, the first row nearest the
    /// board.
    pub fn tray_slot(&self, by: fanorona_engine::Side, slot: u32) -> Vec2 {
        let width = self.size().x - 0.4;
        let per_row = self.tray_per_row();
        let (row, col) = (slot / per_row, slot % per_row);
        let x = -width / 2.0 + TRAY_SPACING / 2.0 + col as f32 * TRAY_SPACING;
        let centre = self.tray_centre(by);
        // Away from the board: down for White's tray, up for Black's.
        let out = centre.y.signum();
        let first = centre.y - out * (self.tray_depth() / 2.0 - TRAY_BORDER - TRAY_ROW / 2.0);
        Vec2::new(x, first + out * row as f32 * TRAY_ROW)
    }
}

/// The part of the window the HUD leaves for the board, as insets in logical pixels (written by the HUD).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct BoardFrame {
    /// Left inset.
    pub left: f32,
    /// Top inset.
    pub top: f32,
    /// Right inset.
    pub right: f32,
    /// Bottom inset.
    pub bottom: f32,
}

/// Part of the drawn board (rebuilt when the variant changes).
#[derive(Component)]
struct BoardPart;

/// The materials of a piece's look, so that animations can fade it.
#[derive(Component, Clone, Debug)]
pub struct PieceLook {
    /// Material handles of the piece's layers.
    pub materials: Vec<Handle<ColorMaterial>>,
    /// Their colours at full opacity.
    pub colors: Vec<Color>,
}

/// Shared meshes.
#[derive(Resource)]
pub struct BoardMeshes {
    /// A unit circle (scale it).
    pub circle: Handle<Mesh>,
    /// A unit annulus of inner radius 0.8 (scale it).
    pub ring: Handle<Mesh>,
}

/// The colours of the board.
pub mod palette {
    use bevy::prelude::Color;
    /// Behind the board.
    pub const BACKGROUND: Color = Color::srgb(0.16, 0.12, 0.10);
    /// The frame around the wood.
    pub const FRAME: Color = Color::srgb(0.36, 0.21, 0.11);
    /// The playing surface.
    pub const WOOD: Color = Color::srgb(0.80, 0.58, 0.34);
    /// Lines.
    pub const LINE: Color = Color::srgb(0.25, 0.14, 0.07);
    /// Coordinates.
    pub const LABEL: Color = Color::srgb(0.96, 0.86, 0.68);
    /// The bed of a tray of captured pieces.
    pub const TRAY: Color = Color::srgb(0.27, 0.16, 0.09);
}

/// Adds the camera, board drawing and piece looks.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(palette::BACKGROUND))
        .init_resource::<BoardLayout>()
        .init_resource::<BoardFrame>()
        // The board is refitted (camera, coordinates) in the frame after the panels beside it change size.
        .wake_on_change::<BoardFrame>()
        .add_systems(Startup, (setup_camera, setup_meshes))
        .add_systems(Update, (rebuild_board, fit_camera))
        .add_systems(EguiPrimaryContextPass, paint_labels.run_if(not(in_state(Screen::Telo))))
        .add_observer(dress_piece)
        .add_observer(dress_restored_capture);
}

fn setup_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Camera"),
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin { min_width: 10.0, min_height: 6.0 },
            ..OrthographicProjection::default_2d()
        }),
    ));
}

fn setup_meshes(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(BoardMeshes {
        circle: meshes.add(Circle::new(1.0)),
        ring: meshes.add(Annulus::new(0.8, 1.0)),
    });
}

/// Keeps the whole board inside the free part of the window at any window size.
fn fit_camera(
    layout: Res<BoardLayout>,
    frame: Res<BoardFrame>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&mut Projection, &mut Transform), With<Camera2d>>,
) {
    let (w, h) = (window.width().max(1.0), window.height().max(1.0));
    let free_w = (w - frame.left - frame.right).max(50.0);
    let free_h = (h - frame.top - frame.bottom).max(50.0);
    let board = layout.view_size() + Vec2::splat(0.3);
    let (min_width, min_height) = (board.x * w / free_w, board.y * h / free_h);
    let units_per_px = (min_width / w).max(min_height / h);
    let (mut projection, mut transform) = camera.into_inner();
    if let Projection::Orthographic(o) = projection.as_mut() {
        let mode = ScalingMode::AutoMin { min_width, min_height };
        if !matches!(o.scaling_mode, ScalingMode::AutoMin { min_width: a, min_height: b } if a == min_width && b == min_height)
        {
            o.scaling_mode = mode;
        }
    }
    let dx = (frame.left - frame.right) / 2.0;
    let dy = (frame.top - frame.bottom) / 2.0;
    let target = Vec3::new(-dx * units_per_px, dy * units_per_px, transform.translation.z);
    if transform.translation != target {
        transform.translation = target;
    }
}

fn rebuild_board(
    mut started: MessageReader<GameStarted>,
    mut layout: ResMut<BoardLayout>,
    parts: Query<Entity, With<BoardPart>>,
    theme: Option<Res<crate::theme::Theme>>,
    mut clear: ResMut<ClearColor>,
    mut built: Local<Option<(Variant, crate::theme::Theme)>>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    shared: Option<Res<BoardMeshes>>,
) {
    let Some(shared) = shared else { return };
    let variant = started.read().last().map(|s| s.variant).unwrap_or(layout.variant);
    let theme = theme.map(|t| *t).unwrap_or_default();
    if *built == Some((variant, theme)) {
        return;
    }
    *built = Some((variant, theme));
    let palette = theme.palette();
    clear.0 = palette.background;
    if layout.variant != variant {
        layout.variant = variant;
    }
    for e in &parts {
        commands.entity(e).despawn();
    }
    let layout = *layout;
    let g = variant.geometry();
    let inner = Vec2::new(variant.width() as f32 - 1.0, variant.height() as f32 - 1.0);
    let wood = inner + Vec2::splat(2.0 * MARGIN);
    let mut rect = |size: Vec2, color: Color, pos: Vec3, angle: f32, name: &str| {
        commands.spawn((
            Name::new(name.to_string()),
            BoardPart,
            Mesh2d(meshes.add(Rectangle::new(size.x, size.y))),
            MeshMaterial2d(materials.add(color)),
            Transform::from_translation(pos).with_rotation(Quat::from_rotation_z(angle)),
        ));
    };
    rect(
        layout.size() + Vec2::splat(0.1),
        Color::srgba(0.0, 0.0, 0.0, 0.35),
        Vec3::new(0.06, -0.08, -0.3),
        0.0,
        "Shadow",
    );
    rect(layout.size(), palette.frame, Vec3::new(0.0, 0.0, -0.2), 0.0, "Frame");
    // The trays: a dark groove along each side's edge of the board.
    for side in fanorona_engine::Side::BOTH {
        let c = layout.tray_centre(side);
        let size = Vec2::new(layout.size().x, layout.tray_depth());
        rect(size, palette.frame, c.extend(-0.2), 0.0, "Tray");
        rect(size - Vec2::splat(0.12), palette.tray, c.extend(-0.15), 0.0, "Tray bed");
    }
    rect(wood, palette.wood, Vec3::new(0.0, 0.0, -0.1), 0.0, "Wood");
    // Grain: faint stripes of lighter and darker wood, deterministic so every run looks the same.
    let mut y = -wood.y / 2.0;
    let mut i = 0u32;
    while y < wood.y / 2.0 {
        let hsh = i.wrapping_mul(2_654_435_761) >> 16;
        let thick = 0.04 + (hsh % 7) as f32 * 0.025;
        let dark = hsh.is_multiple_of(3);
        let c = if dark { palette.grain.0 } else { palette.grain.1 };
        let yy = (y + thick / 2.0).min(wood.y / 2.0 - thick / 2.0);
        rect(Vec2::new(wood.x, thick), c, Vec3::new(0.0, yy, -0.05), 0.0, "Grain");
        y += thick + 0.05 + (hsh % 5) as f32 * 0.04;
        i += 1;
    }
    // Lines: one rectangle per segment, drawn from each point towards E, NE, N and NW.
    for p in 0..64u8 {
        if !g.contains(p) {
            continue;
        }
        for d in [Direction::East, Direction::NorthEast, Direction::North, Direction::NorthWest] {
            let Some(q) = g.step(p, d.index()) else { continue };
            let (a, b) = (layout.point_pos(p), layout.point_pos(q));
            let mid = (a + b) / 2.0;
            let len = a.distance(b);
            let angle = (b - a).to_angle();
            let thick = if d.is_diagonal() { 0.045 } else { 0.055 };
            rect(Vec2::new(len + thick, thick), palette.line, mid.extend(0.1), angle, "Line");
        }
    }
    // Points: strong points (joined diagonally) get a larger dot with a pale ring, weak points a small dot.
    let dark = materials.add(palette.line);
    let pale = materials.add(palette.point);
    for p in 0..64u8 {
        if !g.contains(p) {
            continue;
        }
        let pos = layout.point_pos(p);
        if g.is_strong(p) {
            commands.spawn((
                BoardPart,
                Mesh2d(shared.circle.clone()),
                MeshMaterial2d(pale.clone()),
                Transform::from_translation(pos.extend(0.2)).with_scale(Vec3::splat(0.12)),
            ));
            commands.spawn((
                BoardPart,
                Mesh2d(shared.circle.clone()),
                MeshMaterial2d(dark.clone()),
                Transform::from_translation(pos.extend(0.25)).with_scale(Vec3::splat(0.08)),
            ));
        } else {
            commands.spawn((
                BoardPart,
                Mesh2d(shared.circle.clone()),
                MeshMaterial2d(dark.clone()),
                Transform::from_translation(pos.extend(0.2)).with_scale(Vec3::splat(0.05)),
            ));
        }
    }
}

/// Height of the coordinates in the margin, in units of the point spacing.
const LABEL_HEIGHT: f32 = 0.22;

/// Paints the coordinates in the margin (files under the board, ranks on the left) with egui's font, behind every
/// egui window: the only text in the world, and not worth Bevy's text stack (parley, its fonts and shaping data:
/// about a tenth of the web module).
fn paint_labels(
    mut contexts: EguiContexts,
    layout: Res<BoardLayout>,
    theme: Option<Res<crate::theme::Theme>>,
    camera: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
) -> Result {
    let Ok((camera, tf)) = camera.single() else { return Ok(()) };
    let to_screen = |world: Vec2| camera.world_to_viewport(tf, world.extend(0.0)).ok().map(|v| egui::pos2(v.x, v.y));
    let (Some(a), Some(b)) = (to_screen(Vec2::ZERO), to_screen(Vec2::X)) else { return Ok(()) };
    let size = LABEL_HEIGHT * (b.x - a.x).abs();
    if size < 4.0 {
        return Ok(());
    }
    // Opaque: egui's small glyphs are lighter than the meshes around them.
    let label = theme.map(|t| *t).unwrap_or_default().palette().label.to_srgba();
    let color = egui::Color32::from_rgba_unmultiplied(
        (label.red * 255.0) as u8,
        (label.green * 255.0) as u8,
        (label.blue * 255.0) as u8,
        (label.alpha * 255.0) as u8,
    );
    let ctx = contexts.ctx_mut()?;
    let painter = ctx.layer_painter(egui::LayerId::background());
    let font = egui::FontId::monospace(size);
    let variant = layout.variant;
    let low = layout.point_pos(0);
    for f in 0..variant.width() {
        let x = layout.point_pos(f).x;
        if let Some(at) = to_screen(Vec2::new(x, low.y - MARGIN + 0.02)) {
            painter.text(at, egui::Align2::CENTER_CENTER, ((b'a' + f) as char).to_string(), font.clone(), color);
        }
    }
    for r in 0..variant.height() {
        let y = layout.point_pos(r * 9).y;
        if let Some(at) = to_screen(Vec2::new(low.x - MARGIN + 0.05, y)) {
            painter.text(at, egui::Align2::CENTER_CENTER, (r + 1).to_string(), font.clone(), color);
        }
    }
    Ok(())
}

/// Gives a new piece entity its stone look: shadow, dark rim, body and a soft highlight.
fn dress_piece(
    add: On<Add, Piece>,
    pieces: Query<&Piece>,
    state: Res<GameState>,
    shared: Option<Res<BoardMeshes>>,
    materials: ResMut<Assets<ColorMaterial>>,
    commands: Commands,
) {
    let Some(shared) = shared else { return };
    let Ok(piece) = pieces.get(add.entity) else { return };
    // The layout may not have caught up with a new game's variant yet; the engine's position is the truth.
    let layout = BoardLayout { variant: state.position().variant() };
    let at = Transform::from_translation(layout.point_pos(piece.point).extend(PIECE_Z));
    dress(add.entity, piece.side, at, &shared, materials, commands);
}

/// Dresses the captured pieces an undo, redo or new game put back in the trays (captured during play, a piece
/// keeps the look it had on the board).
fn dress_restored_capture(
    add: On<Add, Captured>,
    captured: Query<&Captured, Without<PieceLook>>,
    state: Res<GameState>,
    shared: Option<Res<BoardMeshes>>,
    materials: ResMut<Assets<ColorMaterial>>,
    commands: Commands,
) {
    let Some(shared) = shared else { return };
    let Ok(c) = captured.get(add.entity) else { return };
    let layout = BoardLayout { variant: state.position().variant() };
    let at = Transform::from_translation(layout.tray_slot(c.side.opponent(), c.slot).extend(PIECE_Z))
        .with_scale(Vec3::splat(TRAY_SCALE));
    dress(add.entity, c.side, at, &shared, materials, commands);
}

/// Adds the stone look of `side` to `entity`, placed at `at`.
fn dress(
    entity: Entity,
    side: fanorona_engine::Side,
    at: Transform,
    shared: &BoardMeshes,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut commands: Commands,
) {
    let white = side == fanorona_engine::Side::White;
    let (rim, body, shine, shine_r) = if white {
        (Color::srgb(0.66, 0.60, 0.50), Color::srgb(0.95, 0.92, 0.85), Color::srgba(1.0, 1.0, 1.0, 0.55), 0.15)
    } else {
        (Color::srgb(0.05, 0.05, 0.06), Color::srgb(0.19, 0.19, 0.21), Color::srgba(1.0, 1.0, 1.0, 0.16), 0.13)
    };
    let shadow = Color::srgba(0.0, 0.0, 0.0, 0.38);
    let colors = vec![shadow, rim, body, shine];
    let mats: Vec<Handle<ColorMaterial>> = colors.iter().map(|c| materials.add(*c)).collect();
    let layers = [
        (Vec3::new(0.035, -0.05, -0.03), PIECE_RADIUS * 1.02),
        (Vec3::new(0.0, 0.0, 0.0), PIECE_RADIUS),
        (Vec3::new(0.0, 0.0, 0.01), PIECE_RADIUS * 0.80),
        (Vec3::new(-0.09, 0.10, 0.02), shine_r),
    ];
    let mut e = commands.entity(entity);
    e.insert((PieceLook { materials: mats.clone(), colors }, at, Visibility::default()));
    e.with_children(|c| {
        for ((offset, r), m) in layers.into_iter().zip(mats) {
            c.spawn((
                Mesh2d(shared.circle.clone()),
                MeshMaterial2d(m),
                Transform::from_translation(offset).with_scale(Vec3::splat(r)),
            ));
        }
    });
}
