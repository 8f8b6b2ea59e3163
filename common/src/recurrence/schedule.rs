//! When a recurrence fires: the occurrences of a [`Schedule`], computed in its time zone.

use std::iter::FusedIterator;

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Span, Timestamp};

use super::rules::{DaySet, Recurrence};

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
    pub(super) examined: u32,
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
pub(super) fn floor_to_second(ts: Timestamp) -> Timestamp {
    let whole = ts.as_second() - i64::from(ts.subsec_nanosecond() < 0);
    Timestamp::from_second(whole).unwrap_or(ts)
}
