//! Defence in depth against cross-site requests: a request that changes state and is
//! authenticated by the session cookie must come from this site. SameSite=Strict already
//! keeps the cookie off such requests in today's browsers; this holds where it does not
//! (older browsers, a same-site subdomain under someone else's control aside).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use url::Url;

use crate::auth::{SECURE_SESSION_COOKIE, SESSION_COOKIE};
use crate::error::ApiError;
use crate::state::AppState;

pub async fn same_site_only(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if changes_state(req.method()) && cookie_authenticated(req.headers()) && is_cross_site(req.headers(), &state.config.public_url) {
        metrics::counter!(hibiki_common::metric_names::CSRF_REJECTED_TOTAL).increment(1);
        return ApiError::CsrfRejected.into_response();
    }
    next.run(req).await
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The session cookie is what would authenticate it: a bearer token wins over the cookie.
fn cookie_authenticated(headers: &HeaderMap) -> bool {
    if headers.contains_key(header::AUTHORIZATION) {
        return false;
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .any(|c| c.name() == SESSION_COOKIE || c.name() == SECURE_SESSION_COOKIE)
}

/// `Sec-Fetch-Site: cross-site`, or an `Origin` that is neither the public URL's nor the
/// `Host` the request was sent to (`Origin: null` included).
pub fn is_cross_site(headers: &HeaderMap, public_url: &Url) -> bool {
    let text = |name| headers.get(name).and_then(|v: &axum::http::HeaderValue| v.to_str().ok());
    if text(header::HeaderName::from_static("sec-fetch-site")).is_some_and(|v| v.eq_ignore_ascii_case("cross-site")) {
        return true;
    }
    let Some(origin) = text(header::ORIGIN) else { return false };
    let Ok(origin) = Url::parse(origin) else { return true };
    let ours = origin.origin() == public_url.origin();
    let same_host = match (text(header::HOST), origin.host_str(), origin.port_or_known_default()) {
        (Some(host), Some(origin_host), Some(origin_port)) => {
            authority(host, origin_port) == (origin_host.to_ascii_lowercase(), origin_port)
        }
        _ => false,
    };
    !(ours || same_host)
}

/// A `Host` header's (host, port), the port defaulting to the origin's scheme's.
fn authority(host: &str, default_port: u16) -> (String, u16) {
    if let Some(rest) = host.strip_prefix('[')
        && let Some((h, p)) = rest.split_once(']')
    {
        return (format!("[{}]", h.to_ascii_lowercase()), p.strip_prefix(':').and_then(|p| p.parse().ok()).unwrap_or(default_port));
    }
    match host.rsplit_once(':') {
        Some((h, p)) => match p.parse() {
            Ok(port) => (h.to_ascii_lowercase(), port),
            Err(_) => (host.to_ascii_lowercase(), default_port),
        },
        None => (host.to_ascii_lowercase(), default_port),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn tells_cross_site_from_same_site() {
        let public: Url = "https://hibiki.example".parse().unwrap();
        assert!(!is_cross_site(&headers(&[]), &public), "no Origin and no Sec-Fetch-Site: a non-browser client");
        assert!(!is_cross_site(&headers(&[("origin", "https://hibiki.example")]), &public));
        assert!(!is_cross_site(&headers(&[("origin", "https://hibiki.example:443"), ("sec-fetch-site", "same-origin")]), &public));
        assert!(
            !is_cross_site(&headers(&[("origin", "http://127.0.0.1:8080"), ("host", "127.0.0.1:8080")]), &public),
            "the host it was sent to"
        );
        assert!(is_cross_site(&headers(&[("origin", "http://evil.example")]), &public));
        assert!(is_cross_site(&headers(&[("origin", "null")]), &public));
        assert!(is_cross_site(&headers(&[("origin", "http://evil.example"), ("host", "hibiki.example")]), &public));
        assert!(is_cross_site(&headers(&[("sec-fetch-site", "cross-site")]), &public));
        assert!(!is_cross_site(&headers(&[("sec-fetch-site", "same-site")]), &public));
        assert!(is_cross_site(&headers(&[("origin", "https://hibiki.example.evil.test")]), &public));
        assert!(is_cross_site(&headers(&[("origin", "http://127.0.0.1:9999"), ("host", "127.0.0.1:8080")]), &public), "another port");
        assert!(!is_cross_site(&headers(&[("origin", "http://[::1]:8080"), ("host", "[::1]:8080")]), &public));
        assert!(!is_cross_site(&headers(&[("origin", "http://localhost"), ("host", "LOCALHOST:80")]), &public));
    }

    #[test]
    fn only_cookie_requests_that_change_state_are_checked() {
        assert!(cookie_authenticated(&headers(&[("cookie", "a=b; hibiki_session=t")])));
        assert!(!cookie_authenticated(&headers(&[("cookie", "hibiki_session=t"), ("authorization", "Bearer x")])));
        assert!(!cookie_authenticated(&headers(&[("cookie", "other=t")])));
        assert!(changes_state(&Method::POST) && changes_state(&Method::DELETE) && changes_state(&Method::PUT));
        assert!(!changes_state(&Method::GET) && !changes_state(&Method::HEAD));
    }
}
