//! Sending Web Push messages. Each message is encrypted on ring (RFC 8291 aes128gcm, see
//! `ece`); VAPID (RFC 8292) is signed by the `web-push` crate once per push-service origin and
//! reused for an hour. Sending goes through our own pooled HTTP client, which enforces the
//! endpoint rules on every resolved address, follows no redirects, has connect and total
//! timeouts, and reports Retry-After; a rate limit per push-service origin paces the sends.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use hibiki_common::domain::push_endpoint;
use hibiki_common::infra::config::Config;
use hibiki_common::infra::keys::VapidKeys;
use hibiki_common::infra::storage::SubscriptionKeys;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{AUTHORIZATION, CONTENT_ENCODING, CONTENT_TYPE, HeaderName, HeaderValue};
use ring::rand::SystemRandom;
use tokio::sync::Semaphore;
use web_push::{SubscriptionInfo, VapidSignature, VapidSignatureBuilder};

use crate::ece;

/// The largest plaintext we send: well under what fits in one message (`ece::MAX_PLAINTEXT`),
/// so the encrypted message stays under the 4096 bytes push services accept.
pub const MAX_PLAINTEXT: usize = 3000;
/// A VAPID signature is reused for this long per push-service origin (it is valid for 12 h).
const VAPID_REUSE: Duration = Duration::from_secs(3600);
const TTL: HeaderName = HeaderName::from_static("ttl");
const URGENCY: HeaderName = HeaderName::from_static("urgency");
const TOPIC: HeaderName = HeaderName::from_static("topic");
/// Forget the rate-limit state of origins not used lately once this many are tracked.
const LIMITER_KEYS_KEPT: usize = 1024;
/// Push requests one worker process has open at once (sockets, memory): the outer bound.
pub const MAX_SENDS_IN_FLIGHT: usize = 512;
/// Push requests one worker process has open to one push-service origin: a slow or silent
/// origin (a tarpit) holds at most this many of the process's sends, so every other origin's
/// pushes still go out on time.
pub const SENDS_PER_ORIGIN: usize = 32;
/// Origins whose budgets and VAPID headers are remembered; past it, idle ones are forgotten
/// (endpoints are chosen by clients, so nothing keyed by them may grow without bound).
const ORIGINS_KEPT: usize = 1024;

#[derive(Debug, Clone, Copy)]
pub struct PushOptions {
    pub ttl: u32,
    pub urgency_high: bool,
}

/// How the push client talks to push services.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushSettings {
    /// Accept endpoints on private and loopback addresses, http too (tests, emulators).
    pub allow_private: bool,
    pub connect_timeout: Duration,
    /// The whole request, from connecting to the end of the answer.
    pub timeout: Duration,
    /// Sends per second to one push-service origin (also the burst); a send waits its turn.
    pub rate_per_second: NonZeroU32,
}

impl Default for PushSettings {
    fn default() -> PushSettings {
        PushSettings {
            allow_private: false,
            connect_timeout: Duration::from_millis(5000),
            timeout: Duration::from_millis(15000),
            rate_per_second: NonZeroU32::new(1000).expect("non-zero"),
        }
    }
}

impl PushSettings {
    pub fn from_config(config: &Config) -> anyhow::Result<PushSettings> {
        Ok(PushSettings {
            allow_private: config.allow_private_push,
            connect_timeout: Duration::from_millis(config.push_connect_timeout_ms),
            timeout: Duration::from_millis(config.push_timeout_ms),
            rate_per_second: NonZeroU32::new(config.push_rate_per_second)
                .ok_or_else(|| anyhow::anyhow!("HIBIKI_PUSH_RATE_PER_SECOND must be at least 1"))?,
        })
    }
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
    Retry {
        status: Option<u16>,
        after: Option<Duration>,
    },
    /// Any other answer, or an endpoint we refuse to call.
    Failed {
        status: Option<u16>,
        reason: String,
    },
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

/// Tokio's clock for governor: the same as the monotonic clock, except that it stands still
/// with tokio's paused time in tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    type Instant = Instant;

    fn now(&self) -> Instant {
        tokio::time::Instant::now().into_std()
    }
}

/// A rate limit per push-service origin (GCRA, governor): `rate` sends per second with a burst
/// of `rate`. A send that is over the limit waits for its turn; nothing is dropped.
pub struct OriginLimiter<C: Clock = TokioClock> {
    limiter: RateLimiter<String, DefaultKeyedStateStore<String>, C, NoOpMiddleware<C::Instant>>,
    clock: C,
}

impl OriginLimiter<TokioClock> {
    pub fn new(rate_per_second: NonZeroU32) -> Self {
        Self::with_clock(rate_per_second, TokioClock)
    }
}

impl<C: Clock + Clone> OriginLimiter<C> {
    pub fn with_clock(rate_per_second: NonZeroU32, clock: C) -> Self {
        OriginLimiter { limiter: RateLimiter::dashmap_with_clock(Quota::per_second(rate_per_second), clock.clone()), clock }
    }

    /// Takes a turn for `origin` now, or says how long to wait before asking again.
    pub fn check(&self, origin: &str) -> Result<(), Duration> {
        self.limiter.check_key(&origin.to_owned()).map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Waits until `origin` has a turn, and takes it.
    pub async fn until_ready(&self, origin: &str) {
        let mut waited = false;
        while let Err(wait) = self.check(origin) {
            if !waited {
                metrics::counter!(hibiki_common::metric_names::PUSH_RATE_LIMITED_TOTAL).increment(1);
                waited = true;
            }
            tokio::time::sleep(wait.max(Duration::from_micros(100))).await;
        }
        if self.limiter.len() > LIMITER_KEYS_KEPT {
            self.limiter.retain_recent();
        }
    }
}

pub struct PushClient {
    http: reqwest::Client,
    vapid: VapidKeys,
    subject: String,
    settings: PushSettings,
    rng: SystemRandom,
    limiter: OriginLimiter,
    /// The Authorization header (VAPID token and key) per push-service origin, and when it was
    /// signed.
    signatures: Mutex<HashMap<String, (HeaderValue, Instant)>>,
    signed: AtomicU64,
    budgets: OriginBudgets,
    in_flight: Arc<Semaphore>,
}

/// Each push-service origin's share of the sends in flight.
struct OriginBudgets {
    per_origin: usize,
    origins: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl OriginBudgets {
    fn new(per_origin: usize) -> OriginBudgets {
        OriginBudgets { per_origin, origins: Mutex::new(HashMap::new()) }
    }

    fn of(&self, origin: &str) -> Arc<Semaphore> {
        let mut origins = self.origins.lock().expect("not poisoned");
        if origins.len() >= ORIGINS_KEPT && !origins.contains_key(origin) {
            // Forget the origins nobody is sending to right now.
            let full = self.per_origin;
            origins.retain(|_, budget| Arc::strong_count(budget) > 1 || budget.available_permits() < full);
        }
        origins.entry(origin.to_owned()).or_insert_with(|| Arc::new(Semaphore::new(self.per_origin))).clone()
    }

    fn len(&self) -> usize {
        self.origins.lock().expect("not poisoned").len()
    }
}

impl PushClient {
    pub fn new(vapid: VapidKeys, subject: String, settings: PushSettings) -> anyhow::Result<PushClient> {
        Self::build(vapid, subject, settings, None)
    }

    /// The same client that also trusts `root_der` (a DER certificate) for TLS, besides the
    /// public roots. Only for the benchmark's and tests' loopback push services; production
    /// uses `new`.
    #[doc(hidden)]
    pub fn with_root_certificate(vapid: VapidKeys, subject: String, settings: PushSettings, root_der: &[u8]) -> anyhow::Result<PushClient> {
        Self::build(vapid, subject, settings, Some(reqwest::Certificate::from_der(root_der)?))
    }

    fn build(
        vapid: VapidKeys,
        subject: String,
        settings: PushSettings,
        extra_root: Option<reqwest::Certificate>,
    ) -> anyhow::Result<PushClient> {
        let mut builder = reqwest::Client::builder()
            .dns_resolver(std::sync::Arc::new(SafeResolver { allow_private: settings.allow_private }))
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(settings.connect_timeout)
            .timeout(settings.timeout)
            .tcp_nodelay(true)
            .pool_max_idle_per_host(256)
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent("Hibiki");
        if let Some(root) = extra_root {
            builder = builder.add_root_certificate(root);
        }
        let http = builder.build()?;
        Ok(PushClient {
            http,
            vapid,
            subject,
            settings,
            rng: SystemRandom::new(),
            limiter: OriginLimiter::new(settings.rate_per_second),
            signatures: Mutex::new(HashMap::new()),
            signed: AtomicU64::new(0),
            budgets: OriginBudgets::new(SENDS_PER_ORIGIN),
            in_flight: Arc::new(Semaphore::new(MAX_SENDS_IN_FLIGHT)),
        })
    }

    /// Origins this client keeps a send budget for (bounded by `ORIGINS_KEPT` plus those busy).
    pub fn origins_tracked(&self) -> usize {
        self.budgets.len()
    }

    pub fn settings(&self) -> &PushSettings {
        &self.settings
    }

    /// How many VAPID signatures this client has made (one per origin and hour).
    pub fn vapid_signatures(&self) -> u64 {
        self.signed.load(Ordering::Relaxed)
    }

    /// One VAPID signature per push-service origin, reused for an hour, as the Authorization
    /// header's value.
    fn authorization(&self, origin: &str, endpoint: &str) -> Result<HeaderValue, String> {
        let mut cache = self.signatures.lock().expect("not poisoned");
        if let Some((header, at)) = cache.get(origin)
            && at.elapsed() < VAPID_REUSE
        {
            return Ok(header.clone());
        }
        if cache.len() >= ORIGINS_KEPT {
            cache.retain(|_, (_, at)| at.elapsed() < VAPID_REUSE);
            if cache.len() >= ORIGINS_KEPT {
                // All fresh: clients chose many origins at once. Signing again is cheap.
                cache.clear();
            }
        }
        // The builder wants a subscription but signs only with our key and the claims.
        let info = SubscriptionInfo::new(endpoint, "", "");
        let mut builder = VapidSignatureBuilder::from_base64(&self.vapid.private_key, &info).map_err(|e| e.to_string())?;
        builder.add_claim("sub", self.subject.as_str());
        // The audience is the origin with its port (the crate would leave a port out).
        builder.add_claim("aud", origin);
        let sig: VapidSignature = builder.build().map_err(|e| e.to_string())?;
        let header = HeaderValue::try_from(format!("vapid t={}, k={}", sig.auth_t, URL_SAFE_NO_PAD.encode(&sig.auth_k)))
            .map_err(|e| e.to_string())?;
        metrics::counter!(hibiki_common::metric_names::VAPID_SIGNATURES_TOTAL).increment(1);
        self.signed.fetch_add(1, Ordering::Relaxed);
        cache.insert(origin.to_owned(), (header.clone(), Instant::now()));
        Ok(header)
    }

    /// Encrypts `payload` for the subscription and POSTs it, once its origin has a turn.
    pub async fn send(&self, sub: &SubscriptionKeys, payload: &[u8], topic: Option<&str>, options: PushOptions) -> PushOutcome {
        match self.prepare(sub, payload, topic, options) {
            Ok(push) => self.send_prepared(&push).await,
            Err(outcome) => outcome,
        }
    }

    /// Everything about a push that does not need the network: the endpoint rules, the VAPID
    /// header and the encryption. A burst is prepared before its second and only sent at it.
    /// Errs with the outcome when the push cannot be sent at all.
    pub fn prepare(
        &self,
        sub: &SubscriptionKeys,
        payload: &[u8],
        topic: Option<&str>,
        options: PushOptions,
    ) -> Result<PreparedPush, PushOutcome> {
        let url = push_endpoint::parse(&sub.endpoint, self.settings.allow_private)
            .map_err(|e| PushOutcome::Failed { status: None, reason: e.to_string() })?;
        let origin = url.origin().ascii_serialization();
        let (Some(ua_public), Some(auth)) = (decode_key(&sub.p256dh), decode_key(&sub.auth)) else {
            return Err(PushOutcome::Failed { status: None, reason: "the subscription's keys are not base64url".into() });
        };
        let authorization = self.authorization(&origin, &sub.endpoint).map_err(|reason| PushOutcome::Failed { status: None, reason })?;
        let body = ece::encrypt(&self.rng, &ua_public, &auth, payload)
            .map_err(|e| PushOutcome::Failed { status: None, reason: format!("could not encrypt the message: {e}") })?;
        let topic = match topic.map(HeaderValue::try_from).transpose() {
            Ok(topic) => topic,
            Err(_) => return Err(PushOutcome::Failed { status: None, reason: "the topic is not a header value".into() }),
        };
        Ok(PreparedPush { url, origin, authorization, body: body.into(), topic, options })
    }

    /// POSTs a prepared push once its origin has a turn and a place in flight. May be called
    /// again to retry. Waits in this order, so that nothing waiting holds what others need: a
    /// place in the origin's budget (only the same origin's sends wait for it), the origin's
    /// rate, then a place among all the process's sends.
    pub async fn send_prepared(&self, push: &PreparedPush) -> PushOutcome {
        let budget = self.budgets.of(&push.origin);
        let _origin_place = match budget.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(_) => {
                metrics::counter!(hibiki_common::metric_names::PUSH_ORIGIN_SATURATED_TOTAL).increment(1);
                budget.acquire_owned().await.expect("never closed")
            }
        };
        self.limiter.until_ready(&push.origin).await;
        let _place = self.in_flight.acquire().await.expect("never closed");
        let mut request = self
            .http
            .post(push.url.clone())
            .header(TTL, push.options.ttl)
            .header(CONTENT_ENCODING, HeaderValue::from_static("aes128gcm"))
            .header(CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"))
            .header(URGENCY, HeaderValue::from_static(if push.options.urgency_high { "high" } else { "normal" }))
            .header(AUTHORIZATION, push.authorization.clone());
        if let Some(topic) = &push.topic {
            request = request.header(TOPIC, topic.clone());
        }
        match request.body(push.body.clone()).send().await {
            Ok(response) => classify(response.status().as_u16(), retry_after(response.headers())),
            Err(e) if e.is_timeout() || e.is_connect() || e.is_request() => {
                if e.is_timeout() {
                    metrics::counter!(hibiki_common::metric_names::PUSH_TIMEOUTS_TOTAL).increment(1);
                }
                PushOutcome::Retry { status: None, after: None }
            }
            Err(e) => PushOutcome::Failed { status: None, reason: e.to_string() },
        }
    }
}

impl PushClient {
    /// POSTs a JSON body to a URL a person chose (a channel: an ntfy server, a webhook)
    /// through the same client and limits as pushes: the address rules on every resolved
    /// address, no redirects, timeouts, the per-origin budget and rate. Answers as a push
    /// service's answer would be read.
    pub async fn post_json(&self, url: &str, headers: reqwest::header::HeaderMap, body: Vec<u8>) -> PushOutcome {
        let url = match push_endpoint::parse(url, self.settings.allow_private) {
            Ok(url) => url,
            Err(e) => return PushOutcome::Failed { status: None, reason: e.to_string() },
        };
        let origin = url.origin().ascii_serialization();
        let budget = self.budgets.of(&origin);
        let _origin_place = budget.acquire_owned().await.expect("never closed");
        self.limiter.until_ready(&origin).await;
        let _place = self.in_flight.acquire().await.expect("never closed");
        let request = self.http.post(url).headers(headers).header(CONTENT_TYPE, HeaderValue::from_static("application/json")).body(body);
        match request.send().await {
            Ok(response) => classify(response.status().as_u16(), retry_after(response.headers())),
            Err(e) if e.is_timeout() || e.is_connect() || e.is_request() => PushOutcome::Retry { status: None, after: None },
            Err(e) => PushOutcome::Failed { status: None, reason: e.to_string() },
        }
    }
}

/// An encrypted push with its headers, ready to POST (and to POST again on a retry).
#[derive(Debug, Clone)]
pub struct PreparedPush {
    url: url::Url,
    origin: String,
    authorization: HeaderValue,
    body: bytes::Bytes,
    topic: Option<HeaderValue>,
    options: PushOptions,
}

/// A subscription key as the browser gives it: base64url, with or without padding.
fn decode_key(b64: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(b64.trim().trim_end_matches('=')).ok()
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
        assert_eq!(
            classify(429, Some(Duration::from_secs(3))),
            PushOutcome::Retry { status: Some(429), after: Some(Duration::from_secs(3)) }
        );
        assert_eq!(classify(503, None), PushOutcome::Retry { status: Some(503), after: None });
        assert!(matches!(classify(400, None), PushOutcome::Failed { status: Some(400), .. }));
        assert!(matches!(classify(403, None), PushOutcome::Failed { status: Some(403), .. }));
    }

    /// The limiter's decisions on a fake clock: `rate` turns at once per origin, then one per
    /// 1/rate s; origins do not share turns; idle time does not bank more than the burst.
    #[test]
    fn the_rate_limit_holds_per_origin() {
        use governor::clock::FakeRelativeClock;
        let clock = FakeRelativeClock::default();
        let limiter = OriginLimiter::with_clock(NonZeroU32::new(5).unwrap(), clock.clone());
        let turns = |origin: &str, tries: usize| (0..tries).filter(|_| limiter.check(origin).is_ok()).count();
        assert_eq!(turns("https://a.example", 20), 5);
        assert_eq!(limiter.check("https://a.example"), Err(Duration::from_millis(200)));
        assert_eq!(turns("https://b.example", 20), 5, "another origin has its own turns");
        clock.advance(Duration::from_millis(200));
        assert_eq!(turns("https://a.example", 20), 1);
        clock.advance(Duration::from_millis(100));
        assert_eq!(limiter.check("https://a.example"), Err(Duration::from_millis(100)));
        clock.advance(Duration::from_secs(60));
        assert_eq!(turns("https://a.example", 20), 5, "a minute idle is still a burst of 5");
    }

    /// Sends over the limit wait their turn instead of being dropped: 25 sends to one origin at
    /// 10/s are let through 10 at once, then one every 100 ms (tokio's paused clock).
    #[tokio::test(start_paused = true)]
    async fn sends_over_the_limit_wait_their_turn() {
        use std::sync::Arc;
        let limiter = Arc::new(OriginLimiter::new(NonZeroU32::new(10).unwrap()));
        let start = tokio::time::Instant::now();
        let waits: Vec<_> = (0..25)
            .map(|_| {
                let limiter = limiter.clone();
                tokio::spawn(async move {
                    limiter.until_ready("https://push.example").await;
                    start.elapsed()
                })
            })
            .collect();
        tokio::task::yield_now().await;
        // Another origin is not held up by the first one's queue.
        limiter.until_ready("https://other.example").await;
        assert_eq!(start.elapsed(), Duration::ZERO);
        let mut at = Vec::new();
        for w in waits {
            at.push(w.await.unwrap());
        }
        assert_eq!(at.len(), 25, "none dropped");
        let by = |t: Duration| at.iter().filter(|a| **a <= t).count();
        assert_eq!(by(Duration::from_millis(50)), 10);
        assert_eq!(by(Duration::from_millis(1050)), 20);
        assert_eq!(by(Duration::from_millis(1550)), 25);
    }
}
