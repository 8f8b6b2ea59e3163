//! Trigger links acting for the person who made them: complete or snooze what rang (else, for
//! a complete, the occurrence the reminder waits on), and what the link's page shows. A ring
//! goes through the API's send path (it needs the queues).

use jiff::{SignedDuration, Timestamp};

use crate::Result;
use crate::domain::ids::{LogId, ReminderId, UserId};
use crate::domain::states::NotificationAction;
use crate::domain::triggers::TriggerPage;
use crate::infra::storage::{Store, TriggerTarget};
use crate::usecases::reminders::{self, NotificationAct, Proof};

/// How far back a ring still counts as waiting for an answer (as for Snooze all).
const RINGING_WITHIN: SignedDuration = SignedDuration::from_hours(24);

/// What a trigger's complete or snooze did.
#[derive(Debug, Clone)]
pub struct TriggerDone {
    pub changed: bool,
    pub next_at: Option<Timestamp>,
    /// A ring completed for others too: they get the `done` push.
    pub tell_others: Option<(LogId, UserId)>,
}

/// The latest unanswered ring of the reminder for the person, if any.
async fn ringing(store: &Store, person: &UserId, reminder_id: &ReminderId, now: Timestamp) -> Result<Option<LogId>> {
    let rings = store.db.ringing_for(person, now - RINGING_WITHIN).await?;
    Ok(rings.into_iter().rev().find(|(r, _)| r == reminder_id).map(|(_, log)| log))
}

/// Completes or snoozes for the trigger's maker. A complete with nothing ringing is done early;
/// a snooze with nothing ringing changes nothing.
pub async fn act(
    store: &Store,
    target: &TriggerTarget,
    action: NotificationAction,
    snooze_minutes: Option<i64>,
    now: Timestamp,
) -> Result<TriggerDone> {
    let maker = &target.user_id;
    let before = store.get_reminder(maker, &target.reminder_id, now).await?;
    let next = |r: &crate::domain::reminder::Reminder| r.is_active.then_some(r.scheduled_at).flatten();
    match (action, ringing(store, maker, &target.reminder_id, now).await?) {
        (_, Some(log_id)) => {
            let act = NotificationAct { reminder_id: target.reminder_id, log_id, action, snooze_minutes, snooze_until: None };
            let acted = reminders::act_on_notification(store, act, Proof { user: Some(maker), action_token: None }, now)
                .await?
                .ok_or(crate::Error::NotFound)?;
            let tell_others = (acted.changed && acted.shared && action == NotificationAction::Complete).then_some((log_id, acted.actor));
            Ok(TriggerDone { changed: acted.changed, next_at: next(&acted.reminder), tell_others })
        }
        (NotificationAction::Complete, None) => {
            let after = reminders::complete_early(store, maker, &target.reminder_id, now).await?;
            let changed = (after.is_active, after.scheduled_at) != (before.is_active, before.scheduled_at);
            Ok(TriggerDone { changed, next_at: next(&after), tell_others: None })
        }
        (NotificationAction::Snooze, None) => {
            // A bad preset is refused even when nothing rings.
            let default_snooze = store.db.settings(maker).await?.default_snooze_minutes;
            crate::domain::reminder::action_effect(action, true, snooze_minutes, None, default_snooze, now)?;
            Ok(TriggerDone { changed: false, next_at: next(&before), tell_others: None })
        }
    }
}

/// What the trigger's page shows: the title unless its maker hides notification content, in
/// the maker's language. Reads only.
pub async fn page(store: &Store, target: &TriggerTarget, now: Timestamp) -> Result<TriggerPage> {
    let r = store.get_reminder(&target.user_id, &target.reminder_id, now).await?;
    let settings = store.db.settings(&target.user_id).await?;
    Ok(TriggerPage {
        reminder_id: r.id,
        title: (!settings.hide_notification_content).then(|| r.title.clone()),
        language: settings.language,
        is_active: r.is_active,
        ringing: ringing(store, &target.user_id, &target.reminder_id, now).await?.is_some(),
        next_at: r.is_active.then_some(r.scheduled_at).flatten(),
    })
}
