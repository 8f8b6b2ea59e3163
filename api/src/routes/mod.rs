pub mod account;
pub mod admin;
pub mod auth;
pub mod calendar;
pub mod health;
pub mod notifications;
pub mod reminders;
pub mod site;

use axum::Json;
use serde::Serialize;
use serde_json::json;

/// The success envelope: `{"success": true, "data": …}`.
pub fn ok<T: Serialize>(data: T) -> Json<serde_json::Value> {
    Json(json!({ "success": true, "data": data }))
}
