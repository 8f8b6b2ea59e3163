use serde_json::Value;

use crate::both_backends;
use crate::helpers::{TestApp, json};

both_backends!(health_status_and_openapi, health_is_503_when_the_database_is_gone);

async fn health_status_and_openapi(app: &TestApp) {
    let r = app.client.head(app.url("/api/health")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.bytes().await.unwrap().is_empty());

    let h = json(app.get("/api/health", None).await).await;
    assert_eq!(h["data"]["status"], "ok", "{h}");
    assert_eq!(h["data"]["checks"]["database"], "ok");
    for check in ["queue", "scheduler", "mail"] {
        assert!(h["data"]["checks"][check].is_string(), "{check}");
    }

    let s = json(app.get("/api/status", None).await).await;
    assert!(s["data"]["scheduler_last_tick"].is_string(), "{s}");
    assert!(s["data"]["deliveries_5m"]["sent"].is_i64());
    assert!(s["data"]["deliveries_1h"]["failed"].is_i64());
    assert!(s["data"]["queue_depth"].is_i64());

    let doc: Value = json(app.get("/api/openapi.json", None).await).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for path in ["/api/auth/otp", "/api/auth/verify", "/api/reminders", "/api/reminders/{id}", "/api/reminders/preview", "/api/settings", "/api/admin/users", "/api/health"] {
        assert!(doc["paths"][path].is_object(), "{path} missing from the OpenAPI document");
    }
}

async fn health_is_503_when_the_database_is_gone(app: &TestApp) {
    app.db.close().await;
    let r = app.get("/api/health", None).await;
    assert_eq!(r.status(), 503);
    let h = json(r).await;
    assert_eq!(h["data"]["checks"]["database"], "down");
    assert_eq!(h["data"]["status"], "degraded");
    // HEAD stays cheap and up: it checks nothing.
    assert_eq!(app.client.head(app.url("/api/health")).send().await.unwrap().status(), 200);
}
