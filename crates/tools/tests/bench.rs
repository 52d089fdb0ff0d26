//! `fanorona-cli bench --depths --fens FILE`: the depth report over the positions of a file, and a clear error
//! for a file that is not one.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs the depth report over `fens`, written to a file in a folder of its own (tests run at once) that is
/// removed afterwards.
fn bench_with(fens: &str) -> std::process::Output {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fanorona-bench-test-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fens.txt");
    std::fs::write(&file, fens).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fanorona-cli"))
        .args(["bench", "--depths", "--max-depth", "6", "--hash", "1", "--fens"])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    out
}

#[test]
fn the_depth_report_covers_each_position_of_the_file() {
    let out = bench_with("# two endgames\n9/4B4/9/2W3W2/9 w\n\n1B5B1/9/2B3W2/9/1W5W1 w  # a comment\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("9/4B4/9/2W3W2/9 w"), "{text}");
    assert!(text.contains("1B5B1/9/2B3W2/9/1W5W1 w"), "{text}");
    assert!(text.contains("d6 2/2 reached"), "{text}");
}

#[test]
fn a_bad_line_is_named_and_nothing_runs() {
    let out = bench_with("9/4B4/9/2W3W2/9 w\n9/4B4/9/2W3W2 w\n");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":2:"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    let empty = bench_with("# nothing\n");
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no positions"));
}
