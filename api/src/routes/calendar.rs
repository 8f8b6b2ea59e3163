//! The calendar feed: a secret per-user URL serving the active reminders as iCalendar.

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use hibiki_common::calendar::{self, FeedOptions};
use hibiki_common::crypto::session_hash;
use hibiki_common::reminder::StatusFilter;
use jiff::Timestamp;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::routes::ok;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct CalendarUrl {
    /// `https://…/api/calendar/{secret}.ics`; a calendar app subscribes to it (`webcal:` works too).
    pub url: String,
}

/// A new secret feed URL; any earlier one stops working.
#[utoipa::path(post, path = "/api/calendar/token", tag = "calendar", responses((status = 201, body = CalendarUrl)))]
pub async fn create_token(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Response> {
    let token = state.keys.token();
    state.db.set_calendar_token(&auth.user.id, Some(&session_hash(&token))).await?;
    let base = state.config.public_url.as_str().trim_end_matches('/');
    Ok((StatusCode::CREATED, ok(CalendarUrl { url: format!("{base}/api/calendar/{token}.ics") })).into_response())
}

/// The feed URL stops working.
#[utoipa::path(delete, path = "/api/calendar/token", tag = "calendar", responses((status = 204)))]
pub async fn delete_token(State(state): State<AppState>, auth: AuthUser) -> ApiResult<StatusCode> {
    state.db.set_calendar_token(&auth.user.id, None).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The user's active reminders as iCalendar (RFC 5545); the secret in the path is the only
/// authorization. "Hide notification content" applies.
#[utoipa::path(get, path = "/api/calendar/{file}", params(("file" = String, Path, description = "`{secret}.ics`")), tag = "calendar",
    responses((status = 200, content_type = "text/calendar", body = String), (status = 404)))]
pub async fn feed(State(state): State<AppState>, Path(file): Path<String>) -> ApiResult<Response> {
    let token = file.strip_suffix(".ics").filter(|t| !t.is_empty() && t.len() <= 64).ok_or(ApiError::NotFound)?;
    let user = state.db.calendar_user(&session_hash(token)).await?.ok_or(ApiError::NotFound)?;
    let settings = state.db.settings(&user.id).await?;
    let reminders = state.db.list_reminders(&state.keys, &user.id, StatusFilter::Active).await?;
    let host = state.config.public_url.host_str().unwrap_or("hibiki").to_owned();
    let options =
        FeedOptions { host: &host, language: settings.language, hide_content: settings.hide_notification_content, now: Timestamp::now() };
    let body = calendar::feed(&reminders, &options);
    Ok(([(header::CONTENT_TYPE, "text/calendar; charset=utf-8"), (header::CACHE_CONTROL, "private, max-age=300")], body).into_response())
}
