use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hibiki_common::domain::ids::{LogId, SubscriptionId};
use hibiki_common::error::FieldCode;
use hibiki_common::infra::storage::Subscription;
use hibiki_common::usecases::devices;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::AuthUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::{ActionRequest, ApiQuery};
use crate::routes::{Answer, Queued};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct VapidPublicKey {
    /// URL-safe base64 of the uncompressed P-256 point.
    pub public_key: String,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActionQuery {
    /// subscribe, unsubscribe, ack or test
    pub action: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct PushKeys {
    pub p256dh: String,
    pub auth: String,
}

#[derive(Deserialize, ToSchema)]
pub struct PushSubscription {
    pub endpoint: String,
    pub keys: PushKeys,
}

#[derive(Deserialize, ToSchema)]
pub struct SubscribeRequest {
    pub subscription: PushSubscription,
    #[serde(default)]
    #[schema(value_type = DeviceInfo)]
    pub device_info: serde_json::Value,
}

/// What the app says about the device: any JSON object of at most 2 KiB, kept as sent; the
/// device's label and platform are read from these fields.
#[derive(ToSchema)]
pub struct DeviceInfo {
    pub user_agent: Option<String>,
    pub platform: Option<String>,
    pub language: Option<String>,
    pub timezone: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct UnsubscribeRequest {
    pub endpoint: String,
}

#[derive(Deserialize, ToSchema)]
pub struct AckRequest {
    #[schema(value_type = String)]
    pub log_id: LogId,
    pub action_token: String,
    /// This device's push endpoint: which device showed it.
    pub endpoint: Option<String>,
}

/// `POST /api/notifications`'s body, by `?action=`: `subscribe`, `unsubscribe` or `ack`
/// (`test` has none). Only describes the body: the handler reads the type its action names.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum NotificationsPostBody {
    Subscribe(SubscribeRequest),
    Unsubscribe(UnsubscribeRequest),
    Ack(AckRequest),
}

/// `?action=subscribe`'s answer: the device's id.
#[derive(Serialize, ToSchema)]
pub struct Subscribed {
    pub id: String,
}

/// `POST /api/notifications`'s answers, by action.
pub enum NotificationsAnswer {
    /// 201: subscribed.
    Subscribed(Subscribed),
    /// 204: unsubscribed, or the notification's showing recorded.
    Done,
    /// 202: the test push is queued.
    Queued(Queued),
}

impl IntoResponse for NotificationsAnswer {
    fn into_response(self) -> Response {
        match self {
            NotificationsAnswer::Subscribed(device) => (StatusCode::CREATED, Answer(device)).into_response(),
            NotificationsAnswer::Done => StatusCode::NO_CONTENT.into_response(),
            NotificationsAnswer::Queued(queued) => (StatusCode::ACCEPTED, Answer(queued)).into_response(),
        }
    }
}

/// The server's VAPID public key, for `PushManager.subscribe`.
#[utoipa::path(get, path = "/api/notifications/vapid-public-key", tag = "notifications", security(()), responses((status = 200, body = VapidPublicKey)))]
pub async fn vapid_public_key(State(state): State<AppState>) -> Answer<VapidPublicKey> {
    Answer(VapidPublicKey { public_key: state.vapid.public_key.clone() })
}

/// This user's devices.
#[utoipa::path(get, path = "/api/notifications/subscriptions", tag = "notifications", responses((status = 200, body = [Subscription])))]
pub async fn subscriptions(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Answer<Vec<Subscription>>> {
    Ok(Answer(state.store.db.subscriptions(&auth.user.id).await?))
}

/// Remove one of this user's devices: it gets no more pushes.
#[utoipa::path(delete, path = "/api/notifications/subscriptions/{id}", params(("id" = String, Path, description = "the device (subscription) id")), tag = "notifications", responses((status = 204), (status = 404)))]
pub async fn delete_subscription(
    State(state): State<AppState>,
    auth: AuthUser,
    crate::extract::ApiPath(id): crate::extract::ApiPath<SubscriptionId>,
) -> ApiResult<StatusCode> {
    state.store.db.delete_subscription_by_id(&auth.user.id, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `?action=subscribe|unsubscribe|ack|test`. `ack` needs no session: the push's token
/// authorizes it.
#[utoipa::path(post, path = "/api/notifications", params(ActionQuery), tag = "notifications",
    request_body(content = Option<NotificationsPostBody>, description = "by `?action=`; none for `test`"),
    // `ack` needs no session: the push's action token authorizes it.
    security(("bearer" = []), ("session_cookie" = []), ()),
    responses((status = 201, description = "subscribed", body = Subscribed), (status = 202, description = "test queued", body = Queued),
        (status = 204, description = "unsubscribed, or acknowledged"),
        (status = 400, description = "ENDPOINT_REJECTED (an unsafe endpoint, or a port other than 443)"), (status = 404, description = "SUBSCRIPTION_NOT_FOUND"),
        (status = 409, description = "ENDPOINT_IN_USE, DEVICE_LIMIT (past 20 devices)"), (status = 429, description = "RATE_LIMITED")))]
pub async fn action(State(state): State<AppState>, ApiQuery(q): ApiQuery<ActionQuery>, req: Request) -> ApiResult<NotificationsAnswer> {
    let mut req = ActionRequest::new(req);
    match q.action.as_deref() {
        // No session: the push's action token authorizes it.
        Some("ack") => {
            acknowledge(&state, req.json(&state).await?).await?;
            Ok(NotificationsAnswer::Done)
        }
        Some("subscribe") => {
            let auth = req.user(&state).await?;
            Ok(NotificationsAnswer::Subscribed(subscribe(&state, &auth, req.json(&state).await?).await?))
        }
        Some("unsubscribe") => {
            let auth = req.user(&state).await?;
            let un: UnsubscribeRequest = req.json(&state).await?;
            state.store.db.delete_subscription_of_user(&auth.user.id, &un.endpoint).await?;
            Ok(NotificationsAnswer::Done)
        }
        Some("test") => {
            let auth = req.user(&state).await?;
            Ok(NotificationsAnswer::Queued(test(&state, &auth).await?))
        }
        _ => Err(ApiError::field("action", FieldCode::InvalidChoice.because("action must be subscribe, unsubscribe, ack or test"))),
    }
}

/// `POST /api/push/test`: the same as `?action=test`.
#[utoipa::path(post, path = "/api/push/test", tag = "notifications", responses((status = 202, body = Queued), (status = 404), (status = 429)))]
pub async fn push_test(State(state): State<AppState>, auth: AuthUser) -> ApiResult<(StatusCode, Answer<Queued>)> {
    Ok((StatusCode::ACCEPTED, Answer(test(&state, &auth).await?)))
}

async fn subscribe(state: &AppState, auth: &AuthUser, req: SubscribeRequest) -> ApiResult<Subscribed> {
    let device = devices::NewDevice {
        endpoint: &req.subscription.endpoint,
        p256dh: &req.subscription.keys.p256dh,
        auth: &req.subscription.keys.auth,
        device_info: &req.device_info,
    };
    let id = devices::subscribe(&state.store, &auth.user.id, device, state.config.allow_private_push, state.clock.now()).await?;
    Ok(Subscribed { id })
}

async fn acknowledge(state: &AppState, ack: AckRequest) -> ApiResult<()> {
    Ok(devices::showed(&state.store, &ack.log_id, &ack.action_token, ack.endpoint.as_deref(), state.clock.now()).await?)
}

async fn test(state: &AppState, auth: &AuthUser) -> ApiResult<Queued> {
    devices::test_push(state.use_cases(), &auth.user.id, state.clock.now()).await?;
    Ok(Queued { queued: true })
}
