//! Who a claimed ring is for, decided without a database: a rotation's turn, the people whose
//! snooze is due (and the others' snoozes put back), who of them it is held for until their
//! quiet hours end, and whether its entry then waits, merges or rings. The claim
//! (`infra/storage/claims.rs`) reads the facts, asks [`entry_people`] and [`hold`] and
//! applies the answers;
//! [`crate::domain::lifecycle`] decides what follows the fire itself.

use std::collections::BTreeMap;

use jiff::Timestamp;

use super::alarms::Alarms;
use super::ids::UserId;
use super::lifecycle::{Plan, PlannedEntry};
use super::lists;
use super::quiet::{self, Hold};
use super::reminder::Timing;
use super::states::{EntryStatus, FireKind};

/// Snoozed people and the instant (Unix ms) each one's snooze is due.
pub type SnoozedFor = BTreeMap<UserId, i64>;

/// What the claim knows of a reminder.
#[derive(Debug, Clone)]
pub struct ClaimedReminder {
    pub user_id: UserId,
    pub timing: Timing,
    pub alarms: Alarms,
    pub is_active: bool,
    pub assignees: Vec<UserId>,
    pub rotate: bool,
    /// Whose turn the next occurrence is, when it rotates.
    pub rotation_next: u64,
    /// Rings during quiet hours.
    pub break_through: bool,
}

/// Who a claimed fire's entry names.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct EntryPeople {
    /// The people it is for; None: everyone the reminder rings for.
    pub named: Option<Vec<UserId>>,
    /// Snoozes of others not due yet: put back.
    pub later: Option<SnoozedFor>,
    /// An occurrence of a rotation rang: the turn moves on.
    pub turn_taken: bool,
}

/// A snooze is for the people whose snooze is due by `due_by` (Unix ms); a rotating
/// reminder's occurrence and its alerts for whose turn it is, its repeats for the turn of the
/// occurrence that rang (the claim of it moved the turn on).
pub fn entry_people(kind: FireKind, logged: bool, snoozed: Option<SnoozedFor>, r: &ClaimedReminder, due_by: i64) -> EntryPeople {
    let turn = |index: u64| lists::turn(&r.assignees, r.rotate, index).map(|u| vec![u]);
    match kind {
        FireKind::Snooze => {
            let Some(people) = snoozed else { return EntryPeople::default() };
            let (mut due, mut later): (SnoozedFor, SnoozedFor) = people.into_iter().partition(|(_, at)| *at <= due_by);
            // The fire was claimed as due: if no one's instant says so (the row's time was
            // moved by hand), it is for the earliest.
            if due.is_empty()
                && let Some(&first) = later.values().min()
            {
                let earliest: Vec<UserId> = later.iter().filter(|(_, at)| **at == first).map(|(person, _)| *person).collect();
                for person in earliest {
                    due.insert(person, first);
                    later.remove(&person);
                }
            }
            EntryPeople { named: Some(due.into_keys().collect()), later: (!later.is_empty()).then_some(later), turn_taken: false }
        }
        FireKind::Occurrence if logged => {
            let named = turn(r.rotation_next);
            EntryPeople { turn_taken: named.is_some(), named, later: None }
        }
        // Held rings are released by the claim, not planned.
        FireKind::Occurrence | FireKind::Held => EntryPeople::default(),
        FireKind::Alert => EntryPeople { named: turn(r.rotation_next), ..EntryPeople::default() },
        FireKind::Repeat => EntryPeople { named: turn(r.rotation_next.wrapping_sub(1)), ..EntryPeople::default() },
    }
}

/// Whether a planned entry rings now and may be held for quiet hours.
pub fn may_be_held(plan: &Plan, r: &ClaimedReminder) -> bool {
    plan.entry.is_some_and(|e| e.status == EntryStatus::Queued) && !r.break_through
}

/// Who of a ring's `recipients` it is held for ([`quiet::holds`], at the ring's own
/// instant), and what becomes of its entry: held for everyone, it waits (`held`); merged
/// for everyone into rings held already, it is not logged at all (None); otherwise as planned.
pub fn hold(
    entry: PlannedEntry,
    r: &ClaimedReminder,
    recipients: &[UserId],
    quiet_until: impl Fn(&UserId, Timestamp) -> Option<Timestamp>,
    held_until: impl Fn(&UserId) -> Option<Timestamp>,
) -> (Vec<(UserId, Hold)>, Option<PlannedEntry>) {
    let at = entry.occurrence_at;
    let holds = quiet::holds(recipients, r.break_through, |person| quiet_until(person, at), held_until);
    let entry = if !holds.is_empty() && holds.len() == recipients.len() {
        let all_merged = holds.iter().all(|(_, h)| matches!(h, Hold::Merged(_)));
        (!all_merged).then_some(PlannedEntry { status: EntryStatus::Held, ..entry })
    } else {
        Some(entry)
    };
    (holds, entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recurrence::Recurrence;
    use crate::domain::states::EntryKind;
    use crate::domain::zone::Zone;

    fn person(n: u128) -> UserId {
        uuid::Uuid::from_u128(n).into()
    }

    fn row(assignees: Vec<UserId>, rotate: bool, rotation_next: u64) -> ClaimedReminder {
        let timing = Timing { send_at: Timestamp::UNIX_EPOCH, timezone: Zone::parse("UTC").unwrap(), recurrence: Recurrence::once() };
        ClaimedReminder {
            user_id: person(1),
            timing,
            alarms: Alarms::default(),
            is_active: true,
            assignees,
            rotate,
            rotation_next,
            break_through: false,
        }
    }

    #[test]
    fn a_rotation_names_whose_turn_each_ring_is_and_moves_on_with_the_occurrence() {
        let r = row(vec![person(2), person(1)], true, 3);
        let occurrence = entry_people(FireKind::Occurrence, true, None, &r, 0);
        assert_eq!(occurrence, EntryPeople { named: Some(vec![person(1)]), later: None, turn_taken: true });
        // Its alert comes before the claim moves the turn; its repeat after.
        assert_eq!(entry_people(FireKind::Alert, true, None, &r, 0).named, Some(vec![person(1)]));
        assert_eq!(entry_people(FireKind::Repeat, true, None, &r, 0).named, Some(vec![person(2)]));
        // An occurrence not logged (the reminder went meanwhile) takes no turn.
        assert_eq!(entry_people(FireKind::Occurrence, false, None, &r, 0), EntryPeople::default());
        // Without rotation: everyone it rings for.
        assert_eq!(entry_people(FireKind::Occurrence, true, None, &row(vec![person(2)], false, 0), 0), EntryPeople::default());
    }

    #[test]
    fn a_snooze_rings_for_those_due_and_keeps_the_others() {
        let people: SnoozedFor = [(person(1), 1_000), (person(2), 5_000)].into_iter().collect();
        let who = entry_people(FireKind::Snooze, true, Some(people), &row(vec![], false, 0), 1_000);
        assert_eq!(who.named, Some(vec![person(1)]));
        assert_eq!(who.later, Some([(person(2), 5_000)].into_iter().collect()));
        // Claimed before anyone's instant (its time moved by hand): for the earliest.
        let people: SnoozedFor = [(person(1), 9_000), (person(2), 5_000)].into_iter().collect();
        let who = entry_people(FireKind::Snooze, true, Some(people), &row(vec![], false, 0), 1_000);
        assert_eq!((who.named, who.later), (Some(vec![person(2)]), Some([(person(1), 9_000)].into_iter().collect())));
        // A snooze from before people were named: for everyone.
        assert_eq!(entry_people(FireKind::Snooze, true, None, &row(vec![], false, 0), 1_000), EntryPeople::default());
    }

    fn entry(at: Timestamp) -> PlannedEntry {
        PlannedEntry { kind: EntryKind::Occurrence, occurrence_at: at, status: EntryStatus::Queued, late: false, occurrence_of: None }
    }

    #[test]
    fn a_ring_in_someones_quiet_hours_is_held_for_them_and_waits_only_when_held_for_all() {
        let at = Timestamp::from_second(1_000_000).unwrap();
        let morning = Timestamp::from_second(1_030_000).unwrap();
        let (sleeper, awake) = (person(1), person(2));
        let quiet = |p: &UserId, when: Timestamp| (*p == sleeper && when == at).then_some(morning);
        let r = row(vec![], false, 0);

        let (holds, planned) = hold(entry(at), &r, &[sleeper, awake], quiet, |_| None);
        assert_eq!(holds, vec![(sleeper, Hold::Held(morning))]);
        assert_eq!(planned.map(|e| e.status), Some(EntryStatus::Queued), "it rings for whoever is awake");

        let (holds, planned) = hold(entry(at), &r, &[sleeper], quiet, |_| None);
        assert_eq!(holds.len(), 1);
        assert_eq!(planned.map(|e| e.status), Some(EntryStatus::Held), "held for everyone: the entry waits");

        let (_, planned) = hold(entry(at), &r, &[sleeper], quiet, |_| Some(morning));
        assert_eq!(planned, None, "merged into the ring of the occurrence held already: not logged");

        let loud = ClaimedReminder { break_through: true, ..row(vec![], false, 0) };
        let (holds, planned) = hold(entry(at), &loud, &[sleeper], quiet, |_| None);
        assert!(holds.is_empty(), "break-through rings at once");
        assert_eq!(planned.map(|e| e.status), Some(EntryStatus::Queued));
    }
}
