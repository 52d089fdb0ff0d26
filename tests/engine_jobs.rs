//! The game's door to the engine (`play::engine_jobs`): jobs answered on the pool and in the frames alike, a
//! cancelled or dropped job never heard of again, and the browser's worker mode falling back to the frames where
//! there is no worker.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use fanorona::LogicPlugin;
use fanorona::play::cpu::CpuThreading;
use fanorona::play::engine_jobs::{EngineJobs, JobHandle};
use fanorona_engine::search::Limits;
use fanorona_engine::service::{Job, Memory, Reply, game_text};
use fanorona_engine::{Game, Rules};
use std::time::{Duration, Instant};

fn app(threading: CpuThreading) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, LogicPlugin)).insert_resource(threading);
    app.update();
    app
}

fn search(depth: Option<u32>) -> Job {
    let limits = Limits { depth, movetime: depth.is_none().then(|| Duration::from_secs(60)), ..Limits::default() };
    Job::Search { game: game_text(&Game::new(Rules::default())), limits, memory: Memory::Analysis }
}

/// Runs frames until `done` says so (or a minute passes), collecting the replies of `job`.
fn replies_until(app: &mut App, job: &JobHandle, done: impl Fn(&[Reply]) -> bool) -> Vec<Reply> {
    let mut got = Vec::new();
    let start = Instant::now();
    while !done(&got) && start.elapsed() < Duration::from_secs(60) {
        app.update();
        got.extend(app.world_mut().resource_mut::<EngineJobs>().take(job));
        std::thread::sleep(Duration::from_millis(1));
    }
    got
}

fn answered(replies: &[Reply]) -> bool {
    replies.iter().any(Reply::is_final)
}

#[test]
fn jobs_are_answered_the_same_on_the_pool_and_in_the_frames() {
    let mut best = Vec::new();
    for threading in [CpuThreading::Pool, CpuThreading::Sliced(Duration::from_millis(3))] {
        let mut app = app(threading);
        let job = app.world_mut().resource_mut::<EngineJobs>().start(search(Some(4)));
        let replies = replies_until(&mut app, &job, answered);
        let Some(Reply::Searched { result, .. }) = replies.last() else { panic!("{threading:?}: {replies:?}") };
        assert!(replies.iter().any(|r| matches!(r, Reply::Info { .. })), "{threading:?}: progress came first");
        assert!(!app.world().resource::<EngineJobs>().is_live(&job));
        best.push((result.best.clone(), result.score));
        let frames = app.world().resource::<EngineJobs>().in_frames();
        assert_eq!(frames, matches!(threading, CpuThreading::Sliced(_)));
    }
    assert_eq!(best[0], best[1], "the same search gives the same answer wherever it runs");
}

#[test]
fn a_cancelled_or_dropped_job_is_never_heard_of_again() {
    for threading in [CpuThreading::Pool, CpuThreading::Sliced(Duration::from_millis(3))] {
        let mut app = app(threading);
        let (endless, dropped, after) = {
            let mut jobs = app.world_mut().resource_mut::<EngineJobs>();
            (jobs.start(search(None)), jobs.start(search(None)), jobs.start(search(Some(3))))
        };
        let endless_id = endless.id();
        // Progress of the first job arrives, then it is cancelled; the second is dropped with its handle.
        let got = replies_until(&mut app, &endless, |r| !r.is_empty());
        assert!(!got.is_empty(), "{threading:?}");
        app.world_mut().resource_mut::<EngineJobs>().cancel(endless);
        drop(dropped);
        let replies = replies_until(&mut app, &after, answered);
        assert!(matches!(replies.last(), Some(Reply::Searched { .. })), "{threading:?}: the next job still runs");
        for _ in 0..20 {
            app.update();
        }
        let jobs = app.world().resource::<EngineJobs>();
        assert!(replies.iter().all(|r| r.job() == Some(after.id()) && r.job() != Some(endless_id)));
        assert!(!jobs.is_live(&after));
        assert_eq!(jobs.untaken_replies(), 0, "{threading:?}: nothing of the cancelled jobs was delivered");
    }
}

#[test]
fn the_browser_mode_without_a_worker_thinks_in_the_frames() {
    let mut app = app(CpuThreading::Worker);
    assert!(!app.world().resource::<EngineJobs>().in_worker());
    assert!(app.world().resource::<EngineJobs>().in_frames());
    let job = app.world_mut().resource_mut::<EngineJobs>().start(search(Some(3)));
    let replies = replies_until(&mut app, &job, answered);
    assert!(matches!(replies.last(), Some(Reply::Searched { .. })));
}

#[test]
fn a_job_that_cannot_run_says_why() {
    let mut app = app(CpuThreading::Pool);
    let bad = Job::Play {
        game: game_text(&Game::new(Rules::default())),
        level: 0,
        seed: 1,
        cap: Limits::depth(1),
        variety_depth: 1,
        memory: Memory::Player(fanorona_engine::Side::White),
    };
    let job = app.world_mut().resource_mut::<EngineJobs>().start(bad);
    let replies = replies_until(&mut app, &job, answered);
    assert!(matches!(replies.as_slice(), [Reply::Failed { error, .. }] if error.contains("level 0")), "{replies:?}");
}
