//! Telegram and LINE, as far as Hibiki reads them (decisions.md "Reach and rhythm"): the
//! updates and webhook events that link a channel or act on a ring, the button data a ring
//! carries, and the checks of their secrets. Pure: parsing and deciding, no I/O. (The types
//! are the webhook routes' request bodies in the OpenAPI document too.)

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;

use crate::domain::ids::LogId;
use crate::domain::states::NotificationAction;

/// A Telegram update (the fields Hibiki reads).
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct TelegramUpdate {
    pub update_id: i64,
    #[serde(default)]
    pub message: Option<TelegramMessage>,
    #[serde(default)]
    pub callback_query: Option<TelegramCallback>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct TelegramMessage {
    pub chat: TelegramChat,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub from: Option<TelegramUser>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct TelegramChat {
    pub id: i64,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct TelegramCallback {
    pub id: String,
    pub from: TelegramUser,
    #[serde(default)]
    pub data: Option<String>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct TelegramUser {
    pub id: i64,
    /// The person's Telegram language (`ja`, `en-US`...).
    #[serde(default)]
    pub language_code: Option<String>,
}

/// A LINE webhook request's body (the fields Hibiki reads).
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct LineWebhook {
    #[serde(default)]
    pub events: Vec<LineEvent>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct LineEvent {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, rename = "replyToken")]
    pub reply_token: Option<String>,
    #[serde(default)]
    pub source: Option<LineSource>,
    #[serde(default)]
    pub message: Option<LineMessage>,
    #[serde(default)]
    pub postback: Option<LinePostback>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct LineSource {
    #[serde(default, rename = "userId")]
    pub user_id: Option<String>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct LineMessage {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct LinePostback {
    pub data: String,
}

/// A button's data: the action and the entry (`complete:<log id, 32 hex digits>`), well
/// under Telegram's 64 bytes.
pub fn button_data(action: NotificationAction, log_id: &LogId) -> String {
    format!("{}:{}", action.as_str(), log_id.as_uuid().simple())
}

/// What a button's data asks, if it is one of ours.
pub fn parse_button(data: &str) -> Option<(NotificationAction, LogId)> {
    let (action, id) = data.split_once(':')?;
    let uuid = uuid::Uuid::try_parse(id).ok()?;
    Some((NotificationAction::parse(action)?, LogId::from(uuid)))
}

/// The link code a Telegram `/start <code>` message carries.
pub fn start_code(text: &str) -> Option<&str> {
    let rest = text.trim().strip_prefix("/start")?;
    let code = rest.trim();
    (!code.is_empty() && !rest.starts_with(|c: char| !c.is_whitespace())).then_some(code)
}

/// A LINE link code as a person may type it: letters and digits, case and spaces and dashes
/// not minding.
pub fn normalized_code(text: &str) -> String {
    text.chars().filter(|c| c.is_ascii_alphanumeric()).map(|c| c.to_ascii_uppercase()).collect()
}

/// Whether `signature` (the `X-Line-Signature` header) is the base64 HMAC-SHA256 of `body`
/// with the channel secret.
pub fn line_signature_valid(channel_secret: &str, body: &[u8], signature: &str) -> bool {
    let Ok(given) = STANDARD.decode(signature.trim()) else { return false };
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, channel_secret.as_bytes());
    ring::hmac::verify(&key, body, &given).is_ok()
}

/// The secret Telegram sends back in `X-Telegram-Bot-Api-Secret-Token` (set with
/// `setWebhook`): derived from the bot's token, so every process agrees on it.
pub fn telegram_webhook_secret(bot_token: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, format!("hibiki-telegram-webhook:{bot_token}").as_bytes());
    digest.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_data_round_trips_and_fits_telegram() {
        let log = LogId::generate();
        let data = button_data(NotificationAction::Snooze, &log);
        assert!(data.len() <= 64, "{data}");
        assert_eq!(parse_button(&data), Some((NotificationAction::Snooze, log)));
        assert_eq!(parse_button("delete:0"), None);
        assert_eq!(parse_button("complete:nope"), None);
    }

    #[test]
    fn start_codes_and_typed_codes() {
        assert_eq!(start_code("/start abc123"), Some("abc123"));
        assert_eq!(start_code("/start"), None);
        assert_eq!(start_code("/started x"), None);
        assert_eq!(normalized_code(" hb-7k2m 9x "), "HB7K2M9X");
    }

    #[test]
    fn a_line_signature_is_hmac_sha256_of_the_body() {
        // base64(HMAC-SHA256("secret", "{}")), computed independently.
        assert!(line_signature_valid("secret", b"{}", "dzJZAsrKgS3CWXM6rNBGtzgXNyx3e42VtAJkdHRRbhM="));
        assert!(!line_signature_valid("secret", b"{ }", "dzJZAsrKgS3CWXM6rNBGtzgXNyx3e42VtAJkdHRRbhM="));
        assert!(!line_signature_valid("secret", b"{}", "not base64"));
    }
}
