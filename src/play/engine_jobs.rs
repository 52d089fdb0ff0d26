//! Where the engine's jobs run: the game's one door to its thinking (the CPU's turns, hints, draw offers, the
//! review, the analysis board).
//!
//! A system asks with [`EngineJobs::start`] (a [`Job`] of the engine's service) and keeps the [`JobHandle`] it
//! gets, reads what came back with [`EngineJobs::take`], and stops a job it no longer wants with
//! [`EngineJobs::cancel`] or by dropping its handle (a screen's state that goes takes its jobs with it). Where the job runs is the
//! host's business ([`CpuThreading`]):
//!
//! - **Pool** (the desktop): each job on the async compute pool, to its end; a cancel stops it at its next check.
//! - **Worker** (the browser): every job in the engine's own WebAssembly module in a dedicated Web Worker
//!   (`web/engine-worker.js`), which also builds the endgame tables up to [`WORKER_PIECES`] pieces and keeps them
//!   in IndexedDB. The page's frames only draw. Should the worker fail to start, the jobs move to the frames.
//! - **Frames** ([`CpuThreading::Sliced`]): the same engine service on the main thread, a few milliseconds a
//!   frame (a browser without workers, and the tests of slicing).
//!
//! Replies arrive at the start of a frame (`PreUpdate`); a reply that arrives while the window sleeps wakes it.
//! Replies of a cancelled job are dropped, never delivered.

use crate::platform::redraw::{FrameDemand, LoopWaker, WakeOn};
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use fanorona_engine::Variant;
use fanorona_engine::search::Searcher;
use fanorona_engine::service::{Engine, Job, JobId, Memory, Reply, Running};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pieces of the endgame tables the engine worker builds (and stores) for both boards: about 40 MB and a
/// few tens of seconds of the worker's time on the 9 × 5 board, once.
pub const WORKER_PIECES: u32 = 5;

/// How long the game waits for the worker to say it runs before it thinks in its frames instead.
pub const WORKER_START_TIMEOUT: Duration = Duration::from_secs(30);

/// What the engine's host has to tell (the web page listens: `platform::web`).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum EngineNews {
    /// The engine worker runs.
    Worker,
    /// The jobs moved to the frames, for this reason (the worker failed).
    Frames(String),
    /// An endgame table is in use: its board, pieces, and whether it came from storage rather than a build.
    Table { variant: Variant, pieces: u32, stored: bool },
}

/// Replies handed over by pool threads (or the worker's message handler), waiting for the next frame.
type Outbox = Arc<Mutex<Vec<Reply>>>;

/// A job started by [`EngineJobs::start`]: dropping it cancels the job (at the next frame's start).
#[derive(Debug)]
pub struct JobHandle {
    id: JobId,
    dropped: Arc<Mutex<Vec<JobId>>>,
}

impl JobHandle {
    /// The job's id, as its replies name it.
    pub fn id(&self) -> JobId {
        self.id
    }
}

impl Drop for JobHandle {
    fn drop(&mut self) {
        self.dropped.lock().unwrap_or_else(|e| e.into_inner()).push(self.id);
    }
}

/// The engine's jobs and where they run.
#[derive(Resource, Default)]
pub struct EngineJobs {
    next_id: JobId,
    /// Jobs whose handle was dropped, to cancel.
    dropped: Arc<Mutex<Vec<JobId>>>,
    /// Jobs started and not yet answered in full (nor cancelled): kept to start them again elsewhere should the
    /// worker fail.
    live: HashMap<JobId, Job>,
    /// Started before the host was set up (the first frame).
    waiting: Vec<(JobId, Job)>,
    /// Replies delivered, by job, not yet taken.
    inbox: HashMap<JobId, Vec<Reply>>,
    host: Option<Host>,
    /// The endgame tables the worker reported in use, by board: (pieces, whether they came from storage).
    worker_tables: HashMap<Variant, (u32, bool)>,
    /// The longest time one frame spent on jobs (the frames host only): how long thinking held a frame.
    pub longest_frame: Duration,
}

/// A place the jobs run.
enum Host {
    Pool(Pool),
    Frames {
        engine: Box<Engine>,
        slice: Duration,
    },
    #[cfg(target_arch = "wasm32")]
    Worker(worker::Link),
}

/// The desktop's host: jobs on the async compute pool.
struct Pool {
    /// Each memory's searcher between jobs (a job takes it while it runs).
    searchers: Arc<Mutex<HashMap<Memory, Searcher>>>,
    running: HashMap<JobId, (Task<()>, Arc<AtomicBool>)>,
    outbox: Outbox,
    waker: LoopWaker,
}

impl Pool {
    fn start(&mut self, id: JobId, job: Job) {
        let (searchers, outbox, waker) = (self.searchers.clone(), self.outbox.clone(), self.waker.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let memory = job.memory();
            // Made here, on the pool, not in the frame that asked: a searcher writes its whole table when made.
            let kept = searchers.lock().unwrap_or_else(|e| e.into_inner()).remove(&memory);
            let mut searcher = kept.unwrap_or_else(|| Searcher::new(memory.table_mb()));
            searcher.set_stop_flag(job_stop);
            let mut kept = Some(searcher);
            let emit = &mut |reply: Reply| {
                outbox.lock().unwrap_or_else(|e| e.into_inner()).push(reply);
                waker.wake();
            };
            match Running::start(id, job, &mut kept) {
                Ok(mut running) => {
                    running.step(None, emit);
                    kept = Some(running.into_searcher());
                }
                Err(error) => emit(Reply::Failed { id, error }),
            }
            if let Some(s) = kept {
                searchers.lock().unwrap_or_else(|e| e.into_inner()).insert(memory, s);
            }
        });
        self.running.insert(id, (task, stop));
    }
}

impl EngineJobs {
    /// Starts `job`; its replies come back for the returned handle.
    pub fn start(&mut self, job: Job) -> JobHandle {
        self.next_id += 1;
        let id = self.next_id;
        self.live.insert(id, job.clone());
        match &mut self.host {
            None => self.waiting.push((id, job)),
            Some(host) => host.start(id, job),
        }
        JobHandle { id, dropped: self.dropped.clone() }
    }

    /// Stops the job at once: nothing more of it is delivered. Cancelling a finished job does nothing.
    pub fn cancel(&mut self, job: JobHandle) {
        self.cancel_id(job.id);
    }

    fn cancel_id(&mut self, id: JobId) {
        self.inbox.remove(&id);
        self.waiting.retain(|(w, _)| *w != id);
        if self.live.remove(&id).is_some()
            && let Some(host) = &mut self.host
        {
            host.cancel(id);
        }
    }

    /// The replies of the job delivered so far and not yet taken, oldest first.
    pub fn take(&mut self, job: &JobHandle) -> Vec<Reply> {
        self.inbox.remove(&job.id).unwrap_or_default()
    }

    /// Replies delivered and not yet taken, of every job (a job cancelled or dropped leaves none).
    pub fn untaken_replies(&self) -> usize {
        self.inbox.values().map(Vec::len).sum()
    }

    /// Whether the job is still to answer in full.
    pub fn is_live(&self, job: &JobHandle) -> bool {
        self.live.contains_key(&job.id)
    }

    /// Whether jobs run in the frames (on the main thread, in slices): they then ask for small node budgets.
    pub fn in_frames(&self) -> bool {
        matches!(self.host, Some(Host::Frames { .. }))
    }

    /// Whether jobs run in the engine worker.
    pub fn in_worker(&self) -> bool {
        #[cfg(target_arch = "wasm32")]
        return matches!(self.host, Some(Host::Worker(_)));
        #[cfg(not(target_arch = "wasm32"))]
        false
    }

    /// The pieces of `variant`'s endgame table the engine worker plays with (None: none yet, or no worker).
    pub fn worker_table(&self, variant: Variant) -> Option<u32> {
        self.worker_tables.get(&variant).map(|t| t.0)
    }

    /// Delivers `reply` to its job (or passes the engine's own news on), unless its job was cancelled.
    fn deliver(&mut self, reply: Reply, news: &mut MessageWriter<EngineNews>) {
        match reply.job() {
            Some(id) if self.live.contains_key(&id) => {
                if reply.is_final() {
                    self.live.remove(&id);
                }
                self.inbox.entry(id).or_default().push(reply);
            }
            Some(_) => {}
            None => {
                if let Reply::Table { variant, pieces, stored } = reply {
                    let how = if stored { "stored" } else { "built" };
                    info!("the engine worker's endgame table of the {variant} board: {pieces} pieces ({how})");
                    news.write(EngineNews::Table { variant, pieces, stored });
                    self.worker_tables.insert(variant, (pieces, stored));
                }
            }
        }
    }
}

impl Host {
    fn new(mode: CpuThreading, waker: &LoopWaker) -> Host {
        match mode {
            CpuThreading::Pool => Host::Pool(Pool {
                searchers: Arc::default(),
                running: HashMap::new(),
                outbox: Arc::default(),
                waker: waker.clone(),
            }),
            CpuThreading::Sliced(slice) => Host::Frames { engine: Box::new(Engine::new()), slice },
            #[cfg(target_arch = "wasm32")]
            CpuThreading::Worker => match worker::Link::start(waker) {
                Some(link) => Host::Worker(link),
                None => Host::frames(),
            },
            #[cfg(not(target_arch = "wasm32"))]
            CpuThreading::Worker => Host::frames(),
        }
    }

    /// The fallback: the frames, at the web's usual slice.
    fn frames() -> Host {
        Host::Frames { engine: Box::new(Engine::new()), slice: WEB_SLICE }
    }

    fn start(&mut self, id: JobId, job: Job) {
        match self {
            Host::Pool(pool) => pool.start(id, job),
            Host::Frames { engine, .. } => engine.handle(fanorona_engine::service::Request::Start { id, job }),
            #[cfg(target_arch = "wasm32")]
            Host::Worker(link) => link.post(&fanorona_engine::service::Request::Start { id, job }),
        }
    }

    fn cancel(&mut self, id: JobId) {
        match self {
            Host::Pool(pool) => {
                if let Some((task, stop)) = pool.running.remove(&id) {
                    stop.store(true, Ordering::Relaxed);
                    task.detach();
                }
            }
            Host::Frames { engine, .. } => engine.handle(fanorona_engine::service::Request::Cancel { id }),
            #[cfg(target_arch = "wasm32")]
            Host::Worker(link) => link.post(&fanorona_engine::service::Request::Cancel { id }),
        }
    }

    fn mode(&self) -> CpuThreading {
        match self {
            Host::Pool(_) => CpuThreading::Pool,
            Host::Frames { slice, .. } => CpuThreading::Sliced(*slice),
            #[cfg(target_arch = "wasm32")]
            Host::Worker(_) => CpuThreading::Worker,
        }
    }
}

/// Where the engine's jobs run ([`EngineJobs`]); the CPU player's choice, hence the name.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuThreading {
    /// On the async compute pool's threads (desktop).
    Pool,
    /// On the main thread, this long per frame (a page that cannot start the engine worker, and tests).
    Sliced(Duration),
    /// In the engine's Web Worker (the browser); in slices between frames should it not start.
    Worker,
}

impl Default for CpuThreading {
    fn default() -> Self {
        if cfg!(target_arch = "wasm32") { CpuThreading::Worker } else { CpuThreading::Pool }
    }
}

/// The slice of a frame the web's fallback thinks for (the frames host when the worker cannot run).
pub const WEB_SLICE: Duration = Duration::from_millis(8);

/// Adds the jobs' host.
pub fn plugin(app: &mut App) {
    app.init_resource::<EngineJobs>()
        .add_woken_message::<EngineNews>()
        .add_systems(PreUpdate, pump)
        .add_systems(PostUpdate, demand_frames);
}

/// Sets the host up (again, when [`CpuThreading`] changed with nothing in flight), gathers the replies that
/// arrived, and thinks for a slice when the jobs run in the frames.
fn pump(
    mut jobs: ResMut<EngineJobs>,
    threading: Res<CpuThreading>,
    waker: Res<LoopWaker>,
    mut news: MessageWriter<EngineNews>,
) {
    let jobs = &mut *jobs;
    let dropped = std::mem::take(&mut *jobs.dropped.lock().unwrap_or_else(|e| e.into_inner()));
    for id in dropped {
        jobs.cancel_id(id);
    }
    let wanted = *threading;
    let stale = jobs
        .host
        .as_ref()
        .is_some_and(|h| h.mode() != wanted && !(wanted == CpuThreading::Worker && matches!(h, Host::Frames { .. })));
    if jobs.host.is_none() || (stale && jobs.live.is_empty()) {
        jobs.host = Some(Host::new(wanted, &waker));
    }
    for (id, job) in std::mem::take(&mut jobs.waiting) {
        jobs.host.as_mut().expect("set above").start(id, job);
    }
    let mut replies = Vec::new();
    match jobs.host.as_mut().expect("set above") {
        Host::Pool(pool) => {
            replies = std::mem::take(&mut *pool.outbox.lock().unwrap_or_else(|e| e.into_inner()));
            pool.running.retain(|_, (task, _)| !task.is_finished());
        }
        Host::Frames { engine, slice } => {
            if engine.has_jobs() {
                let started = Instant::now();
                engine.run_for(*slice, &mut |r| replies.push(r));
                jobs.longest_frame = jobs.longest_frame.max(started.elapsed());
            }
        }
        #[cfg(target_arch = "wasm32")]
        Host::Worker(link) => match link.receive() {
            Ok(got) => {
                if link.just_started() {
                    news.write(EngineNews::Worker);
                }
                replies = got;
            }
            Err(reason) => {
                warn!("the engine worker is not available ({reason}): thinking between frames instead");
                link.stop();
                news.write(EngineNews::Frames(reason));
                let mut host = Host::frames();
                let mut live: Vec<(JobId, Job)> = jobs.live.iter().map(|(id, j)| (*id, j.clone())).collect();
                live.sort_by_key(|(id, _)| *id);
                for (id, job) in live {
                    jobs.inbox.remove(&id);
                    host.start(id, job);
                }
                jobs.host = Some(host);
            }
        },
    }
    for reply in replies {
        jobs.deliver(reply, &mut news);
    }
}

/// Frames the jobs need: every frame while they run in the frames. Replies from elsewhere wake the window
/// themselves, and the frame they wake delivers them before its systems run.
fn demand_frames(jobs: Res<EngineJobs>, mut demand: ResMut<FrameDemand>) {
    let thinking_here = match &jobs.host {
        Some(Host::Frames { engine, .. }) => engine.has_jobs(),
        _ => false,
    };
    if thinking_here || !jobs.waiting.is_empty() {
        demand.next_frame();
    }
}

/// The browser's engine worker, as the page starts it (`fanoronaEngineStart` in `web/index.html`).
#[cfg(target_arch = "wasm32")]
mod worker {
    use super::WORKER_START_TIMEOUT;
    use crate::platform::redraw::LoopWaker;
    use bevy::platform::time::Instant;
    use fanorona_engine::service::{Reply, Request};
    use std::sync::Mutex;
    use wasm_bindgen::prelude::*;

    // `catch`: a page without these functions gives an error, never a panic.
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaEngineStart, catch)]
        fn start(on_message: &Closure<dyn FnMut(String)>) -> Result<bool, JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaEnginePost, catch)]
        fn post(text: &str) -> Result<(), JsValue>;
        #[wasm_bindgen(js_namespace = window, js_name = fanoronaEngineStop, catch)]
        fn stop() -> Result<(), JsValue>;
    }

    /// What the worker said since the last frame (one thread: the page's).
    static RECEIVED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    /// The running worker.
    pub struct Link {
        started: Instant,
        ready: bool,
        /// Whether the last [`Link::receive`] brought the worker's first message.
        just_ready: bool,
    }

    impl Link {
        /// Starts the worker; None where the page cannot (no workers, or switched off with `?worker=off`).
        pub fn start(waker: &LoopWaker) -> Option<Link> {
            let waker = waker.clone();
            let on_message = Closure::<dyn FnMut(String)>::new(move |text: String| {
                RECEIVED.lock().unwrap_or_else(|e| e.into_inner()).push(text);
                waker.wake();
            });
            let started = start(&on_message).unwrap_or(false);
            // The page keeps calling it for as long as the worker lives: the program's whole life.
            on_message.forget();
            started.then(|| Link { started: Instant::now(), ready: false, just_ready: false })
        }

        /// Ends the worker (given up on: it failed, or did not answer in time), so that a late one neither
        /// takes a core nor fills the queue of messages nobody reads any more.
        pub fn stop(&self) {
            let _ = stop();
            RECEIVED.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }

        /// Whether the worker said it runs in the last [`Link::receive`].
        pub fn just_started(&self) -> bool {
            self.just_ready
        }

        /// Sends a request (the worker queues it until its module is running).
        pub fn post(&self, request: &Request) {
            let _ = post(&request.to_json());
        }

        /// The replies since the last call; an error once the worker failed or did not start in time.
        pub fn receive(&mut self) -> Result<Vec<Reply>, String> {
            let texts = std::mem::take(&mut *RECEIVED.lock().unwrap_or_else(|e| e.into_inner()));
            let mut replies = Vec::new();
            for text in texts {
                if let Some(reason) = text.strip_prefix("failed ") {
                    return Err(reason.to_string());
                }
                match Reply::list_from_json(&text) {
                    Ok(list) => replies.extend(list),
                    Err(e) => return Err(e),
                }
            }
            self.just_ready = !self.ready && replies.iter().any(|r| matches!(r, Reply::Ready));
            self.ready |= self.just_ready;
            if !self.ready && self.started.elapsed() > WORKER_START_TIMEOUT {
                return Err(format!("no answer in {} s", WORKER_START_TIMEOUT.as_secs()));
            }
            Ok(replies)
        }
    }
}
