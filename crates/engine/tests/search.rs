//! Search tests: forced wins found, agreement with the tablebase, legal answers under any limit, the protocol.

use fanorona_engine::engine_protocol::{Output, Session};
use fanorona_engine::levels::Level;
use fanorona_engine::search::{Limits, Oracle, Score, Searcher, WIN};
use fanorona_engine::tablebase::{Tablebase, TbValue};
use fanorona_engine::{Position, Rules, Side, Variant};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, Mutex};

fn random_position(rng: &mut SmallRng, white: u32, black: u32) -> Position {
    let board = Variant::Tsivy.geometry().board;
    let mut free: Vec<u8> = (0..64).filter(|&p| board >> p & 1 == 1).collect();
    let mut bb = [0u64; 2];
    for (i, n) in [white, black].into_iter().enumerate() {
        for _ in 0..n {
            let k = rng.random_range(0..free.len());
            bb[i] |= 1 << free.swap_remove(k);
        }
    }
    let side = if rng.random_bool(0.5) { Side::White } else { Side::Black };
    Position::from_parts(Variant::Tsivy, bb[0], bb[1], side, &Rules::default())
}

#[test]
fn finds_a_long_relay_that_wins_at_once() {
    // A zig-zag relay of five captures clears the board:
    // a1-b2A (c3), b2-c2A (d2), c2-c3A (c4), c3-d3A (e3), d3-d4A (d5).
    let p: Position = "3B5/2B6/2B1B4/3B5/W8 w".parse().unwrap();
    let mut s = Searcher::new(4);
    let r = s.search(&p, &[], Limits::depth(2), |_| {});
    assert_eq!(r.value(), Score::Win(1));
    let mut c = p;
    c.play_turn(r.best.as_ref().unwrap()).unwrap();
    assert_eq!(c.count(Side::Black), 0, "best {}", r.best.unwrap());
}

#[test]
fn search_agrees_with_the_tablebase_on_short_endgames() {
    let tb = Tablebase::build(Variant::Tsivy, 3, |_| {});
    let mut rng = SmallRng::seed_from_u64(5);
    let mut s = Searcher::new(4);
    let mut checked = 0;
    for _ in 0..400 {
        let (w, b) = [(2, 1), (1, 2), (1, 1)][rng.random_range(0..3)];
        let p = random_position(&mut rng, w, b);
        let Some(v) = tb.probe(&p) else { continue };
        let expected = match v {
            TbValue::Win(d) if d <= 5 => Score::from(v),
            TbValue::Loss(d) if (1..=4).contains(&d) => Score::from(v),
            _ => continue,
        };
        if p.is_lost() {
            continue;
        }
        let d = v.distance().unwrap();
        let r = s.search(&p, &[], Limits::depth(d + 1), |_| {});
        assert_eq!(r.value(), expected, "{p}: tablebase says {v}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} positions had a short forced result");
}

#[test]
fn the_oracle_gives_exact_endgame_scores() {
    // The longest 4-piece win: 49 turns, far beyond any search depth.
    let tb = Arc::new(Tablebase::build(Variant::Tsivy, 4, |_| {}));
    let p: Position = "9/9/B8/9/3WW3B w".parse().unwrap();
    assert_eq!(tb.probe(&p), Some(TbValue::Win(49)));
    // The default no-capture draw limit never cuts off a win the tablebase can prove (59 turns with 5 pieces,
    // see docs/engine.md; a win's capture-free stretch is never longer than the whole win).
    assert_eq!(tb.longest_win().map(|(d, _)| d), Some(49));
    assert!(u32::from(fanorona_engine::DrawRule::DEFAULT_NO_CAPTURE_TURNS) > 59);
    assert_eq!(tb.score(&p), Some(WIN - 49));
    let mut s = Searcher::new(4);
    s.set_oracle(Some(tb.clone()));
    let r = s.search(&p, &[], Limits::depth(2), |_| {});
    assert_eq!(r.value(), Score::Win(49));
    // The chosen turn keeps the win at the right distance.
    let mut c = p;
    c.play_turn(r.best.as_ref().unwrap()).unwrap();
    assert_eq!(tb.probe(&c), Some(TbValue::Loss(48)));
}

#[test]
fn never_returns_an_illegal_turn() {
    let mut rng = SmallRng::seed_from_u64(9);
    let mut s = Searcher::new(4);
    for i in 0..60 {
        let w = rng.random_range(1..=12);
        let b = rng.random_range(1..=12);
        let p = random_position(&mut rng, w, b);
        let limits = match i % 3 {
            0 => Limits::nodes(rng.random_range(1..5000)),
            1 => Limits::depth(rng.random_range(1..4)),
            _ => Limits::movetime(rng.random_range(0..20)),
        };
        let r = s.search(&p, &[], limits, |_| {});
        match r.best {
            Some(t) => {
                let mut c = p;
                assert!(c.play_turn(&t).is_ok(), "{p}: {t}");
            }
            None => assert!(p.is_lost(), "{p}: no turn returned but the side to move can play"),
        }
    }
}

#[test]
fn levels_accept_draws_only_when_not_winning() {
    let mut s = Searcher::new(4);
    // White has three pieces against one: winning for White, hopeless for Black.
    let p: Position = "8B/9/9/9/WWW6 w".parse().unwrap();
    assert!(!Level::Master.accepts_draw(&mut s, &p, &[], Side::White));
    assert!(Level::Master.accepts_draw(&mut s, &p, &[], Side::Black));
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Everything a protocol session writes in answer to `lines` and a final `quit` (which waits for any search).
fn session_output(lines: &[&str]) -> String {
    let cap = Capture::default();
    let out: Output = Arc::new(Mutex::new(cap.clone()));
    let mut session = Session::new(out);
    for line in lines {
        assert!(session.handle(line), "{line}");
    }
    assert!(!session.handle("quit"));
    String::from_utf8(cap.0.lock().unwrap().clone()).unwrap()
}

#[test]
fn protocol_plays_the_baseline_and_back() {
    let text = session_output(&[
        "level baseline",
        "go depth 3",
        "isready",
        "level max",
        "play d3-e3A",
        "go depth 2",
        "eval",
        "go wtime 400 btime 300 winc 10 binc 10",
        "isready",
        "go wtime soon",
        "level fast",
    ]);
    let bests: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("bestmove ")).collect();
    assert_eq!(bests.len(), 3, "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("error usage: go")).count(), 1, "{text}");
    let start = Position::start(&Rules::default());
    assert!(start.legal_turns().contains(&bests[0].parse().unwrap()), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("error usage: level")).count(), 1, "{text}");
}

#[test]
fn protocol_full_strength_knows_the_tablebase() {
    // Two against two, the longest four-piece win (49 turns): a one-turn search sees it only through the table.
    let text = session_output(&[
        "position fen 9/9/B8/9/3WW3B w",
        "go depth 1",
        "isready",
        "level baseline",
        "go depth 1",
        "eval",
    ]);
    let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info depth 1 ")).collect();
    assert_eq!(infos.len(), 2, "{text}");
    assert!(infos[0].contains(" score win 49 "), "{text}");
    assert!(infos[1].contains(" score cp "), "the baseline has no table: {text}");
}

#[test]
fn protocol_reports_several_lines() {
    let text = session_output(&["level baseline", "go depth 3 multipv 3", "isready", "go depth 2 multipv x"]);
    let infos: Vec<&str> = text.lines().filter(|l| l.starts_with("info depth ")).collect();
    assert_eq!(infos.len(), 9, "{text}");
    let start = Position::start(&Rules::default());
    for d in 1..=3 {
        let lines = &infos[(d - 1) * 3..d * 3];
        let mut firsts = Vec::new();
        let mut scores = Vec::new();
        for (k, l) in lines.iter().enumerate() {
            assert!(l.starts_with(&format!("info depth {d} seldepth ")), "{l}");
            assert!(l.contains(&format!(" multipv {} score cp ", k + 1)), "{l}");
            let pv = l.split(" pv ").nth(1).unwrap();
            let first: fanorona_engine::Turn = pv.split(", ").next().unwrap().parse().unwrap();
            assert!(start.legal_turns().contains(&first), "{l}");
            assert!(!firsts.contains(&first), "{text}");
            firsts.push(first);
            scores.push(l.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse::<i32>().unwrap());
        }
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{text}");
        if d == 3 {
            let best = text.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
            assert_eq!(best, firsts[0].to_string(), "multipv 1 is the answer");
        }
    }
    assert_eq!(text.lines().filter(|l| l.starts_with("error usage: go")).count(), 1, "{text}");
}

#[test]
fn protocol_session_answers_commands() {
    let text = session_output(&[
        "isready",
        "position startpos",
        "play d3-e3A",
        "fen",
        "go depth 3",
        "isready",
        "play a1-a9",
        "position fen nonsense",
        "frobnicate",
        "eval",
        "position fen 3B5/2B6/2B1B4/3B5/W8 w",
        "go nodes 5000",
        // Waits for the search to finish (a `quit` right away would stop it).
        "eval",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "readyok");
    assert_eq!(lines[1], "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{text}");
    let bests: Vec<&&str> = lines.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bests.len(), 2, "{text}");
    let mut after = "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b".parse::<Position>().unwrap();
    assert!(after.play_turn(&bests[0]["bestmove ".len()..].parse().unwrap()).is_ok());
    assert_eq!(*bests[1], "bestmove a1-b2A b2-c2A c2-c3A c3-d3A d3-d4A");
    assert_eq!(lines.iter().filter(|l| l.starts_with("error ")).count(), 3, "{text}");
    assert!(lines.iter().any(|l| l.starts_with("eval cp ")), "{text}");
}

#[test]
fn protocol_full_strength_opens_from_the_book_but_searches_when_asked_for_depth() {
    let text = session_output(&[
        "position startpos",
        "go movetime 60000",
        "isready",
        "go depth 2",
        "isready",
        "level baseline",
        "go nodes 2000",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    // A minute to think, but the start is in the book: the answer is one of its turns, given at once (the test
    // would time out otherwise), with the book's score.
    let book = fanorona_engine::book::OpeningBook::builtin();
    let start: Position = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w".parse().unwrap();
    let moves = book.moves(&start).expect("the start is in the book");
    let playable: Vec<String> = moves
        .iter()
        .filter(|m| m.score >= moves[0].score - fanorona_engine::book::PLAY_MARGIN)
        .map(|m| m.turn.to_string())
        .collect();
    assert!(lines[0].starts_with("info string book "), "{text}");
    let best = lines[1].strip_prefix("bestmove ").expect("bestmove right after the book line");
    assert!(playable.iter().any(|t| t == best), "{best} not among {playable:?}");
    assert_eq!(lines[2], "readyok");
    // `go depth` is a request for a search, not for the book.
    assert!(
        lines[3..].iter().take_while(|l| !l.starts_with("bestmove")).any(|l| l.starts_with("info depth 2 ")),
        "{text}"
    );
    // The baseline has no book: it searches from the start too.
    let after_ready: Vec<&&str> =
        lines.iter().skip_while(|l| **l != "readyok").skip(1).skip_while(|l| **l != "readyok").collect();
    assert!(after_ready.iter().any(|l| l.starts_with("info depth")), "{text}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string book")).count(), 1, "{text}");
}

#[test]
fn protocol_searches_on_the_threads_it_is_given() {
    let fen = "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b";
    let text = session_output(&[
        "threads 0",
        "threads lots",
        "threads 2",
        &format!("position fen {fen}"),
        "go movetime 300",
        "isready",
        "threads 1",
        "go depth 3",
    ]);
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("error usage: threads")).collect();
    assert_eq!(errors.len(), 2, "{text}");
    let pos: Position = fen.parse().unwrap();
    let bests: Vec<fanorona_engine::Turn> =
        text.lines().filter_map(|l| l.strip_prefix("bestmove ")).map(|t| t.parse().unwrap()).collect();
    assert_eq!(bests.len(), 2, "{text}");
    assert!(bests.iter().all(|t| pos.legal_turns().contains(t)), "{text}");
}

/// [`session_output`] on a thread of its own, failing when the session has not ended within a minute (a session
/// that waits for a search nobody can stop would otherwise hang the test run).
fn session_output_within_a_minute(lines: Vec<String>) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let _ = tx.send(session_output(&lines));
    });
    rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the session ends")
}

#[test]
fn protocol_stops_an_endless_search_when_the_game_is_needed() {
    // The commands after each endless search are read on the thread that would wait for it: before, the engine
    // waited for ever and never read the `stop` that could end it.
    let fen = "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b";
    let text = session_output_within_a_minute(
        [&format!("position fen {fen}"), "go infinite", "play d3-e3A", "eval", "go", "newgame", "go depth 1"]
            .map(String::from)
            .to_vec(),
    );
    let lines: Vec<&str> = text.lines().collect();
    let bests: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("bestmove ")).collect();
    assert_eq!(bests.len(), 3, "{text}");
    let first: fanorona_engine::Turn = lines[bests[0]]["bestmove ".len()..].parse().unwrap();
    assert!(fen.parse::<Position>().unwrap().legal_turns().contains(&first), "{text}");
    // `play d3-e3A` is not legal there: an error, and the endless search's answer before it.
    let error = lines.iter().position(|l| l.starts_with("error ")).expect("the illegal turn is refused");
    assert!(bests[0] < error, "{text}");
    let eval = lines.iter().position(|l| l.starts_with("eval cp ")).expect("eval answers");
    assert!(eval < bests[1], "{text}");
    let start = Position::start(&Rules::default());
    let last: fanorona_engine::Turn = lines[bests[2]]["bestmove ".len()..].parse().unwrap();
    assert!(start.legal_turns().contains(&last), "{text}");
}

#[test]
fn protocol_sessions_of_random_commands_end_and_answer_every_search() {
    const WORDS: [&str; 22] = [
        "position startpos",
        "position fen B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW b",
        "position fen 9/9/B8/9/3WW3B w",
        "position fen BBBB/WW w",
        "position",
        "play d3-e3A",
        "play f2-e3A",
        "play c3-d4W d4-c5W",
        "play a1-a9",
        "go depth 1",
        "go depth 2 multipv 2",
        "go nodes 3000",
        "go movetime 5",
        "go wtime 40 btime 40",
        "go infinite",
        "go",
        "go depth",
        "stop",
        "eval",
        "newgame",
        "isready",
        "fen",
    ];
    const SETTINGS: [&str; 8] =
        ["level 1", "level 3", "level max", "level baseline", "level 9", "threads 2", "threads 1", "frobnicate"];
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..12 {
        let lines: Vec<String> = (0..rng.random_range(4..16))
            .map(|_| {
                if rng.random_bool(0.2) {
                    SETTINGS[rng.random_range(0..SETTINGS.len())].to_string()
                } else {
                    WORDS[rng.random_range(0..WORDS.len())].to_string()
                }
            })
            .collect();
        let gos = lines.iter().filter(|l| l.starts_with("go") && *l != "go depth").count();
        let text = session_output_within_a_minute(lines.clone());
        // Every search answers once, with a turn or `(none)` where the game is over.
        let bests = text.lines().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(bests, gos, "{lines:?}\n{text}");
        // A search thread that panicked would be reported (and replaced by a fresh engine) this way.
        assert!(!text.contains("error the search thread failed"), "{lines:?}\n{text}");
    }
}

/// The share of the opponent's replies to `turn` that lose, when `turn` keeps the draw; None when it does not.
fn trap_share(tb: &Tablebase, pos: &Position, turn: &fanorona_engine::Turn) -> Option<f64> {
    let mut child = *pos;
    child.play_turn(turn).expect("a legal turn");
    if tb.probe(&child) != Some(TbValue::Draw) {
        return None;
    }
    let replies = child.legal_turns();
    let losing = replies
        .iter()
        .filter(|r| {
            let mut next = child;
            next.play_turn(r).expect("a legal reply");
            matches!(tb.probe(&next), Some(TbValue::Win(_)))
        })
        .count();
    Some(losing as f64 / replies.len() as f64)
}

#[test]
fn swindle_plays_the_drawing_turn_with_the_most_losing_replies() {
    let tb = Arc::new(Tablebase::build(Variant::Tsivy, 4, |_| {}));
    let drawn = fanorona_engine::tablebase::sample(&tb, 2, 2, fanorona_engine::tablebase::ValueKind::Draw, 30, 5);
    assert_eq!(drawn.len(), 30);
    let mut s = Searcher::new(4);
    // swindle=1: every losing reply counts fully, whatever its length.
    s.configure("max,swindle=1").unwrap();
    s.set_oracle(Some(tb.clone() as Arc<dyn Oracle>));
    let mut chosen = 0;
    for pos in &drawn {
        let shares: Vec<Option<f64>> = pos.legal_turns().iter().map(|t| trap_share(&tb, pos, t)).collect();
        let best = shares.iter().flatten().copied().fold(0.0, f64::max);
        let result = s.search(pos, &[], Limits::depth(3), |_| {});
        let turn = result.best.expect("a drawn position has a turn");
        let share = trap_share(&tb, pos, &turn).unwrap_or_else(|| panic!("{pos}: {turn} gives up the draw"));
        if best > 0.0 {
            assert_eq!(share, best, "{pos}: {turn} sets fewer traps than another drawing turn");
            assert_eq!(s.swindle_turn(pos, &[]), Some(turn.clone()));
            chosen += 1;
        } else {
            assert_eq!(s.swindle_turn(pos, &[]), None, "{pos}: no turn sets a trap");
        }
        // A turn that would repeat a position for the third time is never the swindle's.
        let mut child = *pos;
        child.play_turn(&turn).unwrap();
        assert_ne!(s.swindle_turn(pos, &[child.hash(), 0, child.hash()]), Some(turn), "{pos}");
    }
    assert!(chosen >= 10, "most drawn 2 v 2 positions have a drawing turn with traps ({chosen} of 30)");
    // Off, or outside a drawn tablebase position, it changes nothing.
    let won = fanorona_engine::tablebase::sample(&tb, 2, 2, fanorona_engine::tablebase::ValueKind::Win, 5, 6);
    for pos in &won {
        assert_eq!(s.swindle_turn(pos, &[]), None, "{pos} is won: the search plays it");
    }
    s.configure("swindle=0").unwrap();
    assert_eq!(s.swindle_turn(&drawn[0], &[]), None);
    assert_eq!(s.swindle_turn(&Position::start(&Rules::default()), &[]), None);
}

#[test]
fn sampled_endgames_have_the_material_and_value_asked_for() {
    use fanorona_engine::tablebase::{ValueKind, sample};
    let tb = Tablebase::build(Variant::Tsivy, 4, |_| {});
    for (own, other, want) in [(2, 2, ValueKind::Draw), (1, 3, ValueKind::Loss), (2, 1, ValueKind::Win)] {
        let found = sample(&tb, own, other, want, 20, 9);
        assert_eq!(found.len(), 20);
        let mut hashes: Vec<u64> = found.iter().map(Position::hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), 20, "distinct positions");
        for (k, p) in found.iter().enumerate() {
            let side = p.side_to_move();
            assert_eq!(side, if k % 2 == 0 { Side::White } else { Side::Black });
            assert_eq!((p.count(side), p.count(side.opponent())), (own, other), "{p}");
            assert!(!p.has_capture(), "{p} is not quiet");
            assert!(want.holds(tb.probe(p).unwrap()), "{p}");
        }
    }
    // Material the table does not cover gives nothing.
    assert!(sample(&tb, 3, 2, ValueKind::Draw, 5, 1).is_empty());
}

#[test]
fn the_network_adds_its_correction_to_quiet_leaves_and_a_bad_file_is_an_error() {
    use fanorona_engine::eval_net::{INPUTS, Net};
    let quiet: Position = "B1B1BB1BB/1BB2B3/2W1B1W2/W1W2W1W1/WW1WW2WW w".parse().unwrap();
    // A network whose one hidden unit is always on and adds a piece to every position.
    let mut net = Net::zero(INPUTS);
    net.b1[0] = 1.0;
    net.w2[0] = 100.0;
    let correction = net.evaluate(&quiet);
    assert!((80..=120).contains(&correction), "{correction}");
    let dir = std::env::temp_dir().join(format!("fanorona-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("net.txt");
    std::fs::write(&file, net.to_text("test")).unwrap();
    let mut plain = Searcher::new(1);
    plain.configure("max").unwrap();
    let mut with = Searcher::new(1);
    with.configure(&format!("max,netfile={}", file.display())).unwrap();
    assert_eq!(with.quiet_eval(&quiet), plain.quiet_eval(&quiet) + correction);
    // The committed network is the one `net` loads; `net=0` turns it off again.
    with.configure("net").unwrap();
    assert_eq!(with.quiet_eval(&quiet), plain.quiet_eval(&quiet) + Net::builtin().evaluate(&quiet));
    with.configure("net=0").unwrap();
    assert_eq!(with.quiet_eval(&quiet), plain.quiet_eval(&quiet));
    // A damaged file and a missing one are errors that name the file, and change nothing.
    std::fs::write(&file, format!("net 90 {}\n1 2 3\n", fanorona_engine::eval_net::HIDDEN)).unwrap();
    let e = with.configure(&format!("netfile={}", file.display())).unwrap_err();
    assert!(e.contains("net.txt") && e.contains("line 2"), "{e}");
    let e = with.configure("netfile=/nonexistent/net.txt").unwrap_err();
    assert!(e.contains("/nonexistent/net.txt"), "{e}");
    assert_eq!(with.quiet_eval(&quiet), plain.quiet_eval(&quiet));
    std::fs::remove_dir_all(&dir).ok();
}
