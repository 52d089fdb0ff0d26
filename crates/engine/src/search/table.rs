//! The transposition table: two-entry buckets of lock-free atomic words shared by the threads of a search, and
//! the conversions of mate scores to and from the distance-independent form the table keeps.

use crate::geometry::Direction;
use crate::position::{Step, StepKind};
use crate::score::WIN_BOUND;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) key: u64,
    pub(super) step: u32,
    pub(super) score: i16,
    pub(super) depth: i8,
    pub(super) bound: u8,
}

pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;

pub(super) fn pack(s: Step) -> u32 {
    s.from as u32 | (s.to as u32) << 8 | (s.dir as u32) << 16 | (s.kind as u32) << 24 | 1 << 31
}

pub(super) fn unpack(v: u32) -> Option<Step> {
    if v == 0 {
        return None;
    }
    let kind = match (v >> 24) & 0x7f {
        0 => StepKind::Paika,
        1 => StepKind::Approach,
        2 => StepKind::Withdrawal,
        _ => StepKind::Stop,
    };
    Some(Step { from: v as u8, to: (v >> 8) as u8, dir: Direction::from_index((v >> 16) as u8), kind })
}

/// The transposition table: buckets of two entries in one cache line, so a probe costs one memory access. A new
/// result replaces the entry of its bucket worth less (shallower; an earlier search's counts
/// [`OLD_ENTRY_PENALTY`] turns shallower): the many shallow results of the capture quiescence then take turns
/// in one entry and no longer push the main search's deep ones out. Shared by the threads of a parallel search
/// ([`super::Searcher::threads`]) without locks: an entry is two atomic words, the key XOR the data and the data, so an
/// entry torn by two writers no longer matches its key and reads as empty.
pub(super) struct Table {
    pub(super) buckets: Vec<Bucket>,
    pub(super) mask: usize,
    /// Counts searches (wrapping, in the six high bits of an entry's bound byte): an entry of an earlier search
    /// counts [`OLD_ENTRY_PENALTY`] turns shallower when a bucket's entry is chosen for replacement.
    pub(super) generation: std::sync::atomic::AtomicU8,
    /// Experimental (option `tt-single`): one entry a bucket, as before the buckets, for strength tests.
    pub(super) single: AtomicBool,
}

/// Two entries of the table, aligned to stay within one cache line.
#[repr(align(32))]
pub(super) struct Bucket(pub(super) [[AtomicU64; 2]; 2]);

/// Depth an entry of an earlier search loses when the table chooses which entry of a bucket to replace.
pub(super) const OLD_ENTRY_PENALTY: i32 = 4;

/// Bits of an entry's last byte that hold the bound; the rest hold the generation.
pub(super) const BOUND_BITS: u8 = 0b11;

impl Entry {
    pub(super) fn to_bits(self) -> u64 {
        self.step as u64
            | (self.score as u16 as u64) << 32
            | (self.depth as u8 as u64) << 48
            | (self.bound as u64) << 56
    }

    pub(super) fn from_bits(key: u64, d: u64) -> Entry {
        Entry {
            key,
            step: d as u32,
            score: (d >> 32) as u16 as i16,
            depth: (d >> 48) as u8 as i8,
            bound: (d >> 56) as u8,
        }
    }
}

impl Table {
    pub(super) fn new(megabytes: usize) -> Table {
        // 0 MB: a single bucket (a cheap stand-in table).
        let want = ((megabytes << 20) / std::mem::size_of::<Bucket>()).max(1);
        let n = want.next_power_of_two() >> usize::from(!want.is_power_of_two());
        let mut buckets = Vec::with_capacity(n);
        advise_huge_pages(buckets.as_ptr(), n);
        // Written after the advice: the first touch of each page is what decides its size.
        buckets.extend((0..n).map(|_| Bucket(Default::default())));
        Table { buckets, mask: n - 1, generation: std::sync::atomic::AtomicU8::new(0), single: AtomicBool::new(false) }
    }

    /// Starts a new search: entries of earlier ones become replaceable.
    pub(super) fn next_generation(&self) {
        self.generation.fetch_add(1 << 2, Ordering::Relaxed);
    }

    #[inline]
    pub(super) fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    #[inline]
    pub(super) fn load(slot: &[AtomicU64; 2]) -> Entry {
        let (k, d) = (slot[0].load(Ordering::Relaxed), slot[1].load(Ordering::Relaxed));
        Entry::from_bits(k ^ d, d)
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        b.0.iter()
            .map(Table::load)
            .find(|e| e.key == key && e.bound & BOUND_BITS != 0)
            .map(|e| Entry { bound: e.bound & BOUND_BITS, ..e })
    }

    #[inline]
    pub(super) fn store(&self, key: u64, step: Option<Step>, score: i32, depth: i32, bound: u8) {
        let b = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let (e0, e1) = (Table::load(&b.0[0]), Table::load(&b.0[1]));
        let depth = depth.clamp(-128, 127) as i8;
        if self.single.load(Ordering::Relaxed) {
            // The earlier policy: one entry a key (the next bit of the key picks the half of the bucket, so the
            // table holds as many entries as before), kept only when it is exact and much deeper.
            let half = (key >> self.mask.count_ones()) as usize & 1;
            let old = [e0, e1][half];
            if old.key != key && old.depth > depth.saturating_add(2) && old.bound & BOUND_BITS == EXACT {
                return;
            }
            let step = step.map(pack).unwrap_or(if old.key == key { old.step } else { 0 });
            let d = Entry { key, step, score: score as i16, depth, bound }.to_bits();
            b.0[half][0].store(key ^ d, Ordering::Relaxed);
            b.0[half][1].store(d, Ordering::Relaxed);
            return;
        }
        // The same position again, wherever it is; else the entry worth less: empty, or shallower, an earlier
        // search's counting a few turns less (still useful: the game goes on along its line).
        let worth = |e: &Entry| {
            if e.bound & BOUND_BITS == 0 {
                i32::MIN
            } else {
                i32::from(e.depth) - if e.bound & !BOUND_BITS != generation { OLD_ENTRY_PENALTY } else { 0 }
            }
        };
        let (slot, old) = if e0.key == key && e0.bound != 0 {
            (&b.0[0], e0)
        } else if e1.key == key && e1.bound != 0 {
            (&b.0[1], e1)
        } else if worth(&e0) <= worth(&e1) {
            (&b.0[0], e0)
        } else {
            (&b.0[1], e1)
        };
        let step = step.map(pack).unwrap_or(if old.key == key { old.step } else { 0 });
        let d = Entry { key, step, score: score as i16, depth, bound: bound | generation }.to_bits();
        slot[0].store(key ^ d, Ordering::Relaxed);
        slot[1].store(d, Ordering::Relaxed);
    }

    pub(super) fn clear(&self) {
        for b in &self.buckets {
            for slot in &b.0 {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            }
        }
    }

    /// Starts loading the bucket of `key` into the cache: the probe that follows a few hundred cycles later
    /// then does not wait on memory, which is most of a node's cost with a large table.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.buckets.as_ptr().wrapping_add(key as usize & self.mask);
            // SAFETY: prefetching is a hint with no effect on memory safety, whatever the address.
            unsafe { std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

/// Whether [`Table::prefetch`] does anything here: where it does not, playing a step only to fetch its entry
/// would cost time for nothing.
pub(super) const PREFETCH: bool = cfg!(target_arch = "x86_64");

/// Asks Linux to back the (not yet touched) buffer at `start`, `n` buckets long, with 2 MB pages. Every probe of a
/// large table lands on a random page: with 4 KB pages nearly each one also misses the TLB, and that page walk
/// was a large part of a quiescence node's time. Only a hint: where the kernel keeps small pages (transparent
/// huge pages off), nothing changes.
pub(super) fn advise_huge_pages(start: *const Bucket, n: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        // madvise wants a page-aligned start; the allocator's block starts just after its header. Huge pages
        // only ever back whole aligned 2 MB spans, so advise those.
        let begin = (start as usize).next_multiple_of(HUGE);
        let end = (start as usize + n * std::mem::size_of::<Bucket>()) / HUGE * HUGE;
        if end > begin {
            // SAFETY: [begin, end) lies within the caller's own allocation (capacity ≥ n); madvise only changes
            // how the kernel backs those pages, never their contents, and a failure is harmless.
            unsafe {
                libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, n);
}

pub(super) fn to_tt(score: i32, tply: i32) -> i32 {
    if score > WIN_BOUND {
        score + tply
    } else if score < -WIN_BOUND {
        score - tply
    } else {
        score
    }
}

pub(super) fn from_tt(score: i32, tply: i32) -> i32 {
    if score > WIN_BOUND {
        score - tply
    } else if score < -WIN_BOUND {
        score + tply
    } else {
        score
    }
}
