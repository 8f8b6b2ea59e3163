use serde_json::json;

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, unique_email};

both_backends!(bad_input_gets_the_envelope_never_a_500, every_answer_has_a_request_id_and_security_headers);

async fn bad_input_gets_the_envelope_never_a_500(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let post = |path: &str, content_type: &str, body: Vec<u8>| {
        app.client.post(app.url(path)).bearer_auth(&token).header("content-type", content_type.to_owned()).body(body).send()
    };
    // Oversized: 64 KiB is the limit.
    let huge = json!({ "title": "x".repeat(70 * 1024), "send_at": "2030-01-01T00:00:00Z" }).to_string().into_bytes();
    expect_error(post("/api/reminders", "application/json", huge).await.unwrap(), 413, "PAYLOAD_TOO_LARGE").await;
    let huge = json!({ "email": "x".repeat(70 * 1024) }).to_string().into_bytes();
    expect_error(post("/api/auth/otp", "application/json", huge).await.unwrap(), 413, "PAYLOAD_TOO_LARGE").await;
    // Malformed JSON, trailing garbage, empty body, binary junk.
    for body in [&b"{\"title\": "[..], b"{} {}", b"", b"\xff\xfe\x00garbage"] {
        expect_error(post("/api/reminders", "application/json", body.to_vec()).await.unwrap(), 400, "INVALID_JSON").await;
    }
    // Wrong or missing content type.
    expect_error(post("/api/reminders", "text/plain", b"{}".to_vec()).await.unwrap(), 415, "UNSUPPORTED_MEDIA_TYPE").await;
    let r = app.client.post(app.url("/api/auth/verify")).body("{}").send().await.unwrap();
    expect_error(r, 415, "UNSUPPORTED_MEDIA_TYPE").await;
    assert_eq!(
        post("/api/reminders/preview", "application/merge-patch+json", b"{\"send_at\":\"2030-01-01T00:00:00Z\"}".to_vec())
            .await
            .unwrap()
            .status(),
        200,
        "+json types are JSON"
    );
    // Deeply nested JSON is refused, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes();
    let r = post("/api/reminders", "application/json", deep).await.unwrap();
    assert_eq!(r.status(), 400);
    // Unknown paths and methods.
    expect_error(app.get("/api/nothing-here", Some(&token)).await, 404, "NOT_FOUND").await;
    expect_error(app.get("/api", None).await, 404, "NOT_FOUND").await;
    expect_error(app.client.patch(app.url("/api/reminders")).bearer_auth(&token).send().await.unwrap(), 405, "METHOD_NOT_ALLOWED").await;
    // Hostile path segments are just ids that do not exist.
    for id in ["..%2F..%2Fetc%2Fpasswd", "%00", "a%00b", "%E2%80%AE", "'%20OR%201=1--", &"9".repeat(500)] {
        expect_error(app.get(&format!("/api/reminders/{id}"), Some(&token)).await, 404, "NOT_FOUND").await;
    }
    // A huge header token is just unauthenticated.
    let r = app.client.get(app.url("/api/auth/session")).bearer_auth("A".repeat(4000)).send().await.unwrap();
    expect_error(r, 401, "AUTHENTICATION_REQUIRED").await;
    // And the server is still fine.
    assert_eq!(app.get("/api/health", None).await.status(), 200);
}

async fn every_answer_has_a_request_id_and_security_headers(app: &TestApp) {
    for path in ["/api/health", "/api/nothing", "/api/reminders"] {
        let r = app.get(path, None).await;
        let id = r.headers().get("x-request-id").expect("a request id").to_str().unwrap();
        assert_eq!(id.len(), 36, "a UUID: {id}");
        let csp = r.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    }
    // A client's own request id is kept.
    let r = app.client.get(app.url("/api/health")).header("x-request-id", "client-chosen-id").send().await.unwrap();
    assert_eq!(r.headers()["x-request-id"], "client-chosen-id");
}

both_backends!(behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit => Options { behind_proxy: true, auth_rate_per_minute: Some(2), ..Default::default() });

/// Behind a reverse proxy every request comes from the proxy's address; with the proxy
/// trusted, sign-in limits apply per forwarded client instead of to everyone at once.
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(app: &TestApp) {
    let ask = |client: &'static str| {
        app.client.post(app.url("/api/auth/otp")).header("x-forwarded-for", client).json(&json!({ "email": unique_email() })).send()
    };
    assert_eq!(ask("198.51.100.1").await.unwrap().status(), 202);
    assert_eq!(ask("198.51.100.1").await.unwrap().status(), 202);
    expect_error(ask("198.51.100.1").await.unwrap(), 429, "RATE_LIMITED").await;
    // Another client behind the same proxy is not limited by the first one's requests.
    assert_eq!(ask("198.51.100.2").await.unwrap().status(), 202);
    // A client cannot dodge its limit by claiming another address: the proxy appends the
    // address it saw, and that right-most entry is the one counted.
    expect_error(ask("203.0.113.50, 198.51.100.1").await.unwrap(), 429, "RATE_LIMITED").await;
}
