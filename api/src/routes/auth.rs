use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use hibiki_common::domain::access::{CODE_TTL_SECS, RESEND_AFTER_SECS, SESSION_TTL};
use hibiki_common::domain::ids::SessionId;
use hibiki_common::error::FieldCode;
use hibiki_common::infra::storage::User;
use hibiki_common::usecases::signin::{self, SignedIn};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{AuthUser, SignedOut, session_cookie, signed_out};
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath, ApiQuery, Peer};
use crate::routes::Answer;
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
pub struct OtpRequest {
    pub email: String,
    /// `ja` or `en`: the language of the email for a new address.
    pub lang: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct OtpSent {
    pub expires_in: i64,
    pub resend_after: i64,
    /// False while code sign-in is blocked for the address after too many wrong codes: the
    /// email then carries only the link, and the app says to use it.
    pub code_sign_in: bool,
}

#[derive(Deserialize, ToSchema)]
pub struct VerifyRequest {
    pub email: String,
    pub code: String,
}

#[derive(Deserialize, ToSchema)]
pub struct VerifyLinkRequest {
    pub token: String,
    /// True: only say whose account the link opens (masked); nothing is spent.
    #[serde(default)]
    pub peek: bool,
}

/// Whose account a sign-in link opens.
#[derive(Serialize, ToSchema)]
pub struct LinkPeek {
    /// Masked: `a***@example.com`.
    pub email: String,
}

/// One of the user's sessions.
#[derive(Serialize, ToSchema)]
pub struct SessionListed {
    #[schema(value_type = String)]
    pub id: SessionId,
    /// The device it was signed in from ("iPhone · Safari"); empty when unknown.
    pub label: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: jiff::Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub last_used_at: jiff::Timestamp,
    /// The session of this request.
    pub current: bool,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogoutQuery {
    /// True: every session of the user ends, this one too.
    #[serde(default)]
    pub all: bool,
}

#[derive(Deserialize, ToSchema)]
pub struct DevLoginRequest {
    pub email: String,
}

/// `POST /api/auth/verify-link`'s answer: whose account the link opens with `peek`, else the
/// new session.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum VerifyLinkAnswer {
    Peek(LinkPeek),
    SignedIn(SessionIssued),
}

#[derive(Serialize, ToSchema)]
pub struct SessionIssued {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub user: User,
    pub is_new_user: bool,
}

#[derive(Serialize, ToSchema)]
pub struct SessionInfo {
    pub user: User,
    pub is_admin: bool,
}

/// The developer shortcut's fixed addresses.
pub const DEV_ADDRESSES: [&str; 4] = ["dev@example.com", "test@example.com", "demo@example.com", "admin@example.com"];

/// Ask for a sign-in code (and link) by email.
#[utoipa::path(post, path = "/api/auth/otp", request_body = OtpRequest, tag = "auth", security(()),
    responses((status = 202, body = OtpSent), (status = 400, description = "EMAIL_INVALID"), (status = 429, description = "RATE_LIMITED")))]
pub async fn request_otp(State(state): State<AppState>, ApiJson(req): ApiJson<OtpRequest>) -> ApiResult<(StatusCode, Answer<OtpSent>)> {
    let lang = hibiki_common::domain::states::Language::from_hint(req.lang.as_deref());
    let requested = signin::request_code(&state.store, &req.email, lang, state.clock.now()).await?;
    state.queues.mail(requested.mail).await.map_err(|_| ApiError::Unavailable("mail queue"))?;
    metrics::counter!(hibiki_common::metric_names::OTP_REQUESTED_TOTAL).increment(1);
    let answer = OtpSent { expires_in: CODE_TTL_SECS, resend_after: RESEND_AFTER_SECS, code_sign_in: requested.code_sign_in };
    Ok((StatusCode::ACCEPTED, Answer(answer)))
}

/// Sign in with the emailed 6-digit code.
#[utoipa::path(post, path = "/api/auth/verify", request_body = VerifyRequest, tag = "auth", security(()),
    responses((status = 200, body = SessionIssued), (status = 400, description = "OTP_INVALID, OTP_EXPIRED, OTP_REPLACED (a code that a resend replaced)"), (status = 429, description = "OTP_ATTEMPTS_EXCEEDED")))]
pub async fn verify(State(state): State<AppState>, headers: HeaderMap, ApiJson(req): ApiJson<VerifyRequest>) -> ApiResult<Issued> {
    let result = signin::verify_code(&state.store, &req.email, &req.code, &device(&headers), state.clock.now()).await;
    record_outcome(&result);
    Ok(issue(&state, result?))
}

/// Sign in with the emailed link's token; with `peek: true`, only say whose account it opens
/// (masked), spending nothing.
#[utoipa::path(post, path = "/api/auth/verify-link", request_body = VerifyLinkRequest, tag = "auth", security(()),
    responses((status = 200, body = VerifyLinkAnswer, description = "signed in; with peek, a LinkPeek"), (status = 400, description = "LINK_INVALID")))]
pub async fn verify_link(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<VerifyLinkRequest>,
) -> ApiResult<(HeaderMap, Answer<VerifyLinkAnswer>)> {
    if req.peek {
        let email = signin::peek_link(&state.store, &req.token, state.clock.now()).await?;
        return Ok((HeaderMap::new(), Answer(VerifyLinkAnswer::Peek(LinkPeek { email }))));
    }
    let result = signin::verify_link(&state.store, &req.token, &device(&headers), state.clock.now()).await;
    record_outcome(&result);
    let (headers, Answer(issued)) = issue(&state, result?);
    Ok((headers, Answer(VerifyLinkAnswer::SignedIn(issued))))
}

/// Whether a request may use the developer shortcut: straight from this machine, through no
/// proxy (a same-host reverse proxy would make the whole internet look loopback).
pub fn dev_login_allowed(peer: Option<std::net::IpAddr>, headers: &HeaderMap) -> bool {
    let forwarded = headers.contains_key("x-forwarded-for") || headers.contains_key(axum::http::header::FORWARDED);
    peer.is_some_and(|ip| ip.is_loopback() || ip.to_canonical().is_loopback()) && !forwarded
}

/// The developer shortcut: only with `HIBIKI_DEV_LOGIN=1`, from a loopback peer, with no
/// `X-Forwarded-For` or `Forwarded` header; otherwise 404.
#[utoipa::path(post, path = "/api/auth/dev-login", request_body = DevLoginRequest, tag = "auth", security(()),
    responses((status = 200, body = SessionIssued), (status = 404, description = "dev login disabled")))]
pub async fn dev_login(
    State(state): State<AppState>,
    Peer(peer): Peer,
    headers: HeaderMap,
    ApiJson(req): ApiJson<DevLoginRequest>,
) -> ApiResult<Issued> {
    if !state.config.dev_login || !dev_login_allowed(peer, &headers) {
        return Err(ApiError::NotFound);
    }
    let email = req.email.trim().to_ascii_lowercase();
    if !DEV_ADDRESSES.contains(&email.as_str()) {
        return Err(ApiError::field(
            "email",
            FieldCode::InvalidChoice.because("only the developer addresses (dev, test, demo, admin @example.com) can use dev login"),
        ));
    }
    // The developer addresses are valid ones.
    let email = hibiki_common::domain::email::Email::parse(&email).map_err(|_| ApiError::NotFound)?;
    let signed_in =
        signin::start_session(&state.store, &email, hibiki_common::domain::states::Language::En, &device(&headers), state.clock.now())
            .await?;
    Ok(issue(&state, signed_in))
}

/// The signed-in user.
#[utoipa::path(get, path = "/api/auth/session", tag = "auth", responses((status = 200, body = SessionInfo), (status = 401)))]
pub async fn session(State(state): State<AppState>, AuthUser { user, .. }: AuthUser) -> Answer<SessionInfo> {
    let is_admin = state.config.is_admin(user.email.as_str());
    Answer(SessionInfo { user, is_admin })
}

/// Ends the session (with `?all=true`, every session of the user); its token stops working
/// at once.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", params(LogoutQuery), responses((status = 204), (status = 401)))]
pub async fn logout(State(state): State<AppState>, ApiQuery(q): ApiQuery<LogoutQuery>, auth: AuthUser) -> ApiResult<SignedOut> {
    if q.all {
        let ended = state.store.db.end_all_sessions(&auth.user.id).await?;
        tracing::info!(user_id = %auth.user.id, ended, "signed out everywhere");
    } else {
        signin::sign_out(&state.store, &auth.token).await?;
    }
    Ok(signed_out(state.config.secure_cookies()))
}

/// The user's live sessions, most recently used first.
#[utoipa::path(get, path = "/api/auth/sessions", tag = "auth", responses((status = 200, body = Vec<SessionListed>), (status = 401)))]
pub async fn sessions(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<SessionListed>>> {
    let rows = state.store.db.sessions_of(&auth.user.id, state.clock.now(), signin::SESSION_LIFETIME).await?;
    let listed: Vec<SessionListed> = rows
        .into_iter()
        .map(|r| SessionListed {
            current: Some(r.id) == auth.session_id,
            id: r.id,
            label: r.label,
            created_at: hibiki_common::domain::time::from_millis(r.created_at),
            last_used_at: hibiki_common::domain::time::from_millis(r.last_used_at),
        })
        .collect();
    Ok(Answer(listed))
}

/// Ends one of the user's sessions (another device signs out at its next request).
#[utoipa::path(delete, path = "/api/auth/sessions/{id}", tag = "auth", params(("id" = String, Path)),
    responses((status = 204), (status = 404, description = "NOT_FOUND")))]
pub async fn end_session(State(state): State<AppState>, ApiPath(id): ApiPath<SessionId>, auth: AuthUser) -> ApiResult<StatusCode> {
    if !state.store.db.end_session(&auth.user.id, &id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The session's device label, from the request's `User-Agent`.
fn device(headers: &HeaderMap) -> String {
    let agent = headers.get(axum::http::header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("");
    hibiki_common::domain::device::label_of_agent(agent)
}

fn record_outcome<T>(result: &Result<T, signin::SignInError>) {
    let outcome = match result {
        Ok(_) => "verified",
        Err(signin::SignInError::OtpInvalid | signin::SignInError::LinkInvalid) => "invalid",
        Err(signin::SignInError::NoCodePending) => "no_code",
        Err(signin::SignInError::OtpExpired) => "expired",
        Err(signin::SignInError::AttemptsExceeded { .. } | signin::SignInError::CodeBurned) => "attempts_exceeded",
        Err(_) => "error",
    };
    metrics::counter!(hibiki_common::metric_names::SIGN_IN_TOTAL, "outcome" => outcome).increment(1);
}

/// A new session: its cookie, and its token in the answer.
type Issued = (HeaderMap, Answer<SessionIssued>);

fn issue(state: &AppState, signed_in: SignedIn) -> Issued {
    let mut headers = HeaderMap::new();
    if let Ok(v) = session_cookie(&signed_in.token, state.config.secure_cookies()).parse() {
        headers.insert(SET_COOKIE, v);
    }
    let body = Answer(SessionIssued {
        access_token: signed_in.token,
        token_type: "Bearer",
        expires_in: SESSION_TTL.as_secs(),
        user: signed_in.user,
        is_new_user: signed_in.is_new_user,
    });
    (headers, body)
}
