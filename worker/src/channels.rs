//! Rings, fallbacks and tests sent to a person's channels (decisions.md "Reach and rhythm"):
//! an ntfy publish (title, message, high priority, http actions for Complete and Snooze,
//! `click` = the reminder's page) and a webhook signed as Standard Webhooks do. In the person's
//! language, with "hide content" honoured; each send is taken once (`channel_sends`) and
//! retried with backoff; failures in a row mark the channel `failing`.

use std::time::Duration;

use hibiki_common::domain::channels::{ChannelKind, WebhookActions, WebhookRing, WebhookRingData, ntfy_publish_target, webhook_signature};
use hibiki_common::domain::ids::{LogId, ReminderId};
use hibiki_common::domain::states::{EntryKind, Language};
use hibiki_common::infra::storage::{ChannelTarget, Purpose};
use jiff::Timestamp;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};
use serde_json::json;

use crate::delivery::{DeliveryContext, DeliveryError};
use crate::payload::app_url;
use crate::push::PushOutcome;

const ATTEMPTS: u32 = 3;

/// What a channel message says, in its person's words.
#[derive(Debug, Clone)]
pub struct ChannelMessage {
    pub reminder_id: ReminderId,
    pub log_id: LogId,
    pub kind: EntryKind,
    pub occurrence_at: Timestamp,
    pub title: String,
    pub body: String,
    /// "Hide content": title and body say only that a reminder is due.
    pub hidden: bool,
    pub lang: Language,
    /// The person's action token for this entry: Complete and Snooze go with it. None: a
    /// message without actions (a test, the daily brief).
    pub action_token: Option<String>,
}

/// The URL that completes or snoozes an entry with its action token (POST, no other auth).
pub fn action_url(base: &str, log_id: &LogId, action: &str, token: &str) -> String {
    format!("{}/api/actions/{log_id}/{action}?t={token}", base.trim_end_matches('/'))
}

/// The request a channel gets for a message: URL, headers, JSON body.
pub fn request(target: &ChannelTarget, m: &ChannelMessage, base: &str, now: Timestamp) -> Option<(String, HeaderMap, Vec<u8>)> {
    let texts = crate::texts::push(m.lang);
    let actions = m
        .action_token
        .as_deref()
        .map(|token| (action_url(base, &m.log_id, "complete", token), action_url(base, &m.log_id, "snooze", token)));
    let page = match &actions {
        Some(_) => app_url(base, m.lang, &format!("/reminders?reminder={}", m.reminder_id)),
        None => app_url(base, m.lang, "/reminders"),
    };
    let mut headers = HeaderMap::new();
    match target.kind {
        ChannelKind::Ntfy => {
            let url: url::Url = target.address.parse().ok()?;
            let (root, topic) = ntfy_publish_target(&url)?;
            if let Some(token) = target.secret.as_deref().filter(|t| !t.is_empty()) {
                headers.insert(AUTHORIZATION, HeaderValue::from_str(&format!("Bearer {token}")).ok()?);
            }
            let mut body = json!({ "topic": topic, "title": m.title, "message": m.body, "priority": 5, "click": page });
            if let Some((complete, snooze)) = &actions {
                body["actions"] = json!([
                    { "action": "http", "label": texts.complete, "url": complete, "method": "POST", "clear": true },
                    { "action": "http", "label": texts.snooze, "url": snooze, "method": "POST", "clear": true },
                ]);
            }
            Some((root.to_string(), headers, serde_json::to_vec(&body).ok()?))
        }
        ChannelKind::Webhook => {
            let body = match actions {
                Some((complete, snooze)) => serde_json::to_vec(&WebhookRing {
                    kind: "reminder.ring",
                    timestamp: now.to_string(),
                    data: WebhookRingData {
                        reminder_id: m.reminder_id,
                        log_id: m.log_id,
                        kind: m.kind,
                        occurrence_at: m.occurrence_at.to_string(),
                        title: (!m.hidden).then(|| m.title.clone()),
                        body: (!m.hidden).then(|| m.body.clone()),
                        actions: WebhookActions { complete, snooze },
                    },
                })
                .ok()?,
                // A test or the daily brief: what it says, nothing to act on.
                None => serde_json::to_vec(&json!({
                    "type": if m.kind == EntryKind::SendNow { "channel.test" } else { "daily.brief" },
                    "timestamp": now.to_string(),
                    "data": { "title": m.title, "body": m.body },
                }))
                .ok()?,
            };
            let id = format!("msg_{}", uuid::Uuid::new_v4().simple());
            let at = now.as_second();
            let signature = webhook_signature(target.secret.as_deref()?, &id, at, &body)?;
            headers.insert(HeaderName::from_static("webhook-id"), HeaderValue::from_str(&id).ok()?);
            headers.insert(HeaderName::from_static("webhook-timestamp"), HeaderValue::from(at));
            headers.insert(HeaderName::from_static("webhook-signature"), HeaderValue::from_str(&signature).ok()?);
            Some((target.address.clone(), headers, body))
        }
        // Sent through the operator's bot (`send` below hands them to crate::bots).
        ChannelKind::Telegram | ChannelKind::Line => None,
    }
}

/// Sends a message to a channel, retrying what may be retried; answers whether it went and
/// the last status.
pub async fn send(ctx: &DeliveryContext, target: &ChannelTarget, m: &ChannelMessage) -> (bool, Option<u16>) {
    let mut delay = ctx.retry.base.max(Duration::from_millis(200));
    if matches!(target.kind, ChannelKind::Telegram | ChannelKind::Line) {
        // Through the operator's bot.
        for attempt in 1..=ATTEMPTS {
            let sent = match target.kind {
                ChannelKind::Telegram => crate::bots::send_telegram(&ctx.bots, &target.address, m).await,
                _ => crate::bots::send_line(&ctx.bots, &target.address, m).await,
            };
            match sent {
                Ok(()) => return (true, Some(200)),
                Err(hibiki_common::infra::bots::BotError::Refused(status, why)) if status < 500 && status != 429 => {
                    tracing::warn!(status, why, "the bot API refused a message");
                    return (false, Some(status));
                }
                Err(e) if attempt < ATTEMPTS => {
                    tracing::info!(error = %e, attempt, "a bot message failed for now");
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
                Err(_) => return (false, None),
            }
        }
        return (false, None);
    }
    for attempt in 1..=ATTEMPTS {
        let Some((url, headers, body)) = request(target, m, &ctx.public_url, ctx.clock.now()) else {
            return (false, None);
        };
        match ctx.client.post_json(&url, headers, body).await {
            PushOutcome::Delivered(status) => return (true, Some(status)),
            PushOutcome::Retry { status, after } if attempt < ATTEMPTS => {
                tokio::time::sleep(after.unwrap_or(delay).min(Duration::from_secs(30))).await;
                delay *= 2;
                let _ = status;
            }
            PushOutcome::Retry { status, .. } | PushOutcome::Failed { status, .. } => return (false, status),
            PushOutcome::Gone(status) => return (false, Some(status)),
            PushOutcome::TooLarge => return (false, Some(413)),
        }
    }
    (false, None)
}

/// Sends messages to channels for `purpose`, each (entry, channel) once (a second run finds
/// it taken): taken in one statement, each sent at its instant (never before), side by side,
/// and the answers recorded in one pass. A burst costs the database a few statements, not
/// three round trips per send.
pub async fn send_all(
    ctx: &DeliveryContext,
    sends: Vec<(Timestamp, ChannelTarget, ChannelMessage)>,
    purpose: Purpose,
) -> Result<(), DeliveryError> {
    if sends.is_empty() {
        return Ok(());
    }
    let pairs: Vec<_> = sends.iter().map(|(_, t, m)| (m.log_id, t.id)).collect();
    let taken = ctx.db.claim_channel_sends(&pairs, purpose, ctx.clock.now()).await?;
    let results = futures::future::join_all(sends.into_iter().filter(|(_, t, m)| taken.contains(&(m.log_id, t.id))).map(
        |(at, target, m)| async move {
            ctx.clock.sleep_until(at).await;
            let (ok, status) = send(ctx, &target, &m).await;
            metrics::counter!(hibiki_common::metric_names::CHANNEL_SENDS_TOTAL, "kind" => target.kind.as_str(), "outcome" => if ok { "sent" } else { "failed" })
            .increment(1);
            if !ok {
                tracing::warn!(channel = %target.id, ?status, "a channel send failed");
            }
            (m.log_id, target.id, ok, status)
        },
    ))
    .await;
    ctx.db.record_channel_sends(&results, purpose).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hibiki_common::domain::ids::{ChannelId, UserId};

    fn message(hidden: bool) -> ChannelMessage {
        ChannelMessage {
            reminder_id: ReminderId::generate(),
            log_id: LogId::generate(),
            kind: EntryKind::Occurrence,
            occurrence_at: "2026-11-26T09:00:00Z".parse().unwrap(),
            title: if hidden { "Reminder".into() } else { "Pills".into() },
            body: "It's time.".into(),
            hidden,
            lang: Language::En,
            action_token: Some("tok".into()),
        }
    }

    fn target(kind: ChannelKind, address: &str, secret: Option<&str>) -> ChannelTarget {
        ChannelTarget {
            id: ChannelId::generate(),
            user_id: UserId::generate(),
            kind,
            address: address.into(),
            secret: secret.map(Into::into),
        }
    }

    #[test]
    fn ntfy_publishes_json_to_the_server_with_actions_and_the_token() {
        let m = message(false);
        let (url, headers, body) =
            request(&target(ChannelKind::Ntfy, "https://ntfy.example/pills", Some("tk_x")), &m, "https://h.example", Timestamp::UNIX_EPOCH)
                .unwrap();
        assert_eq!(url, "https://ntfy.example/");
        assert_eq!(headers[AUTHORIZATION], "Bearer tk_x");
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!((body["topic"].as_str(), body["title"].as_str(), body["priority"].as_i64()), (Some("pills"), Some("Pills"), Some(5)));
        assert_eq!(body["actions"][0]["url"], format!("https://h.example/api/actions/{}/complete?t=tok", m.log_id));
    }

    #[test]
    fn a_webhook_is_signed_and_hides_content_when_asked() {
        let m = message(true);
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let (url, headers, body) =
            request(&target(ChannelKind::Webhook, "https://hook.example/in", Some(secret)), &m, "https://h.example", Timestamp::UNIX_EPOCH)
                .unwrap();
        assert_eq!(url, "https://hook.example/in");
        let id = headers["webhook-id"].to_str().unwrap();
        let expected = webhook_signature(secret, id, 0, &body).unwrap();
        assert_eq!(headers["webhook-signature"].to_str().unwrap(), expected);
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["type"], "reminder.ring");
        assert!(body["data"].get("title").is_none() && body["data"].get("body").is_none(), "{body}");
        assert_eq!(body["data"]["actions"]["snooze"], format!("https://h.example/api/actions/{}/snooze?t=tok", m.log_id));
    }
}
