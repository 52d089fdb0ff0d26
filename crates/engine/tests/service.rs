//! The engine's jobs by message (`service`): the same answers as the direct calls, in slices or at once, through
//! JSON, with cancels and bad requests.

use fanorona_engine::levels::{Level, history_hashes};
use fanorona_engine::review::review_turn;
use fanorona_engine::search::{Limits, Searcher};
use fanorona_engine::service::{Engine, Job, Memory, Reply, Request, Running, game_text, run_to_end};
use fanorona_engine::{Game, Rules, Side, Turn};
use std::time::Duration;

/// A game of a few turns from the start, the same each time.
fn some_game(turns: usize) -> Game {
    let mut game = Game::new(Rules::default());
    for _ in 0..turns {
        let turn = game.position().legal_turns().into_iter().max().expect("a legal turn");
        game.play_turn(&turn).unwrap();
    }
    game
}

/// Every reply of `requests` run by an [`Engine`] in slices of `slice` until it has no job left.
fn run_engine(requests: Vec<Request>, slice: Duration) -> Vec<Reply> {
    let mut engine = Engine::new();
    for r in requests {
        engine.handle(r);
    }
    let mut replies = Vec::new();
    let mut rounds = 0;
    while engine.has_jobs() {
        engine.run_for(slice, &mut |r| replies.push(r));
        rounds += 1;
        assert!(rounds < 1_000_000, "the engine never finished");
    }
    replies
}

#[test]
fn messages_travel_as_json_and_bad_ones_are_errors() {
    let game = some_game(3);
    let request = Request::Start {
        id: 7,
        job: Job::Search { game: game_text(&game), limits: Limits::depth(2).with_multipv(2), memory: Memory::Hint },
    };
    assert_eq!(Request::from_json(&request.to_json()).unwrap(), request);
    let replies = run_engine(vec![request], Duration::from_millis(5));
    for reply in &replies {
        assert_eq!(&Reply::from_json(&reply.to_json()).unwrap(), reply);
    }
    for bad in ["", "{", "null", r#"{"Start":{"id":1}}"#, r#"{"Cancel":{"id":-1}}"#, r#"{"Explode":{}}"#] {
        assert!(Request::from_json(bad).is_err(), "{bad:?} was read");
        assert!(Reply::from_json(bad).is_err(), "{bad:?} was read");
    }
}

#[test]
fn a_play_job_chooses_as_the_level_does() {
    let game = some_game(6);
    let cap = Limits::depth(3);
    for level in [Level::Beginner, Level::Intermediate, Level::Master] {
        let job = Job::Play {
            game: game_text(&game),
            level: level.number(),
            seed: 42,
            cap,
            variety_depth: 3,
            memory: Memory::Player(Side::White),
        };
        let replies = run_engine(vec![Request::Start { id: 1, job: job.clone() }], Duration::from_millis(1));
        let Some(Reply::Played { id: 1, turn: Some(turn) }) = replies.last() else { panic!("{replies:?}") };
        assert!(game.position().legal_turns().contains(turn));
        let mut direct_replies = Vec::new();
        run_to_end(1, job, None, &mut |r| direct_replies.push(r));
        assert_eq!(direct_replies.last(), replies.last(), "{level:?}: sliced and at once choose alike");
        let expected = level.choose(&mut Searcher::new(16), game.position(), &history_hashes(&game), 42, cap);
        if level < Level::Master {
            // Master's opening variety is capped at depth 3 here, below Level::choose's default.
            assert_eq!(Some(turn.clone()), expected, "{level:?}");
        }
    }
}

#[test]
fn a_search_reports_each_line_then_its_result() {
    let game = some_game(4);
    let limits = Limits::depth(3).with_multipv(3);
    let job = Job::Search { game: game_text(&game), limits, memory: Memory::Analysis };
    let replies = run_engine(vec![Request::Start { id: 9, job }], Duration::from_millis(2));
    let infos: Vec<_> =
        replies.iter().filter_map(|r| if let Reply::Info { info, .. } = r { Some(info) } else { None }).collect();
    for depth in 1..=3 {
        let lines: Vec<usize> = infos.iter().filter(|i| i.depth == depth).map(|i| i.multipv).collect();
        assert_eq!(lines, [1, 2, 3], "depth {depth}");
    }
    let Some(Reply::Searched { id: 9, result }) = replies.last() else { panic!("{replies:?}") };
    let direct = Searcher::new(32).search(game.position(), &history_hashes(&game), limits, |_| {});
    assert_eq!(result.best, direct.best);
    assert_eq!(result.score, direct.score);
    // The lines' tails may differ (slices leave other entries in the table), never their turns and scores.
    let heads = |lines: &[fanorona_engine::search::PvLine]| -> Vec<(i32, Turn)> {
        lines.iter().map(|l| (l.score, l.pv[0].clone())).collect()
    };
    assert_eq!(heads(&result.lines), heads(&direct.lines));
}

#[test]
fn a_review_answers_every_turn_in_order_then_done() {
    let game = some_game(8);
    let limits = Limits::depth(2);
    let job = Job::Review { game: game_text(&game), limits, from: 3 };
    let replies = run_engine(vec![Request::Start { id: 4, job }], Duration::from_millis(1));
    let indices: Vec<usize> = replies
        .iter()
        .filter_map(|r| if let Reply::Reviewed { index, .. } = r { Some(*index) } else { None })
        .collect();
    assert_eq!(indices, (3..8).collect::<Vec<_>>());
    assert_eq!(replies.last(), Some(&Reply::Done { id: 4 }));
    let starts = game.turn_starts();
    let history: Vec<u64> = starts[..5].iter().map(|p| p.hash()).collect();
    let direct = review_turn(&mut Searcher::new(16), &starts[5], &history, &game.turns()[5], limits).unwrap();
    let Some(Reply::Reviewed { review: Some(r), .. }) =
        replies.iter().find(|r| matches!(r, Reply::Reviewed { index: 5, .. }))
    else {
        panic!("turn 5 not reviewed")
    };
    assert_eq!(r.best, direct.best);
    assert_eq!(r.class, direct.class);
}

#[test]
fn a_cancelled_job_answers_nothing_more_and_the_next_one_runs() {
    let game = some_game(2);
    let endless = Job::Search { game: game_text(&game), limits: Limits::default(), memory: Memory::Analysis };
    let quick = Job::Search { game: game_text(&game), limits: Limits::depth(2), memory: Memory::Analysis };
    let mut engine = Engine::new();
    engine.handle(Request::Start { id: 1, job: endless });
    engine.handle(Request::Start { id: 2, job: quick.clone() });
    engine.handle(Request::Start { id: 3, job: quick });
    engine.handle(Request::Cancel { id: 3 });
    let mut replies = Vec::new();
    engine.run_for(Duration::from_millis(30), &mut |r| replies.push(r));
    assert!(replies.iter().all(|r| r.job() == Some(1)), "only the first job ran so far");
    engine.handle(Request::Cancel { id: 1 });
    replies.clear();
    while engine.has_jobs() {
        engine.run_for(Duration::from_millis(5), &mut |r| replies.push(r));
    }
    assert!(replies.iter().all(|r| r.job() == Some(2)), "{replies:?}");
    assert!(matches!(replies.last(), Some(Reply::Searched { id: 2, .. })));
    // Cancelling what is gone or never was changes nothing.
    engine.handle(Request::Cancel { id: 77 });
    assert!(!engine.has_jobs());
}

#[test]
fn a_stopped_job_on_another_thread_ends_soon_with_what_it_has() {
    let game = some_game(2);
    let job = Job::Search { game: game_text(&game), limits: Limits::default(), memory: Memory::Hint };
    let mut running = Running::start(5, job, &mut None).unwrap();
    let stop = running.stop_flag();
    let thread = std::thread::spawn(move || {
        let mut last = None;
        running.step(None, &mut |r| last = Some(r));
        (last, running.into_searcher())
    });
    std::thread::sleep(Duration::from_millis(100));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (last, searcher) = thread.join().unwrap();
    assert!(matches!(last, Some(Reply::Searched { id: 5, .. })));
    assert!(!searcher.stop_flag().load(std::sync::atomic::Ordering::Relaxed), "the kept searcher is ready again");
}

#[test]
fn bad_jobs_fail_with_a_reason() {
    let bad_record = Job::Search { game: "[Variant \"7x7\"]".into(), limits: Limits::depth(1), memory: Memory::Hint };
    let bad_level = Job::Play {
        game: game_text(&some_game(0)),
        level: 9,
        seed: 0,
        cap: Limits::depth(1),
        variety_depth: 1,
        memory: Memory::Player(Side::White),
    };
    let illegal = {
        let text = game_text(&some_game(1)).replace("1. ", "1. a1-a2 ");
        Job::Review { game: text, limits: Limits::depth(1), from: 0 }
    };
    let replies = run_engine(
        vec![
            Request::Start { id: 1, job: bad_record },
            Request::Start { id: 2, job: bad_level },
            Request::Start { id: 3, job: illegal },
        ],
        Duration::from_millis(5),
    );
    assert!(matches!(&replies[0], Reply::Failed { id: 1, error } if error.contains("cannot be read")), "{replies:?}");
    assert!(matches!(&replies[1], Reply::Failed { id: 2, error } if error.contains("level 9")), "{replies:?}");
    assert!(matches!(&replies[2], Reply::Failed { id: 3, .. }), "{replies:?}");
}
