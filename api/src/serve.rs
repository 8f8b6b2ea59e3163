//! The HTTP serving loop, with what `axum::serve` lacks against hostile clients:
//!
//! - a connection must send a complete request head within `head_timeout` of being opened or
//!   of the first byte of its next request (a slow-header or silent client is closed);
//! - an idle keep-alive connection is closed after `idle_timeout`;
//! - open connections are capped in all and per client address (trusted proxies exempt);
//!   a connection over a cap gets a short answer in the contract's envelope and is closed.
//!
//! hyper parses HTTP; this module only watches each connection's clock and counts them.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::response::IntoResponse;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use ipnet::IpNet;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use crate::error::ApiError;

/// How connections are limited.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub head_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_connections: usize,
    pub max_per_client: usize,
    /// Their connections count in all, not per address (many clients share one).
    pub trusted_proxies: Vec<IpNet>,
}

impl ConnectionLimits {
    pub fn from_config(config: &hibiki_common::infra::config::Config) -> ConnectionLimits {
        ConnectionLimits {
            head_timeout: Duration::from_millis(config.request_head_timeout_ms.max(1)),
            idle_timeout: Duration::from_millis(config.idle_timeout_ms.max(1)),
            max_connections: config.max_connections.max(1),
            max_per_client: config.max_connections_per_client.max(1),
            trusted_proxies: config.trusted_proxies.clone(),
        }
    }
}

/// Connections over a cap answered at once at most; past that they are just closed.
const REFUSALS_AT_ONCE: usize = 256;
/// How long answering a refused connection may take.
const REFUSAL_TIME: Duration = Duration::from_secs(2);

/// Serves `app` on `listener` until `shutdown`, then lets open requests finish.
pub async fn serve(listener: TcpListener, app: Router, limits: ConnectionLimits, shutdown: CancellationToken) {
    let counts = Arc::new(Counts::default());
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    let connections = tokio_util::task::TaskTracker::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = shutdown.cancelled() => break,
        };
        let _ = stream.set_nodelay(true);
        let per_client = !limits.trusted_proxies.iter().any(|net| net.contains(&peer.ip()));
        match counts.admit(crate::ratelimit::client_key(peer.ip()), per_client, &limits) {
            Ok(slot) => {
                metrics::gauge!(hibiki_common::metric_names::HTTP_CONNECTIONS_OPEN).increment(1.0);
                connections.spawn(serve_connection(stream, peer, app.clone(), limits.clone(), slot, shutdown.clone()));
            }
            Err(refusal) => {
                metrics::counter!(hibiki_common::metric_names::HTTP_CONNECTIONS_REFUSED_TOTAL, "cap" => refusal.label()).increment(1);
                if let Ok(permit) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        let _permit = permit;
                        let _ = tokio::time::timeout(REFUSAL_TIME, refuse(stream, refusal)).await;
                    });
                }
            }
        }
    }
    connections.close();
    connections.wait().await;
}

/// Open connections, in all and per client address.
#[derive(Default)]
struct Counts {
    inner: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

#[derive(Debug, Clone, Copy)]
enum Refusal {
    Total,
    PerClient,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Total => "total",
            Refusal::PerClient => "per_client",
        }
    }
}

/// A counted connection; dropping it frees its place.
struct Slot {
    counts: Arc<Counts>,
    ip: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut inner = self.counts.inner.lock().expect("never poisoned");
        inner.0 -= 1;
        if let Some(ip) = self.ip
            && let Some(n) = inner.1.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                inner.1.remove(&ip);
            }
        }
        metrics::gauge!(hibiki_common::metric_names::HTTP_CONNECTIONS_OPEN).decrement(1.0);
    }
}

impl Counts {
    fn admit(self: &Arc<Self>, ip: IpAddr, per_client: bool, limits: &ConnectionLimits) -> Result<Slot, Refusal> {
        let mut inner = self.inner.lock().expect("never poisoned");
        if inner.0 >= limits.max_connections {
            return Err(Refusal::Total);
        }
        if per_client {
            let n = inner.1.entry(ip).or_insert(0);
            if *n >= limits.max_per_client {
                return Err(Refusal::PerClient);
            }
            *n += 1;
        }
        inner.0 += 1;
        Ok(Slot { counts: self.clone(), ip: per_client.then_some(ip) })
    }
}

/// Answers one request on a refused connection (429 over the per-client cap, 503 over the
/// total) and closes it.
async fn refuse(stream: TcpStream, refusal: Refusal) {
    let service = hyper::service::service_fn(move |_req: hyper::Request<Incoming>| async move {
        let error = match refusal {
            Refusal::PerClient => ApiError::RateLimited { retry_after: 1 },
            Refusal::Total => ApiError::Unavailable("too many connections"),
        };
        let mut response = error.into_response();
        response.headers_mut().insert(axum::http::header::CONNECTION, axum::http::HeaderValue::from_static("close"));
        Ok::<_, std::convert::Infallible>(response)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).keep_alive(false).header_read_timeout(REFUSAL_TIME);
    let _ = builder.serve_connection(TokioIo::new(stream), service).await;
}

/// Where a connection is between requests, for its clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Opened, or bytes of a request head have come: the head must be complete in time.
    Head,
    /// Requests in flight: their handlers' own timeout applies.
    Busy(usize),
    /// Keep-alive, nothing asked.
    Idle,
}

/// A connection's clock: its phase and since when.
struct Clock {
    state: Mutex<(Phase, Instant)>,
}

impl Clock {
    fn bytes_came(&self) {
        let mut state = self.state.lock().expect("never poisoned");
        if state.0 == Phase::Idle {
            *state = (Phase::Head, Instant::now());
        }
    }

    fn bytes_went(&self) {
        let mut state = self.state.lock().expect("never poisoned");
        if state.0 == Phase::Idle {
            state.1 = Instant::now(); // a response still streaming out is not idleness
        }
    }

    fn request_started(&self) {
        let mut state = self.state.lock().expect("never poisoned");
        let n = match state.0 {
            Phase::Busy(n) => n + 1,
            _ => 1,
        };
        *state = (Phase::Busy(n), Instant::now());
    }

    fn request_done(&self) {
        let mut state = self.state.lock().expect("never poisoned");
        *state = match state.0 {
            Phase::Busy(n) if n > 1 => (Phase::Busy(n - 1), state.1),
            _ => (Phase::Idle, Instant::now()),
        };
    }

    /// When the connection is to be closed if nothing changes (None while busy).
    fn deadline(&self, limits: &ConnectionLimits) -> Option<Instant> {
        let (phase, since) = *self.state.lock().expect("never poisoned");
        match phase {
            Phase::Head => Some(since + limits.head_timeout),
            Phase::Idle => Some(since + limits.idle_timeout),
            Phase::Busy(_) => None,
        }
    }
}

/// Resolves once the connection's clock runs out.
async fn expired(clock: &Clock, limits: &ConnectionLimits) {
    loop {
        match clock.deadline(limits) {
            Some(at) if at <= Instant::now() => return,
            Some(at) => tokio::time::sleep_until(at).await,
            None => tokio::time::sleep(Duration::from_secs(1)).await,
        }
    }
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: ConnectionLimits,
    slot: Slot,
    shutdown: CancellationToken,
) {
    let _slot = slot;
    let clock = Arc::new(Clock { state: Mutex::new((Phase::Head, Instant::now())) });
    let io = TokioIo::new(Watched { inner: stream, clock: clock.clone() });
    let service_clock = clock.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        let app = app.clone();
        let clock = service_clock.clone();
        clock.request_started();
        async move {
            let response = app.oneshot(req.map(axum::body::Body::new)).await;
            clock.request_done();
            response
        }
    });
    let mut builder = Builder::new(TokioExecutor::new());
    // hyper's own header timer is a backstop; the clock above is the rule.
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.idle_timeout + limits.head_timeout);
    builder.http2().timer(TokioTimer::new()).keep_alive_interval(limits.idle_timeout).keep_alive_timeout(limits.head_timeout);
    let connection = builder.serve_connection_with_upgrades(io, service);
    tokio::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(error = %e, %peer, "connection ended with an error");
            }
        }
        _ = expired(&clock, &limits) => {
            metrics::counter!(hibiki_common::metric_names::HTTP_CONNECTIONS_TIMED_OUT_TOTAL).increment(1);
            tracing::debug!(%peer, "connection closed: too slow or idle too long");
        }
        _ = shutdown.cancelled() => {
            connection.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(Duration::from_secs(30), connection.as_mut()).await;
        }
    }
}

/// The socket, telling the clock when bytes come and go.
struct Watched {
    inner: TcpStream,
    clock: Arc<Clock>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let result = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.clock.bytes_came();
        }
        result
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.clock.bytes_went();
        }
        result
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            self.clock.bytes_went();
        }
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> ConnectionLimits {
        ConnectionLimits {
            head_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 3,
            max_per_client: 2,
            trusted_proxies: vec!["10.0.0.1/32".parse().unwrap()],
        }
    }

    #[test]
    fn caps_in_all_and_per_client_with_proxies_exempt() {
        let counts = Arc::new(Counts::default());
        let (a, b, proxy): (IpAddr, IpAddr, IpAddr) =
            ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap(), "10.0.0.1".parse().unwrap());
        let l = limits();
        let a1 = counts.admit(a, true, &l).unwrap();
        let _a2 = counts.admit(a, true, &l).unwrap();
        assert!(matches!(counts.admit(a, true, &l), Err(Refusal::PerClient)));
        let _b1 = counts.admit(b, true, &l).unwrap();
        assert!(matches!(counts.admit(proxy, false, &l), Err(Refusal::Total)), "the total binds everyone");
        drop(a1);
        let _p = counts.admit(proxy, false, &l).unwrap();
        drop(_p);
        let _p1 = counts.admit(proxy, false, &l).unwrap();
        assert_eq!(counts.inner.lock().unwrap().1.get(&proxy), None, "a proxy is not counted per address");
    }

    #[tokio::test(start_paused = true)]
    async fn the_clock_gives_a_head_10_s_and_idleness_60_s() {
        let l = limits();
        let clock = Clock { state: Mutex::new((Phase::Head, Instant::now())) };
        let start = Instant::now();
        assert_eq!(clock.deadline(&l), Some(start + Duration::from_secs(10)));
        clock.request_started();
        assert_eq!(clock.deadline(&l), None, "busy: the handler's timeout applies");
        tokio::time::advance(Duration::from_secs(5)).await;
        clock.request_done();
        assert_eq!(clock.deadline(&l), Some(start + Duration::from_secs(65)), "idle from the end of the request");
        tokio::time::advance(Duration::from_secs(20)).await;
        clock.bytes_went();
        assert_eq!(clock.deadline(&l), Some(start + Duration::from_secs(85)), "writing out is not idleness");
        clock.bytes_came();
        assert_eq!(clock.deadline(&l), Some(start + Duration::from_secs(35)), "a new head has 10 s from its first byte");
        clock.bytes_came();
        assert_eq!(clock.deadline(&l), Some(start + Duration::from_secs(35)), "more bytes of the head do not extend it");
    }
}
