//! Smoke tests of the real binary under Xvfb with software rendering: a short CPU-vs-CPU demo must print its turns,
//! exit with code 0 and leave a screenshot that is not blank; a resumed game that the CPU wins at once must show
//! its game-over window with nobody touching the window. Skipped (pass) where `xvfb-run` is missing.

use fanorona::play::referee::{MatchSetup, Player};
use fanorona::save::persist::SavedGame;
use fanorona::save::storage::Storage;
use fanorona_engine::levels::Level;
use fanorona_engine::record::Record;
use std::collections::HashSet;
use std::io::BufRead;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn has_xvfb() -> bool {
    Command::new("sh").args(["-c", "command -v xvfb-run"]).stdout(Stdio::null()).status().is_ok_and(|s| s.success())
}

#[test]
fn demo_under_xvfb_prints_turns_and_saves_a_screenshot() {
    if !has_xvfb() {
        eprintln!(
            "skipped: xvfb-run is not installed (apt-get install xvfb xauth mesa-vulkan-drivers libgl1-mesa-dri)"
        );
        return;
    }
    let dir = std::env::temp_dir().join(format!("fanorona-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("shot.png");
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_fanorona")])
        .args(["--demo", "--max-turns", "6", "--seed", "5", "--screenshot"])
        .arg(&shot)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xvfb-run starts");
    // Software rendering on a busy machine is slow, but a hang must still fail the test.
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the demo did not exit within 300 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "exit status {status}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    let turns: Vec<&str> = stdout.lines().filter(|l| l.starts_with("turn ")).collect();
    assert!(
        turns.len() == 6 || stdout.lines().any(|l| l.starts_with("result ")),
        "expected 6 turns or a result:\n{stdout}"
    );
    for (i, line) in turns.iter().enumerate() {
        let parts: Vec<&str> = line.splitn(4, ' ').collect();
        assert_eq!(parts[1], (i + 1).to_string(), "{line}");
        assert!(parts[2] == "white" || parts[2] == "black", "{line}");
        assert!(parts.len() == 4 && !parts[3].is_empty(), "{line}");
    }
    let file =
        std::fs::File::open(&shot).unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let colours: HashSet<&[u8]> = bytes.chunks(channels).collect();
    assert!(info.width >= 640 && info.height >= 400, "{}x{}", info.width, info.height);
    // A blank or single-colour window has a handful of colours; the board, stones and text have hundreds.
    assert!(colours.len() > 200, "the screenshot looks blank: {} colours", colours.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The reproduction in a real window: a saved game in which the CPU (Black) takes White's last piece on its
/// first turn, resumed at start; nobody moves the mouse or presses a key. The game-over screen must come within a
/// few seconds of the result, not at the idle loop's minute-long wake-up.
#[test]
fn a_resumed_game_the_cpu_wins_shows_its_game_over_window_untouched() {
    if !has_xvfb() {
        eprintln!("skipped: xvfb-run is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let game = Record::load("[Variant \"9x5\"]\n[Result \"*\"]\n[Start \"9/9/4B4/9/4W4 b\"]\n").expect("a record");
    let setup = MatchSetup {
        rules: *game.rules(),
        players: [Player::Human, Player::Cpu(Level::Intermediate)],
        seed: 1,
        vela_match: false,
    };
    Storage::in_dir(dir.path()).save(&SavedGame::new(&game, &setup)).expect("the save is written");
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24", env!("CARGO_BIN_EXE_fanorona"), "--data-dir"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // A group of its own, so that Xvfb and the game end with xvfb-run below.
        .process_group(0)
        .spawn()
        .expect("xvfb-run starts");
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send((Instant::now(), line));
        }
    });
    let mut seen = Vec::new();
    let mut result_at = None;
    let deadline = Instant::now() + Duration::from_secs(240);
    let outcome = loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok((at, line)) => {
                if line.starts_with("result ") {
                    result_at = Some(at);
                }
                let done = line == "screen GameOver";
                seen.push(line);
                if done {
                    break Ok(result_at.map(|r| at.duration_since(r)));
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break Err("the game exited"),
        }
        if result_at.is_some_and(|r| r.elapsed() > Duration::from_secs(30)) {
            break Err("no game-over screen 30 s after the result");
        }
        if Instant::now() > deadline {
            break Err("no result within 240 s");
        }
    };
    // dash's kill takes a negative number as a process group (and refuses "--" before it).
    let _ = Command::new("sh").args(["-c", &format!("kill -TERM -{}", child.id())]).status();
    let _ = child.kill();
    let _ = child.wait();
    let waited = outcome.unwrap_or_else(|e| panic!("{e}; the game printed:\n{}", seen.join("\n")));
    let waited = waited.expect("the result came before the game-over screen");
    // The capture's animation and the pause before the window take about two seconds at normal speed.
    assert!(waited < Duration::from_secs(10), "the game-over screen came {waited:?} after the result");
}
