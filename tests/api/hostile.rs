//! Hostile clients: cross-site requests riding the session cookie, push endpoint takeover,
//! text the database cannot store, time zone names that are not zones, addresses the mailer
//! cannot send to, and mail servers that refuse.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{PushSink, TestApp, expect_error, json, unavailable, unique_email};

both_backends!(
    cross_site_cookie_requests_are_refused_on_every_state_changing_route,
    a_push_endpoint_moves_only_with_the_same_keys => Options { allow_private_push: true, ..Default::default() },
    text_the_database_cannot_store_is_a_400_never_a_500,
    time_zones_are_canonical_names,
    addresses_the_mailer_cannot_send_to_are_refused,
    mail_refused_for_good_is_not_retried_and_refused_for_now_backs_off => Options { smtp: true, ..Default::default() },
);

/// Over https (the public URL's scheme), browsers are told to keep to https.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hsts_when_the_public_url_is_https() {
    use crate::helpers::{Backend, Options};
    for (url, expected) in [("https://hibiki.example", Some("max-age=31536000")), ("http://localhost:8080", None)] {
        let Some(app) = TestApp::spawn(Backend::Sqlite, Options { public_url: Some(url.into()), ..Default::default() }).await else {
            return;
        };
        for path in ["/api/health", "/"] {
            let r = app.get(path, None).await;
            assert_eq!(r.headers().get("strict-transport-security").and_then(|v| v.to_str().ok()), expected, "{url} {path}");
        }
        app.stop().await;
    }
}

/// Every route that changes state, with a body a cross-site form or `fetch` could send.
fn state_changing_routes(reminder: &str, device: &str) -> Vec<(Method, String, Value)> {
    let later = (Timestamp::now() + SignedDuration::from_hours(2)).to_string();
    vec![
        (Method::POST, "/api/reminders".into(), json!({ "title": "csrf", "send_at": later })),
        (Method::POST, "/api/reminders/preview".into(), json!({ "send_at": later })),
        (Method::PUT, format!("/api/reminders/{reminder}"), json!({ "title": "renamed by evil" })),
        (Method::POST, format!("/api/reminders/{reminder}/send"), json!({})),
        (Method::POST, "/api/reminders?action=handle".into(), json!({ "reminder_id": reminder, "log_id": reminder, "action": "complete" })),
        (Method::PUT, "/api/settings".into(), json!({ "timezone": "Asia/Tokyo" })),
        (Method::POST, "/api/test-email".into(), json!({})),
        (Method::POST, "/api/notifications?action=test".into(), json!({})),
        (Method::POST, "/api/push/test".into(), json!({})),
        (Method::POST, "/api/notifications?action=unsubscribe".into(), json!({ "endpoint": "https://push.example/x" })),
        (Method::POST, "/api/notifications?action=subscribe".into(), json!({})),
        (Method::DELETE, format!("/api/notifications/subscriptions/{device}"), json!({})),
        (Method::DELETE, format!("/api/reminders/{reminder}"), json!({})),
        (Method::DELETE, "/api/account".into(), json!({ "confirm": "nobody@example.com" })),
        (Method::POST, "/api/auth/logout".into(), json!({})),
    ]
}

/// With the session cookie and a cross-site `Origin` (or `Sec-Fetch-Site: cross-site`), every
/// state-changing route answers 403 `CSRF_REJECTED` and changes nothing, whatever the content
/// type; the same requests from the app's own origin, or with a bearer token, go through.
async fn cross_site_cookie_requests_are_refused_on_every_state_changing_route(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let cookie = format!("hibiki_session={token}");
    let later = (Timestamp::now() + SignedDuration::from_hours(1)).to_string();
    let r = json(app.post("/api/reminders", &json!({ "title": "mine", "send_at": later }), Some(&token)).await).await;
    let reminder = r["data"]["id"].as_str().unwrap().to_owned();
    let device = "00000000-0000-0000-0000-000000000000";
    let request = |method: Method, path: &str, body: &Value, headers: &[(&str, &str)]| {
        let mut req = app.client.request(method, app.url(path)).body(body.to_string());
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send()
    };
    let evil_origins: [&[(&str, &str)]; 4] = [
        &[("origin", "http://evil.example"), ("content-type", "text/plain")],
        &[("origin", "http://evil.example"), ("content-type", "application/x-www-form-urlencoded")],
        &[("origin", "null"), ("content-type", "application/json")],
        &[("sec-fetch-site", "cross-site"), ("content-type", "application/json")],
    ];
    for (method, path, body) in state_changing_routes(&reminder, device) {
        for evil in evil_origins {
            let mut headers = vec![("cookie", cookie.as_str())];
            headers.extend_from_slice(evil);
            let r = request(method.clone(), &path, &body, &headers).await.unwrap();
            let what = format!("{method} {path} {evil:?}");
            assert_eq!(r.status(), 403, "{what}");
            let body: Value = r.json().await.unwrap();
            assert_eq!(body["error"]["code"], "CSRF_REJECTED", "{what}: {body}");
        }
    }
    // Nothing changed: the reminder is there under its name, the session still works.
    let still = json(app.get(&format!("/api/reminders/{reminder}"), Some(&token)).await).await;
    assert_eq!(still["data"]["title"], "mine");
    assert_eq!(json(app.get("/api/settings", Some(&token)).await).await["data"]["timezone"], "UTC");

    // The app's own origin with the cookie, and a bearer client from anywhere, go through.
    let own = app.base.clone();
    let same_site =
        [("cookie", cookie.as_str()), ("origin", own.as_str()), ("sec-fetch-site", "same-origin"), ("content-type", "application/json")];
    let r = request(Method::PUT, "/api/settings", &json!({ "timezone": "Asia/Tokyo" }), &same_site).await.unwrap();
    assert_eq!(r.status(), 200);
    let bearer = format!("Bearer {token}");
    let from_anywhere = [("authorization", bearer.as_str()), ("origin", "http://evil.example"), ("content-type", "application/json")];
    // Each answers on its merits, exactly as it would from the app itself.
    let expected: std::collections::HashMap<&str, u16> = [
        ("POST /api/reminders", 201),
        ("POST /api/reminders/preview", 200),
        ("PUT /api/reminders/{id}", 200),
        ("POST /api/reminders/{id}/send", 202),
        ("POST /api/reminders?action=handle", 404),
        ("PUT /api/settings", 200),
        ("POST /api/test-email", 202),
        ("POST /api/notifications?action=test", 404),
        ("POST /api/push/test", 404),
        ("POST /api/notifications?action=unsubscribe", 204),
        ("POST /api/notifications?action=subscribe", 400),
        ("DELETE /api/notifications/subscriptions/{id}", 404),
        ("DELETE /api/reminders/{id}", 204),
    ]
    .into_iter()
    .collect();
    for (method, path, body) in state_changing_routes(&reminder, device) {
        if path == "/api/auth/logout" || path == "/api/account" {
            continue; // they would end the session the rest needs
        }
        let route = format!("{method} {}", path.replace(&reminder, "{id}").replace(device, "{id}"));
        let r = request(method.clone(), &path, &body, &from_anywhere).await.unwrap();
        assert_eq!(r.status().as_u16(), expected[route.as_str()], "{route} with a bearer token from another site");
    }
    let r = request(Method::POST, "/api/auth/logout", &json!({}), &same_site).await.unwrap();
    assert_eq!(r.status(), 204, "same-site logout");
}

async fn subscribe(app: &TestApp, token: &str, sub: &Value, keys: &Value) -> reqwest::Response {
    let body = json!({ "subscription": { "endpoint": sub["endpoint"], "keys": keys }, "device_info": { "user_agent": "test", "platform": "", "language": "en", "timezone": "UTC" } });
    app.post("/api/notifications?action=subscribe", &body, Some(token)).await
}

/// Another account subscribing someone's endpoint with other keys gets 409
/// `ENDPOINT_IN_USE`, and the owner keeps the device; the same browser (same keys) signed in
/// to another account moves it.
async fn a_push_endpoint_moves_only_with_the_same_keys(app: &TestApp) {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink");
        return;
    };
    let (owner, _) = app.sign_in(&unique_email()).await;
    let (thief, _) = app.sign_in(&unique_email()).await;
    let sub = sink.subscription().await;
    assert_eq!(subscribe(app, &owner, &sub, &sub["keys"]).await.status(), 201);
    let other_keys = sink.subscription().await["keys"].clone();
    expect_error(subscribe(app, &thief, &sub, &other_keys).await, 409, "ENDPOINT_IN_USE").await;
    let mine = json(app.get("/api/notifications/subscriptions", Some(&owner)).await).await;
    assert_eq!(mine["data"].as_array().unwrap().len(), 1, "the owner keeps the device");
    assert_eq!(json(app.get("/api/notifications/subscriptions", Some(&thief)).await).await["data"], json!([]));
    // The owner re-subscribing (new keys after a browser reset) still works.
    assert_eq!(subscribe(app, &owner, &sub, &other_keys).await.status(), 201);
    // The same browser, keys and all, signed in to another account: the device moves.
    let (second, _) = app.sign_in(&unique_email()).await;
    assert_eq!(subscribe(app, &second, &sub, &other_keys).await.status(), 201);
    assert_eq!(json(app.get("/api/notifications/subscriptions", Some(&owner)).await).await["data"], json!([]));
    assert_eq!(json(app.get("/api/notifications/subscriptions", Some(&second)).await).await["data"].as_array().unwrap().len(), 1);
}

/// NUL, invalid escapes and control characters in every text field of every route: 400 (or
/// 404 for ids), never a 500, on SQLite and PostgreSQL, signed in or not.
async fn text_the_database_cannot_store_is_a_400_never_a_500(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let later = (Timestamp::now() + SignedDuration::from_hours(1)).to_string();
    let r = json(app.post("/api/reminders", &json!({ "title": "fine", "send_at": later }), Some(&token)).await).await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    let sub = json!({ "endpoint": "https://push.example/a", "keys": { "p256dh": "x", "auth": "y" } });
    let info = json!({ "user_agent": "ua", "platform": "p", "language": "en", "timezone": "UTC" });
    // (path, a valid body, whether it needs the session)
    let routes: Vec<(String, Value, bool)> = vec![
        ("/api/auth/otp".into(), json!({ "email": "a@example.com", "lang": "en" }), false),
        ("/api/auth/verify".into(), json!({ "email": "a@example.com", "code": "123456" }), false),
        ("/api/auth/verify-link".into(), json!({ "token": "abc" }), false),
        ("/api/auth/dev-login".into(), json!({ "email": "dev@example.com" }), false),
        (
            "/api/reminders".into(),
            json!({ "title": "t", "description": "d", "send_at": later, "timezone": "UTC", "recurrence": { "kind": "custom", "days": ["mon"] }, "send_to": ["x"], "metadata": { "k": "v" } }),
            true,
        ),
        ("/api/reminders/preview".into(), json!({ "send_at": later, "timezone": "UTC" }), true),
        (
            "/api/reminders?action=handle".into(),
            json!({ "reminder_id": id, "log_id": "l", "action": "snooze", "action_token": "t" }),
            false,
        ),
        ("/api/notifications?action=subscribe".into(), json!({ "subscription": sub, "device_info": info }), true),
        ("/api/notifications?action=unsubscribe".into(), json!({ "endpoint": "https://push.example/a" }), true),
        ("/api/notifications?action=ack".into(), json!({ "log_id": "l", "action_token": "t", "endpoint": "e" }), false),
        ("/api/account".into(), json!({ "confirm": "a@example.com" }), true),
    ];
    let mut tried = 0;
    let mut check = async |method: Method, path: &str, body: Value, auth: bool, what: String| {
        let mut req = app.client.request(method, app.url(path)).header("content-type", "application/json").body(body.to_string());
        if auth {
            req = req.bearer_auth(&token);
        }
        let status = req.send().await.unwrap().status().as_u16();
        assert!(status == 400 || status == 404, "{what}: {status}");
        tried += 1;
    };
    for (path, body, auth) in &routes {
        let method = if path == "/api/account" { Method::DELETE } else { Method::POST };
        for (field, bad) in string_fields(body) {
            for poison in ["\u{0}", "a\u{0}b"] {
                check(method.clone(), path, bad(poison), *auth, format!("{path} {field} NUL")).await;
            }
        }
    }
    // The PUT routes too.
    for (field, bad) in string_fields(&json!({ "title": "t", "description": "d", "timezone": "UTC", "send_at": later })) {
        check(Method::PUT, &format!("/api/reminders/{id}"), bad("x\u{0}"), true, format!("PUT reminder {field}")).await;
    }
    for (field, bad) in string_fields(&json!({ "timezone": "UTC", "language": "en" })) {
        check(Method::PUT, "/api/settings", bad("\u{0}"), true, format!("PUT settings {field}")).await;
    }
    // A NUL in a key, invalid UTF-8 escapes, and control characters in titles.
    for raw in [r#"{"title\u0000": "t"}"#, r#"{"title": "\udc00", "send_at": "2030-01-01T00:00:00Z"}"#, r#"{"title": "\ud800\u0041"}"#] {
        let r = app
            .client
            .post(app.url("/api/reminders"))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body(raw)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{raw}");
    }
    for title in ["esc\u{1b}[2J", "bell\u{7}", "evil\u{202E}fdp.exe", "\u{2066}iso"] {
        let err = expect_error(
            app.post("/api/reminders", &json!({ "title": title, "send_at": later }), Some(&token)).await,
            400,
            "VALIDATION_FAILED",
        )
        .await;
        assert!(err["error"]["fields"]["title"].is_string(), "{title:?}: {err}");
    }
    for (method, path) in [
        (Method::DELETE, "/api/reminders/%00"),
        (Method::GET, "/api/reminders/a%00b/logs"),
        (Method::DELETE, "/api/notifications/subscriptions/%00"),
    ] {
        let r = app.client.request(method, app.url(path)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(r.status(), 404, "{path}");
    }
    assert!(tried > 60, "every field was tried ({tried})");
    assert_eq!(json(app.get("/api/reminders", Some(&token)).await).await["data"].as_array().unwrap().len(), 1, "nothing was stored");
}

/// Every string in `body` (object values, array items, nested), each with a function that
/// puts `poison` in its place.
fn string_fields(body: &Value) -> Vec<(String, Poisoner<'_>)> {
    fn walk(v: &Value, path: Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
        match v {
            Value::String(_) => out.push(path),
            Value::Array(items) => {
                items.iter().enumerate().for_each(|(i, x)| walk(x, [path.clone(), vec![PathStep::Index(i)]].concat(), out))
            }
            Value::Object(map) => map.iter().for_each(|(k, x)| walk(x, [path.clone(), vec![PathStep::Key(k.clone())]].concat(), out)),
            _ => {}
        }
    }
    let mut paths = Vec::new();
    walk(body, Vec::new(), &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .iter()
                .map(|s| match s {
                    PathStep::Key(k) => k.clone(),
                    PathStep::Index(i) => i.to_string(),
                })
                .collect::<Vec<_>>()
                .join(".");
            let f: Poisoner<'_> = Box::new(move |poison: &str| {
                let mut copy = body.clone();
                let mut at = &mut copy;
                for step in &path {
                    at = match step {
                        PathStep::Key(k) => &mut at[k.as_str()],
                        PathStep::Index(i) => &mut at[*i],
                    };
                }
                *at = Value::String(poison.to_owned());
                copy
            });
            (name, f)
        })
        .collect()
}

/// Puts a poisoned string in one place of a body.
type Poisoner<'a> = Box<dyn Fn(&str) -> Value + 'a>;

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

/// A case variant is answered with the database's spelling; files that are not zones are not
/// time zones.
async fn time_zones_are_canonical_names(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let s = json(app.put("/api/settings", &json!({ "timezone": "asia/tokyo" }), &token).await).await;
    assert_eq!(s["data"]["timezone"], "Asia/Tokyo");
    let later = (Timestamp::now() + SignedDuration::from_hours(1)).to_string();
    let r =
        json(app.post("/api/reminders", &json!({ "title": "t", "send_at": later, "timezone": "EUROPE/LONDON" }), Some(&token)).await).await;
    assert_eq!(r["data"]["timezone"], "Europe/London");
    for bad in ["localtime", "posixrules", "Factory", "posix/Asia/Tokyo", "right/UTC", "EST5EDT"] {
        expect_error(app.put("/api/settings", &json!({ "timezone": bad }), &token).await, 400, "VALIDATION_FAILED").await;
        expect_error(
            app.post("/api/reminders", &json!({ "title": "t", "send_at": later, "timezone": bad }), Some(&token)).await,
            400,
            "VALIDATION_FAILED",
        )
        .await;
    }
}

async fn addresses_the_mailer_cannot_send_to_are_refused(app: &TestApp) {
    let long_local = format!("{}@x.test", "a".repeat(65));
    for bad in [long_local.as_str(), "a@x..test", ".a@x.test", "a@[127.0.0.1]", "a@127.0.0.1", "a\u{202E}b@x.test", "e\u{301}@x.test"] {
        let r = app.post("/api/auth/otp", &json!({ "email": bad, "lang": "en" }), None).await;
        expect_error(r, 400, "EMAIL_INVALID").await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let outbox = std::fs::read_dir(app.data_dir.join("outbox")).map(|d| d.count()).unwrap_or(0);
    assert_eq!(outbox, 0, "nothing was queued for them");
}

/// Through the real SMTP server: a 550 is tried once and never again; a 451 is tried again
/// with backoff until the server takes it, and it arrives once.
async fn mail_refused_for_good_is_not_retried_and_refused_for_now_backs_off(app: &TestApp) {
    let bounce = format!("bounce-{}", unique_email());
    let later = format!("later-{}", unique_email());
    for email in [&bounce, &later] {
        assert_eq!(app.post("/api/auth/otp", &json!({ "email": email, "lang": "en" }), None).await.status(), 202);
    }
    // Three refusals and the backoff between them take about 7 s.
    for _ in 0..300 {
        if !app.read_mails(&later).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.read_mails(&later).len(), 1, "taken once, at the fourth try; tries {:?}", app.smtp_tries(&later));
    let tries = app.smtp_tries(&later);
    let codes: Vec<u16> = tries.iter().map(|t| t.1).collect();
    assert_eq!(codes, [451, 451, 451, 250], "three temporary refusals, then taken");
    let gaps: Vec<f64> = tries.windows(2).map(|w| w[1].0 - w[0].0).collect();
    assert!(gaps[0] >= 0.9 && gaps[1] >= 1.9 && gaps[2] >= 3.9, "backoff between tries: {gaps:?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let tries = app.smtp_tries(&bounce);
    assert_eq!(tries.iter().map(|t| t.1).collect::<Vec<_>>(), [550], "a permanent refusal is not retried");
}
