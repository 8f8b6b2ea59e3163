//! Channels (api.md "Channels"): a person's ntfy topics and webhooks (Telegram and LINE where
//! the operator enabled them), their tests, and the action URLs a channel's message carries.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use hibiki_common::domain::bots::{LineWebhook, TelegramUpdate};
use hibiki_common::domain::channels::{
    self, Channel, ChannelKind, ChannelPatch, ChannelStatus, MAX_LABEL_CHARS, NewChannel, new_webhook_secret,
};
use hibiki_common::domain::ids::{ChannelId, LogId, UserId};
use hibiki_common::domain::states::NotificationAction;
use hibiki_common::error::FieldCode;
use hibiki_common::infra::jobs::PushJob;
use hibiki_common::infra::storage::{NewChannelRow, link_code_hash};
use hibiki_common::usecases::reminders::{self, NotificationAct, Proof};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ApiJson, ApiPath};
use crate::routes::Answer;
use crate::state::AppState;

/// A new channel, with what it is shown once.
#[derive(Serialize, ToSchema)]
pub struct CreatedChannel {
    #[serde(flatten)]
    pub channel: Channel,
    /// A webhook's signing secret (`whsec_…`), shown only now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Telegram: open this (`https://t.me/<bot>?start=<code>`) and press Start to link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// LINE: send this code to the bot to link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// LINE: the bot's add-friend link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub friend_url: Option<String>,
}

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
    let (db, keys) = (&state.store.db, &state.store.keys);
    let now = state.clock.now();
    let created = match input.kind {
        ChannelKind::Ntfy | ChannelKind::Webhook => {
            let Some(raw) = input.url.as_deref().map(str::trim).filter(|u| !u.is_empty()) else {
                return Err(ApiError::field("url", FieldCode::Required.because("url is required")));
            };
            let url = channels::check_url(raw, state.config.allow_private_push).map_err(|e| ApiError::EndpointRejected(e.to_string()))?;
            if input.kind == ChannelKind::Ntfy && channels::ntfy_publish_target(&url).is_none() {
                return Err(ApiError::field("url", FieldCode::InvalidFormat.because("an ntfy topic URL, like https://ntfy.sh/your-topic")));
            }
            let token = input.token.as_deref().map(str::trim).filter(|t| !t.is_empty());
            if token.is_some_and(|t| t.len() > 200 || t.chars().any(|c| c.is_control() || c.is_whitespace())) {
                return Err(ApiError::field("token", FieldCode::InvalidFormat.because("an ntfy access token")));
            }
            let secret = (input.kind == ChannelKind::Webhook).then(|| new_webhook_secret(hibiki_common::infra::crypto::random_bytes()));
            let label = channels::default_label(input.kind, Some(&url));
            let row = NewChannelRow {
                kind: input.kind,
                label: &label,
                status: ChannelStatus::Active,
                address: Some(url.as_str()),
                secret: if input.kind == ChannelKind::Webhook { secret.as_deref() } else { token },
                link_code: None,
            };
            let channel = db.create_channel(keys, &auth.user.id, row, now).await?;
            CreatedChannel { channel, secret, link: None, code: None, friend_url: None }
        }
        ChannelKind::Telegram => {
            if !state.bots.telegram_enabled() {
                return Err(ApiError::ChannelUnavailable);
            }
            let bot = state.bots.telegram_username().await.map_err(|e| {
                tracing::warn!(error = %e, "the Telegram bot could not be asked its name");
                ApiError::Unavailable("telegram")
            })?;
            // A code no one can guess: the link is the whole secret.
            let code = keys.token();
            let hash = link_code_hash(keys, ChannelKind::Telegram, &code);
            let row = NewChannelRow {
                kind: input.kind,
                label: "Telegram",
                status: ChannelStatus::Pending,
                address: None,
                secret: None,
                link_code: Some(&hash),
            };
            let channel = db.create_channel(keys, &auth.user.id, row, now).await?;
            let link = format!("https://t.me/{bot}?start={code}");
            CreatedChannel { channel, secret: None, link: Some(link), code: None, friend_url: None }
        }
        ChannelKind::Line => {
            if !state.bots.line_enabled() {
                return Err(ApiError::ChannelUnavailable);
            }
            let basic_id = state.bots.line_basic_id().await.map_err(|e| {
                tracing::warn!(error = %e, "the LINE channel could not be asked its id");
                ApiError::Unavailable("line")
            })?;
            // Typed by hand into LINE: ten letters and digits that cannot be confused.
            let code = typed_code();
            let hash = link_code_hash(keys, ChannelKind::Line, &code);
            let row = NewChannelRow {
                kind: input.kind,
                label: "LINE",
                status: ChannelStatus::Pending,
                address: None,
                secret: None,
                link_code: Some(&hash),
            };
            let channel = db.create_channel(keys, &auth.user.id, row, now).await?;
            let friend_url = format!("https://line.me/R/ti/p/{basic_id}");
            CreatedChannel { channel, secret: None, link: None, code: Some(code), friend_url: Some(friend_url) }
        }
    };
    metrics::counter!(hibiki_common::metric_names::CHANNELS_CREATED_TOTAL, "kind" => input.kind.as_str()).increment(1);
    Ok((StatusCode::CREATED, Answer(created)))
}

/// A link code to type: 10 characters of an alphabet without look-alikes (about 50 bits).
fn typed_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let bytes: [u8; 10] = hibiki_common::infra::crypto::random_bytes();
    bytes.iter().map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char).collect()
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
    let (replies, acted) = hibiki_common::usecases::bots::telegram_update(&state.store, &update, state.clock.now()).await?;
    queue_replies(&state, replies, acted.into_iter().collect()).await;
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
    let (replies, completed) = hibiki_common::usecases::bots::line_events(&state.store, &webhook, state.clock.now()).await?;
    queue_replies(&state, replies, completed).await;
    Ok(StatusCode::OK)
}

/// Queues the bot's replies, and the `done` push for the others of what was completed.
async fn queue_replies(state: &AppState, replies: Vec<hibiki_common::usecases::bots::BotReply>, completed: Vec<(UserId, LogId)>) {
    for reply in replies {
        if let Err(e) = state.queues.push(PushJob::BotReply { reply }).await {
            tracing::warn!(error = %e, "could not queue a bot reply");
        }
    }
    for (by, log_id) in completed {
        hibiki_common::usecases::ring::tell_the_others(state.use_cases(), log_id, by).await;
    }
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
    let channel = state.store.db.channel(&auth.user.id, &id).await?;
    if channel.status == ChannelStatus::Pending {
        return Err(ApiError::NotFound);
    }
    state.store.db.take_channel_test(&auth.user.id, &id, state.clock.now()).await?;
    state.queues.push(PushJob::ChannelTest { channel_id: id }).await.map_err(|_| ApiError::Unavailable("push queue"))?;
    Ok(StatusCode::ACCEPTED)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActionToken {
    /// The entry's action token, as the channel's message carries it.
    pub t: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ActedByLink {
    /// What was done: `complete` or `snooze` (the person's default snooze).
    pub action: NotificationAction,
    /// Whether this act changed anything (the same act twice changes nothing).
    pub changed: bool,
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
    let Some(entry) = state.store.db.delivery(&log_id).await? else { return Err(ApiError::NotFound) };
    let act = NotificationAct { reminder_id: entry.reminder_id, log_id, action, snooze_minutes: None, snooze_until: None };
    let proof = Proof { user: None, action_token: Some(token) };
    let acted = reminders::act_on_notification(&state.store, act, proof, state.clock.now()).await?.ok_or(ApiError::NotFound)?;
    if acted.changed {
        metrics::counter!(hibiki_common::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => action.as_str()).increment(1);
        if acted.shared && action == NotificationAction::Complete {
            hibiki_common::usecases::ring::tell_the_others(state.use_cases(), log_id, acted.actor).await;
        }
    }
    Ok(Answer(ActedByLink { action, changed: acted.changed }))
}
