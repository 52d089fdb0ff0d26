//! The strength tester against another program: a build of `fanorona-cli engine` plays a short match over the
//! engine protocol, and a program that fails loses its games instead of stopping the test.

use fanorona_engine::search::Limits;
use fanorona_tools::sprt::{Config, Openings, Verdict, run};

fn config(a: &str, b: &str, pairs: usize) -> Config {
    Config {
        a: a.parse().unwrap_or_else(|e| panic!("{a}: {e}")),
        b: b.parse().unwrap_or_else(|e| panic!("{b}: {e}")),
        limits: Limits::nodes(3_000),
        limits_b: None,
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: pairs,
        threads: 1,
        max_turns: 24,
        tt_megabytes: 1,
    }
}

#[test]
fn an_engine_program_plays_a_short_match_over_the_protocol() {
    let dir = std::env::temp_dir().join(format!("fanorona-sprt-exe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The program keeps to a 4-piece table in a folder of its own: a test never builds the 6-piece one.
    let exe = format!(
        "exe:env FANORONA_TB_PIECES=4 FANORONA_TB_DIR={} {} engine",
        dir.display(),
        env!("CARGO_BIN_EXE_fanorona-cli")
    );
    let book = Openings::parse(
        "f2-e3A, c3-d4W, g3-f2W, g4-g3A, d2-c3A c3-b2W\nd2-e3A, g4-g5W g5-f4A, e1-d2A, b5-b4A, d2-c3A c3-b2W\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (verdict, state) = run(&config(&exe, "max", 2), &book, |_| {});
    assert_eq!(state.penta.pairs(), 2);
    assert_eq!(state.wins + state.draws + state.losses, 4);
    assert_eq!(verdict, Verdict::Inconclusive, "two pairs decide nothing");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_program_that_cannot_play_stops_the_test_without_a_game() {
    // `true` ends at once: no readyok.
    let book = Openings::parse("f2-e3A, c3-d4W\n").unwrap_or_else(|e| panic!("{e}"));
    let (_, state) = run(&config("exe:true", "max", 2), &book, |_| {});
    assert_eq!(state.penta.pairs(), 0);
    assert!("exe:".parse::<fanorona_tools::sprt::Engine>().is_err());
    assert!("exe:   ".parse::<fanorona_tools::sprt::Engine>().is_err());
}

#[test]
fn a_table_size_out_of_range_is_refused_with_a_message() {
    let cli = env!("CARGO_BIN_EXE_fanorona-cli");
    let commands: [&[&str]; 2] = [&["sprt", "--nodes", "100", "--max-pairs", "1"], &["bench", "--depths"]];
    for command in commands {
        for size in ["0", "5000", "-3", "big", "100000000"] {
            let out = std::process::Command::new(cli)
                .args(command)
                // Joined, so that `-3` is read as the option's value (apart, clap takes it for an unknown flag).
                .arg(format!("--hash={size}"))
                .output()
                .unwrap();
            assert!(!out.status.success(), "{command:?} --hash {size} was accepted");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("invalid value") && err.contains("--hash"), "{command:?} --hash {size}: {err}");
            assert!(!err.contains("panicked"), "{command:?} --hash {size}: {err}");
            assert!(out.stdout.is_empty(), "{command:?} --hash {size} ran: {}", String::from_utf8_lossy(&out.stdout));
        }
    }
}

#[test]
fn the_opening_generator_rejects_a_bad_window_with_a_message() {
    let cli = env!("CARGO_BIN_EXE_fanorona-cli");
    for args in [["--min=200", "--margin=100"], ["--choice=-5", "--count=1"], ["--min=-1", "--count=1"]] {
        let out = std::process::Command::new(cli).arg("openings").args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--min") || err.contains("--choice"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn the_game_log_replays_to_the_result_it_records() {
    use fanorona_engine::{Game, GameResult, Rules, Side, Turn};
    let dir = std::env::temp_dir().join(format!("fanorona-sprt-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "d2-e3A, g4-g5W g5-f4A, e1-d2A, b5-b4A, d2-c3A c3-b2W\n").unwrap();
    let log = dir.join("games.txt");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_fanorona-cli"))
        .args(["sprt", "--a", "max,notb", "--b", "baseline", "--nodes", "2000", "--max-pairs", "2", "--threads", "1"])
        .args(["--hash", "4"])
        .arg("--book")
        .arg(&book)
        .arg("--games")
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "two pairs of games: {text}");
    let mut colours = Vec::new();
    for line in &lines {
        let (head, turns) = line.split_once(" |").unwrap_or_else(|| panic!("no turns in {line:?}"));
        let words: Vec<&str> = head.split_whitespace().collect();
        colours.push(words[2].to_string());
        let points: f64 = words[4].parse().unwrap();
        let count: usize = words[8].parse().unwrap();
        let mut game = Game::new(Rules::default());
        for t in turns.split(';').map(str::trim).filter(|t| !t.is_empty()) {
            let turn: Turn = t.parse().unwrap_or_else(|e| panic!("{t:?}: {e:?}"));
            game.play_turn(&turn).unwrap_or_else(|e| panic!("{t:?} is not legal: {e:?}"));
        }
        assert_eq!(game.turns().len(), count, "{line}");
        let a_white = words[2] == "A=white";
        let (a, b) = if a_white { (Side::White, Side::Black) } else { (Side::Black, Side::White) };
        assert_eq!(words[11].parse::<u32>().unwrap(), game.position().count(a), "{line}");
        assert_eq!(words[13].parse::<u32>().unwrap(), game.position().count(b), "{line}");
        let expected = match game.outcome().map(|o| o.result()) {
            Some(GameResult::Win(s)) => f64::from(u8::from(s == a)),
            _ => 0.5,
        };
        assert_eq!(points, expected, "{line}");
        assert_eq!(words[6] == "limit" || words[6] == "failure", game.outcome().is_none(), "{line}");
        assert_ne!(words[6], "failure", "no engine failed: {line}");
    }
    colours.sort();
    assert_eq!(colours, ["A=black", "A=black", "A=white", "A=white"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sampled_endgames_make_a_book_and_bad_material_is_an_error() {
    let dir = std::env::temp_dir().join(format!("fanorona-sample-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sample = |material: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fanorona-cli"))
            .args(["tablebase", "sample", "--material", material, "--count", "6", "--seed", "3", "--dir"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let out = sample("2v2");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let book = Openings::parse(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(book.openings.len(), 6, "{text}");
    assert!(
        book.starts.iter().all(|p| p.count(fanorona_engine::Side::White) + p.count(fanorona_engine::Side::Black) == 4)
    );
    for bad in ["2x2", "0v3", "4v3", "v2"] {
        let out = sample(bad);
        assert!(!out.status.success(), "{bad} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("material") && !err.contains("panicked"), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn spsa_tunes_within_bounds_and_refuses_bad_parameters() {
    let cli = env!("CARGO_BIN_EXE_fanorona-cli");
    let dir = std::env::temp_dir().join(format!("fanorona-spsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "d2-e3A, g4-g5W g5-f4A\nf2-e3A, c3-d4W\n").unwrap();
    let out = std::process::Command::new(cli)
        .args(["spsa", "--base", "max,notb", "--param", "capgain,100,90,110,5,0.5", "--param", "delta,0,0,50,10,0.5"])
        .args(["--pairs", "3", "--nodes", "500", "--threads", "2", "--every", "1"])
        .arg("--book")
        .arg(&book)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().filter(|l| l.starts_with("pairs ")).count(), 3, "{text}");
    let options = text.lines().find_map(|l| l.strip_prefix("options: ")).unwrap_or_else(|| panic!("{text}"));
    let value = |name: &str| -> i64 {
        let item = options.split(',').find_map(|o| o.strip_prefix(&format!("{name}="))).unwrap();
        item.parse().unwrap()
    };
    assert!(options.starts_with("max,notb,"), "{options}");
    assert!((90..=110).contains(&value("capgain")) && (0..=50).contains(&value("delta")), "{options}");
    std::fs::remove_dir_all(&dir).ok();

    for bad in ["capgain,100,90,110,5", "capgain,200,90,110,5,0.5", "nosuch,1,0,2,1,0.5"] {
        let out = std::process::Command::new(cli).args(["spsa", "--param", bad]).output().unwrap();
        assert!(!out.status.success(), "{bad} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(bad) && !err.contains("panicked"), "{bad}: {err}");
    }
}

/// The engine program behind a shell script that appends what it is sent to a file, in a fresh folder named after
/// `test`: the folder, the script and the file.
fn logged_engine(test: &str) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("fanorona-sprt-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sent = dir.join("sent.txt");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{}' | FANORONA_TB_PIECES=4 FANORONA_TB_DIR='{}' '{}' engine\n",
            sent.display(),
            dir.display(),
            env!("CARGO_BIN_EXE_fanorona-cli")
        ),
    )
    .unwrap();
    (dir, script, sent)
}

#[test]
fn time_odds_give_each_engine_its_own_limits() {
    // B is the engine program behind a script that keeps what it is sent, so the test reads B's `go` lines.
    let (dir, script, sent) = logged_engine("odds");
    let book = Openings::parse("f2-e3A, c3-d4W, g3-f2W, g4-g3A, d2-c3A c3-b2W\n").unwrap_or_else(|e| panic!("{e}"));
    let mut cfg = config("max", &format!("exe:sh {}", script.display()), 1);
    cfg.limits_b = Some(Limits::nodes(777));
    let (_, state) = run(&cfg, &book, |_| {});
    assert_eq!(state.wins + state.draws + state.losses, 2);
    let text = std::fs::read_to_string(&sent).unwrap();
    let goes: Vec<&str> = text.lines().filter(|l| l.starts_with("go")).collect();
    assert!(!goes.is_empty(), "B was never asked to play: {text}");
    assert!(goes.iter().all(|g| *g == "go nodes 777"), "B searched with A's limits: {goes:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_pondering_program_is_told_its_ponderhits_and_misses() {
    // A program that ponders, behind a script that keeps what it is sent, against a search in this process.
    let (dir, script, sent) = logged_engine("ponder");
    let book = Openings::parse(
        "f2-e3A, c3-d4W, g3-f2W, g4-g3A, d2-c3A c3-b2W\nd2-e3A, g4-g5W g5-f4A, e1-d2A, b5-b4A, d2-c3A c3-b2W\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut cfg = config(&format!("exe-ponder:sh {}", script.display()), "max,notb", 2);
    cfg.max_turns = 40;
    let (_, state) = run(&cfg, &book, |_| {});
    assert_eq!(state.wins + state.draws + state.losses, 4);
    let text = std::fs::read_to_string(&sent).unwrap();
    let count = |what: &str| text.lines().filter(|l| l.starts_with(what)).count();
    assert_eq!(count("setoption name Ponder value true"), 1, "{text}");
    let (ponders, hits, stops) = (count("go ponder nodes 3000"), count("ponderhit"), count("stop"));
    assert!(ponders >= 4, "it pondered {ponders} times: {text}");
    assert!(hits >= 1, "no reply was ever the one it expected: {text}");
    // Each ponder search ends once: by its hit, by a stop (another reply, or the game's end), or by the quit.
    assert!(hits + stops <= ponders && ponders <= hits + stops + 1, "{ponders} ponders, {hits} hits, {stops} stops");
    std::fs::remove_dir_all(&dir).ok();
}
