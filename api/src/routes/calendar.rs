//! The calendar feed: a secret per-user URL serving the active reminders as iCalendar.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hibiki_common::domain::calendar::{self, FeedOptions};
use hibiki_common::domain::reminder::StatusFilter;
use hibiki_common::infra::crypto::session_hash;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::feeds::{self, MAX_FEED_BYTES, Rendered};
use crate::routes::Answer;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct CalendarUrl {
    /// `https://…/api/calendar/{secret}.ics`; a calendar app subscribes to it (`webcal:` works too).
    pub url: String,
}

/// A new secret feed URL; any earlier one stops working.
#[utoipa::path(post, path = "/api/calendar/token", tag = "calendar", responses((status = 201, body = CalendarUrl)))]
pub async fn create_token(State(state): State<AppState>, auth: AuthUser) -> ApiResult<(StatusCode, Answer<CalendarUrl>)> {
    let token = state.store.keys.token();
    state.store.db.set_calendar_token(&auth.user.id, Some(&session_hash(&token))).await?;
    state.feeds.forget(&auth.user.id);
    let base = state.config.public_url.as_str().trim_end_matches('/');
    Ok((StatusCode::CREATED, Answer(CalendarUrl { url: format!("{base}/api/calendar/{token}.ics") })))
}

/// The feed URL stops working.
#[utoipa::path(delete, path = "/api/calendar/token", tag = "calendar", responses((status = 204)))]
pub async fn delete_token(State(state): State<AppState>, auth: AuthUser) -> ApiResult<StatusCode> {
    state.store.db.set_calendar_token(&auth.user.id, None).await?;
    state.feeds.forget(&auth.user.id);
    Ok(StatusCode::NO_CONTENT)
}

/// The user's active reminders as iCalendar (RFC 5545); the secret in the path is the only
/// authorization. "Hide notification content" applies.
#[utoipa::path(get, path = "/api/calendar/{file}", params(("file" = String, Path, description = "`{secret}.ics`")), tag = "calendar", security(()),
    responses((status = 200, content_type = "text/calendar", body = String, description = "with an ETag; gzip when accepted; at most 1 MiB"),
        (status = 304, description = "If-None-Match names the current ETag"), (status = 404), (status = 429, description = "past 6 per minute")))]
pub async fn feed(State(state): State<AppState>, Path(file): Path<String>, headers: HeaderMap) -> ApiResult<Response> {
    let token = file.strip_suffix(".ics").filter(|t| !t.is_empty() && t.len() <= 64).ok_or(ApiError::NotFound)?;
    let token_hash = session_hash(token);
    let user = state.store.db.calendar_user(&token_hash).await?.ok_or(ApiError::NotFound)?;
    state.limiters.check_feed(&token_hash)?;
    let now = state.clock.now();
    let settings = state.store.db.settings(&user.id).await?;
    // The spelled-out dates move with the day, so the day is part of what the feed is made of.
    let fingerprint = format!(
        "{}:{}:{}:{}",
        state.store.db.feed_fingerprint(&user.id).await?,
        settings.language,
        settings.hide_notification_content,
        now.as_second().div_euclid(86_400)
    );
    let rendered = match state.feeds.get(&user.id, &fingerprint) {
        Some(rendered) => rendered,
        None => {
            let mut reminders = state.store.list_reminders(&user.id, StatusFilter::Active, now).await?;
            // Those that ring for them: in a shared list, everyone's or theirs by name.
            reminders.retain(|r| r.assignees.is_empty() || r.assignees.contains(&user.id));
            let host = state.config.public_url.host_str().unwrap_or("hibiki").to_owned();
            let options = FeedOptions { host: &host, language: settings.language, hide_content: settings.hide_notification_content, now };
            let body = calendar::feed(&reminders, &options);
            if body.len() > MAX_FEED_BYTES {
                tracing::warn!(user_id = %user.id, bytes = body.len(), "a calendar feed is over its limit");
            }
            let rendered = Rendered::new(fingerprint, body);
            state.feeds.put(user.id, rendered.clone());
            metrics::counter!(hibiki_common::metric_names::CALENDAR_FEEDS_RENDERED_TOTAL).increment(1);
            rendered
        }
    };
    let etag = HeaderValue::from_str(&rendered.etag).expect("hex in quotes");
    let text = |name| headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).unwrap_or("");
    if feeds::matches(text(header::IF_NONE_MATCH), &rendered.etag) {
        return Ok((StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response());
    }
    let gzip = text(header::ACCEPT_ENCODING).split(',').any(|e| {
        let mut parts = e.trim().split(';');
        parts.next().is_some_and(|name| name.trim().eq_ignore_ascii_case("gzip"))
            && !parts.any(|p| p.trim().replace(' ', "").trim_start_matches("q=").parse::<f32>().is_ok_and(|q| q == 0.0))
    });
    let mut response = if gzip { rendered.gzip.into_response() } else { rendered.body.into_response() };
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/calendar; charset=utf-8"));
    h.insert(header::ETAG, etag);
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if gzip {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    Ok(response)
}
