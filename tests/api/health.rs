use serde_json::Value;

use crate::both_backends;
use crate::helpers::{Backend, Options, TestApp, json};

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
    // The shipped holiday table reaches past next year, so it is not about to run out.
    assert_eq!(h["data"]["checks"]["holidays"], "ok", "{h}");
    let until: jiff::civil::Date = h["data"]["holidays_until"].as_str().unwrap().parse().unwrap();
    assert!(until >= jiff::civil::date(jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC).year() + 1, 12, 31), "{until}");

    let s = json(app.get("/api/status", None).await).await;
    assert!(s["data"]["scheduler_last_tick"].is_string(), "{s}");
    assert!(s["data"]["deliveries_5m"]["sent"].is_i64());
    assert!(s["data"]["deliveries_1h"]["failed"].is_i64());
    assert!(s["data"]["queue_depth"].is_i64());

    let doc: Value = json(app.get("/api/openapi.json", None).await).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    for path in [
        "/api/auth/otp",
        "/api/auth/verify",
        "/api/reminders",
        "/api/reminders/{id}",
        "/api/reminders/preview",
        "/api/settings",
        "/api/admin/users",
        "/api/health",
    ] {
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

both_backends!(status_and_admin_timelines_count_deliveries_per_bucket => Options { admin_emails: vec!["ops@example.com".into()], ..Default::default() });

/// The status page's 5-minute buckets and the admin view's hourly ones count the delivery log
/// entries made in them; lateness is the p99 of each 5-minute bucket.
async fn status_and_admin_timelines_count_deliveries_per_bucket(app: &TestApp) {
    let (admin, _) = app.sign_in("ops@example.com").await;
    let send_at = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1)).to_string();
    let reminder = json(app.post("/api/reminders", &serde_json::json!({ "title": "t", "send_at": send_at }), Some(&admin)).await).await;
    let reminder_id = reminder["data"]["id"].as_str().unwrap().to_owned();
    let user_id = reminder["data"]["user_id"].as_str().unwrap().to_owned();
    let now = jiff::Timestamp::now().as_millisecond();
    // (minutes ago, status, lateness ms)
    let rows = [(1, "sent", 200), (2, "sent", 900), (2, "failed", 0), (30, "sent", 50), (90, "sent", 10), (26 * 60, "sent", 10)];
    for (i, (mins_ago, status, lateness)) in rows.iter().enumerate() {
        let created = now - mins_ago * 60_000 + i as i64;
        let sent_at: Option<i64> = (*status == "sent").then_some(created + lateness);
        sqlx::query("INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, sent_at, status, late, created_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7)")
            .bind(format!("log-{i}"))
            .bind(&reminder_id)
            .bind(&user_id)
            .bind(created)
            .bind(sent_at)
            .bind(*status)
            .bind(created)
            .execute(app.db.pool())
            .await
            .unwrap();
    }

    let status = json(app.get("/api/status", None).await).await;
    let timeline = status["data"]["timeline_1h"].as_array().unwrap().clone();
    assert_eq!(timeline.len(), 12, "{status}");
    let starts: Vec<jiff::Timestamp> = timeline.iter().map(|b| b["start"].as_str().unwrap().parse().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[1].duration_since(w[0]) == jiff::SignedDuration::from_mins(5)), "{starts:?}");
    assert_eq!(starts[11].as_second() % 300, 0, "aligned to 5 minutes");
    let total = |key: &str| timeline.iter().map(|b| b[key].as_i64().unwrap()).sum::<i64>();
    assert_eq!((total("sent"), total("failed")), (3, 1), "the 90-minute-old entry is outside the hour: {status}");
    let bucket_of = |mins_ago: i64| {
        let at = now - mins_ago * 60_000;
        timeline.iter().rposition(|b| b["start"].as_str().unwrap().parse::<jiff::Timestamp>().unwrap().as_millisecond() <= at).unwrap()
    };
    assert_eq!(timeline[bucket_of(2)]["lateness_p99_ms"], 900, "p99 of 200 and 900 (or 900 alone): {status}");
    assert_eq!(timeline[bucket_of(2)]["failed"], 1);
    assert_eq!(timeline[bucket_of(30)]["lateness_p99_ms"], 50);
    assert_eq!(timeline[bucket_of(30)]["sent"], 1);
    let empty = (0..12).find(|i| ![bucket_of(1), bucket_of(2), bucket_of(30)].contains(i)).unwrap();
    assert!(timeline[empty]["lateness_p99_ms"].is_null(), "{status}");
    assert_eq!(status["data"]["deliveries_1h"]["sent"], 3);
    assert_eq!(status["data"]["deliveries_1h"]["failed"], 1);

    let stats = json(app.get("/api/admin/stats", Some(&admin)).await).await;
    let hourly = stats["data"]["timeline_24h"].as_array().unwrap();
    assert_eq!(hourly.len(), 24, "{stats}");
    let sent: i64 = hourly.iter().map(|b| b["sent"].as_i64().unwrap()).sum();
    let failed: i64 = hourly.iter().map(|b| b["failed"].as_i64().unwrap()).sum();
    assert_eq!((sent, failed), (4, 1), "26 hours ago is outside the day: {stats}");
    assert_eq!(stats["data"]["deliveries_24h"], 4);
    assert_eq!(stats["data"]["failures_24h"], 1);
}

/// The information pages' operator details and the error reporter's switch come from the
/// configuration; off by default, and the CSP lets the page reach the DSN's origin only when on.
#[tokio::test]
async fn site_details_follow_the_configuration() {
    let Some(app) = TestApp::spawn(Backend::Sqlite, Options::default()).await else { return };
    let r = app.get("/api/site", None).await;
    let csp = r.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let site = json(r).await;
    assert_eq!(site["data"]["operator"]["name"], Value::Null, "{site}");
    assert_eq!(site["data"]["error_reporting"], Value::Null, "{site}");
    assert!(csp.contains("connect-src 'self';"), "{csp}");

    let options = Options {
        configure: Some(|c| {
            c.operator.name = Some("響き合同会社".into());
            c.operator.contact = Some("support@hibiki.example".into());
            c.error_reporting_dsn = Some("http://public@127.0.0.1:9/7".parse().unwrap());
        }),
        ..Options::default()
    };
    let Some(app) = TestApp::spawn(Backend::Sqlite, options).await else { return };
    let r = app.get("/api/site", None).await;
    let csp = r.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let site = json(r).await;
    assert_eq!(site["data"]["operator"]["name"], "響き合同会社");
    assert_eq!(site["data"]["operator"]["contact"], "support@hibiki.example");
    assert_eq!(site["data"]["operator"]["phone"], Value::Null);
    assert_eq!(site["data"]["error_reporting"]["dsn"], "http://public@127.0.0.1:9/7");
    assert_eq!(site["data"]["error_reporting"]["traces_sample_rate"], 0.1);
    assert!(csp.contains("connect-src 'self' http://127.0.0.1:9;"), "{csp}");
}
