use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::helpers::{Backend, Options, PushSink, TestApp, expect_error, json, unavailable, unique_email};

fn push_options(redis: bool) -> Options {
    Options { allow_private_push: true, redis, send_now_at_once: true, ..Default::default() }
}

/// Signs in a user and subscribes one device of the push sink; returns (token, sink sub).
async fn user_with_device(app: &TestApp, sink: &PushSink) -> (String, Value) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let sub = sink.subscription().await;
    let r = app
        .post(
            "/api/notifications?action=subscribe",
            &json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                     "device_info": { "user_agent": "test", "platform": "linux", "language": "en", "timezone": "UTC" } }),
            Some(&token),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    (token, sub)
}

async fn setup(backend: Backend, redis: bool) -> Option<(TestApp, PushSink)> {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return None;
    };
    let app = TestApp::spawn(backend, push_options(redis)).await?;
    Some((app, sink))
}

/// A reminder set for a whole second a few seconds ahead arrives, decrypted, within one
/// second of it; the notification's Complete (by the push's token alone) completes it.
/// The app's clock stepped through a day: the scheduler and the worker follow it, so a daily
/// reminder an hour away and its repeat ring on time by that clock (not late, not missed), one
/// day's worth, without the test waiting for any of it.
async fn a_stepped_clock_runs_a_day_of_rings_without_waiting(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(app.now().as_second() + 3600).unwrap();
    let body = json!({ "title": "Daily", "send_at": due.to_string(), "recurrence": { "kind": "daily" },
                       "repeat_until_done": { "every_minutes": 5, "max_times": 1 } });
    let id = json(app.post("/api/reminders", &body, Some(&token)).await).await["data"]["id"].as_str().unwrap().to_owned();
    let started = std::time::Instant::now();
    app.run_until(due + SignedDuration::from_hours(24) + SignedDuration::from_mins(10)).await;
    let got = sink.received(sub_id).await;
    let kinds: Vec<&str> = got.iter().map(|p| p["payload"]["notification"]["data"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["occurrence", "repeat", "occurrence", "repeat"], "{got:?}");
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await;
    let entries = logs["data"].as_array().unwrap();
    assert_eq!(entries.len(), 4, "{logs}");
    assert!(entries.iter().all(|e| e["status"] == "sent" && e["late"] == false), "on time by the app's clock: {logs}");
    // Each entry at the second it rang: the occurrence, its repeat five minutes on; a day later again.
    let rang: Vec<&str> = entries.iter().map(|e| e["occurrence_at"].as_str().unwrap()).collect();
    let at = |mins: i64| (due + SignedDuration::from_mins(mins)).to_string();
    assert_eq!(rang, [at(24 * 60 + 5), at(24 * 60), at(5), at(0)]);
    println!("a stepped day of rings took {:?}", started.elapsed());
}

/// Done early (`POST /api/reminders/{id}/complete`), before it rings: a one-time reminder is
/// completed and never rings; a recurring one's next occurrence (and its alert) does not
/// ring, the one after does.
async fn done_early_means_the_next_occurrence_does_not_ring(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(app.now().as_second() + 3600).unwrap();
    let create = |body: Value| {
        let post = app.post("/api/reminders", &body, Some(&token));
        async move { json(post.await).await["data"].clone() }
    };
    let once = create(json!({ "title": "pill", "send_at": due.to_string() })).await;
    let daily = create(json!({ "title": "walk", "send_at": due.to_string(), "recurrence": { "kind": "daily" },
                               "alerts": [{ "before_minutes": 10 }, { "before_minutes": 0 }] }))
    .await;
    let done = json(app.post(&format!("/api/reminders/{}/complete", once["id"].as_str().unwrap()), &json!({}), Some(&token)).await).await;
    assert_eq!((done["data"]["status"].as_str(), done["data"]["is_active"].as_bool()), (Some("completed"), Some(false)), "{done}");
    let again = app.post(&format!("/api/reminders/{}/complete", once["id"].as_str().unwrap()), &json!({}), Some(&token)).await;
    assert_eq!(again.status(), 200, "completing a completed one changes nothing");
    let moved = json(app.post(&format!("/api/reminders/{}/complete", daily["id"].as_str().unwrap()), &json!({}), Some(&token)).await).await;
    let tomorrow = due + SignedDuration::from_hours(24);
    assert_eq!(
        (moved["data"]["status"].as_str(), moved["data"]["scheduled_at"].as_str()),
        (Some("pending"), Some(tomorrow.to_string().as_str()))
    );
    // What rings next starts tomorrow: its alert, then the occurrence.
    let next = json(app.get(&format!("/api/reminders/{}/occurrences?count=2", daily["id"].as_str().unwrap()), Some(&token)).await).await;
    assert_eq!(next["data"]["occurrences"][0], tomorrow.to_string(), "{next}");
    let rings: Vec<(String, String)> = next["data"]["rings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["at"].as_str().unwrap().to_owned(), r["kind"].as_str().unwrap().to_owned()))
        .collect();
    let at = |t: Timestamp, kind: &str| (t.to_string(), kind.to_owned());
    let (day, ten) = (SignedDuration::from_hours(24), SignedDuration::from_mins(10));
    assert_eq!(
        rings,
        [at(tomorrow - ten, "alert"), at(tomorrow, "occurrence"), at(tomorrow + day - ten, "alert"), at(tomorrow + day, "occurrence")]
    );
    // Through the day after: only tomorrow's alert and occurrence ring.
    app.run_until(tomorrow + SignedDuration::from_secs(1)).await;
    let got = sink.received(sub_id).await;
    let rang: Vec<(&str, &str)> = got
        .iter()
        .map(|p| (p["payload"]["notification"]["title"].as_str().unwrap(), p["payload"]["notification"]["data"]["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(rang, [("walk", "alert"), ("walk", "occurrence")], "{got:?}");
    let logs = json(app.get(&format!("/api/reminders/{}/logs", daily["id"].as_str().unwrap()), Some(&token)).await).await;
    assert!(logs["data"].as_array().unwrap().iter().all(|e| e["occurrence_at"].as_str().unwrap() > due.to_string().as_str()), "{logs}");
    // Nothing past is ever listed as next: once tomorrow's rang, the day after is first.
    let next = json(app.get(&format!("/api/reminders/{}/occurrences?count=1", daily["id"].as_str().unwrap()), Some(&token)).await).await;
    let first_ring: Timestamp = next["data"]["rings"][0]["at"].as_str().unwrap().parse().unwrap();
    assert!(first_ring > app.now(), "{next}");
    expect_error(app.post("/api/reminders/not-an-id/complete", &json!({}), Some(&token)).await, 404, "NOT_FOUND").await;
}

async fn a_reminder_arrives_at_its_second(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let r = json(
        app.post("/api/reminders", &json!({ "title": "Stretch", "description": "Stand up", "send_at": due.to_string() }), Some(&token))
            .await,
    )
    .await;
    let reminder_id = r["data"]["id"].as_str().unwrap().to_owned();

    let got = sink.wait_for(sub_id, 1, 15).await;
    assert_eq!(got.len(), 1, "rejected: {:?}", sink.rejected().await);
    let push = &got[0];
    let received_at = push["received_at"].as_f64().unwrap();
    let due_s = due.as_second() as f64;
    assert!(received_at >= due_s, "early by {} s", due_s - received_at);
    assert!(received_at < due_s + 1.0, "late by {} s", received_at - due_s);
    let payload = &push["payload"];
    assert_eq!(payload["web_push"], 8030);
    assert_eq!(payload["mutable"], true);
    assert_eq!(payload["app_badge"], 1, "this one, fired and not acted on yet");
    let n = &payload["notification"];
    assert_eq!(n["data"]["type"], "reminder");
    assert_eq!(n["data"]["kind"], "occurrence");
    assert_eq!(n["title"], "Stretch");
    assert_eq!(n["body"], "Stand up");
    assert_eq!(n["data"]["reminder_id"], reminder_id.as_str());
    assert_eq!(n["tag"], reminder_id.as_str());
    assert_eq!(n["lang"], "en");
    assert_eq!(n["navigate"], format!("{}/en/reminders?reminder={reminder_id}", app.config.public_url.as_str().trim_end_matches('/')));
    let payload = &n["data"];
    assert_eq!(push["headers"]["urgency"], "high");
    assert_eq!(push["headers"]["ttl"], 14400);
    assert!(push["vapid"]["sub"].as_str().unwrap().starts_with("mailto:"));
    assert!((push["body_bytes"].as_i64().unwrap()) < 4096);
    let log_id = payload["log_id"].as_str().unwrap().to_owned();
    let action_token = payload["action_token"].as_str().unwrap().to_owned();

    // The log says sent; the service worker's acknowledgement needs only the token.
    // (The worker records the answer just after the push service gives it.)
    let mut logs = Value::Null;
    for _ in 0..50 {
        logs = json(app.get(&format!("/api/reminders/{reminder_id}/logs"), Some(&token)).await).await;
        if logs["data"][0]["status"] == "sent" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(logs["data"][0]["id"], log_id.as_str());
    assert_eq!(logs["data"][0]["status"], "sent");
    let ack = json!({ "log_id": log_id, "action_token": action_token, "endpoint": sub["endpoint"] });
    assert_eq!(app.post("/api/notifications?action=ack", &ack, None).await.status(), 204);
    let forged = json!({ "log_id": log_id, "action_token": "forged" });
    expect_error(app.post("/api/notifications?action=ack", &forged, None).await, 404, "NOT_FOUND").await;

    // Complete from the notification, without a session; twice is the same as once.
    let handle = json!({ "reminder_id": reminder_id, "log_id": log_id, "action": "complete", "action_token": action_token });
    for _ in 0..2 {
        let r = app.post("/api/reminders?action=handle", &handle, None).await;
        assert_eq!(r.status(), 200);
        let body = json(r).await;
        assert_eq!(body["data"]["status"], "completed");
    }
    let bad = json!({ "reminder_id": reminder_id, "log_id": log_id, "action": "complete", "action_token": "nope" });
    expect_error(app.post("/api/reminders?action=handle", &bad, None).await, 404, "NOT_FOUND").await;
    // Exactly one push for the one occurrence, also once a reconcile pass could have sent a
    // stuck entry again.
    app.run_until(app.now() + SignedDuration::from_mins(2)).await;
    assert_eq!(sink.received(sub_id).await.len(), 1);
    assert!(sink.rejected().await.is_empty());
}

/// Snooze fires again after the delay without moving the recurrence; complete keeps a
/// recurring reminder for its next occurrence.
async fn snooze_and_recurring_complete(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(Timestamp::now().as_second() + 3).unwrap();
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "Water", "send_at": due.to_string(), "recurrence": { "kind": "daily" } }),
            Some(&token),
        )
        .await,
    )
    .await;
    let reminder_id = r["data"]["id"].as_str().unwrap().to_owned();
    let got = sink.wait_for(sub_id, 1, 15).await;
    assert_eq!(got.len(), 1);
    let log_id = got[0]["payload"]["notification"]["data"]["log_id"].as_str().unwrap().to_owned();
    // The next occurrence is scheduled a day later.
    let after = json(app.get(&format!("/api/reminders/{reminder_id}"), Some(&token)).await).await;
    assert_eq!(after["data"]["scheduled_at"], (due + SignedDuration::from_hours(24)).to_string());

    let snooze = json!({ "reminder_id": reminder_id, "log_id": log_id, "action": "snooze", "snooze_minutes": 5 });
    let r = app.post("/api/reminders?action=handle", &snooze, Some(&token)).await;
    assert_eq!(r.status(), 200);
    expect_error(
        app.post(
            "/api/reminders?action=handle",
            &json!({ "reminder_id": reminder_id, "log_id": log_id, "action": "snooze", "snooze_minutes": 7 }),
            Some(&token),
        )
        .await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    // Five minutes on, without waiting them.
    app.run_until(app.now() + SignedDuration::from_mins(5) + SignedDuration::from_secs(1)).await;
    let got = sink.received(sub_id).await;
    assert_eq!(got.len(), 2, "the snooze fired");
    assert_eq!(got[1]["payload"]["notification"]["data"]["reminder_id"], reminder_id.as_str());
    assert_ne!(got[1]["payload"]["notification"]["data"]["log_id"], log_id.as_str(), "a new delivery log entry");
    let still = json(app.get(&format!("/api/reminders/{reminder_id}"), Some(&token)).await).await;
    assert_eq!(still["data"]["scheduled_at"], (due + SignedDuration::from_hours(24)).to_string(), "the recurrence did not move");

    let complete =
        json!({ "reminder_id": reminder_id, "log_id": got[1]["payload"]["notification"]["data"]["log_id"], "action": "complete" });
    let done = json(app.post("/api/reminders?action=handle", &complete, Some(&token)).await).await;
    assert_eq!(done["data"]["status"], "pending", "a recurring reminder stays for its next occurrence");
}

async fn subscriptions_test_pushes_and_gone_devices(app: &TestApp, sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    expect_error(app.post("/api/notifications?action=test", &json!({}), Some(&token)).await, 404, "SUBSCRIPTION_NOT_FOUND").await;
    expect_error(app.post("/api/push/test", &json!({}), Some(&token)).await, 404, "SUBSCRIPTION_NOT_FOUND").await;
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let devices = json(app.get("/api/notifications/subscriptions", Some(&token)).await).await;
    assert_eq!(devices["data"].as_array().unwrap().len(), 1);
    assert_eq!(devices["data"][0]["device_info"]["platform"], "linux");

    assert_eq!(app.post("/api/notifications?action=test", &json!({}), Some(&token)).await.status(), 202);
    let err = expect_error(app.post("/api/push/test", &json!({}), Some(&token)).await, 429, "RATE_LIMITED").await;
    assert!(err["error"]["retry_after"].as_i64().unwrap() > 50);
    let got = sink.wait_for(sub_id, 1, 10).await;
    assert_eq!(got[0]["payload"]["notification"]["data"]["type"], "test");
    assert_eq!(got[0]["headers"]["ttl"], 60);

    // The push service says the subscription is gone: it is removed.
    sink.behave(sub_id, json!({ "status": 410 })).await;
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "x", "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap();
    assert_eq!(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await.status(), 202);
    for _ in 0..100 {
        if json(app.get("/api/notifications/subscriptions", Some(&token)).await).await["data"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(json(app.get("/api/notifications/subscriptions", Some(&token)).await).await["data"].as_array().unwrap().is_empty());

    // Unsubscribe.
    let (token, sub) = user_with_device(app, sink).await;
    let r = app.post("/api/notifications?action=unsubscribe", &json!({ "endpoint": sub["endpoint"] }), Some(&token)).await;
    assert_eq!(r.status(), 204);
    assert!(json(app.get("/api/notifications/subscriptions", Some(&token)).await).await["data"].as_array().unwrap().is_empty());
}

/// 429 with Retry-After and 5xx are retried; the reminder still arrives.
async fn retries_honour_retry_after(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    sink.behave(sub_id, json!({ "status": 429, "retry_after": 1, "times": 1 })).await;
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "retry", "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap();
    app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await;
    let got = sink.wait_for(sub_id, 2, 15).await;
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["status"], 429);
    assert_eq!(got[1]["status"], 201);
    let gap = got[1]["received_at"].as_f64().unwrap() - got[0]["received_at"].as_f64().unwrap();
    assert!(gap >= 0.9, "Retry-After honoured: {gap}");
    sink.behave(sub_id, json!({ "status": 503, "times": 1 })).await;
    app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await;
    let got = sink.wait_for(sub_id, 4, 20).await;
    assert_eq!(got.len(), 4);
    assert_eq!(got[3]["status"], 201);
}

/// A push service that answers 413 gets the message once more, shortened to the bare
/// minimum (ids and token intact); a second 413 fails the device.
async fn a_payload_too_large_is_shortened_once(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    sink.behave(sub_id, json!({ "status": 413, "times": 1 })).await;
    let description = "長い説明。".repeat(300);
    let r = json(app.post("/api/reminders", &json!({ "title": "too large", "description": description, "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap();
    let sent = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    let got = sink.wait_for(sub_id, 2, 15).await;
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["status"], 413);
    assert_eq!(got[1]["status"], 201);
    let (first, second) = (&got[0]["payload"], &got[1]["payload"]);
    assert!(first["notification"]["body"].as_str().unwrap().chars().count() > 500, "the first try carries the long body: {first}");
    assert!(serde_json::to_vec(second).unwrap().len() <= 1024, "the second fits in 1024 bytes: {second}");
    assert_eq!(second["notification"]["data"]["log_id"], sent["data"]["log_id"]);
    assert_eq!(second["notification"]["data"]["reminder_id"], id);
    assert_eq!(second["notification"]["data"]["action_token"], first["notification"]["data"]["action_token"]);
    assert_eq!(second["notification"]["actions"], first["notification"]["actions"], "the actions' URLs are kept whole");

    // 413 twice: the device fails, and the entry with it. (Another account: send-now is one
    // per 10 s per account.)
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    sink.behave(sub_id, json!({ "status": 413, "times": 2 })).await;
    let r = json(app.post("/api/reminders", &json!({ "title": "too large", "description": description, "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap();
    let sent = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    let got = sink.wait_for(sub_id, 2, 15).await;
    assert_eq!(got.len(), 2);
    assert_eq!((got[0]["status"].clone(), got[1]["status"].clone()), (json!(413), json!(413)));
    let log_id = sent["data"]["log_id"].as_str().unwrap().to_owned();
    let mut status = String::new();
    for _ in 0..100 {
        status = sqlx::query_scalar("SELECT status FROM delivery_logs WHERE id = $1").bind(&log_id).fetch_one(app.db.pool()).await.unwrap();
        if status != "queued" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, "failed");
    let response: Option<i64> = sqlx::query_scalar("SELECT response_status FROM deliveries WHERE log_id = $1")
        .bind(&log_id)
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(response, Some(413));
}

async fn unsafe_endpoints_are_refused(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let keys = json!({ "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM", "auth": "tBHItJI5svbpez7KI4CCXg" });
    for endpoint in [
        "http://push.example.com/x",
        "https://127.0.0.1/push",
        "https://localhost/push",
        "https://169.254.169.254/latest",
        "https://[::1]/push",
        "https://10.0.0.8/push",
        "https://[::ffff:192.168.0.1]/push",
    ] {
        let body = json!({ "subscription": { "endpoint": endpoint, "keys": keys }, "device_info": {} });
        expect_error(app.post("/api/notifications?action=subscribe", &body, Some(&token)).await, 400, "ENDPOINT_REJECTED").await;
    }
    let body = json!({ "subscription": { "endpoint": "https://push.example.com/x", "keys": { "p256dh": "short", "auth": "x" } } });
    let r = app.post("/api/notifications?action=subscribe", &body, Some(&token)).await;
    assert_eq!(r.status(), 400);
    expect_error(app.post("/api/notifications?action=bogus", &json!({}), Some(&token)).await, 400, "VALIDATION_FAILED").await;
    expect_error(app.post("/api/notifications?action=subscribe", &json!({}), None).await, 401, "AUTHENTICATION_REQUIRED").await;
}

crate::push_sink_tests!(
    setup;
    a_reminder_arrives_at_its_second,
    a_stepped_clock_runs_a_day_of_rings_without_waiting,
    done_early_means_the_next_occurrence_does_not_ring,
    snooze_and_recurring_complete,
    subscriptions_test_pushes_and_gone_devices,
    retries_honour_retry_after,
    a_payload_too_large_is_shortened_once
);

#[tokio::test]
async fn unsafe_endpoints_are_refused_without_the_test_switch() {
    if let Some(app) = TestApp::spawn(Backend::Sqlite, Options::default()).await {
        unsafe_endpoints_are_refused(&app).await;
        app.stop().await;
    }
}

/// 300 reminders of several users due in the same second all arrive, once, none early.
async fn a_burst_of_three_hundred_in_one_second(app: &TestApp, sink: &PushSink) {
    let due = Timestamp::from_second(Timestamp::now().as_second() + 12).unwrap();
    let mut devices = Vec::new();
    for _ in 0..3 {
        let (token, sub) = user_with_device(app, sink).await;
        let bodies: Vec<Value> = (0..100).map(|i| json!({ "title": format!("burst {i}"), "send_at": due.to_string() })).collect();
        for chunk in bodies.chunks(20) {
            let results = futures::future::join_all(chunk.iter().map(|b| app.post("/api/reminders", b, Some(&token)))).await;
            assert!(results.iter().all(|r| r.status() == 201));
        }
        devices.push(sub["id"].as_str().unwrap().to_owned());
    }
    assert!(Timestamp::now() < due, "setup took too long for the test to mean anything");
    let mut total = 0;
    for id in &devices {
        let got = sink.wait_for(id, 100, 40).await;
        assert_eq!(got.len(), 100, "device {id}");
        let mut logs: Vec<&str> = got.iter().map(|p| p["payload"]["notification"]["data"]["log_id"].as_str().unwrap()).collect();
        logs.sort();
        logs.dedup();
        assert_eq!(logs.len(), 100, "no duplicates");
        for p in &got {
            assert!(p["received_at"].as_f64().unwrap() >= due.as_second() as f64, "early");
        }
        total += got.len();
    }
    assert_eq!(total, 300);
    assert!(sink.rejected().await.is_empty());
}

/// Of concurrent claims of one due fire, exactly one wins.
async fn concurrent_claims_of_a_fire_yield_one_delivery(app: &TestApp, _sink: &PushSink) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "race", "send_at": (Timestamp::now() + SignedDuration::from_hours(2)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap().parse::<hibiki_common::domain::ids::ReminderId>().unwrap();
    let now = Timestamp::now() + SignedDuration::from_hours(3);
    let claims =
        futures::future::join_all((0..8).map(|_| app.db.claim_fire(&id, hibiki_common::domain::states::FireKind::Occurrence, now))).await;
    let delivered = claims
        .iter()
        .filter(|c| {
            matches!(c, Ok(hibiki_common::infra::storage::Claimed::Deliver { .. } | hibiki_common::infra::storage::Claimed::Missed { .. }))
        })
        .count();
    assert_eq!(delivered, 1, "{claims:?}");
}

/// After downtime, an occurrence more than 15 minutes late is logged as missed and never
/// delivered; a recurring reminder goes on from its next occurrence after the outage. The
/// claim is stepped to the instant the scheduler would have come back.
async fn an_occurrence_missed_by_downtime_is_logged_not_delivered(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let due = Timestamp::from_second(Timestamp::now().as_second() + 7200).unwrap();
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "while down", "send_at": due.to_string(), "recurrence": { "kind": "daily" } }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    let back = due + SignedDuration::from_mins(16);
    let claimed = app
        .db
        .claim_fire(
            &id.parse::<hibiki_common::domain::ids::ReminderId>().unwrap(),
            hibiki_common::domain::states::FireKind::Occurrence,
            back,
        )
        .await;
    let next = due + SignedDuration::from_hours(24);
    assert!(matches!(&claimed, Ok(hibiki_common::infra::storage::Claimed::Missed { next: Some(n), .. }) if *n == next), "{claimed:?}");
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await;
    assert_eq!(logs["data"].as_array().unwrap().len(), 1, "{logs}");
    assert_eq!(logs["data"][0]["status"], "missed");
    assert_eq!(logs["data"][0]["occurrence_at"], due.to_string());
    let r = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await;
    assert_eq!(r["data"]["scheduled_at"], next.to_string(), "on from the next occurrence, none replayed");
    // Nothing goes out for it (a sweep of stale entries takes only queued ones).
    app.run_until(app.now() + SignedDuration::from_mins(2)).await;
    assert!(sink.received(sub["id"].as_str().unwrap()).await.is_empty());
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await;
    assert_eq!(logs["data"][0]["status"], "missed");
}

crate::push_sink_tests!(
    setup;
    a_burst_of_three_hundred_in_one_second,
    an_occurrence_missed_by_downtime_is_logged_not_delivered,
    concurrent_claims_of_a_fire_yield_one_delivery,
    a_skipped_date_does_not_ring,
    alerts_repeats_and_snooze_until_ring_as_set
);

/// Within one minute and ten seconds, through the push sink: an alert one minute before and
/// its occurrence arrive once each; repeat until done rings the occurrence again, and stops
/// after max_times, or at once on Complete; a snooze until an instant rings at that second.
async fn alerts_repeats_and_snooze_until_ring_as_set(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let start = Timestamp::now().as_second();
    let at = |s: i64| Timestamp::from_second(start + s).unwrap();
    let create = |body: Value| {
        let post = app.post("/api/reminders", &body, Some(&token));
        async move {
            let r = post.await;
            assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
            json(r).await["data"].clone()
        }
    };
    let alerted =
        create(json!({ "title": "alerted", "send_at": at(65).to_string(), "alerts": [{ "before_minutes": 0 }, { "before_minutes": 1 }] }))
            .await;
    assert_eq!(alerted["alerts"], json!([{ "before_minutes": 1 }, { "before_minutes": 0 }]));
    let nag =
        create(json!({ "title": "nag", "send_at": at(5).to_string(), "repeat_until_done": { "every_minutes": 1, "max_times": 1 } })).await;
    let done =
        create(json!({ "title": "done", "send_at": at(5).to_string(), "repeat_until_done": { "every_minutes": 1, "max_times": 5 } })).await;
    let snoozed = create(json!({ "title": "snoozed", "send_at": at(6).to_string() })).await;
    let of = |pushes: &[Value], title: &str| -> Vec<Value> {
        pushes.iter().filter(|p| p["payload"]["notification"]["title"] == title).cloned().collect()
    };

    // The first seconds: the alert (a minute before "alerted"), "nag", "done" and "snoozed".
    let got = sink.wait_for(sub_id, 4, 20).await;
    assert_eq!(got.len(), 4, "{got:?}");
    let alert = &of(&got, "alerted")[0];
    assert_eq!(alert["payload"]["notification"]["data"]["kind"], "alert");
    let received = alert["received_at"].as_f64().unwrap();
    assert!(received >= (start + 5) as f64 && received < (start + 6) as f64, "the alert rings at its second: {received} vs {}", start + 5);
    // "done" is completed from its notification: no repeat follows.
    let done_push = &of(&got, "done")[0]["payload"]["notification"]["data"];
    let complete = json!({ "reminder_id": done["id"], "log_id": done_push["log_id"], "action": "complete", "action_token": done_push["action_token"] });
    assert_eq!(app.post("/api/reminders?action=handle", &complete, None).await.status(), 200);
    // "snoozed" is snoozed until a named second.
    let snoozed_push = &of(&got, "snoozed")[0]["payload"]["notification"]["data"];
    let until = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let snooze =
        json!({ "reminder_id": snoozed["id"], "log_id": snoozed_push["log_id"], "action": "snooze", "snooze_until": until.to_string() });
    assert_eq!(app.post("/api/reminders?action=handle", &snooze, Some(&token)).await.status(), 200);
    let got = sink.wait_for(sub_id, 5, 15).await;
    let again = of(&got, "snoozed");
    assert_eq!(again.len(), 2, "{got:?}");
    assert_eq!(again[1]["payload"]["notification"]["data"]["kind"], "snooze");
    let received = again[1]["received_at"].as_f64().unwrap();
    assert!(received >= until.as_second() as f64 && received < (until.as_second() + 1) as f64, "{received} vs {until}");

    // A minute on: "nag" rings once more (max_times 1); "alerted" rings at its time.
    let got = sink.wait_for(sub_id, 7, 80).await;
    let nags = of(&got, "nag");
    assert_eq!(nags.len(), 2, "{got:?}");
    assert_eq!(nags[1]["payload"]["notification"]["data"]["kind"], "repeat");
    let received = nags[1]["received_at"].as_f64().unwrap();
    assert!(received >= (start + 65) as f64 && received < (start + 66) as f64, "{received}");
    let alerted_pushes = of(&got, "alerted");
    assert_eq!(alerted_pushes.len(), 2, "{got:?}");
    assert_eq!(alerted_pushes[1]["payload"]["notification"]["data"]["kind"], "occurrence");
    app.run_until(app.now() + SignedDuration::from_mins(10)).await;
    let all = sink.received(sub_id).await;
    assert_eq!(all.len(), 7, "nothing more: no second nag, no repeat of the completed one: {all:?}");
    let logs = json(app.get(&format!("/api/reminders/{}/logs", alerted["id"].as_str().unwrap()), Some(&token)).await).await;
    let kinds: Vec<&str> = logs["data"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["occurrence", "alert"], "each its own entry, newest first");
    let logs = json(app.get(&format!("/api/reminders/{}/logs", nag["id"].as_str().unwrap()), Some(&token)).await).await;
    let kinds: Vec<&str> = logs["data"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["repeat", "occurrence"]);
}

/// "Skip next" on a daily reminder due in a few seconds: that second passes in silence, while
/// a one-time reminder due at the same second rings; the skipped one waits for tomorrow.
async fn a_skipped_date_does_not_ring(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let daily = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "skipped", "send_at": due.to_string(), "timezone": "Asia/Tokyo", "recurrence": { "kind": "daily" } }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = daily["data"]["id"].as_str().unwrap();
    json(app.post("/api/reminders", &json!({ "title": "rings", "send_at": due.to_string() }), Some(&token)).await).await;
    let skipped = json(app.post(&format!("/api/reminders/{id}/skip"), &json!({}), Some(&token)).await).await;
    let tokyo_date = due.to_zoned(jiff::tz::TimeZone::get("Asia/Tokyo").unwrap()).date().to_string();
    assert_eq!(skipped["data"]["recurrence"]["skip"], json!([tokyo_date]), "{skipped}");
    assert_eq!(skipped["data"]["scheduled_at"], (due + SignedDuration::from_hours(24)).to_string());

    let got = sink.wait_for(sub_id, 1, 15).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["payload"]["notification"]["title"], "rings");
    app.run_until(app.now() + SignedDuration::from_hours(1)).await;
    let all = sink.received(sub_id).await;
    assert_eq!(all.len(), 1, "the skipped date rang: {all:?}");
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await;
    assert_eq!(logs["data"], json!([]), "no entry for a skipped date");
}

/// Two schedulers on one database (one leads, the other stands by; even both firing could not
/// double a delivery): every due occurrence arrives exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_schedulers_deliver_each_occurrence_once() {
    let Some((app, sink)) = setup(Backend::Postgres, true).await else { return };
    let mut second = app.config.clone();
    second.listen = "127.0.0.1:0".parse().unwrap();
    let other = hibiki::Application::start(second, hibiki::Parts { api: false, scheduler: true, worker: true }).await.unwrap();
    let (token, sub) = user_with_device(&app, &sink).await;
    let due = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    for i in 0..20 {
        app.post("/api/reminders", &json!({ "title": format!("twice? {i}"), "send_at": due.to_string() }), Some(&token)).await;
    }
    let holder = || async {
        sqlx::query_scalar::<_, String>("SELECT holder FROM leases WHERE name = 'scheduler'").fetch_one(app.db.pool()).await.unwrap()
    };
    let leader = holder().await;
    let names = [app.scheduler_id().unwrap(), other.scheduler_id.as_deref().unwrap()];
    assert!(names.contains(&leader.as_str()), "the lease is held by one of the two schedulers: {leader} not in {names:?}");
    let got = sink.wait_for(sub["id"].as_str().unwrap(), 20, 20).await;
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let got_after = sink.received(sub["id"].as_str().unwrap()).await;
    assert_eq!(got.len(), 20);
    assert_eq!(got_after.len(), 20, "no second delivery");
    assert_eq!(holder().await, leader, "the same one led throughout; the other stood by");
    other.stop().await;
    app.stop().await;
}

/// The queue is not the source of truth: a Redis that loses everything loses no reminder, and
/// a delivery whose job vanished is enqueued again by the scheduler.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn losing_the_queue_loses_no_reminder() {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink");
        return;
    };
    let scheduler = hibiki_scheduler::SchedulerConfig {
        reconcile_every: std::time::Duration::from_secs(2),
        requeue_after: SignedDuration::from_secs(2),
        ..Default::default()
    };
    let Some(app) = TestApp::spawn_with(Backend::Postgres, push_options(true), scheduler).await else { return };
    let (token, sub) = user_with_device(&app, &sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    let due = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let r = json(app.post("/api/reminders", &json!({ "title": "survives", "send_at": due.to_string() }), Some(&token)).await).await;
    let reminder_id = r["data"]["id"].as_str().unwrap().to_owned();
    // Redis loses its data before the reminder is due: the fire lives in the database.
    app.flush_redis_namespace().await;
    let got = sink.wait_for(sub_id, 1, 15).await;
    assert_eq!(got.len(), 1);

    // A delivery log entry whose job was lost (written, never enqueued) is sent by the
    // scheduler's reconcile pass.
    const LOST: &str = "6f1e2d3c-4b5a-4968-8776-655443322110";
    let user_id: String =
        sqlx::query_scalar("SELECT user_id FROM reminders WHERE id = $1").bind(&reminder_id).fetch_one(app.db.pool()).await.unwrap();
    let old = (Timestamp::now() - SignedDuration::from_secs(60)).as_millisecond();
    sqlx::query("INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind) VALUES ($1, $2, $3, $4, 'queued', 0, $4, 'send_now')")
        .bind(LOST)
        .bind(&reminder_id)
        .bind(&user_id)
        .bind(old)
        .execute(app.db.pool())
        .await
        .unwrap();
    let got = sink.wait_for(sub_id, 2, 20).await;
    assert_eq!(got.len(), 2, "re-enqueued");
    assert_eq!(got[1]["payload"]["notification"]["data"]["log_id"], LOST);
    app.stop().await;
}

/// Housekeeping: unanswered one-time reminders are archived after 7 days; accounts unused for
/// 180 days lose their active reminders (archived) and devices.
async fn housekeeping_archives_and_retires(app: &TestApp, sink: &PushSink) {
    let (token, _) = user_with_device(app, sink).await;
    let due = Timestamp::from_second(Timestamp::now().as_second() + 3600).unwrap();
    let r = json(app.post("/api/reminders", &json!({ "title": "old", "send_at": due.to_string() }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    let recurring = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "daily", "send_at": due.to_string(), "recurrence": { "kind": "daily" } }),
            Some(&token),
        )
        .await,
    )
    .await;
    // It fires at its second (claimed as of then) and nobody answers; housekeeping runs as of
    // a day, then eight days, later.
    let claimed = app
        .db
        .claim_fire(
            &id.parse::<hibiki_common::domain::ids::ReminderId>().unwrap(),
            hibiki_common::domain::states::FireKind::Occurrence,
            due,
        )
        .await;
    assert!(matches!(claimed, Ok(hibiki_common::infra::storage::Claimed::Deliver { .. })), "{claimed:?}");
    let day = SignedDuration::from_hours(24);
    assert_eq!(hibiki_worker::housekeeping::run_once(&app.db, due + day).await.unwrap().0, 0, "overdue, kept for 7 days");
    let (a, b, _) = hibiki_worker::housekeeping::run_once(&app.db, due + day * 8).await.unwrap();
    assert_eq!((a, b), (1, 0));
    assert_eq!(json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await["data"]["status"], "completed");
    assert_eq!(
        json(app.get(&format!("/api/reminders/{}", recurring["data"]["id"].as_str().unwrap()), Some(&token)).await).await["data"]["status"],
        "pending"
    );

    // Housekeeping as of 181 days without use.
    let (_, b, _) = hibiki_worker::housekeeping::run_once(&app.db, Timestamp::now() + day * 181).await.unwrap();
    assert_eq!(b, 1);
    // (Its sessions ended long before, so the rows tell.)
    let (archived, active): (i64, i64) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(is_archived), 0) AS BIGINT), CAST(COALESCE(SUM(is_active), 0) AS BIGINT) FROM reminders")
            .fetch_one(app.db.pool())
            .await
            .unwrap();
    assert_eq!((archived, active), (2, 0), "archived, not deleted");
    let devices: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM push_subscriptions").fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(devices, 0);
    expect_error(app.get("/api/reminders", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
    let fires: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM fires").fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(fires, 0);
}

crate::push_sink_tests!(setup; housekeeping_archives_and_retires);

/// A push service that answers with a redirect is not followed (the server would otherwise
/// POST wherever it is told): the send fails after one request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_not_followed() {
    let Some((app, sink)) = setup(Backend::Sqlite, false).await else { return };
    let (token, sub) = user_with_device(&app, &sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    sink.behave(sub_id, json!({ "status": 307 })).await;
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "redirect", "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap();
    let sent = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    let log_id = sent["data"]["log_id"].as_str().unwrap().to_owned();
    let mut status = String::new();
    for _ in 0..100 {
        let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await;
        status = logs["data"][0]["status"].as_str().unwrap_or("").to_owned();
        if status != "queued" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, "failed");
    let got = sink.received(sub_id).await;
    assert_eq!(got.len(), 1, "one request, no redirect followed");
    assert_eq!(got[0]["payload"]["notification"]["data"]["log_id"], log_id.as_str());
    app.stop().await;
}

/// Short push timeouts and retry backoff, so timing-out pushes settle in a few seconds.
fn timeout_options(redis: bool) -> Options {
    Options { push_connect_timeout_ms: Some(500), push_timeout_ms: Some(1500), push_retry_base_ms: Some(100), ..push_options(redis) }
}

async fn setup_with(backend: Backend, options: Options) -> Option<(TestApp, PushSink)> {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return None;
    };
    let app = TestApp::spawn(backend, options).await?;
    Some((app, sink))
}

/// Subscribes one more device of the push sink for a signed-in user.
async fn add_device(app: &TestApp, sink: &PushSink, token: &str) -> Value {
    let sub = sink.subscription().await;
    let body = json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] }, "device_info": { "platform": "other" } });
    let r = app.post("/api/notifications?action=subscribe", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    sub
}

/// The first delivery log entry's status once it is no longer `queued` (waits up to 20 s).
async fn settled_log_status(app: &TestApp, token: &str, reminder_id: &str) -> String {
    let mut status = String::new();
    for _ in 0..200 {
        let logs = json(app.get(&format!("/api/reminders/{reminder_id}/logs"), Some(token)).await).await;
        status = logs["data"][0]["status"].as_str().unwrap_or("").to_owned();
        if !status.is_empty() && status != "queued" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    status
}

/// (status, response status, sent_at in ms) of one device's delivery of a log entry, by the
/// push sink's subscription id (the end of the endpoint).
async fn device_delivery(app: &TestApp, log_id: &str, sink_sub_id: &str) -> (String, Option<i64>, Option<i64>) {
    sqlx::query_as(
        "SELECT d.status, d.response_status, d.sent_at FROM deliveries d JOIN push_subscriptions s ON s.id = d.subscription_id
         WHERE d.log_id = $1 AND s.endpoint LIKE $2",
    )
    .bind(log_id)
    .bind(format!("%/push/{sink_sub_id}"))
    .fetch_one(app.db.pool())
    .await
    .unwrap()
}

/// A push service that answers after a delay shorter than the timeout (700 ms of 1500 ms): the
/// push is waited for and delivered once, with no retry.
async fn a_slow_push_service_is_waited_for(app: &TestApp, sink: &PushSink) {
    let (token, sub) = user_with_device(app, sink).await;
    let sub_id = sub["id"].as_str().unwrap();
    sink.behave(sub_id, json!({ "delay_ms": 700 })).await;
    let r = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "slow", "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    let sent = json(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await).await;
    let log_id = sent["data"]["log_id"].as_str().unwrap().to_owned();
    assert_eq!(settled_log_status(app, &token, &id).await, "sent");
    let (status, response, _) = device_delivery(app, &log_id, sub_id).await;
    assert_eq!((status.as_str(), response), ("sent", Some(201)));
    // Nothing more arrives: the slow answer was not taken for a timeout.
    app.run_until(app.now() + SignedDuration::from_mins(2)).await;
    let got = sink.received(sub_id).await;
    assert_eq!(got.len(), 1, "delivered once");
    assert_eq!(got[0]["status"], 201);
    assert_eq!(got[0]["payload"]["notification"]["data"]["log_id"], log_id.as_str());
    assert!(sink.rejected().await.is_empty());
}

/// A push service that accepts the push and never answers: each attempt ends at the 1.5 s
/// timeout and is retried with backoff (200, 400, 800 ms here); after the 4 attempts that
/// device's delivery is `failed`. The user's other device gets the reminder at its second.
async fn a_hanging_push_service_times_out(app: &TestApp, sink: &PushSink) {
    let (token, hanging) = user_with_device(app, sink).await;
    let hanging_id = hanging["id"].as_str().unwrap();
    let healthy = add_device(app, sink, &token).await;
    let healthy_id = healthy["id"].as_str().unwrap();
    sink.behave(hanging_id, json!({ "hang": true })).await;
    let due = Timestamp::from_second(Timestamp::now().as_second() + 4).unwrap();
    let r = json(app.post("/api/reminders", &json!({ "title": "hang", "send_at": due.to_string() }), Some(&token)).await).await;
    let reminder_id = r["data"]["id"].as_str().unwrap().to_owned();

    let got = sink.wait_for(healthy_id, 1, 15).await;
    assert_eq!(got.len(), 1, "rejected: {:?}", sink.rejected().await);
    let due_s = due.as_second() as f64;
    let received_at = got[0]["received_at"].as_f64().unwrap();
    assert!(received_at >= due_s && received_at < due_s + 1.0, "the healthy device on time: {} s after due", received_at - due_s);
    let log_id = got[0]["payload"]["notification"]["data"]["log_id"].as_str().unwrap().to_owned();

    let hung = sink.wait_for(hanging_id, 4, 30).await;
    assert_eq!(hung.len(), 4, "four attempts");
    assert!(hung.iter().all(|p| p["status"].is_null() && p["payload"]["notification"]["data"]["log_id"] == log_id.as_str()), "{hung:?}");
    for (i, backoff) in [0.2, 0.4, 0.8].into_iter().enumerate() {
        let gap = hung[i + 1]["received_at"].as_f64().unwrap() - hung[i]["received_at"].as_f64().unwrap();
        assert!(
            gap >= 1.5 + backoff - 0.05,
            "attempt {} came {gap:.3} s after the one before (timeout 1.5 s + backoff {backoff} s)",
            i + 2
        );
    }
    // The entry is sent (one device got it); the hanging device's delivery failed.
    assert_eq!(settled_log_status(app, &token, &reminder_id).await, "sent");
    let (status, response, _) = device_delivery(app, &log_id, hanging_id).await;
    assert_eq!((status.as_str(), response), ("failed", None));
    let (status, response, sent_at) = device_delivery(app, &log_id, healthy_id).await;
    assert_eq!((status.as_str(), response), ("sent", Some(201)));
    assert!(sent_at.unwrap() < (due_s as i64 + 1) * 1000, "the healthy device's send was recorded at once, not after the hanging one");
    // Bounded: no fifth attempt.
    app.run_until(app.now() + SignedDuration::from_mins(2)).await;
    assert_eq!(sink.received(hanging_id).await.len(), 4);
    assert!(sink.rejected().await.is_empty());
}

macro_rules! delivery_tests_with {
    ($options:ident: $($name:ident),*) => {$(
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_queues() {
                if let Some((app, sink)) = setup_with(Backend::Sqlite, $options(false)).await {
                    super::$name(&app, &sink).await;
                    app.stop().await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_and_redis() {
                if let Some((app, sink)) = setup_with(Backend::Postgres, $options(true)).await {
                    super::$name(&app, &sink).await;
                    app.stop().await;
                }
            }
        }
    )*};
}

delivery_tests_with!(timeout_options: a_slow_push_service_is_waited_for, a_hanging_push_service_times_out);
