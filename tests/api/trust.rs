//! "It rings, or it tells you": honest send-now answers, delivery logs that say shown, devices
//! that can be listed and removed, overdue and snoozed states, edits that never trap, and the
//! email fallback, on SQLite and on PostgreSQL + Redis, through the real push sink and a real
//! SMTP server process.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::helpers::{Backend, Options, PushSink, TestApp, expect_error, json, unavailable, unique_email};

/// One fallback "minute" in these tests: long enough to act or acknowledge first, short
/// enough to wait for.
const FALLBACK_MINUTE: Duration = Duration::from_secs(3);

const FIREFOX_ON_LINUX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

async fn setup(backend: Backend, redis: bool) -> Option<(TestApp, PushSink)> {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return None;
    };
    let scheduler =
        hibiki_scheduler::SchedulerConfig { fallback_minute: SignedDuration::try_from(FALLBACK_MINUTE).unwrap(), ..Default::default() };
    let options = Options { allow_private_push: true, redis, smtp: true, send_now_at_once: true, ..Default::default() };
    let app = TestApp::spawn_with(backend, options, scheduler).await?;
    Some((app, sink))
}

async fn subscribe(app: &TestApp, sink: &PushSink, token: &str) -> Value {
    let sub = sink.subscription().await;
    let r = app
        .post(
            "/api/notifications?action=subscribe",
            &json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                     "device_info": { "user_agent": FIREFOX_ON_LINUX, "platform": "Linux x86_64", "language": "en", "timezone": "UTC" } }),
            Some(token),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    sub
}

async fn create(app: &TestApp, token: &str, body: Value) -> String {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"]["id"].as_str().unwrap().to_owned()
}

async fn reminder(app: &TestApp, token: &str, id: &str) -> Value {
    json(app.get(&format!("/api/reminders/{id}"), Some(token)).await).await["data"].clone()
}

async fn logs(app: &TestApp, token: &str, id: &str) -> Value {
    json(app.get(&format!("/api/reminders/{id}/logs"), Some(token)).await).await["data"].clone()
}

/// Polls until `check` holds for the reminder's newest log entry (the worker records answers
/// just after the push service gives them).
async fn newest_log_until(app: &TestApp, token: &str, id: &str, check: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..100 {
        last = logs(app, token, id).await[0].clone();
        if check(&last) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the log entry never got there: {last}");
}

fn whole_second_ahead(secs: i64) -> Timestamp {
    Timestamp::from_second(Timestamp::now().as_second() + secs).unwrap()
}

/// Send-now says what happened: to how many devices, or by email, or nothing; the log says
/// the same in its kind and status.
async fn send_now_says_what_happened(app: &TestApp, sink: &PushSink) {
    let email = unique_email();
    let (token, _) = app.sign_in(&email).await;
    let id = create(app, &token, json!({ "title": "Call the bank", "send_at": whole_second_ahead(3600).to_string() })).await;

    // No device, fallback on (the default): by email, in the user's language, at once.
    let r = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    assert_eq!((r["data"]["devices"].clone(), r["data"]["email"].clone()), (json!(0), json!(true)), "{r}");
    let mails = app.mails_for(&email, 2).await;
    let (subject, body) = mails.last().unwrap();
    assert_eq!(subject, "Hibiki reminder: Call the bank");
    assert!(body.contains(&format!("/en/reminders?reminder={id}")), "{body}");
    let entry = newest_log_until(app, &token, &id, |l| !l["emailed_at"].is_null()).await;
    assert_eq!((entry["kind"].as_str(), entry["status"].as_str()), (Some("send_now"), Some("no_devices")));
    assert_eq!(entry["id"], r["data"]["log_id"]);

    // Fallback off: nothing went anywhere, and the answer says so.
    let s = json(app.put("/api/settings", &json!({ "email_fallback_minutes": null }), &token).await).await;
    assert!(s["data"]["email_fallback_minutes"].is_null(), "{s}");
    let r = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    assert_eq!((r["data"]["devices"].clone(), r["data"]["email"].clone()), (json!(0), json!(false)));
    app.run_until(app.now() + SignedDuration::from_mins(10)).await;
    assert_eq!(app.read_mails(&email).len(), 2, "no email with the fallback off");
    expect_error(app.put("/api/settings", &json!({ "email_fallback_minutes": 2 }), &token).await, 400, "VALIDATION_FAILED").await;

    // A device: sent to it, not emailed.
    let sub = subscribe(app, sink, &token).await;
    let r = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    assert_eq!((r["data"]["devices"].clone(), r["data"]["email"].clone()), (json!(1), json!(false)));
    let got = sink.wait_for(sub["id"].as_str().unwrap(), 1, 10).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["payload"]["notification"]["data"]["kind"], "send_now");
}

/// The service worker's acknowledgement shows in the log (status `shown`, per device) and on
/// the device list; a device can be removed by id, and then gets nothing.
async fn shown_devices_and_removal(app: &TestApp, sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let sub = subscribe(app, sink, &token).await;
    let sub_sink_id = sub["id"].as_str().unwrap();
    let devices = json(app.get("/api/notifications/subscriptions", Some(&token)).await).await["data"].clone();
    assert_eq!(devices.as_array().unwrap().len(), 1);
    let device = &devices[0];
    assert_eq!(device["label"], "Linux · Firefox");
    assert_eq!(device["platform"], "Linux");
    assert_eq!(device["status"], "active");
    assert!(device["last_shown_at"].is_null());
    assert_eq!(device["endpoint"], sub["endpoint"]);
    let device_id = device["id"].as_str().unwrap().to_owned();

    let id = create(app, &token, json!({ "title": "Stretch", "send_at": whole_second_ahead(2).to_string() })).await;
    let got = sink.wait_for(sub_sink_id, 1, 15).await;
    assert_eq!(got.len(), 1);
    let data = &got[0]["payload"]["notification"]["data"];
    let sent = newest_log_until(app, &token, &id, |l| l["status"] == "sent").await;
    assert!(sent["shown_at"].is_null());
    assert_eq!(sent["devices"][0]["status"], "sent");
    assert_eq!(sent["devices"][0]["label"], "Linux · Firefox");
    assert_eq!(sent["devices"][0]["subscription_id"], device_id.as_str());

    let ack = json!({ "log_id": data["log_id"], "action_token": data["action_token"], "endpoint": sub["endpoint"] });
    assert_eq!(app.post("/api/notifications?action=ack", &ack, None).await.status(), 204);
    let shown = logs(app, &token, &id).await[0].clone();
    assert_eq!(shown["status"], "shown");
    assert!(shown["shown_at"].is_string());
    assert!(shown["devices"][0]["shown_at"].is_string());
    let devices = json(app.get("/api/notifications/subscriptions", Some(&token)).await).await["data"].clone();
    assert_eq!(devices[0]["last_shown_at"], shown["shown_at"]);

    // Someone else cannot remove it; its owner can, once.
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.delete(&format!("/api/notifications/subscriptions/{device_id}"), &other).await, 404, "NOT_FOUND").await;
    assert_eq!(app.delete(&format!("/api/notifications/subscriptions/{device_id}"), &token).await.status(), 204);
    expect_error(app.delete(&format!("/api/notifications/subscriptions/{device_id}"), &token).await, 404, "NOT_FOUND").await;
    expect_error(app.delete("/api/notifications/subscriptions/not%00an-id", &token).await, 404, "NOT_FOUND").await;
    let none = json(app.get("/api/notifications/subscriptions", Some(&token)).await).await;
    assert_eq!(none["data"], json!([]));
    json(app.put("/api/settings", &json!({ "email_fallback_minutes": null }), &token).await).await;
    let r = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    assert_eq!(r["data"]["devices"], 0, "the removed device gets nothing");
    app.run_until(app.now() + SignedDuration::from_mins(2)).await;
    assert_eq!(sink.received(sub_sink_id).await.len(), 1);
}

/// A fired one-time reminder is overdue until acted on; a snooze says when it rings again and
/// that is its `scheduled_at`; completing ends both.
async fn overdue_and_snoozed(app: &TestApp, sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let sub = subscribe(app, sink, &token).await;
    let due = whole_second_ahead(2);
    let id = create(app, &token, json!({ "title": "Take the pill", "send_at": due.to_string() })).await;
    let before = reminder(app, &token, &id).await;
    assert_eq!((before["overdue"].clone(), before["snoozed_until"].clone()), (json!(false), Value::Null));
    let got = sink.wait_for(sub["id"].as_str().unwrap(), 1, 15).await;
    let log_id = got[0]["payload"]["notification"]["data"]["log_id"].clone();
    app.settle().await;
    let fired = reminder(app, &token, &id).await;
    assert_eq!(fired["overdue"], true, "{fired}");
    assert_eq!(fired["scheduled_at"], due.to_string(), "an overdue reminder keeps its past time");
    assert_eq!(fired["status"], "pending");
    let list = json(app.get("/api/reminders", Some(&token)).await).await;
    assert_eq!(list["data"][0]["overdue"], true);

    // Snooze with a preset: rings again 10 minutes from now.
    let pressed = Timestamp::now();
    let r = json(
        app.post(
            "/api/reminders?action=handle",
            &json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_minutes": 10 }),
            Some(&token),
        )
        .await,
    )
    .await;
    let until: Timestamp = r["data"]["snoozed_until"].as_str().expect("snoozed_until").parse().unwrap();
    let off = until.duration_since(pressed + SignedDuration::from_mins(10)).abs();
    assert!(off < SignedDuration::from_secs(2), "{until} vs {pressed}");
    assert_eq!(r["data"]["scheduled_at"], r["data"]["snoozed_until"]);
    assert_eq!(r["data"]["overdue"], false);

    // Snooze until a named instant (idempotent per action: a new entry is needed to snooze
    // again, so the same entry's second snooze changes nothing).
    let tomorrow = whole_second_ahead(20 * 3600);
    let again = json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_until": tomorrow.to_string() });
    let r = json(app.post("/api/reminders?action=handle", &again, Some(&token)).await).await;
    assert_eq!(r["data"]["snoozed_until"], until.to_string(), "the same (entry, action) twice changes nothing");
    let bad = json!({ "reminder_id": id, "log_id": log_id, "action": "complete", "snooze_until": "2020-01-01T00:00:00Z" });
    assert_eq!(app.post("/api/reminders?action=handle", &bad, Some(&token)).await.status(), 200, "complete ignores snooze fields");
    let done = reminder(app, &token, &id).await;
    assert_eq!(
        (done["status"].clone(), done["overdue"].clone(), done["snoozed_until"].clone()),
        (json!("completed"), json!(false), Value::Null)
    );

    // snooze_until on a fresh entry: the named instant; past or > 7 days refused.
    let id =
        create(app, &token, json!({ "title": "Water", "send_at": whole_second_ahead(2).to_string(), "recurrence": { "kind": "daily" } }))
            .await;
    let got = sink.wait_for(sub["id"].as_str().unwrap(), 2, 15).await;
    let log_id = got[1]["payload"]["notification"]["data"]["log_id"].clone();
    for (until, why) in [("2020-01-01T00:00:00Z", "past"), (&*whole_second_ahead(8 * 24 * 3600).to_string(), "more than 7 days")] {
        let r = app
            .post(
                "/api/reminders?action=handle",
                &json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_until": until }),
                Some(&token),
            )
            .await;
        let err = expect_error(r, 400, "VALIDATION_FAILED").await;
        assert!(err["error"]["fields"]["snooze_until"].is_string(), "{why}: {err}");
    }
    let r = json(
        app.post(
            "/api/reminders?action=handle",
            &json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_until": tomorrow.to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    assert_eq!(r["data"]["snoozed_until"], tomorrow.to_string());
    assert_eq!(r["data"]["overdue"], false, "recurring reminders are never overdue");
    // The next daily occurrence (in ~24 h) comes after the snooze (in 20 h): it rings at the snooze.
    assert_eq!(r["data"]["scheduled_at"], tomorrow.to_string());
}

/// A daily reminder whose first occurrence fired is renamed with every field sent back (the
/// old, past send_at included): it keeps its schedule. A changed past time is refused.
async fn editing_never_traps(app: &TestApp, sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let sub = subscribe(app, sink, &token).await;
    let due = whole_second_ahead(2);
    let id = create(app, &token, json!({ "title": "Stretch", "send_at": due.to_string(), "recurrence": { "kind": "daily" } })).await;
    sink.wait_for(sub["id"].as_str().unwrap(), 1, 15).await;
    let fired = reminder(app, &token, &id).await;
    let next = (due + SignedDuration::from_hours(24)).to_string();
    assert_eq!(fired["scheduled_at"], next);
    let all_back = json!({ "title": "Stretch well", "send_at": fired["send_at"], "timezone": fired["timezone"], "recurrence": fired["recurrence"], "description": null });
    let r = app.put(&format!("/api/reminders/{id}"), &all_back, &token).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let renamed = reminder(app, &token, &id).await;
    assert_eq!(
        (renamed["title"].as_str(), renamed["scheduled_at"].as_str(), renamed["send_at"].clone()),
        (Some("Stretch well"), Some(next.as_str()), fired["send_at"].clone())
    );
    let moved_to_past = json!({ "send_at": (due - SignedDuration::from_hours(1)).to_string() });
    expect_error(app.put(&format!("/api/reminders/{id}"), &moved_to_past, &token).await, 400, "VALIDATION_FAILED").await;

    // An overdue one-time reminder is renamed, then moved to a new time.
    let due = whole_second_ahead(2);
    let id = create(app, &token, json!({ "title": "Post the letter", "send_at": due.to_string() })).await;
    sink.wait_for(sub["id"].as_str().unwrap(), 2, 15).await;
    app.settle().await;
    let r = app.put(&format!("/api/reminders/{id}"), &json!({ "title": "Post the letters", "send_at": due.to_string() }), &token).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    assert_eq!(json(r).await["data"]["overdue"], true);
    let later = whole_second_ahead(3600);
    let r = json(app.put(&format!("/api/reminders/{id}"), &json!({ "send_at": later.to_string() }), &token).await).await;
    assert_eq!((r["data"]["overdue"].clone(), r["data"]["scheduled_at"].clone()), (json!(false), json!(later.to_string())));
}

/// An occurrence no device shows within the delay is emailed once; one a device showed, or
/// one acted on first, is not; at most 20 a day.
/// No device, the fallback on: an occurrence with an alert before it and repeats after it is
/// emailed once (its alert and repeats add none); the next day's occurrence once more.
async fn one_fallback_email_per_occurrence(app: &TestApp, _sink: &PushSink) {
    let email = unique_email();
    let (token, _) = app.sign_in(&email).await;
    json(app.put("/api/settings", &json!({ "email_fallback_minutes": 1 }), &token).await).await;
    let due = Timestamp::from_second(app.now().as_second() + 3600).unwrap();
    create(
        app,
        &token,
        json!({ "title": "Water the plants", "send_at": due.to_string(), "recurrence": { "kind": "daily" },
                "alerts": [{ "before_minutes": 5 }, { "before_minutes": 0 }], "repeat_until_done": { "every_minutes": 1, "max_times": 3 } }),
    )
    .await;
    app.run_until(due + SignedDuration::from_mins(10)).await;
    let mails = app.mails_for(&email, 2).await;
    app.settle().await;
    assert_eq!(app.read_mails(&email).len(), 2, "the sign-in mail and one fallback: {mails:?}");
    assert!(mails[1].1.contains("Water the plants"), "{mails:?}");
    app.run_until(due + SignedDuration::from_hours(24) + SignedDuration::from_mins(10)).await;
    app.mails_for(&email, 3).await;
    app.settle().await;
    assert_eq!(app.read_mails(&email).len(), 3, "one more for the next day's occurrence");
}

async fn email_fallback(app: &TestApp, sink: &PushSink) {
    // Three users with a device each, fallback after one (test) minute.
    let mut users = Vec::new();
    for _ in 0..3 {
        let email = unique_email();
        let (token, _) = app.sign_in(&email).await;
        json(app.put("/api/settings", &json!({ "email_fallback_minutes": 1 }), &token).await).await;
        let sub = subscribe(app, sink, &token).await;
        users.push((email, token, sub));
    }
    let due = whole_second_ahead(2);
    let mut ids = Vec::new();
    for (_, token, _) in &users {
        ids.push(create(app, token, json!({ "title": "Dentist", "description": "Bring the card", "send_at": due.to_string() })).await);
    }
    let mut pushes = Vec::new();
    for (_, _, sub) in &users {
        let got = sink.wait_for(sub["id"].as_str().unwrap(), 1, 15).await;
        assert_eq!(got.len(), 1);
        pushes.push(got[0]["payload"]["notification"]["data"].clone());
    }
    // User 1 never acknowledges. User 2's device shows it. User 3 completes it.
    let ack = json!({ "log_id": pushes[1]["log_id"], "action_token": pushes[1]["action_token"], "endpoint": users[1].2["endpoint"] });
    assert_eq!(app.post("/api/notifications?action=ack", &ack, None).await.status(), 204);
    let complete =
        json!({ "reminder_id": ids[2], "log_id": pushes[2]["log_id"], "action": "complete", "action_token": pushes[2]["action_token"] });
    assert_eq!(app.post("/api/reminders?action=handle", &complete, None).await.status(), 200);

    let mails = app.mails_for(&users[0].0, 2).await;
    let at = Timestamp::now();
    let (subject, body) = mails.last().unwrap();
    assert_eq!(subject, "Hibiki reminder: Dentist");
    assert!(body.contains("Bring the card") && body.contains("not shown on any of your devices"), "{body}");
    assert!(at >= due + SignedDuration::try_from(FALLBACK_MINUTE).unwrap(), "not before the delay");
    let entry = logs(app, &users[0].1, &ids[0]).await[0].clone();
    assert!(entry["emailed_at"].is_string(), "{entry}");
    // Well past the delay: still one email for user 1, none for the others.
    app.run_until(app.now() + SignedDuration::from_mins(10)).await;
    assert_eq!(app.read_mails(&users[0].0).len(), 2, "one sign-in mail and one fallback");
    assert_eq!(app.read_mails(&users[1].0).len(), 1, "shown: no fallback");
    assert_eq!(app.read_mails(&users[2].0).len(), 1, "completed: no fallback");

    // Hide content: the email says only that a reminder is due.
    let (email, token, _) = &users[1];
    json(app.put("/api/settings", &json!({ "hide_notification_content": true, "email_fallback_minutes": 5 }), token).await).await;
    let device_id =
        json(app.get("/api/notifications/subscriptions", Some(token)).await).await["data"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.delete(&format!("/api/notifications/subscriptions/{device_id}"), token).await.status(), 204);
    // The cap: 19 fallbacks already today; the 20th goes out, the 21st does not.
    for _ in 0..19 {
        sqlx::query("INSERT INTO mail_log (email, kind, created_at) VALUES ($1, 'fallback', $2)")
            .bind(email)
            .bind(Timestamp::now().as_millisecond())
            .execute(app.db.pool())
            .await
            .unwrap();
    }
    let r = json(app.post(&format!("/api/reminders/{}/send", ids[1]), &json!({}), Some(token)).await).await;
    assert_eq!((r["data"]["devices"].clone(), r["data"]["email"].clone()), (json!(0), json!(true)));
    let mails = app.mails_for(email, 2).await;
    let (subject, body) = mails.last().unwrap();
    assert_eq!(subject, "Hibiki: a reminder is due");
    assert!(!body.contains("Dentist") && !body.contains("Bring the card"), "{body}");
    let r = json(app.post(&format!("/api/reminders/{}/send", ids[1]), &json!({}), Some(token)).await).await;
    assert_eq!((r["data"]["devices"].clone(), r["data"]["email"].clone()), (json!(0), json!(false)), "over the daily cap");
    app.run_until(app.now() + SignedDuration::from_mins(10)).await;
    assert_eq!(app.read_mails(email).len(), 2);
}

/// Checks one decrypted push against api.md's Declarative Web Push format.
fn assert_declarative(app: &TestApp, push: &Value, kind: &str) {
    let p = &push["payload"];
    assert!(push["body_bytes"].as_i64().unwrap() < 4096, "{kind}: encrypted size");
    assert!(serde_json::to_vec(p).unwrap().len() <= 3000, "{kind}: payload size");
    assert_eq!(p["web_push"], 8030, "{kind}: {p}");
    assert_eq!(p["mutable"], true, "{kind}");
    let n = &p["notification"];
    let base = app.config.public_url.as_str().trim_end_matches('/');
    for field in ["title", "body", "navigate", "tag", "lang"] {
        assert!(n[field].as_str().is_some_and(|s| !s.is_empty()), "{kind}: {field} in {n}");
    }
    assert!(n["navigate"].as_str().unwrap().starts_with(&format!("{base}/en/")), "{kind}: absolute, in the user's language: {n}");
    assert_eq!((n["silent"].clone(), n["require_interaction"].clone()), (json!(false), json!(true)), "{kind}");
    let data = &n["data"];
    if kind == "test" {
        assert_eq!(data["type"], "test");
        assert!(n.get("actions").is_none() && p.get("app_badge").is_none(), "{n}");
        return;
    }
    assert_eq!(data["type"], "reminder");
    assert_eq!(data["kind"], kind);
    let (reminder_id, log_id) = (data["reminder_id"].as_str().unwrap(), data["log_id"].as_str().unwrap());
    assert!(data["action_token"].as_str().is_some_and(|t| t.len() > 20));
    assert_eq!(n["tag"], reminder_id);
    assert_eq!(n["navigate"], format!("{base}/en/reminders?reminder={reminder_id}"));
    assert!(p["app_badge"].is_u64(), "{kind}: {p}");
    let actions = n["actions"].as_array().expect("actions");
    let names: Vec<&str> = actions.iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(names, ["complete", "snooze"]);
    for a in actions {
        let action = a["action"].as_str().unwrap();
        // A deep link acts only with its entry's token.
        let token = data["action_token"].as_str().unwrap();
        assert_eq!(a["navigate"], format!("{base}/en/reminders?reminder={reminder_id}&log={log_id}&do={action}&t={token}"));
        assert!(a["title"].as_str().is_some_and(|t| !t.is_empty()));
    }
}

/// Every kind of push (occurrence, snooze, send-now, test), decrypted by the independent push
/// sink, is in the declarative format and under the size limit; the badge counts overdue
/// one-time reminders.
async fn every_push_is_declarative(app: &TestApp, sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let sub = subscribe(app, sink, &token).await;
    let sub_id = sub["id"].as_str().unwrap();
    // An overdue one-time reminder first, so the badge has something to count.
    create(app, &token, json!({ "title": "Overdue", "send_at": whole_second_ahead(2).to_string() })).await;
    let got = sink.wait_for(sub_id, 1, 15).await;
    assert_declarative(app, &got[0], "occurrence");
    assert_eq!(got[0]["payload"]["app_badge"], 1);

    let long = "長い説明".repeat(500);
    let id = create(
        app,
        &token,
        json!({ "title": "Water", "description": long, "send_at": whole_second_ahead(2).to_string(), "recurrence": { "kind": "daily" } }),
    )
    .await;
    let got = sink.wait_for(sub_id, 2, 15).await;
    assert_declarative(app, &got[1], "occurrence");
    assert_eq!(got[1]["payload"]["app_badge"], 1, "a daily reminder is never overdue");
    assert!(got[1]["payload"]["notification"]["body"].as_str().unwrap().ends_with('…'), "the long body is shortened");
    let log_id = got[1]["payload"]["notification"]["data"]["log_id"].clone();
    let snooze = json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_until": whole_second_ahead(2).to_string() });
    assert_eq!(app.post("/api/reminders?action=handle", &snooze, Some(&token)).await.status(), 200);
    let got = sink.wait_for(sub_id, 3, 15).await;
    assert_declarative(app, &got[2], "snooze");

    assert_eq!(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await.status(), 202);
    let got = sink.wait_for(sub_id, 4, 15).await;
    assert_declarative(app, &got[3], "send_now");

    assert_eq!(app.post("/api/notifications?action=test", &json!({}), Some(&token)).await.status(), 202);
    let got = sink.wait_for(sub_id, 5, 15).await;
    assert_declarative(app, &got[4], "test");
    assert!(sink.rejected().await.is_empty());
}

crate::push_sink_tests!(
    setup;
    every_push_is_declarative,
    send_now_says_what_happened,
    shown_devices_and_removal,
    overdue_and_snoozed,
    editing_never_traps,
    email_fallback,
    one_fallback_email_per_occurrence
);
