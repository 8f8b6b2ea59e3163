//! Validation failures carry `error.details`: one `{field, code, params?}` per failing field,
//! with codes from the closed set the OpenAPI document publishes (api.md, Conventions).

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(validation_failures_name_a_code_per_field);

fn detail<'a>(body: &'a Value, field: &str) -> &'a Value {
    body["error"]["details"].as_array().unwrap().iter().find(|d| d["field"] == field).unwrap_or_else(|| panic!("no {field} in {body}"))
}

async fn validation_failures_name_a_code_per_field(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let document = json(app.get("/api/openapi.json", None).await).await;
    let codes: Vec<String> = document["components"]["schemas"]["FieldCode"]["enum"]
        .as_array()
        .expect("the closed set of codes is published")
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert!(codes.contains(&"too_long".to_owned()) && codes.contains(&"not_in_future".to_owned()), "{codes:?}");

    let past = (Timestamp::now() - SignedDuration::from_hours(1)).to_string();
    let body = expect_error(
        app.post("/api/reminders", &json!({ "title": "x".repeat(201), "send_at": past, "timezone": "Mars/Olympus" }), Some(&token)).await,
        400,
        "VALIDATION_FAILED",
    )
    .await;
    assert_eq!(detail(&body, "title")["code"], "too_long");
    assert_eq!(detail(&body, "title")["params"]["max"], 200);
    assert_eq!(detail(&body, "timezone")["code"], "unknown_zone");
    assert!(body["error"]["fields"]["title"].is_string(), "the messages stay for people: {body}");
    let details = body["error"]["details"].as_array().unwrap();
    assert_eq!(details.len(), body["error"]["fields"].as_object().unwrap().len(), "one detail per failing field");
    for d in details {
        assert!(codes.contains(&d["code"].as_str().unwrap().to_owned()), "{d} is a published code");
    }

    let later = (Timestamp::now() + SignedDuration::from_hours(1)).to_string();
    let cases = [
        (json!({ "send_at": later }), "title", "required"),
        (json!({ "title": "t", "send_at": past }), "send_at", "not_in_future"),
        (json!({ "title": "t", "send_at": later, "recurrence": { "kind": "hourly", "interval_hours": 30 } }), "recurrence", "out_of_range"),
        (json!({ "title": "t", "send_at": later, "recurrence": { "kind": "custom", "days": [] } }), "recurrence", "required"),
        (json!({ "title": "t", "send_at": later, "recurrence": { "kind": "fortnightly" } }), "recurrence", "invalid_choice"),
        (json!({ "title": 5, "send_at": later }), "title", "invalid_format"),
        (json!({ "title": "t", "send_at": later, "alerts": [{ "before_minutes": 99999 }] }), "alerts", "out_of_range"),
    ];
    for (input, field, code) in cases {
        let body = expect_error(app.post("/api/reminders", &input, Some(&token)).await, 400, "VALIDATION_FAILED").await;
        assert_eq!(detail(&body, field)["code"], code, "{input} -> {body}");
    }
    let body =
        expect_error(app.put("/api/settings", &json!({ "default_snooze_minutes": 7 }), &token).await, 400, "VALIDATION_FAILED").await;
    assert_eq!(detail(&body, "default_snooze_minutes")["code"], "invalid_choice");
    let body = expect_error(app.get("/api/reminders?limit=0", Some(&token)).await, 400, "VALIDATION_FAILED").await;
    assert_eq!(
        (detail(&body, "limit")["code"].as_str(), detail(&body, "limit")["params"]["max"].as_i64()),
        (Some("out_of_range"), Some(500))
    );
}
