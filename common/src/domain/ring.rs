//! Who a claimed ring is for, decided without a database: a rotation's turn, the people whose
//! snooze is due (and the others' snoozes put back), who of them it is held for until their
//! quiet hours end, whether its entry then waits, merges or rings, and which escalation steps
//! ring with it. The claim (`infra/storage/claims.rs`) takes the fires, reads the
//! [`ClaimFacts`], asks [`plan_claims`] and applies the [`RingPlan`]s;
//! [`crate::domain::lifecycle`] decides what follows the fire itself.

use std::collections::{BTreeMap, HashMap};

use jiff::{SignedDuration, Timestamp};

use super::alarms::{self, Alarms, EscalationStep};
use super::ids::{ReminderId, UserId};
use super::lifecycle::{self, Event, Plan, PlannedEntry, PlannedFire, Subject};
use super::lists;
use super::quiet::{self, Hold, QuietHours};
use super::reminder::Timing;
use super::states::{EntryStatus, FireKind};
use super::time::to_millis;
use super::zone::Zone;

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

/// A fire the claim took (deleting its row): whose reminder, the fire, and, for a snooze, whose
/// it is and when each one's is due.
#[derive(Debug, Clone)]
pub struct TakenFire {
    pub reminder_id: ReminderId,
    pub fire: PlannedFire,
    pub snoozed: Option<SnoozedFor>,
}

/// What the claim reads for the fires it took.
#[derive(Debug, Default, Clone)]
pub struct ClaimFacts {
    /// Their reminders (a fire whose reminder is not here went meanwhile: dropped).
    pub reminders: HashMap<ReminderId, ClaimedReminder>,
    /// The people of each reminder's list, in the order they joined.
    pub members: HashMap<ReminderId, Vec<UserId>>,
    /// The quiet hours of those people who set them, in their zone.
    pub quiet: HashMap<UserId, (QuietHours, Zone)>,
    /// Rings held now, by (reminder, person, occurrence in Unix ms): until when.
    pub held: HashMap<(ReminderId, UserId, i64), Timestamp>,
}

impl ClaimFacts {
    /// Everyone a ring of these reminders could be held for: whose quiet hours to read (the
    /// owners and list people of active reminders that do not break through).
    pub fn people(&self) -> Vec<UserId> {
        let holdable = self.reminders.iter().filter(|(_, r)| r.is_active && !r.break_through);
        let mut people: Vec<UserId> =
            holdable.flat_map(|(id, r)| std::iter::once(r.user_id).chain(self.members.get(id).into_iter().flatten().copied())).collect();
        people.sort_unstable();
        people.dedup();
        people
    }
}

/// An escalation step due with a repeat that rings now: an entry of kind `escalation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EscalationEntry {
    /// A millisecond after the repeat (and after each step before it): its own entry's instant.
    pub occurrence_at: Timestamp,
    /// The occurrence the repeat is of.
    pub occurrence_of: Timestamp,
    pub step: EscalationStep,
}

/// What one taken fire comes to: the lifecycle's plan (its entry as quiet hours leave it), who
/// the entry is for and rings for, who it is held for, the snoozes put back, whether a
/// rotation's turn moves on, and the escalation entries that follow it once it is logged.
#[derive(Debug, Clone)]
pub struct RingPlan {
    pub reminder_id: ReminderId,
    pub kind: FireKind,
    /// The reminder's owner: the entry is logged under them.
    pub owner: UserId,
    pub plan: Plan,
    /// The people the entry names; None: everyone the reminder rings for.
    pub for_users: Option<Vec<UserId>>,
    /// Who it rings for (each may get an email fallback).
    pub recipients: Vec<UserId>,
    /// Its people in quiet hours.
    pub holds: Vec<(UserId, Hold)>,
    /// Snoozes of others, not due yet: put back.
    pub later: Option<SnoozedFor>,
    pub turn_taken: bool,
    pub escalations: Vec<EscalationEntry>,
}

/// Plans each taken fire, in order, at `now`; snoozes due by `due_by` (the claim's horizon)
/// ring now. A later ring of the same occurrence for someone held already merges into that
/// hold, including one planned earlier in the same call.
pub fn plan_claims(taken: Vec<TakenFire>, facts: &ClaimFacts, now: Timestamp, due_by: Timestamp) -> Vec<RingPlan> {
    let mut held = facts.held.clone();
    taken
        .into_iter()
        .filter_map(|TakenFire { reminder_id, fire, snoozed }| {
            let r = facts.reminders.get(&reminder_id)?;
            let subject = Subject { timing: &r.timing, alarms: &r.alarms, is_active: r.is_active };
            let mut plan = lifecycle::plan(subject, Event::Claimed(fire), now);
            let who = entry_people(fire.kind, plan.entry.is_some(), snoozed, r, to_millis(due_by));
            let members = facts.members.get(&reminder_id).map_or_else(|| vec![r.user_id], Clone::clone);
            let recipients = lists::recipients(&members, &r.assignees, who.named.as_deref(), &[]);
            let mut holds = Vec::new();
            if may_be_held(&plan, r) {
                let entry = plan.entry.expect("may be held: it rings");
                let occurrence = to_millis(entry.occurrence_of.unwrap_or(entry.occurrence_at));
                let (these, entry) = hold(
                    entry,
                    r,
                    &recipients,
                    |person, at| facts.quiet.get(person).and_then(|(hours, zone)| hours.holds_until(zone, at)),
                    |person| held.get(&(reminder_id, *person, occurrence)).copied(),
                );
                for (person, h) in &these {
                    held.entry((reminder_id, *person, occurrence)).or_insert(h.until());
                }
                holds = these;
                plan.entry = entry;
            }
            let escalations = escalations(fire.kind, plan.entry, &r.alarms);
            Some(RingPlan {
                reminder_id,
                kind: fire.kind,
                owner: r.user_id,
                plan,
                for_users: who.named,
                recipients,
                holds,
                later: who.later,
                turn_taken: who.turn_taken,
                escalations,
            })
        })
        .collect()
}

/// The escalation steps due with a repeat that rings now (not held, not missed), each its own
/// entry a millisecond apart after the repeat's.
fn escalations(kind: FireKind, entry: Option<PlannedEntry>, alarms: &Alarms) -> Vec<EscalationEntry> {
    let (FireKind::Repeat, Some(entry), Some(repeat)) = (kind, entry, alarms.repeat.as_ref()) else { return Vec::new() };
    if entry.status != EntryStatus::Queued {
        return Vec::new();
    }
    let occurrence_of = entry.occurrence_of.unwrap_or(entry.occurrence_at);
    alarms::steps_due(repeat, occurrence_of, entry.occurrence_at)
        .into_iter()
        .zip(1i64..)
        .map(|(step, k)| EscalationEntry { occurrence_at: entry.occurrence_at + SignedDuration::from_millis(k), occurrence_of, step })
        .collect()
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

    fn reminder_id(n: u128) -> ReminderId {
        uuid::Uuid::from_u128(n).into()
    }

    fn taken(id: ReminderId, kind: FireKind, fire_at: Timestamp, occurrence_at: Timestamp) -> TakenFire {
        TakenFire { reminder_id: id, fire: PlannedFire { kind, fire_at, occurrence_at }, snoozed: None }
    }

    /// A repeat every 5 minutes, up to 5 times, mailing after the second.
    fn repeating(assignees: Vec<UserId>, rotate: bool, rotation_next: u64) -> ClaimedReminder {
        use crate::domain::alarms::{EscalateTo, Escalation, RepeatUntilDone};
        let step = EscalationStep { after_times: 2, to: EscalateTo::Email, member_id: None };
        let repeat = RepeatUntilDone { every_minutes: 5, max_times: 5, escalate: Escalation::from_steps(&[step]).unwrap() };
        ClaimedReminder { alarms: Alarms { repeat: Some(repeat), ..Alarms::default() }, ..row(assignees, rotate, rotation_next) }
    }

    fn quiet_night() -> (QuietHours, Zone) {
        (QuietHours { start: "22:00".into(), end: "07:00".into() }, Zone::parse("UTC").unwrap())
    }

    #[test]
    fn a_claimed_repeat_rings_for_the_turn_that_rang_and_brings_the_escalation_steps_due() {
        let id = reminder_id(10);
        let occurrence = Timestamp::from_second(1_800_000_000).unwrap(); // 08:00 UTC
        let rang = occurrence + SignedDuration::from_mins(10);
        let mut facts = ClaimFacts::default();
        facts.reminders.insert(id, repeating(vec![person(2), person(3)], true, 1));
        facts.members.insert(id, vec![person(1), person(2), person(3)]);

        let plans = plan_claims(vec![taken(id, FireKind::Repeat, rang, occurrence)], &facts, rang, rang);
        let [p] = plans.as_slice() else { panic!("one plan: {plans:?}") };
        assert_eq!(p.for_users, Some(vec![person(2)]), "the occurrence moved the turn on to 3; its repeats are 2's");
        assert_eq!(p.recipients, vec![person(2)]);
        assert!(p.holds.is_empty() && !p.turn_taken);
        assert_eq!(p.escalations.len(), 1, "the second repeat brings the step after two");
        let e = p.escalations[0];
        assert_eq!((e.occurrence_at, e.occurrence_of), (rang + SignedDuration::from_millis(1), occurrence));
        // The first repeat brings none.
        let first = occurrence + SignedDuration::from_mins(5);
        assert!(plan_claims(vec![taken(id, FireKind::Repeat, first, occurrence)], &facts, first, first)[0].escalations.is_empty());
    }

    #[test]
    fn a_ring_held_for_everyone_waits_without_its_escalation_and_a_second_ring_merges() {
        let (first, second) = (reminder_id(10), reminder_id(11));
        let night = Timestamp::from_second(1_800_000_000).unwrap() + SignedDuration::from_hours(15); // 23:00 UTC
        let occurrence = night - SignedDuration::from_mins(10);
        let mut facts = ClaimFacts::default();
        facts.reminders.insert(first, repeating(vec![], false, 0));
        facts.quiet.insert(person(1), quiet_night());

        let both = vec![taken(first, FireKind::Repeat, night, occurrence), taken(first, FireKind::Alert, night, occurrence)];
        let plans = plan_claims(both, &facts, night, night);
        assert_eq!(plans[0].plan.entry.map(|e| e.status), Some(EntryStatus::Held));
        assert!(matches!(plans[0].holds.as_slice(), [(p, Hold::Held(_))] if *p == person(1)));
        assert!(plans[0].escalations.is_empty(), "held: its steps do not ring at night");
        assert!(matches!(plans[1].holds.as_slice(), [(_, Hold::Merged(_))]), "the same occurrence's alert merges into the hold");
        assert_eq!(plans[1].plan.entry, None, "merged for everyone: not logged");

        // A reminder that is gone (deleted meanwhile) plans nothing; one that breaks through rings.
        facts.reminders.insert(second, ClaimedReminder { break_through: true, ..repeating(vec![], false, 0) });
        let plans = plan_claims(
            vec![taken(reminder_id(99), FireKind::Occurrence, night, night), taken(second, FireKind::Repeat, night, occurrence)],
            &facts,
            night,
            night,
        );
        let [loud] = plans.as_slice() else { panic!("only the reminder still there: {plans:?}") };
        assert_eq!((loud.reminder_id, loud.plan.entry.map(|e| e.status)), (second, Some(EntryStatus::Queued)));
        assert_eq!(loud.escalations.len(), 1);
    }

    #[test]
    fn the_people_whose_quiet_hours_matter_are_the_owners_and_members() {
        let mut facts = ClaimFacts::default();
        facts.reminders.insert(reminder_id(10), row(vec![], false, 0));
        facts.members.insert(reminder_id(10), vec![person(3), person(1), person(2)]);
        facts.members.insert(reminder_id(11), vec![person(2)]);
        assert_eq!(facts.people(), vec![person(1), person(2), person(3)]);
    }
}
