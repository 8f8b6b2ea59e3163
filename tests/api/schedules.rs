//! Richer schedules through the API: the new recurrence fields, "skip next", and the
//! morning/evening times of the snooze menu.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(rich_rules_are_stored_and_checked, preview_shows_holiday_moves_and_skips, skip_next, morning_and_evening_times,);

fn in_days(days: i64) -> String {
    (Timestamp::now() + SignedDuration::from_hours(24 * days)).round(jiff::Unit::Second).unwrap().to_string()
}

async fn rich_rules_are_stored_and_checked(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let rule = json!({ "kind": "monthly", "interval": 2, "week": 2, "weekday": "tue", "count": 12, "holidays": "next_business_day" });
    let r = app
        .post(
            "/api/reminders",
            &json!({ "title": "第2火曜", "send_at": in_days(1), "timezone": "Asia/Tokyo", "recurrence": rule }),
            Some(&token),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let created = json(r).await["data"].clone();
    assert_eq!(created["recurrence"], rule, "stored as given");
    let next: Timestamp = created["scheduled_at"].as_str().unwrap().parse().unwrap();
    let local = next.to_zoned(jiff::tz::TimeZone::get("Asia/Tokyo").unwrap());
    assert!(local.weekday() == jiff::civil::Weekday::Tuesday || local.weekday() == jiff::civil::Weekday::Wednesday, "{local}");

    for bad in [
        json!({ "kind": "monthly", "day": 3, "week": 2, "weekday": "tue" }),
        json!({ "kind": "monthly", "day": 32 }),
        json!({ "kind": "daily", "interval": 0 }),
        json!({ "kind": "weekly", "interval": 53 }),
        json!({ "kind": "daily", "until": "2030-01-01", "count": 3 }),
        json!({ "kind": "daily", "count": 1001 }),
        json!({ "kind": "daily", "until": "2030-02-30" }),
        json!({ "kind": "daily", "holidays": "sometimes" }),
        json!({ "kind": "none", "count": 2 }),
        json!({ "kind": "daily", "skip": (0..101).map(|d| format!("2030-01-{:02}", d % 28 + 1)).collect::<Vec<_>>() }),
    ] {
        let err = expect_error(
            app.post("/api/reminders", &json!({ "title": "t", "send_at": in_days(1), "recurrence": bad }), Some(&token)).await,
            400,
            "VALIDATION_FAILED",
        )
        .await;
        assert!(err["error"]["fields"].as_object().unwrap().keys().any(|k| k.starts_with("recurrence")), "{bad}: {err}");
    }
    // A schedule whose end is already past has no next occurrence.
    let ended = json!({ "kind": "daily", "until": "2020-01-01" });
    let err = expect_error(
        app.post("/api/reminders", &json!({ "title": "t", "send_at": in_days(1), "recurrence": ended }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["send_at"].is_string(), "{err}");
}

async fn preview_shows_holiday_moves_and_skips(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let body = |recurrence: Value| json!({ "send_at": "2026-09-18T09:00:00+09:00", "timezone": "Asia/Tokyo", "recurrence": recurrence });
    let r = json(app.post("/api/reminders/preview?count=3", &body(json!({ "kind": "weekdays", "holidays": "skip" })), Some(&token)).await)
        .await;
    // 敬老の日, 国民の休日 and 秋分の日 (21-23 September 2026) are skipped.
    assert_eq!(r["data"]["occurrences"], json!(["2026-09-18T00:00:00Z", "2026-09-24T00:00:00Z", "2026-09-25T00:00:00Z"]));
    let r = json(
        app.post(
            "/api/reminders/preview?count=3",
            &body(json!({ "kind": "daily", "holidays": "next_business_day", "skip": ["2026-09-24"] })),
            Some(&token),
        )
        .await,
    )
    .await;
    // The weekend and the holidays move to the 24th, which is skipped: the 25th is next.
    assert_eq!(r["data"]["occurrences"], json!(["2026-09-18T00:00:00Z", "2026-09-25T00:00:00Z", "2026-09-28T00:00:00Z"]));
}

async fn skip_next(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let send_at = in_days(1);
    let daily = json(
        app.post(
            "/api/reminders",
            &json!({ "title": "d", "send_at": send_at, "timezone": "UTC", "recurrence": { "kind": "daily" } }),
            Some(&token),
        )
        .await,
    )
    .await["data"]
        .clone();
    let id = daily["id"].as_str().unwrap();
    let first: Timestamp = send_at.parse().unwrap();
    let skipped = json(app.post(&format!("/api/reminders/{id}/skip"), &json!({}), Some(&token)).await).await["data"].clone();
    assert_eq!(skipped["recurrence"]["skip"], json!([first.to_zoned(jiff::tz::TimeZone::UTC).date().to_string()]));
    assert_eq!(skipped["scheduled_at"], (first + SignedDuration::from_hours(24)).to_string());
    let again = json(app.post(&format!("/api/reminders/{id}/skip"), &json!({}), Some(&token)).await).await["data"].clone();
    assert_eq!(again["recurrence"]["skip"].as_array().unwrap().len(), 2);
    assert_eq!(again["scheduled_at"], (first + SignedDuration::from_hours(48)).to_string());
    let occ = json(app.get(&format!("/api/reminders/{id}/occurrences?count=1"), Some(&token)).await).await;
    assert_eq!(occ["data"]["occurrences"][0], again["scheduled_at"]);

    let once = json(app.post("/api/reminders", &json!({ "title": "o", "send_at": in_days(1) }), Some(&token)).await).await["data"].clone();
    let once_id = once["id"].as_str().unwrap();
    expect_error(app.post(&format!("/api/reminders/{once_id}/skip"), &json!({}), Some(&token)).await, 400, "VALIDATION_FAILED").await;
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.post(&format!("/api/reminders/{id}/skip"), &json!({}), Some(&other)).await, 404, "NOT_FOUND").await;
}

async fn morning_and_evening_times(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let s = json(app.get("/api/settings", Some(&token)).await).await;
    assert_eq!((s["data"]["morning_time"].as_str(), s["data"]["evening_time"].as_str()), (Some("08:00"), Some("18:00")));
    let r = app.put("/api/settings", &json!({ "morning_time": "06:45", "evening_time": "21:30" }), &token).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    let s = json(app.get("/api/settings", Some(&token)).await).await;
    assert_eq!((s["data"]["morning_time"].as_str(), s["data"]["evening_time"].as_str()), (Some("06:45"), Some("21:30")));
    for bad in ["24:00", "6:45", "06:60", "morning"] {
        let err = expect_error(app.put("/api/settings", &json!({ "evening_time": bad }), &token).await, 400, "VALIDATION_FAILED").await;
        assert!(err["error"]["fields"]["evening_time"].is_string(), "{bad}: {err}");
    }
}
