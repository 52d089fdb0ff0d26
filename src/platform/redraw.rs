//! Sleeping when nothing moves: the window redraws only when something changes, and whatever needs frames asks.
//!
//! The window runs in winit's reactive update modes ([`WinitSettings`]): an update (and so a redraw) happens on
//! input and window events, when a system asks for the next frame ([`FrameDemand::next_frame`], sent on as
//! Bevy's [`RequestRedraw`]), when a deadline asked for with [`FrameDemand::within`] passes, or when another
//! thread wakes the loop through the [`LoopWaker`] (a CPU search that has finished). Otherwise the loop sleeps,
//! so a board that stands still costs no CPU time.
//!
//! A window that is hidden (minimised, covered, a background browser tab) asks for no frames at all, and the
//! game behind the title stops starting searches until it is shown again.
//!
//! What the screen shows follows from the world's state, so whatever changes that state asks for the next frame
//! in one place, [`WakeOn`]: every message, screen state and watched resource of the game is registered through it,
//! and an update that writes such a message, sets or changes such a state or changes such a resource asks for the
//! next frame. A reader that runs before the writer, a transition that takes effect in the next update and a window
//! that needs a second pass to lay itself out are then drawn at once, without a rule per feature (the plain
//! `add_message` and `init_state` are refused by clippy for that reason: see `clippy.toml`).
//!
//! The systems that need frames say so each frame they need one: animations and the web's sliced thinking ask for
//! every frame, the HUD's thinking clock for a few a second, pending saves and notices for their deadline. An
//! unfocused window sleeps the same way but ignores device events (`reactive_low_power`), and the game behind the
//! title stops starting searches while the window is unfocused, so a hidden title costs nothing either.

use bevy::ecs::message::Message;
use bevy::ecs::system::ScheduleSystem;
use bevy::prelude::*;
use bevy::state::state::{FreelyMutableState, SubStates};
use bevy::window::{RequestRedraw, WindowOccluded};
use bevy::winit::{EventLoopProxyWrapper, UpdateMode, WinitSettings, WinitUserEvent};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long a window with nothing to do sleeps before it updates anyway: a safety net for a change that nothing
/// announced, long enough that an idle game costs nothing measurable.
pub const IDLE_WAIT: Duration = Duration::from_secs(60);

/// The shortest sleep a deadline can ask for (about a frame at 60 Hz).
pub const MIN_WAIT: Duration = Duration::from_micros(15_625);

/// How often the HUD's "thinking… 1.2 s" line is redrawn while the CPU thinks on another thread.
pub const THINKING_TICK: Duration = Duration::from_millis(250);

/// What the systems need from the next frames, collected during one update and applied at its end.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FrameDemand {
    next: bool,
    within: Option<Duration>,
}

impl FrameDemand {
    /// Asks for another frame right after this one (something is moving).
    pub fn next_frame(&mut self) {
        self.next = true;
    }

    /// Asks for an update no later than `after` from now (a clock to tick, a deadline to meet).
    pub fn within(&mut self, after: Duration) {
        self.within = Some(self.within.map_or(after, |w| w.min(after)));
    }

    /// Whether the next frame was asked for in this update.
    pub fn wants_next_frame(&self) -> bool {
        self.next
    }

    /// The longest the loop may sleep after this update: the nearest deadline rounded down to a power-of-two
    /// fraction of a second.
    ///
    /// winit counts the sleep from the start of each update and runs one more update whenever the sleep's length
    /// changes. A deadline counted down to the millisecond would change it every update and never let the loop
    /// sleep; in steps it changes a few times on the way to a deadline, and never wakes it late.
    pub fn wait(&self) -> Duration {
        let within = self.within.unwrap_or(IDLE_WAIT);
        if within >= IDLE_WAIT {
            return IDLE_WAIT;
        }
        let mut step = Duration::from_secs(32);
        while step > within && step > MIN_WAIT {
            step /= 2;
        }
        step
    }
}

/// Wakes the event loop from any thread; a no-op without a window (headless tests count the calls instead).
#[derive(Resource, Clone, Default)]
pub struct LoopWaker {
    wake: Option<Arc<dyn Fn() + Send + Sync>>,
    /// How many times it was called, for tests and measurements.
    calls: Arc<AtomicU64>,
}

impl LoopWaker {
    /// A waker that calls `wake` (and counts).
    pub fn new(wake: impl Fn() + Send + Sync + 'static) -> LoopWaker {
        LoopWaker { wake: Some(Arc::new(wake)), calls: Arc::default() }
    }

    /// Wakes the loop now: the next update runs at once instead of after the sleep.
    pub fn wake(&self) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if let Some(wake) = &self.wake {
            wake();
        }
    }

    /// How many times [`LoopWaker::wake`] was called.
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }
}

/// Counts of what the loop did, for tests and `--measure-idle`.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FrameStats {
    /// Updates run (each draws a frame when there is a window).
    pub updates: u64,
    /// Updates that asked for the next frame.
    pub redraws_requested: u64,
    /// The longest sleep allowed after the last update.
    pub last_wait: Duration,
    /// Whether the last update asked for the next frame at once.
    pub next_frame_asked: bool,
}

/// Whether the window sleeps when idle: on for players, off for automation that must keep running by itself
/// (demos, screenshots, timed exits).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reactive(pub bool);

/// Whether the window can be seen (false while minimised, covered or in a background tab).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowShown(pub bool);

impl Default for WindowShown {
    fn default() -> Self {
        WindowShown(true)
    }
}

/// The end of each update where the frame demand is applied: systems that ask for frames in `Last` run before it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ApplyDemand;

/// Where the registered messages, states and resources are checked for this update's changes: in `Last`, just
/// before [`ApplyDemand`].
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct WakeCheck;

/// The types already registered through [`WakeOn`], so that registering one twice adds one check.
#[derive(Resource, Default)]
struct Woken(bevy::platform::collections::HashSet<std::any::TypeId>);

/// Registers what changes the screen, so that an update that changes it asks for the next frame by itself.
///
/// Use these instead of `add_message`, `init_state`, `insert_state`, `add_sub_state` and `add_computed_state`
/// everywhere in the game: the plain ones are refused by clippy (`clippy.toml`).
pub trait WakeOn {
    /// Adds the message `M`: an update in which one is written asks for the next frame, where readers that ran
    /// before the writer see it.
    fn add_woken_message<M: Message>(&mut self) -> &mut Self;
    /// Adds the state `S` at its default: an update that sets or changes it asks for the next frame.
    fn init_woken_state<S: FreelyMutableState + FromWorld>(&mut self) -> &mut Self;
    /// Adds the state `S` at `state`, or sets it if it exists, woken like [`WakeOn::init_woken_state`].
    fn insert_woken_state<S: FreelyMutableState>(&mut self, state: S) -> &mut Self;
    /// Adds the sub-state `S`, woken like [`WakeOn::init_woken_state`].
    fn add_woken_sub_state<S: SubStates>(&mut self) -> &mut Self;
    /// Adds the computed state `S`: an update that changes it asks for the next frame.
    fn add_woken_computed_state<S: ComputedStates>(&mut self) -> &mut Self;
    /// Watches the resource `R` (added elsewhere): an update that changes it asks for the next frame.
    fn wake_on_change<R: Resource>(&mut self) -> &mut Self;
}

impl WakeOn for App {
    #[allow(clippy::disallowed_methods, reason = "the one place the plain registration is wrapped")]
    fn add_woken_message<M: Message>(&mut self) -> &mut Self {
        self.add_message::<M>();
        register::<M, _>(self, wake_on_message::<M>)
    }

    #[allow(clippy::disallowed_methods, reason = "the one place the plain registration is wrapped")]
    fn init_woken_state<S: FreelyMutableState + FromWorld>(&mut self) -> &mut Self {
        self.init_state::<S>();
        register::<S, _>(self, wake_on_state::<S>)
    }

    #[allow(clippy::disallowed_methods, reason = "the one place the plain registration is wrapped")]
    fn insert_woken_state<S: FreelyMutableState>(&mut self, state: S) -> &mut Self {
        self.insert_state(state);
        register::<S, _>(self, wake_on_state::<S>)
    }

    #[allow(clippy::disallowed_methods, reason = "the one place the plain registration is wrapped")]
    fn add_woken_sub_state<S: SubStates>(&mut self) -> &mut Self {
        self.add_sub_state::<S>();
        register::<S, _>(self, wake_on_state::<S>)
    }

    #[allow(clippy::disallowed_methods, reason = "the one place the plain registration is wrapped")]
    fn add_woken_computed_state<S: ComputedStates>(&mut self) -> &mut Self {
        self.add_computed_state::<S>();
        register::<S, _>(self, wake_on_change::<State<S>>)
    }

    fn wake_on_change<R: Resource>(&mut self) -> &mut Self {
        register::<R, _>(self, wake_on_change::<R>)
    }
}

/// Adds `check`, the wake-up check of the type `T`, unless `T` has one already.
fn register<T: 'static, Marker>(app: &mut App, check: impl IntoScheduleConfigs<ScheduleSystem, Marker>) -> &mut App {
    let fresh = app.world_mut().get_resource_or_init::<Woken>().0.insert(std::any::TypeId::of::<T>());
    if fresh {
        app.add_systems(Last, check.in_set(WakeCheck));
    }
    app
}

// The checks take the demand as optional: a test may build parts of the game without the sleeping loop.
// A reader of its own, not the messages' buffers: those are swapped only in updates after a fixed step, so "written
// in this update" must be "not seen by this check yet".
fn wake_on_message<M: Message>(demand: Option<ResMut<FrameDemand>>, mut messages: MessageReader<M>) {
    if messages.read().count() > 0
        && let Some(mut demand) = demand
    {
        demand.next_frame();
    }
}

fn wake_on_state<S: FreelyMutableState>(
    demand: Option<ResMut<FrameDemand>>,
    next: Option<Res<NextState<S>>>,
    state: Option<Res<State<S>>>,
) {
    // A state set now takes effect at the start of the next update; a changed one lays its screen out again.
    let pending = next.is_some_and(|n| !matches!(*n, NextState::Unchanged));
    if let Some(mut demand) = demand
        && (pending || state.is_some_and(|s| changed(&s)))
    {
        demand.next_frame();
    }
}

fn wake_on_change<R: Resource>(demand: Option<ResMut<FrameDemand>>, resource: Option<Res<R>>) {
    if let Some(mut demand) = demand
        && resource.is_some_and(|r| changed(&r))
    {
        demand.next_frame();
    }
}

/// Changed since the last check, but not just added: what exists from the start is drawn by the first frame, which
/// happens anyway.
fn changed<R: Resource>(r: &Res<R>) -> bool {
    r.is_changed() && !r.is_added()
}

/// Adds reactive updates: the frame demand, its application at the end of each update, and the waker.
#[allow(
    clippy::disallowed_methods,
    reason = "Bevy's own window messages, registered for headless apps: they come with the window's events and \
              `RequestRedraw` is the frame demand's output, not a change to wake for"
)]
pub fn plugin(app: &mut App, reactive: bool) {
    app.init_resource::<FrameDemand>()
        .init_resource::<FrameStats>()
        .init_resource::<LoopWaker>()
        .init_resource::<WindowShown>()
        .add_message::<WindowOccluded>()
        .insert_resource(Reactive(reactive))
        .add_message::<RequestRedraw>()
        .add_systems(Startup, connect_waker)
        .add_systems(PreUpdate, (count_update, track_occlusion))
        .configure_sets(Last, WakeCheck.before(ApplyDemand))
        .add_systems(Last, apply_demand.in_set(ApplyDemand));
}

/// Points the waker at winit's event loop, where there is one.
fn connect_waker(proxy: Option<Res<EventLoopProxyWrapper>>, mut waker: ResMut<LoopWaker>) {
    if let Some(proxy) = proxy {
        let proxy = (**proxy).clone();
        // A closed loop (the app is exiting) has nobody left to wake.
        *waker = LoopWaker::new(move || {
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        });
    }
}

fn count_update(mut stats: ResMut<FrameStats>) {
    stats.updates += 1;
}

fn track_occlusion(mut events: MessageReader<WindowOccluded>, mut shown: ResMut<WindowShown>) {
    if let Some(e) = events.read().last()
        && shown.0 == e.occluded
    {
        shown.0 = !e.occluded;
    }
}

/// Turns this update's demand into a redraw request and the length of the next sleep, then clears it.
fn apply_demand(
    mut demand: ResMut<FrameDemand>,
    reactive: Res<Reactive>,
    shown: Res<WindowShown>,
    settings: Option<ResMut<WinitSettings>>,
    mut redraws: MessageWriter<RequestRedraw>,
    mut stats: ResMut<FrameStats>,
) {
    let taken = std::mem::take(&mut *demand);
    stats.last_wait = taken.wait();
    // Frames of a window nobody sees are wasted: what changed is drawn once it is shown again.
    stats.next_frame_asked = taken.wants_next_frame() && shown.0;
    if stats.next_frame_asked {
        redraws.write(RequestRedraw);
        stats.redraws_requested += 1;
    }
    let Some(mut settings) = settings else { return };
    let wanted = if reactive.0 {
        WinitSettings {
            focused_mode: UpdateMode::reactive(taken.wait()),
            // Low power (no device events such as raw mouse motion), but still woken by a search that ends.
            unfocused_mode: UpdateMode::Reactive {
                wait: taken.wait(),
                react_to_device_events: false,
                react_to_user_events: true,
                react_to_window_events: true,
            },
        }
    } else {
        WinitSettings::continuous()
    };
    // Compared first: a changed mode makes winit run one more update, so it must change only when it differs.
    if settings.focused_mode != wanted.focused_mode || settings.unfocused_mode != wanted.unfocused_mode {
        *settings = wanted;
    }
}

/// Keeps egui from asking for a frame every frame: bevy_egui 0.42 reports the keyboard's modifiers to egui as an
/// input event on every update, changed or not, and egui repaints after any event. The unchanged reports are
/// dropped before egui reads them; real changes still reach it.
pub fn quiet_egui(app: &mut App) {
    app.add_systems(
        PreUpdate,
        drop_unchanged_modifiers
            .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
            .before(bevy_egui::EguiPreUpdateSet::BeginPass),
    );
}

fn drop_unchanged_modifiers(
    mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>,
    mut last: Local<bevy::platform::collections::HashMap<Entity, bevy_egui::egui::Modifiers>>,
) {
    use bevy_egui::egui::Event;
    for (entity, mut input) in &mut inputs {
        let events = &mut input.0.events;
        if !events.iter().any(|e| matches!(e, Event::ModifiersChanged(_))) {
            continue;
        }
        let seen = last.entry(entity).or_default();
        events.retain(|e| match e {
            Event::ModifiersChanged(m) if m == seen => false,
            Event::ModifiersChanged(m) => {
                *seen = *m;
                true
            }
            _ => true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_deadline_wins_and_idle_has_a_ceiling() {
        let mut d = FrameDemand::default();
        assert_eq!(d.wait(), IDLE_WAIT);
        d.within(Duration::from_secs(3));
        d.within(Duration::from_millis(250));
        d.within(Duration::from_secs(1));
        assert_eq!(d.wait(), Duration::from_millis(250));
        assert_eq!(d.wait(), THINKING_TICK, "the thinking clock keeps one sleep length");
        assert!(!d.wants_next_frame());
        d.next_frame();
        assert!(d.wants_next_frame());
        d.within(Duration::from_secs(3600));
        assert_eq!(d.wait(), Duration::from_millis(250));
        let mut far = FrameDemand::default();
        far.within(Duration::from_secs(3600));
        assert_eq!(far.wait(), IDLE_WAIT);
    }

    #[test]
    fn a_deadline_counting_down_changes_the_sleep_a_few_times_and_never_overshoots() {
        let deadline = Duration::from_secs(3);
        let mut lengths = Vec::new();
        let mut now = Duration::ZERO;
        while now < deadline {
            let mut d = FrameDemand::default();
            d.within(deadline - now);
            let wait = d.wait();
            assert!(wait <= deadline - now || wait == MIN_WAIT, "woken late at {now:?}");
            if lengths.last() != Some(&wait) {
                lengths.push(wait);
            }
            now += Duration::from_millis(7);
        }
        assert!(lengths.len() <= 10, "the sleep changed {} times", lengths.len());
    }

    #[test]
    fn a_waker_counts_and_calls() {
        let hits = Arc::new(AtomicU64::new(0));
        let h = hits.clone();
        let w = LoopWaker::new(move || {
            h.fetch_add(1, Ordering::Relaxed);
        });
        let from_thread = w.clone();
        std::thread::spawn(move || from_thread.wake()).join().unwrap();
        w.wake();
        assert_eq!((w.calls(), hits.load(Ordering::Relaxed)), (2, 2));
        let silent = LoopWaker::default();
        silent.wake();
        assert_eq!(silent.calls(), 1);
    }
}
