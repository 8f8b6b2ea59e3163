//! Open to other tools (api.md "Tokens, triggers, export and import", decisions.md "Open to
//! other tools"), on both backends: personal API tokens within their scopes, trigger links
//! that ring through the push sink once per device and complete or snooze, the export, an
//! export brought back into an empty account, and iCalendar files (written in the formats
//! Google Calendar, Apple Reminders and Todoist export) whose imported reminders ring at the
//! instants an independent expander (Python icalendar + recurring_ical_events) gives.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{Backend, Options, PushSink, TestApp, expand_ics as expand, expect_error, json, unavailable, unique_email};

both_backends!(
    tokens_work_within_their_scopes,
    tokens_expire_and_are_limited,
    the_export_holds_everything_but_secrets_and_comes_back_the_same,
    calendar_files_ring_when_an_independent_expander_says,
    imports_take_at_most_the_limit_and_refuse_bad_files
);
crate::push_sink_tests!(setup; a_trigger_rings_once_per_device_completes_and_snoozes);

async fn setup(backend: Backend, redis: bool) -> Option<(TestApp, PushSink)> {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return None;
    };
    let app = TestApp::spawn(backend, Options { allow_private_push: true, redis, ..Default::default() }).await?;
    Some((app, sink))
}

async fn make_token(app: &TestApp, session: &str, scopes: &[&str]) -> (String, Value) {
    let r = app.post("/api/tokens", &json!({ "name": format!("script {}", scopes.join(" ")), "scopes": scopes }), Some(session)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let made = json(r).await["data"].clone();
    (made["token"].as_str().unwrap().to_owned(), made)
}

fn future(app: &TestApp, hours: i64) -> String {
    (app.now() + SignedDuration::from_hours(hours)).round(jiff::Unit::Second).unwrap().to_string()
}

/// A read token reads and is refused on writes; a write token writes; neither reaches sign-in,
/// sessions, tokens, the account, admin or settings (403 `INSUFFICIENT_SCOPE`); a deleted
/// token stops at once.
async fn tokens_work_within_their_scopes(app: &TestApp) {
    let (session, _) = app.sign_in(&unique_email()).await;
    let (read, made) = make_token(app, &session, &["reminders:read"]).await;
    assert!(read.starts_with("hbk_"), "{made}");
    assert_eq!((made["scopes"].clone(), made["last_used_at"].clone()), (json!(["reminders:read"]), Value::Null));
    let listed = json(app.get("/api/tokens", Some(&session)).await).await;
    assert!(listed["data"][0].get("token").is_none(), "shown once: {listed}");

    assert_eq!(app.get("/api/reminders", Some(&read)).await.status(), 200);
    let listed = json(app.get("/api/tokens", Some(&session)).await).await;
    assert!(listed["data"][0]["last_used_at"].is_string(), "its use is noted: {listed}");
    let body = json!({ "title": "from a script", "send_at": future(app, 2) });
    expect_error(app.post("/api/reminders", &body, Some(&read)).await, 403, "INSUFFICIENT_SCOPE").await;
    expect_error(app.get("/api/lists", Some(&read)).await, 403, "INSUFFICIENT_SCOPE").await;

    let (write, _) = make_token(app, &session, &["reminders:write", "lists:read"]).await;
    let r = app.post("/api/reminders", &body, Some(&write)).await;
    assert_eq!(r.status(), 201);
    let id = json(r).await["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.post(&format!("/api/reminders/{id}/complete"), &json!({}), Some(&write)).await.status(), 200);
    expect_error(app.get(&format!("/api/reminders/{id}"), Some(&write)).await, 403, "INSUFFICIENT_SCOPE").await;
    assert_eq!(app.get("/api/lists", Some(&write)).await.status(), 200);

    let (all, _) = make_token(app, &session, &["reminders:read", "reminders:write", "lists:read", "lists:write"]).await;
    for (method, path) in [
        ("GET", "/api/auth/session"),
        ("GET", "/api/auth/sessions"),
        ("POST", "/api/auth/logout"),
        ("GET", "/api/tokens"),
        ("POST", "/api/tokens"),
        ("GET", "/api/settings"),
        ("PUT", "/api/settings"),
        ("GET", "/api/admin/stats"),
        ("DELETE", "/api/account"),
        ("GET", "/api/channels"),
        ("POST", "/api/calendar/token"),
    ] {
        let req = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .bearer_auth(&all)
            .json(&json!({ "name": "x", "scopes": ["reminders:read"] }));
        expect_error(req.send().await.unwrap(), 403, "INSUFFICIENT_SCOPE").await;
    }
    // The account is still there and the session still works.
    assert_eq!(app.get("/api/auth/session", Some(&session)).await.status(), 200);

    // Deleted, it stops at once; a made-up one never worked.
    let id = made["id"].as_str().unwrap();
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.delete(&format!("/api/tokens/{id}"), &other).await, 404, "NOT_FOUND").await;
    assert_eq!(app.delete(&format!("/api/tokens/{id}"), &session).await.status(), 204);
    expect_error(app.get("/api/reminders", Some(&read)).await, 401, "AUTHENTICATION_REQUIRED").await;
    expect_error(app.get("/api/reminders", Some("hbk_made-up")).await, 401, "AUTHENTICATION_REQUIRED").await;

    for bad in [
        json!({ "name": "", "scopes": ["reminders:read"] }),
        json!({ "name": "x", "scopes": [] }),
        json!({ "name": "x", "scopes": ["admin"] }),
        json!({ "name": "x", "scopes": ["reminders:read"], "expires_in_days": 0 }),
        json!({ "name": "x", "scopes": ["reminders:read"], "expires_in_days": 366 }),
    ] {
        expect_error(app.post("/api/tokens", &bad, Some(&session)).await, 400, "VALIDATION_FAILED").await;
    }
}

/// A token with an expiry stops after it; at most 20 tokens.
async fn tokens_expire_and_are_limited(app: &TestApp) {
    let (session, _) = app.sign_in(&unique_email()).await;
    let r = app.post("/api/tokens", &json!({ "name": "a day", "scopes": ["reminders:read"], "expires_in_days": 1 }), Some(&session)).await;
    let made = json(r).await["data"].clone();
    let token = made["token"].as_str().unwrap().to_owned();
    let expires: Timestamp = made["expires_at"].as_str().unwrap().parse().unwrap();
    let expected = app.now() + SignedDuration::from_hours(24);
    assert!(expires.duration_since(expected).abs() < SignedDuration::from_secs(5), "{expires} is a day from now");
    assert_eq!(app.get("/api/reminders", Some(&token)).await.status(), 200);
    for i in 1..20 {
        let r = app.post("/api/tokens", &json!({ "name": format!("t{i}"), "scopes": ["lists:read"] }), Some(&session)).await;
        assert_eq!(r.status(), 201);
    }
    expect_error(
        app.post("/api/tokens", &json!({ "name": "one too many", "scopes": ["lists:read"] }), Some(&session)).await,
        409,
        "TOKEN_LIMIT",
    )
    .await;
    app.advance_clock(SignedDuration::from_hours(24) + SignedDuration::from_secs(1));
    expect_error(app.get("/api/reminders", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
}

fn path_of(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    rest[rest.find('/').unwrap()..].to_owned()
}

/// A trigger link rings now through the normal delivery (an entry of kind `trigger`, one push
/// per device), its page and `GET` never act, it snoozes and completes what rang; unknown
/// links are 404, at most 5 per reminder, 6 uses that act a minute.
async fn a_trigger_rings_once_per_device_completes_and_snoozes(app: &TestApp, sink: &PushSink) {
    let (session, _) = app.sign_in(&unique_email()).await;
    let (phone_sub, _) = sink.subscribe(app, &session, "en").await;
    let (laptop_sub, _) = sink.subscribe(app, &session, "en").await;
    let r = app
        .post(
            "/api/reminders",
            &json!({ "title": "Feed the cat", "send_at": future(app, 5), "recurrence": { "kind": "daily" } }),
            Some(&session),
        )
        .await;
    let reminder = json(r).await["data"].clone();
    let id = reminder["id"].as_str().unwrap();
    let r = app.post(&format!("/api/reminders/{id}/triggers"), &json!({}), Some(&session)).await;
    assert_eq!(r.status(), 201);
    let made = json(r).await["data"].clone();
    let url = made["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with(&format!("{}/t/", app.config.public_url.as_str().trim_end_matches('/'))), "{url}");
    let path = path_of(&url);
    let secret = path.trim_start_matches("/t/").to_owned();

    // The page is the app's, and neither it nor its data acts.
    std::fs::create_dir_all(&app.config.web_dir).unwrap();
    std::fs::write(app.config.web_dir.join("index.html"), "<!doctype html><title>Hibiki</title>").unwrap();
    let page = app.get(&path, None).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("<title>Hibiki</title>"), "the app's page");
    let seen = json(app.get(&format!("/api/triggers/{secret}"), None).await).await["data"].clone();
    assert_eq!(
        (seen["title"].as_str(), seen["ringing"].as_bool(), seen["is_active"].as_bool()),
        (Some("Feed the cat"), Some(false), Some(true))
    );
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&session)).await).await;
    assert_eq!(logs["data"].as_array().unwrap().len(), 0, "GET never acts");

    // Ring: no auth, an empty body; one push per device, an entry of kind trigger.
    let r = app.client.post(app.url(&path)).send().await.unwrap();
    assert_eq!(r.status(), 202);
    let log_id = json(r).await["data"]["log_id"].as_str().unwrap().to_owned();
    let first = sink.wait_for(laptop_sub["id"].as_str().unwrap(), 1, 15).await;
    assert_eq!(first.len(), 1);
    assert_eq!(first[0]["payload"]["notification"]["title"], "Feed the cat");
    app.settle().await;
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&session)).await).await;
    let entry = &logs["data"][0];
    assert_eq!((entry["id"].as_str(), entry["kind"].as_str()), (Some(log_id.as_str()), Some("trigger")), "{logs}");
    assert_eq!(entry["devices"].as_array().unwrap().len(), 2, "each device once: {logs}");
    assert_eq!(sink.wait_for(phone_sub["id"].as_str().unwrap(), 1, 15).await.len(), 1);
    // Every send of the entry has finished (none in flight, no job waiting): what the devices
    // hold now is all they get.
    app.settle().await;
    for sub in [&phone_sub, &laptop_sub] {
        assert_eq!(sink.received(sub["id"].as_str().unwrap()).await.len(), 1, "exactly once per device");
    }

    // It rang: the page says so; a snooze acts on that ring, then Complete is done early.
    let seen = json(app.get(&format!("/api/triggers/{secret}"), None).await).await["data"].clone();
    assert_eq!(seen["ringing"], true, "{seen}");
    let r = app.client.post(app.url(&path)).json(&json!({ "action": "snooze", "snooze_minutes": 10 })).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(json(r).await["data"]["changed"], true);
    let after = json(app.get(&format!("/api/reminders/{id}"), Some(&session)).await).await["data"].clone();
    let until: Timestamp = after["snoozed_until"].as_str().expect("snoozed").parse().unwrap();
    assert!(until.duration_since(app.now()).abs() <= SignedDuration::from_secs(601), "{after}");
    let r = app.client.post(app.url(&path)).header("content-type", "text/plain").body(r#"{"action":"complete"}"#).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let done = json(r).await["data"].clone();
    assert_eq!((done["action"].as_str(), done["changed"].as_bool()), (Some("complete"), Some(true)), "{done}");
    let after = json(app.get(&format!("/api/reminders/{id}"), Some(&session)).await).await["data"].clone();
    assert!(after["snoozed_until"].is_null(), "the snoozed occurrence is done: {after}");
    assert_eq!(after["scheduled_at"], reminder["scheduled_at"], "the next day's occurrence is next");

    // Bad bodies and unknown links.
    expect_error(app.client.post(app.url(&path)).json(&json!({ "action": "delete" })).send().await.unwrap(), 400, "VALIDATION_FAILED")
        .await;
    expect_error(app.client.post(app.url("/t/nope")).send().await.unwrap(), 404, "NOT_FOUND").await;
    expect_error(app.client.post(app.url(&format!("/t/{}", "A".repeat(43)))).send().await.unwrap(), 404, "NOT_FOUND").await;
    // Six uses a minute that act (the ring, the snooze, the complete, the bad body above and
    // two snoozes with nothing ringing): the seventh waits. The page's reads are not counted.
    for _ in 0..2 {
        let r = app.client.post(app.url(&path)).json(&json!({ "action": "snooze" })).send().await.unwrap();
        assert_eq!((r.status().as_u16(), json(r).await["data"]["changed"].clone()), (200, json!(false)), "nothing rings to snooze");
    }
    let r = app.client.post(app.url(&path)).send().await.unwrap();
    assert!(r.headers().contains_key("retry-after"));
    expect_error(r, 429, "RATE_LIMITED").await;
    assert_eq!(app.get(&format!("/api/triggers/{secret}"), None).await.status(), 200, "reading the page is not acting");

    // Another person sees nothing of it; at most 5 per reminder; a deleted link is gone.
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.get(&format!("/api/reminders/{id}/triggers"), Some(&other)).await, 404, "NOT_FOUND").await;
    for _ in 0..4 {
        assert_eq!(app.post(&format!("/api/reminders/{id}/triggers"), &json!({}), Some(&session)).await.status(), 201);
    }
    expect_error(app.post(&format!("/api/reminders/{id}/triggers"), &json!({}), Some(&session)).await, 409, "TRIGGER_LIMIT").await;
    let listed = json(app.get(&format!("/api/reminders/{id}/triggers"), Some(&session)).await).await["data"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 5);
    assert!(listed[0]["last_used_at"].is_string() && listed[0].get("url").is_none(), "{listed}");
    let tid = made["id"].as_str().unwrap();
    assert_eq!(app.delete(&format!("/api/reminders/{id}/triggers/{tid}"), &session).await.status(), 204);
    expect_error(app.get(&format!("/api/triggers/{secret}"), None).await, 404, "NOT_FOUND").await;
}

async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn import(app: &TestApp, token: &str, content_type: &str, body: impl Into<reqwest::Body>, dry_run: bool) -> reqwest::Response {
    let path = if dry_run { "/api/import?dry_run=true" } else { "/api/import" };
    app.client.post(app.url(path)).bearer_auth(token).header("content-type", content_type).body(body).send().await.unwrap()
}

async fn reminders_of(app: &TestApp, token: &str, status: &str) -> Vec<Value> {
    json(app.get(&format!("/api/reminders?status={status}"), Some(token)).await).await["data"].as_array().unwrap().clone()
}

/// The export holds settings, owned lists and every reminder (archived too) and no secrets;
/// imported into an empty account (a dry run first, which saves nothing), the active ones are
/// the same reminders with the same next occurrences, in a list of the same name.
async fn the_export_holds_everything_but_secrets_and_comes_back_the_same(app: &TestApp) {
    let (a, _) = app.sign_in(&unique_email()).await;
    assert_eq!(app.put("/api/settings", &json!({ "timezone": "Asia/Tokyo", "language": "ja" }), &a).await.status(), 200);
    let work = json(app.post("/api/lists", &json!({ "name": "Work", "colour": "teal" }), Some(&a)).await).await["data"].clone();
    let _ = app.post("/api/tokens", &json!({ "name": "secret", "scopes": ["reminders:read"] }), Some(&a)).await;
    let made = [
        create(app, &a, json!({ "title": "歯医者", "description": "保険証", "send_at": future(app, 30), "alerts": [{ "before_minutes": 60 }, { "before_minutes": 0 }] })).await,
        create(app, &a, json!({ "title": "Standup", "send_at": future(app, 20), "timezone": "America/New_York",
            "recurrence": { "kind": "custom", "days": ["mon", "thu"], "interval": 2, "count": 30 }, "list_id": work["id"] })).await,
        create(app, &a, json!({ "title": "Recycling", "send_at": future(app, 40),
            "recurrence": { "kind": "monthly", "week": 2, "weekday": "tue", "holidays": "skip" },
            "repeat_until_done": { "every_minutes": 5, "max_times": 3 }, "break_through": true })).await,
    ];
    let done = create(app, &a, json!({ "title": "Old errand", "send_at": future(app, 10) })).await;
    assert_eq!(app.post(&format!("/api/reminders/{}/complete", done["id"].as_str().unwrap()), &json!({}), Some(&a)).await.status(), 200);

    let r = app.get("/api/export", Some(&a)).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-disposition"].to_str().unwrap().starts_with("attachment"));
    let doc = json(r).await["data"].clone();
    let text = doc.to_string();
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["settings"]["timezone"], "Asia/Tokyo");
    assert_eq!(doc["reminders"].as_array().unwrap().len(), 4, "archived too: {doc}");
    assert!(doc["reminders"].as_array().unwrap().iter().any(|r| r["title"] == "Old errand" && r["is_active"] == false));
    assert!(doc["lists"].as_array().unwrap().iter().any(|l| l["name"] == "Work" && l["colour"] == "teal"));
    for secret in ["hbk_", "token_hash", "endpoint", "p256dh", "whsec_", "action_token", "calendar_token"] {
        assert!(!text.contains(secret), "no {secret} in the export");
    }

    let (b, _) = app.sign_in(&unique_email()).await;
    let r = import(app, &b, "application/json", doc.to_string(), true).await;
    assert_eq!(r.status(), 200);
    let dry = json(r).await["data"].clone();
    assert_eq!((dry["imported"].as_u64(), dry["dry_run"].as_bool()), (Some(3), Some(true)), "{dry}");
    assert_eq!(dry["skipped"][0]["reason"], "past", "the archived one: {dry}");
    assert!(reminders_of(app, &b, "all").await.is_empty(), "a dry run saves nothing");
    assert_eq!(json(app.get("/api/lists", Some(&b)).await).await["data"].as_array().unwrap().len(), 1);

    let report = json(import(app, &b, "application/json", doc.to_string(), false).await).await["data"].clone();
    assert_eq!(report["imported"], 3, "{report}");
    let theirs = reminders_of(app, &b, "active").await;
    let lists = json(app.get("/api/lists", Some(&b)).await).await["data"].clone();
    let b_work = lists.as_array().unwrap().iter().find(|l| l["name"] == "Work").expect("the list came too")["id"].clone();
    for mine in &made {
        let copy = theirs.iter().find(|r| r["title"] == mine["title"]).unwrap_or_else(|| panic!("{} imported", mine["title"]));
        for field in
            ["description", "send_at", "timezone", "recurrence", "alerts", "repeat_until_done", "break_through", "scheduled_at", "status"]
        {
            assert_eq!(copy[field], mine[field], "{field} of {}", mine["title"]);
        }
        let occurrences = |token: String, id: String| {
            let get = app.get(&format!("/api/reminders/{id}/occurrences?count=12"), Some(&token));
            async move { json(get.await).await["data"]["occurrences"].clone() }
        };
        assert_eq!(
            occurrences(b.clone(), copy["id"].as_str().unwrap().to_owned()).await,
            occurrences(a.clone(), mine["id"].as_str().unwrap().to_owned()).await
        );
        if mine["list_id"] == work["id"] {
            assert_eq!(copy["list_id"], b_work);
        }
    }
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Each fixture, imported: a dry run saves nothing and says the same as the import; what is
/// imported rings, over the next 45 days, at exactly the instants the independent expander
/// computes from the file; what Hibiki cannot express is skipped with its reason.
async fn calendar_files_ring_when_an_independent_expander_says(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    assert_eq!(app.put("/api/settings", &json!({ "timezone": "Asia/Tokyo" }), &token).await.status(), 200);
    // 45 days: the 50 occurrences asked of each reminder cover a daily one's window.
    let (start, end) = (app.now(), app.now() + SignedDuration::from_hours(24 * 45));
    let cases = [
        (
            "google-calendar.ics",
            vec![("Pay the rent", "unsupported_rule"), ("Eye drops", "unsupported_rule"), ("Dentist (last year)", "past")],
        ),
        ("apple-reminders.ics", vec![("Return the library books", "past"), ("Every minute ping", "unsupported_rule")]),
        ("todoist.ics", vec![("Stretch", "unsupported_rule")]),
    ];
    for (file, expected_skips) in cases {
        let ics = fixture(file);
        let Some(oracle) = expand(&ics, start, end) else {
            unavailable("the iCalendar expander (pip install icalendar recurring-ical-events, set HIBIKI_TEST_PYTHON)");
            return;
        };
        let dry = json(import(app, &token, "text/calendar", ics.clone(), true).await).await["data"].clone();
        let report = json(import(app, &token, "text/calendar; charset=utf-8", ics.clone(), false).await).await["data"].clone();
        assert_eq!(dry["imported"], report["imported"], "{file}: the dry run says what the import does");
        let reasons: Vec<(String, String)> = report["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| (s["title"].as_str().unwrap_or_default().to_owned(), s["reason"].as_str().unwrap().to_owned()))
            .collect();
        let expected: Vec<(String, String)> = expected_skips.iter().map(|(t, r)| (t.to_string(), r.to_string())).collect();
        assert_eq!(reasons, expected, "{file}: {report}");
        // Every imported item's instants in the window, by UID (a changed instance is an item
        // of its own, "UID (RECURRENCE-ID)").
        let mut ours: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for item in report["items"].as_array().unwrap() {
            let uid = item["item"].as_str().unwrap().split(" (").next().unwrap().to_owned();
            let id = item["reminder_id"].as_str().expect("made");
            let occ = json(app.get(&format!("/api/reminders/{id}/occurrences?count=50"), Some(&token)).await).await;
            let within = occ["data"]["occurrences"].as_array().unwrap().iter().filter_map(|t| t.as_str()).filter(|t| {
                let at: Timestamp = t.parse().unwrap();
                at > start && at < end
            });
            ours.entry(uid).or_default().extend(within.map(str::to_owned));
        }
        for (uid, instants) in ours.iter_mut() {
            instants.sort();
            let theirs: Vec<String> = oracle
                .get(uid)
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            let theirs: Vec<String> = theirs.into_iter().filter(|t| t.parse::<Timestamp>().unwrap() > start).collect();
            assert_eq!(*instants, theirs, "{file} {uid}");
        }
        let timed: Vec<&String> = oracle.as_object().unwrap().keys().filter(|uid| !ours.contains_key(*uid)).collect();
        for uid in timed {
            assert!(
                report["skipped"].as_array().unwrap().iter().any(|s| s["item"].as_str().unwrap().starts_with(uid.as_str())),
                "{file}: {uid} is neither imported nor skipped"
            );
        }
    }
    // The imported alerts are the file's alarms.
    let all = reminders_of(app, &token, "active").await;
    let pill = all.iter().find(|r| r["title"] == "Blood pressure pill").unwrap();
    assert_eq!(pill["alerts"], json!([{ "before_minutes": 10 }, { "before_minutes": 0 }]));
    assert_eq!(pill["description"], "Take the blood pressure pill with water");
    assert_eq!(pill["recurrence"]["kind"], "weekdays");
    let garbage = all.iter().find(|r| r["title"] == "資源ごみの日, 缶とびん").expect("text unescaped");
    assert_eq!(garbage["timezone"], "Asia/Tokyo");
    let party = all.iter().find(|r| r["title"] == "Tanabata party").expect("an all-day event");
    assert_eq!(party["send_at"], "2034-07-06T23:00:00Z", "a date alone rings at the morning time (08:00) in the person's zone");
}

/// Over the 100 active reminders, the rest are skipped as `limit` (a dry run says so too); a
/// file over 1 MiB is 413, another type 415, broken JSON 400 and a text that is not
/// iCalendar 400.
async fn imports_take_at_most_the_limit_and_refuse_bad_files(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let base = app.now().round(jiff::Unit::Second).unwrap() + SignedDuration::from_hours(48);
    let mut ics = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n");
    for i in 0..102 {
        let at = (base + SignedDuration::from_mins(i)).strftime("%Y%m%dT%H%M%SZ");
        ics.push_str(&format!("BEGIN:VEVENT\r\nUID:n{i}\r\nSUMMARY:Item {i}\r\nDTSTART:{at}\r\nEND:VEVENT\r\n"));
    }
    ics.push_str("END:VCALENDAR\r\n");
    create(app, &token, json!({ "title": "already here", "send_at": future(app, 3) })).await;
    let dry = json(import(app, &token, "text/calendar", ics.clone(), true).await).await["data"].clone();
    assert_eq!(dry["imported"], 99, "{dry}");
    assert_eq!(dry["skipped"].as_array().unwrap().iter().filter(|s| s["reason"] == "limit").count(), 3);
    assert_eq!(reminders_of(app, &token, "active").await.len(), 1);
    let report = json(import(app, &token, "text/calendar", ics, false).await).await["data"].clone();
    assert_eq!(report["imported"], 99);
    assert_eq!(report["skipped"][0]["item"], "n99");
    assert_eq!(reminders_of(app, &token, "active").await.len(), 100);

    let (fresh, _) = app.sign_in(&unique_email()).await;
    let huge = format!("BEGIN:VCALENDAR\r\nX-PAD:{}\r\nEND:VCALENDAR\r\n", "x".repeat(1024 * 1024));
    expect_error(import(app, &fresh, "text/calendar", huge, false).await, 413, "PAYLOAD_TOO_LARGE").await;
    expect_error(import(app, &fresh, "text/plain", "BEGIN:VCALENDAR", false).await, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    expect_error(import(app, &fresh, "application/json", "{\"version\": 1,", false).await, 400, "INVALID_JSON").await;
    expect_error(
        import(app, &fresh, "application/json", "{\"version\": 7, \"exported_at\": \"2026-01-01T00:00:00Z\", \"reminders\": []}", false)
            .await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    expect_error(import(app, &fresh, "text/calendar", "hello", false).await, 400, "VALIDATION_FAILED").await;
    // Nested a hundred thousand deep (a parser that recursed would take the process down).
    let deep = format!("BEGIN:VCALENDAR\r\n{}", "BEGIN:VEVENT\r\n".repeat(70_000));
    expect_error(import(app, &fresh, "text/calendar", deep, false).await, 400, "VALIDATION_FAILED").await;
    assert_eq!(app.get("/api/health", None).await.status(), 200, "still serving");
    // A file well under the API's usual 64 KiB limit is not the only kind taken: 300 KiB is.
    let mut big = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n");
    while big.len() < 300 * 1024 {
        big.push_str("X-NOTE:padding padding padding padding padding padding padding padding\r\n");
    }
    big.push_str(&format!(
        "BEGIN:VEVENT\r\nUID:big\r\nSUMMARY:Big file\r\nDTSTART:{}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        base.strftime("%Y%m%dT%H%M%SZ")
    ));
    let r = import(app, &fresh, "text/calendar", big, false).await;
    assert_eq!(r.status(), 200);
    assert_eq!(json(r).await["data"]["imported"], 1);
    // A token needs both reads to export, both writes to import.
    let (read, _) = make_token(app, &fresh, &["reminders:read"]).await;
    expect_error(app.get("/api/export", Some(&read)).await, 403, "INSUFFICIENT_SCOPE").await;
    let (both, _) = make_token(app, &fresh, &["reminders:read", "lists:read"]).await;
    assert_eq!(app.get("/api/export", Some(&both)).await.status(), 200);
    expect_error(import(app, &both, "text/calendar", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", false).await, 403, "INSUFFICIENT_SCOPE").await;
}
