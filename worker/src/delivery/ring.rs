//! The ring job: delivery log entries (a job carries up to 250) to each of their people's
//! devices once, and to their channels, at the entries' second.

use std::collections::HashSet;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use hibiki_common::domain::ids::{LogId, SubscriptionId, UserId};
use hibiki_common::domain::routing;
use hibiki_common::domain::states::{DeviceDeliveryStatus, EntryKind, EntryStatus};
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::storage::{DeviceResult, Outgoing, Recipient, STALE_SEND, SubscriptionKeys};
use jiff::Timestamp;

use crate::payload::{self, PushMessage, ReminderPush};
use crate::push::{PreparedPush, PushOptions, PushOutcome};

use super::*;

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
        super::escalation::escalate(ctx, entry).await?;
    }

    // Everyone the entries ring for, each on their own devices.
    let users: Vec<UserId> = live
        .iter()
        .flat_map(|e| e.content.as_ref().expect("partitioned").recipients.iter().map(|r| r.user_id))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let devices = ctx.db.devices_of(&users).await?;
    let channels = ctx.db.channel_targets(&ctx.keys, &users, hibiki_common::infra::storage::Purpose::Ring).await?;
    let mut channel_work = Vec::new();
    let mut targets: Vec<(&Outgoing, &Recipient, Vec<SubscriptionKeys>)> = Vec::new();
    let mut no_devices = Vec::new();
    // People with no device to ring: their email fallback (if on) is due at once.
    let mut unreachable: Vec<(LogId, UserId)> = Vec::new();
    for entry in &live {
        let content = entry.content.as_ref().expect("partitioned");
        let people: Vec<UserId> = content.recipients.iter().map(|r| r.user_id).collect();
        // One rule (domain::routing) for this and for Send now's answer.
        let route = routing::route(&people, content.send_to.as_deref(), &devices, &channels);
        if route.no_devices() {
            no_devices.push(entry.log_id);
        }
        unreachable.extend(route.unreachable().map(|person| (entry.log_id, person)));
        for (person, part) in content.recipients.iter().zip(route.people) {
            if !part.channels.is_empty() {
                let held_until = content.released.get(&person.user_id).copied();
                channel_work.push(ChannelWork {
                    at: held_until.map_or(entry.occurrence_at, |at| at.max(entry.occurrence_at)),
                    targets: part.channels,
                    message: channel_message(ctx, entry, content, person, held_until.is_some()),
                });
            }
            if !part.devices.is_empty() {
                targets.push((entry, person, part.devices));
            }
        }
    }
    if !no_devices.is_empty() {
        metrics::counter!(hibiki_common::metric_names::PUSHES_TOTAL, "outcome" => "no_devices").increment(no_devices.len() as u64);
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
pub(super) fn token_for(keys: &Keys, log_id: &LogId, owner: &UserId, person: &UserId) -> String {
    if person == owner { keys.action_token(log_id) } else { keys.member_action_token(log_id, person) }
}

/// An entry's ring as `person` gets it (their language, hide content, the held mark since its
/// time in their zone), and their action token.
pub(super) fn ring_for(
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
pub(super) fn channel_message(
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
pub(super) fn topic_of(log_id: &LogId) -> String {
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
            metrics::histogram!(hibiki_common::metric_names::DELIVERY_LATENESS_SECONDS).record(lateness);
        }
    }
    Ok(())
}

pub(super) fn result_of(log_id: &LogId, device: &SubscriptionKeys, outcome: &PushOutcome, at: Timestamp) -> DeviceResult {
    let (status, response) = match outcome {
        PushOutcome::Delivered(code) => (DeviceDeliveryStatus::Sent, Some(*code)),
        PushOutcome::Gone(code) => (DeviceDeliveryStatus::Gone, Some(*code)),
        PushOutcome::TooLarge => (DeviceDeliveryStatus::Failed, Some(413)),
        PushOutcome::Retry { status, .. } | PushOutcome::Failed { status, .. } => (DeviceDeliveryStatus::Failed, *status),
    };
    metrics::counter!(hibiki_common::metric_names::PUSHES_TOTAL, "outcome" => status.as_str()).increment(1);
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
                metrics::counter!(hibiki_common::metric_names::PUSH_RETRIES_TOTAL).increment(1);
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
