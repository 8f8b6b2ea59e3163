//! The operator's Telegram bot and LINE Messaging API channel: their HTTP calls (sendMessage,
//! getUpdates, answerCallbackQuery, getMe; message push and reply, bot info). Their base URLs
//! are configurable so tests talk to local stand-ins; the operator chose them, so they are
//! not held to the rules for addresses people choose.

use std::time::Duration;

use secrecy::ExposeSecret;
use serde_json::{Value, json};
use tokio::sync::OnceCell;

use crate::infra::config::Config;

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error("the bot API could not be reached: {0}")]
    Http(#[from] reqwest::Error),
    /// An answer other than success (status, and what it said).
    #[error("the bot API answered {0}: {1}")]
    Refused(u16, String),
    #[error("this bot is not configured")]
    NotConfigured,
}

struct Telegram {
    base: String,
    token: String,
    username: OnceCell<String>,
}

struct Line {
    base: String,
    token: String,
    secret: String,
    basic_id: OnceCell<String>,
}

/// The bots this server runs (none, either or both).
/// The bots' HTTP client: no redirects, and long enough for Telegram's 25 s long poll.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(40))
        .redirect(reqwest::redirect::Policy::none())
        .user_agent("Hibiki")
        .build()
        .expect("a TLS backend")
}

pub struct Bots {
    http: reqwest::Client,
    telegram: Option<Telegram>,
    line: Option<Line>,
}

impl Bots {
    /// No bot at all (a process without the operator's settings, a benchmark).
    pub fn none() -> Bots {
        Bots { http: client(), telegram: None, line: None }
    }

    pub fn from_config(config: &Config) -> Bots {
        let http = client();
        let telegram = config.telegram_bot_token.as_ref().map(|t| Telegram {
            base: config.telegram_api_url.as_str().trim_end_matches('/').to_owned(),
            token: t.expose_secret().to_owned(),
            username: OnceCell::new(),
        });
        let line = match (&config.line_channel_access_token, &config.line_channel_secret) {
            (Some(token), Some(secret)) => Some(Line {
                base: config.line_api_url.as_str().trim_end_matches('/').to_owned(),
                token: token.expose_secret().to_owned(),
                secret: secret.expose_secret().to_owned(),
                basic_id: OnceCell::new(),
            }),
            _ => None,
        };
        Bots { http, telegram, line }
    }

    pub fn telegram_enabled(&self) -> bool {
        self.telegram.is_some()
    }

    pub fn line_enabled(&self) -> bool {
        self.line.is_some()
    }

    /// The secret Telegram must send with webhook updates (None: no Telegram bot).
    pub fn telegram_webhook_secret(&self) -> Option<String> {
        self.telegram.as_ref().map(|t| crate::domain::bots::telegram_webhook_secret(&t.token))
    }

    /// The LINE channel's secret (webhook signatures).
    pub fn line_secret(&self) -> Option<&str> {
        self.line.as_ref().map(|l| l.secret.as_str())
    }

    /// Calls a Bot API method; answers its `result`.
    pub async fn telegram(&self, method: &str, body: &Value) -> Result<Value, BotError> {
        let t = self.telegram.as_ref().ok_or(BotError::NotConfigured)?;
        let response = self.http.post(format!("{}/bot{}/{method}", t.base, t.token)).json(body).send().await?;
        let status = response.status().as_u16();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        if status != 200 || answer["ok"] != true {
            return Err(BotError::Refused(status, answer["description"].as_str().unwrap_or_default().to_owned()));
        }
        Ok(answer["result"].clone())
    }

    /// The bot's username (for `t.me/<bot>` links), asked once.
    pub async fn telegram_username(&self) -> Result<String, BotError> {
        let t = self.telegram.as_ref().ok_or(BotError::NotConfigured)?;
        t.username
            .get_or_try_init(|| async {
                let me = self.telegram("getMe", &json!({})).await?;
                me["username"].as_str().map(str::to_owned).ok_or_else(|| BotError::Refused(200, "getMe named no username".into()))
            })
            .await
            .cloned()
    }

    async fn line_call(&self, method: reqwest::Method, path: &str, body: Option<&Value>) -> Result<Value, BotError> {
        let l = self.line.as_ref().ok_or(BotError::NotConfigured)?;
        let mut request = self.http.request(method, format!("{}{path}", l.base)).bearer_auth(&l.token);
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await?;
        let status = response.status().as_u16();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            return Err(BotError::Refused(status, answer["message"].as_str().unwrap_or_default().to_owned()));
        }
        Ok(answer)
    }

    /// The LINE bot's basic id (`@…`, for its add-friend link), asked once.
    pub async fn line_basic_id(&self) -> Result<String, BotError> {
        let l = self.line.as_ref().ok_or(BotError::NotConfigured)?;
        l.basic_id
            .get_or_try_init(|| async {
                let info = self.line_call(reqwest::Method::GET, "/v2/bot/info", None).await?;
                info["basicId"].as_str().map(str::to_owned).ok_or_else(|| BotError::Refused(200, "no basicId".into()))
            })
            .await
            .cloned()
    }

    /// Pushes messages to a LINE user.
    pub async fn line_push(&self, to: &str, messages: Value) -> Result<(), BotError> {
        self.line_call(reqwest::Method::POST, "/v2/bot/message/push", Some(&json!({ "to": to, "messages": messages }))).await.map(|_| ())
    }

    /// Replies to a LINE event.
    pub async fn line_reply(&self, reply_token: &str, messages: Value) -> Result<(), BotError> {
        self.line_call(reqwest::Method::POST, "/v2/bot/message/reply", Some(&json!({ "replyToken": reply_token, "messages": messages })))
            .await
            .map(|_| ())
    }
}
