//! `fanorona-cli tablebase build --pieces 7` and `tablebase verify` on the 5 × 5 board (seconds, where the 9 × 5
//! board takes ten minutes): the compact table is built, passes every check, and a damaged file fails them.

use std::process::Command;

/// Runs `fanorona-cli` with `args`.
fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona-cli")).args(args).output().unwrap()
}

#[test]
fn the_compact_table_is_built_verified_and_a_damaged_one_fails() {
    let dir = std::env::temp_dir().join(format!("fanorona-seven-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let out = cli(&["tablebase", "build", "--pieces", "7", "--variant", "dimy", "--dir", d]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("longest win of seven pieces: 43 turns"), "{text}");
    let files: Vec<_> = ["4v3", "5v2", "6v1"].iter().map(|p| dir.join(format!("fanorona-dimy-7-{p}.tbc"))).collect();
    assert!(files.iter().all(|f| f.exists()), "{text}");
    let verify =
        || cli(&["tablebase", "verify", "--variant", "dimy", "--dir", d, "--sample", "3000", "--brute", "300"]);
    let out = verify();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(", 0 disagree"), "{text}");
    assert!(text.contains("3000 of 3000 random positions consistent"), "{text}");
    assert!(text.contains("all: 42827774 5161976 12578450 (60568200 positions)"), "{text}");
    // A flipped bit in the last block of a file: the check of every block names it and the command fails.
    let mut bytes = std::fs::read(&files[2]).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 0x40;
    std::fs::write(&files[2], &bytes).unwrap();
    let out = verify();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("FAILED blocks: class") && text.contains("damaged"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
