//! The Telegram bot and the LINE channel at work: their replies in the person's words, rings
//! with Complete and Snooze buttons, and (without an https public URL) Telegram's updates
//! read by long polling.

use std::sync::Arc;
use std::time::Duration;

use hibiki_common::domain::bots::TelegramUpdate;
use hibiki_common::domain::bots::button_data;
use hibiki_common::domain::states::{Language, NotificationAction};
use hibiki_common::infra::bots::{BotError, Bots};
use hibiki_common::infra::queue::Queues;
use hibiki_common::infra::storage::Store;
use hibiki_common::usecases::bots::{self, BotReply, ReplyText};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::channels::ChannelMessage;
use crate::texts;

/// Telegram's text limit, and LINE's for a buttons template without a title.
const TELEGRAM_TEXT: usize = 4096;
const LINE_TEXT: usize = 160;

fn words(text: ReplyText, lang: Language) -> &'static str {
    let t = texts::push(lang);
    match text {
        ReplyText::Linked => &t.bot_linked,
        ReplyText::UnknownCode => &t.bot_unknown_code,
        ReplyText::Completed => &t.bot_completed,
        ReplyText::Snoozed => &t.bot_snoozed,
        ReplyText::Gone => &t.bot_gone,
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max { text.to_owned() } else { text.chars().take(max - 1).chain(['…']).collect() }
}

/// Sends a reply.
pub async fn reply(bots: &Bots, reply: &BotReply) -> Result<(), BotError> {
    match reply {
        BotReply::Telegram { chat_id, text, lang } => {
            bots.telegram("sendMessage", &json!({ "chat_id": chat_id, "text": words(*text, *lang) })).await.map(|_| ())
        }
        BotReply::TelegramAnswer { callback_query_id, text, lang } => bots
            .telegram("answerCallbackQuery", &json!({ "callback_query_id": callback_query_id, "text": words(*text, *lang) }))
            .await
            .map(|_| ()),
        BotReply::Line { reply_token, text, lang } => {
            bots.line_reply(reply_token, json!([{ "type": "text", "text": words(*text, *lang) }])).await
        }
    }
}

/// A ring (or a test, or the brief) to a linked Telegram chat: its text, and Complete and
/// Snooze buttons when it has them.
pub async fn send_telegram(bots: &Bots, chat_id: &str, m: &ChannelMessage) -> Result<(), BotError> {
    let t = texts::push(m.lang);
    let mut body =
        json!({ "chat_id": chat_id.parse::<i64>().unwrap_or_default(), "text": cut(&format!("{}\n{}", m.title, m.body), TELEGRAM_TEXT) });
    if m.action_token.is_some() {
        body["reply_markup"] = json!({ "inline_keyboard": [[
            { "text": t.complete, "callback_data": button_data(NotificationAction::Complete, &m.log_id) },
            { "text": t.snooze, "callback_data": button_data(NotificationAction::Snooze, &m.log_id) },
        ]] });
    }
    bots.telegram("sendMessage", &body).await.map(|_| ())
}

/// The same to a linked LINE user: a buttons template with postback actions, or plain text.
pub async fn send_line(bots: &Bots, user_id: &str, m: &ChannelMessage) -> Result<(), BotError> {
    let t = texts::push(m.lang);
    let text = format!("{}\n{}", m.title, m.body);
    let message: Value = if m.action_token.is_some() {
        let action = |label: &str, a: NotificationAction| json!({ "type": "postback", "label": label, "data": button_data(a, &m.log_id), "displayText": label });
        json!({
            "type": "template",
            "altText": cut(&text, 400),
            "template": { "type": "buttons", "text": cut(&text, LINE_TEXT),
                          "actions": [action(&t.complete, NotificationAction::Complete), action(&t.snooze, NotificationAction::Snooze)] },
        })
    } else {
        json!({ "type": "text", "text": cut(&text, 5000) })
    };
    bots.line_push(user_id, json!([message])).await
}

/// Reads Telegram's updates by long polling until shutdown (for servers without an https
/// public URL, which Telegram's webhooks need): each is handled as the webhook would.
pub async fn poll_telegram(
    bots: Arc<Bots>,
    store: Store,
    queues: Queues,
    clock: hibiki_common::domain::time::Clock,
    shutdown: CancellationToken,
) {
    let cx = hibiki_common::usecases::Context { store: &store, queues: &queues, bots: &bots };
    let mut offset: i64 = 0;
    loop {
        let ask = json!({ "offset": offset, "timeout": 25, "allowed_updates": ["message", "callback_query"] });
        let asked = bots.telegram("getUpdates", &ask);
        let result = tokio::select! {
            r = asked => r,
            _ = shutdown.cancelled() => return,
        };
        let updates: Vec<TelegramUpdate> = match result {
            Ok(v) => serde_json::from_value(v).unwrap_or_default(),
            Err(e) => {
                tracing::warn!(error = %e, "could not read Telegram's updates");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(5)) => continue,
                    _ = shutdown.cancelled() => return,
                }
            }
        };
        for update in updates {
            offset = offset.max(update.update_id + 1);
            if let Err(e) = bots::telegram_update(cx, &update, clock.now()).await {
                tracing::warn!(error = %e, "could not handle a Telegram update");
            }
        }
    }
}

/// Points Telegram's webhook at this server (an https public URL), with the secret it must
/// send back.
pub async fn set_telegram_webhook(bots: &Bots, public_url: &str) -> Result<(), BotError> {
    let url = format!("{}/api/channels/telegram/webhook", public_url.trim_end_matches('/'));
    let secret = bots.telegram_webhook_secret().unwrap_or_default();
    bots.telegram("setWebhook", &json!({ "url": url, "secret_token": secret, "allowed_updates": ["message", "callback_query"] }))
        .await
        .map(|_| ())
}
