//! Delivery in a shared list (decisions.md "Households", api.md's `done` push, log `action_by`
//! and per-device `user_id`) through the real push sink, on both queue backends: a shared
//! reminder rings each member's devices once, each in their own language; assignees and
//! rotation choose who; Complete by one replaces the other's notification with a quiet `done`
//! one; a snooze rings again only for whoever snoozed.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::helpers::{Backend, Options, PushSink, TestApp, json, unique_email};

/// Two people sharing a list, each with one device of the push sink.
pub(crate) struct Household {
    pub(crate) owner: Person,
    pub(crate) guest: Person,
    pub(crate) list: String,
}

pub(crate) struct Person {
    pub(crate) token: String,
    pub(crate) id: String,
    pub(crate) email: String,
    /// The push sink's name for the device, and Hibiki's.
    pub(crate) device: String,
    subscription: String,
}

async fn person(app: &TestApp, sink: &PushSink, language: &str) -> Person {
    let email = unique_email();
    let (token, user) = app.sign_in(&email).await;
    assert_eq!(app.put("/api/settings", &json!({ "language": language }), &token).await.status(), 200);
    let sub = sink.subscription().await;
    let r = app
        .post(
            "/api/notifications?action=subscribe",
            &json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                     "device_info": { "user_agent": "test", "platform": "linux", "language": language, "timezone": "UTC" } }),
            Some(&token),
        )
        .await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let subscription = json(r).await["data"]["id"].as_str().unwrap().to_owned();
    Person { token, id: user["id"].as_str().unwrap().to_owned(), email, device: sub["id"].as_str().unwrap().to_owned(), subscription }
}

/// The owner (Japanese) makes a list and invites the guest (English), who accepts.
pub(crate) async fn household(app: &TestApp, sink: &PushSink) -> Household {
    let (owner, guest) = (person(app, sink, "ja").await, person(app, sink, "en").await);
    let r = app.post("/api/lists", &json!({ "name": "家" }), Some(&owner.token)).await;
    let list = json(r).await["data"]["id"].as_str().unwrap().to_owned();
    let before = app.read_mails(&guest.email).len();
    let r = app.post(&format!("/api/lists/{list}/invites"), &json!({ "email": guest.email }), Some(&owner.token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let (_, body) = app.mails_for(&guest.email, before + 1).await.last().unwrap().clone();
    let link = body.split("/invite#token=").nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest.token)).await.status(), 200);
    Household { owner, guest, list }
}

async fn create(app: &TestApp, token: &str, body: Value) -> String {
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"]["id"].as_str().unwrap().to_owned()
}

fn notification(push: &Value) -> &Value {
    &push["payload"]["notification"]
}

fn minute_ahead(app: &TestApp) -> Timestamp {
    Timestamp::from_second(app.now().as_second() + 60).unwrap()
}

/// Both members' devices ring once at the second, each in its person's language; the guest's
/// Complete (by their push's token alone) completes it for both, the owner's notification is
/// replaced by a quiet `done` one naming the guest, and the log says who acted and whose
/// device each was.
async fn a_shared_reminder_rings_everyone_and_done_by_one_quiets_the_other(app: &TestApp, sink: &PushSink) {
    let h = household(app, sink).await;
    let due = minute_ahead(app);
    let body = json!({ "title": "燃えるゴミ", "send_at": due.to_string(), "list_id": h.list,
                       "repeat_until_done": { "every_minutes": 5, "max_times": 3 } });
    let id = create(app, &h.guest.token, body).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let (mine, theirs) = (sink.received(&h.owner.device).await, sink.received(&h.guest.device).await);
    assert_eq!((mine.len(), theirs.len()), (1, 1), "once each: {mine:?} {theirs:?}");
    assert_eq!(notification(&mine[0])["body"], "リマインダーの時間です。");
    assert_eq!(notification(&theirs[0])["body"], "It's time.");
    let (a, b) = (&notification(&mine[0])["data"], &notification(&theirs[0])["data"]);
    assert_eq!(a["log_id"], b["log_id"], "one entry, rung for both");
    assert_ne!(a["action_token"], b["action_token"], "each person's token names them");

    // The guest's device showed it; then the guest completes from the notification.
    let ack = json!({ "log_id": b["log_id"], "action_token": b["action_token"], "endpoint": Value::Null });
    assert_eq!(app.post("/api/notifications?action=ack", &ack, None).await.status(), 204);
    let complete = json!({ "reminder_id": id, "log_id": b["log_id"], "action": "complete", "action_token": b["action_token"] });
    let r = app.post("/api/reminders?action=handle", &complete, None).await;
    assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    assert_eq!(json(r).await["data"]["status"], "completed");
    let mine = sink.wait_for(&h.owner.device, 2, 15).await;
    let done = notification(&mine[1]);
    assert_eq!((done["data"]["type"].as_str(), done["data"]["by"].as_str()), (Some("done"), Some(h.guest.email.as_str())));
    assert_eq!((done["tag"].as_str(), done["silent"].as_bool()), (Some(id.as_str()), Some(true)));
    assert_eq!(done["body"], format!("{} さんが完了しました。", h.guest.email));
    // Nothing more for anyone: no repeats, and no email fallback (both have it on, 5 minutes).
    app.run_until(due + SignedDuration::from_mins(30)).await;
    assert_eq!(sink.received(&h.guest.device).await.len(), 1, "who completed it gets no done message");
    assert_eq!(sink.received(&h.owner.device).await.len(), 2, "no repeat after the guest's Complete");
    for p in [&h.owner, &h.guest] {
        assert!(!app.read_mails(&p.email).iter().any(|(subject, _)| subject.contains("燃えるゴミ")), "no fallback email");
    }

    // The history, as either of them reads it.
    for token in [&h.owner.token, &h.guest.token] {
        let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(token)).await).await;
        let entry = &logs["data"][0];
        assert_eq!((entry["action"].as_str(), entry["action_by"].as_str()), (Some("complete"), Some(h.guest.id.as_str())), "{logs}");
        let mut whose: Vec<(String, String)> = entry["devices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["user_id"].as_str().unwrap().to_owned(), d["subscription_id"].as_str().unwrap().to_owned()))
            .collect();
        whose.sort();
        let mut expected = vec![(h.owner.id.clone(), h.owner.subscription.clone()), (h.guest.id.clone(), h.guest.subscription.clone())];
        expected.sort();
        assert_eq!(whose, expected, "{logs}");
        let shown: Vec<&str> = entry["devices"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| !d["shown_at"].is_null())
            .map(|d| d["user_id"].as_str().unwrap())
            .collect();
        assert_eq!(shown, [h.guest.id.as_str()], "the guest's acknowledgement is for the guest's device: {logs}");
    }
}

/// Assignees: only the guest's device rings. Rotation: the occurrences answer says whose turn
/// each is, and each day rings only for that person, in the order given.
async fn assignees_and_rotation_choose_who_rings(app: &TestApp, sink: &PushSink) {
    let h = household(app, sink).await;
    let due = minute_ahead(app);
    let body = json!({ "title": "Plants", "send_at": due.to_string(), "list_id": h.list, "assignees": [h.guest.id] });
    create(app, &h.owner.token, body).await;
    let rotating = json!({ "title": "Rubbish", "send_at": (due + SignedDuration::from_mins(1)).to_string(), "list_id": h.list,
                           "recurrence": { "kind": "daily" }, "assignees": [h.guest.id, h.owner.id], "rotate": true });
    let rotating = create(app, &h.owner.token, rotating).await;
    let next = json(app.get(&format!("/api/reminders/{rotating}/occurrences?count=3"), Some(&h.guest.token)).await).await;
    assert_eq!(next["data"]["assignees"], json!([h.guest.id, h.owner.id, h.guest.id]), "{next}");

    app.run_until(due + SignedDuration::from_secs(1)).await;
    assert_eq!(sink.received(&h.owner.device).await.len(), 0, "not assigned to the owner");
    assert_eq!(sink.received(&h.guest.device).await.len(), 1);
    // Day one is the guest's turn, day two the owner's, day three the guest's again.
    let first = due + SignedDuration::from_mins(1);
    let titles = |pushes: Vec<Value>| -> Vec<String> {
        pushes.iter().map(|p| notification(p)["title"].as_str().unwrap().to_owned()).filter(|t| t == "Rubbish").collect()
    };
    for (day, (owner_rings, guest_rings)) in [(0, (0, 1)), (1, (1, 1)), (2, (1, 2))] {
        app.run_until(first + SignedDuration::from_hours(24 * day) + SignedDuration::from_secs(1)).await;
        let counts = (titles(sink.received(&h.owner.device).await).len(), titles(sink.received(&h.guest.device).await).len());
        assert_eq!(counts, (owner_rings, guest_rings), "day {day}");
    }
    let next = json(app.get(&format!("/api/reminders/{rotating}/occurrences?count=2"), Some(&h.owner.token)).await).await;
    assert_eq!(next["data"]["assignees"], json!([h.owner.id, h.guest.id]), "the turn moved on: {next}");
}

/// Each person's snooze rings again for them alone, each at their own time; the other's
/// does not undo it.
async fn a_snooze_is_for_the_one_who_snoozed(app: &TestApp, sink: &PushSink) {
    let h = household(app, sink).await;
    let due = minute_ahead(app);
    let id = create(app, &h.owner.token, json!({ "title": "Tea", "send_at": due.to_string(), "list_id": h.list })).await;
    app.run_until(due + SignedDuration::from_secs(1)).await;
    let log_id = notification(&sink.received(&h.owner.device).await[0])["data"]["log_id"].clone();
    for (token, minutes) in [(&h.owner.token, 5), (&h.guest.token, 10)] {
        let snooze = json!({ "reminder_id": id, "log_id": log_id, "action": "snooze", "snooze_minutes": minutes });
        let r = app.post("/api/reminders?action=handle", &snooze, Some(token)).await;
        assert_eq!(r.status(), 200, "{}", r.text().await.unwrap());
    }
    // Each sees their own snooze.
    for (p, minutes) in [(&h.owner, 5), (&h.guest, 10)] {
        let r = json(app.get(&format!("/api/reminders/{id}"), Some(&p.token)).await).await;
        let until: Timestamp = r["data"]["snoozed_until"].as_str().unwrap().parse().unwrap();
        let asked = until.duration_since(due).as_secs();
        assert!((minutes * 60..minutes * 60 + 2).contains(&asked), "{minutes} min: {r}");
    }
    // (each snooze counts from the second it was asked, a moment after the ring)
    app.run_until(due + SignedDuration::from_mins(6)).await;
    let (mine, theirs) = (sink.received(&h.owner.device).await, sink.received(&h.guest.device).await);
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&h.guest.token)).await).await;
    assert_eq!((mine.len(), theirs.len()), (2, 1), "five minutes on, the owner's snooze only: {logs}");
    assert_eq!(notification(&mine[1])["data"]["kind"], "snooze");
    app.run_until(due + SignedDuration::from_mins(11)).await;
    let (mine, theirs) = (sink.received(&h.owner.device).await, sink.received(&h.guest.device).await);
    assert_eq!((mine.len(), theirs.len()), (2, 2), "ten minutes on, the guest's");
    assert_eq!(notification(&theirs[1])["data"]["kind"], "snooze");
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&h.guest.token)).await).await;
    let snoozes: Vec<&Value> = logs["data"].as_array().unwrap().iter().filter(|e| e["kind"] == "snooze").collect();
    assert_eq!(snoozes.len(), 2, "{logs}");
    assert!(snoozes.iter().all(|e| e["devices"].as_array().unwrap().len() == 1), "each for one device: {logs}");
}

/// The subjects of the mails to `email` about `title`, once `expected` of them arrived (the
/// mail worker sends after the claim); expecting none, after a second for one that should not
/// come; at most 10 s.
async fn fallbacks(app: &TestApp, email: &str, title: &str, expected: usize) -> Vec<String> {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    loop {
        let subjects: Vec<String> = app.read_mails(email).into_iter().map(|(subject, _)| subject).filter(|s| s.contains(title)).collect();
        let waited = started.elapsed();
        let done = if expected == 0 { waited > Duration::from_secs(1) } else { subjects.len() >= expected };
        if done || waited > Duration::from_secs(10) {
            return subjects;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Nobody's device shows a shared ring: each person gets their own fallback email, in their
/// own language, at their own delay. Removed from the list, the guest gets nothing more.
async fn each_their_own_fallback_and_a_removed_member_gets_nothing(app: &TestApp, sink: &PushSink) {
    let h = household(app, sink).await;
    assert_eq!(app.put("/api/settings", &json!({ "email_fallback_minutes": 15 }), &h.guest.token).await.status(), 200);
    let due = minute_ahead(app);
    let recycling = create(app, &h.owner.token, json!({ "title": "Recycling", "send_at": due.to_string(), "list_id": h.list })).await;
    app.run_until(due + SignedDuration::from_mins(6)).await;
    assert_eq!(fallbacks(app, &h.owner.email, "Recycling", 1).await, ["Hibiki リマインダー: Recycling"], "the owner's 5 minutes");
    assert_eq!(fallbacks(app, &h.guest.email, "Recycling", 0).await, Vec::<String>::new(), "the guest waits 15");
    // Each reads whether it was emailed to them.
    let emailed = |p: &Person| {
        let (token, id) = (p.token.clone(), recycling.clone());
        async move { json(app.get(&format!("/api/reminders/{id}/logs"), Some(&token)).await).await["data"][0]["emailed_at"].is_string() }
    };
    assert_eq!((emailed(&h.owner).await, emailed(&h.guest).await), (true, false));
    app.run_until(due + SignedDuration::from_mins(16)).await;
    assert_eq!(fallbacks(app, &h.guest.email, "Recycling", 1).await, ["Hibiki reminder: Recycling"]);
    assert_eq!(fallbacks(app, &h.owner.email, "Recycling", 1).await.len(), 1, "once each");
    assert_eq!((emailed(&h.owner).await, emailed(&h.guest).await), (true, true));

    let r = app.delete(&format!("/api/lists/{}/members/{}", h.list, h.guest.id), &h.owner.token).await;
    assert_eq!(r.status(), 204);
    let later = minute_ahead(app);
    create(app, &h.owner.token, json!({ "title": "Glass", "send_at": later.to_string(), "list_id": h.list })).await;
    app.run_until(later + SignedDuration::from_mins(20)).await;
    let glass = |pushes: Vec<Value>| pushes.iter().filter(|p| notification(p)["title"] == "Glass").count();
    assert_eq!(glass(sink.received(&h.owner.device).await), 1);
    assert_eq!(glass(sink.received(&h.guest.device).await), 0, "removed: no ring");
    assert!(!app.read_mails(&h.guest.email).iter().any(|(s, _)| s.contains("Glass")), "removed: no email");
}

/// Send now and a trigger link on a shared reminder whose `send_to` names the owner's phone,
/// pressed by the member: the member's phone rings (that choice narrows only the owner's
/// devices), the answer says one device and no email, and the entry is not `no_devices`.
async fn a_members_send_now_and_trigger_link_ring_the_members_phone(app: &TestApp, sink: &PushSink) {
    let h = household(app, sink).await;
    let later = Timestamp::from_second(app.now().as_second() + 3600).unwrap();
    let body = json!({ "title": "Recycling", "send_at": later.to_string(), "list_id": h.list, "send_to": [h.owner.subscription] });
    let id = create(app, &h.owner.token, body).await;

    let r = app.post(&format!("/api/reminders/{id}/send"), &json!({}), Some(&h.guest.token)).await;
    assert_eq!(r.status(), 202, "{}", r.text().await.unwrap());
    let sent = json(r).await["data"].clone();
    assert_eq!((sent["devices"].as_u64(), sent["email"].as_bool()), (Some(1), Some(false)), "{sent}");
    let theirs = sink.wait_for(&h.guest.device, 1, 15).await;
    assert_eq!(notification(&theirs[0])["title"], "Recycling");

    let r = app.post(&format!("/api/reminders/{id}/triggers"), &json!({}), Some(&h.guest.token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let url = json(r).await["data"]["url"].as_str().unwrap().to_owned();
    let path = format!("/t/{}", url.rsplit("/t/").next().unwrap());
    let r = app.client.post(app.url(&path)).send().await.unwrap();
    assert_eq!(r.status(), 202, "{}", r.text().await.unwrap());
    assert_eq!(sink.wait_for(&h.guest.device, 2, 15).await.len(), 2);

    app.settle().await;
    assert!(sink.received(&h.owner.device).await.is_empty(), "Send now and a trigger ring for who pressed them");
    let logs = json(app.get(&format!("/api/reminders/{id}/logs"), Some(&h.guest.token)).await).await;
    let entries = logs["data"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{logs}");
    for entry in entries {
        assert_ne!(entry["status"], "no_devices", "{logs}");
        assert_eq!(entry["devices"].as_array().unwrap().len(), 1, "{logs}");
    }
    assert!(!app.read_mails(&h.guest.email).iter().any(|(s, _)| s.contains("Recycling")), "no email: a device had it");
}

async fn setup(backend: Backend, redis: bool) -> Option<(TestApp, PushSink)> {
    crate::helpers::sink_app(backend, Options { redis, smtp: true, ..Default::default() }).await
}

crate::push_sink_tests!(
    setup;
    a_shared_reminder_rings_everyone_and_done_by_one_quiets_the_other,
    assignees_and_rotation_choose_who_rings,
    a_snooze_is_for_the_one_who_snoozed,
    each_their_own_fallback_and_a_removed_member_gets_nothing,
    a_members_send_now_and_trigger_link_ring_the_members_phone
);
