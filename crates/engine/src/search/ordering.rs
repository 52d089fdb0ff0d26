//! Move ordering's building blocks: the ordering keys of a node's steps (kept on its stack), the selection of
//! the best remaining step, and the history tables' bound, gravity and indexing. The searcher's `order` puts them
//! together with its killers and histories.

use crate::position::{MAX_STEPS, Position, Step, StepKind, StepList};
use crate::rules::Side;

/// Whether `list` holds more than one capturing step. With one, its relays cannot change the order (every capture
/// key is above a relay's stop and below the table's step), so the walk of its relays is skipped.
#[inline]
pub(super) fn several_captures(list: &StepList) -> bool {
    list.iter().filter(|s| s.kind.is_capture()).nth(1).is_some()
}

/// Room for the ordering keys of a step list, on the stack of the node: every node needs them, so no
/// allocation, and left uninitialised because most lists are far shorter than [`MAX_STEPS`] (zeroing and
/// returning a whole array cost a node more than its move ordering).
pub(super) type KeyBuffer = [std::mem::MaybeUninit<i32>; MAX_STEPS];

/// An empty [`KeyBuffer`].
#[inline(always)]
pub(super) fn key_buffer() -> KeyBuffer {
    [const { std::mem::MaybeUninit::uninit() }; MAX_STEPS]
}

/// Writes the ordering key of each step of `list` into `buf` and returns them, one per step.
#[inline]
pub(super) fn keys_for<'k>(buf: &'k mut KeyBuffer, list: &StepList, key: impl Fn(Step) -> i32) -> &'k mut [i32] {
    for (k, &s) in buf.iter_mut().zip(list.iter()) {
        k.write(key(s));
    }
    // SAFETY: the loop initialised the first `list.len()` elements (a list never holds more than MAX_STEPS),
    // and MaybeUninit<i32> has the layout of i32.
    unsafe { std::slice::from_raw_parts_mut(buf.as_mut_ptr().cast::<i32>(), list.len()) }
}

/// Ordering key of a capture or stop: more pieces first; stopping after the captures.
pub(super) fn capture_key(pos: &Position, s: Step) -> i32 {
    match s.kind {
        StepKind::Stop => 1 << 23,
        _ => (1 << 24) + pos.captured_by(s).count_ones() as i32 * 64,
    }
}

/// The history bound: entries stay within ±HISTORY_MAX.
pub(super) const HISTORY_MAX: i32 = 1 << 20;

/// Moves a history entry by `bonus` with gravity: the closer to its bound, the less it moves, so that entries
/// keep their order yet follow what the search finds now.
#[inline]
pub(super) fn gravity(h: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += b - (i64::from(*h) * i64::from(b.abs()) / i64::from(HISTORY_MAX)) as i32;
}

/// The entries of one of the two tables of `Searcher::cont_table`: 2 sides × 64 destinations of the earlier
/// step × 64 × 64.
pub(super) const CONT_SIZE: usize = 2 * 64 * 64 * 64;

/// The entry of `Searcher::cont_table` for `step` by `side` after the earlier step `prev`, the opponent's
/// (`which` 0) or the side's own (1).
#[inline]
pub(super) fn cont_index(which: usize, side: Side, prev: Step, step: Step) -> usize {
    which * CONT_SIZE + ((side.index() * 64 + prev.to as usize) * 64 + step.from as usize) * 64 + step.to as usize
}

/// The row of `Searcher::cap_history` for a capture by `side`.
#[inline]
pub(super) fn cap_slot(side: Side, s: Step) -> usize {
    side.index() * 2 + usize::from(s.kind == StepKind::Withdrawal)
}

/// Selection sort step: moves the best remaining step to index `i` and returns it.
#[inline]
pub(super) fn pick(steps: &mut [Step], keys: &mut [i32], i: usize) -> Step {
    let mut b = i;
    for j in i + 1..steps.len() {
        if keys[j] > keys[b] {
            b = j;
        }
    }
    steps.swap(i, b);
    keys.swap(i, b);
    steps[i]
}
