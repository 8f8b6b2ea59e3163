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
    app.post("/api/reminders", &json!({ "title": "private title", "send_at": send_at }), Some(&user)).await;

    let (admin, _) = app.sign_in("boss@example.com").await;
    assert_eq!(json(app.get("/api/auth/session", Some(&admin)).await).await["data"]["is_admin"], true);
    let stats = json(app.get("/api/admin/stats", Some(&admin)).await).await;
    assert_eq!(stats["data"]["users"], 2);
    assert_eq!(stats["data"]["active_reminders"], 1);
    for key in ["deliveries_24h", "failures_24h", "queue_depth"] {
        assert!(stats["data"][key].is_i64(), "{key}");
    }
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
