use futures::future::join_all;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    create_get_list_update_delete,
    validation_names_every_bad_field,
    wrong_types_and_unknown_recurrences_are_validation_failures,
    someone_elses_reminder_is_a_404,
    at_most_one_hundred_active_reminders_even_concurrently,
    completed_reminders_do_not_count_and_filter_by_status,
    preview_lists_occurrences_from_send_at,
    occurrences_follow_the_recurrence_in_the_reminders_zone,
    logs_answer_an_empty_list_then_404_for_others,
    timezone_defaults_to_the_users_setting,
    contents_are_sealed_at_rest,
    edits_follow_the_time_rules,
    a_fired_one_time_reminder_reads_overdue_once_its_second_has_passed,
);

/// A device id of the shape the API hands out (send_to names devices; it need not be one).
const DEVICE: &str = "0b7c3d0e-5a1f-4c2b-9e8d-7f6a5b4c3d2e";

fn in_secs(s: i64) -> String {
    (Timestamp::now() + SignedDuration::from_secs(s)).round(jiff::Unit::Second).unwrap().to_string()
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn create_get_list_update_delete(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    let later = create(app, &token, json!({ "title": "Later", "send_at": in_secs(7200), "timezone": "Asia/Tokyo" })).await;
    let sooner = create(
        app,
        &token,
        json!({ "title": "  歯医者  ", "description": "予約の確認", "send_at": in_secs(3600), "timezone": "Asia/Tokyo",
                "recurrence": { "kind": "custom", "days": ["mon", "wed"] }, "metadata": { "color": "blue" }, "send_to": [DEVICE] }),
    )
    .await;
    assert_eq!(sooner["title"], "歯医者", "trimmed");
    assert_eq!(sooner["user_id"], user["id"]);
    assert_eq!(sooner["status"], "pending");
    assert_eq!(sooner["is_active"], true);
    assert_eq!(sooner["is_archived"], false);
    assert_eq!(sooner["recurrence"], json!({ "kind": "custom", "days": ["mon", "wed"] }));
    assert_eq!(sooner["metadata"], json!({ "color": "blue" }));
    assert_eq!(sooner["send_to"], json!([DEVICE]));
    assert!(sooner["created_at"].as_str().unwrap().ends_with('Z'));
    // The next occurrence of a Mon/Wed reminder falls on a Monday or Wednesday in Tokyo.
    let next: Timestamp = sooner["scheduled_at"].as_str().unwrap().parse().unwrap();
    let weekday = next.to_zoned(jiff::tz::TimeZone::get("Asia/Tokyo").unwrap()).weekday();
    assert!(matches!(weekday, jiff::civil::Weekday::Monday | jiff::civil::Weekday::Wednesday), "{weekday:?}");

    let id = sooner["id"].as_str().unwrap();
    let got = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await;
    assert_eq!(got["data"], sooner);
    // Ids are parsed where they come in: one that is not an id names no device (a field error)
    // and no reminder (404, like a missing one, in any spelling but the one handed out).
    let bad = expect_error(
        app.post("/api/reminders", &json!({ "title": "x", "send_at": in_secs(60), "send_to": ["device-1"] }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert_eq!(bad["error"]["details"][0]["field"], "send_to[0]", "{bad}");
    for not_one in ["not-an-id", &id.replace('-', ""), &format!("{id}x")] {
        expect_error(app.get(&format!("/api/reminders/{not_one}"), Some(&token)).await, 404, "NOT_FOUND").await;
    }

    let list = json(app.get("/api/reminders", Some(&token)).await).await;
    let ids: Vec<&str> = list["data"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let mut expected =
        [(sooner["scheduled_at"].as_str().unwrap(), id), (later["scheduled_at"].as_str().unwrap(), later["id"].as_str().unwrap())];
    expected.sort();
    assert_eq!(ids, expected.iter().map(|e| e.1).collect::<Vec<_>>(), "ordered by scheduled_at");

    let r = app.put(&format!("/api/reminders/{id}"), &json!({ "title": "Dentist", "description": null }), &token).await;
    assert_eq!(r.status(), 200);
    let updated = json(r).await["data"].clone();
    assert_eq!(updated["title"], "Dentist");
    assert_eq!(updated["description"], Value::Null);
    assert_eq!(updated["metadata"], json!({ "color": "blue" }), "untouched fields stay");
    assert_eq!(updated["scheduled_at"], sooner["scheduled_at"]);

    assert_eq!(app.delete(&format!("/api/reminders/{id}"), &token).await.status(), 204);
    expect_error(app.get(&format!("/api/reminders/{id}"), Some(&token)).await, 404, "NOT_FOUND").await;
    expect_error(app.delete(&format!("/api/reminders/{id}"), &token).await, 404, "NOT_FOUND").await;
    expect_error(app.put(&format!("/api/reminders/{id}"), &json!({ "title": "x" }), &token).await, 404, "NOT_FOUND").await;
    assert_eq!(json(app.get("/api/reminders", Some(&token)).await).await["data"].as_array().unwrap().len(), 1);
}

async fn validation_names_every_bad_field(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let body = json!({
        "title": "x".repeat(201), "description": "d".repeat(2001), "send_at": in_secs(-60), "timezone": "Mars/Olympus",
        "recurrence": { "kind": "hourly", "interval_hours": 25 }, "metadata": { "blob": "m".repeat(5000) },
    });
    let err = expect_error(app.post("/api/reminders", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
    let fields = err["error"]["fields"].as_object().unwrap();
    for f in ["title", "description", "timezone", "recurrence", "metadata"] {
        assert!(fields.contains_key(f), "{f} in {err}");
    }
    let err = expect_error(
        app.post("/api/reminders", &json!({ "title": " ", "send_at": in_secs(-1) }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["title"].is_string() && err["error"]["fields"]["send_at"].is_string(), "{err}");
    let err = expect_error(
        app.post(
            "/api/reminders",
            &json!({ "title": "t", "send_at": in_secs(3600), "recurrence": { "kind": "custom", "days": [] } }),
            Some(&token),
        )
        .await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["recurrence"].is_string());
    let err = expect_error(
        app.post("/api/reminders", &json!({ "title": "t", "send_at": "2099-01-01T00:00:00Z" }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["send_at"].is_string(), "more than 10 years ahead");
    assert!(
        json(app.get("/api/reminders?status=all", Some(&token)).await).await["data"].as_array().unwrap().is_empty(),
        "nothing was stored"
    );
}

async fn wrong_types_and_unknown_recurrences_are_validation_failures(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    for (body, field) in [
        (json!({ "title": 5, "send_at": in_secs(60) }), "title"),
        // A missing field is named itself (api.md: one detail per failing field).
        (json!({ "title": "t" }), "send_at"),
        (json!({ "title": "t", "send_at": "tomorrow" }), "send_at"),
        (json!({ "title": "t", "send_at": "2030-01-01T09:00:00" }), "send_at"),
        (json!({ "title": "t", "send_at": in_secs(60), "recurrence": { "kind": "fortnightly" } }), "recurrence"),
        (json!({ "title": "t", "send_at": in_secs(60), "recurrence": { "kind": "custom", "days": ["funday"] } }), "recurrence"),
        (json!(["not", "an", "object"]), "body"),
    ] {
        let err = expect_error(app.post("/api/reminders", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
        let fields = err["error"]["fields"].as_object().unwrap();
        assert!(fields.keys().any(|k| k.starts_with(field)), "{field}: {err}");
    }
    expect_error(app.get("/api/reminders?status=bogus", Some(&token)).await, 400, "VALIDATION_FAILED").await;
    expect_error(app.post("/api/reminders?action=explode", &json!({}), Some(&token)).await, 400, "VALIDATION_FAILED").await;
}

async fn someone_elses_reminder_is_a_404(app: &TestApp) {
    let (alice, _) = app.sign_in(&unique_email()).await;
    let (bob, _) = app.sign_in(&unique_email()).await;
    let r = create(app, &alice, json!({ "title": "Alice's", "send_at": in_secs(3600) })).await;
    let id = r["id"].as_str().unwrap();
    for path in [format!("/api/reminders/{id}"), format!("/api/reminders/{id}/occurrences"), format!("/api/reminders/{id}/logs")] {
        expect_error(app.get(&path, Some(&bob)).await, 404, "NOT_FOUND").await;
    }
    expect_error(app.put(&format!("/api/reminders/{id}"), &json!({ "title": "mine now" }), &bob).await, 404, "NOT_FOUND").await;
    expect_error(app.delete(&format!("/api/reminders/{id}"), &bob).await, 404, "NOT_FOUND").await;
    assert!(json(app.get("/api/reminders?status=all", Some(&bob)).await).await["data"].as_array().unwrap().is_empty());
    let still = json(app.get(&format!("/api/reminders/{id}"), Some(&alice)).await).await;
    assert_eq!(still["data"]["title"], "Alice's");
}

async fn at_most_one_hundred_active_reminders_even_concurrently(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let send_at = in_secs(3600);
    for chunk in (0..95).collect::<Vec<_>>().chunks(19) {
        let results = join_all(
            chunk.iter().map(|i| app.post("/api/reminders", &json!({ "title": format!("r{i}"), "send_at": send_at }), Some(&token))),
        )
        .await;
        assert!(results.iter().all(|r| r.status() == 201));
    }
    // Ten at once with room for five: exactly five get in.
    let results =
        join_all((0..10).map(|i| app.post("/api/reminders", &json!({ "title": format!("race{i}"), "send_at": send_at }), Some(&token))))
            .await;
    let statuses: Vec<u16> = results.iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 5, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 5, "{statuses:?}");
    expect_error(app.post("/api/reminders", &json!({ "title": "101st", "send_at": send_at }), Some(&token)).await, 409, "REMINDER_LIMIT")
        .await;
    assert_eq!(json(app.get("/api/reminders", Some(&token)).await).await["data"].as_array().unwrap().len(), 100);
}

async fn completed_reminders_do_not_count_and_filter_by_status(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    for i in 0..100 {
        create(app, &token, json!({ "title": format!("r{i}"), "send_at": in_secs(3600 + i) })).await;
    }
    expect_error(
        app.post("/api/reminders", &json!({ "title": "full", "send_at": in_secs(60) }), Some(&token)).await,
        409,
        "REMINDER_LIMIT",
    )
    .await;
    // Complete three (what the delivery pipeline's "complete" does to one-time reminders).
    sqlx::query("UPDATE reminders SET is_active = 0, is_archived = 1, scheduled_at = NULL WHERE id IN (SELECT id FROM reminders WHERE user_id = $1 ORDER BY send_at LIMIT 3)")
        .bind(user["id"].as_str().unwrap())
        .execute(app.db.pool())
        .await
        .unwrap();
    create(app, &token, json!({ "title": "fits again", "send_at": in_secs(60) })).await;
    for i in 0..2 {
        create(app, &token, json!({ "title": format!("more{i}"), "send_at": in_secs(9000 + i) })).await;
    }
    let active = json(app.get("/api/reminders", Some(&token)).await).await;
    let archived = json(app.get("/api/reminders?status=archived", Some(&token)).await).await;
    let all = json(app.get("/api/reminders?status=all", Some(&token)).await).await;
    assert_eq!(active["data"].as_array().unwrap().len(), 100);
    assert_eq!(archived["data"].as_array().unwrap().len(), 3);
    assert!(archived["data"].as_array().unwrap().iter().all(|r| r["status"] == "completed" && r["is_archived"] == true));
    assert_eq!(all["data"].as_array().unwrap().len(), 103);
    assert_eq!(active["data"][0]["title"], "fits again", "soonest first");

    // Giving a completed reminder a new time makes it pending again, within the limit.
    let done = archived["data"][0]["id"].as_str().unwrap();
    expect_error(app.put(&format!("/api/reminders/{done}"), &json!({ "send_at": in_secs(7200) }), &token).await, 409, "REMINDER_LIMIT")
        .await;
    let one = active["data"][1]["id"].as_str().unwrap();
    assert_eq!(app.delete(&format!("/api/reminders/{one}"), &token).await.status(), 204);
    let r = json(app.put(&format!("/api/reminders/{done}"), &json!({ "send_at": in_secs(7200) }), &token).await).await;
    assert_eq!(r["data"]["status"], "pending");
    assert!(r["data"]["scheduled_at"].is_string());
}

async fn preview_lists_occurrences_from_send_at(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    // Past send_at is fine here; weekly in New York across the spring change stays at 09:00.
    let body = json!({ "send_at": "2026-03-02T09:00:00-05:00", "timezone": "America/New_York", "recurrence": { "kind": "weekly" } });
    let r = json(app.post("/api/reminders/preview?count=3", &body, Some(&token)).await).await;
    assert_eq!(r["data"]["occurrences"], json!(["2026-03-02T14:00:00Z", "2026-03-09T13:00:00Z", "2026-03-16T13:00:00Z"]));
    let r = json(app.post("/api/reminders/preview", &body, Some(&token)).await).await;
    assert_eq!(r["data"]["occurrences"].as_array().unwrap().len(), 5, "default count");
    let once = json!({ "send_at": "2026-03-02T09:00:00Z", "timezone": "UTC" });
    let r = json(app.post("/api/reminders/preview?count=50", &once, Some(&token)).await).await;
    assert_eq!(r["data"]["occurrences"], json!(["2026-03-02T09:00:00Z"]));
    for q in ["count=0", "count=51", "count=x"] {
        expect_error(app.post(&format!("/api/reminders/preview?{q}"), &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
    }
    let bad = json!({ "send_at": "2026-03-02T09:00:00Z", "timezone": "Nowhere/Land" });
    expect_error(app.post("/api/reminders/preview", &bad, Some(&token)).await, 400, "VALIDATION_FAILED").await;
}

async fn occurrences_follow_the_recurrence_in_the_reminders_zone(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r =
        create(app, &token, json!({ "title": "hourly", "send_at": in_secs(600), "recurrence": { "kind": "hourly", "interval_hours": 3 } }))
            .await;
    let id = r["id"].as_str().unwrap();
    let occ = json(app.get(&format!("/api/reminders/{id}/occurrences?count=4"), Some(&token)).await).await;
    let list: Vec<Timestamp> =
        occ["data"]["occurrences"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().parse().unwrap()).collect();
    assert_eq!(list.len(), 4);
    assert_eq!(list[0].to_string(), r["scheduled_at"].as_str().unwrap());
    for pair in list.windows(2) {
        assert_eq!(pair[1].duration_since(pair[0]), SignedDuration::from_hours(3));
    }
    expect_error(app.get(&format!("/api/reminders/{id}/occurrences?count=99"), Some(&token)).await, 400, "VALIDATION_FAILED").await;
}

async fn logs_answer_an_empty_list_then_404_for_others(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r = create(app, &token, json!({ "title": "t", "send_at": in_secs(600) })).await;
    let logs = json(app.get(&format!("/api/reminders/{}/logs", r["id"].as_str().unwrap()), Some(&token)).await).await;
    assert_eq!(logs, json!({ "success": true, "data": [] }));
    expect_error(app.get("/api/reminders/no-such-id/logs", Some(&token)).await, 404, "NOT_FOUND").await;
}

async fn timezone_defaults_to_the_users_setting(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r = create(app, &token, json!({ "title": "t", "send_at": in_secs(600) })).await;
    assert_eq!(r["timezone"], "UTC");
    assert_eq!(app.put("/api/settings", &json!({ "timezone": "Asia/Tokyo" }), &token).await.status(), 200);
    let r = create(app, &token, json!({ "title": "t", "send_at": in_secs(600) })).await;
    assert_eq!(r["timezone"], "Asia/Tokyo");
}

async fn contents_are_sealed_at_rest(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let secret = "秘密の通院 dentist-appointment-0042";
    let r = create(app, &token, json!({ "title": secret, "description": secret, "send_at": in_secs(600), "metadata": { "note": secret } }))
        .await;
    let row: (Vec<u8>, Vec<u8>, Vec<u8>) = sqlx::query_as("SELECT title, description, metadata FROM reminders WHERE id = $1")
        .bind(r["id"].as_str().unwrap())
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    for sealed in [row.0, row.1, row.2] {
        assert!(!sealed.windows(16).any(|w| w == &b"dentist-appointm"[..]), "plaintext in the database");
        assert!(sealed.len() > 28, "nonce + ciphertext + tag");
    }
    assert_eq!(json(app.get(&format!("/api/reminders/{}", r["id"].as_str().unwrap()), Some(&token)).await).await["data"]["title"], secret);
}

async fn edits_follow_the_time_rules(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r = create(app, &token, json!({ "title": "daily", "send_at": in_secs(600), "recurrence": { "kind": "daily" } })).await;
    let id = r["id"].as_str().unwrap();
    let err = expect_error(
        app.put(&format!("/api/reminders/{id}"), &json!({ "send_at": in_secs(-600) }), &token).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["send_at"].is_string());
    expect_error(app.put(&format!("/api/reminders/{id}"), &json!({ "timezone": "Bad/Zone" }), &token).await, 400, "VALIDATION_FAILED")
        .await;
    expect_error(app.put(&format!("/api/reminders/{id}"), &json!({ "title": "" }), &token).await, 400, "VALIDATION_FAILED").await;
    // Once its anchor has passed (50 hours on, by the API's clock), a recurring reminder's
    // title can still be edited, and a new recurrence is computed from the old anchor.
    let past: Timestamp = r["send_at"].as_str().unwrap().parse().unwrap();
    app.advance_clock(SignedDuration::from_hours(50) + SignedDuration::from_mins(10));
    let r = json(app.put(&format!("/api/reminders/{id}"), &json!({ "title": "renamed" }), &token).await).await;
    assert_eq!(r["data"]["title"], "renamed", "{r}");
    // The next occurrence is the first after the moment of the edit: after the clock's reading
    // before it, within an hour of the reading after it (it may be a few ms ahead of the
    // edit, and so behind a reading taken once the answer is in).
    let before = app.now();
    let r =
        json(app.put(&format!("/api/reminders/{id}"), &json!({ "recurrence": { "kind": "hourly", "interval_hours": 1 } }), &token).await)
            .await;
    let after = app.now();
    let next: Timestamp = r["data"]["scheduled_at"].as_str().unwrap().parse().unwrap();
    assert!(next > before && next <= after + SignedDuration::from_hours(1), "{next} not in ({before}, {after} + 1 h]: {r}");
    // The anchor stays, and the next occurrence is a whole number of hours after it (not an
    // hour from the edit).
    let anchor: Timestamp = r["data"]["send_at"].as_str().unwrap().parse().unwrap();
    assert_eq!(anchor, past, "the old anchor is kept");
    assert_eq!((next.as_second() - anchor.as_second()) % 3600, 0, "{next} is not on the hour grid of {anchor}");
    // A one-time reminder whose time has passed needs a new time.
    let err = expect_error(
        app.put(&format!("/api/reminders/{id}"), &json!({ "recurrence": { "kind": "none" } }), &token).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["send_at"].is_string());
}

/// Fired (its occurrence claimed as of its second) and not acted on: the list and the reminder
/// say overdue once the API's clock has passed its second, and not before. Both steps are
/// taken on clocks, not by waiting an hour.
async fn a_fired_one_time_reminder_reads_overdue_once_its_second_has_passed(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let due = Timestamp::from_second(Timestamp::now().as_second() + 3600).unwrap();
    let r = create(app, &token, json!({ "title": "take medicine", "send_at": due.to_string() })).await;
    let id = r["id"].as_str().unwrap().to_owned();
    let claimed = app
        .db
        .claim_fire(
            &id.parse::<hibiki_common::domain::ids::ReminderId>().unwrap(),
            hibiki_common::domain::states::FireKind::Occurrence,
            due,
        )
        .await;
    assert!(matches!(claimed, Ok(hibiki_common::infra::storage::Claimed::Deliver { next: None, .. })), "{claimed:?}");
    let before = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await;
    assert_eq!(before["data"]["overdue"], false, "its second has not come on the API's clock");
    app.advance_clock(SignedDuration::from_mins(61));
    let after = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await;
    assert_eq!(after["data"]["overdue"], true, "{after}");
    assert_eq!(after["data"]["status"], "pending");
    assert_eq!(after["data"]["scheduled_at"], due.to_string(), "an overdue one-time reminder keeps its past time");
    let list = json(app.get("/api/reminders", Some(&token)).await).await;
    assert_eq!(list["data"][0]["overdue"], true);
}
