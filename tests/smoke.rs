//! Smoke test of the real binary: a short CPU-vs-CPU demo under Xvfb with software rendering must print its turns,
//! exit with code 0 and leave a screenshot that is not blank. Skipped (passes) where `xvfb-run` is missing.

use std::collections::HashSet;
use std::process::{Command, Stdio};
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
