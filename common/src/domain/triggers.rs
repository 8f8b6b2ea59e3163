//! Trigger links (decisions.md "Open to other tools"): secret URLs that ring, complete or snooze
//! one reminder for the person who made them, from iOS Shortcuts, Android automations, Home
//! Assistant, an NFC tag or a QR code.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::ids::{ReminderId, TriggerId};
use crate::domain::states::Language;

/// Trigger links one reminder may have.
pub const MAX_TRIGGERS: i64 = 5;
/// Requests one trigger link answers a minute.
pub const TRIGGERS_PER_MINUTE: u32 = 6;

/// A trigger link as listed (the secret is shown once, at creation).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Trigger {
    #[schema(value_type = String)]
    pub id: TriggerId,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_used_at: Option<Timestamp>,
}

/// A new trigger link: its URL is shown only now.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CreatedTrigger {
    #[schema(value_type = String)]
    pub id: TriggerId,
    /// `{public_url}/t/<secret>`.
    pub url: String,
}

/// What a trigger's `POST` does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerAction {
    /// Ring it now, on the maker's devices.
    #[default]
    Ring,
    /// Done: what rang, else the occurrence it waits on (done early).
    Complete,
    /// Snooze what rang.
    Snooze,
}

/// A trigger's `POST` body (all optional: an empty body rings).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct TriggerInput {
    #[serde(default)]
    pub action: TriggerAction,
    /// With `snooze`: a preset (5, 10, 15, 30, 60); default the maker's.
    #[serde(default)]
    pub snooze_minutes: Option<i64>,
}

/// What a trigger's ring answers (202).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TriggerRang {
    /// The delivery log entry (kind `trigger`).
    #[schema(value_type = String)]
    pub log_id: crate::domain::ids::LogId,
}

/// What a trigger's complete or snooze answers (200).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TriggerActed {
    pub action: TriggerAction,
    /// False when there was nothing to do (already done; nothing rang to snooze).
    pub changed: bool,
    /// When it rings next, if it does.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_at: Option<Timestamp>,
}

/// What the trigger's page shows (`GET /api/triggers/{secret}`): never acts.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TriggerPage {
    #[schema(value_type = String)]
    pub reminder_id: ReminderId,
    /// None when the maker hides notification content.
    pub title: Option<String>,
    /// The maker's language: the page speaks it.
    pub language: Language,
    /// False once the reminder is completed (it can no longer ring).
    pub is_active: bool,
    /// Something rang and waits for an answer (Complete and Snooze act on it).
    pub ringing: bool,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_at: Option<Timestamp>,
}

/// A trigger secret's text from 32 random bytes (URL-safe base64, 43 characters).
pub fn secret_text(random: [u8; 32]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random)
}

/// Whether a path segment could be a trigger secret: anything else is refused before a lookup.
pub fn looks_like_secret(text: &str) -> bool {
    text.len() == 43 && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_body_rings() {
        let input: TriggerInput = serde_json::from_str("{}").unwrap();
        assert_eq!(input.action, TriggerAction::Ring);
        let snooze: TriggerInput = serde_json::from_str(r#"{"action":"snooze","snooze_minutes":10}"#).unwrap();
        assert_eq!((snooze.action, snooze.snooze_minutes), (TriggerAction::Snooze, Some(10)));
        assert!(serde_json::from_str::<TriggerInput>(r#"{"action":"delete"}"#).is_err());
    }

    #[test]
    fn secrets_have_one_shape() {
        let s = secret_text([200; 32]);
        assert!(looks_like_secret(&s), "{s}");
        assert!(!looks_like_secret("short"));
        assert!(!looks_like_secret(&format!("{}.", &s[..42])));
    }
}
