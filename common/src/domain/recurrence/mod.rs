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

mod rules;
mod schedule;
#[cfg(test)]
mod tests;

pub use rules::{Day, HolidayRule, MAX_SKIPS, Pattern, Recurrence, RecurrenceError, Shape};
pub use schedule::{Occurrences, Schedule};
