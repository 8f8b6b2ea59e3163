use serde_json::json;

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    admin_views_are_for_admins_only => Options { admin_emails: vec!["Boss@Example.com".into()], ..Default::default() },
);

async fn admin_views_are_for_admins_only(app: &TestApp) {
    let (user, _) = app.sign_in(&unique_email()).await;
    for path in ["/api/admin/stats", "/api/admin/users"] {
        expect_error(app.get(path, Some(&user)).await, 403, "FORBIDDEN").await;
        expect_error(app.get(path, None).await, 401, "AUTHENTICATION_REQUIRED").await;
    }
    let session = json(app.get("/api/auth/session", Some(&user)).await).await;
    assert_eq!(session["data"]["is_admin"], false);

    let send_at = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1)).to_string();
    let r = json(app.post("/api/reminders", &json!({ "title": "private title", "send_at": send_at }), Some(&user)).await).await;
    // No device, the email fallback on (the default): sent now, it goes by email, and that is a delivery.
    let sent = json(app.post(&format!("/api/reminders/{}/send", r["data"]["id"].as_str().unwrap()), &json!({}), Some(&user)).await).await;
    assert_eq!((sent["data"]["devices"].as_i64(), sent["data"]["email"].as_bool()), (Some(0), Some(true)), "{sent}");

    let (admin, _) = app.sign_in("boss@example.com").await;
    assert_eq!(json(app.get("/api/auth/session", Some(&admin)).await).await["data"]["is_admin"], true);
    let stats = json(app.get("/api/admin/stats", Some(&admin)).await).await;
    assert_eq!(stats["data"]["users"], 2);
    assert_eq!(stats["data"]["active_reminders"], 1);
    assert!(stats["data"]["queue_depth"].is_i64());
    assert_eq!(
        (stats["data"]["deliveries_24h"].as_i64(), stats["data"]["failures_24h"].as_i64()),
        (Some(1), Some(0)),
        "emailed counts: {stats}"
    );
    let emailed_in_timeline: i64 = stats["data"]["timeline_24h"].as_array().unwrap().iter().map(|b| b["sent"].as_i64().unwrap()).sum();
    assert_eq!(emailed_in_timeline, 1);
    let page = json(app.get("/api/admin/users?page=1&per_page=1", Some(&admin)).await).await;
    assert_eq!(page["data"]["total"], 2);
    assert_eq!(page["data"]["users"].as_array().unwrap().len(), 1);
    let all = json(app.get("/api/admin/users", Some(&admin)).await).await;
    let text = all.to_string();
    assert!(!text.contains("private title"), "admin views never show contents");
    let counts: Vec<i64> = all["data"]["users"].as_array().unwrap().iter().map(|u| u["active_reminders"].as_i64().unwrap()).collect();
    assert_eq!(counts.iter().sum::<i64>(), 1);
    for q in ["per_page=0", "per_page=101", "page=0", "page=abc"] {
        expect_error(app.get(&format!("/api/admin/users?{q}"), Some(&admin)).await, 400, "VALIDATION_FAILED").await;
    }
}
