use utoipa::OpenApi;

use crate::routes::{account, admin, auth, health, notifications, reminders};

#[derive(OpenApi)]
#[openapi(
    info(title = "Hibiki API", description = "Reminders you hear. Every answer is an envelope: {success: true, data} or {success: false, error: {code, message, fields?, retry_after?}}."),
    paths(
        auth::request_otp, auth::verify, auth::verify_link, auth::dev_login, auth::session, auth::logout,
        reminders::list, reminders::create_or_act, reminders::get, reminders::update, reminders::delete,
        reminders::preview, reminders::occurrences, reminders::logs,
        account::get_settings, account::put_settings, account::delete_account, account::test_email,
        admin::stats, admin::users,
        notifications::vapid_public_key, notifications::subscriptions, notifications::delete_subscription, notifications::action, notifications::push_test, reminders::send,
        health::head, health::detail, health::status,
    ),
    tags((name = "auth"), (name = "reminders"), (name = "account"), (name = "admin"), (name = "notifications"), (name = "health"))
)]
pub struct ApiDoc;
