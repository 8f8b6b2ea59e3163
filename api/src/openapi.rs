//! The published OpenAPI document (`GET /api/openapi.json`). Handlers describe their own
//! answers; [`Contract`] then adds what every route shares, once: the `{success, data}`
//! envelope around each JSON answer, the error envelope of the failures any route can give
//! (400, 401, 403, 413, 415, 429, 500), and the bearer and cookie security schemes.

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ContentBuilder, ObjectBuilder, RefOr, ResponseBuilder, Schema, Type};
use utoipa::{Modify, OpenApi};

use crate::routes::{account, admin, auth, calendar, health, notifications, reminders, site};

#[derive(OpenApi)]
#[openapi(
    info(title = "Hibiki API", description = "Reminders you hear. Every answer is an envelope: {success: true, data} or {success: false, error: {code, message, fields?, retry_after?}}."),
    paths(
        auth::request_otp, auth::verify, auth::verify_link, auth::dev_login, auth::session, auth::logout, auth::sessions, auth::end_session,
        reminders::list, reminders::create_or_act, reminders::get, reminders::update, reminders::delete,
        reminders::preview, reminders::occurrences, reminders::logs, reminders::skip,
        calendar::create_token, calendar::delete_token, calendar::feed,
        account::get_settings, account::put_settings, account::delete_account, account::test_email,
        admin::stats, admin::users,
        notifications::vapid_public_key, notifications::subscriptions, notifications::delete_subscription, notifications::action, notifications::push_test, reminders::send,
        health::head, health::detail, health::status, site::site,
    ),
    components(schemas(auth::LinkPeek, crate::error::FieldDetail, hibiki_common::error::FieldCode)),
    modifiers(&Contract),
    tags((name = "auth"), (name = "reminders"), (name = "account"), (name = "admin"), (name = "notifications"), (name = "health"), (name = "calendar"))
)]
pub struct ApiDoc;

/// Routes anyone may call.
const PUBLIC: [&str; 10] = [
    "/api/site",
    "/api/auth/otp",
    "/api/auth/verify",
    "/api/auth/verify-link",
    "/api/auth/dev-login",
    "/api/notifications/vapid-public-key",
    "/api/health",
    "/api/status",
    "/api/openapi.json",
    "/api/notifications/ack",
];
/// Routes where a session is optional (the push's action token stands in for it).
const SESSION_OPTIONAL: [&str; 2] = ["/api/reminders", "/api/notifications"];

pub struct Contract;

impl Modify for Contract {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()));
        components.add_security_scheme("session_cookie", SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new("hibiki_session"))));
        components.schemas.insert("ErrorEnvelope".into(), error_envelope());
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                ("get", item.get.as_mut()),
                ("head", item.head.as_mut()),
                ("post", item.post.as_mut()),
                ("put", item.put.as_mut()),
                ("delete", item.delete.as_mut()),
            ];
            for (method, op) in operations {
                let Some(op) = op else { continue };
                let public = PUBLIC.contains(&path.as_str());
                let optional = SESSION_OPTIONAL.contains(&path.as_str()) && method == "post";
                envelope_successes(op);
                add_errors(op, method, public);
                let mut requirements = Vec::new();
                if !public {
                    requirements.push(SecurityRequirement::new("bearer", Vec::<String>::new()));
                    requirements.push(SecurityRequirement::new("session_cookie", Vec::<String>::new()));
                }
                if optional || public {
                    requirements.push(SecurityRequirement::default());
                }
                op.security = Some(requirements);
            }
        }
    }
}

/// `{success: true, data: <the handler's schema>}` for every JSON success answer.
fn envelope_successes(op: &mut Operation) {
    for (status, response) in op.responses.responses.iter_mut() {
        if !status.starts_with('2') {
            continue;
        }
        let RefOr::T(response) = response else { continue };
        for content in response.content.values_mut() {
            let Some(data) = content.schema.take() else { continue };
            let envelope = ObjectBuilder::new()
                .property("success", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([true])))
                .required("success")
                .property("data", data)
                .required("data")
                .build();
            content.schema = Some(RefOr::T(Schema::Object(envelope)));
        }
    }
}

/// The failures any route can give, in the error envelope, where the handler did not say.
fn add_errors(op: &mut Operation, method: &str, public: bool) {
    let mut errors =
        vec![("400", "VALIDATION_FAILED or INVALID_JSON: the input is wrong"), ("429", "RATE_LIMITED"), ("500", "INTERNAL_ERROR")];
    if !public {
        errors.push(("401", "AUTHENTICATION_REQUIRED"));
    }
    if method != "get" && method != "head" {
        errors.push(("403", "CSRF_REJECTED: a cookie-authenticated request from another site"));
        errors.push(("413", "PAYLOAD_TOO_LARGE: over 64 KiB"));
        errors.push(("415", "UNSUPPORTED_MEDIA_TYPE: not JSON"));
    }
    if op.parameters.as_ref().is_some_and(|p| p.iter().any(|p| p.parameter_in == utoipa::openapi::path::ParameterIn::Path)) {
        errors.push(("404", "NOT_FOUND"));
    }
    for (status, description) in errors {
        let response = ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name("ErrorEnvelope")))).build(),
            )
            .build();
        match op.responses.responses.get_mut(status) {
            // The handler named the codes; give it the envelope.
            Some(RefOr::T(existing)) if existing.content.is_empty() => {
                existing.content = response.content;
            }
            Some(_) => {}
            None => {
                op.responses.responses.insert(status.to_owned(), RefOr::T(response));
            }
        }
    }
}

fn error_envelope() -> RefOr<Schema> {
    let string = || ObjectBuilder::new().schema_type(Type::String);
    let error = ObjectBuilder::new()
        .property("code", string())
        .required("code")
        .property("message", string())
        .required("message")
        .property("fields", ObjectBuilder::new().schema_type(Type::Object).additional_properties(Some(string())))
        .property(
            "details",
            utoipa::openapi::schema::ArrayBuilder::new().items(RefOr::<Schema>::Ref(utoipa::openapi::Ref::from_schema_name("FieldDetail"))),
        )
        .property("retry_after", ObjectBuilder::new().schema_type(Type::Integer));
    RefOr::T(Schema::Object(
        ObjectBuilder::new()
            .property("success", ObjectBuilder::new().schema_type(Type::Boolean).enum_values(Some([false])))
            .required("success")
            .property("error", error)
            .required("error")
            .property("error_type", string())
            .build(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The web app's API types are generated from this document (`web/src/lib/openapi.json`,
    /// then `npm run api-types`): the committed copy must be the server's, so the types cannot
    /// drift from the server. `HIBIKI_UPDATE_OPENAPI=1 cargo test -p hibiki-api openapi` writes it.
    #[test]
    fn the_web_apps_copy_of_the_document_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src/lib/openapi.json");
        let current = format!("{}\n", serde_json::to_string_pretty(&ApiDoc::openapi()).unwrap());
        if std::env::var("HIBIKI_UPDATE_OPENAPI").is_ok_and(|v| v == "1") {
            std::fs::write(path, &current).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == current,
            "web/src/lib/openapi.json is stale: run HIBIKI_UPDATE_OPENAPI=1 cargo test -p hibiki-api openapi, then npm run api-types in web/"
        );
    }
}
