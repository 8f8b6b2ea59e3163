use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;

use crate::routes::ok;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
pub struct VapidPublicKey {
    /// URL-safe base64 of the uncompressed P-256 point.
    pub public_key: String,
}

/// The server's VAPID public key, for `PushManager.subscribe`.
#[utoipa::path(get, path = "/api/notifications/vapid-public-key", tag = "notifications", responses((status = 200, body = VapidPublicKey)))]
pub async fn vapid_public_key(State(state): State<AppState>) -> Json<serde_json::Value> {
    ok(VapidPublicKey { public_key: state.vapid.public_key.clone() })
}
