//! `fanorona-cli ceiling` end to end: a book's openings judged by a search from their ends, the counts and the
//! ceiling they give, and clear errors for bad arguments and books.

mod common;

use common::Scratch;
use std::process::{Command, Output};

/// Runs the CLI with its tables in `dir` (the small ones these endings need, never the user's cache).
fn cli(dir: &Scratch, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona-cli"))
        .args(args)
        .env("FANORONA_TB_DIR", &dir.0)
        .env("FANORONA_TB_PIECES", "4")
        .output()
        .unwrap()
}

#[test]
fn a_book_is_judged_opening_by_opening_with_its_ceiling() {
    let dir = Scratch::new("ceiling", "judged");
    let book = dir.0.join("book.txt");
    // Won for White with either side to move, a drawn two against two, and a first turn from the start.
    std::fs::write(&book, "# four openings\nfen 8B/9/9/9/WW7 w\nfen 8B/9/9/9/WW7 b\nfen W8/6W2/9/9/4B3B w\nd2-e3A\n")
        .unwrap();
    let out = cli(&dir, &["ceiling", "--book", book.to_str().unwrap(), "--depth", "4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].starts_with("1 decided for white: "), "{text}");
    assert!(lines[1].starts_with("2 decided for white: "), "{text}");
    assert!(lines[2].starts_with("3 drawn: 0 for White"), "{text}");
    assert!(lines[3].starts_with("4 open: "), "{text}");
    assert_eq!(
        lines[4], "4 openings (depth 4, decided at 300): 1 drawn, 2 decided, 1 open; ceiling 5 of 8 points (62.5%)",
        "{text}"
    );
}

#[test]
fn bad_arguments_and_books_are_clear_errors() {
    let dir = Scratch::new("ceiling", "errors");
    let book = dir.0.join("book.txt");
    std::fs::write(&book, "d2-e3A\nd2-e3A, z9-z8A\n").unwrap();
    let book = book.to_str().unwrap();
    for (args, says) in [
        (vec!["ceiling", "--book", book, "--depth", "2"], "line 2: turn 2"),
        (vec!["ceiling", "--depth", "2", "--decided", "0"], "--decided 0 must be above 0"),
        (vec!["ceiling"], "give --depth N or --time MS"),
        (vec!["ceiling", "--book", "/nonexistent/book.txt", "--depth", "2"], "cannot read /nonexistent/book.txt"),
    ] {
        let out = cli(&dir, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(says) && !err.contains("panicked"), "{args:?}: {err}");
    }
}
