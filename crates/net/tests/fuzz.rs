//! Fuzzes the message parsers: random and mutated inputs never panic, and every refusal is a typed error.

use fanorona_net::{
    ClientMsg, ErrorCode, INVITE_ALPHABET, INVITE_CHARS, format_invite, normalize_invite, parse_client,
    parse_client_bytes, parse_server,
};
use proptest::prelude::*;

/// Valid messages to mutate, so that the fuzzer reaches deep into the JSON shapes rather than failing at byte 0.
const SEEDS: &[&str] = &[
    r#"{"type":"hello","version":1}"#,
    r#"{"type":"create","board":"9x5","rules":"first=black relay=lines","colour":"random","name":"Rasoa"}"#,
    r#"{"type":"join","invite":"0123456789abcdef0123456789abcdef","name":"Be"}"#,
    r#"{"type":"join","invite":"7kq2m-xw9pd","name":"Be"}"#,
    r#"{"type":"resume","token":"0123456789abcdef0123456789abcdef"}"#,
    r#"{"type":"turn","ply":12,"turn":"d3-e3A e3-e4W"}"#,
    r#"{"type":"quick_match","board":"5x5"}"#,
    r#"{"type":"offer_draw"}"#,
    r#"{"type":"error","code":"illegal_turn","message":"no"}"#,
];

fn check(bytes: &[u8]) {
    match parse_client_bytes(bytes) {
        Ok(msg) => {
            // Whatever is accepted must survive a round trip unchanged.
            assert_eq!(parse_client(&msg.to_json()), Ok(msg));
        }
        Err(e) => {
            assert!(matches!(e.code, ErrorCode::Malformed | ErrorCode::TooLarge | ErrorCode::InvalidField), "{e}");
            assert!(!e.message.is_empty());
        }
    }
    if let Ok(msg) = std::str::from_utf8(bytes).map_err(|_| ()).and_then(|t| parse_server(t).map_err(|_| ())) {
        assert_eq!(parse_server(&msg.to_json()), Ok(msg));
    }
}

/// One random edit: flip, insert, delete or duplicate bytes.
fn mutate(seed: &[u8], edits: &[(u8, usize, u8)]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for &(op, at, byte) in edits {
        let at = if v.is_empty() { 0 } else { at % v.len() };
        match op % 4 {
            0 if !v.is_empty() => v[at] ^= byte,
            1 => v.insert(at, byte),
            2 if !v.is_empty() => {
                v.remove(at);
            }
            _ => {
                let tail = v[at..].to_vec();
                v.extend_from_slice(&tail[..tail.len().min(64)]);
            }
        }
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        check(&bytes);
    }

    #[test]
    fn mutated_messages_never_panic(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<u8>()), 1..8),
    ) {
        check(&mutate(SEEDS[seed].as_bytes(), &edits));
    }

    #[test]
    fn random_json_values_never_panic(
        ty in "[a-z_]{0,16}",
        key in "[a-z_]{0,10}",
        value in prop_oneof![
            Just("null".to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|n| n.to_string()),
            ".{0,40}".prop_map(|s| serde_json::to_string(&s).unwrap()),
            Just("[1,2,{}]".to_string()),
        ],
    ) {
        let text = format!(r#"{{"type":"{ty}","{key}":{value}}}"#);
        check(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// Whatever is typed, reading it as an invite code never panics, and a code read is canonical: in the alphabet,
    /// read again unchanged, shown grouped and read back from its grouping.
    #[test]
    fn typed_invites_never_panic_and_read_canonically(text in "([0-9A-Za-z\u{e9}][ \\-\u{2013}]?){8,12}|\\PC{0,30}") {
        if let Some(code) = normalize_invite(&text) {
            prop_assert_eq!(code.len(), INVITE_CHARS);
            prop_assert!(code.chars().all(|c| INVITE_ALPHABET.contains(c)));
            prop_assert_eq!(normalize_invite(&code), Some(code.clone()));
            let shown = format_invite(&text);
            prop_assert_eq!(normalize_invite(&shown), Some(code));
        } else {
            prop_assert_eq!(format_invite(&text), text);
        }
    }
}

#[test]
fn deeply_nested_json_is_refused_not_overflowed() {
    // serde_json stops at 128 levels instead of overflowing the stack.
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(parse_client(&text[..4000]).unwrap_err().code, ErrorCode::Malformed);
    assert!(parse_server(&text[..60_000]).is_err());
}

#[test]
fn huge_numbers_are_malformed() {
    let e = parse_client(r#"{"type":"turn","ply":99999999999999999999,"turn":"a1-a2"}"#).unwrap_err();
    assert_eq!(e.code, ErrorCode::Malformed);
    assert!(matches!(parse_client(r#"{"type":"turn","ply":0,"turn":"a1-a2"}"#), Ok(ClientMsg::Turn { .. })));
}
