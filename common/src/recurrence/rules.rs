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

/// How a reminder repeats. The module docs describe what each kind means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
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
