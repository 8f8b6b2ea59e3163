//! When a recurrence fires: the occurrences of a [`Schedule`], computed in its time zone.

use std::iter::FusedIterator;

use jiff::civil::{Date, DateTime, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Span, Timestamp};

use super::rules::{DaySet, HolidayRule, Pattern, Recurrence};
use crate::domain::holidays;

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
    /// `send_at` (except that a `count` is found by walking that many dates).
    pub fn iter_from(&self, from: Timestamp) -> Occurrences {
        let send_at = floor_to_second(self.send_at);
        let shape = &self.recurrence.shape;
        // A date moved to the next business day may come from before `from`: look that far back.
        let scan_from = if shape.holidays == HolidayRule::NextBusinessDay && !self.is_hourly() {
            from.checked_sub(SignedDuration::from_hours(24 * MAX_MOVE_DAYS)).unwrap_or(Timestamp::MIN)
        } else {
            from
        };
        let end = shape.count.and_then(|count| {
            let mut rule = Occurrences::unshaped(self.source(send_at, send_at), send_at);
            rule.nth(usize::from(count).saturating_sub(1))
        });
        let mut skip = shape.skip.clone();
        skip.sort_unstable();
        Occurrences {
            source: self.source(send_at, scan_from),
            send_at,
            floor: from.max(send_at),
            last: None,
            shape: Shaping {
                tz: self.tz.clone(),
                until: shape.until,
                end,
                skip,
                holidays: if self.is_hourly() && shape.holidays != HolidayRule::Ignore { HolidayRule::Skip } else { shape.holidays },
            },
            #[cfg(test)]
            examined: 0,
        }
    }

    fn is_hourly(&self) -> bool {
        matches!(self.recurrence.pattern, Pattern::Hourly { .. })
    }

    /// The pattern's candidate instants from about `from` on (unshaped).
    fn source(&self, send_at: Timestamp, from: Timestamp) -> Source {
        let civil = |rule| Source::civil(send_at, &self.tz, from, rule);
        match &self.recurrence.pattern {
            Pattern::None => Source::Once(send_at),
            Pattern::Hourly { interval_hours } => Source::hourly(send_at, *interval_hours, from),
            Pattern::Daily { interval } => civil(Rule::EveryDays(i32::from(*interval))),
            Pattern::Weekly { interval } => civil(Rule::EveryDays(7 * i32::from(*interval))),
            Pattern::Weekdays => civil(Rule::OnDays { days: DaySet::WEEKDAYS, every_weeks: 1 }),
            Pattern::Custom { days, interval } => civil(Rule::OnDays { days: DaySet::from_days(days), every_weeks: i32::from(*interval) }),
            Pattern::Monthly { interval, day, week, weekday } => {
                let on = match (day, week, weekday) {
                    (Some(day), _, _) => MonthDay::Day(*day),
                    (None, Some(week), Some(weekday)) => MonthDay::Nth { week: *week, weekday: Weekday::from(*weekday) },
                    _ => MonthDay::Anchor,
                };
                civil(Rule::Monthly { every: i32::from(*interval), on })
            }
            Pattern::Yearly { interval } => civil(Rule::Monthly { every: 12 * i32::from(*interval), on: MonthDay::Anchor }),
        }
    }
}

/// The longest run of days without a business day that a move looks past (Golden Week with
/// its weekends is at most 10 days).
const MAX_MOVE_DAYS: i64 = 16;

/// What shapes the pattern's candidates (see [`super::Shape`]).
#[derive(Debug, Clone)]
struct Shaping {
    tz: TimeZone,
    until: Option<Date>,
    /// The instant of the `count`th date: none after it.
    end: Option<Timestamp>,
    /// Sorted.
    skip: Vec<Date>,
    holidays: HolidayRule,
}

impl Shaping {
    fn is_plain(&self) -> bool {
        self.until.is_none() && self.end.is_none() && self.skip.is_empty() && self.holidays == HolidayRule::Ignore
    }

    /// The candidate as shaped: `Err(())` when the sequence has ended, `Ok(None)` when this
    /// one is dropped.
    fn apply(&self, candidate: Candidate) -> Result<Option<Timestamp>, ()> {
        if self.end.is_some_and(|end| candidate.at > end) {
            return Err(());
        }
        if self.is_plain() {
            return Ok(Some(candidate.at));
        }
        let date = candidate.date.unwrap_or_else(|| candidate.at.to_zoned(self.tz.clone()).date());
        if self.until.is_some_and(|until| date > until) {
            return Err(());
        }
        if self.skip.binary_search(&date).is_ok() {
            return Ok(None);
        }
        let table = holidays::table();
        let moved = match self.holidays {
            HolidayRule::Ignore => return Ok(Some(candidate.at)),
            HolidayRule::Skip if table.is_holiday(date) => return Ok(None),
            HolidayRule::Skip => return Ok(Some(candidate.at)),
            HolidayRule::NextBusinessDay => business_day(date, 1),
            HolidayRule::PreviousBusinessDay => business_day(date, -1),
        };
        let Some(moved) = moved else { return Ok(None) };
        if moved == date {
            return Ok(Some(candidate.at));
        }
        if self.skip.binary_search(&moved).is_ok() {
            return Ok(None);
        }
        // The reminder's own wall time on the new date (not a gap-shifted one).
        let time = candidate.time.unwrap_or_else(|| candidate.at.to_zoned(self.tz.clone()).time());
        Ok(self.tz.to_ambiguous_timestamp(moved.to_datetime(time)).compatible().ok())
    }
}

/// The first business day from `date` on, stepping `step` days (1 forward, -1 back).
fn business_day(date: Date, step: i64) -> Option<Date> {
    let table = holidays::table();
    let mut day = date;
    for _ in 0..=MAX_MOVE_DAYS {
        if table.is_business_day(day) {
            return Some(day);
        }
        day = day.checked_add(Span::new().days(step)).ok()?;
    }
    None
}

/// The iterator that [`Schedule::iter_from`] returns.
#[derive(Debug, Clone)]
pub struct Occurrences {
    source: Source,
    /// The pattern's instants before `send_at` are not occurrences (nor moved into one).
    send_at: Timestamp,
    /// Candidates before this instant are skipped. It is `max(from, send_at)`.
    floor: Timestamp,
    /// The last instant yielded. Candidates at or before it are dropped, so the
    /// output is strictly increasing even if two civil dates give the same
    /// instant (e.g. Pacific/Apia skipped 2011-12-30 entirely, or a holiday moved
    /// an occurrence onto the next one's).
    last: Option<Timestamp>,
    shape: Shaping,
    /// Number of candidates produced, so that tests can check we jump rather than walk.
    #[cfg(test)]
    pub(super) examined: u32,
}

impl Occurrences {
    fn unshaped(source: Source, floor: Timestamp) -> Occurrences {
        Occurrences {
            source,
            send_at: floor,
            floor,
            last: None,
            shape: Shaping { tz: TimeZone::UTC, until: None, end: None, skip: Vec::new(), holidays: HolidayRule::Ignore },
            #[cfg(test)]
            examined: 0,
        }
    }
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
            if candidate.at < self.send_at {
                continue;
            }
            let Ok(shaped) = self.shape.apply(candidate) else {
                self.source = Source::Done;
                return None;
            };
            let Some(at) = shaped else { continue };
            if at < self.floor || self.last.is_some_and(|last| at <= last) {
                continue;
            }
            self.last = Some(at);
            return Some(at);
        }
    }
}

impl FusedIterator for Occurrences {}

/// A candidate instant, and the pattern's date and wall time it is for (None: the instant's
/// local ones).
#[derive(Debug, Clone, Copy)]
struct Candidate {
    at: Timestamp,
    date: Option<Date>,
    time: Option<Time>,
}

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
    /// Every date on or after the anchor's date whose weekday is in the set, in every
    /// `every_weeks`th week (Monday to Sunday) from the anchor's.
    OnDays { days: DaySet, every_weeks: i32 },
    /// Every `every`th month from the anchor's, on `on`.
    Monthly { every: i32, on: MonthDay },
}

/// The day of a month a monthly rule picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MonthDay {
    /// The anchor's day, clamped to the month's length.
    Anchor,
    /// This day (clamped), or the last day for -1.
    Day(i8),
    /// The `week`th (1..=5, -1 the last) `weekday`; a month without a fifth has none.
    Nth { week: i8, weekday: Weekday },
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
            Rule::EveryDays(n) if n <= 0 => return Source::Done,
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
            Rule::OnDays { days, .. } if days == DaySet::EMPTY => return Source::Done,
            Rule::OnDays { every_weeks, .. } if every_weeks <= 0 => return Source::Done,
            Rule::OnDays { days, every_weeks } => {
                DateStepper::OnDays { next: Some(start), days, every_weeks, anchor_monday: monday_of(anchor.date()) }
            }
            Rule::Monthly { every, .. } if every <= 0 => return Source::Done,
            Rule::Monthly { every, on } => {
                // The first month at or after `start`'s that is a whole number of steps from the anchor's.
                let anchor_month = month_index(anchor.date());
                let behind = month_index(start) - anchor_month;
                let first = anchor_month + behind.div_euclid(every) * every + if behind.rem_euclid(every) == 0 { 0 } else { every };
                let on = match on {
                    MonthDay::Anchor => MonthDay::Day(anchor.day()),
                    other => other,
                };
                DateStepper::Monthly { next_month: Some(first), every, on }
            }
        };
        Source::Civil(Civil { tz: tz.clone(), send_at, anchor, dates })
    }

    fn next_candidate(&mut self) -> Option<Candidate> {
        let (candidate, more) = match self {
            Source::Done => (None, false),
            Source::Once(t) => (Some(Candidate { at: *t, date: None, time: None }), false),
            Source::Hourly { next, step } => {
                let current = *next;
                match current.checked_add(*step) {
                    Ok(following) => {
                        *next = following;
                        (Some(Candidate { at: current, date: None, time: None }), true)
                    }
                    // The next step is out of range. Yield this one, then stop.
                    Err(_) => (Some(Candidate { at: current, date: None, time: None }), false),
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
    fn next_candidate(&mut self) -> Option<Candidate> {
        let date = self.dates.next_date()?;
        if date == self.anchor.date() {
            // The anchor's own date is `send_at` itself. Recomputing it could
            // pick the other instant when `send_at` is in a fold.
            return Some(Candidate { at: self.send_at, date: Some(date), time: Some(self.anchor.time()) });
        }
        let local = date.to_datetime(self.anchor.time());
        // Compatible: a gap moves forward by its length, a fold takes the earlier instant.
        // An error here means we ran off the end of jiff's range.
        let at = self.tz.to_ambiguous_timestamp(local).compatible().ok()?;
        Some(Candidate { at, date: Some(date), time: Some(self.anchor.time()) })
    }
}

/// Steps through the matching civil dates in increasing order.
/// `None` in a cursor means jiff's date range has ended.
#[derive(Debug, Clone)]
enum DateStepper {
    Every { next: Option<Date>, days: i32 },
    OnDays { next: Option<Date>, days: DaySet, every_weeks: i32, anchor_monday: Date },
    Monthly { next_month: Option<i32>, every: i32, on: MonthDay },
}

impl DateStepper {
    fn next_date(&mut self) -> Option<Date> {
        match self {
            DateStepper::Every { next, days } => {
                let date = (*next)?;
                *next = date.checked_add(Span::new().days(i64::from(*days))).ok();
                Some(date)
            }
            // The set is never empty here, so this loop looks at most at 7 dates of a
            // matching week (and jumps over the weeks between).
            DateStepper::OnDays { next, days, every_weeks, anchor_monday } => loop {
                let date = (*next)?;
                let monday = monday_of(date);
                let weeks = anchor_monday.duration_until(monday).as_hours() / (24 * 7);
                let off = weeks.rem_euclid(i64::from(*every_weeks));
                if off != 0 {
                    *next = monday.checked_add(Span::new().try_days((i64::from(*every_weeks) - off) * 7).ok()?).ok();
                    continue;
                }
                *next = date.tomorrow().ok();
                if days.matches(date) {
                    return Some(date);
                }
            },
            // A month without the `week`th weekday is passed over; every month has a first to
            // fourth and a last of each weekday, so this loop ends.
            DateStepper::Monthly { next_month, every, on } => loop {
                let index = (*next_month)?;
                *next_month = index.checked_add(*every);
                // Past jiff's last year this is None, which ends the sequence.
                let first = month_date(index, 1)?;
                if let Some(date) = day_in_month(first, *on) {
                    return Some(date);
                }
            },
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

/// The date `on` picks in the month that starts on `first`.
fn day_in_month(first: Date, on: MonthDay) -> Option<Date> {
    let last = first.last_of_month();
    match on {
        MonthDay::Anchor => None,
        MonthDay::Day(-1) => Some(last),
        MonthDay::Day(day) => first.with().day(day.clamp(1, last.day())).build().ok(),
        MonthDay::Nth { week: -1, weekday } => last.nth_weekday_of_month(-1, weekday).ok(),
        MonthDay::Nth { week, weekday } => first.nth_weekday_of_month(week, weekday).ok(),
    }
}

/// The Monday on or before `date` (weeks start on Monday, as RFC 5545's default WKST).
fn monday_of(date: Date) -> Date {
    let back = i64::from(date.weekday().to_monday_zero_offset());
    date.checked_sub(Span::new().days(back)).unwrap_or(date)
}

/// Rounds toward the past to a whole second (jiff's `as_second` rounds toward zero).
pub(super) fn floor_to_second(ts: Timestamp) -> Timestamp {
    let whole = ts.as_second() - i64::from(ts.subsec_nanosecond() < 0);
    Timestamp::from_second(whole).unwrap_or(ts)
}
