//! Tablebase build timings and longest wins, through the public API. Ignored by default (slow outside release):
//! `cargo test --release -p fanorona-engine --test tablebase -- --ignored --nocapture`;
//! `TB_MAX_PIECES=<n>` sets the largest table (default 5), `TB_VARIANT=dimy` the board.

use fanorona_engine::tablebase::{Tablebase, TbValue};
use fanorona_engine::{Position, Variant};
use std::time::Instant;

/// Plays the position out with the table's best turns for both sides and returns the turns in notation.
fn principal_line(tb: &Tablebase, pos: &Position) -> Vec<String> {
    let mut p = *pos;
    let mut line = Vec::new();
    while let Some((turn, _)) = tb.best_turn(&p) {
        if tb.probe(&p).is_some_and(TbValue::is_draw) || line.len() > 300 {
            break;
        }
        line.push(turn.to_string());
        p.play_turn(&turn).expect("the table's turn is legal");
    }
    line
}

#[test]
#[ignore = "slow: builds tables up to 5 pieces; run in release"]
fn build_timings_and_longest_wins() {
    let max: u32 = std::env::var("TB_MAX_PIECES").ok().and_then(|s| s.parse().ok()).unwrap_or(5);
    let variant = match std::env::var("TB_VARIANT").as_deref() {
        Ok("dimy") => Variant::Dimy,
        _ => Variant::Tsivy,
    };
    for n in 2..=max {
        let t = Instant::now();
        let tb = Tablebase::build(variant, n, |s| eprintln!("  {s}"));
        let secs = t.elapsed().as_secs_f64();
        let (d, pos) = tb.longest_win().expect("some position is won");
        assert_eq!(tb.probe(&pos), Some(TbValue::Win(d)));
        let line = principal_line(&tb, &pos);
        assert_eq!(line.len() as u32, d, "best play ends the game in exactly the table's distance");
        println!("{variant} ≤{n} pieces: {} entries, built in {secs:.2} s", tb.entries());
        println!("  longest win: {d} turns from {}: {}", pos.to_fen(), line.join(" | "));
    }
}
