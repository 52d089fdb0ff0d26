//! Zobrist keys for pieces and side to move, and a mixer for the rarer relay and rule state.

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A strong 64-bit mixing function (the splitmix64 finaliser).
#[inline(always)]
pub const fn mix(x: u64) -> u64 {
    splitmix(x)
}

const fn piece_keys() -> [[u64; 64]; 2] {
    let mut k = [[0u64; 64]; 2];
    let mut s = 0;
    while s < 2 {
        let mut p = 0;
        while p < 64 {
            k[s][p] = splitmix(0xFA40_0000 + (s as u64) * 64 + p as u64);
            p += 1;
        }
        s += 1;
    }
    k
}

/// Key of a piece of side `[s]` on point `[p]`.
pub static PIECE: [[u64; 64]; 2] = piece_keys();
/// Key xored in when Black is to move.
pub const SIDE: u64 = splitmix(0x51DE);
/// Salt of the visited-points set of a relay.
pub const RELAY: u64 = splitmix(0x2E1A);
/// Salt of the relaying piece and its last direction.
pub const RELAY_PIECE: u64 = splitmix(0x2E1B);
/// Salts of the travelled segments ("lines" relay rule), one per axis.
pub const SEGMENTS: [u64; 4] = [splitmix(0x5E60), splitmix(0x5E61), splitmix(0x5E62), splitmix(0x5E63)];
/// Salt of the rule flags and vela state.
pub const FLAGS: u64 = splitmix(0xF1A6);
