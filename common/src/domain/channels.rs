//! Channels besides Web Push and email (decisions.md "Reach and rhythm"): what a person links
//! (ntfy, a webhook, Telegram, LINE), the rules for their addresses, and what a webhook
//! delivery says and how it is signed (Standard Webhooks).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::ids::{LogId, ReminderId};
use crate::domain::push_endpoint::{self, EndpointError};
use crate::domain::states::EntryKind;

/// At most this many channels per person.
pub const MAX_CHANNELS: i64 = 10;
/// A channel's test may be sent once per this many seconds.
pub const TEST_EVERY_SECS: i64 = 60;
/// Failed sends in a row after which a channel shows `failing`.
pub const FAILING_AFTER: i64 = 3;
/// A webhook secret's prefix (Standard Webhooks).
pub const WEBHOOK_SECRET_PREFIX: &str = "whsec_";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    Ntfy,
    Webhook,
    Telegram,
    Line,
}

impl ChannelKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelKind::Ntfy => "ntfy",
            ChannelKind::Webhook => "webhook",
            ChannelKind::Telegram => "telegram",
            ChannelKind::Line => "line",
        }
    }

    pub fn parse(word: &str) -> Option<ChannelKind> {
        [ChannelKind::Ntfy, ChannelKind::Webhook, ChannelKind::Telegram, ChannelKind::Line].into_iter().find(|k| k.as_str() == word)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChannelStatus {
    /// Telegram or LINE, not linked yet.
    Pending,
    Active,
    /// Its last sends failed.
    Failing,
}

impl ChannelStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ChannelStatus::Pending => "pending",
            ChannelStatus::Active => "active",
            ChannelStatus::Failing => "failing",
        }
    }

    pub fn parse(word: &str) -> ChannelStatus {
        match word {
            "pending" => ChannelStatus::Pending,
            "failing" => ChannelStatus::Failing,
            _ => ChannelStatus::Active,
        }
    }
}

/// What a channel is used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ChannelUse {
    /// Every ring goes there too.
    pub rings: bool,
    /// The fallback, when no device showed a ring (beside the email).
    pub fallback: bool,
}

/// A channel as its person sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Channel {
    #[schema(value_type = String)]
    pub id: crate::domain::ids::ChannelId,
    pub kind: ChannelKind,
    pub label: String,
    pub status: ChannelStatus,
    #[serde(rename = "use")]
    pub uses: ChannelUse,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

/// `POST /api/channels` body.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct NewChannel {
    pub kind: ChannelKind,
    /// ntfy: the topic URL; webhook: the URL to POST to.
    pub url: Option<String>,
    /// ntfy: an access token for a protected topic.
    pub token: Option<String>,
}

/// `PUT /api/channels/{id}` body.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ChannelPatch {
    pub label: Option<String>,
    #[serde(rename = "use")]
    pub uses: Option<ChannelUsePatch>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, ToSchema)]
pub struct ChannelUsePatch {
    pub rings: Option<bool>,
    pub fallback: Option<bool>,
}

/// The longest label.
pub const MAX_LABEL_CHARS: usize = 60;

/// Checks a channel URL: the rules of push endpoints (https, a public address, no
/// credentials, port 443), so a person cannot aim the server at its own network.
pub fn check_url(url: &str, allow_private: bool) -> Result<url::Url, EndpointError> {
    push_endpoint::parse(url.trim(), allow_private)
}

/// The label a new channel gets: where it goes (its kind is shown beside it), or the kind's
/// name for Telegram and LINE.
pub fn default_label(kind: ChannelKind, url: Option<&url::Url>) -> String {
    let place = url.map(|u| format!("{}{}", u.host_str().unwrap_or_default(), u.path().trim_end_matches('/'))).unwrap_or_default();
    let name = match kind {
        ChannelKind::Ntfy => "ntfy",
        ChannelKind::Webhook => "Webhook",
        ChannelKind::Telegram => "Telegram",
        ChannelKind::Line => "LINE",
    };
    let label = if place.is_empty() { name.to_owned() } else { place };
    label.chars().take(MAX_LABEL_CHARS).collect()
}

/// An ntfy topic URL split into where its server publishes JSON (the URL's path without the
/// topic) and the topic.
pub fn ntfy_publish_target(topic_url: &url::Url) -> Option<(url::Url, String)> {
    let mut segments: Vec<&str> = topic_url.path_segments()?.filter(|s| !s.is_empty()).collect();
    let topic = segments.pop()?.to_owned();
    let mut root = topic_url.clone();
    root.set_query(None);
    root.set_fragment(None);
    root.set_path(&format!("{}/", segments.iter().map(|s| format!("/{s}")).collect::<String>()));
    Some((root, topic))
}

/// A webhook's signing secret: `whsec_` and 24 random bytes in base64.
pub fn new_webhook_secret(random: [u8; 24]) -> String {
    format!("{WEBHOOK_SECRET_PREFIX}{}", STANDARD.encode(random))
}

/// The `webhook-signature` header's value for a delivery (Standard Webhooks: HMAC-SHA256 of
/// `id.timestamp.body` with the secret's base64 part, `v1,` and the signature in base64).
pub fn webhook_signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(WEBHOOK_SECRET_PREFIX).unwrap_or(secret)).ok()?;
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &key);
    let mut ctx = ring::hmac::Context::with_key(&key);
    ctx.update(format!("{id}.{timestamp}.").as_bytes());
    ctx.update(body);
    Some(format!("v1,{}", STANDARD.encode(ctx.sign().as_ref())))
}

/// A webhook delivery of a ring (api.md "Webhook delivery").
#[derive(Debug, Clone, Serialize)]
pub struct WebhookRing {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub timestamp: String,
    pub data: WebhookRingData,
}

#[derive(Debug, Clone, Serialize)]
pub struct WebhookRingData {
    pub reminder_id: ReminderId,
    pub log_id: LogId,
    pub kind: EntryKind,
    pub occurrence_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    pub actions: WebhookActions,
}

/// URLs that complete or snooze with the entry's action token (POST, no other auth).
#[derive(Debug, Clone, Serialize)]
pub struct WebhookActions {
    pub complete: String,
    pub snooze: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_hmac_sha256_of_id_timestamp_and_body() {
        // Standard Webhooks' published example (secret, id, timestamp, payload, signature).
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            webhook_signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn an_ntfy_topic_url_publishes_to_its_server_root() {
        let (root, topic) = ntfy_publish_target(&"https://ntfy.example/alerts".parse().unwrap()).unwrap();
        assert_eq!((root.as_str(), topic.as_str()), ("https://ntfy.example/", "alerts"));
        let (root, topic) = ntfy_publish_target(&"https://h.example/ntfy/mine?x=1".parse().unwrap()).unwrap();
        assert_eq!((root.as_str(), topic.as_str()), ("https://h.example/ntfy/", "mine"));
        assert!(ntfy_publish_target(&"https://ntfy.example/".parse().unwrap()).is_none());
    }

    #[test]
    fn channel_urls_follow_the_push_endpoint_rules() {
        assert!(check_url("https://ntfy.sh/topic", false).is_ok());
        assert!(check_url("http://ntfy.sh/topic", false).is_err());
        assert!(check_url("https://127.0.0.1/hook", false).is_err());
        assert!(check_url("https://user:pw@example.com/hook", false).is_err());
        assert!(check_url("https://example.com:8443/hook", false).is_err());
    }
}
