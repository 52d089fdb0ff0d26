//! Positions, steps and bitboard move generation: the exact rules of a turn, one step at a time.

use crate::geometry::{DIR_RING, Direction, Geometry, NO_POINT, RING_DELTA, RING_DIR, STRIDE, Variant, point_name};
use crate::rules::{RelayRule, Rules, Side, Vela};
use crate::zobrist;
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of step a [`Step`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum StepKind {
    /// A non-capturing move to an adjacent point; legal only when no capture exists.
    Paika = 0,
    /// A capture by approach: the enemy run starts just beyond the destination.
    Approach = 1,
    /// A capture by withdrawal: the enemy run starts just behind the origin.
    Withdrawal = 2,
    /// End a relay after at least one capture (the piece stays where it is).
    Stop = 3,
}

impl StepKind {
    /// Whether this step captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        matches!(self, StepKind::Approach | StepKind::Withdrawal)
    }
}

/// One step of a turn. For [`StepKind::Stop`], `from == to` is the relaying piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// Origin point.
    pub from: u8,
    /// Destination point.
    pub to: u8,
    /// Direction of travel.
    pub dir: Direction,
    /// Paika, approach, withdrawal or stop.
    pub kind: StepKind,
}

impl Step {
    /// A step from `from` to the adjacent point in direction `dir` (on the 9-wide layout).
    #[inline]
    pub const fn new(from: u8, dir: Direction, kind: StepKind) -> Step {
        let to = (from as i16 + Self::delta(dir) as i16) as u8;
        Step { from, to, dir, kind }
    }

    /// The step that ends a relay of the piece on `piece`.
    #[inline]
    pub const fn stop(piece: u8) -> Step {
        Step { from: piece, to: piece, dir: Direction::East, kind: StepKind::Stop }
    }

    const fn delta(dir: Direction) -> i8 {
        let (df, dr) = dir.offset();
        df + dr * STRIDE as i8
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            StepKind::Stop => write!(f, "stop"),
            StepKind::Paika => write!(f, "{}-{}", point_name(self.from), point_name(self.to)),
            StepKind::Approach => write!(f, "{}-{}A", point_name(self.from), point_name(self.to)),
            StepKind::Withdrawal => write!(f, "{}-{}W", point_name(self.from), point_name(self.to)),
        }
    }
}

/// Upper bound on the legal steps of a position: each of the 108 line segments gives at most one
/// (own piece → empty point) pair, which is at most two captures or one paika step; plus a stop.
pub const MAX_STEPS: usize = 2 * 108 + 1;

/// A fixed-capacity list of steps, filled by the move generator without allocating or zeroing.
#[derive(Clone)]
pub struct StepList {
    len: usize,
    steps: [MaybeUninit<Step>; MAX_STEPS],
}

impl Default for StepList {
    fn default() -> Self {
        Self::new()
    }
}

impl StepList {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        StepList { len: 0, steps: [const { MaybeUninit::uninit() }; MAX_STEPS] }
    }

    #[inline(always)]
    fn push(&mut self, s: Step) {
        self.steps[self.len] = MaybeUninit::new(s);
        self.len += 1;
    }

    /// Removes every step.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of steps.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Step] {
        // SAFETY: the first `len` entries were written by `push`, and `Step` is `Copy` (no drop).
        unsafe { std::slice::from_raw_parts(self.steps.as_ptr().cast::<Step>(), self.len) }
    }

    /// Mutable access, for move ordering.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Step] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.steps.as_mut_ptr().cast::<Step>(), self.len) }
    }

    /// Iterates over the steps.
    pub fn iter(&self) -> std::slice::Iter<'_, Step> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for StepList {
    type Target = [Step];
    fn deref(&self) -> &[Step] {
        self.as_slice()
    }
}

// Position flags. The option bits are fixed for a game; the state bits change as it goes.
const OPT_LINES: u8 = 1;
const OPT_FIRST_NO_RELAY: u8 = 2;
const OPT_SINGLE_FIRST: u8 = 4;
const FIRST_TURN: u8 = 8;
const CAPTURED_WHITE: u8 = 16;
const NO_VELA: u8 = 2;

/// Why a step is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is over: the side to move has no piece or no legal step.
    GameOver,
    /// A point is not on this board.
    OffBoard(u8),
    /// There is no piece of the side to move on the origin.
    NotYourPiece(u8),
    /// The two points are not joined by a line (e.g. a diagonal from a weak point).
    NotJoined,
    /// The destination is occupied.
    Occupied(u8),
    /// A capture is available, so a paika step is not allowed.
    CaptureCompulsory,
    /// The step claims a capture but there is no enemy piece to take that way.
    NothingToCapture,
    /// The side to move may not capture now (the vela winner before the threshold).
    VelaNoCapture,
    /// A relay is in progress and only its piece may move.
    MustContinueWith(u8),
    /// A relay step may not go in the same direction as the previous step.
    SameDirection,
    /// A relay step may not land on a point the piece already stood on this turn.
    Revisited(u8),
    /// A relay step may not travel along a line segment already travelled this turn ("lines" rule).
    SegmentReused,
    /// Every step of a relay after the first must capture.
    RelayMustCapture,
    /// There is no relay to stop.
    NoRelay,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalReason::GameOver => {
                write!(f, "the game is over: the side to move has no legal step")
            }
            IllegalReason::OffBoard(p) => write!(f, "{} is not on this board", point_name(p)),
            IllegalReason::NotYourPiece(p) => write!(f, "there is no piece of the side to move on {}", point_name(p)),
            IllegalReason::NotJoined => write!(f, "the two points are not joined by a line"),
            IllegalReason::Occupied(p) => write!(f, "{} is occupied", point_name(p)),
            IllegalReason::CaptureCompulsory => {
                write!(f, "a capture is available, so capturing is compulsory")
            }
            IllegalReason::NothingToCapture => write!(f, "there is nothing to capture that way"),
            IllegalReason::VelaNoCapture => write!(f, "the vela winner may not capture yet"),
            IllegalReason::MustContinueWith(p) => {
                write!(f, "a relay is in progress: only the piece on {} may move", point_name(p))
            }
            IllegalReason::SameDirection => {
                write!(f, "a relay may not go in the same direction twice in a row")
            }
            IllegalReason::Revisited(p) => {
                write!(f, "the piece already stood on {} this turn", point_name(p))
            }
            IllegalReason::SegmentReused => {
                write!(f, "that line segment was already travelled this turn")
            }
            IllegalReason::RelayMustCapture => write!(f, "every step of a relay must capture"),
            IllegalReason::NoRelay => write!(f, "there is no relay to stop"),
        }
    }
}

impl std::error::Error for IllegalReason {}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StepEffect {
    /// The enemy pieces removed (a bitboard).
    pub captured: u64,
    /// Whether the step ended the turn (the side to move changed).
    pub turn_ended: bool,
}

/// A position at the start of a turn or in the middle of a relay, with the per-game rule flags that legality
/// depends on. Copy-make: playing a step changes the value in place; keep a copy to go back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pieces: [u64; 2],
    key: u64,
    visited: u64,
    segments: [u64; 4],
    side: Side,
    variant: Variant,
    flags: u8,
    relay_piece: u8,
    relay_dir: u8,
    vela_winner: u8,
    vela_left: u8,
}

impl Position {
    /// The start position of `rules.variant` under `rules`.
    pub fn start(rules: &Rules) -> Position {
        let g = rules.variant.geometry();
        let w = g.width as u32;
        let mut white = 0u64;
        let mut black = 0u64;
        for p in 0..64u8 {
            if !g.contains(p) {
                continue;
            }
            let (f, r) = crate::geometry::coords(p);
            match r {
                0 | 1 => white |= 1 << p,
                3 | 4 => black |= 1 << p,
                _ => {
                    // Rank 3 reads B W B W · B W B W on 9 files and B W · B W on 5: the centre is empty, and
                    // the colours alternate starting with Black on each side of it.
                    let c = w / 2;
                    let f = f as u32;
                    if f != c {
                        let k = if f < c { f } else { f - c - 1 };
                        if k % 2 == 0 { black |= 1 << p } else { white |= 1 << p }
                    }
                }
            }
        }
        Position::from_parts(rules.variant, white, black, rules.starting_side(), rules)
    }

    /// A position from raw bitboards, at the start of a game under `rules` (so the first-turn flags are set).
    /// Bits outside the board, or set for both sides, are the caller's bug; [`Position::from_fen`] checks them.
    pub fn from_parts(variant: Variant, white: u64, black: u64, side: Side, rules: &Rules) -> Position {
        let board = variant.geometry().board;
        debug_assert!(white & !board == 0 && black & !board == 0 && white & black == 0);
        let mut flags = 0;
        if rules.relay == RelayRule::Lines {
            flags |= OPT_LINES;
        }
        if rules.first_turn_no_relay {
            flags |= OPT_FIRST_NO_RELAY | FIRST_TURN;
        }
        if rules.single_first_capture {
            flags |= OPT_SINGLE_FIRST;
        }
        let (vela_winner, vela_left) = match rules.vela {
            Some(Vela { winner, captured }) => {
                let t = Vela::threshold(variant);
                if captured < t { (winner as u8, t - captured) } else { (NO_VELA, 0) }
            }
            None => (NO_VELA, 0),
        };
        let mut pos = Position {
            pieces: [white & board, black & board],
            key: 0,
            visited: 0,
            segments: [0; 4],
            side,
            variant,
            flags,
            relay_piece: NO_POINT,
            relay_dir: 0,
            vela_winner,
            vela_left,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The same pieces and side to move with other rules (flags reset to a game start under `rules`).
    pub fn with_rules(&self, rules: &Rules) -> Position {
        Position::from_parts(self.variant, self.pieces[0], self.pieces[1], self.side, rules)
    }

    fn compute_key(&self) -> u64 {
        let mut k = if self.side == Side::Black { zobrist::SIDE } else { 0 };
        for s in Side::BOTH {
            let mut bb = self.pieces[s.index()];
            while bb != 0 {
                k ^= zobrist::PIECE[s.index()][bb.trailing_zeros() as usize];
                bb &= bb - 1;
            }
        }
        k
    }

    /// The board variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board tables.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry {
        self.variant.geometry()
    }

    /// The side to move (during a relay, the relaying side).
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The pieces of one side as a bitboard.
    #[inline]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self) -> u64 {
        self.geometry().board & !(self.pieces[0] | self.pieces[1])
    }

    /// The piece on a point, if any.
    pub fn piece_at(&self, p: u8) -> Option<Side> {
        if p >= 64 {
            None
        } else if self.pieces[0] >> p & 1 == 1 {
            Some(Side::White)
        } else if self.pieces[1] >> p & 1 == 1 {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// Number of pieces of one side.
    #[inline]
    pub fn count(&self, side: Side) -> u32 {
        self.pieces[side.index()].count_ones()
    }

    /// The relaying piece, if a relay is in progress.
    #[inline]
    pub fn relay_piece(&self) -> Option<u8> {
        (self.relay_piece != NO_POINT).then_some(self.relay_piece)
    }

    /// Whether a relay is in progress (the turn has captured and may continue).
    #[inline]
    pub fn in_relay(&self) -> bool {
        self.relay_piece != NO_POINT
    }

    /// Direction of the previous step of the relay in progress.
    pub fn relay_direction(&self) -> Option<Direction> {
        self.in_relay().then(|| Direction::from_index(self.relay_dir))
    }

    /// Points the relaying piece has stood on this turn (its start included); 0 outside a relay.
    #[inline]
    pub fn visited(&self) -> u64 {
        self.visited
    }

    /// Whether the vela phase is on, and if so who the (non-capturing) previous winner is and how many more of
    /// their pieces must be captured before normal play.
    pub fn vela(&self) -> Option<(Side, u8)> {
        match self.vela_winner {
            0 => Some((Side::White, self.vela_left)),
            1 => Some((Side::Black, self.vela_left)),
            _ => None,
        }
    }

    /// Whether this is still the first turn of the game (tracked only with the "first turn without relay" option).
    pub fn is_first_turn(&self) -> bool {
        self.flags & FIRST_TURN != 0
    }

    /// Whether `side` has made a capturing turn (tracked only with the "single first capture" option).
    pub fn has_captured(&self, side: Side) -> bool {
        self.flags & (CAPTURED_WHITE << side.index()) != 0
    }

    /// The rule options this position plays under, as far as they affect legality (variant, relay rule,
    /// first-turn and first-capture options, vela). The draw rule is the game record's business.
    pub fn rules(&self) -> Rules {
        Rules {
            variant: self.variant,
            first_player: Side::White,
            relay: if self.flags & OPT_LINES != 0 { RelayRule::Lines } else { RelayRule::Default },
            first_turn_no_relay: self.flags & OPT_FIRST_NO_RELAY != 0,
            single_first_capture: self.flags & OPT_SINGLE_FIRST != 0,
            vela: self.vela().map(|(winner, left)| Vela { winner, captured: Vela::threshold(self.variant) - left }),
            draw: Default::default(),
        }
    }

    /// A 64-bit hash of everything that decides the future of the game from here: pieces, side to move, relay
    /// state and rule state. Zobrist keys for the pieces; the rarer relay and flag state are mixed in.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.key;
        if self.in_relay() {
            let mut r = zobrist::mix(self.visited ^ zobrist::RELAY);
            r ^= zobrist::mix(((self.relay_piece as u64) << 8 | self.relay_dir as u64) ^ zobrist::RELAY_PIECE);
            if self.flags & OPT_LINES != 0 {
                for (i, s) in self.segments.iter().enumerate() {
                    r ^= zobrist::mix(s.rotate_left(i as u32 * 13) ^ zobrist::SEGMENTS[i]);
                }
            }
            h ^= r;
        }
        let state = (self.flags as u64) | (self.vela_winner as u64) << 8 | (self.vela_left as u64) << 16;
        if state != 0 {
            h ^= zobrist::mix(state ^ zobrist::FLAGS);
        }
        h
    }

    /// The Zobrist key of pieces and side to move only (equal for positions that differ only in relay state).
    #[inline]
    pub fn piece_key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    fn own_opp(&self) -> (u64, u64) {
        (self.pieces[self.side.index()], self.pieces[self.side.opponent().index()])
    }

    /// Whether the side to move may capture at all (not the vela winner during the vela phase).
    #[inline(always)]
    fn may_capture(&self) -> bool {
        self.vela_winner != self.side as u8
    }

    /// Whether the side to move has a capture at the start of its turn: for each direction, approach origins are
    /// own pieces with an empty point ahead and an enemy beyond it; withdrawal origins have an empty point ahead
    /// and an enemy behind.
    #[inline]
    pub fn has_capture(&self) -> bool {
        if !self.may_capture() {
            return false;
        }
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        for d in 0..4 {
            let o = d + 4;
            // Empty points with an enemy one step further in d: approach targets for direction d.
            let app_d = empty & g.shift(opp, o);
            let app_o = empty & g.shift(opp, d);
            // Own pieces that step in d onto app_d, or in o onto app_o.
            if own & (g.shift(app_d, o) | g.shift(app_o, d)) != 0 {
                return true;
            }
            // Withdrawal in d: empty ahead (d) and enemy behind (o); and the mirror case.
            let w_d = g.shift(empty, o) & g.shift(opp, d);
            let w_o = g.shift(empty, d) & g.shift(opp, o);
            if own & (w_d | w_o) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether the side to move has exactly one capturing step at the start of its turn: its turn is forced, up
    /// to the relays after that step.
    pub fn single_first_capture(&self) -> bool {
        if !self.may_capture() {
            return false;
        }
        if self.vela_winner != NO_VELA {
            let mut list = StepList::new();
            self.gen_captures(&mut list);
            return list.len() == 1;
        }
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        let mut steps = 0;
        for d in 0..4 {
            steps += capture_origins(g, own, opp, empty, d).iter().map(|c| c.0.count_ones()).sum::<u32>();
            if steps > 1 {
                return false;
            }
        }
        steps == 1
    }

    /// Appends the capturing steps of the side to move at the start of its turn.
    fn gen_captures(&self, out: &mut StepList) {
        let (own, opp) = self.own_opp();
        captures_into(self.geometry(), own, opp, out);
    }

    /// Appends the paika steps of the side to move.
    fn gen_paika(&self, out: &mut StepList) {
        let (own, opp) = self.own_opp();
        paika_into(self.geometry(), own, opp, out);
    }

    /// How many pieces of each side (side to move first) have no empty point to step to: pieces that cannot
    /// move are the ones an opponent can trap and take.
    pub fn immobile(&self) -> (u32, u32) {
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        let movable = (0..8).fold(0u64, |acc, d| acc | g.shift(empty, (d + 4) & 7));
        ((own & !movable).count_ones(), (opp & !movable).count_ones())
    }

    /// Number of paika steps available (for bulk counting).
    #[inline]
    pub fn count_paika(&self) -> u32 {
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        (0..8).map(|d| (own & g.shift(empty, (d + 4) & 7)).count_ones()).sum()
    }

    /// Calls `f(direction, destination, is_approach)` for every capturing continuation of the relay in progress;
    /// stops early when `f` returns true, and returns whether it did.
    #[inline(always)]
    fn for_each_continuation(&self, f: impl FnMut(usize, u8, bool) -> bool) -> bool {
        let (_, opp) = self.own_opp();
        let relay = RelayState {
            piece: self.relay_piece,
            last_dir: self.relay_dir as usize,
            visited: self.visited,
            segments: &self.segments,
            lines: self.flags & OPT_LINES != 0,
        };
        relay.for_each_continuation(self.geometry(), opp, self.empty(), f)
    }

    /// The most enemy pieces the side to move can take with one capturing step at the start of its turn (0 if
    /// it cannot capture).
    pub fn best_capture(&self) -> u32 {
        if !self.may_capture() {
            return 0;
        }
        if self.vela_winner == NO_VELA {
            let (own, opp) = self.own_opp();
            return most_taken_first(self.geometry(), own, opp);
        }
        let mut list = StepList::new();
        self.gen_captures(&mut list);
        list.iter().map(|&s| self.captured_by(s).count_ones()).max().unwrap_or(0)
    }

    /// How many of the side to move's pieces the opponent could take with some capturing step if it were the
    /// opponent's turn (each piece counted once, whichever step takes it).
    pub fn exposed(&self) -> u32 {
        self.exposed_pieces().count_ones()
    }

    /// The side to move's pieces the opponent could take with some capturing step if it were the opponent's turn
    /// (a bitboard).
    pub fn exposed_pieces(&self) -> u64 {
        self.threat_and_exposed().1
    }

    /// [`Position::threat`] and [`Position::exposed_pieces`] in one walk of the opponent's captures.
    pub fn threat_and_exposed(&self) -> (u32, u64) {
        if self.vela_winner == NO_VELA {
            let (own, opp) = self.own_opp();
            let (mut most, mut union) = (0, 0u64);
            for_each_first_capture(self.geometry(), opp, own, |_, _, _, run| {
                most = most.max(run.count_ones());
                union |= run;
                false
            });
            return (most, union);
        }
        self.opponent_captures().fold((0, 0u64), |(most, union), taken| (most.max(taken.count_ones()), union | taken))
    }

    /// What each capturing step of the opponent would take if it were its turn (empty if it could not capture).
    fn opponent_captures(&self) -> impl Iterator<Item = u64> {
        let mut flipped = *self;
        flipped.side = self.side.opponent();
        let mut list = StepList::new();
        if flipped.may_capture() {
            flipped.gen_captures(&mut list);
        }
        (0..list.len()).map(move |i| flipped.captured_by(list.as_slice()[i]))
    }

    /// The opponent's captures if it were its turn, in one walk: the most of the side to move's pieces one step
    /// takes ([`Position::threat`]), how many pieces some step takes ([`Position::exposed`]), and how many
    /// capturing steps it has.
    pub fn opponent_capture_summary(&self) -> (u32, u32, u32) {
        let (mut most, mut union, mut steps) = (0, 0u64, 0);
        for taken in self.opponent_captures() {
            most = most.max(taken.count_ones());
            union |= taken;
            steps += 1;
        }
        (most, union.count_ones(), steps)
    }

    /// Paika steps of the side to move minus those the opponent would have if it were its turn.
    pub fn mobility(&self) -> i32 {
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        // Both sides step onto the same empty points: shift them once for the two counts.
        (0..8)
            .map(|d| {
                let from = g.shift(empty, (d + 4) & 7);
                (own & from).count_ones() as i32 - (opp & from).count_ones() as i32
            })
            .sum()
    }

    /// Empty points the side to move's pieces can step to, less those the opponent's can.
    pub fn space(&self) -> i32 {
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let empty = g.board & !(own | opp);
        let (mut mine, mut theirs) = (0u64, 0u64);
        for d in 0..8 {
            mine |= g.shift(own, d);
            theirs |= g.shift(opp, d);
        }
        (mine & empty).count_ones() as i32 - (theirs & empty).count_ones() as i32
    }

    /// The most of the side to move's pieces that the
    /// opponent could take with one capturing step if it were the opponent's turn (0 if it could not capture).
    pub fn threat(&self) -> u32 {
        if self.vela_winner == NO_VELA {
            let (own, opp) = self.own_opp();
            return most_taken_first(self.geometry(), opp, own);
        }
        self.opponent_captures().map(u64::count_ones).max().unwrap_or(0)
    }

    /// The opponent's two threats if it were its turn: the most of the side to move's pieces one capturing step
    /// takes, and the most another step takes without touching those (0 if none): one turn can seldom parry both.
    pub fn double_threat(&self) -> (u32, u32) {
        // Two walks of the opponent's captures: the largest, then the largest clear of it.
        let best_under = |avoid: u64| -> (u32, u64) {
            let mut best = (0, 0u64);
            let mut consider = |run: u64| {
                if run & avoid == 0 && run.count_ones() > best.0 {
                    best = (run.count_ones(), run);
                }
            };
            if self.vela_winner == NO_VELA {
                let (own, opp) = self.own_opp();
                for_each_first_capture(self.geometry(), opp, own, |_, _, _, run| {
                    consider(run);
                    false
                });
            } else {
                self.opponent_captures().for_each(consider);
            }
            best
        };
        let (first, run) = best_under(0);
        if first == 0 {
            return (0, 0);
        }
        (first, best_under(run).0)
    }

    /// The most enemy pieces the side to move can take in one whole turn, relay continuations included (0 if it
    /// cannot capture). Under rules other than the defaults (lines rule, vela, a first-turn restriction) or in
    /// a relay, [`Position::best_capture`]: the first capture only.
    pub fn best_capture_relay(&self) -> u32 {
        self.best_capture_relay_until(u32::MAX)
    }

    /// [`Position::best_capture_relay`] when it is below `enough`; otherwise some number at least `enough`, found
    /// without looking further once a turn takes that many (what a bound needs: "can a turn take `enough`?").
    pub fn best_capture_relay_until(&self, enough: u32) -> u32 {
        if !self.is_plain() {
            return self.best_capture();
        }
        let (own, opp) = self.own_opp();
        best_turn_capture_bb(self.geometry(), own, opp, enough)
    }

    /// The most of the side to move's pieces the opponent could take in one whole turn, relay continuations
    /// included, if it were its turn (0 if it could not capture): [`Position::threat`] with the relays that
    /// follow the first capture. Falls back to [`Position::threat`] where [`Position::best_capture_relay`] does.
    pub fn threat_relay(&self) -> u32 {
        let mut flipped = *self;
        flipped.side = self.side.opponent();
        if !flipped.is_plain() {
            return self.threat();
        }
        let (own, opp) = flipped.own_opp();
        best_turn_capture_bb(self.geometry(), own, opp, u32::MAX)
    }

    /// The most enemy pieces the legal capture `step` takes together with the best relay that can follow it
    /// (just its own run where relays follow other rules: the lines rule, vela, a first-turn restriction): what a
    /// capture is worth to the turn, for ordering.
    pub fn capture_with_relays(&self, step: Step) -> u32 {
        let run = self.captured_by(step);
        let taken = run.count_ones();
        if self.flags & (OPT_LINES | FIRST_TURN) != 0
            || self.vela_winner != NO_VELA
            || (self.flags & OPT_SINGLE_FIRST != 0 && !self.has_captured(self.side))
        {
            return taken;
        }
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        let trail = self.visited | 1 << step.from | 1 << step.to;
        let free = (g.board & !(own | opp) | run) & !trail;
        taken + best_relay(g, free, opp & !run, step.to as usize, step.dir.index(), u32::MAX)
    }

    /// Whether playing the legal capture `step` would leave a relay in progress (the turn could go on), without
    /// playing it: lets perft count the last turn in bulk.
    #[inline]
    pub fn capture_continues(&self, step: Step) -> bool {
        if self.vela_winner != NO_VELA
            || self.flags & FIRST_TURN != 0
            || (self.flags & OPT_SINGLE_FIRST != 0 && !self.has_captured(self.side))
        {
            return false;
        }
        let g = self.geometry();
        let (own, opp) = self.own_opp();
        // The points the piece could step to next are the same before and after this capture: the captured run
        // never touches the destination's other neighbours (an approach run starts straight ahead, where the
        // piece may not go on; a withdrawal run starts two points behind), and the origin is visited (or its
        // segment used). So the common "nowhere to go" case needs no captured run at all.
        let to = step.to as usize;
        let d = step.dir.index();
        let lines = self.flags & OPT_LINES != 0;
        let mut cand = g.adjacent[to] & g.board & !(own | opp);
        let ahead = g.neighbor[d][to];
        if ahead != NO_POINT {
            cand &= !(1 << ahead);
        }
        let mut segments = self.segments;
        if lines {
            let (axis, lo) = g.segment(step.from, d);
            segments[axis] |= 1 << lo;
        } else {
            cand &= !(self.visited | 1 << step.from);
            return cand != 0
                && g.can_capture_from(to, cand, opp)
                && g.can_capture_from(to, cand, opp & !self.captured_by(step));
        }
        let mut run = None;
        while cand != 0 {
            let c = cand.trailing_zeros() as u8;
            cand &= cand - 1;
            let e = g.dir_by_delta[(c as i32 - to as i32 + 10) as usize] as usize;
            if lines {
                let (axis, lo) = g.segment(step.to, e);
                if segments[axis] >> lo & 1 == 1 {
                    continue;
                }
            }
            let beyond = g.neighbor[e][c as usize];
            let behind = g.neighbor[(e + 4) & 7][to];
            let mut targets = 0u64;
            if beyond != NO_POINT {
                targets |= 1 << beyond;
            }
            if behind != NO_POINT {
                targets |= 1 << behind;
            }
            if targets & opp == 0 {
                continue;
            }
            let run = *run.get_or_insert_with(|| self.captured_by(step));
            if targets & opp & !run != 0 {
                return true;
            }
        }
        false
    }

    /// Appends the capturing continuations of the relay in progress.
    fn gen_continuations(&self, out: &mut StepList) {
        let from = self.relay_piece;
        self.for_each_continuation(|d, to, approach| {
            let kind = if approach { StepKind::Approach } else { StepKind::Withdrawal };
            out.push(Step { from, to, dir: Direction::from_index(d as u8), kind });
            false
        });
    }

    /// Number of capturing continuations of the relay in progress.
    #[inline]
    pub fn count_continuations(&self) -> u32 {
        let mut n = 0;
        self.for_each_continuation(|_, _, _| {
            n += 1;
            false
        });
        n
    }

    /// Whether the relay in progress has a capturing continuation.
    #[inline]
    fn has_continuation(&self) -> bool {
        if self.flags & OPT_LINES != 0 {
            return self.for_each_continuation(|_, _, _| true);
        }
        let g = self.geometry();
        let p = self.relay_piece as usize;
        let mut cand = g.adjacent[p] & self.empty() & !self.visited;
        cand &= !g.step_bits[self.relay_dir as usize][p];
        let (_, opp) = self.own_opp();
        cand != 0 && g.can_capture_from(p, cand, opp)
    }

    /// Fills `out` with every legal step: during a relay, its capturing continuations and [`StepKind::Stop`];
    /// otherwise the captures if any exist, else the paika steps. Empty means the side to move has lost.
    pub fn legal_steps(&self, out: &mut StepList) {
        out.clear();
        if self.in_relay() {
            self.gen_continuations(out);
            out.push(Step::stop(self.relay_piece));
        } else if self.may_capture() {
            self.gen_captures(out);
            if out.is_empty() {
                self.gen_paika(out);
            }
        } else {
            self.gen_paika(out);
        }
    }

    /// The legal steps as a new list.
    pub fn steps(&self) -> StepList {
        let mut l = StepList::new();
        self.legal_steps(&mut l);
        l
    }

    /// Whether the side to move has lost: no pieces, or no legal step (never true during a relay).
    pub fn is_lost(&self) -> bool {
        if self.in_relay() {
            return false;
        }
        let (own, _) = self.own_opp();
        own == 0 || (!self.has_capture() && self.count_paika() == 0)
    }

    /// The enemy pieces a capturing step takes (without checking legality).
    #[inline]
    pub fn captured_by(&self, step: Step) -> u64 {
        let g = self.geometry();
        let (_, opp) = self.own_opp();
        let (start, d) = match step.kind {
            StepKind::Approach => (g.neighbor[step.dir.index()][step.to as usize], step.dir.index()),
            StepKind::Withdrawal => {
                let o = step.dir.opposite().index();
                (g.neighbor[o][step.from as usize], o)
            }
            _ => return 0,
        };
        if start == NO_POINT || opp >> start & 1 == 0 {
            return 0;
        }
        if self.vela_winner == self.side.opponent() as u8 {
            return 1 << start;
        }
        run_from(g, opp, start as usize, d)
    }

    /// The number of legal turns (every stopping point of a relay counted), fast: for the default rules the
    /// relays are counted on bare bitboards, without building positions.
    pub fn count_turns(&self) -> u64 {
        if !self.is_plain() {
            return self.legal_turns().len() as u64;
        }
        let (own, opp) = self.own_opp();
        count_turns_bb(self.geometry(), own, opp)
    }

    /// Whether the default rules apply from here on exactly (no lines rule, no vela, no first-turn restriction
    /// pending) and no relay is in progress: then turns depend only on the two sides' pieces.
    #[inline]
    fn is_plain(&self) -> bool {
        self.flags & (OPT_LINES | FIRST_TURN) == 0
            && self.vela_winner == NO_VELA
            && (self.flags & OPT_SINGLE_FIRST == 0
                || (self.has_captured(Side::White) && self.has_captured(Side::Black)))
            && !self.in_relay()
    }

    /// Turn-level perft on bare bitboards when [`Position::is_plain`] holds (None otherwise); `steps` counts the
    /// steps played.
    pub(crate) fn perft_plain(&self, depth: u32, steps: &mut u64) -> Option<u64> {
        if !self.is_plain() || depth == 0 {
            return None;
        }
        let (own, opp) = self.own_opp();
        Some(perft_bb(self.geometry(), own, opp, depth, steps))
    }

    #[inline(always)]
    fn move_piece(&mut self, from: u8, to: u8) {
        let s = self.side.index();
        self.pieces[s] ^= (1 << from) | (1 << to);
        self.key ^= zobrist::PIECE[s][from as usize] ^ zobrist::PIECE[s][to as usize];
    }

    #[inline(always)]
    fn remove_enemy(&mut self, run: u64) {
        let o = self.side.opponent().index();
        self.pieces[o] &= !run;
        let mut bb = run;
        while bb != 0 {
            self.key ^= zobrist::PIECE[o][bb.trailing_zeros() as usize];
            bb &= bb - 1;
        }
    }

    #[inline(always)]
    fn end_turn(&mut self, captured: bool) {
        if captured && self.flags & OPT_SINGLE_FIRST != 0 {
            self.flags |= CAPTURED_WHITE << self.side.index();
        }
        self.flags &= !FIRST_TURN;
        self.relay_piece = NO_POINT;
        self.relay_dir = 0;
        self.visited = 0;
        self.segments = [0; 4];
        self.side = self.side.opponent();
        self.key ^= zobrist::SIDE;
    }

    /// Plays a step that must be legal here (as from [`Position::legal_steps`]); use [`Position::try_step`] for
    /// steps from outside. A capture that can be continued leaves the position in a relay; otherwise the turn
    /// ends and the other side is to move.
    #[inline]
    pub fn play(&mut self, step: Step) -> StepEffect {
        match step.kind {
            StepKind::Paika => {
                self.move_piece(step.from, step.to);
                self.end_turn(false);
                StepEffect { captured: 0, turn_ended: true }
            }
            StepKind::Stop => {
                self.end_turn(true);
                StepEffect { captured: 0, turn_ended: true }
            }
            StepKind::Approach | StepKind::Withdrawal => {
                let run = self.captured_by(step);
                self.move_piece(step.from, step.to);
                self.remove_enemy(run);
                let vela_turn = self.vela_winner != NO_VELA;
                if self.vela_winner == self.side.opponent() as u8 {
                    let n = run.count_ones() as u8;
                    if n >= self.vela_left {
                        self.vela_winner = NO_VELA;
                        self.vela_left = 0;
                    } else {
                        self.vela_left -= n;
                    }
                }
                let relay_allowed = !vela_turn
                    && self.flags & FIRST_TURN == 0
                    && (self.flags & OPT_SINGLE_FIRST == 0 || self.has_captured(self.side));
                if relay_allowed {
                    if !self.in_relay() {
                        self.visited = 1 << step.from;
                    }
                    self.visited |= 1 << step.to;
                    if self.flags & OPT_LINES != 0 {
                        let (axis, lo) = self.geometry().segment(step.from, step.dir.index());
                        self.segments[axis] |= 1 << lo;
                    }
                    self.relay_piece = step.to;
                    self.relay_dir = step.dir as u8;
                    if self.has_continuation() {
                        return StepEffect { captured: run, turn_ended: false };
                    }
                }
                self.end_turn(true);
                StepEffect { captured: run, turn_ended: true }
            }
        }
    }

    /// Checks a step from any source and plays it, or says why it is illegal and leaves the position unchanged.
    pub fn try_step(&mut self, step: Step) -> Result<StepEffect, IllegalReason> {
        self.check_step(step)?;
        Ok(self.play(step))
    }

    /// Whether a step is legal here, and if not, why.
    pub fn check_step(&self, step: Step) -> Result<(), IllegalReason> {
        let legal = self.steps();
        if legal.contains(&step) {
            return Ok(());
        }
        Err(self.diagnose(step, &legal))
    }

    fn diagnose(&self, step: Step, legal: &StepList) -> IllegalReason {
        let g = self.geometry();
        if legal.is_empty() {
            return IllegalReason::GameOver;
        }
        if step.kind == StepKind::Stop {
            return match self.relay_piece() {
                None => IllegalReason::NoRelay,
                Some(p) => IllegalReason::MustContinueWith(p),
            };
        }
        for p in [step.from, step.to] {
            if !g.contains(p) {
                return IllegalReason::OffBoard(p);
            }
        }
        if self.piece_at(step.from) != Some(self.side) {
            return IllegalReason::NotYourPiece(step.from);
        }
        if let Some(p) = self.relay_piece()
            && step.from != p
        {
            return IllegalReason::MustContinueWith(p);
        }
        if g.neighbor[step.dir.index()][step.from as usize] != step.to {
            return IllegalReason::NotJoined;
        }
        if self.piece_at(step.to).is_some() {
            return IllegalReason::Occupied(step.to);
        }
        if self.in_relay() {
            if !step.kind.is_capture() {
                return IllegalReason::RelayMustCapture;
            }
            if step.dir as u8 == self.relay_dir {
                return IllegalReason::SameDirection;
            }
            if self.flags & OPT_LINES != 0 {
                let (axis, lo) = g.segment(step.from, step.dir.index());
                if self.segments[axis] >> lo & 1 == 1 {
                    return IllegalReason::SegmentReused;
                }
            } else if self.visited >> step.to & 1 == 1 {
                return IllegalReason::Revisited(step.to);
            }
            return IllegalReason::NothingToCapture;
        }
        match step.kind {
            StepKind::Paika => IllegalReason::CaptureCompulsory,
            _ if !self.may_capture() => IllegalReason::VelaNoCapture,
            _ => IllegalReason::NothingToCapture,
        }
    }

    /// The same pieces with the other side to move, as if the side to move passed (a "null move", which search
    /// pruning uses to ask whether a position is good even without a turn). None in a relay and where the rule
    /// state depends on whose turn it is (the first turn, vela, the single-first-capture option), where a pass would not
    /// be a position of the game.
    pub fn null_move(&self) -> Option<Position> {
        if self.in_relay() || self.flags & (FIRST_TURN | OPT_SINGLE_FIRST) != 0 || self.vela_winner != NO_VELA {
            return None;
        }
        let mut p = *self;
        p.side = p.side.opponent();
        p.key ^= zobrist::SIDE;
        Some(p)
    }

    /// Ends the relay in progress, if any (the same as playing [`StepKind::Stop`]).
    pub fn stop_relay(&mut self) {
        if self.in_relay() {
            self.end_turn(true);
        }
    }
}

/// Appends the capturing steps of the side owning `own` against `opp`.
fn captures_into(g: &Geometry, own: u64, opp: u64, out: &mut StepList) {
    let empty = g.board & !(own | opp);
    // Each pair of opposite directions shares its shifted boards.
    for d in 0..4 {
        let o = d + 4;
        let opp_d = g.shift(opp, d); // points with an enemy one step behind them (direction o)
        let opp_o = g.shift(opp, o); // points with an enemy one step ahead (direction d)
        let ahead_d = own & g.shift(empty, o); // own pieces that can step in d
        let ahead_o = own & g.shift(empty, d); // own pieces that can step in o
        push_steps(out, ahead_d & g.shift(opp_o, o), d, StepKind::Approach);
        push_steps(out, ahead_d & opp_d, d, StepKind::Withdrawal);
        push_steps(out, ahead_o & g.shift(opp_d, d), o, StepKind::Approach);
        push_steps(out, ahead_o & opp_o, o, StepKind::Withdrawal);
    }
}

/// Appends the paika steps of the side owning `own`.
fn paika_into(g: &Geometry, own: u64, opp: u64, out: &mut StepList) {
    let empty = g.board & !(own | opp);
    for d in 0..8 {
        push_steps(out, own & g.shift(empty, (d + 4) & 7), d, StepKind::Paika);
    }
}

/// The pieces a capturing step takes from `opp` under the default rules.
#[inline(always)]
fn run_of(g: &Geometry, opp: u64, s: Step) -> u64 {
    let d = s.dir.index();
    if s.kind == StepKind::Approach {
        run_from(g, opp, g.neighbor[d][s.to as usize] as usize, d)
    } else {
        let o = (d + 4) & 7;
        run_from(g, opp, g.neighbor[o][s.from as usize] as usize, o)
    }
}

/// Calls `f(from, to, dir, run)` for every capturing step at the start of a turn of the side owning `own` under
/// the default rules (`run`: the pieces of `opp` it takes), walking the capture origins of `captures_into` in
/// place, without a step list; stops early when `f` returns true. Returns whether there was any capture.
#[inline(always)]
fn for_each_first_capture(
    g: &Geometry,
    own: u64,
    opp: u64,
    mut f: impl FnMut(usize, usize, usize, u64) -> bool,
) -> bool {
    let empty = g.board & !(own | opp);
    let mut any = false;
    for d in 0..4 {
        for (mut origins, dir, run_dir, beyond) in capture_origins(g, own, opp, empty, d) {
            any |= origins != 0;
            while origins != 0 {
                let from = origins.trailing_zeros() as usize;
                origins &= origins - 1;
                let to = g.neighbor[dir][from] as usize;
                let start = if beyond { g.neighbor[dir][to] } else { g.neighbor[run_dir][from] };
                if f(from, to, dir, run_from(g, opp, start as usize, run_dir)) {
                    return true;
                }
            }
        }
    }
    any
}

/// The capture origins of the side owning `own` along line `d` (0..4, both ways) at the start of its turn, one
/// set for each kind: `(origins, direction of the step, direction of the run taken, approach)`. An approach takes
/// the run from the point beyond the step's end, a withdrawal the run from the point behind its origin.
#[inline(always)]
fn capture_origins(g: &Geometry, own: u64, opp: u64, empty: u64, d: usize) -> [(u64, usize, usize, bool); 4] {
    let o = d + 4;
    let opp_d = g.shift(opp, d);
    let opp_o = g.shift(opp, o);
    let ahead_d = own & g.shift(empty, o);
    let ahead_o = own & g.shift(empty, d);
    [
        (ahead_d & g.shift(opp_o, o), d, d, true),
        (ahead_d & opp_d, d, o, false),
        (ahead_o & g.shift(opp_d, d), o, o, true),
        (ahead_o & opp_o, o, d, false),
    ]
}

/// The most pieces of `opp` one capturing step of the side owning `own` takes at the start of its turn (0 without
/// a capture), without vela: the first capture only, relays left out.
#[inline]
fn most_taken_first(g: &Geometry, own: u64, opp: u64) -> u32 {
    let mut most = 0;
    for_each_first_capture(g, own, opp, |_, _, _, run| {
        most = most.max(run.count_ones());
        false
    });
    most
}

/// The points from which a piece that has just captured by stepping there could go on capturing, or a few more:
/// each has an empty neighbour with an enemy two steps out or one step behind. The points a relaying piece may
/// step to are just its empty neighbours less the one it came from and the one straight ahead, whatever the
/// first capture took (an approach run starts straight ahead, a withdrawal run two steps behind); its targets are
/// the enemy pieces left, fewer than `opp`. So a first capture landing outside this set ends its turn.
#[inline(always)]
fn relay_points(g: &Geometry, empty: u64, opp: u64) -> u64 {
    let mut points = 0;
    for d in 0..4 {
        let o = d + 4;
        let opp_d = g.shift(opp, d); // an enemy one step behind, in direction o
        let opp_o = g.shift(opp, o); // an enemy one step ahead, in direction d
        // Stepping in d onto an empty point: approach takes two steps ahead, withdrawal one behind.
        points |= g.shift(empty, o) & (g.shift(opp_o, o) | opp_d);
        points |= g.shift(empty, d) & (g.shift(opp_d, d) | opp_o);
    }
    points
}

/// The number of turns of the side owning `own` under the default rules.
fn count_turns_bb(g: &Geometry, own: u64, opp: u64) -> u64 {
    let mut n = 0u64;
    let empty = g.board & !(own | opp);
    let relay_from = relay_points(g, empty, opp);
    let any = for_each_first_capture(g, own, opp, |_, to, dir, run| {
        n += 1;
        if relay_from >> to & 1 == 1 {
            n += count_relays(g, empty & !(1 << to) | run, opp & !run, to, dir);
        }
        false
    });
    if any {
        return n;
    }
    (0..8).map(|d| (own & g.shift(empty, (d + 4) & 7)).count_ones() as u64).sum()
}

/// Turn-level perft of the side owning `own` under the default rules, on bare bitboards.
fn perft_bb(g: &Geometry, own: u64, opp: u64, depth: u32, steps: &mut u64) -> u64 {
    if depth == 1 {
        return count_turns_bb(g, own, opp);
    }
    let mut list = StepList::new();
    captures_into(g, own, opp, &mut list);
    if list.is_empty() {
        paika_into(g, own, opp, &mut list);
        *steps += list.len() as u64;
        return list.iter().map(|s| perft_bb(g, opp, own ^ (1 << s.from) ^ (1 << s.to), depth - 1, steps)).sum();
    }
    let mut n = 0;
    for &s in list.iter() {
        *steps += 1;
        let moved = own ^ (1 << s.from) ^ (1 << s.to);
        let visited = 1 << s.from | 1 << s.to;
        n += relay_bb(g, moved, opp & !run_of(g, opp, s), s.to as usize, s.dir.index(), visited, depth, steps);
    }
    n
}

/// Perft from the middle of a relay (the piece on `p` has just captured): stopping here, or any continuation.
#[allow(clippy::too_many_arguments)]
fn relay_bb(g: &Geometry, own: u64, opp: u64, p: usize, last: usize, visited: u64, depth: u32, steps: &mut u64) -> u64 {
    let mut n = perft_bb(g, opp, own, depth - 1, steps);
    let free = g.board & !(own | opp | visited);
    for_each_relay_capture(g, free, opp, p, last, |to, d, run| {
        *steps += 1;
        let moved = own ^ (1 << p) ^ (1 << to);
        n += relay_bb(g, moved, opp & !run, to, d, visited | 1 << to, depth, steps);
        false
    });
    n
}

/// The enemy run that starts at `start` (an enemy piece) and goes on in direction `d`: it ends at the first point
/// along the ray that is not an enemy piece.
#[inline(always)]
fn run_from(g: &Geometry, opp: u64, start: usize, d: usize) -> u64 {
    // The masks keep the indices in range without bounds checks (callers pass a point and a direction).
    let ray = g.ray[d & 7][start & 63];
    let stops = ray & !opp;
    if d < 4 {
        ray & (stops & stops.wrapping_neg()).wrapping_sub(1)
    } else {
        ray & !u64::MAX.checked_shr(stops.leading_zeros()).unwrap_or(0)
    }
}

/// The capturing continuations open to the relay of the piece on `p` (which just moved in direction `last_dir`;
/// `free`: the empty points it has not visited) under the default relay rule, as ring-pattern bytes of approach
/// and withdrawal directions ([`Geometry::capture_rings`]).
#[inline(always)]
fn relay_rings(g: &Geometry, free: u64, opp: u64, p: usize, last_dir: usize) -> (u8, u8) {
    let (approach, withdrawal) = g.capture_rings(p & 63, free, opp);
    // The piece may not go on in the direction it came.
    let not_back = !(1u8 << DIR_RING[last_dir & 7]);
    (approach & not_back, withdrawal & not_back)
}

/// Calls `f(to, dir, approach)` for each capturing step of the piece on `p` in the ring patterns `approach` and
/// `withdrawal` ([`relay_rings`]), in increasing order of the destination, approach before withdrawal (the order
/// of the step lists); stops early when `f` returns true, and returns whether it did.
#[inline(always)]
fn for_each_ring_step(p: usize, approach: u8, withdrawal: u8, mut f: impl FnMut(usize, usize, bool) -> bool) -> bool {
    let mut both = approach | withdrawal;
    while both != 0 {
        let b = both.trailing_zeros() as usize & 7;
        both &= both - 1;
        let to = (p as isize + RING_DELTA[b] as isize) as usize;
        let d = RING_DIR[b] as usize;
        if approach >> b & 1 == 1 && f(to, d, true) {
            return true;
        }
        if withdrawal >> b & 1 == 1 && f(to, d, false) {
            return true;
        }
    }
    false
}

/// [`for_each_ring_step`] with what each step takes: `f(to, dir, run)`, `run` the pieces of `opp` it captures.
#[inline(always)]
fn for_each_ring_capture(
    g: &Geometry,
    opp: u64,
    p: usize,
    approach: u8,
    withdrawal: u8,
    mut f: impl FnMut(usize, usize, u64) -> bool,
) {
    for_each_ring_step(p, approach, withdrawal, |to, d, by_approach| {
        // Approach takes the run beyond `to`; withdrawal the run behind `p`.
        let run = if by_approach { run_from(g, opp, 2 * to - p, d) } else { run_from(g, opp, 2 * p - to, (d + 4) & 7) };
        f(to, d, run)
    });
}

/// Calls `f(to, dir, run)` for every capturing continuation of the relay of the piece on `p` (which just moved in
/// direction `last_dir`; `free`: the empty points it has not visited) under the default relay rule, on bare
/// bitboards: the piece steps to `to` in direction `dir` and takes `run` from `opp`. Stops early when `f` returns
/// true. After such a step the free points are `free & !(1 << to) | run`: the piece's own trail stays visited.
#[inline(always)]
fn for_each_relay_capture(
    g: &Geometry,
    free: u64,
    opp: u64,
    p: usize,
    last_dir: usize,
    f: impl FnMut(usize, usize, u64) -> bool,
) {
    let (approach, withdrawal) = relay_rings(g, free, opp, p, last_dir);
    for_each_ring_capture(g, opp, p, approach, withdrawal, f);
}

/// Counts the relay continuations (each a further stopping point) of the piece on `p` under the default relay
/// rule, on bare bitboards.
fn count_relays(g: &Geometry, free: u64, opp: u64, p: usize, last_dir: usize) -> u64 {
    let mut n = 0;
    for_each_relay_capture(g, free, opp, p, last_dir, |to, d, run| {
        n += 1 + count_relays(g, free & !(1 << to) | run, opp & !run, to, d);
        false
    });
    n
}

/// The most pieces of `opp` the side owning `own` can take in one turn under the default rules (0 without a
/// capture): every first capture followed by its best relay. The walk stops at the first turn that takes `enough`
/// (the answer is then at least `enough`).
fn best_turn_capture_bb(g: &Geometry, own: u64, opp: u64, enough: u32) -> u32 {
    let mut best = 0;
    let empty = g.board & !(own | opp);
    let relay_from = relay_points(g, empty, opp);
    for_each_first_capture(g, own, opp, |_, to, dir, run| {
        let taken = run.count_ones();
        let rest = if relay_from >> to & 1 == 1 { enough.saturating_sub(taken) } else { 0 };
        best = best.max(taken + best_relay(g, empty & !(1 << to) | run, opp & !run, to, dir, rest));
        best >= enough
    });
    best
}

/// The most pieces of `opp` the relay of the piece on `p` (which just moved in direction `last_dir`; `free`: the
/// empty points it has not visited) can still take under the default relay rule, on bare bitboards; it stops at
/// the first line that takes `enough`.
fn best_relay(g: &Geometry, free: u64, opp: u64, p: usize, last_dir: usize, enough: u32) -> u32 {
    let mut best = 0;
    if enough > 0 {
        for_each_relay_capture(g, free, opp, p, last_dir, |to, d, run| {
            let taken = run.count_ones();
            let rest = enough.saturating_sub(taken);
            best = best.max(taken + best_relay(g, free & !(1 << to) | run, opp & !run, to, d, rest));
            best >= enough
        });
    }
    best
}

/// What decides where a relaying piece may go next.
struct RelayState<'a> {
    piece: u8,
    last_dir: usize,
    visited: u64,
    segments: &'a [u64; 4],
    lines: bool,
}

impl RelayState<'_> {
    #[inline(always)]
    fn for_each_continuation(
        &self,
        g: &Geometry,
        opp: u64,
        empty: u64,
        mut f: impl FnMut(usize, u8, bool) -> bool,
    ) -> bool {
        let p = self.piece as usize;
        if !self.lines {
            let (approach, withdrawal) = relay_rings(g, empty & !self.visited, opp, p, self.last_dir);
            return for_each_ring_step(p, approach, withdrawal, |to, d, by_approach| f(d, to as u8, by_approach));
        }
        let mut cand = g.adjacent[p] & empty;
        let same = g.neighbor[self.last_dir][p];
        if same != NO_POINT {
            cand &= !(1 << same);
        }
        if !self.lines {
            cand &= !self.visited;
        }
        while cand != 0 {
            let to = cand.trailing_zeros() as u8;
            cand &= cand - 1;
            let d = g.dir_by_delta[(to as i32 - p as i32 + 10) as usize] as usize;
            if self.lines {
                let (axis, lo) = g.segment(p as u8, d);
                if self.segments[axis] >> lo & 1 == 1 {
                    continue;
                }
            }
            let beyond = g.neighbor[d][to as usize];
            if beyond != NO_POINT && opp >> beyond & 1 == 1 && f(d, to, true) {
                return true;
            }
            let behind = g.neighbor[(d + 4) & 7][p];
            if behind != NO_POINT && opp >> behind & 1 == 1 && f(d, to, false) {
                return true;
            }
        }
        false
    }
}

#[inline(always)]
fn push_steps(out: &mut StepList, mut origins: u64, d: usize, kind: StepKind) {
    let dir = Direction::from_index(d as u8);
    while origins != 0 {
        let p = origins.trailing_zeros() as u8;
        origins &= origins - 1;
        out.push(Step::new(p, dir, kind));
    }
}

/// A position after `plies` random legal turns from the start under the default rules, if the game lasts that
/// long and the side to move then has a turn: the positions that the tests of the rules and the engine draw.
pub fn random_game_position(rng: &mut impl rand::Rng, plies: usize) -> Option<Position> {
    let mut p = Position::start(&Rules::default());
    for _ in 0..plies {
        let turns = p.legal_turns();
        if turns.is_empty() {
            return None;
        }
        p.play_turn(&turns[rng.random_range(0..turns.len())]).unwrap();
    }
    (!p.legal_turns().is_empty()).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::parse_point;
    use crate::turns::Turn;

    fn pt(s: &str) -> u8 {
        parse_point(s).unwrap()
    }

    /// The most pieces any legal turn of `pos` takes, by playing every turn.
    fn most_taken_by_a_turn(pos: &Position) -> u32 {
        let before = pos.count(pos.side_to_move().opponent());
        pos.legal_turns()
            .iter()
            .map(|t| {
                let mut p = *pos;
                p.play_turn(t).unwrap();
                before - p.count(pos.side_to_move().opponent())
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn capture_with_relays_is_the_best_turn_through_each_capture() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(23);
        let (mut checked, mut relays_counted) = (0, 0);
        for game in 0..400 {
            let plies = rng.random_range(0..40);
            let Some(start) = random_game_position(&mut rng, plies) else { continue };
            // The start of a turn, and one capture into a relay where the turn can go on.
            let mut positions = vec![start];
            for &s in start.steps().iter() {
                let mut c = start;
                if s.kind.is_capture() && !c.play(s).turn_ended {
                    positions.push(c);
                    break;
                }
            }
            for pos in positions {
                let mut best: std::collections::HashMap<Step, u32> = std::collections::HashMap::new();
                for t in pos.legal_turns().iter().filter(|t| !t.steps.is_empty()) {
                    let mut p = pos;
                    let taken: u32 = t.steps.iter().map(|&s| p.play(s).captured.count_ones()).sum();
                    let e = best.entry(t.steps[0]).or_default();
                    *e = (*e).max(taken);
                }
                for &s in pos.steps().iter().filter(|s| s.kind.is_capture()) {
                    let want = best[&s];
                    assert_eq!(pos.capture_with_relays(s), want, "game {game}: {pos} {s}");
                    checked += 1;
                    relays_counted += usize::from(want > pos.captured_by(s).count_ones());
                }
            }
        }
        assert!(checked > 500 && relays_counted > 100, "{checked} captures, {relays_counted} with relays");
    }

    #[test]
    fn whole_turn_captures_match_every_legal_turn_played() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (mut checked, mut relays_matter) = (0, 0);
        for game in 0..200 {
            let plies = rng.random_range(2..70);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            let most = most_taken_by_a_turn(&p);
            assert_eq!(p.best_capture_relay(), most, "game {game}: {p}");
            for n in 0..=most + 1 {
                let capped = p.best_capture_relay_until(n);
                assert_eq!(capped >= n, most >= n, "game {game}, {n} pieces: {p}");
                assert!(capped == most || (capped >= n && capped <= most), "game {game}, {n} pieces: {p}");
            }
            assert!(most >= p.best_capture());
            relays_matter += usize::from(most > p.best_capture());
            if let Some(passed) = p.null_move() {
                let threat =
                    if passed.legal_turns().iter().any(Turn::is_capture) { most_taken_by_a_turn(&passed) } else { 0 };
                assert_eq!(p.threat_relay(), threat, "game {game}: {p}");
                assert!(threat >= p.threat());
            }
            checked += 1;
        }
        assert!(checked > 80 && relays_matter > 15, "{checked} positions, {relays_matter} where relays add captures");
    }

    #[test]
    fn bitboard_counts_match_the_step_lists() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let (mut checked, mut singles) = (0, 0);
        for game in 0..200 {
            let plies = rng.random_range(0..70);
            let Some(p) = random_game_position(&mut rng, plies) else { continue };
            // The first-capture counts against every capturing step of each side, taken from the lists.
            let most_first = |q: &Position| {
                let mut list = StepList::new();
                q.gen_captures(&mut list);
                list.iter().map(|&s| q.captured_by(s).count_ones()).max().unwrap_or(0)
            };
            let mut flipped = p;
            flipped.side = p.side.opponent();
            assert_eq!(p.best_capture(), most_first(&p), "game {game}: {p}");
            assert_eq!(p.threat(), most_first(&flipped), "game {game}: {p}");
            for q in [p, flipped] {
                let mut list = StepList::new();
                q.gen_captures(&mut list);
                assert_eq!(q.single_first_capture(), list.len() == 1, "game {game}: {q}");
                singles += usize::from(list.len() == 1);
            }
            let (first, second) = p.double_threat();
            assert_eq!(first, p.threat(), "game {game}: {p}");
            assert!(second <= first, "game {game}: {p}");
            let paika = |q: &Position| {
                let mut list = StepList::new();
                q.gen_paika(&mut list);
                list.len() as i32
            };
            assert_eq!(p.mobility(), paika(&p) - paika(&flipped), "game {game}: {p}");
            // Space: the distinct destinations of those paika steps.
            let reach = |q: &Position| {
                let mut list = StepList::new();
                q.gen_paika(&mut list);
                list.iter().fold(0u64, |acc, s| acc | 1 << s.to).count_ones() as i32
            };
            assert_eq!(p.space(), reach(&p) - reach(&flipped), "game {game}: {p}");
            checked += 1;
        }
        assert!(checked > 100 && singles > 5, "{checked} positions, {singles} with a single capture");
    }

    #[test]
    fn immobile_pieces_have_no_empty_neighbour_on_their_lines() {
        // White a1 is hemmed in by a2, b1 and b2 (a1 is strong, so b2 is on its diagonal); every Black piece can
        // step somewhere. b1 is weak: White on b1 with a1, c1 and b2 taken would be stuck too, c2 being off its lines.
        let p: Position = "9/9/9/BB7/WB7 w".parse().unwrap();
        assert_eq!(p.immobile(), (1, 0));
        let q: Position = "9/9/9/1B7/BWB6 b".parse().unwrap();
        assert_eq!(q.immobile(), (0, 1));
        // At the start only the four pieces of each side around the empty centre e3 can move (d3, e2, d2 and f2
        // for White; f3, e4, d4 and f4 for Black).
        assert_eq!(Position::start(&Rules::default()).immobile(), (18, 18));
    }

    #[test]
    fn start_position_layout() {
        let p = Position::start(&Rules::default());
        assert_eq!(p.count(Side::White), 22);
        assert_eq!(p.count(Side::Black), 22);
        assert_eq!(p.piece_at(pt("e3")), None);
        assert_eq!(p.piece_at(pt("a3")), Some(Side::Black));
        assert_eq!(p.piece_at(pt("b3")), Some(Side::White));
        assert_eq!(p.piece_at(pt("f3")), Some(Side::Black));
        assert_eq!(p.piece_at(pt("i3")), Some(Side::White));
        let d = Position::start(&Rules { variant: Variant::Dimy, ..Rules::default() });
        assert_eq!(d.count(Side::White), 12);
        assert_eq!(d.count(Side::Black), 12);
        assert_eq!(d.piece_at(pt("a3")), Some(Side::Black));
        assert_eq!(d.piece_at(pt("b3")), Some(Side::White));
        assert_eq!(d.piece_at(pt("c3")), None);
        assert_eq!(d.piece_at(pt("d3")), Some(Side::Black));
        assert_eq!(d.piece_at(pt("e3")), Some(Side::White));
    }

    #[test]
    fn a_null_move_passes_the_turn_and_keeps_the_hash_consistent() {
        let p = Position::from_fen("9/2B3B2/1B1W1W1B1/2W3W2/9 w").unwrap();
        let q = p.null_move().expect("a plain turn start");
        assert_eq!(q, Position::from_fen("9/2B3B2/1B1W1W1B1/2W3W2/9 b").unwrap());
        assert_eq!(q.hash(), Position::from_fen("9/2B3B2/1B1W1W1B1/2W3W2/9 b").unwrap().hash());
        // Not in a relay, nor on a first turn whose rules differ.
        let mut r = Position::from_fen("9/9/2B6/3B5/W8 w").unwrap();
        r.play(r.steps().iter().copied().find(|s| s.kind.is_capture()).unwrap());
        assert!(r.in_relay() && r.null_move().is_none());
        let first = Position::start(&Rules { first_turn_no_relay: true, ..Rules::default() });
        assert!(first.null_move().is_none());
    }

    #[test]
    fn opponent_capture_summary_matches_threat_and_exposed() {
        for fen in
            ["9/2B3B2/1B1W1W1B1/2W3W2/9 w", "BBBB1BBBB/BB1BBB1BB/1WB1B1W1W/WW1W1WWWW/WWWWW1WWW w", "9/4B4/9/2W3W2/9 b"]
        {
            let p = Position::from_fen(fen).unwrap();
            let (most, exposed, _) = p.opponent_capture_summary();
            assert_eq!((most, exposed), (p.threat(), p.exposed()), "{fen}");
        }
    }

    #[test]
    fn the_one_walk_threat_and_exposure_match_the_opponents_steps() {
        // Along a few pseudo-random games: the bitboard walk agrees with the opponent's generated steps.
        let mut seed = 7u64;
        for _ in 0..20 {
            let mut p = Position::start(&Rules::default());
            for _ in 0..60 {
                let steps: Vec<u64> = p.opponent_captures().collect();
                let union = steps.iter().fold(0, |a, &t| a | t);
                let most = steps.iter().map(|t| t.count_ones()).max().unwrap_or(0);
                assert_eq!(p.threat_and_exposed(), (most, union), "{}", p.to_fen());
                let turns = p.legal_turns();
                if turns.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                p.play_turn(&turns[(seed >> 33) as usize % turns.len()]).unwrap();
            }
        }
    }

    #[test]
    fn start_has_five_capturing_steps() {
        let p = Position::start(&Rules::default());
        let mut names: Vec<String> = p.steps().iter().map(|s| s.to_string()).collect();
        names.sort();
        assert_eq!(names, ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]);
    }
}
