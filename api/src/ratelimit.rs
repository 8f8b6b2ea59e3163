//! Per-client rate limits (governor): a tight one for sign-in, a loose one for the rest of
//! the API. Keyed by the peer address.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;
use crate::state::AppState;

pub struct Limiters {
    auth: DefaultKeyedRateLimiter<IpAddr>,
    api: DefaultKeyedRateLimiter<IpAddr>,
}

fn per_minute(n: u32) -> Quota {
    let n = NonZeroU32::new(n.max(1)).expect("at least 1");
    Quota::per_minute(n).allow_burst(n)
}

impl Limiters {
    pub fn new(auth_per_minute: u32, api_per_minute: u32) -> Limiters {
        Limiters { auth: RateLimiter::keyed(per_minute(auth_per_minute)), api: RateLimiter::keyed(per_minute(api_per_minute)) }
    }

    /// Forgets clients whose buckets are full again, so the maps do not grow without bound.
    pub fn shrink(&self) {
        self.auth.retain_recent();
        self.api.retain_recent();
        self.auth.shrink_to_fit();
        self.api.shrink_to_fit();
    }
}

fn check(limiter: &DefaultKeyedRateLimiter<IpAddr>, ip: IpAddr, scope: &'static str) -> Result<(), ApiError> {
    limiter.check_key(&ip).map_err(|not_until| {
        metrics::counter!("hibiki_rate_limited_total", "scope" => scope).increment(1);
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        ApiError::RateLimited { retry_after: wait.as_secs_f64().ceil().max(1.0) as i64 }
    })
}

fn peer(req: &Request) -> IpAddr {
    req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0]))
}

pub async fn limit_auth(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match check(&state.limiters.auth, peer(&req), "auth") {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

pub async fn limit_api(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match check(&state.limiters.api, peer(&req), "api") {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}
