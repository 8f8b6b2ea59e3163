//! A person's reminders: create, edit, skip, and act on a notification. Each checks the
//! request with the domain's rules, asks the lifecycle what follows, and writes through the
//! store; the API's handlers only parse and wrap.

use jiff::Timestamp;

use crate::Result;
use crate::domain::alarms::{self, Alarms, RepeatUntilDone};
use crate::domain::ids::{ListId, LogId, ReminderId, UserId};
use crate::domain::lifecycle::{self, Event, Ring, Subject};
use crate::domain::lists::{self, Placement};
use crate::domain::recurrence::Recurrence;
use crate::domain::reminder::{self, ActionEffect, Contents, Reminder, ReminderInput, ReminderPatch, Timing};
use crate::domain::states::{FireKind, NotificationAction};
use crate::error::{FieldCode, FieldErrors};
use crate::infra::storage::Store;

/// Where a reminder of `user_id` goes: the list named (one they belong to) or their default
/// list, and who in it the reminder rings for.
async fn place(
    store: &Store,
    user_id: &UserId,
    list_id: Option<&ListId>,
    assignees: Vec<UserId>,
    rotate: bool,
    now: Timestamp,
    errors: &mut FieldErrors,
) -> Result<Option<Placement>> {
    let Some((list_id, owner)) = store.db.list_for_reminder(user_id, list_id, now).await? else {
        errors.add("list_id", FieldCode::InvalidChoice.because("Not a list you belong to"));
        return Ok(None);
    };
    let members = store.db.member_ids(&list_id).await?;
    let (assignees, rotate) = lists::check_assignees(assignees, rotate, &members, errors);
    Ok(Some(Placement { list_id, owner, created_by: *user_id, assignees, rotate }))
}

/// An escalation to a member goes to a member of the reminder's list.
async fn check_escalation(store: &Store, list_id: &ListId, repeat: Option<&RepeatUntilDone>, errors: &mut FieldErrors) -> Result<()> {
    let wanted: Vec<UserId> = repeat.map(|r| r.escalate.steps().filter_map(|s| s.member_id).collect()).unwrap_or_default();
    if wanted.is_empty() {
        return Ok(());
    }
    let members = store.db.member_ids(list_id).await?;
    if wanted.iter().any(|m| !members.contains(m)) {
        errors.add("repeat_until_done.escalate", FieldCode::InvalidChoice.because("member_id must be a member of the reminder's list"));
    }
    Ok(())
}

/// A reminder checked and ready to be made.
pub struct NewReminder {
    pub place: Placement,
    pub contents: Contents,
    pub timing: Timing,
    pub alarms: Alarms,
}

/// When a new reminder's `send_at` may lie in the past.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// It must be in the future (the app, the API).
    Future,
    /// A repeating one may have begun long ago (an import keeps the series' first date, which
    /// its count counts from); a one-time one must still be ahead.
    SeriesMayHaveBegun,
}

/// Checks what the client sent, reading (never writing) what it needs: its zone is the user's
/// when it names none, its list the user's default list.
pub async fn check_new(store: &Store, user_id: &UserId, input: ReminderInput, anchor: Anchor, now: Timestamp) -> Result<NewReminder> {
    let mut errors = FieldErrors::default();
    let place =
        place(store, user_id, input.list_id.as_ref(), input.assignees.unwrap_or_default(), input.rotate.unwrap_or(false), now, &mut errors)
            .await?;
    let timezone = match input.timezone {
        Some(tz) => reminder::check_zone(&tz, &mut errors),
        None => store.db.settings(user_id).await?.timezone,
    };
    let mut contents = Contents {
        title: input.title,
        description: input.description,
        send_to: input.send_to,
        metadata: input.metadata,
        break_through: input.break_through.unwrap_or(false),
    };
    let mut timing = Timing { send_at: input.send_at, timezone, recurrence: input.recurrence.unwrap_or(Recurrence::once()) };
    reminder::check_contents(&mut contents, &mut errors);
    let anchor_must_be_ahead = anchor == Anchor::Future || timing.recurrence.is_one_time();
    reminder::check_timing(&mut timing, anchor_must_be_ahead, now, &mut errors);
    let mut alarms = Alarms { alerts: input.alerts.unwrap_or_else(alarms::default_alerts), repeat: input.repeat_until_done };
    alarms::check(&mut alarms.alerts, alarms.repeat.as_ref(), &mut errors);
    if let Some(place) = &place {
        check_escalation(store, &place.list_id, alarms.repeat.as_ref(), &mut errors).await?;
    }
    errors.into_result()?;
    let place = place.expect("a missing list is a field error");
    Ok(NewReminder { place, contents, timing, alarms })
}

/// Creates a reminder from what the client sent (see [`check_new`]).
pub async fn create(store: &Store, user_id: &UserId, input: ReminderInput, now: Timestamp) -> Result<Reminder> {
    let new = check_new(store, user_id, input, Anchor::Future, now).await?;
    make(store, &new, now).await
}

/// Makes a checked reminder.
pub async fn make(store: &Store, new: &NewReminder, now: Timestamp) -> Result<Reminder> {
    store.db.create_reminder(&store.keys, &new.place, &new.contents, &new.timing, &new.alarms, now).await
}

/// Edits a reminder of a list the user belongs to as `patch` says (a new time must be in the
/// future). Moved to another list without naming assignees, it rings for everyone there.
pub async fn edit(store: &Store, user_id: &UserId, id: &ReminderId, mut patch: ReminderPatch, now: Timestamp) -> Result<Reminder> {
    let mut r = store.get_reminder(user_id, id, now).await?;
    let (list_id, assignees, rotate) = (patch.list_id.take(), patch.assignees.take(), patch.rotate.take());
    let moved = list_id.is_some_and(|l| l != r.list_id);
    let mut placed = None;
    if moved || assignees.is_some() || rotate.is_some() {
        let mut errors = FieldErrors::default();
        let (assignees, rotate) = if moved {
            (assignees.unwrap_or_default(), rotate.unwrap_or(false))
        } else {
            (assignees.unwrap_or_else(|| r.assignees.clone()), rotate.unwrap_or(r.rotate))
        };
        placed = place(store, user_id, Some(&list_id.unwrap_or(r.list_id)), assignees, rotate, now, &mut errors).await?;
        errors.into_result()?;
    }
    let applied = patch.apply_to(&mut r, now)?;
    let previous_owner = r.user_id;
    if let Some(place) = placed {
        r.list_id = place.list_id;
        r.user_id = place.owner;
        r.assignees = place.assignees;
        r.rotate = place.rotate;
    }
    let mut errors = FieldErrors::default();
    check_escalation(store, &r.list_id, r.repeat_until_done.as_ref(), &mut errors).await?;
    errors.into_result()?;
    store.db.save_reminder(&store.keys, user_id, &previous_owner, &r, applied, now).await
}

/// Skips the reminder's next occurrence.
pub async fn skip_next(store: &Store, user_id: &UserId, id: &ReminderId, now: Timestamp) -> Result<Reminder> {
    let mut r = store.get_reminder(user_id, id, now).await?;
    let applied = reminder::skip_next(&mut r, now)?;
    store.db.save_reminder(&store.keys, user_id, &r.user_id, &r, applied, now).await
}

/// Done early, before it rings again. A one-time reminder is completed; a recurring one's
/// occurrence it waits on (a snoozed one, else the next) is done: that one will not ring, nor
/// its alerts, and it moves on. A recurring reminder with nothing left to ring is completed.
/// Completing one already completed changes nothing.
pub async fn complete_early(store: &Store, user_id: &UserId, id: &ReminderId, now: Timestamp) -> Result<Reminder> {
    let r = store.get_reminder(user_id, id, now).await?;
    if !r.is_active {
        return Ok(r);
    }
    let pending = store.db.pending_fires(id).await?;
    let at = |kind: FireKind| pending.iter().find(|f| f.kind == kind).map(|f| f.fire_at);
    let (occurrence, effect) = match (r.recurrence.is_one_time(), at(FireKind::Snooze), at(FireKind::Occurrence)) {
        (true, _, next) => (next.unwrap_or(r.send_at), ActionEffect::Archive),
        (false, Some(snoozed), _) => (snoozed, ActionEffect::ClearSnooze),
        (false, None, Some(next)) => (next, ActionEffect::ClearSnooze),
        (false, None, None) => (r.scheduled_at.unwrap_or(now), ActionEffect::Archive),
    };
    let plan = r.plan(Event::Acted { occurrence, effect }, now);
    // A reminder's fires are its list owner's, whoever acts on it.
    store.db.apply_plan(&r.id, &r.user_id, &plan, now).await?;
    store.db.touch_user(user_id, now).await?;
    store.get_reminder(user_id, id, now).await
}

/// Snoozes every occurrence ringing for the person or overdue: the latest entry of each
/// reminder that rang for them in the last 24 hours and that no one acted on (decisions.md
/// "Snooze all"). Answers how many were snoozed.
pub async fn snooze_all(
    store: &Store,
    user_id: &UserId,
    snooze_minutes: Option<i64>,
    snooze_until: Option<Timestamp>,
    now: Timestamp,
) -> Result<u32> {
    // A bad time is refused even when nothing rings.
    let default_snooze = store.db.settings(user_id).await?.default_snooze_minutes;
    reminder::action_effect(NotificationAction::Snooze, true, snooze_minutes, snooze_until, default_snooze, now)?;
    let mut snoozed = 0;
    for (reminder_id, log_id) in store.db.ringing_for(user_id, now - jiff::SignedDuration::from_hours(24)).await? {
        let act = NotificationAct { reminder_id, log_id, action: NotificationAction::Snooze, snooze_minutes, snooze_until };
        let acted = act_on_notification(store, act, Proof { user: Some(user_id), action_token: None }, now).await?;
        snoozed += u32::from(acted.is_some_and(|a| a.changed));
    }
    Ok(snoozed)
}

/// What rings next for a reminder.
#[derive(Debug, Clone)]
pub struct Upcoming {
    pub occurrences: Vec<Timestamp>,
    pub rings: Vec<Ring>,
    /// With rotation: whose turn each occurrence is.
    pub turns: Option<Vec<UserId>>,
}

/// What rings next for the user's reminder: its next `count` occurrences (with whose turn
/// each is, when it rotates) and every ring to come (snooze, repeats, alerts), none past.
pub async fn upcoming(store: &Store, user_id: &UserId, id: &ReminderId, now: Timestamp, count: usize) -> Result<Upcoming> {
    let r = store.get_reminder(user_id, id, now).await?;
    let pending = store.db.pending_fires(id).await?;
    let (timing, alarms) = (r.timing(), r.alarms());
    let (occurrences, rings) =
        lifecycle::upcoming(Subject { timing: &timing, alarms: &alarms, is_active: r.is_active }, &pending, now, count);
    let turns = if r.rotate && r.assignees.len() >= 2 {
        let next = store.db.rotation_next(id).await?;
        Some((0..occurrences.len() as u64).filter_map(|i| lists::turn(&r.assignees, true, next + i)).collect())
    } else {
        None
    };
    Ok(Upcoming { occurrences, rings, turns })
}

/// What a notification's Complete or Snooze asks.
#[derive(Debug, Clone)]
pub struct NotificationAct {
    pub reminder_id: ReminderId,
    pub log_id: LogId,
    pub action: NotificationAction,
    pub snooze_minutes: Option<i64>,
    pub snooze_until: Option<Timestamp>,
}

/// Who stands behind an act: the signed-in user, and the push's action token.
#[derive(Debug, Clone, Copy)]
pub struct Proof<'a> {
    pub user: Option<&'a UserId>,
    pub action_token: Option<&'a str>,
}

/// What acting did: the reminder as it is now, and whether this act changed anything (the
/// same act twice changes nothing the second time).
#[derive(Debug)]
pub struct Acted {
    pub reminder: Reminder,
    pub changed: bool,
    /// Who acted (the session's person, or whose action token it was).
    pub actor: UserId,
    /// The reminder rings for others too: a Complete tells them (the `done` push).
    pub shared: bool,
}

/// Completes or snoozes the occurrence a notification was for: a Complete for everyone it
/// rings for, a snooze for the one who snoozed when it rings for others too. `None` when the
/// entry is missing, not theirs to act on, or the proof does not cover it: the caller cannot
/// tell which.
pub async fn act_on_notification(store: &Store, act: NotificationAct, proof: Proof<'_>, now: Timestamp) -> Result<Option<Acted>> {
    let Some(entry) = store.db.delivery(&act.log_id).await? else { return Ok(None) };
    if entry.reminder_id != act.reminder_id {
        return Ok(None);
    }
    let people = store.db.reminder_people(&entry.reminder_id).await?;
    let by_session = proof.user.filter(|u| people.members.contains(u) || **u == entry.user_id).copied();
    let by_token = proof.action_token.and_then(|t| store.keys.action_token_holder(&act.log_id, t, &entry.user_id, &people.members));
    let Some(actor) = by_session.or(by_token) else { return Ok(None) };
    let r = store.get_reminder(&actor, &entry.reminder_id, now).await?;
    let default_snooze = store.db.settings(&actor).await?.default_snooze_minutes;
    let mut effect =
        reminder::action_effect(act.action, r.recurrence.is_one_time(), act.snooze_minutes, act.snooze_until, default_snooze, now)?;
    let shared = lists::recipients(&people.members, &r.assignees, None, &[]).iter().any(|u| *u != actor);
    if shared {
        effect = effect.for_one_of_many();
    }
    let plan = r.plan(Event::Acted { occurrence: entry.occurrence(), effect }, now);
    let changed = store.db.apply_action(&act.log_id, &r.id, &r.user_id, &actor, act.action, &plan, now).await?;
    store.db.touch_user(&actor, now).await?;
    Ok(Some(Acted { reminder: store.get_reminder(&actor, &r.id, now).await?, changed, actor, shared }))
}
