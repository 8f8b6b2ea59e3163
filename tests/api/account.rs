use serde_json::json;

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    settings_have_defaults_and_validate_changes,
    deleting_the_account_leaves_no_row_behind,
    test_email_is_sent_and_capped_at_three_an_hour => Options { smtp: true, ..Default::default() },
);

async fn settings_have_defaults_and_validate_changes(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let s = json(app.get("/api/settings", Some(&token)).await).await;
    assert_eq!(
        s["data"],
        json!({ "timezone": "UTC", "language": "en", "default_snooze_minutes": 10, "speak_titles": false, "hide_notification_content": false, "email_fallback_minutes": 5,
                "morning_time": "08:00", "evening_time": "18:00", "quiet_hours": null, "daily_brief": null })
    );
    let r = app
        .put(
            "/api/settings",
            &json!({ "timezone": "Asia/Tokyo", "language": "ja", "default_snooze_minutes": 30, "speak_titles": true }),
            &token,
        )
        .await;
    assert_eq!(r.status(), 200);
    let s = json(app.get("/api/settings", Some(&token)).await).await;
    assert_eq!(
        s["data"],
        json!({ "timezone": "Asia/Tokyo", "language": "ja", "default_snooze_minutes": 30, "speak_titles": true, "hide_notification_content": false, "email_fallback_minutes": 5,
                "morning_time": "08:00", "evening_time": "18:00", "quiet_hours": null, "daily_brief": null })
    );
    for (body, field) in [
        (json!({ "timezone": "Asia/Atlantis" }), "timezone"),
        (json!({ "default_snooze_minutes": 7 }), "default_snooze_minutes"),
        (json!({ "language": "fr" }), "language"),
        (json!({ "speak_titles": "yes" }), "speak_titles"),
        (json!({ "email_fallback_minutes": 10 }), "email_fallback_minutes"),
        (json!({ "quiet_hours": { "start": "22:00", "end": "22:00" } }), "quiet_hours.end"),
        (json!({ "quiet_hours": { "start": "7am", "end": "08:00" } }), "quiet_hours.start"),
        (json!({ "daily_brief": { "time": "24:00", "via": "push" } }), "daily_brief.time"),
    ] {
        let err = expect_error(app.put("/api/settings", &body, &token).await, 400, "VALIDATION_FAILED").await;
        assert!(err["error"]["fields"][field].is_string(), "{field}: {err}");
    }
    assert_eq!(
        json(app.get("/api/settings", Some(&token)).await).await["data"]["timezone"],
        "Asia/Tokyo",
        "refused changes change nothing"
    );
    expect_error(app.get("/api/settings", None).await, 401, "AUTHENTICATION_REQUIRED").await;
}

async fn deleting_the_account_leaves_no_row_behind(app: &TestApp) {
    let email = unique_email();
    let (token, user) = app.sign_in(&email).await;
    let other_email = unique_email();
    let (other, _) = app.sign_in(&other_email).await;
    let user_id = user["id"].as_str().unwrap().to_owned();
    let send_at = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1)).to_string();
    let mut reminder_id = String::new();
    for (t, title) in [(&token, "mine"), (&other, "theirs")] {
        let r = json(app.post("/api/reminders", &json!({ "title": title, "send_at": send_at }), Some(t)).await).await;
        if title == "mine" {
            reminder_id = r["data"]["id"].as_str().unwrap().to_owned();
        }
    }
    // A delivery log entry and a second session, so every table has something of the user.
    let sent = app.post(&format!("/api/reminders/{reminder_id}/send"), &json!({}), Some(&token)).await;
    assert_eq!(sent.status(), 202);
    sqlx::query("INSERT INTO auth_failures (email, failures, blocked_until, updated_at) VALUES ($1, 1, 0, 0)")
        .bind(&email)
        .execute(app.db.pool())
        .await
        .unwrap();

    let err = expect_error(
        app.client
            .delete(app.url("/api/account"))
            .bearer_auth(&token)
            .json(&json!({ "confirm": "wrong@example.com" }))
            .send()
            .await
            .unwrap(),
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert!(err["error"]["fields"]["confirm"].is_string());
    let r = app
        .client
        .delete(app.url("/api/account"))
        .bearer_auth(&token)
        .json(&json!({ "confirm": email.to_uppercase() }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 204);

    for (table, column, value) in [
        ("users", "id", &user_id),
        ("users", "email", &email),
        ("sessions", "user_id", &user_id),
        ("reminders", "user_id", &user_id),
        ("delivery_logs", "user_id", &user_id),
        ("otp_codes", "email", &email),
        ("auth_failures", "email", &email),
        ("mail_log", "email", &email),
    ] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE {column} = $1");
        let n: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(value).fetch_one(app.db.pool()).await.unwrap();
        assert_eq!(n, 0, "{table}.{column} still names the deleted user");
    }
    expect_error(app.get("/api/auth/session", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
    // The other user is untouched.
    assert_eq!(json(app.get("/api/reminders", Some(&other)).await).await["data"].as_array().unwrap().len(), 1);
    let mails: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM mail_log WHERE email = $1").bind(&other_email).fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(mails, 1);
}

async fn test_email_is_sent_and_capped_at_three_an_hour(app: &TestApp) {
    let email = unique_email();
    let (token, _) = app.sign_in(&email).await;
    app.put("/api/settings", &json!({ "language": "ja" }), &token).await;
    for _ in 0..3 {
        assert_eq!(app.post("/api/test-email", &json!({}), Some(&token)).await.status(), 202);
    }
    let err = expect_error(app.post("/api/test-email", &json!({}), Some(&token)).await, 429, "RATE_LIMITED").await;
    assert!(err["error"]["retry_after"].as_i64().unwrap() > 3000);
    let mails = app.mails_for(&email, 4).await;
    assert_eq!(mails.iter().filter(|(subject, _)| subject == "Hibiki テストメール").count(), 3, "{mails:?}");
    expect_error(app.post("/api/test-email", &json!({}), None).await, 401, "AUTHENTICATION_REQUIRED").await;
}
