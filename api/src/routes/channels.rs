//! Channels (api.md "Channels"): a person's ntfy topics and webhooks (Telegram and LINE where
//! the operator enabled them), their tests, and the action URLs a channel's message carries.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use hibiki_common::domain::bots::{LineWebhook, TelegramUpdate};
use hibiki_common::domain::channels::{Channel, ChannelPatch, MAX_LABEL_CHARS, NewChannel};
use hibiki_common::domain::ids::{ChannelId, LogId};
use hibiki_common::domain::states::NotificationAction;
use hibiki_common::error::FieldCode;
use hibiki_common::usecases::channels::{self, ActedByLink, CreatedChannel};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::Answer;
use crate::state::AppState;

/// The user's channels.
#[utoipa::path(get, path = "/api/channels", operation_id = "list_channels", tag = "channels", responses((status = 200, body = [Channel])))]
pub async fn list(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<Channel>>> {
    Ok(Answer(state.store.db.channels(&auth.user.id).await?))
}

/// Link a channel: an ntfy topic (`url`, optional `token`) or a webhook (`url`; its secret is
/// answered once). Telegram and LINE only where the operator enabled them.
#[utoipa::path(post, path = "/api/channels", operation_id = "create_channel", request_body = NewChannel, tag = "channels",
    responses((status = 201, body = CreatedChannel), (status = 400, description = "VALIDATION_FAILED, ENDPOINT_REJECTED, CHANNEL_UNAVAILABLE"),
        (status = 409, description = "CHANNEL_LIMIT")))]
pub async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(input): ApiJson<NewChannel>,
) -> ApiResult<(StatusCode, Answer<CreatedChannel>)> {
    let created = channels::create(state.use_cases(), &auth.user.id, &input, state.config.allow_private_push, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Answer(created)))
}

/// Telegram's updates (webhook mode): `/start <code>` links a pending channel; a ring's
/// button completes or snoozes it. 401 without the secret Telegram was given.
#[utoipa::path(post, path = "/api/channels/telegram/webhook", operation_id = "telegram_webhook", request_body = TelegramUpdate, tag = "channels",
    responses((status = 200), (status = 401), (status = 404, description = "no Telegram bot on this server")))]
pub async fn telegram_webhook(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> ApiResult<StatusCode> {
    let Some(secret) = state.bots.telegram_webhook_secret() else { return Err(ApiError::NotFound) };
    let given = headers.get("x-telegram-bot-api-secret-token").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !hibiki_common::infra::crypto::hashes_equal(given.as_bytes(), secret.as_bytes()) {
        return Err(ApiError::Unauthorized);
    }
    let update: TelegramUpdate = serde_json::from_slice(&body).map_err(|e| ApiError::InvalidJson(e.to_string()))?;
    hibiki_common::usecases::bots::telegram_update(state.use_cases(), &update, state.clock.now()).await?;
    Ok(StatusCode::OK)
}

/// LINE's webhook events: a pending code sent to the bot links; a postback acts. 401 when
/// `X-Line-Signature` is not the body's HMAC with the channel secret.
#[utoipa::path(post, path = "/api/channels/line/webhook", operation_id = "line_webhook", request_body = LineWebhook, tag = "channels",
    responses((status = 200), (status = 401), (status = 404, description = "no LINE channel on this server")))]
pub async fn line_webhook(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> ApiResult<StatusCode> {
    let Some(secret) = state.bots.line_secret() else { return Err(ApiError::NotFound) };
    let signature = headers.get("x-line-signature").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !hibiki_common::domain::bots::line_signature_valid(secret, &body, signature) {
        return Err(ApiError::Unauthorized);
    }
    let webhook: LineWebhook = serde_json::from_slice(&body).map_err(|e| ApiError::InvalidJson(e.to_string()))?;
    hibiki_common::usecases::bots::line_events(state.use_cases(), &webhook, state.clock.now()).await?;
    Ok(StatusCode::OK)
}

/// Rename a channel, or choose what it is used for.
#[utoipa::path(put, path = "/api/channels/{id}", operation_id = "update_channel", params(("id" = String, Path, description = "the channel id")),
    request_body = ChannelPatch, tag = "channels", responses((status = 200, body = Channel), (status = 400), (status = 404)))]
pub async fn update(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiPath(id): ApiPath<ChannelId>,
    ApiJson(patch): ApiJson<ChannelPatch>,
) -> ApiResult<Answer<Channel>> {
    if patch.label.as_deref().is_some_and(|l| l.chars().count() > MAX_LABEL_CHARS || l.chars().any(char::is_control)) {
        return Err(ApiError::field(
            "label",
            FieldCode::TooLong.because(format!("at most {MAX_LABEL_CHARS} characters")).with("max", MAX_LABEL_CHARS as i64),
        ));
    }
    Ok(Answer(state.store.db.update_channel(&auth.user.id, &id, &patch).await?))
}

/// Remove a channel.
#[utoipa::path(delete, path = "/api/channels/{id}", operation_id = "delete_channel", params(("id" = String, Path, description = "the channel id")),
    tag = "channels", responses((status = 204), (status = 404)))]
pub async fn delete(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ChannelId>) -> ApiResult<StatusCode> {
    state.store.db.delete_channel(&auth.user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Send a test message to a channel (once a minute); its answer sets the channel's status.
#[utoipa::path(post, path = "/api/channels/{id}/test", operation_id = "test_channel", params(("id" = String, Path, description = "the channel id")),
    tag = "channels", responses((status = 202), (status = 404), (status = 429, description = "RATE_LIMITED")))]
pub async fn test(State(state): State<AppState>, auth: AuthUser, ApiPath(id): ApiPath<ChannelId>) -> ApiResult<StatusCode> {
    channels::test(state.use_cases(), &auth.user.id, &id, state.clock.now()).await?;
    Ok(StatusCode::ACCEPTED)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActionToken {
    /// The entry's action token, as the channel's message carries it.
    pub t: Option<String>,
}

/// Complete or snooze an entry from a channel's message (an ntfy or webhook action URL): the
/// entry's action token stands in for a session. 404 for a wrong token or entry.
#[utoipa::path(post, path = "/api/actions/{log_id}/{action}", operation_id = "act_by_link",
    params(("log_id" = String, Path, description = "the delivery log entry"), ("action" = String, Path, description = "complete or snooze"), ActionToken),
    tag = "channels", responses((status = 200, body = ActedByLink), (status = 404)))]
pub async fn act(
    State(state): State<AppState>,
    Path((log_id, action)): Path<(String, String)>,
    Query(q): Query<ActionToken>,
) -> ApiResult<Answer<ActedByLink>> {
    let (Ok(log_id), Some(action)) = (log_id.parse::<LogId>(), NotificationAction::parse(&action)) else {
        return Err(ApiError::NotFound);
    };
    let Some(token) = q.t.as_deref() else { return Err(ApiError::NotFound) };
    let acted = channels::act_by_link(state.use_cases(), log_id, action, token, state.clock.now()).await?.ok_or(ApiError::NotFound)?;
    Ok(Answer(acted))
}
