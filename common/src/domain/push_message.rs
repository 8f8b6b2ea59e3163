//! What a push says, as a type: api.md's push payload in the Declarative Web Push format
//! (`web_push: 8030`). The worker builds and sends it; the API publishes its schema (the
//! component `PushMessage`), from which the service worker's type is generated.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::ids::{LogId, ReminderId};
use crate::domain::states::{EntryKind, Language, NotificationAction};

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PushMessage {
    /// 8030 (RFC 8030's number) marks a declarative push message.
    pub web_push: u16,
    pub notification: PushNotification,
    /// The user's overdue reminders, for the app icon's badge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_badge: Option<u32>,
    /// The service worker may change the notification before it is shown.
    pub mutable: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PushNotification {
    pub title: String,
    pub body: String,
    /// The absolute URL of the reminder (or the app) in the user's language.
    pub navigate: String,
    /// The reminder id: a re-send or a snooze replaces the notification instead of stacking.
    pub tag: String,
    pub lang: Language,
    pub silent: bool,
    pub require_interaction: bool,
    pub data: PushData,
    /// Absent when there are none (the test push).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required = false)]
    pub actions: Vec<PushAction>,
}

/// What the push is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PushType {
    Reminder,
    Test,
    /// Someone else completed a shared reminder: replaces its notification, quietly.
    Done,
    /// The daily brief.
    Brief,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PushData {
    #[serde(rename = "type")]
    pub kind: PushType,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub reminder_id: Option<ReminderId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub log_id: Option<LogId>,
    /// Authorizes complete, snooze and the acknowledgement without the app's session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_token: Option<String>,
    /// The delivery log entry's kind: occurrence, snooze, send_now...
    #[serde(rename = "kind", skip_serializing_if = "Option::is_none")]
    pub entry_kind: Option<EntryKind>,
    /// Present (true) only when the push is late; the title then carries the late mark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late: Option<bool>,
    /// Present (true) only when it was held for quiet hours; the title then says since when.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<bool>,
    /// A `done` message: who completed it (their address, as co-members see it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

impl PushData {
    /// Data of a message about no entry (a test, the daily brief): only its type.
    pub fn plain(kind: PushType) -> PushData {
        PushData { kind, reminder_id: None, log_id: None, action_token: None, entry_kind: None, late: None, held: None, by: None }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PushAction {
    pub action: NotificationAction,
    pub title: String,
    /// Where a declarative push (no service worker) takes the person: the app performs the
    /// action there.
    pub navigate: String,
}
