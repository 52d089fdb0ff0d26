//! The bridge to the web page (`web/index.html`): events the page and its tests watch (ready, turns, the CPU's
//! thinking), and the file and clipboard services a browser offers only to JavaScript. On the desktop the events
//! go to the debug log and the services report that they are not there.

use crate::play::cpu::CpuPlayer;
use crate::play::referee::{GameEnded, GameState, MatchSetup, RelayContinues, TurnEnded};
use crate::state::Screen;
use bevy::prelude::*;

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    // `catch`: a page without these functions gives an error, never a panic.
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaEvent, catch)]
        pub fn event(kind: &str, detail: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaDownload, catch)]
        pub fn download(name: &str, text: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaCopy, catch)]
        pub fn copy(text: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaPickFile, catch)]
        pub fn pick_file() -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaTakeFile, catch)]
        pub fn take_file() -> Result<Option<String>, JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaArgs, catch)]
        pub fn args() -> Result<String, JsValue>;
    }
}

/// Tells the page that `kind` happened (`detail` says more).
pub fn event(kind: &str, detail: &str) {
    #[cfg(target_arch = "wasm32")]
    let _ = js::event(kind, detail);
    #[cfg(not(target_arch = "wasm32"))]
    debug!("page event {kind} {detail}");
}

/// Whether this build runs in a web page (downloads and file picking go through the page).
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

/// Offers `text` to the player as a downloaded file `name`; false where there is no page.
pub fn download(name: &str, text: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::download(name, text).is_ok();
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (name, text);
        false
    }
}

/// Puts `text` on the system clipboard; false where this build cannot.
pub fn copy(text: &str) -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::copy(text).is_ok();
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = text;
        false
    }
}

/// Opens the page's file picker; the chosen file's text arrives later through [`take_file`].
pub fn pick_file() -> bool {
    #[cfg(target_arch = "wasm32")]
    return js::pick_file().is_ok();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// The text of the file the player picked, once it is read.
pub fn take_file() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    return js::take_file().ok().flatten();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The program's arguments: the command line on the desktop, the page address's options on the web
/// (`?level=5&demo` gives `--level 5 --demo`).
pub fn args() -> Vec<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let query = js::args().unwrap_or_default();
        std::iter::once("fanorona".to_string())
            .chain(query.split('\n').filter(|a| !a.is_empty()).map(str::to_string))
            .collect()
    }
    #[cfg(not(target_arch = "wasm32"))]
    std::env::args().collect()
}

/// The size the game's window starts at, in logical pixels: on the web the page's viewport, which the canvas
/// fills (`#game` is fixed to it), so that the first frames are laid out for the size they are shown at. Starting
/// at the desktop's size and fitting the canvas a frame later drew the first complete frame with egui's windows
/// in their places for the other size. On the desktop (or should the page give no size) `desktop`.
pub fn initial_window_size(desktop: (u32, u32)) -> (u32, u32) {
    #[cfg(target_arch = "wasm32")]
    {
        let viewport = web_sys::window().and_then(|w| {
            let width = w.inner_width().ok()?.as_f64()?;
            let height = w.inner_height().ok()?.as_f64()?;
            (width >= 1.0 && height >= 1.0).then(|| (width.round() as u32, height.round() as u32))
        });
        viewport.unwrap_or(desktop)
    }
    #[cfg(not(target_arch = "wasm32"))]
    desktop
}

/// Adds the page events.
pub fn plugin(app: &mut App) {
    // Only a page listens: the desktop game does not pay for them every frame.
    if IN_BROWSER {
        app.add_systems(
            Last,
            (
                announce_ready.before(crate::platform::redraw::ApplyDemand),
                announce_play,
                announce_engine,
                announce_screens,
                announce_layout,
            ),
        );
        if let Some(render_app) = app.get_sub_app_mut(bevy::render::RenderApp) {
            render_app.add_systems(bevy::render::Render, announce_drawn.in_set(bevy::render::RenderSystems::Cleanup));
        }
    }
}

/// Whether "ready" has been said (by the render world, or by the main world's fallback).
static READY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the first complete picture is on screen: always on the desktop; in the browser once "ready" has been
/// said. Start-up work that the first picture does not need waits for it there (the sounds: a browser plays
/// none before the player's first gesture anyway).
pub fn first_picture_shown() -> bool {
    !IN_BROWSER || READY.load(std::sync::atomic::Ordering::Relaxed)
}

fn say_ready(how: &str) {
    if !READY.swap(true, std::sync::atomic::Ordering::Relaxed) {
        event("ready", how);
    }
}

/// Says "ready" at the end of the first frame drawn with every render pipeline in place. In the browser a
/// pipeline is created synchronously by the pipeline cache's queue step, which runs just before the frame is
/// drawn (`bevy_render`'s `create_pipeline_task` on wasm32), so the frame in which the last one is created is
/// the first complete picture; until then the board or the menus are missing from it. Compute pipelines do not
/// count where the device has no compute shaders (WebGL 2, our browser build): bevy_render queues one there
/// ("sparse buffer update pipeline") whose shader never comes. Also reports the first frames ("boot") for the
/// load-time figures of the end-to-end test, and at the 8th frame the pipelines still waiting, by label.
fn announce_drawn(
    cache: Res<bevy::render::render_resource::PipelineCache>,
    adapter: Res<bevy::render::renderer::RenderAdapter>,
    mut frame: Local<u32>,
) {
    use bevy::render::render_resource::{CachedPipelineState, PipelineDescriptor};
    *frame += 1;
    // Nothing left to report once "ready" is said and the boot frames are counted.
    if *frame > 8 && READY.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let compute = adapter
        .get_downlevel_capabilities()
        .flags
        .contains(bevy::render::render_resource::DownlevelFlags::COMPUTE_SHADERS);
    let pipelines: Vec<_> = cache.pipelines().collect();
    let waiting: Vec<usize> = cache.waiting_pipelines().collect();
    let pending = waiting
        .iter()
        .filter(|&&id| match pipelines.get(id) {
            Some(p) => compute || matches!(p.descriptor, PipelineDescriptor::RenderPipelineDescriptor(_)),
            None => true,
        })
        .filter(|&&id| !matches!(pipelines.get(id).map(|p| &p.state), Some(CachedPipelineState::Ok(_))))
        .count();
    if *frame <= 8 {
        let mut detail =
            format!("frame {} pipelines {} waiting {} pending {pending}", *frame, pipelines.len(), waiting.len());
        if *frame == 8 {
            for id in &waiting {
                let label = match pipelines.get(*id).map(|p| &p.descriptor) {
                    Some(PipelineDescriptor::RenderPipelineDescriptor(d)) => {
                        d.label.as_deref().unwrap_or("?").to_string()
                    }
                    Some(PipelineDescriptor::ComputePipelineDescriptor(d)) => {
                        d.label.as_deref().unwrap_or("?").to_string()
                    }
                    None => "?".to_string(),
                };
                detail.push_str(&format!(" [{label}]"));
            }
        }
        event("boot", &detail);
    }
    if !pipelines.is_empty() && pending == 0 {
        say_ready("drawn");
    }
}

/// Says where each point of the board is on the page (CSS pixels), whenever that changes: what a test needs to
/// click a point as a player would.
fn announce_layout(
    layout: Res<crate::play::board::BoardLayout>,
    camera: Query<(&Camera, &GlobalTransform)>,
    mut last: Local<String>,
) {
    let Ok((camera, tf)) = camera.single() else { return };
    let points: Vec<String> = (0..64u8)
        .filter(|&p| layout.variant.geometry().contains(p))
        .filter_map(|p| {
            let v = camera.world_to_viewport(tf, layout.point_pos(p).extend(0.0)).ok()?;
            Some(format!("{}={:.0},{:.0}", fanorona_engine::geometry::point_name(p), v.x, v.y))
        })
        .collect();
    let text = points.join(" ");
    if text != *last {
        event("layout", &text);
        *last = text;
    }
}

/// The main world's fallback for "ready" (the page removes its loading screen on it), should the render world
/// never see its pipelines settle. Until "ready" it asks for every frame: a game resumed on a reload waits for the
/// player and would otherwise sleep (platform/redraw.rs) with its pipelines half made.
fn announce_ready(mut frames: Local<u32>, mut demand: ResMut<crate::platform::redraw::FrameDemand>) {
    if !READY.load(std::sync::atomic::Ordering::Relaxed) {
        demand.next_frame();
    }
    *frames += 1;
    if *frames == 1 {
        event("boot", "first update");
    }
    if *frames == 8 {
        say_ready("frames");
    }
}

/// Tells the page where the engine runs and which endgame tables it has (`engine`, `tablebase` events).
fn announce_engine(mut news: MessageReader<crate::play::engine_jobs::EngineNews>) {
    use crate::play::engine_jobs::EngineNews;
    for n in news.read() {
        match n {
            EngineNews::Worker => event("engine", "worker"),
            EngineNews::Frames(reason) => event("engine", &format!("frames {reason}")),
            EngineNews::Table { variant, pieces, stored } => {
                event("tablebase", &format!("{variant} {pieces} {}", if *stored { "stored" } else { "built" }))
            }
        }
    }
}

fn announce_play(
    mut turns: MessageReader<TurnEnded>,
    mut ended: MessageReader<GameEnded>,
    mut relays: MessageReader<RelayContinues>,
    cpu: Res<CpuPlayer>,
    state: Res<GameState>,
    setup: Res<MatchSetup>,
    busy: Res<crate::play::referee::AnimationsPending>,
    mut thinking: Local<bool>,
    mut told: Local<Option<u64>>,
) {
    let now = cpu.thinking().is_some();
    if now != *thinking {
        *thinking = now;
        let detail = if now { String::new() } else { format!("{:.1}", cpu.longest_slice.as_secs_f64() * 1000.0) };
        event(if now { "thinking" } else { "thought" }, &detail);
    }
    for t in turns.read() {
        event("turn", &format!("{} {} {}", t.number, t.side, t.turn));
    }
    for e in ended.read() {
        event("gameover", &e.outcome.to_string());
    }
    if relays.read().count() > 0 {
        event("relay", "");
    }
    // A person to move at the start of a turn: the one-step turns they can play with two unambiguous clicks.
    let pos = state.position();
    let ready = setup.is_human(pos.side_to_move()) && !pos.in_relay() && !state.game().is_over() && !busy.0;
    if ready && *told != Some(state.generation()) {
        *told = Some(state.generation());
        let steps = pos.steps();
        let clear: Vec<String> = steps
            .iter()
            .filter(|s| steps.iter().filter(|o| o.from == s.from && o.to == s.to).count() == 1)
            .map(|s| s.to_string())
            .collect();
        event("legal", &clear.join(" "));
    }
}

/// Tells the page where a button is (its centre, in CSS pixels), so that a test clicks it where a player would.
pub fn button_at(id: &str, rect: bevy_egui::egui::Rect) {
    if IN_BROWSER {
        let at = format!("{:.0} {:.0}", rect.center().x, rect.center().y);
        if changed(&format!("button {id}"), &at) {
            event("button", &format!("{id} {at}"));
        }
    }
}

/// Tells the page `kind` with `detail`, unless the last `kind` event said the same (for UI code that runs every
/// frame).
pub fn event_once(kind: &str, detail: &str) {
    if IN_BROWSER && changed(kind, detail) {
        event(kind, detail);
    }
}

/// Whether `value` differs from the last value given for `key` (and remembers it).
fn changed(key: &str, value: &str) -> bool {
    use std::sync::Mutex;
    static LAST: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    let Ok(mut last) = LAST.lock() else { return false };
    match last.iter_mut().find(|(k, _)| k == key) {
        Some((_, v)) if v == value => false,
        Some((_, v)) => {
            *v = value.to_string();
            true
        }
        None => {
            last.push((key.to_string(), value.to_string()));
            true
        }
    }
}

fn announce_screens(screen: Option<Res<State<Screen>>>) {
    if let Some(s) = screen
        && s.is_changed()
    {
        event("screen", &format!("{:?}", s.get()));
    }
}
