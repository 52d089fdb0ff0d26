//! What one server tells the others that share its PostgreSQL database (as `pg_notify` payloads, JSON): a game
//! changed, a player came or went, who is here, a quick match was made for one of your players.

use fanorona_rules::Side;
use serde_json::{Value, json};

/// One notification between servers. `server` is always the sender's id; receivers ignore their own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A turn was stored, raising the game to `version`: a server that holds the game at `version - 1` plays it
    /// without reading the database.
    Turn {
        /// The sender.
        server: String,
        /// The game.
        game: String,
        /// The game's version once the turn is stored.
        version: i64,
        /// The turn's number (0-based).
        ply: u32,
        /// The turn notation.
        turn: String,
    },
    /// Any other change, raising the game to `version`: a server holding an older copy reads it again.
    Changed {
        /// The sender.
        server: String,
        /// The game.
        game: String,
        /// The game's version after the change.
        version: i64,
    },
    /// A player's connection to `server` took (`connected`) or left their seat.
    Presence {
        /// The server the player is connected to.
        server: String,
        /// The game.
        game: String,
        /// The seat.
        side: Side,
        /// Whether the player is now connected there.
        connected: bool,
    },
    /// `server` just read the game into memory: the servers where its players are connected say so again.
    Ask {
        /// The sender.
        server: String,
        /// The game.
        game: String,
    },
    /// `server` paired the player on connection `conn` of server `to` into `game`, in the seat `side`.
    Matched {
        /// The sender.
        server: String,
        /// The server of the waiting player.
        to: String,
        /// The waiting player's connection on `to`.
        conn: u64,
        /// The new game.
        game: String,
        /// The waiting player's seat.
        side: Side,
    },
}

fn side_name(side: Side) -> &'static str {
    side.name()
}

fn parse_side(v: &Value) -> Option<Side> {
    match v.as_str()? {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

impl Notice {
    /// The sender's server id.
    pub fn server(&self) -> &str {
        match self {
            Notice::Turn { server, .. }
            | Notice::Changed { server, .. }
            | Notice::Presence { server, .. }
            | Notice::Ask { server, .. }
            | Notice::Matched { server, .. } => server,
        }
    }

    /// The payload text (well under PostgreSQL's 8,000-byte limit: names and turns are bounded by the protocol).
    pub fn to_json(&self) -> String {
        let v = match self {
            Notice::Turn { server, game, version, ply, turn } => {
                json!({"k": "turn", "s": server, "g": game, "v": version, "ply": ply, "turn": turn})
            }
            Notice::Changed { server, game, version } => json!({"k": "changed", "s": server, "g": game, "v": version}),
            Notice::Presence { server, game, side, connected } => {
                json!({"k": "presence", "s": server, "g": game, "side": side_name(*side), "on": connected})
            }
            Notice::Ask { server, game } => json!({"k": "ask", "s": server, "g": game}),
            Notice::Matched { server, to, conn, game, side } => {
                json!({"k": "matched", "s": server, "to": to, "conn": conn, "g": game, "side": side_name(*side)})
            }
        };
        v.to_string()
    }

    /// Reads a payload; None for anything else (another program's notification on the channel, a newer server's
    /// kind), which the receiver ignores.
    pub fn parse(text: &str) -> Option<Notice> {
        let v: Value = serde_json::from_str(text).ok()?;
        let s = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let server = s("s")?;
        let game = s("g")?;
        Some(match v.get("k")?.as_str()? {
            "turn" => Notice::Turn {
                server,
                game,
                version: v.get("v")?.as_i64()?,
                ply: u32::try_from(v.get("ply")?.as_u64()?).ok()?,
                turn: s("turn")?,
            },
            "changed" => Notice::Changed { server, game, version: v.get("v")?.as_i64()? },
            "presence" => {
                Notice::Presence { server, game, side: parse_side(v.get("side")?)?, connected: v.get("on")?.as_bool()? }
            }
            "ask" => Notice::Ask { server, game },
            "matched" => Notice::Matched {
                server,
                to: s("to")?,
                conn: v.get("conn")?.as_u64()?,
                game,
                side: parse_side(v.get("side")?)?,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notice_reads_back_and_strangers_are_ignored() {
        let (server, game) = ("a1".to_string(), "g".to_string());
        let all = [
            Notice::Turn { server: server.clone(), game: game.clone(), version: 7, ply: 6, turn: "d3-e3A".into() },
            Notice::Changed { server: server.clone(), game: game.clone(), version: 3 },
            Notice::Presence { server: server.clone(), game: game.clone(), side: Side::Black, connected: true },
            Notice::Ask { server: server.clone(), game: game.clone() },
            Notice::Matched { server, to: "b2".into(), conn: 42, game, side: Side::White },
        ];
        for n in all {
            assert_eq!(Notice::parse(&n.to_json()), Some(n.clone()), "{}", n.to_json());
        }
        for stranger in ["", "hello", "{}", r#"{"k":"turn","s":"a","g":"g"}"#, r#"{"k":"new","s":"a","g":"g"}"#] {
            assert_eq!(Notice::parse(stranger), None, "{stranger}");
        }
        let side = r#"{"k":"presence","s":"a","g":"g","side":"grey","on":true}"#;
        assert_eq!(Notice::parse(side), None);
    }
}
