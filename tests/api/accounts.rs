//! Accounts that cannot hurt each other (decisions.md): sessions a person can list and end,
//! the link peek, the answers' headers, the device and send-now limits, push endpoints on 443,
//! the calendar feed's cache and limits, limits per IPv6 /64, the developer shortcut behind a
//! proxy, no sign-in secret in the queues, account deletion, retention, and fair delivery
//! beside a tarpit push service.

use std::time::{Duration, Instant};

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, Options, PushSink, TestApp, expect_error, json, unavailable, unique_email};

both_backends!(
    sessions_are_listed_and_ended_one_or_all => Options { dev_login: true, ..Default::default() },
    the_link_peek_masks_the_address_and_spends_nothing,
    answers_carry_the_contracts_headers,
    the_twenty_first_device_is_refused => Options { allow_private_push: true, ..Default::default() },
    push_endpoints_use_port_443,
    send_now_waits_ten_seconds,
    an_account_at_its_limits_has_a_small_cached_feed,
    one_64_shares_one_limit => Options {
        behind_proxy: true,
        configure: Some(|c: &mut hibiki_common::infra::config::Config| c.api_rate_per_minute = 100),
        ..Default::default()
    },
    dev_login_is_refused_through_a_proxy => Options { dev_login: true, ..Default::default() },
    account_deletion_leaves_nothing_in_queue_or_outbox,
    history_and_archives_are_kept_as_long_as_decided,
);

/// Signs in through the developer shortcut with a given `User-Agent` (several sessions of one
/// account at once, without the mail's resend cooldown); returns the access token.
async fn sign_in_from(app: &TestApp, email: &str, agent: &str) -> String {
    let r =
        app.client.post(app.url("/api/auth/dev-login")).header("user-agent", agent).json(&json!({ "email": email })).send().await.unwrap();
    assert_eq!(r.status(), 200);
    json(r).await["data"]["access_token"].as_str().unwrap().to_owned()
}

const PHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1";
const DESKTOP: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

async fn sessions_are_listed_and_ended_one_or_all(app: &TestApp) {
    let email = "dev@example.com";
    let phone = sign_in_from(app, email, PHONE).await;
    let desktop = sign_in_from(app, email, DESKTOP).await;
    let listed = json(app.get("/api/auth/sessions", Some(&phone)).await).await;
    let sessions = listed["data"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 2, "{listed}");
    let mine: Vec<&Value> = sessions.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(mine.len(), 1, "exactly one is this one: {listed}");
    assert_eq!(mine[0]["label"], "iPhone · Safari");
    let other = sessions.iter().find(|s| s["current"] == false).unwrap();
    assert_eq!(other["label"], "Windows · Chrome");
    for s in &sessions {
        assert!(s["created_at"].as_str().unwrap().ends_with('Z') && s["last_used_at"].is_string(), "{s}");
        assert!(s.get("token_hash").is_none() && !s.to_string().contains(&phone) && !s.to_string().contains(&desktop));
    }

    // Someone else cannot end them; an unknown id is 404.
    let stranger = sign_in_from(app, "test@example.com", DESKTOP).await;
    let other_id = other["id"].as_str().unwrap();
    expect_error(app.delete(&format!("/api/auth/sessions/{other_id}"), &stranger).await, 404, "NOT_FOUND").await;
    expect_error(app.delete("/api/auth/sessions/not-a-session", &phone).await, 404, "NOT_FOUND").await;
    assert_eq!(app.get("/api/auth/session", Some(&desktop)).await.status(), 200);

    // Ending the desktop's session from the phone signs the desktop out at once.
    assert_eq!(app.delete(&format!("/api/auth/sessions/{other_id}"), &phone).await.status(), 204);
    assert_eq!(app.get("/api/auth/session", Some(&desktop)).await.status(), 401);
    assert_eq!(app.get("/api/auth/session", Some(&phone)).await.status(), 200);
    let listed = json(app.get("/api/auth/sessions", Some(&phone)).await).await;
    assert_eq!(listed["data"].as_array().unwrap().len(), 1);

    // Signing out everywhere ends this one too, and every other.
    let third = sign_in_from(app, email, DESKTOP).await;
    let r = app.post("/api/auth/logout?all=true", &json!({}), Some(&phone)).await;
    assert_eq!(r.status(), 204);
    assert_eq!(app.get("/api/auth/session", Some(&phone)).await.status(), 401);
    assert_eq!(app.get("/api/auth/session", Some(&third)).await.status(), 401);
    assert_eq!(app.get("/api/auth/session", Some(&stranger)).await.status(), 200, "another account's sessions stay");
}

async fn the_link_peek_masks_the_address_and_spends_nothing(app: &TestApp) {
    let email = unique_email();
    assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    let (_, token) = app.latest_code(&email, 1).await;
    let masked = format!("u***@{}", email.split('@').nth(1).unwrap());
    for _ in 0..2 {
        let r = json(app.post("/api/auth/verify-link", &json!({ "token": token, "peek": true }), None).await).await;
        assert_eq!(r["data"]["email"], masked.as_str(), "{r}");
        assert!(r["data"].get("access_token").is_none(), "a peek signs nobody in: {r}");
    }
    let r = app.post("/api/auth/verify-link", &json!({ "token": token }), None).await;
    assert_eq!(r.status(), 200, "the peeks spent nothing");
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": token, "peek": true }), None).await, 400, "LINK_INVALID").await;
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": "nope", "peek": true }), None).await, 400, "LINK_INVALID").await;
}

async fn answers_carry_the_contracts_headers(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    for (path, auth) in
        [("/api/settings", Some(token.as_str())), ("/api/reminders", Some(&token)), ("/api/health", None), ("/api/site", None)]
    {
        let r = app.get(path, auth).await;
        assert!(r.status().is_success(), "{path}");
        let h = r.headers();
        assert_eq!(h["cache-control"], "no-store", "{path}");
        assert_eq!(h["cross-origin-opener-policy"], "same-origin", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
    }
    // Every answer, errors and pages included.
    for path in ["/api/nothing-here", "/", "/reminders"] {
        let r = app.get(path, None).await;
        assert_eq!(r.headers()["cross-origin-opener-policy"], "same-origin", "{path}");
        assert_eq!(r.headers()["referrer-policy"], "no-referrer", "{path}");
    }
}

/// A browser-like subscription to a loopback endpoint: a real P-256 key and auth secret.
fn subscription(n: usize) -> Value {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let secret = p256::SecretKey::from_slice(&[n as u8 + 1; 32]).unwrap();
    let public = p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&secret.public_key(), false);
    json!({
        "subscription": { "endpoint": format!("http://127.0.0.1:9/push/{n}"), "keys": { "p256dh": b64.encode(public.as_bytes()), "auth": b64.encode([n as u8; 16]) } },
        "device_info": { "user_agent": "test", "platform": "linux", "language": "en", "timezone": "UTC" }
    })
}

async fn the_twenty_first_device_is_refused(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let subs: Vec<Value> = (0..21).map(subscription).collect();
    for (n, sub) in subs.iter().take(20).enumerate() {
        let r = app.post("/api/notifications?action=subscribe", sub, Some(&token)).await;
        assert_eq!(r.status(), 201, "device {n}: {}", r.text().await.unwrap());
    }
    expect_error(app.post("/api/notifications?action=subscribe", &subs[20], Some(&token)).await, 409, "DEVICE_LIMIT").await;
    // Re-subscribing a device the account has is not a new one.
    assert_eq!(app.post("/api/notifications?action=subscribe", &subs[3], Some(&token)).await.status(), 201);
    let devices = json(app.get("/api/notifications/subscriptions", Some(&token)).await).await;
    assert_eq!(devices["data"].as_array().unwrap().len(), 20);
    // Removing one makes room.
    let r =
        app.post("/api/notifications?action=unsubscribe", &json!({ "endpoint": subs[0]["subscription"]["endpoint"] }), Some(&token)).await;
    assert_eq!(r.status(), 204);
    assert_eq!(app.post("/api/notifications?action=subscribe", &subs[20], Some(&token)).await.status(), 201);
}

async fn push_endpoints_use_port_443(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let mut sub = subscription(1);
    for endpoint in ["https://push.example.com:8443/x", "https://push.example.com:25/x", "https://push.example.com:80/x"] {
        sub["subscription"]["endpoint"] = json!(endpoint);
        let body = expect_error(app.post("/api/notifications?action=subscribe", &sub, Some(&token)).await, 400, "ENDPOINT_REJECTED").await;
        assert!(body["error"]["message"].as_str().unwrap().contains("443"), "{body}");
    }
}

async fn send_now_waits_ten_seconds(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let due = Timestamp::now() + SignedDuration::from_hours(1);
    let r = json(app.post("/api/reminders", &json!({ "title": "t", "send_at": due.to_string() }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await.status(), 202);
    let r = app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await;
    let retry_after: i64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=10).contains(&retry_after), "{retry_after}");
    let body = expect_error(r, 429, "RATE_LIMITED").await;
    assert_eq!(body["error"]["retry_after"], retry_after);
    // Another account is not held back by this one.
    let (other, _) = app.sign_in(&unique_email()).await;
    let r = json(app.post("/api/reminders", &json!({ "title": "t", "send_at": due.to_string() }), Some(&other)).await).await;
    let other_id = r["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/api/reminders/{other_id}/send"), &json!({}), Some(&other)).await.status(), 202);
}

/// 100 hourly reminders that move off holidays, skip dates and ring 5 alerts each: the
/// account's limits at once. The feed is under 1 MiB, answered from its cache, 304 on its
/// ETag, gzip when asked, and 6 a minute.
async fn an_account_at_its_limits_has_a_small_cached_feed(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let start = Timestamp::now() + SignedDuration::from_hours(2);
    let today = start.to_zoned(jiff::tz::TimeZone::get("Asia/Tokyo").unwrap()).date();
    let skip: Vec<String> = (1..=100).map(|d| (today + jiff::Span::new().days(d * 3)).to_string()).collect();
    for i in 0..100 {
        let body = json!({
            "title": format!("Hourly reminder number {i} with a title of some length"),
            "description": "A description that a person might write, a sentence or two long, so the feed carries text.",
            "send_at": (start + SignedDuration::from_secs(i * 7)).to_string(),
            "timezone": "Asia/Tokyo",
            "recurrence": { "kind": "hourly", "interval_hours": 1, "holidays": "next_business_day", "skip": skip },
            "alerts": [{ "before_minutes": 0 }, { "before_minutes": 5 }, { "before_minutes": 10 }, { "before_minutes": 30 }, { "before_minutes": 45 }],
        });
        let r = app.post("/api/reminders", &body, Some(&token)).await;
        assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    }
    let url = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
    let path = url.split_once("/api/").map(|(_, p)| format!("/api/{p}")).unwrap();

    let started = Instant::now();
    let r = app.get(&path, None).await;
    let first = started.elapsed();
    assert_eq!(r.status(), 200);
    let etag = r.headers()["etag"].to_str().unwrap().to_owned();
    assert!(r.headers().get("content-encoding").is_none());
    let body = r.bytes().await.unwrap();
    let started = Instant::now();
    let again = app.get(&path, None).await;
    let cached = started.elapsed();
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag, "the same feed");
    assert_eq!(again.bytes().await.unwrap(), body);
    println!("feed of 100 hourly reminders: {} bytes, first answer {first:?}, cached {cached:?}", body.len());
    assert!(body.len() <= 1024 * 1024, "{} bytes", body.len());
    assert_eq!(body.windows(12).filter(|w| w == b"BEGIN:VEVENT").count(), 100);

    let r = app.client.get(app.url(&path)).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(r.status(), 304);
    assert_eq!(r.headers()["etag"].to_str().unwrap(), etag);
    let r = app.client.get(app.url(&path)).header("accept-encoding", "gzip, br").send().await.unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    let zipped = r.bytes().await.unwrap();
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&zipped[..]), &mut unzipped).unwrap();
    assert_eq!(unzipped, body, "the gzip form is the same feed");
    println!("gzip: {} bytes", zipped.len());

    // A change renders it again.
    let list = json(app.get("/api/reminders", Some(&token)).await).await;
    let first_id = list["data"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.put(&format!("/api/reminders/{first_id}"), &json!({ "title": "Renamed" }), &token).await.status(), 200);
    let r = app.get(&path, None).await;
    assert_ne!(r.headers()["etag"].to_str().unwrap(), etag, "a new reminder is a new feed");
    // Six a minute: that was the fifth; the sixth passes, the seventh waits.
    assert_eq!(app.get(&path, None).await.status(), 200);
    let r = app.get(&path, None).await;
    assert!(r.headers().contains_key("retry-after"));
    expect_error(r, 429, "RATE_LIMITED").await;
}

/// Addresses of one /64 share one limit (burst 10 at 100 a minute); another /64 has its own.
async fn one_64_shares_one_limit(app: &TestApp) {
    let from = |ip: String| app.client.get(app.url("/api/site")).header("x-forwarded-for", ip).send();
    let mut passed = 0;
    for n in 1..=30 {
        if from(format!("2001:db8:1:2:{n:x}::{n:x}")).await.unwrap().status() == 200 {
            passed += 1;
        }
    }
    assert!((10..=12).contains(&passed), "{passed} of 30 passed: the /64 is one client with a burst of 10");
    assert_eq!(from("2001:db8:1:3::1".into()).await.unwrap().status(), 200, "another /64 is another client");
    let r = from("2001:db8:1:2::ffff".into()).await.unwrap();
    expect_error(r, 429, "RATE_LIMITED").await;
}

async fn dev_login_is_refused_through_a_proxy(app: &TestApp) {
    let body = json!({ "email": "dev@example.com" });
    for (name, value) in [("x-forwarded-for", "203.0.113.7"), ("forwarded", "for=203.0.113.7;proto=https")] {
        let r = app.client.post(app.url("/api/auth/dev-login")).header(name, value).json(&body).send().await.unwrap();
        expect_error(r, 404, "NOT_FOUND").await;
    }
    assert_eq!(app.post("/api/auth/dev-login", &body, None).await.status(), 200, "straight from this machine it works");
}

/// Every text of the queue's jobs (SQLite's table; Redis' hashes of this app's namespace).
async fn queued_texts(app: &TestApp) -> Vec<String> {
    match &app.config.redis_url {
        None => {
            let url = format!("sqlite://{}", app.data_dir.join("queue.sqlite").display());
            let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
            let texts: Vec<String> = sqlx::query_scalar("SELECT CAST(job AS TEXT) FROM Jobs").fetch_all(&pool).await.unwrap();
            pool.close().await;
            texts
        }
        Some(url) => {
            let client = redis::Client::open(url.as_str()).unwrap();
            let mut conn = client.get_multiplexed_async_connection().await.unwrap();
            let keys: Vec<String> =
                redis::cmd("KEYS").arg(format!("{}*", app.config.queue_namespace)).query_async(&mut conn).await.unwrap();
            let mut texts = Vec::new();
            for key in keys {
                let kind: String = redis::cmd("TYPE").arg(&key).query_async(&mut conn).await.unwrap();
                let values: Vec<Vec<u8>> = match kind.as_str() {
                    "hash" => redis::cmd("HVALS").arg(&key).query_async(&mut conn).await.unwrap(),
                    "list" => redis::cmd("LRANGE").arg(&key).arg(0).arg(-1).query_async(&mut conn).await.unwrap(),
                    "set" => redis::cmd("SMEMBERS").arg(&key).query_async(&mut conn).await.unwrap(),
                    "zset" => redis::cmd("ZRANGE").arg(&key).arg(0).arg(-1).query_async(&mut conn).await.unwrap(),
                    "string" => vec![redis::cmd("GET").arg(&key).query_async(&mut conn).await.unwrap()],
                    _ => Vec::new(),
                };
                texts.extend(values.into_iter().map(|v| String::from_utf8_lossy(&v).into_owned()));
            }
            texts
        }
    }
}

/// After a sign-in mail went out, neither its code nor its link is in the queue (SQLite or
/// Redis) or anywhere in the data directory.
async fn no_sign_in_secret_rests_in_the_queue(app: &TestApp) {
    let email = unique_email();
    assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    let (code, link) = app.latest_code(&email, 1).await;
    let texts = queued_texts(app).await;
    assert!(!texts.is_empty(), "the sign-in job went through the queue");
    for text in &texts {
        assert!(!text.contains(&link) && !text.contains(&format!("\"{code}\"")), "a queued job holds the secret: {text}");
        assert!(!text.contains(&email), "a queued job names the address: {text}");
    }
    // Nowhere in the data directory (the mail went to the SMTP server, not the outbox).
    let mut files = vec![app.data_dir.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            let bytes = std::fs::read(&path).unwrap();
            assert!(!bytes.windows(link.len()).any(|w| w == link.as_bytes()), "{} holds the link token", path.display());
        }
    }
    // The sealed copy is gone once sent: the database keeps only hashes.
    let left: Option<Vec<u8>> =
        sqlx::query_scalar("SELECT mail_secret FROM otp_codes WHERE email = $1").bind(&email).fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(left, None);
    // And the code still signs in.
    assert_eq!(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await.status(), 200);
}

macro_rules! queue_backends {
    ($($name:ident),*) => {$(
        mod $name {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_queues() {
                if let Some(app) = TestApp::spawn(Backend::Sqlite, Options { smtp: true, ..Default::default() }).await {
                    super::$name(&app).await;
                    app.stop().await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_and_redis() {
                if let Some(app) = TestApp::spawn(Backend::Postgres, Options { smtp: true, redis: true, ..Default::default() }).await {
                    super::$name(&app).await;
                    app.stop().await;
                }
            }
        }
    )*};
}

queue_backends!(no_sign_in_secret_rests_in_the_queue, deletion_removes_the_accounts_jobs);

async fn deletion_removes_the_accounts_jobs(app: &TestApp) {
    let email = unique_email();
    let (token, user) = app.sign_in(&email).await;
    let user_id = user["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post("/api/test-email", &json!({}), Some(&token)).await.status(), 202);
    app.mails_for(&email, 2).await;
    assert!(queued_texts(app).await.iter().any(|t| t.contains(&user_id)), "the test mail's job names the account");
    let r = app.client.delete(app.url("/api/account")).bearer_auth(&token).json(&json!({ "confirm": email })).send().await.unwrap();
    assert_eq!(r.status(), 204);
    for text in queued_texts(app).await {
        assert!(!text.contains(&user_id) && !text.contains(&email), "left in the queue: {text}");
    }
}

/// Outbox mode: the account's mails go with it; another account's stay.
async fn account_deletion_leaves_nothing_in_queue_or_outbox(app: &TestApp) {
    let email = unique_email();
    let other = unique_email();
    let (token, _) = app.sign_in(&email).await;
    app.sign_in(&other).await;
    assert_eq!(app.post("/api/test-email", &json!({}), Some(&token)).await.status(), 202);
    app.mails_for(&email, 2).await;
    let r = app.client.delete(app.url("/api/account")).bearer_auth(&token).json(&json!({ "confirm": email })).send().await.unwrap();
    assert_eq!(r.status(), 204);
    assert!(app.read_mails(&email).is_empty(), "the deleted account's mails are gone from the outbox");
    assert_eq!(app.read_mails(&other).len(), 1, "another account's mail stays");
    for text in queued_texts(app).await {
        assert!(!text.contains(&email), "left in the queue: {text}");
    }
}

/// Delivery history goes after 180 days, archived reminders after a year and past 1,000 per
/// account (the oldest first); the archived list pages. Housekeeping runs at instants ahead
/// instead of rows being aged.
async fn history_and_archives_are_kept_as_long_as_decided(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    let user_id = user["id"].as_str().unwrap().to_owned();
    let due = Timestamp::now() + SignedDuration::from_hours(1);
    let r = json(app.post("/api/reminders", &json!({ "title": "kept", "send_at": due.to_string() }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&token)).await.status(), 202);
    assert_eq!(json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await["data"].as_array().unwrap().len(), 1);
    // Read from the database from here on: housekeeping at a later instant also ends the
    // sessions that would have expired by then.
    let logs = async |app: &TestApp| {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM delivery_logs WHERE reminder_id = $1")
            .bind(&id)
            .fetch_one(app.db.pool())
            .await
            .unwrap()
    };
    let now = Timestamp::now();
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 179)).await.unwrap();
    assert_eq!(logs(app).await, 1, "179 days on, the entry is kept");
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 181)).await.unwrap();
    assert_eq!(logs(app).await, 0, "181 days on, it is gone");

    // 1,005 archived reminders (written directly: the API makes one at a time).
    let mut tx = app.db.pool().begin().await.unwrap();
    let base = now.as_millisecond();
    for i in 0..1005i64 {
        sqlx::query(
            "INSERT INTO reminders (id, user_id, title, send_at, timezone, recurrence, is_active, is_archived, archived_at, created_at, updated_at)
             VALUES ($1, $2, $3, $4, 'UTC', '{\"kind\":\"none\"}', 0, 1, $5, $4, $5)",
        )
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(&user_id)
        .bind(vec![0u8; 32])
        .bind(base - 86_400_000)
        .bind(base - (1005 - i) * 1000)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM reminders WHERE user_id = $1 AND is_archived = 1")
            .bind(&user_id)
            .fetch_one(app.db.pool())
            .await
            .unwrap()
    };
    // The reminder above was archived too, at day 181, by the 180-day non-use rule.
    assert_eq!(count().await, 1006);
    hibiki_worker::housekeeping::run_once(&app.db, now).await.unwrap();
    assert_eq!(count().await, 1000, "the 6 oldest archived went");
    let oldest_left: i64 = sqlx::query_scalar("SELECT MIN(archived_at) FROM reminders WHERE user_id = $1 AND is_archived = 1")
        .bind(&user_id)
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(oldest_left, base - 999 * 1000);
    hibiki_worker::housekeeping::run_once(&app.db, now + SignedDuration::from_hours(24 * 366)).await.unwrap();
    assert_eq!(count().await, 1, "a year after archiving, gone; the one archived at day 181 is not a year old");
    assert_eq!(logs(app).await, 0);
    let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE id = $1").bind(&id).fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(kept, 1, "the reminder archived less than a year ago is kept");
}

/// The archived list pages (newest archived first) and counts them all in `X-Total-Count`.
async fn archived_reminders_page(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    let user_id = user["id"].as_str().unwrap().to_owned();
    let keys = hibiki_common::infra::crypto::Keys::from_data_key(&hibiki_common::infra::keys::data_key(&app.config).unwrap());
    let now = Timestamp::now().as_millisecond();
    let list_id = json(app.get("/api/lists", Some(&token)).await).await["data"][0]["id"].as_str().unwrap().to_owned();
    for i in 0..120i64 {
        let id = uuid::Uuid::new_v4().to_string();
        sqlx::query(
            "INSERT INTO reminders (id, user_id, title, send_at, timezone, recurrence, is_active, is_archived, archived_at, created_at, updated_at, list_id, created_by)
             VALUES ($1, $2, $3, $4, 'UTC', '{\"kind\":\"none\"}', 0, 1, $5, $4, $5, $6, $2)",
        )
        .bind(&id)
        .bind(&user_id)
        .bind(keys.seal_str(&format!("{id}/title"), &format!("archived {i}")))
        .bind(now - 86_400_000)
        .bind(now - (120 - i) * 1000)
        .bind(&list_id)
        .execute(app.db.pool())
        .await
        .unwrap();
    }
    let page = |offset: usize| app.get(&format!("/api/reminders?status=archived&limit=50&offset={offset}"), Some(&token));
    let r = page(0).await;
    assert_eq!(r.headers()["x-total-count"], "120");
    let first = json(r).await["data"].as_array().unwrap().clone();
    assert_eq!(first.len(), 50);
    assert_eq!(first[0]["title"], "archived 119", "newest archived first");
    let last = json(page(100).await).await["data"].as_array().unwrap().clone();
    assert_eq!(last.len(), 20);
    assert_eq!(last[19]["title"], "archived 0");
    for bad in ["limit=0", "limit=501", "offset=-1"] {
        expect_error(app.get(&format!("/api/reminders?status=archived&{bad}"), Some(&token)).await, 400, "VALIDATION_FAILED").await;
    }
}

both_backends!(archived_reminders_page);

/// Two push services on two ports: one is a tarpit that never answers. An account with 20
/// devices there and 26 reminders at one second puts 520 pushes on it (more than a worker's
/// 512 sends in flight); another account's reminder a second later, on the other service,
/// still arrives within a second of its time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tarpit_origin_does_not_delay_another_accounts_push() {
    let (Some(tarpit), Some(healthy)) = (PushSink::start().await, PushSink::start().await) else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return;
    };
    let options = Options { allow_private_push: true, push_timeout_ms: Some(10_000), ..Default::default() };
    let Some(app) = TestApp::spawn(Backend::Sqlite, options).await else { return };
    let subscribe = |token: String, sub: Value| {
        app.post(
            "/api/notifications?action=subscribe",
            &json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                     "device_info": { "user_agent": "test", "platform": "linux", "language": "en", "timezone": "UTC" } }),
            Some(&token),
        )
    };
    let (attacker, _) = app.sign_in(&unique_email()).await;
    let mut held = Vec::new();
    for _ in 0..20 {
        let sub = tarpit.subscription().await;
        tarpit.behave(sub["id"].as_str().unwrap(), json!({ "hang": true })).await;
        held.push(sub["id"].as_str().unwrap().to_owned());
        assert_eq!(subscribe(attacker.clone(), sub).await.status(), 201);
    }
    let (person, _) = app.sign_in(&unique_email()).await;
    let sub = healthy.subscription().await;
    assert_eq!(subscribe(person.clone(), sub.clone()).await.status(), 201);
    let due = Timestamp::from_second(Timestamp::now().as_second() + 6).unwrap();
    // The tarpit's pushes go out a second earlier, so they hold whatever they can before ours.
    let before = due - SignedDuration::from_secs(1);
    for i in 0..26 {
        let r =
            app.post("/api/reminders", &json!({ "title": format!("tarpit {i}"), "send_at": before.to_string() }), Some(&attacker)).await;
        assert_eq!(r.status(), 201);
    }
    let r = app.post("/api/reminders", &json!({ "title": "mine", "send_at": due.to_string() }), Some(&person)).await;
    assert_eq!(r.status(), 201);

    let got = healthy.wait_for(sub["id"].as_str().unwrap(), 1, 20).await;
    assert_eq!(got.len(), 1, "the other account's push arrived");
    let late = got[0]["received_at"].as_f64().unwrap() - due.as_second() as f64;
    println!("beside a tarpit holding {} pushes: the other account's push came {late:.3} s after its second", 520);
    assert!((0.0..1.0).contains(&late), "{late:.3} s after its second");
    // The tarpit holds at most its share at once (32), not every send slot. Each of its 520
    // sends is claimed before it waits for its origin's turn: once all are claimed, every one
    // that could go out at once has gone.
    let claimed = async || -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM deliveries WHERE status = 'sending'").fetch_one(app.db.pool()).await.unwrap()
    };
    let started = std::time::Instant::now();
    while claimed().await < 520 {
        assert!(started.elapsed() < Duration::from_secs(20), "{} of 520 sends claimed", claimed().await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut open = 0;
    for id in &held {
        open += tarpit.received(id).await.len();
    }
    println!("the tarpit holds {open} requests");
    assert!(open <= 32, "{open} requests held by one origin");
    drop(tarpit);
    app.stop().await;
}

/// Over https the cookie is `__Host-hibiki_session` (Secure, Path=/, no Domain); a request
/// with two session cookies is refused, whichever is valid.
async fn the_session_cookie_is_host_prefixed_and_never_doubled(app: &TestApp) {
    let email = unique_email();
    assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    let (code, _) = app.latest_code(&email, 1).await;
    let r = app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await;
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("__Host-hibiki_session="), "{cookie}");
    assert!(cookie.contains("Secure") && cookie.contains("Path=/") && !cookie.contains("Domain"), "{cookie}");
    let token = json(r).await["data"]["access_token"].as_str().unwrap().to_owned();
    let with_cookie = |value: String| app.client.get(app.url("/api/auth/session")).header("cookie", value).send();
    assert_eq!(with_cookie(format!("__Host-hibiki_session={token}")).await.unwrap().status(), 200);
    for doubled in
        [format!("__Host-hibiki_session={token}; hibiki_session=planted"), format!("hibiki_session=planted; __Host-hibiki_session={token}")]
    {
        expect_error(with_cookie(doubled).await.unwrap(), 401, "AUTHENTICATION_REQUIRED").await;
    }
}

both_backends!(the_session_cookie_is_host_prefixed_and_never_doubled => Options {
    public_url: Some("https://hibiki.example.com".into()),
    ..Default::default()
});
