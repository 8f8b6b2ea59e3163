//! The push worker's job: deliver one delivery log entry to each of its user's devices, once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::future::join_all;
use hibiki_common::crypto::Keys;
use hibiki_common::jobs::PushJob;
use hibiki_common::notification::{self, PushPayload};
use hibiki_common::storage::{Db, PendingDelivery, SubscriptionKeys};
use jiff::{SignedDuration, Timestamp};
use tokio::sync::Semaphore;

use crate::push::{PushClient, PushOptions, PushOutcome};

/// A send "in flight" longer than this belongs to a dead worker and may be taken over.
const STALE_SEND: SignedDuration = SignedDuration::from_secs(60);
const MAX_ATTEMPTS: u32 = 4;
/// Push requests one worker process has open at once (sockets, memory).
pub const MAX_SENDS_IN_FLIGHT: usize = 256;
/// A device's last success is written at most this often (it feeds the 180-day rule and the
/// health view, not the hot path).
const SUCCESS_WRITE_EVERY: Duration = Duration::from_secs(600);
const REMINDER_TTL: u32 = 4 * 3600;
const TEST_TTL: u32 = 60;

pub struct DeliveryContext {
    pub db: Db,
    pub keys: Keys,
    pub client: PushClient,
    pub retry: RetryTiming,
    sends: Semaphore,
    /// When this process last wrote each device's success.
    successes: Mutex<HashMap<String, Instant>>,
}

impl DeliveryContext {
    pub fn new(db: Db, keys: Keys, client: PushClient, retry: RetryTiming) -> DeliveryContext {
        DeliveryContext { db, keys, client, retry, sends: Semaphore::new(MAX_SENDS_IN_FLIGHT), successes: Mutex::new(HashMap::new()) }
    }

    /// Whether this process should record a success for `device` now.
    fn success_due(&self, device: &str) -> bool {
        let mut written = self.successes.lock().expect("not poisoned");
        if written.get(device).is_some_and(|at| at.elapsed() < SUCCESS_WRITE_EVERY) {
            return false;
        }
        if written.len() > 100_000 {
            written.retain(|_, at| at.elapsed() < SUCCESS_WRITE_EVERY);
        }
        written.insert(device.to_owned(), Instant::now());
        true
    }
}

/// How long a send that may be retried waits before its next attempt, unless the push service
/// said (Retry-After): `base` × 2^attempt, i.e. 2, 4 and 8 s with the default base of 1 s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryTiming {
    pub base: Duration,
}

impl Default for RetryTiming {
    fn default() -> RetryTiming {
        RetryTiming { base: Duration::from_secs(1) }
    }
}

impl RetryTiming {
    /// The wait after failed attempt `attempt` (1-based).
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self.base.saturating_mul(1 << attempt.min(5));
        retry_after.unwrap_or(backoff).clamp(Duration::from_millis(200), Duration::from_secs(60))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    #[error(transparent)]
    Store(#[from] hibiki_common::Error),
}

pub async fn run_job(ctx: &DeliveryContext, job: PushJob) -> Result<(), DeliveryError> {
    match job {
        PushJob::Deliver { log_id } => deliver(ctx, &log_id).await,
        PushJob::Test { user_id } => test(ctx, &user_id).await,
    }
}

/// Delivers a delivery log entry. Safe to run twice: each (entry, device) pair is claimed in
/// the database before it is sent.
pub async fn deliver(ctx: &DeliveryContext, log_id: &str) -> Result<(), DeliveryError> {
    let Some(entry) = ctx.db.delivery(log_id).await? else { return Ok(()) };
    if entry.status != "queued" {
        return Ok(());
    }
    let reminder = match ctx.db.get_reminder(&ctx.keys, &entry.user_id, &entry.reminder_id).await {
        Ok(r) => r,
        Err(hibiki_common::Error::NotFound) => {
            ctx.db.finish_delivery(log_id, "cancelled", None).await?;
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let settings = ctx.db.settings(&entry.user_id).await?;
    let mut devices = ctx.db.subscription_keys(&entry.user_id).await?;
    if let Some(targets) = reminder.send_to.as_ref().filter(|t| !t.is_empty()) {
        devices.retain(|d| targets.contains(&d.id));
    }
    if devices.is_empty() {
        ctx.db.finish_delivery(log_id, "no_devices", None).await?;
        metrics::counter!("hibiki_pushes_total", "outcome" => "no_devices").increment(1);
        return Ok(());
    }
    let payload = notification::reminder(
        &reminder.id,
        log_id,
        &ctx.keys.action_token(log_id),
        &reminder.title,
        reminder.description.as_deref(),
        &settings.language,
        settings.hide_notification_content,
        entry.late,
    );
    // The Topic lets a push service replace an undelivered duplicate instead of adding one.
    let topic: String = log_id.chars().filter(|c| c.is_ascii_alphanumeric()).take(32).collect();
    let options = PushOptions { ttl: REMINDER_TTL, urgency_high: true };
    // The scheduler claims a moment ahead of the second; the push never leaves before it.
    let wait = entry.occurrence_at.duration_since(Timestamp::now());
    if wait.is_positive() {
        tokio::time::sleep(wait.unsigned_abs()).await;
    }
    let claims = join_all(devices.iter().map(|d| send_to_device(ctx, log_id, d, &payload, Some(&topic), options))).await;
    for claim in claims {
        claim?; // the database failed: the job is retried, sent devices stay sent
    }
    settle(ctx, &entry).await
}

/// Closes the entry once no device is in flight; the last worker to finish a device of it
/// closes it. A device still `sending` belongs to a live worker, or to a dead one whose claim
/// goes stale: the scheduler's reconcile pass enqueues the entry again, and a later job takes
/// the device over.
async fn settle(ctx: &DeliveryContext, entry: &PendingDelivery) -> Result<(), DeliveryError> {
    let progress = ctx.db.device_progress(&entry.log_id).await?;
    if progress.in_flight > 0 {
        return Ok(());
    }
    let status = if progress.sent > 0 { "sent" } else { "failed" };
    let closed = ctx.db.finish_delivery(&entry.log_id, status, progress.first_sent_at).await?;
    if let (true, Some(at)) = (closed, progress.first_sent_at)
        && entry.kind != "manual"
    {
        let lateness = at.duration_since(entry.occurrence_at).as_secs_f64().max(0.0);
        metrics::histogram!("hibiki_delivery_lateness_seconds").record(lateness);
    }
    Ok(())
}

/// Sends to one device with the decided handling of each answer, unless another worker holds
/// the device's claim. Errs only when the database does.
async fn send_to_device(ctx: &DeliveryContext, log_id: &str, device: &SubscriptionKeys, payload: &PushPayload, topic: Option<&str>, options: PushOptions) -> Result<(), DeliveryError> {
    if !ctx.db.claim_device_delivery(log_id, &device.id, Timestamp::now(), STALE_SEND).await? {
        return Ok(());
    }
    let mut bytes = notification::to_bytes(payload);
    let mut shortened = false;
    let mut attempt = 0;
    let (status, response) = loop {
        attempt += 1;
        let outcome = {
            let _permit = ctx.sends.acquire().await.expect("never closed");
            ctx.client.send(device, &bytes, topic, options).await
        };
        match outcome {
            PushOutcome::Delivered(code) => break ("sent", Some(code)),
            PushOutcome::Gone(code) => {
                let _ = ctx.db.delete_subscription(&device.id).await;
                break ("gone", Some(code));
            }
            PushOutcome::TooLarge if !shortened => {
                // Some services take less than 4 KiB: send the bare minimum once more.
                shortened = true;
                bytes = notification::to_bytes(&notification::fit(payload.clone(), 512));
            }
            PushOutcome::TooLarge => break ("failed", Some(413)),
            PushOutcome::Retry { status, after } if attempt < MAX_ATTEMPTS => {
                let delay = ctx.retry.delay(attempt, after);
                tracing::info!(?status, ?delay, attempt, "push service asked to retry");
                metrics::counter!("hibiki_push_retries_total").increment(1);
                tokio::time::sleep(delay).await;
            }
            PushOutcome::Retry { status, .. } => break ("failed", status),
            PushOutcome::Failed { status, reason } => {
                tracing::warn!(?status, reason, "push failed");
                break ("failed", status);
            }
        }
    };
    let now = Timestamp::now();
    metrics::counter!("hibiki_pushes_total", "outcome" => status).increment(1);
    ctx.db.finish_device_delivery(log_id, &device.id, status, response, now).await?;
    if status == "sent" && ctx.success_due(&device.id) {
        let _ = ctx.db.subscription_succeeded(&device.id, now).await;
    }
    Ok(())
}

async fn test(ctx: &DeliveryContext, user_id: &str) -> Result<(), DeliveryError> {
    let lang = ctx.db.settings(user_id).await?.language;
    let bytes = notification::to_bytes(&notification::test(&lang));
    let options = PushOptions { ttl: TEST_TTL, urgency_high: false };
    for device in ctx.db.subscription_keys(user_id).await? {
        match ctx.client.send(&device, &bytes, None, options).await {
            PushOutcome::Gone(_) => ctx.db.delete_subscription(&device.id).await?,
            outcome => tracing::info!(?outcome, "test push"),
        }
    }
    Ok(())
}

pub type SharedContext = Arc<DeliveryContext>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_unless_told_when() {
        let retry = RetryTiming::default();
        let delays: Vec<_> = (1..MAX_ATTEMPTS).map(|a| retry.delay(a, None)).collect();
        assert_eq!(delays, [Duration::from_secs(2), Duration::from_secs(4), Duration::from_secs(8)]);
        assert_eq!(retry.delay(1, Some(Duration::from_secs(3))), Duration::from_secs(3));
        assert_eq!(retry.delay(1, Some(Duration::ZERO)), Duration::from_millis(200));
        assert_eq!(retry.delay(1, Some(Duration::from_secs(3600))), Duration::from_secs(60));
        let fast = RetryTiming { base: Duration::from_millis(100) };
        assert_eq!(fast.delay(1, None), Duration::from_millis(200));
        assert_eq!(fast.delay(3, None), Duration::from_millis(800));
    }
}
