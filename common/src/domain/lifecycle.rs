//! What follows an event in a reminder's life: which fires it owes the scheduler, and the
//! delivery log entry a claimed fire becomes. Pure: [`plan`] returns a [`Plan`], and
//! `storage::fires::apply_plans` (the only writer of the `fires` table) carries it out.
//!
//! A reminder owes at most one pending fire of each [`FireKind`]: its next occurrence, its
//! next alert, the repeat of an occurrence that rang, and a snooze.

use jiff::{SignedDuration, Timestamp};

use crate::domain::alarms::{self, Alarms};
use crate::domain::reminder::{ActionEffect, Applied, Timing};
use crate::domain::states::{EntryKind, EntryStatus, FireKind};

/// An occurrence more than this late (after downtime) is logged as missed, never delivered.
pub const LATE_WINDOW: SignedDuration = SignedDuration::from_mins(15);
/// An occurrence this late (but within [`LATE_WINDOW`]) is marked late.
pub const LATE_AFTER: SignedDuration = SignedDuration::from_secs(5);

/// A fire: it rings at `fire_at` for the occurrence at `occurrence_at` (the same instant for
/// an occurrence and a snooze; later for a repeat, earlier for an alert).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedFire {
    pub kind: FireKind,
    pub fire_at: Timestamp,
    pub occurrence_at: Timestamp,
}

impl PlannedFire {
    /// An occurrence (or a snooze): it rings for itself.
    pub fn at(kind: FireKind, at: Timestamp) -> PlannedFire {
        PlannedFire { kind, fire_at: at, occurrence_at: at }
    }
}

/// One change to a reminder's pending fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FireChange {
    /// Drop every pending fire.
    DropAll,
    /// Drop the pending fire of this kind.
    Drop(FireKind),
    /// Drop the pending fire of this kind if it still belongs to this occurrence (an edit may
    /// have replaced it meanwhile; that one stays).
    DropFor { kind: FireKind, occurrence_at: Timestamp },
    /// Set this fire, replacing a pending one of its kind.
    Put(PlannedFire),
    /// Set this fire unless one of its kind is pending: one an edit set meanwhile wins.
    PutIfAbsent(PlannedFire),
    /// Move the pending occurrence fire at `from` to `to`, if it is still that one.
    MoveOccurrence { from: Timestamp, to: Timestamp },
}

/// The delivery log entry a claimed fire becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannedEntry {
    pub kind: EntryKind,
    /// When it was due to ring.
    pub occurrence_at: Timestamp,
    /// `Queued` to be delivered, or `Missed`: too late, never delivered.
    pub status: EntryStatus,
    pub late: bool,
    /// An alert's or repeat's occurrence.
    pub occurrence_of: Option<Timestamp>,
}

/// What to write after an event. The applier runs a plan's drops and moves before its puts,
/// and keeps the reminder's `scheduled_at` on the occurrence fire it puts or moves (when the
/// change takes effect).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Plan {
    pub fires: Vec<FireChange>,
    /// The entry to log (a claimed fire of an active reminder).
    pub entry: Option<PlannedEntry>,
    /// Archive the reminder (completed).
    pub archive: bool,
    /// The act concerns only whoever acted (a snooze by one of several people): only their
    /// pending email fallbacks go.
    pub for_one: bool,
}

impl Plan {
    /// The occurrence fire this plan sets or moves to, if any: the next instant the reminder
    /// rings for a new occurrence.
    pub fn next_occurrence(&self) -> Option<Timestamp> {
        self.fires.iter().find_map(|c| match c {
            FireChange::Put(f) | FireChange::PutIfAbsent(f) if f.kind == FireKind::Occurrence => Some(f.fire_at),
            FireChange::MoveOccurrence { to, .. } => Some(*to),
            _ => None,
        })
    }

    /// Whether it sets an alert, repeat or snooze: fires the scheduler learns of by a change
    /// notice (it learns of the next occurrence from the claim's answer).
    pub fn sets_follow_up(&self) -> bool {
        self.fires.iter().any(|c| matches!(c, FireChange::Put(f) | FireChange::PutIfAbsent(f) if f.kind != FireKind::Occurrence))
    }
}

/// What the rule knows of the reminder.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub timing: &'a Timing,
    pub alarms: &'a Alarms,
    /// Active after the event (an edit that gives a completed reminder a new time makes it
    /// active again).
    pub is_active: bool,
}

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The reminder was made.
    Created,
    /// It was edited (or its next occurrence skipped); `Applied` says what changed.
    Edited(Applied),
    /// The scheduler took this fire (its row is gone).
    Claimed(PlannedFire),
    /// The person completed or snoozed an entry of this occurrence.
    Acted { occurrence: Timestamp, effect: ActionEffect },
}

/// The plan that follows `event` at `now`.
pub fn plan(subject: Subject<'_>, event: Event, now: Timestamp) -> Plan {
    match event {
        Event::Created => created(subject, now),
        Event::Edited(applied) => edited(subject, applied, now),
        Event::Claimed(fire) => claimed(subject, fire, now),
        Event::Acted { occurrence, effect } => acted(subject, occurrence, effect, now),
    }
}

fn next_alert_fire(subject: Subject<'_>, after: Timestamp, done: Option<Timestamp>) -> Option<PlannedFire> {
    alarms::next_alert(&subject.timing.schedule(), &subject.alarms.alerts, after, done).map(|(fire_at, occurrence_at)| PlannedFire {
        kind: FireKind::Alert,
        fire_at,
        occurrence_at,
    })
}

/// The first occurrence after `now` and its first alert.
fn created(subject: Subject<'_>, now: Timestamp) -> Plan {
    let mut fires = Vec::new();
    if let Some(next) = subject.timing.schedule().next_after(now) {
        fires.push(FireChange::Put(PlannedFire::at(FireKind::Occurrence, next)));
    }
    fires.extend(next_alert_fire(subject, now, None).map(FireChange::Put));
    Plan { fires, ..Plan::default() }
}

/// Changed timing replaces the pending occurrence; changed timing or alarms replace the
/// pending alert and drop the repeat (an occurrence already rung keeps no nagging once its
/// reminder is edited). A pending snooze stays.
fn edited(subject: Subject<'_>, applied: Applied, now: Timestamp) -> Plan {
    let mut fires = Vec::new();
    if applied.timing_changed {
        match subject.timing.schedule().next_after(now).filter(|_| subject.is_active) {
            Some(next) => fires.push(FireChange::Put(PlannedFire::at(FireKind::Occurrence, next))),
            None => fires.push(FireChange::Drop(FireKind::Occurrence)),
        }
    }
    if applied.timing_changed || applied.alarms_changed {
        fires.push(FireChange::Drop(FireKind::Repeat));
        match next_alert_fire(subject, now, None).filter(|_| subject.is_active) {
            Some(alert) => fires.push(FireChange::Put(alert)),
            None => fires.push(FireChange::Drop(FireKind::Alert)),
        }
    }
    Plan { fires, ..Plan::default() }
}

/// A claimed fire of an active reminder becomes an entry: missed when more than
/// [`LATE_WINDOW`] late, late from [`LATE_AFTER`]. An occurrence puts the next one (after a
/// long outage, the next after now rather than every one missed), and its repeat; a repeat
/// the next repeat; an alert the next alert. A missed fire starts no repeat. Fires set by an
/// edit meanwhile win over these.
fn claimed(subject: Subject<'_>, fire: PlannedFire, now: Timestamp) -> Plan {
    if !subject.is_active {
        return Plan::default();
    }
    let lateness = now.duration_since(fire.fire_at);
    let missed = lateness > LATE_WINDOW;
    let from = if missed { now } else { fire.fire_at };
    let repeat_after = |occurrence: Timestamp, rang: Timestamp| {
        let repeat = subject.alarms.repeat.as_ref().filter(|_| !missed)?;
        alarms::next_repeat(repeat, occurrence, rang).map(|at| PlannedFire {
            kind: FireKind::Repeat,
            fire_at: at,
            occurrence_at: occurrence,
        })
    };
    let mut fires = Vec::new();
    match fire.kind {
        FireKind::Occurrence => {
            if let Some(next) = subject.timing.schedule().next_after(from) {
                fires.push(FireChange::PutIfAbsent(PlannedFire::at(FireKind::Occurrence, next)));
            }
            fires.extend(repeat_after(fire.fire_at, fire.fire_at).map(FireChange::PutIfAbsent));
        }
        FireKind::Repeat => fires.extend(repeat_after(fire.occurrence_at, fire.fire_at).map(FireChange::PutIfAbsent)),
        FireKind::Alert => fires.extend(next_alert_fire(subject, from, None).map(FireChange::PutIfAbsent)),
        // Held rings are released by the claim itself, never planned from.
        FireKind::Snooze | FireKind::Held => {}
    }
    let entry = PlannedEntry {
        kind: entry_kind(fire.kind),
        occurrence_at: fire.fire_at,
        status: if missed { EntryStatus::Missed } else { EntryStatus::Queued },
        late: lateness >= LATE_AFTER,
        occurrence_of: matches!(fire.kind, FireKind::Alert | FireKind::Repeat).then_some(fire.occurrence_at),
    };
    Plan { fires, entry: Some(entry), archive: false, for_one: false }
}

fn entry_kind(kind: FireKind) -> EntryKind {
    match kind {
        FireKind::Occurrence => EntryKind::Occurrence,
        FireKind::Snooze => EntryKind::Snooze,
        FireKind::Alert => EntryKind::Alert,
        FireKind::Repeat => EntryKind::Repeat,
        FireKind::Held => EntryKind::Occurrence,
    }
}

/// Acting on an entry ends its occurrence's repeats. Acted on before the occurrence rang (from
/// an alert), the occurrence and its other alerts do not ring either: the occurrence fire
/// moves to the one after (or goes), the alert to a later occurrence's. Then the action's own
/// effect: archive, drop the snooze, or snooze.
fn acted(subject: Subject<'_>, occurrence: Timestamp, effect: ActionEffect, now: Timestamp) -> Plan {
    if let ActionEffect::SnoozeForOne(at) = effect {
        // Theirs alone: nothing of the occurrence stops for the others.
        return Plan { fires: vec![FireChange::Put(PlannedFire::at(FireKind::Snooze, at))], entry: None, archive: false, for_one: true };
    }
    let mut fires = vec![FireChange::DropFor { kind: FireKind::Repeat, occurrence_at: occurrence }];
    if occurrence > now {
        match next_alert_fire(subject, now, Some(occurrence)) {
            Some(alert) => fires.push(FireChange::Put(alert)),
            None => fires.push(FireChange::Drop(FireKind::Alert)),
        }
        match subject.timing.schedule().next_after(occurrence) {
            Some(next) => fires.push(FireChange::MoveOccurrence { from: occurrence, to: next }),
            None => fires.push(FireChange::DropFor { kind: FireKind::Occurrence, occurrence_at: occurrence }),
        }
    }
    let archive = match effect {
        ActionEffect::Archive => {
            fires.push(FireChange::DropAll);
            true
        }
        ActionEffect::ClearSnooze => {
            fires.push(FireChange::Drop(FireKind::Snooze));
            false
        }
        ActionEffect::SnoozeUntil(at) | ActionEffect::SnoozeForOne(at) => {
            fires.push(FireChange::Put(PlannedFire::at(FireKind::Snooze, at)));
            false
        }
    };
    Plan { fires, entry: None, archive, for_one: false }
}

/// A ring to come, for the "next notifications" list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct Ring {
    #[schema(value_type = String, format = DateTime)]
    pub at: Timestamp,
    pub kind: FireKind,
    /// The occurrence it is for (an alert's or repeat's; a snooze's own instant).
    #[schema(value_type = String, format = DateTime)]
    pub occurrence_at: Timestamp,
}

/// What rings after `now`, in time order: the pending snooze and repeat, then the next
/// `count` occurrences from the pending occurrence fire on (what the scheduler will ring: an
/// occurrence done early or skipped is not among them), each with its alerts still to come.
/// Never a past instant; nothing for an inactive reminder. Answers the occurrences and every
/// ring.
pub fn upcoming(subject: Subject<'_>, pending: &[PlannedFire], now: Timestamp, count: usize) -> (Vec<Timestamp>, Vec<Ring>) {
    if !subject.is_active {
        return (Vec::new(), Vec::new());
    }
    let mut rings: Vec<Ring> = pending
        .iter()
        .filter(|f| matches!(f.kind, FireKind::Snooze | FireKind::Repeat | FireKind::Held) && f.fire_at > now)
        .map(|f| Ring { at: f.fire_at, kind: f.kind, occurrence_at: f.occurrence_at })
        .collect();
    let next = pending.iter().find(|f| f.kind == FireKind::Occurrence).map(|f| f.fire_at);
    let occurrences: Vec<Timestamp> = match next {
        Some(first) => subject.timing.schedule().occurrences(first, count).into_iter().filter(|at| *at >= now).collect(),
        None => Vec::new(),
    };
    for &at in &occurrences {
        rings.push(Ring { at, kind: FireKind::Occurrence, occurrence_at: at });
        for alert in subject.alarms.alerts.iter().filter(|a| a.before_minutes > 0) {
            let alert_at = at - SignedDuration::from_mins(i64::from(alert.before_minutes));
            if alert_at > now {
                rings.push(Ring { at: alert_at, kind: FireKind::Alert, occurrence_at: at });
            }
        }
    }
    rings.sort_by_key(|r| (r.at, r.kind as u8));
    (occurrences, rings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::alarms::{Alert, RepeatUntilDone};
    use crate::domain::recurrence::Recurrence;

    fn at(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    fn daily() -> Timing {
        Timing {
            send_at: at("2026-11-25T09:00:00Z"),
            timezone: crate::domain::zone::Zone::parse("UTC").unwrap(),
            recurrence: Recurrence::daily(),
        }
    }

    fn once() -> Timing {
        Timing {
            send_at: at("2026-11-25T09:00:00Z"),
            timezone: crate::domain::zone::Zone::parse("UTC").unwrap(),
            recurrence: Recurrence::once(),
        }
    }

    fn alarms(before: &[u32], repeat: Option<(u32, u32)>) -> Alarms {
        Alarms {
            alerts: before.iter().map(|&before_minutes| Alert { before_minutes }).collect(),
            repeat: repeat.map(|(every_minutes, max_times)| RepeatUntilDone { every_minutes, max_times, escalate: Default::default() }),
        }
    }

    fn put(kind: FireKind, fire_at: &str, occurrence_at: &str) -> PlannedFire {
        PlannedFire { kind, fire_at: at(fire_at), occurrence_at: at(occurrence_at) }
    }

    #[test]
    fn a_new_reminder_owes_its_first_occurrence_and_alert() {
        let (t, a) = (daily(), alarms(&[0, 10], None));
        let p = plan(Subject { timing: &t, alarms: &a, is_active: true }, Event::Created, at("2026-11-25T09:30:00Z"));
        assert_eq!(
            p.fires,
            vec![
                FireChange::Put(PlannedFire::at(FireKind::Occurrence, at("2026-11-26T09:00:00Z"))),
                FireChange::Put(put(FireKind::Alert, "2026-11-26T08:50:00Z", "2026-11-26T09:00:00Z")),
            ]
        );
        assert_eq!((p.entry, p.archive), (None, false));
        assert_eq!(p.next_occurrence(), Some(at("2026-11-26T09:00:00Z")));
    }

    #[test]
    fn an_edit_replaces_only_what_changed() {
        let (t, a) = (daily(), alarms(&[15], Some((5, 3))));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let now = at("2026-11-25T10:00:00Z");
        let title_only = plan(s, Event::Edited(Applied::default()), now);
        assert_eq!(title_only, Plan::default(), "a new title owes nothing new");
        let alarms_only = plan(s, Event::Edited(Applied { alarms_changed: true, ..Applied::default() }), now);
        assert_eq!(
            alarms_only.fires,
            vec![FireChange::Drop(FireKind::Repeat), FireChange::Put(put(FireKind::Alert, "2026-11-26T08:45:00Z", "2026-11-26T09:00:00Z"))]
        );
        assert_eq!(alarms_only.next_occurrence(), None, "the occurrence stays where it is");
        let timing = plan(s, Event::Edited(Applied { timing_changed: true, ..Applied::default() }), now);
        assert_eq!(timing.fires[0], FireChange::Put(PlannedFire::at(FireKind::Occurrence, at("2026-11-26T09:00:00Z"))));
        assert!(timing.fires.contains(&FireChange::Drop(FireKind::Repeat)));
        assert!(!timing.fires.iter().any(|c| matches!(c, FireChange::Drop(FireKind::Snooze) | FireChange::DropAll)), "a snooze stays");
    }

    #[test]
    fn an_inactive_reminder_edited_owes_nothing() {
        let (t, a) = (daily(), alarms(&[15], None));
        let s = Subject { timing: &t, alarms: &a, is_active: false };
        let p =
            plan(s, Event::Edited(Applied { timing_changed: true, alarms_changed: true, reactivate: false }), at("2026-11-25T10:00:00Z"));
        assert_eq!(
            p.fires,
            vec![FireChange::Drop(FireKind::Occurrence), FireChange::Drop(FireKind::Repeat), FireChange::Drop(FireKind::Alert)]
        );
    }

    #[test]
    fn an_occurrence_claimed_on_time_puts_the_next_and_its_repeat() {
        let (t, a) = (daily(), alarms(&[0], Some((5, 2))));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let fire = PlannedFire::at(FireKind::Occurrence, at("2026-11-25T09:00:00Z"));
        let p = plan(s, Event::Claimed(fire), at("2026-11-25T08:59:59.5Z"));
        assert_eq!(
            p.fires,
            vec![
                FireChange::PutIfAbsent(PlannedFire::at(FireKind::Occurrence, at("2026-11-26T09:00:00Z"))),
                FireChange::PutIfAbsent(put(FireKind::Repeat, "2026-11-25T09:05:00Z", "2026-11-25T09:00:00Z")),
            ]
        );
        let entry = p.entry.unwrap();
        assert_eq!((entry.kind, entry.status, entry.late, entry.occurrence_of), (EntryKind::Occurrence, EntryStatus::Queued, false, None));
        assert!(p.sets_follow_up());
    }

    #[test]
    fn lateness_marks_late_then_missed_and_a_miss_starts_no_repeat() {
        let (t, a) = (daily(), alarms(&[0], Some((5, 2))));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let fire = PlannedFire::at(FireKind::Occurrence, at("2026-11-25T09:00:00Z"));
        let late = plan(s, Event::Claimed(fire), at("2026-11-25T09:00:05Z")).entry.unwrap();
        assert_eq!((late.status, late.late), (EntryStatus::Queued, true));
        let edge = plan(s, Event::Claimed(fire), at("2026-11-25T09:15:00Z")).entry.unwrap();
        assert_eq!(edge.status, EntryStatus::Queued, "15 minutes late is still delivered");
        // Three days down: one missed entry, then the next occurrence after now, no repeat.
        let p = plan(s, Event::Claimed(fire), at("2026-11-28T12:00:00Z"));
        assert_eq!(p.entry.unwrap().status, EntryStatus::Missed);
        assert_eq!(p.fires, vec![FireChange::PutIfAbsent(PlannedFire::at(FireKind::Occurrence, at("2026-11-29T09:00:00Z")))]);
    }

    #[test]
    fn repeats_count_from_their_occurrence_and_stop() {
        let (t, a) = (once(), alarms(&[0], Some((5, 2))));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let first = put(FireKind::Repeat, "2026-11-25T09:05:00Z", "2026-11-25T09:00:00Z");
        let p = plan(s, Event::Claimed(first), at("2026-11-25T09:05:00Z"));
        assert_eq!(p.fires, vec![FireChange::PutIfAbsent(put(FireKind::Repeat, "2026-11-25T09:10:00Z", "2026-11-25T09:00:00Z"))]);
        assert_eq!(p.entry.unwrap().occurrence_of, Some(at("2026-11-25T09:00:00Z")));
        let last = put(FireKind::Repeat, "2026-11-25T09:10:00Z", "2026-11-25T09:00:00Z");
        assert_eq!(plan(s, Event::Claimed(last), at("2026-11-25T09:10:00Z")).fires, vec![], "two repeats rang");
    }

    #[test]
    fn a_fire_of_an_inactive_reminder_is_dropped_without_an_entry() {
        let (t, a) = (daily(), alarms(&[0], None));
        let s = Subject { timing: &t, alarms: &a, is_active: false };
        let fire = PlannedFire::at(FireKind::Snooze, at("2026-11-25T09:00:00Z"));
        assert_eq!(plan(s, Event::Claimed(fire), at("2026-11-25T09:00:00Z")), Plan::default());
    }

    #[test]
    fn acting_from_an_alert_moves_the_occurrence_and_its_alerts_along() {
        let (t, a) = (daily(), alarms(&[0, 30], Some((5, 3))));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let occurrence = at("2026-11-26T09:00:00Z");
        let p = plan(s, Event::Acted { occurrence, effect: ActionEffect::ClearSnooze }, at("2026-11-26T08:31:00Z"));
        assert_eq!(
            p.fires,
            vec![
                FireChange::DropFor { kind: FireKind::Repeat, occurrence_at: occurrence },
                FireChange::Put(put(FireKind::Alert, "2026-11-27T08:30:00Z", "2026-11-27T09:00:00Z")),
                FireChange::MoveOccurrence { from: occurrence, to: at("2026-11-27T09:00:00Z") },
                FireChange::Drop(FireKind::Snooze),
            ]
        );
        assert_eq!(p.next_occurrence(), Some(at("2026-11-27T09:00:00Z")));
        // After it rang, only its repeats stop.
        let after = plan(s, Event::Acted { occurrence, effect: ActionEffect::ClearSnooze }, at("2026-11-26T09:01:00Z"));
        assert_eq!(
            after.fires,
            vec![FireChange::DropFor { kind: FireKind::Repeat, occurrence_at: occurrence }, FireChange::Drop(FireKind::Snooze)]
        );
    }

    #[test]
    fn complete_archives_a_one_time_reminder_and_snooze_sets_its_fire() {
        let (t, a) = (once(), alarms(&[0], None));
        let s = Subject { timing: &t, alarms: &a, is_active: true };
        let occurrence = at("2026-11-25T09:00:00Z");
        let done = plan(s, Event::Acted { occurrence, effect: ActionEffect::Archive }, at("2026-11-25T09:01:00Z"));
        assert!(done.archive);
        assert_eq!(done.fires.last(), Some(&FireChange::DropAll));
        let until = at("2026-11-25T09:11:00Z");
        let snoozed = plan(s, Event::Acted { occurrence, effect: ActionEffect::SnoozeUntil(until) }, at("2026-11-25T09:01:00Z"));
        assert!(!snoozed.archive);
        assert_eq!(snoozed.fires.last(), Some(&FireChange::Put(PlannedFire::at(FireKind::Snooze, until))));
        // Acted on from an alert before a one-time occurrence: it does not ring.
        let early = plan(s, Event::Acted { occurrence, effect: ActionEffect::Archive }, at("2026-11-25T08:50:00Z"));
        // one of several snoozes: only their snooze is put; the others' repeats and the next
        // occurrence stay as they are
        let one = plan(s, Event::Acted { occurrence, effect: ActionEffect::SnoozeForOne(until) }, at("2026-11-25T09:01:00Z"));
        assert_eq!(one.fires, vec![FireChange::Put(PlannedFire::at(FireKind::Snooze, until))]);
        assert!(!one.archive && one.entry.is_none() && one.for_one);
        assert!(early.fires.contains(&FireChange::DropFor { kind: FireKind::Occurrence, occurrence_at: occurrence }));
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn kind() -> impl Strategy<Value = FireKind> {
            prop::sample::select(FireKind::ALL.to_vec())
        }

        proptest! {
            /// Whatever is claimed, however late: every fire the plan puts rings after the
            /// claimed one (nothing rings twice or goes back in time), and after now unless it
            /// is a repeat or alert of an occurrence delivered within the window; at most one of
            /// each kind; missed exactly beyond the window.
            #[test]
            fn claims_only_move_forward(
                kind in kind(),
                offset_s in 0i64..400 * 86_400,
                late_s in 0i64..5 * 86_400,
                before in prop::collection::vec(0u32..=10_080, 0..5),
                repeat in prop::option::of((1u32..=60, 1u32..=20)),
                recurring in any::<bool>(),
            ) {
                let t = if recurring { daily() } else { once() };
                let a = alarms(&before, repeat);
                let s = Subject { timing: &t, alarms: &a, is_active: true };
                let fire_at = at("2026-11-25T09:00:00Z") + SignedDuration::from_secs(offset_s);
                let fire = PlannedFire { kind, fire_at, occurrence_at: fire_at };
                let now = fire_at + SignedDuration::from_secs(late_s);
                let p = plan(s, Event::Claimed(fire), now);
                let entry = p.entry.unwrap();
                prop_assert_eq!(entry.status == EntryStatus::Missed, late_s > LATE_WINDOW.as_secs());
                let mut kinds = Vec::new();
                for c in &p.fires {
                    let FireChange::PutIfAbsent(f) = c else { panic!("a claim only puts if absent: {c:?}") };
                    prop_assert!(f.fire_at > fire_at, "{f:?} after {fire:?}");
                    if entry.status == EntryStatus::Missed {
                        prop_assert!(f.fire_at > now, "after a miss nothing is replayed: {f:?}");
                        prop_assert!(f.kind != FireKind::Repeat);
                    }
                    prop_assert!(!kinds.contains(&f.kind));
                    kinds.push(f.kind);
                }
            }

            /// Acting never leaves the acted-on occurrence's repeat, and a complete of a one-time
            /// reminder leaves nothing at all.
            #[test]
            fn acting_ends_the_occurrence(
                occurrence_s in 0i64..30 * 86_400,
                now_s in 0i64..30 * 86_400,
                before in prop::collection::vec(0u32..=10_080, 0..5),
                recurring in any::<bool>(),
                complete in any::<bool>(),
            ) {
                let t = if recurring { daily() } else { once() };
                let a = alarms(&before, Some((5, 3)));
                let s = Subject { timing: &t, alarms: &a, is_active: true };
                let base = at("2026-11-25T09:00:00Z");
                let occurrence = base + SignedDuration::from_secs(occurrence_s);
                let now = base + SignedDuration::from_secs(now_s);
                let effect = match (complete, recurring) {
                    (true, false) => ActionEffect::Archive,
                    (true, true) => ActionEffect::ClearSnooze,
                    (false, _) => ActionEffect::SnoozeUntil(now + SignedDuration::from_mins(10)),
                };
                let p = plan(s, Event::Acted { occurrence, effect }, now);
                prop_assert_eq!(p.fires[0], FireChange::DropFor { kind: FireKind::Repeat, occurrence_at: occurrence });
                prop_assert_eq!(p.archive, complete && !recurring);
                if p.archive {
                    prop_assert_eq!(p.fires.last(), Some(&FireChange::DropAll));
                }
                if let Some(next) = p.next_occurrence() {
                    prop_assert!(occurrence > now && next > occurrence);
                }
                for c in &p.fires {
                    if let FireChange::Put(f) = c && f.kind == FireKind::Alert {
                        prop_assert!(f.fire_at > now && f.occurrence_at > occurrence);
                    }
                }
            }
        }
    }

    #[test]
    fn what_rings_next_is_never_past_and_shows_snoozes_alerts_and_repeats() {
        let (t, a) = (daily(), alarms(&[0, 10], Some((5, 3))));
        let subject = Subject { timing: &t, alarms: &a, is_active: true };
        let kinds = |rings: &[Ring]| rings.iter().map(|r| (r.at.to_string(), r.kind)).collect::<Vec<_>>();
        // Today's occurrence rang at 09:00 and was snoozed to 09:30; a repeat is pending for
        // it; tomorrow's occurrence is the pending occurrence fire. At 09:20:
        let pending = [
            PlannedFire::at(FireKind::Snooze, at("2026-11-25T09:30:00Z")),
            put(FireKind::Repeat, "2026-11-25T09:25:00Z", "2026-11-25T09:00:00Z"),
            PlannedFire::at(FireKind::Occurrence, at("2026-11-26T09:00:00Z")),
            put(FireKind::Alert, "2026-11-26T08:50:00Z", "2026-11-26T09:00:00Z"),
        ];
        let (occurrences, rings) = upcoming(subject, &pending, at("2026-11-25T09:20:00Z"), 2);
        assert_eq!(occurrences, vec![at("2026-11-26T09:00:00Z"), at("2026-11-27T09:00:00Z")]);
        assert_eq!(
            kinds(&rings),
            vec![
                ("2026-11-25T09:25:00Z".into(), FireKind::Repeat),
                ("2026-11-25T09:30:00Z".into(), FireKind::Snooze),
                ("2026-11-26T08:50:00Z".into(), FireKind::Alert),
                ("2026-11-26T09:00:00Z".into(), FireKind::Occurrence),
                ("2026-11-27T08:50:00Z".into(), FireKind::Alert),
                ("2026-11-27T09:00:00Z".into(), FireKind::Occurrence),
            ]
        );
        // Past fires (a snooze or repeat due this second is claimed, not listed) never show.
        let (_, later) = upcoming(subject, &pending, at("2026-11-26T08:55:00Z"), 1);
        assert_eq!(kinds(&later), vec![("2026-11-26T09:00:00Z".into(), FireKind::Occurrence)]);
        // A one-time reminder that rang (no pending occurrence) lists nothing past.
        let (o, a1) = (once(), alarms(&[0], None));
        let fired = upcoming(Subject { timing: &o, alarms: &a1, is_active: true }, &[], at("2026-11-25T10:00:00Z"), 5);
        assert_eq!(fired, (vec![], vec![]));
        // An occurrence done early is not listed: the pending fire moved past it.
        let moved = [PlannedFire::at(FireKind::Occurrence, at("2026-11-27T09:00:00Z"))];
        let (occurrences, _) = upcoming(subject, &moved, at("2026-11-25T10:00:00Z"), 1);
        assert_eq!(occurrences, vec![at("2026-11-27T09:00:00Z")]);
        assert_eq!(upcoming(Subject { is_active: false, ..subject }, &pending, at("2026-11-25T09:20:00Z"), 5), (vec![], vec![]));
    }
}
