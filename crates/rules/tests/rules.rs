//! Rules conformance tests: hand-built positions for every rule of RULES.md, with every expected turn list worked out
//! by hand from the rules (boards drawn in the comments, rank 5 at the top, `W`/`B` pieces, `.` empty points).

use fanorona_rules::geometry::parse_point;
use fanorona_rules::turns::IllegalTurn;
use fanorona_rules::{
    DrawReason, DrawRule, Game, GameError, GameResult, IllegalReason, Outcome, Position, RelayRule, Rules, Side, Step,
    StepKind, Turn, Variant, Vela,
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn pos_with(fen: &str, rules: Rules) -> Position {
    Position::from_fen_with_rules(fen, &rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn pt(name: &str) -> u8 {
    parse_point(name).unwrap_or_else(|| panic!("bad point {name}"))
}

/// A bitboard of the named points.
fn bb(names: &[&str]) -> u64 {
    names.iter().fold(0, |acc, n| acc | 1 << pt(n))
}

fn step(s: &str) -> Step {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn turn(s: &str) -> Turn {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal turns of a position in notation, sorted.
fn turn_names(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_turns().iter().map(|t| t.to_string()).collect();
    v.sort();
    v
}

/// Asserts the exact set of legal turns (no duplicates, nothing missing, nothing extra).
#[track_caller]
fn assert_turns(p: &Position, expected: &[&str]) {
    let mut e: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    e.sort();
    assert_eq!(turn_names(p), e, "legal turns of {}", p.to_fen());
}

/// Plays a whole turn, panicking if it is illegal; returns the pieces it captured.
#[track_caller]
fn play(p: &mut Position, t: &str) -> u64 {
    let effects = p.play_turn(&turn(t)).unwrap_or_else(|e| panic!("{t} in {}: {e}", p.to_fen()));
    effects.iter().fold(0, |acc, e| acc | e.captured)
}

/// Plays one step with `try_step`, panicking if it is illegal.
#[track_caller]
fn play_step(p: &mut Position, s: &str) -> fanorona_rules::StepEffect {
    p.try_step(step(s)).unwrap_or_else(|e| panic!("{s} in {}: {e}", p.to_fen()))
}

const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
const DIMY_START: &str = "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w";

// R1: a four-capture relay that goes East, North, East again (an earlier direction reused), then North-West.
//   5 . . . . B . . . .
//   4 . . . . . . B . .
//   3 . . B W . . B . .
//   2 . . . . . . . . .
//   1 . . . . . . . . .
// d3 is weak, so its only capture is d3-e3W (withdrawing from c3; b3 is empty so only c3 goes). From e3 (previous
// direction East): e3-f3 would approach g3 but repeats East; e3-d3 is the start point; e3-e4A takes e5; nothing else
// captures. From e4 (previous North): e4-f4A takes g4 (h4 empty); e4-e5 repeats North; e4-e3/d3 are visited. From f4
// (previous East): f4-e5W withdraws from g3; f4-g4 repeats East, f4-e4/e3 are visited, f4-g3 is occupied. Then Black
// has no piece left and the turn ends.
const R1: &str = "4B4/6B2/2BW2B2/9/9 w";
const R1_TURNS: [&str; 4] = ["d3-e3W", "d3-e3W e3-e4A", "d3-e3W e3-e4A e4-f4A", "d3-e3W e3-e4A e4-f4A f4-e5W"];

// R2: approach and withdrawal from the same first step, and a revisit of the start point.
//   5 . . . . . B . . .
//   4 . . . . . . . . .
//   3 . . . B W . B . .
//   2 . . . . . . . . .
//   1 . . . . . . . . .
// e3-f3 approaches g3 or withdraws from d3 (two turns). Every other step of e3 has no enemy beyond or behind it.
// After e3-f3A (g3 gone): f3 is weak; f3-e3 would approach d3 but e3 is the start point; f3-f4A takes f5; then f4
// has nothing (d3 can only be taken from e3, visited). After e3-f3W (d3 gone): f3-e3 would withdraw from g3 but lands
// on the start point; f3-f4A takes f5; then f4-e5W withdraws from g3 (e5 not yet visited) and Black has no pieces.
const R2: &str = "5B3/9/3BW1B2/9/9 w";
const R2_TURNS: [&str; 5] = ["e3-f3A", "e3-f3A f3-f4A", "e3-f3W", "e3-f3W f3-f4A", "e3-f3W f3-f4A f4-e5W"];

// ---------------------------------------------------------------------------------------------------------------
// Board and start positions
// ---------------------------------------------------------------------------------------------------------------

/// Start of Fanoron-Tsivy: 22 pieces each, rank 3 = B W B W . B W B W. The only empty point is e3; the White pieces
/// next to it are d3 (E), d2 (NE), e2 (N) and f2 (NW). d3-e3 approaches f3 (g3 is White: f3 only) or withdraws from
/// c3 (b3 is White: c3 only); d2-e3A takes f4 and g5; e2-e3A takes e4, e5; f2-e3A takes d4, c5. None relays: the
/// only empty points next to e3 afterwards are the visited origin or the captured point in the same direction.
#[test]
fn tsivy_start_has_exactly_five_single_step_turns() {
    let p = Position::start(&Rules::default());
    assert_eq!(p.to_fen(), START);
    assert_eq!(p, pos(START));
    assert_eq!(p.count(Side::White), 22);
    assert_eq!(p.count(Side::Black), 22);
    assert_eq!(p.side_to_move(), Side::White);
    assert_turns(&p, &["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]);
    assert!(p.legal_turns().iter().all(|t| t.len() == 1));

    let cases: [(&str, &[&str]); 5] = [
        ("d2-e3A", &["f4", "g5"]),
        ("d3-e3A", &["f3"]),
        ("d3-e3W", &["c3"]),
        ("e2-e3A", &["e4", "e5"]),
        ("f2-e3A", &["d4", "c5"]),
    ];
    for (t, taken) in cases {
        let mut q = p;
        assert_eq!(play(&mut q, t), bb(taken), "{t}");
        assert_eq!(q.side_to_move(), Side::Black, "{t}");
        assert_eq!(q.count(Side::Black), 22 - taken.len() as u32);
    }
}

/// Start of Fanoron-Dimy: 12 pieces each, rank 3 = B W . B W; the empty centre is c3. b3-c3 approaches d3 (e3 is
/// White) or withdraws from a3 (edge); b2-c3A takes d4, e5; c2-c3A takes c4, c5; d2-c3A takes b4, a5.
#[test]
fn dimy_start_has_twelve_pieces_each_and_five_turns() {
    let rules = Rules { variant: Variant::Dimy, ..Rules::default() };
    let p = Position::start(&rules);
    assert_eq!(p.variant(), Variant::Dimy);
    assert_eq!(p.to_fen(), DIMY_START);
    assert_eq!(p, pos(DIMY_START));
    assert_eq!(p.count(Side::White), 12);
    assert_eq!(p.count(Side::Black), 12);
    assert_eq!(p.piece_at(pt("c3")), None);
    assert_turns(&p, &["b2-c3A", "b3-c3A", "b3-c3W", "c2-c3A", "d2-c3A"]);
    let mut q = p;
    assert_eq!(play(&mut q, "b3-c3W"), bb(&["a3"]));
    let mut q = p;
    assert_eq!(play(&mut q, "b3-c3A"), bb(&["d3"]));
    let mut q = p;
    assert_eq!(play(&mut q, "b2-c3A"), bb(&["d4", "e5"]));
}

/// Who starts: White by default, Black with `first_player`. With Black first, the Black pieces next to e3 are f3 (W),
/// d4 (SE), e4 (S) and f4 (SW): f3-e3 approaches d3 (c3 is Black) or withdraws from g3 (h3 is Black).
#[test]
fn first_player_setting() {
    assert_eq!(Rules::default().first_player, Side::White);
    assert_eq!(Game::new(Rules::default()).position().side_to_move(), Side::White);
    let rules = Rules { first_player: Side::Black, ..Rules::default() };
    assert_eq!(rules.starting_side(), Side::Black);
    let g = Game::new(rules);
    let p = *g.position();
    assert_eq!(p.side_to_move(), Side::Black);
    assert_eq!(p.to_fen(), "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b");
    assert_turns(&p, &["d4-e3A", "e4-e3A", "f3-e3A", "f3-e3W", "f4-e3A"]);
    let mut q = p;
    assert_eq!(play(&mut q, "f4-e3A"), bb(&["d2", "c1"]));
    assert_eq!(q.side_to_move(), Side::White);
}

// ---------------------------------------------------------------------------------------------------------------
// Capture: approach, withdrawal, the captured run, the choice
// ---------------------------------------------------------------------------------------------------------------

/// Approach; the run stops at the first empty point.
///   3 . . W . B B . B .
/// c3-d3A takes e3 and f3; g3 is empty so h3 stays. No other step of c3 has an enemy beyond or behind it.
#[test]
fn approach_captures_run_up_to_empty_point() {
    let mut p = pos("9/9/2W1BB1B1/9/9 w");
    assert_turns(&p, &["c3-d3A"]);
    assert_eq!(play(&mut p, "c3-d3A"), bb(&["e3", "f3"]));
    assert_eq!(p.to_fen(), "9/9/3W3B1/9/9 b");
}

/// The run stops at an own piece.
///   3 . . W . B B W B .
/// c3-d3A takes e3, f3 but not h3 (behind White's g3). g3 has no capture: f3 and h3 are occupied, so it cannot
/// withdraw from either, and nothing lies two points away.
#[test]
fn approach_run_stops_at_own_piece() {
    let mut p = pos("9/9/2W1BBWB1/9/9 w");
    assert_turns(&p, &["c3-d3A"]);
    assert_eq!(play(&mut p, "c3-d3A"), bb(&["e3", "f3"]));
    assert_eq!(p.piece_at(pt("h3")), Some(Side::Black));
}

/// The run stops at the board edge, and never wraps onto the next rank (i3 is followed by a4 in bit order).
///   4 B . . . . . . . .
///   3 . . . . W . B B B
#[test]
fn approach_run_stops_at_edge_without_wrapping() {
    let mut p = pos("9/B8/4W1BBB/9/9 w");
    assert_turns(&p, &["e3-f3A"]);
    assert_eq!(play(&mut p, "e3-f3A"), bb(&["g3", "h3", "i3"]));
    assert_eq!(p.to_fen(), "9/B8/5W3/9/9 b");
}

/// Withdrawal; the run goes away from the mover and stops at an own piece.
///   5 . . . . . . . . B
///   3 W B B W . . . . .
/// d3 (weak) moves east to e3, withdrawing from c3 and b3 (a3 is White). Afterwards e3 cannot reach i5.
#[test]
fn withdrawal_captures_run_behind_origin() {
    let mut p = pos("8B/9/WBBW5/9/9 w");
    assert_turns(&p, &["d3-e3W"]);
    assert_eq!(play(&mut p, "d3-e3W"), bb(&["c3", "b3"]));
    assert_eq!(p.to_fen(), "8B/9/W3W4/9/9 b");
}

/// A diagonal approach along strong points, and a diagonal withdrawal.
///   3 . . . . B . . . .
///   1 . . W . . . . . .
/// c1 (strong) to d2 approaches e3 (f4 empty).
#[test]
fn diagonal_capture_along_strong_points() {
    let mut p = pos("9/9/4B4/9/2W6 w");
    assert_turns(&p, &["c1-d2A"]);
    assert_eq!(play(&mut p, "c1-d2A"), bb(&["e3"]));
    // Withdrawal diagonally: e3 (strong) moves SW to d2 away from f4; g5 is behind f4 on the same diagonal.
    //   5 . . . . . . B . .
    //   4 . . . . . B . . .
    //   3 . . . . W . . . .
    // e3's other steps find nothing: e.g. e3-d4 would withdraw from f2 (empty).
    let mut p = pos("6B2/5B3/4W4/9/9 w");
    assert_turns(&p, &["e3-d2W"]);
    assert_eq!(play(&mut p, "e3-d2W"), bb(&["f4", "g5"]));
}

/// Approach and withdrawal from the same step are two separate turns; never both at once.
///   3 . . . B W . B . .
/// e3-f3 approaches g3 or withdraws from d3. After either, f3 (weak) could only capture the other piece by going
/// back to e3, the start point, so neither relays.
#[test]
fn approach_or_withdrawal_is_a_choice() {
    let p = pos("9/9/3BW1B2/9/9 w");
    assert_turns(&p, &["e3-f3A", "e3-f3W"]);
    let mut a = p;
    assert_eq!(play(&mut a, "e3-f3A"), bb(&["g3"]));
    assert_eq!(a.piece_at(pt("d3")), Some(Side::Black));
    assert_eq!(a.to_fen(), "9/9/3B1W3/9/9 b");
    let mut w = p;
    assert_eq!(play(&mut w, "e3-f3W"), bb(&["d3"]));
    assert_eq!(w.piece_at(pt("g3")), Some(Side::Black));
    assert_eq!(w.to_fen(), "9/9/5WB2/9/9 b");
    // The two captures are different steps: the list holds exactly these two, one per kind.
    let steps: Vec<Step> = p.steps().iter().copied().collect();
    assert_eq!(steps.len(), 2);
    assert!(steps.iter().any(|s| s.kind == StepKind::Approach));
    assert!(steps.iter().any(|s| s.kind == StepKind::Withdrawal));
}

// ---------------------------------------------------------------------------------------------------------------
// Compulsory capture and paika
// ---------------------------------------------------------------------------------------------------------------

/// Capturing is compulsory: a1 has paika steps, but e3 can capture, so every paika step is illegal.
///   3 . . . . W . B . .
///   1 W . . . . . . . .
#[test]
fn capture_is_compulsory() {
    let p = pos("9/9/4W1B2/9/W8 w");
    assert_turns(&p, &["e3-f3A"]);
    for s in ["a1-a2", "a1-b1", "a1-b2", "e3-e4", "e3-d3", "e3-f3"] {
        assert_eq!(p.check_step(step(s)), Err(IllegalReason::CaptureCompulsory), "{s}");
    }
    let mut q = p;
    let err = q.play_turn(&turn("a1-a2")).unwrap_err();
    assert_eq!(err, IllegalTurn::Step { index: 0, step: step("a1-a2"), reason: IllegalReason::CaptureCompulsory });
    assert_eq!(q, p, "an illegal turn leaves the position unchanged");
}

/// Paika only when no capture exists: one piece one step to an adjacent empty point.
#[test]
fn paika_when_no_capture() {
    // a1 (strong corner): a2, b1, b2.
    let p = pos("8B/9/9/9/W8 w");
    assert_turns(&p, &["a1-a2", "a1-b1", "a1-b2"]);
    assert_eq!(p.check_step(step("a1-a2A")), Err(IllegalReason::NothingToCapture));
    assert_eq!(p.check_step(step("a1-b2W")), Err(IllegalReason::NothingToCapture));
    let mut q = p;
    assert_eq!(play(&mut q, "a1-b2"), 0);
    assert_eq!(q.to_fen(), "8B/9/9/1W7/9 b");
    // Centre e3 (strong): all eight neighbours.
    let p = pos("8B/9/4W4/9/9 w");
    assert_turns(&p, &["e3-d2", "e3-d3", "e3-d4", "e3-e2", "e3-e4", "e3-f2", "e3-f3", "e3-f4"]);
    // A paika step may not land on a piece.
    let p = pos("8B/9/4WW3/9/9 w");
    assert_eq!(p.check_step(step("e3-f3")), Err(IllegalReason::Occupied(pt("f3"))));
}

// ---------------------------------------------------------------------------------------------------------------
// Geometry: weak points and edges
// ---------------------------------------------------------------------------------------------------------------

/// No diagonal steps or captures from weak points.
#[test]
fn weak_points_have_no_diagonals() {
    // b1 is weak: b1-c2 would approach d3 along a diagonal that does not exist.
    //   3 . . . B . . . . .
    //   1 . W . . . . . . .
    let p = pos("9/9/3B5/9/1W7 w");
    assert_turns(&p, &["b1-a1", "b1-b2", "b1-c1"]);
    assert_eq!(p.check_step(step("b1-c2A")), Err(IllegalReason::NotJoined));
    assert_eq!(p.check_step(step("b1-c2")), Err(IllegalReason::NotJoined));
    assert_eq!(p.check_step(step("b1-a2")), Err(IllegalReason::NotJoined));

    // a2 is weak: a2-b3 would approach c4.
    //   4 . . B . . . . . .
    //   2 W . . . . . . . .
    let p = pos("9/2B6/9/W8/9 w");
    assert_turns(&p, &["a2-a1", "a2-a3", "a2-b2"]);
    assert_eq!(p.check_step(step("a2-b3A")), Err(IllegalReason::NotJoined));

    // c2 is weak: c2-b1 would withdraw from d3 along a diagonal that does not exist.
    //   3 . . . B . . . . .
    //   2 . . W . . . . . .
    let p = pos("9/9/3B5/2W6/9 w");
    assert_turns(&p, &["c2-b2", "c2-c1", "c2-c3", "c2-d2"]);
    assert_eq!(p.check_step(step("c2-b1W")), Err(IllegalReason::NotJoined));

    // Black's weak e4 cannot withdraw diagonally from d3 either (e4-f5).
    //   4 . . . . B . . . .
    //   3 . . . W . . . . .
    let p = pos("9/4B4/3W5/9/9 b");
    assert_turns(&p, &["e4-d4", "e4-e3", "e4-e5", "e4-f4"]);
    assert_eq!(p.check_step(step("e4-f5W")), Err(IllegalReason::NotJoined));
}

/// No diagonal capture through weak points: d1, e2 and f3 lie on one "diagonal" in bit order (+10 each), but all three
/// are weak, so there is no line: d1-e2 does not approach f3, and f3-g4 does not withdraw from e2.
///   3 . . . . . B . . .
///   1 . . . W . . . . .
#[test]
fn no_diagonal_capture_through_weak_points() {
    let p = pos("9/9/5B3/9/3W5 w");
    assert_turns(&p, &["d1-c1", "d1-d2", "d1-e1"]);
    assert_eq!(p.check_step(step("d1-e2A")), Err(IllegalReason::NotJoined));
    // Black on f3 cannot withdraw from e2 towards g4 (weak line) either.
    //   3 . . . . . B . . .
    //   2 . . . . W . . . .
    let p = pos("9/9/5B3/4W4/9 b");
    assert_turns(&p, &["f3-e3", "f3-f2", "f3-f4", "f3-g3"]);
    assert_eq!(p.check_step(step("f3-g4W")), Err(IllegalReason::NotJoined));
}

/// No wrap-around between file i and file a (adjacent in bit order) in any direction.
#[test]
fn no_wraparound_at_edges() {
    // White i2 and Black a3: i2-h2 must not withdraw from "i2+1" = a3. i2 is weak.
    //   3 B . . . . . . . .
    //   2 . . . . . . . . W
    let p = pos("9/9/B8/8W/9 w");
    assert_turns(&p, &["i2-h2", "i2-i1", "i2-i3"]);
    assert_eq!(p.check_step(step("i2-h2W")), Err(IllegalReason::NothingToCapture));
    // Black to move: a3-b3 must not withdraw from "a3-1" = i2. a3 is strong.
    let p = pos("9/9/B8/8W/9 b");
    assert_turns(&p, &["a3-a2", "a3-a4", "a3-b2", "a3-b3", "a3-b4"]);
    // White b3 must not approach i2 by b3-a3 ("a3-1" = i2).
    //   3 . W . . . . . . .
    //   2 . . . . . . . . B
    let p = pos("9/9/1W7/8B/9 w");
    assert_turns(&p, &["b3-a3", "b3-b2", "b3-b4", "b3-c3"]);
    // White a3 must not withdraw from i2 by a3-b3.
    let p = pos("9/9/W8/8B/9 w");
    assert_turns(&p, &["a3-a2", "a3-a4", "a3-b2", "a3-b3", "a3-b4"]);
    // i1 + NE in bit order is a3, then b4: no diagonal leaves the board's east edge.
    //   4 . B . . . . . . .
    //   1 . . . . . . . . W
    let p = pos("9/1B7/9/9/8W w");
    assert_turns(&p, &["i1-h1", "i1-h2", "i1-i2"]);
}

/// Fanoron-Dimy geometry: the run stops at file e (the edge), and file e is never joined to file f.
///   3 W . B B B
#[test]
fn dimy_edges() {
    let mut p = pos("5/5/W1BBB/5/5 w");
    assert_eq!(p.variant(), Variant::Dimy);
    assert_turns(&p, &["a3-b3A"]);
    assert_eq!(play(&mut p, "a3-b3A"), bb(&["c3", "d3", "e3"]));
    assert_eq!(p.count(Side::Black), 0);
    // e3 (strong) on 5x5 has only d2, d3, d4, e2, e4.
    let p = pos("B4/5/4W/5/5 w");
    assert_turns(&p, &["e3-d2", "e3-d3", "e3-d4", "e3-e2", "e3-e4"]);
    assert_eq!(p.check_step(step("e3-f3")), Err(IllegalReason::OffBoard(pt("f3"))));
}

// ---------------------------------------------------------------------------------------------------------------
// Relay
// ---------------------------------------------------------------------------------------------------------------

/// A long relay: four captures, the East direction reused after a North step, every stopping point a turn.
#[test]
fn long_relay_reuses_earlier_direction() {
    let p = pos(R1);
    assert_turns(&p, &R1_TURNS);
    let mut q = p;
    assert_eq!(play(&mut q, R1_TURNS[3]), bb(&["c3", "e5", "g4", "g3"]));
    assert_eq!(q.count(Side::Black), 0);
    assert_eq!(q.to_fen(), "4W4/9/9/9/9 b");
}

/// Another long relay, with two branches from the second point.
///   5 . . . . . B . . .
///   4 . . . B B . . . .
///   3 . . . . . . B . .
///   2 . . . . W . . . .
/// e2 (weak) can only go e2-e3A (takes e4; e5 empty). From e3 (previous N): e3-f3A takes g3; e3-f2W withdraws from
/// d4; e3-d4 is occupied, e3-e2 visited, the rest find nothing. After e3-f3A: f3-f4A takes f5, then f4-e4A takes d4
/// (the last piece). After e3-f2W: f2-e1W withdraws from g3 (the same-direction f2-g1 would not capture anyway), then
/// e1 has nothing to reach f5.
#[test]
fn long_relay_with_branches() {
    let p = pos("5B3/3BB4/6B2/4W4/9 w");
    assert_turns(
        &p,
        &[
            "e2-e3A",
            "e2-e3A e3-f2W",
            "e2-e3A e3-f2W f2-e1W",
            "e2-e3A e3-f3A",
            "e2-e3A e3-f3A f3-f4A",
            "e2-e3A e3-f3A f3-f4A f4-e4A",
        ],
    );
    let mut q = p;
    assert_eq!(play(&mut q, "e2-e3A e3-f2W f2-e1W"), bb(&["e4", "d4", "g3"]));
    assert_eq!(q.to_fen(), "5B3/9/9/9/4W4 b");
}

/// Continuing is optional: every stopping point is a turn, and play_turn accepts a relay cut short.
#[test]
fn relay_is_optional() {
    let p = pos(R2);
    assert_turns(&p, &R2_TURNS);
    for t in R2_TURNS {
        let mut q = p;
        play(&mut q, t);
        assert_eq!(q.side_to_move(), Side::Black, "{t}");
        assert!(!q.in_relay(), "{t}");
    }
    let mut q = p;
    assert_eq!(play(&mut q, "e3-f3W"), bb(&["d3"]));
    assert_eq!(q.to_fen(), "5B3/9/5WB2/9/9 b");
}

/// Mid-relay, the position lists the continuations and a stop; stepping in the same direction twice is forbidden.
#[test]
fn relay_same_direction_forbidden() {
    let mut p = pos(R1);
    let e = play_step(&mut p, "d3-e3W");
    assert_eq!(e.captured, bb(&["c3"]));
    assert!(!e.turn_ended);
    assert!(p.in_relay());
    assert_eq!(p.relay_piece(), Some(pt("e3")));
    assert_eq!(p.side_to_move(), Side::White);
    assert_eq!(p.visited(), bb(&["d3", "e3"]));
    let mut names: Vec<String> = p.steps().iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(names, ["e3-e4A", "stop"]);
    // e3-f3A would take g3, but East follows East.
    assert_eq!(p.check_step(step("e3-f3A")), Err(IllegalReason::SameDirection));
    // The start point d3 may not be revisited.
    assert_eq!(p.check_step(step("e3-d3A")), Err(IllegalReason::Revisited(pt("d3"))));
    // Further relay steps must capture, and claim a real capture.
    assert_eq!(p.check_step(step("e3-d4")), Err(IllegalReason::RelayMustCapture));
    assert_eq!(p.check_step(step("e3-e2A")), Err(IllegalReason::NothingToCapture));
    // The remaining completions from here: stop at once, or go on.
    assert_turns(&p, &["", "e3-e4A", "e3-e4A e4-f4A", "e3-e4A e4-f4A f4-e5W"]);
    // Continue North, then East again (allowed: not twice in a row).
    play_step(&mut p, "e3-e4A");
    assert_eq!(p.check_step(step("e4-e5A")), Err(IllegalReason::SameDirection));
    let e = play_step(&mut p, "e4-f4A");
    assert_eq!(e.captured, bb(&["g4"]));
    assert!(!e.turn_ended);
    assert_eq!(p.relay_direction(), Some(fanorona_rules::Direction::East));
    // Stopping ends the turn.
    p.try_step(Step::stop(pt("f4"))).unwrap();
    assert!(!p.in_relay());
    assert_eq!(p.side_to_move(), Side::Black);
    assert_eq!(p.to_fen(), "9/5W3/6B2/9/9 b");
}

/// Withdrawal and approach in the same direction in a row are forbidden even though the approach would capture: after
/// d3-e3W (East) in R1, e3-f3A is not a turn (checked above through the list), and play_turn rejects it.
#[test]
fn relay_same_direction_rejected_by_play_turn() {
    let p = pos(R1);
    let mut q = p;
    let err = q.play_turn(&turn("d3-e3W e3-f3A")).unwrap_err();
    assert_eq!(err, IllegalTurn::Step { index: 1, step: step("e3-f3A"), reason: IllegalReason::SameDirection });
    assert_eq!(q, p);
}

/// A relay may not land on a point it already stood on: the start point (R2) or a later one.
///   5 . . . . . B . . .
///   4 . . . . B . . . .
///   3 . . . B . . B . .
///   2 . . . . W . . . .
/// e2-e3A (e4); then e3-f3A (g3) or e3-f3W (d3); f3-e3 would capture the other but e3 is visited (not the start);
/// f3-f4A (f5); after e3-f3W also f4-e5W (g3).
#[test]
fn relay_may_not_revisit_points() {
    let p = pos(R2);
    let mut q = p;
    let e = play_step(&mut q, "e3-f3W");
    assert!(!e.turn_ended);
    assert_eq!(q.check_step(step("f3-e3W")), Err(IllegalReason::Revisited(pt("e3"))));
    let mut q = p;
    play_step(&mut q, "e3-f3A");
    assert_eq!(q.check_step(step("f3-e3A")), Err(IllegalReason::Revisited(pt("e3"))));

    let p = pos("5B3/4B4/3B2B2/4W4/9 w");
    assert_turns(
        &p,
        &[
            "e2-e3A",
            "e2-e3A e3-f3A",
            "e2-e3A e3-f3A f3-f4A",
            "e2-e3A e3-f3W",
            "e2-e3A e3-f3W f3-f4A",
            "e2-e3A e3-f3W f3-f4A f4-e5W",
        ],
    );
    let mut q = p;
    play_step(&mut q, "e2-e3A");
    play_step(&mut q, "e3-f3A");
    assert_eq!(q.check_step(step("f3-e3A")), Err(IllegalReason::Revisited(pt("e3"))));
    let mut q = p;
    let err = q.play_turn(&turn("e2-e3A e3-f3A f3-e3A")).unwrap_err();
    assert_eq!(err, IllegalTurn::Step { index: 2, step: step("f3-e3A"), reason: IllegalReason::Revisited(pt("e3")) });
}

/// Only the relaying piece may continue.
///   5 . . . . . B . . .
///   3 B . . B W . B . .
///   1 W . . . . . . . .
/// R2 plus a1-a2A (takes a3), which cannot relay (a2 is weak, a2-b2 finds nothing).
#[test]
fn relay_continues_with_the_same_piece_only() {
    let p = pos("5B3/9/B2BW1B2/9/W8 w");
    let mut expected: Vec<&str> = R2_TURNS.to_vec();
    expected.push("a1-a2A");
    assert_turns(&p, &expected);
    let mut q = p;
    play_step(&mut q, "e3-f3W");
    assert_eq!(q.check_step(step("a1-a2A")), Err(IllegalReason::MustContinueWith(pt("f3"))));
    assert_eq!(q.check_step(step("a1-b1")), Err(IllegalReason::MustContinueWith(pt("f3"))));
    assert_eq!(q.check_step(Step::stop(pt("a1"))), Err(IllegalReason::MustContinueWith(pt("f3"))));
    assert!(q.steps().iter().all(|s| s.from == pt("f3")));
    assert_turns(&q, &["", "f3-f4A", "f3-f4A f4-e5W"]);
    let mut q = p;
    let err = q.play_turn(&turn("e3-f3W a1-a2A")).unwrap_err();
    assert_eq!(
        err,
        IllegalTurn::Step { index: 1, step: step("a1-a2A"), reason: IllegalReason::MustContinueWith(pt("f3")) }
    );
}

/// The last enemy piece taken mid-relay ends the turn; the game is won (NoPieces).
#[test]
fn last_piece_taken_mid_relay_ends_game() {
    let mut g = Game::from_position(pos(R2), Rules::default());
    assert!(!g.play_step(step("e3-f3W")).unwrap().turn_ended);
    assert!(!g.play_step(step("f3-f4A")).unwrap().turn_ended);
    let e = g.play_step(step("f4-e5W")).unwrap();
    assert!(e.turn_ended);
    assert_eq!(e.captured, bb(&["g3"]));
    assert_eq!(g.position().count(Side::Black), 0);
    assert_eq!(g.outcome(), Some(Outcome::NoPieces { winner: Side::White }));
    assert_eq!(g.outcome().unwrap().result(), GameResult::Win(Side::White));
    assert_eq!(g.turns().len(), 1);
    assert_eq!(g.turns()[0].to_string(), "e3-f3W f3-f4A f4-e5W");
    assert!(matches!(g.play_step(step("e5-e4")), Err(GameError::Over(_))));
}

/// Turn-level errors: an empty turn, an explicit stop, a step after the turn is over.
#[test]
fn illegal_turn_shapes() {
    let p = pos(START);
    let mut q = p;
    assert_eq!(q.play_turn(&Turn::default()), Err(IllegalTurn::Empty));
    assert_eq!(q.play_turn(&Turn::new(vec![Step::stop(pt("d3"))])), Err(IllegalTurn::ExplicitStop { index: 0 }));
    assert_eq!(q.play_turn(&turn("d3-e3A e3-f3A")), Err(IllegalTurn::TurnOver { index: 1, step: step("e3-f3A") }));
    assert_eq!(q, p);
    // Single-step diagnostics at the start.
    assert_eq!(p.check_step(step("d2-d3")), Err(IllegalReason::Occupied(pt("d3"))));
    assert_eq!(p.check_step(step("d4-e3A")), Err(IllegalReason::NotYourPiece(pt("d4"))));
    assert_eq!(p.check_step(step("e4-e3")), Err(IllegalReason::NotYourPiece(pt("e4"))));
    assert_eq!(p.check_step(Step::stop(pt("d3"))), Err(IllegalReason::NoRelay));
    assert_eq!(p.check_step(step("d3-e3A")), Ok(()));
}

// ---------------------------------------------------------------------------------------------------------------
// Relay option "lines"
// ---------------------------------------------------------------------------------------------------------------

// L: a triangle e3-f3-f4-e3 is possible under "lines" (revisits allowed, segments not).
//   5 . . . . . B . . .
//   4 . . . . . . . . .
//   3 . . . B W . B . .
//   2 . . . B . . . . .
// First steps: e3-f3A (g3), e3-f3W (d3), e3-f4W (withdraws from d2, c1 empty).
const L: &str = "5B3/9/3BW1B2/3B5/9 w";

/// Default relay rule on L: no revisits.
/// e3-f3A: f3-f4A (f5); f4-e3A would take d2 but e3 is visited. e3-f3W: f3-f4A; f4-e5W (g3); e5 cannot reach d2.
/// e3-f4W (d2): f4-f3W (withdraws from f5; then f3-e3 is a revisit) or f4-e5W (g3), e5-d5W (f5), d5-d4A (d3).
#[test]
fn lines_position_under_default_rule() {
    let p = pos(L);
    assert_turns(
        &p,
        &[
            "e3-f3A",
            "e3-f3A f3-f4A",
            "e3-f3W",
            "e3-f3W f3-f4A",
            "e3-f3W f3-f4A f4-e5W",
            "e3-f4W",
            "e3-f4W f4-e5W",
            "e3-f4W f4-e5W e5-d5W",
            "e3-f4W f4-e5W e5-d5W d5-d4A",
            "e3-f4W f4-f3W",
        ],
    );
    // After e3-f3A f3-f4A the turn is over: f4-e3A would take d2 but e3 is visited.
    let mut q = p;
    play_step(&mut q, "e3-f3A");
    assert!(play_step(&mut q, "f3-f4A").turn_ended);
    assert_eq!(q.side_to_move(), Side::Black);
}

/// "lines" on L: the triangle returns to e3 (f4-e3A, f3-e3A/W) but no segment is travelled twice (f3-e3 after
/// e3-f3 is SegmentReused), and the same direction twice stays forbidden.
#[test]
fn lines_rule_allows_revisits_but_not_segments() {
    let rules = Rules { relay: RelayRule::Lines, ..Rules::default() };
    let p = pos_with(L, rules);
    assert_eq!(p.rules().relay, RelayRule::Lines);
    assert_turns(
        &p,
        &[
            "e3-f3A",
            "e3-f3A f3-f4A",
            "e3-f3A f3-f4A f4-e3A",
            "e3-f3W",
            "e3-f3W f3-f4A",
            "e3-f3W f3-f4A f4-e3A",
            "e3-f3W f3-f4A f4-e5W",
            "e3-f4W",
            "e3-f4W f4-e5W",
            "e3-f4W f4-e5W e5-d5W",
            "e3-f4W f4-e5W e5-d5W d5-d4A",
            "e3-f4W f4-f3W",
            "e3-f4W f4-f3W f3-e3A",
            "e3-f4W f4-f3W f3-e3W",
        ],
    );
    let mut q = p;
    play_step(&mut q, "e3-f3W");
    // Back along e3-f3 would withdraw from g3: the segment is used.
    assert_eq!(q.check_step(step("f3-e3W")), Err(IllegalReason::SegmentReused));
    play_step(&mut q, "f3-f4A");
    assert_eq!(q.check_step(step("f4-f3A")), Err(IllegalReason::SegmentReused));
    // Back to the start point e3 along a new segment is fine.
    assert_eq!(q.check_step(step("f4-e3A")), Ok(()));
    let e = play_step(&mut q, "f4-e3A");
    assert_eq!(e.captured, bb(&["d2"]));
    assert!(e.turn_ended, "from e3 only used segments could reach g3");

    let mut q = p;
    play_step(&mut q, "e3-f4W");
    // North-East again is the same direction.
    assert_eq!(q.check_step(step("f4-g5A")), Err(IllegalReason::SameDirection));
    // f4-e3 reuses the segment e3-f4.
    assert_eq!(q.check_step(step("f4-e3A")), Err(IllegalReason::SegmentReused));
    let mut r = p;
    assert_eq!(play(&mut r, "e3-f4W f4-f3W f3-e3W"), bb(&["d2", "f5", "g3"]));
    assert_eq!(r.to_fen(), "9/9/3BW4/9/9 b");
    // The same turn is illegal under the default rule: e3 may not be revisited, so the turn already ended at f3.
    let mut d = pos(L);
    let err = d.play_turn(&turn("e3-f4W f4-f3W f3-e3W")).unwrap_err();
    assert_eq!(err, IllegalTurn::TurnOver { index: 2, step: step("f3-e3W") });
}

// ---------------------------------------------------------------------------------------------------------------
// First-turn options
// ---------------------------------------------------------------------------------------------------------------

// SFC: a three-turn sequence for the first-turn options.
//   5 . . . . B . . . .
//   4 . . B . . . B . .
//   3 B . . W . . B . .
//   2 . . W . . . . . .
//   1 W . . . . . . . .
// White's captures: a1-a2A (a3); c2-c3A (c4), which relays by c3-b3A (a3) or c3-d4A (e5). d3 has none (c3 empty).
// After a1-a2A Black's only capture is c4-c3A (c2), which relays by c3-b3W (withdrawing from d3).
// After a1-a2A c4-c3A White has R1's relay from d3 (a2 does not interfere).
const SFC: &str = "4B4/2B3B2/B2W2B2/2W6/W8 w";

#[test]
fn first_turns_under_default_rules() {
    let mut p = pos(SFC);
    assert_turns(&p, &["a1-a2A", "c2-c3A", "c2-c3A c3-b3A", "c2-c3A c3-d4A"]);
    assert_eq!(play(&mut p, "a1-a2A"), bb(&["a3"]));
    assert_eq!(p.to_fen(), "4B4/2B3B2/3W2B2/W1W6/9 b");
    assert_turns(&p, &["c4-c3A", "c4-c3A c3-b3W"]);
}

/// First turn without relay: the game's very first turn stops after one capture; later turns (of either side) relay.
#[test]
fn first_turn_no_relay() {
    let rules = Rules { first_turn_no_relay: true, ..Rules::default() };
    // R1 as the first turn: only its first step.
    let p = pos_with(R1, rules);
    assert!(p.is_first_turn());
    assert_turns(&p, &["d3-e3W"]);
    let mut q = p;
    let e = q.play_turn(&turn("d3-e3W")).unwrap();
    assert!(e[0].turn_ended);
    assert!(!q.is_first_turn());
    assert_eq!(
        pos_with(R1, rules).play_turn(&turn("d3-e3W e3-e4A")).unwrap_err(),
        IllegalTurn::TurnOver { index: 1, step: step("e3-e4A") }
    );

    let mut p = pos_with(SFC, rules);
    assert_turns(&p, &["a1-a2A", "c2-c3A"]);
    play(&mut p, "a1-a2A");
    assert!(!p.is_first_turn());
    // Black's turn is not the game's first: it may relay.
    assert_turns(&p, &["c4-c3A", "c4-c3A c3-b3W"]);

    // The first turn is a paika move; the next turn may relay.
    //   5 . . . . B . . . .
    //   4 . . B . . . B . .
    //   3 . . . W . . B . .
    // Black has no capture; after c4-c3 White has R1's full relay.
    let mut p = pos_with("4B4/2B3B2/3W2B2/9/9 b", rules);
    assert!(!p.legal_turns().is_empty());
    assert!(p.legal_turns().iter().all(|t| !t.is_capture()));
    play(&mut p, "c4-c3");
    assert_eq!(p.to_fen(), R1);
    assert_turns(&p, &R1_TURNS);
}

/// Single first capture: each player's first capturing turn ends after one step; later capturing turns relay.
#[test]
fn single_first_capture() {
    let rules = Rules { single_first_capture: true, ..Rules::default() };
    assert_turns(&pos_with(R1, rules), &["d3-e3W"]);

    let mut p = pos_with(SFC, rules);
    assert!(!p.has_captured(Side::White) && !p.has_captured(Side::Black));
    assert_turns(&p, &["a1-a2A", "c2-c3A"]);
    play(&mut p, "a1-a2A");
    assert!(p.has_captured(Side::White));
    assert!(!p.has_captured(Side::Black));
    // Black's first capture is single too, though White has captured already.
    assert_turns(&p, &["c4-c3A"]);
    assert_eq!(play(&mut p, "c4-c3A"), bb(&["c2"]));
    assert!(p.has_captured(Side::Black));
    assert_eq!(p.to_fen(), "4B4/6B2/2BW2B2/W8/9 w");
    // White's second capturing turn may relay: R1 again (a2 does not interfere).
    assert_turns(&p, &R1_TURNS);

    // A paika turn does not use up the first capture.
    let mut p = pos_with("4B4/2B3B2/3W2B2/9/9 b", rules);
    play(&mut p, "c4-c3");
    assert_turns(&p, &["d3-e3W"]);
}

// ---------------------------------------------------------------------------------------------------------------
// Vela
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn vela_thresholds() {
    assert_eq!(Vela::threshold(Variant::Tsivy), 17);
    assert_eq!(Vela::threshold(Variant::Dimy), 7);
    let rules = Rules { vela: Some(Vela { winner: Side::White, captured: 0 }), ..Rules::default() };
    assert_eq!(rules.starting_side(), Side::Black);
    assert_eq!(Position::start(&rules).vela(), Some((Side::White, 17)));
    let rules = Rules {
        variant: Variant::Dimy,
        vela: Some(Vela { winner: Side::Black, captured: 0 }),
        first_player: Side::Black,
        ..Rules::default()
    };
    let p = Position::start(&rules);
    assert_eq!(p.side_to_move(), Side::White, "the previous loser starts, whatever first_player says");
    assert_eq!(p.vela(), Some((Side::Black, 7)));
    let rules = Rules { variant: Variant::Dimy, vela: Some(Vela { winner: Side::Black, captured: 6 }), ..rules };
    assert_eq!(Position::start(&rules).vela(), Some((Side::Black, 1)));
    let rules = Rules { variant: Variant::Dimy, vela: Some(Vela { winner: Side::Black, captured: 7 }), ..rules };
    assert_eq!(Position::start(&rules).vela(), None);
}

/// A vela game from the start: the loser (Black) moves first and takes only the adjacent piece; the winner (White)
/// may only make paika moves although a capture (e1-e2A, approaching e3) exists.
#[test]
fn vela_game_from_start() {
    let rules = Rules { vela: Some(Vela { winner: Side::White, captured: 0 }), ..Rules::default() };
    let mut g = Game::new(rules);
    assert_eq!(g.position().side_to_move(), Side::Black);
    assert_turns(g.position(), &["d4-e3A", "e4-e3A", "f3-e3A", "f3-e3W", "f4-e3A"]);
    let e = g.play_turn(&turn("e4-e3A")).unwrap();
    assert_eq!(e[0].captured, bb(&["e2"]), "only the adjacent piece, not e1");
    let p = *g.position();
    assert_eq!(p.to_fen(), "BBBBBBBBB/BBBB1BBBB/BWBWBBWBW/WWWW1WWWW/WWWWWWWWW w");
    assert_eq!(p.count(Side::White), 21);
    assert_eq!(p.vela(), Some((Side::White, 16)));
    // White (the winner): paika only. Into e2 from d2, f2, e1; nothing can reach e4.
    assert_turns(&p, &["d2-e2", "e1-e2", "f2-e2"]);
    assert_eq!(p.check_step(step("e1-e2A")), Err(IllegalReason::VelaNoCapture));
    assert!(!p.is_lost());
    // Without vela the same position would force e1-e2A.
    assert_turns(&p.with_rules(&Rules::default()), &["e1-e2A"]);
}

/// The vela loser's capture takes one piece and never relays.
#[test]
fn vela_loser_takes_one_piece_without_relay() {
    let rules = Rules { vela: Some(Vela { winner: Side::Black, captured: 0 }), ..Rules::default() };
    let p = pos_with(R1, rules);
    assert_turns(&p, &["d3-e3W"]);
    // c3-d3A would take e3 and f3 normally; in vela only e3.
    let mut p = pos_with("9/9/2W1BB1B1/9/9 w", rules);
    assert_turns(&p, &["c3-d3A"]);
    assert_eq!(play(&mut p, "c3-d3A"), bb(&["e3"]));
    assert_eq!(p.to_fen(), "9/9/3W1B1B1/9/9 b");
    assert_eq!(p.vela(), Some((Side::Black, 16)));
    // Black (the winner) may not take d3 by f3-e3A: paika only (h3 is weak).
    assert_turns(&p, &["f3-e3", "f3-f2", "f3-f4", "f3-g3", "h3-g3", "h3-h2", "h3-h4", "h3-i3"]);
    assert_eq!(p.check_step(step("f3-e3A")), Err(IllegalReason::VelaNoCapture));
}

/// After the threshold normal rules apply: the seventeenth capture ends the vela phase.
#[test]
fn vela_ends_at_threshold() {
    let rules = Rules { vela: Some(Vela { winner: Side::Black, captured: 16 }), ..Rules::default() };
    let mut p = pos_with("9/9/2W1BB1B1/9/9 w", rules);
    assert_eq!(p.vela(), Some((Side::Black, 1)));
    assert_eq!(play(&mut p, "c3-d3A"), bb(&["e3"]));
    assert_eq!(p.vela(), None);
    // Black may capture now: f3-e3A takes d3 (c3 empty).
    assert_turns(&p, &["f3-e3A"]);
    // Already past the threshold: the normal game, relays included.
    let rules = Rules { vela: Some(Vela { winner: Side::Black, captured: 17 }), ..Rules::default() };
    let p = pos_with(R1, rules);
    assert_eq!(p.vela(), None);
    assert_turns(&p, &R1_TURNS);
}

// ---------------------------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------------------------

/// A side with pieces but no legal move loses.
///   5 B W . . . . . . .
///   4 W W . . . . . . .
/// Black's a5 has no empty neighbour.
#[test]
fn no_legal_move_loses() {
    let p = pos("BW7/WW7/9/9/9 b");
    assert!(p.legal_turns().is_empty());
    assert!(p.is_lost());
    assert_eq!(p.check_step(step("a5-a4")), Err(IllegalReason::GameOver));
    let g = Game::from_position(p, Rules::default());
    assert_eq!(g.outcome(), Some(Outcome::NoMoves { winner: Side::White }));

    // White blocks Black's last piece with a paika move.
    //   3 W . . . . . . . .
    //   2 W . W . . . . . .
    //   1 B W W . . . . . .
    // No White capture exists: a2 and b1 cannot withdraw (a3, c1 occupied) and no piece can approach a1 (c3 empty).
    // c2-b2 comes from the east, so it approaches a2 (White), not a1.
    let p = pos("9/9/W8/W1W6/BWW6 w");
    assert!(p.legal_turns().iter().all(|t| !t.is_capture()));
    let mut g = Game::from_position(p, Rules::default());
    assert_eq!(g.outcome(), None);
    g.play_turn(&turn("c2-b2")).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::NoMoves { winner: Side::White }));
    assert_eq!(g.position().count(Side::Black), 1);
    assert!(matches!(g.play_turn(&turn("a1-a2")), Err(GameError::Over(Outcome::NoMoves { .. }))));
}

/// A side with no pieces has lost (a position given that way).
#[test]
fn no_pieces_loses() {
    let g = Game::from_position(pos("9/9/4W4/9/9 b"), Rules::default());
    assert_eq!(g.outcome(), Some(Outcome::NoPieces { winner: Side::White }));
    let mut q = pos("9/9/4W1B2/9/9 w");
    let mut g = Game::from_position(q, Rules::default());
    g.play_turn(&turn("e3-f3A")).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::NoPieces { winner: Side::White }));
    play(&mut q, "e3-f3A");
    assert!(q.is_lost());
}

/// Third occurrence of the same position with the same side to move: a draw.
#[test]
fn draw_by_threefold_repetition() {
    let mut g = Game::from_position(pos("8B/9/9/9/W8 w"), Rules::default());
    let cycle = ["a1-a2", "i5-i4", "a2-a1", "i4-i5"];
    for i in 0..8 {
        assert_eq!(g.outcome(), None, "after {i} turns");
        g.play_turn(&turn(cycle[i % 4])).unwrap();
        if i == 3 {
            assert_eq!(g.repetitions(), 2);
        }
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    assert_eq!(g.outcome().unwrap().result(), GameResult::Draw);
    // Turning the rule off lets the game go on.
    let rules = Rules { draw: DrawRule { repetitions: 0, ..DrawRule::default() }, ..Rules::default() };
    let mut g = Game::from_position(pos("8B/9/9/9/W8 w"), rules);
    for i in 0..12 {
        g.play_turn(&turn(cycle[i % 4])).unwrap();
    }
    assert_eq!(g.outcome(), None);
}

/// A set number of consecutive turns without a capture: a draw; a capture restarts the count.
#[test]
fn draw_by_no_capture_limit() {
    let rules = Rules { draw: DrawRule { repetitions: 0, no_capture_turns: 3 }, ..Rules::default() };
    // 5 . . . . . . . . B
    // 3 . . W . B . . . .
    // White must capture first (c3-d3A, f3 empty).
    let mut g = Game::from_position(pos("8B/9/2W1B4/9/9 w"), rules);
    assert_turns(g.position(), &["c3-d3A"]);
    g.play_turn(&turn("c3-d3A")).unwrap();
    assert_eq!(g.turns_without_capture(), 0);
    g.play_turn(&turn("i5-i4")).unwrap();
    g.play_turn(&turn("d3-d4")).unwrap();
    assert_eq!(g.turns_without_capture(), 2);
    assert_eq!(g.outcome(), None);
    g.play_turn(&turn("i4-i3")).unwrap();
    assert_eq!(g.turns_without_capture(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::NoCapture)));
    assert!(matches!(g.play_turn(&turn("d4-d5")), Err(GameError::Over(_))));
    assert_eq!(DrawRule::default().no_capture_turns, DrawRule::DEFAULT_NO_CAPTURE_TURNS);
    assert!(DrawRule::default().no_capture_turns > 0);
    assert_eq!(DrawRule::default().repetitions, 3);
}

#[test]
fn draw_by_agreement_and_resignation() {
    let mut g = Game::new(Rules::default());
    g.agree_draw().unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
    assert!(g.is_over());
    assert!(matches!(g.agree_draw(), Err(GameError::Over(_))));
    assert!(matches!(g.resign(Side::White), Err(GameError::Over(_))));
    assert!(matches!(g.play_turn(&turn("d3-e3A")), Err(GameError::Over(_))));

    let mut g = Game::new(Rules::default());
    g.play_turn(&turn("d3-e3A")).unwrap();
    g.resign(Side::White).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Resignation { winner: Side::Black }));
    assert_eq!(g.outcome().unwrap().result(), GameResult::Win(Side::Black));
}

// ---------------------------------------------------------------------------------------------------------------
// Game record: undo/redo, steps, relays
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn undo_redo_restore_exact_positions() {
    let mut g = Game::from_position(pos(SFC), Rules::default());
    let p0 = *g.position();
    g.play_turn(&turn("a1-a2A")).unwrap();
    let p1 = *g.position();
    g.play_turn(&turn("c4-c3A c3-b3W")).unwrap();
    let p2 = *g.position();
    assert_eq!(p2.to_fen(), "4B4/6B2/1B4B2/W8/9 w");
    assert_eq!(g.turn_starts(), &[p0, p1, p2]);

    g.undo().unwrap();
    assert_eq!(*g.position(), p1);
    g.undo().unwrap();
    assert_eq!(*g.position(), p0);
    assert_eq!(g.undo(), Err(GameError::Nothing));
    assert!(g.turns().is_empty());
    g.redo().unwrap();
    assert_eq!(*g.position(), p1);
    g.redo().unwrap();
    assert_eq!(*g.position(), p2);
    assert_eq!(g.redo(), Err(GameError::Nothing));
    assert_eq!(g.turns().len(), 2);
    assert_eq!(g.turns()[1].to_string(), "c4-c3A c3-b3W");

    // A new turn after an undo drops the redo list.
    g.undo().unwrap();
    assert!(g.can_redo());
    g.play_turn(&turn("c4-c3A")).unwrap();
    assert!(!g.can_redo());
    assert_eq!(g.redo(), Err(GameError::Nothing));

    // Undo also restores rule state held in the position (first-capture flags).
    let rules = Rules { single_first_capture: true, ..Rules::default() };
    let mut g = Game::from_position(pos_with(SFC, rules), rules);
    let p0 = *g.position();
    g.play_turn(&turn("a1-a2A")).unwrap();
    assert!(g.position().has_captured(Side::White));
    g.undo().unwrap();
    assert_eq!(*g.position(), p0);
    assert!(!g.position().has_captured(Side::White));
    // Undo clears a finished game's result.
    let mut g = Game::from_position(pos("9/9/4W1B2/9/9 w"), Rules::default());
    g.play_turn(&turn("e3-f3A")).unwrap();
    assert!(g.is_over());
    g.undo().unwrap();
    assert_eq!(g.outcome(), None);
}

/// `undo_pending` takes back the steps of a relay in progress.
#[test]
fn undo_pending_restores_turn_start() {
    let start = pos(R1);
    let mut g = Game::from_position(start, Rules::default());
    assert!(!g.undo_pending());
    g.play_step(step("d3-e3W")).unwrap();
    g.play_step(step("e3-e4A")).unwrap();
    assert!(g.position().in_relay());
    assert_eq!(g.pending_steps(), &[step("d3-e3W"), step("e3-e4A")]);
    assert_eq!(*g.turn_start(), start);
    assert!(g.undo_pending());
    assert_eq!(*g.position(), start);
    assert!(g.pending_steps().is_empty());
    assert!(g.turns().is_empty());
    // `undo` in mid-relay does the same.
    g.play_step(step("d3-e3W")).unwrap();
    g.undo().unwrap();
    assert_eq!(*g.position(), start);
    assert!(!g.can_redo());
}

/// `play_step` in mid-relay, `end_relay`, and what the game refuses in mid-relay.
#[test]
fn game_play_step_and_end_relay() {
    let mut g = Game::from_position(pos(R1), Rules::default());
    g.end_relay().unwrap(); // nothing to end
    assert!(g.turns().is_empty());
    let e = g.play_step(step("d3-e3W")).unwrap();
    assert!(!e.turn_ended);
    assert_eq!(g.play_turn(&turn("e3-e4A")), Err(GameError::Illegal(IllegalReason::MustContinueWith(pt("e3")))));
    assert_eq!(g.play_step(step("e3-f3A")), Err(GameError::Illegal(IllegalReason::SameDirection)));
    g.play_step(step("e3-e4A")).unwrap();
    g.play_step(step("e4-f4A")).unwrap();
    assert_eq!(g.pending_steps().len(), 3);
    g.end_relay().unwrap();
    assert_eq!(g.turns().len(), 1);
    assert_eq!(g.turns()[0].to_string(), "d3-e3W e3-e4A e4-f4A");
    assert!(g.pending_steps().is_empty());
    assert_eq!(g.position().to_fen(), "9/5W3/6B2/9/9 b");
    assert_eq!(g.outcome(), None);
    // Black's g3 can now withdraw from f4 (g3-h2W) and must.
    assert_turns(g.position(), &["g3-h2W"]);
    // Stopping via an explicit stop step works the same.
    let mut g = Game::from_position(pos(R1), Rules::default());
    g.play_step(step("d3-e3W")).unwrap();
    let e = g.play_step(Step::stop(pt("e3"))).unwrap();
    assert!(e.turn_ended);
    assert_eq!(g.turns()[0].to_string(), "d3-e3W");
    assert_eq!(g.position().side_to_move(), Side::Black);
}
