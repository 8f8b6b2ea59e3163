//! Hibiki's HTTP API: thin axum handlers over `hibiki_common`, one error type mapped to the
//! contract's envelope, and the hardening every route shares (body limit, rate limits,
//! request ids, security headers, panics caught).

pub mod auth;
pub mod csrf;
pub mod error;
pub mod extract;
pub mod feeds;
pub mod openapi;
pub mod ratelimit;
pub mod recent;
pub mod routes;
pub mod serve;
pub mod state;
mod web;

use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;

use crate::error::ApiError;
use crate::routes::{account, admin, auth as auth_routes, calendar, health, notifications, reminders, site};
pub use crate::state::AppState;

/// The contract's body limit.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// A strict policy: no inline script, nothing from other origins.
/// The Content-Security-Policy: everything from this origin only; with error reporting on, the
/// reporter may also send to its DSN's origin.
fn content_security_policy(report_to: Option<&str>) -> HeaderValue {
    let connect = match report_to {
        Some(origin) => format!("'self' {origin}"),
        None => "'self'".to_owned(),
    };
    let csp = format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; \
connect-src {connect}; worker-src 'self'; manifest-src 'self'; media-src 'self' data:; object-src 'none'; \
base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    );
    HeaderValue::from_str(&csp).expect("the CSP is a valid header value (the DSN origin is ASCII)")
}

pub fn router(state: AppState) -> Router {
    let csp = content_security_policy(state.config.error_reporting_origin().as_deref());
    let hsts = (state.config.public_url.scheme() == "https").then(|| HeaderValue::from_static("max-age=31536000"));
    let sign_in = Router::new()
        .route("/api/auth/otp", post(auth_routes::request_otp))
        .route("/api/auth/verify", post(auth_routes::verify))
        .route("/api/auth/verify-link", post(auth_routes::verify_link))
        .route("/api/auth/dev-login", post(auth_routes::dev_login))
        .route_layer(middleware::from_fn_with_state(state.clone(), ratelimit::limit_auth));

    let api = Router::new()
        .route("/api/auth/session", get(auth_routes::session))
        .route("/api/auth/logout", post(auth_routes::logout))
        .route("/api/auth/sessions", get(auth_routes::sessions))
        .route("/api/auth/sessions/{id}", axum::routing::delete(auth_routes::end_session))
        .route("/api/reminders", get(reminders::list).post(reminders::create_or_act))
        .route("/api/reminders/preview", post(reminders::preview))
        .route("/api/reminders/{id}", get(reminders::get).put(reminders::update).delete(reminders::delete))
        .route("/api/reminders/{id}/occurrences", get(reminders::occurrences))
        .route("/api/reminders/{id}/logs", get(reminders::logs))
        .route("/api/reminders/{id}/skip", post(reminders::skip))
        .route("/api/calendar/token", post(calendar::create_token).delete(calendar::delete_token))
        .route("/api/calendar/{file}", get(calendar::feed))
        .route("/api/settings", get(account::get_settings).put(account::put_settings))
        .route("/api/account", axum::routing::delete(account::delete_account))
        .route("/api/test-email", post(account::test_email))
        .route("/api/admin/stats", get(admin::stats))
        .route("/api/admin/users", get(admin::users))
        .route("/api/notifications/vapid-public-key", get(notifications::vapid_public_key))
        .route("/api/notifications/subscriptions", get(notifications::subscriptions))
        .route("/api/notifications/subscriptions/{id}", axum::routing::delete(notifications::delete_subscription))
        .route("/api/notifications", post(notifications::action))
        .route("/api/push/test", post(notifications::push_test))
        .route("/api/reminders/{id}/send", post(reminders::send))
        .route("/api/status", get(health::status))
        .route("/api/site", get(site::site))
        .route("/api/openapi.json", get(openapi_json))
        .route_layer(middleware::from_fn_with_state(state.clone(), ratelimit::limit_api));

    // Health stays outside the rate limits: probes must always get through.
    let health = Router::new().route("/api/health", get(health::detail).head(health::head));

    Router::new()
        .merge(sign_in)
        .merge(api)
        .merge(health)
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(middleware::from_fn_with_state(state.clone(), csrf::same_site_only))
        .method_not_allowed_fallback(method_not_allowed)
        .fallback_service(web::service(state.config.web_dir.clone()))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(record_metrics))
        .layer(middleware::from_fn(api_answers_are_not_stored))
        .layer(
            ServiceBuilder::new()
                .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
                .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
                    let id = req.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("");
                    tracing::info_span!("http", method = %req.method(), path = %loggable_path(req.uri().path()), request_id = %id)
                }))
                .layer(PropagateRequestIdLayer::new(REQUEST_ID))
                .layer(CatchPanicLayer::custom(|_| ApiError::Panicked.into_response()))
                .layer(tower_http::timeout::TimeoutLayer::with_status_code(
                    axum::http::StatusCode::REQUEST_TIMEOUT,
                    Duration::from_secs(30),
                ))
                .layer(SetResponseHeaderLayer::if_not_present(header::CONTENT_SECURITY_POLICY, csp))
                .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
                .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
                .layer(SetResponseHeaderLayer::if_not_present(
                    HeaderName::from_static("cross-origin-opener-policy"),
                    HeaderValue::from_static("same-origin"),
                ))
                .layer(SetResponseHeaderLayer::if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
                // Over https, browsers keep to https for a year (a proxy in front terminates TLS).
                .layer(SetResponseHeaderLayer::if_not_present(header::STRICT_TRANSPORT_SECURITY, move |_: &Response| hsts.clone())),
        )
        .with_state(state)
}

async fn openapi_json() -> impl IntoResponse {
    axum::Json(openapi::ApiDoc::openapi())
}

async fn api_not_found() -> ApiError {
    ApiError::NotFound
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed
}

/// A request path as the log may show it: a calendar feed's path is its secret, so only its
/// shape is logged.
fn loggable_path(path: &str) -> &str {
    if path.starts_with("/api/calendar/") && path != "/api/calendar/token" { "/api/calendar/{secret}" } else { path }
}

/// API answers carry account data (or, for the public ones, data that is stale a second
/// later): no cache, shared or private, keeps them.
async fn api_answers_are_not_stored(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/") || req.uri().path() == "/api";
    let mut response = next.run(req).await;
    if api {
        response.headers_mut().entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    }
    response
}

/// The method as a metric label: one of a closed set, so made-up methods cannot add series.
fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Request count and latency per route template (never the raw path: ids would explode the
/// label set) and per method from a closed set.
async fn record_metrics(req: Request, next: Next) -> Response {
    let start = std::time::Instant::now();
    let method = method_label(req.method());
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned()).unwrap_or_else(|| "other".into());
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("hibiki_http_requests_total", "method" => method, "route" => route.clone(), "status" => status).increment(1);
    metrics::histogram!("hibiki_http_request_duration_seconds", "method" => method, "route" => route).record(start.elapsed().as_secs_f64());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_methods_share_one_label() {
        use axum::http::Method;
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        for made_up in ["FOO", "X1", "get", "PROPFIND"] {
            assert_eq!(method_label(&Method::from_bytes(made_up.as_bytes()).unwrap()), "other", "{made_up}");
        }
    }

    #[test]
    fn a_feeds_secret_never_reaches_the_log() {
        assert_eq!(loggable_path("/api/calendar/abcdefSECRET.ics"), "/api/calendar/{secret}");
        assert_eq!(loggable_path("/api/calendar/token"), "/api/calendar/token");
        assert_eq!(loggable_path("/api/reminders/r1"), "/api/reminders/r1");
    }
}
