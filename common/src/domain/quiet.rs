//! Quiet hours and the daily brief (decisions.md "Reach and rhythm"): local times of day in
//! a person's zone, and the instants they fall on.

use jiff::Timestamp;
use jiff::civil::{Date, Time};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::settings::is_day_time;
use crate::domain::zone::Zone;
use crate::error::{FieldCode, FieldErrors};

/// The hours a person's rings are held: from `start` to `end`, local `HH:MM`, across midnight
/// when `end` is earlier than `start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct QuietHours {
    pub start: String,
    pub end: String,
}

/// Where and when the morning summary goes: `time` local `HH:MM`; `via` `push`, `email` or a
/// channel's id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DailyBrief {
    pub time: String,
    pub via: String,
}

/// A local `HH:MM` (checked) as a time of day.
fn day_time(value: &str) -> Time {
    let (h, m) = value.split_once(':').unwrap_or(("0", "0"));
    Time::new(h.parse().unwrap_or(0), m.parse().unwrap_or(0), 0, 0).unwrap_or(Time::midnight())
}

/// The instant `time` falls on on local `date` in `zone` (a time a DST gap skips is moved
/// forward by the gap, as everywhere in Hibiki).
fn on(date: Date, time: Time, zone: &Zone) -> Timestamp {
    date.to_datetime(time).to_zoned(zone.tz().clone()).map(|z| z.timestamp()).unwrap_or(Timestamp::MAX)
}

impl QuietHours {
    /// Checks both times: `HH:MM`, and not the same (that would be no hours or all of them).
    pub fn check(&self, errors: &mut FieldErrors) {
        for (part, value) in [("start", &self.start), ("end", &self.end)] {
            if !is_day_time(value) {
                errors.add(&format!("quiet_hours.{part}"), FieldCode::InvalidFormat.because("a time HH:MM (00:00 to 23:59)"));
            }
        }
        if self.start == self.end {
            errors.add("quiet_hours.end", FieldCode::Conflict.because("quiet hours must end at another time than they start"));
        }
    }

    /// When the quiet hours holding `at` end, or None when `at` is outside them.
    pub fn holds_until(&self, zone: &Zone, at: Timestamp) -> Option<Timestamp> {
        let (start, end) = (day_time(&self.start), day_time(&self.end));
        let local = at.to_zoned(zone.tz().clone());
        let (date, now) = (local.date(), local.time());
        let end_on = |d: Date| Some(on(d, end, zone)).filter(|e| *e > at);
        if start < end {
            (start <= now && now < end).then(|| end_on(date)).flatten()
        } else if now >= start {
            end_on(date.tomorrow().ok()?)
        } else if now < end {
            end_on(date)
        } else {
            None
        }
    }
}

impl DailyBrief {
    pub fn check(&self, channels: &[String], errors: &mut FieldErrors) {
        if !is_day_time(&self.time) {
            errors.add("daily_brief.time", FieldCode::InvalidFormat.because("a time HH:MM (00:00 to 23:59)"));
        }
        if !matches!(self.via.as_str(), "push" | "email") && !channels.contains(&self.via) {
            errors.add("daily_brief.via", FieldCode::InvalidChoice.because("push, email or one of your channels"));
        }
    }

    /// The first instant after `after` at which the brief is due.
    pub fn next_after(&self, zone: &Zone, after: Timestamp) -> Timestamp {
        let time = day_time(&self.time);
        let today = after.to_zoned(zone.tz().clone()).date();
        let mut day = today;
        loop {
            let at = on(day, time, zone);
            if at > after {
                return at;
            }
            day = match day.tomorrow() {
                Ok(d) => d,
                Err(_) => return Timestamp::MAX,
            };
        }
    }
}

/// How a ring reaches one of its people in their quiet hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// It goes to them at the end of their quiet hours.
    Held(Timestamp),
    /// A ring of the same occurrence is held for them already (until then): this one never
    /// goes, so they get one ring.
    Merged(Timestamp),
}

impl Hold {
    pub fn until(self) -> Timestamp {
        match self {
            Hold::Held(at) | Hold::Merged(at) => at,
        }
    }

    pub fn state(self) -> &'static str {
        match self {
            Hold::Held(_) => "held",
            Hold::Merged(_) => "merged",
        }
    }
}

/// Which of `people` a ring is held for: each whose quiet hours it falls in (`quiet_until`
/// says until when), unless the reminder breaks through; merged for those who have a ring of
/// the same occurrence held already (`held_until`).
pub fn holds(
    people: &[crate::domain::ids::UserId],
    break_through: bool,
    quiet_until: impl Fn(&crate::domain::ids::UserId) -> Option<Timestamp>,
    held_until: impl Fn(&crate::domain::ids::UserId) -> Option<Timestamp>,
) -> Vec<(crate::domain::ids::UserId, Hold)> {
    if break_through {
        return Vec::new();
    }
    people
        .iter()
        .filter_map(|p| {
            let until = quiet_until(p)?;
            Some((*p, held_until(p).map_or(Hold::Held(until), Hold::Merged)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::UserId;

    #[test]
    fn a_ring_is_held_for_those_in_quiet_hours_and_merged_into_one_already_held() {
        let (a, b, c) = (UserId::generate(), UserId::generate(), UserId::generate());
        let morning = at("2026-11-27T22:00:00Z");
        let earlier = at("2026-11-27T21:00:00Z");
        let quiet = |p: &UserId| (*p != c).then_some(morning);
        let held = |p: &UserId| (*p == b).then_some(earlier);
        assert_eq!(holds(&[a, b, c], false, quiet, held), vec![(a, Hold::Held(morning)), (b, Hold::Merged(earlier))]);
        // Break-through rings for everyone at once.
        assert_eq!(holds(&[a, b, c], true, quiet, held), vec![]);
    }

    fn quiet(start: &str, end: &str) -> QuietHours {
        QuietHours { start: start.into(), end: end.into() }
    }

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn overnight_hours_hold_until_their_end_the_next_morning() {
        let tokyo = Zone::parse("Asia/Tokyo").unwrap();
        let q = quiet("22:00", "07:00");
        // 23:10 in Tokyo holds until 07:00 the next day.
        assert_eq!(q.holds_until(&tokyo, at("2026-11-26T14:10:00Z")), Some(at("2026-11-26T22:00:00Z")));
        // 03:00 holds until 07:00 the same day; 07:00 itself is outside; 21:59:59 is too.
        assert_eq!(q.holds_until(&tokyo, at("2026-11-26T18:00:00Z")), Some(at("2026-11-26T22:00:00Z")));
        assert_eq!(q.holds_until(&tokyo, at("2026-11-26T22:00:00Z")), None);
        assert_eq!(q.holds_until(&tokyo, at("2026-11-26T12:59:59Z")), None);
        assert_eq!(q.holds_until(&tokyo, at("2026-11-26T13:00:00Z")), Some(at("2026-11-26T22:00:00Z")));
    }

    #[test]
    fn daytime_hours_hold_within_the_day() {
        let utc = Zone::utc();
        let q = quiet("13:00", "14:30");
        assert_eq!(q.holds_until(&utc, at("2026-11-26T13:00:00Z")), Some(at("2026-11-26T14:30:00Z")));
        assert_eq!(q.holds_until(&utc, at("2026-11-26T12:59:00Z")), None);
        assert_eq!(q.holds_until(&utc, at("2026-11-26T14:30:00Z")), None);
    }

    #[test]
    fn an_end_in_a_dst_gap_moves_forward_by_the_gap() {
        // New York skips 02:00-03:00 on 2026-03-08: hours ending at 02:30 end at 03:30 EDT.
        let ny = Zone::parse("America/New_York").unwrap();
        let q = quiet("23:00", "02:30");
        assert_eq!(q.holds_until(&ny, at("2026-03-08T05:00:00Z")), Some(at("2026-03-08T07:30:00Z")));
    }

    #[test]
    fn the_same_start_and_end_is_refused() {
        let mut errors = FieldErrors::default();
        quiet("22:00", "22:00").check(&mut errors);
        quiet("25:00", "07:00").check(&mut errors);
        assert!(errors.into_result().is_err());
    }

    #[test]
    fn the_brief_is_due_at_its_next_local_minute() {
        let tokyo = Zone::parse("Asia/Tokyo").unwrap();
        let brief = DailyBrief { time: "07:30".into(), via: "push".into() };
        assert_eq!(brief.next_after(&tokyo, at("2026-11-26T22:00:00Z")), at("2026-11-26T22:30:00Z"));
        assert_eq!(brief.next_after(&tokyo, at("2026-11-26T22:30:00Z")), at("2026-11-27T22:30:00Z"));
    }
}
