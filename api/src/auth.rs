//! Who is calling: a bearer token (other clients) or the HttpOnly session cookie (the web
//! app). Both name the same server-side session.

use axum::extract::FromRequestParts;
use axum::extract::MatchedPath;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use hibiki_common::domain::ids::SessionId;
use hibiki_common::domain::tokens;
use hibiki_common::infra::crypto::session_hash;
use hibiki_common::infra::storage::User;
use hibiki_common::usecases::signin;

use crate::error::ApiError;
use crate::state::AppState;

/// The session cookie over http (a laptop).
pub const SESSION_COOKIE: &str = "hibiki_session";
/// Over https: the `__Host-` prefix makes browsers refuse it unless it is Secure, for the
/// whole host, and set by the host itself (no sibling subdomain can plant or shadow it).
pub const SECURE_SESSION_COOKIE: &str = "__Host-hibiki_session";

fn cookie_name(secure: bool) -> &'static str {
    if secure { SECURE_SESSION_COOKIE } else { SESSION_COOKIE }
}

/// The session token of the request, bearer first; `Err` when the request carries two
/// session cookies (one may have been planted: neither is trusted).
pub fn session_token(parts: &Parts) -> Result<Option<String>, ApiError> {
    if let Some(value) = parts.headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let Some((scheme, token)) = value.split_once(' ') else { return Ok(None) };
        return Ok(scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_owned()));
    }
    let mut found = parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .filter(|c| c.name() == SESSION_COOKIE || c.name() == SECURE_SESSION_COOKIE)
        .map(|c| c.value().to_owned());
    let first = found.next();
    if found.next().is_some() {
        return Err(ApiError::Unauthorized);
    }
    Ok(first.filter(|t| !t.is_empty()))
}

/// A signed-in user, by a session or by a personal API token; 401 `AUTHENTICATION_REQUIRED`
/// otherwise. A token reaches only the routes its scopes cover (403 `INSUFFICIENT_SCOPE`).
pub struct AuthUser {
    pub user: User,
    pub token: String,
    /// None for an API token.
    pub session_id: Option<SessionId>,
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = session_token(parts)?.ok_or(ApiError::Unauthorized)?;
        let now = state.clock.now();
        // (A session token is random base64url too: one that happens to begin with the
        // prefix is still looked up as a session below.)
        let api_token = if tokens::is_api_token(&token) && token.len() <= 128 {
            state.store.db.token_user(&session_hash(&token), now).await?
        } else {
            None
        };
        if let Some(found) = api_token {
            // The route's template, as the router matched it (no ids in it).
            let route = parts.extensions.get::<MatchedPath>().map(|p| p.as_str()).unwrap_or_default();
            if !found.scopes.allow(parts.method.as_str(), route) {
                return Err(ApiError::InsufficientScope);
            }
            return Ok(AuthUser { user: found.user, token, session_id: None });
        }
        let (user, session_id) = signin::authenticate(&state.store, &token, now).await?.ok_or(ApiError::Unauthorized)?;
        Ok(AuthUser { user, token, session_id: Some(session_id) })
    }
}

/// A signed-in admin (`HIBIKI_ADMIN_EMAILS`); 403 `FORBIDDEN` for other users.
pub struct AdminUser(pub User);

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let AuthUser { user, .. } = AuthUser::from_request_parts(parts, state).await?;
        if state.config.is_admin(user.email.as_str()) { Ok(AdminUser(user)) } else { Err(ApiError::Forbidden) }
    }
}

/// `Set-Cookie` for a new session: HttpOnly (no script reads it), SameSite=Strict (no other
/// site sends it), Secure when served over https.
pub fn session_cookie(token: &str, secure: bool) -> String {
    cookie::Cookie::build((cookie_name(secure), token.to_owned()))
        .path("/")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .max_age(cookie::time::Duration::seconds(hibiki_common::domain::access::SESSION_TTL.as_secs()))
        .build()
        .to_string()
}

/// 204 with the session cookie cleared: the answer to signing out and to deleting the account.
pub type SignedOut = (axum::http::StatusCode, axum::response::AppendHeaders<[(axum::http::HeaderName, String); 1]>);

pub fn signed_out(secure: bool) -> SignedOut {
    (axum::http::StatusCode::NO_CONTENT, axum::response::AppendHeaders([(axum::http::header::SET_COOKIE, clear_session_cookie(secure))]))
}

pub fn clear_session_cookie(secure: bool) -> String {
    cookie::Cookie::build((cookie_name(secure), ""))
        .path("/")
        .http_only(true)
        .same_site(cookie::SameSite::Strict)
        .secure(secure)
        .max_age(cookie::time::Duration::ZERO)
        .build()
        .to_string()
}
