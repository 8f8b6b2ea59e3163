//! Ringing on request: Send now and a trigger link ring a reminder for one person at once;
//! a Complete on a shared reminder tells the others.

use jiff::Timestamp;

use super::Context;
use crate::domain::ids::{LogId, UserId};
use crate::domain::reminder::Reminder;
use crate::domain::routing;
use crate::domain::states::EntryKind;
use crate::infra::jobs::SendJob;
use crate::infra::storage::FallbackClaim;
use crate::{Error, Result};

/// What ringing now did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rang {
    pub log_id: LogId,
    /// The devices it goes to (the worker's rule, domain::routing).
    pub devices: usize,
    /// With no device: whether it went by email instead.
    pub email: bool,
}

/// Rings a reminder now for one person (Send now, a trigger link): an entry of `kind` for
/// their devices; with none, by email when their email fallback is on and the day's are not
/// used up.
pub async fn ring_now(cx: Context<'_>, r: &Reminder, person: &UserId, kind: EntryKind, now: Timestamp) -> Result<Rang> {
    let db = &cx.store.db;
    let fallback = db.settings(person).await?.email_fallback_minutes;
    // `send_to` narrows only the devices of the person who chose them: a member's Send now on
    // a shared reminder reaches the member's phone.
    let theirs = db.device_ids(person).await?;
    let devices = routing::devices_for(&theirs, r.send_to.as_deref()).len();
    let log_id = db.create_ring_now(&r.id, &r.user_id, person, kind, devices, fallback, now).await?;
    let mut email = false;
    if devices > 0 {
        // The entry is already durable: if the queue is unreachable now, the scheduler's
        // reconcile pass enqueues it again, so it is still "accepted".
        if let Err(e) = cx.queues.push(SendJob::Deliver { log_id }).await {
            tracing::warn!(error = %e, %log_id, "could not enqueue a ring-now delivery; the scheduler will");
        }
    } else if fallback.is_some() {
        match db.email_now(&log_id, person, now).await? {
            FallbackClaim::Send(job) => {
                cx.queues.mail(job).await.map_err(|_| Error::Unavailable("mail queue"))?;
                email = true;
            }
            _ => tracing::info!(%log_id, "no device, and the day's fallback emails are used up"),
        }
    }
    let outcome = if devices > 0 {
        "push"
    } else if email {
        "email"
    } else {
        "nothing"
    };
    metrics::counter!(crate::metric_names::SEND_NOW_TOTAL, "kind" => kind.as_str(), "outcome" => outcome).increment(1);
    Ok(Rang { log_id, devices, email })
}

/// Queues the `done` push for the others a shared reminder rang for. A queue that is down
/// loses only this courtesy: the act itself is saved.
pub async fn tell_the_others(cx: Context<'_>, log_id: LogId, by: UserId) {
    if let Err(e) = cx.queues.push(SendJob::Done { log_id, by }).await {
        tracing::warn!(error = %e, "could not queue the done push");
    }
}
