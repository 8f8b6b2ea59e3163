//! The daily brief (decisions.md "Reach and rhythm"): at a person's chosen time, the rest of
//! their day's reminders with their times, the overdue ones and the snoozed ones.

use jiff::Timestamp;

use crate::domain::ids::UserId;
use crate::domain::reminder::Reminder;
use crate::domain::zone::Zone;

/// Occurrences of one reminder listed at most (an every-minute reminder is not a list).
const PER_REMINDER: usize = 24;

/// What a brief lists; titles in the reader's words (opened).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Brief {
    /// The rest of today, in time order.
    pub today: Vec<(Timestamp, String)>,
    pub overdue: Vec<String>,
    /// Snoozed, with when each rings again.
    pub snoozed: Vec<(Timestamp, String)>,
}

impl Brief {
    pub fn is_empty(&self) -> bool {
        self.today.is_empty() && self.overdue.is_empty() && self.snoozed.is_empty()
    }

    pub fn count(&self) -> usize {
        self.today.len() + self.overdue.len() + self.snoozed.len()
    }
}

/// The brief of `reader` at `now` in their zone from the active reminders they see: those
/// that ring for them (everyone's in a list, or theirs by name).
pub fn compose(reminders: &[Reminder], reader: &UserId, zone: &Zone, now: Timestamp) -> Brief {
    let local = now.to_zoned(zone.tz().clone());
    let end_of_day = local
        .date()
        .tomorrow()
        .ok()
        .and_then(|d| d.to_zoned(zone.tz().clone()).ok())
        .map(|z| z.timestamp())
        .unwrap_or(Timestamp::MAX);
    let mut brief = Brief::default();
    for r in reminders.iter().filter(|r| r.is_active && (r.assignees.is_empty() || r.assignees.contains(reader))) {
        if r.overdue {
            brief.overdue.push(r.title.clone());
            continue;
        }
        if let Some(until) = r.snoozed_until {
            brief.snoozed.push((until, r.title.clone()));
            continue;
        }
        let Some(next) = r.scheduled_at.filter(|at| *at >= now) else { continue };
        for at in r.timing().schedule().occurrences(next, PER_REMINDER).into_iter().take_while(|at| *at < end_of_day) {
            brief.today.push((at, r.title.clone()));
        }
    }
    brief.today.sort();
    brief.snoozed.sort();
    brief
}
