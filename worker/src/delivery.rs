//! The push worker's job: deliver delivery log entries (a job carries up to 250) to each of
//! their users' devices, once.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use hibiki_common::domain::ids::{LogId, SubscriptionId, UserId};
use hibiki_common::domain::states::{DeviceDeliveryStatus, EntryKind, EntryStatus};
use hibiki_common::domain::time::Clock;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::jobs::PushJob;
use hibiki_common::infra::storage::{Db, DeviceResult, Outgoing, Recipient, STALE_SEND, SubscriptionKeys};
use jiff::Timestamp;
use tokio::sync::Semaphore;

use crate::payload::{self, PushMessage, ReminderPush};
use crate::push::{PreparedPush, PushClient, PushOptions, PushOutcome};
use crate::recorder::{RecordError, Recorder};

const MAX_ATTEMPTS: u32 = 4;
pub use crate::push::MAX_SENDS_IN_FLIGHT;
/// Jobs reading, claiming and encrypting at once: the rest wait their turn instead of
/// crowding the database pool in a burst (they have until their second).
const PREPARING_AT_ONCE: usize = 8;
const REMINDER_TTL: u32 = 4 * 3600;
const TEST_TTL: u32 = 60;
/// After a 413, the message once more with its texts cut to fit this (ids, token and URLs
/// are kept whole, so it cannot be much smaller).
pub const SHORT_PAYLOAD_BYTES: usize = 1024;

pub struct DeliveryContext {
    pub db: Db,
    pub keys: Keys,
    pub client: PushClient,
    pub retry: RetryTiming,
    /// The app's public URL: the notification opens the reminder there.
    pub public_url: String,
    /// What "now" is: pushes go out at their entry's second by it.
    pub clock: Clock,
    /// The operator's Telegram bot and LINE channel (none configured: both off).
    pub bots: Arc<hibiki_common::infra::bots::Bots>,
    /// The queues, for what a delivery hands on (an escalation's email).
    pub queues: Option<hibiki_common::infra::queue::Queues>,
    preparing: Semaphore,
    recorder: Recorder,
}

impl DeliveryContext {
    /// Needs a tokio runtime: it starts the process's recorder task.
    pub fn new(db: Db, keys: Keys, client: PushClient, retry: RetryTiming, public_url: String, clock: Clock) -> DeliveryContext {
        let recorder = Recorder::start(db.clone());
        let bots = Arc::new(hibiki_common::infra::bots::Bots::none());
        DeliveryContext {
            db,
            keys,
            client,
            retry,
            public_url,
            clock,
            bots,
            queues: None,
            preparing: Semaphore::new(PREPARING_AT_ONCE),
            recorder,
        }
    }

    /// The same, handing on to these queues.
    pub fn with_queues(mut self, queues: hibiki_common::infra::queue::Queues) -> DeliveryContext {
        self.queues = Some(queues);
        self
    }

    /// The same, with the operator's bots.
    pub fn with_bots(mut self, bots: Arc<hibiki_common::infra::bots::Bots>) -> DeliveryContext {
        self.bots = bots;
        self
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
    #[error(transparent)]
    Record(#[from] RecordError),
}

pub async fn run_job(ctx: &DeliveryContext, job: PushJob) -> Result<(), DeliveryError> {
    match job {
        PushJob::Deliver { log_id } => deliver(ctx, &[log_id]).await,
        PushJob::DeliverBatch { log_ids } => deliver(ctx, &log_ids).await,
        PushJob::Test { user_id } => test(ctx, &user_id).await,
        PushJob::Done { log_id, by } => done(ctx, &log_id, &by).await,
        PushJob::Brief { user_id } => brief(ctx, &user_id).await,
        PushJob::ChannelFallback { log_id, user_id } => channel_fallback(ctx, &log_id, &user_id).await,
        PushJob::ChannelTest { channel_id } => channel_test(ctx, &channel_id).await,
        PushJob::BotReply { reply } => {
            // A reply that cannot go is not worth a retry storm: logged and dropped.
            if let Err(e) = crate::bots::reply(&ctx.bots, &reply).await {
                tracing::warn!(error = %e, "could not send a bot reply");
            }
            Ok(())
        }
    }
}

/// One push to one device, encrypted and waiting for its second.
struct Ready {
    log_id: LogId,
    device: SubscriptionKeys,
    at: Timestamp,
    payload: PushMessage,
    push: PreparedPush,
}

/// Delivers delivery log entries to their users' devices. Safe to run twice: each (entry,
/// device) pair is claimed in the database before it is sent. Everything but the sending
/// happens before the entries' second: read, claim, encrypt; then the pushes go out at it.
#[tracing::instrument(name = "delivery", skip_all, fields(entries = log_ids.len()))]
pub async fn deliver(ctx: &DeliveryContext, log_ids: &[LogId]) -> Result<(), DeliveryError> {
    let started = std::time::Instant::now();
    let Some((ready, live, channel_work)) = prepare(ctx, log_ids).await? else { return Ok(()) };
    let (pushes, prepared) = (ready.len(), started.elapsed());
    let ahead_ms = ready.iter().map(|r| r.at.as_millisecond()).min().map(|at| at - ctx.clock.now().as_millisecond());
    let (_, channels) = futures::join!(send_at_their_second(ctx, ready), send_to_channels(ctx, channel_work));
    channels?;
    let sent = started.elapsed();
    ctx.recorder.flush().await?;
    let _turn = ctx.preparing.acquire().await.expect("never closed");
    settle(ctx, &live).await?;
    tracing::debug!(
        entries = log_ids.len(),
        pushes,
        prepared_ms = prepared.as_millis() as u64,
        ahead_ms,
        sent_ms = sent.as_millis() as u64,
        done_ms = started.elapsed().as_millis() as u64,
        "delivery job"
    );
    Ok(())
}

/// A ring for a person's channels, sent at its second.
struct ChannelWork {
    at: Timestamp,
    targets: Vec<hibiki_common::infra::storage::ChannelTarget>,
    message: crate::channels::ChannelMessage,
}

/// Sends each ring to its channels at its second (never before), side by side.
async fn send_to_channels(ctx: &DeliveryContext, work: Vec<ChannelWork>) -> Result<(), DeliveryError> {
    let sends = work.into_iter().flat_map(|w| w.targets.into_iter().map(move |t| (w.at, t, w.message.clone()))).collect();
    crate::channels::send_all(ctx, sends, hibiki_common::infra::storage::Purpose::Ring).await
}

type Prepared = (Vec<Ready>, Vec<LogId>, Vec<ChannelWork>);

/// Reads the entries, claims their devices and encrypts their pushes; answers the pushes, the
/// entries to settle afterwards and the rings for channels (None when there is nothing left
/// to do).
async fn prepare(ctx: &DeliveryContext, log_ids: &[LogId]) -> Result<Option<Prepared>, DeliveryError> {
    let _turn = ctx.preparing.acquire().await.expect("never closed");
    let entries = ctx.db.outgoing(&ctx.keys, log_ids).await?;
    if entries.is_empty() {
        return Ok(None);
    }
    let (live, deleted): (Vec<_>, Vec<_>) = entries.into_iter().partition(|e| e.content.is_some());
    ctx.db.close_deliveries(&deleted.into_iter().map(|e| e.log_id).collect::<Vec<_>>(), EntryStatus::Cancelled).await?;
    let (escalations, live): (Vec<_>, Vec<_>) = live.into_iter().partition(|e| e.kind == EntryKind::Escalation);
    for entry in &escalations {
        escalate(ctx, entry).await?;
    }

    // Everyone the entries ring for, each on their own devices.
    let users: Vec<UserId> = live
        .iter()
        .flat_map(|e| e.content.as_ref().expect("partitioned").recipients.iter().map(|r| r.user_id))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let devices = ctx.db.devices_of(&users).await?;
    let mut channels = ctx.db.channel_targets(&ctx.keys, &users, hibiki_common::infra::storage::Purpose::Ring).await?;
    let mut channel_work = Vec::new();
    let mut targets: Vec<(&Outgoing, &Recipient, Vec<SubscriptionKeys>)> = Vec::new();
    let mut no_devices = Vec::new();
    // People with no device to ring: their email fallback (if on) is due at once.
    let mut unreachable: Vec<(LogId, UserId)> = Vec::new();
    for entry in &live {
        let content = entry.content.as_ref().expect("partitioned");
        let before = targets.len();
        for person in &content.recipients {
            if let Some(targets) = channels.get_mut(&person.user_id).filter(|t| !t.is_empty()) {
                let held_until = content.released.get(&person.user_id).copied();
                channel_work.push(ChannelWork {
                    at: held_until.map_or(entry.occurrence_at, |at| at.max(entry.occurrence_at)),
                    targets: targets.clone(),
                    message: channel_message(ctx, entry, content, person, held_until.is_some()),
                });
            }
            let mut to: Vec<SubscriptionKeys> = devices.get(&person.user_id).cloned().unwrap_or_default();
            // `send_to` names devices of whoever chose them: it narrows only their own.
            if let Some(named) = content.send_to.as_ref().filter(|t| !t.is_empty())
                && to.iter().any(|d| named.contains(&d.id))
            {
                to.retain(|d| named.contains(&d.id));
            }
            if to.is_empty() {
                unreachable.push((entry.log_id, person.user_id));
            } else {
                targets.push((entry, person, to));
            }
        }
        if targets.len() == before {
            no_devices.push(entry.log_id);
        }
    }
    if !no_devices.is_empty() {
        metrics::counter!("hibiki_pushes_total", "outcome" => "no_devices").increment(no_devices.len() as u64);
        ctx.db.close_deliveries(&no_devices, EntryStatus::NoDevices).await?;
    }
    if !unreachable.is_empty() {
        ctx.db.fallback_now(&unreachable).await?;
    }

    let latest = targets.iter().map(|(e, ..)| e.occurrence_at).max().unwrap_or_else(Timestamp::now);
    let badges = if targets.is_empty() { Default::default() } else { ctx.db.overdue_counts(&users, latest).await? };
    let pairs: Vec<(LogId, SubscriptionId, UserId, Timestamp)> =
        targets.iter().flat_map(|(e, person, to)| to.iter().map(|d| (e.log_id, d.id, person.user_id, e.occurrence_at))).collect();
    let claimed = ctx.db.claim_devices(&pairs, ctx.clock.now(), STALE_SEND).await?;
    let mut ready = Vec::new();
    let options = PushOptions { ttl: REMINDER_TTL, urgency_high: true };
    for (entry, person, to) in &targets {
        let content = entry.content.as_ref().expect("partitioned");
        // Held for their quiet hours: it goes at their end, saying when it was due.
        let held_until = content.released.get(&person.user_id).copied();
        let overdue = Some(badges.get(&person.user_id).copied().unwrap_or(0));
        let (payload, _) = ring_for(ctx, entry, content, person, held_until.is_some(), overdue);
        let topic = topic_of(&entry.log_id);
        for device in to {
            if !claimed.contains(&(entry.log_id, device.id)) {
                continue; // sent already, or another worker is sending it
            }
            match ctx.client.prepare(device, &payload::to_bytes(&payload), Some(&topic), options) {
                Ok(push) => ready.push(Ready {
                    log_id: entry.log_id,
                    device: device.clone(),
                    at: held_until.map_or(entry.occurrence_at, |at| at.max(entry.occurrence_at)),
                    payload: payload.clone(),
                    push,
                }),
                Err(outcome) => ctx.recorder.record(result_of(&entry.log_id, device, &outcome, ctx.clock.now())),
            }
            if ready.len() % 32 == 0 {
                // Encryption is CPU work: let the rest of the process run between slices.
                tokio::task::yield_now().await;
            }
        }
    }
    drop(targets);
    Ok(Some((ready, live.into_iter().map(|e| e.log_id).collect(), channel_work)))
}

/// The action token of an entry's ring to `person`: the entry's own for its owner, one that
/// names a member otherwise, so an act says who.
fn token_for(keys: &Keys, log_id: &LogId, owner: &UserId, person: &UserId) -> String {
    if person == owner { keys.action_token(log_id) } else { keys.member_action_token(log_id, person) }
}

/// An entry's ring as `person` gets it (their language, hide content, the held mark since its
/// time in their zone), and their action token.
fn ring_for(
    ctx: &DeliveryContext,
    entry: &Outgoing,
    content: &hibiki_common::infra::storage::OutgoingContent,
    person: &Recipient,
    held: bool,
    overdue: Option<u32>,
) -> (PushMessage, String) {
    let token = token_for(&ctx.keys, &entry.log_id, &entry.user_id, &person.user_id);
    let held_from = held.then(|| hibiki_common::domain::time::hh_mm(entry.occurrence_at, &person.timezone));
    let push = ReminderPush {
        reminder_id: &entry.reminder_id,
        log_id: &entry.log_id,
        action_token: &token,
        kind: entry.kind,
        title: &content.title,
        description: content.description.as_deref(),
        lang: person.language,
        hide_content: person.hide_content,
        late: entry.late && !held,
        held_from: held_from.as_deref(),
        overdue,
    };
    (payload::reminder(&push, &ctx.public_url), token)
}

/// What an entry's ring says on one person's channels: as their push would.
fn channel_message(
    ctx: &DeliveryContext,
    entry: &Outgoing,
    content: &hibiki_common::infra::storage::OutgoingContent,
    person: &Recipient,
    held: bool,
) -> crate::channels::ChannelMessage {
    let (message, token) = ring_for(ctx, entry, content, person, held, None);
    let n = message.notification;
    crate::channels::ChannelMessage {
        reminder_id: entry.reminder_id,
        log_id: entry.log_id,
        kind: entry.kind,
        occurrence_at: entry.occurrence_at,
        title: n.title,
        body: n.body,
        hidden: person.hide_content,
        lang: person.language,
        action_token: Some(token),
    }
}

/// The Topic lets a push service replace an undelivered duplicate instead of adding one.
fn topic_of(log_id: &LogId) -> String {
    // A UUID's 32 hex digits: within the Topic's 32 URL-safe characters.
    log_id.as_uuid().simple().to_string()
}

/// Releases each push at its entry's second (never before) and sends them side by side; the
/// answers go to the recorder as they come.
async fn send_at_their_second(ctx: &DeliveryContext, mut ready: Vec<Ready>) {
    ready.sort_by_key(|r| std::cmp::Reverse(r.at));
    let mut sending = FuturesUnordered::new();
    loop {
        let now = ctx.clock.now();
        while ready.last().is_some_and(|r| r.at <= now) {
            let item = ready.pop().expect("checked");
            sending.push(send_one(ctx, item));
        }
        let Some(next) = ready.last().map(|r| r.at) else { break };
        tokio::select! {
            Some(result) = sending.next(), if !sending.is_empty() => ctx.recorder.record(result),
            _ = ctx.clock.sleep_until(next) => {}
        }
    }
    while let Some(result) = sending.next().await {
        ctx.recorder.record(result);
    }
}

/// Closes the entries whose devices are all done; the last worker to finish a device of an
/// entry closes it. A device still `sending` belongs to a live worker, or to a dead one whose
/// claim goes stale: the scheduler's reconcile pass enqueues the entry again, and a later job
/// takes the device over.
async fn settle(ctx: &DeliveryContext, log_ids: &[LogId]) -> Result<(), DeliveryError> {
    for closed in ctx.db.settle_deliveries(log_ids).await? {
        if let (Some(at), false) = (closed.sent_at, matches!(closed.kind, EntryKind::SendNow | EntryKind::Trigger)) {
            let lateness = at.duration_since(closed.occurrence_at).as_secs_f64().max(0.0);
            metrics::histogram!("hibiki_delivery_lateness_seconds").record(lateness);
        }
    }
    Ok(())
}

fn result_of(log_id: &LogId, device: &SubscriptionKeys, outcome: &PushOutcome, at: Timestamp) -> DeviceResult {
    let (status, response) = match outcome {
        PushOutcome::Delivered(code) => (DeviceDeliveryStatus::Sent, Some(*code)),
        PushOutcome::Gone(code) => (DeviceDeliveryStatus::Gone, Some(*code)),
        PushOutcome::TooLarge => (DeviceDeliveryStatus::Failed, Some(413)),
        PushOutcome::Retry { status, .. } | PushOutcome::Failed { status, .. } => (DeviceDeliveryStatus::Failed, *status),
    };
    metrics::counter!("hibiki_pushes_total", "outcome" => status.as_str()).increment(1);
    DeviceResult { log_id: *log_id, subscription_id: device.id, status, response, at }
}

/// Sends one prepared push with the decided handling of each answer: retries with backoff,
/// a shorter message once after 413, and a gone subscription removed.
async fn send_one(ctx: &DeliveryContext, item: Ready) -> DeviceResult {
    let Ready { log_id, device, payload, mut push, .. } = item;
    let mut shortened = false;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let outcome = ctx.client.send_prepared(&push).await;
        let outcome = match outcome {
            PushOutcome::Gone(_) => {
                let _ = ctx.db.delete_subscription(&device.id).await;
                outcome
            }
            PushOutcome::TooLarge if !shortened => {
                // Some services take less than 4 KiB: send the bare minimum once more.
                shortened = true;
                let small = payload::to_bytes(&payload::fit(payload.clone(), SHORT_PAYLOAD_BYTES));
                match ctx.client.prepare(&device, &small, Some(&topic_of(&log_id)), PushOptions { ttl: REMINDER_TTL, urgency_high: true }) {
                    Ok(p) => {
                        push = p;
                        continue;
                    }
                    Err(outcome) => outcome,
                }
            }
            PushOutcome::Retry { status, after } if attempt < MAX_ATTEMPTS => {
                let delay = ctx.retry.delay(attempt, after);
                tracing::info!(?status, ?delay, attempt, "push service asked to retry");
                metrics::counter!("hibiki_push_retries_total").increment(1);
                tokio::time::sleep(delay).await;
                continue;
            }
            PushOutcome::Failed { status, ref reason } => {
                tracing::warn!(?status, reason, "push failed");
                outcome
            }
            other => other,
        };
        return result_of(&log_id, &device, &outcome, ctx.clock.now());
    }
}

async fn test(ctx: &DeliveryContext, user_id: &UserId) -> Result<(), DeliveryError> {
    let lang = ctx.db.settings(user_id).await?.language;
    let bytes = payload::to_bytes(&payload::test(lang, &ctx.public_url));
    let options = PushOptions { ttl: TEST_TTL, urgency_high: false };
    for device in ctx.db.subscription_keys(user_id).await? {
        match ctx.client.send(&device, &bytes, None, options).await {
            PushOutcome::Gone(_) => ctx.db.delete_subscription(&device.id).await?,
            outcome => tracing::info!(?outcome, "test push"),
        }
    }
    Ok(())
}

/// Replaces the others' notifications of a shared occurrence that `by` completed with a quiet
/// one saying so. Sent again if the job runs twice: the same tag replaces, so a person still
/// sees one notification.
async fn done(ctx: &DeliveryContext, log_id: &LogId, by: &UserId) -> Result<(), DeliveryError> {
    let Some(message) = ctx.db.done_message(&ctx.keys, log_id, by).await? else { return Ok(()) };
    let options = PushOptions { ttl: REMINDER_TTL, urgency_high: false };
    for (device, person) in &message.targets {
        let payload =
            payload::done(&message.reminder_id, &message.title, &message.by, person.language, person.hide_content, &ctx.public_url);
        match ctx.client.send(device, &payload::to_bytes(&payload), Some(&topic_of(log_id)), options).await {
            PushOutcome::Gone(_) => ctx.db.delete_subscription(&device.id).await?,
            outcome => tracing::debug!(?outcome, "done push"),
        }
    }
    metrics::counter!("hibiki_done_pushes_total").increment(message.targets.len() as u64);
    Ok(())
}

/// Carries out an escalation entry's step for the people its repeat rang for: an email to
/// each, their channels, or a push to another member of the list saying who has not done it.
async fn escalate(ctx: &DeliveryContext, entry: &Outgoing) -> Result<(), DeliveryError> {
    use hibiki_common::domain::alarms::EscalateTo;
    let (Some(content), Some(step)) = (entry.content.as_ref(), entry.escalation) else {
        ctx.db.close_deliveries(&[entry.log_id], EntryStatus::Cancelled).await?;
        return Ok(());
    };
    let occurrence = ctx.db.delivery(&entry.log_id).await?.map_or(entry.occurrence_at, |d| d.occurrence());
    let mut reached = false;
    match step.to {
        EscalateTo::Email => {
            if let Some(queues) = &ctx.queues {
                for person in &content.recipients {
                    let job = hibiki_common::infra::jobs::MailJob::Escalation { user_id: person.user_id, log_id: entry.log_id };
                    match queues.mail(job).await {
                        Ok(()) => reached = true,
                        Err(e) => tracing::warn!(error = %e, "could not queue an escalation email"),
                    }
                }
            }
        }
        EscalateTo::Channels => {
            let people: Vec<UserId> = content.recipients.iter().map(|r| r.user_id).collect();
            let mut targets = ctx.db.channel_targets(&ctx.keys, &people, hibiki_common::infra::storage::Purpose::Test).await?;
            for person in &content.recipients {
                let Some(to) = targets.remove(&person.user_id) else { continue };
                let message = channel_message(ctx, entry, content, person, false);
                let now = ctx.clock.now();
                let sends = to.into_iter().map(|t| (now, t, message.clone())).collect();
                crate::channels::send_all(ctx, sends, hibiki_common::infra::storage::Purpose::Ring).await?;
                reached = true;
            }
        }
        EscalateTo::Member => {
            let Some(member) = step.member_id else { return Ok(()) };
            let Some(helper) = ctx.db.recipient(&member).await? else {
                ctx.db.close_deliveries(&[entry.log_id], EntryStatus::NoDevices).await?;
                return Ok(());
            };
            let mut who = Vec::new();
            for person in &content.recipients {
                if let Some((email, _)) = ctx.db.mail_recipient(&person.user_id).await? {
                    who.push(email.as_str().to_owned());
                }
            }
            let texts = crate::texts::push(helper.language);
            let time = hibiki_common::domain::time::hh_mm(occurrence, &helper.timezone);
            let who = who.join(", ");
            let title = if helper.hide_content {
                crate::texts::fill(&texts.escalation_hidden, &[("who", &who), ("time", &time)])
            } else {
                crate::texts::fill(&texts.escalation_title, &[("who", &who), ("title", &content.title), ("time", &time)])
            };
            let token = ctx.keys.member_action_token(&entry.log_id, &member);
            let push = ReminderPush {
                reminder_id: &entry.reminder_id,
                log_id: &entry.log_id,
                action_token: &token,
                kind: entry.kind,
                title: &title,
                description: None,
                lang: helper.language,
                hide_content: false,
                late: false,
                held_from: None,
                overdue: None,
            };
            let bytes = payload::to_bytes(&payload::reminder(&push, &ctx.public_url));
            let options = PushOptions { ttl: REMINDER_TTL, urgency_high: true };
            for device in ctx.db.subscription_keys(&member).await? {
                match ctx.client.send(&device, &bytes, Some(&topic_of(&entry.log_id)), options).await {
                    PushOutcome::Delivered(_) => reached = true,
                    PushOutcome::Gone(_) => ctx.db.delete_subscription(&device.id).await?,
                    outcome => tracing::info!(?outcome, "escalation push"),
                }
            }
        }
    }
    metrics::counter!("hibiki_escalations_total", "to" => step.to.as_str()).increment(1);
    ctx.db.close_deliveries(&[entry.log_id], if reached { EntryStatus::Sent } else { EntryStatus::NoDevices }).await?;
    Ok(())
}

/// The fallback of an entry no device showed to `user_id`, to their channels that take it.
async fn channel_fallback(ctx: &DeliveryContext, log_id: &LogId, user_id: &UserId) -> Result<(), DeliveryError> {
    use hibiki_common::infra::storage::Purpose;
    let targets = ctx.db.channel_targets(&ctx.keys, &[*user_id], Purpose::Fallback).await?.remove(user_id).unwrap_or_default();
    if targets.is_empty() {
        return Ok(());
    }
    let (Some(entry), Some(mail)) = (ctx.db.delivery(log_id).await?, ctx.db.fallback_mail(&ctx.keys, log_id, user_id).await?) else {
        return Ok(());
    };
    if mail.settled {
        return Ok(());
    }
    let token = token_for(&ctx.keys, log_id, &entry.user_id, user_id);
    let push = ReminderPush {
        reminder_id: &entry.reminder_id,
        log_id,
        action_token: &token,
        kind: entry.kind,
        title: &mail.title,
        description: mail.description.as_deref(),
        lang: mail.language,
        hide_content: mail.hide_content,
        late: false,
        held_from: None,
        overdue: None,
    };
    let n = payload::reminder(&push, &ctx.public_url).notification;
    let message = crate::channels::ChannelMessage {
        reminder_id: entry.reminder_id,
        log_id: *log_id,
        kind: entry.kind,
        occurrence_at: entry.occurrence_at,
        title: n.title,
        body: n.body,
        hidden: mail.hide_content,
        lang: mail.language,
        action_token: Some(token),
    };
    let now = ctx.clock.now();
    crate::channels::send_all(ctx, targets.into_iter().map(|t| (now, t, message.clone())).collect(), Purpose::Fallback).await
}

/// A channel's test message, in its person's language; the answer sets its state.
async fn channel_test(ctx: &DeliveryContext, channel_id: &hibiki_common::domain::ids::ChannelId) -> Result<(), DeliveryError> {
    use hibiki_common::infra::storage::Purpose;
    let Some(target) = ctx.db.channel_target(&ctx.keys, channel_id).await? else { return Ok(()) };
    let lang = ctx.db.settings(&target.user_id).await?.language;
    let texts = crate::texts::push(lang);
    let message = crate::channels::ChannelMessage {
        reminder_id: hibiki_common::domain::ids::ReminderId::from(uuid::Uuid::nil()),
        log_id: LogId::from(uuid::Uuid::nil()),
        kind: hibiki_common::domain::states::EntryKind::SendNow,
        occurrence_at: ctx.clock.now(),
        title: texts.test_title.clone(),
        body: texts.test_body.clone(),
        hidden: false,
        lang,
        action_token: None,
    };
    let (ok, status) = crate::channels::send(ctx, &target, &message).await;
    ctx.db.record_channel_send(None, channel_id, Purpose::Test, ok, status).await?;
    Ok(())
}

/// The person's daily brief to each of their devices; nothing on an empty day.
async fn brief(ctx: &DeliveryContext, user_id: &UserId) -> Result<(), DeliveryError> {
    let store = hibiki_common::infra::storage::Store { db: ctx.db.clone(), keys: ctx.keys.clone() };
    let (brief, settings) = match hibiki_common::usecases::brief::today(&store, user_id, ctx.clock.now()).await {
        Ok(found) => found,
        Err(hibiki_common::Error::NotFound) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if brief.is_empty() {
        metrics::counter!("hibiki_briefs_total", "outcome" => "empty").increment(1);
        return Ok(());
    }
    let lang = settings.language;
    let body = crate::brief::lines(&brief, lang, &settings.timezone, settings.hide_notification_content);
    let title = &crate::texts::push(lang).brief_title;
    // To one of their channels, when they chose one.
    let via_channel = settings.daily_brief.as_ref().and_then(|b| b.via.parse::<hibiki_common::domain::ids::ChannelId>().ok());
    if let Some(channel_id) = via_channel
        && let Some(target) = ctx.db.channel_target(&ctx.keys, &channel_id).await?
        && target.user_id == *user_id
    {
        let message = crate::channels::ChannelMessage {
            reminder_id: hibiki_common::domain::ids::ReminderId::from(uuid::Uuid::nil()),
            log_id: LogId::from(uuid::Uuid::nil()),
            kind: hibiki_common::domain::states::EntryKind::Occurrence,
            occurrence_at: ctx.clock.now(),
            title: title.clone(),
            body,
            hidden: settings.hide_notification_content,
            lang,
            action_token: None,
        };
        let (ok, status) = crate::channels::send(ctx, &target, &message).await;
        ctx.db.record_channel_send(None, &channel_id, hibiki_common::infra::storage::Purpose::Test, ok, status).await?;
        metrics::counter!("hibiki_briefs_total", "outcome" => "channel").increment(1);
        return Ok(());
    }
    let message = payload::brief(title, &body, lang, &ctx.public_url);
    let options = PushOptions { ttl: REMINDER_TTL, urgency_high: false };
    for device in ctx.db.subscription_keys(user_id).await? {
        match ctx.client.send(&device, &payload::to_bytes(&message), Some("hibikibrief"), options).await {
            PushOutcome::Gone(_) => ctx.db.delete_subscription(&device.id).await?,
            outcome => tracing::debug!(?outcome, "brief push"),
        }
    }
    metrics::counter!("hibiki_briefs_total", "outcome" => "push").increment(1);
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
