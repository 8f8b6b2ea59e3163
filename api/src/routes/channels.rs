//! Channels (api.md "Channels"): a person's ntfy topics and webhooks (Telegram and LINE where
//! the operator enabled them), their tests, and the action URLs a channel's message carries.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use hibiki_common::domain::channels::{
    self, Channel, ChannelKind, ChannelPatch, ChannelStatus, MAX_LABEL_CHARS, NewChannel, new_webhook_secret,
};
use hibiki_common::domain::ids::{ChannelId, LogId};
use hibiki_common::domain::states::NotificationAction;
use hibiki_common::error::FieldCode;
use hibiki_common::infra::jobs::PushJob;
use hibiki_common::infra::storage::NewChannelRow;
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
            CreatedChannel { channel, secret }
        }
        // Telegram and LINE need the operator's bot, not enabled on this server.
        ChannelKind::Telegram | ChannelKind::Line => return Err(ApiError::ChannelUnavailable),
    };
    metrics::counter!("hibiki_channels_created_total", "kind" => input.kind.as_str()).increment(1);
    Ok((StatusCode::CREATED, Answer(created)))
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
        metrics::counter!("hibiki_notification_actions_total", "action" => action.as_str()).increment(1);
        if acted.shared && action == NotificationAction::Complete {
            crate::routes::reminders::tell_the_others(&state, log_id, acted.actor).await;
        }
    }
    Ok(Answer(ActedByLink { action, changed: acted.changed }))
}
