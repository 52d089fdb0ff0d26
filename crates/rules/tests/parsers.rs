//! Property tests (proptest) of the text parsers and of playing untrusted input: FEN, step and turn notation never
//! panic, round-trip through Display, and illegal input never changes a position.

use fanorona_rules::geometry::{Direction, parse_point};
use fanorona_rules::notation::{FenErrorKind, NotationErrorKind};
use fanorona_rules::turns::IllegalTurn;
use fanorona_rules::{
    DrawReason, FenError, GameError, IllegalReason, NotationError, Outcome, Position, RelayRule, Rules, Side, Step,
    StepKind, Turn, Variant, Vela,
};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------------------------

/// Strings over the FEN alphabet.
fn fen_alphabet() -> impl Strategy<Value = String> {
    "[WB0-9/ wb]{0,64}"
}

/// FEN-shaped strings: 1–7 ranks of piece letters and digits, then a side (sometimes malformed); valid FENs of
/// random positions; and valid FENs with one character inserted, deleted or replaced.
fn fen_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![Just("W".to_string()), Just("B".to_string()), "[0-9]"];
    let rank = prop::collection::vec(token, 0..11).prop_map(|t| t.concat());
    let ranks = prop::collection::vec(rank, 1..7).prop_map(|r| r.join("/"));
    let side = prop_oneof![Just(" w"), Just(" b"), Just(""), Just(" "), Just(" x"), Just("  w"), Just(" w b")];
    let shaped = (ranks, side).prop_map(|(r, s)| format!("{r}{s}"));
    let valid = any_position().prop_map(|p| p.to_fen());
    let mutated =
        (any_position(), any::<prop::sample::Index>(), 0u8..3, "[WB0-9/ wbx\u{e9}]").prop_map(|(p, at, op, c)| {
            let mut chars: Vec<char> = p.to_fen().chars().collect();
            let i = at.index(chars.len());
            match op {
                0 => chars.insert(i, c.chars().next().unwrap()),
                1 => {
                    chars.remove(i);
                }
                _ => chars[i] = c.chars().next().unwrap(),
            }
            chars.into_iter().collect()
        });
    prop_oneof![shaped, valid, mutated]
}

/// Strings over the notation alphabet.
fn notation_alphabet() -> impl Strategy<Value = String> {
    "[a-i1-9AW -]{0,40}"
}

/// Step-shaped words: a point, a dash, a point, a suffix; points sometimes off the board or malformed.
fn step_like() -> impl Strategy<Value = String> {
    let point = prop_oneof![4 => "[a-i][1-5]", 1 => "[a-k][0-7]", 1 => "[a-i]{0,2}[0-9]{0,2}"];
    let suffix = prop_oneof![Just(""), Just("A"), Just("W"), Just("X"), Just("a")];
    let dash = prop_oneof![8 => Just("-"), 1 => Just(""), 1 => Just("--")];
    (point.clone(), dash, point, suffix).prop_map(|(a, d, b, s)| format!("{a}{d}{b}{s}"))
}

/// Turn-shaped strings: step-like words joined by spaces (sometimes doubled), with optional surrounding blanks.
fn turn_like() -> impl Strategy<Value = String> {
    let sep = prop_oneof![8 => Just(" "), 1 => Just("  "), 1 => Just("\t")];
    let pad = prop_oneof![Just(""), Just(" "), Just("\n")];
    (pad.clone(), prop::collection::vec((step_like(), sep), 1..5), pad).prop_map(|(a, words, b)| {
        let mut s = a.to_string();
        for (i, (w, sep)) in words.iter().enumerate() {
            if i > 0 {
                s.push_str(sep);
            }
            s.push_str(w);
        }
        s.push_str(b);
        s
    })
}

/// Adjacent-point step words on the 9x5 layout, so that most parse: from a point, one step in a direction.
fn adjacent_step_word() -> impl Strategy<Value = String> {
    (0u8..9, 0u8..5, 0usize..8, prop_oneof![Just(""), Just("A"), Just("W")]).prop_map(|(f, r, d, k)| {
        // The first direction from `d` on that stays on the 9x5 grid (joined or not: notation does not care).
        let (tf, tr) = (0..8)
            .map(|i| Direction::ALL[(d + i) % 8].offset())
            .map(|(df, dr)| (f as i8 + df, r as i8 + dr))
            .find(|(tf, tr)| (0..9).contains(tf) && (0..5).contains(tr))
            .map(|(tf, tr)| (tf as u8, tr as u8))
            .expect("every point has a neighbour");
        format!("{}{}-{}{}{k}", (b'a' + f) as char, r + 1, (b'a' + tf) as char, tr + 1)
    })
}

/// Turns built from adjacent steps, likely to parse and sometimes legal.
fn adjacent_turn_text() -> impl Strategy<Value = String> {
    prop::collection::vec(adjacent_step_word(), 1..5).prop_map(|w| w.join(" "))
}

/// Rule options that change legality (the draw rule does not).
fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>(), any::<bool>(), 0u8..4, 0u8..20).prop_map(|(lines, first, single, vela, captured)| {
        Rules {
            relay: if lines { RelayRule::Lines } else { RelayRule::Default },
            first_turn_no_relay: first,
            single_first_capture: single,
            vela: match vela {
                1 => Some(Vela { winner: Side::White, captured }),
                2 => Some(Vela { winner: Side::Black, captured }),
                _ => None,
            },
            ..Rules::default()
        }
    })
}

/// A random legal placement: each point of the board empty, White or Black, at most the starting number of pieces a
/// side, either board, either side to move.
fn random_position(rules: Rules) -> impl Strategy<Value = Position> {
    (any::<bool>(), any::<bool>(), prop::collection::vec(0u8..5, 45)).prop_map(move |(dimy, black, cells)| {
        let variant = if dimy { Variant::Dimy } else { Variant::Tsivy };
        let g = variant.geometry();
        let mut bb = [0u64; 2];
        for (p, &c) in cells.iter().enumerate() {
            let p = p as u8;
            if !g.contains(p) || c < 3 {
                continue;
            }
            let s = (c - 3) as usize;
            if bb[s].count_ones() < variant.start_pieces() {
                bb[s] |= 1 << p;
            }
        }
        let side = if black { Side::Black } else { Side::White };
        Position::from_parts(variant, bb[0], bb[1], side, &Rules { variant, ..rules })
    })
}

fn any_position() -> impl Strategy<Value = Position> {
    rules_strategy().prop_flat_map(random_position)
}

/// Fixed positions with relays, for the illegal-input properties.
fn fixed_positions() -> Vec<Position> {
    let lines = Rules { relay: RelayRule::Lines, ..Rules::default() };
    let mut v = vec![
        Position::start(&Rules::default()),
        Position::start(&Rules { variant: Variant::Dimy, ..Rules::default() }),
        Position::from_fen("4B4/6B2/2BW2B2/9/9 w").unwrap(),
        Position::from_fen("5B3/9/3BW1B2/3B5/9 w").unwrap(),
        Position::from_fen_with_rules("5B3/9/3BW1B2/3B5/9 w", &lines).unwrap(),
        Position::from_fen("BW7/WW7/9/9/9 b").unwrap(),
    ];
    // A relay in progress.
    let mut mid = Position::from_fen("4B4/6B2/2BW2B2/9/9 w").unwrap();
    mid.try_step("d3-e3W".parse().unwrap()).unwrap();
    assert!(mid.in_relay());
    v.push(mid);
    v
}

// ---------------------------------------------------------------------------------------------------------------
// Shared checks
// ---------------------------------------------------------------------------------------------------------------

/// Whatever `from_fen` does with `s`, it must not panic; a success must round-trip, a failure must explain itself.
fn check_fen(s: &str) -> Result<(), TestCaseError> {
    match Position::from_fen(s) {
        Ok(p) => {
            let text = p.to_fen();
            let again = Position::from_fen(&text);
            prop_assert_eq!(again.as_ref(), Ok(&p), "{:?} -> {:?}", s, text);
            prop_assert_eq!(again.unwrap().to_fen(), text);
            prop_assert_eq!(s.parse::<Position>(), Ok(p));
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            prop_assert!(e.at <= s.len(), "{:?}: error offset {} past the end", s, e.at);
        }
    }
    Ok(())
}

/// Whatever the step and turn parsers do with `s`, they must not panic; successes round-trip through Display.
fn check_notation(s: &str) -> Result<(), TestCaseError> {
    check_notation_unfiltered(s)
}

fn check_notation_unfiltered(s: &str) -> Result<(), TestCaseError> {
    match s.parse::<Turn>() {
        Ok(t) => {
            prop_assert!(!t.is_empty());
            let text = t.to_string();
            prop_assert_eq!(text.parse::<Turn>(), Ok(t.clone()), "{:?} -> {:?}", s, text);
            prop_assert!(t.steps.iter().all(|st| st.kind != StepKind::Stop));
            for st in &t.steps {
                prop_assert_eq!(st.to_string().parse::<Step>(), Ok(*st));
            }
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            prop_assert!(e.at <= s.len(), "{:?}: error offset {} past the end", s, e.at);
        }
    }
    match s.parse::<Step>() {
        Ok(st) => {
            let text = st.to_string();
            prop_assert_eq!(text.parse::<Step>(), Ok(st), "{:?} -> {:?}", s, text);
            prop_assert_eq!(text.parse::<Turn>(), Ok(Turn::new(vec![st])));
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            prop_assert!(e.at <= s.len(), "{:?}: error offset {} past the end", s, e.at);
        }
    }
    Ok(())
}

/// Plays `text` (if it parses) on a copy of `pos`: an error leaves the position unchanged and explains itself, and the
/// result agrees with the list of legal turns.
fn check_untrusted_turn(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    let Ok(turn) = text.parse::<Turn>() else {
        return Ok(());
    };
    let mut p = *pos;
    let legal = pos.legal_turns().contains(&turn);
    match p.play_turn(&turn) {
        Ok(effects) => {
            prop_assert!(legal, "{} accepted {:?} but does not list it", pos.to_fen(), text);
            prop_assert_eq!(effects.len(), turn.len());
            prop_assert!(!p.in_relay());
        }
        Err(e) => {
            prop_assert!(!legal, "{} rejected listed turn {:?}: {}", pos.to_fen(), text, e);
            prop_assert_eq!(p, *pos, "a rejected turn changed the position");
            prop_assert!(!e.to_string().is_empty());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fen_arbitrary_text(s in any::<String>()) {
        check_fen(&s)?;
    }

    #[test]
    fn fen_alphabet_text(s in fen_alphabet()) {
        check_fen(&s)?;
    }

    #[test]
    fn fen_shaped_text(s in fen_like()) {
        check_fen(&s)?;
    }

    #[test]
    fn notation_arbitrary_text(s in any::<String>()) {
        check_notation(&s)?;
    }

    #[test]
    fn notation_alphabet_text(s in notation_alphabet()) {
        check_notation(&s)?;
    }

    #[test]
    fn notation_shaped_text(s in turn_like()) {
        check_notation(&s)?;
    }

    #[test]
    fn notation_adjacent_steps_parse_and_round_trip(s in adjacent_turn_text()) {
        let t = s.parse::<Turn>();
        prop_assert!(t.is_ok(), "{:?}: {:?}", s, t);
        prop_assert_eq!(t.unwrap().to_string(), s);
    }

    /// Random placements survive to_fen / from_fen exactly (under any rule options, read back with the same options).
    #[test]
    fn random_positions_round_trip_through_fen(rules in rules_strategy(), dimy in any::<bool>(), black in any::<bool>(),
                                               cells in prop::collection::vec(0u8..5, 45)) {
        let variant = if dimy { Variant::Dimy } else { Variant::Tsivy };
        let g = variant.geometry();
        let mut bb = [0u64; 2];
        for (p, &c) in cells.iter().enumerate() {
            let p = p as u8;
            if g.contains(p) && c >= 3 && bb[(c - 3) as usize].count_ones() < variant.start_pieces() {
                bb[(c - 3) as usize] |= 1 << p;
            }
        }
        let side = if black { Side::Black } else { Side::White };
        let rules = Rules { variant, ..rules };
        let p = Position::from_parts(variant, bb[0], bb[1], side, &rules);
        let fen = p.to_fen();
        prop_assert_eq!(Position::from_fen_with_rules(&fen, &rules), Ok(p), "{}", fen);
        let plain = Position::from_fen(&fen).unwrap();
        prop_assert_eq!(plain, Position::from_parts(variant, bb[0], bb[1], side, &Rules { variant, ..Rules::default() }));
        prop_assert_eq!(plain.pieces(Side::White), bb[0]);
        prop_assert_eq!(plain.pieces(Side::Black), bb[1]);
        prop_assert_eq!(plain.side_to_move(), side);
        prop_assert_eq!(plain.variant(), variant);
        prop_assert_eq!(plain.to_fen(), fen);
    }

    /// Every legal turn of a random position prints as notation that parses back to it and that play_turn accepts.
    #[test]
    fn legal_turns_round_trip_and_play(p in any_position()) {
        let turns = p.legal_turns();
        prop_assert_eq!(turns.is_empty(), p.is_lost());
        for t in &turns {
            let text = t.to_string();
            prop_assert_eq!(text.parse::<Turn>(), Ok(t.clone()), "{}", text);
            let mut q = p;
            prop_assert!(q.play_turn(t).is_ok(), "{}: {} rejected", p.to_fen(), text);
            prop_assert_ne!(q.side_to_move(), p.side_to_move());
        }
    }

    /// Random text played on fixed positions (with relays, a relay in progress, a lost position): never a panic, never
    /// a change on error, and agreement with legal_turns.
    #[test]
    fn untrusted_turns_on_fixed_positions(a in adjacent_turn_text(), b in turn_like(), c in notation_alphabet()) {
        for pos in fixed_positions() {
            check_untrusted_turn(&pos, &a)?;
            check_untrusted_turn(&pos, &b)?;
            check_untrusted_turn(&pos, &c)?;
        }
    }

    /// Random text played on random positions under random rules.
    #[test]
    fn untrusted_turns_on_random_positions(p in any_position(), a in adjacent_turn_text(), b in turn_like()) {
        check_untrusted_turn(&p, &a)?;
        check_untrusted_turn(&p, &b)?;
        // Also the legal turns' own text, and that text with the last step dropped or doubled.
        for t in p.legal_turns().iter().take(8) {
            let text = t.to_string();
            check_untrusted_turn(&p, &text)?;
            let last = t.steps.last().unwrap().to_string();
            check_untrusted_turn(&p, &format!("{text} {last}"))?;
        }
    }

    /// Arbitrary step values (any bytes, any direction and kind) fed to check_step / try_step.
    #[test]
    fn arbitrary_steps_never_panic(p in any_position(), from in any::<u8>(), to in any::<u8>(), d in 0u8..8,
                                   k in 0usize..4, near in any::<bool>()) {
        let kinds = [StepKind::Paika, StepKind::Approach, StepKind::Withdrawal, StepKind::Stop];
        let dir = Direction::from_index(d);
        // Half of the cases: a step from a board point to its neighbour, so that deeper checks are reached.
        let from = if near { from % 45 } else { from };
        let to = if near { p.geometry().step(from, dir.index()).unwrap_or(to) } else { to };
        let step = Step { from, to, dir, kind: kinds[k] };
        let listed = p.steps().contains(&step);
        let checked = p.check_step(step);
        prop_assert_eq!(checked.is_ok(), listed);
        let mut q = p;
        match q.try_step(step) {
            Ok(_) => prop_assert!(listed),
            Err(e) => {
                prop_assert_eq!(q, p);
                prop_assert_eq!(Err(e), checked);
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Error messages
// ---------------------------------------------------------------------------------------------------------------

#[test]
fn every_error_message_is_non_empty() {
    let reasons = [
        IllegalReason::GameOver,
        IllegalReason::OffBoard(40),
        IllegalReason::NotYourPiece(0),
        IllegalReason::NotJoined,
        IllegalReason::Occupied(22),
        IllegalReason::CaptureCompulsory,
        IllegalReason::NothingToCapture,
        IllegalReason::VelaNoCapture,
        IllegalReason::MustContinueWith(22),
        IllegalReason::SameDirection,
        IllegalReason::Revisited(22),
        IllegalReason::SegmentReused,
        IllegalReason::RelayMustCapture,
        IllegalReason::NoRelay,
    ];
    for r in reasons {
        assert!(!r.to_string().is_empty(), "{r:?}");
    }
    let step: Step = "d3-e3A".parse().unwrap();
    let turns = [
        IllegalTurn::Empty,
        IllegalTurn::Step { index: 0, step, reason: IllegalReason::SameDirection },
        IllegalTurn::TurnOver { index: 1, step },
        IllegalTurn::ExplicitStop { index: 0 },
    ];
    for t in &turns {
        assert!(!t.to_string().is_empty(), "{t:?}");
    }
    let fen_kinds = [
        FenErrorKind::Empty,
        FenErrorKind::BadChar('x'),
        FenErrorKind::BadDigit,
        FenErrorKind::RankWidth { got: 3, expected: 9 },
        FenErrorKind::BoardWidth(7),
        FenErrorKind::RankCount(4),
        FenErrorKind::MissingSide,
        FenErrorKind::BadSide("x".into()),
        FenErrorKind::Trailing,
        FenErrorKind::TooManyPieces(Side::White),
    ];
    for kind in fen_kinds {
        let e = FenError { at: 3, kind };
        assert!(!e.to_string().is_empty(), "{e:?}");
    }
    let notation_kinds = [
        NotationErrorKind::Empty,
        NotationErrorKind::BadStep("x".into()),
        NotationErrorKind::BadPoint("j1".into()),
        NotationErrorKind::NotAdjacent,
        NotationErrorKind::EmptyStep,
    ];
    for kind in notation_kinds {
        let e = NotationError { at: 0, kind };
        assert!(!e.to_string().is_empty(), "{e:?}");
    }
    let game_errors = [
        GameError::Over(Outcome::Draw(DrawReason::Agreement)),
        GameError::Over(Outcome::NoMoves { winner: Side::Black }),
        GameError::Illegal(IllegalReason::NotJoined),
        GameError::IllegalTurn(IllegalTurn::Empty),
        GameError::Nothing,
    ];
    for e in &game_errors {
        assert!(!e.to_string().is_empty(), "{e:?}");
    }
    for o in [
        Outcome::NoPieces { winner: Side::White },
        Outcome::NoMoves { winner: Side::Black },
        Outcome::Resignation { winner: Side::White },
        Outcome::Draw(DrawReason::Repetition),
        Outcome::Draw(DrawReason::NoCapture),
        Outcome::Draw(DrawReason::Agreement),
    ] {
        assert!(!o.to_string().is_empty(), "{o:?}");
    }
}

/// A few hand-picked inputs the fuzzers might miss: multi-byte characters next to the suffix and separators, digits
/// 0 and runs, too many pieces, the 5x5 board.
#[test]
fn tricky_inputs() {
    for s in [
        "a1-a2\u{e9}",
        "\u{e9}a1-a2A",
        "a1-a2A\u{3000}a2-a3",
        "a1\u{2010}a2",
        "a1-a2AA",
        "A",
        "W",
        "-",
        "--A",
        "a1-",
        "-a1",
        " ",
        "\u{a0}a1-a2\u{a0}",
        "a1-a2 ",
        " a1-a2",
    ] {
        check_notation(s).unwrap();
    }
    assert_eq!(" a1-a2 ".parse::<Turn>().map(|t| t.to_string()), Ok("a1-a2".to_string()));
    for s in [
        "9/9/9/9/9 w",
        "5/5/5/5/5 b",
        "9/9/9/9/9",
        "9/9/9/9/9 ",
        "9/9/9/9/9 w ",
        "9/9/9/9/9 W",
        "9/9/9/9/9 w\u{e9}",
        "9/9/9/9/9\u{e9} w",
        "\u{e9}",
        "/",
        "////",
        "/////",
        "09/9/9/9/9 w",
        "45/9/9/9/9 w",
        "WWWWWWWWW/WWWWWWWWW/WWWWWWWWW/9/9 w",
        "WWWWW/WWWWW/WWW2/5/5 w",
        "WWWWW/WWWWW/WWWW1/5/5 w",
    ] {
        check_fen(s).unwrap();
    }
    assert!(Position::from_fen("9/9/9/9/9 w").is_ok());
    assert!(Position::from_fen("5/5/5/5/5 b").is_ok());
    assert_eq!(Position::from_fen("9/9/9/9/9 w").unwrap().variant(), Variant::Tsivy);
    assert_eq!(Position::from_fen("5/5/5/5/5 b").unwrap().variant(), Variant::Dimy);
    // 13 White pieces on 5x5 are more than a side starts with; 12 are fine.
    assert!(matches!(
        Position::from_fen("WWWWW/WWWWW/WWW2/5/5 w"),
        Err(FenError { kind: FenErrorKind::TooManyPieces(Side::White), .. })
    ));
    assert!(Position::from_fen("WWWWW/WWWWW/WW3/5/5 w").is_ok());
}

/// Point names whose bytes lie far beyond `a` and `1` once overflowed `u8` arithmetic: they must be parse errors.
#[test]
fn parse_point_overflow_regression() {
    for p in ["aW", "ab", "a~", "\u{e9}", "zz"] {
        assert_eq!(parse_point(p), None, "{p:?}");
    }
    for s in ["aW-a1", "a1-aW", "ab-a1", "\u{e9}-a1", "a1-\u{e9}A", "a1-a2 aW-a1", "aW-"] {
        assert!(s.parse::<Turn>().is_err(), "{s:?}");
        assert!(s.parse::<Step>().is_err(), "{s:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// The notation fuzzers without the known-bug filter.
    #[test]
    fn notation_fuzz_unfiltered(a in any::<String>(), b in notation_alphabet(), c in turn_like()) {
        check_notation_unfiltered(&a)?;
        check_notation_unfiltered(&b)?;
        check_notation_unfiltered(&c)?;
    }
}
