//! Notices: a test push, the quiet `done` that replaces the others' notifications of a
//! shared occurrence, and the daily brief.

use hibiki_common::domain::ids::{LogId, UserId};

use crate::payload::{self};
use crate::push::{PushOptions, PushOutcome};

use super::ring::topic_of;
use super::*;

pub(super) async fn test(ctx: &DeliveryContext, user_id: &UserId) -> Result<(), DeliveryError> {
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
pub(super) async fn done(ctx: &DeliveryContext, log_id: &LogId, by: &UserId) -> Result<(), DeliveryError> {
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
    metrics::counter!(hibiki_common::metric_names::DONE_PUSHES_TOTAL).increment(message.targets.len() as u64);
    Ok(())
}

/// The person's daily brief to each of their devices; nothing on an empty day.
pub(super) async fn brief(ctx: &DeliveryContext, user_id: &UserId) -> Result<(), DeliveryError> {
    let store = hibiki_common::infra::storage::Store { db: ctx.db.clone(), keys: ctx.keys.clone() };
    let (brief, settings) = match hibiki_common::usecases::brief::today(&store, user_id, ctx.clock.now()).await {
        Ok(found) => found,
        Err(hibiki_common::Error::NotFound) => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if brief.is_empty() {
        metrics::counter!(hibiki_common::metric_names::BRIEFS_TOTAL, "outcome" => "empty").increment(1);
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
        metrics::counter!(hibiki_common::metric_names::BRIEFS_TOTAL, "outcome" => "channel").increment(1);
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
    metrics::counter!(hibiki_common::metric_names::BRIEFS_TOTAL, "outcome" => "push").increment(1);
    Ok(())
}
