//! A small neural network that corrects the hand-made evaluation of quiet 9 × 5 positions (its trainer is
//! `fanorona-tools`' `net_train`).
//!
//! The network sees the board from the side to move: 90 inputs (its pieces on the 45 points, then the opponent's;
//! a wide network, the committed one, has 45 more: its pieces the opponent could take next),
//! one hidden layer of [`HIDDEN`] units clipped to `0..=1`, and one output in hundredths of a piece that is added
//! to the search's own score of a quiet leaf ([`crate::search::Searcher::quiet_eval`]). It is trained on positions
//! from self-play labelled with the self-play search's score (`fanorona-cli tune gen`) blended with the game's
//! result (`tune net --result-weight`), to predict what the search and the rest of the game find beyond what the
//! hand-made terms say: the residual. The board's four mirror images are the same position
//! for the network's purpose, so training sees each sample in all four.

use crate::geometry::Variant;
use crate::position::Position;
use std::sync::Arc;

/// Points of the 9 × 5 board.
pub const POINTS: usize = 45;
/// Inputs: the side to move's pieces, then the opponent's.
pub const INPUTS: usize = 2 * POINTS;
/// Inputs of a wide network: [`INPUTS`], then the side to move's exposed pieces (those the opponent could take
/// with some capturing step if it were its turn, [`Position::exposed_pieces`]).
pub const WIDE_INPUTS: usize = 3 * POINTS;
/// Hidden units.
pub const HIDDEN: usize = 32;

/// The committed network (see [`Net::parse`] for the format and STRENGTH.md for how it was trained).
pub const NET: &str = include_str!("../data/net.txt");

/// A trained network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Input weights, one row of hidden units per input (public for the trainer, which sets every weight).
    pub w1: Vec<[f32; HIDDEN]>,
    /// Hidden biases.
    pub b1: [f32; HIDDEN],
    /// Output weights, in hundredths of a piece per unit of a hidden unit.
    pub w2: [f32; HIDDEN],
    /// Output bias.
    pub b2: f32,
}

impl Default for Net {
    /// A network of [`INPUTS`] inputs that adds nothing (every weight 0).
    fn default() -> Net {
        Net::zero(INPUTS)
    }
}

impl Net {
    /// A network of `inputs` inputs ([`INPUTS`] or [`WIDE_INPUTS`]) that adds nothing.
    pub fn zero(inputs: usize) -> Net {
        Net { w1: vec![[0.0; HIDDEN]; inputs], b1: [0.0; HIDDEN], w2: [0.0; HIDDEN], b2: 0.0 }
    }

    /// How many inputs the network has: [`INPUTS`], or [`WIDE_INPUTS`] for one that sees exposed pieces.
    pub fn inputs(&self) -> usize {
        self.w1.len()
    }

    /// The committed network ([`NET`]), read once and shared by every searcher that uses it.
    pub fn builtin() -> &'static Arc<Net> {
        static BUILTIN: std::sync::LazyLock<Arc<Net>> = std::sync::LazyLock::new(|| {
            Arc::new(Net::parse(NET).expect("the committed network is valid (a unit test checks it)"))
        });
        &BUILTIN
    }

    /// The correction for `pos`, in hundredths of a piece for the side to move; 0 on boards other than 9 × 5.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if pos.variant() != Variant::Tsivy {
            return 0;
        }
        let exposed = if self.inputs() == WIDE_INPUTS { pos.exposed_pieces() } else { 0 };
        self.evaluate_exposed(pos, exposed)
    }

    /// [`Net::evaluate`] given `pos`'s exposed pieces ([`Position::exposed_pieces`]), for a caller that has them
    /// already; a network without those inputs ignores them.
    #[inline]
    pub fn evaluate_exposed(&self, pos: &Position, exposed: u64) -> i32 {
        if pos.variant() != Variant::Tsivy {
            return 0;
        }
        let exposed = if self.inputs() == WIDE_INPUTS { exposed } else { 0 };
        self.sum(inputs(pos).chain(bits(exposed, INPUTS))).0.round() as i32
    }

    /// The output for the active `inputs`, and the hidden units' sums before clipping.
    #[inline(always)]
    pub fn sum(&self, inputs: impl IntoIterator<Item = usize>) -> (f32, [f32; HIDDEN]) {
        let mut acc = self.b1;
        for i in inputs {
            for (a, w) in acc.iter_mut().zip(&self.w1[i]) {
                *a += w;
            }
        }
        let mut out = self.b2;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += a.clamp(0.0, 1.0) * w;
        }
        (out, acc)
    }

    /// Reads a network: `#` comment lines, then one line `net N H` (N = [`INPUTS`] or [`WIDE_INPUTS`], H =
    /// [`HIDDEN`]), then N lines of H input weights, one line of H hidden biases, one line of H output weights and one line with the output bias,
    /// numbers separated by spaces. A file of another shape, a number that does not parse or is not finite, or a
    /// missing line is rejected with the line (1-based).
    pub fn parse(text: &str) -> Result<Net, String> {
        let mut lines =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let (n, head) = lines.next().ok_or_else(|| format!("network: no header line (net {INPUTS} {HIDDEN})"))?;
        let shape = [INPUTS, WIDE_INPUTS]
            .into_iter()
            .find(|&i| head.split_whitespace().collect::<Vec<_>>() == ["net", &i.to_string(), &HIDDEN.to_string()]);
        let Some(inputs) = shape else {
            return Err(format!(
                "network line {}: expected \"net {INPUTS} {HIDDEN}\" or \"net {WIDE_INPUTS} {HIDDEN}\", found {head:?}",
                n + 1
            ));
        };
        let mut row = |want: usize, what: &str| -> Result<Vec<f32>, String> {
            let (n, line) = lines.next().ok_or_else(|| format!("network: the file ends before {what}"))?;
            let values: Vec<f32> = line
                .split_whitespace()
                .map(|w| w.parse::<f32>().ok().filter(|v| v.is_finite()))
                .collect::<Option<_>>()
                .ok_or_else(|| format!("network line {}: {what}: a value is not a finite number", n + 1))?;
            if values.len() != want {
                return Err(format!("network line {}: {what}: {} values instead of {want}", n + 1, values.len()));
            }
            Ok(values)
        };
        let mut net = Net::zero(inputs);
        for i in 0..inputs {
            net.w1[i].copy_from_slice(&row(HIDDEN, &format!("the weights of input {}", i + 1))?);
        }
        net.b1.copy_from_slice(&row(HIDDEN, "the hidden biases")?);
        net.w2.copy_from_slice(&row(HIDDEN, "the output weights")?);
        net.b2 = row(1, "the output bias")?[0];
        if let Some((n, _)) = lines.next() {
            return Err(format!("network line {}: more lines than the network has", n + 1));
        }
        Ok(net)
    }

    /// The network as text, in the format [`Net::parse`] reads, after `header` (each line made a comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut s = crate::comment_lines(header);
        s.push_str(&format!("net {} {HIDDEN}\n", self.inputs()));
        let line = |s: &mut String, v: &[f32]| {
            let words: Vec<String> = v.iter().map(|x| format!("{x:.5}")).collect();
            s.push_str(&words.join(" "));
            s.push('\n');
        };
        for r in &self.w1 {
            line(&mut s, r);
        }
        line(&mut s, &self.b1);
        line(&mut s, &self.w2);
        line(&mut s, &[self.b2]);
        s
    }
}

/// The active inputs of a 9 × 5 position, in increasing order: the side to move's pieces (a point's number is its
/// input, rank × 9 + file, as the board's bits are laid out), then the opponent's, [`POINTS`] further.
pub fn inputs(pos: &Position) -> impl Iterator<Item = usize> {
    let side = pos.side_to_move();
    bits(pos.pieces(side), 0).chain(bits(pos.pieces(side.opponent()), POINTS))
}

/// The active inputs of a wide network: [`inputs`], then the side to move's exposed pieces, [`INPUTS`] further.
pub fn wide_inputs(pos: &Position) -> impl Iterator<Item = usize> {
    inputs(pos).chain(bits(pos.exposed_pieces(), INPUTS))
}

/// The set points of `b`, each plus `offset`, in increasing order.
fn bits(mut b: u64, offset: usize) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = b.trailing_zeros() as usize + offset;
            b &= b - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_network_is_valid_and_round_trips() {
        let net = Net::builtin();
        assert_eq!(Net::parse(&net.to_text("header")).unwrap(), **net);
    }

    #[test]
    fn a_damaged_network_is_rejected_with_its_line() {
        let good = Net::default().to_text("a comment");
        assert_eq!(Net::parse(&good).unwrap(), Net::default());
        assert!(Net::parse("").unwrap_err().contains("header"));
        assert!(Net::parse("net 90 8\n").unwrap_err().contains("line 1"));
        // A number damaged on the third input's line: line 5 after the comment and the header.
        let bad: String = good
            .lines()
            .enumerate()
            .map(|(k, l)| if k == 4 { format!("{}\n", l.replacen("0.00000", "0.0x000", 1)) } else { format!("{l}\n") })
            .collect();
        let e = Net::parse(&bad).unwrap_err();
        assert!(e.contains("line 5") && e.contains("not a finite number"), "{e}");
        let short: String = good.lines().take(50).map(|l| format!("{l}\n")).collect();
        assert!(Net::parse(&short).unwrap_err().contains("ends before"));
        let long = format!("{good}0\n");
        assert!(Net::parse(&long).unwrap_err().contains("more lines"));
        let wide = good.replacen("\n0.00000", "\n0.00000 1", 1);
        assert!(Net::parse(&wide).unwrap_err().contains("values instead of"));
        assert!(Net::parse(&good.replacen("0.00000", "inf", 1)).is_err());
    }

    #[test]
    fn a_wide_network_reads_back_and_sees_the_exposed_pieces() {
        let wide = Net::zero(WIDE_INPUTS);
        assert_eq!(Net::parse(&wide.to_text("wide")).unwrap(), wide);
        assert!(Net::parse("net 91 32\n").unwrap_err().contains("expected"));
        // White's c3 can be taken by e3-d3A if it were Black's turn; with a piece between, it cannot.
        let exposed: Position = "9/9/2W1B4/9/9 w".parse().unwrap();
        let covered: Position = "9/9/2WBB4/9/9 w".parse().unwrap();
        let c3 = exposed.pieces(crate::rules::Side::White);
        assert_eq!(exposed.exposed_pieces(), c3);
        assert_eq!(covered.exposed_pieces(), 0);
        // One hidden unit that fires for an exposed piece on c3 and adds 0.8 piece.
        let mut net = Net::zero(WIDE_INPUTS);
        net.w1[INPUTS + c3.trailing_zeros() as usize][0] = 1.0;
        net.w2[0] = 80.0;
        assert_eq!(net.evaluate(&exposed), 80);
        assert_eq!(net.evaluate(&covered), 0);
    }
}
