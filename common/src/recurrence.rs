//! Recurrence rules for reminders, and when a reminder fires next.
//!
//! A [`Schedule`] pairs the first instant of a reminder (`send_at`) with an
//! IANA time zone and a [`Recurrence`].
//!
//! Calendar recurrences (daily, weekly, weekdays, custom, monthly) work on
//! the *local civil* date-time of `send_at` in the zone, the "anchor". Each
//! occurrence is the anchor's time of day on a matching civil date, turned
//! back into an instant with jiff's "compatible" disambiguation: a time that
//! a DST gap skips moves forward by the gap's length (02:30 becomes 03:30),
//! and a time that a fold repeats takes the earlier instant. Every
//! occurrence comes from the anchor, never from the one before it, so DST
//! shifts and month-end clamping never build up (09:00 stays 09:00, and a
//! reminder on the 31st goes back to the 31st after a short month).
//!
//! On the anchor's own date the occurrence is `send_at` itself, even when
//! `send_at` is the later of two instants with the same wall-clock time.
//!
//! Hourly recurrences count elapsed time and ignore the wall clock.
//!
//! All time-zone math is done by jiff. Nothing here panics on a timestamp
//! that jiff can represent. When the next step would leave jiff's range,
//! there are simply no more occurrences.

use std::fmt;
use std::iter::FusedIterator;

use jiff::civil::{Date, DateTime, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Span, Timestamp};
use serde::{Deserialize, Serialize};

/// A day of the week. In serde it is a lowercase three-letter name (`"mon"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Day {
    Mon,
    Tue,
    Wed,
    Thu,
    Fri,
    Sat,
    Sun,
}

impl Day {
    /// All seven days, Monday first.
    pub const ALL: [Day; 7] = [Day::Mon, Day::Tue, Day::Wed, Day::Thu, Day::Fri, Day::Sat, Day::Sun];

    /// The day's English name, e.g. `"Monday"`.
    pub fn name(self) -> &'static str {
        match self {
            Day::Mon => "Monday",
            Day::Tue => "Tuesday",
            Day::Wed => "Wednesday",
            Day::Thu => "Thursday",
            Day::Fri => "Friday",
            Day::Sat => "Saturday",
            Day::Sun => "Sunday",
        }
    }

    /// This day's bit in a [`DaySet`]. The declaration order gives Mon = 0.
    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<Weekday> for Day {
    fn from(weekday: Weekday) -> Day {
        match weekday {
            Weekday::Monday => Day::Mon,
            Weekday::Tuesday => Day::Tue,
            Weekday::Wednesday => Day::Wed,
            Weekday::Thursday => Day::Thu,
            Weekday::Friday => Day::Fri,
            Weekday::Saturday => Day::Sat,
            Weekday::Sunday => Day::Sun,
        }
    }
}

impl From<Day> for Weekday {
    fn from(day: Day) -> Weekday {
        match day {
            Day::Mon => Weekday::Monday,
            Day::Tue => Weekday::Tuesday,
            Day::Wed => Weekday::Wednesday,
            Day::Thu => Weekday::Thursday,
            Day::Fri => Weekday::Friday,
            Day::Sat => Weekday::Saturday,
            Day::Sun => Weekday::Sunday,
        }
    }
}

/// How a reminder repeats. The module docs describe what each kind means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Recurrence {
    /// Fires once, at `send_at`.
    None,
    /// Every `interval_hours` hours of elapsed time (1..=24), whatever the wall clock does.
    Hourly { interval_hours: u8 },
    /// Every day at the anchor's local time.
    Daily,
    /// Every 7 days, on the anchor's weekday.
    Weekly,
    /// Monday to Friday.
    Weekdays,
    /// The chosen weekdays.
    Custom { days: Vec<Day> },
    /// The anchor's day of the month, or the month's last day when the month is shorter.
    Monthly,
}

/// Why a [`Recurrence`] is invalid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecurrenceError {
    #[error("The hourly interval must be between 1 and 24 hours, but it is {0}.")]
    InvalidHourlyInterval(u8),
    #[error("A custom recurrence needs at least one day.")]
    NoCustomDays,
    #[error("{0} appears more than once in the custom recurrence.")]
    DuplicateCustomDay(Day),
}

impl Recurrence {
    /// The smallest valid hourly interval.
    pub const MIN_INTERVAL_HOURS: u8 = 1;
    /// The largest valid hourly interval.
    pub const MAX_INTERVAL_HOURS: u8 = 24;

    /// Checks the rule's parameters: an hourly interval of 1..=24, and custom
    /// days that are non-empty with no day listed twice.
    pub fn validate(&self) -> Result<(), RecurrenceError> {
        match self {
            Recurrence::Hourly { interval_hours } if !(Self::MIN_INTERVAL_HOURS..=Self::MAX_INTERVAL_HOURS).contains(interval_hours) => {
                Err(RecurrenceError::InvalidHourlyInterval(*interval_hours))
            }
            Recurrence::Custom { days } => {
                if days.is_empty() {
                    return Err(RecurrenceError::NoCustomDays);
                }
                let mut seen = DaySet::EMPTY;
                for &day in days {
                    if seen.contains(day) {
                        return Err(RecurrenceError::DuplicateCustomDay(day));
                    }
                    seen = seen.with(day);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// A set of weekdays as a 7-bit mask. Matching a date is then one AND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DaySet(u8);

impl DaySet {
    const EMPTY: DaySet = DaySet(0);
    const WEEKDAYS: DaySet = DaySet(0b001_1111);

    fn from_days(days: &[Day]) -> DaySet {
        days.iter().fold(DaySet::EMPTY, |set, &day| set.with(day))
    }

    fn with(self, day: Day) -> DaySet {
        DaySet(self.0 | day.bit())
    }

    fn contains(self, day: Day) -> bool {
        self.0 & day.bit() != 0
    }

    fn matches(self, date: Date) -> bool {
        self.contains(Day::from(date.weekday()))
    }
}

/// A reminder's first instant, its time zone and how it repeats.
///
/// The methods give results for any [`Recurrence`], valid or not, and never
/// panic. They do not validate it, so call [`Recurrence::validate`] where
/// input comes in. An hourly interval of 0 or an empty custom day list has no
/// occurrences at all, not even `send_at`. Intervals above 24 and repeated
/// custom days work as written. Any fraction of a second in `send_at` is
/// dropped, so every occurrence is a whole second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub send_at: Timestamp,
    pub tz: TimeZone,
    pub recurrence: Recurrence,
}

impl Schedule {
    pub fn new(send_at: Timestamp, tz: TimeZone, recurrence: Recurrence) -> Schedule {
        Schedule { send_at, tz, recurrence }
    }

    /// First occurrence at or after `from` (inclusive), or None when there is none (one-time reminder whose instant is before `from`).
    pub fn next_at_or_after(&self, from: Timestamp) -> Option<Timestamp> {
        self.iter_from(from).next()
    }

    /// First occurrence strictly after `after`.
    pub fn next_after(&self, after: Timestamp) -> Option<Timestamp> {
        // The iterator yields each instant at most once, so at most one item
        // (one equal to `after`) is skipped.
        self.iter_from(after).find(|&t| t > after)
    }

    /// Up to `count` occurrences starting at/after `from`, ascending, no duplicates.
    pub fn occurrences(&self, from: Timestamp, count: usize) -> Vec<Timestamp> {
        // `collect` sizes the Vec from the iterator, not from `count`, so a
        // huge `count` does not reserve a huge buffer.
        self.iter_from(from).take(count).collect()
    }

    /// All occurrences at or after `from`, strictly increasing, without end
    /// unless the rule or jiff's range ends them.
    ///
    /// Creating the iterator takes the same time however far `from` is
    /// from `send_at`: it jumps close to `from` instead of walking from
    /// `send_at`.
    pub fn iter_from(&self, from: Timestamp) -> Occurrences {
        let send_at = floor_to_second(self.send_at);
        let source = match &self.recurrence {
            Recurrence::None => Source::Once(send_at),
            Recurrence::Hourly { interval_hours } => Source::hourly(send_at, *interval_hours, from),
            Recurrence::Daily => Source::civil(send_at, &self.tz, from, Rule::EveryDays(1)),
            Recurrence::Weekly => Source::civil(send_at, &self.tz, from, Rule::EveryDays(7)),
            Recurrence::Weekdays => Source::civil(send_at, &self.tz, from, Rule::OnDays(DaySet::WEEKDAYS)),
            Recurrence::Custom { days } => Source::civil(send_at, &self.tz, from, Rule::OnDays(DaySet::from_days(days))),
            Recurrence::Monthly => Source::civil(send_at, &self.tz, from, Rule::Monthly),
        };
        Occurrences {
            source,
            floor: from.max(send_at),
            last: None,
            #[cfg(test)]
            examined: 0,
        }
    }
}

/// The iterator that [`Schedule::iter_from`] returns.
#[derive(Debug, Clone)]
pub struct Occurrences {
    source: Source,
    /// Candidates before this instant are skipped. It is `max(from, send_at)`.
    floor: Timestamp,
    /// The last instant yielded. Candidates at or before it are dropped, so the
    /// output is strictly increasing even if two civil dates give the same
    /// instant (e.g. Pacific/Apia skipped 2011-12-30 entirely).
    last: Option<Timestamp>,
    /// Number of candidates produced, so that tests can check we jump rather than walk.
    #[cfg(test)]
    examined: u32,
}

impl Iterator for Occurrences {
    type Item = Timestamp;

    fn next(&mut self) -> Option<Timestamp> {
        loop {
            let candidate = self.source.next_candidate()?;
            #[cfg(test)]
            {
                self.examined += 1;
            }
            if candidate < self.floor || self.last.is_some_and(|last| candidate <= last) {
                continue;
            }
            self.last = Some(candidate);
            return Some(candidate);
        }
    }
}

impl FusedIterator for Occurrences {}

/// Produces candidate instants in non-decreasing order. This holds because
/// no gap in the tz database is longer than 24 hours. `Occurrences` filters them.
#[derive(Debug, Clone)]
enum Source {
    Done,
    Once(Timestamp),
    Hourly { next: Timestamp, step: SignedDuration },
    Civil(Civil),
}

/// Which civil dates a calendar recurrence fires on.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Every `n` days from the anchor's date (1 = daily, 7 = weekly).
    EveryDays(i32),
    /// Every date on or after the anchor's date whose weekday is in the set.
    OnDays(DaySet),
    /// The anchor's day of the month, clamped to the month's length.
    Monthly,
}

/// How many days before `from`'s local date calendar rules start looking.
///
/// A candidate on an earlier civil date can still fall at or after `from`,
/// because of a gap shift (at most 24 hours in real zones) or a change of
/// UTC offset (offsets stay within +/-26 hours). So a candidate on a date
/// 3 or more days before `from`'s date is always before `from`, and
/// starting here skips nothing.
const SLACK_DAYS: i64 = 3;

impl Source {
    fn hourly(send_at: Timestamp, interval_hours: u8, from: Timestamp) -> Source {
        if interval_hours == 0 {
            return Source::Done;
        }
        let step = SignedDuration::from_hours(i64::from(interval_hours));
        // Jump straight to the first step at or after `from`: k = ceil(behind / step).
        // Nanoseconds in i128 cannot overflow across jiff's whole range.
        let step_ns = step.as_nanos();
        let behind = from.as_nanosecond() - send_at.as_nanosecond();
        let k = if behind <= 0 {
            0
        } else {
            // Both values are positive here, so the casts are lossless.
            (behind as u128).div_ceil(step_ns as u128) as i128
        };
        match Timestamp::from_nanosecond(send_at.as_nanosecond() + k * step_ns) {
            Ok(next) => Source::Hourly { next, step },
            Err(_) => Source::Done,
        }
    }

    fn civil(send_at: Timestamp, tz: &TimeZone, from: Timestamp, rule: Rule) -> Source {
        let anchor = send_at.to_zoned(tz.clone()).datetime();
        let from_date = from.to_zoned(tz.clone()).date();
        let start = from_date.checked_sub(Span::new().days(SLACK_DAYS)).unwrap_or(Date::MIN).max(anchor.date());
        let dates = match rule {
            Rule::EveryDays(n) => {
                // Whole civil days between two dates: the difference is an exact
                // multiple of 24 hours.
                let elapsed_days = anchor.date().duration_until(start).as_hours() / 24;
                let steps = elapsed_days / i64::from(n);
                let first = Span::new().try_days(steps * i64::from(n)).and_then(|span| anchor.date().checked_add(span));
                match first {
                    Ok(first) => DateStepper::Every { next: Some(first), days: n },
                    Err(_) => return Source::Done,
                }
            }
            Rule::OnDays(days) if days == DaySet::EMPTY => return Source::Done,
            Rule::OnDays(days) => DateStepper::OnDays { next: Some(start), days },
            Rule::Monthly => DateStepper::Monthly { next_month: Some(month_index(start)), day: anchor.day() },
        };
        Source::Civil(Civil { tz: tz.clone(), send_at, anchor, dates })
    }

    fn next_candidate(&mut self) -> Option<Timestamp> {
        let (candidate, more) = match self {
            Source::Done => (None, false),
            Source::Once(t) => (Some(*t), false),
            Source::Hourly { next, step } => {
                let current = *next;
                match current.checked_add(*step) {
                    Ok(following) => {
                        *next = following;
                        (Some(current), true)
                    }
                    // The next step is out of range. Yield this one, then stop.
                    Err(_) => (Some(current), false),
                }
            }
            Source::Civil(civil) => {
                let candidate = civil.next_candidate();
                (candidate, candidate.is_some())
            }
        };
        if !more {
            *self = Source::Done;
        }
        candidate
    }
}

/// The calendar-rule source: matching civil dates at the anchor's time of day.
#[derive(Debug, Clone)]
struct Civil {
    tz: TimeZone,
    send_at: Timestamp,
    anchor: DateTime,
    dates: DateStepper,
}

impl Civil {
    fn next_candidate(&mut self) -> Option<Timestamp> {
        let date = self.dates.next_date()?;
        if date == self.anchor.date() {
            // The anchor's own date is `send_at` itself. Recomputing it could
            // pick the other instant when `send_at` is in a fold.
            return Some(self.send_at);
        }
        let local = date.to_datetime(self.anchor.time());
        // Compatible: a gap moves forward by its length, a fold takes the earlier instant.
        // An error here means we ran off the end of jiff's range.
        self.tz.to_ambiguous_timestamp(local).compatible().ok()
    }
}

/// Steps through the matching civil dates in increasing order.
/// `None` in a cursor means jiff's date range has ended.
#[derive(Debug, Clone)]
enum DateStepper {
    Every { next: Option<Date>, days: i32 },
    OnDays { next: Option<Date>, days: DaySet },
    Monthly { next_month: Option<i32>, day: i8 },
}

impl DateStepper {
    fn next_date(&mut self) -> Option<Date> {
        match self {
            DateStepper::Every { next, days } => {
                let date = (*next)?;
                *next = date.checked_add(Span::new().days(i64::from(*days))).ok();
                Some(date)
            }
            // The set is never empty here, so this loop runs at most 7 times.
            DateStepper::OnDays { next, days } => loop {
                let date = (*next)?;
                *next = date.tomorrow().ok();
                if days.matches(date) {
                    return Some(date);
                }
            },
            DateStepper::Monthly { next_month, day } => {
                let index = (*next_month)?;
                *next_month = index.checked_add(1);
                // Past jiff's last year this is None, which ends the sequence.
                month_date(index, *day)
            }
        }
    }
}

/// Months since year 0, so that stepping a month is `+ 1`.
fn month_index(date: Date) -> i32 {
    i32::from(date.year()) * 12 + i32::from(date.month()) - 1
}

/// The date in month `index` with day `day`, or the month's last day when
/// the month is shorter.
fn month_date(index: i32, day: i8) -> Option<Date> {
    let year = i16::try_from(index.div_euclid(12)).ok()?;
    // rem_euclid(12) is 0..=11, so this fits in an i8.
    let month = (index.rem_euclid(12) + 1) as i8;
    let first = Date::new(year, month, 1).ok()?;
    Date::new(year, month, day.min(first.days_in_month())).ok()
}

/// Rounds toward the past to a whole second (jiff's `as_second` rounds toward zero).
fn floor_to_second(ts: Timestamp) -> Timestamp {
    let whole = ts.as_second() - i64::from(ts.subsec_nanosecond() < 0);
    Timestamp::from_second(whole).unwrap_or(ts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::tz::AmbiguousOffset;
    use proptest::prelude::*;

    // ---------------------------------------------------------------- helpers

    fn zone(name: &str) -> TimeZone {
        TimeZone::get(name).unwrap_or_else(|e| panic!("time zone {name}: {e}"))
    }

    fn at(rfc3339: &str) -> Timestamp {
        rfc3339.parse().unwrap_or_else(|e| panic!("bad timestamp {rfc3339}: {e}"))
    }

    fn schedule(tz: &str, send_at: &str, recurrence: Recurrence) -> Schedule {
        Schedule::new(at(send_at), zone(tz), recurrence)
    }

    fn custom(days: &[Day]) -> Recurrence {
        Recurrence::Custom { days: days.to_vec() }
    }

    /// RFC 3339 with the zone's offset, so that a mismatch shows the wall clock.
    fn local(t: Timestamp, tz: &TimeZone) -> String {
        t.to_zoned(tz.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
    }

    /// Checks `occurrences(from, n)` against expected RFC 3339 instants,
    /// each written with the zone's local offset (so a wrong offset in the
    /// expectation fails too). It also checks that stepping with
    /// next_at_or_after/next_after gives the same sequence.
    fn check(s: &Schedule, from: &str, expected: &[&str]) {
        let what = format!("{:?} in {} from {from}", s.recurrence, s.tz.iana_name().unwrap_or("?"));
        let got = s.occurrences(at(from), expected.len());
        let got_local: Vec<String> = got.iter().map(|&t| local(t, &s.tz)).collect();
        assert_eq!(got_local, expected, "{what}");
        // The expected strings are valid instants in their own right.
        let expected_instants: Vec<Timestamp> = expected.iter().map(|e| at(e)).collect();
        assert_eq!(got, expected_instants, "{what}");

        let mut stepped = Vec::new();
        let mut next = s.next_at_or_after(at(from));
        while let Some(t) = next {
            stepped.push(t);
            if stepped.len() == expected.len() {
                break;
            }
            next = s.next_after(t);
        }
        assert_eq!(stepped, got, "stepping: {what}");
    }

    // ------------------------------------------------ daily, fixed vectors

    #[test]
    fn daily_0900_keeps_local_time_across_dst_new_york() {
        let s = schedule("America/New_York", "2026-03-06T09:00:00-05:00", Recurrence::Daily);
        check(
            &s,
            "2026-03-06T09:00:00-05:00",
            &["2026-03-06T09:00:00-05:00", "2026-03-07T09:00:00-05:00", "2026-03-08T09:00:00-04:00", "2026-03-09T09:00:00-04:00"],
        );
        check(&s, "2026-10-31T00:00:00-04:00", &["2026-10-31T09:00:00-04:00", "2026-11-01T09:00:00-05:00", "2026-11-02T09:00:00-05:00"]);
    }

    #[test]
    fn daily_0900_keeps_local_time_across_dst_london_sydney_tokyo() {
        let london = schedule("Europe/London", "2026-03-28T09:00:00+00:00", Recurrence::Daily);
        check(&london, "2026-03-28T00:00:00+00:00", &["2026-03-28T09:00:00+00:00", "2026-03-29T09:00:00+01:00"]);
        check(&london, "2026-10-24T00:00:00+01:00", &["2026-10-24T09:00:00+01:00", "2026-10-25T09:00:00+00:00"]);

        let sydney = schedule("Australia/Sydney", "2026-04-04T09:00:00+11:00", Recurrence::Daily);
        check(&sydney, "2026-04-04T00:00:00+11:00", &["2026-04-04T09:00:00+11:00", "2026-04-05T09:00:00+10:00"]);
        check(&sydney, "2026-10-03T00:00:00+10:00", &["2026-10-03T09:00:00+10:00", "2026-10-04T09:00:00+11:00"]);

        let tokyo = schedule("Asia/Tokyo", "2026-03-07T02:30:00+09:00", Recurrence::Daily);
        check(
            &tokyo,
            "2026-03-07T02:30:00+09:00",
            &["2026-03-07T02:30:00+09:00", "2026-03-08T02:30:00+09:00", "2026-03-09T02:30:00+09:00"],
        );
        check(&tokyo, "2026-10-31T12:00:00+09:00", &["2026-11-01T02:30:00+09:00", "2026-11-02T02:30:00+09:00"]);
    }

    #[test]
    fn daily_in_new_york_gap_moves_forward_then_returns() {
        let s = schedule("America/New_York", "2026-03-07T02:30:00-05:00", Recurrence::Daily);
        check(&s, "2026-03-07T02:30:00-05:00", &["2026-03-07T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"]);
        assert_eq!(s.next_after(at("2026-03-08T03:30:00-04:00")), Some(at("2026-03-09T02:30:00-04:00")));
    }

    #[test]
    fn daily_in_new_york_fold_fires_once_at_the_earlier_instant() {
        let s = schedule("America/New_York", "2026-10-31T01:30:00-04:00", Recurrence::Daily);
        check(&s, "2026-10-31T01:30:00-04:00", &["2026-10-31T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"]);
        // Not again at 01:30 EST.
        assert_eq!(s.next_after(at("2026-11-01T01:30:00-04:00")), Some(at("2026-11-02T01:30:00-05:00")));
        assert_eq!(s.next_at_or_after(at("2026-11-01T01:30:00-05:00")), Some(at("2026-11-02T01:30:00-05:00")));
    }

    #[test]
    fn send_at_in_the_second_half_of_a_fold_is_its_own_first_occurrence() {
        let s = schedule("America/New_York", "2026-11-01T01:30:00-05:00", Recurrence::Daily);
        // The EDT 01:30 on the same date is before send_at, so it is not an occurrence.
        check(&s, "2026-11-01T00:00:00-04:00", &["2026-11-01T01:30:00-05:00", "2026-11-02T01:30:00-05:00"]);
    }

    #[test]
    fn daily_in_london_gap_and_fold() {
        let gap = schedule("Europe/London", "2026-03-28T01:30:00+00:00", Recurrence::Daily);
        check(&gap, "2026-03-28T01:30:00+00:00", &["2026-03-28T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-03-30T01:30:00+01:00"]);
        let fold = schedule("Europe/London", "2026-10-24T01:30:00+01:00", Recurrence::Daily);
        check(&fold, "2026-10-24T01:30:00+01:00", &["2026-10-24T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-26T01:30:00+00:00"]);
    }

    #[test]
    fn daily_in_sydney_gap_and_fold() {
        // 2026-10-04: 02:00 AEST -> 03:00 AEDT.
        let gap = schedule("Australia/Sydney", "2026-10-03T02:30:00+10:00", Recurrence::Daily);
        check(&gap, "2026-10-03T02:30:00+10:00", &["2026-10-03T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-05T02:30:00+11:00"]);
        // 2026-04-05: 03:00 AEDT -> 02:00 AEST.
        let fold = schedule("Australia/Sydney", "2026-04-04T02:30:00+11:00", Recurrence::Daily);
        check(&fold, "2026-04-04T02:30:00+11:00", &["2026-04-04T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-06T02:30:00+10:00"]);
    }

    #[test]
    fn daily_in_lord_howe_half_hour_gap_and_fold() {
        // 2026-10-04: 02:00 -> 02:30 (+10:30 -> +11:00).
        let gap = schedule("Australia/Lord_Howe", "2026-10-03T02:15:00+10:30", Recurrence::Daily);
        check(&gap, "2026-10-03T02:15:00+10:30", &["2026-10-03T02:15:00+10:30", "2026-10-04T02:45:00+11:00", "2026-10-05T02:15:00+11:00"]);
        // 2026-04-05: 02:00 -> 01:30 (+11:00 -> +10:30).
        let fold = schedule("Australia/Lord_Howe", "2026-04-04T01:45:00+11:00", Recurrence::Daily);
        check(&fold, "2026-04-04T01:45:00+11:00", &["2026-04-04T01:45:00+11:00", "2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"]);
    }

    #[test]
    fn apia_skipped_day_is_deduplicated() {
        // Samoa jumped from -10:00 to +14:00, so 2011-12-30 never happened
        // there. Its 09:00 shifts 24 h forward onto the 31st's 09:00, which
        // then counts as one occurrence.
        let daily = schedule("Pacific/Apia", "2011-12-29T09:00:00-10:00", Recurrence::Daily);
        check(
            &daily,
            "2011-12-29T09:00:00-10:00",
            &["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"],
        );
        // Friday the 30th's occurrence lands on Saturday local time, the only
        // way a weekday reminder can fire on a weekend.
        let weekdays = schedule("Pacific/Apia", "2011-12-29T09:00:00-10:00", Recurrence::Weekdays);
        check(
            &weekdays,
            "2011-12-29T09:00:00-10:00",
            &["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-02T09:00:00+14:00"],
        );
    }

    // ------------------------------------------------ hourly, fixed vectors

    #[test]
    fn hourly_counts_elapsed_hours_across_dst() {
        let spring = schedule("America/New_York", "2026-03-08T00:30:00-05:00", Recurrence::Hourly { interval_hours: 1 });
        check(
            &spring,
            "2026-03-08T00:30:00-05:00",
            &["2026-03-08T00:30:00-05:00", "2026-03-08T01:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-08T04:30:00-04:00"],
        );
        let fall = schedule("America/New_York", "2026-11-01T00:30:00-04:00", Recurrence::Hourly { interval_hours: 1 });
        check(
            &fall,
            "2026-11-01T00:30:00-04:00",
            &["2026-11-01T00:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00", "2026-11-01T02:30:00-05:00"],
        );
        let every3 = schedule("America/New_York", "2026-03-07T23:00:00-05:00", Recurrence::Hourly { interval_hours: 3 });
        check(
            &every3,
            "2026-03-07T23:00:00-05:00",
            &["2026-03-07T23:00:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T06:00:00-04:00"],
        );
        let london = schedule("Europe/London", "2026-10-25T00:30:00+01:00", Recurrence::Hourly { interval_hours: 1 });
        check(
            &london,
            "2026-10-25T00:30:00+01:00",
            &["2026-10-25T00:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-25T01:30:00+00:00", "2026-10-25T02:30:00+00:00"],
        );
        let sydney_gap = schedule("Australia/Sydney", "2026-10-04T01:30:00+10:00", Recurrence::Hourly { interval_hours: 1 });
        check(
            &sydney_gap,
            "2026-10-04T01:30:00+10:00",
            &["2026-10-04T01:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-04T04:30:00+11:00"],
        );
        let sydney_fold = schedule("Australia/Sydney", "2026-04-05T01:30:00+11:00", Recurrence::Hourly { interval_hours: 1 });
        check(
            &sydney_fold,
            "2026-04-05T01:30:00+11:00",
            &["2026-04-05T01:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-05T02:30:00+10:00", "2026-04-05T03:30:00+10:00"],
        );
        let tokyo = schedule("Asia/Tokyo", "2026-03-08T00:30:00+09:00", Recurrence::Hourly { interval_hours: 24 });
        check(&tokyo, "2026-03-08T00:30:00+09:00", &["2026-03-08T00:30:00+09:00", "2026-03-09T00:30:00+09:00"]);
    }

    #[test]
    fn hourly_far_from_send_at_jumps_by_arithmetic() {
        let s = schedule("America/New_York", "2026-01-01T00:00:00-05:00", Recurrence::Hourly { interval_hours: 5 });
        // 2026-01-01 to 2056-01-01 is 10957 days = 262968 h; the next multiple of 5 is 262970.
        check(&s, "2056-01-01T00:00:00-05:00", &["2056-01-01T02:00:00-05:00", "2056-01-01T07:00:00-05:00"]);
        let mut it = s.iter_from(at("5000-01-01T00:00:00Z"));
        assert!(it.next().is_some());
        assert_eq!(it.examined, 1);
    }

    #[test]
    fn from_inside_an_interval_and_subsecond_inputs() {
        let s = schedule("Asia/Tokyo", "2026-03-08T00:30:00+09:00", Recurrence::Hourly { interval_hours: 2 });
        assert_eq!(s.next_at_or_after(at("2026-03-08T00:30:00.5+09:00")), Some(at("2026-03-08T02:30:00+09:00")));
        assert_eq!(s.next_after(at("2026-03-08T00:29:59.999+09:00")), Some(at("2026-03-08T00:30:00+09:00")));
        // A fraction of a second in send_at is dropped.
        let fractional = schedule("Asia/Tokyo", "2026-03-08T00:30:00.75+09:00", Recurrence::Daily);
        assert_eq!(
            fractional.occurrences(at("2026-03-08T00:00:00+09:00"), 2),
            vec![at("2026-03-08T00:30:00+09:00"), at("2026-03-09T00:30:00+09:00")]
        );
        let before_epoch = schedule("UTC", "1969-12-31T23:59:59.25Z", Recurrence::None);
        assert_eq!(before_epoch.next_at_or_after(Timestamp::MIN), Some(at("1969-12-31T23:59:59Z")));
    }

    // ----------------------------------------------- monthly, fixed vectors

    #[test]
    fn monthly_clamps_to_month_end_and_returns_to_the_31st() {
        let s = schedule("America/New_York", "2026-01-31T09:00:00-05:00", Recurrence::Monthly);
        check(
            &s,
            "2026-01-31T09:00:00-05:00",
            &[
                "2026-01-31T09:00:00-05:00",
                "2026-02-28T09:00:00-05:00",
                "2026-03-31T09:00:00-04:00",
                "2026-04-30T09:00:00-04:00",
                "2026-05-31T09:00:00-04:00",
            ],
        );
        // Leap year, reached by jumping.
        check(
            &s,
            "2028-01-15T00:00:00-05:00",
            &["2028-01-31T09:00:00-05:00", "2028-02-29T09:00:00-05:00", "2028-03-31T09:00:00-04:00", "2028-04-30T09:00:00-04:00"],
        );
        let tokyo = schedule("Asia/Tokyo", "2026-01-31T09:00:00+09:00", Recurrence::Monthly);
        check(
            &tokyo,
            "2026-01-31T09:00:00+09:00",
            &["2026-01-31T09:00:00+09:00", "2026-02-28T09:00:00+09:00", "2026-03-31T09:00:00+09:00", "2026-04-30T09:00:00+09:00"],
        );
        let london = schedule("Europe/London", "2026-01-31T01:30:00+00:00", Recurrence::Monthly);
        check(
            &london,
            "2026-01-31T01:30:00+00:00",
            &["2026-01-31T01:30:00+00:00", "2026-02-28T01:30:00+00:00", "2026-03-31T01:30:00+01:00", "2026-04-30T01:30:00+01:00"],
        );
    }

    #[test]
    fn monthly_on_dst_change_days() {
        let ny_gap = schedule("America/New_York", "2026-02-08T02:30:00-05:00", Recurrence::Monthly);
        check(
            &ny_gap,
            "2026-02-08T02:30:00-05:00",
            &["2026-02-08T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-04-08T02:30:00-04:00"],
        );
        let ny_fold = schedule("America/New_York", "2026-10-01T01:30:00-04:00", Recurrence::Monthly);
        check(
            &ny_fold,
            "2026-10-01T01:30:00-04:00",
            &["2026-10-01T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-12-01T01:30:00-05:00"],
        );
        let london_gap = schedule("Europe/London", "2026-02-28T01:30:00+00:00", Recurrence::Monthly);
        check(
            &london_gap,
            "2026-02-28T01:30:00+00:00",
            &["2026-02-28T01:30:00+00:00", "2026-03-28T01:30:00+00:00", "2026-04-28T01:30:00+01:00"],
        );
        let london_29 = schedule("Europe/London", "2026-01-29T01:30:00+00:00", Recurrence::Monthly);
        check(
            &london_29,
            "2026-01-29T01:30:00+00:00",
            &["2026-01-29T01:30:00+00:00", "2026-02-28T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-29T01:30:00+01:00"],
        );
        let london_fold = schedule("Europe/London", "2026-09-25T01:30:00+01:00", Recurrence::Monthly);
        check(
            &london_fold,
            "2026-09-25T01:30:00+01:00",
            &["2026-09-25T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-11-25T01:30:00+00:00"],
        );
        let sydney_gap = schedule("Australia/Sydney", "2026-09-04T02:30:00+10:00", Recurrence::Monthly);
        check(
            &sydney_gap,
            "2026-09-04T02:30:00+10:00",
            &["2026-09-04T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-11-04T02:30:00+11:00"],
        );
        let sydney_fold = schedule("Australia/Sydney", "2026-03-05T02:30:00+11:00", Recurrence::Monthly);
        check(
            &sydney_fold,
            "2026-03-05T02:30:00+11:00",
            &["2026-03-05T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-05-05T02:30:00+10:00"],
        );
    }

    // ------------------------------------- weekly/weekdays/custom vectors

    #[test]
    fn weekly_keeps_weekday_and_time_across_dst() {
        let ny = schedule("America/New_York", "2026-03-01T09:00:00-05:00", Recurrence::Weekly);
        check(&ny, "2026-03-01T09:00:00-05:00", &["2026-03-01T09:00:00-05:00", "2026-03-08T09:00:00-04:00", "2026-03-15T09:00:00-04:00"]);
        let ny_gap = schedule("America/New_York", "2026-03-01T02:30:00-05:00", Recurrence::Weekly);
        check(
            &ny_gap,
            "2026-03-01T02:30:00-05:00",
            &["2026-03-01T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-15T02:30:00-04:00"],
        );
        let ny_fold = schedule("America/New_York", "2026-10-25T01:30:00-04:00", Recurrence::Weekly);
        check(
            &ny_fold,
            "2026-10-25T01:30:00-04:00",
            &["2026-10-25T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-08T01:30:00-05:00"],
        );
        let london_gap = schedule("Europe/London", "2026-03-22T01:30:00+00:00", Recurrence::Weekly);
        check(
            &london_gap,
            "2026-03-22T01:30:00+00:00",
            &["2026-03-22T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-05T01:30:00+01:00"],
        );
        let london_fold = schedule("Europe/London", "2026-10-18T01:30:00+01:00", Recurrence::Weekly);
        check(
            &london_fold,
            "2026-10-18T01:30:00+01:00",
            &["2026-10-18T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-11-01T01:30:00+00:00"],
        );
        let sydney_gap = schedule("Australia/Sydney", "2026-09-27T02:30:00+10:00", Recurrence::Weekly);
        check(
            &sydney_gap,
            "2026-09-27T02:30:00+10:00",
            &["2026-09-27T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-11T02:30:00+11:00"],
        );
        let sydney_fold = schedule("Australia/Sydney", "2026-03-29T02:30:00+11:00", Recurrence::Weekly);
        check(
            &sydney_fold,
            "2026-03-29T02:30:00+11:00",
            &["2026-03-29T02:30:00+11:00", "2026-04-05T02:30:00+11:00", "2026-04-12T02:30:00+10:00"],
        );
        let tokyo = schedule("Asia/Tokyo", "2026-03-01T09:00:00+09:00", Recurrence::Weekly);
        check(&tokyo, "2026-03-02T00:00:00+09:00", &["2026-03-08T09:00:00+09:00", "2026-03-15T09:00:00+09:00"]);
    }

    #[test]
    fn weekdays_from_a_saturday_start_on_monday() {
        let ny = schedule("America/New_York", "2026-03-07T09:00:00-05:00", Recurrence::Weekdays);
        // send_at itself (a Saturday) is not an occurrence.
        assert_eq!(ny.next_at_or_after(at("2026-03-07T09:00:00-05:00")), Some(at("2026-03-09T09:00:00-04:00")));
        check(
            &ny,
            "2026-03-01T00:00:00-05:00",
            &[
                "2026-03-09T09:00:00-04:00",
                "2026-03-10T09:00:00-04:00",
                "2026-03-11T09:00:00-04:00",
                "2026-03-12T09:00:00-04:00",
                "2026-03-13T09:00:00-04:00",
                "2026-03-16T09:00:00-04:00",
            ],
        );
        let london = schedule("Europe/London", "2026-10-23T09:00:00+01:00", Recurrence::Weekdays);
        check(&london, "2026-10-23T09:00:00+01:00", &["2026-10-23T09:00:00+01:00", "2026-10-26T09:00:00+00:00"]);
        let sydney = schedule("Australia/Sydney", "2026-04-03T09:00:00+11:00", Recurrence::Weekdays);
        check(&sydney, "2026-04-03T09:00:00+11:00", &["2026-04-03T09:00:00+11:00", "2026-04-06T09:00:00+10:00"]);
        let tokyo = schedule("Asia/Tokyo", "2026-03-07T09:00:00+09:00", Recurrence::Weekdays);
        check(&tokyo, "2026-03-07T09:00:00+09:00", &["2026-03-09T09:00:00+09:00", "2026-03-10T09:00:00+09:00"]);
    }

    #[test]
    fn custom_days_fire_only_on_chosen_weekdays() {
        let ny = schedule("America/New_York", "2026-03-07T09:00:00-05:00", custom(&[Day::Mon, Day::Wed]));
        check(
            &ny,
            "2026-03-07T09:00:00-05:00",
            &["2026-03-09T09:00:00-04:00", "2026-03-11T09:00:00-04:00", "2026-03-16T09:00:00-04:00", "2026-03-18T09:00:00-04:00"],
        );
        let ny_gap = schedule("America/New_York", "2026-03-01T02:30:00-05:00", custom(&[Day::Sun]));
        check(
            &ny_gap,
            "2026-03-01T02:30:00-05:00",
            &["2026-03-01T02:30:00-05:00", "2026-03-08T03:30:00-04:00", "2026-03-15T02:30:00-04:00"],
        );
        // The order of days does not matter.
        let ny_fold = schedule("America/New_York", "2026-10-25T01:30:00-04:00", custom(&[Day::Mon, Day::Sun]));
        check(
            &ny_fold,
            "2026-10-25T01:30:00-04:00",
            &["2026-10-25T01:30:00-04:00", "2026-10-26T01:30:00-04:00", "2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"],
        );
        let london = schedule("Europe/London", "2026-03-22T01:30:00+00:00", custom(&[Day::Sun]));
        check(
            &london,
            "2026-03-22T01:30:00+00:00",
            &["2026-03-22T01:30:00+00:00", "2026-03-29T02:30:00+01:00", "2026-04-05T01:30:00+01:00"],
        );
        let london_fold = schedule("Europe/London", "2026-10-24T01:30:00+01:00", custom(&[Day::Sat, Day::Sun]));
        check(
            &london_fold,
            "2026-10-24T01:30:00+01:00",
            &["2026-10-24T01:30:00+01:00", "2026-10-25T01:30:00+01:00", "2026-10-31T01:30:00+00:00"],
        );
        let sydney = schedule("Australia/Sydney", "2026-09-27T02:30:00+10:00", custom(&[Day::Sun]));
        check(
            &sydney,
            "2026-09-27T02:30:00+10:00",
            &["2026-09-27T02:30:00+10:00", "2026-10-04T03:30:00+11:00", "2026-10-11T02:30:00+11:00"],
        );
        let sydney_fold = schedule("Australia/Sydney", "2026-04-04T02:30:00+11:00", custom(&[Day::Sun]));
        check(&sydney_fold, "2026-04-04T02:30:00+11:00", &["2026-04-05T02:30:00+11:00", "2026-04-12T02:30:00+10:00"]);
        let tokyo = schedule("Asia/Tokyo", "2026-03-07T09:00:00+09:00", custom(&[Day::Wed, Day::Mon]));
        check(
            &tokyo,
            "2026-03-07T09:00:00+09:00",
            &["2026-03-09T09:00:00+09:00", "2026-03-11T09:00:00+09:00", "2026-03-16T09:00:00+09:00"],
        );
    }

    // ----------------------------------------------------------- None kind

    #[test]
    fn one_time_reminder() {
        let s = schedule("Europe/London", "2026-03-29T01:30:00Z", Recurrence::None);
        let send_at = at("2026-03-29T01:30:00Z");
        assert_eq!(s.next_at_or_after(Timestamp::MIN), Some(send_at));
        assert_eq!(s.next_at_or_after(send_at), Some(send_at));
        assert_eq!(s.next_at_or_after(at("2026-03-29T01:30:01Z")), None);
        assert_eq!(s.next_after(send_at), None);
        assert_eq!(s.occurrences(Timestamp::MIN, 10), vec![send_at]);
        assert_eq!(s.occurrences(send_at, 0), vec![]);
    }

    // ------------------------------------------- efficiency and range edges

    #[test]
    fn far_from_send_at_jumps_instead_of_walking() {
        let kinds = [Recurrence::Daily, Recurrence::Weekly, Recurrence::Weekdays, custom(&[Day::Sun]), Recurrence::Monthly];
        for recurrence in kinds {
            let s = schedule("America/New_York", "2026-01-31T09:00:00-05:00", recurrence);
            let mut it = s.iter_from(at("9000-06-15T12:00:00Z"));
            let first = it.next().expect("an occurrence");
            assert!(first >= at("9000-06-15T12:00:00Z"));
            // The slack is a few days, or at most two months for monthly.
            assert!(it.examined <= 10, "{:?} examined {}", s.recurrence, it.examined);
        }
        let s = schedule("America/New_York", "2026-01-31T09:00:00-05:00", Recurrence::Monthly);
        check(&s, "2090-02-01T00:00:00-05:00", &["2090-02-28T09:00:00-05:00", "2090-03-31T09:00:00-04:00"]);
        let s = schedule("Europe/London", "2026-01-31T09:00:00Z", Recurrence::Weekly);
        // 2026-01-31 is a Saturday, so is 2100-01-02.
        check(&s, "2100-01-01T00:00:00Z", &["2100-01-02T09:00:00+00:00", "2100-01-09T09:00:00+00:00"]);
    }

    #[test]
    fn range_edges_end_the_sequence_without_panicking() {
        let all = [
            Recurrence::None,
            Recurrence::Hourly { interval_hours: 1 },
            Recurrence::Hourly { interval_hours: 24 },
            Recurrence::Daily,
            Recurrence::Weekly,
            Recurrence::Weekdays,
            custom(&[Day::Sun]),
            Recurrence::Monthly,
        ];
        for name in ["Pacific/Kiritimati", "America/New_York", "Pacific/Niue", "UTC"] {
            let tz = zone(name);
            for recurrence in &all {
                for send_at in [Timestamp::MIN, Timestamp::MAX] {
                    let s = Schedule::new(send_at, tz.clone(), recurrence.clone());
                    for from in [Timestamp::MIN, Timestamp::MAX] {
                        let occ = s.occurrences(from, 5);
                        assert!(occ.windows(2).all(|w| w[0] < w[1]));
                        assert!(occ.iter().all(|&o| o >= from));
                        let _ = s.next_after(from);
                    }
                    assert_eq!(s.next_after(Timestamp::MAX), None);
                }
            }
        }
        // The last hours of jiff's range: hourly stops at the edge.
        let near_end = floor_to_second(Timestamp::MAX) - SignedDuration::from_hours(2);
        let s = Schedule::new(near_end, zone("UTC"), Recurrence::Hourly { interval_hours: 1 });
        let occ = s.occurrences(near_end, 10);
        assert_eq!(occ.len(), 3);
        assert_eq!(occ[2], floor_to_second(Timestamp::MAX));
    }

    #[test]
    fn invalid_rules_compute_without_panicking() {
        let zero = schedule("UTC", "2026-01-01T00:00:00Z", Recurrence::Hourly { interval_hours: 0 });
        assert_eq!(zero.next_at_or_after(Timestamp::MIN), None);
        let empty = schedule("UTC", "2026-01-01T00:00:00Z", custom(&[]));
        assert_eq!(empty.occurrences(Timestamp::MIN, 3), vec![]);
        let dup = schedule("UTC", "2026-01-05T00:00:00Z", custom(&[Day::Mon, Day::Mon]));
        assert_eq!(dup.occurrences(Timestamp::MIN, 2), vec![at("2026-01-05T00:00:00Z"), at("2026-01-12T00:00:00Z")]);
        let long = schedule("UTC", "2026-01-01T00:00:00Z", Recurrence::Hourly { interval_hours: 255 });
        assert_eq!(long.next_after(at("2026-01-01T00:00:00Z")), Some(at("2026-01-11T15:00:00Z")));
    }

    // ------------------------------------------------- serde and validation

    #[test]
    fn serde_round_trips() {
        let cases = [
            (r#"{"kind":"none"}"#, Recurrence::None),
            (r#"{"kind":"hourly","interval_hours":3}"#, Recurrence::Hourly { interval_hours: 3 }),
            (r#"{"kind":"daily"}"#, Recurrence::Daily),
            (r#"{"kind":"weekly"}"#, Recurrence::Weekly),
            (r#"{"kind":"weekdays"}"#, Recurrence::Weekdays),
            (r#"{"kind":"custom","days":["mon","wed"]}"#, custom(&[Day::Mon, Day::Wed])),
            (r#"{"kind":"monthly"}"#, Recurrence::Monthly),
        ];
        for (json, value) in cases {
            let parsed: Recurrence = serde_json::from_str(json).unwrap();
            assert_eq!(parsed, value, "{json}");
            assert_eq!(serde_json::to_string(&value).unwrap(), json);
        }
        let all_days: Vec<Day> = serde_json::from_str(r#"["mon","tue","wed","thu","fri","sat","sun"]"#).unwrap();
        assert_eq!(all_days, Day::ALL);
        assert_eq!(serde_json::to_string(&Day::ALL).unwrap(), r#"["mon","tue","wed","thu","fri","sat","sun"]"#);
        for bad in [
            r#"{"kind":"yearly"}"#,
            r#"{"kind":"custom","days":["monday"]}"#,
            r#"{"kind":"hourly"}"#,
            r#"{"kind":"hourly","interval_hours":256}"#,
            r#"{"days":["mon"]}"#,
        ] {
            assert!(serde_json::from_str::<Recurrence>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn day_converts_to_and_from_weekday() {
        for day in Day::ALL {
            assert_eq!(Day::from(Weekday::from(day)), day);
        }
        assert_eq!(Weekday::from(Day::Mon), Weekday::Monday);
        assert_eq!(Weekday::from(Day::Sun), Weekday::Sunday);
        assert_eq!(Day::from(Weekday::Saturday), Day::Sat);
        assert_eq!(Day::Wed.to_string(), "Wednesday");
    }

    #[test]
    fn validate_accepts_good_rules_and_explains_bad_ones() {
        for ok in [
            Recurrence::None,
            Recurrence::Hourly { interval_hours: 1 },
            Recurrence::Hourly { interval_hours: 24 },
            Recurrence::Daily,
            Recurrence::Weekly,
            Recurrence::Weekdays,
            custom(&Day::ALL),
            custom(&[Day::Sun, Day::Mon]),
            Recurrence::Monthly,
        ] {
            assert_eq!(ok.validate(), Ok(()), "{ok:?}");
        }
        for hours in [0, 25, 255] {
            let err = Recurrence::Hourly { interval_hours: hours }.validate().unwrap_err();
            assert_eq!(err, RecurrenceError::InvalidHourlyInterval(hours));
        }
        assert_eq!(
            RecurrenceError::InvalidHourlyInterval(0).to_string(),
            "The hourly interval must be between 1 and 24 hours, but it is 0."
        );
        let err = custom(&[]).validate().unwrap_err();
        assert_eq!(err, RecurrenceError::NoCustomDays);
        assert_eq!(err.to_string(), "A custom recurrence needs at least one day.");
        let err = custom(&[Day::Mon, Day::Wed, Day::Mon]).validate().unwrap_err();
        assert_eq!(err, RecurrenceError::DuplicateCustomDay(Day::Mon));
        assert_eq!(err.to_string(), "Monday appears more than once in the custom recurrence.");
    }

    // ------------------------------------------------------------ proptests

    /// Real zones, chosen for unusual DST: 30-minute DST (Lord_Howe),
    /// transitions at midnight (Santiago, Havana, Sao_Paulo, Tehran), negative
    /// DST in the tzdb source (Dublin, Casablanca), a 45-minute offset
    /// (Kathmandu, Chatham), a half-hour offset (St_Johns), a skipped
    /// calendar day (Apia), and no DST at all (Tokyo).
    const ZONES: &[&str] = &[
        "America/New_York",
        "Europe/London",
        "Australia/Sydney",
        "Asia/Tokyo",
        "Australia/Lord_Howe",
        "America/Santiago",
        "Europe/Dublin",
        "Asia/Kathmandu",
        "Pacific/Chatham",
        "America/St_Johns",
        "Africa/Casablanca",
        "Pacific/Apia",
        "America/Havana",
        "America/Sao_Paulo",
        "Asia/Tehran",
        "Europe/Moscow",
    ];

    const DAY: i64 = 86_400;
    /// 1990-01-01T00:00:00Z and 2060-12-31T00:00:00Z.
    const START_1990: i64 = 631_152_000;
    const END_2060: i64 = 2_871_763_200;

    fn recurrence_strategy() -> impl Strategy<Value = Recurrence> {
        prop_oneof![
            Just(Recurrence::None),
            (1u8..=24).prop_map(|interval_hours| Recurrence::Hourly { interval_hours }),
            Just(Recurrence::Daily),
            Just(Recurrence::Weekly),
            Just(Recurrence::Weekdays),
            proptest::sample::subsequence(Day::ALL.to_vec(), 1..=7).prop_shuffle().prop_map(|days| Recurrence::Custom { days }),
            Just(Recurrence::Monthly),
        ]
    }

    /// Picks a `send_at` in 1990..2060. Half the time it is placed a few
    /// days (or about a week or a month) before one of the zone's
    /// transitions, near the transition's wall-clock time, so that calendar
    /// rules often land in gaps and folds.
    fn send_at_strategy() -> impl Strategy<Value = (TimeZone, Timestamp)> {
        (0..ZONES.len(), START_1990..END_2060, any::<bool>(), prop_oneof![0i64..=8, 13i64..=15, 27i64..=32], -100i64..=100).prop_map(
            |(zone_index, base, near, days_back, minutes)| {
                let tz = zone(ZONES[zone_index]);
                let base = Timestamp::from_second(base).unwrap();
                let transition = if near { tz.following(base).next().map(|t| t.timestamp()) } else { None };
                let send_at = match transition {
                    Some(t) => t - SignedDuration::from_secs(days_back * DAY - minutes * 60),
                    None => base,
                };
                (tz, send_at)
            },
        )
    }

    /// Does the civil date `date` match the rule of a calendar recurrence?
    fn rule_matches(recurrence: &Recurrence, anchor: Date, date: Date) -> bool {
        match recurrence {
            Recurrence::Daily => true,
            Recurrence::Weekly => (anchor.duration_until(date).as_hours() / 24) % 7 == 0,
            Recurrence::Weekdays => !matches!(date.weekday(), Weekday::Saturday | Weekday::Sunday),
            Recurrence::Custom { days } => days.contains(&Day::from(date.weekday())),
            Recurrence::Monthly => date.day() == anchor.day().min(date.days_in_month()),
            Recurrence::None | Recurrence::Hourly { .. } => unreachable!(),
        }
    }

    /// A deliberately naive reference: it walks every civil date from the
    /// anchor and applies the definition directly (no jumping, no slack).
    fn reference(s: &Schedule, from: Timestamp, count: usize) -> Vec<Timestamp> {
        let mut out: Vec<Timestamp> = Vec::new();
        let push = |t: Timestamp, out: &mut Vec<Timestamp>| {
            if t >= from && t >= s.send_at && out.last().is_none_or(|&last| t > last) {
                out.push(t);
            }
        };
        match &s.recurrence {
            Recurrence::None => push(s.send_at, &mut out),
            Recurrence::Hourly { interval_hours } => {
                let step = SignedDuration::from_hours(i64::from(*interval_hours));
                let mut t = s.send_at;
                while out.len() < count {
                    push(t, &mut out);
                    t += step;
                }
            }
            calendar => {
                let anchor = s.send_at.to_zoned(s.tz.clone()).datetime();
                let mut date = anchor.date();
                while out.len() < count {
                    if rule_matches(calendar, anchor.date(), date) {
                        let t = if date == anchor.date() {
                            s.send_at
                        } else {
                            s.tz.to_ambiguous_timestamp(date.to_datetime(anchor.time())).compatible().unwrap()
                        };
                        push(t, &mut out);
                    }
                    date = date.tomorrow().unwrap();
                }
            }
        }
        out
    }

    /// The invariants that every calendar occurrence must satisfy. `o` must
    /// be `send_at` (on a matching date), or else come from an "intended"
    /// civil date-time (a matching date after the anchor's, at the anchor's
    /// time of day). The intended date-time is the occurrence's own local
    /// time, or, if it fell in a gap, the local time less the gap's length.
    /// A fold always takes the earlier instant.
    fn check_calendar_occurrence(s: &Schedule, o: Timestamp) -> Result<(), TestCaseError> {
        let anchor = s.send_at.to_zoned(s.tz.clone()).datetime();
        let local = o.to_zoned(s.tz.clone()).datetime();
        if o == s.send_at {
            prop_assert!(rule_matches(&s.recurrence, anchor.date(), anchor.date()));
            return Ok(());
        }
        // A gap shift is at most 24 h, so the intended date is the local date
        // or the day before. Both can map to `o` (Apia's skipped day), so
        // take the one that matches the rule.
        let intended =
            [Some(local.date()), local.date().yesterday().ok()].into_iter().flatten().map(|d| d.to_datetime(anchor.time())).find(|&c| {
                c.date() > anchor.date()
                    && rule_matches(&s.recurrence, anchor.date(), c.date())
                    && s.tz.to_ambiguous_timestamp(c).compatible().ok() == Some(o)
            });
        let Some(intended) = intended else {
            return Err(TestCaseError::fail(format!(
                "{local} is not the anchor time {} on a matching date, shifted by a gap or not",
                anchor.time()
            )));
        };
        let ambiguity = s.tz.to_ambiguous_timestamp(intended);
        match ambiguity.offset() {
            AmbiguousOffset::Unambiguous { .. } => prop_assert_eq!(local, intended),
            AmbiguousOffset::Fold { .. } => {
                prop_assert_eq!(local, intended);
                prop_assert_eq!(Some(o), ambiguity.earlier().ok());
            }
            AmbiguousOffset::Gap { before, after } => {
                let gap = before.duration_until(after);
                let shift = intended.duration_until(local);
                prop_assert!(shift > SignedDuration::ZERO);
                prop_assert_eq!(shift, gap);
            }
        }
        // The spelled-out form of the rule checks, when not gap-shifted.
        if local == intended {
            prop_assert_eq!(local.time(), anchor.time());
            match &s.recurrence {
                Recurrence::Weekdays => prop_assert!(!matches!(local.weekday(), Weekday::Saturday | Weekday::Sunday)),
                Recurrence::Custom { days } => {
                    prop_assert!(days.contains(&Day::from(local.weekday())))
                }
                Recurrence::Monthly => {
                    prop_assert_eq!(local.day(), anchor.day().min(local.date().days_in_month()))
                }
                Recurrence::Weekly => prop_assert_eq!(local.weekday(), anchor.weekday()),
                _ => {}
            }
        }
        Ok(())
    }

    fn check_invariants(s: &Schedule, from: Timestamp, occ: &[Timestamp]) -> Result<(), TestCaseError> {
        for pair in occ.windows(2) {
            prop_assert!(pair[0] < pair[1], "not increasing: {pair:?}");
        }
        prop_assert_eq!(s.next_at_or_after(from), occ.first().copied());
        for (i, &o) in occ.iter().enumerate() {
            prop_assert!(o >= s.send_at && o >= from);
            prop_assert_eq!(o.subsec_nanosecond(), 0);
            prop_assert_eq!(s.next_at_or_after(o), Some(o));
            if let Some(&following) = occ.get(i + 1) {
                prop_assert_eq!(s.next_after(o), Some(following));
            }
        }
        match &s.recurrence {
            Recurrence::None => {
                let expected: Vec<Timestamp> = Some(s.send_at).filter(|&t| t >= from).into_iter().collect();
                prop_assert_eq!(occ, &expected[..]);
                prop_assert_eq!(s.occurrences(Timestamp::MIN, 10), vec![s.send_at]);
            }
            Recurrence::Hourly { interval_hours } => {
                let step = SignedDuration::from_hours(i64::from(*interval_hours));
                for pair in occ.windows(2) {
                    prop_assert_eq!(pair[0].duration_until(pair[1]), step);
                }
                if let Some(&first) = occ.first() {
                    let since = s.send_at.duration_until(first).as_secs();
                    prop_assert_eq!(since % step.as_secs(), 0);
                    if from > s.send_at {
                        prop_assert!(from.duration_until(first) < step);
                    }
                }
            }
            _ => {
                for &o in occ {
                    check_calendar_occurrence(s, o)?;
                }
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Within a few years of send_at, the jumping iterator agrees with the naive reference.
        #[test]
        fn prop_matches_naive_reference(
            (tz, send_at) in send_at_strategy(),
            recurrence in recurrence_strategy(),
            from_offset in prop_oneof![-10 * DAY..=0, 0..=40 * DAY, 0..=3 * 366 * DAY],
        ) {
            let s = Schedule::new(send_at, tz, recurrence);
            let from = send_at + SignedDuration::from_secs(from_offset);
            let got = s.occurrences(from, 25);
            prop_assert_eq!(&got, &reference(&s, from, 25));
            check_invariants(&s, from, &got)?;
        }

        /// Up to 70 years later: the invariants hold wherever we start.
        #[test]
        fn prop_invariants_far_from_send_at(
            (tz, send_at) in send_at_strategy(),
            recurrence in recurrence_strategy(),
            from_offset in prop_oneof![-10 * DAY..=0, 0..=70 * 366 * DAY],
        ) {
            let s = Schedule::new(send_at, tz, recurrence);
            let from = send_at + SignedDuration::from_secs(from_offset);
            let got = s.occurrences(from, 20);
            match s.recurrence {
                Recurrence::None => {}
                _ => prop_assert_eq!(got.len(), 20),
            }
            check_invariants(&s, from, &got)?;
        }

        /// Any representable input, including invalid rules: no panic, and the output is sane.
        #[test]
        fn prop_never_panics(
            zone_index in 0..ZONES.len(),
            send_at in Timestamp::MIN.as_second()..=Timestamp::MAX.as_second(),
            from in Timestamp::MIN.as_second()..=Timestamp::MAX.as_second(),
            near_end in any::<bool>(),
            recurrence in prop_oneof![
                recurrence_strategy(),
                any::<u8>().prop_map(|interval_hours| Recurrence::Hourly { interval_hours }),
                proptest::collection::vec(proptest::sample::select(Day::ALL.to_vec()), 0..10)
                    .prop_map(|days| Recurrence::Custom { days }),
            ],
        ) {
            let tz = zone(ZONES[zone_index]);
            let send_at = Timestamp::from_second(send_at).unwrap();
            // Put `from` right by send_at, or at the top of the range, now and then.
            let from = if near_end {
                Timestamp::MAX - SignedDuration::from_secs(from.rem_euclid(40 * DAY))
            } else {
                Timestamp::from_second(from).unwrap()
            };
            let s = Schedule::new(send_at, tz, recurrence);
            let occ = s.occurrences(from, 5);
            for pair in occ.windows(2) {
                prop_assert!(pair[0] < pair[1]);
            }
            for &o in &occ {
                prop_assert!(o >= from && o >= send_at);
            }
            prop_assert_eq!(s.next_at_or_after(from), occ.first().copied());
            if let Some(&first) = occ.first() {
                prop_assert_eq!(s.next_after(first), occ.get(1).copied());
            }
        }
    }
}
