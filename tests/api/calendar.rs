//! The calendar feed: a secret URL that rotates and revokes, serving RFC 5545 that an
//! independent implementation (Python's icalendar with recurring_ical_events) expands into
//! exactly the instants Hibiki rings at.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expand_ics as expand, expect_error, json, unavailable, unique_email};

both_backends!(
    the_feed_expands_to_the_instants_hibiki_rings_at,
    the_url_rotates_and_revokes,
    the_calendar_is_named_in_the_accounts_language
);

fn path_of(url: &str) -> String {
    url.split_once("/api/").map(|(_, p)| format!("/api/{p}")).unwrap()
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn the_feed_expands_to_the_instants_hibiki_rings_at(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let tomorrow = |h: i64| (Timestamp::now() + SignedDuration::from_hours(24 + h)).round(jiff::Unit::Second).unwrap().to_string();
    let rules = [
        ("Asia/Tokyo", json!({ "kind": "weekdays", "holidays": "skip" })),
        ("Asia/Tokyo", json!({ "kind": "daily", "holidays": "next_business_day", "count": 60 })),
        ("Asia/Tokyo", json!({ "kind": "monthly", "day": 23, "holidays": "previous_business_day" })),
        ("America/New_York", json!({ "kind": "monthly", "week": 2, "weekday": "tue" })),
        ("America/New_York", json!({ "kind": "custom", "days": ["tue", "thu"], "interval": 2 })),
        ("Europe/London", json!({ "kind": "monthly", "day": 31 })),
        ("Australia/Sydney", json!({ "kind": "weekly", "interval": 3, "until": "2027-06-30" })),
        ("UTC", json!({ "kind": "hourly", "interval_hours": 7, "count": 100 })),
        ("Asia/Tokyo", json!({ "kind": "none" })),
    ];
    let mut ids = Vec::new();
    for (i, (tz, rule)) in rules.iter().enumerate() {
        let r = create(
            app,
            &token,
            json!({ "title": format!("予定 {i}; with, commas"), "send_at": tomorrow(i as i64), "timezone": tz, "recurrence": rule }),
        )
        .await;
        ids.push(r["id"].as_str().unwrap().to_owned());
    }
    // Skip the next one of the first: the feed shows it as an exception too.
    app.post(&format!("/api/reminders/{}/skip", ids[0]), &json!({}), Some(&token)).await;

    let url = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with(app.config.public_url.as_str().trim_end_matches('/')) && url.ends_with(".ics"), "{url}");
    let r = app.client.get(app.url(&path_of(&url))).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/calendar"));
    let ics = r.text().await.unwrap();
    assert!(ics.contains("BEGIN:VTIMEZONE") && ics.contains("BEGIN:VALARM"), "{ics}");
    // Hibiki's own rules show as exceptions: holidays and the skip dropped, weekend moves added.
    let unfolded = ics.replace("\r\n ", "");
    assert!(unfolded.contains("EXDATE;TZID=Asia/Tokyo:") && unfolded.contains("RDATE;TZID=Asia/Tokyo:"), "{ics}");

    let (start, end) = (Timestamp::now(), Timestamp::now() + SignedDuration::from_hours(24 * 200));
    let Some(expanded) = expand(&ics, start, end) else {
        unavailable("icalendar and recurring_ical_events (pip install icalendar recurring-ical-events, set HIBIKI_TEST_PYTHON)");
        return;
    };
    let host = app.config.public_url.host_str().unwrap().to_owned();
    for id in &ids {
        let ours: Vec<String> =
            json(app.get(&format!("/api/reminders/{id}/occurrences?count=50"), Some(&token)).await).await["data"]["occurrences"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .filter(|t| t.parse::<Timestamp>().unwrap() < end)
                .collect();
        let theirs: Vec<String> = expanded[format!("{id}@{host}")]
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap().to_owned()).take(ours.len().max(1)).collect())
            .unwrap_or_default();
        assert!(!ours.is_empty());
        assert_eq!(theirs, ours, "reminder {id}\n{ics}");
    }
}

async fn the_url_rotates_and_revokes(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    expect_error(app.client.get(app.url("/api/calendar/nothing.ics")).send().await.unwrap(), 404, "NOT_FOUND").await;
    let first = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
    assert_eq!(app.client.get(app.url(&path_of(&first))).send().await.unwrap().status(), 200);
    let second = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    expect_error(app.client.get(app.url(&path_of(&first))).send().await.unwrap(), 404, "NOT_FOUND").await;
    assert_eq!(app.client.get(app.url(&path_of(&second))).send().await.unwrap().status(), 200);
    let r = app.delete("/api/calendar/token", &token).await;
    assert_eq!(r.status(), 204);
    expect_error(app.client.get(app.url(&path_of(&second))).send().await.unwrap(), 404, "NOT_FOUND").await;
    // Signed out, no URL is made.
    expect_error(app.post("/api/calendar/token", &json!({}), None).await, 401, "AUTHENTICATION_REQUIRED").await;
}

/// The calendar's name (and a hidden title's word) follow the account's language, as it is
/// when the feed is read (decisions.md "Trust from the first minute").
async fn the_calendar_is_named_in_the_accounts_language(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let url = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
    let read = || async { app.client.get(app.url(&path_of(&url))).send().await.unwrap().text().await.unwrap() };
    let name = |feed: &str| feed.lines().find_map(|l| l.strip_prefix("X-WR-CALNAME:")).map(|n| n.trim_end().to_owned());
    assert_eq!(name(&read().await).as_deref(), Some("Hibiki reminders"));
    assert_eq!(app.put("/api/settings", &json!({ "language": "ja" }), &token).await.status(), 200);
    assert_eq!(name(&read().await).as_deref(), Some("Hibiki リマインダー"));
    assert_eq!(app.put("/api/settings", &json!({ "language": "en" }), &token).await.status(), 200);
    assert_eq!(name(&read().await).as_deref(), Some("Hibiki reminders"));
}
