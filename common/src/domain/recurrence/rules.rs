//! What a recurrence is: the kinds, the weekdays, and the rules a valid one keeps.

use std::fmt;

use jiff::civil::{Date, Weekday};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A day of the week. In serde it is a lowercase three-letter name (`"mon"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
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

/// How a reminder repeats: the pattern of its dates (the kind and the kind's own fields) and
/// what shapes any repeating kind (an end, skipped dates, Japanese holidays). On the wire it
/// is one flat object: `{"kind": "monthly", "week": 2, "weekday": "tue", "until": "2027-03-31"}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
pub struct Recurrence {
    #[serde(flatten)]
    pub pattern: Pattern,
    #[serde(flatten)]
    pub shape: Shape,
}

/// The dates (and times) a reminder repeats on. The module docs describe each kind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Pattern {
    /// Fires once, at `send_at`.
    #[default]
    None,
    /// Every `interval_hours` hours of elapsed time (1..=24), whatever the wall clock does.
    Hourly { interval_hours: u8 },
    /// Every `interval` days at the anchor's local time.
    Daily {
        #[serde(default = "one", skip_serializing_if = "is_one")]
        #[schema(minimum = 1, maximum = 365)]
        interval: u16,
    },
    /// Every `interval` weeks, on the anchor's weekday.
    Weekly {
        #[serde(default = "one", skip_serializing_if = "is_one")]
        #[schema(minimum = 1, maximum = 52)]
        interval: u16,
    },
    /// Monday to Friday.
    Weekdays,
    /// The chosen weekdays, every `interval` weeks (weeks start on Monday).
    Custom {
        days: Vec<Day>,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        #[schema(minimum = 1, maximum = 52)]
        interval: u16,
    },
    /// Every `interval` months: on `day` (1..31, the month's last day when it is shorter; -1
    /// the last day), or on the `week`th (1..5, -1 the last) `weekday`; without either, on
    /// the anchor's day.
    Monthly {
        #[serde(default = "one", skip_serializing_if = "is_one")]
        #[schema(minimum = 1, maximum = 12)]
        interval: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        day: Option<i8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        week: Option<i8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weekday: Option<Day>,
    },
    /// Every `interval` years on the anchor's date (29 February: the 28th in other years).
    Yearly {
        #[serde(default = "one", skip_serializing_if = "is_one")]
        #[schema(minimum = 1, maximum = 10)]
        interval: u16,
    },
}

fn one() -> u16 {
    1
}

fn is_one(n: &u16) -> bool {
    *n == 1
}

/// What shapes a repeating kind's dates: an end (`until` or `count`), dates to skip, and how
/// Japanese public holidays move or drop an occurrence. `count` and `until` count the
/// pattern's dates before skips and holiday moves (as RFC 5545 does).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
pub struct Shape {
    /// The last local date an occurrence may fall on (inclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = Date)]
    pub until: Option<Date>,
    /// How many occurrences there are (1..1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 1000)]
    pub count: Option<u16>,
    /// Local dates without an occurrence (at most 100).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<String>)]
    pub skip: Vec<Date>,
    #[serde(default, skip_serializing_if = "HolidayRule::is_ignore")]
    pub holidays: HolidayRule,
}

/// What a Japanese public holiday does to an occurrence on it. The business-day moves also
/// move Saturdays and Sundays (a business day is Monday to Friday and not a holiday).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HolidayRule {
    #[default]
    Ignore,
    /// No occurrence on a holiday.
    Skip,
    NextBusinessDay,
    PreviousBusinessDay,
}

impl HolidayRule {
    fn is_ignore(&self) -> bool {
        *self == HolidayRule::Ignore
    }
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
    #[error("The interval must be between 1 and {max}, but it is {given}.")]
    InvalidInterval { given: u16, max: u16 },
    #[error("A monthly day must be between 1 and 31, or -1 for the last day.")]
    InvalidMonthDay,
    #[error("A monthly week must be between 1 and 5, or -1 for the last, and comes with a weekday.")]
    InvalidMonthWeek,
    #[error("A monthly recurrence takes a day or a week with a weekday, not both.")]
    DayAndWeek,
    #[error("Give until or count, not both.")]
    UntilAndCount,
    #[error("count must be between 1 and 1000.")]
    InvalidCount,
    #[error("At most 100 dates can be skipped.")]
    TooManySkips,
    #[error("A one-time reminder takes no until, count, skip or holidays.")]
    ShapeOnOneTime,
}

impl RecurrenceError {
    /// As a field problem of `recurrence`: its code and numbers.
    pub fn problem(&self) -> crate::error::FieldProblem {
        use crate::error::FieldCode as C;
        let message = self.to_string();
        match self {
            RecurrenceError::InvalidHourlyInterval(_) => C::OutOfRange.because(message).with("min", 1).with("max", 24),
            RecurrenceError::NoCustomDays => C::Required.because(message),
            RecurrenceError::DuplicateCustomDay(_) => C::InvalidChoice.because(message),
            RecurrenceError::InvalidInterval { max, .. } => C::OutOfRange.because(message).with("min", 1).with("max", *max),
            RecurrenceError::InvalidMonthDay => C::OutOfRange.because(message).with("min", 1).with("max", 31),
            RecurrenceError::InvalidMonthWeek => C::OutOfRange.because(message).with("min", 1).with("max", 5),
            RecurrenceError::DayAndWeek | RecurrenceError::UntilAndCount => C::Conflict.because(message),
            RecurrenceError::InvalidCount => C::OutOfRange.because(message).with("min", 1).with("max", 1000),
            RecurrenceError::TooManySkips => C::TooMany.because(message).with("max", MAX_SKIPS as i64),
            RecurrenceError::ShapeOnOneTime => C::NotApplicable.because(message),
        }
    }
}

/// The most dates `skip` may hold.
pub const MAX_SKIPS: usize = 100;

impl Recurrence {
    /// The smallest valid hourly interval.
    pub const MIN_INTERVAL_HOURS: u8 = 1;
    /// The largest valid hourly interval.
    pub const MAX_INTERVAL_HOURS: u8 = 24;

    /// A one-time reminder.
    pub fn once() -> Recurrence {
        Recurrence::default()
    }

    /// A pattern with nothing shaping it.
    pub fn of(pattern: Pattern) -> Recurrence {
        Recurrence { pattern, shape: Shape::default() }
    }

    /// Daily, weekly... with an interval of 1 and nothing shaping it.
    pub fn daily() -> Recurrence {
        Recurrence::of(Pattern::Daily { interval: 1 })
    }

    pub fn weekly() -> Recurrence {
        Recurrence::of(Pattern::Weekly { interval: 1 })
    }

    pub fn weekdays() -> Recurrence {
        Recurrence::of(Pattern::Weekdays)
    }

    pub fn monthly() -> Recurrence {
        Recurrence::of(Pattern::Monthly { interval: 1, day: None, week: None, weekday: None })
    }

    pub fn custom(days: &[Day]) -> Recurrence {
        Recurrence::of(Pattern::Custom { days: days.to_vec(), interval: 1 })
    }

    pub fn is_one_time(&self) -> bool {
        self.pattern == Pattern::None
    }

    /// Checks the rule's parameters: the intervals, custom days that are non-empty with no
    /// day listed twice, a monthly day or week, and the shape (an end, at most 100 skips;
    /// none of it on a one-time reminder).
    pub fn validate(&self) -> Result<(), RecurrenceError> {
        let interval = |given: u16, max: u16| {
            if (1..=max).contains(&given) { Ok(()) } else { Err(RecurrenceError::InvalidInterval { given, max }) }
        };
        match &self.pattern {
            Pattern::None => {
                if self.shape != Shape::default() {
                    return Err(RecurrenceError::ShapeOnOneTime);
                }
            }
            Pattern::Hourly { interval_hours } => {
                if !(Self::MIN_INTERVAL_HOURS..=Self::MAX_INTERVAL_HOURS).contains(interval_hours) {
                    return Err(RecurrenceError::InvalidHourlyInterval(*interval_hours));
                }
            }
            Pattern::Daily { interval: n } => interval(*n, 365)?,
            Pattern::Weekly { interval: n } => interval(*n, 52)?,
            Pattern::Weekdays => {}
            Pattern::Custom { days, interval: n } => {
                interval(*n, 52)?;
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
            }
            Pattern::Monthly { interval: n, day, week, weekday } => {
                interval(*n, 12)?;
                match (day, week, weekday) {
                    (Some(_), Some(_), _) | (Some(_), _, Some(_)) => return Err(RecurrenceError::DayAndWeek),
                    (Some(d), None, None) if !(*d == -1 || (1..=31).contains(d)) => return Err(RecurrenceError::InvalidMonthDay),
                    (None, Some(w), Some(_)) if !(*w == -1 || (1..=5).contains(w)) => return Err(RecurrenceError::InvalidMonthWeek),
                    (None, Some(_), None) | (None, None, Some(_)) => return Err(RecurrenceError::InvalidMonthWeek),
                    _ => {}
                }
            }
            Pattern::Yearly { interval: n } => interval(*n, 10)?,
        }
        if self.shape.until.is_some() && self.shape.count.is_some() {
            return Err(RecurrenceError::UntilAndCount);
        }
        if self.shape.count.is_some_and(|c| !(1..=1000).contains(&c)) {
            return Err(RecurrenceError::InvalidCount);
        }
        if self.shape.skip.len() > MAX_SKIPS {
            return Err(RecurrenceError::TooManySkips);
        }
        Ok(())
    }
}

/// A set of weekdays as a 7-bit mask. Matching a date is then one AND.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DaySet(u8);

impl DaySet {
    pub(super) const EMPTY: DaySet = DaySet(0);
    pub(super) const WEEKDAYS: DaySet = DaySet(0b001_1111);

    pub(super) fn from_days(days: &[Day]) -> DaySet {
        days.iter().fold(DaySet::EMPTY, |set, &day| set.with(day))
    }

    pub(super) fn with(self, day: Day) -> DaySet {
        DaySet(self.0 | day.bit())
    }

    pub(super) fn contains(self, day: Day) -> bool {
        self.0 & day.bit() != 0
    }

    pub(super) fn matches(self, date: Date) -> bool {
        self.contains(Day::from(date.weekday()))
    }
}
