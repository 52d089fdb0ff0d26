//! Game records in storage: their dates and names, and the records kept by themselves (every finished game of the
//! player's, up to a cap). Below the screens and the online module, which both keep records.

use crate::save::storage::{Storage, StorageError};
use bevy::prelude::*;

/// Whether every finished game of the player's is kept as a record by itself (a setting, on by default).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeepGames(pub bool);

impl Default for KeepGames {
    fn default() -> Self {
        KeepGames(true)
    }
}

/// How many records kept by themselves (not saved by the player) are kept; the oldest go first.
pub const KEPT_GAMES_CAP: usize = 200;

/// The endings of the names of records kept by themselves: against the CPU, between people at one screen, online.
pub const KEPT_SUFFIXES: [&str; 3] = ["-vs-cpu", "-hot-seat", "-online"];

/// Seconds since 1970-01-01 UTC, now. The browser has no `SystemTime`, so it asks JavaScript's clock.
pub fn unix_now() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        (js_clock::now() / 1000.0).floor() as i64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => d.as_secs() as i64,
            Err(e) => -(e.duration().as_secs() as i64),
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod js_clock {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = Date, js_name = now)]
        pub fn now() -> f64;
    }
}

/// The UTC calendar date and time of `secs` seconds since 1970-01-01: (year, month, day, hour, minute, second).
pub fn utc_parts(secs: i64) -> (i64, u32, u32, u32, u32, u32) {
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400) as u32;
    // Howard Hinnant's days-to-civil: eras of 400 years (146 097 days) make the leap years regular, and counting
    // from March puts the leap day at the end of the year.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rest / 3600, rest / 60 % 60, rest % 60)
}

/// The date of `secs` as a record's `Date` tag: `YYYY-MM-DD` (UTC).
pub fn date_tag(secs: i64) -> String {
    let (y, m, d, ..) = utc_parts(secs);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The name a record saved at `secs` gets: `fanorona-YYYY-MM-DD-HHMMSS` (UTC).
pub fn record_name(secs: i64) -> String {
    let (y, mo, d, h, mi, s) = utc_parts(secs);
    format!("fanorona-{y:04}-{mo:02}-{d:02}-{h:02}{mi:02}{s:02}")
}

/// A name for a new record that no record has yet: `base`, or `base-2`, `base-3`… (two saves within one second
/// must not overwrite each other).
pub fn unused_record_name(storage: &Storage, base: &str) -> String {
    let existing = storage.list_records();
    std::iter::once(base.to_string())
        .chain((2..).map(|i| format!("{base}-{i}")))
        .find(|n| !existing.contains(n))
        .expect("an unused name exists")
}

/// Keeps `text` as a record kept by itself, named after `now` (seconds since 1970) with `suffix` (one of
/// [`KEPT_SUFFIXES`]), then removes the oldest of those beyond the cap. Returns the name it got.
pub fn keep_record(storage: &Storage, suffix: &str, now: i64, text: &str) -> Result<String, StorageError> {
    let name = unused_record_name(storage, &format!("{}{suffix}", record_name(now)));
    storage.write_record(&name, text)?;
    prune_kept_records(storage);
    Ok(name)
}

/// Removes the oldest records kept by themselves beyond [`KEPT_GAMES_CAP`] (the player's own saves stay).
pub fn prune_kept_records(storage: &Storage) {
    // Names start with the date and time, so sorted names are oldest first.
    let kept: Vec<String> = storage
        .list_records()
        .into_iter()
        .filter(|n| KEPT_SUFFIXES.iter().any(|s| n.ends_with(s) || n.contains(&format!("{s}-"))))
        .collect();
    for name in kept.iter().take(kept.len().saturating_sub(KEPT_GAMES_CAP)) {
        if let Err(e) = storage.remove_record(name) {
            warn!("could not remove the old record {name}: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(record_name(0), "fanorona-1970-01-01-000000");
        assert_eq!(date_tag(951_782_400), "2000-02-29");
        assert_eq!(record_name(1_700_000_000), "fanorona-2023-11-14-221320");
        assert_eq!(record_name(1_709_164_800), "fanorona-2024-02-29-000000");
        assert_eq!(record_name(4_102_444_799), "fanorona-2099-12-31-235959");
        assert_eq!(record_name(253_402_300_799), "fanorona-9999-12-31-235959");
        assert_eq!(record_name(-86_400), "fanorona-1969-12-31-000000");
        assert_eq!(utc_parts(-1), (1969, 12, 31, 23, 59, 59));
    }

    #[test]
    fn every_day_follows_the_one_before() {
        let days_in = |y: i64, m: u32| match m {
            2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        };
        let mut at = utc_parts(-86_400 * 366 * 2);
        for day in -366 * 2 + 1..366 * 500 {
            let now = utc_parts(day * 86_400 + 3_661);
            let (y, m, d) = (at.0, at.1, at.2);
            let expected = if d < days_in(y, m) {
                (y, m, d + 1)
            } else if m < 12 {
                (y, m + 1, 1)
            } else {
                (y + 1, 1, 1)
            };
            assert_eq!((now.0, now.1, now.2), expected, "day {day}");
            assert_eq!((now.3, now.4, now.5), (1, 1, 1));
            at = now;
        }
    }

    #[test]
    fn now_is_after_2025() {
        assert!(unix_now() > 1_735_689_600);
    }
}
