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
use axum::routing::get;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::routes::{
    account, admin, auth as auth_routes, calendar, channels, health, lists, notifications, reminders, site, tokens, transfer, triggers,
};
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

/// Every route of the API, once, in its rate-limit group: [`router`] serves them, each group
/// behind its limit, and [`openapi::document`] describes them.
pub struct Routes {
    /// Signing in: the stricter per-client limit.
    pub sign_in: OpenApiRouter<AppState>,
    /// Everything else under `/api`: the API limit.
    pub api: OpenApiRouter<AppState>,
    /// Outside the rate limits: probes must always get through.
    pub health: OpenApiRouter<AppState>,
}

/// The handlers of one `routes!` share a path: utoipa-axum mounts each of them on every path
/// the call names (tests/api/document.rs holds each path to the methods the document names).
pub fn routes() -> Routes {
    let sign_in = OpenApiRouter::default()
        .routes(routes!(auth_routes::request_otp))
        .routes(routes!(auth_routes::verify))
        .routes(routes!(auth_routes::verify_link))
        .routes(routes!(auth_routes::dev_login));
    let api = OpenApiRouter::default()
        .routes(routes!(auth_routes::session))
        .routes(routes!(auth_routes::logout))
        .routes(routes!(auth_routes::sessions))
        .routes(routes!(auth_routes::end_session))
        .routes(routes!(reminders::list, reminders::create_or_act))
        .routes(routes!(reminders::preview))
        .routes(routes!(reminders::snooze_all))
        .routes(routes!(reminders::get, reminders::update, reminders::delete))
        .routes(routes!(reminders::occurrences))
        .routes(routes!(reminders::logs))
        .routes(routes!(reminders::skip))
        .routes(routes!(reminders::complete_early))
        .routes(routes!(reminders::send))
        .routes(routes!(triggers::create, triggers::list))
        .routes(routes!(triggers::delete))
        // A trigger link: POST acts; opened in a browser (GET) it is the app's page, which
        // never acts by itself.
        .routes(routes!(triggers::fire, triggers::open))
        .routes(routes!(triggers::page))
        .routes(routes!(tokens::list, tokens::create))
        .routes(routes!(tokens::delete))
        .routes(routes!(transfer::export))
        .routes(routes!(transfer::import))
        .routes(routes!(lists::list, lists::create))
        .routes(routes!(lists::update, lists::delete))
        .routes(routes!(lists::members))
        .routes(routes!(lists::remove_member))
        .routes(routes!(lists::invite, lists::invites))
        .routes(routes!(lists::cancel_invite))
        .routes(routes!(lists::peek))
        .routes(routes!(lists::accept))
        .routes(routes!(calendar::create_token, calendar::delete_token))
        .routes(routes!(calendar::feed))
        .routes(routes!(account::get_settings, account::put_settings))
        .routes(routes!(channels::list, channels::create))
        .routes(routes!(channels::update, channels::delete))
        .routes(routes!(channels::test))
        .routes(routes!(channels::act))
        .routes(routes!(channels::telegram_webhook))
        .routes(routes!(channels::line_webhook))
        .routes(routes!(account::delete_account))
        .routes(routes!(account::test_email))
        .routes(routes!(admin::stats))
        .routes(routes!(admin::users))
        .routes(routes!(notifications::vapid_public_key))
        .routes(routes!(notifications::subscriptions))
        .routes(routes!(notifications::delete_subscription))
        .routes(routes!(notifications::action))
        .routes(routes!(notifications::push_test))
        .routes(routes!(health::status))
        .routes(routes!(site::site))
        // The document itself: served, not described in it.
        .route("/api/openapi.json", get(openapi_json));
    let health = OpenApiRouter::default().routes(routes!(health::detail, health::head));
    Routes { sign_in, api, health }
}

pub fn router(state: AppState) -> Router {
    let csp = content_security_policy(state.config.error_reporting_origin().as_deref());
    let hsts = (state.config.public_url.scheme() == "https").then(|| HeaderValue::from_static("max-age=31536000"));
    let Routes { sign_in, api, health } = routes();
    let sign_in: Router<AppState> = sign_in.route_layer(middleware::from_fn_with_state(state.clone(), ratelimit::limit_auth)).into();
    let api: Router<AppState> = api.route_layer(middleware::from_fn_with_state(state.clone(), ratelimit::limit_api)).into();
    let health: Router<AppState> = health.into();

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

async fn openapi_json() -> axum::Json<&'static utoipa::openapi::OpenApi> {
    static DOCUMENT: std::sync::LazyLock<utoipa::openapi::OpenApi> = std::sync::LazyLock::new(openapi::document);
    axum::Json(&*DOCUMENT)
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
    if path.starts_with("/api/calendar/") && path != "/api/calendar/token" {
        "/api/calendar/{secret}"
    } else if path.starts_with("/t/") {
        "/t/{secret}"
    } else if path.starts_with("/api/triggers/") {
        "/api/triggers/{secret}"
    } else {
        path
    }
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
    metrics::counter!(hibiki_common::metric_names::HTTP_REQUESTS_TOTAL, "method" => method, "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!(hibiki_common::metric_names::HTTP_REQUEST_DURATION_SECONDS, "method" => method, "route" => route)
        .record(start.elapsed().as_secs_f64());
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
    fn a_feeds_or_triggers_secret_never_reaches_the_log() {
        assert_eq!(loggable_path("/api/calendar/abcdefSECRET.ics"), "/api/calendar/{secret}");
        assert_eq!(loggable_path("/api/calendar/token"), "/api/calendar/token");
        assert_eq!(loggable_path("/api/reminders/r1"), "/api/reminders/r1");
        assert_eq!(loggable_path("/t/SECRETabc"), "/t/{secret}");
        assert_eq!(loggable_path("/api/triggers/SECRETabc"), "/api/triggers/{secret}");
    }
}
