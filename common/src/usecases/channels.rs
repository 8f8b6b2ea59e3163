//! A person's channels: linking one (per kind: a URL checked and a webhook's secret made, or a
//! bot's link code), testing one, and acting on a ring from a channel's message.

use jiff::Timestamp;
use serde::Serialize;
use utoipa::ToSchema;

use super::Context;
use super::reminders::{self, NotificationAct, Proof};
use crate::domain::channels::{self, Channel, ChannelKind, ChannelStatus, NewChannel, new_webhook_secret};
use crate::domain::ids::{ChannelId, LogId, UserId};
use crate::domain::states::NotificationAction;
use crate::error::FieldCode;
use crate::infra::jobs::SendJob;
use crate::infra::storage::{NewChannelRow, link_code_hash};
use crate::{Error, Result};

/// A new channel, with what it is shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedChannel {
    #[serde(flatten)]
    pub channel: Channel,
    /// A webhook's signing secret (`whsec_…`), shown only now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Telegram: open this (`https://t.me/<bot>?start=<code>`) and press Start to link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// LINE: send this code to the bot to link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// LINE: the bot's add-friend link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub friend_url: Option<String>,
}

/// Links a channel for `owner`: an ntfy topic or a webhook at once (the URL checked against
/// private addresses unless `allow_private`), Telegram or LINE pending until the person sends
/// the bot the code this answers.
pub async fn create(cx: Context<'_>, owner: &UserId, input: &NewChannel, allow_private: bool, now: Timestamp) -> Result<CreatedChannel> {
    let (db, keys) = (&cx.store.db, &cx.store.keys);
    let created = match input.kind {
        ChannelKind::Ntfy | ChannelKind::Webhook => {
            let Some(raw) = input.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) else {
                return Err(Error::field("url", FieldCode::Required.because("url is required")));
            };
            let url = channels::check_url(raw, allow_private).map_err(|e| Error::EndpointRejected(e.to_string()))?;
            if input.kind == ChannelKind::Ntfy && channels::ntfy_publish_target(&url).is_none() {
                return Err(Error::field("url", FieldCode::InvalidFormat.because("an ntfy topic URL, like https://ntfy.sh/your-topic")));
            }
            let token = input.token.as_deref().map(str::trim).filter(|t| !t.is_empty());
            if token.is_some_and(|t| t.len() > 200 || t.chars().any(|c| c.is_control() || c.is_whitespace())) {
                return Err(Error::field("token", FieldCode::InvalidFormat.because("an ntfy access token")));
            }
            let secret = (input.kind == ChannelKind::Webhook).then(|| new_webhook_secret(crate::infra::crypto::random_bytes()));
            let label = channels::default_label(input.kind, Some(&url));
            let row = NewChannelRow {
                kind: input.kind,
                label: &label,
                status: ChannelStatus::Active,
                address: Some(url.as_str()),
                secret: if input.kind == ChannelKind::Webhook { secret.as_deref() } else { token },
                link_code: None,
            };
            let channel = db.create_channel(keys, owner, row, now).await?;
            CreatedChannel { channel, secret, link: None, code: None, friend_url: None }
        }
        ChannelKind::Telegram => {
            if !cx.bots.telegram_enabled() {
                return Err(Error::ChannelUnavailable);
            }
            let bot = cx.bots.telegram_username().await.map_err(|e| {
                tracing::warn!(error = %e, "the Telegram bot could not be asked its name");
                Error::Unavailable("telegram")
            })?;
            // A code no one can guess: the link is the whole secret.
            let code = keys.token();
            let channel = db
                .create_channel(
                    keys,
                    owner,
                    pending(ChannelKind::Telegram, "Telegram", &link_code_hash(keys, ChannelKind::Telegram, &code)),
                    now,
                )
                .await?;
            let link = format!("https://t.me/{bot}?start={code}");
            CreatedChannel { channel, secret: None, link: Some(link), code: None, friend_url: None }
        }
        ChannelKind::Line => {
            if !cx.bots.line_enabled() {
                return Err(Error::ChannelUnavailable);
            }
            let basic_id = cx.bots.line_basic_id().await.map_err(|e| {
                tracing::warn!(error = %e, "the LINE channel could not be asked its id");
                Error::Unavailable("line")
            })?;
            // Typed by hand into LINE: ten letters and digits that cannot be confused.
            let code = typed_code(crate::infra::crypto::random_bytes());
            let channel = db
                .create_channel(keys, owner, pending(ChannelKind::Line, "LINE", &link_code_hash(keys, ChannelKind::Line, &code)), now)
                .await?;
            let friend_url = format!("https://line.me/R/ti/p/{basic_id}");
            CreatedChannel { channel, secret: None, link: None, code: Some(code), friend_url: Some(friend_url) }
        }
    };
    metrics::counter!(crate::metric_names::CHANNELS_CREATED_TOTAL, "kind" => input.kind.as_str()).increment(1);
    Ok(created)
}

/// A bot channel's row until the person sends the bot its code.
fn pending<'a>(kind: ChannelKind, label: &'a str, link_code: &'a str) -> NewChannelRow<'a> {
    NewChannelRow { kind, label, status: ChannelStatus::Pending, address: None, secret: None, link_code: Some(link_code) }
}

/// A link code to type: 10 characters of an alphabet without look-alikes (about 50 bits).
fn typed_code(random: [u8; 10]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    random.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect()
}

/// Sends a test message to a linked channel (once a minute per channel); the send's answer
/// sets the channel's status. A pending channel is not found: it has nowhere to send yet.
pub async fn test(cx: Context<'_>, owner: &UserId, id: &ChannelId, now: Timestamp) -> Result<()> {
    let channel = cx.store.db.channel(owner, id).await?;
    if channel.status == ChannelStatus::Pending {
        return Err(Error::NotFound);
    }
    cx.store.db.take_channel_test(owner, id, now).await?;
    cx.queues.push(SendJob::ChannelTest { channel_id: *id }).await.map_err(|_| Error::Unavailable("push queue"))
}

/// What a channel message's action link did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct ActedByLink {
    /// What was done: `complete` or `snooze` (the person's default snooze).
    pub action: NotificationAction,
    /// Whether this act changed anything (the same act twice changes nothing).
    pub changed: bool,
}

/// Completes or snoozes an entry from a channel's message: the entry's action token stands in
/// for a session. `None` for a wrong token or entry. A Complete on a shared reminder tells the
/// others.
pub async fn act_by_link(
    cx: Context<'_>,
    log_id: LogId,
    action: NotificationAction,
    token: &str,
    now: Timestamp,
) -> Result<Option<ActedByLink>> {
    let Some(entry) = cx.store.db.delivery(&log_id).await? else { return Ok(None) };
    let act = NotificationAct { reminder_id: entry.reminder_id, log_id, action, snooze_minutes: None, snooze_until: None };
    let proof = Proof { user: None, action_token: Some(token) };
    let Some(acted) = reminders::act_on_notification(cx.store, act, proof, now).await? else { return Ok(None) };
    if acted.changed {
        metrics::counter!(crate::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => action.as_str()).increment(1);
        if acted.shared && action == NotificationAction::Complete {
            super::ring::tell_the_others(cx, log_id, acted.actor).await;
        }
    }
    Ok(Some(ActedByLink { action, changed: acted.changed }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_code_uses_only_letters_and_digits_that_cannot_be_confused() {
        let code = typed_code([0, 8, 14, 24, 31, 32, 255, 1, 2, 3]);
        assert_eq!(code.len(), 10);
        assert!(!code.contains(['I', 'O', '0', '1']), "{code}");
        // the alphabet wraps: 0 and 32 are the same letter
        assert_eq!(code.chars().next(), code.chars().nth(5));
    }
}
