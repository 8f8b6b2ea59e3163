//! A person's devices: subscribing one for Web Push (its endpoint checked, where it points
//! included), a device saying it showed a ring, and the test push.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::{SignedDuration, Timestamp};

use super::Context;
use crate::domain::ids::{LogId, UserId};
use crate::domain::push_endpoint;
use crate::error::{FieldCode, FieldErrors};
use crate::infra::jobs::SendJob;
use crate::infra::storage::Store;
use crate::{Error, Result};

/// How often a person may send themselves a test push.
pub const TEST_PUSH_EVERY: SignedDuration = SignedDuration::from_secs(60);

/// What a browser's `PushSubscription` and the app say about a device.
#[derive(Debug, Clone, Copy)]
pub struct NewDevice<'a> {
    pub endpoint: &'a str,
    /// The browser's public key (URL-safe base64 of an uncompressed P-256 point).
    pub p256dh: &'a str,
    /// The browser's 16-byte auth secret (URL-safe base64).
    pub auth: &'a str,
    /// What the app says about the device: an object of at most 2 KiB, kept as sent.
    pub device_info: &'a serde_json::Value,
}

/// Subscribes (or refreshes) a device for `owner`; answers its subscription's id. The
/// endpoint must be a push service's https URL that resolves to public addresses (unless
/// `allow_private`); the keys must be what RFC 8291 encrypts to.
pub async fn subscribe(store: &Store, owner: &UserId, device: NewDevice<'_>, allow_private: bool, now: Timestamp) -> Result<String> {
    let url = push_endpoint::parse(device.endpoint, allow_private).map_err(|e| Error::EndpointRejected(e.to_string()))?;
    crate::infra::resolve::check_dns(&url, allow_private).await.map_err(|e| Error::EndpointRejected(e.to_string()))?;
    let mut errors = FieldErrors::default();
    if decoded_len(device.p256dh) != Some((65, 4)) {
        errors.add(
            "subscription.keys.p256dh",
            FieldCode::InvalidFormat.because("p256dh must be an uncompressed P-256 public key (URL-safe base64)"),
        );
    }
    if decoded_len(device.auth).map(|(n, _)| n) != Some(16) {
        errors.add("subscription.keys.auth", FieldCode::InvalidFormat.because("auth must be 16 bytes (URL-safe base64)"));
    }
    if device.device_info.to_string().len() > 2048 || !(device.device_info.is_object() || device.device_info.is_null()) {
        errors.add("device_info", FieldCode::InvalidFormat.because("device_info must be an object of at most 2 KiB").with("max", 2048));
    }
    errors.into_result()?;
    store.db.upsert_subscription(owner, url.as_str(), device.p256dh.trim(), device.auth.trim(), device.device_info, now).await
}

/// The decoded length and first byte of URL-safe base64 (padding allowed).
fn decoded_len(b64: &str) -> Option<(usize, u8)> {
    let bytes = URL_SAFE_NO_PAD.decode(b64.trim().trim_end_matches('=')).ok()?;
    Some((bytes.len(), bytes.first().copied().unwrap_or(0)))
}

/// A device showed a ring (`endpoint`: which one). The action token proves who it rang for:
/// the reminder's owner, or a member of its list. A wrong token or entry is not found.
pub async fn showed(store: &Store, log_id: &LogId, action_token: &str, endpoint: Option<&str>, now: Timestamp) -> Result<()> {
    let entry = store.db.delivery(log_id).await?.ok_or(Error::NotFound)?;
    let people = if store.keys.verify_action_token(log_id, action_token) {
        Vec::new()
    } else {
        store.db.reminder_people(&entry.reminder_id).await?.members
    };
    let whose = store.keys.action_token_holder(log_id, action_token, &entry.user_id, &people).ok_or(Error::NotFound)?;
    store.db.mark_shown(&entry.log_id, endpoint, &whose, now).await?;
    metrics::counter!(crate::metric_names::NOTIFICATIONS_SHOWN_TOTAL).increment(1);
    Ok(())
}

/// Queues a test push to every device of `owner`, at most once per [`TEST_PUSH_EVERY`].
pub async fn test_push(cx: Context<'_>, owner: &UserId, now: Timestamp) -> Result<()> {
    if cx.store.db.subscriptions(owner).await?.is_empty() {
        return Err(Error::SubscriptionNotFound);
    }
    if let Some(retry_after) = cx.store.db.claim_test_push(owner, now, TEST_PUSH_EVERY).await? {
        return Err(Error::RateLimited(retry_after));
    }
    cx.queues.push(SendJob::Test { user_id: *owner }).await.map_err(|_| Error::Unavailable("push queue"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_as_url_safe_base64_with_or_without_padding() {
        assert_eq!(decoded_len("AAAA"), Some((3, 0)));
        assert_eq!(decoded_len("BAA="), Some((2, 4)));
        assert_eq!(decoded_len(" BAA "), Some((2, 4)));
        assert_eq!(decoded_len("not base64!"), None);
    }
}
