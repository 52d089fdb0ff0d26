//! Secrets: seat and spectator tokens (128 random bits each), invite codes (50 random bits, read aloud), game ids,
//! and their hashes.

use crate::db::TokenHash;
use rand::TryRngCore;
use sha2::{Digest, Sha256};

/// A new secret: 128 bits from the operating system's generator, as 32 lowercase hexadecimal digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    // The OS generator rather than a seeded one: tokens are the only thing that guards a seat.
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).expect("the operating system's random generator failed");
    hex(&bytes)
}

/// A new invite code: 50 bits from the operating system's generator, in the canonical short form
/// ([`fanorona_net::normalize_invite`]), e.g. `7KQ2MXW9PD`.
pub fn new_invite() -> String {
    let mut bytes = [0u8; 8];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).expect("the operating system's random generator failed");
    fanorona_net::invite_from_bits(u64::from_le_bytes(bytes))
}

/// The hash stored for an invite code, from any form a person may type it in: the hash of its canonical form, so
/// that `7kq2m-xw9pd` finds the game of `7KQ2MXW9PD`. An older server's 32-digit invite is hashed as it is, as it
/// was stored. `None` if the text is neither.
pub fn invite_hash(invite: &str) -> Option<TokenHash> {
    match fanorona_net::normalize_invite(invite) {
        Some(code) => Some(hash(&code)),
        None => fanorona_net::check_token(invite).ok().map(|()| hash(invite)),
    }
}

/// A new public game id: 64 random bits as 16 hexadecimal digits (unique, but not a secret).
pub fn new_game_id() -> String {
    hex(&rand::random::<[u8; 8]>())
}

/// The hash stored for a token.
pub fn hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_the_protocol_form_and_differ() {
        let a = new_token();
        assert!(fanorona_net::check_token(&a).is_ok());
        assert_ne!(a, new_token());
        assert_eq!(new_game_id().len(), 16);
        assert_eq!(hash(&a), hash(&a));
        assert_ne!(hash(&a), hash(&new_token()));
    }

    #[test]
    fn invites_are_short_and_found_from_any_typed_form() {
        let code = new_invite();
        assert_eq!(code.len(), fanorona_net::INVITE_CHARS);
        assert!(code.chars().all(|c| fanorona_net::INVITE_ALPHABET.contains(c)), "{code}");
        assert_ne!(code, new_invite());
        let stored = hash(&code);
        let typed = format!(" {} ", fanorona_net::format_invite(&code).to_lowercase().replace('-', " - "));
        assert_eq!(invite_hash(&typed), Some(stored));
        assert_eq!(invite_hash(&code), Some(stored));
        // An older server's long invite still finds its game, and nothing else is an invite.
        let long = new_token();
        assert_eq!(invite_hash(&long), Some(hash(&long)));
        assert_eq!(invite_hash("not a code"), None);
        assert_eq!(invite_hash(&long.to_uppercase()), None);
    }
}
