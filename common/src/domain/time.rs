//! Time helpers. Instants are stored as Unix milliseconds (`i64`) in the database and
//! rendered as RFC 3339 UTC (`Z`) in the API.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use jiff::{SignedDuration, Timestamp};

pub fn now() -> Timestamp {
    Timestamp::now()
}

/// The time the API, the scheduler and the workers go by: the system's, plus a step a test
/// may add to reach an instant without waiting for it (zero2prod's idea) and without aging
/// rows by hand. Clones share the step. Nothing in the product ever steps it.
#[derive(Debug, Clone)]
pub struct Clock {
    ahead_ms: Arc<AtomicI64>,
    /// Counts steps, so a sleeper can wake when the time it waits for comes early.
    steps: Arc<tokio::sync::watch::Sender<u64>>,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock { ahead_ms: Arc::default(), steps: Arc::new(tokio::sync::watch::Sender::new(0)) }
    }
}

impl Clock {
    pub fn system() -> Clock {
        Clock::default()
    }

    pub fn now(&self) -> Timestamp {
        let ahead = self.ahead_ms.load(Ordering::Relaxed);
        Timestamp::now().checked_add(SignedDuration::from_millis(ahead)).unwrap_or(Timestamp::MAX)
    }

    /// Moves this clock (and its clones) `by` ahead, rounded up to a whole millisecond: a step
    /// to an instant never lands short of it (cut to the millisecond, a step computed from a
    /// reading of 16.999085 s to 17 s stopped at 16.999 s, before the fire it was for).
    pub fn advance(&self, by: SignedDuration) {
        let ms = by.as_nanos().div_euclid(1_000_000) + i128::from(by.as_nanos().rem_euclid(1_000_000) != 0);
        self.ahead_ms.fetch_add(i64::try_from(ms).unwrap_or(i64::MAX), Ordering::Relaxed);
        self.steps.send_modify(|n| *n += 1);
    }

    /// Changes each time the clock is stepped (`changed()` on it resolves after a step).
    pub fn steps(&self) -> tokio::sync::watch::Receiver<u64> {
        self.steps.subscribe()
    }

    /// Sleeps until this clock reads `at` or later (at once when it already does); a step
    /// wakes it early.
    pub async fn sleep_until(&self, at: Timestamp) {
        let mut steps = self.steps();
        loop {
            let left = at.duration_since(self.now());
            if left <= SignedDuration::ZERO {
                return;
            }
            tokio::select! {
                _ = tokio::time::sleep(left.unsigned_abs()) => {}
                changed = steps.changed() => if changed.is_err() { tokio::time::sleep(left.unsigned_abs()).await },
            }
        }
    }
}

pub fn to_millis(ts: Timestamp) -> i64 {
    ts.as_millisecond()
}

pub fn from_millis(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// Rounds an instant up to the next whole second (a reminder fires on a whole second, and
/// rounding up means it never fires before the time asked for).
pub fn ceil_to_second(ts: Timestamp) -> Timestamp {
    if ts.subsec_nanosecond() == 0 {
        return ts;
    }
    Timestamp::from_second(ts.as_second() + 1).unwrap_or(ts)
}

/// RFC 3339 in UTC with a `Z`, whole seconds unless the instant has a fraction.
pub fn rfc3339(ts: Timestamp) -> String {
    ts.to_string()
}

/// Serde adapter for optional RFC 3339 output.
pub mod serde_rfc3339 {
    use jiff::Timestamp;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(ts: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::rfc3339(*ts))
    }

    pub mod option {
        use jiff::Timestamp;
        use serde::Serializer;

        pub fn serialize<S: Serializer>(ts: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
            match ts {
                Some(ts) => s.serialize_str(&super::super::rfc3339(*ts)),
                None => s.serialize_none(),
            }
        }
    }
}

/// `at` as a local `HH:MM` in `zone` (a held ring's mark, a brief's lines, an escalation).
pub fn hh_mm(at: Timestamp, zone: &crate::domain::zone::Zone) -> String {
    at.to_zoned(zone.tz().clone()).strftime("%H:%M").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_never_lands_short_of_the_instant_it_was_computed_for() {
        let clock = Clock::default();
        let before = clock.now();
        // A step of 10.999999 s: cut to the millisecond it read up to a millisecond short.
        let by = SignedDuration::new(10, 999_999_999);
        clock.advance(by);
        assert!(clock.now() >= before + by, "{} < {}", clock.now(), before + by);
        // Whole milliseconds step exactly; a step back rounds toward the future too.
        let exact = Clock::default();
        exact.advance(SignedDuration::from_millis(1500));
        exact.advance(SignedDuration::new(0, -1_500_000));
        assert_eq!(exact.ahead_ms.load(Ordering::Relaxed), 1499);
    }

    #[test]
    fn ceil_rounds_fractions_up_and_keeps_whole_seconds() {
        let whole: Timestamp = "2026-01-01T00:00:05Z".parse().unwrap();
        assert_eq!(ceil_to_second(whole), whole);
        let frac: Timestamp = "2026-01-01T00:00:05.001Z".parse().unwrap();
        assert_eq!(ceil_to_second(frac).to_string(), "2026-01-01T00:00:06Z");
    }

    #[test]
    fn a_stepped_clock_and_its_clones_run_ahead_together() {
        let clock = Clock::system();
        let clone = clock.clone();
        clock.advance(SignedDuration::from_hours(2));
        let ahead = clone.now().duration_since(Timestamp::now());
        assert!(ahead > SignedDuration::from_mins(119) && ahead <= SignedDuration::from_hours(2), "{ahead:?}");
        assert!(Clock::system().now().duration_since(Timestamp::now()) < SignedDuration::from_secs(1));
    }

    #[tokio::test]
    async fn a_step_wakes_a_sleeper_early() {
        let clock = Clock::system();
        let at = clock.now() + SignedDuration::from_hours(1);
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(at).await }
        });
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        clock.advance(SignedDuration::from_hours(1));
        tokio::time::timeout(std::time::Duration::from_secs(5), sleeper).await.expect("woken by the step").unwrap();
        assert!(clock.now() >= at);
    }

    #[test]
    fn millis_round_trip() {
        let ts: Timestamp = "2026-07-01T12:34:56.789Z".parse().unwrap();
        assert_eq!(from_millis(to_millis(ts)), ts);
    }
}
