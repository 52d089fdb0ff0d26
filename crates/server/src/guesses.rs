//! Wrong invite codes counted per client address: past a number of them in a window of time, an address's joins are
//! refused before its code is even looked up, so that nobody can try codes until one fits. The same table counts the
//! games each address creates ([`FailedJoins::take`]).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The count of one address in its current window.
struct Window {
    start: Instant,
    failures: u32,
}

/// Failed joins (an unknown, used or expired invite) per address, in fixed windows: an address may fail `max` times
/// within `window` of its first failure, after which its joins are refused until that window ends. A fixed window
/// (rather than a sliding one) keeps one small entry per address; at worst an address gets `2 × max` tries around
/// the end of a window, still nothing against 50-bit codes.
///
/// Failures are counted once known, so joins already being looked up when the limit is reached still finish: one
/// per connection of the address at most, since a connection handles one message at a time. Counting every attempt
/// up front would make the count exact, but would also refuse the right codes of players who join at the same
/// moment from behind one address (a school's, or the load generator's).
///
/// At most `cap` addresses are remembered: when a new one comes and the table is full, the address whose window
/// started first is forgotten. An attacker with more addresses than that could make the table forget one of them,
/// but no number of addresses makes it grow.
pub struct FailedJoins {
    max: u32,
    window: Duration,
    cap: usize,
    windows: HashMap<IpAddr, Window>,
    /// Each address of `windows` once, in the order their windows started, oldest first: what expires or is
    /// forgotten next is always at the front.
    order: VecDeque<(IpAddr, Instant)>,
}

impl FailedJoins {
    /// A table that allows `max` failures per `window` (a `max` of 0 is taken as 1; a zero window turns the limit
    /// off) and remembers at most `cap` addresses (at least 1).
    pub fn new(max: u32, window: Duration, cap: usize) -> FailedJoins {
        FailedJoins { max: max.max(1), window, cap: cap.max(1), windows: HashMap::new(), order: VecDeque::new() }
    }

    /// Whether `ip` may try an invite code at `now`: `Ok`, or `Err` with the time until it may.
    pub fn check(&mut self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        self.expire(now);
        match self.windows.get(&key(ip)) {
            Some(w) if w.failures >= self.max => {
                Err(self.window.saturating_sub(now.saturating_duration_since(w.start)))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failed join of `ip` at `now`.
    pub fn record(&mut self, ip: IpAddr, now: Instant) {
        self.expire(now);
        let ip = key(ip);
        if let Some(w) = self.windows.get_mut(&ip) {
            w.failures = w.failures.saturating_add(1);
            return;
        }
        while self.windows.len() >= self.cap {
            let Some((oldest, _)) = self.order.pop_front() else { break };
            self.windows.remove(&oldest);
        }
        self.windows.insert(ip, Window { start: now, failures: 1 });
        self.order.push_back((ip, now));
    }

    /// Checks `ip` at `now` and, if it may go on, counts it at once: for a budget of attempts (such as games created)
    /// rather than of failures, exact whatever the number of connections of the address.
    pub fn take(&mut self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        self.check(ip, now)?;
        self.record(ip, now);
        Ok(())
    }

    /// Addresses remembered now.
    pub fn len(&self) -> usize {
        self.windows.len()
    }

    /// Whether no address is remembered.
    pub fn is_empty(&self) -> bool {
        self.windows.is_empty()
    }

    /// Forgets the windows that have ended.
    fn expire(&mut self, now: Instant) {
        while let Some(&(ip, start)) = self.order.front() {
            if now.saturating_duration_since(start) < self.window {
                break;
            }
            self.order.pop_front();
            self.windows.remove(&ip);
        }
    }
}

/// The address that counts: for IPv6 its /64 network, since a subscriber commonly gets a whole /64 and could
/// otherwise take a fresh address for every guess.
pub(crate) fn key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// Checks `ip` at `now` and, if it may try, counts a failure: what a wrong code does.
    fn fail(t: &mut FailedJoins, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        t.check(ip, now)?;
        t.record(ip, now);
        Ok(())
    }

    #[test]
    fn an_address_fails_at_most_max_times_per_window() {
        let mut t = FailedJoins::new(3, 10 * MINUTE, 100);
        let t0 = Instant::now();
        let a = ip("203.0.113.7");
        assert_eq!(t.check(a, t0), Ok(()), "checking counts nothing");
        assert!(t.is_empty());
        for i in 0..3 {
            assert_eq!(fail(&mut t, a, t0 + i * MINUTE), Ok(()), "failure {i}");
        }
        // Refused until ten minutes after the first failure, and told how long that is.
        assert_eq!(t.check(a, t0 + 4 * MINUTE), Err(6 * MINUTE));
        assert_eq!(t.check(a, t0 + 10 * MINUTE - Duration::from_millis(1)), Err(Duration::from_millis(1)));
        // Another address is not concerned.
        assert_eq!(fail(&mut t, ip("203.0.113.8"), t0 + 5 * MINUTE), Ok(()));
        // The window over, the address starts afresh.
        assert_eq!(fail(&mut t, a, t0 + 10 * MINUTE), Ok(()));
        assert_eq!(fail(&mut t, a, t0 + 11 * MINUTE), Ok(()));
    }

    #[test]
    fn a_max_of_zero_is_one() {
        let mut t = FailedJoins::new(0, MINUTE, 10);
        let t0 = Instant::now();
        assert_eq!(fail(&mut t, ip("192.0.2.1"), t0), Ok(()));
        assert!(t.check(ip("192.0.2.1"), t0).is_err());
    }

    #[test]
    fn an_ipv6_subscriber_counts_as_one_address() {
        let mut t = FailedJoins::new(1, MINUTE, 100);
        let t0 = Instant::now();
        fail(&mut t, ip("2001:db8:1:2::1"), t0).unwrap();
        assert!(t.check(ip("2001:db8:1:2:ffff::9"), t0).is_err(), "same /64");
        assert_eq!(t.check(ip("2001:db8:1:3::1"), t0), Ok(()), "another /64");
        // An IPv4 address written as IPv6 is the IPv4 address.
        fail(&mut t, ip("192.0.2.1"), t0).unwrap();
        assert!(t.check(ip("::ffff:192.0.2.1"), t0).is_err());
    }

    #[test]
    fn memory_stays_bounded_and_ended_windows_are_forgotten() {
        let mut t = FailedJoins::new(1, MINUTE, 100);
        let t0 = Instant::now();
        for i in 0..10_000u32 {
            fail(&mut t, IpAddr::from(i.to_be_bytes()), t0 + Duration::from_micros(i.into())).unwrap();
            assert!(t.len() <= 100 && t.order.len() == t.len());
        }
        // The oldest were forgotten to make room: the first address may try again, the last may not.
        assert_eq!(t.check(IpAddr::from(0u32.to_be_bytes()), t0 + Duration::from_secs(1)), Ok(()));
        assert!(t.check(IpAddr::from(9_999u32.to_be_bytes()), t0 + Duration::from_secs(1)).is_err());
        // Once every window has ended, they are all forgotten at the next look.
        assert_eq!(t.check(ip("192.0.2.1"), t0 + 2 * MINUTE), Ok(()));
        assert_eq!((t.len(), t.order.len()), (0, 0));
    }

    #[test]
    fn a_zero_window_limits_nothing() {
        let mut t = FailedJoins::new(1, Duration::ZERO, 10);
        let t0 = Instant::now();
        for _ in 0..5 {
            assert_eq!(fail(&mut t, ip("192.0.2.1"), t0), Ok(()));
        }
    }
}
