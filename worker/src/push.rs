//! Sending Web Push messages. The `web-push` crate builds and encrypts each message (RFC 8291
//! aes128gcm) and signs VAPID (RFC 8292); sending goes through our own pooled HTTP client,
//! which enforces the endpoint rules on every resolved address, follows no redirects, has
//! connect and total timeouts, and reports Retry-After.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hibiki_common::keys::VapidKeys;
use hibiki_common::push_endpoint;
use hibiki_common::storage::SubscriptionKeys;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use web_push::{ContentEncoding, SubscriptionInfo, Urgency, VapidSignature, VapidSignatureBuilder, WebPushMessageBuilder};

/// The largest plaintext the `web-push` crate encrypts; ours stays under it so the encrypted
/// message stays under the 4096 bytes push services accept.
pub const MAX_PLAINTEXT: usize = 3000;
/// A VAPID signature is reused for this long per push-service origin (it is valid for 12 h).
const VAPID_REUSE: Duration = Duration::from_secs(3600);

#[derive(Debug, Clone, Copy)]
pub struct PushOptions {
    pub ttl: u32,
    pub urgency_high: bool,
}

/// What a push service answered, as the delivery logic needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushOutcome {
    Delivered(u16),
    /// 404/410: the subscription is gone for good.
    Gone(u16),
    /// 413: the payload is too large for this service.
    TooLarge,
    /// 429/5xx or a network failure: worth retrying after the given delay.
    Retry { status: Option<u16>, after: Option<Duration> },
    /// Any other answer, or an endpoint we refuse to call.
    Failed { status: Option<u16>, reason: String },
}

/// Resolves push-service hosts and refuses any answer that is not a public address, so a
/// hostname cannot lead the server into its own network, whatever it resolved to before.
struct SafeResolver {
    allow_private: bool,
}

impl Resolve for SafeResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            let ips: Vec<_> = addrs.iter().map(|a| a.ip()).collect();
            push_endpoint::check_resolved(&ips, allow_private).map_err(|e| -> Box<dyn std::error::Error + Send + Sync> { Box::new(e) })?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

pub struct PushClient {
    http: reqwest::Client,
    vapid: VapidKeys,
    subject: String,
    allow_private: bool,
    signatures: Mutex<HashMap<String, (VapidSignature, Instant)>>,
}

impl PushClient {
    pub fn new(vapid: VapidKeys, subject: String, allow_private: bool) -> anyhow::Result<PushClient> {
        let http = reqwest::Client::builder()
            .dns_resolver(std::sync::Arc::new(SafeResolver { allow_private }))
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .tcp_nodelay(true)
            .pool_max_idle_per_host(256)
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent("Hibiki")
            .build()?;
        Ok(PushClient { http, vapid, subject, allow_private, signatures: Mutex::new(HashMap::new()) })
    }

    /// One VAPID signature per push-service origin, reused for an hour.
    fn signature(&self, origin: &str, info: &SubscriptionInfo) -> Result<VapidSignature, String> {
        let mut cache = self.signatures.lock().expect("not poisoned");
        if let Some((sig, at)) = cache.get(origin)
            && at.elapsed() < VAPID_REUSE {
                return Ok(sig.clone());
            }
        let mut builder = VapidSignatureBuilder::from_base64(&self.vapid.private_key, info).map_err(|e| e.to_string())?;
        builder.add_claim("sub", self.subject.as_str());
        // The audience is the origin with its port (the crate would leave a port out).
        builder.add_claim("aud", origin);
        let sig = builder.build().map_err(|e| e.to_string())?;
        metrics::counter!("hibiki_vapid_signatures_total").increment(1);
        cache.insert(origin.to_owned(), (sig.clone(), Instant::now()));
        Ok(sig)
    }

    /// Encrypts `payload` for the subscription and POSTs it.
    pub async fn send(&self, sub: &SubscriptionKeys, payload: &[u8], topic: Option<&str>, options: PushOptions) -> PushOutcome {
        let url = match push_endpoint::parse(&sub.endpoint, self.allow_private) {
            Ok(url) => url,
            Err(e) => return PushOutcome::Failed { status: None, reason: e.to_string() },
        };
        let origin = url.origin().ascii_serialization();
        let info = SubscriptionInfo::new(sub.endpoint.as_str(), sub.p256dh.as_str(), sub.auth.as_str());
        let signature = match self.signature(&origin, &info) {
            Ok(s) => s,
            Err(reason) => return PushOutcome::Failed { status: None, reason },
        };
        let mut builder = WebPushMessageBuilder::new(&info);
        builder.set_payload(ContentEncoding::Aes128Gcm, payload);
        builder.set_vapid_signature(signature);
        builder.set_ttl(options.ttl);
        builder.set_urgency(if options.urgency_high { Urgency::High } else { Urgency::Normal });
        if let Some(topic) = topic {
            builder.set_topic(topic.to_owned());
        }
        let message = match builder.build() {
            Ok(m) => m,
            Err(e) => return PushOutcome::Failed { status: None, reason: format!("could not build the message: {e}") },
        };
        let Some(body) = message.payload else { return PushOutcome::Failed { status: None, reason: "no payload".into() } };
        let mut request = self
            .http
            .post(url)
            .header("TTL", message.ttl.to_string())
            .header("Content-Encoding", body.content_encoding.to_str())
            .header("Content-Type", "application/octet-stream");
        if let Some(urgency) = message.urgency {
            request = request.header("Urgency", urgency.to_string());
        }
        if let Some(topic) = message.topic {
            request = request.header("Topic", topic);
        }
        for (name, value) in body.crypto_headers {
            request = request.header(name, value);
        }
        match request.body(body.content).send().await {
            Ok(response) => classify(response.status().as_u16(), retry_after(response.headers())),
            Err(e) if e.is_timeout() || e.is_connect() || e.is_request() => PushOutcome::Retry { status: None, after: None },
            Err(e) => PushOutcome::Failed { status: None, reason: e.to_string() },
        }
    }
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The decisions.md rules for push-service answers.
pub fn classify(status: u16, retry_after: Option<Duration>) -> PushOutcome {
    match status {
        200..=299 => PushOutcome::Delivered(status),
        404 | 410 => PushOutcome::Gone(status),
        413 => PushOutcome::TooLarge,
        429 | 500..=599 => PushOutcome::Retry { status: Some(status), after: retry_after },
        _ => PushOutcome::Failed { status: Some(status), reason: format!("push service answered {status}") },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_map_to_the_decided_handling() {
        assert_eq!(classify(201, None), PushOutcome::Delivered(201));
        assert_eq!(classify(202, None), PushOutcome::Delivered(202));
        assert_eq!(classify(404, None), PushOutcome::Gone(404));
        assert_eq!(classify(410, None), PushOutcome::Gone(410));
        assert_eq!(classify(413, None), PushOutcome::TooLarge);
        assert_eq!(classify(429, Some(Duration::from_secs(3))), PushOutcome::Retry { status: Some(429), after: Some(Duration::from_secs(3)) });
        assert_eq!(classify(503, None), PushOutcome::Retry { status: Some(503), after: None });
        assert!(matches!(classify(400, None), PushOutcome::Failed { status: Some(400), .. }));
        assert!(matches!(classify(403, None), PushOutcome::Failed { status: Some(403), .. }));
    }
}
