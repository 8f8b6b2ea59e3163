//! Channels (api.md "Channels", decisions.md "Reach and rhythm") against local stand-ins that
//! speak the services' protocols (tests/standins: an ntfy server checking the bearer token, a
//! webhook receiver verifying Standard Webhooks signatures with the reference library), on
//! both backends and both queue backends: linking, the address rules, the limit, a ring at
//! its second with Complete and Snooze from the message's action URLs, the fallback, the
//! test and the failing state.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, Options, PushSink, StandIns, TestApp, expect_error, json, unique_email};

both_backends!(channel_urls_follow_the_address_rules_and_the_limit);

/// Unsafe URLs are refused as push endpoints are; Telegram and LINE need the operator; at
/// most 10 channels; another person's channel is not found.
async fn channel_urls_follow_the_address_rules_and_the_limit(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    for url in [
        "http://ntfy.example/t",
        "https://127.0.0.1/t",
        "https://10.1.2.3/hook",
        "https://localhost/t",
        "https://u:p@ntfy.example/t",
        "https://ntfy.example:8443/t",
    ] {
        let r = app.post("/api/channels", &json!({ "kind": "ntfy", "url": url }), Some(&token)).await;
        expect_error(r, 400, "ENDPOINT_REJECTED").await;
    }
    expect_error(app.post("/api/channels", &json!({ "kind": "telegram" }), Some(&token)).await, 400, "CHANNEL_UNAVAILABLE").await;
    expect_error(app.post("/api/channels", &json!({ "kind": "line" }), Some(&token)).await, 400, "CHANNEL_UNAVAILABLE").await;
    expect_error(app.post("/api/channels", &json!({ "kind": "webhook" }), Some(&token)).await, 400, "VALIDATION_FAILED").await;
    expect_error(
        app.post("/api/channels", &json!({ "kind": "pigeon", "url": "https://x.example" }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;

    let r = app.post("/api/channels", &json!({ "kind": "webhook", "url": "https://hooks.example/in" }), Some(&token)).await;
    assert_eq!(r.status(), 201);
    let hook = json(r).await["data"].clone();
    assert!(hook["secret"].as_str().is_some_and(|s| s.starts_with("whsec_")), "{hook}");
    assert_eq!((hook["status"].as_str(), hook["use"].clone()), (Some("active"), json!({ "rings": true, "fallback": false })));
    let listed = json(app.get("/api/channels", Some(&token)).await).await;
    assert!(listed["data"][0].get("secret").is_none(), "the secret is shown once: {listed}");
    for i in 1..10 {
        let r = app.post("/api/channels", &json!({ "kind": "ntfy", "url": format!("https://ntfy.example/topic{i}") }), Some(&token)).await;
        assert_eq!(r.status(), 201);
    }
    let r = app.post("/api/channels", &json!({ "kind": "ntfy", "url": "https://ntfy.example/eleven" }), Some(&token)).await;
    expect_error(r, 409, "CHANNEL_LIMIT").await;

    let id = hook["id"].as_str().unwrap();
    let r = app.put(&format!("/api/channels/{id}"), &json!({ "label": "Home Assistant", "use": { "fallback": true } }), &token).await;
    let changed = json(r).await["data"].clone();
    assert_eq!((changed["label"].as_str(), changed["use"].clone()), (Some("Home Assistant"), json!({ "rings": true, "fallback": true })));
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.put(&format!("/api/channels/{id}"), &json!({ "label": "mine" }), &other).await, 404, "NOT_FOUND").await;
    expect_error(app.delete(&format!("/api/channels/{id}"), &other).await, 404, "NOT_FOUND").await;
    assert_eq!(app.delete(&format!("/api/channels/{id}"), &token).await.status(), 204);
    assert_eq!(json(app.get("/api/channels", Some(&token)).await).await["data"].as_array().unwrap().len(), 9);
}

struct Person {
    token: String,
    device: String,
}

async fn person(app: &TestApp, sink: &PushSink, settings: Value) -> Person {
    let (token, _) = app.sign_in(&unique_email()).await;
    assert_eq!(app.put("/api/settings", &settings, &token).await.status(), 200);
    let (sub, _) = sink.subscribe(app, &token, "en").await;
    Person { token, device: sub["id"].as_str().unwrap().to_owned() }
}

async fn channel(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/channels", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn create(app: &TestApp, token: &str, body: Value) -> String {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"]["id"].as_str().unwrap().to_owned()
}

/// A ring reaches the ntfy topic (with its token) and the webhook (signed) at its second, in
/// the person's language; the webhook's Complete URL completes it and ntfy's Snooze action
/// snoozes another, with the entry's token alone; a wrong token is refused.
async fn a_ring_reaches_each_channel_and_acts_from_it(app: &TestApp, sink: &PushSink, standins: &StandIns) {
    let p = person(app, sink, json!({ "timezone": "UTC", "language": "ja", "email_fallback_minutes": null })).await;
    let topic = format!("t{}", uuid::Uuid::new_v4().simple());
    let hook = format!("h{}", uuid::Uuid::new_v4().simple());
    channel(app, &p.token, json!({ "kind": "ntfy", "url": format!("{}/{topic}", standins.base), "token": "tk_secret" })).await;
    standins.ntfy_token(&topic, "tk_secret").await;
    let made = channel(app, &p.token, json!({ "kind": "webhook", "url": format!("{}/hook/{hook}", standins.base) })).await;
    standins.hook_secret(&hook, made["secret"].as_str().unwrap()).await;

    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    let id = create(app, &p.token, json!({ "title": "薬", "description": "食後", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let pushed = standins.wait_for(&topic, 1, 10).await;
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    let m = &pushed[0]["message"];
    assert_eq!((m["title"].as_str(), m["message"].as_str(), m["priority"].as_i64()), (Some("薬"), Some("食後"), Some(5)), "{m}");
    assert_eq!(m["actions"][0]["label"], "完了");
    assert!(m["click"].as_str().unwrap().ends_with(&format!("/reminders?reminder={id}")), "{m}");
    let hooked = standins.wait_for(&hook, 1, 10).await;
    assert_eq!(hooked.len(), 1, "{hooked:?}");
    let payload = &hooked[0]["payload"];
    assert_eq!((payload["type"].as_str(), payload["data"]["title"].as_str()), (Some("reminder.ring"), Some("薬")), "{hooked:?}");
    assert_eq!(payload["data"]["reminder_id"], id);
    assert_eq!(sink.wait_for(&p.device, 1, 10).await.len(), 1, "the device rings too");
    // The status page counts the last hour's sends by kind; Telegram is off on this server.
    let start = std::time::Instant::now();
    let health = loop {
        let status = json(app.get("/api/status", None).await).await;
        let channels = status["data"]["channels"].as_array().cloned().unwrap_or_default();
        let ntfy = channels.iter().find(|c| c["kind"] == "ntfy").cloned().unwrap_or_default();
        if ntfy["sent_1h"].as_i64().unwrap_or(0) >= 1 || start.elapsed() > std::time::Duration::from_secs(10) {
            break channels;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    };
    let of = |kind: &str| health.iter().find(|c| c["kind"] == kind).cloned().unwrap_or_default();
    assert_eq!(of("ntfy")["status"], "ok", "{health:?}");
    assert_eq!(of("telegram")["status"], "off", "{health:?}");

    // A wrong token does nothing; the webhook's Complete URL completes it, once.
    let complete = payload["data"]["actions"]["complete"].as_str().unwrap();
    let path = complete.split_once("/api/").map(|(_, rest)| format!("/api/{rest}")).unwrap();
    let forged = format!("{}x", path);
    expect_error(app.post(&forged, &Value::Null, None).await, 404, "NOT_FOUND").await;
    let r = app.post(&path, &Value::Null, None).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    assert_eq!(json(r).await["data"], json!({ "action": "complete", "changed": true }));
    let r = json(app.get(&format!("/api/reminders/{id}"), Some(&p.token)).await).await;
    assert_eq!(r["data"]["status"], "completed");
    assert_eq!(json(app.post(&path, &Value::Null, None).await).await["data"]["changed"], false);

    // ntfy's Snooze action snoozes another by the person's default (10 minutes).
    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    let other = create(app, &p.token, json!({ "title": "水", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let pushed = standins.wait_for(&topic, 2, 10).await;
    let snooze = pushed[1]["message"]["actions"][1]["url"].as_str().unwrap();
    let path = snooze.split_once("/api/").map(|(_, rest)| format!("/api/{rest}")).unwrap();
    assert_eq!(app.post(&path, &Value::Null, None).await.status(), 200);
    let r = json(app.get(&format!("/api/reminders/{other}"), Some(&p.token)).await).await;
    assert!(r["data"]["snoozed_until"].is_string(), "{r}");
}

/// A channel that takes only the fallback gets it when no device showed the ring, after the
/// delay; its test comes once a minute; failed sends in a row show it `failing`.
async fn fallback_test_and_failing(app: &TestApp, sink: &PushSink, standins: &StandIns) {
    let p = person(app, sink, json!({ "timezone": "UTC", "language": "en", "email_fallback_minutes": 1 })).await;
    let topic = format!("t{}", uuid::Uuid::new_v4().simple());
    let made = channel(app, &p.token, json!({ "kind": "ntfy", "url": format!("{}/{topic}", standins.base) })).await;
    let id = made["id"].as_str().unwrap().to_owned();
    let r = app.put(&format!("/api/channels/{id}"), &json!({ "use": { "rings": false, "fallback": true } }), &p.token).await;
    assert_eq!(r.status(), 200);

    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    create(app, &p.token, json!({ "title": "Call Aki", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(30)).await;
    assert_eq!(sink.wait_for(&p.device, 1, 10).await.len(), 1);
    assert!(standins.received(&topic).await.is_empty(), "not a ring channel");
    app.run_until(due + SignedDuration::from_secs(61)).await;
    let got = standins.wait_for(&topic, 1, 10).await;
    assert_eq!(got.len(), 1, "the fallback: {got:?}");
    assert_eq!(got[0]["message"]["title"], "Call Aki");

    // The test: once a minute.
    assert_eq!(app.post(&format!("/api/channels/{id}/test"), &Value::Null, Some(&p.token)).await.status(), 202);
    expect_error(app.post(&format!("/api/channels/{id}/test"), &Value::Null, Some(&p.token)).await, 429, "RATE_LIMITED").await;
    let got = standins.wait_for(&topic, 2, 10).await;
    assert_eq!(got[1]["message"]["title"], "Test notification");
    assert!(got[1]["message"].get("actions").is_none());

    // A server that fails: after three failed sends the channel shows failing.
    standins.fail(&topic, 500).await;
    for _ in 0..3 {
        app.advance_clock(SignedDuration::from_secs(61));
        assert_eq!(app.post(&format!("/api/channels/{id}/test"), &Value::Null, Some(&p.token)).await.status(), 202);
        app.settle().await;
    }
    assert_eq!(status_becomes(app, &p.token, "failing").await, "failing");
    standins.fail(&topic, 0).await;
    app.advance_clock(SignedDuration::from_secs(61));
    assert_eq!(app.post(&format!("/api/channels/{id}/test"), &Value::Null, Some(&p.token)).await.status(), 202);
    assert_eq!(status_becomes(app, &p.token, "active").await, "active", "a success makes it active again");
}

/// Waits up to 30 s for the person's first channel to show `wanted`; answers what it shows.
async fn status_becomes(app: &TestApp, token: &str, wanted: &str) -> String {
    let start = std::time::Instant::now();
    loop {
        let status = json(app.get("/api/channels", Some(token)).await).await["data"][0]["status"].as_str().unwrap_or_default().to_owned();
        if status == wanted || start.elapsed() > std::time::Duration::from_secs(30) {
            return status;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A ring's channel sends are delivery history: they go with their reminder, with its list,
/// after 180 days with the entry, and a row whose entry is gone is swept (once a day).
async fn channel_sends_go_with_their_history(app: &TestApp, sink: &PushSink, standins: &StandIns) {
    let p = person(app, sink, json!({ "timezone": "UTC", "language": "en", "email_fallback_minutes": null })).await;
    let topic = format!("t{}", uuid::Uuid::new_v4().simple());
    channel(app, &p.token, json!({ "kind": "ntfy", "url": format!("{}/{topic}", standins.base), "token": "tk_secret" })).await;
    standins.ntfy_token(&topic, "tk_secret").await;
    let r = app.post("/api/lists", &json!({ "name": "Shop" }), Some(&p.token)).await;
    let list = json(r).await["data"]["id"].as_str().unwrap().to_owned();

    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    let deleted = create(app, &p.token, json!({ "title": "deleted", "send_at": due.to_string() })).await;
    let listed = create(app, &p.token, json!({ "title": "listed", "send_at": due.to_string(), "list_id": list })).await;
    let kept = create(app, &p.token, json!({ "title": "kept", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    assert_eq!(standins.wait_for(&topic, 3, 10).await.len(), 3);
    app.settle().await;
    let mut entries = Vec::new();
    for id in [&deleted, &listed, &kept] {
        let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&p.token)).await).await;
        entries.push(logs["data"][0]["id"].as_str().unwrap().to_owned());
    }
    let sends = async |log_id: &str| {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM channel_sends WHERE log_id = $1")
            .bind(log_id)
            .fetch_one(app.db.pool())
            .await
            .unwrap()
    };
    for entry in &entries {
        assert_eq!(sends(entry).await, 1, "one send per ring to the channel");
    }
    // A device send from before sends named whose device it was (no `user_id`) is history,
    // not an orphan: the sweep keeps it.
    let devices_of = async |log_id: &str| {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM deliveries WHERE log_id = $1")
            .bind(log_id)
            .fetch_one(app.db.pool())
            .await
            .unwrap()
    };
    sqlx::query("UPDATE deliveries SET user_id = NULL WHERE log_id = $1").bind(&entries[2]).execute(app.db.pool()).await.unwrap();
    // A day on, so the sweep's daily lease is free whatever pass ran at start-up.
    hibiki_worker::housekeeping::run_once(&app.db, Timestamp::now() + SignedDuration::from_hours(25)).await.unwrap();
    assert_eq!(devices_of(&entries[2]).await, 1, "swept: a row whose parent column is empty is not an orphan");

    assert_eq!(app.delete(&format!("/api/reminders/{deleted}"), &p.token).await.status(), 204);
    assert_eq!(sends(&entries[0]).await, 0, "a deleted reminder's channel sends go with it");
    assert_eq!(app.delete(&format!("/api/lists/{list}"), &p.token).await.status(), 204);
    assert_eq!(sends(&entries[1]).await, 0, "a deleted list's too");
    assert_eq!(sends(&entries[2]).await, 1);

    let now = Timestamp::now();
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 179)).await.unwrap();
    assert_eq!(sends(&entries[2]).await, 1, "179 days on, kept");
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 181)).await.unwrap();
    assert_eq!(sends(&entries[2]).await, 0, "181 days on, gone with the entry");

    // A send whose entry is gone another way (written directly: no path leaves one now).
    let channel_id: String = sqlx::query_scalar("SELECT id FROM channels LIMIT 1").fetch_one(app.db.pool()).await.unwrap();
    let orphan = uuid::Uuid::new_v4().to_string();
    sqlx::query("INSERT INTO channel_sends (log_id, channel_id, purpose, status, created_at) VALUES ($1, $2, 'ring', 'sent', $3)")
        .bind(&orphan)
        .bind(&channel_id)
        .bind(now.as_millisecond())
        .execute(app.db.pool())
        .await
        .unwrap();
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 181 + 1)).await.unwrap();
    assert_eq!(sends(&orphan).await, 1, "the sweep ran at day 181: not again within the day");
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 182 + 1)).await.unwrap();
    assert_eq!(sends(&orphan).await, 0, "a day later, swept");
}

async fn setup(backend: Backend, redis: bool) -> Option<(TestApp, PushSink, StandIns)> {
    let standins = StandIns::start().await?;
    let (app, sink) = crate::helpers::sink_app(backend, Options { redis, smtp: true, ..Default::default() }).await?;
    Some((app, sink, standins))
}

macro_rules! with_standins {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_queues() {
                if let Some((app, sink, standins)) = super::setup(crate::helpers::Backend::Sqlite, false).await {
                    super::$name(&app, &sink, &standins).await;
                    app.stop().await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_and_redis() {
                if let Some((app, sink, standins)) = super::setup(crate::helpers::Backend::Postgres, true).await {
                    super::$name(&app, &sink, &standins).await;
                    app.stop().await;
                }
            }
        }
    )*};
}

with_standins!(a_ring_reaches_each_channel_and_acts_from_it, fallback_test_and_failing, channel_sends_go_with_their_history);

/// Telegram, read by long polling (no https public URL): the deep link's `/start <code>`
/// links the chat, a ring comes with Complete and Snooze buttons, and a button press completes
/// it as the chat's person; the webhook refuses updates without the secret.
async fn telegram_links_by_deep_link_and_acts_from_its_buttons(app: &TestApp, sink: &PushSink, standins: &StandIns) {
    let p = person(app, sink, json!({ "timezone": "UTC", "language": "ja", "email_fallback_minutes": null })).await;
    let made = channel(app, &p.token, json!({ "kind": "telegram" })).await;
    assert_eq!(made["status"], "pending");
    let link = made["link"].as_str().unwrap();
    let code = link.strip_prefix("https://t.me/hibiki_test_bot?start=").unwrap_or_else(|| panic!("{link}"));
    let chat = 4_000_000 + i64::from(rand_u16());
    // The person opens the link and presses Start; a stranger's wrong code links nothing.
    standins.telegram_update(json!({ "message": { "message_id": 1, "chat": { "id": chat + 1, "type": "private" }, "from": { "id": chat + 1, "language_code": "en" }, "text": "/start nope" } })).await;
    standins.telegram_update(json!({ "message": { "message_id": 2, "chat": { "id": chat, "type": "private" }, "from": { "id": chat, "language_code": "ja" }, "text": format!("/start {code}") } })).await;
    let linked = standins.wait_for(&format!("telegram:{chat}"), 1, 15).await;
    assert_eq!(linked.len(), 1, "{linked:?}");
    assert!(linked[0]["message"]["text"].as_str().unwrap().contains("連携しました"), "{linked:?}");
    let stranger = standins.wait_for(&format!("telegram:{}", chat + 1), 1, 15).await;
    assert!(stranger[0]["message"]["text"].as_str().unwrap().contains("links nothing"), "{stranger:?}");
    let listed = json(app.get("/api/channels", Some(&p.token)).await).await;
    assert_eq!(listed["data"][0]["status"], "active", "{listed}");

    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    let id = create(app, &p.token, json!({ "title": "ゴミ出し", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let got = standins.wait_for(&format!("telegram:{chat}"), 2, 15).await;
    assert_eq!(got.len(), 2, "{got:?}");
    let ring = &got[1]["message"];
    assert!(ring["text"].as_str().unwrap().starts_with("ゴミ出し"), "{ring}");
    let buttons = &ring["reply_markup"]["inline_keyboard"][0];
    assert_eq!((buttons[0]["text"].as_str(), buttons[1]["text"].as_str()), (Some("完了"), Some("スヌーズ")));
    let data = buttons[0]["callback_data"].as_str().unwrap().to_owned();
    assert!(data.starts_with("complete:"), "{data}");

    // A press from another Telegram account does nothing; the person's completes it.
    standins.telegram_update(json!({ "callback_query": { "id": "q1", "from": { "id": chat + 1 }, "data": data } })).await;
    standins
        .telegram_update(json!({ "callback_query": { "id": "q2", "from": { "id": chat, "language_code": "ja" }, "data": data } }))
        .await;
    let answers = standins.wait_for("telegram-answers", 2, 15).await;
    let mine = answers.iter().find(|a| a["callback_query_id"] == "q2").unwrap_or_else(|| panic!("{answers:?}"));
    assert_eq!(mine["text"], "完了しました。");
    let r = json(app.get(&format!("/api/reminders/{id}"), Some(&p.token)).await).await;
    assert_eq!(r["data"]["status"], "completed");

    // The webhook (for servers with an https URL) wants the secret Telegram was given.
    let url = format!("{}/api/channels/telegram/webhook", app.base);
    let update = json!({ "update_id": 99, "message": { "message_id": 3, "chat": { "id": chat }, "text": "hello" } });
    assert_eq!(standins.telegram_deliver(&url, "wrong", update.clone()).await, 401);
    let secret = hibiki_common::domain::bots::telegram_webhook_secret(crate::helpers::TELEGRAM_TOKEN);
    assert_eq!(standins.telegram_deliver(&url, &secret, update).await, 200);
}

/// LINE: the code sent to the bot links the person's LINE account (the webhook's signature
/// checked: a bad one is 401), a ring is pushed with the channel's token and postback
/// buttons, and the Snooze postback snoozes it.
async fn line_links_by_code_and_acts_from_its_postbacks(app: &TestApp, sink: &PushSink, standins: &StandIns) {
    let p = person(app, sink, json!({ "timezone": "UTC", "language": "en", "email_fallback_minutes": null })).await;
    let made = channel(app, &p.token, json!({ "kind": "line" })).await;
    assert_eq!((made["status"].as_str(), made["friend_url"].as_str()), (Some("pending"), Some("https://line.me/R/ti/p/@hibiki-test")));
    let code = made["code"].as_str().unwrap().to_owned();
    let url = format!("{}/api/channels/line/webhook", app.base);
    let user = format!("U{}", uuid::Uuid::new_v4().simple());
    let message = |text: &str, token: &str| json!([{ "type": "message", "replyToken": token, "source": { "type": "user", "userId": user }, "message": { "type": "text", "id": "1", "text": text } }]);
    // Signed with another secret: refused, nothing linked.
    assert_eq!(standins.line_deliver(&url, "not the secret", message(&code, "r0")).await, 401);
    assert_eq!(json(app.get("/api/channels", Some(&p.token)).await).await["data"][0]["status"], "pending");
    // Typed with spaces and lower case, it still links.
    let typed = format!("{} {}", code[..5].to_lowercase(), &code[5..]);
    assert_eq!(standins.line_deliver(&url, crate::helpers::LINE_SECRET, message(&typed, "r1")).await, 200);
    let replies = standins.wait_for("line-replies", 1, 15).await;
    let reply = replies.iter().find(|r| r["replyToken"] == "r1").unwrap_or_else(|| panic!("{replies:?}"));
    assert!(reply["messages"][0]["text"].as_str().unwrap().starts_with("Linked to Hibiki"), "{reply}");
    assert_eq!(json(app.get("/api/channels", Some(&p.token)).await).await["data"][0]["status"], "active");

    let due = Timestamp::from_second(app.now().as_second() + 60).unwrap();
    let id = create(app, &p.token, json!({ "title": "Feed the cat", "send_at": due.to_string() })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let pushed = standins.wait_for(&format!("line:{user}"), 1, 15).await;
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    let template = &pushed[0]["messages"][0]["template"];
    assert!(template["text"].as_str().unwrap().starts_with("Feed the cat"), "{template}");
    let snooze = template["actions"][1]["data"].as_str().unwrap().to_owned();
    assert!(snooze.starts_with("snooze:"), "{snooze}");
    let postback =
        json!([{ "type": "postback", "replyToken": "r2", "source": { "type": "user", "userId": user }, "postback": { "data": snooze } }]);
    assert_eq!(standins.line_deliver(&url, crate::helpers::LINE_SECRET, postback).await, 200);
    let r = json(app.get(&format!("/api/reminders/{id}"), Some(&p.token)).await).await;
    assert!(r["data"]["snoozed_until"].is_string(), "{r}");
    let replies = standins.wait_for("line-replies", 2, 15).await;
    assert!(replies.iter().any(|r| r["replyToken"] == "r2" && r["messages"][0]["text"] == "Snoozed."), "{replies:?}");
}

fn rand_u16() -> u16 {
    (uuid::Uuid::new_v4().as_u128() % 60_000) as u16
}

async fn setup_bots(backend: Backend, redis: bool) -> Option<(TestApp, PushSink, StandIns)> {
    let standins = StandIns::start().await?;
    standins.bots().await;
    let (app, sink) =
        crate::helpers::sink_app(backend, Options { redis, bots_at: Some(standins.base.clone()), ..Default::default() }).await?;
    Some((app, sink, standins))
}

mod bots {
    macro_rules! with_bots {
        ($($name:ident),* $(,)?) => {$(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite_queues() {
                    if let Some((app, sink, standins)) = super::super::setup_bots(crate::helpers::Backend::Sqlite, false).await {
                        super::super::$name(&app, &sink, &standins).await;
                        app.stop().await;
                    }
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres_and_redis() {
                    if let Some((app, sink, standins)) = super::super::setup_bots(crate::helpers::Backend::Postgres, true).await {
                        super::super::$name(&app, &sink, &standins).await;
                        app.stop().await;
                    }
                }
            }
        )*};
    }
    with_bots!(telegram_links_by_deep_link_and_acts_from_its_buttons, line_links_by_code_and_acts_from_its_postbacks);
}
