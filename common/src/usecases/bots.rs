//! What the operator's Telegram bot and LINE channel hear (decisions.md "Reach and rhythm"):
//! a link code links a pending channel; a button on a ring completes or snoozes it as the
//! channel's person. Answers the replies to send (the caller sends or queues them).

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::Result;
use crate::domain::bots::{self, LineWebhook, TelegramUpdate};
use crate::domain::channels::ChannelKind;
use crate::domain::ids::{LogId, UserId};
use crate::domain::states::{Language, NotificationAction};
use crate::infra::jobs::SendJob;
use crate::infra::storage::Store;
use crate::usecases::Context;
use crate::usecases::reminders::{self, NotificationAct, Proof};

/// What a reply says (put into words in the person's language by whoever sends it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplyText {
    /// The channel is linked: rings will come here.
    Linked,
    /// A code that links nothing (used, removed or mistyped).
    UnknownCode,
    Completed,
    Snoozed,
    /// The ring is gone, or not this person's to act on.
    Gone,
}

/// A reply to send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum BotReply {
    Telegram { chat_id: i64, text: ReplyText, lang: Language },
    TelegramAnswer { callback_query_id: String, text: ReplyText, lang: Language },
    Line { reply_token: String, text: ReplyText, lang: Language },
}

async fn language_of(store: &Store, user: &UserId) -> Language {
    store.db.settings(user).await.map(|s| s.language).unwrap_or(Language::En)
}

/// Acts on a ring's button as the channel's person.
async fn act(store: &Store, user: &UserId, action: NotificationAction, log_id: LogId, now: Timestamp) -> Result<ReplyText> {
    let Some(entry) = store.db.delivery(&log_id).await? else { return Ok(ReplyText::Gone) };
    let act = NotificationAct { reminder_id: entry.reminder_id, log_id, action, snooze_minutes: None, snooze_until: None };
    let acted = reminders::act_on_notification(store, act, Proof { user: Some(user), action_token: None }, now).await;
    Ok(match (acted, action) {
        (Ok(Some(_)), NotificationAction::Complete) => ReplyText::Completed,
        (Ok(Some(_)), NotificationAction::Snooze) => ReplyText::Snoozed,
        (Ok(None), _) | (Err(crate::Error::NotFound), _) => ReplyText::Gone,
        (Err(e), _) => return Err(e),
    })
}

/// A Telegram update: `/start <code>` links; a button acts. The bot's reply is queued, and a
/// Complete on a shared reminder tells the others.
pub async fn telegram_update(cx: Context<'_>, update: &TelegramUpdate, now: Timestamp) -> Result<()> {
    let (replies, acted) = read_telegram_update(cx.store, update, now).await?;
    answer(cx, replies, acted.into_iter().collect()).await;
    Ok(())
}

/// LINE webhook events (already checked for the channel's signature): a message with a
/// pending code links; a postback acts. As for Telegram, replies are queued and the others told.
pub async fn line_events(cx: Context<'_>, webhook: &LineWebhook, now: Timestamp) -> Result<()> {
    let (replies, completed) = read_line_events(cx.store, webhook, now).await?;
    answer(cx, replies, completed).await;
    Ok(())
}

/// Queues the bot's replies, and the `done` push for the others of what was completed. A queue
/// that is down loses a reply, not the act: the bot's platform does not retry on our error.
async fn answer(cx: Context<'_>, replies: Vec<BotReply>, completed: Vec<(UserId, LogId)>) {
    for reply in replies {
        if let Err(e) = cx.queues.push(SendJob::BotReply { reply }).await {
            tracing::warn!(error = %e, "could not queue a bot reply");
        }
    }
    for (by, log_id) in completed {
        super::ring::tell_the_others(cx, log_id, by).await;
    }
}

/// What a Telegram update asks to reply, and the person acted for (who may need the `done`
/// push sent to the others).
async fn read_telegram_update(store: &Store, update: &TelegramUpdate, now: Timestamp) -> Result<(Vec<BotReply>, Option<(UserId, LogId)>)> {
    if let Some(message) = &update.message
        && let Some(code) = message.text.as_deref().and_then(bots::start_code)
    {
        let chat_id = message.chat.id;
        let hint = message.from.as_ref().and_then(|f| f.language_code.as_deref());
        let reply = match store.db.link_channel(&store.keys, ChannelKind::Telegram, code, &chat_id.to_string()).await? {
            Some(user) => BotReply::Telegram { chat_id, text: ReplyText::Linked, lang: language_of(store, &user).await },
            None => BotReply::Telegram { chat_id, text: ReplyText::UnknownCode, lang: Language::from_hint(hint) },
        };
        return Ok((vec![reply], None));
    }
    if let Some(callback) = &update.callback_query {
        let hint = Language::from_hint(callback.from.language_code.as_deref());
        let answer = |text, lang| BotReply::TelegramAnswer { callback_query_id: callback.id.clone(), text, lang };
        let Some((action, log_id)) = callback.data.as_deref().and_then(bots::parse_button) else {
            return Ok((vec![answer(ReplyText::Gone, hint)], None));
        };
        // In a private chat the chat is the person.
        let Some(user) = store.db.channel_owner(&store.keys, ChannelKind::Telegram, &callback.from.id.to_string()).await? else {
            return Ok((vec![answer(ReplyText::Gone, hint)], None));
        };
        let text = act(store, &user, action, log_id, now).await?;
        let acted = (text == ReplyText::Completed).then_some((user, log_id));
        return Ok((vec![answer(text, language_of(store, &user).await)], acted));
    }
    Ok((Vec::new(), None))
}

/// What LINE's events ask to reply, and what they completed.
async fn read_line_events(store: &Store, webhook: &LineWebhook, now: Timestamp) -> Result<(Vec<BotReply>, Vec<(UserId, LogId)>)> {
    let mut replies = Vec::new();
    let mut completed = Vec::new();
    for event in &webhook.events {
        let (Some(user_id), reply_token) = (event.source.as_ref().and_then(|s| s.user_id.clone()), event.reply_token.clone()) else {
            continue;
        };
        let reply = |text, lang| reply_token.clone().map(|reply_token| BotReply::Line { reply_token, text, lang });
        match event.kind.as_str() {
            "message" => {
                let Some(text) = event.message.as_ref().filter(|m| m.kind == "text").and_then(|m| m.text.as_deref()) else { continue };
                let code = bots::normalized_code(text);
                if code.is_empty() || code.len() > 32 {
                    continue;
                }
                match store.db.link_channel(&store.keys, ChannelKind::Line, &code, &user_id).await? {
                    Some(user) => replies.extend(reply(ReplyText::Linked, language_of(store, &user).await)),
                    // Not linked yet and not a code: say how.
                    None if store.db.channel_owner(&store.keys, ChannelKind::Line, &user_id).await?.is_none() => {
                        replies.extend(reply(ReplyText::UnknownCode, Language::Ja))
                    }
                    None => {}
                }
            }
            "postback" => {
                let Some((action, log_id)) = event.postback.as_ref().and_then(|p| bots::parse_button(&p.data)) else { continue };
                let Some(user) = store.db.channel_owner(&store.keys, ChannelKind::Line, &user_id).await? else {
                    replies.extend(reply(ReplyText::Gone, Language::Ja));
                    continue;
                };
                let text = act(store, &user, action, log_id, now).await?;
                if text == ReplyText::Completed {
                    completed.push((user, log_id));
                }
                replies.extend(reply(text, language_of(store, &user).await));
            }
            _ => {}
        }
    }
    Ok((replies, completed))
}
