//! Sharing a list (decisions.md "Households", api.md "Lists and sharing"): invitations by email
//! through a real SMTP server (in the owner's language, a link that peeks without spending and
//! accepts once, for the invited address only), members who see and edit the list's reminders
//! but cannot rename, delete or invite, limits (10 people with pending invitations, 10 a day),
//! remove, leave, cancel, expiry and account deletion; on SQLite and on PostgreSQL.

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    an_invitation_is_mailed_peeked_and_accepted_once => Options { smtp: true, ..Default::default() },
    members_share_reminders_but_only_the_owner_manages => Options { smtp: true, ..Default::default() },
    ten_people_and_ten_invitations_a_day => Options { smtp: true, ..Default::default() },
    removing_leaving_cancelling_and_expiry => Options { smtp: true, ..Default::default() },
    deleting_the_owner_takes_the_shared_list => Options { smtp: true, ..Default::default() },
    the_calendar_feed_holds_the_shared_reminders_that_ring_for_them => Options { smtp: true, ..Default::default() },
);

async fn make_list(app: &TestApp, token: &str, name: &str) -> String {
    let r = app.post("/api/lists", &json!({ "name": name }), Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"]["id"].as_str().unwrap().to_owned()
}

async fn invite(app: &TestApp, token: &str, list: &str, email: &str) -> reqwest::Response {
    app.post(&format!("/api/lists/{list}/invites"), &json!({ "email": email }), Some(token)).await
}

/// Invites `email` and reads the invitation's token from the mail it gets.
async fn invited(app: &TestApp, token: &str, list: &str, email: &str) -> (Value, String, String) {
    let before = app.read_mails(email).len();
    let r = invite(app, token, list, email).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let made = json(r).await["data"].clone();
    let mails = app.mails_for(email, before + 1).await;
    let (subject, body) = mails.last().unwrap().clone();
    let link_token = body.split("/invite#token=").nth(1).expect("an invitation link").split_whitespace().next().unwrap().to_owned();
    (made, link_token, format!("{subject}\n{body}"))
}

async fn lists(app: &TestApp, token: &str) -> Vec<Value> {
    json(app.get("/api/lists", Some(token)).await).await["data"].as_array().unwrap().clone()
}

fn in_an_hour(app: &TestApp) -> String {
    Timestamp::from_second(app.now().as_second() + 3600).unwrap().to_string()
}

async fn an_invitation_is_mailed_peeked_and_accepted_once(app: &TestApp) {
    let (owner_email, guest_email) = (unique_email(), unique_email());
    let (owner, _) = app.sign_in(&owner_email).await;
    app.put("/api/settings", &json!({ "language": "ja" }), &owner).await;
    let list = make_list(app, &owner, "ゴミ出し").await;
    let before = app.now();
    let (made, link, mail) = invited(app, &owner, &list, &guest_email).await;
    let after = app.now();
    assert_eq!(made["email"], json!(guest_email));
    let expires: Timestamp = made["expires_at"].as_str().unwrap().parse().unwrap();
    let week = SignedDuration::from_hours(7 * 24);
    assert!(before + week <= expires && expires <= after + week, "valid 7 days from the invitation: {expires}");
    // In the owner's language, naming the list, who invites and the address to sign in with.
    assert!(mail.contains("ゴミ出し") && mail.contains("招待"), "{mail}");
    assert!(mail.contains(&owner_email) && mail.contains(&guest_email), "{mail}");
    assert!(!mail.contains("/en/invite"), "a Japanese link: {mail}");

    // Peeking needs no session, spends nothing, and masks the addresses.
    for _ in 0..2 {
        let r = app.post("/api/invites/peek", &json!({ "token": link }), None).await;
        assert_eq!(r.status(), 200);
        let peek = json(r).await["data"].clone();
        assert_eq!(peek["list_name"], "ゴミ出し");
        assert!(peek["inviter"].as_str().unwrap().contains("***@"), "{peek}");
        assert!(!peek["email"].as_str().unwrap().contains(guest_email.split('@').next().unwrap()), "{peek}");
    }
    expect_error(app.post("/api/invites/peek", &json!({ "token": "not-a-token" }), None).await, 400, "INVITE_INVALID").await;
    // Accepting needs a session.
    expect_error(app.post("/api/invites/accept", &json!({ "token": link }), None).await, 401, "AUTHENTICATION_REQUIRED").await;

    // Another account cannot take it, and does not spend it.
    let (stranger, _) = app.sign_in(&unique_email()).await;
    expect_error(app.post("/api/invites/accept", &json!({ "token": link }), Some(&stranger)).await, 403, "INVITE_WRONG_ACCOUNT").await;
    assert_eq!(lists(app, &stranger).await.len(), 1);

    let (guest, guest_user) = app.sign_in(&guest_email).await;
    let r = app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await;
    assert_eq!(r.status(), 200);
    let joined = json(r).await["data"].clone();
    assert_eq!((joined["name"].as_str(), joined["role"].as_str(), joined["members"].as_i64()), (Some("ゴミ出し"), Some("member"), Some(2)));
    let theirs: Vec<Value> = lists(app, &guest).await.iter().map(|l| json!([l["name"], l["role"]])).collect();
    assert_eq!(theirs, [json!(["Reminders", "owner"]), json!(["ゴミ出し", "member"])]);
    // Once only.
    expect_error(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await, 400, "INVITE_INVALID").await;
    expect_error(app.post("/api/invites/peek", &json!({ "token": link }), None).await, 400, "INVITE_INVALID").await;

    // Co-members see each other's addresses, the owner first.
    let members = json(app.get(&format!("/api/lists/{list}/members"), Some(&guest)).await).await["data"].clone();
    let seen: Vec<Value> = members.as_array().unwrap().iter().map(|m| json!([m["email"], m["role"]])).collect();
    assert_eq!(seen, [json!([owner_email, "owner"]), json!([guest_email, "member"])]);
    assert_eq!(members[1]["user_id"], guest_user["id"]);
    expect_error(app.get(&format!("/api/lists/{list}/members"), Some(&stranger)).await, 404, "NOT_FOUND").await;
    // Inviting someone already in it, or oneself, is ALREADY_MEMBER.
    expect_error(invite(app, &owner, &list, &guest_email).await, 409, "ALREADY_MEMBER").await;
    expect_error(invite(app, &owner, &list, &owner_email.to_uppercase()).await, 409, "ALREADY_MEMBER").await;
    let body = expect_error(invite(app, &owner, &list, "not an address").await, 400, "VALIDATION_FAILED").await;
    assert!(body["error"]["fields"]["email"].is_string());
}

async fn members_share_reminders_but_only_the_owner_manages(app: &TestApp) {
    let guest_email = unique_email();
    let (owner, owner_user) = app.sign_in(&unique_email()).await;
    let list = make_list(app, &owner, "Home").await;
    let (_, link, _) = invited(app, &owner, &list, &guest_email).await;
    let (guest, guest_user) = app.sign_in(&guest_email).await;
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await.status(), 200);

    // The owner's reminder in the list is the guest's to see, edit and complete.
    let body = json!({ "title": "Burnable rubbish", "send_at": in_an_hour(app), "list_id": list, "recurrence": { "kind": "weekly" } });
    let shared = json(app.post("/api/reminders", &body, Some(&owner)).await).await["data"].clone();
    let path = format!("/api/reminders/{}", shared["id"].as_str().unwrap());
    assert_eq!(json(app.get(&path, Some(&guest)).await).await["data"]["title"], "Burnable rubbish");
    let titles = |v: Value| v["data"].as_array().unwrap().iter().map(|r| r["title"].clone()).collect::<Vec<_>>();
    assert_eq!(titles(json(app.get(&format!("/api/reminders?list_id={list}"), Some(&guest)).await).await), [json!("Burnable rubbish")]);
    let r = app.put(&path, &json!({ "title": "Burnable rubbish (Tue)" }), &guest).await;
    assert_eq!(r.status(), 200);

    // The guest adds one: it is the list owner's (their limit), made by the guest, rings for whom they name.
    let body = json!({ "title": "Cans", "send_at": in_an_hour(app), "list_id": list,
                       "assignees": [guest_user["id"], owner_user["id"]], "rotate": true });
    let r = app.post("/api/reminders", &body, Some(&guest)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let cans = json(r).await["data"].clone();
    assert_eq!(cans["user_id"], owner_user["id"]);
    assert_eq!(cans["created_by"], guest_user["id"]);
    assert_eq!(cans["assignees"], json!([guest_user["id"], owner_user["id"]]));
    assert_eq!(lists(app, &owner).await[1]["active_reminders"], 2);
    // The guest's own lists stay theirs: the owner does not see them.
    let guest_default = lists(app, &guest).await[0]["id"].as_str().unwrap().to_owned();
    expect_error(app.get(&format!("/api/lists/{guest_default}/members"), Some(&owner)).await, 404, "NOT_FOUND").await;

    // Only the owner renames, deletes and invites.
    expect_error(app.put(&format!("/api/lists/{list}"), &json!({ "name": "Mine" }), &guest).await, 403, "FORBIDDEN").await;
    expect_error(app.delete(&format!("/api/lists/{list}"), &guest).await, 403, "FORBIDDEN").await;
    expect_error(invite(app, &guest, &list, &unique_email()).await, 403, "FORBIDDEN").await;
    expect_error(app.get(&format!("/api/lists/{list}/invites"), Some(&guest)).await, 403, "FORBIDDEN").await;
    // A member deletes a reminder of the list.
    assert_eq!(app.delete(&format!("/api/reminders/{}", cans["id"].as_str().unwrap()), &guest).await.status(), 204);
    assert_eq!(lists(app, &owner).await[1]["active_reminders"], 1);
}

async fn ten_people_and_ten_invitations_a_day(app: &TestApp) {
    let (owner, _) = app.sign_in(&unique_email()).await;
    let first = make_list(app, &owner, "Big").await;
    // The owner and nine pending invitations make ten people.
    for _ in 0..9 {
        assert_eq!(invite(app, &owner, &first, &unique_email()).await.status(), 201);
    }
    expect_error(invite(app, &owner, &first, &unique_email()).await, 409, "MEMBER_LIMIT").await;
    let pending = json(app.get(&format!("/api/lists/{first}/invites"), Some(&owner)).await).await["data"].as_array().unwrap().len();
    assert_eq!(pending, 9);
    // The tenth invitation of the day (to another list) goes; the eleventh waits for the day.
    let second = make_list(app, &owner, "Small").await;
    assert_eq!(invite(app, &owner, &second, &unique_email()).await.status(), 201);
    let r = invite(app, &owner, &second, &unique_email()).await;
    assert!(r.headers().contains_key("retry-after"));
    expect_error(r, 429, "RATE_LIMITED").await;
    app.advance_clock(SignedDuration::from_hours(25));
    assert_eq!(invite(app, &owner, &second, &unique_email()).await.status(), 201);

    // One address gets at most three invitations an hour, whoever sends them.
    let target = unique_email();
    for n in 0..3 {
        let (someone, _) = app.sign_in(&unique_email()).await;
        let list = make_list(app, &someone, &format!("L{n}")).await;
        assert_eq!(invite(app, &someone, &list, &target).await.status(), 201);
    }
    let (someone, _) = app.sign_in(&unique_email()).await;
    let list = make_list(app, &someone, "L3").await;
    expect_error(invite(app, &someone, &list, &target).await, 429, "RATE_LIMITED").await;
}

async fn removing_leaving_cancelling_and_expiry(app: &TestApp) {
    let guest_email = unique_email();
    let (owner, owner_user) = app.sign_in(&unique_email()).await;
    let list = make_list(app, &owner, "Chores").await;
    let (_, link, _) = invited(app, &owner, &list, &guest_email).await;
    let (guest, guest_user) = app.sign_in(&guest_email).await;
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await.status(), 200);
    let (guest_id, owner_id) = (guest_user["id"].as_str().unwrap(), owner_user["id"].as_str().unwrap());
    let body = json!({ "title": "Bath", "send_at": in_an_hour(app), "list_id": list, "assignees": [owner_id, guest_id], "rotate": true });
    let bath = json(app.post("/api/reminders", &body, Some(&owner)).await).await["data"].clone();
    let bath_path = format!("/api/reminders/{}", bath["id"].as_str().unwrap());

    // A member cannot remove another, nor the owner leave their own list.
    expect_error(app.delete(&format!("/api/lists/{list}/members/{owner_id}"), &guest).await, 403, "FORBIDDEN").await;
    expect_error(app.delete(&format!("/api/lists/{list}/members/{owner_id}"), &owner).await, 403, "FORBIDDEN").await;
    // The owner removes the guest: access stops at once, and the guest is no longer an assignee.
    assert_eq!(app.delete(&format!("/api/lists/{list}/members/{guest_id}"), &owner).await.status(), 204);
    expect_error(app.get(&bath_path, Some(&guest)).await, 404, "NOT_FOUND").await;
    assert_eq!(lists(app, &guest).await.len(), 1);
    let after = json(app.get(&bath_path, Some(&owner)).await).await["data"].clone();
    assert_eq!((after["assignees"].clone(), after["rotate"].clone()), (json!([owner_id]), json!(false)));
    expect_error(app.delete(&format!("/api/lists/{list}/members/{guest_id}"), &owner).await, 404, "NOT_FOUND").await;

    // Invited again, the guest leaves on their own.
    let (_, link, _) = invited(app, &owner, &list, &guest_email).await;
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await.status(), 200);
    assert_eq!(app.delete(&format!("/api/lists/{list}/members/{guest_id}"), &guest).await.status(), 204);
    assert_eq!(lists(app, &guest).await.len(), 1);
    let members = json(app.get(&format!("/api/lists/{list}/members"), Some(&owner)).await).await["data"].as_array().unwrap().len();
    assert_eq!(members, 1);

    // A cancelled invitation's link stops working; so does one older than 7 days.
    let (made, cancelled, _) = invited(app, &owner, &list, &unique_email()).await;
    let r = app.delete(&format!("/api/lists/{list}/invites/{}", made["id"].as_str().unwrap()), &owner).await;
    assert_eq!(r.status(), 204);
    expect_error(app.post("/api/invites/peek", &json!({ "token": cancelled }), None).await, 400, "INVITE_INVALID").await;
    let (_, old, _) = invited(app, &owner, &list, &unique_email()).await;
    app.advance_clock(SignedDuration::from_hours(7 * 24) + SignedDuration::from_secs(1));
    expect_error(app.post("/api/invites/peek", &json!({ "token": old }), None).await, 400, "INVITE_INVALID").await;
    let pending = json(app.get(&format!("/api/lists/{list}/invites"), Some(&owner)).await).await["data"].clone();
    assert_eq!(pending, json!([]), "expired invitations are not pending");
}

async fn deleting_the_owner_takes_the_shared_list(app: &TestApp) {
    let (owner_email, guest_email) = (unique_email(), unique_email());
    let (owner, _) = app.sign_in(&owner_email).await;
    let list = make_list(app, &owner, "Trip").await;
    let (_, link, _) = invited(app, &owner, &list, &guest_email).await;
    let (guest, _) = app.sign_in(&guest_email).await;
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await.status(), 200);
    let body = json!({ "title": "Passports", "send_at": in_an_hour(app), "list_id": list });
    let passports = json(app.post("/api/reminders", &body, Some(&guest)).await).await["data"].clone();
    // The guest's own list stays when the owner goes.
    let kept =
        json(app.post("/api/reminders", &json!({ "title": "Mine", "send_at": in_an_hour(app) }), Some(&guest)).await).await["data"].clone();

    let r = app.client.delete(app.url("/api/account")).bearer_auth(&owner).json(&json!({ "confirm": owner_email })).send().await.unwrap();
    assert_eq!(r.status(), 204);
    assert_eq!(lists(app, &guest).await.len(), 1, "the shared list went with its owner");
    expect_error(app.get(&format!("/api/reminders/{}", passports["id"].as_str().unwrap()), Some(&guest)).await, 404, "NOT_FOUND").await;
    assert_eq!(app.get(&format!("/api/reminders/{}", kept["id"].as_str().unwrap()), Some(&guest)).await.status(), 200);
}

/// The calendar feed holds the shared reminders that ring for the person: everyone's, and
/// those naming them; not those naming only someone else.
async fn the_calendar_feed_holds_the_shared_reminders_that_ring_for_them(app: &TestApp) {
    let (owner_email, guest_email) = (unique_email(), unique_email());
    let (owner, owner_user) = app.sign_in(&owner_email).await;
    let list = make_list(app, &owner, "Home").await;
    let (_, link, _) = invited(app, &owner, &list, &guest_email).await;
    let (guest, guest_user) = app.sign_in(&guest_email).await;
    assert_eq!(app.post("/api/invites/accept", &json!({ "token": link }), Some(&guest)).await.status(), 200);
    for (title, assignees) in
        [("Everyone's bins", json!([])), ("Guest's plants", json!([guest_user["id"]])), ("Owner's car", json!([owner_user["id"]]))]
    {
        let body = json!({ "title": title, "send_at": in_an_hour(app), "list_id": list, "assignees": assignees });
        assert_eq!(app.post("/api/reminders", &body, Some(&owner)).await.status(), 201);
    }
    let feed = |token: String| async move {
        let url = json(app.post("/api/calendar/token", &json!({}), Some(&token)).await).await["data"]["url"].as_str().unwrap().to_owned();
        let path = url.split_once("/api/").map(|(_, p)| format!("/api/{p}")).unwrap();
        app.client.get(app.url(&path)).send().await.unwrap().text().await.unwrap().replace("\r\n ", "")
    };
    let theirs = feed(guest.clone()).await;
    assert!(theirs.contains("Everyone's bins") && theirs.contains("Guest's plants"), "{theirs}");
    assert!(!theirs.contains("Owner's car"), "{theirs}");
    let mine = feed(owner.clone()).await;
    assert!(mine.contains("Everyone's bins") && mine.contains("Owner's car") && !mine.contains("Guest's plants"), "{mine}");
}
