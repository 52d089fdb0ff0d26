//! Fanorona online play: the versioned protocol between the game (client) and `fanorona-server`.
//!
//! Every message is one JSON object in one WebSocket text frame, tagged by its `"type"` field. The client speaks
//! [`ClientMsg`], the server answers with [`ServerMsg`]. Only serde and serde_json are used, so the game can use
//! this crate as the client on the desktop and in the browser (wasm32, with `ewebsock`).
//!
//! # A session
//!
//! 1. The client sends [`ClientMsg::Hello`] with [`PROTOCOL_VERSION`]; the server answers [`ServerMsg::Welcome`]
//!    with the same version if it speaks it (every version from [`MIN_PROTOCOL_VERSION`] on), or
//!    [`ErrorCode::VersionMismatch`] and closes.
//! 2. The client then takes a place in a game:
//!    - [`ClientMsg::Create`]: a new game; the answer [`ServerMsg::Created`] holds the creator's seat token, the
//!      invite code to give the friend and a spectator token.
//!    - [`ClientMsg::Join`] with an invite code: the other seat; the answer [`ServerMsg::Seated`] holds its token.
//!      An invite code seats one player only.
//!    - [`ClientMsg::Resume`] with a seat token: back to that seat after a disconnection (any number of times).
//!    - [`ClientMsg::Spectate`] with a spectator token: read-only.
//!    - [`ClientMsg::QuickMatch`]: paired with the next player who asks for the same board; answered
//!      [`ServerMsg::Queued`], then [`ServerMsg::Seated`].
//!
//!    From protocol 2, [`ServerMsg::Seated`] also carries the game's spectator token whenever the server holds it
//!    (every game made since it stores the token; older ones have only its hash), for the player to share with
//!    whoever may watch.
//!
//!    Each is followed by a [`ServerMsg::State`], the full game.
//! 3. In a game, the server sends [`ServerMsg::TurnPlayed`] for each turn (to both players, the mover included, and to
//!    spectators), [`ServerMsg::State`] after anything else that changes the game (draw agreed, resignation,
//!    takeback, a seat taken), [`ServerMsg::Offer`] and [`ServerMsg::Declined`] for draw offers and takeback requests,
//!    and [`ServerMsg::Presence`] when the opponent connects or disconnects.
//! 4. Anything refused is answered [`ServerMsg::Error`] with an [`ErrorCode`], and changes nothing.
//!
//! After a lost connection, a client reconnects after [`Backoff`]'s delays and sends [`Session::on_connected`]'s
//! messages (hello, then `resume` with its seat token): it is back in its seat with a fresh [`ServerMsg::State`].
//!
//! Seat and spectator tokens are secrets of 128 random bits (32 hexadecimal digits): keep them to reconnect, never
//! show the seat token to the opponent. An invite code is shorter, to be read aloud or typed from a phone: 10
//! characters of Crockford's base32 ([`INVITE_ALPHABET`], 50 random bits), shown as `ABCDE-FGHJK`
//! ([`format_invite`]) and read back from whatever a person typed ([`normalize_invite`]). It seats one player, for a
//! limited time, and the server refuses joins from an address that sent too many wrong codes
//! ([`ErrorCode::RateLimited`]), so that trying codes until one fits takes far too long to be worth it. The game
//! id is not a secret and grants nothing.
//!
//! ```
//! use fanorona_net::{ClientMsg, ServerMsg, PROTOCOL_VERSION};
//! let hello = ClientMsg::Hello { version: PROTOCOL_VERSION };
//! let text = hello.to_json();
//! assert_eq!(text, r#"{"type":"hello","version":2}"#);
//! assert_eq!(fanorona_net::parse_client(&text), Ok(hello));
//! let welcome = ServerMsg::Welcome { version: PROTOCOL_VERSION };
//! assert_eq!(fanorona_net::parse_server(&welcome.to_json()), Ok(welcome));
//! ```

use serde::{Deserialize, Serialize};
use std::fmt;

/// The protocol version this crate speaks.
///
/// - 1: the first.
/// - 2: [`ServerMsg::Seated`] carries the game's spectator token (`spectate`) while the server holds it.
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest protocol version the server still speaks: a client saying hello with it gets the messages of its own
/// version (no field it would not know; [`ServerMsg::for_version`]).
pub const MIN_PROTOCOL_VERSION: u32 = 1;

/// The largest message either side accepts, in bytes. A full record of a long game is far below it.
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The largest client message the server accepts, in bytes: client messages are short.
pub const MAX_CLIENT_MESSAGE_BYTES: usize = 4 * 1024;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// The longest turn text, in bytes (a relay on the 9×5 board is far shorter).
pub const MAX_TURN_BYTES: usize = 512;

/// The longest rules text, in bytes.
pub const MAX_RULES_BYTES: usize = 256;

/// The length of a seat or spectator token: 32 hexadecimal digits (128 bits). Servers before short invite codes
/// gave invites of this form too, and [`check_invite`] still accepts one.
pub const TOKEN_CHARS: usize = 32;

/// The length of an invite code in its canonical form ([`normalize_invite`]): 10 characters of
/// [`INVITE_ALPHABET`], 50 bits.
pub const INVITE_CHARS: usize = 10;

/// The characters of an invite code: Crockford's base32, the digits and the upper-case letters without I, L, O and
/// U, so that no two of them are easily mistaken for each other when read aloud or handwritten. Each stands for 5
/// bits, in this order.
pub const INVITE_ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The board of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Board {
    /// Fanoron-Tsivy, 9 × 5: the main game.
    #[serde(rename = "9x5")]
    Tsivy,
    /// Fanoron-Dimy, 5 × 5.
    #[serde(rename = "5x5")]
    Dimy,
}

impl Board {
    /// The record's `Variant` tag text: `9x5` or `5x5`.
    pub fn tag(self) -> &'static str {
        match self {
            Board::Tsivy => "9x5",
            Board::Dimy => "5x5",
        }
    }
}

/// A player's colour (a seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// "white" or "black".
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
        }
    }
}

/// The creator's choice of colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn by the server.
    Random,
}

/// What a connection is in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Plays White.
    White,
    /// Plays Black.
    Black,
    /// Watches.
    Spectator,
}

/// What an [`ServerMsg::Offer`] or [`ServerMsg::Declined`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// A draw offer.
    Draw,
    /// A takeback request: the requester's last turn (and the opponent's reply, if any) is taken back.
    Takeback,
}

/// A message from the client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first message of every connection.
    Hello {
        /// [`PROTOCOL_VERSION`].
        version: u32,
    },
    /// Starts a new game against a friend.
    Create {
        /// The board.
        board: Board,
        /// The rule options as the engine's rules tag text (`Rules::to_tag`); empty for the default rules.
        #[serde(default)]
        rules: String,
        /// The creator's colour.
        colour: ColourChoice,
        /// The creator's display name (at most [`MAX_NAME_CHARS`] characters; empty for none).
        #[serde(default)]
        name: String,
    },
    /// Takes the free seat of a game with the invite code from [`ServerMsg::Created`].
    Join {
        /// The invite code, in any form [`normalize_invite`] reads (as the player typed it, say), or a 32-digit
        /// invite of an older server ([`check_invite`]).
        invite: String,
        /// The joiner's display name.
        #[serde(default)]
        name: String,
    },
    /// Comes back to a seat with its token.
    Resume {
        /// The seat token.
        token: String,
    },
    /// Watches a game with its spectator token.
    Spectate {
        /// The spectator token.
        token: String,
    },
    /// Asks to be paired with the next player who asks for the same board (default rules, colours drawn).
    QuickMatch {
        /// The board.
        board: Board,
        /// The display name.
        #[serde(default)]
        name: String,
    },
    /// Leaves the quick-match queue.
    CancelQuickMatch,
    /// Plays a whole turn.
    Turn {
        /// The number of turns played before this one; a turn sent twice (after a reconnection) or late is refused
        /// with [`ErrorCode::StaleTurn`] instead of being played in the wrong place.
        ply: u32,
        /// The turn in the engine's turn notation, e.g. `d3-e3A e3-e4W`.
        turn: String,
    },
    /// Offers a draw (or accepts the opponent's standing offer).
    OfferDraw,
    /// Accepts the opponent's draw offer.
    AcceptDraw,
    /// Declines the opponent's draw offer.
    DeclineDraw,
    /// Resigns the game.
    Resign,
    /// Asks to take back one's last turn.
    RequestTakeback,
    /// Accepts the opponent's takeback request.
    AcceptTakeback,
    /// Declines the opponent's takeback request.
    DeclineTakeback,
    /// Asks for a fresh [`ServerMsg::State`].
    Sync,
    /// Keeps an idle connection open; answered [`ServerMsg::Pong`].
    Ping,
}

impl ClientMsg {
    /// The message as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("client messages always serialize")
    }
}

/// One seat of a game, as everybody in it sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Whether a player holds the seat.
    pub taken: bool,
    /// The player's display name (empty if none).
    pub name: String,
    /// Whether the player is connected now.
    pub connected: bool,
}

/// The whole state of a game, sent on entering it and after changes other than a plain turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The game id (public; grants nothing).
    pub game: String,
    /// What the receiving connection is in this game.
    pub you: Role,
    /// The full game record text (tags and turns) that the engine's `Record::load` reads.
    pub record: String,
    /// Turns played so far (the `ply` the next [`ClientMsg::Turn`] carries).
    pub ply: u32,
    /// Whose turn it is; `None` once the game is over.
    pub to_move: Option<Colour>,
    /// The record's `Result` tag: `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How the game ended, in words (the record's `Termination` tag); empty while it goes on.
    pub termination: String,
    /// White's seat.
    pub white: SeatInfo,
    /// Black's seat.
    pub black: SeatInfo,
    /// The side with a standing draw offer.
    pub draw_offer: Option<Colour>,
    /// The side with a standing takeback request.
    pub takeback_request: Option<Colour>,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMsg {
    /// The answer to [`ClientMsg::Hello`].
    Welcome {
        /// The server's [`PROTOCOL_VERSION`].
        version: u32,
    },
    /// A game was created for this connection, which holds the creator's seat.
    Created {
        /// The game id.
        game: String,
        /// The creator's colour.
        colour: Colour,
        /// The creator's seat token (secret: keep it to reconnect).
        token: String,
        /// The code that seats the friend (once, for a limited time): [`INVITE_CHARS`] characters of
        /// [`INVITE_ALPHABET`] without grouping, to be shown with [`format_invite`]. (An older server sends 32
        /// hexadecimal digits; [`format_invite`] leaves those as they are.)
        invite: String,
        /// The token that lets anyone holding it watch.
        spectate: String,
    },
    /// This connection holds a seat (after [`ClientMsg::Join`], [`ClientMsg::Resume`] or a quick match).
    Seated {
        /// The game id.
        game: String,
        /// The seat's colour.
        colour: Colour,
        /// The seat token (secret: keep it to reconnect).
        token: String,
        /// The token that lets anyone holding it watch (protocol 2), whenever the server holds it (a game stored
        /// before the server kept it has only its hash). Absent, the player keeps the one it had.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spectate: Option<String>,
    },
    /// This connection watches a game.
    Spectating {
        /// The game id.
        game: String,
    },
    /// Waiting for a quick-match opponent.
    Queued {
        /// The board asked for.
        board: Board,
    },
    /// The full state of the game.
    State(GameState),
    /// A turn was played and stored.
    TurnPlayed {
        /// The number of turns before this one.
        ply: u32,
        /// Who played it.
        by: Colour,
        /// The turn, in turn notation.
        turn: String,
        /// Whose turn it is now; `None` if this turn ended the game (a [`ServerMsg::State`] follows).
        to_move: Option<Colour>,
    },
    /// A draw offer or takeback request was made.
    Offer {
        /// What is offered.
        kind: OfferKind,
        /// Who made it.
        by: Colour,
    },
    /// A draw offer or takeback request was declined (or withdrawn by a turn).
    Declined {
        /// What was declined.
        kind: OfferKind,
        /// Who declined.
        by: Colour,
    },
    /// A player connected or disconnected.
    Presence {
        /// The seat.
        colour: Colour,
        /// Whether it is connected now.
        connected: bool,
    },
    /// The answer to [`ClientMsg::Ping`].
    Pong,
    /// A request was refused; nothing changed.
    Error {
        /// What went wrong.
        code: ErrorCode,
        /// Details in English, for logs.
        message: String,
    },
}

impl ServerMsg {
    /// The message as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialize")
    }

    /// An error message.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error { code, message: message.into() }
    }

    /// The message as a client speaking protocol `version` reads it: without the fields its version lacks (a
    /// client of protocol 1 refuses a message with a field it does not know).
    pub fn for_version(self, version: u32) -> ServerMsg {
        match self {
            ServerMsg::Seated { game, colour, token, .. } if version < 2 => {
                ServerMsg::Seated { game, colour, token, spectate: None }
            }
            other => other,
        }
    }
}

/// Why the server refused a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The client's protocol version is not the server's; the connection is closed.
    VersionMismatch,
    /// The message is not valid JSON of a known message type.
    Malformed,
    /// The message is over the size limit.
    TooLarge,
    /// A field's value is out of bounds (a display name too long or with control characters, a bad token form).
    InvalidField,
    /// The first message must be [`ClientMsg::Hello`].
    HelloFirst,
    /// Too many messages per second, or too many wrong invite codes from this address lately (the message says how
    /// long to wait); slow down.
    RateLimited,
    /// No game has this token or invite code, or the invite was used or has expired.
    UnknownGame,
    /// The invite was already used: the seat is taken.
    SeatTaken,
    /// This connection is already in a game (or in the quick-match queue).
    AlreadyInGame,
    /// This connection is not in a game.
    NotInGame,
    /// Only a player may do this: the connection is a spectator.
    NotYourSeat,
    /// It is the opponent's turn.
    NotYourTurn,
    /// The turn's `ply` is not the number of turns played: it was sent twice or is late.
    StaleTurn,
    /// The turn is not turn notation.
    BadNotation,
    /// The turn is illegal in the current position.
    IllegalTurn,
    /// The game is over.
    GameOver,
    /// The rules text is not a valid rules tag.
    BadRules,
    /// There is no offer or request to answer, or nothing to take back.
    NothingToAnswer,
    /// The opponent's seat is still free.
    NoOpponent,
    /// The server could not store the change; nothing changed, try again.
    Internal,
    /// The server is at its limit of games or connections.
    ServerBusy,
}

/// Why a text could not be read as a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// [`ErrorCode::TooLarge`], [`ErrorCode::Malformed`] or [`ErrorCode::InvalidField`].
    pub code: ErrorCode,
    /// Details in English.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    fn new(code: ErrorCode, message: impl Into<String>) -> ParseError {
        ParseError { code, message: message.into() }
    }

    /// The error as the server sends it.
    pub fn to_msg(&self) -> ServerMsg {
        ServerMsg::error(self.code, self.message.clone())
    }
}

/// Reads a client message and checks its fields' bounds (sizes, names, token forms). Never panics.
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    if text.len() > MAX_CLIENT_MESSAGE_BYTES {
        return Err(ParseError::new(
            ErrorCode::TooLarge,
            format!("{} bytes; the limit is {MAX_CLIENT_MESSAGE_BYTES}", text.len()),
        ));
    }
    let msg: ClientMsg =
        serde_json::from_str(text).map_err(|e| ParseError::new(ErrorCode::Malformed, e.to_string()))?;
    validate_client(&msg)?;
    Ok(msg)
}

/// Reads a client message from bytes (a binary frame, or text not yet checked as UTF-8).
pub fn parse_client_bytes(bytes: &[u8]) -> Result<ClientMsg, ParseError> {
    if bytes.len() > MAX_CLIENT_MESSAGE_BYTES {
        return Err(ParseError::new(
            ErrorCode::TooLarge,
            format!("{} bytes; the limit is {MAX_CLIENT_MESSAGE_BYTES}", bytes.len()),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| ParseError::new(ErrorCode::Malformed, e.to_string()))?;
    parse_client(text)
}

/// Reads a server message (on the client). Never panics.
pub fn parse_server(text: &str) -> Result<ServerMsg, ParseError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ParseError::new(
            ErrorCode::TooLarge,
            format!("{} bytes; the limit is {MAX_MESSAGE_BYTES}", text.len()),
        ));
    }
    serde_json::from_str(text).map_err(|e| ParseError::new(ErrorCode::Malformed, e.to_string()))
}

fn validate_client(msg: &ClientMsg) -> Result<(), ParseError> {
    match msg {
        ClientMsg::Create { rules, name, .. } => {
            check_name(name)?;
            if rules.len() > MAX_RULES_BYTES {
                return Err(ParseError::new(ErrorCode::InvalidField, "rules text too long"));
            }
            Ok(())
        }
        ClientMsg::Join { invite, name } => {
            check_invite(invite)?;
            check_name(name)
        }
        ClientMsg::Resume { token } | ClientMsg::Spectate { token } => check_token(token),
        ClientMsg::QuickMatch { name, .. } => check_name(name),
        ClientMsg::Turn { turn, .. } => {
            if turn.len() > MAX_TURN_BYTES {
                return Err(ParseError::new(ErrorCode::InvalidField, "turn text too long"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Whether `name` is an acceptable display name: at most [`MAX_NAME_CHARS`] characters, no control, format or
/// line-separator characters (general categories Cc, Cf, Zl, Zp: no line breaks, no bidirectional overrides, no
/// invisible characters), no leading or trailing white space.
pub fn check_name(name: &str) -> Result<(), ParseError> {
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ParseError::new(ErrorCode::InvalidField, format!("names are at most {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(is_format_char) {
        return Err(ParseError::new(ErrorCode::InvalidField, "names may not hold control or formatting characters"));
    }
    if name.trim() != name {
        return Err(ParseError::new(ErrorCode::InvalidField, "names may not start or end with white space"));
    }
    Ok(())
}

/// Cleans a typed display name so that [`check_name`] accepts it: control and formatting characters dropped, white
/// space trimmed, cut to [`MAX_NAME_CHARS`] characters. For the client, before it sends a name.
pub fn sanitize_name(name: &str) -> String {
    let kept: String = name.chars().filter(|&c| !is_format_char(c)).collect();
    let cut: String = kept.trim().chars().take(MAX_NAME_CHARS).collect();
    cut.trim_end().to_string()
}

/// Characters a name may not hold, by Unicode general category: controls (Cc), invisible format characters (Cf:
/// bidirectional marks and overrides, zero-width joiners, the soft hyphen, the Arabic letter mark, tag characters),
/// which could make one name pass for another, and the line and paragraph separators (Zl, Zp), which break a line.
/// Unassigned and private-use characters are let through: a newer Unicode may assign them letters.
fn is_format_char(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    matches!(
        get_general_category(c),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// Whether `token` has the form of a seat or spectator token: [`TOKEN_CHARS`] lowercase hexadecimal digits.
pub fn check_token(token: &str) -> Result<(), ParseError> {
    if token.len() == TOKEN_CHARS && token.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        Ok(())
    } else {
        Err(ParseError::new(ErrorCode::InvalidField, format!("tokens are {TOKEN_CHARS} lowercase hexadecimal digits")))
    }
}

/// Whether `invite` has the form of an invite code: anything [`normalize_invite`] reads, or a token of
/// [`TOKEN_CHARS`] lowercase hexadecimal digits. The long form is what servers gave before short codes; it stays
/// accepted so that invites handed out just before an upgrade still seat their friend (until they expire). The two
/// never overlap: the short form has 10 characters once spaces and hyphens are left out, the long one 32.
pub fn check_invite(invite: &str) -> Result<(), ParseError> {
    if normalize_invite(invite).is_some() || check_token(invite).is_ok() {
        Ok(())
    } else {
        Err(ParseError::new(
            ErrorCode::InvalidField,
            format!("an invite code is {INVITE_CHARS} letters and digits, like 7KQ2M-XW9PD"),
        ))
    }
}

/// The canonical form of an invite code as a person typed or read it out: [`INVITE_CHARS`] characters of
/// [`INVITE_ALPHABET`], or `None` if it is not one. Letters may be in either case; spaces, hyphens and dashes may
/// stand anywhere (a code is shown grouped, and gets copied with its grouping); and, as in Crockford's base32, `O`
/// is read as `0`, and `I` and `L` as `1`, since the alphabet leaves those letters out precisely because they look
/// like the digits. `U` is no code character. Never panics, whatever the text.
///
/// ```
/// use fanorona_net::normalize_invite;
/// assert_eq!(normalize_invite(" 7kq2m-xw9pd "), Some("7KQ2MXW9PD".to_string()));
/// assert_eq!(normalize_invite("7KQ2M XW9PO"), Some("7KQ2MXW9P0".to_string()));
/// assert_eq!(normalize_invite("7KQ2M-XW9P"), None);
/// ```
pub fn normalize_invite(text: &str) -> Option<String> {
    let mut code = String::with_capacity(INVITE_CHARS);
    for c in text.chars() {
        if c.is_whitespace() || is_dash(c) {
            continue;
        }
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c if c.is_ascii() && INVITE_ALPHABET.contains(c) => c,
            _ => return None,
        };
        // Stop at the first character too many rather than reading a long text to its end.
        if code.len() == INVITE_CHARS {
            return None;
        }
        code.push(c);
    }
    (code.len() == INVITE_CHARS).then_some(code)
}

/// Hyphens and the dashes that text editors and chat apps put in their place.
fn is_dash(c: char) -> bool {
    matches!(c, '-' | '\u{2010}'..='\u{2015}' | '\u{2212}')
}

/// An invite code as shown to people: its canonical form in two groups of five, `ABCDE-FGHJK`, easier to read
/// aloud and to compare. Text that is no short code (a 32-digit invite of an older server) is returned unchanged, so
/// that a client can pass whatever [`ServerMsg::Created`] carried.
///
/// ```
/// assert_eq!(fanorona_net::format_invite("7kq2mxw9pd"), "7KQ2M-XW9PD");
/// ```
pub fn format_invite(code: &str) -> String {
    match normalize_invite(code) {
        Some(c) => format!("{}-{}", &c[..INVITE_CHARS / 2], &c[INVITE_CHARS / 2..]),
        None => code.to_string(),
    }
}

/// The invite code of the low 50 bits of `bits` (the higher ones are ignored), in canonical form: each character
/// stands for 5 bits, the most significant first. Different 50-bit values give different codes, so a server that
/// draws the bits at random draws the code at random.
pub fn invite_from_bits(bits: u64) -> String {
    let alphabet = INVITE_ALPHABET.as_bytes();
    (0..INVITE_CHARS).rev().map(|i| char::from(alphabet[((bits >> (5 * i)) & 31) as usize])).collect()
}

/// Reconnection delays for a client that lost its connection: doubling from 250 ms to at most 10 s, each spread by
/// up to a quarter at random so that many clients cut off at once do not all come back in the same instant.
#[derive(Clone, Debug)]
pub struct Backoff {
    attempt: u32,
    state: u64,
}

impl Backoff {
    /// The first delay, in milliseconds.
    pub const FIRST_MS: u64 = 250;
    /// The longest delay, in milliseconds.
    pub const MAX_MS: u64 = 10_000;

    /// A new schedule; `seed` spreads the delays (any value, e.g. the clock).
    pub fn new(seed: u64) -> Backoff {
        Backoff { attempt: 0, state: seed | 1 }
    }

    /// The delay before the next attempt, in milliseconds.
    pub fn next_delay_ms(&mut self) -> u64 {
        let base = (Self::FIRST_MS << self.attempt.min(6)).min(Self::MAX_MS);
        self.attempt = self.attempt.saturating_add(1);
        // xorshift64: no rand dependency on wasm, and the spread needs no quality.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        base - (self.state % (base / 4 + 1))
    }

    /// Starts again from the first delay, after a connection succeeded.
    pub fn reset(&mut self) {
        self.attempt = 0;
    }
}

/// What a client keeps across connections: its place (seat or spectator) and its secrets, so that after any
/// reconnection it can say hello and go straight back. Feed it every [`ServerMsg`]; on each new connection send
/// [`Session::on_connected`]'s messages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The game id, once in a game.
    pub game: Option<String>,
    /// The seat's colour, when playing.
    pub colour: Option<Colour>,
    /// The seat token, when playing (secret).
    pub token: Option<String>,
    /// The invite code to give the friend, while it may be unused (secret).
    pub invite: Option<String>,
    /// The spectator token, when known (from [`ServerMsg::Created`] or a [`ServerMsg::Seated`] that carries it, or
    /// given to watch).
    pub spectate: Option<String>,
    /// Turns played, as last heard.
    pub ply: u32,
}

impl Session {
    /// A session that watches a game with a spectator token.
    pub fn spectator(token: String) -> Session {
        Session { spectate: Some(token), ..Session::default() }
    }

    /// Notes what a server message tells about this client's place.
    pub fn on_message(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Created { game, colour, token, invite, spectate } => {
                self.game = Some(game.clone());
                self.colour = Some(*colour);
                self.token = Some(token.clone());
                self.invite = Some(invite.clone());
                self.spectate = Some(spectate.clone());
                self.ply = 0;
            }
            ServerMsg::Seated { game, colour, token, spectate } => {
                self.game = Some(game.clone());
                self.colour = Some(*colour);
                self.token = Some(token.clone());
                if spectate.is_some() {
                    self.spectate = spectate.clone();
                }
            }
            ServerMsg::Spectating { game } => self.game = Some(game.clone()),
            ServerMsg::State(s) => {
                self.ply = s.ply;
                if s.white.taken && s.black.taken {
                    self.invite = None;
                }
            }
            ServerMsg::TurnPlayed { ply, .. } => self.ply = ply + 1,
            _ => {}
        }
    }

    /// The messages to send on a new connection: hello, then back to the seat or to watching, if any.
    pub fn on_connected(&self) -> Vec<ClientMsg> {
        let mut out = vec![ClientMsg::Hello { version: PROTOCOL_VERSION }];
        if let Some(token) = &self.token {
            out.push(ClientMsg::Resume { token: token.clone() });
        } else if let Some(token) = &self.spectate {
            out.push(ClientMsg::Spectate { token: token.clone() });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_message_round_trips() {
        let token = "0123456789abcdef0123456789abcdef".to_string();
        let msgs = vec![
            ClientMsg::Hello { version: 1 },
            ClientMsg::Create {
                board: Board::Dimy,
                rules: "first=black".into(),
                colour: ColourChoice::Random,
                name: "Rasoa".into(),
            },
            ClientMsg::Join { invite: token.clone(), name: "Be".into() },
            ClientMsg::Resume { token: token.clone() },
            ClientMsg::Spectate { token },
            ClientMsg::QuickMatch { board: Board::Tsivy, name: String::new() },
            ClientMsg::CancelQuickMatch,
            ClientMsg::Turn { ply: 3, turn: "d3-e3A e3-e4W".into() },
            ClientMsg::OfferDraw,
            ClientMsg::AcceptDraw,
            ClientMsg::DeclineDraw,
            ClientMsg::Resign,
            ClientMsg::RequestTakeback,
            ClientMsg::AcceptTakeback,
            ClientMsg::DeclineTakeback,
            ClientMsg::Sync,
            ClientMsg::Ping,
        ];
        for m in msgs {
            assert_eq!(parse_client(&m.to_json()), Ok(m.clone()), "{}", m.to_json());
        }
    }

    #[test]
    fn wire_form_is_stable() {
        let m = ClientMsg::Create {
            board: Board::Tsivy,
            rules: String::new(),
            colour: ColourChoice::White,
            name: "A".into(),
        };
        assert_eq!(m.to_json(), r#"{"type":"create","board":"9x5","rules":"","colour":"white","name":"A"}"#);
        assert_eq!(ClientMsg::OfferDraw.to_json(), r#"{"type":"offer_draw"}"#);
        let e = ServerMsg::error(ErrorCode::NotYourTurn, "wait");
        assert_eq!(e.to_json(), r#"{"type":"error","code":"not_your_turn","message":"wait"}"#);
        // Optional fields may be left out.
        assert_eq!(
            parse_client(r#"{"type":"create","board":"5x5","colour":"random"}"#),
            Ok(ClientMsg::Create {
                board: Board::Dimy,
                rules: String::new(),
                colour: ColourChoice::Random,
                name: String::new()
            })
        );
    }

    #[test]
    fn server_state_round_trips() {
        let seat = SeatInfo { taken: true, name: "A".into(), connected: false };
        let s = ServerMsg::State(GameState {
            game: "00ff".into(),
            you: Role::Spectator,
            record: "[Variant \"9x5\"]\n\n1. d3-e3A\n".into(),
            ply: 1,
            to_move: Some(Colour::Black),
            result: "*".into(),
            termination: String::new(),
            white: seat.clone(),
            black: seat,
            draw_offer: None,
            takeback_request: Some(Colour::White),
        });
        assert_eq!(parse_server(&s.to_json()), Ok(s));
    }

    #[test]
    fn bad_input_gets_typed_errors() {
        let code = |t: &str| parse_client(t).unwrap_err().code;
        assert_eq!(code("not json"), ErrorCode::Malformed);
        assert_eq!(code(r#"{"type":"launch_missiles"}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"type":"hello"}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"type":"hello","version":1,"extra":2}"#), ErrorCode::Malformed);
        assert_eq!(code(r#"{"type":"hello","version":-1}"#), ErrorCode::Malformed);
        assert_eq!(code(&" ".repeat(MAX_CLIENT_MESSAGE_BYTES + 1)), ErrorCode::TooLarge);
        assert_eq!(code(r#"{"type":"resume","token":"ABC"}"#), ErrorCode::InvalidField);
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(
            code(&format!(r#"{{"type":"quick_match","board":"9x5","name":"{long}"}}"#)),
            ErrorCode::InvalidField
        );
        assert_eq!(code(r#"{"type":"quick_match","board":"9x5","name":"a\nb"}"#), ErrorCode::InvalidField);
        assert_eq!(code(r#"{"type":"quick_match","board":"9x5","name":"a\u202eb"}"#), ErrorCode::InvalidField);
        assert_eq!(parse_client_bytes(&[0xff, 0xfe]).unwrap_err().code, ErrorCode::Malformed);
    }

    /// The 50 bits a canonical code stands for (the inverse of [`invite_from_bits`]).
    fn invite_bits(code: &str) -> u64 {
        code.bytes().fold(0, |acc, b| (acc << 5) | INVITE_ALPHABET.bytes().position(|a| a == b).unwrap() as u64)
    }

    #[test]
    fn invite_codes_read_what_people_type() {
        let canonical = Some("7KQ2MXW9PD".to_string());
        for typed in
            ["7KQ2MXW9PD", "7kq2mxw9pd", "7KQ2M-XW9PD", " 7kq2m xw9pd\n", "7-k-q-2-m x w 9 p d", "7KQ2M\u{2013}XW9PD"]
        {
            assert_eq!(normalize_invite(typed), canonical, "{typed:?}");
        }
        // Crockford's confusions: O is zero, I and L are one, in either case.
        assert_eq!(normalize_invite("oOiIlL0123").as_deref(), Some("0011110123"));
        // Too short, too long, a letter the alphabet leaves out, punctuation, other scripts: not a code.
        for bad in ["", "   -  ", "7KQ2MXW9P", "7KQ2MXW9PDX", "7KQ2MXW9PU", "7KQ2M_XW9PD", "7KQ2M.XW9PD", "7KQ2MXW9PÉ"]
        {
            assert_eq!(normalize_invite(bad), None, "{bad:?}");
        }
        assert_eq!(normalize_invite(&"A".repeat(100_000)), None);
        // Whatever it returns is canonical: read again, it is unchanged.
        for code in ["0000000000", "ZZZZZZZZZZ", "7KQ2MXW9PD"] {
            assert_eq!(normalize_invite(code).as_deref(), Some(code));
            assert!(code.bytes().all(|b| INVITE_ALPHABET.as_bytes().contains(&b)));
        }
    }

    #[test]
    fn invite_codes_are_shown_in_two_groups() {
        assert_eq!(format_invite("7kq2mxw9pd"), "7KQ2M-XW9PD");
        assert_eq!(format_invite(" 7KQ2M - XW9PO"), "7KQ2M-XW9P0");
        assert_eq!(normalize_invite(&format_invite("7KQ2MXW9PD")).as_deref(), Some("7KQ2MXW9PD"));
        // An older server's long invite, or anything else, is left as it came.
        let long = "0123456789abcdef0123456789abcdef";
        assert_eq!(format_invite(long), long);
        assert_eq!(format_invite("hello"), "hello");
    }

    #[test]
    fn invite_codes_stand_for_50_bits_each() {
        assert_eq!(INVITE_ALPHABET.len(), 32);
        assert_eq!(invite_from_bits(0), "0000000000");
        assert_eq!(invite_from_bits((1 << 50) - 1), "ZZZZZZZZZZ");
        assert_eq!(invite_from_bits(u64::MAX), "ZZZZZZZZZZ", "the bits above 50 are ignored");
        assert_eq!(invite_from_bits(1 << 45), "1000000000", "the most significant character first");
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let code = invite_from_bits(x);
            assert_eq!(code.len(), INVITE_CHARS);
            assert_eq!(normalize_invite(&code).as_deref(), Some(code.as_str()));
            assert_eq!(invite_bits(&code), x & ((1 << 50) - 1), "no two 50-bit values share a code");
        }
    }

    #[test]
    fn joins_take_short_invites_as_typed_and_long_ones_of_older_servers() {
        let join =
            |invite: &str| parse_client(&ClientMsg::Join { invite: invite.into(), name: String::new() }.to_json());
        for ok in ["7KQ2MXW9PD", "7kq2m-xw9pd", " 7KQ2M XW9PO ", "0123456789abcdef0123456789abcdef"] {
            assert!(join(ok).is_ok(), "{ok:?}");
        }
        // The message is kept as sent: the server reads the code when it looks it up.
        assert_eq!(join("7kq2m-xw9pd").unwrap(), ClientMsg::Join { invite: "7kq2m-xw9pd".into(), name: String::new() });
        for bad in
            ["7KQ2MXW9P", "7KQ2MXW9PU", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcde", ""]
        {
            assert_eq!(join(bad).unwrap_err().code, ErrorCode::InvalidField, "{bad:?}");
        }
        // Seat and spectator tokens stay long: a short code is no token.
        assert_eq!(
            parse_client(&ClientMsg::Resume { token: "7KQ2MXW9PD".into() }.to_json()).unwrap_err().code,
            ErrorCode::InvalidField
        );
    }

    #[test]
    fn names_are_sanitized() {
        assert_eq!(sanitize_name("  Ra\u{202E}soa\n "), "Rasoa");
        assert_eq!(sanitize_name(&"é".repeat(40)).chars().count(), MAX_NAME_CHARS);
        assert!(check_name(&sanitize_name(" x \u{7}y    ")).is_ok());
        assert_eq!(sanitize_name("Be Razafy"), "Be Razafy");
    }

    #[test]
    fn invisible_and_line_breaking_characters_are_refused_in_names() {
        // The Arabic letter mark, the soft hyphen, the line and paragraph separators, the language tag and tag
        // characters (which can spell hidden text), with the controls and bidirectional overrides of before.
        let refused = [
            '\u{061C}',
            '\u{00AD}',
            '\u{2028}',
            '\u{2029}',
            '\u{E0001}',
            '\u{E0020}',
            '\u{E0041}',
            '\u{E007F}',
            '\u{202E}',
            '\u{200B}',
            '\u{FEFF}',
            '\u{0}',
            '\u{7}',
            '\n',
            '\u{85}',
        ];
        for c in refused {
            let name = format!("Ra{c}soa");
            let err = check_name(&name).expect_err(&format!("U+{:04X} let through", c as u32));
            assert_eq!(err.code, ErrorCode::InvalidField);
            assert_eq!(sanitize_name(&name), "Rasoa", "U+{:04X}", c as u32);
            assert!(check_name(&sanitize_name(&name)).is_ok());
        }
        // Letters of any script, marks, emoji and private-use characters stay.
        for ok in ["Rasoa", "Ñandú", "Razafy\u{0301}", "فانورونا", "🦊 Be", "\u{E000}x"] {
            assert!(check_name(ok).is_ok(), "{ok:?}");
            assert_eq!(sanitize_name(ok), ok);
        }
    }

    #[test]
    fn backoff_grows_to_a_bound_and_resets() {
        let mut b = Backoff::new(7);
        let delays: Vec<u64> = (0..12).map(|_| b.next_delay_ms()).collect();
        assert!(delays[0] <= Backoff::FIRST_MS && delays[0] >= Backoff::FIRST_MS * 3 / 4);
        assert!(delays.iter().all(|&d| d <= Backoff::MAX_MS));
        assert!(delays[11] >= Backoff::MAX_MS * 3 / 4);
        b.reset();
        assert!(b.next_delay_ms() <= Backoff::FIRST_MS);
    }

    #[test]
    fn the_seats_spectator_token_reaches_clients_of_protocol_2_only() {
        let token = "0123456789abcdef0123456789abcdef".to_string();
        let watch = "fedcba9876543210fedcba9876543210".to_string();
        let seated =
            ServerMsg::Seated { game: "g".into(), colour: Colour::White, token, spectate: Some(watch.clone()) };
        assert_eq!(parse_server(&seated.to_json()), Ok(seated.clone()));
        assert!(seated.to_json().contains(&watch));
        // A client of protocol 1 gets the message exactly as protocol 1 wrote it.
        let old = seated.clone().for_version(1);
        assert_eq!(
            old.to_json(),
            r#"{"type":"seated","game":"g","colour":"white","token":"0123456789abcdef0123456789abcdef"}"#
        );
        assert_eq!(seated.clone().for_version(PROTOCOL_VERSION), seated);
        // And a client of protocol 2 reads a seat without one (a join or a resume).
        assert!(matches!(parse_server(&old.to_json()), Ok(ServerMsg::Seated { spectate: None, .. })));
        let mut s = Session::default();
        s.on_message(&seated);
        assert_eq!(s.spectate.as_deref(), Some(watch.as_str()));
        s.on_message(&old);
        assert_eq!(s.spectate.as_deref(), Some(watch.as_str()), "a later resume does not forget it");
    }

    #[test]
    fn a_session_goes_back_to_its_seat() {
        let mut s = Session::default();
        assert_eq!(s.on_connected(), vec![ClientMsg::Hello { version: PROTOCOL_VERSION }]);
        let token = "0123456789abcdef0123456789abcdef".to_string();
        s.on_message(&ServerMsg::Seated {
            game: "g".into(),
            colour: Colour::Black,
            token: token.clone(),
            spectate: None,
        });
        s.on_message(&ServerMsg::TurnPlayed { ply: 4, by: Colour::White, turn: "d3-e3A".into(), to_move: None });
        assert_eq!(s.ply, 5);
        assert_eq!(s.on_connected()[1], ClientMsg::Resume { token });
        let w = Session::spectator("ab".into());
        assert_eq!(w.on_connected()[1], ClientMsg::Spectate { token: "ab".into() });
        // The game can keep a session in its settings.
        assert_eq!(serde_json::from_str::<Session>(&serde_json::to_string(&s).unwrap()).unwrap(), s);
    }
}
