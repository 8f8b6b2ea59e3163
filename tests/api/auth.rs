use futures::future::join_all;
use serde_json::json;

use crate::both_backends;
use crate::helpers::{TestApp, expect_error, json, unique_email};

both_backends!(
    sign_in_with_the_mailed_code_over_smtp => Options { smtp: true, ..Default::default() },
    mail_is_in_the_requested_language => Options { smtp: true, ..Default::default() },
    asking_for_a_code_answers_the_same_for_known_and_new_addresses,
    invalid_email_is_rejected,
    resend_needs_sixty_seconds_and_three_mails_per_hour_at_most,
    five_wrong_codes_burn_the_code_but_the_link_still_works,
    an_expired_code_is_refused,
    a_code_a_resend_replaced_is_told_apart_and_counts_as_a_guess,
    code_and_link_are_single_use_and_spend_each_other,
    eight_concurrent_correct_codes_give_one_session,
    forty_concurrent_wrong_guesses_count_at_most_five,
    ten_failures_block_code_sign_in_for_an_hour_but_not_the_link,
    logout_revokes_the_token_at_once,
    session_answers_401_for_missing_bad_and_expired_tokens,
    the_session_cookie_works_and_is_http_only_and_strict,
    dev_login_is_404_unless_enabled,
    dev_login_signs_in_the_developer_addresses_only => Options { dev_login: true, ..Default::default() },
    sign_in_is_rate_limited_per_client => Options { auth_rate_per_minute: Some(3), ..Default::default() },
);

async fn sign_in_with_the_mailed_code_over_smtp(app: &TestApp) {
    let email = unique_email();
    let r = app.post("/api/auth/otp", &json!({ "email": email.to_uppercase() }), None).await;
    assert_eq!(r.status(), 202);
    let body = json(r).await;
    assert_eq!(body, json!({ "success": true, "data": { "expires_in": 1200, "resend_after": 60, "code_sign_in": true } }));

    // The real SMTP server received it; the address was normalized to lower case.
    let (code, _) = app.latest_code(&email, 1).await;
    let r = app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await;
    assert_eq!(r.status(), 200);
    let body = json(r).await;
    let data = &body["data"];
    assert_eq!(data["token_type"], "Bearer");
    assert_eq!(data["expires_in"], 30 * 24 * 3600);
    assert_eq!(data["is_new_user"], true);
    assert_eq!(data["user"]["email"], email);
    assert_eq!(data["user"]["is_active"], true);
    for field in ["id", "created_at", "updated_at"] {
        assert!(data["user"][field].is_string(), "{field}");
    }
    let token = data["access_token"].as_str().unwrap();

    let session = json(app.get("/api/auth/session", Some(token)).await).await;
    assert_eq!(session["data"]["user"]["email"], email);
    assert_eq!(session["data"]["is_admin"], false);

    // A second sign-in finds the same account.
    app.db.pool(); // (the account exists now)
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    let r = app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    assert_eq!(r.status(), 202);
    let (code, _) = app.latest_code(&email, 2).await;
    let body = json(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await).await;
    assert_eq!(body["data"]["is_new_user"], false);
    assert_eq!(body["data"]["user"]["id"], session["data"]["user"]["id"]);
}

async fn mail_is_in_the_requested_language(app: &TestApp) {
    let ja = unique_email();
    app.post("/api/auth/otp", &json!({ "email": ja, "lang": "ja" }), None).await;
    let mails = app.mails_for(&ja, 1).await;
    assert!(mails[0].0.contains("ログインコード"), "{:?}", mails[0]);
    assert!(mails[0].1.contains("有効期限は20分"));
    assert!(mails[0].1.contains("/auth/callback#token="));

    let en = unique_email();
    app.post("/api/auth/otp", &json!({ "email": en, "lang": "en" }), None).await;
    let mails = app.mails_for(&en, 1).await;
    assert!(mails[0].0.contains("sign-in code"), "{:?}", mails[0]);
    assert!(mails[0].1.contains("/en/auth/callback#token="));

    // Once the account exists, its saved language wins over the request's hint.
    let (code, _) = app.latest_code(&ja, 1).await;
    app.post("/api/auth/verify", &json!({ "email": ja, "code": code }), None).await;
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    app.post("/api/auth/otp", &json!({ "email": ja, "lang": "en" }), None).await;
    let mails = app.mails_for(&ja, 2).await;
    assert!(mails[1].0.contains("ログインコード"), "{:?}", mails[1]);
}

async fn asking_for_a_code_answers_the_same_for_known_and_new_addresses(app: &TestApp) {
    let known = unique_email();
    app.sign_in(&known).await;
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    let a = app.post("/api/auth/otp", &json!({ "email": known }), None).await;
    let b = app.post("/api/auth/otp", &json!({ "email": unique_email() }), None).await;
    assert_eq!(a.status(), b.status());
    assert_eq!(a.text().await.unwrap(), b.text().await.unwrap());
}

async fn invalid_email_is_rejected(app: &TestApp) {
    for bad in ["", "plain", "a@b", "a b@c.com"] {
        let body = expect_error(app.post("/api/auth/otp", &json!({ "email": bad }), None).await, 400, "EMAIL_INVALID").await;
        assert!(body["error"]["message"].as_str().unwrap().contains("mail"), "{body}");
    }
}

async fn resend_needs_sixty_seconds_and_three_mails_per_hour_at_most(app: &TestApp) {
    let email = unique_email();
    assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    let r = app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let retry_header: i64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    let body = expect_error(r, 429, "RATE_LIMITED").await;
    let retry = body["error"]["retry_after"].as_i64().unwrap();
    assert!((55..=60).contains(&retry), "{retry}");
    assert_eq!(retry, retry_header);

    // Past the cooldown, two more are allowed within the hour, then no more. (Each mail has
    // gone out before the next is asked for, as a minute apart they would: a mail whose code a
    // resend replaced before it was sent is not sent.)
    for n in 1..=2 {
        app.mails_for(&email, n).await;
        app.advance_clock(jiff::SignedDuration::from_secs(61));
        assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    }
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    let body = expect_error(app.post("/api/auth/otp", &json!({ "email": email }), None).await, 429, "RATE_LIMITED").await;
    assert!(body["error"]["retry_after"].as_i64().unwrap() > 3000);
    assert_eq!(app.mails_for(&email, 3).await.len(), 3);
}

async fn five_wrong_codes_burn_the_code_but_the_link_still_works(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, link) = app.latest_code(&email, 1).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..4 {
        expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": wrong }), None).await, 400, "OTP_INVALID").await;
    }
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": wrong }), None).await, 429, "OTP_ATTEMPTS_EXCEEDED").await;
    // Burned: even the right code no longer works.
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await, 429, "OTP_ATTEMPTS_EXCEEDED").await;
    let r = app.post("/api/auth/verify-link", &json!({ "token": link }), None).await;
    assert_eq!(r.status(), 200);
    assert_eq!(json(r).await["data"]["user"]["email"], email);
}

async fn an_expired_code_is_refused(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, link) = app.latest_code(&email, 1).await;
    // Twenty minutes and a second later.
    app.advance_clock(jiff::SignedDuration::from_secs(20 * 60 + 1));
    let body = expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await, 400, "OTP_EXPIRED").await;
    assert_eq!(body["error"]["message"], "Verification code has expired. Please request a new one.");
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": link }), None).await, 400, "LINK_INVALID").await;
}

/// The code of an earlier email, after a resend replaced it: `OTP_REPLACED` (use the newest
/// email), counted as a wrong guess like any other; the newest code still signs in.
async fn a_code_a_resend_replaced_is_told_apart_and_counts_as_a_guess(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (first, _) = app.latest_code(&email, 1).await;
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (newest, _) = app.latest_code(&email, 2).await;
    if first == newest {
        return; // one chance in a million: the resend drew the same code
    }
    let body = expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": first }), None).await, 400, "OTP_REPLACED").await;
    assert!(body["error"]["message"].as_str().unwrap().contains("newest email"), "{body}");
    // Four more guesses of the old code: the fifth wrong guess burns the newest code.
    for _ in 0..3 {
        expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": first }), None).await, 400, "OTP_REPLACED").await;
    }
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": first }), None).await, 429, "OTP_ATTEMPTS_EXCEEDED").await;
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": newest }), None).await, 429, "OTP_ATTEMPTS_EXCEEDED").await;
    // A fresh code after that: a wrong one that was never sent is only incorrect.
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (third, _) = app.latest_code(&email, 3).await;
    let never_sent = if third == "123456" { "654321" } else { "123456" };
    if never_sent != newest {
        expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": never_sent }), None).await, 400, "OTP_INVALID").await;
    }
    assert_eq!(app.post("/api/auth/verify", &json!({ "email": email, "code": third }), None).await.status(), 200);
}

async fn code_and_link_are_single_use_and_spend_each_other(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, link) = app.latest_code(&email, 1).await;
    assert_eq!(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await.status(), 200);
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await, 400, "OTP_INVALID").await;
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": link }), None).await, 400, "LINK_INVALID").await;

    let other = unique_email();
    app.post("/api/auth/otp", &json!({ "email": other }), None).await;
    let (code, link) = app.latest_code(&other, 1).await;
    assert_eq!(app.post("/api/auth/verify-link", &json!({ "token": link }), None).await.status(), 200);
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": link }), None).await, 400, "LINK_INVALID").await;
    expect_error(app.post("/api/auth/verify", &json!({ "email": other, "code": code }), None).await, 400, "OTP_INVALID").await;
    expect_error(app.post("/api/auth/verify-link", &json!({ "token": "forged" }), None).await, 400, "LINK_INVALID").await;
}

async fn eight_concurrent_correct_codes_give_one_session(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, _) = app.latest_code(&email, 1).await;
    let body = json!({ "email": email, "code": code });
    let results = join_all((0..8).map(|_| app.post("/api/auth/verify", &body, None))).await;
    let ok = results.iter().filter(|r| r.status() == 200).count();
    assert_eq!(ok, 1, "{:?}", results.iter().map(|r| r.status()).collect::<Vec<_>>());
    assert!(results.iter().all(|r| r.status() == 200 || r.status() == 400));
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1")
        .bind(&email)
        .fetch_one(app.db.pool())
        .await
        .unwrap();
    assert_eq!(sessions, 1);
}

async fn forty_concurrent_wrong_guesses_count_at_most_five(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, _) = app.latest_code(&email, 1).await;
    let guesses: Vec<String> = (0..40).map(|i| format!("{:06}", (code.parse::<u32>().unwrap() + 1 + i) % 1_000_000)).collect();
    let results = join_all(guesses.iter().map(|g| app.post("/api/auth/verify", &json!({ "email": email, "code": g }), None))).await;
    let statuses: Vec<u16> = results.iter().map(|r| r.status().as_u16()).collect();
    assert!(statuses.iter().all(|s| *s == 400 || *s == 429), "{statuses:?}");
    assert!(statuses.iter().filter(|s| **s == 400).count() <= 4, "at most 4 plain 'invalid' answers before the burn: {statuses:?}");
    let attempts: i64 =
        sqlx::query_scalar("SELECT attempts FROM otp_codes WHERE email = $1").bind(&email).fetch_one(app.db.pool()).await.unwrap();
    assert_eq!(attempts, 5);
    // And the right code is refused now.
    expect_error(app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await, 429, "OTP_ATTEMPTS_EXCEEDED").await;
}

async fn ten_failures_block_code_sign_in_for_an_hour_but_not_the_link(app: &TestApp) {
    let email = unique_email();
    for round in 1..=2 {
        if round > 1 {
            app.advance_clock(jiff::SignedDuration::from_secs(61));
        }
        app.post("/api/auth/otp", &json!({ "email": email }), None).await;
        let (code, _) = app.latest_code(&email, round).await;
        let wrong = if code == "000000" { "111111" } else { "000000" };
        for _ in 0..5 {
            app.post("/api/auth/verify", &json!({ "email": email, "code": wrong }), None).await;
        }
    }
    // Code sign-in is blocked: a third email carries only the link, and the answer says so.
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    let r = app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    assert_eq!(r.status(), 202);
    assert_eq!(json(r).await["data"]["code_sign_in"], false);
    let mails = app.mails_for(&email, 3).await;
    let (_, body) = mails.last().unwrap();
    assert!(!body.lines().any(|l| l.trim().len() == 6 && l.trim().bytes().all(|b| b.is_ascii_digit())), "no code in it: {body}");
    let link = body.split("#token=").nth(1).expect("a sign-in link").split_whitespace().next().unwrap().to_owned();
    let r = app.post("/api/auth/verify", &json!({ "email": email, "code": "123456" }), None).await;
    assert!(r.headers().contains_key("retry-after"));
    let body = expect_error(r, 429, "OTP_ATTEMPTS_EXCEEDED").await;
    let retry = body["error"]["retry_after"].as_i64().unwrap();
    assert!((3500..=3600).contains(&retry), "{retry}");
    // The owner is never locked out: the link signs in and lifts the block.
    assert_eq!(app.post("/api/auth/verify-link", &json!({ "token": link }), None).await.status(), 200);
    let blocked: Option<i64> = sqlx::query_scalar("SELECT blocked_until FROM auth_failures WHERE email = $1")
        .bind(&email)
        .fetch_optional(app.db.pool())
        .await
        .unwrap();
    assert_eq!(blocked, None);
}

async fn logout_revokes_the_token_at_once(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    assert_eq!(app.get("/api/auth/session", Some(&token)).await.status(), 200);
    let r = app.post("/api/auth/logout", &json!({}), Some(&token)).await;
    assert_eq!(r.status(), 204);
    let cleared = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cleared.contains("hibiki_session=") && cleared.contains("Max-Age=0"), "{cleared}");
    let body = expect_error(app.get("/api/auth/session", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
    assert_eq!(body["error_type"], "AUTHENTICATION_REQUIRED");
    expect_error(app.get("/api/reminders", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
}

async fn session_answers_401_for_missing_bad_and_expired_tokens(app: &TestApp) {
    for token in [None, Some("nonsense"), Some("")] {
        let body = expect_error(app.get("/api/auth/session", token).await, 401, "AUTHENTICATION_REQUIRED").await;
        assert_eq!(body["error_type"], "AUTHENTICATION_REQUIRED");
    }
    let r = app.client.get(app.url("/api/auth/session")).header("authorization", "Basic abc").send().await.unwrap();
    expect_error(r, 401, "AUTHENTICATION_REQUIRED").await;
    let (token, _) = app.sign_in(&unique_email()).await;
    // Unused for longer than the 30-day sliding lifetime.
    app.advance_clock(jiff::SignedDuration::from_hours(24 * 31));
    expect_error(app.get("/api/auth/session", Some(&token)).await, 401, "AUTHENTICATION_REQUIRED").await;
}

async fn the_session_cookie_works_and_is_http_only_and_strict(app: &TestApp) {
    let email = unique_email();
    app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    let (code, _) = app.latest_code(&email, 1).await;
    let r = app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await;
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attr), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http public URL: no Secure flag");
    let pair = cookie.split(';').next().unwrap().to_owned();
    let r = app.client.get(app.url("/api/auth/session")).header("cookie", format!("theme=dark; {pair}")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(json(r).await["data"]["user"]["email"], email);
}

async fn dev_login_is_404_unless_enabled(app: &TestApp) {
    expect_error(app.post("/api/auth/dev-login", &json!({ "email": "dev@example.com" }), None).await, 404, "NOT_FOUND").await;
}

async fn dev_login_signs_in_the_developer_addresses_only(app: &TestApp) {
    for email in ["dev@example.com", "test@example.com", "demo@example.com", "Admin@Example.com"] {
        let r = app.post("/api/auth/dev-login", &json!({ "email": email }), None).await;
        assert_eq!(r.status(), 200, "{email}");
        let body = json(r).await;
        let token = body["data"]["access_token"].as_str().unwrap();
        assert_eq!(app.get("/api/auth/session", Some(token)).await.status(), 200);
    }
    let body =
        expect_error(app.post("/api/auth/dev-login", &json!({ "email": "someone@example.com" }), None).await, 400, "VALIDATION_FAILED")
            .await;
    assert!(body["error"]["fields"]["email"].is_string());
}

async fn sign_in_is_rate_limited_per_client(app: &TestApp) {
    for _ in 0..3 {
        app.post("/api/auth/otp", &json!({ "email": unique_email() }), None).await;
    }
    let r = app.post("/api/auth/verify", &json!({ "email": unique_email(), "code": "123456" }), None).await;
    assert!(r.headers().contains_key("retry-after"));
    let body = expect_error(r, 429, "RATE_LIMITED").await;
    assert!(body["error"]["retry_after"].as_i64().unwrap() >= 1);
    // The rest of the API has its own budget.
    assert_eq!(app.get("/api/health", None).await.status(), 200);
}
