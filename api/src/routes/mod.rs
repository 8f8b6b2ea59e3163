pub mod account;
pub mod admin;
pub mod auth;
pub mod calendar;
pub mod channels;
pub mod health;
pub mod lists;
pub mod notifications;
pub mod reminders;
pub mod site;
pub mod tokens;
pub mod transfer;
pub mod triggers;

use axum::Json;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// A success answer: `{"success": true, "data": …}` around the handler's typed data, so the
/// type a handler returns is the one its `#[utoipa::path]` names (the envelope itself is
/// added to the document once, by `openapi::Contract`).
pub struct Answer<T>(pub T);

#[derive(Serialize)]
struct Envelope<T> {
    success: bool,
    data: T,
}

impl<T: Serialize> IntoResponse for Answer<T> {
    fn into_response(self) -> Response {
        Json(Envelope { success: true, data: self.0 }).into_response()
    }
}

/// `{"queued": true}`: the job was queued (a test email, a test push).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct Queued {
    /// Always true.
    pub queued: bool,
}
