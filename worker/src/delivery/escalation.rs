//! The escalation job: an escalation entry's step for the people its repeat rang for.

use hibiki_common::domain::ids::UserId;
use hibiki_common::domain::states::EntryStatus;
use hibiki_common::infra::storage::Outgoing;

use crate::payload::{self, ReminderPush};
use crate::push::{PushOptions, PushOutcome};

use super::ring::{channel_message, topic_of};
use super::*;

/// Carries out an escalation entry's step for the people its repeat rang for: an email to
/// each, their channels, or a push to another member of the list saying who has not done it.
pub(super) async fn escalate(ctx: &DeliveryContext, entry: &Outgoing) -> Result<(), DeliveryError> {
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
    metrics::counter!(hibiki_common::metric_names::ESCALATIONS_TOTAL, "to" => step.to.as_str()).increment(1);
    ctx.db.close_deliveries(&[entry.log_id], if reached { EntryStatus::Sent } else { EntryStatus::NoDevices }).await?;
    Ok(())
}
