//! Sign-in guessing over a month, with a simulated clock: the real limits (the code's 5
//! tries, 10 failures then a block that doubles, 3 emails an hour, a 60 s resend) bound the
//! wrong codes ever judged for one address to 100 in 30 days; guesses with no code pending and
//! the losers of a race of correct submissions do not count.

use futures::future::join_all;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::jobs::MailJob;
use hibiki_common::infra::storage::Store;
use hibiki_common::usecases::signin::{self, SignInError};
use jiff::{SignedDuration, Timestamp};
use serde_json::json;

use crate::both_backends;
use crate::helpers::{TestApp, json, unique_email};

both_backends!(a_month_of_guessing_judges_at_most_100_wrong_codes, guesses_with_nothing_pending_and_race_losers_do_not_count,);

/// What a sign-in mail job would send: the worker reads it sealed from the database (the
/// job names the pending sign-in, never the code).
async fn secret_of(store: &Store, mail: &MailJob, now: Timestamp) -> signin::MailSecret {
    let MailJob::SignIn { sign_in, .. } = mail else { panic!("not a sign-in mail: {mail:?}") };
    signin::sign_in_mail(store, sign_in, now).await.unwrap().expect("the sign-in mail is pending").secret
}

/// The fastest attacker the limits allow: asks for a code whenever it may, guesses until the
/// code burns or code sign-in is blocked, waits out each block, for 30 days.
async fn a_month_of_guessing_judges_at_most_100_wrong_codes(app: &TestApp) {
    let store = Store { db: app.db.clone(), keys: Keys::from_data_key(&[7u8; 32]) };
    let email = unique_email();
    let start = Timestamp::now();
    let end = start + SignedDuration::from_hours(24 * 30);
    let mut now = start;
    let (mut judged, mut blocks, mut codes, mut link_only) = (0, Vec::new(), 0, 0);
    while now < end {
        let wrong = match signin::request_code(&store, &email, hibiki_common::domain::states::Language::En, now).await {
            Ok(requested) => {
                codes += 1;
                match secret_of(&store, &requested.mail, now).await.code {
                    Some(code) => {
                        if code == "000000" {
                            "111111".to_owned()
                        } else {
                            "000000".to_owned()
                        }
                    }
                    None => {
                        assert!(!requested.code_sign_in);
                        link_only += 1;
                        "000000".to_owned()
                    }
                }
            }
            Err(SignInError::RateLimited { retry_after_secs }) => {
                now += SignedDuration::from_secs(retry_after_secs);
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        loop {
            match signin::verify_code(&store, &email, &wrong, "", now).await {
                Err(SignInError::OtpInvalid) => judged += 1,
                Err(SignInError::AttemptsExceeded { retry_after_secs: None }) => {
                    judged += 1; // this guess burned the code
                    break;
                }
                Err(SignInError::AttemptsExceeded { retry_after_secs: Some(secs) }) => {
                    blocks.push(secs);
                    now += SignedDuration::from_secs(secs);
                    break;
                }
                Err(SignInError::CodeBurned | SignInError::NoCodePending | SignInError::OtpExpired) => break,
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("a wrong code signed in"),
            }
            now += SignedDuration::from_secs(1);
        }
        now += SignedDuration::from_secs(1);
    }
    println!("30 days of guessing: {judged} wrong codes judged, {codes} codes asked for ({link_only} link-only), blocks (s): {blocks:?}");
    assert!(judged <= 100, "{judged} wrong codes judged in 30 days");
    assert!(judged >= 90, "the limits, not the simulation, stopped it: {judged}");
    assert!(blocks[0] <= 3600, "the first block lasts at most an hour: {}", blocks[0]);
    assert!(blocks.windows(2).all(|w| w[1] >= w[0]), "blocks do not shrink: {blocks:?}");
    assert!(link_only > 0, "codes asked for while blocked carried only the link");
    // A successful sign-in (by the link, the owner's way in) resets the growth.
    let requested = signin::request_code(&store, &email, hibiki_common::domain::states::Language::En, now + SignedDuration::from_hours(2))
        .await
        .unwrap();
    let link_token = secret_of(&store, &requested.mail, now + SignedDuration::from_hours(2)).await.link_token;
    signin::verify_link(&store, &link_token, "", now + SignedDuration::from_hours(2)).await.unwrap();
    let row: Option<i64> =
        sqlx::query_scalar("SELECT blocks FROM auth_failures WHERE email = $1").bind(&email).fetch_optional(app.db.pool()).await.unwrap();
    assert_eq!(row, None, "signing in clears the failures and blocks");
}

async fn guesses_with_nothing_pending_and_race_losers_do_not_count(app: &TestApp) {
    let email = unique_email();
    // Fifty guesses with no code pending: refused, not counted, the owner not blocked.
    for _ in 0..50 {
        let r = app.post("/api/auth/verify", &json!({ "email": email, "code": "123456" }), None).await;
        assert_eq!(r.status(), 400);
    }
    let failures: Option<i64> =
        sqlx::query_scalar("SELECT failures FROM auth_failures WHERE email = $1").bind(&email).fetch_optional(app.db.pool()).await.unwrap();
    assert_eq!(failures, None, "nothing was judged");
    // Twenty concurrent submissions of the correct code: one wins, the others do not count.
    assert_eq!(app.post("/api/auth/otp", &json!({ "email": email }), None).await.status(), 202);
    let (code, _) = app.latest_code(&email, 1).await;
    let answers = join_all((0..20).map(|_| app.post("/api/auth/verify", &json!({ "email": email, "code": code }), None))).await;
    let won = answers.iter().filter(|r| r.status() == 200).count();
    assert_eq!(won, 1);
    let failures: Option<i64> =
        sqlx::query_scalar("SELECT failures FROM auth_failures WHERE email = $1").bind(&email).fetch_optional(app.db.pool()).await.unwrap();
    assert_eq!(failures, None, "the race's losers did not count");
    // And the owner can sign in again at once.
    app.advance_clock(jiff::SignedDuration::from_secs(61));
    let r = app.post("/api/auth/otp", &json!({ "email": email }), None).await;
    assert_eq!(json(r).await["data"]["code_sign_in"], true);
}
