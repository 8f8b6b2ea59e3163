//! Channel jobs: the fallback of an entry no device showed, to the channels that take it,
//! and a channel's test message.

use hibiki_common::domain::ids::{LogId, UserId};

use crate::payload::{self, ReminderPush};

use super::ring::token_for;
use super::*;

/// The fallback of an entry no device showed to `user_id`, to their channels that take it.
pub(super) async fn channel_fallback(ctx: &DeliveryContext, log_id: &LogId, user_id: &UserId) -> Result<(), DeliveryError> {
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
pub(super) async fn channel_test(ctx: &DeliveryContext, channel_id: &hibiki_common::domain::ids::ChannelId) -> Result<(), DeliveryError> {
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
