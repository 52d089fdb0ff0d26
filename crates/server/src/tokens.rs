//! Secrets: seat tokens, invite codes and spectator tokens (128 random bits each), game ids, and their hashes.

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
}
