//! Per-client rate limits (governor): a tight one for sign-in, a loose one for the rest of
//! the API. Keyed by the client's address: the peer's, or behind a trusted reverse proxy the
//! one it reports in `X-Forwarded-For`; an IPv6 client counts by its /64 (one subscriber's
//! prefix), so a host with a routed /64 cannot mint fresh quota per address.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ipnet::IpNet;

use crate::error::ApiError;
use crate::state::AppState;

pub struct Limiters {
    auth: DefaultKeyedRateLimiter<IpAddr>,
    api: DefaultKeyedRateLimiter<IpAddr>,
    /// Per calendar feed (its token's hash), wherever the requests come from.
    feed: DefaultKeyedRateLimiter<Vec<u8>>,
    /// Per trigger link (its secret's hash): a looping automation cannot ring a phone without
    /// end.
    trigger: DefaultKeyedRateLimiter<Vec<u8>>,
}

/// Requests per minute one calendar feed answers (calendar apps poll every few minutes).
pub const FEED_PER_MINUTE: u32 = 6;

/// `n` a minute, with a burst of what the app's busiest page needs at once (a tenth of the
/// minute, at least 10), never a whole minute's quota in one go.
fn per_minute(n: u32) -> Quota {
    let n = n.max(1);
    let rate = NonZeroU32::new(n).expect("at least 1");
    let burst = NonZeroU32::new(burst_for(n)).expect("at least 1");
    Quota::per_minute(rate).allow_burst(burst)
}

/// The burst of a limit of `per_minute`.
pub fn burst_for(per_minute: u32) -> u32 {
    (per_minute / 10).max(10).min(per_minute.max(1))
}

/// What a client is counted as: an IPv4 address as it is, an IPv6 one by its /64 prefix
/// (IPv4-mapped IPv6 addresses as the IPv4 address).
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
    }
}

impl Limiters {
    pub fn new(auth_per_minute: u32, api_per_minute: u32) -> Limiters {
        let n = NonZeroU32::new(FEED_PER_MINUTE).expect("non-zero");
        let t = NonZeroU32::new(hibiki_common::domain::triggers::TRIGGERS_PER_MINUTE).expect("non-zero");
        Limiters {
            auth: RateLimiter::keyed(per_minute(auth_per_minute)),
            api: RateLimiter::keyed(per_minute(api_per_minute)),
            feed: RateLimiter::keyed(Quota::per_minute(n).allow_burst(n)),
            trigger: RateLimiter::keyed(Quota::per_minute(t).allow_burst(t)),
        }
    }

    /// One request of a calendar feed; 429 past [`FEED_PER_MINUTE`].
    pub fn check_feed(&self, token_hash: &[u8]) -> Result<(), ApiError> {
        check(&self.feed, &token_hash.to_vec(), "feed")
    }

    /// One request of a trigger link; 429 past its limit a minute.
    pub fn check_trigger(&self, secret_hash: &[u8]) -> Result<(), ApiError> {
        check(&self.trigger, &secret_hash.to_vec(), "trigger")
    }

    /// Forgets clients whose buckets are full again, so the maps do not grow without bound.
    pub fn shrink(&self) {
        self.auth.retain_recent();
        self.api.retain_recent();
        self.feed.retain_recent();
        self.trigger.retain_recent();
        self.trigger.shrink_to_fit();
        self.auth.shrink_to_fit();
        self.api.shrink_to_fit();
        self.feed.shrink_to_fit();
    }
}

/// One request against a keyed limiter; 429 with the wait when over it.
fn check<K: std::hash::Hash + Eq + Clone>(limiter: &DefaultKeyedRateLimiter<K>, key: &K, scope: &'static str) -> Result<(), ApiError> {
    limiter.check_key(key).map_err(|not_until| {
        metrics::counter!(hibiki_common::metric_names::RATE_LIMITED_TOTAL, "scope" => scope).increment(1);
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        ApiError::RateLimited { retry_after: wait.as_secs_f64().ceil().max(1.0) as i64 }
    })
}

/// The client behind `peer`: when the peer is a trusted proxy, the right-most address of
/// `X-Forwarded-For` that is not itself a trusted proxy (entries further left are whatever the
/// client claimed). Anything unparsable ends the walk at the last trusted hop.
pub fn client_ip(peer: IpAddr, forwarded_for: &[&str], trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let mut client = peer;
    for entry in forwarded_for.iter().rev().flat_map(|h| h.rsplit(',')) {
        let Ok(ip) = entry.trim().parse::<IpAddr>() else { break };
        client = ip;
        if !is_trusted(&ip) {
            break;
        }
    }
    client
}

fn client(state: &AppState, req: &Request) -> IpAddr {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0]));
    if state.config.trusted_proxies.is_empty() {
        return peer;
    }
    let headers: Vec<&str> = req.headers().get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
    client_ip(peer, &headers, &state.config.trusted_proxies)
}

pub async fn limit_auth(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match check(&state.limiters.auth, &client_key(client(&state, &req)), "auth") {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

pub async fn limit_api(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match check(&state.limiters.api, &client_key(client(&state, &req)), "api") {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(client_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(client_key(ip("2001:db8:1:2:ffff:1:2:3")), client_key(ip("2001:db8:1:2::9")));
        assert_ne!(client_key(ip("2001:db8:1:2::1")), client_key(ip("2001:db8:1:3::1")));
        assert_eq!(client_key(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_key(ip("192.0.2.7")), ip("192.0.2.7"));
    }

    #[test]
    fn a_burst_is_a_tenth_of_the_minute_and_never_the_whole_minute() {
        assert_eq!(burst_for(600), 60);
        assert_eq!(burst_for(30), 10);
        assert_eq!(burst_for(5), 5);
        assert_eq!(burst_for(100_000), 10_000);
        let limiter: DefaultKeyedRateLimiter<IpAddr> = RateLimiter::keyed(per_minute(600));
        let passed = (0..600).filter(|_| limiter.check_key(&ip("192.0.2.1")).is_ok()).count();
        assert_eq!(passed, 60, "a minute's quota at once is not let through");
    }

    #[test]
    fn the_client_is_the_peer_unless_the_peer_is_a_trusted_proxy() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap(), IpNet::from(ip("192.0.2.1"))];
        // No trusted proxies, or an untrusted peer: headers are ignored (anyone can send them).
        assert_eq!(client_ip(ip("203.0.113.9"), &["1.2.3.4"], &[]), ip("203.0.113.9"));
        assert_eq!(client_ip(ip("203.0.113.9"), &["1.2.3.4"], &trusted), ip("203.0.113.9"));
        // One proxy in front.
        assert_eq!(client_ip(ip("10.1.2.3"), &["198.51.100.7"], &trusted), ip("198.51.100.7"));
        // The client prepends a lie; proxies append: the right-most untrusted entry counts.
        assert_eq!(client_ip(ip("10.1.2.3"), &["6.6.6.6, 198.51.100.7, 192.0.2.1"], &trusted), ip("198.51.100.7"));
        // Several headers are one list, in order.
        assert_eq!(client_ip(ip("10.1.2.3"), &["6.6.6.6", "198.51.100.7"], &trusted), ip("198.51.100.7"));
        // Garbage stops the walk at the last trusted hop; no header: the proxy itself.
        assert_eq!(client_ip(ip("10.1.2.3"), &["198.51.100.7, not-an-ip, 10.9.9.9"], &trusted), ip("10.9.9.9"));
        assert_eq!(client_ip(ip("10.1.2.3"), &[], &trusted), ip("10.1.2.3"));
        assert_eq!(client_ip(ip("::1"), &["2001:db8::5"], &[IpNet::from(ip("::1"))]), ip("2001:db8::5"));
    }
}
