//! Lists (decisions.md "Households", api.md "Lists and sharing"): a default list per account
//! that every reminder lands in unless another is named, lists of one's own with a name and a
//! colour, the owner's rename and delete, the list filter and search in both scripts of
//! Japanese and any width; on SQLite and on PostgreSQL.

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    every_account_has_a_default_list_in_its_language,
    lists_are_made_renamed_and_recoloured_by_their_owner,
    deleting_a_list_takes_its_reminders,
    a_reminder_goes_to_a_list_of_its_person_and_moves,
    the_list_filter_and_search_in_both_scripts,
    past_fifty_lists_is_list_limit,
);

fn in_an_hour(app: &TestApp) -> String {
    Timestamp::from_second(app.now().as_second() + 3600).unwrap().to_string()
}

async fn lists(app: &TestApp, token: &str) -> Vec<Value> {
    let r = app.get("/api/lists", Some(token)).await;
    assert_eq!(r.status(), 200);
    json(r).await["data"].as_array().unwrap().clone()
}

async fn make_list(app: &TestApp, token: &str, body: Value) -> Value {
    let r = app.post("/api/lists", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn make_reminder(app: &TestApp, token: &str, body: Value) -> Value {
    let mut body = body;
    body["send_at"] = json!(in_an_hour(app));
    let r = app.post("/api/reminders", &body, Some(token)).await;
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    json(r).await["data"].clone()
}

async fn titles(app: &TestApp, token: &str, query: &str) -> Vec<String> {
    let r = app.get(&format!("/api/reminders?{query}"), Some(token)).await;
    assert_eq!(r.status(), 200, "{query}");
    let total: usize = r.headers()["x-total-count"].to_str().unwrap().parse().unwrap();
    let list: Vec<String> = json(r).await["data"].as_array().unwrap().iter().map(|r| r["title"].as_str().unwrap().to_owned()).collect();
    assert_eq!(total, list.len(), "{query}: the total counts what matched");
    list
}

async fn every_account_has_a_default_list_in_its_language(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    let all = lists(app, &token).await;
    assert_eq!(all.len(), 1, "{all:?}");
    let default = &all[0];
    assert_eq!(default["is_default"], true);
    assert_eq!(default["name"], "Reminders");
    assert_eq!(default["colour"], "blue");
    assert_eq!(default["role"], "owner");
    assert_eq!(default["members"], 1);
    assert_eq!(default["owner_id"], user["id"]);
    assert_eq!(default["active_reminders"], 0);
    // Its name follows the reader's language until renamed.
    app.put("/api/settings", &json!({ "language": "ja" }), &token).await;
    assert_eq!(lists(app, &token).await[0]["name"], "リマインダー");
    // A reminder with no list lands in it, made by its person.
    let r = make_reminder(app, &token, json!({ "title": "薬" })).await;
    assert_eq!(r["list_id"], default["id"]);
    assert_eq!(r["created_by"], user["id"]);
    assert_eq!(r["assignees"], json!([]));
    assert_eq!(r["rotate"], false);
    assert_eq!(lists(app, &token).await[0]["active_reminders"], 1);
    // Renamed, it keeps its name in every language.
    let r = app.put(&format!("/api/lists/{}", default["id"].as_str().unwrap()), &json!({ "name": "  家 " }), &token).await;
    assert_eq!(r.status(), 200);
    assert_eq!(json(r).await["data"]["name"], "家");
    app.put("/api/settings", &json!({ "language": "en" }), &token).await;
    assert_eq!(lists(app, &token).await[0]["name"], "家");
    // It is never deleted.
    let r = app.delete(&format!("/api/lists/{}", default["id"].as_str().unwrap()), &token).await;
    expect_error(r, 400, "DEFAULT_LIST").await;
    assert_eq!(lists(app, &token).await.len(), 1);
}

async fn lists_are_made_renamed_and_recoloured_by_their_owner(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let work = make_list(app, &token, json!({ "name": " Work ", "colour": "teal" })).await;
    assert_eq!(work["name"], "Work");
    assert_eq!(work["colour"], "teal");
    assert_eq!(work["is_default"], false);
    let chores = make_list(app, &token, json!({ "name": "ゴミ出し" })).await;
    assert_eq!(chores["colour"], "blue", "the default colour");
    let names: Vec<Value> = lists(app, &token).await.iter().map(|l| l["name"].clone()).collect();
    assert_eq!(names, [json!("Reminders"), json!("Work"), json!("ゴミ出し")], "the default list first, then by when made");

    for (body, field) in [
        (json!({ "name": "" }), "name"),
        (json!({ "name": "   " }), "name"),
        (json!({ "name": "x".repeat(51) }), "name"),
        (json!({ "name": "a\u{202E}b" }), "name"),
    ] {
        let body = expect_error(app.post("/api/lists", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
        assert!(body["error"]["fields"][field].is_string(), "{body}");
    }
    let r = app.post("/api/lists", &json!({ "name": "Pink", "colour": "pink" }), Some(&token)).await;
    assert_eq!(r.status(), 400, "a colour outside the set");
    assert_eq!(lists(app, &token).await.len(), 3, "nothing was made by a refused request");

    let path = format!("/api/lists/{}", work["id"].as_str().unwrap());
    let r = app.put(&path, &json!({ "colour": "purple" }), &token).await;
    assert_eq!(r.status(), 200);
    let changed = json(r).await["data"].clone();
    assert_eq!((changed["name"].as_str(), changed["colour"].as_str()), (Some("Work"), Some("purple")));
    expect_error(app.put(&path, &json!({ "name": "" }), &token).await, 400, "VALIDATION_FAILED").await;

    // Someone else's list is not found, whatever they ask.
    let (other, _) = app.sign_in(&unique_email()).await;
    expect_error(app.put(&path, &json!({ "name": "Mine" }), &other).await, 404, "NOT_FOUND").await;
    expect_error(app.delete(&path, &other).await, 404, "NOT_FOUND").await;
    expect_error(app.put("/api/lists/not-an-id", &json!({ "name": "x" }), &token).await, 404, "NOT_FOUND").await;
    assert_eq!(lists(app, &other).await.len(), 1, "the other account sees only its own default list");
    assert_eq!(lists(app, &token).await[1]["name"], "Work");
}

async fn deleting_a_list_takes_its_reminders(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let trip = make_list(app, &token, json!({ "name": "Trip" })).await;
    let list_id = trip["id"].as_str().unwrap();
    let a = make_reminder(app, &token, json!({ "title": "Passport", "list_id": list_id })).await;
    let b = make_reminder(app, &token, json!({ "title": "Taxi", "list_id": list_id, "recurrence": { "kind": "daily" } })).await;
    let kept = make_reminder(app, &token, json!({ "title": "Medicine" })).await;
    assert_eq!(lists(app, &token).await[1]["active_reminders"], 2);

    let r = app.delete(&format!("/api/lists/{list_id}"), &token).await;
    assert_eq!(r.status(), 204);
    for gone in [&a, &b] {
        let r = app.get(&format!("/api/reminders/{}", gone["id"].as_str().unwrap()), Some(&token)).await;
        expect_error(r, 404, "NOT_FOUND").await;
    }
    assert_eq!(titles(app, &token, "status=all").await, ["Medicine"]);
    assert_eq!(lists(app, &token).await.len(), 1);
    let r = app.get(&format!("/api/reminders/{}", kept["id"].as_str().unwrap()), Some(&token)).await;
    assert_eq!(r.status(), 200);
    expect_error(app.delete(&format!("/api/lists/{list_id}"), &token).await, 404, "NOT_FOUND").await;
}

async fn a_reminder_goes_to_a_list_of_its_person_and_moves(app: &TestApp) {
    let (token, user) = app.sign_in(&unique_email()).await;
    let (other, _) = app.sign_in(&unique_email()).await;
    let theirs = lists(app, &other).await[0]["id"].as_str().unwrap().to_owned();
    let home = make_list(app, &token, json!({ "name": "Home" })).await;
    let home_id = home["id"].as_str().unwrap();

    // Someone else's list, or one that does not exist, is a field error; nothing is made.
    for list_id in [theirs.as_str(), "00000000-0000-4000-8000-000000000000"] {
        let body = json!({ "title": "Sneak", "send_at": in_an_hour(app), "list_id": list_id });
        let body = expect_error(app.post("/api/reminders", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
        assert!(body["error"]["fields"]["list_id"].is_string(), "{body}");
    }
    let body = json!({ "title": "Sneak", "send_at": in_an_hour(app), "list_id": "nope" });
    assert_eq!(app.post("/api/reminders", &body, Some(&token)).await.status(), 400);
    assert!(titles(app, &other, "").await.is_empty());
    assert!(titles(app, &token, "").await.is_empty());

    // Assignees are members of the list; rotation needs two of them.
    let me = user["id"].as_str().unwrap();
    let r = make_reminder(app, &token, json!({ "title": "Water", "list_id": home_id, "assignees": [me] })).await;
    assert_eq!(r["assignees"], json!([me]));
    let body = json!({ "title": "Rubbish", "send_at": in_an_hour(app), "assignees": [me], "rotate": true });
    let body = expect_error(app.post("/api/reminders", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
    assert!(body["error"]["fields"]["rotate"].is_string(), "{body}");
    let stranger = lists(app, &other).await[0]["owner_id"].clone();
    let body = json!({ "title": "Rubbish", "send_at": in_an_hour(app), "assignees": [stranger] });
    let body = expect_error(app.post("/api/reminders", &body, Some(&token)).await, 400, "VALIDATION_FAILED").await;
    assert!(body["error"]["fields"]["assignees"].is_string(), "{body}");

    // Moved to the default list: it rings for everyone there (assignees cleared).
    let default_id = lists(app, &token).await[0]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/reminders/{}", r["id"].as_str().unwrap());
    let moved = json(app.put(&path, &json!({ "list_id": default_id }), &token).await).await["data"].clone();
    assert_eq!(moved["list_id"], json!(default_id));
    assert_eq!(moved["assignees"], json!([]));
    assert_eq!(moved["title"], "Water");
    let counts: Vec<Value> = lists(app, &token).await.iter().map(|l| l["active_reminders"].clone()).collect();
    assert_eq!(counts, [json!(1), json!(0)]);
    // Not into someone else's list.
    let body = expect_error(app.put(&path, &json!({ "list_id": theirs }), &token).await, 400, "VALIDATION_FAILED").await;
    assert!(body["error"]["fields"]["list_id"].is_string(), "{body}");
    assert_eq!(json(app.get(&path, Some(&token)).await).await["data"]["list_id"], json!(default_id));
}

async fn the_list_filter_and_search_in_both_scripts(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let shop = make_list(app, &token, json!({ "name": "買い物", "colour": "green" })).await;
    let shop_id = shop["id"].as_str().unwrap();
    make_reminder(app, &token, json!({ "title": "ギュウニュウを買う", "list_id": shop_id })).await;
    make_reminder(app, &token, json!({ "title": "Bread", "description": "ｍｉｌｋ too", "list_id": shop_id })).await;
    make_reminder(app, &token, json!({ "title": "MILK the cow" })).await;
    let done = make_reminder(app, &token, json!({ "title": "ｷﾞｭｳﾆｭｳ (done)" })).await;
    let r = app.post(&format!("/api/reminders/{}/complete", done["id"].as_str().unwrap()), &json!({}), Some(&token)).await;
    assert_eq!(r.status(), 200);

    let mut shop_titles = titles(app, &token, &format!("list_id={shop_id}")).await;
    shop_titles.sort();
    assert_eq!(shop_titles, ["Bread", "ギュウニュウを買う"]);
    // Hiragana finds katakana of any width; the archive is searched when asked for.
    assert_eq!(titles(app, &token, "q=%E3%81%8E%E3%82%85%E3%81%86%E3%81%AB%E3%82%85%E3%81%86").await, ["ギュウニュウを買う"]);
    let mut all = titles(app, &token, "status=all&q=%E3%81%8E%E3%82%85%E3%81%86%E3%81%AB%E3%82%85%E3%81%86").await;
    all.sort();
    assert_eq!(all, ["ギュウニュウを買う", "ｷﾞｭｳﾆｭｳ (done)"]);
    // Case and width do not matter; descriptions count.
    let mut milk = titles(app, &token, "q=Milk").await;
    milk.sort();
    assert_eq!(milk, ["Bread", "MILK the cow"]);
    assert_eq!(titles(app, &token, &format!("q=milk&list_id={shop_id}")).await, ["Bread"]);
    assert!(titles(app, &token, "q=tea").await.is_empty());
    // A page of the matches, with the total of all of them.
    let r = app.get("/api/reminders?q=milk&limit=1", Some(&token)).await;
    assert_eq!(r.headers()["x-total-count"], "2");
    assert_eq!(json(r).await["data"].as_array().unwrap().len(), 1);
    // A list_id that is not one, and a search of more than 200 characters, are refused.
    let body = expect_error(app.get("/api/reminders?list_id=shop", Some(&token)).await, 400, "VALIDATION_FAILED").await;
    assert!(body["error"]["fields"]["list_id"].is_string());
    let long = "a".repeat(201);
    expect_error(app.get(&format!("/api/reminders?q={long}"), Some(&token)).await, 400, "VALIDATION_FAILED").await;
    // Someone else's reminders are never found.
    let (other, _) = app.sign_in(&unique_email()).await;
    assert!(titles(app, &other, "q=milk").await.is_empty());
    assert!(titles(app, &other, &format!("list_id={shop_id}")).await.is_empty());
}

async fn past_fifty_lists_is_list_limit(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    for n in 0..50 {
        make_list(app, &token, json!({ "name": format!("List {n}") })).await;
    }
    let r = app.post("/api/lists", &json!({ "name": "One more" }), Some(&token)).await;
    expect_error(r, 409, "LIST_LIMIT").await;
    assert_eq!(lists(app, &token).await.len(), 51, "the default list and fifty of one's own");
    // Deleting one makes room again.
    let last = lists(app, &token).await[50]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.delete(&format!("/api/lists/{last}"), &token).await.status(), 204);
    make_list(app, &token, json!({ "name": "One more" })).await;
}

/// Migrations 0010 and 0012 on a database an older version made: every account gets a default
/// list and every reminder lands in it, made by its owner; the lists' ids are ids; a pending
/// email fallback becomes its owner's own.
async fn migrated_reminders_land_in_their_default_list(url: &str) {
    use hibiki_common::infra::storage::Db;
    use sqlx::Row;
    let db = Db::connect(url).await.unwrap();
    db.migrate_to(9).await.unwrap();
    let pool = db.pool();
    for (user, email) in
        [("11111111-1111-4111-8111-111111111111", "a@example.com"), ("22222222-2222-4222-8222-222222222222", "b@example.com")]
    {
        sqlx::query("INSERT INTO users (id, email, created_at, updated_at, last_active_at) VALUES ($1, $2, 1, 1, 1)")
            .bind(user)
            .bind(email)
            .execute(pool)
            .await
            .unwrap();
    }
    for (id, user) in [
        ("aaaaaaaa-0000-4000-8000-000000000001", "11111111-1111-4111-8111-111111111111"),
        ("aaaaaaaa-0000-4000-8000-000000000002", "11111111-1111-4111-8111-111111111111"),
        ("aaaaaaaa-0000-4000-8000-000000000003", "22222222-2222-4222-8222-222222222222"),
    ] {
        sqlx::query(
            "INSERT INTO reminders (id, user_id, title, send_at, timezone, recurrence, is_active, is_archived, created_at, updated_at)
             VALUES ($1, $2, $3, 1, 'UTC', '{\"kind\":\"none\"}', 1, 0, 1, 1)",
        )
        .bind(id)
        .bind(user)
        .bind(b"sealed".to_vec())
        .execute(pool)
        .await
        .unwrap();
    }
    sqlx::query(
        "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, fallback_minutes)
         VALUES ('bbbbbbbb-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000001', '11111111-1111-4111-8111-111111111111',
                 1, 'sent', 0, 1, 'occurrence', 5)",
    )
    .execute(pool)
    .await
    .unwrap();
    db.migrate().await.unwrap();
    let pending = sqlx::query("SELECT log_id, user_id, minutes FROM fallbacks").fetch_all(pool).await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].try_get::<String, _>("user_id").unwrap(), "11111111-1111-4111-8111-111111111111");
    assert_eq!(pending[0].try_get::<i64, _>("minutes").unwrap(), 5);
    let left: Option<i64> = sqlx::query_scalar("SELECT fallback_minutes FROM delivery_logs").fetch_one(pool).await.unwrap();
    assert_eq!(left, None, "the entry-wide column is emptied");
    let defaults = sqlx::query("SELECT id, owner_id FROM lists WHERE is_default = 1 ORDER BY owner_id").fetch_all(pool).await.unwrap();
    assert_eq!(defaults.len(), 2);
    for row in &defaults {
        let id: String = row.try_get("id").unwrap();
        assert!(id.parse::<hibiki_common::domain::ids::ListId>().is_ok(), "{id} is an id");
        let owner: String = row.try_get("owner_id").unwrap();
        let role: String = sqlx::query_scalar("SELECT role FROM list_members WHERE list_id = $1 AND user_id = $2")
            .bind(&id)
            .bind(&owner)
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(role, "owner");
    }
    let rows = sqlx::query(
        "SELECT r.id, r.created_by, r.assignees, r.rotate, l.owner_id FROM reminders r JOIN lists l ON l.id = r.list_id ORDER BY r.id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(rows.len(), 3, "every reminder is in a list");
    for row in &rows {
        let owner: String = row.try_get("owner_id").unwrap();
        assert_eq!(row.try_get::<String, _>("created_by").unwrap(), owner);
        assert_eq!(row.try_get::<String, _>("assignees").unwrap(), "[]");
        assert_eq!(row.try_get::<i64, _>("rotate").unwrap(), 0);
    }
    assert_eq!(rows[2].try_get::<String, _>("owner_id").unwrap(), "22222222-2222-4222-8222-222222222222");
    db.close().await;
}

#[tokio::test]
async fn migration_0010_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("hibiki-migration-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("old.db").display());
    migrated_reminders_land_in_their_default_list(&url).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn migration_0010_on_postgres() {
    let Some(url) = crate::helpers::fresh_postgres_database().await else { return };
    migrated_reminders_land_in_their_default_list(&url).await;
    crate::helpers::drop_postgres_database(url.rsplit('/').next().unwrap()).await;
}
