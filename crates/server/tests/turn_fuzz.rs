//! Fuzzes what the server does with a client's turn text: parse it, then let the engine play it on a copy of the
//! game. Random and near-valid texts, on both boards and in many positions, never panic and never change the game
//! when refused.

use fanorona_rules::{Game, Rules, Turn, Variant};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A game `plies` random turns in (fewer if it ends first).
fn game_after(variant: Variant, seed: u64, plies: usize) -> Game {
    let mut game = Game::new(Rules { variant, ..Rules::default() });
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let turns = game.position().legal_turns();
        game.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
    }
    game
}

/// What the server does with a turn text: Ok if it would store it.
fn try_turn(game: &Game, text: &str) -> bool {
    let Ok(turn) = text.parse::<Turn>() else { return false };
    let mut next = game.clone();
    let ok = next.play_turn(&turn).is_ok();
    if ok {
        assert!(game.position().legal_turns().contains(&turn), "the engine took a turn it does not list: {text}");
    }
    ok
}

fn step() -> impl Strategy<Value = String> {
    ("[a-k]", "[0-6]", "[a-k]", "[0-6]", "[AW]?").prop_map(|(f1, r1, f2, r2, k)| format!("{f1}{r1}-{f2}{r2}{k}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn near_valid_turns_never_panic(
        steps in proptest::collection::vec(step(), 1..5),
        dimy in any::<bool>(),
        seed in 0u64..50,
        plies in 0usize..40,
    ) {
        let variant = if dimy { Variant::Dimy } else { Variant::Tsivy };
        let game = game_after(variant, seed, plies);
        let before = game.position().to_fen();
        try_turn(&game, &steps.join(" "));
        prop_assert_eq!(game.position().to_fen(), before);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,60}", seed in 0u64..10) {
        let game = game_after(Variant::Tsivy, seed, 5);
        try_turn(&game, &text);
    }
}

#[test]
fn every_legal_turn_is_accepted_as_written() {
    for variant in [Variant::Tsivy, Variant::Dimy] {
        for seed in 0..5 {
            let game = game_after(variant, seed, 10);
            for t in game.position().legal_turns() {
                assert!(try_turn(&game, &t.to_string()), "{t}");
            }
        }
    }
}
